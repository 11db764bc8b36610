//! Properties of the searchers on boards grown by seeded random play (with tucks): BFS paths
//! replay legally, every result is a lock state found once, the order is deterministic and
//! independent of path recording, BFS equals its literal reference transcription, BFS
//! finds every column-drop placement (and strictly more on tuck and spin boards), and the
//! gamepad search finds only BFS placements, with frames that replay through the NES model.

use std::collections::HashSet;

use proptest::prelude::*;
use tetris_core::frames::FallingPiece;
use tetris_core::{
    Board, Buttons, FrameTiming, Input, InputModel, Piece, PieceState, Placement, Placements,
    SearchOptions, Searcher, Timeline,
};
use tetris_fixtures::{RIGHT_SHELF, T_SLOT};
use tetris_search_bfs::{Bfs, Gamepad, reference};
use tetris_search_column_drop::ColumnDrop;
use tetris_tests::grow_board;

const WITH_PATHS: SearchOptions = SearchOptions::WITH_PATHS;
const WITHOUT_PATHS: SearchOptions = SearchOptions {
    with_paths: false,
    entry_delay: false,
    frame_timing: None,
    game_over_rule: tetris_core::GameOverRule::Simulation,
    played: tetris_core::PlayedFrames::NONE,
};

fn search(
    searcher: &mut impl Searcher,
    board: &Board,
    piece: Piece,
    options: SearchOptions,
) -> Placements {
    let mut out = Placements::new();
    searcher.search(board, piece, options, &mut out);
    out
}

/// Input timelines: uniform ones (every tap rate) and mixed ones of 2 to 4 gaps of 2 to 8
/// frames each, written out as `X` and dots (at most 32 frames).
fn timelines() -> impl Strategy<Value = Timeline> {
    prop_oneof![
        Gamepad::TAP_RATES.prop_map(Timeline::uniform),
        prop::collection::vec(Gamepad::TAP_RATES, 2..=4).prop_map(|gaps| {
            let text: String = gaps
                .iter()
                .map(|&gap| format!("X{}", ".".repeat(usize::from(gap) - 1)))
                .collect();
            text.parse().unwrap()
        }),
    ]
}

/// Checks that a two-thumb path keeps each thumb's presses the timeline's gaps apart: its
/// k-th press comes at least gap number k − 1 (counting the timeline's gaps from 1, round
/// and round) after its (k − 1)-th. Left/Right are one thumb, A/B the other; a press is a
/// frame that holds the button (the search's taps last one frame).
fn thumbs_keep_the_timeline(path: &[Input], timeline: Timeline) -> Result<(), TestCaseError> {
    let gaps: Vec<usize> = timeline.gaps().map(usize::from).collect();
    let thumbs = [
        Buttons::LEFT.with(Buttons::RIGHT),
        Buttons::A.with(Buttons::B),
    ];
    for thumb in thumbs {
        let mut last: Option<(usize, usize)> = None;
        for (frame, input) in path.iter().enumerate() {
            let Input::Frame(buttons) = *input else {
                return Err(TestCaseError::fail(format!("{input:?} is not a frame")));
            };
            if buttons.0 & thumb.0 == 0 {
                continue;
            }
            let presses = match last {
                Some((previous, presses)) => {
                    let gap = gaps[(presses - 1) % gaps.len()];
                    prop_assert!(
                        frame - previous >= gap,
                        "press {} on frame {} only {} frames after frame {} ({timeline})",
                        presses + 1,
                        frame + 1,
                        frame - previous,
                        previous + 1
                    );
                    presses + 1
                }
                None => 1,
            };
            last = Some((frame, presses));
        }
    }
    Ok(())
}

/// Board heights for the grown boards: the short fields the arena plays (10, 12), the NES
/// field, and the extremes.
fn heights() -> impl Strategy<Value = usize> {
    prop_oneof![
        Just(4usize),
        Just(10),
        Just(12),
        Just(16),
        Just(20),
        Just(32),
        4usize..=32
    ]
}

