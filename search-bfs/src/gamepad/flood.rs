//! The gamepad search's placements in no particular order: a row-by-row flood of frame states on
//! bitboards, for the lookahead chain's searches of later pieces ([`Searcher::search_unordered`];
//! docs/spec/search.md §3's reachable set, without the order or the paths).
//!
//! # Design note
//!
//! The ordered search (module `gamepad`) visits frame states one by one in frame layers,
//! because the current piece's placements must come out in the order of their fewest-frame
//! paths, with those paths. A later piece's search (the preview's, one per placement of the
//! current piece, nearly all of a NES game's work) needs only the SET of lock states, and
//! that set can be computed many states at a time.
//!
//! **Lanes.** A word holds one bit per (column, rotation): rotation r in bits `16r..16r + 10`,
//! column x at bit x of its lane. A Left press is then `word >> 1`, a Right press
//! `word << 1`, a clockwise turn (rotation r + 1) `rotate_left(16)`, a counterclockwise one
//! `rotate_right(16)`, each ANDed with the row's legal word (which has no bit in a lane's
//! bits 10..16, so a column pushed past a wall, or into the neighbouring lane, is dropped: the
//! press is blocked). A piece with two orientations keeps lanes 2 and 3 as copies of lanes
//! 0 and 1 (state, legality and every operation are the same on both halves), so a turn
//! either way is the same 16-bit rotation; the O uses lane 0 only and never turns.
//!
//! **Which words.** The search's state (design note of `gamepad`) is the pivot row y, the
//! (column, rotation), the fall timer t, the Down phase d, the two cooldowns s (shift)
//! and r (rotation) and the two thumbs' phases in the timeline's gaps (all 0 for a uniform
//! timeline). One word holds every (column, rotation) of one (y, t, d, phases, s, r). Under
//! the article's input model d is always 0, s = r is the wait for the next press frame and
//! both phases are the number of that press frame in the timeline.
//!
//! **Why one pass from the top row down is exact.** Every frame of the ordered search's
//! model goes from (y, t) either to (y, t + 1) (the piece stays on its row: the timer counts
//! up and stays below the frames per row) or to (y + 1, 0) (a drop, gravity's or the soft
//! drop's, restarts the timer), or it locks. So the frames go strictly forward in the order
//! (y, then t), which is a topological order of the state graph: sweeping y = 0, 1, …, and in
//! each row t = 0, 1, …, every word is complete (all of its predecessors done) when it is
//! expanded, and expanding each word once, with the same moves as `Gamepad::expand` (or
//! `Gamepad::expand_article`) applied to all of its bits at once, gives exactly the set of
//! states reachable from the spawn, and the locks found from them. The ordered search skips
//! dominated states (same position, timer and Down phase, cooldowns no shorter than a state
//! already visited): a skipped state's every continuation is also one of its dominator's (the
//! dominator presses the same buttons on the same frames, nothing while the other waits), so
//! the ordered search's lock set is the set of locks reachable from ALL reachable states,
//! which is what the flood computes. A press that would be blocked is left out as it is there
//! (it would only lengthen a cooldown: a dominated state). Locks are recorded only where the piece is legal, as in
//! `Gamepad::record_lock` (under the console rule the spawn may overlap; the words built from
//! it by pressing nothing keep that overlapping bit, every move tests its target, and the
//! lock test drops it).
//!
//! **Dominance only under a mixed timeline.** The ordered search skips a state when one at the
//! same position, timer, Down phase and thumb phases with no longer cooldowns was visited; the
//! flood of a uniform timeline keeps both. Clearing them there too (a prefix OR over each
//! timer's T × T cooldown words) was exact but cost more than the expansions it saved once
//! inputs with the same cooldowns shared a word: 18.6 M more instructions in a NES game
//! (callgrind). Under a mixed timeline it pays (below).
//!
//! **Mixed timelines.** With n gaps the thumbs' phases make `n² × S²` (phase, cooldown) pairs
//! per Down phase (225 for `X....X...X...`), and a flood over them was about 10 times slower
//! than a uniform one. Its own copy (`flood_rows_mixed`) differs in three exact ways:
//! - *Compact thumbs.* A thumb in phase p got there by a press in phase p − 1 (or is at the
//!   spawn, phase 0 cooldown 0), so its cooldown is below g_{p−1}, the gap before p: the
//!   reachable (phase, cooldown) pairs are one per frame of the timeline (13, not 15, for
//!   `X....X...X...`). [`ThumbTable`] numbers them (phase by phase, each in cooldown order)
//!   and tabulates each one's successor without a press (`rest`) and after a press (`press`),
//!   so a word's index is `(d × K + shift thumb) × K + rotation thumb` in its timer (K the
//!   timeline's frames) and its successors' indices are table reads and additions, with no
//!   division (the general copy divides by run-time counts to decode an index: five
//!   divisions a word).
//! - *Words cleared as they are read.* Each word is zeroed when it is expanded (and every
//!   frame moves to the next timer or the next row), so a row's words are all 0 after it: no
//!   buffer is filled per row, and the next row's entering words collect in a second buffer
//!   that is swapped in (an OR of what was put there says whether the flood goes on).
//! - *Dominance.* A state is cleared from a word when another word of the same timer, Down
//!   phase and thumb phases, with each cooldown no longer, has it: that state can do all the
//!   dominated one can (the ordered search's argument: press nothing while the other waits,
//!   then the same presses on the same frames), so every lock the dominated state reaches,
//!   the flood finds from its dominator, and the lock set is the same. A timer's words are
//!   complete when its first word is expanded (every frame into them comes from an earlier
//!   timer or row) and expanding a word writes only to the next timer or row, so one sweep
//!   in index order per (timer, d) (`expand_timer_two_thumb`) both clears and expands: it
//!   carries, per word, the OR of the words it is dominated by or is (from the word one
//!   cooldown shorter on either thumb, within its phase: the row before and the word before,
//!   since those thumb numbers are consecutive), clears those bits from the word and expands
//!   what is left when it is not 0. Under the article's fixed schedule there is no dominance
//!   (the ordered search's design note says why): its words are those with both thumbs equal
//!   and Down released, read directly. Measured with `arena nes gamepad+nes-plateau@2 --games 4
//!   --seed 1 --start-level 18 --to-level 39 --reaction-frames 18 --timeline X....X...X...
//!   --jobs 1` (a shared 2-core machine, so roughly), the dominance took it from 170 to 235 pieces/s with
//!   its sweep fused into the expansion, and to 183–210 as a separate pass before it; marking
//!   each put's group of words, to skip the empty ones, was slower than testing each word.
//! - *Empty rows skipped.* The sweep's carried ORs make a chain through every word (the word
//!   before's OR goes into the next), so it cost about as much for an empty word as for a
//!   full one, and most words are empty. A row of K words (one Down phase and shift thumb, every
//!   rotation thumb) is first tested as a whole with an OR of its words, which has no such
//!   chain, and an empty row is skipped. That is exact: an empty row has nothing to clear or
//!   expand, and the ORs it carries down are the ones above it when it takes them in (the
//!   shift thumb has a shorter cooldown), because each carried OR already holds the one of the
//!   word before it wherever the rotation thumb has a shorter cooldown (it took that in), and
//!   0 otherwise. What it saves: docs/performance-history.md, "Empty rows skipped in the mixed flood".
//!
//! A uniform timeline never takes this copy, so its flood is unchanged.
//!
//! **The open band.** As in the ordered search, with B the open band's rows (`open_band_rows`:
//! pivot rows `0..B` fit every orientation in every column), the words of rows `0..B` depend
//! only on those rows, which are the same as on the empty board of that height: a row is
//! entered only from the row above (by drops, whose targets are tested there) and its own
//! earlier timers. So the words that enter row B − 1 (timer 0, every d, s, r) are kept per
//! piece from one flood of the empty board (the band entries), and a board with B ≥ 1 starts
//! from them at row B − 1; no lock lies above row B − 1 (a drop into a band row is always
//! legal). Nothing is kept for boards with B = 0; they start from the spawn.
//!
//! **Legal lanes.** Each row's legal word (the lanes of the (column, rotation) pairs whose
//! cells are all free with the pivot on that row) is made from the board's rows, not from the
//! ordered search's legal words per (column, rotation), whose transpose into rows it equals:
//! with F(y) the free cells of row y as a 10-bit row (the hidden rows −2 and −1 free but on
//! a console board, the rows from the floor on never), orientation r's lane on row y is the
//! AND over its cells (dx, dy) of F(y + dy) shifted right by dx (left by −dx), keeping bits
//! 0..10: a column whose cell would lie past a wall reads a zero shifted in. The free rows
//! are taken once per board (the 7 unknown pieces of expectimax search one board in turn),
//! the top rows that hold no cell at once and the others 4 at a time (each column's nibble
//! spread over four 16-bit row fields by a table), and only the rows the flood reads, from
//! its start row down, get lanes; natively one copy per piece has its cells as constants
//! (`legal_lanes_of`), the browser's module runs the same code with the cells read. A flood
//! from the spawn then needs no legal words at all (its spawn test reads the free rows too);
//! one after played frames still makes them, for the step from the spawn. Against the
//! transpose it replaced (the legal words, then one bit set per legal (column, rotation,
//! row)), 2.6 % fewer instructions on setting (b)'s first 40 lines and 2.4 % on setting
//! (c)'s. A test compares the lanes with the transpose on random boards of 4 to 32 rows and
//! console boards with hidden cells, from every start row.
//!
//! **Cost.** One row expands at most `frames per row × 3 × T²` words for a uniform timeline
//! of tap rate T, 24 at level 19 and 30 Hz, and `frames per row × 3 × K²` (K the timeline's
//! frames, 507 a timer for `X....X...X...`, fewer after the dominance pass) for a mixed one;
//! the flood ends as soon as a row passes nothing down. Each word's
//! frame puts at most 6 words, not the ordered search's 12 inputs: the inputs that end in the
//! same Down phase and cooldowns (Left and Right; A and B; every press of the article's model)
//! go into one word, since a word is a set and every step is the same for each of its bits.
//! The plateau's timing (tap rate 2, a uniform timeline, 2 frames per row) has its own copy of
//! the flood with both as constants, so that every word index is one and the row buffers'
//! lengths are too (3.8 % fewer instructions in a NES game); so has level 18's at the same
//! tap rate (3 frames per row: a game started at level 18, the reaction-time benchmark's
//! setting, spends its first 130 lines there; 14.9 % fewer in that setting's game). In both,
//! a row's timers and each timer's 12 words are expanded one by one in index order, written
//! out rather than looped over, so that each word's timer, Down phase and cooldowns are
//! constants and its expansion tests none of them: the same expansions in the same order
//! (14.3 % fewer instructions on the first 40 lines of setting (b)'s game,
//! docs/performance-history.md). Those copies also have the input model as a constant (one
//! per model), so that no word's expansion tests it: 2.5 % fewer on the same lines. The
//! browser's WebAssembly module keeps the loops and reads the model (`WRITTEN_OUT`): its page
//! has a size limit.
//! Buffers are sized once per board height and timing (the band entries of all 7 pieces at
//! once), so a search allocates nothing after that. The first piece's entry delay (only ever
//! the current piece's, which takes the ordered search) is not modelled here: such a search,
//! and one asked for paths, goes to the ordered search.
//!
//! **Played frames.** A player with a reaction time plays R frames before re-planning, and the
//! reaction planner asks, for each first R frames it weighs, which placements are still
//! reachable after them (without paths). The ordered search steps those frames from the spawn
//! with its one-frame step (`Gamepad::state_after`) to one state: row y, column, rotation,
//! timer t, Down phase and both thumbs. Every later frame is a frame of the same model from
//! that state, so the argument above holds with that state in place of the spawn: the flood
//! that starts with only its bit, in its word of row y at timer t (with the words entering
//! row y when t is 0; the band entries, which start at the spawn, are not used), finds exactly
//! the locks the ordered search finds from it. The thumbs' bytes give the word's index: the
//! cooldowns for a uniform timeline, the compact thumb numbers for a mixed one. The step needs
//! the ordered search's timing (its gaps), which a game's last ordered search has; a search at
//! another timing, frames the search could not have played (no placement, as there) and
//! frames that end inside the first piece's entry delay take the ordered search.
//!
//! The crate's tests compare the flood's set with the ordered search's on random and console
//! boards for both input models, several timings and both game-over rules, and a lookahead
//! chain over the flood with one over the ordered search only (`tests/gamepad_chain.rs`).

