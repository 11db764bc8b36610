//! The last link's values column by column: [`NesPlateau`]'s
//! [`Evaluator::last_link_values`].
//!
//! A lookahead chain spends nearly all of its time on its leaves: every placement of one
//! search on one board (the last known piece, each of the 7 unknown pieces of expectimax, each
//! piece of a playout). Those placements all go on the same board, and one that clears no row
//! changes only the few columns it lands in. Every board feature of the evaluator is made of
//! terms of one column (heights, holes and their depths, column transitions, occupied cells and
//! their heights, ceiling cells), of one column and its two neighbours (open well cells), of
//! one pair of neighbouring columns (row changes, bumpiness), or of the extremes of the
//! column terms (pile height, lowest column, smallest and largest hole depth). So each call
//! takes the board's terms once ([`BoardTerms`]) and, for each placement, recomputes only the
//! terms that its columns reach and corrects the board's totals; the extremes of the columns
//! it does not change come from tables of the extremes before and after each column.
//!
//! # Why the values are the same to the last bit
//!
//! Every one of the 16 board features is an integer (the ceiling penalty is an integer of
//! 420ths, divided once): the corrected totals are the very integers [`board_features`]
//! gives on the locked board, and they go through the same conversion and the same sum
//! (`NesPlateau::write_board_features`, `NesPlateau::cost_of_features`) as
//! [`Evaluator::cost`]. The two placement features are the chain's earlier sums plus this
//! placement's: 0 rows and [`Placement::lock_height`], what [`PlacementRecord::lock`] records.
//! The new columns are the board's with each of the placement's cells in the field added,
//! which is what [`Board::lock`] leaves when no row is full (a cell above the field, or in a
//! console board's hidden rows, is in no column of the field, and the whole-board features
//! read only those); when a row is full, the value is [`link_value_by_locking`]'s own.
//!
//! What the correction rests on, term by term, for a placement that clears no row (its cells
//! are added, none removed), changing the columns `lo..=hi`:
//!
//! - a column's height, holes, hole depths and column transitions depend on its own cells:
//!   only `lo..=hi` change;
//! - a column's open well cells depend on it and its two neighbours: `lo − 1 ..= hi + 1`;
//! - row changes are counted over the rows holding a cell. A pair with a changed column is
//!   counted again over the new rows; a pair of two unchanged columns keeps its old count on
//!   the old rows, and on a row that held no cell before both of its columns are still empty
//!   there, so it adds a change only when one side is a wall: each unchanged wall pair gains
//!   one change per new row;
//! - bumpiness pairs with a changed column: `lo − 1 ..= hi`;
//! - occupied cells, their heights and the ceiling cells gain exactly the added cells;
//! - the chain rule ([`rules::chain_rule`]): the board blocks a spawn when it did or an added
//!   cell lies in the spawn area; the split-field flood runs, on the locked board, only when
//!   the rows holding a cell (old or added) call for it ([`rules::split_needs_flood`], as
//!   [`rules::field_is_split`] asks it); and the chain clears four rows at once when an earlier
//!   placement of it did, this one clearing none.
//!
//! The columns `lo..=hi` are those the placement's cells lie in; on a console board a column
//! whose cells all went to the hidden rows is among them unchanged, and its terms, taken
//! again, are the old ones. A placement that clears rows moves every column: it is valued the
//! whole-board way. The crate's tests compare every value with [`link_value_by_locking`] on random
//! boards, console boards and every lock placement of each piece, line clears included.
//!
//! [`board_features`]: crate::features::board_features
//! [`link_value_by_locking`]: tetris_core::evaluate::link_value_by_locking
//! [`Evaluator::last_link_values`]: tetris_core::evaluate::Evaluator::last_link_values
//! [`Evaluator::cost`]: tetris_core::evaluate::Evaluator::cost

use tetris_core::board::{BOARD_WIDTH, Board};
use tetris_core::evaluate::{Chain, ChainRule, LinkValue, PlacementRecord, link_value_by_locking};
use tetris_core::placement::Placement;

