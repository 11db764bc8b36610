//! Our placements in StackRabbit's coordinates: `[rotation, xOffset, yOffset]`.
//!
//! StackRabbit draws each orientation in a grid of 3 or 4 rows of 4 cells (its
//! `docs/tetrominoes.js`, `PIECE_LOOKUP`), lists a piece's orientations spawn first with each
//! next one a clockwise turn (the A button), and places a piece by its grid's top-left corner:
//! the spawn corner is column 3, row −1 (row −2 for I), and a placement is the rotation index
//! with the corner's shift from there, rows counted from the top. Our orientation table (core's
//! `piece.rs`) lists the same orientations in the same order, and every grid holds our pivot at
//! its column 2, row 1 (row 2 for I), so the triple is simply `[rotation, x − 5, y]` from our
//! pivot `(x, y)`: the spawn pivot (5, 0) is `[0, 0, 0]`. The tests check this against the grids
//! themselves, cell by cell, for every piece, orientation and position on the board.
//!
//! StackRabbit's C++ engine prints the same rotation and x but the corner's absolute row
//! (`engine-movelist-cpp`'s `firstPlacement`: `y + initialY`), which
//! [`stackrabbit_cpp_placement`] gives.

use tetris_core::{Piece, PieceState, Placement, SPAWN_X, SPAWN_Y};

/// The row of StackRabbit's spawn corner: −2 for I, −1 for the others (its `initialY`).
pub fn initial_y(piece: Piece) -> i8 {
    match piece {
        Piece::I => -2,
        _ => -1,
    }
}

/// `placement` as StackRabbit's `[rotation, xOffset, yOffset]` (`get-move`, `engine-movelist`).
pub fn stackrabbit_placement(placement: &Placement) -> [i8; 3] {
    [
        placement.rotation as i8,
        placement.x - SPAWN_X,
        placement.y - SPAWN_Y,
    ]
}

/// `placement` as StackRabbit's C++ engine prints it: `[rotation, xOffset, row of the grid's
/// top-left corner]` (`engine-movelist-cpp`).
pub fn stackrabbit_cpp_placement(placement: &Placement) -> [i8; 3] {
    let [rotation, x, y] = stackrabbit_placement(placement);
    [rotation, x, y + initial_y(placement.piece)]
}

