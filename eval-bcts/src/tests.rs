use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use tetris_core::{
    ChainOptions, ChainRule, LookaheadChain, Piece, PieceState, Placement, PlacementRecord,
    Searcher,
};
use tetris_search_drop::DropFromAbove;

use super::*;

/// A board `height` rows tall whose bottom rows are `bottom` (top first), empty above.
fn with_bottom(bottom: &[&str], height: usize) -> Board {
    Board::from_bottom_rows(bottom, height).expect("test board")
}

/// The features of `board` after the placements `records` (last one judged).
fn features_of(board: &Board, records: &[PlacementRecord]) -> [f64; FEATURE_COUNT] {
    let mut out = [f64::NAN; FEATURE_COUNT];
    Bcts::new().features(Chain { board, records }, &mut out);
    out
}

/// The eight DU features of `board` on its own.
fn du_features(board: &Board) -> [f64; DU_FEATURE_COUNT] {
    let all = features_of(board, &[]);
    std::array::from_fn(|k| all[k])
}

#[test]
fn an_open_well_and_a_covered_well_cell_both_count() {
    // 4 rows (top first; row 0 is empty):
    //   row 1  #.#.......
    //   row 2  #.####....
    //   row 3  #.##.#....
    // Heights: 3 0 3 2 2 2 0 0 0 0; wall height 3.
    // Well sums: column 1 is an open well between columns 0 and 2 on rows 1..3: 3 + 2 + 1 = 6;
    // (4, 3) is covered by (4, 2) and has (3, 3) and (5, 3) occupied: a well cell too, 1 + 0
    // below = 1. Nothing else has both neighbours occupied: 7.
    // Row transitions: row 1 "#.#......." 4, row 2 "#.####...." 4, row 3 "#.##.#...." 6, and
    // row 0 (at the wall height and above) counts 2: 16.
    // Column transitions (floor to one empty row above): columns 0, 2, 3, 5 change once
    // (into the empty cell above their top), column 4 three times (floor→(4,3) empty→(4,2)
    // occupied→(4,1) empty), columns 1, 6..9 once (floor→empty): 1·4 + 3 + 5 = 12.
    // Holes: (4, 3); hole depth: the one cell (4, 2) stacked on it; rows with holes: 1.
    let board = with_bottom(&["#.#.......", "#.####....", "#.##.#...."], 4);
    assert_eq!(
        du_features(&board),
        [0.0, 0.0, 16.0, 12.0, 1.0, 7.0, 1.0, 1.0]
    );
    // The du cost of this board, term by term in the DU file's order (landing height and
    // eroded cells are 0): 9.215815·16 + 19.77356·12 + 13.08335·1 + 10.48747·7 + 1.611863·1
    // + 24.04087·1 = 147.45304 + 237.28272 + 13.08335 + 73.41229 + 1.611863 + 24.04087
    // = 496.884133.
    let cost = Bcts::new().cost(Chain {
        board: &board,
        records: &[],
    });
    assert!((cost - 496.884133).abs() < 1e-9, "{cost}");
    let in_file_order: f64 = 0.0
        + 12.629 * 0.0
        + -6.601974 * 0.0
        + 9.215815 * 16.0
        + 19.77356 * 12.0
        + 13.08335 * 1.0
        + 10.48747 * 7.0
        + 1.611863 * 1.0
        + 24.04087 * 1.0;
    assert_eq!(cost.to_bits(), in_file_order.to_bits());
}

#[test]
fn every_empty_row_from_the_wall_height_up_counts_two_row_transitions() {
    // 6 rows, one block on the floor in column 0: wall height 1. The floor row
    // "#........." changes once inside and once into the right wall (2); rows 0..4 are at or
    // above the wall height and count 2 each (10): 12. Column transitions: column 0 changes
    // once above its block, the nine empty columns once each from the floor: 10.
    let board = with_bottom(&["#........."], 6);
    let features = features_of(&board, &[]);
    assert_eq!(features[2], 12.0);
    assert_eq!(features[3], 10.0);
    assert_eq!(features[8], 1.0);
}

