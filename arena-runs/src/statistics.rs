//! The games of an `arena stats` run: played back to back, each counted piece by piece, in one
//! or more independent blocks.
//!
//! A run of N blocks (`--blocks N`, default 1) splits its P pieces into blocks: block K
//! (0-based) places `P / N` pieces, one more for the first `P % N` blocks. Within a block,
//! games are played back to back: block K's game j (counted from 0) starts on an empty 10 × H
//! board with seed `S + K × 2^32 + j` (which [`StatisticsSettings::check`] keeps from
//! wrapping) and a piece cap of what is left of the block's pieces; the block stops when they are all placed, when a file sequence runs out (a
//! `file:` generator replays the file from its start in every game), or after a game that
//! placed no piece (it would start over forever). With one block this is the classic run:
//! game k uses seed `S + k`.
//!
//! Each game of a block depends on how many pieces the previous one took, so a block is one
//! runner task; blocks are independent, so they run in parallel (`--jobs`) and can be sharded
//! (`--shard K/N` plays block K of N). A block's games are merged in game order into one
//! [`PieceStatistics`], and the run's blocks in block order, so the result does not depend on
//! `--jobs` or on how the blocks were spread over processes.

use serde::{Deserialize, Serialize};
use tetris_core::{GameOverRule, GeneratorKind};
use tetris_registry::Strategy;

use crate::error::RunError;
use crate::games::play_counted_game;
use crate::shard::{ShardTasks, run_shard_tasks_in_order};
use crate::{Progress, TaskOutcome};
use tetris_arena_games::analysis::pieces::{PieceStatistics, RowRule};
use tetris_arena_games::sim::game::{GameEnd, GameSettings};
use tetris_arena_io::values::Shard;
use tetris_arena_io::values::{BoardHeight, MaxPieces};

/// The distance between the seeds of two consecutive blocks: block K's game j uses seed
/// `S + K × 2^32 + j`, so two blocks' seeds could only meet after 2^32 games in one block.
pub const BLOCK_SEED_STRIDE: u64 = 1 << 32;

/// The most blocks of a run (each block's first seed is then distinct).
pub const MAX_BLOCKS: u64 = 1 << 32;

/// Everything that decides the games of a statistics run.
///
/// It serializes as the `settings` of a shard's part file after the strategy's name
/// (`crate::shard::StatsPartSettings`), whose field names and order it keeps.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StatisticsSettings {
    /// Pieces to place in all.
    pub pieces: u64,
    /// Block K's game j uses `seed + K × 2^32 + j` (never wrapping: see [`StatisticsSettings::check`]).
    pub seed: u64,
    /// The piece generator.
    pub generator: GeneratorKind,
    /// Board rows.
    pub board_height: BoardHeight,
    /// Independent blocks (1: the classic run).
    pub blocks: u64,
    /// When a game is over (each game over starts the next game of the block; absent in
    /// parts written before it was recorded: simulation).
    #[serde(default)]
    pub game_over_rule: GameOverRule,
    /// Which row a piece counts in (`--row`; absent in parts written before it was recorded:
    /// top).
    #[serde(default = "RowRule::unrecorded")]
    pub row_rule: RowRule,
}

impl StatisticsSettings {
    /// Checks the piece count and the block count (1 ≤ blocks ≤ pieces and ≤ [`MAX_BLOCKS`])
    /// and that the last seed the run may use fits in 64 bits ([`crate::check_last_seed`], the
    /// rule of every run).
    pub fn check(&self) -> Result<(), RunError> {
        // `pieces` is at least 1 (`PieceCount`).
        if self.blocks == 0 || self.blocks > MAX_BLOCKS {
            return Err(RunError::BlockCount);
        }
        if self.blocks > self.pieces {
            return Err(RunError::BlocksOverPieces {
                blocks: self.blocks,
                pieces: self.pieces,
            });
        }
        // Every game places at least one piece (a block stops after one that placed none),
        // so the last block's game j has j < its pieces; the first block has the most pieces.
        let last_offset = (self.blocks - 1)
            .checked_mul(BLOCK_SEED_STRIDE)
            .and_then(|offset| offset.checked_add(self.block_pieces(0) - 1));
        crate::check_last_seed(
            self.seed,
            last_offset,
            &format!("up to {} games", self.pieces),
        )
    }

    /// The pieces block `block` places.
    pub fn block_pieces(&self, block: u64) -> u64 {
        self.pieces / self.blocks + u64::from(block < self.pieces % self.blocks)
    }

    /// The seed of block `block`'s game `game` (both 0-based).
    pub fn block_seed(&self, block: u64, game: u64) -> u64 {
        self.seed
            .wrapping_add(block.wrapping_mul(BLOCK_SEED_STRIDE))
            .wrapping_add(game)
    }

    /// The pieces the blocks of `shard` place (all of them for the whole run).
    pub fn shard_pieces(&self, shard: Shard) -> u64 {
        self.shard_blocks(shard)
            .map(|block| self.block_pieces(block))
            .sum()
    }

    /// The blocks `shard` plays: all for the whole run, block K for shard K/N (N = blocks).
    pub fn shard_blocks(&self, shard: Shard) -> impl Iterator<Item = u64> {
        shard.games(self.blocks)
    }
}

