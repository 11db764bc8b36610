//! The partial results of sharded runs (`--shard K/N`) and their exact merge (`arena merge`).
//!
//! A part (format `tetris-arena-part`, version 1) is one JSON object, the same for the three
//! shardable commands:
//!
//! ```json
//! {"format": "tetris-arena-part", "version": 1,
//!  "shard": {"index": 1, "count": 3}, "games": [1, 4, 7],
//!  "timing": {"jobs": 2, "wall_seconds": 1.5},
//!  "command": "tournament" | "nes" | "stats",
//!  "settings": {…every option that decides the games…},
//!  "results": […one entry per game held (per game and strategy for a tournament)…]}
//! ```
//!
//! For `stats`, `games` lists the blocks held (one: block K) and `results` their
//! [`PieceStatistics`]. The results carry everything the unsharded report needs (a
//! tournament's per-game piece statistics when it was run with `--plots`); the timings are
//! kept but are the only thing a merge does not reproduce.
//!
//! [`merge_parts`] checks that the parts are one run's (same command, identical settings, the
//! same N, every shard 0..N exactly once, each holding exactly its games) and puts the results
//! back in the unsharded run's order, for the unsharded run's report code.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tetris_core::{Board, GameOverRule, GeneratorKind, InputModel};
use tetris_registry::StrategySpec;

use crate::analysis::pieces::{PieceStatistics, RowRule};
use crate::analysis::tournament::GameRow;
use crate::error::ArenaError;
use crate::report::output::ResultsDestination;
use crate::report::output::{check_output_file, json_line, print_output, write_atomically};
use crate::run::shard::Shard;
use crate::run::statistics::{StatisticsSettings, merge_blocks};
use crate::run::tournament::TournamentSettings;
use crate::run::{self, Finished};
use crate::sim::nes::NesGameResult;
use crate::sim::nes::NesRunSettings;

/// The `format` of every part.
pub const PART_FORMAT: &str = "tetris-arena-part";
/// The part version this arena writes and reads.
pub const PART_VERSION: u32 = 1;

/// A shard's partial result (see the module documentation).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Part {
    /// Always [`PART_FORMAT`].
    pub format: String,
    /// Always [`PART_VERSION`].
    pub version: u32,
    /// Which shard of how many.
    pub shard: ShardJson,
    /// The games it holds, in increasing order (for `stats`: the blocks).
    pub games: Vec<u64>,
    /// How long the shard took (timing only).
    pub timing: PartTiming,
    /// The command, its settings and its results.
    #[serde(flatten)]
    pub body: PartBody,
}

/// The `shard` object.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardJson {
    /// K (from 0).
    pub index: u64,
    /// N.
    pub count: u64,
}

/// The `timing` object: the only part of a part that depends on the machine.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PartTiming {
    /// Worker threads.
    pub jobs: usize,
    /// The shard's wall-clock time.
    pub wall_seconds: f64,
}

/// The command of a part, with its settings and results.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "command", rename_all = "snake_case")]
pub enum PartBody {
    /// `arena tournament`.
    Tournament {
        /// The run's settings.
        settings: TournamentPartSettings,
        /// One per game and strategy, game-major.
        results: Vec<GameRow>,
    },
    /// `arena nes`.
    Nes {
        /// The run's settings.
        settings: NesPartSettings,
        /// One per game.
        results: Vec<NesGameResult>,
    },
    /// `arena stats`.
    Stats {
        /// The run's settings.
        settings: StatsPartSettings,
        /// One per block held.
        results: Vec<PieceStatistics>,
    },
}

