//! Reading what a user hands the arena in files besides options: board files, and the one
//! size-limited read every reader of the arena goes through ([`read_text`]).

use std::path::Path;

use tetris_core::Board;
use tetris_core::files::BOARD_FILE_LIMIT;

use crate::error::FileError;

/// The text of the file `path`, at most `limit` bytes ([`tetris_core::files::read_text`]):
/// a larger file is one line naming the file and the limit (`what` names the kind of file:
/// `replay g.json: larger than 256 MiB (the limit for a replay)`), a file that cannot be read
/// an [`FileError::Io`]. Every file the arena reads goes through it, so none (not even
/// `/dev/zero`) is read past its limit.
pub fn read_text(path: &Path, limit: u64, what: &str) -> Result<String, FileError> {
    tetris_core::files::read_text(path, limit, what).map_err(|error| match error {
        tetris_core::Error::Io {
            path,
            message,
            kind,
        } => FileError::Io {
            path,
            message,
            kind,
        },
        other => FileError::Core(other),
    })
}

/// Reads a board file (`-`: standard input) of exactly `height` rows: the text form (top row first, `#` occupied,
/// `.` empty) or, when the file starts with `[`, a JSON array of row strings. A UTF-8
/// byte-order mark at the start (as some Windows editors save) is skipped: it is no cell.
/// Errors name the file and, for a bad row, its line (and column). A file larger than
/// [`BOARD_FILE_LIMIT`] (1 MiB; a board of 32 rows is a few hundred bytes) is refused.
pub fn read_board(path: &Path, height: u8) -> Result<Board, FileError> {
    let from_stdin = path.as_os_str() == "-";
    let shown = match from_stdin {
        true => "standard input".to_string(),
        false => path.display().to_string(),
    };
    let text = match from_stdin {
        true => tetris_core::files::read_limited(
            std::io::stdin().lock(),
            None,
            &shown,
            BOARD_FILE_LIMIT,
            "board file",
        )
        .and_then(|bytes| tetris_core::files::text_of(bytes, &shown))
        .map_err(FileError::from)?,
        false => read_text(path, BOARD_FILE_LIMIT, "board file")?,
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let bad_board = |message: String| FileError::Refused(format!("board file {shown}: {message}"));
    let rows: Vec<String> = if text.trim_start().starts_with('[') {
        tetris_core::files::parse_json(text)
            .map_err(|error| bad_board(format!("not a JSON array of row strings: {error}")))?
    } else {
        // As `Board::from_str`: empty lines at the end do not count, every other line is a row.
        let mut lines: Vec<&str> = text.lines().collect();
        while lines.last().is_some_and(|line| line.trim().is_empty()) {
            lines.pop();
        }
        lines.into_iter().map(str::to_string).collect()
    };
    board_from_rows(&rows, height, &format!("board file {shown}"))
}

/// The board of `rows` (top row first, 10 `#`/`.` characters each), which must be exactly
/// `height` rows: a board file's, or a request's (`name` starts the messages: `board file
/// PATH`, or `board`).
pub fn board_from_rows(rows: &[String], height: u8, name: &str) -> Result<Board, FileError> {
    let bad_board = |message: String| FileError::Refused(format!("{name}: {message}"));
    // The row count is checked against the height asked for before the rows are parsed, so
    // that a board of the wrong size is reported as such whatever its height.
    if rows.len() != height as usize {
        return Err(FileError::BoardRows {
            board: name.to_string(),
            rows: row_count(rows.len()),
            height,
        });
    }
    Board::from_rows(rows).map_err(|error| bad_board(error.to_string()))
}

/// Why text is not the cells of a board ([`board_cells`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BadCells {
    /// Not `height` × 10 characters: how many there are.
    Length(usize),
    /// A character other than `0` and `1`: its 1-based position and itself.
    Character(usize, char),
}

/// The board of `cells`: `height` × 10 characters, `0` empty and `1` occupied, row by row from
/// the top (StackRabbit's board form, which the move server also takes). The one reader of
/// this form: the native API words its errors with [`board_from_cells`], StackRabbit's
/// endpoints with StackRabbit's texts.
pub fn board_cells(cells: &str, height: u8) -> Result<Board, BadCells> {
    let found = cells.chars().count();
    if found != usize::from(height) * tetris_core::BOARD_WIDTH {
        return Err(BadCells::Length(found));
    }
    let mut board = Board::new(usize::from(height)).map_err(|_| BadCells::Length(found))?;
    for (index, character) in cells.chars().enumerate() {
        match character {
            '0' => {}
            '1' => board.set(
                index % tetris_core::BOARD_WIDTH,
                index / tetris_core::BOARD_WIDTH,
            ),
            other => return Err(BadCells::Character(index + 1, other)),
        }
    }
    Ok(board)
}

/// [`board_cells`] with the messages of a request's `name` field.
pub fn board_from_cells(cells: &str, height: u8, name: &str) -> Result<Board, FileError> {
    board_cells(cells, height).map_err(|bad| {
        FileError::Refused(match bad {
            BadCells::Length(found) => format!(
                "{name}: {found} cells, expected {} (10 × {height}, top row first, 0 empty and \
                 1 occupied)",
                usize::from(height) * tetris_core::BOARD_WIDTH
            ),
            BadCells::Character(position, character) => format!(
                "{name}: cell {position} is {character:?}: cells are 0 (empty) or 1 (occupied)"
            ),
        })
    })
}

/// `1 row`, `N rows`.
pub fn row_count(rows: usize) -> String {
    match rows {
        1 => "1 row".to_string(),
        rows => format!("{rows} rows"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_files_may_start_with_a_byte_order_mark_and_say_1_row() {
        let folder = std::env::temp_dir().join(format!("arena-input-{}", std::process::id()));
        std::fs::create_dir_all(&folder).unwrap();
        let path = folder.join("board.txt");
        std::fs::write(
            &path,
            "\u{feff}..........\n.........#\n..........\n#.........\n",
        )
        .unwrap();
        let board = read_board(&path, 4).unwrap();
        assert_eq!(
            board,
            Board::from_rows(&["..........", ".........#", "..........", "#........."]).unwrap()
        );
        std::fs::write(&path, "..........\n").unwrap();
        assert_eq!(
            read_board(&path, 4).unwrap_err().to_string(),
            format!(
                "board file {}: board has 1 row, expected 4 (--board-height sets the field height)",
                path.display()
            )
        );
        std::fs::remove_dir_all(&folder).unwrap();
    }

    #[test]
    fn a_board_file_larger_than_its_limit_is_refused() {
        assert_eq!(
            read_board(Path::new("/dev/zero"), 20)
                .unwrap_err()
                .to_string(),
            "board file /dev/zero: larger than 1 MiB (the limit for a board file)"
        );
    }
}
