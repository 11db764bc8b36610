//! Reading what a user hands the arena besides options: board files, piece lists and the
//! game-over rule.

use std::path::Path;

use tetris_core::{Board, GameOverRule, Piece};
use tetris_registry::StrategySpec;

use crate::error::ArenaError;

/// Reads a board file of exactly `height` rows: the text form (top row first, `#` occupied,
/// `.` empty) or, when the file starts with `[`, a JSON array of row strings. A UTF-8
/// byte-order mark at the start (as some Windows editors save) is skipped: it is no cell.
/// Errors name the file and, for a bad row, its line (and column).
pub fn read_board(path: &Path, height: u8) -> Result<Board, ArenaError> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|error| ArenaError::io(&shown, &error))?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let bad_board = |message: String| ArenaError::Usage(format!("board file {shown}: {message}"));
    let rows: Vec<String> = if text.trim_start().starts_with('[') {
        serde_json::from_str(text)
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
            "board has {}, expected {height} (--board-height sets the field height)",
            row_count(rows.len())
        )));
    }
    Board::from_rows(&rows).map_err(|error| bad_board(error.to_string()))
}

/// `1 row`, `N rows`.
pub fn row_count(rows: usize) -> String {
    match rows {
        1 => "1 row".to_string(),
        rows => format!("{rows} rows"),
    }
}

/// Parses `--pieces`: piece letters as a piece file writes them (upper case `T J Z O S L I`,
/// the one letter rule of `Piece::from_letter`), either run together (`TJI`) or with one
/// comma between two pieces (`T,J,I`). Anything else — lower case, a comma at either end or
/// two in a row, spaces — is an error naming the character and its column.
pub fn parse_pieces(text: &str) -> Result<Vec<Piece>, ArenaError> {
    let bad = |column: usize, what: String| {
        ArenaError::Usage(format!(
            "--pieces {text:?}, column {column}: {what} (piece letters T J Z O S L I, upper \
             case, e.g. --pieces T,J or --pieces TJ)"
        ))
    };
    if text.is_empty() {
        return Err(ArenaError::Usage(
            "--pieces is empty: give the current piece first, e.g. --pieces T,J".into(),
        ));
    }
    let mut pieces = Vec::new();
    let mut after_comma = false;
    for (index, character) in text.chars().enumerate() {
        let column = index + 1;
        if character == ',' {
            if pieces.is_empty() || after_comma {
                return Err(bad(column, "a comma must stand between two pieces".into()));
            }
            after_comma = true;
            continue;
        }
        let piece = Piece::from_letter(character)
            .ok_or_else(|| bad(column, format!("{character:?} is not a piece letter")))?;
        pieces.push(piece);
        after_comma = false;
    }
    if after_comma {
        return Err(bad(
            text.chars().count(),
            "a comma must stand between two pieces".into(),
        ));
    }
    Ok(pieces)
}

/// The game-over rule of games of `specs` (one strategy, or a tournament's): the `--game-over`
/// value when given, else the rule their searchers default to (`simulation` for the searchers
/// that start at the spawn, `literature` for `drop`). Strategies whose defaults differ must be
/// given one rule explicitly, so that a comparison never mixes rules without saying so. These
/// games have no frames, so the console rule, which needs the NES frame model, is refused
/// ([`frameless_rule`]).
pub fn game_over_rule(
    explicit: Option<&str>,
    specs: &[StrategySpec],
) -> Result<GameOverRule, ArenaError> {
    if let Some(text) = explicit {
        let rule = text
            .parse()
            .map_err(|message: String| ArenaError::Usage(format!("--game-over: {message}")))?;
        return frameless_rule(rule)
            .map_err(|message| ArenaError::Usage(format!("--game-over: {message}")));
    }
    let mut defaults = specs
        .iter()
        .map(|spec| (spec, spec.default_game_over_rule()));
    let Some((first, rule)) = defaults.next() else {
        return Ok(GameOverRule::default());
    };
    match defaults.find(|&(_, other)| other != rule) {
        None => Ok(rule),
        Some((other, other_rule)) => Err(ArenaError::Usage(format!(
            "{first} plays under the {rule} game-over rule by default and {other} under the \
             {other_rule} rule: choose one for all with --game-over simulation|literature"
        ))),
    }
}

/// `rule` if a game without frames can play it: the console rule needs the NES frame model (a
/// piece that spawns overlapping may move out frame by frame), so it is refused, in words.
pub fn frameless_rule(rule: GameOverRule) -> Result<GameOverRule, String> {
    if rule.needs_frame_model() {
        return Err(format!(
            "the {rule} rule needs the NES frame model: it is `arena nes`'s (its default with \
             the gamepad searcher); games without frames play simulation or literature"
        ));
    }
    Ok(rule)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_game_over_rule_is_explicit_or_the_searchers_common_default() {
        let specs = |names: &[&str]| -> Vec<StrategySpec> {
            names.iter().map(|name| name.parse().unwrap()).collect()
        };
        let spawn_based = specs(&["bfs+elashi", "column-drop+dellacherie"]);
        assert_eq!(
            game_over_rule(None, &spawn_based).unwrap(),
            GameOverRule::Simulation
        );
        assert_eq!(
            game_over_rule(Some("literature"), &spawn_based).unwrap(),
            GameOverRule::Literature
        );
        let message = game_over_rule(Some("console"), &spawn_based)
            .unwrap_err()
            .to_string();
        assert!(message.contains("needs the NES frame model"), "{message}");
        let message = game_over_rule(Some("nes"), &spawn_based)
            .unwrap_err()
            .to_string();
        assert!(
            message.contains("unknown game-over rule \"nes\""),
            "{message}"
        );
    }

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
    fn pieces_parse_with_or_without_commas() {
        let expected = vec![Piece::T, Piece::J, Piece::I];
        assert_eq!(parse_pieces("T,J,I").unwrap(), expected);
        assert_eq!(parse_pieces("TJI").unwrap(), expected);
        assert_eq!(parse_pieces("T,JI").unwrap(), expected);
        assert!(parse_pieces("T,X").is_err());
        assert!(parse_pieces("").is_err());
        assert!(parse_pieces(" , ").is_err());
    }

    #[test]
    fn pieces_reject_what_a_piece_file_rejects_and_stray_separators() {
        for (text, column) in [
            ("t", 1),
            ("T,", 2),
            (",T", 1),
            ("T,,J", 3),
            ("T J", 2),
            ("t, j ,i", 1),
        ] {
            let message = parse_pieces(text).unwrap_err().to_string();
            assert!(
                message.starts_with(&format!("--pieces {text:?}, column {column}: ")),
                "{text}: {message}"
            );
        }
        assert!(
            parse_pieces("t")
                .unwrap_err()
                .to_string()
                .contains("'t' is not a piece letter")
        );
    }
}
