use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use tetris_core::{BOARD_WIDTH, Board, Error, Piece, PieceState, Placement, PlacementRecord};

use super::*;

/// A board `height` rows tall whose bottom rows are `bottom` (top first), empty above.
fn with_bottom(bottom: &[&str], height: usize) -> Board {
    Board::from_bottom_rows(bottom, height).expect("test board")
}

/// The features of `board` after the placements `records` (last one judged).
fn features_of(board: &Board, records: &[PlacementRecord]) -> [f64; FEATURE_COUNT] {
    let mut out = [f64::NAN; FEATURE_COUNT];
    Dellacherie::new().features(Chain { board, records }, &mut out);
    out
}

/// Locks `piece` at `(x, y, rotation)`, checking that it is a real lock placement.
fn lock(board: &mut Board, piece: Piece, x: i8, y: i8, rotation: u8) -> PlacementRecord {
    let placement = Placement::new(piece, PieceState { x, y, rotation });
    assert!(placement.is_lock_placement_on(board), "{placement:?}");
    PlacementRecord::lock(board, placement)
}

#[test]
fn empty_board_anchors() {
    // Row transitions 20 × 2 = 40, column transitions 10 × 1 = 10, no holes, no wells; with
    // no placement record the placement features are 0.
    let board = Board::standard();
    assert_eq!(
        features_of(&board, &[]),
        [0.0, 0.0, 0.0, 40.0, 10.0, 0.0, 0.0]
    );
    // On H rows an empty board has 2H row transitions and still 10 column transitions.
    for height in [4, 32] {
        let board = Board::new(height).unwrap();
        assert_eq!(
            features_of(&board, &[]),
            [0.0, 0.0, 0.0, 2.0 * height as f64, 10.0, 0.0, 0.0]
        );
    }
}

#[test]
fn landing_heights_on_the_empty_floor() {
    // An O in columns 0 and 1, rows 18 and 19: landing height 0 + (2 − 1)/2 = 0.5. Rows 18
    // and 19 read `##........` (2 row transitions each, like an empty row): 40; columns 0 and
    // 1 change once above their top, the others once above the floor: 10.
    let mut board = Board::standard();
    let o = lock(&mut board, Piece::O, 1, 18, 0);
    assert_eq!(
        features_of(&board, &[o]),
        [0.5, 0.0, 0.0, 40.0, 10.0, 0.0, 0.0]
    );

    // A flat I in columns 3..=6 of row 19: landing height 0. Row 19 `...####...` has 4 row
    // transitions, the 19 empty rows 38: 42.
    let mut board = Board::standard();
    let flat = lock(&mut board, Piece::I, 5, 19, 0);
    assert_eq!(flat.landing_height(), 0.0);
    assert_eq!(
        features_of(&board, &[flat]),
        [0.0, 0.0, 0.0, 42.0, 10.0, 0.0, 0.0]
    );

    // A vertical I in column 0, rows 16..=19: landing height 0 + (4 − 1)/2 = 1.5. Its rows
    // read `#.........` (2 each): 40.
    let mut board = Board::standard();
    let vertical = lock(&mut board, Piece::I, 0, 18, 1);
    assert_eq!(
        features_of(&board, &[vertical]),
        [1.5, 0.0, 0.0, 40.0, 10.0, 0.0, 0.0]
    );
}

#[test]
fn one_wide_well_of_depth_four_adds_ten_to_well_sums() {
    // The well cells are rows 16..=19 of the open column: 4 + 3 + 2 + 1 = 10. Nothing else
    // is a well cell (above row 16, each wall column has an empty neighbour).
    let at_the_wall = with_bottom(&["#########."; 4], 20);
    assert_eq!(features_of(&at_the_wall, &[])[6], 10.0);
    let in_the_middle = with_bottom(&["####.#####"; 4], 20);
    assert_eq!(features_of(&in_the_middle, &[])[6], 10.0);
}

