//! The literature's one-piece game (docs/spec/search.md §2b): every orientation at every column,
//! dropped straight down from above the field.
//!
//! # What and why
//!
//! Most published Tetris-AI results (Dellacherie as measured by Fahey and by Thiery &
//! Scherrer, El-Tetris, the cross-entropy and approximate-dynamic-programming papers) do not
//! play the NES game: their pieces neither spawn nor move. A move is an (orientation, column)
//! pair, and the piece falls straight down from ABOVE the field until it lands. This crate is
//! that game's move generator, so that those results can be reproduced with the workspace's
//! evaluators (El-Tetris itself is `drop` + Dellacherie with the El-Tetris weights, one piece,
//! no-suicide).
//!
//! - **Every orientation at every column between the walls is a placement**: an orientation
//!   whose cells span the column offsets `dx_min..=dx_max` (`width = dx_max − dx_min + 1`) has
//!   its pivot at x = −dx_min ..= 9 − dx_max, that is `10 − width + 1` columns. Nothing on the
//!   board can rule a column out: the piece starts above the field, where only the walls
//!   block (docs/spec/rules.md: cells above row 0 are legal). So T, J and L have 8 + 9 + 8 + 9 = 34
//!   placements on every board, Z, S and I 8 + 9 = 17 and 7 + 10 = 17, O 9.
//! - **No spawn, so no spawn check.** The search never returns an empty list, even on a board
//!   where no piece could spawn. A placement may land with cells above row 0; it is still
//!   returned. Under the literature's game-over rule (docs/spec/rules.md, [`GameOverRule::Literature`],
//!   this searcher's [`NamedSearcher::GAME_OVER_RULE`]) such a placement ENDS the game, judged
//!   on the landed piece before any row clears; that is for the game driver and the chain to
//!   decide (no-suicide skips those placements while another exists), not for the searcher.
//! - The searcher ignores gravity (`frame_timing` is `None`): the literature's game has no
//!   time.
//!
//! # Order
//!
//! The order decides ties (the chain keeps the first of equal chains), so it follows
//! El-Tetris, whose program this game must replay move for move: orientations in El-Tetris's
//! order, as rotation indices of docs/spec/rules.md's table,
//!
//! | piece | orientations |
//! |---|---|
//! | I | 1, 0 |
//! | T | 3, 2, 1, 0 |
//! | O | 0 |
//! | J | 2, 1, 0, 3 |
//! | L | 0, 3, 2, 1 |
//! | S | 1, 0 |
//! | Z | 1, 0 |
//!
//! and within an orientation the piece's leftmost column ascending (the same as pivot x
//! ascending, since the leftmost column is x + dx_min). Each (orientation, column) comes out
//! exactly once, and no two cover the same cells (different columns of one orientation are
//! different cells; no piece has two rotation indices with the same shape in the NES table).
//! The order depends on the piece only, never on the board.
//!
//! ## It is also MDPTetris's order
//!
//! MDPTetris (Thiery & Scherrer's program, docs/spec/mdptetris.md) tries its candidates
//! orientation outer, in its `pieces4.dat` numbering (each orientation the previous one turned
//! counter-clockwise), and the bounding box's left edge ascending inner. Matched to the table
//! above by cell shape, its orientations 0, 1, 2, 3 are exactly El-Tetris's order (I 1, 0;
//! T 3, 2, 1, 0; O 0; J 2, 1, 0, 3; L 0, 3, 2, 1; S and Z 1, 0), and its column is the
//! leftmost column: the two programs try the same drops in the same order (the test
//! `mdptetris_orientations_are_el_tetris_s_order` derives MDPTetris's numbering from its
//! cells). Its game over is the literature's rule, and it keeps the first of equal scores, as
//! the chain does. So `drop` IS MDPTetris's search, and no second searcher is needed for it.
//!
//! # Landing, and why it is exact
//!
//! Let `top(c)` be column c's topmost occupied row, or H (the floor) when the column is empty:
//! `trailing_zeros` of the column bitboard with bit H added (in 64 bits, so H = 32 works).
//! In each of the orientation's columns `x + dx`, only the piece's LOWEST cell there
//! (`lowest(dx)`, the largest dy of that column) and `top(x + dx)` matter. The landing pivot
//! row is
//!
//! ```text
//! y = min over the piece's columns dx of ( top(x + dx) − 1 − lowest(dx) )
//! ```
//!
//! Proof that a straight drop from above the field stops exactly there. At pivot row y' the
//! piece's cells in column c lie on rows ≤ y' + lowest(c − x); every row above `top(c)` is
//! free (empty in the field, or above row 0, which is always free), and the walls are not in
//! play once x is inside the orientation's range. So:
//!
//! - for every y' ≤ y each column's lowest cell is at most `top(c) − 1`, hence every cell of
//!   the piece is free: every state of the fall down to y is legal, and so is y;
//! - at y + 1 the column c that attains the minimum has the piece's lowest cell ON `top(c)`,
//!   an occupied cell or the floor: illegal. So the piece rests at y, a lock placement.
//!
//! Cells below `top(c)` (holes, overhangs) never matter: a falling piece cannot get past
//! `top(c)`, which is also why this game cannot tuck or spin. Every dy of the table lies in
//! −2..=1 and `top(c) ≥ 0`, so `y ≥ 0 − 1 − 1 = −2`: the landing row is never above row −2
//! (a vertical I on a full column lands at −2, all four cells above the field).
//!
//! # Paths
//!
//! Paths are recorded on request only (`options.with_paths`). Every path starts from
//! [`DROP_START`], rotation 0 at pivot (5, −2), which [`Searcher::path_start`] returns. There
//! every cell of every orientation lies above row 0 (dy ≤ 1, so rows ≤ −1). A path is:
//!
//! 1. the rotation presses with the fewest presses: for 4 orientations, r = 1 one
//!    `RotateClockwise`, r = 2 two `RotateClockwise` (through rotation 1), r = 3 one
//!    `RotateCounterclockwise`; for 2 orientations, r = 1 one `RotateClockwise`; O none;
//! 2. one `Left` or `Right` per column from x = 5 to the target x;
//! 3. one `Down` per row from −2 down to the landing row (none when it is −2).
//!
//! Replayed input by input from `DROP_START` with [`PieceState::after`] and [`Board::fits`],
//! every step is legal and the last one ends on the placement:
//!
//! - rotations and shifts happen at y = −2, where every cell is above row 0, so only the
//!   walls can block; x = 5 lies inside every orientation's wall range (every dx lies in
//!   −2..=1, so the range −dx_min ..= 9 − dx_max always contains 2..=8), so each rotation
//!   (and rotation 1 on the way to 2) is legal at x = 5, and each shift passes only columns
//!   between 5 and the target, both inside the (contiguous) range;
//! - the drops go from −2 to the landing row y ≥ −2, and every row in between is legal by the
//!   landing proof above.
//!
//! Both facts about the table (dy in −2..=1, x = 5 in every wall range) are checked at
//! compile time below.
//!
//! # Speed
//!
//! Nothing is tested cell by cell. Once per search the ten column tops are read with one
//! `trailing_zeros` each (the column tops and landing rows are
//! [`tetris_core::straight_drop`]'s, which the `mdptetris` generator's count of trial drops
//! uses too); the per-orientation footprints (each column offset with its lowest dy, and the
//! wall range) are `const` tables built at compile time from the orientation table. Each
//! orientation's landing rows are then, per column of the piece, one `min` over the
//! contiguous pivot columns, taken here on bytes biased to be positive, 16 pivot columns at
//! once (`biased_landing_rows`: SSE2's byte minimum, part of x86-64's baseline; the test
//! `biased_landing_rows_are_the_shared_landing_rows` compares it with the shared function).
//! Without paths, each orientation's placements are appended in one [`Placements::extend`]
//! of a slice's enumeration (exact length: one capacity check per orientation, not one per
//! placement), and nothing about paths is computed. In a 100,000-piece game of MDPTetris's
//! the search took 185 M instructions with a push per placement, 141 M with the extend over
//! an inclusive range zipped with the rows, 93 M as now. Nothing is allocated once the
//! output buffer has grown.
#![deny(missing_docs)]

