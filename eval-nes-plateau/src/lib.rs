//! `eval-nes-plateau`: the NES level 19–28 scoring bot's evaluator (docs/spec/evaluators.md §3).
//!
//! Seventeen board and placement features with the published weights, an 18th feature, the
//! ceiling penalty, with a weight of our choosing, and the chain rules that the weights were
//! tuned with (greedy Tetris, spawn safety, no split field; see [`rules`]). The cost of a chain
//! is the sum of weight × feature in [`FEATURE_NAMES`] order, left to right, in `f64`; lower
//! is better.
//!
//! Where the article's words leave a choice, the choice is written in the doc comment of the
//! feature in [`FEATURE_NAMES`] and pinned by a test. The board is 10 columns × H rows (H from
//! 4 to 32); row 0 is the TOP row, the height of a cell `(x, y)` is `H − y`, and the column
//! height `h(c)` is the height of the column's topmost occupied cell (0 when empty).
#![deny(missing_docs)]

pub mod features;
mod last_link;
pub mod rules;

use tetris_core::Board;
use tetris_core::evaluate::{
    Chain, ChainRule, Evaluator, LinkValue, PlacementRecord, Preset, WeightedEvaluator, Weights,
    weighted_sum_of,
};
use tetris_core::features::with_popcount;
use tetris_core::placement::Placement;

pub use features::{
    BoardFeatures, CEILING_ROWS, DEEP_WELL_CELLS, Holes, TETRIS_WELL_DEPTH, board_features,
    ceiling_penalty, holes, overdeep_well_cells,
};
pub use rules::{SPAWN_AREA, blocks_a_spawn, field_is_split, spawn_region, touches_ceiling_rows};

/// The feature names, in the order weights apply and costs sum: the 17 features of
/// docs/spec/evaluators.md §3 in its table order, then `ceiling_penalty`.
///
/// 1. `rows_cleared`: rows cleared by all placements of the chain (0 without records).
/// 2. `lock_height`: the sum over the chain's placements of each one's lock height, how many
///    rows further down it could fall in its orientation on an empty board (its orientation's
///    lowest legal pivot row, `H − 1 −` its lowest cell offset, minus its pivot row).
/// 3. `well_cells`: open well cells ([`tetris_core::features::open_well_cells`]): empty
///    cells above their column's top (every cell of an empty column) whose left and right
///    neighbours are occupied, walls occupied, counted cell by cell.
/// 4. `deep_wells`: the number of columns with 3 or more of those cells (not necessarily one
///    run; see [`features::well_cells_and_deep_wells`]).
/// 5. `holes`: empty cells whose cell directly above is occupied: each vertical gap counts
///    once, at its topmost cell (see [`Holes`]).
/// 6. `weighted_holes`: the sum over holes of `y + 1`, the hole's row index counted from the
///    top starting at 1.
/// 7. `hole_depths`: the sum over holes of `y − t`, `t` the row index of the column's top.
/// 8. `min_hole_depth`: the smallest hole depth; H (20 on the standard board) when there is
///    no hole.
/// 9. `max_hole_depth`: the largest hole depth; 0 when there is no hole.
/// 10. `column_transitions`: the pairs of vertically adjacent in-field cells, one occupied and
///     one empty ([`tetris_core::features::column_transitions_interior`]: no floor, no sky;
///     the change from the empty cell above a column's top into the top counts).
/// 11. `row_transitions`: for each row holding an occupied cell, the changes between occupied
///     and empty walking from the left wall (occupied) to the right wall (occupied); empty
///     rows add 0 ([`tetris_core::features::row_transitions_nonempty_rows`]).
/// 12. `column_heights`: `Σ h(c)`.
/// 13. `pile_height`: `max h(c)`.
/// 14. `height_spread`: `max h(c) − min h(c)`.
/// 15. `occupied_cells`: the number of occupied cells.
/// 16. `weighted_occupied_cells`: the sum of the heights `H − y` of all occupied cells.
/// 17. `bumpiness`: `Σ |h(c) − h(c + 1)|` over the nine adjacent pairs.
/// 18. `ceiling_penalty`: rule 2, `Σ 1 / (y + 1)` over occupied cells on rows 0–6 (see
///     [`ceiling_penalty`]).
///
/// Features 3–18 are taken on the chain's final board, after every placement and its line
/// clears.
pub const FEATURE_NAMES: &[&str] = &[
    "rows_cleared",
    "lock_height",
    "well_cells",
    "deep_wells",
    "holes",
    "weighted_holes",
    "hole_depths",
    "min_hole_depth",
    "max_hole_depth",
    "column_transitions",
    "row_transitions",
    "column_heights",
    "pile_height",
    "height_spread",
    "occupied_cells",
    "weighted_occupied_cells",
    "bumpiness",
    "ceiling_penalty",
];

