//! How a player plays one piece of a frame-accurate NES game, frame by frame: at once with the
//! preview piece in sight, or with a reaction time ([`piece_frames`]).
//!
//! # Reaction time (docs/spec/search.md §3, "Reaction time")
//!
//! The preview piece appears when the current piece spawns, and a human player needs R frames
//! (BetaTetris's players: 18, 300 ms) before it can act on it. So, with R reaction frames:
//!
//! 1. **The plan, without the preview.** The strategy chooses the first R frames whose
//!    re-plans are best averaged over the 7 pieces the preview may be
//!    ([`Strategy::plan_for_reaction_in`], `tetris_registry::ReactionPlanner`): the start of
//!    the searcher's path to some placement.
//! 2. **The first R frames of the plan are played.** If the plan locks the piece within them,
//!    that is the piece's move.
//! 3. **The re-plan, with the preview.** Otherwise the strategy decides again, with both
//!    pieces, from where those R frames left the piece and the player
//!    ([`tetris_core::DecisionContext::played`]: position, rotation, fall timer, soft drop,
//!    each thumb's wait and place in the timeline), and plays the path from there
//!    ([`Strategy::replan_in`]: the decision [`Strategy::choose_in`] makes, with the plan's
//!    values of each placement with that preview reused).
//!
//! The path played (and recorded) is the plan's first R frames followed by the re-plan's path.
//! The first R frames depend on the board and the current piece only, never on the preview
//! (a property test checks it). The game's first piece is played the same way: the 96 frames
//! of its entry delay are frames like others (the player may press during them). R = 0 is
//! the player without a reaction time: one decision with both pieces, as before reaction
//! times existed.
//!
//! An outside engine plans for itself: it is asked about the current piece alone, and its
//! answer (a placement, or the inputs it presses) is the plan; then asked again with the
//! preview, told the frames played and where they left the piece, among the placements still
//! reachable from there (docs/writing-a-bot.md). Inputs it answers are pressed as given
//! ([`answered_frames`]).

use tetris_core::frames::{ENTRY_DELAY_FRAMES, FallingPiece};
use tetris_core::{
    Board, Buttons, DecisionContext, Input, Piece, PieceState, Placement, PlayedFrames,
};
use tetris_registry::{GameTally, Strategy};

use crate::sim::replay::frames::InputModelCheck;

pub use tetris_arena_io::values::MAX_REACTION_FRAMES;

/// Whether a player with `reaction_frames` sees the preview at once (0 frames): the player of
/// every result before reaction times existed, whose results and part files leave the field out.
pub fn sees_preview_at_once(reaction_frames: &u8) -> bool {
    *reaction_frames == 0
}

/// Why a gravity-aware searcher's path cannot be played: an internal error (its paths are
/// one button set per frame to a placement it found).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PathFault {
    /// The searcher has no path to the placement the strategy chose.
    #[error("the searcher gives no path to the {0} it chose")]
    NoPath(PieceState),
    /// The outside engine deciding for the strategy failed ([`Strategy::decide_in`]).
    #[error("{0}")]
    Engine(tetris_registry::Fault),
    /// A path step that is not one button set per frame.
    #[error("the path to {lock} holds {input:?}, not one button set per frame")]
    NotFrames {
        /// Where the path should lock the piece.
        lock: PieceState,
        /// The step.
        input: Input,
    },
}

/// How the player played one piece ([`piece_frames`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PiecePlay {
    /// Where the frames lock the piece.
    pub placement: Placement,
    /// With a reaction time, the placement whose path the plan without the preview started
    /// (its first R frames are the ones played blind); `None` without a reaction time.
    pub plan: Option<Placement>,
}

/// Decides the current piece of `pieces` (the current piece and the preview) on `board` and
/// writes the frames the player holds, from the spawn to the lock, into `frames`: with
/// `reaction_frames` R above 0, the plan without the preview for the first R frames and the
/// re-plan from there (module documentation), else one decision with both pieces. Returns
/// where the frames lock the piece (and the plan's placement), or `None` when the piece has
/// no placement (a top-out). `context` is the decision's (timing, entry delay, game-over rule)
/// with no frames played; `strategy`'s searcher must be gravity-aware.
pub fn piece_frames(
    strategy: &mut Strategy,
    board: &Board,
    pieces: [Piece; 2],
    context: DecisionContext,
    reaction_frames: u8,
    frames: &mut Vec<Buttons>,
    tally: GameTally,
) -> Result<Option<PiecePlay>, PathFault> {
    frames.clear();
    let outside = strategy.is_outside();
    let plan = if reaction_frames == 0 || outside {
        // An outside engine is told how far the game has come; its fault ends the game.
        // With a reaction time it plans without the preview: it is shown the current piece
        // alone, and its answer is the plan.
        let known = if reaction_frames == 0 {
            &pieces[..]
        } else {
            &pieces[..1]
        };
        strategy
            .decide_in(board, known, context, tally)
            .map_err(PathFault::Engine)?
    } else {
        strategy.plan_for_reaction_in(board, pieces[0], context, reaction_frames)
    };
    let Some(plan) = plan else {
        return Ok(None);
    };
    push_frames(strategy, board, plan.placement, context, context, frames)?;
    let reaction = usize::from(reaction_frames);
    let played_to_the_end = PiecePlay {
        placement: plan.placement,
        plan: (reaction > 0).then_some(plan.placement),
    };
    if reaction == 0 || frames.len() <= reaction {
        return Ok(Some(played_to_the_end));
    }
    let played = PlayedFrames::new(&frames[..reaction])
        .expect("reaction frames are at most the frames a search can go on after");
    let replan_context = DecisionContext { played, ..context };
    // The plan's own placement is still reachable from there, so a re-plan finds one; should
    // the chain's rules leave none (or an outside engine's frames be ones the search cannot
    // go on from), the plan is played to its end.
    let choice = match outside {
        true => strategy
            .decide_in(board, &pieces, replan_context, tally)
            .map_err(PathFault::Engine)?,
        false => strategy.replan_in(board, &pieces, replan_context),
    };
    let Some(choice) = choice else {
        return Ok(Some(played_to_the_end));
    };
    frames.truncate(reaction);
    push_frames(
        strategy,
        board,
        choice.placement,
        context,
        replan_context,
        frames,
    )?;
    Ok(Some(PiecePlay {
        placement: choice.placement,
        plan: Some(plan.placement),
    }))
}

