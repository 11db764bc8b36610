//! Criterion benches of the full BFS lock search. In `bfs_7_pieces` one iteration searches all
//! 7 pieces, so the time per search is the reported time divided by 7; `bfs_mid_game_per_piece`
//! times single searches. The `_unordered` benches time the same placements in any order
//! (`Searcher::search_unordered`, the reachability flood the lookahead chain uses for the
//! pieces after the current one).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tetris_core::{Board, Piece, Placements, SearchOptions, Searcher};
use tetris_fixtures::MID_GAME;
use tetris_search_bfs::Bfs;

/// A cavernous board: floating shelves, overhangs and caves that only tucks and spins reach.
const CAVERNOUS: &str = "\
..........
..........
..........
..........
..........
..........
..........
..........
.##....##.
.#......#.
.#..##..#.
....#.....
##.....###
#...#....#
#.#.#.##.#
...##..#..
.#....#...
##.##.#.##
#...#...#.
#.#.#.#.#.
";

fn search_all_pieces(
    bfs: &mut Bfs,
    board: &Board,
    options: SearchOptions,
    out: &mut Placements,
) -> usize {
    let mut total = 0;
    for piece in Piece::ALL {
        bfs.search(black_box(board), piece, options, out);
        total += out.len();
    }
    total
}

fn search_all_pieces_unordered(bfs: &mut Bfs, board: &Board, out: &mut Placements) -> usize {
    let mut total = 0;
    for piece in Piece::ALL {
        bfs.search_unordered(black_box(board), piece, SearchOptions::default(), out);
        total += out.len();
    }
    total
}

fn bench_boards(criterion: &mut Criterion) {
    let boards = [
        ("empty", Board::standard()),
        (
            "mid_game",
            MID_GAME.parse::<Board>().expect("mid-game board"),
        ),
        (
            "cavernous",
            CAVERNOUS.parse::<Board>().expect("cavernous board"),
        ),
    ];
    let mut bfs = Bfs::new();
    let mut out = Placements::new();
    let mut group = criterion.benchmark_group("bfs_7_pieces");
    for (name, board) in &boards {
        group.bench_function(*name, |bencher| {
            bencher.iter(|| search_all_pieces(&mut bfs, board, SearchOptions::default(), &mut out))
        });
        group.bench_function(format!("{name}_with_paths"), |bencher| {
            bencher.iter(|| search_all_pieces(&mut bfs, board, SearchOptions::WITH_PATHS, &mut out))
        });
        group.bench_function(format!("{name}_unordered"), |bencher| {
            bencher.iter(|| search_all_pieces_unordered(&mut bfs, board, &mut out))
        });
    }
    group.finish();

    // Per piece on the mid-game board: the spread between O (fewest states) and T, J, L.
    let mid_game = &boards[1].1;
    let mut group = criterion.benchmark_group("bfs_mid_game_per_piece");
    for piece in Piece::ALL {
        group.bench_function(piece.letter().to_string(), |bencher| {
            bencher.iter(|| {
                bfs.search(
                    black_box(mid_game),
                    piece,
                    SearchOptions::default(),
                    &mut out,
                );
                out.len()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_boards);
criterion_main!(benches);
