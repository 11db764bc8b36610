//! One game of the environment and its step: the state of game i ([`Game`]: the core's
//! [`PlacementGame`], the window of upcoming pieces, the current piece's placements and their
//! actions), starting it, refilling its window and searching its placements, and playing an
//! action ([`Games`]' `start`, `refill`, `play`); and the action encoding ([`action_of`], see
//! the parent module's documentation).

use std::collections::VecDeque;

use pyo3::prelude::*;
use tetris_core::{
    BOARD_WIDTH, Board, DecisionContext, Piece, PieceGenerator, Placement, PlacementGame,
    Placements, Searcher,
};

use super::Games;
use crate::py_error;

/// What a step's reward counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Reward {
    /// Rows cleared by the placement.
    Lines,
    /// NES points the placement scored (displayed score, capped at 999,999).
    Score,
}

/// One game's state.
pub(super) struct Game {
    /// The board, score and counts, stepped by the core's frame-less game.
    pub(super) state: PlacementGame,
    pub(super) generator: PieceGenerator,
    /// The current piece, then the preview (the environment's window, not the game's: see
    /// [`tetris_core::game`]).
    pub(super) upcoming: VecDeque<Piece>,
    /// The current piece's placements (empty when the game is over).
    pub(super) placements: Placements,
    /// Each placement's action.
    pub(super) actions: Vec<u32>,
    /// The episode ended on the last step: the next step starts a new game.
    pub(super) ended: bool,
    /// The seed of this game.
    pub(super) seed: u64,
    /// Rows the last placement cleared (0 before the first).
    pub(super) last_clear: u8,
}

impl Games {
    /// Starts game `index` anew with `seed`.
    pub(super) fn start(&mut self, index: usize, seed: u64) -> PyResult<()> {
        let generator = self.generator.start(seed).map_err(py_error)?;
        let board = Board::new(usize::from(self.height)).map_err(py_error)?;
        let game = &mut self.games[index];
        game.state = PlacementGame::with_levels(board, self.rule, self.levels).map_err(py_error)?;
        game.generator = generator;
        game.upcoming.clear();
        game.ended = false;
        game.seed = seed;
        game.last_clear = 0;
        self.refill(index);
        Ok(())
    }

    /// Fills the current piece and the preview from the generator and searches the current
    /// piece's placements; true when the game can go on (`false`: no piece left, it cannot
    /// spawn under the simulation rule, or it has no placement).
    pub(super) fn refill(&mut self, index: usize) -> bool {
        let (height, rule) = (self.height, self.rule);
        let game = &mut self.games[index];
        while game.upcoming.len() <= self.preview {
            match game.generator.next() {
                Some(piece) => game.upcoming.push_back(piece),
                None => break,
            }
        }
        game.placements.clear(false);
        game.actions.clear();
        let Some(&current) = game.upcoming.front() else {
            return false;
        };
        if !game.state.spawn(current) {
            return false;
        }
        self.searchers[index].search(
            game.state.board(),
            current,
            DecisionContext::with_game_over_rule(rule).current_piece_options(false),
            &mut game.placements,
        );
        game.actions.extend(
            game.placements
                .iter()
                .map(|placement| action_of(placement, height).unwrap_or(u32::MAX)),
        );
        !game.placements.is_empty()
    }

    /// Plays `action` in game `index`: (reward, terminated, truncated).
    pub(super) fn play(&mut self, index: usize, action: i64) -> PyResult<(f64, bool, bool)> {
        let game = &mut self.games[index];
        let Some(chosen) = game
            .actions
            .iter()
            .position(|&legal| i64::from(legal) == action)
        else {
            if self.illegal_ends {
                game.placements.clear(false);
                game.actions.clear();
                return Ok((0.0, true, false));
            }
            return Err(py_error(format!(
                "action {action} is not a legal placement of game {index} (see \
                 info[\"action_mask\"])"
            )));
        };
        let placement = game.placements.as_slice()[chosen];
        let before = game.state.score().score();
        let board_before = *game.state.board();
        let placed = game.state.place(&placement).map_err(py_error)?;
        game.upcoming.pop_front();
        game.last_clear = placed.outcome.rows_cleared;
        // The generator hears of every placement before it deals again, as in `arena play`
        // (`mdptetris` skips MDPTetris's trial draws; the others ignore it).
        game.generator
            .after_placement(&board_before, placement.piece);
        let reward = match self.reward {
            Reward::Lines => f64::from(placed.outcome.rows_cleared),
            Reward::Score => f64::from(game.state.score().score() - before),
        };
        if placed.game_over {
            game.placements.clear(false);
            game.actions.clear();
            return Ok((reward, true, false));
        }
        if self
            .max_pieces
            .is_some_and(|cap| game.state.pieces() >= cap)
        {
            game.placements.clear(false);
            game.actions.clear();
            return Ok((reward, false, true));
        }
        if self.refill(index) {
            return Ok((reward, false, false));
        }
        // Out of pieces (a file's sequence): truncated; otherwise over by the rule.
        let over = !self.games[index].upcoming.is_empty();
        Ok((reward, over, !over))
    }
}

/// The action of `placement` on a board of `height` rows (see the module documentation), or
/// `None` for a lowest cell above row -1 (never a lock placement).
pub(crate) fn action_of(placement: &Placement, height: u8) -> Option<u32> {
    let left = placement.cells.iter().map(|&(x, _)| x).min()?;
    let bottom = placement.cells.iter().map(|&(_, y)| y).max()?;
    if bottom < -1 || left < 0 {
        return None;
    }
    let (left, row) = (left as u32, (bottom + 1) as u32);
    let rows = u32::from(height) + 1;
    Some((u32::from(placement.rotation) * rows + row) * BOARD_WIDTH as u32 + left)
}
