//! `arena merge PART...`: puts the parts of a sharded run (`tournament`, `nes` or `stats` with
//! `--shard K/N`) back together and prints and writes exactly what the unsharded run would
//! have: the same text, JSON, CSV and plots, from the same report code; only the timings
//! (the slowest shard's wall time, the shards' jobs added) differ.
//!
//! The checks and the merge are [`crate::report::parts`]'s: the parts must share one command
//! and identical settings, and hold every game exactly once (every shard 0/N … N-1/N once,
//! each with exactly its games); otherwise one `error:` line names the missing, duplicated or
//! mismatched part, and the command exits with code 2.

use std::path::PathBuf;

use crate::error::ArenaError;
use crate::report::nes::NesReport;
use crate::report::output::ResultsDestination;
use crate::report::parts::{Merged, Part, merge_parts};
use crate::report::stats::deliver_stats;
use crate::report::tournament::TournamentReport;

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
    let mut parts = Vec::with_capacity(args.parts.len());
    for path in &args.parts {
        parts.push((path.clone(), Part::read(path)?));
    }
    let merged = merge_parts(parts)?;
    let no_plots = |command: &str| match &args.plots {
        Some(_) => Err(ArenaError::Usage(format!(
            "merge: --plots applies to tournament parts only, these are {command} parts{}",
            if command == "stats" {
                " (stats plots go to --out DIR)"
            } else {
                ""
            }
        ))),
        None => Ok(()),
    };
    match merged {
        Merged::Tournament { settings, finished } => {
            let destination = ResultsDestination::check(args.out.as_deref(), args.json)?;
            if args.plots.is_some() && !settings.piece_statistics {
                return Err(ArenaError::Usage(
                    "merge: --plots needs parts of a tournament run with --plots (they hold \
                     the games' piece statistics)"
                        .into(),
                ));
            }
            let report = TournamentReport::new(&settings, finished);
            if let Some(folder) = &args.plots {
                report.write_plots(folder)?;
            }
            destination.deliver(&report)
        }
        Merged::Nes { settings, finished } => {
            no_plots("nes")?;
            let destination = ResultsDestination::check(args.out.as_deref(), args.json)?;
            destination.deliver(&NesReport::new(&settings, &finished))
        }
        Merged::Stats {
            strategy,
            settings,
            statistics,
        } => {
            no_plots("stats")?;
            deliver_stats(
                &strategy,
                &settings,
                &statistics,
                args.out.as_deref(),
                args.json,
            )
        }
    }
}
