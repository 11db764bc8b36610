//! The plan of a player who sees the preview only after a reaction time
//! ([`Strategy::plan_for_reaction_in`]) against an oracle that re-plans for real: for every
//! candidate (the first R frames of the searcher's path to each placement of the current
//! piece, the whole path when it locks within them) and every preview piece, a fresh plain
//! depth-2 chain decides from where those frames leave the piece (the search started after
//! them, `DecisionContext::played`) with that preview known; a path within R frames is the
//! best chain through its own placement. The oracle averages those best chains over the 7
//! previews by hand (previews with no full chain lost, rules combined, costs summed in piece
//! order and divided by the survivors) and picks the best candidate, the earlier first among
//! equals. The planner instead analyses each preview once from the spawn and maps the
//! placements each candidate still reaches into that table.

use tetris_core::chain::{ChainOptions, LookaheadChain};
use tetris_core::{
    Board, ChainRule, DecisionContext, FrameTiming, GameOverRule, Input, InputModel, Piece,
    Placements, PlayedFrames, Searcher, Timeline,
};
use tetris_registry::{Strategy, WeightsChoice, evaluator_by_name, searcher_by_name};
use tetris_tests::grow_board;

/// The oracle's value of one candidate: previews lost, then the combined rule (preferred,
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

/// A console game's context at `frames_per_row` and 30 Hz, two thumbs.
fn console_context(frames_per_row: u8) -> DecisionContext {
    DecisionContext {
        frame_timing: Some(FrameTiming {
            frames_per_row,
            timeline: Timeline::THIRTY_HZ,
            inputs: InputModel::TwoThumb,
        }),
        ..DecisionContext::with_game_over_rule(GameOverRule::Console)
    }
}

/// The searcher's placements of `current` from the spawn, with their paths, in its order.
fn spawn_placements(
    searcher: &mut dyn Searcher,
    board: &Board,
    current: Piece,
    context: DecisionContext,
) -> Placements {
    let mut spawn = Placements::new();
    searcher.search(
        board,
        current,
        context.current_piece_options(true),
        &mut spawn,
    );
    spawn
}

/// Whether the oracle value `value` beats `best`.
fn beats(value: (u8, u8, f64), best: (u8, u8, f64)) -> bool {
    (value.0, value.1) < (best.0, best.1)
        || ((value.0, value.1) == (best.0, best.1) && value.2 < best.2)
}

#[test]
fn the_plan_commits_to_the_frames_whose_re_plans_are_best_averaged_over_the_seven_previews() {
    let mut searcher = searcher_by_name("gamepad").unwrap();
    let evaluator = evaluator_by_name("nes-plateau", &WeightsChoice::Default)
        .unwrap()
        .unwrap();
    let mut compared = 0;
    let mut open_candidates = 0;
    let mut committed_candidates = 0;
    // Levels 18 (3 frames a row) and 19 (2) at 30 Hz, reaction times from short to longer
    // than most paths; both bots plan alike (the plan drops the expectimax).
    let cases = [
        ("gamepad+nes-plateau@2", 3, 18),
        ("gamepad+nes-plateau,expectimax=3@2", 2, 18),
        ("gamepad+nes-plateau@2", 2, 6),
        ("gamepad+nes-plateau@2", 3, 30),
    ];
    for (name, frames_per_row, reaction) in cases {
        let context = console_context(frames_per_row);
        let mut strategy = Strategy::from_name(name).unwrap();
        for seed in 0..4u64 {
            let board = grow_board(seed, 6 + 7 * seed as usize, 20);
            for current in Piece::ALL {
                // The candidates: the searcher's paths from the spawn, in its order.
                let spawn = spawn_placements(&mut searcher, &board, current, context);
                // Every placement's best chain with each preview known, from the spawn.
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
                for index in 0..spawn.len() {
                    let path = spawn.path(index).unwrap();
                    let values: Vec<_> = if path.len() <= reaction {
                        committed_candidates += 1;
                        let placement = spawn.as_slice()[index];
                        reports
                            .iter()
                            .map(|report| {
                                let entry = report.iter().find(|e| e.placement == placement);
                                entry.unwrap().value
                            })
                            .collect()
                    } else {
                        open_candidates += 1;
                        let frames: Vec<_> = path[..reaction]
                            .iter()
                            .map(|input| match input {
                                Input::Frame(buttons) => *buttons,
                                other => panic!("not a frame: {other:?}"),
                            })
                            .collect();
                        let played = PlayedFrames::new(&frames).unwrap();
                        let replan = DecisionContext { played, ..context };
                        Piece::ALL
                            .into_iter()
                            .map(|preview| {
                                let mut chain = LookaheadChain::new(ChainOptions::with_depth(2));
                                chain
                                    .best_in(
                                        &mut searcher,
                                        &evaluator,
                                        &board,
                                        &[current, preview],
                                        replan,
                                    )
                                    .map(|choice| choice.value)
                            })
                            .collect()
                    };
                    let value = averaged(&values);
                    if best.is_none_or(|(_, best)| beats(value, best)) {
                        best = Some((index, value));
                    }
                }
                let expected = best.map(|(index, value)| (spawn.as_slice()[index], value));
                let plan = strategy
                    .plan_for_reaction_in(&board, current, context, reaction as u8)
                    .map(|choice| {
                        let value = choice.value;
                        let rule = value.rule as u8;
                        let triple = (value.unknown_pieces_lost, rule, value.cost);
                        (choice.placement, triple)
                    });
                assert_eq!(
                    plan, expected,
                    "{name}, R = {reaction}: {current} on\n{board}"
                );
                compared += 1;
            }
        }
    }
    assert_eq!(compared, 4 * 4 * 7);
    // Both kinds of candidate were met, many times.
    assert!(open_candidates > 500, "{open_candidates} open candidates");
    assert!(
        committed_candidates > 100,
        "{committed_candidates} committed candidates"
    );
}

