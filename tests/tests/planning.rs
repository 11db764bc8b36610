//! The plan of a player who has not seen the preview yet ([`Strategy::plan_without_preview_in`],
//! used by players with a reaction time) against an oracle that knows nothing of expectimax:
//! for every preview piece, a plain depth-2 chain analyses every placement of the current
//! piece with that preview known; the oracle averages those best chains over the 7 previews by
//! hand (previews with no placement lost, rules combined, costs summed in piece order and
//! divided by the survivors) and picks the best placement, the earlier first among equals.

use tetris_core::chain::{ChainOptions, LookaheadChain};
use tetris_core::{
    ChainRule, DecisionContext, FrameTiming, GameOverRule, InputModel, Piece, Timeline,
};
use tetris_registry::{Strategy, WeightsChoice, evaluator_by_name, searcher_by_name};
use tetris_tests::grow_board;

/// The oracle's value of one placement: previews lost, then the combined rule (preferred,
/// neutral, rejected), then the mean cost. Lower is better, compared in that order.
fn averaged(values: &[Option<tetris_core::ChainValue>]) -> (u8, u8, f64) {
    let survivors: Vec<_> = values
        .iter()
        .flatten()
        .filter(|value| value.length == 2)
        .collect();
    let lost = (7 - survivors.len()) as u8;
    let rule = if survivors
        .iter()
        .any(|value| value.rule == ChainRule::Reject)
    {
        2
    } else if survivors
        .iter()
        .all(|value| value.rule == ChainRule::Prefer)
    {
        0
    } else {
        1
    };
    let cost = if survivors.is_empty() {
        f64::INFINITY
    } else {
        survivors.iter().map(|value| value.cost).sum::<f64>() / survivors.len() as f64
    };
    (lost, rule, cost)
}

#[test]
fn the_plan_without_the_preview_is_the_best_placement_averaged_over_the_seven_previews() {
    let context = DecisionContext {
        frame_timing: Some(FrameTiming {
            frames_per_row: 3,
            timeline: Timeline::THIRTY_HZ,
            inputs: InputModel::TwoThumb,
        }),
        ..DecisionContext::with_game_over_rule(GameOverRule::Console)
    };
    let mut searcher = searcher_by_name("gamepad").unwrap();
    let evaluator = evaluator_by_name("nes-plateau", &WeightsChoice::Default)
        .unwrap()
        .unwrap();
    let mut compared = 0;
    for name in [
        "gamepad+nes-plateau@2",
        "gamepad+nes-plateau,expectimax=3@2",
    ] {
        let mut strategy = Strategy::from_name(name).unwrap();
        for seed in 0..12u64 {
            let board = grow_board(seed, 8 + 3 * seed as usize, 20);
            for current in Piece::ALL {
                // Every placement's best chain with each preview known, in the current
                // piece's search order (the same board and piece: the same order).
                let mut reports = Vec::new();
                for preview in Piece::ALL {
                    let mut chain = LookaheadChain::new(ChainOptions::with_depth(2));
                    chain.best_in(
                        &mut searcher,
                        &evaluator,
                        &board,
                        &[current, preview],
                        context,
                    );
                    reports.push(chain.first_placement_values().to_vec());
                }
                let mut best: Option<(usize, (u8, u8, f64))> = None;
                for index in 0..reports[0].len() {
                    let values: Vec<_> = reports.iter().map(|report| report[index].value).collect();
                    let value = averaged(&values);
                    let better = best.is_none_or(|(_, best)| {
                        (value.0, value.1) < (best.0, best.1)
                            || ((value.0, value.1) == (best.0, best.1) && value.2 < best.2)
                    });
                    if better {
                        best = Some((index, value));
                    }
                }
                let expected = best.map(|(index, _)| reports[0][index].placement);
                let plan = strategy
                    .plan_without_preview_in(&board, current, context)
                    .map(|choice| choice.placement);
                assert_eq!(plan, expected, "{name}: {current} on\n{board}");
                compared += 1;
            }
        }
    }
    assert_eq!(compared, 2 * 12 * 7);
}
