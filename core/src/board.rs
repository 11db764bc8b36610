//! The playing field: 10 columns × H rows (H from 4 to 32) as a `Copy` column bitboard.
//!
//! Coordinates follow docs/spec/rules.md: `x` is the column (0 at the left), `y` the row (0 at the TOP,
//! `H − 1` the floor row). Cells above row 0 (`y < 0`) are legal for a piece. What happens to
//! the cells of a piece that locks partly above the field depends on the board:
//!
//! - a plain board (the default) never stores them: they are lost, as in the original NES AI
//!   program (docs/spec/rules.md, the simulation and literature rules);
//! - a console board ([`Board::with_hidden_rows`]) keeps the NES console's two hidden rows −1
//!   and −2 (docs/spec/rules.md, the console rule; docs/spec/nes-facts.md §1.5): cells that lock there are written
//!   there, collide with every later piece, and are never cleared, shifted or drawn; and a
//!   cell above row −2 is outside the console's field. The text and JSON forms show the field
//!   only, and so do the features: the hidden rows are invisible, as on the screen.
//!
//! Over 600 lines only with its unit tests (about a third): the board is the core's hot path and
//! its tests check the private bit tricks directly.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::error::Error;
use crate::piece::Piece;
use crate::placement::PieceState;

/// Columns of every board.
pub const BOARD_WIDTH: usize = 10;
/// Smallest supported board height.
pub const MIN_BOARD_HEIGHT: u8 = 4;
/// Largest supported board height (one `u32` per column).
pub const MAX_BOARD_HEIGHT: u8 = 32;
/// The standard NES field height.
pub const DEFAULT_BOARD_HEIGHT: u8 = 20;

/// A 10 × H field of locked cells.
///
/// Bit layout: `columns[x]` holds column `x`; bit `y` (value `1 << y`) is set when cell
/// `(x, y)` is occupied. Bit 0 is the TOP row and bit `H − 1` the floor row, so "down" is a
/// left shift (`<< 1`), a column's topmost occupied cell is its lowest set bit
/// (`trailing_zeros`), and bits `H..32` are always zero. Column bitboards make the per-column
/// features (heights, holes, wells) single bit operations, and a row's cells are recovered by
/// testing bit `y` of every column (row features combine columns pairwise with XOR).
///
/// A console board also holds the two hidden rows above row 0 (see the module documentation):
/// `hidden` has bit `2x` set when cell `(x, −2)` is occupied and bit `2x + 1` for `(x, −1)`,
/// so that column x's pair, `hidden >> 2x & 3`, is exactly the two bits a search puts above
/// the column's row 0 when it pads the column by two rows.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    columns: [u32; BOARD_WIDTH],
    height: u8,
    /// Whether this is a console board, which keeps the two hidden rows.
    keeps_hidden_rows: bool,
    /// The hidden rows' cells (always 0 on a plain board).
    hidden: u32,
}

/// What one lock did to the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct LockOutcome {
    /// How many rows were full and removed.
    pub rows_cleared: u8,
    /// The removed rows as a bit mask of their row indices BEFORE the clear (bit `y` = row `y`).
    pub cleared_rows: u32,
    /// How many of the piece's own cells were in the removed rows.
    pub piece_cells_cleared: u8,
    /// How many of the piece's cells were above row 0 and so were not stored (on a console
    /// board, cells on the hidden rows are stored there and not counted).
    pub cells_above_top: u8,
}

impl Board {
    /// An empty board `height` rows tall; an error outside 4..=32.
    pub fn new(height: usize) -> Result<Board, Error> {
        if !(MIN_BOARD_HEIGHT as usize..=MAX_BOARD_HEIGHT as usize).contains(&height) {
            return Err(Error::BoardHeight(height));
        }
        Ok(Board {
            columns: [0; BOARD_WIDTH],
            height: height as u8,
            keeps_hidden_rows: false,
            hidden: 0,
        })
    }

    /// An empty board of the standard 20 rows.
    pub const fn standard() -> Board {
        Board {
            columns: [0; BOARD_WIDTH],
            height: DEFAULT_BOARD_HEIGHT,
            keeps_hidden_rows: false,
            hidden: 0,
        }
    }

