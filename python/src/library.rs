//! The library surface: boards, pieces, placements, features, analyses, games, tournaments
//! and piece sequences, each one call into the workspace's libraries.
//!
//! Boards cross the boundary as NumPy `uint8` arrays of shape `(height, 10)`, row 0 at the
//! top, 1 = occupied (the Python wrappers in `tetris_arena/__init__.py` accept any array-like
//! and convert). Reports that the CLI prints as JSON (`play`, `tournament`, `analyze`) are
//! returned as the same JSON text, which the wrappers parse into plain dicts and lists: the
//! records are the CLI's, field for field.
//!
//! Every job is the arena library's request (`tetris_arena::request`): these functions turn
//! their arguments into the request's typed values with the same parsers the CLI's options
//! use, call the request's one check and run it, so a mistake gives the CLI's message
//! (`python/tests/test_library.py` and `test_bad_requests.py` compare them with the `arena`
//! binary's `error:` lines).

use std::ops::ControlFlow;

use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray2, PyReadonlyArray2};
use pyo3::prelude::*;
use tetris_arena_games::analysis::features::board_features;
use tetris_arena_games::sim::game::{PlayOptions, play_game};
use tetris_arena_games::sim::placement::format_path;
use tetris_arena_io::output::MadeBy;
use tetris_arena_io::values::{self, BoardHeight, MaxPieces, SequenceLength};
use tetris_arena_io::{Field, Words};
use tetris_arena_jobs::analyze::{AnalyzeRequest, FrameOptions};
use tetris_arena_jobs::game::{CheckedGame, GameRequest, UncappedNote};
use tetris_arena_jobs::game_report::PlayJson;
use tetris_arena_jobs::sequence::SequenceRequest;
use tetris_arena_reports::position::analysis_json;
use tetris_core::{
    BOARD_WIDTH, Board, Chain, DecisionContext, Evaluator, GameOverRule, Piece, Placement,
    PlacementRecord, Placements, Searcher,
};
use tetris_registry::{
    AnyEvaluator, AnySearcher, EvaluatorSpec, RegistryError, evaluators, searcher_by_name,
    searchers,
};

use crate::{interruptible, keyword, py_error, python_call};

/// Adds the functions to the module.
pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(searcher_list, module)?)?;
    module.add_function(wrap_pyfunction!(evaluator_list, module)?)?;
    module.add_function(wrap_pyfunction!(piece_cells, module)?)?;
    module.add_function(wrap_pyfunction!(sequence, module)?)?;
    module.add_function(wrap_pyfunction!(empty_board, module)?)?;
    module.add("MAX_SEQUENCE_LETTERS", MAX_SEQUENCE_LETTERS)?;
    module.add_function(wrap_pyfunction!(board_from_text, module)?)?;
    module.add_function(wrap_pyfunction!(board_to_text, module)?)?;
    module.add_function(wrap_pyfunction!(features, module)?)?;
    module.add_function(wrap_pyfunction!(placements, module)?)?;
    module.add_function(wrap_pyfunction!(placement_features, module)?)?;
    module.add_function(wrap_pyfunction!(analyze_json, module)?)?;
    module.add_function(wrap_pyfunction!(play_json, module)?)?;
    module.add(
        "PIECES",
        Piece::ALL.iter().map(|p| p.letter()).collect::<String>(),
    )?;
    module.add("BOARD_WIDTH", BOARD_WIDTH)?;
    Ok(())
}

/// The board a NumPy array shows: shape `(height, 10)`, non-zero = occupied.
pub(crate) fn board_from_array(array: &PyReadonlyArray2<'_, u8>) -> PyResult<Board> {
    let view = array.as_array();
    let (rows, columns) = view.dim();
    if columns != BOARD_WIDTH {
        return Err(py_error(format!(
            "a board array has shape (height, {BOARD_WIDTH}); this one has {columns} columns"
        )));
    }
    let mut board = Board::new(rows).map_err(py_error)?;
    for ((y, x), &cell) in view.indexed_iter() {
        if cell != 0 {
            board.set(x, y);
        }
    }
    Ok(board)
}

/// Writes `board` into `cells` (row-major, `height × 10`, 1 = occupied).
pub(crate) fn write_board(board: &Board, cells: &mut [u8]) {
    let height = usize::from(board.height());
    for (x, &column) in board.columns().iter().enumerate() {
        for y in 0..height {
            cells[y * BOARD_WIDTH + x] = (column >> y & 1) as u8;
        }
    }
}

/// `board` as a new NumPy array.
fn board_array<'py>(py: Python<'py>, board: &Board) -> Bound<'py, PyArray2<u8>> {
    let height = usize::from(board.height());
    let mut cells = vec![0u8; height * BOARD_WIDTH];
    write_board(board, &mut cells);
    Array2::from_shape_vec((height, BOARD_WIDTH), cells)
        .expect("height × 10 cells")
        .into_pyarray(py)
}

