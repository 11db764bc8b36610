//! `arena features` (being written).

use crate::error::ArenaError;

/// Options of `arena features`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `arena features`.
pub fn run(_args: Args) -> Result<(), ArenaError> {
    Err(ArenaError::Usage(
        "arena features is not written yet".into(),
    ))
}
