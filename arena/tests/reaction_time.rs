//! A player with a reaction time (`arena nes --reaction-frames R`, `tetris_arena_games::sim::reaction`):
//! its first R frames of a piece never depend on the preview piece, and every path it plays
//! replays through the console's frame model to the placement it chose; a traced game's locks are
//! what an independent replay sees, and its blind frames start the plan's path.

use proptest::prelude::*;
use tetris_arena_games::sim::nes::{NesGamePlay, NesPlayer, play_nes_game};
use tetris_arena_games::sim::reaction::piece_frames;
use tetris_core::frames::FallingPiece;
use tetris_core::{
    Board, Buttons, DecisionContext, FrameTiming, GameOverRule, InputModel, NesGameSettings, Piece,
    Placement, Timeline,
};
use tetris_registry::Strategy;

/// A random 20-row board: `stack` bottom rows, each cell filled with probability `percent`
/// (a xorshift sequence from `seed`).
fn board(stack: usize, percent: u64, seed: u64) -> Board {
    let mut state = seed | 1;
    let mut board = Board::standard();
    for y in 20 - stack..20 {
        for x in 0..10 {
            // xorshift64
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            if state % 100 < percent {
                board.set(x, y);
            }
        }
    }
    board
}

/// The frames `frames` played from the spawn of `piece` on `board`: the state they lock the
/// piece at on their last frame, or the frame they lock it on too early.
fn replay(
    board: &Board,
    piece: Piece,
    frames: &[Buttons],
    context: DecisionContext,
) -> Result<tetris_core::PieceState, String> {
    let timing = context.frame_timing.expect("a gravity-aware decision");
    let mut falling = FallingPiece::spawn(piece, context.entry_delay, 0);
    for (frame, &buttons) in frames.iter().enumerate() {
        let locked = falling.frame(board, buttons, timing.frames_per_row);
        match (locked, frame + 1 == frames.len()) {
            (Some(lock), true) => return Ok(lock),
            (Some(lock), false) => return Err(format!("locked at {lock} on frame {}", frame + 1)),
            (None, _) => {}
        }
    }
    Err("never locked".into())
}

/// The placement and frames of the current piece of `pieces` played by `strategy`.
fn played(
    strategy: &mut Strategy,
    board: &Board,
    pieces: [Piece; 2],
    context: DecisionContext,
    reaction: u8,
) -> (Option<Placement>, Vec<Buttons>) {
    let mut frames = Vec::new();
    let placement = piece_frames(
        strategy,
        board,
        pieces,
        context,
        reaction,
        &mut frames,
        tetris_registry::GameTally::default(),
    )
    .expect("the gamepad search's paths are frames to its placements")
    .map(|play| play.placement);
    (placement, frames)
}

/// 30 Hz, 15 Hz and 13.5 Hz.
fn timeline(index: usize) -> Timeline {
    ["X.", "X...", "X....X...X..."][index].parse().unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn the_first_reaction_frames_do_not_depend_on_the_preview_and_every_path_replays(
        stack in 0usize..13,
        percent in 40u64..90,
        seed in any::<u64>(),
        current in 0usize..7,
        previews in (0usize..7, 0usize..7),
        reaction in 1u8..=30,
        frames_per_row in 1u8..=3,
        timeline_index in 0usize..3,
        article in any::<bool>(),
        entry_delay in any::<bool>(),
        expectimax in any::<bool>(),
    ) {
        let board = board(stack, percent, seed);
        let inputs = if article { InputModel::Article } else { InputModel::TwoThumb };
        let context = DecisionContext {
            frame_timing: Some(FrameTiming {
                frames_per_row,
                timeline: timeline(timeline_index),
                inputs,
            }),
            entry_delay,
            game_over_rule: GameOverRule::Console,
            ..DecisionContext::default()
        };
        let name = if expectimax {
            "gamepad+nes-plateau,expectimax=3@2"
        } else {
            "gamepad+nes-plateau@2"
        };
        let mut strategy = Strategy::from_name(name).unwrap();
        let current = Piece::ALL[current];
        let mut results = Vec::new();
        for preview in [previews.0, previews.1] {
            let pieces = [current, Piece::ALL[preview]];
            let (placement, frames) = played(&mut strategy, &board, pieces, context, reaction);
            if let Some(placement) = placement {
                // The frames lock the piece exactly where the player said, on their last
                // frame and not before.
                prop_assert_eq!(replay(&board, current, &frames, context), Ok(placement.state()));
                prop_assert!(placement.is_lock_placement_on(&board));
            }
            results.push((placement, frames));
        }
        let (first, second) = (&results[0], &results[1]);
        // Without a placement for the current piece, with either preview.
        prop_assert_eq!(first.0.is_none(), second.0.is_none());
        let reaction = usize::from(reaction);
        let shared = reaction.min(first.1.len()).min(second.1.len());
        prop_assert_eq!(&first.1[..shared], &second.1[..shared]);
        // A path within the reaction time is the plan's whole path, so then both are.
        if first.1.len() <= reaction || second.1.len() <= reaction {
            prop_assert_eq!(first, second);
        }
    }
}

