//! Pierre Dellacherie's one-piece evaluation with El-Tetris semantics (docs/spec/evaluators.md §2), with
//! the presets `el-tetris` (default, El-Tetris's tuned weights) and `original` (Dellacherie's
//! hand-set integers).
//!
//! Dellacherie judges ONE placement and the board right after its rows are cleared. Used with
//! lookahead, it judges the LAST placement of the chain (`landing_height`, `rows_removed` and
//! `eroded_piece_cells` come from the chain's last record) and the FINAL board (the four board
//! features); earlier placements of the chain count only through the board they leave.
//!
//! Direction: the published form is a score, HIGHER is better: score = Σ weight × feature in
//! [`FEATURE_NAMES`] order, left to right, in `f64`. Every evaluator of this workspace returns
//! a cost, lower is better, so [`Dellacherie`]'s cost is the NEGATED score, `−score`. The
//! weights are kept exactly as published (presets and weights files use the score's signs, so
//! the numbers read as in El-Tetris and Dellacherie's description) and the sum is negated at
//! the end. Negation is exact in floating point, so the ranking and the ties are the score's.
//! Note that [`Weights::weighted_sum`] of these weights is therefore the score, not the cost.
//!
//! Board height: the spec writes the rules for a 20-row field; on a field H rows tall (4 to
//! 32) every rule applies to all H rows (an empty board has 2H row transitions), and the
//! landing height counts rows from the floor row H − 1.
#![deny(missing_docs)]

mod last_link;

use tetris_core::features::with_popcount;
use tetris_core::{
    BOARD_WIDTH, Board, Chain, Evaluator, LinkValue, Placement, PlacementRecord, Preset,
    WeightedEvaluator, Weights,
};

/// The feature names in the spec's table order: the order `features` writes them, weights
/// apply and the score sums.
pub const FEATURE_NAMES: &[&str] = &[
    "landing_height",
    "rows_removed",
    "eroded_piece_cells",
    "row_transitions",
    "column_transitions",
    "holes",
    "well_sums",
];

/// How many features Dellacherie's evaluation has.
pub const FEATURE_COUNT: usize = 7;

/// The features that belong to the (last) placement rather than to the final board
/// (`arena features` omits them; they are 0 for a board on its own).
pub const PLACEMENT_FEATURE_NAMES: &[&str] =
    &["landing_height", "rows_removed", "eroded_piece_cells"];

/// El-Tetris's tuned weights in their published (score, higher is better) form, in
/// [`FEATURE_NAMES`] order, with the spec's exact digits. `eroded_piece_cells` has weight 0.
pub const EL_TETRIS_WEIGHTS: [f64; FEATURE_COUNT] = [
    -4.500158825082766,
    3.4181268101392694,
    0.0,
    -3.2178882868487753,
    -9.348695305445199,
    -7.899265427351652,
    -3.3855972247263626,
];

/// Dellacherie's hand-set integer weights in their published (score, higher is better) form,
/// in [`FEATURE_NAMES`] order.
pub const ORIGINAL_WEIGHTS: [f64; FEATURE_COUNT] = [-1.0, 0.0, 1.0, -1.0, -1.0, -4.0, -1.0];

/// The weight presets, in the published score form (the cost negates the score); the first,
/// `el-tetris`, is the default.
pub const PRESETS: &[Preset] = &[
    Preset {
        name: "el-tetris",
        description: "El-Tetris's tuned weights (evaluators.md §2), published score form",
        values: &EL_TETRIS_WEIGHTS,
    },
    Preset {
        name: "original",
        description: "Dellacherie's hand-set integers (evaluators.md §2), published score form",
        values: &ORIGINAL_WEIGHTS,
    },
];

/// Dellacherie's four board features of one board (see [`feature_values`] for the
/// definitions).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BoardFeatures {
    /// Changes walking every row from wall to wall, empty rows included.
    pub row_transitions: u32,
    /// Changes walking every column from the floor up to the top row.
    pub column_transitions: u32,
    /// Empty cells with an occupied cell anywhere above them.
    pub holes: u32,
    /// Well cells, each weighted by 1 + the empty cells directly below it.
    pub well_sums: u32,
}

