//! Python functions as strategies: `tetris_arena.bot(function)` registers a function (or an
//! object's `choose` method) as an outside engine named `SEARCHER+python:NAME`, which every
//! run of the package then plays like any strategy (docs/writing-a-bot.md, "Python
//! functions").
//!
//! The function is asked as a bot program is (`tetris_outside::Decider`): in placement mode
//! it gets the protocol's `suggest` message as a dict and returns an index into its
//! `placements` (or a dict with `x`, `y`, `rotation`); in action mode it gets the Gymnasium
//! environment's observation and `info` (with `action_mask`) and returns an action index, so
//! an agent trained in `tetris_arena.envs` plugs in unchanged. Its answer is checked as any
//! outside engine's. An exception it raises stops the run: the package raises it again, with
//! a note naming the game and piece, once the run's threads have stopped.

use std::sync::Mutex;

use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use tetris_core::{BOARD_WIDTH, Placement};
use tetris_registry::protocol::{Info, PROTOCOL_VERSION, Start, Stop, Suggest, Suggestion};
use tetris_registry::{
    Answer, Decider, Fault, FaultKind, GIVEN_PREFIX, register_given, searcher_names,
};

use crate::games::action_of;
use crate::py_error;

/// The exception a Python engine raised, kept for the package to raise again when the run
/// has stopped (`raised_or`).
static RAISED: Mutex<Option<PyErr>> = Mutex::new(None);

/// The error to raise for a run that failed: the exception a Python engine raised during it,
/// if one did, else `error` as the package raises the arena's errors.
pub(crate) fn raised_or(error: impl crate::Classified) -> PyErr {
    RAISED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .take()
        .unwrap_or_else(|| py_error(error))
}

/// A Python function as an engine.
struct PythonBot {
    function: Py<PyAny>,
    info: Info,
    /// The function takes the environment's observation and returns an action index.
    action_index: bool,
    board_height: u8,
    /// The game's seed (its `start`), which names the game in an exception's note.
    seed: u64,
}

impl PythonBot {
    /// The function's answer to `suggest`: an index into `placements`, a fault for an answer
    /// that names none, or [`FaultKind::Raised`] for an exception (kept in [`RAISED`]).
    fn ask(
        &self,
        py: Python<'_>,
        suggest: &Suggest,
        placements: &[Placement],
    ) -> Result<Answer, Fault> {
        let answer = match self.action_index {
            true => self
                .observation(py, suggest, placements)
                .and_then(|(observation, info)| self.function.call1(py, (observation, info))),
            false => {
                position(py, suggest).and_then(|position| self.function.call1(py, (position,)))
            }
        };
        let answer = answer.map_err(|error| self.raised(py, error, suggest))?;
        let answer = answer.bind(py);
        let illegal = |message: String| Fault {
            kind: FaultKind::Illegal,
            message: format!("{}'s answer: {message}", self.info.name),
        };
        if let Ok(number) = answer.extract::<i64>() {
            if self.action_index {
                return placements
                    .iter()
                    .position(|placement| {
                        action_of(placement, self.board_height).map(i64::from) == Some(number)
                    })
                    .map(Answer::placement)
                    .ok_or_else(|| illegal(format!("action {number} is not a legal action")));
            }
            let suggestion = Suggestion {
                index: Some(number),
                x: None,
                y: None,
                rotation: None,
                inputs: None,
            };
            return suggestion.answer(placements).map_err(illegal);
        }
        let field = |name: &str| -> Option<i64> { answer.get_item(name).ok()?.extract().ok() };
        // An NES game's frames to press, in StackRabbit's letters, beside the placement.
        let inputs = answer
            .get_item("inputs")
            .ok()
            .and_then(|inputs| inputs.extract::<String>().ok());
        match (self.action_index, field("x"), field("y"), field("rotation")) {
            (false, Some(x), Some(y), Some(rotation)) => Suggestion {
                index: None,
                x: Some(x),
                y: Some(y),
                rotation: Some(rotation),
                inputs,
            }
            .answer(placements)
            .map_err(illegal),
            _ => Err(illegal(format!(
                "{} is not {}",
                answer
                    .repr()
                    .map_or_else(|_| "it".to_string(), |text| text.to_string()),
                match self.action_index {
                    true => "an action index",
                    false => "an index or a dict with x, y and rotation",
                }
            ))),
        }
    }