use crate::features::{
    BoardFeatures, DEEP_WELL_CELLS, Holes, TETRIS_WELL_DEPTH, ceiling_column_numerator,
    ceiling_rows, ceiling_value, open_well_cells,
};
use crate::rules::{self, SPAWN_AREA, blocks_a_spawn, field_is_split};
use crate::{FEATURE_COUNT, NesPlateau};

const WIDTH: usize = BOARD_WIDTH;

/// The board's rows as the column terms see them.
#[derive(Clone, Copy)]
struct Field {
    /// Every row of the field.
    row_mask: u32,
    /// The floor row's bit.
    floor_row: u32,
    /// The board's height H.
    height: u32,
    /// The ceiling penalty's rows.
    ceiling_rows: u32,
}

/// The terms of one column that depend on its own cells alone.
#[derive(Clone, Copy)]
struct ColumnTerms {
    /// Its height `h(x)`.
    height: u32,
    /// Its holes, as [`Holes`] counts them on a board of this one column (`min_depth` H and
    /// `max_depth` 0 when it has none).
    holes: Holes,
    /// Its column transitions: 1 when its top is below row 0, 2 per hole, less 1 when it is
    /// not empty and its floor cell is (the whole-board pass's count, per column).
    column_transitions: u32,
}

impl ColumnTerms {
    /// The terms of `column` (its bit mask) on `field`.
    #[inline(always)]
    fn of(column: u32, field: &Field) -> ColumnTerms {
        let top = column.trailing_zeros();
        let mut holes = Holes::none(field.height);
        holes.add_column((column << 1) & !column & field.row_mask, top);
        let (height, column_transitions) = if column == 0 {
            (0, 0)
        } else {
            // A column with an empty floor cell under its top has a hole above that cell's
            // run, so the count does not go below 0.
            (
                field.height - top,
                u32::from(top > 0) + 2 * holes.count - u32::from(column & field.floor_row == 0),
            )
        };
        ColumnTerms {
            height,
            holes,
            column_transitions,
        }
    }
}

/// The open well cells of column `x` of `columns`, the walls occupied ([`open_well_cells`]).
#[inline(always)]
fn well_cells(columns: &[u32; WIDTH], x: usize, row_mask: u32) -> u32 {
    let left = if x == 0 { row_mask } else { columns[x - 1] };
    let right = if x == WIDTH - 1 {
        row_mask
    } else {
        columns[x + 1]
    };
    open_well_cells(columns[x], left, right, row_mask)
}

/// The sum of the heights `H − y` of the cells `cells` (bit `y` for row `y`) on a board of
/// height `height`: `H` per cell less the sum of their rows, which is the sum over the row
/// index's five bits of the bit's value times the cells whose row has it (a popcount each,
/// rather than a step per cell).
#[inline(always)]
fn cell_heights(cells: u32, height: u32) -> u32 {
    const ROW_BITS: [u32; 5] = [
        0xAAAA_AAAA,
        0xCCCC_CCCC,
        0xF0F0_F0F0,
        0xFF00_FF00,
        0xFFFF_0000,
    ];
    let mut rows = 0;
    for (bit, mask) in ROW_BITS.into_iter().enumerate() {
        rows += (cells & mask).count_ones() << bit;
    }
    height * cells.count_ones() - rows
}

/// The row changes of pair `pair` (0 ..= 10: between column `pair − 1` and column `pair`, the
/// walls occupied) on the rows `rows`.
#[inline(always)]
fn row_changes(columns: &[u32; WIDTH], pair: usize, row_mask: u32, rows: u32) -> u32 {
    let left = if pair == 0 {
        row_mask
    } else {
        columns[pair - 1]
    };
    let right = if pair == WIDTH {
        row_mask
    } else {
        columns[pair]
    };
    ((left ^ right) & rows).count_ones()
}

/// The columns `placement`'s cells lie in, as bits (bit `x` for column `x`): every column a
/// lock of it can change. A cell in a console board's hidden rows changes no column of the
/// field, and the terms of such a column, taken again, are its old ones.
#[inline(always)]
fn covered_columns(placement: &Placement) -> u32 {
    let mut columns = 0;
    for &(x, _) in &placement.cells {
        columns |= 1 << x;
    }
    columns
}

