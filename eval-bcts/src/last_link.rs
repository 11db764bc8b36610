//! BCTS's values of the chains that end with each placement of one search, by updating the
//! board's features for the columns a placement touches ([`Evaluator::last_link_values`]),
//! as eval-dellacherie does.
//!
//! Every placement of one search goes on the same board, and one that clears no row and
//! stays inside the field changes only the columns its cells are in, `a..=b`:
//!
//! - `holes`, `column_transitions`, `hole_depth` and the column heights: one term per
//!   column, from that column alone;
//! - `rows_with_holes`: the rows of the union of every column's covered cells, so the board's
//!   union outside `a..=b` (prefix and suffix unions, computed once) joined with the new
//!   columns' covered cells;
//! - `well_sums` of column x: from columns x − 1, x and x + 1 (columns `a − 1..=b + 1`
//!   change; the two side columns only gain the well cells next to the piece's new cells);
//! - `row_transitions`: one term per pair of neighbouring columns (walls included);
//! - `wall_height` and the height differences: from the ten heights, only when the weights
//!   use them (the `du` presets do not, and their cost does not sum those terms).
//!
//! A placement that clears a row, or has a cell above the field (whose board MDPTetris keeps
//! tall, module `tall`), takes the whole-board way ([`link_value_by_locking`]). The features
//! are the same numbers either way and the cost is the same sum in the same order, so the
//! values agree to the last bit; the tests and `tests/tests/last_link_values.rs` check it.
//!
//! [`Evaluator::last_link_values`]: tetris_core::Evaluator::last_link_values

use tetris_core::placed_columns::{
    FullRows, PADDED_SLOTS as SLOTS, PieceColumns, PlacedColumns, orientation_runs, padded_columns,
};
use tetris_core::{
    BOARD_WIDTH, Board, ChainRule, LinkValue, Placement, PlacementRecord, link_value_by_locking,
};

use crate::{Bcts, DU_FEATURE_COUNT, FEATURE_COUNT, index, write_heights};

/// One board's per-column terms and their totals, in padded slots (walls: no terms).
struct BoardTerms {
    columns: [u32; SLOTS],
    holes: [u32; SLOTS],
    column_transitions: [u32; SLOTS],
    well_sums: [u32; SLOTS],
    hole_depth: [u32; SLOTS],
    heights: [u32; SLOTS],
    /// `covered_left[s]`: the union of the covered cells of slots `0..s`.
    covered_left: [u32; SLOTS + 1],
    /// `covered_right[s]`: the union of the covered cells of slots `s..`.
    covered_right: [u32; SLOTS + 1],
    /// `pairs[s]`: the row transitions between slots `s` and `s + 1`.
    pairs: [u32; SLOTS - 1],
    full_rows: FullRows,
    holes_total: u32,
    column_transitions_total: u32,
    well_sums_total: u32,
    hole_depth_total: u32,
    row_transitions_total: u32,
}

/// The rows of the field the masks need.
#[derive(Clone, Copy)]
struct Rows {
    /// Every row of the field.
    all: u32,
    /// The floor row H − 1.
    floor: u32,
    /// The field's height H.
    height: u32,
}

/// Covered empty cells of a column, as a row mask: empty cells below its top cell.
#[inline(always)]
fn covered_of(column: u32, rows: Rows) -> u32 {
    // The top cell and every row above it; an empty column gives every row.
    let with_floor = column | rows.floor;
    let down_to_top = with_floor ^ with_floor.wrapping_sub(1);
    !down_to_top & !column & rows.all
}

/// Column transitions from the floor (occupied) through the field into one empty row above:
/// the in-field walk plus a change at the top when row 0 is occupied.
#[inline(always)]
fn column_transitions_of(column: u32, rows: Rows) -> u32 {
    (((column ^ (column >> 1)) & (rows.all >> 1)) | (!column & rows.floor)).count_ones()
        + (column & 1)
}

/// Well sums of `column` between `left` and `right`.
#[inline(always)]
fn well_sums_of(left: u32, column: u32, right: u32, rows: Rows) -> u32 {
    let empty = !column & rows.all;
    let mut well_cells = empty & left & right;
    let mut sum = 0;
    while well_cells != 0 {
        let row = well_cells.trailing_zeros();
        // Bits at and beyond H are zero in `empty`, so the run stops at the floor.
        sum += (empty >> row).trailing_ones();
        well_cells &= well_cells - 1;
    }
    sum
}

