//! The `Evaluator` trait, the per-placement records a chain hands it, and weights as data.
//!
//! Direction: every evaluator returns a COST, lower is better (docs/spec/evaluators.md, "Conventions").
//! Weights are plain serde data in feature order, so the tuner can mutate and save them and
//! every evaluator loads them the same way: unknown names, missing names and non-finite values
//! are errors, never silent defaults.
//!
//! Over 600 lines only with its unit tests, which need the private weight and record helpers.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::board::{Board, LockOutcome};
use crate::error::Error;
use crate::placement::Placement;

/// The most features an evaluator may have (the size of the stack buffer the default
/// [`Evaluator::cost`] uses).
pub const MAX_FEATURES: usize = 32;

/// What locking one placement of a chain did, recorded for the evaluator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlacementRecord {
    /// The placement.
    pub placement: Placement,
    /// Height of the board it was played on.
    pub board_height: u8,
    /// Rows further the piece could fall on an empty board (see [`Placement::lock_height`]).
    pub lock_height: u8,
    /// Row index (0 at the top) of the piece's lowest cell where it locked, before clearing.
    pub lowest_cell_row: i8,
    /// Row index of the piece's highest cell where it locked, before clearing.
    pub highest_cell_row: i8,
    /// What the lock did: rows cleared (count and mask), piece cells in them.
    pub lock: LockOutcome,
}

impl PlacementRecord {
    /// Locks `placement` on `board` (which must hold it legally), clears rows, and records
    /// what happened.
    #[inline]
    pub fn lock(board: &mut Board, placement: Placement) -> PlacementRecord {
        let board_height = board.height();
        let lock = board.lock(placement.piece, placement.state());
        let (top, bottom) = placement.piece.vertical_extent(placement.rotation);
        PlacementRecord {
            placement,
            board_height,
            lock_height: placement.lock_height(board_height),
            lowest_cell_row: placement.y + bottom,
            highest_cell_row: placement.y + top,
            lock,
        }
    }

    /// Rows this placement cleared.
    #[inline]
    pub fn rows_cleared(&self) -> u8 {
        self.lock.rows_cleared
    }

    /// Dellacherie's eroded piece cells: rows cleared × the piece's own cells in those rows.
    #[inline]
    pub fn eroded_piece_cells(&self) -> u32 {
        self.lock.rows_cleared as u32 * self.lock.piece_cells_cleared as u32
    }

    /// Dellacherie's landing height (El-Tetris semantics): the row of the piece's lowest cell
    /// counted from the floor (bottom row = 0), plus (piece height in rows − 1) / 2. A flat I
    /// on the floor gives 0, an O 0.5, a vertical I 1.5.
    #[inline]
    pub fn landing_height(&self) -> f64 {
        landing_height(
            self.board_height,
            self.lowest_cell_row,
            self.highest_cell_row,
        )
    }
}

/// Dellacherie's landing height (El-Tetris semantics, see [`PlacementRecord::landing_height`])
/// of a piece whose lowest cell locked on row `lowest_cell_row` and highest on
/// `highest_cell_row` of a board `board_height` rows tall: the lowest cell's row counted from
/// the floor plus (rows − 1) / 2, computed in this order in `f64` wherever it is needed.
#[inline]
pub fn landing_height(board_height: u8, lowest_cell_row: i8, highest_cell_row: i8) -> f64 {
    let bottom = (board_height as i32 - 1 - lowest_cell_row as i32) as f64;
    let rows = (lowest_cell_row - highest_cell_row) as f64;
    bottom + rows / 2.0
}

/// A chain's outcome as an evaluator sees it: the final board (after every placement and its
/// line clears) and the record of each placement, in order.
#[derive(Clone, Copy, Debug)]
pub struct Chain<'a> {
    /// The board after the last placement's rows cleared.
    pub board: &'a Board,
    /// One record per placement, current piece first.
    pub records: &'a [PlacementRecord],
}

impl Chain<'_> {
    /// Rows cleared by all placements of the chain.
    #[inline]
    pub fn rows_cleared(&self) -> u32 {
        self.records.iter().map(|r| r.rows_cleared() as u32).sum()
    }

    /// Sum of every placement's lock height.
    #[inline]
    pub fn lock_height(&self) -> u32 {
        self.records.iter().map(|r| r.lock_height as u32).sum()
    }

    /// The last placement's record, if the chain has any.
    pub fn last(&self) -> Option<&PlacementRecord> {
        self.records.last()
    }
}