use super::recent::{RecentKey, RecentSearches};
use super::{FrameState, Gamepad, Gaps, MAX_GAPS, WAIT_BITS};
use crate::orientations_of;
use tetris_core::{
    BOARD_WIDTH, Board, FrameTiming, InputModel, MAX_BOARD_HEIGHT, Piece, PieceState, Placement,
    Placements, SPAWN_X, SPAWN_Y, SearchOptions, Searcher,
};

/// Bits per rotation lane of a word.
const LANE_BITS: u32 = 16;
/// Soft-drop phases: Down released, or held with the game's counter at 1 or 2.
const DOWN_PHASES: usize = 3;
/// Rows of legal words: every pivot row, then the floor's (no bit).
const LEGAL_ROWS: usize = MAX_BOARD_HEIGHT as usize + 1;

/// The flood's buffers (see the module documentation), kept between searches.
#[derive(Clone, Debug)]
pub(super) struct Flood {
    /// The board height and timing the buffers are sized for (`None`: not yet).
    sized_for: Option<(u8, FrameTiming)>,
    /// That timing's timeline's gaps.
    gaps: Gaps,
    /// Words of one timer: one per (d, phases, s, r) combination, `DOWN_PHASES × T²` for a
    /// uniform timeline of tap rate T, `DOWN_PHASES × K²` for a mixed one with K thumb states
    /// ([`ThumbTable`]).
    combinations: usize,
    /// The row being expanded: a word per (t, d, phases, s, r), at index
    /// `t × combinations + (d × T + s) × T + r` for a uniform timeline, and
    /// `t × combinations + (d × K + shift thumb) × K + rotation thumb` for a mixed one (where
    /// it is all 0 between rows).
    row: Vec<u64>,
    /// The words entering the next row (timer 0), per (d, phases, s, r).
    below: Vec<u64>,
    /// Per piece, the empty board's words entering each row (`height × combinations` words
    /// from `piece index × height × combinations` on), once `band_built` says so.
    band_entries: Vec<u64>,
    band_built: [bool; 7],
    /// The legal (column, rotation) lanes of each pivot row for the current search; 0 from
    /// the board's height on.
    legal_rows: [u64; LEGAL_ROWS],
    /// The empty cells of `empty_rows_of`, row by row ([`EmptyRows`]).
    empty_rows: EmptyRows,
    /// The board `empty_rows` are of (`None`: not yet): the searches of one board's 7
    /// unknown pieces take them once.
    empty_rows_of: Option<Board>,
    /// The lock states found per pivot row, in lanes.
    locks: [u64; LEGAL_ROWS],
    /// A mixed timeline's thumbs, numbered compactly (`None` for a uniform timeline; see
    /// "Mixed timelines" in the module documentation).
    thumbs: Option<ThumbTable>,
    /// Under a mixed timeline, the words entering the row after the next, swapped with
    /// `below` after each row (all 0 between rows).
    next_below: Vec<u64>,
}

/// The most thumb states of a mixed timeline: one per frame of the timeline.
const MAX_THUMBS: usize = tetris_core::Timeline::MAX_FRAMES;

/// A mixed timeline's reachable thumb states (phase p, cooldown c), with c below the gap
/// before phase p, numbered densely: phase p's states from the sum of the gaps before it on,
/// cooldown c at that start plus c (phase 0's first, so the spawn's thumb is number 0). There
/// is one per frame of the timeline.
#[derive(Clone, Copy, Debug)]
struct ThumbTable {
    /// The number of thumb states (the timeline's frames).
    count: usize,
    /// Per phase, the number of its state with cooldown 0 (its others follow in cooldown
    /// order).
    first: [u8; MAX_GAPS],
    /// Per thumb state, its number after a frame without its press: one frame less to wait,
    /// the phase kept.
    rest: [u8; MAX_THUMBS],
    /// Per thumb state that may press (cooldown 0), its number after the press: the gap's
    /// cooldown in the next phase; `NO_PRESS` for the others.
    press: [u8; MAX_THUMBS],
    /// Per thumb state, all ones when it must still wait (cooldown c > 0: the state before
    /// it, of its phase with cooldown c − 1, dominates it), else 0.
    has_shorter: [u64; MAX_THUMBS],
}

/// [`ThumbTable::press`] of a thumb state that must still wait.
const NO_PRESS: u8 = u8::MAX;

