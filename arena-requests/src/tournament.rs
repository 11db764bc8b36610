//! The request for a tournament (`arena tournament`, the Python package's `tournament`): every
//! strategy plays the same N piece sequences.

use std::path::PathBuf;

use tetris_core::{GameOverRule, GeneratorKind};
use tetris_registry::Strategy;

use crate::error::ArenaError;
use crate::{CheckedRun, RunOptions};
use tetris_arena_io::Field;
use tetris_arena_io::output::{check_output_file, check_output_folder};
use tetris_arena_io::values::{BoardHeight, GameCount, MaxPieces, check_pattern_height};
use tetris_arena_jobs::{
    DistinctStrategies, JobFiles, Needed, RequestError, distinct_strategies,
    frameless_game_over_rule,
};
use tetris_arena_reports::tournament::{TournamentGamesFile, is_plots_output};
use tetris_arena_runs::shard::RunDelivery;
use tetris_arena_runs::tournament::{
    OutsideEngine, TournamentRun, TournamentSettings, play_tournament,
};
use tetris_arena_runs::{self, Progress, RunError};

/// A tournament: the strategies, the games' rules, how the run is carried out and what it
/// writes.
#[derive(Clone, Debug)]
pub struct TournamentRequest {
    /// The strategies' names, in the order given.
    pub strategies: Vec<String>,
    /// Games per strategy.
    pub games: GameCount,
    /// Game k uses seed `seed + k`.
    pub seed: u64,
    /// The piece generator.
    pub generator: GeneratorKind,
    /// The piece cap of every game.
    pub max_pieces: Option<MaxPieces>,
    /// The field's rows.
    pub board_height: BoardHeight,
    /// The game-over rule of every game (`None`: the searchers' common default).
    pub game_over: Option<GameOverRule>,
    /// Estimate each strategy's expected game length from where its pieces lock.
    pub estimate: bool,
    /// Threads, shard and results file.
    pub run: RunOptions,
    /// The plots folder.
    pub plots: Option<PathBuf>,
    /// The report page.
    pub html: Option<PathBuf>,
}

/// A tournament request, checked: the settings stored with the results, the strategies
/// (built once; the workers clone them) and the run's plan.
// Non-exhaustive: outside this crate a value comes only from its request's check.
#[non_exhaustive]
pub struct CheckedTournament {
    /// Everything that decides the games.
    pub settings: TournamentSettings,
    /// The strategies, in the order given.
    pub strategies: Vec<Strategy>,
    /// Threads, shard and delivery.
    pub run: CheckedRun,
}

impl TournamentRequest {
    /// Checks every rule of a tournament before any game starts, so a bad name or path fails
    /// at once: the seeds of the last game fit in 64 bits, the generator starts (a piece file
    /// is read), every strategy builds and fits the field, no two play alike, they share a
    /// frame-less game-over rule, and the outputs suit the run (a shard writes a part, not a
    /// report or a page), are distinct files and none is a file the run reads.
    pub fn check(&self) -> Result<CheckedTournament, ArenaError> {
        let games = self.games.get();
        tetris_arena_runs::check_last_seed(self.seed, Some(games - 1), &format!("{games} games"))?;
        // Reads and checks a piece file now rather than in every game.
        self.generator.start(self.seed)?;
        let DistinctStrategies {
            specs,
            names,
            strategies,
        } = distinct_strategies(&self.strategies)?;
        for strategy in &strategies {
            check_pattern_height(strategy, self.board_height.get(), Field::BOARD_HEIGHT)?;
            self.generator.check_preview(strategy.depth())?;
        }
        let game_over_rule = frameless_game_over_rule(self.game_over, &specs)?;
        if let Some(path) = &self.html {
            if self.run.shard.is_some() {
                return Err(RequestError::Needs {
                    option: Field::HTML,
                    needs: Needed::Words(
                        "the whole run: a shard writes a partial result, not a report",
                    ),
                }
                .into());
            }
            // Fail now rather than after the games.
            check_output_file(Field::HTML, path)?;
        }
        if let Some(folder) = &self.plots {
            if self.run.shard.is_none() {
                check_output_folder(Field::PLOTS, folder, is_plots_output)?;
            }
        }
        let run = self.run.check(games)?;
        // A shard writes its part only: the plots folder is the merge's.
        let plots = self.plots.as_deref().filter(|_| self.run.shard.is_none());
        let files = JobFiles::default()
            .output(Field::OUT, self.run.out.as_deref())
            .output(Field::HTML, self.html.as_deref())
            .output(Field::PLOTS, plots)
            .generator(&self.generator);
        specs.iter().fold(files, JobFiles::strategy).check()?;
        let settings = TournamentSettings {
            game_over_rule,
            specs,
            names,
            games,
            seed: self.seed,
            generator: self.generator.clone(),
            max_pieces: self.max_pieces,
            board_height: self.board_height,
            piece_statistics: self.plots.is_some() || self.html.is_some() || self.estimate,
            estimate: self.estimate,
            engines: strategies
                .iter()
                .map(|strategy| {
                    crate::outside_engine_name(strategy).map(|name| OutsideEngine {
                        name,
                        depth: strategy.depth(),
                    })
                })
                .collect(),
        };
        Ok(CheckedTournament {
            settings,
            strategies,
            run,
        })
    }
}

impl CheckedTournament {
    /// Plays the checked run's games (its shard's, every strategy's) on its threads, counting
    /// them on `progress`, into the run's summaries; with a CSV or JSON Lines `--out` file
    /// each game is written to it as it finishes (put in place when the run ends, interrupted or not).
    pub fn play(&self, progress: &Progress) -> Result<TournamentRun, ArenaError> {
        let games_file = match &self.run.delivery {
            RunDelivery::Report(destination) => destination.games_file(),
            RunDelivery::Part(_) => None,
        };
        let mut games_file = games_file
            .map(|(path, format)| TournamentGamesFile::create(path, format, &self.settings.names))
            .transpose()?;
        let mut file_error = None;
        let played = play_tournament(
            &self.settings,
            &self.strategies,
            self.run.shard,
            self.run.jobs,
            progress,
            |row| {
                if let Some(file) = games_file.as_mut() {
                    if let Err(error) = file.write(row) {
                        file_error = Some(error);
                        return Err(RunError::Refused("the games file failed".into()));
                    }
                }
                Ok(())
            },
        );
        if let Some(error) = file_error {
            return Err(error.into());
        }
        let mut played = played?;
        if let Some(file) = games_file {
            file.commit()?;
            played.games_streamed = true;
        }
        Ok(played)
    }

    /// The games the checked run plays (its shard's, all strategies').
    pub fn task_count(&self) -> u64 {
        self.run.shard.game_count(self.settings.games) * self.settings.specs.len() as u64
    }
}
