//! Following a recorded input path: a path of moves input by input from the searcher's path
//! start, a path of gamepad frames frame by frame through the core's NES frame model
//! ([`FallingPiece`]).
//!
//! Gamepad frames are played at the replay's recorded `rules.frame_timing`, without the entry
//! delay (frame-less games have none): each piece starts with nothing held and the
//! delayed-auto-shift counter at 0. Under the article input model every frame must also be
//! one that model presses ([`article_allows`]). What the verifier concludes from a path is in
//! [`super::verify`].

use tetris_core::frames::FallingPiece;
use tetris_core::{Board, Buttons, FrameTiming, Input, InputModel, Piece, PieceState};

/// Replays `path` from `start` (the searcher's path start: the spawn state, or above the field
/// for `drop`); the state it ends in, or which input is illegal. A
/// path of gamepad frames is played through the NES frame model at `timing` (frame-less
/// games have no entry delay) and must lock the piece on its last frame. `states` is filled
/// with the start and the state after each input.
pub fn follow_path(
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
pub fn follow_frames(
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
pub fn article_allows(index: usize, buttons: Buttons, tap_rate: u8) -> bool {
    let one_press = [Buttons::LEFT, Buttons::RIGHT, Buttons::A, Buttons::B].contains(&buttons);
    buttons == Buttons::NONE || (one_press && index % usize::from(tap_rate) == 0)
}
