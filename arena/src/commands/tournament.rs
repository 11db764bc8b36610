//! `arena tournament`: every strategy plays the same N piece sequences; a table per strategy
//! and a pairwise matrix say who is stronger, by how much, and how sure we can be.
//!
//! # Rules of a run
//!
//! - Game k (0-based) of every strategy uses seed `seed + k` with the same generator, so
//!   strategy A's game k and strategy B's game k see the same pieces in the same order (a
//!   `file:` generator ignores the seed: every game plays the file's sequence).
//! - Each game follows [`crate::game`]'s rules: an empty 10 × H board, depth d = the current
//!   piece plus d − 1 previews, game over when the current piece cannot spawn or has no
//!   placement, an optional piece cap, NES line-clear score from level 0.
//! - A outlasted B on a sequence when A cleared more lines, or as many lines with more pieces
//!   placed; equal lines and pieces is a tie, and ties are left out of the sign test.
//!
//! # Determinism
//!
//! Games are handed out in the order (game 0 of every strategy, game 1 of every strategy, …)
//! to `--jobs` workers, each with its own engines, and every result is stored at its (strategy,
//! game) place, so the rows and every statistic are bit-identical whatever `--jobs` is. Only
//! the fields under `timing` (JSON) and the `seconds` column (CSV) depend on the machine.
//!
//! # Ctrl-C
//!
//! The first Ctrl-C stops handing out games and stops the games already running after their
//! current piece (they are dropped, not counted: a half-played game is no result), then the
//! finished games are printed and written as usual with `"interrupted": true`, and the command exits
//! with an `error:` line (code 2) saying how many games finished. A second Ctrl-C quits at once
//! without writing anything (the output file, written atomically, is then left as it was).

use std::io::Write;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::{Value, json};
use tetris_core::{Board, GeneratorKind};

use crate::commands::stats::PieceStatistics;
use crate::engines::WeightsChoice;
use crate::error::ArenaError;
use crate::game::{GameEnd, GameSettings, PlayOptions, Step, play_game};
use crate::interrupt;
use crate::output::write_atomically;
use crate::stats::{Summary, sign_test_p_value};
use crate::strategy::{Strategy, StrategySpec};

/// The game-over rule, as printed and stored with the results.
const GAME_OVER_RULE: &str = "a game ends before the current piece is placed when its spawn \
    state is illegal or it has no placement left (rules.md simulation rule); also at the piece \
    cap, or when a file sequence runs out";

/// The score rule, as printed and stored with the results.
const SCORE_RULE: &str = "NES line-clear points from level 0 with NES level progression, no \
    soft-drop points, capped at 999,999";

/// The preview rule, as printed and stored with the results.
const PREVIEW_RULE: &str = "a strategy of depth d sees the current piece and d - 1 preview \
    pieces; every strategy draws the same pieces in the same order";

/// The comparison rule of the pairwise matrix, as printed and stored with the results.
const OUTLAST_RULE: &str = "A outlasted B on a sequence when A cleared more lines, or as many \
    lines with more pieces; equal lines and pieces is a tie, left out of the two-sided exact \
    sign test";

/// The Tetris share's definition, as stored with the results.
const TETRIS_SHARE_RULE: &str = "rows cleared by Tetrises (4 x Tetrises) / all rows cleared, \
    over all games of the strategy";

/// The confidence interval's definition, as stored with the results.
const INTERVAL_RULE: &str = "95% interval of mean lines: mean +/- t(0.975, games - 1) x \
    standard error (Student t)";

/// The most games per strategy: every game's row is kept in memory (about 100 bytes each).
const MAX_GAMES: u64 = 10_000_000;

/// Pieces a worker counts before it reports them to the progress bar.
const PROGRESS_PIECES: u64 = 1 << 12;

