//! The part file a shard writes (format `tetris-arena-part`, version 1): one JSON object, the
//! same for the three shardable commands:
//!
//! ```json
//! {"format": "tetris-arena-part", "version": 1,
//!  "shard": {"index": 1, "count": 3}, "games": [1, 4, 7],
//!  "timing": {"jobs": 2, "wall_seconds": 1.5},
//!  "made_by": {"program": "tetris-arena", "version": "0.1.0", "command": "arena tournament … --shard 1/3 --out p1.json"},
//!  "command": "tournament" | "nes" | "stats",
//!  "settings": {…every option that decides the games…},
//!  "results": […one entry per game held (per game and strategy for a tournament)…]}
//! ```
//!
//! For `stats`, `games` lists the blocks held (one: block K) and `results` their
//! [`PieceStatistics`]. The results carry everything the unsharded report needs (a
//! tournament's per-game piece statistics when it was run with `--plots`); the timings are
//! kept but are the only thing a merge does not reproduce. `made_by` ([`MadeBy`]) records the
//! shard's own command; parts written before it was recorded lack it, and the merge reads
//! both (it compares settings, never how a part was made).
//!
//! What differs between the three kinds — the command, the settings and results stored, and
//! how the merge checks and rebuilds them — is a [`ShardedRun`] ([`super::kinds`]); the file,
//! its reading and writing, and the merge's checks ([`super::merge`]) are written once.

use std::fmt::Debug;
use std::path::Path;
use std::time::Duration;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::error::RunError;
use crate::nes::NesRun;
use crate::shard::kinds::{
    NesPartSettings, ShardedNes, ShardedStats, ShardedTournament, StatsPartSettings,
    TournamentSummary,
};
use crate::shard::merge::Merged;
use crate::statistics::StatisticsSettings;
use crate::tournament::{TournamentRun, TournamentSettings};
use tetris_arena_games::analysis::pieces::PieceStatistics;
use tetris_arena_games::sim::nes::NesRunSettings;
use tetris_arena_io::output::{MadeBy, json_line, print_output, write_atomically, written_line};
use tetris_arena_io::values::Shard;

/// The `format` of every part.
pub const PART_FORMAT: &str = "tetris-arena-part";
/// The part version this arena writes: 2, whose parts carry their games' summary and list
/// their games only when they hold them (at most [`crate::tournament::HELD_GAMES_LIMIT`] per part).
pub const PART_VERSION: u32 = 2;
/// The part versions this arena reads: 1 (every game, no summary; summarized on reading) and 2.
pub const PART_VERSIONS_READ: [u32; 2] = [1, 2];

/// The largest part file `arena merge` reads: 1 GiB. A game takes about 150 bytes in a
/// tournament's part (per strategy; about 750 with the piece statistics of `--plots`), about
/// 200 in an `nes` part, and a `stats` part holds one block of about 1 KiB: 1 GiB holds a
/// shard of some 7 million tournament games or 5 million `nes` games. A larger run is split
/// in more shards (`--shard K/N`), whose parts are smaller.
pub const PART_LIMIT: u64 = tetris_core::files::GIB;

/// One kind of sharded run (`tournament`, `nes`, `stats`): what its parts store, and what the
/// merge checks in and rebuilds from them. The rest of a part and of a merge is the same for
/// every kind.
pub trait ShardedRun: Sized {
    /// The part's `command`.
    const COMMAND: &'static str;
    /// What the run is split into, in words (`games`; `blocks` for `stats`).
    const UNIT: &'static str;
    /// The settings as a part stores them.
    type Settings: Clone + Debug + Serialize + DeserializeOwned;
    /// One result as a part stores it.
    type Result: Clone + Debug + Serialize + DeserializeOwned;
    /// The exact, mergeable summary of a part's results (what the report is computed from).
    type Summary: Clone + Debug + PartialEq + Serialize + DeserializeOwned;

