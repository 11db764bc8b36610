//! One frame-less game as a runner task: the piece count for the progress bar, optional
//! per-piece statistics, and Ctrl-C between two pieces.

use std::ops::ControlFlow;

use tetris_registry::Strategy;

use crate::error::RunError;
use crate::{Progress, interrupt};
use tetris_arena_games::analysis::pieces::PieceStatistics;
use tetris_arena_games::sim::game::{
    GameEnd, GameResult, GameSettings, PlayOptions, Step, play_game,
};

/// Plays one game of `strategy` under `settings` with `options`, reporting its pieces to
/// `progress` in chunks, recording every placement in `statistics` when given, and stopping
/// after a piece when Ctrl-C was pressed (the result then ends with [`GameEnd::Stopped`]).
pub fn play_observed_game(
    strategy: &mut Strategy,
    settings: &GameSettings,
    options: PlayOptions,
    progress: &Progress,
    mut statistics: Option<&mut PieceStatistics>,
) -> Result<GameResult, RunError> {
    let mut unreported = 0u64;
    let mut observer = |step: &Step<'_>| {
        if let Some(statistics) = statistics.as_deref_mut() {
            statistics.record(step.placement, step.board);
        }
        unreported += 1;
        if unreported == Progress::PIECES_PER_REPORT {
            progress.add_pieces(unreported);
            unreported = 0;
        }
        if interrupt::interrupted() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    };
    let result = play_game(strategy, settings, options, &mut observer)?;
    progress.add_pieces(result.pieces % Progress::PIECES_PER_REPORT);
    Ok(result)
}

/// [`play_observed_game`] as a runner task: no placements kept, and `None` when Ctrl-C
/// stopped the game after a piece (half a game is no result).
pub fn play_counted_game(
    strategy: &mut Strategy,
    settings: &GameSettings,
    progress: &Progress,
    statistics: Option<&mut PieceStatistics>,
) -> Result<Option<GameResult>, RunError> {
    let result = play_observed_game(
        strategy,
        settings,
        PlayOptions::default(),
        progress,
        statistics,
    )?;
    Ok((result.end != GameEnd::Stopped).then_some(result))
}