    /// This board as a console board (docs/spec/rules.md, the console rule): the same field, with the
    /// two hidden rows above it, empty at first, which keep the cells of pieces that lock
    /// there (see the module documentation).
    pub const fn with_hidden_rows(self) -> Board {
        Board {
            keeps_hidden_rows: true,
            ..self
        }
    }

    /// This board's field as a plain board: a console board's hidden rows are dropped.
    pub const fn without_hidden_rows(self) -> Board {
        Board {
            keeps_hidden_rows: false,
            hidden: 0,
            ..self
        }
    }

    /// Whether this is a console board, with the two hidden rows ([`Board::with_hidden_rows`]).
    #[inline]
    pub const fn keeps_hidden_rows(&self) -> bool {
        self.keeps_hidden_rows
    }

    /// The hidden rows' cells: bit `2x` for `(x, −2)`, bit `2x + 1` for `(x, −1)`; always 0 on
    /// a plain board.
    #[inline]
    pub const fn hidden_rows(&self) -> u32 {
        self.hidden
    }

    /// Marks the hidden cell `(x, y)` occupied (`y` is −2 or −1) on a console board: a cell
    /// that a piece locked there earlier, for building positions.
    ///
    /// # Panics
    /// If this is a plain board, which has no hidden rows, or `(x, y)` is not a hidden cell.
    pub fn set_hidden(&mut self, x: usize, y: i8) {
        assert!(self.keeps_hidden_rows, "a plain board has no hidden rows");
        assert!(
            x < BOARD_WIDTH && (-2..0).contains(&y),
            "({x}, {y}) is not a hidden cell"
        );
        self.hidden |= 1 << (2 * x as i32 + i32::from(y) + 2);
    }

    /// Column `x`'s two hidden cells as bits: bit 0 for row −2, bit 1 for row −1 (what a
    /// column padded by two rows above row 0 holds there).
    #[inline]
    pub const fn hidden_column(&self, x: usize) -> u32 {
        self.hidden >> (2 * x) & 3
    }

    /// Rows of the board.
    #[inline]
    pub const fn height(&self) -> u8 {
        self.height
    }

    /// Mask with one bit set for every row of the board (bits `0..H`).
    #[inline]
    pub const fn row_mask(&self) -> u32 {
        if self.height as u32 >= 32 {
            u32::MAX
        } else {
            (1u32 << self.height) - 1
        }
    }

    /// Bit mask of the floor row (`1 << (H − 1)`).
    #[inline]
    pub const fn floor_row_bit(&self) -> u32 {
        1u32 << (self.height - 1)
    }

    /// The column bitboard of column `x` (see the type's bit layout).
    #[inline]
    pub const fn column(&self, x: usize) -> u32 {
        self.columns[x]
    }

    /// All ten column bitboards.
    #[inline]
    pub const fn columns(&self) -> &[u32; BOARD_WIDTH] {
        &self.columns
    }

    /// Whether the in-field cell `(x, y)` is occupied. `x` must be 0..10 and `y` 0..H.
    #[inline]
    pub fn is_occupied(&self, x: usize, y: usize) -> bool {
        debug_assert!(x < BOARD_WIDTH && y < self.height as usize);
        self.columns[x] >> y & 1 != 0
    }

    /// Whether a piece cell at `(x, y)` would collide: walls and the floor block, in-field
    /// cells block when occupied, and cells above row 0 are free on a plain board; on a
    /// console board a hidden row's cell blocks when occupied and rows above −2 block.
    #[inline]
    pub fn is_blocked(&self, x: i32, y: i32) -> bool {
        if !(0..BOARD_WIDTH as i32).contains(&x) || y >= self.height as i32 {
            return true;
        }
        if y < 0 {
            return self.keeps_hidden_rows && (y < -2 || self.hidden >> (2 * x + y + 2) & 1 != 0);
        }
        self.columns[x as usize] >> y & 1 != 0
    }

