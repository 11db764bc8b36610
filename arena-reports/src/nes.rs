//! The `arena nes` report: text, the JSON report (typed: these structs are its schema), the
//! CSV of games and the HTML page (`--html`, [`NesReport::html`]).
//!
//! Beside the article's figures (the distribution of the capped score and the uncapped
//! line-clear points) it reports the ones BetaTetris publishes: the share of games reaching
//! levels 19 (from 18), 29 and 39, the points before level 29, lines per game and the 1st,
//! 5th, 25th and 50th percentiles; old fields keep their names and values.

use std::borrow::Cow;
use std::path::Path;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tetris_core::{GameOverRule, InputModel, Timeline};

use crate::error::ReportError;
use crate::games_file::{GamesFile, games_text};
use crate::tournament::GamesLeftOut;
use tetris_arena_games::analysis::nes::{NesSummary, PERCENTILES, ScoreStatistics};
use tetris_arena_games::sim::nes::{
    FRAMES_PER_SECOND, NesGameResult, NesRunSettings, REPORTED_LEVELS,
};
use tetris_arena_games::sim::nes_trace::TraceError;
use tetris_arena_io::format::{optional, thousands};
use tetris_arena_io::output::{MadeBy, OutputFormat, RunReport};
use tetris_arena_runs::nes::NesRun;

/// The score rule, as printed and stored with the results.
pub const SCORE_RULE: &str = "NES line-clear points 40/100/300/1200 x (level + 1) with the level \
    after the clear's own level-up; no soft-drop points; the displayed score is capped at \
    999,999 (line_clear_points is the uncapped sum)";
/// The end rule under `rule` and the line cap `max_lines`, as printed and stored with the
/// results.
pub fn end_rule(rule: GameOverRule, max_lines: Option<u32>) -> String {
    let top_out = match rule {
        GameOverRule::Console => {
            "console rule: two hidden rows above the field keep the cells that lock there and \
             collide with later pieces; a spawn is not checked, so a piece that spawns \
             overlapping may move out; a top-out is a piece that locks overlapping a cell, i.e. \
             the strategy has no legal lock within reach for the current piece"
        }
        _ => {
            "simulation rule: cells locked above the field are lost; a top-out is a next piece \
             that cannot spawn, or a current piece the strategy has no placement for"
        }
    };
    let cap = match max_lines {
        Some(cap) => format!(
            ", or when a line clear takes the lines to {cap} or more (the line cap: that clear \
             is scored in full, all its rows and points, so a capped game has {cap} to {} \
             lines; when one clear does both, the end is the stop level's)",
            cap + 3
        ),
        None => String::new(),
    };
    format!(
        "{top_out}; a game also ends when a line clear reaches the stop level (that clear is \
         scored){cap}"
    )
}
/// The seed rule, as stored with the results.
pub const PIECE_RULE: &str = "NES randomizer: the seed draws its start state, then it steps once \
    per simulated frame, so from the third piece on the pieces depend on the frames the \
    strategy's moves took; one preview piece";
/// The best third's definition, as stored with the results.
pub const BEST_THIRD_RULE: &str = "mean of the ceil(N / 3) highest displayed scores";
/// The uncapped distribution's definition, as stored with the results (docs/spec/arena.md: the source
/// article's figures are of the uncapped line-clear points).
pub const LINE_CLEAR_POINTS_RULE: &str = "the *_line_clear_points statistics are of each game's \
    uncapped line-clear points (the displayed score without the 999,999 cap, the source \
    article's measure); best third: mean of the ceil(N / 3) highest, best 75 %: mean of the \
    ceil(3N / 4) highest (for scores and points alike); shares count games at or above the \
    threshold";
/// The percentiles' definition, as stored with the results.
pub const PERCENTILE_RULE: &str = "percentiles 1, 5, 25 and 50 of the games' values by linear \
    interpolation between the closest ranks: with N values sorted ascending and h = (N - 1) x \
    p / 100, the value at 0-based rank floor(h) plus (h - floor(h)) times the step to the next \
    (NumPy's default, Hyndman and Fan's type 7; the 50th is the median)";
/// The points before level 29's definition, as stored with the results.
pub const POINTS_BEFORE_LEVEL_29_RULE: &str = "a game's uncapped line-clear points when the \
    level became 29, after the clear that took it there (that clear included, scored at level \
    29 as the console does); a game that never reached level 29 counts its final points, a \
    game started at 29 counts 0";
/// The level shares' definition, as stored with the results.
pub const REACHED_LEVEL_RULE: &str = "share_reaching_level_L: games whose final level is L or \
    more / games; null where the run cannot measure it (L not above the start level, above \
    the stop level, or past the line cap's lines)";