/// A piece from its letter (either case), with the CLI's message for any other text.
pub(crate) fn piece_from_letter(text: &str) -> PyResult<Piece> {
    let mut letters = text.chars();
    match (letters.next(), letters.next()) {
        (Some(letter), None) => Piece::from_letter(letter.to_ascii_uppercase()),
        _ => None,
    }
    .ok_or_else(|| py_error(tetris_core::Error::UnknownPiece(text.to_string())))
}

/// A registered searcher by name; the error lists the valid names.
pub(crate) fn searcher_named(name: &str) -> PyResult<AnySearcher> {
    searcher_by_name(name).ok_or_else(|| py_error(RegistryError::unknown_searcher(name)))
}

/// An evaluator from `NAME[:PRESET|:weights.json]`, as `arena features --eval` takes it.
pub(crate) fn evaluator_named(text: &str) -> PyResult<AnyEvaluator> {
    let spec: EvaluatorSpec = text.parse().map_err(py_error)?;
    spec.build().map_err(py_error)
}

/// Warns, as a `RuntimeWarning` at the line that called `play` or `tournament`, that games
/// without a piece cap on a board of `board_height` rows may never end: the command line's
/// note, in Python's keywords. Given once the call is checked (a bad call raises instead).
pub(crate) fn warn_uncapped(py: Python<'_>, board_height: BoardHeight) -> PyResult<()> {
    let note = Words::Python.message(&UncappedNote(board_height));
    let message = std::ffi::CString::new(note).expect("the note holds no NUL");
    let category = py.get_type::<pyo3::exceptions::PyRuntimeWarning>();
    // 3: past the native function, the package's wrapper and its range check (`_in_range`).
    PyErr::warn(py, category.as_any(), &message, 3)
}

/// Every registered searcher: `name`, `description`, `gravity_aware`, `game_over_rule`.
#[pyfunction]
fn searcher_list(py: Python<'_>) -> PyResult<Vec<Bound<'_, pyo3::types::PyDict>>> {
    searchers()
        .into_iter()
        .map(|entry| {
            let record = pyo3::types::PyDict::new(py);
            record.set_item("name", entry.name)?;
            record.set_item("description", entry.description)?;
            record.set_item("gravity_aware", entry.gravity_aware)?;
            record.set_item("game_over_rule", entry.game_over_rule.to_string())?;
            Ok(record)
        })
        .collect()
}

/// Every registered evaluator: `name`, `feature_names`, `placement_feature_names`, `presets`
/// (the first is the default), `default_weights`.
#[pyfunction]
fn evaluator_list(py: Python<'_>) -> PyResult<Vec<Bound<'_, pyo3::types::PyDict>>> {
    evaluators()
        .into_iter()
        .map(|entry| {
            let evaluator = evaluator_named(entry.name)?;
            let record = pyo3::types::PyDict::new(py);
            record.set_item("name", entry.name)?;
            record.set_item("feature_names", entry.feature_names.to_vec())?;
            record.set_item(
                "placement_feature_names",
                evaluator.placement_feature_names().to_vec(),
            )?;
            let presets: Vec<&str> = entry.presets.iter().map(|preset| preset.name).collect();
            record.set_item("presets", presets)?;
            record.set_item("default_weights", evaluator.weights().values().to_vec())?;
            Ok(record)
        })
        .collect()
}

/// The four cells `(column, row)` of `piece` in `rotation` relative to its pivot.
#[pyfunction]
fn piece_cells(piece: &str, rotation: u8) -> PyResult<Vec<(i8, i8)>> {
    let piece = piece_from_letter(piece)?;
    if rotation >= piece.orientation_count() {
        return Err(py_error(format!(
            "piece {} has rotations 0 to {}",
            piece.letter(),
            piece.orientation_count() - 1
        )));
    }
    Ok(piece.cells(rotation).to_vec())
}

/// The most letters `sequence` returns: 100,000,000 (one string, 100 MB).
pub const MAX_SEQUENCE_LETTERS: u64 = 100_000_000;

/// The message for a sequence length past [`MAX_SEQUENCE_LETTERS`] (`count` as given).
pub(crate) fn sequence_length_error(count: impl std::fmt::Display) -> PyErr {
    py_error(format!(
        "count {count} is outside 1..={MAX_SEQUENCE_LETTERS} (letters in one string)"
    ))
}

/// The first `count` pieces of a generator as letters (`arena sequence`), at most
/// [`MAX_SEQUENCE_LETTERS`].
#[pyfunction]
#[pyo3(signature = (generator, seed, count))]
fn sequence(generator: &str, seed: u64, count: u64) -> PyResult<String> {
    if count > MAX_SEQUENCE_LETTERS {
        return Err(sequence_length_error(count));
    }
    SequenceRequest {
        generator: values::generator(generator).map_err(py_error)?,
        seed,
        count: SequenceLength::try_from(count).map_err(py_error)?,
    }
    .letters()
    .map_err(py_error)
}

/// An empty board of `height` rows, the height given as the decimal text of any integer
/// and checked as `--board-height` is (4 to 32, the CLI's message naming `height`).
#[pyfunction]
fn empty_board<'py>(py: Python<'py>, height: &str) -> PyResult<Bound<'py, PyArray2<u8>>> {
    let height: BoardHeight = height
        .parse()
        .map_err(|error: values::ValueError| py_error(error.of_field(Field::HEIGHT)))?;
    let board = Board::new(height.rows()).map_err(py_error)?;
    Ok(board_array(py, &board))
}

