//! The verifier's errors: [`ReplayError`], the first difference that
//! [`super::Replay::verify`] finds, with the rules ([`RulesError`]), placement
//! ([`PlacementError`]) and result ([`ResultError`]) it names. Each one's text is the line
//! `arena replay` prints after `replay FILE: `, word for word what the verifier printed before
//! it had types.

use tetris_core::{GeneratorKind, Input, Piece, PieceState};
use tetris_registry::RegistryError;
use thiserror::Error as ThisError;

use super::frames::PathError;
use super::{OLDEST_REPLAY_VERSION, REPLAY_FORMAT, REPLAY_VERSION};
use crate::sim::game::GameEnd;
use crate::sim::placement::format_path;

/// Why a replay does not verify: the first difference found. Its text is what `arena replay`
/// prints after `replay FILE: `.
#[derive(Debug, ThisError)]
pub enum ReplayError {
    /// The `format` field is not [`REPLAY_FORMAT`].
    #[error("format {found:?} is not {REPLAY_FORMAT:?}")]
    Format {
        /// The recorded `format`.
        found: String,
    },
    /// A format version this arena does not read ([`super::reads_version`]).
    #[error(
        "replay format version {found} is not supported (this arena reads versions \
         {OLDEST_REPLAY_VERSION} to {REPLAY_VERSION})"
    )]
    Version {
        /// The recorded version.
        found: u32,
    },
    /// A strategy name that builds no strategy.
    #[error("the strategy cannot be rebuilt from its name: {0}")]
    Strategy(RegistryError),
    /// Rules that no command accepts for the strategy.
    #[error("rules: {0}")]
    Rules(RulesError),
    /// A `file:` replay with a seed (a seeded game relabelled to escape the piece check).
    #[error(
        "generator {generator} has no seed, but seed {seed} is recorded (a file: replay records \
         seed 0)"
    )]
    SeedWithoutGenerator {
        /// The recorded generator.
        generator: GeneratorKind,
        /// The recorded seed.
        seed: u64,
    },
    /// A `file:` replay that stores more pieces than its placements and the strategy's
    /// lookahead saw.
    #[error(
        "the replay stores {stored} pieces, more than its {placements} placements and the \
         strategy's {depth} pieces of lookahead"
    )]
    ExtraPieces {
        /// Pieces stored.
        stored: usize,
        /// Placements recorded.
        placements: usize,
        /// The strategy's depth.
        depth: usize,
    },
    /// A seeded replay that does not store exactly `placements + depth` pieces.
    #[error(
        "the replay stores {stored} pieces, but its {placements} placements and the \
         strategy's {depth} pieces of lookahead need {wanted} (every piece the strategy saw)"
    )]
    PieceCount {
        /// Pieces stored.
        stored: usize,
        /// Placements recorded.
        placements: usize,
        /// The strategy's depth.
        depth: usize,
        /// `placements + depth`.
        wanted: usize,
    },
    /// A generator that cannot start.
    #[error("generator: {0}")]
    Generator(tetris_core::Error),
    /// A stored piece that is not the seeded generator's.
    #[error(
        "piece {number} of the recorded sequence is {stored}, but generator {generator} with \
         seed {seed} gives {generated}"
    )]
    NotTheGenerators {
        /// The piece's 1-based position in the sequence.
        number: usize,
        /// The stored piece.
        stored: Piece,
        /// The recorded generator.
        generator: GeneratorKind,
        /// The recorded seed.
        seed: u64,
        /// The generator's piece there.
        generated: Piece,
    },
    /// More placements than the piece cap allows.
    #[error("{placed} placements recorded, more than the piece cap {cap}")]
    OverCap {
        /// Placements recorded.
        placed: u64,
        /// The recorded cap.
        cap: u64,
    },
    /// A placement that does not re-play as recorded.
    #[error("placement {number}: {error}")]
    Placement {
        /// The placement's 1-based position.
        number: usize,
        /// What is wrong with it.
        error: PlacementError,
    },
    /// A recorded result that is not what the placements produce.
    #[error("result: {0}")]
    Result(ResultError),
}

