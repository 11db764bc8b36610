//! The replay file: its serde types ([`Replay`], [`ReplayRules`], [`ReplayResult`]), recording
//! a played game ([`Replay::record`]), reading ([`Replay::load`], [`Replay::parse`]) and
//! writing ([`Replay::to_json`]).
//!
//! # The replay file (format version 3)
//!
//! A JSON object, written atomically, with one placement per line so that a replay reads and
//! diffs well:
//!
//! ```text
//! {
//!   "format": "tetris-arena-replay",
//!   "version": 3,
//!   "strategy": "bfs+elashi@2",
//!   "generator": "uniform",
//!   "seed": 0,
//!   "rules": {"board_height":20,"max_pieces":100,"game_over_rule":"simulation"},
//!   "pieces": "SZTJLOI…",
//!   "placements": [
//!     {"piece":"S","x":4,"y":18,"rotation":0,"cleared":0,"path":"L D D D …"},
//!     …
//!   ],
//!   "result": {"pieces":100,"lines":38,"score":4020,"level":3,"game_over":false,"end":"piece_cap"},
//!   "made_by": {"program":"tetris-arena","version":"0.1.0","command":"arena play …"}
//! }
//! ```
//!
//! - `format` and `version` identify the file; this arena writes version 3 and reads versions
//!   1 to 3. Version 3 scores a gravity-aware searcher's game at the level of its gravity (the
//!   game's one level, below) and records the level at the end (`result.level`); versions 1
//!   and 2 scored every game from level 0 and record no level, and are checked by that rule.
//!   Version 2 requires `rules.game_over_rule`, which this arena always records. Version 1
//!   let it be left out, meaning `simulation` (replays written before the rule was recorded
//!   were all played under it); such a replay still reads, and `arena replay` says that the
//!   rule was assumed rather than recorded ([`ReplayRules::rule_assumed`]).
//! - `strategy` is the canonical strategy name; `generator` and `seed` name the piece sequence
//!   (docs/spec/arena.md's generator names; a `file:` game has no seed and records 0); `rules` holds the board height, the piece cap (`null`:
//!   none), the frame timing of a gravity-aware searcher and the `game_over_rule`
//!   (`simulation` or `literature`). The other rules are fixed: the board starts empty, and
//!   the score is NES line-clear points (docs/spec/rules.md), capped at 999,999, counted from
//!   level 0, or for a gravity-aware searcher from the first level of its `frame_timing`'s
//!   gravity up to that gravity's last level ([`crate::sim::levels::game_levels`]: 19 to 28
//!   at 2 frames per row).
//! - `pieces` is the start of the piece sequence as letters: the first `placements + depth`
//!   pieces of the generator (fewer when a `file:` sequence runs out), i.e. every piece the
//!   strategy saw, including the piece that could not spawn at a game over. Storing them makes
//!   a replay self-contained: for a seeded generator the replay checks that they ARE the
//!   generator's pieces, all `placements + depth` of them; for `file:PATH` they are the
//!   sequence, and the file is not read again (it may have moved or changed since), so a
//!   `file:` replay proves the game on its own pieces only.
//! - `placements` lists every placement in order: piece letter, pivot `x` (column from the
//!   left), pivot `y` (row from the top), `rotation` (docs/spec/rules.md's index, 0 = spawn), rows
//!   `cleared`, and the input `path` from the spawn state as space-separated moves: `L` left,
//!   `R` right, `D` down, `CW` clockwise (A), `CCW` counterclockwise (B), `F<n>` one gamepad
//!   frame with buttons `n` (bit set of left 1, right 2, down 4, A 8, B 16). The path ends in
//!   the lock state. With `arena play --features` a placement also has `evaluation`:
//!   `{"cost": …, "features": {"name": value, …}}`, the evaluator's cost and features of the
//!   best chain behind the choice ([`crate::sim::evaluation::Evaluation`]; readers that
//!   predate it reject such a file). `--redecide` checks it; without it, it is shown,
//!   not checked.
//! - `result` is what the game produced: pieces, lines, score, the `level` at the end (from
//!   version 3), `game_over`, and `end` (`game_over`, `piece_cap` or `sequence_ended`).
//! - `made_by` (optional) is what wrote the file ([`MadeBy`]: program, version, command). It
//!   is shown, never checked: the game proves its rules and moves, not the command that asked
//!   for them.

