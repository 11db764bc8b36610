//! The seven tetrominoes with the NES orientation table (docs/spec/rules.md, "Pieces and orientations").
//!
//! Cells are `(dx, dy)` offsets from the pivot, `+x` right and `+y` DOWN. Rotation index 0 is
//! the spawn orientation; index + 1 is one clockwise turn (the A button), index − 1 one
//! counterclockwise turn (B), wrapping within the piece's orientation count. Z, S and I have two
//! orientations (both buttons toggle), O has one.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::error::Error;
use crate::placement::Input;

/// One cell offset `(dx, dy)` from the pivot: `+x` right, `+y` down.
pub type CellOffset = (i8, i8);

/// A tetromino, numbered in the NES order used in files and output: T=0, J=1, Z=2, O=3, S=4,
/// L=5, I=6.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Piece {
    /// T, index 0.
    T = 0,
    /// J, index 1.
    J = 1,
    /// Z, index 2.
    Z = 2,
    /// O, index 3.
    O = 3,
    /// S, index 4.
    S = 4,
    /// L, index 5.
    L = 5,
    /// I, index 6.
    I = 6,
}

/// The spawn pivot column of every piece.
pub const SPAWN_X: i8 = 5;
/// The spawn pivot row of every piece.
pub const SPAWN_Y: i8 = 0;

/// The orientation table of docs/spec/rules.md, indexed `[piece][rotation]`; rows past a piece's
/// orientation count repeat rotation 0 and are never read.
const ORIENTATIONS: [[[CellOffset; 4]; 4]; 7] = [
    // T
    [
        [(-1, 0), (0, 0), (1, 0), (0, 1)],
        [(0, -1), (-1, 0), (0, 0), (0, 1)],
        [(-1, 0), (0, 0), (1, 0), (0, -1)],
        [(0, -1), (0, 0), (1, 0), (0, 1)],
    ],
    // J
    [
        [(-1, 0), (0, 0), (1, 0), (1, 1)],
        [(0, -1), (0, 0), (-1, 1), (0, 1)],
        [(-1, -1), (-1, 0), (0, 0), (1, 0)],
        [(0, -1), (1, -1), (0, 0), (0, 1)],
    ],
    // Z
    [
        [(-1, 0), (0, 0), (0, 1), (1, 1)],
        [(1, -1), (0, 0), (1, 0), (0, 1)],
        [(-1, 0), (0, 0), (0, 1), (1, 1)],
        [(-1, 0), (0, 0), (0, 1), (1, 1)],
    ],
    // O
    [
        [(-1, 0), (0, 0), (-1, 1), (0, 1)],
        [(-1, 0), (0, 0), (-1, 1), (0, 1)],
        [(-1, 0), (0, 0), (-1, 1), (0, 1)],
        [(-1, 0), (0, 0), (-1, 1), (0, 1)],
    ],
    // S
    [
        [(0, 0), (1, 0), (-1, 1), (0, 1)],
        [(0, -1), (0, 0), (1, 0), (1, 1)],
        [(0, 0), (1, 0), (-1, 1), (0, 1)],
        [(0, 0), (1, 0), (-1, 1), (0, 1)],
    ],
    // L
    [
        [(-1, 0), (0, 0), (1, 0), (-1, 1)],
        [(-1, -1), (0, -1), (0, 0), (0, 1)],
        [(1, -1), (-1, 0), (0, 0), (1, 0)],
        [(0, -1), (0, 0), (0, 1), (1, 1)],
    ],
    // I
    [
        [(-2, 0), (-1, 0), (0, 0), (1, 0)],
        [(0, -2), (0, -1), (0, 0), (0, 1)],
        [(-2, 0), (-1, 0), (0, 0), (1, 0)],
        [(-2, 0), (-1, 0), (0, 0), (1, 0)],
    ],
];

/// How many distinct orientations each piece has, indexed by piece.
const ORIENTATION_COUNTS: [u8; 7] = [4, 4, 2, 1, 2, 4, 2];

/// The NES orientation id of each piece's spawn orientation (the randomizer adds it on a
/// reroll): T 2, J 7, Z 8, O 10, S 11, L 14, I 18.
const NES_SPAWN_IDS: [u8; 7] = [0x02, 0x07, 0x08, 0x0A, 0x0B, 0x0E, 0x12];

