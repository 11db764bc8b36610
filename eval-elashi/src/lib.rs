//! Islam El-Ashi's six features as the NES Java AI computes them, with its published weights
//! (docs/spec/evaluators.md §1).
//!
//! The article describes the features in words; the original program computes them as below,
//! and the program is the reference (its games must replay move for move), quirks included:
//!
//! - `depth(x)`, the row of column x's topmost occupied cell, is the bottom row H − 1 for an
//!   EMPTY column, so an empty column looks like a column whose only cell is on the floor.
//! - `wells` counts from the column's own top row, so a flat stack counts 1 per column whose
//!   neighbours are occupied at that row.
//! - `holes` counts each vertical gap once, however many cells it has.
//! - `column_transitions` starts "occupied" at the column's top and walks down, so the change
//!   from the empty space above the top into it is never counted.
//!
//! Cost = Σ weight × feature in [`FEATURE_NAMES`] order, left to right, in `f64`; lower is
//! better, 0 is the best possible. `rows_cleared` and `lock_height` are summed over every
//! placement of the chain; the four board features are taken on the final board (after every
//! placement and its line clears).
//!
//! Board height: the spec writes the rules for a 20-row field ("row 19"); on a field H rows
//! tall (4 to 32) the bottom row is H − 1 wherever the spec says 19.
#![deny(missing_docs)]

mod last_link;

use tetris_core::evaluate::weighted_sum_of;
use tetris_core::features::{both_sides_occupied_mask, with_popcount};
use tetris_core::{
    BOARD_WIDTH, Board, Chain, Evaluator, LinkValue, Placement, PlacementRecord, Preset,
    WeightedEvaluator, Weights,
};

/// The feature names in the spec's table order: the order `features` writes them, weights
/// apply and the cost sums.
pub const FEATURE_NAMES: &[&str] = &[
    "rows_cleared",
    "lock_height",
    "wells",
    "holes",
    "column_transitions",
    "row_transitions",
];

/// How many features El-Ashi's evaluation has.
pub const FEATURE_COUNT: usize = 6;

/// The features that belong to the chain's placements rather than to the final board
/// (`arena features` omits them; they are 0 for a board on its own).
pub const PLACEMENT_FEATURE_NAMES: &[&str] = &["rows_cleared", "lock_height"];

/// The published weights, in [`FEATURE_NAMES`] order, with the spec's exact digits.
// The trailing zeros are the spec's digits; keeping them lets the table be compared by eye.
#[allow(clippy::excessive_precision)]
pub const PUBLISHED_WEIGHTS: [f64; FEATURE_COUNT] = [
    1.000000000000000,
    12.885008263218383,
    15.842707182438396,
    26.894496507795950,
    27.616914062397015,
    30.185110719279040,
];

/// The weight presets El-Ashi ships; the first is the default.
pub const PRESETS: &[Preset] = &[Preset {
    name: "published",
    description: "the weights published with El-Ashi's NES Java AI (evaluators.md §1)",
    values: &PUBLISHED_WEIGHTS,
}];

/// `depth(x)`: the row index (0 at the top) of column `x`'s topmost occupied cell, or the
/// bottom row H − 1 when the column is empty (the original program's rule: an empty column
/// looks like a column whose only occupied cell is on the floor).
#[inline]
pub fn depth(board: &Board, x: usize) -> u32 {
    // The floor row's bit stands in for the top of an empty column; in a non-empty column a
    // set bit at or above it always comes first.
    (board.column(x) | board.floor_row_bit()).trailing_zeros()
}

/// El-Ashi's `wells` in column `x`: with `top = max(depth(x − 1), depth(x + 1))` (at a wall,
/// the one neighbour's depth), the number of rows y from `depth(x)` up to `top` inclusive
/// (y decreasing; none when `depth(x) < top`) where the left and the right neighbour of
/// `(x, y)` are both occupied, a wall counting as occupied. The column's own top row is
/// included, and whether `(x, y)` itself is empty is not checked.
///
/// Because `depth` of an empty column is the bottom row, a 4-deep, 1-wide well counts 4
/// whether its bottom cell is empty or occupied.
#[inline]
pub fn column_wells(board: &Board, x: usize) -> u32 {
    wells_with_depths(board, &padded_depths(board), x)
}

