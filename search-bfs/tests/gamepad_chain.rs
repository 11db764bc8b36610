//! The lookahead chain over the gamepad search decides exactly as it did when every piece took
//! the ordered search: since issue 31 the chain's later pieces take the unordered flood
//! (`Searcher::search_unordered`), whose order differs, and the chain walks a tied best chain
//! again in the ordered search's order. Choices, best chains and the per-placement report
//! are compared with a searcher that only has the ordered search, on random stacks, at the
//! plateau's timings and both input models, under both game-over rules, with and without the
//! entry delay, at depths 2 and 3. The same with expectimax's finalists and playouts (each
//! finalist's chains are walked again in order only when one ties with its best); and the
//! report of `analyze_all_in`, which skips the second walk, is `best_in`'s.

use tetris_core::{
    Board, ChainChoice, ChainOptions, DecisionContext, FrameTiming, GameOverRule, InputModel,
    LookaheadChain, Piece, Placements, Playouts, SearchOptions, Searcher,
};
use tetris_fixtures::{TestEvaluator, XorShift, random_stack};
use tetris_search_bfs::Gamepad;

/// The gamepad search with only its ordered search: the chain as it was before issue 31.
struct OrderedOnly(Gamepad);

impl Searcher for OrderedOnly {
    fn name(&self) -> &str {
        "gamepad-ordered"
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

/// Asserts that a chain decided as the expected one: the same choice, best chain and report
/// (`position` names the position in the messages).
fn assert_same_decision(
    (chain, choice): (&LookaheadChain, Option<ChainChoice>),
    (expected_chain, expected): (&LookaheadChain, Option<ChainChoice>),
    position: &str,
) {
    assert_eq!(choice, expected, "{position}");
    assert_eq!(
        chain.best_chain(),
        expected_chain.best_chain(),
        "{position}"
    );
    assert_eq!(
        chain.first_placement_values(),
        expected_chain.first_placement_values(),
        "{position}"
    );
}

#[test]
fn the_chain_over_the_unordered_flood_decides_as_over_the_ordered_search() {
    let evaluators = [
        TestEvaluator::with_weights(&[10.0, 1.0, -100.0]),
        TestEvaluator::with_weights(&[0.0, 1.0, -100.0]),
    ];
    let timings = [
        FrameTiming::LEVEL_19_30_HZ,
        FrameTiming {
            frames_per_row: 1,
            ..FrameTiming::LEVEL_19_30_HZ
        },
        FrameTiming {
            inputs: InputModel::Article,
            ..FrameTiming::LEVEL_19_30_HZ
        },
    ];
    let mut random = XorShift::new(0x5DEE_CE66_D1CE_4E5B);
    let mut ordered = OrderedOnly(Gamepad::new());
    let mut flooded = Gamepad::new();
    let (mut compared, mut tied) = (0, 0);
    for round in 0..40usize {
        let stack = 2 + (random.next_value() % 16) as usize;
        let board = random_stack(&mut random, stack, 45);
        let pieces = [
            Piece::ALL[(random.next_value() % 7) as usize],
            Piece::ALL[(random.next_value() % 7) as usize],
            Piece::ALL[(random.next_value() % 7) as usize],
        ];
        let rule = if round % 2 == 0 {
            GameOverRule::Simulation
        } else {
            GameOverRule::Console
        };
        let board = if rule == GameOverRule::Console {
            board.with_hidden_rows()
        } else {
            board
        };
        for (timing, evaluator) in timings
            .iter()
            .flat_map(|timing| evaluators.iter().map(move |evaluator| (timing, evaluator)))
        {
            let context = DecisionContext {
                played: tetris_core::PlayedFrames::NONE,
                frame_timing: Some(*timing),
                entry_delay: round % 5 == 0,
                game_over_rule: rule,
            };
            let depth = 2 + round % 2;
            let options = ChainOptions {
                no_suicide: round % 3 == 0,
                ..ChainOptions::with_depth(depth)
            };
            let mut expected_chain = LookaheadChain::new(options.clone());
            let expected =
                expected_chain.best_in(&mut ordered, evaluator, &board, &pieces, context);
            let mut chain = LookaheadChain::new(options);
            let choice = chain.best_in(&mut flooded, evaluator, &board, &pieces, context);
            let position = format!("round {round}\n{board}");
            assert_same_decision((&chain, choice), (&expected_chain, expected), &position);
            let Some(expected) = expected else {
                continue;
            };
            compared += 1;
            // Positions where several first placements tie with the best value: there the
            // later pieces' order could have mattered.
            let values = expected_chain.first_placement_values();
            let best = values[expected.index].value;
            tied += usize::from(values.iter().filter(|entry| entry.value == best).count() > 1);
        }
    }
    // Most positions have a move, and many tie: the comparison is not vacuous.
    assert!(compared > 150, "{compared}");
    assert!(tied >= 10, "only {tied} positions with ties");
}

/// The gamepad search, counting its ordered searches: more than one in a decision means that
/// the chain walked some chains again in order.
struct CountingOrdered {
    gamepad: Gamepad,
    ordered: usize,
}

impl Searcher for CountingOrdered {
    fn name(&self) -> &str {
        "gamepad-counting"
    }

    fn search(
        &mut self,
        board: &Board,
        piece: Piece,
        options: SearchOptions,
        out: &mut Placements,
    ) {
        self.ordered += 1;
        self.gamepad.search(board, piece, options, out)
    }

    fn search_unordered(
        &mut self,
        board: &Board,
        piece: Piece,
        options: SearchOptions,
        out: &mut Placements,
    ) {
        self.gamepad.search_unordered(board, piece, options, out)
    }

    fn unordered_search_keeps_order(&self) -> bool {
        self.gamepad.unordered_search_keeps_order()
    }
}

#[test]
fn finalists_with_playouts_decide_over_the_flood_as_over_the_ordered_search() {
    // Without holes in the cost, many chains tie on their pile height. A playout places its
    // pieces first in the searcher's unordered order among equals, which differs between the
    // two searchers by design; with the playouts' weight 0 their values add nothing, and the
    // choice, the best chain and the board the playouts start from are compared.
    let evaluator = TestEvaluator::without_holes();
    let options = ChainOptions {
        expectimax: true,
        expectimax_finalists: Some(3),
        playouts: Some(Playouts {
            pieces: 2,
            weight: 0.0,
            ..Playouts::new(3)
        }),
        ..ChainOptions::with_depth(2)
    };
    let mut random = XorShift::new(0x0DDB_A11C_0FFE_E5ED);
    let mut ordered = OrderedOnly(Gamepad::new());
    let mut flooded = CountingOrdered {
        gamepad: Gamepad::new(),
        ordered: 0,
    };
    let (mut compared, mut walked_again) = (0, 0);
    for round in 0..24usize {
        let stack = 2 + (random.next_value() % 12) as usize;
        let board = random_stack(&mut random, stack, 45);
        let pieces = [
            Piece::ALL[(random.next_value() % 7) as usize],
            Piece::ALL[(random.next_value() % 7) as usize],
        ];
        let context = DecisionContext {
            played: tetris_core::PlayedFrames::NONE,
            frame_timing: Some(FrameTiming::LEVEL_19_30_HZ),
            entry_delay: false,
            game_over_rule: GameOverRule::Simulation,
        };
        let mut expected_chain = LookaheadChain::new(options.clone());
        let expected = expected_chain.best_in(&mut ordered, &evaluator, &board, &pieces, context);
        let mut chain = LookaheadChain::new(options.clone());
        flooded.ordered = 0;
        let choice = chain.best_in(&mut flooded, &evaluator, &board, &pieces, context);
        let position = format!("round {round}\n{board}");
        assert_same_decision((&chain, choice), (&expected_chain, expected), &position);
        compared += usize::from(expected.is_some());
        walked_again += usize::from(flooded.ordered > 1);

        // With the weight 0 each finalist's value is its averaged value alone: what plain
        // expectimax (no finalists) reports for that first placement; the choice is the best.
        let mut averaged = LookaheadChain::new(ChainOptions {
            expectimax: true,
            ..ChainOptions::with_depth(2)
        });
        averaged.best_in(&mut ordered, &evaluator, &board, &pieces, context);
        let finalists = chain.finalist_values();
        if let Some(choice) = choice {
            assert!(!finalists.is_empty() && finalists.len() <= 3, "{position}");
            let best = finalists
                .iter()
                .filter_map(|finalist| finalist.value)
                .reduce(|best, value| {
                    if value.is_better_than(&best) {
                        value
                    } else {
                        best
                    }
                });
            assert_eq!(best, Some(choice.value), "{position}");
        }
        for finalist in finalists {
            let report = averaged
                .first_placement_values()
                .iter()
                .find(|entry| entry.placement == finalist.placement)
                .expect("a finalist is a first placement");
            assert_eq!(finalist.value, report.value, "{position}");
        }

        // The report alone, without the second walk for ties, is the same.
        let mut plain = LookaheadChain::new(ChainOptions::with_depth(2));
        plain.best_in(&mut flooded, &evaluator, &board, &pieces, context);
        let report = plain.first_placement_values().to_vec();
        let mut reporting = LookaheadChain::new(ChainOptions::with_depth(2));
        let values = reporting.analyze_all_in(&mut flooded, &evaluator, &board, &pieces, context);
        assert_eq!(values, report.as_slice(), "round {round}");
    }
    assert!(compared > 20, "{compared}");
    // Some finalist's chains tied, and were walked again in order: not vacuous.
    assert!(
        walked_again >= 3,
        "only {walked_again} decisions walked a finalist again"
    );
}
