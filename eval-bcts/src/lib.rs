//! Thiery & Scherrer's BCTS controllers with the exact feature definitions of their program,
//! MDPTetris (docs/spec/evaluators.md, "BCTS"), with the presets `du` (default: BCTS, the
//! tuned weights of the "DU" feature set), `bdu` (the 28-feature "BDU" set) and `dellacherie`
//! (MDPTetris's own reading of Dellacherie's hand-set weights).
//!
//! A one-piece evaluation: the placement features (`landing_height`, `eroded_piece_cells`)
//! come from the chain's LAST placement record and the board features from the FINAL board,
//! taken after its full rows are cleared. Used with lookahead it judges the last link, as
//! Dellacherie does.
//!
//! Direction: MDPTetris publishes a score, HIGHER is better (Σ weight × feature). Every
//! evaluator here returns a cost, lower is better, so the presets hold the PUBLISHED WEIGHTS
//! NEGATED (BCTS's `holes` weight −13.08335 is 13.08335 here) and the cost is Σ weight ×
//! feature. Negation commutes with rounding (each product and each partial sum of the negated
//! weights is exactly the negation of the score's), so the cost is exactly −score, bit for
//! bit, when it is summed in the score's order: [`Bcts::cost`] sums in the order of
//! MDPTetris's weight files ([`sum_order`]), not in [`FEATURE_NAMES`] order.
//!
//! A placement with a cell above the field ends MDPTetris's game, and MDPTetris judges it on
//! a board that keeps that cell and clears no row; this evaluator rebuilds that board from the
//! chain's last record (module `tall`), so such placements score as MDPTetris scores them
//! when they are not excluded (`no-suicide` excludes them, as MDPTetris's weight-file rule
//! −1 does).
#![deny(missing_docs)]

mod last_link;
mod tall;

use tetris_core::features::{
    cells_above_holes, column_heights, column_transitions_floor_to_sky, covered_empty_cells,
    pile_height, row_transitions_all_rows, rows_with_covered_empty_cells, well_sums_dellacherie,
    with_popcount,
};
use tetris_core::{
    BOARD_WIDTH, Board, Chain, Evaluator, LinkValue, Placement, PlacementRecord, Preset,
    WeightedEvaluator, Weights,
};

pub use tall::TallBoard;

/// The feature names: MDPTetris's "DU" features in the order of its DU weight file (ids 1–6,
/// −1, −2), then the board-shape features the "BDU" set adds (id 7, the ten ids 8, the nine
/// ids 9). `column_height_x` is column x's height; `height_diff_x` is
/// `|column_height_x − column_height_(x+1)|`.
pub const FEATURE_NAMES: &[&str] = &[
    "landing_height",
    "eroded_piece_cells",
    "row_transitions",
    "column_transitions",
    "holes",
    "well_sums",
    "hole_depth",
    "rows_with_holes",
    "wall_height",
    "column_height_0",
    "column_height_1",
    "column_height_2",
    "column_height_3",
    "column_height_4",
    "column_height_5",
    "column_height_6",
    "column_height_7",
    "column_height_8",
    "column_height_9",
    "height_diff_0",
    "height_diff_1",
    "height_diff_2",
    "height_diff_3",
    "height_diff_4",
    "height_diff_5",
    "height_diff_6",
    "height_diff_7",
    "height_diff_8",
];

/// How many features BCTS has.
pub const FEATURE_COUNT: usize = 28;

/// How many of them are the "DU" features (the first ones in [`FEATURE_NAMES`]).
pub const DU_FEATURE_COUNT: usize = 8;

/// The features that belong to the (last) placement rather than to the final board.
pub const PLACEMENT_FEATURE_NAMES: &[&str] = &["landing_height", "eroded_piece_cells"];

/// Indices into [`FEATURE_NAMES`].
mod index {
    pub const LANDING_HEIGHT: usize = 0;
    pub const ERODED_PIECE_CELLS: usize = 1;
    pub const ROW_TRANSITIONS: usize = 2;
    pub const COLUMN_TRANSITIONS: usize = 3;
    pub const HOLES: usize = 4;
    pub const WELL_SUMS: usize = 5;
    pub const HOLE_DEPTH: usize = 6;
    pub const ROWS_WITH_HOLES: usize = 7;
    pub const WALL_HEIGHT: usize = 8;
    pub const COLUMN_HEIGHTS: usize = 9;
    pub const HEIGHT_DIFFS: usize = 19;
}

/// The order MDPTetris's DU weight file sums in (ids 1, 2, 3, 4, 5, 6, −1, −2): the eight DU
/// features in [`FEATURE_NAMES`] order.
pub const DU_SUM_ORDER: [usize; DU_FEATURE_COUNT] = [0, 1, 2, 3, 4, 5, 6, 7];

