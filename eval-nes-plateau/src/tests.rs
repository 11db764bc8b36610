//! Unit tests of the evaluator: feature vectors worked out by hand, weights, cost bits, and
//! the crate's own primitives against cell-by-cell references on random boards.

use super::*;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use tetris_core::Error;
use tetris_core::board::BOARD_WIDTH;
use tetris_core::evaluate::PlacementRecord;
use tetris_core::piece::Piece;
use tetris_core::placement::{PieceState, Placement};

fn board(rows: &[&str]) -> Board {
    Board::from_rows(rows).unwrap()
}

/// A 20-row board whose bottom rows are `bottom` (top first), empty above.
fn with_bottom(bottom: &[&str]) -> Board {
    Board::from_bottom_rows(bottom, 20).expect("test board")
}

fn placement(piece: Piece, x: i8, y: i8, rotation: u8) -> Placement {
    Placement::new(piece, PieceState { x, y, rotation })
}

/// The features of a board on its own, through the `Evaluator` trait.
fn board_features(board: &Board) -> Vec<f64> {
    let mut out = vec![0.0; FEATURE_COUNT];
    NesPlateau::new().features(
        Chain {
            board,
            records: &[],
        },
        &mut out,
    );
    out
}

/// The weighted sum written out: weight × feature in table order, left to right, in f64.
fn weighted_sum_by_hand(weights: &[f64], features: &[f64]) -> f64 {
    let mut sum = 0.0;
    for index in 0..FEATURE_COUNT {
        sum += weights[index] * features[index];
    }
    sum
}

#[test]
fn names_presets_and_counts_agree() {
    assert_eq!(FEATURE_NAMES.len(), FEATURE_COUNT);
    const { assert!(FEATURE_COUNT <= tetris_core::MAX_FEATURES) };
    assert_eq!(&FEATURE_NAMES[..2], PLACEMENT_FEATURE_NAMES);
    for preset in PRESETS {
        assert_eq!(preset.values.len(), FEATURE_COUNT, "{}", preset.name);
    }
    let evaluator = NesPlateau::new();
    assert_eq!(evaluator.name(), "nes-plateau");
    assert_eq!(evaluator.feature_names(), FEATURE_NAMES);
    assert_eq!(evaluator.placement_feature_names(), PLACEMENT_FEATURE_NAMES);
    assert_eq!(evaluator, NesPlateau::default());
}

#[test]
#[allow(clippy::excessive_precision)] // the table's digits, as published
fn the_default_preset_has_the_published_digits() {
    // docs/spec/evaluators.md §3, copied digit for digit from the table.
    let weights = NesPlateau::new().weights().clone();
    let expected = [
        ("rows_cleared", 0.286127095297893900),
        ("lock_height", 1.701233676909959200),
        ("well_cells", 0.711304230768307700),
        ("deep_wells", 0.910665415998680400),
        ("holes", 1.879338064244357000),
        ("weighted_holes", 2.168463848297177000),
        ("hole_depths", -0.265587111961757270),
        ("min_hole_depth", 0.289886584949610500),
        ("max_hole_depth", 0.362361055261181730),
        ("column_transitions", -0.028668795795469625),
        ("row_transitions", 0.874179981113233100),
        ("column_heights", -0.507409683144361900),
        ("pile_height", -2.148676202831281000),
        ("height_spread", -1.187558540281141700),
        ("occupied_cells", -2.645656132241128000),
        ("weighted_occupied_cells", 0.242043416268706620),
        ("bumpiness", 0.287838126164431440),
        ("ceiling_penalty", 20.0),
    ];
    for (name, value) in expected {
        assert_eq!(weights.get(name), Some(value), "{name}");
    }
    let without = NesPlateau::from_preset("no-ceiling-penalty").unwrap();
    assert_eq!(without.weights().get("ceiling_penalty"), Some(0.0));
    assert_eq!(&without.weights().values()[..17], &weights.values()[..17]);
    // The low stack: the published weights with two changed, by name.
    let low = NesPlateau::from_preset("low-stack").unwrap();
    for (index, name) in FEATURE_NAMES.iter().enumerate() {
        let expected = match *name {
            "lock_height" => 2.0 * 1.701233676909959200,
            "column_heights" => 0.0,
            _ => weights.values()[index],
        };
        assert_eq!(low.weights().get(name), Some(expected), "{name}");
    }
    assert!(matches!(
        NesPlateau::from_preset("nope"),
        Err(Error::UnknownPreset { .. })
    ));
}

