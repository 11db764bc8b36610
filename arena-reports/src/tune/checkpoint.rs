//! The tuner's run: its settings, the checkpoint that holds its whole state between
//! iterations, and one iteration (every candidate plays the same games on the arena's runner,
//! then the method advances). `arena tune` drives it.
//!
//! # Rules of a run
//!
//! - Weight scale: every candidate is normalised to unit Euclidean length before it is
//!   evaluated (the ranking of placements is invariant to a positive factor), for all methods.
//! - Common random numbers, renewed per iteration: in iteration i (from 0) every candidate
//!   plays the same N games, game k with seed `G_i + k` (wrapping), where
//!   `G_i = tune::derived_seed(seed, tune::SEED_GAMES, i)`; the next iteration plays new
//!   sequences, so a candidate is not tuned to one fixed set of games.
//! - Fitness (higher is better): the mean lines of the N games (`mean-lines`) or the mean of
//!   the best ⌈N/3⌉ games (`best-third`); every game stops at `--max-pieces`.
//! - The random numbers of the start come from `derived_seed(seed, SEED_INITIAL, 0)` and
//!   those of iteration i's update from `derived_seed(seed, SEED_UPDATE, i)`, so no generator
//!   state has to be saved: a resumed run redraws exactly what an uninterrupted one draws.
//! - The best candidate so far is the one with the highest fitness in any iteration (each
//!   measured on its own iteration's games; ties keep the earlier one). It is written to
//!   `--out` after every iteration.
//!
//! # Determinism
//!
//! Candidates × games run on a pool of `--jobs` threads and every result is stored at its
//! (candidate, game) place, so the fitness, the method's updates and the output file are
//! bit-identical whatever `--jobs` is, and a run resumed from its checkpoint writes the same
//! bytes as an uninterrupted run with the same settings.

use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tetris_core::{
    Evaluator, GameOverRule, GeneratorKind, InputModel, NesGameSettings, PLATEAU_START_LEVEL,
    Searcher as _, Timeline, Weights,
};
use tetris_registry::{
    RegistryError, Strategy, StrategyOptions, StrategySpec, WeightsChoice, evaluator_by_name,
    evaluator_with_values,
};

use crate::error::ReportError;
use crate::tune::methods::{
    Method, MethodKind, SEED_GAMES, SEED_INITIAL, SEED_UPDATE, StateError, check_unit,
    derived_seed, rng_for,
};
use tetris_arena_games::sim::game::{GameResult, GameSettings};
use tetris_arena_games::sim::nes::{
    NesGamePlay, NesPlayer, default_nes_game_over_rule, play_nes_game,
};
use tetris_arena_io::format::indented_table;
use tetris_arena_io::output::{MadeBy, write_atomically};
use tetris_arena_io::values::{BoardHeight, MaxPieces};
use tetris_arena_runs::games::play_counted_game;
use tetris_arena_runs::{self, Progress, TaskOutcome, interrupt};

/// The checkpoint format's name, stored in every checkpoint.
pub const CHECKPOINT_FORMAT: &str = "arena-tune-checkpoint-1";

/// The largest checkpoint `tune --resume` reads: 64 MiB. A checkpoint holds the method's
/// state (a few vectors of weights per member of the population, at most 20,000 members) and
/// one line of history per iteration: a `--population 40000` checkpoint measured 7.6 MB, one
/// of 20 a few KiB.
pub const CHECKPOINT_LIMIT: u64 = 64 * tetris_core::files::MIB;

/// How a candidate's games become one fitness value (higher is better).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FitnessKind {
    /// Mean lines over the games.
    MeanLines,
    /// Mean lines over the best ⌈N/3⌉ games.
    BestThird,
    /// Mean score over the games: NES line-clear points from level 0, capped at 999,999, as
    /// `arena play` reports it.
    MeanScore,
    /// Mean line-clear points of the NES plateau benchmark's game (`arena nes`: frame by
    /// frame from level 19 to the transition to 29, 30 Hz tapping, `arena nes`'s default
    /// game-over rule; the game's seed draws the randomizer's start). Uncapped, because the displayed 999,999 would hide the
    /// differences between strong candidates. The board height and piece cap do not apply.
    PlateauScore,
}

impl FitnessKind {
    /// Every fitness, in the order `--help` lists them.
    pub const ALL: [FitnessKind; 4] = [
        FitnessKind::MeanLines,
        FitnessKind::BestThird,
        FitnessKind::MeanScore,
        FitnessKind::PlateauScore,
    ];

