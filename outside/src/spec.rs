//! Outside engines by name: the part of a strategy name after `SEARCHER+`.
//!
//! | kind | grammar | example |
//! |---|---|---|
//! | a program | `exec[,limit=MS]:PROGRAM ARGS…` | `column-drop+exec:python3 bot.py` |
//! | a server of the arena's API | `http[,limit=MS][,preview=N]:URL STRATEGY` | `bfs+http:http://127.0.0.1:8080 bfs+elashi@2` |
//! | a server of StackRabbit's API (NES games) | `stackrabbit[,limit=MS][,play=inputs\|placement]:URL` | `gamepad+stackrabbit:http://127.0.0.1:3000` |
//!
//! `limit` is the time per decision in milliseconds (1 to 60,000; default 1,000). A
//! program's command is split at whitespace (no shell reads it; a path with spaces needs a
//! wrapper script). A server is asked `POST URL/v1/analyze` with `STRATEGY`, the server's own
//! name for its engine; `preview` is how many preview pieces it is shown (default: the depth
//! after `@` in STRATEGY less one, an arena strategy name's, else 0). A StackRabbit server is
//! asked `GET URL/get-move`; `play` says what of its answer the game plays ([`AnswerPlay`]).

use std::fmt;
use std::time::Duration;

use crate::bot::{DEFAULT_LIMIT, ExecSpec, MAX_PREVIEW};
use crate::decider::Decider;
use crate::fault::Fault;

/// The longest time limit per decision, in milliseconds (a minute).
pub const MAX_LIMIT_MS: u64 = 60_000;

/// A server of the arena's API as a strategy name gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpSpec {
    /// The server's address, `http://HOST:PORT` (a path prefix allowed, no trailing `/`).
    pub url: String,
    /// The server's name for the engine it should analyse with.
    pub strategy: String,
    /// The time limit per decision.
    pub limit: Duration,
    /// Preview pieces sent with each position.
    pub preview: u8,
}

/// A server of StackRabbit's API as a strategy name gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StackRabbitSpec {
    /// The server's address, `http://HOST:PORT` (no trailing `/`).
    pub url: String,
    /// The time limit per decision.
    pub limit: Duration,
    /// What of each answer the game plays.
    pub play: AnswerPlay,
}

/// What of a StackRabbit answer (a placement and its input sequence) an NES game plays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AnswerPlay {
    /// `play=inputs` (the default): the input sequence, frame by frame through the arena's
    /// frame model, which must lock the piece at the placement.
    #[default]
    Inputs,
    /// `play=placement`: the placement, reached by the searcher's path (the path the NES
    /// benchmark's own player presses); the input sequence is not played. The console's
    /// randomizer runs every frame, so two paths to one placement that lock on different
    /// frames deal different pieces after it: this is the way to play the benchmark's
    /// pieces with an engine's decisions.
    Placement,
}

/// An outside engine as a strategy name gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OutsideSpec {
    /// A bot program (`exec:`).
    Exec(ExecSpec),
    /// A server of the arena's API (`http:`).
    Http(HttpSpec),
    /// A server of StackRabbit's API, for NES games (`stackrabbit:`).
    StackRabbit(StackRabbitSpec),
    /// An engine a front end built and registered ([`register_given`]) under a name
    /// `python:NAME`: found by that name in this process only.
    Given(String),
}

/// The engines front ends registered, by name (a Python function's, `python:NAME`).
static GIVEN: std::sync::Mutex<Vec<(String, Box<dyn Decider>)>> = std::sync::Mutex::new(Vec::new());

/// The prefix of a front end's engine's name.
pub const GIVEN_PREFIX: &str = "python:";

/// Registers `decider` under `name` (which must start with [`GIVEN_PREFIX`]), replacing an
/// engine of that name: `SEARCHER+NAME` then names it, in this process.
pub fn register_given(name: &str, decider: Box<dyn Decider>) {
    let mut given = GIVEN
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    given.retain(|(known, _)| known != name);
    given.push((name.to_string(), decider));
}

/// The kinds of outside engine, with what each is (as `arena list` prints them).
pub const OUTSIDE_ENGINES: &[(&str, &str)] = &[
    (
        "exec:PROGRAM ARGS...",
        "a bot program the arena starts, speaking the bot protocol (JSON Lines) on stdin/stdout and choosing among the searcher's placements; exec,limit=MS:... sets its time per decision (default 1000 ms); docs/writing-a-bot.md",
    ),
    (
        "stackrabbit:URL",
        "NES games only (arena nes, gamepad): a server of StackRabbit's API asked GET URL/get-move for each piece; its inputs are played frame by frame and must lock the piece at its placement; limit=MS as for exec; play=placement plays the placement by the searcher's path instead (the benchmark's player and pieces)",
    ),
    (
        "http:URL STRATEGY",
        "a server of the arena's API (another `arena serve`) asked POST URL/v1/analyze with its STRATEGY; its best placement must be one of the searcher's; http,limit=MS,preview=N:... as for exec, N preview pieces (default: STRATEGY's @depth - 1)",
    ),
];

