//! Full breadth-first lock search (slides and spins) with input paths, in the canonical order,
//! and its gravity-aware sibling, the per-frame [`Gamepad`] search (module [`gamepad`]).
//!
//! [`Bfs`] implements docs/spec/search.md §1: from the spawn state (pivot (5, 0), rotation 0) a piece
//! moves counterclockwise, clockwise, left, right or down one step at a time (no kicks, no
//! gravity, unlimited time); every reachable state whose "down" is illegal is a lock placement.
//! Placements come out in the canonical order — the dequeue order of a FIFO breadth-first
//! search that tries, from each dequeued state, counterclockwise, clockwise (only for pieces
//! with more than 2 orientations), left, right, down — and each carries, on request, its
//! BFS-tree input path (first-discovering parents back to the spawn). The module
//! [`reference`](mod@reference) is a literal, slow transcription of that definition kept as the
//! test oracle.
//!
//! # Design note
//!
//! **States.** A state is (x, y, rotation). Pivot rows are never above 0 (the spawn row is 0
//! and there is no up move), although cells may be: turning an I vertical at the spawn puts
//! cells on rows −2 and −1, which are legal and never stored. So the state space is pivot rows
//! `0..H` × 10 columns × up to 4 rotations (H ≤ 32). A state is coded as
//! `word << 6 | y` with `word = (x + 1) · 4 + rotation`: one `u64` per (column, rotation)
//! holds a bit per pivot row, and two empty wall words (x = −1 and x = 10) make left and right
//! moves need no bounds check. Six row bits, not five, keep "down" from row 31 inside its
//! word.
//!
//! **Legality as bitboards.** Per search, `legal[word]` is computed from the board's column
//! bitboards: for each of the orientation's 4 cells (dx, dy), the occupied column `x + dx`
//! (with the rows from `H` on set, so the floor blocks) shifted by `dy` puts the cell of pivot
//! row y on bit y; the OR over the cells is the blocked set, and a cell column outside the
//! walls blocks every row. Rows above the field shift in as zeros, i.e. free. After that every
//! successor test is one bit test, and the lock test is bit `y + 1` of the state's own word.
//! `open[word]` (legal and not yet discovered) is the visited set: no per-call clearing
//! beyond copying 64 words, no generation counter. The successor loop is branch-free: it
//! writes every successor to the queue slot after the tail and advances the tail only when the
//! successor was new. It is specialised (const generics) for 1, 2 and 4 orientations and for
//! with/without paths, so a search without paths does not even store parents.
//!
//! **The order as a key.** Claim: with a fixed successor order, FIFO breadth-first search
//! dequeues states by (distance from the spawn, then the lexicographically smallest shortest
//! path, moves compared as ccw 0 < cw 1 < left 2 < right 3 < down 4 from the first move).
//! Proof by induction on the distance d. Layer 0 is the spawn. Assume layer d is dequeued in
//! that order, and consecutively (all of it before any of layer d + 1, as in every BFS). A
//! state s of layer d + 1 is appended by the first dequeued state of layer d that has s as a
//! successor (nothing from an earlier layer has, or s would be nearer; nothing later is
//! dequeued before s is appended), so layer d + 1 is ordered by (position of that parent, move
//! index), one move per (parent, child) pair since different moves from one state reach
//! different states once the two-orientation pieces' clockwise turn is left out. A shortest
//! path to s is a shortest path to some predecessor p in layer d plus one move m, and all those
//! paths to layer d have length d, so the smallest `path(p) + m` takes the smallest path(p) —
//! the earliest p, by the hypothesis — and then its move: the same order.
//!
//! **The open band shortcut.** Let E be the number of completely empty rows at the top and
//! B = E − 1 (every orientation reaches at most 1 row below its pivot). In pivot rows `0..B`
//! every orientation fits in every column, so the smallest shortest path to such a state is
//! known in closed form: its turns (the fewest; counterclockwise on a tie, as it is tried
//! first; two-orientation pieces only turn counterclockwise), then its shifts, then y downs —
//! the moves sorted by index, each intermediate state inside the band. The search therefore
//! never queues band states (they are marked discovered, and rows above B − 1 have no lock
//! states since "down" stays in the band). Only the band's last row (pivot row B − 1, at most
//! 34 states) is visited, from a per-piece list built once in [`Bfs::new`] and sorted by
//! (horizontal distance, lexical rank of the turns-and-shifts path padded with downs); for
//! these only "down" can find anything new. The real queue then holds only states below the
//! band, and the two are merged by an order key `distance << 6 | lexical rank of the band
//! ancestor`. Why that key is right, for B ≥ 2: every path below the band leaves it exactly
//! once, by "down" from a last-row state b', and by the claim the smallest path to a state m
//! below starts with the smallest path to b'. Comparing a last-row state b with m at equal
//! distance, the two paths turns-shifts(b) + downs and turns-shifts(b') + downs + … first
//! differ within the turns and shifts followed by one down (b ≠ b', and both are followed by
//! at least one down), which is exactly what the lexical rank compares; states below the band
//! that tie on the key share b' and keep their FIFO order. With B < 2 (a stack within 2
//! rows of the top) the search is the plain queue from the spawn. On the mid-game board of the
//! benches (12 empty rows) only 313 of the 2095 reachable states of the 7 pieces are queued and
//! 162 more are band last-row visits; on the empty board only the states on pivot row 19 are
//! queued.
//!
//! **Identical cells.** Placements are distinct (x, y, rotation) states. With the NES table no
//! two rotation indices of a piece have the same shape (Z, S, I have exactly two, O one; a unit
//! test checks it), so no two placements cover the same cells and nothing needs merging.
//!
//! **Paths.** With paths, each queue entry records its parent (a queue index, or a band index
//! flagged with `BAND_FLAG`) and move; a path is the recorded moves back to the band, then the
//! band state's downs, shifts and turns. Without paths none of this is written or read.
//!
//! **Measured** speed: `cargo bench -p tetris-search-bfs` (boards in `benches/bfs.rs`: empty,
//! mid-game, cavernous; with and without paths); the figures are in docs/performance.md's
//! table. Without the band (every state queued, the first version written) the search was
//! several times slower on boards with many empty rows; with paths the search stores a parent
//! and a move per queued state and rebuilds every path, which is most of the difference
//! between the two columns (the flood is compiled twice, with and without).
//!
//! Over 600 lines on purpose: the BFS, its canonical order and its design note with the proof read
//! as one piece; the gamepad search is its own module.
#![deny(missing_docs)]

