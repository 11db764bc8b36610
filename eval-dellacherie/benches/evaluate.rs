//! Criterion benches of Dellacherie's evaluation on a mid-game board, with the two-record chain a
//! depth-2 search hands it (current piece, then the preview piece).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tetris_core::{Board, Chain, Evaluator, Piece, PieceState, Placement, PlacementRecord};
use tetris_eval_dellacherie::{Dellacherie, FEATURE_COUNT};

/// A mid-game board: the stack is about 8 rows high with a few holes and an open well at the
/// right.
const MID_GAME: &str = "\
..........
..........
..........
..........
..........
..........
..........
..........
..........
..........
..........
..........
.#........
##....#...
###..###..
####.####.
###.#####.
#.#######.
#####.###.
#########.
";

/// The mid-game board after a T (on the ledge of row 14, covering two holes) and then a
/// vertical I in the right well (clearing row 19): the final board and the two records.
fn depth_two_chain() -> (Board, [PlacementRecord; 2]) {
    let mut board: Board = MID_GAME.parse().expect("bench board parses");
    let t = Placement::new(
        Piece::T,
        PieceState {
            x: 4,
            y: 13,
            rotation: 2,
        },
    );
    assert!(t.is_lock_placement_on(&board));
    let first = PlacementRecord::lock(&mut board, t);
    let i = Placement::new(
        Piece::I,
        PieceState {
            x: 9,
            y: 18,
            rotation: 1,
        },
    );
    assert!(i.is_lock_placement_on(&board));
    let second = PlacementRecord::lock(&mut board, i);
    (board, [first, second])
}

fn evaluate(criterion: &mut Criterion) {
    let evaluator = Dellacherie::new();
    let (board, records) = depth_two_chain();
    criterion.bench_function(
        "dellacherie/cost (features + weighted sum), depth-2 chain",
        |bench| {
            bench.iter(|| {
                evaluator.cost(Chain {
                    board: black_box(&board),
                    records: black_box(&records),
                })
            })
        },
    );
    criterion.bench_function("dellacherie/features, depth-2 chain", |bench| {
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
