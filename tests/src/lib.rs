//! `tetris-tests`: cross-crate integration tests (in `tests/`) and the helpers they share.
//!
//! The tests live here rather than in each crate because they check properties that span
//! crates (every column-drop placement is a BFS placement, paths replay on the board), and
//! because boards grown by seeded random play are shared by several test files.

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use tetris_core::chain::PlacementValue;
use tetris_core::{Board, Piece, PieceState, Placement};

/// A small uniform draw below `bound` for test-board growth (modulo bias is irrelevant here).
fn below(rng: &mut Pcg64Mcg, bound: u32) -> u32 {
    rng.next_u32() % bound
}

/// A random lock placement on `board`, found without a searcher: a random piece, rotation and
/// column dropped straight down from above the field, then (half the time) slid sideways along
/// the stack and dropped again, which tucks pieces under overhangs. `None` when the random
/// column does not fit at all.
pub fn random_lock_placement(board: &Board, rng: &mut Pcg64Mcg) -> Option<Placement> {
    let piece = Piece::ALL[below(rng, 7) as usize];
    let rotation = below(rng, piece.orientation_count() as u32) as u8;
    let x = below(rng, 10) as i8;
    // Every orientation's cells lie within 2 rows above its pivot, so this start is above
    // the field and legal whenever the columns are inside the walls.
    let start = PieceState { x, y: -3, rotation };
    if !board.fits(piece, start) {
        return None;
    }
    let mut state = PieceState {
        y: board.drop_row(piece, start),
        ..start
    };
    if below(rng, 2) == 0 {
        let step: i8 = if below(rng, 2) == 0 { -1 } else { 1 };
        for _ in 0..below(rng, 4) {
            let shifted = PieceState {
                x: state.x + step,
                ..state
            };
            if !board.fits(piece, shifted) {
                break;
            }
            state = shifted;
        }
        state.y = board.drop_row(piece, state);
    }
    Some(Placement::new(piece, state))
}

/// A board of `height` rows grown by `placements` random lock placements from `seed` (see
/// [`random_lock_placement`]); placements that would leave cells above row 0 are skipped, so
/// the board stays playable. Deterministic for a seed.
pub fn grow_board(seed: u64, placements: usize, height: usize) -> Board {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut board = Board::new(height).expect("test board height");
    let mut placed = 0;
    let mut attempts = 0;
    while placed < placements && attempts < placements * 20 {
        attempts += 1;
        if let Some(placement) = random_lock_placement(&board, &mut rng) {
            if placement.cells.iter().any(|&(_, y)| y < 2) {
                continue;
            }
            board.lock(placement.piece, placement.state());
            placed += 1;
        }
    }
    board
}

/// Expectimax's `count` finalists written out for the tests' oracles: the first placements
/// that have a value in `report` (a chain's first round, without the unknown piece), ranked
/// by [`ChainValue::ranking`](tetris_core::chain::ChainValue::ranking) with the earlier first among equals (a stable sort), the first
/// `count` of them in their order as placements.
pub fn finalists_by_hand(report: &[PlacementValue], count: usize) -> Vec<usize> {
    let value = |index: usize| report[index].value.expect("filtered: it has a value");
    let mut ranked: Vec<usize> = (0..report.len())
        .filter(|&index| report[index].value.is_some())
        .collect();
    ranked.sort_by(|&one, &other| value(one).ranking(&value(other)));
    ranked.truncate(count);
    ranked.sort_unstable();
    ranked
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grown_boards_have_stacks_and_overhangs() {
        let mut with_overhang = 0;
        for seed in 0..50 {
            let board = grow_board(seed, 30, 20);
            // 30 pieces, some rows cleared: at least a few rows of stack remain.
            assert!(board.occupied_count() >= 20, "seed {seed}:\n{board}");
            let covered = (0..10).any(|x| {
                let column = board.column(x);
                column != 0
                    && (column >> column.trailing_zeros())
                        != (board.row_mask() >> column.trailing_zeros())
            });
            with_overhang += covered as u32;
        }
        assert!(
            with_overhang >= 25,
            "only {with_overhang} of 50 boards have a covered hole"
        );
        assert_eq!(grow_board(7, 30, 20), grow_board(7, 30, 20));
    }
}
