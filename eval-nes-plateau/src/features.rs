//! The NES-plateau board features: the ones no other evaluator shares (the hole statistics
//! measured at each hole — row index, depth below its column's top —, the deep-well count and
//! the ceiling penalty), and [`board_features`], all 16 board features in one pass.
//!
//! Board conventions are those of `tetris_core::features`: 10 columns × H rows (H from 4 to
//! 32), row 0 at the TOP, bit `y` of `board.column(x)` set when cell `(x, y)` is occupied.

use tetris_core::board::{BOARD_WIDTH, Board};
use tetris_core::features::{hole_run_tops_mask, open_well_mask, with_popcount};

/// The 16 board features (#3–#18 of `FEATURE_NAMES`) of one board, computed in one pass.
///
/// Each field has the definition of the feature it is named after; the ones shared with
/// other evaluators are the `tetris_core::features` primitives named in the field's doc, and
/// a test checks every field against those primitives (and [`holes`], [`ceiling_penalty`])
/// on random boards. Why one pass rather than one call per primitive: the primitives each
/// recompute the column heights, count bits or walk the cells; fused, the crate's bench of a
/// whole evaluation takes about half the time (`cargo bench -p tetris-eval-nes-plateau`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoardFeatures {
    /// `well_cells` (#3): [`tetris_core::features::open_well_cells`].
    pub well_cells: u32,
    /// `deep_wells` (#4): columns with at least [`DEEP_WELL_CELLS`] open well cells.
    pub deep_wells: u32,
    /// `holes` … `max_hole_depth` (#5–#9): see [`Holes`].
    pub holes: Holes,
    /// `column_transitions` (#10): [`tetris_core::features::column_transitions_interior`].
    pub column_transitions: u32,
    /// `row_transitions` (#11): [`tetris_core::features::row_transitions_nonempty_rows`].
    pub row_transitions: u32,
    /// `column_heights` (#12): [`tetris_core::features::total_column_heights`].
    pub column_heights: u32,
    /// `pile_height` (#13): [`tetris_core::features::pile_height`].
    pub pile_height: u32,
    /// `height_spread` (#14): [`tetris_core::features::height_spread`].
    pub height_spread: u32,
    /// `occupied_cells` (#15): [`tetris_core::features::occupied_cells`].
    pub occupied_cells: u32,
    /// `weighted_occupied_cells` (#16): [`tetris_core::features::weighted_occupied_cells`].
    pub weighted_occupied_cells: u32,
    /// `bumpiness` (#17): [`tetris_core::features::bumpiness`].
    pub bumpiness: u32,
    /// `ceiling_penalty` (#18): [`ceiling_penalty`].
    pub ceiling_penalty: f64,
}

/// The board features of `board` (see [`BoardFeatures`]).
///
/// Laid out for speed, as the bench measured it: first the per-column masks (well cells, row
/// changes, hole-run tops, covered empty cells) in a plain loop over the ten columns, then one
/// scalar loop for the heights and the few holes and covered cells. Bits are counted only for
/// the well cells and the row changes, two masks per `u64` count: baseline x86-64 has no
/// popcount instruction, so without it each count is a dozen instructions; the two counts run
/// inside [`tetris_core::features::with_popcount`], which uses the instruction where the CPU
/// has it. Column
/// transitions follow from the holes (see the comment in the body), and the occupied cells and
/// their heights from the column heights minus the covered empty cells, so no loop visits
/// every cell.
#[inline]
pub fn board_features(board: &Board) -> BoardFeatures {
    board_features_of::<false>(board).0
}

/// [`board_features`] and [`overdeep_well_cells`] of `board` in one pass: the overdeep cells
/// are counted from the open well masks the pass builds anyway, rather than from ten masks
/// built again.
#[inline]
pub fn board_features_and_overdeep_well_cells(board: &Board) -> (BoardFeatures, u32) {
    board_features_of::<true>(board)
}