/// The placement of `piece` at StackRabbit's `[rotation, xOffset, yOffset]`, or `None` for a
/// rotation the piece does not have or a position out of our coordinates' range (legality on
/// a board is not checked).
pub fn placement_from_stackrabbit(piece: Piece, [rotation, x, y]: [i8; 3]) -> Option<Placement> {
    let rotation = u8::try_from(rotation)
        .ok()
        .filter(|&rotation| rotation < piece.orientation_count())?;
    let state = PieceState {
        x: x.checked_add(SPAWN_X)?,
        y: y.checked_add(SPAWN_Y)?,
        rotation,
    };
    Some(Placement::new(piece, state))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// StackRabbit's grids, copied from its `docs/tetrominoes.js` (each listed top row first;
    /// 1 is a cell of the piece), in its rotation order: the independent truth.
    fn grids(piece: Piece) -> Vec<Vec<&'static str>> {
        let grids: &[&[&str]] = match piece {
            Piece::I => &[
                &["0000", "0000", "1111", "0000"],
                &["0010", "0010", "0010", "0010"],
            ],
            Piece::J => &[
                &["0000", "0111", "0001"],
                &["0010", "0010", "0110"],
                &["0100", "0111", "0000"],
                &["0011", "0010", "0010"],
            ],
            Piece::L => &[
                &["0000", "0111", "0100"],
                &["0110", "0010", "0010"],
                &["0001", "0111", "0000"],
                &["0010", "0010", "0011"],
            ],
            Piece::O => &[&["0000", "0110", "0110", "0000"]],
            Piece::S => &[&["0000", "0011", "0110"], &["0010", "0011", "0001"]],
            Piece::T => &[
                &["0000", "0111", "0010"],
                &["0010", "0110", "0010"],
                &["0010", "0111", "0000"],
                &["0010", "0011", "0010"],
            ],
            Piece::Z => &[&["0000", "0110", "0011"], &["0001", "0011", "0010"]],
        };
        grids.iter().map(|grid| grid.to_vec()).collect()
    }

    /// The board cells of StackRabbit's grid `rotation` placed at `[rotation, x, y]`: the
    /// corner is at column 3 + x, row initialY + y.
    fn stackrabbit_cells(piece: Piece, [rotation, x, y]: [i8; 3]) -> Vec<(i8, i8)> {
        let grid = &grids(piece)[rotation as usize];
        let mut cells = Vec::new();
        for (row, line) in grid.iter().enumerate() {
            for (column, cell) in line.chars().enumerate() {
                if cell == '1' {
                    cells.push((3 + x + column as i8, initial_y(piece) + y + row as i8));
                }
            }
        }
        cells.sort_unstable();
        cells
    }

    #[test]
    fn every_orientation_matches_stackrabbits_grid_cell_by_cell() {
        for piece in Piece::ALL {
            assert_eq!(
                grids(piece).len(),
                usize::from(piece.orientation_count()),
                "{piece}: StackRabbit lists as many orientations as we do"
            );
            for rotation in 0..piece.orientation_count() {
                for x in -2..12 {
                    for y in -2..22 {
                        let placement = Placement::new(piece, PieceState { x, y, rotation });
                        let triple = stackrabbit_placement(&placement);
                        assert_eq!(
                            placement.sorted_cells().to_vec(),
                            stackrabbit_cells(piece, triple),
                            "{piece} rotation {rotation} at ({x}, {y}) as {triple:?}"
                        );
                        assert_eq!(placement_from_stackrabbit(piece, triple), Some(placement));
                    }
                }
            }
        }
    }

    #[test]
    fn named_cases_worked_by_hand() {
        // The flat T at its spawn: StackRabbit's spawn corner, [0, 0, 0].
        let spawn = Placement::new(Piece::T, PieceState::SPAWN);
        assert_eq!(stackrabbit_placement(&spawn), [0, 0, 0]);
        assert_eq!(stackrabbit_cpp_placement(&spawn), [0, 0, -1]);
        // A vertical I in the left column of an empty board: cells (0, 16) to (0, 19). Its
        // grid's filled column is column 2, so the corner is at column −2 (xOffset −5), and
        // its top row 16 (the corner's row; yOffset 16 − (−2) = 18).
        let vertical = Placement::new(
            Piece::I,
            PieceState {
                x: 0,
                y: 18,
                rotation: 1,
            },
        );
        assert_eq!(
            vertical.sorted_cells(),
            [(0, 16), (0, 17), (0, 18), (0, 19)]
        );
        assert_eq!(stackrabbit_placement(&vertical), [1, -5, 18]);
        assert_eq!(stackrabbit_cpp_placement(&vertical), [1, -5, 16]);
        // A flat I on the floor at the right wall: cells (6..=9, 19); the grid's row 2 holds
        // the cells, so the corner is at (6, 17): xOffset 3, yOffset 17 − (−2) = 19.
        let flat = Placement::new(
            Piece::I,
            PieceState {
                x: 8,
                y: 19,
                rotation: 0,
            },
        );
        assert_eq!(stackrabbit_placement(&flat), [0, 3, 19]);
    }

    #[test]
    fn triples_without_a_placement() {
        assert_eq!(placement_from_stackrabbit(Piece::O, [1, 0, 0]), None);
        assert_eq!(placement_from_stackrabbit(Piece::S, [2, 0, 0]), None);
        assert_eq!(placement_from_stackrabbit(Piece::T, [-1, 0, 0]), None);
        assert_eq!(placement_from_stackrabbit(Piece::T, [0, 127, 0]), None);
    }
}
