//! A tournament's games as runner tasks: every strategy plays the same N piece sequences.
//!
//! Game k (0-based) of every strategy uses seed `seed + k` with the same generator, so strategy
//! A's game k and strategy B's game k see the same pieces in the same order (a `file:`
//! generator ignores the seed: every game plays the file's sequence). Each game follows
//! [`tetris_arena_games::sim::game`]'s rules. Tasks are numbered game-major (game 0 of every strategy, game
//! 1 of every strategy, …), so an interrupted run has finished whole sequences first.

use serde::{Deserialize, Serialize};
use tetris_core::{GameOverRule, GeneratorKind};
use tetris_registry::{Strategy, StrategySpec};

use crate::error::RunError;
use crate::games::play_counted_game;
use crate::{Progress, TaskOutcome};
use tetris_arena_games::analysis::pieces::{PieceStatistics, RowRule};
use tetris_arena_games::analysis::tournament::GameRow;
use tetris_arena_games::sim::game::{GameEnd, GameSettings};
use tetris_arena_io::values::{BoardHeight, MaxPieces};

/// The row rule of the piece statistics of `tournament --plots`/`--estimate` and
/// `play --estimate`: the piece's top cell, as before `arena stats --row` (whose default is
/// the article's pivot row) existed; their estimates say so (`ESTIMATE_RULE`).
pub const TOURNAMENT_ROW_RULE: RowRule = RowRule::Top;

/// Everything that decides the games of a run (the settings stored with the results).
///
/// It serializes as the `settings` of a shard's part file (`crate::shard`), whose field
/// names and order it keeps: the strategies by name only (`strategies`).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentSettings {
    /// The strategies, in command-line order. Not serialized: read back from a part, it is
    /// empty until the merge parses the names (which makes a bad name the part's error).
    #[serde(skip)]
    pub specs: Vec<StrategySpec>,
    /// Their canonical names.
    #[serde(rename = "strategies")]
    pub names: Vec<String>,
    /// Games per strategy.
    pub games: u64,
    /// Game k uses `seed + k`.
    pub seed: u64,
    /// The piece generator.
    pub generator: GeneratorKind,
    /// The piece cap.
    pub max_pieces: Option<MaxPieces>,
    /// Board rows.
    pub board_height: BoardHeight,
    /// When a game is over (absent in parts written before it was recorded: simulation).
    #[serde(default)]
    pub game_over_rule: GameOverRule,
    /// Record per-piece statistics of every game (for `--plots` and `--estimate`).
    pub piece_statistics: bool,
    /// Report each strategy's expected game length estimated from where its pieces lock
    /// (`--estimate`, which implies `piece_statistics`; absent in parts written before it
    /// existed: false).
    #[serde(default)]
    pub estimate: bool,
}

impl TournamentSettings {
    /// Games of the whole run (strategies × games).
    pub fn total_games(&self) -> usize {
        self.specs.len() * self.games as usize
    }

    /// The settings of game `game` (the same for every strategy).
    pub fn game_settings(&self, game: u64) -> GameSettings {
        GameSettings {
            board_height: self.board_height,
            generator: self.generator.clone(),
            seed: self.seed + game,
            max_pieces: self.max_pieces,
            game_over_rule: self.game_over_rule,
        }
    }

    /// How the seeds are derived, in words.
    pub fn seed_rule(&self) -> String {
        if self.generator.is_seeded() {
            format!(
                "game k (0-based) uses seed {} + k for every strategy (seeds {}..={})",
                self.seed,
                self.seed,
                self.seed + (self.games - 1)
            )
        } else {
            "the file generator ignores the seed: every game plays the same sequence".to_string()
        }
    }
}

/// Plays task `task` (game `task / strategies` of strategy `task % strategies`) with the
/// worker's own copies of the strategies, in command-line order.
pub fn play_tournament_game(
    strategies: &mut [Strategy],
    settings: &TournamentSettings,
    task: u64,
    progress: &Progress,
) -> Result<TaskOutcome<GameRow>, RunError> {
    let count = strategies.len() as u64;
    let (game, strategy_index) = (task / count, (task % count) as usize);
    let game_settings = settings.game_settings(game);
    let mut statistics = settings.piece_statistics.then(|| {
        let mut statistics = Box::new(PieceStatistics::new(
            settings.board_height.rows(),
            TOURNAMENT_ROW_RULE,
        ));
        statistics.start_game();
        statistics
    });
    let Some(result) = play_counted_game(
        &mut strategies[strategy_index],
        &game_settings,
        progress,
        statistics.as_deref_mut(),
    )?
    else {
        return Ok(TaskOutcome::Stopped);
    };
    if let Some(statistics) = statistics.as_mut() {
        statistics.game_overs += u64::from(result.end == GameEnd::GameOver);
    }
    Ok(TaskOutcome::Done(GameRow {
        strategy: strategy_index,
        game,
        seed: game_settings.seed,
        pieces: result.pieces,
        lines: result.lines,
        score: result.score,
        clears: result.clears,
        end: result.end,
        elapsed: result.elapsed,
        statistics,
    }))
}