    /// What the fitness is, in a sentence or two (`--help`'s list of possible values).
    pub fn description(self) -> &'static str {
        match self {
            FitnessKind::MeanLines => "Mean lines over the games",
            FitnessKind::BestThird => "Mean lines over the best ⌈N/3⌉ games",
            FitnessKind::MeanScore => {
                "Mean score over the games: NES line-clear points from level 0, capped at \
                 999,999, as `arena play` reports it"
            }
            FitnessKind::PlateauScore => {
                "Mean line-clear points of the NES plateau benchmark's game (`arena nes`: frame \
                 by frame from level 19 to the transition to 29, 30 Hz tapping, `arena nes`'s \
                 default game-over rule; the game's seed draws the randomizer's start). \
                 Uncapped, because the displayed 999,999 would hide the differences between \
                 strong candidates. The board height and piece cap do not apply"
            }
        }
    }

    /// The name on the command line: `mean-lines`, `best-third`, `mean-score` or
    /// `plateau-score`.
    pub fn name(self) -> &'static str {
        match self {
            FitnessKind::MeanLines => "mean-lines",
            FitnessKind::BestThird => "best-third",
            FitnessKind::MeanScore => "mean-score",
            FitnessKind::PlateauScore => "plateau-score",
        }
    }

    /// What one frame-less game contributes: its lines, or its score for `mean-score`
    /// (`plateau-score` games are played by [`play_nes_game`] instead).
    pub fn game_value(self, result: &GameResult) -> u64 {
        match self {
            FitnessKind::MeanLines | FitnessKind::BestThird => result.lines,
            FitnessKind::MeanScore | FitnessKind::PlateauScore => result.score as u64,
        }
    }

    /// The fitness of one candidate's per-game values (see [`FitnessKind::game_value`]; at
    /// least one game).
    pub fn of(self, values: &[u64]) -> f64 {
        let mut sorted: Vec<u64> = values.to_vec();
        sorted.sort_unstable_by(|a, b| b.cmp(a));
        let counted = match self {
            FitnessKind::MeanLines | FitnessKind::MeanScore | FitnessKind::PlateauScore => {
                sorted.len()
            }
            FitnessKind::BestThird => sorted.len().div_ceil(3),
        };
        sorted[..counted].iter().sum::<u64>() as f64 / counted as f64
    }
}

/// Everything that decides a run's results (stored in the checkpoint and compared on resume,
/// but for [`TuneSettings::weight_scale`], which the run's start decided).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TuneSettings {
    /// The evaluator tuned.
    pub evaluator: String,
    /// The method.
    pub method: MethodKind,
    /// The searcher.
    pub searcher: String,
    /// The lookahead depth.
    pub depth: usize,
    /// Games per candidate per iteration.
    pub games: u64,
    /// Board rows.
    pub board_height: usize,
    /// The piece generator's name.
    pub generator: String,
    /// The run's seed.
    pub seed: u64,
    /// Candidates per iteration.
    pub population: usize,
    /// The fitness.
    pub fitness: FitnessKind,
    /// The piece cap of every game.
    pub max_pieces: u64,
    /// When a game is over (checkpoints written before the rule was recorded were all played
    /// under the simulation rule).
    #[serde(default)]
    pub game_over_rule: GameOverRule,
    /// `plateau-score`: the level the games start at. The four player settings are written
    /// only when they differ from the benchmark's (level 19, `X.`, two thumbs, no reaction
    /// time), which is what checkpoints written before they existed played.
    #[serde(
        default = "plateau_start_level",
        skip_serializing_if = "is_plateau_start_level"
    )]
    pub start_level: u8,
    /// `plateau-score`: the player's input-frame timeline.
    #[serde(
        default = "plateau_timeline",
        skip_serializing_if = "is_plateau_timeline"
    )]
    pub timeline: Timeline,
    /// `plateau-score`: the player's input model.
    #[serde(default, skip_serializing_if = "is_default_inputs")]
    pub inputs: InputModel,
    /// `plateau-score`: frames from a piece's spawn before the player sees the preview piece.
    #[serde(default, skip_serializing_if = "is_no_reaction")]
    pub reaction_frames: u8,
    /// The candidates' strategy options, as after the evaluator in a strategy name, in their
    /// canonical order without the leading comma (`expectimax=3,prefer-bonus=80`); empty for
    /// none, and then not written, which is what checkpoints written before it existed
    /// played.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub options: String,
    /// The length every candidate (a unit vector) is played at, and the weights file holds
    /// it at: with `options`, the length of `--start`'s weights, so that the options that
    /// are costs (`prefer-bonus`, `extra-deep-wells`, `overdeep-wells`) weigh beside the
    /// candidates what they weigh beside the start; 1 otherwise, and then not written. A
    /// resumed run takes it from its checkpoint (the start is not given again).
    #[serde(default = "unit_scale", skip_serializing_if = "is_unit_scale")]
    pub weight_scale: f64,
}

fn unit_scale() -> f64 {
    1.0
}

fn is_unit_scale(scale: &f64) -> bool {
    *scale == 1.0
}

impl TuneSettings {
    /// The candidates' strategy name with preset weights (`SEARCHER+EVALUATOR[,OPTIONS][@D]`),
    /// whose parse checks the options as a strategy's are.
    pub fn strategy_spec(&self) -> Result<StrategySpec, RegistryError> {
        self.candidates_name().parse()
    }

    /// The candidates' strategy name with preset weights, depth always written:
    /// `SEARCHER+EVALUATOR[,OPTIONS]@D`.
    pub fn candidates_name(&self) -> String {
        let options = match self.options.as_str() {
            "" => String::new(),
            options => format!(",{options}"),
        };
        format!(
            "{}+{}{options}@{}",
            self.searcher, self.evaluator, self.depth
        )
    }

    /// A candidate's weights as it is played and written: `weights` times
    /// [`TuneSettings::weight_scale`] (the same bits at scale 1).
    pub fn played_weights(&self, weights: &[f64]) -> Vec<f64> {
        match self.weight_scale {
            1.0 => weights.to_vec(),
            scale => weights.iter().map(|weight| weight * scale).collect(),
        }
    }

    /// The candidates' strategy options ([`TuneSettings::options`]).
    pub fn strategy_options(&self) -> Result<StrategyOptions, RegistryError> {
        Ok(self.strategy_spec()?.options)
    }

    /// The NES player of a `plateau-score` candidate.
    pub fn nes_player(&self) -> NesPlayer {
        NesPlayer {
            timeline: self.timeline,
            inputs: self.inputs,
            reaction_frames: self.reaction_frames,
        }
    }

