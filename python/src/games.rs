//! N games stepped together, one placement each per call: the engine of the Gymnasium
//! environments (`tetris_arena/envs.py`; the scalar environment is N = 1).
//!
//! A game follows the rules of `arena play` (the arena's `sim::game`; the step is the core's
//! [`PlacementGame`], the same as `arena play`'s): an empty 10 × H board,
//! pieces from the generator in order, NES line-clear points from level 0 (for the gravity-aware
//! `gamepad` searcher from the first level of its gravity, 19, as `arena play` counts them:
//! `tetris_arena_games::sim::levels`), and the game-over
//! rule — under `simulation` the game is over when the next piece cannot spawn or has no
//! placement; under `literature` a placement with a cell above row 0 is the game's last (its
//! rows do not clear). A piece cap truncates the game, as does the end of a `file:` sequence.
//! Played with the strategy's own choices ([`Games::strategy_actions`]) a game is `arena
//! play`'s, placement for placement (`python/tests/test_env.py` checks it).
//!
//! # Actions
//!
//! An action names the placement by where its cells end up:
//! `(rotation * (height + 1) + bottom_row + 1) * 10 + left_column`, with the piece's rotation
//! index, the row of its lowest cell (0 at the top, -1 just above the field: a piece resting on
//! a full column, which ends a game under the literature rule) and the column of its leftmost
//! cell, so `4 × (H + 1) × 10` actions in all. The same piece in the same rotation with the
//! same lowest row and leftmost column covers the same cells, so distinct placements of the
//! searcher have distinct actions and an action means the same lock position in every state.
//! The legal actions are the searcher's placements of the current piece: the mask. (Every
//! lock rests on the floor or on a cell of the field, so no placement's lowest cell is above
//! row -1 and every placement has its action.) An illegal action ends the episode (`illegal_action="end"`, the default of the
//! environments, as `tetris-gymnasium` does: Gymnasium's checker steps random actions) or is
//! a `ValueError` (`"raise"`).
//!
//! # Resets
//!
//! Every game keeps its own seed: `reset` seeds game i with `seed + i` (a tournament's rule,
//! so a vector of N games plays a tournament's N sequences) and each automatic reset of game i
//! after the end of an episode moves its seed on by N. Gymnasium's next-step autoreset: the
//! call after the one that ended game i starts its next game, ignores its action and reports
//! reward 0. No game's seed may pass 2^64 - 1 (the CLI's rule for a run's seeds): a reset
//! whose last game would, or an automatic reset whose next seed would, is a `ValueError`
//! rather than a wrap to seed 0.
//!
//! # Bounds
//!
//! One vector holds at most [`MAX_GAMES`] games (the Python package's `MAX_VECTOR_GAMES`), so
//! no count can make the games, their observation arrays and masks outgrow memory; the output
//! arrays a step and an observation write must be writeable and distinct (a `ValueError`
//! otherwise, never a panic).

use std::collections::VecDeque;

use numpy::{BorrowError, PyArray1, PyArray2, PyArray3, PyArrayMethods};
use pyo3::prelude::*;
use tetris_arena_games::sim::levels::game_levels;
use tetris_arena_io::Field;
use tetris_arena_io::values::{self, BoardHeight, MaxPieces, check_pattern_height};
use tetris_arena_jobs::frameless_game_over_rule;
use tetris_arena_runs::check_last_seed;
use tetris_core::{
    BOARD_WIDTH, Board, DecisionContext, GameLevels, GameOverRule, GeneratorKind, PlacementGame,
    Placements,
};
use tetris_registry::{AnyEvaluator, AnySearcher, Strategy};

use crate::library::{after_placement_features, evaluator_named, searcher_named, write_board};
use crate::py_error;

mod episode;

pub(crate) use episode::action_of;
use episode::{Game, Reward};

/// The piece index the observation shows where the sequence has no piece (a `file:`
/// sequence's end).
const NO_PIECE: i64 = 7;

/// The most games one vector holds: 16,384, far more than a training run steps at once. A game
/// with the `bfs` searcher on a 32-row board takes about 35 KB with its observation arrays, so
/// the largest vector (about 0.6 GB) fits well under a 4 GiB limit
/// (`python/tests/test_hostile_arguments.py` checks it).
pub const MAX_GAMES: u64 = 16_384;

/// The message for a number of games outside `1..=MAX_GAMES` (`count` as given).
pub(crate) fn game_count_error(count: impl std::fmt::Display) -> PyErr {
    py_error(format!(
        "num_envs {count} is outside 1..={MAX_GAMES} (games in one vector environment)"
    ))
}

