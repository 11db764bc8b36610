//! `arena analyze` (being written).

use crate::error::ArenaError;

/// Options of `arena analyze`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `arena analyze`.
pub fn run(_args: Args) -> Result<(), ArenaError> {
    Err(ArenaError::Usage("arena analyze is not written yet".into()))
}
