//! Replays: a recorded game's file, the verifier that re-plays it, and the follower of its
//! recorded input paths (used by `arena play --record` and `arena replay`).
//!
//! - [`format`](mod@format): the file (format version 1) — its serde types, recording a played game,
//!   reading and writing;
//! - [`verify`]: what `arena replay` checks, placement by placement, naming the first
//!   difference;
//! - [`frames`]: following a recorded path, move by move or gamepad frame by frame through the
//!   core's NES frame model.

pub mod format;
pub mod frames;
pub mod verify;

#[cfg(test)]
mod tests;

pub use format::{REPLAY_FORMAT, REPLAY_VERSION, Replay, ReplayResult, ReplayRules};
pub use verify::ReplayStep;