/// An output array as writeable, or a `ValueError` naming it (read-only, or the same array
/// as another argument: NumPy's `BorrowError` is non-exhaustive, so any other refusal is
/// told as a borrow).
fn writeable<'py, T: numpy::Element, D: numpy::ndarray::Dimension>(
    array: &Bound<'py, numpy::PyArray<T, D>>,
    name: &str,
) -> PyResult<numpy::PyReadwriteArray<'py, T, D>> {
    array.try_readwrite().map_err(|error| match error {
        BorrowError::NotWriteable => py_error(format!("the {name} array is read-only")),
        _ => py_error(format!(
            "the {name} array is the same array as another argument (or borrowed elsewhere)"
        )),
    })
}

/// N games of the same rules, stepped together.
#[pyclass(module = "tetris_arena._native")]
pub struct Games {
    games: Vec<Game>,
    searchers: Vec<AnySearcher>,
    generator: GeneratorKind,
    height: u8,
    preview: usize,
    rule: GameOverRule,
    /// Where each game's level starts and stops: the searcher's gravity's levels for a
    /// gravity-aware searcher, as `arena play` scores its games.
    levels: GameLevels,
    reward: Reward,
    max_pieces: Option<u64>,
    /// An illegal action ends the episode (`true`) or is an error.
    illegal_ends: bool,
    /// Strategies and evaluators already built, by name.
    strategies: Vec<(String, Strategy)>,
    evaluators: Vec<(String, AnyEvaluator)>,
    /// `reset` has been called: before it, stepping is an error.
    started: bool,
}

impl Games {
    /// A built strategy by name, cached.
    fn strategy(&mut self, name: &str) -> PyResult<&mut Strategy> {
        let index = match self.strategies.iter().position(|(known, _)| known == name) {
            Some(index) => index,
            None => {
                let strategy = Strategy::from_name(name).map_err(py_error)?;
                check_pattern_height(&strategy, self.height, Field::BOARD_HEIGHT)
                    .map_err(py_error)?;
                if strategy.depth() > self.preview + 1 {
                    return Err(py_error(format!(
                        "strategy {} looks at {} pieces per decision but the environment \
                         shows {} (the current piece and a preview of {}): raise preview",
                        strategy.name(),
                        strategy.depth(),
                        self.preview + 1,
                        self.preview
                    )));
                }
                self.strategies.push((name.to_string(), strategy));
                self.strategies.len() - 1
            }
        };
        Ok(&mut self.strategies[index].1)
    }

    /// A built evaluator by name, cached.
    fn evaluator(&mut self, name: &str) -> PyResult<&AnyEvaluator> {
        let index = match self.evaluators.iter().position(|(known, _)| known == name) {
            Some(index) => index,
            None => {
                self.evaluators
                    .push((name.to_string(), evaluator_named(name)?));
                self.evaluators.len() - 1
            }
        };
        Ok(&self.evaluators[index].1)
    }
}