/// Hole depth of a column: its occupied cells above its deepest empty cell.
#[inline(always)]
fn hole_depth_of(column: u32, rows: Rows) -> u32 {
    let empty = !column & rows.all;
    if empty == 0 {
        return 0;
    }
    let deepest_empty = u32::BITS - 1 - empty.leading_zeros();
    (column & ((1u32 << deepest_empty) - 1)).count_ones()
}

/// A column's height: H − the row of its top cell, 0 when empty.
#[inline(always)]
fn height_of(column: u32, rows: Rows) -> u32 {
    if column == 0 {
        0
    } else {
        rows.height - column.trailing_zeros()
    }
}

impl BoardTerms {
    #[inline(always)]
    fn new(board: &Board, rows: Rows) -> BoardTerms {
        let columns = padded_columns(board);
        let mut holes = [0; SLOTS];
        let mut column_transitions = [0; SLOTS];
        let mut well_sums = [0; SLOTS];
        let mut hole_depth = [0; SLOTS];
        let mut heights = [0; SLOTS];
        let mut covered = [0; SLOTS];
        for slot in 2..2 + BOARD_WIDTH {
            let column = columns[slot];
            covered[slot] = covered_of(column, rows);
            holes[slot] = covered[slot].count_ones();
            column_transitions[slot] = column_transitions_of(column, rows);
            well_sums[slot] = well_sums_of(columns[slot - 1], column, columns[slot + 1], rows);
            hole_depth[slot] = hole_depth_of(column, rows);
            heights[slot] = height_of(column, rows);
        }
        let mut covered_left = [0; SLOTS + 1];
        let mut covered_right = [0; SLOTS + 1];
        for slot in 0..SLOTS {
            covered_left[slot + 1] = covered_left[slot] | covered[slot];
            covered_right[SLOTS - 1 - slot] =
                covered_right[SLOTS - slot] | covered[SLOTS - 1 - slot];
        }
        let pairs = std::array::from_fn(|slot| (columns[slot] ^ columns[slot + 1]).count_ones());
        BoardTerms {
            columns,
            holes,
            column_transitions,
            well_sums,
            hole_depth,
            heights,
            covered_left,
            covered_right,
            pairs,
            full_rows: FullRows::new(board),
            holes_total: holes.iter().sum(),
            column_transitions_total: column_transitions.iter().sum(),
            well_sums_total: well_sums.iter().sum(),
            hole_depth_total: hole_depth.iter().sum(),
            row_transitions_total: pairs.iter().sum(),
        }
    }
}

/// The board features of `board` (the placement features 0): the values of
/// [`crate::board_feature_values`] in one pass over the columns with the same per-column
/// terms as the leaves, compiled inside the caller's popcount-enabled function.
#[inline(always)]
pub(crate) fn whole_board_values(board: &Board) -> [f64; FEATURE_COUNT] {
    let rows = Rows {
        all: board.row_mask(),
        floor: board.floor_row_bit(),
        height: board.height() as u32,
    };
    let columns = padded_columns(board);
    let (mut holes, mut column_transitions, mut well_sums, mut hole_depth) = (0, 0, 0, 0);
    let mut covered = 0;
    let mut heights = [0u32; BOARD_WIDTH];
    for (x, height) in heights.iter_mut().enumerate() {
        let slot = x + 2;
        let column = columns[slot];
        let column_covered = covered_of(column, rows);
        covered |= column_covered;
        holes += column_covered.count_ones();
        column_transitions += column_transitions_of(column, rows);
        well_sums += well_sums_of(columns[slot - 1], column, columns[slot + 1], rows);
        hole_depth += hole_depth_of(column, rows);
        *height = height_of(column, rows);
    }
    // Every pair of neighbours from the left wall to the right wall (slots 1..=12).
    let mut row_transitions = 0;
    for slot in 1..=BOARD_WIDTH + 1 {
        row_transitions += (columns[slot] ^ columns[slot + 1]).count_ones();
    }
    let mut values = [0.0; FEATURE_COUNT];
    values[index::ROW_TRANSITIONS] = row_transitions as f64;
    values[index::COLUMN_TRANSITIONS] = column_transitions as f64;
    values[index::HOLES] = holes as f64;
    values[index::WELL_SUMS] = well_sums as f64;
    values[index::HOLE_DEPTH] = hole_depth as f64;
    values[index::ROWS_WITH_HOLES] = covered.count_ones() as f64;
    values[index::WALL_HEIGHT] = heights.iter().copied().max().unwrap_or(0) as f64;
    write_heights(&heights, &mut values);
    values
}