/// Dellacherie's four board features in one pass over the columns, with the same values as
/// the shared primitives [`tetris_core::features::row_transitions_all_rows`],
/// [`tetris_core::features::column_transitions_from_floor`],
/// [`tetris_core::features::covered_empty_cells`] and
/// [`tetris_core::features::well_sums_dellacherie`] (the tests check it on random boards of
/// every height).
///
/// Why not call the primitives one after the other (the benchmark said so): each walks the
/// ten columns again and counts bits with its own `count_ones`, and the default x86-64 target
/// has no popcount instruction, so each count is a dozen instructions. One pass works on two
/// columns at a time in one `u64`, so one count covers two columns. On x86-64 CPUs that have
/// the popcount instruction (checked once at run time, cached by `std`) the same code runs
/// compiled with it; the results are the same integers either way.
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
/// operation is a bit operation, a shift by a constant, or a lane-wise `− 1` on lanes that
/// are never zero, so the two lanes never mix; only `well_sums` walks its few well cells one
/// by one.
#[inline(always)]
fn board_features_portable(board: &Board) -> BoardFeatures {
    let row_mask = board.row_mask();
    let floor_row = board.floor_row_bit();
    let rows = pair(row_mask, row_mask);
    let floor_rows = pair(floor_row, floor_row);
    // Pairs of vertically adjacent cells (y, y + 1) inside the field: rows 0..=H − 2. Row 31 of
    // lane 0 is never among them, so `>> 1` bringing lane 1's row 0 there is masked away.
    let inner_pairs = pair(row_mask >> 1, row_mask >> 1);
    // Columns with a wall on each side, as tall as the field and occupied on every row.
    let mut padded = [row_mask; BOARD_WIDTH + 2];
    padded[1..=BOARD_WIDTH].copy_from_slice(board.columns());
    // neighbours[k]: padded columns 2k and 2k + 1, i.e. the left neighbours of columns 2k and
    // 2k + 1 and (for k ≥ 1) the right neighbours of columns 2k − 2 and 2k − 1.
    let neighbours: [u64; BOARD_WIDTH / 2 + 1] =
        std::array::from_fn(|k| pair(padded[2 * k], padded[2 * k + 1]));
    let mut holes = 0;
    let mut column_transitions = 0;
    let mut row_transitions = 0;
    for k in 0..BOARD_WIDTH / 2 {
        // Columns 2k and 2k + 1.
        let columns = pair(padded[2 * k + 1], padded[2 * k + 2]);
        // `v ^ (v − 1)` is the lowest set bit (the top cell) and every row above it; with the
        // floor row added, an empty column gives all rows and so no covered cell, and no lane
        // is zero.
        let with_floor = columns | floor_rows;
        let down_to_top = with_floor ^ with_floor.wrapping_sub(LANE_ONES);
        holes += (!down_to_top & !columns & rows).count_ones();
        // In-field changes, plus the floor (occupied) under an empty bottom cell.
        let column_changes = ((columns ^ (columns >> 1)) & inner_pairs) | (!columns & floor_rows);
        column_transitions += column_changes.count_ones();
        // Changes between padded columns 2k | 2k + 1 (low lane) and 2k + 1 | 2k + 2 (high).
        row_transitions += (neighbours[k] ^ columns).count_ones();
    }
    // Column 9 against the right wall: the two lanes of the last neighbour pair.
    let last = neighbours[BOARD_WIDTH / 2];
    row_transitions += ((last ^ (last >> 32)) as u32).count_ones();
    let mut well_sums = 0;
    for x in 0..BOARD_WIDTH {
        let empty = !padded[x + 1] & row_mask;
        let mut well_cells = empty & padded[x] & padded[x + 2];
        while well_cells != 0 {
            let row = well_cells.trailing_zeros();
            // The well cell and the empty cells below it; bits at and beyond H are zero in
            // `empty`, so the run stops at the floor.
            well_sums += (empty >> row).trailing_ones();
            well_cells &= well_cells - 1;
        }
    }
    BoardFeatures {
        row_transitions,
        column_transitions,
        holes,
        well_sums,
    }
}

/// Two columns side by side in one `u64`: `low` in bits 0..32 (lane 0), `high` in bits
/// 32..64 (lane 1), so one 64-bit operation works on both and one count counts both.
#[inline(always)]
fn pair(low: u32, high: u32) -> u64 {
    low as u64 | (high as u64) << 32
}

/// 1 in each lane of a [`pair`]: subtracting it subtracts 1 from each lane. No borrow crosses
/// from lane 0 into lane 1 as long as lane 0 is not zero.
const LANE_ONES: u64 = 1 | 1 << 32;

