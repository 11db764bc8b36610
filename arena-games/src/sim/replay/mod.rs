//! Replays: a recorded game's file, the verifier that re-plays it, and the follower of its
//! recorded input paths (used by `arena play --record` and `arena replay`).
//!
//! - [`format`](mod@format): the file (format version 2; version 1 still reads) — its serde
//!   types, recording a played game, reading and writing;
//! - [`verify`]: what `arena replay` checks, placement by placement, naming the first
//!   difference with a typed error ([`errors`]);
//! - [`frames`]: following a recorded path, move by move or gamepad frame by frame through the
//!   core's NES frame model.

pub mod errors;
pub mod format;
pub mod frames;
pub mod verify;

#[cfg(test)]
mod tests;

pub use errors::{PlacementError, ReplayError, ResultError, RulesError};
pub use format::{
    LEVELED_REPLAY_VERSION, OLDEST_REPLAY_VERSION, REPLAY_FORMAT, REPLAY_VERSION, Replay,
    ReplayFormatError, ReplayResult, ReplayRules, reads_version,
};
pub use frames::{ButtonNames, PathError, Thumb};
pub use verify::{HeaderFact, ReplayStep, Unproven, Verified};
