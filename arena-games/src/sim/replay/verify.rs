//! The verifier of a replay: [`Replay::verify`] re-plays a recorded game and names the first
//! difference with a [`ReplayError`] (`arena replay`, and `arena play --record` before it
//! writes a viewer page).
//!
//! # What `arena replay` checks
//!
//! The file is a replay of a format version this arena reads (1 to 3), one of version 2 or
//! later records its `game_over_rule`, and one of version 3 its `result.level`. The strategy is rebuilt from its name through the registry
//! (a name that builds no strategy is an error, with or without `--redecide`). The rules are
//! what a command accepts for it: a
//! board height it can play on, a piece cap of at least 1, a `frame_timing` exactly when its
//! searcher is gravity-aware, checked by the rule that checks `--tap-rate` and `--level`
//! ([`tetris_registry::check_frame_timing`]); a generator that deals after each placement
//! (`mdptetris`) only with a one-piece strategy. The stored pieces: for a seeded generator,
//! exactly the first `placements + depth` pieces the seed gives (for `mdptetris`, re-dealt
//! during the replay and told of each placement, as the game did); for `file:`, seed 0 (a
//! seeded game relabelled `file:` keeps its seed and is caught) and at most `placements +
//! depth` pieces. Then, placement by placement,
//! on a board that starts empty: the piece is the sequence's next piece and, under the
//! simulation rule, can spawn; the recorded state is legal; the path, replayed input by input
//! from the searcher's path start (the spawn state; above the field for `drop`), is legal at
//! every step and ends in the recorded state; that state is a lock placement (one row down is
//! illegal); locking it clears the recorded number of rows — except a placement that lands
//! above row 0 under the literature rule, which ends the game (it must be the last, and
//! clears nothing). Finally the pieces, lines, score and (version 3) level equal the recorded
//! result (scored at the game's levels: [`Replay::levels`]), and the
//! recorded end is what happened: at a game over the last placement landed above the field
//! (literature), or the next piece cannot spawn, or the strategy rebuilt from its name finds no
//! placement for it (its filter or no-suicide removed all; under the literature rule, which
//! never checks the spawn, only this); at the cap the placements equal
//! the cap, and a sequence can only end for `file:` generators, with every stored piece
//! placed. Without `--redecide` that is all: the game is legal and gives its result, but
//! nothing shows that the named strategy chose it, and `arena replay` says so. With
//! `--redecide` the rebuilt strategy must choose every recorded placement itself, under the
//! recorded game-over rule and frame timing (the engines are deterministic), and its
//! searcher's path to it must be the recorded path input for input: a path with extra legal
//! moves, or turning the other way to the same rotation, reaches the same state but is not
//! the strategy's. The first difference is an error naming the placement and exits with code
//! 2. Paths of gamepad frames (`F<n>`) are played frame by frame through the core's NES frame
//! model ([`super::frames`]) at the recorded `rules.frame_timing`, and every frame must be one
//! the recorded input model (`inputs`; absent: `two-thumb`) presses at the recorded tap rate
//! T: under `two-thumb`, one button per thumb (Left/Right, A/B), no shift while Down is held,
//! and a thumb's presses at least T frames apart (frames i and j with j − i ≥ T, the gamepad
//! search's cooldown); under `article`, one of Left, Right, A, B on every T-th frame from the
//! first, nothing else. So a game relabelled to a slower tap rate than its paths press at, or
//! a two-thumb game relabelled `article`, is refused without `--redecide`, naming the
//! placement and the frame. A faster tap rate, or `two-thumb` for an article game, keeps the
//! paths legal: what tells those apart is below.
//!
//! # What the game proves about its header
//!
//! A legal game proves only the header facts under which no other value gives the same
//! verified game. After the game verifies, each fact is changed alone to every other value a
//! command accepts and the game is played again (`Replay::unproven_facts`); the values it
//! does not verify under are excluded by the game. With `--redecide`, the values left are
//! re-decided too, and excluded when the strategy chooses another placement or path under
//! them. Every fact with a value left is reported ([`Verified::unproven`]), and `arena replay`
//! prints one `unproven` line per fact (`--json`: `unproven`), so nothing is left unsaid:
//!
//! - `max_pieces` is proven only when the game ended at its cap (placements = cap: no other cap
//!   stops it there). After a game over or a sequence end, any cap above the placements, or
//!   none, gives the same game (a cap at or below them is refused).
//! - `game_over_rule`: the game is played again under the other frame-less rule (simulation:
//!   the next piece must be able to spawn; literature: a piece landing with a cell above row 0
//!   ends the game before its rows clear, and a piece that cannot spawn is placed if the
//!   strategy finds a placement). A game that lands a piece above the field before its end, or
//!   whose end only one rule gives, proves its rule; otherwise `--redecide` re-decides it under
//!   the other rule, where no-suicide and chains cut short at a game over may choose
//!   differently.
//! - `frame_timing` (gamepad games): each other tap rate (2 to 8), each other level's gravity
//!   (frames per row) and the other input model. A slower tap rate or another gravity is
//!   almost always excluded by the paths; a faster tap rate, or `two-thumb` for an article
//!   game, never is (those paths are legal there too), so only `--redecide` can exclude it.
//! - `board_height` is proven by the first placement, which rests on the empty board's floor;
//!   only a game without placements leaves it open.
//!
//! Two facts are not reported: the strategy (without `--redecide` the report says that its
//! choices were not checked), and the seed, which is checked by the pieces it gives; another
//! seed whose sequence starts with the same pieces would give the same game. A version-1
//! replay without `game_over_rule` is checked under `simulation`, and the report says that the
//! rule was assumed (see [`super::format`]); when the game proves its rule, the assumption is
//! proven too. Changing two facts at once is not tried.
//!
//! The game itself is stepped by the core's [`PlacementGame`], the step `arena play` plays:
//! the spawn check, the literature rule's landing above the field, clears and score.

