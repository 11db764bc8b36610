//! El-Ashi's values of the chains that end with each placement of one search, by updating the
//! board's features for the columns a placement touches ([`Evaluator::last_link_values`]).
//!
//! Every placement of one search goes on the same board, and one that clears no row changes
//! only the columns its cells are in: columns `a..=b`, two to four of them. Each board
//! feature is a sum of terms that depend on few columns:
//!
//! - `holes` and the open bottoms behind `column_transitions` (see [`board_features`]): one
//!   term per column, from that column alone;
//! - `wells` of column x: from columns x − 1, x and x + 1, so a placement changes the terms of
//!   columns `a − 1..=b + 1`;
//! - `row_transitions`: one term per pair of neighbouring cells in a row (walls included),
//!   counted on the non-empty rows. A placement changes the pairs that touch its columns, and
//!   it can make empty rows non-empty: in such a row every other cell is empty, so the pairs
//!   away from its columns add a transition only where a wall meets an empty cell — one per
//!   new row at the left wall when `a > 0` and one at the right wall when `b < 9`.
//!
//! So the board's terms are computed once per search and each placement's features are the
//! board's totals with the terms it touches taken out and put back as they are after it. A
//! placement that clears a row moves every column and takes the whole-board way
//! ([`link_value_by_locking`]). The features are integers, so the cost — the same sum in the
//! same order — is the same to the last bit; the tests check the two ways against each other
//! on random boards and placements.
//!
//! # Deciding ([`Evaluator::last_link_values_to_beat`])
//!
//! A chain that only decides needs the exact value of a placement only when it may beat the
//! best chain so far (cost `to_beat`). When every weight is ≥ 0 (every feature is), a lower
//! bound of each feature gives a lower bound of the cost, summed in the same order: IEEE
//! rounding is monotone, and leaving a non-negative term out never raises a sum. A
//! placement whose bound is above `to_beat` gets the bound as a stand-in. Two bounds, the
//! cheaper first:
//!
//! 1. **Lock height and rows** (any placement, rows filled or not): the earlier links' rows
//!    cleared, the chain's lock height (exact: it is taken before the clear) and
//!    `row_transitions` lowered by 2 for each row among the piece's rows that has a maximal
//!    empty run of 1 to 4 cells (walls count as occupied); the other three terms left out.
//!    Why that bounds `row_transitions`: in each row the piece's cells are one run inside one
//!    maximal empty run. Filling that run whole takes its 2 transitions away; touching one
//!    end of it changes nothing; touching neither end adds 2; a row that was empty only adds.
//!    A row the piece fills had one empty run of at most 4 cells, so it is one of those rows
//!    and had exactly 2 transitions; clearing it moves the rows above it down, which changes
//!    no row's transitions.
//! 2. **Columns** (placements that fill no row): `holes` and `column_transitions` exact (they
//!    need only the covered columns), `row_transitions` as above, and `wells` lowered by the
//!    covered columns' wells. A column's wells count the rows from its own top up to the
//!    lower of its neighbours' tops where both neighbours are occupied: cells added to a
//!    neighbour only raise that neighbour's top or fill its cells, which never takes such a
//!    row away, so only the covered columns' wells can fall, and not below 0.
//!
//! The chain gives the same decision either way (see `tetris_core::chain`, "Deciding"); the
//! tests check every stand-in against the exact value on random boards.

use tetris_core::placed_columns::{
    FullRows, PADDED_SLOTS as SLOTS, PieceColumns, PlacedColumns, orientation_runs, padded_columns,
};
use tetris_core::{
    BOARD_WIDTH, Board, ChainRule, LinkValue, Placement, PlacementRecord, link_value_by_locking,
};

use crate::{ElAshi, FEATURE_COUNT};