/// Recorded rules that no command accepts for the strategy (after `rules: `).
#[derive(Debug, ThisError)]
pub enum RulesError {
    /// A board the core cannot build (a height outside 4..=32), or a game it cannot play.
    #[error("{0}")]
    Core(tetris_core::Error),
    /// A board height the strategy cannot play on (its pattern file's rows differ).
    #[error("{0}")]
    BoardHeight(tetris_arena_io::values::ValueError),
    /// A game-over rule that a game without frames does not play (the console rule):
    /// `GameOverRule::check_frameless`'s error.
    #[error("game_over_rule: {0}")]
    GameOverRule(tetris_core::Error),
    /// A replay of format version 2 or later without its game-over rule (only version 1 let
    /// it out, meaning `simulation`).
    #[error(
        "game_over_rule is missing, but a version-{version} replay records it (only version \
         {OLDEST_REPLAY_VERSION} may leave it out, meaning simulation)"
    )]
    MissingGameOverRule {
        /// The replay's format version.
        version: u32,
    },
    /// A piece cap of 0.
    #[error("max_pieces is 0, but a piece cap is at least 1")]
    ZeroCap,
    /// A frame timing that `--tap-rate` and `--level` could not give; the message of
    /// [`tetris_registry::check_frame_timing`].
    #[error("frame_timing: {0}")]
    FrameTiming(String),
    /// A frame timing for a searcher that ignores gravity.
    #[error("a frame_timing is recorded, but searcher {searcher} ignores gravity")]
    UnwantedFrameTiming {
        /// The searcher's name.
        searcher: String,
    },
    /// No frame timing for a gravity-aware searcher.
    #[error("no frame_timing is recorded, but searcher {searcher} is gravity-aware")]
    MissingFrameTiming {
        /// The searcher's name.
        searcher: String,
    },
}

impl ReplayError {
    /// Whether the strategy, re-deciding, decided a placement otherwise than recorded (or its
    /// outside engine failed to decide): the game itself is legal up to there.
    pub fn redecided_otherwise(&self) -> bool {
        matches!(
            self,
            ReplayError::Placement {
                error: PlacementError::EngineFault { .. }
                    | PlacementError::NoChoice { .. }
                    | PlacementError::OtherChoice { .. }
                    | PlacementError::OtherEvaluation { .. }
                    | PlacementError::NoChosenPath { .. }
                    | PlacementError::OtherPath { .. },
                ..
            }
        )
    }
}

/// What is wrong with one recorded placement (after `placement N: `).
#[derive(Debug, ThisError)]
pub enum PlacementError {
    /// The placement's piece is not the sequence's piece at its position.
    #[error("the piece is {piece} but piece {number} of the sequence is {expected}")]
    WrongPiece {
        /// The recorded piece.
        piece: Piece,
        /// The 1-based position in the sequence.
        number: usize,
        /// The sequence's piece there.
        expected: Piece,
    },
    /// More placements than stored pieces.
    #[error("the recorded sequence holds only {stored} pieces")]
    SequenceTooShort {
        /// Pieces stored.
        stored: usize,
    },
    /// A placement after the literature rule's game over.
    #[error("the game was over: the placement before landed above the field")]
    AfterGameOver,
    /// A piece that cannot spawn under the simulation rule.
    #[error("the {piece} cannot spawn: the game was over before this placement")]
    CannotSpawn {
        /// The piece.
        piece: Piece,
    },
    /// A recorded state that is not legal on the board.
    #[error("{state} is not a legal state of the {piece} on the board")]
    IllegalState {
        /// The recorded state.
        state: PieceState,
        /// The piece.
        piece: Piece,
    },
    /// A placement without its input path.
    #[error("no input path is recorded")]
    NoPath,
    /// Re-deciding, the strategy finds no placement.
    #[error("strategy {strategy} finds no placement for the {piece}")]
    NoChoice {
        /// The strategy's name.
        strategy: String,
        /// The piece.
        piece: Piece,
    },
    /// Re-deciding, the outside engine deciding for the strategy breaks the protocol (or a
    /// Python function raises).
    #[error("strategy {strategy}: {message}")]
    EngineFault {
        /// The strategy's name.
        strategy: String,
        /// The fault, as a game would record it.
        message: String,
    },
    /// Re-deciding, the strategy chooses another state.
    #[error("strategy {strategy} chooses {chosen}, the replay has {recorded}")]
    OtherChoice {
        /// The strategy's name.
        strategy: String,
        /// The state it chooses.
        chosen: PieceState,
        /// The recorded state.
        recorded: PieceState,
    },
    /// Re-deciding, the strategy's cost or features differ from the recorded evaluation.
    #[error(
        "strategy {strategy} evaluates the placement differently from the recorded cost \
         and features"
    )]
    OtherEvaluation {
        /// The strategy's name.
        strategy: String,
    },
    /// Re-deciding, the strategy's searcher finds no path to its own choice.
    #[error("strategy {strategy} finds no input path to its placement")]
    NoChosenPath {
        /// The strategy's name.
        strategy: String,
    },
    /// Re-deciding, the strategy's searcher reaches the state by another path.
    #[error(
        "strategy {strategy} reaches {state} by the path \"{}\", the replay's path is \"{}\"",
        format_path(.chosen),
        format_path(.recorded)
    )]
    OtherPath {
        /// The strategy's name.
        strategy: String,
        /// The state both paths reach.
        state: PieceState,
        /// The searcher's path.
        chosen: Vec<Input>,
        /// The recorded path.
        recorded: Vec<Input>,
    },
    /// The recorded path is not legal, or does not lock.
    #[error("{0}")]
    Path(PathError),
    /// The recorded path ends elsewhere.
    #[error("the path ends at {reached}, not at the recorded {recorded}")]
    PathEndsElsewhere {
        /// Where the path ends.
        reached: PieceState,
        /// The recorded state.
        recorded: PieceState,
    },
    /// The recorded state can still move down.
    #[error("{state} is not a lock placement: the {piece} can still move down")]
    NotALock {
        /// The recorded state.
        state: PieceState,
        /// The piece.
        piece: Piece,
    },
    /// The lock clears another number of rows.
    #[error("the lock clears {cleared} rows, the replay records {recorded}")]
    OtherClears {
        /// Rows the lock clears.
        cleared: u8,
        /// Rows recorded.
        recorded: u8,
    },
}

