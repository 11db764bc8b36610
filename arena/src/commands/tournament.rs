//! `arena tournament`: every strategy plays the same N piece sequences; a table per strategy
//! and a pairwise matrix say who is stronger, by how much, and how sure we can be.
//!
//! The games are [`crate::run::tournament`]'s, on the arena's runner: results are
//! bit-identical whatever `--jobs` is; only the `timing` object (JSON) and the `seconds`
//! column (CSV) depend on the machine. The statistics are [`crate::analysis::tournament`]'s,
//! the output [`crate::report::tournament`]'s.
//!
//! The first Ctrl-C stops handing out games and stops the games already running after their
//! current piece (they are dropped, not counted: a half-played game is no result), then the
//! finished games are printed and written as usual with `"interrupted": true`, and the command
//! exits with an `error:` line (code 2) saying how many games finished. A second Ctrl-C quits
//! at once without writing anything (the output file, written atomically, is then left as it
//! was).

use std::path::PathBuf;

use tetris_core::{Board, GeneratorKind};
use tetris_registry::{Strategy, StrategySpec};

use crate::error::ArenaError;
use crate::input::game_over_rule;
use crate::report::output::{check_output_file, check_output_folder, write_atomically};
use crate::report::parts::{RunDelivery, tournament_part, write_part};
use crate::report::tournament::TournamentReport;
use crate::report::tournament::is_plots_output;
use crate::run::shard::{ShardTasks, run_shard_tasks};
use crate::run::tournament::{TournamentSettings, play_tournament_game};
use crate::run::{self, Progress, interrupt};

/// Options of `arena tournament`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Strategies to compare, each SEARCHER+EVALUATOR with an optional :PRESET or
    /// :weights.json, optional ,OPTIONs and an optional @DEPTH, e.g. bfs+elashi@2 or
    /// drop+dellacherie,no-suicide (at least one; the same strategy twice is an error).
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
    /// When a game is over, for every strategy: `simulation` (the next piece cannot spawn) or
    /// `literature` (a piece lands with a cell above row 0). Default: the searchers' (drop:
    /// literature; the others: simulation); strategies whose defaults differ need it.
    #[arg(long, value_name = "RULE")]
    pub game_over: Option<String>,
    /// Games played at once, 1 to 256 (default: the available cores); never more threads
    /// than games. Results do not depend on it, only the timings do.
    #[arg(long, value_name = "J")]
    pub jobs: Option<usize>,
    /// Write the settings, every game and the summary to FILE, atomically: FILE.csv (one row
    /// per game per strategy) or FILE.json (everything).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Write plots to DIR, created if missing: lines_per_game.svg (each strategy's
    /// distribution of lines per game) and, per strategy in DIR/<strategy>/ (non-alphanumeric
    /// characters of its name replaced by _), the `arena stats` plots of all its games:
    /// row_shares.svg (rows of the pieces' top cells), cell_heat_map.svg,
    /// full_clear_intervals.svg, column_shares.svg. DIR is replaced as a whole (written
    /// beside it, then swapped in), so it must hold only these; a killed run leaves the old
    /// DIR.
    #[arg(long, value_name = "DIR")]
    pub plots: Option<PathBuf>,
    /// Write the report to OUT.html as one self-contained page (no network access needed):
    /// the settings, the summary table, the pairwise matrix coloured by the sign test, the
    /// lines-per-game chart and each strategy's `--plots` plots, inline. Not with --shard:
    /// a shard is no report.
    #[arg(long, value_name = "OUT.html")]
    pub html: Option<PathBuf>,
    /// Print the results as JSON on stdout instead of the tables.
    #[arg(long)]
    pub json: bool,
    /// Beside each strategy's measured mean, the expected lines per game estimated from where
    /// its pieces lock (the `arena stats` fit over all of its games' pieces): for games too
    /// long to play many of, e.g. the literature's uncapped games on 10 x 20.
    #[arg(long)]
    pub estimate: bool,
    /// Play only shard K of N (0 <= K < N, counted from 0): the games g with g % N = K, every
    /// strategy's, with the seeds of the whole run; needs --out PART.json, where the shard's
    /// partial result is written instead of the report (with --plots it records what the
    /// plots need; nothing is written to DIR). `arena merge` of the N parts prints and writes
    /// exactly what the unsharded run would.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
}

