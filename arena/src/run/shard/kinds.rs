//! The three kinds of sharded run — what differs between their parts and merges
//! ([`ShardedRun`]): the settings and results stored, the checks of one part's results, and
//! the unsharded run rebuilt from them.
//!
//! The settings are stored as the run has them where its settings type serializes in the
//! part's form ([`TournamentSettings`]; [`StatisticsSettings`] beside the strategy's name).
//! An `arena nes` run's settings are stored through [`NesPartSettings`] (see there why).

use std::collections::BTreeSet;
use std::path::Path;

use serde::{Deserialize, Serialize};
use tetris_core::{Board, GameOverRule, InputModel};
use tetris_registry::{RegistryError, StrategySpec};

use crate::analysis::pieces::PieceStatistics;
use crate::analysis::tournament::GameRow;
use crate::error::ArenaError;
use crate::run::shard::merge::Merged;
use crate::run::shard::part::{ShardedRun, part_body_variant};
use crate::run::statistics::{StatisticsSettings, merge_blocks};
use crate::run::tournament::TournamentSettings;
use crate::run::{self, Finished};
use crate::sim::nes::{NesGameResult, NesRunSettings};

/// One line about the part `path`, for the merge.
fn bad(path: &Path, message: String) -> ArenaError {
    ArenaError::Usage(format!("merge: {}: {message}", path.display()))
}

/// A strategy name stored in the part `path`, parsed back.
fn strategy_spec(path: &Path, name: &str) -> Result<StrategySpec, ArenaError> {
    name.parse()
        .map_err(|error: RegistryError| bad(path, error.to_string()))
}

/// Checks that a statistics record is one of a `height`-row board (a tampered part must not
/// panic the report).
fn check_statistics(
    path: &Path,
    statistics: &PieceStatistics,
    height: u8,
) -> Result<(), ArenaError> {
    let height = usize::from(height);
    if statistics.board_height != height
        || statistics.row_counts.len() != height
        || statistics.cell_counts.len() != height
    {
        return Err(bad(
            path,
            format!("piece statistics not of a {height}-row board"),
        ));
    }
    Ok(())
}

/// `arena tournament`'s parts: the run's [`TournamentSettings`] (the strategies by name) and
/// one [`GameRow`] per game and strategy.
#[derive(Clone, Copy, Debug)]
pub struct ShardedTournament;

impl ShardedRun for ShardedTournament {
    const COMMAND: &'static str = "tournament";
    const UNIT: &'static str = "games";
    const MAX_GAMES: u64 = run::MAX_GAMES;
    type Settings = TournamentSettings;
    type Result = GameRow;

    fn games(settings: &TournamentSettings) -> u64 {
        settings.games
    }

    part_body_variant!(Tournament);

    fn tasks(
        path: &Path,
        settings: &TournamentSettings,
        games: &[u64],
        results: &[GameRow],
    ) -> Result<Vec<(u64, u64)>, ArenaError> {
        let strategies = settings.names.len();
        let mut expected: BTreeSet<(u64, usize)> = games
            .iter()
            .flat_map(|&game| (0..strategies).map(move |strategy| (game, strategy)))
            .collect();
        let mut tasks = Vec::with_capacity(results.len());
        for result in results {
            if !expected.remove(&(result.game, result.strategy)) {
                return Err(bad(
                    path,
                    format!(
                        "a result for game {} of strategy {} that it does not hold or holds \
                         twice",
                        result.game, result.strategy
                    ),
                ));
            }
            if result.seed != settings.seed.wrapping_add(result.game) {
                return Err(bad(path, format!("game {} has a wrong seed", result.game)));
            }
            if result.statistics.is_some() != settings.piece_statistics {
                return Err(bad(
                    path,
                    format!(
                        "game {}'s piece statistics do not match its settings",
                        result.game
                    ),
                ));
            }
            if let Some(statistics) = &result.statistics {
                check_statistics(path, statistics, settings.board_height)?;
            }
            tasks.push((result.game, result.strategy as u64));
        }
        if let Some((game, strategy)) = expected.into_iter().next() {
            return Err(bad(
                path,
                format!("no result for game {game} of strategy {strategy}"),
            ));
        }
        Ok(tasks)
    }

    fn merged(
        path: &Path,
        mut settings: TournamentSettings,
        finished: Finished<GameRow>,
    ) -> Result<Merged, ArenaError> {
        // A part stores the names only (`specs` is not serialized): parsed back here, where a
        // bad one is the part's error.
        settings.specs = settings
            .names
            .iter()
            .map(|name| strategy_spec(path, name))
            .collect::<Result<_, _>>()?;
        run::check_games_and_seeds(settings.games, settings.seed)
            .and_then(|()| Board::new(usize::from(settings.board_height)).map_err(Into::into))
            .map_err(|error| bad(path, error.to_string()))?;
        Ok(Merged::Tournament { settings, finished })
    }
}

/// An `arena nes` run's settings in a part.
///
/// The run's [`NesRunSettings`] hold the parsed strategy, which a part stores by name and the
/// merge parses back, so that a bad name is the merge's one-line error about the part rather
/// than a failure to read the file; hence this stored form, field for field the run's.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NesPartSettings {
    /// The strategy's canonical name.
    pub strategy: String,
    /// Whether its searcher ignores gravity.
    pub ignores_gravity: bool,
    /// Games.
    pub games: u64,
    /// Game k uses `seed + k`.
    pub seed: u64,
    /// Start level.
    pub start_level: u8,
    /// Stop level.
    pub stop_level: u8,
    /// Tap rate.
    pub tap_rate: u8,
    /// The game-over rule (parts written before the console rule existed played the
    /// simulation rule, the default).
    #[serde(default)]
    pub game_over_rule: GameOverRule,
    /// The input model (absent in parts written before it was recorded: two-thumb).
    #[serde(default)]
    pub inputs: InputModel,
}