/// The Tetris share's definition, as stored with the results.
pub const TETRIS_SHARE_RULE: &str = "rows cleared by Tetrises (4 x Tetrises) / all rows cleared, \
    pooled over all games";

/// `p` as an ordinal of the reported percentiles: 1st, 5th, 25th, 50th.
fn ordinal(p: u32) -> String {
    let suffix = match (p % 10, p % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{p}{suffix}")
}

/// A run's results and how to print them.
pub struct NesReport<'a> {
    /// The settings of the run.
    pub settings: &'a NesRunSettings,
    /// The finished games: their summary, and the games when the run held them.
    pub run: &'a NesRun,
    /// Their summary.
    pub summary: NesSummary,
}

/// The columns of an NES run's CSV of games, one row per game in game order.
const GAME_COLUMNS: [&str; 16] = [
    "game",
    "seed",
    "score",
    "line_clear_points",
    "lines",
    "level",
    "pieces",
    "frames",
    "no_clears",
    "singles",
    "doubles",
    "triples",
    "tetrises",
    "end",
    "points_before_level_29",
    "seconds",
];

/// One game's CSV row.
fn game_csv(settings: &NesRunSettings, game: &NesGameResult) -> GameCsv {
    let [no_clears, singles, doubles, triples, tetrises] = game.clears;
    GameCsv {
        game: game.seed - settings.seed,
        seed: game.seed,
        score: game.score,
        line_clear_points: game.line_clear_points,
        lines: game.lines,
        level: game.level,
        pieces: game.pieces,
        frames: game.frames,
        no_clears,
        singles,
        doubles,
        triples,
        tetrises,
        end: game.end.name(),
        points_before_level_29: game.points_before_29(),
        seconds: format!("{:.6}", game.elapsed.as_secs_f64()),
    }
}

/// An NES run's file of games (`--out FILE.csv` or `FILE.jsonl`), written as the games finish
/// ([`GamesFile`]).
pub struct NesGamesFile<'a> {
    settings: &'a NesRunSettings,
    file: GamesFile,
}

impl<'a> NesGamesFile<'a> {
    /// Starts the file `path` in `format` of the run `settings`.
    pub fn create(
        path: &Path,
        format: OutputFormat,
        settings: &'a NesRunSettings,
    ) -> Result<Self, ReportError> {
        Ok(NesGamesFile {
            settings,
            file: GamesFile::create(path, format, &GAME_COLUMNS, 1)?,
        })
    }

    /// Writes one finished game.
    pub fn write(&mut self, game: &NesGameResult) -> Result<(), ReportError> {
        let settings = self.settings;
        self.file
            .write(0, || game_csv(settings, game), || game_json(settings, game))
    }

    /// Puts the file in place.
    pub fn commit(self) -> Result<(), ReportError> {
        self.file.commit()
    }
}

/// One game's object in the JSON report's `games` list.
fn game_json(settings: &NesRunSettings, game: &NesGameResult) -> GameJson {
    GameJson {
        game: game.seed - settings.seed,
        seed: game.seed,
        score: game.score,
        line_clear_points: game.line_clear_points,
        lines: game.lines,
        level: game.level,
        pieces: game.pieces,
        frames: game.frames,
        clears: game.clears,
        end: game.end.name(),
        points_before_level_29: game.points_before_29(),
        fault: game.fault.clone(),
    }
}

/// The settings object of the JSON report, also the first line of a trace
/// ([`crate::nes_trace`]), which `arena replay` reads back with this same type
/// (`NesRequest::of_trace`): so the fields that decide the games are described once. Every
/// field is read (an unknown one is refused); the ones the others derive (the rules in words,
/// the board, the preview, the stop level's lines) are then held against what a run with the
/// read settings writes ([`SettingsJson::check_recorded`]).
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SettingsJson {
    /// Games in the run.
    pub games: u64,
    /// The first game's seed.
    pub seed: u64,
    seed_rule: String,
    /// The level every game starts at.
    pub start_level: u8,
    /// The level whose transition ends a game.
    pub stop_level: u8,
    stop_level_lines: Option<u32>,
    /// The line cap, if any.
    pub max_lines: Option<u32>,
    /// A uniform timeline's tap rate (as every report before timelines wrote it) …
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tap_rate: Option<u8>,
    /// … or a mixed timeline's pattern.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeline: Option<Timeline>,
    /// The game-over rule.
    pub game_over_rule: GameOverRule,
    /// The input model.
    pub inputs: InputModel,
    /// Frames from a piece's spawn before the player sees the preview (left out when 0, as
    /// in every report before reaction times existed).
    #[serde(
        default,
        skip_serializing_if = "tetris_arena_games::sim::reaction::sees_preview_at_once"
    )]
    pub reaction_frames: u8,
    board_width: u8,
    board_height: u8,
    preview_pieces: u8,
    piece_rule: Cow<'static, str>,
    end_rule: String,
    score_rule: Cow<'static, str>,
    best_third_rule: Cow<'static, str>,
    line_clear_points_rule: Cow<'static, str>,
    tetris_share_rule: Cow<'static, str>,
    percentile_rule: Cow<'static, str>,
    points_before_level_29_rule: Cow<'static, str>,
    reached_level_rule: Cow<'static, str>,
}

