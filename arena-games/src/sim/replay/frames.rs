//! Following a recorded input path: a path of moves input by input from the searcher's path
//! start, a path of gamepad frames frame by frame through the core's NES frame model
//! ([`FallingPiece`]).
//!
//! Gamepad frames are played at the replay's recorded `rules.frame_timing`, without the entry
//! delay (frame-less games have none): each piece starts with nothing held and the
//! delayed-auto-shift counter at 0. Every frame must also be one the recorded input model
//! presses at the recorded input timeline, tap rate T for a uniform one (docs/spec/search.md
//! §3, "Input models" and "Input timelines"; [`tetris_core::InputModel`]), so that a timeline
//! or model the paths break is caught without re-deciding:
//!
//! - `two-thumb` ([`TwoThumbTaps`]): Left/Right are one thumb and A/B the other; a thumb
//!   presses one of its buttons at a time, and its next press comes T frames after the last at
//!   the earliest (frames i and j with j − i ≥ T: the gamepad search's cooldown of T − 1
//!   frames after a press); under a mixed timeline with gaps g₁, g₂, …, its k-th press comes
//!   at least gap number k − 1 (round the gaps) after its (k − 1)-th. Down is held for soft
//!   drop, never together with a shift, and is no press of either thumb. A piece starts with
//!   both thumbs free.
//! - `article` ([`article_allows`]): nothing, or exactly one of Left, Right, A, B on input
//!   frames 1, 1 + T, 1 + 2T, … (0-based indices that are multiples of T; in general the
//!   indices of the timeline's `X`, repeating), nothing between.
//!
//! What the verifier concludes from a path is in [`super::verify`].

use std::fmt;

use tetris_core::frames::FallingPiece;
use tetris_core::{Board, Buttons, FrameTiming, Input, InputModel, Piece, PieceState, Timeline};
use thiserror::Error as ThisError;

/// Why a recorded path does not lead its piece to a lock (the message follows
/// `placement N: ` in the verifier's error).
#[derive(Clone, Debug, PartialEq, Eq, ThisError)]
pub enum PathError {
    /// A path of gamepad frames in a replay that records no frame timing to play them at.
    #[error("the path is gamepad frames, but the replay records no frame timing")]
    NoFrameTiming,
    /// A gamepad frame in a path that starts with a move.
    #[error(
        "input {number} of the path is a gamepad frame ({}) in a path of moves",
        .input.short_name()
    )]
    FrameAmongMoves {
        /// The input's 1-based position in the path.
        number: usize,
        /// The frame.
        input: Input,
    },
    /// A move that takes the piece to an illegal state.
    #[error(
        "input {number} of the path ({}) takes the {piece} from {from} to {to}, which is not legal",
        .input.short_name()
    )]
    IllegalMove {
        /// The input's 1-based position in the path.
        number: usize,
        /// The move.
        input: Input,
        /// The piece.
        piece: Piece,
        /// The legal state before the move.
        from: PieceState,
        /// The illegal state after it.
        to: PieceState,
    },
    /// A move in a path that starts with a gamepad frame.
    #[error(
        "input {number} of the path is a move ({}) in a path of gamepad frames",
        .input.short_name()
    )]
    MoveAmongFrames {
        /// The input's 1-based position in the path.
        number: usize,
        /// The move.
        input: Input,
    },
    /// A frame whose buttons the article's input model never holds on that frame
    /// ([`article_allows`]).
    #[error(
        "frame {number} of the path holds {} buttons ({}), which the article input model \
         does not press: one of Left, Right, A or B on {}, nothing else",
        .buttons.0.count_ones(),
        .input.short_name(),
        press_frames(*.timeline)
    )]
    NotAnArticleFrame {
        /// The frame's 1-based position in the path.
        number: usize,
        /// The buttons it holds.
        buttons: Buttons,
        /// The frame as an input.
        input: Input,
        /// The timeline of the recorded timing.
        timeline: Timeline,
    },
    /// A frame that holds both buttons of one thumb, or a shift while Down is held: no
    /// two-thumb player presses it ([`TwoThumbTaps`]).
    #[error(
        "frame {number} of the path holds {} ({}), which the two-thumb input model does not \
         press: one of Left or Right on one thumb, one of A or B on the other, and no shift \
         while Down is held",
        .buttons,
        .input.short_name()
    )]
    NotATwoThumbFrame {
        /// The frame's 1-based position in the path.
        number: usize,
        /// The buttons it holds.
        buttons: ButtonNames,
        /// The frame as an input.
        input: Input,
    },
    /// A press that comes sooner after the same thumb's last press than the timeline allows
    /// under the two-thumb input model ([`TwoThumbTaps`]).
    #[error(
        "frame {number} of the path presses {} {} frames after the {thumb} thumb's press on \
         frame {previous}, but {} (two-thumb input model)",
        .pressed,
        .number - .previous,
        thumb_wait(*.timeline, *.gap)
    )]
    TapTooSoon {
        /// The frame's 1-based position in the path.
        number: usize,
        /// The button pressed on it by that thumb.
        pressed: ButtonNames,
        /// The thumb.
        thumb: Thumb,
        /// The 1-based frame of the thumb's previous press.
        previous: usize,
        /// The timeline of the recorded timing.
        timeline: Timeline,
        /// The gap this press had to keep from the previous one.
        gap: u8,
    },
    /// A path of gamepad frames that locks its piece before its last frame.
    #[error("the {piece} locks on frame {frame} of the path's {frames}")]
    LocksEarly {
        /// The piece.
        piece: Piece,
        /// The 1-based frame it locks on.
        frame: usize,
        /// The path's frames.
        frames: usize,
    },
    /// A path of gamepad frames after whose last frame the piece still falls.
    #[error("the {piece} is still falling after the path's {frames} frames")]
    StillFalling {
        /// The piece.
        piece: Piece,
        /// The path's frames.
        frames: usize,
    },
}

