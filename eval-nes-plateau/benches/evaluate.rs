//! Cost and chain rule of one chain, as a depth-2 search asks for them at every leaf.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tetris_core::Board;
use tetris_core::evaluate::{Chain, Evaluator, PlacementRecord};
use tetris_core::piece::Piece;
use tetris_core::placement::{PieceState, Placement};
use tetris_eval_nes_plateau::NesPlateau;

/// A mid-game board: 8 rows of stack, 5 holes, no full row.
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
....#.....
...###....
#..####...
##.#####..
####.####.
###.######
#########.
#.######.#
";

/// A tall board whose stack reaches the ceiling rows (rows 2..6 on the left), so that the
/// split-field flood fill runs.
const NEAR_THE_TOP: &str = "\
..........
..........
##........
##........
###.......
###.#.....
####.#....
#####.#...
######.#..
#######.#.
########..
########..
#.#######.
##.######.
###.#####.
####.####.
#########.
#########.
##.######.
#########.
";

/// A piece dropped straight down from above the field in column `x`.
struct Drop {
    piece: Piece,
    x: i8,
    rotation: u8,
}

/// The board after dropping two pieces and their records, as the depth-2 chain hands them
/// over.
fn two_placement_chain(text: &str, drops: [Drop; 2]) -> (Board, [PlacementRecord; 2]) {
    let mut board: Board = text.parse().expect("bench board parses");
    let records = drops.map(|Drop { piece, x, rotation }| {
        let above = PieceState { x, y: -2, rotation };
        let y = board.drop_row(piece, above);
        let placement = Placement::new(piece, PieceState { y, ..above });
        PlacementRecord::lock(&mut board, placement)
    });
    (board, records)
}

fn evaluate(c: &mut Criterion) {
    let evaluator = NesPlateau::new();
    // A T pointing up on columns 0..2 and an O in columns 7, 8.
    let (mid_board, mid_records) = two_placement_chain(
        MID_GAME,
        [
            Drop {
                piece: Piece::T,
                x: 1,
                rotation: 2,
            },
            Drop {
                piece: Piece::O,
                x: 8,
                rotation: 0,
            },
        ],
    );
    let mid = Chain {
        board: &mid_board,
        records: &mid_records,
    };
    // An I standing in column 9 (it completes rows 16, 17 and 19), then an O in columns 8, 9.
    let (top_board, top_records) = two_placement_chain(
        NEAR_THE_TOP,
        [
            Drop {
                piece: Piece::I,
                x: 9,
                rotation: 1,
            },
            Drop {
                piece: Piece::O,
                x: 9,
                rotation: 0,
            },
        ],
    );
    let top = Chain {
        board: &top_board,
        records: &top_records,
    };
    assert!(tetris_eval_nes_plateau::touches_ceiling_rows(&top_board));
    assert!(!tetris_eval_nes_plateau::touches_ceiling_rows(&mid_board));
    assert_eq!(mid_records.map(|record| record.rows_cleared()), [0, 0]);
    let before: Board = MID_GAME.parse().expect("bench board parses");
    assert_eq!(tetris_eval_nes_plateau::holes(&before).count, 5);

    c.bench_function("nes-plateau cost, mid-game board", |b| {
        b.iter(|| evaluator.cost(black_box(mid)))
    });
    c.bench_function("nes-plateau cost + chain rule, mid-game board", |b| {
        b.iter(|| {
            let chain = black_box(mid);
            (evaluator.cost(chain), evaluator.chain_rule(chain))
        })
    });
    c.bench_function("nes-plateau features, mid-game board", |b| {
        let mut out = [0.0; 18];
        b.iter(|| {
            evaluator.features(black_box(mid), &mut out);
            out[0]
        })
    });
    c.bench_function(
        "nes-plateau cost + chain rule, near the top (flood fill)",
        |b| {
            b.iter(|| {
                let chain = black_box(top);
                (evaluator.cost(chain), evaluator.chain_rule(chain))
            })
        },
    );
}

criterion_group!(benches, evaluate);
criterion_main!(benches);