pub mod gamepad;
pub mod reference;
mod unordered;

pub use gamepad::Gamepad;

use tetris_core::NamedSearcher;
use tetris_core::{
    BOARD_WIDTH, Board, Input, MAX_BOARD_HEIGHT, Piece, PieceState, Placement, Placements, SPAWN_X,
    SPAWN_Y, SearchOptions, Searcher,
};

/// A board's columns for [`legal_pivot_rows`]: the occupied rows of column x with the rows
/// from the floor on set, shifted up 2 bits, at index `x + 2`, the two bits below holding the
/// column's hidden rows −2 and −1 (always empty but on a console board); two walls on each
/// side with every bit set. Built once per search, so that each (column, rotation) word costs four
/// loads, shifts and ORs with no branch (a cell outside the walls reads a wall).
#[derive(Clone, Copy)]
struct BlockedColumns {
    columns: [u64; BOARD_WIDTH + 4],
    /// The rows from the floor on.
    floor: u64,
}

impl BlockedColumns {
    #[inline(always)]
    fn new(board: &Board) -> BlockedColumns {
        let floor = !0u64 << board.height();
        let mut columns = [!0u64; BOARD_WIDTH + 4];
        for x in 0..BOARD_WIDTH {
            columns[x + 2] =
                (u64::from(board.column(x)) | floor) << 2 | u64::from(board.hidden_column(x));
        }
        BlockedColumns { columns, floor }
    }
}

/// The pivot rows y (bit y) at which `piece` in `rotation` with pivot column `x` is legal on
/// the board of `blocked`, for both searches: for each of the orientation's cells (dx, dy),
/// the occupied column `x + dx` with the rows from the floor on set, shifted by `dy`, puts the
/// cell of pivot row y on bit y; the OR over the cells is the blocked set. A cell outside the
/// walls reads a wall, which blocks every row; cells on rows −2 and −1 read the column's hidden
/// rows (free but on a console board).
/// (Every cell has |dx| ≤ 2 and |dy| ≤ 2, so the index stays in the array and the stored
/// `<< 2` turns every shift by dy into a right shift by dy + 2.)
#[inline(always)]
fn legal_pivot_rows(blocked: &BlockedColumns, cells: [(i8, i8); 4], x: i8) -> u64 {
    let mut rows = 0u64;
    for (dx, dy) in cells {
        rows |= blocked.columns[(x + dx + 2) as usize] >> (dy + 2);
    }
    !rows & !blocked.floor
}

/// The cells of `piece`'s orientations, the first `orientation_count` of them meaningful (the
/// others repeat them), for the per-piece copies whose cells are constants.
pub(crate) const fn orientations_of(piece: Piece) -> [[(i8, i8); 4]; 4] {
    let count = piece.orientation_count();
    [
        piece.cells(0),
        piece.cells(1 % count),
        piece.cells(2 % count),
        piece.cells(3 % count),
    ]
}