use std::fmt::Write as _;
use std::path::Path;

use serde::{Deserialize, Serialize};
use tetris_core::{FrameTiming, GameLevels, GameOverRule, GeneratorKind, Piece};
use tetris_registry::Strategy;
use thiserror::Error as ThisError;

use tetris_arena_io::output::MadeBy;

use crate::error::GameError;
use crate::sim::game::{GameEnd, GameResult, GameSettings, dealt_pieces};
use crate::sim::levels::game_levels;
use crate::sim::placement::{PlayedPlacement, piece_letters};

/// The `format` value of every replay file.
pub const REPLAY_FORMAT: &str = "tetris-arena-replay";

/// The largest replay file read: 256 MiB. A recorded placement takes about 95 bytes (a
/// 20,000-piece cap's game of 293 pieces is 27,956 bytes), so this holds a game of about
/// 2.8 million pieces; a longer game is recorded with a `--max-pieces` cap.
pub const REPLAY_LIMIT: u64 = 256 * tetris_core::files::MIB;

/// The replay format version this arena writes (it also reads [`OLDEST_REPLAY_VERSION`]).
pub const REPLAY_VERSION: u32 = 3;

/// The first replay format version that scores a gravity-aware game at its gravity's levels
/// and records the level at the end; the versions before it scored every game from level 0.
pub const LEVELED_REPLAY_VERSION: u32 = 3;

/// The oldest replay format version this arena reads: version 1, whose `rules` may leave out
/// the `game_over_rule` (then `simulation`, [`ReplayRules::rule`]).
pub const OLDEST_REPLAY_VERSION: u32 = 1;

/// Whether this arena reads replay format `version` (1 to 3).
pub fn reads_version(version: u64) -> bool {
    (u64::from(OLDEST_REPLAY_VERSION)..=u64::from(REPLAY_VERSION)).contains(&version)
}

/// A recorded game (see the module documentation for the file format).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Replay {
    /// Always [`REPLAY_FORMAT`].
    pub format: String,
    /// The format version: [`REPLAY_VERSION`] when written by this arena, or an older one it
    /// reads ([`reads_version`]).
    pub version: u32,
    /// The canonical strategy name.
    pub strategy: String,
    /// The piece generator.
    pub generator: GeneratorKind,
    /// The generator's seed.
    pub seed: u64,
    /// The board height and piece cap.
    pub rules: ReplayRules,
    /// The first `placements + depth` pieces of the sequence (fewer when a file ran out).
    #[serde(with = "piece_letters")]
    pub pieces: Vec<Piece>,
    /// Every placement, in order.
    pub placements: Vec<PlayedPlacement>,
    /// What the game produced.
    pub result: ReplayResult,
    /// What wrote the file (program, version, command). Written by this arena since format
    /// version 2 and never checked: it says how the game was asked for, which the game itself
    /// cannot prove (an older replay, or one a tool rewrote, may leave it out).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub made_by: Option<MadeBy>,
}

/// The rules of a recorded game that vary between games.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReplayRules {
    /// Board rows (4..=32).
    pub board_height: u8,
    /// The piece cap (`None`: the game ran to its end).
    pub max_pieces: Option<u64>,
    /// The frame timing a gravity-aware searcher simulated (its paths are per-frame buttons,
    /// replayed through the NES frame model at this timing); absent for the other searchers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frame_timing: Option<FrameTiming>,
    /// The game-over rule. Always recorded by this arena and required from format version 2
    /// on; a version-1 replay may leave it out, which means `simulation` ([`ReplayRules::rule`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game_over_rule: Option<GameOverRule>,
}

