//! The request to check a trace of an NES run (`arena replay TRACE.jsonl`): the trace's run
//! line is rebuilt into the run's [`NesRequest`] and checked as `arena nes` checks it, every
//! game is replayed through the console's frame model ([`tetris_arena_games::sim::nes_trace::check_game`])
//! and, with `--redecide` ([`TraceChecked::redecide`]), played again by the strategy and held
//! against the trace ([`tetris_arena_games::sim::nes_trace::compare_games`]).

use std::path::{Path, PathBuf};

use tetris_core::{GameOverRule, InputModel, Timeline};
use tetris_registry::{StrategySpec, TAP_RATES};

use crate::error::ArenaError;
use crate::nes::NesRequest;
use tetris_arena_games::sim::nes::NesRunSettings;
use tetris_arena_games::sim::nes_trace::{
    CheckedLock, TRACE_LIMIT, TraceError, TraceFact, TraceFound, TraceReader, TraceUnproven,
    TracedGame, check_game, compare_games, games_also_check, unproven_by_the_ends,
};
use tetris_arena_io::values::{GameCount, Jobs};
use tetris_arena_jobs::JobFiles;
use tetris_arena_reports::nes::SettingsJson;
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
    /// The request of each other value of each setting in `found.unproven` that the
    /// strategy decides by (in the order of the fact's values), to re-decide the games under.
    others: Vec<Vec<NesRequest>>,
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
        // A setting no run could have: the file, its run line and the field say where.
        let request =
            NesRequest::of_trace(&run, self.jobs).map_err(|error| match error.kind() {
                tetris_arena_io::ErrorKind::BadInput => bad_trace(TraceError::RunLine {
                    field: "settings".into(),
                    message: error.to_string(),
                }),
                _ => error,
            })?;
        let spec: StrategySpec = run.strategy.parse()?;
        JobFiles::default()
            .input("trace", &self.file)
            .strategy(&spec)
            .check()?;
        // An outside engine is not started to check frames (nor is a server asked): the
        // frames show every lock, and only `--redecide` asks the engine again. So a trace
        // checks without its program or server, or the Python function no other process has.
        let settings = match spec.outside {
            Some(_) => request.run_settings()?,
            None => request.check()?.settings,
        };
        // The run line must be the one a run with these settings writes: its strategy's
        // canonical name, and every field the settings derive.
        let canonical = settings.strategy.to_string();
        if run.strategy != canonical {
            return Err(bad_trace(TraceError::RunLine {
                field: "strategy".into(),
                message: format!("a run writes its strategy's canonical name, {canonical}"),
            }));
        }
        SettingsJson::check_recorded(&run.settings, &settings).map_err(bad_trace)?;
        let mut games: Vec<TracedGame> = Vec::new();
        let (mut locks, mut unproven_top_outs, mut unproven_faults) = (0, 0, 0);
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
            unproven_faults += u64::from(checked.fault_unproven);
            games.push(game);
        }
        let (unproven, others) = open_settings(&request, &settings, &games)
            .into_iter()
            .map(|(fact, others)| {
                let unproven = TraceUnproven {
                    fact,
                    redecided: false,
                };
                (unproven, others)
            })
            .unzip();
        Ok(TraceChecked {
            found: TraceFound {
                shown,
                run,
                settings,
                games,
                locks,
                unproven_top_outs,
                unproven_faults,
                engine: None,
                redecided: false,
                unproven,
            },
            request,
            others,
        })
    }
}

impl TraceChecked {
    /// Plays the trace's games again with the run's strategy (rebuilt from its name) and
    /// settings, on the request's threads, counting them on `progress`, and holds each against
    /// the trace lock by lock ([`compare_games`]); a game stops after its current piece once
    /// `stop` says so, which is an error (half a check proves nothing). An outside engine is
    /// asked again (its program started, its server reached) and named in what was found
    /// ([`TraceFound::engine`]), and in the first difference: a re-decision is only as
    /// repeatable as it is.
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
            found.engine = crate::outside_engine_name(&again.strategy);
            let finished = again.play_traced(progress, stop)?;
            if finished.interrupted {
                return Err(ArenaError::Interrupted(String::new()));
            }
            for (recorded, played) in found.games.iter().zip(&finished.results) {
                compare_games(recorded, played).map_err(|error| {
                    let mut error = trace_error(&found.shown, error);
                    // Said where it fails: the arena's rules and frames are the same, the
                    // engine answered otherwise.
                    if let (ArenaError::Replay { message, .. }, Some(engine)) =
                        (&mut error, &found.engine)
                    {
                        message.push_str(&format!(
                            " (the outside engine {engine} decides otherwise now: a \
                             re-decision is only as repeatable as the engine)"
                        ));
                    }
                    error
                })?;
            }
        }
        found.unproven_top_outs = 0;
        found.unproven_faults = 0;
        found.redecided = true;
        // The settings the strategy decides by, re-decided under each value the frames left:
        // a value under which it plays some lock otherwise is excluded; the stop level and the
        // cap only end games, and the reaction time's length is the one the strategy played
        // by (other lengths are not tried).
        let mut unproven = Vec::new();
        for (mut open, others) in std::mem::take(&mut found.unproven)
            .into_iter()
            .zip(&self.others)
        {
            if !open.fact.decides() {
                unproven.push(open);
                continue;
            }
            let mut same = Vec::new();
            for other in others {
                same.push(redecides_the_same(other, &found.games, progress, stop)?);
            }
            open.redecided = true;
            match &mut open.fact {
                TraceFact::TapRate { others, .. } => {
                    let mut kept = same.iter();
                    others.retain(|_| kept.next() == Some(&true));
                    if !others.is_empty() {
                        unproven.push(open);
                    }
                }
                _ if same.first() == Some(&true) => unproven.push(open),
                _ => {}
            }
        }
        found.unproven = unproven;
        Ok(())
    }
}

