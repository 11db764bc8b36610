//! The request for a tuning run (`arena tune`): an evaluator's weights searched by CEM, PSO or
//! a genetic algorithm, playing games with a fixed searcher and depth.

use std::path::PathBuf;

use std::path::Path;

use tetris_core::{Evaluator, GameOverRule, GeneratorKind, InputModel, Searcher, Timeline};
use tetris_registry::{
    RegistryError, StrategySpec, WeightsChoice, evaluator_by_name, evaluator_names,
    searcher_by_name, searcher_names,
};

use crate::error::ArenaError;
use crate::nes::NesRequestError;
use tetris_arena_io::Field;
use tetris_arena_io::output::check_output_file;
use tetris_arena_io::values::{
    self, BoardHeight, Depth, GameCount, Jobs, MaxPieces, ReactionFrames, StartLevel,
};
use tetris_arena_jobs::{JobFiles, frameless_game_over_rule};
use tetris_arena_reports::tune::checkpoint::{FitnessKind, TuneSettings};
use tetris_arena_reports::tune::methods::{CemStart, MethodKind, euclidean_length};

/// A tuning run.
#[derive(Clone, Debug)]
pub struct TuneRequest {
    /// The evaluator whose weights are tuned.
    pub evaluator: String,
    /// The search method.
    pub method: MethodKind,
    /// The searcher the candidates play with.
    pub searcher: String,
    /// Lookahead depth of the candidates.
    pub depth: Depth,
    /// Games per candidate per iteration.
    pub games: GameCount,
    /// The field's rows.
    pub board_height: BoardHeight,
    /// The games' piece generator.
    pub generator: GeneratorKind,
    /// Iterations in all.
    pub iterations: u64,
    /// The run's seed.
    pub seed: u64,
    /// Candidates per iteration.
    pub population: usize,
    /// What a candidate's games score.
    pub fitness: FitnessKind,
    /// Every game's piece cap.
    pub max_pieces: MaxPieces,
    /// The game-over rule (`None`: the searcher's).
    pub game_over: Option<GameOverRule>,
    /// Worker threads (`None`: the available cores).
    pub jobs: Option<Jobs>,
    /// The weights file written after every iteration.
    pub out: PathBuf,
    /// The checkpoint written after every iteration.
    pub checkpoint: Option<PathBuf>,
    /// With an external runner (`--runner`): its work folder, where the tuner writes and
    /// removes its task files (the one given, or the default
    /// [`tetris_arena_reports::tune::external::work_dir`] chose); `None` without a runner.
    pub work_dir: Option<PathBuf>,
    /// `plateau-score`: the level the games start at (below 29, where they stop).
    pub start_level: StartLevel,
    /// `plateau-score`: the player's input-frame timeline.
    pub timeline: Timeline,
    /// `plateau-score`: the player's input model.
    pub inputs: InputModel,
    /// `plateau-score`: frames from a piece's spawn before the player sees the preview.
    pub reaction_frames: ReactionFrames,
    /// CEM's start (`--start`), `None`: from scratch.
    pub start: Option<StartWeights>,
    /// The candidates' strategy options (`--options`), as after the evaluator in a strategy
    /// name; empty for none.
    pub options: String,
}

/// Weights CEM starts from (`--start`, `--start-spread`).
#[derive(Clone, Debug)]
pub struct StartWeights {
    /// The evaluator's preset name or a weights file, as after `:` in a strategy name.
    pub weights: String,
    /// Each weight's starting deviation as a share of its size (see [`CemStart::new`]).
    pub spread: f64,
}

/// The largest `--start-spread`: deviations of 10 times each weight are no longer a start.
pub const MAX_START_SPREAD: f64 = 10.0;

/// The largest population (`--population`). Each candidate's strategy is built and kept for
/// the iteration: about 27.5 KiB per candidate measured (`--population 10000` peaks at
/// 280 MB, 40,000 at 1.1 GB, with one game each), so 20,000 keep a run near 550 MB.
pub const MAX_POPULATION: usize = 20_000;

/// The most games per iteration (`--population` × `--games`): each game's value is kept until
/// the iteration ends, about 26 bytes each measured, so 10,000,000 of them take some 260 MB.
/// With [`MAX_POPULATION`] a run stays under about 1 GB.
pub const MAX_ITERATION_GAMES: u64 = 10_000_000;

