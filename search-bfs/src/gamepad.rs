//! The gravity-aware gamepad search (docs/spec/search.md §3): breadth-first over per-frame states.
//!
//! # Design note
//!
//! **What a state is.** The future of a falling piece depends on its position (x, y,
//! rotation), the fall timer, the soft-drop counter and which presses the thumbs may make
//! next. Presses here are one-frame taps: Left or Right is held for exactly the frame it is
//! pressed on (so the delayed auto shift never fires: every shift is a new press), and so are A
//! and B. After a press a thumb must wait until T frames (the tap rate, a uniform timeline's
//! gap) have passed since it (Left and Right share one thumb, A and B the other), which is
//! also what "released for at least a frame" needs at the fastest rate, 2. So a state is (x, y, rotation, fall timer, Down phase,
//! shift cooldown, rotation cooldown), where the Down phase is 0 (released) or the game's
//! soft-drop counter 1 or 2 while Down is held, and a cooldown counts the frames a thumb must
//! still wait. docs/spec/search.md's (Left, Right, A, B) released/pressed bits are the cooldowns at tap
//! rate 2; other rates need the longer count. A game's first piece adds one more phase: the
//! 96 frames of entry delay, during which it stays on row 0 with Down released, so those states
//! are (frames of delay left, x, rotation, cooldowns).
//!
//! **What a frame does** (the same order as the game, checked against the literal model in
//! `tetris_core::frames` by replaying every path): the fall timer counts up; a Left or Right
//! press shifts; an A or B press turns; then the drop: during the entry delay nothing falls
//! unless Down is pressed (which ends the delay and starts a soft drop); with Down released the
//! piece falls when the fall timer reaches the frames per row; Down pressed starts the soft
//! drop, which moves the piece on every second held frame instead of gravity on those frames;
//! releasing Down cancels it. A drop that is not legal locks the piece: a placement.
//!
//! **Which inputs are tried.** From each state, with Down released: nothing, B, A, Left,
//! Left + B, Left + A, Right, Right + B, Right + A; then with Down held (pressed or kept):
//! nothing, B, A. Never Left or Right with Down: while Down is held the game skips shifts, and
//! pressing Down with Left or Right held starts no soft drop, so such frames only waste a
//! press. A press that would be blocked (the shifted or turned state is not legal) is not
//! tried either: it changes nothing but a cooldown, so it cannot reach anything new. Pieces
//! with two orientations only press B (A gives the same state), the O no rotation at all.
//!
//! **The article's input model** (`InputModel::Article`, docs/spec/search.md §3 "Input models"): the
//! published level-19 bot's. With T the tap rate, the press frames are the piece's input frames
//! 1, 1 + T, 1 + 2T, … (T = 2: every other frame, the published bot); on a press frame exactly
//! one of Left, Right, A, B or nothing is pressed, on the other frames nothing, and Down never.
//! The schedule is fixed by the count of frames since the piece's first input frame, not by
//! the last press: that is the literal reading of docs/spec/search.md ("on every other frame exactly
//! one of …, and nothing on the frames between"), and a player who skips a press frame waits
//! for the next one. A first piece's entry-delay frames are input frames and follow the same
//! schedule (Down, which would end the delay, is never pressed). In the state, both
//! cooldowns then hold the frames to the next press frame: 0 on a press frame, and after any
//! frame from 0 (a press or not) T − 1, counting down to 0 again. The inputs tried are the
//! two-thumb list's one-button frames without Down: nothing, B, A, Left, Right (the same
//! blocked-press and orientation rules). `Gamepad::expand_article` is its fast step.
//!
//! **Input timelines** (`FrameTiming::timeline`, docs/spec/search.md §3 "Input timelines"). A
//! timeline's gaps g₀, g₁, …, gₙ₋₁ (frames from each `X` to the next, cyclically) generalise
//! the tap rate, which is the one-gap timeline. Two thumbs: each thumb has a phase p, the gap
//! its next press starts (0 at the spawn); a press sets its cooldown to g_p − 1 and its phase
//! to p + 1 (mod n). The article's model: the wait counts down to press frame number p (the
//! timeline's `X` number p), and a press frame starts the wait g_p − 1 for the next one. So a
//! state also holds the two phases (each in the high bits of its thumb's byte,
//! `shift_thumb` and `rotate_thumb`, whose low bits are the cooldown; equal under the
//! article's model), cooldowns run over `0..S` with S the longest gap, and the phases are part
//! of a state's group (states compared by dominance have the same phases: a state with a shorter
//! cooldown and the same phase can do whatever the other can, as before; across phases that
//! is not so). A uniform timeline has n = 1 and every phase 0, so its states, their numbering,
//! the order they are visited in and so every placement and path are those of the tap rate
//! before timelines existed; the hot steps (`Gamepad::expand`, `Gamepad::expand_article`,
//! `Gamepad::visit`) have a `MIXED` const parameter whose false copy, used for a uniform
//! timeline, leaves the phases out of its arithmetic, so that the tap rate's search costs
//! what it did (a first version that always kept them cost 4.3 % more instructions in a whole
//! NES game, callgrind). The table of gaps is `Gaps`. A press counts only when it moves or
//! turns the piece (a blocked press is not tried, as above): under a mixed timeline a press
//! against the wall would advance the thumb's phase, which a player could use to reach a
//! short gap sooner; the search models a player who presses only to move the piece
//! (docs/spec/search.md says so).
//!
//! **Visited once, in frame layers.** States are numbered densely and a bitset marks the
//! visited ones. The search runs one frame layer at a time (layer t: the states first reached
//! after t frames), and each layer is kept in row order (top rows first; within a row, in the
//! order the states were discovered, i.e. by their parents' order and then the input order
//! above). A state's successors are on its row or the next, so the next layer comes out as
//! two lists already in row order, merged in linear time. Each lock state is first found on a
//! path with the fewest frames; placements come out in the order they are found. The bitset is
//! cleared through the queue after each search and every buffer is kept between searches, so a
//! search allocates nothing once the buffers have grown. Legality is one bit test in
//! per-search bitboards of legal pivot rows per (column, rotation), as in the BFS.
//!
//! **The open band.** Let B be the number of empty rows at the top less one: in pivot rows
//! `0..B` every orientation fits in every column. What happens there does not depend on the
//! board: a state in the band is reached only from band states (rows never go up), with the
//! same legal moves as on the empty board, and its dominators (below) are in its own row. By
//! induction over the layers, layer t's band states, in row order, are exactly the empty
//! board's layer t restricted to rows `0..B`, and they form the start of the layer (row
//! order). So the search on the empty board of the same height is run once per piece, entry
//! delay and timing and kept (the band cache); on a board with B ≥ 2 only the cached states of
//! the band's last row are expanded, for their drops (into row B, or a lock when row B is
//! blocked there), and the states below the band are searched as usual. Placements and paths
//! are identical to the plain search (a test compares them on random boards, timings and
//! entry delays); paths that start in the band follow their parents into the cache. The cache
//! is skipped when the empty board's search has more than 65,536 states (levels 0 to 6: 18
//! frames per row and more), where it would cost megabytes per piece; under a mixed timeline,
//! whose states are many more, the bound is 524,288 (`MAX_CACHED_STATES_MIXED`: levels 18 and
//! up for `X....X...X...`, at most about 7 MB per piece), since without the cache the current
//! piece's search was a third of a NES game's time there.
//!
//! **Dominated states.** A state whose cooldowns are both no shorter than those of a state
//! already visited at the same position, timer and Down phase is skipped: the earlier state
//! can mimic it (press nothing while the later one waits) and reach the same states on the
//! same frames, so no placement and no shortest path is lost. The bits of one state's
//! cooldown pairs are one group of a power-of-two width (S² rounded up, S the longest gap, the
//! tap rate of a uniform timeline: at most 64 for the slowest, 8), so the check is one masked
//! word test and the push is branch-free.
//! It skips 15 % of the states at level 19 (T on the empty board: 8,916 → 7,601).
//!
//! Under the article's model this dominance is not valid and is switched off (each cooldown
//! pair's mask is its own bit): with a fixed schedule, pressing nothing on a press frame does
//! not keep the right to press on the next frame, so a state with a shorter wait cannot
//! mimic one with a longer wait (at T = 2, wait 0 presses on frames 0, 2, 4, … from now and
//! wait 1 on frames 1, 3, 5, …: neither can do what the other does). In fact, without soft
//! drop a state's row and fall timer fix the frames it has fallen, hence its place in the
//! schedule, so two states at one position and timer never differ in their wait and the
//! dominance check would never fire; switching it off keeps the search right without relying
//! on that (a test compares the placements with a brute force over the literal frame model).
//!
//! **Timing per search.** The frames per row and the timeline come with each search
//! (`SearchOptions::frame_timing`, or the searcher's default timing when it is `None`), not from
//! state set on the searcher beforehand. The state numbering, the dominance masks and the band
//! caches depend on the timing (its input model included) and the board height, so they are
//! rebuilt when either differs from the previous search's and kept otherwise: a game changes
//! its timing once (at the transition to level 29), and between changes a search allocates
//! nothing.
//!
//! **The last search is kept.** A game driver asks for the chosen placement's path right
//! after the decision searched the same piece on the same board in the same context (without
//! paths). An ordered search's states and locks are a function of the board, the piece, the
//! timing (input model included), the entry delay, whether the spawn may overlap (the
//! game-over rule) and the played frames (below), nothing else; so they are kept, with that key, until the next ordered
//! search, and a search with the same key only reads them again (for the placements, and the
//! paths if asked). The visited bits are cleared when the next search with another key
//! starts. The unordered flood (below) leaves them alone.
//!
//! **Played frames** (`SearchOptions::played`). A player with a reaction time has played
//! some frames of a piece before it plans again (docs/spec/search.md §3, "Reaction time"). The
//! search steps those frames from the spawn with the same one-frame step as its own paths
//! (`Gamepad::state_after`), which gives the state they leave: position, rotation, fall timer,
//! Down phase, and each thumb's cooldown and phase. Then it searches from that one state as
//! from a spawn, and its paths are the frames after the played ones. Frames the search could
//! not have played itself (a press while its thumb waits, a blocked press, a shift with Down
//! held, a button it never presses) or that lock the piece give no placement. The played
//! frames are part of the kept search's key. The unordered search floods from the same state
//! (the `flood` module's design note, "Played frames"), which leaves the kept search alone.
//!
//! **Band caches after played frames.** The open band's argument above holds for any start
//! in the band, not only the spawn: from a state on a pivot row below B (the band's rows on
//! this board), the states of rows `0..B` are reached only from band states, with the empty
//! board's moves, so layer t's band states are the empty board's layer t from the same start,
//! restricted to those rows, and come first in the layer. The band cache from the spawn does
//! not serve (the search starts elsewhere); building one from the empty board per start
//! would cost a second search, since the starts a reaction time leaves vary (a whole
//! level-18 game of setting (c) searches from 560 starts, 187 of them different). So the
//! cache comes from the search that is made anyway: the first search from a start (in a
//! band of B ≥ 2 rows) runs plainly and keeps, layer by layer, its states of rows `0..B` (a
//! prefix of each layer), each parent's queue position moved by its layer's offset in the
//! cache, and B. A later search from the same state on a board whose band has B′ rows runs
//! banded with min(B, B′) rows (any band no deeper than the board's is one), unless B′ > B + 1,
//! when it runs plainly and keeps the deeper band instead. The caches keep at most 2^20 states
//! in all (`MAX_PLAYED_CACHE_STATES`, about 21 MB) and 512 starts; the oldest go first. They
//! are forgotten with the numbering. Placements and paths are the plain search's: a test
//! compares them over starts after 6, 18 and 30 frames of the empty board's paths on random
//! boards, with bands deeper and shallower than the caches' and more caches made than kept.
//! 1.7 % fewer instructions on the first 40 lines of setting (c), 1.3 % in its whole game.
//!
//! **Later pieces: the unordered flood.** The lookahead chain searches the preview piece once
//! per placement of the current one, and needs only the set of its placements
//! ([`Searcher::search_unordered`]). The submodule `flood` computes that set a whole row of
//! (column, rotation) states at a time, in one pass from the top row down, with the same
//! moves; its design note says why the set is exactly this search's.
//!
//! **Recent unordered searches** (submodule `recent`). Many of those sets are asked for again
//! a decision later: the finalist a decision plays searched the 7 unknown pieces on each
//! board its preview's placements leave, and the next decision, whose current piece is that
//! preview, searches its own preview (one of the 7) on those same boards. An unordered search
//! from the spawn is a function of its board, piece, timing and game-over rule, so its
//! placements are kept in a direct-mapped table of 4,096 slots by a hash of board and piece
//! (one allocation: at most 48 placements a slot, as 3-byte states), and given again, in the
//! same order, when the same key comes back. Not for played frames (their start is part of
//! the state), nor under the test switches; natively only. On setting (c)'s first 40 lines:
//! 3.4 % fewer instructions (2,100,772,347 → 2,028,482,561); 2,048 slots keep fewer of them
//! (2,034,796,668), 16,384 no more (2,029,801,421).
//!
//! **Sizes.** At level 19 (2 frames per row) and 30 Hz on 20 rows there are 20 × 10 × 4 × 2 ×
//! 3 × 2 × 2 = 19,200 states; at level 0 (48 frames per row) 460,800. A mixed timeline with n
//! gaps, the longest S, has n² × S² cooldown and phase combinations in place of T²: 225 for
//! `X....X...X...` (n = 3, S = 5) against 4 at 30 Hz, of which 169 (13², one thumb state per
//! frame of the timeline) can be reached. The empty board's search then visits 159,675
//! states at level 19 (7,601 at 30 Hz) and 339,005 at level 18.
//!
//! **Speed.** `Gamepad::expand` does the work the 12 inputs share once per state, which is
//! faster than stepping input by input (`Gamepad::expand_generic`, kept for the entry delay
//! and as the test oracle), and the band cache skips most of the empty rows. Measure with
//! `cargo bench -p tetris-search-bfs --bench gamepad`; the figures are in
//! docs/performance.md's table (they go stale in a doc comment).
//!
//! Over 600 lines on purpose: the design note, the per-frame expansion in its three timing models
//! and the band cache are one search whose invariants (see the note) span them all; the rest is its
//! unit tests.