    /// Whether the player settings are the benchmark's (level 19, `X.`, two thumbs, no
    /// reaction time): what every run that is not `plateau-score` has.
    pub fn has_plateau_player(&self) -> bool {
        is_plateau_start_level(&self.start_level)
            && is_plateau_timeline(&self.timeline)
            && is_default_inputs(&self.inputs)
            && is_no_reaction(&self.reaction_frames)
    }
}

fn plateau_start_level() -> u8 {
    PLATEAU_START_LEVEL
}

fn is_plateau_start_level(level: &u8) -> bool {
    *level == PLATEAU_START_LEVEL
}

fn plateau_timeline() -> Timeline {
    Timeline::THIRTY_HZ
}

fn is_plateau_timeline(timeline: &Timeline) -> bool {
    *timeline == Timeline::THIRTY_HZ
}

fn is_default_inputs(inputs: &InputModel) -> bool {
    *inputs == InputModel::default()
}

fn is_no_reaction(frames: &u8) -> bool {
    *frames == 0
}

/// The best candidate so far.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BestCandidate {
    /// Its weights (normalised), in feature order.
    pub weights: Vec<f64>,
    /// Its fitness.
    pub fitness: f64,
    /// The iteration (from 0) that measured it.
    pub iteration: u64,
}

/// One finished iteration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IterationRecord {
    /// The iteration (from 0).
    pub iteration: u64,
    /// The seed of its first game (game k used this + k).
    pub first_game_seed: u64,
    /// The best candidate's fitness.
    pub best: f64,
    /// The mean fitness of its candidates.
    pub mean: f64,
}

/// A warning for a run whose search never moved: every iteration's candidates, best and mean
/// alike, scored the same (typically 0 lines, when every candidate tops out at once), so the
/// weights written are no better than the starting guess. `None` when anything moved or fewer
/// than two iterations ran.
pub fn flat_fitness_warning(history: &[IterationRecord]) -> Option<String> {
    let first = history.first()?;
    let flat = history.len() >= 2
        && history
            .iter()
            .all(|record| record.best == first.best && record.mean == first.best);
    flat.then(|| {
        format!(
            "warning: every candidate of all {} iterations scored {:.2}: the fitness never \
             moved, so the weights written are no better than a guess (more --games, a larger \
             --population or a taller --board-height give the search something to rank)",
            history.len(),
            first.best
        )
    })
}

/// A run's state between iterations: what `--checkpoint` writes and `--resume` reads.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Checkpoint {
    /// [`CHECKPOINT_FORMAT`].
    pub format: String,
    /// The settings.
    pub settings: TuneSettings,
    /// The evaluator's feature names, in weight order.
    pub features: Vec<String>,
    /// Iterations finished.
    pub iterations_done: u64,
    /// The method's state, holding the candidates of the next iteration.
    pub state: Method,
    /// The best candidate so far.
    pub best: Option<BestCandidate>,
    /// Every finished iteration.
    pub history: Vec<IterationRecord>,
    /// What wrote the file: the command of the run (or the resumed run) that wrote it last
    /// (absent from checkpoints written before it was recorded; never compared on resume).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub made_by: Option<MadeBy>,
}

/// The feature names of the evaluator called `name`, in weight order.
pub fn feature_names(name: &str) -> Result<&'static [&'static str], ReportError> {
    let evaluator = evaluator_by_name(name, &WeightsChoice::Default)
        .ok_or_else(|| ReportError::Refused(format!("unknown evaluator {name:?}")))??;
    Ok(evaluator.feature_names())
}

/// A checkpoint that cannot continue a run: the first inconsistency [`Checkpoint::check`]
/// finds, or why the file is no checkpoint at all. A checkpoint is the tuner's own output, so
/// each of these means an edited or damaged file (or one of another run), and resuming from it
/// would not give what an uninterrupted run gives.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum CheckpointError {
    /// Not the JSON of a checkpoint.
    #[error("not a checkpoint: {0}")]
    NotACheckpoint(String),
    /// Another format.
    #[error("format {found:?}, expected {CHECKPOINT_FORMAT:?}")]
    Format {
        /// The format named in the file.
        found: String,
    },
    /// Settings that differ from the command line's ([`settings_difference`]).
    #[error("made with different settings: {0}")]
    Settings(String),
    /// Feature names other than the evaluator's.
    #[error("its features {found:?} are not the evaluator's {expected:?}")]
    Features {
        /// The names in the file.
        found: Vec<String>,
        /// The evaluator's.
        expected: Vec<String>,
    },
    /// A method's state no run reaches ([`Method::check`]).
    #[error(transparent)]
    State(#[from] StateError),
    /// A history of another length than the iterations done.
    #[error("its history holds {records} iterations but iterations_done is {done}")]
    HistoryLength {
        /// The records.
        records: usize,
        /// `iterations_done`.
        done: u64,
    },
    /// A record out of place: the history holds iterations 0, 1, 2, … in order.
    #[error(
        "its history's record {position} is of iteration {found}, expected {position} (the \
         history holds iterations 0, 1, 2, ... in order)"
    )]
    IterationOrder {
        /// The record's place in the history (from 0).
        position: usize,
        /// The iteration it names.
        found: u64,
    },
    /// A record whose games' first seed is not the one the run's seed gives.
    #[error(
        "iteration {iteration}'s first_game_seed is {found}, but the run's --seed gives \
         {expected}"
    )]
    GameSeed {
        /// The iteration.
        iteration: u64,
        /// The seed recorded.
        found: u64,
        /// The seed derived from the run's seed.
        expected: u64,
    },
    /// A negative fitness in the history (fitness is a mean of lines or points).
    #[error("iteration {iteration}'s {which} fitness is {value}, but fitness is never negative")]
    NegativeFitness {
        /// The iteration.
        iteration: u64,
        /// `best` or `mean`.
        which: &'static str,
        /// The value.
        value: f64,
    },
    /// A figure of the history that the others, or the run's settings, rule out.
    #[error("history[{position}].{field}: {message}")]
    HistoryFigure {
        /// The record's place in the history (from 0).
        position: usize,
        /// `best` or `mean`.
        field: &'static str,
        /// Why no iteration records it.
        message: String,
    },
    /// A best candidate before any iteration, or none after one.
    #[error(
        "it has {} best candidate after {done} iterations (the first iteration sets one)",
        if *present { "a" } else { "no" }
    )]
    BestPresence {
        /// Whether the file has a best candidate.
        present: bool,
        /// `iterations_done`.
        done: u64,
    },
    /// A best candidate with another number of weights than the features.
    #[error("its best candidate has {found} weights, expected {expected} (one per feature)")]
    BestLength {
        /// Its weights.
        found: usize,
        /// The features.
        expected: usize,
    },
    /// A best fitness that is not the best of the history.
    #[error("its best candidate's fitness is {found}, but the best of its history is {expected}")]
    BestFitness {
        /// The best candidate's fitness.
        found: f64,
        /// The highest `best` of the history.
        expected: f64,
    },
    /// A best candidate credited to another iteration than the first to reach its fitness.
    #[error(
        "its best candidate is from iteration {found}, but its fitness was first reached in \
         iteration {expected}"
    )]
    BestIteration {
        /// The iteration recorded with the best candidate.
        found: u64,
        /// The first iteration whose best equals it.
        expected: u64,
    },
    /// A swarm whose best is not the run's best candidate (PSO remembers the same one).
    #[error(
        "the swarm's best (fitness {swarm}) is not its best candidate (fitness {best}): the \
         swarm remembers the run's best candidate"
    )]
    SwarmBest {
        /// The swarm's best fitness.
        swarm: f64,
        /// The best candidate's.
        best: f64,
    },
    /// A checkpoint before the first iteration whose state is not the run's start.
    #[error("iterations_done is 0, but its state is not the starting state of the run's --seed")]
    NotTheStart,
}

