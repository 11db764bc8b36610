//! `arena tune`: searches an evaluator's weights by the noisy cross-entropy method (CEM),
//! particle swarm optimisation (PSO) or a genetic algorithm (GA), playing games with a fixed
//! searcher and depth, and writes the best weights as a file the evaluators load.
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

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tetris_core::{Board, Evaluator, GeneratorKind, NesGameSettings, Weights};

use crate::commands::nes::play_nes_game;
use crate::engines::{
    WeightsChoice, evaluator_by_name, evaluator_names, evaluator_with_values, searcher_names,
};
use crate::error::ArenaError;
use crate::game::{GameResult, GameSettings, PlayOptions, play_game};
use crate::output::write_atomically;
use crate::strategy::{MAX_DEPTH, Strategy};
use crate::tune::{
    Method, MethodKind, SEED_GAMES, SEED_INITIAL, SEED_UPDATE, derived_seed, rng_for,
};

/// The checkpoint format's name, stored in every checkpoint.
const CHECKPOINT_FORMAT: &str = "arena-tune-checkpoint-1";

/// How a candidate's games become one fitness value (higher is better).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
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
    /// frame from level 19 to the transition to 29, 30 Hz tapping; the game's seed draws the
    /// randomizer's start). Uncapped, because the displayed 999,999 would hide the
    /// differences between strong candidates. The board height and piece cap do not apply.
    PlateauScore,
}

impl FitnessKind {
    /// The name on the command line: `mean-lines` or `best-third`.
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

/// Options of `arena tune`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The evaluator whose weights are tuned (elashi, dellacherie, nes-plateau, ga-agent).
    #[arg(value_name = "EVALUATOR")]
    pub evaluator: String,
    /// The search method: cem (noisy cross-entropy: mean 0, std 1 per weight at the start,
    /// top 20% elites, noise max(0.04 - i/500, 0) added to each variance after iteration i),
    /// pso (inertia 0.7298, c1 = c2 = 1.49618, velocity clamped to ±1, a particle restarts
    /// after 5 iterations without improving its best) or ga (tournaments of 3, BLX-0.5
    /// crossover, Gaussian mutation of std 0.1 with rate 1/weights, the best 2 kept).
    #[arg(long, value_enum, default_value = "cem")]
    pub method: MethodKind,
    /// The searcher the candidates play with.
    #[arg(long, value_name = "S", default_value = "bfs")]
    pub searcher: String,
    /// Lookahead depth of the candidates (1 = current piece only, up to 4).
    #[arg(long, value_name = "D", default_value_t = 1)]
    pub depth: usize,
    /// Games per candidate per iteration; every candidate of an iteration plays the same
    /// sequences, renewed every iteration.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub games: u64,
    /// Board rows, 4 to 32 (the width is always 10); a short field ends games sooner.
    #[arg(long, value_name = "H", default_value_t = 20)]
    pub board_height: usize,
    /// The piece generator of the games.
    #[arg(long, value_name = "G", default_value = "uniform")]
    pub generator: String,
    /// Iterations to run in all (a resumed run counts the checkpoint's iterations).
    #[arg(long, value_name = "K", default_value_t = 10)]
    pub iterations: u64,
    /// The run's seed: it decides the starting population, every update and every game.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// Candidates per iteration (population, swarm size), at least 2.
    #[arg(long, value_name = "P", default_value_t = 20)]
    pub population: usize,
    /// Fitness of a candidate: mean-lines (mean lines per game), best-third (mean of the
    /// best third of its games), mean-score (mean NES score per game from level 0) or
    /// plateau-score (mean uncapped line-clear points of `arena nes` games: level 19 to 29,
    /// gravity, 30 Hz; --board-height and --max-pieces do not apply).
    #[arg(long, value_enum, default_value = "mean-lines")]
    pub fitness: FitnessKind,
    /// Every game stops after this many pieces, so strong candidates end.
    #[arg(long, value_name = "N", default_value_t = 5000)]
    pub max_pieces: u64,
    /// Games played at once (default: the available cores). Results do not depend on it.
    #[arg(long, value_name = "J")]
    pub jobs: Option<usize>,
    /// Write the whole state to FILE (JSON, atomically) after every iteration.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Continue from --checkpoint; its settings must equal this command line's (only
    /// --iterations and --jobs may differ). The result is bit-identical to an uninterrupted run.
    #[arg(long, requires = "checkpoint")]
    pub resume: bool,
    /// The best weights found, as a weights file (`{"evaluator": ..., "weights": {...}}`),
    /// written atomically after every iteration; use as SEARCHER+EVALUATOR:FILE.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
}