/// El-Ashi's `wells` of the board: [`column_wells`] summed over the ten columns.
#[inline]
pub fn wells(board: &Board) -> u32 {
    let depths = padded_depths(board);
    let mut sum = 0;
    for x in 0..BOARD_WIDTH {
        sum += wells_with_depths(board, &depths, x);
    }
    sum
}

/// `depth(x)` of every column at index `x + 1`, with row 0 at both ends: a wall as high as
/// the field, so that `max` with it leaves the one real neighbour's depth, as the spec says.
#[inline]
fn padded_depths(board: &Board) -> [u32; BOARD_WIDTH + 2] {
    let mut depths = [0; BOARD_WIDTH + 2];
    for x in 0..BOARD_WIDTH {
        depths[x + 1] = depth(board, x);
    }
    depths
}

#[inline]
fn wells_with_depths(board: &Board, depths: &[u32; BOARD_WIDTH + 2], x: usize) -> u32 {
    let depth = depths[x + 1];
    let top = depths[x].max(depths[x + 2]);
    if depth < top {
        return 0;
    }
    // Rows top..=depth; depth ≤ 31, so the shift never overflows.
    let rows = (u32::MAX >> (31 - depth)) & (u32::MAX << top);
    (rows & both_sides_occupied_mask(board, x)).count_ones()
}

/// El-Ashi's four board features of one board (see [`feature_values`] for the definitions).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BoardFeatures {
    /// [`wells`].
    pub wells: u32,
    /// Hole runs: empty cells below `depth(x)` whose cell directly above is occupied.
    pub holes: u32,
    /// Changes walking each column down from its top, the floor not a cell.
    pub column_transitions: u32,
    /// Changes walking each non-empty row from wall to wall.
    pub row_transitions: u32,
}

/// El-Ashi's four board features in one pass over the columns, with the same values as
/// [`wells`] and the shared primitives [`tetris_core::features::hole_runs`],
/// [`tetris_core::features::column_transitions_below_top`] and
/// [`tetris_core::features::row_transitions_nonempty_rows`] (the tests check it on random
/// boards of every height).
///
/// Why not call the primitives one after the other (the benchmark said so): each walks the
/// ten columns again and counts bits with its own `count_ones`, and the default x86-64 target
/// has no popcount instruction, so each count is a dozen instructions. One pass works on two
/// columns at a time in one `u64` (so one count covers two columns), finds the wells without
/// shifts by variable amounts, and needs no count at all for `column_transitions`: walking
/// down from a column's top, every gap is entered once and left once, except a gap that
/// reaches the bottom row (the floor is not a cell), so
/// `column_transitions = 2 × holes − (non-empty columns whose bottom cell is empty)`.
/// On x86-64 CPUs that have the popcount instruction (checked once at run time, cached by
/// `std`) the same code runs compiled with it; the results are the same integers either way.
#[inline]
pub fn board_features(board: &Board) -> BoardFeatures {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the CPU supports the popcnt instruction, checked just above.
        return unsafe { board_features_with_popcnt(board) };
    }
    board_features_portable(board)
}

/// [`board_features_portable`] compiled with the popcount instruction.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
unsafe fn board_features_with_popcnt(board: &Board) -> BoardFeatures {
    board_features_portable(board)
}

