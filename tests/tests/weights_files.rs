//! Weights as data, for every evaluator: presets, the JSON file form, and every named error.
//!
//! The checks live in `tetris_core::WeightedEvaluator`'s default methods, so one generic test
//! covers each evaluator crate; the crates themselves test only their own preset digits.

use std::fmt::Debug;

use tetris_core::{Error, WeightedEvaluator, Weights, WeightsFile};
use tetris_eval_dellacherie::Dellacherie;
use tetris_eval_elashi::ElAshi;
use tetris_eval_ga_agent::GaAgent;
use tetris_eval_nes_plateau::NesPlateau;

fn json_of(file: &WeightsFile) -> String {
    serde_json::to_string(file).unwrap()
}

fn weights_files_of<E: WeightedEvaluator + PartialEq + Debug>() {
    let default = E::with_default_weights();
    assert_eq!(default.name(), E::NAME);
    assert_eq!(default.feature_names(), E::FEATURE_NAMES);

    // Every preset loads by name with its exact values; the first one is the default.
    for preset in E::PRESETS {
        let evaluator = E::from_preset(preset.name).unwrap();
        assert_eq!(
            evaluator.weights().values(),
            preset.values,
            "{}",
            preset.name
        );
    }
    assert_eq!(E::from_preset(E::PRESETS[0].name).unwrap(), default);
    match E::from_preset("no-such-preset") {
        Err(Error::UnknownPreset {
            evaluator, valid, ..
        }) => {
            assert_eq!(evaluator, E::NAME);
            assert!(valid.contains(E::PRESETS[0].name));
        }
        other => panic!("{other:?}"),
    }

    // The file form round-trips bit for bit (serde_json's float_roundtrip), also from disk.
    let file = default.weights().to_file();
    assert_eq!(E::from_weights_json(&json_of(&file)).unwrap(), default);
    let path =
        std::env::temp_dir().join(format!("weights-{}-{}.json", E::NAME, std::process::id()));
    std::fs::write(&path, json_of(&file)).unwrap();
    let loaded = E::load_weights(&path);
    std::fs::remove_file(&path).unwrap();
    assert_eq!(loaded.unwrap(), default);
    assert!(matches!(
        E::load_weights(std::path::Path::new("/nonexistent/weights.json")),
        Err(Error::Io { .. })
    ));

    // Each kind of bad file is an error that names the problem.
    let first = E::FEATURE_NAMES[0];
    let mut unknown = file.clone();
    unknown.weights.insert("no_such_feature".into(), 1.0.into());
    assert!(matches!(
        E::from_weights_json(&json_of(&unknown)),
        Err(Error::UnknownFeature { name, .. }) if name == "no_such_feature"
    ));
    let mut missing = file.clone();
    missing.weights.remove(first);
    assert!(matches!(
        E::from_weights_json(&json_of(&missing)),
        Err(Error::MissingFeature { name, .. }) if name == first
    ));
    let mut not_a_number = file.clone();
    not_a_number
        .weights
        .insert(first.into(), serde_json::Value::Null);
    assert!(matches!(
        E::from_weights_json(&json_of(&not_a_number)),
        Err(Error::NonFiniteWeight { name, .. }) if name == first
    ));
    let mut other_evaluator = file.clone();
    other_evaluator.evaluator = "someone-else".into();
    assert!(matches!(
        E::from_weights_json(&json_of(&other_evaluator)),
        Err(Error::WeightsEvaluator { expected, found }) if expected == E::NAME && found == "someone-else"
    ));
    assert!(matches!(
        E::from_weights_json("{\"evaluator\": 3}"),
        Err(Error::WeightsFormat { .. })
    ));

    // Checked `Weights` must be made for this evaluator and its exact feature list.
    let values = default.weights().values().to_vec();
    let for_another = Weights::from_values("someone-else", E::FEATURE_NAMES, &values).unwrap();
    assert!(matches!(
        E::with_weights(for_another),
        Err(Error::WeightsEvaluator { .. })
    ));
    let fewer = Weights::from_values(E::NAME, &["holes"], &[1.0]).unwrap();
    assert!(matches!(
        E::with_weights(fewer),
        Err(Error::WeightsFormat { .. })
    ));
}

#[test]
fn elashi_weights_files() {
    weights_files_of::<ElAshi>();
}

#[test]
fn dellacherie_weights_files() {
    weights_files_of::<Dellacherie>();
}

#[test]
fn nes_plateau_weights_files() {
    weights_files_of::<NesPlateau>();
}

#[test]
fn ga_agent_weights_files() {
    weights_files_of::<GaAgent>();
}
