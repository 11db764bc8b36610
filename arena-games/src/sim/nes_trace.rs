//! The trace of an NES run (`arena nes --trace`): its lines as types ([`TraceLine`]), written
//! by [`tetris_arena_reports::nes_trace`] and read back here, and the checks `arena replay` makes of a
//! trace: [`TraceReader`] reads its text one game at a time, [`check_game`] replays one game
//! through the console's frame model, and [`compare_games`] holds it against the game played
//! again by the strategy (`--redecide`). A trace is read whole, up to [`TRACE_LIMIT`] (100
//! games to level 39 are about 60 MB), and parsed one game at a time.
//!
//! # The file (JSON Lines)
//!
//! 1. One `run` line: `{"event":"run","strategy":…,"settings":{…},"made_by":{…}}`, the
//!    settings object of the JSON report (rules, player, seeds) and what wrote the file.
//! 2. Per game, in game order, one `lock` line per piece ([`TraceLock`]): the seed, the
//!    piece's number from 1, the preview, the level, lines and uncapped line-clear points
//!    before the lock, the spawn frame, the board the piece fell onto (the field's 20 rows, top
//!    first; the console's two hidden rows are not recorded), the
//!    replay files' placement record (where it locked, the rows it cleared and `path`, the
//!    buttons of every frame from the spawn to the lock, `F<n>`; none for a searcher that ignores
//!    gravity) and, with a reaction time, `plan`: where the plan made without the preview was
//!    heading.
//! 3. Then one `end` line for the game ([`TraceEnd`]): the fields of the report's `games`
//!    array.
//!
//! # What the games prove about the run line
//!
//! The run line is read as a run's settings (every field typed, an unknown one refused), the
//! run's request rebuilt from it is checked by `arena nes`'s own check, and the line must then
//! be the one a run with those settings writes: the strategy's canonical name and every field
//! the settings derive (the board's 10 × 20, one preview piece, the stop level's lines, the
//! seed rule, the rules in words); anything else no run writes, and is refused naming the
//! field. A lock records its plan made without the preview exactly when the run has a
//! reaction time. Then, as for a replay's header ([`crate::sim::replay`]), the settings the
//! games do not tell apart from other values a run accepts are reported ([`TraceUnproven`]):
//! the stop level when no game reached it, the line cap when other caps (or none) end every
//! game where it ended ([`unproven_by_the_ends`]), and the game-over rule, the tap rate and
//! the input model when every game also checks under another value ([`games_also_check`]);
//! with `--redecide` those values are re-decided too, and dropped when the strategy plays some
//! lock otherwise. The reaction time's length shows in no frame: it is unproven without
//! `--redecide`, and with it the length the strategy re-decided by (other lengths are not
//! tried, as other seeds are not). The seed and the start level are shown by every game.
//!
//! An outside engine's trace (`gamepad+exec:…`) is checked as any other: its frames alone
//! show every lock. Its choices, its top-outs and the games its faults ended (`fault`: the
//! engine broke the protocol on the next piece; the trace keeps no reason) are proven only by
//! asking the engine again (`--redecide`), and such a re-decision is only as repeatable as
//! the engine.

use serde::{Deserialize, Serialize};
use tetris_core::{Board, Buttons, GameOverRule, Input, InputModel, NesGame, Piece, PieceState};

use crate::sim::nes::{NesEnd, NesGameResult, NesRunSettings, POINTS_BEFORE_LEVEL};
use crate::sim::placement::{LastPlacement, PlayedPlacement};
use crate::sim::replay::frames::{PathError, TwoThumbTaps, article_allows};
use tetris_arena_io::output::MadeBy;

/// The largest trace `arena replay` reads: 256 MiB.
pub const TRACE_LIMIT: u64 = 256 * tetris_core::files::MIB;

/// One line of a trace.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "lowercase")]
pub enum TraceLine {
    /// The first line: the run.
    Run(TraceRun),
    /// One piece's lock.
    Lock(TraceLock),
    /// A game's end.
    End(TraceEnd),
}

/// The `run` line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TraceRun {
    /// The canonical strategy name.
    pub strategy: String,
    /// The settings object of the run's JSON report.
    pub settings: serde_json::Value,
    /// What wrote the file.
    pub made_by: MadeBy,
}