/// The order MDPTetris's BDU weight file sums in: the ten column heights, the nine height
/// differences, wall height (7), holes (5), landing height (1), eroded piece cells (2), row
/// transitions (3), column transitions (4), well sums (6), hole depth (−1), rows with holes
/// (−2), as indices into [`FEATURE_NAMES`].
pub const BDU_SUM_ORDER: [usize; FEATURE_COUNT] = [
    9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 8, 4, 0, 1, 2, 3, 5,
    6, 7,
];

/// The order [`Bcts::cost`] sums `weights` in: [`DU_SUM_ORDER`] (the eight DU terms only) when
/// every board-shape weight (wall height, column heights, height differences) is zero, as in
/// the `du` and `dellacherie` presets; [`BDU_SUM_ORDER`] (all 28 terms) otherwise. Leaving
/// out terms whose weight is zero is what MDPTetris does too: its DU file has no such terms.
pub fn sum_order(weights: &[f64]) -> &'static [usize] {
    if weights[index::WALL_HEIGHT..]
        .iter()
        .all(|&weight| weight == 0.0)
    {
        &DU_SUM_ORDER
    } else {
        &BDU_SUM_ORDER
    }
}

/// Whether weights `values` summed in `order` ([`sum_order`]) let a deciding chain's leaves
/// have stand-ins (module `last_link`, "Deciding"): the DU features only (every board-shape
/// weight zero), and every weight but `eroded_piece_cells`'s finite and +0 or more (not −0:
/// the leaf drops the sum's `0.0 +`, which only turns a −0 product into +0).
fn bounds_hold(values: &[f64; FEATURE_COUNT], order: &[usize]) -> bool {
    order.len() == DU_FEATURE_COUNT
        && values.iter().enumerate().all(|(k, &weight)| {
            k == index::ERODED_PIECE_CELLS || (weight.is_finite() && weight.is_sign_positive())
        })
}

/// Zeros for the 20 board-shape weights of the DU presets.
const NO_SHAPE: [f64; 20] = [0.0; 20];

/// Concatenates the eight DU weights and the 20 board-shape weights (a `const` helper).
const fn join(du: [f64; DU_FEATURE_COUNT], shape: [f64; 20]) -> [f64; FEATURE_COUNT] {
    let mut all = [0.0; FEATURE_COUNT];
    let mut k = 0;
    while k < DU_FEATURE_COUNT {
        all[k] = du[k];
        k += 1;
    }
    while k < FEATURE_COUNT {
        all[k] = shape[k - DU_FEATURE_COUNT];
        k += 1;
    }
    all
}

/// BCTS (MDPTetris's `record_du.dat`), cost form: each published weight negated.
pub const DU_WEIGHTS: [f64; FEATURE_COUNT] = join(
    [
        12.629, -6.601974, 9.215815, 19.77356, 13.08335, 10.48747, 1.611863, 24.04087,
    ],
    NO_SHAPE,
);

/// MDPTetris's `record_bdu.dat`, cost form: each published weight negated.
pub const BDU_WEIGHTS: [f64; FEATURE_COUNT] = join(
    [
        43.27153, 1.036039, 36.93346, 81.00232, 40.64, 41.17906, 13.27585, 75.47524,
    ],
    [
        -12.36382, 13.18725, 7.652075, -7.622007, 9.044294, 1.747279, 7.569865, 5.221819,
        0.6874555, 6.4831, 16.01383, -2.356909, -2.143912, 7.351929, -1.558139, -0.433698,
        -3.655922, 4.673708, 1.997187, -9.122675,
    ],
);

/// MDPTetris's `dellacherie_initial.dat`, cost form: each published weight negated.
pub const DELLACHERIE_WEIGHTS: [f64; FEATURE_COUNT] =
    join([1.0, -1.0, 1.0, 1.0, 4.0, 1.0, 0.0, 0.0], NO_SHAPE);

/// The weight presets, in cost form (the published weights negated); the first, `du`, is the
/// default.
pub const PRESETS: &[Preset] = &[
    Preset {
        name: "du",
        description: "BCTS: Thiery & Scherrer's record_du weights, negated (evaluators.md, BCTS)",
        values: &DU_WEIGHTS,
    },
    Preset {
        name: "bdu",
        description: "Thiery & Scherrer's 28-feature record_bdu weights, negated",
        values: &BDU_WEIGHTS,
    },
    Preset {
        name: "dellacherie",
        description: "MDPTetris's dellacherie_initial weights, negated",
        values: &DELLACHERIE_WEIGHTS,
    },
];

