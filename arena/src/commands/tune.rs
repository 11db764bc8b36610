//! `arena tune`: searches an evaluator's weights by the noisy cross-entropy method (CEM),
//! particle swarm optimisation (PSO) or a genetic algorithm (GA), playing games with a fixed
//! searcher and depth, and writes the best weights as a file the evaluators load.
//!
//! The run's rules (weight scale, common random numbers, fitness, seeds, determinism and
//! resuming) are [`tetris_arena_reports::tune::checkpoint`]'s; the methods are [`tetris_arena_reports::tune::methods`]';
//! `--runner` is [`tetris_arena_reports::tune::external`].

use std::path::PathBuf;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::commands::options::{GameRules, JobsOption, NesPlayerOptions, SeedOption};
use tetris_arena_io::output::{
    MadeBy, announce_written, pretty_json, print_output, print_to_stderr, write_atomically,
};
use tetris_arena_io::values::{Depth, GameCount, MaxPieces};
use tetris_arena_requests::error::ArenaError;
use tetris_arena_requests::tune::{CheckedTune, StartWeights, TuneRequest};
use tetris_arena_runs::interrupt;

use crate::commands::options::named_kind;
use tetris_arena_reports::tune::checkpoint::{
    CHECKPOINT_FORMAT, Checkpoint, FitnessKind, feature_names, flat_fitness_warning,
    load_checkpoint, report, run_iteration, write_weights,
};
use tetris_arena_reports::tune::external::{Runner, run_iteration_external, work_dir};
use tetris_arena_reports::tune::methods::{Method, MethodKind, SEED_INITIAL, rng_for};

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
    #[arg(long, default_value = "cem", value_parser = named_kind(&MethodKind::ALL, MethodKind::name, MethodKind::description))]
    pub method: MethodKind,
    /// The searcher the candidates play with.
    #[arg(long, value_name = "S", default_value = "bfs")]
    pub searcher: String,
    /// Lookahead depth of the candidates (1 = current piece only, up to 4).
    #[arg(long, value_name = "D", default_value = "1")]
    pub depth: Depth,
    /// The candidates' strategy options, as after the evaluator in a strategy name and with
    /// its rules (`arena list`), e.g. the strongest NES bot's
    /// `expectimax=3,prefer-bonus=80,playouts=16,extra-deep-wells=5`; not `pattern=FILE`.
    /// Recorded in the checkpoint; the weights file holds the weights only, so play the
    /// result as SEARCHER+EVALUATOR:FILE,OPTIONS@D.
    #[arg(long, value_name = "LIST", default_value = "")]
    pub options: String,
    /// Games per candidate per iteration; every candidate of an iteration plays the same
    /// sequences, renewed every iteration.
    #[arg(long, value_name = "N", default_value = "10")]
    pub games: GameCount,
    /// Iterations to run in all (a resumed run counts the checkpoint's iterations).
    #[arg(long, value_name = "K", default_value_t = 10)]
    pub iterations: u64,
    /// The seed.
    #[command(flatten)]
    pub seed: SeedOption,
    /// Candidates per iteration (population, swarm size), 2 to 20000; population × games is
    /// at most 10000000 per iteration (a run stays under about 1 GB of memory).
    #[arg(long, value_name = "P", default_value_t = 20)]
    pub population: usize,
    /// Fitness of a candidate: mean-lines (mean lines per game), best-third (mean of the
    /// best third of its games), mean-score (mean NES score per game from level 0) or
    /// plateau-score (mean uncapped line-clear points of `arena nes` games: level 19 to 29,
    /// gravity, 30 Hz; --board-height and --max-pieces do not apply).
    #[arg(long, default_value = "mean-lines", value_parser = named_kind(&FitnessKind::ALL, FitnessKind::name, FitnessKind::description))]
    pub fitness: FitnessKind,
    /// Every game stops after this many pieces, so strong candidates end.
    #[arg(long, value_name = "N", default_value = "5000")]
    pub max_pieces: MaxPieces,
    /// The games' rules.
    #[command(flatten)]
    pub rules: GameRules,
    /// The worker threads.
    #[command(flatten)]
    pub threads: JobsOption,
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
    /// Hand each iteration's tasks (one per candidate: all its games, `arena tune-task`) to
    /// COMMAND, run by `sh -c`, e.g. 'parallel -j 16 < {tasks}' or 'xargs -P 16 -I % {arena}
    /// tune-task {dir} --task % < {ids}'. Placeholders: {tasks} (file: one shell command per
    /// task), {ids} (file: one task number per line), {dir} (the work folder), {arena} (this
    /// binary), {count}, {last} (= count - 1). The tuner waits, verifies every result, runs
    /// missing ones again (--retries) and continues exactly as without --runner (same bytes).
    /// See docs/scaling.md.
    #[arg(long, value_name = "COMMAND")]
    pub runner: Option<String>,
    /// With --runner: how often the command runs again for tasks without a valid result
    /// before the run stops naming them.
    #[arg(long, value_name = "N", default_value_t = 2, requires = "runner")]
    pub retries: u32,
    /// With --runner: the work folder for task and result files, visible to every machine
    /// that runs tasks (default: CHECKPOINT.tasks, else OUT.tasks, beside that file).
    #[arg(long, value_name = "DIR", requires = "runner")]
    pub work_dir: Option<PathBuf>,
    /// With --fitness plateau-score: the NES player whose games score the candidates (by
    /// default the benchmark's: level 19, 30 Hz, two thumbs, no reaction time). The games
    /// always stop at the transition to level 29, so the fitness from 18 is the points before
    /// level 29.
    #[command(flatten)]
    pub player: NesPlayerOptions,
    /// Start CEM from these weights instead of from scratch (mean 0, std 1): a preset of
    /// the evaluator or a weights file, as after `:` in a strategy name (e.g. `low-stack` or
    /// `tuned.json`). CEM's mean starts at them (normalised) and each weight's deviation at
    /// --start-spread times its size (the mean size for a weight of 0); the noise added after
    /// each iteration is scaled to those deviations. Not with --resume (the checkpoint holds
    /// the state).
    #[arg(long, value_name = "WEIGHTS", conflicts_with = "resume")]
    pub start: Option<String>,
    /// With --start: each weight's starting deviation as a share of its size, above 0 and at
    /// most 10.
    #[arg(long, value_name = "F", default_value_t = 0.1, requires = "start")]
    pub start_spread: f64,
}

