//! One module per subcommand: its clap `Args` and its `run`.

pub mod analyze;
pub mod features;
pub mod list;
pub mod nes;
pub mod play;
pub mod replay;
pub mod sequence;
pub mod stats;
pub mod tournament;
pub mod tune;

use crate::error::ArenaError;

/// The `--jobs` value of the parallel commands: at least 1; by default the available cores.
pub fn job_count(jobs: Option<usize>) -> Result<usize, ArenaError> {
    match jobs {
        Some(0) => Err(ArenaError::Usage("--jobs must be at least 1".into())),
        Some(jobs) => Ok(jobs),
        None => Ok(std::thread::available_parallelism().map_or(1, usize::from)),
    }
}
