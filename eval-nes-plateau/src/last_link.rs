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
//! # Stand-ins
//!
//! A caller that needs only each search's best chain (expectimax's unknown pieces and the
//! playouts' pieces, through [`Evaluator::last_link_values_of_searches`]; a deciding chain's
//! last known piece, through [`Evaluator::last_link_values_to_beat`]) lets a `Neutral` chain
//! that certainly costs more than the cost to beat (another `Neutral` chain of the same
//! search, or the best chain so far) be given a lower bound of its cost instead. The more
//! placements come after a cheap one, the more stand-ins: for the searches of the later
//! pieces, whose placements the gamepad flood gives a row at a time from the top, each
//! search is walked from its last placement back (lower placements have the lower lock
//! heights), which is allowed there ([`Evaluator::last_link_values_of_searches`] takes the
//! cost of any other placement of the search); the deciding chain's call, whose stand-ins
//! must lie above an earlier placement's cost, is walked in order. In those walks from the
//! last placement back, a placement whose drop bound (below) is not above the cost to beat
//! is not valued at once but put off, up to 16 of them; at the search's end they are valued
//! lowest bound first, each while its bound is still not above the cost to beat, which each
//! `Neutral` exact cost lowers, and the rest keep their bounds (`PENDING`). The cheapest
//! bound is most often the search's best placement, so its cost stops the others: on setting
//! (b)'s first 40 lines, 317,023 exact values became 264,743 and the instructions fell by
//! 1.4 %. (Putting off every bounded placement from the first one, in batches, valued fewer
//! leaves exactly but cost 3 % more than this in all: the first placement's bound was then taken
//! too, and the batches crowded the loop.) For a
//! placement that fills no row, the bound takes every feature exactly except three, each
//! replaced by a lower bound that follows from the placement's columns alone:
//!
//! - `well_cells`, `deep_wells` and the overdeep cells: the board's, less the covered
//!   columns' own. A column the placement does not cover keeps its cells, so the rows above
//!   its top stay; its neighbours only gain cells, so each of its open well cells stays one.
//!   A covered column's wells can fall, to no fewer than 0. `deep_wells` and the overdeep
//!   count grow with each column's wells, so the same holds for them.
//!
//! The cost is the same sum in the same order with those three features lowered. Their
//! weights, the extra deep wells' price and the overdeep cells' price are ≥ 0
//! (`NesPlateau::bounds_hold`; the shipped presets' are), and IEEE rounding is monotone, so
//! each term is at most the exact one and so is the sum. A placement that fills a row, a
//! chain that blocks a spawn or whose split-field test must flood (it may be rejected), and
//! every chain after a Tetris (preferred unless rejected) get their exact values. The wells
//! of the covered columns' neighbours, the split-field rule and the second weighted sum are
//! what a stand-in saves. (The row transitions were bounded too, by 2 less per row of the
//! piece with a short empty run; taken exactly, from the pairs around the span as the exact
//! value takes them, they need no sign of their weight and stand in more often.)
//!
//! # Drop bounds
//!
//! Most stand-ins are placements that rest on the stack. For those, a cheaper bound comes
//! first, from a table of each orientation's columns (`SHAPE_COLUMNS`: each column's lowest
//! cell and cell count) and the board's terms, before the cells are added to any column. It
//! applies when the board holds no full row, blocks no spawn and its split-field test does not
//! flood, and the placement's cells all lie in the field, none on the spawn rows, none in a row
//! it fills (a row with `k` empty cells that gets `k` cells; `rows_by_empty_cells`), and each
//! strictly above its column's top. Then, per covered column, with `gap` the empty cells
//! between its top and the run of the piece's cells and `rise = gap + cells` the rise of its top:
//!
//! - exact: the column heights (`+ rise`), the pile height (the piece's top or the old), the
//!   holes (one new one per column with a gap, at the row under the run, as deep as the run:
//!   nothing is filled under an occupied cell), their weighted sum and their depths (each old
//!   hole of the column deeper by `rise`), the occupied cells (`+ 4`) and their heights, the
//!   bumpiness (the pairs around the span taken again), the ceiling penalty, and the row
//!   transitions. A row's transitions are 2 per maximal empty run, the walls occupied; the
//!   piece's cells in one row are one run of cells inside one empty run. So a row that held a
//!   cell gains 2, less 2 for each end of the piece's run that borders an occupied cell or a
//!   wall (filling the empty run whole takes its 2 away, touching one end changes nothing,
//!   touching neither adds 2), and a row that held none, not counted before, gains 4 less 2
//!   per bordered end (a wall). Per column from the one left of the span to the one right of
//!   it, `ShapeColumns::sides` gives the rows whose run that column borders;
//! - bounded: `min_hole_depth` and `max_hole_depth` from below by the old values and the new
//!   holes' depths (old holes only get deeper), `column_transitions` from above by 1 per column
//!   and 2 per gap more, `height_spread` from above by the new pile height less the old lowest
//!   column (which can only rise), and the wells as in "Stand-ins" (the covered columns' wells
//!   from prefix sums over the columns).
//!
//! So the bound needs the weights of `min_hole_depth` and `max_hole_depth` not negative and
//! those of `column_transitions` and `height_spread` not positive, besides the stand-ins'
//! conditions (`NesPlateau::drop_bounds_hold`; the shipped presets meet them). When it is not
//! above the cost to beat, the placement's value is exact (the columns' bound of "Stand-ins",
//! seldom higher, is not tried then). The tests that check every stand-in against the exact
//! value run through it; they fail when any of its exact terms is taken too high.
//!
//! **Summed in pairs, less a margin.** The drop bound's features go through the same weights
//! as the exact value, but not in the same order: the 15 integer board features two at a time
//! (`NesPlateau::drop_bound_cost`: two running sums, which the compiler keeps apart), then the
//! two placement features, the ceiling penalty and the prices. The order changes the
//! roundings, so monotone rounding alone no longer makes the result at most the exact one;
//! it is made so by taking off a margin. Each of the at most 21 terms is a rounded product
//! (relative error at most u = 2⁻⁵³) and each sum of n terms, in any order, is within
//! (n − 1)·u·Σ|term| of the true sum, so either order is within 21·u·M of the real sum
//! Σ wᵢ·fᵢ, M the largest Σ|wᵢ|·|fᵢ| can be: every board feature and price at most
//! `FEATURE_MAX` (4 × width × height², above the weighted holes and occupied cells, the
//! largest, at width × height²), the two placement features at most the call's earlier
//! sums plus one placement's (`NesPlateau::drop_bound_margin`). The real sum of the bound's
//! features is at most the exact features' (the weights' signs), so the bound's sum less
//! 2 × 21·u·M is at most the exact value as computed; the margin is 64·ε·M = 128·u·M, with
//! room for the subtraction's own rounding. It is 2.5 × 10⁻⁸ for setting (b)'s weights and
//! prices, so a stand-in that it stops is one whose bound was that close to the cost to beat.
//! The sum in pairs, and the two placement features passed as two numbers rather than an
//! array of 18 zeroed per leaf, took 2.6 % off setting (b)'s first 40 lines. A unit test
//! checks the sum against the one in order for random weights of either sign and features
//! up to `FEATURE_MAX`, and finds cases where the sum in pairs without the margin is above.
//!
//! [`board_features`]: crate::features::board_features
//! [`link_value_by_locking`]: tetris_core::evaluate::link_value_by_locking
//! [`Evaluator::last_link_values`]: tetris_core::evaluate::Evaluator::last_link_values
//! [`Evaluator::cost`]: tetris_core::evaluate::Evaluator::cost
//! [`Evaluator::last_link_values_of_searches`]: tetris_core::evaluate::Evaluator::last_link_values_of_searches
//! [`Evaluator::last_link_values_to_beat`]: tetris_core::evaluate::Evaluator::last_link_values_to_beat

