//! Playouts after expectimax's finalists ([`ChainOptions::playouts`]) against an oracle that
//! plays them out by hand: at depth 1 a finalist's best chain is the finalist itself, so its
//! value with playouts is its averaged value (plain expectimax's report) plus the weight ×
//! the mean value of the playouts written out below (the dealt pieces in turn, each where the
//! evaluator values it best alone, the final board's cost minus the Tetris bonus, or the
//! no-placement cost). The choice must be the finalist (the K best without the unknown piece)
//! whose value so raised is best, the earlier first among equals. At depth 2, playouts that
//! weigh nothing must choose as the finalists alone do, with the same best chain. On random
//! boards, over column-drop and BFS.

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use tetris_core::chain::{ChainOptions, ChainValue, LookaheadChain};
use tetris_core::evaluate::{Chain, PlacementRecord};
use tetris_core::playout::{Playouts, deal_playout_pieces};
use tetris_core::{Board, DecisionContext, Evaluator, Piece, Placements, Searcher};
use tetris_fixtures::TestEvaluator;
use tetris_search_bfs::Bfs;
use tetris_search_column_drop::ColumnDrop;
use tetris_tests::{finalists_by_hand, grow_board};

/// One playout from `board`, written out (see the module documentation), and whether it ended
/// the game.
fn playout_by_hand<S: Searcher, E: Evaluator>(
    searcher: &mut S,
    evaluator: &E,
    mut board: Board,
    sequence: &[Piece],
    playouts: &Playouts,
) -> (f64, bool) {
    let context = DecisionContext::default();
    let mut placements = Placements::new();
    let mut tetrises = 0.0;
    for &piece in sequence {
        if !board.can_spawn(piece) {
            return (playouts.no_placement_cost, true);
        }
        searcher.search_unordered(
            &board,
            piece,
            context.later_piece_options(),
            &mut placements,
        );
        let mut best: Option<(ChainValue, Board, u8)> = None;
        for &placement in placements.iter() {
            let mut next = board;
            let record = PlacementRecord::lock(&mut next, placement);
            let chain = Chain {
                board: &next,
                records: &[record],
            };
            let value = ChainValue {
                length: 1,
                unknown_pieces_lost: 0,
                rule: evaluator.chain_rule(chain),
                cost: evaluator.cost(chain),
            };
            if best.is_none_or(|(best, _, _)| value.is_better_than(&best)) {
                best = Some((value, next, record.rows_cleared()));
            }
        }
        let Some((_, next, rows)) = best else {
            return (playouts.no_placement_cost, true);
        };
        board = next;
        if rows == 4 {
            tetrises += 1.0;
        }
    }
    let end = Chain {
        board: &board,
        records: &[],
    };
    (
        evaluator.cost(end) - playouts.tetris_bonus * tetrises,
        false,
    )
}

