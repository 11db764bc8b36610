//! Following a game on the terminal: `arena play --watch` plays a game and draws every
//! placement with the upcoming pieces it will see.

use std::collections::VecDeque;
use std::ops::ControlFlow;

use tetris_core::{Board, Piece};
use tetris_registry::Strategy;

use crate::error::ReportError;
use crate::terminal::{Frame, Watcher};
use tetris_arena_games::sim::game::{GameResult, GameSettings, PlayOptions, Step, play_game};
use tetris_arena_games::sim::levels::game_levels;
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
        sequence: settings.generator.start(settings.seed)?,
        upcoming: VecDeque::new(),
        shown: Vec::new(),
    };
    view.refill();
    watcher.start();
    let start = Counts {
        pieces: 0,
        lines: 0,
        score: 0,
        level: game_levels(strategy.frame_timing()).start,
    };
    watcher.show(&view.frame(None, start));
    Ok(play_game(strategy, settings, options, &mut |step| {
        let last = view.advance(step);
        let counts = Counts {
            pieces: step.pieces,
            lines: step.lines,
            score: step.score,
            level: step.level,
        };
        watcher.show(&view.frame(Some(last), counts));
        // Ctrl-C (when the command installed the handler) stops the game after this piece.
        if tetris_arena_runs::interrupt::interrupted() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })?)
}

/// What `--watch` shows besides the game's own step: the board before the placement (to find
/// the cleared rows for the highlight) and the next pieces, drawn from a second
/// copy of the generator so that the frame shows every piece the strategy will see.
struct GameView {
    title: String,
    depth: usize,
    board: Board,
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
        self.upcoming.pop_front();
        self.refill();
        LastPlacement {
            piece: placed.piece,
            state: placed.state(),
            cleared_rows: outcome.cleared_rows,
        }
    }

    /// The frame with the game's `counts`.
    fn frame(&self, last: Option<LastPlacement>, counts: Counts) -> Frame<'_> {
        Frame {
            title: &self.title,
            board: &self.board,
            last,
            pieces: counts.pieces,
            lines: counts.lines,
            score: counts.score,
            level: counts.level,
            upcoming: &self.shown,
        }
    }
}

/// The game's counts a frame shows, the game's own (its step's).
#[derive(Clone, Copy)]
struct Counts {
    pieces: u64,
    lines: u64,
    score: u32,
    level: u8,
}
