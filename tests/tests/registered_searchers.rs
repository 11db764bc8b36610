//! Every registered searcher, built by name through `tetris-registry`, against the placement
//! counts its crate documents for the empty board and against the BFS.
//!
//! The test iterates `tetris_registry::searchers()`, so a newly registered searcher is covered
//! without any change here. What each searcher must find on the empty 10 × 20 board:
//!
//! - `bfs`: every lock placement, 34 for T (and J, L), 17 for Z, S and I, 9 for O
//!   (`tests/tests/bfs_search.rs`, `lock_state_counts_on_the_empty_board`);
//! - `column-drop`: the same counts, since on the empty board every rotation and shift at the
//!   spawn row is legal and every column's only lock state rests on the floor (the crate
//!   documentation of `search-column-drop`, "Order and duplicates");
//! - `drop`: the same counts, every orientation at every column between the walls (the
//!   crate documentation of `search-drop`, worked out by hand in its `counts_on_the_empty_board`
//!   test);
//! - `gamepad`: its crate documents no count for its default timing (level 19, 30 Hz), only
//!   that at levels 19 and 29 it finds a subset of the BFS placements
//!   (`search-bfs/tests/gamepad.rs`), so that is what is asserted;
//! - any other (future) searcher: **its placements on the empty board must be a non-empty
//!   subset of the BFS's, each a lock placement** — whatever its reachability rule, it cannot
//!   find a placement the full search does not, and a piece on the empty board can always go
//!   somewhere.
//!
//! Every searcher, known or not, also keeps the `tetris_core::Searcher` contract: each
//! placement once, the same result on a second search, an empty result when the piece
//! cannot spawn (for a searcher whose paths start from the spawn state; `drop`'s pieces come
//! from above the field and have no spawn to check), and, on request, a path per placement
//! without changing the placements.

use std::collections::HashSet;

use tetris_core::{Board, Piece, PieceState, Placement, Placements, SearchOptions, Searcher};
use tetris_registry::{AnySearcher, searcher_by_name};
use tetris_search_bfs::Bfs;

/// Placement counts on the empty 10 × 20 board that a searcher's crate documents, per piece
/// in `Piece::ALL` order (T J Z O S L I). See the module documentation for the sources.
const DOCUMENTED_EMPTY_BOARD_COUNTS: &[(&str, [usize; 7])] = &[
    ("bfs", [34, 34, 17, 9, 17, 34, 17]),
    ("column-drop", [34, 34, 17, 9, 17, 34, 17]),
    ("drop", [34, 34, 17, 9, 17, 34, 17]),
];

/// The searcher `name` built through the registry (the name must be registered).
fn by_name(name: &str) -> AnySearcher {
    searcher_by_name(name)
        .unwrap_or_else(|| panic!("{name} is listed by the registry but not found by name"))
}

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

#[test]
fn the_shipped_searchers_are_registered() {
    // So the loops below cannot pass on an empty or shrunken registry; each name once.
    let names: Vec<&str> = tetris_registry::searchers()
        .iter()
        .map(|entry| entry.name)
        .collect();
    for shipped in ["bfs", "column-drop", "gamepad"] {
        assert!(names.contains(&shipped), "{shipped} is not registered");
    }
    for (index, name) in names.iter().enumerate() {
        assert!(!names[..index].contains(name), "{name} is registered twice");
    }
    assert!(searcher_by_name("no-such-searcher").is_none());
}

#[test]
fn every_registered_searcher_builds_by_name_as_listed() {
    for entry in tetris_registry::searchers() {
        let searcher = by_name(entry.name);
        assert_eq!(searcher.name(), entry.name);
        assert_eq!(
            searcher.frame_timing().is_some(),
            entry.gravity_aware,
            "{}: gravity_aware",
            entry.name
        );
        assert!(!entry.description.is_empty(), "{}: description", entry.name);
    }
    // The one searcher the workspace ships that simulates gravity.
    let gravity_aware: Vec<&str> = tetris_registry::searchers()
        .into_iter()
        .filter(|entry| entry.gravity_aware)
        .map(|entry| entry.name)
        .collect();
    assert!(gravity_aware.contains(&"gamepad"));
    assert!(!gravity_aware.contains(&"bfs") && !gravity_aware.contains(&"column-drop"));
}

