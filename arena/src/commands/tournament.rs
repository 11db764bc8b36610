//! `arena tournament`: every strategy plays the same N piece sequences; a table per strategy
//! and a pairwise matrix say who is stronger, by how much, and how sure we can be.
//!
//! The games are [`tetris_arena_runs::tournament`]'s, on the arena's runner: results are
//! bit-identical whatever `--jobs` is; only the `timing` object (JSON) and the `seconds`
//! column (CSV) depend on the machine. The statistics are [`tetris_arena_games::analysis::tournament`]'s,
//! the output [`tetris_arena_reports::tournament`]'s.
//!
//! The first Ctrl-C stops handing out games and stops the games already running after their
//! current piece (they are dropped, not counted: a half-played game is no result), then the
//! finished games are printed and written as usual with `"interrupted": true`, and the command
//! exits with an `error:` line (code 2) saying how many games finished. A second Ctrl-C quits
//! at once without writing anything (the output file, written atomically, is then left as it
//! was).

use std::path::PathBuf;

use crate::commands::options::{GameRules, Parallel, PieceCap, SeedOption};
use tetris_arena_io::output::{print_to_stderr, write_output};
use tetris_arena_io::values::GameCount;
use tetris_arena_jobs::game::UncappedNote;
use tetris_arena_reports::tournament::TournamentReport;
use tetris_arena_requests::RunOptions;
use tetris_arena_requests::error::ArenaError;
use tetris_arena_requests::tournament::{CheckedTournament, TournamentRequest};
use tetris_arena_runs::shard::{RunDelivery, tournament_part, write_part};
use tetris_arena_runs::{Progress, interrupt};

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
    pub games: GameCount,
    /// The seed.
    #[command(flatten)]
    pub seed: SeedOption,
    /// The games' rules.
    #[command(flatten)]
    pub rules: GameRules,
    /// The piece cap.
    #[command(flatten)]
    pub cap: PieceCap,
    /// Threads and shard.
    #[command(flatten)]
    pub parallel: Parallel,
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
}

impl Args {
    /// The request these options make.
    pub fn request(&self) -> TournamentRequest {
        TournamentRequest {
            strategies: self.strategies.clone(),
            games: self.games,
            seed: self.seed.seed,
            generator: self.rules.generator.clone(),
            max_pieces: self.cap.max_pieces,
            board_height: self.rules.board_height,
            game_over: self.rules.game_over,
            estimate: self.estimate,
            run: RunOptions {
                jobs: self.parallel.threads.jobs,
                shard: self.parallel.shard,
                out: self.out.clone(),
                json: self.json,
            },
            plots: self.plots.clone(),
            html: self.html.clone(),
        }
    }
}

/// Runs `arena tournament`.
pub fn run(args: Args) -> Result<(), ArenaError> {
    let checked = args.request().check()?;
    if checked.settings.max_pieces.is_none() && !args.json {
        print_to_stderr(&format!(
            "note: {}",
            UncappedNote(checked.settings.board_height)
        ));
    }
    interrupt::install();
    let total = checked.task_count();
    let progress = Progress::games_and_speed(total, checked.settings.max_pieces.is_some());
    let played = checked.play(&progress)?;
    let CheckedTournament { settings, run, .. } = checked;
    let destination = match run.delivery {
        RunDelivery::Part(path) => {
            let part = tournament_part(&settings, run.shard, &played);
            return Ok(write_part(&part, &path, played.end.interrupted)?);
        }
        RunDelivery::Report(destination) => destination,
    };
    let report = TournamentReport::new(&settings, played);
    if let Some(folder) = &args.plots {
        report.write_plots(folder)?;
    }
    if let Some(path) = &args.html {
        write_output("tournament page", path, report.html()?.as_bytes())?;
    }
    destination.deliver(&report)?;
    Ok(interrupt::finished_or_error(
        report.run.end.interrupted,
        report.games_finished() as usize,
        total,
        args.out.as_deref(),
    )?)
}