/// What a chain-level rule says about a whole chain, beside its cost (the NES-plateau
/// evaluator's greedy-Tetris, spawn-safety and split-field rules act this way).
///
/// The discriminants are the rules' ranks, best first, so that ranking a chain's rule (done
/// several times per evaluated placement) is a cast rather than a `match`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(u8)]
pub enum ChainRule {
    /// No opinion: the chain competes on cost.
    #[default]
    Neutral = 1,
    /// Take this chain over every `Neutral` one; among preferred chains the cost decides.
    Prefer = 0,
    /// Never take this chain.
    Reject = 2,
}

/// Turns a chain's outcome into a cost, lower is better, from named features and weights.
pub trait Evaluator {
    /// The evaluator's name as used in strategy names (`elashi`, `dellacherie`, …).
    fn name(&self) -> &str;

    /// The names of its features, in the order `features` writes them and weights apply.
    fn feature_names(&self) -> &'static [&'static str];

    /// The subset of feature names that belong to placements (lock height, rows cleared, …)
    /// rather than to the board alone; `arena features` omits them.
    fn placement_feature_names(&self) -> &'static [&'static str] {
        &[]
    }

    /// Writes the feature values of `chain` into `out`, whose length is the feature count.
    fn features(&self, chain: Chain<'_>, out: &mut [f64]);

    /// The weights in use.
    fn weights(&self) -> &Weights;

    /// The evaluator's chain-level rule for `chain` (default: `Neutral`). The lookahead
    /// chain skips rejected chains and ranks preferred ones above all others.
    fn chain_rule(&self, _chain: Chain<'_>) -> ChainRule {
        ChainRule::Neutral
    }

    /// The chain's cost: the sum of weight × feature in feature order, in `f64`, left to right
    /// (the order matters for exact ties).
    fn cost(&self, chain: Chain<'_>) -> f64 {
        let count = self.feature_names().len();
        let mut values = [0.0; MAX_FEATURES];
        self.features(chain, &mut values[..count]);
        self.weights().weighted_sum(&values[..count])
    }

    /// The value of every chain that ends with one of `placements`: for each placement, in
    /// order, what [`Evaluator::chain_rule`] and [`Evaluator::cost`] say of the chain
    /// `records` + that placement, on the board it leaves once locked on `board` and its full
    /// rows cleared. `placements` are one search's lock placements on `board` (legal there);
    /// `records` holds the chain's earlier placements and is left as it was; `out` is
    /// cleared first.
    ///
    /// This is where the lookahead chain spends its time (every leaf of every decision), and
    /// the placements of one search all go on the same board, differing from it in a few
    /// columns. The default locks each placement on a copy of the board and evaluates it
    /// whole. An evaluator may override it to update the board's features for the columns a
    /// placement touches instead, and must then give the same values to the last bit (its
    /// tests compare the two on random boards and placements, line clears included).
    fn last_link_values(
        &self,
        board: &Board,
        records: &mut Vec<PlacementRecord>,
        placements: &[Placement],
        out: &mut Vec<LinkValue>,
    ) {
        out.clear();
        for &placement in placements {
            out.push(link_value_by_locking(self, board, records, placement));
        }
    }

    /// Whether [`Evaluator::last_link_values`] takes the placements of several searches on
    /// one board in one call, of different pieces, one search's after the other, and gives
    /// each placement the value a call with its own search's placements alone gives it
    /// (default: no; an evaluator may prepare tables for the first placement's piece). The
    /// lookahead chain then values the 7 unknown pieces of expectimax in one call, so that
    /// what the evaluator takes of the board once per call is taken once for all 7.
    fn values_several_searches_at_once(&self) -> bool {
        false
    }

    /// Whether `chain` and one more placement may be [`ChainRule::Prefer`]red whichever
    /// piece that placement is of: `false` promises that for at least one of the 7 pieces no
    /// placement after `chain` makes a preferred chain (default: `true`, no promise). With
    /// expectimax, such a known chain cannot be preferred (that needs every unknown piece's
    /// best chain preferred), so once the best chain so far is preferred and loses no unknown
    /// piece, the lookahead chain skips its unknown pieces: it is worse whatever they give.
    fn may_prefer_after_every_piece(&self, _chain: Chain<'_>) -> bool {
        true
    }

    /// Whether [`Evaluator::last_link_values_to_beat`] may give stand-ins (default: no). A
    /// deciding chain then spends one placement's chains on finding a low cost to beat early.
    fn gives_stand_ins(&self) -> bool {
        false
    }

    /// [`Evaluator::last_link_values`] for a caller that needs only the best chain of each of
    /// one or more searches on `board` (expectimax's unknown pieces, a playout's piece):
    /// search k's placements end at `ends[k]` (the last end is `placements.len()`; several
    /// searches only for an evaluator that says [`Evaluator::values_several_searches_at_once`]).
    /// For each placement, in order, `out` gets either its exact value or, when the chain's
    /// rule is `Neutral` and its cost is certainly above the lowest exact cost of a `Neutral`
    /// value this call gave for another placement of the same search (earlier or later: the
    /// evaluator may value a search's placements in any order), a stand-in
    /// `LinkValue { rule: Neutral, cost }` with that cost `< cost ≤` the exact cost. Every
    /// chain of one search has the same length and loses no unknown piece, so such a chain
    /// is worse than that other one, which is given exactly, and ties with nothing: each
    /// search's first best chain, and its value, are those the exact values give. The default
    /// gives every exact value.
    fn last_link_values_of_searches(
        &self,
        board: &Board,
        records: &mut Vec<PlacementRecord>,
        placements: &[Placement],
        _ends: &[usize],
        out: &mut Vec<LinkValue>,
    ) {
        self.last_link_values(board, records, placements, out);
    }

    /// [`Evaluator::last_link_values`] for a caller that only needs the chains that can beat
    /// a best chain of `to_beat` cost (a lookahead chain that decides and keeps no report).
    /// For each placement, in order, `out` gets either its exact value or, when the chain's
    /// rule is `Neutral` and its cost is certainly above the cost to beat, a stand-in
    /// `LinkValue { rule: Neutral, cost }` with cost to beat `< cost ≤` the exact cost: a
    /// lower bound the evaluator found cheaper than the value. The cost to beat is `to_beat`,
    /// or the lowest exact cost of a `Neutral` value this call gave for an earlier placement
    /// when that is lower: every chain of one call has the same length and loses no unknown
    /// piece, so a `Neutral` chain that costs more than an earlier `Neutral` one of the same
    /// call is worse than it, and the chain was offered the earlier one first. A stand-in
    /// ranks below the best chain exactly as the exact value would, so no decision changes.
    /// The default gives every exact value.
    fn last_link_values_to_beat(
        &self,
        board: &Board,
        records: &mut Vec<PlacementRecord>,
        placements: &[Placement],
        _to_beat: f64,
        out: &mut Vec<LinkValue>,
    ) {
        self.last_link_values(board, records, placements, out);
    }
}