impl ReplayRules {
    /// The game-over rule the game is checked under: the recorded one, or `simulation` for a
    /// version-1 replay that does not record it (replays written before the rule was recorded
    /// were all played under it; [`ReplayRules::rule_assumed`] says so).
    pub fn rule(&self) -> GameOverRule {
        self.game_over_rule.unwrap_or(GameOverRule::Simulation)
    }

    /// Whether the rule is assumed (`simulation`) rather than recorded.
    pub fn rule_assumed(&self) -> bool {
        self.game_over_rule.is_none()
    }
}

/// The recorded outcome of a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReplayResult {
    /// Pieces placed.
    pub pieces: u64,
    /// Rows cleared.
    pub lines: u64,
    /// NES score (capped at 999,999), from the game's levels ([`Replay::levels`]).
    pub score: u32,
    /// The level at the end (from format version 3; the versions before record none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<u8>,
    /// Whether the game ended by a top-out (`end == game_over`).
    pub game_over: bool,
    /// Why the game stopped.
    pub end: GameEnd,
}

/// Why a text is not a replay this arena reads ([`Replay::parse`]); its text is what `arena
/// replay` prints after `replay FILE: `.
#[derive(Debug, ThisError)]
pub enum ReplayFormatError {
    /// Not JSON at all.
    #[error("not valid JSON: {0}")]
    Json(serde_json::Error),
    /// JSON whose `format` is not [`REPLAY_FORMAT`].
    #[error("not a replay file (\"format\" is not {REPLAY_FORMAT:?})")]
    NotAReplay,
    /// A format version this arena does not read ([`reads_version`]).
    #[error(
        "replay format version {0} is not supported (this arena reads versions \
         {OLDEST_REPLAY_VERSION} to {REPLAY_VERSION})"
    )]
    Version(u64),
    /// No `version` number.
    #[error("the replay has no \"version\" number")]
    NoVersion,
    /// A replay of this version whose fields do not have the format's shape.
    #[error("malformed replay: {0}")]
    Malformed(serde_json::Error),
}

