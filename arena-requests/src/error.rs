//! The arena's top-level error: every error of every layer, wrapped as it came, with ONE
//! [`ArenaError::kind`] that decides what each front end does with it — the CLI's exit code
//! ([`ErrorKind::exit_code`]), the server's HTTP status ([`ErrorKind::http_status`]) and the
//! Python package's exception class. Every message is one line.

use thiserror::Error as ThisError;

use tetris_arena_games::GameError;
use tetris_arena_io::error::{ErrorKind, FileError, core_error_kind, registry_error_kind};
use tetris_arena_io::output::OutputError;
use tetris_arena_io::values::ValueError;
use tetris_arena_jobs::{JobError, RequestError};
use tetris_arena_reports::ReportError;
use tetris_arena_runs::RunError;

use crate::merge::MergeRequestError;
use crate::nes::NesRequestError;
use crate::stats::BlocksDisagree;
use crate::tune::TuneRequestError;

pub use tetris_arena_io::error::ErrorKind as Kind;

/// Anything that stops an arena job, from any layer.
#[derive(Debug, ThisError)]
pub enum ArenaError {
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
    /// An NES run's request that breaks one of its rules.
    #[error(transparent)]
    NesRequest(#[from] NesRequestError),
    /// A statistics run whose `--blocks` and `--shard` disagree.
    #[error(transparent)]
    BlocksDisagree(#[from] BlocksDisagree),
    /// A tuning run's request that breaks one of its rules.
    #[error(transparent)]
    TuneRequest(#[from] TuneRequestError),
    /// A merge's request that breaks one of its rules.
    #[error(transparent)]
    MergeRequest(#[from] MergeRequestError),
    /// A file that could not be read or written, or an output path refused.
    #[error(transparent)]
    File(#[from] FileError),
    /// A game, a replay's check or a position's analysis that failed.
    #[error(transparent)]
    Game(#[from] GameError),
    /// A job of one position or one game that failed.
    #[error(transparent)]
    Job(#[from] JobError),
    /// A run of many games that stopped.
    #[error(transparent)]
    Run(#[from] RunError),
    /// A report that could not be written, or a tuning run that stopped.
    #[error(transparent)]
    Report(#[from] ReportError),
    /// A command-line value or combination the command refuses (one line naming the option).
    #[error("{0}")]
    Usage(String),
    /// A run stopped by Ctrl-C: what was kept, after `interrupted by Ctrl-C` (from `:` or
    /// ` after`).
    #[error("interrupted by Ctrl-C{0}")]
    Interrupted(String),
    /// A recorded game that does not re-play as recorded: the first difference.
    #[error("replay {path}: {error}")]
    ReplayMismatch {
        /// The replay file.
        path: String,
        /// What differs (boxed: the top-level error stays small).
        error: Box<tetris_arena_games::sim::replay::ReplayError>,
    },
    /// A trace whose games do not re-play as traced, or a replay that does not parse.
    #[error("replay {path}: {message}")]
    Replay {
        /// The replay file.
        path: String,
        /// The first difference found.
        message: String,
    },
    /// A broken promise between the engines (e.g. a searched path that does not lock where
    /// the search said): a bug to report, not bad input.
    #[error("internal error: {0}")]
    Internal(String),
}

impl ArenaError {
    /// An [`ArenaError::File`] for `path` from an I/O error.
    pub fn io(path: impl Into<String>, error: &std::io::Error) -> ArenaError {
        ArenaError::File(FileError::io(path, error))
    }

    /// What kind of failure this is: the one answer every front end acts on.
    pub fn kind(&self) -> ErrorKind {
        match self {
            ArenaError::Core(error) => core_error_kind(error),
            ArenaError::Registry(error) => registry_error_kind(error),
            ArenaError::Value(_)
            | ArenaError::Request(_)
            | ArenaError::NesRequest(_)
            | ArenaError::BlocksDisagree(_)
            | ArenaError::TuneRequest(_)
            | ArenaError::MergeRequest(_)
            | ArenaError::Usage(_)
            | ArenaError::ReplayMismatch { .. }
            | ArenaError::Replay { .. } => ErrorKind::BadInput,
            ArenaError::File(error) => error.kind(),
            ArenaError::Game(error) => error.kind(),
            ArenaError::Job(error) => error.kind(),
            ArenaError::Run(error) => error.kind(),
            ArenaError::Report(error) => error.kind(),
            ArenaError::Interrupted(_) => ErrorKind::Interrupted,
            ArenaError::Internal(_) => ErrorKind::Internal,
        }
    }
}

impl From<OutputError> for ArenaError {
    /// An output that must not be replaced is a file error like any other.
    fn from(error: OutputError) -> ArenaError {
        ArenaError::File(error.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kind_of_a_wrapped_error_is_the_kind_of_the_error_it_wraps() {
        let missing = tetris_core::files::read_text(
            std::path::Path::new("/nonexistent/part.json"),
            100,
            "part",
        )
        .unwrap_err();
        let io = ErrorKind::Io(std::io::ErrorKind::NotFound);
        assert_eq!(ArenaError::from(missing.clone()).kind(), io);
        assert_eq!(ArenaError::from(RunError::from(missing.clone())).kind(), io);
        assert_eq!(
            ArenaError::from(ReportError::from(RunError::from(missing))).kind(),
            io
        );
        assert_eq!(
            ArenaError::from(RunError::Interrupted(String::new())).kind(),
            ErrorKind::Interrupted
        );
        assert_eq!(
            ArenaError::from(JobError::Cancelled).kind(),
            ErrorKind::Interrupted
        );
        assert_eq!(
            ArenaError::from(GameError::Internal("x".into())).kind(),
            ErrorKind::Internal
        );
        assert_eq!(
            ArenaError::from(ReportError::Runner("x".into())).kind(),
            ErrorKind::Engine
        );
        let unknown: Result<tetris_registry::StrategySpec, _> = "nope+elashi".parse();
        assert_eq!(
            ArenaError::from(unknown.unwrap_err()).kind(),
            ErrorKind::BadInput
        );
    }
}