/// Plays the blocks of `shard` (every block for [`Shard::WHOLE`]; block K of a `K/N` shard,
/// whose N must be the settings' block count) with clones of `strategy` on `jobs` threads;
/// their statistics merged in block order as the blocks finish (so the run holds one
/// statistics record, not one per block).
pub fn play_statistics_blocks(
    strategy: &Strategy,
    settings: &StatisticsSettings,
    shard: Shard,
    jobs: usize,
    progress: &Progress,
) -> Result<PieceStatistics, RunError> {
    if !shard.is_whole() && shard.count() != settings.blocks {
        return Err(RunError::Internal(format!(
            "stats shard {shard} of a run of {} blocks",
            settings.blocks
        )));
    }
    let height = settings.board_height.rows();
    let mut merged_blocks = PieceStatistics::new(height, settings.row_rule);
    let end = run_shard_tasks_in_order(
        ShardTasks {
            shard,
            games: settings.blocks,
            tasks_per_game: 1,
        },
        jobs,
        progress,
        || Ok::<_, RunError>(strategy.clone()),
        |strategy, block| {
            let pieces = settings.block_pieces(block);
            let mut merged = PieceStatistics::new(height, settings.row_rule);
            let mut placed = 0u64;
            // Every game places at least one piece or ends the block.
            for game in 0.. {
                let game_settings = GameSettings {
                    board_height: settings.board_height,
                    generator: settings.generator.clone(),
                    seed: settings.block_seed(block, game),
                    // At least 1: the block's games go on while pieces are left to place.
                    max_pieces: Some(MaxPieces::try_from(pieces - placed).map_err(|_| {
                        RunError::Internal(format!("block {block}: no piece left to place"))
                    })?),
                    game_over_rule: settings.game_over_rule,
                };
                let mut statistics = PieceStatistics::new(height, settings.row_rule);
                statistics.start_game();
                let Some(result) =
                    play_counted_game(strategy, &game_settings, progress, Some(&mut statistics))?
                else {
                    return Ok(TaskOutcome::Stopped);
                };
                placed += result.pieces;
                let game_over = result.end == GameEnd::GameOver;
                statistics.game_overs += u64::from(game_over);
                merged.merge(&statistics);
                // A game an outside engine's fault ended is over too: the block goes on.
                let ended = game_over || result.end == GameEnd::Fault;
                if !(ended && result.pieces > 0 && placed < pieces) {
                    break;
                }
            }
            Ok(TaskOutcome::Done(merged))
        },
        |_, block| {
            merged_blocks.merge(&block);
            Ok(())
        },
    )?;
    if end.interrupted {
        // The statistics of a run are those of all its pieces: a part is not written.
        return Err(RunError::Interrupted(format!(
            ": {} of {} blocks finished; nothing was written",
            end.finished,
            settings.shard_blocks(shard).count()
        )));
    }
    Ok(merged_blocks)
}

/// The blocks' statistics merged in block order: the run's statistics.
pub fn merge_blocks(
    board_height: u8,
    row_rule: RowRule,
    blocks: &[PieceStatistics],
) -> PieceStatistics {
    let mut merged = PieceStatistics::new(usize::from(board_height), row_rule);
    for block in blocks {
        merged.merge(block);
    }
    merged
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(pieces: u64, seed: u64, blocks: u64) -> StatisticsSettings {
        StatisticsSettings {
            pieces,
            seed,
            generator: GeneratorKind::Uniform,
            board_height: BoardHeight::try_from(8).unwrap(),
            blocks,
            game_over_rule: GameOverRule::Simulation,
            row_rule: RowRule::Pivot,
        }
    }

    #[test]
    fn the_last_game_seed_must_not_wrap() {
        // One piece: one game at most, with the seed itself.
        assert!(settings(1, u64::MAX, 1).check().is_ok());
        // Ten pieces: up to ten games, seeds S to S + 9.
        assert!(settings(10, u64::MAX - 9, 1).check().is_ok());
        let message = settings(10, u64::MAX, 1).check().unwrap_err().to_string();
        assert_eq!(
            message,
            "--seed 18446744073709551615 + up to 10 games overflows a 64-bit seed"
        );
        // Two blocks of 5: block 1's games use S + 2^32 to S + 2^32 + 4.
        assert!(settings(10, u64::MAX - (1 << 32) - 4, 2).check().is_ok());
        assert!(settings(10, u64::MAX - (1 << 32) - 3, 2).check().is_err());
    }

    #[test]
    fn blocks_split_the_pieces_and_take_seeds_2_to_the_32_apart() {
        let run = settings(10, 7, 3);
        assert_eq!(
            (0..3)
                .map(|block| run.block_pieces(block))
                .collect::<Vec<_>>(),
            [4, 3, 3]
        );
        assert_eq!(run.shard_pieces(Shard::WHOLE), 10);
        assert_eq!(run.shard_pieces(Shard::new(1, 3).unwrap()), 3);
        assert_eq!(run.block_seed(0, 5), 12);
        assert_eq!(run.block_seed(2, 1), 7 + 2 * (1 << 32) + 1);
        // Wrapping, as the classic run's seeds always did.
        assert_eq!(settings(10, u64::MAX, 1).block_seed(0, 2), 1);
        assert!(settings(10, 0, 11).check().is_err());
        assert!(settings(10, 0, 0).check().is_err());
        assert!(settings(0, 0, 1).check().is_err());
        assert!(settings(10, 0, 10).check().is_ok());
    }
}