impl ThumbTable {
    /// The thumb states of `gaps` (of a mixed timeline).
    fn new(gaps: &Gaps) -> ThumbTable {
        let count = usize::from(gaps.count);
        // Phase p follows gap p − 1 (cyclically), whose length bounds its cooldowns.
        let gap_before = |phase: usize| {
            let (wait, _) = gaps.after_press(((phase + count - 1) % count) as u8);
            usize::from(wait) + 1
        };
        let mut starts = [0usize; MAX_THUMBS + 1];
        for phase in 0..count {
            starts[phase + 1] = starts[phase] + gap_before(phase);
        }
        let mut table = ThumbTable {
            count: starts[count],
            first: [0; MAX_GAPS],
            rest: [0; MAX_THUMBS],
            press: [NO_PRESS; MAX_THUMBS],
            has_shorter: [0; MAX_THUMBS],
        };
        for phase in 0..count {
            table.first[phase] = starts[phase] as u8;
            for wait in 0..gap_before(phase) {
                let number = starts[phase] + wait;
                table.rest[number] = (number - usize::from(wait > 0)) as u8;
                table.has_shorter[number] = if wait > 0 { u64::MAX } else { 0 };
                if wait == 0 {
                    let (after, next) = gaps.after_press(phase as u8);
                    table.press[number] = (starts[usize::from(next)] + usize::from(after)) as u8;
                }
            }
        }
        table
    }

    /// The number of a thumb given as the ordered search's byte (phase in the high bits,
    /// cooldown in the low ones, [`WAIT_BITS`]).
    fn number(&self, thumb: u8) -> usize {
        usize::from(self.first[usize::from(thumb >> 4)]) + usize::from(thumb & WAIT_BITS)
    }
}

/// Where a flood starts: pivot row `row`, whose entering words (timer 0) are in
/// [`Flood::below`], and after played frames possibly one word of a later timer of that row.
#[derive(Clone, Copy, Debug)]
struct FloodStart {
    row: usize,
    /// After played frames that left the piece at timer t > 0 of `row`: t, the word's index
    /// in its timer and the word.
    later: Option<(usize, usize, u64)>,
}

impl FloodStart {
    /// A start from the words entering `row`.
    fn at_row(row: usize) -> FloodStart {
        FloodStart { row, later: None }
    }
}

impl Default for Flood {
    /// Nothing sized yet: the first search sizes the buffers.
    fn default() -> Self {
        Flood {
            sized_for: None,
            gaps: Gaps::uniform(2),
            combinations: 0,
            row: Vec::new(),
            below: Vec::new(),
            band_entries: Vec::new(),
            band_built: [false; 7],
            legal_rows: [0; LEGAL_ROWS],
            empty_rows: EmptyRows::default(),
            empty_rows_of: None,
            locks: [0; LEGAL_ROWS],
            thumbs: None,
            next_below: Vec::new(),
        }
    }
}

impl Flood {
    /// Sizes the buffers for `height` rows at `timing` (only when either changed), which
    /// forgets the band entries.
    fn size_for(&mut self, height: u8, timing: FrameTiming) {
        if self.sized_for == Some((height, timing)) {
            return;
        }
        let gaps = Gaps::new(timing.timeline);
        self.gaps = gaps;
        let (slots, phases) = (usize::from(gaps.slots), usize::from(gaps.count));
        self.thumbs = (gaps.count > 1).then(|| ThumbTable::new(&gaps));
        self.combinations = match &self.thumbs {
            Some(thumbs) => DOWN_PHASES * thumbs.count * thumbs.count,
            None => DOWN_PHASES * phases * phases * slots * slots,
        };
        self.row = vec![0; usize::from(timing.frames_per_row) * self.combinations];
        self.below = vec![0; self.combinations];
        self.next_below = vec![0; self.combinations];
        self.band_entries = vec![0; 7 * usize::from(height) * self.combinations];
        self.band_built = [false; 7];
        self.sized_for = Some((height, timing));
    }

    /// Makes `empty_rows` `board`'s, unless they are already.
    fn take_empty_rows(&mut self, board: &Board) {
        if self.empty_rows_of != Some(*board) {
            self.empty_rows.take(board);
            self.empty_rows_of = Some(*board);
        }
    }

    /// The start of a flood from the one state `state` (outside the entry delay, on a board
    /// the buffers are sized for) of a piece with `turns` orientations: its word goes into
    /// `below` when its fall timer is 0 (`below` must be all 0 before), else it is the start's
    /// later word.
    fn start_at(&mut self, state: &FrameState, turns: u8) -> FloodStart {
        let bit = 1u64 << (u32::from(state.rotation) * LANE_BITS + state.x as u32);
        let word = if turns == 2 {
            bit | bit << (2 * LANE_BITS)
        } else {
            bit
        };
        let down = usize::from(state.down);
        let combination = match &self.thumbs {
            Some(thumbs) => {
                (down * thumbs.count + thumbs.number(state.shift_thumb)) * thumbs.count
                    + thumbs.number(state.rotate_thumb)
            }
            // One phase: the thumbs' bytes are their cooldowns.
            None => {
                let tap = usize::from(self.gaps.slots);
                (down * tap + usize::from(state.shift_thumb)) * tap
                    + usize::from(state.rotate_thumb)
            }
        };
        let (row, timer) = (state.y as usize, usize::from(state.fall_timer));
        if timer == 0 {
            self.below[combination] |= word;
            FloodStart::at_row(row)
        } else {
            FloodStart {
                row,
                later: Some((timer, combination, word)),
            }
        }
    }
}

/// The lanes of rotations `0..count` (for two orientations not their copies in lanes 2 and 3,
/// which hold the same states again).
const fn lane_mask(count: u8) -> u64 {
    match count {
        1 => 0xFFFF,
        2 => 0xFFFF_FFFF,
        _ => u64::MAX,
    }
}

/// The spawn state's word: column [`SPAWN_X`], rotation 0 (and its copy in lane 2 for two
/// orientations).
const fn spawn_word(count: u8) -> u64 {
    let spawn = 1u64 << SPAWN_X;
    if count == 2 {
        spawn | spawn << (2 * LANE_BITS)
    } else {
        spawn
    }
}

/// A word's bits turned clockwise (rotation r to r + 1, wrapping over 4 lanes; over 2
/// orientations with their copies, the same as counterclockwise).
#[inline(always)]
const fn clockwise(word: u64) -> u64 {
    word.rotate_left(LANE_BITS)
}

/// A word's bits turned counterclockwise (rotation r to r − 1, wrapping).
#[inline(always)]
const fn counterclockwise(word: u64) -> u64 {
    word.rotate_right(LANE_BITS)
}

/// Each thumb's (cooldown, phase) after a frame: the shift thumb's, then the rotation thumb's.
type Thumbs = ((u8, u8), (u8, u8));

/// Where one frame's successors go: the row's later timers, the next row, the locks.
struct Targets<'a> {
    row: &'a mut [u64],
    below: &'a mut [u64],
    /// Every state of this row whose frame tried a drop (the locks are those of them whose
    /// row below is not legal, taken once per row).
    dropping: u64,
    /// Legal lanes of the row below.
    legal_below: u64,
    /// Cooldown slots S (the longest gap; the tap rate for a uniform timeline).
    tap: usize,
    /// Phases n (the timeline's gaps; 1 for a uniform timeline).
    phases: usize,
    combinations: usize,
}

impl Targets<'_> {
    /// Adds `word`'s states after a frame that ended with Down phase `down` and each thumb's
    /// (cooldown, phase) in `thumbs` (shift, then rotation), at timer `timer` when the piece
    /// did not drop, else one row lower at timer 0 where that is legal (and to `dropping`,
    /// for the locks). Words with the same target may be put together: a word is a set of
    /// states, and every step here is the same for each of its bits.
    #[inline(always)]
    fn put(&mut self, word: u64, drops: bool, timer: usize, down: usize, thumbs: Thumbs) {
        let ((shift_wait, shift_phase), (rotate_wait, rotate_phase)) = thumbs;
        let phases = (down * self.phases + usize::from(shift_phase)) * self.phases
            + usize::from(rotate_phase);
        let combination =
            (phases * self.tap + usize::from(shift_wait)) * self.tap + usize::from(rotate_wait);
        if drops {
            self.below[combination] |= word & self.legal_below;
            self.dropping |= word;
        } else {
            self.row[timer * self.combinations + combination] |= word;
        }
    }
}

/// A board's empty cells row by row, for the legal lanes (module documentation, "Legal
/// lanes"): bit x of `rows[y + 2]` is set when cell (x, y) is free, for the hidden rows −2
/// and −1 (free but on a console board), the field's rows, and two rows of floor (never
/// free) below them; bits 10 and up are never set (the walls).
#[derive(Clone, Copy, Debug)]
struct EmptyRows {
    rows: [u32; MAX_BOARD_HEIGHT as usize + 4],
}

