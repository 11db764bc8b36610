//! Board feature primitives shared by the evaluators.
//!
//! Column heights, holes, transitions and wells appear in several evaluators with DIFFERENT
//! definitions (docs/spec/evaluators.md, "Features shared across evaluators"), so every primitive's name
//! says which variant it is and its doc comment gives the exact definition. Each evaluator
//! composes the ones it needs; a quirk that fits only one evaluator (El-Ashi's `wells`, with
//! its depth-19 rule for empty columns) lives in that evaluator's crate, not here.
//!
//! Conventions: the board is 10 columns × H rows (H from 4 to 32), row 0 is the TOP row and
//! row H − 1 the floor row. The height of a cell `(x, y)` is `H − y`; the height `h(x)` of a
//! column is the height of its topmost occupied cell, 0 for an empty column. A column's "top"
//! is that topmost occupied cell. The walls left of column 0 and right of column 9 count as
//! occupied wherever a definition says so; the floor is below row H − 1 and is never a cell.
//!
//! Every function works on the column bitboard (bit `y` of `board.column(x)` is cell `(x, y)`):
//! "down" is a left shift, a column's top is its lowest set bit, and row features combine
//! columns with XOR. Nothing allocates.
//!
//! Over 600 lines on purpose: every shared feature primitive with its exact definition, one after
//! another, so an evaluator's author finds them in one place; the rest is their unit tests.

use crate::board::{BOARD_WIDTH, Board};

/// Runs `compute` compiled with the popcount instruction when the CPU has it (checked at run
/// time, cached by `std`), and as portable code otherwise; the result is the same either way.
///
/// Why: the default x86-64 target has no popcount instruction, so every `count_ones` is a
/// dozen instructions, and a binary built for a newer CPU (`target-cpu=native`) would not run
/// on an older one. `compute` should be a closure marked `#[inline(always)]` whose work is
/// inlined into it, so that it is compiled inside the popcount-enabled function.
#[inline(always)]
pub fn with_popcount<R>(compute: impl FnOnce() -> R) -> R {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the CPU supports the popcnt instruction, checked just above.
        return unsafe { popcount_enabled(compute) };
    }
    compute()
}

/// [`with_popcount`]'s popcount-enabled call.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
unsafe fn popcount_enabled<R>(compute: impl FnOnce() -> R) -> R {
    compute()
}

/// The height `h(x)` of every column: `H − y` of its topmost occupied cell, 0 when empty
/// (the same as [`Board::column_heights`], here so evaluators find every feature in one place).
#[inline]
pub fn column_heights(board: &Board) -> [u8; BOARD_WIDTH] {
    board.column_heights()
}

/// Pile height: the largest column height, `max h(x)`; 0 on an empty board.
#[inline]
pub fn pile_height(board: &Board) -> u32 {
    column_heights(board).into_iter().max().unwrap_or(0) as u32
}

/// The sum of the ten column heights, `Σ h(x)` (NES-plateau `column_heights`).
#[inline]
pub fn total_column_heights(board: &Board) -> u32 {
    column_heights(board)
        .iter()
        .map(|&height| height as u32)
        .sum()
}

/// Height spread: the largest column height minus the smallest, `max h(x) − min h(x)`.
#[inline]
pub fn height_spread(board: &Board) -> u32 {
    let heights = column_heights(board);
    let highest = heights.iter().max().copied().unwrap_or(0);
    let lowest = heights.iter().min().copied().unwrap_or(0);
    (highest - lowest) as u32
}

/// Bumpiness: the sum over the nine pairs of adjacent columns of `|h(x) − h(x + 1)|`.
#[inline]
pub fn bumpiness(board: &Board) -> u32 {
    column_heights(board)
        .windows(2)
        .map(|pair| pair[0].abs_diff(pair[1]) as u32)
        .sum()
}

/// The number of occupied cells.
#[inline]
pub fn occupied_cells(board: &Board) -> u32 {
    board.occupied_count()
}

/// The sum of the heights `H − y` of all occupied cells (a cell on the floor row weighs 1, a
/// cell on row 0 weighs H).
#[inline]
pub fn weighted_occupied_cells(board: &Board) -> u32 {
    let height = board.height() as u32;
    let mut sum = 0;
    for &column in board.columns() {
        let mut cells = column;
        while cells != 0 {
            sum += height - cells.trailing_zeros();
            cells &= cells - 1;
        }
    }
    sum
}

/// Row transitions over the rows that hold at least one occupied cell (El-Ashi and
/// NES-plateau `row_transitions`): each such row is walked from the left wall (occupied)
/// across its 10 cells to the right wall (occupied), counting every change between occupied
/// and empty. Rows with no occupied cell add 0, so an empty board has 0.
#[inline]
pub fn row_transitions_nonempty_rows(board: &Board) -> u32 {
    let nonempty_rows = board
        .columns()
        .iter()
        .fold(0, |rows, &column| rows | column);
    row_transitions_in_rows(board, nonempty_rows)
}

/// Row transitions over ALL rows (Dellacherie / El-Tetris `row_transitions`): every row is
/// walked from the left wall (occupied) across its 10 cells to the right wall (occupied),
/// counting every change between occupied and empty. An empty row counts 2, so an empty
/// 10 × 20 board has 40.
#[inline]
pub fn row_transitions_all_rows(board: &Board) -> u32 {
    row_transitions_in_rows(board, board.row_mask())
}

/// Row transitions (walls occupied) summed over the rows whose bits are set in `rows`.
#[inline]
fn row_transitions_in_rows(board: &Board, rows: u32) -> u32 {
    let columns = board.columns();
    // Against an occupied wall, a row changes exactly where the column next to the wall is
    // empty; between two columns, exactly where their bits differ.
    let walls = (!columns[0] & rows).count_ones() + (!columns[BOARD_WIDTH - 1] & rows).count_ones();
    let between: u32 = columns
        .windows(2)
        .map(|pair| ((pair[0] ^ pair[1]) & rows).count_ones())
        .sum();
    walls + between
}