/// What an evaluator says of one chain: its rule and its cost (see
/// [`Evaluator::last_link_values`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LinkValue {
    /// [`Evaluator::chain_rule`] of the chain.
    pub rule: ChainRule,
    /// [`Evaluator::cost`] of the chain.
    pub cost: f64,
}

/// The value of the chain `records` + `placement` the whole-board way: `placement` locked on
/// a copy of `board`, its rows cleared, then [`Evaluator::chain_rule`] and
/// [`Evaluator::cost`] of the result. What [`Evaluator::last_link_values`] gives by default,
/// and the slow path of faster versions (a placement that clears rows).
#[inline(always)]
pub fn link_value_by_locking<E: Evaluator + ?Sized>(
    evaluator: &E,
    board: &Board,
    records: &mut Vec<PlacementRecord>,
    placement: Placement,
) -> LinkValue {
    let mut next = *board;
    records.push(PlacementRecord::lock(&mut next, placement));
    let chain = Chain {
        board: &next,
        records,
    };
    let value = LinkValue {
        rule: evaluator.chain_rule(chain),
        cost: evaluator.cost(chain),
    };
    records.pop();
    value
}

/// A named set of weights an evaluator ships, in its feature order.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Preset {
    /// The preset's name (`el-tetris`, `original`, …).
    pub name: &'static str,
    /// Where the weights come from.
    pub description: &'static str,
    /// One weight per feature, in feature order.
    pub values: &'static [f64],
}

