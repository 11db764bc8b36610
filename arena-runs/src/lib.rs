//! `tetris-arena-runs`: the one game runner: numbered tasks (games) on `--jobs` worker threads, results in task
//! order, a progress bar, and Ctrl-C.
//!
//! Every long command (tournament, nes, stats, tune) hands its games to [`run_tasks`]:
//!
//! - **Deterministic.** Workers pull task numbers in increasing order, each with its own
//!   engines (built once by the command and cloned), and every result is stored at its task's
//!   number, so the results are the same whatever the number of jobs; only timings differ.
//! - **Interruptible.** When [`interrupt::install`] was called, the first Ctrl-C stops handing
//!   out tasks and asks running ones to stop (a task that stops half-way returns
//!   [`TaskOutcome::Stopped`] and is dropped: half a game is no result); the finished results
//!   come back with `interrupted` set. Commands that do not install the handler are ended by
//!   Ctrl-C as usual.
//! - **Sequential runs.** A run whose next task depends on the previous one uses one job and
//!   ends with [`TaskOutcome::Last`] (the `stats` command instead plays each block's games back
//!   to back inside one task, see [`statistics`]).
//! - **Shardable.** [`shard::run_shard_tasks`] runs only the games of one `--shard K/N`
//!   (game g belongs to shard g % N), with the task numbers of the whole run, so `arena merge`
//!   can put the shards' results back together exactly.
#![deny(missing_docs)]

pub mod error;
pub mod games;
pub mod interrupt;
pub mod nes;
pub mod progress;
pub mod shard;
pub mod statistics;
pub mod tournament;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Condvar, Mutex, mpsc};
use std::time::Duration;

use web_time::Instant;

pub use error::RunError;
pub use progress::Progress;

/// What one task produced.
pub enum TaskOutcome<T> {
    /// A finished result.
    Done(T),
    /// A finished result after which no further task is handed out (for sequential runs).
    Last(T),
    /// Stopped half-way by Ctrl-C: no result.
    Stopped,
}

/// The finished tasks of a run.
#[derive(Clone, Debug)]
pub struct Finished<T> {
    /// Results in task order (with gaps only when the run was interrupted).
    pub results: Vec<T>,
    /// Whether Ctrl-C stopped the run before every task finished.
    pub interrupted: bool,
    /// Worker threads used.
    pub jobs: usize,
    /// Wall-clock time of the whole run (timing only).
    pub wall: Duration,
}

pub use tetris_arena_io::values::{MAX_GAMES, MAX_JOBS};

/// Checks a run of `games` games with seeds `seed + k`: 1 to [`MAX_GAMES`] games, and the last
/// seed must fit in 64 bits.
pub fn check_games_and_seeds(games: u64, seed: u64) -> Result<(), RunError> {
    if !(1..=MAX_GAMES).contains(&games) {
        return Err(RunError::GameCount);
    }
    check_last_seed(seed, Some(games - 1), &format!("{games} games"))
}

/// The one rule on a run's seeds: the run's last game uses seed `seed + last_offset`, which
/// must fit in 64 bits rather than wrap to the seeds of other games (`last_offset` `None`:
/// the offset itself is past 64 bits). `games` says in the message what the run plays.
pub fn check_last_seed(seed: u64, last_offset: Option<u64>, games: &str) -> Result<(), RunError> {
    match last_offset.and_then(|offset| seed.checked_add(offset)) {
        Some(_) => Ok(()),
        None => Err(RunError::SeedOverflow {
            seed,
            games: games.to_string(),
        }),
    }
}

/// How a run that handed its results over as they came ([`run_tasks_in_order`]) ended.
#[derive(Clone, Copy, Debug)]
pub struct RunEnd {
    /// Results handed over.
    pub finished: u64,
    /// Whether Ctrl-C stopped the run before every task finished.
    pub interrupted: bool,
    /// Worker threads used.
    pub jobs: usize,
    /// Wall-clock time of the whole run (timing only).
    pub wall: Duration,
}

/// How far ahead of the first result not yet handed over a worker may start a task, per
/// worker: what bounds the results held out of order (a slow game holds at most this many
/// later ones per worker), while leaving every worker busy.
pub const ORDER_WINDOW_PER_JOB: u64 = 256;

