//! The report of one game: `arena play`'s text and JSON, `arena replay`'s text and JSON.

use std::fmt::Write as _;
use std::time::Duration;

use serde::Serialize;
use tetris_core::GameOverRule;
use tetris_registry::Strategy;

use tetris_arena_games::analysis::estimate::EstimateJson;
use tetris_arena_games::sim::game::{GameResult, GameSettings};
use tetris_arena_games::sim::placement::PlayedPlacement;
use tetris_arena_games::sim::replay::{Replay, Verified};
use tetris_arena_io::output::{MadeBy, pretty_json};

/// `arena play --json` (field order as in docs/spec/arena.md's contract). It holds nothing that depends
/// on timing, so two runs print the same bytes.
#[derive(Serialize)]
#[cfg_attr(feature = "api", derive(utoipa::ToSchema))]
pub struct PlayJson {
    strategy: String,
    generator: String,
    seed: u64,
    board_height: u8,
    #[cfg_attr(feature = "api", schema(value_type = String))]
    game_over_rule: GameOverRule,
    pieces: u64,
    lines: u64,
    score: u32,
    /// The level the game started at: 0, or a gravity-aware searcher's gravity's first level.
    start_level: u8,
    /// The level at the end, the one the score's last clear counted from.
    level: u8,
    game_over: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    placements: Option<Vec<PlayedPlacement>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "api", schema(value_type = Option<Object>))]
    estimate: Option<EstimateJson>,
    made_by: MadeBy,
}

impl PlayJson {
    /// The report with the expected-length estimate (`--estimate`).
    pub fn with_estimate(self, estimate: Option<EstimateJson>) -> PlayJson {
        PlayJson { estimate, ..self }
    }

    /// The report of a game; `placements` keeps the list (without paths).
    pub fn new(
        strategy: &Strategy,
        settings: &GameSettings,
        result: &GameResult,
        placements: bool,
    ) -> PlayJson {
        PlayJson {
            strategy: strategy.name(),
            generator: settings.generator.to_string(),
            seed: settings.seed,
            board_height: settings.board_height.get(),
            game_over_rule: settings.game_over_rule,
            pieces: result.pieces,
            lines: result.lines,
            score: result.score,
            start_level: result.start_level,
            level: result.level,
            game_over: result.game_over(),
            placements: placements.then(|| {
                result
                    .placements
                    .iter()
                    .map(PlayedPlacement::without_path)
                    .collect()
            }),
            estimate: None,
            made_by: MadeBy::current(),
        }
    }

    /// The JSON report ([`pretty_json`]'s layout: one placement per line).
    pub fn to_json(&self) -> String {
        pretty_json(self)
    }
}

/// `arena replay --json`: the verified result.
#[derive(Serialize)]
pub struct ReplayJson<'a> {
    file: &'a str,
    strategy: &'a str,
    generator: String,
    seed: u64,
    board_height: u8,
    max_pieces: Option<u64>,
    game_over_rule: GameOverRule,
    /// True when a version-1 replay does not record its rule and `simulation` was assumed.
    game_over_rule_assumed: bool,
    pieces: u64,
    lines: u64,
    score: u32,
    /// The level at the end (null in a replay of format version 1 or 2, which records none).
    level: Option<u8>,
    game_over: bool,
    end: &'static str,
    verified: bool,
    redecided: bool,
    /// What was checked: `legality` (legal placements and paths giving the recorded result)
    /// or `decisions` (also: the strategy re-decided every placement and path).
    checked: &'static str,
    /// The outside engine that re-decided, as it names itself (left out for the arena's own
    /// engines and without `--redecide`): a re-decision is only as repeatable as it is.
    #[serde(skip_serializing_if = "Option::is_none")]
    engine: Option<&'a str>,
    /// The header facts the game does not prove, one per field (empty: the game proves its
    /// whole header, strategy choice aside, which `checked` says).
    unproven: Vec<UnprovenJson>,
    made_by: MadeBy,
}

/// One header fact a verified replay does not prove (`arena replay --json`'s `unproven`).
#[derive(Serialize)]
struct UnprovenJson {
    /// The header field (`max_pieces`, `game_over_rule`, `frame_timing.tap_rate`, `frame_timing.timeline`, …).
    field: &'static str,
    /// Whether the strategy re-decided the game under the other values too.
    redecided: bool,
    /// The line `arena replay` prints after `unproven   `.
    text: String,
}

impl<'a> ReplayJson<'a> {
    /// The report of a verified replay read from `file`; `engine`: the outside engine that
    /// re-decided it, as it names itself, if one did.
    pub fn new(
        file: &'a str,
        replay: &'a Replay,
        verified: &Verified,
        redecided: bool,
        engine: Option<&'a str>,
    ) -> ReplayJson<'a> {
        let result = &replay.result;
        ReplayJson {
            file,
            strategy: &replay.strategy,
            generator: replay.generator.to_string(),
            seed: replay.seed,
            board_height: replay.rules.board_height,
            max_pieces: replay.rules.max_pieces,
            game_over_rule: replay.rules.rule(),
            game_over_rule_assumed: replay.rules.rule_assumed(),
            pieces: result.pieces,
            lines: result.lines,
            score: result.score,
            level: result.level,
            game_over: result.game_over,
            end: result.end.name(),
            verified: true,
            redecided,
            checked: if redecided { "decisions" } else { "legality" },
            engine,
            unproven: verified
                .unproven
                .iter()
                .map(|unproven| UnprovenJson {
                    field: unproven.fact.field(),
                    redecided: unproven.redecided,
                    text: unproven.to_string(),
                })
                .collect(),
            made_by: MadeBy::current(),
        }
    }

    /// The JSON report ([`pretty_json`]'s layout).
    pub fn to_json(&self) -> String {
        pretty_json(self)
    }
}