/// The legal pivot rows of every (column, rotation) of the piece with index `PIECE`, each word
/// [`legal_pivot_rows`] of its column and rotation, the other words of the `SLOTS` 0 (the
/// plain search pads its words to 64, the gamepad keeps 48). The orientations' cells are a
/// constant table here, so every offset is a constant after inlining.
#[inline(always)]
fn legal_words_of<const PIECE: usize, const SLOTS: usize>(
    blocked: &BlockedColumns,
    legal: &mut [u64; SLOTS],
) {
    let orientations = const { orientations_of(Piece::ALL[PIECE]) };
    let rotations = const { Piece::ALL[PIECE].orientation_count() };
    *legal = [0; SLOTS];
    for (rotation, &cells) in orientations.iter().enumerate().take(rotations as usize) {
        for x in 0..BOARD_WIDTH as i8 {
            legal[word_of(x, rotation as u8)] = legal_pivot_rows(blocked, cells, x);
        }
    }
}

/// Column slots of the state words: the 10 columns plus one wall slot on each side, whose
/// words stay empty so that left and right moves need no bounds check.
const COLUMN_SLOTS: usize = BOARD_WIDTH + 2;
/// Rotation slots per column (pieces with fewer orientations leave the rest empty).
const ROTATION_SLOTS: usize = 4;
/// One `u64` word of pivot rows per (column slot, rotation), padded to a power of two so that
/// masking a word index replaces its bounds check.
const WORD_SLOTS: usize = (COLUMN_SLOTS * ROTATION_SLOTS).next_power_of_two();
/// Mask of a word index.
const WORD_MASK: usize = WORD_SLOTS - 1;
/// Bits of the row field of a state code. Six rather than five so that the down move from
/// row 31 (row 32, always illegal) stays inside its own word instead of spilling into the next.
const ROW_BITS: u32 = 6;
/// Mask of the row field of a state code.
const ROW_MASK: u32 = (1 << ROW_BITS) - 1;
/// Every state a search can reach: pivot rows never go above 0 (there is no up move and the
/// spawn row is 0), so at most H ≤ 32 rows × 10 columns × 4 rotations.
const MAX_STATES: usize = MAX_BOARD_HEIGHT as usize * BOARD_WIDTH * ROTATION_SLOTS;
/// Queue arrays: every state once, plus one speculative write past the last (see
/// `Bfs::flood`), padded to a power of two so that masking an index replaces its bounds check.
const QUEUE_LENGTH: usize = (MAX_STATES + 1).next_power_of_two();
/// Mask of a queue index.
const QUEUE_MASK: usize = QUEUE_LENGTH - 1;
/// Marks a parent or lock reference that points into the open band's list rather than into
/// the queue.
const BAND_FLAG: u16 = 0x8000;
/// Most states in one row of the open band: 4 orientations × at most 10 columns.
const MAX_BAND_STATES: usize = ROTATION_SLOTS * BOARD_WIDTH;
/// Room for the longest horizontal path to an open band state (at most 2 turns and 5 shifts;
/// 6 moves in fact, as no orientation 2 turns away reaches 5 columns from the spawn).
const MAX_BAND_MOVES: usize = 7;
/// A queue order key is `distance << KEY_DISTANCE_SHIFT | lexical rank of the band ancestor`
/// (the rank is below `MAX_BAND_STATES` ≤ 64).
const KEY_DISTANCE_SHIFT: u32 = 6;

/// Index of each successor move in the canonical order; a path compares lexicographically by
/// these indices.
const COUNTERCLOCKWISE: u8 = 0;
/// See [`COUNTERCLOCKWISE`].
const CLOCKWISE: u8 = 1;
/// See [`COUNTERCLOCKWISE`].
const LEFT: u8 = 2;
/// See [`COUNTERCLOCKWISE`].
const RIGHT: u8 = 3;
/// See [`COUNTERCLOCKWISE`].
const DOWN: u8 = 4;
/// The input of each successor move index.
const MOVE_INPUTS: [Input; 5] = [
    Input::RotateCounterclockwise,
    Input::RotateClockwise,
    Input::Left,
    Input::Right,
    Input::Down,
];
/// Code change of a left move (one column slot = `ROTATION_SLOTS` words).
const COLUMN_DELTA: u32 = (ROTATION_SLOTS as u32) << ROW_BITS;

/// The word of a pivot column and rotation: `(x + 1) * 4 + rotation`.
#[inline]
const fn word_of(x: i8, rotation: u8) -> usize {
    (x + 1) as usize * ROTATION_SLOTS + rotation as usize
}

/// The code of a state: `word << ROW_BITS | y` (`y ≥ 0`: pivot rows never go above 0).
#[inline]
const fn state_code(x: i8, y: i8, rotation: u8) -> u32 {
    ((word_of(x, rotation) as u32) << ROW_BITS) | y as u32
}

/// The state of a code (inverse of `state_code`).
#[inline]
const fn code_state(code: u32) -> PieceState {
    let word = (code >> ROW_BITS) as usize;
    PieceState {
        x: (word / ROTATION_SLOTS) as i8 - 1,
        y: (code & ROW_MASK) as i8,
        rotation: (word % ROTATION_SLOTS) as u8,
    }
}