#[test]
fn empty_board_anchor() {
    // Every feature is 0 except min_hole_depth, which is H = 20 without a hole; the cost is
    // that one term, 20 × 0.2898865849496105.
    let empty = Board::standard();
    let mut expected = vec![0.0; FEATURE_COUNT];
    expected[7] = 20.0;
    assert_eq!(board_features(&empty), expected);
    let chain = Chain {
        board: &empty,
        records: &[],
    };
    assert_eq!(NesPlateau::new().cost(chain), 0.2898865849496105 * 20.0);
    assert_eq!(NesPlateau::new().chain_rule(chain), ChainRule::Neutral);
}

/// The 20-row board worked out by hand in `hand_worked_board_20_rows` (rows 0..13 empty).
fn hand_board() -> Board {
    with_bottom(&[
        ".........#", // row 14
        "...#......", // row 15
        "...#....#.", // row 16
        "#...##..##", // row 17
        "#.#.#.#.#.", // row 18
        "#######.##", // row 19
    ])
}

#[test]
fn hand_worked_board_20_rows() {
    // Columns (top row t, height h = 20 − t, cells):
    //   0: rows 17–19, h 3      1: row 19, h 1        2: rows 18, 19, h 2
    //   3: rows 15, 16, 19, h 5 (gap 17–18)          4: rows 17–19, h 3
    //   5: rows 17, 19, h 3 (gap 18)                 6: rows 18, 19, h 2
    //   7: empty, h 0           8: rows 16–19, h 4
    //   9: rows 14, 17, 19, h 6 (gaps 15–16 and 18)
    // well_cells: column 1 row 18 (columns 0 and 2 both occupied) = 1; column 7 rows 18 and
    //   19 (columns 6 and 8 both occupied) = 2; no other column has both neighbours occupied
    //   above its top: 3. No column has 3: deep_wells 0.
    // holes (topmost cell of each gap): (3, 17), (5, 18), (9, 15), (9, 18): 4.
    // weighted_holes: 18 + 19 + 16 + 19 = 72.
    // depths: 17 − 15 = 2, 18 − 17 = 1, 15 − 14 = 1, 18 − 14 = 4: sum 8, min 1, max 4.
    // column_transitions (changes between vertical neighbours): 1 + 1 + 1 + 3 + 1 + 3 + 1 + 0
    //   + 1 + 5 = 17.
    // row_transitions (walls occupied, rows 14..19): 2 + 4 + 6 + 4 + 10 + 2 = 28.
    // column_heights 3+1+2+5+3+3+2+0+4+6 = 29, pile 6, spread 6 − 0 = 6.
    // occupied: 1 + 1 + 2 + 5 + 5 + 9 = 23; weighted by H − y: 6·1 + 5·1 + 4·2 + 3·5 + 2·5
    //   + 1·9 = 53.
    // bumpiness: 2 + 1 + 3 + 2 + 0 + 1 + 2 + 4 + 2 = 17. No cell on rows 0–6: ceiling 0.
    let expected = [
        0.0, 0.0, 3.0, 0.0, 4.0, 72.0, 8.0, 1.0, 4.0, 17.0, 28.0, 29.0, 6.0, 6.0, 23.0, 53.0, 17.0,
        0.0,
    ];
    assert_eq!(board_features(&hand_board()), expected);
}