use std::iter;

use tetris_core::straight_drop::column_tops;
#[cfg(test)]
use tetris_core::straight_drop::landing_rows;
use tetris_core::{
    Board, Footprint, GameOverRule, Input, NamedSearcher, Piece, PieceState, Placement, Placements,
    SearchOptions, Searcher,
};

/// Where every path of this searcher starts: rotation 0 at pivot (5, −2), above the field.
///
/// Every orientation's cells have dy in −2..=1, so at row −2 they all lie on rows −4..=−1,
/// above row 0, and x = 5 is inside every orientation's wall range; see the crate
/// documentation, "Paths".
pub const DROP_START: PieceState = PieceState {
    x: 5,
    y: -2,
    rotation: 0,
};

/// El-Tetris's orientation order as rotation indices, indexed by piece (T J Z O S L I).
const EL_TETRIS_ORDER: [&[u8]; 7] = [
    &[3, 2, 1, 0], // T
    &[2, 1, 0, 3], // J
    &[1, 0],       // Z
    &[0],          // O
    &[1, 0],       // S
    &[0, 3, 2, 1], // L
    &[1, 0],       // I
];

// The two facts about the orientation table the paths rely on (crate documentation, "Paths"),
// checked at compile time: every dy lies in −2..=1 (so every cell at DROP_START's row is above
// row 0, and every landing row is ≥ −2), and DROP_START's column lies inside every
// orientation's wall range. El-Tetris's order lists each orientation of each piece once.
const _: () = {
    let mut piece = 0;
    while piece < 7 {
        let count = Piece::ALL[piece].orientation_count();
        let order = EL_TETRIS_ORDER[piece];
        assert!(order.len() == count as usize);
        let mut seen = [false; 4];
        let mut index = 0;
        while index < order.len() {
            assert!(order[index] < count && !seen[order[index] as usize]);
            seen[order[index] as usize] = true;
            index += 1;
        }
        let mut rotation = 0;
        while rotation < count {
            let cells = Piece::ALL[piece].cells(rotation);
            let mut cell = 0;
            while cell < 4 {
                let dy = cells[cell].1;
                assert!(dy >= -2 && dy <= 1);
                assert!(DROP_START.y + dy < 0);
                cell += 1;
            }
            let footprint = Piece::ALL[piece].footprint(rotation);
            assert!(footprint.first_x <= DROP_START.x && DROP_START.x <= footprint.last_x);
            rotation += 1;
        }
        piece += 1;
    }
};

