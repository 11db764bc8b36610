//! `arena merge`: the parts of a sharded run put back together, exactly.
//!
//! [`merge_parts`] checks that the parts are one run's — the same command, identical
//! settings, the same N, every shard 0..N exactly once, each holding exactly its games and
//! exactly one result per task of them — and puts the results back in the unsharded run's
//! task order, for the unsharded run's report code. Each part is also checked alone
//! ([`check_part`]): its timing, settings the command accepts, and results that contradict
//! neither themselves nor the settings (the kinds' checks, [`ShardedRun::check_settings`] and
//! [`ShardedRun::tasks`]). Every failure is one line. The checks and the order are written
//! once, for every kind of run ([`ShardedRun`]).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::MAX_JOBS;
use crate::error::RunError;
use crate::nes::NesRun;
use crate::shard::kinds::{ShardedNes, ShardedStats, ShardedTournament};
use crate::shard::part::{Contents, MergedParts, Part, PartBody, PartTiming, ShardedRun};
use crate::statistics::StatisticsSettings;
use crate::tournament::{HELD_GAMES_LIMIT, TournamentRun, TournamentSettings};
use tetris_arena_games::analysis::pieces::PieceStatistics;
use tetris_arena_games::sim::nes::NesRunSettings;
use tetris_arena_io::values::{MAX_GAME_SECONDS, Shard};

/// What a merge gives back: the unsharded run's settings and results, ready for its report.
pub enum Merged {
    /// A tournament.
    Tournament {
        /// Its settings.
        settings: TournamentSettings,
        /// Its games' summaries, and the games when every part held them.
        run: TournamentRun,
    },
    /// An `arena nes` run.
    Nes {
        /// Its settings.
        settings: NesRunSettings,
        /// Its games' summary, and the games when every part held them (boxed: its summary's
        /// counts make it the largest variant).
        run: Box<NesRun>,
    },
    /// An `arena stats` run.
    Stats {
        /// The strategy's canonical name.
        strategy: String,
        /// Its settings.
        settings: StatisticsSettings,
        /// The blocks merged in block order (boxed: its column counts make it the largest
        /// variant by far).
        statistics: Box<PieceStatistics>,
    },
}

/// Checks that `parts` (with their file names) are every shard of one run, each exactly once
/// and holding exactly its games, and puts their results back together in the unsharded
/// run's order. Every failure is one line (see the module documentation).
pub fn merge_parts(parts: Vec<(PathBuf, Part)>) -> Result<Merged, RunError> {
    merge_part_files(parts.into_iter().map(Ok))
}

/// [`merge_parts`] of parts read one at a time (`parts` yields each with its file name, or
/// the error of reading it): a part is checked, its summary added and the part dropped before
/// the next is read, so the merge's memory is bounded by one part and the summaries, not by
/// the games (the games themselves are kept only while every part holds them and they number
/// at most [`HELD_GAMES_LIMIT`]), and its time is linear in the parts.
pub fn merge_part_files(
    parts: impl IntoIterator<Item = Result<(PathBuf, Part), RunError>>,
) -> Result<Merged, RunError> {
    let mut parts = parts.into_iter().peekable();
    let first = match parts.peek() {
        None => return Err(fail("no part given".into())),
        Some(Err(_)) => return Err(parts.next().expect("peeked").expect_err("an error")),
        Some(Ok((_, first))) => first,
    };
    // The first part's command says what the others must be.
    match first.body {
        PartBody::Tournament(_) => merge::<ShardedTournament>(parts),
        PartBody::Nes(_) => merge::<ShardedNes>(parts),
        PartBody::Stats(_) => merge::<ShardedStats>(parts),
    }
}

/// A merge failure about the parts together.
fn fail(message: String) -> RunError {
    RunError::Refused(format!("merge: {message}"))
}

/// Results, each with its task (game, the task's number within its game).
type TaskResults<R> = Vec<((u64, u64), R)>;

/// A part of kind `K` checked alone ([`check_held`]), taken apart.
struct Held<K: ShardedRun> {
    settings: K::Settings,
    /// The summary of its games.
    summary: K::Summary,
    /// Each result with its task (see [`ShardedRun::tasks`]); `None` when the part holds
    /// only its summary.
    results: Option<TaskResults<K::Result>>,
    /// The shard's wall time.
    wall: Duration,
}

/// Checks one part alone, as the merge checks each part it is given: its timing, that its
/// shard exists and holds exactly its games, its settings, and its results against them
/// (every check that needs no other part). Fuzzing calls it on arbitrary parts.
pub fn check_part(path: &Path, part: Part) -> Result<(), RunError> {
    let Part {
        shard,
        games,
        timing,
        body,
        ..
    } = part;
    match body {
        PartBody::Tournament(contents) => {
            check_held::<ShardedTournament>(path, shard, games, &timing, contents).map(drop)
        }
        PartBody::Nes(contents) => {
            check_held::<ShardedNes>(path, shard, games, &timing, contents).map(drop)
        }
        PartBody::Stats(contents) => {
            check_held::<ShardedStats>(path, shard, games, &timing, contents).map(drop)
        }
    }
}