#[test]
fn hand_worked_board_6_rows_with_ceiling_cells() {
    // H = 6: every row is a ceiling row and no hole means min depth 6 (not needed here:
    // there is one hole).
    let short = board(&[
        "..........", // row 0
        "#.........", // row 1
        "#..#......", // row 2
        "#..#....##", // row 3
        "##.#....#.", // row 4
        "##.##.####", // row 5
    ]);
    // Heights (6 − top row): [5, 2, 0, 4, 1, 0, 1, 1, 3, 3].
    // well_cells: column 2 rows 4, 5 (columns 1 and 3 occupied) + column 5 row 5 (columns 4
    //   and 6) = 3; deep_wells 0.
    // One hole: (9, 4) under (9, 3): weighted 4 + 1 = 5, depth 4 − 3 = 1 (min = max = 1).
    // column_transitions: 1+1+0+1+1+0+1+1+1+3 = 10.
    // row_transitions: row 0 empty 0; rows 1..5: 2 + 4 + 4 + 6 + 4 = 20.
    // column_heights 20, pile 5, spread 5. occupied 1+2+4+4+8 = 19; weighted by 6 − y:
    //   5·1 + 4·2 + 3·4 + 2·4 + 1·8 = 41. bumpiness 3+2+4+3+1+1+0+2+0 = 16.
    // ceiling: 1/2 + 2/3 + 4/4 + 4/5 + 8/6 = 43/10.
    let expected = [
        0.0, 0.0, 3.0, 0.0, 1.0, 5.0, 1.0, 1.0, 1.0, 10.0, 20.0, 20.0, 5.0, 5.0, 19.0, 41.0, 16.0,
        4.3,
    ];
    assert_eq!(board_features(&short), expected);
}

/// The Tetris chain of `placement_features_come_from_the_records`: an O resting on four
/// rows full but for column 9, then a vertical I that clears them.
fn tetris_chain_records() -> (Board, [PlacementRecord; 2]) {
    let mut board = with_bottom(&["#########."; 4]);
    // O in columns 0, 1 on rows 14, 15 (resting on row 16): its lowest pivot row on an
    // empty board is 18, so it could fall 18 − 14 = 4 rows further.
    let first = PlacementRecord::lock(&mut board, placement(Piece::O, 1, 14, 0));
    // I standing in column 9 on rows 16..19: on the floor, lock height 0; clears 4.
    let second = PlacementRecord::lock(&mut board, placement(Piece::I, 9, 18, 1));
    (board, [first, second])
}

#[test]
fn placement_features_come_from_the_records() {
    let (board, records) = tetris_chain_records();
    assert_eq!(records[0].lock_height, 4);
    assert_eq!(records[1].rows_cleared(), 4);
    // After the clear the O sits on rows 18, 19 of columns 0, 1.
    assert_eq!(board, with_bottom(&["##........", "##........"]));
    let chain = Chain {
        board: &board,
        records: &records,
    };
    // rows_cleared 0 + 4, lock_height 4 + 0. Board: no well cell (columns 0 and 1 have an
    // empty neighbour above their tops), no hole (min depth 20), column transitions 1 + 1,
    // row transitions 2 + 2, heights 2 + 2 = 4, pile 2, spread 2, 4 cells weighing
    // 2 + 2 + 1 + 1 = 6, bumpiness |2 − 0| = 2, nothing on the ceiling rows.
    let expected = [
        4.0, 4.0, 0.0, 0.0, 0.0, 0.0, 0.0, 20.0, 0.0, 2.0, 4.0, 4.0, 2.0, 2.0, 4.0, 6.0, 2.0, 0.0,
    ];
    assert_eq!(NesPlateau::feature_values(chain), expected);
    assert_eq!(NesPlateau::new().chain_rule(chain), ChainRule::Prefer);
    // Without its records the same board has no placement features.
    let alone = Chain {
        board: &board,
        records: &[],
    };
    assert_eq!(&NesPlateau::feature_values(alone)[..2], &[0.0, 0.0]);
    assert_eq!(NesPlateau::new().chain_rule(alone), ChainRule::Neutral);
}

