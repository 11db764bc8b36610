//! The runs of many games: tournaments, NES runs and statistics runs, each the arena
//! library's request for its job, checked, played and delivered as the command does (without
//! printing): a whole run's `out` file is written and its JSON report returned; a shard's part
//! is written to `out` and returned. Each call names itself as what made them (`made_by`:
//! `tetris_arena.tournament(…)` with every argument).

use std::path::PathBuf;

use pyo3::prelude::*;
use tetris_arena_io::output::{MadeBy, RunReport, json_line};
use tetris_arena_io::values::Shard;
use tetris_arena_io::values::{
    self, BoardHeight, GameCount, Jobs, PieceCount, ReactionFrames, StartLevel, TapRate,
};
use tetris_arena_reports::nes::NesReport;
use tetris_arena_reports::stats::write_stats_folder;
use tetris_arena_reports::tournament::TournamentReport;
use tetris_arena_requests::RunOptions;
use tetris_arena_requests::nes::{CheckedNes, NesRequest};
use tetris_arena_requests::stats::{StatsRequest, StatsResult};
use tetris_arena_requests::tournament::{CheckedTournament, TournamentRequest};
use tetris_arena_runs::Progress;
use tetris_arena_runs::shard::{Part, RunDelivery, nes_part, tournament_part};

use crate::library::{game_over_rule, piece_cap};
use crate::{interruptible, py_error, python_call};

/// Adds the functions to the module.
pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(tournament_json, module)?)?;
    module.add_function(wrap_pyfunction!(nes_json, module)?)?;
    module.add_function(wrap_pyfunction!(stats_json, module)?)?;
    Ok(())
}

/// `out` as the Python wrapper passed it: text.
fn out_text(out: &Option<PathBuf>) -> Option<String> {
    out.as_ref().map(|path| path.to_string_lossy().into_owned())
}

/// The optional values of a parallel run: its threads, shard and output file.
fn run_options(
    jobs: Option<u64>,
    shard: Option<&str>,
    out: Option<PathBuf>,
) -> PyResult<RunOptions> {
    Ok(RunOptions {
        jobs: jobs.map(Jobs::try_from).transpose().map_err(py_error)?,
        shard: shard
            .map(str::parse::<Shard>)
            .transpose()
            .map_err(py_error)?,
        out,
        json: false,
    })
}

/// Delivers a run's results as `arena tournament`/`arena nes` do, without printing: a shard's
/// part is written to its file and returned as JSON text; a whole run's `--out` file (if any)
/// is written and its JSON report (with every game, for runs of at most 100,000) returned.
fn deliver<R: RunReport>(
    delivery: RunDelivery,
    part: impl FnOnce() -> Part,
    report: impl FnOnce() -> R,
) -> PyResult<String> {
    match delivery {
        RunDelivery::Part(path) => {
            let part = part();
            part.write(&path).map_err(py_error)?;
            Ok(json_line(&part))
        }
        RunDelivery::Report(destination) => {
            let report = report();
            destination.write_file(&report).map_err(py_error)?;
            Ok(report.json(true))
        }
    }
}

/// `arena tournament STRATEGY... --json` with these options: the CLI's JSON (settings, every
/// game, summary and pairwise tests); with `shard` (and `out`) the shard's part, written.
#[pyfunction]
#[pyo3(signature = (strategies, games, seed, generator, max_pieces, board_height, game_over, jobs, shard=None, out=None))]
#[allow(clippy::too_many_arguments)]
fn tournament_json(
    py: Python<'_>,
    strategies: Vec<String>,
    games: u64,
    seed: u64,
    generator: &str,
    max_pieces: Option<u64>,
    board_height: u64,
    game_over: Option<&str>,
    jobs: Option<u64>,
    shard: Option<&str>,
    out: Option<PathBuf>,
) -> PyResult<String> {
    let _made_by = MadeBy::scope(python_call!(
        py,
        "tournament",
        strategies = strategies.clone(),
        games = games,
        seed = seed,
        generator = generator,
        max_pieces = max_pieces,
        board_height = board_height,
        game_over = game_over,
        jobs = jobs,
        shard = shard,
        out = out_text(&out),
    ));
    let checked = TournamentRequest {
        strategies,
        games: GameCount::try_from(games).map_err(py_error)?,
        seed,
        generator: values::generator(generator).map_err(py_error)?,
        max_pieces: piece_cap(max_pieces)?,
        board_height: BoardHeight::try_from(board_height).map_err(py_error)?,
        game_over: game_over_rule(game_over)?,
        estimate: false,
        run: run_options(jobs, shard, out)?,
        plots: None,
        html: None,
    }
    .check()
    .map_err(py_error)?;
    if checked.settings.max_pieces.is_none() {
        crate::library::warn_uncapped(py, checked.settings.board_height)?;
    }
    // After Ctrl-C the finished games are still delivered (to `out`, as the command line
    // writes them), then `KeyboardInterrupt` is raised.
    interruptible(py, || checked.play(&Progress::hidden())).keeping(|played| {
        let played = played.map_err(crate::bots::raised_or)?;
        let CheckedTournament { settings, run, .. } = checked;
        let part = tournament_part(&settings, run.shard, &played);
        deliver(
            run.delivery,
            || part,
            || TournamentReport::new(&settings, played),
        )
    })
}