/// The 28 feature values of `chain`, in [`FEATURE_NAMES`] order. From the chain's LAST
/// placement record (0 when there is none):
///
/// - `landing_height`: the row of the piece's lowest cell where it locked, before rows clear,
///   counted from the floor (bottom row = 0), plus (the piece's height in rows − 1) / 2
///   ([`PlacementRecord::landing_height`]; MDPTetris takes the bottom of the orientation's
///   bounding box, which is the lowest cell's row);
/// - `eroded_piece_cells`: rows cleared × the piece's own cells in those rows
///   ([`PlacementRecord::eroded_piece_cells`]).
///
/// From the final board, with H its height and the wall height W = the highest column's
/// height:
///
/// - `row_transitions`: the rows below the wall height walked from the left wall (occupied)
///   to the right wall (occupied), counting changes, plus 2 for every row from W up to H.
///   Since a row above W is empty and an empty row walked that way counts 2, this is
///   [`row_transitions_all_rows`] on any board within the field;
/// - `column_transitions`: each column walked from the floor (occupied) up to the wall
///   height and then into one empty row, counting changes ([`column_transitions_floor_to_sky`]:
///   a column filled to the ceiling changes once at its top, unlike Dellacherie's);
/// - `holes`: empty cells with an occupied cell anywhere above them ([`covered_empty_cells`]);
/// - `well_sums`: for every empty cell whose left and right neighbours are occupied (walls
///   occupied), covered or not, 1 + the number of empty cells directly below it
///   ([`well_sums_dellacherie`]);
/// - `hole_depth`: for every hole, the occupied cells stacked directly on it (a hole under a
///   stack of 3 adds 3; a hole under another hole adds 0). Each occupied cell with an empty
///   cell somewhere below it belongs to exactly one such stack (walk down from it to the first
///   empty cell, which is a hole with an occupied cell directly above), and a cell with no
///   empty cell below belongs to none, so this is [`cells_above_holes`];
/// - `rows_with_holes`: rows holding at least one hole ([`rows_with_covered_empty_cells`]);
/// - `wall_height`: W ([`pile_height`]; MDPTetris's "lowest empty row", the same on every
///   board where no empty row lies under an occupied one);
/// - `column_height_x`: column x's height ([`column_heights`]);
/// - `height_diff_x`: `|column_height_x − column_height_(x+1)|`.
///
/// When the last placement has a cell above the field (it ends MDPTetris's game), the board
/// features are those of the board MDPTetris judges it on instead ([`TallBoard`]) and
/// `eroded_piece_cells` is 0.
pub fn feature_values(chain: Chain<'_>) -> [f64; FEATURE_COUNT] {
    let last = chain.records.last();
    let mut values = match last {
        Some(record) if record.lock.cells_above_top > 0 => {
            TallBoard::of_game_ending(chain.board, record).feature_values()
        }
        // The primitives' values (`board_feature_values`) in one popcount-enabled pass.
        _ => with_popcount(
            #[inline(always)]
            || last_link::whole_board_values(chain.board),
        ),
    };
    if let Some(record) = last {
        values[index::LANDING_HEIGHT] = record.landing_height();
        if record.lock.cells_above_top == 0 {
            values[index::ERODED_PIECE_CELLS] = record.eroded_piece_cells() as f64;
        }
    }
    values
}

/// The board features of `board` (see [`feature_values`]), the two placement features 0.
pub fn board_feature_values(board: &Board) -> [f64; FEATURE_COUNT] {
    let heights = column_heights(board);
    let mut values = [0.0; FEATURE_COUNT];
    values[index::ROW_TRANSITIONS] = row_transitions_all_rows(board) as f64;
    values[index::COLUMN_TRANSITIONS] = column_transitions_floor_to_sky(board) as f64;
    values[index::HOLES] = covered_empty_cells(board) as f64;
    values[index::WELL_SUMS] = well_sums_dellacherie(board) as f64;
    values[index::HOLE_DEPTH] = cells_above_holes(board) as f64;
    values[index::ROWS_WITH_HOLES] = rows_with_covered_empty_cells(board) as f64;
    values[index::WALL_HEIGHT] = pile_height(board) as f64;
    write_heights(&heights.map(u32::from), &mut values);
    values
}

/// Writes the column heights and their differences into `values`.
#[inline(always)]
fn write_heights(heights: &[u32; BOARD_WIDTH], values: &mut [f64; FEATURE_COUNT]) {
    for x in 0..BOARD_WIDTH {
        values[index::COLUMN_HEIGHTS + x] = heights[x] as f64;
    }
    for x in 0..BOARD_WIDTH - 1 {
        values[index::HEIGHT_DIFFS + x] = heights[x].abs_diff(heights[x + 1]) as f64;
    }
}

