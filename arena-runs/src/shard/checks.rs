//! What a part's game results must satisfy to be results a run can have written: the counts
//! of one game that contradict each other or the run's settings ([`GameContradiction`]).
//!
//! `arena merge` takes a part's results as the report's input, so a part that was edited or
//! damaged would otherwise be reported as if it had been played. Every rule here is exactly
//! true of every game the arena plays (docs/spec/rules.md, "Levels and scoring"), never a
//! plausibility bound: a game of a run is never refused. The rules of the piece statistics are
//! [`tetris_arena_games::analysis::pieces::PieceStatistics::check`]; which rules apply to which kind of run
//! is the kinds' ([`super::kinds`]).

use tetris_core::NesScore;

use crate::statistics::StatisticsSettings;
use tetris_arena_games::analysis::pieces::PieceStatistics;
use tetris_core::scoring::{LINE_CLEAR_POINTS, MAX_SCORE};

/// Lines a game's levels are followed for one line at a time; past them the level has
/// wrapped past 255 to 0 from any start (every start level levels up within 2,560 lines,
/// then every 10), and a clear's factor `level + 1` is only known to be 1 to 256.
const LEVELS_FOLLOWED: u64 = 10_000;

/// A way in which one game's result contradicts itself or its run's settings.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameContradiction {
    /// The clears by rows do not add up to one per piece.
    #[error("its clears add up to {clears} locks, not its {pieces} pieces")]
    Clears {
        /// Locks counted in the clears.
        clears: u128,
        /// Pieces.
        pieces: u64,
    },
    /// The lines are not those of its clears.
    #[error("its clears make {cleared} lines, not its {lines}")]
    Lines {
        /// Lines the clears make.
        cleared: u128,
        /// Lines stored.
        lines: u64,
    },
    /// More lines than its pieces' cells fill: each piece brings 4 cells to an empty board,
    /// each line takes 10.
    #[error("{lines} lines from {pieces} pieces (a line takes 10 cells, a piece brings 4)")]
    TooManyLines {
        /// Lines.
        lines: u64,
        /// Pieces.
        pieces: u64,
    },
    /// A displayed score above the NES's 999,999.
    #[error("a score of {score}, above the NES's 999,999")]
    ScoreAboveCap {
        /// The score.
        score: u32,
    },
    /// A score (or line-clear points) that its clears cannot make at the game's levels.
    #[error(
        "{what} {value}, which its clears cannot make (from {low} to {high} at its levels, \
         a multiple of 20)"
    )]
    Points {
        /// `a score` or `line-clear points`.
        what: &'static str,
        /// The stored value.
        value: u64,
        /// The least its clears make.
        low: u128,
        /// The most its clears make.
        high: u128,
    },
    /// A displayed score that is not its line-clear points capped at 999,999.
    #[error("a score of {score}, not its {points} line-clear points capped at 999,999")]
    ScoreNotPoints {
        /// The score.
        score: u32,
        /// The line-clear points.
        points: u64,
    },
    /// More pieces than the run's piece cap.
    #[error("{pieces} pieces, more than the settings' max_pieces {cap}")]
    AboveCap {
        /// Pieces.
        pieces: u64,
        /// The cap.
        cap: u64,
    },
    /// An end that its pieces or the settings contradict.
    #[error("it ended by {end} {why}")]
    End {
        /// The end, as stored.
        end: &'static str,
        /// Why that cannot be.
        why: String,
    },
    /// An NES game's points before level 29 that its level and points contradict.
    #[error(
        "{points} points before level 29, which its level {level} and its {all} line-clear \
         points contradict"
    )]
    PointsBefore29 {
        /// The points before level 29 stored.
        points: u64,
        /// The level at the end.
        level: u8,
        /// All its line-clear points.
        all: u64,
    },
    /// An NES game's level that is not the level its lines lead to.
    #[error("level {level}, but {lines} lines from level {start} lead to level {expected}")]
    Level {
        /// The level stored.
        level: u8,
        /// Lines.
        lines: u64,
        /// The start level.
        start: u8,
        /// The level the lines lead to.
        expected: u8,
    },
    /// An NES game that locked no piece but lasted frames.
    #[error("{frames} frames without a piece locked")]
    FramesWithoutPieces {
        /// Frames.
        frames: u64,
    },
    /// A game's piece statistics that disagree with the game.
    #[error("its piece statistics count {counted} {what}, the game {game}")]
    StatisticsDisagree {
        /// What is counted: `pieces`, `lines`, `games`, `game overs`.
        what: &'static str,
        /// The statistics' count.
        counted: u64,
        /// The game's.
        game: u64,
    },
}

