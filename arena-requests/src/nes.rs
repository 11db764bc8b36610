//! The request for an NES plateau run (`arena nes`): one strategy plays N frame-accurate NES
//! games.

use std::path::PathBuf;

use tetris_core::{GameOverRule, InputModel, PieceState, Searcher, Timeline};
use tetris_registry::{Strategy, StrategySpec, searcher_by_name};

use crate::error::ArenaError;
use crate::{CheckedRun, RunOptions};
use tetris_arena_games::sim::nes::{
    MAX_NES_DEPTH, NesGameResult, NesRunSettings, default_nes_game_over_rule, play_nes_game,
    stop_level_lines,
};
use tetris_arena_io::Field;
use tetris_arena_io::output::check_output_file;
use tetris_arena_io::values::{GameCount, ReactionFrames, StartLevel};
use tetris_arena_jobs::JobFiles;
use tetris_arena_reports::nes::{NesGamesFile, SettingsJson};
use tetris_arena_reports::nes_trace::MAX_TRACED_GAMES;
use tetris_arena_runs::nes::{NesGames, NesRun};
use tetris_arena_runs::shard::{RunDelivery, ShardTasks, run_shard_tasks_in_order};
use tetris_arena_runs::{self, Finished, Progress, RunEnd, RunError, TaskOutcome};

/// An NES run: the strategy, the games' rules and the player's limits.
#[derive(Clone, Debug)]
pub struct NesRequest {
    /// The strategy's name (depth 1 or 2: the NES shows one preview piece).
    pub strategy: String,
    /// Games to play.
    pub games: GameCount,
    /// Game k uses seed `seed + k`.
    pub seed: u64,
    /// The level games start at.
    pub start_level: StartLevel,
    /// A game stops when a line clear takes the level here (above the start, at most 255).
    pub to_level: u64,
    /// A game stops when a line clear takes its lines to this many (at least 1, below the
    /// stop level's lines); `None`: no cap.
    pub max_lines: Option<u64>,
    /// The player's input-frame timeline (`--tap-rate T` is `X` and T − 1 dots).
    pub timeline: Timeline,
    /// The game-over rule (`None`: console for a gravity-aware searcher, else simulation).
    pub game_over: Option<GameOverRule>,
    /// The player's input model.
    pub inputs: InputModel,
    /// Frames from a piece's spawn before the player sees the preview piece.
    pub reaction_frames: ReactionFrames,
    /// Threads, shard and results file.
    pub run: RunOptions,
    /// The HTML report's file (`--html`), if any.
    pub html: Option<PathBuf>,
    /// The trace's file (`--trace`: every lock of every game, [`tetris_arena_reports::nes_trace`]),
    /// if any.
    pub trace: Option<PathBuf>,
}

/// An NES request, checked: the run's settings, its strategy (built once; the workers clone
/// it) and the run's plan.
// Non-exhaustive: outside this crate a value comes only from its request's check.
#[non_exhaustive]
pub struct CheckedNes {
    /// Everything that decides the games.
    pub settings: NesRunSettings,
    /// The strategy.
    pub strategy: Strategy,
    /// Threads, shard and delivery.
    pub run: CheckedRun,
    /// The trace's file, if any (the games keep their locks only then).
    pub trace: Option<PathBuf>,
}

