//! Sharding, in one place: one run split over independent processes or machines
//! (`--shard K/N`), each playing a fixed part of the games with no coordination, merged
//! exactly by `arena merge`.
//!
//! - Shards are numbered from 0: `K/N` with 0 ≤ K < N. The whole run is shard `0/1`.
//! - Game g (0-based) belongs to shard `g % N` (round-robin: the shards' sizes differ by at
//!   most one game, and the assignment depends only on g and N). Shard K plays games K,
//!   K + N, K + 2N, … with exactly the seeds and engines of the unsharded run, so its results
//!   are bit-identical to the same games there.
//! - A run of several tasks per game (a tournament: one task per strategy, numbered
//!   game-major) gives a shard every task of its games, so every strategy's game g is in the
//!   same shard (the pairwise comparison needs both games of a sequence).
//! - `arena stats` has no independent games (each game starts where the previous one ended);
//!   there a shard is one of N blocks ([`crate::statistics`]).
//!
//! Here: the shards' games ([`run_shard_tasks`]; the shard itself, [`Shard`], is a typed
//! value of `tetris_arena_io::values`, parsed from `K/N` with one message per mistake), where a run that may be a shard delivers its
//! results, checked before any game ([`RunDelivery`], [`check_part_file`]); the part file a
//! shard writes ([`part`]); and the merge of the parts, which checks that they are one run's
//! and puts the results back in the unsharded run's order ([`merge`]).

pub mod checks;
pub mod kinds;
pub mod merge;
pub mod part;

use std::path::{Path, PathBuf};

use crate::error::RunError;
use crate::{Finished, Progress, RunEnd, TaskOutcome};
use tetris_arena_io::Field;
use tetris_arena_io::output::{ResultsDestination, check_output_file};
use tetris_arena_io::values::Shard;

pub use kinds::{
    NesPartSettings, ShardedNes, ShardedStats, ShardedTournament, StatsPartSettings,
    TournamentSummary,
};
pub use merge::{Merged, check_part, merge_part_files, merge_parts};
pub use part::{
    Contents, PART_FORMAT, PART_VERSION, Part, PartBody, PartTiming, ShardedRun, nes_part,
    stats_part, tournament_part, write_part,
};

/// Checks, before any game, where a sharded run writes its part: `--out` must name a `.json`
/// file in an existing folder, and `--json` does not apply (`arena merge` prints the report).
pub fn check_part_file(out: Option<&Path>, json: bool) -> Result<PathBuf, RunError> {
    let Some(path) = out else {
        return Err(RunError::PartFileMissing);
    };
    let is_json = path
        .extension()
        .and_then(|extension| extension.to_str())
        .is_some_and(|extension| extension.eq_ignore_ascii_case("json"));
    if !is_json {
        return Err(RunError::PartFileNotJson {
            path: path.display().to_string(),
        });
    }
    if json {
        return Err(RunError::JsonOfShard);
    }
    check_output_file(Field::OUT, path)?;
    Ok(path.to_path_buf())
}

/// Where a run that may be one shard of a larger one delivers its results: the whole run's
/// report, or a shard's part file.
#[derive(Clone, Debug)]
pub enum RunDelivery {
    /// An unsharded run: its report to `--out` and standard output.
    Report(ResultsDestination),
    /// A shard: its part file.
    Part(PathBuf),
}

impl RunDelivery {
    /// Checks, before any game, that `shard` (absent: the whole run) fits a run of `games`
    /// games and that the outputs suit it: the shard and where results go.
    pub fn check(
        shard: Option<Shard>,
        games: u64,
        out: Option<&Path>,
        json: bool,
    ) -> Result<(Shard, RunDelivery), RunError> {
        match shard {
            None => Ok((
                Shard::WHOLE,
                RunDelivery::Report(ResultsDestination::check(out, json)?),
            )),
            Some(shard) => {
                shard.check_for(games, "games")?;
                Ok((shard, RunDelivery::Part(check_part_file(out, json)?)))
            }
        }
    }
}

/// A shard's part of a run as the runner numbers it: `games` games of `tasks_per_game` tasks
/// each (a tournament plays every strategy's game g: one task per strategy).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShardTasks {
    /// The shard.
    pub shard: Shard,
    /// Games of the whole run.
    pub games: u64,
    /// Tasks per game.
    pub tasks_per_game: u64,
}