mod earliest;
mod flood;
mod recent;

use crate::{BlockedColumns, legal_pivot_rows, legal_words_of};
use tetris_core::NamedSearcher;
use tetris_core::{
    BOARD_WIDTH, Board, Buttons, FrameTiming, Input, InputModel, Piece, PieceState, Placement,
    Placements, SPAWN_X, SPAWN_Y, SearchOptions, Searcher,
};

/// Frames without gravity at the start of a game's first piece.
const ENTRY_DELAY_FRAMES: u8 = tetris_core::frames::ENTRY_DELAY_FRAMES;
/// Column slots of the legality words: the 10 columns plus an empty wall slot on each side.
const COLUMN_SLOTS: usize = BOARD_WIDTH + 2;
/// Rotation slots per column.
const ROTATION_SLOTS: usize = 4;
/// One word of legal pivot rows per (column slot, rotation).
const LEGAL_SLOTS: usize = COLUMN_SLOTS * ROTATION_SLOTS;
/// Soft-drop phases: Down released, or held with the game's counter at 1 or 2.
const DOWN_PHASES: usize = 3;
/// A parent reference with this bit set points into the band cache, not the queue.
const CACHED: u32 = 1 << 31;
/// The spawn state's parent.
const NO_PARENT: u32 = u32::MAX;
/// The most states a band cache keeps (per piece and entry delay). The empty board's search
/// visits, for the T at 30 Hz, 3,295 states at level 29, 7,601 at 19, 54,967 at 7 (13 frames
/// per row), 76,497 at 6 and 205,677 at 0: the cache serves levels 7 and up, and below a
/// cache would cost megabytes per piece.
const MAX_CACHED_STATES: usize = 1 << 16;
/// The most states a band cache keeps under a mixed timeline, whose states are many more
/// (see "Sizes" in the design note): for `X....X...X...` the empty board's search visits
/// 31,050 states at level 29, 159,675 at 19 and 339,005 at 18 (3 frames per row), at most
/// about 7 MB per piece. Without the cache, the current piece's search was about a third of
/// a NES game's time at 18 to 19 under that timeline.
const MAX_CACHED_STATES_MIXED: usize = 1 << 19;
/// The most states the band caches of searches after played frames keep in all (see
/// "Played frames" in the design note; 20 bytes a state, so at most about 21 MB); the
/// oldest go first. A whole level-18 game with 18 frames played (setting (c) of
/// docs/nes-benchmark.md) searches from 560 such starts, 187 of them different, each keeping
/// about a thousand states.
const MAX_PLAYED_CACHE_STATES: usize = 1 << 20;
/// The most band caches of searches after played frames kept, so that finding one stays
/// cheap next to a search.
const MAX_PLAYED_CACHES: usize = 512;

/// Pivot rows that are "open" on `board`: the top rows where every orientation fits in
/// every column (its cells reach one row below the pivot, so pivot row y is open when rows up
/// to y + 1 are empty): the number of empty top rows less one, or 0. Also 0 on a console board
/// with a cell on its hidden rows, where the band would not play as on the empty board.
fn open_band_rows(board: &Board) -> i8 {
    if board.hidden_rows() != 0 {
        return 0;
    }
    let occupied = (0..BOARD_WIDTH).fold(0u32, |rows, x| rows | board.column(x));
    let empty_rows = occupied.trailing_zeros().min(u32::from(board.height()));
    empty_rows.saturating_sub(1) as i8
}

/// One per-frame state of the falling piece (see the design note).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct FrameState {
    x: i8,
    y: i8,
    rotation: u8,
    /// Frames since the spawn or the last drop, below the frames per row (outside the entry
    /// delay).
    fall_timer: u8,
    /// 0 with Down released, else the game's soft-drop counter (1 or 2).
    down: u8,
    /// The Left/Right thumb: the frames it must still wait before its next press (its
    /// cooldown, the low 4 bits) and its phase in the timeline's gaps (the high 4 bits: its
    /// next press starts gap number phase; always 0 for a uniform timeline, so that the byte
    /// is the cooldown alone, as before timelines existed). Under the article's model, the
    /// wait for the next press frame and the number of that press frame's `X`.
    shift_thumb: u8,
    /// The A/B thumb, as `shift_thumb` (the same byte under the article's model).
    rotate_thumb: u8,
    /// Frames of the first piece's entry delay still to come (0 outside it).
    delay_left: u8,
}

/// The cooldown bits of a thumb's byte (`FrameState::shift_thumb`); the phase is above them.
const WAIT_BITS: u8 = 0x0F;

/// Whether a thumb must still wait. With `MIXED` false (a uniform timeline, phase 0) the byte
/// is the cooldown.
#[inline(always)]
const fn waiting<const MIXED: bool>(thumb: u8) -> bool {
    if MIXED {
        thumb & WAIT_BITS != 0
    } else {
        thumb != 0
    }
}

/// A thumb after a frame without its press: one frame less to wait, the phase kept.
#[inline(always)]
const fn rest<const MIXED: bool>(thumb: u8) -> u8 {
    if waiting::<MIXED>(thumb) {
        thumb - 1
    } else {
        thumb
    }
}

/// One visited state in breadth-first order.
#[derive(Clone, Copy, Debug, Default)]
struct Node {
    state: FrameState,
    /// The word of its bit in the visited bitset (kept to clear it after the search).
    word: u32,
    /// The queue position of the state it was first reached from (`u32::MAX` for the spawn).
    parent: u32,
    /// The buttons held on the frame that led here.
    buttons: Buttons,
}

/// A lock found by the search.
#[derive(Clone, Copy, Debug)]
struct Lock {
    state: PieceState,
    /// The queue position of the state whose frame locked the piece.
    parent: u32,
    /// The buttons held on the lock frame.
    buttons: Buttons,
}

/// The inputs of one frame: a shift (−1, 0, +1), a turn and whether Down is held.
#[derive(Clone, Copy, Debug)]
struct FrameInput {
    shift: i8,
    turn: Turn,
    down: bool,
}

/// A rotation press.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Turn {
    None,
    /// B.
    Counterclockwise,
    /// A.
    Clockwise,
}

impl FrameInput {
    /// The buttons held during the frame.
    fn buttons(self) -> Buttons {
        let mut buttons = Buttons::NONE;
        if self.shift < 0 {
            buttons = buttons.with(Buttons::LEFT);
        } else if self.shift > 0 {
            buttons = buttons.with(Buttons::RIGHT);
        }
        match self.turn {
            Turn::None => {}
            Turn::Counterclockwise => buttons = buttons.with(Buttons::B),
            Turn::Clockwise => buttons = buttons.with(Buttons::A),
        }
        if self.down {
            buttons = buttons.with(Buttons::DOWN);
        }
        buttons
    }
}

/// The inputs tried from every state, in order (see the design note).
const FRAME_INPUTS: [FrameInput; 12] = {
    const fn input(shift: i8, turn: Turn, down: bool) -> FrameInput {
        FrameInput { shift, turn, down }
    }
    [
        input(0, Turn::None, false),
        input(0, Turn::Counterclockwise, false),
        input(0, Turn::Clockwise, false),
        input(-1, Turn::None, false),
        input(-1, Turn::Counterclockwise, false),
        input(-1, Turn::Clockwise, false),
        input(1, Turn::None, false),
        input(1, Turn::Counterclockwise, false),
        input(1, Turn::Clockwise, false),
        input(0, Turn::None, true),
        input(0, Turn::Counterclockwise, true),
        input(0, Turn::Clockwise, true),
    ]
};

/// The inputs tried from every state under the article's input model, in order: the
/// two-thumb list without the frames that press two buttons or Down (see the design note).
const ARTICLE_INPUTS: [FrameInput; 5] = [
    FRAME_INPUTS[0],
    FRAME_INPUTS[1],
    FRAME_INPUTS[2],
    FRAME_INPUTS[3],
    FRAME_INPUTS[6],
];