impl Default for EmptyRows {
    fn default() -> Self {
        EmptyRows {
            rows: [0; MAX_BOARD_HEIGHT as usize + 4],
        }
    }
}

/// A nibble's 4 bits spread to bits 0, 16, 32 and 48: one cell of a column in each of the
/// 4 rows' 16-bit parts of a word ([`EmptyRows::take`]).
const SPREAD_NIBBLE: [u64; 16] = {
    let mut table = [0u64; 16];
    let mut nibble = 0;
    while nibble < 16 {
        let mut bit = 0;
        while bit < 4 {
            if nibble >> bit & 1 != 0 {
                table[nibble] |= 1 << (16 * bit);
            }
            bit += 1;
        }
        nibble += 1;
    }
    table
};

/// The columns' bits of a row: the 10 columns.
const ROW_CELLS: u32 = (1 << BOARD_WIDTH) - 1;

impl EmptyRows {
    /// Makes these `board`'s empty cells: the top rows that hold no cell at once, the others
    /// 4 rows at a time (each column's 4 cells of them spread to the rows' 16-bit parts of
    /// one word and shifted to the column's bit).
    fn take(&mut self, board: &Board) {
        let height = usize::from(board.height());
        let rows = &mut self.rows;
        (rows[0], rows[1]) = (ROW_CELLS, ROW_CELLS);
        // Only a console board has hidden cells.
        if board.hidden_rows() != 0 {
            for x in 0..BOARD_WIDTH {
                let hidden = board.hidden_column(x);
                rows[0] &= !((hidden & 1) << x);
                rows[1] &= !((hidden >> 1 & 1) << x);
            }
        }
        let occupied_rows = board.columns().iter().fold(0, |rows, column| rows | column);
        let empty_top = (occupied_rows.trailing_zeros() as usize).min(height) & !3;
        rows[2..empty_top + 2].fill(ROW_CELLS);
        for first in (empty_top..height).step_by(4) {
            let mut occupied = 0u64;
            for (x, column) in board.columns().iter().enumerate() {
                occupied |= SPREAD_NIBBLE[(column >> first & 0xF) as usize] << x;
            }
            for row in first..(first + 4).min(height) {
                let cells = (occupied >> (16 * (row - first))) as u32;
                rows[row + 2] = !cells & ROW_CELLS;
            }
        }
        // The floor's two rows below the field, never free.
        rows[height + 2..height + 4].fill(0);
    }

    /// The legal (column, rotation) lanes of pivot row `y` for a piece whose first `count`
    /// orientations have the cells `orientations` (two orientations: copied to lanes 2 and
    /// 3): per orientation, the columns whose every cell (dx, dy) is free, row y + dy's free
    /// cells shifted by dx (a cell past a wall reads a wall).
    #[inline(always)]
    fn lanes(&self, y: usize, orientations: &[[(i8, i8); 4]; 4], count: u8) -> u64 {
        let mut word = 0u64;
        for (rotation, cells) in orientations.iter().enumerate().take(usize::from(count)) {
            let mut lane = ROW_CELLS;
            for &(dx, dy) in cells {
                let free = self.rows[(y as isize + dy as isize + 2) as usize];
                lane &= if dx >= 0 { free >> dx } else { free << -dx };
            }
            word |= u64::from(lane & ROW_CELLS) << (rotation as u32 * LANE_BITS);
        }
        if count == 2 {
            word | word << (2 * LANE_BITS)
        } else {
            word
        }
    }
}

/// The legal lanes of pivot rows `rows` into `legal_rows`, for a piece whose first `count`
/// orientations have the cells `orientations` ([`EmptyRows::lanes`]).
#[inline(always)]
fn fill_legal_lanes(
    empty: &EmptyRows,
    rows: std::ops::Range<usize>,
    (orientations, count): (&[[(i8, i8); 4]; 4], u8),
    legal_rows: &mut [u64; LEGAL_ROWS],
) {
    // Indexed rather than zipped: the zip cost 0.5 % more instructions in a NES game.
    #[allow(clippy::needless_range_loop)]
    for y in rows {
        legal_rows[y] = empty.lanes(y, orientations, count);
    }
}

/// [`fill_legal_lanes`] for the piece with index `PIECE`, its cells constants after
/// inlining.
#[inline(always)]
fn legal_lanes_of<const PIECE: usize>(
    empty: &EmptyRows,
    rows: std::ops::Range<usize>,
    legal_rows: &mut [u64; LEGAL_ROWS],
) {
    let orientations = const { orientations_of(Piece::ALL[PIECE]) };
    let count = const { Piece::ALL[PIECE].orientation_count() };
    fill_legal_lanes(empty, rows, (&orientations, count), legal_rows);
}

/// Whether the constant-timing floods write out their timers and words (module
/// documentation, "Cost"), and the legal words have one copy per piece
/// (`Gamepad::compute_legal`): not in the browser's WebAssembly module, whose page must stay
/// under 2 MB (the written-out copies would take it past); there the same expansions run in
/// the same order from the loops, and the same legal words come from the general loop.
pub(super) const WRITTEN_OUT: bool = cfg!(not(target_arch = "wasm32"));

/// [`Gamepad::flood_rows_at`]'s input model: read from the timing (the loops' copies and the
/// browser's), or a constant in the written-out copies, so that no word's expansion tests it.
const INPUTS_READ: u8 = 0;
/// [`Gamepad::flood_rows_at`]'s input model: the two-thumb one ([`InputModel::TwoThumb`]).
const INPUTS_TWO_THUMB: u8 = 1;
/// [`Gamepad::flood_rows_at`]'s input model: the article's ([`InputModel::Article`]).
const INPUTS_ARTICLE: u8 = 2;

impl Gamepad {
    /// The unordered search (see the module documentation): the same placements as the
    /// ordered search, row by row; with paths or the entry delay, the ordered search itself.
    /// After played frames the flood starts from the one state they leave (see "Played
    /// frames" in the module documentation).
    pub(super) fn search_reachable(
        &mut self,
        board: &Board,
        piece: Piece,
        options: SearchOptions,
        out: &mut Placements,
    ) {
        let timing = options.frame_timing.unwrap_or(self.default_timing);
        let played = !options.played.is_empty();
        // Played frames are stepped by the ordered search's own step, which needs its timing
        // (and the gaps that go with it); a search at another timing is left to it.
        if options.with_paths
            || (options.entry_delay && !played)
            || (played && self.search_timing != timing)
        {
            self.search(board, piece, options, out);
            return;
        }
        out.clear(false);
        super::check_timing(timing);
        // A search from the spawn searched again lately is given again (module `recent`);
        // not under the test switches, whose searches are compared with the others'.
        let recent =
            (RecentSearches::ENABLED && !played && !self.generic_steps && !self.plain_only)
                .then_some(RecentKey {
                    board: *board,
                    piece,
                    timing,
                    spawn_may_overlap: options.game_over_rule.spawn_may_overlap(),
                });
        let recent = recent.map(|key| (RecentSearches::slot_of(&key), key));
        if let Some((slot, key)) = &recent {
            if self.recent.give(*slot, key, out) {
                return;
            }
        }
        let height = board.height();
        self.flood.size_for(height, timing);
        if !self.spawn_fits(board, piece) && !options.game_over_rule.spawn_may_overlap() {
            return;
        }
        let turns = piece.orientation_count();
        let band_rows = super::open_band_rows(board);
        let start = if played {
            // The step from the spawn tests the legal words per (column, rotation).
            self.compute_legal(board, piece);
            let Some(state) =
                self.state_after(piece, options.entry_delay, options.played.as_slice())
            else {
                // Frames the search could not have played, or a lock among them.
                return;
            };
            if state.delay_left > 0 {
                // Still in the entry delay, which the flood does not model.
                self.search(board, piece, options, out);
                return;
            }
            self.flood.below.fill(0);
            self.flood.start_at(&state, turns)
        } else if band_rows >= 1 && !self.plain_only {
            if !self.flood.band_built[piece.index()] {
                self.build_band_entries(board, piece, timing);
            }
            let row = (band_rows - 1) as usize;
            let combinations = self.flood.combinations;
            let from = (piece.index() * usize::from(height) + row) * combinations;
            let flood = &mut self.flood;
            flood
                .below
                .copy_from_slice(&flood.band_entries[from..from + combinations]);
            FloodStart::at_row(row)
        } else {
            self.flood.below.fill(0);
            self.flood.below[0] = spawn_word(turns);
            FloodStart::at_row(0)
        };
        self.legal_lanes(board, piece, start.row);
        let rows = self.flood_rows(piece, timing, start, height, false);
        let lanes = lane_mask(turns);
        for y in start.row..rows {
            let mut locks = self.flood.locks[y] & lanes;
            while locks != 0 {
                let bit = locks.trailing_zeros();
                locks &= locks - 1;
                let state = PieceState {
                    x: (bit % LANE_BITS) as i8,
                    y: y as i8,
                    rotation: (bit / LANE_BITS) as u8,
                };
                out.push(Placement::new(piece, state));
            }
        }
        if let Some((slot, key)) = recent {
            self.recent.put(slot, key, out.as_slice());
        }
    }