/// One state of the last row of the open band (see the design note), with the part of its
/// canonical path that is not "down": its turns, then its shifts.
#[derive(Clone, Copy, Debug, Default)]
struct BandState {
    /// The (column, rotation) word.
    word: u8,
    /// `horizontal distance << KEY_DISTANCE_SHIFT | lexical rank`: the order key at pivot row
    /// 0; a row `y` adds `y << KEY_DISTANCE_SHIFT`.
    key: u16,
    /// Move indices of the turns and shifts, in path order.
    moves: [u8; MAX_BAND_MOVES],
    /// How many of `moves` are used.
    move_count: u8,
}

/// The band states of one piece, sorted in canonical order.
#[derive(Clone, Copy, Debug)]
struct BandList {
    states: [BandState; MAX_BAND_STATES],
    count: usize,
}

impl BandList {
    /// Every (column, rotation) of `piece` inside the walls, with its canonical horizontal
    /// path from the spawn, in canonical order.
    fn new(piece: Piece) -> BandList {
        let mut states = [BandState::default(); MAX_BAND_STATES];
        // The path with each remaining move padded by "down": a band path is followed by at
        // least one down (the band has 2 rows or more), and comparing these arrays compares
        // the full paths.
        let mut padded = [[DOWN; MAX_BAND_MOVES + 1]; MAX_BAND_STATES];
        let mut count = 0;
        let orientations = piece.orientation_count();
        for rotation in 0..orientations {
            let cells = piece.cells(rotation);
            let left_reach = cells.iter().map(|&(dx, _)| dx).min().unwrap_or(0);
            let right_reach = cells.iter().map(|&(dx, _)| dx).max().unwrap_or(0);
            for x in -left_reach..BOARD_WIDTH as i8 - right_reach {
                let mut moves = [0; MAX_BAND_MOVES];
                let mut move_count = 0;
                let mut push = |step: u8| {
                    moves[move_count] = step;
                    move_count += 1;
                };
                // The shortest turns; the counterclockwise way wins a tie (T, J, L to
                // rotation 2) because it is tried first, and the two-orientation pieces only
                // ever turn counterclockwise.
                let counterclockwise_turns = (orientations - rotation) % orientations;
                if orientations <= 2 || counterclockwise_turns <= rotation {
                    (0..counterclockwise_turns).for_each(|_| push(COUNTERCLOCKWISE));
                } else {
                    (0..rotation).for_each(|_| push(CLOCKWISE));
                }
                let shift = if x < SPAWN_X { LEFT } else { RIGHT };
                (0..(x - SPAWN_X).unsigned_abs()).for_each(|_| push(shift));
                padded[count][..move_count].copy_from_slice(&moves[..move_count]);
                states[count] = BandState {
                    word: word_of(x, rotation) as u8,
                    key: (move_count as u16) << KEY_DISTANCE_SHIFT,
                    moves,
                    move_count: move_count as u8,
                };
                count += 1;
            }
        }
        for index in 0..count {
            let rank = padded[..count]
                .iter()
                .filter(|&other| *other < padded[index])
                .count();
            states[index].key |= rank as u16;
        }
        states[..count].sort_unstable_by_key(|state| state.key);
        BandList { states, count }
    }
}

/// Full breadth-first lock search: every lock placement reachable from the spawn state with
/// left, right, down, clockwise and counterclockwise moves (no kicks, no gravity, unlimited
/// time), in the canonical BFS dequeue order of docs/spec/search.md, with BFS-tree input paths on
/// request. Name: `bfs`.
///
/// All scratch lives in the struct, so a search allocates nothing once the output buffer (and,
/// for paths, the path scratch) has grown.
#[derive(Clone)]
pub struct Bfs {
    /// Legal pivot rows per (column slot, rotation) word for the board being searched.
    legal: [u64; WORD_SLOTS],
    /// Legal pivot rows not yet discovered.
    open: [u64; WORD_SLOTS],
    /// The FIFO queue of state codes below the open band, in discovery (= dequeue) order.
    queue: [u16; QUEUE_LENGTH],
    /// The order key of each queue entry.
    keys: [u32; QUEUE_LENGTH],
    /// For each queue entry, its first-discovering parent: a queue index, or a band index
    /// with `BAND_FLAG` (paths only).
    parents: [u16; QUEUE_LENGTH],
    /// For each queue entry, the move index it came by (paths only).
    moves: [u8; QUEUE_LENGTH],
    /// The lock states in dequeue order, as queue indices or band indices with `BAND_FLAG`.
    locks: [u16; QUEUE_LENGTH],
    /// The open band's last-row states of each piece, in canonical order.
    bands: [BandList; 7],
    /// Reversed path scratch for one placement.
    path: Vec<Input>,
}