/// A board's terms, taken once per call: per column, per pair, their totals (the board's own
/// features) and the extremes of the column terms before and from each column.
struct BoardTerms {
    field: Field,
    /// The board's columns.
    columns: [u32; WIDTH],
    /// The rows holding a cell.
    nonempty_rows: u32,
    /// Each column's own terms.
    column_terms: [ColumnTerms; WIDTH],
    /// Each column's height at index `x + 1`, 0 for the walls at 0 and 11 (the same as in
    /// `column_terms`, as one array to copy).
    padded_heights: [u32; WIDTH + 2],
    /// Each column's open well cells at index `x + 1`, 0 for the walls.
    padded_wells: [u32; WIDTH + 2],
    /// The row changes of pairs `0..p`, for `p` in `0..=11`.
    pairs_before: [u32; WIDTH + 2],
    /// `|h(b) − h(b + 1)|` at index `b + 1` for `b` in `0..9`, 0 for the pairs with a wall.
    padded_bumps: [u32; WIDTH + 1],
    /// The largest height of the columns before `x` (0 for none), and from `x` on.
    highest_before: [u32; WIDTH + 1],
    highest_from: [u32; WIDTH + 1],
    /// The smallest height of the columns before `x` (`u32::MAX` for none), and from `x` on.
    lowest_before: [u32; WIDTH + 1],
    lowest_from: [u32; WIDTH + 1],
    /// The smallest hole depth of the columns before `x` (H for none), and from `x` on.
    min_depth_before: [u32; WIDTH + 1],
    min_depth_from: [u32; WIDTH + 1],
    /// The largest hole depth of the columns before `x` (0 for none), and from `x` on.
    max_depth_before: [u32; WIDTH + 1],
    max_depth_from: [u32; WIDTH + 1],
    /// The board's own features (the sums and extremes of the terms above).
    totals: BoardFeatures,
    /// The board's overdeep well cells.
    overdeep: u32,
    /// The board's ceiling penalty in 420ths.
    ceiling_numerator: u32,
    /// Whether the board blocks a spawn ([`blocks_a_spawn`]).
    blocks_a_spawn: bool,
}

/// What [`BoardTerms::after`] finds of a board with cells added.
struct After {
    /// Its 16 board features.
    features: BoardFeatures,
    /// Its overdeep well cells.
    overdeep: u32,
    /// Whether it blocks a spawn ([`blocks_a_spawn`]): the board did or an added cell does.
    blocks_a_spawn: bool,
    /// Whether the split-field rule floods it ([`rules::split_needs_flood`]).
    needs_flood: bool,
}