/// Replays `path` from `start` (the searcher's path start: the spawn state, or above the field
/// for `drop`); the state it ends in, or which input is illegal. A path of gamepad frames is
/// played through the NES frame model at `timing` ([`follow_frames`]) and must lock the piece
/// on its last frame. `states` is filled with the start and the state after each input.
pub fn follow_path(
    board: &Board,
    piece: Piece,
    path: &[Input],
    start: PieceState,
    timing: Option<FrameTiming>,
    states: &mut Vec<PieceState>,
) -> Result<PieceState, PathError> {
    states.clear();
    if let Some(Input::Frame(_)) = path.first() {
        let timing = timing.ok_or(PathError::NoFrameTiming)?;
        return follow_frames(board, piece, path, timing, states);
    }
    let mut state = start;
    states.push(state);
    for (index, &input) in path.iter().enumerate() {
        let number = index + 1;
        let next = state
            .after(piece, input)
            .ok_or(PathError::FrameAmongMoves { number, input })?;
        if !board.fits(piece, next) {
            return Err(PathError::IllegalMove {
                number,
                input,
                piece,
                from: state,
                to: next,
            });
        }
        state = next;
        states.push(state);
    }
    Ok(state)
}

/// The states a piece passes through on `path` from `start` ([`follow_path`]: the start, then
/// the state after each input or frame), flattened as x, y, rotation: the animation frames of
/// the replay viewer and the browser page. `None` when the path does not replay from there.
pub fn path_states(
    board: &Board,
    piece: Piece,
    path: &[Input],
    start: PieceState,
    timing: Option<FrameTiming>,
) -> Option<Vec<i8>> {
    let mut states = Vec::with_capacity(path.len() + 1);
    follow_path(board, piece, path, start, timing, &mut states).ok()?;
    Some(flat_states(&states))
}

/// `states` flattened as x, y, rotation.
pub fn flat_states(states: &[PieceState]) -> Vec<i8> {
    states
        .iter()
        .flat_map(|state| [state.x, state.y, state.rotation as i8])
        .collect()
}

/// Plays a path of gamepad frames through [`FallingPiece`] (spawned without the entry delay,
/// with the delayed-auto-shift counter at 0); the lock state, or where the path goes wrong.
/// `states` is filled with the spawn state and the state after each frame.
pub fn follow_frames(
    board: &Board,
    piece: Piece,
    path: &[Input],
    timing: FrameTiming,
    states: &mut Vec<PieceState>,
) -> Result<PieceState, PathError> {
    let mut falling = FallingPiece::spawn(piece, false, 0);
    let mut presses = InputModelCheck::new(timing);
    states.push(falling.state());
    for (index, &input) in path.iter().enumerate() {
        let number = index + 1;
        let Input::Frame(buttons) = input else {
            return Err(PathError::MoveAmongFrames { number, input });
        };
        presses.frame(index, buttons)?;
        let locked = falling.frame(board, buttons, timing.frames_per_row);
        states.push(falling.state());
        if let Some(locked) = locked {
            if number < path.len() {
                return Err(PathError::LocksEarly {
                    piece,
                    frame: number,
                    frames: path.len(),
                });
            }
            return Ok(locked);
        }
    }
    Err(PathError::StillFalling {
        piece,
        frames: path.len(),
    })
}

/// The input model's check of a piece's frames, one after the other from its first input
/// frame: [`article_allows`] or [`TwoThumbTaps`], at the timing's timeline.
#[derive(Clone, Copy, Debug)]
pub struct InputModelCheck {
    timing: FrameTiming,
    taps: TwoThumbTaps,
}

impl InputModelCheck {
    /// The check of a piece's first frame onwards at `timing`.
    pub fn new(timing: FrameTiming) -> InputModelCheck {
        InputModelCheck {
            timing,
            taps: TwoThumbTaps::default(),
        }
    }

    /// Checks frame `index` (0-based, frames in order) holding `buttons`.
    pub fn frame(&mut self, index: usize, buttons: Buttons) -> Result<(), PathError> {
        let (number, input, timeline) = (index + 1, Input::Frame(buttons), self.timing.timeline);
        match self.timing.inputs {
            InputModel::Article if !article_allows(index, buttons, timeline) => {
                Err(PathError::NotAnArticleFrame {
                    number,
                    buttons,
                    input,
                    timeline,
                })
            }
            InputModel::Article => Ok(()),
            InputModel::TwoThumb => self.taps.press(number, input, buttons, timeline),
        }
    }
}

