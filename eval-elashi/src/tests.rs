use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use tetris_core::{Error, Piece, PieceState, Placement, PlacementRecord};

use super::*;

/// A board `height` rows tall whose bottom rows are `bottom` (top first), empty above.
fn with_bottom(bottom: &[&str], height: usize) -> Board {
    Board::from_bottom_rows(bottom, height).expect("test board")
}

/// The features of a board on its own (no placement records).
fn features_alone(board: &Board) -> [f64; FEATURE_COUNT] {
    let mut out = [f64::NAN; FEATURE_COUNT];
    ElAshi::new().features(
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

#[test]
fn empty_board_has_all_features_zero() {
    for height in [4, 20, 32] {
        let board = Board::new(height).unwrap();
        assert_eq!(
            features_alone(&board),
            [0.0; FEATURE_COUNT],
            "height {height}"
        );
        assert_eq!(
            ElAshi::new().cost(Chain {
                board: &board,
                records: &[],
            }),
            0.0
        );
    }
}

#[test]
fn bottom_row_with_one_gap_at_the_right_has_nine_wells() {
    // The spec's anchor: every depth is 19 (column 9 is empty, so it counts as 19 too).
    // Columns 0..=7 see both neighbours occupied on row 19 (column 0 through the wall): 8;
    // column 8's right neighbour (9, 19) is empty: 0; column 9 has (8, 19) and the wall: 1.
    let board = with_bottom(&["#########."], 20);
    assert_eq!(wells(&board), 9);
    assert_eq!(column_wells(&board, 8), 0);
    assert_eq!(column_wells(&board, 9), 1);
}

#[test]
fn four_deep_well_counts_four_with_an_empty_or_an_occupied_bottom() {
    // Columns 3 and 5 are 4 high (rows 16..=19). An empty column 4 has depth 19, like a
    // column whose only cell is on the floor; top = max(16, 16) = 16, and rows 16..=19 all
    // have both neighbours occupied: 4 either way.
    let empty_bottom = with_bottom(
        &["...#.#....", "...#.#....", "...#.#....", "...#.#...."],
        20,
    );
    let occupied_bottom = with_bottom(
        &["...#.#....", "...#.#....", "...#.#....", "...###...."],
        20,
    );
    assert_eq!(column_wells(&empty_bottom, 4), 4);
    assert_eq!(column_wells(&occupied_bottom, 4), 4);
    // The same at the right wall: column 8 is 4 high, column 9 empty or holding (9, 19).
    let wall_well = with_bottom(
        &["........#.", "........#.", "........#.", "........#."],
        20,
    );
    let wall_well_on_a_cell = with_bottom(
        &["........#.", "........#.", "........#.", "........##"],
        20,
    );
    assert_eq!(column_wells(&wall_well, 9), 4);
    assert_eq!(column_wells(&wall_well_on_a_cell, 9), 4);
}

#[test]
fn depth_of_an_empty_column_is_the_bottom_row_at_any_height() {
    for height in [4, 13, 32] {
        let board = Board::new(height).unwrap();
        assert_eq!(depth(&board, 0), height as u32 - 1);
    }
    let board = with_bottom(&["#.........", "#........."], 6);
    assert_eq!(depth(&board, 0), 4);
}

#[test]
fn hand_worked_board_six_rows_tall() {
    // Rows 0 and 1 are empty. Depths (top row per column, 5 for an empty column):
    // [3, 2, 5, 5, 3, 5, 5, 5, 4, 5].
    let board = with_bottom(
        &[
            ".#........", // row 2
            "##..#.....", // row 3
            "#...#...#.", // row 4
            "##.##.####", // row 5
        ],
        6,
    );
    // wells, column by column (top = max of the neighbours' depths, the wall side ignored):
    //   0: depth 3, top = 2: rows 2 and 3, wall and (1, y) occupied on both: 2
    //   1: depth 2 < top 5: 0
    //   2: empty, depth 5, top = max(2, 5) = 5: row 5, (1, 5) and (3, 5) occupied: 1
    //   3: depth 5, top 5: (2, 5) empty: 0
    //   4: depth 3 < top 5: 0
    //   5: empty, depth 5, top = max(3, 5) = 5: (4, 5) and (6, 5) occupied: 1
    //   6: depth 5, top 5: (5, 5) empty: 0
    //   7: depth 5, top = max(5, 4) = 5: (6, 5) and (8, 5) occupied: 1
    //   8: depth 4 < top 5: 0
    //   9: depth 5, top = 4: rows 4 and 5, (8, y) and the wall occupied: 2
    //   total 7.
    // holes: only (1, 4) is empty under an occupied cell: 1.
    // column_transitions from each top down: column 1 goes # (row 2), # . # : 2; every other
    //   column is solid below its top: total 2.
    // row_transitions (walls occupied, empty rows 0): row 2 `.#........` 4, row 3
    //   `##..#.....` 4, row 4 `#...#...#.` 6, row 5 `##.##.####` 4: 18.
    assert_eq!(features_alone(&board), [0.0, 0.0, 7.0, 1.0, 2.0, 18.0]);
}

#[test]
fn placement_features_are_summed_over_the_chain() {
    let mut board = with_bottom(&["#########.", "#########.", "##.#######"], 20);
    // A vertical I in column 9 (cells rows 15..=18) fills rows 17 and 18: 2 rows cleared.
    // Its lowest pivot row on an empty field is 20 − 1 − 1 = 18, the pivot is at 17: lock
    // height 1.
    let first = lock(&mut board, Piece::I, 9, 17, 1);
    assert_eq!(first.rows_cleared(), 2);
    let after_first = board;
    // An O in columns 0 and 1 rests on row 19 (cells rows 17 and 18); its lowest pivot row is
    // 18, the pivot is at 17: lock height 1, no row cleared.
    let second = lock(&mut board, Piece::O, 1, 17, 0);
    assert_eq!(second.rows_cleared(), 0);
    assert_eq!(
        board.to_rows()[17..],
        ["##.......#", "##.......#", "##.#######"]
    );

    // After the first placement: rows 17 and 18 are `.........#`, row 19 `##.#######`.
    // Depths [19, 19, 19 (empty), 19, 19, 19, 19, 19, 19, 17].
    // wells: column 0 (wall, (1, 19)) 1; 1 ((2, 19) empty) 0; 2 (empty, (1, 19), (3, 19)) 1;
    //   3 ((2, 19) empty) 0; 4..=7 1 each; 8 ((7, 19), (9, 19)) 1; 9 (depth 17 < top 19) 0:
    //   7. No holes; every column is solid below its top: 0 column transitions; rows 17,
    //   18, 19 have 2 row transitions each: 6.
    let mut out = [f64::NAN; FEATURE_COUNT];
    let evaluator = ElAshi::new();
    let one = Chain {
        board: &after_first,
        records: &[first],
    };
    evaluator.features(one, &mut out);
    assert_eq!(out, [2.0, 1.0, 7.0, 0.0, 0.0, 6.0]);

    // After both: rows 17 and 18 are `##.......#`. Depths [17, 17, 19, 19, ..., 19, 17].
    // wells: column 0 (depth 17, top 17, wall and (1, 17)) 1; 1 (17 < max(17, 19)) 0; 2 1;
    //   3 0; 4..=7 4; 8 1; 9 0: 7. Still no holes and no column transitions; rows 17, 18,
    //   19 have 2 each: 6. Rows cleared 2 + 0, lock heights 1 + 1.
    let two = Chain {
        board: &board,
        records: &[first, second],
    };
    evaluator.features(two, &mut out);
    assert_eq!(out, [2.0, 2.0, 7.0, 0.0, 0.0, 6.0]);
}

#[test]
fn default_weights_are_the_published_ones() {
    let evaluator = ElAshi::new();
    assert_eq!(evaluator.name(), "elashi");
    assert_eq!(evaluator, ElAshi::default());
    let weights = evaluator.weights();
    assert_eq!(weights.get("rows_cleared"), Some(1.0));
    assert_eq!(weights.get("lock_height"), Some(12.885008263218383));
    assert_eq!(weights.get("wells"), Some(15.842707182438396));
    assert_eq!(weights.get("holes"), Some(26.89449650779595));
    assert_eq!(weights.get("column_transitions"), Some(27.616914062397015));
    assert_eq!(weights.get("row_transitions"), Some(30.18511071927904));
    assert_eq!(evaluator.feature_names(), FEATURE_NAMES);
    assert_eq!(evaluator.placement_feature_names(), PLACEMENT_FEATURE_NAMES);
    assert!(matches!(
        ElAshi::from_preset("tuned"),
        Err(Error::UnknownPreset { name, valid, .. }) if name == "tuned" && valid == "published"
    ));
}

const GOOD_JSON: &str = r#"{"evaluator": "elashi", "weights": {
    "rows_cleared": 2, "lock_height": 0, "wells": 0.5,
    "holes": 4, "column_transitions": 1.25, "row_transitions": -1}}"#;

