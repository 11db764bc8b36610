//! `arena tune-task`: plays one task of an `arena tune --runner` iteration — one candidate's
//! games — and writes its result file into the work folder. The tuner writes these command
//! lines itself (`{tasks}`); the folder, the files and the checks are
//! [`tetris_arena_reports::tune::external`]'s.

use std::path::PathBuf;

use tetris_arena_io::values::Jobs;
use tetris_arena_reports::tune::external::{TaskChoice, run_task};
use tetris_arena_requests::error::ArenaError;

/// Options of `arena tune-task`.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("which").required(true).args(["task", "index"])))]
pub struct Args {
    /// The tuner's work folder (holds iteration.json and ids.txt; result-T.json is written
    /// there).
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// The task (= candidate) to play, from 0.
    #[arg(long, value_name = "T")]
    pub task: Option<u64>,
    /// Play the task on line K (from 0) of DIR/ids.txt, e.g. --index $SLURM_ARRAY_TASK_ID or
    /// $JOB_COMPLETION_INDEX.
    #[arg(long, value_name = "K")]
    pub index: Option<u64>,
    /// Games played at once within the task, 1 to 256; never more threads than games. The
    /// result does not depend on it.
    #[arg(long, value_name = "J", default_value = "1")]
    pub jobs: Jobs,
}

/// Runs `arena tune-task`. Prints nothing on success.
pub fn run(args: Args) -> Result<(), ArenaError> {
    let jobs = args.jobs.get();
    let choice = match (args.task, args.index) {
        (Some(task), _) => TaskChoice::Task(task),
        (None, Some(index)) => TaskChoice::Index(index),
        (None, None) => unreachable!("clap requires --task or --index"),
    };
    run_task(&args.dir, choice, jobs)?;
    Ok(())
}
