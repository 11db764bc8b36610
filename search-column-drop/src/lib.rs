//! Rotate, shift, hard drop: the fast baseline searcher (docs/spec/search.md §2).
//!
//! What most simple Tetris AIs do: at the spawn row, turn the piece to an orientation, shift it
//! to a column, then drop it straight down until it locks. No tucks, no spins: a placement is
//! found only when the whole way there is legal.
//!
//! # The reachability rule
//!
//! The spec leaves open which moves must be legal at the spawn height; this crate uses, in
//! this order:
//!
//! 1. **Spawn.** The spawn state (rotation 0 at pivot (5, 0)) must be legal, otherwise the
//!    piece cannot spawn and the search returns no placement.
//! 2. **Rotation at the spawn pivot, fewest presses.** Rotation `r` is reached from the spawn
//!    orientation by the fewest button presses, and every orientation passed through must be
//!    legal at pivot (5, 0):
//!    - T, J, L (4 orientations): `r = 1` by one clockwise press (A), `r = 2` by two clockwise
//!      presses (through rotation 1, which must be legal too), `r = 3` by one counterclockwise
//!      press (B);
//!    - Z, S, I (2 orientations): `r = 1` by one clockwise press (either button toggles);
//!    - O: no rotation.
//! 3. **Shifts at the spawn row.** Every one-column shift from x = 5 to the target column must
//!    be legal at y = 0 in the chosen rotation (a tall column next to the spawn stops the
//!    shifts past it even where a straight drop would be clear).
//! 4. **Straight drop.** From (x, 0) the piece moves down one row at a time while the next row
//!    is legal; where it stops is the lock placement.
//!
//! # Order and duplicates
//!
//! Placements come out by rotation index ascending, then pivot x ascending; each
//! (rotation, x) at most once. No two of them cover the same four cells: different columns of
//! one rotation are different cells, and no piece has two orientations with the same shape in
//! the NES table (Z, S and I have exactly two, O one). On an empty board T, J and L give 34
//! placements, Z and S 17, I 17 and O 9.
//!
//! # Paths
//!
//! On request each placement carries its inputs in the order the rule above uses them: the
//! rotation presses, then the shifts (`Left` or `Right`, one per column), then one `Down` per
//! row of the drop. Replayed from the spawn state every step is legal and the last one ends on
//! the placement (the lock itself is not an input).
//!
//! # Speed
//!
//! Nothing is tested cell by cell. Once per search, rows 0 and 1 (the only rows a piece's
//! cells can occupy at the spawn row) become two 10-bit masks, and each column's first occupied
//! row below rows 0, 1 and 2 is found with one `trailing_zeros`. The legal pivot columns of an
//! orientation at the spawn row are then a few shifts and ANDs of those masks, the columns
//! reachable from x = 5 the run of set bits around bit 5, and every drop a minimum over the
//! piece's columns. Nothing is allocated once the output buffer has grown.
//!
//! Over 600 lines only with its unit tests (the second half), which check private helpers beside
//! them.
#![deny(missing_docs)]

use std::iter;

use tetris_core::NamedSearcher;
use tetris_core::{
    Board, Footprint, Input, Piece, PieceState, Placement, Placements, SPAWN_X, SPAWN_Y,
    SearchOptions, Searcher,
};