/// The one-pass computation behind [`board_features`], in portable code.
///
/// It works on two columns at a time, side by side in one `u64` (see [`pair`]). Every
/// operation is a bit operation, a shift by a constant, or a lane-wise `± 1` on lanes that are
/// never zero, so the two lanes never mix.
#[inline(always)]
fn board_features_portable(board: &Board) -> BoardFeatures {
    let row_mask = board.row_mask();
    let floor_row = board.floor_row_bit();
    let floor_rows = pair(floor_row, floor_row);
    let mut nonempty_rows = 0;
    for &column in board.columns() {
        nonempty_rows |= column;
    }
    let nonempty_rows = pair(nonempty_rows, nonempty_rows);
    // A hole top is never on row 0, and `<< 1` moves the low lane's row 31 onto the high
    // lane's row 0: leaving row 0 out of the mask keeps the lanes apart.
    let hole_rows = pair(row_mask & !1, row_mask & !1);
    // Columns with a wall on each side, as tall as the field and occupied on every row.
    let mut padded = [row_mask; BOARD_WIDTH + 2];
    padded[1..=BOARD_WIDTH].copy_from_slice(board.columns());
    // neighbours[k]: padded columns 2k and 2k + 1, i.e. the left neighbours of columns 2k and
    // 2k + 1 and (for k ≥ 1) the right neighbours of columns 2k − 2 and 2k − 1.
    let neighbours: [u64; BOARD_WIDTH / 2 + 1] =
        std::array::from_fn(|k| pair(padded[2 * k], padded[2 * k + 1]));
    // The rows at or below depth(x) of each neighbour: `v | −v` keeps the lowest set bit and
    // everything above it. The floor row stands in for an empty column's top (the spec's
    // depth rule) and makes every lane non-zero. A wall, occupied on every row, has depth 0:
    // all rows are at or below it, so the one real neighbour decides, as the spec says.
    let at_or_below_depth = neighbours.map(|columns| {
        let with_floor = columns | floor_rows;
        with_floor | (!with_floor).wrapping_add(LANE_ONES)
    });
    let mut holes = 0;
    let mut wells = 0;
    let mut row_transitions = 0;
    let mut open_bottoms = 0;
    for k in 0..BOARD_WIDTH / 2 {
        // Columns 2k and 2k + 1.
        let columns = pair(padded[2 * k + 1], padded[2 * k + 2]);
        let with_floor = columns | floor_rows;
        // Rows 0..=depth(x): `v ^ (v − 1)` is the lowest set bit and everything below it.
        let down_to_depth = with_floor ^ with_floor.wrapping_sub(LANE_ONES);
        // wells: rows from top = max(neighbour depths) down to depth(x), both sides occupied.
        let well_rows = down_to_depth
            & at_or_below_depth[k]
            & at_or_below_depth[k + 1]
            & neighbours[k]
            & neighbours[k + 1];
        let hole_tops = (columns << 1) & !columns & hole_rows;
        // The floor row's bit where the bottom cell is empty and lies below the column's top
        // (so the column is not empty).
        let open_bottom = !columns & floor_rows & !down_to_depth;
        holes += hole_tops.count_ones();
        wells += well_rows.count_ones();
        // Changes between padded columns 2k | 2k + 1 (low lane) and 2k + 1 | 2k + 2 (high).
        row_transitions += ((neighbours[k] ^ columns) & nonempty_rows).count_ones();
        open_bottoms += open_bottom >> (floor_row.trailing_zeros());
    }
    // Column 9 against the right wall: the two lanes of the last neighbour pair.
    let last = neighbours[BOARD_WIDTH / 2];
    row_transitions += ((last ^ (last >> 32)) as u32 & nonempty_rows as u32).count_ones();
    // Walking down from a column's top, every gap is entered once and left once, except a gap
    // that reaches the bottom row (the floor is not a cell).
    let open_bottoms = open_bottoms as u32 + (open_bottoms >> 32) as u32;
    BoardFeatures {
        wells,
        holes,
        column_transitions: 2 * holes - open_bottoms,
        row_transitions,
    }
}

/// Two columns side by side in one `u64`: `low` in bits 0..32 (lane 0), `high` in bits
/// 32..64 (lane 1), so one 64-bit operation works on both and one count counts both.
#[inline(always)]
fn pair(low: u32, high: u32) -> u64 {
    low as u64 | (high as u64) << 32
}

/// 1 in each lane of a [`pair`]: subtracting it subtracts 1 from each lane, and adding it to
/// the complement negates each lane. No borrow or carry crosses from lane 0 into lane 1 as
/// long as lane 0 is not zero.
const LANE_ONES: u64 = 1 | 1 << 32;

/// El-Ashi's six feature values of `chain`, in [`FEATURE_NAMES`] order:
///
/// - `rows_cleared`: rows cleared by all placements of the chain;
/// - `lock_height`: the sum over the chain of each placement's lock height (how many rows
///   further down the piece could fall, keeping its orientation, on an empty field: the
///   orientation's lowest legal pivot row minus the pivot row);
/// - `wells`: [`wells`] of the final board;
/// - `holes`: empty cells (x, y) below `depth(x)` whose cell directly above is occupied, each
///   vertical gap counted once ([`tetris_core::features::hole_runs`]);
/// - `column_transitions`: for each column, start "occupied" at `depth(x)`, walk down to the
///   bottom row and count every change between occupied and empty; the floor is not a cell
///   and an empty column adds 0 ([`tetris_core::features::column_transitions_below_top`]);
/// - `row_transitions`: for each row holding at least one occupied cell, walk from the left
///   wall (occupied) across the 10 cells to the right wall (occupied) and count every change;
///   empty rows add 0 ([`tetris_core::features::row_transitions_nonempty_rows`]).
///
/// The four board features are taken on the final board (computed by [`board_features`]).
/// With no records (a board on its own) the two placement features are 0.
#[inline]
pub fn feature_values(chain: Chain<'_>) -> [f64; FEATURE_COUNT] {
    let mut rows_cleared = 0;
    let mut lock_height = 0;
    for record in chain.records {
        rows_cleared += record.rows_cleared() as u32;
        lock_height += record.lock_height as u32;
    }
    let board = board_features(chain.board);
    [
        rows_cleared as f64,
        lock_height as f64,
        board.wells as f64,
        board.holes as f64,
        board.column_transitions as f64,
        board.row_transitions as f64,
    ]
}

