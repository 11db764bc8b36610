//! The game-over rules in the lookahead chain (docs/spec/rules.md, docs/spec/search.md §2b): under the literature
//! rule a placement that lands with a cell above row 0 ends the game; without no-suicide it is
//! scored like any other placement, with no-suicide it is skipped while another exists.

use tetris_core::{
    Board, DecisionContext, GameOverRule, Piece, Placements, SearchOptions, Searcher,
};
use tetris_registry::Strategy;

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