impl SettingsJson {
    /// The settings object recording `settings`.
    pub fn of(settings: &NesRunSettings) -> SettingsJson {
        let (tap_rate, timeline) = settings.recorded_timeline();
        SettingsJson {
            games: settings.games,
            seed: settings.seed,
            seed_rule: settings.seed_rule(),
            start_level: settings.start_level,
            stop_level: settings.stop_level,
            stop_level_lines: settings.stop_lines(),
            max_lines: settings.max_lines,
            tap_rate,
            timeline,
            game_over_rule: settings.game_over_rule,
            inputs: settings.inputs,
            reaction_frames: settings.reaction_frames,
            board_width: 10,
            board_height: 20,
            preview_pieces: 1,
            piece_rule: Cow::Borrowed(PIECE_RULE),
            end_rule: end_rule(settings.game_over_rule, settings.max_lines),
            score_rule: Cow::Borrowed(SCORE_RULE),
            best_third_rule: Cow::Borrowed(BEST_THIRD_RULE),
            line_clear_points_rule: Cow::Borrowed(LINE_CLEAR_POINTS_RULE),
            tetris_share_rule: Cow::Borrowed(TETRIS_SHARE_RULE),
            percentile_rule: Cow::Borrowed(PERCENTILE_RULE),
            points_before_level_29_rule: Cow::Borrowed(POINTS_BEFORE_LEVEL_29_RULE),
            reached_level_rule: Cow::Borrowed(REACHED_LEVEL_RULE),
        }
    }

    /// Holds `recorded`, the settings object of a trace's run line (already read as a
    /// [`SettingsJson`], so its fields are known), against what a run with `settings` (read
    /// from it and checked as `arena nes` checks them) writes: every field must be the one a
    /// run writes, and no field a run leaves out may be there. The error names the first field
    /// that differs, as the trace spells it (`settings.board_height`).
    pub fn check_recorded(
        recorded: &serde_json::Value,
        settings: &NesRunSettings,
    ) -> Result<(), TraceError> {
        let written = serde_json::to_value(SettingsJson::of(settings)).map_err(|error| {
            TraceError::RunLine {
                field: "settings".into(),
                message: error.to_string(),
            }
        })?;
        let (Some(recorded), Some(written)) = (recorded.as_object(), written.as_object()) else {
            return Err(TraceError::RunLine {
                field: "settings".into(),
                message: "not an object".into(),
            });
        };
        for (field, value) in written {
            if recorded.get(field) != Some(value) {
                // The rules in words run to hundreds of characters: not quoted.
                let message = match (recorded.get(field), value.as_str()) {
                    (Some(_), Some(text)) if text.len() > 60 => {
                        "recorded otherwise than a run with these settings writes it".to_string()
                    }
                    (Some(found), _) => {
                        format!("recorded as {found}, but a run with these settings writes {value}")
                    }
                    (None, _) => format!("missing: a run with these settings writes {value}"),
                };
                return Err(TraceError::RunLine {
                    field: format!("settings.{field}"),
                    message,
                });
            }
        }
        if let Some(field) = recorded.keys().find(|field| !written.contains_key(*field)) {
            return Err(TraceError::RunLine {
                field: format!("settings.{field}"),
                message: "a run with these settings does not write it".into(),
            });
        }
        Ok(())
    }
}

// The JSON names the level shares' fields after the reported levels.
const _: () =
    assert!(REPORTED_LEVELS[0] == 19 && REPORTED_LEVELS[1] == 29 && REPORTED_LEVELS[2] == 39);

/// The 1st, 5th, 25th and 50th percentiles ([`PERCENTILES`]) of one distribution.
#[derive(Serialize)]
struct PercentilesJson {
    p1: f64,
    p5: f64,
    p25: f64,
    p50: f64,
}