/// The most gaps a timeline has: one per `X`, at most one `X` every 2 of its 32 frames.
const MAX_GAPS: usize = tetris_core::Timeline::MAX_FRAMES / 2;

/// A timeline's gaps as the search steps through them (see "Input timelines" in the design
/// note): a thumb in phase p that presses waits gap p − 1 more frames and goes on to phase
/// p + 1 (wrapping). A uniform timeline of tap rate T has one phase, with cooldown T − 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Gaps {
    /// Per phase, the thumb's byte after a press in it: the gap less one (the cooldown) in
    /// the low bits, the next phase in the high bits ([`WAIT_BITS`]).
    after_press: [u8; MAX_GAPS],
    /// The number of phases (the timeline's gaps).
    count: u8,
    /// Cooldown values run over `0..slots`: the longest gap.
    slots: u8,
}

impl Gaps {
    /// The one gap of tap rate `tap_rate`.
    const fn uniform(tap_rate: u8) -> Gaps {
        let mut after_press = [0; MAX_GAPS];
        after_press[0] = tap_rate - 1;
        Gaps {
            after_press,
            count: 1,
            slots: tap_rate,
        }
    }

    /// The gaps of `timeline`.
    fn new(timeline: tetris_core::Timeline) -> Gaps {
        let mut gaps = Gaps {
            after_press: [0; MAX_GAPS],
            count: timeline.gap_count(),
            slots: timeline.longest_gap(),
        };
        for (phase, gap) in timeline.gaps().enumerate() {
            let next = ((phase + 1) % usize::from(gaps.count)) as u8;
            gaps.after_press[phase] = (gap - 1) | next << 4;
        }
        gaps
    }

    /// A thumb's byte after it presses (`MIXED` false: phase 0, the only one).
    #[inline(always)]
    fn press_thumb<const MIXED: bool>(&self, thumb: u8) -> u8 {
        self.after_press[if MIXED { usize::from(thumb >> 4) } else { 0 }]
    }

    /// Under the article's input model, the thumbs' byte after a frame from `thumb`: a press
    /// frame (wait 0) starts the wait for the next one whether or not anything is pressed on
    /// it, any other frame counts the wait down.
    #[inline(always)]
    fn article_wait<const MIXED: bool>(&self, thumb: u8) -> u8 {
        if waiting::<MIXED>(thumb) {
            thumb - 1
        } else {
            self.press_thumb::<MIXED>(thumb)
        }
    }

    /// The (cooldown, phase) of a thumb after it presses in `phase` (the flood's words keep
    /// them apart).
    #[inline(always)]
    fn after_press(&self, phase: u8) -> (u8, u8) {
        let thumb = self.after_press[usize::from(phase) % MAX_GAPS];
        (thumb & WAIT_BITS, thumb >> 4)
    }

    /// Under the article's input model, the (wait, phase) after a frame that started `wait`
    /// frames before press frame number `phase` (wait 0: the frame was that press frame).
    #[inline(always)]
    fn next_press_wait(&self, wait: u8, phase: u8) -> (u8, u8) {
        if wait == 0 {
            self.after_press(phase)
        } else {
            (wait - 1, phase)
        }
    }
}

/// What one frame did to a state.
enum Step {
    /// The piece is still falling, in this state.
    Falling(FrameState),
    /// The frame's drop failed: the piece locks here.
    Locked(PieceState),
}

/// The gamepad searcher: every placement reachable under NES gravity with one-frame taps at a
/// given tap rate and input model ([`InputModel`]), each with its per-frame button list
/// (`Input::Frame`, one per frame from the first input frame to the lock frame).
#[derive(Clone, Debug)]
pub struct Gamepad {
    /// The timing of searches whose options give none ([`Gamepad::with_timing`]).
    default_timing: FrameTiming,
    /// The timing of the current search (from its options, or the default); the numbering
    /// and the band caches are made for it ([`Gamepad::number_states`]).
    search_timing: FrameTiming,
    /// Its timeline's gaps.
    gaps: Gaps,
    /// Legal pivot rows (bit y) per (column slot, rotation) for the current search.
    legal: [u64; LEGAL_SLOTS],
    /// Lock states found (bit y) per (column slot, rotation) for the current search.
    locked: [u64; COLUMN_SLOTS * ROTATION_SLOTS],
    /// One bit per state number; all clear between searches.
    visited: Vec<u64>,
    /// Groups (states without their cooldowns) numbered from this one on are entry-delay
    /// states.
    delay_base: usize,
    /// Bits per group in `visited`: the cooldown slots (the longest gap) squared, rounded up to
    /// a power of two so that a group never straddles two words.
    group_bits: usize,
    /// Per cooldown pair (shift × slots + rotation), the group bits of the pairs that are
    /// no longer in either thumb, itself included: a state is skipped when any is visited.
    dominating: Vec<u64>,
    /// The board height and timing the numbering (and the band caches) were made for.
    numbered_for: (u8, FrameTiming),
    /// Every state visited, frame layer after frame layer, each layer in row order.
    queue: Vec<Node>,
    /// The next frame layer's states that stay on their row, in discovery order (entries
    /// beyond the first `stay_length` are scratch: the vectors only grow, so that a push
    /// needs no branch).
    stay: Vec<Node>,
    stay_length: usize,
    /// The next frame layer's states that dropped a row, in discovery order.
    dropped: Vec<Node>,
    dropped_length: usize,
    /// Per piece and entry delay (off, on): the empty board's layers, shared by every board
    /// whose top rows are empty (see the design note).
    band_caches: [[BandCache; 2]; 7],
    /// The band's layers from states that played frames left a piece in (see "Played
    /// frames" in the design note), the oldest first.
    played_caches: Vec<PlayedBandCache>,
    /// The states `played_caches` keep in all, and the most they may keep (a test switch:
    /// [`MAX_PLAYED_CACHE_STATES`] but in tests of the replacement).
    played_cache_states: usize,
    most_played_cache_states: usize,
    /// Scratch: where each layer of a search after played frames starts in `queue`.
    played_layer_starts: Vec<u32>,
    /// The band cache the kept search's states refer to (its paths follow them).
    band_source: BandSource,
    locks: Vec<Lock>,
    /// Scratch for one path, built backwards.
    path: Vec<Buttons>,
    /// Test switches: expand every state through the one-input step, never use the band
    /// caches.
    generic_steps: bool,
    plain_only: bool,
    /// States the last search queued (for tests).
    last_visits: usize,
    /// The unordered search's buffers (module `flood`).
    flood: flood::Flood,
    /// What the states in `queue` and `locks` are the search of, until the next ordered
    /// search (see "The last search is kept" in the design note).
    kept: Option<SearchKey>,
    /// Recent unordered searches from the spawn, given again when searched again (module
    /// `recent`).
    recent: recent::RecentSearches,
}

/// Everything an ordered search's states and locks depend on: the board, the piece, the
/// timing (input model included), the entry delay, whether the spawn may overlap (the
/// game-over rule) and the frames already played. Whether paths are wanted changes only what is read from them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct SearchKey {
    board: Board,
    piece: Piece,
    timing: FrameTiming,
    entry_delay: bool,
    spawn_may_overlap: bool,
    played: tetris_core::PlayedFrames,
}

/// Which band cache a search reads, and its paths follow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BandSource {
    /// The empty board's search from the spawn, with or without the entry delay.
    Spawn { entry_delay: bool },
    /// The empty board's search from where played frames left the piece: the entry of
    /// `Gamepad::played_caches` at this index.
    Played(usize),
}

/// The band's states of the search of one piece from one state that frames played left it
/// in, the empty board's as every board's with that band (see "Played frames" in the design
/// note).
#[derive(Clone, Debug)]
struct PlayedBandCache {
    piece: Piece,
    start: FrameState,
    /// The band's pivot rows `0..band_rows` whose states `cache` holds.
    band_rows: i8,
    /// Always `BandCache::Layers`.
    cache: BandCache,
}

impl PlayedBandCache {
    /// The states it keeps.
    fn states(&self) -> usize {
        match &self.cache {
            BandCache::Layers { nodes, .. } => nodes.len(),
            _ => 0,
        }
    }
}

/// The empty board's search for one piece, layer by layer (see the design note).
#[derive(Clone, Debug, Default)]
enum BandCache {
    /// Not built yet for the current numbering.
    #[default]
    Missing,
    /// Too many states to keep (slow gravity): boards are searched plainly.
    TooLarge,
    /// The empty board's states, frame layer after frame layer, each layer in row order.
    Layers {
        nodes: Vec<Node>,
        /// Where each layer starts in `nodes`, then the end.
        layer_starts: Vec<u32>,
    },
}

impl Gamepad {
    /// The tap rates it simulates (uniform timelines; every gap of a mixed one is in the same
    /// range, [`tetris_core::Timeline::GAPS`]): from 2 frames between presses (30 per second;
    /// a button must be released for a frame before it counts as pressed again) to 8 (7.5 per
    /// second; slower players use the delayed auto shift, which this search does not model).
    /// The bound also keeps a state's cooldown pairs (at most 8 × 8) in one 64-bit word.
    pub const TAP_RATES: std::ops::RangeInclusive<u8> = tetris_core::Timeline::GAPS;

    /// A searcher at the NES plateau's timing: level 19 (2 frames per row), 30 Hz tapping.
    pub fn new() -> Gamepad {
        Gamepad::with_timing(FrameTiming::LEVEL_19_30_HZ)
    }

    /// A searcher simulating `timing` by default: in every search whose options give no
    /// timing ([`SearchOptions::frame_timing`] `None`).
    ///
    /// # Panics
    /// If the frames per row are 0 (as does a search given such a timing).
    pub fn with_timing(timing: FrameTiming) -> Gamepad {
        check_timing(timing);
        Gamepad {
            default_timing: timing,
            search_timing: timing,
            gaps: Gaps::new(timing.timeline),
            legal: [0; LEGAL_SLOTS],
            locked: [0; COLUMN_SLOTS * ROTATION_SLOTS],
            visited: Vec::new(),
            delay_base: 0,
            group_bits: 0,
            dominating: Vec::new(),
            numbered_for: (0, timing),
            queue: Vec::new(),
            stay: Vec::new(),
            stay_length: 0,
            dropped: Vec::new(),
            dropped_length: 0,
            band_caches: Default::default(),
            played_caches: Vec::new(),
            played_cache_states: 0,
            most_played_cache_states: MAX_PLAYED_CACHE_STATES,
            played_layer_starts: Vec::new(),
            band_source: BandSource::Spawn { entry_delay: false },
            locks: Vec::new(),
            path: Vec::new(),
            generic_steps: false,
            plain_only: false,
            last_visits: 0,
            flood: flood::Flood::default(),
            kept: None,
            recent: recent::RecentSearches::default(),
        }
    }

    /// The default timing: what it simulates when a search's options give no timing.
    pub fn timing(&self) -> FrameTiming {
        self.default_timing
    }