/// The features that belong to the chain's placements rather than to the final board.
pub const PLACEMENT_FEATURE_NAMES: &[&str] = &["rows_cleared", "lock_height"];

/// How many features ([`FEATURE_NAMES`]`.len()`).
pub const FEATURE_COUNT: usize = 18;

/// The index of `deep_wells` in [`FEATURE_NAMES`].
const DEEP_WELLS: usize = 3;

/// The default weight of `ceiling_penalty`, which the article does not publish.
///
/// Why 20: the published weights REWARD a taller pile (`pile_height` −2.1487 and
/// `column_heights` −0.5074 per row, −2.656 together for raising the highest column by one
/// row), which is what builds Tetrises and what the ceiling penalty must overrule near the
/// top. A single cell on the lowest ceiling row (row 6) adds 1/7 to the penalty, so the weight
/// must exceed 7 × 2.656 = 18.6 for that cell to cost more than the height it earns; 20 is the
/// round value just above. A cell on row 0 then costs 20, about half of what a hole near the
/// floor costs (holes 1.879 + weighted_holes 2.168 × 20 ≈ 45), so the penalty steers away
/// from the ceiling without outweighing clean stacking.
pub const DEFAULT_CEILING_PENALTY_WEIGHT: f64 = 20.0;

/// The published weights (docs/spec/evaluators.md §3, exact digits) and the default ceiling penalty.
// The digits are kept as published (some are more than an f64 holds; the literal rounds to
// the nearest f64 all the same), so that they can be compared with the table by eye.
#[allow(clippy::excessive_precision)]
const PUBLISHED: [f64; FEATURE_COUNT] = [
    0.286127095297893900,
    1.701233676909959200,
    0.711304230768307700,
    0.910665415998680400,
    1.879338064244357000,
    2.168463848297177000,
    -0.265587111961757270,
    0.289886584949610500,
    0.362361055261181730,
    -0.028668795795469625,
    0.874179981113233100,
    -0.507409683144361900,
    -2.148676202831281000,
    -1.187558540281141700,
    -2.645656132241128000,
    0.242043416268706620,
    0.287838126164431440,
    DEFAULT_CEILING_PENALTY_WEIGHT,
];

/// The published weights without the ceiling penalty (its weight 0), to measure what rule 2
/// adds.
const WITHOUT_CEILING_PENALTY: [f64; FEATURE_COUNT] = {
    let mut weights = PUBLISHED;
    weights[FEATURE_COUNT - 1] = 0.0;
    weights
};

/// The published weights for a lower stack: `lock_height` doubled and `column_heights`
/// (negative in the article, a reward for height) set to 0. Chosen by hand for players with a
/// reaction time, who reach less of a tall stack (docs/nes-benchmark.md, "A lower stack").
const LOW_STACK: [f64; FEATURE_COUNT] = {
    let mut weights = PUBLISHED;
    weights[1] *= 2.0;
    weights[11] = 0.0;
    weights
};

/// The shipped weight presets; the first is the default.
pub const PRESETS: &[Preset] = &[
    Preset {
        name: "published",
        description: "the article's 17 tuned weights (exact digits) and ceiling_penalty 20",
        values: &PUBLISHED,
    },
    Preset {
        name: "no-ceiling-penalty",
        description: "the article's 17 tuned weights and ceiling_penalty 0",
        values: &WITHOUT_CEILING_PENALTY,
    },
    Preset {
        name: "low-stack",
        description: "the article's weights with lock_height doubled and column_heights 0, for a reaction time",
        values: &LOW_STACK,
    },
];

