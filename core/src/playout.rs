//! Playouts: short random continuations that rank a chain's finalists (docs/spec/search.md §4,
//! "Playouts").
//!
//! Expectimax looks one unknown piece past the known ones. A board can be good for that piece
//! and still be one from which the next few pieces go badly: a second deep well that one I
//! cannot serve, a pile that only a run of lucky pieces clears. A playout plays a few more
//! random pieces with a fast policy and scores where they lead, so that the finalists (see
//! `ChainOptions::expectimax_finalists`) are also compared by what tends to follow them.
//!
//! This module holds what a playout is made of and does not depend on a searcher: its settings
//! ([`Playouts`]) and its pieces ([`deal_playout_pieces`]), drawn by the NES randomizer's rule
//! from a generator seeded by the decision itself (its board and known pieces), so that the
//! same decision always gets the same playouts, on every machine and in every front end, and
//! every finalist is played out on the same pieces (common random numbers: the finalists'
//! difference is not drowned by the luck of their pieces). The chain plays them
//! (`Walk::playout` in `chain.rs`).

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

use crate::board::Board;
use crate::generator::uniform_below;
use crate::piece::Piece;

/// The most playouts a decision may ask for: 64 playouts of 6 pieces are 384 searches per
/// finalist, already several times the rest of an expectimax decision.
pub const MAX_PLAYOUTS: usize = 64;

/// How playouts rank a chain's finalists (the module documentation and docs/spec/search.md §4).
///
/// For each finalist, its best known chain is played, then `count` playouts of `pieces`
/// random pieces each; every piece goes where the chain's evaluator likes it best at depth 1
/// (the same searcher, frame timing, filter and no-suicide rule). A playout's value is the
/// evaluator's cost of the board it ends on, minus `tetris_bonus` for each Tetris it made, or
/// `no_placement_cost` alone when a piece had no placement (the game would be over). The
/// finalist's cost gains `weight` × the mean of its playouts' values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Playouts {
    /// Playouts per finalist, 1 to [`MAX_PLAYOUTS`].
    pub count: usize,
    /// Random pieces per playout, at least 1.
    pub pieces: usize,
    /// What the mean playout value weighs in the finalist's cost.
    pub weight: f64,
    /// What each Tetris of a playout takes off its value.
    pub tetris_bonus: f64,
    /// A playout's value when one of its pieces has no placement.
    pub no_placement_cost: f64,
}

impl Playouts {
    /// Random pieces per playout in [`Playouts::new`].
    pub const PIECES: usize = 6;
    /// The mean playout value's weight in [`Playouts::new`].
    pub const WEIGHT: f64 = 0.3;
    /// The bonus per Tetris in [`Playouts::new`].
    pub const TETRIS_BONUS: f64 = 150.0;
    /// The value of a playout that ends the game, in [`Playouts::new`].
    pub const NO_PLACEMENT_COST: f64 = 2000.0;

    /// `count` playouts with the settings the strategy option `playouts=N` uses: 6 pieces,
    /// weight 0.3, 150 off per Tetris, 2000 when the game ends (chosen with the NES-plateau
    /// evaluator under the level-18 setting with a reaction time; docs/nes-benchmark.md).
    pub fn new(count: usize) -> Playouts {
        Playouts {
            count,
            pieces: Playouts::PIECES,
            weight: Playouts::WEIGHT,
            tetris_bonus: Playouts::TETRIS_BONUS,
            no_placement_cost: Playouts::NO_PLACEMENT_COST,
        }
    }
}

/// The seed of a decision's playouts: FNV-1a (64-bit) over the board's height, its 10 column
/// bit masks (4 bytes each, little-endian) and the known pieces' indices, in that order.
pub fn playout_seed(board: &Board, known: &[Piece]) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let mix = |hash: u64, byte: u8| (hash ^ u64::from(byte)).wrapping_mul(PRIME);
    let mut hash = mix(OFFSET, board.height());
    for column in board.columns() {
        hash = column.to_le_bytes().into_iter().fold(hash, mix);
    }
    known
        .iter()
        .fold(hash, |hash, &piece| mix(hash, piece.index() as u8))
}