impl BoardTerms {
    /// The terms of `board`.
    #[inline(always)]
    fn new(board: &Board) -> BoardTerms {
        let row_mask = board.row_mask();
        let field = Field {
            row_mask,
            floor_row: board.floor_row_bit(),
            height: board.height() as u32,
            ceiling_rows: ceiling_rows(row_mask),
        };
        let columns = *board.columns();
        let mut nonempty_rows = 0;
        let mut column_terms = [ColumnTerms::of(0, &field); WIDTH];
        let mut padded_heights = [0; WIDTH + 2];
        for x in 0..WIDTH {
            nonempty_rows |= columns[x];
            column_terms[x] = ColumnTerms::of(columns[x], &field);
            padded_heights[x + 1] = column_terms[x].height;
        }
        let mut padded_wells = [0; WIDTH + 2];
        let mut pairs_before = [0; WIDTH + 2];
        let mut padded_bumps = [0; WIDTH + 1];
        let mut highest_before = [0; WIDTH + 1];
        let mut lowest_before = [u32::MAX; WIDTH + 1];
        let mut min_depth_before = [field.height; WIDTH + 1];
        let mut max_depth_before = [0; WIDTH + 1];
        let mut highest_from = [0; WIDTH + 1];
        let mut lowest_from = [u32::MAX; WIDTH + 1];
        let mut min_depth_from = [field.height; WIDTH + 1];
        let mut max_depth_from = [0; WIDTH + 1];
        let mut totals = BoardFeatures {
            well_cells: 0,
            deep_wells: 0,
            holes: Holes::none(field.height),
            column_transitions: 0,
            row_transitions: 0,
            column_heights: 0,
            pile_height: 0,
            height_spread: 0,
            occupied_cells: 0,
            weighted_occupied_cells: 0,
            bumpiness: 0,
            ceiling_penalty: 0.0,
        };
        let mut overdeep = 0;
        let mut ceiling_numerator = 0;
        for x in 0..WIDTH {
            let terms = &column_terms[x];
            let column = columns[x];
            let wells = well_cells(&columns, x, row_mask);
            padded_wells[x + 1] = wells;
            totals.well_cells += wells;
            totals.deep_wells += u32::from(wells >= DEEP_WELL_CELLS);
            overdeep += wells.saturating_sub(TETRIS_WELL_DEPTH);
            totals.holes.count += terms.holes.count;
            totals.holes.weighted += terms.holes.weighted;
            totals.holes.depth_sum += terms.holes.depth_sum;
            totals.column_transitions += terms.column_transitions;
            totals.column_heights += terms.height;
            totals.occupied_cells += column.count_ones();
            totals.weighted_occupied_cells += cell_heights(column, field.height);
            ceiling_numerator += ceiling_column_numerator(column & field.ceiling_rows);
            if x + 1 < WIDTH {
                let bump = padded_heights[x + 1].abs_diff(padded_heights[x + 2]);
                padded_bumps[x + 1] = bump;
                totals.bumpiness += bump;
            }
            highest_before[x + 1] = highest_before[x].max(terms.height);
            lowest_before[x + 1] = lowest_before[x].min(terms.height);
            min_depth_before[x + 1] = min_depth_before[x].min(terms.holes.min_depth);
            max_depth_before[x + 1] = max_depth_before[x].max(terms.holes.max_depth);
            let back = WIDTH - 1 - x;
            let terms = &column_terms[back];
            highest_from[back] = highest_from[back + 1].max(terms.height);
            lowest_from[back] = lowest_from[back + 1].min(terms.height);
            min_depth_from[back] = min_depth_from[back + 1].min(terms.holes.min_depth);
            max_depth_from[back] = max_depth_from[back + 1].max(terms.holes.max_depth);
        }
        for pair in 0..=WIDTH {
            pairs_before[pair + 1] =
                pairs_before[pair] + row_changes(&columns, pair, row_mask, nonempty_rows);
        }
        totals.row_transitions = pairs_before[WIDTH + 1];
        totals.holes.min_depth = min_depth_before[WIDTH];
        totals.holes.max_depth = max_depth_before[WIDTH];
        totals.pile_height = highest_before[WIDTH];
        totals.height_spread = totals.pile_height - lowest_before[WIDTH];
        totals.ceiling_penalty = ceiling_value(ceiling_numerator);
        BoardTerms {
            field,
            columns,
            nonempty_rows,
            column_terms,
            padded_heights,
            padded_wells,
            pairs_before,
            padded_bumps,
            highest_before,
            highest_from,
            lowest_before,
            lowest_from,
            min_depth_before,
            min_depth_from,
            max_depth_before,
            max_depth_from,
            totals,
            overdeep,
            ceiling_numerator,
            blocks_a_spawn: blocks_a_spawn(board),
        }
    }

    /// What the rule and the cost read of the board whose columns are `after`: this board
    /// with cells added to no column outside `changed` (bit `x` for column `x`, not 0) and no
    /// row cleared (module documentation).
    #[inline(always)]
    fn after(&self, after: &[u32; WIDTH], changed: u32) -> After {
        let lo = changed.trailing_zeros() as usize;
        let hi = (u32::BITS - 1 - changed.leading_zeros()) as usize;
        // A piece spans at most 4 columns: one copy of the correction per width, whose loops
        // over the columns, pairs and wells it reaches have a fixed length.
        debug_assert!(hi - lo < 4, "{changed:#b}");
        match hi - lo {
            0 => self.after_columns::<1>(after, lo),
            1 => self.after_columns::<2>(after, lo),
            2 => self.after_columns::<3>(after, lo),
            _ => self.after_columns::<4>(after, lo),
        }
    }

