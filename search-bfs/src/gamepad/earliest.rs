//! The path to one placement whose inputs come earliest: what a player reading a path off a
//! move server (StackRabbit's `get-move`) presses, as opposed to the search's own path.
//!
//! # Design note
//!
//! The search's paths are shortest in frames, and every path to a lock takes about the same
//! frames (gravity decides them), so the first path the breadth-first order finds presses
//! nothing for as long as it can and acts just in time: at level 18 on an empty board it waits
//! about 50 frames, then shifts. A player acts at once; StackRabbit's paths start on frame 0
//! and pair a shift with a rotation on one frame while both remain.
//!
//! **What "earliest" means here.** Among the paths the search's own model allows (the same
//! one-frame step, [`Gamepad::step`], with the same thumbs, cooldowns, timeline phases and
//! input model) that lock the piece exactly at the target, the best is the one with the fewest
//! frames that press anything (so a shift and a rotation share a frame where they can, and no
//! press is wasted), and among those the one whose input frames, as a sorted list, are
//! lexicographically smallest (the first input as early as possible, then the second, …),
//! then the one with the fewest presses (no turn and turn back on frames that press anyway).
//! Remaining ties (two paths pressing as often on the same frames) go, at the first frame where they
//! differ, to the input without Down, then a shift paired with a turn, then a shift, then a
//! turn, A before B (`tie_rank`): so a shift and a turn share the earliest frames, as in
//! StackRabbit's paths.
//!
//! **Why it is exact.** Every frame moves a state forward in (row, frames since the entry
//! delay began, fall timer) order: the timer counts up until the piece drops a row, the entry
//! delay only counts down, and a soft drop goes down a row. So the states reachable from the
//! start form a directed acyclic graph, and the best suffix from a state depends on that state
//! only. The states are collected by a flood from the start, sorted by that order and their
//! best suffixes computed from the last one back (a dynamic programme over the graph), which
//! compares every path without enumerating them. The placement is the search's, found by the
//! same step, so the path is one the search would accept (a test replays it through the
//! literal frame model of `tetris_core::frames`).
//!
//! **Cost.** A few thousand states at level 18 on an open board, each with up to 12 inputs and
//! a short list of input frames: well under a millisecond; it runs once per answer, never in
//! a game's search.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

use super::{
    ARTICLE_INPUTS, ENTRY_DELAY_FRAMES, FRAME_INPUTS, FrameInput, FrameState, Gamepad, Step, Turn,
    waiting,
};
use tetris_core::{Board, Buttons, InputModel, Placement, SearchOptions};

/// The most frames that press something in a path considered: far more than a move needs
/// (shifts across the field, two turns, a tuck), fewer than holding Down for every frame of a
/// soft drop down a whole field would take. A path past it is not considered; so a placement
/// reached only by such paths has no earliest path here (the caller keeps the search's own).
const MAX_INPUT_FRAMES: usize = 48;

/// The best way on from one state to the target: the frames that press something, and the
/// state's own frame. `Copy` and heap-free: a search compares hundreds of thousands of them.
#[derive(Clone, Copy, Debug)]
struct Suffix {
    /// The frames of the suffix that press anything, counted from the state (0 = its frame):
    /// the first `input_count`.
    input_frames: [u16; MAX_INPUT_FRAMES],
    input_count: u8,
    /// The buttons pressed over the suffix (a frame with a shift and a turn counts 2).
    presses: u16,
    /// The input of the state's own frame.
    first: FrameInput,
    /// Where that frame leads: `None` when it locks the piece at the target.
    next: Option<FrameState>,
}

impl Suffix {
    /// The suffix that locks at the target with `first` on the state's own frame.
    fn locking(first: FrameInput) -> Suffix {
        let pressed = buttons_pressed(first);
        let mut input_frames = [0; MAX_INPUT_FRAMES];
        input_frames[0] = 0;
        Suffix {
            input_frames,
            input_count: u8::from(pressed != 0),
            presses: pressed,
            first,
            next: None,
        }
    }

    /// `first` on the state's own frame to `next`, then `after` (the best way on from
    /// `next`); `None` when that makes more than [`MAX_INPUT_FRAMES`] input frames.
    fn then(first: FrameInput, next: FrameState, after: &Suffix) -> Option<Suffix> {
        let pressed = buttons_pressed(first);
        let own = usize::from(pressed != 0);
        let count = own + usize::from(after.input_count);
        if count > MAX_INPUT_FRAMES {
            return None;
        }
        let mut input_frames = [0; MAX_INPUT_FRAMES];
        for (slot, frame) in input_frames[own..count]
            .iter_mut()
            .zip(&after.input_frames[..usize::from(after.input_count)])
        {
            *slot = frame.saturating_add(1);
        }
        Some(Suffix {
            input_frames,
            input_count: count as u8,
            presses: pressed + after.presses,
            first,
            next: Some(next),
        })
    }

    /// The input frames, counted from the state.
    fn frames(&self) -> &[u16] {
        &self.input_frames[..usize::from(self.input_count)]
    }

    /// Whether `self` is a better way on than `other`: fewer input frames, then earlier ones,
    /// then fewer presses, then the first frame's input by [`tie_rank`].
    fn is_better_than(&self, other: &Suffix) -> bool {
        fn key(suffix: &Suffix) -> (u8, &[u16], u16, std::cmp::Reverse<TieRank>) {
            (
                suffix.input_count,
                suffix.frames(),
                suffix.presses,
                std::cmp::Reverse(tie_rank(suffix.first)),
            )
        }
        key(self) < key(other)
    }
}

/// A hasher for [`FrameState`]s: the state's 8 bytes as one word, spread by one
/// multiplication (the default hasher costs more than the search's step here).
#[derive(Default)]
struct StateHasher(u64);