impl OutsideSpec {
    /// The spec of `text` (a strategy name's part after `SEARCHER+`), `None` when it names
    /// no outside engine, or what is wrong with it.
    pub fn parse(text: &str) -> Option<Result<OutsideSpec, String>> {
        if text.starts_with(GIVEN_PREFIX) {
            return Some(Ok(OutsideSpec::Given(text.to_string())));
        }
        let (kind, rest) = ["exec", "http", "stackrabbit"]
            .into_iter()
            .find_map(|kind| {
                let rest = text.strip_prefix(kind)?;
                (rest.starts_with(':') || rest.starts_with(',')).then_some((kind, rest))
            })?;
        Some(parse_kind(kind, rest))
    }

    /// Starts the engine (a program and its handshake; a server's health check).
    pub fn start(&self) -> Result<Box<dyn Decider>, Fault> {
        match self {
            OutsideSpec::Exec(spec) => Ok(Box::new(crate::ExecBot::start(spec.clone())?)),
            OutsideSpec::Http(spec) => Ok(Box::new(crate::HttpEngine::start(spec.clone())?)),
            OutsideSpec::StackRabbit(spec) => Ok(Box::new(
                crate::stackrabbit::StackRabbitEngine::start(spec.clone())?,
            )),
            OutsideSpec::Given(name) => GIVEN
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .iter()
                .find(|(known, _)| known == name)
                .map(|(_, decider)| decider.fresh())
                .ok_or_else(|| Fault {
                    kind: crate::FaultKind::Start,
                    message: format!(
                        "no engine {name} was registered in this process (the Python package registers its functions)"
                    ),
                }),
        }
    }
}

fn parse_kind(kind: &str, rest: &str) -> Result<OutsideSpec, String> {
    let grammar = match kind {
        "exec" => "SEARCHER+exec[,limit=MS]:PROGRAM ARGS..., e.g. column-drop+exec:python3 bot.py",
        "stackrabbit" => {
            "gamepad+stackrabbit[,limit=MS][,play=inputs|placement]:URL, e.g. gamepad+stackrabbit:http://127.0.0.1:3000"
        }
        _ => {
            "SEARCHER+http[,limit=MS][,preview=N]:URL STRATEGY, e.g. bfs+http:http://127.0.0.1:8080 bfs+elashi@2"
        }
    };
    let (options, target) = rest
        .split_once(':')
        .ok_or_else(|| format!("expected {grammar}"))?;
    let mut limit = DEFAULT_LIMIT;
    let mut preview = None;
    let mut play = AnswerPlay::default();
    for option in options.split(',').filter(|option| !option.is_empty()) {
        let (name, value) = option.split_once('=').unwrap_or((option, ""));
        let number = |range: std::ops::RangeInclusive<u64>, unit: &str| {
            value
                .parse::<u64>()
                .ok()
                .filter(|number| range.contains(number))
                .ok_or_else(|| {
                    format!(
                        "{name}={value} is not a whole number {unit}from {} to {}",
                        range.start(),
                        range.end()
                    )
                })
        };
        match name {
            "limit" => limit = Duration::from_millis(number(1..=MAX_LIMIT_MS, "of milliseconds ")?),
            "preview" if kind == "http" => {
                preview = Some(number(0..=u64::from(MAX_PREVIEW), "")? as u8);
            }
            "play" if kind == "stackrabbit" => {
                play = match value {
                    "inputs" => AnswerPlay::Inputs,
                    "placement" => AnswerPlay::Placement,
                    _ => return Err(format!("play={value} is not inputs or placement")),
                }
            }
            _ => {
                let valid = match kind {
                    "http" => "limit=MS, preview=N",
                    "stackrabbit" => "limit=MS, play=inputs|placement",
                    _ => "limit=MS",
                };
                return Err(format!("unknown {kind} option {option:?} (valid: {valid})"));
            }
        }
    }
    let words: Vec<String> = target.split_whitespace().map(str::to_string).collect();
    match kind {
        "exec" if words.is_empty() => Err(format!("the bot's command is empty: {grammar}")),
        "exec" => Ok(OutsideSpec::Exec(ExecSpec {
            command: words,
            limit,
        })),
        "stackrabbit" => {
            let [url] = words.as_slice() else {
                return Err(format!("expected one URL: {grammar}"));
            };
            if !url.starts_with("http://") {
                return Err(format!("{url:?} is not an http:// address: {grammar}"));
            }
            Ok(OutsideSpec::StackRabbit(StackRabbitSpec {
                url: url.trim_end_matches('/').to_string(),
                limit,
                play,
            }))
        }
        _ => {
            let [url, strategy] = words.as_slice() else {
                return Err(format!("expected a URL and a strategy: {grammar}"));
            };
            if !url.starts_with("http://") {
                return Err(format!("{url:?} is not an http:// address: {grammar}"));
            }
            Ok(OutsideSpec::Http(HttpSpec {
                url: url.trim_end_matches('/').to_string(),
                strategy: strategy.clone(),
                limit,
                preview: preview.unwrap_or_else(|| implied_preview(strategy)),
            }))
        }
    }
}

