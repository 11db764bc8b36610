//! The NES frame-accurate game of the plateau benchmark (docs/spec/rules.md, "The NES plateau
//! benchmark"), played by a strategy: [`play_nes_game`].
//!
//! - The seed draws the NES randomizer's start state
//!   ([`tetris_core::generator::NesGenerator::with_frame_counting`]); from then on the
//!   randomizer steps once per simulated frame, as on the console, so from the third piece on
//!   the pieces depend on how many frames the strategy's moves took.
//! - Each game is a [`NesGame`]: an empty 10 × 20 field, the start level, one preview piece,
//!   NES gravity, delays and level progression, line-clear points only (no soft-drop points),
//!   the displayed score capped at 999,999. It ends at a top-out, when a line clear takes the
//!   level to the stop level, or when a line clear takes the lines to the run's line cap
//!   (`--max-lines`; the clear that does either is scored in full, all its rows and points,
//!   so a capped game has N to N + 3 lines). When one clear does both, the end is the stop
//!   level's.
//! - Each game records its line-clear points before level 29 ([`NesGameResult::points_before_level_29`]),
//!   the figure BetaTetris reports.
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
//! - On request ([`NesGamePlay::trace`]) a game keeps a trace: every lock with the board, the
//!   pieces and the score before it, where the piece locked and the frames that took it
//!   there (a [`TraceLock`] each; `arena nes --trace` writes them, [`tetris_arena_reports::nes_trace`]).

use std::time::Duration;

use web_time::Instant;

use serde::{Deserialize, Serialize};
use tetris_core::scoring::ONE_FRAME_LEVEL;
use tetris_core::{
    Buttons, DecisionContext, GameOverRule, Input, InputModel, NesGame, NesGameEnd,
    NesGameSettings, NesLock, NesScore, Placement, Timeline,
};
use tetris_registry::protocol::{Start, Stop};
use tetris_registry::{FaultKind, GameTally, Strategy, StrategySpec};

use crate::analysis::decision_time::DecisionTimes;
use crate::error::GameError;
use crate::sim::nes_trace::TraceLock;
use crate::sim::placement::PlayedPlacement;
use crate::sim::reaction::{PathFault, piece_frames};

pub use tetris_arena_io::values::MAX_START_LEVEL;
/// The level before whose transition a game's points are counted for BetaTetris's "points
/// before level 29" ([`NesGameResult::points_before_level_29`]): the first level at 1 frame
/// per row.
pub const POINTS_BEFORE_LEVEL: u8 = ONE_FRAME_LEVEL;
/// The levels whose reaching the report counts, as BetaTetris publishes it: 19 (for games
/// started at 18), 29 (one frame per row) and 39 (the tournaments' super kill screen).
pub const REPORTED_LEVELS: [u8; 3] = [19, 29, 39];
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

/// The player of an NES game: how fast it presses and which buttons on which frames (told to
/// gravity-aware searchers), and how many frames it takes to see the preview piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NesPlayer {
    /// The input-frame timeline (a tap rate T is `X` and T − 1 dots).
    pub timeline: Timeline,
    /// The input model.
    pub inputs: InputModel,
    /// Frames from a piece's spawn before the player sees the preview piece (0 to
    /// [`crate::sim::reaction::MAX_REACTION_FRAMES`]; 0: at once). See [`crate::sim::reaction`].
    pub reaction_frames: u8,
}

impl NesPlayer {
    /// A player with `timeline` and `inputs` who sees the preview piece at once.
    pub fn without_reaction(timeline: Timeline, inputs: InputModel) -> NesPlayer {
        NesPlayer {
            timeline,
            inputs,
            reaction_frames: 0,
        }
    }
}

/// How one game is played beyond the console's settings: the run's line cap, the player and
/// whether the game keeps a trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NesGamePlay {
    /// The line cap: the game ends when a line clear takes its lines to this many or more
    /// (`None`: no cap).
    pub max_lines: Option<u32>,
    /// The player.
    pub player: NesPlayer,
    /// Whether to keep every lock in [`NesGameResult::trace`] (it changes nothing else).
    pub trace: bool,
}