#[test]
fn hand_worked_board_six_rows_tall() {
    let board = with_bottom(
        &[
            ".#........", // row 2
            "##..#.....", // row 3
            "#...#...#.", // row 4
            "##.##.####", // row 5
        ],
        6,
    );
    // row_transitions: empty rows 0 and 1 count 2 each; row 2 `.#........` 4, row 3
    //   `##..#.....` 4, row 4 `#...#...#.` 6, row 5 `##.##.####` 4: 4 + 18 = 22.
    // column_transitions from the floor up: column 1 reads # . # # . . going up (3 changes),
    //   every other column changes exactly once: 3 + 9 = 12.
    // holes: only (1, 4) is empty with an occupied cell above: 1.
    // well_sums: (0, 2) (wall, (1, 2)) with (0, 3) occupied below: 1; (9, 4) ((8, 4), wall)
    //   over (9, 5) occupied: 1; (2, 5) and (5, 5) on the floor between occupied cells: 1
    //   each: 4.
    assert_eq!(
        features_of(&board, &[]),
        [0.0, 0.0, 0.0, 22.0, 12.0, 1.0, 4.0]
    );
}

#[test]
fn placement_features_come_from_the_last_record() {
    let mut board = with_bottom(&["#########.", "#########.", "##.#######"], 20);
    // A vertical I in column 9 (rows 15..=18) fills rows 17 and 18: 2 rows removed, 2 of its
    // own cells in each: eroded 2 × 2 = 4. Its lowest cell is on row 18, 1 above the floor:
    // landing height 1 + (4 − 1)/2 = 2.5.
    let first = lock(&mut board, Piece::I, 9, 17, 1);
    let after_first = board;
    // Left: rows 17 and 18 `.........#`, row 19 `##.#######`.
    // row_transitions: 17 empty rows 34, plus 2 + 2 + 2: 40. column_transitions: one change
    //   per column (column 2 from the floor into (2, 19)): 10. No holes. well_sums: only
    //   (2, 19), between (1, 19) and (3, 19), on the floor: 1.
    assert_eq!(
        features_of(&after_first, &[first]),
        [2.5, 2.0, 4.0, 40.0, 10.0, 0.0, 1.0]
    );
    // The original integers: −2.5 + 0·2 + 4 − 40 − 10 − 4·0 − 1 = −49.5, cost 49.5.
    let original = Dellacherie::from_preset("original").unwrap();
    let chain = Chain {
        board: &after_first,
        records: &[first],
    };
    assert_eq!(original.score(chain), -49.5);
    assert_eq!(original.cost(chain), 49.5);

    // An O in columns 0 and 1 on row 19 (cells rows 17 and 18): its lowest cell is 1 above the
    // floor, landing height 1 + (2 − 1)/2 = 1.5; no row removed. The chain is judged by this
    // LAST placement: the first one's 2 rows and 4 eroded cells no longer count.
    let second = lock(&mut board, Piece::O, 1, 17, 0);
    assert_eq!(
        board.to_rows()[17..],
        ["##.......#", "##.......#", "##.#######"]
    );
    // row_transitions: 34 + 2 + 2 + 2 = 40; column_transitions: one change per column: 10;
    // no holes; well_sums: (2, 19) only ((2, 18) has (3, 18) empty): 1.
    assert_eq!(
        features_of(&board, &[first, second]),
        [1.5, 0.0, 0.0, 40.0, 10.0, 0.0, 1.0]
    );
}

#[test]
fn cost_is_the_negated_published_score() {
    let evaluator = Dellacherie::new();
    let board = Board::standard();
    let chain = Chain {
        board: &board,
        records: &[],
    };
    // Empty board: features [0, 0, 0, 40, 10, 0, 0]; score = −3.2178882868487753 · 40
    // − 9.348695305445199 · 10, so the cost is the same sum with positive signs (negation is
    // exact, every product and sum rounds symmetrically).
    let expected_cost = 3.2178882868487753 * 40.0 + 9.348695305445199 * 10.0;
    assert_eq!(evaluator.cost(chain), expected_cost);
    assert_eq!(evaluator.score(chain), -expected_cost);
}