    /// Makes `timing` the current search's and sizes the visited bitset for `height` rows at
    /// it, only when the height or the timing differs from the last search's (so that a game
    /// allocates once per level speed); a change also empties the band caches, which were
    /// made for the old numbering.
    ///
    /// # Panics
    /// If `timing` is out of range (see [`check_timing`]).
    fn number_states(&mut self, height: u8, timing: FrameTiming) {
        if self.numbered_for == (height, timing) && !self.visited.is_empty() {
            return;
        }
        check_timing(timing);
        self.search_timing = timing;
        self.gaps = Gaps::new(timing.timeline);
        let tap = usize::from(self.gaps.slots);
        self.group_bits = (tap * tap).next_power_of_two();
        let article = self.search_timing.inputs == InputModel::Article;
        self.dominating = (0..tap * tap)
            .map(|pair| {
                if article {
                    // No dominance under a fixed schedule (see the design note): a state
                    // is skipped only when it was visited itself.
                    return 1 << pair;
                }
                let (shift_wait, rotate_wait) = (pair / tap, pair % tap);
                let mut bits = 0u64;
                for shorter_shift in 0..=shift_wait {
                    for shorter_rotate in 0..=rotate_wait {
                        bits |= 1 << (shorter_shift * tap + shorter_rotate);
                    }
                }
                bits
            })
            .collect();
        let positions = usize::from(height) * BOARD_WIDTH * ROTATION_SLOTS;
        let phase_pairs = usize::from(self.gaps.count) * usize::from(self.gaps.count);
        self.delay_base =
            positions * usize::from(self.search_timing.frames_per_row) * DOWN_PHASES * phase_pairs;
        let delay_groups =
            usize::from(ENTRY_DELAY_FRAMES) * BOARD_WIDTH * ROTATION_SLOTS * phase_pairs;
        self.visited = vec![0; ((self.delay_base + delay_groups) * self.group_bits).div_ceil(64)];
        self.numbered_for = (height, self.search_timing);
        self.band_caches = Default::default();
        self.played_caches.clear();
        self.played_cache_states = 0;
    }

    /// The dense number of a state's group (the state without its cooldowns); the
    /// entry-delay groups come after all the others. The thumbs' phases are the most
    /// significant part after the entry delay (all 0 for a uniform timeline, which numbers its
    /// states as before timelines existed).
    #[inline(always)]
    fn group_index<const MIXED: bool>(&self, state: &FrameState) -> usize {
        let phases = if MIXED {
            usize::from(state.shift_thumb >> 4) * usize::from(self.gaps.count)
                + usize::from(state.rotate_thumb >> 4)
        } else {
            0
        };
        if state.delay_left > 0 {
            let position = ((phases * usize::from(ENTRY_DELAY_FRAMES)
                + usize::from(state.delay_left - 1))
                * BOARD_WIDTH
                + state.x as usize)
                * ROTATION_SLOTS
                + usize::from(state.rotation);
            return self.delay_base + position;
        }
        let position = ((phases * usize::from(self.numbered_for.0) + state.y as usize)
            * BOARD_WIDTH
            + state.x as usize)
            * ROTATION_SLOTS
            + usize::from(state.rotation);
        let timed = position * usize::from(self.search_timing.frames_per_row)
            + usize::from(state.fall_timer);
        timed * DOWN_PHASES + usize::from(state.down)
    }

    /// Fills `legal` with the legal pivot rows of every (column, rotation) of `piece`.
    fn compute_legal(&mut self, board: &Board, piece: Piece) {
        let blocked = BlockedColumns::new(board);
        if flood::WRITTEN_OUT {
            // One copy per piece, its orientations' cells constants (as the plain search's).
            let legal = &mut self.legal;
            return match piece {
                Piece::T => legal_words_of::<{ Piece::T as usize }, LEGAL_SLOTS>(&blocked, legal),
                Piece::J => legal_words_of::<{ Piece::J as usize }, LEGAL_SLOTS>(&blocked, legal),
                Piece::Z => legal_words_of::<{ Piece::Z as usize }, LEGAL_SLOTS>(&blocked, legal),
                Piece::O => legal_words_of::<{ Piece::O as usize }, LEGAL_SLOTS>(&blocked, legal),
                Piece::S => legal_words_of::<{ Piece::S as usize }, LEGAL_SLOTS>(&blocked, legal),
                Piece::L => legal_words_of::<{ Piece::L as usize }, LEGAL_SLOTS>(&blocked, legal),
                Piece::I => legal_words_of::<{ Piece::I as usize }, LEGAL_SLOTS>(&blocked, legal),
            };
        }
        self.legal = [0; LEGAL_SLOTS];
        for rotation in 0..piece.orientation_count() {
            let cells = piece.cells(rotation);
            for x in 0..BOARD_WIDTH as i8 {
                self.legal[slot(x, rotation)] = legal_pivot_rows(&blocked, cells, x);
            }
        }
    }

    /// Whether the piece fits at (`x`, `y`, `rotation`) (`x` may be one past a wall).
    #[inline]
    fn fits(&self, x: i8, y: i8, rotation: u8) -> bool {
        self.legal[slot(x, rotation)] >> y & 1 != 0
    }

    /// One frame from `state` with `input` (which must respect the cooldowns and never shift
    /// with Down held); `None` when a press would be blocked (not worth trying).
    #[inline]
    fn step(&self, piece: Piece, state: &FrameState, input: FrameInput) -> Option<Step> {
        let frames_per_row = self.search_timing.frames_per_row;
        let article = self.search_timing.inputs == InputModel::Article;
        let mut next = *state;
        if input.shift != 0 {
            if !self.fits(state.x + input.shift, state.y, state.rotation) {
                return None;
            }
            next.x += input.shift;
            next.shift_thumb = self.gaps.press_thumb::<true>(state.shift_thumb);
        } else {
            next.shift_thumb = rest::<true>(state.shift_thumb);
        }
        if input.turn != Turn::None {
            let turned = if input.turn == Turn::Clockwise {
                piece.clockwise(state.rotation)
            } else {
                piece.counterclockwise(state.rotation)
            };
            if !self.fits(next.x, next.y, turned) {
                return None;
            }
            next.rotation = turned;
            next.rotate_thumb = self.gaps.press_thumb::<true>(state.rotate_thumb);
        } else {
            next.rotate_thumb = rest::<true>(state.rotate_thumb);
        }
        if article {
            // The fixed schedule: both counts are the frames to the next press frame, and a
            // press frame starts a new wait whether or not it pressed anything.
            let wait = self.gaps.article_wait::<true>(state.shift_thumb);
            (next.shift_thumb, next.rotate_thumb) = (wait, wait);
        }
        let mut fall_timer = if state.delay_left > 0 {
            // The game's fall timer counts every frame since the spawn.
            ENTRY_DELAY_FRAMES - state.delay_left + 1
        } else {
            state.fall_timer + 1
        };
        let mut soft_drop = false;
        if state.delay_left > 0 && !input.down {
            next.delay_left -= 1;
            // After the last delay frame the timer is past any frames per row: the next frame
            // drops, which `frames_per_row − 1` says as well inside the numbered range.
            next.fall_timer = frames_per_row - 1;
            return Some(Step::Falling(next));
        }
        // Down pressed during the delay ends it, as a fresh press with Down released before.
        next.delay_left = 0;
        let down_before = if state.delay_left > 0 { 0 } else { state.down };
        if !input.down {
            next.down = 0;
        } else if down_before == 0 {
            next.down = 1;
        } else if down_before == 1 {
            next.down = 2;
        } else {
            next.down = 1;
            soft_drop = true;
        }
        if !soft_drop && fall_timer < frames_per_row {
            next.fall_timer = fall_timer;
            return Some(Step::Falling(next));
        }
        fall_timer = 0;
        next.fall_timer = fall_timer;
        if self.fits(next.x, next.y + 1, next.rotation) {
            next.y += 1;
            Some(Step::Falling(next))
        } else {
            Some(Step::Locked(PieceState {
                x: next.x,
                y: next.y,
                rotation: next.rotation,
            }))
        }
    }

    /// Marks `state` visited and adds it to the next layer's `dropped` or `stay` list,
    /// unless it or a state that dominates it was visited before: the same state with
    /// shorter or equal cooldowns, reached no later (it can do everything this one can, on
    /// the same frames, by pressing nothing while this one waits; so skipping this one loses
    /// no placement and no shortest path). Branch-free: the node is always written after the
    /// list's last one and counted only when new.
    /// `DROPPED` says which list (a constant at every hot call site, so the choice costs
    /// nothing there); `MIXED` false says the timeline is uniform (every phase 0), which saves
    /// the phases' arithmetic on the hot path (true is right for every timeline).
    #[inline(always)]
    fn visit<const DROPPED: bool, const MIXED: bool>(
        &mut self,
        state: FrameState,
        parent: u32,
        buttons: Buttons,
    ) {
        let group_start = self.group_index::<MIXED>(&state) * self.group_bits;
        let (shift_wait, rotate_wait) = if MIXED {
            (
                state.shift_thumb & WAIT_BITS,
                state.rotate_thumb & WAIT_BITS,
            )
        } else {
            (state.shift_thumb, state.rotate_thumb)
        };
        let pair =
            usize::from(shift_wait) * usize::from(self.gaps.slots) + usize::from(rotate_wait);
        let (word, offset) = (group_start / 64, group_start % 64);
        let group = self.visited[word] >> offset;
        let new = group & self.dominating[pair] == 0;
        self.visited[word] |= u64::from(new) << (offset + pair);
        let node = Node {
            state,
            word: word as u32,
            parent,
            buttons,
        };
        let (list, length) = if DROPPED {
            (&mut self.dropped, &mut self.dropped_length)
        } else {
            (&mut self.stay, &mut self.stay_length)
        };
        if *length == list.len() {
            list.push(Node::default());
        }
        list[*length] = node;
        *length += usize::from(new);
    }

    /// Appends the next layer to `queue` in row order: the `dropped` and `stay` lists are
    /// each in row order already (their parents were), and on a shared row the dropped states
    /// were discovered first (their parents are one row higher), so a merge that takes
    /// `dropped` first on ties keeps discovery order within each row.
    fn append_next_layer(&mut self) {
        let (mut stay, mut dropped) = (0, 0);
        while stay < self.stay_length || dropped < self.dropped_length {
            let take_dropped = dropped < self.dropped_length
                && (stay == self.stay_length
                    || self.dropped[dropped].state.y <= self.stay[stay].state.y);
            if take_dropped {
                self.queue.push(self.dropped[dropped]);
                dropped += 1;
            } else {
                self.queue.push(self.stay[stay]);
                stay += 1;
            }
        }
        self.stay_length = 0;
        self.dropped_length = 0;
    }

    /// Expands the queue's `layer` (after whatever was expanded for this frame already) and
    /// appends the next layer; returns where it is in the queue.
    fn next_layer(
        &mut self,
        piece: Piece,
        layer: std::ops::Range<usize>,
    ) -> std::ops::Range<usize> {
        for head in layer.clone() {
            self.expand_any(piece, head as u32, self.queue[head].state, false);
        }
        let next = layer.end;
        self.append_next_layer();
        next..self.queue.len()
    }