#[test]
fn cost_is_the_weighted_sum_in_table_order_bit_for_bit() {
    let (tetris_board, tetris_records) = tetris_chain_records();
    let short = board(&["..........", "#.........", "#..#......", "#..####.##"]);
    let hand = hand_board();
    let chains = [
        Chain {
            board: &tetris_board,
            records: &tetris_records,
        },
        Chain {
            board: &hand,
            records: &tetris_records[..1],
        },
        Chain {
            board: &short,
            records: &[],
        },
    ];
    for preset in PRESETS {
        let evaluator = NesPlateau::from_preset(preset.name).unwrap();
        for chain in chains {
            let mut features = [0.0; FEATURE_COUNT];
            evaluator.features(chain, &mut features);
            let by_hand = weighted_sum_by_hand(preset.values, &features);
            assert_eq!(
                evaluator.cost(chain).to_bits(),
                by_hand.to_bits(),
                "{}",
                preset.name
            );
        }
    }
    // The ceiling term is the last one added: the published cost is the cost without it plus
    // 20 × the penalty, exactly (the first 17 partial sums are the same).
    let ceiling = Chain {
        board: &short,
        records: &[],
    };
    let penalty = ceiling_penalty(&short);
    assert!(penalty > 0.0);
    let without = NesPlateau::from_preset("no-ceiling-penalty").unwrap();
    assert_eq!(
        NesPlateau::new().cost(ceiling),
        without.cost(ceiling) + 20.0 * penalty
    );
}

/// Cell-by-cell implementations of the crate's own definitions, for the cross-check.
mod reference {
    use super::*;

    fn height(board: &Board) -> usize {
        board.height() as usize
    }

    pub fn holes(board: &Board) -> Holes {
        let mut found = Holes {
            count: 0,
            weighted: 0,
            depth_sum: 0,
            min_depth: board.height() as u32,
            max_depth: 0,
        };
        for x in 0..BOARD_WIDTH {
            let Some(top) = (0..height(board)).find(|&y| board.is_occupied(x, y)) else {
                continue;
            };
            for y in 1..height(board) {
                if !board.is_occupied(x, y) && board.is_occupied(x, y - 1) {
                    let depth = (y - top) as u32;
                    found.count += 1;
                    found.weighted += y as u32 + 1;
                    found.depth_sum += depth;
                    found.min_depth = found.min_depth.min(depth);
                    found.max_depth = found.max_depth.max(depth);
                }
            }
        }
        found
    }

    /// Σ 1/(y + 1) over occupied cells on rows 0..7, in exact rationals (numerator over 420).
    pub fn ceiling_numerator(board: &Board) -> u32 {
        let mut numerator = 0;
        for x in 0..BOARD_WIDTH {
            for y in 0..height(board).min(7) {
                if board.is_occupied(x, y) {
                    numerator += 420 / (y as u32 + 1);
                }
            }
        }
        numerator
    }

    /// The spawn region by a queue over cells, started from the empty spawn cells of the 7
    /// pieces as `Board::can_spawn` places them.
    pub fn spawn_region(board: &Board) -> Vec<Vec<bool>> {
        let mut reached = vec![vec![false; height(board)]; BOARD_WIDTH];
        let mut queue = Vec::new();
        for piece in Piece::ALL {
            for (dx, dy) in piece.cells(0) {
                let (x, y) = ((5 + dx) as usize, dy as usize);
                if !board.is_occupied(x, y) && !reached[x][y] {
                    reached[x][y] = true;
                    queue.push((x, y));
                }
            }
        }
        while let Some((x, y)) = queue.pop() {
            let mut neighbours = Vec::new();
            if x > 0 {
                neighbours.push((x - 1, y));
            }
            if x + 1 < BOARD_WIDTH {
                neighbours.push((x + 1, y));
            }
            if y > 0 {
                neighbours.push((x, y - 1));
            }
            if y + 1 < height(board) {
                neighbours.push((x, y + 1));
            }
            for (nx, ny) in neighbours {
                if !board.is_occupied(nx, ny) && !reached[nx][ny] {
                    reached[nx][ny] = true;
                    queue.push((nx, ny));
                }
            }
        }
        reached
    }
}