/// An evaluator built from named weights. Its name, features and presets are constants, and
/// every way of choosing its weights (default, preset, checked `Weights`, JSON text, file) is
/// written once here, so an evaluator crate only says how to build itself from checked
/// weights. The arena's registry builds evaluators through this trait.
pub trait WeightedEvaluator: Evaluator + Sized {
    /// The evaluator's name in strategy strings and weights files (`elashi`, …).
    const NAME: &'static str;
    /// Its feature names, in weight order.
    const FEATURE_NAMES: &'static [&'static str];
    /// The weight presets it ships; the first is the default (the published weights).
    const PRESETS: &'static [Preset];

    /// The evaluator with `weights`, already checked to be for [`Self::NAME`] with exactly
    /// [`Self::FEATURE_NAMES`] in order.
    fn from_checked_weights(weights: Weights) -> Self;

    /// The evaluator with its default (first) preset.
    fn with_default_weights() -> Self {
        Self::from_preset(Self::PRESETS[0].name).expect("an evaluator's first preset is valid")
    }

    /// The evaluator with the preset called `name`; an error names the valid ones.
    fn from_preset(name: &str) -> Result<Self, Error> {
        let weights = Weights::from_preset(Self::NAME, Self::FEATURE_NAMES, Self::PRESETS, name)?;
        Ok(Self::from_checked_weights(weights))
    }

    /// The evaluator with `weights`, which must be made for this evaluator and its feature
    /// list in order.
    fn with_weights(weights: Weights) -> Result<Self, Error> {
        if weights.evaluator() != Self::NAME {
            return Err(Error::WeightsEvaluator {
                expected: Self::NAME.to_string(),
                found: weights.evaluator().to_string(),
            });
        }
        if weights.names() != Self::FEATURE_NAMES {
            return Err(Error::WeightsFormat {
                evaluator: Self::NAME.to_string(),
                message: format!(
                    "weights are for features [{}], expected [{}]",
                    weights.names().join(" "),
                    Self::FEATURE_NAMES.join(" ")
                ),
            });
        }
        Ok(Self::from_checked_weights(weights))
    }

    /// The evaluator with weights from the JSON file form
    /// (`{"evaluator": NAME, "weights": {feature: number, ...}}`).
    fn from_weights_json(text: &str) -> Result<Self, Error> {
        let weights = Weights::from_json(Self::NAME, Self::FEATURE_NAMES, text)?;
        Ok(Self::from_checked_weights(weights))
    }

    /// The evaluator with weights read from a JSON weights file.
    fn load_weights(path: &Path) -> Result<Self, Error> {
        let weights = Weights::load(Self::NAME, Self::FEATURE_NAMES, path)?;
        Ok(Self::from_checked_weights(weights))
    }
}

/// The file form of weights: `{"evaluator": "elashi", "weights": {"holes": 26.89, ...}}`.
///
/// Values are kept as JSON values so that a string or `null` is reported by name instead of
/// as a generic type error.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeightsFile {
    /// The evaluator these weights are for.
    pub evaluator: String,
    /// Feature name → weight. A name given twice is an error (a JSON object's last value
    /// would otherwise silently win).
    #[serde(deserialize_with = "features_once")]
    pub weights: BTreeMap<String, serde_json::Value>,
}

/// Reads the `weights` object of a [`WeightsFile`], rejecting a feature named twice.
fn features_once<'de, D>(deserializer: D) -> Result<BTreeMap<String, serde_json::Value>, D::Error>
where
    D: serde::Deserializer<'de>,
{
    struct FeaturesOnce;
    impl<'de> serde::de::Visitor<'de> for FeaturesOnce {
        type Value = BTreeMap<String, serde_json::Value>;

        fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
            formatter.write_str("an object of feature names and weights")
        }

        fn visit_map<A: serde::de::MapAccess<'de>>(
            self,
            mut map: A,
        ) -> Result<Self::Value, A::Error> {
            let mut weights = BTreeMap::new();
            while let Some((name, value)) = map.next_entry::<String, serde_json::Value>()? {
                if weights.contains_key(&name) {
                    return Err(serde::de::Error::custom(format!(
                        "feature {name:?} is given twice"
                    )));
                }
                weights.insert(name, value);
            }
            Ok(weights)
        }
    }
    deserializer.deserialize_map(FeaturesOnce)
}

