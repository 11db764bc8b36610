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

/// The reaction planner's 7 analyses in one walk ([`LookaheadChain::analyze_with_every_next_in`])
/// equal the 7 analyses made one by one ([`LookaheadChain::analyze_all_in`] with each piece
/// next), value for value: with the NES-plateau evaluator, which values the 7 pieces' searches
/// in one call, on boards up to the top (so that the next piece is cut short or cannot spawn),
/// with and without no-suicide, under the three game-over rules, with a frame-search and a
/// spawn searcher; and with an evaluator that takes one search at a time (the 7 analyses).
#[test]
fn the_seven_previews_in_one_walk_are_the_seven_analyses() {
    use tetris_core::{GameOverRule, PlacementValue};
    use tetris_registry::{WeightsChoice, evaluator_by_name, searcher_by_name};
    let plateau = evaluator_by_name("nes-plateau", &WeightsChoice::Default)
        .unwrap()
        .unwrap();
    let one_at_a_time = TestEvaluator::with_rule(edges);
    let evaluators: [&dyn Evaluator; 2] = [&plateau, &one_at_a_time];
    assert!(plateau.values_several_searches_at_once());
    assert!(!one_at_a_time.values_several_searches_at_once());
    let rules = [
        GameOverRule::Simulation,
        GameOverRule::Console,
        GameOverRule::Literature,
    ];
    let (mut compared, mut cut_short, mut removed) = (0, 0, 0);
    for round in 0..24u64 {
        let evaluator = evaluators[usize::from(round % 8 == 7)];
        let rule = rules[round as usize % 3];
        let mut options = ChainOptions::with_depth(2);
        options.no_suicide = round % 2 == 1;
        let mut board = grow_board(round + 77, 10 + 3 * round as usize, 20);
        if rule == GameOverRule::Console {
            board = board.with_hidden_rows();
        }
        let mut searcher = searcher_by_name(if round % 4 < 2 { "gamepad" } else { "bfs" }).unwrap();
        let context = DecisionContext::with_game_over_rule(rule);
        let mut chain = LookaheadChain::new(options.clone());
        let mut one_by_one = LookaheadChain::new(options);
        for current in Piece::ALL {
            let rows = chain
                .analyze_with_every_next_in(&mut searcher, evaluator, &board, current, context)
                .to_vec();
            for (slot, next) in Piece::ALL.into_iter().enumerate() {
                let report: Vec<PlacementValue> = one_by_one
                    .analyze_all_in(&mut searcher, evaluator, &board, &[current, next], context)
                    .to_vec();
                assert_eq!(
                    rows.len(),
                    report.len(),
                    "{current} then {next} on\n{board}"
                );
                for (row, entry) in rows.iter().zip(&report) {
                    assert_eq!(row.placement, entry.placement);
                    assert_eq!(
                        row.values[slot], entry.value,
                        "{current} at {:?} then {next} under {rule:?} on\n{board}",
                        entry.placement
                    );
                    cut_short += usize::from(entry.value.is_some_and(|value| value.length == 1));
                    removed += usize::from(entry.value.is_none());
                    compared += 1;
                }
            }
        }
    }
    // 20,776 values, 6,841 chains cut short and 2,933 placements removed when written.
    assert!(compared > 15_000, "{compared} values compared");
    assert!(compared - cut_short - removed > 5_000, "few full chains");
    // Both ends of a chain near the top were met.
    assert!(cut_short > 50, "{cut_short} chains cut short");
    assert!(removed > 50, "{removed} placements removed");
}