/// El-Ashi's `wells`, cell by cell, from the spec's words.
fn reference_wells(board: &Board) -> u32 {
    let height = board.height() as i32;
    let depth_of = |x: i32| -> i32 {
        (0..height)
            .find(|&y| board.is_occupied(x as usize, y as usize))
            .unwrap_or(height - 1)
    };
    let occupied = |x: i32, y: i32| -> bool {
        !(0..BOARD_WIDTH as i32).contains(&x) || board.is_occupied(x as usize, y as usize)
    };
    let mut sum = 0;
    for x in 0..BOARD_WIDTH as i32 {
        let top = if x == 0 {
            depth_of(1)
        } else if x == BOARD_WIDTH as i32 - 1 {
            depth_of(x - 1)
        } else {
            depth_of(x - 1).max(depth_of(x + 1))
        };
        let mut y = depth_of(x);
        while y >= top {
            if occupied(x - 1, y) && occupied(x + 1, y) {
                sum += 1;
            }
            y -= 1;
        }
    }
    sum
}

/// A seeded random board (`tetris_fixtures::random_board`) from `rng`.
fn random_board(rng: &mut Pcg64Mcg) -> Board {
    tetris_fixtures::random_board(&mut || rng.next_u32())
}

#[test]
fn wells_match_the_cell_by_cell_reference_on_random_boards() {
    let mut rng = Pcg64Mcg::seed_from_u64(0xE1A5_0001);
    for _ in 0..2000 {
        let board = random_board(&mut rng);
        assert_eq!(wells(&board), reference_wells(&board), "{board:?}");
        let per_column: u32 = (0..BOARD_WIDTH).map(|x| column_wells(&board, x)).sum();
        assert_eq!(per_column, wells(&board), "{board:?}");
    }
}

