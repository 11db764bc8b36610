//! The odds of the next piece given the one before, as StackRabbit weighs its
//! `lookaheadDepth=1` lines (its `piece_rng.ts` table for the NES randomizer, docs/stackrabbit.md).
//!
//! The NES picks a piece by one roll of 8 (the 8th, or the previous piece, rerolls once with 7
//! outcomes), so the previous piece is less likely and one other piece more likely; the table
//! gives each chance in 64ths, the way StackRabbit rounds them. The server uses this table, not
//! the exact odds of our NES generator, so that a line's probability is the one StackRabbit's
//! clients expect.

use tetris_core::Piece;

/// Chances in 64ths: `ODDS[previous][next]`, rows and columns in StackRabbit's order T J Z O S
/// L I, which is our pieces' index order ([`Piece::index`]). Each row sums to 64.
const ODDS: [[u8; 7]; 7] = [
    [2, 10, 12, 10, 10, 10, 10],
    [12, 2, 10, 10, 10, 10, 10],
    [10, 12, 2, 10, 10, 10, 10],
    [10, 10, 10, 4, 10, 10, 10],
    [10, 10, 10, 10, 4, 10, 10],
    [12, 10, 10, 10, 10, 2, 10],
    [10, 10, 10, 10, 12, 10, 2],
];

/// The probability that `next` follows `previous`, in StackRabbit's table.
pub fn next_piece_odds(previous: Piece, next: Piece) -> f64 {
    f64::from(ODDS[previous.index()][next.index()]) / 64.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_is_a_distribution_and_a_repeat_is_least_likely() {
        for previous in Piece::ALL {
            let total: f64 = Piece::ALL
                .iter()
                .map(|&next| next_piece_odds(previous, next))
                .sum();
            assert_eq!(total, 1.0, "{previous}");
            let repeat = next_piece_odds(previous, previous);
            assert!(repeat <= 4.0 / 64.0, "{previous}");
        }
        // StackRabbit's rows by name: after an L, a T is 12/64 and an L 2/64; after an I, an S
        // is 12/64; after an O, an O is 4/64.
        assert_eq!(next_piece_odds(Piece::L, Piece::T), 0.1875);
        assert_eq!(next_piece_odds(Piece::L, Piece::L), 2.0 / 64.0);
        assert_eq!(next_piece_odds(Piece::I, Piece::S), 12.0 / 64.0);
        assert_eq!(next_piece_odds(Piece::O, Piece::O), 4.0 / 64.0);
    }
}
