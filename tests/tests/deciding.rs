//! A lookahead chain that only decides ([`LookaheadChain::decide_in`], what every player
//! calls) makes the same choice as one that keeps the whole report
//! ([`LookaheadChain::best_in`], what `arena analyze` calls): the same placement, index and
//! value to the last bit, and the same best chain, although the evaluator may give it
//! stand-ins (lower bounds) instead of exact values and it walks the last decision's chain
//! first for a cost to beat.
//!
//! Two evaluators are checked: the test evaluator wrapped so that it gives the most
//! aggressive stand-ins the contract allows (just above the cost to beat, for every neutral
//! chain that costs more), on integer costs where ties are common and with chain rules that
//! reject or prefer; and every registered strategy family through the registry, as played.

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use tetris_core::chain::{ChainOptions, LookaheadChain};
use tetris_core::{Board, Chain, ChainRule, DecisionContext, Evaluator, Piece, Searcher};
use tetris_fixtures::TestEvaluator;
use tetris_registry::Strategy;
use tetris_search_bfs::Bfs;
use tetris_search_column_drop::ColumnDrop;
use tetris_tests::grow_board;

use crate::wrappers::AggressiveStandIns;

/// Rejects chains whose first placement is in column 0, prefers those in column 9.
fn edges(chain: Chain<'_>) -> ChainRule {
    match chain.records[0].placement.x {
        0 => ChainRule::Reject,
        9 => ChainRule::Prefer,
        _ => ChainRule::Neutral,
    }
}

/// Plays `pieces` from `board` with a deciding chain, checking every decision against a
/// chain that keeps the report; returns the decisions checked.
fn play_and_compare<S: Searcher, E: Evaluator>(
    searcher: &mut S,
    evaluator: &E,
    options: &ChainOptions,
    mut board: Board,
    pieces: &[Piece],
) -> usize {
    let mut deciding = LookaheadChain::new(options.clone());
    let mut analysing = LookaheadChain::new(options.clone());
    let mut decisions = 0;
    for start in 0..pieces.len() {
        let window = &pieces[start..(start + options.depth).min(pieces.len())];
        let context = DecisionContext::default();
        let decided = deciding.decide_in(searcher, evaluator, &board, window, context);
        let analysed = analysing.best_in(searcher, evaluator, &board, window, context);
        assert_eq!(decided, analysed, "decision {start} on\n{board}");
        assert_eq!(
            deciding.best_chain(),
            analysing.best_chain(),
            "best chain {start}"
        );
        assert!(deciding.first_placement_values().is_empty());
        let Some(choice) = decided else {
            break;
        };
        decisions += 1;
        board.lock(choice.placement.piece, choice.placement.state());
    }
    decisions
}

#[test]
fn aggressive_stand_ins_decide_as_exact_values() {
    let mut rng = Pcg64Mcg::seed_from_u64(0xDEC1DE);
    let evaluators = [
        AggressiveStandIns(TestEvaluator::new()),
        AggressiveStandIns(TestEvaluator::without_holes()),
        AggressiveStandIns(TestEvaluator::with_rule(edges)),
    ];
    let mut decisions = 0;
    for round in 0..24 {
        let evaluator = &evaluators[round % evaluators.len()];
        let depth = 1 + round % 3;
        let mut options = ChainOptions::with_depth(depth);
        options.no_suicide = round % 4 == 1;
        let board = grow_board(rng.next_u64(), 4 + round / 2, 16);
        let pieces: Vec<Piece> = (0..30)
            .map(|_| Piece::ALL[rng.next_u32() as usize % 7])
            .collect();
        decisions += if round % 2 == 0 {
            play_and_compare(&mut ColumnDrop::new(), evaluator, &options, board, &pieces)
        } else {
            play_and_compare(&mut Bfs::new(), evaluator, &options, board, &pieces)
        };
    }
    assert!(decisions >= 300, "{decisions} decisions");
}

#[test]
fn registered_strategies_decide_as_they_analyse() {
    let names = [
        "bfs+elashi@2",
        "bfs+elashi@3",
        "bfs+elashi,no-suicide@2",
        "column-drop+elashi:published@2",
        "column-drop+elashi,expectimax@1",
        "column-drop+dellacherie@2",
        "bfs+bcts@2",
        "bfs+bcts,no-suicide@1",
        "column-drop+bcts:dellacherie@2",
        "drop+bcts,no-suicide@1",
        "drop+bcts:bdu@1",
        "column-drop+nes-plateau@2",
    ];
    let mut rng = Pcg64Mcg::seed_from_u64(0x57A7);
    let mut decisions = 0;
    for name in names {
        let mut strategy = Strategy::from_name(name).expect("a registered strategy");
        let options = strategy.chain().options().clone();
        let (searcher, evaluator, _) = strategy.parts_mut();
        let board = grow_board(rng.next_u64(), 6, 20);
        let pieces: Vec<Piece> = (0..120)
            .map(|_| Piece::ALL[rng.next_u32() as usize % 7])
            .collect();
        let played = play_and_compare(searcher, evaluator, &options, board, &pieces);
        assert!(played >= 10, "{name}: {played} decisions");
        decisions += played;
    }
    assert!(decisions >= 700, "{decisions} decisions");
}
