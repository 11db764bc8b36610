//! The replay module's tests: a hand-made game, every kind of difference, seeded sequences,
//! a gamepad game under the article input model and under a relabelled tap rate, the
//! two-thumb model's tap check, what a game proves about its header, and version 1's
//! optional rule.

use std::ops::ControlFlow;

use tetris_core::{FrameTiming, GameOverRule, GeneratorKind, InputModel, Piece, Timeline};
use tetris_registry::Strategy;

use super::*;
use crate::sim::game::{GameEnd, GameSettings, PlayOptions, play_game};
use crate::sim::placement::{PlayedPlacement, parse_path};

/// A hand-made game on a 4-row board, worked out cell by cell: an I laid flat on the
/// floor at pivot (2, 3) covers columns 0..3, an I at pivot (6, 3) columns 4..7, and an O
/// at pivot (9, 2) covers columns 8 and 9 of rows 2 and 3, which completes row 3: one row
/// cleared, 40 points at level 0.
fn hand_made_game() -> Replay {
    let placement = |piece: Piece, x: i8, y: i8, cleared: u8, path: &str| PlayedPlacement {
        piece,
        x,
        y,
        rotation: 0,
        cleared,
        path: Some(parse_path(path).unwrap()),
        evaluation: None,
    };
    Replay {
        format: REPLAY_FORMAT.to_string(),
        version: REPLAY_VERSION,
        strategy: "bfs+elashi".to_string(),
        generator: GeneratorKind::File("hand-made.txt".to_string()),
        seed: 0,
        rules: ReplayRules {
            board_height: 4,
            max_pieces: None,
            frame_timing: None,
            game_over_rule: Some(GameOverRule::Simulation),
        },
        pieces: vec![Piece::I, Piece::I, Piece::O],
        placements: vec![
            placement(Piece::I, 2, 3, 0, "L L L D D D"),
            placement(Piece::I, 6, 3, 0, "R D D D"),
            placement(Piece::O, 9, 2, 1, "R R R R D D"),
        ],
        result: ReplayResult {
            pieces: 3,
            lines: 1,
            score: 40,
            level: Some(0),
            game_over: false,
            end: GameEnd::SequenceEnded,
        },
        made_by: None,
    }
}

#[test]
fn a_hand_made_game_verifies_and_round_trips() {
    let replay = hand_made_game();
    let mut cleared = Vec::new();
    let mut first_path = Vec::new();
    replay
        .verify(None, &mut |step| {
            cleared.push(step.last.cleared_rows);
            if step.pieces == 1 {
                first_path = step.path.iter().map(|s| (s.x, s.y, s.rotation)).collect();
            }
            assert_eq!(step.level, 0, "level 0 until 10 lines");
        })
        .unwrap();
    assert_eq!(cleared, [0, 0, 1 << 3]);
    // "L L L D D D" from the spawn (5, 0): three columns left, then three rows down.
    assert_eq!(
        first_path,
        [
            (5, 0, 0),
            (4, 0, 0),
            (3, 0, 0),
            (2, 0, 0),
            (2, 1, 0),
            (2, 2, 0),
            (2, 3, 0)
        ]
    );
    let text = replay.to_json();
    assert!(text.contains(
        "\n    {\"piece\":\"O\",\"x\":9,\"y\":2,\"rotation\":0,\"cleared\":1,\"path\":\"R R R R D D\"}\n"
    ));
    assert_eq!(Replay::parse(&text).unwrap(), replay);
}