    /// The spawn state, the first layer.
    fn spawn_state(entry_delay: bool) -> FrameState {
        FrameState {
            x: SPAWN_X,
            y: SPAWN_Y,
            rotation: 0,
            fall_timer: 0,
            down: 0,
            shift_thumb: 0,
            rotate_thumb: 0,
            delay_left: if entry_delay { ENTRY_DELAY_FRAMES } else { 0 },
        }
    }

    /// The state the frames `played` leave the piece and the player in, from the spawn
    /// (with the entry delay if `entry_delay`), each frame stepped as the search steps it (see
    /// "Played frames" in the design note); `None` when a frame is not one the search could
    /// play (a press while its thumb waits, a blocked press, a shift with Down held, both
    /// shifts or both turns at once, a button it never presses) or when one locks the piece.
    fn state_after(
        &self,
        piece: Piece,
        entry_delay: bool,
        played: &[Buttons],
    ) -> Option<FrameState> {
        const PRESSED: u8 =
            Buttons::LEFT.0 | Buttons::RIGHT.0 | Buttons::DOWN.0 | Buttons::A.0 | Buttons::B.0;
        let article = self.search_timing.inputs == InputModel::Article;
        let mut state = Self::spawn_state(entry_delay);
        for &buttons in played {
            let held = |button: Buttons| buttons.contains(button);
            let shift = i8::from(held(Buttons::RIGHT)) - i8::from(held(Buttons::LEFT));
            let turn = match (held(Buttons::A), held(Buttons::B)) {
                (false, false) => Turn::None,
                (true, false) => Turn::Clockwise,
                (false, true) => Turn::Counterclockwise,
                (true, true) => return None,
            };
            let input = FrameInput {
                shift,
                turn,
                down: held(Buttons::DOWN),
            };
            let shifts = held(Buttons::LEFT) || held(Buttons::RIGHT);
            let playable = buttons.0 & !PRESSED == 0
                && !(held(Buttons::LEFT) && held(Buttons::RIGHT))
                && !(shifts && (input.down || waiting::<true>(state.shift_thumb)))
                && !(turn != Turn::None && waiting::<true>(state.rotate_thumb))
                && !(article && (input.down || (shifts && turn != Turn::None)));
            if !playable {
                return None;
            }
            match self.step(piece, &state, input)? {
                Step::Falling(next) => state = next,
                Step::Locked(_) => return None,
            }
        }
        Some(state)
    }

    /// The breadth-first search over frames from `start` (the spawn, or where the played
    /// frames left the piece), one frame layer at a time, each layer in row order; fills
    /// `queue` and `locks`, and `layer_starts` (if given) with where each layer starts in
    /// `queue`, then its end.
    fn flood_plain(
        &mut self,
        piece: Piece,
        start: FrameState,
        mut layer_starts: Option<&mut Vec<u32>>,
    ) {
        self.visit::<false, true>(start, NO_PARENT, Buttons::NONE);
        self.append_next_layer();
        let mut layer = 0..self.queue.len();
        while !layer.is_empty() {
            if let Some(starts) = layer_starts.as_deref_mut() {
                starts.push(layer.start as u32);
            }
            layer = self.next_layer(piece, layer);
        }
        if let Some(starts) = layer_starts {
            starts.push(self.queue.len() as u32);
        }
    }

    /// The same search on a board whose top `band_rows + 1` rows are empty (at least 2
    /// band rows, and the search's start in them), with the states of the band's pivot rows
    /// taken from the empty board's search from the same start, `source` (see the design
    /// note): only the band's last row is expanded, for its drops, and the states below the
    /// band are searched as usual. Returns false, having done nothing, when the empty board's
    /// search is too large to keep.
    fn flood_banded(
        &mut self,
        board: &Board,
        piece: Piece,
        source: BandSource,
        band_rows: i8,
    ) -> bool {
        let cache = std::mem::take(self.band_cache_mut(piece, source));
        let cache = match (cache, source) {
            (BandCache::Missing, BandSource::Spawn { entry_delay }) => {
                self.build_band_cache(board, piece, entry_delay)
            }
            (cache, _) => cache,
        };
        let BandCache::Layers {
            nodes,
            layer_starts,
        } = &cache
        else {
            *self.band_cache_mut(piece, source) = cache;
            return false;
        };
        self.band_source = source;
        let mut layer = 0..0;
        for band in layer_starts.windows(2) {
            let cached = &nodes[band[0] as usize..band[1] as usize];
            let last_row = cached.partition_point(|node| node.state.y < band_rows - 1);
            let below = cached.partition_point(|node| node.state.y < band_rows);
            for (offset, node) in cached[last_row..below].iter().enumerate() {
                let reference = CACHED | (band[0] + (last_row + offset) as u32);
                self.expand_any(piece, reference, node.state, true);
            }
            layer = self.next_layer(piece, layer);
        }
        while !layer.is_empty() {
            layer = self.next_layer(piece, layer);
        }
        *self.band_cache_mut(piece, source) = cache;
        true
    }

    /// The band cache of `source` for `piece`.
    fn band_cache_mut(&mut self, piece: Piece, source: BandSource) -> &mut BandCache {
        match source {
            BandSource::Spawn { entry_delay } => {
                &mut self.band_caches[piece.index()][usize::from(entry_delay)]
            }
            BandSource::Played(index) => &mut self.played_caches[index].cache,
        }
    }

    /// The search after played frames from `start`, in the band of `band_rows` pivot rows
    /// (at least 2, `start` in them; see "Played frames" in the design note): banded when a
    /// cache from `start` holds the band's rows, or all but one of them (the band is then
    /// taken a row shorter); otherwise plainly, and the band's states are kept.
    fn flood_after_played(
        &mut self,
        board: &Board,
        piece: Piece,
        start: FrameState,
        band_rows: i8,
    ) {
        let kept = self
            .played_caches
            .iter()
            .position(|kept| kept.piece == piece && kept.start == start);
        if let Some(index) = kept {
            let rows = band_rows.min(self.played_caches[index].band_rows);
            if rows + 1 >= band_rows
                && start.y < rows
                && self.flood_banded(board, piece, BandSource::Played(index), rows)
            {
                return;
            }
            let removed = self.played_caches.remove(index);
            self.played_cache_states -= removed.states();
        }
        let mut layer_starts = std::mem::take(&mut self.played_layer_starts);
        layer_starts.clear();
        self.flood_plain(piece, start, Some(&mut layer_starts));
        self.keep_played_band(piece, start, band_rows, &layer_starts);
        self.played_layer_starts = layer_starts;
    }

    /// Keeps the band's states of the plain search just made from `start` (its layers start
    /// at `layer_starts` in `queue`) as a band cache: each layer's states in rows
    /// `0..band_rows` come first in it, and their parents are such states of the layer
    /// before, so each parent's position moves by its layer's. The oldest caches go to make
    /// room.
    fn keep_played_band(
        &mut self,
        piece: Piece,
        start: FrameState,
        band_rows: i8,
        layer_starts: &[u32],
    ) {
        let mut nodes = Vec::new();
        let mut starts = Vec::new();
        // Where the layer before starts in `queue` and in `nodes`.
        let mut before = (0, 0);
        for layer in layer_starts.windows(2) {
            let states = &self.queue[layer[0] as usize..layer[1] as usize];
            let band = states.partition_point(|node| node.state.y < band_rows);
            if band == 0 {
                // No band state now, none later: they are reached only from band states.
                break;
            }
            starts.push(nodes.len() as u32);
            nodes.extend(states[..band].iter().map(|&node| Node {
                parent: match node.parent {
                    NO_PARENT => NO_PARENT,
                    parent => parent - before.0 + before.1,
                },
                ..node
            }));
            before = (layer[0], *starts.last().expect("just pushed"));
        }
        starts.push(nodes.len() as u32);
        let states = nodes.len();
        if states > self.most_played_cache_states {
            return;
        }
        while self.played_caches.len() >= MAX_PLAYED_CACHES
            || self.played_cache_states + states > self.most_played_cache_states
        {
            let oldest = self.played_caches.remove(0);
            self.played_cache_states -= oldest.states();
        }
        self.played_cache_states += states;
        self.played_caches.push(PlayedBandCache {
            piece,
            start,
            band_rows,
            cache: BandCache::Layers {
                nodes,
                layer_starts: starts,
            },
        });
    }

    /// Searches the empty board of `board`'s height and keeps its layers (if they are few
    /// enough), leaving the searcher ready for `board` again.
    fn build_band_cache(&mut self, board: &Board, piece: Piece, entry_delay: bool) -> BandCache {
        let empty = Board::new(usize::from(board.height())).expect("the board's own height");
        self.compute_legal(&empty, piece);
        let mut layer_starts = Vec::new();
        self.flood_plain(
            piece,
            Self::spawn_state(entry_delay),
            Some(&mut layer_starts),
        );
        let limit = if self.gaps.count > 1 {
            MAX_CACHED_STATES_MIXED
        } else {
            MAX_CACHED_STATES
        };
        let cache = if self.queue.len() <= limit {
            BandCache::Layers {
                nodes: self.queue.clone(),
                layer_starts,
            }
        } else {
            BandCache::TooLarge
        };
        self.clear_search();
        self.compute_legal(board, piece);
        cache
    }

    /// The ordered search's flood of `board` for `piece` at `timing` (see the design note),
    /// leaving its states in `queue` and its locks in `locks` (kept until the next search).
    fn flood_ordered(
        &mut self,
        board: &Board,
        piece: Piece,
        options: SearchOptions,
        timing: FrameTiming,
    ) {
        self.number_states(board.height(), timing);
        self.compute_legal(board, piece);
        // A plain search refers to no cache; a banded one says which it read.
        self.band_source = BandSource::Spawn {
            entry_delay: options.entry_delay,
        };
        // Under the console rule a spawn that overlaps may still move out: the search starts
        // there anyway, every move tests only its target (as the game does), and a lock is
        // recorded only where the piece is legal (`record_lock`). An overlapping spawn has an
        // occupied cell on row 0 or 1, so the band is empty and the plain flood runs.
        let spawn_counts =
            self.fits(SPAWN_X, SPAWN_Y, 0) || options.game_over_rule.spawn_may_overlap();
        if !options.played.is_empty() {
            // Played frames: the plain flood from where they left the piece (the band
            // cache holds the searches from the spawn).
            let played = options.played;
            let start = spawn_counts
                .then(|| self.state_after(piece, options.entry_delay, played.as_slice()))
                .flatten();
            if let Some(start) = start {
                // From a start in the band, the band's states are the empty board's from the
                // same start: band caches of their own (see "Played frames").
                let band_rows = open_band_rows(board);
                if !self.plain_only && band_rows >= 2 && start.y < band_rows {
                    self.flood_after_played(board, piece, start, band_rows);
                } else {
                    self.flood_plain(piece, start, None);
                }
            }
        } else if spawn_counts {
            let band_rows = open_band_rows(board);
            let source = BandSource::Spawn {
                entry_delay: options.entry_delay,
            };
            let banded = !self.plain_only
                && band_rows >= 2
                && self.flood_banded(board, piece, source, band_rows);
            if !banded {
                self.flood_plain(piece, Self::spawn_state(options.entry_delay), None);
            }
        }
        self.last_visits = self.queue.len();
    }

