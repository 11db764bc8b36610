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
//! **No dominance here.** The ordered search skips a state when one at the same position,
//! timer and Down phase with no longer cooldowns was visited; the flood keeps both. Clearing
//! them here too (a prefix OR over each timer's T × T cooldown words) was exact but cost more
//! than the expansions it saved once inputs with the same cooldowns shared a word: 18.6 M more
//! instructions in a NES game (callgrind).
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
//! **Cost.** One row expands at most `frames per row × 3 × n² × S²` words (n the timeline's
//! gaps, S the longest; a uniform timeline's n is 1 and S its tap rate T), 24 at level 19 and
//! 30 Hz, and the flood ends as soon as a row passes nothing down. Each word's
//! frame puts at most 6 words, not the ordered search's 12 inputs: the inputs that end in the
//! same Down phase and cooldowns (Left and Right; A and B; every press of the article's model)
//! go into one word, since a word is a set and every step is the same for each of its bits.
//! The plateau's timing (tap rate 2, a uniform timeline, 2 frames per row) has its own copy of
//! the flood with both as constants, so that every word index is one (3.8 % fewer instructions in a NES game).
//! Buffers are sized once per board height and timing (the band entries of all 7 pieces at
//! once), so a search allocates nothing after that. The first piece's entry delay (only ever
//! the current piece's, which takes the ordered search) is not modelled here: such a search,
//! and one asked for paths, goes to the ordered search.
//!
//! The crate's tests compare the flood's set with the ordered search's on random and console
//! boards for both input models, several timings and both game-over rules, and a lookahead
//! chain over the flood with one over the ordered search only (`tests/gamepad_chain.rs`).

use super::{Gamepad, Gaps, slot};
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
    /// Words of one timer: one per (d, phases, s, r) combination, `DOWN_PHASES × n² × S²`
    /// with n the timeline's gaps and S its longest gap (the tap rate T for a uniform one,
    /// whose n is 1).
    combinations: usize,
    /// The row being expanded: a word per (t, d, phases, s, r), at index
    /// `t × combinations + ((d × n + shift phase) × n + rotation phase) × S² + s × S + r`.
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
    /// The lock states found per pivot row, in lanes.
    locks: [u64; LEGAL_ROWS],
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
            locks: [0; LEGAL_ROWS],
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
        self.combinations = DOWN_PHASES * phases * phases * slots * slots;
        self.row = vec![0; usize::from(timing.frames_per_row) * self.combinations];
        self.below = vec![0; self.combinations];
        self.band_entries = vec![0; 7 * usize::from(height) * self.combinations];
        self.band_built = [false; 7];
        self.sized_for = Some((height, timing));
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