impl Bfs {
    /// A searcher with empty scratch.
    pub fn new() -> Bfs {
        Bfs {
            legal: [0; WORD_SLOTS],
            open: [0; WORD_SLOTS],
            queue: [0; QUEUE_LENGTH],
            keys: [0; QUEUE_LENGTH],
            parents: [0; QUEUE_LENGTH],
            moves: [0; QUEUE_LENGTH],
            locks: [0; QUEUE_LENGTH],
            bands: Piece::ALL.map(BandList::new),
            path: Vec::new(),
        }
    }

    /// Fills `legal` with the legal pivot rows of every (column, rotation) of `piece`.
    ///
    /// One copy per piece ([`legal_words_of`]), so that the cells' offsets are constants: the
    /// shifts and column indices of [`legal_pivot_rows`] are then fixed and need no bounds
    /// checks, the same words for a fraction of the instructions.
    fn compute_legal(&mut self, board: &Board, piece: Piece) {
        let blocked = BlockedColumns::new(board);
        let legal = &mut self.legal;
        match piece {
            Piece::T => legal_words_of::<{ Piece::T as usize }, WORD_SLOTS>(&blocked, legal),
            Piece::J => legal_words_of::<{ Piece::J as usize }, WORD_SLOTS>(&blocked, legal),
            Piece::Z => legal_words_of::<{ Piece::Z as usize }, WORD_SLOTS>(&blocked, legal),
            Piece::O => legal_words_of::<{ Piece::O as usize }, WORD_SLOTS>(&blocked, legal),
            Piece::S => legal_words_of::<{ Piece::S as usize }, WORD_SLOTS>(&blocked, legal),
            Piece::L => legal_words_of::<{ Piece::L as usize }, WORD_SLOTS>(&blocked, legal),
            Piece::I => legal_words_of::<{ Piece::I as usize }, WORD_SLOTS>(&blocked, legal),
        }
    }

    /// The merged FIFO flood (see the design note); returns the lock count. `band_rows` is the
    /// open band's height (0 for none). With `WITH_PATHS` it also records each queue entry's
    /// first-discovering parent and move. `ROTATIONS` is the piece's orientation count, so
    /// that the successor loop skips the turns a piece does not have.
    #[inline(always)]
    fn flood<const ROTATIONS: usize, const WITH_PATHS: bool>(
        &mut self,
        piece: Piece,
        band_rows: u32,
    ) -> usize {
        // Per rotation, the code change of a counterclockwise and of a clockwise turn.
        let mut rotation_deltas = [[0u32; 2]; ROTATION_SLOTS];
        for rotation in 0..piece.orientation_count() {
            let delta = |to: u8| (to as u32).wrapping_sub(rotation as u32) << ROW_BITS;
            rotation_deltas[rotation as usize] = [
                delta(piece.counterclockwise(rotation)),
                delta(piece.clockwise(rotation)),
            ];
        }
        // The canonical successor moves this piece has: O does not turn, and for two
        // orientations the clockwise turn would reach the same state as the counterclockwise.
        let has_move = |step: usize| match ROTATIONS {
            1 => step >= LEFT as usize,
            2 => step != CLOCKWISE as usize,
            _ => true,
        };
        let Bfs {
            legal,
            open,
            queue,
            keys,
            parents,
            moves,
            locks,
            bands,
            ..
        } = self;
        let band_list = &bands[piece.index()];
        let band: &[BandState] = if band_rows == 0 {
            &[]
        } else {
            &band_list.states[..band_list.count]
        };
        let band_row = band_rows.saturating_sub(1);
        let band_key_offset = band_row << KEY_DISTANCE_SHIFT;
        let mut tail = 0;
        if band.is_empty() {
            let spawn = state_code(SPAWN_X, SPAWN_Y, 0);
            open[(spawn >> ROW_BITS) as usize] &= !1;
            queue[0] = spawn as u16;
            keys[0] = 0;
            tail = 1;
        }
        let mut head = 0;
        let mut next_band = 0;
        let mut lock_count = 0;
        loop {
            let band_first = next_band < band.len()
                && (head == tail
                    || band_key_offset + (band[next_band].key as u32) < keys[head & QUEUE_MASK]);
            if band_first {
                // A last-row band state: its turns and shifts lead to band states, all
                // discovered already, so only "down" can find something new.
                let state = band[next_band];
                let word = state.word as usize;
                let key = band_key_offset + state.key as u32;
                let bit = 1u64 << (band_row + 1);
                let found = open[word] & bit != 0;
                open[word] &= !bit;
                queue[tail & QUEUE_MASK] = ((word as u32) << ROW_BITS | (band_row + 1)) as u16;
                keys[tail & QUEUE_MASK] = key + (1 << KEY_DISTANCE_SHIFT);
                if WITH_PATHS {
                    parents[tail & QUEUE_MASK] = next_band as u16 | BAND_FLAG;
                    moves[tail & QUEUE_MASK] = DOWN;
                }
                tail += found as usize;
                locks[lock_count & QUEUE_MASK] = next_band as u16 | BAND_FLAG;
                lock_count += (legal[word & WORD_MASK] & bit == 0) as usize;
                next_band += 1;
            } else if head < tail {
                let code = queue[head & QUEUE_MASK] as u32;
                let key = keys[head & QUEUE_MASK] + (1 << KEY_DISTANCE_SHIFT);
                let word = (code >> ROW_BITS) as usize;
                let row = code & ROW_MASK;
                let [counterclockwise, clockwise] = rotation_deltas[word % ROTATION_SLOTS];
                let successors = [
                    code.wrapping_add(counterclockwise),
                    code.wrapping_add(clockwise),
                    code - COLUMN_DELTA,
                    code + COLUMN_DELTA,
                    code + 1,
                ];
                for (step, &next) in successors.iter().enumerate() {
                    if !has_move(step) {
                        continue;
                    }
                    let next_word = (next >> ROW_BITS) as usize & WORD_MASK;
                    let bit = 1u64 << (next & ROW_MASK);
                    let found = open[next_word] & bit != 0;
                    open[next_word] &= !bit;
                    // Written unconditionally and kept only when new: no unpredictable branch.
                    queue[tail & QUEUE_MASK] = next as u16;
                    keys[tail & QUEUE_MASK] = key;
                    if WITH_PATHS {
                        parents[tail & QUEUE_MASK] = head as u16;
                        moves[tail & QUEUE_MASK] = step as u8;
                    }
                    tail += found as usize;
                }
                locks[lock_count & QUEUE_MASK] = head as u16;
                lock_count += (legal[word & WORD_MASK] >> (row + 1) & 1 == 0) as usize;
                head += 1;
            } else {
                break;
            }
        }
        lock_count
    }