    /// Marks the in-field cell `(x, y)` occupied.
    #[inline]
    pub fn set(&mut self, x: usize, y: usize) {
        debug_assert!(x < BOARD_WIDTH && y < self.height as usize);
        self.columns[x] |= 1 << y;
    }

    /// Marks the in-field cell `(x, y)` empty.
    #[inline]
    pub fn clear_cell(&mut self, x: usize, y: usize) {
        debug_assert!(x < BOARD_WIDTH && y < self.height as usize);
        self.columns[x] &= !(1 << y);
    }

    /// Whether `piece` in `state` is legal: every cell inside columns 0..9, at or above the
    /// floor, and not on an occupied cell (cells above row 0 are legal).
    #[inline]
    pub fn fits(&self, piece: Piece, state: PieceState) -> bool {
        let PieceState { x, y, rotation } = state;
        piece
            .cells(rotation)
            .iter()
            .all(|&(dx, dy)| !self.is_blocked((x + dx) as i32, (y + dy) as i32))
    }

    /// Whether the piece's spawn state (spawn orientation at pivot (5, 0)) is legal. When it is
    /// not, the piece cannot spawn and the game is over.
    #[inline]
    pub fn can_spawn(&self, piece: Piece) -> bool {
        self.fits(piece, PieceState::SPAWN)
    }

    /// The row where the piece comes to rest when dropped straight down from the legal
    /// `state`: the largest `y' ≥ state.y` such that every row from `state.y` to `y'` is legal
    /// in the same column and orientation.
    #[inline]
    pub fn drop_row(&self, piece: Piece, state: PieceState) -> i8 {
        debug_assert!(self.fits(piece, state));
        let mut resting = state;
        while self.fits(piece, resting.one_row_down()) {
            resting.y += 1;
        }
        resting.y
    }

    /// Rows that are completely filled, as a bit mask of row indices.
    #[inline]
    pub fn full_rows(&self) -> u32 {
        self.columns
            .iter()
            .fold(self.row_mask(), |rows, &column| rows & column)
    }

    /// Occupies the cells of `piece` in `state` without clearing rows; cells above row 0 are
    /// dropped, except that a console board writes them into its hidden rows. Returns how
    /// many were dropped. The state must be legal.
    #[inline]
    pub fn place(&mut self, piece: Piece, state: PieceState) -> u8 {
        debug_assert!(self.fits(piece, state), "placing an illegal state");
        let PieceState { x, y, rotation } = state;
        let mut above_top = 0;
        for (dx, dy) in piece.cells(rotation) {
            let row = y + dy;
            if row < 0 {
                if self.keeps_hidden_rows {
                    // A legal state on a console board has no cell above row −2.
                    self.hidden |= 1 << (2 * (x + dx) + row + 2);
                } else {
                    above_top += 1;
                }
            } else {
                self.columns[(x + dx) as usize] |= 1 << row;
            }
        }
        above_top
    }

    /// Removes every full row; the rows above move down. Returns the removed rows as a mask of
    /// their indices before the clear.
    #[inline]
    pub fn clear_full_rows(&mut self) -> u32 {
        let full = self.full_rows();
        self.remove_rows(full);
        full
    }

    /// Removes the rows of `rows` (a mask of row indices); the rows above move down (row 0
    /// comes in empty: the hidden rows of a console board never move).
    #[inline]
    fn remove_rows(&mut self, rows: u32) {
        let mut remaining = rows;
        // Removing row r moves rows 0..r down one (a left shift of the bits below bit r). Rows
        // are removed top first, so a lower full row's index is unchanged when its turn comes.
        while remaining != 0 {
            let row = remaining.trailing_zeros();
            remaining &= remaining - 1;
            let above: u32 = if row == 0 { 0 } else { u32::MAX >> (32 - row) };
            for column in &mut self.columns {
                let below_and_row = *column & !above;
                *column = (below_and_row & !(1 << row)) | ((*column & above) << 1);
            }
        }
    }