impl NesGamePlay {
    /// No line cap, no trace: `player` plays the game to its end.
    pub fn by(player: NesPlayer) -> NesGamePlay {
        NesGamePlay {
            max_lines: None,
            player,
            trace: false,
        }
    }
}

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
    /// The line cap: a game ends when a line clear takes its lines to this many or more
    /// (`None`: no cap).
    pub max_lines: Option<u32>,
    /// The player's input-frame timeline (a tap rate T is `X` and T − 1 dots).
    pub timeline: Timeline,
    /// The game-over rule: [`GameOverRule::Console`] or [`GameOverRule::Simulation`]
    /// (`tetris_arena_requests::nes::nes_game_over_rule`).
    pub game_over_rule: GameOverRule,
    /// The player's input model (told to gravity-aware searchers with the tap rate).
    pub inputs: InputModel,
    /// Frames before the player sees the preview piece ([`NesPlayer::reaction_frames`]).
    pub reaction_frames: u8,
    /// The outside engine deciding for the strategy as it names itself (`NAME VERSION`: a
    /// bot's handshake, a server's version), `None` for the arena's own engines: the reports
    /// name it, since its results are only as repeatable as it is.
    pub engine: Option<String>,
}

impl NesRunSettings {
    /// The games' player: the timeline, the input model and the reaction time.
    pub fn player(&self) -> NesPlayer {
        NesPlayer {
            timeline: self.timeline,
            inputs: self.inputs,
            reaction_frames: self.reaction_frames,
        }
    }

    /// How each game is played: the run's line cap and player, with a trace if `trace`.
    pub fn game_play(&self, trace: bool) -> NesGamePlay {
        NesGamePlay {
            max_lines: self.max_lines,
            player: self.player(),
            trace,
        }
    }

    /// The settings of game `game` (0-based).
    pub fn game_settings(&self, game: u64) -> NesGameSettings {
        NesGameSettings {
            start_level: self.start_level,
            stop_level: self.stop_level,
            seed: self.seed + game,
            game_over_rule: self.game_over_rule,
        }
    }