    /// Runs the flood specialised for the piece's orientation count.
    fn flood_for<const WITH_PATHS: bool>(&mut self, piece: Piece, band_rows: u32) -> usize {
        match piece.orientation_count() {
            1 => self.flood::<1, WITH_PATHS>(piece, band_rows),
            2 => self.flood::<2, WITH_PATHS>(piece, band_rows),
            _ => self.flood::<4, WITH_PATHS>(piece, band_rows),
        }
    }

    /// The state of a lock reference (a queue index, or a band index with `BAND_FLAG`).
    fn lock_state(&self, piece: Piece, lock: u16, band_rows: u32) -> PieceState {
        if lock & BAND_FLAG != 0 {
            let state = self.bands[piece.index()].states[(lock & !BAND_FLAG) as usize];
            code_state((state.word as u32) << ROW_BITS | (band_rows - 1))
        } else {
            code_state(self.queue[lock as usize] as u32)
        }
    }

    /// Fills `path` with the reversed input path of a lock reference.
    fn reversed_path(&mut self, piece: Piece, lock: u16, band_rows: u32) {
        self.path.clear();
        let mut at = lock;
        loop {
            if at & BAND_FLAG != 0 {
                let state = self.bands[piece.index()].states[(at & !BAND_FLAG) as usize];
                let downs = band_rows as usize - 1;
                self.path.extend(std::iter::repeat_n(Input::Down, downs));
                let turns_and_shifts = &state.moves[..state.move_count as usize];
                self.path.extend(
                    turns_and_shifts
                        .iter()
                        .rev()
                        .map(|&step| MOVE_INPUTS[step as usize]),
                );
                return;
            }
            if at == 0 && band_rows == 0 {
                return;
            }
            self.path
                .push(MOVE_INPUTS[self.moves[at as usize] as usize]);
            at = self.parents[at as usize];
        }
    }
}

impl Default for Bfs {
    fn default() -> Self {
        Bfs::new()
    }
}

/// Rows of the open band on `board`: the pivot rows `0..B` in which every orientation of every
/// piece fits in every column, `B = E − 1` for `E` completely empty top rows (every
/// orientation reaches at most 1 row below its pivot). Only used when it is 2 rows or more
/// (see the design note); 0 otherwise, and 0 on a console board with a cell on its hidden rows,
/// where the band would not play as on the empty board.
fn open_band_rows(board: &Board) -> u32 {
    if board.hidden_rows() != 0 {
        return 0;
    }
    let empty_top_rows = board
        .columns()
        .iter()
        .map(|column| column.trailing_zeros())
        .min()
        .unwrap_or(0)
        .min(board.height() as u32);
    let band_rows = empty_top_rows.saturating_sub(1);
    if band_rows >= 2 { band_rows } else { 0 }
}

impl NamedSearcher for Bfs {
    const NAME: &'static str = "bfs";
    const DESCRIPTION: &'static str =
        "breadth-first lock search: every slide and spin, no gravity (search.md §1)";

