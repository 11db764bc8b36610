//! The request to check a trace of an NES run (`arena replay TRACE.jsonl`): the trace's run
//! line is rebuilt into the run's [`NesRequest`] and checked as `arena nes` checks it, every
//! game is replayed through the console's frame model ([`tetris_arena_games::sim::nes_trace::check_game`])
//! and, with `--redecide` ([`TraceChecked::redecide`]), played again by the strategy and held
//! against the trace ([`tetris_arena_games::sim::nes_trace::compare_games`]).

use std::path::{Path, PathBuf};

use tetris_registry::StrategySpec;

use crate::error::ArenaError;
use crate::nes::NesRequest;
use tetris_arena_games::sim::nes_trace::{
    CheckedLock, TRACE_LIMIT, TraceError, TraceFound, TraceReader, TracedGame, check_game,
    compare_games,
};
use tetris_arena_io::values::{GameCount, Jobs};
use tetris_arena_jobs::JobFiles;
use tetris_arena_runs::Progress;

/// Whether the file at `path` starts as a trace does: a first line that is a JSON object with
/// `"event": "run"` (a replay file's first line is `{`). Only the first line is read, at most
/// 64 KiB of it; a file that cannot be read is no trace (its reader says why).
pub fn looks_like_a_trace(path: &Path) -> bool {
    use std::io::{BufRead, BufReader, Read};
    let Ok(file) = std::fs::File::open(path) else {
        return false;
    };
    let mut first = String::new();
    if BufReader::new(file.take(64 * 1024))
        .read_line(&mut first)
        .is_err()
    {
        return false;
    }
    serde_json::from_str::<serde_json::Value>(first.trim())
        .is_ok_and(|line| line.get("event").and_then(|event| event.as_str()) == Some("run"))
}

/// A trace to check.
#[derive(Clone, Debug)]
pub struct TraceReplayRequest {
    /// The trace file.
    pub file: PathBuf,
    /// Threads for the games played again by [`TraceChecked::redecide`] (`None`: the
    /// available cores).
    pub jobs: Option<Jobs>,
}

/// A trace checked through the frame model ([`TraceReplayRequest::check`]), ready to be
/// re-decided.
#[derive(Clone, Debug)]
pub struct TraceChecked {
    /// What the check found.
    pub found: TraceFound,
    /// The run's request, to play the games again.
    request: NesRequest,
}

impl TraceReplayRequest {
    /// Reads the trace and replays every game through the console's frame model (module
    /// documentation), showing `watch` each lock that checked out. Errors: an unreadable file, a line that is not a trace line or out of
    /// order, settings `arena nes` refuses, a game the frame model does not reproduce (naming
    /// the seed, the piece and the value), each as one message about the file.
    pub fn check(
        &self,
        watch: &mut dyn FnMut(CheckedLock<'_>),
    ) -> Result<TraceChecked, ArenaError> {
        let shown = self.file.display().to_string();
        let bad_trace = |error: TraceError| trace_error(&shown, error);
        let text = tetris_arena_io::input::read_text(&self.file, TRACE_LIMIT, "trace")?;
        let (mut reader, run) = TraceReader::new(&text).map_err(bad_trace)?;
        let request = NesRequest::of_trace(&run, self.jobs)?;
        let spec: StrategySpec = run.strategy.parse()?;
        JobFiles::default()
            .input("trace", &self.file)
            .strategy(&spec)
            .check()?;
        let settings = request.check()?.settings;
        let mut games: Vec<TracedGame> = Vec::new();
        let (mut locks, mut unproven_top_outs) = (0, 0);
        while let Some(game) = reader.next_game().map_err(bad_trace)? {
            let index = games.len() as u64;
            if index == settings.games {
                return Err(bad_trace(TraceError::TooManyGames {
                    games: settings.games,
                }));
            }
            let checked = check_game(&settings, index, &game, watch).map_err(bad_trace)?;
            locks += checked.pieces;
            unproven_top_outs += u64::from(checked.top_out_unproven);
            games.push(game);
        }
        Ok(TraceChecked {
            found: TraceFound {
                shown,
                run,
                settings,
                games,
                locks,
                unproven_top_outs,
                redecided: false,
            },
            request,
        })
    }
}

impl TraceChecked {
    /// Plays the trace's games again with the run's strategy (rebuilt from its name) and
    /// settings, on the request's threads, counting them on `progress`, and holds each against
    /// the trace lock by lock ([`compare_games`]); a game stops after its current piece once
    /// `stop` says so, which is an error (half a check proves nothing).
    pub fn redecide(
        &mut self,
        progress: &Progress,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Result<(), ArenaError> {
        let found = &mut self.found;
        let count = found.games.len() as u64;
        if count > 0 {
            let again = NesRequest {
                games: GameCount::try_from(count)?,
                ..self.request.clone()
            }
            .check()?;
            let finished = again.play_traced(progress, stop)?;
            if finished.interrupted {
                return Err(ArenaError::Interrupted(String::new()));
            }
            for (recorded, played) in found.games.iter().zip(&finished.results) {
                compare_games(recorded, played)
                    .map_err(|error| trace_error(&found.shown, error))?;
            }
        }
        found.unproven_top_outs = 0;
        found.redecided = true;
        Ok(())
    }
}

/// A trace's fault as the one-line error about its file.
fn trace_error(shown: &str, error: TraceError) -> ArenaError {
    ArenaError::Replay {
        path: shown.to_string(),
        message: error.to_string(),
    }
}