/// The checks of [`check_part`] for a part of kind `K`, in order: the timing, the shard, the
/// games, the settings, the results.
fn check_held<K: ShardedRun>(
    path: &Path,
    shard: Shard,
    games_held: Vec<u64>,
    timing: &PartTiming,
    contents: Contents<K>,
) -> Result<Held<K>, RunError> {
    let shown = path.display();
    // The timing is reported (the slowest shard's wall time, the jobs added): a time that is
    // no duration, or a run on no thread or more than a run may use, is no shard's.
    let wall = timing.wall_seconds;
    let wall = Duration::try_from_secs_f64(wall).map_err(|_| {
        fail(format!(
            "{shown}: its timing says wall_seconds {wall}, not a duration in seconds"
        ))
    })?;
    // As a game's time (`values::game_duration`): longer than any shard runs, and its sum
    // over the parts far from overflowing.
    if wall.as_secs() > MAX_GAME_SECONDS {
        return Err(fail(format!(
            "{shown}: its timing says wall_seconds {}, but a shard runs at most \
             {MAX_GAME_SECONDS} seconds (a year)",
            timing.wall_seconds
        )));
    }
    if !(1..=MAX_JOBS).contains(&timing.jobs) {
        return Err(fail(format!(
            "{shown}: its timing says {} jobs, a run has 1 to {MAX_JOBS}",
            timing.jobs
        )));
    }
    // The shard exists: a part's shard is checked as it is read (`Shard`'s deserializer).
    let (index, n) = (shard.index(), shard.count());
    // The count is checked before anything is sized by it or iterated up to it (a part
    // saying `"games": 9223372036854775807` once made the merge allocate without bound).
    let games = K::games(&contents.settings);
    if !(1..=K::MAX_GAMES).contains(&games) {
        return Err(fail(format!(
            "{shown}: its settings say {games} {}, a run has 1 to {} {}",
            K::UNIT,
            K::MAX_GAMES,
            K::UNIT
        )));
    }
    if n > games {
        return Err(fail(format!(
            "{shown}: shard {index}/{n} of a run of {games} {}: a run has at most one shard \
             per {}",
            K::UNIT,
            K::UNIT.trim_end_matches('s')
        )));
    }
    let Contents {
        settings,
        summary,
        results,
    } = contents;
    // A part holds its games' results, or (version 2, a shard of many games) only their
    // summary; a version 1 part always holds its games and is summarized here.
    let holds_results = !results.is_empty() || summary.is_none();
    if holds_results {
        // Compared lazily: the shard's games are never collected (a part holds what its file
        // holds, within the file's size limit).
        let holds_its_games = games_held.len() as u64 == shard.game_count(games)
            && games_held.iter().copied().eq(shard.games(games));
        if !holds_its_games {
            return Err(fail(format!(
                "{shown} (shard {shard}) {}",
                games_difference(&games_held, shard, games)
            )));
        }
    }
    K::check_settings(path, &settings)?;
    let (summary, results) = if holds_results {
        let tasks = K::tasks(path, &settings, &games_held, &results)?;
        let of_results = K::summarize(&settings, &results);
        let summary = K::reconcile(summary, of_results).ok_or_else(|| {
            fail(format!(
                "{shown}: its summary is not that of the games it holds"
            ))
        })?;
        (
            summary,
            Some(tasks.into_iter().zip(results).collect::<Vec<_>>()),
        )
    } else {
        if !games_held.is_empty() {
            return Err(fail(format!(
                "{shown}: it lists games but holds no results for them"
            )));
        }
        // Not holding results means the part has a summary (see `holds_results`).
        let summary = summary.ok_or_else(|| fail(format!("{shown}: no summary and no games")))?;
        (summary, None)
    };
    K::check_summary(path, &settings, shard, &summary)?;
    Ok(Held {
        settings,
        summary,
        results,
        wall,
    })
}