/// One thumb of the two-thumb input model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Thumb {
    /// Left and Right.
    Shift,
    /// A and B.
    Rotation,
}

impl fmt::Display for Thumb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Thumb::Shift => "Left/Right",
            Thumb::Rotation => "A/B",
        })
    }
}

/// A frame's buttons by name (`Left+A`, `nothing`), for messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ButtonNames(pub Buttons);

impl fmt::Display for ButtonNames {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names = [
            (Buttons::LEFT, "Left"),
            (Buttons::RIGHT, "Right"),
            (Buttons::DOWN, "Down"),
            (Buttons::A, "A"),
            (Buttons::B, "B"),
        ];
        let held: Vec<&str> = names
            .iter()
            .filter(|(button, _)| self.0.contains(*button))
            .map(|&(_, name)| name)
            .collect();
        match held.is_empty() {
            true => f.write_str("nothing"),
            false => f.write_str(&held.join("+")),
        }
    }
}

/// The article's press frames under `timeline`, in words, for messages.
fn press_frames(timeline: Timeline) -> String {
    match timeline.tap_rate() {
        Some(tap_rate) => format!("input frames 1, 1 + T, 1 + 2T, … (T = tap rate {tap_rate})"),
        None => format!("the input frames of timeline {timeline}'s X, from frame 1"),
    }
}

/// What a thumb's press had to wait under `timeline` (`gap` frames), in words, for messages.
fn thumb_wait(timeline: Timeline, gap: u8) -> String {
    match timeline.tap_rate() {
        Some(tap_rate) => {
            format!("tap rate {tap_rate} lets a thumb press at most every {tap_rate} frames")
        }
        None => format!(
            "timeline {timeline} makes this press of the thumb wait {gap} frames after the last \
             (its gaps, in turn from the thumb's first press)"
        ),
    }
}

/// The two-thumb input model's check of one path, frame by frame (docs/spec/search.md §3):
/// each thumb presses one of its buttons at a time, its presses the timeline's gaps apart in
/// turn (at most once every tap-rate frames for a uniform timeline), and Down (soft drop) is
/// never held with a shift. It remembers each thumb's last press and its count.
#[derive(Clone, Copy, Debug, Default)]
pub struct TwoThumbTaps {
    /// The 1-based frame of the last Left or Right press, and the thumb's presses so far.
    last_shift: Option<(usize, usize)>,
    /// The 1-based frame of the last A or B press, and the thumb's presses so far.
    last_rotation: Option<(usize, usize)>,
}

impl TwoThumbTaps {
    /// Checks frame `number` (1-based, frames in order) holding `buttons` under `timeline`,
    /// and records its presses.
    pub fn press(
        &mut self,
        number: usize,
        input: Input,
        buttons: Buttons,
        timeline: Timeline,
    ) -> Result<(), PathError> {
        let shift = buttons.0 & (Buttons::LEFT.0 | Buttons::RIGHT.0);
        let rotation = buttons.0 & (Buttons::A.0 | Buttons::B.0);
        let two_of_a_thumb = shift.count_ones() > 1 || rotation.count_ones() > 1;
        if two_of_a_thumb || (shift != 0 && buttons.contains(Buttons::DOWN)) {
            return Err(PathError::NotATwoThumbFrame {
                number,
                buttons: ButtonNames(buttons),
                input,
            });
        }
        for (pressed, thumb, last) in [
            (shift, Thumb::Shift, &mut self.last_shift),
            (rotation, Thumb::Rotation, &mut self.last_rotation),
        ] {
            if pressed == 0 {
                continue;
            }
            let presses = match *last {
                Some((previous, presses)) => {
                    // The k-th press keeps gap number k − 1 (from 1), round the gaps.
                    let gap = timeline
                        .gaps()
                        .cycle()
                        .nth(presses - 1)
                        .expect("a timeline has a gap");
                    if number - previous < usize::from(gap) {
                        return Err(PathError::TapTooSoon {
                            number,
                            pressed: ButtonNames(Buttons(pressed)),
                            thumb,
                            previous,
                            timeline,
                            gap,
                        });
                    }
                    presses + 1
                }
                None => 1,
            };
            *last = Some((number, presses));
        }
        Ok(())
    }
}

/// Whether frame `index` (0-based) of a path may hold `buttons` under the article's input
/// model ([`InputModel::Article`]): nothing, or exactly one of Left, Right, A, B on a press
/// frame (the timeline's `X`, repeating from the first frame: every T-th for tap rate T);
/// nothing on the others; Down never.
pub fn article_allows(index: usize, buttons: Buttons, timeline: Timeline) -> bool {
    let one_press = [Buttons::LEFT, Buttons::RIGHT, Buttons::A, Buttons::B].contains(&buttons);
    buttons == Buttons::NONE || (one_press && timeline.is_input_frame(index as u32))
}