/// A `lock` line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TraceLock {
    /// The game's seed.
    pub seed: u64,
    /// The piece's number in the game, from 1.
    pub piece: u64,
    /// The preview piece.
    pub preview: Piece,
    /// The level before the lock.
    pub level: u8,
    /// Rows cleared before the lock.
    pub lines: u32,
    /// Line-clear points (uncapped) before the lock.
    pub points: u64,
    /// The frame the piece spawned on.
    pub spawn_frame: u64,
    /// The board the piece fell onto: the field's 20 rows (not the console's two hidden rows
    /// above it, which only cells locked there fill).
    pub board: Board,
    /// Where it locked, the rows it cleared and the frames played (no path when the searcher
    /// ignores gravity).
    pub placement: PlayedPlacement,
    /// With a reaction time: where the plan without the preview was heading.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plan: Option<PieceState>,
}

/// An `end` line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TraceEnd {
    /// The game's seed.
    pub seed: u64,
    /// Why it ended.
    pub end: NesEnd,
    /// Pieces locked.
    pub pieces: u64,
    /// Rows cleared.
    pub lines: u32,
    /// The level at the end.
    pub level: u8,
    /// The displayed score (capped at 999,999).
    pub score: u32,
    /// All line-clear points, uncapped.
    pub line_clear_points: u64,
    /// The points before level 29 (BetaTetris's figure).
    pub points_before_level_29: u64,
}

impl TraceLock {
    /// The frames of its path (empty without one), `None` if a step is not one frame.
    pub fn frames(&self) -> Option<Vec<Buttons>> {
        self.placement
            .path
            .as_deref()
            .unwrap_or(&[])
            .iter()
            .map(|input| input.frame())
            .collect()
    }
}

impl TraceEnd {
    /// The line of `game`'s end.
    pub fn of(game: &NesGameResult) -> TraceEnd {
        TraceEnd {
            seed: game.seed,
            end: game.end,
            pieces: game.pieces,
            lines: game.lines,
            level: game.level,
            score: game.score,
            line_clear_points: game.line_clear_points,
            points_before_level_29: game.points_before_29(),
        }
    }
}

/// Why a trace does not check out.
#[derive(Debug, thiserror::Error)]
pub enum TraceError {
    /// A run line no run writes: a setting the run's own settings derive otherwise (the board,
    /// the preview, the stop level's lines, the rules in words, the strategy's canonical name).
    #[error("line 1: {field}: {message}")]
    RunLine {
        /// The field, as the file spells it (`settings.board_height`).
        field: String,
        /// What a run writes there instead.
        message: String,
    },
    /// A line that is not a trace line.
    #[error("line {line}: {message}")]
    Malformed {
        /// The line's number, from 1.
        line: u64,
        /// What is wrong.
        message: String,
    },
    /// Lines out of the format's order.
    #[error("line {line}: {message}")]
    OutOfOrder {
        /// The line's number, from 1.
        line: u64,
        /// What was expected.
        message: String,
    },
    /// More games than the run line's.
    #[error("more games than the {games} of its run line")]
    TooManyGames {
        /// The run line's games.
        games: u64,
    },
    /// A recorded value the game does not reproduce.
    #[error("game seed {seed}, {at}: {what} is recorded as {recorded}, but {found}")]
    Differs {
        /// The game's seed.
        seed: u64,
        /// Where: a piece (`piece 12`) or the game's end.
        at: String,
        /// The value.
        what: &'static str,
        /// As recorded.
        recorded: String,
        /// What the replay or the strategy gives, in words.
        found: String,
    },
}

/// One game of a trace: its locks and its end.
#[derive(Clone, Debug, PartialEq)]
pub struct TracedGame {
    /// Its locks, in order.
    pub locks: Vec<TraceLock>,
    /// Its end.
    pub end: TraceEnd,
}

/// Reads a trace's text: the `run` line first ([`TraceReader::new`]), then one game at a time
/// ([`TraceReader::next_game`]).
pub struct TraceReader<'a> {
    lines: std::iter::Enumerate<std::str::Lines<'a>>,
    /// The number of the last line read, from 1.
    line: u64,
}

impl<'a> TraceReader<'a> {
    /// Reads the `run` line of `text`.
    pub fn new(text: &'a str) -> Result<(TraceReader<'a>, TraceRun), TraceError> {
        let mut reader = TraceReader {
            lines: text.lines().enumerate(),
            line: 0,
        };
        match reader.next_line()? {
            Some(TraceLine::Run(run)) => Ok((reader, run)),
            _ => Err(TraceError::OutOfOrder {
                line: 1,
                message: "a trace starts with its run line ({\"event\":\"run\",…})".into(),
            }),
        }
    }

