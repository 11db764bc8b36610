//! The game-over rules in the lookahead chain (docs/spec/rules.md, docs/spec/search.md §2b): under the literature
//! rule a placement that lands with a cell above row 0 ends the game; without no-suicide it is
//! scored like any other placement, with no-suicide it is skipped while another exists (and
//! the others still get their leaf values in one evaluator call, deciding exactly as one by one).

use std::sync::Arc;

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use tetris_core::chain::{ChainChoice, ChainOptions, ChainValue, LookaheadChain};
use tetris_core::{
    BOARD_WIDTH, Board, DecisionContext, GameOverRule, Piece, Placement, Placements, SearchOptions,
    Searcher,
};
use tetris_registry::{Strategy, WeightsChoice, evaluator_by_name, evaluators};

/// Columns 0..=7 filled from row 1 to the floor (19 cells each), columns 8 and 9 empty: an O
/// dropped over any of columns 0..=7 lands on row 1's cells with its cells on rows −1 and 0 —
/// above the field — and only the O over columns 8 and 9 (pivot x = 9) reaches the floor.
fn towers_and_a_gap() -> Board {
    let mut rows = vec![".........."];
    rows.extend(["########.."; 19]);
    Board::from_rows(&rows).unwrap()
}

fn literature() -> DecisionContext {
    DecisionContext::with_game_over_rule(GameOverRule::Literature)
}

#[test]
fn the_named_board_has_one_o_placement_that_stays_in_the_field() {
    let board = towers_and_a_gap();
    let mut drop = tetris_registry::searcher_by_name("drop").unwrap();
    let mut placements = Placements::new();
    drop.search(&board, Piece::O, SearchOptions::default(), &mut placements);
    // The O's pivot is its right column: x = 1..=9, in that order.
    let xs: Vec<i8> = placements.iter().map(|placement| placement.x).collect();
    assert_eq!(xs, (1..=9).collect::<Vec<i8>>());
    for placement in &placements {
        let ends = GameOverRule::Literature.placement_ends_game(placement);
        assert_eq!(ends, placement.x != 9, "{placement:?}");
        if placement.x == 9 {
            assert_eq!(
                placement.y, 18,
                "the O rests on the floor: cells on rows 18 and 19"
            );
        } else {
            assert_eq!(placement.y, -1, "cells on rows -1 and 0, resting on row 1");
        }
    }
}

#[test]
fn no_suicide_avoids_the_landings_above_the_field_while_another_placement_exists() {
    let board = towers_and_a_gap();
    // Without no-suicide every placement is scored like the others.
    let mut plain = Strategy::from_name("drop+dellacherie:original").unwrap();
    let (searcher, evaluator, chain) = plain.parts_mut();
    let values = chain.analyze_all_in(searcher, evaluator, &board, &[Piece::O], literature());
    assert_eq!(values.len(), 9);
    assert!(values.iter().all(|entry| entry.value.is_some()));
    // With no-suicide only the O at x = 9 is left, and it is played.
    let mut careful = Strategy::from_name("drop+dellacherie:original,no-suicide").unwrap();
    let choice = careful
        .choose_in(&board, &[Piece::O], literature())
        .unwrap();
    assert_eq!((choice.placement.x, choice.placement.y), (9, 18));
    let (searcher, evaluator, chain) = careful.parts_mut();
    let values = chain.analyze_all_in(searcher, evaluator, &board, &[Piece::O], literature());
    for entry in values {
        assert_eq!(entry.value.is_some(), entry.placement.x == 9, "{entry:?}");
    }
    // Columns 0..=8 filled from row 1 down, column 9 open: every O covers one of columns
    // 0..=8 and lands above the field, so no-suicide leaves nothing (the game is over) while
    // the plain strategy still plays one.
    let mut rows = vec![".........."];
    rows.extend(["#########."; 19]);
    let full = Board::from_rows(&rows).unwrap();
    assert!(
        careful
            .choose_in(&full, &[Piece::O], literature())
            .is_none()
    );
    assert!(plain.choose_in(&full, &[Piece::O], literature()).is_some());
}

#[test]
fn under_the_literature_rule_a_chain_ends_at_a_landing_above_the_field() {
    // Depth 2, O then O: after an O over the towers the game is over, so that chain is cut
    // short (length 1) and ranks below the full chain through x = 9, which is played even
    // without no-suicide.
    let board = towers_and_a_gap();
    let mut strategy = Strategy::from_name("drop+dellacherie:original@2").unwrap();
    let choice = strategy
        .choose_in(&board, &[Piece::O, Piece::O], literature())
        .unwrap();
    assert_eq!(choice.placement.x, 9);
    assert_eq!(choice.value.length, 2);
    let (searcher, evaluator, chain) = strategy.parts_mut();
    let values = chain.analyze_all_in(
        searcher,
        evaluator,
        &board,
        &[Piece::O, Piece::O],
        literature(),
    );
    for entry in values {
        let length = entry.value.unwrap().length;
        assert_eq!(
            length,
            if entry.placement.x == 9 { 2 } else { 1 },
            "{entry:?}"
        );
    }
    // Under the simulation rule the reason differs but not the outcome: after an O over the
    // towers the second O cannot spawn (rows 1.. of columns 4 and 5 are filled under its spawn
    // cells (4, 1) and (5, 1)), while the O at x = 9 completes rows 18 and 19, whose clear
    // moves the towers down two rows and frees the spawn.
    let simulation = DecisionContext::with_game_over_rule(GameOverRule::Simulation);
    let values = chain.analyze_all_in(
        searcher,
        evaluator,
        &board,
        &[Piece::O, Piece::O],
        simulation,
    );
    for entry in values {
        let length = entry.value.unwrap().length;
        assert_eq!(
            length,
            if entry.placement.x == 9 { 2 } else { 1 },
            "{entry:?}"
        );
    }
}

