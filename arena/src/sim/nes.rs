//! The NES frame-accurate game of the plateau benchmark (docs/spec/rules.md, "The NES plateau
//! benchmark"), played by a strategy: [`play_nes_game`].
//!
//! - The seed draws the NES randomizer's start state
//!   ([`tetris_core::generator::NesGenerator::with_frame_counting`]); from then on the
//!   randomizer steps once per simulated frame, as on the console, so from the third piece on
//!   the pieces depend on how many frames the strategy's moves took.
//! - Each game is a [`NesGame`]: an empty 10 × 20 field, the start level, one preview piece,
//!   NES gravity, delays and level progression, line-clear points only (no soft-drop points),
//!   the displayed score capped at 999,999. It ends at a top-out or when a line clear takes the
//!   level to the stop level (the clear that does it is scored).
//! - The game-over rule ([`NesRunSettings::game_over_rule`]) is the console rule by default
//!   for a gravity-aware searcher (docs/spec/rules.md: two hidden rows keep what locks above the field, a
//!   spawn is not checked, a top-out is a lock that overlaps, which for a strategy means the
//!   current piece has no placement), and the simulation rule for one that ignores gravity,
//!   which cannot model a piece moving out of an overlapping spawn (the next piece cannot
//!   spawn, or has no placement).
//! - A gravity-aware searcher (one with a frame timing) is told the level's frame timing and
//!   the player's tap rate before every decision, and whether the piece is the game's first
//!   (with the 96-frame entry delay). The chosen placement's path, one button set per frame,
//!   is replayed through the core's literal frame model; it must lock the piece exactly where
//!   the search said, and anything else is an internal error.
//! - A searcher that ignores gravity (`bfs`, `column-drop`) has its chosen placement locked
//!   directly ([`NesGame::place_directly`]), as if gravity alone had brought the piece there.
//!   Many of its placements cannot be reached at 2 frames per row, so its results overrate it.

use std::time::Duration;

use web_time::Instant;

use serde::{Deserialize, Serialize};
use tetris_core::{
    Buttons, DecisionContext, GameOverRule, Input, InputModel, NesGame, NesGameEnd,
    NesGameSettings, NesLock, NesScore, Timeline,
};
use tetris_registry::{Strategy, StrategySpec};

use crate::error::ArenaError;

/// The highest start level accepted: 28 is the last level with 2 frames per row.
pub const MAX_START_LEVEL: u8 = 28;
/// The fastest tapping: a button must be released for a frame before it counts as pressed
/// again, so one press every 2 frames (30 per second).
pub const MIN_TAP_RATE: u8 = 2;
/// The slowest tapping accepted, the gamepad search's slowest (`TAP_RATES`: 7.5
/// presses per second; slower players use the delayed auto shift, which the search does not
/// model). It is also well inside the dead frames between two pieces (10 at least), which the
/// search assumes cover the wait between presses of one thumb, so that every piece may press
/// at once on its first frame.
pub const MAX_TAP_RATE: u8 = *tetris_registry::TAP_RATES.end();
/// The deepest lookahead: the current piece and the NES's single preview piece.
pub const MAX_NES_DEPTH: usize = 2;
/// NTSC frames per second (docs/spec/rules.md, "Timing").
pub const FRAMES_PER_SECOND: f64 = 60.0988;

/// Everything that decides the games of an `arena nes` run (stored with its results).
#[derive(Clone, Debug)]
pub struct NesRunSettings {
    /// The strategy.
    pub strategy: StrategySpec,
    /// Whether its searcher ignores gravity.
    pub ignores_gravity: bool,
    /// Games to play.
    pub games: u64,
    /// Game k uses `seed + k`.
    pub seed: u64,
    /// The level games start at.
    pub start_level: u8,
    /// The level whose reaching ends a game.
    pub stop_level: u8,
    /// The player's input-frame timeline (a tap rate T is `X` and T − 1 dots).
    pub timeline: Timeline,
    /// The game-over rule: [`GameOverRule::Console`] or [`GameOverRule::Simulation`]
    /// (`crate::request::nes::nes_game_over_rule`).
    pub game_over_rule: GameOverRule,
    /// The player's input model (told to gravity-aware searchers with the tap rate).
    pub inputs: InputModel,
}

impl NesRunSettings {
    /// The settings of game `game` (0-based).
    pub fn game_settings(&self, game: u64) -> NesGameSettings {
        NesGameSettings {
            start_level: self.start_level,
            stop_level: self.stop_level,
            seed: self.seed + game,
            game_over_rule: self.game_over_rule,
        }
    }

