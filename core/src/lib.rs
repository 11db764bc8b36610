//! `tetris-core`: the exact NES Tetris model every other crate stands on.
//!
//! It holds the board (a `Copy` column bitboard), the seven pieces with the NES orientation
//! table, placements and inputs, the seeded piece generators, NES levels and scoring, the
//! `Searcher` and `Evaluator` traits that the searcher and evaluator crates implement, and the
//! board feature primitives they share. Everything here is deterministic: the same seed gives
//! the same pieces on any machine.
#![deny(missing_docs)]

pub mod board;
pub mod chain;
pub mod error;
pub mod evaluate;
pub mod features;
pub mod filter;
pub mod frames;
pub mod game;
pub mod generator;
pub mod piece;
pub mod placed_columns;
pub mod placement;
pub mod rules;
pub mod scoring;
pub mod search;

pub use board::{
    BOARD_WIDTH, Board, DEFAULT_BOARD_HEIGHT, LockOutcome, MAX_BOARD_HEIGHT, MIN_BOARD_HEIGHT,
};
pub use chain::{ChainChoice, ChainOptions, ChainValue, LookaheadChain, PlacementValue};
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
pub use rules::GameOverRule;
pub use scoring::NesScore;
pub use search::NamedSearcher;
pub use search::{DecisionContext, FrameTiming, InputModel, Placements, SearchOptions, Searcher};