/// [`merge_part_files`] for parts whose first is of kind `K`: every check, in the order of
/// the parts given (so the first mistake found is the one told), each part's summary added
/// as it is read, then the results (when every part held them) in task order.
fn merge<K: ShardedRun>(
    parts: impl Iterator<Item = Result<(PathBuf, Part), RunError>>,
) -> Result<Merged, RunError> {
    let mut jobs = 0usize;
    let mut first: Option<(PathBuf, Shard, serde_json::Value)> = None;
    let mut by_index: BTreeMap<u64, PathBuf> = BTreeMap::new();
    let mut summary: Option<K::Summary> = None;
    let mut settings_kept: Option<K::Settings> = None;
    let mut results: Option<TaskResults<K::Result>> = Some(Vec::new());
    let mut wall = Duration::ZERO;
    let mut last_path = PathBuf::new();
    for part in parts {
        let (path, part) = part?;
        // Each part's jobs are checked to be at most MAX_JOBS, and each shard is given once:
        // no sum of them overflows, but it saturates all the same.
        jobs = jobs.saturating_add(part.timing.jobs);
        let command = part.body.command();
        let Some(contents) = K::contents(part.body) else {
            let first_path = first
                .as_ref()
                .map_or(path.clone(), |(path, ..)| path.clone());
            return Err(fail(format!(
                "{} is a {command} part but {} is a {} part",
                path.display(),
                first_path.display(),
                K::COMMAND
            )));
        };
        let settings = serde_json::to_value(&contents.settings).expect("settings serialize");
        let (first_path, first_shard, first_settings) =
            first.get_or_insert_with(|| (path.clone(), part.shard, settings.clone()));
        if settings != *first_settings {
            return Err(fail(format!(
                "{} has different settings from {}: {}",
                path.display(),
                first_path.display(),
                settings_difference(&settings, first_settings)
            )));
        }
        let count = first_shard.count();
        let (index, n) = (part.shard.index(), part.shard.count());
        if n != count {
            return Err(fail(format!(
                "{} is shard {index}/{n} but {} is shard {}/{count}: parts of different \
                 shardings",
                path.display(),
                first_path.display(),
                first_shard.index()
            )));
        }
        let held = check_held::<K>(&path, part.shard, part.games, &part.timing, contents)?;
        if let Some(other) = by_index.insert(index, path.clone()) {
            return Err(fail(format!(
                "shard {index}/{count} is given twice ({} and {})",
                other.display(),
                path.display()
            )));
        }
        wall = wall.max(held.wall);
        match summary.as_mut() {
            Some(total) => K::merge_summary(total, &held.summary),
            None => summary = Some(held.summary),
        }
        // The games are kept while every part holds them, up to the limit a report lists.
        results = match (results, held.results) {
            (Some(mut kept), Some(more))
                if (kept.len() + more.len()) as u64 <= HELD_GAMES_LIMIT =>
            {
                kept.extend(more);
                Some(kept)
            }
            _ => None,
        };
        settings_kept = Some(held.settings);
        last_path = path;
    }
    let (Some((_, first_shard, _)), Some(summary), Some(settings)) =
        (first, summary, settings_kept)
    else {
        return Err(fail("no part given".into()));
    };
    let count = first_shard.count();
    // At most the first few missing shards are named (N is at most the run's game count, and
    // the line stays one line).
    const NAMED_MISSING: usize = 10;
    let missing_count = count - by_index.len() as u64;
    let missing: Vec<String> = (0..count)
        .filter(|index| !by_index.contains_key(index))
        .take(NAMED_MISSING)
        .map(|index| format!("{index}/{count}"))
        .collect();
    match missing_count {
        0 => {}
        1 => return Err(fail(format!("shard {} is missing", missing[0]))),
        more if more as usize <= NAMED_MISSING => {
            return Err(fail(format!("shards {} are missing", missing.join(", "))));
        }
        more => {
            return Err(fail(format!(
                "{more} shards are missing: {}, …",
                missing.join(", ")
            )));
        }
    }
    let results = results.map(|mut results| {
        results.sort_by_key(|(task, _)| *task);
        results.into_iter().map(|(_, result)| result).collect()
    });
    let merged = MergedParts {
        results,
        jobs,
        wall,
    };
    K::merged(&last_path, settings, summary, merged)
}

/// The first top-level field in which two settings objects differ, as words.
fn settings_difference(a: &serde_json::Value, b: &serde_json::Value) -> String {
    let empty = serde_json::Map::new();
    let (a, b) = (
        a.as_object().unwrap_or(&empty),
        b.as_object().unwrap_or(&empty),
    );
    let keys: BTreeSet<&String> = a.keys().chain(b.keys()).collect();
    for key in keys {
        let (x, y) = (a.get(key), b.get(key));
        if x != y {
            let show =
                |v: Option<&serde_json::Value>| v.map_or("missing".into(), |v| v.to_string());
            return format!("{key} {} vs {}", show(x), show(y));
        }
    }
    "identical".into()
}

/// Why a part's games (`held`) are not those of `shard` in a run of `games` games, in words.
/// The shard's games are never collected: membership is `game < games` and `game % N == K`.
fn games_difference(held: &[u64], shard: Shard, games: u64) -> String {
    let held_set: BTreeSet<u64> = held.iter().copied().collect();
    if let Some(game) = shard.games(games).find(|game| !held_set.contains(game)) {
        return format!("lacks game {game}");
    }
    let belongs = |game: u64| game < games && Shard::of_game(game, shard.count()) == shard.index();
    if let Some(game) = held_set.iter().find(|&&game| !belongs(game)) {
        return format!(
            "holds game {game}, which belongs to shard {}/{} or to no shard",
            game % shard.count(),
            shard.count()
        );
    }
    if held_set.len() != held.len() {
        return "holds a game twice".into();
    }
    "lists its games out of order".into()
}
