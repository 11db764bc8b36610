//! The registry's errors: a strategy or evaluator name that does not parse or names nothing
//! registered, or an engine that cannot be built (a bad preset or weights file).

use thiserror::Error as ThisError;

/// Why a name could not be parsed or its engines built.
#[derive(Debug, ThisError)]
pub enum RegistryError {
    /// An error from the core crate (weights files and presets).
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
    /// An outside engine that could not be started or broke the protocol's handshake.
    #[error("strategy {strategy:?}: {fault}")]
    Outside {
        /// The strategy as given.
        strategy: String,
        /// What the engine did.
        fault: tetris_outside::Fault,
    },
    /// An evaluator name that is not registered.
    #[error("unknown evaluator {name:?} (valid: {valid})")]
    UnknownEvaluator {
        /// The name as given.
        name: String,
        /// The registered names, space-separated.
        valid: String,
    },
    /// A searcher name that is not registered.
    #[error("unknown searcher {name:?} (valid: {valid})")]
    UnknownSearcher {
        /// The name as given.
        name: String,
        /// The registered names, space-separated.
        valid: String,
    },
}

impl RegistryError {
    /// The error for an evaluator name that is not registered, listing the valid ones.
    pub fn unknown_evaluator(name: &str) -> RegistryError {
        RegistryError::UnknownEvaluator {
            name: name.to_string(),
            valid: crate::evaluator_names().join(" "),
        }
    }

    /// The error for a searcher name that is not registered, listing the valid ones.
    pub fn unknown_searcher(name: &str) -> RegistryError {
        RegistryError::UnknownSearcher {
            name: name.to_string(),
            valid: crate::searcher_names().join(" "),
        }
    }
}