#[test]
fn every_kind_of_difference_is_named() {
    let check = |change: &dyn Fn(&mut Replay), expected: &str| {
        let mut replay = hand_made_game();
        change(&mut replay);
        let message = replay.verify(None, &mut |_| {}).unwrap_err().to_string();
        assert!(message.contains(expected), "{message:?} lacks {expected:?}");
    };
    // Pivot (7, 3) is legal too (columns 5..8 of the floor row are empty), but the path
    // leads to (6, 3).
    check(
        &|r| r.placements[1].x = 7,
        "placement 2: the path ends at x 6 y 3 rotation 0, not at the recorded x 7",
    );
    check(
        &|r| {
            r.placements[1].y = 2;
            r.placements[1].path = Some(parse_path("R D D").unwrap());
        },
        "placement 2: x 6 y 2 rotation 0 is not a lock placement",
    );
    // Pivot (5, 3) puts the I on column 3, which the first I occupies.
    check(
        &|r| r.placements[1].x = 5,
        "placement 2: x 5 y 3 rotation 0 is not a legal state",
    );
    check(
        &|r| r.placements[0].rotation = 3,
        "placement 1: x 2 y 3 rotation 3 is not a legal",
    );
    check(
        &|r| r.placements[0].x = 100,
        "placement 1: x 100 y 3 rotation 0 is not a legal",
    );
    check(
        &|r| r.placements[2].cleared = 0,
        "placement 3: the lock clears 1 rows",
    );
    check(
        &|r| r.placements[2].piece = Piece::I,
        "placement 3: the piece is I",
    );
    // The first I's path moved one column too far left: pivot x = -1 leaves the field.
    check(
        &|r| r.placements[0].path = Some(parse_path("L L L L D D D").unwrap()),
        "placement 1: input 4 of the path (L)",
    );
    check(&|r| r.result.lines = 2, "result: 2 lines recorded");
    check(&|r| r.result.score = 41, "result: score 41 recorded");
    check(&|r| r.result.pieces = 4, "result: 4 pieces recorded");
    check(
        &|r| {
            r.result.end = GameEnd::GameOver;
            r.result.game_over = true;
        },
        "the sequence holds no piece after the last placement",
    );
    check(
        &|r| r.rules.max_pieces = Some(3),
        "the piece cap 3 was reached",
    );
    check(
        &|r| r.rules.max_pieces = Some(2),
        "more than the piece cap 2",
    );
    check(&|r| r.result.level = Some(1), "result: level 1 recorded");
    check(&|r| r.version = 4, "version 4 is not supported");
}

#[test]
fn seeded_sequences_must_be_the_generators() {
    let mut replay = hand_made_game();
    replay.generator = GeneratorKind::Java;
    replay.seed = 1;
    // `new java.util.Random(1).nextInt(7)` deals S S J T I I … (the JVM-checked vector of
    // the core's generator tests), so the stored I I O differs at the first piece.
    replay.pieces.push(Piece::T);
    let message = replay.verify(None, &mut |_| {}).unwrap_err().to_string();
    assert_eq!(
        message,
        "piece 1 of the recorded sequence is I, but generator java with seed 1 gives S"
    );
    // Three placements of a depth-1 strategy: exactly four pieces are stored.
    replay.pieces = vec![Piece::S, Piece::S, Piece::J, Piece::O];
    let message = replay.verify(None, &mut |_| {}).unwrap_err().to_string();
    assert_eq!(
        message,
        "piece 4 of the recorded sequence is O, but generator java with seed 1 gives T"
    );
    replay.pieces.pop();
    let message = replay.verify(None, &mut |_| {}).unwrap_err().to_string();
    assert_eq!(
        message,
        "the replay stores 3 pieces, but its 3 placements and the strategy's 1 pieces of \
         lookahead need 4 (every piece the strategy saw)"
    );
}

/// The first 40 pieces of the NES generator's seed 5 on a 20-row board, played by `strategy`
/// (a gamepad searcher) and recorded with their paths.
fn recorded_nes_game(strategy: &mut Strategy) -> Replay {
    let settings = GameSettings {
        board_height: tetris_arena_io::values::BoardHeight::default(),
        generator: GeneratorKind::Nes,
        seed: 5,
        max_pieces: Some(tetris_arena_io::values::MaxPieces::try_from(40).unwrap()),
        game_over_rule: GameOverRule::Simulation,
    };
    let options = PlayOptions {
        keep_placements: true,
        keep_paths: true,
        keep_evaluations: false,
    };
    let result = play_game(strategy, &settings, options, &mut |_| {
        ControlFlow::Continue(())
    })
    .unwrap();
    Replay::record(strategy, &settings, &result).unwrap()
}

