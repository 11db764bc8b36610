//! Property tests of locking and line clears on boards grown by random legal placements.

use proptest::prelude::*;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use tetris_core::Board;
use tetris_tests::{grow_board, random_lock_placement};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// After a lock, the occupied count is the count before + the piece's stored cells (4 minus
    /// those above row 0) − 10 per cleared row; no full row remains; the text form round-trips.
    #[test]
    fn lock_conserves_cells_and_clears_every_full_row(
        seed in any::<u64>(),
        grown in 0usize..40,
        height in 4usize..=32,
        locks in 1usize..30,
    ) {
        let mut board = grow_board(seed, grown, height);
        let mut rng = Pcg64Mcg::seed_from_u64(seed ^ 0x9E37_79B9_7F4A_7C15);
        let mut locked = 0;
        for _ in 0..locks * 10 {
            if locked == locks {
                break;
            }
            let Some(placement) = random_lock_placement(&board, &mut rng) else { continue };
            prop_assert!(placement.is_lock_placement_on(&board));
            let before = board.occupied_count();
            let above_top = placement.cells.iter().filter(|&&(_, y)| y < 0).count() as u32;
            let outcome = board.lock(placement.piece, placement.state());
            locked += 1;
            prop_assert_eq!(outcome.cells_above_top as u32, above_top);
            prop_assert_eq!(outcome.cleared_rows.count_ones(), outcome.rows_cleared as u32);
            prop_assert_eq!(
                board.occupied_count() + 10 * outcome.rows_cleared as u32,
                before + 4 - above_top
            );
            prop_assert_eq!(board.full_rows(), 0);
            let text = board.to_string();
            let parsed: Board = text.parse().unwrap();
            prop_assert_eq!(parsed, board);
            let json = serde_json::to_string(&board).unwrap();
            prop_assert_eq!(serde_json::from_str::<Board>(&json).unwrap(), board);
        }
    }

    /// Clearing rows on the column bitboard agrees with a plain row-list model: drop the full
    /// rows, pad with empty rows on top.
    #[test]
    fn line_clear_matches_a_row_list_model(seed in any::<u64>(), height in 4usize..=32) {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut board = grow_board(seed, 3 * height, height);
        let Some(placement) = random_lock_placement(&board, &mut rng) else { return Ok(()) };
        board.place(placement.piece, placement.state());
        let rows = board.to_rows();
        let kept: Vec<String> = rows.iter().filter(|row| *row != "##########").cloned().collect();
        let full = rows.len() - kept.len();
        let mut expected = vec!["..........".to_string(); full];
        expected.extend(kept);
        let cleared = board.clear_full_rows();
        prop_assert_eq!(cleared.count_ones() as usize, full);
        prop_assert_eq!(board.to_rows(), expected);
    }
}
