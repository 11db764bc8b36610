//! Reachability of the gamepad search against the no-gravity BFS, and every path replayed
//! frame by frame through the literal NES model of `tetris_core::frames`.

use std::collections::BTreeSet;

use tetris_core::frames::FallingPiece;
use tetris_core::{
    Board, Buttons, FrameTiming, Input, InputModel, Piece, PieceState, Placement, Placements,
    PlayedFrames, SearchOptions, Searcher, Timeline,
};
use tetris_fixtures::{MID_GAME, RIGHT_SHELF, T_SLOT, XorShift, random_stack};
use tetris_search_bfs::{Bfs, Gamepad};

fn board(text: &str) -> Board {
    text.parse().expect("test board")
}

fn timing(frames_per_row: u8, tap_rate: u8) -> FrameTiming {
    FrameTiming {
        frames_per_row,
        timeline: Timeline::uniform(tap_rate),
        inputs: InputModel::TwoThumb,
    }
}

fn article(frames_per_row: u8, tap_rate: u8) -> FrameTiming {
    FrameTiming {
        inputs: InputModel::Article,
        ..timing(frames_per_row, tap_rate)
    }
}

/// The timing of `timeline` (StackRabbit's notation) at `frames_per_row` under `inputs`.
fn timeline(frames_per_row: u8, timeline: &str, inputs: InputModel) -> FrameTiming {
    FrameTiming {
        frames_per_row,
        timeline: timeline.parse().unwrap(),
        inputs,
    }
}

fn lock_states(searcher: &mut impl Searcher, board: &Board, piece: Piece) -> BTreeSet<PieceState> {
    let mut out = Placements::new();
    searcher.search(board, piece, SearchOptions::default(), &mut out);
    let states: BTreeSet<PieceState> = out.iter().map(|placement| placement.state()).collect();
    assert_eq!(states.len(), out.len(), "each placement once");
    states
}

/// Asserts that `fewer` finds a subset of the lock states `more` finds, for every piece on
/// every board; returns for how many (board, piece) pairs the subset is strict.
fn assert_subsets(fewer: &mut impl Searcher, more: &mut impl Searcher, boards: &[Board]) -> usize {
    let mut strictly_fewer = 0;
    for board in boards {
        for piece in Piece::ALL {
            let subset = lock_states(fewer, board, piece);
            let superset = lock_states(more, board, piece);
            assert!(subset.is_subset(&superset), "{piece} on\n{board}");
            strictly_fewer += usize::from(subset.len() < superset.len());
        }
    }
    strictly_fewer
}

/// Boards with random stacks (holes, overhangs, caves), from a fixed xorshift seed.
fn random_boards(count: usize) -> Vec<Board> {
    let mut random = XorShift::new(0x9E37_79B9_7F4A_7C15);
    (0..count)
        .map(|_| {
            let stack = 4 + (random.next_value() % 12) as usize;
            random_stack(&mut random, stack, 55)
        })
        .collect()
}

/// The named boards' positions, then `random` random ones.
fn named_and_random_boards(random: usize) -> Vec<Board> {
    named_boards()
        .into_iter()
        .map(|(_, board)| board)
        .chain(random_boards(random))
        .collect()
}

fn named_boards() -> Vec<(&'static str, Board)> {
    vec![
        ("empty", Board::standard()),
        ("right shelf", board(RIGHT_SHELF)),
        ("T slot", board(T_SLOT)),
        ("mid-game", board(MID_GAME)),
    ]
}

#[test]
fn at_48_frames_per_row_and_30_hz_it_finds_the_same_placements_as_the_bfs() {
    // A row every 48 frames leaves 24 presses of each thumb per row: time for any slide or
    // spin the BFS makes, including the tuck under the shelf and the spin into the slot.
    let mut gamepad = Gamepad::with_timing(timing(48, 2));
    let mut bfs = Bfs::new();
    for (name, board) in named_boards() {
        for piece in Piece::ALL {
            assert_eq!(
                lock_states(&mut gamepad, &board, piece),
                lock_states(&mut bfs, &board, piece),
                "{name}, {piece}"
            );
        }
    }
}

#[test]
fn at_levels_19_and_29_it_finds_a_subset_of_the_bfs_placements() {
    let mut bfs = Bfs::new();
    let boards = named_and_random_boards(30);
    let mut strictly_fewer = 0;
    for frames_per_row in [2, 1] {
        let mut gamepad = Gamepad::with_timing(timing(frames_per_row, 2));
        strictly_fewer += assert_subsets(&mut gamepad, &mut bfs, &boards);
    }
    // Gravity must cost something somewhere (the tuck below, at least).
    assert!(strictly_fewer > 0);
}

#[test]
fn at_level_19_the_i_only_gets_one_column_under_the_shelf() {
    // The flat I falls at pivot 5 (cells 3..6) past the shelf (cells 7..9 of row 18) to the
    // floor row 19. Gravity brings it to row 19 on frame 38 (a row every 2nd frame) and the
    // drop of frame 40 fails, so only frames 39 and 40 can shift it along row 19 (a shift on
    // frame 38 comes before that frame's drop, on row 18, where the shelf blocks pivot 6), and
    // at 30 Hz that is one press: pivot 6. Soft drop is no faster at this level (every 2nd
    // frame as well). At 48 frames per row it has 48 frames on row 19: pivot 8, under the
    // whole shelf.
    let shelf = board(RIGHT_SHELF);
    let on_floor = |states: &BTreeSet<PieceState>| -> Vec<i8> {
        states
            .iter()
            .filter(|state| state.y == 19 && state.rotation == 0)
            .map(|state| state.x)
            .collect()
    };
    let level_19 = lock_states(&mut Gamepad::with_timing(timing(2, 2)), &shelf, Piece::I);
    assert_eq!(on_floor(&level_19), [5, 6]);
    let level_0 = lock_states(&mut Gamepad::with_timing(timing(48, 2)), &shelf, Piece::I);
    assert_eq!(on_floor(&level_0), [5, 6, 7, 8]);
}

