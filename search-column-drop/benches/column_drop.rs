//! Column-drop search speed on three boards: empty, mid-game (8 rows, a few holes) and
//! cavernous (overhangs everywhere). Target: ≤ 0.2 µs median per search on the mid-game board.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tetris_core::{Board, Piece, Placements, SearchOptions, Searcher};
use tetris_search_column_drop::ColumnDrop;

/// A 20-row board whose bottom rows are `bottom`, top first.
fn with_bottom(bottom: &[&str]) -> Board {
    Board::from_bottom_rows(bottom, 20).expect("test board")
}

fn boards() -> [(&'static str, Board); 3] {
    let mid_game = with_bottom(&[
        "....#.....",
        "..####....",
        ".#.####.#.",
        ".######.##",
        "####.###.#",
        "#.#######.",
        "##.######.",
        "###.######",
    ]);
    let cavernous = with_bottom(&[
        "##.###.###",
        "#........#",
        "#.#....#.#",
        "#.#.##.#.#",
        "#...##...#",
        "##......##",
        "#..####..#",
        "#........#",
        "#.######.#",
        "#........#",
        "#########.",
    ]);
    [
        ("empty", Board::standard()),
        ("mid_game", mid_game),
        ("cavernous", cavernous),
    ]
}

fn column_drop(c: &mut Criterion) {
    let mut group = c.benchmark_group("column_drop");
    let mut searcher = ColumnDrop::new();
    let mut out = Placements::new();
    for (name, board) in boards() {
        // T: 4 rotations, the most placements (34 on the empty board).
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
    let mid_game = boards()[1].1;
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

criterion_group!(benches, column_drop);
criterion_main!(benches);