    /// Floods the empty board of `board`'s height from the spawn and keeps the words entering
    /// each row as `piece`'s band entries, leaving the free rows taken for `board` again.
    fn build_band_entries(&mut self, board: &Board, piece: Piece, timing: FrameTiming) {
        let height = board.height();
        let empty = Board::new(usize::from(height)).expect("the board's own height");
        self.flood.take_empty_rows(&empty);
        self.legal_lanes(&empty, piece, 0);
        self.flood.below.fill(0);
        self.flood.below[0] = spawn_word(piece.orientation_count());
        let from = piece.index() * usize::from(height) * self.flood.combinations;
        let to = from + usize::from(height) * self.flood.combinations;
        self.flood.band_entries[from..to].fill(0);
        self.flood_rows(piece, timing, FloodStart::at_row(0), height, true);
        self.flood.band_built[piece.index()] = true;
        self.flood.take_empty_rows(board);
    }

    /// Whether `piece` fits at the spawn on `board` (its empty cells row by row, taken once
    /// per board as for [`Gamepad::legal_lanes`]).
    fn spawn_fits(&mut self, board: &Board, piece: Piece) -> bool {
        let flood = &mut self.flood;
        flood.take_empty_rows(board);
        piece.cells(0).iter().all(|&(dx, dy)| {
            let free = flood.empty_rows.rows[(SPAWN_Y + dy + 2) as usize];
            free >> (SPAWN_X + dx) & 1 != 0
        })
    }

    /// Fills `legal_rows` for pivot rows `start..height` (and the floor's) with `piece`'s
    /// legal lanes on `board`, from its empty cells row by row (module documentation, "Legal
    /// lanes"), which must be taken already ([`Flood::take_empty_rows`]: every search takes
    /// them first, for its spawn test).
    fn legal_lanes(&mut self, board: &Board, piece: Piece, start: usize) {
        let flood = &mut self.flood;
        debug_assert_eq!(flood.empty_rows_of, Some(*board), "the free rows are taken");
        let height = usize::from(board.height());
        let (empty, legal_rows) = (&flood.empty_rows, &mut flood.legal_rows);
        legal_rows[height] = 0;
        let rows = start..height;
        if !WRITTEN_OUT {
            let orientations = orientations_of(piece);
            let shape = (&orientations, piece.orientation_count());
            return fill_legal_lanes(empty, rows, shape, legal_rows);
        }
        match piece {
            Piece::T => legal_lanes_of::<{ Piece::T as usize }>(empty, rows, legal_rows),
            Piece::J => legal_lanes_of::<{ Piece::J as usize }>(empty, rows, legal_rows),
            Piece::Z => legal_lanes_of::<{ Piece::Z as usize }>(empty, rows, legal_rows),
            Piece::O => legal_lanes_of::<{ Piece::O as usize }>(empty, rows, legal_rows),
            Piece::S => legal_lanes_of::<{ Piece::S as usize }>(empty, rows, legal_rows),
            Piece::L => legal_lanes_of::<{ Piece::L as usize }>(empty, rows, legal_rows),
            Piece::I => legal_lanes_of::<{ Piece::I as usize }>(empty, rows, legal_rows),
        }
    }

    /// The legal lanes the transpose of the legal words per (column, rotation) gives: the
    /// oracle of [`Gamepad::legal_lanes`] (rows `start..=height`).
    #[cfg(test)]
    fn legal_lanes_transposed(&self, piece: Piece, start: usize, height: u8) -> Vec<u64> {
        let mut rows = vec![0u64; usize::from(height) + 1];
        let count = piece.orientation_count();
        for rotation in 0..count {
            for x in 0..BOARD_WIDTH as i8 {
                let mut legal = self.legal[super::slot(x, rotation)] & !0u64 << start;
                let bit = 1u64 << (u32::from(rotation) * LANE_BITS + x as u32);
                while legal != 0 {
                    rows[legal.trailing_zeros() as usize] |= bit;
                    legal &= legal - 1;
                }
            }
        }
        if count == 2 {
            for row in &mut rows {
                *row |= *row << (2 * LANE_BITS);
            }
        }
        rows.drain(..start);
        rows
    }

    /// The flood itself, from `start` down; keeps each row's locks in `locks` and, with
    /// `record`, each row's entering words as `piece`'s band entries. Returns the row after
    /// the last one that had any state. The plateau's timing (2 frames per row, tap rate 2)
    /// and level 18's (3 frames per row, tap rate 2) have their own copies, with both as
    /// constants.
    fn flood_rows(
        &mut self,
        piece: Piece,
        timing: FrameTiming,
        start: FloodStart,
        height: u8,
        record: bool,
    ) -> usize {
        if let Some(thumbs) = self.flood.thumbs {
            return self.flood_rows_mixed(&thumbs, piece, timing, start, height, record);
        }
        // The written-out copies also have the input model as a constant.
        let inputs = match timing.inputs {
            _ if !WRITTEN_OUT => INPUTS_READ,
            InputModel::TwoThumb => INPUTS_TWO_THUMB,
            InputModel::Article => INPUTS_ARTICLE,
        };
        // The copy of a constant timing for the input model.
        macro_rules! at_timing {
            ($tap:literal, $frames:literal) => {
                match inputs {
                    INPUTS_TWO_THUMB => self.flood_rows_at::<$tap, $frames, INPUTS_TWO_THUMB>(
                        piece, timing, start, height, record,
                    ),
                    INPUTS_ARTICLE => self.flood_rows_at::<$tap, $frames, INPUTS_ARTICLE>(
                        piece, timing, start, height, record,
                    ),
                    _ => self.flood_rows_at::<$tap, $frames, INPUTS_READ>(
                        piece, timing, start, height, record,
                    ),
                }
            };
        }
        match (timing.tap_rate(), timing.frames_per_row) {
            (Some(2), 2) => at_timing!(2, 2),
            (Some(2), 3) => at_timing!(2, 3),
            _ => self.flood_rows_at::<0, 0, INPUTS_READ>(piece, timing, start, height, record),
        }
    }

    /// [`Gamepad::flood_rows`] for a mixed timeline, over the compact thumb states of
    /// `thumbs` (see "Mixed timelines" in the module documentation): word index
    /// `t × combinations + (d × K + shift thumb) × K + rotation thumb`, K the thumb states.
    /// Each word is cleared as it is expanded, so that the row's words are all 0 after it
    /// and nothing is filled; the words entering the next row collect in `next_below`,
    /// which then becomes `below`.
    fn flood_rows_mixed(
        &mut self,
        thumbs: &ThumbTable,
        piece: Piece,
        timing: FrameTiming,
        start: FloodStart,
        height: u8,
        record: bool,
    ) -> usize {
        let frames_per_row = usize::from(timing.frames_per_row);
        let article = timing.inputs == InputModel::Article;
        let flood = &mut self.flood;
        let count = thumbs.count;
        let combinations = DOWN_PHASES * count * count;
        let height = usize::from(height);
        let mut entering = flood.below.iter().fold(0, |any, &word| any | word);
        // The row's words are all 0 between rows: a later timer's start word goes in as is.
        if let Some((timer, combination, word)) = start.later {
            flood.row[timer * combinations + combination] |= word;
            entering |= word;
        }
        for y in start.row..height {
            if entering == 0 {
                return y;
            }
            if record {
                let at = (piece.index() * height + y) * combinations;
                flood.band_entries[at..at + combinations].copy_from_slice(&flood.below);
            }
            let legal = flood.legal_rows[y];
            let legal_below = flood.legal_rows[y + 1];
            let (mut entering_any, mut dropping) = (0, 0);
            for timer in 0..frames_per_row {
                let gravity = timer + 1 >= frames_per_row;
                // The timer's words (timer 0's are the entering ones) and the next timer's
                // (none after the last timer, whose every frame drops).
                let (head, tail) = flood.row.split_at_mut((timer + 1) * combinations);
                let words = if timer == 0 {
                    &mut flood.below[..]
                } else {
                    &mut head[timer * combinations..]
                };
                let next_len = tail.len().min(combinations);
                let mut targets = MixedTargets {
                    next: &mut tail[..next_len],
                    below: &mut flood.next_below,
                    entering: 0,
                    dropping: 0,
                    legal_below,
                    count,
                };
                if article {
                    expand_timer_article(words, &mut targets, thumbs, (legal, gravity));
                } else {
                    expand_timer_two_thumb(words, &mut targets, thumbs, (legal, gravity));
                }
                entering_any |= targets.entering;
                dropping |= targets.dropping;
            }
            // As in `flood_rows_at`.
            flood.locks[y] = dropping & !legal_below & legal;
            entering = entering_any;
            std::mem::swap(&mut flood.below, &mut flood.next_below);
        }
        height
    }