#[test]
fn the_flat_i_reaches_both_walls_at_levels_19_and_29_at_30_hz_but_not_slower_on_a_short_field() {
    // On an empty field the flat I (cells x − 2 .. x + 1) spawns at pivot 5; the walls are
    // pivots 2 and 8, three shifts away. At level 29 it falls a row every frame: on 20 rows it
    // reaches row 19 on frame 19 and the drop of frame 20 fails, so presses can come on frames
    // 1 to 20 (a shift comes before its frame's drop): 1 + ⌊19 / r⌋ presses at a tap rate of r
    // frames, 10 at 30 Hz and still 3 at the slowest rate, 8. At level 19 (lock on frame 40)
    // there are 20 presses at 30 Hz. On a 12-row field at level 29 the drop of frame 12 fails:
    // 1 + ⌊11 / r⌋ presses, 3 up to r = 5 (frames 1, 6, 11) and only 2 at r = 6 (frames 1
    // and 7), which leaves pivots 3 to 7.
    let flat_columns = |height: usize, frames_per_row: u8, tap_rate: u8| -> Vec<i8> {
        let empty = Board::new(height).unwrap();
        let mut gamepad = Gamepad::with_timing(timing(frames_per_row, tap_rate));
        lock_states(&mut gamepad, &empty, Piece::I)
            .into_iter()
            .filter(|state| state.rotation == 0)
            .map(|state| state.x)
            .collect()
    };
    assert_eq!(flat_columns(20, 2, 2), [2, 3, 4, 5, 6, 7, 8]);
    assert_eq!(flat_columns(20, 1, 2), [2, 3, 4, 5, 6, 7, 8]);
    assert_eq!(flat_columns(20, 1, 8), [2, 3, 4, 5, 6, 7, 8]);
    assert_eq!(flat_columns(12, 1, 5), [2, 3, 4, 5, 6, 7, 8]);
    assert_eq!(flat_columns(12, 1, 6), [3, 4, 5, 6, 7]);
}

/// Searches at `timing` (given with the call) and replays every placement's frames through
/// the literal NES model at that timing, checking that the piece locks in the placement's
/// state on the last frame.
fn assert_paths_replay(
    gamepad: &mut Gamepad,
    timing: FrameTiming,
    board: &Board,
    piece: Piece,
    entry_delay: bool,
) {
    let mut out = Placements::new();
    let options = SearchOptions {
        with_paths: true,
        entry_delay,
        frame_timing: Some(timing),
        ..SearchOptions::default()
    };
    gamepad.search(board, piece, options, &mut out);
    assert!(!out.is_empty() || !board.can_spawn(piece));
    for (index, placement) in out.iter().enumerate() {
        let path = out.path(index).expect("paths were asked for");
        assert_path_replays(timing, board, placement, entry_delay, path);
    }
}

/// Replays `path` through the literal NES model at `timing`, checking that the piece locks in
/// `placement`'s state on the last frame, that no thumb presses faster than the timeline
/// allows and, under the article's model, that every frame keeps its schedule.
fn assert_path_replays(
    timing: FrameTiming,
    board: &Board,
    placement: &Placement,
    entry_delay: bool,
    path: &[Input],
) {
    let frames_per_row = timing.frames_per_row;
    let piece = placement.piece;
    assert!(placement.is_lock_placement_on(board));
    {
        let mut falling = FallingPiece::spawn(piece, entry_delay, 0);
        let mut thumbs = ThumbGaps::new(timing.timeline);
        // The article's presses keep the thumbs' gaps only at a uniform timeline (under
        // `X.......X.` it may press Left on its press frames 9 and 11, where a thumb's second
        // press must come the first gap, 8 frames, after its first); its own schedule is
        // checked frame by frame instead.
        thumbs.check =
            timing.inputs == InputModel::TwoThumb || timing.timeline.tap_rate().is_some();
        for (frame, input) in path.iter().enumerate() {
            let Input::Frame(buttons) = *input else {
                panic!("gamepad paths are frames, not {input:?}");
            };
            if timing.inputs == InputModel::Article {
                assert_article_frame(buttons, frame, timing.timeline);
            }
            thumbs.press(buttons, frame);
            let locked = falling.frame(board, buttons, frames_per_row);
            if frame + 1 < path.len() {
                assert_eq!(locked, None, "{piece} locked early on frame {}", frame + 1);
            } else {
                assert_eq!(locked, Some(placement.state()), "{piece} on\n{board}");
            }
        }
    }
}

/// Each thumb's presses along a path, checked against the timeline's gaps (the two-thumb rule,
/// which every article path keeps too at a uniform timeline): a thumb's k-th press comes at
/// least gap number k − 1 (counting the gaps from 1, round and round) after its (k − 1)-th.
/// Left/Right are one thumb, A/B the other; the search's presses last one frame each.
struct ThumbGaps {
    gaps: Vec<usize>,
    /// Per thumb: (the frame of its last press, its presses so far).
    last: [Option<(usize, usize)>; 2],
    /// Check only under the two-thumb model or a uniform timeline.
    check: bool,
}

impl ThumbGaps {
    fn new(timeline: Timeline) -> ThumbGaps {
        ThumbGaps {
            gaps: timeline.gaps().map(usize::from).collect(),
            last: [None; 2],
            check: true,
        }
    }