/// [`board_features`], with [`overdeep_well_cells`] when `OVERDEEP` (0 otherwise).
#[inline(always)]
fn board_features_of<const OVERDEEP: bool>(board: &Board) -> (BoardFeatures, u32) {
    let columns = board.columns();
    let height = board.height() as u32;
    let row_mask = board.row_mask();
    let ceiling_rows = ceiling_rows(row_mask);
    // Row transitions skip empty rows.
    let nonempty_rows = columns.iter().fold(0, |rows, &column| rows | column);
    let floor_row = board.floor_row_bit();

    // The neighbours of each column, the walls counting as occupied.
    let mut left = [row_mask; BOARD_WIDTH];
    left[1..].copy_from_slice(&columns[..BOARD_WIDTH - 1]);
    let mut right = [row_mask; BOARD_WIDTH];
    right[..BOARD_WIDTH - 1].copy_from_slice(&columns[1..]);

    let mut well_masks = [0u32; BOARD_WIDTH];
    // One more entry for the changes between column 9 and the right wall.
    let mut row_changes = [0u32; BOARD_WIDTH + 1];
    let mut run_tops = [0u32; BOARD_WIDTH];
    let mut covered = [0u32; BOARD_WIDTH];
    for x in 0..BOARD_WIDTH {
        let column = columns[x];
        // The rows strictly above the top cell (all rows of an empty column).
        let above_top = column.wrapping_sub(1) & !column & row_mask;
        // Open well cells, as `tetris_core::features::open_well_mask`.
        well_masks[x] = above_top & left[x] & right[x];
        // Changes between the column and its left neighbour; the right wall is added below.
        row_changes[x] = (left[x] ^ column) & nonempty_rows;
        // Hole-run tops, as `tetris_core::features::hole_run_tops_mask`.
        run_tops[x] = (column << 1) & !column & row_mask;
        // Empty cells below the top: neither above it nor occupied.
        covered[x] = !(above_top | column) & row_mask;
    }
    row_changes[BOARD_WIDTH] = (columns[BOARD_WIDTH - 1] ^ row_mask) & nonempty_rows;

    let mut holes = Holes::none(height);
    let mut column_heights = 0;
    let mut pile_height = 0;
    let mut lowest = u32::MAX;
    let mut bumpiness = 0;
    let mut previous_height = 0;
    // Σ h(h + 1)/2 over the columns is the weighted count of the board with its covered empty
    // cells filled; each covered empty cell (x, y) takes back its height H − y.
    let mut filled_column_weights = 0;
    let mut covered_cells = 0;
    let mut covered_heights = 0;
    // Column transitions, without counting bits: walking a non-empty column down, the empty
    // cells above the top change into it once (when the top is below row 0), and each hole
    // run changes in and out, except a run that reaches the floor, which only changes in.
    // So the count is (columns with their top below row 0) + 2 × holes − (non-empty columns
    // with an empty floor cell).
    let mut tops_below_row_0 = 0;
    let mut empty_floor_cells = 0;
    for x in 0..BOARD_WIDTH {
        let column = columns[x];
        let top = column.trailing_zeros();
        let column_height = if column == 0 { 0 } else { height - top };
        column_heights += column_height;
        pile_height = pile_height.max(column_height);
        lowest = lowest.min(column_height);
        if x > 0 {
            bumpiness += column_height.abs_diff(previous_height);
        }
        previous_height = column_height;
        filled_column_weights += column_height * (column_height + 1) / 2;

        let mut cells = covered[x];
        while cells != 0 {
            covered_cells += 1;
            covered_heights += height - cells.trailing_zeros();
            cells &= cells - 1;
        }
        if column != 0 {
            tops_below_row_0 += u32::from(top > 0);
            empty_floor_cells += u32::from(column & floor_row == 0);
        }
        holes.add_column(run_tops[x], top);
    }

    // The counts with the popcount instruction where the CPU has it (one check each; the
    // loops above keep their baseline code, which the whole pass compiled with the
    // instruction made slower).
    let overdeep = if OVERDEEP {
        with_popcount(
            #[inline(always)]
            || {
                well_masks
                    .iter()
                    .map(|wells| wells.count_ones().saturating_sub(TETRIS_WELL_DEPTH))
                    .sum()
            },
        )
    } else {
        0
    };
    let features = BoardFeatures {
        well_cells: with_popcount(
            #[inline(always)]
            || count_bits(&well_masks),
        ),
        deep_wells: well_masks
            .iter()
            .map(|&wells| u32::from(has_at_least_three_bits(wells)))
            .sum(),
        holes,
        column_transitions: tops_below_row_0 + 2 * holes.count - empty_floor_cells,
        row_transitions: with_popcount(
            #[inline(always)]
            || count_bits(&row_changes),
        ),
        column_heights,
        pile_height,
        height_spread: pile_height - lowest,
        occupied_cells: column_heights - covered_cells,
        weighted_occupied_cells: filled_column_weights - covered_heights,
        bumpiness,
        // Most boards of a game have no cell on the ceiling rows.
        ceiling_penalty: if nonempty_rows & ceiling_rows == 0 {
            0.0
        } else {
            ceiling_penalty(board)
        },
    };
    (features, overdeep)
}