/// The rotate-shift-drop searcher of docs/spec/search.md §2 (name `column-drop`); see the crate
/// documentation for the exact reachability rule, order and paths.
///
/// # Example
///
/// ```
/// use tetris_core::{
///     Board, Input, Piece, PieceState, Placement, Placements, SearchOptions, Searcher,
/// };
/// use tetris_search_column_drop::ColumnDrop;
///
/// let mut searcher = ColumnDrop::new();
/// let mut out = Placements::new(); // cleared and refilled by every search
/// searcher.search(&Board::standard(), Piece::T, SearchOptions::default(), &mut out);
/// assert_eq!(out.len(), 34);
/// // Rotation 0 comes first, pivot columns 1 to 8; the T's nub, one row below the pivot,
/// // rests on the floor row 19.
/// let first = out.get(0).expect("34 placements");
/// assert_eq!((first.rotation, first.x, first.y), (0, 1, 18));
///
/// // A straight drop never goes under an overhang. Three cells on row 18 roof over the left
/// // end of the floor row: a flat I at pivot column 2 lands on the roof (row 17), and the
/// // legal lock on the floor row under it is not found.
/// let overhang = Board::from_bottom_rows(&["###.......", ".........."], 20)?;
/// searcher.search(&overhang, Piece::I, SearchOptions::WITH_PATHS, &mut out);
/// assert_eq!(out.len(), 17);
/// let on_the_roof = out.get(0).expect("17 placements");
/// assert_eq!((on_the_roof.rotation, on_the_roof.x, on_the_roof.y), (0, 2, 17));
/// // Its path: no rotation, three shifts left from the spawn column 5, 17 rows down.
/// let mut path = vec![Input::Left; 3];
/// path.extend([Input::Down; 17]);
/// assert_eq!(out.path(0), Some(path.as_slice()));
/// let under = Placement::new(Piece::I, PieceState { x: 2, y: 19, rotation: 0 });
/// assert!(under.is_lock_placement_on(&overhang));
/// assert!(!out.as_slice().contains(&under));
/// # Ok::<(), tetris_core::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct ColumnDrop;

impl ColumnDrop {
    /// A column-drop searcher (it holds no state).
    pub fn new() -> ColumnDrop {
        ColumnDrop
    }
}

/// What a search needs to know about the board, read once per search.
///
/// At the spawn row a piece's cells lie on rows −2..=1, and rows above 0 are always free, so
/// whether an orientation is legal at (x, 0) depends only on rows 0 and 1: `spawn_rows[0]` and
/// `spawn_rows[1]` hold their occupied columns as bits (bit x = column x).
///
/// A straight drop from a legal state at row 0 is stopped, in each of the piece's columns, by
/// the first occupied row below the piece's lowest cell there (that cell is free; a column may
/// well be occupied ABOVE it, at row 0 over a cell on row 1). The lowest cell lies on row −1,
/// 0 or 1, so the search starts at row 0, 1 or 2: `obstacles[start][x]` is column x's first
/// occupied row at or below row `start`, H (the floor) when there is none. Each row of
/// `obstacles` is padded past column 9 (with `i8::MAX`, which no drop reaches) so that
/// [`Surface::drop_rows`] reads a fixed-width window from any pivot column.
struct Surface {
    spawn_rows: [u32; 2],
    obstacles: [[i8; OBSTACLE_ROW]; 3],
}

/// Pivot columns [`Surface::drop_rows`] computes at once: every pivot column of an orientation
/// (at most 10) fits, and a fixed width lets the compiler work on all of them in a few vector
/// instructions.
const DROP_WINDOW: usize = 16;

/// Length of a padded row of [`Surface::obstacles`]: a window starts at column 9 at most.
const OBSTACLE_ROW: usize = 9 + DROP_WINDOW;

impl Surface {
    fn new(board: &Board) -> Surface {
        // The floor as one more occupied row, in 64 bits so that H = 32 still fits.
        let floor = 1u64 << board.height();
        let mut spawn_rows = [0u32; 2];
        let mut obstacles = [[i8::MAX; OBSTACLE_ROW]; 3];
        for x in 0..10 {
            let column = board.column(x);
            spawn_rows[0] |= (column & 1) << x;
            spawn_rows[1] |= (column >> 1 & 1) << x;
            let column = column as u64 | floor;
            for (start, row) in obstacles.iter_mut().enumerate() {
                row[x] = ((column >> start).trailing_zeros() as usize + start) as i8;
            }
        }
        Surface {
            spawn_rows,
            obstacles,
        }
    }

    /// The pivot columns x (as bits) where the orientation is legal at row 0: inside the walls
    /// and on no occupied cell.
    fn legal_columns(&self, piece: Piece, rotation: u8) -> u32 {
        let mut legal = (1u32 << 10) - 1;
        for (dx, dy) in piece.cells(rotation) {
            // Cell (x + dx, dy) must be inside the walls: x from −dx to 9 − dx.
            let inside = if dx >= 0 {
                ((1u32 << 10) - 1) >> dx
            } else {
                ((1u32 << 10) - 1) << -dx & ((1u32 << 10) - 1)
            };
            legal &= inside;
            if dy >= 0 {
                let occupied = self.spawn_rows[dy as usize];
                // Bit x of the result is bit x + dx of `occupied`.
                let blocked = if dx >= 0 {
                    occupied >> dx
                } else {
                    occupied << -dx
                };
                legal &= !blocked;
            }
        }
        legal
    }

