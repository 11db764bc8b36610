//! The chain rules through a real lookahead chain (`tetris_core::chain`): each rule on a
//! position built to trigger it, and on one built not to.

use tetris_core::chain::{ChainOptions, LookaheadChain};
use tetris_core::evaluate::{
    Chain, ChainRule, Evaluator, PlacementRecord, WeightedEvaluator, Weights,
};
use tetris_core::piece::Piece;
use tetris_core::placement::{PieceState, Placement};
use tetris_core::search::{Placements, SearchOptions, Searcher};
use tetris_core::{BOARD_WIDTH, Board};
use tetris_eval_nes_plateau::{
    FEATURE_NAMES, NesPlateau, blocks_a_spawn, ceiling_penalty, field_is_split,
};

/// Every rotation at every column dropped straight down from above the field, rotation first,
/// then x: enough of a searcher to drive the chain (column drop without a spawn-row rule).
struct DropFromAbove;

impl Searcher for DropFromAbove {
    fn name(&self) -> &str {
        "drop-from-above"
    }

    fn search(
        &mut self,
        board: &Board,
        piece: Piece,
        options: SearchOptions,
        out: &mut Placements,
    ) {
        out.clear(options.with_paths);
        if !board.can_spawn(piece) {
            return;
        }
        for rotation in 0..piece.orientation_count() {
            for x in 0..BOARD_WIDTH as i8 {
                // Every orientation lies within 2 rows above its pivot.
                let above = PieceState { x, y: -2, rotation };
                if board.fits(piece, above) {
                    let y = board.drop_row(piece, above);
                    out.push(Placement::new(piece, PieceState { y, ..above }));
                }
            }
        }
    }
}

/// A 20-row board whose bottom rows are `bottom` (top first), empty above.
fn with_bottom(bottom: &[&str]) -> Board {
    Board::from_bottom_rows(bottom, 20).expect("test board")
}

/// The board after playing `placements` on `board`, and their records.
fn play(board: &Board, placements: &[Placement]) -> (Board, Vec<PlacementRecord>) {
    let mut board = *board;
    let records = placements
        .iter()
        .map(|&placement| PlacementRecord::lock(&mut board, placement))
        .collect();
    (board, records)
}

/// Weights for this evaluator: every feature 0 except those named.
fn only(weights: &[(&str, f64)]) -> NesPlateau {
    let values: Vec<f64> = FEATURE_NAMES
        .iter()
        .map(|name| {
            weights
                .iter()
                .find(|(weighted, _)| weighted == name)
                .map_or(0.0, |&(_, value)| value)
        })
        .collect();
    NesPlateau::with_weights(
        Weights::from_values(NesPlateau::NAME, FEATURE_NAMES, &values).unwrap(),
    )
    .unwrap()
}

#[test]
fn greedy_tetris_by_the_current_piece_beats_cheaper_chains() {
    // Four rows full but for column 9; current I, next O.
    let board = with_bottom(&["#########."; 4]);
    let evaluator = NesPlateau::new();
    let mut chain = LookaheadChain::new(ChainOptions::with_depth(2));
    let choice = chain
        .best(
            &mut DropFromAbove,
            &evaluator,
            &board,
            &[Piece::I, Piece::O],
        )
        .unwrap();
    assert!(choice.is_preferred());
    let best = chain.best_chain().to_vec();
    assert_eq!(
        (best[0].piece, best[0].x, best[0].rotation),
        (Piece::I, 9, 1)
    );
    let (_, records) = play(&board, &best);
    assert_eq!(records[0].rows_cleared(), 4);
    // The rule, not the cost, chose it: clearing 36 cells raises the cost (occupied_cells
    // weighs −2.65 each), and some chain without a Tetris costs less.
    let cheaper_neutral = chain.first_placement_values().iter().any(|entry| {
        entry
            .value
            .is_some_and(|value| value.rule == ChainRule::Neutral && value.cost < choice.cost())
    });
    assert!(cheaper_neutral);
}

#[test]
fn greedy_tetris_by_the_next_piece_keeps_the_well_open() {
    // Current O, next I: the O must leave column 9 open so that the I clears four.
    let board = with_bottom(&["#########."; 4]);
    let mut chain = LookaheadChain::new(ChainOptions::with_depth(2));
    let choice = chain
        .best(
            &mut DropFromAbove,
            &NesPlateau::new(),
            &board,
            &[Piece::O, Piece::I],
        )
        .unwrap();
    assert!(choice.is_preferred());
    let best = chain.best_chain().to_vec();
    assert!(best[0].cells.iter().all(|&(x, _)| x != 9), "{best:?}");
    let (_, records) = play(&board, &best);
    assert_eq!(records[0].rows_cleared(), 0);
    assert_eq!(records[1].rows_cleared(), 4);
}

#[test]
fn no_tetris_in_reach_means_no_preference() {
    // Three rows full but for column 9: an I there clears 3, not 4.
    let board = with_bottom(&["#########."; 3]);
    let mut chain = LookaheadChain::new(ChainOptions::with_depth(2));
    let choice = chain
        .best(
            &mut DropFromAbove,
            &NesPlateau::new(),
            &board,
            &[Piece::I, Piece::O],
        )
        .unwrap();
    assert_eq!(choice.value.rule, ChainRule::Neutral);
    assert!(chain.first_placement_values().iter().all(|entry| {
        entry
            .value
            .is_some_and(|value| value.rule == ChainRule::Neutral)
    }));
}

