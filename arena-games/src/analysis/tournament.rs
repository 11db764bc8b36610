//! A tournament's statistics: per strategy, lines per game with a 95 % interval, pieces,
//! score and Tetris share; per pair, who outlasted whom on the identical sequences and the
//! two-sided exact sign test.
//!
//! A outlasted B on a sequence when A cleared more lines, or as many lines with more pieces
//! placed; equal lines and pieces is a tie, and ties are left out of the sign test.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::analysis::counts::ValueCounts;
use crate::analysis::pieces::PieceStatistics;
use crate::analysis::stats::{Summary, sign_test_p_value};
use crate::sim::game::GameEnd;

/// One finished game.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameRow {
    /// Index of the strategy, in command-line order.
    pub strategy: usize,
    /// Game index (0-based).
    pub game: u64,
    /// The generator's seed.
    pub seed: u64,
    /// Pieces placed.
    pub pieces: u64,
    /// Rows cleared.
    pub lines: u64,
    /// NES score.
    pub score: u32,
    /// `clears[n]` = placements that cleared n rows.
    pub clears: [u64; 5],
    /// Why the game stopped.
    pub end: GameEnd,
    /// With `end` = `fault`, what the outside engine did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fault: Option<String>,
    /// Wall-clock time of the game (timing only).
    #[serde(deserialize_with = "tetris_arena_io::values::game_duration")]
    pub elapsed: Duration,
    /// The game's per-piece statistics, when `--plots` asks for them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub statistics: Option<Box<PieceStatistics>>,
}

/// One strategy's finished games, summarized exactly and mergeably: the counts of each
/// distinct value of lines, pieces and score ([`ValueCounts`]), the lines of the games that
/// ended by a top-out (the lines-per-game chart's), the clears and the ends. Its memory grows
/// with the distinct values, never with the games; two tallies add up in any order.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StrategyTally {
    /// Lines per game.
    pub lines: ValueCounts,
    /// Pieces per game.
    pub pieces: ValueCounts,
    /// NES score per game.
    pub scores: ValueCounts,
    /// Lines per game of the games that ended by a top-out (the others were cut short by the
    /// piece cap or their file sequence's end).
    pub game_over_lines: ValueCounts,
    /// `clears[n]` = placements that cleared n rows, over all games.
    pub clears: [u64; 5],
    /// Games stopped by the piece cap.
    pub capped: u64,
    /// Games whose file sequence ran out.
    pub sequence_ends: u64,
    /// Games an outside engine's fault ended (parts written before outside engines have none).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub faults: u64,
    /// The fault of the lowest-numbered game an outside engine's fault ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_fault: Option<GameFault>,
    /// Sum of the games' wall-clock times (timing only).
    pub seconds: f64,
}

/// A game an outside engine's fault ended: its number and the reason.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameFault {
    /// The game's index (0-based).
    pub game: u64,
    /// What the engine did.
    pub reason: String,
}

impl GameFault {
    /// Keeps in `first` the lower-numbered of `first` and `other` (so tallies merge to the
    /// same fault in any order).
    fn keep_first(first: &mut Option<GameFault>, other: &GameFault) {
        if first.as_ref().is_none_or(|kept| other.game < kept.game) {
            *first = Some(other.clone());
        }
    }
}

/// Whether a count is zero (a field left out of the JSON then).
fn is_zero(count: &u64) -> bool {
    *count == 0
}

impl StrategyTally {
    /// Counts one finished game.
    pub fn add(&mut self, row: &GameRow) {
        self.lines.add(row.lines);
        self.pieces.add(row.pieces);
        self.scores.add(u64::from(row.score));
        match row.end {
            GameEnd::GameOver => self.game_over_lines.add(row.lines),
            GameEnd::PieceCap => self.capped += 1,
            GameEnd::SequenceEnded => self.sequence_ends += 1,
            GameEnd::Fault => {
                self.faults += 1;
                let fault = GameFault {
                    game: row.game,
                    reason: row.fault.clone().unwrap_or_default(),
                };
                GameFault::keep_first(&mut self.first_fault, &fault);
            }
            GameEnd::Stopped => debug_assert!(false, "a stopped game is no result"),
        }
        for (total, count) in self.clears.iter_mut().zip(row.clears) {
            *total += count;
        }
        self.seconds += row.elapsed.as_secs_f64();
    }

