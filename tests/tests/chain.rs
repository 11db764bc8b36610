//! Lookahead chains over the column-drop searcher, on positions worked out by hand (and a
//! check that warmed-up column-drop and gamepad searches and chains allocate nothing).
//!
//! Column drop's placements on these boards are easy to list by hand: a piece turns at the
//! spawn row, shifts there, and drops straight down; the top rows of every board here are
//! empty, so every column a piece fits in is reached. Placement indices below are column-drop
//! order: rotation ascending, then pivot x ascending. An O (cells (x−1, y) (x, y) (x−1, y+1)
//! (x, y+1)) has one rotation and x = 1..=9, so its index is x − 1. An I has the flat rotation
//! (cells x−2..=x+1 on row y) at x = 2..=8 (indices 0..=6), then the vertical one (cells
//! (x, y−2)..=(x, y+1)) at x = 0..=9 (indices 7..=16).
//!
//! Over 600 lines on purpose: each test is a hand-worked position with its reasoning written out.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::Arc;

use tetris_core::chain::{ChainOptions, ChainValue, LookaheadChain};
use tetris_core::filter::{PatternFilter, WellFilter};
use tetris_core::{
    Board, Chain, ChainRule, DecisionContext, Evaluator, FrameTiming, InputModel, Piece,
    Placements, SearchOptions, Searcher,
};
use tetris_eval_elashi::ElAshi;
use tetris_fixtures::TestEvaluator;
use tetris_search_bfs::{Bfs, Gamepad};
use tetris_search_column_drop::ColumnDrop;

/// Counts this thread's allocations, so a test can check that a warmed-up search allocates
/// nothing (other tests run on other threads and do not disturb the count).
struct CountingAllocator;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn count_allocation() {
    let _ = ALLOCATIONS.try_with(|count| count.set(count.get() + 1));
}

unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count_allocation();
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, pointer: *mut u8, layout: Layout) {
        unsafe { System.dealloc(pointer, layout) }
    }

    unsafe fn realloc(&self, pointer: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count_allocation();
        unsafe { System.realloc(pointer, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

fn allocations() -> usize {
    ALLOCATIONS.with(Cell::get)
}

/// A 20-row board (or `height` rows) whose bottom rows are `bottom`, top first.
fn with_bottom(bottom: &[&str], height: usize) -> Board {
    Board::from_bottom_rows(bottom, height).expect("test board")
}

/// Rows 16..=19: a 2-deep notch at columns 8, 9 on top of a 3-deep well at column 9.
fn notch_over_well() -> Board {
    with_bottom(
        &["########..", "#########.", "#########.", "#########."],
        20,
    )
}

fn neutral(length: usize, cost: f64) -> Option<ChainValue> {
    Some(ChainValue {
        length,
        unknown_pieces_lost: 0,
        rule: ChainRule::Neutral,
        cost,
    })
}

fn costs(values: &[tetris_core::chain::PlacementValue]) -> Vec<Option<f64>> {
    values
        .iter()
        .map(|entry| entry.value.map(|value| value.cost))
        .collect()
}

#[test]
fn the_test_evaluator_counts_by_hand() {
    // Column 9 occupied at row 16 only: rows 17..=19 below it are 3 covered empty cells; pile
    // height 4 (row 16 is height 20 − 16 = 4).
    let board = with_bottom(
        &[".........#", "..........", "..........", ".........."],
        20,
    );
    let chain = Chain {
        board: &board,
        records: &[],
    };
    let mut out = [0.0; 3];
    TestEvaluator::new().features(chain, &mut out);
    assert_eq!(out, [3.0, 4.0, 0.0]);
}

/// Depth 1 and depth 2 disagree on `notch_over_well` with the pieces O, then I.
///
/// Depth 1, the O alone (pivot x covers columns x − 1 and x):
/// - x = 1..=7 (columns 0..=7, tops at row 16): the O rests on rows 14, 15: no hole, pile 6,
///   cost 6;
/// - x = 8 (columns 7, 8; tops at rows 16 and 17): rows 14, 15, leaving (8, 16) covered: 1 hole,
///   pile 6, cost 16;
/// - x = 9 (columns 8, 9): rows 15, 16. Row 16 becomes full and clears; the O's upper cells drop
///   to row 16, covering column 9's rows 17..=19: 3 holes, pile 4, 1 row: 30 + 4 − 100 = −66.
///
/// Depth 1 plays x = 9. But that O plugs the well: the I can then clear nothing. Keeping the O
/// out of column 9 lets the vertical I (rows 16..=19 of column 9) complete rows 17..=19: 3 rows;
/// row 16 (`########.#` with the I's top cell) drops to row 19 and the O to rows 17, 18: no
/// hole, pile 3: cost 3 − 300 = −297, the best any chain can do (only the I can clear 3 rows
/// and the O always ends above them). Every O at x = 1..=7 reaches it; the first, x = 1, wins.
#[test]
fn depth_two_sees_that_the_greedy_placement_plugs_the_well() {
    let board = notch_over_well();
    let evaluator = TestEvaluator::new();
    let pieces = [Piece::O, Piece::I];

    let mut depth_one = LookaheadChain::new(ChainOptions::with_depth(1));
    let choice = depth_one
        .best(&mut ColumnDrop::new(), &evaluator, &board, &pieces)
        .unwrap();
    assert_eq!(
        (choice.index, choice.placement.x, choice.placement.y),
        (8, 9, 15)
    );
    assert_eq!(choice.cost(), -66.0);

    let mut depth_two = LookaheadChain::new(ChainOptions::with_depth(2));
    let choice = depth_two
        .best(&mut ColumnDrop::new(), &evaluator, &board, &pieces)
        .unwrap();
    assert_eq!(
        (choice.index, choice.placement.x, choice.placement.y),
        (0, 1, 14)
    );
    assert_eq!(choice.value, neutral(2, -297.0).unwrap());
    assert!(!choice.is_preferred());
    let chain: Vec<(Piece, u8, i8, i8)> = depth_two
        .best_chain()
        .iter()
        .map(|p| (p.piece, p.rotation, p.x, p.y))
        .collect();
    assert_eq!(chain, vec![(Piece::O, 0, 1, 14), (Piece::I, 1, 9, 18)]);
}

/// The per-first-placement report (`arena analyze --all`) on the same position.
///
/// Depth 1: the costs listed above, x = 1..=9: 6 × 7, 16, −66.
/// Depth 2, best chain per O:
/// - x = 1..=7: −297 (above);
/// - x = 8: the I still completes rows 17..=19 but the hole at (8, 16) stays, now at (8, 19)
///   under the O: 1 hole, pile 3, 3 rows: 10 + 3 − 300 = −287;
/// - x = 9: after the O's clear the board is row 16 `........##` over three `#########.`
///   rows: 3 holes, pile 4. No I can clear a row (column 9 is covered); a flat I on row 16
///   over columns 0..=7 keeps pile 4 and adds no hole: 30 + 4 − 100 = −66.
#[test]
fn the_report_gives_each_first_placement_its_best_chain() {
    let board = notch_over_well();
    let evaluator = TestEvaluator::new();
    let pieces = [Piece::O, Piece::I];

    let mut depth_one = LookaheadChain::new(ChainOptions::with_depth(1));
    let report = depth_one.analyze_all(&mut ColumnDrop::new(), &evaluator, &board, &pieces);
    let xs: Vec<i8> = report.iter().map(|entry| entry.placement.x).collect();
    assert_eq!(xs, (1..=9).collect::<Vec<i8>>());
    let expected: Vec<Option<f64>> = [6.0, 6.0, 6.0, 6.0, 6.0, 6.0, 6.0, 16.0, -66.0]
        .into_iter()
        .map(Some)
        .collect();
    assert_eq!(costs(report), expected);

    let mut depth_two = LookaheadChain::new(ChainOptions::with_depth(2));
    let report = depth_two.analyze_all(&mut ColumnDrop::new(), &evaluator, &board, &pieces);
    let expected: Vec<Option<ChainValue>> = [-297.0; 7]
        .into_iter()
        .chain([-287.0, -66.0])
        .map(|cost| neutral(2, cost))
        .collect();
    let values: Vec<Option<ChainValue>> = report.iter().map(|entry| entry.value).collect();
    assert_eq!(values, expected);
}

/// Bottom row `####......`; an O at x covers columns x − 1, x:
/// - x = 1..=3 (columns within 0..=3): rows 17, 18: pile 3, cost 3;
/// - x = 4 (columns 3, 4): rests on column 3, leaving (4, 19) covered: 10 + 3 = 13;
/// - x = 5..=9: on the floor: pile 2, cost 2 — five equal chains; the first, x = 5 (index 4),
///   must win.
fn step_board() -> Board {
    with_bottom(&["####......"], 20)
}

#[test]
fn equal_chains_keep_the_first_in_searcher_order() {
    let mut chain = LookaheadChain::new(ChainOptions::default());
    let choice = chain
        .best(
            &mut ColumnDrop::new(),
            &TestEvaluator::new(),
            &step_board(),
            &[Piece::O],
        )
        .unwrap();
    assert_eq!((choice.index, choice.placement.x), (4, 5));
    assert_eq!(choice.cost(), 2.0);
    let expected: Vec<Option<f64>> = [3.0, 3.0, 3.0, 13.0, 2.0, 2.0, 2.0, 2.0, 2.0]
        .into_iter()
        .map(Some)
        .collect();
    assert_eq!(costs(chain.first_placement_values()), expected);
}

/// The first placement's pivot column, for chain rules.
fn first_x(chain: &Chain<'_>) -> i8 {
    chain.records[0].placement.x
}

#[test]
fn rejected_chains_are_skipped() {
    // Reject the O at x = 5 and 6: of the equal chains at cost 2 (x = 5..=9), x = 7 is first.
    let evaluator = TestEvaluator::with_rule(|chain| {
        if (5..=6).contains(&first_x(&chain)) {
            ChainRule::Reject
        } else {
            ChainRule::Neutral
        }
    });
    let mut chain = LookaheadChain::new(ChainOptions::default());
    let choice = chain
        .best(
            &mut ColumnDrop::new(),
            &evaluator,
            &step_board(),
            &[Piece::O],
        )
        .unwrap();
    assert_eq!((choice.index, choice.placement.x), (6, 7));
    assert_eq!(choice.value, neutral(1, 2.0).unwrap());
    // The report still shows the rejected chains, flagged.
    let report = chain.first_placement_values();
    assert_eq!(report[4].value.unwrap().rule, ChainRule::Reject);
    assert_eq!(report[4].value.unwrap().cost, 2.0);
}

#[test]
fn when_every_chain_is_rejected_the_cheapest_is_played_and_flagged() {
    let evaluator = TestEvaluator::with_rule(|_| ChainRule::Reject);
    let mut chain = LookaheadChain::new(ChainOptions::default());
    let choice = chain
        .best(
            &mut ColumnDrop::new(),
            &evaluator,
            &step_board(),
            &[Piece::O],
        )
        .unwrap();
    assert_eq!((choice.index, choice.placement.x), (4, 5));
    assert!(choice.value.is_rejected());
    assert_eq!(choice.cost(), 2.0);
}

#[test]
fn a_preferred_chain_beats_every_neutral_one_and_cost_decides_among_preferred() {
    // Prefer x = 1 (cost 3): it beats the neutral chains at cost 2.
    let evaluator = TestEvaluator::with_rule(|chain| {
        if first_x(&chain) == 1 {
            ChainRule::Prefer
        } else {
            ChainRule::Neutral
        }
    });
    let mut chain = LookaheadChain::new(ChainOptions::default());
    let choice = chain
        .best(
            &mut ColumnDrop::new(),
            &evaluator,
            &step_board(),
            &[Piece::O],
        )
        .unwrap();
    assert_eq!((choice.index, choice.placement.x), (0, 1));
    assert!(choice.is_preferred());
    assert_eq!(choice.cost(), 3.0);
    // Prefer x = 1 (cost 3) and x = 9 (cost 2): the cheaper preferred one wins.
    let evaluator = TestEvaluator::with_rule(|chain| {
        if matches!(first_x(&chain), 1 | 9) {
            ChainRule::Prefer
        } else {
            ChainRule::Neutral
        }
    });
    let choice = chain
        .best(
            &mut ColumnDrop::new(),
            &evaluator,
            &step_board(),
            &[Piece::O],
        )
        .unwrap();
    assert_eq!((choice.index, choice.placement.x), (8, 9));
    assert!(choice.is_preferred());
    assert_eq!(choice.cost(), 2.0);
}

/// A position where averaging over the 7 unknown pieces changes the O's placement. Cost =
/// pile height − 100 × rows cleared (holes weigh 0). Rows 10..=14: `#.........` (column 0 is 10
/// tall); row 15: `########..`; rows 16..=19: `#########.`.
///
/// Depth 1: only the O at x = 9 (rows 14, 15 of columns 8, 9) clears a row (row 15): pile
/// 10 − 1 = 9, cost −91; every other O leaves pile ≥ 10. It plays x = 9.
///
/// Expectimax: after the O at x = 9, column 9 is covered and row 15 needs 7 more cells: no
/// unknown piece clears anything, each keeps pile 9: the average is −91.
/// After the O at x = 2 (rows 13, 14 of columns 1, 2, out of the way), each piece's best:
/// - T, rotation 1 at (9, 15): cells (9,14) (8,15) (9,15) (9,16) complete rows 15 and 16:
///   pile 10 − 2 = 8, cost −192;
/// - J (its shapes cannot reach (9, 16) beside (8, 15)): rotation 1 at (9, 14) completes row 15
///   only: −91; Z: rotation 0 at (8, 14), cells (7,14) (8,14) (8,15) (9,15): −91; O at x = 9:
///   −91;
/// - S, rotation 1 at (8, 15): cells (8,14) (8,15) (9,15) (9,16): rows 15, 16: −192;
/// - L, rotation 1 at (9, 16): cells (8,15) (9,15) (9,16) (9,17): rows 15..=17: pile 7, −293;
/// - I, vertical at (9, 18): rows 16..=19: pile 6, −394.
///
/// Average: (−192 − 91 − 91 − 91 − 192 − 293 − 394) / 7 = −1344 / 7 = −192. The O at x = 1
/// sits on column 0 (pile 12) and averages −1330 / 7 = −190; x = 3..=7 equal x = 2, which is
/// first; x = 8 covers (8, 15) and does worse. So expectimax plays x = 2 (index 1).
#[test]
fn expectimax_averaging_changes_the_choice() {
    let mut rows = vec![".........."; 10];
    rows.extend(["#........."; 5]);
    rows.push("########..");
    rows.extend(["#########."; 4]);
    let board = Board::from_rows(&rows).unwrap();
    let evaluator = TestEvaluator::without_holes();

    let mut plain = LookaheadChain::new(ChainOptions::default());
    let choice = plain
        .best(&mut ColumnDrop::new(), &evaluator, &board, &[Piece::O])
        .unwrap();
    assert_eq!((choice.index, choice.placement.x), (8, 9));
    assert_eq!(choice.cost(), -91.0);

    let options = ChainOptions {
        expectimax: true,
        ..ChainOptions::default()
    };
    let mut averaged = LookaheadChain::new(options);
    let choice = averaged
        .best(&mut ColumnDrop::new(), &evaluator, &board, &[Piece::O])
        .unwrap();
    assert_eq!((choice.index, choice.placement.x), (1, 2));
    assert_eq!(choice.value, neutral(1, -192.0).unwrap());
    assert_eq!(averaged.best_chain().len(), 1);
    let report = averaged.first_placement_values();
    assert_eq!(report[0].value, neutral(1, -190.0));
    assert_eq!(report[8].value, neutral(1, -91.0));
}

/// A 4-row board whose floor row lacks column 6: `######.###`. Cost = pile height − 100 ×
/// rows cleared. The vertical I at x = 6 (index 7 + 6 = 13) fills column 6 rows 0..=3,
/// clears row 3 and leaves (6, 1) (6, 2) (6, 3): pile 3, cost −97. Every flat I rests on row
/// 2 (pile 2, cost 2); every other vertical I rests on row 2 with its top cell above the field
/// (pile 4, cost 4). So depth 1 plays index 13 — but (6, 1) is a spawn cell of the J and the Z.
fn spawn_trap() -> Board {
    with_bottom(&["######.###"], 4)
}

/// Expectimax: after index 13, J and Z cannot spawn (lost); T, O, S, L, I each lie low beside
/// column 6 (pile 3, no row can clear): −97 each. That chain ranks below every chain that
/// loses no piece, however cheap its survivors.
///
/// After the flat I at x = 2 (columns 0..=3, row 2) every piece spawns, and each fills (6, 3)
/// if it can, clearing row 3 (row 2 can never fill):
/// - T rotation 0 at (6, 2): cells (5,2) (6,2) (7,2) (6,3); after the clear the old row 2 is
///   the floor row and nothing is above it: pile 1, −99;
/// - J rotation 0 at (5, 2): cells (4,2) (5,2) (6,2) (6,3): −99; L rotation 0 at (7, 2): cells
///   (6,2) (7,2) (8,2) (6,3): −99;
/// - Z (rotation 1 at (6, 2): (7,1) (6,2) (7,2) (6,3)) and S (rotation 1 at (5, 2): (5,1)
///   (5,2) (6,2) (6,3)) are 3 rows tall when upright, and lying flat they would need two cells
///   of row 3: pile 2, −98 each;
/// - I: vertical at x = 6 clears row 3 and leaves 3 cells in column 6: −97;
/// - O cannot fill a 1-wide gap: it rests on rows 1, 2: pile 3, cost 3.
///
/// Sum in piece order T J Z O S L I: −99 − 99 − 98 + 3 − 98 − 99 − 97 = −587; mean −587 / 7.
#[test]
fn expectimax_never_trades_an_unknown_piece_for_cost() {
    let board = spawn_trap();
    let evaluator = TestEvaluator::without_holes();

    let mut plain = LookaheadChain::new(ChainOptions::default());
    let choice = plain
        .best(&mut ColumnDrop::new(), &evaluator, &board, &[Piece::I])
        .unwrap();
    assert_eq!(
        (choice.index, choice.placement.rotation, choice.placement.x),
        (13, 1, 6)
    );
    assert_eq!(choice.cost(), -97.0);

    let options = ChainOptions {
        expectimax: true,
        ..ChainOptions::default()
    };
    let mut averaged = LookaheadChain::new(options);
    let choice = averaged
        .best(&mut ColumnDrop::new(), &evaluator, &board, &[Piece::I])
        .unwrap();
    assert_ne!(choice.index, 13);
    assert_eq!(choice.value.unknown_pieces_lost, 0);
    let report = averaged.first_placement_values();
    assert_eq!(
        report[13].value,
        Some(ChainValue {
            length: 1,
            unknown_pieces_lost: 2,
            rule: ChainRule::Neutral,
            cost: -97.0,
        })
    );
    assert_eq!(report[0].value, neutral(1, -587.0 / 7.0));
}

#[test]
fn no_suicide_skips_placements_that_block_the_next_spawn() {
    let board = spawn_trap();
    let evaluator = TestEvaluator::without_holes();
    let no_suicide = ChainOptions {
        no_suicide: true,
        ..ChainOptions::default()
    };
    // Depth 1: the next piece is unknown, so the placement must leave all 7 spawns free.
    // Index 13 blocks J and Z; the vertical I at x = 3 covers (3, 0) (the I's spawn), at 4 and 5
    // it covers (4, 0) or (5, 0). The flat I's (cost 2) are all safe: the first, index 0, wins.
    let mut chain = LookaheadChain::new(no_suicide.clone());
    let choice = chain
        .best(&mut ColumnDrop::new(), &evaluator, &board, &[Piece::I])
        .unwrap();
    assert_eq!(
        (choice.index, choice.placement.rotation, choice.placement.x),
        (0, 0, 2)
    );
    assert_eq!(choice.cost(), 2.0);
    let skipped: Vec<usize> = chain
        .first_placement_values()
        .iter()
        .enumerate()
        .filter(|(_, entry)| entry.value.is_none())
        .map(|(index, _)| index)
        .collect();
    assert_eq!(skipped, vec![7 + 3, 7 + 4, 7 + 5, 7 + 6]);

    // Depth 2 with a J next: without the rule, index 13 starts a chain cut short (the J cannot
    // spawn), valued as the I alone; with the rule it starts none.
    let pieces = [Piece::I, Piece::J];
    let mut plain = LookaheadChain::new(ChainOptions::with_depth(2));
    let report = plain.analyze_all(&mut ColumnDrop::new(), &evaluator, &board, &pieces);
    assert_eq!(report[13].value, neutral(1, -97.0));
    let choice = plain
        .best(&mut ColumnDrop::new(), &evaluator, &board, &pieces)
        .unwrap();
    assert_ne!(choice.index, 13, "a complete chain beats one cut short");
    assert_eq!(choice.value.length, 2);
    let mut careful = LookaheadChain::new(ChainOptions {
        no_suicide: true,
        ..ChainOptions::with_depth(2)
    });
    let report = careful.analyze_all(&mut ColumnDrop::new(), &evaluator, &board, &pieces);
    assert_eq!(report[13].value, None);
}

#[test]
fn the_well_filter_keeps_the_greedy_o_out_of_the_well() {
    // On `notch_over_well`, depth 1 played the O at x = 9 (cost −66); its cells (9, 15) and
    // (9, 16) sit in the well and row 15 does not clear, so the well filter removes it, and the
    // first of the cost-6 placements, x = 1, is played.
    let options = ChainOptions {
        filter: Some(Arc::new(WellFilter::rightmost())),
        ..ChainOptions::default()
    };
    let mut chain = LookaheadChain::new(options);
    let choice = chain
        .best(
            &mut ColumnDrop::new(),
            &TestEvaluator::new(),
            &notch_over_well(),
            &[Piece::O],
        )
        .unwrap();
    assert_eq!((choice.index, choice.placement.x), (0, 1));
    assert_eq!(choice.cost(), 6.0);
    assert_eq!(chain.first_placement_values()[8].value, None);
}

#[test]
fn the_pattern_filter_only_plays_on_the_picture() {
    // The picture holds two 2 × 2 squares on the floor, columns 2, 3 and 6, 7: only the O at
    // x = 3 (index 2) and x = 7 (index 6) lie on it, both at cost 2; the first wins.
    let picture = with_bottom(&["..##..##..", "..##..##.."], 20);
    let options = ChainOptions {
        filter: Some(Arc::new(PatternFilter::new(picture))),
        ..ChainOptions::default()
    };
    let mut chain = LookaheadChain::new(options);
    let choice = chain
        .best(
            &mut ColumnDrop::new(),
            &TestEvaluator::new(),
            &Board::standard(),
            &[Piece::O],
        )
        .unwrap();
    assert_eq!((choice.index, choice.placement.x), (2, 3));
    let accepted: Vec<usize> = chain
        .first_placement_values()
        .iter()
        .enumerate()
        .filter(|(_, entry)| entry.value.is_some())
        .map(|(index, _)| index)
        .collect();
    assert_eq!(accepted, vec![2, 6]);
}

#[test]
fn a_piece_that_cannot_spawn_gives_no_choice() {
    let mut board = Board::standard();
    board.set(5, 0);
    let mut chain = LookaheadChain::new(ChainOptions::with_depth(2));
    assert!(
        chain
            .best(
                &mut ColumnDrop::new(),
                &TestEvaluator::new(),
                &board,
                &[Piece::T, Piece::I]
            )
            .is_none()
    );
    assert!(chain.first_placement_values().is_empty());
    assert!(chain.best_chain().is_empty());
}

/// A mid-game board: about 8 rows with a few holes.
fn mid_game() -> Board {
    with_bottom(
        &[
            "....#.....",
            "..####....",
            ".#.####.#.",
            ".######.##",
            "####.###.#",
            "#.#######.",
            "##.######.",
            "###.######",
        ],
        20,
    )
}

#[test]
fn warmed_up_searches_allocate_nothing() {
    let board = mid_game();
    let evaluator = TestEvaluator::new();
    let mut searcher = ColumnDrop::new();
    let mut out = Placements::new();
    let options = ChainOptions {
        expectimax: true,
        no_suicide: true,
        filter: Some(Arc::new(WellFilter::rightmost())),
        ..ChainOptions::with_depth(2)
    };
    let mut chain = LookaheadChain::new(options);
    // Warm up on the empty board, where every piece has the most placements.
    for piece in Piece::ALL {
        searcher.search(
            &Board::standard(),
            piece,
            SearchOptions::WITH_PATHS,
            &mut out,
        );
        chain.best(
            &mut searcher,
            &evaluator,
            &Board::standard(),
            &[piece, Piece::T],
        );
    }
    // The counter does see this thread's allocations.
    let before = allocations();
    std::hint::black_box(vec![0u8; 16]);
    assert_eq!(allocations() - before, 1);
    let before = allocations();
    for piece in Piece::ALL {
        searcher.search(&board, piece, SearchOptions::WITH_PATHS, &mut out);
        searcher.search(&board, piece, SearchOptions::default(), &mut out);
        let choice = chain.best(&mut searcher, &evaluator, &board, &[piece, Piece::L]);
        assert!(choice.is_some());
    }
    assert_eq!(allocations() - before, 0);
}

#[test]
fn a_warmed_up_deciding_chain_with_stand_ins_allocates_nothing() {
    // What every player calls: `decide_in`, with El-Ashi's stand-ins and the first walk through
    // the last decision's chain (each decision's preview is the next one's current piece).
    let board = mid_game();
    let evaluator = ElAshi::new();
    let mut bfs = Bfs::new();
    let mut chain = LookaheadChain::new(ChainOptions::with_depth(2));
    let context = DecisionContext::default();
    for current in Piece::ALL {
        for preview in Piece::ALL {
            chain.decide_in(
                &mut bfs,
                &evaluator,
                &Board::standard(),
                &[current, preview],
                context,
            );
            chain.decide_in(&mut bfs, &evaluator, &board, &[current, preview], context);
        }
    }
    let before = allocations();
    let mut current = Piece::T;
    for preview in Piece::ALL.into_iter().chain(Piece::ALL) {
        let choice = chain.decide_in(&mut bfs, &evaluator, &board, &[current, preview], context);
        assert!(choice.is_some());
        current = preview;
    }
    assert_eq!(allocations() - before, 0);
}

#[test]
fn a_warmed_up_gamepad_search_allocates_nothing() {
    // The gamepad search sizes its state bitset for a board height and timing once, and its
    // queue grows to the largest search; after that, searches with or without paths and
    // with or without the entry delay, and depth-2 chains over it, allocate nothing.
    let board = mid_game();
    let evaluator = TestEvaluator::new();
    let mut gamepad = Gamepad::new();
    let mut out = Placements::new();
    let mut chain = LookaheadChain::new(ChainOptions::with_depth(2));
    let delayed = SearchOptions {
        with_paths: true,
        entry_delay: true,
        frame_timing: None,
        ..SearchOptions::default()
    };
    for piece in Piece::ALL {
        gamepad.search(&Board::standard(), piece, delayed, &mut out);
        chain.best(
            &mut gamepad,
            &evaluator,
            &Board::standard(),
            &[piece, Piece::T],
        );
    }
    let before = allocations();
    for piece in Piece::ALL {
        gamepad.search(&board, piece, SearchOptions::WITH_PATHS, &mut out);
        gamepad.search(&board, piece, delayed, &mut out);
        gamepad.search(&board, piece, SearchOptions::default(), &mut out);
        assert!(
            chain
                .best(&mut gamepad, &evaluator, &board, &[piece, Piece::L])
                .is_some()
        );
    }
    assert_eq!(allocations() - before, 0);
}

#[test]
fn a_warmed_up_gamepad_chain_in_a_game_context_allocates_nothing() {
    // A game driver passes the level's timing and the entry delay with every decision; as
    // long as the timing stays the same, nothing is rebuilt and nothing allocated, whether the
    // timing is named or left to the searcher's default (which is the same one here).
    let board = mid_game();
    let evaluator = TestEvaluator::new();
    let mut gamepad = Gamepad::new();
    let mut chain = LookaheadChain::new(ChainOptions::with_depth(2));
    let contexts = [
        DecisionContext {
            frame_timing: Some(FrameTiming::LEVEL_19_30_HZ),
            entry_delay: true,
            ..DecisionContext::default()
        },
        DecisionContext {
            frame_timing: Some(FrameTiming::LEVEL_19_30_HZ),
            entry_delay: false,
            ..DecisionContext::default()
        },
        DecisionContext::default(),
    ];
    for piece in Piece::ALL {
        for context in contexts {
            chain.best_in(
                &mut gamepad,
                &evaluator,
                &Board::standard(),
                &[piece, Piece::T],
                context,
            );
        }
    }
    let before = allocations();
    for piece in Piece::ALL {
        for context in contexts {
            assert!(
                chain
                    .best_in(
                        &mut gamepad,
                        &evaluator,
                        &board,
                        &[piece, Piece::L],
                        context
                    )
                    .is_some()
            );
        }
    }
    assert_eq!(allocations() - before, 0);
}

#[test]
fn the_decision_context_sets_the_gamepad_timing_for_that_decision_only() {
    // A searcher at level 19 asked to decide at level 29 with 15 Hz taps chooses as a searcher
    // built for that speed does, and its next decision without a timing is a level-19 one again.
    let level_29 = FrameTiming {
        frames_per_row: 1,
        timeline: tetris_core::Timeline::uniform(4),
        inputs: InputModel::TwoThumb,
    };
    let context = DecisionContext {
        frame_timing: Some(level_29),
        entry_delay: false,
        ..DecisionContext::default()
    };
    let board = mid_game();
    let evaluator = TestEvaluator::new();
    let mut chain = LookaheadChain::new(ChainOptions::with_depth(2));
    let mut gamepad = Gamepad::new();
    let mut slower_choices = 0;
    for piece in Piece::ALL {
        let pieces = [piece, Piece::I];
        let in_context = chain.best_in(&mut gamepad, &evaluator, &board, &pieces, context);
        let built = chain.best(
            &mut Gamepad::with_timing(level_29),
            &evaluator,
            &board,
            &pieces,
        );
        assert_eq!(in_context, built, "{piece}");
        let default = chain.best(&mut gamepad, &evaluator, &board, &pieces);
        let level_19 = chain.best(&mut Gamepad::new(), &evaluator, &board, &pieces);
        assert_eq!(default, level_19, "{piece}");
        slower_choices += usize::from(in_context != default);
    }
    // The speed matters: some pieces choose otherwise at level 29.
    assert!(slower_choices > 0);
}

#[test]
fn every_chosen_placement_is_one_the_searcher_found() {
    // The choice's index points at its placement in a fresh search, and the chain's first
    // placement is the choice.
    let board = mid_game();
    let mut chain = LookaheadChain::new(ChainOptions::with_depth(2));
    let mut out = Placements::new();
    for piece in Piece::ALL {
        let choice = chain
            .best(
                &mut ColumnDrop::new(),
                &TestEvaluator::new(),
                &board,
                &[piece, Piece::I],
            )
            .unwrap();
        ColumnDrop::new().search(&board, piece, SearchOptions::default(), &mut out);
        assert_eq!(out.get(choice.index), Some(&choice.placement));
        assert_eq!(chain.best_chain()[0], choice.placement);
        let best_in_report: Option<(usize, ChainValue)> = chain
            .first_placement_values()
            .iter()
            .enumerate()
            .filter_map(|(index, entry)| entry.value.map(|value| (index, value)))
            .fold(None, |best, (index, value)| match best {
                Some((_, best_value)) if !value.is_better_than(&best_value) => best,
                _ => Some((index, value)),
            });
        assert_eq!(best_in_report, Some((choice.index, choice.value)));
    }
}

#[test]
fn the_chain_takes_trait_objects() {
    // The arena holds its searcher and evaluator as trait objects; the same choice comes out.
    let mut column_drop = ColumnDrop::new();
    let searcher: &mut dyn Searcher = &mut column_drop;
    let test_evaluator = TestEvaluator::new();
    let evaluator: &dyn Evaluator = &test_evaluator;
    let mut chain = LookaheadChain::new(ChainOptions::with_depth(2));
    let choice = chain
        .best(
            searcher,
            evaluator,
            &notch_over_well(),
            &[Piece::O, Piece::I],
        )
        .unwrap();
    assert_eq!((choice.index, choice.cost()), (0, -297.0));
}

/// The BFS searcher with its unordered search reversed: the same placements in yet another
/// order, so that a chain over it sees the later pieces' placements in an order unlike both
/// the BFS order and the unordered search's.
struct ReversedUnordered(tetris_search_bfs::Bfs);

impl Searcher for ReversedUnordered {
    fn name(&self) -> &str {
        "bfs-reversed"
    }

    fn search(
        &mut self,
        board: &Board,
        piece: Piece,
        options: SearchOptions,
        out: &mut Placements,
    ) {
        self.0.search(board, piece, options, out)
    }

    fn search_unordered(
        &mut self,
        board: &Board,
        piece: Piece,
        options: SearchOptions,
        out: &mut Placements,
    ) {
        let mut found = Placements::new();
        self.0.search_unordered(board, piece, options, &mut found);
        out.clear(false);
        for &placement in found.as_slice().iter().rev() {
            out.push(placement);
        }
    }

    fn unordered_search_keeps_order(&self) -> bool {
        false
    }
}

/// The BFS searcher with every search in its own (canonical) order: the chain as it was before
/// later pieces were searched unordered.
struct OrderedOnly(tetris_search_bfs::Bfs);

impl Searcher for OrderedOnly {
    fn name(&self) -> &str {
        "bfs-ordered"
    }

    fn search(
        &mut self,
        board: &Board,
        piece: Piece,
        options: SearchOptions,
        out: &mut Placements,
    ) {
        self.0.search(board, piece, options, out)
    }
}

#[test]
fn the_best_chain_does_not_depend_on_the_order_later_pieces_are_searched_in() {
    // The test evaluator without holes ties often (pile height only), so the tied best chain
    // is rebuilt in the BFS order; El-Ashi ties rarely. Either way the choice, the best chain
    // and the report are those of the chain that searches every piece in BFS order.
    let evaluators: [&dyn Evaluator; 2] = [
        &TestEvaluator::without_holes(),
        &tetris_eval_elashi::ElAshi::new(),
    ];
    let mut ordered = OrderedOnly(tetris_search_bfs::Bfs::new());
    let mut unordered = tetris_search_bfs::Bfs::new();
    let mut reversed = ReversedUnordered(tetris_search_bfs::Bfs::new());
    let mut rebuilt_ties = 0;
    for (seed, evaluator) in (0..60u64).flat_map(|seed| evaluators.map(|e| (seed, e))) {
        let board = tetris_tests::grow_board(seed, (seed % 30) as usize, 12);
        let pieces = [
            Piece::ALL[seed as usize % 7],
            Piece::ALL[(seed as usize / 7) % 7],
        ];
        let depth = 2 + (seed % 2) as usize;
        let pieces = [pieces[0], pieces[1], Piece::T];
        let mut expected_chain = LookaheadChain::new(ChainOptions::with_depth(depth));
        let expected = expected_chain.best(&mut ordered, evaluator, &board, &pieces);
        for searcher in [&mut unordered as &mut dyn Searcher, &mut reversed] {
            let mut chain = LookaheadChain::new(ChainOptions::with_depth(depth));
            let choice = chain.best(searcher, evaluator, &board, &pieces);
            assert_eq!(choice, expected, "seed {seed}");
            assert_eq!(
                chain.best_chain(),
                expected_chain.best_chain(),
                "seed {seed}"
            );
            assert_eq!(
                chain.first_placement_values(),
                expected_chain.first_placement_values(),
                "seed {seed}"
            );
        }
        // Count the positions where another chain through the chosen first placement ties
        // with the best: there the later order would have mattered.
        let best = expected_chain.first_placement_values()[expected.unwrap().index];
        let tied = expected_chain
            .first_placement_values()
            .iter()
            .filter(|entry| entry.value == best.value)
            .count();
        rebuilt_ties += usize::from(tied > 1);
    }
    assert!(
        rebuilt_ties >= 10,
        "only {rebuilt_ties} positions with ties"
    );
}

#[test]
fn a_warmed_up_bfs_chain_with_the_fast_leaf_evaluation_allocates_nothing() {
    // The unordered search of later pieces and El-Ashi's and Dellacherie's column-by-column
    // leaf values reuse the chain's buffers.
    let board = mid_game();
    let mut searcher = tetris_search_bfs::Bfs::new();
    let elashi = tetris_eval_elashi::ElAshi::new();
    let dellacherie = tetris_eval_dellacherie::Dellacherie::new();
    let evaluators: [&dyn Evaluator; 2] = [&elashi, &dellacherie];
    let mut chain = LookaheadChain::new(ChainOptions::with_depth(2));
    // Warm up on the same positions: BFS finds more placements on a board with overhangs than
    // on the empty one, so the buffers grow to the mid-game board's counts first.
    for evaluator in evaluators {
        for piece in Piece::ALL {
            chain.best(&mut searcher, evaluator, &board, &[piece, Piece::L]);
        }
    }
    let before = allocations();
    for evaluator in evaluators {
        for piece in Piece::ALL {
            let choice = chain.best(&mut searcher, evaluator, &board, &[piece, Piece::L]);
            assert!(choice.is_some());
        }
    }
    assert_eq!(allocations() - before, 0);
}