/// Dellacherie's seven feature values of `chain`, in [`FEATURE_NAMES`] order, with El-Tetris
/// semantics. From the chain's LAST placement record (0 when there is none):
///
/// - `landing_height`: the row of the piece's lowest cell where it locked, before rows clear,
///   counted from the floor (bottom row = 0), plus (piece height in rows − 1) / 2: a flat I on
///   the floor 0, an O 0.5, a vertical I 1.5
///   ([`tetris_core::PlacementRecord::landing_height`]);
/// - `rows_removed`: the rows that placement cleared;
/// - `eroded_piece_cells`: those rows × how many of the piece's own 4 cells were in them.
///
/// From the final board (computed by [`board_features`]):
///
/// - `row_transitions`: every row, each walked from the left wall (occupied) across the 10
///   cells to the right wall (occupied), counting every change; an empty row counts 2, an
///   empty 10 × 20 board 40 ([`tetris_core::features::row_transitions_all_rows`]);
/// - `column_transitions`: every column walked from the floor (occupied) up to the top row,
///   counting every change; the space above the top row is not counted, so an empty column
///   counts 1 and an empty board 10 ([`tetris_core::features::column_transitions_from_floor`]);
/// - `holes`: empty cells with at least one occupied cell anywhere above them in the same
///   column ([`tetris_core::features::covered_empty_cells`]);
/// - `well_sums`: for every empty cell whose left and right neighbours are occupied (walls
///   occupied), at any height, covered or not, 1 + the number of consecutive empty cells
///   directly below it; a 1-wide well of depth n adds n(n + 1)/2
///   ([`tetris_core::features::well_sums_dellacherie`]).
#[inline]
pub fn feature_values(chain: Chain<'_>) -> [f64; FEATURE_COUNT] {
    let (landing_height, rows_removed, eroded_piece_cells) = match chain.records.last() {
        Some(last) => (
            last.landing_height(),
            last.rows_cleared() as f64,
            last.eroded_piece_cells() as f64,
        ),
        None => (0.0, 0.0, 0.0),
    };
    let board = board_features(chain.board);
    [
        landing_height,
        rows_removed,
        eroded_piece_cells,
        board.row_transitions as f64,
        board.column_transitions as f64,
        board.holes as f64,
        board.well_sums as f64,
    ]
}

/// Dellacherie's evaluator: seven features; cost = −(Σ weight × feature), the negated
/// published score (lower is better).
#[derive(Clone, Debug, PartialEq)]
pub struct Dellacherie {
    weights: Weights,
    // The same values as `weights`, in a fixed-size array so the sum has no bounds checks or
    // indirection.
    values: [f64; FEATURE_COUNT],
}

impl Dellacherie {
    /// Dellacherie with the `el-tetris` weights (the first preset).
    pub fn new() -> Dellacherie {
        Dellacherie::with_default_weights()
    }

    /// The published score of `chain`, HIGHER is better: Σ weight × feature in
    /// [`FEATURE_NAMES`] order, left to right from 0.0 (the same bits as
    /// [`Weights::weighted_sum`] of [`feature_values`]). The cost is its negation.
    #[inline]
    pub fn score(&self, chain: Chain<'_>) -> f64 {
        self.weighted_score(&feature_values(chain))
    }

    /// Σ weight × feature in [`FEATURE_NAMES`] order, left to right from 0.0.
    #[inline(always)]
    fn weighted_score(&self, features: &[f64; FEATURE_COUNT]) -> f64 {
        let mut sum = 0.0;
        for (weight, feature) in self.values.iter().zip(features) {
            sum += weight * feature;
        }
        sum
    }
}

impl WeightedEvaluator for Dellacherie {
    /// The evaluator's name in strategy strings (`bfs+dellacherie:original`). Weights are in the
    /// published score form (higher is better); the cost is the negated score.
    const NAME: &'static str = "dellacherie";
    const FEATURE_NAMES: &'static [&'static str] = FEATURE_NAMES;
    const PRESETS: &'static [Preset] = PRESETS;

    fn from_checked_weights(weights: Weights) -> Dellacherie {
        let mut values = [0.0; FEATURE_COUNT];
        values.copy_from_slice(weights.values());
        Dellacherie { weights, values }
    }
}

impl Default for Dellacherie {
    /// Dellacherie with the `el-tetris` weights.
    fn default() -> Dellacherie {
        Dellacherie::new()
    }
}

impl Evaluator for Dellacherie {
    fn name(&self) -> &str {
        Dellacherie::NAME
    }

    fn feature_names(&self) -> &'static [&'static str] {
        FEATURE_NAMES
    }

    fn placement_feature_names(&self) -> &'static [&'static str] {
        PLACEMENT_FEATURE_NAMES
    }

    /// Writes [`feature_values`] into the first seven slots of `out`.
    #[inline]
    fn features(&self, chain: Chain<'_>, out: &mut [f64]) {
        out[..FEATURE_COUNT].copy_from_slice(&feature_values(chain));
    }

    /// The weights in the published score form (higher is better); see [`Dellacherie::score`].
    fn weights(&self) -> &Weights {
        &self.weights
    }

    /// The negated published score, `−(Σ weight × feature)`: lower is better. Negating the sum
    /// is exact, so the order and the ties are those of the score.
    #[inline]
    fn cost(&self, chain: Chain<'_>) -> f64 {
        -self.score(chain)
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
            || self.last_link_values_by_columns(board, records, placements, out),
        )
    }
}

#[cfg(test)]
mod tests;