impl Replay {
    /// The replay of a game `strategy` played under `settings`; `result` must hold the
    /// placements with their paths (`PlayOptions { keep_paths: true, .. }`). The pieces are
    /// drawn again from the generator ([`dealt_pieces`]: for `mdptetris`, told of each
    /// placement). An error message if a path is missing.
    pub fn record(
        strategy: &Strategy,
        settings: &GameSettings,
        result: &GameResult,
    ) -> Result<Replay, String> {
        let wanted = result.pieces as usize + strategy.depth();
        let pieces: Vec<Piece> = dealt_pieces(settings, &result.placements, wanted)
            .map_err(|error| error.to_string())?;
        let placements = result
            .placements
            .iter()
            .enumerate()
            .map(|(index, played)| {
                Ok(PlayedPlacement {
                    piece: played.piece,
                    x: played.x,
                    y: played.y,
                    rotation: played.rotation,
                    cleared: played.cleared,
                    path: Some(played.path.clone().ok_or_else(|| {
                        format!("placement {}: the searcher gave no input path", index + 1)
                    })?),
                    evaluation: played.evaluation.clone(),
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        if placements.len() as u64 != result.pieces {
            return Err(format!(
                "the game kept {} placements of {} pieces",
                placements.len(),
                result.pieces
            ));
        }
        Ok(Replay {
            format: REPLAY_FORMAT.to_string(),
            version: REPLAY_VERSION,
            strategy: strategy.name(),
            generator: settings.generator.clone(),
            // A file's pieces do not depend on the seed: the replay records none (0).
            seed: if settings.generator.is_seeded() {
                settings.seed
            } else {
                0
            },
            rules: ReplayRules {
                board_height: settings.board_height.get(),
                max_pieces: settings.max_pieces.map(|cap| cap.get()),
                frame_timing: strategy.frame_timing(),
                game_over_rule: Some(settings.game_over_rule),
            },
            pieces,
            placements,
            result: ReplayResult {
                pieces: result.pieces,
                lines: result.lines,
                score: result.score,
                level: Some(result.level),
                game_over: result.game_over(),
                end: result.end,
            },
            made_by: Some(MadeBy::current()),
        })
    }

    /// The levels its game is scored at under `rules` (the recorded rules, or one fact
    /// changed): a gravity-aware game's gravity's from format version 3
    /// ([`LEVELED_REPLAY_VERSION`]), level 0 on for the versions before it.
    pub fn levels(&self, rules: &ReplayRules) -> GameLevels {
        match self.version >= LEVELED_REPLAY_VERSION {
            true => game_levels(rules.frame_timing),
            false => GameLevels::FROM_ZERO,
        }
    }

    /// Reads a replay file; an [`GameError::Io`] if it cannot be read, an
    /// [`GameError::Replay`] if it is not a replay. A file larger than [`REPLAY_LIMIT`]
    /// (256 MiB) is refused unread.
    pub fn load(path: &Path) -> Result<Replay, GameError> {
        let shown = path.display().to_string();
        let text = tetris_arena_io::input::read_text(path, REPLAY_LIMIT, "replay")?;
        Replay::parse(&text).map_err(|error| GameError::Replay {
            path: shown,
            message: error.to_string(),
        })
    }

    /// Parses the JSON text of a replay; the error names what is wrong.
    pub fn parse(text: &str) -> Result<Replay, ReplayFormatError> {
        // Read the version first, so that a future format gets a clear message rather than a
        // complaint about a field this version does not know.
        let header: serde_json::Value =
            tetris_core::files::parse_json(text).map_err(ReplayFormatError::Json)?;
        if header.get("format").and_then(|format| format.as_str()) != Some(REPLAY_FORMAT) {
            return Err(ReplayFormatError::NotAReplay);
        }
        match header.get("version").and_then(|version| version.as_u64()) {
            Some(version) if reads_version(version) => {}
            Some(version) => return Err(ReplayFormatError::Version(version)),
            None => return Err(ReplayFormatError::NoVersion),
        }
        // Parsed again from the text rather than from `header`, whose objects are sorted by
        // key: a placement's features keep the evaluator's order.
        serde_json::from_str(text).map_err(ReplayFormatError::Malformed)
    }

    /// The file text: pretty JSON with one placement per line, ending in a newline.
    pub fn to_json(&self) -> String {
        fn json<T: Serialize + ?Sized>(value: &T) -> String {
            serde_json::to_string(value)
                .expect("replay values are strings, numbers and plain structs, which serialize")
        }
        let letters: String = self.pieces.iter().map(|piece| piece.letter()).collect();
        let mut text = String::with_capacity(256 + 80 * self.placements.len());
        text.push_str("{\n");
        for (name, value) in [
            ("format", json(&self.format)),
            ("version", json(&self.version)),
            ("strategy", json(&self.strategy)),
            ("generator", json(&self.generator)),
            ("seed", json(&self.seed)),
            ("rules", json(&self.rules)),
            ("pieces", json(&letters)),
        ] {
            let _ = writeln!(text, "  \"{name}\": {value},");
        }
        text.push_str("  \"placements\": [");
        for (index, placement) in self.placements.iter().enumerate() {
            text.push_str(if index == 0 { "\n    " } else { ",\n    " });
            text.push_str(&json(placement));
        }
        if !self.placements.is_empty() {
            text.push_str("\n  ");
        }
        text.push_str("],\n");
        let _ = write!(text, "  \"result\": {}", json(&self.result));
        if let Some(made_by) = &self.made_by {
            let _ = write!(text, ",\n  \"made_by\": {}", json(made_by));
        }
        text.push_str("\n}\n");
        text
    }
}