/// Options of `arena tournament`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Strategies to compare, each SEARCHER+EVALUATOR with an optional :PRESET or
    /// :weights.json and an optional @DEPTH, e.g. bfs+elashi@2 (at least one; the same
    /// strategy twice is an error).
    #[arg(required = true, value_name = "STRATEGY")]
    pub strategies: Vec<String>,
    /// Games per strategy (1 to 10,000,000): every strategy plays the same N piece sequences.
    #[arg(long, value_name = "N")]
    pub games: u64,
    /// Base seed: game k (counted from 0) uses seed S + k for every strategy.
    #[arg(long, value_name = "S")]
    pub seed: u64,
    /// Piece generator: uniform, nes, bag7, sz, java or file:PATH (a file gives every game the
    /// same sequence).
    #[arg(long, value_name = "G", default_value = "uniform")]
    pub generator: String,
    /// Stop each game after this many pieces (at least 1). Without a cap, strong strategies
    /// on 10 × 20 may never top out.
    #[arg(long, value_name = "N")]
    pub max_pieces: Option<u64>,
    /// Board rows, 4 to 32 (the width is always 10). A short field ends games sooner.
    #[arg(long, value_name = "H", default_value_t = 20)]
    pub board_height: usize,
    /// Games played at once (at least 1; default: the available cores). Results do not
    /// depend on it, only the timings do.
    #[arg(long, value_name = "J")]
    pub jobs: Option<usize>,
    /// Write the settings, every game and the summary to FILE, atomically: CSV (one row per
    /// game per strategy) if the name ends in .csv, JSON otherwise.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Write plots to DIR, created if missing: lines_per_game.svg (each strategy's
    /// distribution of lines per game) and, per strategy in DIR/<strategy>/ (non-alphanumeric
    /// characters of its name replaced by _), the `arena stats` plots of all its games:
    /// row_shares.svg, cell_heat_map.svg, full_clear_intervals.svg.
    #[arg(long, value_name = "DIR")]
    pub plots: Option<PathBuf>,
    /// Print the results as JSON on stdout instead of the tables.
    #[arg(long)]
    pub json: bool,
}

/// Runs `arena tournament`.
pub fn run(args: Args) -> Result<(), ArenaError> {
    let rules = Rules::from_args(&args)?;
    let jobs = super::job_count(args.jobs)?;
    if let Some(path) = &args.out {
        check_output_folder(path)?;
    }
    interrupt::install();
    let played = play_all(&rules, jobs)?;
    if let Some(folder) = &args.plots {
        let games = played.rows.iter().map(|row| (row.strategy, row.lines));
        crate::plots::write_tournament_plots(folder, &rules.names, games)?;
        write_strategy_plots(folder, &rules, &played)?;
    }
    let report = Report::new(&rules, &played);
    let json = report.to_json();
    if let Some(path) = &args.out {
        let contents = if is_csv(path) {
            report.to_csv()
        } else {
            let mut text = serde_json::to_string_pretty(&json).expect("results serialize");
            text.push('\n');
            text
        };
        write_atomically(path, contents.as_bytes())?;
    }
    let printed = if args.json {
        let mut text = serde_json::to_string_pretty(&json).expect("results serialize");
        text.push('\n');
        text
    } else {
        report.to_text()
    };
    print_to_stdout(&printed)?;
    if played.interrupted {
        return Err(ArenaError::Usage(format!(
            "interrupted by Ctrl-C: {} of {} games finished; those were {}",
            played.rows.len(),
            rules.total_games(),
            match &args.out {
                Some(path) => format!("printed and written to {}", path.display()),
                None => "printed".to_string(),
            }
        )));
    }
    Ok(())
}

/// Everything that decides the games of a run (the settings stored with the results).
struct Rules {
    /// The strategies, in command-line order.
    specs: Vec<StrategySpec>,
    /// Their canonical names.
    names: Vec<String>,
    /// Games per strategy.
    games: u64,
    /// Game k uses `seed + k`.
    seed: u64,
    /// The piece generator.
    generator: GeneratorKind,
    /// The piece cap.
    max_pieces: Option<u64>,
    /// Board rows.
    board_height: u8,
    /// Record per-piece statistics of every game (for `--plots`).
    piece_statistics: bool,
}