    /// Clears the visited bits, the queue and the locks for the next search.
    fn clear_search(&mut self) {
        for node in &self.queue {
            self.visited[node.word as usize] = 0;
        }
        self.queue.clear();
        self.locks.clear();
        self.locked = [0; COLUMN_SLOTS * ROTATION_SLOTS];
    }

    /// Queues the successors of `state` (`parent` refers to it): through
    /// [`Gamepad::expand`], or the one-input step for entry-delay states (and in tests).
    /// With `drops_only`, successors that stay on the state's row are left out (the band
    /// cache has them).
    #[inline]
    fn expand_any(&mut self, piece: Piece, parent: u32, state: FrameState, drops_only: bool) {
        if state.delay_left == 0 && !self.generic_steps {
            match (self.search_timing.inputs, self.gaps.count > 1) {
                (InputModel::TwoThumb, false) => {
                    self.expand::<false>(piece, parent, state, drops_only)
                }
                (InputModel::TwoThumb, true) => {
                    self.expand::<true>(piece, parent, state, drops_only)
                }
                (InputModel::Article, false) => {
                    self.expand_article::<false>(piece, parent, state, drops_only)
                }
                (InputModel::Article, true) => {
                    self.expand_article::<true>(piece, parent, state, drops_only)
                }
            }
        } else {
            self.expand_generic(piece, parent, state, drops_only);
        }
    }

    /// Queues the successors of `state` input by input through [`Gamepad::step`]: used for
    /// the entry delay's states, and in tests as the oracle of [`Gamepad::expand`].
    fn expand_generic(&mut self, piece: Piece, parent: u32, state: FrameState, drops_only: bool) {
        let turns = piece.orientation_count();
        let inputs: &[FrameInput] = match self.search_timing.inputs {
            InputModel::TwoThumb => &FRAME_INPUTS,
            InputModel::Article => &ARTICLE_INPUTS,
        };
        for &input in inputs {
            if (input.shift != 0 && waiting::<true>(state.shift_thumb))
                || (input.turn != Turn::None && waiting::<true>(state.rotate_thumb))
                || (input.turn == Turn::Clockwise && turns < 4)
                || (input.turn == Turn::Counterclockwise && turns < 2)
            {
                continue;
            }
            match self.step(piece, &state, input) {
                None => {}
                Some(Step::Falling(next)) => {
                    let dropped = next.y > state.y;
                    if dropped || !drops_only {
                        if dropped {
                            self.visit::<true, true>(next, parent, input.buttons());
                        } else {
                            self.visit::<false, true>(next, parent, input.buttons());
                        }
                    }
                }
                Some(Step::Locked(lock)) => self.record_lock(lock, parent, input.buttons()),
            }
        }
    }

    /// Queues the successors of `state` (outside the entry delay) under the article's input
    /// model, in the order of [`ARTICLE_INPUTS`] with the same results as
    /// [`Gamepad::expand_generic`]: on a press frame nothing, B, A, Left or Right (each only
    /// when legal), on the frames between nothing; Down released, so only gravity drops.
    #[inline]
    fn expand_article<const MIXED: bool>(
        &mut self,
        piece: Piece,
        parent: u32,
        state: FrameState,
        drops_only: bool,
    ) {
        let timer = state.fall_timer + 1;
        let drops = timer >= self.search_timing.frames_per_row;
        if drops_only && !drops {
            return;
        }
        let wait = self.gaps.article_wait::<MIXED>(state.shift_thumb);
        let presses: &[FrameInput] = if !waiting::<MIXED>(state.shift_thumb) {
            &ARTICLE_INPUTS
        } else {
            &ARTICLE_INPUTS[..1]
        };
        let turns = piece.orientation_count();
        let y = state.y;
        for &input in presses {
            let x = state.x + input.shift;
            let rotation = match input.turn {
                Turn::None => state.rotation,
                Turn::Counterclockwise if turns >= 2 => piece.counterclockwise(state.rotation),
                Turn::Clockwise if turns >= 4 => piece.clockwise(state.rotation),
                _ => continue,
            };
            let pressed = input.shift != 0 || input.turn != Turn::None;
            if pressed && !self.fits(x, y, rotation) {
                continue;
            }
            let buttons = input.buttons();
            let mut next = FrameState {
                x,
                y,
                rotation,
                fall_timer: if drops { 0 } else { timer },
                down: 0,
                shift_thumb: wait,
                rotate_thumb: wait,
                delay_left: 0,
            };
            if !drops {
                self.visit::<false, MIXED>(next, parent, buttons);
            } else if self.fits(x, y + 1, rotation) {
                next.y += 1;
                self.visit::<true, MIXED>(next, parent, buttons);
            } else {
                self.record_lock(PieceState { x, y, rotation }, parent, buttons);
            }
        }
    }

    /// Queues the successors of `state` (outside the entry delay), in the order of
    /// [`FRAME_INPUTS`] with the same results as [`Gamepad::expand_generic`], but with the work
    /// the inputs share (the drop rule, the legality of each shift and turn) done once: this
    /// loop is the search's hot path.
    #[inline]
    fn expand<const MIXED: bool>(
        &mut self,
        piece: Piece,
        parent: u32,
        state: FrameState,
        drops_only: bool,
    ) {
        let timer = state.fall_timer + 1;
        let gravity = timer >= self.search_timing.frames_per_row;
        // (Down phase after the frame, whether the frame drops) with Down released, then held.
        let released = (0u8, gravity);
        let held = match state.down {
            0 => (1, gravity),
            1 => (2, gravity),
            _ => (1, true),
        };
        let shift_rest = rest::<MIXED>(state.shift_thumb);
        let rotate_rest = rest::<MIXED>(state.rotate_thumb);
        let rotate_pressed = self.gaps.press_thumb::<MIXED>(state.rotate_thumb);
        // The turns in input order (none, B, A), each as (rotation after, button, rotation
        // thumb after); the first `turn_count` may be pressed (two orientations: B only; the O
        // and a rotation thumb still waiting: none).
        let turn_options = [
            (state.rotation, Buttons::NONE, rotate_rest),
            (
                piece.counterclockwise(state.rotation),
                Buttons::B,
                rotate_pressed,
            ),
            (piece.clockwise(state.rotation), Buttons::A, rotate_pressed),
        ];
        let turn_count = match piece.orientation_count() {
            _ if waiting::<MIXED>(state.rotate_thumb) => 1,
            4 => 3,
            2 => 2,
            _ => 1,
        };
        let (phase, turns) = ((timer, shift_rest), &turn_options[..turn_count]);
        if !drops_only || gravity {
            self.expand_phase::<false, MIXED>(parent, &state, released, phase, turns);
        }
        if !drops_only || held.1 {
            self.expand_phase::<true, MIXED>(parent, &state, held, phase, turns);
        }
    }

    /// [`Gamepad::expand`]'s frames with Down released (`DOWN` false: nothing, a turn, a
    /// shift or both) or held (true: nothing or a turn), in input order. The first pair is (the
    /// Down phase after the frame, whether it drops), the second (the fall timer after a frame
    /// that does not drop, the shift cooldown after a frame without a shift); `turns` are the
    /// turns that may be pressed as (rotation, button, rotation thumb after). `DOWN` is a
    /// const parameter so that each of the two copies knows its buttons and whether it may
    /// shift; `MIXED` as in [`Gamepad::visit`].
    #[inline(always)]
    fn expand_phase<const DOWN: bool, const MIXED: bool>(
        &mut self,
        parent: u32,
        state: &FrameState,
        (down_phase, drops): (u8, bool),
        (timer, shift_rest): (u8, u8),
        turns: &[(u8, Buttons, u8)],
    ) {
        // The shifts in input order (none, Left, Right) as (column step, button).
        const SHIFTS: [(i8, Buttons); 3] =
            [(0, Buttons::NONE), (-1, Buttons::LEFT), (1, Buttons::RIGHT)];
        let shift_pressed = self.gaps.press_thumb::<MIXED>(state.shift_thumb);
        let y = state.y;
        let down_button = if DOWN { Buttons::DOWN } else { Buttons::NONE };
        // Never a shift with Down held, nor while the shift thumb waits.
        let shift_count = if DOWN || waiting::<MIXED>(state.shift_thumb) {
            1
        } else {
            3
        };
        for &(shift, shift_button) in &SHIFTS[..shift_count] {
            let x = state.x + shift;
            if shift != 0 && !self.fits(x, y, state.rotation) {
                continue;
            }
            let shift_thumb = if shift != 0 {
                shift_pressed
            } else {
                shift_rest
            };
            for (turn, &(rotation, turn_button, rotate_thumb)) in turns.iter().enumerate() {
                if turn != 0 && !self.fits(x, y, rotation) {
                    continue;
                }
                let buttons = shift_button.with(turn_button).with(down_button);
                let mut next = FrameState {
                    x,
                    y,
                    rotation,
                    fall_timer: if drops { 0 } else { timer },
                    down: down_phase,
                    shift_thumb,
                    rotate_thumb,
                    delay_left: 0,
                };
                // The same ending as `expand_article`'s, written out in both: as a shared
                // `#[inline(always)]` method it cost 4.6 % more instructions in a whole
                // NES game (callgrind), the bounds checks of the legal-word lookup no
                // longer folded into the shift's.
                if !drops {
                    self.visit::<false, MIXED>(next, parent, buttons);
                } else if self.fits(x, y + 1, rotation) {
                    next.y += 1;
                    self.visit::<true, MIXED>(next, parent, buttons);
                } else {
                    self.record_lock(PieceState { x, y, rotation }, parent, buttons);
                }
            }
        }
    }

    /// Records a lock state the first time it is reached, if the piece is legal there: a
    /// lock that overlaps ends the game on the console (docs/spec/nes-facts.md §6), so it is not a
    /// placement. (Only a piece that spawned overlapping, under the console rule, and never
    /// moved can lock overlapping: every move tests its target.)
    #[inline]
    fn record_lock(&mut self, lock: PieceState, parent: u32, buttons: Buttons) {
        let legal = self.fits(lock.x, lock.y, lock.rotation);
        let word = &mut self.locked[slot(lock.x, lock.rotation)];
        if legal && *word >> lock.y & 1 == 0 {
            *word |= 1 << lock.y;
            self.locks.push(Lock {
                state: lock,
                parent,
                buttons,
            });
        }
    }