impl Args {
    /// The run these options ask for.
    pub fn request(&self) -> TuneRequest {
        TuneRequest {
            evaluator: self.evaluator.clone(),
            method: self.method,
            searcher: self.searcher.clone(),
            depth: self.depth,
            options: self.options.clone(),
            games: self.games,
            board_height: self.rules.board_height,
            generator: self.rules.generator.clone(),
            iterations: self.iterations,
            seed: self.seed.seed,
            population: self.population,
            fitness: self.fitness,
            max_pieces: self.max_pieces,
            game_over: self.rules.game_over,
            jobs: self.threads.jobs,
            out: self.out.clone(),
            checkpoint: self.checkpoint.clone(),
            work_dir: self.runner.as_ref().map(|_| {
                work_dir(
                    self.work_dir.as_deref(),
                    self.checkpoint.as_deref().unwrap_or(&self.out),
                )
            }),
            start_level: self.player.start_level,
            timeline: self.player.timeline(),
            inputs: self.player.inputs,
            reaction_frames: self.player.reaction_frames,
            start: self.start.as_ref().map(|weights| StartWeights {
                weights: weights.clone(),
                spread: self.start_spread,
            }),
        }
    }
}

/// Runs `arena tune`.
pub fn run(args: Args) -> Result<(), ArenaError> {
    let request = args.request();
    let CheckedTune {
        settings,
        jobs,
        start,
        ..
    } = request.check()?;
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
                start.as_ref(),
                &mut rng_for(settings.seed, SEED_INITIAL, 0),
            ),
            settings: settings.clone(),
            features,
            iterations_done: 0,
            best: None,
            history: Vec::new(),
            made_by: None,
        },
    };
    // The file is this command's from its next write on, a resumed one's too.
    checkpoint.made_by = Some(MadeBy::current());
    let bar = ProgressBar::with_draw_target(Some(args.iterations), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} iterations, {msg}, elapsed {elapsed}")
            .expect("the progress template is valid"),
    );
    bar.set_position(checkpoint.iterations_done.min(args.iterations));
    let runner = match (&args.runner, &request.work_dir) {
        (Some(template), Some(dir)) => Some(Runner::new(template, dir, args.retries)?),
        _ => None,
    };
    interrupt::install_with_note(
        "interrupted: the running iteration stops after its games' current piece and is \
         dropped; the finished iterations are already written (Ctrl-C again to quit at once)",
    );
    let resumed_at = checkpoint.iterations_done;
    while checkpoint.iterations_done < args.iterations {
        let record = match &runner {
            Some(runner) => run_iteration_external(&mut checkpoint, runner, &mut |line| {
                bar.suspend(|| print_to_stderr(line))
            }),
            None => run_iteration(&mut checkpoint, jobs),
        };
        let record = match record {
            Err(_) if interrupt::interrupted() => {
                bar.finish_and_clear();
                return Err(interrupted_error(&checkpoint, &args));
            }
            record => record?,
        };
        bar.println(format!(
            "iteration {}: best {:.2}, mean {:.2}",
            record.iteration, record.best, record.mean
        ));
        if let Some(path) = &args.checkpoint {
            write_atomically(path, pretty_json(&checkpoint).as_bytes())?;
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
    if let Some(runner) = &runner {
        runner.finish()?;
    }
    write_weights(&checkpoint, &args.out)?;
    // Written after every iteration; said once, now that they are final.
    if let Some(path) = args
        .checkpoint
        .as_ref()
        .filter(|_| checkpoint.iterations_done > resumed_at)
    {
        announce_written("checkpoint", path);
    }
    if checkpoint.best.is_some() {
        announce_written("tuned weights", &args.out);
    }
    if let Some(warning) = flat_fitness_warning(&checkpoint.history) {
        print_to_stderr(&warning);
    }
    Ok(print_output(&report(&checkpoint, &args.out))?)
}

/// The `error:` of a run stopped by Ctrl-C: the running iteration is dropped (part of an
/// iteration is no iteration), the finished ones were written after each of them.
fn interrupted_error(checkpoint: &Checkpoint, args: &Args) -> ArenaError {
    let done = checkpoint.iterations_done;
    let kept = match (&args.checkpoint, done) {
        (_, 0) => "nothing was written".to_string(),
        (Some(path), _) => format!(
            "the state after them is in {} (continue with --resume) and the best weights in {}",
            path.display(),
            args.out.display()
        ),
        (None, _) => format!(
            "the best weights are in {} (without --checkpoint the run cannot be resumed)",
            args.out.display()
        ),
    };
    ArenaError::Interrupted(format!(
        ": iteration {done} was dropped; {done} of {} iterations \
         finished; {kept}",
        args.iterations
    ))
}
