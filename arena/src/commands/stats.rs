//! `arena stats STRATEGY --pieces N --seed S`: where pieces lock, how often the field is
//! cleared completely, and the expected game length estimated from finite play (arena.md,
//! "Games that never end").
//!
//! The games are [`crate::run::statistics`]'s (back to back until N pieces, in one block or
//! `--blocks B` independent ones, which `--shard K/B` plays one at a time), the counts and
//! the fit [`crate::analysis::pieces`]'s, the output [`crate::report::stats`]'s. `--row`
//! picks the row a piece counts in (the lock state's pivot by default, as the source article
//! counts, or its top cell); the rule is recorded in every output. Everything
//! printed depends only on the options, never on timing, so runs are repeatable.

use std::path::PathBuf;
use std::time::Instant;

use tetris_core::{Board, GeneratorKind};
use tetris_registry::Strategy;

use crate::analysis::pieces::RowRule;
use crate::error::ArenaError;
use crate::input::game_over_rule;
use crate::report::output::{check_output_folder, print_output};
use crate::report::parts::{check_part_file, stats_part};
use crate::report::stats::{deliver_stats, is_stats_output};
use crate::run::shard::Shard;
use crate::run::statistics::{StatisticsSettings, merge_blocks, play_statistics_blocks};
use crate::run::{self, Progress, interrupt};

/// Options of `arena stats`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The strategy: `SEARCHER+EVALUATOR[:PRESET|:weights.json][,OPTION...][@DEPTH]`, e.g.
    /// bfs+elashi@2 (`arena list` shows the names and options).
    pub strategy: String,
    /// Pieces to place in total (at least 1); after a game over a new game starts on an empty
    /// board with the next seed.
    #[arg(long, value_name = "N")]
    pub pieces: u64,
    /// Base seed: game k (counted from 0) uses seed S + k (with --blocks: block K's game j uses
    /// S + K x 2^32 + j).
    #[arg(long, value_name = "S")]
    pub seed: u64,
    /// Piece generator: uniform, nes, bag7, sz, java or file:PATH (a file is replayed from its
    /// start in every game; the run stops when it runs out).
    #[arg(long, value_name = "G", default_value = "uniform")]
    pub generator: String,
    /// Board rows, 4 to 32 (the width is always 10).
    #[arg(long, value_name = "H", default_value_t = 20)]
    pub board_height: usize,
    /// When a game is over (and the next one starts): `simulation` (the next piece cannot
    /// spawn) or `literature` (a piece lands with a cell above row 0). Default: the
    /// searcher's (`literature` for drop, `simulation` for the others).
    #[arg(long, value_name = "RULE")]
    pub game_over: Option<String>,
    /// Which row a piece counts in: `pivot` (the default, the source article's: the row of
    /// the lock state's pivot) or `top` (the row of the piece's highest cell). Recorded in
    /// the output.
    #[arg(long, value_name = "RULE", default_value = "pivot")]
    pub row: String,
    /// Split the run into B independent blocks (1 to --pieces): block K (from 0) places
    /// pieces / B pieces (one more for the first pieces % B blocks) in games back to back,
    /// its game j with seed S + K x 2^32 + j; the blocks are merged in block order. 1 (the
    /// default) is the classic run. Blocks run in parallel (--jobs) and are the unit of
    /// --shard: merging the parts of --shard 0/B … B-1/B gives exactly this run's output.
    #[arg(long, value_name = "B")]
    pub blocks: Option<u64>,
    /// Blocks played at once, 1 to 256 (default: the available cores); never more threads
    /// than blocks. Results do not depend on it.
    #[arg(long, value_name = "J")]
    pub jobs: Option<usize>,
    /// Write the plots (row_shares.svg, cell_heat_map.svg, full_clear_intervals.svg,
    /// column_shares.svg) and
    /// stats.json to DIR, created if missing. DIR is replaced as a whole (written beside it,
    /// then swapped in), so it must hold only these files; a killed run leaves the old DIR.
    /// With --shard: the part file, PART.json.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Print every number as JSON instead of the tables.
    #[arg(long)]
    pub json: bool,
    /// Play only block K of N (0 <= K < N, counted from 0) of a run of N blocks (--blocks N
    /// is implied); needs --out PART.json, where the block's statistics are written instead
    /// of the report. `arena merge` of the N parts prints and writes exactly what
    /// `--blocks N` would.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
}

/// Runs `arena stats`.
pub fn run(args: Args) -> Result<(), ArenaError> {
    let shard = args.shard.as_deref().map(str::parse::<Shard>).transpose()?;
    let blocks = match (shard, args.blocks) {
        (Some(shard), Some(blocks)) if blocks != shard.count => {
            return Err(ArenaError::Usage(format!(
                "--blocks {blocks} and --shard {shard} disagree: a shard is one of N blocks"
            )));
        }
        (Some(shard), _) => shard.count,
        (None, blocks) => blocks.unwrap_or(1),
    };
    Board::new(args.board_height)?;
    let row_rule: RowRule = args
        .row
        .parse()
        .map_err(|message| ArenaError::Usage(format!("--row: {message}")))?;
    let generator: GeneratorKind = args.generator.parse()?;
    let strategy = Strategy::from_name(&args.strategy)?;
    strategy.check_board_height(args.board_height as u8)?;
    let settings = StatisticsSettings {
        pieces: args.pieces,
        seed: args.seed,
        generator,
        board_height: args.board_height as u8,
        blocks,
        game_over_rule: game_over_rule(args.game_over.as_deref(), &[strategy.spec().clone()])?,
        row_rule,
    };
    settings.check()?;
    // Reads and checks a piece file before any game starts.
    settings.generator.start(args.seed)?;
    let jobs = run::job_count(args.jobs)?;
    let part_file = match shard {
        Some(_) => Some(check_part_file(args.out.as_deref(), args.json)?),
        None => {
            if let Some(folder) = &args.out {
                check_output_folder("--out", folder, is_stats_output)?;
            }
            None
        }
    };
    interrupt::install_with_note(
        "interrupted: the running blocks stop after their current piece; nothing is written, \
         since a part of the run's pieces is not its statistics",
    );
    let shard = shard.unwrap_or(Shard::WHOLE);
    let start = Instant::now();
    let progress = Progress::pieces(settings.shard_pieces(shard));
    let block_statistics = play_statistics_blocks(&strategy, &settings, shard, jobs, &progress)?;
    if let Some(path) = part_file {
        let part = stats_part(
            &strategy.name(),
            &settings,
            shard,
            block_statistics,
            jobs,
            start.elapsed(),
        );
        part.write(&path)?;
        return print_output(&part.summary(&path));
    }
    let statistics = merge_blocks(settings.board_height, settings.row_rule, &block_statistics);
    deliver_stats(
        &strategy.name(),
        &settings,
        &statistics,
        args.out.as_deref(),
        args.json,
    )
}