use tetris_core::board::{BOARD_WIDTH, Board, MAX_BOARD_HEIGHT};
use tetris_core::evaluate::{Chain, ChainRule, LinkValue, PlacementRecord, link_value_by_locking};
use tetris_core::features::with_popcount;
use tetris_core::piece::Piece;
use tetris_core::placement::Placement;

use crate::features::{
    BoardFeatures, CEILING_NUMERATOR_BY_ROW, DEEP_WELL_CELLS, Holes, TETRIS_WELL_DEPTH,
    ceiling_column_numerator, ceiling_rows, ceiling_value, open_well_cells,
};
use crate::rules::{self, SPAWN_AREA, SPAWN_ROWS, blocks_a_spawn, field_is_split};
use crate::{DEEP_WELLS, FEATURE_COUNT, NesPlateau};

const WIDTH: usize = BOARD_WIDTH;

/// Whether the drop bounds have one copy per span of the piece (`BoardTerms::drop_features`):
/// not in the browser's WebAssembly module, whose page must stay under 2 MB; there one copy
/// takes the span from the table, with the same values.
const SPANS_WRITTEN_OUT: bool = cfg!(not(target_arch = "wasm32"));

/// One orientation's cells column by column, for the drop bounds ("Drop bounds" in the module
/// documentation).
#[derive(Clone, Copy)]
struct ShapeColumns {
    /// For each covered column, left to right: its `dx`, the `dy` of its lowest cell and its
    /// cell count (a column's cells are one vertical run). The first `count` are used.
    columns: [(i8, i8, u8); 4],
    /// How many columns the orientation covers.
    count: u8,
    /// The smallest `dy` of the cells (the top row's).
    dy_min: i8,
    /// The sum of the cells' `dy`.
    dy_sum: i8,
    /// The rows the cells lie in, bit `dy − dy_min`.
    rows: u32,
    /// The rows holding `k + 1` of the cells at index `k`, bit `dy − dy_min`.
    rows_by_cells: [u32; 4],
    /// For the columns from the one left of the first covered column (index 0) to the one
    /// right of the last (index `count + 1`): the rows, bit `dy − dy_min`, whose run of cells
    /// (one per row) that column borders, on its left or its right.
    sides: [u32; 6],
}

/// [`ShapeColumns`] of every piece and rotation, `[piece][rotation]`, built at compile time
/// from [`Piece::cells`] (rotations a piece does not have repeat rotation 0's cells).
const SHAPE_COLUMNS: [[ShapeColumns; 4]; 7] = {
    let mut table = [[ShapeColumns {
        columns: [(0, 0, 0); 4],
        count: 0,
        dy_min: 0,
        dy_sum: 0,
        rows: 0,
        rows_by_cells: [0; 4],
        sides: [0; 6],
    }; 4]; 7];
    let mut piece = 0;
    while piece < 7 {
        let mut rotation = 0;
        while rotation < 4 {
            let cells = Piece::ALL[piece].cells(rotation as u8);
            let mut shape = ShapeColumns {
                columns: [(0, 0, 0); 4],
                count: 0,
                dy_min: cells[0].1,
                dy_sum: 0,
                rows: 0,
                rows_by_cells: [0; 4],
                sides: [0; 6],
            };
            let mut i = 0;
            while i < 4 {
                if cells[i].1 < shape.dy_min {
                    shape.dy_min = cells[i].1;
                }
                shape.dy_sum += cells[i].1;
                i += 1;
            }
            // Columns from the smallest dx up.
            let mut dx = -3;
            while dx <= 3 {
                let (mut bottom, mut count) = (i8::MIN, 0u8);
                let mut i = 0;
                while i < 4 {
                    if cells[i].0 == dx {
                        count += 1;
                        if cells[i].1 > bottom {
                            bottom = cells[i].1;
                        }
                    }
                    i += 1;
                }
                if count > 0 {
                    shape.columns[shape.count as usize] = (dx, bottom, count);
                    shape.count += 1;
                }
                dx += 1;
            }
            let mut i = 0;
            while i < 4 {
                shape.rows |= 1 << (cells[i].1 - shape.dy_min);
                i += 1;
            }
            let mut row = 0;
            while row < 4 {
                let mut in_row = 0;
                let mut i = 0;
                while i < 4 {
                    if cells[i].1 - shape.dy_min == row {
                        in_row += 1;
                    }
                    i += 1;
                }
                if in_row > 0 {
                    shape.rows_by_cells[in_row - 1] |= 1 << row;
                    // The row's run is columns `left..=right`; index 0 is the column left of
                    // the first covered one, `columns[0].0`.
                    let (mut left, mut right) = (i8::MAX, i8::MIN);
                    let mut i = 0;
                    while i < 4 {
                        if cells[i].1 - shape.dy_min == row {
                            if cells[i].0 < left {
                                left = cells[i].0;
                            }
                            if cells[i].0 > right {
                                right = cells[i].0;
                            }
                        }
                        i += 1;
                    }
                    let first = shape.columns[0].0;
                    shape.sides[(left - first) as usize] |= 1 << row;
                    shape.sides[(right - first + 2) as usize] |= 1 << row;
                }
                row += 1;
            }
            table[piece][rotation] = shape;
            rotation += 1;
        }
        piece += 1;
    }
    table
};

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
    /// The same between two walls of two columns each (column x at index x + 2; a wall
    /// "column" is full): what a placement's cells are added to.
    padded_columns: [u32; WIDTH + 4],
    /// The rows holding a cell.
    nonempty_rows: u32,
    /// Each column's own terms.
    column_terms: [ColumnTerms; WIDTH],
    /// Each column's height at index `x + 1`, 0 for the walls at 0 and 11 (the same as in
    /// `column_terms`, as one array to copy).
    padded_heights: [u32; WIDTH + 2],
    /// Each column's hole count (as in `column_terms`, as one array for the drop bounds).
    hole_counts: [u32; WIDTH],
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
    /// The rows with exactly `k + 1` empty cells at index `k` (taken only for the bounds: 0
    /// otherwise): a placement fills a row exactly when it puts that many cells in it.
    rows_by_empty_cells: [u32; 4],
    /// The rows with 1 to 4 empty cells, those of `rows_by_empty_cells` together.
    nearly_full_rows: u32,
    /// The open well cells, deep wells and overdeep cells of the columns `0..x`, packed as
    /// `wells | deep << 16 | overdeep << 32` (each field's sums only grow, so a difference of
    /// two entries is the packed sums of the columns between).
    wells_before: [u64; WIDTH + 1],
}