#[test]
fn a_column_filled_to_the_ceiling_changes_once_at_its_top() {
    // 4 rows, column 0 occupied on all four: the walk from the floor goes through four
    // occupied cells into the empty row above the field, 1 change; the nine empty columns 1
    // each: 10 (Dellacherie with El-Tetris semantics counts 9 here). Row transitions: each row
    // "#........." counts 2, none is above the wall height (4 = H): 8. Wall height 4, column
    // heights 4 0 0 …, differences 4 0 0 ….
    let board = with_bottom(&["#.........", "#.........", "#.........", "#........."], 4);
    let features = features_of(&board, &[]);
    assert_eq!(features[2], 8.0);
    assert_eq!(features[3], 10.0);
    assert_eq!(features[8], 4.0);
    assert_eq!(&features[9..12], &[4.0, 0.0, 0.0]);
    assert_eq!(&features[19..22], &[4.0, 0.0, 0.0]);
}

#[test]
fn hole_depth_counts_the_cells_stacked_on_each_hole() {
    // 5 rows (top first; row 0 empty):
    //   row 1  ...#......
    //   row 2  ...#..#...
    //   row 3  ...#......
    //   row 4  ..........
    // Holes: (3, 4) under a stack of three (rows 1..3); (6, 3) under one cell and (6, 4) under
    // the hole (6, 3), which stacks nothing on it. Holes 3; hole depth 3 + 1 + 0 = 4; rows
    // with holes: row 3 and row 4, where the two holes (3, 4) and (6, 4) count once: 2.
    let board = with_bottom(&["...#......", "...#..#...", "...#......", ".........."], 5);
    let features = features_of(&board, &[]);
    assert_eq!(features[4], 3.0);
    assert_eq!(features[6], 4.0);
    assert_eq!(features[7], 2.0);
}

#[test]
fn a_game_ending_placement_is_judged_on_the_board_that_keeps_its_cells() {
    // 4 rows (top first):
    //   row 0  #########.
    //   row 1  .#########
    //   row 2  .#########
    //   row 3  .#########
    // A vertical I dropped in column 9 rests on (9, 1): its cells are rows −3..0. Row 0 is
    // then full: this arena's lock clears it and loses the three cells above the field.
    // MDPTetris's game is over, and it judges the candidate on the board that keeps all four
    // cells and clears nothing:
    //   rows −3..−1  .........#
    //   row 0        ##########
    //   rows 1..3    .#########
    // Heights: columns 0..8 are 4, column 9 is 4 + 3 = 7: wall height 7 (above H = 4).
    // Row transitions: rows −3..−1 two each (6), row 0 none, rows 1..3 two each (6), plus
    // 2·(H − wall height) = 2·(4 − 7) = −6: 6.
    // Column transitions: column 0 floor→(0,3) empty→…→(0,0) occupied→empty above: 3;
    // columns 1..8 one each (into the empty row above row 0): 8; column 9 one (above row −3):
    // 12.
    // Holes: (0, 1..3): 3. Well sums: those three cells lie between the wall and column 1:
    // 3 + 2 + 1 = 6. Hole depth: (0, 0) is stacked on the hole (0, 1): 1. Rows with holes 3.
    // Landing height: the lowest cell on row 0, 3 rows above the floor row, plus (4 − 1)/2:
    // 4.5. Eroded piece cells 0: no row is cleared.
    let mut board = with_bottom(&["#########.", ".#########", ".#########", ".#########"], 4);
    let placement = Placement::new(
        Piece::I,
        PieceState {
            x: 9,
            y: -1,
            rotation: 1,
        },
    );
    assert!(placement.is_lock_placement_on(&board));
    let record = PlacementRecord::lock(&mut board, placement);
    assert_eq!(record.lock.rows_cleared, 1);
    assert_eq!(record.lock.cells_above_top, 3);
    let features = features_of(&board, &[record]);
    assert_eq!(
        &features[..9],
        &[4.5, 0.0, 6.0, 12.0, 3.0, 6.0, 1.0, 3.0, 7.0]
    );
    assert_eq!(
        &features[9..19],
        &[4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 7.0]
    );
    assert_eq!(
        &features[19..],
        &[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 3.0]
    );
}

