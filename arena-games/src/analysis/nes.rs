//! The NES plateau benchmark's statistics: the score distribution of a run's games and its
//! pooled summary (docs/spec/arena.md, "The NES plateau benchmark").
//!
//! Two distributions are summarized with the same statistics ([`ScoreStatistics`]): the
//! displayed score, capped at 999,999, and the uncapped line-clear points (the sum of every
//! clear's points without the cap), which is what the source article's figures are of
//! (docs/spec/arena.md). The thresholds 999,999 and 900,000 apply to both: of the uncapped points,
//! "999,999 or more" is the share of games that maxed out the display.
//!
//! Median: the mean of the two middle values for an even count. Best third: the ⌈N/3⌉ highest
//! values; best 75 %: the ⌈3N/4⌉ highest (both rounded up, so that one or two games still
//! have them; docs/spec/arena.md does not say how to round, the best third was already rounded up).
//! The Tetris share pools all games: rows cleared by Tetrises ÷ all rows cleared.
//!
//! BetaTetris's figures: the percentiles 1, 5, 25 and 50 ([`PERCENTILES`]) of each
//! distribution, by linear interpolation between the closest ranks ([`ValueCounts::percentile`]: NumPy's
//! default, Hyndman and Fan's type 7, so the 50th is the median); the points before level 29
//! ([`NesGameResult::points_before_29`]) summarized as the scores are; and the games reaching
//! levels 19, 29 and 39 (a game's final level at or above it: levels only rise in a game).

use tetris_core::scoring::MAX_SCORE;

use serde::{Deserialize, Serialize};

use crate::analysis::counts::ValueCounts;
use crate::analysis::decision_time::DecisionTimes;
use crate::sim::nes::{NesEnd, NesGameResult, REPORTED_LEVELS};

/// The score of a game that "maxed out": the most the NES displays.
pub const MAX_OUT_SCORE: u32 = MAX_SCORE;
/// The second score threshold the benchmark reports.
pub const NEAR_MAX_OUT_SCORE: u32 = 900_000;
/// The percentiles reported, as BetaTetris publishes them: the 1st, 5th, 25th and 50th.
pub const PERCENTILES: [u32; 4] = [1, 5, 25, 50];

/// The statistics of one value per game: the displayed scores (capped at 999,999) or the
/// uncapped line-clear points.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScoreStatistics {
    /// Games.
    pub games: usize,
    /// The mean value.
    pub mean: f64,
    /// The median value (the mean of the two middle values for an even count).
    pub median: f64,
    /// The highest value.
    pub best: u64,
    /// Games that reached 999,999 (the max-out) ÷ games.
    pub max_out_share: f64,
    /// Games with 900,000 or more ÷ games.
    pub near_max_out_share: f64,
    /// How many games the best third holds: ⌈games / 3⌉.
    pub best_third_games: usize,
    /// The mean of the ⌈games / 3⌉ highest values.
    pub best_third_mean: f64,
    /// How many games the best 75 % holds: ⌈3 × games / 4⌉.
    pub best_three_quarters_games: usize,
    /// The mean of the ⌈3 × games / 4⌉ highest values.
    pub best_three_quarters_mean: f64,
    /// The [`PERCENTILES`] (1st, 5th, 25th, 50th), by [`percentile`].
    pub percentiles: [f64; 4],
}

impl ScoreStatistics {
    /// The statistics of `scores` (one value per game); `None` when there are none.
    pub fn of(scores: &[u64]) -> Option<ScoreStatistics> {
        ScoreStatistics::of_counts(&ValueCounts::of(scores.iter().copied()))
    }