use std::fmt;

use tetris_core::scoring::{ONE_FRAME_LEVEL, frames_per_row};
use tetris_core::{
    Board, DecisionContext, FrameTiming, GameOverRule, Input, InputModel, NesScore, Piece,
    PieceGenerator, PieceState, Placement, PlacementGame, Searcher, Timeline,
};
use tetris_registry::protocol::{Start, Stop};
use tetris_registry::{GameTally, Strategy, TAP_RATES, check_frame_timing};

use super::errors::{PlacementError, ReplayError, ResultError, RulesError};
use super::frames::follow_path;
use super::{
    LEVELED_REPLAY_VERSION, OLDEST_REPLAY_VERSION, REPLAY_FORMAT, Replay, ReplayRules,
    reads_version,
};
use crate::sim::evaluation::Evaluation;
use crate::sim::game::GameEnd;
use crate::sim::placement::LastPlacement;

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
    /// The level after the placement: the game's one level ([`Replay::levels`]: from 0, or
    /// from a gravity-aware game's gravity's first level).
    pub level: u8,
    /// The states the piece passed through on its recorded path: the path's start, then the
    /// state after each input (after each frame for a path of gamepad frames); the last is
    /// the lock state.
    pub path: &'a [PieceState],
    /// The pieces the strategy sees next (current first), as far as the replay stores them.
    pub upcoming: &'a [Piece],
}

/// What a verified replay leaves open about its header: every header fact that the game does
/// not prove (see the module documentation, "What the game proves about its header").
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Verified {
    /// The facts, in the order of the header: board height, piece cap, game-over rule, frame
    /// timing (tap rate, frames per row, input model).
    pub unproven: Vec<Unproven>,
}

/// One header fact the game does not prove: other values give the same verified game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unproven {
    /// The fact and the other values that also verify.
    pub fact: HeaderFact,
    /// Whether the strategy re-decided the game under each of those values too (with
    /// `--redecide`), choosing the same placements and paths: then not even the decisions
    /// tell the values apart.
    pub redecided: bool,
}