#[test]
fn presets_are_the_published_weights_negated() {
    // record_du: 1: −12.629, 2: 6.601974, 3: −9.215815, 4: −19.77356, 5: −13.08335,
    // 6: −10.48747, −1: −1.611863, −2: −24.04087.
    let published_du = [
        -12.629, 6.601974, -9.215815, -19.77356, -13.08335, -10.48747, -1.611863, -24.04087,
    ];
    let du = Bcts::from_preset("du").unwrap();
    assert_eq!(du, Bcts::new());
    for (k, published) in published_du.into_iter().enumerate() {
        assert_eq!(du.weights().values()[k], -published, "{}", FEATURE_NAMES[k]);
    }
    assert!(
        du.weights().values()[DU_FEATURE_COUNT..]
            .iter()
            .all(|&w| w == 0.0)
    );
    // dellacherie_initial: 1: −1, 2: 1, 3: −1, 4: −1, 5: −4, 6: −1.
    let dellacherie = Bcts::from_preset("dellacherie").unwrap();
    assert_eq!(
        dellacherie.weights().values()[..DU_FEATURE_COUNT],
        [1.0, -1.0, 1.0, 1.0, 4.0, 1.0, 0.0, 0.0]
    );
    // record_bdu, by name: a few of each kind.
    let bdu = Bcts::from_preset("bdu").unwrap();
    let weight = |name: &str| bdu.weights().get(name).unwrap();
    assert_eq!(weight("column_height_0"), 13.18725);
    assert_eq!(weight("column_height_2"), -7.622007);
    assert_eq!(weight("column_height_9"), 16.01383);
    assert_eq!(weight("height_diff_0"), -2.356909);
    assert_eq!(weight("height_diff_8"), -9.122675);
    assert_eq!(weight("wall_height"), -12.36382);
    assert_eq!(weight("holes"), 40.64);
    assert_eq!(weight("landing_height"), 43.27153);
    assert_eq!(weight("eroded_piece_cells"), 1.036039);
    assert_eq!(weight("column_transitions"), 81.00232);
    assert_eq!(weight("rows_with_holes"), 75.47524);
}

#[test]
fn the_cost_sums_in_the_weight_files_order() {
    // DU: ids 1, 2, 3, 4, 5, 6, −1, −2 — the first eight features in order.
    assert_eq!(sum_order(&DU_WEIGHTS), [0, 1, 2, 3, 4, 5, 6, 7]);
    assert_eq!(sum_order(&DELLACHERIE_WEIGHTS), [0, 1, 2, 3, 4, 5, 6, 7]);
    // BDU: heights 1–10, differences 1–9, 7, 5, 1, 2, 3, 4, 6, −1, −2.
    let names: Vec<&str> = sum_order(&BDU_WEIGHTS)
        .iter()
        .map(|&k| FEATURE_NAMES[k])
        .collect();
    assert_eq!(
        &names[..3],
        ["column_height_0", "column_height_1", "column_height_2"]
    );
    assert_eq!(names[9], "column_height_9");
    assert_eq!(names[10], "height_diff_0");
    assert_eq!(names[18], "height_diff_8");
    assert_eq!(
        &names[19..],
        [
            "wall_height",
            "holes",
            "landing_height",
            "eroded_piece_cells",
            "row_transitions",
            "column_transitions",
            "well_sums",
            "hole_depth",
            "rows_with_holes"
        ]
    );
    // The bdu cost of an empty 4-row board: features 0 except row transitions 2·4 = 8 and
    // column transitions 10, summed heights first, then 7, 5, 1, 2, 3, 4, 6, −1, −2.
    let board = Board::new(4).unwrap();
    let cost = Bcts::from_preset("bdu").unwrap().cost(Chain {
        board: &board,
        records: &[],
    });
    let mut expected = 0.0;
    for weight in &BDU_WEIGHTS[9..] {
        expected += weight * 0.0;
    }
    expected += -12.36382 * 0.0 + 40.64 * 0.0;
    expected += 43.27153 * 0.0;
    expected += 1.036039 * 0.0;
    expected += 36.93346 * 8.0;
    expected += 81.00232 * 10.0;
    assert_eq!(cost.to_bits(), expected.to_bits());
}