impl Hasher for StateHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(byte)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_u8(&mut self, value: u8) {
        self.0 = (self.0.rotate_left(8) ^ u64::from(value)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }

    fn write_i8(&mut self, value: i8) {
        self.write_u8(value as u8);
    }
}

/// Hash maps and sets of states with [`StateHasher`].
type States = BuildHasherDefault<StateHasher>;

impl Gamepad {
    /// The path to `target` whose inputs come earliest (see the module's design note): one
    /// [`Buttons`] per frame from the first frame the search would play (the spawn, or the
    /// frame after `options.played`) to the frame that locks the piece there, under the
    /// timing of `options` (or the searcher's default) and its entry delay and played frames.
    /// `None` when the search does not reach `target`, or only by paths with more than
    /// [`MAX_INPUT_FRAMES`] input frames.
    pub fn earliest_inputs_path(
        &mut self,
        board: &Board,
        target: &Placement,
        options: SearchOptions,
    ) -> Option<Vec<Buttons>> {
        let piece = target.piece;
        let timing = options.frame_timing.unwrap_or(self.default_timing);
        // The numbering and the legality words are the kept search's: it must be redone.
        self.kept = None;
        self.number_states(board.height(), timing);
        self.compute_legal(board, piece);
        let spawn_counts = self.fits(tetris_core::SPAWN_X, tetris_core::SPAWN_Y, 0)
            || options.game_over_rule.spawn_may_overlap();
        if !spawn_counts {
            return None;
        }
        let start = if options.played.is_empty() {
            Self::spawn_state(options.entry_delay)
        } else {
            self.state_after(piece, options.entry_delay, options.played.as_slice())?
        };
        let goal = target.state();
        // Every state reachable from the start (the graph is acyclic: see the note). States
        // below the target's row cannot come back up to it.
        let mut reachable = vec![start];
        let mut seen: HashSet<FrameState, States> = HashSet::default();
        seen.insert(start);
        let mut at = 0;
        while at < reachable.len() {
            let state = reachable[at];
            at += 1;
            for input in self.inputs_from(piece, &state) {
                if let Some(Step::Falling(next)) = self.step(piece, &state, input) {
                    if next.y <= goal.y && seen.insert(next) {
                        reachable.push(next);
                    }
                }
            }
        }
        reachable.sort_unstable_by_key(|state| std::cmp::Reverse(progress(state)));
        let mut best: HashMap<FrameState, Suffix, States> = HashMap::default();
        best.reserve(reachable.len());
        for state in &reachable {
            let mut chosen: Option<Suffix> = None;
            for input in self.inputs_from(piece, state) {
                let candidate = match self.step(piece, state, input) {
                    Some(Step::Locked(lock))
                        if lock == goal && self.fits(lock.x, lock.y, lock.rotation) =>
                    {
                        Suffix::locking(input)
                    }
                    Some(Step::Falling(next)) => {
                        match best
                            .get(&next)
                            .and_then(|after| Suffix::then(input, next, after))
                        {
                            Some(candidate) => candidate,
                            None => continue,
                        }
                    }
                    _ => continue,
                };
                if chosen
                    .as_ref()
                    .is_none_or(|old| candidate.is_better_than(old))
                {
                    chosen = Some(candidate);
                }
            }
            if let Some(suffix) = chosen {
                best.insert(*state, suffix);
            }
        }
        let mut path = Vec::new();
        let mut state = start;
        loop {
            let suffix = best.get(&state)?;
            path.push(suffix.first.buttons());
            match suffix.next {
                Some(next) => state = next,
                None => return Some(path),
            }
        }
    }

    /// The inputs the search tries from `state`, in its order: those its thumbs and the piece
    /// allow (as [`Gamepad::expand_generic`] filters them).
    fn inputs_from(
        &self,
        piece: tetris_core::Piece,
        state: &FrameState,
    ) -> impl Iterator<Item = FrameInput> + use<> {
        let turns = piece.orientation_count();
        let inputs: &'static [FrameInput] = match self.search_timing.inputs {
            InputModel::TwoThumb => &FRAME_INPUTS,
            InputModel::Article => &ARTICLE_INPUTS,
        };
        let state = *state;
        inputs.iter().copied().filter(move |input| {
            !((input.shift != 0 && waiting::<true>(state.shift_thumb))
                || (input.turn != Turn::None && waiting::<true>(state.rotate_thumb))
                || (input.turn == Turn::Clockwise && turns < 4)
                || (input.turn == Turn::Counterclockwise && turns < 2))
        })
    }
}

/// The buttons `input` presses: a shift, a turn and Down count one each.
fn buttons_pressed(input: FrameInput) -> u16 {
    u16::from(input.shift != 0) + u16::from(input.turn != Turn::None) + u16::from(input.down)
}

/// The order of [`tie_rank`].
type TieRank = (bool, bool, bool, bool, bool);

/// Which of two inputs a tie goes to (higher first): Down never when something else does,
/// then a shift paired with a turn (StackRabbit's one letter), a shift, a turn, nothing; A
/// before B.
fn tie_rank(input: FrameInput) -> TieRank {
    let shifts = input.shift != 0;
    let turns = input.turn != Turn::None;
    (
        !input.down,
        shifts && turns,
        shifts,
        turns,
        input.turn == Turn::Clockwise,
    )
}

/// A state's place in the order every frame moves forward in (see the design note): its row,
/// the entry-delay frames already gone, its fall timer.
fn progress(state: &FrameState) -> (i8, u8, u8) {
    (
        state.y,
        ENTRY_DELAY_FRAMES - state.delay_left,
        state.fall_timer,
    )
}