/// A rule of a tuning run that the request breaks.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TuneRequestError {
    /// The plateau fitness at a depth the NES does not show.
    #[error(
        "--fitness plateau-score plays NES games, which show one preview piece: --depth 1 or 2"
    )]
    PlateauDepth,
    /// A count of 0.
    #[error("{0} must be at least 1")]
    Zero(&'static str),
    /// A population outside 2..=[`MAX_POPULATION`].
    #[error("--population must be from 2 to {MAX_POPULATION}")]
    Population,
    /// More games per iteration (population × games) than [`MAX_ITERATION_GAMES`].
    #[error(
        "--population {population} × --games {games} is {} games per iteration, at most \
         {MAX_ITERATION_GAMES} (every game's value is kept in memory)",
        u128::from(*population) * u128::from(*games)
    )]
    IterationGames {
        /// The population.
        population: u64,
        /// Games per candidate.
        games: u64,
    },
    /// A player setting for games without a player.
    #[error(
        "--start-level, --tap-rate, --timeline, --inputs and --reaction-frames set the NES \
         games of --fitness plateau-score"
    )]
    PlayerWithoutPlateau,
    /// A start level the plateau games cannot start at.
    #[error(
        "--start-level must be below 29 for --fitness plateau-score (its games stop at the transition to 29)"
    )]
    PlateauStart,
    /// A start for a method without a mean.
    #[error("--start sets the starting mean of CEM: use --method cem")]
    StartMethod,
    /// Start weights that are all 0.
    #[error("--start: every weight is 0, which gives CEM no direction to start from")]
    StartZero,
    /// A spread outside (0, [`MAX_START_SPREAD`]].
    #[error("--start-spread must be above 0 and at most {MAX_START_SPREAD}")]
    StartSpread,
    /// Options the candidates' strategy does not take.
    #[error("--options {options:?}: {message}")]
    Options {
        /// The options as given.
        options: String,
        /// Why the candidates' strategy refuses them.
        message: String,
    },
}

/// A tuning request, checked.
// Non-exhaustive: outside this crate a value comes only from its request's check.
#[non_exhaustive]
pub struct CheckedTune {
    /// The run's settings (stored in the checkpoint).
    pub settings: TuneSettings,
    /// Worker threads.
    pub jobs: usize,
    /// CEM's start from given weights (`None`: from scratch).
    pub start: Option<CemStart>,
}

impl TuneRequest {
    /// The command line that resumes a run of `settings` (each value given as its option),
    /// running to `iterations` and writing `out` and `checkpoint`: the request `tune
    /// --resume` checks before it reads the checkpoint. A value outside its option's range is
    /// that option's error.
    pub fn resuming(
        settings: &TuneSettings,
        iterations: u64,
        out: PathBuf,
        checkpoint: PathBuf,
    ) -> Result<TuneRequest, ArenaError> {
        Ok(TuneRequest {
            evaluator: settings.evaluator.clone(),
            method: settings.method,
            searcher: settings.searcher.clone(),
            depth: Depth::try_from(settings.depth as u64)?,
            games: GameCount::try_from(settings.games)?,
            board_height: BoardHeight::try_from(settings.board_height as u64)?,
            generator: values::generator(&settings.generator)?,
            iterations,
            seed: settings.seed,
            population: settings.population,
            fitness: settings.fitness,
            max_pieces: MaxPieces::try_from(settings.max_pieces)?,
            game_over: Some(settings.game_over_rule),
            jobs: None,
            out,
            checkpoint: Some(checkpoint),
            work_dir: None,
            start_level: StartLevel::try_from(u64::from(settings.start_level))?,
            timeline: settings.timeline,
            inputs: settings.inputs,
            reaction_frames: ReactionFrames::try_from(u64::from(settings.reaction_frames))?,
            // The start decided the first iteration only: a resumed run continues from its
            // checkpoint's state.
            start: None,
            options: settings.options.clone(),
        })
    }

    /// Checks every rule of a tuning run before any game: the settings' rules
    /// ([`TuneRequest::settings`]) and the files: the weights and checkpoint outputs and the
    /// runner's work folder are distinct, none is an input, and the work folder holds none of
    /// the others.
    pub fn check(&self) -> Result<CheckedTune, ArenaError> {
        let settings = self.settings()?;
        check_output_file(Field::OUT, &self.out)?;
        if let Some(path) = &self.checkpoint {
            check_output_file(Field::CHECKPOINT, path)?;
        }
        // The checkpoint is read by --resume and rewritten: it is an output, never the
        // weights. The work folder is an output too: the tuner writes its task files there
        // and removes them, so no other file of the run may be it or lie in it.
        let mut files = JobFiles::default()
            .output(Field::CHECKPOINT, self.checkpoint.as_deref())
            .output(Field::OUT, Some(&self.out))
            .output(Field::WORK_DIR, self.work_dir.as_deref())
            .generator(&self.generator);
        if let Some(start) = &self.start
            && let WeightsChoice::File(path) = WeightsChoice::parse(&start.weights)
        {
            files = files.input("--start", Path::new(&path));
        }
        files.check()?;
        let start = self.cem_start()?;
        let mut settings = settings;
        if let Some((_, length)) = &start
            && !settings.options.is_empty()
        {
            settings.weight_scale = *length;
        }
        Ok(CheckedTune {
            start: start.map(|(start, _)| start),
            settings,
            jobs: Jobs::count_or_cores(self.jobs),
        })
    }

