//! Straight drops from above the field (docs/spec/search.md §2b): each column's top and the
//! row where an orientation dropped straight down comes to rest.
//!
//! The literature's one-piece game (`drop`, in `tetris-search-drop`) and the `mdptetris`
//! generator (which must count the placements MDPTetris's search tries, see
//! [`crate::generator`]) both need these landing rows; they live here once so that the two can
//! never disagree. The proof that the landing row is exact is in `tetris-search-drop`'s crate
//! documentation ("Landing, and why it is exact").

use crate::board::{BOARD_WIDTH, Board};
use crate::piece::{Footprint, Piece};

/// Each column's topmost occupied row, H (the floor) for an empty column: the lowest set bit
/// of the column bitboard with the floor added as bit H (64 bits, so H = 32 fits).
#[inline]
pub fn column_tops(board: &Board) -> [i8; BOARD_WIDTH] {
    let floor = 1u64 << board.height();
    std::array::from_fn(|x| (board.column(x) as u64 | floor).trailing_zeros() as i8)
}

/// The landing pivot rows of the orientation with `footprint` for its pivot columns
/// `first_x..=last_x`, written to `pivots` (one per column, so `pivots.len()` must be
/// `last_x − first_x + 1`), from the column tops `tops`: the minimum over the piece's columns
/// dx of `top(x + dx) − 1 − lowest(dx)`. One pass per column of the piece over contiguous
/// columns keeps the loops short and branch-free.
#[inline]
pub fn landing_rows(footprint: &Footprint, tops: &[i8; BOARD_WIDTH], pivots: &mut [i8]) {
    pivots.fill(i8::MAX);
    for &(dx, lowest) in footprint.column_bottoms() {
        let first_column = (footprint.first_x + dx) as usize;
        let columns = &tops[first_column..first_column + pivots.len()];
        for (pivot, &top) in pivots.iter_mut().zip(columns) {
            *pivot = (*pivot).min(top - 1 - lowest);
        }
    }
}

/// How many straight drops `piece` has on a 10-wide board: every orientation at every pivot
/// column between the walls (17 for I, Z and S, 9 for O, 34 for T, J and L).
pub const fn drop_count(piece: Piece) -> u32 {
    let mut count = 0;
    let mut rotation = 0;
    while rotation < piece.orientation_count() {
        let footprint = piece.footprint(rotation);
        count += (footprint.last_x - footprint.first_x + 1) as u32;
        rotation += 1;
    }
    count
}

/// [`drop_count`] of every piece, by [`Piece::index`], evaluated at compile time (the
/// `mdptetris` generator asks for it after every placement).
const DROP_COUNTS: [u32; 7] = {
    let mut counts = [0; 7];
    let mut index = 0;
    while index < 7 {
        counts[index] = drop_count(Piece::ALL[index]);
        index += 1;
    }
    counts
};

/// How many straight drops of `piece` on `board` come to rest with every cell inside the field
/// (no cell above row 0): the drops that do not end the game under the literature's rule.
///
/// Fast path: when the top four rows are empty (every column's top is row 4 or lower), a
/// drop's lowest cell in the column that stops it rests on row 3 or lower, and no piece is
/// more than four rows tall, so no cell can reach above row 0 and the answer is
/// [`drop_count`]. The test is one OR of the columns' top four rows, and the count a table
/// lookup.
#[inline]
pub fn drops_inside_field(board: &Board, piece: Piece) -> u32 {
    let top_four_rows = board
        .columns()
        .iter()
        .fold(0, |rows, &column| rows | column)
        & 0xF;
    if top_four_rows == 0 {
        return DROP_COUNTS[piece.index()];
    }
    count_drops_inside_field(board, piece)
}

