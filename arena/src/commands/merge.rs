//! `arena merge PART...`: puts the parts of a sharded run (`tournament`, `nes` or `stats` with
//! `--shard K/N`) back together and prints and writes exactly what the unsharded run would
//! have: the same text, JSON, CSV and plots, from the same report code; only the timings
//! (the slowest shard's wall time, the shards' jobs added) differ.
//!
//! The checks and the merge are [`tetris_arena_runs::shard`]'s: the parts must share one command
//! and identical settings, and hold every game exactly once (every shard 0/N … N-1/N once,
//! each with exactly its games); otherwise one `error:` line names the missing, duplicated or
//! mismatched part, and the command exits with code 2.

use std::path::PathBuf;

use tetris_arena_reports::nes::NesReport;
use tetris_arena_reports::stats::deliver_stats;
use tetris_arena_reports::tournament::TournamentReport;
use tetris_arena_requests::error::ArenaError;
use tetris_arena_requests::merge::{CheckedMerge, MergeRequest};

/// Options of `arena merge`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The part files written by `--shard K/N --out PART.json`, one per shard, in any order.
    #[arg(required = true, value_name = "PART")]
    pub parts: Vec<PathBuf>,
    /// What the unsharded command's --out writes, atomically: for tournament and nes parts
    /// FILE.json or FILE.csv; for stats parts a folder DIR (stats.json and the plots).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Tournament parts run with --plots: write the plots to DIR, as the unsharded
    /// `tournament --plots DIR` does.
    #[arg(long, value_name = "DIR")]
    pub plots: Option<PathBuf>,
    /// Print the report as JSON on stdout instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Runs `arena merge`.
pub fn run(args: Args) -> Result<(), ArenaError> {
    let request = MergeRequest {
        parts: args.parts.clone(),
        out: args.out.clone(),
        plots: args.plots.clone(),
        json: args.json,
    };
    match request.check()? {
        CheckedMerge::Tournament {
            settings,
            run,
            destination,
        } => {
            let report = TournamentReport::new(&settings, run);
            if let Some(folder) = &args.plots {
                report.write_plots(folder)?;
            }
            Ok(destination.deliver(&report)?)
        }
        CheckedMerge::Nes {
            settings,
            run,
            destination,
        } => Ok(destination.deliver(&NesReport::new(&settings, &run))?),
        CheckedMerge::Stats {
            strategy,
            settings,
            statistics,
        } => Ok(deliver_stats(
            &strategy,
            &settings,
            &statistics,
            args.out.as_deref(),
            args.json,
        )?),
    }
}