impl Gamepad {
    /// The unordered search (see the module documentation): the same placements as the
    /// ordered search, row by row; with paths or the entry delay, the ordered search itself.
    pub(super) fn search_reachable(
        &mut self,
        board: &Board,
        piece: Piece,
        options: SearchOptions,
        out: &mut Placements,
    ) {
        if options.with_paths || options.entry_delay || !options.played.is_empty() {
            self.search(board, piece, options, out);
            return;
        }
        out.clear(false);
        let timing = options.frame_timing.unwrap_or(self.default_timing);
        super::check_timing(timing);
        let height = board.height();
        self.flood.size_for(height, timing);
        self.compute_legal(board, piece);
        let spawn_fits = self.fits(SPAWN_X, SPAWN_Y, 0);
        if !spawn_fits && !options.game_over_rule.spawn_may_overlap() {
            return;
        }
        let band_rows = super::open_band_rows(board);
        let start = if band_rows >= 1 && !self.plain_only {
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
            row
        } else {
            self.flood.below.fill(0);
            self.flood.below[0] = spawn_word(piece.orientation_count());
            0
        };
        self.legal_lanes(piece, start, height);
        let rows = self.flood_rows(piece, timing, start, height, false);
        let lanes = lane_mask(piece.orientation_count());
        for y in start..rows {
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
    }

    /// Floods the empty board of `board`'s height from the spawn and keeps the words entering
    /// each row as `piece`'s band entries, leaving the legal words ready for `board` again.
    fn build_band_entries(&mut self, board: &Board, piece: Piece, timing: FrameTiming) {
        let height = board.height();
        let empty = Board::new(usize::from(height)).expect("the board's own height");
        self.compute_legal(&empty, piece);
        self.legal_lanes(piece, 0, height);
        self.flood.below.fill(0);
        self.flood.below[0] = spawn_word(piece.orientation_count());
        let from = piece.index() * usize::from(height) * self.flood.combinations;
        let to = from + usize::from(height) * self.flood.combinations;
        self.flood.band_entries[from..to].fill(0);
        self.flood_rows(piece, timing, 0, height, true);
        self.flood.band_built[piece.index()] = true;
        self.compute_legal(board, piece);
    }

    /// Fills `legal_rows` for pivot rows `start..height` (and the floor's) from the legal
    /// words per (column, rotation): the transpose of those words into lanes.
    fn legal_lanes(&mut self, piece: Piece, start: usize, height: u8) {
        let rows = &mut self.flood.legal_rows;
        rows[start..=usize::from(height)].fill(0);
        let from_start = !0u64 << start;
        let count = piece.orientation_count();
        for rotation in 0..count {
            for x in 0..BOARD_WIDTH as i8 {
                let mut legal = self.legal[slot(x, rotation)] & from_start;
                let bit = 1u64 << (u32::from(rotation) * LANE_BITS + x as u32);
                while legal != 0 {
                    rows[legal.trailing_zeros() as usize] |= bit;
                    legal &= legal - 1;
                }
            }
        }
        if count == 2 {
            for row in &mut rows[start..usize::from(height)] {
                *row |= *row << (2 * LANE_BITS);
            }
        }
    }

    /// The flood itself, from row `start` (whose entering words are in `below`) down; keeps
    /// each row's locks in `locks` and, with `record`, each row's entering words as `piece`'s
    /// band entries. Returns the row after the last one that had any state. The plateau's
    /// timing (2 frames per row, tap rate 2) has its own copy, with both as constants.
    fn flood_rows(
        &mut self,
        piece: Piece,
        timing: FrameTiming,
        start: usize,
        height: u8,
        record: bool,
    ) -> usize {
        match (timing.tap_rate(), timing.frames_per_row) {
            (Some(2), 2) => self.flood_rows_at::<2, 2>(piece, timing, start, height, record),
            _ => self.flood_rows_at::<0, 0>(piece, timing, start, height, record),
        }
    }

    /// [`Gamepad::flood_rows`] with the tap rate `TAP` (of a uniform timeline, one phase) and
    /// the frames per row `ROW_FRAMES` as constants (0: read from `timing`).
    #[inline(always)]
    fn flood_rows_at<const TAP: usize, const ROW_FRAMES: usize>(
        &mut self,
        piece: Piece,
        timing: FrameTiming,
        start: usize,
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
        let article = timing.inputs == InputModel::Article;
        let turns = piece.orientation_count();
        let flood = &mut self.flood;
        let per_down = phases * phases * tap * tap;
        let combinations = DOWN_PHASES * per_down;
        let height = usize::from(height);
        for y in start..height {
            if flood.below.iter().all(|&word| word == 0) {
                return y;
            }
            if record {
                let at = (piece.index() * height + y) * combinations;
                flood.band_entries[at..at + combinations].copy_from_slice(&flood.below);
            }
            flood.row.fill(0);
            flood.row[..combinations].copy_from_slice(&flood.below);
            flood.below.fill(0);
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
            for timer in 0..frames_per_row {
                let next_timer = timer + 1;
                let gravity = next_timer >= frames_per_row;
                for combination in 0..combinations {
                    let word = targets.row[timer * combinations + combination];
                    if word == 0 {
                        continue;
                    }
                    let down = combination / per_down;
                    let phase_pair = combination % per_down / (tap * tap);
                    let shift_phase = (phase_pair / phases) as u8;
                    let rotate_phase = (phase_pair % phases) as u8;
                    let shift_wait = (combination / tap % tap) as u8;
                    let rotate_wait = (combination % tap) as u8;
                    let thumbs = ((shift_wait, shift_phase), (rotate_wait, rotate_phase));
                    if article {
                        expand_article(
                            &mut targets,
                            &gaps,
                            (word, legal),
                            (next_timer, gravity),
                            thumbs.0,
                            turns,
                        );
                    } else {
                        expand_two_thumb(
                            &mut targets,
                            &gaps,
                            (word, legal),
                            (next_timer, gravity),
                            (down, thumbs),
                            turns,
                        );
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

/// The turned states of `word`: every state turned once either way where that is legal (none
/// for the O, which has one orientation). Both turns end in the same cooldowns, so their states
/// go into one word.
#[inline(always)]
fn turned(word: u64, legal: u64, turns: u8) -> u64 {
    match turns {
        4 => (counterclockwise(word) | clockwise(word)) & legal,
        // Over two orientations with their copies both turns are the same rotation.
        2 => counterclockwise(word) & legal,
        _ => 0,
    }
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
    turns: u8,
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
    let stay_turned = if can_turn {
        turned(stay, legal, turns)
    } else {
        0
    };
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
            let shifted_turned = if can_turn {
                turned(shifted, legal, turns)
            } else {
                0
            };
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
    turns: u8,
) {
    let after = gaps.next_press_wait(wait, phase);
    let pressed = if wait == 0 {
        turned(word, legal, turns) | (word >> 1 | word << 1) & legal
    } else {
        0
    };
    targets.put(word | pressed, gravity, next_timer, 0, (after, after));
}

#[cfg(test)]
mod tests {
    use super::*;

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