    /// The next game, `None` at the end of the text.
    pub fn next_game(&mut self) -> Result<Option<TracedGame>, TraceError> {
        let mut locks: Vec<TraceLock> = Vec::new();
        loop {
            let Some(parsed) = self.next_line()? else {
                if locks.is_empty() {
                    return Ok(None);
                }
                return Err(TraceError::OutOfOrder {
                    line: self.line + 1,
                    message: "the file ends inside a game (no end line)".into(),
                });
            };
            let line = self.line;
            match parsed {
                TraceLine::Run(_) => {
                    return Err(TraceError::OutOfOrder {
                        line,
                        message: "a second run line".into(),
                    });
                }
                TraceLine::Lock(lock) => {
                    let due = locks.len() as u64 + 1;
                    let seed = locks.first().map_or(lock.seed, |first| first.seed);
                    if lock.seed != seed || lock.piece != due {
                        return Err(TraceError::OutOfOrder {
                            line,
                            message: format!(
                                "piece {} of seed {} where piece {due} of seed {seed} was due",
                                lock.piece, lock.seed
                            ),
                        });
                    }
                    locks.push(lock);
                }
                TraceLine::End(end) => {
                    if locks.first().is_some_and(|first| first.seed != end.seed) {
                        return Err(TraceError::OutOfOrder {
                            line,
                            message: format!("the end of seed {} inside another game", end.seed),
                        });
                    }
                    return Ok(Some(TracedGame { locks, end }));
                }
            }
        }
    }

    /// The next non-blank line, parsed; `None` at the end.
    fn next_line(&mut self) -> Result<Option<TraceLine>, TraceError> {
        for (index, text) in self.lines.by_ref() {
            self.line = index as u64 + 1;
            if text.trim().is_empty() {
                continue;
            }
            return tetris_core::files::parse_json(text)
                .map(Some)
                .map_err(|error| TraceError::Malformed {
                    line: index as u64 + 1,
                    message: error.to_string(),
                });
        }
        Ok(None)
    }
}

/// What checking a trace found (`arena replay TRACE`; the request layer's
/// `TraceReplayRequest` fills it).
#[derive(Clone, Debug)]
pub struct TraceFound {
    /// The trace file, as shown in messages.
    pub shown: String,
    /// The trace's run line.
    pub run: TraceRun,
    /// The settings of the run it records, checked as `arena nes` checks them.
    pub settings: NesRunSettings,
    /// The games the trace holds (fewer than the run's when the run was interrupted).
    pub games: Vec<TracedGame>,
    /// Their locks.
    pub locks: u64,
    /// Top-outs taken as recorded: the player found no placement for the next piece, which
    /// only the strategy's search proves (0 once the games were re-decided).
    pub unproven_top_outs: u64,
    /// Games an outside engine's fault ended, taken as recorded: which only asking the
    /// engine again proves (0 once the games were re-decided).
    pub unproven_faults: u64,
    /// The outside engine that re-decided the games, as it names itself (its name and
    /// version), when one did: a re-decision is only as repeatable as the engine.
    pub engine: Option<String>,
    /// Whether the strategy played every game again, lock by lock the same.
    pub redecided: bool,
    /// The settings of the run line that the games do not prove (section "What the games
    /// prove about the run line").
    pub unproven: Vec<TraceUnproven>,
}

/// One setting of a trace's run line that its games do not prove: other values a run accepts
/// give the same games (as [`crate::sim::replay::Unproven`] is for a replay's header).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceUnproven {
    /// The setting and the other values that give the same games.
    pub fact: TraceFact,
    /// Whether the strategy re-decided every game under each of those values too (with
    /// `--redecide`), playing every lock the same: then not even the decisions tell them
    /// apart.
    pub redecided: bool,
}