/// A seeded board of 4 to 20 rows whose columns mostly reach its top rows or the top itself,
/// with holes, and now and then a row full but for one cell: under the literature rule many of
/// a piece's placements land above the field, and some pieces have none that do not.
fn near_the_top(rng: &mut Pcg64Mcg) -> Board {
    let height = 4 + (rng.next_u32() % 17) as usize;
    let mut board = Board::new(height).unwrap();
    for x in 0..BOARD_WIDTH {
        let top = match rng.next_u32() % 4 {
            0 => rng.next_u32() as usize % (height + 1),
            _ => rng.next_u32() as usize % 4,
        };
        for y in top..height {
            if !rng.next_u32().is_multiple_of(6) {
                board.set(x, y);
            }
        }
    }
    if rng.next_u32().is_multiple_of(3) {
        let y = height - 1 - rng.next_u32() as usize % height.min(3);
        for x in 0..BOARD_WIDTH {
            board.set(x, y);
        }
        board.clear_cell(rng.next_u32() as usize % BOARD_WIDTH, y);
    }
    board
}

#[test]
fn no_suicide_decides_alike_with_the_leaf_values_in_one_call_and_one_by_one() {
    // With no-suicide the chain hands the last piece's placements that do not end the game
    // (under the literature rule: that stay in the field; under the simulation rule: after
    // which every piece can spawn) to `Evaluator::last_link_values` in one call; a filter that
    // accepts everything sends each placement through the lock-and-evaluate path instead.
    // Every registered evaluator (each preset), the drop searcher, depths 1 and 2, both rules:
    // the same choice, best chain and per-placement report, costs to the bit.
    let mut drop = tetris_registry::searcher_by_name("drop").unwrap();
    let mut skipping = [0; 2];
    for (index, entry) in evaluators().into_iter().enumerate() {
        let mut rng = Pcg64Mcg::seed_from_u64(0x29_5A1C + index as u64);
        for (round, preset) in (0..400).zip(entry.presets.iter().cycle()) {
            let evaluator =
                evaluator_by_name(entry.name, &WeightsChoice::Preset(preset.name.to_string()))
                    .expect("a registered evaluator")
                    .expect("a shipped preset");
            let board = near_the_top(&mut rng);
            let pieces = [0, 1].map(|_| Piece::ALL[rng.next_u32() as usize % 7]);
            let options = ChainOptions {
                no_suicide: true,
                ..ChainOptions::with_depth(1 + round % 2)
            };
            let one_by_one = ChainOptions {
                filter: Some(Arc::new(|_: &Board, _: &Placement| true)),
                ..options.clone()
            };
            let mut batched = LookaheadChain::new(options);
            let mut reference = LookaheadChain::new(one_by_one);
            let rule = [GameOverRule::Literature, GameOverRule::Simulation][round / 2 % 2];
            let context = DecisionContext::with_game_over_rule(rule);
            let choice = batched.best_in(&mut drop, &evaluator, &board, &pieces, context);
            let expected = reference.best_in(&mut drop, &evaluator, &board, &pieces, context);
            let what = format!(
                "{} {}: {pieces:?} {rule}, round {round}\n{board}",
                entry.name, preset.name
            );
            assert_eq!(choice, expected, "{what}");
            let bits = |choice: Option<ChainChoice>| choice.map(|choice| choice.cost().to_bits());
            assert_eq!(bits(choice), bits(expected), "{what}");
            assert_eq!(batched.best_chain(), reference.best_chain(), "{what}");
            let (report, expected_report) = (
                batched.first_placement_values(),
                reference.first_placement_values(),
            );
            assert_eq!(report, expected_report, "{what}");
            for (entry, expected) in report.iter().zip(expected_report) {
                let bits = |value: Option<ChainValue>| value.map(|value| value.cost.to_bits());
                assert_eq!(bits(entry.value), bits(expected.value), "{what}");
            }
            skipping[round / 2 % 2] +=
                usize::from(report.iter().any(|entry| entry.value.is_none()));
        }
    }
    // Boards where no-suicide skipped some of the current piece's placements came up often
    // under both rules.
    assert!(skipping.iter().all(|&count| count > 200), "{skipping:?}");
}
