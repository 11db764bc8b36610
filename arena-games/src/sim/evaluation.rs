//! The evaluator's judgement of a chosen placement, as a game can record it (`arena play
//! --features`) and a replay and its HTML viewer can show it: the best chain's cost and the
//! evaluator's features of that chain.
//!
//! The features are those of the whole best chain (the board after all its known
//! placements, with their records), which is what the cost was computed from; for a strategy
//! of depth 1 that is the placement itself.

use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use tetris_core::{Board, Chain, ChainChoice, Evaluator, MAX_FEATURES, Placement, PlacementRecord};
use tetris_registry::{AnyEvaluator, Strategy};

/// The cost and features of the best chain behind one chosen placement:
/// `{"cost": 12.5, "features": {"name": value, ...}}`, the features in the evaluator's order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Evaluation {
    /// The best chain's cost, lower is better; `None` (JSON `null`) when it is not a finite
    /// number (with expectimax, +∞ when no unknown piece survives the chain).
    pub cost: Option<f64>,
    /// Every feature of the evaluator for that chain, in the evaluator's feature order.
    #[serde(with = "feature_map")]
    pub features: Vec<(String, f64)>,
}

impl Evaluation {
    /// The evaluation behind `choice`, which `strategy` has just made on `board` (its chain
    /// still holds that decision's best chain).
    pub fn of_choice(strategy: &Strategy, board: &Board, choice: &ChainChoice) -> Evaluation {
        let features =
            chain_feature_values(strategy.evaluator(), board, strategy.chain().best_chain());
        Evaluation {
            cost: choice.cost().is_finite().then_some(choice.cost()),
            features: features
                .into_iter()
                .map(|(name, value)| (name.to_string(), value))
                .collect(),
        }
    }
}

impl Evaluation {
    /// Whether `other` holds the same cost and the same value for every feature, in any
    /// order (a tool that rewrote the replay's JSON may have sorted the features by name).
    pub fn matches(&self, other: &Evaluation) -> bool {
        let sorted = |evaluation: &Evaluation| {
            let mut features = evaluation.features.clone();
            features.sort_by(|a, b| a.0.cmp(&b.0));
            features
        };
        self.cost == other.cost && sorted(self) == sorted(other)
    }
}

/// All of the evaluator's features of the chain `placements` played from `board`, in feature
/// order (what `arena analyze` reports and [`Evaluation`] records).
pub fn chain_feature_values(
    evaluator: &AnyEvaluator,
    board: &Board,
    placements: &[Placement],
) -> Vec<(&'static str, f64)> {
    let mut on = *board;
    let records: Vec<PlacementRecord> = placements
        .iter()
        .map(|&placement| PlacementRecord::lock(&mut on, placement))
        .collect();
    let names = evaluator.feature_names();
    let mut values = [0.0; MAX_FEATURES];
    evaluator.features(
        Chain {
            board: &on,
            records: &records,
        },
        &mut values[..names.len()],
    );
    names.iter().copied().zip(values).collect()
}

/// Serde form of the features: a JSON object whose keys keep the evaluator's order (read back
/// in file order, whatever map type the JSON library would otherwise use).
mod feature_map {
    use super::*;

    pub fn serialize<S: Serializer>(
        features: &[(String, f64)],
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(features.len()))?;
        for (name, value) in features {
            map.serialize_entry(name, value)?;
        }
        map.end()
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Vec<(String, f64)>, D::Error> {
        struct InOrder;
        impl<'de> Visitor<'de> for InOrder {
            type Value = Vec<(String, f64)>;
            fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
                formatter.write_str("an object of feature names and numbers")
            }
            fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Self::Value, M::Error> {
                let mut features = Vec::new();
                while let Some(entry) = map.next_entry::<String, f64>()? {
                    features.push(entry);
                }
                Ok(features)
            }
        }
        deserializer.deserialize_map(InOrder)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tetris_core::{Piece, PieceState};

    #[test]
    fn features_keep_their_order_through_json() {
        let evaluation = Evaluation {
            cost: Some(-2.5),
            features: vec![("zeta".into(), 1.0), ("alpha".into(), -3.25)],
        };
        let text = serde_json::to_string(&evaluation).unwrap();
        assert_eq!(
            text,
            r#"{"cost":-2.5,"features":{"zeta":1.0,"alpha":-3.25}}"#
        );
        assert_eq!(
            serde_json::from_str::<Evaluation>(&text).unwrap(),
            evaluation
        );
        let mut sorted = evaluation.clone();
        sorted.features.reverse();
        assert!(sorted.matches(&evaluation));
        sorted.features[0].1 = 0.5;
        assert!(!sorted.matches(&evaluation));
        let infinite = r#"{"cost":null,"features":{}}"#;
        assert_eq!(
            serde_json::from_str::<Evaluation>(infinite).unwrap().cost,
            None
        );
    }

    #[test]
    fn a_vertical_i_into_the_one_gap_of_the_bottom_row_clears_it_from_the_floor() {
        // The bottom row is full but for column 9; a vertical I (rotation 1, cells at pivot
        // rows -2..=1) with its pivot at (9, 18) fills rows 16..=19 of column 9: it clears the
        // bottom row, rests on the floor (lock height 0) and leaves no hole.
        let strategy = Strategy::from_name("bfs+elashi").unwrap();
        let board = Board::from_bottom_rows(&["#########."], 20).unwrap();
        let placement = Placement::new(
            Piece::I,
            PieceState {
                x: 9,
                y: 18,
                rotation: 1,
            },
        );
        let features = chain_feature_values(strategy.evaluator(), &board, &[placement]);
        let names: Vec<&str> = features.iter().map(|(name, _)| *name).collect();
        assert_eq!(names, strategy.evaluator().feature_names());
        let value = |name: &str| features.iter().find(|(n, _)| *n == name).unwrap().1;
        assert_eq!(value("rows_cleared"), 1.0);
        assert_eq!(value("lock_height"), 0.0);
        assert_eq!(value("holes"), 0.0);
    }
}