/// The level line of a game's text: where it ended, and where it started and why.
fn level_text(strategy: &Strategy, result: &GameResult) -> String {
    match strategy.frame_timing() {
        Some(timing) => format!(
            "{} (from {}, the first level of the searcher's gravity, {} frames per row, which \
             the score counts from)",
            result.level, result.start_level, timing.frames_per_row
        ),
        None => format!("{} (from {})", result.level, result.start_level),
    }
}

/// The text report: rules, result, time and speed.
pub fn play_text(
    strategy: &Strategy,
    settings: &GameSettings,
    result: &GameResult,
    recorded: bool,
) -> String {
    let seconds = result.elapsed.as_secs_f64();
    let mut text = String::new();
    let _ = writeln!(text, "strategy   {}", strategy.name());
    let _ = writeln!(
        text,
        "generator  {} (seed {})",
        settings.generator, settings.seed
    );
    let _ = writeln!(text, "board      10 x {}", settings.board_height);
    let _ = writeln!(
        text,
        "game over  {} rule: {}",
        settings.game_over_rule,
        settings.game_over_rule.description()
    );
    let _ = writeln!(text, "pieces     {}", result.pieces);
    let _ = writeln!(text, "lines      {}", result.lines);
    let _ = writeln!(text, "score      {}", result.score);
    let _ = writeln!(text, "level      {}", level_text(strategy, result));
    let _ = writeln!(
        text,
        "clears     single {}, double {}, triple {}, tetris {}",
        result.clears[1], result.clears[2], result.clears[3], result.clears[4]
    );
    let _ = writeln!(
        text,
        "end        {}",
        result.end.describe(
            settings.max_pieces.map(|cap| cap.get()),
            settings.game_over_rule
        )
    );
    let _ = writeln!(text, "time       {seconds:.3} s");
    // With --watch or --record the time includes the pauses or the path searches.
    if seconds > 0.0 {
        let _ = writeln!(
            text,
            "speed      {:.0} pieces/s",
            result.pieces as f64 / seconds
        );
    }
    if recorded {
        let _ = writeln!(
            text,
            "note       the time includes finding the replay's paths"
        );
    }
    text
}

/// `arena replay`'s text: the game's rules and result, what was verified (`engine`: the
/// outside engine that re-decided it, as it names itself, if one did), and one `unproven` line
/// per header fact the game does not prove.
pub fn replay_text(
    shown: &str,
    replay: &Replay,
    verified: &Verified,
    redecided: bool,
    engine: Option<&str>,
    elapsed: Duration,
) -> String {
    let result = &replay.result;
    let board_height = replay.rules.board_height;
    let mut text = String::new();
    let _ = writeln!(text, "replay     {shown}");
    let _ = writeln!(text, "strategy   {}", replay.strategy);
    let _ = writeln!(
        text,
        "generator  {} (seed {})",
        replay.generator, replay.seed
    );
    let _ = writeln!(text, "board      10 x {board_height}");
    let rule = replay.rules.rule();
    let _ = writeln!(text, "game over  {rule} rule: {}", rule.description());
    if replay.rules.rule_assumed() {
        let _ = writeln!(
            text,
            "assumed    game_over_rule {rule}: this version-{} replay does not record its rule",
            replay.version
        );
    }
    let _ = writeln!(text, "pieces     {}", result.pieces);
    let _ = writeln!(text, "lines      {}", result.lines);
    let _ = writeln!(text, "score      {}", result.score);
    if let Some(level) = result.level {
        let start = replay.levels(&replay.rules).start;
        let _ = writeln!(
            text,
            "level      {level} (from {start}, which the score counts from)"
        );
    }
    let _ = writeln!(
        text,
        "end        {}",
        result.end.describe(replay.rules.max_pieces, rule)
    );
    let placements = replay.placements.len();
    let seconds = elapsed.as_secs_f64();
    if redecided {
        let _ = writeln!(
            text,
            "verified   {placements} placements: pieces, paths, lock states, clears and result, \
             and the strategy re-decided every placement and path ({seconds:.3} s)"
        );
        if let Some(engine) = engine {
            let _ = writeln!(
                text,
                "outside    {} is {engine} (as it names itself): its re-decision is only as \
                 repeatable as it is",
                replay.strategy
            );
        }
    } else {
        // Said plainly: a legal game with the recorded result is not proof that this
        // strategy played it.
        let _ = writeln!(
            text,
            "checked    {placements} placements are legal (pieces, paths, lock states, clears) \
             and give the result ({seconds:.3} s)"
        );
        let _ = writeln!(
            text,
            "not        checked that {} chose them: use --redecide",
            replay.strategy
        );
    }
    if !replay.generator.is_seeded() {
        let _ = writeln!(
            text,
            "pieces     the replay's own: a file sequence cannot be re-derived"
        );
    }
    for unproven in &verified.unproven {
        let _ = writeln!(text, "unproven   {unproven}");
    }
    text
}
