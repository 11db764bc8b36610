//! `arena replay` (being written).

use crate::error::ArenaError;

/// Options of `arena replay`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `arena replay`.
pub fn run(_args: Args) -> Result<(), ArenaError> {
    Err(ArenaError::Usage("arena replay is not written yet".into()))
}
