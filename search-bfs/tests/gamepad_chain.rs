//! The lookahead chain over the gamepad search decides exactly as it did when every piece took
//! the ordered search: since issue 31 the chain's later pieces take the unordered flood
//! (`Searcher::search_unordered`), whose order differs, and the chain walks a tied best chain
//! again in the ordered search's order. Choices, best chains and the per-placement report
//! are compared with a searcher that only has the ordered search, on random stacks, at the
//! plateau's timings and both input models, under both game-over rules, with and without the
//! entry delay, at depths 2 and 3.

use tetris_core::{
    Board, ChainOptions, DecisionContext, FrameTiming, GameOverRule, InputModel, LookaheadChain,
    Piece, Placements, SearchOptions, Searcher,
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
            assert_eq!(choice, expected, "round {round}\n{board}");
            assert_eq!(
                chain.best_chain(),
                expected_chain.best_chain(),
                "round {round}"
            );
            assert_eq!(
                chain.first_placement_values(),
                expected_chain.first_placement_values(),
                "round {round}"
            );
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
