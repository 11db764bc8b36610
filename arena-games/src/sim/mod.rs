//! The games: what is played and by which rules, independent of how runs are scheduled or
//! reported.

pub mod evaluation;
pub mod game;
pub mod levels;
pub mod nes;
pub mod nes_trace;
pub mod placement;
pub mod reaction;
pub mod replay;
