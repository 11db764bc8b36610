//! The BFS's placements in no particular order: a reachability flood on bitboards, for the
//! lookahead chain's searches of later pieces ([`tetris_core::Searcher::search_unordered`]).
//!
//! The canonical order costs a queue: every state is dequeued in turn and its five successors
//! tested one by one. When the order does not matter only the reachable SET does, and that can
//! be computed a whole (column, rotation) word of pivot rows at a time, on the same `legal`
//! words as the ordered search:
//!
//! - **down**: within one word, the rows reachable by falling from the reached rows are the
//!   rest of each run of legal rows below a reached row. With `s` the reached legal rows and
//!   `l` the legal rows, `l + s` carries each lowest reached bit through the rest of its run
//!   and flips the run's bits, so `((l + s) ^ l | s) & l` is the set (rows are bits 0..H ≤ 32
//!   of a `u64`, so the carry never overflows);
//! - **left / right**: a reached row of column x is reached in column x ± 1 at the same
//!   rotation where that is legal — a pass left to right and one right to left carry a row
//!   across any run of legal columns;
//! - **turns**: a reached row is reached at the other rotations of the same column where they
//!   are legal.
//!
//! Sweeps of the three repeat until the right-to-left passes and the turns change nothing
//! (see `flood`: one sweep on a board without overhangs, two or three on most others). The
//! seeds are the spawn state, or, when the board has an open band (see the design note of the
//! crate), every state of the band, all of them reachable. The lock placements are then the
//! reached states whose row below is not legal: exactly the set the ordered search returns
//! (its oracle is the same move definition), which the crate's tests check on random boards.
//!
//! Paths need the BFS tree, so a search asked for paths takes the ordered search.

use tetris_core::{BOARD_WIDTH, Board, Piece, PieceState, Placement, Placements, SPAWN_X};

use crate::{Bfs, WORD_SLOTS, open_band_rows, word_of};

/// The rows reachable by falling from the reached rows `seeds` through the legal rows `legal`
/// (see the module documentation), `seeds` included where legal.
#[inline(always)]
fn fall(seeds: u64, legal: u64) -> u64 {
    let seeds = seeds & legal;
    ((legal.wrapping_add(seeds) ^ legal) | seeds) & legal
}

impl Bfs {
    /// The unordered search: the same placements as [`Searcher::search`] without paths, in
    /// rotation, column, row order.
    ///
    /// [`Searcher::search`]: tetris_core::Searcher::search
    pub(crate) fn search_reachable(&mut self, board: &Board, piece: Piece, out: &mut Placements) {
        out.clear(false);
        self.compute_legal(board, piece);
        if self.legal[word_of(SPAWN_X, 0)] & 1 == 0 {
            return;
        }
        let rotations = piece.orientation_count();
        let band_rows = open_band_rows(board);
        let reach = &mut self.open;
        *reach = [0; WORD_SLOTS];
        if band_rows == 0 {
            reach[word_of(SPAWN_X, 0)] = 1;
        } else {
            let band = (1u64 << band_rows) - 1;
            for (reached, legal) in reach.iter_mut().zip(&self.legal) {
                *reached = legal & band;
            }
        }
        match rotations {
            1 => flood::<1>(&self.legal, reach, piece),
            2 => flood::<2>(&self.legal, reach, piece),
            _ => flood::<4>(&self.legal, reach, piece),
        }
        for rotation in 0..rotations {
            for x in 0..BOARD_WIDTH as i8 {
                let word = word_of(x, rotation);
                let mut locks = reach[word] & !(self.legal[word] >> 1);
                while locks != 0 {
                    let y = locks.trailing_zeros() as i8;
                    locks &= locks - 1;
                    out.push(Placement::new(piece, PieceState { x, y, rotation }));
                }
            }
        }
    }
}

/// Sweeps down, sideways and turning moves over `reach` until nothing changes (see the module
/// documentation). `ROTATIONS` is the piece's orientation count.
#[inline(always)]
fn flood<const ROTATIONS: usize>(
    legal: &[u64; WORD_SLOTS],
    reach: &mut [u64; WORD_SLOTS],
    piece: Piece,
) {
    loop {
        // Only what the right-to-left passes and the turns change decides whether to sweep
        // again: when they change nothing, another left-to-right pass would meet its own
        // output (it is idempotent) and the other two their own input, so every move is
        // closed. On a board without overhangs that ends the flood after one sweep.
        let mut changed = 0u64;
        for rotation in 0..ROTATIONS as u8 {
            // Left to right, then right to left, each word falling after what came in.
            let mut from_left = 0u64;
            for x in 0..BOARD_WIDTH as i8 {
                let word = word_of(x, rotation);
                let reached = fall(reach[word] | from_left, legal[word]);
                reach[word] = reached;
                from_left = reached;
            }
            let mut from_right = 0u64;
            for x in (0..BOARD_WIDTH as i8).rev() {
                let word = word_of(x, rotation);
                let reached = fall(reach[word] | from_right, legal[word]);
                changed |= reached ^ reach[word];
                reach[word] = reached;
                from_right = reached;
            }
        }
        if ROTATIONS > 1 {
            for x in 0..BOARD_WIDTH as i8 {
                for rotation in 0..ROTATIONS as u8 {
                    let word = word_of(x, rotation);
                    let turned = reach[word_of(x, piece.counterclockwise(rotation))]
                        | reach[word_of(x, piece.clockwise(rotation))];
                    let reached = fall(reach[word] | turned, legal[word]);
                    changed |= reached ^ reach[word];
                    reach[word] = reached;
                }
            }
        }
        if changed == 0 {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tetris_core::{SearchOptions, Searcher};

    #[test]
    fn falling_follows_each_run_of_legal_rows_below_a_reached_row() {
        // Legal rows 0..=3 and 6..=9; reached rows 1 and 2 fall to 3, row 7 falls to 9.
        let legal = 0b11_1100_1111;
        assert_eq!(fall(0b1000_0110, legal), 0b11_1000_1110);
        // A reached row that is not legal reaches nothing.
        assert_eq!(fall(0b1_0000, legal), 0);
        assert_eq!(fall(0, legal), 0);
    }

    #[test]
    fn the_empty_board_gives_the_same_placements_as_the_ordered_search() {
        let mut bfs = Bfs::new();
        let board = Board::new(20).unwrap();
        let mut ordered = Placements::new();
        let mut unordered = Placements::new();
        for piece in Piece::ALL {
            bfs.search(&board, piece, SearchOptions::default(), &mut ordered);
            bfs.search_unordered(&board, piece, SearchOptions::default(), &mut unordered);
            let mut expected = ordered.as_slice().to_vec();
            expected.sort_by_key(|p| (p.rotation, p.x, p.y));
            assert_eq!(unordered.as_slice(), expected.as_slice(), "{piece}");
        }
    }
}
