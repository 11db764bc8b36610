//! Drawing a board in the terminal, for `arena play --watch` and `arena replay --watch`.
//!
//! A frame is a header (strategy, pieces, lines, score, level), the upcoming pieces, the last
//! placement, and the board with that placement's cells highlighted where they still are after
//! its rows cleared. On a terminal ([`Style::Terminal`]) each frame overwrites the previous one
//! (ANSI cursor-home and clear-to-end escapes) and the placed piece is drawn in colour. When
//! stdout is not a terminal ([`Style::Plain`]) the frames are printed one after another,
//! separated by a blank line, with `#` for occupied cells, `@` for the placed piece's cells and
//! `.` for empty ones, and no escape codes, so a watched game can be piped to a file or a pager.

use std::io::{IsTerminal, Write};
use std::time::Duration;

use web_time::Instant;

use tetris_core::{BOARD_WIDTH, Board, Piece};

use crate::error::ReportError;
use tetris_arena_games::sim::placement::LastPlacement;

/// The `--speed` of `--watch` when none is given, in pieces per second.
pub const DEFAULT_SPEED: f64 = 10.0;

/// How frames are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Frames overwrite each other in place, blocks and colour (ANSI escapes).
    Terminal,
    /// Frames follow each other, `#`/`@`/`.` characters, no escapes.
    Plain,
}

impl Style {
    /// [`Style::Terminal`] when stdout is a terminal, [`Style::Plain`] otherwise.
    pub fn for_stdout() -> Style {
        if std::io::stdout().is_terminal() {
            Style::Terminal
        } else {
            Style::Plain
        }
    }
}

/// Everything one frame shows.
#[derive(Clone, Copy, Debug)]
pub struct Frame<'a> {
    /// The first header item, e.g. the strategy's name.
    pub title: &'a str,
    /// The board after the last placement and its clears.
    pub board: &'a Board,
    /// The last placement, highlighted on the board (`None` before the first).
    pub last: Option<LastPlacement>,
    /// Pieces placed so far.
    pub pieces: u64,
    /// Rows cleared so far.
    pub lines: u64,
    /// NES score so far.
    pub score: u32,
    /// The level now: the one the score counts from.
    pub level: u8,
    /// The pieces that come next, the next current piece first.
    pub upcoming: &'a [Piece],
}

/// Draws one frame as text (without the escapes that position it; see [`Watcher`]).
pub fn render(frame: &Frame<'_>, style: Style) -> String {
    let mut text = String::new();
    text.push_str(&format!(
        "{} | pieces {} | lines {} | score {} | level {}\n",
        frame.title, frame.pieces, frame.lines, frame.score, frame.level
    ));
    let upcoming: Vec<String> = frame.upcoming.iter().map(Piece::to_string).collect();
    text.push_str(&format!(
        "next: {}\n",
        if upcoming.is_empty() {
            "-".to_string()
        } else {
            upcoming.join(" ")
        }
    ));
    match frame.last {
        Some(last) => text.push_str(&format!(
            "placed {} x {} y {} rotation {}, cleared {}\n",
            last.piece,
            last.state.x,
            last.state.y,
            last.state.rotation,
            last.cleared_rows.count_ones()
        )),
        None => text.push_str("placed -\n"),
    }
    let highlight = frame.last.map_or([0; BOARD_WIDTH], |last| last.highlight());
    let cell_width = match style {
        Style::Terminal => 2,
        Style::Plain => 1,
    };
    let border = format!("+{}+\n", "-".repeat(BOARD_WIDTH * cell_width));
    for y in 0..frame.board.height() as usize {
        text.push('|');
        for (x, highlighted) in highlight.iter().enumerate() {
            let placed = highlighted >> y & 1 != 0;
            let occupied = frame.board.is_occupied(x, y);
            text.push_str(match (style, occupied, placed) {
                (Style::Plain, _, true) => "@",
                (Style::Plain, true, false) => "#",
                (Style::Plain, false, false) => ".",
                (Style::Terminal, _, true) => "\x1b[1;33m██\x1b[0m",
                (Style::Terminal, true, false) => "██",
                (Style::Terminal, false, false) => " ·",
            });
        }
        text.push_str("|\n");
    }
    text.push_str(&border);
    text
}

/// Shows frames on stdout at a fixed pace.
pub struct Watcher {
    style: Style,
    interval: Duration,
    next_frame: Option<Instant>,
    /// The first write error (a closed pipe, say); later frames are skipped.
    error: Option<std::io::Error>,
}

impl Watcher {
    /// A watcher drawing in the style stdout calls for, `speed` frames per second (see
    /// [`frame_interval`] for the valid speeds).
    pub fn new(speed: f64) -> Result<Watcher, ReportError> {
        Ok(Watcher {
            style: Style::for_stdout(),
            interval: frame_interval(speed)?,
            next_frame: None,
            error: None,
        })
    }

    /// Waits until the frame is due, then draws it.
    pub fn show(&mut self, frame: &Frame<'_>) {
        if self.error.is_some() {
            return;
        }
        let now = Instant::now();
        match self.next_frame {
            Some(due) if due > now => std::thread::sleep(due - now),
            _ => {}
        }
        // Pace from the due time, not from now, so slow frames do not drift the speed; after a
        // long stall (a slow search) start over rather than rushing to catch up.
        let due = self.next_frame.filter(|due| *due + self.interval > now);
        self.next_frame = Some(due.unwrap_or(now) + self.interval);
        let body = render(frame, self.style);
        let text = match self.style {
            // Cursor home, then each line clears its own rest and the frame clears below it:
            // no full-screen clear, so the picture does not flicker.
            Style::Terminal => {
                let mut text = String::from("\x1b[H");
                for line in body.lines() {
                    text.push_str(line);
                    text.push_str("\x1b[K\n");
                }
                text.push_str("\x1b[J");
                text
            }
            Style::Plain => body + "\n",
        };
        if let Err(error) = write_stdout(&text) {
            self.error = Some(error);
        }
    }

