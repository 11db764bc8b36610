//! The one placement record every result, replay and report uses, and the text forms of input
//! paths and piece sequences.

use serde::{Deserialize, Serialize};
use tetris_core::{BOARD_WIDTH, Input, Piece, PieceState, Placement};

use crate::sim::evaluation::Evaluation;

/// One placement a strategy played: `{"piece","x","y","rotation","cleared"}` and, when
/// recorded, `"path"` (see [`format_path`]) and `"evaluation"` (see [`Evaluation`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "api", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct PlayedPlacement {
    /// The piece.
    #[cfg_attr(feature = "api", schema(value_type = String))]
    pub piece: Piece,
    /// Pivot column.
    pub x: i8,
    /// Pivot row (0 at the top).
    pub y: i8,
    /// Rotation index (0 = spawn).
    pub rotation: u8,
    /// Rows this placement cleared.
    pub cleared: u8,
    /// The input path from the spawn state to the lock state, when recorded.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "path_text")]
    #[cfg_attr(feature = "api", schema(value_type = Option<String>))]
    pub path: Option<Vec<Input>>,
    /// The evaluator's cost and features of the chain behind the choice, when recorded
    /// (`arena play --features`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "api", schema(value_type = Option<Object>))]
    pub evaluation: Option<Evaluation>,
}

impl PlayedPlacement {
    /// The record of `placement`, which cleared `cleared` rows, with its input path if any.
    pub fn new(placement: &Placement, cleared: u8, path: Option<Vec<Input>>) -> PlayedPlacement {
        PlayedPlacement {
            piece: placement.piece,
            x: placement.x,
            y: placement.y,
            rotation: placement.rotation,
            cleared,
            path,
            evaluation: None,
        }
    }

    /// The pivot state.
    pub fn state(&self) -> PieceState {
        PieceState {
            x: self.x,
            y: self.y,
            rotation: self.rotation,
        }
    }

    /// The same placement without its path and evaluation (the contract's placement).
    pub fn without_path(&self) -> PlayedPlacement {
        PlayedPlacement {
            path: None,
            evaluation: None,
            ..self.clone()
        }
    }
}

/// A placement as a game observer sees it: where the piece locked and the rows it cleared
/// (what `--watch` highlights).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LastPlacement {
    /// The piece.
    pub piece: Piece,
    /// Where it locked.
    pub state: PieceState,
    /// The rows the lock removed, as a mask of their indices before the clear (bit `y` =
    /// row `y`), as in `LockOutcome::cleared_rows`.
    pub cleared_rows: u32,
}

impl LastPlacement {
    /// The placed piece's cells that are still on the board after the clear, as column masks
    /// in the board's layout (bit `y` of entry `x` = cell `(x, y)`).
    ///
    /// A cell above row 0 was never stored and a cell in a cleared row is gone; any other cell
    /// at row `y` moved down one row for every cleared row below it (index greater than `y`).
    pub fn highlight(&self) -> [u32; BOARD_WIDTH] {
        let mut columns = [0u32; BOARD_WIDTH];
        let PieceState { x, y, rotation } = self.state;
        for (dx, dy) in self.piece.cells(rotation) {
            let (column, row) = (i32::from(x + dx), i32::from(y + dy));
            if row < 0 || !(0..BOARD_WIDTH as i32).contains(&column) {
                continue;
            }
            if self.cleared_rows >> row & 1 != 0 {
                continue;
            }
            let below = (u64::from(self.cleared_rows) >> (row + 1)).count_ones();
            columns[column as usize] |= 1 << (row as u32 + below);
        }
        columns
    }
}

/// A path as text: the inputs' short names (`L R D CW CCW F<n>`) separated by spaces.
pub fn format_path(path: &[Input]) -> String {
    let names: Vec<String> = path.iter().map(|input| input.short_name()).collect();
    names.join(" ")
}

/// Parses the text form of a path (see [`format_path`]); any white space separates inputs.
pub fn parse_path(text: &str) -> Result<Vec<Input>, String> {
    text.split_whitespace()
        .map(|name| match name {
            "L" => Ok(Input::Left),
            "R" => Ok(Input::Right),
            "D" => Ok(Input::Down),
            "CW" => Ok(Input::RotateClockwise),
            "CCW" => Ok(Input::RotateCounterclockwise),
            _ => name
                .strip_prefix('F')
                .and_then(|bits| bits.parse::<u8>().ok())
                .map(|bits| Input::Frame(tetris_core::Buttons(bits)))
                .ok_or_else(|| format!("unknown input {name:?} (valid: L R D CW CCW F<buttons>)")),
        })
        .collect()
}

/// Serde form of an optional path: one string (see [`format_path`]).
mod path_text {
    use serde::{Deserialize, Deserializer, Serializer};
    use tetris_core::Input;

    pub fn serialize<S: Serializer>(
        path: &Option<Vec<Input>>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        match path {
            Some(path) => serializer.serialize_str(&super::format_path(path)),
            None => serializer.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<Vec<Input>>, D::Error> {
        let text = String::deserialize(deserializer)?;
        super::parse_path(&text)
            .map(Some)
            .map_err(serde::de::Error::custom)
    }
}

/// Serde form of a piece sequence: one string of letters `T J Z O S L I`.
pub mod piece_letters {
    use serde::{Deserialize, Deserializer, Serializer};
    use tetris_core::Piece;

    /// Writes the pieces as one string of letters.
    pub fn serialize<S: Serializer>(pieces: &[Piece], serializer: S) -> Result<S::Ok, S::Error> {
        let letters: String = pieces.iter().map(|piece| piece.letter()).collect();
        serializer.serialize_str(&letters)
    }

    /// Reads one string of letters; any other character is an error naming its position.
    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<Piece>, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.chars()
            .enumerate()
            .map(|(index, letter)| {
                Piece::from_letter(letter).ok_or_else(|| {
                    serde::de::Error::custom(format!(
                        "pieces: character {} is {letter:?}, not a piece letter (T J Z O S L I)",
                        index + 1
                    ))
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_round_trip_through_text() {
        let path = vec![
            Input::RotateCounterclockwise,
            Input::Left,
            Input::Right,
            Input::Down,
            Input::RotateClockwise,
            Input::Frame(tetris_core::Buttons(9)),
        ];
        assert_eq!(format_path(&path), "CCW L R D CW F9");
        assert_eq!(parse_path("CCW L R D CW F9").unwrap(), path);
        assert_eq!(parse_path("  ").unwrap(), Vec::<Input>::new());
        assert!(parse_path("L X").is_err());
        assert!(parse_path("F256").is_err());
    }

    #[test]
    fn a_placement_writes_its_path_only_when_it_has_one() {
        let mut placement = PlayedPlacement {
            piece: Piece::O,
            x: 9,
            y: 2,
            rotation: 0,
            cleared: 1,
            path: Some(parse_path("R R D").unwrap()),
            evaluation: None,
        };
        let text = serde_json::to_string(&placement).unwrap();
        assert_eq!(
            text,
            r#"{"piece":"O","x":9,"y":2,"rotation":0,"cleared":1,"path":"R R D"}"#
        );
        assert_eq!(
            serde_json::from_str::<PlayedPlacement>(&text).unwrap(),
            placement
        );
        placement = placement.without_path();
        assert_eq!(
            serde_json::to_string(&placement).unwrap(),
            r#"{"piece":"O","x":9,"y":2,"rotation":0,"cleared":1}"#
        );
    }
}