/// Runs tasks `0..tasks` on `jobs` worker threads (no more threads than tasks: a thread
/// without a task would only build its engines) and hands each result to `take` on the
/// calling thread **in task order**, as soon as every earlier task's result was handed over,
/// so the run holds at most [`ORDER_WINDOW_PER_JOB`] × jobs results at a time however many
/// tasks it has: a worker does not start a task that far ahead of the first result not yet
/// handed over. Each worker gets its own state from `new_worker` (typically cloned engines)
/// and runs `run_task(state, task)` for the task numbers it pulls, in increasing order;
/// `progress` counts finished tasks. The first error (a task's or `take`'s) stops every
/// worker after its current task and is returned.
///
/// Interrupted (see [`interrupt`]), the tasks that finished are handed over in task order,
/// with gaps where a task was stopped, and [`RunEnd::interrupted`] is set.
pub fn run_tasks_in_order<W, T, E>(
    tasks: u64,
    jobs: usize,
    progress: &Progress,
    new_worker: impl Fn() -> Result<W, E> + Sync,
    run_task: impl Fn(&mut W, u64) -> Result<TaskOutcome<T>, E> + Sync,
    mut take: impl FnMut(u64, T) -> Result<(), E>,
) -> Result<RunEnd, E>
where
    T: Send,
    E: From<RunError> + Send,
{
    let start = Instant::now();
    let jobs = jobs.clamp(1, usize::try_from(tasks).unwrap_or(usize::MAX).max(1));
    let window = ORDER_WINDOW_PER_JOB * jobs as u64;
    let next_task = AtomicU64::new(0);
    let failed = AtomicBool::new(false);
    let ended = AtomicBool::new(false);
    // The first task whose result is not handed over yet; workers wait on it.
    let handed_over = (Mutex::new(0u64), Condvar::new());
    let stopping = || {
        interrupt::interrupted() || failed.load(Ordering::SeqCst) || ended.load(Ordering::SeqCst)
    };
    let (sender, receiver) = mpsc::channel::<Result<(u64, T), E>>();
    let worker = |sender: mpsc::Sender<Result<(u64, T), E>>| {
        let mut state = match new_worker() {
            Ok(state) => state,
            Err(error) => {
                failed.store(true, Ordering::SeqCst);
                let _ = sender.send(Err(error));
                return;
            }
        };
        loop {
            if stopping() {
                break;
            }
            let task = next_task.fetch_add(1, Ordering::SeqCst);
            if task >= tasks {
                break;
            }
            // Wait until the task is within the window (or the run stops).
            {
                let (first, moved) = &handed_over;
                let mut first = first.lock().unwrap_or_else(|poison| poison.into_inner());
                while task >= *first + window && !stopping() {
                    first = moved
                        .wait_timeout(first, Duration::from_millis(50))
                        .unwrap_or_else(|poison| poison.into_inner())
                        .0;
                }
            }
            if stopping() {
                break;
            }
            match run_task(&mut state, task) {
                Ok(TaskOutcome::Done(result)) => {
                    let _ = sender.send(Ok((task, result)));
                }
                Ok(TaskOutcome::Last(result)) => {
                    ended.store(true, Ordering::SeqCst);
                    let _ = sender.send(Ok((task, result)));
                }
                Ok(TaskOutcome::Stopped) => break,
                Err(error) => {
                    failed.store(true, Ordering::SeqCst);
                    let _ = sender.send(Err(error));
                    return;
                }
            }
            progress.task_done();
        }
    };
    let mut waiting: BTreeMap<u64, T> = BTreeMap::new();
    let mut next = 0u64;
    let mut finished = 0u64;
    let mut first_error = None;
    let mut hand_over = |task: u64, result: T, first_error: &mut Option<E>| {
        finished += 1;
        if first_error.is_none() {
            if let Err(error) = take(task, result) {
                failed.store(true, Ordering::SeqCst);
                *first_error = Some(error);
            }
        }
    };
    let spawned = std::thread::scope(|scope| -> Result<(), RunError> {
        for index in 0..jobs {
            let sender = sender.clone();
            let worker = &worker;
            std::thread::Builder::new()
                .name(format!("arena-worker-{index}"))
                .spawn_scoped(scope, move || worker(sender))
                .map_err(|error| {
                    failed.store(true, Ordering::SeqCst);
                    RunError::Threads {
                        jobs,
                        message: error.to_string(),
                    }
                })?;
        }
        drop(sender);
        for message in receiver.iter() {
            match message {
                Ok((task, result)) => {
                    waiting.insert(task, result);
                    let before = next;
                    while let Some(result) = waiting.remove(&next) {
                        hand_over(next, result, &mut first_error);
                        next += 1;
                    }
                    if next != before {
                        let (first, moved) = &handed_over;
                        *first.lock().unwrap_or_else(|poison| poison.into_inner()) = next;
                        moved.notify_all();
                    }
                }
                Err(error) => {
                    failed.store(true, Ordering::SeqCst);
                    first_error.get_or_insert(error);
                }
            }
        }
        Ok(())
    });
    progress.finish();
    spawned?;
    if let Some(error) = first_error {
        return Err(error);
    }
    // Interrupted: what finished after a stopped task, still in task order.
    for (task, result) in std::mem::take(&mut waiting) {
        hand_over(task, result, &mut first_error);
    }
    if let Some(error) = first_error {
        return Err(error);
    }
    let all_finished = ended.load(Ordering::SeqCst) || finished == tasks;
    Ok(RunEnd {
        finished,
        interrupted: interrupt::interrupted() && !all_finished,
        jobs,
        wall: start.elapsed(),
    })
}