    /// The summary of `results` (every result of a part, in task order).
    fn summarize(settings: &Self::Settings, results: &[Self::Result]) -> Self::Summary;

    /// Checks that `summary`, that of the part `path` of shard `shard`, counts exactly the
    /// shard's games and contradicts neither itself nor `settings` (checked before).
    fn check_summary(
        path: &Path,
        settings: &Self::Settings,
        shard: Shard,
        summary: &Self::Summary,
    ) -> Result<(), RunError>;

    /// The summary of a part that holds both its results and a summary (`recorded`, absent
    /// from version 1 parts) given the summary of its results (`of_results`): `None` when
    /// they disagree. By default they must be equal.
    fn reconcile(
        recorded: Option<Self::Summary>,
        of_results: Self::Summary,
    ) -> Option<Self::Summary> {
        match recorded {
            Some(recorded) if recorded != of_results => None,
            _ => Some(of_results),
        }
    }

    /// Adds `part`'s summary to `total` (the parts' summaries in the order given).
    fn merge_summary(total: &mut Self::Summary, part: &Self::Summary);

    /// How many games (blocks) the whole run has, which its shards share out.
    fn games(settings: &Self::Settings) -> u64;

    /// The most games (blocks) a run of this kind may have: a part whose settings say more is
    /// refused before anything is sized by the count ([`crate::MAX_GAMES`],
    /// [`crate::statistics::MAX_BLOCKS`]).
    const MAX_GAMES: u64;

    /// The part body holding `contents`.
    fn body(contents: Contents<Self>) -> PartBody;

    /// The contents of `body` when it is a part of this kind.
    fn contents(body: PartBody) -> Option<Contents<Self>>;

    /// Checks that `settings`, those of the part `path`, are ones the command accepts (the
    /// strategies' names, the counts, seeds and levels); a failure names `path`.
    fn check_settings(path: &Path, settings: &Self::Settings) -> Result<(), RunError>;

    /// Checks that `results`, those of the part `path` that holds `games` (its shard's, in
    /// order), are exactly one per task of those games, agree with `settings` (checked
    /// before) and contradict neither themselves nor them ([`super::checks`],
    /// [`PieceStatistics::check`]); each result's task, in the order given, as (game, the
    /// task's number within its game).
    fn tasks(
        path: &Path,
        settings: &Self::Settings,
        games: &[u64],
        results: &[Self::Result],
    ) -> Result<Vec<(u64, u64)>, RunError>;

    /// The unsharded run, from the settings (of the part `path`, which every part shares,
    /// checked by [`ShardedRun::check_settings`]), the parts' summaries merged, and every
    /// result in task order when every part held them; a failure names `path`.
    fn merged(
        path: &Path,
        settings: Self::Settings,
        summary: Self::Summary,
        merged: MergedParts<Self::Result>,
    ) -> Result<Merged, RunError>;
}

/// What the merge gathered besides the summary: the results, when every part held them, and
/// the timings.
pub struct MergedParts<R> {
    /// Every result in task order, when every part held its results and they number at most
    /// [`crate::tournament::HELD_GAMES_LIMIT`]; `None` otherwise.
    pub results: Option<Vec<R>>,
    /// The parts' jobs, added.
    pub jobs: usize,
    /// The slowest part's wall time.
    pub wall: Duration,
}

/// [`ShardedRun::body`] and [`ShardedRun::contents`] for the kind that `PartBody::$variant`
/// holds (written once: they differ only in the variant).
macro_rules! part_body_variant {
    ($variant:ident) => {
        fn body(contents: $crate::shard::part::Contents<Self>) -> $crate::shard::part::PartBody {
            $crate::shard::part::PartBody::$variant(contents)
        }

        fn contents(
            body: $crate::shard::part::PartBody,
        ) -> Option<$crate::shard::part::Contents<Self>> {
            match body {
                $crate::shard::part::PartBody::$variant(contents) => Some(contents),
                _ => None,
            }
        }
    };
}
pub(crate) use part_body_variant;