/// One board's per-column terms and their totals, in padded slots (walls: full columns with
/// depth 0 and no terms).
struct BoardTerms {
    /// The board's columns at slots `2..12`, the inner walls (slots 1 and 12) occupied on
    /// every row and the outer walls (slots 0 and 13) EMPTY: the terms are computed with full
    /// walls, and then the only reader of an outer wall is the well update of the inner wall
    /// beside it (`ColumnsAfter::board_features`), which, with one side empty, counts 0 — the inner
    /// wall's term, 0 — so that update needs no test for walls.
    columns: [u32; SLOTS],
    /// `depth(x)`.
    depths: [u32; SLOTS],
    /// Hole runs per column.
    holes: [u32; SLOTS],
    /// 1 per non-empty column whose bottom cell is empty.
    open_bottoms: [u32; SLOTS],
    /// Wells per column.
    wells: [u32; SLOTS],
    /// `pairs[s]`: the row transitions between slots `s` and `s + 1`.
    pairs: [u32; SLOTS - 1],
    /// Rows holding an occupied cell.
    nonempty_rows: u32,
    /// Whether a placement fills a row.
    full_rows: FullRows,
    holes_total: u32,
    open_bottoms_total: u32,
    wells_total: u32,
    row_transitions_total: u32,
    /// Rows with a maximal run of 1 to 4 empty cells (walls count as occupied), the only rows
    /// whose transitions a piece can lower; 0 unless asked for (`BoardTerms::new`).
    short_run_rows: u32,
}

impl BoardTerms {
    /// A lower bound of `row_transitions` after a placement whose cells are in the rows
    /// `piece_rows`, whether or not it fills rows (module documentation, "Deciding"): 2 fewer
    /// per row among them with a short empty run. Needs the short runs (`BoardTerms::new`
    /// with `bounds`).
    #[inline(always)]
    fn row_transitions_at_least(&self, piece_rows: u32) -> u32 {
        let short_run_rows = (piece_rows & self.short_run_rows).count_ones();
        self.row_transitions_total
            .saturating_sub(2 * short_run_rows)
    }
}

/// Hole runs of a column: empty cells whose cell above is occupied (never the top row).
#[inline(always)]
fn hole_runs(column: u32, row_mask: u32) -> u32 {
    ((column << 1) & !column & row_mask & !1).count_ones()
}

/// 1 when `column` is non-empty and its bottom cell (bit `floor_row`) is empty.
#[inline(always)]
fn open_bottom(column: u32, floor_row: u32) -> u32 {
    ((column != 0) & (column & floor_row == 0)) as u32
}

/// `depth(x)` (see [`crate::depth`]).
#[inline(always)]
fn depth_of(column: u32, floor_row: u32) -> u32 {
    (column | floor_row).trailing_zeros()
}

/// The wells of the column at index `at` of `columns` / `depths`, from the two beside it
/// (see [`crate::column_wells`]).
#[inline(always)]
fn wells_at(columns: &[u32], depths: &[u32], at: usize) -> u32 {
    let depth = depths[at];
    let top = depths[at - 1].max(depths[at + 1]);
    // Rows top..=depth, none when depth < top (no branch: a mispredicted one costs more than
    // the shifts); depth and top are at most 31, so the shifts never overflow.
    let rows = (u32::MAX >> (31 - depth)) & (u32::MAX << top);
    (rows & columns[at - 1] & columns[at + 1]).count_ones()
}