impl Checkpoint {
    /// Checks that this checkpoint continues a run with `settings` and the evaluator's
    /// `features`, and that it is a state the tuner reaches: the format, the settings and
    /// features; the method's state ([`Method::check`]: the settings' method, `--population`
    /// candidates, one weight per feature, normalised candidates, the methods' bounds); the
    /// history (one record per iteration done, iterations 0, 1, 2, … in order, each with the
    /// first game seed the run's seed gives, no negative fitness, and figures that agree with
    /// each other and the settings: `check_figures`); the best candidate (present
    /// once an iteration finished, one weight per feature, normalised, the highest fitness of
    /// the history and from the first iteration that reached it, the swarm's own best for
    /// PSO); and before any iteration, the run's starting state. The numbers are finite: JSON
    /// holds no other. Returns the first inconsistency.
    pub fn check(
        &self,
        settings: &TuneSettings,
        features: &[String],
    ) -> Result<(), CheckpointError> {
        if self.format != CHECKPOINT_FORMAT {
            return Err(CheckpointError::Format {
                found: self.format.clone(),
            });
        }
        if let Some(difference) = settings_difference(&self.settings, settings) {
            return Err(CheckpointError::Settings(difference));
        }
        let scale = self.settings.weight_scale;
        if !(scale.is_finite() && scale > 0.0) {
            return Err(CheckpointError::Settings(format!(
                "weight_scale is {scale}, but candidates are played at a length above 0"
            )));
        }
        if self.features != features {
            return Err(CheckpointError::Features {
                found: self.features.clone(),
                expected: features.to_vec(),
            });
        }
        self.state
            .check(settings.method, features.len(), settings.population)?;
        let done = self.iterations_done;
        if self.history.len() as u64 != done {
            return Err(CheckpointError::HistoryLength {
                records: self.history.len(),
                done,
            });
        }
        for (position, record) in self.history.iter().enumerate() {
            if record.iteration != position as u64 {
                return Err(CheckpointError::IterationOrder {
                    position,
                    found: record.iteration,
                });
            }
            let expected = derived_seed(settings.seed, SEED_GAMES, record.iteration);
            if record.first_game_seed != expected {
                return Err(CheckpointError::GameSeed {
                    iteration: record.iteration,
                    found: record.first_game_seed,
                    expected,
                });
            }
            for (which, value) in [("best", record.best), ("mean", record.mean)] {
                if value < 0.0 {
                    return Err(CheckpointError::NegativeFitness {
                        iteration: record.iteration,
                        which,
                        value,
                    });
                }
            }
            check_figures(record, settings).map_err(|(field, message)| {
                CheckpointError::HistoryFigure {
                    position,
                    field,
                    message,
                }
            })?;
        }
        self.check_best(features.len())?;
        if done == 0 {
            let start = Method::start(
                settings.method,
                features.len(),
                settings.population,
                None,
                &mut rng_for(settings.seed, SEED_INITIAL, 0),
            );
            if self.state != start {
                return Err(CheckpointError::NotTheStart);
            }
        }
        Ok(())
    }

