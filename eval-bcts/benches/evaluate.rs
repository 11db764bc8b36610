//! Criterion benches of the BCTS evaluation (`du` weights) on a mid-game board, with the two-record chain a
//! depth-2 search hands it (current piece, then the preview piece).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tetris_core::{Chain, Evaluator, Piece, link_value_by_locking};
use tetris_eval_bcts::{Bcts, FEATURE_COUNT};
use tetris_fixtures::{drop_placements, mid_game, mid_game_depth_two_chain};

fn evaluate(criterion: &mut Criterion) {
    let evaluator = Bcts::new();
    let (board, records) = mid_game_depth_two_chain();
    criterion.bench_function(
        "bcts/cost (features + weighted sum), depth-2 chain",
        |bench| {
            bench.iter(|| {
                evaluator.cost(Chain {
                    board: black_box(&board),
                    records: black_box(&records),
                })
            })
        },
    );
    criterion.bench_function("bcts/features, depth-2 chain", |bench| {
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

/// The leaves of one search: every T dropped on the mid-game board after one earlier link,
/// valued in one call (`last_link_values`, the board's features updated column by column)
/// and one placement at a time the whole-board way (`link_value_by_locking`, the default).
fn last_link(criterion: &mut Criterion) {
    let evaluator = Bcts::new();
    let board = mid_game();
    let placements = drop_placements(&board, Piece::T);
    let (_, [earlier, _]) = mid_game_depth_two_chain();
    let mut records = vec![earlier];
    let mut out = Vec::new();
    criterion.bench_function("bcts/last_link_values, 34 T placements", |bench| {
        bench.iter(|| {
            evaluator.last_link_values(black_box(&board), &mut records, &placements, &mut out);
            out.len()
        })
    });
    criterion.bench_function("bcts/link_value_by_locking, 34 T placements", |bench| {
        bench.iter(|| {
            out.clear();
            for &placement in &placements {
                out.push(link_value_by_locking(
                    &evaluator,
                    black_box(&board),
                    &mut records,
                    placement,
                ));
            }
            out.len()
        })
    });
}

criterion_group!(benches, evaluate, last_link);
criterion_main!(benches);