/// Checks one depth-1 position with 3 finalists and 8 playouts of 4 pieces weighing 1; returns whether
/// the playouts changed the choice, and how many playouts ended the game.
fn check_depth_one<S: Searcher, E: Evaluator>(
    searcher: &mut S,
    evaluator: &E,
    board: &Board,
    current: Piece,
) -> (bool, usize) {
    let context = DecisionContext::default();
    let pieces = [current];
    // Weight 1: the playouts then move choices more often than at 0.3.
    let playouts = Playouts {
        pieces: 4,
        weight: 1.0,
        ..Playouts::new(8)
    };
    let mut without = LookaheadChain::new(ChainOptions::with_depth(1));
    without.best_in(searcher, evaluator, board, &pieces, context);
    let ranking = without.first_placement_values().to_vec();
    let mut averaged = LookaheadChain::new(ChainOptions {
        expectimax: true,
        ..ChainOptions::with_depth(1)
    });
    averaged.best_in(searcher, evaluator, board, &pieces, context);
    let averages = averaged.first_placement_values().to_vec();
    let finalists = finalists_by_hand(&ranking, 3);
    let mut dealt = Vec::new();
    deal_playout_pieces(board, &pieces, playouts.count, playouts.pieces, &mut dealt);
    let mut expected: Option<(usize, ChainValue)> = None;
    let mut endings = 0;
    for &index in &finalists {
        let Some(mut value) = averages[index].value else {
            continue;
        };
        let mut end = *board;
        let placement = averages[index].placement;
        end.lock(placement.piece, placement.state());
        let mut total = 0.0;
        for sequence in dealt.chunks_exact(playouts.pieces) {
            let (value, ended) = playout_by_hand(searcher, evaluator, end, sequence, &playouts);
            total += value;
            endings += usize::from(ended);
        }
        value.cost += playouts.weight * (total / playouts.count as f64);
        if expected.is_none_or(|(_, best)| value.is_better_than(&best)) {
            expected = Some((index, value));
        }
    }
    let options = ChainOptions {
        expectimax: true,
        expectimax_finalists: Some(3),
        playouts: Some(playouts),
        ..ChainOptions::with_depth(1)
    };
    let mut plain_finalists = LookaheadChain::new(ChainOptions {
        playouts: None,
        ..options.clone()
    });
    let without_playouts = plain_finalists
        .decide_in(searcher, evaluator, board, &pieces, context)
        .map(|choice| choice.index);
    for decide in [false, true] {
        let mut chain = LookaheadChain::new(options.clone());
        let choice = if decide {
            chain.decide_in(searcher, evaluator, board, &pieces, context)
        } else {
            chain.best_in(searcher, evaluator, board, &pieces, context)
        };
        assert_eq!(
            choice.map(|choice| (choice.index, choice.value)),
            expected,
            "on\n{board}"
        );
        if !decide {
            // The report is the first round's: the values without the unknown piece.
            assert_eq!(chain.first_placement_values(), ranking.as_slice());
        }
    }
    (
        expected.map(|(index, _)| index) != without_playouts,
        endings,
    )
}

#[test]
fn playouts_add_their_weighted_mean_to_each_finalist_written_out_by_hand() {
    let mut rng = Pcg64Mcg::seed_from_u64(0x9_1A7);
    let evaluators = [TestEvaluator::new(), TestEvaluator::without_holes()];
    let (mut changed, mut endings) = (0, 0);
    for round in 0..40 {
        let evaluator = &evaluators[round % 2];
        // Piles on 16 rows, so that some playouts end the game and others do not.
        let board = grow_board(rng.next_u64(), 8 + round / 2, 16);
        let current = Piece::ALL[rng.next_u32() as usize % 7];
        let (moved, ended) = if round % 3 == 0 {
            check_depth_one(&mut Bfs::new(), evaluator, &board, current)
        } else {
            check_depth_one(&mut ColumnDrop::new(), evaluator, &board, current)
        };
        changed += usize::from(moved);
        endings += ended;
    }
    // The check must see playouts change choices and end games, or it proves little.
    // (8 choices changed and 402 of the 960 playouts ended the game when this was written.)
    assert!(changed >= 4, "{changed} choices changed by the playouts");
    assert!(endings >= 40, "{endings} playouts ended the game");
}

#[test]
fn playouts_that_weigh_nothing_choose_as_the_finalists_alone() {
    let mut rng = Pcg64Mcg::seed_from_u64(0x0_5EED);
    let evaluator = TestEvaluator::without_holes();
    let context = DecisionContext::default();
    for round in 0..12 {
        let board = grow_board(rng.next_u64(), 6 + round, 14);
        let pieces: Vec<Piece> = (0..2)
            .map(|_| Piece::ALL[rng.next_u32() as usize % 7])
            .collect();
        let finalists = ChainOptions {
            expectimax: true,
            expectimax_finalists: Some(3),
            ..ChainOptions::with_depth(2)
        };
        let weightless = ChainOptions {
            playouts: Some(Playouts {
                weight: 0.0,
                ..Playouts::new(2)
            }),
            ..finalists.clone()
        };
        let mut searchers: [Box<dyn Searcher>; 2] =
            [Box::new(ColumnDrop::new()), Box::new(Bfs::new())];
        for searcher in searchers.iter_mut() {
            let mut plain = LookaheadChain::new(finalists.clone());
            let mut played = LookaheadChain::new(weightless.clone());
            let expected = plain.decide_in(searcher.as_mut(), &evaluator, &board, &pieces, context);
            let choice = played.decide_in(searcher.as_mut(), &evaluator, &board, &pieces, context);
            assert_eq!(choice, expected, "on\n{board}");
            assert_eq!(played.best_chain(), plain.best_chain(), "on\n{board}");
        }
    }
}