/// A setting of the run line and the other values under which the trace's games also check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TraceFact {
    /// The trace holds no game, so no setting is shown by one.
    NoGames,
    /// `settings.stop_level`: no game reached it, so any stop level above the highest level
    /// a game ended at gives the same games.
    StopLevel {
        /// The highest level a game ended at.
        above: u8,
    },
    /// `settings.max_lines`: other caps (or none) end every game where it ended.
    MaxLines {
        /// Every cap above this many lines …
        above: u32,
        /// … and at most this many (`None`: no upper bound) …
        at_most: Option<u32>,
        /// … and, when true, no cap at all.
        or_none: bool,
    },
    /// `settings.game_over_rule`: the games also check under the other NES rule.
    GameOverRule {
        /// The other rule.
        other: GameOverRule,
    },
    /// `settings.tap_rate` (or `timeline`, for a mixed one): the paths are also pressed at
    /// these tap rates.
    TapRate {
        /// The other tap rates, increasing.
        others: Vec<u8>,
        /// Whether the run line records a mixed timeline (field `timeline`).
        recorded_mixed: bool,
    },
    /// `settings.inputs`: the paths are also paths of the other input model.
    Inputs {
        /// The other model.
        other: InputModel,
    },
    /// `settings.reaction_frames`: the plans show a reaction time, not its length (only the
    /// strategy's re-decision plays by the length).
    ReactionFrames,
}

impl TraceFact {
    /// The field, as the trace spells it.
    pub fn field(&self) -> &'static str {
        match self {
            TraceFact::NoGames => "settings",
            TraceFact::StopLevel { .. } => "settings.stop_level",
            TraceFact::MaxLines { .. } => "settings.max_lines",
            TraceFact::GameOverRule { .. } => "settings.game_over_rule",
            TraceFact::TapRate {
                recorded_mixed: true,
                ..
            } => "settings.timeline",
            TraceFact::TapRate { .. } => "settings.tap_rate",
            TraceFact::Inputs { .. } => "settings.inputs",
            TraceFact::ReactionFrames => "settings.reaction_frames",
        }
    }

    /// Whether re-deciding the games under the other values could tell them apart (the
    /// strategy decides by them); the stop level and the line cap only end games.
    pub fn decides(&self) -> bool {
        matches!(
            self,
            TraceFact::GameOverRule { .. }
                | TraceFact::TapRate { .. }
                | TraceFact::Inputs { .. }
                | TraceFact::ReactionFrames
        )
    }
}

impl std::fmt::Display for TraceUnproven {
    /// One line: the field, then which other values give the same games (`arena replay`
    /// prints it after `unproven   `).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: ", self.fact.field())?;
        match &self.fact {
            TraceFact::NoGames => {
                return f.write_str("the trace holds no game, so no game shows a setting");
            }
            TraceFact::StopLevel { above } => {
                return write!(
                    f,
                    "no game reached its stop level, so any stop level above {above} gives \
                     these games"
                );
            }
            TraceFact::MaxLines {
                above,
                at_most,
                or_none,
            } => {
                let caps = match at_most {
                    Some(most) if most == &(above + 1) => format!("a cap of {most} lines"),
                    Some(most) => format!("any cap from {} to {most} lines", above + 1),
                    None => format!("any cap above {above} lines"),
                };
                let none = if *or_none { ", or none," } else { "" };
                return write!(f, "{caps}{none} ends every game where it ended");
            }
            TraceFact::GameOverRule { other } => {
                write!(f, "the games also check under the {other} rule")?
            }
            TraceFact::TapRate { others, .. } => {
                let rates: Vec<String> = others.iter().map(u8::to_string).collect();
                write!(
                    f,
                    "the paths are also pressed at tap rate {}",
                    rates.join(", ")
                )?
            }
            TraceFact::Inputs { other } => {
                write!(f, "the paths are also {other} input model paths")?
            }
            TraceFact::ReactionFrames => f.write_str(
                "the plans show a reaction time, not its length (only the strategy plays by it)",
            )?,
        }
        match self.redecided {
            true => f.write_str(", and the strategy re-decides every lock the same"),
            false => f.write_str(" (not re-decided: use --redecide)"),
        }
    }
}