/// A board grown by `placements` random lock placements from `seed`.
fn grown_boards() -> impl Strategy<Value = Board> {
    (any::<u64>(), 0usize..80, heights())
        .prop_map(|(seed, placements, height)| grow_board(seed, placements, height))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Each path, replayed input by input from the spawn state, is legal at every step and
    /// ends in its placement, which is a lock state; no state is reported twice.
    #[test]
    fn bfs_paths_replay_to_distinct_lock_states(board in grown_boards()) {
        let mut bfs = Bfs::new();
        for piece in Piece::ALL {
            let found = search(&mut bfs, &board, piece, WITH_PATHS);
            prop_assert_eq!(found.is_empty(), !board.can_spawn(piece));
            let mut seen = HashSet::new();
            for (index, placement) in found.iter().enumerate() {
                prop_assert_eq!(placement.piece, piece);
                prop_assert!(seen.insert(placement.state()), "{:?} twice", placement);
                prop_assert!(placement.is_lock_placement_on(&board), "{:?}", placement);
                prop_assert_eq!(placement.cells, Placement::new(piece, placement.state()).cells);
                let mut at = PieceState::SPAWN;
                prop_assert!(board.fits(piece, at));
                for &input in found.path(index).unwrap() {
                    at = at.after(piece, input).unwrap();
                    prop_assert!(
                        board.fits(piece, at),
                        "{:?} leaves the legal states at {:?} on the way to {:?}",
                        input,
                        at,
                        placement
                    );
                }
                prop_assert_eq!(at, placement.state());
            }
        }
    }

    /// Two searches give identical results, with or without paths, on a reused searcher and
    /// on a fresh one, and the path-less result equals the with-paths result.
    #[test]
    fn bfs_order_is_deterministic_and_independent_of_paths(
        board in grown_boards(),
        other in grown_boards(),
    ) {
        let mut reused = Bfs::new();
        for piece in Piece::ALL {
            let first = search(&mut reused, &board, piece, WITH_PATHS);
            // A search on another board in between must leave nothing behind.
            search(&mut reused, &other, piece, WITH_PATHS);
            let second = search(&mut reused, &board, piece, WITH_PATHS);
            let without = search(&mut reused, &board, piece, WITHOUT_PATHS);
            let fresh = search(&mut Bfs::new(), &board, piece, WITHOUT_PATHS);
            prop_assert_eq!(first.as_slice(), second.as_slice());
            prop_assert_eq!(first.as_slice(), without.as_slice());
            prop_assert_eq!(first.as_slice(), fresh.as_slice());
            prop_assert!(!without.has_paths());
            for index in 0..first.len() {
                prop_assert_eq!(first.path(index), second.path(index));
            }
        }
    }

    /// The fast searcher and the literal transcription of docs/spec/search.md agree placement by
    /// placement, in order, and path by path.
    #[test]
    fn bfs_equals_the_reference_transcription(board in grown_boards()) {
        let mut bfs = Bfs::new();
        for piece in Piece::ALL {
            let found = search(&mut bfs, &board, piece, WITH_PATHS);
            let expected = reference::search(&board, piece);
            prop_assert_eq!(found.len(), expected.len());
            for (index, expected) in expected.iter().enumerate() {
                prop_assert_eq!(found.as_slice()[index], expected.placement);
                prop_assert_eq!(found.path(index), Some(&expected.path[..]));
            }
        }
    }

    /// Every column-drop placement covers the same cells as some BFS placement.
    #[test]
    fn bfs_finds_every_column_drop_placement(board in grown_boards()) {
        let mut bfs = Bfs::new();
        let mut column_drop = ColumnDrop::new();
        for piece in Piece::ALL {
            let full = search(&mut bfs, &board, piece, WITHOUT_PATHS);
            let cells: HashSet<_> = full.iter().map(Placement::sorted_cells).collect();
            for placement in &search(&mut column_drop, &board, piece, WITHOUT_PATHS) {
                prop_assert!(cells.contains(&placement.sorted_cells()), "{:?}", placement);
            }
        }
    }

    /// The gamepad search under gravity finds only BFS lock states, each once, and each
    /// path of frames, played through the literal NES frame model, locks the piece in its
    /// placement on its last frame.
    #[test]
    fn gamepad_placements_are_bfs_placements_and_their_frames_replay(
        board in grown_boards(),
        frames_per_row in prop_oneof![Just(1u8), Just(2), Just(3), 1u8..=8],
        timeline in timelines(),
        entry_delay in any::<bool>(),
        inputs in prop_oneof![Just(InputModel::TwoThumb), Just(InputModel::Article)],
    ) {
        let mut gamepad = Gamepad::with_timing(FrameTiming { frames_per_row, timeline, inputs });
        let mut bfs = Bfs::new();
        let options = SearchOptions { with_paths: true, entry_delay, frame_timing: None, ..SearchOptions::default() };
        for piece in Piece::ALL {
            let everything: HashSet<PieceState> =
                search(&mut bfs, &board, piece, WITHOUT_PATHS).iter().map(Placement::state).collect();
            let found = search(&mut gamepad, &board, piece, options);
            prop_assert_eq!(found.is_empty(), !board.can_spawn(piece));
            let mut seen = HashSet::new();
            for (index, placement) in found.iter().enumerate() {
                prop_assert!(seen.insert(placement.state()), "{:?} twice", placement);
                prop_assert!(everything.contains(&placement.state()), "{:?}", placement);
                let mut falling = FallingPiece::spawn(piece, entry_delay, 0);
                let path = found.path(index).unwrap();
                if inputs == InputModel::TwoThumb {
                    thumbs_keep_the_timeline(path, timeline)?;
                }
                for (frame, input) in path.iter().enumerate() {
                    let Input::Frame(buttons) = *input else {
                        return Err(TestCaseError::fail(format!("{input:?} is not a frame")));
                    };
                    if inputs == InputModel::Article {
                        // One button at most, only on the press frames (the timeline's X:
                        // 1, 1 + T, 1 + 2T, … for a uniform one; never two consecutive
                        // frames), never Down.
                        let pressed = [Buttons::LEFT, Buttons::RIGHT, Buttons::DOWN, Buttons::A, Buttons::B]
                            .into_iter()
                            .filter(|&button| buttons.contains(button))
                            .count();
                        prop_assert!(!buttons.contains(Buttons::DOWN), "Down on frame {}", frame + 1);
                        prop_assert!(pressed <= 1, "{:?} on frame {}", buttons, frame + 1);
                        prop_assert!(
                            pressed == 0 || timeline.is_input_frame(frame as u32),
                            "a press off the schedule on frame {}", frame + 1
                        );
                    }
                    let locked = falling.frame(&board, buttons, frames_per_row);
                    let expected = (frame + 1 == path.len()).then_some(placement.state());
                    prop_assert_eq!(locked, expected, "frame {} of {}", frame + 1, path.len());
                }
            }
        }
    }

    /// Whatever the article's player presses, a two-thumb player at the same uniform timing
    /// can press too: its placements are a subset. (Not so for every mixed timeline: under
    /// `X.......X.` the article's player may press Left on frames 9 and 11, its press frames,
    /// but a two-thumb thumb's second press comes at least the first gap, 8 frames, after its
    /// first; docs/spec/search.md §3.)
    #[test]
    fn article_placements_are_two_thumb_placements(
        board in grown_boards(),
        frames_per_row in prop_oneof![Just(1u8), Just(2), Just(3), 1u8..=8],
        timeline in prop_oneof![Just(Timeline::THIRTY_HZ), Gamepad::TAP_RATES.prop_map(Timeline::uniform)],
        entry_delay in any::<bool>(),
    ) {
        let two_thumb = FrameTiming { frames_per_row, timeline, inputs: InputModel::TwoThumb };
        let article = FrameTiming { inputs: InputModel::Article, ..two_thumb };
        let mut gamepad = Gamepad::new();
        for piece in Piece::ALL {
            let states = |gamepad: &mut Gamepad, timing: FrameTiming| -> HashSet<PieceState> {
                let options = SearchOptions { with_paths: false, entry_delay, frame_timing: Some(timing), ..SearchOptions::default() };
                search(gamepad, &board, piece, options).iter().map(Placement::state).collect()
            };
            let fewer = states(&mut gamepad, article);
            let more = states(&mut gamepad, two_thumb);
            prop_assert!(fewer.is_subset(&more), "{}", piece);
        }
    }
}

