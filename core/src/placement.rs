//! Piece states, lock placements and the inputs that move a piece.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::board::Board;
use crate::piece::{CellOffset, Piece, SPAWN_X, SPAWN_Y};

/// Where a piece is: pivot column `x`, pivot row `y` (0 at the top) and rotation index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct PieceState {
    /// Pivot column, 0 at the left.
    pub x: i8,
    /// Pivot row, 0 at the top (negative above the field).
    pub y: i8,
    /// Rotation index into the piece's orientation table, 0 = spawn.
    pub rotation: u8,
}

impl PieceState {
    /// The spawn state of every piece: spawn orientation at pivot (5, 0).
    pub const SPAWN: PieceState = PieceState {
        x: SPAWN_X,
        y: SPAWN_Y,
        rotation: 0,
    };

    /// The same position one row lower (legality is not checked): where gravity or a drop
    /// takes the piece next.
    #[inline]
    pub const fn one_row_down(self) -> PieceState {
        PieceState {
            y: self.y + 1,
            ..self
        }
    }

    /// The state one input away, or `None` for inputs that do not move a piece by themselves
    /// (a per-frame button set). Legality is not checked.
    pub fn after(self, piece: Piece, input: Input) -> Option<PieceState> {
        let PieceState { x, y, rotation } = self;
        Some(match input {
            Input::Left => PieceState { x: x - 1, ..self },
            Input::Right => PieceState { x: x + 1, ..self },
            Input::Down => PieceState { y: y + 1, ..self },
            Input::RotateClockwise => PieceState {
                rotation: piece.clockwise(rotation),
                ..self
            },
            Input::RotateCounterclockwise => PieceState {
                rotation: piece.counterclockwise(rotation),
                ..self
            },
            Input::Frame(_) => return None,
        })
    }
}

impl fmt::Display for PieceState {
    /// `x 6 y 3 rotation 0`: the form the arena's messages use (its replay verifier names a
    /// state this way), so a state reads the same wherever it is printed.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "x {} y {} rotation {}", self.x, self.y, self.rotation)
    }
}

/// `cells` moved by (x, y): each `(dx, dy)` becomes `(x + dx, y + dy)`, with `i8` wrapping
/// arithmetic (valid placements never wrap).
///
/// Every searcher builds one placement per state it finds, so this runs once per placement:
/// the eight `i8` additions are done at once on the bytes packed in one `u64` (a byte-wise add
/// whose carries are kept from crossing bytes: add the low 7 bits of each byte, then set each
/// top bit to the XOR of the two top bits and the carry into it). Measured with callgrind,
/// that took 6.4 M instructions (5 %) off a 10,000-piece `column-drop+dellacherie` game.
#[inline(always)]
fn offset_cells(cells: [CellOffset; 4], x: i8, y: i8) -> [(i8, i8); 4] {
    const LOW_BITS: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    let pack = |pairs: [(i8, i8); 4]| {
        u64::from_le_bytes(
            pairs
                .map(|(a, b)| [a as u8, b as u8])
                .as_flattened()
                .try_into()
                .expect("8 bytes"),
        )
    };
    let offsets = pack(cells);
    let shift = pack([(x, y); 4]);
    let sum = ((offsets & LOW_BITS) + (shift & LOW_BITS)) ^ ((offsets ^ shift) & !LOW_BITS);
    let bytes = sum.to_le_bytes();
    std::array::from_fn(|k| (bytes[2 * k] as i8, bytes[2 * k + 1] as i8))
}

/// A piece locked in a state: what a searcher returns and an evaluator judges.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    /// The piece.
    pub piece: Piece,
    /// Pivot column.
    pub x: i8,
    /// Pivot row (0 at the top).
    pub y: i8,
    /// Rotation index, 0 = spawn orientation.
    pub rotation: u8,
    /// The four cells `(x, y)` the piece covers, in the orientation table's order (cells with
    /// `y < 0` lie above the field and are not stored when the piece locks).
    pub cells: [(i8, i8); 4],
}

impl Placement {
    /// The placement of `piece` in `state`.
    #[inline]
    pub fn new(piece: Piece, state: PieceState) -> Placement {
        let PieceState { x, y, rotation } = state;
        Placement {
            piece,
            x,
            y,
            rotation,
            cells: offset_cells(piece.cells(rotation), x, y),
        }
    }

    /// The pivot state.
    #[inline]
    pub fn state(&self) -> PieceState {
        PieceState {
            x: self.x,
            y: self.y,
            rotation: self.rotation,
        }
    }

    /// The cells sorted, so that two placements covering the same cells compare equal.
    pub fn sorted_cells(&self) -> [(i8, i8); 4] {
        let mut cells = self.cells;
        cells.sort_unstable();
        cells
    }

    /// How many rows further down the piece could fall, keeping its orientation, if every
    /// other occupied cell were removed: the orientation's lowest legal pivot row minus the
    /// pivot row (0 for a piece resting on the floor).
    #[inline]
    pub fn lock_height(&self, board_height: u8) -> u8 {
        (self.piece.lowest_pivot_row(self.rotation, board_height) - self.y) as u8
    }