/// The NES orientation ids of every rotation index, `[piece][rotation]` (unused slots repeat).
const NES_ORIENTATION_IDS: [[u8; 4]; 7] = [
    [0x02, 0x03, 0x00, 0x01],
    [0x07, 0x04, 0x05, 0x06],
    [0x08, 0x09, 0x08, 0x08],
    [0x0A, 0x0A, 0x0A, 0x0A],
    [0x0B, 0x0C, 0x0B, 0x0B],
    [0x0E, 0x0F, 0x10, 0x0D],
    [0x12, 0x11, 0x12, 0x12],
];

/// Smallest and largest `dy` of each orientation, computed at compile time from the table.
const VERTICAL_EXTENTS: [[(i8, i8); 4]; 7] = {
    let mut extents = [[(0i8, 0i8); 4]; 7];
    let mut piece = 0;
    while piece < 7 {
        let mut rotation = 0;
        while rotation < 4 {
            let cells = ORIENTATIONS[piece][rotation];
            let mut top = cells[0].1;
            let mut bottom = cells[0].1;
            let mut i = 1;
            while i < 4 {
                if cells[i].1 < top {
                    top = cells[i].1;
                }
                if cells[i].1 > bottom {
                    bottom = cells[i].1;
                }
                i += 1;
            }
            extents[piece][rotation] = (top, bottom);
            rotation += 1;
        }
        piece += 1;
    }
    extents
};

/// What a straight drop needs of one orientation ([`Piece::footprint`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Footprint {
    /// `(dx, largest dy)` for each distinct column offset of the cells, in the order the
    /// orientation table first names them: the lowest cell of each column, the only one that
    /// can meet the stack when the piece drops straight down. The first `count` are used.
    pub columns: [CellOffset; 4],
    /// How many columns the orientation covers (1 to 4).
    pub count: u8,
    /// The leftmost pivot column inside the walls, −(smallest dx).
    pub first_x: i8,
    /// The rightmost pivot column inside the walls, 9 − (largest dx).
    pub last_x: i8,
}

impl Footprint {
    /// The used `(dx, largest dy)` entries.
    #[inline]
    pub fn column_bottoms(&self) -> &[CellOffset] {
        &self.columns[..self.count as usize]
    }
}

/// Footprints of every piece and rotation, indexed `[piece][rotation]`, built at compile time
/// from the orientation table (rotations a piece does not have repeat rotation 0's cells).
const FOOTPRINTS: [[Footprint; 4]; 7] = {
    let empty = Footprint {
        columns: [(0, 0); 4],
        count: 0,
        first_x: 0,
        last_x: 0,
    };
    let mut table = [[empty; 4]; 7];
    let mut piece = 0;
    while piece < 7 {
        let mut rotation = 0;
        while rotation < 4 {
            let cells = ORIENTATIONS[piece][rotation];
            let mut footprint = empty;
            let (mut dx_min, mut dx_max) = (i8::MAX, i8::MIN);
            let mut cell = 0;
            while cell < 4 {
                let (dx, dy) = cells[cell];
                if dx < dx_min {
                    dx_min = dx;
                }
                if dx > dx_max {
                    dx_max = dx;
                }
                let mut slot = 0;
                while slot < footprint.count as usize && footprint.columns[slot].0 != dx {
                    slot += 1;
                }
                if slot == footprint.count as usize {
                    footprint.columns[slot] = (dx, dy);
                    footprint.count += 1;
                } else if dy > footprint.columns[slot].1 {
                    footprint.columns[slot].1 = dy;
                }
                cell += 1;
            }
            footprint.first_x = -dx_min;
            footprint.last_x = 9 - dx_max;
            table[piece][rotation] = footprint;
            rotation += 1;
        }
        piece += 1;
    }
    table
};

impl Piece {
    /// All seven pieces in index order.
    pub const ALL: [Piece; 7] = [
        Piece::T,
        Piece::J,
        Piece::Z,
        Piece::O,
        Piece::S,
        Piece::L,
        Piece::I,
    ];

    /// The piece with this index (T=0 … I=6), or `None` for 7 and above.
    pub const fn from_index(index: u8) -> Option<Piece> {
        if index < 7 {
            Some(Piece::ALL[index as usize])
        } else {
            None
        }
    }

