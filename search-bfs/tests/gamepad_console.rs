//! The gamepad search under the console rule (docs/spec/rules.md; docs/spec/nes-facts.md §1.5 and §6): a console
//! board's hidden rows collide, a spawn that overlaps may still move out, and a lock that
//! overlaps is no placement. Every path is replayed frame by frame through the literal NES
//! model (`tetris_core::frames::FallingPiece`), which tests only each move's target, as the
//! console does.

use std::collections::BTreeSet;

use tetris_core::frames::FallingPiece;
use tetris_core::{
    Board, FrameTiming, GameOverRule, Input, InputModel, Piece, PieceState, Placements,
    SearchOptions, Searcher,
};
use tetris_fixtures::{XorShift, random_stack};
use tetris_search_bfs::Gamepad;

/// Level 19 at 30 Hz: the plateau's timing.
const LEVEL_19: FrameTiming = FrameTiming::LEVEL_19_30_HZ;

fn options(rule: GameOverRule, timing: FrameTiming, entry_delay: bool) -> SearchOptions {
    SearchOptions {
        played: tetris_core::PlayedFrames::NONE,
        with_paths: true,
        entry_delay,
        frame_timing: Some(timing),
        game_over_rule: rule,
    }
}

fn search(board: &Board, piece: Piece, options: SearchOptions) -> Placements {
    let mut out = Placements::new();
    Gamepad::new().search(board, piece, options, &mut out);
    out
}

fn lock_states(placements: &Placements) -> BTreeSet<PieceState> {
    placements
        .iter()
        .map(|placement| placement.state())
        .collect()
}

/// Every placement is a legal lock on `board`, and its path, replayed through the literal
/// frame model on `board`, locks the piece exactly there on its last frame.
fn assert_paths_replay(board: &Board, piece: Piece, options: SearchOptions, out: &Placements) {
    let timing = options.frame_timing.expect("a gamepad timing");
    for (index, placement) in out.iter().enumerate() {
        assert!(
            placement.is_lock_placement_on(board),
            "{placement:?} on {board:?}"
        );
        let path = out.path(index).expect("paths were asked for");
        let mut falling = FallingPiece::spawn(piece, options.entry_delay, 0);
        for (frame, input) in path.iter().enumerate() {
            let Input::Frame(buttons) = *input else {
                panic!("gamepad paths are frames, not {input:?}");
            };
            let locked = falling.frame(board, buttons, timing.frames_per_row);
            if frame + 1 < path.len() {
                assert_eq!(locked, None, "{piece} locked early on frame {}", frame + 1);
            } else {
                assert_eq!(locked, Some(placement.state()), "{piece} on {board:?}");
            }
        }
    }
}

/// A console board whose column 6 is full from the floor to row 0: every piece but the O
/// spawns overlapping it (T, J, L, I and S cover (6, 0), Z covers (6, 1)).
fn full_column_6() -> Board {
    let mut board = Board::standard().with_hidden_rows();
    for y in 0..20 {
        board.set(6, y);
    }
    board
}

#[test]
fn under_the_console_rule_a_piece_that_spawns_overlapping_moves_out_left_of_the_column() {
    let board = full_column_6();
    for piece in Piece::ALL {
        for entry_delay in [false, true] {
            let simulation = options(GameOverRule::Simulation, LEVEL_19, entry_delay);
            let console = options(GameOverRule::Console, LEVEL_19, entry_delay);
            let under_simulation = search(&board, piece, simulation);
            let under_console = search(&board, piece, console);
            if piece == Piece::O {
                // The O spawns on (4, 0) (5, 0) (4, 1) (5, 1), clear of the column: the rule
                // changes nothing.
                assert!(board.can_spawn(piece));
                assert_eq!(lock_states(&under_simulation), lock_states(&under_console));
                continue;
            }
            assert!(!board.can_spawn(piece), "{piece}");
            // The simulation rule: a spawn that overlaps is the end; no placement.
            assert!(under_simulation.is_empty(), "{piece}");
            // The console rule: a press tests only its target, so the piece moves out (a
            // shift to the left, or a turn that lifts its cell in column 6 onto hidden row
            // −1); nothing gets past the full column, so every lock is left of it or above it.
            assert!(!under_console.is_empty(), "{piece}");
            for placement in under_console.iter() {
                assert!(
                    placement.cells.iter().all(|&(x, y)| x < 6 || y < 0),
                    "{piece}: {placement:?}"
                );
            }
            assert_paths_replay(&board, piece, console, &under_console);
        }
    }
}