impl Rules {
    /// Checks every option before any game starts, so a bad name fails at once.
    fn from_args(args: &Args) -> Result<Rules, ArenaError> {
        if !(1..=MAX_GAMES).contains(&args.games) {
            return Err(ArenaError::Usage(format!(
                "--games must be from 1 to {MAX_GAMES}"
            )));
        }
        if args.max_pieces == Some(0) {
            return Err(ArenaError::Usage("--max-pieces must be at least 1".into()));
        }
        Board::new(args.board_height)?;
        let board_height = args.board_height as u8;
        let generator: GeneratorKind = args.generator.parse()?;
        // Reads and checks a piece file now rather than in every game.
        generator.start(args.seed)?;
        if args.seed.checked_add(args.games - 1).is_none() {
            return Err(ArenaError::Usage(format!(
                "--seed {} + {} games overflows a 64-bit seed",
                args.seed, args.games
            )));
        }
        let mut specs: Vec<StrategySpec> = Vec::with_capacity(args.strategies.len());
        let mut names: Vec<String> = Vec::with_capacity(args.strategies.len());
        for text in &args.strategies {
            let spec: StrategySpec = text.parse()?;
            // Builds the engines once to reject unknown presets and bad weights files now.
            Strategy::new(spec.clone())?;
            let name = spec.to_string();
            if names.contains(&name) {
                return Err(ArenaError::Usage(format!(
                    "strategy {name} is listed twice: a strategy compared with itself tells \
                     nothing"
                )));
            }
            names.push(name);
            specs.push(spec);
        }
        Ok(Rules {
            specs,
            names,
            games: args.games,
            seed: args.seed,
            generator,
            max_pieces: args.max_pieces,
            board_height,
            piece_statistics: args.plots.is_some(),
        })
    }

    /// Games of the whole run (strategies × games).
    fn total_games(&self) -> usize {
        self.specs.len() * self.games as usize
    }

    /// The settings of game `game` (the same for every strategy).
    fn game_settings(&self, game: u64) -> GameSettings {
        GameSettings {
            board_height: self.board_height,
            generator: self.generator.clone(),
            seed: self.seed + game,
            max_pieces: self.max_pieces,
        }
    }

    /// How the seeds are derived, in words.
    fn seed_rule(&self) -> String {
        if self.generator.is_seeded() {
            format!(
                "game k (0-based) uses seed {} + k for every strategy (seeds {}..={})",
                self.seed,
                self.seed,
                self.seed + (self.games - 1)
            )
        } else {
            "the file generator ignores the seed: every game plays the same sequence".to_string()
        }
    }
}

/// One finished game.
#[derive(Clone, Debug)]
struct GameRow {
    /// Index of the strategy in [`Rules::specs`].
    strategy: usize,
    /// Game index (0-based).
    game: u64,
    /// The generator's seed.
    seed: u64,
    /// Pieces placed.
    pieces: u64,
    /// Rows cleared.
    lines: u64,
    /// NES score.
    score: u32,
    /// `clears[n]` = placements that cleared n rows.
    clears: [u64; 5],
    /// Why the game stopped.
    end: GameEnd,
    /// Wall-clock time of the game (timing only).
    elapsed: Duration,
    /// The game's per-piece statistics, when `--plots` asks for them.
    statistics: Option<Box<PieceStatistics>>,
}

/// The finished games of a run.
struct Played {
    /// Finished games sorted by (strategy, game).
    rows: Vec<GameRow>,
    /// Whether Ctrl-C stopped the run early.
    interrupted: bool,
    /// Workers used.
    jobs: usize,
    /// Wall-clock time of the whole run.
    wall: Duration,
}

/// The progress bar and the counters behind its message.
struct Progress {
    /// Games done out of all games; hidden when stderr is not a terminal.
    bar: ProgressBar,
    /// Pieces placed so far by all workers (reported in chunks).
    pieces: AtomicU64,
    /// When the run started.
    start: Instant,
}

impl Progress {
    /// A bar for `total` games on stderr.
    fn new(total: usize) -> Progress {
        let bar = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template(
                "{bar:30} {pos}/{len} games, {msg}, elapsed {elapsed}, ETA {eta}",
            )
            .expect("the progress template is valid"),
        );
        Progress {
            bar,
            pieces: AtomicU64::new(0),
            start: Instant::now(),
        }
    }

    /// Adds `pieces` to the count and refreshes the pieces-per-second message.
    fn add_pieces(&self, pieces: u64) {
        let total = self.pieces.fetch_add(pieces, Ordering::Relaxed) + pieces;
        if self.bar.is_hidden() {
            return;
        }
        let seconds = self.start.elapsed().as_secs_f64().max(1e-9);
        self.bar
            .set_message(format!("{:.0} pieces/s", total as f64 / seconds));
    }
}

