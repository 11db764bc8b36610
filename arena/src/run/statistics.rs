//! The games of an `arena stats` run: played back to back, each counted piece by piece.
//!
//! Game k (counted from 0) starts on an empty 10 × H board with seed `S + k` (wrapping) and a
//! piece cap of what is left of the run's pieces; the run stops when they are all placed, when
//! a file sequence runs out (a `file:` generator replays the file from its start in every
//! game), or after a game that placed no piece (it would start over forever). Each game's next
//! one depends on how many pieces it took, so the run is sequential: one job on the runner,
//! whose results (one [`PieceStatistics`] per game) are merged in game order.

use tetris_core::GeneratorKind;
use tetris_registry::Strategy;

use crate::analysis::pieces::PieceStatistics;
use crate::error::ArenaError;
use crate::run::games::play_counted_game;
use crate::run::{self, Progress, TaskOutcome};
use crate::sim::game::{GameEnd, GameSettings};

/// Everything that decides the games of a statistics run.
#[derive(Clone, Debug)]
pub struct StatisticsSettings {
    /// Pieces to place in all.
    pub pieces: u64,
    /// Game k uses `seed + k` (wrapping).
    pub seed: u64,
    /// The piece generator.
    pub generator: GeneratorKind,
    /// Board rows.
    pub board_height: u8,
}

/// Plays the run's games with a clone of `strategy`; the merged statistics.
pub fn play_statistics(
    strategy: &Strategy,
    settings: &StatisticsSettings,
    progress: &Progress,
) -> Result<PieceStatistics, ArenaError> {
    let height = usize::from(settings.board_height);
    // Every game places at least one piece or ends the run, so `pieces` bounds the games.
    let finished = run::run_tasks(
        settings.pieces,
        1,
        progress,
        || Ok((strategy.clone(), 0u64)),
        |(strategy, placed), game| {
            let game_settings = GameSettings {
                board_height: settings.board_height,
                generator: settings.generator.clone(),
                seed: settings.seed.wrapping_add(game),
                max_pieces: Some(settings.pieces - *placed),
            };
            let mut statistics = PieceStatistics::new(height);
            statistics.start_game();
            let Some(result) =
                play_counted_game(strategy, &game_settings, progress, Some(&mut statistics))?
            else {
                return Ok(TaskOutcome::Stopped);
            };
            *placed += result.pieces;
            let game_over = result.end == GameEnd::GameOver;
            statistics.game_overs += u64::from(game_over);
            let goes_on = game_over && result.pieces > 0 && *placed < settings.pieces;
            Ok(if goes_on {
                TaskOutcome::Done(statistics)
            } else {
                TaskOutcome::Last(statistics)
            })
        },
    )?;
    let mut merged = PieceStatistics::new(height);
    for game in &finished.results {
        merged.merge(game);
    }
    Ok(merged)
}