/// [`drops_inside_field`] without its fast path: every drop landed and its top row checked.
fn count_drops_inside_field(board: &Board, piece: Piece) -> u32 {
    let tops = column_tops(board);
    let mut inside = 0;
    let mut landing = [0i8; BOARD_WIDTH];
    for rotation in 0..piece.orientation_count() {
        let footprint = piece.footprint(rotation);
        let pivots = &mut landing[footprint.first_x as usize..=footprint.last_x as usize];
        landing_rows(&footprint, &tops, pivots);
        // The orientation's topmost cell is at the pivot row + its smallest dy.
        let top_dy = piece.vertical_extent(rotation).0;
        inside += pivots.iter().filter(|&&y| y + top_dy >= 0).count() as u32;
    }
    inside
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drop_counts_per_piece() {
        // docs/spec/search.md §2b: an orientation w columns wide has 10 − w + 1 pivot columns.
        // T, J, L: 8 + 9 + 8 + 9; Z, S: 8 + 9; I: 7 + 10; O: 9.
        let expected = [
            (Piece::T, 34),
            (Piece::J, 34),
            (Piece::Z, 17),
            (Piece::O, 9),
            (Piece::S, 17),
            (Piece::L, 34),
            (Piece::I, 17),
        ];
        for (piece, count) in expected {
            assert_eq!(drop_count(piece), count, "{piece}");
            assert_eq!(drops_inside_field(&Board::standard(), piece), count);
        }
    }

    #[test]
    fn drops_ending_above_the_field_are_not_counted() {
        // A 4-row board with column 0 full (top row 0) and column 9 holding rows 2 and 3
        // (top row 2); every other column empty (top 4).
        //
        // I (17 drops): vertical (4 rows tall) at column 0 lands with its bottom on row −1,
        // top on −4: ends. Vertical at column 9: bottom on row 1, top on −2: ends. Vertical
        // elsewhere: bottom on row 3, top on 0: inside. Flat I over column 0 (pivot x = 2 only,
        // covering columns 0..=3) rests on row −1: ends. Flat over column 9 (x = 8, columns
        // 6..=9) rests on row 1: inside. So 17 − 3 = 14.
        //
        // O (9 drops, 2 rows): over column 0 (x = 1) bottom row −1: ends. Over column 9
        // (x = 9, columns 8, 9) bottom row 1, top 0: inside. So 9 − 1 = 8.
        //
        // T (34 drops): every drop touching column 0 lands with a cell on row −1 or above: the
        // flat orientations (3 wide) at their leftmost pivot (2 drops), the vertical ones
        // (2 wide) at their leftmost pivot (2 drops): 4 end. Over column 9 (top row 2): a
        // flat T with its lowest cell in column 9 on row 1 has its top row at 0 at worst
        // (2 rows tall): inside; a vertical T (3 rows tall) whose column-9 part rests on row 1
        // reaches row −1 when its column-9 cell is its lowest: the vertical T with the
        // nub on the left (cells (0,−1)(−1,0)(0,0)(0,1), rotation 1) at x = 9 has its column-9
        // cells on rows −1..=1: ends. Rotation 3 (stem in the left column, nub right) at
        // x = 8: the nub (1,0) in column 9 rests on row 1, so the pivot row is 1, the stem
        // covers rows 0..=2 of column 8: inside. So 34 − 5 = 29.
        let mut board = Board::new(4).unwrap();
        for y in 0..4 {
            board.set(0, y);
        }
        board.set(9, 2);
        board.set(9, 3);
        assert_eq!(drops_inside_field(&board, Piece::I), 14);
        assert_eq!(drops_inside_field(&board, Piece::O), 8);
        assert_eq!(drops_inside_field(&board, Piece::T), 29);
    }

    #[test]
    fn the_fast_path_agrees_with_counting() {
        // Column 3 topped at row 4 (a 20-row board): the fast path applies; the count is
        // still the full count, as counting every drop shows.
        let mut board = Board::standard();
        board.set(3, 4);
        for piece in Piece::ALL {
            let inside = count_drops_inside_field(&board, piece);
            assert_eq!(inside, drop_count(piece), "{piece}");
            assert_eq!(drops_inside_field(&board, piece), inside, "{piece}");
        }
    }
}
