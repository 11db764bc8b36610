//! Snapshot tests of every evaluator's features on the board corpus in `tests/boards/`.
//!
//! "Every evaluator" is every evaluator registered in `tetris-registry`, in registration order,
//! built by name with its default weights: registering a new evaluator (one line in
//! `registry/src/engines.rs`) adds its block to every snapshot without any change here, and
//! the snapshot test then fails until the new blocks are reviewed and accepted.
//!
//! Each corpus board is a text file (H lines of 10 `#`/`.`, top first). H is 20 unless the
//! name carries a `-<N>rows-` part (`short-10rows-mid-game` has 10 rows). For every board, one
//! insta snapshot shows the board and, grouped by evaluator, every feature of the board on its
//! own (a chain with no placement record), then the cost and chain rule. A fixed list of
//! placements on corpus boards is snapshot the same way with the one-record chain the lock
//! gives, after checking the record's values against numbers worked out by hand.
//!
//! Numbers are printed with Rust's shortest round-trip `f64` formatting, so a snapshot pins
//! every bit. The snapshots were reviewed by hand against docs/spec/evaluators.md; when an evaluator
//! changes on purpose, regenerate with `INSTA_UPDATE=always` and review the diff again.
//!
//! The `grown-seed<S>-<P>pieces` boards come from `tetris_tests::grow_board(S, P, 20)`; the
//! ignored test `write_grown_boards` wrote them and `grown_boards_match_their_seeds` checks
//! that the files still are what the generator gives.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use tetris_core::{Board, Chain, Evaluator, Piece, PieceState, Placement, PlacementRecord};
use tetris_registry::{AnyEvaluator, WeightsChoice, evaluator_by_name};
use tetris_tests::grow_board;

/// Asserts a snapshot named `feature_snapshots__{name}`: the file names these tests had as a
/// test binary of their own, kept now that they are a module of the crate's one test binary
/// (insta would otherwise prefix the module path, `integration__feature_snapshots__`).
fn assert_feature_snapshot(name: &str, text: &str) {
    insta::with_settings!({ prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!(format!("feature_snapshots__{name}"), text);
    });
}

/// The corpus folder, next to this crate's `Cargo.toml`.
fn boards_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("boards")
}

/// The seeded random-play boards of the corpus: `(seed, placements)` for
/// `grow_board(seed, placements, 20)`, saved as `grown-seed<seed>-<placements>pieces.txt`.
/// Small piece counts keep some of them low: random play piles up fast.
const GROWN_BOARDS: [(u64, usize); 8] = [
    (1, 6),
    (2, 8),
    (3, 10),
    (4, 12),
    (5, 14),
    (6, 16),
    (7, 20),
    (8, 30),
];

fn grown_board_name(seed: u64, placements: usize) -> String {
    format!("grown-seed{seed}-{placements}pieces")
}

/// One board of the corpus.
struct CorpusBoard {
    /// The file name without `.txt`.
    name: String,
    board: Board,
}

/// The height a corpus board must have, from its name: N for a `-<N>rows-` (or leading
/// `<N>rows-`) part, 20 otherwise.
fn height_from_name(name: &str) -> usize {
    name.split('-')
        .find_map(|part| part.strip_suffix("rows")?.parse().ok())
        .unwrap_or(20)
}

/// Every `*.txt` board of the corpus, in sorted file-name order (directory order is not
/// stable across file systems), each checked against the height its name gives.
fn corpus() -> Vec<CorpusBoard> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(boards_dir())
        .expect("tests/boards exists")
        .map(|entry| entry.expect("readable directory entry").path())
        .filter(|path| path.extension().is_some_and(|extension| extension == "txt"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let name = path
                .file_stem()
                .and_then(|stem| stem.to_str())
                .expect("UTF-8 board file name")
                .to_string();
            let text = std::fs::read_to_string(&path).expect("readable board file");
            let board = Board::parse_with_height(&text, height_from_name(&name))
                .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
            CorpusBoard { name, board }
        })
        .collect()
}

