//! The request for a statistics run (`arena stats`): one strategy places N pieces, game after
//! game, and the arena counts where they lock.

use std::path::PathBuf;
use web_time::Instant;

use tetris_core::{GameOverRule, GeneratorKind};
use tetris_registry::Strategy;

use crate::error::ArenaError;
use tetris_arena_games::analysis::pieces::PieceStatistics;
use tetris_arena_games::analysis::pieces::RowRule;
use tetris_arena_io::Field;
use tetris_arena_io::output::check_output_folder;
use tetris_arena_io::values::Shard;
use tetris_arena_io::values::{BoardHeight, Jobs, PieceCount, check_pattern_height};
use tetris_arena_jobs::{JobFiles, frameless_game_over_rule};
use tetris_arena_reports::stats::is_stats_output;
use tetris_arena_runs::Progress;
use tetris_arena_runs::shard::check_part_file;
use tetris_arena_runs::shard::{Part, stats_part};
use tetris_arena_runs::statistics::{StatisticsSettings, play_statistics_blocks};

/// A statistics run.
#[derive(Clone, Debug)]
pub struct StatsRequest {
    /// The strategy's name.
    pub strategy: String,
    /// Pieces to place in all.
    pub pieces: PieceCount,
    /// The seed of the first game.
    pub seed: u64,
    /// The piece generator.
    pub generator: GeneratorKind,
    /// The field's rows.
    pub board_height: BoardHeight,
    /// The game-over rule (`None`: the searcher's default).
    pub game_over: Option<GameOverRule>,
    /// Which row a piece counts in.
    pub row_rule: RowRule,
    /// Independent blocks (`None`: one, or the shard count).
    pub blocks: Option<u64>,
    /// Worker threads (`None`: the available cores).
    pub jobs: Option<Jobs>,
    /// Play only this block and write its part.
    pub shard: Option<Shard>,
    /// The output folder, or with a shard the part file.
    pub out: Option<PathBuf>,
    /// Print JSON instead of text.
    pub json: bool,
}

/// A statistics request, checked.
// Non-exhaustive: outside this crate a value comes only from its request's check.
#[non_exhaustive]
pub struct CheckedStats {
    /// Everything that decides the games.
    pub settings: StatisticsSettings,
    /// The strategy.
    pub strategy: Strategy,
    /// Worker threads.
    pub jobs: usize,
    /// The block played ([`Shard::WHOLE`]: all of them).
    pub shard: Shard,
    /// With a shard: the part file.
    pub part_file: Option<PathBuf>,
}

/// `--blocks` and `--shard` that disagree on the block count.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{blocks_field} {blocks} and {shard_field} {shard} disagree: a shard is one of N blocks",
    blocks_field = Field::BLOCKS,
    shard_field = Field::SHARD
)]
pub struct BlocksDisagree {
    /// The block count given.
    pub blocks: u64,
    /// The shard given.
    pub shard: Shard,
}

impl StatsRequest {
    /// Checks every rule of a statistics run before any game: the block count (the shard's,
    /// when sharded), the strategy and its field, the game-over rule, the pieces, blocks and
    /// seeds ([`StatisticsSettings::check`]), the generator, and where the output goes (not
    /// over a file the run reads).
    pub fn check(&self) -> Result<CheckedStats, ArenaError> {
        let blocks = match (self.shard, self.blocks) {
            (Some(shard), Some(blocks)) if blocks != shard.count() => {
                return Err(BlocksDisagree { blocks, shard }.into());
            }
            (Some(shard), _) => shard.count(),
            (None, blocks) => blocks.unwrap_or(1),
        };
        let strategy = Strategy::from_name(&self.strategy)?;
        check_pattern_height(&strategy, self.board_height.get(), Field::BOARD_HEIGHT)?;
        self.generator.check_preview(strategy.depth())?;
        let settings = StatisticsSettings {
            pieces: self.pieces.get(),
            seed: self.seed,
            generator: self.generator.clone(),
            board_height: self.board_height,
            blocks,
            game_over_rule: frameless_game_over_rule(
                self.game_over,
                std::slice::from_ref(strategy.spec()),
            )?,
            row_rule: self.row_rule,
        };
        settings.check()?;
        // Reads and checks a piece file before any game starts.
        settings.generator.start(self.seed)?;
        let part_file = match self.shard {
            Some(_) => Some(check_part_file(self.out.as_deref(), self.json)?),
            None => {
                if let Some(folder) = &self.out {
                    check_output_folder(Field::OUT, folder, is_stats_output)?;
                }
                None
            }
        };
        JobFiles::default()
            .output(Field::OUT, self.out.as_deref())
            .strategy(strategy.spec())
            .generator(&settings.generator)
            .check()?;
        Ok(CheckedStats {
            settings,
            strategy,
            jobs: Jobs::count_or_cores(self.jobs),
            shard: self.shard.unwrap_or(Shard::WHOLE),
            part_file,
        })
    }
}

/// What a finished statistics run delivers.
pub enum StatsResult {
    /// A block of a sharded run: its part, for this file.
    Part {
        /// The part file.
        path: PathBuf,
        /// The part (boxed, as the statistics: both are large).
        part: Box<Part>,
    },
    /// The whole run: its blocks' statistics, merged in block order.
    Whole(Box<PieceStatistics>),
}

impl CheckedStats {
    /// Plays the run's blocks (the shard's) on its threads, counting pieces on `progress`,
    /// and makes the result: the shard's part, or the merged statistics. `started` is when the
    /// run began (the part records its wall time).
    pub fn play(&self, progress: &Progress, started: Instant) -> Result<StatsResult, ArenaError> {
        let statistics = play_statistics_blocks(
            &self.strategy,
            &self.settings,
            self.shard,
            self.jobs,
            progress,
        )?;
        Ok(match &self.part_file {
            Some(path) => StatsResult::Part {
                path: path.clone(),
                part: Box::new(stats_part(
                    &self.strategy.name(),
                    &self.settings,
                    self.shard,
                    // A shard plays one block.
                    vec![statistics],
                    self.jobs,
                    started.elapsed(),
                )),
            },
            None => StatsResult::Whole(Box::new(statistics)),
        })
    }
}
