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
use crate::shard::{ShardTasks, run_shard_tasks_in_order};
use crate::{Progress, RunEnd, TaskOutcome};
use tetris_arena_games::analysis::pieces::{PieceStatistics, RowRule};
use tetris_arena_games::analysis::tournament::{GameRow, TournamentTally};
use tetris_arena_games::sim::game::{GameEnd, GameSettings};
use tetris_arena_io::values::{BoardHeight, MaxPieces, Shard};

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
    /// Per strategy, the outside engine behind it as it names itself (its handshake's name
    /// and version; a server's strategy, address and version), `None` for the arena's own;
    /// left out when every strategy is the arena's own.
    #[serde(default, skip_serializing_if = "all_inside")]
    pub engines: Vec<Option<OutsideEngine>>,
}

/// An outside engine behind a strategy, as it described itself when the run began.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutsideEngine {
    /// Its name and version (a bot's handshake; a server's strategy, address and version).
    pub name: String,
    /// The pieces it sees per decision (its handshake's preview + 1).
    pub depth: usize,
}

/// Whether no strategy is an outside engine.
fn all_inside(engines: &[Option<OutsideEngine>]) -> bool {
    engines.iter().all(Option::is_none)
}

impl TournamentSettings {
    /// The pieces strategy `index` sees per decision: its name's depth, or what its outside
    /// engine asked for.
    pub fn depth(&self, index: usize) -> usize {
        match self.engines.get(index) {
            Some(Some(engine)) => engine.depth,
            _ => self.specs[index].depth,
        }
    }

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
        fault: result.fault,
        elapsed: result.elapsed,
        statistics,
    }))
}

/// The most games a run holds in memory for its report's list of games (`--json`, a `.json`
/// `--out` file, a part): a run of more keeps only its summaries ([`TournamentTally`]), and
/// its games go to a CSV file as they finish (`--out FILE.csv`). At about 150 bytes a game
/// held, the list takes at most some 15 MB.
pub const HELD_GAMES_LIMIT: u64 = 100_000;

/// A tournament's (or one shard's) finished games, as [`play_tournament`] keeps them.
pub struct TournamentRun {
    /// Every finished game, summarized.
    pub tally: TournamentTally,
    /// Each strategy's piece statistics over its games, merged in game order (empty unless
    /// the settings record them).
    pub statistics: Vec<PieceStatistics>,
    /// Every finished game, sorted by (strategy, game), without its piece statistics: only
    /// when the run plays at most [`HELD_GAMES_LIMIT`] games.
    pub games: Option<Vec<GameRow>>,
    /// How the run ended.
    pub end: RunEnd,
    /// Whether its games were written to a CSV file as they finished (so a report makes no
    /// CSV of them again).
    pub games_streamed: bool,
}

/// Plays the games of `shard` of the tournament `settings` with clones of `strategies` on
/// `jobs` threads, handing each finished game to `on_game` in task order (game-major: every
/// strategy's game 0, then game 1, …) and folding it into the run's summaries, so the run's
/// memory does not grow with its games (see [`crate::run_tasks_in_order`]).
pub fn play_tournament(
    settings: &TournamentSettings,
    strategies: &[Strategy],
    shard: Shard,
    jobs: usize,
    progress: &Progress,
    mut on_game: impl FnMut(&GameRow) -> Result<(), RunError>,
) -> Result<TournamentRun, RunError> {
    let count = strategies.len();
    let planned = shard.game_count(settings.games) * count as u64;
    let mut tally = TournamentTally::new(count);
    let mut statistics: Vec<PieceStatistics> = (0..count)
        .filter(|_| settings.piece_statistics)
        .map(|_| PieceStatistics::new(settings.board_height.rows(), TOURNAMENT_ROW_RULE))
        .collect();
    let mut games = (planned <= HELD_GAMES_LIMIT).then(Vec::new);
    // The rows of the sequence being gathered (every strategy's game of one number).
    let mut sequence: Vec<Option<GameRow>> = vec![None; count];
    let mut sequence_game = None;
    let close_sequence = |sequence: &mut Vec<Option<GameRow>>,
                          tally: &mut TournamentTally,
                          games: &mut Option<Vec<GameRow>>| {
        tally.add_sequence(&sequence.iter().map(Option::as_ref).collect::<Vec<_>>());
        for row in sequence.iter_mut().filter_map(Option::take) {
            if let Some(games) = games.as_mut() {
                games.push(row);
            }
        }
    };
    let end = run_shard_tasks_in_order(
        ShardTasks {
            shard,
            games: settings.games,
            tasks_per_game: count as u64,
        },
        jobs,
        progress,
        || Ok::<_, RunError>(strategies.to_vec()),
        |strategies, task| play_tournament_game(strategies, settings, task, progress),
        |_, mut row| {
            on_game(&row)?;
            if sequence_game.is_some_and(|game| game != row.game) {
                close_sequence(&mut sequence, &mut tally, &mut games);
            }
            sequence_game = Some(row.game);
            if let Some(game_statistics) = row.statistics.take() {
                if let Some(merged) = statistics.get_mut(row.strategy) {
                    merged.merge(&game_statistics);
                }
            }
            let strategy = row.strategy;
            sequence[strategy] = Some(row);
            Ok(())
        },
    )?;
    close_sequence(&mut sequence, &mut tally, &mut games);
    if let Some(games) = games.as_mut() {
        games.sort_by_key(|row| (row.strategy, row.game));
    }
    Ok(TournamentRun {
        tally,
        statistics,
        games,
        end,
        games_streamed: false,
    })
}