    /// The environment's observation and `info` for the position (tetris_arena.envs).
    fn observation<'py>(
        &self,
        py: Python<'py>,
        suggest: &Suggest,
        placements: &[Placement],
    ) -> PyResult<(Bound<'py, PyDict>, Bound<'py, PyDict>)> {
        let rows = suggest.board.len();
        let cells: Vec<u8> = suggest
            .board
            .iter()
            .flat_map(|row| row.bytes().map(|cell| u8::from(cell == b'#')))
            .collect();
        let board = PyArray1::from_vec(py, cells).reshape([rows, BOARD_WIDTH])?;
        let _: &Bound<'py, PyArray2<u8>> = &board;
        let preview: Vec<i64> = suggest
            .preview
            .iter()
            .map(|piece| piece.index() as i64)
            .collect();
        let observation = PyDict::new(py);
        observation.set_item("board", board)?;
        observation.set_item(
            "current",
            py.import("numpy")?
                .getattr("int64")?
                .call1((suggest.current.index(),))?,
        )?;
        observation.set_item("preview", PyArray1::from_vec(py, preview))?;
        let actions = 4 * (usize::from(self.board_height) + 1) * BOARD_WIDTH;
        let mut mask = vec![0i8; actions];
        for placement in placements {
            if let Some(action) = action_of(placement, self.board_height) {
                mask[action as usize] = 1;
            }
        }
        let info = PyDict::new(py);
        info.set_item("action_mask", PyArray1::from_vec(py, mask))?;
        Ok((observation, info))
    }

    /// Keeps `error` to raise again (with a note naming the game and piece) and gives the
    /// fault that stops the run.
    fn raised(&self, py: Python<'_>, error: PyErr, suggest: &Suggest) -> Fault {
        let place = format!(
            "the game of seed {}, piece {}",
            self.seed,
            suggest.pieces + 1
        );
        let note = format!("raised by the strategy {} in {place}", self.info.name);
        // `add_note` is Python 3.11's; on older versions the exception goes without the note.
        let _ = error.value(py).call_method1("add_note", (note.as_str(),));
        let message = format!("{} raised {error} in {place}", self.info.name);
        let mut raised = RAISED
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        raised.get_or_insert(error);
        Fault {
            kind: FaultKind::Raised,
            message,
        }
    }
}

/// The protocol's `suggest` as a Python dict.
fn position<'py>(py: Python<'py>, suggest: &Suggest) -> PyResult<Bound<'py, PyAny>> {
    let text = serde_json::to_string(suggest).expect("a suggest message serialises");
    py.import("json")?.call_method1("loads", (text,))
}

impl Decider for PythonBot {
    fn info(&self) -> &Info {
        &self.info
    }

    fn begin_game(&mut self, start: &Start) {
        self.board_height = start.board_height;
        self.seed = start.seed;
    }

    fn suggest(&mut self, suggest: &Suggest, placements: &[Placement]) -> Result<Answer, Fault> {
        Python::attach(|py| self.ask(py, suggest, placements))
    }

    fn end_game(&mut self, _stop: &Stop) {}

    fn fresh(&self) -> Box<dyn Decider> {
        Python::attach(|py| {
            Box::new(PythonBot {
                function: self.function.clone_ref(py),
                info: self.info.clone(),
                action_index: self.action_index,
                board_height: self.board_height,
                seed: self.seed,
            }) as Box<dyn Decider>
        })
    }
}

/// Registers `function` as the engine `python:NAME` whose placements `searcher` lists and
/// gives the strategy name that plays it: `SEARCHER+python:NAME`. `preview`: preview pieces
/// it sees (0 to 3); `action_index`: it takes the environment's observation and `info` and
/// returns an action index, instead of the protocol's `suggest` as a dict.
#[pyfunction]
#[pyo3(signature = (function, searcher, preview, action_index, name))]
fn register_bot(
    function: Py<PyAny>,
    searcher: &str,
    preview: u64,
    action_index: bool,
    name: &str,
) -> PyResult<String> {
    if !searcher_names().contains(&searcher) {
        return Err(py_error(format!(
            "searcher {searcher:?} is not a searcher (valid: {})",
            searcher_names().join(" ")
        )));
    }
    let max = u64::from(tetris_registry::protocol::MAX_PREVIEW_PIECES);
    if preview > max {
        return Err(py_error(format!("preview {preview} is outside 0..={max}")));
    }
    let engine = format!("{GIVEN_PREFIX}{name}");
    let bot = PythonBot {
        function,
        info: Info {
            protocol: PROTOCOL_VERSION,
            name: engine.clone(),
            version: String::new(),
            preview: preview as u8,
            searcher: None,
        },
        action_index,
        board_height: 20,
        seed: 0,
    };
    register_given(&engine, Box::new(bot));
    Ok(format!("{searcher}+{engine}"))
}

/// Adds the functions to the module.
pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(register_bot, module)?)?;
    Ok(())
}
