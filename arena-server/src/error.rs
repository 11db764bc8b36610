//! The server's errors: the arena's, StackRabbit's query errors, and the server's own (an
//! address it cannot bind, workers that cannot start), each with its kind, which decides the
//! HTTP status of an answer ([`crate::ApiError`]) and the exit code of `arena serve`.

use thiserror::Error as ThisError;

use tetris_arena_io::ErrorKind;
use tetris_arena_jobs::JobError;
use tetris_arena_requests::error::ArenaError;

use crate::stackrabbit::CompatError;

/// Anything that fails a served request or stops the server.
#[derive(Debug, ThisError)]
pub enum ServeError {
    /// An error of the arena's jobs and runs (boxed: the server's errors stay small).
    #[error(transparent)]
    Arena(Box<ArenaError>),
    /// A job of one position or one game that failed (boxed likewise).
    #[error(transparent)]
    Job(Box<JobError>),
    /// A StackRabbit-style request the server cannot answer (its text is the body).
    #[error(transparent)]
    Compat(#[from] CompatError),
    /// The address to listen on cannot be bound (`--bind`).
    #[error("--bind {address}: {message}")]
    Bind {
        /// The address as given.
        address: String,
        /// What the system said.
        message: String,
    },
    /// The server could not start or stopped on its own failure.
    #[error("internal error: {0}")]
    Internal(String),
}

impl ServeError {
    /// What kind of failure this is.
    pub fn kind(&self) -> ErrorKind {
        match self {
            ServeError::Arena(error) => error.kind(),
            ServeError::Job(error) => error.kind(),
            ServeError::Compat(error) => error.kind(),
            ServeError::Bind { .. } => ErrorKind::BadInput,
            ServeError::Internal(_) => ErrorKind::Internal,
        }
    }
}

impl From<ArenaError> for ServeError {
    fn from(error: ArenaError) -> ServeError {
        ServeError::Arena(Box::new(error))
    }
}

impl From<JobError> for ServeError {
    fn from(error: JobError) -> ServeError {
        ServeError::Job(Box::new(error))
    }
}

impl From<tetris_arena_games::GameError> for ServeError {
    fn from(error: tetris_arena_games::GameError) -> ServeError {
        JobError::from(error).into()
    }
}

impl From<tetris_registry::RegistryError> for ServeError {
    fn from(error: tetris_registry::RegistryError) -> ServeError {
        JobError::from(error).into()
    }
}

impl From<tetris_core::Error> for ServeError {
    fn from(error: tetris_core::Error) -> ServeError {
        JobError::from(error).into()
    }
}

impl From<tetris_arena_io::values::ValueError> for ServeError {
    fn from(error: tetris_arena_io::values::ValueError) -> ServeError {
        JobError::from(error).into()
    }
}