// `has_at_least_three_bits` stands for `count_ones() >= DEEP_WELL_CELLS`.
const _: () = assert!(DEEP_WELL_CELLS == 3);

/// Whether `mask` has 3 or more bits set (`DEEP_WELL_CELLS`), without counting them all.
#[inline]
fn has_at_least_three_bits(mask: u32) -> bool {
    let without_lowest = mask & mask.wrapping_sub(1);
    let without_two_lowest = without_lowest & without_lowest.wrapping_sub(1);
    without_two_lowest != 0
}

/// The number of set bits in all of `masks`.
///
/// Two masks are counted as one `u64`: without a popcount instruction each count is a fixed
/// sequence of shifts, masks and a multiply whatever the width, so pairing halves the work
/// (with it, one instruction either way).
#[inline(always)]
fn count_bits(masks: &[u32]) -> u32 {
    let mut pairs = masks.chunks_exact(2);
    let mut count = 0;
    for pair in &mut pairs {
        count += (pair[0] as u64 | (pair[1] as u64) << 32).count_ones();
    }
    count
        + pairs
            .remainder()
            .iter()
            .map(|mask| mask.count_ones())
            .sum::<u32>()
}

/// How many rows at the top of the field the ceiling penalty looks at (docs/spec/evaluators.md §3 rule 2:
/// "the top 7 rows"); on a board fewer than 7 rows tall, every row.
pub const CEILING_ROWS: u32 = 7;

/// The ceiling rows of a board whose rows are `row_mask` (bit `y` for row `y`): its top
/// [`CEILING_ROWS`] rows, or all of them on a shorter board. The one definition the ceiling
/// penalty, the split-field rule and the column-by-column leaves read.
#[inline(always)]
pub(crate) const fn ceiling_rows(row_mask: u32) -> u32 {
    row_mask & ((1 << CEILING_ROWS) - 1)
}

/// The open well cells of a column (bit `y` for row `y`) between the columns `left` and
/// `right` (a wall is `row_mask`, every row occupied): its empty cells above its top cell
/// whose two neighbours are occupied, as `tetris_core::features::open_well_mask` counts them.
#[inline(always)]
pub(crate) fn open_well_cells(column: u32, left: u32, right: u32, row_mask: u32) -> u32 {
    (column.wrapping_sub(1) & !column & row_mask & left & right).count_ones()
}

/// A column counts towards `deep_wells` when it has at least this many open well cells.
pub const DEEP_WELL_CELLS: u32 = 3;

/// The least common multiple of 1..=7: every ceiling-row weight `1 / (y + 1)` is a whole
/// number of 420ths, so the penalty is summed exactly in integers and divided once.
const CEILING_DENOMINATOR: u32 = 420;

/// `420 / (y + 1)` for the ceiling rows y = 0..7.
const CEILING_ROW_NUMERATORS: [u32; CEILING_ROWS as usize] = [420, 210, 140, 105, 84, 70, 60];

/// [`CEILING_ROW_NUMERATORS`] by row for every row of a board (0 below the ceiling rows): a
/// cell's share of the penalty, in 420ths, for the leaves that add a placement's cells one by
/// one.
pub(crate) const CEILING_NUMERATOR_BY_ROW: [u32; 32] = {
    let mut table = [0; 32];
    let mut row = 0;
    while row < CEILING_ROWS as usize {
        table[row] = CEILING_ROW_NUMERATORS[row];
        row += 1;
    }
    table
};

/// For every set of one column's cells on the ceiling rows (bit `y` for row `y`), the sum of
/// [`CEILING_ROW_NUMERATORS`] over its cells: one read per column rather than a step per cell
/// (the leaves add a placement's cells there column by column).
const CEILING_NUMERATORS_BY_CELLS: [u32; 1 << CEILING_ROWS] = {
    let mut table = [0; 1 << CEILING_ROWS];
    let mut cells = 1;
    while cells < table.len() {
        // The set without its lowest row, plus that row's numerator.
        let row = (cells as u32).trailing_zeros() as usize;
        table[cells] = table[cells & (cells - 1)] + CEILING_ROW_NUMERATORS[row];
        cells += 1;
    }
    table
};

