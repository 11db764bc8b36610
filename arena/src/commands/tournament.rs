//! `arena tournament` (being written).

use crate::error::ArenaError;

/// Options of `arena tournament`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `arena tournament`.
pub fn run(_args: Args) -> Result<(), ArenaError> {
    Err(ArenaError::Usage(
        "arena tournament is not written yet".into(),
    ))
}
