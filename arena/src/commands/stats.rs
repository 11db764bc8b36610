//! `arena stats STRATEGY --pieces N --seed S`: where pieces lock, how often the field is
//! cleared completely, and the expected game length estimated from finite play (arena.md,
//! "Games that never end").
//!
//! The games are [`crate::run::statistics`]'s (back to back until N pieces), the counts and
//! the fit [`crate::analysis::pieces`]'s, the output [`crate::report::stats`]'s. Everything
//! printed depends only on the options, never on timing, so runs are repeatable.

use std::path::PathBuf;

use tetris_core::{Board, GeneratorKind};
use tetris_registry::Strategy;

use crate::error::ArenaError;
use crate::report::output::print_output;
use crate::report::stats::{stats_json, stats_text, write_stats_files};
use crate::run::Progress;
use crate::run::statistics::{StatisticsSettings, play_statistics};

/// Options of `arena stats`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The strategy: `SEARCHER+EVALUATOR[:PRESET|:weights.json][@DEPTH]`, e.g. bfs+elashi@2.
    pub strategy: String,
    /// Pieces to place in total (at least 1); after a game over a new game starts on an empty
    /// board with the next seed.
    #[arg(long, value_name = "N")]
    pub pieces: u64,
    /// Base seed: game k (counted from 0) uses seed S + k.
    #[arg(long, value_name = "S")]
    pub seed: u64,
    /// Piece generator: uniform, nes, bag7, sz, java or file:PATH (a file is replayed from its
    /// start in every game; the run stops when it runs out).
    #[arg(long, value_name = "G", default_value = "uniform")]
    pub generator: String,
    /// Board rows, 4 to 32 (the width is always 10).
    #[arg(long, value_name = "H", default_value_t = 20)]
    pub board_height: usize,
    /// Write the plots (row_shares.svg, cell_heat_map.svg, full_clear_intervals.svg) and
    /// stats.json to DIR, created if missing; every file is written atomically.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Print every number as JSON instead of the tables.
    #[arg(long)]
    pub json: bool,
}

/// Runs `arena stats`.
pub fn run(args: Args) -> Result<(), ArenaError> {
    if args.pieces == 0 {
        return Err(ArenaError::Usage("--pieces must be at least 1".into()));
    }
    Board::new(args.board_height)?;
    let generator: GeneratorKind = args.generator.parse()?;
    // Reads and checks a piece file before any game starts.
    generator.start(args.seed)?;
    let strategy = Strategy::from_name(&args.strategy)?;
    if let Some(folder) = &args.out {
        std::fs::create_dir_all(folder)
            .map_err(|error| ArenaError::io(folder.display().to_string(), &error))?;
    }
    let settings = StatisticsSettings {
        pieces: args.pieces,
        seed: args.seed,
        generator,
        board_height: args.board_height as u8,
    };
    let statistics = play_statistics(&strategy, &settings, &Progress::pieces(args.pieces))?;
    let json = stats_json(
        &strategy.name(),
        &settings.generator,
        args.seed,
        &statistics,
    );
    if let Some(folder) = &args.out {
        write_stats_files(folder, &statistics, &json)?;
    }
    print_output(&if args.json {
        json
    } else {
        stats_text(&strategy.name(), &statistics)
    })
}