    /// Builds the button list of `lock` backwards into `path`, following parents through the
    /// queue and then, above the band, through the band cache the search read.
    fn reversed_path(&mut self, piece: Piece, lock: Lock) {
        self.path.clear();
        self.path.push(lock.buttons);
        let cache = match self.band_source {
            BandSource::Spawn { entry_delay } => {
                &self.band_caches[piece.index()][usize::from(entry_delay)]
            }
            BandSource::Played(index) => &self.played_caches[index].cache,
        };
        let cached_nodes: &[Node] = match cache {
            BandCache::Layers { nodes, .. } => nodes,
            _ => &[],
        };
        let mut at = lock.parent;
        while at != NO_PARENT {
            let node = if at & CACHED != 0 {
                cached_nodes[(at & !CACHED) as usize]
            } else {
                self.queue[at as usize]
            };
            if node.parent != NO_PARENT {
                self.path.push(node.buttons);
            }
            // Inside the cache, parents are cache positions.
            at = if at & CACHED != 0 && node.parent != NO_PARENT {
                node.parent | CACHED
            } else {
                node.parent
            };
        }
    }
}

impl Default for Gamepad {
    fn default() -> Self {
        Gamepad::new()
    }
}

/// Checks that the search can simulate `timing`.
///
/// # Panics
/// If the frames per row are 0 (gravity needs at least one frame per row). Every timeline's
/// gaps are in [`Gamepad::TAP_RATES`] ([`tetris_core::Timeline`] refuses others: below 2 a
/// button is never released between presses; above 8 a state's cooldown pairs no longer fit
/// one 64-bit word of the visited bitset).
fn check_timing(timing: FrameTiming) {
    assert!(
        timing.frames_per_row >= 1,
        "gravity needs at least 1 frame per row"
    );
}

/// The legality word of (`x`, `rotation`), with the wall slots at x = −1 and x = 10.
#[inline]
const fn slot(x: i8, rotation: u8) -> usize {
    (x + 1) as usize * ROTATION_SLOTS + rotation as usize
}

impl NamedSearcher for Gamepad {
    const NAME: &'static str = "gamepad";
    const DESCRIPTION: &'static str =
        "per-frame NES search with gravity and input-timeline limits (search.md §3)";

    fn with_default_settings() -> Gamepad {
        Gamepad::new()
    }
}

impl Searcher for Gamepad {
    fn name(&self) -> &str {
        Gamepad::NAME
    }

    /// Searches at `options.frame_timing`, or the default timing when it is `None`.
    ///
    /// # Panics
    /// If that timing's frames per row are 0.
    fn search(
        &mut self,
        board: &Board,
        piece: Piece,
        options: SearchOptions,
        out: &mut Placements,
    ) {
        out.clear(options.with_paths);
        let timing = options.frame_timing.unwrap_or(self.default_timing);
        let key = SearchKey {
            board: *board,
            piece,
            timing,
            entry_delay: options.entry_delay,
            spawn_may_overlap: options.game_over_rule.spawn_may_overlap(),
            played: options.played,
        };
        if self.kept != Some(key) {
            self.kept = None;
            self.clear_search();
            self.flood_ordered(board, piece, options, timing);
            self.kept = Some(key);
        }
        for index in 0..self.locks.len() {
            let lock = self.locks[index];
            let placement = Placement::new(piece, lock.state);
            if options.with_paths {
                self.reversed_path(piece, lock);
                out.push_with_path(placement, self.path.iter().rev().map(|&b| Input::Frame(b)));
            } else {
                out.push(placement);
            }
        }
    }

    /// Without paths (and, unless frames were played, without the entry delay), the
    /// row-by-row flood of the `flood` module, from the spawn or from the state the played
    /// frames left (the same placements, in row, rotation, column order); otherwise
    /// [`Gamepad::search`]'s ordered search.
    fn search_unordered(
        &mut self,
        board: &Board,
        piece: Piece,
        options: SearchOptions,
        out: &mut Placements,
    ) {
        self.search_reachable(board, piece, options, out);
    }

    /// The unordered search gives row, rotation, column order, not the frame order.
    fn unordered_search_keeps_order(&self) -> bool {
        false
    }

