//! Replays: the file format of a recorded game, and the verifier that re-plays it (used by
//! `arena play --record` and `arena replay`).
//!
//! # The replay file (format version 1)
//!
//! A JSON object, written atomically, with one placement per line so that a replay reads and
//! diffs well:
//!
//! ```text
//! {
//!   "format": "tetris-arena-replay",
//!   "version": 1,
//!   "strategy": "bfs+elashi@2",
//!   "generator": "uniform",
//!   "seed": 0,
//!   "rules": {"board_height":20,"max_pieces":100},
//!   "pieces": "SZTJLOI…",
//!   "placements": [
//!     {"piece":"S","x":4,"y":18,"rotation":0,"cleared":0,"path":"L D D D …"},
//!     …
//!   ],
//!   "result": {"pieces":100,"lines":38,"score":4020,"game_over":false,"end":"piece_cap"}
//! }
//! ```
//!
//! - `format` and `version` identify the file; this arena reads version 1 only.
//! - `strategy` is the canonical strategy name; `generator` and `seed` name the piece sequence
//!   (arena.md's generator names; a `file:` game has no seed and records 0); `rules` holds the board height, the piece cap (`null`:
//!   none), the frame timing of a gravity-aware searcher and the `game_over_rule`
//!   (`simulation` or `literature`; a replay without it was played under `simulation`). The
//!   other rules are fixed for version 1: the board starts empty, and the score is NES
//!   line-clear points from level 0 (rules.md), capped at 999,999.
//! - `pieces` is the start of the piece sequence as letters: the first `placements + depth`
//!   pieces of the generator (fewer when a `file:` sequence runs out), i.e. every piece the
//!   strategy saw, including the piece that could not spawn at a game over. Storing them makes
//!   a replay self-contained: for a seeded generator the replay checks that they ARE the
//!   generator's pieces, all `placements + depth` of them; for `file:PATH` they are the
//!   sequence, and the file is not read again (it may have moved or changed since), so a
//!   `file:` replay proves the game on its own pieces only.
//! - `placements` lists every placement in order: piece letter, pivot `x` (column from the
//!   left), pivot `y` (row from the top), `rotation` (rules.md's index, 0 = spawn), rows
//!   `cleared`, and the input `path` from the spawn state as space-separated moves: `L` left,
//!   `R` right, `D` down, `CW` clockwise (A), `CCW` counterclockwise (B), `F<n>` one gamepad
//!   frame with buttons `n` (bit set of left 1, right 2, down 4, A 8, B 16). The path ends in
//!   the lock state. With `arena play --features` a placement also has `evaluation`:
//!   `{"cost": …, "features": {"name": value, …}}`, the evaluator's cost and features of the
//!   best chain behind the choice ([`crate::sim::evaluation::Evaluation`]; version 1 readers
//!   that predate it reject such a file). `--redecide` checks it; without it, it is shown,
//!   not checked.
//! - `result` is what the game produced: pieces, lines, score, `game_over`, and `end`
//!   (`game_over`, `piece_cap` or `sequence_ended`).
//!
//! # What `arena replay` checks
//!
//! The strategy is rebuilt from its name through the registry (a name that builds no strategy
//! is an error, with or without `--redecide`). The rules are what a command accepts for it: a
//! board height it can play on, a piece cap of at least 1, a `frame_timing` exactly when its
//! searcher is gravity-aware, checked by the rule that checks `--tap-rate` and `--level`
//! ([`tetris_registry::check_frame_timing`]). The stored pieces: for a seeded generator,
//! exactly the first `placements + depth` pieces the seed gives; for `file:`, seed 0 (a
//! seeded game relabelled `file:` keeps its seed and is caught) and at most `placements +
//! depth` pieces. Then, placement by placement,
//! on a board that starts empty: the piece is the sequence's next piece and, under the
//! simulation rule, can spawn; the recorded state is legal; the path, replayed input by input
//! from the searcher's path start (the spawn state; above the field for `drop`), is legal at
//! every step and ends in the recorded state; that state is a lock placement (one row down is
//! illegal); locking it clears the recorded number of rows — except a placement that lands
//! above row 0 under the literature rule, which ends the game (it must be the last, and
//! clears nothing). Finally the pieces, lines and score equal the recorded result, and the
//! recorded end is what happened: at a game over the last placement landed above the field
//! (literature), or the next piece cannot spawn, or the strategy rebuilt from its name finds no
//! placement for it (its filter or no-suicide removed all); at the cap the placements equal
//! the cap, and a sequence can only end for `file:` generators, with every stored piece
//! placed. Without `--redecide` that is all: the game is legal and gives its result, but
//! nothing shows that the named strategy chose it, and `arena replay` says so. With
//! `--redecide` the rebuilt strategy must choose every recorded placement itself, under the
//! recorded game-over rule and frame timing (the engines are deterministic), and its
//! searcher's path to it must be the recorded path input for input: a path with extra legal
//! moves, or turning the other way to the same rotation, reaches the same state but is not
//! the strategy's. The first difference is an error naming the placement and exits with code
//! 2. Paths of gamepad frames (`F<n>`) are played frame by frame through the core's NES frame
//! model ([`FallingPiece`]) at the recorded `rules.frame_timing`; when its `inputs` is
//! `article` (absent: `two-thumb`), every frame must also be one the article's input model
//! presses (one of Left, Right, A, B on every tap-rate-th frame from the first, nothing
//! else), so a two-thumb game relabelled `article` is caught without `--redecide` unless none
//! of its paths uses a frame the article model does not; `--redecide` decides again under the
//! recorded model. An article game relabelled `two-thumb` has legal two-thumb paths: only
//! `--redecide` can catch it, when the two-thumb search chooses or reaches differently.