impl PercentilesJson {
    /// The percentiles of `statistics`.
    fn of(statistics: &ScoreStatistics) -> PercentilesJson {
        let [p1, p5, p25, p50] = statistics.percentiles;
        PercentilesJson { p1, p5, p25, p50 }
    }
}

/// The summary object of the JSON report.
#[derive(Serialize)]
struct SummaryJson {
    games: usize,
    mean_score: Option<f64>,
    median_score: Option<f64>,
    best_score: Option<u64>,
    share_at_least_999999: Option<f64>,
    share_at_least_900000: Option<f64>,
    best_third_games: Option<usize>,
    best_third_mean_score: Option<f64>,
    best_three_quarters_games: Option<usize>,
    best_three_quarters_mean_score: Option<f64>,
    mean_line_clear_points: Option<f64>,
    median_line_clear_points: Option<f64>,
    best_line_clear_points: Option<u64>,
    share_line_clear_points_at_least_999999: Option<f64>,
    share_line_clear_points_at_least_900000: Option<f64>,
    best_third_mean_line_clear_points: Option<f64>,
    best_three_quarters_mean_line_clear_points: Option<f64>,
    mean_lines: Option<f64>,
    total_lines: u64,
    tetrises: u64,
    tetris_share: Option<f64>,
    top_outs: usize,
    reached_stop_level: usize,
    mean_pieces: Option<f64>,
    mean_frames: Option<f64>,
    total_pieces: u64,
    reached_line_cap: usize,
    /// Games an outside engine's fault ended (left out when none).
    #[serde(skip_serializing_if = "is_zero")]
    fault_games: usize,
    share_reaching_level_19: Option<f64>,
    share_reaching_level_29: Option<f64>,
    share_reaching_level_39: Option<f64>,
    mean_points_before_level_29: Option<f64>,
    median_points_before_level_29: Option<f64>,
    best_points_before_level_29: Option<u64>,
    score_percentiles: Option<PercentilesJson>,
    line_clear_points_percentiles: Option<PercentilesJson>,
    points_before_level_29_percentiles: Option<PercentilesJson>,
}

/// The timing object (the only part that depends on the machine).
#[derive(Serialize)]
struct TimingJson {
    jobs: usize,
    wall_seconds: f64,
    pieces_per_second: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    game_seconds: Option<Vec<f64>>,
    /// Mean time per decision (the choice and its path), in milliseconds; `None` for a merged
    /// run (part files keep no decision times) or a run without decisions.
    decision_mean_ms: Option<f64>,
    /// The 99th percentile of the decision times (at most 6.25 % above it), in milliseconds.
    decision_p99_ms: Option<f64>,
}

/// One game of the JSON report's `games` array.
#[derive(Serialize)]
struct GameJson {
    game: u64,
    seed: u64,
    score: u32,
    line_clear_points: u64,
    lines: u32,
    level: u8,
    pieces: u64,
    frames: u64,
    clears: [u64; 5],
    end: &'static str,
    points_before_level_29: u64,
    /// With `end` = `fault`: the outside engine's fault.
    #[serde(skip_serializing_if = "Option::is_none")]
    fault: Option<String>,
}

/// Whether a count is zero (a field left out of the JSON then).
fn is_zero(count: &usize) -> bool {
    *count == 0
}

/// One CSV row per game; `seconds` is the only timing column.
#[derive(Serialize)]
struct GameCsv {
    game: u64,
    seed: u64,
    score: u32,
    line_clear_points: u64,
    lines: u32,
    level: u8,
    pieces: u64,
    frames: u64,
    no_clears: u64,
    singles: u64,
    doubles: u64,
    triples: u64,
    tetrises: u64,
    end: &'static str,
    points_before_level_29: u64,
    seconds: String,
}

/// The whole JSON report.
#[derive(Serialize)]
struct ReportJson {
    strategy: String,
    searcher: String,
    evaluator: String,
    depth: usize,
    ignores_gravity: bool,
    gravity_note: Option<String>,
    /// The outside engine, as it named itself (absent for the arena's own).
    #[serde(skip_serializing_if = "Option::is_none")]
    engine: Option<String>,
    settings: SettingsJson,
    interrupted: bool,
    games_finished: u64,
    games_planned: u64,
    summary: SummaryJson,
    timing: TimingJson,
    #[serde(skip_serializing_if = "Option::is_none")]
    games: Option<Vec<GameJson>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    games_left_out: Option<GamesLeftOut>,
    made_by: MadeBy,
}

impl<'a> NesReport<'a> {
    /// The report of `run`, computed from its summary.
    pub fn new(settings: &'a NesRunSettings, run: &'a NesRun) -> Self {
        NesReport {
            settings,
            run,
            summary: run.tally.summary(),
        }
    }