/// An evaluator's weights: one finite number per feature, in feature order.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    evaluator: String,
    names: &'static [&'static str],
    values: Vec<f64>,
}

impl Weights {
    /// Weights for `evaluator` with features `names`, from values in feature order. The count
    /// must match and every value must be finite.
    pub fn from_values(
        evaluator: &str,
        names: &'static [&'static str],
        values: &[f64],
    ) -> Result<Weights, Error> {
        if values.len() != names.len() {
            return Err(Error::WeightsFormat {
                evaluator: evaluator.to_string(),
                message: format!(
                    "{} weights given for {} features",
                    values.len(),
                    names.len()
                ),
            });
        }
        for (name, value) in names.iter().zip(values) {
            if !value.is_finite() {
                return Err(Error::NonFiniteWeight {
                    evaluator: evaluator.to_string(),
                    name: name.to_string(),
                    value: value.to_string(),
                });
            }
        }
        Ok(Weights {
            evaluator: evaluator.to_string(),
            names,
            values: values.to_vec(),
        })
    }

    /// The preset called `preset` among `presets`.
    pub fn from_preset(
        evaluator: &str,
        names: &'static [&'static str],
        presets: &[Preset],
        preset: &str,
    ) -> Result<Weights, Error> {
        let found = presets
            .iter()
            .find(|candidate| candidate.name == preset)
            .ok_or_else(|| Error::UnknownPreset {
                evaluator: evaluator.to_string(),
                name: preset.to_string(),
                valid: presets.iter().map(|p| p.name).collect::<Vec<_>>().join(" "),
            })?;
        Weights::from_values(evaluator, names, found.values)
    }

    /// Parses the JSON file form for `evaluator`: the file must name this evaluator and give
    /// exactly one finite number for each feature.
    pub fn from_json(
        evaluator: &str,
        names: &'static [&'static str],
        text: &str,
    ) -> Result<Weights, Error> {
        let file: WeightsFile =
            serde_json::from_str(text).map_err(|error| Error::WeightsFormat {
                evaluator: evaluator.to_string(),
                message: error.to_string(),
            })?;
        Weights::from_file(evaluator, names, &file)
    }

    /// Checks and converts the parsed file form.
    pub fn from_file(
        evaluator: &str,
        names: &'static [&'static str],
        file: &WeightsFile,
    ) -> Result<Weights, Error> {
        if file.evaluator != evaluator {
            return Err(Error::WeightsEvaluator {
                expected: evaluator.to_string(),
                found: file.evaluator.clone(),
            });
        }
        if let Some(unknown) = file
            .weights
            .keys()
            .find(|key| !names.contains(&key.as_str()))
        {
            return Err(Error::UnknownFeature {
                evaluator: evaluator.to_string(),
                name: unknown.clone(),
                valid: names.join(" "),
            });
        }
        let mut values = Vec::with_capacity(names.len());
        for name in names {
            let value = file
                .weights
                .get(*name)
                .ok_or_else(|| Error::MissingFeature {
                    evaluator: evaluator.to_string(),
                    name: name.to_string(),
                })?;
            let number = value.as_f64().ok_or_else(|| Error::NonFiniteWeight {
                evaluator: evaluator.to_string(),
                name: name.to_string(),
                value: value.to_string(),
            })?;
            values.push(number);
        }
        Weights::from_values(evaluator, names, &values)
    }

    /// Reads and checks a weights file; every error names the file
    /// ([`Error::WeightsFile`]). A file larger than
    /// [`crate::files::WEIGHTS_FILE_LIMIT`] (1 MiB; real ones are a few hundred bytes) is
    /// refused unread ([`Error::FileTooLarge`]).
    pub fn load(
        evaluator: &str,
        names: &'static [&'static str],
        path: &Path,
    ) -> Result<Weights, Error> {
        let in_file = |message: String, io: Option<std::io::ErrorKind>| Error::WeightsFile {
            path: path.display().to_string(),
            message,
            io,
        };
        let text = crate::files::read_text(path, crate::files::WEIGHTS_FILE_LIMIT, "weights file")
            .map_err(|error| match error {
                Error::Io { message, kind, .. } => in_file(message, Some(kind)),
                too_large => too_large,
            })?;
        Weights::from_json(evaluator, names, &text)
            .map_err(|error| in_file(error.to_string(), None))
    }

    /// The file form of these weights.
    pub fn to_file(&self) -> WeightsFile {
        WeightsFile {
            evaluator: self.evaluator.clone(),
            weights: self
                .names
                .iter()
                .zip(&self.values)
                .map(|(name, value)| (name.to_string(), serde_json::Value::from(*value)))
                .collect(),
        }
    }

    /// The JSON file form, pretty-printed, weights in name order.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(&self.to_file()).expect("weights serialize")
    }

    /// The evaluator these weights are for.
    pub fn evaluator(&self) -> &str {
        &self.evaluator
    }

    /// Feature names, in weight order.
    pub fn names(&self) -> &'static [&'static str] {
        self.names
    }

    /// The weights in feature order.
    #[inline]
    pub fn values(&self) -> &[f64] {
        &self.values
    }

    /// The weight of feature `name`.
    pub fn get(&self, name: &str) -> Option<f64> {
        self.names
            .iter()
            .position(|candidate| *candidate == name)
            .map(|index| self.values[index])
    }

    /// Sum of weight × feature in feature order, left to right, in `f64` (from 0.0; the
    /// same operations as [`weighted_sum_of`]).
    #[inline]
    pub fn weighted_sum(&self, features: &[f64]) -> f64 {
        debug_assert_eq!(features.len(), self.values.len());
        let mut sum = 0.0;
        for (weight, feature) in self.values.iter().zip(features) {
            sum += weight * feature;
        }
        sum
    }
}

