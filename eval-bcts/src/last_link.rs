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
//! A placement that clears a row moves every column: its board is built from the board's
//! columns (the piece's cells added, the full rows taken out) and judged whole, still without
//! copying the board or locking. A placement with a cell above the field (whose board
//! MDPTetris keeps tall, module `tall`) takes the whole-board way ([`link_value_by_locking`]).
//! The features are the same numbers either way and the cost is the same sum in the same
//! order, so the values agree to the last bit; the tests and
//! `tests/tests/last_link_values.rs` check it.
//!
//! # Deciding
//!
//! A deciding chain ([`Evaluator::last_link_values_to_beat`]) needs the exact value only of
//! a placement that may be the best: one whose cost is not above the cost to beat, which is
//! `to_beat` or the lowest exact cost this call has given so far (every BCTS chain is
//! `Neutral`). With the DU features only and every weight but `eroded_piece_cells`'s finite
//! and not negative (the `du` and `dellacherie` presets), a placement inside the field that
//! clears no row gets a lower bound of its cost instead when the bound is above the cost to
//! beat. The bound is the cost's own sum, the same products added in the same order, with
//! some features replaced by lower bounds of them: rounding to nearest is monotone, so
//! `w × f` with `w ≥ 0` and each partial sum can only fall when a feature falls, and the
//! bound is at most the cost to the last bit (the left-out eroded term is a zero then). Two
//! bounds, the cheaper first:
//!
//! 1. The landing height and `row_transitions` exact (the piece's columns and their
//!    neighbours' pairs, WIDTH + 1 popcounts), the board's own totals of `holes`,
//!    `column_transitions`, `hole_depth` and `rows_with_holes` (their products with the
//!    weights taken once per call), and the well sums of the columns the piece does not
//!    touch. Only for a piece put on top of its columns (no cell at or below a column's top
//!    cell, `BoardTerms::at_or_below_top`): each column then keeps its covered cells, each
//!    covered run stays a run (the old top cell separates it from any new one), the
//!    deepest covered cell stays the deepest and keeps every cell above it, and the union
//!    of covered rows only grows, so none of those four can fall. A tuck could fill a hole.
//! 2. Every feature exact but `well_sums`, whose bound is again the well sums of the other
//!    columns: a column the piece does not touch keeps its cells, so each of its well cells
//!    keeps its depth term, and its neighbours only gain cells, so it loses no well cell.
//!    This holds for tucks too.
//!
//! In a game of MDPTetris's (`drop+bcts,no-suicide`) about 65 % of the leaves stop at the
//! first bound and 20 % more at the second. The stand-in is the bound itself, above the
//! cost to beat: the chain ranks it below its best chain exactly as the exact value, and it
//! lowers no cost to beat. `Evaluator::last_link_values` (the report's exact values) never
//! bounds.
//!
//! [`Evaluator::last_link_values`]: tetris_core::Evaluator::last_link_values
//! [`Evaluator::last_link_values_to_beat`]: tetris_core::Evaluator::last_link_values_to_beat

use tetris_core::placed_columns::{
    FullRows, PADDED_SLOTS as SLOTS, PieceColumns, PlacedColumns, orientation_runs, padded_columns,
};
use tetris_core::{
    BOARD_WIDTH, Board, ChainRule, LinkValue, PieceState, Placement, PlacementRecord,
    link_value_by_locking,
};

use crate::{Bcts, DU_FEATURE_COUNT, FEATURE_COUNT, index, write_heights};