    fn with_default_settings() -> Bfs {
        Bfs::new()
    }
}

impl Searcher for Bfs {
    fn name(&self) -> &str {
        Bfs::NAME
    }

    fn search(
        &mut self,
        board: &Board,
        piece: Piece,
        options: SearchOptions,
        out: &mut Placements,
    ) {
        out.clear(options.with_paths);
        self.compute_legal(board, piece);
        if self.legal[word_of(SPAWN_X, 0)] >> SPAWN_Y & 1 == 0 {
            return;
        }
        let band_rows = open_band_rows(board);
        // Band states are never queued: mark them all discovered.
        let below_band = !0u64 << band_rows;
        for (open, legal) in self.open.iter_mut().zip(&self.legal) {
            *open = legal & below_band;
        }
        let lock_count = if options.with_paths {
            self.flood_for::<true>(piece, band_rows)
        } else {
            self.flood_for::<false>(piece, band_rows)
        };
        for index in 0..lock_count {
            let lock = self.locks[index];
            let placement = Placement::new(piece, self.lock_state(piece, lock, band_rows));
            if options.with_paths {
                self.reversed_path(piece, lock, band_rows);
                out.push_with_path(placement, self.path.iter().rev().copied());
            } else {
                out.push(placement);
            }
        }
    }

    /// Without paths, the reachability flood of the `unordered` module (same placements, in
    /// rotation, column, row order); with paths, [`Bfs::search`]'s ordered search.
    fn search_unordered(
        &mut self,
        board: &Board,
        piece: Piece,
        options: SearchOptions,
        out: &mut Placements,
    ) {
        if options.with_paths {
            self.search(board, piece, options, out);
        } else {
            self.search_reachable(board, piece, out);
        }
    }

    /// The unordered search gives rotation, column, row order, not the BFS order.
    fn unordered_search_keeps_order(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Asserts that the searcher reproduces the reference oracle on `board`: the same
    /// placements in the same order with the same paths, the same placements without paths,
    /// and the same set, each once, from the unordered search.
    fn assert_matches_reference(bfs: &mut Bfs, board: &Board) {
        let mut with_paths = Placements::new();
        let mut without_paths = Placements::new();
        let mut unordered = Placements::new();
        for piece in Piece::ALL {
            bfs.search(board, piece, SearchOptions::WITH_PATHS, &mut with_paths);
            bfs.search(board, piece, SearchOptions::default(), &mut without_paths);
            bfs.search_unordered(board, piece, SearchOptions::default(), &mut unordered);
            let expected = reference::search(board, piece);
            let mut expected_set: Vec<Placement> =
                expected.iter().map(|found| found.placement).collect();
            expected_set.sort_by_key(|placement| (placement.rotation, placement.x, placement.y));
            assert_eq!(
                unordered.as_slice(),
                expected_set.as_slice(),
                "unordered {piece} on\n{board}"
            );
            assert_eq!(with_paths.len(), expected.len(), "{piece} on\n{board}");
            assert_eq!(
                with_paths.as_slice(),
                without_paths.as_slice(),
                "{piece} on\n{board}"
            );
            for (index, expected) in expected.iter().enumerate() {
                assert_eq!(
                    with_paths.as_slice()[index],
                    expected.placement,
                    "{piece} #{index}"
                );
                assert_eq!(
                    with_paths.path(index),
                    Some(&expected.path[..]),
                    "{piece} #{index}"
                );
            }
        }
    }

    /// Pins the per-piece legal words (constant cell offsets) to [`legal_pivot_rows`] over the
    /// piece's orientation table read at run time, on random boards of every height, hidden
    /// rows included.
    #[test]
    fn per_piece_legal_words_equal_the_run_time_cell_loop() {
        let mut noise = BoardNoise(0x1E6A_1000);
        let mut bfs = Bfs::new();
        for round in 0..400 {
            let mut board = noise.board();
            if round % 4 == 0 {
                board = board.with_hidden_rows();
                for x in 0..BOARD_WIDTH {
                    if noise.next() % 3 == 0 {
                        board.set_hidden(x, -1 - (noise.next() % 2) as i8);
                    }
                }
            }
            let blocked = BlockedColumns::new(&board);
            for piece in Piece::ALL {
                let mut expected = [0u64; WORD_SLOTS];
                for rotation in 0..piece.orientation_count() {
                    for x in 0..BOARD_WIDTH as i8 {
                        expected[word_of(x, rotation)] =
                            legal_pivot_rows(&blocked, piece.cells(rotation), x);
                    }
                }
                bfs.legal = [u64::MAX; WORD_SLOTS];
                bfs.compute_legal(&board, piece);
                assert_eq!(bfs.legal, expected, "{piece} on\n{board}");
            }
        }
    }

    /// A small deterministic generator for arbitrary boards (floating cells included), which
    /// the grown boards of the integration tests never have.
    struct BoardNoise(u64);

    impl BoardNoise {
        fn next(&mut self) -> u32 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (self.0 >> 33) as u32
        }

        /// A board of random height 4..=32 whose rows from a random top row down are filled
        /// with a random density.
        fn board(&mut self) -> Board {
            let height = 4 + (self.next() % 29) as usize;
            let mut board = Board::new(height).unwrap();
            let top = (self.next() % height as u32) as usize;
            let density = self.next() % 100;
            for y in top..height {
                for x in 0..BOARD_WIDTH {
                    if self.next() % 100 < density {
                        board.set(x, y);
                    }
                }
            }
            board
        }
    }

