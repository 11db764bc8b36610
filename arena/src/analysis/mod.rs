//! What results mean: summaries and tests over games, per-piece statistics, and how a strategy
//! judges a position.

pub mod features;
pub mod nes;
pub mod pieces;
pub mod position;
pub mod stats;
pub mod tournament;