#[test]
fn presets_hold_the_published_weights() {
    let el_tetris = Dellacherie::new();
    assert_eq!(el_tetris.name(), "dellacherie");
    assert_eq!(el_tetris, Dellacherie::default());
    assert_eq!(el_tetris, Dellacherie::from_preset("el-tetris").unwrap());
    let weights = el_tetris.weights();
    assert_eq!(weights.get("landing_height"), Some(-4.500158825082766));
    assert_eq!(weights.get("rows_removed"), Some(3.4181268101392694));
    assert_eq!(weights.get("eroded_piece_cells"), Some(0.0));
    assert_eq!(weights.get("row_transitions"), Some(-3.2178882868487753));
    assert_eq!(weights.get("column_transitions"), Some(-9.348695305445199));
    assert_eq!(weights.get("holes"), Some(-7.899265427351652));
    assert_eq!(weights.get("well_sums"), Some(-3.3855972247263626));
    let original = Dellacherie::from_preset("original").unwrap();
    assert_eq!(
        original.weights().values(),
        &[-1.0, 0.0, 1.0, -1.0, -1.0, -4.0, -1.0]
    );
    assert_eq!(el_tetris.feature_names(), FEATURE_NAMES);
    assert_eq!(el_tetris.placement_feature_names(), PLACEMENT_FEATURE_NAMES);
    assert!(matches!(
        Dellacherie::from_preset("tuned"),
        Err(Error::UnknownPreset { name, valid, .. })
            if name == "tuned" && valid == "el-tetris original"
    ));
}

#[test]
fn a_zero_weight_removes_its_feature_from_the_cost() {
    // el-tetris gives eroded_piece_cells weight 0: the clearing chain above (eroded 4) costs
    // the same as with that feature's value replaced by 0.
    let evaluator = Dellacherie::new();
    let mut board = with_bottom(&["#########.", "#########.", "##.#######"], 20);
    let record = lock(&mut board, Piece::I, 9, 17, 1);
    let chain = Chain {
        board: &board,
        records: &[record],
    };
    let mut features = feature_values(chain);
    assert_eq!(features[2], 4.0);
    let with_erosion = evaluator.weights().weighted_sum(&features);
    features[2] = 0.0;
    assert_eq!(
        evaluator.weights().weighted_sum(&features).to_bits(),
        with_erosion.to_bits()
    );
    assert!(evaluator.cost(chain).is_finite());
    // A zero written as a JSON integer loads too.
    let json = r#"{"evaluator": "dellacherie", "weights": {"landing_height": -1,
        "rows_removed": 0, "eroded_piece_cells": 1, "row_transitions": -1,
        "column_transitions": -1, "holes": -4, "well_sums": -1}}"#;
    assert_eq!(
        Dellacherie::from_weights_json(json).unwrap(),
        Dellacherie::from_preset("original").unwrap()
    );
}

const GOOD_JSON: &str = r#"{"evaluator": "dellacherie", "weights": {
    "landing_height": -2, "rows_removed": 1, "eroded_piece_cells": 0.5,
    "row_transitions": -0.25, "column_transitions": 0, "holes": -3, "well_sums": -1}}"#;

/// A seeded random board (`tetris_fixtures::random_board`) from `rng`.
fn random_board(rng: &mut Pcg64Mcg) -> Board {
    tetris_fixtures::random_board(&mut || rng.next_u32())
}

#[test]
fn one_pass_board_features_match_the_shared_primitives() {
    use tetris_core::features::{
        column_transitions_from_floor, covered_empty_cells, row_transitions_all_rows,
        well_sums_dellacherie,
    };
    let mut rng = Pcg64Mcg::seed_from_u64(0xDE11_0002);
    let mut heights_seen = [false; 33];
    for _ in 0..3000 {
        let board = random_board(&mut rng);
        heights_seen[board.height() as usize] = true;
        let expected = BoardFeatures {
            row_transitions: row_transitions_all_rows(&board),
            column_transitions: column_transitions_from_floor(&board),
            holes: covered_empty_cells(&board),
            well_sums: well_sums_dellacherie(&board),
        };
        assert_eq!(board_features(&board), expected, "{board:?}");
        assert_eq!(board_features_portable(&board), expected, "{board:?}");
    }
    assert!(heights_seen[4..].iter().all(|&seen| seen));
    // A full board of 32 rows: no change anywhere (the floor and the walls are occupied too),
    // no empty cell.
    let mut full = Board::new(32).unwrap();
    for x in 0..BOARD_WIDTH {
        for y in 0..32 {
            full.set(x, y);
        }
    }
    assert_eq!(board_features(&full), BoardFeatures::default());
    // An empty board of 32 rows: 2 × 32 row transitions, 10 column transitions, and no well
    // cell (each column has an empty neighbour).
    let empty = Board::new(32).unwrap();
    assert_eq!(
        board_features(&empty),
        BoardFeatures {
            row_transitions: 64,
            column_transitions: 10,
            holes: 0,
            well_sums: 0,
        }
    );
}