/// The settings, summary and results a part of kind `K` holds.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(bound = "", deny_unknown_fields)]
pub struct Contents<K: ShardedRun> {
    /// The run's settings.
    pub settings: K::Settings,
    /// The summary of the shard's games (absent from version 1 parts, whose results are
    /// summarized on reading).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<K::Summary>,
    /// One per task held (game-major), in task order: every task of the shard's games, or
    /// none in a version 2 part of more than [`crate::tournament::HELD_GAMES_LIMIT`] games.
    #[serde(default)]
    pub results: Vec<K::Result>,
}

/// A shard's partial result (see the module documentation). It is read strictly: a key that
/// no part holds, anywhere in the file, is refused (see `PartFile`).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(try_from = "PartFile")]
pub struct Part {
    /// Always [`PART_FORMAT`].
    pub format: String,
    /// Always [`PART_VERSION`].
    pub version: u32,
    /// Which shard of how many.
    pub shard: Shard,
    /// The games whose results it holds, in increasing order (for `stats`: the blocks); empty
    /// when it holds only their summary.
    #[serde(default)]
    pub games: Vec<u64>,
    /// How long the shard took (timing only).
    pub timing: PartTiming,
    /// What wrote the part: the shard's command (absent from parts written before it was
    /// recorded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub made_by: Option<MadeBy>,
    /// The command, its settings and its results.
    #[serde(flatten)]
    pub body: PartBody,
}

/// A part file as read: [`Part`]'s keys, each once, and no other. The settings and results
/// are read as the command says (into types that refuse unknown keys too); serde cannot
/// refuse unknown keys beside a flattened field, which is how [`Part`] writes its command.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PartFile {
    format: String,
    version: u32,
    shard: Shard,
    #[serde(default)]
    games: Vec<u64>,
    timing: PartTiming,
    #[serde(default)]
    made_by: Option<MadeBy>,
    command: PartCommand,
    settings: serde_json::Value,
    #[serde(default)]
    summary: Option<serde_json::Value>,
    #[serde(default)]
    results: Option<serde_json::Value>,
}

/// The `command` of a part file.
#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
enum PartCommand {
    Tournament,
    Nes,
    Stats,
}

impl TryFrom<PartFile> for Part {
    type Error = serde_json::Error;

    fn try_from(file: PartFile) -> Result<Part, serde_json::Error> {
        fn contents<K: ShardedRun>(
            settings: serde_json::Value,
            summary: Option<serde_json::Value>,
            results: Option<serde_json::Value>,
        ) -> Result<PartBody, serde_json::Error> {
            Ok(K::body(Contents {
                settings: serde_json::from_value(settings)?,
                summary: summary.map(serde_json::from_value).transpose()?,
                results: results
                    .map(serde_json::from_value)
                    .transpose()?
                    .unwrap_or_default(),
            }))
        }
        let PartFile {
            format,
            version,
            shard,
            games,
            timing,
            made_by,
            command,
            settings,
            summary,
            results,
        } = file;
        let body = match command {
            PartCommand::Tournament => contents::<ShardedTournament>(settings, summary, results)?,
            PartCommand::Nes => contents::<ShardedNes>(settings, summary, results)?,
            PartCommand::Stats => contents::<ShardedStats>(settings, summary, results)?,
        };
        Ok(Part {
            format,
            version,
            shard,
            games,
            timing,
            made_by,
            body,
        })
    }
}

/// The `timing` object: the only part of a part that depends on the machine.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PartTiming {
    /// Worker threads.
    pub jobs: usize,
    /// The shard's wall-clock time.
    pub wall_seconds: f64,
}

/// The command of a part, with its settings and results.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "command", rename_all = "snake_case")]
// One part is held at a time (the merge reads them one by one): the variants' sizes matter
// little, and boxing would only add indirection to every access.
#[allow(clippy::large_enum_variant)]
pub enum PartBody {
    /// `arena tournament`: one result per game and strategy, game-major.
    Tournament(Contents<ShardedTournament>),
    /// `arena nes`: one result per game.
    Nes(Contents<ShardedNes>),
    /// `arena stats`: one result per block held.
    Stats(Contents<ShardedStats>),
}

