//! Placement filters: predicates on candidate lock placements (docs/spec/search.md §4).
//!
//! The lookahead chain asks its filter about every placement at every depth, each time with
//! the board that piece is placed on (before it locks). A rejected placement is not played and
//! no chain goes through it. Filters are plain data, so one filter can be shared between
//! threads.

use crate::board::{BOARD_WIDTH, Board};
use crate::placement::Placement;

/// A predicate on candidate lock placements.
pub trait PlacementFilter {
    /// Whether `placement` may be played on `board`, the board the piece is placed on (before
    /// it locks and before rows clear).
    fn accepts(&self, board: &Board, placement: &Placement) -> bool;
}

/// Any `Fn(&Board, &Placement) -> bool` is a filter, so a one-off rule needs no new type.
impl<F: Fn(&Board, &Placement) -> bool> PlacementFilter for F {
    fn accepts(&self, board: &Board, placement: &Placement) -> bool {
        self(board, placement)
    }
}

/// Keeps one column (the rightmost by default) open as a well for Tetrises.
///
/// Rule: a placement is accepted when none of its cells lies in the well column, or when every
/// one of its cells in the well column lies in a row that the placement completes — so that
/// after its rows clear the well column holds none of its cells. The case this is for is a
/// vertical I dropped into a 4-deep well beside four rows that it completes (a Tetris); a
/// vertical I that completes fewer rows than it has cells in the well is rejected, because its
/// leftover cells would plug the well. Any other piece whose well cells all lie in rows it
/// completes is accepted by the same rule (the well is just as open afterwards).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WellFilter {
    column: usize,
}

impl WellFilter {
    /// A well in `column` (0..10).
    ///
    /// # Panics
    /// If `column` is 10 or more.
    pub fn new(column: usize) -> WellFilter {
        assert!(
            column < BOARD_WIDTH,
            "well column {column} is outside 0..10"
        );
        WellFilter { column }
    }

    /// A well in the rightmost column, 9.
    pub fn rightmost() -> WellFilter {
        WellFilter::new(BOARD_WIDTH - 1)
    }

    /// The well column.
    pub fn column(&self) -> usize {
        self.column
    }
}

impl Default for WellFilter {
    /// The rightmost column.
    fn default() -> Self {
        WellFilter::rightmost()
    }
}

impl PlacementFilter for WellFilter {
    fn accepts(&self, board: &Board, placement: &Placement) -> bool {
        let column = self.column as i8;
        if placement.cells.iter().all(|&(x, _)| x != column) {
            return true;
        }
        let mut after = *board;
        after.place(placement.piece, placement.state());
        let completed_rows = after.full_rows();
        placement
            .cells
            .iter()
            .filter(|&&(x, _)| x == column)
            .all(|&(_, y)| y >= 0 && completed_rows >> y & 1 != 0)
    }
}

/// Only accepts placements that draw a target picture: every cell of the placement must lie on
/// an occupied cell of the picture, a board of the same height as the one played on.
///
/// The picture is in the coordinates of the board each piece is placed on; rows that clear
/// move the stack but not the picture. A cell above row 0 lies on no cell of the picture, and a
/// board whose height differs from the picture's accepts nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PatternFilter {
    picture: Board,
}

impl PatternFilter {
    /// A filter for the occupied cells of `picture`.
    pub fn new(picture: Board) -> PatternFilter {
        PatternFilter { picture }
    }

    /// The target picture.
    pub fn picture(&self) -> &Board {
        &self.picture
    }
}