use std::fmt::Write as _;
use std::path::Path;

use serde::{Deserialize, Serialize};
use tetris_core::frames::FallingPiece;
use tetris_core::{
    Board, Buttons, DecisionContext, FrameTiming, GameOverRule, GeneratorKind, Input, InputModel,
    Piece, PieceState, Placement, PlacementGame, Searcher,
};

use tetris_registry::{Strategy, check_frame_timing};

use crate::error::ArenaError;
use crate::sim::evaluation::Evaluation;
use crate::sim::game::{GameEnd, GameResult, GameSettings};
use crate::sim::placement::{LastPlacement, PlayedPlacement, format_path, piece_letters};

/// The `format` value of every replay file.
pub const REPLAY_FORMAT: &str = "tetris-arena-replay";

/// The replay format version this arena writes and reads.
pub const REPLAY_VERSION: u32 = 1;

/// A recorded game (see the module documentation for the file format).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Replay {
    /// Always [`REPLAY_FORMAT`].
    pub format: String,
    /// The format version, [`REPLAY_VERSION`].
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
    /// The game-over rule (`simulation` when absent: replays written before the rule was
    /// recorded were all played under it).
    #[serde(default)]
    pub game_over_rule: GameOverRule,
}

/// The recorded outcome of a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReplayResult {
    /// Pieces placed.
    pub pieces: u64,
    /// Rows cleared.
    pub lines: u64,
    /// NES score (level 0 start, capped at 999,999).
    pub score: u32,
    /// Whether the game ended by a top-out (`end == game_over`).
    pub game_over: bool,
    /// Why the game stopped.
    pub end: GameEnd,
}

/// What [`Replay::verify`] reports after each checked placement (for `--watch`).
pub struct ReplayStep<'a> {
    /// The board after the placement and its clears.
    pub board: &'a Board,
    /// The placement and the rows it cleared.
    pub last: LastPlacement,
    /// Pieces placed so far.
    pub pieces: u64,
    /// Rows cleared so far.
    pub lines: u64,
    /// NES score so far.
    pub score: u32,
    /// The NES level after the placement (the game starts at level 0).
    pub level: u8,
    /// The states the piece passed through on its recorded path: the path's start, then the
    /// state after each input (after each frame for a path of gamepad frames); the last is
    /// the lock state.
    pub path: &'a [PieceState],
    /// The pieces the strategy sees next (current first), as far as the replay stores them.
    pub upcoming: &'a [Piece],
}