    /// Locks `piece` in `state`: occupies its cells, then clears full rows. The state must be
    /// legal (it need not be resting; the caller decides what locks).
    pub fn lock(&mut self, piece: Piece, state: PieceState) -> LockOutcome {
        let cells_above_top = self.place(piece, state);
        let PieceState { y, rotation, .. } = state;
        let full = self.full_rows();
        if full == 0 {
            return LockOutcome {
                cells_above_top,
                ..LockOutcome::default()
            };
        }
        let piece_cells_cleared = piece
            .cells(rotation)
            .iter()
            .filter(|&&(_, dy)| {
                let row = y + dy;
                row >= 0 && full >> row & 1 != 0
            })
            .count() as u8;
        self.remove_rows(full);
        LockOutcome {
            rows_cleared: full.count_ones() as u8,
            cleared_rows: full,
            piece_cells_cleared,
            cells_above_top,
        }
    }

    /// Height of column `x`: `H − y` of its topmost occupied cell, 0 when empty.
    #[inline]
    pub fn column_height(&self, x: usize) -> u8 {
        let column = self.columns[x];
        if column == 0 {
            0
        } else {
            self.height - column.trailing_zeros() as u8
        }
    }

    /// Heights of all ten columns.
    #[inline]
    pub fn column_heights(&self) -> [u8; BOARD_WIDTH] {
        std::array::from_fn(|x| self.column_height(x))
    }

    /// Number of occupied cells of the field (a console board's hidden rows not counted).
    #[inline]
    pub fn occupied_count(&self) -> u32 {
        self.columns.iter().map(|column| column.count_ones()).sum()
    }

    /// Whether no cell of the field is occupied (a console board's hidden rows not counted).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.columns.iter().all(|&column| column == 0)
    }

    /// The row `y` as a 10-character string of `#` (occupied) and `.` (empty).
    pub fn row_text(&self, y: usize) -> String {
        // Bytes, then one string of exactly 10: outside engines are sent a board every
        // decision, and collecting chars grew the string a character at a time.
        let cells: [u8; BOARD_WIDTH] =
            std::array::from_fn(|x| if self.is_occupied(x, y) { b'#' } else { b'.' });
        String::from_utf8(cells.to_vec()).expect("# and . are ASCII")
    }

    /// The board as H strings of 10 `#`/`.` characters, top row first (the JSON form).
    pub fn to_rows(&self) -> Vec<String> {
        (0..self.height as usize)
            .map(|y| self.row_text(y))
            .collect()
    }

    /// Parses rows (top first) of 10 `#`/`.` characters; the row count is the height and must
    /// be within 4..=32.
    pub fn from_rows<S: AsRef<str>>(rows: &[S]) -> Result<Board, Error> {
        let mut board = Board::new(rows.len())?;
        for (y, row) in rows.iter().enumerate() {
            let row = row.as_ref();
            let length = row.chars().count();
            if length != BOARD_WIDTH {
                return Err(Error::BoardRowLength {
                    line: y + 1,
                    found: length,
                });
            }
            for (x, character) in row.chars().enumerate() {
                match character {
                    '#' => board.set(x, y),
                    '.' => {}
                    _ => {
                        return Err(Error::BoardCharacter {
                            line: y + 1,
                            column: x + 1,
                            character,
                        });
                    }
                }
            }
        }
        Ok(board)
    }

    /// A board `height` rows tall whose BOTTOM rows are `bottom` (top first, 10 `#`/`.` each)
    /// and whose rows above are empty: the usual way to write a position in a test or bench.
    pub fn from_bottom_rows<S: AsRef<str>>(bottom: &[S], height: usize) -> Result<Board, Error> {
        if bottom.len() > height {
            return Err(Error::BoardRowCount {
                expected: height,
                found: bottom.len(),
            });
        }
        let mut rows: Vec<&str> = vec![".........."; height - bottom.len()];
        rows.extend(bottom.iter().map(AsRef::as_ref));
        Board::from_rows(&rows)
    }

    /// Parses the text form (H lines of 10 `#`/`.`, top first; `\n` or `\r\n` line ends;
    /// empty lines at the end are ignored) and requires exactly `height` rows.
    pub fn parse_with_height(text: &str, height: usize) -> Result<Board, Error> {
        let board: Board = text.parse()?;
        if board.height as usize != height {
            return Err(Error::BoardRowCount {
                expected: height,
                found: board.height as usize,
            });
        }
        Ok(board)
    }
}