/// The NES-plateau evaluator: 18 weighted features and the chain rules of [`rules`], and two
/// optional costs: for every deep well beyond the first
/// ([`NesPlateau::with_extra_deep_well_cost`]) and for every well cell deeper than a Tetris
/// ([`NesPlateau::with_overdeep_well_cost`]).
#[derive(Clone, Debug, PartialEq)]
pub struct NesPlateau {
    weights: Weights,
    /// The same values as `weights`, in an array, so that the leaves' weighted sum is a loop
    /// of constant length ([`weighted_sum_of`]).
    values: [f64; FEATURE_COUNT],
    /// What each deep well beyond the first adds to the cost; 0 for the weighted sum alone.
    extra_deep_well_cost: f64,
    /// What each open well cell beyond the [`TETRIS_WELL_DEPTH`]th of its column adds to the
    /// cost; 0 for none.
    overdeep_well_cost: f64,
    /// Which of the leaves' bounds hold for these weights and prices (module `last_link`),
    /// found whenever they are set.
    bounds: last_link::Bounds,
}

impl NesPlateau {
    /// The evaluator with the default (`published`) weights.
    pub fn new() -> NesPlateau {
        NesPlateau::with_default_weights()
    }

    /// The same weights, with `cost` added for every deep well beyond the first: the cost
    /// becomes the weighted sum plus `cost × max(deep_wells − 1, 0)` (`deep_wells`, feature 4
    /// of [`FEATURE_NAMES`], on the chain's final board). Why: the published weights price
    /// every deep well alike (0.91 each, and 0.71 a well cell), but one deep well is the
    /// Tetris the stack is built for while a second is a column only another I can fill: with
    /// a reaction time, games were lost to two 6-deep wells side by side
    /// (docs/nes-benchmark.md). 0 gives the weighted sum alone, to the bit.
    pub fn with_extra_deep_well_cost(self, cost: f64) -> NesPlateau {
        NesPlateau {
            extra_deep_well_cost: cost,
            ..self
        }
        .with_bounds()
    }

    /// What each deep well beyond the first adds to the cost (0 unless set by
    /// [`NesPlateau::with_extra_deep_well_cost`]).
    pub fn extra_deep_well_cost(&self) -> f64 {
        self.extra_deep_well_cost
    }

    /// The same weights, with `cost` added for every open well cell deeper than a Tetris: the
    /// cost gains `cost × Σ max(w(c) − 4, 0)` over the ten columns, `w(c)` the column's open
    /// well cells on the chain's final board (the cells that feature 3, `well_cells`, counts;
    /// [`features::overdeep_well_cells`]). Why: a Tetris needs a well 4 deep; a deeper one is
    /// a stack built up beside the well while no I came, rows that only more pieces can clear.
    /// With a reaction time, 16 of the 18 games traced that were lost before 140 lines had
    /// gone through such an I drought (25 to 41 pieces) with the well left open and the stack
    /// rising (docs/nes-benchmark.md); the cost has the bot fill the excess (burn) instead.
    /// 0 gives the evaluator without it, to the bit.
    pub fn with_overdeep_well_cost(self, cost: f64) -> NesPlateau {
        NesPlateau {
            overdeep_well_cost: cost,
            ..self
        }
        .with_bounds()
    }

    /// The same evaluator with its bounds found again for its weights and prices.
    fn with_bounds(self) -> NesPlateau {
        NesPlateau {
            bounds: last_link::Bounds::of(&self),
            ..self
        }
    }

    /// What each open well cell deeper than a Tetris adds to the cost (0 unless set by
    /// [`NesPlateau::with_overdeep_well_cost`]).
    pub fn overdeep_well_cost(&self) -> f64 {
        self.overdeep_well_cost
    }

    /// The 16 board features (#3–#18) of `board` into `out[2..]`, and the overdeep well
    /// cells when `OVERDEEP` (0 otherwise).
    #[inline(always)]
    fn board_features<const OVERDEEP: bool>(board: &Board, out: &mut [f64; FEATURE_COUNT]) -> u32 {
        let (features, overdeep) = match OVERDEEP {
            true => features::board_features_and_overdeep_well_cells(board),
            false => (features::board_features(board), 0),
        };
        NesPlateau::write_board_features(&features, out);
        overdeep
    }