#[test]
fn an_article_model_game_verifies_under_its_model_only() {
    // A game whose searcher simulates the article's input model by default records that
    // timing, and the strategy rebuilt from its name re-decides it under that timing.
    let article = FrameTiming {
        inputs: InputModel::Article,
        ..FrameTiming::LEVEL_19_30_HZ
    };
    let name = "gamepad+nes-plateau";
    let mut strategy = Strategy::from_name(name).unwrap();
    *strategy.parts_mut().0 =
        tetris_registry::AnySearcher::Gamepad(tetris_search_bfs::Gamepad::with_timing(article));
    let replay = recorded_nes_game(&mut strategy);
    assert_eq!(replay.rules.frame_timing, Some(article));
    let rebuilt = || Strategy::from_name(name).unwrap();
    let parsed = Replay::parse(&replay.to_json()).unwrap();
    assert_eq!(parsed, replay);
    parsed.verify(Some(&mut rebuilt()), &mut |_| {}).unwrap();
    // Relabelled two-thumb, its paths are still legal (a two-thumb player can press them
    // too), but the two-thumb search reaches its placements by other paths.
    let mut relabelled = replay.clone();
    relabelled.rules.frame_timing = Some(FrameTiming::LEVEL_19_30_HZ);
    relabelled.verify(None, &mut |_| {}).unwrap();
    let message = relabelled
        .verify(Some(&mut rebuilt()), &mut |_| {})
        .unwrap_err()
        .to_string();
    assert!(message.starts_with("placement "), "{message}");
    // And the two-thumb game of the same seed, relabelled article, has a frame the
    // article's player never presses.
    let mut relabelled = recorded_nes_game(&mut rebuilt());
    relabelled
        .verify(Some(&mut rebuilt()), &mut |_| {})
        .unwrap();
    relabelled.rules.frame_timing = Some(article);
    let error = relabelled.verify(None, &mut |_| {}).unwrap_err();
    let message = error.to_string();
    assert!(
        message.contains("which the article input model does not press"),
        "{message}"
    );
    // The same difference, by type: a path frame the article's player never presses.
    assert!(
        matches!(
            error,
            ReplayError::Placement {
                error: PlacementError::Path(PathError::NotAnArticleFrame {
                    timeline: Timeline::THIRTY_HZ,
                    ..
                }),
                ..
            }
        ),
        "{error:?}"
    );
}

#[test]
fn a_mixed_timeline_game_records_its_timeline_and_its_paths_keep_its_gaps() {
    // A two-thumb game at `X....X...X...` (gaps 5, 4, 4) records the pattern in
    // `rules.frame_timing.timeline` (no `tap_rate`), reads back the same, and verifies,
    // re-decided too (the strategy rebuilt from its name is told the recorded timing).
    let mixed = FrameTiming {
        timeline: "X....X...X...".parse().unwrap(),
        ..FrameTiming::LEVEL_19_30_HZ
    };
    let name = "gamepad+nes-plateau";
    let mut strategy = Strategy::from_name(name).unwrap();
    *strategy.parts_mut().0 =
        tetris_registry::AnySearcher::Gamepad(tetris_search_bfs::Gamepad::with_timing(mixed));
    let replay = recorded_nes_game(&mut strategy);
    assert_eq!(replay.rules.frame_timing, Some(mixed));
    let json = replay.to_json();
    assert!(
        json.contains(
            r#""frame_timing":{"frames_per_row":2,"timeline":"X....X...X...","inputs":"two-thumb"}"#
        ),
        "{json}"
    );
    let parsed = Replay::parse(&json).unwrap();
    assert_eq!(parsed, replay);
    let verified = parsed
        .verify(Some(&mut Strategy::from_name(name).unwrap()), &mut |_| {})
        .unwrap();
    assert!(
        verified
            .unproven
            .iter()
            .all(|unproven| !matches!(unproven.fact, HeaderFact::TapRate { .. })),
        "{verified:?}"
    );
    // Without re-deciding, the paths alone also keep the uniform tap rates 2 to 4 (every gap
    // they left is at least 4 frames): that fact is named by the field the file has,
    // `timeline`.
    let checked = parsed.verify(None, &mut |_| {}).unwrap();
    let tap_rates = checked
        .unproven
        .iter()
        .find(|unproven| matches!(unproven.fact, HeaderFact::TapRate { .. }))
        .unwrap_or_else(|| panic!("{checked:?}"));
    assert_eq!(tap_rates.fact.field(), "frame_timing.timeline");
    // Relabelled with a slower timeline whose first gap is longer than any the paths kept,
    // a thumb's second press comes too soon.
    let mut relabelled = replay.clone();
    relabelled.rules.frame_timing = Some(FrameTiming {
        timeline: "X.......X......".parse().unwrap(),
        ..mixed
    });
    let error = relabelled.verify(None, &mut |_| {}).unwrap_err();
    assert!(
        matches!(
            error,
            ReplayError::Placement {
                error: PlacementError::Path(PathError::TapTooSoon { .. }),
                ..
            }
        ),
        "{error:?}"
    );
}