    #[test]
    fn matches_the_reference_on_empty_boards_of_every_height() {
        let mut bfs = Bfs::new();
        for height in 4..=32 {
            assert_matches_reference(&mut bfs, &Board::new(height).unwrap());
        }
    }

    #[test]
    fn matches_the_reference_on_arbitrary_boards() {
        // Covers every open band height from none (a stack or floating cells near the top) to
        // the whole field, with one searcher reused across boards and heights.
        let mut bfs = Bfs::new();
        let mut noise = BoardNoise(12345);
        for _ in 0..4000 {
            let board = noise.board();
            assert_matches_reference(&mut bfs, &board);
        }
    }

    #[test]
    fn the_open_band_needs_two_empty_rows_below_the_first() {
        // E empty top rows give a band of E − 1 pivot rows, used only from 2 rows on.
        let mut board = Board::standard();
        assert_eq!(open_band_rows(&board), 19);
        board.set(9, 3);
        assert_eq!(open_band_rows(&board), 2);
        board.set(0, 2);
        assert_eq!(open_band_rows(&board), 0);
        assert_eq!(open_band_rows(&Board::new(4).unwrap()), 3);
    }

    #[test]
    fn band_lists_hold_every_column_and_rotation_in_canonical_order() {
        // T: widths 3, 2, 3, 2 give 8 + 9 + 8 + 9 columns; J and L the same; Z and S 8 + 9;
        // O 9; I 7 + 10.
        let counts = Piece::ALL.map(|piece| BandList::new(piece).count);
        assert_eq!(counts, [34, 34, 17, 9, 17, 34, 17]);
        // T: the spawn column and orientation first (distance 0), then distance 1 by the
        // first move: counterclockwise (rotation 3), clockwise (rotation 1), left, right.
        let t = BandList::new(Piece::T);
        let first: Vec<PieceState> = t.states[..5]
            .iter()
            .map(|state| code_state((state.word as u32) << ROW_BITS))
            .collect();
        let at = |x, rotation| PieceState { x, y: 0, rotation };
        assert_eq!(first, [at(5, 0), at(5, 3), at(5, 1), at(4, 0), at(6, 0)]);
        // Rotation 2 is two counterclockwise turns, the tie's smaller path.
        let turned_twice = t.states[..t.count]
            .iter()
            .find(|state| state.word as usize == word_of(5, 2))
            .unwrap();
        assert_eq!(
            &turned_twice.moves[..2],
            &[COUNTERCLOCKWISE, COUNTERCLOCKWISE]
        );
        assert_eq!(turned_twice.move_count, 2);
    }

    #[test]
    fn no_two_rotations_of_a_piece_cover_the_same_cells() {
        // Different rotation indices with the same shape would give two placements with the
        // same cells; shapes are compared after moving their top-left cell to (0, 0).
        let shape = |piece: Piece, rotation: u8| {
            let mut cells = piece.cells(rotation);
            let left = cells.iter().map(|cell| cell.0).min().unwrap();
            let top = cells.iter().map(|cell| cell.1).min().unwrap();
            for cell in &mut cells {
                *cell = (cell.0 - left, cell.1 - top);
            }
            cells.sort_unstable();
            cells
        };
        for piece in Piece::ALL {
            for first in 0..piece.orientation_count() {
                for second in first + 1..piece.orientation_count() {
                    assert_ne!(shape(piece, first), shape(piece, second), "{piece}");
                }
            }
        }
    }

    #[test]
    fn state_codes_round_trip() {
        for rotation in 0..4 {
            for x in 0..10 {
                for y in [0, 1, 19, 31] {
                    let state = PieceState { x, y, rotation };
                    assert_eq!(code_state(state_code(x, y, rotation)), state);
                }
            }
        }
    }

    #[test]
    fn a_blocked_spawn_gives_no_placement() {
        // Cell (5, 0) is part of every spawn orientation.
        let mut board = Board::standard();
        board.set(5, 0);
        let mut out = Placements::new();
        let mut bfs = Bfs::new();
        for piece in Piece::ALL {
            bfs.search(&board, piece, SearchOptions::WITH_PATHS, &mut out);
            assert!(out.is_empty(), "{piece}");
        }
    }
}