    /// How the seeds are derived, in words.
    pub fn seed_rule(&self) -> String {
        format!(
            "game k (0-based) uses seed {} + k (seeds {}..={})",
            self.seed,
            self.seed,
            self.seed + (self.games - 1)
        )
    }

    /// The line count at which the stop level is reached, one line at a time.
    pub fn stop_lines(&self) -> Option<u32> {
        stop_level_lines(self.start_level, self.stop_level)
    }

    /// The warning printed and stored for a searcher that ignores gravity.
    pub fn gravity_note(&self) -> Option<String> {
        self.ignores_gravity.then(|| {
            format!(
                "{} ignores gravity: its placements are not all reachable at this speed; each \
                 is locked as if gravity alone had brought the piece there, which overrates \
                 the strategy",
                self.strategy.searcher
            )
        })
    }
}

/// The default game-over rule of NES games: the console rule (the plateau benchmark's) for a
/// gravity-aware searcher, the simulation rule for one that ignores gravity.
pub const fn default_nes_game_over_rule(gravity_aware: bool) -> GameOverRule {
    if gravity_aware {
        GameOverRule::Console
    } else {
        GameOverRule::Simulation
    }
}

/// The lines after which a game started at `start_level` reaches `stop_level`, counting lines
/// one at a time with the game's level rule; `None` if it is not reached within a million
/// lines (it always is for the levels the command accepts).
pub fn stop_level_lines(start_level: u8, stop_level: u8) -> Option<u32> {
    let mut score = NesScore::new(start_level);
    while score.level() != stop_level {
        if score.lines() >= 1_000_000 {
            return None;
        }
        score.add_cleared_rows(1);
    }
    Some(score.lines())
}

/// The result of one frame-accurate NES game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NesGameResult {
    /// The game's seed.
    pub seed: u64,
    /// The displayed score (capped at 999,999).
    pub score: u32,
    /// All line-clear points, uncapped.
    pub line_clear_points: u64,
    /// Rows cleared.
    pub lines: u32,
    /// The level at the end.
    pub level: u8,
    /// Pieces locked.
    pub pieces: u64,
    /// Frames from the game-start frame (0) to the last piece's lock frame (0 if no piece
    /// locked): the game's length at 60.0988 frames per second.
    pub frames: u64,
    /// `clears[n]`: locks that cleared n rows.
    pub clears: [u64; 5],
    /// Why the game ended.
    pub end: NesGameEnd,
    /// Wall-clock time of the game (timing only).
    pub elapsed: Duration,
}

