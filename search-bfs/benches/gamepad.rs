//! Criterion benches of the gamepad search at the NES plateau's timing (level 19: 2 frames per
//! row, 30 Hz tapping). In `gamepad_level_19_7_pieces` one iteration searches all 7 pieces,
//! so the time per search is the reported time divided by 7; `gamepad_level_19_per_piece`
//! times single searches per board and piece. `gamepad_level_19_article_7_pieces` is the first
//! group under the article's input model (one button on every other frame, no soft drop).
//! `gamepad_level_19_preview` times the search the lookahead chain makes for the preview
//! piece (once per placement of the current piece: nearly all of a NES game's work): the
//! unordered flood (`search_unordered`, what the chain calls since issue 31) beside the
//! ordered search it replaced there (`search`, the same placements in frame order), on the
//! mid-game board, all 7 pieces per iteration. `gamepad_13_5_hz_preview` times the same
//! unordered flood under the mixed timeline `X....X...X...` (13.5 Hz, its own copy of the
//! flood) at levels 18 (3 frames per row) and 19, all 7 pieces per iteration.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tetris_core::{Board, FrameTiming, InputModel, Piece, Placements, SearchOptions, Searcher};
use tetris_fixtures::MID_GAME;
use tetris_search_bfs::Gamepad;

fn search_all_pieces(
    gamepad: &mut Gamepad,
    board: &Board,
    options: SearchOptions,
    out: &mut Placements,
) {
    for piece in Piece::ALL {
        gamepad.search(black_box(board), piece, options, out);
        black_box(out.len());
    }
}

fn benches(criterion: &mut Criterion) {
    let boards = [
        ("empty", Board::standard()),
        ("mid-game", MID_GAME.parse::<Board>().expect("bench board")),
    ];
    let mut gamepad = Gamepad::with_timing(FrameTiming::LEVEL_19_30_HZ);
    let mut out = Placements::new();
    let mut group = criterion.benchmark_group("gamepad_level_19_7_pieces");
    for (name, board) in &boards {
        group.bench_function(*name, |bencher| {
            bencher
                .iter(|| search_all_pieces(&mut gamepad, board, SearchOptions::default(), &mut out))
        });
        group.bench_function(format!("{name} with paths"), |bencher| {
            bencher.iter(|| {
                search_all_pieces(&mut gamepad, board, SearchOptions::WITH_PATHS, &mut out)
            })
        });
    }
    group.finish();
    let mut article = Gamepad::with_timing(FrameTiming {
        inputs: InputModel::Article,
        ..FrameTiming::LEVEL_19_30_HZ
    });
    let mut group = criterion.benchmark_group("gamepad_level_19_article_7_pieces");
    for (name, board) in &boards {
        group.bench_function(*name, |bencher| {
            bencher
                .iter(|| search_all_pieces(&mut article, board, SearchOptions::default(), &mut out))
        });
        group.bench_function(format!("{name} with paths"), |bencher| {
            bencher.iter(|| {
                search_all_pieces(&mut article, board, SearchOptions::WITH_PATHS, &mut out)
            })
        });
    }
    group.finish();
    let mut group = criterion.benchmark_group("gamepad_level_19_preview");
    let mid_game = &boards[1].1;
    let preview = SearchOptions {
        frame_timing: Some(FrameTiming::LEVEL_19_30_HZ),
        ..SearchOptions::default()
    };
    group.bench_function("mid-game ordered (before)", |bencher| {
        bencher.iter(|| search_all_pieces(&mut gamepad, mid_game, preview, &mut out))
    });
    group.bench_function("mid-game unordered", |bencher| {
        bencher.iter(|| {
            for piece in Piece::ALL {
                gamepad.search_unordered(black_box(mid_game), piece, preview, &mut out);
                black_box(out.len());
            }
        })
    });
    group.finish();
    let mut group = criterion.benchmark_group("gamepad_13_5_hz_preview");
    for (level, frames_per_row) in [(18, 3), (19, 2)] {
        let mixed = FrameTiming {
            frames_per_row,
            timeline: "X....X...X...".parse().expect("a timeline"),
            inputs: InputModel::TwoThumb,
        };
        let options = SearchOptions {
            frame_timing: Some(mixed),
            ..SearchOptions::default()
        };
        let mut searcher = Gamepad::with_timing(mixed);
        for (name, board) in &boards {
            group.bench_function(format!("level {level} {name}"), |bencher| {
                bencher.iter(|| {
                    for piece in Piece::ALL {
                        searcher.search_unordered(black_box(board), piece, options, &mut out);
                        black_box(out.len());
                    }
                })
            });
        }
    }
    group.finish();
    let mut group = criterion.benchmark_group("gamepad_level_19_per_piece");
    for (name, board) in &boards {
        for piece in Piece::ALL {
            group.bench_function(format!("{name} {piece}"), |bencher| {
                bencher.iter(|| {
                    gamepad.search(black_box(board), piece, SearchOptions::default(), &mut out);
                    black_box(out.len())
                })
            });
        }
    }
    group.finish();
}

criterion_group!(gamepad_benches, benches);
criterion_main!(gamepad_benches);