impl PartBody {
    /// The part's command.
    pub fn command(&self) -> &'static str {
        match self {
            PartBody::Tournament(_) => ShardedTournament::COMMAND,
            PartBody::Nes(_) => ShardedNes::COMMAND,
            PartBody::Stats(_) => ShardedStats::COMMAND,
        }
    }

    /// What the run is split into, in words.
    fn unit(&self) -> &'static str {
        match self {
            PartBody::Tournament(_) => ShardedTournament::UNIT,
            PartBody::Nes(_) => ShardedNes::UNIT,
            PartBody::Stats(_) => ShardedStats::UNIT,
        }
    }

    /// The number of games (blocks for `stats`) of the whole run.
    fn run_games(&self) -> u64 {
        match self {
            PartBody::Tournament(contents) => ShardedTournament::games(&contents.settings),
            PartBody::Nes(contents) => ShardedNes::games(&contents.settings),
            PartBody::Stats(contents) => ShardedStats::games(&contents.settings),
        }
    }
}

impl Part {
    /// The part of shard `shard` of a run of kind `K`: it holds `games` and their `results`.
    fn new<K: ShardedRun>(
        shard: Shard,
        games: Vec<u64>,
        jobs: usize,
        wall: Duration,
        contents: Contents<K>,
    ) -> Part {
        Part {
            format: PART_FORMAT.to_string(),
            version: PART_VERSION,
            shard,
            games,
            timing: PartTiming {
                jobs,
                wall_seconds: wall.as_secs_f64(),
            },
            made_by: Some(MadeBy::current()),
            body: K::body(contents),
        }
    }

    /// Writes the part atomically to `path` (one line of JSON).
    pub fn write(&self, path: &Path) -> Result<(), RunError> {
        Ok(write_atomically(path, json_line(self).as_bytes())?)
    }

    /// One line saying what the part holds and where it went.
    pub fn summary(&self, path: &Path) -> String {
        let what = format!(
            "{} shard {}: {} of {} {}",
            self.body.command(),
            self.shard,
            self.shard.game_count(self.body.run_games()),
            self.body.run_games(),
            self.body.unit(),
        );
        format!(
            "{} (merge every shard with `arena merge`)\n",
            written_line(&what, path)
        )
    }

    /// Reads and checks the format of the part file `path`; every failure is one line naming
    /// the file. A file larger than [`PART_LIMIT`] (1 GiB) is refused.
    pub fn read(path: &Path) -> Result<Part, RunError> {
        Part::read_limited(path, PART_LIMIT)
    }

    /// [`Part::read`] with the size limit `limit` (the tests' small one).
    fn read_limited(path: &Path, limit: u64) -> Result<Part, RunError> {
        let shown = path.display();
        let fail = |message: String| RunError::Refused(format!("merge: {shown}: {message}"));
        let text =
            tetris_core::files::read_text(path, limit, "part").map_err(|error| match error {
                tetris_core::Error::Io { message, .. } => {
                    fail(format!("cannot read it: {message}"))
                }
                too_large => RunError::Refused(format!("merge: {too_large}")),
            })?;
        let value: serde_json::Value = tetris_core::files::parse_json(&text)
            .map_err(|error| fail(format!("not JSON: {error}")))?;
        let format = value.get("format").and_then(|format| format.as_str());
        if format != Some(PART_FORMAT) {
            return Err(fail(format!(
                "not a part of a sharded run (its \"format\" should be \"{PART_FORMAT}\")"
            )));
        }
        let version = value.get("version").and_then(|version| version.as_u64());
        if !PART_VERSIONS_READ
            .map(u64::from)
            .iter()
            .any(|&known| version == Some(known))
        {
            return Err(fail(format!(
                "part version {}, this arena reads versions 1 and 2",
                value
                    .get("version")
                    .map_or("missing".into(), |v| v.to_string())
            )));
        }
        serde_json::from_value(value).map_err(|error| fail(format!("bad part: {error}")))
    }
}

