//! Properties of the `drop` searcher on many seeded random boards: its landing rows agree with
//! a naive row-by-row drop, it lists every (orientation, column) between the walls exactly
//! once in El-Tetris's order, its paths replay from `DROP_START`, and on boards without
//! overhangs every placement is one the full BFS finds too.

use std::collections::HashSet;

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use tetris_core::{
    Board, Input, Piece, PieceState, Placement, Placements, SearchOptions, Searcher,
};
use tetris_search_bfs::Bfs;
use tetris_search_drop::{DROP_START, DropFromAbove};

fn search(
    searcher: &mut impl Searcher,
    board: &Board,
    piece: Piece,
    with_paths: bool,
) -> Placements {
    let mut out = Placements::new();
    searcher.search(
        board,
        piece,
        SearchOptions {
            with_paths,
            ..SearchOptions::default()
        },
        &mut out,
    );
    out
}

/// El-Tetris's orientation order from docs/spec/search.md §2b, written out again here (not read from
/// the crate): I 1, 0; T 3, 2, 1, 0; O 0; J 2, 1, 0, 3; L 0, 3, 2, 1; S 1, 0; Z 1, 0.
fn el_tetris_order(piece: Piece) -> &'static [u8] {
    match piece {
        Piece::I => &[1, 0],
        Piece::T => &[3, 2, 1, 0],
        Piece::O => &[0],
        Piece::J => &[2, 1, 0, 3],
        Piece::L => &[0, 3, 2, 1],
        Piece::S => &[1, 0],
        Piece::Z => &[1, 0],
    }
}

/// Whether the orientation's cells at pivot column `x` lie between the walls.
fn inside_walls(piece: Piece, rotation: u8, x: i8) -> bool {
    piece
        .cells(rotation)
        .iter()
        .all(|&(dx, _)| (0..10).contains(&(x + dx)))
}

/// A seeded random board: height 4..=32 and one of four cell patterns (uniform, sparse,
/// dense, and stacked columns with a few gaps); any row may be occupied, row 0 included, so
/// pieces often land partly above the field.
fn random_board(rng: &mut Pcg64) -> Board {
    let height = 4 + (rng.next_u32() % 29) as usize;
    let mut board = Board::new(height).unwrap();
    let pattern = rng.next_u32() % 4;
    for x in 0..10 {
        let column = match pattern {
            0 => rng.next_u32(),
            1 => rng.next_u32() & rng.next_u32() & rng.next_u32(),
            2 => rng.next_u32() | rng.next_u32(),
            _ => {
                let column_height = rng.next_u32() % (height as u32 + 1);
                let filled = if column_height == 0 {
                    0
                } else {
                    !0u32 << (32 - column_height) >> (32 - height as u32)
                };
                filled & !(rng.next_u32() & rng.next_u32() & rng.next_u32())
            }
        } & board.row_mask();
        for y in 0..height {
            if column >> y & 1 != 0 {
                board.set(x, y);
            }
        }
    }
    board
}

#[test]
fn landing_matches_a_naive_drop_and_every_column_comes_once_in_order() {
    let mut rng = Pcg64::seed_from_u64(0xD20F_0001);
    let mut searcher = DropFromAbove::new();
    let mut above_the_field = 0;
    for _ in 0..3000 {
        let board = random_board(&mut rng);
        for piece in Piece::ALL {
            let found = search(&mut searcher, &board, piece, false);
            // The order: El-Tetris's orientations, each with every pivot column between the
            // walls ascending, each (rotation, x) once.
            let mut expected_order = Vec::new();
            for &rotation in el_tetris_order(piece) {
                for x in -3..13 {
                    if inside_walls(piece, rotation, x) {
                        expected_order.push((rotation, x));
                    }
                }
            }
            let order: Vec<(u8, i8)> = found.iter().map(|p| (p.rotation, p.x)).collect();
            assert_eq!(order, expected_order, "{piece} on\n{board}");
            for placement in &found {
                // A naive drop from high above the field (every dy is at most 1, so at row
                // −4 every cell is on row −3 or above): one row down while it fits.
                let mut state = PieceState {
                    y: -4,
                    ..placement.state()
                };
                assert!(board.fits(piece, state));
                while board.fits(piece, state.one_row_down()) {
                    state.y += 1;
                }
                assert_eq!(state, placement.state(), "{piece} on\n{board}");
                assert_eq!(*placement, Placement::new(piece, state));
                assert!(placement.is_lock_placement_on(&board));
                above_the_field += usize::from(placement.cells.iter().any(|&(_, y)| y < 0));
            }
        }
    }
    assert!(
        above_the_field > 1000,
        "the boards exercise landings above the field"
    );
}