/// El-Ashi's evaluator: six features, cost = Σ weight × feature (lower is better).
#[derive(Clone, Debug, PartialEq)]
pub struct ElAshi {
    weights: Weights,
    // The same values as `weights`, in a fixed-size array so the cost loop has no bounds
    // checks or indirection.
    values: [f64; FEATURE_COUNT],
}

impl ElAshi {
    /// El-Ashi with the published weights (the first preset).
    pub fn new() -> ElAshi {
        ElAshi::with_default_weights()
    }

    /// Σ weight × feature in [`FEATURE_NAMES`] order, left to right from 0.0, exactly as
    /// [`Weights::weighted_sum`] computes it (same bits), without the generic buffer.
    #[inline(always)]
    fn weighted_sum(&self, features: &[f64; FEATURE_COUNT]) -> f64 {
        weighted_sum_of(&self.values, features)
    }
}

impl WeightedEvaluator for ElAshi {
    /// The evaluator's name in strategy strings (`bfs+elashi`).
    const NAME: &'static str = "elashi";
    const FEATURE_NAMES: &'static [&'static str] = FEATURE_NAMES;
    const PRESETS: &'static [Preset] = PRESETS;

    fn from_checked_weights(weights: Weights) -> ElAshi {
        let mut values = [0.0; FEATURE_COUNT];
        values.copy_from_slice(weights.values());
        ElAshi { weights, values }
    }
}

impl Default for ElAshi {
    /// El-Ashi with the published weights.
    fn default() -> ElAshi {
        ElAshi::new()
    }
}

impl Evaluator for ElAshi {
    fn name(&self) -> &str {
        ElAshi::NAME
    }

    fn feature_names(&self) -> &'static [&'static str] {
        FEATURE_NAMES
    }

    fn placement_feature_names(&self) -> &'static [&'static str] {
        PLACEMENT_FEATURE_NAMES
    }

    /// Writes [`feature_values`] into the first six slots of `out`.
    #[inline]
    fn features(&self, chain: Chain<'_>, out: &mut [f64]) {
        out[..FEATURE_COUNT].copy_from_slice(&feature_values(chain));
    }

    fn weights(&self) -> &Weights {
        &self.weights
    }

    /// Σ weight × feature in [`FEATURE_NAMES`] order, left to right from 0.0, exactly as
    /// [`Weights::weighted_sum`] computes it (same bits), without the generic buffer.
    #[inline]
    fn cost(&self, chain: Chain<'_>) -> f64 {
        self.weighted_sum(&feature_values(chain))
    }

    /// The board's features updated for the columns each placement touches (module
    /// `last_link`), the same values as locking each placement and evaluating the board.
    fn last_link_values(
        &self,
        board: &Board,
        records: &mut Vec<PlacementRecord>,
        placements: &[Placement],
        out: &mut Vec<LinkValue>,
    ) {
        with_popcount(
            #[inline(always)]
            || self.last_link_values_by_columns(board, records, placements, f64::INFINITY, out),
        )
    }

    /// Yes when no weight is negative (the bounds need it).
    fn gives_stand_ins(&self) -> bool {
        self.values.iter().all(|&weight| weight >= 0.0)
    }

    /// [`Evaluator::last_link_values`] where a placement whose cost bound is above `to_beat`
    /// gets the bound (module `last_link`, "Deciding").
    fn last_link_values_to_beat(
        &self,
        board: &Board,
        records: &mut Vec<PlacementRecord>,
        placements: &[Placement],
        to_beat: f64,
        out: &mut Vec<LinkValue>,
    ) {
        with_popcount(
            #[inline(always)]
            || self.last_link_values_by_columns(board, records, placements, to_beat, out),
        )
    }
}

#[cfg(test)]
mod tests;