    /// Adds `other`'s games.
    pub fn merge(&mut self, other: &StrategyTally) {
        self.lines.merge(&other.lines);
        self.pieces.merge(&other.pieces);
        self.scores.merge(&other.scores);
        self.game_over_lines.merge(&other.game_over_lines);
        for (total, count) in self.clears.iter_mut().zip(other.clears) {
            *total += count;
        }
        self.capped += other.capped;
        self.sequence_ends += other.sequence_ends;
        self.faults += other.faults;
        if let Some(fault) = &other.first_fault {
            GameFault::keep_first(&mut self.first_fault, fault);
        }
        self.seconds += other.seconds;
    }

    /// Finished games.
    pub fn games(&self) -> u64 {
        self.lines.count()
    }

    /// Why these counts cannot be those of any games, if they cannot: every game is counted
    /// once in each distribution and has one end, its clears add up to its lines and pieces
    /// (each placement clears 0 to 4 rows), and no time is negative.
    pub fn contradiction(&self) -> Option<String> {
        let games = self.games();
        if self.pieces.count() != games || self.scores.count() != games {
            return Some(format!(
                "{games} games of lines but {} of pieces and {} of scores",
                self.pieces.count(),
                self.scores.count()
            ));
        }
        let ends = self.game_over_lines.count() + self.capped + self.sequence_ends + self.faults;
        if ends != games {
            return Some(format!("{games} games but {ends} game ends"));
        }
        let cleared: u128 = (0..5).map(|n| n as u128 * u128::from(self.clears[n])).sum();
        if cleared != self.lines.sum() {
            return Some(format!(
                "clears of {cleared} rows but {} lines",
                self.lines.sum()
            ));
        }
        let placements: u128 = self.clears.iter().map(|&count| u128::from(count)).sum();
        if placements != self.pieces.sum() {
            return Some(format!(
                "{placements} placements in the clears but {} pieces",
                self.pieces.sum()
            ));
        }
        let over = self
            .game_over_lines
            .iter()
            .find(|&(lines, times)| self.lines.times(lines) < times);
        if let Some((lines, times)) = over {
            return Some(format!(
                "{times} top-outs with {lines} lines, more than its games with {lines} lines"
            ));
        }
        if !(self.seconds >= 0.0 && self.seconds.is_finite()) {
            return Some(format!("game time {} seconds", self.seconds));
        }
        None
    }

    /// This tally's summary; `most_lines`, when the games had a piece cap, the most lines a
    /// game can clear ([`most_lines`]), where the lines' interval is cut.
    pub fn summary(&self, most_lines: Option<u64>) -> StrategySummary {
        let games = self.games();
        let total_lines = self.lines.sum() as u64;
        let tetrises = self.clears[4];
        let lines = Summary::of_counts(&self.lines);
        StrategySummary {
            games: games as usize,
            lines: match most_lines {
                Some(most) => lines.map(|lines| lines.at_most(most as f64)),
                None => lines,
            },
            mean_pieces: self.pieces.mean(),
            mean_score: self.scores.mean(),
            total_pieces: self.pieces.sum() as u64,
            total_lines,
            tetrises,
            tetris_share: (total_lines > 0).then(|| (4 * tetrises) as f64 / total_lines as f64),
            capped: self.capped as usize,
            game_overs: self.game_over_lines.count() as usize,
            sequence_ends: self.sequence_ends as usize,
            faults: self.faults as usize,
            first_fault: self.first_fault.clone(),
            seconds: self.seconds,
        }
    }
}

/// The most lines a game of at most `max_pieces` pieces can clear from the empty 10-wide
/// field: each piece brings 4 cells and each line takes 10, so ⌊4 × `max_pieces` / 10⌋.
pub fn most_lines(max_pieces: u64) -> u64 {
    max_pieces.saturating_mul(4) / tetris_core::BOARD_WIDTH as u64
}