/// [`crate::run_tasks`] for the games of one shard: a run of `games` games with
/// `tasks_per_game` tasks each, numbered game-major (task = game × tasks_per_game + i), of
/// which only this shard's games are played. `run_task` is given the task's number in the
/// whole run, and the results come back in that order, so a shard's results are those of the
/// unsharded run with the other shards' games left out.
pub fn run_shard_tasks<W, T, E>(
    tasks: ShardTasks,
    jobs: usize,
    progress: &Progress,
    new_worker: impl Fn() -> Result<W, E> + Sync,
    run_task: impl Fn(&mut W, u64) -> Result<TaskOutcome<T>, E> + Sync,
) -> Result<Finished<T>, E>
where
    T: Send,
    E: From<RunError> + Send,
{
    let mut results = Vec::new();
    let end =
        run_shard_tasks_in_order(tasks, jobs, progress, new_worker, run_task, |_, result| {
            results.push(result);
            Ok(())
        })?;
    Ok(Finished {
        results,
        interrupted: end.interrupted,
        jobs: end.jobs,
        wall: end.wall,
    })
}

/// [`run_shard_tasks`] handing each result over as it comes, in task order
/// ([`crate::run_tasks_in_order`]): `take` is given the task's number in the whole run and
/// its result, and no more results are held than the runner's window.
pub fn run_shard_tasks_in_order<W, T, E>(
    tasks: ShardTasks,
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
    let ShardTasks {
        shard,
        games,
        tasks_per_game,
    } = tasks;
    let whole_task = move |local: u64| {
        let game = shard.game(local / tasks_per_game);
        game * tasks_per_game + local % tasks_per_game
    };
    let tasks = shard.game_count(games) * tasks_per_game;
    crate::run_tasks_in_order(
        tasks,
        jobs,
        progress,
        new_worker,
        |worker, local| run_task(worker, whole_task(local)),
        |local, result| take(whole_task(local), result),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_belongs_to_exactly_one_shard_round_robin() {
        for games in 1..=20u64 {
            for count in 1..=games {
                let mut seen = vec![0u32; games as usize];
                let mut sizes = Vec::new();
                for index in 0..count {
                    let shard = Shard::new(index, count).unwrap();
                    let held: Vec<u64> = shard.games(games).collect();
                    assert_eq!(held.len() as u64, shard.game_count(games));
                    assert!(held.windows(2).all(|pair| pair[0] < pair[1]));
                    for &game in &held {
                        assert_eq!(Shard::of_game(game, count), index);
                        seen[game as usize] += 1;
                    }
                    sizes.push(held.len());
                }
                assert!(
                    seen.iter().all(|&times| times == 1),
                    "{games} games, {count}"
                );
                let (min, max) = (sizes.iter().min().unwrap(), sizes.iter().max().unwrap());
                assert!(max - min <= 1, "balanced: {sizes:?}");
            }
        }
        let shard = Shard::new(1, 3).unwrap();
        assert_eq!(shard.games(10).collect::<Vec<_>>(), [1, 4, 7]);
        assert_eq!(
            Shard::new(0, 3).unwrap().games(10).collect::<Vec<_>>(),
            [0, 3, 6, 9]
        );
        assert_eq!(Shard::new(5, 8).unwrap().game_count(3), 0);
        assert!(Shard::new(0, 4).unwrap().check_for(3, "games").is_err());
        assert!(Shard::new(0, 3).unwrap().check_for(3, "games").is_ok());
    }

    #[test]
    fn a_shard_runs_exactly_the_tasks_of_its_games_in_order() {
        // 7 games × 3 tasks; the shards' results together are the whole run's, each task once.
        let whole = run_shard_tasks(
            ShardTasks {
                shard: Shard::WHOLE,
                games: 7,
                tasks_per_game: 3,
            },
            2,
            &Progress::hidden(),
            || Ok::<(), RunError>(()),
            |_, task| Ok(TaskOutcome::Done(task)),
        )
        .unwrap();
        assert_eq!(whole.results, (0..21).collect::<Vec<u64>>());
        let mut all = Vec::new();
        for index in 0..3 {
            let shard = Shard::new(index, 3).unwrap();
            let part = run_shard_tasks(
                ShardTasks {
                    shard,
                    games: 7,
                    tasks_per_game: 3,
                },
                2,
                &Progress::hidden(),
                || Ok::<(), RunError>(()),
                |_, task| Ok(TaskOutcome::Done(task)),
            )
            .unwrap();
            let expected: Vec<u64> = shard
                .games(7)
                .flat_map(|game| (0..3).map(move |strategy| game * 3 + strategy))
                .collect();
            assert_eq!(part.results, expected, "shard {shard}");
            all.extend(part.results);
        }
        all.sort_unstable();
        assert_eq!(all, whole.results);
    }
}
