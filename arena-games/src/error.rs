//! The errors of playing, replaying and analysing games.

use thiserror::Error as ThisError;

use tetris_arena_io::error::{ErrorKind, FileError, core_error_kind, registry_error_kind};

/// Anything that stops a game, a replay's check or a position's analysis.
#[derive(Debug, ThisError)]
pub enum GameError {
    /// An error from the core crate (boards, pieces, generators, weights).
    #[error(transparent)]
    Core(#[from] tetris_core::Error),
    /// A strategy name that does not parse, names unknown engines, or whose weights cannot be
    /// loaded.
    #[error(transparent)]
    Registry(#[from] tetris_registry::RegistryError),
    /// A file that could not be read or written.
    #[error(transparent)]
    File(#[from] FileError),
    /// A position or request the game cannot take (e.g. more known pieces than a strategy
    /// looks at).
    #[error("{0}")]
    Refused(String),
    /// A replay file that does not parse as a replay.
    #[error("replay {path}: {message}")]
    Replay {
        /// The replay file.
        path: String,
        /// What is wrong with it.
        message: String,
    },
    /// A front end's engine (a Python function) raised an error: the run stops, and the
    /// front end raises the error itself (this message names the game and piece).
    #[error("{0}")]
    EngineRaised(String),
    /// A broken promise between the engines (e.g. a searched path that does not lock where
    /// the search said): a bug to report, not bad input.
    #[error("internal error: {0}")]
    Internal(String),
}

impl GameError {
    /// What kind of failure this is.
    pub fn kind(&self) -> ErrorKind {
        match self {
            GameError::Core(error) => core_error_kind(error),
            GameError::Registry(error) => registry_error_kind(error),
            GameError::File(error) => error.kind(),
            GameError::Refused(_) | GameError::Replay { .. } => ErrorKind::BadInput,
            GameError::EngineRaised(_) => ErrorKind::Engine,
            GameError::Internal(_) => ErrorKind::Internal,
        }
    }
}
