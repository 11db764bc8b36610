//! Drop search speed on the empty board and the shared mid-game board (`tetris-fixtures`),
//! for the T (4 orientations, 34 placements) and for all 7 pieces.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tetris_core::{Board, Piece, Placements, SearchOptions, Searcher};
use tetris_search_drop::DropFromAbove;

fn boards() -> [(&'static str, Board); 2] {
    [
        ("empty", Board::standard()),
        ("mid_game", tetris_fixtures::mid_game()),
    ]
}

fn drop_search(c: &mut Criterion) {
    let mut group = c.benchmark_group("drop");
    let mut searcher = DropFromAbove::new();
    let mut out = Placements::new();
    for (name, board) in boards() {
        group.bench_function(format!("T/{name}"), |b| {
            b.iter(|| {
                searcher.search(
                    black_box(&board),
                    Piece::T,
                    SearchOptions::default(),
                    &mut out,
                );
                black_box(out.len())
            })
        });
        // One search of each of the 7 pieces per iteration (divide by 7 for one search).
        group.bench_function(format!("all_7_pieces/{name}"), |b| {
            b.iter(|| {
                let mut found = 0;
                for piece in Piece::ALL {
                    searcher.search(black_box(&board), piece, SearchOptions::default(), &mut out);
                    found += out.len();
                }
                black_box(found)
            })
        });
    }
    let mid_game = tetris_fixtures::mid_game();
    group.bench_function("T_with_paths/mid_game", |b| {
        b.iter(|| {
            searcher.search(
                black_box(&mid_game),
                Piece::T,
                SearchOptions::WITH_PATHS,
                &mut out,
            );
            black_box(out.len())
        })
    });
    group.finish();
}

criterion_group!(benches, drop_search);
criterion_main!(benches);