/// A seeded random board: height 4..=32, columns stacked to a random height with a few gaps
/// (the shape games make), sometimes with a random top (tall or towering boards, so that the
/// ceiling rules have work to do).
fn random_board(rng: &mut Pcg64Mcg) -> Board {
    let height = 4 + (rng.next_u32() % 29) as usize;
    let mut board = Board::new(height).unwrap();
    let tall = rng.next_u32() % 2 == 0;
    for x in 0..BOARD_WIDTH {
        let limit = if tall {
            height as u32 + 1
        } else {
            height as u32 / 2 + 1
        };
        let column_height = (rng.next_u32() % limit) as usize;
        for y in height - column_height..height {
            // About one cell in eight left empty: holes and overhangs.
            if rng.next_u32() % 8 != 0 {
                board.set(x, y);
            }
        }
    }
    board
}

#[test]
fn own_primitives_match_cell_by_cell_references_on_random_boards() {
    let mut rng = Pcg64Mcg::seed_from_u64(0x4E45_5350_4C41_5445);
    let mut splits = 0;
    let mut open_spawn_rows = 0;
    let mut blocked = 0;
    for _ in 0..2000 {
        let board = random_board(&mut rng);
        assert_eq!(holes(&board), reference::holes(&board), "{board:?}");
        let numerator = reference::ceiling_numerator(&board);
        assert_eq!(
            ceiling_penalty(&board),
            numerator as f64 / 420.0,
            "{board:?}"
        );
        let by_pieces = Piece::ALL.iter().any(|&piece| !board.can_spawn(piece));
        assert_eq!(blocks_a_spawn(&board), by_pieces, "{board:?}");
        blocked += usize::from(by_pieces);
        // The flood fill, cell by cell; and the split rule WITHOUT the ceiling-rows shortcut
        // gives the same answer (the shortcut only skips boards that cannot be split).
        let reached = reference::spawn_region(&board);
        let region = spawn_region(&board);
        for (x, column) in reached.iter().enumerate() {
            for (y, &cell_reached) in column.iter().enumerate() {
                assert_eq!(
                    region[x] >> y & 1 != 0,
                    cell_reached,
                    "({x}, {y}) {board:?}"
                );
            }
        }
        let split_without_shortcut = reached.iter().any(|column| !column.contains(&true));
        assert_eq!(field_is_split(&board), split_without_shortcut, "{board:?}");
        splits += usize::from(split_without_shortcut);
        let nonempty_rows = board
            .columns()
            .iter()
            .fold(0, |rows, &column| rows | column);
        open_spawn_rows += usize::from(
            touches_ceiling_rows(&board)
                && !rules::split_needs_flood(nonempty_rows, board.row_mask()),
        );
    }
    // Boards the open spawn row answers without a flood were among them.
    assert!(open_spawn_rows > 20, "{open_spawn_rows}");
    // The boards exercised both answers of both rules.
    assert!(splits > 20 && splits < 1980, "{splits}");
    assert!(blocked > 20 && blocked < 1980, "{blocked}");
}

#[test]
fn the_one_pass_board_features_equal_the_shared_primitives() {
    use tetris_core::features as shared;
    let mut rng = Pcg64Mcg::seed_from_u64(0x4E45_5350_0003);
    let mut overdeep_boards = 0;
    for _ in 0..2000 {
        let board = random_board(&mut rng);
        overdeep_boards += usize::from(features::overdeep_well_cells(&board) > 0);
        let wells = shared::open_well_cells_per_column(&board);
        let expected = BoardFeatures {
            well_cells: shared::open_well_cells(&board),
            deep_wells: wells.iter().filter(|&&cells| cells >= 3).count() as u32,
            holes: holes(&board),
            column_transitions: shared::column_transitions_interior(&board),
            row_transitions: shared::row_transitions_nonempty_rows(&board),
            column_heights: shared::total_column_heights(&board),
            pile_height: shared::pile_height(&board),
            height_spread: shared::height_spread(&board),
            occupied_cells: shared::occupied_cells(&board),
            weighted_occupied_cells: shared::weighted_occupied_cells(&board),
            bumpiness: shared::bumpiness(&board),
            ceiling_penalty: ceiling_penalty(&board),
        };
        assert_eq!(features::board_features(&board), expected, "{board:?}");
        assert_eq!(
            features::board_features_and_overdeep_well_cells(&board),
            (expected, features::overdeep_well_cells(&board)),
            "{board:?}"
        );
        assert_eq!(expected.holes.count, shared::hole_runs(&board));
    }
    // Wells deeper than a Tetris were among them, and not on every board.
    assert!(
        overdeep_boards > 20 && overdeep_boards < 1980,
        "{overdeep_boards}"
    );
}

