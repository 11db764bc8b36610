//! The full BFS searcher on hand-checked boards: the canonical order on the empty board, the
//! number of lock placements per piece, a tuck under an overhang and a spin into a cavity.

use tetris_core::{
    Board, Input, Piece, PieceState, Placement, Placements, SearchOptions, Searcher,
};
use tetris_fixtures::{RIGHT_SHELF, T_SLOT};
use tetris_search_bfs::Bfs;

/// Parses a board drawn as text, top row first.
fn board(text: &str) -> Board {
    text.parse().expect("test board")
}

/// Searches with paths and returns the filled buffer.
fn search(board: &Board, piece: Piece) -> Placements {
    let mut out = Placements::new();
    Bfs::new().search(board, piece, SearchOptions::WITH_PATHS, &mut out);
    out
}

fn state(x: i8, y: i8, rotation: u8) -> PieceState {
    PieceState { x, y, rotation }
}

#[test]
fn j_lock_states_start_in_the_canonical_order_on_the_empty_board() {
    // docs/spec/search.md: (5,18,0), (5,18,3), (5,18,1), (4,18,0), (6,18,0). Straight down is 18 moves
    // (distance 18); the other four are distance 19, in the order of their first move:
    // counterclockwise, clockwise, left, right.
    let found = search(&Board::standard(), Piece::J);
    let first: Vec<PieceState> = found.iter().take(5).map(Placement::state).collect();
    assert_eq!(
        first,
        [
            state(5, 18, 0),
            state(5, 18, 3),
            state(5, 18, 1),
            state(4, 18, 0),
            state(6, 18, 0)
        ]
    );
    assert_eq!(found.path(0), Some(&[Input::Down; 18][..]));
    let mut counterclockwise_first = vec![Input::RotateCounterclockwise];
    counterclockwise_first.extend([Input::Down; 18]);
    assert_eq!(found.path(1), Some(&counterclockwise_first[..]));
}

#[test]
fn lock_state_counts_on_the_empty_board() {
    // On an empty board every orientation reaches every column inside the walls (all turns
    // and shifts are legal at the spawn row), and the only lock state of a (column,
    // orientation) is the one resting on the floor. So the count is the sum over orientations
    // of the pivot columns that keep a piece of width w inside 10 columns: 11 − w.
    // T, J, L: widths 3, 2, 3, 2 → 8 + 9 + 8 + 9 = 34.
    // Z, S: flat width 3 → 8, upright width 2 → 9: 17.
    // O: width 2 → 9.
    // I: flat width 4 → 7, vertical width 1 → 10: 17.
    let expected = [
        (Piece::T, 34),
        (Piece::J, 34),
        (Piece::Z, 17),
        (Piece::O, 9),
        (Piece::S, 17),
        (Piece::L, 34),
        (Piece::I, 17),
    ];
    for height in [20, 4] {
        let empty = Board::new(height).unwrap();
        for (piece, count) in expected {
            let found = search(&empty, piece);
            assert_eq!(found.len(), count, "{piece}, height {height}");
            // Each rests on the floor: its lowest cell is on the bottom row.
            for placement in &found {
                let lowest = placement.cells.iter().map(|cell| cell.1).max().unwrap();
                assert_eq!(lowest, height as i8 - 1, "{placement:?}");
            }
        }
    }
}

#[test]
fn an_i_piece_tucks_under_the_right_shelf() {
    let shelf = board(RIGHT_SHELF);
    let found = search(&shelf, Piece::I);
    let tucked = Placement::new(Piece::I, state(8, 19, 0));
    assert_eq!(tucked.cells, [(6, 19), (7, 19), (8, 19), (9, 19)]);
    let index = found
        .iter()
        .position(|placement| *placement == tucked)
        .expect("the tuck under the shelf is found");
    // A straight drop at pivot column 8 stops on row 17, on the shelf.
    assert_eq!(shelf.drop_row(Piece::I, state(8, 0, 0)), 17);
    // The path reaches the floor row first and slides right under the shelf at the end.
    let path = found.path(index).unwrap();
    assert!(
        path.ends_with(&[Input::Right, Input::Right, Input::Right]),
        "{path:?}"
    );
}

#[test]
fn a_t_piece_spins_into_the_slot() {
    let slot = board(T_SLOT);
    let found = search(&slot, Piece::T);
    let spun = Placement::new(Piece::T, state(3, 18, 0));
    assert_eq!(spun.cells, [(2, 18), (3, 18), (4, 18), (3, 19)]);
    // Reachable only by a turn at the end: from above, (3, 17, 0) would cover the overhang
    // (2, 17); from the left, (2, 18, 0) would cover (1, 18); from the right, (4, 18, 0) would
    // cover (5, 18). The upright T (3, 18, 3) drops straight in (column 3 and (4, 17) are
    // free) and one clockwise turn brings it into the slot.
    for neighbour in [state(3, 17, 0), state(2, 18, 0), state(4, 18, 0)] {
        assert!(!slot.fits(Piece::T, neighbour));
    }
    let index = found
        .iter()
        .position(|placement| *placement == spun)
        .expect("the spin into the slot is found");
    let path = found.path(index).unwrap();
    assert_eq!(path.last(), Some(&Input::RotateClockwise), "{path:?}");
    let mut at = PieceState::SPAWN;
    for &input in &path[..path.len() - 1] {
        at = at.after(Piece::T, input).unwrap();
    }
    assert_eq!(at, state(3, 18, 3));
}

#[test]
fn a_piece_that_cannot_spawn_has_no_placement() {
    // Every spawn orientation except S covers cell (4, 0) (docs/spec/rules.md: T (4,0) (5,0) (6,0)
    // (5,1), I (3,0)..(6,0), O (4,0) (5,0) (4,1) (5,1), and J, Z, L also start at (4,0)); S
    // covers (5,0) (6,0) (4,1) (5,1). Blocking (4, 0) stops all but S.
    let mut blocked = Board::standard();
    blocked.set(4, 0);
    for piece in Piece::ALL {
        let found = search(&blocked, piece);
        assert_eq!(found.is_empty(), piece != Piece::S, "{piece}");
    }
}