/// A rule of the NES run that the request breaks.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NesRequestError {
    /// A stop level not above the start level, or past a byte.
    #[error(
        "{to_level} {to} must be above {start_level} {start} and at most 255",
        to_level = Field::TO_LEVEL,
        start_level = Field::START_LEVEL
    )]
    LevelOrder {
        /// The stop level given.
        to: u64,
        /// The start level.
        start: StartLevel,
    },
    /// A line cap of no lines.
    #[error("{max_lines} must be at least 1", max_lines = Field::MAX_LINES)]
    NoLines,
    /// A line cap the games never reach, since the stop level ends them first.
    #[error(
        "{max_lines} {cap}: the games already end at the transition to level {stop} after \
         {lines} lines ({to_level}): give a cap below {lines}, or a higher {to_level}",
        max_lines = Field::MAX_LINES,
        to_level = Field::TO_LEVEL
    )]
    CapAfterStop {
        /// The cap given.
        cap: u64,
        /// The stop level.
        stop: u64,
        /// The lines at which the stop level is reached.
        lines: u32,
    },
    /// An HTML report asked of one shard.
    #[error(
        "{html} needs the whole run: a shard writes a partial result, not a report",
        html = Field::HTML
    )]
    HtmlOfShard,
    /// A trace asked of one shard.
    #[error(
        "{trace} needs the whole run: trace the games you want with {seed} and {games} instead \
         of a shard",
        trace = Field::TRACE,
        seed = Field::SEED,
        games = Field::GAMES
    )]
    TraceOfShard,
    /// A trace of more games than it keeps.
    #[error(
        "{trace} keeps every lock of every game: at most {max} games, not {games} (game k \
         uses seed S + k, so {seed} and {games_field} pick the ones to trace)",
        trace = Field::TRACE,
        seed = Field::SEED,
        games_field = Field::GAMES
    )]
    TraceTooLong {
        /// The games asked for.
        games: u64,
        /// [`MAX_TRACED_GAMES`].
        max: u64,
    },
    /// The console rule for a searcher that ignores gravity.
    #[error(
        "{game_over}: searcher {0} ignores gravity and cannot play the console rule (a piece \
         that spawns overlapping may move out, frame by frame): use a gravity-aware searcher \
         (gamepad) or {simulation}",
        game_over = Field::GAME_OVER,
        simulation = Field::GAME_OVER.given("simulation")
    )]
    ConsoleNeedsGravity(String),
    /// A reaction time for a searcher that ignores gravity, which has no frames to play.
    #[error(
        "{reaction_frames}: searcher {0} ignores gravity and plays no frames, so a reaction \
         time means nothing to it: use a gravity-aware searcher (gamepad) or 0",
        reaction_frames = Field::REACTION_FRAMES
    )]
    ReactionNeedsFrames(String),
    /// The literature rule, which is the one-piece game's.
    #[error(
        "{game_over}: the literature rule is the one-piece game's, not the console's: use \
         console or simulation",
        game_over = Field::GAME_OVER
    )]
    NotTheConsolesRule,
}

/// The game-over rule of an NES run: `explicit` when given (`console` or `simulation`), else
/// the console rule for a gravity-aware searcher and the simulation rule for one that ignores
/// gravity. The console lets a piece that spawns overlapping move out, which only a
/// frame-by-frame search can find, so a searcher that ignores gravity cannot play it.
pub fn nes_game_over_rule(
    explicit: Option<GameOverRule>,
    gravity_aware: bool,
    searcher: &str,
) -> Result<GameOverRule, NesRequestError> {
    match explicit {
        None => Ok(default_nes_game_over_rule(gravity_aware)),
        Some(GameOverRule::Simulation) => Ok(GameOverRule::Simulation),
        Some(GameOverRule::Console) if gravity_aware => Ok(GameOverRule::Console),
        Some(GameOverRule::Console) => {
            Err(NesRequestError::ConsoleNeedsGravity(searcher.to_string()))
        }
        Some(GameOverRule::Literature) => Err(NesRequestError::NotTheConsolesRule),
    }
}

impl NesRequest {
    /// The request of the run a trace records (`arena replay TRACE`): its strategy and the
    /// settings of its run line, checked as `arena nes` checks them, to play on `jobs`
    /// threads. Errors: settings the trace cannot have been written with, named as the
    /// option they stand for (the caller says which file and line).
    pub fn of_trace(
        run: &tetris_arena_games::sim::nes_trace::TraceRun,
        jobs: Option<tetris_arena_io::values::Jobs>,
    ) -> Result<NesRequest, ArenaError> {
        let settings: SettingsJson = serde_json::from_value(run.settings.clone())
            .map_err(|error| ArenaError::Usage(error.to_string()))?;
        let timeline = match (settings.tap_rate, settings.timeline) {
            (Some(tap_rate), None) => {
                tetris_arena_io::values::TapRate::try_from(u64::from(tap_rate))?.timeline()
            }
            (None, Some(timeline)) => timeline,
            _ => {
                return Err(ArenaError::Usage(
                    "give tap_rate or timeline, not both or neither".into(),
                ));
            }
        };
        Ok(NesRequest {
            strategy: run.strategy.clone(),
            games: GameCount::try_from(settings.games)?,
            seed: settings.seed,
            start_level: StartLevel::try_from(u64::from(settings.start_level))?,
            to_level: u64::from(settings.stop_level),
            max_lines: settings.max_lines.map(u64::from),
            timeline,
            game_over: Some(settings.game_over_rule),
            inputs: settings.inputs,
            reaction_frames: ReactionFrames::try_from(u64::from(settings.reaction_frames))?,
            run: RunOptions {
                jobs,
                ..RunOptions::default()
            },
            html: None,
            trace: None,
        })
    }