    /// The best candidate's rules (see [`Checkpoint::check`]), the history being checked.
    fn check_best(&self, dimension: usize) -> Result<(), CheckpointError> {
        let done = self.iterations_done;
        let best = match &self.best {
            None if done == 0 => return Ok(()),
            Some(best) if done > 0 => best,
            other => {
                return Err(CheckpointError::BestPresence {
                    present: other.is_some(),
                    done,
                });
            }
        };
        if best.weights.len() != dimension {
            return Err(CheckpointError::BestLength {
                found: best.weights.len(),
                expected: dimension,
            });
        }
        check_unit("its best candidate", &best.weights)?;
        // The first record of the highest best: later iterations replace the best candidate
        // only when they beat it.
        let mut first = &self.history[0];
        for record in &self.history {
            if record.best > first.best {
                first = record;
            }
        }
        if best.fitness != first.best {
            return Err(CheckpointError::BestFitness {
                found: best.fitness,
                expected: first.best,
            });
        }
        if best.iteration != first.iteration {
            return Err(CheckpointError::BestIteration {
                found: best.iteration,
                expected: first.iteration,
            });
        }
        if let Method::Pso(swarm) = &self.state
            && (swarm.best.as_ref() != Some(&best.weights) || swarm.best_fitness != best.fitness)
        {
            return Err(CheckpointError::SwarmBest {
                swarm: swarm.best_fitness,
                best: best.fitness,
            });
        }
        Ok(())
    }
}

/// Reads the checkpoint at `path` and checks that it continues a run with `settings` and the
/// evaluator's `features` ([`Checkpoint::check`]): what `tune --resume` does before its first
/// iteration. A file larger than [`CHECKPOINT_LIMIT`] (64 MiB) is refused; every other
/// problem is one message naming the file.
pub fn load_checkpoint(
    path: &Path,
    settings: &TuneSettings,
    features: &[String],
) -> Result<Checkpoint, ReportError> {
    let text = tetris_arena_io::input::read_text(path, CHECKPOINT_LIMIT, "checkpoint")?;
    tetris_core::files::parse_json::<Checkpoint>(&text)
        .map_err(|error| CheckpointError::NotACheckpoint(error.to_string()))
        .and_then(|checkpoint| {
            checkpoint.check(settings, features)?;
            Ok(checkpoint)
        })
        .map_err(|error| ReportError::Refused(format!("checkpoint {}: {error}", path.display())))
}

/// The first setting that differs, as `NAME: CHECKPOINT (checkpoint) vs NOW (command line)`.
pub fn settings_difference(saved: &TuneSettings, now: &TuneSettings) -> Option<String> {
    let saved = serde_json::to_value(saved).expect("settings serialize");
    let now = serde_json::to_value(now).expect("settings serialize");
    let (Value::Object(saved), Value::Object(now)) = (saved, now) else {
        unreachable!("settings serialize as an object")
    };
    // A setting left at its default is not written (the NES player's), so a name may be in
    // one of the two only: the saved ones first, then those only given now.
    let names = saved
        .keys()
        .chain(now.keys().filter(|name| !saved.contains_key(*name)))
        // The start decided the scale, and a resumed run does not give it again.
        .filter(|name| *name != "weight_scale");
    names.into_iter().find_map(|name| {
        let shown =
            |value: Option<&Value>| value.map_or("the default".to_string(), Value::to_string);
        let (before, current) = (saved.get(name), now.get(name));
        (before != current).then(|| {
            format!(
                "--{} is {} in the checkpoint but {} now",
                name.replace('_', "-"),
                shown(before),
                shown(current)
            )
        })
    })
}

/// Plays iteration `checkpoint.iterations_done` on the current rayon pool, updates the method
/// and the best candidate, and returns the iteration's record.
pub fn run_iteration(
    checkpoint: &mut Checkpoint,
    jobs: usize,
) -> Result<IterationRecord, ReportError> {
    let plan = IterationPlan::of(checkpoint);
    let values = play_candidates(
        &checkpoint.settings,
        plan.first_game_seed,
        &plan.candidates,
        jobs,
    )?;
    Ok(finish_iteration(checkpoint, &values))
}

/// What iteration `checkpoint.iterations_done` plays: its candidates and its games' seeds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IterationPlan {
    /// The iteration (from 0).
    pub iteration: u64,
    /// The seed of its first game (game k uses this + k, wrapping).
    pub first_game_seed: u64,
    /// The candidates' weights (normalised), in candidate order.
    pub candidates: Vec<Vec<f64>>,
}

impl IterationPlan {
    /// The plan of the checkpoint's next iteration.
    pub fn of(checkpoint: &Checkpoint) -> IterationPlan {
        let iteration = checkpoint.iterations_done;
        IterationPlan {
            iteration,
            first_game_seed: derived_seed(checkpoint.settings.seed, SEED_GAMES, iteration),
            candidates: checkpoint.state.candidates(),
        }
    }
}

/// Plays every game of each of `candidates` (game k with seed `first_game_seed + k`) on a pool
/// of `jobs` threads and returns each candidate's per-game values
/// ([`FitnessKind::game_value`]), in candidate and game order whatever `jobs` is.
pub fn play_candidates(
    settings: &TuneSettings,
    first_game_seed: u64,
    candidates: &[Vec<f64>],
    jobs: usize,
) -> Result<Vec<Vec<u64>>, ReportError> {
    let generator: GeneratorKind = settings.generator.parse()?;
    let board_height = BoardHeight::try_from(settings.board_height as u64)?;
    let max_pieces = MaxPieces::try_from(settings.max_pieces)?;
    let games = settings.games as usize;
    let strategies = candidates
        .iter()
        .map(|weights| candidate_strategy(settings, weights))
        .collect::<Result<Vec<Strategy>, ReportError>>()?;
    let finished = tetris_arena_runs::run_tasks(
        (candidates.len() * games) as u64,
        jobs,
        &Progress::hidden(),
        || Ok::<(), ReportError>(()),
        |(), task| {
            let (candidate, game) = (task as usize / games, task as usize % games);
            let value = play_candidate(
                settings,
                strategies[candidate].clone(),
                GameSettings {
                    board_height,
                    generator: generator.clone(),
                    seed: first_game_seed.wrapping_add(game as u64),
                    max_pieces: Some(max_pieces),
                    game_over_rule: settings.game_over_rule,
                },
            )?;
            Ok(value.map_or(TaskOutcome::Stopped, TaskOutcome::Done))
        },
    )?;
    if finished.interrupted {
        // Part of an iteration is no iteration: the caller keeps what the last finished
        // one wrote.
        return Err(ReportError::Interrupted(
            ": the running iteration was dropped".into(),
        ));
    }
    Ok(finished
        .results
        .chunks(games)
        .map(<[u64]>::to_vec)
        .collect())
}