/// A header fact and the other values under which the recorded game also verifies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HeaderFact {
    /// `rules.board_height`: a game without placements shows no floor.
    BoardHeight,
    /// `rules.max_pieces`: the game did not end at its cap, so any cap above its placements,
    /// or none, gives the same game.
    MaxPieces {
        /// The placements.
        placed: u64,
    },
    /// `rules.game_over_rule`: the game is also legal, with the same end and result, under
    /// the other frame-less rule.
    GameOverRule {
        /// The other rule.
        other: GameOverRule,
    },
    /// `rules.frame_timing.tap_rate` (or `timeline`, for a mixed one): the paths also keep
    /// these tap rates (uniform timelines).
    TapRate {
        /// The other tap rates, increasing.
        others: Vec<u8>,
        /// Whether the replay records a mixed timeline (field `timeline`, not `tap_rate`).
        recorded_mixed: bool,
    },
    /// `rules.frame_timing.frames_per_row`: the paths also lock where recorded at these
    /// gravities.
    FramesPerRow {
        /// The other frames per row, decreasing (levels increasing).
        others: Vec<u8>,
    },
    /// `rules.frame_timing.inputs`: the paths are also paths of the other input model.
    InputModel {
        /// The other model.
        other: InputModel,
    },
}

impl HeaderFact {
    /// The header field, as the replay file names it.
    pub fn field(&self) -> &'static str {
        match self {
            HeaderFact::BoardHeight => "board_height",
            HeaderFact::MaxPieces { .. } => "max_pieces",
            HeaderFact::GameOverRule { .. } => "game_over_rule",
            HeaderFact::TapRate {
                recorded_mixed: true,
                ..
            } => "frame_timing.timeline",
            HeaderFact::TapRate { .. } => "frame_timing.tap_rate",
            HeaderFact::FramesPerRow { .. } => "frame_timing.frames_per_row",
            HeaderFact::InputModel { .. } => "frame_timing.inputs",
        }
    }
}

/// `a, b and c`.
fn listed(values: &[u8]) -> String {
    let texts: Vec<String> = values.iter().map(u8::to_string).collect();
    match texts.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    }
}

impl fmt::Display for Unproven {
    /// One line: the field, then which other values give the same game (`arena replay`
    /// prints it after `unproven  `).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.fact.field())?;
        match &self.fact {
            HeaderFact::BoardHeight => {
                return f.write_str("the game has no placement, so every board height gives it");
            }
            HeaderFact::MaxPieces { placed } => {
                return write!(
                    f,
                    "any cap above {placed}, or none, gives this game (it did not end at its cap)"
                );
            }
            HeaderFact::GameOverRule { other } => {
                write!(f, "the game is also legal under the {other} rule")?
            }
            HeaderFact::TapRate { others, .. } => {
                write!(f, "the paths also keep tap rate {}", listed(others))?
            }
            HeaderFact::FramesPerRow { others } => write!(
                f,
                "the paths also lock where recorded at {} frames per row",
                listed(others)
            )?,
            HeaderFact::InputModel { other } => {
                write!(f, "the paths are also {other} input model paths")?
            }
        }
        match self.redecided {
            true => f.write_str(", and the strategy re-decides every placement and path the same"),
            false => f.write_str(" (not re-decided: use --redecide)"),
        }
    }
}