    /// The timeline as results record it: a uniform one by its tap rate (as every result
    /// written before timelines existed), a mixed one by its pattern; exactly one is `Some`.
    pub fn recorded_timeline(&self) -> (Option<u8>, Option<Timeline>) {
        match self.timeline.tap_rate() {
            Some(tap_rate) => (Some(tap_rate), None),
            None => (None, Some(self.timeline)),
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

    /// Whether the run measures the share of games reaching `level`: a level above the start
    /// and at most the stop level, and reached before the line cap if there is one.
    pub fn measures_level(&self, level: u8) -> bool {
        let before_the_cap = match (self.max_lines, stop_level_lines(self.start_level, level)) {
            (Some(cap), Some(lines)) => lines <= cap + 3,
            (None, Some(_)) => true,
            (_, None) => false,
        };
        self.start_level < level && level <= self.stop_level && before_the_cap
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

/// How a game of an `arena nes` run ended: the frame model's two ends ([`NesGameEnd`]) and
/// the run's line cap, which the console does not have.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum NesEnd {
    /// A top-out ([`NesGameEnd::ToppedOut`]).
    #[serde(rename = "top-out")]
    ToppedOut,
    /// A line clear reached the stop level ([`NesGameEnd::ReachedStopLevel`]).
    #[serde(rename = "stop-level")]
    ReachedStopLevel,
    /// A line clear took the lines to the line cap (`--max-lines`) or past it.
    #[serde(rename = "line-cap")]
    ReachedLineCap,
    /// The outside engine deciding for the strategy broke the protocol: the game ends with
    /// what it scored, and its result holds the reason ([`NesGameResult::fault`]).
    #[serde(rename = "fault")]
    Fault,
}

impl NesEnd {
    /// The name used in JSON and CSV output: `top-out`, `stop-level`, `line-cap` or `fault`.
    pub fn name(self) -> &'static str {
        match self {
            NesEnd::ToppedOut => "top-out",
            NesEnd::ReachedStopLevel => "stop-level",
            NesEnd::ReachedLineCap => "line-cap",
            NesEnd::Fault => "fault",
        }
    }
}

impl From<NesGameEnd> for NesEnd {
    fn from(end: NesGameEnd) -> NesEnd {
        match end {
            NesGameEnd::ToppedOut => NesEnd::ToppedOut,
            NesGameEnd::ReachedStopLevel => NesEnd::ReachedStopLevel,
        }
    }
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
    pub end: NesEnd,
    /// With [`NesEnd::Fault`], what the outside engine did (one line).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fault: Option<String>,
    /// Wall-clock time of the game (timing only).
    #[serde(deserialize_with = "tetris_arena_io::values::game_duration")]
    pub elapsed: Duration,
    /// How long each of its decisions took: the choice and its path (timing only; not
    /// written to part files, so a merged run has none).
    #[serde(skip)]
    pub decision_times: DecisionTimes,
    /// The uncapped line-clear points when the level became [`POINTS_BEFORE_LEVEL`] (29):
    /// after the clear that took it there, that clear included (it scores at level 29, as
    /// the console does); the final points of a game that never reached 29; 0 for a game
    /// started at 29 or above. `None` only in part files written before it was recorded, all
    /// of games that stopped at level 29 or below, whose points before 29 are all their points
    /// ([`NesGameResult::points_before_29`]; the merge refuses older parts of runs past 29).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points_before_level_29: Option<u64>,
    /// Every lock, in order, when the game was traced ([`NesGamePlay::trace`]); never written
    /// to part files.
    #[serde(skip)]
    pub trace: Option<Vec<TraceLock>>,
}

impl NesGameResult {
    /// The points before level 29 ([`NesGameResult::points_before_level_29`]), or, for a result
    /// that does not record them (older parts of runs that stopped at 29 or below), all its
    /// line-clear points.
    pub fn points_before_29(&self) -> u64 {
        self.points_before_level_29
            .unwrap_or(self.line_clear_points)
    }
}

/// Plays one frame-accurate NES game of `strategy` under `settings` (see the module
/// documentation for the rules), ending it at `play`'s line cap if there is one.
/// `play.player`'s timeline and input model are told to gravity-aware searchers, which play
/// with its reaction time ([`crate::sim::reaction`]); with `play.trace` the result keeps every
/// lock. `stop` is asked before every piece; when it says yes the game is abandoned and
/// `Ok(None)` returned.
///
/// Errors: a gravity-aware searcher's path that does not lock the piece where the search said
/// (or no path, or a path that is not one button set per frame) is an internal error naming
/// the game's seed, the piece (counted from 1) and both states.
pub fn play_nes_game(
    strategy: &mut Strategy,
    settings: NesGameSettings,
    play: NesGamePlay,
    stop: &dyn Fn() -> bool,
) -> Result<Option<NesGameResult>, GameError> {
    let NesGamePlay {
        max_lines, player, ..
    } = play;
    let start = Instant::now();
    let mut trace = play.trace.then(Vec::new);
    let mut game = NesGame::new(settings);
    let gravity_aware = strategy.frame_timing().is_some();
    // One button set per frame; grown once to the longest path of the game.
    let mut frames: Vec<Buttons> = Vec::new();
    let mut last_lock_frame = 0u64;
    let mut end = NesEnd::ToppedOut;
    let mut fault = None;
    // The points when the level became 29 (at the start for a game started there).
    let mut points_before_29 = (settings.start_level >= POINTS_BEFORE_LEVEL).then_some(0);
    let mut decision_times = DecisionTimes::new();
    // An outside engine hears of the game (the arena's own engines ignore it).
    strategy.begin_game(&Start {
        game: 0,
        board_width: tetris_core::BOARD_WIDTH as u8,
        board_height: tetris_core::DEFAULT_BOARD_HEIGHT,
        game_over: settings.game_over_rule.to_string(),
        generator: "nes".to_string(),
        seed: settings.seed,
        max_pieces: None,
        preview: 0,
        searcher: String::new(),
        // The frames matter only to a player who presses them (a gravity-aware searcher).
        timeline: gravity_aware.then(|| player.timeline.to_string()),
        inputs: gravity_aware.then(|| player.inputs.to_string()),
    });
    loop {
        let score = game.score();
        if points_before_29.is_none() && score.level() >= POINTS_BEFORE_LEVEL {
            points_before_29 = Some(score.line_clear_points());
        }
        if let Some(game_end) = game.end() {
            end = game_end.into();
            break;
        }
        if max_lines.is_some_and(|cap| score.lines() >= cap) {
            end = NesEnd::ReachedLineCap;
            break;
        }
        if stop() {
            return Ok(None);
        }
        let board = *game.board();
        let pieces = [game.current(), game.next()];
        // The score before the lock, for the trace.
        let (level, lines, points) = (score.level(), score.lines(), score.line_clear_points());
        // The gravity may change within a game (from 18 at level 19, at 29, and from low
        // levels often; not between 19 and 28), so the timing is the current level's,
        // decision by decision.
        let context = if gravity_aware {
            DecisionContext {
                played: tetris_core::PlayedFrames::NONE,
                frame_timing: Some(game.frame_timing(player.timeline, player.inputs)),
                entry_delay: game.is_first_piece(),
                game_over_rule: settings.game_over_rule,
            }
        } else {
            DecisionContext::with_game_over_rule(settings.game_over_rule)
        };
        let deciding = Instant::now();
        let (piece_number, letter) = (game.pieces() + 1, game.current().letter());
        let failure = |message: String| {
            GameError::Internal(format!(
                "game seed {}, piece {piece_number} ({letter}): {message}",
                settings.seed
            ))
        };
        let spawn_frame = game.spawn_frame();
        let mut plan = None;
        let lock: NesLock = if gravity_aware {
            let tally = GameTally {
                pieces: game.pieces(),
                lines: u64::from(lines),
                score: score.score(),
                level,
            };
            let chosen = match piece_frames(
                strategy,
                &board,
                pieces,
                context,
                player.reaction_frames,
                &mut frames,
                tally,
            ) {
                Ok(chosen) => chosen,
                Err(PathFault::Engine(engine)) if engine.kind == FaultKind::Raised => {
                    return Err(GameError::EngineRaised(engine.message));
                }
                // The engine found no move: a top-out, as when the searcher finds none.
                Err(PathFault::Engine(engine)) if engine.kind == FaultKind::Resigned => break,
                Err(PathFault::Engine(engine)) => {
                    (end, fault) = (NesEnd::Fault, Some(engine.message));
                    break;
                }
                Err(other) => return Err(failure(other.to_string())),
            };
            let Some(chosen) = chosen else {
                // No placement: a top-out. Under the console rule the piece cannot reach a
                // legal lock, so wherever it locks it overlaps.
                break;
            };
            plan = chosen.plan.map(|plan| plan.state());
            let expected = chosen.placement.state();
            decision_times.record(deciding.elapsed());
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
            let tally = GameTally {
                pieces: game.pieces(),
                lines: u64::from(lines),
                score: score.score(),
                level,
            };
            let choice = match strategy.decide_in(&board, &pieces, context, tally) {
                Ok(choice) => choice,
                Err(engine) if engine.kind == FaultKind::Raised => {
                    return Err(GameError::EngineRaised(engine.message));
                }
                Err(engine) if engine.kind == FaultKind::Resigned => break,
                Err(engine) => {
                    (end, fault) = (NesEnd::Fault, Some(engine.message));
                    break;
                }
            };
            let Some(choice) = choice else {
                // No placement: under the simulation rule the piece spawned but has nowhere
                // to go, as in the frame-less games.
                break;
            };
            let expected = choice.placement.state();
            decision_times.record(deciding.elapsed());
            game.place_directly(expected)
                .map_err(|error| failure(error.to_string()))?
        };
        last_lock_frame = spawn_frame + u64::from(lock.active_frames);
        if let Some(trace) = &mut trace {
            let path = gravity_aware.then(|| {
                frames
                    .iter()
                    .map(|&buttons| Input::Frame(buttons))
                    .collect()
            });
            trace.push(TraceLock {
                seed: settings.seed,
                piece: piece_number,
                preview: pieces[1],
                level,
                lines,
                points,
                spawn_frame,
                board,
                placement: PlayedPlacement::new(
                    &Placement::new(pieces[0], lock.state),
                    lock.rows_cleared,
                    path,
                ),
                plan,
            });
        }
    }
    let score = game.score();
    strategy.end_game(&Stop {
        game: 0,
        end: end.name().to_string(),
        pieces: game.pieces(),
        lines: u64::from(score.lines()),
        score: score.score(),
    });
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
        fault,
        elapsed: start.elapsed(),
        decision_times,
        points_before_level_29: Some(points_before_29.unwrap_or(score.line_clear_points())),
        trace,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tetris_core::FrameTiming;

    /// The published bot's player: 30 Hz, two thumbs, no reaction time.
    fn thirty_hz() -> NesGamePlay {
        NesGamePlay::by(NesPlayer::without_reaction(
            Timeline::THIRTY_HZ,
            InputModel::TwoThumb,
        ))
    }

    /// The game `strategy` plays with `play`, to its end.
    fn played(
        strategy: &mut Strategy,
        settings: NesGameSettings,
        play: NesGamePlay,
    ) -> NesGameResult {
        play_nes_game(strategy, settings, play, &|| false)
            .unwrap()
            .unwrap()
    }

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
            NesGamePlay::by(NesPlayer::without_reaction(timeline, InputModel::Article)),
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
        let played = played(&mut strategy, settings, thirty_hz());
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
            assert_eq!(played.end, NesEnd::ToppedOut);
        } else {
            assert_eq!(played.end, NesEnd::ReachedStopLevel);
            assert_eq!(played.level, 20);
        }
        // Stopping before the first piece abandons the game.
        assert_eq!(
            play_nes_game(&mut strategy, settings, thirty_hz(), &|| true).unwrap(),
            None
        );
    }