/// Whether `value` times `count` is a whole number, as a sum of whole game values divided by
/// `count` is (within the rounding of the division).
fn whole_multiple(value: f64, count: f64) -> bool {
    let product = value * count;
    (product - product.round()).abs() <= 1e-6 * product.abs().max(1.0)
}

/// Checks the figures of one record of the history against each other and the settings, as
/// [`finish_iteration`] derives them (higher fitness is better, every game value a whole
/// number of at least 0): the best is one candidate's fitness, so a whole sum of game values
/// over the games it counts (all, or the best ⌈N/3⌉ for `best-third`), and at most what such a
/// game gives (lines: 4 cells a piece, 10 a line, so at most 4 × `max_pieces` / 10; the
/// displayed score at most 999,999); the mean is the mean of `population` such fitnesses, so a
/// whole sum over `population` × those games, at most the best, and at least the best shared
/// by all the candidates (the others' fitness is 0 or more). Returns the field at fault and
/// why.
fn check_figures(
    record: &IterationRecord,
    settings: &TuneSettings,
) -> Result<(), (&'static str, String)> {
    let counted = match settings.fitness {
        FitnessKind::BestThird => settings.games.div_ceil(3),
        _ => settings.games,
    } as f64;
    let population = settings.population as f64;
    let most = match settings.fitness {
        FitnessKind::MeanLines | FitnessKind::BestThird => {
            Some((4 * u128::from(settings.max_pieces) / 10) as f64)
        }
        FitnessKind::MeanScore => Some(f64::from(tetris_core::scoring::MAX_SCORE)),
        FitnessKind::PlateauScore => None,
    };
    let (best, mean) = (record.best, record.mean);
    if !whole_multiple(best, counted) {
        return Err((
            "best",
            format!(
                "{best} is no candidate's fitness: a sum of whole game values over {counted}                  games"
            ),
        ));
    }
    if let Some(most) = most.filter(|most| best > *most) {
        return Err((
            "best",
            format!(
                "{best} is more than a game of these settings gives ({most}: {})",
                settings.fitness.name()
            ),
        ));
    }
    // The mean is a sum of `population` values divided by it: a few rounding steps from the
    // exact mean, which lies between the best shared by all and the best.
    let slack = 1e-9 * best.max(1.0);
    if mean > best + slack {
        return Err((
            "mean",
            format!("{mean} is above the iteration's best, {best}: a mean is at most the best"),
        ));
    }
    if mean < best / population - slack {
        return Err((
            "mean",
            format!(
                "{mean} is below the iteration's best shared by its {population} candidates,                  {}: no fitness is below 0",
                best / population
            ),
        ));
    }
    if !whole_multiple(mean, counted * population) {
        return Err((
            "mean",
            format!(
                "{mean} is no mean of {population} candidates' fitness: a sum of whole game                  values over {} games",
                counted * population
            ),
        ));
    }
    Ok(())
}

/// Finishes iteration `checkpoint.iterations_done` from each candidate's per-game values (as
/// [`play_candidates`] returns them): the fitness, the best candidate, the method's update and
/// the history. The in-process and the external tuner both end an iteration here.
pub fn finish_iteration(checkpoint: &mut Checkpoint, values: &[Vec<u64>]) -> IterationRecord {
    let plan = IterationPlan::of(checkpoint);
    let settings = &checkpoint.settings;
    let iteration = plan.iteration;
    let candidates = plan.candidates;
    assert_eq!(
        values.len(),
        candidates.len(),
        "one value list per candidate"
    );
    let fitness: Vec<f64> = values
        .iter()
        .map(|games| settings.fitness.of(games))
        .collect();
    let mut best_index = 0;
    for (index, value) in fitness.iter().enumerate() {
        if *value > fitness[best_index] {
            best_index = index;
        }
    }
    let record = IterationRecord {
        iteration,
        first_game_seed: plan.first_game_seed,
        best: fitness[best_index],
        mean: fitness.iter().sum::<f64>() / fitness.len() as f64,
    };
    if checkpoint
        .best
        .as_ref()
        .is_none_or(|best| record.best > best.fitness)
    {
        checkpoint.best = Some(BestCandidate {
            weights: candidates[best_index].clone(),
            fitness: record.best,
            iteration,
        });
    }
    checkpoint.state.advance(
        &fitness,
        iteration,
        &mut rng_for(settings.seed, SEED_UPDATE, iteration),
    );
    checkpoint.history.push(record.clone());
    checkpoint.iterations_done += 1;
    record
}

/// The strategy of a candidate: the run's searcher, options and depth, the evaluator with
/// `weights`.
fn candidate_strategy(settings: &TuneSettings, weights: &[f64]) -> Result<Strategy, ReportError> {
    let weights = settings.played_weights(weights);
    let evaluator = evaluator_with_values(&settings.evaluator, &weights).ok_or_else(|| {
        ReportError::Refused(format!("unknown evaluator {:?}", settings.evaluator))
    })??;
    Ok(Strategy::with_tuned_evaluator(
        &settings.searcher,
        evaluator,
        settings.strategy_options()?,
        settings.depth,
    )?)
}