/// What [`biased_tops`] adds to every column top, so that every landing row plus it is a
/// small positive byte: a landing row is at least −2 (crate documentation, "Landing").
const BIAS: u8 = 8;

/// [`column_tops`] as bytes plus [`BIAS`], in 32 slots: slots past column 9 hold `u8::MAX`,
/// so that [`biased_landing_rows`] may read 16 columns from any of the ten.
#[inline]
fn biased_tops(board: &Board) -> [u8; 32] {
    let mut biased = [u8::MAX; 32];
    for (slot, &top) in biased.iter_mut().zip(&column_tops(board)) {
        // A top is a row 0..=H, H at most 32.
        *slot = top as u8 + BIAS;
    }
    biased
}

/// [`landing_rows`](tetris_core::straight_drop::landing_rows) plus [`BIAS`] for the
/// orientation with `footprint`, from [`biased_tops`]: entry k for pivot column `first_x + k`
/// (entries past `last_x − first_x` read the padding and are meaningless). The same minimum
/// over the piece's columns of `top − 1 − lowest`, each term biased alike: the true value
/// `top + BIAS − (1 + lowest)` lies in `BIAS − 2 ..= 32 + BIAS + 1`, so the bytes' arithmetic
/// modulo 256 gives it exactly, and their unsigned minimum is the minimum. Over 16 bytes
/// at once: the loop over a fixed 16-byte array compiles to SSE2 byte subtractions and
/// unsigned minimums (part of x86-64's baseline), one of each per column of the piece,
/// instead of one scalar `min` per pivot column and piece column.
#[inline]
fn biased_landing_rows(footprint: &Footprint, tops: &[u8; 32]) -> [u8; 16] {
    let mut pivots = [u8::MAX; 16];
    for &(dx, lowest) in footprint.column_bottoms() {
        let first_column = (footprint.first_x + dx) as usize;
        let columns: &[u8; 16] = tops[first_column..first_column + 16]
            .try_into()
            .expect("16 slots from a column of the board");
        let drop = (1 + lowest) as u8;
        for (pivot, &top) in pivots.iter_mut().zip(columns) {
            *pivot = (*pivot).min(top.wrapping_sub(drop));
        }
    }
    pivots
}