/// Whether the strategy of `request` (one setting changed from the trace's) plays every game
/// of `games` lock by lock as recorded.
fn redecides_the_same(
    request: &NesRequest,
    games: &[TracedGame],
    progress: &Progress,
    stop: &(dyn Fn() -> bool + Sync),
) -> Result<bool, ArenaError> {
    let checked = NesRequest {
        games: GameCount::try_from(games.len() as u64)?,
        ..request.clone()
    }
    .check()?;
    let finished = checked.play_traced(progress, stop)?;
    if finished.interrupted {
        return Err(ArenaError::Interrupted(String::new()));
    }
    Ok(games
        .iter()
        .zip(&finished.results)
        .all(|(recorded, played)| compare_games(recorded, played).is_ok()))
}

/// The settings of the run line its games leave open (the module documentation of
/// [`tetris_arena_games::sim::nes_trace`], "What the games prove about the run line"), each
/// with the request of every other value the games also check under: the stop level and the
/// line cap from the games' ends; the game-over rule, the tap rate and the input model by
/// checking every game again under each other value `arena nes` accepts (its own check says
/// which); the reaction time's length, which no frame shows.
fn open_settings(
    request: &NesRequest,
    settings: &NesRunSettings,
    games: &[TracedGame],
) -> Vec<(TraceFact, Vec<NesRequest>)> {
    let mut open: Vec<(TraceFact, Vec<NesRequest>)> = unproven_by_the_ends(settings, games)
        .into_iter()
        .map(|fact| (fact, Vec::new()))
        .collect();
    if games.is_empty() {
        return open;
    }
    // The settings alone (no strategy built: an outside engine is not started for each
    // value, and a value is never dropped because an engine failed to start).
    let also = |changed: NesRequest| -> Option<NesRequest> {
        let settings = changed.run_settings().ok()?;
        games_also_check(&settings, games).then_some(changed)
    };
    let other = match settings.game_over_rule {
        GameOverRule::Console => GameOverRule::Simulation,
        _ => GameOverRule::Console,
    };
    if let Some(changed) = also(NesRequest {
        game_over: Some(other),
        ..request.clone()
    }) {
        open.push((TraceFact::GameOverRule { other }, vec![changed]));
    }
    let (mut rates, mut requests) = (Vec::new(), Vec::new());
    for rate in TAP_RATES.filter(|&rate| Some(rate) != settings.timeline.tap_rate()) {
        if let Some(changed) = also(NesRequest {
            timeline: Timeline::uniform(rate),
            ..request.clone()
        }) {
            rates.push(rate);
            requests.push(changed);
        }
    }
    if !rates.is_empty() {
        let recorded_mixed = settings.timeline.tap_rate().is_none();
        open.push((
            TraceFact::TapRate {
                others: rates,
                recorded_mixed,
            },
            requests,
        ));
    }
    let other = match settings.inputs {
        InputModel::TwoThumb => InputModel::Article,
        InputModel::Article => InputModel::TwoThumb,
    };
    if let Some(changed) = also(NesRequest {
        inputs: other,
        ..request.clone()
    }) {
        open.push((TraceFact::Inputs { other }, vec![changed]));
    }
    if settings.reaction_frames > 0 {
        open.push((TraceFact::ReactionFrames, Vec::new()));
    }
    open
}

/// A trace's fault as the one-line error about its file.
fn trace_error(shown: &str, error: TraceError) -> ArenaError {
    ArenaError::Replay {
        path: shown.to_string(),
        message: error.to_string(),
    }
}