/// A board from its text form (top row first, `#` occupied, `.` empty); `height`, when given,
/// must be its number of rows.
#[pyfunction]
#[pyo3(signature = (text, height=None))]
fn board_from_text<'py>(
    py: Python<'py>,
    text: &str,
    height: Option<usize>,
) -> PyResult<Bound<'py, PyArray2<u8>>> {
    let board = match height {
        Some(height) => Board::parse_with_height(text, height),
        None => {
            // As a board file: empty lines at the end do not count, every other line is a row.
            let mut rows: Vec<&str> = text.lines().collect();
            while rows.last().is_some_and(|line| line.trim().is_empty()) {
                rows.pop();
            }
            Board::from_rows(&rows)
        }
    }
    .map_err(py_error)?;
    Ok(board_array(py, &board))
}

/// The text form of a board array: one line per row, top first.
#[pyfunction]
fn board_to_text(board: PyReadonlyArray2<'_, u8>) -> PyResult<String> {
    let board = board_from_array(&board)?;
    Ok(board.to_rows().join("\n") + "\n")
}

/// The evaluator's board-only features of the board as given (`arena features`), in its
/// feature order.
#[pyfunction]
fn features(
    board: PyReadonlyArray2<'_, u8>,
    evaluator: &str,
) -> PyResult<Vec<(&'static str, f64)>> {
    let board = board_from_array(&board)?;
    Ok(board_features(&evaluator_named(evaluator)?, &board).0)
}

/// The placements of the piece with letter `piece` on `board` under the searcher called
/// `searcher` (in a game without frames, as `arena analyze` asks), with paths or not.
fn search(board: &Board, piece: &str, searcher: &str, with_paths: bool) -> PyResult<Placements> {
    let piece = piece_from_letter(piece)?;
    let mut searcher = searcher_named(searcher)?;
    let mut found = Placements::new();
    searcher.search(
        board,
        piece,
        DecisionContext::default().current_piece_options(with_paths),
        &mut found,
    );
    Ok(found)
}

/// Every placement of `piece` under `searcher`, in the searcher's order:
/// `(x, y, rotation, cells, path)`, `path` the inputs from the spawn as `arena analyze` writes
/// them (`None` when the searcher gives none).
#[pyfunction]
#[pyo3(signature = (board, piece, searcher))]
#[allow(clippy::type_complexity)]
fn placements(
    board: PyReadonlyArray2<'_, u8>,
    piece: &str,
    searcher: &str,
) -> PyResult<Vec<(i8, i8, u8, Vec<(i8, i8)>, Option<String>)>> {
    let board = board_from_array(&board)?;
    let found = search(&board, piece, searcher, true)?;
    Ok(found
        .iter()
        .enumerate()
        .map(|(index, placement)| {
            (
                placement.x,
                placement.y,
                placement.rotation,
                placement.cells.to_vec(),
                found.path(index).map(format_path),
            )
        })
        .collect())
}

/// Fills row `row` of `matrix` (`features` wide) with the evaluator's features of the chain of
/// the one placement `placement` on `board`: the board after it locks and clears, and its
/// record (what the evaluator's cost of that placement is computed from).
pub(crate) fn after_placement_features(
    evaluator: &AnyEvaluator,
    board: &Board,
    placement: Placement,
    row: &mut [f64],
) {
    let mut after = *board;
    let record = PlacementRecord::lock(&mut after, placement);
    evaluator.features(
        Chain {
            board: &after,
            records: &[record],
        },
        row,
    );
}