    /// [`Gamepad::flood_rows`] with the tap rate `TAP` (of a uniform timeline, one phase),
    /// the frames per row `ROW_FRAMES` and the input model `INPUTS` as constants (0 and
    /// [`INPUTS_READ`]: read from `timing`).
    #[inline(always)]
    fn flood_rows_at<const TAP: usize, const ROW_FRAMES: usize, const INPUTS: u8>(
        &mut self,
        piece: Piece,
        timing: FrameTiming,
        start: FloodStart,
        height: u8,
        record: bool,
    ) -> usize {
        // With TAP a constant, the gaps are constants too.
        let gaps = if TAP == 0 {
            self.flood.gaps
        } else {
            Gaps::uniform(TAP as u8)
        };
        let (tap, phases) = if TAP == 0 {
            (usize::from(gaps.slots), usize::from(gaps.count))
        } else {
            (TAP, 1)
        };
        let frames_per_row = if ROW_FRAMES == 0 {
            usize::from(timing.frames_per_row)
        } else {
            ROW_FRAMES
        };
        let article = match INPUTS {
            INPUTS_TWO_THUMB => false,
            INPUTS_ARTICLE => true,
            _ => timing.inputs == InputModel::Article,
        };
        let flood = &mut self.flood;
        let per_down = phases * phases * tap * tap;
        let combinations = DOWN_PHASES * per_down;
        let height = usize::from(height);
        // The start's later word, for its first row only.
        let mut later = start.later;
        for y in start.row..height {
            if later.is_none() && flood.below[..combinations].iter().all(|&word| word == 0) {
                return y;
            }
            if record {
                let at = (piece.index() * height + y) * combinations;
                flood.band_entries[at..at + combinations].copy_from_slice(&flood.below);
            }
            // The lengths are constants in the copies with constant timings, so that these
            // are a few stores rather than calls (timer 0's words are copied over, not
            // cleared first: at 3 frames per row, clearing all 36 words was a call to memset).
            flood.row[combinations..frames_per_row * combinations].fill(0);
            flood.row[..combinations].copy_from_slice(&flood.below[..combinations]);
            if let Some((timer, combination, word)) = later.take() {
                flood.row[timer * combinations + combination] |= word;
            }
            flood.below[..combinations].fill(0);
            let legal = flood.legal_rows[y];
            let mut targets = Targets {
                row: &mut flood.row,
                below: &mut flood.below,
                dropping: 0,
                legal_below: flood.legal_rows[y + 1],
                tap,
                phases,
                combinations,
            };
            // One timer's words (a macro, so that the constant timings' timers are written
            // out below, each with its timer a constant too).
            macro_rules! expand_timer {
                ($timer:expr) => {{
                    let timer: usize = $timer;
                    let next_timer = timer + 1;
                    let gravity = next_timer >= frames_per_row;
                    // One word's expansion (a macro, so that each of the unrolled copies below is
                    // compiled with its index as a constant).
                    macro_rules! expand {
                        ($combination:expr) => {{
                            let combination: usize = $combination;
                            let word = targets.row[timer * combinations + combination];
                            if word != 0 {
                                let down = combination / per_down;
                                let phase_pair = combination % per_down / (tap * tap);
                                let shift_phase = (phase_pair / phases) as u8;
                                let rotate_phase = (phase_pair % phases) as u8;
                                let shift_wait = (combination / tap % tap) as u8;
                                let rotate_wait = (combination % tap) as u8;
                                let thumbs =
                                    ((shift_wait, shift_phase), (rotate_wait, rotate_phase));
                                if article {
                                    expand_article(
                                        &mut targets,
                                        &gaps,
                                        (word, legal),
                                        (next_timer, gravity),
                                        thumbs.0,
                                    );
                                } else {
                                    expand_two_thumb(
                                        &mut targets,
                                        &gaps,
                                        (word, legal),
                                        (next_timer, gravity),
                                        (down, thumbs),
                                    );
                                }
                            }
                        }};
                    }
                    if TAP == 2 && WRITTEN_OUT {
                        // The 12 words of a timer one by one, each with its index a constant, so
                        // that each word's Down phase and cooldowns are too and its expansion
                        // has no test of them: the same expansions in the same order.
                        debug_assert_eq!(combinations, 12);
                        expand!(0);
                        expand!(1);
                        expand!(2);
                        expand!(3);
                        expand!(4);
                        expand!(5);
                        expand!(6);
                        expand!(7);
                        expand!(8);
                        expand!(9);
                        expand!(10);
                        expand!(11);
                    } else {
                        for combination in 0..combinations {
                            expand!(combination);
                        }
                    }
                }};
            }
            match ROW_FRAMES {
                2 if WRITTEN_OUT => {
                    expand_timer!(0);
                    expand_timer!(1);
                }
                3 if WRITTEN_OUT => {
                    expand_timer!(0);
                    expand_timer!(1);
                    expand_timer!(2);
                }
                _ => {
                    for timer in 0..frames_per_row {
                        expand_timer!(timer);
                    }
                }
            }
            // A drop that is not legal locks, where the piece is legal (under the console rule
            // the spawn may overlap, and pressing nothing keeps it there).
            flood.locks[y] = targets.dropping & !targets.legal_below & legal;
        }
        height
    }
}

/// Expands one timer's `words` under a mixed timeline and the two-thumb model (per (d, shift
/// thumb, rotation thumb), `legal` the row's lanes, `gravity` whether its frames drop),
/// clearing each, but first clears from each word every state that a state of another word
/// dominates: the same Down phase and thumbs' phases, cooldowns no longer (see "Mixed
/// timelines" in the module documentation).
///
/// In one sweep in index order: the OR of the words that dominate a word or are it is the
/// word's own OR the same OR of the word one cooldown shorter on the shift thumb (the row
/// before, kept in `above`) and of the one one cooldown shorter on the rotation thumb (the
/// word before, kept in `left`), each where that thumb's cooldown is not 0 (`has_shorter`);
/// thumb numbers one cooldown apart in a phase are consecutive ([`ThumbTable`]). The words
/// are complete (every frame into them comes from an earlier timer or row), and expanding
/// one only writes to the next timer or row, so each is expanded as soon as it is cleared.
#[inline(always)]
fn expand_timer_two_thumb(
    words: &mut [u64],
    targets: &mut MixedTargets<'_>,
    thumbs: &ThumbTable,
    (legal, gravity): (u64, bool),
) {
    let count = thumbs.count;
    let has_shorter = &thumbs.has_shorter[..count];
    for (down, block) in words.chunks_exact_mut(count * count).enumerate() {
        let mut above = [0u64; MAX_THUMBS];
        let above = &mut above[..count];
        for (shift, row) in block.chunks_exact_mut(count).enumerate() {
            let from_above = has_shorter[shift];
            if row.iter().fold(0, |any, &word| any | word) == 0 {
                // Nothing to clear or expand. The carried ORs are closed under a shorter
                // rotation cooldown (each one took in the one before it), so an empty row
                // leaves them as they are when it takes them in, and empties them otherwise.
                if from_above == 0 {
                    above.fill(0);
                }
                continue;
            }
            let mut left = 0;
            for (rotate, ((word, dominating), &from_left)) in row
                .iter_mut()
                .zip(above.iter_mut())
                .zip(has_shorter)
                .enumerate()
            {
                let dominated = (*dominating & from_above) | (left & from_left);
                left = *word | dominated;
                *dominating = left;
                let kept = std::mem::take(word) & !dominated;
                if kept != 0 {
                    expand_two_thumb_mixed(
                        targets,
                        thumbs,
                        (kept, legal),
                        gravity,
                        (down, shift, rotate),
                    );
                }
            }
        }
    }
}