    /// The level a game started at 18 has after `lines` lines, by docs/spec/nes-facts.md §4:
    /// the first level-up at 130 lines (10 × 18 − 50), then one every 10 lines.
    fn level_from_18(lines: u32) -> u8 {
        if lines < 130 {
            18
        } else {
            19 + ((lines - 130) / 10) as u8
        }
    }

    #[test]
    fn a_start_18_game_levels_up_at_the_consoles_line_counts_and_gravity_follows() {
        // A start-18 game locked by the frame model, piece by piece, to level 21 (150 lines):
        // after every lock the level is nes-facts.md §4's for its lines, and the next piece
        // falls at that level's frames per row (§3.1: 3 at 18, 2 at 19 to 28), which the frame
        // model shows as the frames a piece takes to fall: (row + 1) × frames per row.
        let mut strategy = Strategy::from_name("column-drop+nes-plateau@2").unwrap();
        let mut levels_seen = Vec::new();
        for seed in 1.. {
            let mut game = NesGame::new(NesGameSettings {
                start_level: 18,
                stop_level: 21,
                seed,
                game_over_rule: GameOverRule::Simulation,
            });
            while game.end().is_none() {
                let pieces = [game.current(), game.next()];
                let context = DecisionContext::with_game_over_rule(GameOverRule::Simulation);
                let Some(choice) = strategy.choose_in(game.board(), &pieces, context) else {
                    break;
                };
                let level = level_from_18(game.score().lines());
                let frames_per_row = if level == 18 { 3 } else { 2 };
                assert_eq!(u32::from(game.frames_per_row()), frames_per_row);
                let first = game.is_first_piece();
                let state = choice.placement.state();
                let lock = game.place_directly(state).unwrap();
                if !first {
                    assert_eq!(lock.active_frames, (state.y as u32 + 1) * frames_per_row);
                }
                let lines = game.score().lines();
                assert_eq!(game.score().level(), level_from_18(lines), "{lines} lines");
                levels_seen.push((lines, game.score().level()));
            }
            if game.end() == Some(NesGameEnd::ReachedStopLevel) {
                break;
            }
            levels_seen.clear();
        }
        // The game passed each level-up line: 129 lines or fewer at 18, then 19 from 130.
        let level_at = |lines: u32| {
            levels_seen
                .iter()
                .rev()
                .find(|(after, _)| *after <= lines)
                .map(|&(_, level)| level)
        };
        assert_eq!(level_at(129), Some(18));
        assert_eq!(level_at(139).map(|level| level >= 19), Some(true));
        assert_eq!(levels_seen.last().unwrap().1, 21);
    }