/// Everything that decides a run's results (stored in the checkpoint and compared on resume).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
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
}

/// Runs `arena tune`.
pub fn run(args: Args) -> Result<(), ArenaError> {
    let settings = check_args(&args)?;
    let jobs = super::job_count(args.jobs)?;
    check_output_folder(&args.out)?;
    if let Some(path) = &args.checkpoint {
        check_output_folder(path)?;
    }
    let features: Vec<String> = feature_names(&settings.evaluator)?
        .iter()
        .map(|name| name.to_string())
        .collect();
    let mut checkpoint = match (&args.checkpoint, args.resume) {
        (Some(path), true) => load_checkpoint(path, &settings, &features)?,
        _ => Checkpoint {
            format: CHECKPOINT_FORMAT.to_string(),
            state: Method::start(
                settings.method,
                features.len(),
                settings.population,
                &mut rng_for(settings.seed, SEED_INITIAL, 0),
            ),
            settings: settings.clone(),
            features,
            iterations_done: 0,
            best: None,
            history: Vec::new(),
        },
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|error| ArenaError::Usage(format!("cannot start {jobs} threads: {error}")))?;
    let bar = ProgressBar::with_draw_target(Some(args.iterations), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} iterations, {msg}, elapsed {elapsed}")
            .expect("the progress template is valid"),
    );
    bar.set_position(checkpoint.iterations_done.min(args.iterations));
    while checkpoint.iterations_done < args.iterations {
        let record = pool.install(|| run_iteration(&mut checkpoint))?;
        bar.println(format!(
            "iteration {}: best {:.2}, mean {:.2}",
            record.iteration, record.best, record.mean
        ));
        if let Some(path) = &args.checkpoint {
            let mut text = serde_json::to_string_pretty(&checkpoint).expect("state serializes");
            text.push('\n');
            write_atomically(path, text.as_bytes())?;
        }
        write_weights(&checkpoint, &args.out)?;
        bar.set_message(format!(
            "best {:.2}, mean {:.2}",
            checkpoint.best.as_ref().map_or(0.0, |best| best.fitness),
            record.mean
        ));
        bar.inc(1);
    }
    bar.finish_and_clear();
    write_weights(&checkpoint, &args.out)?;
    crate::output::print_output(&report(&checkpoint, &args.out))
}