impl BoardTerms {
    #[inline(always)]
    /// The terms of `board`; with `bounds`, also its rows with a short empty run.
    fn new(board: &Board, bounds: bool) -> BoardTerms {
        let row_mask = board.row_mask();
        let floor_row = board.floor_row_bit();
        let columns = padded_columns(board);
        let mut depths = [0; SLOTS];
        let mut holes = [0; SLOTS];
        let mut open_bottoms = [0; SLOTS];
        let mut wells = [0; SLOTS];
        let mut nonempty_rows = 0;
        for slot in 2..2 + BOARD_WIDTH {
            depths[slot] = depth_of(columns[slot], floor_row);
            holes[slot] = hole_runs(columns[slot], row_mask);
            open_bottoms[slot] = open_bottom(columns[slot], floor_row);
            nonempty_rows |= columns[slot];
        }
        for (slot, wells) in wells.iter_mut().enumerate().take(2 + BOARD_WIDTH).skip(2) {
            *wells = wells_at(&columns, &depths, slot);
        }
        let pairs = std::array::from_fn(|slot| {
            ((columns[slot] ^ columns[slot + 1]) & nonempty_rows).count_ones()
        });
        let mut short_run_rows = 0;
        if bounds {
            // Runs of 1 to 4 empty cells from column `first`, with an occupied cell or a wall
            // on each side.
            for first in 0..BOARD_WIDTH {
                let mut empty = row_mask;
                for length in 1..=4.min(BOARD_WIDTH - first) {
                    empty &= !columns[first + length + 1];
                    short_run_rows |= empty & columns[first + 1] & columns[first + length + 2];
                }
            }
        }
        // The outer walls empty from here on (see `BoardTerms::columns`).
        let mut columns = columns;
        columns[0] = 0;
        columns[SLOTS - 1] = 0;
        BoardTerms {
            columns,
            depths,
            holes,
            open_bottoms,
            wells,
            pairs,
            nonempty_rows,
            full_rows: FullRows::new(board),
            holes_total: holes.iter().sum(),
            open_bottoms_total: open_bottoms.iter().sum(),
            wells_total: wells.iter().sum(),
            row_transitions_total: pairs.iter().sum(),
            short_run_rows,
        }
    }
}

/// What a placement (`WIDTH` columns wide) that fills no row changes in the columns it covers,
/// and the features that depend on those columns alone: the first half of its board features
/// ([`ColumnsAfter::board_features`] is the rest), enough for a lower bound of its cost.
struct ColumnsAfter<const WIDTH: usize> {
    /// Columns x0 − 2 ..= x0 + WIDTH + 1 after the placement (the piece's at 2..), as
    /// `BoardTerms::columns` pads them.
    columns: [u32; 8],
    /// `depth` of the same columns.
    depths: [u32; 8],
    /// The rows the piece's cells are in.
    piece_rows: u32,
    /// `holes` of the board after the placement.
    holes: u32,
    /// The open bottoms after the placement (see `BoardTerms::open_bottoms`).
    open_bottoms: u32,
}

impl<const WIDTH: usize> ColumnsAfter<WIDTH> {
    /// The columns `placed` covers once it locks on the board of `terms`, or `None` when it
    /// fills a row.
    #[inline(always)]
    fn new(
        terms: &BoardTerms,
        placed: &PlacedColumns,
        row_mask: u32,
        floor_row: u32,
    ) -> Option<ColumnsAfter<WIDTH>> {
        let (x0, cells) = (placed.first_column, placed.cells);
        let mut columns = [0u32; 8];
        let mut depths = [0u32; 8];
        columns[..WIDTH + 4].copy_from_slice(&terms.columns[x0..x0 + WIDTH + 4]);
        depths[..WIDTH + 4].copy_from_slice(&terms.depths[x0..x0 + WIDTH + 4]);
        let mut full = terms.full_rows.outside(placed);
        let mut piece_rows = 0;
        let mut holes = terms.holes_total;
        let mut open_bottoms = terms.open_bottoms_total;
        for k in 0..WIDTH {
            let column = columns[k + 2] | cells[k];
            columns[k + 2] = column;
            full &= column;
            piece_rows |= cells[k];
            depths[k + 2] = depth_of(column, floor_row);
            holes = holes + hole_runs(column, row_mask) - terms.holes[x0 + k + 2];
            open_bottoms =
                open_bottoms + open_bottom(column, floor_row) - terms.open_bottoms[x0 + k + 2];
        }
        if full != 0 {
            return None;
        }
        Some(ColumnsAfter {
            columns,
            depths,
            piece_rows,
            holes,
            open_bottoms,
        })
    }

    /// `column_transitions` after the placement.
    #[inline(always)]
    fn column_transitions(&self) -> u32 {
        2 * self.holes - self.open_bottoms
    }

    /// A lower bound of `wells` after the placement `placed` (module documentation,
    /// "Deciding"): wells fall only in the piece's columns, by at most their wells.
    #[inline(always)]
    fn wells_at_least(&self, terms: &BoardTerms, placed: &PlacedColumns) -> u32 {
        let mut wells_in_columns = 0;
        for k in 0..WIDTH {
            wells_in_columns += terms.wells[placed.first_column + k + 2];
        }
        terms.wells_total - wells_in_columns
    }