/// The eight DU features after `placed` (`WIDTH` columns wide) locks (the placement features
/// 0), with the columns it leaves in slots `x0 .. x0 + WIDTH + 4`, or `None` when it fills a
/// row.
#[inline(always)]
fn board_features_after<const WIDTH: usize>(
    terms: &BoardTerms,
    placed: &PlacedColumns,
    rows: Rows,
) -> Option<([f64; DU_FEATURE_COUNT], [u32; 8])> {
    let x0 = placed.first_column;
    // Columns x0 − 2 ..= x0 + WIDTH + 1 (slots x0 ..= x0 + WIDTH + 3), the piece's at 2..
    let mut columns = [0u32; 8];
    columns[..WIDTH + 4].copy_from_slice(&terms.columns[x0..x0 + WIDTH + 4]);
    let mut full = terms.full_rows.outside(placed);
    let mut holes = terms.holes_total;
    let mut column_transitions = terms.column_transitions_total;
    let mut hole_depth = terms.hole_depth_total;
    let mut covered = terms.covered_left[x0 + 2] | terms.covered_right[x0 + 2 + WIDTH];
    for k in 0..WIDTH {
        let column = columns[k + 2] | placed.cells[k];
        columns[k + 2] = column;
        full &= column;
        let slot = x0 + k + 2;
        let column_covered = covered_of(column, rows);
        covered |= column_covered;
        holes = holes + column_covered.count_ones() - terms.holes[slot];
        column_transitions = column_transitions + column_transitions_of(column, rows)
            - terms.column_transitions[slot];
        hole_depth = hole_depth + hole_depth_of(column, rows) - terms.hole_depth[slot];
    }
    if full != 0 {
        return None;
    }
    // Well sums change in the piece's columns and one on each side. The piece's columns are
    // taken again whole. A side neighbour keeps its cells, so its old well cells keep their
    // terms; it gains a well cell exactly where the piece put a cell next to an empty cell
    // that already had an occupied cell on its other side, and adds that cell's term. (A wall
    // has no empty cell, so it gains none.)
    let mut well_sums = terms.well_sums_total;
    for k in 2..WIDTH + 2 {
        well_sums = well_sums + well_sums_of(columns[k - 1], columns[k], columns[k + 1], rows)
            - terms.well_sums[x0 + k];
    }
    well_sums += well_sums_of(columns[0], columns[1], placed.cells[0], rows);
    well_sums += well_sums_of(
        placed.cells[WIDTH - 1],
        columns[WIDTH + 2],
        columns[WIDTH + 3],
        rows,
    );
    let mut row_transitions = terms.row_transitions_total;
    for k in 1..WIDTH + 2 {
        row_transitions =
            row_transitions + (columns[k] ^ columns[k + 1]).count_ones() - terms.pairs[x0 + k];
    }
    let mut values = [0.0; DU_FEATURE_COUNT];
    values[index::ROW_TRANSITIONS] = row_transitions as f64;
    values[index::COLUMN_TRANSITIONS] = column_transitions as f64;
    values[index::HOLES] = holes as f64;
    values[index::WELL_SUMS] = well_sums as f64;
    values[index::HOLE_DEPTH] = hole_depth as f64;
    values[index::ROWS_WITH_HOLES] = covered.count_ones() as f64;
    Some((values, columns))
}

