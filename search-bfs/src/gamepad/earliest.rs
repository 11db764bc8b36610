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
//! **Cost.** States are numbered densely as the search's visited bitset numbers them, so the
//! programme keeps one word per possible state and the best way on of each state that has one
//! (heap-free, at most [`MAX_INPUT_FRAMES`] input frames); candidates are compared without
//! being written out. It runs once per answer, never in a game's search. Measured through the
//! move server's `get-move` (docs/stackrabbit.md): about a millisecond at 30 Hz; a mixed
//! timeline (`X....X...X...`, a few hundred thousand states at level 18) costs tens of
//! milliseconds.

use super::{
    ARTICLE_INPUTS, ENTRY_DELAY_FRAMES, FRAME_INPUTS, FrameInput, FrameState, Gamepad, Step, Turn,
    WAIT_BITS, waiting,
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
    /// The suffix that `candidate` makes, or `None` when it would have more than
    /// [`MAX_INPUT_FRAMES`] input frames.
    fn from_candidate(candidate: &Candidate<'_>) -> Option<Suffix> {
        let count = candidate.input_count();
        if count > MAX_INPUT_FRAMES {
            return None;
        }
        let mut input_frames = [0; MAX_INPUT_FRAMES];
        for (slot, frame) in input_frames.iter_mut().zip(candidate.frames()) {
            *slot = frame;
        }
        Some(Suffix {
            input_frames,
            input_count: count as u8,
            presses: candidate.presses(),
            first: candidate.first,
            next: candidate.next,
        })
    }

    /// The input frames, counted from the state.
    fn frames(&self) -> &[u16] {
        &self.input_frames[..usize::from(self.input_count)]
    }
}

/// One way on from a state, not yet written out: its frame's input, then the best way on
/// from where that leads (`after`; `None` when the frame locks the piece at the target).
/// Candidates are compared as the suffixes they make, without making them.
struct Candidate<'a> {
    first: FrameInput,
    next: Option<FrameState>,
    after: Option<&'a Suffix>,
}

impl Candidate<'_> {
    /// Whether the candidate's own frame presses anything.
    fn presses_now(&self) -> bool {
        buttons_pressed(self.first) != 0
    }

    /// Its input frames' count.
    fn input_count(&self) -> usize {
        usize::from(self.presses_now()) + self.after.map_or(0, |after| after.frames().len())
    }

    /// Its input frames, counted from the state.
    fn frames(&self) -> impl Iterator<Item = u16> + '_ {
        let own = self.presses_now().then_some(0);
        let later = self.after.map_or(&[][..], |after| after.frames());
        own.into_iter()
            .chain(later.iter().map(|frame| frame.saturating_add(1)))
    }

    /// Its presses.
    fn presses(&self) -> u16 {
        buttons_pressed(self.first) + self.after.map_or(0, |after| after.presses)
    }

    /// Whether `self` is a better way on than `other`: fewer input frames, then earlier ones,
    /// then fewer presses, then the first frame's input by [`tie_rank`].
    fn is_better_than(&self, other: &Candidate<'_>) -> bool {
        self.input_count()
            .cmp(&other.input_count())
            .then_with(|| self.frames().cmp(other.frames()))
            .then_with(|| self.presses().cmp(&other.presses()))
            .then_with(|| tie_rank(other.first).cmp(&tie_rank(self.first)))
            .is_lt()
    }
}

/// Where a state stands in the dynamic programme, by its dense number
/// ([`Gamepad::state_number`]): not reached, reached with no way on to the target, or the
/// index of its best way on.
const UNREACHED: u32 = u32::MAX;
/// See [`UNREACHED`].
const NO_WAY_ON: u32 = u32::MAX - 1;

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
        let mut standing = vec![UNREACHED; self.visited.len() * 64];
        let mut reachable = vec![start];
        standing[self.state_number(&start)] = NO_WAY_ON;
        let mut at = 0;
        while at < reachable.len() {
            let state = reachable[at];
            at += 1;
            for input in self.inputs_from(piece, &state) {
                if let Some(Step::Falling(next)) = self.step(piece, &state, input) {
                    let number = self.state_number(&next);
                    if next.y <= goal.y && standing[number] == UNREACHED {
                        standing[number] = NO_WAY_ON;
                        reachable.push(next);
                    }
                }
            }
        }
        reachable.sort_unstable_by_key(|state| std::cmp::Reverse(progress(state)));
        let mut ways_on: Vec<Suffix> = Vec::new();
        for state in &reachable {
            let mut chosen: Option<Candidate<'_>> = None;
            for input in self.inputs_from(piece, state) {
                let candidate = match self.step(piece, state, input) {
                    Some(Step::Locked(lock))
                        if lock == goal && self.fits(lock.x, lock.y, lock.rotation) =>
                    {
                        Candidate {
                            first: input,
                            next: None,
                            after: None,
                        }
                    }
                    Some(Step::Falling(next)) => match standing[self.state_number(&next)] {
                        UNREACHED | NO_WAY_ON => continue,
                        index => Candidate {
                            first: input,
                            next: Some(next),
                            after: Some(&ways_on[index as usize]),
                        },
                    },
                    _ => continue,
                };
                if chosen
                    .as_ref()
                    .is_none_or(|old| candidate.is_better_than(old))
                {
                    chosen = Some(candidate);
                }
            }
            if let Some(suffix) = chosen.as_ref().and_then(Suffix::from_candidate) {
                standing[self.state_number(state)] = ways_on.len() as u32;
                ways_on.push(suffix);
            }
        }
        let mut path = Vec::new();
        let mut state = start;
        loop {
            let suffix = match standing[self.state_number(&state)] {
                UNREACHED | NO_WAY_ON => return None,
                index => &ways_on[index as usize],
            };
            path.push(suffix.first.buttons());
            match suffix.next {
                Some(next) => state = next,
                None => return Some(path),
            }
        }
    }

    /// A state's dense number: its group's ([`Gamepad::group_index`]) and its cooldown pair's
    /// bit in the group, as the visited bitset numbers it (below `visited.len() × 64`).
    fn state_number(&self, state: &FrameState) -> usize {
        let pair = usize::from(state.shift_thumb & WAIT_BITS) * usize::from(self.gaps.slots)
            + usize::from(state.rotate_thumb & WAIT_BITS);
        self.group_index::<true>(state) * self.group_bits + pair
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