/// A strategy's summary over its finished games.
pub struct StrategySummary {
    /// Finished games.
    pub games: usize,
    /// Lines per game (`None` when no game finished).
    pub lines: Option<Summary>,
    /// Mean pieces per game.
    pub mean_pieces: Option<f64>,
    /// Mean NES score per game.
    pub mean_score: Option<f64>,
    /// Pieces over all games.
    pub total_pieces: u64,
    /// Lines over all games.
    pub total_lines: u64,
    /// Tetrises over all games.
    pub tetrises: u64,
    /// Rows cleared by Tetrises / all rows cleared (`None` when no row was cleared).
    pub tetris_share: Option<f64>,
    /// Games stopped by the piece cap.
    pub capped: usize,
    /// Games that ended by a top-out.
    pub game_overs: usize,
    /// Games whose file sequence ran out.
    pub sequence_ends: usize,
    /// Games an outside engine's fault ended.
    pub faults: usize,
    /// The lowest-numbered of them.
    pub first_fault: Option<GameFault>,
    /// Sum of the games' wall-clock times (timing only).
    pub seconds: f64,
}

impl StrategySummary {
    /// Pieces per second of game time (one thread), the strategy's speed.
    pub fn pieces_per_second(&self) -> Option<f64> {
        (self.seconds > 0.0).then(|| self.total_pieces as f64 / self.seconds)
    }
}

/// A against B on the sequences both finished.
pub struct PairResult {
    /// Index of A.
    pub a: usize,
    /// Index of B.
    pub b: usize,
    /// Sequences both finished.
    pub sequences: u64,
    /// Sequences where A outlasted B.
    pub a_outlasted: u64,
    /// Sequences where B outlasted A.
    pub b_outlasted: u64,
    /// Equal lines and pieces.
    pub ties: u64,
    /// Two-sided exact sign test on the untied sequences.
    pub p_value: f64,
}

/// A against B on the sequences both finished, as counters that add up across parts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PairTally {
    /// Sequences both finished.
    pub sequences: u64,
    /// Sequences where A outlasted B.
    pub a_outlasted: u64,
    /// Sequences where B outlasted A.
    pub b_outlasted: u64,
    /// Equal lines and pieces.
    pub ties: u64,
}

impl PairTally {
    /// Counts one sequence both finished.
    pub fn add(&mut self, game_a: &GameRow, game_b: &GameRow) {
        self.sequences += 1;
        match (game_a.lines, game_a.pieces).cmp(&(game_b.lines, game_b.pieces)) {
            std::cmp::Ordering::Greater => self.a_outlasted += 1,
            std::cmp::Ordering::Less => self.b_outlasted += 1,
            std::cmp::Ordering::Equal => self.ties += 1,
        }
    }

    /// Adds `other`'s sequences.
    pub fn merge(&mut self, other: &PairTally) {
        self.sequences += other.sequences;
        self.a_outlasted += other.a_outlasted;
        self.b_outlasted += other.b_outlasted;
        self.ties += other.ties;
    }
}

/// A tournament's games, summarized exactly and mergeably: one [`StrategyTally`] per
/// strategy and one [`PairTally`] per pair (a < b, in strategy order). Games are added one
/// sequence at a time ([`TournamentTally::add_sequence`]); tallies of disjoint games (two
/// shards' parts) add up ([`TournamentTally::merge`]) to the tally of all of them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentTally {
    /// One per strategy, in command-line order.
    pub strategies: Vec<StrategyTally>,
    /// One per pair (a, b), a < b, in the order (0, 1), (0, 2), …, (1, 2), ….
    pub pairs: Vec<PairTally>,
}

impl TournamentTally {
    /// No games of `strategies` strategies.
    pub fn new(strategies: usize) -> TournamentTally {
        TournamentTally {
            strategies: vec![StrategyTally::default(); strategies],
            pairs: vec![PairTally::default(); Self::pair_count(strategies)],
        }
    }

    /// How many pairs `strategies` strategies make (saturating: a count read from a file is
    /// compared, never allocated, before it is checked).
    pub fn pair_count(strategies: usize) -> usize {
        strategies.saturating_mul(strategies.saturating_sub(1)) / 2
    }