impl NesPartSettings {
    /// The stored form of a run's settings.
    pub fn of(settings: &NesRunSettings) -> NesPartSettings {
        NesPartSettings {
            strategy: settings.strategy.to_string(),
            ignores_gravity: settings.ignores_gravity,
            games: settings.games,
            seed: settings.seed,
            start_level: settings.start_level,
            stop_level: settings.stop_level,
            tap_rate: settings.tap_rate,
            game_over_rule: settings.game_over_rule,
            inputs: settings.inputs,
        }
    }

    /// The run's settings, with the stored strategy parsed into `strategy`.
    fn into_run(self, strategy: StrategySpec) -> NesRunSettings {
        NesRunSettings {
            strategy,
            ignores_gravity: self.ignores_gravity,
            games: self.games,
            seed: self.seed,
            start_level: self.start_level,
            stop_level: self.stop_level,
            tap_rate: self.tap_rate,
            game_over_rule: self.game_over_rule,
            inputs: self.inputs,
        }
    }
}

/// `arena nes`'s parts: [`NesPartSettings`] and one [`NesGameResult`] per game.
#[derive(Clone, Copy, Debug)]
pub struct ShardedNes;

impl ShardedRun for ShardedNes {
    const COMMAND: &'static str = "nes";
    const UNIT: &'static str = "games";
    const MAX_GAMES: u64 = run::MAX_GAMES;
    type Settings = NesPartSettings;
    type Result = NesGameResult;

    fn games(settings: &NesPartSettings) -> u64 {
        settings.games
    }

    part_body_variant!(Nes);

    fn tasks(
        path: &Path,
        settings: &NesPartSettings,
        games: &[u64],
        results: &[NesGameResult],
    ) -> Result<Vec<(u64, u64)>, ArenaError> {
        // A game's result carries its seed, `seed + game`.
        let held: Vec<u64> = results
            .iter()
            .map(|result| result.seed.wrapping_sub(settings.seed))
            .collect();
        if held != games {
            return Err(bad(
                path,
                "its results are not one per game it holds".into(),
            ));
        }
        Ok(held.into_iter().map(|game| (game, 0)).collect())
    }

    fn merged(
        path: &Path,
        settings: NesPartSettings,
        finished: Finished<NesGameResult>,
    ) -> Result<Merged, ArenaError> {
        let strategy = strategy_spec(path, &settings.strategy)?;
        run::check_games_and_seeds(settings.games, settings.seed)
            .map_err(|error| bad(path, error.to_string()))?;
        Ok(Merged::Nes {
            settings: settings.into_run(strategy),
            finished,
        })
    }
}

/// An `arena stats` run's settings in a part: the strategy's name, then the run's settings'
/// fields.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct StatsPartSettings {
    /// The strategy's canonical name.
    pub strategy: String,
    /// The run's settings.
    #[serde(flatten)]
    pub run: StatisticsSettings,
}

/// `arena stats`'s parts: [`StatsPartSettings`] and the [`PieceStatistics`] of each block
/// held (one: shard K of N plays block K of N).
#[derive(Clone, Copy, Debug)]
pub struct ShardedStats;

impl ShardedRun for ShardedStats {
    const COMMAND: &'static str = "stats";
    const UNIT: &'static str = "blocks";
    const MAX_GAMES: u64 = crate::run::statistics::MAX_BLOCKS;
    type Settings = StatsPartSettings;
    type Result = PieceStatistics;

    fn games(settings: &StatsPartSettings) -> u64 {
        settings.run.blocks
    }

    part_body_variant!(Stats);

    fn tasks(
        path: &Path,
        settings: &StatsPartSettings,
        blocks: &[u64],
        results: &[PieceStatistics],
    ) -> Result<Vec<(u64, u64)>, ArenaError> {
        if results.len() != blocks.len() {
            return Err(bad(
                path,
                "its results are not one per block it holds".into(),
            ));
        }
        let settings = &settings.run;
        for statistics in results {
            check_statistics(path, statistics, settings.board_height)?;
            if statistics.row_rule != settings.row_rule {
                return Err(bad(
                    path,
                    format!(
                        "piece statistics counted by the {} row, not the {} row of its settings",
                        statistics.row_rule, settings.row_rule
                    ),
                ));
            }
        }
        Ok(blocks.iter().map(|&block| (block, 0)).collect())
    }

    fn merged(
        path: &Path,
        settings: StatsPartSettings,
        finished: Finished<PieceStatistics>,
    ) -> Result<Merged, ArenaError> {
        let StatsPartSettings { strategy, run } = settings;
        run.check()
            .and_then(|()| Board::new(usize::from(run.board_height)).map_err(Into::into))
            .map_err(|error| bad(path, error.to_string()))?;
        Ok(Merged::Stats {
            strategy,
            statistics: Box::new(merge_blocks(
                run.board_height,
                run.row_rule,
                &finished.results,
            )),
            settings: run,
        })
    }
}