/// The fitness value (lines or score) of one game of a candidate's `strategy` under `game`;
/// `None` when Ctrl-C stopped the game (see [`tetris_arena_runs::interrupt`]).
fn play_candidate(
    settings: &TuneSettings,
    mut strategy: Strategy,
    game: GameSettings,
) -> Result<Option<u64>, ReportError> {
    if settings.fitness == FitnessKind::PlateauScore {
        let rule = default_nes_game_over_rule(strategy.frame_timing().is_some());
        let plateau = NesGameSettings {
            start_level: settings.start_level,
            ..NesGameSettings::plateau(game.seed)
        }
        .with_game_over_rule(rule);
        let result = play_nes_game(
            &mut strategy,
            plateau,
            NesGamePlay::by(settings.nes_player()),
            &interrupt::interrupted,
        )?;
        return Ok(result.map(|result| result.line_clear_points));
    }
    let result = play_counted_game(&mut strategy, &game, &Progress::hidden(), None)?;
    Ok(result.map(|result| settings.fitness.game_value(&result)))
}

/// Writes the best weights so far to `path` as a weights file.
pub fn write_weights(checkpoint: &Checkpoint, path: &Path) -> Result<(), ReportError> {
    let Some(best) = &checkpoint.best else {
        return Ok(());
    };
    let names = feature_names(&checkpoint.settings.evaluator)?;
    let played = checkpoint.settings.played_weights(&best.weights);
    let weights = Weights::from_values(&checkpoint.settings.evaluator, names, &played)?;
    let mut text = weights.to_json();
    if !text.ends_with('\n') {
        text.push('\n');
    }
    Ok(write_atomically(path, text.as_bytes())?)
}

/// The table printed at the end: fitness per iteration and the best weights.
pub fn report(checkpoint: &Checkpoint, out: &Path) -> String {
    let settings = &checkpoint.settings;
    let games = if settings.fitness == FitnessKind::PlateauScore {
        let gravity_aware = tetris_registry::searcher_by_name(&settings.searcher)
            .is_some_and(|searcher| searcher.frame_timing().is_some());
        // The player is named when it is not the benchmark's.
        let player = if settings.has_plateau_player() {
            String::new()
        } else {
            format!(
                "; player: timeline {}, {} inputs, {} reaction frames",
                settings.timeline, settings.inputs, settings.reaction_frames
            )
        };
        format!(
            "NES plateau games (level {} to 29, 10 x 20, {} game-over rule{player})",
            settings.start_level,
            default_nes_game_over_rule(gravity_aware)
        )
    } else {
        format!(
            "games each on 10 x {}, cap {} pieces, {} game-over rule",
            settings.board_height, settings.max_pieces, settings.game_over_rule
        )
    };
    let mut text = format!(
        "Tuning {} with {} ({} candidates, {} {games}, fitness {}, {})\n",
        settings.evaluator,
        settings.method.name(),
        settings.population,
        settings.games,
        settings.fitness.name(),
        settings.candidates_name(),
    );
    text.push_str(&format!(
        "{:>9}  {:>10}  {:>10}\n",
        "iteration", "best", "mean"
    ));
    for record in &checkpoint.history {
        text.push_str(&format!(
            "{:>9}  {:>10.2}  {:>10.2}\n",
            record.iteration, record.best, record.mean
        ));
    }
    if let Some(best) = &checkpoint.best {
        text.push_str(&format!(
            "Best fitness {:.2} (iteration {}), written to {}:\n",
            best.fitness,
            best.iteration,
            out.display()
        ));
        let played = settings.played_weights(&best.weights);
        text.push_str(&weights_table(&checkpoint.features, &played));
    }
    text
}

/// The decimals of a weight in the report: the weights are components of a unit vector, so
/// six decimals show at least four significant digits of every weight above 0.001 (the
/// weights file keeps every digit).
pub const REPORT_DECIMALS: usize = 6;