    /// `features` into `out[2..]`, in [`FEATURE_NAMES`] order: the one conversion of the
    /// whole-board pass and of the column-by-column leaves (module `last_link`).
    #[inline(always)]
    fn write_board_features(features: &BoardFeatures, out: &mut [f64; FEATURE_COUNT]) {
        out[2] = features.well_cells as f64;
        out[3] = features.deep_wells as f64;
        out[4] = features.holes.count as f64;
        out[5] = features.holes.weighted as f64;
        out[6] = features.holes.depth_sum as f64;
        out[7] = features.holes.min_depth as f64;
        out[8] = features.holes.max_depth as f64;
        out[9] = features.column_transitions as f64;
        out[10] = features.row_transitions as f64;
        out[11] = features.column_heights as f64;
        out[12] = features.pile_height as f64;
        out[13] = features.height_spread as f64;
        out[14] = features.occupied_cells as f64;
        out[15] = features.weighted_occupied_cells as f64;
        out[16] = features.bumpiness as f64;
        out[17] = features.ceiling_penalty;
    }

    /// The cost of a chain whose 18 features are `features` and whose board has `overdeep`
    /// overdeep well cells (read only when they are priced): the weighted sum in
    /// [`FEATURE_NAMES`] order, then the extra deep wells' cost, then the overdeep cells'
    /// cost, each added only when its price is not 0. The one sum of [`Evaluator::cost`] and
    /// of the column-by-column leaves (module `last_link`), so the two agree to the bit.
    #[inline(always)]
    fn cost_of_features(&self, features: &[f64; FEATURE_COUNT], overdeep: u32) -> f64 {
        let mut cost = weighted_sum_of(&self.values, features);
        if self.extra_deep_well_cost != 0.0 {
            let extra_deep_wells = (features[DEEP_WELLS] - 1.0).max(0.0);
            cost += self.extra_deep_well_cost * extra_deep_wells;
        }
        if self.overdeep_well_cost != 0.0 {
            cost += self.overdeep_well_cost * f64::from(overdeep);
        }
        cost
    }

    /// All 18 features of `chain`, in [`FEATURE_NAMES`] order.
    #[inline]
    pub fn feature_values(chain: Chain<'_>) -> [f64; FEATURE_COUNT] {
        NesPlateau::features_and_overdeep::<false>(chain).0
    }

    /// [`NesPlateau::feature_values`], and the overdeep well cells of the chain's board
    /// ([`features::overdeep_well_cells`]) when `OVERDEEP` (0 otherwise), from the same pass.
    #[inline(always)]
    fn features_and_overdeep<const OVERDEEP: bool>(
        chain: Chain<'_>,
    ) -> ([f64; FEATURE_COUNT], u32) {
        let mut out = [0.0; FEATURE_COUNT];
        out[0] = chain.rows_cleared() as f64;
        out[1] = chain.lock_height() as f64;
        let overdeep = NesPlateau::board_features::<OVERDEEP>(chain.board, &mut out);
        (out, overdeep)
    }
}

impl WeightedEvaluator for NesPlateau {
    /// The evaluator's name in strategy strings and weights files.
    const NAME: &'static str = "nes-plateau";
    const FEATURE_NAMES: &'static [&'static str] = FEATURE_NAMES;
    const PRESETS: &'static [Preset] = PRESETS;

    fn from_checked_weights(weights: Weights) -> NesPlateau {
        let mut values = [0.0; FEATURE_COUNT];
        values.copy_from_slice(weights.values());
        NesPlateau {
            weights,
            values,
            extra_deep_well_cost: 0.0,
            overdeep_well_cost: 0.0,
            bounds: last_link::Bounds::NONE,
        }
        .with_bounds()
    }
}

impl Default for NesPlateau {
    /// The evaluator with the default (`published`) weights.
    fn default() -> Self {
        NesPlateau::new()
    }
}

impl Evaluator for NesPlateau {
    fn name(&self) -> &str {
        NesPlateau::NAME
    }