#[test]
fn paths_replay_from_the_drop_start_and_end_on_their_placement() {
    let mut rng = Pcg64::seed_from_u64(0xD20F_0002);
    let mut searcher = DropFromAbove::new();
    assert_eq!(searcher.path_start(), DROP_START);
    for _ in 0..1000 {
        let board = random_board(&mut rng);
        for piece in Piece::ALL {
            let with = search(&mut searcher, &board, piece, true);
            let without = search(&mut searcher, &board, piece, false);
            assert!(with.has_paths() && !without.has_paths());
            assert_eq!(with.as_slice(), without.as_slice(), "paths change nothing");
            for (index, placement) in with.iter().enumerate() {
                let path = with.path(index).unwrap();
                let mut state = searcher.path_start();
                assert!(board.fits(piece, state));
                for &input in path {
                    state = state.after(piece, input).unwrap();
                    assert!(
                        board.fits(piece, state),
                        "{piece} {placement:?}: illegal {input:?} to {state} on\n{board}"
                    );
                }
                assert_eq!(state, placement.state(), "{piece} on\n{board}");
                // Rotations, then shifts (one direction), then drops: the fewest inputs.
                let shifts = path
                    .iter()
                    .filter(|input| matches!(input, Input::Left | Input::Right))
                    .count();
                let downs = path.iter().filter(|&&input| input == Input::Down).count();
                assert_eq!(shifts, placement.x.abs_diff(DROP_START.x) as usize);
                assert_eq!(downs, (placement.y - DROP_START.y) as usize);
                assert!(path.len() - shifts - downs <= 2);
            }
        }
    }
}

#[test]
fn on_boards_without_overhangs_every_drop_placement_is_a_bfs_placement() {
    // Columns filled solid from the floor to random heights, the top 4 rows left empty, so
    // every piece spawns (spawn cells lie on rows 0 and 1) and nothing hangs over a hole.
    let mut rng = Pcg64::seed_from_u64(0xD20F_0003);
    let mut drop = DropFromAbove::new();
    let mut bfs = Bfs::new();
    let mut compared = 0;
    for _ in 0..1000 {
        let height = 4 + rng.next_u32() % 29;
        let mut board = Board::new(height as usize).unwrap();
        for x in 0..10 {
            let column_height = rng.next_u32() % (height - 4 + 1);
            for y in height - column_height..height {
                board.set(x, y as usize);
            }
        }
        for piece in Piece::ALL {
            assert!(board.can_spawn(piece));
            let everything: HashSet<Placement> = search(&mut bfs, &board, piece, false)
                .iter()
                .copied()
                .collect();
            // The BFS never moves a pivot above row 0, so only pivots at row 0 or below can
            // be compared (with the top 4 rows empty every landing is on row 2 or below).
            for placement in search(&mut drop, &board, piece, false)
                .iter()
                .filter(|placement| placement.y >= 0)
            {
                assert!(
                    everything.contains(placement),
                    "{piece} {placement:?} is not a BFS placement on\n{board}"
                );
                compared += 1;
            }
        }
    }
    // 1000 boards × (3 × 34 + 3 × 17 + 9) placements.
    assert_eq!(compared, 1000 * (3 * 34 + 3 * 17 + 9));
}

#[test]
fn a_drop_lands_on_an_overhang_where_the_bfs_tucks_under_it() {
    // tetris_fixtures::RIGHT_SHELF: row 19 "###......." (free from x = 3 to 9), row 18
    // ".......###" (a shelf over columns 7..9). The flat I (cells x−2..x+1 on its pivot
    // row) at x = 8 covers columns 6..9; dropped from above it stops on the shelf: column
    // tops 20, 18, 18, 18, so row min(19, 17, 17, 17) = 17. The BFS slides it along row 19
    // from x = 5 (cells 3..6, free down to the floor) under the shelf to x = 8, row 19.
    let board: Board = tetris_fixtures::RIGHT_SHELF.parse().unwrap();
    let on_the_shelf = Placement::new(
        Piece::I,
        PieceState {
            x: 8,
            y: 17,
            rotation: 0,
        },
    );
    let tucked = Placement::new(
        Piece::I,
        PieceState {
            x: 8,
            y: 19,
            rotation: 0,
        },
    );
    let drop = search(&mut DropFromAbove::new(), &board, Piece::I, false);
    let bfs = search(&mut Bfs::new(), &board, Piece::I, false);
    assert!(drop.iter().any(|p| *p == on_the_shelf));
    assert!(!drop.iter().any(|p| *p == tucked));
    assert!(bfs.iter().any(|p| *p == tucked));
    assert!(tucked.is_lock_placement_on(&board));
    // Drop has one placement per (rotation, x): the shelf one is its only flat I at x = 8.
    assert_eq!(
        drop.iter().filter(|p| p.rotation == 0 && p.x == 8).count(),
        1
    );
}
