//! Weights as data, for every evaluator: presets, the JSON file form, and every named error.
//!
//! The checks live in `tetris_core::WeightedEvaluator`'s default methods, so one test covers
//! each evaluator crate; the crates themselves test only their own preset digits. The test
//! iterates `tetris_registry::evaluators()` and builds every evaluator through the registry
//! (by name, with `WeightsChoice::{Default, Preset, File}`, weights JSON text or checked
//! `Weights`), so a newly registered evaluator is covered without any change here.

use tetris_core::{Board, Chain, Error, Evaluator, PlacementRecord, Weights, WeightsFile};
use tetris_registry::{
    AnyEvaluator, EvaluatorEntry, WeightsChoice, evaluator_by_name, evaluator_from_weights_json,
    evaluator_with_weights,
};
use tetris_tests::{grow_board, random_lock_placement};

fn json_of(file: &WeightsFile) -> String {
    serde_json::to_string(file).unwrap()
}

/// The evaluator `name` built through the registry with `weights` (the name must be
/// registered).
fn by_name(name: &str, weights: WeightsChoice) -> Result<AnyEvaluator, Error> {
    evaluator_by_name(name, &weights)
        .unwrap_or_else(|| panic!("{name} is listed by the registry but not found by name"))
}

/// The chains two evaluators are compared on: boards grown by seeded random play (8 to 40
/// pieces), each on its own and with one more random lock placement as a one-record chain.
fn comparison_chains() -> Vec<(Board, Vec<PlacementRecord>)> {
    use rand::SeedableRng;
    let mut chains = vec![(Board::standard(), Vec::new())];
    for seed in 1..=8u64 {
        let board = grow_board(seed, 4 * seed as usize + 4, 20);
        chains.push((board, Vec::new()));
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
        let placement = (0..1000)
            .find_map(|_| random_lock_placement(&board, &mut rng))
            .expect("a random placement fits within 1000 tries");
        let mut after = board;
        let record = PlacementRecord::lock(&mut after, placement);
        chains.push((after, vec![record]));
    }
    chains
}

/// Asserts that two evaluators are the same evaluator with the same weights.
///
/// The per-type test this replaces compared evaluators with `E: PartialEq`, which also
/// compared any state an evaluator derives from its weights (El-Ashi and Dellacherie keep a
/// copy of the weights in a fixed-size array for the cost loop). The registry's
/// `AnyEvaluator` has no `PartialEq`, so the equivalent is compared instead: the name, the
/// feature names, the weights bit for bit, and what the evaluator computes from them (every
/// feature, the cost and the chain rule, bit for bit) on the chains of
/// [`comparison_chains`].
fn assert_same_evaluator(found: &AnyEvaluator, expected: &AnyEvaluator, what: &str) {
    assert_eq!(found.name(), expected.name(), "{what}: name");
    assert_eq!(
        found.feature_names(),
        expected.feature_names(),
        "{what}: feature names"
    );
    assert_eq!(found.weights(), expected.weights(), "{what}: weights");
    let bits = |values: &[f64]| {
        values
            .iter()
            .map(|value| value.to_bits())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        bits(found.weights().values()),
        bits(expected.weights().values()),
        "{what}: weight bits"
    );
    let count = expected.feature_names().len();
    for (board, records) in comparison_chains() {
        let chain = Chain {
            board: &board,
            records: &records,
        };
        let mut found_features = vec![f64::NAN; count];
        let mut expected_features = vec![f64::NAN; count];
        found.features(chain, &mut found_features);
        expected.features(chain, &mut expected_features);
        assert_eq!(
            bits(&found_features),
            bits(&expected_features),
            "{what}: features on\n{board}"
        );
        assert_eq!(
            found.cost(chain).to_bits(),
            expected.cost(chain).to_bits(),
            "{what}: cost on\n{board}"
        );
        assert_eq!(
            found.chain_rule(chain),
            expected.chain_rule(chain),
            "{what}: chain rule on\n{board}"
        );
    }
}