    /// This piece's index, T=0 … I=6.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The piece's letter: `T J Z O S L I`.
    pub const fn letter(self) -> char {
        match self {
            Piece::T => 'T',
            Piece::J => 'J',
            Piece::Z => 'Z',
            Piece::O => 'O',
            Piece::S => 'S',
            Piece::L => 'L',
            Piece::I => 'I',
        }
    }

    /// The piece named by an upper-case letter, or `None`.
    pub const fn from_letter(letter: char) -> Option<Piece> {
        match letter {
            'T' => Some(Piece::T),
            'J' => Some(Piece::J),
            'Z' => Some(Piece::Z),
            'O' => Some(Piece::O),
            'S' => Some(Piece::S),
            'L' => Some(Piece::L),
            'I' => Some(Piece::I),
            _ => None,
        }
    }

    /// How many distinct orientations the piece has: 4 for T, J, L; 2 for Z, S, I; 1 for O.
    pub const fn orientation_count(self) -> u8 {
        ORIENTATION_COUNTS[self as usize]
    }

    /// The four cell offsets of `rotation` (which must be below [`Piece::orientation_count`]).
    #[inline]
    pub const fn cells(self, rotation: u8) -> [CellOffset; 4] {
        ORIENTATIONS[self as usize][rotation as usize]
    }

    /// The rotation index one clockwise turn (A) from `rotation`, wrapping.
    #[inline]
    pub const fn clockwise(self, rotation: u8) -> u8 {
        let next = rotation + 1;
        if next >= self.orientation_count() {
            0
        } else {
            next
        }
    }

    /// The rotation index one counterclockwise turn (B) from `rotation`, wrapping.
    #[inline]
    pub const fn counterclockwise(self, rotation: u8) -> u8 {
        if rotation == 0 {
            self.orientation_count() - 1
        } else {
            rotation - 1
        }
    }

    /// `(smallest dy, largest dy)` of the orientation's cells: how far it reaches above and
    /// below its pivot.
    #[inline]
    pub const fn vertical_extent(self, rotation: u8) -> (i8, i8) {
        VERTICAL_EXTENTS[self as usize][rotation as usize]
    }

    /// Height of the orientation in rows (1 for a flat I, 4 for a vertical I).
    #[inline]
    pub const fn height_in_rows(self, rotation: u8) -> u8 {
        let (top, bottom) = self.vertical_extent(rotation);
        (bottom - top + 1) as u8
    }

    /// The lowest legal pivot row of the orientation on an empty field `board_height` rows
    /// tall: the row where its lowest cell rests on the floor. Lock height is this minus the
    /// pivot row.
    #[inline]
    pub const fn lowest_pivot_row(self, rotation: u8, board_height: u8) -> i8 {
        board_height as i8 - 1 - self.vertical_extent(rotation).1
    }

    /// The orientation's footprint: the lowest cell of each column it covers and the pivot
    /// columns where it fits between the walls (what a straight drop needs).
    #[inline]
    pub const fn footprint(self, rotation: u8) -> Footprint {
        FOOTPRINTS[self as usize][rotation as usize]
    }

    /// The fewest rotation presses that turn the spawn orientation into `rotation`, each
    /// orientation on the way included: 4 orientations — 1 by one clockwise press (A), 2 by
    /// two clockwise presses (through 1), 3 by one counterclockwise press (B); Z, S and I — 1
    /// by one clockwise press (both buttons toggle); O — none.
    pub fn rotation_presses(self, rotation: u8) -> &'static [Input] {
        const PRESSES_FOUR: [&[Input]; 4] = [
            &[],
            &[Input::RotateClockwise],
            &[Input::RotateClockwise, Input::RotateClockwise],
            &[Input::RotateCounterclockwise],
        ];
        const PRESSES_TWO: [&[Input]; 2] = [&[], &[Input::RotateClockwise]];
        match self.orientation_count() {
            4 => PRESSES_FOUR[rotation as usize],
            2 => PRESSES_TWO[rotation as usize],
            _ => &[],
        }
    }

    /// The NES orientation id of the spawn orientation (T 2, J 7, Z 8, O 10, S 11, L 14,
    /// I 18), which the NES randomizer adds when it rerolls.
    pub const fn nes_spawn_id(self) -> u8 {
        NES_SPAWN_IDS[self as usize]
    }

    /// The NES orientation id (0x00–0x12) of a rotation index.
    pub const fn nes_orientation_id(self, rotation: u8) -> u8 {
        NES_ORIENTATION_IDS[self as usize][rotation as usize]
    }

    /// The piece whose spawn orientation has this NES orientation id, if any.
    pub fn from_nes_spawn_id(id: u8) -> Option<Piece> {
        Piece::ALL
            .into_iter()
            .find(|piece| piece.nes_spawn_id() == id)
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

impl FromStr for Piece {
    type Err = Error;

    /// Parses one letter of `T J Z O S L I` (lower case accepted).
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let mut chars = text.trim().chars();
        match (chars.next(), chars.next()) {
            (Some(letter), None) => Piece::from_letter(letter.to_ascii_uppercase())
                .ok_or_else(|| Error::UnknownPiece(text.to_string())),
            _ => Err(Error::UnknownPiece(text.to_string())),
        }
    }
}