impl Replay {
    /// The replay of a game `strategy` played under `settings`; `result` must hold the
    /// placements with their paths (`PlayOptions { keep_paths: true, .. }`). The pieces are
    /// drawn again from the generator. An error message if a path is missing.
    pub fn record(
        strategy: &Strategy,
        settings: &GameSettings,
        result: &GameResult,
    ) -> Result<Replay, String> {
        let wanted = result.pieces as usize + strategy.depth();
        let pieces: Vec<Piece> = settings
            .generator
            .start(settings.seed)
            .map_err(|error| error.to_string())?
            .take(wanted)
            .collect();
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
                board_height: settings.board_height,
                max_pieces: settings.max_pieces,
                frame_timing: strategy.frame_timing(),
                game_over_rule: settings.game_over_rule,
            },
            pieces,
            placements,
            result: ReplayResult {
                pieces: result.pieces,
                lines: result.lines,
                score: result.score,
                game_over: result.game_over(),
                end: result.end,
            },
        })
    }

    /// Reads a replay file; an [`ArenaError::Io`] if it cannot be read, an
    /// [`ArenaError::Replay`] if it is not a replay.
    pub fn load(path: &Path) -> Result<Replay, ArenaError> {
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|error| ArenaError::io(&shown, &error))?;
        Replay::parse(&text).map_err(|message| ArenaError::Replay {
            path: shown,
            message,
        })
    }

    /// Parses the JSON text of a replay; the message names what is wrong.
    pub fn parse(text: &str) -> Result<Replay, String> {
        // Read the version first, so that a future format gets a clear message rather than a
        // complaint about a field this version does not know.
        let header: serde_json::Value =
            serde_json::from_str(text).map_err(|error| format!("not valid JSON: {error}"))?;
        if header.get("format").and_then(|format| format.as_str()) != Some(REPLAY_FORMAT) {
            return Err(format!(
                "not a replay file (\"format\" is not {REPLAY_FORMAT:?})"
            ));
        }
        match header.get("version").and_then(|version| version.as_u64()) {
            Some(version) if version == u64::from(REPLAY_VERSION) => {}
            Some(version) => {
                return Err(format!(
                    "replay format version {version} is not supported (this arena reads version {REPLAY_VERSION})"
                ));
            }
            None => return Err("the replay has no \"version\" number".to_string()),
        }
        // Parsed again from the text rather than from `header`, whose objects are sorted by
        // key: a placement's features keep the evaluator's order.
        serde_json::from_str(text).map_err(|error| format!("malformed replay: {error}"))
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
        let _ = writeln!(text, "  \"result\": {}", json(&self.result));
        text.push_str("}\n");
        text
    }

    /// Checks the recorded game (see the module documentation), calling `observer` after each
    /// placement. With `redecide`, that strategy must choose every recorded placement. The
    /// error message names the first difference.
    pub fn verify(
        &self,
        redecide: Option<&mut Strategy>,
        observer: &mut dyn FnMut(&ReplayStep<'_>),
    ) -> Result<(), String> {
        if self.format != REPLAY_FORMAT {
            return Err(format!("format {:?} is not {REPLAY_FORMAT:?}", self.format));
        }
        if self.version != REPLAY_VERSION {
            return Err(format!(
                "replay format version {} is not supported (this arena reads version {REPLAY_VERSION})",
                self.version
            ));
        }
        // The strategy is rebuilt from its name even when it does not re-decide: its depth
        // says how many pieces the replay must hold, its searcher where paths start and
        // whether they are gamepad frames, and a name that builds no strategy is no game.
        let redeciding = redecide.is_some();
        let mut rebuilt;
        let strategy: &mut Strategy = match redecide {
            Some(strategy) => strategy,
            None => {
                rebuilt = Strategy::from_name(&self.strategy).map_err(|error| {
                    format!("the strategy cannot be rebuilt from its name: {error}")
                })?;
                &mut rebuilt
            }
        };
        let board = Board::new(usize::from(self.rules.board_height))
            .map_err(|error| format!("rules: {error}"))?;
        self.check_rules(strategy)?;
        self.check_pieces(strategy.depth())?;
        let shown_upcoming = strategy.depth();
        let placed = self.placements.len() as u64;
        if let Some(cap) = self.rules.max_pieces
            && placed > cap
        {
            return Err(format!(
                "{placed} placements recorded, more than the piece cap {cap}"
            ));
        }
        let rule = self.rules.game_over_rule;
        // The recorded timing is the one the game told the strategy (`play` records the
        // searcher's default, which is what an absent timing means).
        let context = DecisionContext {
            frame_timing: self.rules.frame_timing,
            ..DecisionContext::with_game_over_rule(rule)
        };
        let path_start = strategy.parts_mut().0.path_start();
        // `check_rules` refused the console rule, the one a game without frames cannot play.
        let mut game =
            PlacementGame::new(board, rule).map_err(|error| format!("rules: {error}"))?;
        let mut path_states = Vec::new();
        for (index, recorded) in self.placements.iter().enumerate() {
            let fail = |message: String| format!("placement {}: {message}", index + 1);
            let state = recorded.state();
            let piece = recorded.piece;
            match self.pieces.get(index) {
                Some(&expected) if expected == piece => {}
                Some(&expected) => {
                    return Err(fail(format!(
                        "the piece is {piece} but piece {} of the sequence is {expected}",
                        index + 1
                    )));
                }
                None => {
                    return Err(fail(format!(
                        "the recorded sequence holds only {} pieces",
                        self.pieces.len()
                    )));
                }
            }
            // Only a landing above the field (literature) ends the game here: a spawn that
            // fails returns at once.
            if game.is_over() {
                return Err(fail(
                    "the game was over: the placement before landed above the field".to_string(),
                ));
            }
            if !game.spawn(piece) {
                return Err(fail(format!(
                    "the {piece} cannot spawn: the game was over before this placement"
                )));
            }
            let board = game.board();
            if !is_legal(board, piece, state) {
                return Err(fail(format!(
                    "{} is not a legal state of the {piece} on the board",
                    state
                )));
            }
            let path = recorded
                .path
                .as_deref()
                .ok_or_else(|| fail("no input path is recorded".to_string()))?;
            if redeciding {
                self.redecide(strategy, board, index, context, path)
                    .map_err(&fail)?;
            }
            let reached = follow_path(
                board,
                piece,
                path,
                path_start,
                self.rules.frame_timing,
                &mut path_states,
            )
            .map_err(&fail)?;
            if reached != state {
                return Err(fail(format!(
                    "the path ends at {}, not at the recorded {}",
                    reached, state
                )));
            }
            let placement = Placement::new(piece, state);
            if !placement.is_lock_placement_on(board) {
                return Err(fail(format!(
                    "{} is not a lock placement: the {piece} can still move down",
                    state
                )));
            }
            let outcome = game
                .place(&placement)
                .expect("the game is not over: checked above")
                .outcome;
            if outcome.rows_cleared != recorded.cleared {
                return Err(fail(format!(
                    "the lock clears {} rows, the replay records {}",
                    outcome.rows_cleared, recorded.cleared
                )));
            }
            let next = (index + 1).min(self.pieces.len());
            let upcoming_end = (next + shown_upcoming).min(self.pieces.len());
            observer(&ReplayStep {
                board: game.board(),
                last: LastPlacement {
                    piece,
                    state,
                    cleared_rows: outcome.cleared_rows,
                },
                pieces: game.pieces(),
                lines: game.lines(),
                score: game.score().score(),
                level: game.score().level(),
                path: &path_states,
                upcoming: &self.pieces[next..upcoming_end],
            });
        }
        // A landing above the field is the only way the game is over after the last placement.
        let ended_on_landing = game.is_over();
        self.check_result(
            strategy,
            game.board(),
            game.lines(),
            game.score().score(),
            ended_on_landing,
        )
    }

    /// Re-decides placement `index` (0-based) on `board`: `strategy` must choose the recorded
    /// placement and the searcher's path to it must be the recorded `path`, input for input
    /// (a path with extra legal moves, or the other rotation direction, reaches the same
    /// state but is not the strategy's), and a recorded evaluation must be the strategy's.
    fn redecide(
        &self,
        strategy: &mut Strategy,
        board: &Board,
        index: usize,
        context: DecisionContext,
        path: &[Input],
    ) -> Result<(), String> {
        let recorded = &self.placements[index];
        let state = recorded.state();
        let piece = recorded.piece;
        let end = (index + strategy.depth()).min(self.pieces.len());
        let name = strategy.name();
        let Some(choice) = strategy.choose_in(board, &self.pieces[index..end], context) else {
            return Err(format!(
                "strategy {name} finds no placement for the {piece}"
            ));
        };
        if choice.placement.state() != state {
            return Err(format!(
                "strategy {name} chooses {}, the replay has {}",
                choice.placement.state(),
                state
            ));
        }
        if let Some(recorded) = &recorded.evaluation
            && !recorded.matches(&Evaluation::of_choice(strategy, board, &choice))
        {
            return Err(format!(
                "strategy {name} evaluates the placement differently from the recorded cost \
                 and features"
            ));
        }
        let chosen_path = strategy
            .path_inputs(board, &choice.placement, context)
            .ok_or_else(|| format!("strategy {name} finds no input path to its placement"))?;
        if chosen_path != path {
            return Err(format!(
                "strategy {name} reaches {state} by the path \"{}\", the replay's path is \"{}\"",
                format_path(chosen_path),
                format_path(path)
            ));
        }
        Ok(())
    }

    /// The rules and timing are what a command would accept for this strategy: the board
    /// height the strategy can play on, a piece cap of at least 1, and a frame timing exactly
    /// when the searcher is gravity-aware, checked by the rule `--tap-rate` and `--level` are
    /// checked by ([`check_frame_timing`]); and a game-over rule a game without frames plays
    /// (not the console rule, [`crate::input::frameless_rule`]).
    fn check_rules(&self, strategy: &Strategy) -> Result<(), String> {
        strategy
            .check_board_height(self.rules.board_height)
            .map_err(|error| format!("rules: {error}"))?;
        crate::input::frameless_rule(self.rules.game_over_rule)
            .map_err(|message| format!("rules: game_over_rule: {message}"))?;
        if self.rules.max_pieces == Some(0) {
            return Err("rules: max_pieces is 0, but a piece cap is at least 1".to_string());
        }
        let searcher = &strategy.spec().searcher;
        match (self.rules.frame_timing, strategy.frame_timing()) {
            (Some(timing), Some(_)) => check_frame_timing(timing)
                .map_err(|message| format!("rules: frame_timing: {message}")),
            (Some(_), None) => Err(format!(
                "rules: a frame_timing is recorded, but searcher {searcher} ignores gravity"
            )),
            (None, Some(_)) => Err(format!(
                "rules: no frame_timing is recorded, but searcher {searcher} is gravity-aware"
            )),
            (None, None) => Ok(()),
        }
    }

    /// Whether the recorded strategy, rebuilt from its name, finds no placement for the piece
    /// after the last placement on `board` (a game over because the filter or no-suicide
    /// removed every placement).
    fn strategy_finds_no_placement(&self, strategy: &mut Strategy, board: &Board) -> bool {
        let next = self.placements.len();
        let end = (next + strategy.depth()).min(self.pieces.len());
        let context = DecisionContext {
            frame_timing: self.rules.frame_timing,
            ..DecisionContext::with_game_over_rule(self.rules.game_over_rule)
        };
        next < end
            && strategy
                .choose_in(board, &self.pieces[next..end], context)
                .is_none()
    }

    /// Every stored piece is part of the game: a seeded generator's pieces are re-derived
    /// from the seed and must be exactly the first `placements + depth` (`depth`: the
    /// strategy's), as `arena play` stores them. A `file:` replay's stored pieces ARE its
    /// sequence (the file is not read again), so there is nothing to re-derive; but such a
    /// game has no seed, so a seed other than 0 (what `arena play` records for it) marks a
    /// seeded game relabelled to escape this check. It holds at most `placements + depth`
    /// pieces, fewer when the file ran out.
    fn check_pieces(&self, depth: usize) -> Result<(), String> {
        let wanted = self.placements.len() + depth;
        if !self.generator.is_seeded() {
            if self.seed != 0 {
                return Err(format!(
                    "generator {} has no seed, but seed {} is recorded (a file: replay records \
                     seed 0)",
                    self.generator, self.seed
                ));
            }
            if self.pieces.len() > wanted {
                return Err(format!(
                    "the replay stores {} pieces, more than its {} placements and the \
                     strategy's {depth} pieces of lookahead",
                    self.pieces.len(),
                    self.placements.len()
                ));
            }
            return Ok(());
        }
        if self.pieces.len() != wanted {
            return Err(format!(
                "the replay stores {} pieces, but its {} placements and the strategy's {depth} \
                 pieces of lookahead need {wanted} (every piece the strategy saw)",
                self.pieces.len(),
                self.placements.len()
            ));
        }
        let generated = self
            .generator
            .start(self.seed)
            .map_err(|error| format!("generator: {error}"))?;
        for (index, (&stored, generated)) in self.pieces.iter().zip(generated).enumerate() {
            if stored != generated {
                return Err(format!(
                    "piece {} of the recorded sequence is {stored}, but generator {} with seed {} gives {generated}",
                    index + 1,
                    self.generator,
                    self.seed
                ));
            }
        }
        Ok(())
    }

    /// The recorded result equals the replayed one, and the recorded end is what happened.
    fn check_result(
        &self,
        strategy: &mut Strategy,
        board: &Board,
        lines: u64,
        score: u32,
        ended_on_landing: bool,
    ) -> Result<(), String> {
        let result = &self.result;
        let placed = self.placements.len() as u64;
        if result.pieces != placed {
            return Err(format!(
                "result: {} pieces recorded, but the replay has {placed} placements",
                result.pieces
            ));
        }
        if result.lines != lines {
            return Err(format!(
                "result: {} lines recorded, the placements clear {lines}",
                result.lines
            ));
        }
        if result.score != score {
            return Err(format!(
                "result: score {} recorded, the placements score {score}",
                result.score
            ));
        }
        if result.game_over != (result.end == GameEnd::GameOver) {
            return Err(format!(
                "result: game_over is {} but the end is {}",
                result.game_over,
                result.end.name()
            ));
        }
        if result.end != GameEnd::PieceCap && self.rules.max_pieces == Some(placed) {
            return Err(format!(
                "result: the piece cap {placed} was reached, but the end is {}",
                result.end.name()
            ));
        }
        if ended_on_landing && result.end != GameEnd::GameOver {
            return Err(format!(
                "result: the last placement landed above the field (game over under the literature rule), but the end is {}",
                result.end.name()
            ));
        }
        match result.end {
            GameEnd::GameOver if ended_on_landing => Ok(()),
            GameEnd::GameOver => match self.pieces.get(placed as usize) {
                Some(&next)
                    if board.can_spawn(next) && !self.strategy_finds_no_placement(strategy, board) =>
                {
                    Err(format!(
                        "result: game over recorded, but the next piece ({next}) can spawn and has a placement"
                    ))
                }
                Some(_) => Ok(()),
                None => Err(
                    "result: game over recorded, but the sequence holds no piece after the last placement"
                        .to_string(),
                ),
            },
            GameEnd::PieceCap => match self.rules.max_pieces {
                Some(cap) if cap == placed => Ok(()),
                cap => Err(format!(
                    "result: piece cap recorded, but {placed} pieces were placed and the cap is {}",
                    cap.map_or("none".to_string(), |cap| cap.to_string())
                )),
            },
            GameEnd::SequenceEnded if self.generator.is_seeded() => Err(format!(
                "result: the sequence cannot end: generator {} is endless",
                self.generator
            )),
            GameEnd::SequenceEnded if self.pieces.len() as u64 != placed => Err(format!(
                "result: sequence end recorded, but {} of its {} pieces were not placed",
                self.pieces.len() as u64 - placed.min(self.pieces.len() as u64),
                self.pieces.len()
            )),
            GameEnd::SequenceEnded => Ok(()),
            GameEnd::Stopped => {
                Err("result: the game was stopped before it ended; nothing to verify".to_string())
            }
        }
    }
}