    /// The four board features (`wells`, `holes`, `column_transitions`, `row_transitions`)
    /// after the placement `placed`.
    #[inline(always)]
    fn board_features(&self, terms: &BoardTerms, placed: &PlacedColumns) -> [u32; 4] {
        let x0 = placed.first_column;
        let (columns, depths) = (&self.columns, &self.depths);
        // Wells change in the piece's columns and one on each side. An inner wall among them
        // needs no test: beside an empty outer wall its wells count 0, as does its term (see
        // `BoardTerms::columns`).
        let mut wells = terms.wells_total;
        for k in 1..WIDTH + 3 {
            wells = wells + wells_at(columns, depths, k) - terms.wells[x0 + k];
        }
        // Row transitions: the pairs touching the piece's columns on the new non-empty rows;
        // the other pairs gain one per new row where a wall meets an empty cell.
        let nonempty_rows = terms.nonempty_rows | self.piece_rows;
        let new_rows = (self.piece_rows & !terms.nonempty_rows).count_ones();
        let walls_away = u32::from(x0 > 0) + u32::from(x0 + WIDTH < BOARD_WIDTH);
        let mut row_transitions = terms.row_transitions_total + new_rows * walls_away;
        for k in 1..WIDTH + 2 {
            row_transitions = row_transitions
                + ((columns[k] ^ columns[k + 1]) & nonempty_rows).count_ones()
                - terms.pairs[x0 + k];
        }
        [
            wells,
            self.holes,
            self.column_transitions(),
            row_transitions,
        ]
    }
}

impl ElAshi {
    /// [`tetris_core::Evaluator::last_link_values`] by updating the board's terms (module
    /// documentation); inlined into a popcount-enabled caller.
    ///
    /// Placements come in runs of one orientation (the searchers' orders group them so; any
    /// order works): what depends on the orientation alone (its width, which picks the
    /// specialised column update, and its lowest pivot row for the lock height) is looked up
    /// once per run, and what depends on the earlier links alone (their cleared rows' term of
    /// the cost) once per call.
    ///
    /// With a finite `to_beat` ([`tetris_core::Evaluator::last_link_values_to_beat`]) and no
    /// negative weight, a placement whose cost bound (module documentation, "Deciding") is
    /// above `to_beat` gets the bound; +∞ gives every exact value.
    #[inline(always)]
    pub(crate) fn last_link_values_by_columns(
        &self,
        board: &Board,
        records: &mut Vec<PlacementRecord>,
        placements: &[Placement],
        to_beat: f64,
        out: &mut Vec<LinkValue>,
    ) {
        out.clear();
        let Some(first) = placements.first() else {
            return;
        };
        out.reserve(placements.len());
        let mut earlier_rows_cleared = 0u32;
        let mut earlier_lock_height = 0u32;
        for record in records.iter() {
            earlier_rows_cleared += record.rows_cleared() as u32;
            earlier_lock_height += record.lock_height as u32;
        }
        // The bound holds only when every weight is ≥ 0 (a NaN weight fails the test too).
        let bounds = to_beat < f64::INFINITY && self.values.iter().all(|&weight| weight >= 0.0);
        let run = Run {
            board,
            terms: &BoardTerms::new(board, bounds),
            piece_columns: PieceColumns::of(first.piece),
            row_mask: board.row_mask(),
            floor_row: board.floor_row_bit(),
            earlier_lock_height,
            // The first step of `weighted_sum`, the same for every placement: the same
            // operation on the same values, so the same bits.
            cleared_term: 0.0 + self.values[0] * earlier_rows_cleared as f64,
            to_beat: if bounds { to_beat } else { f64::INFINITY },
        };
        for same in orientation_runs(placements) {
            match (run.piece_columns.width(&same[0]), bounds) {
                (Some(1), false) => self.run_values::<1, false>(&run, records, same, out),
                (Some(2), false) => self.run_values::<2, false>(&run, records, same, out),
                (Some(3), false) => self.run_values::<3, false>(&run, records, same, out),
                (Some(4), false) => self.run_values::<4, false>(&run, records, same, out),
                (Some(1), true) => self.run_values::<1, true>(&run, records, same, out),
                (Some(2), true) => self.run_values::<2, true>(&run, records, same, out),
                (Some(3), true) => self.run_values::<3, true>(&run, records, same, out),
                (Some(4), true) => self.run_values::<4, true>(&run, records, same, out),
                // Not this piece's placements: the whole-board way.
                _ => out.extend(
                    same.iter()
                        .map(|&placement| link_value_by_locking(self, board, records, placement)),
                ),
            }
        }
    }