#[test]
fn a_kept_cell_on_a_hidden_row_shuts_the_only_way_into_a_well() {
    // Rows 3..19 full but for column 0: a well 17 rows deep. Rows 0..2 are empty. A vertical
    // I (cells (x, y − 2)..(x, y + 1)) fits in columns 1..9 only with its pivot on row 1 or
    // above, and in column 0 from the top down; so it enters the well by shifting from
    // column 1 to column 0 with its pivot on row 0 or 1, where it covers (0, −1). On the
    // console board a cell kept on (0, −1) blocks that shift; nothing else changes. At 48
    // frames per row (level 0) the I has the time to turn and walk there.
    let mut rows = vec![".........."; 3];
    rows.extend(vec![".#########"; 17]);
    let plain: Board = rows.join("\n").parse().unwrap();
    let mut console = plain.with_hidden_rows();
    console.set_hidden(0, -1);
    let level_0 = FrameTiming {
        frames_per_row: 48,
        timeline: tetris_core::Timeline::uniform(2),
        inputs: InputModel::TwoThumb,
    };
    let rule = GameOverRule::Console;
    let in_the_well = PieceState {
        x: 0,
        y: 18,
        rotation: 1,
    };
    let without_the_cell = search(&plain, Piece::I, options(rule, level_0, false));
    let with_the_cell = search(&console, Piece::I, options(rule, level_0, false));
    assert!(lock_states(&without_the_cell).contains(&in_the_well));
    assert!(!lock_states(&with_the_cell).contains(&in_the_well));
    assert!(lock_states(&with_the_cell).is_subset(&lock_states(&without_the_cell)));
    assert_paths_replay(
        &console,
        Piece::I,
        options(rule, level_0, false),
        &with_the_cell,
    );
    // The frame model agrees: the path that takes the I into the well on the plain board
    // does not on the console board.
    let index = without_the_cell
        .iter()
        .position(|placement| placement.state() == in_the_well)
        .unwrap();
    let mut falling = FallingPiece::spawn(Piece::I, false, 0);
    let mut locked = None;
    for input in without_the_cell.path(index).unwrap() {
        let Input::Frame(buttons) = *input else {
            unreachable!("gamepad paths are frames")
        };
        locked = locked.or(falling.frame(&console, buttons, level_0.frames_per_row));
    }
    assert_ne!(locked, Some(in_the_well));
}

/// Console boards with random stacks, random cells on the hidden rows, and on every third
/// board random cells on rows 0 and 1 (so that spawns overlap), from a fixed xorshift seed.
fn random_console_boards(count: usize) -> Vec<Board> {
    let mut random = XorShift::new(0x2545_F491_4F6C_DD1D);
    (0..count)
        .map(|index| {
            let stack = 3 + (random.next_value() % 15) as usize;
            let mut board = random_stack(&mut random, stack, 55).with_hidden_rows();
            for x in 0..10 {
                for y in [-2, -1] {
                    if random.next_value() % 100 < 25 {
                        board.set_hidden(x, y);
                    }
                }
                if index % 3 == 0 {
                    for y in 0..2 {
                        if random.next_value() % 100 < 15 {
                            board.set(x, y);
                        }
                    }
                }
            }
            board
        })
        .collect()
}

#[test]
fn on_random_console_boards_every_placement_is_a_legal_lock_its_path_reaches() {
    let timings = [
        LEVEL_19,
        FrameTiming {
            frames_per_row: 1,
            timeline: tetris_core::Timeline::uniform(2),
            inputs: InputModel::TwoThumb,
        },
        FrameTiming {
            frames_per_row: 3,
            timeline: tetris_core::Timeline::uniform(3),
            inputs: InputModel::TwoThumb,
        },
        FrameTiming {
            inputs: InputModel::Article,
            ..LEVEL_19
        },
    ];
    let (mut searches, mut overlapping_spawns_left) = (0, 0);
    for board in random_console_boards(90) {
        for piece in Piece::ALL {
            for timing in timings {
                let console = options(GameOverRule::Console, timing, false);
                let out = search(&board, piece, console);
                assert_paths_replay(&board, piece, console, &out);
                searches += 1;
                if !board.can_spawn(piece) && !out.is_empty() {
                    overlapping_spawns_left += 1;
                }
            }
        }
    }
    // The property is not vacuous: pieces did move out of overlapping spawns.
    assert_eq!(searches, 90 * 7 * 4);
    assert!(overlapping_spawns_left >= 20, "{overlapping_spawns_left}");
}

#[test]
fn without_hidden_cells_or_an_overlapping_spawn_the_console_rule_changes_nothing() {
    for board in random_console_boards(60) {
        let plain = board.without_hidden_rows();
        for piece in Piece::ALL {
            if !plain.can_spawn(piece) {
                continue;
            }
            let simulation = search(
                &plain,
                piece,
                options(GameOverRule::Simulation, LEVEL_19, false),
            );
            let console = search(
                &plain.with_hidden_rows(),
                piece,
                options(GameOverRule::Console, LEVEL_19, false),
            );
            assert_eq!(simulation.len(), console.len());
            for index in 0..simulation.len() {
                assert_eq!(simulation.get(index), console.get(index));
                assert_eq!(simulation.path(index), console.path(index));
            }
        }
    }
}
