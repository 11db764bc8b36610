//! `tetris-core`: the exact NES Tetris model every other crate stands on.
//!
//! It holds the board (a `Copy` column bitboard), the seven pieces with the NES orientation
//! table, placements and inputs, the seeded piece generators, NES levels and scoring, the
//! `Searcher` and `Evaluator` traits that the searcher and evaluator crates implement, and the
//! board feature primitives they share. Everything here is deterministic: the same seed gives
//! the same pieces on any machine.
//!
//! Searching, evaluating and choosing a placement need a searcher and an evaluator, which live
//! in their own crates; `tetris-registry` builds them by name, and its crate documentation
//! continues this quick start with a search, a strategy and a decision.
//!
//! # Quick start: a board, a drop and a line clear
//!
//! A board is written as rows of 10 characters, top row first ([`Board::from_rows`]): `#` is an occupied cell, `.` an
//! empty one, and the number of rows is the height (4 to 32; 20 on the NES). Coordinates are
//! `(x, y)` with `x` the column from the left and `y` the row from the TOP. A piece is locked
//! in a [`PieceState`]: its pivot column and row and its rotation index (0 = the spawn
//! orientation, which for the T is three cells in a row with the fourth below the middle).
//!
//! ```
//! use tetris_core::{Board, Piece, PieceState};
//!
//! let mut board = Board::from_rows(&[
//!     "..........",
//!     "#.........",
//!     "###...####",
//!     "####.#####",
//! ])?;
//! assert_eq!(board.height(), 4);
//! // A column's height counts the rows from the floor up to its topmost cell.
//! assert_eq!(board.column_heights(), [3, 2, 2, 1, 0, 1, 2, 2, 2, 2]);
//!
//! // A T in its spawn orientation, one column left of the spawn column (5), dropped straight
//! // down from the top row: its row of three lands in the gap of row 2, its nub in row 3's.
//! let above_the_gap = PieceState { x: 4, y: 0, rotation: 0 };
//! let resting_row = board.drop_row(Piece::T, above_the_gap);
//! assert_eq!(resting_row, 2);
//! let outcome = board.lock(Piece::T, PieceState { y: resting_row, ..above_the_gap });
//!
//! // Rows 2 and 3 are full and clear (all four of the T's cells with them); the rows above
//! // move down two, so the lone cell of row 1 ends on the floor row.
//! assert_eq!(outcome.rows_cleared, 2);
//! assert_eq!(outcome.cleared_rows, 0b1100); // bit y = row y, before the clear
//! assert_eq!(outcome.piece_cells_cleared, 4);
//! assert_eq!(
//!     board.to_rows(),
//!     ["..........", "..........", "..........", "#........."]
//! );
//! // The text form (`Display` and `FromStr`) is the same rows, one per line.
//! assert_eq!(board.to_string(), "..........\n..........\n..........\n#.........\n");
//! assert_eq!(board.to_string().parse::<Board>()?, board);
//! # Ok::<(), tetris_core::Error>(())
//! ```
#![deny(missing_docs)]

pub mod board;
pub mod chain;
pub mod error;
pub mod evaluate;
pub mod features;
pub mod files;
pub mod filter;
pub mod frames;
pub mod game;
pub mod generator;
pub mod piece;
pub mod placed_columns;
pub mod placement;
pub mod playout;
pub mod rules;
pub mod scoring;
pub mod search;
pub mod stop;
pub mod straight_drop;
pub mod timeline;

pub use board::{
    BOARD_WIDTH, Board, DEFAULT_BOARD_HEIGHT, LockOutcome, MAX_BOARD_HEIGHT, MIN_BOARD_HEIGHT,
};
pub use chain::{
    ChainChoice, ChainOptions, ChainValue, EveryNext, LookaheadChain, MeanOverPieces,
    PlacementValue,
};
pub use error::Error;
pub use evaluate::{
    Chain, ChainRule, Evaluator, LinkValue, MAX_FEATURES, PlacementRecord, Preset,
    WeightedEvaluator, Weights, WeightsFile, landing_height, link_value_by_locking,
};
pub use filter::{PatternFilter, PlacementFilter, WellFilter};
pub use frames::{
    FallingPiece, NesGame, NesGameEnd, NesGameSettings, NesLock, PLATEAU_LINES,
    PLATEAU_START_LEVEL, PLATEAU_STOP_LEVEL,
};
pub use game::{Placed, PlacementGame};
pub use generator::{GeneratorKind, PieceGenerator};
pub use piece::{Footprint, Piece, SPAWN_X, SPAWN_Y};
pub use placement::{Buttons, Input, PieceState, Placement};
pub use playout::{MAX_PLAYOUTS, Playouts};
pub use rules::GameOverRule;
pub use scoring::{GameLevels, NesScore};
pub use search::NamedSearcher;
pub use search::{
    DecisionContext, FrameTiming, InputModel, MAX_PLAYED_FRAMES, Placements, PlayedFrames,
    SearchOptions, Searcher,
};
pub use timeline::{Timeline, TimelineError};