/// The rows of `columns` with exactly 1, 2, 3 and 4 empty cells (9, 8, 7 and 6 occupied),
/// at index 0 to 3: a placement (whose cells are empty cells) fills a row exactly when it
/// puts as many cells in it as it has empty ones. A bit-sliced count: after each column, the
/// bit planes `ones`, `twos`, `fours` and `eights` hold each row's count of occupied cells
/// so far (at most 10, so `eights` never carries).
#[inline(always)]
fn rows_by_empty_cells(columns: &[u32; WIDTH]) -> [u32; 4] {
    let (mut ones, mut twos, mut fours, mut eights) = (0u32, 0u32, 0u32, 0u32);
    for &column in columns {
        let carry_ones = ones & column;
        ones ^= column;
        let carry_twos = twos & carry_ones;
        twos ^= carry_ones;
        let carry_fours = fours & carry_twos;
        fours ^= carry_twos;
        eights |= carry_fours;
    }
    [
        eights & !fours & !twos & ones,
        eights & !fours & !twos & !ones,
        !eights & fours & twos & ones,
        !eights & fours & twos & !ones,
    ]
}

/// What a placement's cells in the field add to the whole-board sums: each cell is new (a
/// lock placement overlaps no cell), so these are the added cells' count, the sum of their
/// rows and their ceiling penalty in 420ths, taken cell by cell.
#[derive(Clone, Copy, Default)]
struct AddedCells {
    count: u32,
    rows: u32,
    ceiling_numerator: u32,
}

/// A leaf's two placement features (`rows_cleared`, `lock_height`: the chain's sums).
type PlacementFeatures = [f64; 2];

/// What [`BoardTerms::after`] and [`BoardTerms::drop_bound`] need for a stand-in: the
/// evaluator, the placement's two features, the cost to beat
/// and the drop bound's rounding margin ([`NesPlateau::drop_bound_margin`]).
#[derive(Clone, Copy)]
struct StandIn<'a> {
    evaluator: &'a NesPlateau,
    features: PlacementFeatures,
    to_beat: f64,
    margin: f64,
}