/// Column transitions between in-field cells only (the literal reading of NES-plateau #10,
/// "no floor, no sky"): the number of pairs of vertically adjacent cells `(x, y)` and
/// `(x, y + 1)`, for y from 0 to H − 2 in every column, where one is occupied and the other
/// empty. The change from the empty cell above a column's top into the top cell COUNTS (both
/// are cells of the field), so a single block on the floor counts 1; an empty board has 0.
///
/// This is NOT El-Ashi's `column_transitions` (see [`column_transitions_below_top`]): that one
/// starts at the column's top cell and so never counts the change into it. For every board,
/// `column_transitions_interior = column_transitions_below_top + the number of non-empty
/// columns whose top cell is below row 0` (proof there).
#[inline]
pub fn column_transitions_interior(board: &Board) -> u32 {
    // `column >> 1` moves cell (x, y + 1) to bit y; only pairs with y ≤ H − 2 exist.
    let pairs = board.row_mask() >> 1;
    board
        .columns()
        .iter()
        .map(|&column| ((column ^ (column >> 1)) & pairs).count_ones())
        .sum()
}

/// Column transitions from each column's top down (El-Ashi's `column_transitions`, as the
/// original NES AI program computes it): for each non-empty column, start "occupied" at its
/// top cell, walk down to the bottom row (H − 1) and count every change between occupied and
/// empty. The floor is not a cell: an empty cell on the bottom row adds only the change into
/// it. An empty column adds 0 (El-Ashi treats it as a column whose top is the bottom row,
/// which walks nothing).
///
/// Relation to [`column_transitions_interior`], proved here: in a column with top row `t`,
/// the interior count looks at the pairs `(y, y + 1)` for all `y` in `0..H − 1`; this one
/// looks only at `y ≥ t`. Among the pairs with `y < t`, those with `y + 1 < t` join two empty
/// cells (no change), and the pair `(t − 1, t)` — present exactly when `t > 0` — joins an
/// empty cell to the occupied top (one change). An empty column adds 0 to both. So the
/// interior count is this count plus the number of non-empty columns whose top is below row 0;
/// the two agree only when every non-empty column reaches row 0.
#[inline]
pub fn column_transitions_below_top(board: &Board) -> u32 {
    let row_mask = board.row_mask();
    let pairs = row_mask >> 1;
    board
        .columns()
        .iter()
        .map(|&column| {
            let pairs_from_top = pairs & !rows_above_top(column, row_mask);
            ((column ^ (column >> 1)) & pairs_from_top).count_ones()
        })
        .sum()
}

/// Column transitions from the floor (Dellacherie / El-Tetris `column_transitions`): each
/// column is walked from the floor (occupied) up to the top row, counting every change between
/// occupied and empty; the space above the top row is NOT counted. It equals
/// [`column_transitions_interior`] plus the number of columns whose bottom cell is empty. An
/// empty column counts 1, an empty board 10.
#[inline]
pub fn column_transitions_from_floor(board: &Board) -> u32 {
    let floor_row = board.floor_row_bit();
    let empty_bottom_cells = board
        .columns()
        .iter()
        .filter(|&&column| column & floor_row == 0)
        .count() as u32;
    column_transitions_interior(board) + empty_bottom_cells
}

/// Column transitions from the floor to the sky (MDPTetris `column_transitions`): each column
/// is walked from the floor (occupied) up through every row of the field and then ONE empty
/// row above the field, counting every change between occupied and empty. An empty column
/// counts 1, an empty board 10.
///
/// It equals [`column_transitions_from_floor`] plus the number of columns whose top row (row
/// 0) is occupied: the two walks are the same up to row 0, and the one step further, into the
/// empty row above, changes exactly when row 0 is occupied. So the two differ only when the
/// stack touches the ceiling (El-Tetris counts no change above a column filled to row 0).
/// MDPTetris walks only up to its wall height and then into an empty row; on any board where
/// no empty row lies below an occupied one (every board a game reaches), the rows between the
/// wall height and the ceiling are empty in every column and add no change, so the two walks
/// agree.
#[inline]
pub fn column_transitions_floor_to_sky(board: &Board) -> u32 {
    let top_row_cells = board
        .columns()
        .iter()
        .filter(|&&column| column & 1 != 0)
        .count() as u32;
    column_transitions_from_floor(board) + top_row_cells
}

/// The covered empty cells of column `x` as a row mask (bit `y` set for cell `(x, y)`): empty
/// cells with at least one occupied cell anywhere above them in the same column.
#[inline]
pub fn covered_empty_mask(board: &Board, x: usize) -> u32 {
    let column = board.column(x);
    rows_below_top(column, board.row_mask()) & !column
}

/// Covered empty cells (Dellacherie `holes`, GA-agent `holes`): empty cells with at least one
/// occupied cell anywhere above them in the same column. A covered gap of n cells counts n.
#[inline]
pub fn covered_empty_cells(board: &Board) -> u32 {
    (0..BOARD_WIDTH)
        .map(|x| covered_empty_mask(board, x).count_ones())
        .sum()
}

/// The rows holding at least one covered empty cell (MDPTetris `rows_with_holes`), as a row
/// mask: bit `y` set when some column has an empty cell on row `y` with an occupied cell
/// anywhere above it. Two holes in one row count once.
#[inline]
pub fn rows_with_covered_empty_mask(board: &Board) -> u32 {
    (0..BOARD_WIDTH).fold(0, |rows, x| rows | covered_empty_mask(board, x))
}

/// Rows with holes (MDPTetris `rows_with_holes`): how many rows hold at least one covered
/// empty cell ([`rows_with_covered_empty_mask`]).
#[inline]
pub fn rows_with_covered_empty_cells(board: &Board) -> u32 {
    rows_with_covered_empty_mask(board).count_ones()
}

/// The top cells of the hole runs of column `x` as a row mask (bit `y` set for cell
/// `(x, y)`): empty cells whose cell directly above, `(x, y − 1)`, is occupied. Each vertical
/// run of covered empty cells has exactly one such cell, its topmost; NES-plateau's hole
/// features (row index, depth below the column's top) are taken at these cells.
#[inline]
pub fn hole_run_tops_mask(board: &Board, x: usize) -> u32 {
    let column = board.column(x);
    // `column << 1` moves cell (x, y − 1) to bit y; the floor row's shift leaves the field.
    (column << 1) & !column & board.row_mask()
}