#[test]
fn cost_is_the_negated_weighted_sum_of_the_features_bit_for_bit() {
    let mut rng = Pcg64Mcg::seed_from_u64(0xDE11_0001);
    let evaluators = [
        Dellacherie::new(),
        Dellacherie::from_preset("original").unwrap(),
        Dellacherie::from_weights_json(GOOD_JSON).unwrap(),
    ];
    let mut board = with_bottom(&["#########.", "#########.", "##.#######"], 20);
    let record = lock(&mut board, Piece::I, 9, 17, 1);
    let mut boards = vec![(board, vec![record])];
    for _ in 0..200 {
        boards.push((random_board(&mut rng), Vec::new()));
    }
    for evaluator in &evaluators {
        for (board, records) in &boards {
            let chain = Chain { board, records };
            let mut features = [0.0; FEATURE_COUNT];
            evaluator.features(chain, &mut features);
            let mut score = 0.0;
            for (weight, feature) in evaluator.weights().values().iter().zip(&features) {
                score += weight * feature;
            }
            assert_eq!(evaluator.score(chain).to_bits(), score.to_bits());
            assert_eq!(evaluator.cost(chain).to_bits(), (-score).to_bits());
            assert_eq!(
                evaluator.cost(chain).to_bits(),
                (-evaluator.weights().weighted_sum(&features)).to_bits()
            );
        }
    }
}

/// Every lock placement of `piece` on `board`, shuffled from `rng`
/// (`tetris_fixtures::shuffled_lock_placements`).
fn shuffled_lock_placements(board: &Board, piece: Piece, rng: &mut Pcg64Mcg) -> Vec<Placement> {
    tetris_fixtures::shuffled_lock_placements(board, piece, &mut || rng.next_u32())
}

#[test]
fn leaf_values_in_any_order_equal_locking_each_placement_bit_for_bit() {
    // The column-by-column leaf values take each run of one orientation at once and leave the
    // two zero placement terms out of the sum: any order of placements, other pieces'
    // placements among them (the whole-board way), and weights of 0 (a landing height of 0
    // times a negative weight is −0) must still give the bits of locking each placement.
    let evaluators = [
        Dellacherie::new(),
        Dellacherie::from_preset("original").unwrap(),
        Dellacherie::from_weights_json(GOOD_JSON).unwrap(),
        Dellacherie::from_weights_json(
            r#"{"evaluator": "dellacherie", "weights": {"landing_height": -1,
            "rows_removed": 0, "eroded_piece_cells": -0.0, "row_transitions": 0,
            "column_transitions": 0, "holes": 0, "well_sums": 0}}"#,
        )
        .unwrap(),
    ];
    let mut rng = Pcg64Mcg::seed_from_u64(0xDE11_0003);
    let mut check = tetris_fixtures::LeafCheck::default();
    let mut runs = 0;
    for round in 0..300 {
        let board = if round == 0 {
            Board::standard()
        } else {
            random_board(&mut rng)
        };
        let mut records = Vec::new();
        for piece in Piece::ALL {
            let mut placements = shuffled_lock_placements(&board, piece, &mut rng);
            // A run of one orientation that is not at the start, and another piece's
            // placement in the middle.
            placements.sort_by_key(|p| p.rotation == 0);
            let other = Piece::ALL[(piece.index() + 1) % 7];
            if let Some(&foreign) = shuffled_lock_placements(&board, other, &mut rng).first() {
                placements.insert(placements.len() / 2, foreign);
            }
            runs += placements
                .windows(2)
                .filter(|w| (w[0].piece, w[0].rotation) != (w[1].piece, w[1].rotation))
                .count();
            for evaluator in &evaluators {
                check.check(evaluator, &board, &mut records, &placements);
            }
        }
    }
    assert!(check.checked > 100_000, "{check:?}");
    assert!(check.clearing > 1_000, "{check:?}");
    assert!(runs > 10_000, "{runs}");
}