/// [`Weights::weighted_sum`] of weights kept in an array: Σ weight × feature in order, left
/// to right from 0.0, the same operations in the same order (the same bits), with a loop of
/// constant length (unrolled, without bounds checks or the weights' indirection). For an
/// evaluator that keeps a copy of its weights' values beside its [`Weights`].
#[inline(always)]
pub fn weighted_sum_of<const N: usize>(weights: &[f64; N], features: &[f64; N]) -> f64 {
    let mut sum = 0.0;
    for (weight, feature) in weights.iter().zip(features) {
        sum += weight * feature;
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::piece::Piece;
    use crate::placement::PieceState;

    const NAMES: &[&str] = &["holes", "rows_cleared"];
    const PRESETS: &[Preset] = &[Preset {
        name: "plain",
        description: "test",
        values: &[2.0, -1.0],
    }];

    #[test]
    fn weights_load_and_reject_bad_files() {
        let good = r#"{"evaluator": "demo", "weights": {"rows_cleared": -1.0, "holes": 2}}"#;
        let weights = Weights::from_json("demo", NAMES, good).unwrap();
        assert_eq!(weights.values(), &[2.0, -1.0]);
        assert_eq!(
            weights,
            Weights::from_preset("demo", NAMES, PRESETS, "plain").unwrap()
        );
        assert_eq!(weights.weighted_sum(&[3.0, 4.0]), 2.0);
        let round_trip = Weights::from_json("demo", NAMES, &weights.to_json()).unwrap();
        assert_eq!(round_trip, weights);

        let unknown =
            r#"{"evaluator": "demo", "weights": {"rows_cleared": 1, "holes": 2, "wells": 3}}"#;
        assert!(matches!(
            Weights::from_json("demo", NAMES, unknown),
            Err(Error::UnknownFeature { name, .. }) if name == "wells"
        ));
        let missing = r#"{"evaluator": "demo", "weights": {"holes": 2}}"#;
        assert!(matches!(
            Weights::from_json("demo", NAMES, missing),
            Err(Error::MissingFeature { name, .. }) if name == "rows_cleared"
        ));
        let null = r#"{"evaluator": "demo", "weights": {"holes": null, "rows_cleared": 1}}"#;
        assert!(matches!(
            Weights::from_json("demo", NAMES, null),
            Err(Error::NonFiniteWeight { name, .. }) if name == "holes"
        ));
        let other = r#"{"evaluator": "elashi", "weights": {"holes": 1, "rows_cleared": 1}}"#;
        assert!(matches!(
            Weights::from_json("demo", NAMES, other),
            Err(Error::WeightsEvaluator { .. })
        ));
        assert!(Weights::from_values("demo", NAMES, &[f64::NAN, 1.0]).is_err());
        assert!(Weights::from_values("demo", NAMES, &[f64::INFINITY, 1.0]).is_err());
        assert!(Weights::from_preset("demo", NAMES, PRESETS, "nope").is_err());
        assert!(Weights::from_json("demo", NAMES, "not json").is_err());
        let twice =
            r#"{"evaluator": "demo", "weights": {"holes": 1, "rows_cleared": 1, "holes": 2}}"#;
        let message = Weights::from_json("demo", NAMES, twice)
            .unwrap_err()
            .to_string();
        assert!(
            message.starts_with(r#"weights for demo: feature "holes" is given twice"#),
            "{message}"
        );
    }

    #[test]
    fn weights_file_errors_name_the_file() {
        let folder = std::env::temp_dir().join(format!("core-weights-{}", std::process::id()));
        std::fs::create_dir_all(&folder).unwrap();
        let path = folder.join("w.json");
        std::fs::write(&path, r#"{"evaluator": "demo", "weights": {"holes": 1}}"#).unwrap();
        let message = Weights::load("demo", NAMES, &path).unwrap_err().to_string();
        assert_eq!(
            message,
            format!(
                "weights file {}: weights for demo: missing weight for feature \"rows_cleared\"",
                path.display()
            )
        );
        let missing = folder.join("none.json");
        let message = Weights::load("demo", NAMES, &missing)
            .unwrap_err()
            .to_string();
        assert!(
            message.starts_with(&format!("weights file {}: No such file", missing.display())),
            "{message}"
        );
        std::fs::remove_dir_all(&folder).unwrap();
        for device in ["/dev/zero", "/dev/urandom"] {
            let message = Weights::load("demo", NAMES, Path::new(device))
                .unwrap_err()
                .to_string();
            assert_eq!(
                message,
                format!("weights file {device}: larger than 1 MiB (the limit for a weights file)")
            );
        }
    }

    #[test]
    fn weights_round_trip_through_json_bit_for_bit() {
        // serde_json reads floats correctly rounded only with its `float_roundtrip` feature;
        // without it this El-Ashi weight loads one ulp off.
        let digits: &[f64] = &[0.36236105526118173, 12.885008263218383];
        let weights = Weights::from_values("demo", NAMES, digits).unwrap();
        let loaded = Weights::from_json("demo", NAMES, &weights.to_json()).unwrap();
        assert_eq!(loaded.values(), digits);
        let text = r#"{"evaluator": "demo", "weights": {"holes": 0.36236105526118173, "rows_cleared": 12.885008263218383}}"#;
        assert_eq!(
            Weights::from_json("demo", NAMES, text).unwrap().values(),
            digits
        );
    }

    #[test]
    fn records_give_landing_height_and_erosion() {
        // A flat I on the floor of an empty board: landing height 0, lock height 0.
        let mut board = Board::standard();
        let flat = Placement::new(
            Piece::I,
            PieceState {
                x: 5,
                y: 19,
                rotation: 0,
            },
        );
        let record = PlacementRecord::lock(&mut board, flat);
        assert_eq!(record.landing_height(), 0.0);
        assert_eq!(record.lock_height, 0);
        // A vertical I on the floor: 1.5; an O on the floor: 0.5.
        let mut board = Board::standard();
        let vertical = Placement::new(
            Piece::I,
            PieceState {
                x: 0,
                y: 18,
                rotation: 1,
            },
        );
        assert_eq!(
            PlacementRecord::lock(&mut board, vertical).landing_height(),
            1.5
        );
        let mut board = Board::standard();
        let o = Placement::new(
            Piece::O,
            PieceState {
                x: 1,
                y: 18,
                rotation: 0,
            },
        );
        assert_eq!(PlacementRecord::lock(&mut board, o).landing_height(), 0.5);
        // Completing two rows with a vertical I: 2 rows × 2 own cells = 4 eroded cells.
        let mut board: Board = ("..........\n".repeat(17) + "#########.\n#########.\n##.#######\n")
            .parse()
            .unwrap();
        let record = PlacementRecord::lock(&mut board, vertical_at(9, 17));
        assert_eq!(record.rows_cleared(), 2);
        assert_eq!(record.eroded_piece_cells(), 4);
        assert_eq!(record.landing_height(), 2.5);
    }

    fn vertical_at(x: i8, y: i8) -> Placement {
        Placement::new(Piece::I, PieceState { x, y, rotation: 1 })
    }
}