#[test]
fn with_the_reaction_time_longer_than_the_path_the_player_plays_its_plan_without_the_preview() {
    // On a 14-row stack at level 18 every path locks within 60 frames (checked below), so a
    // player whose reaction time is 60 frames never sees the preview: its move is the
    // strategy's plan without the preview, whatever the preview.
    let board = board(14, 70, 1);
    let context = DecisionContext {
        frame_timing: Some(FrameTiming {
            frames_per_row: 3,
            timeline: Timeline::THIRTY_HZ,
            inputs: InputModel::TwoThumb,
        }),
        ..DecisionContext::with_game_over_rule(GameOverRule::Console)
    };
    let mut strategy = Strategy::from_name("gamepad+nes-plateau@2").unwrap();
    for current in Piece::ALL {
        let alone = strategy
            .plan_for_reaction_in(&board, current, context, 60)
            .map(|choice| choice.placement);
        for preview in Piece::ALL {
            let (placement, frames) =
                played(&mut strategy, &board, [current, preview], context, 60);
            assert!(frames.len() <= 60, "{current}: {} frames", frames.len());
            assert_eq!(placement, alone, "{current} with {preview} next");
        }
    }
}

#[test]
fn a_game_with_a_reaction_time_plays_through_the_frame_model_and_differs_from_one_without() {
    // `play_nes_game` replays every path through the frame model and fails on any lock the
    // search did not announce: a whole game from level 18 with 18 reaction frames.
    let settings = NesGameSettings {
        start_level: 18,
        stop_level: 19,
        seed: 7,
        game_over_rule: GameOverRule::Console,
    };
    let play = |reaction_frames| {
        let mut strategy = Strategy::from_name("gamepad+nes-plateau@2").unwrap();
        let player = NesPlayer {
            timeline: Timeline::THIRTY_HZ,
            inputs: InputModel::TwoThumb,
            reaction_frames,
        };
        let play = NesGamePlay {
            max_lines: Some(40),
            ..NesGamePlay::by(player)
        };
        play_nes_game(&mut strategy, settings, play, &|| false)
            .unwrap()
            .unwrap()
    };
    let (late, at_once) = (play(18), play(0));
    assert!(late.pieces >= 20, "{} pieces", late.pieces);
    assert!(at_once.pieces >= 20, "{} pieces", at_once.pieces);
    // The same seed and rules: what differs is the player (the pieces after the second
    // depend on the frames played, so the games part ways once a move differs).
    assert_ne!(
        (late.frames, late.line_clear_points, late.pieces),
        (at_once.frames, at_once.line_clear_points, at_once.pieces)
    );
}

#[test]
fn a_traced_game_replays_lock_by_lock_and_its_blind_frames_start_the_plans_path() {
    // A game from level 18 with 18 reaction frames, traced and not: the trace changes nothing,
    // and each traced lock is what an independent replay through the frame model sees and
    // does. The blind frames are the first 18 of the searcher's own path to the plan's
    // placement, asked again here from the spawn.
    let settings = NesGameSettings {
        start_level: 18,
        stop_level: 19,
        seed: 11,
        game_over_rule: GameOverRule::Console,
    };
    let player = NesPlayer {
        timeline: Timeline::THIRTY_HZ,
        inputs: InputModel::TwoThumb,
        reaction_frames: 18,
    };
    let name = "gamepad+nes-plateau@2";
    let play = |trace| {
        let mut strategy = Strategy::from_name(name).unwrap();
        let play = NesGamePlay {
            max_lines: Some(30),
            trace,
            ..NesGamePlay::by(player)
        };
        play_nes_game(&mut strategy, settings, play, &|| false)
            .unwrap()
            .unwrap()
    };
    let (traced, untraced) = (play(true), play(false));
    let locks = traced.trace.clone().expect("a traced game keeps its locks");
    assert_eq!(untraced.trace, None);
    let outcome = |game: &tetris_arena_games::sim::nes::NesGameResult| {
        (
            game.score,
            game.line_clear_points,
            game.lines,
            game.pieces,
            game.frames,
            game.clears,
            game.end,
        )
    };
    assert_eq!(outcome(&traced), outcome(&untraced));
    assert_eq!(locks.len() as u64, traced.pieces);

    let mut strategy = Strategy::from_name(name).unwrap();
    let mut game = tetris_core::NesGame::new(settings);
    let mut blind_starts = 0;
    for (index, lock) in locks.iter().enumerate() {
        assert_eq!((lock.seed, lock.piece), (11, index as u64 + 1));
        let piece = lock.placement.piece;
        assert_eq!(
            (piece, lock.preview, &lock.board, lock.spawn_frame),
            (
                game.current(),
                game.next(),
                game.board(),
                game.spawn_frame()
            )
        );
        let frames = lock.frames().expect("a gamepad path is frames");
        let score = game.score();
        assert_eq!(
            (lock.level, lock.lines, lock.points),
            (score.level(), score.lines(), score.line_clear_points())
        );
        let context = DecisionContext {
            frame_timing: Some(game.frame_timing(player.timeline, player.inputs)),
            entry_delay: game.is_first_piece(),
            game_over_rule: GameOverRule::Console,
            ..DecisionContext::default()
        };
        let plan = lock
            .plan
            .expect("every piece is planned without the preview first");
        let plan_path: Vec<Buttons> = strategy
            .path_inputs(&lock.board, &Placement::new(piece, plan), context)
            .expect("the plan's placement is the searcher's")
            .iter()
            .map(|input| input.frame().unwrap())
            .collect();
        if plan_path.len() <= 18 {
            // The plan locks within the blind frames: it is the move.
            assert_eq!((&frames, lock.placement.state()), (&plan_path, plan));
        } else {
            assert_eq!(frames[..18], plan_path[..18]);
            blind_starts += 1;
        }
        let played = game.play_frames(&frames).unwrap();
        assert_eq!(
            (played.state, played.rows_cleared),
            (lock.placement.state(), lock.placement.cleared)
        );
    }
    assert_eq!(game.score().line_clear_points(), traced.line_clear_points);
    assert!(
        blind_starts > locks.len() / 2,
        "{blind_starts} of {}",
        locks.len()
    );
}
