//! The `arena nes` report: text, the JSON report (typed: these structs are its schema) and
//! the CSV of games.

use serde::Serialize;
use tetris_core::{GameOverRule, InputModel, Timeline};

use crate::analysis::nes::{NesSummary, ScoreStatistics};
use crate::format::{optional, thousands};
use crate::output::{MadeBy, RunReport, csv_text};
use crate::run::Finished;
use crate::sim::nes::{FRAMES_PER_SECOND, NesGameResult, NesRunSettings};

/// The score rule, as printed and stored with the results.
pub const SCORE_RULE: &str = "NES line-clear points 40/100/300/1200 x (level + 1) with the level \
    after the clear's own level-up; no soft-drop points; the displayed score is capped at \
    999,999 (line_clear_points is the uncapped sum)";
/// The end rule under `rule`, as printed and stored with the results.
pub fn end_rule(rule: GameOverRule) -> String {
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
    format!(
        "{top_out}; a game also ends when a line clear reaches the stop level (that clear is \
         scored)"
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
/// The Tetris share's definition, as stored with the results.
pub const TETRIS_SHARE_RULE: &str = "rows cleared by Tetrises (4 x Tetrises) / all rows cleared, \
    pooled over all games";

/// A run's results and how to print them.
pub struct NesReport<'a> {
    /// The settings of the run.
    pub settings: &'a NesRunSettings,
    /// The finished games, in game order.
    pub finished: &'a Finished<NesGameResult>,
    /// Their summary.
    pub summary: NesSummary,
}

/// The settings object of the JSON report.
#[derive(Serialize)]
struct SettingsJson {
    games: u64,
    seed: u64,
    seed_rule: String,
    start_level: u8,
    stop_level: u8,
    stop_level_lines: Option<u32>,
    /// A uniform timeline's tap rate (as every report before timelines wrote it) …
    #[serde(skip_serializing_if = "Option::is_none")]
    tap_rate: Option<u8>,
    /// … or a mixed timeline's pattern.
    #[serde(skip_serializing_if = "Option::is_none")]
    timeline: Option<Timeline>,
    game_over_rule: GameOverRule,
    inputs: InputModel,
    board_width: u8,
    board_height: u8,
    preview_pieces: u8,
    piece_rule: &'static str,
    end_rule: String,
    score_rule: &'static str,
    best_third_rule: &'static str,
    line_clear_points_rule: &'static str,
    tetris_share_rule: &'static str,
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
}

/// The timing object (the only part that depends on the machine).
#[derive(Serialize)]
struct TimingJson {
    jobs: usize,
    wall_seconds: f64,
    pieces_per_second: Option<f64>,
    game_seconds: Vec<f64>,
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
    settings: SettingsJson,
    interrupted: bool,
    games_finished: usize,
    games_planned: u64,
    summary: SummaryJson,
    timing: TimingJson,
    #[serde(skip_serializing_if = "Option::is_none")]
    games: Option<Vec<GameJson>>,
    made_by: MadeBy,
}

impl<'a> NesReport<'a> {
    /// Summarizes the games.
    pub fn new(settings: &'a NesRunSettings, finished: &'a Finished<NesGameResult>) -> Self {
        NesReport {
            settings,
            finished,
            summary: NesSummary::of(&finished.results),
        }
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
        let wall_seconds = self.finished.wall.as_secs_f64();
        let report = ReportJson {
            strategy: spec.to_string(),
            searcher: spec.searcher.clone(),
            evaluator: spec.evaluator.clone(),
            depth: spec.depth,
            ignores_gravity: settings.ignores_gravity,
            gravity_note: settings.gravity_note(),
            settings: SettingsJson {
                games: settings.games,
                seed: settings.seed,
                seed_rule: settings.seed_rule(),
                start_level: settings.start_level,
                stop_level: settings.stop_level,
                stop_level_lines: settings.stop_lines(),
                tap_rate: settings.timeline.tap_rate(),
                timeline: settings
                    .timeline
                    .tap_rate()
                    .is_none()
                    .then_some(settings.timeline),
                game_over_rule: settings.game_over_rule,
                inputs: settings.inputs,
                board_width: 10,
                board_height: 20,
                preview_pieces: 1,
                piece_rule: PIECE_RULE,
                end_rule: end_rule(settings.game_over_rule),
                score_rule: SCORE_RULE,
                best_third_rule: BEST_THIRD_RULE,
                line_clear_points_rule: LINE_CLEAR_POINTS_RULE,
                tetris_share_rule: TETRIS_SHARE_RULE,
            },
            interrupted: self.finished.interrupted,
            games_finished: self.finished.results.len(),
            games_planned: settings.games,
            summary: SummaryJson {
                games: self.finished.results.len(),
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
            },
            timing: TimingJson {
                jobs: self.finished.jobs,
                wall_seconds,
                pieces_per_second: (wall_seconds > 0.0)
                    .then(|| summary.total_pieces as f64 / wall_seconds),
                game_seconds: self
                    .finished
                    .results
                    .iter()
                    .map(|game| game.elapsed.as_secs_f64())
                    .collect(),
            },
            games: with_games.then(|| {
                self.finished
                    .results
                    .iter()
                    .map(|game| GameJson {
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
                    })
                    .collect()
            }),
            made_by: MadeBy::current(),
        };
        crate::output::pretty_json(&report)
    }

    /// One CSV row per game, with a header.
    fn csv(&self) -> String {
        let rows: Vec<GameCsv> = self
            .finished
            .results
            .iter()
            .map(|game| {
                let [no_clears, singles, doubles, triples, tetrises] = game.clears;
                GameCsv {
                    game: game.seed - self.settings.seed,
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
                    seconds: format!("{:.6}", game.elapsed.as_secs_f64()),
                }
            })
            .collect();
        csv_text(
            &rows,
            &[
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
                "seconds",
            ],
        )
    }

    /// The report as text.
    fn text(&self) -> String {
        let rules = self.settings;
        let summary = &self.summary;
        let played = self.finished;
        let mut text = format!(
            "NES plateau benchmark: {}, {} games\n",
            rules.strategy, rules.games
        );
        if let Some(note) = rules.gravity_note() {
            text.push_str(&format!("note: {note}\n"));
        }
        let stop_lines = match rules.stop_lines() {
            Some(lines) => format!(" ({lines} lines)"),
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
        text.push_str(&format!(
            "Levels: start {}, stop at the transition to {}{stop_lines}\n",
            rules.start_level, rules.stop_level
        ));
        text.push_str(&format!("Tapping: {tapping}\n"));
        text.push_str(&format!("Game over: {}\n", end_rule(rules.game_over_rule)));
        let inputs = if rules.ignores_gravity {
            "unused by this searcher".to_string()
        } else {
            format!("{}: {}", rules.inputs, rules.inputs.description())
        };
        text.push_str(&format!("Inputs: {inputs}\n"));
        text.push_str(&format!("Seeds: {}\n", rules.seed_rule()));
        text.push_str(&format!("Pieces: {PIECE_RULE}\n"));
        text.push_str(&format!("Score: {SCORE_RULE}\n"));
        if played.interrupted {
            text.push_str(&format!(
                "INTERRUPTED: {} of {} games finished; the statistics cover those\n",
                played.results.len(),
                rules.games
            ));
        }
        text.push('\n');
        let (Some(scores), Some(points)) = (summary.scores, summary.line_clear_points) else {
            text.push_str("No game finished.\n");
            return text;
        };
        let games = scores.games;
        let count_share = |share: f64| {
            format!(
                "{:.1}% ({} of {games})",
                100.0 * share,
                (share * games as f64).round() as u64
            )
        };
        // The distribution, the displayed (capped) score beside the uncapped line-clear
        // points (docs/spec/arena.md: the article's figures are of the latter).
        let distribution: Vec<(String, String, String)> = vec![
            (
                String::new(),
                "score (capped)".into(),
                "line-clear points (uncapped)".into(),
            ),
            (
                "mean".into(),
                thousands(scores.mean.round() as u64),
                thousands(points.mean.round() as u64),
            ),
            (
                "median".into(),
                thousands(scores.median.round() as u64),
                thousands(points.median.round() as u64),
            ),
            (
                "best".into(),
                thousands(scores.best),
                thousands(points.best),
            ),
            (
                "999,999 or more (max-out)".into(),
                count_share(scores.max_out_share),
                count_share(points.max_out_share),
            ),
            (
                "900,000 or more".into(),
                count_share(scores.near_max_out_share),
                count_share(points.near_max_out_share),
            ),
            (
                format!(
                    "mean of best third ({} of {games} games)",
                    scores.best_third_games
                ),
                thousands(scores.best_third_mean.round() as u64),
                thousands(points.best_third_mean.round() as u64),
            ),
            (
                format!(
                    "mean of best 75% ({} of {games} games)",
                    scores.best_three_quarters_games
                ),
                thousands(scores.best_three_quarters_mean.round() as u64),
                thousands(points.best_three_quarters_mean.round() as u64),
            ),
        ];
        let rows: Vec<(String, String)> = vec![
            ("mean lines".into(), optional(summary.mean_lines, 1)),
            (
                "tetris share".into(),
                match summary.tetris_share {
                    Some(share) => format!("{:.1}% of rows cleared", 100.0 * share),
                    None => "-".to_string(),
                },
            ),
            (
                "ended".into(),
                format!(
                    "{} topped out, {} reached level {}",
                    summary.top_outs, summary.reached_stop_level, rules.stop_level
                ),
            ),
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
        ];
        let width = distribution
            .iter()
            .map(|(name, _, _)| name.len())
            .chain(rows.iter().map(|(name, _)| name.len()))
            .max()
            .unwrap_or(0);
        let score_width = distribution
            .iter()
            .map(|(_, score, _)| score.len())
            .max()
            .unwrap_or(0);
        for (name, score, points) in distribution {
            text.push_str(&format!(
                "{name:<width$}  {score:<score_width$}  {points}\n"
            ));
        }
        for (name, value) in rows {
            text.push_str(&format!("{name:<width$}  {value}\n"));
        }
        let wall = played.wall.as_secs_f64();
        text.push_str(&format!(
            "\nWall time {wall:.2} s with {} jobs, {} pieces/s.\n",
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