/// Plays every (strategy, game) on `jobs` workers of a local rayon pool.
fn play_all(rules: &Rules, jobs: usize) -> Result<Played, ArenaError> {
    let total = rules.total_games();
    let strategies = rules.specs.len();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|error| ArenaError::Usage(format!("cannot start {jobs} threads: {error}")))?;
    let progress = Progress::new(total);
    let next_job = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    // Each worker pulls the next job number, so jobs start in order (game-major) and an
    // interrupted run has finished whole sequences first.
    let worker = || -> Result<Vec<GameRow>, ArenaError> {
        let mut player = Player::new(rules, &progress);
        let mut rows = Vec::new();
        loop {
            if interrupt::interrupted() || failed.load(Ordering::SeqCst) {
                break;
            }
            let job = next_job.fetch_add(1, Ordering::SeqCst);
            if job >= total {
                break;
            }
            let (game, strategy_index) = ((job / strategies) as u64, job % strategies);
            match player.play(strategy_index, game) {
                Ok(Some(row)) => rows.push(row),
                // Stopped by Ctrl-C half-way: not a result.
                Ok(None) => break,
                Err(error) => {
                    failed.store(true, Ordering::SeqCst);
                    return Err(error);
                }
            }
            progress.bar.inc(1);
        }
        Ok(rows)
    };
    let worker_results = pool.broadcast(|_| worker());
    let interrupted = interrupt::interrupted();
    progress.bar.finish_and_clear();
    let mut rows = Vec::new();
    for result in worker_results {
        rows.extend(result?);
    }
    rows.sort_by_key(|row| (row.strategy, row.game));
    Ok(Played {
        interrupted: interrupted && rows.len() < total,
        rows,
        jobs,
        wall: progress.start.elapsed(),
    })
}

/// One worker's engines: a [`Strategy`] per strategy, built when first needed and reused for
/// every later game of that strategy (a chain keeps no state from one move to the next).
struct Player<'a> {
    /// The rules of the run.
    rules: &'a Rules,
    /// Where finished pieces are counted.
    progress: &'a Progress,
    /// One slot per strategy, in command-line order.
    engines: Vec<Option<Strategy>>,
}

impl<'a> Player<'a> {
    /// A worker with no engines built yet.
    fn new(rules: &'a Rules, progress: &'a Progress) -> Player<'a> {
        Player {
            rules,
            progress,
            engines: rules.specs.iter().map(|_| None).collect(),
        }
    }

    /// Plays game `game` of strategy `strategy_index`; `None` when Ctrl-C stopped it.
    fn play(&mut self, strategy_index: usize, game: u64) -> Result<Option<GameRow>, ArenaError> {
        let rules = self.rules;
        let progress = self.progress;
        let strategy = match &mut self.engines[strategy_index] {
            Some(strategy) => strategy,
            slot => slot.insert(Strategy::new(rules.specs[strategy_index].clone())?),
        };
        let settings = rules.game_settings(game);
        let mut unreported = 0u64;
        let mut statistics = rules.piece_statistics.then(|| {
            let mut statistics = Box::new(PieceStatistics::new(rules.board_height as usize));
            statistics.start_game();
            statistics
        });
        let mut observer = |step: &Step<'_>| {
            if let Some(statistics) = statistics.as_mut() {
                statistics.record(step.placement, step.board);
            }
            unreported += 1;
            if unreported == PROGRESS_PIECES {
                progress.add_pieces(unreported);
                unreported = 0;
            }
            if interrupt::interrupted() {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        };
        let result = play_game(strategy, &settings, PlayOptions::default(), &mut observer)?;
        progress.add_pieces(result.pieces % PROGRESS_PIECES);
        if result.end == GameEnd::Stopped {
            return Ok(None);
        }
        if let Some(statistics) = statistics.as_mut() {
            statistics.game_overs += u64::from(result.end == GameEnd::GameOver);
        }
        Ok(Some(GameRow {
            strategy: strategy_index,
            game,
            seed: settings.seed,
            pieces: result.pieces,
            lines: result.lines,
            score: result.score,
            clears: result.clears,
            end: result.end,
            elapsed: result.elapsed,
            statistics,
        }))
    }
}