impl Default for Board {
    /// The empty standard 10 × 20 board.
    fn default() -> Self {
        Board::standard()
    }
}

impl FromStr for Board {
    type Err = Error;

    /// Parses the text form; the number of lines is the height (4..=32). Empty lines at the
    /// end of the text are ignored, every other line must be a row.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let mut lines: Vec<&str> = text.lines().collect();
        while lines.last().is_some_and(|line| line.trim().is_empty()) {
            lines.pop();
        }
        if !(MIN_BOARD_HEIGHT as usize..=MAX_BOARD_HEIGHT as usize).contains(&lines.len()) {
            return Err(Error::BoardRowCount {
                expected: DEFAULT_BOARD_HEIGHT as usize,
                found: lines.len(),
            });
        }
        Board::from_rows(&lines)
    }
}

impl fmt::Display for Board {
    /// The text form: H lines of 10 `#`/`.`, top first, each ending in `\n`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for y in 0..self.height as usize {
            writeln!(f, "{}", self.row_text(y))?;
        }
        Ok(())
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Board {}x{}:", BOARD_WIDTH, self.height)?;
        if self.keeps_hidden_rows {
            // The hidden rows, marked so they cannot be mistaken for the field.
            for y in [-2i32, -1] {
                let row: String = (0..BOARD_WIDTH as i32)
                    .map(|x| if self.is_blocked(x, y) { 'h' } else { '-' })
                    .collect();
                writeln!(f, "{row}")?;
            }
        }
        write!(f, "{self}")
    }
}

impl Serialize for Board {
    /// Serializes as the JSON array of row strings, top first.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.to_rows().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Board {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let rows = Vec::<String>::deserialize(deserializer)?;
        Board::from_rows(&rows).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The state with pivot (`x`, `y`) and `rotation`.
    fn state(x: i8, y: i8, rotation: u8) -> PieceState {
        PieceState { x, y, rotation }
    }

    fn board(rows: &[&str]) -> Board {
        Board::from_rows(rows).unwrap()
    }

    fn with_bottom(bottom: &[&str], height: usize) -> Board {
        Board::from_bottom_rows(bottom, height).expect("test board")
    }

    #[test]
    fn bottom_rows_are_padded_with_empty_rows_on_top() {
        let board = Board::from_bottom_rows(&["#........#"], 4).unwrap();
        assert_eq!(
            board.to_rows(),
            ["..........", "..........", "..........", "#........#"]
        );
        assert!(Board::from_bottom_rows(&["#"; 5], 4).is_err());
        assert_eq!(
            Board::from_bottom_rows(&[".........."; 5], 4),
            Err(Error::BoardRowCount {
                expected: 4,
                found: 5
            })
        );
    }

    #[test]
    fn empty_boards_and_heights() {
        let empty = Board::standard();
        assert_eq!(empty.height(), 20);
        assert_eq!(empty.occupied_count(), 0);
        assert_eq!(empty.column_heights(), [0; 10]);
        assert!(Board::new(3).is_err());
        assert!(Board::new(33).is_err());
        assert_eq!(Board::new(32).unwrap().row_mask(), u32::MAX);
        assert_eq!(Board::new(4).unwrap().row_mask(), 0b1111);
    }

    #[test]
    fn legality_walls_floor_cells_and_the_space_above() {
        let board = with_bottom(&["#........."], 20);
        // I vertical at the spawn row: cells (5,-2)..(5,1) are legal (above row 0 is free).
        assert!(board.fits(Piece::I, state(5, 0, 1)));
        // Left wall: T spawn at x=0 puts a cell at x=-1.
        assert!(!board.fits(Piece::T, state(0, 5, 0)));
        assert!(board.fits(Piece::T, state(1, 5, 0)));
        // Right wall: flat I covers x-2..x+1, so x=8 reaches column 9, x=9 leaves the field.
        assert!(board.fits(Piece::I, state(8, 5, 0)));
        assert!(!board.fits(Piece::I, state(9, 5, 0)));
        // Floor: flat I on row 19 is legal, row 20 is not.
        assert!(board.fits(Piece::I, state(5, 19, 0)));
        assert!(!board.fits(Piece::I, state(5, 20, 0)));
        // Occupied cell (0, 19) blocks an O whose cells cover it.
        assert!(!board.fits(Piece::O, state(1, 18, 0)));
        assert!(board.fits(Piece::O, state(2, 18, 0)));
        assert!(board.can_spawn(Piece::T));
    }