    /// [`BoardTerms::after`] for the `SPAN` columns from `lo`.
    #[inline(always)]
    fn after_columns<const SPAN: usize>(&self, after: &[u32; WIDTH], lo: usize) -> After {
        // The span ends at column 9 at the latest; saying so drops the bounds checks.
        let lo = lo.min(WIDTH - SPAN);
        let hi = lo + SPAN - 1;
        let field = &self.field;
        let totals = &self.totals;
        // The new columns between two walls of two columns each (index x + 2), so that the
        // pairs and wells next to a wall need no test: a wall "column" is full, has no well
        // cell, and its own old terms are 0.
        let mut columns = [field.row_mask; WIDTH + 4];
        columns[2..WIDTH + 2].copy_from_slice(after);
        let mut heights = self.padded_heights;
        let mut column_heights = totals.column_heights;
        let mut pile_height = self.highest_before[lo].max(self.highest_from[hi + 1]);
        let mut lowest = self.lowest_before[lo].min(self.lowest_from[hi + 1]);
        let mut holes = Holes {
            min_depth: self.min_depth_before[lo].min(self.min_depth_from[hi + 1]),
            max_depth: self.max_depth_before[lo].max(self.max_depth_from[hi + 1]),
            ..totals.holes
        };
        let mut column_transitions = totals.column_transitions;
        let mut occupied_cells = totals.occupied_cells;
        let mut weighted_occupied_cells = totals.weighted_occupied_cells;
        let mut ceiling_numerator = self.ceiling_numerator;
        let mut nonempty_rows = self.nonempty_rows;
        let mut blocks_a_spawn = self.blocks_a_spawn;
        for k in 0..SPAN {
            let x = lo + k;
            let column = after[x];
            let old = &self.column_terms[x];
            let new = ColumnTerms::of(column, field);
            heights[x + 1] = new.height;
            column_heights = column_heights - old.height + new.height;
            pile_height = pile_height.max(new.height);
            lowest = lowest.min(new.height);
            holes.count = holes.count - old.holes.count + new.holes.count;
            holes.weighted = holes.weighted - old.holes.weighted + new.holes.weighted;
            holes.depth_sum = holes.depth_sum - old.holes.depth_sum + new.holes.depth_sum;
            holes.min_depth = holes.min_depth.min(new.holes.min_depth);
            holes.max_depth = holes.max_depth.max(new.holes.max_depth);
            column_transitions =
                column_transitions - old.column_transitions + new.column_transitions;
            // No row cleared: the lock only added cells.
            let added = column & !self.columns[x];
            nonempty_rows |= added;
            blocks_a_spawn |= added & SPAWN_AREA[x] != 0;
            occupied_cells += added.count_ones();
            weighted_occupied_cells += cell_heights(added, field.height);
            ceiling_numerator += ceiling_column_numerator(added & field.ceiling_rows);
        }

        // Bumpiness pairs lo − 1 ..= hi (padded index b + 1 for the pair b, b + 1): a wall
        // "height" equal to its neighbour's new one makes a wall pair's new term 0, as its
        // old one.
        heights[0] = heights[1];
        heights[WIDTH + 1] = heights[WIDTH];
        let mut bumpiness = totals.bumpiness;
        for k in 0..SPAN + 1 {
            let pair = lo + k;
            bumpiness =
                bumpiness - self.padded_bumps[pair] + heights[pair].abs_diff(heights[pair + 1]);
        }

        // Wells of the columns lo − 1 ..= hi + 1 (padded index x + 1).
        let mut well_cells_after = totals.well_cells;
        let mut deep_wells = totals.deep_wells;
        let mut overdeep = self.overdeep;
        for k in 0..SPAN + 2 {
            let x = lo + k;
            let new = open_well_cells(columns[x + 1], columns[x], columns[x + 2], field.row_mask);
            let old = self.padded_wells[x];
            well_cells_after = well_cells_after - old + new;
            deep_wells =
                deep_wells - u32::from(old >= DEEP_WELL_CELLS) + u32::from(new >= DEEP_WELL_CELLS);
            overdeep = overdeep - old.saturating_sub(TETRIS_WELL_DEPTH)
                + new.saturating_sub(TETRIS_WELL_DEPTH);
        }

        // Pairs lo ..= hi + 1 touch a changed column; an unchanged wall pair gains one change
        // per new row (module documentation).
        let new_rows = nonempty_rows & !self.nonempty_rows;
        let mut row_transitions =
            totals.row_transitions - (self.pairs_before[hi + 2] - self.pairs_before[lo]);
        for k in 0..SPAN + 1 {
            let pair = lo + k;
            row_transitions +=
                ((columns[pair + 1] ^ columns[pair + 2]) & nonempty_rows).count_ones();
        }
        let unchanged_walls = u32::from(lo > 0) + u32::from(hi < WIDTH - 1);
        row_transitions += unchanged_walls * new_rows.count_ones();

        let features = BoardFeatures {
            well_cells: well_cells_after,
            deep_wells,
            holes,
            column_transitions,
            row_transitions,
            column_heights,
            pile_height,
            height_spread: pile_height - lowest,
            occupied_cells,
            weighted_occupied_cells,
            bumpiness,
            ceiling_penalty: ceiling_value(ceiling_numerator),
        };
        After {
            features,
            overdeep,
            blocks_a_spawn,
            needs_flood: rules::split_needs_flood(nonempty_rows, field.row_mask),
        }
    }
}