    /// The request of a run with `settings` (a part's, read back by `arena merge`): its
    /// rules and player, no outputs, to be checked by [`NesRequest::run_settings`].
    pub fn of_settings(settings: &NesRunSettings) -> Result<NesRequest, ArenaError> {
        Ok(NesRequest {
            strategy: settings.strategy.to_string(),
            games: GameCount::try_from(settings.games)?,
            seed: settings.seed,
            start_level: StartLevel::try_from(u64::from(settings.start_level))?,
            to_level: u64::from(settings.stop_level),
            max_lines: settings.max_lines.map(u64::from),
            timeline: settings.timeline,
            game_over: Some(settings.game_over_rule),
            inputs: settings.inputs,
            reaction_frames: ReactionFrames::try_from(u64::from(settings.reaction_frames))?,
            run: RunOptions::default(),
            html: None,
            trace: None,
        })
    }

    /// Checks every rule of an NES run that its settings alone decide (no file is read, no
    /// evaluator built), and returns the run's settings: the seeds, the levels, the line cap
    /// (below the stop level's lines), the strategy (depth at most the NES's preview, a
    /// searcher whose pieces start at the spawn), the game-over rule and reaction time its
    /// searcher can play. [`NesRequest::check`] starts with it; `arena merge` checks a part's
    /// settings with it.
    pub fn run_settings(&self) -> Result<NesRunSettings, ArenaError> {
        let games = self.games.get();
        tetris_arena_runs::check_last_seed(self.seed, Some(games - 1), &format!("{games} games"))?;
        let start = self.start_level;
        if self.to_level > 255 || self.to_level <= u64::from(start.get()) {
            return Err(NesRequestError::LevelOrder {
                to: self.to_level,
                start,
            }
            .into());
        }
        let stop = self.to_level as u8;
        let max_lines = match self.max_lines {
            None => None,
            Some(0) => return Err(NesRequestError::NoLines.into()),
            Some(cap) => {
                // The stop level's lines: within a million for every level the checks
                // above accept.
                let lines = stop_level_lines(start.get(), stop).unwrap_or(u32::MAX);
                if cap >= u64::from(lines) {
                    return Err(NesRequestError::CapAfterStop {
                        cap,
                        stop: self.to_level,
                        lines,
                    }
                    .into());
                }
                Some(cap as u32)
            }
        };
        let spec: StrategySpec = self.strategy.parse()?;
        if spec.depth > MAX_NES_DEPTH {
            return Err(ArenaError::Registry(
                tetris_registry::RegistryError::Strategy {
                    strategy: spec.to_string(),
                    message: format!(
                        "depth {} sees more pieces than the NES shows: use depth 1 or 2 (current \
                     piece and preview)",
                        spec.depth
                    ),
                },
            ));
        }
        let searcher = searcher_by_name(&spec.searcher);
        let starts_at_the_spawn = searcher
            .as_ref()
            .is_some_and(|searcher| searcher.path_start() == PieceState::SPAWN);
        if !starts_at_the_spawn {
            // The console's pieces spawn at the top and fall; a searcher whose pieces come
            // from above the field (`drop`) places them where no NES piece can be.
            return Err(ArenaError::Registry(
                tetris_registry::RegistryError::Strategy {
                    strategy: spec.to_string(),
                    message: format!(
                        "searcher {} plays the literature's game (pieces dropped from above the \
                     field), not the console's: use a searcher that starts from the spawn",
                        spec.searcher
                    ),
                },
            ));
        }
        // The strategy's frame timing is its searcher's (`Strategy::frame_timing`).
        let ignores_gravity = searcher.is_none_or(|searcher| searcher.frame_timing().is_none());
        let game_over_rule = nes_game_over_rule(self.game_over, !ignores_gravity, &spec.searcher)?;
        if ignores_gravity && self.reaction_frames.get() > 0 {
            return Err(NesRequestError::ReactionNeedsFrames(spec.searcher.clone()).into());
        }
        if self.reaction_frames.get() > 0 {
            spec.check_replans()?;
        }
        Ok(NesRunSettings {
            strategy: spec,
            ignores_gravity,
            games,
            seed: self.seed,
            start_level: start.get(),
            stop_level: stop,
            max_lines,
            timeline: self.timeline,
            game_over_rule,
            inputs: self.inputs,
            reaction_frames: self.reaction_frames.get(),
            engine: None,
        })
    }