impl Serialize for Piece {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_char(self.letter())
    }
}

impl<'de> Deserialize<'de> for Piece {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn footprints_give_each_columns_lowest_cell_and_the_walls() {
        // By hand from docs/spec/rules.md's table. T rotation 0, (-1,0) (0,0) (1,0) (0,1): columns -1,
        // 0, 1 with lowest dy 0, 1, 0; pivot x from 1 to 8.
        let t = Piece::T.footprint(0);
        assert_eq!(t.column_bottoms(), [(-1, 0), (0, 1), (1, 0)]);
        assert_eq!((t.first_x, t.last_x), (1, 8));
        // J rotation 3, (0,-1) (1,-1) (0,0) (0,1): column 0 down to dy 1, column 1 only -1.
        let j = Piece::J.footprint(3);
        assert_eq!(j.column_bottoms(), [(0, 1), (1, -1)]);
        assert_eq!((j.first_x, j.last_x), (0, 8));
        // I vertical: one column, lowest dy 1, any pivot column; I flat spans -2..1: x 2..8.
        let vertical = Piece::I.footprint(1);
        assert_eq!(vertical.column_bottoms(), [(0, 1)]);
        assert_eq!((vertical.first_x, vertical.last_x), (0, 9));
        assert_eq!(
            (Piece::I.footprint(0).first_x, Piece::I.footprint(0).last_x),
            (2, 8)
        );
    }

    #[test]
    fn rotation_presses_are_the_fewest_and_reach_the_rotation() {
        use crate::placement::Input::{RotateClockwise as A, RotateCounterclockwise as B};
        assert_eq!(Piece::T.rotation_presses(0), []);
        assert_eq!(Piece::T.rotation_presses(1), [A]);
        assert_eq!(Piece::L.rotation_presses(2), [A, A]);
        assert_eq!(Piece::J.rotation_presses(3), [B]);
        assert_eq!(Piece::S.rotation_presses(1), [A]);
        assert_eq!(Piece::O.rotation_presses(0), []);
        for piece in Piece::ALL {
            for rotation in 0..piece.orientation_count() {
                let reached = piece
                    .rotation_presses(rotation)
                    .iter()
                    .fold(0, |current, input| match input {
                        A => piece.clockwise(current),
                        _ => piece.counterclockwise(current),
                    });
                assert_eq!(reached, rotation, "{piece} {rotation}");
            }
        }
    }

    fn sorted(mut cells: [CellOffset; 4]) -> [CellOffset; 4] {
        cells.sort();
        cells
    }

    #[test]
    fn orientation_test_vectors_from_rules() {
        assert_eq!(
            sorted(Piece::J.cells(3)),
            sorted([(0, -1), (1, -1), (0, 0), (0, 1)])
        );
        assert_eq!(
            sorted(Piece::L.cells(2)),
            sorted([(1, -1), (-1, 0), (0, 0), (1, 0)])
        );
        assert_eq!(
            sorted(Piece::I.cells(1)),
            sorted([(0, -2), (0, -1), (0, 0), (0, 1)])
        );
        assert_eq!(
            sorted(Piece::Z.cells(1)),
            sorted([(1, -1), (0, 0), (1, 0), (0, 1)])
        );
        // docs/spec/nes-facts.md §8: T spawn and S spawn.
        assert_eq!(
            sorted(Piece::T.cells(0)),
            sorted([(-1, 0), (0, 0), (1, 0), (0, 1)])
        );
        assert_eq!(
            sorted(Piece::S.cells(0)),
            sorted([(0, 0), (1, 0), (-1, 1), (0, 1)])
        );
    }

