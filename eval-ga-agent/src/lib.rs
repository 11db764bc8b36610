//! The genetic-algorithm agent's evaluator from the Java GA article (docs/spec/evaluators.md §4): seven
//! features, and the article's final example weight vector as the default preset.
//!
//! The article scores a board "higher is better" with the signs +rows cleared, −pile height,
//! −holes, −connected holes, −blocks above holes, −wells, −bumpiness. Every evaluator here
//! returns a COST (lower is better, docs/spec/evaluators.md "Conventions"), so the weights are stored in
//! COST FORM: each of the article's weights with its sign flipped (`rows_cleared` −0.95856917,
//! `pile_height` +0.08560386, …). Cost = Σ weight × feature in [`FEATURE_NAMES`] order, left to
//! right, in `f64` (the trait's default `cost`), which is exactly the negated article score.
//! Weights files for `ga-agent` hold cost-form weights too: lower is better, a positive weight
//! penalises its feature.
//!
//! `rows_cleared` is summed over every placement of the chain (0 for a board on its own); the
//! six board features are taken on the final board, after every placement and its line clears.
//! Each board feature is one of the shared primitives of [`tetris_core::features`]; on a field
//! H rows tall the height of a cell `(x, y)` is `H − y`.
#![deny(missing_docs)]

use tetris_core::features::{
    bumpiness, cells_above_holes, covered_empty_cells, hole_runs, open_well_cells, pile_height,
};
use tetris_core::{Chain, Evaluator, Preset, WeightedEvaluator, Weights};

/// The feature names in the spec's order: the order `features` writes them, weights apply and
/// the cost sums.
pub const FEATURE_NAMES: &[&str] = &[
    "rows_cleared",
    "pile_height",
    "holes",
    "connected_holes",
    "blocks_above_holes",
    "wells",
    "bumpiness",
];

/// How many features the GA agent has.
pub const FEATURE_COUNT: usize = 7;

/// The features that belong to the chain's placements rather than to the final board
/// (`arena features` omits them; they are 0 for a board on its own).
pub const PLACEMENT_FEATURE_NAMES: &[&str] = &["rows_cleared"];

/// The article's final example weight vector in [`FEATURE_NAMES`] order, in cost form: the
/// article's signs (+rows cleared, − the other six) flipped, so that lower is better.
pub const ARTICLE_WEIGHTS: [f64; FEATURE_COUNT] = [
    -0.95856917,
    0.08560386,
    0.9476838,
    0.58525276,
    0.0291457,
    0.18112998,
    0.17345366,
];

/// The weight presets the GA agent ships; the first is the default.
pub const PRESETS: &[Preset] = &[Preset {
    name: "article",
    description: "the Java GA article's final example vector, signs flipped into a cost (evaluators.md §4)",
    values: &ARTICLE_WEIGHTS,
}];

/// The GA agent's seven feature values of `chain`, in [`FEATURE_NAMES`] order:
///
/// - `rows_cleared`: rows cleared by all placements of the chain (0 with no records);
/// - `pile_height`: the largest column height `max h(x)` of the final board, where `h(x)` is
///   `H − y` of column x's topmost occupied cell and 0 for an empty column
///   ([`pile_height`]);
/// - `holes`: empty cells with at least one occupied cell anywhere above them in their column;
///   a covered gap of n cells counts n ([`covered_empty_cells`]);
/// - `connected_holes`: empty cells whose cell directly above is occupied, i.e. each vertical
///   run of covered empty cells counted once ([`hole_runs`]);
/// - `blocks_above_holes`: occupied cells with an empty cell anywhere below them in their
///   column ([`cells_above_holes`]);
/// - `wells`: scanning each column from the top row down to its first occupied cell (all of it
///   when the column is empty), the empty cells whose left and right neighbours are both
///   occupied, the walls counting as occupied; a 1-wide well n deep counts n
///   ([`open_well_cells`]);
/// - `bumpiness`: `Σ |h(x) − h(x + 1)|` over the nine pairs of adjacent columns
///   ([`bumpiness`]).
#[inline]
pub fn feature_values(chain: Chain<'_>) -> [f64; FEATURE_COUNT] {
    let board = chain.board;
    [
        chain.rows_cleared() as f64,
        pile_height(board) as f64,
        covered_empty_cells(board) as f64,
        hole_runs(board) as f64,
        cells_above_holes(board) as f64,
        open_well_cells(board) as f64,
        bumpiness(board) as f64,
    ]
}

/// The GA agent's evaluator: seven features, cost = Σ cost-form weight × feature (lower is
/// better).
#[derive(Clone, Debug, PartialEq)]
pub struct GaAgent {
    weights: Weights,
}

impl GaAgent {
    /// The GA agent with the article's weights in cost form (the first preset).
    pub fn new() -> GaAgent {
        GaAgent::with_default_weights()
    }
}

impl Default for GaAgent {
    /// The GA agent with the article's weights in cost form.
    fn default() -> GaAgent {
        GaAgent::new()
    }
}

impl WeightedEvaluator for GaAgent {
    /// The evaluator's name in strategy strings (`bfs+ga-agent`) and weights files.
    const NAME: &'static str = "ga-agent";
    const FEATURE_NAMES: &'static [&'static str] = FEATURE_NAMES;
    const PRESETS: &'static [Preset] = PRESETS;

    fn from_checked_weights(weights: Weights) -> GaAgent {
        GaAgent { weights }
    }
}

impl Evaluator for GaAgent {
    fn name(&self) -> &str {
        GaAgent::NAME
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

    fn weights(&self) -> &Weights {
        &self.weights
    }
}

#[cfg(test)]
mod tests;