/// Writes each strategy's `arena stats` plots (row shares, cell heat map, full-clear
/// intervals) into `folder/<strategy>/`, from its games' statistics merged in game order (so
/// the files do not depend on `--jobs`). The folder name is the strategy's canonical name
/// with every character other than letters, digits, `-` and `.` replaced by `_`.
fn write_strategy_plots(folder: &Path, rules: &Rules, played: &Played) -> Result<(), ArenaError> {
    for (index, name) in rules.names.iter().enumerate() {
        let mut merged = PieceStatistics::new(rules.board_height as usize);
        for row in played.rows.iter().filter(|row| row.strategy == index) {
            if let Some(statistics) = &row.statistics {
                merged.merge(statistics);
            }
        }
        let safe: String = name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '.' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let strategy_folder = folder.join(safe);
        std::fs::create_dir_all(&strategy_folder)
            .map_err(|error| ArenaError::io(strategy_folder.display().to_string(), &error))?;
        crate::commands::stats::write_plots(&strategy_folder, &merged)?;
    }
    Ok(())
}

/// A strategy's summary over its finished games.
struct StrategySummary {
    /// Finished games.
    games: usize,
    /// Lines per game (`None` when no game finished).
    lines: Option<Summary>,
    /// Mean pieces per game.
    mean_pieces: Option<f64>,
    /// Mean NES score per game.
    mean_score: Option<f64>,
    /// Pieces over all games.
    total_pieces: u64,
    /// Lines over all games.
    total_lines: u64,
    /// Tetrises over all games.
    tetrises: u64,
    /// Rows cleared by Tetrises / all rows cleared (`None` when no row was cleared).
    tetris_share: Option<f64>,
    /// Games stopped by the piece cap.
    capped: usize,
    /// Games that ended by a top-out.
    game_overs: usize,
    /// Games whose file sequence ran out.
    sequence_ends: usize,
    /// Sum of the games' wall-clock times (timing only).
    seconds: f64,
}

impl StrategySummary {
    /// Summarizes `rows` (one strategy's games, in game order).
    fn new(rows: &[&GameRow]) -> StrategySummary {
        let lines: Vec<f64> = rows.iter().map(|row| row.lines as f64).collect();
        let pieces: Vec<f64> = rows.iter().map(|row| row.pieces as f64).collect();
        let scores: Vec<f64> = rows.iter().map(|row| f64::from(row.score)).collect();
        let total_lines: u64 = rows.iter().map(|row| row.lines).sum();
        let tetrises: u64 = rows.iter().map(|row| row.clears[4]).sum();
        let count_end = |end: GameEnd| rows.iter().filter(|row| row.end == end).count();
        StrategySummary {
            games: rows.len(),
            lines: Summary::of(&lines),
            mean_pieces: crate::stats::mean(&pieces),
            mean_score: crate::stats::mean(&scores),
            total_pieces: rows.iter().map(|row| row.pieces).sum(),
            total_lines,
            tetrises,
            tetris_share: (total_lines > 0).then(|| (4 * tetrises) as f64 / total_lines as f64),
            capped: count_end(GameEnd::PieceCap),
            game_overs: count_end(GameEnd::GameOver),
            sequence_ends: count_end(GameEnd::SequenceEnded),
            seconds: rows.iter().map(|row| row.elapsed.as_secs_f64()).sum(),
        }
    }

    /// Pieces per second of game time (one thread), the strategy's speed.
    fn pieces_per_second(&self) -> Option<f64> {
        (self.seconds > 0.0).then(|| self.total_pieces as f64 / self.seconds)
    }
}

/// A against B on the sequences both finished.
struct PairResult {
    /// Index of A.
    a: usize,
    /// Index of B.
    b: usize,
    /// Sequences both finished.
    sequences: u64,
    /// Sequences where A outlasted B.
    a_outlasted: u64,
    /// Sequences where B outlasted A.
    b_outlasted: u64,
    /// Equal lines and pieces.
    ties: u64,
    /// Two-sided exact sign test on the untied sequences.
    p_value: f64,
}

/// The statistics of a run.
struct Report<'a> {
    /// The rules.
    rules: &'a Rules,
    /// The finished games.
    played: &'a Played,
    /// One summary per strategy, in command-line order.
    summaries: Vec<StrategySummary>,
    /// Every pair (a < b) in command-line order.
    pairs: Vec<PairResult>,
}