    /// The pivot rows where the orientation with `footprint` stops when dropped straight down
    /// from row `SPAWN_Y`: entry k for the pivot column `leftmost + k`, meaningful where that
    /// column is legal (entries past the last legal column are garbage). One pass per column
    /// of the piece over a fixed window of pivot columns keeps the loops short, branch-free
    /// and vectorised (measured with callgrind: a fifth fewer instructions per search than a
    /// loop over the piece's columns per placement, and a quarter fewer again than a pass
    /// over exactly the legal columns).
    #[inline]
    fn drop_rows(&self, footprint: &Footprint, leftmost: i8) -> [i8; DROP_WINDOW] {
        let mut pivots = [i8::MAX; DROP_WINDOW];
        for &(dx, lowest) in footprint.column_bottoms() {
            let start = (SPAWN_Y + lowest + 1).max(0) as usize;
            let first_column = (leftmost + dx) as usize;
            let columns: &[i8; DROP_WINDOW] = self.obstacles[start]
                [first_column..first_column + DROP_WINDOW]
                .try_into()
                .expect("a window inside the padded row");
            for (pivot, &obstacle) in pivots.iter_mut().zip(columns) {
                // The padding (i8::MAX) minus 1 − lowest (lowest ≥ −1) does not overflow.
                *pivot = (*pivot).min(obstacle - 1 - lowest);
            }
        }
        pivots
    }
}

/// The run of set bits around bit `SPAWN_X` of `legal` as (leftmost, rightmost) pivot columns:
/// the columns reached by one-column shifts from x = 5 that are each legal. `None` when x = 5
/// itself is not legal.
fn reachable_run(legal: u32) -> Option<(i8, i8)> {
    let spawn = SPAWN_X as u32;
    if legal >> spawn & 1 == 0 {
        return None;
    }
    let right = (legal >> spawn).trailing_ones() as i8;
    // Move bit 5 to bit 31; the legal bits below it follow as leading ones.
    let left = (legal << (31 - spawn)).leading_ones() as i8;
    Some((SPAWN_X - left + 1, SPAWN_X + right - 1))
}

impl NamedSearcher for ColumnDrop {
    const NAME: &'static str = "column-drop";
    const DESCRIPTION: &'static str =
        "rotate and shift at the spawn row, then drop straight down (search.md §2)";

    fn with_default_settings() -> ColumnDrop {
        ColumnDrop::new()
    }
}

impl Searcher for ColumnDrop {
    fn name(&self) -> &str {
        ColumnDrop::NAME
    }