/// Every check of weights as data for one registered evaluator.
fn weights_files_of(entry: &EvaluatorEntry) {
    let name = entry.name;
    let default = by_name(name, WeightsChoice::Default).unwrap();
    assert_eq!(default.name(), name);
    assert_eq!(default.feature_names(), entry.feature_names);
    assert!(!entry.presets.is_empty(), "{name}: no preset");

    // Every preset loads by name with its exact values; the first one is the default.
    for preset in entry.presets {
        let evaluator = by_name(name, WeightsChoice::Preset(preset.name.into())).unwrap();
        assert_eq!(
            evaluator.weights().values(),
            preset.values,
            "{name}: {}",
            preset.name
        );
    }
    let first = by_name(name, WeightsChoice::Preset(entry.presets[0].name.into())).unwrap();
    assert_same_evaluator(&first, &default, &format!("{name}: first preset"));
    match by_name(name, WeightsChoice::Preset("no-such-preset".into())) {
        Err(Error::UnknownPreset {
            evaluator, valid, ..
        }) => {
            assert_eq!(evaluator, name);
            assert!(valid.contains(entry.presets[0].name));
        }
        other => panic!(
            "{name}: {:?}",
            other.map(|evaluator| evaluator.weights().clone())
        ),
    }

    // The file form round-trips bit for bit (serde_json's float_roundtrip), also from disk.
    let file = default.weights().to_file();
    let json_loaded = evaluator_from_weights_json(name, &json_of(&file))
        .expect("registered")
        .unwrap();
    assert_same_evaluator(&json_loaded, &default, &format!("{name}: JSON text"));
    let path = std::env::temp_dir().join(format!("weights-{name}-{}.json", std::process::id()));
    std::fs::write(&path, json_of(&file)).unwrap();
    let loaded = by_name(name, WeightsChoice::File(path.display().to_string()));
    std::fs::remove_file(&path).unwrap();
    assert_same_evaluator(&loaded.unwrap(), &default, &format!("{name}: file"));
    assert!(matches!(
        by_name(
            name,
            WeightsChoice::File("/nonexistent/weights.json".into())
        ),
        Err(Error::WeightsFile { path, .. }) if path == "/nonexistent/weights.json"
    ));

    // Each kind of bad file is an error that names the problem.
    let from_json = |file: &WeightsFile| {
        evaluator_from_weights_json(name, &json_of(file))
            .expect("registered")
            .map(|evaluator| evaluator.weights().clone())
    };
    let first = entry.feature_names[0];
    let mut unknown = file.clone();
    unknown.weights.insert("no_such_feature".into(), 1.0.into());
    assert!(matches!(
        from_json(&unknown),
        Err(Error::UnknownFeature { name, .. }) if name == "no_such_feature"
    ));
    let mut missing = file.clone();
    missing.weights.remove(first);
    assert!(matches!(
        from_json(&missing),
        Err(Error::MissingFeature { name, .. }) if name == first
    ));
    let mut not_a_number = file.clone();
    not_a_number
        .weights
        .insert(first.into(), serde_json::Value::Null);
    assert!(matches!(
        from_json(&not_a_number),
        Err(Error::NonFiniteWeight { name, .. }) if name == first
    ));
    let mut other_evaluator = file.clone();
    other_evaluator.evaluator = "someone-else".into();
    assert!(matches!(
        from_json(&other_evaluator),
        Err(Error::WeightsEvaluator { expected, found }) if expected == name && found == "someone-else"
    ));
    assert!(matches!(
        evaluator_from_weights_json(name, "{\"evaluator\": 3}").expect("registered"),
        Err(Error::WeightsFormat { .. })
    ));

    // Checked `Weights` must be made for this evaluator and its exact feature list.
    let values = default.weights().values().to_vec();
    let for_another = Weights::from_values("someone-else", entry.feature_names, &values).unwrap();
    assert!(matches!(
        evaluator_with_weights(name, for_another).expect("registered"),
        Err(Error::WeightsEvaluator { .. })
    ));
    let fewer = Weights::from_values(name, &["holes"], &[1.0]).unwrap();
    assert!(matches!(
        evaluator_with_weights(name, fewer).expect("registered"),
        Err(Error::WeightsFormat { .. })
    ));
}

#[test]
fn every_registered_evaluator_loads_weights_as_data() {
    let entries = tetris_registry::evaluators();
    // The four evaluators the workspace ships are registered (so the loop below cannot pass
    // on an empty or shrunken registry), each name once.
    let names: Vec<&str> = entries.iter().map(|entry| entry.name).collect();
    for shipped in ["elashi", "dellacherie", "nes-plateau", "ga-agent"] {
        assert!(names.contains(&shipped), "{shipped} is not registered");
    }
    for (index, name) in names.iter().enumerate() {
        assert!(!names[..index].contains(name), "{name} is registered twice");
    }
    for entry in &entries {
        weights_files_of(entry);
    }
}

#[test]
fn an_unregistered_evaluator_name_finds_nothing() {
    assert!(evaluator_by_name("no-such-evaluator", &WeightsChoice::Default).is_none());
    assert!(evaluator_from_weights_json("no-such-evaluator", "{}").is_none());
    let weights = Weights::from_values("no-such-evaluator", &["holes"], &[1.0]).unwrap();
    assert!(evaluator_with_weights("no-such-evaluator", weights).is_none());
}