/// Checks every option before any game starts.
fn check_args(args: &Args) -> Result<TuneSettings, ArenaError> {
    if !evaluator_names().contains(&args.evaluator.as_str()) {
        return Err(ArenaError::Usage(format!(
            "unknown evaluator {:?} (valid: {})",
            args.evaluator,
            evaluator_names().join(" ")
        )));
    }
    if !searcher_names().contains(&args.searcher.as_str()) {
        return Err(ArenaError::Usage(format!(
            "unknown searcher {:?} (valid: {})",
            args.searcher,
            searcher_names().join(" ")
        )));
    }
    if !(1..=MAX_DEPTH).contains(&args.depth) {
        return Err(ArenaError::Usage(format!(
            "--depth must be from 1 to {MAX_DEPTH}"
        )));
    }
    if args.fitness == FitnessKind::PlateauScore && args.depth > 2 {
        return Err(ArenaError::Usage(
            "--fitness plateau-score plays NES games, which show one preview piece: --depth 1 or 2"
                .into(),
        ));
    }
    for (name, value) in [
        ("--games", args.games),
        ("--iterations", args.iterations),
        ("--max-pieces", args.max_pieces),
    ] {
        if value == 0 {
            return Err(ArenaError::Usage(format!("{name} must be at least 1")));
        }
    }
    if args.games > u64::from(u32::MAX) {
        return Err(ArenaError::Usage(format!(
            "--games must be at most {}",
            u32::MAX
        )));
    }
    if !(2..=100_000).contains(&args.population) {
        return Err(ArenaError::Usage(
            "--population must be from 2 to 100000".into(),
        ));
    }
    Board::new(args.board_height)?;
    let generator: GeneratorKind = args.generator.parse()?;
    Ok(TuneSettings {
        evaluator: args.evaluator.clone(),
        method: args.method,
        searcher: args.searcher.clone(),
        depth: args.depth,
        games: args.games,
        board_height: args.board_height,
        generator: generator.to_string(),
        seed: args.seed,
        population: args.population,
        fitness: args.fitness,
        max_pieces: args.max_pieces,
    })
}

/// The feature names of the evaluator called `name`, in weight order.
fn feature_names(name: &str) -> Result<&'static [&'static str], ArenaError> {
    let evaluator = evaluator_by_name(name, &WeightsChoice::Default)
        .ok_or_else(|| ArenaError::Usage(format!("unknown evaluator {name:?}")))??;
    Ok(evaluator.feature_names())
}

/// Reads a checkpoint and checks that it continues a run with `settings`.
fn load_checkpoint(
    path: &Path,
    settings: &TuneSettings,
    features: &[String],
) -> Result<Checkpoint, ArenaError> {
    let shown = path.display().to_string();
    let bad = |message: String| ArenaError::Usage(format!("checkpoint {shown}: {message}"));
    let text = std::fs::read_to_string(path).map_err(|error| ArenaError::io(&shown, &error))?;
    let checkpoint: Checkpoint =
        serde_json::from_str(&text).map_err(|error| bad(format!("not a checkpoint: {error}")))?;
    if checkpoint.format != CHECKPOINT_FORMAT {
        return Err(bad(format!(
            "format {:?}, expected {CHECKPOINT_FORMAT:?}",
            checkpoint.format
        )));
    }
    if let Some(difference) = settings_difference(&checkpoint.settings, settings) {
        return Err(bad(format!("made with different settings: {difference}")));
    }
    if checkpoint.features != features {
        return Err(bad(format!(
            "its features {:?} are not the evaluator's {:?}",
            checkpoint.features, features
        )));
    }
    let candidates = checkpoint.state.candidates();
    let fits = candidates.len() == settings.population
        && candidates
            .iter()
            .all(|candidate| candidate.len() == features.len());
    if !fits || checkpoint.history.len() as u64 != checkpoint.iterations_done {
        return Err(bad("its state does not match its settings".into()));
    }
    Ok(checkpoint)
}

/// The first setting that differs, as `NAME: CHECKPOINT (checkpoint) vs NOW (command line)`.
fn settings_difference(saved: &TuneSettings, now: &TuneSettings) -> Option<String> {
    let saved = serde_json::to_value(saved).expect("settings serialize");
    let now = serde_json::to_value(now).expect("settings serialize");
    let (Value::Object(saved), Value::Object(now)) = (saved, now) else {
        unreachable!("settings serialize as an object")
    };
    saved.iter().find_map(|(name, value)| {
        let current = &now[name];
        (value != current).then(|| {
            format!(
                "--{} is {value} in the checkpoint but {current} now",
                name.replace('_', "-")
            )
        })
    })
}

