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

/// Checks a tap rate given to a gravity-aware searcher (`--tap-rate`, a replay's
/// `frame_timing`): it must be in [`TAP_RATES`]. The message (`T is outside …`) names the
/// value and the range; the caller puts what the value is in front.
/// The one rule every front end applies, so that nothing a command rejects passes elsewhere.
pub fn check_tap_rate(tap_rate: u64) -> Result<u8, String> {
    u8::try_from(tap_rate)
        .ok()
        .filter(|rate| TAP_RATES.contains(rate))
        .ok_or_else(|| {
            format!(
                "{tap_rate} is outside {}..={} (frames between two presses of one thumb)",
                TAP_RATES.start(),
                TAP_RATES.end()
            )
        })
}

/// Checks a whole frame timing: its tap rate ([`check_tap_rate`]) and its frames per row,
/// which must be the gravity of some level (`--level` sets them from a level, so no other
/// value can be asked for: 48 at level 0 down to 1 from level 29). Its input model
/// (`--inputs`) needs no check: both models are defined at every such tap rate and gravity,
/// and a name that is no model is rejected when it is parsed.
pub fn check_frame_timing(timing: tetris_core::FrameTiming) -> Result<(), String> {
    check_tap_rate(u64::from(timing.tap_rate)).map_err(|message| format!("tap rate {message}"))?;
    let is_a_levels = (0..=u8::MAX).any(|level| {
        tetris_core::scoring::frames_per_row(level) == u32::from(timing.frames_per_row)
    });
    if !is_a_levels {
        return Err(format!(
            "{} frames per row is no level's gravity (48 at level 0 down to 1 from level 29)",
            timing.frames_per_row
        ));
    }
    Ok(())
}
pub use strategy::{
    EvaluatorSpec, MAX_DEPTH, STRATEGY_OPTIONS, Strategy, StrategyOptions, StrategySpec,
};
pub use weights::{TUNED, WeightsChoice};