    /// The statistics of the values `counts` counts (exact: see [`ValueCounts`]); `None`
    /// when there are none.
    pub fn of_counts(counts: &ValueCounts) -> Option<ScoreStatistics> {
        let games = counts.count();
        let best_third_games = games.div_ceil(3);
        let best_three_quarters_games = (3 * games).div_ceil(4);
        let share = |threshold: u32| counts.at_least(u64::from(threshold)) as f64 / games as f64;
        Some(ScoreStatistics {
            games: games as usize,
            mean: counts.mean()?,
            median: counts.median()?,
            best: counts.max()?,
            max_out_share: share(MAX_OUT_SCORE),
            near_max_out_share: share(NEAR_MAX_OUT_SCORE),
            best_third_games: best_third_games as usize,
            best_third_mean: counts.top_mean(best_third_games)?,
            best_three_quarters_games: best_three_quarters_games as usize,
            best_three_quarters_mean: counts.top_mean(best_three_quarters_games)?,
            percentiles: PERCENTILES.map(|p| counts.percentile(p).unwrap_or(f64::NAN)),
        })
    }
}

/// An NES run's finished games, summarized exactly and mergeably: the counts of each
/// distinct displayed score, uncapped line-clear points, points before level 29, lines and
/// final level ([`ValueCounts`]), exact sums of the pieces and frames, the clears, the ends
/// and the decision times' histogram. Its memory grows with the distinct values (at most
/// 50,001 displayed scores), never with the games; two tallies add up in any order.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NesTally {
    /// Displayed score (capped at 999,999) per game.
    pub scores: ValueCounts,
    /// Uncapped line-clear points per game.
    pub line_clear_points: ValueCounts,
    /// Points before level 29 per game ([`NesGameResult::points_before_29`]).
    pub points_before_level_29: ValueCounts,
    /// Rows cleared per game.
    pub lines: ValueCounts,
    /// Final level per game.
    pub levels: ValueCounts,
    /// Pieces over all games.
    pub pieces: u64,
    /// Frames over all games (to each game's last lock).
    pub frames: u128,
    /// `clears[n]`: locks that cleared n rows, over all games.
    pub clears: [u64; 5],
    /// Games that ended by a top-out.
    pub top_outs: u64,
    /// Games that reached the stop level.
    pub reached_stop_level: u64,
    /// Games that reached the line cap.
    pub reached_line_cap: u64,
    /// Games an outside engine's fault ended (parts written before outside engines have
    /// none).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub faults: u64,
    /// Sum of the games' wall-clock times (timing only).
    pub seconds: f64,
    /// Every decision's time (timing only; not written to part files).
    #[serde(skip)]
    pub decision_times: DecisionTimes,
}

/// Whether a count is zero (a field left out of the JSON then).
fn is_zero(count: &u64) -> bool {
    *count == 0
}

impl NesTally {
    /// Counts one finished game.
    pub fn add(&mut self, game: &NesGameResult) {
        self.scores.add(u64::from(game.score));
        self.line_clear_points.add(game.line_clear_points);
        self.points_before_level_29.add(game.points_before_29());
        self.lines.add(u64::from(game.lines));
        self.levels.add(u64::from(game.level));
        self.pieces += game.pieces;
        self.frames += u128::from(game.frames);
        for (total, count) in self.clears.iter_mut().zip(game.clears) {
            *total += count;
        }
        match game.end {
            NesEnd::ToppedOut => self.top_outs += 1,
            NesEnd::ReachedStopLevel => self.reached_stop_level += 1,
            NesEnd::ReachedLineCap => self.reached_line_cap += 1,
            NesEnd::Fault => self.faults += 1,
        }
        self.seconds += game.elapsed.as_secs_f64();
        self.decision_times.merge(&game.decision_times);
    }

    /// The tally of `games`.
    pub fn of(games: &[NesGameResult]) -> NesTally {
        let mut tally = NesTally::default();
        for game in games {
            tally.add(game);
        }
        tally
    }

    /// Adds `other`'s games.
    pub fn merge(&mut self, other: &NesTally) {
        self.scores.merge(&other.scores);
        self.line_clear_points.merge(&other.line_clear_points);
        self.points_before_level_29
            .merge(&other.points_before_level_29);
        self.lines.merge(&other.lines);
        self.levels.merge(&other.levels);
        self.pieces += other.pieces;
        self.frames += other.frames;
        for (total, count) in self.clears.iter_mut().zip(other.clears) {
            *total += count;
        }
        self.top_outs += other.top_outs;
        self.reached_stop_level += other.reached_stop_level;
        self.reached_line_cap += other.reached_line_cap;
        self.faults += other.faults;
        self.seconds += other.seconds;
        self.decision_times.merge(&other.decision_times);
    }