/// The five hole features of one board (docs/spec/evaluators.md §3, #5–#9).
///
/// A hole is an empty cell whose cell directly above is occupied
/// ([`tetris_core::features::hole_run_tops_mask`]): each vertical run of covered empty cells
/// is ONE hole, taken at the run's topmost cell. The row index `y` of a hole counts from 0 at
/// the top; its depth is `y − t`, where `t` is the row index of its column's top (topmost
/// occupied cell), so a hole right under the top cell has depth 1, and a hole under a second
/// occupied segment is measured from the column's top, not from the segment above it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Holes {
    /// `holes` (#5): the number of holes.
    pub count: u32,
    /// `weighted_holes` (#6): the sum over holes of the hole's row index counted from the top
    /// starting at 1, i.e. `y + 1` (a hole on the floor row of a 20-row board weighs 20).
    pub weighted: u32,
    /// `hole_depths` (#7): the sum over holes of their depth `y − t`.
    pub depth_sum: u32,
    /// `min_hole_depth` (#8): the smallest hole depth; the board height H when there is no
    /// hole (the spec's 20 on the standard board; H on other heights, like the spec's other
    /// "20"s, and larger than any real hole depth, which is at most H − 1).
    pub min_depth: u32,
    /// `max_hole_depth` (#9): the largest hole depth; 0 when there is no hole.
    pub max_depth: u32,
}

impl Holes {
    /// No hole, on a board of `height` rows.
    #[inline(always)]
    pub(crate) const fn none(height: u32) -> Holes {
        Holes {
            count: 0,
            weighted: 0,
            depth_sum: 0,
            min_depth: height,
            max_depth: 0,
        }
    }

    /// Adds the holes of one column: `run_tops`, its hole-run tops (bit `y` for row `y`), under
    /// its top cell on row `top`. The one place the hole features are counted, by the
    /// whole-board pass, [`holes`] and the column-by-column leaves alike.
    #[inline(always)]
    pub(crate) fn add_column(&mut self, mut run_tops: u32, top: u32) {
        while run_tops != 0 {
            let row = run_tops.trailing_zeros();
            run_tops &= run_tops - 1;
            let depth = row - top;
            self.count += 1;
            self.weighted += row + 1;
            self.depth_sum += depth;
            self.min_depth = self.min_depth.min(depth);
            self.max_depth = self.max_depth.max(depth);
        }
    }
}

/// The hole features of `board` (see [`Holes`] for the definitions).
#[inline]
pub fn holes(board: &Board) -> Holes {
    let mut found = Holes::none(board.height() as u32);
    for x in 0..BOARD_WIDTH {
        let run_tops = hole_run_tops_mask(board, x);
        if run_tops == 0 {
            continue;
        }
        // A hole has an occupied cell above it, so the column is not empty.
        found.add_column(run_tops, board.column(x).trailing_zeros());
    }
    found
}

/// Open well cells (`well_cells`, #3) and deep wells (`deep_wells`, #4) of `board`, in that
/// order.
///
/// Open well cells are [`tetris_core::features::open_well_cells`]: the empty cells above each
/// column's top (every cell of an empty column) whose left and right neighbours are occupied,
/// the walls counting as occupied, counted cell by cell. A deep well is a column with at least
/// [`DEEP_WELL_CELLS`] (3) such cells; they need not be consecutive (the spec counts the
/// column's well cells, #3, not the length of one run).
#[inline]
pub fn well_cells_and_deep_wells(board: &Board) -> (u32, u32) {
    let mut cells = 0;
    let mut deep = 0;
    for x in 0..BOARD_WIDTH {
        let column_cells = open_well_mask(board, x).count_ones();
        cells += column_cells;
        deep += u32::from(column_cells >= DEEP_WELL_CELLS);
    }
    (cells, deep)
}

/// The depth of well a Tetris needs: 4 rows.
pub const TETRIS_WELL_DEPTH: u32 = 4;