/// Plays iteration `checkpoint.iterations_done` on the current rayon pool, updates the method
/// and the best candidate, and returns the iteration's record.
fn run_iteration(checkpoint: &mut Checkpoint) -> Result<IterationRecord, ArenaError> {
    let settings = &checkpoint.settings;
    let iteration = checkpoint.iterations_done;
    let candidates = checkpoint.state.candidates();
    let first_game_seed = derived_seed(settings.seed, SEED_GAMES, iteration);
    let generator: GeneratorKind = settings.generator.parse()?;
    let games = settings.games as usize;
    let lines: Vec<u64> = (0..candidates.len() * games)
        .into_par_iter()
        .map(|task| {
            let (candidate, game) = (task / games, task % games);
            play_candidate(
                settings,
                &candidates[candidate],
                GameSettings {
                    board_height: settings.board_height as u8,
                    generator: generator.clone(),
                    seed: first_game_seed.wrapping_add(game as u64),
                    max_pieces: Some(settings.max_pieces),
                },
            )
        })
        .collect::<Result<_, ArenaError>>()?;
    let fitness: Vec<f64> = lines
        .chunks(games)
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
        first_game_seed,
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
    Ok(record)
}

/// The fitness value (lines or score) of one game of `weights` under `game`.
fn play_candidate(
    settings: &TuneSettings,
    weights: &[f64],
    game: GameSettings,
) -> Result<u64, ArenaError> {
    let evaluator = evaluator_with_values(&settings.evaluator, weights).ok_or_else(|| {
        ArenaError::Usage(format!("unknown evaluator {:?}", settings.evaluator))
    })??;
    let mut strategy = Strategy::with_evaluator(&settings.searcher, evaluator, settings.depth)?;
    if settings.fitness == FitnessKind::PlateauScore {
        let plateau = NesGameSettings::plateau(game.seed);
        let result = play_nes_game(&mut strategy, plateau, 2, &|| false)?
            .expect("a game that is never asked to stop finishes");
        return Ok(result.line_clear_points);
    }
    let result = play_game(&mut strategy, &game, PlayOptions::default(), &mut |_| {
        ControlFlow::Continue(())
    })?;
    Ok(settings.fitness.game_value(&result))
}

/// Writes the best weights so far to `path` as a weights file.
fn write_weights(checkpoint: &Checkpoint, path: &Path) -> Result<(), ArenaError> {
    let Some(best) = &checkpoint.best else {
        return Ok(());
    };
    let names = feature_names(&checkpoint.settings.evaluator)?;
    let weights = Weights::from_values(&checkpoint.settings.evaluator, names, &best.weights)?;
    let mut text = weights.to_json();
    if !text.ends_with('\n') {
        text.push('\n');
    }
    write_atomically(path, text.as_bytes())
}

/// The table printed at the end: fitness per iteration and the best weights.
fn report(checkpoint: &Checkpoint, out: &Path) -> String {
    let settings = &checkpoint.settings;
    let games = if settings.fitness == FitnessKind::PlateauScore {
        "NES plateau games (level 19 to 29, 10 x 20)".to_string()
    } else {
        format!(
            "games each on 10 x {}, cap {} pieces",
            settings.board_height, settings.max_pieces
        )
    };
    let mut text = format!(
        "Tuning {} with {} ({} candidates, {} {games}, fitness {}, {}+{}@{})\n",
        settings.evaluator,
        settings.method.name(),
        settings.population,
        settings.games,
        settings.fitness.name(),
        settings.searcher,
        settings.evaluator,
        settings.depth,
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
        for (name, value) in checkpoint.features.iter().zip(&best.weights) {
            text.push_str(&format!("  {name} = {value}\n"));
        }
    }
    text
}

/// Fails before any game is played when a file's folder does not exist.
fn check_output_folder(path: &Path) -> Result<(), ArenaError> {
    if path.file_name().is_none() {
        return Err(ArenaError::Usage(format!(
            "{}: not a file name",
            path.display()
        )));
    }
    let folder = match path.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder,
        _ => Path::new("."),
    };
    if !folder.is_dir() {
        return Err(ArenaError::Io {
            path: path.display().to_string(),
            message: format!("folder {} does not exist", folder.display()),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
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

    #[test]
    fn a_settings_difference_is_named() {
        let settings = TuneSettings {
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
        };
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