    /// Finished games.
    pub fn games(&self) -> u64 {
        self.scores.count()
    }

    /// Why these counts cannot be those of any NES games, if they cannot: every game counted
    /// once in each distribution and with one end, clears that add up to the lines and
    /// pieces, no displayed score above the cap or above its game's uncapped points' range,
    /// and a finite, non-negative time.
    pub fn contradiction(&self) -> Option<String> {
        let games = self.games();
        let counts = [
            ("uncapped points", self.line_clear_points.count()),
            (
                "points before level 29",
                self.points_before_level_29.count(),
            ),
            ("lines", self.lines.count()),
            ("levels", self.levels.count()),
            (
                "ends",
                self.top_outs + self.reached_stop_level + self.reached_line_cap + self.faults,
            ),
        ];
        if let Some((what, count)) = counts.iter().find(|(_, count)| *count != games) {
            return Some(format!("{games} games of scores but {count} of {what}"));
        }
        let cleared: u128 = (0..5).map(|n| n as u128 * u128::from(self.clears[n])).sum();
        if cleared != self.lines.sum() {
            return Some(format!(
                "clears of {cleared} rows but {} lines",
                self.lines.sum()
            ));
        }
        let placements: u128 = self.clears.iter().map(|&count| u128::from(count)).sum();
        if placements != u128::from(self.pieces) {
            return Some(format!(
                "{placements} locks in the clears but {} pieces",
                self.pieces
            ));
        }
        if self
            .scores
            .max()
            .is_some_and(|best| best > u64::from(MAX_OUT_SCORE))
        {
            return Some(format!("a score above {MAX_OUT_SCORE}"));
        }
        // Each game's displayed score is its uncapped points capped, and its points before 29
        // at most its points: the sums follow.
        if self.scores.sum() > self.line_clear_points.sum()
            || self.points_before_level_29.sum() > self.line_clear_points.sum()
        {
            return Some("scores or points before level 29 above the uncapped points".to_string());
        }
        if !(self.seconds >= 0.0 && self.seconds.is_finite()) {
            return Some(format!("game time {} seconds", self.seconds));
        }
        None
    }

    /// The run's summary.
    pub fn summary(&self) -> NesSummary {
        let games = self.games();
        let total_lines = self.lines.sum() as u64;
        let tetrises = self.clears[4];
        let mean = |sum: u128| (games > 0).then(|| sum as f64 / games as f64);
        NesSummary {
            scores: ScoreStatistics::of_counts(&self.scores),
            line_clear_points: ScoreStatistics::of_counts(&self.line_clear_points),
            points_before_level_29: ScoreStatistics::of_counts(&self.points_before_level_29),
            reached_levels: REPORTED_LEVELS
                .map(|level| self.levels.at_least(u64::from(level)) as usize),
            mean_line_clear_points: self.line_clear_points.mean(),
            mean_lines: self.lines.mean(),
            total_lines,
            tetrises,
            tetris_share: (total_lines > 0).then(|| (4 * tetrises) as f64 / total_lines as f64),
            top_outs: self.top_outs as usize,
            reached_stop_level: self.reached_stop_level as usize,
            reached_line_cap: self.reached_line_cap as usize,
            faults: self.faults as usize,
            mean_pieces: mean(u128::from(self.pieces)),
            mean_frames: mean(self.frames),
            total_pieces: self.pieces,
        }
    }
}

