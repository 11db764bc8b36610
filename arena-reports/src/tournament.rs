//! The `arena tournament` report: text tables, the JSON report (typed: these structs are its
//! schema), the CSV of games and the plots.
//!
//! Over 600 lines on purpose: the JSON structs are the report's schema, and they sit beside
//! the code that fills them from the analysis and the text and CSV made from the same rows,
//! which change together (a new column is one edit here, not one in each of three files).

use std::path::Path;

use serde::Serialize;
use tetris_core::GeneratorKind;

use crate::error::ReportError;
use crate::games_file::{GamesFile, games_text};
use crate::plots;
use tetris_arena_games::analysis::estimate::{ESTIMATE_RULE, EstimateJson};
use tetris_arena_games::analysis::pieces::{LogLinearFit, PieceStatistics};
use tetris_arena_games::analysis::tournament::{
    GameFault, GameRow, TournamentAnalysis, most_lines,
};
use tetris_arena_io::format::{aligned, format_p_value, optional, significant};
use tetris_arena_io::output::{
    MadeBy, OutputFormat, RunReport, announce_written, pretty_json, write_folder,
};
use tetris_arena_runs::tournament::{HELD_GAMES_LIMIT, TournamentRun, TournamentSettings};
use tetris_core::GameOverRule;
use tetris_registry::WeightsChoice;

/// The game-over rule, as printed and stored with the results: the rule's name, what it
/// means, and the other ways a game stops.
pub fn game_over_rule_text(rule: GameOverRule) -> String {
    let detail = match rule {
        GameOverRule::Simulation => {
            "a game ends before the current piece is placed when its spawn state is illegal or \
             it has no placement left (rules.md simulation rule)"
        }
        GameOverRule::Literature => {
            "a game ends when a placed piece lands with a cell above row 0, judged before rows \
             clear (that piece counts as placed, its rows do not), or when the current piece \
             has no placement left (rules.md literature rule)"
        }
        // Frame-less games refuse it (`GameOverRule::check_frameless`); said in full all the same.
        GameOverRule::Console => {
            "a game ends when a piece locks overlapping a cell: the current piece has no legal \
             lock within reach; two hidden rows keep what locks above the field (rules.md \
             console rule)"
        }
    };
    format!("{rule}: {detail}; also at the piece cap, or when a file sequence runs out")
}

/// The score rule, as printed and stored with the results.
pub const SCORE_RULE: &str = "NES line-clear points with NES level progression from level 0 (a \
    gravity-aware searcher: from the first level of its gravity, up to that gravity's last), no \
    soft-drop points, capped at 999,999";

/// The preview rule, as printed and stored with the results.
pub const PREVIEW_RULE: &str = "a strategy of depth d sees the current piece and d - 1 preview \
    pieces; every strategy draws the same pieces in the same order";

/// The preview rule of a generator that deals after each placement (`mdptetris`): its games
/// share their seeds, but each skips the draws MDPTetris's search makes on its own boards, so
/// the sequences are the same only while no straight drop would end the game.
pub const DEALT_AFTER_PLACEMENT_RULE: &str = "every strategy sees the current piece only; game \
    k of every strategy starts from the same seed, but the generator skips the draws of \
    MDPTetris's search on that strategy's own boards (one per straight drop that stays inside \
    the field), so the sequences are identical only until a board comes within 4 rows of the \
    top";

/// The preview rule printed and stored for a run on `generator`.
pub fn preview_rule(generator: &GeneratorKind) -> &'static str {
    if generator.deals_after_placement() {
        DEALT_AFTER_PLACEMENT_RULE
    } else {
        PREVIEW_RULE
    }
}

/// The comparison rule of the pairwise matrix, as printed and stored with the results.
pub const OUTLAST_RULE: &str = "A outlasted B on a sequence when A cleared more lines, or as many \
    lines with more pieces; equal lines and pieces is a tie, left out of the two-sided exact \
    sign test";

/// The Tetris share's definition, as stored with the results.
pub const TETRIS_SHARE_RULE: &str = "rows cleared by Tetrises (4 x Tetrises) / all rows cleared, \
    over all games of the strategy";

