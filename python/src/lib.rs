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
//! Every error of the libraries becomes a `ValueError` whose message is the text the CLI
//! prints after `error: `.
#![deny(missing_docs)]

use pyo3::BoundObject;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

pub mod games;
pub mod library;
pub mod runs;

/// A library error as Python's `ValueError`, with the CLI's message.
pub(crate) fn value_error(error: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(error.to_string())
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
    module.add_class::<games::Games>()?;
    module.add("MAX_VECTOR_GAMES", games::MAX_GAMES)?;
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