/// One piece by the NES randomizer's rule, with uniform draws instead of its shift register:
/// a draw from 8 (the 7 pieces in T J Z O S L I order, and 8th a miss) is kept unless it is the
/// miss or repeats `previous`; otherwise a draw from 7 is kept whatever it is. A repeat thus
/// comes with probability 1/28, each other piece 9/56.
pub fn next_playout_piece<R: Rng + ?Sized>(rng: &mut R, previous: Piece) -> Piece {
    let first = uniform_below(rng, 8) as usize;
    match Piece::ALL.get(first) {
        Some(&piece) if piece != previous => piece,
        _ => Piece::ALL[uniform_below(rng, 7) as usize],
    }
}

/// Fills `out` with `count` sequences of `pieces` pieces, one after the other, for a decision
/// on `board` with these `known` pieces (current first, at least one): a
/// `Pcg64Mcg` seeded with [`playout_seed`] draws every piece with [`next_playout_piece`], each
/// sequence starting after the last known piece.
pub fn deal_playout_pieces(
    board: &Board,
    known: &[Piece],
    count: usize,
    pieces: usize,
    out: &mut Vec<Piece>,
) {
    out.clear();
    let Some(&last) = known.last() else {
        return;
    };
    let mut rng = Pcg64Mcg::seed_from_u64(playout_seed(board, known));
    for _ in 0..count {
        let mut previous = last;
        for _ in 0..pieces {
            previous = next_playout_piece(&mut rng, previous);
            out.push(previous);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seed_is_fnv1a_of_the_height_the_columns_and_the_pieces() {
        // FNV-1a of the bytes, written out: height 20, ten empty columns (40 zero bytes),
        // then the T (index 0) and the I (index 6).
        let mut bytes = vec![20u8];
        bytes.extend([0u8; 40]);
        bytes.extend([0u8, 6]);
        let mut expected: u64 = 0xcbf2_9ce4_8422_2325;
        for byte in bytes {
            expected ^= u64::from(byte);
            expected = expected.wrapping_mul(0x100_0000_01b3);
        }
        assert_eq!(
            playout_seed(&Board::standard(), &[Piece::T, Piece::I]),
            expected
        );
        // The board and each piece change the seed.
        let mut board = Board::standard();
        board.set(0, 19);
        assert_ne!(playout_seed(&board, &[Piece::T, Piece::I]), expected);
        assert_ne!(
            playout_seed(&Board::standard(), &[Piece::I, Piece::T]),
            expected
        );
    }

    #[test]
    fn the_pieces_follow_the_reroll_rule_and_repeat_once_in_28() {
        // 56,000 pieces from one sequence: the repeat share is 2/56 (the miss or the previous
        // piece on the first draw, then the previous piece once in 7), each other piece 9/56.
        let mut pieces = Vec::new();
        deal_playout_pieces(&Board::standard(), &[Piece::S], 1, 56_000, &mut pieces);
        let mut previous = Piece::S;
        let mut repeats = 0;
        let mut counts = [0usize; 7];
        for &piece in &pieces {
            repeats += usize::from(piece == previous);
            counts[piece.index()] += 1;
            previous = piece;
        }
        // Binomial standard deviations: √(56000 × 1/28 × 27/28) ≈ 43.9 for the repeats; each
        // piece's share is 1/7 overall (8,000 ± 83). Four deviations either way.
        assert!((2000 - 176..=2000 + 176).contains(&repeats), "{repeats}");
        for count in counts {
            assert!((8000 - 332..=8000 + 332).contains(&count), "{counts:?}");
        }
    }

    #[test]
    fn the_same_decision_deals_the_same_pieces_and_sequences_differ() {
        let (mut first, mut again) = (Vec::new(), Vec::new());
        deal_playout_pieces(&Board::standard(), &[Piece::L, Piece::J], 16, 6, &mut first);
        deal_playout_pieces(&Board::standard(), &[Piece::L, Piece::J], 16, 6, &mut again);
        assert_eq!(first.len(), 96);
        assert_eq!(first, again);
        assert_ne!(first[..6], first[6..12]);
        // Another preview deals other pieces.
        deal_playout_pieces(&Board::standard(), &[Piece::L, Piece::O], 16, 6, &mut again);
        assert_ne!(first, again);
    }
}
