//! Dellacherie's values of the chains that end with each placement of one search, by updating
//! the board's features for the columns a placement touches ([`Evaluator::last_link_values`]).
//!
//! Every placement of one search goes on the same board (see
//! [`tetris_core::placed_columns`]), and one that clears no row changes only the columns its
//! cells are in, `a..=b`. Each board feature is a sum of terms over few columns:
//!
//! - `holes` and `column_transitions`: one term per column, from that column alone;
//! - `well_sums` of column x: from columns x − 1, x and x + 1, so a placement changes the
//!   terms of columns `a − 1..=b + 1`;
//! - `row_transitions`: one term per pair of neighbouring columns (walls included), on every
//!   row, so a placement changes the pairs that touch its columns.
//!
//! The board's terms are computed once per search and each placement's features are the
//! board's totals with the terms it touches taken out and put back as they are after it. The
//! placement features of a placement that clears no row are its landing height and two zeros.
//! A placement that clears a row moves every column and takes the whole-board way
//! ([`link_value_by_locking`]). The features are the same numbers either way, so the cost —
//! the same sum in the same order — is the same to the last bit; the tests check the two
//! ways against each other on random boards and placements.
//!
//! [`Evaluator::last_link_values`]: tetris_core::Evaluator::last_link_values

use tetris_core::placed_columns::{
    FullRows, PADDED_SLOTS as SLOTS, PieceColumns, PlacedColumns, orientation_runs, padded_columns,
};
use tetris_core::{
    BOARD_WIDTH, Board, ChainRule, LinkValue, Placement, PlacementRecord, link_value_by_locking,
};

use crate::Dellacherie;

/// One board's per-column terms and their totals, in padded slots (walls: no terms).
struct BoardTerms {
    columns: [u32; SLOTS],
    /// Covered empty cells per column.
    holes: [u32; SLOTS],
    /// Column transitions per column.
    column_transitions: [u32; SLOTS],
    /// Well sums per column.
    well_sums: [u32; SLOTS],
    /// `pairs[s]`: the row transitions between slots `s` and `s + 1`.
    pairs: [u32; SLOTS - 1],
    /// Whether a placement fills a row.
    full_rows: FullRows,
    holes_total: u32,
    column_transitions_total: u32,
    well_sums_total: u32,
    row_transitions_total: u32,
}

/// The rows of the field the board's masks need.
#[derive(Clone, Copy)]
struct Rows {
    /// Every row of the field.
    all: u32,
    /// The floor row H − 1.
    floor: u32,
}

/// Covered empty cells of a column: empty cells below its top cell.
#[inline(always)]
fn holes_of(column: u32, rows: Rows) -> u32 {
    // The top cell and every row above it; an empty column gives every row.
    let with_floor = column | rows.floor;
    let down_to_top = with_floor ^ with_floor.wrapping_sub(1);
    (!down_to_top & !column & rows.all).count_ones()
}

/// Column transitions from the floor (occupied) up to the top row.
#[inline(always)]
fn column_transitions_of(column: u32, rows: Rows) -> u32 {
    (((column ^ (column >> 1)) & (rows.all >> 1)) | (!column & rows.floor)).count_ones()
}

/// Well sums of `column` between `left` and `right`: each empty cell with both neighbours
/// occupied counts 1 + the empty cells directly below it.
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

impl BoardTerms {
    #[inline(always)]
    fn new(board: &Board, rows: Rows) -> BoardTerms {
        let columns = padded_columns(board);
        let mut holes = [0; SLOTS];
        let mut column_transitions = [0; SLOTS];
        let mut well_sums = [0; SLOTS];
        for slot in 2..2 + BOARD_WIDTH {
            holes[slot] = holes_of(columns[slot], rows);
            column_transitions[slot] = column_transitions_of(columns[slot], rows);
            well_sums[slot] =
                well_sums_of(columns[slot - 1], columns[slot], columns[slot + 1], rows);
        }
        let pairs = std::array::from_fn(|slot| (columns[slot] ^ columns[slot + 1]).count_ones());
        BoardTerms {
            columns,
            holes,
            column_transitions,
            well_sums,
            pairs,
            full_rows: FullRows::new(board),
            holes_total: holes.iter().sum(),
            column_transitions_total: column_transitions.iter().sum(),
            well_sums_total: well_sums.iter().sum(),
            row_transitions_total: pairs.iter().sum(),
        }
    }
}