/// Whether `state` is a legal state of `piece` on `board`; states whose numbers cannot belong
/// to any legal state (a rotation the piece does not have, a pivot far off the field) are
/// rejected before the cells are computed, so that no arithmetic overflows.
fn is_legal(board: &Board, piece: Piece, state: PieceState) -> bool {
    let height = board.height() as i8;
    state.rotation < piece.orientation_count()
        && (-2..=11).contains(&state.x)
        && (-2..=height + 2).contains(&state.y)
        && board.fits(piece, state)
}

/// Replays `path` from `start` (the searcher's path start: the spawn state, or above the field
/// for `drop`); the state it ends in, or which input is illegal. A
/// path of gamepad frames is played through the NES frame model at `timing` (frame-less
/// games have no entry delay) and must lock the piece on its last frame. `states` is filled
/// with the start and the state after each input.
fn follow_path(
    board: &Board,
    piece: Piece,
    path: &[Input],
    start: PieceState,
    timing: Option<FrameTiming>,
    states: &mut Vec<PieceState>,
) -> Result<PieceState, String> {
    states.clear();
    if let Some(Input::Frame(_)) = path.first() {
        let timing =
            timing.ok_or("the path is gamepad frames, but the replay records no frame timing")?;
        return follow_frames(board, piece, path, timing, states);
    }
    let mut state = start;
    states.push(state);
    for (index, &input) in path.iter().enumerate() {
        let next = state.after(piece, input).ok_or_else(|| {
            format!(
                "input {} of the path is a gamepad frame ({}) in a path of moves",
                index + 1,
                input.short_name()
            )
        })?;
        if !board.fits(piece, next) {
            return Err(format!(
                "input {} of the path ({}) takes the {piece} from {} to {}, which is not legal",
                index + 1,
                input.short_name(),
                state,
                next
            ));
        }
        state = next;
        states.push(state);
    }
    Ok(state)
}

