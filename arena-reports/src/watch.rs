//! Following a game on the terminal: `arena play --watch` plays a game and draws every
//! placement with the upcoming pieces it will see.

use std::collections::VecDeque;
use std::ops::ControlFlow;

use tetris_core::{Board, NesScore, Piece};
use tetris_registry::Strategy;

use crate::error::ReportError;
use crate::terminal::{Frame, Watcher};
use tetris_arena_games::sim::game::{GameResult, GameSettings, PlayOptions, Step, play_game};
use tetris_arena_games::sim::placement::LastPlacement;

/// Plays a game and shows it, frame by frame, with `watcher`.
pub fn play_watched(
    strategy: &mut Strategy,
    settings: &GameSettings,
    options: PlayOptions,
    watcher: &mut Watcher,
) -> Result<GameResult, ReportError> {
    let mut view = GameView {
        title: strategy.name(),
        depth: strategy.depth(),
        board: Board::new(settings.board_height.rows())?,
        score: NesScore::new(0),
        sequence: settings.generator.start(settings.seed)?,
        upcoming: VecDeque::new(),
        shown: Vec::new(),
    };
    view.refill();
    watcher.start();
    watcher.show(&view.frame(None, 0, 0));
    Ok(play_game(strategy, settings, options, &mut |step| {
        let last = view.advance(step);
        watcher.show(&view.frame(Some(last), step.pieces, step.lines));
        // Ctrl-C (when the command installed the handler) stops the game after this piece.
        if tetris_arena_runs::interrupt::interrupted() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })?)
}

/// What `--watch` shows besides the game's own step: the board before the placement (to find
/// the cleared rows for the highlight), the score, and the next pieces, drawn from a second
/// copy of the generator so that the frame shows every piece the strategy will see.
struct GameView {
    title: String,
    depth: usize,
    board: Board,
    score: NesScore,
    sequence: tetris_core::PieceGenerator,
    upcoming: VecDeque<Piece>,
    shown: Vec<Piece>,
}

impl GameView {
    /// Tops the upcoming pieces up to the strategy's depth.
    fn refill(&mut self) {
        while self.upcoming.len() < self.depth {
            match self.sequence.next() {
                Some(piece) => self.upcoming.push_back(piece),
                None => break,
            }
        }
        self.shown.clear();
        self.shown.extend(self.upcoming.iter().copied());
    }

    /// Follows one placement of the game.
    fn advance(&mut self, step: &Step<'_>) -> LastPlacement {
        let placed = step.placement;
        // The view's copy of the generator hears of the placement as the game's does.
        self.sequence.after_placement(&self.board, placed.piece);
        let outcome = self.board.lock(placed.piece, placed.state());
        debug_assert_eq!(&self.board, step.board, "the view follows the game");
        self.board = *step.board;
        if outcome.rows_cleared > 0 {
            self.score.add_cleared_rows(outcome.rows_cleared);
        }
        self.upcoming.pop_front();
        self.refill();
        LastPlacement {
            piece: placed.piece,
            state: placed.state(),
            cleared_rows: outcome.cleared_rows,
        }
    }

    /// The frame after `pieces` placements.
    fn frame(&self, last: Option<LastPlacement>, pieces: u64, lines: u64) -> Frame<'_> {
        Frame {
            title: &self.title,
            board: &self.board,
            last,
            pieces,
            lines,
            score: self.score.score(),
            upcoming: &self.shown,
        }
    }
}