    /// CEM's start from `--start`: the evaluator's weights (a preset or a weights file, read
    /// and checked as a strategy's are), which must not all be 0, with `--start-spread`; and
    /// the weights' Euclidean length (the candidates' [`TuneSettings::weight_scale`] with
    /// `--options`).
    fn cem_start(&self) -> Result<Option<(CemStart, f64)>, ArenaError> {
        let Some(start) = &self.start else {
            return Ok(None);
        };
        if self.method != MethodKind::Cem {
            return Err(TuneRequestError::StartMethod.into());
        }
        if !(start.spread > 0.0 && start.spread <= MAX_START_SPREAD) {
            return Err(TuneRequestError::StartSpread.into());
        }
        let choice = WeightsChoice::parse(&start.weights);
        let evaluator = evaluator_by_name(&self.evaluator, &choice)
            .ok_or_else(|| RegistryError::unknown_evaluator(&self.evaluator))??;
        let weights = evaluator.weights().values();
        if weights.iter().all(|&weight| weight == 0.0) {
            return Err(TuneRequestError::StartZero.into());
        }
        Ok(Some((
            CemStart::new(weights, start.spread),
            euclidean_length(weights),
        )))
    }

    /// The rules of the run's values, before any game: the engines, depth, counts and
    /// population, and the game-over rule; the settings the run stores in its checkpoint.
    pub fn settings(&self) -> Result<TuneSettings, ArenaError> {
        if !evaluator_names().contains(&self.evaluator.as_str()) {
            return Err(RegistryError::unknown_evaluator(&self.evaluator).into());
        }
        if !searcher_names().contains(&self.searcher.as_str()) {
            return Err(RegistryError::unknown_searcher(&self.searcher).into());
        }
        if self.fitness == FitnessKind::PlateauScore && self.depth.get() > 2 {
            return Err(TuneRequestError::PlateauDepth.into());
        }
        self.generator.check_preview(self.depth.get())?;
        if self.iterations == 0 {
            return Err(TuneRequestError::Zero("--iterations").into());
        }
        if !(2..=MAX_POPULATION).contains(&self.population) {
            return Err(TuneRequestError::Population.into());
        }
        // Bounded before anything is built or played: a population's strategies and its
        // games' values are all in memory during an iteration.
        let population = self.population as u64;
        if population.saturating_mul(self.games.get()) > MAX_ITERATION_GAMES {
            return Err(TuneRequestError::IterationGames {
                population,
                games: self.games.get(),
            }
            .into());
        }
        let benchmark_player = self.start_level == StartLevel::PLATEAU
            && self.timeline == Timeline::THIRTY_HZ
            && self.inputs == InputModel::default()
            && self.reaction_frames == ReactionFrames::NONE;
        if self.fitness == FitnessKind::PlateauScore {
            if u32::from(self.start_level.get()) >= u32::from(tetris_core::PLATEAU_STOP_LEVEL) {
                return Err(TuneRequestError::PlateauStart.into());
            }
            let ignores_gravity = searcher_by_name(&self.searcher)
                .is_some_and(|searcher| searcher.frame_timing().is_none());
            if ignores_gravity && self.reaction_frames != ReactionFrames::NONE {
                return Err(NesRequestError::ReactionNeedsFrames(self.searcher.clone()).into());
            }
        } else if !benchmark_player {
            return Err(TuneRequestError::PlayerWithoutPlateau.into());
        }
        let mut settings = TuneSettings {
            evaluator: self.evaluator.clone(),
            method: self.method,
            searcher: self.searcher.clone(),
            depth: self.depth.get(),
            games: self.games.get(),
            board_height: self.board_height.rows(),
            generator: self.generator.to_string(),
            seed: self.seed,
            population: self.population,
            fitness: self.fitness,
            max_pieces: self.max_pieces.get(),
            // Set below, from the candidates' strategy.
            game_over_rule: GameOverRule::default(),
            start_level: self.start_level.get(),
            timeline: self.timeline,
            inputs: self.inputs,
            reaction_frames: self.reaction_frames.get(),
            // As given; spelled canonically below.
            options: self.options.clone(),
            // Set by the request's check, from the start.
            weight_scale: 1.0,
        };
        let searched = self.candidates_spec(&settings)?;
        // The canonical spelling, without the list's leading comma.
        settings.options = searched
            .options
            .to_string()
            .trim_start_matches(',')
            .to_string();
        settings.game_over_rule = frameless_game_over_rule(self.game_over, &[searched])?;
        Ok(settings)
    }

    /// The candidates' strategy with preset weights, its options checked as a name's are
    /// (`--options` names the value in the message); no `pattern=FILE`, a file each task of
    /// a runner would read where it runs.
    fn candidates_spec(&self, settings: &TuneSettings) -> Result<StrategySpec, ArenaError> {
        let refused = |message: String| TuneRequestError::Options {
            options: self.options.clone(),
            message,
        };
        let spec = settings.strategy_spec().map_err(|error| match error {
            RegistryError::Strategy { message, .. } => refused(message),
            other => refused(other.to_string()),
        })?;
        if spec.options.pattern.is_some() {
            return Err(refused(
                "pattern=FILE is not tuned with (every candidate, on every machine of a runner, \
                 would read the file)"
                    .to_string(),
            )
            .into());
        }
        Ok(spec)
    }
}