/// The part of a tournament shard: its summary, and its games when it played at most
/// [`crate::tournament::HELD_GAMES_LIMIT`].
pub fn tournament_part(settings: &TournamentSettings, shard: Shard, run: &TournamentRun) -> Part {
    let results = run.games.clone().map(|mut games| {
        // Game-major, as the tasks are numbered.
        games.sort_by_key(|row| (row.game, row.strategy));
        games
    });
    let games = match &results {
        Some(_) => shard.games(settings.games).collect(),
        None => Vec::new(),
    };
    let contents = Contents::<ShardedTournament> {
        settings: settings.clone(),
        summary: Some(TournamentSummary {
            tally: run.tally.clone(),
            statistics: run.statistics.clone(),
        }),
        results: results.unwrap_or_default(),
    };
    Part::new(shard, games, run.end.jobs, run.end.wall, contents)
}

/// The part of an `arena nes` shard: its summary, and its games when it played at most
/// [`crate::tournament::HELD_GAMES_LIMIT`].
pub fn nes_part(settings: &NesRunSettings, shard: Shard, run: &NesRun) -> Part {
    let games = match &run.games {
        Some(_) => shard.games(settings.games).collect(),
        None => Vec::new(),
    };
    let contents = Contents::<ShardedNes> {
        settings: NesPartSettings::of(settings),
        summary: Some(run.tally.clone()),
        results: run.games.clone().unwrap_or_default(),
    };
    Part::new(shard, games, run.end.jobs, run.end.wall, contents)
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
    let part_settings = StatsPartSettings {
        strategy: strategy.to_string(),
        run: settings.clone(),
    };
    let contents = Contents::<ShardedStats> {
        summary: Some(ShardedStats::summarize(&part_settings, &blocks)),
        settings: part_settings,
        results: blocks,
    };
    let games = settings.shard_blocks(shard).collect();
    Part::new(shard, games, jobs, wall, contents)
}

