//! `arena replay FILE`: re-plays a game recorded by `arena play --record FILE` and checks it
//! (the format and the checks are [`tetris_arena_games::sim::replay`]'s); `--html OUT.html` writes the
//! verified game as a self-contained viewer page ([`tetris_arena_reports::html::viewer`]). A replay
//! that does not verify gets an error and no page.
//!
//! A trace of an NES run (`arena nes --trace FILE`, recognized by its first line) is checked
//! instead: every game through the console's frame model and, with `--redecide`, played again
//! by its strategy ([`tetris_arena_requests::nes_trace`]); `--watch` draws each lock, `--html` is
//! refused (the page shows replays of `arena play`).

use std::path::PathBuf;
use web_time::Instant;

use tetris_core::Board;
use tetris_registry::StrategySpec;

use crate::commands::options::JobsOption;
use tetris_arena_io::output::{print_output, write_output};
use tetris_arena_jobs::game_report::{ReplayJson, replay_text};
use tetris_arena_reports::html::viewer::ReplayViewer;
use tetris_arena_reports::nes_trace::{trace_replay_json, trace_replay_text};
use tetris_arena_reports::terminal::{DEFAULT_SPEED, Frame, Watcher};
use tetris_arena_requests::error::ArenaError;
use tetris_arena_requests::nes_trace::TraceReplayRequest;
use tetris_arena_requests::replay::{CheckedReplay, ReplayRequest};
use tetris_arena_runs::{Progress, interrupt};

/// Options of `arena replay`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The replay file, as written by `arena play --record FILE`, or the trace of an NES run,
    /// as written by `arena nes --trace FILE`.
    pub file: PathBuf,
    /// Render the board in the terminal after each placement (frames follow each other
    /// without escape codes when stdout is not a terminal).
    #[arg(long, conflicts_with = "json")]
    pub watch: bool,
    /// With --watch: pieces per second to show (default 10; `inf` for no pause).
    #[arg(long, value_name = "PIECES_PER_SECOND")]
    pub speed: Option<f64>,
    /// Also check that the strategy, rebuilt from its name, chooses every recorded placement
    /// itself by exactly the recorded path (for a trace: plays every game again, lock by lock
    /// the same). Without it, the replay is checked for legality and its result only (the
    /// strategy is rebuilt either way, so a weights file in its name must still exist; for a
    /// trace, an outside engine is started only to re-decide). An outside engine's
    /// re-decision is only as repeatable as the engine.
    #[arg(long)]
    pub redecide: bool,
    /// For a trace: the threads of the games played again by --redecide.
    #[command(flatten)]
    pub threads: JobsOption,
    /// Print the verified result as JSON.
    #[arg(long)]
    pub json: bool,
    /// Write the verified game to OUT.html as one self-contained page (no network access
    /// needed): board, next pieces, lines, score and level, stepped placement by placement or
    /// input by input along each recorded path, with the features and cost when recorded.
    #[arg(long, value_name = "OUT.html")]
    pub html: Option<PathBuf>,
}

/// Runs `arena replay`.
pub fn run(args: Args) -> Result<(), ArenaError> {
    let request = ReplayRequest {
        file: args.file.clone(),
        redecide: args.redecide,
        jobs: args.threads.jobs,
        html: args.html.clone(),
        watch: args.watch,
        speed: args.speed,
    };
    let mut checked = match request.check()? {
        CheckedReplay::Trace(trace) => return replay_trace(&args, trace),
        CheckedReplay::Game(game) => game,
    };
    let mut watcher = match args.watch {
        true => Some(Watcher::new(args.speed.unwrap_or(DEFAULT_SPEED))?),
        false => None,
    };
    if let Some(watcher) = watcher.as_mut() {
        let replay = &checked.replay;
        let empty = Board::new(usize::from(replay.rules.board_height)).map_err(|error| {
            ArenaError::Replay {
                path: checked.shown.clone(),
                message: format!("rules: {error}"),
            }
        })?;
        let depth = replay
            .strategy
            .parse::<StrategySpec>()
            .map_or(1, |spec| spec.depth);
        watcher.start();
        watcher.show(&Frame {
            title: &replay.strategy,
            board: &empty,
            last: None,
            pieces: 0,
            lines: 0,
            score: 0,
            level: replay.levels(&replay.rules).start,
            upcoming: &replay.pieces[..depth.min(replay.pieces.len())],
        });
    }
    let started = Instant::now();
    let mut viewer = args.html.as_ref().map(|_| ReplayViewer::new());
    let title = checked.replay.strategy.clone();
    let verified = checked.verify(&mut |step| {
        if let Some(viewer) = viewer.as_mut() {
            viewer.observe(step);
        }
        if let Some(watcher) = watcher.as_mut() {
            watcher.show(&Frame {
                title: &title,
                board: step.board,
                last: Some(step.last),
                pieces: step.pieces,
                lines: step.lines,
                score: step.score,
                level: step.level,
                upcoming: step.upcoming,
            });
        }
    })?;
    let elapsed = started.elapsed();
    if let Some(watcher) = watcher {
        watcher.finish()?;
    }
    let (replay, shown) = (&checked.replay, &checked.shown);
    if let (Some(path), Some(viewer)) = (&args.html, viewer) {
        let page = viewer.page(replay).map_err(ArenaError::Internal)?;
        write_output("replay viewer page", path, page.as_bytes())?;
    }
    let engine = checked.engine();
    if args.json {
        return Ok(print_output(
            &ReplayJson::new(
                shown,
                replay,
                &verified,
                checked.redecides(),
                engine.as_deref(),
            )
            .to_json(),
        )?);
    }
    Ok(print_output(&replay_text(
        shown,
        replay,
        &verified,
        checked.redecides(),
        engine.as_deref(),
        elapsed,
    ))?)
}

/// Checks a trace of an NES run (module documentation), drawing each lock with `--watch`.
fn replay_trace(args: &Args, request: TraceReplayRequest) -> Result<(), ArenaError> {
    let mut watcher = match args.watch {
        true => Some(Watcher::new(args.speed.unwrap_or(DEFAULT_SPEED))?),
        false => None,
    };
    if let Some(watcher) = watcher.as_mut() {
        watcher.start();
    }
    let started = Instant::now();
    let mut checked = request.check(&mut |lock| {
        if let Some(watcher) = watcher.as_mut() {
            watcher.show(&Frame {
                title: &format!("seed {}", lock.seed),
                board: lock.board,
                last: Some(lock.last),
                pieces: lock.pieces,
                lines: u64::from(lock.lines),
                score: lock.score,
                level: lock.level,
                upcoming: &[lock.next],
            });
        }
    })?;
    if let Some(watcher) = watcher {
        watcher.finish()?;
    }
    if args.redecide {
        interrupt::install();
        let progress = Progress::games_and_mean_score(checked.found.games.len() as u64);
        checked.redecide(&progress, &interrupt::interrupted)?;
    }
    let elapsed = started.elapsed();
    Ok(print_output(&if args.json {
        trace_replay_json(&checked.found, elapsed)
    } else {
        trace_replay_text(&checked.found, elapsed)
    })?)
}