#[test]
fn every_registered_searcher_finds_its_documented_placements_on_the_empty_board() {
    let empty = Board::standard();
    let mut bfs = Bfs::new();
    // The reference must be what this test says it is.
    assert_eq!(search(&mut bfs, &empty, Piece::T, false).len(), 34);
    for entry in tetris_registry::searchers() {
        let name = entry.name;
        let mut searcher = by_name(name);
        let documented = DOCUMENTED_EMPTY_BOARD_COUNTS
            .iter()
            .find(|(documented, _)| *documented == name)
            .map(|(_, counts)| counts);
        for (index, piece) in Piece::ALL.into_iter().enumerate() {
            let found = search(&mut searcher, &empty, piece, false);
            let everything: HashSet<Placement> = search(&mut bfs, &empty, piece, false)
                .iter()
                .copied()
                .collect();
            if let Some(counts) = documented {
                assert_eq!(found.len(), counts[index], "{name}, {piece}");
            }
            // Every searcher, documented or not: a non-empty subset of the BFS placements,
            // each a lock placement.
            assert!(!found.is_empty(), "{name}, {piece}: no placement");
            for placement in &found {
                assert!(
                    placement.is_lock_placement_on(&empty),
                    "{name}, {piece}: {placement:?} is not a lock placement"
                );
                assert!(
                    everything.contains(placement),
                    "{name}, {piece}: {placement:?} is not a BFS placement"
                );
            }
        }
    }
}

#[test]
fn every_registered_searcher_keeps_the_searcher_contract() {
    // The empty board, a grown mid-game board, and a board where no piece can spawn (every
    // spawn state covers (5, 0)).
    let mut blocked = Board::standard();
    blocked.set(5, 0);
    let boards = [
        Board::standard(),
        tetris_tests::grow_board(3, 30, 20),
        blocked,
    ];
    assert!(Piece::ALL.iter().all(|&piece| !blocked.can_spawn(piece)));
    for entry in tetris_registry::searchers() {
        let name = entry.name;
        let mut searcher = by_name(name);
        // Only a searcher that moves the piece from its spawn state has nothing to place when
        // that state is illegal (`Searcher::path_start`).
        let starts_at_spawn = searcher.path_start() == PieceState::SPAWN;
        for board in &boards {
            for piece in Piece::ALL {
                let found = search(&mut searcher, board, piece, false);
                if !board.can_spawn(piece) && starts_at_spawn {
                    assert!(
                        found.is_empty(),
                        "{name}, {piece}: found {found:?} on\n{board}"
                    );
                    continue;
                }
                let distinct: HashSet<Placement> = found.iter().copied().collect();
                assert_eq!(
                    distinct.len(),
                    found.len(),
                    "{name}, {piece}: a repeat on\n{board}"
                );
                let again = search(&mut searcher, board, piece, false);
                assert_eq!(
                    again.as_slice(),
                    found.as_slice(),
                    "{name}, {piece}: order on\n{board}"
                );
                let with_paths = search(&mut searcher, board, piece, true);
                assert_eq!(
                    with_paths.as_slice(),
                    found.as_slice(),
                    "{name}, {piece}: paths changed the placements on\n{board}"
                );
                assert!(with_paths.has_paths() && !found.has_paths());
                for index in 0..with_paths.len() {
                    assert!(
                        with_paths.path(index).is_some(),
                        "{name}, {piece}: no path for placement {index} on\n{board}"
                    );
                }
            }
        }
    }
}
