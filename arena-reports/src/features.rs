//! The text table of an evaluator's features with their weights.

use tetris_core::Evaluator;
use tetris_registry::AnyEvaluator;

use tetris_arena_games::analysis::features::FeatureList;
use tetris_arena_io::format::{indented_table, readable};

/// Writes an aligned table of features with each one's weight and weight × value to `out`.
pub fn write_feature_table(out: &mut String, evaluator: &AnyEvaluator, features: &FeatureList) {
    let weights = evaluator.weights();
    let mut table = vec![
        ["feature", "value", "weight", "weight × value"]
            .map(String::from)
            .to_vec(),
    ];
    for &(name, value) in &features.0 {
        let weight = weights.get(name).unwrap_or(0.0);
        table.push(vec![
            name.to_string(),
            readable(value),
            readable(weight),
            readable(weight * value),
        ]);
    }
    out.push_str(&indented_table(&table, "  "));
}