impl PartBody {
    fn command(&self) -> &'static str {
        match self {
            PartBody::Tournament { .. } => "tournament",
            PartBody::Nes { .. } => "nes",
            PartBody::Stats { .. } => "stats",
        }
    }

    fn settings_json(&self) -> serde_json::Value {
        let value = match self {
            PartBody::Tournament { settings, .. } => serde_json::to_value(settings),
            PartBody::Nes { settings, .. } => serde_json::to_value(settings),
            PartBody::Stats { settings, .. } => serde_json::to_value(settings),
        };
        value.expect("settings are plain structs")
    }

    /// The number of games (blocks for `stats`) of the whole run.
    fn total_games(&self) -> u64 {
        match self {
            PartBody::Tournament { settings, .. } => settings.games,
            PartBody::Nes { settings, .. } => settings.games,
            PartBody::Stats { settings, .. } => settings.blocks,
        }
    }
}

/// A tournament's settings in a part.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TournamentPartSettings {
    /// The strategies' canonical names, in command-line order.
    pub strategies: Vec<String>,
    /// Games per strategy.
    pub games: u64,
    /// Game k uses `seed + k`.
    pub seed: u64,
    /// The piece generator.
    pub generator: GeneratorKind,
    /// The piece cap.
    pub max_pieces: Option<u64>,
    /// Board rows.
    pub board_height: u8,
    /// When a game is over (absent in parts written before it was recorded: simulation).
    #[serde(default)]
    pub game_over_rule: GameOverRule,
    /// Whether the results hold each game's piece statistics (`--plots`, `--estimate`).
    pub piece_statistics: bool,
    /// Whether the report gives the expected-length estimates (`--estimate`).
    #[serde(default)]
    pub estimate: bool,
}

/// An `arena nes` run's settings in a part.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NesPartSettings {
    /// The strategy's canonical name.
    pub strategy: String,
    /// Whether its searcher ignores gravity.
    pub ignores_gravity: bool,
    /// Games.
    pub games: u64,
    /// Game k uses `seed + k`.
    pub seed: u64,
    /// Start level.
    pub start_level: u8,
    /// Stop level.
    pub stop_level: u8,
    /// Tap rate.
    pub tap_rate: u8,
    /// The game-over rule (parts written before the console rule existed played the
    /// simulation rule, the default).
    #[serde(default)]
    pub game_over_rule: GameOverRule,
    /// The input model (absent in parts written before it was recorded: two-thumb).
    #[serde(default)]
    pub inputs: InputModel,
}

/// An `arena stats` run's settings in a part.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StatsPartSettings {
    /// The strategy's canonical name.
    pub strategy: String,
    /// Pieces of the whole run.
    pub pieces: u64,
    /// Base seed.
    pub seed: u64,
    /// The piece generator.
    pub generator: GeneratorKind,
    /// Board rows.
    pub board_height: u8,
    /// Blocks of the run (= shards).
    pub blocks: u64,
    /// When a game is over (absent in parts written before it was recorded: simulation).
    #[serde(default)]
    pub game_over_rule: GameOverRule,
    /// Which row a piece counts in (absent in parts written before it was recorded: top).
    #[serde(default = "RowRule::unrecorded")]
    pub row_rule: RowRule,
}

fn new_part(shard: Shard, games: Vec<u64>, jobs: usize, wall: Duration, body: PartBody) -> Part {
    Part {
        format: PART_FORMAT.to_string(),
        version: PART_VERSION,
        shard: ShardJson {
            index: shard.index,
            count: shard.count,
        },
        games,
        timing: PartTiming {
            jobs,
            wall_seconds: wall.as_secs_f64(),
        },
        body,
    }
}

/// The part of a tournament shard.
pub fn tournament_part(
    settings: &TournamentSettings,
    shard: Shard,
    finished: &Finished<GameRow>,
) -> Part {
    let results = finished.results.clone();
    let body = PartBody::Tournament {
        settings: TournamentPartSettings {
            strategies: settings.names.clone(),
            games: settings.games,
            seed: settings.seed,
            generator: settings.generator.clone(),
            max_pieces: settings.max_pieces,
            board_height: settings.board_height,
            game_over_rule: settings.game_over_rule,
            piece_statistics: settings.piece_statistics,
            estimate: settings.estimate,
        },
        results,
    };
    let games = shard.games(settings.games).collect();
    new_part(shard, games, finished.jobs, finished.wall, body)
}

