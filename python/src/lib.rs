//! `tetris_arena._native`: the Rust half of the Python package `tetris_arena`.
//!
//! Everything here is a thin layer over the workspace's libraries, so that Python sees exactly
//! the CLI's engines and games: strategies, searchers and evaluators come from
//! `tetris-registry` by name, games, tournaments and analyses from the `tetris-arena` library,
//! boards, pieces and generators from `tetris-core`. The modules:
//!
//! - [`library`]: the functions (boards to and from NumPy and text, placements with paths,
//!   features, the after-placement feature matrix, `analyze`, `play`, `tournament`, piece
//!   sequences);
//! - [`runs`]: tournaments, NES runs and statistics runs, with the CLI's files and shards;
//! - [`games`]: N games stepped together one placement at a time, what the Gymnasium
//!   environments in `tetris_arena/envs.py` drive.
//!
//! Every error of the libraries becomes the Python exception of its kind ([`py_error`]):
//! `ValueError` for bad input, `FileNotFoundError`, `PermissionError` or `OSError` for a file
//! the system could not read or write, `KeyboardInterrupt` for an interrupted run,
//! `RuntimeError` for an engine's or an internal fault; its message is the text the CLI
//! prints after `error: `, in the package's words: a field is named by its keyword argument
//! (`board_height 3 is outside 4..=32`; [`tetris_arena_io::Words::Python`]).
#![deny(missing_docs)]

use pyo3::BoundObject;
use pyo3::exceptions::{
    PyFileNotFoundError, PyKeyboardInterrupt, PyOSError, PyPermissionError, PyRuntimeError,
    PyValueError,
};
use pyo3::prelude::*;
use tetris_arena_io::{ErrorKind, Words};

pub mod bots;
pub mod games;
pub mod library;
pub mod runs;

/// An error as the Python exception of its kind, with the CLI's message in the package's
/// words (each field named by its keyword argument).
pub(crate) fn py_error(error: impl Classified) -> PyErr {
    let message = Words::Python.message(&error);
    match error.kind() {
        ErrorKind::BadInput => PyValueError::new_err(message),
        ErrorKind::Io(std::io::ErrorKind::NotFound) => PyFileNotFoundError::new_err(message),
        ErrorKind::Io(std::io::ErrorKind::PermissionDenied) => PyPermissionError::new_err(message),
        ErrorKind::Io(_) => PyOSError::new_err(message),
        ErrorKind::Interrupted => PyKeyboardInterrupt::new_err(message),
        ErrorKind::Engine | ErrorKind::Internal => PyRuntimeError::new_err(message),
    }
}

/// An error with a kind: the libraries' errors (each answers its own `kind()`), and the
/// package's own messages about its arguments (bad input).
pub(crate) trait Classified: std::fmt::Display {
    /// What kind of failure it is.
    fn kind(&self) -> ErrorKind;
}

/// The package's own messages about its arguments: bad input.
impl Classified for String {
    fn kind(&self) -> ErrorKind {
        ErrorKind::BadInput
    }
}

impl Classified for &str {
    fn kind(&self) -> ErrorKind {
        ErrorKind::BadInput
    }
}

/// The errors whose kind is their own `kind()`.
macro_rules! classified_by_kind {
    ($($error:ty),* $(,)?) => {$(
        impl Classified for $error {
            fn kind(&self) -> ErrorKind {
                <$error>::kind(self)
            }
        }
    )*};
}
classified_by_kind!(
    tetris_arena_requests::error::ArenaError,
    tetris_arena_jobs::JobError,
    tetris_arena_runs::RunError,
    tetris_arena_reports::ReportError,
    tetris_arena_games::GameError,
    tetris_arena_io::FileError,
);

impl Classified for tetris_core::Error {
    fn kind(&self) -> ErrorKind {
        tetris_arena_io::error::core_error_kind(self)
    }
}

impl Classified for tetris_registry::RegistryError {
    fn kind(&self) -> ErrorKind {
        tetris_arena_io::error::registry_error_kind(self)
    }
}

