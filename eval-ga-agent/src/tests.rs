use tetris_core::{Board, Piece, PieceState, Placement, PlacementRecord};

use super::*;

/// A board `height` rows tall whose bottom rows are `bottom` (top first), empty above.
fn with_bottom(bottom: &[&str], height: usize) -> Board {
    Board::from_bottom_rows(bottom, height).expect("test board")
}

/// The features of a board on its own (no placement records).
fn features_alone(board: &Board) -> [f64; FEATURE_COUNT] {
    let mut out = [f64::NAN; FEATURE_COUNT];
    GaAgent::new().features(
        Chain {
            board,
            records: &[],
        },
        &mut out,
    );
    out
}

/// Locks `piece` at `(x, y, rotation)`, checking that it is a real lock placement.
fn lock(board: &mut Board, piece: Piece, x: i8, y: i8, rotation: u8) -> PlacementRecord {
    let placement = Placement::new(piece, PieceState { x, y, rotation });
    assert!(placement.is_lock_placement_on(board), "{placement:?}");
    PlacementRecord::lock(board, placement)
}

/// Rows 0..=5 of a 6-row board, worked out by hand in `hand_worked_board_six_rows_tall`.
const SIX_ROWS: [&str; 4] = [
    ".#........", // row 2
    "##.#......", // row 3
    "#......#.#", // row 4
    "##.##.####", // row 5
];

#[test]
fn empty_board_has_all_features_zero() {
    for height in [4, 20, 32] {
        let board = Board::new(height).unwrap();
        assert_eq!(
            features_alone(&board),
            [0.0; FEATURE_COUNT],
            "height {height}"
        );
        let chain = Chain {
            board: &board,
            records: &[],
        };
        assert_eq!(GaAgent::new().cost(chain), 0.0);
    }
}

#[test]
fn column_with_two_separated_holes_has_two_connected_holes() {
    // Column 0, rows 15..=19: # . # . #. Both empty cells are covered: holes 2, and they are
    // separated by (0, 17): connected_holes 2. (0, 15) and (0, 17) each have an empty cell
    // below: blocks_above_holes 2. h(0) = 20 − 15 = 5, the rest 0: pile_height 5,
    // bumpiness |5 − 0| = 5. Column 1 is empty but its right neighbour is too: wells 0.
    let board = with_bottom(
        &[
            "#.........",
            "..........",
            "#.........",
            "..........",
            "#.........",
        ],
        20,
    );
    assert_eq!(features_alone(&board), [0.0, 5.0, 2.0, 2.0, 2.0, 0.0, 5.0]);
}

#[test]
fn stacked_two_cell_hole_is_one_connected_hole() {
    // Column 0, rows 17..=19: # . .: holes 2 (rows 18 and 19), one vertical run:
    // connected_holes 1; only (0, 17) is above them: blocks_above_holes 1. h(0) = 3:
    // pile_height 3, bumpiness 3, wells 0.
    let board = with_bottom(&["#.........", "..........", ".........."], 20);
    assert_eq!(features_alone(&board), [0.0, 3.0, 2.0, 1.0, 1.0, 0.0, 3.0]);
}

#[test]
fn hand_worked_board_six_rows_tall() {
    // Rows 0 and 1 are empty; the height of a cell on row y is 6 − y.
    //   column:       0  1  2  3  4  5  6  7  8  9
    //   top row:      3  2  -  3  5  -  5  4  5  4
    //   h(x):         3  4  0  3  1  0  1  2  1  2
    // pile_height = 4.
    // bumpiness = 1 + 4 + 3 + 2 + 1 + 1 + 1 + 1 + 1 = 15.
    // holes: (1, 4) under (1, 3), (3, 4) under (3, 3): 2, in two runs: connected_holes 2.
    // blocks_above_holes: (1, 2), (1, 3) above (1, 4); (3, 3) above (3, 4): 3.
    // wells (cells above each column's top with both sides occupied, walls occupied):
    //   0: rows 0..=2, wall and (1, y): row 2 only: 1
    //   2: empty, rows 0..=5, (1, y) and (3, y): rows 3 and 5: 2
    //   5: empty, (4, y) and (6, y): row 5: 1
    //   8: rows 0..=4, (7, y) and (9, y): row 4: 1
    //   the others have an empty neighbour on every row above their top: 0
    //   total 5.
    let board = with_bottom(&SIX_ROWS, 6);
    assert_eq!(features_alone(&board), [0.0, 4.0, 2.0, 2.0, 3.0, 5.0, 15.0]);
}

