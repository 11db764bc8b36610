//! The expected game length estimated from where a strategy's pieces locked, as the reports
//! print and store it (`tournament --estimate`, `play --estimate`, `arena stats`): the JSON and
//! the one line of text of a [`LogLinearFit`].

use serde::Serialize;

use tetris_arena_io::format::significant;

use crate::analysis::pieces::LogLinearFit;

/// The expected game length estimated from where a strategy's pieces locked (`tournament
/// --estimate`, `play --estimate`).
#[derive(Serialize)]
pub struct EstimateJson {
    /// `null` when too few rows had pieces to fit a line.
    expected_lines: Option<f64>,
    expected_pieces: Option<f64>,
    r_squared: Option<f64>,
    ratio: Option<f64>,
    fit_rows: Vec<usize>,
    rule: &'static str,
}

/// How `--estimate` estimates the expected game length, as printed and stored.
pub const ESTIMATE_RULE: &str = "arena stats' estimate over all of the strategy's pieces in \
    the games: the share of pieces locking in each row (row of the piece's top cell), a least \
    squares line through log10 of the shares of the rows with enough pieces, extrapolated to \
    row 0; expected pieces = 1 / that share, expected lines = 0.4 x expected pieces";

impl EstimateJson {
    /// The estimate of `fit` (`None`: too few rows had pieces to fit a line).
    pub fn of(fit: Option<&LogLinearFit>) -> EstimateJson {
        EstimateJson {
            expected_lines: fit.map(LogLinearFit::expected_lines),
            expected_pieces: fit.map(LogLinearFit::expected_pieces),
            r_squared: fit.map(|fit| fit.r_squared),
            ratio: fit.map(LogLinearFit::ratio),
            fit_rows: fit.map_or_else(Vec::new, |fit| fit.rows.clone()),
            rule: ESTIMATE_RULE,
        }
    }

    /// One line of text: the expected lines and pieces with the fit's R².
    pub fn text(&self) -> String {
        match (self.expected_lines, self.expected_pieces, self.r_squared) {
            (Some(lines), Some(pieces), Some(r_squared)) => format!(
                "{} lines ({} pieces) per game from where the pieces locked, R² {r_squared:.4}",
                significant(lines),
                significant(pieces)
            ),
            _ => "too few rows had pieces to fit a line".to_string(),
        }
    }
}
