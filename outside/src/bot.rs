//! An outside bot as a strategy plays it: the program, restarted after a fault, and the
//! protocol's flow (`info`, then per game `start`, `suggest`/`suggestion` per piece, `stop`;
//! `quit` at the end).

use std::time::Duration;

use tetris_core::Placement;

use crate::decider::{Answer, Decider};
use crate::fault::{Fault, FaultKind};
use crate::program::Program;
use crate::protocol::{FromBot, Info, PROTOCOL_VERSION, Start, Stop, Suggest, ToBot};

/// The least time a bot is given for its handshake, whatever the per-decision limit: an
/// interpreter's start on a loaded machine.
pub const HANDSHAKE_LIMIT: Duration = Duration::from_secs(3);

/// The default time limit per decision.
pub const DEFAULT_LIMIT: Duration = Duration::from_millis(1000);

/// The most preview pieces a bot may ask for (the arena's deepest lookahead less one).
pub const MAX_PREVIEW: u8 = 3;

/// A bot program as a strategy name gives it: `exec[,limit=MS]:PROGRAM ARGUMENTS…`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExecSpec {
    /// The program and its arguments (the name's command split at whitespace).
    pub command: Vec<String>,
    /// The time limit per decision.
    pub limit: Duration,
}

/// A bot program, started when first needed and again after a fault.
pub struct ExecBot {
    spec: ExecSpec,
    info: Info,
    program: Option<Program>,
    /// The number of the game being played.
    games: u64,
    /// A fault met while starting the game, reported at its first decision.
    pending: Option<Fault>,
}

impl ExecBot {
    /// Starts the program and reads its handshake (the program then plays the first game).
    pub fn start(spec: ExecSpec) -> Result<ExecBot, Fault> {
        let (program, info) = launch(&spec)?;
        Ok(ExecBot {
            spec,
            info,
            program: Some(program),
            games: 0,
            pending: None,
        })
    }

    /// The spec it was started from.
    pub fn spec(&self) -> &ExecSpec {
        &self.spec
    }

    /// The running program, started (with its handshake checked) if none runs.
    fn running(&mut self) -> Result<&mut Program, Fault> {
        if self.program.is_none() {
            let (program, info) = launch(&self.spec)?;
            if info != self.info {
                return Err(Fault {
                    kind: FaultKind::Handshake,
                    message: format!(
                        "the restarted bot's handshake differs from its first ({info:?})"
                    ),
                });
            }
            self.program = Some(program);
        }
        Ok(self.program.as_mut().expect("started above"))
    }

    /// Ends the program after a fault (the next game starts a new one).
    fn fail(&mut self, fault: Fault) {
        self.pending = self.pending.take().or(Some(fault));
        self.program = None;
    }
}

impl Decider for ExecBot {
    fn info(&self) -> &Info {
        &self.info
    }

    /// Tells the bot a game begins (`start` with the game's number filled in). A fault here
    /// is the game's first decision's.
    fn begin_game(&mut self, start: &Start) {
        self.games = start.game;
        self.pending = None;
        let limit = self.spec.limit;
        if let Err(fault) = self
            .running()
            .and_then(|program| program.send(to_line(&ToBot::Start(start)), limit))
        {
            self.fail(fault);
        }
    }

    fn suggest(&mut self, suggest: &Suggest, placements: &[Placement]) -> Result<Answer, Fault> {
        if let Some(fault) = self.pending.take() {
            return Err(fault);
        }
        let limit = self.spec.limit;
        let answer = self.running().and_then(|program| {
            // The hand-written line of the one message sent every decision (the same bytes).
            program.send(suggest.to_line(), limit)?;
            program.receive(limit, "suggestion")
        });
        let chosen = answer.and_then(|line| match parse(&line)? {
            FromBot::Suggestion(suggestion) => {
                suggestion.answer(placements).map_err(|message| Fault {
                    kind: FaultKind::Illegal,
                    message: format!("the bot's suggestion: {message}"),
                })
            }
            FromBot::Info(_) => Err(Fault {
                kind: FaultKind::Malformed,
                message: "the bot answered `suggest` with `info`".to_string(),
            }),
        });
        chosen.inspect_err(|fault| self.fail(fault.clone()))
    }

    fn end_game(&mut self, stop: &Stop) {
        if let Some(program) = self.program.as_mut() {
            if program
                .send(to_line(&ToBot::Stop(stop)), self.spec.limit)
                .is_err()
            {
                self.program = None;
            }
        }
    }

    fn fresh(&self) -> Box<dyn Decider> {
        Box::new(self.clone())
    }

    fn process_id(&self) -> Option<u32> {
        self.program.as_ref().map(Program::id)
    }
}

impl Clone for ExecBot {
    /// The same bot, not started: its program starts at its first game.
    fn clone(&self) -> ExecBot {
        ExecBot {
            spec: self.spec.clone(),
            info: self.info.clone(),
            program: None,
            games: 0,
            pending: None,
        }
    }
}

impl Drop for ExecBot {
    fn drop(&mut self) {
        if let Some(program) = self.program.take() {
            program.quit(Some(to_line(&ToBot::Quit)));
        }
    }
}

/// Starts the program and reads and checks its handshake.
fn launch(spec: &ExecSpec) -> Result<(Program, Info), Fault> {
    let mut program = Program::start(&spec.command)?;
    let line = program
        .receive(spec.limit.max(HANDSHAKE_LIMIT), "handshake (`info`)")
        .map_err(|fault| Fault {
            kind: match fault.kind {
                FaultKind::TooLate | FaultKind::Exited => FaultKind::Handshake,
                kind => kind,
            },
            ..fault
        })?;
    let handshake = |message: String| Fault {
        kind: FaultKind::Handshake,
        message,
    };
    let info = match parse(&line) {
        Ok(FromBot::Info(info)) => info,
        Ok(FromBot::Suggestion(_)) => {
            return Err(handshake(
                "the bot's first line must be its `info`".to_string(),
            ));
        }
        Err(fault) => return Err(handshake(format!("the bot's handshake: {}", fault.message))),
    };
    if info.protocol != PROTOCOL_VERSION {
        return Err(handshake(format!(
            "the bot speaks protocol {}; this arena speaks {PROTOCOL_VERSION}",
            info.protocol
        )));
    }
    if info.preview > MAX_PREVIEW {
        return Err(handshake(format!(
            "the bot asks for {} preview pieces; at most {MAX_PREVIEW}",
            info.preview
        )));
    }
    Ok((program, info))
}

/// A line from the bot as a message, or a malformed-line fault quoting its start.
fn parse(line: &str) -> Result<FromBot, Fault> {
    serde_json::from_str(line).map_err(|error| {
        let start: String = line.chars().take(80).collect();
        Fault {
            kind: FaultKind::Malformed,
            message: format!("the bot wrote {start:?}, not a message: {error}"),
        }
    })
}

/// A message as one line of JSON.
fn to_line(message: &ToBot<'_>) -> String {
    serde_json::to_string(message).expect("the protocol's messages always serialise")
}
