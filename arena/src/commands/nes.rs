//! `arena nes`: the NES plateau benchmark (docs/spec/rules.md, "The NES plateau benchmark"). One strategy
//! plays N frame-accurate NES games ([`tetris_arena_games::sim::nes`]) from level 19 (or 18, 29, …) until
//! it tops out, a line clear reaches the stop level (29 by default), or the lines reach the
//! line cap (`--max-lines`), and the score distribution is reported with the figures
//! BetaTetris publishes ([`tetris_arena_games::analysis::nes`], [`tetris_arena_reports::nes`]): in text, JSON,
//! CSV and, with `--html`, one self-contained page; `--trace` writes every lock of every game
//! ([`tetris_arena_reports::nes_trace`]).
//!
//! The game-over rule is the console rule for a gravity-aware searcher and the simulation
//! rule for one that ignores gravity, unless `--game-over` names one
//! ([`tetris_arena_requests::nes::nes_game_over_rule`]); it is recorded in the report and the parts.
//!
//! Game k (0-based) uses seed `S + k`. A strategy sees the current piece and, at depth 2, the
//! preview; the NES shows one preview piece, so depths above 2 are refused. Games run on the
//! arena's runner ([`tetris_arena_runs`]): results are identical for any `--jobs` except the `timing`
//! object (JSON) and the `seconds` column (CSV). The first Ctrl-C stops handing out games and
//! stops the running ones after their current piece (dropped: half a game is no result); the
//! finished games are reported and written with `"interrupted": true` and the command exits
//! with an `error:` line (code 2). A second Ctrl-C quits at once without writing.

use std::path::PathBuf;

use tetris_core::{GameOverRule, PLATEAU_STOP_LEVEL};

use crate::commands::options::{NesPlayerOptions, Parallel, SeedOption};
use tetris_arena_io::output::{announce_written, write_output};
use tetris_arena_io::values::{self, GameCount};
use tetris_arena_reports::nes::NesReport;
use tetris_arena_requests::RunOptions;
use tetris_arena_requests::error::ArenaError;
use tetris_arena_requests::nes::{CheckedNes, NesRequest};
use tetris_arena_runs::shard::{RunDelivery, nes_part, write_part};
use tetris_arena_runs::{Progress, interrupt};

/// Options of `arena nes`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The strategy: SEARCHER+EVALUATOR[:PRESET|:weights.json][,OPTION...][@DEPTH], depth 1
    /// or 2 (the NES shows one preview piece), e.g. gamepad+nes-plateau@2 or the strongest
    /// bot, gamepad+nes-plateau,expectimax=3,prefer-bonus=80,playouts=16,extra-deep-wells=5@2
    /// (with a reaction time, the same with nes-plateau:low-stack and overdeep-wells=3; `arena
    /// list` explains the options). A searcher that ignores gravity (bfs, column-drop) has its placements locked
    /// as if they were reachable, under the simulation game-over rule; the report flags it.
    #[arg(value_name = "STRATEGY")]
    pub strategy: String,
    /// Games to play (1 to 10,000,000).
    #[arg(long, value_name = "N")]
    pub games: GameCount,
    /// The seed.
    #[command(flatten)]
    pub seed: SeedOption,
    /// A game stops when a line clear takes the level to K (the clear is scored); 29 is the
    /// transition to one frame per row, at 230 lines from level 19. At most 255, above
    /// --start-level.
    #[arg(long, value_name = "K", default_value_t = u64::from(PLATEAU_STOP_LEVEL))]
    pub to_level: u64,
    /// A game also stops when a line clear takes its lines to N or more (the line cap): that
    /// clear is scored in full, all its rows and points, so a capped game has N to N + 3
    /// lines. At least 1, below the lines at which --to-level is reached.
    #[arg(long, value_name = "N")]
    pub max_lines: Option<u64>,
    /// When a game is over: `console` (the NES console's, docs/spec/rules.md: two hidden rows above the
    /// field keep what locks there; a piece that spawns overlapping may still move out; the
    /// game ends when a piece locks overlapping a cell) or `simulation` (the NES AI
    /// program's: cells locked above the field are lost; the game ends when the next piece
    /// cannot spawn). Default: console for a gravity-aware searcher (gamepad), simulation for
    /// one that ignores gravity (which cannot play the console rule). Recorded in the report.
    #[arg(long, value_name = "RULE", value_parser = values::game_over_rule)]
    pub game_over: Option<GameOverRule>,
    /// The player: start level, input timeline, input model and reaction time.
    #[command(flatten)]
    pub player: NesPlayerOptions,
    /// Threads and shard.
    #[command(flatten)]
    pub parallel: Parallel,
    /// Write the report with every game to FILE, atomically: FILE.json (the --json report
    /// plus a `games` array) or FILE.csv (one row per game).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Print the report as one JSON object on stdout instead of text.
    #[arg(long)]
    pub json: bool,
    /// Write the report to OUT.html as one self-contained page (no network access needed):
    /// the settings, the score distribution, the figures BetaTetris publishes and a table of
    /// the games. Written atomically; never one of the strategy's input files. Not with
    /// --shard: a shard is no report.
    #[arg(long, value_name = "OUT.html")]
    pub html: Option<PathBuf>,
    /// Write every lock of every game to FILE, one JSON object per line (JSON Lines): a `run`
    /// line with the settings, then per game a `lock` line per piece (the board it fell onto,
    /// the preview, level, lines and points before it, where it locked, the frames played and,
    /// with a reaction time, where the blind plan was heading) and an `end` line. Atomic; at
    /// most 100 games (pick them with --seed and --games); not with --shard.
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,
}

impl Args {
    /// The run these options ask for.
    pub fn request(&self) -> NesRequest {
        NesRequest {
            strategy: self.strategy.clone(),
            games: self.games,
            seed: self.seed.seed,
            start_level: self.player.start_level,
            to_level: self.to_level,
            max_lines: self.max_lines,
            timeline: self.player.timeline(),
            game_over: self.game_over,
            inputs: self.player.inputs,
            reaction_frames: self.player.reaction_frames,
            run: RunOptions {
                jobs: self.parallel.threads.jobs,
                shard: self.parallel.shard,
                out: self.out.clone(),
                json: self.json,
            },
            html: self.html.clone(),
            trace: self.trace.clone(),
        }
    }
}

/// Runs `arena nes`.
pub fn run(args: Args) -> Result<(), ArenaError> {
    let checked = args.request().check()?;
    interrupt::install();
    let progress =
        Progress::games_and_mean_score(checked.run.shard.game_count(checked.settings.games));
    let finished = checked.play(&progress, &interrupt::interrupted)?;
    let CheckedNes { settings, run, .. } = checked;
    let (shard, delivery) = (run.shard, run.delivery);
    let destination = match delivery {
        RunDelivery::Part(path) => {
            return Ok(write_part(
                &nes_part(&settings, shard, &finished),
                &path,
                finished.end.interrupted,
            )?);
        }
        RunDelivery::Report(destination) => destination,
    };
    let report = NesReport::new(&settings, &finished);
    if let Some(path) = &args.html {
        write_output("NES report page", path, report.html().as_bytes())?;
    }
    if let Some(path) = &args.trace {
        report.write_trace(path)?;
        announce_written("NES trace", path);
    }
    destination.deliver(&report)?;
    Ok(interrupt::finished_or_error(
        finished.end.interrupted,
        finished.end.finished as usize,
        settings.games,
        args.out.as_deref(),
    )?)
}