/// Plays a path of gamepad frames through [`FallingPiece`]; the lock state, or where the
/// path goes wrong. `states` is filled with the spawn state and the state after each frame.
fn follow_frames(
    board: &Board,
    piece: Piece,
    path: &[Input],
    timing: FrameTiming,
    states: &mut Vec<PieceState>,
) -> Result<PieceState, String> {
    let mut falling = FallingPiece::spawn(piece, false, 0);
    states.push(falling.state());
    for (index, &input) in path.iter().enumerate() {
        let Input::Frame(buttons) = input else {
            return Err(format!(
                "input {} of the path is a move ({}) in a path of gamepad frames",
                index + 1,
                input.short_name()
            ));
        };
        if timing.inputs == InputModel::Article && !article_allows(index, buttons, timing.tap_rate)
        {
            return Err(format!(
                "frame {} of the path holds {} buttons ({}), which the article input model \
                 does not press: one of Left, Right, A or B on input frames 1, 1 + T, 1 + 2T, \
                 … (T = tap rate {}), nothing else",
                index + 1,
                buttons.0.count_ones(),
                input.short_name(),
                timing.tap_rate
            ));
        }
        let locked = falling.frame(board, buttons, timing.frames_per_row);
        states.push(falling.state());
        if let Some(locked) = locked {
            if index + 1 < path.len() {
                return Err(format!(
                    "the {piece} locks on frame {} of the path's {}",
                    index + 1,
                    path.len()
                ));
            }
            return Ok(locked);
        }
    }
    Err(format!(
        "the {piece} is still falling after the path's {} frames",
        path.len()
    ))
}

