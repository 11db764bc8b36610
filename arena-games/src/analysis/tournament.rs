//! A tournament's statistics: per strategy, lines per game with a 95 % interval, pieces,
//! score and Tetris share; per pair, who outlasted whom on the identical sequences and the
//! two-sided exact sign test.
//!
//! A outlasted B on a sequence when A cleared more lines, or as many lines with more pieces
//! placed; equal lines and pieces is a tie, and ties are left out of the sign test.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::analysis::pieces::PieceStatistics;
use crate::analysis::stats::{Summary, mean, sign_test_p_value};
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
    /// Wall-clock time of the game (timing only).
    pub elapsed: Duration,
    /// The game's per-piece statistics, when `--plots` asks for them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub statistics: Option<Box<PieceStatistics>>,
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
    /// Sum of the games' wall-clock times (timing only).
    pub seconds: f64,
}

impl StrategySummary {
    /// Summarizes `rows` (one strategy's games, in game order).
    pub fn new(rows: &[&GameRow]) -> StrategySummary {
        let lines: Vec<f64> = rows.iter().map(|row| row.lines as f64).collect();
        let pieces: Vec<f64> = rows.iter().map(|row| row.pieces as f64).collect();
        let scores: Vec<f64> = rows.iter().map(|row| f64::from(row.score)).collect();
        let total_lines: u64 = rows.iter().map(|row| row.lines).sum();
        let tetrises: u64 = rows.iter().map(|row| row.clears[4]).sum();
        let count_end = |end: GameEnd| rows.iter().filter(|row| row.end == end).count();
        StrategySummary {
            games: rows.len(),
            lines: Summary::of(&lines),
            mean_pieces: mean(&pieces),
            mean_score: mean(&scores),
            total_pieces: rows.iter().map(|row| row.pieces).sum(),
            total_lines,
            tetrises,
            tetris_share: (total_lines > 0).then(|| (4 * tetrises) as f64 / total_lines as f64),
            capped: count_end(GameEnd::PieceCap),
            game_overs: count_end(GameEnd::GameOver),
            sequence_ends: count_end(GameEnd::SequenceEnded),
            seconds: rows.iter().map(|row| row.elapsed.as_secs_f64()).sum(),
        }
    }

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

/// Every strategy's summary and every pair's comparison.
pub struct TournamentAnalysis {
    /// One summary per strategy, in command-line order.
    pub summaries: Vec<StrategySummary>,
    /// Every pair (a < b) in command-line order.
    pub pairs: Vec<PairResult>,
}

impl TournamentAnalysis {
    /// Summarizes `rows` (finished games of `strategies` strategies × `games` games, in any
    /// order) and compares every pair (a < b) in strategy order.
    pub fn of(rows: &[GameRow], strategies: usize, games: u64) -> TournamentAnalysis {
        // by_game[s][k]: strategy s's game k, if it finished.
        let mut by_game: Vec<Vec<Option<&GameRow>>> = vec![vec![None; games as usize]; strategies];
        for row in rows {
            by_game[row.strategy][row.game as usize] = Some(row);
        }
        let summaries = by_game
            .iter()
            .map(|games| {
                let rows: Vec<&GameRow> = games.iter().flatten().copied().collect();
                StrategySummary::new(&rows)
            })
            .collect();
        let mut pairs = Vec::new();
        for a in 0..strategies {
            for b in a + 1..strategies {
                let mut pair = PairResult {
                    a,
                    b,
                    sequences: 0,
                    a_outlasted: 0,
                    b_outlasted: 0,
                    ties: 0,
                    p_value: 1.0,
                };
                for (game_a, game_b) in by_game[a].iter().zip(&by_game[b]) {
                    let (Some(game_a), Some(game_b)) = (game_a, game_b) else {
                        continue;
                    };
                    pair.sequences += 1;
                    let outcome_a = (game_a.lines, game_a.pieces);
                    let outcome_b = (game_b.lines, game_b.pieces);
                    match outcome_a.cmp(&outcome_b) {
                        std::cmp::Ordering::Greater => pair.a_outlasted += 1,
                        std::cmp::Ordering::Less => pair.b_outlasted += 1,
                        std::cmp::Ordering::Equal => pair.ties += 1,
                    }
                }
                pair.p_value = sign_test_p_value(pair.a_outlasted, pair.b_outlasted);
                pairs.push(pair);
            }
        }
        TournamentAnalysis { summaries, pairs }
    }
}