    fn press(&mut self, buttons: Buttons, frame: usize) {
        let thumbs = [
            Buttons::LEFT.with(Buttons::RIGHT),
            Buttons::A.with(Buttons::B),
        ];
        for (thumb, last) in thumbs.into_iter().zip(&mut self.last) {
            if buttons.0 & thumb.0 == 0 {
                continue;
            }
            let presses = match *last {
                Some((previous, presses)) => {
                    let gap = self.gaps[(presses - 1) % self.gaps.len()];
                    assert!(
                        !self.check || frame - previous >= gap,
                        "press {} on frame {}, {} frames after the last, gaps {:?}",
                        presses + 1,
                        frame + 1,
                        frame - previous,
                        self.gaps
                    );
                    presses + 1
                }
                None => 1,
            };
            *last = Some((frame, presses));
        }
    }
}

/// Checks frame `frame` (0-based) of an article-model path: nothing but on the press frames
/// (input frames 1, 1 + T, 1 + 2T, …, here 0, T, 2T, …; in general the timeline's `X`), there
/// at most one button, never Down; so never two buttons on a frame, nor presses on two
/// consecutive frames.
fn assert_article_frame(buttons: Buttons, frame: usize, timeline: Timeline) {
    let pressed = [
        Buttons::LEFT,
        Buttons::RIGHT,
        Buttons::DOWN,
        Buttons::A,
        Buttons::B,
    ]
    .into_iter()
    .filter(|&button| buttons.contains(button))
    .count();
    assert!(
        !buttons.contains(Buttons::DOWN),
        "Down on frame {}",
        frame + 1
    );
    assert!(pressed <= 1, "{buttons:?} on frame {}", frame + 1);
    if !timeline.is_input_frame(frame as u32) {
        assert_eq!(pressed, 0, "a press off the schedule, frame {}", frame + 1);
    }
}

#[test]
fn every_path_replayed_frame_by_frame_locks_where_the_search_said() {
    let boards = named_and_random_boards(12);
    let timings = [
        timing(48, 2),
        timing(6, 3),
        timing(2, 2),
        timing(2, 5),
        timing(1, 2),
        timing(1, 4),
        timing(3, 8),
        article(48, 2),
        article(6, 3),
        article(2, 2),
        article(2, 5),
        article(1, 2),
        article(1, 4),
        article(3, 8),
        timeline(2, "X....X...X...", InputModel::TwoThumb),
        timeline(2, "X....X...X...", InputModel::Article),
        timeline(1, "X.X..", InputModel::TwoThumb),
        timeline(1, "X.X..", InputModel::Article),
        timeline(3, "X.......X.", InputModel::TwoThumb),
        timeline(3, "X.......X.", InputModel::Article),
        timeline(6, "X...X..X....", InputModel::TwoThumb),
        timeline(6, "X...X..X....", InputModel::Article),
    ];
    // One searcher for every timing: each comes with the search, as a game driver passes it.
    let mut gamepad = Gamepad::new();
    for timing in timings {
        for board in &boards {
            for piece in Piece::ALL {
                assert_paths_replay(&mut gamepad, timing, board, piece, false);
            }
        }
        for piece in Piece::ALL {
            assert_paths_replay(&mut gamepad, timing, &Board::standard(), piece, true);
        }
    }
}

#[test]
fn the_first_pieces_entry_delay_reaches_more_and_its_paths_float_first() {
    // Level 29 with 10 Hz taps on 12 rows: without the delay the flat I cannot reach the
    // walls (see above); with 96 frames on row 0 it can reach every column before it falls.
    let mut gamepad = Gamepad::with_timing(timing(1, 6));
    let empty = Board::new(12).unwrap();
    let mut out = Placements::new();
    gamepad.search(
        &empty,
        Piece::I,
        SearchOptions {
            with_paths: true,
            entry_delay: true,
            frame_timing: None,
            ..SearchOptions::default()
        },
        &mut out,
    );
    let flat: BTreeSet<i8> = out
        .iter()
        .filter(|placement| placement.rotation == 0)
        .map(|placement| placement.x)
        .collect();
    assert_eq!(flat.into_iter().collect::<Vec<_>>(), [2, 3, 4, 5, 6, 7, 8]);
    // Straight down from the spawn: 11 drops and the failed 12th, at most one per frame, so
    // at least 12 frames; a drop on frame 1 needs Down on frame 1 (it ends the delay, and the
    // fall timer, 1, has reached the 1 frame per row), then gravity drops on every frame.
    let straight = out
        .iter()
        .position(|placement| {
            placement.state()
                == PieceState {
                    x: 5,
                    y: 11,
                    rotation: 0,
                }
        })
        .unwrap();
    let path = out.path(straight).unwrap();
    assert_eq!(path.len(), 12);
    assert_eq!(path[0], Input::Frame(Buttons::DOWN));
}

#[test]
fn a_blocked_spawn_gives_no_placement() {
    let mut blocked = Board::standard();
    for y in 0..2 {
        for x in 0..10 {
            blocked.set(x, y);
        }
    }
    let mut out = Placements::new();
    for piece in Piece::ALL {
        Gamepad::new().search(&blocked, piece, SearchOptions::default(), &mut out);
        assert!(out.is_empty());
    }
}