    /// Finished games.
    pub fn games_finished(&self) -> u64 {
        self.run.end.finished
    }

    /// The settings object of the JSON report (and of the trace's first line).
    pub(crate) fn settings_json(&self) -> SettingsJson {
        SettingsJson::of(self.settings)
    }

    /// The share of games reaching each of [`REPORTED_LEVELS`] (19, 29, 39), `None` where the
    /// run cannot measure it ([`NesRunSettings::measures_level`]).
    pub(crate) fn level_shares(&self) -> [(u8, Option<(usize, f64)>); 3] {
        let games = self.games_finished() as usize;
        let mut shares = [(0, None); 3];
        for (index, level) in REPORTED_LEVELS.into_iter().enumerate() {
            let reached = self.summary.reached_levels[index];
            shares[index] = (
                level,
                (games > 0 && self.settings.measures_level(level))
                    .then(|| (reached, reached as f64 / games as f64)),
            );
        }
        shares
    }

    /// The settings as (name, value) lines, for the text and the page.
    pub(crate) fn settings_lines(&self) -> Vec<(&'static str, String)> {
        let rules = self.settings;
        let stop_lines = match rules.stop_lines() {
            Some(lines) => format!(" ({lines} lines)"),
            None => String::new(),
        };
        let cap = match rules.max_lines {
            Some(cap) => format!(", or at {cap} lines (line cap)"),
            None => String::new(),
        };
        let tapping = if rules.ignores_gravity {
            "unused by this searcher".to_string()
        } else {
            match rules.timeline.tap_rate() {
                Some(tap_rate) => format!(
                    "one press per {tap_rate} frames ({:.0} per second)",
                    FRAMES_PER_SECOND / f64::from(tap_rate)
                ),
                None => format!(
                    "timeline {} ({} inputs every {} frames, {:.1} per second)",
                    rules.timeline,
                    rules.timeline.gap_count(),
                    rules.timeline.length(),
                    rules.timeline.presses_per_second(FRAMES_PER_SECOND)
                ),
            }
        };
        let inputs = if rules.ignores_gravity {
            "unused by this searcher".to_string()
        } else {
            format!("{}: {}", rules.inputs, rules.inputs.description())
        };
        let mut lines = vec![
            (
                "Levels",
                format!(
                    "start {}, stop at the transition to {}{stop_lines}{cap}",
                    rules.start_level, rules.stop_level
                ),
            ),
            ("Tapping", tapping),
            ("Game over", end_rule(rules.game_over_rule, rules.max_lines)),
            ("Inputs", inputs),
            ("Seeds", rules.seed_rule()),
            ("Pieces", PIECE_RULE.to_string()),
            ("Score", SCORE_RULE.to_string()),
        ];
        if rules.reaction_frames > 0 {
            let reaction = format!(
                "{} frames ({:.0} ms) before the player sees the preview piece: it plays its \
                 plan without the preview until then, then plans again from there",
                rules.reaction_frames,
                1000.0 * f64::from(rules.reaction_frames) / FRAMES_PER_SECOND
            );
            lines.insert(2, ("Reaction", reaction));
        }
        if let Some(engine) = &rules.engine {
            lines.push((
                "Outside engine",
                format!(
                    "{} is {engine} (as it names itself); its results are only as repeatable \
                     as it is",
                    rules.strategy
                ),
            ));
        }
        lines
    }

    /// The distribution table: a header row (a blank, `score (capped)`, `line-clear points
    /// (uncapped)`), then one row per statistic; `None` when no game finished.
    pub(crate) fn distribution_rows(&self) -> Option<Vec<[String; 3]>> {
        let (scores, points) = (self.summary.scores?, self.summary.line_clear_points?);
        let games = scores.games;
        let count_share = |share: f64| {
            format!(
                "{:.1}% ({} of {games})",
                100.0 * share,
                (share * games as f64).round() as u64
            )
        };
        let mut rows: Vec<[String; 3]> = vec![
            [
                String::new(),
                "score (capped)".into(),
                "line-clear points (uncapped)".into(),
            ],
            [
                "mean".into(),
                thousands(scores.mean.round() as u64),
                thousands(points.mean.round() as u64),
            ],
            [
                "median".into(),
                thousands(scores.median.round() as u64),
                thousands(points.median.round() as u64),
            ],
            [
                "best".into(),
                thousands(scores.best),
                thousands(points.best),
            ],
            [
                "999,999 or more (max-out)".into(),
                count_share(scores.max_out_share),
                count_share(points.max_out_share),
            ],
            [
                "900,000 or more".into(),
                count_share(scores.near_max_out_share),
                count_share(points.near_max_out_share),
            ],
            [
                format!(
                    "mean of best third ({} of {games} games)",
                    scores.best_third_games
                ),
                thousands(scores.best_third_mean.round() as u64),
                thousands(points.best_third_mean.round() as u64),
            ],
            [
                format!(
                    "mean of best 75% ({} of {games} games)",
                    scores.best_three_quarters_games
                ),
                thousands(scores.best_three_quarters_mean.round() as u64),
                thousands(points.best_three_quarters_mean.round() as u64),
            ],
        ];
        for (index, p) in PERCENTILES.into_iter().enumerate() {
            rows.push([
                format!("{} percentile", ordinal(p)),
                thousands(scores.percentiles[index].round() as u64),
                thousands(points.percentiles[index].round() as u64),
            ]);
        }
        Some(rows)
    }