    #[test]
    fn the_gamepad_search_is_told_level_18s_gravity_then_level_19s() {
        // Start 18 to the transition to 19: every decision at level 18, 3 frames per row
        // (nes-facts.md §3.1); to 20, the last decisions at level 19, 2 frames per row.
        for (stop_level, frames_per_row) in [(19, 3), (20, 2)] {
            let mut strategy = Strategy::from_name("gamepad+nes-plateau@2").unwrap();
            let settings = NesGameSettings {
                start_level: 18,
                stop_level,
                seed: 1,
                game_over_rule: GameOverRule::Console,
            };
            let played = played(&mut strategy, settings, thirty_hz());
            assert_eq!(played.end, NesEnd::ReachedStopLevel, "{played:?}");
            assert_eq!(
                strategy.last_context().frame_timing.unwrap().frames_per_row,
                frames_per_row
            );
        }
        // A game started at 29 falls one row per frame from its first piece.
        let mut strategy = Strategy::from_name("gamepad+nes-plateau@2").unwrap();
        let settings = NesGameSettings {
            start_level: 29,
            stop_level: 30,
            seed: 1,
            game_over_rule: GameOverRule::Console,
        };
        let played = played(
            &mut strategy,
            settings,
            NesGamePlay {
                max_lines: Some(4),
                ..thirty_hz()
            },
        );
        assert_eq!(
            strategy.last_context().frame_timing.unwrap().frames_per_row,
            1
        );
        // Started at 29: no points before level 29.
        assert_eq!(played.points_before_level_29, Some(0));
    }