/// The settings the ends of `games` (a trace's, checked under `settings`) leave open: the
/// stop level when no game reached it, the line cap when other caps end every game where it
/// ended, and, for a trace without games, everything. The stop level and the cap only end
/// games, so their values are worked out from the ends; the settings the strategy decides by
/// are tried by checking the games again under each other value
/// ([`games_also_check`]), which the request layer does (it knows which values a run accepts).
pub fn unproven_by_the_ends(settings: &NesRunSettings, games: &[TracedGame]) -> Vec<TraceFact> {
    if games.is_empty() {
        return vec![TraceFact::NoGames];
    }
    let mut facts = Vec::new();
    let ended = |end: NesEnd| games.iter().filter(move |game| game.end.end == end);
    if ended(NesEnd::ReachedStopLevel).next().is_none() {
        let above = games.iter().map(|game| game.end.level).max().unwrap_or(0);
        facts.push(TraceFact::StopLevel { above });
    }
    // The caps that end every game where it ended: a game ended at the cap by its last lock
    // had fewer lines before it (the cap is above those) and its end's lines after it (the
    // cap is at most those); a game that reached the stop level had fewer lines than the cap
    // before its last lock (a clear that does both ends at the stop level); any other game
    // never reached the cap.
    let before_last = |game: &TracedGame| game.locks.last().map_or(0, |lock| lock.lines);
    let mut above = 0;
    let mut at_most: Option<u32> = None;
    for game in games {
        match game.end.end {
            NesEnd::ReachedLineCap => {
                above = above.max(before_last(game));
                at_most = Some(at_most.map_or(game.end.lines, |most| most.min(game.end.lines)));
            }
            NesEnd::ReachedStopLevel => above = above.max(before_last(game)),
            NesEnd::ToppedOut | NesEnd::Fault => above = above.max(game.end.lines),
        }
    }
    // No cap at all ends every game where it ended when none ended at the cap; and a cap is
    // below the stop level's lines (the request's rule: the stop level ends a game first).
    let or_none = at_most.is_none();
    let below_stop = settings.stop_lines().map(|lines| lines.saturating_sub(1));
    let at_most = match (at_most, below_stop) {
        (Some(most), Some(bound)) => Some(most.min(bound)),
        (most, bound) => most.or(bound),
    };
    let caps = at_most.map_or(u64::MAX, |most| u64::from(most.saturating_sub(above)));
    // The recorded value is one of these; another is left when there are two.
    if caps.saturating_add(u64::from(or_none)) > 1 {
        facts.push(TraceFact::MaxLines {
            above,
            at_most,
            or_none,
        });
    }
    facts
}

/// Whether every game of `games` also checks ([`check_game`]) under `settings` (the
/// recorded ones with one setting changed).
pub fn games_also_check(settings: &NesRunSettings, games: &[TracedGame]) -> bool {
    games
        .iter()
        .enumerate()
        .all(|(index, game)| check_game(settings, index as u64, game, &mut |_| {}).is_ok())
}

/// One lock of a game that checked out, as a watcher draws it.
#[derive(Clone, Copy, Debug)]
pub struct CheckedLock<'a> {
    /// The game's seed.
    pub seed: u64,
    /// The board after the lock and its clears.
    pub board: &'a Board,
    /// The lock.
    pub last: LastPlacement,
    /// Pieces locked so far.
    pub pieces: u64,
    /// Rows cleared so far.
    pub lines: u32,
    /// The displayed score so far.
    pub score: u32,
    /// The level after the lock.
    pub level: u8,
    /// The piece that comes next.
    pub next: Piece,
}

/// What a game's check found: the replay of its recorded frames.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CheckedGame {
    /// Pieces locked.
    pub pieces: u64,
    /// Whether its end is a top-out the replay takes as recorded: the strategy found no
    /// placement for the next piece, which only `--redecide` (the strategy's own search)
    /// proves.
    pub top_out_unproven: bool,
    /// Whether its end is an outside engine's fault the replay takes as recorded: the engine
    /// broke the protocol on the next piece, which no frame shows and only `--redecide`
    /// (asking the engine again) proves.
    pub fault_unproven: bool,
}