#[test]
fn the_article_model_reaches_a_subset_of_the_two_thumb_models_placements() {
    // Whatever the article's player presses (one button on every T-th frame) a two-thumb
    // player at the same tap rate can press too, so every article placement is a two-thumb
    // one; on the tall random stacks some two-thumb placements need more.
    let boards = named_and_random_boards(30);
    let mut strictly_fewer = 0;
    for (frames_per_row, tap_rate) in [(2, 2), (1, 2), (6, 3), (3, 5)] {
        let mut two_thumb = Gamepad::with_timing(timing(frames_per_row, tap_rate));
        let mut published = Gamepad::with_timing(article(frames_per_row, tap_rate));
        strictly_fewer += assert_subsets(&mut published, &mut two_thumb, &boards);
    }
    assert!(strictly_fewer > 0);
}

/// A deep well at the left wall: column 0 is open to the floor, columns 1 to 9 are filled
/// from row 6 down.
const LEFT_WELL: &str = "\
..........
..........
..........
..........
..........
..........
.#########
.#########
.#########
.#########
.#########
.#########
.#########
.#########
.#########
.#########
.#########
.#########
.#########
.#########
";

#[test]
fn at_level_19_only_two_thumbs_get_the_i_into_a_deep_left_well() {
    // The upright I (cells at pivot rows y − 2 ..= y + 1 of its column) reaches the well's
    // floor, pivot (0, 18), only by turning once and shifting left five times from the spawn
    // at pivot column 5. It falls a row on frames 2, 4, 6, …, so before frame f's shift its
    // pivot is on row ⌊(f − 1) / 2⌋; over column 1 its lowest cell must stay above the stack's
    // top, row 6, so the pivot must leave column 1 while on row 4 at the latest: by frame 9.
    // Two thumbs turn and shift on frame 1 and shift on frames 3, 5, 7 and 9: in time. The
    // article's player presses one button on each of frames 1, 3, 5, … and needs six presses:
    // the last on frame 11, with the pivot on row 5 over column 1, where the drop of frame
    // 10 already failed (it locks there).
    let well = board(LEFT_WELL);
    let floor = PieceState {
        x: 0,
        y: 18,
        rotation: 1,
    };
    let two_thumb = lock_states(&mut Gamepad::with_timing(timing(2, 2)), &well, Piece::I);
    let published = lock_states(&mut Gamepad::with_timing(article(2, 2)), &well, Piece::I);
    assert!(two_thumb.contains(&floor), "{two_thumb:?}");
    assert!(!published.contains(&floor), "{published:?}");
    assert!(published.is_subset(&two_thumb));
    // The reason is the race with gravity: with the slower gravity of level 18 (3 frames
    // per row: the pivot is on row 2 before frame 9's shift and on row 3 before frame 11's)
    // the article's player gets there too, and at level 29 (a row every frame: row 8 before
    // frame 9's shift) two thumbs do not either.
    let level_18 = lock_states(&mut Gamepad::with_timing(article(3, 2)), &well, Piece::I);
    assert!(level_18.contains(&floor), "{level_18:?}");
    let level_29 = lock_states(&mut Gamepad::with_timing(timing(1, 2)), &well, Piece::I);
    assert!(!level_29.contains(&floor), "{level_29:?}");
}

/// Every lock state the article's player can reach, by brute force over the literal frame
/// model: each frame layer holds the distinct `FallingPiece`s after that many frames, and on
/// the press frames each tries nothing, Left, Right, A and B (elsewhere nothing).
fn article_locks_by_brute_force(
    board: &Board,
    piece: Piece,
    timing: FrameTiming,
    entry_delay: bool,
) -> BTreeSet<PieceState> {
    article_locks_after(board, piece, timing, entry_delay, &[])
}

/// [`article_locks_by_brute_force`] after the piece has played the frames `played` (which
/// must not lock it): the brute force starts where they leave it, on the schedule's frame
/// that follows them.
fn article_locks_after(
    board: &Board,
    piece: Piece,
    timing: FrameTiming,
    entry_delay: bool,
    played: &[Buttons],
) -> BTreeSet<PieceState> {
    let mut locks = BTreeSet::new();
    if !board.can_spawn(piece) {
        return locks;
    }
    let mut start = FallingPiece::spawn(piece, entry_delay, 0);
    for &buttons in played {
        assert_eq!(start.frame(board, buttons, timing.frames_per_row), None);
    }
    let mut layer = vec![start];
    let mut frame = played.len();
    while !layer.is_empty() {
        let choices: &[Buttons] = if timing.timeline.is_input_frame(frame as u32) {
            &[
                Buttons::NONE,
                Buttons::LEFT,
                Buttons::RIGHT,
                Buttons::A,
                Buttons::B,
            ]
        } else {
            &[Buttons::NONE]
        };
        let mut next_layer: Vec<FallingPiece> = Vec::new();
        for falling in &layer {
            for &buttons in choices {
                let mut next = *falling;
                match next.frame(board, buttons, timing.frames_per_row) {
                    Some(lock) => {
                        locks.insert(lock);
                    }
                    None if !next_layer.contains(&next) => next_layer.push(next),
                    None => {}
                }
            }
        }
        layer = next_layer;
        frame += 1;
    }
    locks
}