/// A way in which one block of an `arena stats` run contradicts the run's settings.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BlockContradiction {
    /// More pieces than the settings give the block.
    #[error("{pieces} pieces, but the settings give the block {expected}")]
    TooManyPieces {
        /// Pieces counted.
        pieces: u64,
        /// The block's pieces by the settings.
        expected: u64,
    },
    /// Fewer pieces than the block's, though only a game that placed none (a game over, as
    /// the sequence of a seeded generator never ends) stops a block early.
    #[error(
        "{pieces} of the block's {expected} pieces, but its last game was no game over that \
         placed none (the only early end of a seeded generator's block)"
    )]
    EndedEarly {
        /// Pieces counted.
        pieces: u64,
        /// The block's pieces by the settings.
        expected: u64,
    },
}

impl BlockContradiction {
    /// Checks block `block`'s statistics against the run's `settings` (checked): the pieces
    /// are the block's, or fewer when the block stopped early, which with a seeded generator
    /// only a game that placed no piece does (then every game of the block was a game over).
    pub fn check(
        settings: &StatisticsSettings,
        block: u64,
        statistics: &PieceStatistics,
    ) -> Result<(), BlockContradiction> {
        let expected = settings.block_pieces(block);
        let pieces = statistics.pieces;
        if pieces > expected {
            return Err(BlockContradiction::TooManyPieces { pieces, expected });
        }
        let stopped_early = pieces < expected && settings.generator.is_seeded();
        if stopped_early && statistics.game_overs != statistics.games {
            return Err(BlockContradiction::EndedEarly { pieces, expected });
        }
        Ok(())
    }
}

/// The counts of one game that both kinds of game result store.
#[derive(Clone, Copy, Debug)]
pub struct GameCounts {
    /// Pieces locked.
    pub pieces: u64,
    /// Lines cleared.
    pub lines: u64,
    /// `clears[n]`: locks that cleared n rows.
    pub clears: [u64; 5],
    /// The displayed score.
    pub score: u32,
    /// The level the game started at (0 for the frameless games).
    pub start_level: u8,
}

/// The least and the most a game's line clears are worth: each clear of n rows is worth
/// `LINE_CLEAR_POINTS[n] × (level + 1)` at the level after its lines, which is one of the
/// levels the game passes through after its first line.
fn points_range(counts: &GameCounts) -> (u128, u128) {
    let base: u128 = counts
        .clears
        .iter()
        .zip(LINE_CLEAR_POINTS)
        .map(|(&locks, points)| u128::from(locks) * u128::from(points))
        .sum();
    let (mut low, mut high) = (256u128, 1u128);
    if counts.lines > LEVELS_FOLLOWED {
        (low, high) = (1, 256);
    } else {
        let mut score = NesScore::new(counts.start_level);
        for _ in 0..counts.lines {
            score.add_cleared_rows(1);
            let factor = u128::from(score.level()) + 1;
            (low, high) = (low.min(factor), high.max(factor));
        }
    }
    (base * low, base * high)
}

/// The level after `lines` lines from `start` (`None` past [`LEVELS_FOLLOWED`] lines).
fn level_after(start: u8, lines: u64) -> Option<u8> {
    if lines > LEVELS_FOLLOWED {
        return None;
    }
    let mut score = NesScore::new(start);
    for _ in 0..lines {
        score.add_cleared_rows(1);
    }
    Some(score.level())
}