/// A leaf off the drop bounds' path ([`NesPlateau::value_off_the_drop_path`]): its
/// placement, its two placement features, and the cost its
/// columns' bound must beat (+∞: no bound), and whether an earlier placement of the chain
/// cleared four rows.
struct Leaf<'a> {
    placement: &'a Placement,
    features: PlacementFeatures,
    to_beat: f64,
    earlier_tetris: bool,
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
    fn new(board: &Board, bounds: bool) -> BoardTerms {
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
        let mut hole_counts = [0; WIDTH];
        for x in 0..WIDTH {
            nonempty_rows |= columns[x];
            column_terms[x] = ColumnTerms::of(columns[x], &field);
            padded_heights[x + 1] = column_terms[x].height;
            hole_counts[x] = column_terms[x].holes.count;
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
        let rows_by_empty_cells = if bounds {
            rows_by_empty_cells(&columns)
        } else {
            [0; 4]
        };
        let mut wells_before = [0u64; WIDTH + 1];
        if bounds {
            for x in 0..WIDTH {
                let wells = padded_wells[x + 1];
                wells_before[x + 1] = wells_before[x]
                    + u64::from(wells)
                    + (u64::from(wells >= DEEP_WELL_CELLS) << 16)
                    + (u64::from(wells.saturating_sub(TETRIS_WELL_DEPTH)) << 32);
            }
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
            hole_counts,
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
            padded_columns: {
                let mut padded = [row_mask; WIDTH + 4];
                padded[2..WIDTH + 2].copy_from_slice(&columns);
                padded
            },
            rows_by_empty_cells,
            nearly_full_rows: rows_by_empty_cells.iter().fold(0, |rows, &k| rows | k),
            wells_before,
        }
    }

    /// The drop bound of `placement` ("Drop bounds" in the module documentation): a lower
    /// bound of its chain's cost from its columns' bottoms and tops alone, `stand_in`'s
    /// features with the board features of [`BoardTerms::drop_features`], summed in pairs
    /// ([`NesPlateau::drop_bound_cost`]); `None` where there is none.
    #[inline(always)]
    fn drop_bound(&self, placement: &Placement, stand_in: StandIn<'_>) -> Option<f64> {
        let (features, overdeep) = self.drop_features(placement)?;
        Some(stand_in.evaluator.drop_bound_cost(
            stand_in.features,
            &features,
            overdeep,
            stand_in.margin,
        ))
    }

    /// The board features and overdeep well cells of the drop bound of `placement` ("Drop
    /// bounds" in the module documentation): those of the locked board, some exact, some
    /// bounds (on the side their weights' signs ask for); `None` where there is none (a cell
    /// above the field, on the spawn rows, at or under its column's top, or in a row it
    /// fills, or a locked board whose split-field test would flood). The caller makes sure
    /// that the board holds no full row and blocks no spawn.
    #[inline(always)]
    fn drop_features(&self, placement: &Placement) -> Option<(BoardFeatures, u32)> {
        self.drop_features_in::<SPANS_WRITTEN_OUT>(placement)
    }

    /// [`BoardTerms::drop_features`] with one copy of the column loop per span (`WRITTEN`) or
    /// one for every span (the browser's): the same features either way, which a test checks.
    #[inline(always)]
    fn drop_features_in<const WRITTEN: bool>(
        &self,
        placement: &Placement,
    ) -> Option<(BoardFeatures, u32)> {
        let shape = &SHAPE_COLUMNS[placement.piece.index()][usize::from(placement.rotation & 3)];
        let top_row = i32::from(placement.y) + i32::from(shape.dy_min);
        if top_row < 0 {
            return None;
        }
        let piece_rows = shape.rows << top_row;
        // Most placements meet no row with 4 or fewer empty cells.
        let fills_a_row = piece_rows & self.nearly_full_rows != 0
            && (0..4).fold(0, |rows, k| {
                rows | (shape.rows_by_cells[k] << top_row) & self.rows_by_empty_cells[k]
            }) != 0;
        let field = &self.field;
        // A cell on the spawn rows may block a spawn; a cell on the ceiling rows may make the
        // split-field test flood (the board's own does not).
        if fills_a_row
            || piece_rows & SPAWN_ROWS != 0
            || rules::split_needs_flood(self.nonempty_rows | piece_rows, field.row_mask)
        {
            return None;
        }
        // One copy per span, whose loops over the covered columns have a fixed length (not
        // in the browser's module: `SPANS_WRITTEN_OUT`).
        match shape.count {
            _ if !WRITTEN => self.drop_features_over::<0>(placement, shape, top_row, piece_rows),
            1 => self.drop_features_over::<1>(placement, shape, top_row, piece_rows),
            2 => self.drop_features_over::<2>(placement, shape, top_row, piece_rows),
            3 => self.drop_features_over::<3>(placement, shape, top_row, piece_rows),
            _ => self.drop_features_over::<4>(placement, shape, top_row, piece_rows),
        }
    }

    /// [`BoardTerms::drop_features`] after its tests of the rows, for an orientation that
    /// covers `SPAN` columns, or `shape.count` of them when `SPAN` is 0 (`shape`, its top row
    /// at `top_row`, its rows `piece_rows`).
    #[inline(always)]
    fn drop_features_over<const SPAN: usize>(
        &self,
        placement: &Placement,
        shape: &ShapeColumns,
        top_row: i32,
        piece_rows: u32,
    ) -> Option<(BoardFeatures, u32)> {
        let span = match SPAN {
            0 => usize::from(shape.count).clamp(1, 4),
            _ => SPAN,
        };
        let field = &self.field;
        let height = field.height;
        let totals = &self.totals;
        let mut column_heights = totals.column_heights;
        let mut holes = totals.holes;
        let mut column_transitions = totals.column_transitions;
        let mut bumpiness = totals.bumpiness;
        // The span ends at column 9 at the latest; saying so drops the bounds checks.
        let lo = (i32::from(placement.x) + i32::from(shape.columns[0].0)) as usize;
        let lo = lo.min(WIDTH - span);
        // The pair left of the span: its old term goes, its new one comes with the first
        // column.
        let mut left_height = if lo > 0 {
            bumpiness -= self.padded_bumps[lo];
            Some(self.padded_heights[lo])
        } else {
            None
        };
        // The cells that border a row's run of the piece's cells, the walls included: the
        // column left of the span first, then each covered one, then the one right of it.
        let mut bordering =
            (self.padded_columns[lo + 1] & (shape.sides[0] << top_row)).count_ones();
        for k in 0..span {
            let x = lo + k;
            let (_, dy_bottom, cells) = shape.columns[k];
            bordering +=
                (self.padded_columns[x + 2] & (shape.sides[k + 1] << top_row)).count_ones();
            let bottom = (top_row + i32::from(dy_bottom) - i32::from(shape.dy_min)) as u32;
            let old_height = self.padded_heights[x + 1];
            let old_top = height - old_height;
            // Each cell strictly above the column's top: no hole filled, no cavity entered.
            if bottom >= old_top {
                return None;
            }
            let gap = old_top - 1 - bottom;
            let rise = gap + u32::from(cells);
            let new_height = old_height + rise;
            column_heights += rise;
            // The column's holes, each deeper by the rise of its top.
            holes.depth_sum += self.hole_counts[x] * rise;
            column_transitions += 1;
            if gap > 0 {
                // One new hole right under the run, as deep as the run.
                let depth = u32::from(cells);
                holes.count += 1;
                holes.weighted += bottom + 2;
                holes.depth_sum += depth;
                holes.min_depth = holes.min_depth.min(depth);
                holes.max_depth = holes.max_depth.max(depth);
                column_transitions += 2;
            }
            if let Some(left) = left_height {
                bumpiness += left.abs_diff(new_height);
            }
            if k > 0 {
                bumpiness -= self.padded_bumps[x];
            }
            left_height = Some(new_height);
        }
        let hi = lo + span - 1;
        bordering +=
            (self.padded_columns[hi + 3] & (shape.sides[span + 1] << top_row)).count_ones();
        if hi < WIDTH - 1 {
            bumpiness = bumpiness - self.padded_bumps[hi + 1]
                + self.padded_heights[hi + 2].abs_diff(left_height.unwrap_or(0));
        }
        let covered = self.wells_before[hi + 1] - self.wells_before[lo];
        let pile_height = totals.pile_height.max(height - top_row as u32);
        let rows =
            4 * top_row as u32 + (i32::from(shape.dy_sum) - 4 * i32::from(shape.dy_min)) as u32;
        let features = BoardFeatures {
            well_cells: totals.well_cells - (covered & 0xFFFF) as u32,
            deep_wells: totals.deep_wells - ((covered >> 16) & 0xFFFF) as u32,
            holes,
            column_transitions,
            row_transitions: totals.row_transitions + 4 * piece_rows.count_ones()
                - 2 * (piece_rows & self.nonempty_rows).count_ones()
                - 2 * bordering,
            column_heights,
            pile_height,
            height_spread: pile_height - self.lowest_before[WIDTH],
            occupied_cells: totals.occupied_cells + 4,
            weighted_occupied_cells: totals.weighted_occupied_cells + 4 * height - rows,
            bumpiness,
            ceiling_penalty: if piece_rows & field.ceiling_rows == 0 {
                totals.ceiling_penalty
            } else {
                let mut numerator = self.ceiling_numerator;
                for &(_, y) in &placement.cells {
                    numerator += CEILING_NUMERATOR_BY_ROW[y as usize & 31];
                }
                ceiling_value(numerator)
            },
        };
        let overdeep = self.overdeep - (covered >> 32) as u32;
        Some((features, overdeep))
    }

    /// What the rule and the cost read of the board whose columns are `columns` (column x at
    /// index x + 2, between walls as in `padded_columns`): this board with cells added to no
    /// column outside `changed` (bit `x` for column `x`, not 0) and no row cleared (module
    /// documentation).
    ///
    /// With `BOUND`, a lower bound of the cost comes first: `stand_in`'s evaluator's cost of
    /// its features (the placement's two, written by the caller) with these board features,
    /// `well_cells`, `deep_wells` and the overdeep cells lowered to bounds ("Stand-ins" in the
    /// module documentation). When it is above the cost to beat, `Err(bound)`, and the rest is not
    /// computed. With an infinite cost to beat (none yet, or the caller's drop bound already
    /// failed to beat it) the bound is not taken.
    #[inline(always)]
    fn after<const BOUND: bool>(
        &self,
        columns: &[u32; WIDTH + 4],
        changed: u32,
        added: AddedCells,
        stand_in: StandIn<'_>,
    ) -> Result<After, f64> {
        let lo = changed.trailing_zeros() as usize;
        let hi = (u32::BITS - 1 - changed.leading_zeros()) as usize;
        // A piece spans at most 4 columns: one copy of the correction per width, whose loops
        // over the columns, pairs and wells it reaches have a fixed length.
        debug_assert!(hi - lo < 4, "{changed:#b}");
        match hi - lo {
            0 => self.after_columns::<1, BOUND>(columns, lo, added, stand_in),
            1 => self.after_columns::<2, BOUND>(columns, lo, added, stand_in),
            2 => self.after_columns::<3, BOUND>(columns, lo, added, stand_in),
            _ => self.after_columns::<4, BOUND>(columns, lo, added, stand_in),
        }
    }

    /// [`BoardTerms::after`] for the `SPAN` columns from `lo`.
    #[inline(always)]
    fn after_columns<const SPAN: usize, const BOUND: bool>(
        &self,
        columns: &[u32; WIDTH + 4],
        lo: usize,
        added: AddedCells,
        stand_in: StandIn<'_>,
    ) -> Result<After, f64> {
        // The span ends at column 9 at the latest; saying so drops the bounds checks.
        let lo = lo.min(WIDTH - SPAN);
        let hi = lo + SPAN - 1;
        let field = &self.field;
        let totals = &self.totals;
        // The new columns are between two walls of two columns each (index x + 2), so that
        // the pairs and wells next to a wall need no test: a wall "column" is full, has no
        // well cell, and its own old terms are 0.
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
        let occupied_cells = totals.occupied_cells + added.count;
        let weighted_occupied_cells =
            totals.weighted_occupied_cells + field.height * added.count - added.rows;
        let ceiling_numerator = self.ceiling_numerator + added.ceiling_numerator;
        let mut nonempty_rows = self.nonempty_rows;
        let mut blocks_a_spawn = self.blocks_a_spawn;
        for k in 0..SPAN {
            let x = lo + k;
            let column = columns[x + 2];
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
            let added_here = column & !self.columns[x];
            nonempty_rows |= added_here;
            blocks_a_spawn |= added_here & SPAWN_AREA[x] != 0;
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

        let mut features = BoardFeatures {
            well_cells: 0,
            deep_wells: 0,
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

        let needs_flood = rules::split_needs_flood(nonempty_rows, field.row_mask);
        // A chain that blocks a spawn, or whose split-field test must flood, may be rejected:
        // it gets its exact value, as do all of them when stand-ins are off.
        if BOUND && stand_in.to_beat < f64::INFINITY && !blocks_a_spawn && !needs_flood {
            // Lower bounds ("Stand-ins" in the module documentation): only the covered
            // columns' own wells can fall (to no fewer than 0).
            let (mut wells, mut deep, mut overdeep) =
                (totals.well_cells, totals.deep_wells, self.overdeep);
            for k in 0..SPAN {
                let old = self.padded_wells[lo + k + 1];
                wells -= old;
                deep -= u32::from(old >= DEEP_WELL_CELLS);
                overdeep -= old.saturating_sub(TETRIS_WELL_DEPTH);
            }
            features.well_cells = wells;
            features.deep_wells = deep;
            let mut bounded = [0.0; FEATURE_COUNT];
            bounded[..2].copy_from_slice(&stand_in.features);
            NesPlateau::write_board_features(&features, &mut bounded);
            let bound = stand_in.evaluator.cost_of_features(&bounded, overdeep);
            if bound > stand_in.to_beat {
                return Err(bound);
            }
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

        features.well_cells = well_cells_after;
        features.deep_wells = deep_wells;
        Ok(After {
            features,
            overdeep,
            blocks_a_spawn,
            needs_flood,
        })
    }
}

/// At least every board feature, extra deep well and overdeep well cell can be on any board
/// (at most [`MAX_BOARD_HEIGHT`] rows of [`BOARD_WIDTH`] columns): the largest, the weighted
/// holes and occupied cells and the hole depths, are at most width × height².
const FEATURE_MAX: f64 = (4 * WIDTH * MAX_BOARD_HEIGHT as usize * MAX_BOARD_HEIGHT as usize) as f64;

/// The drop bound's rounding margin in units of the terms' magnitude (`f64::EPSILON` each):
/// twice what the two orders of the sum can each be off by, with room ("Drop bounds" in the
/// module documentation).
const MARGIN_EPSILONS: f64 = 64.0;

impl NesPlateau {
    /// The cost of a chain whose two placement features are `leaf[0..2]`, whose board
    /// features are `features` and whose board has `overdeep` overdeep well cells, summed
    /// in pairs (the integer features two at a time, then the rest), less `margin`: at most
    /// [`NesPlateau::cost_of_features`] of the same features, which sums them in order,
    /// when `margin` is [`NesPlateau::drop_bound_margin`]'s for the call ("Drop bounds" in
    /// the module documentation). Two running sums are a shorter chain than one, and the
    /// features need not be written to an array of 18 first.
    #[inline(always)]
    fn drop_bound_cost(
        &self,
        leaf: PlacementFeatures,
        features: &BoardFeatures,
        overdeep: u32,
        margin: f64,
    ) -> f64 {
        let holes = &features.holes;
        // Each below 2^31 (`FEATURE_MAX`), so a signed conversion is exact.
        let integers = [
            features.well_cells,
            features.deep_wells,
            holes.count,
            holes.weighted,
            holes.depth_sum,
            holes.min_depth,
            holes.max_depth,
            features.column_transitions,
            features.row_transitions,
            features.column_heights,
            features.pile_height,
            features.height_spread,
            features.occupied_cells,
            features.weighted_occupied_cells,
            features.bumpiness,
            0,
        ]
        .map(|feature| feature as i32);
        let weights = &self.bounds.pair_weights;
        let (mut even, mut odd) = (0.0, 0.0);
        for pair in 0..8 {
            even += weights[2 * pair] * f64::from(integers[2 * pair]);
            odd += weights[2 * pair + 1] * f64::from(integers[2 * pair + 1]);
        }
        let values = &self.values;
        let mut cost = (even + odd)
            + (values[0] * leaf[0] + values[1] * leaf[1])
            + values[17] * features.ceiling_penalty;
        if self.extra_deep_well_cost != 0.0 {
            cost += self.extra_deep_well_cost * f64::from(features.deep_wells.saturating_sub(1));
        }
        if self.overdeep_well_cost != 0.0 {
            cost += self.overdeep_well_cost * f64::from(overdeep);
        }
        cost - margin
    }

    /// The margin [`NesPlateau::drop_bound_cost`] takes off for a call whose earlier
    /// placements cleared `rows_cleared` rows and locked at heights summing to
    /// `lock_height`: [`MARGIN_EPSILONS`] × ε × the most the terms can add up to in
    /// magnitude (every board feature and price at [`FEATURE_MAX`], the placement features
    /// at their largest in the call).
    fn drop_bound_margin(&self, rows_cleared: u32, lock_height: u32) -> f64 {
        let placement_magnitude = self.values[0].abs() * f64::from(rows_cleared)
            + self.values[1].abs() * f64::from(lock_height + u32::from(MAX_BOARD_HEIGHT));
        MARGIN_EPSILONS * f64::EPSILON * (self.bounds.board_magnitude + placement_magnitude)
    }
}

impl NesPlateau {
    /// Whether this evaluator's stand-ins are lower bounds of its cost ("Stand-ins" in the
    /// module documentation): every weight and price finite, and the weights of the bounded
    /// features (`well_cells`, `deep_wells`) and both prices not negative.
    pub(crate) fn bounds_hold(&self) -> bool {
        self.bounds.stand_ins
    }

    /// Whether the drop bounds are lower bounds of this evaluator's cost too ("Drop bounds"
    /// in the module documentation): besides [`NesPlateau::bounds_hold`], the weights of
    /// `min_hole_depth` and `max_hole_depth` not negative, and those of `column_transitions`
    /// and `height_spread` not positive, as for the shipped presets.
    pub(crate) fn drop_bounds_hold(&self) -> bool {
        self.bounds.drops
    }
}

/// Which of the leaves' bounds hold for an evaluator's weights and prices, found once when it
/// is made ([`NesPlateau::bounds_hold`], [`NesPlateau::drop_bounds_hold`]): each leaves'
/// call asks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Bounds {
    stand_ins: bool,
    drops: bool,
    /// The weights of the 15 integer board features (`values[2..17]`) and a 0, for the drop
    /// bound's sum in pairs ([`NesPlateau::drop_bound_cost`]).
    pair_weights: [f64; 16],
    /// The most the terms of the board features and both prices can add up to in magnitude,
    /// each feature at [`FEATURE_MAX`] ([`NesPlateau::drop_bound_margin`]).
    board_magnitude: f64,
}

impl Bounds {
    /// No bounds (every leaf's value exact).
    pub(crate) const NONE: Bounds = Bounds {
        stand_ins: false,
        drops: false,
        pair_weights: [0.0; 16],
        board_magnitude: 0.0,
    };

    /// The bounds that hold for `evaluator`'s weights and prices (its own `bounds` not read).
    pub(crate) fn of(evaluator: &NesPlateau) -> Bounds {
        let stand_ins = Bounds::stand_ins_hold(evaluator);
        let values = &evaluator.values;
        let mut pair_weights = [0.0; 16];
        pair_weights[..15].copy_from_slice(&values[2..17]);
        let prices = [evaluator.extra_deep_well_cost, evaluator.overdeep_well_cost];
        let board_magnitude = values[2..]
            .iter()
            .chain(&prices)
            .map(|weight| weight.abs() * FEATURE_MAX)
            .sum();
        Bounds {
            pair_weights,
            board_magnitude,
            stand_ins,
            drops: stand_ins
                && evaluator.values[7] >= 0.0
                && evaluator.values[8] >= 0.0
                && evaluator.values[9] <= 0.0
                && evaluator.values[13] <= 0.0,
        }
    }

    /// [`NesPlateau::bounds_hold`]'s test.
    fn stand_ins_hold(evaluator: &NesPlateau) -> bool {
        let NesPlateau {
            values,
            extra_deep_well_cost,
            overdeep_well_cost,
            ..
        } = evaluator;
        values.iter().all(|weight| weight.is_finite())
            && [
                values[2],
                values[DEEP_WELLS],
                *extra_deep_well_cost,
                *overdeep_well_cost,
            ]
            .iter()
            .all(|&weight| weight >= 0.0 && weight.is_finite())
    }
}

impl NesPlateau {
    /// [`link_value_by_locking`], the whole-board way of a placement that clears rows, out
    /// of the leaves' loop (whose registers it would crowd) and with the popcount
    /// instruction where the CPU has it, as the loop.
    #[inline(never)]
    fn value_by_locking(
        &self,
        board: &Board,
        records: &mut Vec<PlacementRecord>,
        placement: Placement,
    ) -> LinkValue {
        with_popcount(
            #[inline(always)]
            || link_value_by_locking(self, board, records, placement),
        )
    }

    /// A leaf's value off the drop bounds' path: the whole-board way when it fills a row, else
    /// its columns' bound when `BOUND` and that is above `leaf.to_beat`, else its exact value
    /// from the board's terms (the module documentation).
    #[inline(always)]
    fn value_off_the_drop_path<const BOUND: bool>(
        &self,
        terms: &BoardTerms,
        board: &Board,
        records: &mut Vec<PlacementRecord>,
        leaf: Leaf<'_>,
    ) -> LinkValue {
        let placement = *leaf.placement;
        let mut features = [0.0; FEATURE_COUNT];
        features[..2].copy_from_slice(&leaf.features);
        // The locked board's columns as `Board::lock` leaves them when no row is full:
        // each cell in the field added (a cell above it is stored in no column).
        let mut columns = terms.padded_columns;
        let mut piece_rows = 0;
        let mut added = AddedCells::default();
        for &(x, y) in &placement.cells {
            if y >= 0 {
                columns[x as usize + 2] |= 1 << y;
                piece_rows |= 1 << y;
                added.count += 1;
                added.rows += y as u32;
            }
        }
        // Few placements reach the ceiling rows.
        if piece_rows & terms.field.ceiling_rows != 0 {
            for &(_, y) in &placement.cells {
                if y >= 0 {
                    added.ceiling_numerator += CEILING_NUMERATOR_BY_ROW[y as usize & 31];
                }
            }
        }
        let mut full_rows = terms.field.row_mask;
        for &column in &columns[2..WIDTH + 2] {
            full_rows &= column;
        }
        if full_rows != 0 {
            return self.value_by_locking(board, records, placement);
        }
        let stand_in = StandIn {
            evaluator: self,
            features: leaf.features,
            to_beat: leaf.to_beat,
            // The columns' bound sums in order, as the exact value: no margin.
            margin: 0.0,
        };
        let after_terms =
            match terms.after::<BOUND>(&columns, covered_columns(&placement), added, stand_in) {
                Ok(after_terms) => after_terms,
                Err(bound) => {
                    return LinkValue {
                        rule: ChainRule::Neutral,
                        cost: bound,
                    };
                }
            };
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
        } else if leaf.earlier_tetris {
            ChainRule::Prefer
        } else {
            ChainRule::Neutral
        };
        let cost = self.cost_of_features(&features, after_terms.overdeep);
        LinkValue { rule, cost }
    }

    /// [`NesPlateau::value_off_the_drop_path`] out of the leaves' loop, whose registers its
    /// code would crowd: a stand-in's path is the loop's, and most leaves take it.
    #[inline(never)]
    fn value_off_the_drop_path_outlined<const BOUND: bool>(
        &self,
        terms: &BoardTerms,
        board: &Board,
        records: &mut Vec<PlacementRecord>,
        leaf: Leaf<'_>,
    ) -> LinkValue {
        with_popcount(
            #[inline(always)]
            || self.value_off_the_drop_path::<BOUND>(terms, board, records, leaf),
        )
    }

    /// [`tetris_core::evaluate::Evaluator::last_link_values`] by correcting the board's terms (module
    /// documentation); inlined into a popcount-enabled caller.
    ///
    /// With `BOUND`, the placements are those of one or more searches, search k's ending at
    /// `ends[k]`, and a placement whose bound is above the search's cost to beat gets the
    /// bound as a `Neutral` stand-in: the cost to beat is `to_beat` at the start of each
    /// search, then the lowest exact cost of a `Neutral` value it gave in that search when
    /// lower ("Stand-ins" in the module documentation). With `REVERSE`, each search's
    /// placements are valued from its last one back (`out` still in their order), those
    /// whose drop bound is not above the cost to beat put off to the search's end and valued
    /// there lowest bound first, up to [`PENDING`] of them. Without
    /// `BOUND`, `ends` and `to_beat` are not read and every value is exact.
    #[inline(always)]
    pub(crate) fn last_link_values_by_columns<const BOUND: bool, const REVERSE: bool>(
        &self,
        board: &Board,
        records: &mut Vec<PlacementRecord>,
        placements: &[Placement],
        ends: &[usize],
        to_beat: f64,
        out: &mut Vec<LinkValue>,
    ) {
        out.clear();
        if placements.is_empty() {
            return;
        }
        // The chain's earlier placements: rule 1 (whether one cleared four rows) and the two
        // placement features' sums, which a placement that clears no row adds 0 rows and its
        // lock height to (the same integers `Chain::rows_cleared` and `Chain::lock_height`
        // sum).
        let earlier = Chain { board, records };
        let earlier_tetris = rules::clears_four_at_once(earlier);
        if BOUND && earlier_tetris {
            // Every chain of the call is preferred or rejected: no stand-ins.
            return self.last_link_values_by_columns::<false, false>(
                board, records, placements, ends, to_beat, out,
            );
        }
        let terms = BoardTerms::new(board, BOUND);
        // Drop bounds need a board that holds no full row, blocks no spawn and whose
        // split-field test does not flood: then neither does the locked board of a placement
        // below the ceiling rows.
        let drop_bounds = BOUND
            && self.drop_bounds_hold()
            && board.full_rows() == 0
            && !terms.blocks_a_spawn
            && !rules::split_needs_flood(terms.nonempty_rows, terms.field.row_mask);
        let (rows_cleared, lock_height) = (earlier.rows_cleared(), earlier.lock_height());
        let margin = self.drop_bound_margin(rows_cleared, lock_height);
        let board_height = board.height();
        // A leaf's two placement features: the chain's rows and its lock heights with this
        // placement's (which clears no row here; one that does is valued by locking).
        let placement_features = |placement: &Placement| {
            [
                rows_cleared as f64,
                (lock_height + u32::from(placement.lock_height(board_height))) as f64,
            ]
        };
        // Without bounds, one search of every placement.
        let all = [placements.len()];
        let ends = if BOUND { ends } else { &all[..] };
        debug_assert_eq!(ends.last(), Some(&placements.len()));
        if REVERSE {
            out.resize(
                placements.len(),
                LinkValue {
                    rule: ChainRule::Neutral,
                    cost: f64::NAN,
                },
            );
        } else {
            out.reserve(placements.len());
        }
        let mut start = 0;
        for &end in ends {
            let mut beat = to_beat;
            // With `REVERSE`, the placements whose drop bound is not above the cost to beat,
            // put off to the end of their search and then valued lowest bound first
            // ("Stand-ins" in the module documentation); at most `PENDING`.
            let mut pending = [0u32; PENDING];
            let mut pending_count = 0;
            // A plain loop rather than an iterator adapter: its body must be compiled inside
            // the popcount-enabled caller, and a separate `fold` function would not be.
            for step in 0..end - start {
                let at = if REVERSE {
                    end - 1 - step
                } else {
                    start + step
                };
                let placement = placements[at];
                let mut put = |value: LinkValue| {
                    if REVERSE {
                        out[at] = value;
                    } else {
                        out.push(value);
                    }
                };
                let features = placement_features(&placement);
                let mut no_second_bound = false;
                if BOUND && drop_bounds && beat < f64::INFINITY {
                    let stand_in = StandIn {
                        evaluator: self,
                        features,
                        to_beat: beat,
                        margin,
                    };
                    if let Some(bound) = terms.drop_bound(&placement, stand_in) {
                        if bound > beat {
                            put(LinkValue {
                                rule: ChainRule::Neutral,
                                cost: bound,
                            });
                            continue;
                        }
                        if REVERSE && pending_count < PENDING {
                            put(LinkValue {
                                rule: ChainRule::Neutral,
                                cost: bound,
                            });
                            pending[pending_count] = at as u32;
                            pending_count += 1;
                            continue;
                        }
                        // The columns' bound is seldom above the drop bound: not tried.
                        no_second_bound = true;
                    }
                }
                let leaf = Leaf {
                    placement: &placement,
                    features,
                    to_beat: if no_second_bound { f64::INFINITY } else { beat },
                    earlier_tetris,
                };
                let value = if BOUND {
                    self.value_off_the_drop_path_outlined::<BOUND>(&terms, board, records, leaf)
                } else {
                    self.value_off_the_drop_path::<BOUND>(&terms, board, records, leaf)
                };
                if BOUND && value.rule == ChainRule::Neutral && value.cost < beat {
                    beat = value.cost;
                }
                put(value);
            }
            // The put-off placements, lowest bound first (the first of equal ones), each
            // valued exactly while its bound is not above the cost to beat; the others keep
            // their bounds as stand-ins.
            while REVERSE && pending_count > 0 {
                let bound_of = |k: usize| out[pending[k] as usize].cost;
                let mut lowest = 0;
                for k in 1..pending_count {
                    if bound_of(k) < bound_of(lowest) {
                        lowest = k;
                    }
                }
                let at = pending[lowest] as usize;
                if out[at].cost > beat {
                    break;
                }
                pending_count -= 1;
                pending[lowest] = pending[pending_count];
                let placement = placements[at];
                let leaf = Leaf {
                    placement: &placement,
                    features: placement_features(&placement),
                    // The columns' bound is seldom above the drop bound: not tried.
                    to_beat: f64::INFINITY,
                    earlier_tetris,
                };
                let value =
                    self.value_off_the_drop_path_outlined::<BOUND>(&terms, board, records, leaf);
                if value.rule == ChainRule::Neutral && value.cost < beat {
                    beat = value.cost;
                }
                out[at] = value;
            }
            start = end;
        }
    }
}

/// The most placements of one search whose values [`NesPlateau::last_link_values_by_columns`]
/// puts off (the others are valued at once).
const PENDING: usize = 16;

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64Mcg;

    #[test]
    fn the_drop_bounds_sum_in_pairs_is_at_most_the_sum_in_order() {
        // Random weights of both signs and wide magnitudes, and random features up to
        // `FEATURE_MAX`: the sum in pairs less the margin is never above the sum in order
        // (`cost_of_features`, the exact values' sum), and below it by at most twice the
        // margin. Without the margin, the two orders' roundings put the sum in pairs above
        // the one in order in some cases: the margin is needed.
        use crate::{FEATURE_NAMES, Weights};
        use tetris_core::evaluate::WeightedEvaluator;
        let mut rng = Pcg64Mcg::seed_from_u64(63);
        // A number in [0, 1).
        let mut unit = move || f64::from(rng.next_u32()) / 4_294_967_296.0;
        let mut above_without_margin = 0;
        for _ in 0..2_000 {
            let scale = 10f64.powi((unit() * 7.0) as i32 - 3);
            let weights: Vec<f64> = (0..FEATURE_COUNT)
                .map(|_| (2.0 * unit() - 1.0) * scale)
                .collect();
            let evaluator = NesPlateau::from_checked_weights(
                Weights::from_values(NesPlateau::NAME, FEATURE_NAMES, &weights).unwrap(),
            )
            .with_extra_deep_well_cost(2.0 * unit() * scale)
            .with_overdeep_well_cost(2.0 * unit() * scale);
            let mut feature = |max: f64| (unit() * max).floor() as u32;
            let height = u32::from(MAX_BOARD_HEIGHT);
            let (rows_cleared, lock_height) = (feature(12.0), feature(f64::from(3 * height)));
            let board = BoardFeatures {
                well_cells: feature(FEATURE_MAX),
                deep_wells: feature(WIDTH as f64),
                holes: crate::features::Holes {
                    count: feature(FEATURE_MAX),
                    weighted: feature(FEATURE_MAX),
                    depth_sum: feature(FEATURE_MAX),
                    min_depth: feature(f64::from(height)),
                    max_depth: feature(f64::from(height)),
                },
                column_transitions: feature(FEATURE_MAX),
                row_transitions: feature(FEATURE_MAX),
                column_heights: feature(FEATURE_MAX),
                pile_height: feature(f64::from(height)),
                height_spread: feature(f64::from(height)),
                occupied_cells: feature(FEATURE_MAX),
                weighted_occupied_cells: feature(FEATURE_MAX),
                bumpiness: feature(FEATURE_MAX),
                ceiling_penalty: f64::from(feature(FEATURE_MAX)) / 420.0,
            };
            let overdeep = feature(FEATURE_MAX);
            let leaf = [
                f64::from(rows_cleared),
                f64::from(lock_height + feature(f64::from(height))),
            ];
            let mut in_order = [0.0; FEATURE_COUNT];
            in_order[..2].copy_from_slice(&leaf);
            NesPlateau::write_board_features(&board, &mut in_order);
            let exact = evaluator.cost_of_features(&in_order, overdeep);
            let margin = evaluator.drop_bound_margin(rows_cleared, lock_height);
            let bound = evaluator.drop_bound_cost(leaf, &board, overdeep, margin);
            assert!(bound <= exact, "{bound} above {exact}");
            assert!(
                exact - bound <= 2.0 * margin,
                "{bound} too far below {exact}"
            );
            if evaluator.drop_bound_cost(leaf, &board, overdeep, 0.0) > exact {
                above_without_margin += 1;
            }
        }
        assert!(above_without_margin > 0);
    }

    #[test]
    fn rows_by_empty_cells_count_each_rows_empty_cells() {
        let mut rng = Pcg64Mcg::seed_from_u64(0x6e70);
        let mut found = [0; 4];
        for _ in 0..2_000 {
            let board = tetris_fixtures::random_board(&mut || rng.next_u32());
            let rows = rows_by_empty_cells(board.columns());
            for y in 0..board.height() as usize {
                let empty = (0..WIDTH).filter(|&x| !board.is_occupied(x, y)).count();
                for (k, rows) in rows.iter().enumerate() {
                    assert_eq!(rows >> y & 1 == 1, empty == k + 1, "row {y} on\n{board}");
                    found[k] += usize::from(empty == k + 1);
                }
            }
        }
        assert!(found.iter().all(|&rows| rows > 500), "{found:?}");
    }

    /// Every drop bound's board features against the locked board's: the ones the module
    /// documentation calls exact equal, the bounded ones on the side their weights' signs
    /// ask for (wells, deep wells, overdeep cells and the hole depths' extremes not above,
    /// column transitions and the spread not below); and the browser's copy of the column loop
    /// giving the same as the copies per span.
    #[test]
    fn drop_features_are_the_locked_boards_exact_ones_or_bounds() {
        let mut rng = Pcg64Mcg::seed_from_u64(0xd809);
        let (mut bounds, mut rows_changed) = (0, 0);
        for round in 0..3_000 {
            let board = match round {
                0 => Board::standard(),
                _ => tetris_fixtures::random_board(&mut || rng.next_u32()),
            };
            let terms = BoardTerms::new(&board, true);
            // The caller's conditions for drop bounds.
            if board.full_rows() != 0
                || terms.blocks_a_spawn
                || rules::split_needs_flood(terms.nonempty_rows, terms.field.row_mask)
            {
                continue;
            }
            for piece in Piece::ALL {
                let placements =
                    tetris_fixtures::shuffled_lock_placements(&board, piece, &mut || {
                        rng.next_u32()
                    });
                for placement in placements {
                    let found = terms.drop_features(&placement);
                    // The browser's one copy of the column loop gives the same.
                    assert_eq!(terms.drop_features_in::<false>(&placement), found);
                    let Some((bound, overdeep)) = found else {
                        continue;
                    };
                    let mut locked = board;
                    locked.lock(placement.piece, placement.state());
                    let (exact, exact_overdeep) =
                        crate::features::board_features_and_overdeep_well_cells(&locked);
                    let context = || format!("{placement:?} on\n{board}");
                    assert_eq!(
                        bound.row_transitions,
                        exact.row_transitions,
                        "{}",
                        context()
                    );
                    assert_eq!(bound.column_heights, exact.column_heights, "{}", context());
                    assert_eq!(bound.pile_height, exact.pile_height, "{}", context());
                    assert_eq!(bound.holes.count, exact.holes.count, "{}", context());
                    assert_eq!(bound.holes.weighted, exact.holes.weighted, "{}", context());
                    assert_eq!(
                        bound.holes.depth_sum,
                        exact.holes.depth_sum,
                        "{}",
                        context()
                    );
                    assert_eq!(bound.occupied_cells, exact.occupied_cells, "{}", context());
                    assert_eq!(
                        bound.weighted_occupied_cells,
                        exact.weighted_occupied_cells,
                        "{}",
                        context()
                    );
                    assert_eq!(bound.bumpiness, exact.bumpiness, "{}", context());
                    assert_eq!(
                        bound.ceiling_penalty,
                        exact.ceiling_penalty,
                        "{}",
                        context()
                    );
                    assert!(bound.well_cells <= exact.well_cells, "{}", context());
                    assert!(bound.deep_wells <= exact.deep_wells, "{}", context());
                    assert!(overdeep <= exact_overdeep, "{}", context());
                    assert!(
                        bound.holes.min_depth <= exact.holes.min_depth,
                        "{}",
                        context()
                    );
                    assert!(
                        bound.holes.max_depth <= exact.holes.max_depth,
                        "{}",
                        context()
                    );
                    assert!(
                        bound.column_transitions >= exact.column_transitions,
                        "{}",
                        context()
                    );
                    assert!(bound.height_spread >= exact.height_spread, "{}", context());
                    bounds += 1;
                    rows_changed +=
                        usize::from(exact.row_transitions != terms.totals.row_transitions);
                }
            }
        }
        assert!(bounds > 40_000, "{bounds} drop bounds");
        assert!(
            rows_changed > 30_000,
            "{rows_changed} with other row transitions"
        );
    }
}