/// Plays one frame-accurate NES game of `strategy` under `settings` (see the module
/// documentation for the rules). `timeline` and `inputs` are told to gravity-aware searchers.
/// `stop` is asked before every piece; when it says yes the game is abandoned and `Ok(None)`
/// returned.
///
/// Errors: a gravity-aware searcher's path that does not lock the piece where the search said
/// (or no path, or a path that is not one button set per frame) is an internal error naming
/// the game's seed, the piece (counted from 1) and both states.
pub fn play_nes_game(
    strategy: &mut Strategy,
    settings: NesGameSettings,
    timeline: Timeline,
    inputs: InputModel,
    stop: &dyn Fn() -> bool,
) -> Result<Option<NesGameResult>, ArenaError> {
    let start = Instant::now();
    let mut game = NesGame::new(settings);
    let gravity_aware = strategy.frame_timing().is_some();
    // One button set per frame; grown once to the longest path of the game.
    let mut frames: Vec<Buttons> = Vec::new();
    let mut last_lock_frame = 0u64;
    let mut end = NesGameEnd::ToppedOut;
    loop {
        if let Some(game_end) = game.end() {
            end = game_end;
            break;
        }
        if stop() {
            return Ok(None);
        }
        let board = *game.board();
        let pieces = [game.current(), game.next()];
        // The level may change within a game (not from 19 to 28, but from other levels), so
        // the timing is the current level's, decision by decision.
        let context = if gravity_aware {
            DecisionContext {
                frame_timing: Some(game.frame_timing(timeline, inputs)),
                entry_delay: game.is_first_piece(),
                game_over_rule: settings.game_over_rule,
            }
        } else {
            DecisionContext::with_game_over_rule(settings.game_over_rule)
        };
        let Some(choice) = strategy.choose_in(&board, &pieces, context) else {
            // No placement: a top-out. Under the console rule the piece cannot reach a legal
            // lock, so wherever it locks it overlaps; under the simulation rule it spawned
            // but has nowhere to go, as in the frame-less games.
            break;
        };
        let expected = choice.placement.state();
        let (piece_number, letter) = (game.pieces() + 1, game.current().letter());
        let failure = |message: String| {
            ArenaError::Internal(format!(
                "game seed {}, piece {piece_number} ({letter}): {message}",
                settings.seed
            ))
        };
        let spawn_frame = game.spawn_frame();
        let lock: NesLock = if gravity_aware {
            let path = strategy
                .path_inputs(&board, &choice.placement, context)
                .ok_or_else(|| {
                    failure(format!(
                        "the searcher gives no path to the {} it chose",
                        expected
                    ))
                })?;
            frames.clear();
            for input in path {
                match *input {
                    Input::Frame(buttons) => frames.push(buttons),
                    other => {
                        return Err(failure(format!(
                            "the path to {} holds {other:?}, not one button set per frame",
                            expected
                        )));
                    }
                }
            }
            let lock = game
                .play_frames(&frames)
                .map_err(|error| failure(format!("to {}: {error}", expected)))?;
            if lock.state != expected {
                return Err(failure(format!(
                    "the search's path should lock at {}, the frame model locked it at {}",
                    expected, lock.state
                )));
            }
            lock
        } else {
            game.place_directly(expected)
                .map_err(|error| failure(error.to_string()))?
        };
        last_lock_frame = spawn_frame + u64::from(lock.active_frames);
    }
    let score = game.score();
    Ok(Some(NesGameResult {
        seed: settings.seed,
        score: score.score(),
        line_clear_points: score.line_clear_points(),
        lines: score.lines(),
        level: score.level(),
        pieces: game.pieces(),
        frames: last_lock_frame,
        clears: game.clears(),
        end,
        elapsed: start.elapsed(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tetris_core::FrameTiming;

    #[test]
    fn the_stop_level_is_reached_at_the_lines_of_rules_md() {
        // docs/spec/rules.md: from 19 the first level-up is at 140 lines, then one every 10 lines, so
        // level 29 comes at 230; from 18 the first is at 130; from 0 at 10.
        assert_eq!(stop_level_lines(19, 29), Some(230));
        assert_eq!(stop_level_lines(19, 20), Some(140));
        assert_eq!(stop_level_lines(18, 19), Some(130));
        assert_eq!(stop_level_lines(0, 1), Some(10));
    }

    #[test]
    fn a_gravity_aware_searcher_is_told_the_level_speed_the_tap_rate_and_the_input_model() {
        let mut strategy = Strategy::from_name("gamepad+nes-plateau").unwrap();
        let settings = NesGameSettings {
            start_level: 19,
            stop_level: 20,
            seed: 1,
            game_over_rule: GameOverRule::Console,
        };
        let timeline: Timeline = "X.......X.X...".parse().unwrap();
        play_nes_game(
            &mut strategy,
            settings,
            timeline,
            InputModel::Article,
            &|| false,
        )
        .unwrap()
        .unwrap();
        // Level 19 (2 frames per row, docs/spec/rules.md) for every decision, since the game stops as
        // soon as the level turns 20; the timeline and input model as given. (The decision's
        // context is what the searcher is told, call by call.)
        assert_eq!(
            strategy.last_context().frame_timing,
            Some(FrameTiming {
                frames_per_row: 2,
                timeline,
                inputs: InputModel::Article,
            })
        );
    }

    #[test]
    fn a_column_drop_game_scores_its_clears_at_nes_values() {
        let mut strategy = Strategy::from_name("column-drop+nes-plateau").unwrap();
        let settings = NesGameSettings {
            start_level: 19,
            stop_level: 20,
            seed: 3,
            game_over_rule: GameOverRule::Simulation,
        };
        let played = play_nes_game(
            &mut strategy,
            settings,
            Timeline::THIRTY_HZ,
            InputModel::TwoThumb,
            &|| false,
        )
        .unwrap()
        .unwrap();
        assert_eq!(played.pieces, played.clears.iter().sum::<u64>());
        let rows: u64 = (1..5).map(|rows| rows as u64 * played.clears[rows]).sum();
        assert_eq!(rows, u64::from(played.lines));
        // Below 140 lines the level stays 19, so every clear is worth its base times 20.
        if played.lines < 140 {
            let expected: u64 = [40, 100, 300, 1200]
                .iter()
                .zip(&played.clears[1..])
                .map(|(base, count)| base * 20 * count)
                .sum();
            assert_eq!(played.line_clear_points, expected);
            assert_eq!(played.end, NesGameEnd::ToppedOut);
        } else {
            assert_eq!(played.end, NesGameEnd::ReachedStopLevel);
            assert_eq!(played.level, 20);
        }
        // Stopping before the first piece abandons the game.
        assert_eq!(
            play_nes_game(
                &mut strategy,
                settings,
                Timeline::THIRTY_HZ,
                InputModel::TwoThumb,
                &|| true
            )
            .unwrap(),
            None
        );
    }
}