/// Expands one timer's `words` under a mixed timeline and the article's model, clearing each
/// (no dominance: see the module documentation). Its words are those with Down released and
/// both thumbs the same, (0, s, s).
#[inline(always)]
fn expand_timer_article(
    words: &mut [u64],
    targets: &mut MixedTargets<'_>,
    thumbs: &ThumbTable,
    (legal, gravity): (u64, bool),
) {
    let count = thumbs.count;
    for wait in 0..count {
        let word = std::mem::take(&mut words[wait * count + wait]);
        if word != 0 {
            expand_article_mixed(targets, thumbs, (word, legal), gravity, wait);
        }
    }
}

/// Where one frame's successors go under a mixed timeline (as [`Targets`], over the compact
/// thumb states).
struct MixedTargets<'a> {
    /// The next timer's words of the row.
    next: &'a mut [u64],
    below: &'a mut [u64],
    /// Every state passed to the row below (0: the flood ends there).
    entering: u64,
    /// Every state of this row whose frame tried a drop.
    dropping: u64,
    /// Legal lanes of the row below.
    legal_below: u64,
    /// Thumb states K.
    count: usize,
}

impl MixedTargets<'_> {
    /// As [`Targets::put`], into the next timer when the piece did not drop, with the word's
    /// index in its timer, `combination` (`(d × K + shift thumb) × K + rotation thumb`).
    #[inline(always)]
    fn put(&mut self, word: u64, drops: bool, combination: usize) {
        if drops {
            let entering = word & self.legal_below;
            self.below[combination] |= entering;
            self.entering |= entering;
            self.dropping |= word;
        } else {
            self.next[combination] |= word;
        }
    }
}

/// The turned states of `word`: every state turned once either way where that is legal. Both
/// turns end in the same cooldowns, so their states go into one word. One formula serves
/// every piece: over two orientations with their copies (lanes 2 and 3 those of 0 and 1, in
/// every word and every legal word) both turns are the same rotation, so their OR is either
/// one; the O's legal words have no bit outside lane 0, where its states are, so its turns
/// are never legal. (A `match` on the orientation count here cost 1.2 % of setting (b)'s
/// game.)
#[inline(always)]
fn turned(word: u64, legal: u64) -> u64 {
    (counterclockwise(word) | clockwise(word)) & legal
}

/// The two-thumb frame from every state of `word` (given with the legal lanes of its row, and
/// its Down phase and thumbs), with the inputs of `Gamepad::expand`: Down released with
/// nothing, a turn, a shift or both; Down held with nothing or a turn (never a shift). The
/// timer pair is (the timer after the frame, whether gravity drops on it). The inputs that
/// end in the same thumbs and Down phase are put as one word: Left and Right, A and B.
#[inline(always)]
fn expand_two_thumb(
    targets: &mut Targets<'_>,
    gaps: &Gaps,
    (word, legal): (u64, u64),
    (next_timer, gravity): (usize, bool),
    (down, ((shift_wait, shift_phase), (rotate_wait, rotate_phase))): (usize, Thumbs),
) {
    let (held_down, held_drops) = match down {
        0 => (1, gravity),
        1 => (2, gravity),
        _ => (1, true),
    };
    let shift_rest = (shift_wait.saturating_sub(1), shift_phase);
    let rotate_rest = (rotate_wait.saturating_sub(1), rotate_phase);
    let shift_pressed = gaps.after_press(shift_phase);
    let rotate_pressed = gaps.after_press(rotate_phase);
    let can_turn = rotate_wait == 0;
    // Without a shift: Down released, then held.
    let stay = word;
    let stay_turned = if can_turn { turned(stay, legal) } else { 0 };
    targets.put(stay, gravity, next_timer, 0, (shift_rest, rotate_rest));
    targets.put(
        stay,
        held_drops,
        next_timer,
        held_down,
        (shift_rest, rotate_rest),
    );
    if stay_turned != 0 {
        targets.put(
            stay_turned,
            gravity,
            next_timer,
            0,
            (shift_rest, rotate_pressed),
        );
        targets.put(
            stay_turned,
            held_drops,
            next_timer,
            held_down,
            (shift_rest, rotate_pressed),
        );
    }
    // Left or Right (Down released), with or without a turn.
    if shift_wait == 0 {
        let shifted = (word >> 1 | word << 1) & legal;
        if shifted != 0 {
            targets.put(
                shifted,
                gravity,
                next_timer,
                0,
                (shift_pressed, rotate_rest),
            );
            let shifted_turned = if can_turn { turned(shifted, legal) } else { 0 };
            if shifted_turned != 0 {
                targets.put(
                    shifted_turned,
                    gravity,
                    next_timer,
                    0,
                    (shift_pressed, rotate_pressed),
                );
            }
        }
    }
}

/// [`expand_two_thumb`] under a mixed timeline: the same inputs, each thumb's state after the
/// frame read from `thumbs` (`down` and the thumbs' compact numbers `shift`, `rotate`).
#[inline(always)]
fn expand_two_thumb_mixed(
    targets: &mut MixedTargets<'_>,
    thumbs: &ThumbTable,
    (word, legal): (u64, u64),
    gravity: bool,
    (down, shift, rotate): (usize, usize, usize),
) {
    let count = targets.count;
    let (held_down, held_drops) = match down {
        0 => (1, gravity),
        1 => (2, gravity),
        _ => (1, true),
    };
    // The parts of the targets' indices: Down held, the shift thumb's (times K), the
    // rotation thumb's.
    let held = held_down * count * count;
    let shift_rest = usize::from(thumbs.rest[shift]) * count;
    let rotate_rest = usize::from(thumbs.rest[rotate]);
    let shift_pressed = thumbs.press[shift];
    let rotate_pressed = thumbs.press[rotate];
    let can_turn = rotate_pressed != NO_PRESS;
    let rotate_pressed = usize::from(rotate_pressed);
    // Without a shift: Down released, then held.
    let stay = word;
    let stay_turned = if can_turn { turned(stay, legal) } else { 0 };
    targets.put(stay, gravity, shift_rest + rotate_rest);
    targets.put(stay, held_drops, held + shift_rest + rotate_rest);
    if stay_turned != 0 {
        targets.put(stay_turned, gravity, shift_rest + rotate_pressed);
        targets.put(stay_turned, held_drops, held + shift_rest + rotate_pressed);
    }
    // Left or Right (Down released), with or without a turn.
    if shift_pressed != NO_PRESS {
        let shift_pressed = usize::from(shift_pressed) * count;
        let shifted = (word >> 1 | word << 1) & legal;
        if shifted != 0 {
            targets.put(shifted, gravity, shift_pressed + rotate_rest);
            let shifted_turned = if can_turn { turned(shifted, legal) } else { 0 };
            if shifted_turned != 0 {
                targets.put(shifted_turned, gravity, shift_pressed + rotate_pressed);
            }
        }
    }
}

/// [`expand_article`] under a mixed timeline: `wait` is the thumbs' compact number (the same
/// for both under the article's model).
#[inline(always)]
fn expand_article_mixed(
    targets: &mut MixedTargets<'_>,
    thumbs: &ThumbTable,
    (word, legal): (u64, u64),
    gravity: bool,
    wait: usize,
) {
    let pressed_after = thumbs.press[wait];
    let (after, pressed) = if pressed_after != NO_PRESS {
        (
            pressed_after,
            turned(word, legal) | (word >> 1 | word << 1) & legal,
        )
    } else {
        (thumbs.rest[wait], 0)
    };
    let after = usize::from(after);
    targets.put(word | pressed, gravity, after * targets.count + after);
}