/// Checks `game`, game `index` (0-based) of a run with `settings`, against the console's frame
/// model: its seed, and for every lock the pieces, board, level, lines, points and spawn frame
/// the replay shows, then its recorded frames (pressable by the run's input model at its
/// timeline; or, for a searcher that ignores gravity, its state locked directly) must lock the
/// piece where the line says and clear what it says; the
/// game must not have ended before a lock, and its end line must be the replay's (the end's
/// reason, pieces, lines, level, score, points and points before level 29). A game the frame
/// model has not ended is taken as ended as recorded by a top-out (the player found no
/// placement) or, when an outside engine decides, by its fault (the arena's own engines never
/// fault): only the strategy, asked again, proves either. `watch` sees each lock once it
/// checked out (`arena replay --watch`).
pub fn check_game(
    settings: &NesRunSettings,
    index: u64,
    game: &TracedGame,
    watch: &mut dyn FnMut(CheckedLock<'_>),
) -> Result<CheckedGame, TraceError> {
    let seed = settings.seed + index;
    let differs = |at: String, what, recorded: String, found: String| TraceError::Differs {
        seed,
        at,
        what,
        recorded,
        found,
    };
    if game.end.seed != seed {
        return Err(differs(
            format!("game {}", index + 1),
            "seed",
            game.end.seed.to_string(),
            format!("game {} of the run has seed {seed}", index + 1),
        ));
    }
    let mut replay = NesGame::new(settings.game_settings(index));
    let mut points_before_29 = (settings.start_level >= POINTS_BEFORE_LEVEL).then_some(0);
    let cap_reached = |lines: u32| settings.max_lines.is_some_and(|cap| lines >= cap);
    for lock in &game.locks {
        let at = format!("piece {}", lock.piece);
        let score = replay.score();
        if replay.end().is_some() || cap_reached(score.lines()) {
            return Err(differs(
                at,
                "a lock",
                "played".into(),
                "the game had ended before it".into(),
            ));
        }
        let seen = [
            (
                "piece",
                lock.placement.piece.letter().to_string(),
                replay.current().letter().to_string(),
            ),
            (
                "preview",
                lock.preview.letter().to_string(),
                replay.next().letter().to_string(),
            ),
            ("level", lock.level.to_string(), score.level().to_string()),
            ("lines", lock.lines.to_string(), score.lines().to_string()),
            (
                "points",
                lock.points.to_string(),
                score.line_clear_points().to_string(),
            ),
            (
                "spawn frame",
                lock.spawn_frame.to_string(),
                replay.spawn_frame().to_string(),
            ),
        ];
        for (what, recorded, replayed) in seen {
            if recorded != replayed {
                return Err(differs(
                    at,
                    what,
                    recorded,
                    format!("the replay has {replayed}"),
                ));
            }
        }
        // The 20 rows of the field: the console's two hidden rows are not recorded (the
        // replay keeps its own, from the frames).
        if lock.board.columns() != replay.board().columns() {
            return Err(differs(
                at,
                "board",
                format!("\n{}", lock.board),
                format!("the replay's is\n{}", replay.board()),
            ));
        }
        // A run with a reaction time records the plan made without the preview with every
        // lock of a gravity-aware searcher, and a run without one never does.
        let plans = settings.reaction_frames > 0 && !settings.ignores_gravity;
        if lock.plan.is_some() != plans {
            let (recorded, found) = match plans {
                true => (
                    "none",
                    "a run with a reaction time records one with every lock",
                ),
                false => ("a plan", "a run without a reaction time records none"),
            };
            return Err(differs(at, "plan", recorded.into(), found.into()));
        }
        let locked = if settings.ignores_gravity {
            replay.place_directly(lock.placement.state())
        } else {
            let frames = lock.frames().ok_or_else(|| {
                differs(
                    at.clone(),
                    "path",
                    "steps that are not frames".into(),
                    "a gravity-aware path is one button set per frame".into(),
                )
            })?;
            pressable(&frames, settings).map_err(|error| {
                differs(
                    at.clone(),
                    "path",
                    format!(
                        "pressed under timeline {}, {}",
                        settings.timeline, settings.inputs
                    ),
                    error.to_string(),
                )
            })?;
            replay.play_frames(&frames)
        }
        .map_err(|error| {
            differs(
                at.clone(),
                "path",
                format!("to {}", lock.placement.state()),
                format!("the frame model says: {error}"),
            )
        })?;
        if locked.state != lock.placement.state() || locked.rows_cleared != lock.placement.cleared {
            return Err(differs(
                at,
                "lock",
                format!(
                    "{} clearing {}",
                    lock.placement.state(),
                    lock.placement.cleared
                ),
                format!(
                    "the frames lock it at {} clearing {}",
                    locked.state, locked.rows_cleared
                ),
            ));
        }
        if points_before_29.is_none() && replay.score().level() >= POINTS_BEFORE_LEVEL {
            points_before_29 = Some(replay.score().line_clear_points());
        }
        // The rows the lock cleared, as a mask, from the board it fell onto.
        let state = lock.placement.state();
        let cleared_rows = lock
            .board
            .clone()
            .lock(lock.placement.piece, state)
            .cleared_rows;
        watch(CheckedLock {
            seed,
            board: replay.board(),
            last: LastPlacement {
                piece: lock.placement.piece,
                state,
                cleared_rows,
            },
            pieces: lock.piece,
            lines: replay.score().lines(),
            score: replay.score().score(),
            level: replay.score().level(),
            next: replay.current(),
        });
    }
    let score = replay.score();
    let (end, top_out_unproven, fault_unproven) = match replay.end() {
        Some(end) => (NesEnd::from(end), false, false),
        None if cap_reached(score.lines()) => (NesEnd::ReachedLineCap, false, false),
        // The game goes on in the frame model, and an outside engine decided: it may have
        // broken the protocol on the next piece (the arena's own engines never do).
        None if game.end.end == NesEnd::Fault && settings.strategy.outside.is_some() => {
            (NesEnd::Fault, false, true)
        }
        // The game goes on in the frame model: the player found no placement (a top-out
        // under the console rule, which the strategy's search alone can tell).
        None => (NesEnd::ToppedOut, true, false),
    };
    let replayed = TraceEnd {
        seed,
        end,
        pieces: game.locks.len() as u64,
        lines: score.lines(),
        level: score.level(),
        score: score.score(),
        line_clear_points: score.line_clear_points(),
        points_before_level_29: points_before_29.unwrap_or(score.line_clear_points()),
    };
    if replayed != game.end {
        return Err(differs(
            "its end".into(),
            "end line",
            serde_json::to_string(&game.end).unwrap_or_default(),
            format!(
                "the replay ends {}",
                serde_json::to_string(&replayed).unwrap_or_default()
            ),
        ));
    }
    Ok(CheckedGame {
        pieces: replayed.pieces,
        top_out_unproven,
        fault_unproven,
    })
}

/// Checks that the player of `settings` can press `frames`, one piece's path from its spawn:
/// its input model at its timeline ([`crate::sim::replay::frames`], as replays are checked).
fn pressable(frames: &[Buttons], settings: &NesRunSettings) -> Result<(), PathError> {
    let mut taps = TwoThumbTaps::default();
    for (index, &buttons) in frames.iter().enumerate() {
        let input = Input::Frame(buttons);
        match settings.inputs {
            InputModel::TwoThumb => taps.press(index + 1, input, buttons, settings.timeline)?,
            InputModel::Article if !article_allows(index, buttons, settings.timeline) => {
                return Err(PathError::NotAnArticleFrame {
                    number: index + 1,
                    buttons,
                    input,
                    timeline: settings.timeline,
                });
            }
            InputModel::Article => {}
        }
    }
    Ok(())
}

/// Holds `recorded` against `played`, the same game played again by the run's strategy with
/// a trace ([`crate::sim::nes::NesGamePlay::trace`]): every lock line and the end line must be
/// the same.
pub fn compare_games(recorded: &TracedGame, played: &NesGameResult) -> Result<(), TraceError> {
    let seed = played.seed;
    let locks = played.trace.as_deref().unwrap_or(&[]);
    for (index, again) in locks.iter().enumerate() {
        let Some(line) = recorded.locks.get(index) else {
            return Err(TraceError::Differs {
                seed,
                at: format!("piece {}", index + 1),
                what: "lock",
                recorded: "none (the game ended)".into(),
                found: "the strategy plays on".into(),
            });
        };
        // The same line of the file (a board read back is a plain board, without the
        // console's hidden rows, so boards are held by what the file shows).
        if serde_json::to_value(line).ok() != serde_json::to_value(again).ok() {
            return Err(TraceError::Differs {
                seed,
                at: format!("piece {}", index + 1),
                what: "lock",
                recorded: serde_json::to_string(&line.placement).unwrap_or_default(),
                found: format!(
                    "the strategy decides {}{}",
                    serde_json::to_string(&again.placement).unwrap_or_default(),
                    if line.plan != again.plan {
                        " with another plan without the preview"
                    } else {
                        ""
                    }
                ),
            });
        }
    }
    let again = TraceEnd::of(played);
    if again != recorded.end || locks.len() != recorded.locks.len() {
        return Err(TraceError::Differs {
            seed,
            at: "its end".into(),
            what: "end line",
            recorded: serde_json::to_string(&recorded.end).unwrap_or_default(),
            found: format!(
                "the strategy ends {}",
                serde_json::to_string(&again).unwrap_or_default()
            ),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use tetris_core::Timeline;

    /// A game whose last lock started at `before` lines and whose end is `end` at `lines`
    /// and `level` (only the ends and the last lock's lines count here).
    fn game(before: u32, end: NesEnd, lines: u32, level: u8) -> TracedGame {
        let lock = TraceLock {
            seed: 0,
            piece: 1,
            preview: Piece::T,
            level,
            lines: before,
            points: 0,
            spawn_frame: 0,
            board: Board::new(20).unwrap(),
            placement: PlayedPlacement {
                piece: Piece::I,
                x: 5,
                y: 19,
                rotation: 0,
                cleared: 0,
                path: None,
                evaluation: None,
            },
            plan: None,
        };
        TracedGame {
            locks: vec![lock],
            end: TraceEnd {
                seed: 0,
                end,
                pieces: 1,
                lines,
                level,
                score: 0,
                line_clear_points: 0,
                points_before_level_29: 0,
            },
        }
    }

    fn settings(max_lines: Option<u32>) -> NesRunSettings {
        NesRunSettings {
            strategy: "gamepad+nes-plateau".parse().unwrap(),
            ignores_gravity: false,
            games: 2,
            seed: 0,
            start_level: 19,
            stop_level: 29,
            max_lines,
            timeline: Timeline::THIRTY_HZ,
            game_over_rule: GameOverRule::Console,
            inputs: InputModel::TwoThumb,
            reaction_frames: 0,
            engine: None,
        }
    }

    #[test]
    fn a_fault_ends_only_an_outside_engine_s_game_and_is_taken_as_recorded() {
        // A bot that broke the protocol on the first piece: no lock, the game goes on in the
        // frame model.
        let faulted = TracedGame {
            locks: Vec::new(),
            end: TraceEnd {
                seed: 0,
                end: NesEnd::Fault,
                pieces: 0,
                lines: 0,
                level: 19,
                score: 0,
                line_clear_points: 0,
                points_before_level_29: 0,
            },
        };
        let outside = NesRunSettings {
            strategy: "gamepad+exec:bot".parse().unwrap(),
            ..settings(None)
        };
        let checked = check_game(&outside, 0, &faulted, &mut |_| {}).unwrap();
        assert!(checked.fault_unproven && !checked.top_out_unproven);
        // The arena's own engines never fault: there the same end line is an edit, and the
        // frame model's end (a top-out taken as recorded) is what the error shows.
        let inside = check_game(&settings(None), 0, &faulted, &mut |_| {}).unwrap_err();
        assert!(
            matches!(inside, TraceError::Differs { what: "end line", ref found, .. }
                if found.contains(r#""end":"top-out""#)),
            "{inside}"
        );
    }

    #[test]
    fn the_ends_prove_the_stop_level_and_the_cap_only_where_a_game_reached_them() {
        // Cap 12: one game ends at 12 lines from 10, one at 13 from 8 (a triple from 10 would
        // be 13 too): every cap from 11 to 12 ends both where they ended; none reached level
        // 29, so any stop level above 19 gives them.
        let capped = [
            game(10, NesEnd::ReachedLineCap, 12, 19),
            game(8, NesEnd::ReachedLineCap, 13, 19),
        ];
        assert_eq!(
            unproven_by_the_ends(&settings(Some(12)), &capped),
            [
                TraceFact::StopLevel { above: 19 },
                TraceFact::MaxLines {
                    above: 10,
                    at_most: Some(12),
                    or_none: false,
                },
            ]
        );
        // From 11 lines, only a cap of 12 ends the first game at 12 with a single.
        let exact = [game(11, NesEnd::ReachedLineCap, 12, 19)];
        assert_eq!(
            unproven_by_the_ends(&settings(Some(12)), &exact),
            [TraceFact::StopLevel { above: 19 }]
        );
        // A game that reached the stop level proves it; without a cap, a cap above its lines
        // before the last lock and below the stop level's 230 would end it there too (the
        // stop level wins a clear that does both), and a top-out at 50 lines bounds it below.
        let stopped = [
            game(228, NesEnd::ReachedStopLevel, 231, 29),
            game(50, NesEnd::ToppedOut, 50, 22),
        ];
        assert_eq!(
            unproven_by_the_ends(&settings(None), &stopped),
            [TraceFact::MaxLines {
                above: 228,
                at_most: Some(229),
                or_none: true,
            }]
        );
        assert_eq!(
            unproven_by_the_ends(&settings(None), &[]),
            [TraceFact::NoGames]
        );
    }
}