    /// The values of `placements`, all of one piece and rotation covering `WIDTH` columns;
    /// with `BOUNDS`, the bound of those whose bound is above `run.to_beat`.
    #[inline(always)]
    fn run_values<const WIDTH: usize, const BOUNDS: bool>(
        &self,
        run: &Run<'_>,
        records: &mut Vec<PlacementRecord>,
        placements: &[Placement],
        out: &mut Vec<LinkValue>,
    ) {
        let Some(first) = placements.first() else {
            return;
        };
        // `Placement::lock_height` of each placement, in the same operations.
        let lowest_pivot_row = first
            .piece
            .lowest_pivot_row(first.rotation, run.board.height());
        for &placement in placements {
            let own_lock_height = u32::from((lowest_pivot_row - placement.y) as u8);
            let Some(placed) = run.piece_columns.placed(&placement, run.row_mask) else {
                out.push(link_value_by_locking(self, run.board, records, placement));
                continue;
            };
            let lock_height = (run.earlier_lock_height + own_lock_height) as f64;
            // A lower bound of `row_transitions` after the placement, with or without line
            // clears (only the bounds read it).
            let mut row_transitions_at_least = 0;
            if BOUNDS {
                let mut piece_rows = 0;
                for cells in &placed.cells[..WIDTH] {
                    piece_rows |= cells;
                }
                row_transitions_at_least = run.terms.row_transitions_at_least(piece_rows);
                let quick = self.quick_bound(run, lock_height, row_transitions_at_least);
                if quick > run.to_beat {
                    out.push(LinkValue {
                        rule: ChainRule::Neutral,
                        cost: quick,
                    });
                    continue;
                }
            }
            let Some(after) =
                ColumnsAfter::<WIDTH>::new(run.terms, &placed, run.row_mask, run.floor_row)
            else {
                out.push(link_value_by_locking(self, run.board, records, placement));
                continue;
            };
            if BOUNDS {
                let bound = self.cost_of(
                    run,
                    [
                        lock_height,
                        after.wells_at_least(run.terms, &placed) as f64,
                        after.holes as f64,
                        after.column_transitions() as f64,
                        row_transitions_at_least as f64,
                    ],
                );
                if bound > run.to_beat {
                    out.push(LinkValue {
                        rule: ChainRule::Neutral,
                        cost: bound,
                    });
                    continue;
                }
            }
            let [wells, holes, column_transitions, row_transitions] =
                after.board_features(run.terms, &placed);
            let cost = self.cost_of(
                run,
                [
                    lock_height,
                    wells as f64,
                    holes as f64,
                    column_transitions as f64,
                    row_transitions as f64,
                ],
            );
            out.push(LinkValue {
                rule: ChainRule::Neutral,
                cost,
            });
        }
    }

    /// A lower bound of the cost of a chain of this call, with `lock_height` summed over the
    /// chain and `row_transitions` a lower bound after its last placement, that holds
    /// whether or not that placement fills rows (module documentation, "Deciding"): the
    /// cost's sum without the `wells`, `holes` and `column_transitions` terms.
    #[inline(always)]
    fn quick_bound(&self, run: &Run<'_>, lock_height: f64, row_transitions: u32) -> f64 {
        // `values[1]` weighs `lock_height`, `values[5]` `row_transitions` (FEATURE_NAMES).
        run.cleared_term + self.values[1] * lock_height + self.values[5] * row_transitions as f64
    }