    fn feature_names(&self) -> &'static [&'static str] {
        FEATURE_NAMES
    }

    fn placement_feature_names(&self) -> &'static [&'static str] {
        PLACEMENT_FEATURE_NAMES
    }

    /// Writes the 18 features (see [`FEATURE_NAMES`]); `out` must hold 18 values. With no
    /// records (a board on its own) the placement features are 0.
    fn features(&self, chain: Chain<'_>, out: &mut [f64]) {
        out.copy_from_slice(&NesPlateau::feature_values(chain));
    }

    fn weights(&self) -> &Weights {
        &self.weights
    }

    /// Rules 1, 3 and 4 (see [`rules::chain_rule`]).
    fn chain_rule(&self, chain: Chain<'_>) -> ChainRule {
        rules::chain_rule(chain)
    }

    /// The sum of weight × feature in [`FEATURE_NAMES`] order, left to right, in `f64` (the
    /// same bits as the trait's default, without the slice bookkeeping), plus the extra deep
    /// wells' cost ([`NesPlateau::with_extra_deep_well_cost`]), then the overdeep well cells'
    /// ([`NesPlateau::with_overdeep_well_cost`]), each when it is set.
    #[inline]
    fn cost(&self, chain: Chain<'_>) -> f64 {
        // The overdeep well cells come from the feature pass's own well masks when priced.
        let (features, overdeep) = match self.overdeep_well_cost != 0.0 {
            true => NesPlateau::features_and_overdeep::<true>(chain),
            false => NesPlateau::features_and_overdeep::<false>(chain),
        };
        self.cost_of_features(&features, overdeep)
    }

    /// Only when the chain already cleared four rows at once (rule 1, then every chain
    /// after it is preferred unless rejected) or its board holds a full row (which a game's
    /// boards never do, but a board given to the engine might): otherwise only a placement
    /// that clears four rows makes a preferred chain, and the O, two rows tall, clears at
    /// most two.
    fn may_prefer_after_every_piece(&self, chain: Chain<'_>) -> bool {
        rules::clears_four_at_once(chain) || chain.board.full_rows() != 0
    }

    /// Yes: a placement's value depends on its own cells and piece, the board and the
    /// earlier links only (module `last_link`), whatever the call's other placements.
    fn values_several_searches_at_once(&self) -> bool {
        true
    }

    /// The board's features updated for the columns each placement changes (module
    /// `last_link`): the same values as locking each placement and evaluating the board.
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
                self.last_link_values_by_columns::<false, false>(
                    board,
                    records,
                    placements,
                    &[],
                    f64::INFINITY,
                    out,
                )
            },
        )
    }

    /// Yes when the bounds hold (module `last_link`, "Stand-ins"): the weights of
    /// `well_cells` and `deep_wells` and both prices not negative, every weight finite, as
    /// for the shipped presets.
    fn gives_stand_ins(&self) -> bool {
        self.bounds_hold()
    }

    /// [`Evaluator::last_link_values`] where a placement whose cost bound is above `to_beat`
    /// (or an earlier `Neutral` cost of the call) gets the bound (module `last_link`,
    /// "Stand-ins").
    fn last_link_values_to_beat(
        &self,
        board: &Board,
        records: &mut Vec<PlacementRecord>,
        placements: &[Placement],
        to_beat: f64,
        out: &mut Vec<LinkValue>,
    ) {
        self.values_to_beat::<false>(
            board,
            records,
            placements,
            &[placements.len()],
            to_beat,
            out,
        );
    }

    /// Each search's values, walked from its last placement back: a placement whose cost
    /// bound is above a `Neutral` cost already given in its search gets the bound (module
    /// `last_link`, "Stand-ins").
    fn last_link_values_of_searches(
        &self,
        board: &Board,
        records: &mut Vec<PlacementRecord>,
        placements: &[Placement],
        ends: &[usize],
        out: &mut Vec<LinkValue>,
    ) {
        self.values_to_beat::<true>(board, records, placements, ends, f64::INFINITY, out);
    }
}

impl NesPlateau {
    /// The values of the searches ending at `ends`, each walked from its last placement back
    /// when `REVERSE` (in order otherwise), with stand-ins above `to_beat` or a `Neutral` cost
    /// already given in the same search when the bounds hold, all exact otherwise.
    fn values_to_beat<const REVERSE: bool>(
        &self,
        board: &Board,
        records: &mut Vec<PlacementRecord>,
        placements: &[Placement],
        ends: &[usize],
        to_beat: f64,
        out: &mut Vec<LinkValue>,
    ) {
        if !self.bounds_hold() {
            return self.last_link_values(board, records, placements, out);
        }
        with_popcount(
            #[inline(always)]
            || {
                self.last_link_values_by_columns::<true, REVERSE>(
                    board, records, placements, ends, to_beat, out,
                )
            },
        )
    }
}

#[cfg(test)]
mod tests;