    /// Whether this is a lock placement on `board`: legal, and one row down is not.
    pub fn is_lock_placement_on(&self, board: &Board) -> bool {
        let state = self.state();
        board.fits(self.piece, state) && !board.fits(self.piece, state.one_row_down())
    }
}

/// A set of gamepad buttons held during one frame (for the gravity-aware gamepad search).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Buttons(pub u8);

impl Buttons {
    /// No button.
    pub const NONE: Buttons = Buttons(0);
    /// D-pad left.
    pub const LEFT: Buttons = Buttons(1);
    /// D-pad right.
    pub const RIGHT: Buttons = Buttons(2);
    /// D-pad down (soft drop).
    pub const DOWN: Buttons = Buttons(4);
    /// A: rotate clockwise.
    pub const A: Buttons = Buttons(8);
    /// B: rotate counterclockwise.
    pub const B: Buttons = Buttons(16);

    /// Whether every button of `other` is held.
    pub const fn contains(self, other: Buttons) -> bool {
        self.0 & other.0 == other.0
    }

    /// Both sets held together.
    pub const fn with(self, other: Buttons) -> Buttons {
        Buttons(self.0 | other.0)
    }
}

/// One input of a path: a single move of the no-gravity searches, or the buttons held during
/// one frame for the gamepad search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Input {
    /// Move one column left.
    Left,
    /// Move one column right.
    Right,
    /// Move one row down.
    Down,
    /// Rotate one clockwise turn (A).
    RotateClockwise,
    /// Rotate one counterclockwise turn (B).
    RotateCounterclockwise,
    /// The buttons held during one frame.
    Frame(Buttons),
}

impl Input {
    /// A short name for text output: `L R D CW CCW`, or `F<bits>` for a frame.
    pub fn short_name(self) -> String {
        match self {
            Input::Left => "L".into(),
            Input::Right => "R".into(),
            Input::Down => "D".into(),
            Input::RotateClockwise => "CW".into(),
            Input::RotateCounterclockwise => "CCW".into(),
            Input::Frame(buttons) => format!("F{}", buttons.0),
        }
    }

    /// The buttons of a one-frame step, `None` for a step that is not one frame (the paths
    /// of gravity-aware searchers are frames only).
    #[inline]
    pub fn frame(self) -> Option<Buttons> {
        match self {
            Input::Frame(buttons) => Some(buttons),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_cell_offsets_are_eight_separate_additions() {
        // Every orientation moved to every pivot a search or a test uses (and beyond: the
        // byte-wise add must wrap each byte as `i8` does and never carry into its neighbour,
        // e.g. −1 + 0 and −2 + 127).
        for piece in Piece::ALL {
            for rotation in 0..piece.orientation_count() {
                for x in (-10i8..=40).chain([-128, -127, 126, 127]) {
                    for y in (-10i8..=40).chain([-128, 127]) {
                        let expected = piece
                            .cells(rotation)
                            .map(|(dx, dy)| (x.wrapping_add(dx), y.wrapping_add(dy)));
                        assert_eq!(
                            offset_cells(piece.cells(rotation), x, y),
                            expected,
                            "{piece} rotation {rotation} at ({x}, {y})"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn cells_and_lock_height() {
        let placement = Placement::new(
            Piece::T,
            PieceState {
                x: 5,
                y: 18,
                rotation: 0,
            },
        );
        assert_eq!(placement.cells, [(4, 18), (5, 18), (6, 18), (5, 19)]);
        assert_eq!(placement.lock_height(20), 0);
        assert!(placement.is_lock_placement_on(&Board::standard()));
        let high = Placement::new(
            Piece::I,
            PieceState {
                x: 5,
                y: 10,
                rotation: 1,
            },
        );
        assert_eq!(high.lock_height(20), 8);
        assert!(!high.is_lock_placement_on(&Board::standard()));
    }

    #[test]
    fn states_print_as_the_arena_names_them() {
        let state = PieceState {
            x: 6,
            y: 3,
            rotation: 0,
        };
        assert_eq!(state.to_string(), "x 6 y 3 rotation 0");
        let above = PieceState {
            x: 0,
            y: -1,
            rotation: 3,
        };
        assert_eq!(above.to_string(), "x 0 y -1 rotation 3");
    }

    #[test]
    fn inputs_move_states() {
        let spawn = PieceState::SPAWN;
        assert_eq!(spawn.after(Piece::T, Input::Left).unwrap().x, 4);
        assert_eq!(spawn.after(Piece::T, Input::Down).unwrap().y, 1);
        assert_eq!(
            spawn
                .after(Piece::T, Input::RotateCounterclockwise)
                .unwrap()
                .rotation,
            3
        );
        assert_eq!(
            spawn
                .after(Piece::I, Input::RotateClockwise)
                .unwrap()
                .rotation,
            1
        );
        assert_eq!(spawn.after(Piece::I, Input::Frame(Buttons::A)), None);
    }
}
