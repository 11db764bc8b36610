//! What a placement changes, column by column: for evaluators that update a board's features
//! for the few columns a placement touches instead of evaluating the whole board again
//! ([`crate::Evaluator::last_link_values`]).
//!
//! Every placement of one search goes on the same board. One that clears no row changes only
//! the columns its cells are in (one to four), each by OR-ing in its cells. So an evaluator
//! computes its per-column terms of the board once per search, and per placement only the
//! terms of the columns it touches (and, for terms that look at neighbours, one more on each
//! side). This module gives the parts every such evaluator needs: the board's columns padded
//! with walls ([`padded_columns`]), each placement's cells per column ([`PieceColumns`]), and
//! whether a placement fills a row ([`FullRows`]), which sends it the whole-board way, and the
//! runs of one orientation a search's placements come in ([`orientation_runs`]), so that what
//! depends only on the orientation (its width, its rows) is looked up once per run.

use crate::board::{BOARD_WIDTH, Board};
use crate::piece::Piece;
use crate::placement::Placement;

/// `placements` split into its runs of consecutive placements of one piece and rotation, in
/// order (a search yields its placements grouped so; any order is still split correctly, into
/// more, shorter runs). Every placement of a run has the same width, cells relative to its
/// pivot and rows, which an evaluator then takes once per run.
pub fn orientation_runs(placements: &[Placement]) -> impl Iterator<Item = &[Placement]> {
    placements.chunk_by(|one, next| one.piece == next.piece && one.rotation == next.rotation)
}

/// Slots of a column array padded with two walls on each side: slot `x + 2` is column x. Two
/// walls per side, so that a placement's columns and two more on each side (what a term that
/// looks at both neighbours of a neighbour reads) never leave the array.
pub const PADDED_SLOTS: usize = BOARD_WIDTH + 4;

/// The board's columns at slots `2..12`, with walls (occupied on every row of the field) at
/// slots 0, 1, 12 and 13.
#[inline(always)]
pub fn padded_columns(board: &Board) -> [u32; PADDED_SLOTS] {
    let mut columns = [board.row_mask(); PADDED_SLOTS];
    columns[2..2 + BOARD_WIDTH].copy_from_slice(board.columns());
    columns
}

/// One placement's cells per column: columns `first_column..first_column + width`, `cells[k]`
/// the rows (bit y) its cells occupy in column `first_column + k`, cells above the field left
/// out, as [`Board::lock`] leaves them out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlacedColumns {
    /// The leftmost column the piece covers.
    pub first_column: usize,
    /// How many columns it covers (1 to 4).
    pub width: usize,
    /// Its cells in each column it covers, as row bits; unused entries are 0.
    pub cells: [u32; 4],
}

/// One orientation's cells as column masks relative to its pivot.
#[derive(Clone, Copy, Debug, Default)]
struct Shape {
    /// The smallest dx of its cells.
    first_dx: i8,
    /// How many columns it covers.
    width: u8,
    /// `rows[k]`: the cells in column `first_dx + k`, bit `dy + 4` (dy ≥ −2).
    rows: [u64; 4],
}

/// A piece's four orientations as column masks ([`PieceColumns::of`]; then
/// [`PieceColumns::placed`] costs a few shifts per placement).
#[derive(Clone, Copy, Debug)]
pub struct PieceColumns {
    piece: Piece,
    shapes: [Shape; 4],
}

/// The column masks of every piece, built at compile time from the orientation table
/// (rotations a piece does not have repeat rotation 0's).
const PIECE_COLUMNS: [PieceColumns; 7] = {
    let empty = Shape {
        first_dx: 0,
        width: 0,
        rows: [0; 4],
    };
    let mut table = [PieceColumns {
        piece: Piece::I,
        shapes: [empty; 4],
    }; 7];
    let mut index = 0;
    while index < 7 {
        let piece = Piece::ALL[index];
        table[index].piece = piece;
        let mut rotation = 0;
        while rotation < 4 {
            let cells = piece.cells(rotation % piece.orientation_count());
            let (mut first_dx, mut last_dx) = (i8::MAX, i8::MIN);
            let mut cell = 0;
            while cell < 4 {
                let dx = cells[cell].0;
                if dx < first_dx {
                    first_dx = dx;
                }
                if dx > last_dx {
                    last_dx = dx;
                }
                cell += 1;
            }
            let mut rows = [0u64; 4];
            let mut cell = 0;
            while cell < 4 {
                let (dx, dy) = cells[cell];
                rows[(dx - first_dx) as usize] |= 1 << (dy + 4);
                cell += 1;
            }
            table[index].shapes[rotation as usize] = Shape {
                first_dx,
                width: (last_dx - first_dx + 1) as u8,
                rows,
            };
            rotation += 1;
        }
        index += 1;
    }
    table
};