#[test]
fn one_pass_board_features_match_the_shared_primitives() {
    use tetris_core::features::{
        column_transitions_below_top, hole_runs, row_transitions_nonempty_rows,
    };
    let mut rng = Pcg64Mcg::seed_from_u64(0xE1A5_0003);
    let mut heights_seen = [false; 33];
    for _ in 0..3000 {
        let board = random_board(&mut rng);
        heights_seen[board.height() as usize] = true;
        let expected = BoardFeatures {
            wells: wells(&board),
            holes: hole_runs(&board),
            column_transitions: column_transitions_below_top(&board),
            row_transitions: row_transitions_nonempty_rows(&board),
        };
        assert_eq!(board_features(&board), expected, "{board:?}");
        assert_eq!(board_features_portable(&board), expected, "{board:?}");
    }
    assert!(heights_seen[4..].iter().all(|&seen| seen));
    // A full board of 32 rows: every bit of every column set, nothing to count but the
    // wells (each column's top row 0 with both sides occupied: 10).
    let mut full = Board::new(32).unwrap();
    for x in 0..BOARD_WIDTH {
        for y in 0..32 {
            full.set(x, y);
        }
    }
    assert_eq!(
        board_features(&full),
        BoardFeatures {
            wells: 10,
            holes: 0,
            column_transitions: 0,
            row_transitions: 0,
        }
    );
}

#[test]
fn cost_is_the_weighted_sum_of_the_features_bit_for_bit() {
    let mut rng = Pcg64Mcg::seed_from_u64(0xE1A5_0002);
    let evaluators = [ElAshi::new(), ElAshi::from_weights_json(GOOD_JSON).unwrap()];
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
            let mut expected = 0.0;
            for (weight, feature) in evaluator.weights().values().iter().zip(&features) {
                expected += weight * feature;
            }
            assert_eq!(evaluator.cost(chain).to_bits(), expected.to_bits());
            assert_eq!(
                evaluator.cost(chain).to_bits(),
                evaluator.weights().weighted_sum(&features).to_bits()
            );
        }
    }
}