    #[test]
    fn rotation_steps_from_rules() {
        assert_eq!(Piece::T.clockwise(0), 1);
        assert_eq!(Piece::T.counterclockwise(0), 3);
        // Two-orientation pieces toggle with either button; O stays.
        for piece in [Piece::Z, Piece::S, Piece::I] {
            assert_eq!(piece.clockwise(0), 1);
            assert_eq!(piece.counterclockwise(0), 1);
            assert_eq!(piece.clockwise(1), 0);
        }
        assert_eq!(Piece::O.clockwise(0), 0);
        assert_eq!(Piece::O.counterclockwise(0), 0);
        // The NES ids move as docs/spec/nes-facts.md §1.3 says: A from T 0x02 → 0x03, B → 0x01,
        // A from J 0x07 → 0x04, A from L 0x0E → 0x0F, B from L 0x0E → 0x0D, I 0x12 ↔ 0x11.
        assert_eq!(Piece::T.nes_orientation_id(Piece::T.clockwise(0)), 0x03);
        assert_eq!(
            Piece::T.nes_orientation_id(Piece::T.counterclockwise(0)),
            0x01
        );
        assert_eq!(Piece::J.nes_orientation_id(Piece::J.clockwise(0)), 0x04);
        assert_eq!(Piece::L.nes_orientation_id(Piece::L.clockwise(0)), 0x0F);
        assert_eq!(
            Piece::L.nes_orientation_id(Piece::L.counterclockwise(0)),
            0x0D
        );
        assert_eq!(Piece::I.nes_orientation_id(Piece::I.clockwise(0)), 0x11);
    }

    #[test]
    fn clockwise_turns_rotate_cells_by_a_right_angle_for_t_j_l() {
        // A clockwise quarter turn with +y down maps (dx, dy) to (-dy, dx).
        for piece in [Piece::T, Piece::J, Piece::L] {
            for rotation in 0..4 {
                let turned = piece.cells(rotation).map(|(dx, dy)| (-dy, dx));
                assert_eq!(
                    sorted(turned),
                    sorted(piece.cells(piece.clockwise(rotation))),
                    "{piece} rotation {rotation}"
                );
            }
        }
    }

    #[test]
    fn spawn_cells_from_rules() {
        let spawn =
            |piece: Piece| sorted(piece.cells(0).map(|(dx, dy)| (SPAWN_X + dx, SPAWN_Y + dy)));
        assert_eq!(spawn(Piece::T), sorted([(4, 0), (5, 0), (6, 0), (5, 1)]));
        assert_eq!(spawn(Piece::I), sorted([(3, 0), (4, 0), (5, 0), (6, 0)]));
        assert_eq!(spawn(Piece::O), sorted([(4, 0), (5, 0), (4, 1), (5, 1)]));
    }

    #[test]
    fn letters_and_indices_round_trip() {
        for (index, piece) in Piece::ALL.into_iter().enumerate() {
            assert_eq!(piece.index(), index);
            assert_eq!(Piece::from_index(index as u8), Some(piece));
            assert_eq!(piece.letter().to_string().parse::<Piece>().unwrap(), piece);
            assert_eq!(Piece::from_nes_spawn_id(piece.nes_spawn_id()), Some(piece));
        }
        assert_eq!(
            "TJZOSLI"
                .chars()
                .map(|c| Piece::from_letter(c).unwrap().index())
                .collect::<Vec<_>>(),
            vec![0, 1, 2, 3, 4, 5, 6]
        );
        assert!("X".parse::<Piece>().is_err());
        assert!("TJ".parse::<Piece>().is_err());
        assert_eq!(Piece::from_index(7), None);
    }

    #[test]
    fn lowest_pivot_rows_on_a_20_row_field() {
        assert_eq!(Piece::I.lowest_pivot_row(0, 20), 19);
        assert_eq!(Piece::I.lowest_pivot_row(1, 20), 18);
        assert_eq!(Piece::T.lowest_pivot_row(0, 20), 18);
        assert_eq!(Piece::T.lowest_pivot_row(2, 20), 19);
        assert_eq!(Piece::O.lowest_pivot_row(0, 10), 8);
        assert_eq!(Piece::I.height_in_rows(1), 4);
        assert_eq!(Piece::O.height_in_rows(0), 2);
    }
}