#[test]
fn equal_costs_keep_the_first_placement_in_the_searchers_order() {
    // On the empty floor an O against the left wall and one against the right wall have the
    // same features (landing height 0.5; each of its two rows "##........" and
    // "........##" changes twice; no hole, no well), so the same cost; the drop searcher
    // lists columns left to right and the chain keeps the first of equal costs.
    let board = Board::standard();
    let evaluator = Bcts::new();
    let placements = tetris_fixtures::drop_placements(&board, Piece::O);
    let mut values = Vec::new();
    evaluator.last_link_values(&board, &mut Vec::new(), &placements, &mut values);
    let leftmost = placements
        .iter()
        .position(|p| p.cells.iter().all(|&(x, _)| x <= 1))
        .unwrap();
    let rightmost = placements
        .iter()
        .position(|p| p.cells.iter().all(|&(x, _)| x >= 8))
        .unwrap();
    assert_eq!(values[leftmost].cost, values[rightmost].cost);
    let best = values
        .iter()
        .map(|value| value.cost)
        .fold(f64::INFINITY, f64::min);
    assert_eq!(values[leftmost].cost, best);
    let mut chain = LookaheadChain::new(ChainOptions::with_depth(1));
    let choice = chain
        .best(&mut DropFromAbove::new(), &evaluator, &board, &[Piece::O])
        .unwrap();
    assert!(
        choice.placement.cells.iter().all(|&(x, _)| x <= 1),
        "{:?}",
        choice.placement
    );
}

/// A seeded random board (`tetris_fixtures::random_board`) from `rng`.
fn random_board(rng: &mut Pcg64Mcg) -> Board {
    tetris_fixtures::random_board(&mut || rng.next_u32())
}

#[test]
fn the_one_pass_board_features_are_the_primitives_values() {
    let mut rng = Pcg64Mcg::seed_from_u64(0xBC75_0003);
    for _ in 0..2_000 {
        let board = random_board(&mut rng);
        assert_eq!(
            last_link::whole_board_values(&board),
            board_feature_values(&board),
            "{board:?}"
        );
    }
}

#[test]
fn the_tall_board_gives_the_primitives_values_inside_the_field() {
    // The game-ending board's computation (its own bit code on a taller board) against the
    // shared primitives, on boards that stay inside the field.
    let mut rng = Pcg64Mcg::seed_from_u64(0xBC75_0001);
    for _ in 0..2_000 {
        let board = random_board(&mut rng);
        assert_eq!(
            TallBoard::of_board(&board).feature_values(),
            board_feature_values(&board),
            "{board:?}"
        );
    }
}

/// Every lock placement of `piece` on `board`, shuffled from `rng`
/// (`tetris_fixtures::shuffled_lock_placements`).
fn shuffled_lock_placements(board: &Board, piece: Piece, rng: &mut Pcg64Mcg) -> Vec<Placement> {
    tetris_fixtures::shuffled_lock_placements(board, piece, &mut || rng.next_u32())
}

#[test]
fn leaf_values_equal_locking_each_placement_bit_for_bit() {
    // The presets, and weights where the sum's signs of zero matter: a landing height of 0
    // times a negative weight is −0, and `eroded_piece_cells` has weight −0.
    let mut signed_zeros = [0.0; FEATURE_COUNT];
    signed_zeros[0] = -1.0;
    signed_zeros[1] = -0.0;
    let mut evaluators = PRESETS
        .iter()
        .map(|preset| Bcts::from_preset(preset.name).unwrap())
        .collect::<Vec<_>>();
    evaluators.push(Bcts::from_checked_weights(
        Weights::from_values(Bcts::NAME, FEATURE_NAMES, &signed_zeros).unwrap(),
    ));
    let mut rng = Pcg64Mcg::seed_from_u64(0xBC75_0002);
    let mut check = tetris_fixtures::LeafCheck::default();
    for round in 0..200 {
        let board = if round == 0 {
            Board::standard()
        } else {
            random_board(&mut rng)
        };
        let mut records = Vec::new();
        for piece in Piece::ALL {
            let placements = shuffled_lock_placements(&board, piece, &mut rng);
            for evaluator in &evaluators {
                check.check(evaluator, &board, &mut records, &placements);
            }
        }
    }
    assert!(check.checked > 50_000, "{check:?}");
    assert!(check.clearing > 1_000, "{check:?}");
    assert!(check.above > 100, "{check:?}");
}

/// Whether a cell of `placement` lies at or below its column's top on `board` (tucked under
/// an overhang rather than put on the column).
fn tucked(board: &Board, placement: &Placement) -> bool {
    placement.cells.iter().any(|&(x, y)| {
        let column = board.column(x as usize);
        y >= 0 && column != 0 && y as u32 >= column.trailing_zeros()
    })
}

