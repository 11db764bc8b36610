//! `tetris-registry`: every searcher and evaluator by name, the strategy-name grammar, and the
//! playable [`Strategy`] they make.
//!
//! This is the one place that sees every engine crate. The arena, the cross-crate tests and
//! any other front end iterate [`searchers`] and [`evaluators`] instead of naming engines
//! themselves, so registering an engine (one line in `engines.rs`) is all it takes for every
//! command, snapshot test and weights-file test to cover it.
//!
//! Strategy names are `SEARCHER+EVALUATOR[:PRESET|:weights.json][,OPTION…][@DEPTH]`
//! ([`StrategySpec`], options [`StrategyOptions`]); an evaluator alone is `EVALUATOR[:PRESET|:weights.json]`
//! ([`EvaluatorSpec`]). Both parse the weights part with the same rule.
#![deny(missing_docs)]

pub mod engines;
pub mod error;
pub mod strategy;
pub mod weights;

pub use engines::{
    AnyEvaluator, AnySearcher, EvaluatorEntry, SearcherEntry, evaluator_by_name,
    evaluator_from_weights_json, evaluator_names, evaluator_presets, evaluator_with_values,
    evaluator_with_weights, evaluators, searcher_by_name, searcher_names, searchers,
};
pub use error::RegistryError;

/// The tap rates (frames between two presses of one thumb) the registered gravity-aware
/// searcher simulates: the gamepad search's range (`tetris_search_bfs::Gamepad::TAP_RATES`),
/// so that front ends can check a tap rate without naming an engine crate.
pub const TAP_RATES: std::ops::RangeInclusive<u8> = tetris_search_bfs::Gamepad::TAP_RATES;
pub use strategy::{
    EvaluatorSpec, MAX_DEPTH, STRATEGY_OPTIONS, Strategy, StrategyOptions, StrategySpec,
};
pub use weights::{TUNED, WeightsChoice};
