//! What results mean: summaries and tests over games, per-piece statistics, and how a strategy
//! judges a position.

pub mod counts;
pub mod decision_time;
pub mod estimate;
pub mod features;
pub mod lookahead;
pub mod nes;
pub mod pieces;
pub mod position;
pub mod ranking;
pub mod stats;
pub mod tournament;

/// Asserts that `actual` is within `relative` × |`expected`| of `expected` (for tests of
/// numerical results).
#[cfg(test)]
pub(crate) fn assert_close(actual: f64, expected: f64, relative: f64) {
    assert!(
        (actual - expected).abs() <= relative * expected.abs(),
        "{actual} is not within {relative} of {expected}"
    );
}