    /// The default timing ([`Gamepad::timing`]).
    fn frame_timing(&self) -> Option<FrameTiming> {
        Some(self.default_timing)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tetris_core::{GameOverRule, Timeline};

    /// A fixed xorshift sequence from `seed`, for random boards.
    pub(super) fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        }
    }

    /// Boards with random stacks from a fixed xorshift seed, and the empty board.
    fn boards() -> Vec<Board> {
        let mut next = xorshift(0x2545_F491_4F6C_DD1D);
        let mut boards = vec![Board::standard()];
        for _ in 0..16 {
            let mut board = Board::standard();
            let stack = 2 + (next() % 17) as usize;
            for y in 20 - stack..20 {
                for x in 0..10 {
                    if next() % 100 < 50 {
                        board.set(x, y);
                    }
                }
            }
            boards.push(board);
        }
        boards
    }

    /// The per-piece legal words (`legal_words_of`, natively) against the general loop the
    /// browser's module runs, written out here as the oracle: every word of every piece.
    #[test]
    fn legal_words_per_piece_equal_the_general_loop() {
        let mut gamepad = Gamepad::new();
        for board in boards() {
            let blocked = BlockedColumns::new(&board);
            for piece in Piece::ALL {
                gamepad.compute_legal(&board, piece);
                let mut looped = [0; LEGAL_SLOTS];
                for rotation in 0..piece.orientation_count() {
                    for x in 0..BOARD_WIDTH as i8 {
                        looped[slot(x, rotation)] =
                            legal_pivot_rows(&blocked, piece.cells(rotation), x);
                    }
                }
                assert_eq!(gamepad.legal, looped, "{piece:?} on\n{board}");
            }
        }
    }

    /// Each `(frames per row, timeline)` of `timings` under every input model.
    fn every_input_model(timings: &[(u8, &str)]) -> Vec<FrameTiming> {
        InputModel::ALL
            .into_iter()
            .flat_map(|inputs| {
                timings
                    .iter()
                    .map(move |&(frames_per_row, timeline)| FrameTiming {
                        frames_per_row,
                        timeline: timeline.parse().unwrap(),
                        inputs,
                    })
            })
            .collect()
    }

    /// Mixed timelines with frames per row: StackRabbit's 13.5 Hz, its gaps in another order,
    /// a fast one with three phases and a long one, at level 19's gravity and others.
    const MIXED: [(u8, &str); 4] = [
        (2, "X....X...X..."),
        (1, "X...X....X..."),
        (3, "X.X..X..."),
        (2, "X.......X.X.."),
    ];

    #[test]
    fn the_band_cache_changes_nothing_but_the_time() {
        let timings = [
            (2, "X."),
            (1, "X."),
            (3, "X.."),
            (2, "X......."),
            (6, "X..."),
        ];
        for timing in every_input_model(&[&timings[..], &MIXED].concat()) {
            let mut banded = Gamepad::with_timing(timing);
            let mut plain = Gamepad::with_timing(timing);
            plain.plain_only = true;
            let (mut banded_out, mut plain_out) = (Placements::new(), Placements::new());
            for board in boards() {
                for piece in Piece::ALL {
                    for entry_delay in [false, true] {
                        let options = SearchOptions {
                            with_paths: true,
                            entry_delay,
                            frame_timing: None,
                            ..SearchOptions::default()
                        };
                        banded.search(&board, piece, options, &mut banded_out);
                        plain.search(&board, piece, options, &mut plain_out);
                        assert_eq!(banded_out.as_slice(), plain_out.as_slice());
                        for index in 0..banded_out.len() {
                            assert_eq!(banded_out.path(index), plain_out.path(index));
                        }
                    }
                }
            }
        }
    }

    /// From the frames a reaction time plays (the first 6, 18 and 30 frames of some of the
    /// empty board's paths, with and without the first piece's entry delay, and frames of
    /// nothing), the band caches of played frames give
    /// the plain search's placements and paths, on boards of open bands deeper and shallower
    /// than the cache's and with more caches made than the states kept allow; and they are
    /// used: fewer states are queued.
    #[test]
    fn the_played_frames_band_caches_change_nothing_but_the_time() {
        let mut replaced = false;
        for timing in every_input_model(&[(2, "X."), (3, "X."), (2, "X.."), (1, "X.")]) {
            let mut banded = Gamepad::with_timing(timing);
            let mut plain = Gamepad::with_timing(timing);
            plain.plain_only = true;
            // Few enough states kept that the oldest caches go.
            banded.most_played_cache_states = 20_000;
            let (mut spawn, mut banded_out, mut plain_out) =
                (Placements::new(), Placements::new(), Placements::new());
            let (mut banded_visits, mut plain_visits) = (0, 0);
            // Every cache made (by its start and band), with its states.
            let mut made = std::collections::BTreeMap::new();
            // The first piece's frames played inside its entry delay, too (for two pieces: its
            // generic steps make those searches slow).
            let delayed = [(Piece::T, true), (Piece::I, true)];
            let without_delay = Piece::ALL.map(|piece| (piece, false));
            for (piece, entry_delay) in without_delay.into_iter().chain(delayed) {
                let with_paths = SearchOptions {
                    with_paths: true,
                    entry_delay,
                    ..SearchOptions::default()
                };
                plain.search(&Board::standard(), piece, with_paths, &mut spawn);
                let mut played: Vec<Vec<Buttons>> = (0..spawn.len())
                    .step_by(5)
                    .flat_map(|index| {
                        let path: Vec<Buttons> = spawn
                            .path(index)
                            .unwrap()
                            .iter()
                            .map(|input| input.frame().unwrap())
                            .collect();
                        [6, 18, 30].map(|frames| path[..frames.min(path.len() - 1)].to_vec())
                    })
                    .collect();
                played.push(vec![Buttons::NONE; 18]);
                for frames in &played {
                    let options = SearchOptions {
                        played: tetris_core::PlayedFrames::new(frames).unwrap(),
                        ..with_paths
                    };
                    for board in boards() {
                        banded.search(&board, piece, options, &mut banded_out);
                        plain.search(&board, piece, options, &mut plain_out);
                        assert_eq!(banded_out.as_slice(), plain_out.as_slice());
                        for index in 0..banded_out.len() {
                            assert_eq!(banded_out.path(index), plain_out.path(index));
                        }
                        banded_visits += banded.last_visits;
                        plain_visits += plain.last_visits;
                        for kept in &banded.played_caches {
                            let FrameState {
                                x,
                                y,
                                rotation,
                                fall_timer,
                                down,
                                delay_left,
                                ..
                            } = kept.start;
                            let state = (x, y, rotation, fall_timer, down, delay_left);
                            let thumbs = (kept.start.shift_thumb, kept.start.rotate_thumb);
                            let key = (kept.piece.index(), state, thumbs, kept.band_rows);
                            made.insert(key, kept.states());
                        }
                    }
                }
            }
            assert!(banded_visits < plain_visits, "{timing:?}");
            assert!(banded.played_cache_states <= 20_000);
            replaced |= made.values().sum::<usize>() > 20_000;
        }
        assert!(replaced);
    }

    /// `boards()` and console boards near the top: the spawn overlapping a full column (so
    /// that the piece may move out under the console rule), hidden cells above the field,
    /// and stacks two or three rows from the top (an open band of 0 or 1 rows).
    pub(super) fn boards_with_console_ones() -> Vec<Board> {
        let mut boards = boards();
        let mut column_6 = Board::standard().with_hidden_rows();
        for y in 0..20 {
            column_6.set(6, y);
        }
        boards.push(column_6);
        let mut hidden = Board::standard().with_hidden_rows();
        hidden.set_hidden(3, -1);
        hidden.set_hidden(7, -2);
        hidden.set(0, 19);
        boards.push(hidden);
        for top in [1, 2, 3] {
            let mut high = Board::standard();
            for y in top..20 {
                for x in 0..10 {
                    if (x * 7 + y * 3) % 5 < 2 {
                        high.set(x, y);
                    }
                }
            }
            boards.push(high);
        }
        boards
    }

    #[test]
    fn the_unordered_flood_finds_exactly_the_ordered_searchs_placements() {
        let timings = [
            (2, "X."),
            (1, "X."),
            (3, "X.."),
            (2, "X......."),
            (6, "X..."),
            (48, "X."),
        ];
        for timing in every_input_model(&[&timings[..], &MIXED].concat()) {
            // One searcher that floods with the band entries, one without, one ordered.
            let mut banded = Gamepad::with_timing(timing);
            let mut plain = Gamepad::with_timing(timing);
            plain.plain_only = true;
            let mut ordered = Gamepad::with_timing(timing);
            let mut out = Placements::new();
            for board in boards_with_console_ones() {
                for piece in Piece::ALL {
                    for game_over_rule in [GameOverRule::Simulation, GameOverRule::Console] {
                        let options = SearchOptions {
                            game_over_rule,
                            ..SearchOptions::default()
                        };
                        ordered.search(&board, piece, options, &mut out);
                        let mut expected = out.as_slice().to_vec();
                        expected.sort_by_key(|placement| placement.state());
                        for flood in [&mut banded, &mut plain] {
                            flood.search_unordered(&board, piece, options, &mut out);
                            let mut found = out.as_slice().to_vec();
                            found.sort_by_key(|placement| placement.state());
                            assert_eq!(found, expected, "{piece} at {timing:?}\n{board}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_search_repeated_or_interleaved_finds_what_a_fresh_searcher_finds() {
        // The kept search is read again only under the same key: every search of a sequence
        // that repeats some (with and without paths) and interleaves others (another board,
        // piece, timing, entry delay, rule, and unordered floods) gives a fresh searcher's
        // placements and paths.
        let boards = boards_with_console_ones();
        let article = FrameTiming {
            inputs: InputModel::Article,
            ..FrameTiming::LEVEL_19_30_HZ
        };
        let mut reused = Gamepad::new();
        let (mut reused_out, mut fresh_out) = (Placements::new(), Placements::new());
        let mut step = 0usize;
        for board in &boards {
            for piece in Piece::ALL {
                for (with_paths, entry_delay, timing, game_over_rule, unordered) in [
                    (false, false, None, GameOverRule::Simulation, false),
                    (true, false, None, GameOverRule::Simulation, false),
                    (false, false, None, GameOverRule::Simulation, true),
                    (true, false, None, GameOverRule::Simulation, false),
                    (true, true, None, GameOverRule::Simulation, false),
                    (true, false, Some(article), GameOverRule::Simulation, false),
                    (true, false, None, GameOverRule::Console, false),
                    (true, false, None, GameOverRule::Simulation, false),
                ] {
                    step += 1;
                    // Every other step searches another board in between.
                    if step % 2 == 0 {
                        let other = &boards[step % boards.len()];
                        reused.search(other, Piece::J, SearchOptions::default(), &mut reused_out);
                    }
                    let options = SearchOptions {
                        played: tetris_core::PlayedFrames::NONE,
                        with_paths,
                        entry_delay,
                        frame_timing: timing,
                        game_over_rule,
                    };
                    if unordered {
                        reused.search_unordered(board, piece, options, &mut reused_out);
                        continue;
                    }
                    reused.search(board, piece, options, &mut reused_out);
                    Gamepad::new().search(board, piece, options, &mut fresh_out);
                    assert_eq!(reused_out.as_slice(), fresh_out.as_slice());
                    for index in 0..fresh_out.len() {
                        assert_eq!(reused_out.path(index), fresh_out.path(index));
                    }
                }
            }
        }
    }

    /// Kept unordered searches (module `recent`) are given again exactly: one searcher
    /// searches every board twice over, each time under two timings, two game-over rules
    /// (the spawn may overlap under one) and on the board with and without hidden rows, and
    /// every answer equals the plain flood's (the test switch, which keeps nothing). The
    /// second round must find most of them kept (as many as a uniform hash leaves).
    #[test]
    fn recent_searches_are_given_again_as_they_were() {
        let timings = [
            FrameTiming::LEVEL_19_30_HZ,
            FrameTiming {
                frames_per_row: 3,
                timeline: Timeline::uniform(5),
                inputs: InputModel::TwoThumb,
            },
        ];
        let mut keeping = Gamepad::new();
        let mut plain = Gamepad::new();
        plain.plain_only = true;
        let (mut kept_found, mut searches) = (0, 0);
        let (mut out, mut expected) = (Placements::new(), Placements::new());
        for round in 0..2 {
            for board in boards() {
                for board in [board, board.with_hidden_rows()] {
                    for piece in Piece::ALL {
                        for timing in timings {
                            for rule in [GameOverRule::Simulation, GameOverRule::Console] {
                                let options = SearchOptions {
                                    with_paths: false,
                                    entry_delay: false,
                                    frame_timing: Some(timing),
                                    game_over_rule: rule,
                                    played: tetris_core::PlayedFrames::NONE,
                                };
                                let key = recent::RecentKey {
                                    board,
                                    piece,
                                    timing,
                                    spawn_may_overlap: rule.spawn_may_overlap(),
                                };
                                if round == 1 {
                                    searches += 1;
                                    let slot = recent::RecentSearches::slot_of(&key);
                                    kept_found += usize::from(keeping.recent.give(
                                        slot,
                                        &key,
                                        &mut Placements::new(),
                                    ));
                                }
                                keeping.search_unordered(&board, piece, options, &mut out);
                                plain.search_unordered(&board, piece, options, &mut expected);
                                assert_eq!(
                                    out.as_slice(),
                                    expected.as_slice(),
                                    "{piece} at {timing:?} under {rule:?} on\n{board}"
                                );
                            }
                        }
                    }
                }
            }
        }
        // 17 boards × 2 × 7 pieces × 2 timings × 2 rules, in 4,096 slots: a key survives
        // the 951 others with probability (1 − 1/4,096)^951 ≈ 0.79 under a uniform hash,
        // about 750 (749 measured); a hash of the board and piece alone kept none.
        assert_eq!(searches, 952);
        assert!(kept_found > 700, "{kept_found} of {searches} kept");
    }

    #[test]
    fn a_timing_in_the_options_searches_as_a_searcher_built_with_it() {
        // One searcher whose timing changes from call to call (and back to its default, with
        // and without naming it) finds what a searcher built with each timing finds, paths
        // and visits included: a change rebuilds the numbering and the band caches.
        let timings = [
            FrameTiming::LEVEL_19_30_HZ,
            FrameTiming {
                frames_per_row: 1,
                timeline: Timeline::uniform(2),
                inputs: InputModel::TwoThumb,
            },
            FrameTiming {
                frames_per_row: 3,
                timeline: Timeline::uniform(5),
                inputs: InputModel::TwoThumb,
            },
            FrameTiming {
                frames_per_row: 2,
                timeline: "X....X...X...".parse().unwrap(),
                inputs: InputModel::TwoThumb,
            },
            FrameTiming {
                frames_per_row: 2,
                timeline: "X....X...X...".parse().unwrap(),
                inputs: InputModel::Article,
            },
            FrameTiming {
                inputs: InputModel::Article,
                ..FrameTiming::LEVEL_19_30_HZ
            },
            FrameTiming::LEVEL_19_30_HZ,
            FrameTiming {
                frames_per_row: 6,
                timeline: Timeline::uniform(8),
                inputs: InputModel::TwoThumb,
            },
        ];
        let mut switching = Gamepad::new();
        let (mut switching_out, mut fixed_out) = (Placements::new(), Placements::new());
        for board in boards().into_iter().take(6) {
            for (index, timing) in timings.into_iter().enumerate() {
                let mut fixed = Gamepad::with_timing(timing);
                // The default timing is given by name every other time.
                let frame_timing =
                    (timing != switching.timing() || index % 2 == 0).then_some(timing);
                for piece in Piece::ALL {
                    for entry_delay in [false, true] {
                        let options = SearchOptions {
                            with_paths: true,
                            entry_delay,
                            frame_timing: None,
                            ..SearchOptions::default()
                        };
                        let switched = SearchOptions {
                            frame_timing,
                            ..options
                        };
                        switching.search(&board, piece, switched, &mut switching_out);
                        fixed.search(&board, piece, options, &mut fixed_out);
                        assert_eq!(switching_out.as_slice(), fixed_out.as_slice());
                        for index in 0..fixed_out.len() {
                            assert_eq!(switching_out.path(index), fixed_out.path(index));
                        }
                        assert_eq!(switching.last_visits, fixed.last_visits);
                    }
                }
            }
        }
        assert_eq!(switching.timing(), FrameTiming::LEVEL_19_30_HZ);
        assert_eq!(switching.frame_timing(), Some(FrameTiming::LEVEL_19_30_HZ));
    }

    #[test]
    #[should_panic(expected = "at least 1 frame per row")]
    fn a_searcher_without_gravity_is_a_bug() {
        Gamepad::with_timing(FrameTiming {
            frames_per_row: 0,
            timeline: Timeline::uniform(2),
            inputs: InputModel::TwoThumb,
        });
    }

    #[test]
    fn the_fast_expansion_matches_the_one_input_step_exactly() {
        let timings = [
            (2, "X."),
            (1, "X."),
            (3, "X.."),
            (6, "X...."),
            (48, "X."),
            (2, "X......."),
        ];
        for timing in every_input_model(&[&timings[..], &MIXED].concat()) {
            let mut fast = Gamepad::with_timing(timing);
            let mut generic = Gamepad::with_timing(timing);
            generic.generic_steps = true;
            fast.plain_only = true;
            generic.plain_only = true;
            let (mut fast_out, mut generic_out) = (Placements::new(), Placements::new());
            for board in boards() {
                for piece in Piece::ALL {
                    fast.search(&board, piece, SearchOptions::WITH_PATHS, &mut fast_out);
                    generic.search(&board, piece, SearchOptions::WITH_PATHS, &mut generic_out);
                    assert_eq!(fast_out.as_slice(), generic_out.as_slice());
                    for index in 0..fast_out.len() {
                        assert_eq!(fast_out.path(index), generic_out.path(index));
                    }
                    assert_eq!(fast.last_visits, generic.last_visits);
                }
            }
        }
    }
}