#[test]
fn rows_cleared_are_summed_over_the_chain() {
    let mut board = with_bottom(&["#########.", "#########.", "##.#######"], 20);
    // A vertical I in column 9 (cells rows 15..=18) fills rows 17 and 18: 2 rows cleared.
    let first = lock(&mut board, Piece::I, 9, 17, 1);
    assert_eq!(first.rows_cleared(), 2);
    let after_first = board;
    // Then an O in columns 0 and 1, cells rows 17 and 18, on row 19: nothing cleared.
    let second = lock(&mut board, Piece::O, 1, 17, 0);
    assert_eq!(second.rows_cleared(), 0);
    assert_eq!(
        board.to_rows()[17..],
        ["##.......#", "##.......#", "##.#######"]
    );
    let evaluator = GaAgent::new();
    let mut out = [f64::NAN; FEATURE_COUNT];

    // After the first: rows 17, 18 `.........#`, row 19 `##.#######`.
    // h = [1, 1, 0, 1, 1, 1, 1, 1, 1, 3]: pile_height 3, bumpiness 1 + 1 + 2 = 4. No holes.
    // wells: only column 2 (empty, (1, 19) and (3, 19) occupied): 1.
    evaluator.features(
        Chain {
            board: &after_first,
            records: &[first],
        },
        &mut out,
    );
    assert_eq!(out, [2.0, 3.0, 0.0, 0.0, 0.0, 1.0, 4.0]);

    // After both: rows 17, 18 `##.......#`. h = [3, 3, 0, 1, 1, 1, 1, 1, 1, 3]:
    // bumpiness 3 + 1 + 2 = 6; wells still only (2, 19): 1; rows cleared 2 + 0.
    evaluator.features(
        Chain {
            board: &board,
            records: &[first, second],
        },
        &mut out,
    );
    assert_eq!(out, [2.0, 3.0, 0.0, 0.0, 0.0, 1.0, 6.0]);
}

#[test]
fn cost_is_the_weighted_sum_of_the_features_bit_for_bit() {
    // The article preset on the six-row board, features [0, 4, 2, 2, 3, 5, 15], summed left
    // to right from 0.0 in the cost form (rows cleared negative, the others positive).
    let board = with_bottom(&SIX_ROWS, 6);
    let chain = Chain {
        board: &board,
        records: &[],
    };
    let expected: f64 = 0.0
        + -0.95856917 * 0.0
        + 0.08560386 * 4.0
        + 0.9476838 * 2.0
        + 0.58525276 * 2.0
        + 0.0291457 * 3.0
        + 0.18112998 * 5.0
        + 0.17345366 * 15.0;
    let cost = GaAgent::new().cost(chain);
    assert_eq!(cost.to_bits(), expected.to_bits());
    // By hand: 0.34241544 + 1.8953676 + 1.17050552 + 0.0874371 + 0.9056499 + 2.6018049.
    assert!((cost - 7.00318046).abs() < 1e-12, "{cost}");

    // A cleared row lowers the cost: the first chain of `rows_cleared_are_summed_over_the_
    // chain`, features [2, 3, 0, 0, 0, 1, 4].
    let mut board = with_bottom(&["#########.", "#########.", "##.#######"], 20);
    let record = lock(&mut board, Piece::I, 9, 17, 1);
    let chain = Chain {
        board: &board,
        records: &[record],
    };
    let expected: f64 = 0.0
        + -0.95856917 * 2.0
        + 0.08560386 * 3.0
        + 0.9476838 * 0.0
        + 0.58525276 * 0.0
        + 0.0291457 * 0.0
        + 0.18112998 * 1.0
        + 0.17345366 * 4.0;
    assert_eq!(GaAgent::new().cost(chain).to_bits(), expected.to_bits());
    // −1.91713834 + 0.25681158 + 0.18112998 + 0.69381464 = −0.78538214.
    assert!((expected + 0.78538214).abs() < 1e-12, "{expected}");
}

const GOOD_JSON: &str = r#"{"evaluator": "ga-agent", "weights": {
    "rows_cleared": -2, "pile_height": 0.5, "holes": 4, "connected_holes": 1,
    "blocks_above_holes": 0.25, "wells": 0, "bumpiness": 1}}"#;

#[test]
fn weights_are_the_article_preset_in_cost_form_and_load_from_json() {
    let evaluator = GaAgent::new();
    assert_eq!(evaluator.name(), "ga-agent");
    assert_eq!(evaluator, GaAgent::default());
    assert_eq!(evaluator, GaAgent::from_preset("article").unwrap());
    assert_eq!(evaluator.feature_names(), FEATURE_NAMES);
    assert_eq!(evaluator.placement_feature_names(), &["rows_cleared"]);
    let weights = evaluator.weights();
    assert_eq!(weights.get("rows_cleared"), Some(-0.95856917));
    assert_eq!(weights.get("pile_height"), Some(0.08560386));
    assert_eq!(weights.get("holes"), Some(0.9476838));
    assert_eq!(weights.get("connected_holes"), Some(0.58525276));
    assert_eq!(weights.get("blocks_above_holes"), Some(0.0291457));
    assert_eq!(weights.get("wells"), Some(0.18112998));
    assert_eq!(weights.get("bumpiness"), Some(0.17345366));

    let loaded = GaAgent::from_weights_json(GOOD_JSON).unwrap();
    assert_eq!(
        loaded.weights().values(),
        &[-2.0, 0.5, 4.0, 1.0, 0.25, 0.0, 1.0]
    );
    // Six-row board, features [0, 4, 2, 2, 3, 5, 15]: 0 + 2 + 8 + 2 + 0.75 + 0 + 15.
    let board = with_bottom(&SIX_ROWS, 6);
    let chain = Chain {
        board: &board,
        records: &[],
    };
    assert_eq!(loaded.cost(chain), 27.75);
    // Every named weights error is tested once for all evaluators in
    // tests/tests/weights_files.rs.
}