impl GameCounts {
    /// Checks the rules of every game: a lock per piece in the clears, the lines of the clears,
    /// at most 4 cells per piece in the lines (10 cells each), a displayed score of at most
    /// 999,999 that its clears can make at the game's levels (`line_clear_points`: the
    /// uncapped points, stored by NES games, which must be in that range and capped to the
    /// score).
    pub fn check(&self, line_clear_points: Option<u64>) -> Result<(), GameContradiction> {
        let clears: u128 = self.clears.iter().map(|&locks| u128::from(locks)).sum();
        if clears != u128::from(self.pieces) {
            return Err(GameContradiction::Clears {
                clears,
                pieces: self.pieces,
            });
        }
        let cleared: u128 = (0u128..)
            .zip(self.clears)
            .map(|(rows, locks)| rows * u128::from(locks))
            .sum();
        if cleared != u128::from(self.lines) {
            return Err(GameContradiction::Lines {
                cleared,
                lines: self.lines,
            });
        }
        if 10 * u128::from(self.lines) > 4 * u128::from(self.pieces) {
            return Err(GameContradiction::TooManyLines {
                lines: self.lines,
                pieces: self.pieces,
            });
        }
        if self.score > MAX_SCORE {
            return Err(GameContradiction::ScoreAboveCap { score: self.score });
        }
        let (low, high) = points_range(self);
        let makes = |value: u64| (low..=high).contains(&u128::from(value)) && value % 20 == 0;
        let cap = u128::from(MAX_SCORE);
        match line_clear_points {
            Some(points) => {
                if !makes(points) {
                    return Err(GameContradiction::Points {
                        what: "line-clear points",
                        value: points,
                        low,
                        high,
                    });
                }
                if u64::from(self.score) != points.min(u64::from(MAX_SCORE)) {
                    return Err(GameContradiction::ScoreNotPoints {
                        score: self.score,
                        points,
                    });
                }
            }
            None => {
                let capped = self.score == MAX_SCORE && high >= cap;
                if !(makes(u64::from(self.score)) || capped) {
                    return Err(GameContradiction::Points {
                        what: "a score of",
                        value: u64::from(self.score),
                        low: low.min(cap),
                        high: high.min(cap),
                    });
                }
            }
        }
        Ok(())
    }

    /// Checks an NES game's level (the one its lines lead to from the start level).
    pub fn check_level(&self, level: u8) -> Result<(), GameContradiction> {
        match level_after(self.start_level, self.lines) {
            Some(expected) if expected != level => Err(GameContradiction::Level {
                level,
                lines: self.lines,
                start: self.start_level,
                expected,
            }),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(clears: [u64; 5], score: u32, start_level: u8) -> GameCounts {
        GameCounts {
            pieces: clears.iter().sum(),
            lines: (0..5).map(|rows| rows as u64 * clears[rows]).sum(),
            clears,
            score,
            start_level,
        }
    }

    #[test]
    fn scores_are_checked_against_what_the_clears_make_at_the_levels_passed() {
        // From level 0, one single (level 0: 40 × 1) and one tetris (lines 2–5, level 0:
        // 1200 × 1): 1240 whatever the order; 30 pieces bring 120 cells for 5 lines.
        let mut game = counts([28, 1, 0, 0, 1], 1240, 0);
        assert_eq!(game.check(None), Ok(()));
        game.score = 1260;
        assert!(matches!(
            game.check(None),
            Err(GameContradiction::Points {
                low: 1240,
                high: 1240,
                ..
            })
        ));
        // From level 19, a tetris is worth 1200 × 20 = 24,000 (no level-up within 4 lines).
        let game = counts([10, 0, 0, 0, 1], 24_000, 19);
        assert_eq!(game.check(Some(24_000)), Ok(()));
        assert!(game.check(Some(24_020)).is_err());
        assert!(matches!(
            counts([10, 0, 0, 0, 1], 23_000, 19).check(Some(24_000)),
            Err(GameContradiction::ScoreNotPoints { .. })
        ));
        // 999,999 is the cap; a billion is not a score.
        assert_eq!(
            counts([0; 5], 1_000_000_000, 0).check(None),
            Err(GameContradiction::ScoreAboveCap {
                score: 1_000_000_000
            })
        );
        // More lines than cells: one tetris from 9 pieces (36 cells for 40).
        assert!(matches!(
            counts([8, 0, 0, 0, 1], 1200, 0).check(None),
            Err(GameContradiction::TooManyLines { .. })
        ));
        // 140 lines from level 19 lead to level 20 (docs/spec/rules.md).
        assert_eq!(counts([0; 5], 0, 19).check_level(19), Ok(()));
        let mut game = counts([0; 5], 0, 19);
        game.lines = 140;
        assert_eq!(game.check_level(20), Ok(()));
        assert!(game.check_level(19).is_err());
    }
}