/// The part of an `arena nes` shard.
pub fn nes_part(
    settings: &NesRunSettings,
    shard: Shard,
    finished: &Finished<NesGameResult>,
) -> Part {
    let results = finished.results.clone();
    let body = PartBody::Nes {
        settings: NesPartSettings {
            strategy: settings.strategy.to_string(),
            ignores_gravity: settings.ignores_gravity,
            games: settings.games,
            seed: settings.seed,
            start_level: settings.start_level,
            stop_level: settings.stop_level,
            tap_rate: settings.tap_rate,
            game_over_rule: settings.game_over_rule,
            inputs: settings.inputs,
        },
        results,
    };
    let games = shard.games(settings.games).collect();
    new_part(shard, games, finished.jobs, finished.wall, body)
}

/// The part of an `arena stats` shard: its blocks' statistics.
pub fn stats_part(
    strategy: &str,
    settings: &StatisticsSettings,
    shard: Shard,
    blocks: Vec<PieceStatistics>,
    jobs: usize,
    wall: Duration,
) -> Part {
    let body = PartBody::Stats {
        settings: StatsPartSettings {
            strategy: strategy.to_string(),
            pieces: settings.pieces,
            seed: settings.seed,
            generator: settings.generator.clone(),
            board_height: settings.board_height,
            blocks: settings.blocks,
            game_over_rule: settings.game_over_rule,
            row_rule: settings.row_rule,
        },
        results: blocks,
    };
    new_part(
        shard,
        settings.shard_blocks(shard).collect(),
        jobs,
        wall,
        body,
    )
}