/// Whether frame `index` (0-based) of a path may hold `buttons` under the article's input
/// model ([`InputModel::Article`]): nothing, or exactly one of Left, Right, A, B on a press
/// frame (every `tap_rate`-th from the first); nothing on the others; Down never.
fn article_allows(index: usize, buttons: Buttons, tap_rate: u8) -> bool {
    let one_press = [Buttons::LEFT, Buttons::RIGHT, Buttons::A, Buttons::B].contains(&buttons);
    buttons == Buttons::NONE || (one_press && index % usize::from(tap_rate) == 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::game::{PlayOptions, play_game};
    use crate::sim::placement::parse_path;
    use std::ops::ControlFlow;

    /// A hand-made game on a 4-row board, worked out cell by cell: an I laid flat on the
    /// floor at pivot (2, 3) covers columns 0..3, an I at pivot (6, 3) columns 4..7, and an O
    /// at pivot (9, 2) covers columns 8 and 9 of rows 2 and 3, which completes row 3: one row
    /// cleared, 40 points at level 0.
    fn hand_made_game() -> Replay {
        let placement = |piece: Piece, x: i8, y: i8, cleared: u8, path: &str| PlayedPlacement {
            piece,
            x,
            y,
            rotation: 0,
            cleared,
            path: Some(parse_path(path).unwrap()),
            evaluation: None,
        };
        Replay {
            format: REPLAY_FORMAT.to_string(),
            version: REPLAY_VERSION,
            strategy: "bfs+elashi".to_string(),
            generator: GeneratorKind::File("hand-made.txt".to_string()),
            seed: 0,
            rules: ReplayRules {
                board_height: 4,
                max_pieces: None,
                frame_timing: None,
                game_over_rule: GameOverRule::Simulation,
            },
            pieces: vec![Piece::I, Piece::I, Piece::O],
            placements: vec![
                placement(Piece::I, 2, 3, 0, "L L L D D D"),
                placement(Piece::I, 6, 3, 0, "R D D D"),
                placement(Piece::O, 9, 2, 1, "R R R R D D"),
            ],
            result: ReplayResult {
                pieces: 3,
                lines: 1,
                score: 40,
                game_over: false,
                end: GameEnd::SequenceEnded,
            },
        }
    }

    #[test]
    fn a_hand_made_game_verifies_and_round_trips() {
        let replay = hand_made_game();
        let mut cleared = Vec::new();
        let mut first_path = Vec::new();
        replay
            .verify(None, &mut |step| {
                cleared.push(step.last.cleared_rows);
                if step.pieces == 1 {
                    first_path = step.path.iter().map(|s| (s.x, s.y, s.rotation)).collect();
                }
                assert_eq!(step.level, 0, "level 0 until 10 lines");
            })
            .unwrap();
        assert_eq!(cleared, [0, 0, 1 << 3]);
        // "L L L D D D" from the spawn (5, 0): three columns left, then three rows down.
        assert_eq!(
            first_path,
            [
                (5, 0, 0),
                (4, 0, 0),
                (3, 0, 0),
                (2, 0, 0),
                (2, 1, 0),
                (2, 2, 0),
                (2, 3, 0)
            ]
        );
        let text = replay.to_json();
        assert!(text.contains(
            "\n    {\"piece\":\"O\",\"x\":9,\"y\":2,\"rotation\":0,\"cleared\":1,\"path\":\"R R R R D D\"}\n"
        ));
        assert_eq!(Replay::parse(&text).unwrap(), replay);
    }

    #[test]
    fn every_kind_of_difference_is_named() {
        let check = |change: &dyn Fn(&mut Replay), expected: &str| {
            let mut replay = hand_made_game();
            change(&mut replay);
            let message = replay.verify(None, &mut |_| {}).unwrap_err();
            assert!(message.contains(expected), "{message:?} lacks {expected:?}");
        };
        // Pivot (7, 3) is legal too (columns 5..8 of the floor row are empty), but the path
        // leads to (6, 3).
        check(
            &|r| r.placements[1].x = 7,
            "placement 2: the path ends at x 6 y 3 rotation 0, not at the recorded x 7",
        );
        check(
            &|r| {
                r.placements[1].y = 2;
                r.placements[1].path = Some(parse_path("R D D").unwrap());
            },
            "placement 2: x 6 y 2 rotation 0 is not a lock placement",
        );
        // Pivot (5, 3) puts the I on column 3, which the first I occupies.
        check(
            &|r| r.placements[1].x = 5,
            "placement 2: x 5 y 3 rotation 0 is not a legal state",
        );
        check(
            &|r| r.placements[0].rotation = 3,
            "placement 1: x 2 y 3 rotation 3 is not a legal",
        );
        check(
            &|r| r.placements[0].x = 100,
            "placement 1: x 100 y 3 rotation 0 is not a legal",
        );
        check(
            &|r| r.placements[2].cleared = 0,
            "placement 3: the lock clears 1 rows",
        );
        check(
            &|r| r.placements[2].piece = Piece::I,
            "placement 3: the piece is I",
        );
        // The first I's path moved one column too far left: pivot x = -1 leaves the field.
        check(
            &|r| r.placements[0].path = Some(parse_path("L L L L D D D").unwrap()),
            "placement 1: input 4 of the path (L)",
        );
        check(&|r| r.result.lines = 2, "result: 2 lines recorded");
        check(&|r| r.result.score = 41, "result: score 41 recorded");
        check(&|r| r.result.pieces = 4, "result: 4 pieces recorded");
        check(
            &|r| {
                r.result.end = GameEnd::GameOver;
                r.result.game_over = true;
            },
            "the sequence holds no piece after the last placement",
        );
        check(
            &|r| r.rules.max_pieces = Some(3),
            "the piece cap 3 was reached",
        );
        check(
            &|r| r.rules.max_pieces = Some(2),
            "more than the piece cap 2",
        );
        check(&|r| r.version = 2, "version 2 is not supported");
    }

    #[test]
    fn seeded_sequences_must_be_the_generators() {
        let mut replay = hand_made_game();
        replay.generator = GeneratorKind::Java;
        replay.seed = 1;
        // `new java.util.Random(1).nextInt(7)` deals S S J T I I … (the JVM-checked vector of
        // the core's generator tests), so the stored I I O differs at the first piece.
        replay.pieces.push(Piece::T);
        let message = replay.verify(None, &mut |_| {}).unwrap_err();
        assert_eq!(
            message,
            "piece 1 of the recorded sequence is I, but generator java with seed 1 gives S"
        );
        // Three placements of a depth-1 strategy: exactly four pieces are stored.
        replay.pieces = vec![Piece::S, Piece::S, Piece::J, Piece::O];
        let message = replay.verify(None, &mut |_| {}).unwrap_err();
        assert_eq!(
            message,
            "piece 4 of the recorded sequence is O, but generator java with seed 1 gives T"
        );
        replay.pieces.pop();
        let message = replay.verify(None, &mut |_| {}).unwrap_err();
        assert_eq!(
            message,
            "the replay stores 3 pieces, but its 3 placements and the strategy's 1 pieces of \
             lookahead need 4 (every piece the strategy saw)"
        );
    }

    #[test]
    fn an_article_model_game_verifies_under_its_model_only() {
        // A game whose searcher simulates the article's input model by default records that
        // timing, and the strategy rebuilt from its name re-decides it under that timing.
        let article = FrameTiming {
            inputs: InputModel::Article,
            ..FrameTiming::LEVEL_19_30_HZ
        };
        let name = "gamepad+nes-plateau";
        let mut strategy = Strategy::from_name(name).unwrap();
        *strategy.parts_mut().0 =
            tetris_registry::AnySearcher::Gamepad(tetris_search_bfs::Gamepad::with_timing(article));
        let settings = GameSettings {
            board_height: 20,
            generator: GeneratorKind::Nes,
            seed: 5,
            max_pieces: Some(40),
            game_over_rule: GameOverRule::Simulation,
        };
        let options = PlayOptions {
            keep_placements: true,
            keep_paths: true,
            keep_evaluations: false,
        };
        let result = play_game(&mut strategy, &settings, options, &mut |_| {
            ControlFlow::Continue(())
        })
        .unwrap();
        let replay = Replay::record(&strategy, &settings, &result).unwrap();
        assert_eq!(replay.rules.frame_timing, Some(article));
        let rebuilt = || Strategy::from_name(name).unwrap();
        let parsed = Replay::parse(&replay.to_json()).unwrap();
        assert_eq!(parsed, replay);
        parsed.verify(Some(&mut rebuilt()), &mut |_| {}).unwrap();
        // Relabelled two-thumb, its paths are still legal (a two-thumb player can press them
        // too), but the two-thumb search reaches its placements by other paths.
        let mut relabelled = replay.clone();
        relabelled.rules.frame_timing = Some(FrameTiming::LEVEL_19_30_HZ);
        relabelled.verify(None, &mut |_| {}).unwrap();
        let message = relabelled
            .verify(Some(&mut rebuilt()), &mut |_| {})
            .unwrap_err();
        assert!(message.starts_with("placement "), "{message}");
        // And the two-thumb game of the same seed, relabelled article, has a frame the
        // article's player never presses.
        let mut two_thumb = rebuilt();
        let result = play_game(&mut two_thumb, &settings, options, &mut |_| {
            ControlFlow::Continue(())
        })
        .unwrap();
        let mut relabelled = Replay::record(&two_thumb, &settings, &result).unwrap();
        relabelled
            .verify(Some(&mut rebuilt()), &mut |_| {})
            .unwrap();
        relabelled.rules.frame_timing = Some(article);
        let message = relabelled.verify(None, &mut |_| {}).unwrap_err();
        assert!(
            message.contains("which the article input model does not press"),
            "{message}"
        );
    }
}