#[pymethods]
impl Games {
    /// N games of the same rules, not started (call `reset`). Checks the arguments with the
    /// CLI's messages.
    #[new]
    #[pyo3(signature = (count, generator, board_height, preview, game_over, searcher, reward, max_pieces, illegal_action))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        count: u64,
        generator: &str,
        board_height: u64,
        preview: usize,
        game_over: &str,
        searcher: &str,
        reward: &str,
        max_pieces: Option<u64>,
        illegal_action: &str,
    ) -> PyResult<Games> {
        if !(1..=MAX_GAMES).contains(&count) {
            return Err(game_count_error(count));
        }
        let count = count as usize;
        let generator = values::generator(generator).map_err(py_error)?;
        let height = BoardHeight::try_from(board_height).map_err(py_error)?.get();
        let rule = frameless_game_over_rule(
            Some(values::game_over_rule(game_over).map_err(py_error)?),
            &[],
        )
        .map_err(py_error)?;
        let searcher = searcher_named(searcher)?;
        let levels = game_levels(tetris_core::Searcher::frame_timing(&searcher));
        let reward = match reward {
            "lines" => Reward::Lines,
            "score" => Reward::Score,
            other => {
                return Err(py_error(format!(
                    "unknown reward {other:?} (valid: lines score)"
                )));
            }
        };
        let max_pieces = max_pieces
            .map(MaxPieces::try_from)
            .transpose()
            .map_err(py_error)?
            .map(MaxPieces::get);
        let illegal_ends = match illegal_action {
            "end" => true,
            "raise" => false,
            other => {
                return Err(py_error(format!(
                    "unknown illegal_action {other:?} (valid: end raise)"
                )));
            }
        };
        if preview > 6 {
            return Err(py_error(format!("preview {preview} is outside 0..=6")));
        }
        // The preview is dealt ahead of the placement: a generator that deals only after it
        // (`mdptetris`) is refused, with the request layer's message.
        generator.check_preview(preview + 1).map_err(py_error)?;
        // Reads and checks a piece file now rather than at the first reset.
        let first = generator.start(0).map_err(py_error)?;
        let empty = Board::new(usize::from(height)).map_err(py_error)?;
        let unstarted = PlacementGame::with_levels(empty, rule, levels).map_err(py_error)?;
        let games = (0..count)
            .map(|_| Game {
                state: unstarted.clone(),
                generator: first.clone(),
                upcoming: VecDeque::with_capacity(preview + 1),
                placements: Placements::new(),
                actions: Vec::new(),
                ended: true,
                seed: 0,
                last_clear: 0,
            })
            .collect();
        Ok(Games {
            games,
            searchers: vec![searcher; count],
            generator,
            height,
            preview,
            rule,
            levels,
            reward,
            max_pieces,
            illegal_ends,
            strategies: Vec::new(),
            evaluators: Vec::new(),
            started: false,
        })
    }

    /// The number of actions: 4 × (board height + 1) × 10.
    #[getter]
    fn action_count(&self) -> usize {
        4 * (usize::from(self.height) + 1) * BOARD_WIDTH
    }

    /// Starts every game: game i with seed `seed + i`.
    fn reset(&mut self, seed: u64) -> PyResult<()> {
        let count = self.games.len() as u64;
        check_last_seed(seed, Some(count - 1), &format!("{count} games")).map_err(py_error)?;
        for index in 0..self.games.len() {
            self.start(index, seed + index as u64)?;
        }
        self.started = true;
        Ok(())
    }

    /// Starts game `index` anew with `seed`.
    fn reset_game(&mut self, index: usize, seed: u64) -> PyResult<()> {
        if index >= self.games.len() {
            return Err(py_error(format!("there is no game {index}")));
        }
        self.start(index, seed)
    }

    /// Plays one action in every game and writes the rewards and ends; a game whose episode
    /// ended on the previous call starts its next game instead (its action is ignored, its
    /// reward is 0). With `autoreset` false, playing an ended game is an error.
    #[pyo3(signature = (actions, rewards, terminated, truncated, autoreset))]
    fn step(
        &mut self,
        actions: &Bound<'_, PyArray1<i64>>,
        rewards: &Bound<'_, PyArray1<f64>>,
        terminated: &Bound<'_, PyArray1<bool>>,
        truncated: &Bound<'_, PyArray1<bool>>,
        autoreset: bool,
    ) -> PyResult<()> {
        if !self.started {
            return Err(py_error("call reset() before step()"));
        }
        let count = self.games.len();
        let actions = actions
            .try_readonly()
            .map_err(|_| py_error("the actions array is borrowed elsewhere"))?;
        let actions = actions.as_slice()?;
        let mut rewards = writeable(rewards, "rewards")?;
        let mut terminated = writeable(terminated, "terminated")?;
        let mut truncated = writeable(truncated, "truncated")?;
        let (rewards, terminated, truncated) = (
            rewards.as_slice_mut()?,
            terminated.as_slice_mut()?,
            truncated.as_slice_mut()?,
        );
        if [
            actions.len(),
            rewards.len(),
            terminated.len(),
            truncated.len(),
        ]
        .iter()
        .any(|&length| length != count)
        {
            return Err(py_error(format!("step needs arrays of {count} entries")));
        }
        // Every game that starts anew needs its next seed before any game moves.
        if autoreset {
            for (index, game) in self.games.iter().enumerate() {
                if game.ended && game.seed.checked_add(count as u64).is_none() {
                    return Err(py_error(format!(
                        "game {index}'s next seed, {} + {count}, overflows a 64-bit seed \
                         (reset with a smaller seed)",
                        game.seed
                    )));
                }
            }
        }
        for index in 0..count {
            let (reward, over, cut) = if self.games[index].ended {
                if !autoreset {
                    return Err(py_error(
                        "the episode has ended: call reset() before step()",
                    ));
                }
                let seed = self.games[index].seed + count as u64;
                self.start(index, seed)?;
                (0.0, false, false)
            } else {
                self.play(index, actions[index])?
            };
            self.games[index].ended = over || cut;
            rewards[index] = reward;
            terminated[index] = over;
            truncated[index] = cut;
        }
        Ok(())
    }

    /// Writes the observations: boards `(N, H, 10)`, current pieces `(N,)`, previews
    /// `(N, preview)` (piece indices, 7 where the sequence has ended) and action masks
    /// `(N, actions)` (1 = legal; every action of a game whose episode has ended, since its
    /// next action is ignored).
    fn observe(
        &self,
        boards: &Bound<'_, PyArray3<u8>>,
        current: &Bound<'_, PyArray1<i64>>,
        preview: &Bound<'_, PyArray2<i64>>,
        masks: &Bound<'_, PyArray2<u8>>,
    ) -> PyResult<()> {
        let count = self.games.len();
        let cells = usize::from(self.height) * BOARD_WIDTH;
        let actions = self.action_count();
        let (mut boards, mut current, mut preview, mut masks) = (
            writeable(boards, "boards")?,
            writeable(current, "current")?,
            writeable(preview, "preview")?,
            writeable(masks, "masks")?,
        );
        let (boards, current, preview, masks) = (
            boards.as_slice_mut()?,
            current.as_slice_mut()?,
            preview.as_slice_mut()?,
            masks.as_slice_mut()?,
        );
        if boards.len() != count * cells
            || current.len() != count
            || preview.len() != count * self.preview
            || masks.len() != count * actions
        {
            return Err(py_error("observe needs arrays of the games' shapes"));
        }
        for (index, game) in self.games.iter().enumerate() {
            write_board(
                game.state.board(),
                &mut boards[index * cells..(index + 1) * cells],
            );
            let piece = |position: usize| {
                game.upcoming
                    .get(position)
                    .map_or(NO_PIECE, |piece| piece.index() as i64)
            };
            // After the end of a game the observation keeps its last pieces shown.
            current[index] = piece(0).min(6);
            for slot in 0..self.preview {
                preview[index * self.preview + slot] = piece(1 + slot);
            }
            let mask = &mut masks[index * actions..(index + 1) * actions];
            mask.fill(u8::from(game.ended));
            for &action in &game.actions {
                if let Some(cell) = mask.get_mut(action as usize) {
                    *cell = 1;
                }
            }
        }
        Ok(())
    }

    /// The legal actions of every game as rows padded with -1 to the longest, and their
    /// counts: `(N, longest)` and `(N,)` (a game whose episode has ended lists action 0, since
    /// its next action is ignored). A random legal policy over N games is then
    /// `actions[i, floor(u * counts[i])]`, without scanning the masks.
    #[allow(clippy::type_complexity)]
    fn legal_actions<'py>(
        &self,
        py: Python<'py>,
    ) -> (Bound<'py, PyArray2<i64>>, Bound<'py, PyArray1<i64>>) {
        let counts: Vec<i64> = self
            .games
            .iter()
            .map(|game| {
                if game.ended {
                    1
                } else {
                    game.actions.len() as i64
                }
            })
            .collect();
        let longest = counts.iter().copied().max().unwrap_or(0).max(1) as usize;
        let mut rows = vec![-1i64; self.games.len() * longest];
        for (game, row) in self.games.iter().zip(rows.chunks_exact_mut(longest)) {
            if game.ended {
                row[0] = 0;
            }
            for (slot, &action) in row.iter_mut().zip(&game.actions) {
                *slot = i64::from(action);
            }
        }
        let rows = numpy::ndarray::Array2::from_shape_vec((self.games.len(), longest), rows)
            .expect("a row per game");
        (
            numpy::IntoPyArray::into_pyarray(rows, py),
            PyArray1::from_vec(py, counts),
        )
    }

    /// Plays `action` in game 0 (the scalar environment's one game): `(reward, terminated,
    /// truncated)`; an ended game is an error (call `reset`).
    fn step_one(&mut self, action: i64) -> PyResult<(f64, bool, bool)> {
        if self.games[0].ended {
            return Err(py_error(
                "the episode has ended: call reset() before step()",
            ));
        }
        let (reward, over, cut) = self.play(0, action)?;
        self.games[0].ended = over || cut;
        Ok((reward, over, cut))
    }

    /// Game 0's observation as new arrays: board `(H, 10)`, current piece, preview `(preview,)`
    /// and action mask `(actions,)` (as `observe` writes them).
    #[allow(clippy::type_complexity)]
    fn observe_one<'py>(
        &self,
        py: Python<'py>,
    ) -> (
        Bound<'py, PyArray2<u8>>,
        i64,
        Bound<'py, PyArray1<i64>>,
        Bound<'py, PyArray1<i8>>,
    ) {
        let game = &self.games[0];
        let height = usize::from(self.height);
        let mut cells = vec![0u8; height * BOARD_WIDTH];
        write_board(game.state.board(), &mut cells);
        let board = numpy::ndarray::Array2::from_shape_vec((height, BOARD_WIDTH), cells)
            .expect("height × 10 cells");
        let piece = |position: usize| {
            game.upcoming
                .get(position)
                .map_or(NO_PIECE, |piece| piece.index() as i64)
        };
        let preview: Vec<i64> = (1..=self.preview).map(piece).collect();
        let mut mask = vec![i8::from(game.ended); self.action_count()];
        for &action in &game.actions {
            if let Some(cell) = mask.get_mut(action as usize) {
                *cell = 1;
            }
        }
        (
            numpy::IntoPyArray::into_pyarray(board, py),
            piece(0).min(6),
            PyArray1::from_vec(py, preview),
            PyArray1::from_vec(py, mask),
        )
    }

    /// Per game: pieces placed, lines, NES score, seed, NES level (the score's: from level
    /// 0, up one every 10 lines, or from a gravity-aware searcher's gravity's first level) and
    /// the rows the last placement cleared.
    fn progress(&self) -> Vec<(u64, u64, u32, u64, u8, u8)> {
        self.games
            .iter()
            .map(|game| {
                let state = &game.state;
                (
                    state.pieces(),
                    state.lines(),
                    state.score().score(),
                    game.seed,
                    state.score().level(),
                    game.last_clear,
                )
            })
            .collect()
    }

    /// Game `index`'s legal actions and the placements they name, in the searcher's order:
    /// `(action, x, y, rotation)`.
    fn legal_placements(&self, index: usize) -> PyResult<Vec<(u32, i8, i8, u8)>> {
        let game = self
            .games
            .get(index)
            .ok_or_else(|| py_error(format!("there is no game {index}")))?;
        Ok(game
            .actions
            .iter()
            .zip(game.placements.iter())
            .map(|(&action, placement)| (action, placement.x, placement.y, placement.rotation))
            .collect())
    }

    /// The action the strategy called `name` chooses in each game, as `arena play` decides
    /// (the current piece and as many preview pieces as its depth); -1 where the game has
    /// ended or the strategy finds no placement.
    fn strategy_actions<'py>(
        &mut self,
        py: Python<'py>,
        name: &str,
    ) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let (height, rule, count) = (self.height, self.rule, self.games.len());
        self.strategy(name)?;
        let index = self
            .strategies
            .iter()
            .position(|(known, _)| known == name)
            .expect("just built");
        let mut chosen = vec![-1i64; count];
        let mut window = Vec::with_capacity(self.preview + 1);
        let context = DecisionContext::with_game_over_rule(rule);
        for (game, action) in self.games.iter().zip(chosen.iter_mut()) {
            if game.ended || game.actions.is_empty() {
                continue;
            }
            let strategy = &mut self.strategies[index].1;
            window.clear();
            window.extend(game.upcoming.iter().take(strategy.depth()).copied());
            if let Some(choice) = strategy.choose_in(game.state.board(), &window, context) {
                *action = action_of(&choice.placement, height).map_or(-1, i64::from);
            }
        }
        Ok(PyArray1::from_vec(py, chosen))
    }

    /// Game `index`'s legal actions and, row for row, the evaluator's features after each of
    /// those placements (all its features, in its order): what a value function is fitted
    /// on.
    #[allow(clippy::type_complexity)]
    fn action_features<'py>(
        &mut self,
        py: Python<'py>,
        index: usize,
        evaluator: &str,
    ) -> PyResult<(Bound<'py, PyArray1<i64>>, Bound<'py, PyArray2<f64>>)> {
        if index >= self.games.len() {
            return Err(py_error(format!("there is no game {index}")));
        }
        let evaluator = self.evaluator(evaluator)?.clone();
        let game = &self.games[index];
        let width = tetris_core::Evaluator::feature_names(&evaluator).len();
        let mut matrix = vec![0.0; game.actions.len() * width];
        for (placement, row) in game.placements.iter().zip(matrix.chunks_exact_mut(width)) {
            after_placement_features(&evaluator, game.state.board(), *placement, row);
        }
        let actions: Vec<i64> = game.actions.iter().map(|&a| i64::from(a)).collect();
        let matrix = numpy::ndarray::Array2::from_shape_vec((actions.len(), width), matrix)
            .expect("a row per action");
        Ok((
            PyArray1::from_vec(py, actions),
            numpy::IntoPyArray::into_pyarray(matrix, py),
        ))
    }
}