/// `arena nes STRATEGY --json` with these options (`max_lines`: `--max-lines`; `tap_rate` or
/// `timeline`, not both: `--tap-rate`, `--timeline`, 2 when neither; `reaction_frames`:
/// `--reaction-frames`; `trace`: `--trace`, every lock written to that file): the CLI's
/// report with every game; with `shard` (and `out`) the shard's part, written.
#[pyfunction]
#[pyo3(signature = (strategy, games, seed, start_level, to_level, tap_rate, game_over, inputs, jobs, shard=None, out=None, max_lines=None, timeline=None, reaction_frames=0, trace=None))]
#[allow(clippy::too_many_arguments)]
fn nes_json(
    py: Python<'_>,
    strategy: &str,
    games: u64,
    seed: u64,
    start_level: u64,
    to_level: u64,
    tap_rate: Option<u64>,
    game_over: Option<&str>,
    inputs: &str,
    jobs: Option<u64>,
    shard: Option<&str>,
    out: Option<PathBuf>,
    max_lines: Option<u64>,
    timeline: Option<&str>,
    reaction_frames: u64,
    trace: Option<PathBuf>,
) -> PyResult<String> {
    let _made_by = MadeBy::scope(python_call!(
        py,
        "nes",
        strategy = strategy,
        games = games,
        seed = seed,
        start_level = start_level,
        to_level = to_level,
        tap_rate = tap_rate,
        game_over = game_over,
        inputs = inputs,
        jobs = jobs,
        shard = shard,
        out = out_text(&out),
        max_lines = max_lines,
        timeline = timeline,
        reaction_frames = reaction_frames,
        trace = out_text(&trace),
    ));
    let checked = NesRequest {
        strategy: strategy.to_string(),
        games: GameCount::try_from(games).map_err(py_error)?,
        seed,
        start_level: StartLevel::try_from(start_level).map_err(py_error)?,
        to_level,
        max_lines,
        timeline: values::tap_rate_or_timeline(tap_rate, timeline)
            .map_err(py_error)?
            .unwrap_or(TapRate::PUBLISHED.timeline()),
        game_over: game_over_rule(game_over)?,
        inputs: values::input_model(inputs).map_err(py_error)?,
        reaction_frames: ReactionFrames::try_from(reaction_frames).map_err(py_error)?,
        run: run_options(jobs, shard, out)?,
        // The page is the CLI's: a Python caller has the report itself.
        html: None,
        trace,
    }
    .check()
    .map_err(py_error)?;
    // After Ctrl-C the finished games are still delivered (to `out` and `trace`, as the
    // command line writes them), then `KeyboardInterrupt` is raised.
    interruptible(py, || {
        checked.play(
            &Progress::hidden(),
            &tetris_arena_runs::interrupt::interrupted,
        )
    })
    .keeping(|finished| {
        // An exception a Python function raised is raised again, with its note, as `play`
        // and `tournament` raise it.
        let finished = finished.map_err(crate::bots::raised_or)?;
        let CheckedNes {
            settings,
            run,
            trace,
            ..
        } = checked;
        if let Some(path) = &trace {
            // Checked with the request: not with a shard, so the run is a report.
            NesReport::new(&settings, &finished)
                .write_trace(path)
                .map_err(py_error)?;
        }
        deliver(
            run.delivery,
            || nes_part(&settings, run.shard, &finished),
            || NesReport::new(&settings, &finished),
        )
    })
}

/// `arena stats STRATEGY --json` with these options: the CLI's JSON report (`out`: also its
/// folder of stats.json and plots); with `shard` (and `out`) the block's part, written.
#[pyfunction]
#[pyo3(signature = (strategy, pieces, seed, generator, board_height, game_over, row, blocks, jobs, shard=None, out=None))]
#[allow(clippy::too_many_arguments)]
fn stats_json(
    py: Python<'_>,
    strategy: &str,
    pieces: u64,
    seed: u64,
    generator: &str,
    board_height: u64,
    game_over: Option<&str>,
    row: &str,
    blocks: Option<u64>,
    jobs: Option<u64>,
    shard: Option<&str>,
    out: Option<PathBuf>,
) -> PyResult<String> {
    let _made_by = MadeBy::scope(python_call!(
        py,
        "stats",
        strategy = strategy,
        pieces = pieces,
        seed = seed,
        generator = generator,
        board_height = board_height,
        game_over = game_over,
        row = row,
        blocks = blocks,
        jobs = jobs,
        shard = shard,
        out = out_text(&out),
    ));
    let options = run_options(jobs, shard, out)?;
    let checked = StatsRequest {
        strategy: strategy.to_string(),
        pieces: PieceCount::try_from(pieces).map_err(py_error)?,
        seed,
        generator: values::generator(generator).map_err(py_error)?,
        board_height: BoardHeight::try_from(board_height).map_err(py_error)?,
        game_over: game_over_rule(game_over)?,
        row_rule: tetris_arena_games::analysis::pieces::row_rule(row).map_err(py_error)?,
        blocks,
        jobs: options.jobs,
        shard: options.shard,
        out: options.out.clone(),
        json: false,
    }
    .check()
    .map_err(py_error)?;
    let started = std::time::Instant::now();
    let result = interruptible(py, || checked.play(&Progress::hidden(), started))
        .finished()?
        .map_err(crate::bots::raised_or)?;
    match result {
        StatsResult::Part { path, part } => {
            part.write(&path).map_err(py_error)?;
            Ok(json_line(&part))
        }
        StatsResult::Whole(statistics) => write_stats_folder(
            &checked.strategy.name(),
            &checked.settings,
            &statistics,
            options.out.as_deref(),
        )
        .map_err(py_error),
    }
}
