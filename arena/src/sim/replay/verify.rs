//! The verifier of a replay: [`Replay::verify`] re-plays a recorded game and names the first
//! difference (`arena replay`, and `arena play --record` before it writes a viewer page).
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
//! model ([`super::frames`]) at the recorded `rules.frame_timing`; when its `inputs` is
//! `article` (absent: `two-thumb`), every frame must also be one the article's input model
//! presses (one of Left, Right, A, B on every tap-rate-th frame from the first, nothing
//! else), so a two-thumb game relabelled `article` is caught without `--redecide` unless none
//! of its paths uses a frame the article model does not; `--redecide` decides again under the
//! recorded model. An article game relabelled `two-thumb` has legal two-thumb paths: only
//! `--redecide` can catch it, when the two-thumb search chooses or reaches differently.
//!
//! The game itself is stepped by the core's [`PlacementGame`], the step `arena play` plays:
//! the spawn check, the literature rule's landing above the field, clears and score.

use tetris_core::{
    Board, DecisionContext, Input, Piece, PieceState, Placement, PlacementGame, Searcher,
};
use tetris_registry::{Strategy, check_frame_timing};

use super::frames::follow_path;
use super::{REPLAY_FORMAT, REPLAY_VERSION, Replay};
use crate::sim::evaluation::Evaluation;
use crate::sim::game::GameEnd;
use crate::sim::placement::{LastPlacement, format_path};

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