#[test]
fn stand_ins_are_lower_bounds_above_the_cost_to_beat_in_the_call() {
    // What `Evaluator::last_link_values_to_beat` promises: each value exact, or a neutral
    // stand-in in (cost to beat, exact cost], the cost to beat being `to_beat` or the lowest
    // exact cost given earlier in the call. On random boards, with every lock placement
    // (tucks included) shuffled and the drop search's in its order, for the presets that
    // give stand-ins and random weights that are not negative (`eroded_piece_cells`'s may
    // be); the BDU preset and negative or −0 weights give none.
    let mut rng = Pcg64Mcg::seed_from_u64(0xBC75_0004);
    let mut drop = DropFromAbove::new();
    let mut searched = tetris_core::Placements::new();
    let (mut exact, mut bounded) = (Vec::new(), Vec::new());
    let (mut checked, mut stand_ins, mut tucked_stand_ins, mut without_to_beat) = (0, 0, 0, 0);
    for round in 0..600 {
        let evaluator = match round % 4 {
            0 => Bcts::new(),
            1 => Bcts::from_preset("dellacherie").unwrap(),
            2 => Bcts::from_preset("bdu").unwrap(),
            _ => {
                let mut weights = [0.0; FEATURE_COUNT];
                for weight in &mut weights[..DU_FEATURE_COUNT] {
                    *weight = f64::from(rng.next_u32() % 2_000) / 64.0;
                }
                weights[index::ERODED_PIECE_CELLS] *= -1.0;
                if round % 8 == 7 {
                    weights[index::HOLES] = -1.5;
                }
                // A −0 weight gives no stand-ins either: the bounds leave out the sum's
                // `0.0 +`, which would turn its −0 products into +0.
                if round % 16 == 3 {
                    weights[index::LANDING_HEIGHT] = -0.0;
                }
                Bcts::from_checked_weights(
                    Weights::from_values(Bcts::NAME, FEATURE_NAMES, &weights).unwrap(),
                )
            }
        };
        let gives = evaluator.gives_stand_ins();
        assert_eq!(
            gives,
            round % 4 != 2 && round % 8 != 7 && round % 16 != 3,
            "round {round}"
        );
        let board = if round == 0 {
            Board::standard()
        } else {
            random_board(&mut rng)
        };
        let mut records = Vec::new();
        for piece in Piece::ALL {
            drop.search(
                &board,
                piece,
                tetris_core::SearchOptions::default(),
                &mut searched,
            );
            for placements in [
                shuffled_lock_placements(&board, piece, &mut rng),
                searched.as_slice().to_vec(),
            ] {
                evaluator.last_link_values(&board, &mut records, &placements, &mut exact);
                let costs = exact.iter().map(|value: &LinkValue| value.cost);
                let cheapest = costs.clone().fold(f64::INFINITY, f64::min);
                let pick = costs
                    .clone()
                    .nth(rng.next_u32() as usize % placements.len().max(1));
                let to_beat = match rng.next_u32() % 4 {
                    0 => cheapest,
                    1 => pick.unwrap_or(f64::INFINITY),
                    _ => f64::INFINITY,
                };
                evaluator.last_link_values_to_beat(
                    &board,
                    &mut records,
                    &placements,
                    to_beat,
                    &mut bounded,
                );
                assert_eq!(bounded.len(), placements.len());
                let mut beat = to_beat;
                for ((value, whole), placement) in bounded.iter().zip(&exact).zip(&placements) {
                    checked += 1;
                    assert_eq!(whole.rule, ChainRule::Neutral);
                    if value.rule == whole.rule && value.cost.to_bits() == whole.cost.to_bits() {
                        beat = beat.min(value.cost);
                        continue;
                    }
                    assert!(
                        gives
                            && value.rule == ChainRule::Neutral
                            && beat < value.cost
                            && value.cost <= whole.cost,
                        "{placement:?} on\n{board}\nto beat {to_beat} ({beat} in the call), \
                         given {value:?}, exact {whole:?}"
                    );
                    stand_ins += 1;
                    tucked_stand_ins += usize::from(tucked(&board, placement));
                    without_to_beat += usize::from(to_beat == f64::INFINITY);
                }
            }
        }
    }
    assert!(checked > 100_000, "{checked}");
    assert!(stand_ins > 20_000, "{stand_ins}");
    assert!(tucked_stand_ins > 500, "{tucked_stand_ins}");
    assert!(without_to_beat > 5_000, "{without_to_beat}");
}
