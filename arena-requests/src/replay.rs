//! The request of `arena replay FILE`: a game recorded by `arena play --record` (checked
//! here) or the trace of an NES run (handed to [`crate::nes_trace`]), with the rules of the
//! command's options in one check: `--speed` needs `--watch`, `--jobs` only re-plays a
//! trace's games, a page (`--html`) only shows a replay of `arena play`, and the page is
//! never one of the files the replay reads.

use std::path::PathBuf;

use tetris_registry::{Strategy, StrategySpec};

use tetris_arena_games::sim::replay::{Replay, ReplayStep, Verified};
use tetris_arena_io::Field;
use tetris_arena_io::output::check_output_file;
use tetris_arena_io::values::Jobs;
use tetris_arena_jobs::{JobFiles, Needed, RequestError};
use tetris_arena_reports::terminal::frame_interval;

use crate::error::ArenaError;
use crate::nes_trace::{TraceReplayRequest, looks_like_a_trace};

/// What `arena replay` is asked to do.
#[derive(Clone, Debug, Default)]
pub struct ReplayRequest {
    /// The replay file, or the trace of an NES run.
    pub file: PathBuf,
    /// Have the strategy decide every placement again.
    pub redecide: bool,
    /// Threads of a trace's games played again (`None`: the cores).
    pub jobs: Option<Jobs>,
    /// The viewer page to write.
    pub html: Option<PathBuf>,
    /// Draw the game in the terminal.
    pub watch: bool,
    /// With `watch`: pieces per second.
    pub speed: Option<f64>,
}

/// A checked [`ReplayRequest`].
pub enum CheckedReplay {
    /// A game recorded by `arena play --record`: loaded, its files checked, its strategy
    /// rebuilt when it decides again (boxed: a strategy is large beside a trace's request).
    Game(Box<CheckedGameReplay>),
    /// The trace of an NES run, to check lock by lock ([`TraceReplayRequest::check`]).
    Trace(TraceReplayRequest),
}

/// A recorded game ready to verify.
pub struct CheckedGameReplay {
    /// The replay as read.
    pub replay: Replay,
    /// The file as messages name it.
    pub shown: String,
    /// The strategy that decides every placement again (`--redecide`).
    strategy: Option<Strategy>,
}

impl ReplayRequest {
    /// Checks the options against each other and against the file, and reads a replay (a
    /// trace is read by its own check).
    pub fn check(&self) -> Result<CheckedReplay, ArenaError> {
        // Checked here rather than with clap's `requires`, whose one-line error would not
        // name the missing option.
        if self.speed.is_some() && !self.watch {
            return Err(RequestError::Needs {
                option: Field::SPEED,
                needs: Needed::Field(Field::WATCH),
            }
            .into());
        }
        if looks_like_a_trace(&self.file) {
            if self.html.is_some() {
                return Err(ArenaError::Usage(format!(
                    "--html: {} is the trace of an NES run (arena nes --trace): the page shows \
                     replays of arena play; watch the trace with --watch",
                    self.file.display()
                )));
            }
            return Ok(CheckedReplay::Trace(TraceReplayRequest {
                file: self.file.clone(),
                jobs: self.jobs,
            }));
        }
        if self.jobs.is_some() {
            return Err(ArenaError::Usage(
                "--jobs: only for a trace of an NES run (arena nes --trace), whose games \
                 --redecide plays again"
                    .into(),
            ));
        }
        if let Some(speed) = self.speed {
            frame_interval(speed)?;
        }
        if let Some(path) = &self.html {
            check_output_file(Field::HTML, path)?;
        }
        let replay = Replay::load(&self.file)?;
        // The page never replaces the replay, nor a weights or pattern file its strategy
        // reads.
        let files = JobFiles::default()
            .output(Field::HTML, self.html.as_deref())
            .input("replay file", &self.file);
        match replay.strategy.parse::<StrategySpec>() {
            Ok(spec) => files.strategy(&spec),
            Err(_) => files,
        }
        .check()?;
        let strategy = match self.redecide {
            true => Some(Strategy::from_name(&replay.strategy)?),
            false => None,
        };
        Ok(CheckedReplay::Game(Box::new(CheckedGameReplay {
            replay,
            shown: self.file.display().to_string(),
            strategy,
        })))
    }
}

impl CheckedGameReplay {
    /// Plays the recorded game again through the rules (and, with `--redecide`, the
    /// strategy), calling `observer` after each checked placement; the first difference is
    /// the error, naming the file.
    pub fn verify(
        &mut self,
        observer: &mut dyn FnMut(&ReplayStep<'_>),
    ) -> Result<Verified, ArenaError> {
        let engine = self.engine();
        self.replay
            .verify(self.strategy.as_mut(), observer)
            .map_err(|error| match engine {
                // Said where it fails: the rules are the same, the engine answered otherwise.
                Some(engine) if error.redecided_otherwise() => ArenaError::Replay {
                    path: self.shown.clone(),
                    message: format!(
                        "{error} (the outside engine {engine} decides otherwise now: a \
                         re-decision is only as repeatable as the engine)"
                    ),
                },
                _ => ArenaError::ReplayMismatch {
                    path: self.shown.clone(),
                    error: Box::new(error),
                },
            })
    }

    /// Whether the strategy decides every placement again.
    pub fn redecides(&self) -> bool {
        self.strategy.is_some()
    }

    /// The outside engine that decides every placement again, as it names itself, if one
    /// does (`--redecide` with `SEARCHER+exec:…` and the like): a re-decision is only as
    /// repeatable as the engine, which the reports say.
    pub fn engine(&self) -> Option<String> {
        self.strategy.as_ref().and_then(crate::outside_engine_name)
    }
}