/// The after-placement feature matrix: every placement of `piece` under `searcher` as rows
/// `(x, y, rotation)` and, row for row, the evaluator's features of that placement (all of
/// them, placement features included, in the evaluator's order).
#[pyfunction]
#[pyo3(signature = (board, piece, evaluator, searcher))]
#[allow(clippy::type_complexity)]
fn placement_features<'py>(
    py: Python<'py>,
    board: PyReadonlyArray2<'py, u8>,
    piece: &str,
    evaluator: &str,
    searcher: &str,
) -> PyResult<(Bound<'py, PyArray2<i64>>, Bound<'py, PyArray2<f64>>)> {
    let board = board_from_array(&board)?;
    let evaluator = evaluator_named(evaluator)?;
    let found = search(&board, piece, searcher, false)?;
    let width = evaluator.feature_names().len();
    let mut states = Vec::with_capacity(found.len() * 3);
    let mut matrix = vec![0.0; found.len() * width];
    for (placement, row) in found.iter().zip(matrix.chunks_exact_mut(width.max(1))) {
        states.extend([
            i64::from(placement.x),
            i64::from(placement.y),
            i64::from(placement.rotation),
        ]);
        after_placement_features(&evaluator, &board, *placement, row);
    }
    let states = Array2::from_shape_vec((found.len(), 3), states).expect("three per placement");
    let matrix = Array2::from_shape_vec((found.len(), width), matrix).expect("a row each");
    Ok((states.into_pyarray(py), matrix.into_pyarray(py)))
}

/// The piece cap of `--max-pieces`, when given.
pub(crate) fn piece_cap(max_pieces: Option<u64>) -> PyResult<Option<MaxPieces>> {
    max_pieces
        .map(MaxPieces::try_from)
        .transpose()
        .map_err(py_error)
}

/// The game-over rule of `--game-over`, when given.
pub(crate) fn game_over_rule(text: Option<&str>) -> PyResult<Option<GameOverRule>> {
    text.map(values::game_over_rule)
        .transpose()
        .map_err(py_error)
}

/// `arena analyze STRATEGY --pieces PIECES [--all] [--game-over RULE] --json` on the board
/// array: the CLI's JSON text.
#[pyfunction]
#[pyo3(signature = (strategy, board, pieces, all, game_over))]
fn analyze_json(
    py: Python<'_>,
    strategy: &str,
    board: PyReadonlyArray2<'_, u8>,
    pieces: &str,
    all: bool,
    game_over: Option<&str>,
) -> PyResult<String> {
    let board = board_from_array(&board)?;
    // The board as the call to `tetris_arena.board_from_text` that gives it back: the array
    // itself has no one-line form.
    let _made_by = MadeBy::scope(format!(
        "tetris_arena.analyze({}, {}, {}, {}, {})",
        keyword(py, "strategy", strategy)?,
        keyword(py, "board", board.to_rows().join("\n") + "\n")?.replacen(
            "board=",
            "board=tetris_arena.board_from_text(",
            1
        ) + ")",
        keyword(py, "pieces", pieces)?,
        keyword(py, "all", all)?,
        keyword(py, "game_over", game_over)?,
    ));
    let analysis = AnalyzeRequest {
        strategy: strategy.to_string(),
        board,
        board_name: "board".to_string(),
        pieces: values::pieces(pieces).map_err(py_error)?,
        all,
        game_over: game_over_rule(game_over)?,
        frames: FrameOptions::default(),
    }
    .check()
    .map_err(py_error)?
    .analyze();
    Ok(analysis_json(&analysis))
}

/// `arena play STRATEGY --json` with these options: the CLI's JSON line.
#[pyfunction]
#[pyo3(signature = (strategy, seed, generator, max_pieces, board_height, game_over, placements))]
#[allow(clippy::too_many_arguments)]
fn play_json(
    py: Python<'_>,
    strategy: &str,
    seed: u64,
    generator: &str,
    max_pieces: Option<u64>,
    board_height: u64,
    game_over: Option<&str>,
    placements: bool,
) -> PyResult<String> {
    let _made_by = MadeBy::scope(python_call!(
        py,
        "play",
        strategy = strategy,
        seed = seed,
        generator = generator,
        max_pieces = max_pieces,
        board_height = board_height,
        game_over = game_over,
        placements = placements,
    ));
    let CheckedGame {
        mut strategy,
        settings,
        ..
    } = GameRequest {
        strategy: strategy.to_string(),
        generator: values::generator(generator).map_err(py_error)?,
        seed,
        max_pieces: piece_cap(max_pieces)?,
        board_height: BoardHeight::try_from(board_height).map_err(py_error)?,
        game_over: game_over_rule(game_over)?,
    }
    .check()
    .map_err(py_error)?;
    if settings.max_pieces.is_none() {
        warn_uncapped(py, settings.board_height)?;
    }
    let options = PlayOptions {
        keep_placements: placements,
        ..PlayOptions::default()
    };
    let result = interruptible(py, || {
        play_game(&mut strategy, &settings, options, &mut |_| {
            match tetris_arena_runs::interrupt::interrupted() {
                true => ControlFlow::Break(()),
                false => ControlFlow::Continue(()),
            }
        })
    })
    .finished()?
    .map_err(crate::bots::raised_or)?;
    Ok(PlayJson::new(&strategy, &settings, &result, placements).to_json())
}