    /// Clears the screen before the first frame (terminal only).
    pub fn start(&mut self) {
        if self.style == Style::Terminal
            && let Err(error) = write_stdout("\x1b[2J")
        {
            self.error = Some(error);
        }
    }

    /// The first write error, if drawing failed.
    pub fn finish(self) -> Result<(), ReportError> {
        match self.error {
            Some(error) => Err(ReportError::io("stdout", &error)),
            None => Ok(()),
        }
    }
}

/// The slowest `--speed`: one piece every 1000 seconds.
pub const MIN_SPEED: f64 = 0.001;

/// The time between frames for a `--speed` of `speed` pieces per second: an error below
/// [`MIN_SPEED`] (zero, negative, NaN); `inf` means no pause at all.
pub fn frame_interval(speed: f64) -> Result<Duration, ReportError> {
    if speed >= MIN_SPEED {
        Ok(Duration::from_secs_f64(1.0 / speed))
    } else {
        // A tiny value prints in plain notation with hundreds of digits: shown as 1e-300.
        let plain = speed.to_string();
        let shown = match plain.len() > 12 {
            true => format!("{speed:e}"),
            false => plain,
        };
        Err(ReportError::Refused(format!(
            "--speed {shown} must be at least {MIN_SPEED} pieces per second (`inf` for no pause)"
        )))
    }
}

/// Writes `text` to stdout and flushes it.
fn write_stdout(text: &str) -> std::io::Result<()> {
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(text.as_bytes())?;
    stdout.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use tetris_core::PieceState;

    fn board(rows: &[&str]) -> Board {
        Board::from_rows(rows).unwrap()
    }

    #[test]
    fn highlight_follows_the_rows_that_moved_down() {
        // A vertical I (cells (9, 0)..(9, 3) around pivot (9, 2)) on a 6-row board whose rows
        // 1 and 3 were full with it: those two cells are gone; the cell of row 0 moves down
        // two rows (rows 1 and 3 below it were removed) to row 2, and the cell of row 2 moves
        // down one (row 3) to row 3.
        let last = LastPlacement {
            piece: Piece::I,
            state: PieceState {
                x: 9,
                y: 2,
                rotation: 1,
            },
            cleared_rows: (1 << 1) | (1 << 3),
        };
        let mut expected = [0u32; BOARD_WIDTH];
        expected[9] = (1 << 2) | (1 << 3);
        assert_eq!(last.highlight(), expected);
    }

    #[test]
    fn highlight_skips_cells_above_the_top() {
        // A vertical I with its pivot on row 0 covers rows -2..1: only rows 0 and 1 are stored.
        let last = LastPlacement {
            piece: Piece::I,
            state: PieceState {
                x: 0,
                y: 0,
                rotation: 1,
            },
            cleared_rows: 0,
        };
        let mut expected = [0u32; BOARD_WIDTH];
        expected[0] = 0b11;
        assert_eq!(last.highlight(), expected);
    }

    #[test]
    fn plain_frames_mark_the_placed_piece() {
        // An O dropped into the bottom-left corner of a 4-row board that already had one cell
        // at (9, 3): the O covers (0, 2), (1, 2), (0, 3), (1, 3).
        let board = board(&["..........", "..........", "##........", "##.......#"]);
        let frame = Frame {
            title: "test",
            board: &board,
            last: Some(LastPlacement {
                piece: Piece::O,
                state: PieceState {
                    x: 1,
                    y: 2,
                    rotation: 0,
                },
                cleared_rows: 0,
            }),
            pieces: 2,
            lines: 0,
            score: 0,
            level: 19,
            upcoming: &[Piece::T, Piece::I],
        };
        let expected = "test | pieces 2 | lines 0 | score 0 | level 19\n\
                        next: T I\n\
                        placed O x 1 y 2 rotation 0, cleared 0\n\
                        |..........|\n\
                        |..........|\n\
                        |@@........|\n\
                        |@@.......#|\n\
                        +----------+\n";
        assert_eq!(render(&frame, Style::Plain), expected);
    }

    #[test]
    fn speeds_are_pieces_per_second() {
        assert_eq!(frame_interval(4.0).unwrap(), Duration::from_millis(250));
        assert_eq!(frame_interval(f64::INFINITY).unwrap(), Duration::ZERO);
        assert_eq!(frame_interval(0.001).unwrap(), Duration::from_secs(1000));
        for bad in [0.0, -1.0, 0.0009, f64::NAN, f64::NEG_INFINITY] {
            assert!(frame_interval(bad).is_err(), "{bad}");
        }
        assert_eq!(
            frame_interval(1e-300).unwrap_err().to_string(),
            "--speed 1e-300 must be at least 0.001 pieces per second (`inf` for no pause)"
        );
        assert!(
            frame_interval(0.0009)
                .unwrap_err()
                .to_string()
                .starts_with("--speed 0.0009 must")
        );
    }
}