/// A recorded result that is not what the placements produce (after `result: `).
#[derive(Clone, Debug, PartialEq, Eq, ThisError)]
pub enum ResultError {
    /// Another piece count.
    #[error("{recorded} pieces recorded, but the replay has {placed} placements")]
    Pieces {
        /// Pieces recorded.
        recorded: u64,
        /// Placements in the replay.
        placed: u64,
    },
    /// Another line count.
    #[error("{recorded} lines recorded, the placements clear {lines}")]
    Lines {
        /// Lines recorded.
        recorded: u64,
        /// Lines the placements clear.
        lines: u64,
    },
    /// Another score.
    #[error("score {recorded} recorded, the placements score {score}")]
    Score {
        /// Score recorded.
        recorded: u32,
        /// Score of the placements.
        score: u32,
    },
    /// Another level at the end.
    #[error("level {recorded} recorded, the placements end at level {level}")]
    Level {
        /// Level recorded.
        recorded: u8,
        /// The level the placements reach.
        level: u8,
    },
    /// A replay of a version that records the level, without it.
    #[error(
        "level is missing, but a version-{version} replay records it (versions 1 and 2 do not)"
    )]
    MissingLevel {
        /// The replay's format version.
        version: u32,
    },
    /// `game_over` that disagrees with `end`.
    #[error("game_over is {game_over} but the end is {}", .end.name())]
    GameOverFlag {
        /// The recorded `game_over`.
        game_over: bool,
        /// The recorded end.
        end: GameEnd,
    },
    /// The cap was reached, but another end is recorded.
    #[error("the piece cap {placed} was reached, but the end is {}", .end.name())]
    CapNotRecorded {
        /// Placements (equal to the cap).
        placed: u64,
        /// The recorded end.
        end: GameEnd,
    },
    /// The last placement ended a literature game, but another end is recorded.
    #[error(
        "the last placement landed above the field (game over under the literature rule), \
         but the end is {}",
        .end.name()
    )]
    LandingNotRecorded {
        /// The recorded end.
        end: GameEnd,
    },
    /// A game over recorded while the next piece can spawn and has a placement.
    #[error("game over recorded, but the next piece ({next}) can spawn and has a placement")]
    NextPieceCanPlay {
        /// The next piece.
        next: Piece,
    },
    /// A game over recorded under the literature rule, which never checks the spawn, while
    /// the strategy finds a placement for the next piece.
    #[error(
        "game over recorded, but the strategy finds a placement for the next piece ({next}) \
         (the literature rule does not check the spawn)"
    )]
    NextPieceHasPlacement {
        /// The next piece.
        next: Piece,
    },
    /// A game over recorded with no piece stored after the last placement.
    #[error("game over recorded, but the sequence holds no piece after the last placement")]
    NoNextPiece,
    /// A piece cap end recorded while the placements are not the cap.
    #[error(
        "piece cap recorded, but {placed} pieces were placed and the cap is {}",
        .cap.map_or("none".to_string(), |cap| cap.to_string())
    )]
    NotAtCap {
        /// Placements.
        placed: u64,
        /// The recorded cap.
        cap: Option<u64>,
    },
    /// A sequence end recorded for an endless generator.
    #[error("the sequence cannot end: generator {generator} is endless")]
    EndlessSequence {
        /// The recorded generator.
        generator: GeneratorKind,
    },
    /// A sequence end recorded with stored pieces left unplaced.
    #[error("sequence end recorded, but {unplaced} of its {stored} pieces were not placed")]
    UnplacedPieces {
        /// Stored pieces not placed.
        unplaced: u64,
        /// Pieces stored.
        stored: usize,
    },
    /// A game stopped before it ended.
    #[error("the game was stopped before it ended; nothing to verify")]
    Stopped,
}
