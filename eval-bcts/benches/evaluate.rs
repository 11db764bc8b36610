//! Criterion benches of the bcts evaluation on the mid-game board: one chain's value and one
//! search's leaves (the measurements are `tetris_fixtures::evaluator_benches`, shared by every
//! evaluator).

use criterion::{Criterion, criterion_group, criterion_main};
use tetris_eval_bcts::Bcts;
use tetris_fixtures::evaluator_benches;

fn evaluate(criterion: &mut Criterion) {
    evaluator_benches(criterion, "bcts", &Bcts::new());
}

criterion_group!(benches, evaluate);
criterion_main!(benches);