/// The corpus board called `name`.
fn corpus_board(name: &str) -> Board {
    let path = boards_dir().join(format!("{name}.txt"));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    Board::parse_with_height(&text, height_from_name(name))
        .unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

/// Every registered evaluator with its default weights, in registration order (the order the
/// snapshots list them), built by name through the registry.
fn evaluators() -> Vec<AnyEvaluator> {
    tetris_registry::evaluators()
        .into_iter()
        .map(|entry| {
            evaluator_by_name(entry.name, &WeightsChoice::Default)
                .unwrap_or_else(|| panic!("{} is listed but not found by name", entry.name))
                .unwrap_or_else(|error| panic!("{}: default weights: {error}", entry.name))
        })
        .collect()
}

/// The board as text with row numbers and a column ruler; cells listed in `marks` (the piece
/// just placed) are drawn `@` instead of `#`.
fn board_picture(board: &Board, marks: &[(i8, i8)]) -> String {
    let mut text = String::from("      0123456789\n");
    for y in 0..board.height() as usize {
        let row: String = (0..10)
            .map(|x| {
                if marks.contains(&(x as i8, y as i8)) {
                    '@'
                } else if board.is_occupied(x, y) {
                    '#'
                } else {
                    '.'
                }
            })
            .collect();
        writeln!(text, "  {y:>2}  {row}").unwrap();
    }
    text
}

/// Every evaluator's features of `chain`, one aligned row per feature grouped under the
/// evaluator's name, then its cost and chain rule. Values use `{}` on `f64`: the shortest
/// text that reads back to the same bits.
fn feature_table(chain: Chain<'_>) -> String {
    let evaluators = evaluators();
    let width = evaluators
        .iter()
        .flat_map(|evaluator| evaluator.feature_names())
        .map(|name| name.len())
        .chain(["(chain_rule)".len()])
        .max()
        .unwrap();
    let mut text = String::new();
    for evaluator in &evaluators {
        let names = evaluator.feature_names();
        let mut values = vec![f64::NAN; names.len()];
        evaluator.features(chain, &mut values);
        writeln!(text, "[{}]", evaluator.name()).unwrap();
        for (name, value) in names.iter().zip(&values) {
            writeln!(text, "  {name:<width$}  {value}").unwrap();
        }
        writeln!(text, "  {:<width$}  {}", "(cost)", evaluator.cost(chain)).unwrap();
        writeln!(
            text,
            "  {:<width$}  {:?}",
            "(chain_rule)",
            evaluator.chain_rule(chain)
        )
        .unwrap();
    }
    text
}

#[test]
fn corpus_boards_are_well_formed() {
    let corpus = corpus();
    assert!(corpus.len() >= 40, "only {} corpus boards", corpus.len());
    let mut seen = HashSet::new();
    for CorpusBoard { name, board } in &corpus {
        // A full row never survives a lock, so no reachable board has one.
        assert_eq!(board.full_rows(), 0, "{name} has a full row");
        assert!(seen.insert(*board), "{name} repeats another corpus board");
    }
    assert_eq!(height_from_name("short-10rows-mid-game"), 10);
    assert_eq!(height_from_name("tall-32rows-mid-game"), 32);
    assert_eq!(height_from_name("flat-three-rows-gap-right"), 20);
    assert_eq!(height_from_name("staircase-two-rows-per-step"), 20);
}

#[test]
fn grown_boards_match_their_seeds() {
    let expected: HashSet<String> = GROWN_BOARDS
        .iter()
        .map(|&(seed, placements)| grown_board_name(seed, placements))
        .collect();
    let found: HashSet<String> = corpus()
        .into_iter()
        .map(|corpus_board| corpus_board.name)
        .filter(|name| name.starts_with("grown-"))
        .collect();
    assert_eq!(found, expected);
    for (seed, placements) in GROWN_BOARDS {
        let name = grown_board_name(seed, placements);
        assert_eq!(
            corpus_board(&name),
            grow_board(seed, placements, 20),
            "{name}"
        );
    }
}

/// Writes the `grown-*` corpus boards from their seeds. Run once by hand
/// (`cargo test -p tetris-tests --test integration -- --ignored write_grown_boards`);
/// the files are committed.
#[test]
#[ignore = "writes tests/boards/grown-*.txt; run by hand when the list changes"]
fn write_grown_boards() {
    for (seed, placements) in GROWN_BOARDS {
        let board = grow_board(seed, placements, 20);
        let path = boards_dir().join(format!("{}.txt", grown_board_name(seed, placements)));
        std::fs::write(&path, board.to_string()).expect("writable tests/boards");
    }
}

#[test]
fn board_features() {
    for CorpusBoard { name, board } in corpus() {
        let chain = Chain {
            board: &board,
            records: &[],
        };
        let mut text = format!("board {name}, 10 x {}\n", board.height());
        text.push_str(&board_picture(&board, &[]));
        text.push('\n');
        text.push_str(&feature_table(chain));
        assert_feature_snapshot(&format!("board__{name}"), &text);
    }
}

/// A placement on a corpus board, with the record values worked out by hand.
struct PlacementCase {
    /// Snapshot name.
    name: &'static str,
    /// Corpus board it is played on.
    board: &'static str,
    piece: Piece,
    state: PieceState,
    /// Hand-worked `PlacementRecord::lock_height`.
    lock_height: u8,
    /// Hand-worked `PlacementRecord::landing_height()`.
    landing_height: f64,
    /// Hand-worked rows cleared.
    rows_cleared: u8,
    /// Hand-worked `eroded_piece_cells()` (rows cleared × own cells in them).
    eroded_piece_cells: u32,
    /// Hand-worked cells above row 0 (not stored).
    cells_above_top: u8,
}

const fn at(x: i8, y: i8, rotation: u8) -> PieceState {
    PieceState { x, y, rotation }
}

/// The placement cases. Landing height = (H − 1 − lowest cell row) + (cell rows − 1) / 2;
/// lock height = the orientation's lowest legal pivot row on an empty board − pivot row.
const PLACEMENT_CASES: &[PlacementCase] = &[
    // I flat, cells (3..6, 19): on the floor.
    PlacementCase {
        name: "flat-i-on-empty-floor",
        board: "empty",
        piece: Piece::I,
        state: at(5, 19, 0),
        lock_height: 0,
        landing_height: 0.0,
        rows_cleared: 0,
        eroded_piece_cells: 0,
        cells_above_top: 0,
    },
    // O, cells (0..1, 18..19): lowest row 19 → 0 + (2 − 1) / 2.
    PlacementCase {
        name: "o-on-empty-floor",
        board: "empty",
        piece: Piece::O,
        state: at(1, 18, 0),
        lock_height: 0,
        landing_height: 0.5,
        rows_cleared: 0,
        eroded_piece_cells: 0,
        cells_above_top: 0,
    },
    // I vertical, cells (0, 16..19): 0 + (4 − 1) / 2.
    PlacementCase {
        name: "vertical-i-on-empty-floor",
        board: "empty",
        piece: Piece::I,
        state: at(0, 18, 1),
        lock_height: 0,
        landing_height: 1.5,
        rows_cleared: 0,
        eroded_piece_cells: 0,
        cells_above_top: 0,
    },
    // I vertical into the 4-deep left well, cells (0, 16..19): rows 16..19 all full → a
    // Tetris, the board ends empty; 4 rows × 4 own cells.
    PlacementCase {
        name: "vertical-i-tetris-left-well",
        board: "well-left-open-4deep",
        piece: Piece::I,
        state: at(0, 18, 1),
        lock_height: 0,
        landing_height: 1.5,
        rows_cleared: 4,
        eroded_piece_cells: 16,
        cells_above_top: 0,
    },
    // I vertical into the right well, cells (9, 16..19): the four `#########.` rows clear,
    // the bumpy rows 13..15 fall to rows 17..19.
    PlacementCase {
        name: "vertical-i-tetris-right-well-bumpy",
        board: "well-right-open-4deep-bumpy",
        piece: Piece::I,
        state: at(9, 18, 1),
        lock_height: 0,
        landing_height: 1.5,
        rows_cleared: 4,
        eroded_piece_cells: 16,
        cells_above_top: 0,
    },
    // T pointing down, cells (3, 18) (4, 18) (5, 18) (4, 19): fills the slot, both rows clear
    // with all 4 own cells in them; lowest row 19 → 0 + (2 − 1) / 2.
    PlacementCase {
        name: "t-into-slot-clears-two",
        board: "t-slot-two-rows",
        piece: Piece::T,
        state: at(4, 18, 0),
        lock_height: 0,
        landing_height: 0.5,
        rows_cleared: 2,
        eroded_piece_cells: 8,
        cells_above_top: 0,
    },
    // I vertical on the column-0 tower (rows 1..19), cells (0, −3..0): three cells above row
    // 0 are lost. Lowest pivot row of a vertical I on 20 rows is 18 → lock height 18 − (−1);
    // lowest cell row 0 → (19 − 0) + (4 − 1) / 2.
    PlacementCase {
        name: "vertical-i-above-row-0-on-tower",
        board: "tower-near-ceiling-col0",
        piece: Piece::I,
        state: at(0, -1, 1),
        lock_height: 19,
        landing_height: 20.5,
        rows_cleared: 0,
        eroded_piece_cells: 0,
        cells_above_top: 3,
    },
    // Z vertical, cells (5, 13) (4, 14) (5, 14) (4, 15), on the step of columns 4 (top 16)
    // and 5 (top 15). Lowest pivot row of Z rot 1 is 18 → 18 − 14; lowest cell row 15 →
    // (19 − 15) + (3 − 1) / 2.
    PlacementCase {
        name: "z-vertical-on-rising-staircase",
        board: "staircase-rising-right",
        piece: Piece::Z,
        state: at(4, 14, 1),
        lock_height: 4,
        landing_height: 5.0,
        rows_cleared: 0,
        eroded_piece_cells: 0,
        cells_above_top: 0,
    },
    // S vertical, cells (4, 13) (4, 14) (5, 14) (5, 15), the mirror image on the falling
    // staircase: same lock and landing heights.
    PlacementCase {
        name: "s-vertical-on-falling-staircase",
        board: "staircase-falling-right",
        piece: Piece::S,
        state: at(4, 14, 1),
        lock_height: 4,
        landing_height: 5.0,
        rows_cleared: 0,
        eroded_piece_cells: 0,
        cells_above_top: 0,
    },
    // I flat tucked under the overhang of row 16, cells (2..5, 17), resting on (2, 18):
    // lowest pivot row 19 → 19 − 17; lowest cell row 17 → 2 + 0.
    PlacementCase {
        name: "flat-i-tucked-under-overhang",
        board: "overhang-tuck-slot",
        piece: Piece::I,
        state: at(4, 17, 0),
        lock_height: 2,
        landing_height: 2.0,
        rows_cleared: 0,
        eroded_piece_cells: 0,
        cells_above_top: 0,
    },
    // I vertical into the open gap of row 16, cells (4, 13..16), resting on (4, 17): row 16
    // clears with one own cell. 18 − 15 = 3; lowest cell row 16 → 3 + 1.5.
    PlacementCase {
        name: "vertical-i-clears-one-row-over-holes",
        board: "near-full-rows-mixed-gaps",
        piece: Piece::I,
        state: at(4, 15, 1),
        lock_height: 3,
        landing_height: 4.5,
        rows_cleared: 1,
        eroded_piece_cells: 1,
        cells_above_top: 0,
    },
    // O over the right well, cells (8..9, 15..16), resting on column 8 (top 17): covers
    // column 9's three empty cells. 18 − 15 = 3; lowest cell row 16 → 3 + 0.5.
    PlacementCase {
        name: "o-covers-right-well",
        board: "flat-three-rows-gap-right",
        piece: Piece::O,
        state: at(9, 15, 0),
        lock_height: 3,
        landing_height: 3.5,
        rows_cleared: 0,
        eroded_piece_cells: 0,
        cells_above_top: 0,
    },
    // O on the 4-row board, cells (2..3, 1..2), resting on (2, 3): row 2 becomes
    // `########.#`, not full. Lowest pivot row of O on 4 rows is 2 → 2 − 1; lowest cell row 2
    // → (3 − 2) + 0.5.
    PlacementCase {
        name: "o-on-short-4rows-board",
        board: "short-4rows-two-rows",
        piece: Piece::O,
        state: at(3, 1, 0),
        lock_height: 1,
        landing_height: 1.5,
        rows_cleared: 0,
        eroded_piece_cells: 0,
        cells_above_top: 0,
    },
    // L rot 3, cells (1, 4) (1, 5) (1, 6) (2, 6) on the 10-row board, resting on (1, 7);
    // covers (2, 7). Lowest pivot row of L rot 3 on 10 rows is 8 → 8 − 5; lowest cell row 6
    // → (9 − 6) + (3 − 1) / 2.
    PlacementCase {
        name: "l-on-short-10rows-makes-a-hole",
        board: "short-10rows-mid-game",
        piece: Piece::L,
        state: at(1, 5, 3),
        lock_height: 3,
        landing_height: 4.0,
        rows_cleared: 0,
        eroded_piece_cells: 0,
        cells_above_top: 0,
    },
    // I vertical into column 2 of the 32-row board, cells (2, 26..29), resting on (2, 30).
    // Lowest pivot row 30 → 30 − 28; lowest cell row 29 → (31 − 29) + 1.5.
    PlacementCase {
        name: "vertical-i-on-tall-32rows",
        board: "tall-32rows-mid-game",
        piece: Piece::I,
        state: at(2, 28, 1),
        lock_height: 2,
        landing_height: 3.5,
        rows_cleared: 0,
        eroded_piece_cells: 0,
        cells_above_top: 0,
    },
    // J flat (rot 0), cells (1, 17) (2, 17) (3, 17) (3, 18): the hook drops into the comb
    // gap (3, 18) and the bar rests on (2, 18), covering the gap (1, 18). Lowest pivot row
    // of J rot 0 is 18 → 18 − 17; lowest cell row 18 → (19 − 18) + (2 − 1) / 2.
    PlacementCase {
        name: "j-hook-into-sawtooth-comb",
        board: "sawtooth-alternating",
        piece: Piece::J,
        state: at(2, 17, 0),
        lock_height: 1,
        landing_height: 1.5,
        rows_cleared: 0,
        eroded_piece_cells: 0,
        cells_above_top: 0,
    },
];

/// Insta never deletes a snapshot whose board or placement was removed; this keeps the
/// snapshot folder equal to what the two snapshot tests write, so no stale file is reviewed.
#[test]
fn every_snapshot_file_belongs_to_a_board_or_a_placement() {
    let mut expected: HashSet<String> = corpus()
        .into_iter()
        .map(|corpus_board| format!("feature_snapshots__board__{}.snap", corpus_board.name))
        .collect();
    expected.extend(
        PLACEMENT_CASES
            .iter()
            .map(|case| format!("feature_snapshots__placement__{}.snap", case.name)),
    );
    let snapshots_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots");
    let orphans: Vec<String> = std::fs::read_dir(snapshots_dir)
        .expect("tests/tests/snapshots exists")
        .map(|entry| entry.expect("readable directory entry").file_name())
        .filter_map(|name| name.into_string().ok())
        .filter(|name| name.starts_with("feature_snapshots__") && name.ends_with(".snap"))
        .filter(|name| !expected.contains(name))
        .collect();
    assert!(orphans.is_empty(), "stale snapshots: {orphans:?}");
}

#[test]
fn placement_features() {
    assert!(PLACEMENT_CASES.len() >= 10);
    for case in PLACEMENT_CASES {
        let name = case.name;
        let before = corpus_board(case.board);
        let placement = Placement::new(case.piece, case.state);
        assert!(
            placement.is_lock_placement_on(&before),
            "{name}: not a lock placement"
        );
        let mut after = before;
        let record = PlacementRecord::lock(&mut after, placement);
        assert_eq!(record.lock_height, case.lock_height, "{name}: lock height");
        assert_eq!(
            record.landing_height(),
            case.landing_height,
            "{name}: landing height"
        );
        assert_eq!(
            record.rows_cleared(),
            case.rows_cleared,
            "{name}: rows cleared"
        );
        assert_eq!(
            record.eroded_piece_cells(),
            case.eroded_piece_cells,
            "{name}: eroded piece cells"
        );
        assert_eq!(
            record.lock.cells_above_top, case.cells_above_top,
            "{name}: cells above row 0"
        );

        let mut text = format!(
            "placement {name}: {} rotation {} at pivot ({}, {}) on {}, 10 x {}\n",
            case.piece,
            case.state.rotation,
            case.state.x,
            case.state.y,
            case.board,
            before.height()
        );
        writeln!(text, "cells {:?}", placement.cells).unwrap();
        text.push_str("\nbefore the lock (@ = the piece)\n");
        text.push_str(&board_picture(&before, &placement.cells));
        text.push_str("\nafter the lock and clears\n");
        text.push_str(&board_picture(&after, &[]));
        text.push_str("\nrecord\n");
        let record_rows = [
            ("lock_height", record.lock_height.to_string()),
            ("landing_height", record.landing_height().to_string()),
            ("rows_cleared", record.rows_cleared().to_string()),
            ("cleared_rows", format!("{:#b}", record.lock.cleared_rows)),
            (
                "piece_cells_cleared",
                record.lock.piece_cells_cleared.to_string(),
            ),
            (
                "eroded_piece_cells",
                record.eroded_piece_cells().to_string(),
            ),
            ("cells_above_top", record.lock.cells_above_top.to_string()),
            ("lowest_cell_row", record.lowest_cell_row.to_string()),
            ("highest_cell_row", record.highest_cell_row.to_string()),
        ];
        for (label, value) in record_rows {
            writeln!(text, "  {label:<20}  {value}").unwrap();
        }
        text.push('\n');
        let records = [record];
        text.push_str(&feature_table(Chain {
            board: &after,
            records: &records,
        }));
        assert_feature_snapshot(&format!("placement__{name}"), &text);
    }
}