/// Appends to `frames` (the frames already played of the piece, in `context` from its spawn)
/// the frames to `placement`: an outside engine's answered inputs, checked
/// ([`answered_frames`]), or else the searcher's path in `search` (`context` with those
/// frames played).
fn push_frames(
    strategy: &mut Strategy,
    board: &Board,
    placement: Placement,
    context: DecisionContext,
    search: DecisionContext,
    frames: &mut Vec<Buttons>,
) -> Result<(), PathFault> {
    match strategy.take_answered_inputs() {
        // An outside engine's own frames: played as pressed, never teleported.
        Some(inputs) => {
            answered_frames(board, placement, context, &inputs, frames).map_err(|message| {
                PathFault::Engine(tetris_registry::Fault {
                    kind: tetris_registry::FaultKind::Illegal,
                    message: format!("the answer's inputs: {message}"),
                })
            })
        }
        None => push_path(strategy, board, placement, search, frames),
    }
}

/// Appends to `frames` what a player pressing an outside engine's `inputs` holds after the
/// frames already there (those played of the piece before a re-plan; none at first), up to
/// the lock: the inputs, then nothing held while gravity brings the piece down. Every frame
/// from the piece's first input frame (its entry delay's first, for a game's first piece)
/// must be one the player's input model presses at the timeline of `context` (the rules a
/// recorded path is held to, [`crate::sim::replay::frames`]), no press may come after the
/// piece locks, and the piece must lock at `placement`, the engine's answer. Otherwise,
/// what is wrong (one line), frames counted from the piece's first.
pub fn answered_frames(
    board: &Board,
    placement: Placement,
    context: DecisionContext,
    inputs: &[Buttons],
    frames: &mut Vec<Buttons>,
) -> Result<(), String> {
    let timing = context
        .frame_timing
        .ok_or("this game places pieces directly, without frames")?;
    let played = std::mem::take(frames);
    let inputs: Vec<Buttons> = played.iter().chain(inputs).copied().collect();
    // The delayed-auto-shift counter a piece inherits from the last never counts here: a
    // piece spawns with nothing held, so its first Left or Right is a new press, which
    // clears the counter, unless Down is held with it, which neither input model presses.
    let mut falling = FallingPiece::spawn(placement.piece, context.entry_delay, 0);
    let mut presses = InputModelCheck::new(timing);
    // Gravity locks every piece: at the slowest level within (rows + 2) drops of one frame
    // each per frames-per-row, after the entry delay; the bound only guards the loop.
    let most = inputs.len()
        + usize::from(ENTRY_DELAY_FRAMES)
        + (usize::from(board.height()) + 3) * usize::from(timing.frames_per_row.max(1));
    for index in 0..most {
        let buttons = inputs.get(index).copied().unwrap_or(Buttons::NONE);
        let number = index + 1;
        presses
            .frame(index, buttons)
            .map_err(|error| error.to_string())?;
        frames.push(buttons);
        let Some(lock) = falling.frame(board, buttons, timing.frames_per_row) else {
            continue;
        };
        if let Some(late) = inputs[number.min(inputs.len())..]
            .iter()
            .position(|&buttons| buttons != Buttons::NONE)
        {
            return Err(format!(
                "the {} locks on frame {number}, before the press on frame {}",
                placement.piece,
                number + late + 1
            ));
        }
        if lock != placement.state() {
            return Err(format!(
                "they lock the {} at {lock}, not at the placement answered, {}",
                placement.piece,
                placement.state()
            ));
        }
        return Ok(());
    }
    Err(format!(
        "the {} is still falling after {most} frames",
        placement.piece
    ))
}

/// Appends the searcher's path to `placement` in `context` to `frames`.
fn push_path(
    strategy: &mut Strategy,
    board: &Board,
    placement: Placement,
    context: DecisionContext,
    frames: &mut Vec<Buttons>,
) -> Result<(), PathFault> {
    let path = strategy
        .path_inputs(board, &placement, context)
        .ok_or(PathFault::NoPath(placement.state()))?;
    for &input in path {
        let buttons = input.frame().ok_or(PathFault::NotFrames {
            lock: placement.state(),
            input,
        })?;
        frames.push(buttons);
    }
    Ok(())
}
