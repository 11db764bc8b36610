//! An evaluator's features as an ordered list: what `arena features` and `arena analyze`
//! report.

use serde::ser::{Serialize, SerializeMap, Serializer};
use tetris_core::{Board, Chain, Evaluator, MAX_FEATURES};
use tetris_registry::AnyEvaluator;

/// Feature values in the evaluator's feature order; serializes as a JSON object
/// `{"name": value, ...}` whose keys keep that order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FeatureList(pub Vec<(&'static str, f64)>);

impl Serialize for FeatureList {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (name, value) in &self.0 {
            map.serialize_entry(name, value)?;
        }
        map.end()
    }
}

/// The evaluator's board-only features of `board` (a chain of no placements), in feature
/// order, leaving out the features that belong to placements.
pub fn board_features(evaluator: &AnyEvaluator, board: &Board) -> FeatureList {
    let names = evaluator.feature_names();
    let mut values = [0.0; MAX_FEATURES];
    evaluator.features(
        Chain {
            board,
            records: &[],
        },
        &mut values[..names.len()],
    );
    let placement_names = evaluator.placement_feature_names();
    FeatureList(
        names
            .iter()
            .zip(values)
            .filter(|(name, _)| !placement_names.contains(name))
            .map(|(&name, value)| (name, value))
            .collect(),
    )
}
