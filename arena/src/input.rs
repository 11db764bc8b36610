//! Reading what a user hands the arena besides options: board files, piece lists and the
//! game-over rule.

use std::path::Path;

use tetris_core::{Board, GameOverRule, Piece};
use tetris_registry::StrategySpec;

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

/// The game-over rule of games of `specs` (one strategy, or a tournament's): the `--game-over`
/// value when given, else the rule their searchers default to (`simulation` for the searchers
/// that start at the spawn, `literature` for `drop`). Strategies whose defaults differ must be
/// given one rule explicitly, so that a comparison never mixes rules without saying so.
pub fn game_over_rule(
    explicit: Option<&str>,
    specs: &[StrategySpec],
) -> Result<GameOverRule, ArenaError> {
    if let Some(text) = explicit {
        return text
            .parse()
            .map_err(|message: String| ArenaError::Usage(format!("--game-over: {message}")));
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
        assert!(
            message.contains("unknown game-over rule \"console\""),
            "{message}"
        );
    }

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
