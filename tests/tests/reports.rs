//! A report of every first placement's best chain ([`LookaheadChain::analyze_all`], and
//! [`LookaheadChain::best_in`], what `arena analyze` and the reaction planner call) whose
//! later pieces' values come with stand-ins ([`Evaluator::last_link_values_of_searches`])
//! equals the report made of exact values: the same values to the last bit, the same choice
//! and the same best chain.
//!
//! Two pairs are checked: the test evaluator wrapped so that it gives the most aggressive
//! stand-ins the contract allows, on integer costs where ties are common and with chain rules
//! that reject or prefer, against the plain test evaluator; and the registered NES-plateau
//! strategies as played (their evaluator's stand-ins) against the same evaluator wrapped so
//! that every value is exact.

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use tetris_core::chain::{ChainOptions, LookaheadChain};
use tetris_core::{Board, Chain, ChainRule, DecisionContext, Evaluator, Piece, Searcher};
use tetris_fixtures::TestEvaluator;
use tetris_registry::Strategy;
use tetris_search_bfs::Bfs;
use tetris_search_column_drop::ColumnDrop;
use tetris_tests::grow_board;

use crate::wrappers::{AggressiveStandIns, ExactValues};

/// Rejects chains whose last placement is in column 0, prefers those in column 9.
fn edges(chain: Chain<'_>) -> ChainRule {
    match chain.records.last().map(|record| record.placement.x) {
        Some(0) => ChainRule::Reject,
        Some(9) => ChainRule::Prefer,
        _ => ChainRule::Neutral,
    }
}

/// Analyses `pieces` from `board` with both evaluators, one window of `depth` pieces at a
/// time (the choice played), checking that the reports, choices and best chains are equal;
/// returns the decisions compared.
fn analyse_and_compare<S: Searcher + ?Sized, A: Evaluator + ?Sized, B: Evaluator + ?Sized>(
    searcher: &mut S,
    with_stand_ins: &A,
    exact: &B,
    options: &ChainOptions,
    mut board: Board,
    pieces: &[Piece],
) -> usize {
    let mut first = LookaheadChain::new(options.clone());
    let mut second = LookaheadChain::new(options.clone());
    let mut compared = 0;
    for start in 0..pieces.len() {
        let window = &pieces[start..(start + options.depth).min(pieces.len())];
        let report = first
            .analyze_all(searcher, with_stand_ins, &board, window)
            .to_vec();
        assert_eq!(
            report,
            second.analyze_all(searcher, exact, &board, window),
            "report {start} on\n{board}"
        );
        let context = DecisionContext::default();
        let chosen = first.best_in(searcher, with_stand_ins, &board, window, context);
        assert_eq!(
            chosen,
            second.best_in(searcher, exact, &board, window, context),
            "choice {start} on\n{board}"
        );
        assert_eq!(
            first.best_chain(),
            second.best_chain(),
            "best chain {start}"
        );
        let Some(choice) = chosen else {
            break;
        };
        compared += 1;
        board.lock(choice.placement.piece, choice.placement.state());
    }
    compared
}

#[test]
fn reports_with_the_most_aggressive_stand_ins_equal_exact_reports() {
    let mut rng = Pcg64Mcg::seed_from_u64(0x2E9027);
    let pairs = [
        (
            AggressiveStandIns(TestEvaluator::new()),
            TestEvaluator::new(),
        ),
        (
            AggressiveStandIns(TestEvaluator::without_holes()),
            TestEvaluator::without_holes(),
        ),
        (
            AggressiveStandIns(TestEvaluator::with_rule(edges)),
            TestEvaluator::with_rule(edges),
        ),
    ];
    let mut compared = 0;
    for round in 0..24 {
        let (with_stand_ins, exact) = &pairs[round % pairs.len()];
        // Depth 1 too: its report is every leaf, which must stay exact.
        let mut options = ChainOptions::with_depth(1 + round % 3);
        options.no_suicide = round % 4 == 1;
        let board = grow_board(rng.next_u64(), 4 + round / 2, 16);
        let pieces: Vec<Piece> = (0..20)
            .map(|_| Piece::ALL[rng.next_u32() as usize % 7])
            .collect();
        let (mut column_drop, mut bfs) = (ColumnDrop::new(), Bfs::new());
        let searcher: &mut dyn Searcher = if round % 2 == 0 {
            &mut column_drop
        } else {
            &mut bfs
        };
        compared += analyse_and_compare(searcher, with_stand_ins, exact, &options, board, &pieces);
    }
    assert!(compared >= 200, "{compared} decisions");
}

#[test]
fn registered_nes_plateau_reports_equal_exact_reports() {
    let names = [
        "column-drop+nes-plateau@2",
        "bfs+nes-plateau:low-stack,overdeep-wells=3,extra-deep-wells=5@2",
        "gamepad+nes-plateau,extra-deep-wells=5@2",
    ];
    let mut rng = Pcg64Mcg::seed_from_u64(0x9E9027);
    let mut compared = 0;
    for name in names {
        let mut strategy = Strategy::from_name(name).expect("a registered strategy");
        let options = strategy.chain().options().clone();
        let (searcher, evaluator, _) = strategy.parts_mut();
        let board = grow_board(rng.next_u64(), 8, 20);
        let pieces: Vec<Piece> = (0..40)
            .map(|_| Piece::ALL[rng.next_u32() as usize % 7])
            .collect();
        let exact = ExactValues(evaluator);
        let played = analyse_and_compare(searcher, evaluator, &exact, &options, board, &pieces);
        assert!(played >= 20, "{name}: {played} decisions");
        compared += played;
    }
    assert!(compared >= 60, "{compared} decisions");
}
