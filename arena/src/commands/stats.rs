//! `arena stats STRATEGY --pieces N --seed S`: where pieces lock, how often the field is
//! cleared completely, and the expected game length estimated from finite play (docs/spec/arena.md,
//! "Games that never end").
//!
//! The games are [`tetris_arena_runs::statistics`]'s (back to back until N pieces, in one block or
//! `--blocks B` independent ones, which `--shard K/B` plays one at a time), the counts and
//! the fit [`tetris_arena_games::analysis::pieces`]'s, the output [`tetris_arena_reports::stats`]'s. `--row`
//! picks the row a piece counts in (the lock state's pivot by default, as the source article
//! counts, or its top cell); the rule is recorded in every output. Everything
//! printed depends only on the options, never on timing, so runs are repeatable.

use std::path::PathBuf;
use web_time::Instant;

use crate::commands::options::{GameRules, Parallel, SeedOption};
use tetris_arena_games::analysis::pieces::RowRule;
use tetris_arena_io::output::print_output;
use tetris_arena_io::values::PieceCount;
use tetris_arena_reports::stats::deliver_stats;
use tetris_arena_requests::error::ArenaError;
use tetris_arena_requests::stats::{StatsRequest, StatsResult};
use tetris_arena_runs::{Progress, interrupt};

/// Options of `arena stats`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The strategy: `SEARCHER+EVALUATOR[:PRESET|:weights.json][,OPTION...][@DEPTH]`, e.g.
    /// bfs+elashi@2 (`arena list` shows the names and options).
    pub strategy: String,
    /// Pieces to place in total (at least 1); after a game over a new game starts on an empty
    /// board with the next seed.
    #[arg(long, value_name = "N")]
    pub pieces: PieceCount,
    /// The seed.
    #[command(flatten)]
    pub seed: SeedOption,
    /// The games' rules (after a game over the next game starts on an empty board).
    #[command(flatten)]
    pub rules: GameRules,
    /// Which row a piece counts in: `pivot` (the default, the source article's: the row of
    /// the lock state's pivot) or `top` (the row of the piece's highest cell). Recorded in
    /// the output.
    #[arg(long, value_name = "RULE", default_value = "pivot", value_parser = tetris_arena_games::analysis::pieces::row_rule)]
    pub row: RowRule,
    /// Split the run into B independent blocks (1 to --pieces): block K (from 0) places
    /// pieces / B pieces (one more for the first pieces % B blocks) in games back to back,
    /// its game j with seed S + K x 2^32 + j; the blocks are merged in block order. 1 (the
    /// default) is the classic run. Blocks run in parallel (--jobs) and are the unit of
    /// --shard: merging the parts of --shard 0/B … B-1/B gives exactly this run's output.
    #[arg(long, value_name = "B")]
    pub blocks: Option<u64>,
    /// Threads (blocks played at once; results do not depend on it) and shard (block K of
    /// N of a run of N blocks: --blocks N is implied, and `arena merge` of the N parts
    /// prints and writes exactly what `--blocks N` would).
    #[command(flatten)]
    pub parallel: Parallel,
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
}

impl Args {
    /// The run these options ask for.
    pub fn request(&self) -> StatsRequest {
        StatsRequest {
            strategy: self.strategy.clone(),
            pieces: self.pieces,
            seed: self.seed.seed,
            generator: self.rules.generator.clone(),
            board_height: self.rules.board_height,
            game_over: self.rules.game_over,
            row_rule: self.row,
            blocks: self.blocks,
            jobs: self.parallel.threads.jobs,
            shard: self.parallel.shard,
            out: self.out.clone(),
            json: self.json,
        }
    }
}

/// Runs `arena stats`.
pub fn run(args: Args) -> Result<(), ArenaError> {
    let started = Instant::now();
    let checked = args.request().check()?;
    interrupt::install_with_note(
        "interrupted: the running blocks stop after their current piece; nothing is written, \
         since a part of the run's pieces is not its statistics",
    );
    let progress = Progress::pieces(checked.settings.shard_pieces(checked.shard));
    match checked.play(&progress, started)? {
        StatsResult::Part { path, part } => {
            part.write(&path)?;
            Ok(print_output(&part.summary(&path))?)
        }
        StatsResult::Whole(statistics) => Ok(deliver_stats(
            &checked.strategy.name(),
            &checked.settings,
            &statistics,
            args.out.as_deref(),
            args.json,
        )?),
    }
}