/// Cells of every placement of `piece` found by `searcher` on `board`.
fn cell_sets(searcher: &mut impl Searcher, board: &Board, piece: Piece) -> HashSet<[(i8, i8); 4]> {
    search(searcher, board, piece, WITHOUT_PATHS)
        .iter()
        .map(Placement::sorted_cells)
        .collect()
}

#[test]
fn bfs_finds_strictly_more_than_column_drop_on_the_tuck_and_spin_boards() {
    let tuck_target = Placement::new(
        Piece::I,
        PieceState {
            x: 8,
            y: 19,
            rotation: 0,
        },
    );
    let spin_target = Placement::new(
        Piece::T,
        PieceState {
            x: 3,
            y: 18,
            rotation: 0,
        },
    );
    for (text, piece, target) in [
        (RIGHT_SHELF, Piece::I, tuck_target),
        (T_SLOT, Piece::T, spin_target),
    ] {
        let board: Board = text.parse().unwrap();
        let full = cell_sets(&mut Bfs::new(), &board, piece);
        let drops = cell_sets(&mut ColumnDrop::new(), &board, piece);
        assert!(drops.is_subset(&full), "{piece}");
        assert!(
            full.len() > drops.len(),
            "{piece}: {} vs {}",
            full.len(),
            drops.len()
        );
        assert!(full.contains(&target.sorted_cells()), "{piece}");
        assert!(!drops.contains(&target.sorted_cells()), "{piece}");
    }
}