/// The re-plan once the preview is seen ([`Strategy::replan_in`]) takes its first round's
/// values from the plan's table rather than walking those chains again: its choice (the
/// placement, its index and its value) must be a fresh strategy's ([`Strategy::choose_in`],
/// which walks them), for every preview, after the plan's own frames and after other
/// candidates' frames, for bots with finalists and playouts as the benchmark's.
#[test]
fn the_re_plan_with_the_plans_values_chooses_as_a_fresh_decision() {
    let context = console_context(3);
    let reaction = 18;
    let mut searcher = searcher_by_name("gamepad").unwrap();
    let mut compared = 0;
    let mut differs_from_the_plan = 0;
    for name in [
        "gamepad+nes-plateau,expectimax=3,prefer-bonus=80@2",
        "gamepad+nes-plateau:low-stack,expectimax=3,prefer-bonus=80,playouts=4,overdeep-wells=3@2",
    ] {
        let mut strategy = Strategy::from_name(name).unwrap();
        for seed in 0..3u64 {
            let board = grow_board(seed + 10, 5 + 6 * seed as usize, 20);
            for current in Piece::ALL {
                let Some(plan) = strategy.plan_for_reaction_in(&board, current, context, reaction)
                else {
                    continue;
                };
                // The plan's frames, and those of the spawn's other paths (the plan's table
                // holds every placement from the spawn).
                let spawn = spawn_placements(&mut searcher, &board, current, context);
                let plan_path = strategy.path_to(&board, &plan.placement, context).unwrap();
                let mut starts = vec![plan_path];
                starts.extend(
                    (0..spawn.len())
                        .step_by(5)
                        .map(|i| spawn.path(i).unwrap().to_vec()),
                );
                for path in starts {
                    if path.len() <= usize::from(reaction) {
                        continue;
                    }
                    let frames: Vec<_> = path[..usize::from(reaction)]
                        .iter()
                        .map(|input| input.frame().unwrap())
                        .collect();
                    let played = PlayedFrames::new(&frames).unwrap();
                    let replan = DecisionContext { played, ..context };
                    for preview in Piece::ALL {
                        let pieces = [current, preview];
                        let choice = strategy.replan_in(&board, &pieces, replan);
                        let fresh = strategy.clone().choose_in(&board, &pieces, replan);
                        assert_eq!(
                            choice, fresh,
                            "{name}: {current} then {preview} on\n{board}"
                        );
                        differs_from_the_plan +=
                            usize::from(choice.is_some_and(|c| c.placement != plan.placement));
                        compared += 1;
                    }
                }
            }
        }
    }
    assert!(compared > 400, "{compared} re-plans compared");
    // The re-plans often leave the plan's placement: the preview decides.
    assert!(
        differs_from_the_plan > 50,
        "{differs_from_the_plan} re-plans moved"
    );
}