/// The best weights as the report shows them: one line per feature, `  NAME = VALUE`, names
/// padded and values right-aligned with [`REPORT_DECIMALS`] decimals.
pub fn weights_table(features: &[String], weights: &[f64]) -> String {
    let rows: Vec<Vec<String>> = features
        .iter()
        .zip(weights)
        .map(|(name, value)| {
            let shown = format!("{value:.REPORT_DECIMALS$}");
            // A weight that rounds to zero shows no sign ("-0.000000" for −0.0 or −1e-9).
            let shown = match shown.strip_prefix('-') {
                Some(unsigned) if unsigned.parse::<f64>() == Ok(0.0) => unsigned.to_string(),
                _ => shown,
            };
            vec![name.clone(), "=".to_string(), shown]
        })
        .collect();
    indented_table(&rows, "  ")
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_run_whose_fitness_never_moved_is_warned_about() {
        let record = |iteration, best, mean| IterationRecord {
            iteration,
            first_game_seed: 0,
            best,
            mean,
        };
        let flat = [
            record(0, 0.0, 0.0),
            record(1, 0.0, 0.0),
            record(2, 0.0, 0.0),
        ];
        let warning = flat_fitness_warning(&flat).unwrap();
        assert!(
            warning.starts_with("warning: every candidate of all 3 iterations scored 0.00"),
            "{warning}"
        );
        // One iteration cannot show a search that does not move; a best or a mean that
        // differs is a search that moved.
        assert_eq!(flat_fitness_warning(&flat[..1]), None);
        assert_eq!(flat_fitness_warning(&[]), None);
        assert_eq!(
            flat_fitness_warning(&[record(0, 0.0, 0.0), record(1, 3.0, 0.5)]),
            None
        );
        assert_eq!(
            flat_fitness_warning(&[record(0, 2.0, 1.0), record(1, 2.0, 1.0)]),
            None
        );
    }
    use super::*;

    #[test]
    fn fitness_is_the_mean_or_the_mean_of_the_best_third() {
        // Seven games: the best third is the best ⌈7/3⌉ = 3 games, 9, 8 and 7 → mean 8.
        let lines = [1, 9, 2, 8, 3, 7, 0];
        assert_eq!(FitnessKind::BestThird.of(&lines), 8.0);
        // 30 / 7.
        assert_eq!(FitnessKind::MeanLines.of(&lines), 30.0 / 7.0);
        assert_eq!(FitnessKind::BestThird.of(&[5]), 5.0);
        assert_eq!(FitnessKind::MeanScore.of(&[100, 40, 1200]), 1340.0 / 3.0);
    }

    fn settings() -> TuneSettings {
        TuneSettings {
            evaluator: "elashi".into(),
            method: MethodKind::Cem,
            searcher: "bfs".into(),
            depth: 1,
            games: 3,
            board_height: 8,
            generator: "uniform".into(),
            seed: 5,
            population: 4,
            fitness: FitnessKind::MeanLines,
            max_pieces: 100,
            game_over_rule: GameOverRule::Simulation,
            start_level: PLATEAU_START_LEVEL,
            timeline: Timeline::THIRTY_HZ,
            inputs: InputModel::TwoThumb,
            reaction_frames: 0,
            options: String::new(),
            weight_scale: 1.0,
        }
    }

    #[test]
    fn a_records_figures_are_those_finish_iteration_derives() {
        // Four candidates of 3 games of at most 100 pieces (mean lines): fitness values
        // 0, 1/3, 2 and 40 (the most: 400 cells, 40 rows) give the record finish_iteration
        // writes, and it checks out; each figure moved off what such games give is named.
        let settings = settings();
        let fitness = [0.0, 1.0 / 3.0, 2.0, 40.0];
        let record = |best: f64, mean: f64| IterationRecord {
            iteration: 1,
            first_game_seed: 0,
            best,
            mean,
        };
        let written = record(40.0, fitness.iter().sum::<f64>() / 4.0);
        assert_eq!(check_figures(&written, &settings), Ok(()));
        let field = |best, mean| check_figures(&record(best, mean), &settings).map_err(|e| e.0);
        assert_eq!(field(3.0, 5.0), Err("mean"));
        assert_eq!(field(3.0, 0.7), Err("mean"));
        assert_eq!(field(3.0, 0.75), Ok(()));
        assert_eq!(field(0.5, 0.5), Err("best"));
        assert_eq!(field(40.0 + 1.0 / 3.0, 10.0), Err("best"));
    }

    #[test]
    fn a_checkpoint_larger_than_its_limit_is_refused() {
        let error = load_checkpoint(Path::new("/dev/zero"), &settings(), &[])
            .err()
            .unwrap();
        assert_eq!(
            error.to_string(),
            "checkpoint /dev/zero: larger than 64 MiB (the limit for a checkpoint)"
        );
    }

    #[test]
    fn the_report_shows_weights_aligned_with_six_decimals() {
        let features = [
            "holes".to_string(),
            "row_transitions".to_string(),
            "wells".into(),
        ];
        // −1e-9 rounds to zero and shows no sign; 0.123456789 rounds up in the sixth decimal.
        assert_eq!(
            weights_table(&features, &[-0.5, 0.123_456_789, -1e-9]),
            "  holes            =  -0.500000\n  row_transitions  =   0.123457\n  wells            \
             =   0.000000\n"
        );
    }

    #[test]
    fn the_benchmark_player_is_not_written_and_is_what_older_settings_read_as() {
        // A run that is not plateau-score, or plays the benchmark's player, writes the
        // settings it wrote before the player existed; those read back as that player.
        let text = serde_json::to_string(&settings()).unwrap();
        for key in ["start_level", "timeline", "inputs", "reaction_frames"] {
            assert!(!text.contains(key), "{text}");
        }
        assert_eq!(
            serde_json::from_str::<TuneSettings>(&text).unwrap(),
            settings()
        );
        let player = TuneSettings {
            start_level: 18,
            timeline: "X...".parse().unwrap(),
            inputs: InputModel::Article,
            reaction_frames: 18,
            ..settings()
        };
        let text = serde_json::to_string(&player).unwrap();
        assert!(
            text.ends_with(
                r#""start_level":18,"timeline":"X...","inputs":"article","reaction_frames":18}"#
            ),
            "{text}"
        );
        assert_eq!(serde_json::from_str::<TuneSettings>(&text).unwrap(), player);
        // A setting given on one side only is named with its default on the other.
        let from_18 = TuneSettings {
            start_level: 18,
            ..settings()
        };
        assert_eq!(
            settings_difference(&settings(), &from_18).unwrap(),
            "--start-level is the default in the checkpoint but 18 now"
        );
        assert_eq!(
            settings_difference(&from_18, &settings()).unwrap(),
            "--start-level is 18 in the checkpoint but the default now"
        );
    }

    #[test]
    fn a_settings_difference_is_named() {
        let settings = settings();
        assert_eq!(settings_difference(&settings, &settings), None);
        let other = TuneSettings {
            seed: 6,
            ..settings.clone()
        };
        assert_eq!(
            settings_difference(&settings, &other).unwrap(),
            "--seed is 5 in the checkpoint but 6 now"
        );
    }
}
