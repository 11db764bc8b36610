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
//! distribution, by linear interpolation between the closest ranks ([`percentile`]: NumPy's
//! default, Hyndman and Fan's type 7, so the 50th is the median); the points before level 29
//! ([`NesGameResult::points_before_29`]) summarized as the scores are; and the games reaching
//! levels 19, 29 and 39 (a game's final level at or above it: levels only rise in a game).

use tetris_core::scoring::MAX_SCORE;

use crate::analysis::stats::{mean, median};
use crate::sim::nes::{NesEnd, NesGameResult, REPORTED_LEVELS};

/// The score of a game that "maxed out": the most the NES displays.
pub const MAX_OUT_SCORE: u32 = MAX_SCORE;
/// The second score threshold the benchmark reports.
pub const NEAR_MAX_OUT_SCORE: u32 = 900_000;
/// The percentiles reported, as BetaTetris publishes them: the 1st, 5th, 25th and 50th.
pub const PERCENTILES: [u32; 4] = [1, 5, 25, 50];

/// The `p`th percentile (0 to 100) of `sorted` (ascending) by linear interpolation between
/// the closest ranks: with N values and `h = (N − 1) × p / 100`, the value at 0-based rank
/// ⌊h⌋ plus (h − ⌊h⌋) times the step to the next one (NumPy's default `linear`, Hyndman and
/// Fan's type 7; the 50th is the median). `None` when there are no values.
pub fn percentile(sorted: &[f64], p: u32) -> Option<f64> {
    let last = sorted.len().checked_sub(1)?;
    let rank = last as f64 * f64::from(p) / 100.0;
    let below = rank.floor() as usize;
    let above = (below + 1).min(last);
    let fraction = rank - below as f64;
    Some(sorted[below] + fraction * (sorted[above] - sorted[below]))
}

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
    /// The statistics of `scores` (one value per game, in game order: the sums run in that
    /// order, so the result does not depend on how the games were scheduled); `None` when
    /// there are none.
    pub fn of(scores: &[u64]) -> Option<ScoreStatistics> {
        let values: Vec<f64> = scores.iter().map(|&score| score as f64).collect();
        let mut ascending = values.clone();
        ascending.sort_by(f64::total_cmp);
        let descending: Vec<f64> = ascending.iter().rev().copied().collect();
        let best_third_games = scores.len().div_ceil(3);
        let best_three_quarters_games = (3 * scores.len()).div_ceil(4);
        let share = |threshold: u32| {
            let reached = scores
                .iter()
                .filter(|&&score| score >= u64::from(threshold));
            reached.count() as f64 / scores.len() as f64
        };
        Some(ScoreStatistics {
            games: scores.len(),
            mean: mean(&values)?,
            median: median(&values)?,
            best: scores.iter().copied().max()?,
            max_out_share: share(MAX_OUT_SCORE),
            near_max_out_share: share(NEAR_MAX_OUT_SCORE),
            best_third_games,
            best_third_mean: mean(&descending[..best_third_games])?,
            best_three_quarters_games,
            best_three_quarters_mean: mean(&descending[..best_three_quarters_games])?,
            percentiles: PERCENTILES.map(|p| percentile(&ascending, p).unwrap_or(f64::NAN)),
        })
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
    /// The mean pieces per game.
    pub mean_pieces: Option<f64>,
    /// The mean game length in frames (to the last lock).
    pub mean_frames: Option<f64>,
    /// Pieces over all games.
    pub total_pieces: u64,
}

impl NesSummary {
    /// Summarizes `games` (summed in the order given).
    pub fn of(games: &[NesGameResult]) -> NesSummary {
        let scores: Vec<u64> = games.iter().map(|game| u64::from(game.score)).collect();
        let points: Vec<u64> = games.iter().map(|game| game.line_clear_points).collect();
        let before_29: Vec<u64> = games.iter().map(NesGameResult::points_before_29).collect();
        let ended = |end: NesEnd| games.iter().filter(|game| game.end == end).count();
        let column = |value: fn(&NesGameResult) -> f64| -> Option<f64> {
            mean(&games.iter().map(value).collect::<Vec<f64>>())
        };
        let total_lines: u64 = games.iter().map(|game| u64::from(game.lines)).sum();
        let tetrises: u64 = games.iter().map(|game| game.clears[4]).sum();
        NesSummary {
            scores: ScoreStatistics::of(&scores),
            line_clear_points: ScoreStatistics::of(&points),
            points_before_level_29: ScoreStatistics::of(&before_29),
            reached_levels: REPORTED_LEVELS
                .map(|level| games.iter().filter(|game| game.level >= level).count()),
            mean_line_clear_points: column(|game| game.line_clear_points as f64),
            mean_lines: column(|game| f64::from(game.lines)),
            total_lines,
            tetrises,
            tetris_share: (total_lines > 0).then(|| (4 * tetrises) as f64 / total_lines as f64),
            top_outs: ended(NesEnd::ToppedOut),
            reached_stop_level: ended(NesEnd::ReachedStopLevel),
            reached_line_cap: ended(NesEnd::ReachedLineCap),
            mean_pieces: column(|game| game.pieces as f64),
            mean_frames: column(|game| game.frames as f64),
            total_pieces: games.iter().map(|game| game.pieces).sum(),
        }
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
        let at = |values: &[f64], p| percentile(values, p).unwrap();
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
        assert_eq!(percentile(&[], 50), None);
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