    #[test]
    fn the_line_cap_ends_a_game_and_the_last_clear_counts_in_full() {
        let mut strategy = Strategy::from_name("column-drop+nes-plateau@2").unwrap();
        let settings = NesGameSettings {
            start_level: 19,
            stop_level: 29,
            seed: 1,
            game_over_rule: GameOverRule::Simulation,
        };
        let capped = played(
            &mut strategy,
            settings,
            NesGamePlay {
                max_lines: Some(25),
                ..thirty_hz()
            },
        );
        assert_eq!(capped.end, NesEnd::ReachedLineCap);
        assert!((25..=28).contains(&capped.lines), "{capped:?}");
        // Below 140 lines every clear scores at level 19 (× 20), the last one too.
        let at_19: u64 = [40, 100, 300, 1200]
            .iter()
            .zip(&capped.clears[1..])
            .map(|(base, count)| 20 * base * count)
            .sum();
        assert_eq!(capped.line_clear_points, at_19);
        assert_eq!(capped.points_before_level_29, Some(at_19));
        // The same seed uncapped plays the same game past 25 lines: its first pieces' clears
        // are the capped game's.
        let uncapped = played(&mut strategy, settings, thirty_hz());
        assert!(uncapped.lines > capped.lines && uncapped.pieces > capped.pieces);
    }

    #[test]
    fn points_before_level_29_are_the_points_of_the_same_game_stopped_at_29() {
        // The game to level 31 is the game to level 29 until the clear that reaches 29 (the
        // randomizer follows the frames, which are the same), so its points before level 29
        // are all the points of the game stopped there.
        let mut strategy = Strategy::from_name("column-drop+nes-plateau@2").unwrap();
        let settings = |stop_level| NesGameSettings {
            start_level: 19,
            stop_level,
            seed: 1,
            game_over_rule: GameOverRule::Simulation,
        };
        let play = |strategy: &mut Strategy, stop_level| {
            played(strategy, settings(stop_level), thirty_hz())
        };
        let to_29 = play(&mut strategy, 29);
        let to_31 = play(&mut strategy, 31);
        assert_eq!(to_29.end, NesEnd::ReachedStopLevel, "{to_29:?}");
        assert_eq!(to_29.points_before_level_29, Some(to_29.line_clear_points));
        assert_eq!(to_31.points_before_level_29, Some(to_29.line_clear_points));
        assert!(to_31.line_clear_points > to_29.line_clear_points);
    }

    #[test]
    fn a_run_measures_the_levels_between_its_start_and_its_end() {
        let run = |start_level, stop_level, max_lines| NesRunSettings {
            strategy: "column-drop+nes-plateau".parse().unwrap(),
            ignores_gravity: true,
            games: 1,
            seed: 0,
            start_level,
            stop_level,
            max_lines,
            timeline: Timeline::THIRTY_HZ,
            game_over_rule: GameOverRule::Simulation,
            inputs: InputModel::TwoThumb,
            reaction_frames: 0,
            engine: None,
        };
        let measured =
            |settings: NesRunSettings| REPORTED_LEVELS.map(|level| settings.measures_level(level));
        assert_eq!(measured(run(18, 29, None)), [true, true, false]);
        assert_eq!(measured(run(19, 29, None)), [false, true, false]);
        assert_eq!(measured(run(18, 39, None)), [true, true, true]);
        // From 18, level 39 comes at 330 lines: a cap of 327 can still reach it (the last
        // clear takes 327 to at most 330), one of 326 cannot.
        assert_eq!(stop_level_lines(18, 39), Some(330));
        assert_eq!(measured(run(18, 39, Some(327))), [true, true, true]);
        assert_eq!(measured(run(18, 39, Some(326))), [true, true, false]);
        assert_eq!(measured(run(29, 39, None)), [false, false, true]);
    }
}
