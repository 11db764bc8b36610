//! The errors of the jobs of one position or one game: every request's own error, and what
//! the games and files below may say, each with its kind.

use thiserror::Error as ThisError;

use tetris_arena_games::GameError;
use tetris_arena_io::error::{ErrorKind, FileError, core_error_kind, registry_error_kind};
use tetris_arena_io::values::ValueError;

use crate::RequestError;
use crate::analyze::AnalyzeRequestError;
use crate::sequence::TooFewPieces;
use crate::serve::ServeRequestError;

/// Anything that stops a job of one position or one game.
#[derive(Debug, ThisError)]
pub enum JobError {
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
    /// A request that breaks a rule every job shares.
    #[error(transparent)]
    Request(#[from] RequestError),
    /// An analysis request that breaks one of its rules.
    #[error(transparent)]
    AnalyzeRequest(#[from] AnalyzeRequestError),
    /// A served request that breaks a rule of the server.
    #[error(transparent)]
    ServeRequest(#[from] ServeRequestError),
    /// A piece file with fewer pieces than `arena sequence` asked for.
    #[error(transparent)]
    TooFewPieces(#[from] TooFewPieces),
    /// A file that could not be read or written.
    #[error(transparent)]
    File(#[from] FileError),
    /// A game that could not be played or analysed.
    #[error(transparent)]
    Game(#[from] GameError),
    /// A served game stopped before its end: its time limit passed, or the server is shutting
    /// down.
    #[error(
        "cancelled: the game was stopped before its end (the server's time limit passed or it is shutting down)"
    )]
    Cancelled,
}

impl JobError {
    /// What kind of failure this is.
    pub fn kind(&self) -> ErrorKind {
        match self {
            JobError::Core(error) => core_error_kind(error),
            JobError::Registry(error) => registry_error_kind(error),
            JobError::Value(_)
            | JobError::Request(_)
            | JobError::AnalyzeRequest(_)
            | JobError::ServeRequest(_)
            | JobError::TooFewPieces(_) => ErrorKind::BadInput,
            JobError::File(error) => error.kind(),
            JobError::Game(error) => error.kind(),
            JobError::Cancelled => ErrorKind::Interrupted,
        }
    }
}

impl From<tetris_arena_io::output::OutputError> for JobError {
    /// An output that must not be replaced is a file error like any other.
    fn from(error: tetris_arena_io::output::OutputError) -> JobError {
        JobError::File(error.into())
    }
}
