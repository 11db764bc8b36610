//! The chain rules that come with the NES-plateau weights (docs/spec/evaluators.md §3, rules 1, 3 and 4;
//! rule 2 is the `ceiling_penalty` feature).
//!
//! - Greedy Tetris (rule 1): a chain in which some placement cleared four rows at once is
//!   [`ChainRule::Prefer`]red.
//! - Spawn safety (rule 3): a chain whose final board blocks the spawn of any of the 7 pieces
//!   is [`ChainRule::Reject`]ed.
//! - No split field (rule 4): a chain whose final board touches the ceiling rows and whose
//!   empty cells reachable from the spawn area miss a column is rejected.
//!
//! The two safety rules outrank greedy Tetris: a Tetris that leaves a board where a piece
//! cannot spawn, or a split field, is rejected, because taking it ends (or nearly ends) the
//! game the Tetris was meant to score in.

use tetris_core::board::{BOARD_WIDTH, Board};
use tetris_core::evaluate::{Chain, ChainRule};
use tetris_core::piece::{Piece, SPAWN_X, SPAWN_Y};

use crate::features::ceiling_rows;

/// Rows cleared by one placement that make a Tetris.
pub const TETRIS_ROWS: u8 = 4;

/// The spawn area as column bitboards (bit `y` of entry `x` set for cell `(x, y)`): the union
/// of the 7 pieces' spawn cells, i.e. their spawn orientation at the spawn pivot (5, 0).
///
/// From docs/spec/rules.md's table that is row 0, columns 3–6 (the I, and the T/J/L/Z/O top rows) and
/// row 1, columns 4–6 (the lower cells of T, J, Z, O, S, L); cell (3, 1) belongs to no spawn
/// state. Computed here from [`Piece::cells`] so it cannot drift from the orientation table.
pub const SPAWN_AREA: [u32; BOARD_WIDTH] = {
    let mut area = [0u32; BOARD_WIDTH];
    let mut piece = 0;
    while piece < Piece::ALL.len() {
        let cells = Piece::ALL[piece].cells(0);
        let mut cell = 0;
        while cell < cells.len() {
            let x = (SPAWN_X + cells[cell].0) as usize;
            let y = (SPAWN_Y + cells[cell].1) as u32;
            area[x] |= 1 << y;
            cell += 1;
        }
        piece += 1;
    }
    area
};

/// Whether some piece could not spawn on `board` (rule 3): one of the cells of
/// [`SPAWN_AREA`] is occupied. Every spawn cell lies on rows 0–1, inside any board of 4 rows
/// or more, so this is exactly "`Board::can_spawn` fails for one of the 7 pieces".
#[inline]
pub fn blocks_a_spawn(board: &Board) -> bool {
    board
        .columns()
        .iter()
        .zip(SPAWN_AREA)
        .any(|(&column, area)| column & area != 0)
}

/// Whether `board` touches the ceiling rows: some cell of the top [`CEILING_ROWS`](crate::CEILING_ROWS) rows
/// (rows 0–6, the rows of the ceiling penalty) is occupied.
///
/// Rule 4 floods the field only for such boards. The choice of 7 changes only how often the
/// flood runs, never the rule's answer: on a board whose rows 0..N are all empty (any N ≥ 1)
/// the spawn area's row-0 cells are empty and row 0 joins them to every column, so the flood
/// would find every column reached anyway.
#[inline]
pub fn touches_ceiling_rows(board: &Board) -> bool {
    let ceiling_rows = ceiling_rows(board.row_mask());
    board
        .columns()
        .iter()
        .any(|&column| column & ceiling_rows != 0)
}

/// The empty cells reachable from the spawn area, as column bitboards: the flood fill of
/// rule 4. It starts from the empty cells of [`SPAWN_AREA`] and repeatedly adds every empty
/// in-field cell 4-connected (up, down, left, right) to the region, until nothing changes.
/// Cells above row 0 and beyond the walls are not part of the field and never join.
#[inline]
pub fn spawn_region(board: &Board) -> [u32; BOARD_WIDTH] {
    flood(board, |_| false)
}