impl<'a> Report<'a> {
    /// Computes the summaries and the pairwise comparisons.
    fn new(rules: &'a Rules, played: &'a Played) -> Report<'a> {
        let strategies = rules.specs.len();
        // by_game[s][k]: strategy s's game k, if it finished.
        let mut by_game: Vec<Vec<Option<&GameRow>>> =
            vec![vec![None; rules.games as usize]; strategies];
        for row in &played.rows {
            by_game[row.strategy][row.game as usize] = Some(row);
        }
        let summaries = by_game
            .iter()
            .map(|games| {
                let rows: Vec<&GameRow> = games.iter().flatten().copied().collect();
                StrategySummary::new(&rows)
            })
            .collect();
        let mut pairs = Vec::new();
        for a in 0..strategies {
            for b in a + 1..strategies {
                let mut pair = PairResult {
                    a,
                    b,
                    sequences: 0,
                    a_outlasted: 0,
                    b_outlasted: 0,
                    ties: 0,
                    p_value: 1.0,
                };
                for (game_a, game_b) in by_game[a].iter().zip(&by_game[b]) {
                    let (Some(game_a), Some(game_b)) = (game_a, game_b) else {
                        continue;
                    };
                    pair.sequences += 1;
                    let outcome_a = (game_a.lines, game_a.pieces);
                    let outcome_b = (game_b.lines, game_b.pieces);
                    match outcome_a.cmp(&outcome_b) {
                        std::cmp::Ordering::Greater => pair.a_outlasted += 1,
                        std::cmp::Ordering::Less => pair.b_outlasted += 1,
                        std::cmp::Ordering::Equal => pair.ties += 1,
                    }
                }
                pair.p_value = sign_test_p_value(pair.a_outlasted, pair.b_outlasted);
                pairs.push(pair);
            }
        }
        Report {
            rules,
            played,
            summaries,
            pairs,
        }
    }

    /// The settings object stored with the results.
    fn settings_json(&self) -> Value {
        let rules = self.rules;
        let strategies: Vec<Value> = rules
            .specs
            .iter()
            .map(|spec| {
                let weights = match &spec.weights {
                    WeightsChoice::Default => json!({"kind": "default"}),
                    WeightsChoice::Preset(name) => json!({"kind": "preset", "name": name}),
                    WeightsChoice::File(path) => json!({"kind": "file", "path": path}),
                };
                json!({
                    "name": spec.to_string(),
                    "searcher": spec.searcher,
                    "evaluator": spec.evaluator,
                    "weights": weights,
                    "depth": spec.depth,
                })
            })
            .collect();
        json!({
            "strategies": strategies,
            "games": rules.games,
            "seed": rules.seed,
            "seed_rule": rules.seed_rule(),
            "generator": rules.generator.to_string(),
            "board_width": 10,
            "board_height": rules.board_height,
            "max_pieces": rules.max_pieces,
            "game_over_rule": GAME_OVER_RULE,
            "preview_rule": PREVIEW_RULE,
            "score_rule": SCORE_RULE,
            "outlast_rule": OUTLAST_RULE,
            "tetris_share_rule": TETRIS_SHARE_RULE,
            "interval_rule": INTERVAL_RULE,
        })
    }

    /// The whole result: settings, rows, summary, pairwise, and the timings kept apart.
    fn to_json(&self) -> Value {
        let names = &self.rules.names;
        let games: Vec<Value> = self
            .played
            .rows
            .iter()
            .map(|row| {
                json!({
                    "strategy": names[row.strategy],
                    "game": row.game,
                    "seed": row.seed,
                    "pieces": row.pieces,
                    "lines": row.lines,
                    "score": row.score,
                    "singles": row.clears[1],
                    "doubles": row.clears[2],
                    "triples": row.clears[3],
                    "tetrises": row.clears[4],
                    "end": row.end.name(),
                    "game_over": row.end == GameEnd::GameOver,
                })
            })
            .collect();
        let summary: Vec<Value> = self
            .summaries
            .iter()
            .enumerate()
            .map(|(index, summary)| {
                let lines = summary.lines.map(|lines| {
                    json!({
                        "mean": lines.mean,
                        "median": lines.median,
                        "min": lines.min,
                        "max": lines.max,
                        "standard_deviation": lines.standard_deviation,
                        "standard_error": lines.standard_error,
                        "interval_95": lines.interval_95.map(|(low, high)| [low, high]),
                    })
                });
                json!({
                    "strategy": names[index],
                    "depth": self.rules.specs[index].depth,
                    "games": summary.games,
                    "lines": lines,
                    "mean_pieces": summary.mean_pieces,
                    "mean_score": summary.mean_score,
                    "total_pieces": summary.total_pieces,
                    "total_lines": summary.total_lines,
                    "tetrises": summary.tetrises,
                    "tetris_share": summary.tetris_share,
                    "capped_games": summary.capped,
                    "game_over_games": summary.game_overs,
                    "sequence_ended_games": summary.sequence_ends,
                })
            })
            .collect();
        let pairwise: Vec<Value> = self
            .pairs
            .iter()
            .map(|pair| {
                json!({
                    "a": names[pair.a],
                    "b": names[pair.b],
                    "sequences": pair.sequences,
                    "a_outlasted": pair.a_outlasted,
                    "b_outlasted": pair.b_outlasted,
                    "ties": pair.ties,
                    "p_value": pair.p_value,
                })
            })
            .collect();
        let timing_per_strategy: Vec<Value> = self
            .summaries
            .iter()
            .enumerate()
            .map(|(index, summary)| {
                json!({
                    "strategy": names[index],
                    "game_seconds": summary.seconds,
                    "pieces_per_second": summary.pieces_per_second(),
                })
            })
            .collect();
        let wall_seconds = self.played.wall.as_secs_f64();
        let all_pieces: u64 = self
            .summaries
            .iter()
            .map(|summary| summary.total_pieces)
            .sum();
        json!({
            "settings": self.settings_json(),
            "interrupted": self.played.interrupted,
            "games_finished": self.played.rows.len(),
            "games_planned": self.rules.total_games(),
            "games": games,
            "summary": summary,
            "pairwise": pairwise,
            "timing": {
                "jobs": self.played.jobs,
                "wall_seconds": wall_seconds,
                "pieces_per_second": (wall_seconds > 0.0).then(|| all_pieces as f64 / wall_seconds),
                "strategies": timing_per_strategy,
            },
        })
    }

    /// One CSV row per game per strategy, with a header; `seconds` is the only timing column.
    fn to_csv(&self) -> String {
        let mut text = String::from(
            "strategy,game,seed,pieces,lines,score,singles,doubles,triples,tetrises,end,seconds\n",
        );
        for row in &self.played.rows {
            text.push_str(&format!(
                "{},{},{},{},{},{},{},{},{},{},{},{:.6}\n",
                csv_field(&self.rules.names[row.strategy]),
                row.game,
                row.seed,
                row.pieces,
                row.lines,
                row.score,
                row.clears[1],
                row.clears[2],
                row.clears[3],
                row.clears[4],
                row.end.name(),
                row.elapsed.as_secs_f64(),
            ));
        }
        text
    }

    /// The rules, the summary table and the pairwise matrix as aligned text.
    fn to_text(&self) -> String {
        let rules = self.rules;
        let mut text = String::new();
        let cap = match rules.max_pieces {
            Some(cap) => format!("piece cap {cap}"),
            None => "no piece cap".to_string(),
        };
        text.push_str(&format!(
            "Tournament: {} strategies x {} games on identical sequences, generator {}, board \
             10 x {}, {cap}\n",
            rules.specs.len(),
            rules.games,
            rules.generator,
            rules.board_height,
        ));
        text.push_str(&format!("Seeds: {}\n", rules.seed_rule()));
        text.push_str(&format!("Preview: {PREVIEW_RULE}\n"));
        text.push_str(&format!("Game over: {GAME_OVER_RULE}\n"));
        text.push_str(&format!("Score: {SCORE_RULE}\n"));
        if self.played.interrupted {
            text.push_str(&format!(
                "INTERRUPTED: {} of {} games finished; the statistics cover those\n",
                self.played.rows.len(),
                rules.total_games()
            ));
        }
        text.push('\n');
        text.push_str(&self.summary_table());
        text.push_str(&format!(
            "Lines: 95% interval by Student t; Tetris share = rows cleared by Tetrises / all \
             rows; pieces/s per thread of game time.\nWall time {:.2} s with {} jobs.\n\n",
            self.played.wall.as_secs_f64(),
            self.played.jobs
        ));
        if !self.pairs.is_empty() {
            text.push_str(&self.pairwise_matrix());
        }
        text
    }

    /// The per-strategy table.
    fn summary_table(&self) -> String {
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
        for (index, summary) in self.summaries.iter().enumerate() {
            let optional = |value: Option<f64>, decimals: usize| match value {
                Some(value) => format!("{value:.decimals$}"),
                None => "-".to_string(),
            };
            let lines = summary.lines;
            table.push(vec![
                self.rules.names[index].clone(),
                self.rules.specs[index].depth.to_string(),
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
        aligned(&table)
    }

    /// The pairwise matrix: row outlasted column on W sequences and lost L.
    fn pairwise_matrix(&self) -> String {
        let names = &self.rules.names;
        let strategies = names.len();
        let mut table: Vec<Vec<String>> = Vec::with_capacity(strategies + 1);
        let mut header = vec!["outlasted (W-L, p)".to_string()];
        header.extend(names.iter().cloned());
        table.push(header);
        for (row, name) in names.iter().enumerate() {
            let mut cells = vec![name.clone()];
            for column in 0..strategies {
                let pair = self.pairs.iter().find(|pair| {
                    (pair.a, pair.b) == (row, column) || (pair.a, pair.b) == (column, row)
                });
                cells.push(match pair {
                    None => "-".to_string(),
                    Some(pair) => {
                        let (wins, losses) = if pair.a == row {
                            (pair.a_outlasted, pair.b_outlasted)
                        } else {
                            (pair.b_outlasted, pair.a_outlasted)
                        };
                        format!("{wins}-{losses} p={}", format_p_value(pair.p_value))
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

/// A p-value with three significant digits.
fn format_p_value(p_value: f64) -> String {
    if p_value == 0.0 || p_value >= 0.001 {
        format!("{p_value:.3}")
    } else {
        format!("{p_value:.2e}")
    }
}

/// Columns padded to their widest cell: the first left-aligned, the others right-aligned.
fn aligned(table: &[Vec<String>]) -> String {
    let columns = table.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|column| {
            table
                .iter()
                .filter_map(|row| row.get(column))
                .map(|cell| cell.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut text = String::new();
    for row in table {
        let mut line = String::new();
        for (column, cell) in row.iter().enumerate() {
            if column == 0 {
                line.push_str(&format!("{cell:<width$}", width = widths[0]));
            } else {
                line.push_str(&format!("  {cell:>width$}", width = widths[column]));
            }
        }
        text.push_str(line.trim_end());
        text.push('\n');
    }
    text
}

/// Writes `text` to stdout; a reader that closed the pipe early (`| head`) is not an error.
fn print_to_stdout(text: &str) -> Result<(), ArenaError> {
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Err(error) if error.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(ArenaError::io("stdout", &error))
        }
        _ => Ok(()),
    }
}

/// A CSV field, quoted when it holds a comma, a quote or a line break.
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// Whether `--out` names a CSV file (by its extension, in any case).
fn is_csv(path: &Path) -> bool {
    path.extension()
        .is_some_and(|extension| extension.eq_ignore_ascii_case("csv"))
}

/// Fails before any game is played when the output file's folder does not exist.
fn check_output_folder(path: &Path) -> Result<(), ArenaError> {
    if path.file_name().is_none() {
        return Err(ArenaError::Usage(format!(
            "--out {}: not a file name",
            path.display()
        )));
    }
    let folder = match path.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder,
        _ => Path::new("."),
    };
    if !folder.is_dir() {
        return Err(ArenaError::Io {
            path: path.display().to_string(),
            message: format!("folder {} does not exist", folder.display()),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_fields_are_quoted_only_when_needed() {
        assert_eq!(csv_field("bfs+elashi@2"), "bfs+elashi@2");
        assert_eq!(csv_field("bfs+elashi:a,b.json"), "\"bfs+elashi:a,b.json\"");
        assert_eq!(csv_field("x\"y"), "\"x\"\"y\"");
    }

    #[test]
    fn p_values_print_with_three_significant_digits() {
        assert_eq!(format_p_value(1.0), "1.000");
        assert_eq!(format_p_value(0.041_389_465_332_031_25), "0.041");
        assert_eq!(format_p_value(0.001_953_125), "0.002");
        assert_eq!(format_p_value(0.000_123_4), "1.23e-4");
        assert_eq!(format_p_value(0.0), "0.000");
    }

    #[test]
    fn csv_is_chosen_by_extension() {
        assert!(is_csv(Path::new("results.csv")));
        assert!(is_csv(Path::new("dir/results.CSV")));
        assert!(!is_csv(Path::new("results.json")));
        assert!(!is_csv(Path::new("csv")));
    }
}
