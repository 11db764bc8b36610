//! The errors of a run of many games: its settings, its threads, Ctrl-C, and the parts of a
//! sharded run.

use thiserror::Error as ThisError;

use tetris_arena_games::GameError;
use tetris_arena_io::Field;
use tetris_arena_io::error::{ErrorKind, FileError, core_error_kind, registry_error_kind};
use tetris_arena_io::output::OutputError;
use tetris_arena_io::values::ValueError;

/// Anything that stops a run of many games or the merge of its parts.
#[derive(Debug, ThisError)]
pub enum RunError {
    /// An error from the core crate (boards, pieces, generators, weights).
    #[error(transparent)]
    Core(#[from] tetris_core::Error),
    /// A strategy name that does not parse, names unknown engines, or whose weights cannot be
    /// loaded.
    #[error(transparent)]
    Registry(#[from] tetris_registry::RegistryError),
    /// A value that is not one its option takes.
    #[error(transparent)]
    Value(#[from] ValueError),
    /// A file that could not be read or written.
    #[error(transparent)]
    File(#[from] FileError),
    /// A game that could not be played.
    #[error(transparent)]
    Game(#[from] GameError),
    /// Settings of the run that do not fit together (games and seeds, shards, blocks), or a
    /// part file that is not one a run of this arena wrote: one line naming the option or
    /// the part.
    #[error("{0}")]
    Refused(String),
    /// A game count outside 1 to [`crate::MAX_GAMES`].
    #[error("{games} must be from 1 to {max}", games = Field::GAMES, max = crate::MAX_GAMES)]
    GameCount,
    /// A run whose last seed (the first seed plus the games after the first) is past 64 bits.
    #[error("{field} {seed} + {games} overflows a 64-bit seed", field = Field::SEED)]
    SeedOverflow {
        /// The first seed.
        seed: u64,
        /// What the run plays after it, in words (`2 games`, `up to 100 games`).
        games: String,
    },
    /// A block count outside 1 to [`crate::statistics::MAX_BLOCKS`].
    #[error(
        "{blocks} must be from 1 to {max}",
        blocks = Field::BLOCKS,
        max = crate::statistics::MAX_BLOCKS
    )]
    BlockCount,
    /// More blocks than pieces: a block would place none.
    #[error(
        "{blocks} blocks for {field} {pieces} would leave a block without pieces",
        field = Field::PIECES
    )]
    BlocksOverPieces {
        /// The blocks asked for.
        blocks: u64,
        /// The pieces of the run.
        pieces: u64,
    },
    /// A shard without its part file.
    #[error(
        "{shard} writes a part file: give {out} (then `arena merge` the parts)",
        shard = Field::SHARD,
        out = Field::OUT.given("PART.json")
    )]
    PartFileMissing,
    /// A shard's part file named other than `.json`.
    #[error(
        "{out} {path}: with {shard} the part file's name must end in .json",
        out = Field::OUT,
        shard = Field::SHARD
    )]
    PartFileNotJson {
        /// The path as given.
        path: String,
    },
    /// JSON on standard output asked of a shard, which writes a part.
    #[error(
        "{json} does not apply to a sharded run, which writes a part: `arena merge --json` \
         prints the report",
        json = Field::JSON
    )]
    JsonOfShard,
    /// The run stopped by Ctrl-C: what was kept, after `interrupted by Ctrl-C` (from `:` or
    /// ` after`).
    #[error("interrupted by Ctrl-C{0}")]
    Interrupted(String),
    /// The worker threads could not be started.
    #[error("cannot start {jobs} threads: {message}")]
    Threads {
        /// The threads asked for.
        jobs: usize,
        /// What the system said.
        message: String,
    },
    /// A broken promise of the arena's own (a bug to report).
    #[error("internal error: {0}")]
    Internal(String),
}

impl RunError {
    /// What kind of failure this is.
    pub fn kind(&self) -> ErrorKind {
        match self {
            RunError::Core(error) => core_error_kind(error),
            RunError::Registry(error) => registry_error_kind(error),
            RunError::Value(_)
            | RunError::Refused(_)
            | RunError::GameCount
            | RunError::SeedOverflow { .. }
            | RunError::BlockCount
            | RunError::BlocksOverPieces { .. }
            | RunError::PartFileMissing
            | RunError::PartFileNotJson { .. }
            | RunError::JsonOfShard => ErrorKind::BadInput,
            RunError::File(error) => error.kind(),
            RunError::Game(error) => error.kind(),
            RunError::Interrupted(_) => ErrorKind::Interrupted,
            RunError::Threads { .. } | RunError::Internal(_) => ErrorKind::Internal,
        }
    }
}

impl From<OutputError> for RunError {
    /// An output that must not be replaced is a file error like any other.
    fn from(error: OutputError) -> RunError {
        RunError::File(error.into())
    }
}
