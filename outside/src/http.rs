//! A server of the arena's API as an engine: each decision is `POST URL/v1/analyze` (the
//! body `arena serve` documents in docs/server.md), its best placement checked against the
//! searcher's legal placements.
//!
//! Bounded like a bot program: every request has the decision's time limit from connect to
//! the last byte of the answer, and an answer's body is read up to [`MAX_ANSWER`] bytes. A
//! status other than 200, a closed connection, a malformed or too-long body, no placement
//! or one the searcher does not list is the engine's [`Fault`].

use std::time::Duration;

use serde::Deserialize;
use serde_json::json;
use tetris_core::Placement;

use crate::decider::{Answer, Decider};
use crate::fault::{Fault, FaultKind};
use crate::protocol::{Info, PROTOCOL_VERSION, Start, Stop, Suggest, Suggestion};
use crate::spec::HttpSpec;

/// The longest answer body read: an analysis of one placement is about 1 KiB.
pub const MAX_ANSWER: u64 = 1024 * 1024;

/// The time a server has to answer its health check when the engine starts.
const HEALTH_LIMIT: Duration = Duration::from_secs(5);

/// A server of the arena's API, asked for each placement.
pub struct HttpEngine {
    spec: HttpSpec,
    info: Info,
    agent: ureq::Agent,
    /// The game's facts, sent with each position.
    board_height: u8,
    game_over: String,
    /// NES games played frame by frame: the timeline and input model, sent with each
    /// position with its level.
    frames: Option<(String, String)>,
}

/// The part of `/v1/health`'s answer the engine reads.
#[derive(Deserialize)]
struct Health {
    version: String,
}

/// The part of `/v1/analyze`'s answer the engine reads.
#[derive(Deserialize)]
struct Analysis {
    placements: Vec<AnalysedPlacement>,
}

#[derive(Deserialize)]
struct AnalysedPlacement {
    x: i64,
    y: i64,
    rotation: i64,
}

/// A server's error body.
#[derive(Deserialize)]
struct ErrorBody {
    error: String,
}

impl HttpEngine {
    /// Checks that the server answers (`GET URL/v1/health`) and names it by its version.
    pub fn start(spec: HttpSpec) -> Result<HttpEngine, Fault> {
        let agent = agent(spec.limit.max(HEALTH_LIMIT));
        let health: Health = read_json(
            agent.get(format!("{}/v1/health", spec.url)).call(),
            "health check",
        )
        .map_err(|fault| Fault {
            kind: FaultKind::Handshake,
            message: format!("the server at {}: {}", spec.url, fault.message),
        })?;
        let info = Info {
            protocol: PROTOCOL_VERSION,
            name: format!("{} at {}", spec.strategy, spec.url),
            version: health.version,
            preview: spec.preview,
            searcher: None,
        };
        Ok(HttpEngine {
            agent: self::agent(spec.limit),
            spec,
            info,
            board_height: 20,
            game_over: String::new(),
            frames: None,
        })
    }
}

impl Decider for HttpEngine {
    fn info(&self) -> &Info {
        &self.info
    }

    fn begin_game(&mut self, start: &Start) {
        self.board_height = start.board_height;
        self.game_over = start.game_over.clone();
        self.frames = start.timeline.clone().zip(start.inputs.clone());
    }

