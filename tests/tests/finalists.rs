//! Expectimax with finalists ([`ChainOptions::expectimax_finalists`]) against two oracles
//! that know nothing of finalists: a chain without expectimax ranks the first placements
//! (its report), and a chain with plain expectimax gives every first placement's averaged
//! value (its report). With K finalists the choice must be the first placement, among the K
//! best of the first ranking (the earlier first among equals), whose averaged value is best
//! (the earlier first among equals), with that value; with K at least the number of first
//! placements, plain expectimax's choice. On random boards, for deciding and analysing
//! chains, over column-drop and BFS.

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use tetris_core::chain::{ChainOptions, ChainValue, LookaheadChain, PlacementValue};
use tetris_core::{Board, DecisionContext, Evaluator, Piece, Searcher};
use tetris_fixtures::TestEvaluator;
use tetris_search_bfs::Bfs;
use tetris_search_column_drop::ColumnDrop;
use tetris_tests::{finalists_by_hand, grow_board};

use crate::wrappers::ExactValues;

/// The index of the best value among `indices` of `report`, the earlier first among equals.
fn best_of(report: &[PlacementValue], indices: &[usize]) -> Option<usize> {
    let mut best: Option<(usize, ChainValue)> = None;
    for &index in indices {
        if let Some(value) = report[index].value
            && best.is_none_or(|(_, best)| value.is_better_than(&best))
        {
            best = Some((index, value));
        }
    }
    best.map(|(index, _)| index)
}

/// Checks one position for finalist counts 1, 2, 3, 5 and 255.
fn check<S: Searcher, E: Evaluator>(
    searcher: &mut S,
    evaluator: &E,
    board: &Board,
    pieces: &[Piece],
    depth: usize,
) -> usize {
    let context = DecisionContext::default();
    let plain = ChainOptions::with_depth(depth);
    let mut without = LookaheadChain::new(plain.clone());
    without.best_in(searcher, evaluator, board, pieces, context);
    let ranking = without.first_placement_values().to_vec();
    let mut averaged = LookaheadChain::new(ChainOptions {
        expectimax: true,
        ..plain.clone()
    });
    let plain_choice = averaged.best_in(searcher, evaluator, board, pieces, context);
    let averages = averaged.first_placement_values().to_vec();
    for count in [1usize, 2, 3, 5, 255] {
        let finalists = finalists_by_hand(&ranking, count);
        let expected = best_of(&averages, &finalists);
        let options = ChainOptions {
            expectimax: true,
            expectimax_finalists: Some(count),
            ..plain.clone()
        };
        for decide in [false, true] {
            let mut chain = LookaheadChain::new(options.clone());
            let choice = if decide {
                chain.decide_in(searcher, evaluator, board, pieces, context)
            } else {
                chain.best_in(searcher, evaluator, board, pieces, context)
            };
            assert_eq!(
                choice.map(|choice| choice.index),
                expected,
                "{count} finalists on\n{board}"
            );
            if let (Some(choice), Some(index)) = (choice, expected) {
                assert_eq!(Some(choice.value), averages[index].value);
            }
            if count >= ranking.len() {
                assert_eq!(choice, plain_choice, "every first placement a finalist");
                assert_eq!(chain.best_chain(), averaged.best_chain());
            }
            if !decide {
                // The report is the first round's: the values without the unknown piece.
                assert_eq!(chain.first_placement_values(), ranking.as_slice());
            }
        }
    }
    ranking.len()
}

#[test]
fn finalists_choose_the_best_averaged_among_the_best_without_the_unknown_piece() {
    let mut rng = Pcg64Mcg::seed_from_u64(0xF1A1);
    // Pile height alone, or rows cleared alone, tie often, also among averaged values: the
    // finalists' walk order (their first placements' order, not their rank) then decides.
    let evaluators = [
        TestEvaluator::new(),
        TestEvaluator::without_holes(),
        TestEvaluator::with_weights(&[0.0, 1.0, 0.0]),
        TestEvaluator::with_weights(&[0.0, 0.0, -100.0]),
    ];
    let mut positions = 0;
    for round in 0..48 {
        let evaluator = &evaluators[round % 4];
        let board = grow_board(rng.next_u64(), 6 + round, 12);
        let pieces: Vec<Piece> = (0..2)
            .map(|_| Piece::ALL[rng.next_u32() as usize % 7])
            .collect();
        let depth = 1 + round / 4 % 2;
        let first_placements = if round % 3 == 0 {
            check(&mut Bfs::new(), evaluator, &board, &pieces, depth)
        } else {
            check(&mut ColumnDrop::new(), evaluator, &board, &pieces, depth)
        };
        positions += usize::from(first_placements > 5);
    }
    assert!(
        positions >= 30,
        "{positions} positions with more than 5 first placements"
    );
}