impl NesPlateau {
    /// [`tetris_core::evaluate::Evaluator::last_link_values`] by correcting the board's terms (module
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
        if placements.is_empty() {
            return;
        }
        let terms = BoardTerms::new(board);
        // The chain's earlier placements: rule 1 (whether one cleared four rows) and the two
        // placement features' sums, which a placement that clears no row adds 0 rows and its
        // lock height to (the same integers `Chain::rows_cleared` and `Chain::lock_height`
        // sum).
        let earlier = Chain { board, records };
        let earlier_tetris = rules::clears_four_at_once(earlier);
        let (rows_cleared, lock_height) = (earlier.rows_cleared(), earlier.lock_height());
        let board_height = board.height();
        // A plain loop rather than an iterator adapter: its body must be compiled inside the
        // popcount-enabled caller, and a separate `fold` function would not be.
        out.reserve(placements.len());
        for &placement in placements {
            // The locked board's columns as `Board::lock` leaves them when no row is full:
            // each cell in the field added (a cell above it is stored in no column).
            let mut after = terms.columns;
            for &(x, y) in &placement.cells {
                if y >= 0 {
                    after[x as usize] |= 1 << y;
                }
            }
            let mut full_rows = terms.field.row_mask;
            for column in after {
                full_rows &= column;
            }
            if full_rows != 0 {
                out.push(link_value_by_locking(self, board, records, placement));
                continue;
            }
            let after_terms = terms.after(&after, covered_columns(&placement));
            let mut features = [0.0; FEATURE_COUNT];
            features[0] = rows_cleared as f64;
            features[1] = (lock_height + u32::from(placement.lock_height(board_height))) as f64;
            NesPlateau::write_board_features(&after_terms.features, &mut features);
            // `rules::chain_rule` of the locked board, from what the terms know: the flood
            // runs, on the locked board, only where it would.
            let rule = if after_terms.blocks_a_spawn
                || (after_terms.needs_flood && {
                    let mut locked = *board;
                    locked.lock(placement.piece, placement.state());
                    field_is_split(&locked)
                }) {
                ChainRule::Reject
            } else if earlier_tetris {
                ChainRule::Prefer
            } else {
                ChainRule::Neutral
            };
            out.push(LinkValue {
                rule,
                cost: self.cost_of_features(&features, after_terms.overdeep),
            });
        }
    }
}