    /// BetaTetris's figures as (name, value) rows: the level shares the run measures, the
    /// points before level 29 (mean, median, percentiles) and the lines per game; `None`
    /// when no game finished.
    pub(crate) fn betatetris_rows(&self) -> Option<Vec<(String, String)>> {
        let before_29 = self.summary.points_before_level_29?;
        let games = before_29.games;
        let mut rows = Vec::new();
        for (level, share) in self.level_shares() {
            if let Some((reached, share)) = share {
                rows.push((
                    format!("reached level {level}"),
                    format!("{:.1}% ({reached} of {games})", 100.0 * share),
                ));
            }
        }
        rows.push((
            "points before level 29".into(),
            format!(
                "mean {}, median {}, best {}",
                thousands(before_29.mean.round() as u64),
                thousands(before_29.median.round() as u64),
                thousands(before_29.best)
            ),
        ));
        let percentiles: Vec<String> = PERCENTILES
            .iter()
            .zip(before_29.percentiles)
            .map(|(&p, value)| format!("{}: {}", ordinal(p), thousands(value.round() as u64)))
            .collect();
        rows.push(("  its percentiles".into(), percentiles.join(", ")));
        rows.push((
            "lines per game".into(),
            format!("mean {}", optional(self.summary.mean_lines, 1)),
        ));
        Some(rows)
    }

    /// The games' other figures as (name, value) rows: mean lines, Tetris share, how the
    /// games ended, mean pieces and game length.
    pub(crate) fn game_rows(&self) -> Vec<(String, String)> {
        let summary = &self.summary;
        vec![
            ("mean lines".into(), optional(summary.mean_lines, 1)),
            (
                "tetris share".into(),
                match summary.tetris_share {
                    Some(share) => format!("{:.1}% of rows cleared", 100.0 * share),
                    None => "-".to_string(),
                },
            ),
            ("ended".into(), self.ended()),
            ("mean pieces".into(), optional(summary.mean_pieces, 1)),
            (
                "mean game length".into(),
                match summary.mean_frames {
                    Some(frames) => {
                        format!("{frames:.0} frames ({:.1} s)", frames / FRAMES_PER_SECOND)
                    }
                    None => "-".to_string(),
                },
            ),
        ]
    }

    /// The "ended" line: top-outs, stop level and line cap.
    pub(crate) fn ended(&self) -> String {
        let summary = &self.summary;
        let rules = self.settings;
        let mut ended = format!(
            "{} topped out, {} reached level {}",
            summary.top_outs, summary.reached_stop_level, rules.stop_level
        );
        if let Some(cap) = rules.max_lines {
            ended.push_str(&format!(
                ", {} reached the line cap of {cap}",
                summary.reached_line_cap
            ));
        }
        if summary.faults > 0 {
            ended.push_str(&format!(
                ", {} ended by the outside engine's fault (each game's reason is in the JSON \
                 and JSON Lines games)",
                summary.faults
            ));
        }
        ended
    }
}