#[test]
fn the_article_placements_are_exactly_those_of_a_brute_force_over_the_frame_model() {
    // The search skips no state a fixed schedule needs (it prunes nothing by dominance
    // under this model) and finds nothing the literal model does not.
    let boards: Vec<Board> = named_boards()
        .into_iter()
        .map(|(_, board)| board)
        .chain([board(LEFT_WELL)])
        .chain(random_boards(6))
        .collect();
    for (frames_per_row, pattern) in [
        (2, "X."),
        (1, "X."),
        (3, "X."),
        (3, "X.."),
        (2, "X..."),
        (2, "X....X...X..."),
        (1, "X.X.."),
        (3, "X.......X."),
    ] {
        let timing = timeline(frames_per_row, pattern, InputModel::Article);
        let mut gamepad = Gamepad::with_timing(timing);
        for board in &boards {
            for piece in Piece::ALL {
                assert_eq!(
                    lock_states(&mut gamepad, board, piece),
                    article_locks_by_brute_force(board, piece, timing, false),
                    "{piece} at {timing:?} on\n{board}"
                );
            }
        }
        // The first piece's 96 frames of entry delay follow the same schedule.
        let empty = Board::new(12).unwrap();
        let options = SearchOptions {
            entry_delay: true,
            ..SearchOptions::default()
        };
        for piece in Piece::ALL {
            let mut out = Placements::new();
            gamepad.search(&empty, piece, options, &mut out);
            let found: BTreeSet<PieceState> =
                out.iter().map(|placement| placement.state()).collect();
            assert_eq!(
                found,
                article_locks_by_brute_force(&empty, piece, timing, true),
                "{piece} at {timing:?} with the entry delay"
            );
        }
    }
}

/// A deep well at the left wall: column 0 open to the floor, columns 1 to 9 filled from row
/// `top` down (the stack's top row).
fn left_well(top: usize) -> Board {
    let mut well = Board::standard();
    for y in top..20 {
        for x in 1..10 {
            well.set(x, y);
        }
    }
    well
}

#[test]
fn at_level_19_the_timeline_decides_how_deep_a_well_the_i_still_gets_into() {
    // The upright I in the well, pivot (0, 18), needs five Left presses from the spawn column
    // 5 and one turn (the flat I stops at pivot 2, cells 0..3; the turn keeps the pivot's
    // column). At level 19 the I drops a row on frames 2, 4, 6, …: before frame f's shift
    // (the shift comes first in a frame, then the turn, then the drop) its pivot is on row
    // ⌊(f − 1) / 2⌋. Over columns 1..9 the upright I's lowest cell, pivot row + 1, must stay
    // above the stack's top row `top`, so the fifth Left must come on a frame f with
    // ⌊(f − 1) / 2⌋ ≤ top − 2, i.e. by frame 2 × top − 2 (the flat I, on one row, is no
    // lower, and a drop that fails over the stack locks it there). Soft drop only falls
    // faster. The earliest fifth Left:
    // - two thumbs (the turn on the other thumb, on frame 1 with the first Left): the
    //   shift thumb presses on frame 1 and then each timeline gap later: `X.` frames 1, 3, 5,
    //   7, 9 (9); `X..` 1, 4, 7, 10, 13 (13); `X....X...X...` (gaps 5, 4, 4) 1, 6, 10, 14, 19
    //   (19). So it makes a well whose top is row 6, 8 or 11 at the least (2 × top − 2 ≥ 9,
    //   13, 19).
    // - the article's player: one button per press frame, six presses (five Lefts and the
    //   turn); the press frames are the timeline's X from frame 1: `X.` 1, 3, 5, 7, 9, 11
    //   (11); `X..` 1, 4, 7, 10, 13, 16 (16); `X....X...X...` 1, 6, 10, 14, 19, 23 (23). So
    //   the well's top must be row 7, 9 or 13 at the least (2 × top − 2 ≥ 11, 16, 23).
    let floor = PieceState {
        x: 0,
        y: 18,
        rotation: 1,
    };
    let lowest_top = [
        ("X.", InputModel::TwoThumb, 6),
        ("X..", InputModel::TwoThumb, 8),
        ("X....X...X...", InputModel::TwoThumb, 11),
        ("X.", InputModel::Article, 7),
        ("X..", InputModel::Article, 9),
        ("X....X...X...", InputModel::Article, 13),
    ];
    for (pattern, inputs, lowest) in lowest_top {
        let timing = timeline(2, pattern, inputs);
        let mut gamepad = Gamepad::with_timing(timing);
        for top in 4..=15 {
            let well = left_well(top);
            let ordered = lock_states(&mut gamepad, &well, Piece::I);
            let mut out = Placements::new();
            gamepad.search_unordered(&well, Piece::I, SearchOptions::default(), &mut out);
            let unordered: BTreeSet<PieceState> =
                out.iter().map(|placement| placement.state()).collect();
            assert_eq!(unordered, ordered, "{pattern} {inputs}, top {top}");
            assert_eq!(
                ordered.contains(&floor),
                top >= lowest,
                "{pattern} {inputs}: the I into a well whose top is row {top}"
            );
            // And the path found for it replays through the frame model.
            assert_paths_replay(&mut gamepad, timing, &well, Piece::I, false);
        }
    }
}

/// A thumb of the two-thumb player in the brute force below: the frames it must still wait
/// before it may press again, and its presses so far (modulo the timeline's gaps).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct BruteThumb {
    wait: u32,
    presses: usize,
}

/// Every lock state a two-thumb player reaches under `timing`, by brute force over the literal
/// frame model, written from the model's definition (docs/spec/search.md §3) and nothing of
/// the search: on every frame each thumb may press one of its buttons when it waits no more
/// (a press then makes it wait the timeline's next gap, in turn from its first press: gap
/// number k − 1 before its k-th press), Down may be held or not (never with a shift), and the
/// piece plays the frame through `FallingPiece`. A press that moves or turns nothing is not
/// made (the model's presses move the piece). No state is pruned but exact repeats within a
/// frame layer.
fn two_thumb_locks_by_brute_force(
    board: &Board,
    piece: Piece,
    timing: FrameTiming,
) -> BTreeSet<PieceState> {
    two_thumb_locks_after(board, piece, timing, &[])
}