/// The four board features (`row_transitions`, `column_transitions`, `holes`, `well_sums`)
/// after `placed` (`WIDTH` columns wide) locks, or `None` when it fills a row.
#[inline(always)]
fn board_features_after<const WIDTH: usize>(
    terms: &BoardTerms,
    placed: &PlacedColumns,
    rows: Rows,
) -> Option<[u32; 4]> {
    let x0 = placed.first_column;
    // Columns x0 − 2 ..= x0 + WIDTH + 1 (slots x0 ..= x0 + WIDTH + 3), the piece's at 2..
    let mut columns = [0u32; 8];
    columns[..WIDTH + 4].copy_from_slice(&terms.columns[x0..x0 + WIDTH + 4]);
    let mut full = terms.full_rows.outside(placed);
    let mut holes = terms.holes_total;
    let mut column_transitions = terms.column_transitions_total;
    for k in 0..WIDTH {
        let column = columns[k + 2] | placed.cells[k];
        columns[k + 2] = column;
        full &= column;
        holes = holes + holes_of(column, rows) - terms.holes[x0 + k + 2];
        column_transitions = column_transitions + column_transitions_of(column, rows)
            - terms.column_transitions[x0 + k + 2];
    }
    if full != 0 {
        return None;
    }
    // Well sums change in the piece's columns and one on each side. A wall slot among them
    // needs no test: a wall has no empty cell, so its `well_sums_of` is 0, as is its term.
    let mut well_sums = terms.well_sums_total;
    for k in 1..WIDTH + 3 {
        well_sums = well_sums + well_sums_of(columns[k - 1], columns[k], columns[k + 1], rows)
            - terms.well_sums[x0 + k];
    }
    let mut row_transitions = terms.row_transitions_total;
    for k in 1..WIDTH + 2 {
        row_transitions =
            row_transitions + (columns[k] ^ columns[k + 1]).count_ones() - terms.pairs[x0 + k];
    }
    Some([row_transitions, column_transitions, holes, well_sums])
}

impl Dellacherie {
    /// [`tetris_core::Evaluator::last_link_values`] by updating the board's terms (module
    /// documentation); inlined into a popcount-enabled caller.
    ///
    /// Placements come in runs of one orientation (a searcher's order usually groups them so;
    /// any order works): what depends on the orientation alone (its width, which picks the
    /// specialised column update, and its rows for the landing height) is looked up once per
    /// run.
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
        // `landing_height` of each placement, in the same operations: the lowest cell's row
        // from the floor, plus half the orientation's rows (the same for the whole run).
        let (top, bottom) = first.piece.vertical_extent(first.rotation);
        let half_rows = (bottom - top) as f64 / 2.0;
        let floor_row = run.board.height() as i32 - 1;
        for &placement in placements {
            let features = run
                .piece_columns
                .placed(&placement, run.rows.all)
                .and_then(|placed| board_features_after::<WIDTH>(run.terms, &placed, run.rows));
            let Some([row_transitions, column_transitions, holes, well_sums]) = features else {
                out.push(link_value_by_locking(self, run.board, records, placement));
                continue;
            };
            let landing_height = (floor_row - (placement.y + bottom) as i32) as f64 + half_rows;
            let score = self.score_without_clears(
                landing_height,
                [row_transitions, column_transitions, holes, well_sums],
            );
            out.push(LinkValue {
                rule: ChainRule::Neutral,
                cost: -score,
            });
        }
    }

    /// [`Dellacherie::weighted_score`] of a placement that clears no row (`rows_removed` and
    /// `eroded_piece_cells` are 0), to the last bit: the same sum in the same order without
    /// its two zero terms. Each of them is `weight × 0.0`, a zero (weights are finite), and
    /// adding a zero leaves any sum but −0 unchanged; the sum there is `0.0 + w × landing
    /// height`, and `0.0 + x` is never −0 (+0 + −0 rounds to +0).
    #[inline(always)]
    fn score_without_clears(&self, landing_height: f64, board: [u32; 4]) -> f64 {
        let w = &self.values;
        let mut sum = 0.0 + w[0] * landing_height;
        for (weight, feature) in w[3..].iter().zip(board) {
            sum += weight * feature as f64;
        }
        sum
    }
}

/// What every run of one search shares.
struct Run<'a> {
    board: &'a Board,
    terms: &'a BoardTerms,
    piece_columns: &'static PieceColumns,
    rows: Rows,
}