/// The summary of a run's finished games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NesSummary {
    /// The displayed score's statistics (`None` when no game finished).
    pub scores: Option<ScoreStatistics>,
    /// The uncapped line-clear points' statistics (`None` when no game finished).
    pub line_clear_points: Option<ScoreStatistics>,
    /// The statistics of the points before level 29 (`None` when no game finished).
    pub points_before_level_29: Option<ScoreStatistics>,
    /// Games whose final level is at or above each of [`REPORTED_LEVELS`] (19, 29, 39).
    pub reached_levels: [usize; 3],
    /// The mean of the uncapped line-clear points.
    pub mean_line_clear_points: Option<f64>,
    /// The mean rows cleared per game.
    pub mean_lines: Option<f64>,
    /// Rows cleared over all games.
    pub total_lines: u64,
    /// Tetrises over all games.
    pub tetrises: u64,
    /// Rows cleared by Tetrises ÷ all rows cleared, pooled (`None` when no row was cleared).
    pub tetris_share: Option<f64>,
    /// Games that ended by a top-out.
    pub top_outs: usize,
    /// Games that reached the stop level.
    pub reached_stop_level: usize,
    /// Games that reached the line cap.
    pub reached_line_cap: usize,
    /// Games an outside engine's fault ended.
    pub faults: usize,
    /// The mean pieces per game.
    pub mean_pieces: Option<f64>,
    /// The mean game length in frames (to the last lock).
    pub mean_frames: Option<f64>,
    /// Pieces over all games.
    pub total_pieces: u64,
}