impl RunReport for NesReport<'_> {
    /// The whole report as JSON text; `with_games` adds one row per game (for `--out`).
    fn json(&self, with_games: bool) -> String {
        let settings = self.settings;
        let spec = &settings.strategy;
        let summary = &self.summary;
        let scores: Option<ScoreStatistics> = summary.scores;
        let points: Option<ScoreStatistics> = summary.line_clear_points;
        let before_29: Option<ScoreStatistics> = summary.points_before_level_29;
        let level_shares = self.level_shares();
        let wall_seconds = self.run.end.wall.as_secs_f64();
        let decisions = &self.run.tally.decision_times;
        let report = ReportJson {
            strategy: spec.to_string(),
            searcher: spec.searcher.clone(),
            evaluator: spec.evaluator.clone(),
            depth: spec.depth,
            ignores_gravity: settings.ignores_gravity,
            gravity_note: settings.gravity_note(),
            engine: settings.engine.clone(),
            settings: self.settings_json(),
            interrupted: self.run.end.interrupted,
            games_finished: self.games_finished(),
            games_planned: settings.games,
            summary: SummaryJson {
                games: self.games_finished() as usize,
                mean_score: scores.map(|scores| scores.mean),
                median_score: scores.map(|scores| scores.median),
                best_score: scores.map(|scores| scores.best),
                share_at_least_999999: scores.map(|scores| scores.max_out_share),
                share_at_least_900000: scores.map(|scores| scores.near_max_out_share),
                best_third_games: scores.map(|scores| scores.best_third_games),
                best_third_mean_score: scores.map(|scores| scores.best_third_mean),
                best_three_quarters_games: scores.map(|scores| scores.best_three_quarters_games),
                best_three_quarters_mean_score: scores
                    .map(|scores| scores.best_three_quarters_mean),
                mean_line_clear_points: summary.mean_line_clear_points,
                median_line_clear_points: points.map(|points| points.median),
                best_line_clear_points: points.map(|points| points.best),
                share_line_clear_points_at_least_999999: points.map(|points| points.max_out_share),
                share_line_clear_points_at_least_900000: points
                    .map(|points| points.near_max_out_share),
                best_third_mean_line_clear_points: points.map(|points| points.best_third_mean),
                best_three_quarters_mean_line_clear_points: points
                    .map(|points| points.best_three_quarters_mean),
                mean_lines: summary.mean_lines,
                total_lines: summary.total_lines,
                tetrises: summary.tetrises,
                tetris_share: summary.tetris_share,
                top_outs: summary.top_outs,
                reached_stop_level: summary.reached_stop_level,
                mean_pieces: summary.mean_pieces,
                mean_frames: summary.mean_frames,
                total_pieces: summary.total_pieces,
                reached_line_cap: summary.reached_line_cap,
                fault_games: summary.faults,
                share_reaching_level_19: level_shares[0].1.map(|(_, share)| share),
                share_reaching_level_29: level_shares[1].1.map(|(_, share)| share),
                share_reaching_level_39: level_shares[2].1.map(|(_, share)| share),
                mean_points_before_level_29: before_29.map(|before| before.mean),
                median_points_before_level_29: before_29.map(|before| before.median),
                best_points_before_level_29: before_29.map(|before| before.best),
                score_percentiles: scores.as_ref().map(PercentilesJson::of),
                line_clear_points_percentiles: points.as_ref().map(PercentilesJson::of),
                points_before_level_29_percentiles: before_29.as_ref().map(PercentilesJson::of),
            },
            timing: TimingJson {
                jobs: self.run.end.jobs,
                wall_seconds,
                pieces_per_second: (wall_seconds > 0.0)
                    .then(|| summary.total_pieces as f64 / wall_seconds),
                game_seconds: self.run.games.as_ref().map(|games| {
                    games
                        .iter()
                        .map(|game| game.elapsed.as_secs_f64())
                        .collect()
                }),
                decision_mean_ms: decisions.mean().map(milliseconds),
                decision_p99_ms: decisions.percentile(99.0).map(milliseconds),
            },
            games_left_out: (with_games && self.run.games.is_none())
                .then(|| GamesLeftOut::of(self.games_finished())),
            games: self
                .run
                .games
                .as_ref()
                .filter(|_| with_games)
                .map(|games| games.iter().map(|game| game_json(settings, game)).collect()),
            made_by: MadeBy::current(),
        };
        tetris_arena_io::output::pretty_json(&report)
    }

    /// The file of the games the report holds, unless the run streamed them to the file as
    /// they finished ([`NesGamesFile`]): a merge's games.
    fn games_file(&self, format: OutputFormat) -> Option<String> {
        let games = self
            .run
            .games
            .as_ref()
            .filter(|_| !self.run.games_streamed)?;
        let settings = self.settings;
        Some(games_text(
            format,
            &GAME_COLUMNS,
            || games.iter().map(|game| game_csv(settings, game)).collect(),
            || games.iter().map(|game| game_json(settings, game)).collect(),
        ))
    }

    /// The report as text.
    fn text(&self) -> String {
        let rules = self.settings;
        let summary = &self.summary;
        let played = &self.run.end;
        let mut text = format!(
            "NES plateau benchmark: {}, {} games\n",
            rules.strategy, rules.games
        );
        if let Some(note) = rules.gravity_note() {
            text.push_str(&format!("note: {note}\n"));
        }
        for (name, value) in self.settings_lines() {
            text.push_str(&format!("{name}: {value}\n"));
        }
        if played.interrupted {
            text.push_str(&format!(
                "INTERRUPTED: {} of {} games finished; the statistics cover those\n",
                played.finished, rules.games
            ));
        }
        text.push('\n');
        let (Some(distribution), Some(betatetris)) =
            (self.distribution_rows(), self.betatetris_rows())
        else {
            text.push_str("No game finished.\n");
            return text;
        };
        // The distribution, the displayed (capped) score beside the uncapped line-clear
        // points (docs/spec/arena.md: the article's figures are of the latter).
        let rows = self.game_rows();
        let width = distribution
            .iter()
            .map(|[name, _, _]| name.len())
            .chain(rows.iter().map(|(name, _)| name.len()))
            .max()
            .unwrap_or(0);
        let score_width = distribution
            .iter()
            .map(|[_, score, _]| score.len())
            .max()
            .unwrap_or(0);
        for [name, score, points] in distribution {
            text.push_str(&format!(
                "{name:<width$}  {score:<score_width$}  {points}\n"
            ));
        }
        for (name, value) in rows {
            text.push_str(&format!("{name:<width$}  {value}\n"));
        }
        text.push_str("\nAs BetaTetris reports (percentiles: linear between the closest ranks):\n");
        for (name, value) in betatetris {
            text.push_str(&format!("{name:<width$}  {value}\n"));
        }
        let wall = played.wall.as_secs_f64();
        // One timing line (the only machine-dependent one): wall time, pieces/s and, when the
        // games kept them, the decision times.
        let decisions = &self.run.tally.decision_times;
        let decision_times = match (decisions.mean(), decisions.percentile(99.0)) {
            (Some(mean), Some(p99)) => format!(
                "; decision time per piece (choice and path) mean {:.2} ms, 99th percentile \
                 {:.2} ms",
                milliseconds(mean),
                milliseconds(p99)
            ),
            _ => String::new(),
        };
        text.push_str(&format!(
            "\nWall time {wall:.2} s with {} jobs, {} pieces/s{decision_times}.\n",
            played.jobs,
            if wall > 0.0 {
                thousands((summary.total_pieces as f64 / wall).round() as u64)
            } else {
                "-".to_string()
            }
        ));
        text
    }
}

