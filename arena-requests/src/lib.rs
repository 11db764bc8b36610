//! The request layer: one typed request per job and ONE check per request, shared by every
//! front end.
//!
//! A front end (the `arena` command line, the Python package, and whatever comes next) only
//! builds a request from its own input, calls the request's `check`, runs what the check
//! returns, and prints or converts the result. The check holds every rule of the job — the
//! ranges of its values (which are typed, [`values`]), two strategies that play alike, which
//! searchers play which game-over rule and input model, seeds that would overflow, where the
//! outputs go — so no front end carries a copy of a rule, and the same mistake gives the same
//! message everywhere.
//!
//! - [`game`]: one frame-less game (`arena play`, Python `play`);
//! - [`tournament`]: strategies on the same pieces (`arena tournament`, Python `tournament`);
//! - [`nes`]: the NES plateau benchmark (`arena nes`);
//! - [`stats`]: a statistics run (`arena stats`);
//! - [`analyze`]: one position (`arena analyze`, Python `analyze`);
//! - [`sequence`]: a generator's pieces (`arena sequence`, Python `sequence`);
//! - [`tune`]: a tuning run (`arena tune`);
//! - [`merge`]: the parts of a sharded run put back together (`arena merge`).
//!
//! This layer stands above [`tetris_arena_reports`] (it checks output paths) and below the commands.

pub mod error;
pub mod merge;
pub mod nes;
pub mod nes_trace;
pub mod replay;
pub mod stats;
pub mod tournament;
pub mod tune;

use std::path::PathBuf;

use tetris_arena_io::values::Jobs;
use tetris_arena_io::values::Shard;
use tetris_arena_runs::shard::RunDelivery;

use crate::error::ArenaError;

/// How a run of independent games is carried out and delivered (`tournament`, `nes`): its
/// threads, its shard, and where its results go.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Worker threads (`None`: the available cores).
    pub jobs: Option<Jobs>,
    /// Play only this shard and write its part (`None`: the whole run).
    pub shard: Option<Shard>,
    /// The results file (`.json` or `.csv`), or with a shard the part file (`.json`).
    pub out: Option<PathBuf>,
    /// Print JSON instead of text.
    pub json: bool,
}

/// [`RunOptions`], checked for a run of a number of games.
#[derive(Clone, Debug)]
// Non-exhaustive: outside this crate a value comes only from its request's check.
#[non_exhaustive]
pub struct CheckedRun {
    /// Worker threads.
    pub jobs: usize,
    /// The shard played ([`Shard::WHOLE`] for the whole run).
    pub shard: Shard,
    /// The report, or the shard's part file.
    pub delivery: RunDelivery,
}

impl RunOptions {
    /// Checks, before any game, that the shard fits a run of `games` games and that the
    /// outputs suit it.
    pub fn check(&self, games: u64) -> Result<CheckedRun, ArenaError> {
        let (shard, delivery) =
            RunDelivery::check(self.shard, games, self.out.as_deref(), self.json)?;
        Ok(CheckedRun {
            jobs: Jobs::count_or_cores(self.jobs),
            shard,
            delivery,
        })
    }
}

/// The outside engine deciding for `strategy`, as it names itself (`NAME VERSION`: a bot's
/// handshake; a server's strategy, address and version), or `None` for the arena's own
/// engines. The reports name it, since their results are only as repeatable as it is.
pub(crate) fn outside_engine_name(strategy: &tetris_registry::Strategy) -> Option<String> {
    strategy
        .outside_engine()
        .map(|(name, version)| format!("{name} {version}").trim().to_string())
}