/// Hole runs (El-Ashi and NES-plateau `holes`, GA-agent `connected_holes`): empty cells
/// directly below an occupied cell, i.e. each vertical run of covered empty cells counted
/// once. A covered gap of n cells counts 1; a column with two gaps separated by an occupied
/// cell counts 2.
#[inline]
pub fn hole_runs(board: &Board) -> u32 {
    (0..BOARD_WIDTH)
        .map(|x| hole_run_tops_mask(board, x).count_ones())
        .sum()
}

/// Cells above holes (GA-agent `blocks_above_holes`): occupied cells with an empty cell
/// anywhere below them in their column.
#[inline]
pub fn cells_above_holes(board: &Board) -> u32 {
    let row_mask = board.row_mask();
    board
        .columns()
        .iter()
        .map(|&column| {
            let empty = !column & row_mask;
            if empty == 0 {
                return 0;
            }
            // An occupied cell has an empty cell below it exactly when it lies above the
            // column's deepest empty cell.
            let deepest_empty_row = u32::BITS - 1 - empty.leading_zeros();
            let rows_above_deepest_empty = (1u32 << deepest_empty_row) - 1;
            (column & rows_above_deepest_empty).count_ones()
        })
        .sum()
}

/// The rows where both side neighbours of column `x` are occupied, as a row mask (bit `y` set
/// when `(x − 1, y)` and `(x + 1, y)` are occupied; the walls left of column 0 and right of
/// column 9 count as occupied on every row). Whether `(x, y)` itself is empty is not checked.
/// Every well definition starts from this mask.
#[inline]
pub fn both_sides_occupied_mask(board: &Board, x: usize) -> u32 {
    let wall = board.row_mask();
    let left = if x == 0 { wall } else { board.column(x - 1) };
    let right = if x + 1 == BOARD_WIDTH {
        wall
    } else {
        board.column(x + 1)
    };
    left & right
}

/// The open well cells of column `x` as a row mask (bit `y` set for cell `(x, y)`): empty
/// cells above the column's top (all its cells when the column is empty) whose left and right
/// neighbours are occupied (walls occupied).
#[inline]
pub fn open_well_mask(board: &Board, x: usize) -> u32 {
    rows_above_top(board.column(x), board.row_mask()) & both_sides_occupied_mask(board, x)
}

/// Open well cells per column (NES-plateau `deep_wells` counts the columns where this is 3 or
/// more): for each column, the empty cells above its top — scanning from the top row down to
/// its first occupied cell — whose left and right neighbours are occupied (walls occupied),
/// counted cell by cell.
#[inline]
pub fn open_well_cells_per_column(board: &Board) -> [u8; BOARD_WIDTH] {
    std::array::from_fn(|x| open_well_mask(board, x).count_ones() as u8)
}

/// Open well cells (NES-plateau `well_cells`, GA-agent `wells`): the empty cells above each
/// column's top — scanning each column from the top row down to its first occupied cell —
/// whose left and right neighbours are occupied (walls occupied), counted cell by cell. A
/// 1-wide well of depth n counts n. Covered cells never count.
#[inline]
pub fn open_well_cells(board: &Board) -> u32 {
    (0..BOARD_WIDTH)
        .map(|x| open_well_mask(board, x).count_ones())
        .sum()
}

/// Dellacherie's well sums (El-Tetris `well_sums`): for every empty cell whose left and right
/// neighbours are occupied (walls occupied), at any height, covered or not, add 1 + the number
/// of consecutive empty cells directly below it (down to the next occupied cell or the floor).
/// A 1-wide well of depth n adds n + (n − 1) + … + 1 = n(n + 1)/2.
#[inline]
pub fn well_sums_dellacherie(board: &Board) -> u32 {
    let row_mask = board.row_mask();
    let mut sum = 0;
    for x in 0..BOARD_WIDTH {
        let empty = !board.column(x) & row_mask;
        let mut well_cells = empty & both_sides_occupied_mask(board, x);
        while well_cells != 0 {
            let row = well_cells.trailing_zeros();
            // The run of empty cells starting at the well cell: itself plus those below it.
            // Bits at and beyond H are zero in `empty`, so the run stops at the floor.
            sum += (empty >> row).trailing_ones();
            well_cells &= well_cells - 1;
        }
    }
    sum
}

/// The rows strictly above the column's top cell (all rows when the column is empty).
#[inline]
fn rows_above_top(column: u32, row_mask: u32) -> u32 {
    // column − 1 turns the lowest set bit off and every bit below it on; the bits above it are
    // the column's own, which `& !column` removes. For an empty column it wraps to all ones.
    column.wrapping_sub(1) & !column & row_mask
}