/// The confidence interval's definition, as stored with the results.
pub const INTERVAL_RULE: &str = "95% interval of mean lines: mean +/- t(0.975, games - 1) x \
    standard error (Student t), cut at 0 below (no mean of line counts is negative) and, with a \
    piece cap N, at floor(4 N / 10) above (the most lines N pieces can clear on the 10-wide \
    field)";

/// A finished run with its statistics, ready to print and write.
pub struct TournamentReport<'a> {
    /// The run's settings.
    pub settings: &'a TournamentSettings,
    /// The finished games: their summaries, and the games themselves when the run held them.
    pub run: TournamentRun,
    /// Their statistics.
    pub analysis: TournamentAnalysis,
}

/// How a strategy's weights were chosen, in the settings object.
#[derive(Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum WeightsJson<'a> {
    Default,
    Preset { name: &'a str },
    File { path: &'a str },
    Tuned,
}

#[derive(Serialize)]
struct StrategyJson<'a> {
    name: &'a str,
    searcher: &'a str,
    evaluator: &'a str,
    weights: WeightsJson<'a>,
    depth: usize,
    /// An outside engine, as it named itself.
    #[serde(skip_serializing_if = "Option::is_none")]
    engine: Option<&'a str>,
}

#[derive(Serialize)]
struct SettingsJson<'a> {
    strategies: Vec<StrategyJson<'a>>,
    games: u64,
    seed: u64,
    seed_rule: String,
    generator: String,
    board_width: u8,
    board_height: u8,
    max_pieces: Option<u64>,
    game_over: GameOverRule,
    game_over_rule: String,
    preview_rule: &'static str,
    score_rule: &'static str,
    outlast_rule: &'static str,
    tetris_share_rule: &'static str,
    interval_rule: &'static str,
}

/// One game of the `games` array and of the CSV (the CSV adds `seconds`).
#[derive(Serialize)]
struct GameJson<'a> {
    strategy: &'a str,
    game: u64,
    seed: u64,
    pieces: u64,
    lines: u64,
    score: u32,
    singles: u64,
    doubles: u64,
    triples: u64,
    tetrises: u64,
    end: &'static str,
    /// With `end` = `fault`: the outside engine's fault (JSON only; the CSV's columns are
    /// fixed, its `end` says `fault`).
    #[serde(skip_serializing_if = "Option::is_none")]
    fault: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    game_over: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    seconds: Option<String>,
}

#[derive(Serialize)]
struct LinesJson {
    mean: f64,
    median: f64,
    min: f64,
    max: f64,
    standard_deviation: Option<f64>,
    standard_error: Option<f64>,
    interval_95: Option<[f64; 2]>,
}

#[derive(Serialize)]
struct SummaryJson<'a> {
    strategy: &'a str,
    depth: usize,
    games: usize,
    lines: Option<LinesJson>,
    mean_pieces: Option<f64>,
    mean_score: Option<f64>,
    total_pieces: u64,
    total_lines: u64,
    tetrises: u64,
    tetris_share: Option<f64>,
    capped_games: usize,
    game_over_games: usize,
    sequence_ended_games: usize,
    /// Games an outside engine's fault ended (left out when none).
    #[serde(skip_serializing_if = "is_zero")]
    fault_games: usize,
    /// The lowest-numbered of them (left out when none).
    #[serde(skip_serializing_if = "Option::is_none")]
    first_fault: Option<&'a GameFault>,
    #[serde(skip_serializing_if = "Option::is_none")]
    estimate: Option<EstimateJson>,
}

/// Whether a count is zero (a field left out of the JSON then).
fn is_zero(count: &usize) -> bool {
    *count == 0
}

#[derive(Serialize)]
struct PairJson<'a> {
    a: &'a str,
    b: &'a str,
    sequences: u64,
    a_outlasted: u64,
    b_outlasted: u64,
    ties: u64,
    p_value: f64,
}

#[derive(Serialize)]
struct StrategyTimingJson<'a> {
    strategy: &'a str,
    game_seconds: f64,
    pieces_per_second: Option<f64>,
}

#[derive(Serialize)]
struct TimingJson<'a> {
    jobs: usize,
    wall_seconds: f64,
    pieces_per_second: Option<f64>,
    strategies: Vec<StrategyTimingJson<'a>>,
}