/// The article's frame from every state of `word` (legal lanes of its row beside it; wait
/// `wait` for press frame number `phase`), with the inputs of `Gamepad::expand_article`: on a
/// press frame nothing, B, A, Left or Right, else nothing; Down never held, so only gravity
/// drops. Every input ends in the same wait, so all go into one word.
#[inline(always)]
fn expand_article(
    targets: &mut Targets<'_>,
    gaps: &Gaps,
    (word, legal): (u64, u64),
    (next_timer, gravity): (usize, bool),
    (wait, phase): (u8, u8),
) {
    let after = gaps.next_press_wait(wait, phase);
    let pressed = if wait == 0 {
        turned(word, legal) | (word >> 1 | word << 1) & legal
    } else {
        0
    };
    targets.put(word | pressed, gravity, next_timer, 0, (after, after));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lanes from the board's empty rows (the written-out copy per piece natively, and
    /// the browser's loop) are the transpose of the legal words per (column, rotation), from
    /// every start row, on random boards of several heights and console boards with hidden
    /// cells; and the spawn test is the legal words'.
    #[test]
    fn legal_lanes_from_the_rows_are_the_legal_words_transposed() {
        let mut next = super::super::tests::xorshift(0x9E37_79B9_7F4A_7C15);
        let mut boards = super::super::tests::boards_with_console_ones();
        for height in [4, 5, 7, 13, 21, 32] {
            for _ in 0..6 {
                let mut board = Board::new(height).unwrap();
                let stack = (next() % height as u64) as usize;
                for y in height - stack..height {
                    for x in 0..10 {
                        if next() % 100 < 60 {
                            board.set(x, y);
                        }
                    }
                }
                boards.push(board);
            }
        }
        let mut gamepad = Gamepad::new();
        for board in &boards {
            let height = board.height();
            for piece in Piece::ALL {
                gamepad.compute_legal(board, piece);
                assert_eq!(
                    gamepad.spawn_fits(board, piece),
                    gamepad.fits(SPAWN_X, SPAWN_Y, 0)
                );
                for start in 0..=usize::from(height) {
                    let expected = gamepad.legal_lanes_transposed(piece, start, height);
                    gamepad.flood.legal_rows = [u64::MAX; LEGAL_ROWS];
                    gamepad.legal_lanes(board, piece, start);
                    let rows = &gamepad.flood.legal_rows[start..=usize::from(height)];
                    assert_eq!(rows, &expected[..], "{piece:?} from row {start}");
                    // The loop the browser runs.
                    let orientations = orientations_of(piece);
                    for (offset, &row) in rows[..rows.len() - 1].iter().enumerate() {
                        let lanes = gamepad.flood.empty_rows.lanes(
                            start + offset,
                            &orientations,
                            piece.orientation_count(),
                        );
                        assert_eq!(lanes, row);
                    }
                }
            }
        }
    }

    #[test]
    fn the_thumb_table_numbers_exactly_the_thumb_states_reachable_from_the_spawn() {
        // The (cooldown, phase) pairs a thumb reaches from the spawn's (0, 0) by resting and
        // pressing with `Gaps` (the ordered search's steps), one number each, with the same
        // successors.
        for timeline in [
            "X....X...X...",
            "X...X....X...",
            "X.X..X...",
            "X.......X.X..",
        ] {
            let gaps = Gaps::new(timeline.parse().unwrap());
            let table = ThumbTable::new(&gaps);
            let mut number_of = std::collections::HashMap::new();
            let mut pending = vec![((0u8, 0u8), 0u8)];
            while let Some((thumb, number)) = pending.pop() {
                if let Some(&known) = number_of.get(&thumb) {
                    assert_eq!(known, number, "{timeline}: {thumb:?}");
                    continue;
                }
                number_of.insert(thumb, number);
                let (wait, phase) = thumb;
                let rested = (wait.saturating_sub(1), phase);
                pending.push((rested, table.rest[usize::from(number)]));
                if wait == 0 {
                    pending.push((gaps.after_press(phase), table.press[usize::from(number)]));
                } else {
                    assert_eq!(table.press[usize::from(number)], NO_PRESS);
                }
            }
            assert_eq!(number_of.len(), timeline.len(), "{timeline}");
            assert_eq!(table.count, timeline.len(), "{timeline}");
            let mut numbers: Vec<u8> = number_of.values().copied().collect();
            numbers.sort();
            assert_eq!(numbers, (0..timeline.len() as u8).collect::<Vec<_>>());
        }
    }

    /// The phase of thumb number `number` in `table`.
    fn phase_of(table: &ThumbTable, phases: usize, number: usize) -> usize {
        (0..phases)
            .rev()
            .find(|&phase| usize::from(table.first[phase]) <= number)
            .expect("phase 0 starts at 0")
    }

    #[test]
    fn a_timers_sweep_clears_exactly_the_dominated_states_and_expands_the_rest() {
        // The oracle from the definition: a state of word (d, shift thumb, rotation thumb) is
        // cleared when another word of the same d and thumbs' phases, each cooldown no longer,
        // has it; what is left of each word is expanded. Many rows are empty (the sweep skips
        // them), including whole phases of the shift thumb.
        let mut random = tetris_fixtures::XorShift::new(0x9E37_79B9_7F4A_7C15);
        let mut next = move || random.next_value();
        let lanes = 0x03FF_03FF_03FF_03FFu64;
        for timeline in ["X....X...X...", "X..X...", "X.X..X...", "X.....X....X...."] {
            let gaps = Gaps::new(timeline.parse().unwrap());
            let table = ThumbTable::new(&gaps);
            let (count, phases) = (table.count, usize::from(gaps.count));
            let combinations = DOWN_PHASES * count * count;
            for round in 0..200 {
                let legal = next() & lanes;
                let mut words = vec![0u64; combinations];
                for row in words.chunks_exact_mut(count) {
                    if next() % 3 == 0 {
                        for word in row.iter_mut() {
                            *word = next() & next() & lanes;
                        }
                    }
                }
                let gravity = round % 2 == 0;
                let run = |expand: &mut dyn FnMut(&mut MixedTargets<'_>)| {
                    let (mut next_words, mut below) =
                        (vec![0; combinations], vec![0; combinations]);
                    let mut targets = MixedTargets {
                        next: &mut next_words,
                        below: &mut below,
                        entering: 0,
                        dropping: 0,
                        legal_below: legal >> 1,
                        count,
                    };
                    expand(&mut targets);
                    let (entering, dropping) = (targets.entering, targets.dropping);
                    (next_words, below, entering, dropping)
                };
                let mut swept = words.clone();
                let got = run(&mut |targets| {
                    expand_timer_two_thumb(&mut swept, targets, &table, (legal, gravity))
                });
                assert!(
                    swept.iter().all(|&word| word == 0),
                    "{timeline}: a word left"
                );
                let expected = run(&mut |targets| {
                    for index in 0..combinations {
                        let (down, shift, rotate) = (
                            index / (count * count),
                            index / count % count,
                            index % count,
                        );
                        let no_longer = |one: usize, other: usize| {
                            phase_of(&table, phases, one) == phase_of(&table, phases, other)
                                && one <= other
                        };
                        let mut dominated = 0;
                        for other_shift in 0..count {
                            for other_rotate in 0..count {
                                if (other_shift, other_rotate) != (shift, rotate)
                                    && no_longer(other_shift, shift)
                                    && no_longer(other_rotate, rotate)
                                {
                                    dominated |=
                                        words[(down * count + other_shift) * count + other_rotate];
                                }
                            }
                        }
                        let kept = words[index] & !dominated;
                        if kept != 0 {
                            expand_two_thumb_mixed(
                                targets,
                                &table,
                                (kept, legal),
                                gravity,
                                (down, shift, rotate),
                            );
                        }
                    }
                });
                assert_eq!(got, expected, "{timeline}, round {round}");
            }
        }
    }

    #[test]
    fn one_turn_formula_serves_every_orientation_count() {
        // What `turned` replaced: per orientation count, both turns (4), one of them (2: the
        // copies make them the same), none (1).
        let mut random = tetris_fixtures::XorShift::new(0x2545_F491_4F6C_DD1D);
        let mut next = move || random.next_value();
        let (two_lanes, one_lane) = (0x03FF_03FFu64, 0x03FFu64);
        for _ in 0..10_000 {
            let (word, legal) = (next() & next(), next());
            // Two orientations: lanes 2 and 3 copy lanes 0 and 1, in words and legal words.
            let (word2, legal2) = (word & two_lanes, legal & two_lanes);
            let (word2, legal2) = (word2 | word2 << 32, legal2 | legal2 << 32);
            assert_eq!(turned(word2, legal2), counterclockwise(word2) & legal2);
            // The O: lane 0 only.
            assert_eq!(turned(word & one_lane, legal & one_lane), 0);
        }
    }

    #[test]
    fn turns_move_a_bit_between_lanes_and_wrap() {
        // Rotation 3's column 4 turns clockwise into rotation 0's, counterclockwise into 2's.
        let word = 1u64 << (3 * LANE_BITS + 4);
        assert_eq!(clockwise(word), 1 << 4);
        assert_eq!(counterclockwise(word), 1 << (2 * LANE_BITS + 4));
        // Over two orientations with their copies, both turns swap rotations 0 and 1.
        let two = (1u64 << 7) | (1 << (2 * LANE_BITS + 7));
        let turned = (1u64 << (LANE_BITS + 7)) | (1 << (3 * LANE_BITS + 7));
        assert_eq!(clockwise(two), turned);
        assert_eq!(counterclockwise(two), turned);
    }
}
