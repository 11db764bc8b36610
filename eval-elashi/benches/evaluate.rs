//! Criterion benches of El-Ashi's evaluation on a mid-game board, with the two-record chain a
//! depth-2 search hands it (current piece, then the preview piece).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tetris_core::{Chain, Evaluator};
use tetris_eval_elashi::{ElAshi, FEATURE_COUNT};
use tetris_fixtures::mid_game_depth_two_chain;

fn evaluate(criterion: &mut Criterion) {
    let evaluator = ElAshi::new();
    let (board, records) = mid_game_depth_two_chain();
    criterion.bench_function(
        "elashi/cost (features + weighted sum), depth-2 chain",
        |bench| {
            bench.iter(|| {
                evaluator.cost(Chain {
                    board: black_box(&board),
                    records: black_box(&records),
                })
            })
        },
    );
    criterion.bench_function("elashi/features, depth-2 chain", |bench| {
        let mut out = [0.0; FEATURE_COUNT];
        bench.iter(|| {
            evaluator.features(
                Chain {
                    board: black_box(&board),
                    records: black_box(&records),
                },
                black_box(&mut out),
            )
        })
    });
}

criterion_group!(benches, evaluate);
criterion_main!(benches);
