//! `tetris-arena-games`: the arena's games and what their results mean.
//!
//! - [`sim`]: the games — the frame-less game's runner, the NES frame-accurate game of the
//!   plateau benchmark and its player with or without a reaction time, the placement record
//!   every result uses, replays with their verifier, and the trace of an NES run;
//! - [`analysis`]: what results mean — summaries, the sign test and intervals, per-piece
//!   statistics and the log-linear fit, the NES score distribution, position analysis.
//!
//! It stands on the values and files (`tetris-arena-io`) and the engines by name
//! (`tetris-registry`); it knows nothing of how runs are scheduled, reported or requested.
#![deny(missing_docs)]

pub mod analysis;
pub mod error;
pub mod sim;

pub use error::GameError;