    #[test]
    fn spawn_blocked_when_a_spawn_cell_is_occupied() {
        let mut board = Board::standard();
        board.set(5, 0);
        for piece in Piece::ALL {
            assert!(!board.can_spawn(piece), "{piece}");
        }
        let mut board = Board::standard();
        board.set(6, 1);
        assert!(!board.can_spawn(Piece::J));
        assert!(!board.can_spawn(Piece::Z));
        assert!(board.can_spawn(Piece::T));
    }

    #[test]
    fn lock_clears_rows_and_reports_them() {
        let mut board = with_bottom(&["#########.", "#########.", "##.#######"], 20);
        // A vertical I at column 9, pivot row 17 covers rows 15..18.
        let outcome = board.lock(Piece::I, state(9, 17, 1));
        assert_eq!(outcome.rows_cleared, 2);
        assert_eq!(outcome.cleared_rows, (1 << 17) | (1 << 18));
        assert_eq!(outcome.piece_cells_cleared, 2);
        assert_eq!(outcome.cells_above_top, 0);
        assert_eq!(
            board,
            with_bottom(&[".........#", ".........#", "##.#######"], 20)
        );
    }

    #[test]
    fn clearing_non_adjacent_rows_keeps_the_rows_between() {
        let mut board = with_bottom(
            &["#.........", "#########.", ".#........", "#########."],
            20,
        );
        let outcome = board.lock(Piece::I, state(9, 18, 1));
        assert_eq!(outcome.rows_cleared, 2);
        assert_eq!(outcome.cleared_rows, (1 << 17) | (1 << 19));
        assert_eq!(board, with_bottom(&["#........#", ".#.......#"], 20));
    }

    #[test]
    fn a_tetris_on_the_smallest_and_largest_boards() {
        for height in [4usize, 32] {
            let mut rows = vec!["#########."; 4];
            let mut text = vec![".........."; height - 4];
            text.append(&mut rows);
            let mut board = board(&text);
            let outcome = board.lock(Piece::I, state(9, height as i8 - 2, 1));
            assert_eq!(outcome.rows_cleared, 4);
            assert!(board.is_empty(), "height {height}");
        }
    }

    #[test]
    fn cells_above_row_zero_are_dropped_on_lock() {
        let mut board = Board::standard();
        let outcome = board.lock(Piece::I, state(0, 0, 1));
        assert_eq!(outcome.cells_above_top, 2);
        assert_eq!(board.occupied_count(), 2);
        assert_eq!(board.column_height(0), 20);
    }

    #[test]
    fn heights_and_drop_row() {
        let board = with_bottom(&["...#......", "..##......", ".###......"], 20);
        assert_eq!(board.column_heights(), [0, 1, 2, 3, 0, 0, 0, 0, 0, 0]);
        assert_eq!(board.occupied_count(), 6);
        // An O dropped at x=1 (cells in columns 0 and 1) rests on column 1's top (row 19).
        assert_eq!(board.drop_row(Piece::O, state(1, 0, 0)), 17);
        assert_eq!(board.drop_row(Piece::I, state(8, 0, 0)), 19);
    }