    /// Checks every rule of an NES run before any game starts: its settings
    /// ([`NesRequest::run_settings`]), the strategy built, and the outputs (none a file the
    /// strategy reads; the HTML report and the trace not of a shard, the trace of at most
    /// [`MAX_TRACED_GAMES`] games).
    pub fn check(&self) -> Result<CheckedNes, ArenaError> {
        let settings = self.run_settings()?;
        let games = settings.games;
        if let Some(path) = &self.html {
            if self.run.shard.is_some() {
                return Err(NesRequestError::HtmlOfShard.into());
            }
            // Fail now rather than after the games.
            check_output_file(Field::HTML, path)?;
        }
        if let Some(path) = &self.trace {
            if self.run.shard.is_some() {
                return Err(NesRequestError::TraceOfShard.into());
            }
            if games > MAX_TRACED_GAMES {
                return Err(NesRequestError::TraceTooLong {
                    games,
                    max: MAX_TRACED_GAMES,
                }
                .into());
            }
            check_output_file(Field::TRACE, path)?;
        }
        let strategy = Strategy::new(settings.strategy.clone())?;
        let settings = NesRunSettings {
            engine: crate::outside_engine_name(&strategy),
            ..settings
        };
        let run = self.run.check(games)?;
        JobFiles::default()
            .output(Field::OUT, self.run.out.as_deref())
            .output(Field::HTML, self.html.as_deref())
            .output(Field::TRACE, self.trace.as_deref())
            .strategy(&settings.strategy)
            .check()?;
        Ok(CheckedNes {
            settings,
            strategy,
            run,
            trace: self.trace.clone(),
        })
    }
}

