//! Reading what a user hands the arena besides options: board files and piece lists.

use std::path::Path;

use tetris_core::{Board, Piece};

use crate::error::ArenaError;

/// Reads a board file of exactly `height` rows: the text form (top row first, `#` occupied,
/// `.` empty) or, when the file starts with `[`, a JSON array of row strings. Errors name the
/// file and, for a bad row, its line (and column).
pub fn read_board(path: &Path, height: u8) -> Result<Board, ArenaError> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|error| ArenaError::io(&shown, &error))?;
    let bad_board = |message: String| ArenaError::Usage(format!("board file {shown}: {message}"));
    let rows: Vec<String> = if text.trim_start().starts_with('[') {
        serde_json::from_str(&text)
            .map_err(|error| bad_board(format!("not a JSON array of row strings: {error}")))?
    } else {
        // As `Board::from_str`: empty lines at the end do not count, every other line is a row.
        let mut lines: Vec<&str> = text.lines().collect();
        while lines.last().is_some_and(|line| line.trim().is_empty()) {
            lines.pop();
        }
        lines.into_iter().map(str::to_string).collect()
    };
    // The row count is checked against the height asked for before the rows are parsed, so
    // that a board of the wrong size is reported as such whatever its height.
    if rows.len() != height as usize {
        return Err(bad_board(format!(
            "board has {} rows, expected {height} (--board-height sets the field height)",
            rows.len()
        )));
    }
    Board::from_rows(&rows).map_err(|error| bad_board(error.to_string()))
}

/// Parses `--pieces`: piece letters (either case), optionally separated by commas or spaces.
pub fn parse_pieces(text: &str) -> Result<Vec<Piece>, ArenaError> {
    let mut pieces = Vec::new();
    for letter in text.chars() {
        if letter == ',' || letter.is_whitespace() {
            continue;
        }
        let piece = Piece::from_letter(letter.to_ascii_uppercase())
            .ok_or_else(|| tetris_core::Error::UnknownPiece(letter.to_string()))?;
        pieces.push(piece);
    }
    if pieces.is_empty() {
        return Err(ArenaError::Usage(
            "--pieces is empty: give the current piece first, e.g. --pieces T,J".into(),
        ));
    }
    Ok(pieces)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_parse_with_or_without_commas() {
        let expected = vec![Piece::T, Piece::J, Piece::I];
        assert_eq!(parse_pieces("T,J,I").unwrap(), expected);
        assert_eq!(parse_pieces("TJI").unwrap(), expected);
        assert_eq!(parse_pieces("t, j ,i").unwrap(), expected);
        assert!(parse_pieces("T,X").is_err());
        assert!(parse_pieces("").is_err());
        assert!(parse_pieces(" , ").is_err());
    }
}