#[test]
fn cost_matches_the_weighted_sum_on_random_boards() {
    let mut rng = Pcg64Mcg::seed_from_u64(0x4E45_5350_0002);
    let evaluator = NesPlateau::new();
    for _ in 0..500 {
        let board = random_board(&mut rng);
        let chain = Chain {
            board: &board,
            records: &[],
        };
        let mut features = [0.0; FEATURE_COUNT];
        evaluator.features(chain, &mut features);
        assert_eq!(
            evaluator.cost(chain).to_bits(),
            weighted_sum_by_hand(evaluator.weights().values(), &features).to_bits()
        );
    }
}

/// `evaluator`'s cost of `board` on its own (a chain without placement records).
fn board_cost(evaluator: &NesPlateau, board: &Board) -> f64 {
    evaluator.cost(Chain {
        board,
        records: &[],
    })
}

#[test]
fn each_deep_well_beyond_the_first_costs_the_extra() {
    // Columns 0 and 5 are open wells 4 deep (the wall or their neighbours occupied on rows
    // 16–19): two deep wells. Filling column 0 leaves one, and the empty board has none.
    let two = with_bottom(&[
        ".####.####", // row 16
        ".####.####", // row 17
        ".####.####", // row 18
        ".####.####", // row 19
    ]);
    let one = with_bottom(&[
        "#####.####", // row 16
        "#####.####", // row 17
        "#####.####", // row 18
        "#####.####", // row 19
    ]);
    assert_eq!(board_features(&two)[DEEP_WELLS], 2.0);
    assert_eq!(board_features(&one)[DEEP_WELLS], 1.0);
    let plain = NesPlateau::new();
    let taxed = NesPlateau::new().with_extra_deep_well_cost(5.0);
    assert_eq!(taxed.extra_deep_well_cost(), 5.0);
    // Two deep wells: one beyond the first, 5 more; one or none: the weighted sum alone.
    assert_eq!(board_cost(&taxed, &two), board_cost(&plain, &two) + 5.0);
    for board in [one, Board::standard()] {
        assert_eq!(
            board_cost(&taxed, &board).to_bits(),
            board_cost(&plain, &board).to_bits()
        );
    }
    // The cost 0 is the plain evaluator, equal as a value too.
    assert_eq!(NesPlateau::new().with_extra_deep_well_cost(0.0), plain);
}