impl NesSummary {
    /// Summarizes `games` (the summary of their [`NesTally`]).
    pub fn of(games: &[NesGameResult]) -> NesSummary {
        NesTally::of(games).summary()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn score_statistics_of_seven_hand_made_scores() {
        let scores = [500_000, 999_999, 0, 900_000, 120_000, 950_000, 300_000];
        let statistics = ScoreStatistics::of(&scores).unwrap();
        // Descending: 999,999 950,000 900,000 500,000 300,000 120,000 0.
        // Sum 3,769,999, so the mean is 3,769,999 / 7.
        assert_eq!(statistics.games, 7);
        assert!((statistics.mean - 3_769_999.0 / 7.0).abs() < 1e-6);
        assert_eq!(statistics.median, 500_000.0);
        assert_eq!(statistics.best, 999_999);
        // One game at the max-out; three at 900,000 or more (900,000 itself counts).
        assert_eq!(statistics.max_out_share, 1.0 / 7.0);
        assert_eq!(statistics.near_max_out_share, 3.0 / 7.0);
        // ⌈7 / 3⌉ = 3: (999,999 + 950,000 + 900,000) / 3 = 2,849,999 / 3.
        assert_eq!(statistics.best_third_games, 3);
        assert!((statistics.best_third_mean - 2_849_999.0 / 3.0).abs() < 1e-6);
        // ⌈3 × 7 / 4⌉ = ⌈5.25⌉ = 6: all but the 0, so 3,769,999 / 6.
        assert_eq!(statistics.best_three_quarters_games, 6);
        assert!((statistics.best_three_quarters_mean - 3_769_999.0 / 6.0).abs() < 1e-6);
    }

    #[test]
    fn the_uncapped_points_are_summarized_beside_the_capped_score() {
        // Seven games' uncapped line-clear points (the article's best game is 1,313,600); the
        // displayed score is each one capped at 999,999.
        let points: [u64; 7] = [
            640_000, 1_313_600, 905_000, 999_999, 1_120_400, 899_999, 1_000_000,
        ];
        let games: Vec<NesGameResult> = points
            .iter()
            .map(|&points| NesGameResult {
                score: points.min(999_999) as u32,
                line_clear_points: points,
                ..result(0, 0, [0; 5], NesEnd::ToppedOut)
            })
            .collect();
        let summary = NesSummary::of(&games);
        let uncapped = summary.line_clear_points.unwrap();
        // Descending: 1,313,600 1,120,400 1,000,000 999,999 905,000 899,999 640,000,
        // sum 6,878,998.
        assert_eq!(uncapped.games, 7);
        assert!((uncapped.mean - 6_878_998.0 / 7.0).abs() < 1e-6);
        assert_eq!(summary.mean_line_clear_points, Some(uncapped.mean));
        assert_eq!(uncapped.median, 999_999.0);
        assert_eq!(uncapped.best, 1_313_600);
        // 999,999 or more: four games; 900,000 or more: five.
        assert_eq!(uncapped.max_out_share, 4.0 / 7.0);
        assert_eq!(uncapped.near_max_out_share, 5.0 / 7.0);
        // Best third: 3 games, 1,313,600 + 1,120,400 + 1,000,000 = 3,434,000.
        assert_eq!(uncapped.best_third_games, 3);
        assert!((uncapped.best_third_mean - 3_434_000.0 / 3.0).abs() < 1e-6);
        // Best 75 %: 6 games, all but the 640,000: 6,238,998 / 6 = 1,039,833.
        assert_eq!(uncapped.best_three_quarters_games, 6);
        assert_eq!(uncapped.best_three_quarters_mean, 1_039_833.0);
        // The capped distribution: four games at 999,999, then 905,000 899,999 640,000.
        let capped = summary.scores.unwrap();
        assert!((capped.mean - 6_444_995.0 / 7.0).abs() < 1e-6);
        assert_eq!(capped.median, 999_999.0);
        assert_eq!(capped.best, 999_999);
        assert_eq!(capped.max_out_share, 4.0 / 7.0);
        assert_eq!(capped.best_third_mean, 999_999.0);
        assert!((capped.best_three_quarters_mean - 5_804_995.0 / 6.0).abs() < 1e-6);
        assert_eq!(NesSummary::of(&[]).line_clear_points, None);
    }

    #[test]
    fn score_statistics_of_even_and_tiny_counts() {
        let statistics = ScoreStatistics::of(&[10, 40, 20, 30]).unwrap();
        // Median of 10 20 30 40: (20 + 30) / 2; best third ⌈4 / 3⌉ = 2 games: (40 + 30) / 2.
        assert_eq!(statistics.median, 25.0);
        assert_eq!(statistics.best_third_games, 2);
        assert_eq!(statistics.best_third_mean, 35.0);
        // ⌈3 × 4 / 4⌉ = 3 games: (40 + 30 + 20) / 3.
        assert_eq!(statistics.best_three_quarters_games, 3);
        assert_eq!(statistics.best_three_quarters_mean, 30.0);
        assert_eq!(statistics.max_out_share, 0.0);
        let one = ScoreStatistics::of(&[999_999]).unwrap();
        assert_eq!(one.best_third_games, 1);
        assert_eq!(one.best_third_mean, 999_999.0);
        assert_eq!(one.best_three_quarters_games, 1);
        assert_eq!(one.max_out_share, 1.0);
        assert_eq!(one.near_max_out_share, 1.0);
        assert_eq!(ScoreStatistics::of(&[]), None);
    }

    fn result(score: u32, lines: u32, clears: [u64; 5], end: NesEnd) -> NesGameResult {
        NesGameResult {
            seed: 0,
            score,
            line_clear_points: u64::from(score),
            lines,
            level: 19,
            pieces: clears.iter().sum(),
            frames: 0,
            clears,
            end,
            fault: None,
            elapsed: Duration::ZERO,
            decision_times: Default::default(),
            points_before_level_29: Some(u64::from(score)),
            trace: None,
        }
    }

    #[test]
    fn the_tetris_share_pools_the_games() {
        // Game 1: 2 Tetrises + 2 singles = 10 rows; game 2: 1 double = 2 rows. Tetris rows
        // 8 of 12.
        let games = [
            result(1, 10, [5, 2, 0, 0, 2], NesEnd::ToppedOut),
            result(2, 2, [3, 0, 1, 0, 0], NesEnd::ReachedStopLevel),
        ];
        let summary = NesSummary::of(&games);
        assert_eq!(summary.tetris_share, Some(8.0 / 12.0));
        assert_eq!(summary.total_lines, 12);
        assert_eq!(summary.top_outs, 1);
        assert_eq!(summary.reached_stop_level, 1);
        assert_eq!(summary.mean_pieces, Some((9.0 + 4.0) / 2.0));
        assert_eq!(NesSummary::of(&[]).tetris_share, None);
    }

    #[test]
    fn percentiles_interpolate_between_the_closest_ranks() {
        // Worked out by hand with h = (N - 1) p / 100 (NumPy's default gives the same):
        // five values, h = 0.04, 0.2, 1, 2 → 10.4, 12, 20, 30.
        let five = [10.0, 20.0, 30.0, 40.0, 50.0];
        let at = |values: &[f64], p| {
            ValueCounts::of(values.iter().map(|&value| value as u64))
                .percentile(p)
                .unwrap()
        };
        assert!((at(&five, 1) - 10.4).abs() < 1e-9);
        assert!((at(&five, 5) - 12.0).abs() < 1e-9);
        assert_eq!(at(&five, 25), 20.0);
        assert_eq!(at(&five, 50), 30.0);
        assert_eq!((at(&five, 0), at(&five, 100)), (10.0, 50.0));
        // Four values, h = 0.03, 0.15, 0.75, 1.5 → 10.3, 11.5, 17.5, 25 (the median).
        let four = [10.0, 20.0, 30.0, 40.0];
        assert!((at(&four, 1) - 10.3).abs() < 1e-9);
        assert!((at(&four, 5) - 11.5).abs() < 1e-9);
        assert_eq!(at(&four, 25), 17.5);
        assert_eq!(at(&four, 50), 25.0);
        assert_eq!(at(&[7.0], 1), 7.0);
        assert_eq!(ValueCounts::new().percentile(50), None);
        // The statistics sort first: the same four in another order.
        let statistics = ScoreStatistics::of(&[40, 10, 30, 20]).unwrap();
        let [p1, p5, p25, p50] = statistics.percentiles;
        assert!((p1 - 10.3).abs() < 1e-9 && (p5 - 11.5).abs() < 1e-9);
        assert_eq!((p25, p50), (17.5, statistics.median));
        // 1,000 games 1, 2, …, 1000: h = 9.99 for the 1st → 10.99; 49.95 → 50.95;
        // 249.75 → 250.75; 499.5 → 500.5.
        let thousand: Vec<u64> = (1..=1000).rev().collect();
        let statistics = ScoreStatistics::of(&thousand).unwrap();
        for (value, expected) in statistics
            .percentiles
            .iter()
            .zip([10.99, 50.95, 250.75, 500.5])
        {
            assert!((value - expected).abs() < 1e-9, "{value} != {expected}");
        }
    }

    #[test]
    fn level_shares_and_points_before_29_of_hand_made_games() {
        // Four games from 18: one tops out at level 18, one at 25, one reaches 29 with
        // 1,100,000 points of which 1,000,000 before 29, one reaches 39.
        let game = |level: u8, points: u64, before_29: u64| NesGameResult {
            level,
            line_clear_points: points,
            points_before_level_29: Some(before_29),
            trace: None,
            ..result(0, 0, [0; 5], NesEnd::ToppedOut)
        };
        let games = [
            game(18, 50_000, 50_000),
            game(25, 600_000, 600_000),
            game(29, 1_100_000, 1_000_000),
            game(39, 2_000_000, 1_200_000),
        ];
        let summary = NesSummary::of(&games);
        // Reaching 19: three games; 29: two; 39: one.
        assert_eq!(summary.reached_levels, [3, 2, 1]);
        let before_29 = summary.points_before_level_29.unwrap();
        // (50,000 + 600,000 + 1,000,000 + 1,200,000) / 4 = 712,500; median (600,000 +
        // 1,000,000) / 2.
        assert_eq!(before_29.mean, 712_500.0);
        assert_eq!(before_29.median, 800_000.0);
        assert_eq!(before_29.best, 1_200_000);
        // Ascending 50,000 600,000 1,000,000 1,200,000: the 25th percentile at h = 0.75,
        // 50,000 + 0.75 × 550,000 = 462,500.
        assert_eq!(before_29.percentiles[2], 462_500.0);
        // An older result without the field counts all its points (it stopped by 29).
        let older = NesGameResult {
            points_before_level_29: None,
            ..game(20, 300_000, 0)
        };
        assert_eq!(older.points_before_29(), 300_000);
    }
}