/// [`two_thumb_locks_by_brute_force`] after the piece has played the frames `played` (which
/// must not lock it): the brute force starts where they leave the piece and the thumbs (a
/// frame that holds Left or Right is a press of the shift thumb, one that holds A or B of the
/// other).
fn two_thumb_locks_after(
    board: &Board,
    piece: Piece,
    timing: FrameTiming,
    played: &[Buttons],
) -> BTreeSet<PieceState> {
    let gaps: Vec<u32> = timing.timeline.gaps().map(u32::from).collect();
    let press = |thumb: BruteThumb| BruteThumb {
        wait: gaps[thumb.presses] - 1,
        presses: (thumb.presses + 1) % gaps.len(),
    };
    let rest = |thumb: BruteThumb| BruteThumb {
        wait: thumb.wait.saturating_sub(1),
        ..thumb
    };
    let mut locks = BTreeSet::new();
    if !board.can_spawn(piece) {
        return locks;
    }
    let free = BruteThumb {
        wait: 0,
        presses: 0,
    };
    let (mut falling, mut shift_thumb, mut turn_thumb) =
        (FallingPiece::spawn(piece, false, 0), free, free);
    for &buttons in played {
        assert_eq!(falling.frame(board, buttons, timing.frames_per_row), None);
        let presses = |pair: [Buttons; 2]| pair.iter().any(|&button| buttons.contains(button));
        shift_thumb = match presses([Buttons::LEFT, Buttons::RIGHT]) {
            true => press(shift_thumb),
            false => rest(shift_thumb),
        };
        turn_thumb = match presses([Buttons::A, Buttons::B]) {
            true => press(turn_thumb),
            false => rest(turn_thumb),
        };
    }
    let mut layer = vec![(falling, shift_thumb, turn_thumb)];
    while !layer.is_empty() {
        // Exact repeats within the layer, found by position and thumbs first.
        let mut next_layer: std::collections::BTreeMap<
            (PieceState, BruteThumb, BruteThumb),
            Vec<FallingPiece>,
        > = std::collections::BTreeMap::new();
        for &(falling, shift_thumb, turn_thumb) in &layer {
            for shift in [Buttons::NONE, Buttons::LEFT, Buttons::RIGHT] {
                for turn in [Buttons::NONE, Buttons::A, Buttons::B] {
                    for down in [Buttons::NONE, Buttons::DOWN] {
                        let shifts = shift != Buttons::NONE;
                        let turns = turn != Buttons::NONE;
                        if (shifts && (shift_thumb.wait > 0 || down != Buttons::NONE))
                            || (turns && turn_thumb.wait > 0)
                        {
                            continue;
                        }
                        let mut next = falling;
                        let buttons = shift.with(turn).with(down);
                        let locked = next.frame(board, buttons, timing.frames_per_row);
                        let (before, after) = (falling.state(), next.state());
                        let moved = after.x != before.x;
                        let turned = after.rotation != before.rotation;
                        if (shifts && !moved) || (turns && !turned) {
                            continue;
                        }
                        if let Some(lock) = locked {
                            locks.insert(lock);
                            continue;
                        }
                        let shift_after = if shifts {
                            press(shift_thumb)
                        } else {
                            rest(shift_thumb)
                        };
                        let turn_after = if turns {
                            press(turn_thumb)
                        } else {
                            rest(turn_thumb)
                        };
                        let same = next_layer
                            .entry((next.state(), shift_after, turn_after))
                            .or_default();
                        if !same.contains(&next) {
                            same.push(next);
                        }
                    }
                }
            }
        }
        layer = next_layer
            .into_iter()
            .flat_map(|((_, shift, turn), fallings)| {
                fallings
                    .into_iter()
                    .map(move |falling| (falling, shift, turn))
            })
            .collect();
    }
    locks
}

#[test]
fn the_two_thumb_placements_are_exactly_those_of_a_brute_force_over_the_frame_model() {
    // On the named boards, three random 20-row stacks, an empty 8-row field and five random
    // 8-row ones, at levels 18, 19 and 29, for uniform and mixed timelines: the search's dominance
    // pruning (per phase) and its compressed state lose nothing and add nothing, ordered and
    // unordered.
    let mut random = XorShift::new(0x5EED_7153);
    let mut boards: Vec<Board> = named_and_random_boards(3);
    boards.push(Board::new(8).unwrap());
    for _ in 0..5 {
        let mut short = Board::new(8).unwrap();
        for y in 3..8 {
            for x in 0..10 {
                if random.next_value() % 100 < 45 {
                    short.set(x, y);
                }
            }
        }
        boards.push(short);
    }
    for (frames_per_row, pattern) in [
        (2, "X."),
        (3, "X."),
        (1, "X.."),
        (2, "X....X...X..."),
        (1, "X.X.."),
        (2, "X.......X."),
    ] {
        let timing = timeline(frames_per_row, pattern, InputModel::TwoThumb);
        let mut gamepad = Gamepad::with_timing(timing);
        let mut compared = 0;
        for board in &boards {
            for piece in [Piece::T, Piece::I, Piece::L, Piece::S, Piece::O] {
                let expected = two_thumb_locks_by_brute_force(board, piece, timing);
                compared += expected.len();
                assert_eq!(
                    lock_states(&mut gamepad, board, piece),
                    expected,
                    "{piece} at {timing:?} on\n{board}"
                );
                let mut out = Placements::new();
                gamepad.search_unordered(board, piece, SearchOptions::default(), &mut out);
                let unordered: BTreeSet<PieceState> =
                    out.iter().map(|placement| placement.state()).collect();
                assert_eq!(unordered, expected, "{piece} at {timing:?}, unordered");
            }
        }
        // Not a vacuous comparison: the five pieces on six boards have many placements.
        assert!(compared > 500, "{pattern}: {compared}");
        eprintln!("{pattern} at {frames_per_row} frames per row: {compared} placements");
    }
}