/// [`run_tasks_in_order`] with every result kept, in task order: for runs whose results are
/// few (a tuning iteration's games, a statistics run's blocks).
pub fn run_tasks<W, T, E>(
    tasks: u64,
    jobs: usize,
    progress: &Progress,
    new_worker: impl Fn() -> Result<W, E> + Sync,
    run_task: impl Fn(&mut W, u64) -> Result<TaskOutcome<T>, E> + Sync,
) -> Result<Finished<T>, E>
where
    T: Send,
    E: From<RunError> + Send,
{
    // The whole run is the one shard of itself: one definition of collecting the results.
    shard::run_shard_tasks(
        shard::ShardTasks {
            shard: tetris_arena_io::values::Shard::WHOLE,
            games: tasks,
            tasks_per_game: 1,
        },
        jobs,
        progress,
        new_worker,
        run_task,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_back_in_task_order_for_any_job_count() {
        for jobs in [1, 2, 3, 7] {
            let finished = run_tasks(
                50,
                jobs,
                &Progress::hidden(),
                || Ok::<u64, RunError>(0),
                |calls, task| {
                    *calls += 1;
                    Ok(TaskOutcome::Done(task * task))
                },
            )
            .unwrap();
            let expected: Vec<u64> = (0..50).map(|task| task * task).collect();
            assert_eq!(finished.results, expected, "jobs {jobs}");
            assert!(!finished.interrupted);
        }
    }

    #[test]
    fn no_more_threads_start_than_there_are_tasks() {
        let workers = AtomicU64::new(0);
        let finished = run_tasks(
            2,
            64,
            &Progress::hidden(),
            || {
                workers.fetch_add(1, Ordering::SeqCst);
                Ok::<(), RunError>(())
            },
            |(), task| Ok(TaskOutcome::Done(task)),
        )
        .unwrap();
        assert_eq!(finished.results, [0, 1]);
        assert_eq!(finished.jobs, 2);
        assert_eq!(workers.load(Ordering::SeqCst), 2);
    }

    #[test]
    fn a_last_task_ends_a_sequential_run_and_an_error_stops_it() {
        let finished = run_tasks(
            1000,
            1,
            &Progress::hidden(),
            || Ok::<(), RunError>(()),
            |_, task| {
                Ok(match task {
                    4 => TaskOutcome::Last(task),
                    _ => TaskOutcome::Done(task),
                })
            },
        )
        .unwrap();
        assert_eq!(finished.results, [0, 1, 2, 3, 4]);
        let failed = run_tasks(
            10,
            2,
            &Progress::hidden(),
            || Ok(()),
            |_, task| match task {
                3 => Err(RunError::Internal("task 3".into())),
                _ => Ok(TaskOutcome::Done(task)),
            },
        );
        assert!(matches!(failed, Err(RunError::Internal(message)) if message == "task 3"));
    }
}