#[test]
fn spawn_safety_rejects_the_cheapest_chain() {
    // Column 5 is filled from row 3 to the floor. With a weight that rewards only pile height,
    // the cheapest I is vertical on column 5 (rows 0..2 kept, pile 20), which blocks the
    // spawn cells (5, 0) and (5, 1); the rule makes the chain take the best other one.
    let mut rows = vec![".....#...."; 20];
    rows[0] = "..........";
    rows[1] = "..........";
    rows[2] = "..........";
    let board = Board::from_rows(&rows).unwrap();
    let greedy_for_height = only(&[("pile_height", -1.0)]);
    let mut chain = LookaheadChain::new(ChainOptions::default());
    let choice = chain
        .best(&mut DropFromAbove, &greedy_for_height, &board, &[Piece::I])
        .unwrap();
    assert!(!choice.value.is_rejected());
    let (after, _) = play(&board, &[choice.placement]);
    assert!(!blocks_a_spawn(&after));
    // A horizontal I on row 2 over column 5 makes the pile 18; nothing not rejected does
    // better.
    assert_eq!(choice.cost(), -18.0);
    let rejected_cheaper = chain.first_placement_values().iter().any(|entry| {
        entry
            .value
            .is_some_and(|value| value.is_rejected() && value.cost < choice.cost())
    });
    assert!(rejected_cheaper);
    // The vertical I on column 5 is that rejected chain.
    let vertical = chain
        .first_placement_values()
        .iter()
        .find(|entry| entry.placement.rotation == 1 && entry.placement.x == 5)
        .unwrap();
    assert_eq!(vertical.value.unwrap().rule, ChainRule::Reject);
    assert_eq!(vertical.value.unwrap().cost, -20.0);
}

#[test]
fn a_field_that_stays_open_is_not_rejected() {
    // Column 5 filled from row 6 down: a vertical I on it ends on row 2, below the spawn
    // cells, and the field stays connected through rows 0, 1: no rule fires, the tallest
    // pile wins.
    let mut rows = vec![".....#...."; 20];
    for row in rows.iter_mut().take(6) {
        *row = "..........";
    }
    let board = Board::from_rows(&rows).unwrap();
    let mut chain = LookaheadChain::new(ChainOptions::default());
    let choice = chain
        .best(
            &mut DropFromAbove,
            &only(&[("pile_height", -1.0)]),
            &board,
            &[Piece::I],
        )
        .unwrap();
    assert_eq!(choice.value.rule, ChainRule::Neutral);
    assert_eq!((choice.placement.x, choice.placement.rotation), (5, 1));
    assert_eq!(choice.cost(), -18.0);
}

#[test]
fn no_split_field_rejects_the_cheapest_chain() {
    // Column 2 is filled from row 4 to the floor. The cheapest I for pile height is vertical
    // on column 2 (rows 0..3, pile 20): column 2 is then full from row 0 down and walls off
    // columns 0 and 1 from the spawn area. The spawn cells stay free, so only rule 4 can
    // reject it.
    let mut rows = vec!["..#......."; 20];
    for row in rows.iter_mut().take(4) {
        *row = "..........";
    }
    let board = Board::from_rows(&rows).unwrap();
    let wall = Placement::new(
        Piece::I,
        PieceState {
            x: 2,
            y: 2,
            rotation: 1,
        },
    );
    let (walled, records) = play(&board, &[wall]);
    assert!(!blocks_a_spawn(&walled));
    assert!(field_is_split(&walled));
    let evaluator = only(&[("pile_height", -1.0)]);
    assert_eq!(
        evaluator.chain_rule(Chain {
            board: &walled,
            records: &records,
        }),
        ChainRule::Reject
    );

    let mut chain = LookaheadChain::new(ChainOptions::default());
    let choice = chain
        .best(&mut DropFromAbove, &evaluator, &board, &[Piece::I])
        .unwrap();
    assert!(!choice.value.is_rejected());
    assert_ne!(choice.placement, wall);
    let (after, _) = play(&board, &[choice.placement]);
    assert!(!field_is_split(&after));
    // The best open field: a horizontal I on row 3 across column 2, pile 17.
    assert_eq!(choice.cost(), -17.0);
    assert_eq!(choice.placement.rotation, 0);
}

#[test]
fn the_ceiling_penalty_steers_away_from_the_top_rows() {
    // Column 0 filled from row 8 down. Rewarding pile height alone, the I stands on column 0
    // (rows 4..7, pile 16), three of its cells on ceiling rows 4, 5, 6. With the ceiling
    // penalty weighted 20, those cells cost 20 × (1/5 + 1/6 + 1/7) ≈ 10.2, more than the 3
    // rows of pile they gain over a flat I on row 7 (pile 13, no ceiling cell).
    let mut rows = vec!["#........."; 20];
    for row in rows.iter_mut().take(8) {
        *row = "..........";
    }
    let board = Board::from_rows(&rows).unwrap();
    let mut chain = LookaheadChain::new(ChainOptions::default());
    let tall = chain
        .best(
            &mut DropFromAbove,
            &only(&[("pile_height", -1.0)]),
            &board,
            &[Piece::I],
        )
        .unwrap();
    let (after_tall, _) = play(&board, &[tall.placement]);
    assert_eq!(tall.cost(), -16.0);
    assert!(ceiling_penalty(&after_tall) > 0.0);

    let calm = chain
        .best(
            &mut DropFromAbove,
            &only(&[("pile_height", -1.0), ("ceiling_penalty", 20.0)]),
            &board,
            &[Piece::I],
        )
        .unwrap();
    let (after_calm, _) = play(&board, &[calm.placement]);
    assert_eq!(ceiling_penalty(&after_calm), 0.0);
    assert_eq!(calm.cost(), -13.0);
}