/// The BCTS evaluator: 28 features, cost = Σ weight × feature in [`sum_order`] (weights in
/// cost form, the published ones negated), lower is better.
#[derive(Clone, Debug, PartialEq)]
pub struct Bcts {
    weights: Weights,
    // The same values in a fixed-size array, and the order to sum them in.
    values: [f64; FEATURE_COUNT],
    order: &'static [usize],
    /// Whether a deciding chain's leaves may have stand-ins ([`bounds_hold`]), taken
    /// once with the weights.
    stand_ins: bool,
}

impl Bcts {
    /// BCTS with the `du` weights (the first preset).
    pub fn new() -> Bcts {
        Bcts::with_default_weights()
    }

    /// Σ weight × feature in [`sum_order`], left to right from 0.0. The two orders are
    /// walked as the constant arrays they are, so the loop unrolls with no bounds checks.
    #[inline(always)]
    fn weighted_cost(&self, features: &[f64; FEATURE_COUNT]) -> f64 {
        let mut sum = 0.0;
        if self.uses_shape() {
            for k in BDU_SUM_ORDER {
                sum += self.values[k] * features[k];
            }
            sum
        } else {
            self.du_cost(
                features[..DU_FEATURE_COUNT]
                    .try_into()
                    .expect("eight features"),
            )
        }
    }

    /// [`Bcts::weighted_cost`] of weights that use no board-shape feature, from the eight DU
    /// features alone: the same products in the same order.
    #[inline(always)]
    fn du_cost(&self, du: &[f64; DU_FEATURE_COUNT]) -> f64 {
        let mut sum = 0.0;
        for k in DU_SUM_ORDER {
            sum += self.values[k] * du[k];
        }
        sum
    }

    /// Whether the weights use the board-shape features (wall height, column heights,
    /// differences), which the DU presets leave at zero.
    #[inline(always)]
    fn uses_shape(&self) -> bool {
        self.order.len() == FEATURE_COUNT
    }
}

impl WeightedEvaluator for Bcts {
    /// The evaluator's name in strategy strings (`drop+bcts:bdu`). Weights are in cost form
    /// (the published ones negated).
    const NAME: &'static str = "bcts";
    const FEATURE_NAMES: &'static [&'static str] = FEATURE_NAMES;
    const PRESETS: &'static [Preset] = PRESETS;

    fn from_checked_weights(weights: Weights) -> Bcts {
        let mut values = [0.0; FEATURE_COUNT];
        values.copy_from_slice(weights.values());
        let order = sum_order(&values);
        let stand_ins = bounds_hold(&values, order);
        Bcts {
            order,
            weights,
            values,
            stand_ins,
        }
    }
}

impl Default for Bcts {
    /// BCTS with the `du` weights.
    fn default() -> Bcts {
        Bcts::new()
    }
}

impl Evaluator for Bcts {
    fn name(&self) -> &str {
        Bcts::NAME
    }

    fn feature_names(&self) -> &'static [&'static str] {
        FEATURE_NAMES
    }

    fn placement_feature_names(&self) -> &'static [&'static str] {
        PLACEMENT_FEATURE_NAMES
    }

    /// Writes [`feature_values`] into the first 28 slots of `out`.
    fn features(&self, chain: Chain<'_>, out: &mut [f64]) {
        out[..FEATURE_COUNT].copy_from_slice(&feature_values(chain));
    }

    /// The weights in cost form (the published ones negated).
    fn weights(&self) -> &Weights {
        &self.weights
    }

    /// Σ weight × feature in [`sum_order`] (MDPTetris's weight-file order), exactly the
    /// negation of MDPTetris's score.
    fn cost(&self, chain: Chain<'_>) -> f64 {
        self.weighted_cost(&feature_values(chain))
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
            || {
                self.last_link_values_by_columns::<false>(
                    board,
                    records,
                    placements,
                    f64::INFINITY,
                    out,
                )
            },
        )
    }

    /// Yes for the DU features with weights that are not negative, `eroded_piece_cells`'s
    /// aside (module `last_link`, "Deciding").
    fn gives_stand_ins(&self) -> bool {
        self.stand_ins
    }

    /// [`Evaluator::last_link_values`] where a placement whose cost bound is above `to_beat`,
    /// or above an exact cost given earlier in this call, gets the bound (module
    /// `last_link`, "Deciding").
    fn last_link_values_to_beat(
        &self,
        board: &Board,
        records: &mut Vec<PlacementRecord>,
        placements: &[Placement],
        to_beat: f64,
        out: &mut Vec<LinkValue>,
    ) {
        if !self.stand_ins {
            return self.last_link_values(board, records, placements, out);
        }
        with_popcount(
            #[inline(always)]
            || self.last_link_values_by_columns::<true>(board, records, placements, to_beat, out),
        )
    }
}

#[cfg(test)]
mod tests;