/// A player with a reaction time plays the first frames of a path, then searches again from
/// where they left the piece. Cut the search's own paths after 1, 2, 9 and 18 frames (when they
/// are longer) and compare the search from there with the brute forces started after the same
/// frames; every path found must also replay, after the played frames, through the frame model
/// to its lock. One test per timing, so that the test threads share them.
fn after_played_frames_the_search_finds_what_a_brute_force_finds(
    frames_per_row: u8,
    pattern: &str,
    inputs: InputModel,
) {
    let boards: Vec<Board> = named_and_random_boards(1);
    let mut compared = 0;
    let timing = timeline(frames_per_row, pattern, inputs);
    let mut gamepad = Gamepad::with_timing(timing);
    for board in &boards {
        for piece in [Piece::T, Piece::I, Piece::Z] {
            let mut from_spawn = Placements::new();
            gamepad.search(board, piece, SearchOptions::WITH_PATHS, &mut from_spawn);
            // Two paths of each search: a middle one and the last.
            let count = from_spawn.len();
            let picks = [count / 2, count.saturating_sub(1)];
            for index in picks.into_iter().filter(|&index| index < count) {
                let frames: Vec<Buttons> = from_spawn
                    .path(index)
                    .unwrap()
                    .iter()
                    .map(|input| match *input {
                        Input::Frame(buttons) => buttons,
                        other => panic!("{other:?}"),
                    })
                    .collect();
                for cut in [1, 2, 9, 18].into_iter().filter(|&cut| cut < frames.len()) {
                    let played = &frames[..cut];
                    let options = SearchOptions {
                        played: PlayedFrames::new(played).unwrap(),
                        ..SearchOptions::WITH_PATHS
                    };
                    let mut after = Placements::new();
                    gamepad.search(board, piece, options, &mut after);
                    let found: BTreeSet<PieceState> =
                        after.iter().map(|placement| placement.state()).collect();
                    let expected = match inputs {
                        InputModel::TwoThumb => two_thumb_locks_after(board, piece, timing, played),
                        InputModel::Article => {
                            article_locks_after(board, piece, timing, false, played)
                        }
                    };
                    assert_eq!(found, expected, "{piece} {pattern} {inputs} after {cut}");
                    // The placement the frames were cut from is still there.
                    assert!(found.contains(&from_spawn.as_slice()[index].state()));
                    compared += found.len();
                    for (at, placement) in after.iter().enumerate() {
                        let mut falling = FallingPiece::spawn(piece, false, 0);
                        for &buttons in played {
                            assert_eq!(falling.frame(board, buttons, frames_per_row), None);
                        }
                        let rest = after.path(at).unwrap();
                        let mut locked = None;
                        for (frame, input) in rest.iter().enumerate() {
                            let Input::Frame(buttons) = *input else {
                                panic!("{input:?}");
                            };
                            assert_eq!(locked, None, "locked before frame {frame}");
                            locked = falling.frame(board, buttons, frames_per_row);
                        }
                        assert_eq!(locked, Some(placement.state()));
                    }
                    // Asked again without paths: the same placements in the same
                    // order; unordered (the flood from the state the frames left), the
                    // same set, on this searcher (whose ordered search has this timing)
                    // and on a fresh one at level 19 and 30 Hz given the timing in the
                    // options (which hands the search to its ordered search).
                    let mut again = Placements::new();
                    let without_paths = SearchOptions {
                        with_paths: false,
                        ..options
                    };
                    gamepad.search(board, piece, without_paths, &mut again);
                    assert_eq!(again.as_slice(), after.as_slice());
                    let named = SearchOptions {
                        frame_timing: Some(timing),
                        ..without_paths
                    };
                    for (searcher, options) in
                        [(&mut gamepad, without_paths), (&mut Gamepad::new(), named)]
                    {
                        searcher.search_unordered(board, piece, options, &mut again);
                        let unordered: BTreeSet<PieceState> =
                            again.iter().map(|placement| placement.state()).collect();
                        assert_eq!(
                            unordered, expected,
                            "{piece} {pattern} {inputs} after {cut}, unordered"
                        );
                        assert_eq!(again.len(), expected.len());
                    }
                }
            }
        }
    }
    // Not a vacuous comparison: each timing's cut searches find thousands of placements.
    assert!(compared > 1000, "{pattern} {inputs}: {compared}");
    eprintln!("{pattern} {inputs}: {compared}");
}

#[test]
fn brute_force_after_played_frames_two_thumbs_at_30_hz() {
    after_played_frames_the_search_finds_what_a_brute_force_finds(3, "X.", InputModel::TwoThumb);
}

#[test]
fn brute_force_after_played_frames_two_thumbs_at_15_hz() {
    after_played_frames_the_search_finds_what_a_brute_force_finds(2, "X...", InputModel::TwoThumb);
}

#[test]
fn brute_force_after_played_frames_two_thumbs_at_13_5_hz() {
    after_played_frames_the_search_finds_what_a_brute_force_finds(
        2,
        "X....X...X...",
        InputModel::TwoThumb,
    );
}

#[test]
fn brute_force_after_played_frames_article_model_at_30_hz() {
    after_played_frames_the_search_finds_what_a_brute_force_finds(3, "X.", InputModel::Article);
}

#[test]
fn brute_force_after_played_frames_article_model_at_13_5_hz() {
    after_played_frames_the_search_finds_what_a_brute_force_finds(
        2,
        "X....X...X...",
        InputModel::Article,
    );
}