    /// The pairs (a, b), a < b, in the order of [`TournamentTally::pairs`].
    pub fn pair_indices(strategies: usize) -> impl Iterator<Item = (usize, usize)> {
        (0..strategies).flat_map(move |a| (a + 1..strategies).map(move |b| (a, b)))
    }

    /// Counts one sequence: `games[s]` is strategy s's game on it, `None` when that game did
    /// not finish (an interrupted run).
    pub fn add_sequence(&mut self, games: &[Option<&GameRow>]) {
        debug_assert_eq!(games.len(), self.strategies.len());
        for (tally, game) in self.strategies.iter_mut().zip(games) {
            if let Some(game) = game {
                tally.add(game);
            }
        }
        for (pair, (a, b)) in self.pairs.iter_mut().zip(Self::pair_indices(games.len())) {
            if let (Some(game_a), Some(game_b)) = (games[a], games[b]) {
                pair.add(game_a, game_b);
            }
        }
    }

    /// Adds the games of `other`, a tally of other sequences of the same strategies.
    pub fn merge(&mut self, other: &TournamentTally) {
        for (tally, more) in self.strategies.iter_mut().zip(&other.strategies) {
            tally.merge(more);
        }
        for (pair, more) in self.pairs.iter_mut().zip(&other.pairs) {
            pair.merge(more);
        }
    }

    /// Finished games of every strategy.
    pub fn games(&self) -> u64 {
        self.strategies.iter().map(StrategyTally::games).sum()
    }

    /// Why this tally cannot be that of a tournament of `strategies` strategies, if it
    /// cannot: a tally per strategy and per pair, each consistent
    /// ([`StrategyTally::contradiction`]), and no pair comparing more sequences than either
    /// strategy finished or counting its sequences other than once.
    pub fn contradiction(&self, strategies: usize) -> Option<String> {
        if self.strategies.len() != strategies || self.pairs.len() != Self::pair_count(strategies) {
            return Some(format!(
                "{} strategy tallies and {} pair tallies for {strategies} strategies",
                self.strategies.len(),
                self.pairs.len()
            ));
        }
        for (index, tally) in self.strategies.iter().enumerate() {
            if let Some(contradiction) = tally.contradiction() {
                return Some(format!("strategy {index}: {contradiction}"));
            }
        }
        for (pair, (a, b)) in self.pairs.iter().zip(Self::pair_indices(strategies)) {
            let counted =
                u128::from(pair.a_outlasted) + u128::from(pair.b_outlasted) + u128::from(pair.ties);
            let finished = self.strategies[a].games().min(self.strategies[b].games());
            if counted != u128::from(pair.sequences) || pair.sequences > finished {
                return Some(format!(
                    "pair {a}-{b}: {} sequences of {} outlasted, {} outlasted and {} ties, \
                     with {finished} games finished by both at most",
                    pair.sequences, pair.a_outlasted, pair.b_outlasted, pair.ties
                ));
            }
        }
        None
    }

    /// Every strategy's summary and every pair's comparison, for games of at most
    /// `max_pieces` pieces (`None`: no cap).
    pub fn analysis(&self, max_pieces: Option<u64>) -> TournamentAnalysis {
        let most = max_pieces.map(most_lines);
        TournamentAnalysis {
            summaries: self
                .strategies
                .iter()
                .map(|strategy| strategy.summary(most))
                .collect(),
            pairs: self
                .pairs
                .iter()
                .zip(Self::pair_indices(self.strategies.len()))
                .map(|(pair, (a, b))| PairResult {
                    a,
                    b,
                    sequences: pair.sequences,
                    a_outlasted: pair.a_outlasted,
                    b_outlasted: pair.b_outlasted,
                    ties: pair.ties,
                    p_value: sign_test_p_value(pair.a_outlasted, pair.b_outlasted),
                })
                .collect(),
        }
    }
}

/// Every strategy's summary and every pair's comparison.
pub struct TournamentAnalysis {
    /// One summary per strategy, in command-line order.
    pub summaries: Vec<StrategySummary>,
    /// Every pair (a < b) in command-line order.
    pub pairs: Vec<PairResult>,
}