/// Why a report has no `games` list: the run played more than it holds.
#[derive(Serialize)]
pub struct GamesLeftOut {
    /// The games finished.
    games: u64,
    /// The most a report lists.
    limit: u64,
    /// Where the games are instead.
    note: &'static str,
}

impl GamesLeftOut {
    /// The note of a run of `games` finished games.
    pub fn of(games: u64) -> GamesLeftOut {
        GamesLeftOut {
            games,
            limit: HELD_GAMES_LIMIT,
            note: "a run of more games than the limit keeps only its summaries; --out FILE.csv \
                   writes every game as it finishes",
        }
    }
}

/// The whole JSON report: settings, games, summary, pairwise, and the timings kept apart.
#[derive(Serialize)]
struct ReportJson<'a> {
    settings: SettingsJson<'a>,
    interrupted: bool,
    games_finished: u64,
    games_planned: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    games: Option<Vec<GameJson<'a>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    games_left_out: Option<GamesLeftOut>,
    summary: Vec<SummaryJson<'a>>,
    pairwise: Vec<PairJson<'a>>,
    timing: TimingJson<'a>,
    made_by: MadeBy,
}

impl<'a> TournamentReport<'a> {
    /// The report of `run`, computed from its summaries.
    pub fn new(settings: &'a TournamentSettings, run: TournamentRun) -> Self {
        let analysis = run.tally.analysis(settings.max_pieces.map(|cap| cap.get()));
        TournamentReport {
            settings,
            run,
            analysis,
        }
    }

    /// Finished games of every strategy.
    pub fn games_finished(&self) -> u64 {
        self.run.end.finished
    }

    /// One game's row; `with_seconds` for the CSV, which keeps the game's time but not the
    /// `game_over` flag (its `end` says it).
    fn game_row<'r>(&'r self, row: &'r GameRow, with_seconds: bool) -> GameJson<'r> {
        game_json(&self.settings.names, row, with_seconds)
    }

    /// The piece statistics of all games of strategy `index`, merged in game order (so they
    /// do not depend on `--jobs`); empty unless the games recorded them.
    pub(crate) fn merged_statistics(&self, index: usize) -> PieceStatistics {
        self.run.statistics.get(index).cloned().unwrap_or_else(|| {
            PieceStatistics::new(
                self.settings.board_height.rows(),
                tetris_arena_runs::tournament::TOURNAMENT_ROW_RULE,
            )
        })
    }

    /// Each strategy's expected-length fit (`--estimate`; `None` for all without it, or for
    /// a strategy with too few rows to fit).
    pub(crate) fn estimates(&self) -> Vec<Option<LogLinearFit>> {
        (0..self.settings.names.len())
            .map(|index| {
                self.settings
                    .estimate
                    .then(|| self.merged_statistics(index).fit())
                    .flatten()
            })
            .collect()
    }

    /// The estimate table (header first): per strategy, the measured mean beside the
    /// estimate.
    pub(crate) fn estimate_rows(&self) -> Vec<Vec<String>> {
        let mut table = vec![
            [
                "strategy",
                "measured mean lines",
                "estimated lines",
                "estimated pieces",
                "R²",
                "fitted rows",
            ]
            .map(String::from)
            .to_vec(),
        ];
        for (index, fit) in self.estimates().into_iter().enumerate() {
            let mean = self.analysis.summaries[index].lines.map(|lines| lines.mean);
            table.push(vec![
                self.settings.names[index].clone(),
                optional(mean, 1),
                fit.as_ref()
                    .map_or("-".to_string(), |fit| significant(fit.expected_lines())),
                fit.as_ref()
                    .map_or("-".to_string(), |fit| significant(fit.expected_pieces())),
                optional(fit.as_ref().map(|fit| fit.r_squared), 4),
                fit.as_ref().map_or("-".to_string(), |fit| {
                    format!(
                        "{}..={}",
                        fit.rows.first().unwrap_or(&0),
                        fit.rows.last().unwrap_or(&0)
                    )
                }),
            ]);
        }
        table
    }

    /// The estimate lines of the text report.
    fn estimate_text(&self) -> String {
        format!(
            "Expected game length estimated from where pieces lock ({ESTIMATE_RULE}):\n{}\n",
            aligned(&self.estimate_rows())
        )
    }