/// Checks, before any game, where a sharded run writes its part: `--out` must name a `.json`
/// file in an existing folder, and `--json` does not apply (`arena merge` prints the report).
pub fn check_part_file(out: Option<&Path>, json: bool) -> Result<PathBuf, ArenaError> {
    let Some(path) = out else {
        return Err(ArenaError::Usage(
            "--shard writes a part file: give --out PART.json (then `arena merge` the parts)"
                .into(),
        ));
    };
    let is_json = path
        .extension()
        .and_then(|extension| extension.to_str())
        .is_some_and(|extension| extension.eq_ignore_ascii_case("json"));
    if !is_json {
        return Err(ArenaError::Usage(format!(
            "--out {}: with --shard the part file's name must end in .json",
            path.display()
        )));
    }
    if json {
        return Err(ArenaError::Usage(
            "--json does not apply to a sharded run, which writes a part: `arena merge --json` \
             prints the report"
                .into(),
        ));
    }
    check_output_file("--out", path)?;
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
    ) -> Result<(Shard, RunDelivery), ArenaError> {
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

/// Ends a sharded run: writes its part to `path` atomically and prints one line saying so. An
/// interrupted shard writes nothing (a part holds all of its shard's games) and fails.
pub fn write_part<T>(part: &Part, path: &Path, finished: &Finished<T>) -> Result<(), ArenaError> {
    if finished.interrupted {
        return Err(ArenaError::Usage(format!(
            "interrupted by Ctrl-C: {} was not written (a part holds every game of its shard; \
             run the shard again)",
            path.display()
        )));
    }
    part.write(path)?;
    print_output(&part.summary(path))
}

impl Part {
    /// Writes the part atomically to `path` (one line of JSON).
    pub fn write(&self, path: &Path) -> Result<(), ArenaError> {
        write_atomically(path, json_line(self).as_bytes())
    }

    /// One line saying what the part holds and where it went.
    pub fn summary(&self, path: &Path) -> String {
        let shard = Shard {
            index: self.shard.index,
            count: self.shard.count,
        };
        let unit = match self.body {
            PartBody::Stats { .. } => "blocks",
            _ => "games",
        };
        format!(
            "{} shard {shard}: {} of {} {unit} written to {} (merge every shard with `arena \
             merge`)\n",
            self.body.command(),
            self.games.len(),
            self.body.total_games(),
            path.display()
        )
    }

    /// Reads and checks the format of the part file `path`; every failure is one line naming
    /// the file.
    pub fn read(path: &Path) -> Result<Part, ArenaError> {
        let shown = path.display();
        let fail = |message: String| ArenaError::Usage(format!("merge: {shown}: {message}"));
        let text = std::fs::read_to_string(path)
            .map_err(|error| fail(format!("cannot read it: {error}")))?;
        let value: serde_json::Value =
            serde_json::from_str(&text).map_err(|error| fail(format!("not JSON: {error}")))?;
        let format = value.get("format").and_then(|format| format.as_str());
        if format != Some(PART_FORMAT) {
            return Err(fail(format!(
                "not a part of a sharded run (its \"format\" should be \"{PART_FORMAT}\")"
            )));
        }
        let version = value.get("version").and_then(|version| version.as_u64());
        if version != Some(u64::from(PART_VERSION)) {
            return Err(fail(format!(
                "part version {}, this arena reads version {PART_VERSION}",
                value
                    .get("version")
                    .map_or("missing".into(), |v| v.to_string())
            )));
        }
        serde_json::from_value(value).map_err(|error| fail(format!("bad part: {error}")))
    }
}

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
        finished: Finished<crate::sim::nes::NesGameResult>,
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

/// Checks that `parts` (with their file names) are every shard of one run, each exactly once
/// and holding exactly its games, and puts their results back together in the unsharded
/// run's order. Every failure is one line (see the module documentation).
pub fn merge_parts(parts: Vec<(PathBuf, Part)>) -> Result<Merged, ArenaError> {
    let fail = |message: String| ArenaError::Usage(format!("merge: {message}"));
    let Some((first_path, first)) = parts.first() else {
        return Err(fail("no part given".into()));
    };
    let first_settings = first.body.settings_json();
    let count = first.shard.count;
    let mut by_index: BTreeMap<u64, &Path> = BTreeMap::new();
    for (path, part) in &parts {
        if part.body.command() != first.body.command() {
            return Err(fail(format!(
                "{} is a {} part but {} is a {} part",
                path.display(),
                part.body.command(),
                first_path.display(),
                first.body.command()
            )));
        }
        let settings = part.body.settings_json();
        if settings != first_settings {
            return Err(fail(format!(
                "{} has different settings from {}: {}",
                path.display(),
                first_path.display(),
                settings_difference(&settings, &first_settings)
            )));
        }
        let ShardJson { index, count: n } = part.shard;
        if n != count {
            return Err(fail(format!(
                "{} is shard {index}/{n} but {} is shard {}/{count}: parts of different \
                 shardings",
                path.display(),
                first_path.display(),
                first.shard.index
            )));
        }
        if n == 0 || index >= n {
            return Err(fail(format!(
                "{}: shard {index}/{n} does not exist (shards are 0/N to N-1/N)",
                path.display()
            )));
        }
        if let Some(other) = by_index.insert(index, path) {
            return Err(fail(format!(
                "shard {index}/{count} is given twice ({} and {})",
                other.display(),
                path.display()
            )));
        }
        let shard = Shard { index, count };
        let expected: Vec<u64> = shard.games(part.body.total_games()).collect();
        if part.games != expected {
            return Err(fail(format!(
                "{} (shard {shard}) {}",
                path.display(),
                games_difference(&part.games, &expected, count)
            )));
        }
    }
    let missing: Vec<String> = (0..count)
        .filter(|index| !by_index.contains_key(index))
        .map(|index| format!("{index}/{count}"))
        .collect();
    match missing.len() {
        0 => {}
        1 => return Err(fail(format!("shard {} is missing", missing[0]))),
        _ => return Err(fail(format!("shards {} are missing", missing.join(", ")))),
    }
    let jobs = parts.iter().map(|(_, part)| part.timing.jobs).sum();
    let wall = parts
        .iter()
        .map(|(_, part)| part.timing.wall_seconds)
        .fold(0.0, f64::max);
    let wall = Duration::try_from_secs_f64(wall).unwrap_or_default();
    drop(by_index);
    let mut parts = parts;
    parts.sort_by_key(|(_, part)| part.shard.index);
    match parts[0].1.body.command() {
        "tournament" => merge_tournament(parts, jobs, wall),
        "nes" => merge_nes(parts, jobs, wall),
        _ => merge_stats(parts),
    }
}

/// Why a part's games are not its shard's, in words.
fn games_difference(held: &[u64], expected: &[u64], count: u64) -> String {
    let held_set: BTreeSet<u64> = held.iter().copied().collect();
    let expected_set: BTreeSet<u64> = expected.iter().copied().collect();
    if let Some(game) = expected_set.difference(&held_set).next() {
        return format!("lacks game {game}");
    }
    if let Some(game) = held_set.difference(&expected_set).next() {
        return format!(
            "holds game {game}, which belongs to shard {}/{count} or to no shard",
            game % count
        );
    }
    if held_set.len() != held.len() {
        return "holds a game twice".into();
    }
    "lists its games out of order".into()
}

fn bad(path: &Path, message: String) -> ArenaError {
    ArenaError::Usage(format!("merge: {}: {message}", path.display()))
}

/// Checks that a statistics record is one of a `height`-row board (a tampered part must not
/// panic the report).
fn check_statistics(
    path: &Path,
    statistics: &PieceStatistics,
    height: u8,
) -> Result<(), ArenaError> {
    let height = usize::from(height);
    if statistics.board_height != height
        || statistics.row_counts.len() != height
        || statistics.cell_counts.len() != height
    {
        return Err(bad(
            path,
            format!("piece statistics not of a {height}-row board"),
        ));
    }
    Ok(())
}

fn merge_tournament(
    parts: Vec<(PathBuf, Part)>,
    jobs: usize,
    wall: Duration,
) -> Result<Merged, ArenaError> {
    let mut rows = Vec::new();
    let mut part_settings = None;
    for (path, part) in parts {
        let PartBody::Tournament { settings, results } = part.body else {
            unreachable!("the commands were checked");
        };
        let strategies = settings.strategies.len();
        let mut expected: BTreeSet<(u64, usize)> = part
            .games
            .iter()
            .flat_map(|&game| (0..strategies).map(move |strategy| (game, strategy)))
            .collect();
        for result in results {
            if !expected.remove(&(result.game, result.strategy)) {
                return Err(bad(
                    &path,
                    format!(
                        "a result for game {} of strategy {} that it does not hold or holds \
                         twice",
                        result.game, result.strategy
                    ),
                ));
            }
            if result.seed != settings.seed.wrapping_add(result.game) {
                return Err(bad(&path, format!("game {} has a wrong seed", result.game)));
            }
            if result.statistics.is_some() != settings.piece_statistics {
                return Err(bad(
                    &path,
                    format!(
                        "game {}'s piece statistics do not match its settings",
                        result.game
                    ),
                ));
            }
            if let Some(statistics) = &result.statistics {
                check_statistics(&path, statistics, settings.board_height)?;
            }
            rows.push(result);
        }
        if let Some((game, strategy)) = expected.into_iter().next() {
            return Err(bad(
                &path,
                format!("no result for game {game} of strategy {strategy}"),
            ));
        }
        part_settings = Some((path, settings));
    }
    let (path, settings) = part_settings.expect("at least one part");
    let mut specs = Vec::new();
    for name in &settings.strategies {
        let spec: StrategySpec = name
            .parse()
            .map_err(|error: tetris_registry::RegistryError| bad(&path, error.to_string()))?;
        specs.push(spec);
    }
    run::check_games_and_seeds(settings.games, settings.seed)
        .and_then(|()| Board::new(usize::from(settings.board_height)).map_err(Into::into))
        .map_err(|error| bad(&path, error.to_string()))?;
    rows.sort_by_key(|row| (row.game, row.strategy));
    Ok(Merged::Tournament {
        settings: TournamentSettings {
            specs,
            names: settings.strategies,
            games: settings.games,
            seed: settings.seed,
            generator: settings.generator,
            max_pieces: settings.max_pieces,
            board_height: settings.board_height,
            game_over_rule: settings.game_over_rule,
            piece_statistics: settings.piece_statistics,
            estimate: settings.estimate,
        },
        finished: Finished {
            results: rows,
            interrupted: false,
            jobs,
            wall,
        },
    })
}

fn merge_nes(
    parts: Vec<(PathBuf, Part)>,
    jobs: usize,
    wall: Duration,
) -> Result<Merged, ArenaError> {
    let mut games = Vec::new();
    let mut part_settings = None;
    for (path, part) in parts {
        let PartBody::Nes { settings, results } = part.body else {
            unreachable!("the commands were checked");
        };
        let held: Vec<u64> = results
            .iter()
            .map(|result| result.seed.wrapping_sub(settings.seed))
            .collect();
        if held != part.games {
            return Err(bad(
                &path,
                "its results are not one per game it holds".into(),
            ));
        }
        for result in results {
            games.push(result);
        }
        part_settings = Some((path, settings));
    }
    let (path, settings) = part_settings.expect("at least one part");
    let strategy: StrategySpec = settings
        .strategy
        .parse()
        .map_err(|error: tetris_registry::RegistryError| bad(&path, error.to_string()))?;
    run::check_games_and_seeds(settings.games, settings.seed)
        .map_err(|error| bad(&path, error.to_string()))?;
    games.sort_by_key(|game| game.seed);
    Ok(Merged::Nes {
        settings: NesRunSettings {
            strategy,
            ignores_gravity: settings.ignores_gravity,
            games: settings.games,
            seed: settings.seed,
            start_level: settings.start_level,
            stop_level: settings.stop_level,
            tap_rate: settings.tap_rate,
            game_over_rule: settings.game_over_rule,
            inputs: settings.inputs,
        },
        finished: Finished {
            results: games,
            interrupted: false,
            jobs,
            wall,
        },
    })
}

fn merge_stats(parts: Vec<(PathBuf, Part)>) -> Result<Merged, ArenaError> {
    let mut blocks = Vec::new();
    let mut part_settings = None;
    for (path, part) in parts {
        let PartBody::Stats { settings, results } = part.body else {
            unreachable!("the commands were checked");
        };
        if results.len() != part.games.len() {
            return Err(bad(
                &path,
                "its results are not one per block it holds".into(),
            ));
        }
        for statistics in &results {
            check_statistics(&path, statistics, settings.board_height)?;
            if statistics.row_rule != settings.row_rule {
                return Err(bad(
                    &path,
                    format!(
                        "piece statistics counted by the {} row, not the {} row of its settings",
                        statistics.row_rule, settings.row_rule
                    ),
                ));
            }
        }
        blocks.extend(results);
        part_settings = Some((path, settings));
    }
    let (path, settings) = part_settings.expect("at least one part");
    let settings_run = StatisticsSettings {
        pieces: settings.pieces,
        seed: settings.seed,
        generator: settings.generator,
        board_height: settings.board_height,
        blocks: settings.blocks,
        game_over_rule: settings.game_over_rule,
        row_rule: settings.row_rule,
    };
    settings_run
        .check()
        .and_then(|()| Board::new(usize::from(settings.board_height)).map_err(Into::into))
        .map_err(|error| bad(&path, error.to_string()))?;
    Ok(Merged::Stats {
        strategy: settings.strategy,
        statistics: Box::new(merge_blocks(
            settings.board_height,
            settings.row_rule,
            &blocks,
        )),
        settings: settings_run,
    })
}
