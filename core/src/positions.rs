//! Named reference positions for benchmarks and examples. Measuring every evaluator on the
//! same board and chain keeps their numbers comparable.

use crate::board::Board;
use crate::evaluate::PlacementRecord;
use crate::piece::Piece;
use crate::placement::{PieceState, Placement};

/// A mid-game board: the stack is about 8 rows high with a few holes and an open well at the
/// right.
pub const MID_GAME: &str = "\
..........
..........
..........
..........
..........
..........
..........
..........
..........
..........
..........
..........
.#........
##....#...
###..###..
####.####.
###.#####.
#.#######.
#####.###.
#########.
";

/// The mid-game board after a T (on the ledge of row 14, covering two holes) and then a
/// vertical I in the right well (clearing row 19): the final board and the two records.
pub fn mid_game_depth_two_chain() -> (Board, [PlacementRecord; 2]) {
    let mut board = mid_game();
    let t = Placement::new(
        Piece::T,
        PieceState {
            x: 4,
            y: 13,
            rotation: 2,
        },
    );
    assert!(t.is_lock_placement_on(&board));
    let first = PlacementRecord::lock(&mut board, t);
    let i = Placement::new(
        Piece::I,
        PieceState {
            x: 9,
            y: 18,
            rotation: 1,
        },
    );
    assert!(i.is_lock_placement_on(&board));
    let second = PlacementRecord::lock(&mut board, i);
    (board, [first, second])
}

/// The [`MID_GAME`] board.
pub fn mid_game() -> Board {
    MID_GAME.parse().expect("the mid-game board parses")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_depth_two_chain_clears_the_bottom_row() {
        let (board, records) = mid_game_depth_two_chain();
        // The T clears nothing; the vertical I completes row 19 (its other cells go to rows
        // 16..18, which keep a gap), so one row is cleared in all: + 8 cells − 10.
        assert_eq!(records[0].rows_cleared(), 0);
        assert_eq!(records[1].rows_cleared(), 1);
        assert_eq!(board.occupied_count(), mid_game().occupied_count() + 8 - 10);
    }
}