impl CheckedNes {
    /// Plays the checked run's games (its shard's) on its threads, counting them and their
    /// scores on `progress`, into the run's summary (the games kept only for a run of at most
    /// [`tetris_arena_runs::tournament::HELD_GAMES_LIMIT`]); with a CSV or JSON Lines `--out`
    /// file each game is written to it as it finishes. A game stops after its current piece, dropped, once
    /// `stop` says so.
    pub fn play(
        &self,
        progress: &Progress,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Result<NesRun, ArenaError> {
        let games_file = match &self.run.delivery {
            RunDelivery::Report(destination) => destination.games_file(),
            RunDelivery::Part(_) => None,
        };
        let mut games_file = games_file
            .map(|(path, format)| NesGamesFile::create(path, format, &self.settings))
            .transpose()?;
        let mut file_error = None;
        let mut games = NesGames::new(self.run.shard.game_count(self.settings.games));
        let end = self.play_games(progress, stop, self.trace.is_some(), |game| {
            if let Some(file) = games_file.as_mut() {
                if let Err(error) = file.write(&game) {
                    file_error = Some(error);
                    return Err(RunError::Refused("the games file failed".into()));
                }
            }
            games.add(game);
            Ok(())
        });
        if let Some(error) = file_error {
            return Err(error.into());
        }
        let mut run = games.finish(end?);
        if let Some(file) = games_file {
            file.commit()?;
            run.games_streamed = true;
        }
        Ok(run)
    }

    /// [`CheckedNes::play`], every game kept with its trace
    /// ([`tetris_arena_games::sim::nes::NesGamePlay::trace`]): what `arena replay --redecide`
    /// holds a trace against (a trace has at most [`MAX_TRACED_GAMES`] games).
    pub fn play_traced(
        &self,
        progress: &Progress,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Result<Finished<NesGameResult>, ArenaError> {
        let mut results = Vec::new();
        let end = self.play_games(progress, stop, true, |game| {
            results.push(game);
            Ok(())
        })?;
        Ok(Finished {
            results,
            interrupted: end.interrupted,
            jobs: end.jobs,
            wall: end.wall,
        })
    }

    /// Plays the games, handing each to `take` in game order as it finishes.
    fn play_games(
        &self,
        progress: &Progress,
        stop: &(dyn Fn() -> bool + Sync),
        trace: bool,
        mut take: impl FnMut(NesGameResult) -> Result<(), RunError>,
    ) -> Result<RunEnd, ArenaError> {
        let settings = &self.settings;
        run_shard_tasks_in_order(
            ShardTasks {
                shard: self.run.shard,
                games: settings.games,
                tasks_per_game: 1,
            },
            self.run.jobs,
            progress,
            || Ok(self.strategy.clone()),
            |strategy, game| {
                let played = play_nes_game(
                    strategy,
                    settings.game_settings(game),
                    settings.game_play(trace),
                    stop,
                )?;
                Ok(match played {
                    Some(result) => {
                        progress.add_score(result.score);
                        // The `progress:` lines count pieces too (they said 0 before).
                        progress.add_pieces(result.pieces);
                        TaskOutcome::Done(result)
                    }
                    None => TaskOutcome::Stopped,
                })
            },
            |_, game| take(game),
        )
        .map_err(ArenaError::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tetris_arena_runs::shard::kinds::NesPartSettings;

    /// A trace's run line is the report's settings object; `of_trace` must read back the
    /// request that wrote it, whatever the timeline, cap, rule, inputs and reaction time.
    #[test]
    fn a_traces_settings_read_back_as_the_run_that_wrote_them() {
        let strategies = ["gamepad+nes-plateau@2", "column-drop+nes-plateau@1"];
        let timelines = ["X.", "X..", "X....X...X..."];
        for (case, timeline) in timelines.iter().enumerate() {
            let request = NesRequest {
                strategy: strategies[case % 2].to_string(),
                games: GameCount::try_from(3 + case as u64).unwrap(),
                seed: 40 + case as u64,
                start_level: StartLevel::try_from(18 + case as u64 % 2).unwrap(),
                to_level: [29, 39, 30][case],
                max_lines: [None, Some(77), None][case],
                timeline: timeline.parse().unwrap(),
                game_over: [None, Some(GameOverRule::Simulation), None][case],
                inputs: [InputModel::TwoThumb, InputModel::Article][case % 2],
                reaction_frames: ReactionFrames::try_from([0, 0, 18][case]).unwrap(),
                run: RunOptions::default(),
                html: None,
                trace: None,
            };
            // A searcher that ignores gravity takes no reaction time.
            let written = request.check().unwrap().settings;
            let run = tetris_arena_games::sim::nes_trace::TraceRun {
                strategy: written.strategy.to_string(),
                settings: serde_json::to_value(SettingsJson::of(&written)).unwrap(),
                made_by: tetris_arena_io::output::MadeBy::current(),
            };
            let read = NesRequest::of_trace(&run, None).unwrap().check().unwrap();
            assert_eq!(
                NesPartSettings::of(&read.settings),
                NesPartSettings::of(&written),
                "{timeline}"
            );
        }
    }

    #[test]
    fn the_nes_rule_defaults_to_the_searchers_and_refuses_what_it_cannot_play() {
        assert_eq!(
            nes_game_over_rule(None, true, "gamepad"),
            Ok(GameOverRule::Console)
        );
        assert_eq!(
            nes_game_over_rule(None, false, "bfs"),
            Ok(GameOverRule::Simulation)
        );
        assert_eq!(
            nes_game_over_rule(Some(GameOverRule::Console), false, "column-drop"),
            Err(NesRequestError::ConsoleNeedsGravity("column-drop".into()))
        );
        assert_eq!(
            nes_game_over_rule(Some(GameOverRule::Literature), true, "gamepad"),
            Err(NesRequestError::NotTheConsolesRule)
        );
    }
}