/// The open well cells deeper than a Tetris: `Σ max(w(c) − TETRIS_WELL_DEPTH, 0)` over the ten
/// columns, `w(c)` the open well cells of column c ([`open_well_mask`]: empty cells above the
/// column's top whose left and right neighbours are occupied, walls occupied; the cells
/// `well_cells` counts). A well 7 deep counts 3, one 4 deep 0. Not one of the 18 features: the
/// cost of [`crate::NesPlateau::with_overdeep_well_cost`]. Its ten counts use the popcount
/// instruction where the CPU has it ([`with_popcount`]).
#[inline]
pub fn overdeep_well_cells(board: &Board) -> u32 {
    with_popcount(
        #[inline(always)]
        || {
            (0..BOARD_WIDTH)
                .map(|x| {
                    open_well_mask(board, x)
                        .count_ones()
                        .saturating_sub(TETRIS_WELL_DEPTH)
                })
                .sum()
        },
    )
}

/// The ceiling penalty (rule 2, `ceiling_penalty`): the sum over the occupied cells in the top
/// [`CEILING_ROWS`] rows (rows 0 to 6; every row of a board fewer than 7 rows tall) of
/// `1 / (y + 1)`, `y` the cell's row index from the top. A cell on row 0 adds 1, on row 6 adds
/// 1/7; a cell on row 7 or below adds nothing.
///
/// Floating point: the sum is computed exactly in 420ths (420 = lcm(1, …, 7)) and divided by
/// 420 once, so the result is the correctly rounded value of the exact rational sum and does
/// not depend on the order the cells are visited in (e.g. one cell on row 0, one on row 2 and
/// two on row 6 give (420 + 140 + 2 × 60) / 420 = 34/21).
#[inline]
pub fn ceiling_penalty(board: &Board) -> f64 {
    let ceiling_rows = ceiling_rows(board.row_mask());
    let numerator = board
        .columns()
        .iter()
        .map(|&column| ceiling_column_numerator(column & ceiling_rows))
        .sum();
    ceiling_value(numerator)
}

/// The ceiling penalty of one column's cells on the ceiling rows (bits 0 to 6 at most, as
/// [`ceiling_rows`] leaves them), in 420ths.
#[inline(always)]
pub(crate) fn ceiling_column_numerator(ceiling_cells: u32) -> u32 {
    debug_assert_eq!(ceiling_cells, ceiling_rows(ceiling_cells));
    CEILING_NUMERATORS_BY_CELLS[ceiling_rows(ceiling_cells) as usize]
}

