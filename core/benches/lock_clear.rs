//! Lock + line clear on a mid-game board: the per-placement cost every search chain pays.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tetris_core::{Board, Piece, PieceState};

/// About 8 rows of stack with a few holes; column 9 is a 4-deep well.
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
...##.....
..####.#..
.#######..
########..
#########.
####.####.
#########.
#########.
";

/// A vertical I in the well (x = 9, pivot row 18: rows 16..19): clears rows 16, 18, 19.
const VERTICAL_I_IN_WELL: PieceState = PieceState {
    x: 9,
    y: 18,
    rotation: 1,
};

/// A flat T resting on the stack (pivot (3, 10)): clears nothing.
const FLAT_T_ON_STACK: PieceState = PieceState {
    x: 3,
    y: 10,
    rotation: 0,
};

fn lock_and_clear(c: &mut Criterion) {
    let board: Board = MID_GAME.parse().expect("bench board");
    c.bench_function("lock+clear vertical I, 3 rows", |b| {
        b.iter(|| {
            let mut board = black_box(board);
            black_box(board.lock(Piece::I, VERTICAL_I_IN_WELL))
        })
    });
    c.bench_function("lock+clear flat T, no row", |b| {
        b.iter(|| {
            let mut board = black_box(board);
            black_box(board.lock(Piece::T, FLAT_T_ON_STACK))
        })
    });
}

criterion_group!(benches, lock_and_clear);
criterion_main!(benches);
