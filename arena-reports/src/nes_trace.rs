//! The trace of an `arena nes` run (`--trace FILE`): every lock of every game, one JSON object
//! per line ([`tetris_arena_games::sim::nes_trace`] has the format and reads it back), so that a game can be
//! followed piece by piece (how a drought was stacked, where a well was covered, what the
//! reaction time's blind frames aimed at) without a scratch build, and checked again by
//! `arena replay`.
//!
//! The file depends on the games only: the same for any `--jobs`. It grows by about 600 bytes
//! a lock, so a run traces at most [`MAX_TRACED_GAMES`] games. What `arena replay` says of a
//! trace it checked is [`trace_replay_text`] and [`trace_replay_json`].

use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

use serde::Serialize;

use crate::error::ReportError;
use crate::nes::NesReport;
use tetris_arena_games::sim::nes_trace::{TraceEnd, TraceFound, TraceLine, TraceRun};
use tetris_arena_io::output::{MadeBy, pretty_json, write_atomically};

/// The most games one run may trace (each game keeps its locks in memory until the run ends:
/// about 100 KB a game to level 29, 350 KB as text).
pub const MAX_TRACED_GAMES: u64 = 100;

impl NesReport<'_> {
    /// The run's trace: the `run` line, then each traced game's locks and end, in game order.
    /// Games played without a trace add nothing.
    pub fn trace(&self) -> String {
        let mut text = String::new();
        push_line(
            &mut text,
            &TraceLine::Run(TraceRun {
                strategy: self.settings.strategy.to_string(),
                settings: serde_json::to_value(self.settings_json())
                    .expect("the settings serialize"),
                made_by: MadeBy::current(),
            }),
        );
        // A traced run holds its games (at most MAX_TRACED_GAMES of them).
        for game in self.run.games.iter().flatten() {
            let Some(locks) = &game.trace else {
                continue;
            };
            for lock in locks {
                push_line(&mut text, &TraceLine::Lock(lock.clone()));
            }
            push_line(&mut text, &TraceLine::End(TraceEnd::of(game)));
        }
        text
    }

    /// Writes [`NesReport::trace`] to `path`, atomically (`arena nes --trace`, Python's
    /// `trace=`); the path was checked with the request.
    pub fn write_trace(&self, path: &Path) -> Result<(), ReportError> {
        Ok(write_atomically(path, self.trace().as_bytes())?)
    }
}

/// Appends `line` as one line of compact JSON.
fn push_line(text: &mut String, line: &TraceLine) {
    text.push_str(&serde_json::to_string(line).expect("trace lines serialize"));
    text.push('\n');
}

/// What `arena replay` prints for a trace it checked in `elapsed`.
pub fn trace_replay_text(checked: &TraceFound, elapsed: Duration) -> String {
    let settings = &checked.settings;
    let mut text = String::new();
    let _ = writeln!(text, "trace      {}", checked.shown);
    let _ = writeln!(text, "strategy   {}", checked.run.strategy);
    let _ = writeln!(text, "seeds      {}", settings.seed_rule());
    let stop = match settings.max_lines {
        Some(cap) => format!(
            "the transition to level {} or {cap} lines",
            settings.stop_level
        ),
        None => format!("the transition to level {}", settings.stop_level),
    };
    let _ = writeln!(
        text,
        "levels     start {}, stop at {stop}; {} rule",
        settings.start_level, settings.game_over_rule
    );
    let _ = writeln!(
        text,
        "player     timeline {}, {} inputs, {} reaction frames",
        settings.timeline, settings.inputs, settings.reaction_frames
    );
    let games = checked.games.len() as u64;
    let interrupted = if games < settings.games {
        " (the run was stopped before the others)"
    } else {
        ""
    };
    let _ = writeln!(
        text,
        "games      {games} of {}{interrupted}",
        settings.games
    );
    let _ = writeln!(text, "locks      {}", checked.locks);
    let _ = writeln!(
        text,
        "verified   every lock: the pieces, board, level, lines, points and spawn frame of the \
         console's frame model, its frames to the recorded lock and clears; every game's end"
    );
    if checked.redecided {
        let _ = writeln!(
            text,
            "redecided  the strategy plays every lock again by the same frames (and plan)"
        );
        if let Some(engine) = &checked.engine {
            let _ = writeln!(
                text,
                "outside    {} is {engine} (as it names itself): its re-decision is only as \
                 repeatable as it is",
                checked.run.strategy
            );
        }
    } else {
        let _ = writeln!(
            text,
            "unproven   the strategy's choices (not re-decided: use --redecide)"
        );
    }
    if checked.unproven_faults > 0 {
        let _ = writeln!(
            text,
            "unproven   {} game(s) ended by the outside engine's fault, taken as recorded: it \
             broke the protocol on the next piece, which only asking it again proves (use \
             --redecide)",
            checked.unproven_faults
        );
    }
    if checked.unproven_top_outs > 0 {
        let _ = writeln!(
            text,
            "unproven   {} top-out(s) taken as recorded: the player found no placement for the \
             next piece, which only the strategy's search proves (use --redecide)",
            checked.unproven_top_outs
        );
    }
    for unproven in &checked.unproven {
        let _ = writeln!(text, "unproven   {unproven}");
    }
    let _ = writeln!(text, "time       {:.2} s", elapsed.as_secs_f64());
    text
}

/// The JSON `arena replay --json` prints for a trace it checked in `elapsed`.
#[derive(Serialize)]
struct TraceReplayJson<'a> {
    trace: &'a str,
    strategy: &'a str,
    settings: &'a serde_json::Value,
    games: u64,
    games_planned: u64,
    locks: u64,
    verified: bool,
    redecided: bool,
    /// The outside engine that re-decided the games, as it names itself (left out for the
    /// arena's own engines and without `--redecide`).
    #[serde(skip_serializing_if = "Option::is_none")]
    engine: Option<&'a str>,
    unproven_top_outs: u64,
    unproven_faults: u64,
    unproven: Vec<UnprovenJson>,
    seconds: f64,
    made_by: MadeBy,
}

/// One setting of the run line the games do not prove (`arena replay --json`'s `unproven`,
/// as for a replay's header).
#[derive(Serialize)]
struct UnprovenJson {
    /// The field, as the trace spells it.
    field: &'static str,
    /// Whether the strategy re-decided the games under the other values too.
    redecided: bool,
    /// The line `arena replay` prints after `unproven   `.
    text: String,
}

/// [`trace_replay_text`] as one JSON object.
pub fn trace_replay_json(checked: &TraceFound, elapsed: Duration) -> String {
    pretty_json(&TraceReplayJson {
        trace: &checked.shown,
        strategy: &checked.run.strategy,
        settings: &checked.run.settings,
        games: checked.games.len() as u64,
        games_planned: checked.settings.games,
        locks: checked.locks,
        verified: true,
        redecided: checked.redecided,
        engine: checked.engine.as_deref(),
        unproven_top_outs: checked.unproven_top_outs,
        unproven_faults: checked.unproven_faults,
        unproven: checked
            .unproven
            .iter()
            .map(|unproven| UnprovenJson {
                field: unproven.fact.field(),
                redecided: unproven.redecided,
                text: unproven.to_string(),
            })
            .collect(),
        seconds: elapsed.as_secs_f64(),
        made_by: MadeBy::current(),
    })
}
