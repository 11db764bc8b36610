//! The arena's errors: every one prints as one line after `error:` and exits with code 2.

use thiserror::Error as ThisError;

/// Anything that stops an arena command.
#[derive(Debug, ThisError)]
pub enum ArenaError {
    /// An error from the core crate (boards, pieces, generators, weights).
    #[error(transparent)]
    Core(#[from] tetris_core::Error),
    /// A strategy string that does not parse or names unknown engines.
    #[error("strategy {strategy:?}: {message}")]
    Strategy {
        /// The strategy as given.
        strategy: String,
        /// What is wrong.
        message: String,
    },
    /// A value that is not one its option takes (the request layer's typed values).
    #[error(transparent)]
    Value(#[from] crate::request::ValueError),
    /// A request that breaks a rule of its job.
    #[error(transparent)]
    Request(#[from] crate::request::RequestError),
    /// An NES run's request that breaks one of its rules.
    #[error(transparent)]
    NesRequest(#[from] crate::request::nes::NesRequestError),
    /// An analysis request that breaks one of its rules.
    #[error(transparent)]
    AnalyzeRequest(#[from] crate::request::analyze::AnalyzeRequestError),
    /// A statistics run whose `--blocks` and `--shard` disagree.
    #[error(transparent)]
    BlocksDisagree(#[from] crate::request::stats::BlocksDisagree),
    /// A tuning run's request that breaks one of its rules.
    #[error(transparent)]
    TuneRequest(#[from] crate::request::tune::TuneRequestError),
    /// A merge's request that breaks one of its rules.
    #[error(transparent)]
    MergeRequest(#[from] crate::request::merge::MergeRequestError),
    /// A served request that breaks a rule of the server.
    #[error(transparent)]
    ServeRequest(#[from] crate::request::serve::ServeRequestError),
    /// A StackRabbit-style request the server cannot answer (its text is the body).
    #[cfg(feature = "serve")]
    #[error(transparent)]
    Compat(#[from] crate::serve::stackrabbit::CompatError),
    /// A piece file with fewer pieces than `arena sequence` asked for.
    #[error(transparent)]
    TooFewPieces(#[from] crate::request::sequence::TooFewPieces),
    /// A run stopped by Ctrl-C: what was kept, after `interrupted by Ctrl-C` (from `:` or
    /// ` after`).
    #[error("interrupted by Ctrl-C{0}")]
    Interrupted(String),
    /// An output that would replace what it must not (a link, a device, an input).
    #[error(transparent)]
    Output(#[from] crate::output::OutputError),
    /// A command-line value that is out of range or inconsistent.
    #[error("{0}")]
    Usage(String),
    /// A file that could not be read or written.
    #[error("{path}: {message}")]
    Io {
        /// The file.
        path: String,
        /// What the operating system said.
        message: String,
    },
    /// A broken promise between the engines (e.g. a searched path that does not lock where
    /// the search said): a bug to report, not bad input.
    #[error("internal error: {0}")]
    Internal(String),
    /// A replay whose game does not re-play as recorded.
    #[error("replay {path}: {message}")]
    Replay {
        /// The replay file.
        path: String,
        /// The first difference found.
        message: String,
    },
}

impl From<tetris_registry::RegistryError> for ArenaError {
    /// The registry's errors keep their one-line messages: a strategy error stays one, a
    /// core error (a bad preset or weights file) stays one, an unknown name is bad usage.
    fn from(error: tetris_registry::RegistryError) -> ArenaError {
        use tetris_registry::RegistryError;
        match error {
            RegistryError::Core(error) => ArenaError::Core(error),
            RegistryError::Strategy { strategy, message } => {
                ArenaError::Strategy { strategy, message }
            }
            other => ArenaError::Usage(other.to_string()),
        }
    }
}

impl ArenaError {
    /// An [`ArenaError::Io`] for `path`.
    pub fn io(path: impl Into<String>, error: &std::io::Error) -> ArenaError {
        ArenaError::Io {
            path: path.into(),
            message: error.to_string(),
        }
    }
}