/// The errors that are always about a value or a rule of a request: bad input.
macro_rules! bad_input {
    ($($error:ty),* $(,)?) => {$(
        impl Classified for $error {
            fn kind(&self) -> ErrorKind {
                ErrorKind::BadInput
            }
        }
    )*};
}
bad_input!(
    tetris_arena_io::values::ValueError,
    tetris_arena_jobs::RequestError,
    tetris_core::TimelineError,
);

/// Runs `job` (a game or a run, which needs no interpreter) on a thread of its own while this
/// thread holds the interpreter only to check its signals, every 50 ms: Ctrl-C (Python's
/// `KeyboardInterrupt`) asks the job to stop as the command line's first Ctrl-C does (the
/// runner's stop: no new game, the running ones end after their current piece), and waits for
/// it. The job's result comes back with the signal ([`Interruptible`]), so that a run can keep
/// its finished games where the command line keeps them before the `KeyboardInterrupt` is
/// raised. The runner's stop is process-wide: it is cleared before and after each job.
pub(crate) fn interruptible<T: Send>(
    py: Python<'_>,
    job: impl FnOnce() -> T + Send,
) -> Interruptible<T> {
    use tetris_arena_runs::interrupt;
    interrupt::clear();
    let (result, signal) = std::thread::scope(|scope| {
        let running = scope.spawn(job);
        let mut signal = None;
        while !running.is_finished() {
            py.detach(|| std::thread::sleep(std::time::Duration::from_millis(50)));
            if let Err(caught) = py.check_signals() {
                interrupt::request_stop();
                signal = Some(caught);
                break;
            }
        }
        let result = py
            .detach(|| running.join())
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (result, signal)
    });
    interrupt::clear();
    Interruptible { result, signal }
}

/// What [`interruptible`] gives back: the job's result, and the signal that stopped it early
/// (`None`: it ran to its end).
pub(crate) struct Interruptible<T> {
    result: T,
    signal: Option<PyErr>,
}

impl<T> Interruptible<T> {
    /// The job's result when it ran to its end; the signal (`KeyboardInterrupt`) when it was
    /// stopped, whose result is dropped (a game cut short is no result).
    pub(crate) fn finished(self) -> PyResult<T> {
        match self.signal {
            None => Ok(self.result),
            Some(signal) => Err(signal),
        }
    }

    /// `keep` applied to the job's result, stopped or not (a run writes its finished games to
    /// its output, as the command line does after Ctrl-C); then the signal, if there was one,
    /// is raised in place of what `keep` returned.
    pub(crate) fn keeping<R>(self, keep: impl FnOnce(T) -> PyResult<R>) -> PyResult<R> {
        let kept = keep(self.result);
        match self.signal {
            None => kept,
            Some(signal) => Err(signal),
        }
    }
}

/// One keyword argument of a call as its `made_by` command shows it: `name=` and Python's
/// `repr` of the value.
pub(crate) fn keyword<'py, T: IntoPyObject<'py>>(
    py: Python<'py>,
    name: &str,
    value: T,
) -> PyResult<String> {
    let value = value.into_pyobject(py).map_err(Into::into)?;
    Ok(format!("{name}={}", value.into_any().into_bound().repr()?))
}

/// The `made_by` command of a call of the package's function `function` (the Python
/// wrapper's name, e.g. `tournament`) with its keyword arguments as [`keyword`] writes them:
/// `tetris_arena.tournament(strategies=['bfs+elashi'], games=10, …)`. Every argument the
/// wrapper passes is named, defaults included, so the call can be made again as it is.
macro_rules! python_call {
    ($py:expr, $function:literal, $($name:ident = $value:expr),* $(,)?) => {
        format!(
            "tetris_arena.{}({})",
            $function,
            [$($crate::keyword($py, stringify!($name), $value)?),*].join(", ")
        )
    };
}
pub(crate) use python_call;

/// The native module, imported by `tetris_arena/__init__.py`.
#[pymodule]
#[pyo3(name = "_native")]
fn native(module: &Bound<'_, PyModule>) -> PyResult<()> {
    library::register(module)?;
    runs::register(module)?;
    bots::register(module)?;
    module.add_class::<games::Games>()?;
    module.add("MAX_VECTOR_GAMES", games::MAX_GAMES)?;
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