impl PieceColumns {
    /// The column masks of `piece`'s orientations.
    #[inline(always)]
    pub fn of(piece: Piece) -> &'static PieceColumns {
        &PIECE_COLUMNS[piece.index()]
    }

    /// How many columns `placement` covers (what [`PieceColumns::placed`] gives as
    /// [`PlacedColumns::width`]: one orientation's placements all have the same); `None` when
    /// it is not a placement of this piece.
    #[inline(always)]
    pub fn width(&self, placement: &Placement) -> Option<usize> {
        (placement.piece == self.piece)
            .then(|| self.shapes[placement.rotation as usize & 3].width as usize)
    }

    /// The cells of `placement` per column, on a board whose rows are `row_mask`; `None` when
    /// it is not a placement of this piece, or lies so far above the field (pivot row below
    /// −4) that the masks cannot hold it (callers take the whole-board way then).
    #[inline(always)]
    pub fn placed(&self, placement: &Placement, row_mask: u32) -> Option<PlacedColumns> {
        if placement.piece != self.piece || placement.y < -4 {
            return None;
        }
        let shape = &self.shapes[placement.rotation as usize & 3];
        // Bit dy + 4 moves to bit y + dy + 8, then to y + dy; rows above 0 fall off.
        let shift = (placement.y + 4) as u32;
        Some(PlacedColumns {
            first_column: (placement.x + shape.first_dx) as usize,
            width: shape.width as usize,
            cells: shape
                .rows
                .map(|rows| ((rows << shift) >> 8) as u32 & row_mask),
        })
    }
}

/// A board's full-row masks left and right of every column, so that whether a placement fills
/// a row costs one AND per column it covers ([`FullRows::after`]).
#[derive(Clone, Copy, Debug)]
pub struct FullRows {
    /// `left[x]`: rows full in columns `0..x`.
    left: [u32; BOARD_WIDTH + 1],
    /// `right[x]`: rows full in columns `x..10`.
    right: [u32; BOARD_WIDTH + 1],
}

impl FullRows {
    /// The masks of `board`.
    #[inline(always)]
    pub fn new(board: &Board) -> FullRows {
        let columns = board.columns();
        let mut left = [board.row_mask(); BOARD_WIDTH + 1];
        let mut right = [board.row_mask(); BOARD_WIDTH + 1];
        for x in 0..BOARD_WIDTH {
            left[x + 1] = left[x] & columns[x];
            right[BOARD_WIDTH - 1 - x] = right[BOARD_WIDTH - x] & columns[BOARD_WIDTH - 1 - x];
        }
        FullRows { left, right }
    }

    /// The rows full in every column outside `placed`'s (AND them with its new columns to
    /// know which rows it fills).
    #[inline(always)]
    pub fn outside(&self, placed: &PlacedColumns) -> u32 {
        self.left[placed.first_column] & self.right[placed.first_column + placed.width]
    }

    /// The rows full on the board once `placed`'s cells are added (0 when it clears none).
    #[inline(always)]
    pub fn after(&self, board: &Board, placed: &PlacedColumns) -> u32 {
        let mut full = self.outside(placed);
        for k in 0..placed.width {
            full &= board.column(placed.first_column + k) | placed.cells[k];
        }
        full
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::placement::PieceState;

    #[test]
    fn placed_columns_hold_the_cells_the_lock_stores() {
        for piece in Piece::ALL {
            let columns = PieceColumns::of(piece);
            for rotation in 0..piece.orientation_count() {
                for y in -2..20 {
                    for x in 0..10 {
                        let placement = Placement::new(piece, PieceState { x, y, rotation });
                        if placement
                            .cells
                            .iter()
                            .any(|&(x, y)| !(0..10).contains(&x) || y >= 20)
                        {
                            continue;
                        }
                        let placed = columns.placed(&placement, u32::MAX >> 12).unwrap();
                        assert_eq!(columns.width(&placement), Some(placed.width));
                        let other = PieceColumns::of(Piece::ALL[(piece.index() + 1) % 7]);
                        assert_eq!(other.width(&placement), None);
                        let mut expected = [0u32; BOARD_WIDTH];
                        for (x, y) in placement.cells {
                            if y >= 0 {
                                expected[x as usize] |= 1 << y;
                            }
                        }
                        let mut got = [0u32; BOARD_WIDTH];
                        for k in 0..placed.width {
                            got[placed.first_column + k] = placed.cells[k];
                        }
                        assert_eq!(got, expected, "{placement:?}");
                        let covered = placement.cells.iter().map(|&(x, _)| x as usize);
                        assert_eq!(placed.first_column, covered.clone().min().unwrap());
                        assert_eq!(
                            placed.first_column + placed.width - 1,
                            covered.max().unwrap()
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn full_rows_after_a_placement_are_the_rows_the_lock_clears() {
        let mut board = Board::new(6).unwrap();
        for x in 0..BOARD_WIDTH {
            if x != 4 {
                board.set(x, 5);
                board.set(x, 4);
            }
        }
        // A vertical I in column 4 fills rows 4 and 5 (and covers rows 2 and 3).
        let placement = Placement::new(
            Piece::I,
            PieceState {
                x: 4,
                y: 4,
                rotation: 1,
            },
        );
        let placed = PieceColumns::of(Piece::I)
            .placed(&placement, board.row_mask())
            .unwrap();
        let full = FullRows::new(&board).after(&board, &placed);
        let mut locked = board;
        assert_eq!(full, locked.lock(Piece::I, placement.state()).cleared_rows);
        assert_eq!(full, 0b11_0000);
    }
}