/// The preview pieces a server's strategy name implies: the depth after its `@`, less one
/// (an arena strategy name's), else 0.
fn implied_preview(strategy: &str) -> u8 {
    strategy
        .rsplit_once('@')
        .and_then(|(_, depth)| depth.parse::<u8>().ok())
        .map_or(0, |depth| depth.saturating_sub(1))
        .min(MAX_PREVIEW)
}

impl fmt::Display for OutsideSpec {
    /// The canonical form: the limit when not the default, the words joined by one space.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let limit = |limit: Duration| match limit == DEFAULT_LIMIT {
            true => String::new(),
            false => format!(",limit={}", limit.as_millis()),
        };
        match self {
            OutsideSpec::Exec(spec) => {
                write!(f, "exec{}:{}", limit(spec.limit), spec.command.join(" "))
            }
            OutsideSpec::Http(spec) => {
                let preview = match spec.preview == implied_preview(&spec.strategy) {
                    true => String::new(),
                    false => format!(",preview={}", spec.preview),
                };
                write!(
                    f,
                    "http{}{preview}:{} {}",
                    limit(spec.limit),
                    spec.url,
                    spec.strategy
                )
            }
            OutsideSpec::StackRabbit(spec) => {
                let play = match spec.play {
                    AnswerPlay::Inputs => "",
                    AnswerPlay::Placement => ",play=placement",
                };
                write!(f, "stackrabbit{}{play}:{}", limit(spec.limit), spec.url)
            }
            OutsideSpec::Given(name) => write!(f, "{name}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_and_print_back_in_canonical_form() {
        for (name, canonical) in [
            ("exec:python3  bot.py  -v", "exec:python3 bot.py -v"),
            ("exec,limit=1000:bot", "exec:bot"),
            ("exec,limit=250:bot", "exec,limit=250:bot"),
            (
                "http:http://127.0.0.1:80/ bfs+elashi@2",
                "http:http://127.0.0.1:80 bfs+elashi@2",
            ),
            (
                "http,preview=1:http://h:1 bfs+elashi@2",
                "http:http://h:1 bfs+elashi@2",
            ),
            (
                "http,preview=0:http://h:1 bfs+elashi@2",
                "http,preview=0:http://h:1 bfs+elashi@2",
            ),
            (
                "stackrabbit,play=inputs:http://h:1/",
                "stackrabbit:http://h:1",
            ),
            (
                "stackrabbit,play=placement,limit=500:http://h:1",
                "stackrabbit,limit=500,play=placement:http://h:1",
            ),
        ] {
            let spec = OutsideSpec::parse(name).unwrap().unwrap();
            assert_eq!(spec.to_string(), canonical);
            assert_eq!(OutsideSpec::parse(canonical).unwrap().unwrap(), spec);
        }
        assert_eq!(OutsideSpec::parse("elashi"), None);
        assert_eq!(OutsideSpec::parse("executive"), None);
        for (name, message) in [
            ("exec:", "the bot's command is empty"),
            (
                "exec,limit=0:bot",
                "limit=0 is not a whole number of milliseconds from 1 to 60000",
            ),
            (
                "exec,preview=1:bot",
                "unknown exec option \"preview=1\" (valid: limit=MS)",
            ),
            ("http:http://h:1", "expected a URL and a strategy"),
            (
                "http:ftp://h bfs+elashi",
                "\"ftp://h\" is not an http:// address",
            ),
            (
                "http,preview=4:http://h x",
                "preview=4 is not a whole number from 0 to 3",
            ),
            (
                "stackrabbit,play=path:http://h",
                "play=path is not inputs or placement",
            ),
            (
                "exec,play=inputs:bot",
                "unknown exec option \"play=inputs\" (valid: limit=MS)",
            ),
        ] {
            let error = OutsideSpec::parse(name).unwrap().unwrap_err();
            assert!(error.starts_with(message), "{name}: {error}");
        }
    }
}