#[test]
fn frames_the_search_could_not_have_played_give_no_placement() {
    let board = Board::standard();
    let timing = timeline(2, "X.", InputModel::TwoThumb);
    let mut gamepad = Gamepad::with_timing(timing);
    let search = |gamepad: &mut Gamepad, played: &[Buttons]| {
        let options = SearchOptions {
            played: PlayedFrames::new(played).unwrap(),
            ..SearchOptions::default()
        };
        let mut out = Placements::new();
        gamepad.search(&board, Piece::T, options, &mut out);
        out.len()
    };
    // Two Left presses on consecutive frames: the thumb waits a frame at 30 Hz.
    assert_eq!(search(&mut gamepad, &[Buttons::LEFT, Buttons::LEFT]), 0);
    // Left with Down held, and Start.
    assert_eq!(
        search(&mut gamepad, &[Buttons::LEFT.with(Buttons::DOWN)]),
        0
    );
    assert_eq!(search(&mut gamepad, &[Buttons(0x80)]), 0);
    // Holding Down for 41 frames locks the T on the empty field's floor: soft drop or
    // gravity takes it a row every 2 frames, and it has 18 rows to fall.
    assert_eq!(search(&mut gamepad, &[Buttons::DOWN; 41]), 0);
    // While the same frames with a rest between the presses are fine.
    assert!(search(&mut gamepad, &[Buttons::LEFT, Buttons::NONE, Buttons::LEFT]) > 0);
}

/// The frames of a path that press anything (0-based).
fn input_frames(path: &[Input]) -> Vec<usize> {
    path.iter()
        .enumerate()
        .filter(|(_, input)| **input != Input::Frame(Buttons::NONE))
        .map(|(frame, _)| frame)
        .collect()
}

#[test]
fn the_earliest_inputs_path_reaches_every_placement_and_presses_no_later_than_the_search() {
    // A dynamic programme per placement: a sample keeps the debug build's test short.
    let boards = [
        Board::standard(),
        board(MID_GAME),
        board(RIGHT_SHELF),
        board(T_SLOT),
    ];
    let timings = [
        timing(3, 2),
        article(2, 2),
        timeline(1, "X....X...X...", InputModel::TwoThumb),
    ];
    let mut gamepad = Gamepad::new();
    for timing in timings {
        for board in &boards {
            for piece in Piece::ALL {
                let options = SearchOptions {
                    with_paths: true,
                    frame_timing: Some(timing),
                    ..SearchOptions::default()
                };
                let mut out = Placements::new();
                gamepad.search(board, piece, options, &mut out);
                let found: Vec<(Placement, Vec<Input>)> = out
                    .iter()
                    .enumerate()
                    .map(|(index, placement)| (*placement, out.path(index).unwrap().to_vec()))
                    .collect();
                for (placement, searched) in found.into_iter().step_by(4) {
                    let earliest: Vec<Input> = gamepad
                        .earliest_inputs_path(board, &placement, options)
                        .expect("every placement the search finds has a path")
                        .into_iter()
                        .map(Input::Frame)
                        .collect();
                    assert_path_replays(timing, board, &placement, false, &earliest);
                    let (mine, its) = (input_frames(&earliest), input_frames(&searched));
                    // Fewer input frames first, then earlier ones: never worse than the
                    // search's own path on that order.
                    assert!(
                        (mine.len(), &mine) <= (its.len(), &its),
                        "{placement:?}: {mine:?} against the search's {its:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn the_earliest_inputs_path_acts_from_the_first_frame_and_pairs_a_shift_with_a_turn() {
    // Level 18 (3 frames per row), 30 Hz, empty board: every thumb may press on frames 0, 2,
    // 4, …; a T turned once clockwise and 2 columns left pairs Left + A on frame 0 and
    // presses Left on frame 2; 3 columns right, unturned, is Right on frames 0, 2 and 4.
    // Then nothing until the piece locks (the search's own path soft-drops: Down is an
    // input frame too, so the earliest path leaves it out).
    let timing = timing(3, 2);
    let board = Board::standard();
    let options = SearchOptions {
        with_paths: true,
        frame_timing: Some(timing),
        ..SearchOptions::default()
    };
    let mut gamepad = Gamepad::new();
    let mut out = Placements::new();
    gamepad.search(&board, Piece::T, options, &mut out);
    let spawn_x = tetris_core::SPAWN_X;
    let cases = [
        (
            spawn_x - 2,
            Piece::T.clockwise(0),
            vec![(0, Buttons::LEFT.with(Buttons::A)), (2, Buttons::LEFT)],
        ),
        (
            spawn_x + 3,
            0,
            vec![
                (0, Buttons::RIGHT),
                (2, Buttons::RIGHT),
                (4, Buttons::RIGHT),
            ],
        ),
    ];
    for (x, rotation, presses) in cases {
        let index = out
            .iter()
            .position(|placement| {
                placement.state().x == x && placement.state().rotation == rotation
            })
            .expect("the empty board has this placement");
        let placement = out.iter().nth(index).copied().unwrap();
        let path = gamepad
            .earliest_inputs_path(&board, &placement, options)
            .unwrap();
        let path_inputs: Vec<Input> = path.iter().map(|&buttons| Input::Frame(buttons)).collect();
        assert_path_replays(timing, &board, &placement, false, &path_inputs);
        let pressed: Vec<(usize, Buttons)> = path
            .iter()
            .enumerate()
            .filter(|(_, buttons)| **buttons != Buttons::NONE)
            .map(|(frame, buttons)| (frame, *buttons))
            .collect();
        assert_eq!(pressed, presses, "x {x}, rotation {rotation}");
    }
}
