//! The board MDPTetris judges a game-ending placement on.
//!
//! MDPTetris's board keeps rows above the field, and a placed piece with a cell above the
//! field clears no row (its game is over). When such a candidate is scored like any other, its
//! features are taken on that board: every cell of the piece kept, up to four rows above the
//! field, and the rows it filled still there. This arena's chain hands an evaluator the plain
//! board after the lock, where the cells above the field are lost and full rows are cleared,
//! plus the placement's record (its cells and the mask of the rows it cleared), which is
//! enough to rebuild MDPTetris's board here: the cleared rows go back in as full rows and the
//! piece's cells are added, on a local board with room above the field.

use tetris_core::{BOARD_WIDTH, Board, PlacementRecord};

use crate::{FEATURE_COUNT, index, write_heights};

/// Rows kept above the field: four for the cells of a piece that locked on a full column (its
/// lowest cell on row −1, its highest at most on row −4), and one more, always empty, for the
/// column walk's empty row above the wall.
const ROWS_ABOVE: u32 = 5;

/// A board with `ROWS_ABOVE` (5) rows above its field of height H: bit `y + 5` of a column is
/// the cell on row `y` (row 0 the field's top row, so bits 0..5 are the rows −5..−1 above the
/// field), H + 5 rows in all. The height of a cell is counted from the floor as on the field,
/// so a cell above the field is higher than H.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TallBoard {
    columns: [u64; BOARD_WIDTH],
    /// The field's height H.
    field_height: u32,
}

impl TallBoard {
    /// `board` with nothing above its field.
    pub fn of_board(board: &Board) -> TallBoard {
        TallBoard {
            columns: board
                .columns()
                .map(|column| u64::from(column) << ROWS_ABOVE),
            field_height: board.height() as u32,
        }
    }

    /// The board MDPTetris judges `record`'s placement on, from `board`, the plain board after
    /// it locked: the rows it cleared put back (they were full) and all four of its cells,
    /// those above the field included.
    pub fn of_game_ending(board: &Board, record: &PlacementRecord) -> TallBoard {
        let height = board.height() as u32;
        let cleared = record.lock.cleared_rows;
        let mut columns = board
            .columns()
            .map(|column| u64::from(with_rows_put_back(column, cleared, height)) << ROWS_ABOVE);
        for &(x, y) in &record.placement.cells {
            let bit = i32::from(y) + ROWS_ABOVE as i32;
            debug_assert!(
                bit > 0,
                "a locked piece reaches at most four rows above the field"
            );
            if bit > 0 {
                columns[x as usize] |= 1 << bit;
            }
        }
        TallBoard {
            columns,
            field_height: height,
        }
    }

    /// The board features of this board with MDPTetris's definitions (as
    /// [`crate::feature_values`] gives them), the placement features 0. With W the wall
    /// height (the highest column, which may exceed H here): row transitions over the rows
    /// below W plus 2·(H − W), negative when W > H; column transitions from the floor to one
    /// empty row above the wall; holes, well sums, hole depth and rows with holes over all
    /// rows, those above the field included.
    pub fn feature_values(&self) -> [f64; FEATURE_COUNT] {
        let rows = self.field_height + ROWS_ABOVE;
        let all: u64 = (1 << rows) - 1;
        let floor: u64 = 1 << rows;
        let heights = self.columns.map(|column| {
            if column == 0 {
                0
            } else {
                rows - column.trailing_zeros()
            }
        });
        let wall_height = heights.iter().copied().max().unwrap_or(0);
        // The rows below the wall height: the lowest `wall_height` bits of the board.
        let below_wall = if wall_height == 0 {
            0
        } else {
            all & !((1u64 << (rows - wall_height)) - 1)
        };
        let mut padded = [all; BOARD_WIDTH + 2];
        padded[1..=BOARD_WIDTH].copy_from_slice(&self.columns);
        let mut row_transitions: i64 = 0;
        for pair in padded.windows(2) {
            row_transitions += ((pair[0] ^ pair[1]) & below_wall).count_ones() as i64;
        }
        row_transitions += 2 * (i64::from(self.field_height) - i64::from(wall_height));
        let (mut column_transitions, mut holes, mut well_sums, mut hole_depth) = (0, 0, 0, 0);
        let mut rows_with_holes = 0;
        for x in 0..BOARD_WIDTH {
            let column = self.columns[x];
            let with_floor = column | floor;
            column_transitions += ((with_floor ^ (with_floor >> 1)) & all).count_ones();
            let below_top = !(column ^ column.wrapping_sub(1)) & all;
            let covered = below_top & !column;
            holes += covered.count_ones();
            rows_with_holes |= covered;
            let empty = !column & all;
            let mut well_cells = empty & padded[x] & padded[x + 2];
            while well_cells != 0 {
                let row = well_cells.trailing_zeros();
                well_sums += (empty >> row).trailing_ones();
                well_cells &= well_cells - 1;
            }
            if empty != 0 {
                let deepest_empty = u64::BITS - 1 - empty.leading_zeros();
                hole_depth += (column & ((1u64 << deepest_empty) - 1)).count_ones();
            }
        }
        let mut values = [0.0; FEATURE_COUNT];
        values[index::ROW_TRANSITIONS] = row_transitions as f64;
        values[index::COLUMN_TRANSITIONS] = column_transitions as f64;
        values[index::HOLES] = holes as f64;
        values[index::WELL_SUMS] = well_sums as f64;
        values[index::HOLE_DEPTH] = hole_depth as f64;
        values[index::ROWS_WITH_HOLES] = rows_with_holes.count_ones() as f64;
        values[index::WALL_HEIGHT] = wall_height as f64;
        write_heights(&heights, &mut values);
        values
    }
}

/// A column of the board after a lock with the rows that lock cleared put back: `cleared`
/// holds their row indices before the clear, and they were full. The rows that stayed moved
/// down past the cleared rows below them; this walks the rows from the floor up, taking each
/// row either from `cleared` (full) or from the next row of `column`.
fn with_rows_put_back(column: u32, cleared: u32, height: u32) -> u32 {
    if cleared == 0 {
        return column;
    }
    let mut before = 0;
    let mut source = height as i32 - 1;
    for y in (0..height).rev() {
        if cleared >> y & 1 != 0 {
            before |= 1 << y;
        } else {
            if source >= 0 && column >> source & 1 != 0 {
                before |= 1 << y;
            }
            source -= 1;
        }
    }
    before
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cleared_rows_go_back_where_they_were() {
        // 4 rows. Before the clear (top first): row 0 empty, row 1 full, row 2 "#", row 3
        // full. Column 0 then was 0b1110 (rows 1, 2, 3); column 1 0b1010 (rows 1 and 3).
        // After clearing rows 1 and 3 the row "#" (row 2) falls to row 3: column 0 is 0b1000,
        // column 1 empty.
        let cleared = 0b1010;
        assert_eq!(with_rows_put_back(0b1000, cleared, 4), 0b1110);
        assert_eq!(with_rows_put_back(0, cleared, 4), 0b1010);
        assert_eq!(with_rows_put_back(0b1000, 0, 4), 0b1000);
    }
}