/// All 28 features once the board-shape ones are added to `du` (the DU features of a
/// placement whose columns `x0 ..` are `columns`, as [`board_features_after`] gives them).
#[inline(always)]
fn with_shape<const WIDTH: usize>(
    terms: &BoardTerms,
    x0: usize,
    columns: &[u32; 8],
    du: &[f64; DU_FEATURE_COUNT],
    rows: Rows,
) -> [f64; FEATURE_COUNT] {
    let mut values = [0.0; FEATURE_COUNT];
    values[..DU_FEATURE_COUNT].copy_from_slice(du);
    let mut heights = [0u32; BOARD_WIDTH];
    heights.copy_from_slice(&terms.heights[2..2 + BOARD_WIDTH]);
    for k in 0..WIDTH {
        heights[x0 + k] = height_of(columns[k + 2], rows);
    }
    values[index::WALL_HEIGHT] = heights.iter().copied().max().unwrap_or(0) as f64;
    write_heights(&heights, &mut values);
    values
}

impl Bcts {
    /// [`tetris_core::Evaluator::last_link_values`] by updating the board's terms (module
    /// documentation); inlined into a popcount-enabled caller.
    #[inline(always)]
    pub(crate) fn last_link_values_by_columns(
        &self,
        board: &Board,
        records: &mut Vec<PlacementRecord>,
        placements: &[Placement],
        out: &mut Vec<LinkValue>,
    ) {
        out.clear();
        let Some(first) = placements.first() else {
            return;
        };
        out.reserve(placements.len());
        let rows = Rows {
            all: board.row_mask(),
            floor: board.floor_row_bit(),
            height: board.height() as u32,
        };
        let run = Run {
            board,
            terms: &BoardTerms::new(board, rows),
            piece_columns: PieceColumns::of(first.piece),
            rows,
        };
        for same in orientation_runs(placements) {
            match run.piece_columns.width(&same[0]) {
                Some(1) => self.run_values::<1>(&run, records, same, out),
                Some(2) => self.run_values::<2>(&run, records, same, out),
                Some(3) => self.run_values::<3>(&run, records, same, out),
                Some(4) => self.run_values::<4>(&run, records, same, out),
                // Not this piece's placements: the whole-board way.
                _ => out.extend(
                    same.iter()
                        .map(|&placement| link_value_by_locking(self, board, records, placement)),
                ),
            }
        }
    }

    /// The values of `placements`, all of one piece and rotation covering `WIDTH` columns.
    #[inline(always)]
    fn run_values<const WIDTH: usize>(
        &self,
        run: &Run<'_>,
        records: &mut Vec<PlacementRecord>,
        placements: &[Placement],
        out: &mut Vec<LinkValue>,
    ) {
        let Some(first) = placements.first() else {
            return;
        };
        // `landing_height` of each placement, in the same operations as
        // `PlacementRecord::landing_height`: the lowest cell's row from the floor, plus half
        // the orientation's rows (the same for the whole run).
        let (top, bottom) = first.piece.vertical_extent(first.rotation);
        let half_rows = (bottom - top) as f64 / 2.0;
        let floor_row = run.board.height() as i32 - 1;
        let shape = self.uses_shape();
        for &placement in placements {
            // A cell above the field: MDPTetris's tall board, the whole-board way.
            let placed = if i32::from(placement.y) + i32::from(top) < 0 {
                None
            } else {
                run.piece_columns.placed(&placement, run.rows.all)
            };
            let features = placed.and_then(|placed| {
                board_features_after::<WIDTH>(run.terms, &placed, run.rows)
                    .map(|(du, columns)| (placed.first_column, du, columns))
            });
            let Some((x0, mut du, columns)) = features else {
                out.push(link_value_by_locking(self, run.board, records, placement));
                continue;
            };
            du[index::LANDING_HEIGHT] =
                (floor_row - (placement.y + bottom) as i32) as f64 + half_rows;
            // `eroded_piece_cells` stays 0: the placement clears no row. The same sum as
            // `weighted_cost` of all the features: the DU one reads only these eight.
            let cost = if shape {
                self.weighted_cost(&with_shape::<WIDTH>(run.terms, x0, &columns, &du, run.rows))
            } else {
                self.du_cost_without_clears(&du)
            };
            out.push(LinkValue {
                rule: ChainRule::Neutral,
                cost,
            });
        }
    }
}

/// What every run of one search shares.
struct Run<'a> {
    board: &'a Board,
    terms: &'a BoardTerms,
    piece_columns: &'static PieceColumns,
    rows: Rows,
}