impl PlacementFilter for PatternFilter {
    fn accepts(&self, board: &Board, placement: &Placement) -> bool {
        board.height() == self.picture.height()
            && placement.cells.iter().all(|&(x, y)| {
                y >= 0
                    && (y as u8) < self.picture.height()
                    && self.picture.is_occupied(x as usize, y as usize)
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::piece::Piece;
    use crate::placement::PieceState;

    /// A board `height` rows tall whose bottom rows are `bottom` (top first), empty above.
    fn with_bottom(bottom: &[&str], height: usize) -> Board {
        Board::from_bottom_rows(bottom, height).expect("test board")
    }

    fn at(piece: Piece, rotation: u8, x: i8, y: i8) -> Placement {
        Placement::new(piece, PieceState { x, y, rotation })
    }

    #[test]
    fn the_well_takes_a_tetris() {
        // Four rows full except column 9. A vertical I (cells (x, y−2)..(x, y+1)) at x = 9,
        // y = 18 covers rows 16..=19 of column 9 and completes all four: accepted.
        let board = with_bottom(&["#########."; 4], 20);
        let well = WellFilter::rightmost();
        assert_eq!(well.column(), 9);
        assert!(well.accepts(&board, &at(Piece::I, 1, 9, 18)));
        // A flat I on top of the stack (row 15, columns 6..=9) puts (9, 15) in the well and
        // completes nothing: rejected. The same I at columns 2..=5 stays out of the well.
        assert!(!well.accepts(&board, &at(Piece::I, 0, 8, 15)));
        assert!(well.accepts(&board, &at(Piece::I, 0, 4, 15)));
    }

    #[test]
    fn a_vertical_i_that_completes_fewer_rows_than_it_fills_is_rejected() {
        // Only rows 17..=19 lack column 9; row 16 is empty. The I at (9, 18) covers rows
        // 16..=19 of column 9, completes rows 17..=19 and leaves (9, 16) behind: rejected.
        let board = with_bottom(&["#########."; 3], 20);
        let well = WellFilter::rightmost();
        assert!(!well.accepts(&board, &at(Piece::I, 1, 9, 18)));
        // On the empty board nothing completes a row: the well accepts nothing in column 9.
        assert!(!well.accepts(&Board::standard(), &at(Piece::I, 1, 9, 18)));
        assert!(well.accepts(&Board::standard(), &at(Piece::I, 1, 8, 18)));
    }

    #[test]
    fn a_piece_whose_well_cells_all_clear_is_accepted() {
        // Not only the I: rows 18 and 19 lack columns 8 and 9; an O at pivot (9, 18) covers
        // (8,18) (9,18) (8,19) (9,19), completes both rows, and both of its column-9 cells lie
        // in them, so column 9 is empty again after the clear: accepted.
        let board = with_bottom(&["########..", "########.."], 20);
        assert!(WellFilter::rightmost().accepts(&board, &at(Piece::O, 0, 9, 18)));
        // With row 18 lacking column 7 too, the O completes only row 19 and (9, 18) stays in
        // the well: rejected.
        let board = with_bottom(&["#######...", "########.."], 20);
        assert!(!WellFilter::rightmost().accepts(&board, &at(Piece::O, 0, 9, 18)));
    }

    #[test]
    fn the_well_column_can_be_chosen() {
        let board = with_bottom(&[".#########"; 4], 20);
        let left = WellFilter::new(0);
        assert!(left.accepts(&board, &at(Piece::I, 1, 0, 18)));
        assert!(!left.accepts(&board, &at(Piece::I, 0, 2, 15)));
        assert!(left.accepts(&board, &at(Piece::I, 0, 4, 15)));
        // The rightmost-column filter does not care about column 0.
        assert!(WellFilter::default().accepts(&board, &at(Piece::I, 0, 2, 15)));
    }

    #[test]
    #[should_panic(expected = "outside 0..10")]
    fn a_well_outside_the_board_is_a_bug() {
        WellFilter::new(10);
    }

    #[test]
    fn the_pattern_accepts_only_placements_on_the_picture() {
        // The picture: a T-shaped target (4,18) (5,18) (6,18) (5,19) plus (0,19).
        let picture = with_bottom(&["....###...", "#....#...."], 20);
        let pattern = PatternFilter::new(picture);
        assert_eq!(pattern.picture(), &picture);
        let empty = Board::standard();
        // T rotation 0 at (5, 18): cells (4,18) (5,18) (6,18) (5,19), all on the picture.
        assert!(pattern.accepts(&empty, &at(Piece::T, 0, 5, 18)));
        // One column to the left, (3, 18) is not on the picture.
        assert!(!pattern.accepts(&empty, &at(Piece::T, 0, 4, 18)));
        // A vertical I at (0, 18) covers (0,16)..(0,19); only (0, 19) is on the picture.
        assert!(!pattern.accepts(&empty, &at(Piece::I, 1, 0, 18)));
        // A cell above row 0 is never on the picture, even with a full top row drawn.
        let full_top =
            Board::from_rows(&[["##########"; 4].as_slice(), &[".........."; 16]].concat())
                .unwrap();
        let top_pattern = PatternFilter::new(full_top);
        assert!(top_pattern.accepts(&empty, &at(Piece::I, 0, 5, 0)));
        assert!(!top_pattern.accepts(&empty, &at(Piece::I, 1, 5, 1)));
        assert!(top_pattern.accepts(&empty, &at(Piece::I, 1, 5, 2)));
        // A board of another height accepts nothing.
        let short = Board::new(10).unwrap();
        assert!(!pattern.accepts(&short, &at(Piece::T, 0, 5, 18)));
    }

    #[test]
    fn closures_are_filters() {
        let only_o = |_: &Board, placement: &Placement| placement.piece == Piece::O;
        let empty = Board::standard();
        assert!(only_o.accepts(&empty, &at(Piece::O, 0, 1, 18)));
        assert!(!only_o.accepts(&empty, &at(Piece::T, 0, 5, 18)));
    }
}