impl Replay {
    /// Checks the recorded game (see the module documentation), calling `observer` after each
    /// placement. With `redecide`, that strategy must choose every recorded placement. The
    /// error names the first difference; a verified replay comes with the header facts its
    /// game does not prove ([`Verified::unproven`]).
    pub fn verify(
        &self,
        redecide: Option<&mut Strategy>,
        observer: &mut dyn FnMut(&ReplayStep<'_>),
    ) -> Result<Verified, ReplayError> {
        if self.format != REPLAY_FORMAT {
            return Err(ReplayError::Format {
                found: self.format.clone(),
            });
        }
        if !reads_version(u64::from(self.version)) {
            return Err(ReplayError::Version {
                found: self.version,
            });
        }
        if self.version > OLDEST_REPLAY_VERSION && self.rules.rule_assumed() {
            return Err(ReplayError::Rules(RulesError::MissingGameOverRule {
                version: self.version,
            }));
        }
        // The strategy is rebuilt from its name even when it does not re-decide: its depth
        // says how many pieces the replay must hold, its searcher where paths start and
        // whether they are gamepad frames, and a name that builds no strategy is no game.
        let redeciding = redecide.is_some();
        let mut rebuilt;
        let strategy: &mut Strategy = match redecide {
            Some(strategy) => strategy,
            None => {
                rebuilt = Strategy::from_name(&self.strategy).map_err(ReplayError::Strategy)?;
                &mut rebuilt
            }
        };
        Board::new(usize::from(self.rules.board_height))
            .map_err(|error| ReplayError::Rules(RulesError::Core(error)))?;
        self.check_rules(&self.rules, strategy)
            .map_err(ReplayError::Rules)?;
        self.check_pieces(strategy.depth())?;
        self.play(&self.rules, strategy, redeciding, observer)?;
        Ok(Verified {
            unproven: self.unproven_facts(strategy, redeciding),
        })
    }

    /// Plays the recorded placements under `rules` (the recorded ones, or one changed header
    /// fact: [`Replay::unproven_facts`]), with every check of the module documentation that
    /// does not depend on the header alone; re-deciding each placement when `redeciding`.
    fn play(
        &self,
        rules: &ReplayRules,
        strategy: &mut Strategy,
        redeciding: bool,
        observer: &mut dyn FnMut(&ReplayStep<'_>),
    ) -> Result<(), ReplayError> {
        let board = Board::new(usize::from(rules.board_height))
            .map_err(|error| ReplayError::Rules(RulesError::Core(error)))?;
        let shown_upcoming = strategy.depth();
        let placed = self.placements.len() as u64;
        if let Some(cap) = rules.max_pieces
            && placed > cap
        {
            return Err(ReplayError::OverCap { placed, cap });
        }
        let rule = rules.rule();
        // The recorded timing is the one the game told the strategy (`play` records the
        // searcher's default, which is what an absent timing means).
        let context = DecisionContext {
            frame_timing: rules.frame_timing,
            ..DecisionContext::with_game_over_rule(rule)
        };
        let path_start = strategy.parts_mut().0.path_start();
        // `check_rules` refused the console rule, the one a game without frames cannot play.
        let mut game = PlacementGame::with_levels(board, rule, self.levels(rules))
            .map_err(|error| ReplayError::Rules(RulesError::Core(error)))?;
        let mut path_states = Vec::new();
        // A generator that deals after each placement (`mdptetris`) is re-dealt here, told of
        // each placement as the game told it; `check_pieces` re-derived every other one.
        let mut dealer = match self.generator.deals_after_placement() {
            true => Some(
                self.generator
                    .start(self.seed)
                    .map_err(ReplayError::Generator)?,
            ),
            false => None,
        };
        // An outside engine that re-decides hears of the game as when it was played: its
        // rules, seed and cap (`start`), each position with the game's counts so far, and its
        // end (`stop`), so a bot that reads them decides as it did. The arena's own engines
        // ignore them.
        if redeciding {
            strategy.begin_game(&Start {
                game: 0,
                board_width: tetris_core::BOARD_WIDTH as u8,
                board_height: rules.board_height,
                game_over: rule.to_string(),
                generator: self.generator.to_string(),
                seed: self.seed,
                max_pieces: rules.max_pieces,
                preview: 0,
                searcher: String::new(),
                timeline: None,
                inputs: None,
            });
        }
        for (index, recorded) in self.placements.iter().enumerate() {
            let number = index + 1;
            let fail = |error: PlacementError| ReplayError::Placement { number, error };
            let state = recorded.state();
            let piece = recorded.piece;
            if let Some(dealer) = &mut dealer {
                self.check_dealt(dealer, index)?;
            }
            match self.pieces.get(index) {
                Some(&expected) if expected == piece => {}
                Some(&expected) => {
                    return Err(fail(PlacementError::WrongPiece {
                        piece,
                        number,
                        expected,
                    }));
                }
                None => {
                    return Err(fail(PlacementError::SequenceTooShort {
                        stored: self.pieces.len(),
                    }));
                }
            }
            // Only a landing above the field (literature) ends the game here: a spawn that
            // fails returns at once.
            if game.is_over() {
                return Err(fail(PlacementError::AfterGameOver));
            }
            if !game.spawn(piece) {
                return Err(fail(PlacementError::CannotSpawn { piece }));
            }
            let board = game.board();
            if !is_legal(board, piece, state) {
                return Err(fail(PlacementError::IllegalState { state, piece }));
            }
            let path = recorded
                .path
                .as_deref()
                .ok_or_else(|| fail(PlacementError::NoPath))?;
            if redeciding {
                let tally = GameTally {
                    pieces: game.pieces(),
                    lines: game.lines(),
                    score: game.score().score(),
                    level: game.score().level(),
                };
                self.redecide(strategy, board, index, context, tally, path)
                    .map_err(fail)?;
            }
            let reached = follow_path(
                board,
                piece,
                path,
                path_start,
                rules.frame_timing,
                &mut path_states,
            )
            .map_err(|error| fail(PlacementError::Path(error)))?;
            if reached != state {
                return Err(fail(PlacementError::PathEndsElsewhere {
                    reached,
                    recorded: state,
                }));
            }
            let placement = Placement::new(piece, state);
            if !placement.is_lock_placement_on(board) {
                return Err(fail(PlacementError::NotALock { state, piece }));
            }
            let before = *game.board();
            // The game is not over (checked above), so the placement is taken.
            let outcome = game
                .place(&placement)
                .map_err(|_| fail(PlacementError::AfterGameOver))?
                .outcome;
            if let Some(dealer) = &mut dealer {
                dealer.after_placement(&before, piece);
            }
            if outcome.rows_cleared != recorded.cleared {
                return Err(fail(PlacementError::OtherClears {
                    cleared: outcome.rows_cleared,
                    recorded: recorded.cleared,
                }));
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
        if let Some(dealer) = &mut dealer {
            for index in self.placements.len()..self.pieces.len() {
                self.check_dealt(dealer, index)?;
            }
        }
        // A landing above the field is the only way the game is over after the last placement.
        let ended_on_landing = game.is_over();
        let result = self.check_result(
            rules,
            strategy,
            game.board(),
            game.lines(),
            game.score(),
            ended_on_landing,
        );
        if redeciding {
            strategy.end_game(&Stop {
                game: 0,
                end: self.result.end.name().to_string(),
                pieces: game.pieces(),
                lines: game.lines(),
                score: game.score().score(),
            });
        }
        result.map_err(ReplayError::Result)
    }

    /// The header facts the game does not prove (see the module documentation). Each fact is
    /// changed alone to every other value a command accepts, and the game is played again under
    /// it ([`Replay::play`], no observer): a value under which it does not verify is excluded
    /// by the game. With `redecide`, the values that remain are re-decided too, and excluded
    /// when the strategy chooses another placement or path under them. A fact with values left
    /// is not proven. The piece cap and the board height need no replaying: a game that ended
    /// before its cap verifies under every larger cap or none (and under no cap at or below
    /// its placements), and the first placement lands on the empty board's floor, which only
    /// one height has.
    fn unproven_facts(&self, strategy: &mut Strategy, redeciding: bool) -> Vec<Unproven> {
        let mut unproven = Vec::new();
        let mut not_proven =
            |fact: HeaderFact, redecided: bool| unproven.push(Unproven { fact, redecided });
        if self.placements.is_empty() {
            not_proven(HeaderFact::BoardHeight, false);
        }
        if self.result.end != GameEnd::PieceCap {
            let placed = self.placements.len() as u64;
            not_proven(HeaderFact::MaxPieces { placed }, false);
        }
        let other = match self.rules.rule() {
            GameOverRule::Literature => GameOverRule::Simulation,
            _ => GameOverRule::Literature,
        };
        let changed = ReplayRules {
            game_over_rule: Some(other),
            ..self.rules.clone()
        };
        if self.also_verifies(&changed, strategy, redeciding) {
            not_proven(HeaderFact::GameOverRule { other }, redeciding);
        }
        let Some(timing) = self.rules.frame_timing else {
            return unproven;
        };
        let mut keeps = |changed: FrameTiming| {
            let rules = ReplayRules {
                frame_timing: Some(changed),
                ..self.rules.clone()
            };
            self.also_verifies(&rules, strategy, redeciding)
        };
        let tap_rates: Vec<u8> = TAP_RATES
            .filter(|&tap_rate| Some(tap_rate) != timing.tap_rate())
            .filter(|&tap_rate| {
                keeps(FrameTiming {
                    timeline: Timeline::uniform(tap_rate),
                    ..timing
                })
            })
            .collect();
        let mut gravities: Vec<u8> = (0..=ONE_FRAME_LEVEL)
            .map(|level| frames_per_row(level) as u8)
            .collect();
        gravities.dedup();
        let gravities: Vec<u8> = gravities
            .into_iter()
            .filter(|&frames| frames != timing.frames_per_row)
            .filter(|&frames_per_row| {
                keeps(FrameTiming {
                    frames_per_row,
                    ..timing
                })
            })
            .collect();
        let other = match timing.inputs {
            InputModel::TwoThumb => InputModel::Article,
            InputModel::Article => InputModel::TwoThumb,
        };
        let inputs = keeps(FrameTiming {
            inputs: other,
            ..timing
        });
        if !tap_rates.is_empty() {
            let recorded_mixed = timing.tap_rate().is_none();
            not_proven(
                HeaderFact::TapRate {
                    others: tap_rates,
                    recorded_mixed,
                },
                redeciding,
            );
        }
        if !gravities.is_empty() {
            not_proven(HeaderFact::FramesPerRow { others: gravities }, redeciding);
        }
        if inputs {
            not_proven(HeaderFact::InputModel { other }, redeciding);
        }
        unproven
    }

    /// Whether the game also verifies under `rules` (one header fact changed), re-decided
    /// too when `redeciding`.
    fn also_verifies(
        &self,
        rules: &ReplayRules,
        strategy: &mut Strategy,
        redeciding: bool,
    ) -> bool {
        self.check_rules(rules, strategy).is_ok()
            && self.play(rules, strategy, false, &mut |_| {}).is_ok()
            && (!redeciding || self.play(rules, strategy, true, &mut |_| {}).is_ok())
    }

    /// Re-decides placement `index` (0-based) on `board`: `strategy` must choose the recorded
    /// placement and the searcher's path to it must be the recorded `path`, input for input
    /// (a path with extra legal moves, or the other rotation direction, reaches the same
    /// state but is not the strategy's), and a recorded evaluation must be the strategy's.
    /// An outside engine is told the game's counts so far (`tally`); its fault is the error.
    fn redecide(
        &self,
        strategy: &mut Strategy,
        board: &Board,
        index: usize,
        context: DecisionContext,
        tally: GameTally,
        path: &[Input],
    ) -> Result<(), PlacementError> {
        let recorded = &self.placements[index];
        let state = recorded.state();
        let piece = recorded.piece;
        let end = (index + strategy.depth()).min(self.pieces.len());
        let name = strategy.name();
        let decided = strategy
            .decide_in(board, &self.pieces[index..end], context, tally)
            .map_err(|fault| PlacementError::EngineFault {
                strategy: name.clone(),
                message: fault.message,
            })?;
        let Some(choice) = decided else {
            return Err(PlacementError::NoChoice {
                strategy: name,
                piece,
            });
        };
        if choice.placement.state() != state {
            return Err(PlacementError::OtherChoice {
                strategy: name,
                chosen: choice.placement.state(),
                recorded: state,
            });
        }
        if let Some(recorded) = &recorded.evaluation
            && !recorded.matches(&Evaluation::of_choice(strategy, board, &choice))
        {
            return Err(PlacementError::OtherEvaluation { strategy: name });
        }
        let Some(chosen_path) = strategy.path_inputs(board, &choice.placement, context) else {
            return Err(PlacementError::NoChosenPath { strategy: name });
        };
        if chosen_path != path {
            return Err(PlacementError::OtherPath {
                strategy: name,
                state,
                chosen: chosen_path.to_vec(),
                recorded: path.to_vec(),
            });
        }
        Ok(())
    }

    /// The rules and timing are what a command would accept for this strategy: the board
    /// height the strategy can play on, a piece cap of at least 1, and a frame timing exactly
    /// when the searcher is gravity-aware, checked by the rule `--tap-rate` and `--level` are
    /// checked by ([`check_frame_timing`]); and a game-over rule a game without frames plays
    /// (not the console rule, `GameOverRule::check_frameless`).
    fn check_rules(&self, rules: &ReplayRules, strategy: &Strategy) -> Result<(), RulesError> {
        tetris_arena_io::values::check_pattern_height(
            strategy,
            rules.board_height,
            tetris_arena_io::Field::BOARD_HEIGHT,
        )
        .map_err(RulesError::BoardHeight)?;
        rules
            .rule()
            .check_frameless()
            .map_err(RulesError::GameOverRule)?;
        if rules.max_pieces == Some(0) {
            return Err(RulesError::ZeroCap);
        }
        self.generator
            .check_preview(strategy.depth())
            .map_err(RulesError::Core)?;
        let searcher = &strategy.spec().searcher;
        match (rules.frame_timing, strategy.frame_timing()) {
            (Some(timing), Some(_)) => check_frame_timing(timing).map_err(RulesError::FrameTiming),
            (Some(_), None) => Err(RulesError::UnwantedFrameTiming {
                searcher: searcher.to_string(),
            }),
            (None, Some(_)) => Err(RulesError::MissingFrameTiming {
                searcher: searcher.to_string(),
            }),
            (None, None) => Ok(()),
        }
    }

    /// Whether the recorded strategy, rebuilt from its name, finds no placement for the piece
    /// after the last placement on `board` (a game over because the filter or no-suicide
    /// removed every placement).
    fn strategy_finds_no_placement(
        &self,
        rules: &ReplayRules,
        strategy: &mut Strategy,
        board: &Board,
    ) -> bool {
        let next = self.placements.len();
        let end = (next + strategy.depth()).min(self.pieces.len());
        let context = DecisionContext {
            frame_timing: rules.frame_timing,
            ..DecisionContext::with_game_over_rule(rules.rule())
        };
        next < end
            && strategy
                .choose_in(board, &self.pieces[next..end], context)
                .is_none()
    }

    /// Every stored piece is part of the game: a seeded generator's pieces are re-derived
    /// from the seed and must be exactly the first `placements + depth` (`depth`: the
    /// strategy's), as `arena play` stores them (`mdptetris`'s, which depend on the boards,
    /// are re-dealt by `play`). A `file:` replay's stored pieces ARE its
    /// sequence (the file is not read again), so there is nothing to re-derive; but such a
    /// game has no seed, so a seed other than 0 (what `arena play` records for it) marks a
    /// seeded game relabelled to escape this check. It holds at most `placements + depth`
    /// pieces, fewer when the file ran out.
    fn check_pieces(&self, depth: usize) -> Result<(), ReplayError> {
        let placements = self.placements.len();
        let stored = self.pieces.len();
        let wanted = placements + depth;
        if !self.generator.is_seeded() {
            if self.seed != 0 {
                return Err(ReplayError::SeedWithoutGenerator {
                    generator: self.generator.clone(),
                    seed: self.seed,
                });
            }
            if stored > wanted {
                return Err(ReplayError::ExtraPieces {
                    stored,
                    placements,
                    depth,
                });
            }
            return Ok(());
        }
        if stored != wanted {
            return Err(ReplayError::PieceCount {
                stored,
                placements,
                depth,
                wanted,
            });
        }
        if self.generator.deals_after_placement() {
            // Its pieces depend on the boards: `play` deals them again placement by placement.
            return Ok(());
        }
        let generated = self
            .generator
            .start(self.seed)
            .map_err(ReplayError::Generator)?;
        for (index, (&stored, generated)) in self.pieces.iter().zip(generated).enumerate() {
            if stored != generated {
                return Err(ReplayError::NotTheGenerators {
                    number: index + 1,
                    stored,
                    generator: self.generator.clone(),
                    seed: self.seed,
                    generated,
                });
            }
        }
        Ok(())
    }

    /// Stored piece `index` (0-based) is the next piece `dealer` deals (a generator that deals
    /// after each placement, told of every placement before `index`).
    fn check_dealt(&self, dealer: &mut PieceGenerator, index: usize) -> Result<(), ReplayError> {
        let (Some(&stored), Some(generated)) = (self.pieces.get(index), dealer.next()) else {
            return Ok(());
        };
        if stored != generated {
            return Err(ReplayError::NotTheGenerators {
                number: index + 1,
                stored,
                generator: self.generator.clone(),
                seed: self.seed,
                generated,
            });
        }
        Ok(())
    }

    /// The recorded result equals the replayed one, and the recorded end is what happened
    /// under `rules`.
    fn check_result(
        &self,
        rules: &ReplayRules,
        strategy: &mut Strategy,
        board: &Board,
        lines: u64,
        score: &NesScore,
        ended_on_landing: bool,
    ) -> Result<(), ResultError> {
        let (level, score) = (score.level(), score.score());
        let result = &self.result;
        let placed = self.placements.len() as u64;
        if result.pieces != placed {
            return Err(ResultError::Pieces {
                recorded: result.pieces,
                placed,
            });
        }
        if result.lines != lines {
            return Err(ResultError::Lines {
                recorded: result.lines,
                lines,
            });
        }
        if result.score != score {
            return Err(ResultError::Score {
                recorded: result.score,
                score,
            });
        }
        match result.level {
            Some(recorded) if recorded != level => {
                return Err(ResultError::Level { recorded, level });
            }
            None if self.version >= LEVELED_REPLAY_VERSION => {
                return Err(ResultError::MissingLevel {
                    version: self.version,
                });
            }
            _ => {}
        }
        if result.game_over != (result.end == GameEnd::GameOver) {
            return Err(ResultError::GameOverFlag {
                game_over: result.game_over,
                end: result.end,
            });
        }
        if result.end != GameEnd::PieceCap && rules.max_pieces == Some(placed) {
            return Err(ResultError::CapNotRecorded {
                placed,
                end: result.end,
            });
        }
        if ended_on_landing && result.end != GameEnd::GameOver {
            return Err(ResultError::LandingNotRecorded { end: result.end });
        }
        match result.end {
            GameEnd::GameOver if ended_on_landing => Ok(()),
            // Under the simulation rule a next piece that cannot spawn ends the game; the
            // literature rule never checks the spawn (`PlacementGame::spawn`), so there only
            // a strategy that finds no placement does.
            GameEnd::GameOver => match self.pieces.get(placed as usize) {
                None => Err(ResultError::NoNextPiece),
                Some(&next) if rules.rule() == GameOverRule::Simulation => {
                    match board.can_spawn(next)
                        && !self.strategy_finds_no_placement(rules, strategy, board)
                    {
                        true => Err(ResultError::NextPieceCanPlay { next }),
                        false => Ok(()),
                    }
                }
                Some(&next) => match self.strategy_finds_no_placement(rules, strategy, board) {
                    true => Ok(()),
                    false => Err(ResultError::NextPieceHasPlacement { next }),
                },
            },
            GameEnd::PieceCap => match rules.max_pieces {
                Some(cap) if cap == placed => Ok(()),
                cap => Err(ResultError::NotAtCap { placed, cap }),
            },
            GameEnd::SequenceEnded if self.generator.is_seeded() => {
                Err(ResultError::EndlessSequence {
                    generator: self.generator.clone(),
                })
            }
            GameEnd::SequenceEnded if self.pieces.len() as u64 != placed => {
                Err(ResultError::UnplacedPieces {
                    unplaced: self.pieces.len() as u64 - placed.min(self.pieces.len() as u64),
                    stored: self.pieces.len(),
                })
            }
            GameEnd::SequenceEnded => Ok(()),
            GameEnd::Stopped => Err(ResultError::Stopped),
            // An outside engine's fault may end a game after any placement: nothing on the
            // board shows it.
            GameEnd::Fault => Ok(()),
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