/// The literature's one-piece searcher of docs/spec/search.md §2b (name `drop`): every orientation at
/// every column, dropped from above the field, in El-Tetris's order. See the crate
/// documentation for the landing rule, the order and the paths.
#[derive(Clone, Copy, Debug, Default)]
pub struct DropFromAbove;

impl DropFromAbove {
    /// A drop searcher (it holds no state).
    pub fn new() -> DropFromAbove {
        DropFromAbove
    }
}

impl NamedSearcher for DropFromAbove {
    const NAME: &'static str = "drop";
    const DESCRIPTION: &'static str =
        "every orientation at every column, dropped from above the field (search.md §2b)";
    const GAME_OVER_RULE: GameOverRule = GameOverRule::Literature;

    fn with_default_settings() -> DropFromAbove {
        DropFromAbove::new()
    }
}

impl Searcher for DropFromAbove {
    fn name(&self) -> &str {
        DropFromAbove::NAME
    }

    fn search(
        &mut self,
        board: &Board,
        piece: Piece,
        options: SearchOptions,
        out: &mut Placements,
    ) {
        out.clear(options.with_paths);
        let tops = biased_tops(board);
        for &rotation in EL_TETRIS_ORDER[piece.index()] {
            let footprint = piece.footprint(rotation);
            let (first_x, last_x) = (footprint.first_x, footprint.last_x);
            let pivots = biased_landing_rows(&footprint, &tops);
            let pivots = &pivots[..(last_x - first_x + 1) as usize];
            // The pivot column and landing row of the orientation's k-th drop.
            let state = |k: usize, biased: u8| PieceState {
                x: first_x + k as i8,
                y: biased as i8 - BIAS as i8,
                rotation,
            };
            if !options.with_paths {
                // One capacity check per orientation (the iterator's length is exact).
                out.extend(
                    pivots
                        .iter()
                        .enumerate()
                        .map(|(k, &biased)| Placement::new(piece, state(k, biased))),
                );
                continue;
            }
            for (k, &biased) in pivots.iter().enumerate() {
                let state = state(k, biased);
                let (x, y) = (state.x, state.y);
                let shift = if x < DROP_START.x {
                    Input::Left
                } else {
                    Input::Right
                };
                let path = piece
                    .rotation_presses(rotation)
                    .iter()
                    .copied()
                    .chain(iter::repeat_n(shift, x.abs_diff(DROP_START.x) as usize))
                    .chain(iter::repeat_n(Input::Down, (y - DROP_START.y) as usize));
                out.push_with_path(Placement::new(piece, state), path);
            }
        }
    }