    /// Each strategy's games as the lines-per-game chart takes them: the lines of its games
    /// that ended by a top-out, and how many were cut short by the piece cap or by their file
    /// sequence's end.
    pub(crate) fn game_lines(&self) -> Vec<plots::StrategyLines<'_>> {
        self.run
            .tally
            .strategies
            .iter()
            .map(|tally| plots::StrategyLines {
                game_over_lines: &tally.game_over_lines,
                cut_short: tally.capped + tally.sequence_ends,
            })
            .collect()
    }

    /// Writes `lines_per_game.svg` and, per strategy in `folder/<strategy>/` (every character
    /// of its canonical name other than letters, digits, `-` and `.` replaced by `_`), the
    /// `arena stats` plots of all its games, merged in game order (so the files do not depend
    /// on `--jobs`). The folder is created if missing.
    ///
    /// The folder is replaced as a whole ([`write_folder`]): a killed run leaves the old
    /// plots, never some of each.
    pub fn write_plots(&self, folder: &Path) -> Result<(), ReportError> {
        write_folder(
            tetris_arena_io::Field::PLOTS,
            folder,
            is_plots_output,
            |folder| self.write_plots_into(folder),
        )?;
        announce_written("plots", folder);
        Ok(())
    }

    /// [`TournamentReport::write_plots`] into the empty folder `folder`.
    fn write_plots_into(&self, folder: &Path) -> Result<(), ReportError> {
        let settings = self.settings;
        plots::write_tournament_plots(folder, &settings.names, &self.game_lines())?;
        for (index, name) in settings.names.iter().enumerate() {
            let merged = self.merged_statistics(index);
            let strategy_folder = folder.join(strategy_folder_name(name));
            std::fs::create_dir_all(&strategy_folder)
                .map_err(|error| ReportError::io(strategy_folder.display().to_string(), &error))?;
            plots::write_statistics_plots(&strategy_folder, &merged)?;
        }
        Ok(())
    }

    /// The settings as the report's first lines, each a name and its value: the run
    /// (`Tournament`), `Seeds`, `Preview`, `Game over`, `Score` and, for an interrupted run,
    /// `INTERRUPTED`.
    pub(crate) fn settings_lines(&self) -> Vec<(&'static str, String)> {
        let rules = self.settings;
        let cap = match rules.max_pieces {
            Some(cap) => format!("piece cap {cap}"),
            None => "no piece cap".to_string(),
        };
        let mut lines = vec![
            (
                "Tournament",
                format!(
                    "{} strategies x {} games on {}, generator {}, board 10 x {}, {cap}",
                    rules.specs.len(),
                    rules.games,
                    if rules.generator.deals_after_placement() {
                        "the same seeds"
                    } else {
                        "identical sequences"
                    },
                    rules.generator,
                    rules.board_height,
                ),
            ),
            ("Seeds", rules.seed_rule()),
            ("Preview", preview_rule(&rules.generator).to_string()),
            ("Game over", game_over_rule_text(rules.game_over_rule)),
            ("Score", SCORE_RULE.to_string()),
        ];
        let engines: Vec<String> = rules
            .names
            .iter()
            .zip(&rules.engines)
            .filter_map(|(name, engine)| Some(format!("{name} is {}", engine.as_ref()?.name)))
            .collect();
        if !engines.is_empty() {
            lines.push((
                "Outside engines",
                format!(
                    "{} (as each names itself); their results are only as repeatable as they are",
                    engines.join("; ")
                ),
            ));
        }
        if self.run.end.interrupted {
            lines.push((
                "INTERRUPTED",
                format!(
                    "{} of {} games finished; the statistics cover those",
                    self.games_finished(),
                    rules.total_games()
                ),
            ));
        }
        lines
    }

    /// The per-strategy table as text, and under it a line for each strategy whose games an
    /// outside engine's fault ended.
    fn summary_table(&self) -> String {
        let mut text = aligned(&self.summary_rows());
        for (index, summary) in self.analysis.summaries.iter().enumerate() {
            if let Some(first) = &summary.first_fault {
                text.push_str(&format!(
                    "{}: {} of {} games ended by the engine's fault (first: game {}: {})\n",
                    self.settings.names[index],
                    summary.faults,
                    summary.games,
                    first.game,
                    first.reason
                ));
            }
        }
        text
    }

    /// The per-strategy table, header first.
    pub(crate) fn summary_rows(&self) -> Vec<Vec<String>> {
        let header = [
            "strategy",
            "depth",
            "games",
            "mean lines",
            "SE",
            "95% interval",
            "median",
            "min",
            "max",
            "mean pieces",
            "mean score",
            "tetris share",
            "capped",
            "pieces/s",
        ];
        let mut table: Vec<Vec<String>> =
            vec![header.iter().map(|cell| cell.to_string()).collect()];
        for (index, summary) in self.analysis.summaries.iter().enumerate() {
            let lines = summary.lines;
            table.push(vec![
                self.settings.names[index].clone(),
                self.settings.depth(index).to_string(),
                summary.games.to_string(),
                optional(lines.map(|lines| lines.mean), 1),
                optional(lines.and_then(|lines| lines.standard_error), 1),
                match lines.and_then(|lines| lines.interval_95) {
                    Some((low, high)) => format!("[{low:.1}, {high:.1}]"),
                    None => "-".to_string(),
                },
                optional(lines.map(|lines| lines.median), 1),
                optional(lines.map(|lines| lines.min), 0),
                optional(lines.map(|lines| lines.max), 0),
                optional(summary.mean_pieces, 1),
                optional(summary.mean_score, 0),
                match summary.tetris_share {
                    Some(share) => format!("{:.1}%", 100.0 * share),
                    None => "-".to_string(),
                },
                summary.capped.to_string(),
                optional(summary.pieces_per_second(), 0),
            ]);
        }
        table
    }

    /// The comparison of strategy `row` with strategy `column` (`None` on the diagonal):
    /// the sequences on which row outlasted column, those on which column outlasted row, and
    /// the sign test's two-sided p-value.
    pub(crate) fn pairwise_cell(&self, row: usize, column: usize) -> Option<(u64, u64, f64)> {
        let pair =
            self.analysis.pairs.iter().find(|pair| {
                (pair.a, pair.b) == (row, column) || (pair.a, pair.b) == (column, row)
            })?;
        Some(if pair.a == row {
            (pair.a_outlasted, pair.b_outlasted, pair.p_value)
        } else {
            (pair.b_outlasted, pair.a_outlasted, pair.p_value)
        })
    }

    /// The pairwise matrix: row outlasted column on W sequences and lost L.
    fn pairwise_matrix(&self) -> String {
        let names = &self.settings.names;
        let strategies = names.len();
        let mut table: Vec<Vec<String>> = Vec::with_capacity(strategies + 1);
        let mut header = vec!["outlasted (W-L, p)".to_string()];
        header.extend(names.iter().cloned());
        table.push(header);
        for (row, name) in names.iter().enumerate() {
            let mut cells = vec![name.clone()];
            for column in 0..strategies {
                cells.push(match self.pairwise_cell(row, column) {
                    None => "-".to_string(),
                    Some((wins, losses, p_value)) => {
                        format!("{wins}-{losses} p={}", format_p_value(p_value))
                    }
                });
            }
            table.push(cells);
        }
        let mut text = format!(
            "Pairwise: the row strategy outlasted the column strategy on W of the identical \
             sequences and was outlasted on L (ties = sequences - W - L); p = two-sided exact \
             sign test.\n({OUTLAST_RULE}.)\n"
        );
        text.push_str(&aligned(&table));
        text
    }
}

