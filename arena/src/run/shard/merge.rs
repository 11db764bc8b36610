//! `arena merge`: the parts of a sharded run put back together, exactly.
//!
//! [`merge_parts`] checks that the parts are one run's — the same command, identical
//! settings, the same N, every shard 0..N exactly once, each holding exactly its games and
//! exactly one result per task of them — and puts the results back in the unsharded run's
//! task order, for the unsharded run's report code. Every failure is one line. The checks and
//! the order are written once, for every kind of run ([`ShardedRun`]).

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::time::Duration;

use crate::analysis::pieces::PieceStatistics;
use crate::analysis::tournament::GameRow;
use crate::error::ArenaError;
use crate::run::Finished;
use crate::run::shard::Shard;
use crate::run::shard::kinds::{ShardedNes, ShardedStats, ShardedTournament};
use crate::run::shard::part::{Part, PartBody, ShardedRun};
use crate::run::statistics::StatisticsSettings;
use crate::run::tournament::TournamentSettings;
use crate::sim::nes::{NesGameResult, NesRunSettings};

/// What a merge gives back: the unsharded run's settings and results, ready for its report.
pub enum Merged {
    /// A tournament.
    Tournament {
        /// Its settings.
        settings: TournamentSettings,
        /// Every game, in task order (game-major).
        finished: Finished<GameRow>,
    },
    /// An `arena nes` run.
    Nes {
        /// Its settings.
        settings: NesRunSettings,
        /// Every game, in game order.
        finished: Finished<NesGameResult>,
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
pub fn merge_parts(parts: Vec<(PathBuf, Part)>) -> Result<Merged, ArenaError> {
    let Some((_, first)) = parts.first() else {
        return Err(fail("no part given".into()));
    };
    // The first part's command says what the others must be.
    match first.body {
        PartBody::Tournament(_) => merge::<ShardedTournament>(parts),
        PartBody::Nes(_) => merge::<ShardedNes>(parts),
        PartBody::Stats(_) => merge::<ShardedStats>(parts),
    }
}

/// A merge failure about the parts together.
fn fail(message: String) -> ArenaError {
    ArenaError::Usage(format!("merge: {message}"))
}

/// A part checked to be of kind `K`, taken apart.
struct Held<K: ShardedRun> {
    path: PathBuf,
    shard: Shard,
    games: Vec<u64>,
    settings: K::Settings,
    results: Vec<K::Result>,
}

/// [`merge_parts`] for parts whose first is of kind `K`: every check, in the order of the
/// parts given (so the first mistake found is the one told), then the results in task order.
fn merge<K: ShardedRun>(parts: Vec<(PathBuf, Part)>) -> Result<Merged, ArenaError> {
    let jobs = parts.iter().map(|(_, part)| part.timing.jobs).sum();
    let wall = parts
        .iter()
        .map(|(_, part)| part.timing.wall_seconds)
        .fold(0.0, f64::max);
    let wall = Duration::try_from_secs_f64(wall).unwrap_or_default();
    let first_path = parts[0].0.clone();
    let first_shard = parts[0].1.shard;
    let count = first_shard.count;
    let mut first_settings = None;
    let mut by_index: BTreeMap<u64, PathBuf> = BTreeMap::new();
    let mut held: Vec<Held<K>> = Vec::with_capacity(parts.len());
    for (path, part) in parts {
        let command = part.body.command();
        let Some(contents) = K::contents(part.body) else {
            return Err(fail(format!(
                "{} is a {command} part but {} is a {} part",
                path.display(),
                first_path.display(),
                K::COMMAND
            )));
        };
        let settings = serde_json::to_value(&contents.settings).expect("settings serialize");
        let first_settings = first_settings.get_or_insert_with(|| settings.clone());
        if settings != *first_settings {
            return Err(fail(format!(
                "{} has different settings from {}: {}",
                path.display(),
                first_path.display(),
                settings_difference(&settings, first_settings)
            )));
        }
        let Shard { index, count: n } = part.shard;
        if n != count {
            return Err(fail(format!(
                "{} is shard {index}/{n} but {} is shard {}/{count}: parts of different \
                 shardings",
                path.display(),
                first_path.display(),
                first_shard.index
            )));
        }
        if n == 0 || index >= n {
            return Err(fail(format!(
                "{}: shard {index}/{n} does not exist (shards are 0/N to N-1/N)",
                path.display()
            )));
        }
        if let Some(other) = by_index.insert(index, path.clone()) {
            return Err(fail(format!(
                "shard {index}/{count} is given twice ({} and {})",
                other.display(),
                path.display()
            )));
        }
        // The count is checked before anything is sized by it or iterated up to it (a part
        // saying `"games": 9223372036854775807` once made the merge allocate without bound).
        let games = K::games(&contents.settings);
        if !(1..=K::MAX_GAMES).contains(&games) {
            return Err(fail(format!(
                "{}: its settings say {games} {}, a run has 1 to {} {}",
                path.display(),
                K::UNIT,
                K::MAX_GAMES,
                K::UNIT
            )));
        }
        if n > games {
            return Err(fail(format!(
                "{}: shard {index}/{n} of a run of {games} {}: a run has at most one shard \
                 per {}",
                path.display(),
                K::UNIT,
                K::UNIT.trim_end_matches('s')
            )));
        }
        // Compared lazily: the shard's games are never collected (a part holds what its file
        // holds, within the file's size limit).
        let holds_its_games = part.games.len() as u64 == part.shard.game_count(games)
            && part.games.iter().copied().eq(part.shard.games(games));
        if !holds_its_games {
            return Err(fail(format!(
                "{} (shard {}) {}",
                path.display(),
                part.shard,
                games_difference(&part.games, part.shard, games)
            )));
        }
        held.push(Held {
            path,
            shard: part.shard,
            games: part.games,
            settings: contents.settings,
            results: contents.results,
        });
    }
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
    // Each part's results are checked in shard order, then all of them go in task order.
    held.sort_by_key(|part| part.shard.index);
    let mut results = Vec::new();
    let mut last = None;
    for part in held {
        let tasks = K::tasks(&part.path, &part.settings, &part.games, &part.results)?;
        results.extend(tasks.into_iter().zip(part.results));
        last = Some((part.path, part.settings));
    }
    let (path, settings) = last.expect("at least one part");
    results.sort_by_key(|(task, _)| *task);
    let finished = Finished {
        results: results.into_iter().map(|(_, result)| result).collect(),
        interrupted: false,
        jobs,
        wall,
    };
    K::merged(&path, settings, finished)
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
    let belongs = |game: u64| game < games && Shard::of_game(game, shard.count) == shard.index;
    if let Some(game) = held_set.iter().find(|&&game| !belongs(game)) {
        return format!(
            "holds game {game}, which belongs to shard {}/{} or to no shard",
            game % shard.count,
            shard.count
        );
    }
    if held_set.len() != held.len() {
        return "holds a game twice".into();
    }
    "lists its games out of order".into()
}