    fn suggest(&mut self, suggest: &Suggest, placements: &[Placement]) -> Result<Answer, Fault> {
        // Never a re-plan (`suggest.played`): a run with a reaction time refuses servers
        // before it starts (`StrategySpec::check_replans`).
        let mut body = json!({
            "strategy": self.spec.strategy,
            "board": suggest.board,
            "current": suggest.current,
            "preview": suggest.preview,
            "board_height": self.board_height,
            "game_over": self.game_over,
            "top": 1,
        });
        if let Some((timeline, inputs)) = &self.frames {
            // The position as the game's player meets it: its level's gravity, the run's
            // timeline and input model, the first piece's entry delay.
            body["level"] = json!(suggest.level);
            body["timeline"] = json!(timeline);
            body["inputs"] = json!(inputs);
            body["entry_delay"] = json!(suggest.pieces == 0);
        }
        let analysis: Analysis = read_json(
            self.agent
                .post(format!("{}/v1/analyze", self.spec.url))
                .send_json(&body),
            "analysis",
        )?;
        let best = analysis.placements.first().ok_or_else(|| Fault {
            kind: FaultKind::Illegal,
            message: "the server found no placement where the searcher lists some".to_string(),
        })?;
        Suggestion {
            index: None,
            x: Some(best.x),
            y: Some(best.y),
            rotation: Some(best.rotation),
            inputs: None,
        }
        .resolve(placements)
        .map(Answer::placement)
        .map_err(|message| Fault {
            kind: FaultKind::Illegal,
            message: format!("the server's placement: {message}"),
        })
    }

    fn end_game(&mut self, _stop: &Stop) {}

    fn fresh(&self) -> Box<dyn Decider> {
        Box::new(HttpEngine {
            spec: self.spec.clone(),
            info: self.info.clone(),
            agent: agent(self.spec.limit),
            board_height: self.board_height,
            game_over: self.game_over.clone(),
            frames: self.frames.clone(),
        })
    }
}

/// An agent whose every call ends within `limit`, that hands over any status as an answer.
pub(crate) fn agent(limit: Duration) -> ureq::Agent {
    ureq::Agent::config_builder()
        .timeout_global(Some(limit))
        .http_status_as_error(false)
        .build()
        .into()
}

/// The JSON body of a 200 answer, or the fault: a status (with the server's error line), a
/// transport failure, a body too long or not of the expected shape.
pub(crate) fn read_json<T: serde::de::DeserializeOwned>(
    answer: Result<ureq::http::Response<ureq::Body>, ureq::Error>,
    what: &str,
) -> Result<T, Fault> {
    let text = read_text(answer, what)?;
    serde_json::from_str(&text).map_err(|error| Fault {
        kind: FaultKind::Malformed,
        message: format!("the server's {what} is not what the API gives: {error}"),
    })
}

/// The body of a 200 answer, or the fault (as [`read_json`]'s).
pub(crate) fn read_text(
    answer: Result<ureq::http::Response<ureq::Body>, ureq::Error>,
    what: &str,
) -> Result<String, Fault> {
    let mut answer = answer.map_err(|error| transport_fault(&error, what))?;
    let status = answer.status();
    let text = answer
        .body_mut()
        .with_config()
        .limit(MAX_ANSWER)
        .read_to_string()
        .map_err(|error| transport_fault(&error, what))?;
    if status != 200 {
        // The arena's API answers `{"error": …}`; StackRabbit's, a line of plain text.
        let said = serde_json::from_str::<ErrorBody>(&text)
            .map(|body| body.error)
            .unwrap_or_else(|_| {
                text.lines()
                    .next()
                    .unwrap_or("")
                    .chars()
                    .take(200)
                    .collect()
            });
        let said = if said.is_empty() {
            String::new()
        } else {
            format!(": {said}")
        };
        return Err(Fault {
            kind: FaultKind::Server,
            message: format!("the server answered {}{said}", status.as_u16()),
        });
    }
    Ok(text)
}

fn transport_fault(error: &ureq::Error, what: &str) -> Fault {
    match error {
        ureq::Error::Timeout(_) => Fault {
            kind: FaultKind::TooLate,
            message: format!("no {what} from the server in time"),
        },
        ureq::Error::BodyExceedsLimit(_) => Fault {
            kind: FaultKind::Malformed,
            message: format!("the server's {what} is over {MAX_ANSWER} bytes"),
        },
        other => Fault {
            kind: FaultKind::Exited,
            message: format!("the server's {what}: {other}"),
        },
    }
}