/// The rows strictly below the column's top cell (none when the column is empty).
#[inline]
fn rows_below_top(column: u32, row_mask: u32) -> u32 {
    // column ^ (column − 1) is the top bit and every bit above it (all ones when empty).
    !(column ^ column.wrapping_sub(1)) & row_mask
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64Mcg;

    fn board(rows: &[&str]) -> Board {
        Board::from_rows(rows).unwrap()
    }

    /// A board `height` rows tall whose bottom rows are `bottom` (top first), empty above.
    fn with_bottom(bottom: &[&str], height: usize) -> Board {
        Board::from_bottom_rows(bottom, height).expect("test board")
    }

    /// Every primitive of one board, to compare whole sets of values at once.
    #[derive(Debug, PartialEq, Eq)]
    struct AllFeatures {
        column_heights: [u8; BOARD_WIDTH],
        pile_height: u32,
        total_column_heights: u32,
        height_spread: u32,
        bumpiness: u32,
        occupied_cells: u32,
        weighted_occupied_cells: u32,
        row_transitions_nonempty_rows: u32,
        row_transitions_all_rows: u32,
        column_transitions_interior: u32,
        column_transitions_below_top: u32,
        column_transitions_from_floor: u32,
        covered_empty_cells: u32,
        hole_runs: u32,
        cells_above_holes: u32,
        open_well_cells_per_column: [u8; BOARD_WIDTH],
        open_well_cells: u32,
        well_sums_dellacherie: u32,
    }

    fn all_features(board: &Board) -> AllFeatures {
        AllFeatures {
            column_heights: column_heights(board),
            pile_height: pile_height(board),
            total_column_heights: total_column_heights(board),
            height_spread: height_spread(board),
            bumpiness: bumpiness(board),
            occupied_cells: occupied_cells(board),
            weighted_occupied_cells: weighted_occupied_cells(board),
            row_transitions_nonempty_rows: row_transitions_nonempty_rows(board),
            row_transitions_all_rows: row_transitions_all_rows(board),
            column_transitions_interior: column_transitions_interior(board),
            column_transitions_below_top: column_transitions_below_top(board),
            column_transitions_from_floor: column_transitions_from_floor(board),
            covered_empty_cells: covered_empty_cells(board),
            hole_runs: hole_runs(board),
            cells_above_holes: cells_above_holes(board),
            open_well_cells_per_column: open_well_cells_per_column(board),
            open_well_cells: open_well_cells(board),
            well_sums_dellacherie: well_sums_dellacherie(board),
        }
    }

    #[test]
    fn empty_boards_match_the_spec_anchors() {
        for (height, transitions_in_empty_rows) in [(4usize, 8), (20, 40), (32, 64)] {
            let empty = Board::new(height).unwrap();
            let expected = AllFeatures {
                column_heights: [0; BOARD_WIDTH],
                pile_height: 0,
                total_column_heights: 0,
                height_spread: 0,
                bumpiness: 0,
                occupied_cells: 0,
                weighted_occupied_cells: 0,
                row_transitions_nonempty_rows: 0,
                // Every empty row changes at both walls: 2 × H (40 on 10 × 20, docs/spec/evaluators.md §2).
                row_transitions_all_rows: transitions_in_empty_rows,
                column_transitions_interior: 0,
                column_transitions_below_top: 0,
                // Every empty column changes once, from the floor into its bottom cell: 10.
                column_transitions_from_floor: 10,
                covered_empty_cells: 0,
                hole_runs: 0,
                cells_above_holes: 0,
                // No column has both neighbours occupied on any row (columns 0 and 9 have a wall
                // on one side only), so there are no wells.
                open_well_cells_per_column: [0; BOARD_WIDTH],
                open_well_cells: 0,
                well_sums_dellacherie: 0,
            };
            assert_eq!(all_features(&empty), expected, "height {height}");
        }
    }

    #[test]
    fn a_one_wide_well_of_depth_n() {
        // Every column except `well` filled on its bottom n rows: the well column's n bottom
        // cells are the only cells with both neighbours occupied, all above its (missing) top.
        // Dellacherie adds n + (n − 1) + … + 1 = n(n + 1)/2; open well cells count n.
        for height in [4usize, 20, 32] {
            for well in [0, 4, 9] {
                for depth in 1..=height {
                    let mut board = Board::new(height).unwrap();
                    for x in (0..BOARD_WIDTH).filter(|&x| x != well) {
                        for y in height - depth..height {
                            board.set(x, y);
                        }
                    }
                    let n = depth as u32;
                    assert_eq!(well_sums_dellacherie(&board), n * (n + 1) / 2, "{board:?}");
                    assert_eq!(open_well_cells(&board), n, "{board:?}");
                    let mut per_column = [0; BOARD_WIDTH];
                    per_column[well] = depth as u8;
                    assert_eq!(open_well_cells_per_column(&board), per_column);
                    assert_eq!(open_well_mask(&board, well).count_ones(), n);
                }
            }
        }
    }

    #[test]
    fn a_covered_well_counts_for_dellacherie_but_is_not_open() {
        // Column 9 is empty under an overhang at (9, 16); columns 0..8 fill rows 16..19.
        // Dellacherie: (9, 17), (9, 18), (9, 19) have both sides occupied (column 8 and the
        // wall): 3 + 2 + 1 = 6. (9, 16) is occupied. Open wells: none, column 9's top is row 16
        // and rows 0..15 of column 9 have column 8 empty beside them.
        let board = with_bottom(
            &["##########", "#########.", "#########.", "#########."],
            20,
        );
        assert_eq!(well_sums_dellacherie(&board), 6);
        assert_eq!(open_well_cells(&board), 0);
        // Holes: one run of 3 covered cells under (9, 16), covered by that one cell.
        assert_eq!(covered_empty_cells(&board), 3);
        assert_eq!(hole_runs(&board), 1);
        assert_eq!(cells_above_holes(&board), 1);
        assert_eq!(hole_run_tops_mask(&board, 9), 1 << 17);
        assert_eq!(covered_empty_mask(&board, 9), 0b111 << 17);
    }

    /// Board A, 10 × 20, rows 0..14 empty. Column by column (rows 15..19, `#` occupied):
    ///
    /// ```text
    /// col 0  ..###  top 17, h 3            col 5  .....  empty, h 0
    /// col 1  ..#.#  top 17, h 3, hole 18   col 6  ...##  top 18, h 2
    /// col 2  .#..#  top 16, h 4, holes 17-18 (one covered 2-cell run)
    /// col 3  #.#.#  top 15, h 5, holes 16 and 18 (two separated runs)
    /// col 4  ....#  top 19, h 1            col 7  .....  empty, h 0
    /// col 8  ..###  top 17, h 3            col 9  ...##  top 18, h 2
    /// ```
    fn board_a() -> Board {
        with_bottom(
            &[
                "...#......", // y 15
                "..#.......", // y 16
                "##.#....#.", // y 17
                "#.....#.##", // y 18
                "#####.#.##", // y 19
            ],
            20,
        )
    }

    #[test]
    fn board_a_worked_out_by_hand() {
        let board = board_a();
        let expected = AllFeatures {
            column_heights: [3, 3, 4, 5, 1, 0, 2, 0, 3, 2],
            pile_height: 5,
            // 3+3+4+5+1+0+2+0+3+2
            total_column_heights: 23,
            // 5 − 0
            height_spread: 5,
            // |3−3| + |3−4| + |4−5| + |5−1| + |1−0| + |0−2| + |2−0| + |0−3| + |3−2|
            // = 0+1+1+4+1+2+2+3+1
            bumpiness: 15,
            // rows 15..19 hold 1, 1, 4, 4, 8 cells
            occupied_cells: 18,
            // heights 20 − y = 5, 4, 3, 2, 1: 1·5 + 1·4 + 4·3 + 4·2 + 8·1 = 5+4+12+8+8
            weighted_occupied_cells: 37,
            // wall|cells|wall: y15 |...#......| 4; y16 |..#.......| 4; y17 |##.#....#.| 6;
            // y18 |#.....#.##| 4; y19 |#####.#.##| 4: 4+4+6+4+4
            row_transitions_nonempty_rows: 22,
            // plus 15 empty rows × 2
            row_transitions_all_rows: 52,
            // vertical changes inside each column (the change into the top counts):
            // col0 1, col1 3 (.→#, #→., .→#), col2 3, col3 5, col4 1, col5 0, col6 1, col7 0,
            // col8 1, col9 1
            column_transitions_interior: 16,
            // from each top down: col1 #.# 2, col2 #..# 2, col3 #.#.# 4, others 0
            column_transitions_below_top: 8,
            // interior + the two columns with an empty bottom cell (5 and 7)
            column_transitions_from_floor: 18,
            // col1 y18; col2 y17, y18; col3 y16, y18
            covered_empty_cells: 5,
            // col1 one run, col2 one run (17-18), col3 two runs (16 and 18)
            hole_runs: 4,
            // col1 y17 (over 18); col2 y16 (over 17-18); col3 y15 and y17; floor cells have
            // nothing below them
            cells_above_holes: 4,
            // col5: (5,19) between (4,19) and (6,19); col7: (7,18), (7,19) between columns 6
            // and 8; col9: (9,17) between (8,17) and the wall. Col 2's (2,17) has both sides
            // occupied but is covered, so it is not open.
            open_well_cells_per_column: [0, 0, 0, 0, 0, 1, 0, 2, 0, 1],
            open_well_cells: 4,
            // Empty cells with both sides occupied, 1 + empty cells below each:
            // (2,17): 1 + 1 (y18 empty, y19 occupied) = 2; (5,19): 1; (7,18): 2, (7,19): 1;
            // (9,17): 1 (y18 occupied): 2 + 1 + 3 + 1
            well_sums_dellacherie: 7,
        };
        assert_eq!(all_features(&board), expected);
        // Masks, per column.
        assert_eq!(covered_empty_mask(&board, 1), 1 << 18);
        assert_eq!(covered_empty_mask(&board, 2), (1 << 17) | (1 << 18));
        assert_eq!(covered_empty_mask(&board, 3), (1 << 16) | (1 << 18));
        assert_eq!(covered_empty_mask(&board, 5), 0);
        assert_eq!(hole_run_tops_mask(&board, 1), 1 << 18);
        assert_eq!(hole_run_tops_mask(&board, 2), 1 << 17);
        assert_eq!(hole_run_tops_mask(&board, 3), (1 << 16) | (1 << 18));
        assert_eq!(hole_run_tops_mask(&board, 4), 0);
        assert_eq!(both_sides_occupied_mask(&board, 7), (1 << 18) | (1 << 19));
        // Column 9: column 8 occupies rows 17..19 and the wall every row.
        assert_eq!(both_sides_occupied_mask(&board, 9), 0b111 << 17);
        assert_eq!(open_well_mask(&board, 9), 1 << 17);
        // Column 0: wall on the left, column 1 on rows 17 and 19.
        assert_eq!(both_sides_occupied_mask(&board, 0), (1 << 17) | (1 << 19));
        assert_eq!(open_well_mask(&board, 0), 0);
    }

    #[test]
    fn height_spread_measures_from_the_lowest_column_not_from_zero() {
        // 10 × 4, no empty column. Tops: col0 row 2 (h 2), col1 row 3 (h 1), col2, col3 row 2
        // (h 2), col4 row 0 (h 4), col5..7 row 2 (h 2), col8 row 3 (h 1), col9 row 2 (h 2).
        let board = board(&["....#.....", "..........", "#.######.#", "##########"]);
        assert_eq!(column_heights(&board), [2, 1, 2, 2, 4, 2, 2, 2, 1, 2]);
        assert_eq!(pile_height(&board), 4);
        // 4 − 1
        assert_eq!(height_spread(&board), 3);
        // 1+1+0+2+2+0+0+1+1
        assert_eq!(bumpiness(&board), 8);
        // (4, 1) is covered by (4, 0); the full bottom row has no effect on any hole.
        assert_eq!(covered_empty_cells(&board), 1);
    }

    #[test]
    fn a_covered_two_cell_hole_and_two_separated_holes() {
        // Column 0 alone, 10 × 4: `#..#` top to bottom is one covered 2-cell gap; column 1
        // `#.#.` is two gaps separated by an occupied cell (the second on the floor row).
        let two_cell_gap = board(&["#.........", "..........", "..........", "#........."]);
        assert_eq!(hole_runs(&two_cell_gap), 1);
        assert_eq!(covered_empty_cells(&two_cell_gap), 2);
        // Only (0, 0) has empty cells below it.
        assert_eq!(cells_above_holes(&two_cell_gap), 1);
        let separated = board(&[".#........", "..........", ".#........", ".........."]);
        assert_eq!(hole_runs(&separated), 2);
        assert_eq!(covered_empty_cells(&separated), 2);
        // (1, 0) and (1, 2) both have an empty cell below them.
        assert_eq!(cells_above_holes(&separated), 2);
    }

    #[test]
    fn a_ten_by_four_board_worked_out_by_hand() {
        // Columns top to bottom (rows 0..3): col0 ##.# (top 0, hole 2), col1 ...#, col2 .###,
        // col3 ...#, col4 ...., col5..col8 ...#, col9 ..#. (top 2, hole 3).
        let board = board(&["#.........", "#.#.......", "..#......#", "####.####."]);
        let expected = AllFeatures {
            column_heights: [4, 1, 3, 1, 0, 1, 1, 1, 1, 2],
            pile_height: 4,
            // 4+1+3+1+0+1+1+1+1+2
            total_column_heights: 15,
            height_spread: 4,
            // 3+2+2+1+1+0+0+0+1
            bumpiness: 10,
            // rows hold 1, 2, 2, 8
            occupied_cells: 13,
            // heights 4 − y = 4, 3, 2, 1: 1·4 + 2·3 + 2·2 + 8·1
            weighted_occupied_cells: 22,
            // |#.........| 2, |#.#.......| 4, |..#......#| 4, |####.####.| 4
            row_transitions_nonempty_rows: 14,
            // no empty row
            row_transitions_all_rows: 14,
            // col0 ##.# 2, col1 1, col2 1, col3 1, col4 0, col5..8 1 each, col9 ..#. 2
            column_transitions_interior: 11,
            // col0 from row 0: ##.# 2; col9 from row 2: #. 1; others 0
            column_transitions_below_top: 3,
            // interior + columns 4 and 9 (empty bottom cell)
            column_transitions_from_floor: 13,
            // (0, 2) and (9, 3)
            covered_empty_cells: 2,
            hole_runs: 2,
            // (0, 0), (0, 1) over (0, 2); (9, 2) over (9, 3)
            cells_above_holes: 3,
            // (1, 1) between (0, 1) and (2, 1); (4, 3) between (3, 3) and (5, 3)
            open_well_cells_per_column: [0, 1, 0, 0, 1, 0, 0, 0, 0, 0],
            open_well_cells: 2,
            // (1, 1): 1 + 1 ((1, 2) empty, (1, 3) occupied) = 2; (4, 3): 1; (9, 3) between
            // (8, 3) and the wall: 1; (1, 3), (6, 3), (7, 3) are occupied
            well_sums_dellacherie: 4,
        };
        assert_eq!(all_features(&board), expected);
    }

    #[test]
    fn a_ten_by_thirty_two_board_worked_out_by_hand() {
        // Columns 0..8 fill rows 27..31, column 9 is empty, and (4, 0) sits on the top row,
        // covering rows 1..26 of column 4.
        let mut rows = vec![".........."; 32];
        rows[0] = "....#.....";
        for row in &mut rows[27..] {
            *row = "#########.";
        }
        let board = board(&rows);
        let expected = AllFeatures {
            column_heights: [5, 5, 5, 5, 32, 5, 5, 5, 5, 0],
            pile_height: 32,
            // 8·5 + 32
            total_column_heights: 72,
            height_spread: 32,
            // |5−32| + |32−5| + |5−0|
            bumpiness: 59,
            // 9·5 + 1
            occupied_cells: 46,
            // 9·(5+4+3+2+1) + 32
            weighted_occupied_cells: 167,
            // row 0 |....#.....| 4; rows 27..31 |#########.| 2 each
            row_transitions_nonempty_rows: 14,
            // plus 26 empty rows × 2
            row_transitions_all_rows: 66,
            // col0..3, col5..8: one change into row 27; col4: rows 0/1 and 26/27; col9: 0
            column_transitions_interior: 10,
            // col4 from row 0: # then 26 empty then #: 2
            column_transitions_below_top: 2,
            // plus column 9's empty bottom cell
            column_transitions_from_floor: 11,
            covered_empty_cells: 26,
            hole_runs: 1,
            cells_above_holes: 1,
            // column 9 rows 27..31 beside column 8 and the wall
            open_well_cells_per_column: [0, 0, 0, 0, 0, 0, 0, 0, 0, 5],
            open_well_cells: 5,
            // 5 + 4 + 3 + 2 + 1; columns 3 and 5 have both sides occupied only on rows
            // 27..31, where they are occupied themselves
            well_sums_dellacherie: 15,
        };
        assert_eq!(all_features(&board), expected);
    }

    #[test]
    fn elashi_and_interior_column_transitions_differ_by_the_columns_below_row_zero() {
        // One block on the floor: the interior count sees the empty cell above it change into
        // it (1); El-Ashi starts at the block and walks nothing (0); from the floor the walk
        // starts occupied and changes once above the block, plus once in each of the nine
        // empty columns: 10.
        let single = with_bottom(&["....#....."], 20);
        assert_eq!(column_transitions_interior(&single), 1);
        assert_eq!(column_transitions_below_top(&single), 0);
        assert_eq!(column_transitions_from_floor(&single), 10);
        // A column that reaches row 0 has no change above its top: the two agree.
        let mut tall = Board::new(4).unwrap();
        tall.set(4, 0);
        tall.set(4, 2);
        // col4 #.#. : interior 3 changes; from its top (row 0) also 3.
        assert_eq!(column_transitions_interior(&tall), 3);
        assert_eq!(column_transitions_below_top(&tall), 3);
    }

    /// Straightforward cell-by-cell implementations of the spec text, for the cross-check.
    mod reference {
        use super::super::BOARD_WIDTH;
        use crate::board::Board;

        fn height(board: &Board) -> usize {
            board.height() as usize
        }

        /// Occupied, with the walls (x = −1 and x = 10) occupied.
        fn occupied_or_wall(board: &Board, x: isize, y: usize) -> bool {
            x < 0 || x >= BOARD_WIDTH as isize || board.is_occupied(x as usize, y)
        }

        /// Row of the column's topmost occupied cell.
        fn top_row(board: &Board, x: usize) -> Option<usize> {
            (0..height(board)).find(|&y| board.is_occupied(x, y))
        }

        pub fn column_heights(board: &Board) -> [u8; BOARD_WIDTH] {
            std::array::from_fn(|x| top_row(board, x).map_or(0, |y| (height(board) - y) as u8))
        }

        pub fn pile_height(board: &Board) -> u32 {
            let mut highest = 0;
            for h in column_heights(board) {
                if h > highest {
                    highest = h;
                }
            }
            highest as u32
        }

        pub fn total_column_heights(board: &Board) -> u32 {
            let mut sum = 0;
            for h in column_heights(board) {
                sum += h as u32;
            }
            sum
        }

        pub fn height_spread(board: &Board) -> u32 {
            let heights = column_heights(board);
            let mut highest = heights[0];
            let mut lowest = heights[0];
            for h in heights {
                highest = highest.max(h);
                lowest = lowest.min(h);
            }
            (highest - lowest) as u32
        }

        pub fn bumpiness(board: &Board) -> u32 {
            let heights = column_heights(board);
            let mut sum = 0;
            for x in 0..BOARD_WIDTH - 1 {
                sum += (heights[x] as i32 - heights[x + 1] as i32).unsigned_abs();
            }
            sum
        }

        pub fn occupied_cells(board: &Board) -> u32 {
            let mut count = 0;
            for x in 0..BOARD_WIDTH {
                for y in 0..height(board) {
                    if board.is_occupied(x, y) {
                        count += 1;
                    }
                }
            }
            count
        }

        pub fn weighted_occupied_cells(board: &Board) -> u32 {
            let mut sum = 0;
            for x in 0..BOARD_WIDTH {
                for y in 0..height(board) {
                    if board.is_occupied(x, y) {
                        sum += (height(board) - y) as u32;
                    }
                }
            }
            sum
        }

        /// One row walked from the left wall to the right wall, counting changes.
        fn row_transitions_of_row(board: &Board, y: usize) -> u32 {
            let mut transitions = 0;
            let mut previous = true;
            for x in 0..BOARD_WIDTH {
                let cell = board.is_occupied(x, y);
                if cell != previous {
                    transitions += 1;
                }
                previous = cell;
            }
            if !previous {
                transitions += 1;
            }
            transitions
        }

        pub fn row_transitions_nonempty_rows(board: &Board) -> u32 {
            let mut sum = 0;
            for y in 0..height(board) {
                if (0..BOARD_WIDTH).any(|x| board.is_occupied(x, y)) {
                    sum += row_transitions_of_row(board, y);
                }
            }
            sum
        }

        pub fn row_transitions_all_rows(board: &Board) -> u32 {
            (0..height(board))
                .map(|y| row_transitions_of_row(board, y))
                .sum()
        }

        pub fn column_transitions_interior(board: &Board) -> u32 {
            let mut sum = 0;
            for x in 0..BOARD_WIDTH {
                for y in 0..height(board) - 1 {
                    if board.is_occupied(x, y) != board.is_occupied(x, y + 1) {
                        sum += 1;
                    }
                }
            }
            sum
        }

        /// El-Ashi: depth(x) = top row, or the bottom row for an empty column; start "occupied"
        /// at depth(x) and walk down from depth(x) + 1 to the bottom row.
        pub fn column_transitions_below_top(board: &Board) -> u32 {
            let mut sum = 0;
            for x in 0..BOARD_WIDTH {
                let depth = top_row(board, x).unwrap_or(height(board) - 1);
                let mut solid = true;
                for y in depth + 1..height(board) {
                    let cell = board.is_occupied(x, y);
                    if cell != solid {
                        sum += 1;
                    }
                    solid = cell;
                }
            }
            sum
        }

        pub fn column_transitions_from_floor(board: &Board) -> u32 {
            let mut sum = 0;
            for x in 0..BOARD_WIDTH {
                let mut previous = true;
                for y in (0..height(board)).rev() {
                    let cell = board.is_occupied(x, y);
                    if cell != previous {
                        sum += 1;
                    }
                    previous = cell;
                }
            }
            sum
        }

        /// MDPTetris: from the floor (occupied) up through the field, then one empty row.
        pub fn column_transitions_floor_to_sky(board: &Board) -> u32 {
            let mut sum = 0;
            for x in 0..BOARD_WIDTH {
                let mut previous = true;
                for y in (0..height(board)).rev() {
                    let cell = board.is_occupied(x, y);
                    if cell != previous {
                        sum += 1;
                    }
                    previous = cell;
                }
                if previous {
                    sum += 1;
                }
            }
            sum
        }

        pub fn rows_with_covered_empty_cells(board: &Board) -> u32 {
            (0..height(board))
                .filter(|&y| (0..BOARD_WIDTH).any(|x| is_covered_empty(board, x, y)))
                .count() as u32
        }

        pub fn is_covered_empty(board: &Board, x: usize, y: usize) -> bool {
            !board.is_occupied(x, y) && (0..y).any(|above| board.is_occupied(x, above))
        }

        pub fn is_hole_run_top(board: &Board, x: usize, y: usize) -> bool {
            y > 0 && !board.is_occupied(x, y) && board.is_occupied(x, y - 1)
        }

        pub fn covered_empty_cells(board: &Board) -> u32 {
            let mut count = 0;
            for x in 0..BOARD_WIDTH {
                for y in 0..height(board) {
                    if is_covered_empty(board, x, y) {
                        count += 1;
                    }
                }
            }
            count
        }

        pub fn hole_runs(board: &Board) -> u32 {
            let mut count = 0;
            for x in 0..BOARD_WIDTH {
                for y in 0..height(board) {
                    if is_hole_run_top(board, x, y) {
                        count += 1;
                    }
                }
            }
            count
        }

        pub fn cells_above_holes(board: &Board) -> u32 {
            let mut count = 0;
            for x in 0..BOARD_WIDTH {
                for y in 0..height(board) {
                    let empty_below =
                        (y + 1..height(board)).any(|below| !board.is_occupied(x, below));
                    if board.is_occupied(x, y) && empty_below {
                        count += 1;
                    }
                }
            }
            count
        }

        pub fn both_sides_occupied(board: &Board, x: usize, y: usize) -> bool {
            occupied_or_wall(board, x as isize - 1, y) && occupied_or_wall(board, x as isize + 1, y)
        }

        /// Scans the column from the top row until its first occupied cell.
        pub fn open_well_cells_per_column(board: &Board) -> [u8; BOARD_WIDTH] {
            std::array::from_fn(|x| {
                let mut count = 0;
                for y in 0..height(board) {
                    if board.is_occupied(x, y) {
                        break;
                    }
                    if both_sides_occupied(board, x, y) {
                        count += 1;
                    }
                }
                count
            })
        }

        pub fn open_well_cells(board: &Board) -> u32 {
            open_well_cells_per_column(board)
                .iter()
                .map(|&count| count as u32)
                .sum()
        }

        pub fn well_sums_dellacherie(board: &Board) -> u32 {
            let mut sum = 0;
            for x in 0..BOARD_WIDTH {
                for y in 0..height(board) {
                    if board.is_occupied(x, y) || !both_sides_occupied(board, x, y) {
                        continue;
                    }
                    sum += 1;
                    for below in y + 1..height(board) {
                        if board.is_occupied(x, below) {
                            break;
                        }
                        sum += 1;
                    }
                }
            }
            sum
        }
    }

    /// A seeded random board: height 4..=32 and one of four cell patterns (uniform, sparse,
    /// dense, and stacked columns with a few gaps, the shape real games make).
    fn random_board(rng: &mut Pcg64Mcg) -> Board {
        let height = 4 + (rng.next_u32() % 29) as usize;
        let mut board = Board::new(height).unwrap();
        let row_mask = board.row_mask();
        let pattern = rng.next_u32() % 4;
        for x in 0..BOARD_WIDTH {
            let column = match pattern {
                0 => rng.next_u32(),
                1 => rng.next_u32() & rng.next_u32() & rng.next_u32(),
                2 => rng.next_u32() | rng.next_u32(),
                _ => {
                    let column_height = rng.next_u32() % (height as u32 + 1);
                    let filled = if column_height == 0 {
                        0
                    } else {
                        !0u32 << (32 - column_height) >> (32 - height as u32)
                    };
                    filled & !(rng.next_u32() & rng.next_u32() & rng.next_u32())
                }
            } & row_mask;
            for y in 0..height {
                if column >> y & 1 != 0 {
                    board.set(x, y);
                }
            }
        }
        board
    }

    fn reference_features(board: &Board) -> AllFeatures {
        AllFeatures {
            column_heights: reference::column_heights(board),
            pile_height: reference::pile_height(board),
            total_column_heights: reference::total_column_heights(board),
            height_spread: reference::height_spread(board),
            bumpiness: reference::bumpiness(board),
            occupied_cells: reference::occupied_cells(board),
            weighted_occupied_cells: reference::weighted_occupied_cells(board),
            row_transitions_nonempty_rows: reference::row_transitions_nonempty_rows(board),
            row_transitions_all_rows: reference::row_transitions_all_rows(board),
            column_transitions_interior: reference::column_transitions_interior(board),
            column_transitions_below_top: reference::column_transitions_below_top(board),
            column_transitions_from_floor: reference::column_transitions_from_floor(board),
            covered_empty_cells: reference::covered_empty_cells(board),
            hole_runs: reference::hole_runs(board),
            cells_above_holes: reference::cells_above_holes(board),
            open_well_cells_per_column: reference::open_well_cells_per_column(board),
            open_well_cells: reference::open_well_cells(board),
            well_sums_dellacherie: reference::well_sums_dellacherie(board),
        }
    }

    #[test]
    fn random_boards_match_the_cell_by_cell_reference() {
        let mut rng = Pcg64Mcg::seed_from_u64(0x5EED_FEA7_0001);
        let mut heights_seen = [false; 33];
        for _ in 0..800 {
            let board = random_board(&mut rng);
            heights_seen[board.height() as usize] = true;
            assert_eq!(
                all_features(&board),
                reference_features(&board),
                "{board:?}"
            );
            let height = board.height() as usize;
            for x in 0..BOARD_WIDTH {
                for y in 0..height {
                    let bit = |mask: u32| mask >> y & 1 != 0;
                    assert_eq!(
                        bit(covered_empty_mask(&board, x)),
                        reference::is_covered_empty(&board, x, y),
                        "covered ({x}, {y}) {board:?}"
                    );
                    assert_eq!(
                        bit(hole_run_tops_mask(&board, x)),
                        reference::is_hole_run_top(&board, x, y),
                        "hole run top ({x}, {y}) {board:?}"
                    );
                    assert_eq!(
                        bit(both_sides_occupied_mask(&board, x)),
                        reference::both_sides_occupied(&board, x, y),
                        "both sides ({x}, {y}) {board:?}"
                    );
                }
                // No mask may set bits outside the field.
                for mask in [
                    covered_empty_mask(&board, x),
                    hole_run_tops_mask(&board, x),
                    both_sides_occupied_mask(&board, x),
                    open_well_mask(&board, x),
                ] {
                    assert_eq!(mask & !board.row_mask(), 0, "{board:?}");
                }
            }
        }
        // The 800 boards cover the extreme heights (each height has probability 1/29 per board).
        assert!(heights_seen[4] && heights_seen[20] && heights_seen[32]);
    }

    #[test]
    fn mdptetris_primitives_match_the_cell_by_cell_reference() {
        let mut rng = Pcg64Mcg::seed_from_u64(0x5EED_FEA7_0003);
        for _ in 0..800 {
            let board = random_board(&mut rng);
            assert_eq!(
                column_transitions_floor_to_sky(&board),
                reference::column_transitions_floor_to_sky(&board),
                "{board:?}"
            );
            assert_eq!(
                rows_with_covered_empty_cells(&board),
                reference::rows_with_covered_empty_cells(&board),
                "{board:?}"
            );
        }
    }

    #[test]
    fn floor_to_sky_column_transitions_count_a_column_filled_to_the_ceiling() {
        // 4 rows; column 0 filled on all four rows, the rest empty. From the floor: column 0
        // changes nowhere inside the field (0) and the nine empty columns once each (9): 9.
        // To the sky: column 0 also changes into the empty row above the field: 10.
        let mut board = Board::new(4).unwrap();
        for y in 0..4 {
            board.set(0, y);
        }
        assert_eq!(column_transitions_from_floor(&board), 9);
        assert_eq!(column_transitions_floor_to_sky(&board), 10);
        // Below the ceiling the two agree: one block on the floor row, 10 either way.
        let low = with_bottom(&["#........."], 4);
        assert_eq!(column_transitions_from_floor(&low), 10);
        assert_eq!(column_transitions_floor_to_sky(&low), 10);
    }

    #[test]
    fn two_holes_in_one_row_count_as_one_row_with_holes() {
        // Row 2 (from the top, 4 rows): holes in columns 0 and 2 under the cells of row 1;
        // row 3 is full. One row with holes, two covered empty cells.
        let board = with_bottom(&["#.#.......", "..........", "##########"], 4);
        // Rows top first: row 1 "#.#...", row 2 empty, row 3 full: the holes are (0, 2) and
        // (2, 2), both on row 2.
        assert_eq!(covered_empty_cells(&board), 2);
        assert_eq!(rows_with_covered_empty_cells(&board), 1);
        assert_eq!(rows_with_covered_empty_mask(&board), 1 << 2);
    }

    #[test]
    fn interior_column_transitions_are_elashis_plus_columns_below_row_zero() {
        // The identity proved on `column_transitions_below_top`, checked on random boards.
        let mut rng = Pcg64Mcg::seed_from_u64(0x5EED_FEA7_0002);
        for _ in 0..400 {
            let board = random_board(&mut rng);
            let columns_below_row_zero = board
                .columns()
                .iter()
                .filter(|&&column| column != 0 && column & 1 == 0)
                .count() as u32;
            assert_eq!(
                column_transitions_interior(&board),
                column_transitions_below_top(&board) + columns_below_row_zero,
                "{board:?}"
            );
        }
    }
}