    fn path_start(&self) -> PieceState {
        DROP_START
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn search(board: &Board, piece: Piece, with_paths: bool) -> Placements {
        let mut out = Placements::new();
        DropFromAbove::new().search(
            board,
            piece,
            SearchOptions {
                with_paths,
                ..SearchOptions::default()
            },
            &mut out,
        );
        out
    }

    /// (rotation, x, y) of every placement, in output order.
    fn states(placements: &Placements) -> Vec<(u8, i8, i8)> {
        placements.iter().map(|p| (p.rotation, p.x, p.y)).collect()
    }

    /// `(rotation, x, y)` for the pivot columns `xs` of one orientation resting on row `y`.
    fn run(rotation: u8, xs: std::ops::RangeInclusive<i8>, y: i8) -> Vec<(u8, i8, i8)> {
        xs.map(|x| (rotation, x, y)).collect()
    }

    #[test]
    fn biased_landing_rows_are_the_shared_landing_rows() {
        use rand::{Rng, SeedableRng};
        // Random columns of every height (empty, full to row 0, ragged), every board height,
        // every orientation: the 16-byte minimum minus the bias is `landing_rows`'.
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(0xD209);
        for round in 0..3_000 {
            let height = 4 + round % 29;
            let mut board = Board::new(height).unwrap();
            for x in 0..10 {
                let top = rng.next_u32() as usize % (height + 1);
                for y in top..height {
                    if rng.next_u32() % 4 != 0 || y == top {
                        board.set(x, y);
                    }
                }
            }
            let (tops, biased) = (column_tops(&board), biased_tops(&board));
            for piece in Piece::ALL {
                for rotation in 0..piece.orientation_count() {
                    let footprint = piece.footprint(rotation);
                    let count = (footprint.last_x - footprint.first_x + 1) as usize;
                    let mut expected = vec![0i8; count];
                    landing_rows(&footprint, &tops, &mut expected);
                    let got: Vec<i8> = biased_landing_rows(&footprint, &biased)[..count]
                        .iter()
                        .map(|&row| row as i8 - BIAS as i8)
                        .collect();
                    assert_eq!(got, expected, "{piece} rotation {rotation} on\n{board}");
                }
            }
        }
    }

    #[test]
    fn counts_on_the_empty_board() {
        // By hand from docs/spec/rules.md's cell table: an orientation whose cells span dx_min..=dx_max
        // (width w = dx_max − dx_min + 1) fits at pivot x = −dx_min ..= 9 − dx_max, that is
        // 10 − w + 1 columns.
        // T: rot 0 (dx −1..1, w 3) 8, rot 1 (−1..0, w 2) 9, rot 2 (−1..1) 8, rot 3 (0..1) 9: 34.
        // J: rot 0 (−1..1) 8, rot 1 (−1..0) 9, rot 2 (−1..1) 8, rot 3 (0..1) 9: 34.
        // L: rot 0 (−1..1) 8, rot 1 (−1..0) 9, rot 2 (−1..1) 8, rot 3 (0..1) 9: 34.
        // Z: rot 0 (−1..1) 8, rot 1 (0..1) 9: 17.   S: rot 0 (−1..1) 8, rot 1 (0..1) 9: 17.
        // I: rot 0 (−2..1, w 4) 7, rot 1 (0..0, w 1) 10: 17.   O: (−1..0, w 2) 9.
        let empty = Board::standard();
        for (piece, count) in [
            (Piece::T, 34),
            (Piece::J, 34),
            (Piece::Z, 17),
            (Piece::O, 9),
            (Piece::S, 17),
            (Piece::L, 34),
            (Piece::I, 17),
        ] {
            assert_eq!(search(&empty, piece, false).len(), count, "{piece}");
        }
    }

    #[test]
    fn the_order_on_the_empty_board_is_el_tetris_s() {
        // On the empty 10 × 20 board every column's top is the floor, H = 20, so the pivot
        // lands on 20 − 1 − (the orientation's largest dy).
        let empty = Board::standard();
        // I: rotation 1 (cells (0,−2)..(0,1), largest dy 1) at x = 0..9 on row 18, then
        // rotation 0 (cells (−2,0)..(1,0), dy 0) at x = 2..8 on row 19.
        let mut expected = run(1, 0..=9, 18);
        expected.extend(run(0, 2..=8, 19));
        assert_eq!(states(&search(&empty, Piece::I, false)), expected);
        // J, order 2, 1, 0, 3:
        // rot 2 (−1,−1)(−1,0)(0,0)(1,0): dx −1..1, x = 1..8, largest dy 0, row 19;
        // rot 1 (0,−1)(0,0)(−1,1)(0,1): dx −1..0, x = 1..9, largest dy 1, row 18;
        // rot 0 (−1,0)(0,0)(1,0)(1,1): dx −1..1, x = 1..8, largest dy 1, row 18;
        // rot 3 (0,−1)(1,−1)(0,0)(0,1): dx 0..1, x = 0..8, largest dy 1, row 18.
        let mut expected = run(2, 1..=8, 19);
        expected.extend(run(1, 1..=9, 18));
        expected.extend(run(0, 1..=8, 18));
        expected.extend(run(3, 0..=8, 18));
        assert_eq!(states(&search(&empty, Piece::J, false)), expected);
        // T, order 3, 2, 1, 0:
        // rot 3 (0,−1)(0,0)(1,0)(0,1): x = 0..8, row 18;
        // rot 2 (−1,0)(0,0)(1,0)(0,−1): x = 1..8, largest dy 0, row 19;
        // rot 1 (0,−1)(−1,0)(0,0)(0,1): x = 1..9, row 18;
        // rot 0 (−1,0)(0,0)(1,0)(0,1): x = 1..8, row 18.
        let mut expected = run(3, 0..=8, 18);
        expected.extend(run(2, 1..=8, 19));
        expected.extend(run(1, 1..=9, 18));
        expected.extend(run(0, 1..=8, 18));
        assert_eq!(states(&search(&empty, Piece::T, false)), expected);
        // L, order 0, 3, 2, 1: rot 0 (−1,0)(0,0)(1,0)(−1,1): x = 1..8, row 18; rot 3
        // (0,−1)(0,0)(0,1)(1,1): x = 0..8, row 18; rot 2 (1,−1)(−1,0)(0,0)(1,0): x = 1..8,
        // row 19; rot 1 (−1,−1)(0,−1)(0,0)(0,1): x = 1..9, row 18.
        let mut expected = run(0, 1..=8, 18);
        expected.extend(run(3, 0..=8, 18));
        expected.extend(run(2, 1..=8, 19));
        expected.extend(run(1, 1..=9, 18));
        assert_eq!(states(&search(&empty, Piece::L, false)), expected);
        // O (−1,0)(0,0)(−1,1)(0,1): x = 1..9, row 18. S, order 1, 0: rot 1
        // (0,−1)(0,0)(1,0)(1,1): x = 0..8, row 18; rot 0 (0,0)(1,0)(−1,1)(0,1): x = 1..8,
        // row 18. Z, order 1, 0: rot 1 (1,−1)(0,0)(1,0)(0,1): x = 0..8, row 18; rot 0
        // (−1,0)(0,0)(0,1)(1,1): x = 1..8, row 18.
        assert_eq!(states(&search(&empty, Piece::O, false)), run(0, 1..=9, 18));
        for piece in [Piece::S, Piece::Z] {
            let mut expected = run(1, 0..=8, 18);
            expected.extend(run(0, 1..=8, 18));
            assert_eq!(states(&search(&empty, piece, false)), expected, "{piece}");
        }
    }

    #[test]
    fn mdptetris_orientations_are_el_tetris_s_order() {
        // MDPTetris's orientations (data/pieces4.dat, docs/spec/mdptetris.md), cells as
        // (dx, dy) from the bounding box's bottom-left, y UP, in its numbering 0, 1, 2, 3.
        type Cells = [(i8, i8); 4];
        let mdptetris: [(Piece, &[Cells]); 7] = [
            (
                Piece::I,
                &[
                    [(0, 0), (0, 1), (0, 2), (0, 3)],
                    [(0, 0), (1, 0), (2, 0), (3, 0)],
                ],
            ),
            (Piece::O, &[[(0, 0), (1, 0), (0, 1), (1, 1)]]),
            (
                Piece::T,
                &[
                    [(0, 0), (0, 1), (1, 1), (0, 2)],
                    [(0, 0), (1, 0), (2, 0), (1, 1)],
                    [(1, 0), (0, 1), (1, 1), (1, 2)],
                    [(1, 0), (0, 1), (1, 1), (2, 1)],
                ],
            ),
            (
                Piece::Z,
                &[
                    [(0, 0), (0, 1), (1, 1), (1, 2)],
                    [(1, 0), (2, 0), (0, 1), (1, 1)],
                ],
            ),
            (
                Piece::S,
                &[
                    [(1, 0), (0, 1), (1, 1), (0, 2)],
                    [(0, 0), (1, 0), (1, 1), (2, 1)],
                ],
            ),
            (
                Piece::J,
                &[
                    [(0, 0), (1, 0), (2, 0), (0, 1)],
                    [(0, 0), (1, 0), (1, 1), (1, 2)],
                    [(2, 0), (0, 1), (1, 1), (2, 1)],
                    [(0, 0), (0, 1), (0, 2), (1, 2)],
                ],
            ),
            (
                Piece::L,
                &[
                    [(0, 0), (0, 1), (1, 1), (2, 1)],
                    [(0, 0), (1, 0), (0, 1), (0, 2)],
                    [(0, 0), (1, 0), (2, 0), (2, 1)],
                    [(1, 0), (1, 1), (1, 2), (0, 2)],
                ],
            ),
        ];
        // Our cells (pivot offsets, y DOWN) in the same frame: dx − smallest dx, largest dy − dy.
        let normalized = |cells: &[(i8, i8)]| {
            let dx_min = cells.iter().map(|c| c.0).min().unwrap();
            let dy_max = cells.iter().map(|c| c.1).max().unwrap();
            let mut out: Vec<(i8, i8)> = cells
                .iter()
                .map(|&(dx, dy)| (dx - dx_min, dy_max - dy))
                .collect();
            out.sort();
            out
        };
        for (piece, orientations) in mdptetris {
            let ours: Vec<u8> = orientations
                .iter()
                .map(|cells| {
                    let mut wanted = cells.to_vec();
                    wanted.sort();
                    let matches: Vec<u8> = (0..piece.orientation_count())
                        .filter(|&rotation| normalized(&piece.cells(rotation)) == wanted)
                        .collect();
                    assert_eq!(matches.len(), 1, "{piece}: one rotation per shape");
                    matches[0]
                })
                .collect();
            assert_eq!(ours, EL_TETRIS_ORDER[piece.index()], "{piece}");
            // Each next MDPTetris orientation is the previous one turned counter-clockwise:
            // our rotation index minus one (B), wrapping.
            let count = piece.orientation_count();
            for pair in ours.windows(2) {
                assert_eq!(pair[1], (pair[0] + count - 1) % count, "{piece}");
            }
        }
    }

    #[test]
    fn landing_stops_on_each_columns_top_and_ignores_what_lies_below() {
        // Column 3 filled on rows 15..=19, column 6 only on row 10 (an overhang over holes).
        // T rotation 0, cells (x−1,y) (x,y) (x+1,y) (x,y+1), largest dy per column: 0, 1, 0.
        // x = 2 (columns 1, 2, 3; tops 20, 20, 15): min(19, 18, 14) = 14.
        // x = 3 (columns 2, 3, 4): min(19, 15 − 1 − 1 = 13, 19) = 13.
        // x = 4 (columns 3, 4, 5): min(14, 18, 19) = 14.
        // x = 5 (columns 4, 5, 6; top of 6 is 10): min(19, 18, 9) = 9.
        // x = 6 (columns 5, 6, 7): min(19, 10 − 1 − 1 = 8, 19) = 8.
        // x = 7 (columns 6, 7, 8): min(9, 18, 19) = 9.  x = 1 and x = 8: the floor, 18.
        let mut board = Board::standard();
        for y in 15..20 {
            board.set(3, y);
        }
        board.set(6, 10);
        let t = search(&board, Piece::T, false);
        let rotation_0: Vec<i8> = t.iter().filter(|p| p.rotation == 0).map(|p| p.y).collect();
        assert_eq!(rotation_0, [18, 14, 13, 14, 9, 8, 9, 18]);
        assert!(t.iter().all(|p| p.is_lock_placement_on(&board)));
    }

    #[test]
    fn a_vertical_i_on_a_full_column_lands_above_the_field_and_is_still_returned() {
        // Column 4 full from row 0 to the floor: its top is row 0. The vertical I (rotation 1,
        // cells (0,−2)..(0,1), largest dy 1) at x = 4 lands on 0 − 1 − 1 = −2, cells
        // (4,−4)..(4,−1), all above row 0. A flat I (cells x−2..x+1, dy 0) over column 4,
        // x = 3..6, lands on 0 − 1 − 0 = −1.
        let mut full_column = Board::standard();
        for y in 0..20 {
            full_column.set(4, y);
        }
        let i = search(&full_column, Piece::I, true);
        assert_eq!(i.len(), 17);
        let index = i.iter().position(|p| p.rotation == 1 && p.x == 4).unwrap();
        let vertical = i.get(index).unwrap();
        assert_eq!(vertical.y, -2);
        assert_eq!(vertical.cells, [(4, -4), (4, -3), (4, -2), (4, -1)]);
        assert!(vertical.is_lock_placement_on(&full_column));
        assert!(GameOverRule::Literature.placement_ends_game(vertical));
        // Its path: one A, one Left, no Down (it starts on its landing row).
        assert_eq!(
            i.path(index).unwrap(),
            [Input::RotateClockwise, Input::Left]
        );
        let flat_rows: Vec<(i8, i8)> = i
            .iter()
            .filter(|p| p.rotation == 0)
            .map(|p| (p.x, p.y))
            .collect();
        assert_eq!(
            flat_rows,
            [
                (2, 19),
                (3, -1),
                (4, -1),
                (5, -1),
                (6, -1),
                (7, 19),
                (8, 19)
            ]
        );
    }

    #[test]
    fn a_board_where_nothing_can_spawn_still_has_every_placement() {
        // No spawn, no spawn check: (5, 0) occupied blocks every spawn, not a drop.
        let mut blocked = Board::standard();
        blocked.set(5, 0);
        for (piece, count) in [(Piece::T, 34), (Piece::O, 9), (Piece::I, 17)] {
            assert!(!blocked.can_spawn(piece));
            assert_eq!(search(&blocked, piece, false).len(), count, "{piece}");
        }
    }

    #[test]
    fn paths_by_hand_on_the_empty_board() {
        let empty = Board::standard();
        // I rotation 1 at x = 0 (row 18): A, 5 × Left, 18 + 2 = 20 × Down.
        let i = search(&empty, Piece::I, true);
        let mut expected = vec![Input::RotateClockwise];
        expected.extend([Input::Left; 5]);
        expected.extend([Input::Down; 20]);
        assert_eq!(i.path(0).unwrap(), expected.as_slice());
        // J rotation 2 at x = 1 (row 19), the J's first: A, A, 4 × Left, 21 × Down.
        let j = search(&empty, Piece::J, true);
        let mut expected = vec![Input::RotateClockwise; 2];
        expected.extend([Input::Left; 4]);
        expected.extend([Input::Down; 21]);
        assert_eq!(j.path(0).unwrap(), expected.as_slice());
        // T rotation 3 at x = 8 (row 18), the 9th T: B, 3 × Right, 20 × Down.
        let t = search(&empty, Piece::T, true);
        assert_eq!((t.get(8).unwrap().rotation, t.get(8).unwrap().x), (3, 8));
        let mut expected = vec![Input::RotateCounterclockwise];
        expected.extend([Input::Right; 3]);
        expected.extend([Input::Down; 20]);
        assert_eq!(t.path(8).unwrap(), expected.as_slice());
        // O at x = 5 (row 18): no rotation, no shift, 20 × Down.
        let o = search(&empty, Piece::O, true);
        assert_eq!(o.get(4).unwrap().x, 5);
        assert_eq!(o.path(4).unwrap(), [Input::Down; 20].as_slice());
    }

    #[test]
    fn names_rule_start_and_the_reused_buffer() {
        let mut searcher = DropFromAbove::with_default_settings();
        assert_eq!(searcher.name(), "drop");
        assert_eq!(DropFromAbove::GAME_OVER_RULE, GameOverRule::Literature);
        assert_eq!(searcher.frame_timing(), None);
        assert_eq!(
            searcher.path_start(),
            PieceState {
                x: 5,
                y: -2,
                rotation: 0
            }
        );
        let mut out = Placements::new();
        searcher.search(
            &Board::standard(),
            Piece::T,
            SearchOptions::WITH_PATHS,
            &mut out,
        );
        assert_eq!(out.len(), 34);
        assert!(out.has_paths());
        searcher.search(
            &Board::standard(),
            Piece::O,
            SearchOptions::default(),
            &mut out,
        );
        assert_eq!(out.len(), 9);
        assert!(!out.has_paths());
    }
}
