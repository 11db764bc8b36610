//! The verifier of a replay: [`Replay::verify`] re-plays a recorded game and names the first
//! difference with a [`ReplayError`] (`arena replay`, and `arena play --record` before it
//! writes a viewer page).
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

use super::errors::{PlacementError, ReplayError, ResultError, RulesError};
use super::frames::follow_path;
use super::{REPLAY_FORMAT, REPLAY_VERSION, Replay};
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
    /// error names the first difference.
    pub fn verify(
        &self,
        redecide: Option<&mut Strategy>,
        observer: &mut dyn FnMut(&ReplayStep<'_>),
    ) -> Result<(), ReplayError> {
        if self.format != REPLAY_FORMAT {
            return Err(ReplayError::Format {
                found: self.format.clone(),
            });
        }
        if self.version != REPLAY_VERSION {
            return Err(ReplayError::Version {
                found: self.version,
            });
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
        let board = Board::new(usize::from(self.rules.board_height))
            .map_err(|error| ReplayError::Rules(RulesError::Core(error)))?;
        self.check_rules(strategy).map_err(ReplayError::Rules)?;
        self.check_pieces(strategy.depth())?;
        let shown_upcoming = strategy.depth();
        let placed = self.placements.len() as u64;
        if let Some(cap) = self.rules.max_pieces
            && placed > cap
        {
            return Err(ReplayError::OverCap { placed, cap });
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
        let mut game = PlacementGame::new(board, rule)
            .map_err(|error| ReplayError::Rules(RulesError::Core(error)))?;
        let mut path_states = Vec::new();
        for (index, recorded) in self.placements.iter().enumerate() {
            let number = index + 1;
            let fail = |error: PlacementError| ReplayError::Placement { number, error };
            let state = recorded.state();
            let piece = recorded.piece;
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
                self.redecide(strategy, board, index, context, path)
                    .map_err(fail)?;
            }
            let reached = follow_path(
                board,
                piece,
                path,
                path_start,
                self.rules.frame_timing,
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
            // The game is not over (checked above), so the placement is taken.
            let outcome = game
                .place(&placement)
                .map_err(|_| fail(PlacementError::AfterGameOver))?
                .outcome;
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
        // A landing above the field is the only way the game is over after the last placement.
        let ended_on_landing = game.is_over();
        self.check_result(
            strategy,
            game.board(),
            game.lines(),
            game.score().score(),
            ended_on_landing,
        )
        .map_err(ReplayError::Result)
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
    ) -> Result<(), PlacementError> {
        let recorded = &self.placements[index];
        let state = recorded.state();
        let piece = recorded.piece;
        let end = (index + strategy.depth()).min(self.pieces.len());
        let name = strategy.name();
        let Some(choice) = strategy.choose_in(board, &self.pieces[index..end], context) else {
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
    fn check_rules(&self, strategy: &Strategy) -> Result<(), RulesError> {
        strategy
            .check_board_height(self.rules.board_height)
            .map_err(RulesError::BoardHeight)?;
        self.rules
            .game_over_rule
            .check_frameless()
            .map_err(RulesError::GameOverRule)?;
        if self.rules.max_pieces == Some(0) {
            return Err(RulesError::ZeroCap);
        }
        let searcher = &strategy.spec().searcher;
        match (self.rules.frame_timing, strategy.frame_timing()) {
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

    /// The recorded result equals the replayed one, and the recorded end is what happened.
    fn check_result(
        &self,
        strategy: &mut Strategy,
        board: &Board,
        lines: u64,
        score: u32,
        ended_on_landing: bool,
    ) -> Result<(), ResultError> {
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
        if result.game_over != (result.end == GameEnd::GameOver) {
            return Err(ResultError::GameOverFlag {
                game_over: result.game_over,
                end: result.end,
            });
        }
        if result.end != GameEnd::PieceCap && self.rules.max_pieces == Some(placed) {
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
            GameEnd::GameOver => match self.pieces.get(placed as usize) {
                Some(&next)
                    if board.can_spawn(next)
                        && !self.strategy_finds_no_placement(strategy, board) =>
                {
                    Err(ResultError::NextPieceCanPlay { next })
                }
                Some(_) => Ok(()),
                None => Err(ResultError::NoNextPiece),
            },
            GameEnd::PieceCap => match self.rules.max_pieces {
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