    #[test]
    fn text_form_round_trips_and_errors_name_line_and_column() {
        let text = "..........\n".repeat(18) + "#...#....#\n##.#######\n";
        let board: Board = text.parse().unwrap();
        assert_eq!(board.to_string(), text);
        assert_eq!(Board::parse_with_height(&text, 20).unwrap(), board);
        assert_eq!(
            Board::parse_with_height(&text, 10),
            Err(Error::BoardRowCount {
                expected: 10,
                found: 20
            })
        );
        let short = text.replacen("##.#######", "##.######", 1);
        assert_eq!(
            short.parse::<Board>(),
            Err(Error::BoardRowLength { line: 20, found: 9 })
        );
        let bad = text.replacen("#...#....#", "#...x....#", 1);
        assert_eq!(
            bad.parse::<Board>(),
            Err(Error::BoardCharacter {
                line: 19,
                column: 5,
                character: 'x'
            })
        );
        assert!("..........\n".repeat(3).parse::<Board>().is_err());
        let crlf = text.replace('\n', "\r\n");
        assert_eq!(crlf.parse::<Board>().unwrap(), board);
    }

    #[test]
    fn json_form_is_an_array_of_row_strings() {
        let board = with_bottom(&["#........#"], 4);
        let json = serde_json::to_string(&board).unwrap();
        assert_eq!(
            json,
            r##"["..........","..........","..........","#........#"]"##
        );
        assert_eq!(serde_json::from_str::<Board>(&json).unwrap(), board);
        assert!(serde_json::from_str::<Board>(r#"["..."]"#).is_err());
    }

    #[test]
    fn a_console_board_keeps_cells_locked_on_the_hidden_rows_forever() {
        // docs/spec/rules.md console rule, docs/spec/nes-facts.md §1.5: rows −1 and −2 keep what locks there; they
        // collide, and are never cleared, shifted or drawn.
        let plain = with_bottom(&[".#########"; 3], 20);
        let console = plain.with_hidden_rows();
        assert!(console.keeps_hidden_rows() && !plain.keeps_hidden_rows());
        // A vertical I (cells (x, y−2)..(x, y+1)) in column 0 with its pivot on row 1 has a
        // cell on row −1 and its lowest on row 2; put a stack under it first.
        let fill_column_0 = |board: &mut Board| {
            for y in 3..17 {
                board.set(0, y);
            }
        };
        let (mut plain, mut console) = (plain, console);
        fill_column_0(&mut plain);
        fill_column_0(&mut console);
        let high_i = state(0, 1, 1);
        assert_eq!(plain.lock(Piece::I, high_i).cells_above_top, 1);
        let outcome = console.lock(Piece::I, high_i);
        assert_eq!(outcome.cells_above_top, 0);
        assert_eq!(console.hidden_rows(), 0b10, "(0, −1) is bit 2·0 + 1");
        assert_eq!(console.hidden_column(0), 0b10);
        assert_eq!(console.hidden_column(1), 0);
        // The field is the same on both, and so are the text forms: the hidden rows are not
        // drawn.
        assert_eq!(plain.to_string(), console.to_string());
        // The hidden cell collides: a vertical I in column 0 at pivot row 0 or 1 covers
        // (0, −1); on the plain board it is free.
        for y in [0, 1] {
            assert!(!console.fits(Piece::I, state(0, y, 1)));
        }
        assert!(plain.is_blocked(0, 0) && !plain.is_blocked(0, -1));
        assert!(console.is_blocked(0, -1) && !console.is_blocked(0, -2));
        assert!(!console.is_blocked(1, -1));
        // Rows above −2 are outside the console's field, and free on a plain board.
        assert!(console.is_blocked(5, -3) && !plain.is_blocked(5, -3));
        // Clearing rows moves the field down but never the hidden rows.
        let mut full_top = Board::standard().with_hidden_rows();
        for x in 1..10 {
            full_top.set(x, 0);
        }
        full_top.set(0, 2);
        let outcome = full_top.lock(Piece::I, state(0, 0, 1));
        // The I (resting on (0, 2)) fills (0, 0) and completes row 0; its cells on rows −2 and
        // −1 go to the hidden rows, which row 0's removal does not touch (row 0 comes in
        // empty, not from the hidden rows).
        assert_eq!(outcome.rows_cleared, 1);
        assert_eq!(full_top.hidden_column(0), 0b11);
        assert!(full_top.is_occupied(0, 1) && full_top.is_occupied(0, 2));
        assert!(!full_top.is_occupied(0, 0));
    }
}