#[test]
fn each_well_cell_deeper_than_a_tetris_costs_the_overdeep_cost() {
    // Column 0 is an open well 6 deep (rows 14–19, its right neighbour occupied, the wall on
    // its left) and column 5 one 5 deep (rows 15–19; on row 14 its left neighbour, column 4,
    // is empty): 2 + 1 cells beyond the fourth.
    let two_deep = with_bottom(&[
        ".###..####", // row 14
        ".####.####", // row 15
        ".####.####", // row 16
        ".####.####", // row 17
        ".####.####", // row 18
        ".####.####", // row 19
    ]);
    // Two wells exactly 4 deep: nothing beyond a Tetris.
    let tetris_deep = with_bottom(&[
        ".####.####", // row 16
        ".####.####", // row 17
        ".####.####", // row 18
        ".####.####", // row 19
    ]);
    assert_eq!(overdeep_well_cells(&two_deep), 3);
    assert_eq!(overdeep_well_cells(&tetris_deep), 0);
    assert_eq!(overdeep_well_cells(&Board::standard()), 0);
    let plain = NesPlateau::new();
    let taxed = NesPlateau::new().with_overdeep_well_cost(5.0);
    assert_eq!(taxed.overdeep_well_cost(), 5.0);
    assert_eq!(
        board_cost(&taxed, &two_deep),
        board_cost(&plain, &two_deep) + 15.0
    );
    for board in [tetris_deep, Board::standard()] {
        assert_eq!(
            board_cost(&taxed, &board).to_bits(),
            board_cost(&plain, &board).to_bits()
        );
    }
    // With both costs, each adds its own: column 0 and 5 are two deep wells, so one extra.
    let both = NesPlateau::new()
        .with_extra_deep_well_cost(7.0)
        .with_overdeep_well_cost(5.0);
    assert_eq!(
        board_cost(&both, &two_deep),
        board_cost(&plain, &two_deep) + 7.0 + 15.0
    );
    assert_eq!(NesPlateau::new().with_overdeep_well_cost(0.0), plain);
}

#[test]
fn leaf_values_equal_locking_each_placement_bit_for_bit() {
    // The presets, the two well prices of the strongest bots, and random weights of either
    // sign; plain boards of every height and console boards with hidden cells, every lock
    // placement of each piece (cells above the field and line clears included), after no,
    // one and two earlier placements of the chain.
    let mut rng = Pcg64Mcg::seed_from_u64(0x4E45_5350_0004);
    let mut evaluators = PRESETS
        .iter()
        .map(|preset| NesPlateau::from_preset(preset.name).unwrap())
        .collect::<Vec<_>>();
    evaluators.push(
        NesPlateau::new()
            .with_extra_deep_well_cost(5.0)
            .with_overdeep_well_cost(3.0),
    );
    let random_weights = (0..FEATURE_COUNT)
        .map(|_| f64::from(rng.next_u32() % 2001) / 100.0 - 10.0)
        .collect::<Vec<_>>();
    evaluators.push(
        NesPlateau::from_checked_weights(
            Weights::from_values(NesPlateau::NAME, FEATURE_NAMES, &random_weights).unwrap(),
        )
        .with_extra_deep_well_cost(1.5)
        .with_overdeep_well_cost(0.5),
    );
    let mut check = tetris_fixtures::LeafCheck::default();
    // Values by rule: preferred, neutral, rejected (the discriminants are the ranks).
    let mut rules = [0; 3];
    for round in 0..300 {
        let mut board = match round {
            0 => Board::standard(),
            _ => tetris_fixtures::random_board(&mut || rng.next_u32()),
        };
        if round % 3 == 1 {
            board = board.with_hidden_rows();
            for x in 0..BOARD_WIDTH {
                if rng.next_u32() % 4 == 0 {
                    board.set_hidden(x, -1 - (rng.next_u32() % 2) as i8);
                }
            }
        }
        // The chain before the last link: none, one placement, or the two of a Tetris (the
        // rows cleared and lock heights are read from the records, so they need not have
        // been made on this board), which makes every chain that is not rejected preferred.
        let mut records = match round % 3 {
            0 => Vec::new(),
            1 => vec![tetris_chain_records().1[0]],
            _ => tetris_chain_records().1.to_vec(),
        };
        for piece in Piece::ALL {
            let placements =
                tetris_fixtures::shuffled_lock_placements(&board, piece, &mut || rng.next_u32());
            for evaluator in &evaluators {
                check.check(evaluator, &board, &mut records, &placements);
                for value in &check.values {
                    rules[value.rule as usize] += 1;
                }
            }
        }
    }
    assert!(check.checked > 100_000, "{check:?}");
    assert!(check.clearing > 1_000, "{check:?}");
    assert!(check.above > 1_000, "{check:?}");
    assert!(check.with_earlier > 50_000, "{check:?}");
    assert!(rules.iter().all(|&count| count > 1_000), "{rules:?}");
}