/// A duration in milliseconds.
fn milliseconds(time: Duration) -> f64 {
    time.as_secs_f64() * 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_line_must_be_the_settings_object_a_run_writes() {
        let settings = NesRunSettings {
            strategy: "gamepad+nes-plateau@2".parse().unwrap(),
            ignores_gravity: false,
            games: 2,
            seed: 9,
            start_level: 19,
            stop_level: 29,
            max_lines: Some(12),
            timeline: Timeline::THIRTY_HZ,
            game_over_rule: GameOverRule::Console,
            inputs: InputModel::TwoThumb,
            reaction_frames: 0,
            engine: None,
        };
        let written = serde_json::to_value(SettingsJson::of(&settings)).unwrap();
        assert_eq!(written["stop_level_lines"], 230);
        assert!(SettingsJson::check_recorded(&written, &settings).is_ok());
        let field_of = |edit: &dyn Fn(&mut serde_json::Map<String, serde_json::Value>)| {
            let mut recorded = written.clone();
            edit(recorded.as_object_mut().unwrap());
            match SettingsJson::check_recorded(&recorded, &settings) {
                Err(TraceError::RunLine { field, message }) => format!("{field}: {message}"),
                other => format!("{other:?}"),
            }
        };
        assert_eq!(
            field_of(&|recorded| {
                recorded.insert("board_height".into(), 21.into());
            }),
            "settings.board_height: recorded as 21, but a run with these settings writes 20"
        );
        assert_eq!(
            field_of(&|recorded| {
                recorded.remove("preview_pieces");
            }),
            "settings.preview_pieces: missing: a run with these settings writes 1"
        );
        // A run without a reaction time leaves the field out.
        assert_eq!(
            field_of(&|recorded| {
                recorded.insert("reaction_frames".into(), 0.into());
            }),
            "settings.reaction_frames: a run with these settings does not write it"
        );
        assert_eq!(
            field_of(&|recorded| {
                recorded.insert("game_over_rule".into(), "simulation".into());
            }),
            "settings.game_over_rule: recorded as \"simulation\", but a run with these settings \
             writes \"console\""
        );
    }
}