/// A ceiling penalty given in 420ths, as `f64`.
#[inline]
pub(crate) fn ceiling_value(numerator: u32) -> f64 {
    numerator as f64 / CEILING_DENOMINATOR as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rows: &[&str]) -> Board {
        Board::from_rows(rows).unwrap()
    }

    /// A board `height` rows tall whose bottom rows are `bottom` (top first), empty above.
    fn with_bottom(bottom: &[&str], height: usize) -> Board {
        Board::from_bottom_rows(bottom, height).expect("test board")
    }

    #[test]
    fn the_ceiling_weights_are_420ths() {
        for (row, &numerator) in CEILING_ROW_NUMERATORS.iter().enumerate() {
            assert_eq!(numerator * (row as u32 + 1), CEILING_DENOMINATOR);
        }
    }

    #[test]
    fn a_columns_ceiling_numerator_is_the_sum_over_its_cells() {
        // Every set of cells on the 7 ceiling rows, summed cell by cell.
        for cells in 0u32..1 << CEILING_ROWS {
            let by_cell: u32 = (0..CEILING_ROWS)
                .filter(|&row| cells & (1 << row) != 0)
                .map(|row| CEILING_DENOMINATOR / (row + 1))
                .sum();
            assert_eq!(ceiling_column_numerator(cells), by_cell, "{cells:#09b}");
        }
        // One cell on row 0, one on row 2, two on row 6 (two columns): 34/21.
        assert_eq!(
            ceiling_column_numerator(0b101) + ceiling_column_numerator(1 << 6) * 2,
            420 + 140 + 2 * 60
        );
    }

    #[test]
    fn holes_are_measured_at_the_top_of_each_gap() {
        // Rows 16..19 of a 20-row board (rows 0..15 empty):
        //   col 1: top 16, empty 17, 18, occupied 19 → one hole (the gap counts once) at row 17:
        //          weight 18, depth 17 − 16 = 1.
        //   col 4: top 16, empty 17, occupied 18, empty 19 → two holes, rows 17 and 19:
        //          weights 18 + 20, depths 1 and 19 − 16 = 3 (measured from the column's top).
        //   col 8: a lone block on the floor: no hole.
        // holes 3, weighted 18 + 18 + 20 = 56, depths 1 + 1 + 3 = 5, min 1, max 3.
        let board = with_bottom(
            &[
                ".#..#.....", //
                "..........",
                "....#.....",
                ".#......#.",
            ],
            20,
        );
        assert_eq!(
            holes(&board),
            Holes {
                count: 3,
                weighted: 56,
                depth_sum: 5,
                min_depth: 1,
                max_depth: 3,
            }
        );
    }

    #[test]
    fn no_hole_gives_min_depth_h_and_max_depth_0() {
        let empty = Board::standard();
        let expected = Holes {
            count: 0,
            weighted: 0,
            depth_sum: 0,
            min_depth: 20,
            max_depth: 0,
        };
        assert_eq!(holes(&empty), expected);
        // A flat, solid stack has no hole either; on a 5-row board "no hole" is 5.
        let solid = with_bottom(&["####......", "#########."], 5);
        assert_eq!(
            holes(&solid),
            Holes {
                min_depth: 5,
                ..expected
            }
        );
    }

    #[test]
    fn a_hole_under_the_top_row_of_a_full_height_column() {
        // H = 4, column 0 occupied at rows 0 and 3, empty at 1 and 2: one hole at row 1,
        // weight 2, depth 1 − 0 = 1.
        let board = board(&["#.........", "..........", "..........", "#........."]);
        assert_eq!(
            holes(&board),
            Holes {
                count: 1,
                weighted: 2,
                depth_sum: 1,
                min_depth: 1,
                max_depth: 1,
            }
        );
    }

    #[test]
    fn wells_count_cells_and_deep_columns() {
        // Bottom 5 rows of a 20-row board:
        //   col 0 empty beside the wall and col 1 (occupied rows 15..19): 5 well cells, deep.
        //   col 5 empty between cols 4 and 6, both occupied on rows 18, 19 only: 2 cells.
        //   col 7 empty between col 6 (rows 18, 19) and col 8 (rows 17..19): 2 cells.
        //   col 9 empty beside col 8 (rows 17..19) and the wall: 3 cells, deep.
        //   Every other column is beside an empty column above its top: no well cell.
        // well_cells 5 + 2 + 2 + 3 = 12, deep_wells 2.
        let board = with_bottom(
            &[
                ".#........", //
                ".#........",
                ".#......#.",
                ".#..#.#.#.",
                ".#..#.#.#.",
            ],
            20,
        );
        assert_eq!(well_cells_and_deep_wells(&board), (12, 2));
        assert_eq!(
            well_cells_and_deep_wells(&board).0,
            tetris_core::features::open_well_cells(&board)
        );
    }

    #[test]
    fn deep_means_three_well_cells_not_one_run_of_three() {
        // Column 5 is empty. Its neighbours are both occupied on rows 15, 17 and 19 of a
        // 20-row board, never on two rows in a row: 3 well cells in 3 separate runs. The
        // spec counts the column's well cells (#3), so the column is a deep well.
        let board = with_bottom(
            &[
                "....#.#...", //
                "..........",
                "....#.#...",
                "..........",
                "....#.#...",
            ],
            20,
        );
        assert_eq!(well_cells_and_deep_wells(&board), (3, 1));
    }

    #[test]
    fn ceiling_penalty_sums_inverse_row_numbers() {
        // Row 0 col 0: 1; row 2 col 9: 1/3; row 6 cols 3, 4: 2/7; row 7 (not a ceiling row)
        // col 5: 0. Total 1 + 1/3 + 2/7 = (21 + 7 + 6)/21 = 34/21.
        let mut rows = vec![".........."; 20];
        rows[0] = "#.........";
        rows[2] = ".........#";
        rows[6] = "...##.....";
        rows[7] = ".....#....";
        assert_eq!(ceiling_penalty(&board(&rows)), 34.0 / 21.0);
        assert_eq!(ceiling_penalty(&Board::standard()), 0.0);
        // A full row 0: ten cells of 1 each.
        let mut rows = vec![".........."; 20];
        rows[0] = "##########";
        assert_eq!(ceiling_penalty(&board(&rows)), 10.0);
        // A board of 5 rows: all 5 are ceiling rows. One cell per row:
        // 1 + 1/2 + 1/3 + 1/4 + 1/5 = 137/60.
        let short = board(&[
            "#.........",
            ".#........",
            "..#.......",
            "...#......",
            "....#.....",
        ]);
        assert_eq!(ceiling_penalty(&short), 137.0 / 60.0);
    }
}