/// The flood of [`spawn_region`], sweep after sweep, until a sweep changes nothing or
/// `enough` says the region so far answers the caller's question (the region only grows, so
/// a question about cells it holds is answered for good).
#[inline]
fn flood(board: &Board, enough: impl Fn(&[u32; BOARD_WIDTH]) -> bool) -> [u32; BOARD_WIDTH] {
    let row_mask = board.row_mask();
    let mut empty = [0u32; BOARD_WIDTH];
    let mut region = [0u32; BOARD_WIDTH];
    for x in 0..BOARD_WIDTH {
        empty[x] = !board.column(x) & row_mask;
        region[x] = SPAWN_AREA[x] & empty[x];
    }
    loop {
        let mut changed = false;
        // Updating in place lets one sweep carry the region across several columns; the
        // fixed point reached is the same as with a copy per sweep.
        for x in 0..BOARD_WIDTH {
            let own = region[x];
            let left = if x == 0 { 0 } else { region[x - 1] };
            let right = if x + 1 == BOARD_WIDTH {
                0
            } else {
                region[x + 1]
            };
            let grown = (own | own << 1 | own >> 1 | left | right) & empty[x];
            if grown != own {
                region[x] = grown;
                changed = true;
            }
        }
        if !changed || enough(&region) {
            return region;
        }
    }
}

/// Whether the field is split (rule 4): `board` touches the ceiling rows
/// ([`touches_ceiling_rows`]) and the [`spawn_region`] does not reach every column, i.e.
/// some column holds none of its cells. A column with no empty cell at all (filled to row 0)
/// is never reached, so it counts as cut off: it is the state the rule exists to keep away
/// from.
///
/// The flood stops as soon as every column holds a region cell: the region only grows, so the
/// field is then not split, whatever the rest of the flood would add. Most boards the rule
/// sees have an open top row, over which the region reaches every column within two sweeps,
/// where the whole flood goes on down every open column one row per sweep (in the strongest
/// NES bot's games that flood was a fifth of all the instructions, docs/performance-history.md).
/// A board with a spawn-area row empty across the field is not flooded at all
/// ([`split_needs_flood`]): that row alone carries the region to every column.
#[inline]
pub fn field_is_split(board: &Board) -> bool {
    let nonempty_rows = board
        .columns()
        .iter()
        .fold(0, |rows, &column| rows | column);
    split_needs_flood(nonempty_rows, board.row_mask())
        && flood(board, |region| !region.contains(&0)).contains(&0)
}

/// The rows holding a cell of [`SPAWN_AREA`] (rows 0 and 1).
pub(crate) const SPAWN_ROWS: u32 = {
    let mut rows = 0;
    let mut x = 0;
    while x < BOARD_WIDTH {
        rows |= SPAWN_AREA[x];
        x += 1;
    }
    rows
};

/// Whether [`field_is_split`] floods a board whose rows holding a cell are `nonempty_rows`
/// (bit `y` for row `y`) and whose rows are `row_mask`: the board touches the ceiling rows
/// ([`touches_ceiling_rows`]) and each row of the spawn area holds a cell somewhere. Otherwise
/// the field is not split without a flood: under the ceiling rows, as
/// [`touches_ceiling_rows`] says; and when a spawn-area row is empty across the field, its
/// spawn cells are empty, start the region, and the region holds the whole row, so it
/// reaches every column.
#[inline]
pub fn split_needs_flood(nonempty_rows: u32, row_mask: u32) -> bool {
    nonempty_rows & ceiling_rows(row_mask) != 0 && SPAWN_ROWS & row_mask & !nonempty_rows == 0
}

/// Whether some placement of the chain cleared four rows at once (rule 1, greedy Tetris).
///
/// Reading of "if the current piece, or the current then the next piece, can clear four rows
/// at once, take that chain": every chain is a current placement followed by the next piece's
/// placement on the board the first one leaves (after its rows clear); the chain is a Tetris
/// chain when the current placement clears four rows, or when the next placement does. Four
/// rows cleared by the two pieces together (say 2 + 2) are not "at once" and do not count.
/// On longer chains any placement of the chain counts.
#[inline]
pub fn clears_four_at_once(chain: Chain<'_>) -> bool {
    chain
        .records
        .iter()
        .any(|record| record.rows_cleared() == TETRIS_ROWS)
}