#[test]
fn a_text_that_is_no_replay_is_named_before_its_fields() {
    let message = |text: &str| Replay::parse(text).unwrap_err().to_string();
    assert!(
        message("{").starts_with("not valid JSON: "),
        "{}",
        message("{")
    );
    assert_eq!(
        message(r#"{"format": "tetris-arena-tuning"}"#),
        r#"not a replay file ("format" is not "tetris-arena-replay")"#
    );
    assert_eq!(
        message(r#"{"format": "tetris-arena-replay", "version": 7, "colour": 1}"#),
        "replay format version 7 is not supported (this arena reads versions 1 to 3)"
    );
    assert_eq!(
        message(r#"{"format": "tetris-arena-replay"}"#),
        r#"the replay has no "version" number"#
    );
    let unknown = message(r#"{"format": "tetris-arena-replay", "version": 1, "colour": 1}"#);
    assert!(
        unknown.starts_with("malformed replay: unknown field `colour`"),
        "{unknown}"
    );
}

#[test]
fn a_replay_larger_than_its_limit_is_refused() {
    assert_eq!(
        Replay::load(std::path::Path::new("/dev/zero"))
            .unwrap_err()
            .to_string(),
        "replay /dev/zero: larger than 256 MiB (the limit for a replay)"
    );
}

#[test]
fn the_two_thumb_model_keeps_each_thumbs_presses_a_tap_rate_apart() {
    use super::frames::TwoThumbTaps;
    use tetris_core::{Buttons, Input};
    let check = |frames: &[Buttons], tap_rate: u8| -> Result<(), PathError> {
        let mut taps = TwoThumbTaps::default();
        for (index, &buttons) in frames.iter().enumerate() {
            let timeline = Timeline::uniform(tap_rate);
            taps.press(index + 1, Input::Frame(buttons), buttons, timeline)?;
        }
        Ok(())
    };
    let left_a = Buttons::LEFT.with(Buttons::A);
    let none = Buttons::NONE;
    // Left on frames 1 and 3: two frames apart, which tap rate 2 allows and 3 does not. A
    // rotation shares frame 1 (the other thumb) and Down is no press.
    let frames = [left_a, Buttons::DOWN, Buttons::LEFT];
    assert_eq!(check(&frames, 2), Ok(()));
    assert_eq!(
        check(&frames, 3),
        Err(PathError::TapTooSoon {
            number: 3,
            pressed: ButtonNames(Buttons::LEFT),
            thumb: Thumb::Shift,
            previous: 1,
            timeline: Timeline::uniform(3),
            gap: 3,
        })
    );
    assert_eq!(
        check(&frames, 3).unwrap_err().to_string(),
        "frame 3 of the path presses Left 2 frames after the Left/Right thumb's press on frame \
         1, but tap rate 3 lets a thumb press at most every 3 frames (two-thumb input model)"
    );
    // A then B one frame apart: the rotation thumb, too soon even at 2.
    assert!(matches!(
        check(&[Buttons::A, Buttons::B], 2),
        Err(PathError::TapTooSoon {
            thumb: Thumb::Rotation,
            ..
        })
    ));
    // Left on frames 1 and 4 keeps tap rates up to 3.
    assert_eq!(
        check(&[Buttons::LEFT, none, none, Buttons::RIGHT], 3),
        Ok(())
    );
    // Under `X....X...X...` (gaps 5, 4, 4) a thumb's presses keep 5, 4, 4, 5, … frames in
    // turn from its first: Left on frames 1, 6, 10, 14 and 19 does; a fifth press on frame
    // 18, 4 frames after the fourth, does not (it owes the first gap again, 5).
    let mixed: Timeline = "X....X...X...".parse().unwrap();
    let check_mixed = |presses: &[usize]| -> Result<(), PathError> {
        let mut taps = TwoThumbTaps::default();
        for frame in 1..=*presses.last().unwrap() {
            let buttons = if presses.contains(&frame) {
                Buttons::LEFT
            } else {
                none
            };
            taps.press(frame, Input::Frame(buttons), buttons, mixed)?;
        }
        Ok(())
    };
    assert_eq!(check_mixed(&[1, 6, 10, 14, 19]), Ok(()));
    let too_soon = check_mixed(&[1, 6, 10, 14, 18]).unwrap_err();
    assert_eq!(
        too_soon,
        PathError::TapTooSoon {
            number: 18,
            pressed: ButtonNames(Buttons::LEFT),
            thumb: Thumb::Shift,
            previous: 14,
            timeline: mixed,
            gap: 5,
        }
    );
    assert_eq!(
        too_soon.to_string(),
        "frame 18 of the path presses Left 4 frames after the Left/Right thumb's press on frame \
         14, but timeline X....X...X... makes this press of the thumb wait 5 frames after the \
         last (its gaps, in turn from the thumb's first press) (two-thumb input model)"
    );
    // The second press owes the first gap, 5: frame 5 is too soon.
    assert!(check_mixed(&[1, 5]).is_err());
    // Two buttons of one thumb, or a shift with Down held, are no two-thumb frame.
    for buttons in [
        Buttons::LEFT.with(Buttons::RIGHT),
        Buttons::A.with(Buttons::B),
        Buttons::RIGHT.with(Buttons::DOWN),
    ] {
        assert!(
            matches!(
                check(&[buttons], 2),
                Err(PathError::NotATwoThumbFrame { number: 1, .. })
            ),
            "{buttons:?}"
        );
    }
}

#[test]
fn a_hand_made_game_proves_what_its_end_and_placements_show() {
    // The hand-made game ends with its sequence (3 placements, no cap) and never lands a
    // cell above row 0, so neither its cap nor its rule is proven; its first placement rests
    // on the floor of the 4-row board, which proves the height.
    let replay = hand_made_game();
    let verified = replay.verify(None, &mut |_| {}).unwrap();
    assert_eq!(
        verified.unproven,
        [
            Unproven {
                fact: HeaderFact::MaxPieces { placed: 3 },
                redecided: false,
            },
            Unproven {
                fact: HeaderFact::GameOverRule {
                    other: GameOverRule::Literature,
                },
                redecided: false,
            },
        ]
    );
    assert_eq!(
        verified.unproven[0].to_string(),
        "max_pieces: any cap above 3, or none, gives this game (it did not end at its cap)"
    );
    // Capped at its 3 placements, it proves its cap.
    let mut capped = replay.clone();
    capped.rules.max_pieces = Some(3);
    capped.result.end = GameEnd::PieceCap;
    let verified = capped.verify(None, &mut |_| {}).unwrap();
    assert_eq!(verified.unproven.len(), 1);
    assert_eq!(
        verified.unproven[0].fact.field(),
        "game_over_rule",
        "{:?}",
        verified.unproven
    );
}

#[test]
fn version_1_may_leave_out_the_rule_and_version_2_may_not() {
    let mut replay = hand_made_game();
    replay.rules.game_over_rule = None;
    let text = replay.to_json();
    assert!(text.contains("\"version\": 3,"), "{text}");
    assert!(!text.contains("game_over_rule"), "{text}");
    let parsed = Replay::parse(&text).unwrap();
    assert_eq!(
        parsed.verify(None, &mut |_| {}).unwrap_err().to_string(),
        "rules: game_over_rule is missing, but a version-3 replay records it (only version 1 \
         may leave it out, meaning simulation)"
    );
    let old = Replay::parse(&text.replace("\"version\": 3,", "\"version\": 1,")).unwrap();
    assert_eq!(old.version, 1);
    assert!(old.rules.rule_assumed());
    assert_eq!(old.rules.rule(), GameOverRule::Simulation);
    old.verify(None, &mut |_| {}).unwrap();
}

#[test]
fn a_two_thumb_game_relabelled_to_a_slower_tap_rate_breaks_a_tap() {
    let replay = recorded_nes_game(&mut Strategy::from_name("gamepad+nes-plateau").unwrap());
    assert_eq!(replay.rules.frame_timing, Some(FrameTiming::LEVEL_19_30_HZ));
    replay.verify(None, &mut |_| {}).unwrap();
    let mut relabelled = replay.clone();
    relabelled.rules.frame_timing = Some(FrameTiming {
        timeline: Timeline::uniform(3),
        ..FrameTiming::LEVEL_19_30_HZ
    });
    let error = relabelled.verify(None, &mut |_| {}).unwrap_err();
    let ReplayError::Placement {
        error:
            PlacementError::Path(PathError::TapTooSoon {
                number,
                previous,
                gap: 3,
                ..
            }),
        ..
    } = error
    else {
        panic!("{error:?}");
    };
    // The path pressed that thumb 2 frames after its last press: 30 Hz, not 20.
    assert_eq!(number - previous, 2, "{error}");
}

/// The NES points of `placements`' clears from `start` up to `last` (docs/spec/rules.md:
/// 40/100/300/1200 × (level + 1), the level after this clear's own level-up; from 19 the first
/// level-up is at 140 lines, then every 10), written out here rather than taken from the core.
fn nes_points(placements: &[PlayedPlacement], start: u32, first_up: u32, last: u32) -> (u32, u32) {
    let (mut lines, mut level, mut score) = (0, start, 0);
    for placement in placements {
        for _ in 0..placement.cleared {
            lines += 1;
            if lines >= first_up && (lines - first_up) % 10 == 0 && level < last {
                level += 1;
            }
        }
        score += [0, 40, 100, 300, 1200][usize::from(placement.cleared)] * (level + 1);
    }
    (score.min(999_999), level)
}

#[test]
fn a_gamepad_replay_is_scored_at_its_gravitys_level_and_records_it() {
    let replay = recorded_nes_game(&mut Strategy::from_name("gamepad+nes-plateau").unwrap());
    assert!(replay.result.lines > 0, "a game that scores");
    let (score, level) = nes_points(&replay.placements, 19, 140, 28);
    assert_eq!(replay.result.score, score);
    assert_eq!(replay.result.level, Some(level as u8));
    let mut levels = Vec::new();
    replay
        .verify(None, &mut |step| levels.push(step.level))
        .unwrap();
    assert!(levels.iter().all(|&shown| shown == 19), "{levels:?}");
    // A changed level, or none in a version-3 replay, is refused.
    let mut tampered = replay.clone();
    tampered.result.level = Some(0);
    assert_eq!(
        tampered.verify(None, &mut |_| {}).unwrap_err().to_string(),
        "result: level 0 recorded, the placements end at level 19"
    );
    tampered.result.level = None;
    assert_eq!(
        tampered.verify(None, &mut |_| {}).unwrap_err().to_string(),
        "result: level is missing, but a version-3 replay records it (versions 1 and 2 do not)"
    );
    // A version-2 replay of the same game was scored from level 0, and still verifies so.
    let mut older = tampered;
    older.version = 2;
    older.result.score = nes_points(&replay.placements, 0, 10, 255).0;
    older.verify(None, &mut |_| {}).unwrap();
    older.result.score = replay.result.score;
    assert!(older.verify(None, &mut |_| {}).is_err());
}
