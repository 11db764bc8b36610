//! The errors of a run of many games: its settings, its threads, Ctrl-C, and the parts of a
//! sharded run.

use thiserror::Error as ThisError;

use tetris_arena_games::GameError;
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
            RunError::Value(_) | RunError::Refused(_) => ErrorKind::BadInput,
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