impl RunReport for TournamentReport<'_> {
    /// The whole result as JSON text (the games are always in it).
    fn json(&self, _with_games: bool) -> String {
        let settings = self.settings;
        let names = &settings.names;
        let strategies = settings
            .specs
            .iter()
            .zip(names)
            .enumerate()
            .map(|(index, (spec, name))| StrategyJson {
                name,
                searcher: &spec.searcher,
                evaluator: &spec.evaluator,
                weights: match &spec.weights {
                    WeightsChoice::Default => WeightsJson::Default,
                    WeightsChoice::Preset(name) => WeightsJson::Preset { name },
                    WeightsChoice::File(path) => WeightsJson::File { path },
                    WeightsChoice::Tuned => WeightsJson::Tuned,
                },
                depth: settings.depth(index),
                engine: settings
                    .engines
                    .get(index)
                    .and_then(Option::as_ref)
                    .map(|engine| engine.name.as_str()),
            })
            .collect();
        let summaries = &self.analysis.summaries;
        let estimates = self.estimates();
        let wall_seconds = self.run.end.wall.as_secs_f64();
        let all_pieces: u64 = summaries.iter().map(|summary| summary.total_pieces).sum();
        let report = ReportJson {
            settings: SettingsJson {
                strategies,
                games: settings.games,
                seed: settings.seed,
                seed_rule: settings.seed_rule(),
                generator: settings.generator.to_string(),
                board_width: 10,
                board_height: settings.board_height.get(),
                max_pieces: settings.max_pieces.map(|cap| cap.get()),
                game_over: settings.game_over_rule,
                game_over_rule: game_over_rule_text(settings.game_over_rule),
                preview_rule: preview_rule(&settings.generator),
                score_rule: SCORE_RULE,
                outlast_rule: OUTLAST_RULE,
                tetris_share_rule: TETRIS_SHARE_RULE,
                interval_rule: INTERVAL_RULE,
            },
            interrupted: self.run.end.interrupted,
            games_finished: self.games_finished(),
            games_planned: settings.total_games(),
            games: self
                .run
                .games
                .as_ref()
                .map(|games| games.iter().map(|row| self.game_row(row, false)).collect()),
            games_left_out: self
                .run
                .games
                .is_none()
                .then(|| GamesLeftOut::of(self.games_finished())),
            summary: summaries
                .iter()
                .enumerate()
                .map(|(index, summary)| SummaryJson {
                    strategy: &names[index],
                    depth: settings.depth(index),
                    games: summary.games,
                    lines: summary.lines.map(|lines| LinesJson {
                        mean: lines.mean,
                        median: lines.median,
                        min: lines.min,
                        max: lines.max,
                        standard_deviation: lines.standard_deviation,
                        standard_error: lines.standard_error,
                        interval_95: lines.interval_95.map(|(low, high)| [low, high]),
                    }),
                    mean_pieces: summary.mean_pieces,
                    mean_score: summary.mean_score,
                    total_pieces: summary.total_pieces,
                    total_lines: summary.total_lines,
                    tetrises: summary.tetrises,
                    tetris_share: summary.tetris_share,
                    capped_games: summary.capped,
                    game_over_games: summary.game_overs,
                    sequence_ended_games: summary.sequence_ends,
                    fault_games: summary.faults,
                    first_fault: summary.first_fault.as_ref(),
                    estimate: settings
                        .estimate
                        .then(|| EstimateJson::of(estimates[index].as_ref())),
                })
                .collect(),
            pairwise: self
                .analysis
                .pairs
                .iter()
                .map(|pair| PairJson {
                    a: &names[pair.a],
                    b: &names[pair.b],
                    sequences: pair.sequences,
                    a_outlasted: pair.a_outlasted,
                    b_outlasted: pair.b_outlasted,
                    ties: pair.ties,
                    p_value: pair.p_value,
                })
                .collect(),
            timing: TimingJson {
                jobs: self.run.end.jobs,
                wall_seconds,
                pieces_per_second: (wall_seconds > 0.0).then(|| all_pieces as f64 / wall_seconds),
                strategies: summaries
                    .iter()
                    .enumerate()
                    .map(|(index, summary)| StrategyTimingJson {
                        strategy: &names[index],
                        game_seconds: summary.seconds,
                        pieces_per_second: summary.pieces_per_second(),
                    })
                    .collect(),
            },
            made_by: MadeBy::current(),
        };
        pretty_json(&report)
    }

    /// The file of the games the report holds, unless the run streamed them to the file as
    /// they finished ([`TournamentGamesFile`]): a merge's games.
    fn games_file(&self, format: OutputFormat) -> Option<String> {
        let games = self
            .run
            .games
            .as_ref()
            .filter(|_| !self.run.games_streamed)?;
        let rows = |with_seconds| -> Vec<GameJson<'_>> {
            games
                .iter()
                .map(|row| self.game_row(row, with_seconds))
                .collect()
        };
        Some(games_text(
            format,
            &GAME_COLUMNS,
            || rows(true),
            || rows(false),
        ))
    }

    /// The rules, the summary table and the pairwise matrix as aligned text.
    fn text(&self) -> String {
        let mut text = String::new();
        for (name, value) in self.settings_lines() {
            text.push_str(&format!("{name}: {value}\n"));
        }
        text.push('\n');
        text.push_str(&self.summary_table());
        // With a cap, the interval is also cut at the most lines the cap allows.
        let cut = match self.settings.max_pieces {
            Some(cap) => format!(
                "cut at 0 and at {} (the most lines {} pieces can clear)",
                most_lines(cap.get()),
                cap.get()
            ),
            None => "cut at 0".to_string(),
        };
        text.push_str(&format!(
            "Lines: 95% interval by Student t, {cut}; Tetris share = rows cleared by Tetrises / \
             all rows; pieces/s per thread of game time.\nWall time {:.2} s with {} jobs.\n\n",
            self.run.end.wall.as_secs_f64(),
            self.run.end.jobs
        ));
        if self.settings.estimate {
            text.push_str(&self.estimate_text());
            text.push('\n');
        }
        if !self.analysis.pairs.is_empty() {
            text.push_str(&self.pairwise_matrix());
        }
        text
    }
}
/// The folder of a strategy's plots in a `--plots` folder: its canonical name with every
/// character other than letters, digits, `-` and `.` replaced by `_`.
fn strategy_folder_name(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Whether `entry` is an output of `--plots`: `lines_per_game.svg`, or a strategy's
/// folder holding only statistics plots (of any strategy: a rerun with other strategies
/// replaces the folder too).
pub fn is_plots_output(entry: &Path) -> bool {
    if entry.is_file() {
        return entry.ends_with("lines_per_game.svg");
    }
    entry.is_dir()
        && std::fs::read_dir(entry).is_ok_and(|files| {
            files.flatten().all(|file| {
                file.path().is_file()
                    && plots::STATISTICS_PLOT_FILES
                        .iter()
                        .any(|plot| file.file_name() == *plot)
            })
        })
}

/// The columns of a tournament's CSV of games: one row per game per strategy, sorted by
/// (strategy, game); `seconds` is the only timing column.
const GAME_COLUMNS: [&str; 12] = [
    "strategy", "game", "seed", "pieces", "lines", "score", "singles", "doubles", "triples",
    "tetrises", "end", "seconds",
];

/// A tournament's file of games (`--out FILE.csv` or `FILE.jsonl`), written as the games
/// finish, one group of rows per strategy ([`GamesFile`]).
pub struct TournamentGamesFile {
    names: Vec<String>,
    file: GamesFile,
}

impl TournamentGamesFile {
    /// Starts the file `path` in `format` of a tournament of the strategies `names`.
    pub fn create(
        path: &Path,
        format: OutputFormat,
        names: &[String],
    ) -> Result<TournamentGamesFile, ReportError> {
        Ok(TournamentGamesFile {
            names: names.to_vec(),
            file: GamesFile::create(path, format, &GAME_COLUMNS, names.len())?,
        })
    }

    /// Writes one finished game.
    pub fn write(&mut self, row: &GameRow) -> Result<(), ReportError> {
        let names = &self.names;
        self.file.write(
            row.strategy,
            || game_json(names, row, true),
            || game_json(names, row, false),
        )
    }

    /// Puts the file in place.
    pub fn commit(self) -> Result<(), ReportError> {
        self.file.commit()
    }
}

/// One game's row of the report's `games` and of the CSV (`with_seconds`, which keeps the
/// game's time but not the `game_over` flag: its `end` says it).
fn game_json<'a>(names: &'a [String], row: &'a GameRow, with_seconds: bool) -> GameJson<'a> {
    GameJson {
        strategy: &names[row.strategy],
        game: row.game,
        seed: row.seed,
        pieces: row.pieces,
        lines: row.lines,
        score: row.score,
        singles: row.clears[1],
        doubles: row.clears[2],
        triples: row.clears[3],
        tetrises: row.clears[4],
        end: row.end.name(),
        fault: row.fault.as_deref().filter(|_| !with_seconds),
        game_over: (!with_seconds)
            .then_some(row.end == tetris_arena_games::sim::game::GameEnd::GameOver),
        seconds: with_seconds.then(|| format!("{:.6}", row.elapsed.as_secs_f64())),
    }
}