/// A board with `rows` bottom rows full but for a well in column `well` (so that an I there
/// clears four rows at once), and a few random pieces on top.
fn well_board(rng: &mut Pcg64Mcg) -> Board {
    let well = rng.next_u32() as usize % 10;
    let rows = 4 + rng.next_u32() as usize % 4;
    let row: String = (0..10).map(|x| if x == well { '.' } else { '#' }).collect();
    let mut board = Board::from_bottom_rows(&vec![row; rows], 20).expect("a 20-row board");
    let mut placed = 0;
    while placed < rng.next_u32() % 4 {
        let Some(placement) = tetris_tests::random_lock_placement(&board, rng) else {
            break;
        };
        if placement
            .cells
            .iter()
            .all(|&(x, y)| x as usize != well && y >= 4)
        {
            board.lock(placement.piece, placement.state());
        }
        placed += 1;
    }
    board
}

/// Expectimax with the evaluator's three shortcuts, the NES-plateau evaluator's, chooses as
/// without them: the 7 unknown pieces valued in one call
/// ([`Evaluator::values_several_searches_at_once`]), the unknown pieces skipped after a
/// known chain that cannot be preferred once the best chain is
/// ([`Evaluator::may_prefer_after_every_piece`]), and stand-ins for the unknown and playout
/// pieces' chains that lose to an earlier one of their search
/// ([`Evaluator::last_link_values_of_searches`]; the wrapper gives every exact value). The same choice, value (to the bit) and best
/// chain, with and without no-suicide, finalists and playouts, deciding and analysing, over
/// the gamepad search on grown boards (tall ones among them, where unknown pieces are lost)
/// and boards with a well ready for a Tetris (where preferred chains are best).
#[test]
fn unknown_pieces_valued_in_one_call_choose_as_piece_by_piece() {
    use tetris_core::playout::Playouts;
    use tetris_registry::{WeightsChoice, evaluator_by_name};
    use tetris_search_bfs::Gamepad;
    let together = evaluator_by_name("nes-plateau", &WeightsChoice::Default)
        .expect("registered")
        .expect("default weights");
    assert!(together.values_several_searches_at_once());
    let alone = ExactValues(&together);
    assert!(!alone.values_several_searches_at_once());
    let mut rng = Pcg64Mcg::seed_from_u64(0x7E7);
    let mut gamepad = Gamepad::new();
    let context = DecisionContext::default();
    let (mut decisions, mut lost, mut preferred) = (0, 0, 0);
    for round in 0..160 {
        let board = if round % 4 < 2 {
            grow_board(rng.next_u64(), (rng.next_u32() % 40) as usize, 20)
        } else {
            well_board(&mut rng)
        };
        // With a well, an I among the known pieces half of the time.
        let mut pieces = [
            Piece::ALL[rng.next_u32() as usize % 7],
            Piece::ALL[rng.next_u32() as usize % 7],
        ];
        if round % 4 == 3 {
            pieces[rng.next_u32() as usize % 2] = Piece::I;
        }
        let options = ChainOptions {
            depth: 2,
            expectimax: true,
            expectimax_finalists: [None, Some(3)][round % 2],
            no_suicide: round % 3 != 0,
            prefer_bonus: [0.0, 80.0][round / 2 % 2],
            playouts: (round % 4 == 1).then(|| Playouts::new(4)),
            ..ChainOptions::default()
        };
        for decide in [false, true] {
            let (mut one_call, mut by_piece) = (
                LookaheadChain::new(options.clone()),
                LookaheadChain::new(options.clone()),
            );
            let (first, second) = if decide {
                (
                    one_call.decide_in(&mut gamepad, &together, &board, &pieces, context),
                    by_piece.decide_in(&mut gamepad, &alone, &board, &pieces, context),
                )
            } else {
                (
                    one_call.best_in(&mut gamepad, &together, &board, &pieces, context),
                    by_piece.best_in(&mut gamepad, &alone, &board, &pieces, context),
                )
            };
            assert_eq!(
                first.map(|choice| (choice.index, choice.value.cost.to_bits())),
                second.map(|choice| (choice.index, choice.value.cost.to_bits())),
                "{options:?} on\n{board}"
            );
            assert_eq!(first, second);
            assert_eq!(one_call.best_chain(), by_piece.best_chain());
            assert_eq!(
                one_call.first_placement_values(),
                by_piece.first_placement_values()
            );
            decisions += usize::from(first.is_some());
            lost += usize::from(first.is_some_and(|choice| choice.value.unknown_pieces_lost > 0));
            preferred += usize::from(first.is_some_and(|choice| choice.value.is_preferred()));
        }
    }
    // Most positions had a choice; on some of them an unknown piece was lost, and on many
    // the best chain was preferred (where the second shortcut skips chains).
    assert!(decisions >= 250, "{decisions} decisions");
    assert!(lost >= 1, "{lost} with a lost unknown piece");
    assert!(preferred >= 20, "{preferred} preferred");
}