/// Ends a sharded run: writes its part to `path` atomically and prints one line saying so. An
/// interrupted shard writes nothing (a part holds all of its shard's games) and fails.
pub fn write_part(part: &Part, path: &Path, interrupted: bool) -> Result<(), RunError> {
    if interrupted {
        return Err(RunError::Interrupted(format!(
            ": {} was not written (a part holds every game of its shard; \
             run the shard again)",
            path.display()
        )));
    }
    part.write(path)?;
    Ok(print_output(&part.summary(path))?)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Parts as the arena wrote them before the merge was made generic (one per kind, the
    /// timings included), and so as every part file written so far is laid out.
    const TOURNAMENT: &str = concat!(
        r#"{"format":"tetris-arena-part","version":1,"shard":{"index":1,"count":2},"games":[1],"t"#,
        r#"iming":{"jobs":1,"wall_seconds":0.003297666},"command":"tournament","settings":{"strat"#,
        r#"egies":["column-drop+dellacherie","column-drop+elashi"],"games":2,"seed":5,"generator""#,
        r#":"uniform","max_pieces":3,"board_height":8,"game_over_rule":"simulation","piece_statis"#,
        r#"tics":false,"estimate":false},"results":[{"strategy":0,"game":1,"seed":6,"pieces":3,"l"#,
        r#"ines":0,"score":0,"clears":[3,0,0,0,0],"end":"piece_cap","elapsed":{"secs":0,"nanos":2"#,
        r#"2122}},{"strategy":1,"game":1,"seed":6,"pieces":3,"lines":0,"score":0,"clears":[3,0,0,"#,
        r#"0,0],"end":"piece_cap","elapsed":{"secs":0,"nanos":8876}}]}"#,
    );
    const NES: &str = concat!(
        r#"{"format":"tetris-arena-part","version":1,"shard":{"index":1,"count":2},"games":[1],"t"#,
        r#"iming":{"jobs":1,"wall_seconds":0.001030673},"command":"nes","settings":{"strategy":"c"#,
        r#"olumn-drop+nes-plateau","ignores_gravity":true,"games":2,"seed":1,"start_level":28,"st"#,
        r#"op_level":29,"max_lines":null,"tap_rate":2,"game_over_rule":"simulation","inputs":"two"#,
        r#"-thumb"},"results":[{"seed":2,"score":172260,"line_clear_points":172260,"lines":38,"lev"#,
        r#"el":28,"pieces":134,"frames":5283,"clears":[114,11,4,1,4],"end":"top-out","elapsed":{"#,
        r#""secs":0,"nanos":879841},"points_before_level_29":172260}]}"#,
    );
    const STATS: &str = concat!(
        r#"{"format":"tetris-arena-part","version":1,"shard":{"index":1,"count":2},"games":[1],"t"#,
        r#"iming":{"jobs":1,"wall_seconds":0.000276108},"command":"stats","settings":{"strategy":"#,
        r#""column-drop+dellacherie","pieces":4,"seed":1,"generator":"uniform","board_height":4,""#,
        r#"blocks":2,"game_over_rule":"simulation","row_rule":"pivot"},"results":[{"board_height""#,
        r#":4,"row_rule":"pivot","pieces":2,"lines":0,"games":1,"game_overs":0,"row_counts":[0,0,"#,
        r#"1,1],"column_counts":[[0,0,0,0,0,0,0,0,0,0],[0,0,0,0,0,0,0,0,0,0],[0,1,0,0,0,0,0,0,0,0"#,
        r#"],[0,0,0,0,0,0,0,0,0,0],[0,0,0,0,0,0,0,0,0,0],[0,0,0,0,0,0,0,0,1,0],[0,0,0,0,0,0,0,0,0"#,
        r#",0]],"pieces_above_top":0,"cell_counts":[[0,0,0,0,0,0,0,0,0,0],[0,0,0,0,0,0,0,0,0,0],["#,
        r#"1,1,0,0,0,0,0,0,0,1],[0,1,1,0,0,0,0,1,1,1]],"cells_above_top":0,"full_clear_intervals""#,
        r#":[],"full_clears_after_lost_cells":0}]}"#,
    );

    fn reread(text: &str) -> String {
        let part: Part = serde_json::from_str(text).unwrap();
        serde_json::to_string(&part).unwrap()
    }

    #[test]
    fn part_files_read_and_write_back_byte_for_byte() {
        for (text, command) in [(TOURNAMENT, "tournament"), (NES, "nes"), (STATS, "stats")] {
            assert_eq!(reread(text), text);
            let part: Part = serde_json::from_str(text).unwrap();
            assert_eq!(part.body.command(), command);
            assert_eq!(part.shard, Shard::new(1, 2).unwrap());
            assert_eq!(part.body.run_games(), 2);
        }
    }

    #[test]
    fn settings_recorded_later_read_as_what_older_parts_played() {
        // Written before the game-over rule, `--estimate`, the input model, the line cap, the
        // points before level 29 and the row rule were recorded: the simulation rule, no
        // estimate, two thumbs, no cap, no points before 29 (the merge takes all the points
        // of a run that stops by 29), the top row.
        let old = TOURNAMENT
            .replace(r#","game_over_rule":"simulation""#, "")
            .replace(r#","estimate":false"#, "");
        assert_eq!(reread(&old), TOURNAMENT);
        let without_points = NES.replace(r#","points_before_level_29":172260"#, "");
        let old = without_points
            .replace(r#","game_over_rule":"simulation""#, "")
            .replace(r#","inputs":"two-thumb""#, "")
            .replace(r#","max_lines":null"#, "");
        assert_eq!(reread(&old), without_points);
        let old = STATS.replacen(
            r#","game_over_rule":"simulation","row_rule":"pivot""#,
            "",
            1,
        );
        assert_eq!(
            reread(&old),
            STATS.replacen(r#""row_rule":"pivot""#, r#""row_rule":"top""#, 1)
        );
    }

    /// Every object in `value` (itself included), as the JSON pointer of each.
    fn object_pointers(value: &serde_json::Value, at: String, pointers: &mut Vec<String>) {
        match value {
            serde_json::Value::Object(map) => {
                pointers.push(at.clone());
                for (key, inner) in map {
                    object_pointers(inner, format!("{at}/{key}"), pointers);
                }
            }
            serde_json::Value::Array(items) => {
                for (index, inner) in items.iter().enumerate() {
                    object_pointers(inner, format!("{at}/{index}"), pointers);
                }
            }
            _ => {}
        }
    }

    #[test]
    fn parts_written_so_far_pass_the_merges_checks() {
        let old_tournament = TOURNAMENT
            .replace(r#","game_over_rule":"simulation""#, "")
            .replace(r#","estimate":false"#, "");
        let old_nes = NES
            .replace(r#","game_over_rule":"simulation""#, "")
            .replace(r#","inputs":"two-thumb""#, "");
        // (A stats part without the row rules counted by the top cell, which this one's
        // pivot-row counts are not.)
        for text in [TOURNAMENT, NES, STATS, &old_tournament, &old_nes] {
            let part: Part = serde_json::from_str(text).unwrap();
            let path = Path::new("part.json");
            assert!(
                crate::shard::check_part(path, part).is_ok(),
                "{text}: {:?}",
                crate::shard::check_part(path, serde_json::from_str(text).unwrap())
            );
        }
    }

    #[test]
    fn a_key_no_part_holds_is_refused_in_every_object() {
        for text in [TOURNAMENT, NES, STATS] {
            let part: serde_json::Value = serde_json::from_str(text).unwrap();
            let mut pointers = Vec::new();
            object_pointers(&part, String::new(), &mut pointers);
            // The top level, the shard, the timing, the settings, each result (and a
            // tournament game's time).
            assert!(pointers.len() >= 5, "{pointers:?}");
            for pointer in pointers {
                let mut edited = part.clone();
                edited
                    .pointer_mut(&pointer)
                    .unwrap()
                    .as_object_mut()
                    .unwrap()
                    .insert("extra".into(), 0.into());
                let error = serde_json::from_value::<Part>(edited).unwrap_err();
                assert!(
                    error.to_string().starts_with("unknown field `extra`"),
                    "{pointer:?}: {error}"
                );
            }
        }
    }

    #[test]
    fn a_part_larger_than_its_limit_is_refused_unread() {
        let folder = std::env::temp_dir().join(format!("arena-part-limit-{}", std::process::id()));
        std::fs::create_dir_all(&folder).unwrap();
        // A sparse file one byte over the real limit: refused by its size, nothing read.
        let path = folder.join("huge.json");
        std::fs::File::create(&path)
            .unwrap()
            .set_len(PART_LIMIT + 1)
            .unwrap();
        assert_eq!(
            Part::read(&path).unwrap_err().to_string(),
            format!(
                "merge: part {}: larger than 1 GiB (the limit for a part)",
                path.display()
            )
        );
        // A device is read up to one byte past the limit (a small one here).
        assert_eq!(
            Part::read_limited(Path::new("/dev/zero"), 1000)
                .unwrap_err()
                .to_string(),
            "merge: part /dev/zero: larger than 1000 bytes (the limit for a part)"
        );
        // A real part one byte over a limit of its own size less one.
        let part = folder.join("part.json");
        std::fs::write(&part, TOURNAMENT).unwrap();
        let size = TOURNAMENT.len() as u64;
        assert!(Part::read_limited(&part, size).is_ok());
        assert!(Part::read_limited(&part, size - 1).is_err());
        std::fs::remove_dir_all(&folder).unwrap();
    }
}
