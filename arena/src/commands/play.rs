//! `arena play` (being written).

use crate::error::ArenaError;

/// Options of `arena play`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `arena play`.
pub fn run(_args: Args) -> Result<(), ArenaError> {
    Err(ArenaError::Usage("arena play is not written yet".into()))
}