    fn search(
        &mut self,
        board: &Board,
        piece: Piece,
        options: SearchOptions,
        out: &mut Placements,
    ) {
        out.clear(options.with_paths);
        let surface = Surface::new(board);
        let orientations = piece.orientation_count();
        let mut legal = [0u32; 4];
        for (rotation, columns) in legal.iter_mut().enumerate().take(orientations as usize) {
            *columns = surface.legal_columns(piece, rotation as u8);
        }
        let spawn_bit = 1u32 << SPAWN_X;
        if legal[0] & spawn_bit == 0 {
            return; // The piece cannot spawn.
        }
        for rotation in 0..orientations {
            // Rotation 2 is reached through rotation 1, which must be legal at the spawn pivot
            // too; rotations 1 and 3 take one press from the (legal) spawn orientation.
            if rotation == 2 && legal[1] & spawn_bit == 0 {
                continue;
            }
            let Some((leftmost, rightmost)) = reachable_run(legal[rotation as usize]) else {
                continue;
            };
            let footprint = &piece.footprint(rotation);
            let landing = surface.drop_rows(footprint, leftmost);
            for x in leftmost..=rightmost {
                let y = landing[(x - leftmost) as usize];
                let placement = Placement::new(piece, PieceState { x, y, rotation });
                if options.with_paths {
                    let shift = if x < SPAWN_X {
                        Input::Left
                    } else {
                        Input::Right
                    };
                    let path = piece
                        .rotation_presses(rotation)
                        .iter()
                        .copied()
                        .chain(iter::repeat_n(shift, x.abs_diff(SPAWN_X) as usize))
                        .chain(iter::repeat_n(Input::Down, (y - SPAWN_Y) as usize));
                    out.push_with_path(placement, path);
                } else {
                    out.push(placement);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A board `height` rows tall whose bottom rows are `bottom` (top first), empty above.
    fn with_bottom(bottom: &[&str], height: usize) -> Board {
        Board::from_bottom_rows(bottom, height).expect("test board")
    }

    fn search(board: &Board, piece: Piece, with_paths: bool) -> Placements {
        let mut out = Placements::new();
        ColumnDrop::new().search(
            board,
            piece,
            SearchOptions {
                with_paths,
                ..SearchOptions::default()
            },
            &mut out,
        );
        out
    }

    /// (rotation, x) of every placement, in output order.
    fn rotations_and_columns(placements: &Placements) -> Vec<(u8, i8)> {
        placements.iter().map(|p| (p.rotation, p.x)).collect()
    }

    #[test]
    fn counts_on_the_empty_board() {
        // Worked by hand from the orientation table: an orientation whose cells span columns
        // dx_min..=dx_max fits at pivot x from −dx_min to 9 − dx_max, i.e. 10 − width columns.
        // T, J, L: rotations 0 and 2 are 3 wide (8 columns), 1 and 3 are 2 wide (9): 34.
        // Z, S: rotation 0 is 3 wide (8), rotation 1 is 2 wide (9): 17.
        // O: 2 wide (9). I: flat is 4 wide (7), vertical 1 wide (10): 17.
        let empty = Board::standard();
        for (piece, count) in [
            (Piece::T, 34),
            (Piece::J, 34),
            (Piece::Z, 17),
            (Piece::O, 9),
            (Piece::S, 17),
            (Piece::L, 34),
            (Piece::I, 17),
        ] {
            assert_eq!(search(&empty, piece, false).len(), count, "{piece}");
        }
    }

    #[test]
    fn order_is_rotation_then_column_and_placements_rest_on_the_floor() {
        let empty = Board::standard();
        let t = search(&empty, Piece::T, false);
        let expected: Vec<(u8, i8)> = (1..=8)
            .map(|x| (0, x))
            .chain((1..=9).map(|x| (1, x)))
            .chain((1..=8).map(|x| (2, x)))
            .chain((0..=8).map(|x| (3, x)))
            .collect();
        assert_eq!(rotations_and_columns(&t), expected);
        // T flat (cells down to dy = 1) rests with its pivot on row 18; T rotation 2 (pointing
        // up, lowest dy = 0) on row 19; the vertical rotations (dy up to 1) on row 18.
        for placement in &t {
            let expected_row = if placement.rotation == 2 { 19 } else { 18 };
            assert_eq!(placement.y, expected_row, "{placement:?}");
        }
        let i = search(&empty, Piece::I, false);
        let first = i.get(0).unwrap();
        assert_eq!((first.rotation, first.x, first.y), (0, 2, 19));
        let last = i.get(16).unwrap();
        assert_eq!((last.rotation, last.x, last.y), (1, 9, 18));
    }

    #[test]
    fn a_tall_column_next_to_the_spawn_stops_the_shifts_past_it() {
        // Column 7 full from top to floor. T at y = 0 cannot cross it, so columns 8 and 9 are
        // never reached although a rotation-3 T dropped at x = 8 would fit there. By hand:
        // rotation 0 (cells x−1..x+1) needs x + 1 ≤ 6: x = 1..5, 5 placements;
        // rotation 1 (x−1..x): x ≤ 6: x = 1..6, 6; rotation 2 like 0: 5; rotation 3 (x..x+1):
        // x = 0..5, 6. Total 22 (34 on the empty board).
        let mut tall = Board::standard();
        for y in 0..20 {
            tall.set(7, y);
        }
        let t = search(&tall, Piece::T, false);
        assert_eq!(t.len(), 22);
        assert!(t.iter().all(|p| p.cells.iter().all(|&(x, _)| x < 7)));
        let expected: Vec<(u8, i8)> = (1..=5)
            .map(|x| (0, x))
            .chain((1..=6).map(|x| (1, x)))
            .chain((1..=5).map(|x| (2, x)))
            .chain((0..=5).map(|x| (3, x)))
            .collect();
        assert_eq!(rotations_and_columns(&t), expected);
        // The state column drop cannot reach is a legal lock placement all the same.
        assert!(
            Placement::new(
                Piece::T,
                PieceState {
                    x: 8,
                    y: 18,
                    rotation: 3
                }
            )
            .is_lock_placement_on(&tall)
        );
    }

    #[test]
    fn a_rotation_blocked_at_the_spawn_pivot_is_skipped_with_what_lies_behind_it() {
        // Cell (5, 1) occupied: the I still spawns (cells (3..=6, 0)), but its vertical
        // orientation at (5, 0) covers (5,−2)..(5,1) and is illegal, so only the 7 flat
        // placements remain.
        let mut blocked = Board::standard();
        blocked.set(5, 1);
        assert!(blocked.can_spawn(Piece::I));
        let i = search(&blocked, Piece::I, false);
        assert_eq!(i.len(), 7);
        assert!(i.iter().all(|p| p.rotation == 0));
        // Cell (4, 1) occupied: the J spawns (cells (4,0) (5,0) (6,0) (6,1)); its rotation 1
        // ((5,−1) (5,0) (4,1) (5,1)) is illegal at the spawn pivot, and so is rotation 2,
        // reached through it; rotation 3 ((5,−1) (6,−1) (5,0) (5,1)) is legal. By hand:
        // rotation 0 (cells x−1..x+1 on row 0, (x+1, 1)) shifts left to x = 4 (x = 3 would
        // need (4, 1)) and right to 8: x = 4..8. Rotation 3 (cells (x,−1) (x+1,−1) (x,0)
        // (x,1)) cannot reach x = 4: x = 5..8.
        let mut blocked = Board::standard();
        blocked.set(4, 1);
        let j = search(&blocked, Piece::J, false);
        let expected: Vec<(u8, i8)> = (4..=8)
            .map(|x| (0, x))
            .chain((5..=8).map(|x| (3, x)))
            .collect();
        assert_eq!(rotations_and_columns(&j), expected);
    }

    #[test]
    fn a_piece_that_cannot_spawn_has_no_placement() {
        let mut full_top = Board::standard();
        full_top.set(5, 0);
        for piece in Piece::ALL {
            assert!(search(&full_top, piece, true).is_empty(), "{piece}");
        }
    }

    #[test]
    fn drops_stop_on_the_stack_as_a_row_by_row_drop_does() {
        // Bottom rows with holes and overhangs; the fast drop must agree with the board's own
        // row-by-row `drop_row` for every placement of every piece, and each result must be a
        // lock placement.
        let rows = [
            "....#.....",
            "..###..#..",
            ".#.#.#.##.",
            "##.####.##",
            "#.########",
        ];
        for height in [4usize, 8, 20, 32] {
            let bottom = &rows[rows.len() - rows.len().min(height - 2)..];
            let board = with_bottom(bottom, height);
            for piece in Piece::ALL {
                for placement in &search(&board, piece, false) {
                    let at_spawn_row = PieceState {
                        y: SPAWN_Y,
                        ..placement.state()
                    };
                    let expected = board.drop_row(piece, at_spawn_row);
                    assert_eq!(
                        placement.y, expected,
                        "{piece} {placement:?} height {height}"
                    );
                    assert!(placement.is_lock_placement_on(&board), "{placement:?}");
                }
            }
        }
    }

    /// The reachability rule of the crate documentation written the slow, literal way with
    /// `Board::fits` and `Board::drop_row`, as an oracle for the bitmask search.
    fn literal_search(board: &Board, piece: Piece) -> Vec<Placement> {
        let mut found = Vec::new();
        if !board.can_spawn(piece) {
            return found;
        }
        for rotation in 0..piece.orientation_count() {
            let mut current = PieceState::SPAWN;
            let mut reachable = true;
            for &press in piece.rotation_presses(rotation) {
                current.rotation = match press {
                    Input::RotateCounterclockwise => piece.counterclockwise(current.rotation),
                    _ => piece.clockwise(current.rotation),
                };
                reachable &= board.fits(piece, current);
            }
            if !reachable {
                continue;
            }
            // The orientation at the spawn row, in column `x`.
            let at_spawn_row = |x| PieceState {
                x,
                y: SPAWN_Y,
                rotation,
            };
            let mut leftmost = SPAWN_X;
            while board.fits(piece, at_spawn_row(leftmost - 1)) {
                leftmost -= 1;
            }
            let mut rightmost = SPAWN_X;
            while board.fits(piece, at_spawn_row(rightmost + 1)) {
                rightmost += 1;
            }
            for x in leftmost..=rightmost {
                let y = board.drop_row(piece, at_spawn_row(x));
                found.push(Placement::new(piece, PieceState { x, y, rotation }));
            }
        }
        found
    }

    #[test]
    fn the_bitmask_search_agrees_with_the_literal_rule_on_many_boards() {
        // Boards of every height from 4 to 32, each cell occupied with probability about
        // 1/2 below a random fill line and 1/16 above it (so the spawn rows are sometimes
        // blocked), from a fixed xorshift sequence.
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut blocked_spawns = 0;
        for round in 0..2000 {
            let height = 4 + round % 29;
            let mut board = Board::new(height).unwrap();
            let fill_line = (next() % height as u64) as usize;
            for y in 0..height {
                for x in 0..10 {
                    let odds = if y >= fill_line { 2 } else { 16 };
                    if next() % odds == 0 {
                        board.set(x, y);
                    }
                }
            }
            for piece in Piece::ALL {
                let expected = literal_search(&board, piece);
                blocked_spawns += usize::from(!board.can_spawn(piece));
                assert_eq!(
                    search(&board, piece, false).as_slice(),
                    expected.as_slice(),
                    "{piece} on\n{board}"
                );
            }
        }
        assert!(blocked_spawns > 100, "the boards exercise blocked spawns");
    }

    #[test]
    fn paths_replay_to_the_placement() {
        let boards = [
            Board::standard(),
            with_bottom(&["...#......", "..##...#..", "#.######.#"], 20),
            with_bottom(&["..#.......", "..#.......", "#.#.......", "###.###.##"], 6),
        ];
        for board in &boards {
            for piece in Piece::ALL {
                let with = search(board, piece, true);
                let without = search(board, piece, false);
                assert_eq!(with.as_slice(), without.as_slice(), "paths change nothing");
                for (index, placement) in with.iter().enumerate() {
                    let path = with.path(index).unwrap();
                    let mut state = PieceState::SPAWN;
                    for &input in path {
                        state = state.after(piece, input).unwrap();
                        assert!(
                            board.fits(piece, state),
                            "{piece} {placement:?}: illegal step {input:?}"
                        );
                    }
                    assert_eq!(state, placement.state());
                    // Rotations, then shifts, then drops: no rotation after a shift or drop.
                    let first_move = path
                        .iter()
                        .position(|input| {
                            !matches!(
                                input,
                                Input::RotateClockwise | Input::RotateCounterclockwise
                            )
                        })
                        .unwrap_or(path.len());
                    assert!(
                        path[first_move..]
                            .iter()
                            .all(|input| matches!(input, Input::Left | Input::Right | Input::Down))
                    );
                }
            }
        }
        // One path by hand: T rotation 3 at x = 0 on the empty board is B, 5 × Left, 18 × Down.
        let t = search(&Board::standard(), Piece::T, true);
        let index = t.iter().position(|p| p.rotation == 3 && p.x == 0).unwrap();
        let mut expected = vec![Input::RotateCounterclockwise];
        expected.extend([Input::Left; 5]);
        expected.extend([Input::Down; 18]);
        assert_eq!(t.path(index).unwrap(), expected.as_slice());
    }

    #[test]
    fn the_buffer_is_reused_between_searches() {
        let mut out = Placements::new();
        let mut searcher = ColumnDrop::new();
        searcher.search(
            &Board::standard(),
            Piece::T,
            SearchOptions::WITH_PATHS,
            &mut out,
        );
        assert_eq!(out.len(), 34);
        searcher.search(
            &Board::standard(),
            Piece::O,
            SearchOptions::default(),
            &mut out,
        );
        assert_eq!(out.len(), 9);
        assert!(!out.has_paths());
        assert_eq!(searcher.name(), "column-drop");
    }
}