/// One board's per-column terms and their totals, in padded slots (walls: no terms).
struct BoardTerms {
    columns: [u32; SLOTS],
    holes: [u32; SLOTS],
    column_transitions: [u32; SLOTS],
    hole_depth: [u32; SLOTS],
    /// The column heights, when built for weights that use them (0 otherwise).
    heights: [u32; SLOTS],
    /// `covered_left[s]`: the union of the covered cells of slots `0..s`.
    covered_left: [u32; SLOTS + 1],
    /// `covered_right[s]`: the union of the covered cells of slots `s..`.
    covered_right: [u32; SLOTS + 1],
    /// `pairs_before[s]`: the row transitions of the pairs of slots `(t, t + 1)` for `t < s`,
    /// so that a placement's pairs sum to one difference ([`BoardTerms::pair`] gives one).
    pairs_before: [u32; SLOTS],
    /// `wells_before[s]`: the well sums of slots `0..s` ([`BoardTerms::well_sums`] gives one
    /// slot's).
    wells_before: [u32; SLOTS + 1],
    /// `left_walled[s]`: the empty cells of slot `s` whose left neighbour is occupied (0 for
    /// the walls and the outer slots).
    left_walled: [u32; SLOTS],
    /// `right_walled[s]`: the empty cells of slot `s` whose right neighbour is occupied.
    right_walled: [u32; SLOTS],
    /// `at_or_below_top[s]`: the rows of slot `s`'s top cell and below it (0 for an empty
    /// column): a piece with a cell there was tucked under the column's top, not put on it.
    at_or_below_top: [u32; SLOTS],
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

/// Column transitions from the floor (occupied) through the field into one empty row above,
/// from the column's covered cells `covered` ([`covered_of`]): 1 + 2 × its runs of covered
/// cells. Walking up, each run is entered from an occupied cell or the floor and left into an
/// occupied cell (it lies below the top), two changes; the only other change is from the top
/// cell into the empty cells above it (from the floor, for an empty column), or into the empty
/// row above the field for a column filled to row 0. A run's lowest cell is one whose cell
/// below is not covered, so counting those counts the runs: a shift, a mask and one popcount
/// instead of walking the column's cells.
#[inline(always)]
fn column_transitions_of(covered: u32) -> u32 {
    1 + 2 * (covered & !(covered >> 1)).count_ones()
}

/// Well sums of `column` between `left` and `right`.
#[inline(always)]
fn well_sums_of(left: u32, column: u32, right: u32, rows: Rows) -> u32 {
    let empty = !column & rows.all;
    well_depths(empty & left & right, empty)
}

/// The well sums of the well cells `well_cells` of a column whose empty cells are `empty`:
/// for each, 1 + the empty cells directly below it.
#[inline(always)]
fn well_depths(mut well_cells: u32, empty: u32) -> u32 {
    let mut sum = 0;
    while well_cells != 0 {
        let row = well_cells.trailing_zeros();
        // Bits at and beyond H are zero in `empty`, so the run stops at the floor.
        sum += (empty >> row).trailing_ones();
        well_cells &= well_cells - 1;
    }
    sum
}

/// Hole depth of a column: its occupied cells above its deepest empty cell, from the column
/// and its covered cells `covered` ([`covered_of`]). With a covered cell the deepest empty
/// cell is the deepest covered one (every other empty cell is above the top); without one,
/// the deepest empty cell has no occupied cell above it (or there is none) and the depth is
/// 0. The mask of the rows above the deepest covered row is taken in 64 bits so that no
/// covered cell (32 leading zeros) gives an empty mask without a branch.
#[inline(always)]
fn hole_depth_of(column: u32, covered: u32) -> u32 {
    let above_deepest = (u64::from(u32::MAX) >> covered.leading_zeros()) >> 1;
    (column & above_deepest as u32).count_ones()
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
    /// The terms of `board`. Built in place, field by field, with the totals summed on the
    /// way: the struct is about 600 bytes, and building its arrays as locals first cost a
    /// copy of all of them per search.
    ///
    /// The heights are computed only when `SHAPE` (weights that use them).
    #[inline(always)]
    fn new<const SHAPE: bool>(board: &Board, rows: Rows) -> BoardTerms {
        let mut terms = BoardTerms {
            columns: padded_columns(board),
            holes: [0; SLOTS],
            column_transitions: [0; SLOTS],
            hole_depth: [0; SLOTS],
            heights: [0; SLOTS],
            covered_left: [0; SLOTS + 1],
            covered_right: [0; SLOTS + 1],
            pairs_before: [0; SLOTS],
            wells_before: [0; SLOTS + 1],
            left_walled: [0; SLOTS],
            right_walled: [0; SLOTS],
            at_or_below_top: [0; SLOTS],
            full_rows: FullRows::new(board),
            holes_total: 0,
            column_transitions_total: 0,
            well_sums_total: 0,
            hole_depth_total: 0,
            row_transitions_total: 0,
        };
        let columns = &terms.columns;
        let mut covered = [0; SLOTS];
        for slot in 2..2 + BOARD_WIDTH {
            let column = columns[slot];
            let empty = !column & rows.all;
            terms.left_walled[slot] = empty & columns[slot - 1];
            terms.right_walled[slot] = empty & columns[slot + 1];
            // The lowest set bit and every bit above it (rows at and below the top cell).
            terms.at_or_below_top[slot] = column | column.wrapping_neg();
            let column_covered = covered_of(column, rows);
            covered[slot] = column_covered;
            let holes = column_covered.count_ones();
            let column_transitions = column_transitions_of(column_covered);
            let well_sums = well_sums_of(columns[slot - 1], column, columns[slot + 1], rows);
            let hole_depth = hole_depth_of(column, column_covered);
            terms.holes[slot] = holes;
            terms.column_transitions[slot] = column_transitions;
            terms.hole_depth[slot] = hole_depth;
            if SHAPE {
                terms.heights[slot] = height_of(column, rows);
            }
            terms.holes_total += holes;
            terms.column_transitions_total += column_transitions;
            terms.well_sums_total += well_sums;
            terms.wells_before[slot + 1] = terms.well_sums_total;
            terms.hole_depth_total += hole_depth;
        }
        // The walls have no covered cells and no row transitions between them (slots 0–1 and
        // 12–13): the unions and sums run over the field's slots, and the entries past them
        // repeat the last.
        for slot in 2..2 + BOARD_WIDTH {
            terms.covered_left[slot + 1] = terms.covered_left[slot] | covered[slot];
            let from_right = SLOTS - 1 - slot;
            terms.covered_right[from_right] =
                terms.covered_right[from_right + 1] | covered[from_right];
        }
        terms.covered_left[SLOTS - 1] = terms.covered_left[SLOTS - 2];
        terms.covered_left[SLOTS] = terms.covered_left[SLOTS - 2];
        terms.covered_right[1] = terms.covered_right[2];
        terms.covered_right[0] = terms.covered_right[2];
        for slot in 1..SLOTS - 2 {
            let pair = (terms.columns[slot] ^ terms.columns[slot + 1]).count_ones();
            terms.row_transitions_total += pair;
            terms.pairs_before[slot + 1] = terms.row_transitions_total;
        }
        terms.pairs_before[SLOTS - 1] = terms.row_transitions_total;
        // The walls on the right have no well sums.
        terms.wells_before[SLOTS - 1] = terms.well_sums_total;
        terms.wells_before[SLOTS] = terms.well_sums_total;
        terms
    }

    /// The row transitions between slots `slot` and `slot + 1`.
    #[inline(always)]
    fn pair(&self, slot: usize) -> u32 {
        self.pairs_before[slot + 1] - self.pairs_before[slot]
    }

    /// The well sums of slot `slot`.
    #[inline(always)]
    fn well_sums(&self, slot: usize) -> u32 {
        self.wells_before[slot + 1] - self.wells_before[slot]
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
    values_of_columns::<true>(&padded_columns(board), rows)
}

/// The board features (the placement features 0) of the board whose columns are `columns`
/// (padded with walls, as [`padded_columns`] gives them): [`whole_board_values`] of a board
/// that need not be built, such as the one a placement leaves once its full rows are gone.
/// Without `SHAPE` the board-shape features (wall height, column heights, differences) are
/// left 0, for weights that do not use them.
#[inline(always)]
fn values_of_columns<const SHAPE: bool>(
    columns: &[u32; SLOTS],
    rows: Rows,
) -> [f64; FEATURE_COUNT] {
    let (mut holes, mut column_transitions, mut well_sums, mut hole_depth) = (0, 0, 0, 0);
    let mut covered = 0;
    let mut heights = [0u32; BOARD_WIDTH];
    for (x, height) in heights.iter_mut().enumerate() {
        let slot = x + 2;
        let column = columns[slot];
        let column_covered = covered_of(column, rows);
        covered |= column_covered;
        holes += column_covered.count_ones();
        column_transitions += column_transitions_of(column_covered);
        well_sums += well_sums_of(columns[slot - 1], column, columns[slot + 1], rows);
        hole_depth += hole_depth_of(column, column_covered);
        if SHAPE {
            *height = height_of(column, rows);
        }
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
    if SHAPE {
        values[index::WALL_HEIGHT] = heights.iter().copied().max().unwrap_or(0) as f64;
        write_heights(&heights, &mut values);
    }
    values
}

/// `column` with the rows of `full` taken out and the rows above them moved down, row 0
/// coming in empty: what [`Board::lock`] does to each column when it clears `full` (the same
/// steps, top row first, so a lower row's index is unchanged when its turn comes).
#[inline(always)]
fn without_rows(mut column: u32, full: u32) -> u32 {
    let mut remaining = full;
    while remaining != 0 {
        let row = remaining.trailing_zeros();
        remaining &= remaining - 1;
        let above = (1u32 << row) - 1;
        column = (column & !above & !(1 << row)) | ((column & above) << 1);
    }
    column
}

/// The well sums after `placed` (`WIDTH` columns wide, clearing no row) locks, from the
/// columns it leaves in slots `x0 .. x0 + WIDTH + 4` (`x0` its first column).
#[inline(always)]
fn well_sums_after<const WIDTH: usize>(
    terms: &BoardTerms,
    placed: &PlacedColumns,
    columns: &[u32; 8],
    rows: Rows,
) -> u32 {
    let x0 = placed.first_column;
    // Well sums change in the piece's columns and one on each side. The piece's columns are
    // taken again whole. A side neighbour keeps its cells, so its old well cells keep their
    // terms; it gains a well cell exactly where the piece put a cell next to an empty cell
    // that already had an occupied cell on its other side, and adds that cell's term. (A wall
    // has no empty cell, so it gains none.)
    let mut well_sums = terms.well_sums_total;
    for k in 2..WIDTH + 2 {
        well_sums = well_sums + well_sums_of(columns[k - 1], columns[k], columns[k + 1], rows)
            - terms.well_sums(x0 + k);
    }
    // The side columns' new well cells: empty, walled on the far side already (the board's
    // `left_walled` / `right_walled`, one load), and next to one of the piece's cells.
    let gained_left = terms.left_walled[x0 + 1] & placed.cells[0];
    well_sums += well_depths(gained_left, !columns[1] & rows.all);
    let gained_right = terms.right_walled[x0 + WIDTH + 2] & placed.cells[WIDTH - 1];
    well_sums += well_depths(gained_right, !columns[WIDTH + 2] & rows.all);
    well_sums
}

/// What a placement leaves, as [`board_features_after`] finds it.
enum After {
    /// It clears no row: the eight DU features (the placement features 0) and the columns it
    /// leaves in slots `x0 .. x0 + WIDTH + 4`.
    Kept([f64; DU_FEATURE_COUNT], [u32; 8]),
    /// It fills the rows of this mask, which the lock clears.
    Clears(u32),
}

/// The eight DU features after `placed` (`WIDTH` columns wide) locks, or the rows it fills
/// (the lock clears them, and every column moves).
#[inline(always)]
fn board_features_after<const WIDTH: usize>(
    terms: &BoardTerms,
    placed: &PlacedColumns,
    rows: Rows,
) -> After {
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
        column_transitions = column_transitions + column_transitions_of(column_covered)
            - terms.column_transitions[slot];
        hole_depth = hole_depth + hole_depth_of(column, column_covered) - terms.hole_depth[slot];
    }
    if full != 0 {
        return After::Clears(full);
    }
    let well_sums = well_sums_after::<WIDTH>(terms, placed, &columns, rows);
    let mut row_transitions = terms.row_transitions_total;
    for k in 1..WIDTH + 2 {
        row_transitions =
            row_transitions + (columns[k] ^ columns[k + 1]).count_ones() - terms.pair(x0 + k);
    }
    let mut values = [0.0; DU_FEATURE_COUNT];
    values[index::ROW_TRANSITIONS] = row_transitions as f64;
    values[index::COLUMN_TRANSITIONS] = column_transitions as f64;
    values[index::HOLES] = holes as f64;
    values[index::WELL_SUMS] = well_sums as f64;
    values[index::HOLE_DEPTH] = hole_depth as f64;
    values[index::ROWS_WITH_HOLES] = covered.count_ones() as f64;
    After::Kept(values, columns)
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

/// What the DU leaf loop finds for one placement inside the field ([`Bcts::du_leaf`]).
enum Leaf {
    /// Its exact cost.
    Exact(f64),
    /// A lower bound of its cost above the cost to beat (module documentation, "Deciding").
    StandIn(f64),
    /// It fills the rows of this mask, which the lock clears.
    Clears(u32),
}

/// The products of the DU weights and the board's totals of the features a placement on top
/// of the columns can only raise (module documentation, "Deciding"), for the first bound.
#[derive(Clone, Copy, Default)]
struct BoardProducts {
    column_transitions: f64,
    holes: f64,
    hole_depth: f64,
    rows_with_holes: f64,
}

impl Bcts {
    /// [`tetris_core::Evaluator::last_link_values`] by updating the board's terms (module
    /// documentation); inlined into a popcount-enabled caller. With `BOUND` (only when the
    /// weights allow it, `Bcts::stand_ins`) a placement may get a stand-in above `to_beat` or above an
    /// exact cost given earlier in this call ([`Evaluator::last_link_values_to_beat`]).
    ///
    /// [`Evaluator::last_link_values_to_beat`]: tetris_core::Evaluator::last_link_values_to_beat
    #[inline(always)]
    pub(crate) fn last_link_values_by_columns<const BOUND: bool>(
        &self,
        board: &Board,
        records: &mut Vec<PlacementRecord>,
        placements: &[Placement],
        to_beat: f64,
        out: &mut Vec<LinkValue>,
    ) {
        let Some(first) = placements.first() else {
            out.clear();
            return;
        };
        // Every value is written in place, in order (no capacity check per value), over
        // whatever `out` held: only the slots it did not have yet get the placeholder.
        out.resize(
            placements.len(),
            LinkValue {
                rule: ChainRule::Neutral,
                cost: 0.0,
            },
        );
        let rows = Rows {
            all: board.row_mask(),
            floor: board.floor_row_bit(),
            height: board.height() as u32,
        };
        let mut to_beat = to_beat;
        // The DU presets (no board-shape weight) get their own copy of the leaf loop, which
        // neither computes the heights nor keeps the placement's columns for them.
        if self.uses_shape() {
            let run = Run {
                board,
                terms: &BoardTerms::new::<true>(board, rows),
                piece_columns: PieceColumns::of(first.piece),
                rows,
                products: BoardProducts::default(),
            };
            self.runs_values::<true, false>(&run, records, placements, &mut to_beat, out);
        } else {
            let terms = &BoardTerms::new::<false>(board, rows);
            let products = if BOUND {
                let weights = &self.values;
                BoardProducts {
                    column_transitions: weights[index::COLUMN_TRANSITIONS]
                        * terms.column_transitions_total as f64,
                    holes: weights[index::HOLES] * terms.holes_total as f64,
                    hole_depth: weights[index::HOLE_DEPTH] * terms.hole_depth_total as f64,
                    rows_with_holes: weights[index::ROWS_WITH_HOLES]
                        * terms.covered_left[SLOTS].count_ones() as f64,
                }
            } else {
                BoardProducts::default()
            };
            let run = Run {
                board,
                terms,
                piece_columns: PieceColumns::of(first.piece),
                rows,
                products,
            };
            self.runs_values::<false, BOUND>(&run, records, placements, &mut to_beat, out);
        }
    }

    /// The values of `placements` (all of `run`'s piece, in runs of one orientation), with
    /// the board-shape features when `SHAPE` ([`Bcts::uses_shape`]), with stand-ins when
    /// `BOUND` (never with `SHAPE`).
    #[inline(always)]
    fn runs_values<const SHAPE: bool, const BOUND: bool>(
        &self,
        run: &Run<'_>,
        records: &mut Vec<PlacementRecord>,
        placements: &[Placement],
        to_beat: &mut f64,
        out: &mut [LinkValue],
    ) {
        let board = run.board;
        // The placements come in runs of one orientation (`orientation_runs`); each leaf
        // loop takes the run at the start of what is left and says where it ended, so that
        // finding the runs costs no pass of its own.
        let (mut rest, mut out) = (placements, out);
        while let Some(first) = rest.first() {
            let taken = match run.piece_columns.width(first) {
                Some(1) => self.run_values::<1, SHAPE, BOUND>(run, records, rest, to_beat, out),
                Some(2) => self.run_values::<2, SHAPE, BOUND>(run, records, rest, to_beat, out),
                Some(3) => self.run_values::<3, SHAPE, BOUND>(run, records, rest, to_beat, out),
                Some(4) => self.run_values::<4, SHAPE, BOUND>(run, records, rest, to_beat, out),
                // Not this piece's placements: the whole-board way.
                _ => {
                    let same = orientation_runs(rest).next().expect("a placement is left");
                    for (&placement, slot) in same.iter().zip(&mut *out) {
                        let value = link_value_by_locking(self, board, records, placement);
                        if BOUND {
                            lower(to_beat, &value);
                        }
                        *slot = value;
                    }
                    same.len()
                }
            };
            rest = &rest[taken..];
            out = &mut out[taken..];
        }
    }

    /// The values of the run of one piece and rotation covering `WIDTH` columns at the start
    /// of `placements` (every placement up to the first of another piece or rotation),
    /// written to the start of `out`; returns the run's length.
    #[inline(always)]
    fn run_values<const WIDTH: usize, const SHAPE: bool, const BOUND: bool>(
        &self,
        run: &Run<'_>,
        records: &mut Vec<PlacementRecord>,
        placements: &[Placement],
        to_beat: &mut f64,
        out: &mut [LinkValue],
    ) -> usize {
        let Some(&first) = placements.first() else {
            return 0;
        };
        // `landing_height` of each placement, in the same operations as
        // `PlacementRecord::landing_height`: the lowest cell's row from the floor, plus half
        // the orientation's rows (the same for the whole run).
        let (top, bottom) = first.piece.vertical_extent(first.rotation);
        let half_rows = (bottom - top) as f64 / 2.0;
        let floor_row = run.board.height() as i32 - 1;
        // The orientation's cells per column as `PieceColumns::placed` gives them for pivot
        // row 4 on a board of every row (bit dy + 4 of column k), and its first column's
        // offset from the pivot column: taken once for the run, so that each placement costs
        // only `placed`'s shifts, not its piece test and table lookups, and only for the
        // `WIDTH` columns it covers.
        let reference = Placement::new(
            first.piece,
            PieceState {
                x: 4,
                y: 4,
                rotation: first.rotation,
            },
        );
        let Some(at_reference) = run.piece_columns.placed(&reference, u32::MAX) else {
            let same = orientation_runs(placements).next().expect("a placement");
            for (&placement, slot) in same.iter().zip(out) {
                let value = link_value_by_locking(self, run.board, records, placement);
                if BOUND {
                    lower(to_beat, &value);
                }
                *slot = value;
            }
            return same.len();
        };
        let first_dx = at_reference.first_column as i8 - reference.x;
        for (index, (&placement, slot)) in placements.iter().zip(out).enumerate() {
            // The run ends at the first placement of another orientation.
            if placement.rotation != first.rotation || placement.piece != first.piece {
                return index;
            }
            // A cell above the field: MDPTetris's tall board, the whole-board way.
            if i32::from(placement.y) + i32::from(top) < 0 {
                let value = link_value_by_locking(self, run.board, records, placement);
                if BOUND {
                    lower(to_beat, &value);
                }
                *slot = value;
                continue;
            }
            // `PieceColumns::placed`'s cells: bit dy + 4 moves to bit y + dy + 8, then to
            // y + dy (the pivot row is at least −2 here, so the shift is not negative). No
            // mask of the field's rows: no cell is above row 0 (tested just above) and a
            // legal placement has none below the floor, so every bit is already a row's.
            let shift = (placement.y + 4) as u32;
            let mut cells = [0; 4];
            for (cells, &at_reference) in cells[..WIDTH].iter_mut().zip(&at_reference.cells) {
                *cells = ((u64::from(at_reference) << shift) >> 8) as u32;
                debug_assert_eq!(*cells & !run.rows.all, 0, "{placement:?}");
            }
            // A legal placement's first column is at most 10 − WIDTH; saying so lets the
            // compiler drop the bounds checks of every slot the leaf reads (a placement that
            // broke it would be judged at the last columns instead of stopping at a check).
            let first_column = (placement.x + first_dx) as usize;
            debug_assert!(first_column <= BOARD_WIDTH - WIDTH, "{placement:?}");
            let placed = PlacedColumns {
                first_column: first_column.min(BOARD_WIDTH - WIDTH),
                width: WIDTH,
                cells,
            };
            let landing_height = (floor_row - (placement.y + bottom) as i32) as f64 + half_rows;
            let cost = if SHAPE {
                match board_features_after::<WIDTH>(run.terms, &placed, run.rows) {
                    After::Kept(mut du, columns) => {
                        du[index::LANDING_HEIGHT] = landing_height;
                        // `eroded_piece_cells` stays 0: the placement clears no row.
                        let x0 = placed.first_column;
                        let all = with_shape::<WIDTH>(run.terms, x0, &columns, &du, run.rows);
                        self.weighted_cost(&all)
                    }
                    After::Clears(full) => self.cost_after_clearing::<SHAPE>(
                        run.terms,
                        &placed,
                        full,
                        landing_height,
                        run.rows,
                    ),
                }
            } else {
                match self.du_leaf::<WIDTH, BOUND>(run, &placed, landing_height, *to_beat) {
                    Leaf::Exact(cost) => cost,
                    Leaf::StandIn(bound) => {
                        // Not an exact value: it lowers no cost to beat.
                        *slot = LinkValue {
                            rule: ChainRule::Neutral,
                            cost: bound,
                        };
                        continue;
                    }
                    Leaf::Clears(full) => self.cost_after_clearing::<SHAPE>(
                        run.terms,
                        &placed,
                        full,
                        landing_height,
                        run.rows,
                    ),
                }
            };
            if BOUND && cost < *to_beat {
                *to_beat = cost;
            }
            *slot = LinkValue {
                rule: ChainRule::Neutral,
                cost,
            };
        }
        placements.len()
    }

    /// The DU cost of `placed` (inside the field, `WIDTH` columns wide) landing at
    /// `landing_height`, when it clears no row, or the rows it fills. With `BOUND`, a lower
    /// bound of the cost instead when one is above `to_beat` (module documentation,
    /// "Deciding"): first with the exact landing height and row transitions and the board's
    /// own terms for the rest, then with every feature exact but `well_sums`.
    ///
    /// The cost is [`Bcts::du_cost`]'s sum to the last bit, without its zero term: the same
    /// products added in the same order. The left-out term is `weight × 0.0`
    /// (`eroded_piece_cells` is 0 when no row clears), a zero (weights are finite), and adding
    /// a zero leaves any sum but −0 unchanged; the sum there is `0.0 + w × landing height`,
    /// and `0.0 + x` is never −0 (+0 + −0 rounds to +0). The bounds are that sum with some
    /// features lowered.
    #[inline(always)]
    fn du_leaf<const WIDTH: usize, const BOUND: bool>(
        &self,
        run: &Run<'_>,
        placed: &PlacedColumns,
        landing_height: f64,
        to_beat: f64,
    ) -> Leaf {
        let (terms, rows) = (run.terms, run.rows);
        let weights = &self.values;
        let x0 = placed.first_column;
        // Columns x0 − 2 ..= x0 + WIDTH + 1 (slots x0 ..= x0 + WIDTH + 3), the piece's at 2..
        let mut columns = [0u32; 8];
        columns[..WIDTH + 4].copy_from_slice(&terms.columns[x0..x0 + WIDTH + 4]);
        let mut full = terms.full_rows.outside(placed);
        let mut tucked = 0;
        for k in 0..WIDTH {
            let column = columns[k + 2] | placed.cells[k];
            columns[k + 2] = column;
            full &= column;
            if BOUND {
                tucked |= placed.cells[k] & terms.at_or_below_top[x0 + k + 2];
            }
        }
        if full != 0 {
            return Leaf::Clears(full);
        }
        // The pairs from the piece's left neighbour to its right one (slots x0 + 1 ..=
        // x0 + WIDTH + 2) change: the board's other pairs, then the new ones.
        let mut row_transitions = terms.row_transitions_total
            - (terms.pairs_before[x0 + WIDTH + 2] - terms.pairs_before[x0 + 1]);
        for k in 1..WIDTH + 2 {
            row_transitions += (columns[k] ^ columns[k + 1]).count_ones();
        }
        // The sum's first two additions. The first is `0.0 + w × landing height`, which is
        // `w × landing height` unless that is −0; with stand-ins (`BOUND`) the weight is +0
        // or more and the height is not negative, so the product is not −0 and the addition
        // goes.
        let landing = weights[index::LANDING_HEIGHT] * landing_height;
        let mut head = if BOUND { landing } else { 0.0 + landing };
        head += weights[index::ROW_TRANSITIONS] * row_transitions as f64;
        // The well sums of the columns the piece does not touch: a lower bound of the well
        // sums after it.
        let wells_kept = terms.well_sums_total
            - (terms.wells_before[x0 + 2 + WIDTH] - terms.wells_before[x0 + 2]);
        if BOUND && tucked == 0 {
            let products = &run.products;
            let mut bound = head + products.column_transitions;
            bound += products.holes;
            bound += weights[index::WELL_SUMS] * wells_kept as f64;
            bound += products.hole_depth;
            bound += products.rows_with_holes;
            if bound > to_beat {
                return Leaf::StandIn(bound);
            }
        }
        let mut holes = terms.holes_total;
        let mut column_transitions = terms.column_transitions_total;
        let mut hole_depth = terms.hole_depth_total;
        let mut covered = terms.covered_left[x0 + 2] | terms.covered_right[x0 + 2 + WIDTH];
        for k in 0..WIDTH {
            let column = columns[k + 2];
            let slot = x0 + k + 2;
            let column_covered = covered_of(column, rows);
            covered |= column_covered;
            holes = holes + column_covered.count_ones() - terms.holes[slot];
            column_transitions = column_transitions + column_transitions_of(column_covered)
                - terms.column_transitions[slot];
            hole_depth =
                hole_depth + hole_depth_of(column, column_covered) - terms.hole_depth[slot];
        }
        let mut middle = head + weights[index::COLUMN_TRANSITIONS] * column_transitions as f64;
        middle += weights[index::HOLES] * holes as f64;
        // The last three additions, from the well sums on.
        let tail = |well_sums: u32| {
            let mut sum = middle + weights[index::WELL_SUMS] * well_sums as f64;
            sum += weights[index::HOLE_DEPTH] * hole_depth as f64;
            sum += weights[index::ROWS_WITH_HOLES] * covered.count_ones() as f64;
            sum
        };
        if BOUND {
            let bound = tail(wells_kept);
            if bound > to_beat {
                return Leaf::StandIn(bound);
            }
        }
        Leaf::Exact(tail(well_sums_after::<WIDTH>(
            terms, placed, &columns, rows,
        )))
    }

    /// The cost of a placement inside the field that fills the rows `full`: the board it
    /// leaves, built from the board's columns (its cells added, the full rows taken out as
    /// [`Board::lock`] takes them out) and judged whole, as [`crate::feature_values`] judges
    /// the locked board, with `eroded_piece_cells` = rows cleared × the piece's cells in them
    /// (what [`PlacementRecord::eroded_piece_cells`] counts). Every column moves, so nothing
    /// of the board's terms is kept, but this skips copying the board, the lock's own row
    /// search and the record: about half the work of [`link_value_by_locking`] on the 3 % of
    /// a game's leaves that clear rows.
    #[inline(always)]
    fn cost_after_clearing<const SHAPE: bool>(
        &self,
        terms: &BoardTerms,
        placed: &PlacedColumns,
        full: u32,
        landing_height: f64,
        rows: Rows,
    ) -> f64 {
        let mut columns = terms.columns;
        let mut piece_cells_cleared = 0;
        for (k, &cells) in placed.cells[..placed.width].iter().enumerate() {
            columns[placed.first_column + 2 + k] |= cells;
            piece_cells_cleared += (cells & full).count_ones();
        }
        for column in &mut columns[2..2 + BOARD_WIDTH] {
            *column = without_rows(*column, full);
        }
        let mut values = values_of_columns::<SHAPE>(&columns, rows);
        values[index::LANDING_HEIGHT] = landing_height;
        values[index::ERODED_PIECE_CELLS] = (full.count_ones() * piece_cells_cleared) as f64;
        self.weighted_cost(&values)
    }
}

/// What every run of one search shares.
struct Run<'a> {
    board: &'a Board,
    terms: &'a BoardTerms,
    piece_columns: &'static PieceColumns,
    rows: Rows,
    /// The first bound's products, with stand-ins (zeros otherwise).
    products: BoardProducts,
}

/// Lowers the cost to beat to `value`'s cost when that is an exact `Neutral` value below it.
#[inline(always)]
fn lower(to_beat: &mut f64, value: &LinkValue) {
    if value.rule == ChainRule::Neutral && value.cost < *to_beat {
        *to_beat = value.cost;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rows of an 8-row board.
    const ROWS: Rows = Rows {
        all: 0xFF,
        floor: 1 << 7,
        height: 8,
    };

    #[test]
    fn column_terms_from_the_covered_cells() {
        // Rows 0..8 top first: ". . # . # # . .": occupied rows 2, 4 and 5. Covered: rows 3,
        // 6 and 7 (below the top, row 2), in two runs. Walking up from the floor (occupied):
        // → 7 empty (1), → 5 occupied (2), → 3 empty (3), → 2 occupied (4), → 1 empty (5):
        // 5 changes, 1 + 2 × 2. The deepest empty cell is row 7, with the 3 occupied cells
        // above it: hole depth 3.
        let column = 0b0011_0100;
        let covered = covered_of(column, ROWS);
        assert_eq!(covered, 0b1100_1000);
        assert_eq!(column_transitions_of(covered), 5);
        assert_eq!(hole_depth_of(column, covered), 3);
        // Empty: one change (floor → empty), no hole. Full to row 0: one change at the top
        // (into the empty row above the field), no hole.
        assert_eq!(column_transitions_of(covered_of(0, ROWS)), 1);
        assert_eq!(hole_depth_of(0, covered_of(0, ROWS)), 0);
        assert_eq!(column_transitions_of(covered_of(0xFF, ROWS)), 1);
        assert_eq!(hole_depth_of(0xFF, covered_of(0xFF, ROWS)), 0);
        // Row 0 occupied over an empty floor row: covered row 7 under 7 occupied cells.
        assert_eq!(hole_depth_of(0x7F, covered_of(0x7F, ROWS)), 7);
        assert_eq!(column_transitions_of(covered_of(0x7F, ROWS)), 3);
    }

    #[test]
    fn cleared_rows_leave_the_column_as_the_lock_does() {
        // Rows 3 and 6 full (and removed); the column holds rows 1, 3, 4, 6 and 7. Row 7
        // stays; row 4 falls one row (row 6 was removed below it) to row 5; row 1 falls two
        // (rows 3 and 6) to row 3. Result: rows 3, 5 and 7, as the board's own clear gives.
        let column = 0b1101_1010;
        assert_eq!(without_rows(column, 0b0100_1000), 0b1010_1000);
        let mut board = Board::new(8).unwrap();
        for y in [1, 3, 4, 6, 7] {
            board.set(0, y);
        }
        for x in 1..BOARD_WIDTH {
            board.set(x, 3);
            board.set(x, 6);
        }
        assert_eq!(board.clear_full_rows(), 0b0100_1000);
        assert_eq!(board.column(0), 0b1010_1000);
    }
}