/// Runs `arena tournament`.
pub fn run(args: Args) -> Result<(), ArenaError> {
    let (settings, strategies) = check(&args)?;
    if let Some(path) = &args.html {
        if args.shard.is_some() {
            return Err(ArenaError::Usage(
                "--html needs the whole run: a shard writes a partial result, not a report".into(),
            ));
        }
        // Fail now rather than after the games.
        check_output_file("--html", path)?;
    }
    if let Some(folder) = &args.plots {
        if args.shard.is_none() {
            check_output_folder("--plots", folder, is_plots_output)?;
        }
    }
    let jobs = run::job_count(args.jobs)?;
    let (shard, delivery) = RunDelivery::check(
        args.shard.as_deref(),
        settings.games,
        args.out.as_deref(),
        args.json,
    )?;
    interrupt::install();
    let per_game = settings.specs.len() as u64;
    let total = shard.game_count(settings.games) * per_game;
    let progress = Progress::games_and_speed(total);
    let finished = run_shard_tasks(
        ShardTasks {
            shard,
            games: settings.games,
            tasks_per_game: per_game,
        },
        jobs,
        &progress,
        || Ok(strategies.clone()),
        |strategies, task| play_tournament_game(strategies, &settings, task, &progress),
    )?;
    let destination = match delivery {
        RunDelivery::Part(path) => {
            let part = tournament_part(&settings, shard, &finished);
            return write_part(&part, &path, &finished);
        }
        RunDelivery::Report(destination) => destination,
    };
    let report = TournamentReport::new(&settings, finished);
    if let Some(folder) = &args.plots {
        report.write_plots(folder)?;
    }
    if let Some(path) = &args.html {
        write_atomically(path, report.html()?.as_bytes())?;
    }
    destination.deliver(&report)?;
    interrupt::finished_or_error(
        report.finished.interrupted,
        report.finished.results.len(),
        total,
        args.out.as_deref(),
    )
}

/// Checks every option before any game starts, so a bad name fails at once; the settings and
/// the strategies, each built once (the workers clone them).
fn check(args: &Args) -> Result<(TournamentSettings, Vec<Strategy>), ArenaError> {
    run::check_games_and_seeds(args.games, args.seed)?;
    if args.max_pieces == Some(0) {
        return Err(ArenaError::Usage("--max-pieces must be at least 1".into()));
    }
    Board::new(args.board_height)?;
    let generator: GeneratorKind = args.generator.parse()?;
    // Reads and checks a piece file now rather than in every game.
    generator.start(args.seed)?;
    let mut specs: Vec<StrategySpec> = Vec::with_capacity(args.strategies.len());
    let mut names: Vec<String> = Vec::with_capacity(args.strategies.len());
    let mut strategies = Vec::with_capacity(args.strategies.len());
    for text in &args.strategies {
        let spec: StrategySpec = text.parse()?;
        // Built now to reject unknown presets and bad weights files before any game.
        let strategy = Strategy::new(spec.clone())?;
        strategy.check_board_height(args.board_height as u8)?;
        let name = spec.to_string();
        if let Some(earlier) = strategies
            .iter()
            .position(|earlier: &Strategy| earlier.plays_like(&strategy))
        {
            let earlier = &names[earlier];
            let same = match *earlier == name {
                true => format!("strategy {name} is listed twice"),
                false => format!(
                    "strategies {earlier} and {name} are the same strategy (same searcher, \
                     weights, options and depth)"
                ),
            };
            return Err(ArenaError::Usage(format!(
                "{same}: a strategy compared with itself tells nothing"
            )));
        }
        strategies.push(strategy);
        names.push(name);
        specs.push(spec);
    }
    let game_over_rule = game_over_rule(args.game_over.as_deref(), &specs)?;
    let settings = TournamentSettings {
        game_over_rule,
        specs,
        names,
        games: args.games,
        seed: args.seed,
        generator,
        max_pieces: args.max_pieces,
        board_height: args.board_height as u8,
        piece_statistics: args.plots.is_some() || args.html.is_some() || args.estimate,
        estimate: args.estimate,
    };
    Ok((settings, strategies))
}