/// The NES-plateau chain rule: [`ChainRule::Reject`] when the final board blocks a spawn
/// ([`blocks_a_spawn`]) or splits the field ([`field_is_split`]); otherwise
/// [`ChainRule::Prefer`] when some placement cleared four rows ([`clears_four_at_once`]);
/// otherwise [`ChainRule::Neutral`].
#[inline]
pub fn chain_rule(chain: Chain<'_>) -> ChainRule {
    if blocks_a_spawn(chain.board) || field_is_split(chain.board) {
        ChainRule::Reject
    } else if clears_four_at_once(chain) {
        ChainRule::Prefer
    } else {
        ChainRule::Neutral
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tetris_core::evaluate::PlacementRecord;
    use tetris_core::placement::{PieceState, Placement};

    fn board(rows: &[&str]) -> Board {
        Board::from_rows(rows).unwrap()
    }

    /// A 20-row board whose top rows are `top` (top first), empty below.
    fn with_top(top: &[&str]) -> Board {
        let mut rows = top.to_vec();
        rows.resize(20, "..........");
        board(&rows)
    }

    /// A 20-row board whose bottom rows are `bottom` (top first), empty above.
    fn with_bottom(bottom: &[&str]) -> Board {
        Board::from_bottom_rows(bottom, 20).expect("test board")
    }

    fn placement(piece: Piece, x: i8, y: i8, rotation: u8) -> Placement {
        Placement::new(piece, PieceState { x, y, rotation })
    }

    #[test]
    fn the_spawn_area_is_the_union_of_the_spawn_cells() {
        // docs/spec/rules.md spawn cells: T (4,0)(5,0)(6,0)(5,1); J (4,0)(5,0)(6,0)(6,1);
        // Z (4,0)(5,0)(5,1)(6,1); O (4,0)(5,0)(4,1)(5,1); S (5,0)(6,0)(4,1)(5,1);
        // L (4,0)(5,0)(6,0)(4,1); I (3,0)(4,0)(5,0)(6,0).
        // Union: column 3 row 0; columns 4, 5, 6 rows 0 and 1.
        assert_eq!(SPAWN_AREA, [0, 0, 0, 0b01, 0b11, 0b11, 0b11, 0, 0, 0]);
    }

    #[test]
    fn spawn_safety_matches_can_spawn_for_every_spawn_cell() {
        // Occupying any single cell of rows 0..2 blocks a spawn exactly when some piece's
        // spawn state needs it; both answers must agree cell by cell, on several heights.
        for height in [4, 20, 32] {
            for x in 0..BOARD_WIDTH {
                for y in 0..2 {
                    let mut board = Board::new(height).unwrap();
                    board.set(x, y);
                    let by_pieces = Piece::ALL.iter().any(|&piece| !board.can_spawn(piece));
                    assert_eq!(blocks_a_spawn(&board), by_pieces, "({x}, {y}) H={height}");
                }
            }
        }
        // (3, 1) is in rows 0–1, columns 3–6, but no piece spawns on it.
        let mut board = Board::standard();
        board.set(3, 1);
        assert!(!blocks_a_spawn(&board));
        board.set(6, 1);
        assert!(blocks_a_spawn(&board));
    }

    #[test]
    fn a_wall_cut_off_below_the_ceiling_splits_the_field() {
        // Column 2 is filled from row 0 down to the floor; the spawn region (columns 3..9)
        // cannot reach columns 0 and 1.
        let mut rows = vec!["..#......."; 20];
        rows[19] = "..#.#.....";
        let split = board(&rows);
        assert!(!blocks_a_spawn(&split));
        assert!(touches_ceiling_rows(&split));
        assert!(field_is_split(&split));
        let region = spawn_region(&split);
        assert_eq!(&region[..3], &[0, 0, 0]);
        assert!(region[3..].iter().all(|&column| column != 0));
    }

    #[test]
    fn a_tall_column_with_a_gap_on_row_0_does_not_split_the_field() {
        // Column 2 is filled from row 1 down: row 0 is open above it, so the region passes
        // over it into columns 0 and 1 (and down to their floor).
        let mut rows = vec!["..#......."; 20];
        rows[0] = "..........";
        let open = board(&rows);
        assert!(touches_ceiling_rows(&open));
        assert!(!field_is_split(&open));
        let region = spawn_region(&open);
        // Columns 0 and 1 are empty and wholly reached; column 2 only on row 0.
        assert_eq!(region[0], open.row_mask());
        assert_eq!(region[1], open.row_mask());
        assert_eq!(region[2], 1);
    }

    #[test]
    fn the_region_winds_under_overhangs() {
        // A 6-row board (every row is a ceiling row). Columns 0..2 are closed on rows 0..3:
        // the region must go down column 9, left along the floor row 5, and up column 0 to
        // its row 4.
        let mut winding = board(&[
            "###.......", // the spawn area, columns 3..6, is empty
            "###.......",
            "#########.",
            "#########.",
            ".########.",
            "..........", // the floor row joins column 9 to column 0
        ]);
        assert!(!blocks_a_spawn(&winding));
        assert!(!field_is_split(&winding));
        let region = spawn_region(&winding);
        assert_eq!(region[0], 0b11_0000); // rows 4 and 5
        assert_eq!(region[1], 0b10_0000); // row 5
        assert_eq!(region[2], 0b10_0000);
        assert_eq!(region[3], 0b10_0011); // rows 0, 1 and 5
        assert_eq!(region[9], winding.row_mask());
        // Closing the floor row at column 5 cuts columns 0..2 off (3 and 4 keep rows 0, 1).
        winding.set(5, 5);
        assert!(field_is_split(&winding));
        let region = spawn_region(&winding);
        assert_eq!(&region[..3], &[0, 0, 0]);
        assert_eq!(region[3], 0b11);
    }

    #[test]
    fn a_board_below_the_ceiling_rows_is_never_split() {
        // Everything on rows 17..19, with a sealed pocket at (1, 18): the region does not
        // enter the pocket, but rows 0..6 are empty and reach every column, and the board
        // does not touch the ceiling rows, so the flood is not even run.
        let low = with_bottom(&["#########.", "#.#######.", "#########."]);
        assert!(!touches_ceiling_rows(&low));
        assert!(!field_is_split(&low));
        let region = spawn_region(&low);
        assert!(region.iter().all(|&column| column != 0));
        // Column 1: rows 0..16 (mask 2^17 − 1), not the pocket on row 18.
        assert_eq!(region[1], (1 << 17) - 1);
        assert_eq!(region[9], low.row_mask());
    }

    #[test]
    fn a_column_filled_to_the_top_counts_as_not_reached() {
        // Column 0 is occupied on every row: it has no empty cell, so the region cannot hold
        // any of its cells.
        let full_column = with_top(&["#........."; 20]);
        assert!(field_is_split(&full_column));
    }

    #[test]
    fn greedy_tetris_prefers_a_chain_with_four_rows_at_once() {
        // Four rows full but for column 9: a vertical I there (pivot row 18, cells on rows
        // 16..19) clears 4.
        let mut board = with_bottom(&["#########."; 4]);
        let tetris = PlacementRecord::lock(&mut board, placement(Piece::I, 9, 18, 1));
        assert_eq!(tetris.rows_cleared(), 4);
        let records = [tetris];
        let chain = Chain {
            board: &board,
            records: &records,
        };
        assert!(clears_four_at_once(chain));
        assert_eq!(chain_rule(chain), ChainRule::Prefer);
        // The same Tetris by the NEXT piece, after a current piece that cleared nothing.
        let mut board = with_bottom(&["#########."; 4]);
        let first = PlacementRecord::lock(&mut board, placement(Piece::O, 1, 14, 0));
        let second = PlacementRecord::lock(&mut board, placement(Piece::I, 9, 18, 1));
        let records = [first, second];
        let chain = Chain {
            board: &board,
            records: &records,
        };
        assert_eq!(chain_rule(chain), ChainRule::Prefer);
    }

    #[test]
    fn two_doubles_are_not_a_tetris() {
        // Rows 16, 17 full but for column 9; rows 18, 19 full but for column 2. An I standing
        // in column 9 on row 18's cell (pivot row 16, cells on rows 14..17) clears only rows
        // 16 and 17 (its upper two cells stay); then an I in column 2 (pivot row 18, rows
        // 16..19) clears rows 18 and 19: 2 + 2 rows, never 4 at once.
        let mut board = with_bottom(&["#########.", "#########.", "##.#######", "##.#######"]);
        let first = PlacementRecord::lock(&mut board, placement(Piece::I, 9, 16, 1));
        assert_eq!(first.rows_cleared(), 2);
        let second = PlacementRecord::lock(&mut board, placement(Piece::I, 2, 18, 1));
        assert_eq!(second.rows_cleared(), 2);
        let records = [first, second];
        let chain = Chain {
            board: &board,
            records: &records,
        };
        assert!(!clears_four_at_once(chain));
        assert_eq!(chain_rule(chain), ChainRule::Neutral);
        // A board on its own (no records) is never preferred.
        let empty = Board::standard();
        let alone = Chain {
            board: &empty,
            records: &[],
        };
        assert_eq!(chain_rule(alone), ChainRule::Neutral);
    }

    #[test]
    fn safety_outranks_greedy_tetris() {
        // A Tetris record with a final board that blocks the T spawn (cell (5, 1)).
        let mut board = with_bottom(&["#########."; 4]);
        let tetris = PlacementRecord::lock(&mut board, placement(Piece::I, 9, 18, 1));
        board.set(5, 1);
        let records = [tetris];
        let chain = Chain {
            board: &board,
            records: &records,
        };
        assert_eq!(chain_rule(chain), ChainRule::Reject);
    }
}