    /// The cost of a chain of this call from its last five features (`lock_height` summed
    /// over the chain, then the board's four), in `weighted_sum`'s operations and order.
    #[inline(always)]
    fn cost_of(&self, run: &Run<'_>, features: [f64; FEATURE_COUNT - 1]) -> f64 {
        let mut cost = run.cleared_term;
        for (weight, feature) in self.values[1..].iter().zip(features) {
            cost += weight * feature;
        }
        cost
    }
}

/// What every run of one call shares.
struct Run<'a> {
    board: &'a Board,
    terms: &'a BoardTerms,
    piece_columns: &'static PieceColumns,
    row_mask: u32,
    floor_row: u32,
    /// The lock heights of the earlier links, summed.
    earlier_lock_height: u32,
    /// `0.0 + weight × rows cleared by the earlier links`: the cost's first term.
    cleared_term: f64,
    /// The cost a placement's bound must exceed for the bound to stand in for its value
    /// (+∞: every value exact).
    to_beat: f64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use tetris_core::{Evaluator, Piece, PieceState};

    /// A placement that leaves rows intact but makes two empty rows non-empty at a wall: the
    /// row transitions of new rows count the far wall only.
    #[test]
    fn a_piece_in_new_rows_by_a_wall_counts_the_far_wall_once_per_row() {
        let mut board = Board::standard();
        board.set(5, 19);
        let evaluator = ElAshi::new();
        // A vertical I in column 0, rows 16..=19 (rows 16–18 new).
        let placement = Placement::new(
            Piece::I,
            PieceState {
                x: 0,
                y: 18,
                rotation: 1,
            },
        );
        assert!(placement.is_lock_placement_on(&board));
        let mut records = Vec::new();
        let mut fast = Vec::new();
        evaluator.last_link_values(&board, &mut records, &[placement], &mut fast);
        let slow = link_value_by_locking(&evaluator, &board, &mut records, placement);
        assert_eq!(fast, vec![slow]);
    }

    /// Pins the run-by-run path and the wall-free well update to the whole-board way:
    /// vertical I pieces that fill column 0 or 9 up to the top row (where an inner wall's
    /// wells would count 1 if the outer wall were occupied), runs of one orientation broken
    /// up and repeated, and another piece's placement in the middle, on boards of 6 and 32 rows.
    #[test]
    fn wall_columns_filled_to_the_top_and_mixed_runs_give_the_whole_board_values() {
        for height in [6usize, 32] {
            let mut board = Board::new(height).unwrap();
            let bottom = height - 1;
            for y in 4..=bottom {
                board.set(0, y);
                board.set(9, y);
            }
            board.set(4, bottom);
            let at = |piece, x, y, rotation| Placement::new(piece, PieceState { x, y, rotation });
            let placements = [
                // Vertical I pieces in column 0 and in column 9, rows 0..=3.
                at(Piece::I, 0, 2, 1),
                at(Piece::I, 9, 2, 1),
                at(Piece::I, 3, height as i8 - 2, 0),
                at(Piece::T, 5, height as i8 - 2, 0),
                at(Piece::I, 0, 2, 1),
                at(Piece::I, 6, height as i8 - 3, 0),
                at(Piece::I, 9, 2, 1),
            ];
            let evaluator = ElAshi::new();
            let mut records = Vec::new();
            let mut fast = Vec::new();
            evaluator.last_link_values(&board, &mut records, &placements, &mut fast);
            let slow: Vec<_> = placements
                .iter()
                .map(|&p| link_value_by_locking(&evaluator, &board, &mut records, p))
                .collect();
            assert_eq!(fast.len(), slow.len());
            for ((fast, slow), placement) in fast.iter().zip(&slow).zip(&placements) {
                assert_eq!(fast.rule, slow.rule, "{placement:?}");
                assert_eq!(fast.cost.to_bits(), slow.cost.to_bits(), "{placement:?}");
            }
            // The wall columns' new top cell is row 0 on both boards: the case the wells of an
            // inner wall would see.
            let mut locked = board;
            locked.lock(Piece::I, placements[0].state());
            assert!(locked.is_occupied(0, 0));
        }
    }
}
