//! The errors of writing reports and of tuning.

use thiserror::Error as ThisError;

use tetris_arena_games::GameError;
use tetris_arena_io::error::{ErrorKind, FileError, core_error_kind, registry_error_kind};
use tetris_arena_io::output::OutputError;
use tetris_arena_io::values::ValueError;
use tetris_arena_jobs::JobError;
use tetris_arena_runs::RunError;

/// Anything that stops a report from being written or a tuning run.
#[derive(Debug, ThisError)]
pub enum ReportError {
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
    /// A job of one game that could not be run.
    #[error(transparent)]
    Job(#[from] JobError),
    /// A run of many games that stopped.
    #[error(transparent)]
    Run(#[from] RunError),
    /// An option or file the report or the tuning run refuses (a checkpoint or iteration
    /// file that does not parse, a speed too slow): one line that names it.
    #[error("{0}")]
    Refused(String),
    /// A tuning run stopped by Ctrl-C: what was kept, after `interrupted by Ctrl-C`.
    #[error("interrupted by Ctrl-C{0}")]
    Interrupted(String),
    /// The outside command a tuning run hands its tasks to (`--runner`) gave no valid result.
    #[error("{0}")]
    Runner(String),
    /// A plot that could not be drawn.
    #[error("cannot draw the {plot}: {message}")]
    Drawing {
        /// The plot.
        plot: String,
        /// What the drawing library said.
        message: String,
    },
}

impl ReportError {
    /// A [`FileError::Io`] for `path`.
    pub fn io(path: impl Into<String>, error: &std::io::Error) -> ReportError {
        ReportError::File(FileError::io(path, error))
    }

    /// What kind of failure this is.
    pub fn kind(&self) -> ErrorKind {
        match self {
            ReportError::Core(error) => core_error_kind(error),
            ReportError::Registry(error) => registry_error_kind(error),
            ReportError::Value(_) | ReportError::Refused(_) => ErrorKind::BadInput,
            ReportError::File(error) => error.kind(),
            ReportError::Game(error) => error.kind(),
            ReportError::Job(error) => error.kind(),
            ReportError::Run(error) => error.kind(),
            ReportError::Interrupted(_) => ErrorKind::Interrupted,
            ReportError::Runner(_) => ErrorKind::Engine,
            ReportError::Drawing { .. } => ErrorKind::Internal,
        }
    }
}

impl From<OutputError> for ReportError {
    /// An output that must not be replaced is a file error like any other.
    fn from(error: OutputError) -> ReportError {
        ReportError::File(error.into())
    }
}
