//! `arena features`: an evaluator's board-only features of a board file.
//!
//! The evaluator sees the board on its own, as a chain of no placements: the features that
//! belong to placements (`Evaluator::placement_feature_names`, e.g. `rows_cleared`,
//! `lock_height`, `landing_height`) would be 0 and are left out. The board is taken as given:
//! full rows are not cleared first.
//!
//! This module also holds the helpers `arena analyze` shares: reading a board file
//! ([`read_board`]) and naming an evaluator with its weights ([`EvaluatorSpec`]), plus the
//! ordered feature list ([`FeatureList`]) that serializes as a JSON object in feature order.

use std::fmt::{self, Write as _};
use std::path::{Path, PathBuf};
use std::str::FromStr;

use serde::ser::{Serialize, SerializeMap, Serializer};
use tetris_core::{Board, Chain, Evaluator, MAX_FEATURES};

use crate::engines::{AnyEvaluator, WeightsChoice, evaluator_by_name, evaluator_names};
use crate::error::ArenaError;
use crate::output::print_output;

/// Options of `arena features`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
The features are the evaluator's BOARD features of the board as given (full rows are not
cleared first); the features that belong to a placement (rows_cleared, lock_height,
landing_height, ...) are left out. Features are in the evaluator's order; each value is as
the evaluator defines it (see evaluators.md). The text table adds each feature's weight and
weight × value; the JSON form is {\"evaluator\": \"...\", \"features\": {\"name\": number, ...}}.")]
pub struct Args {
    /// Board file: one line per row, top row first, 10 characters each, '#' occupied and '.'
    /// empty (or a JSON array of such row strings). It must have exactly --board-height rows.
    #[arg(long, value_name = "FILE")]
    pub board: PathBuf,
    /// Evaluator: NAME, NAME:PRESET or NAME:weights.json (a value ending in .json or holding a
    /// '/' is a weights file). Weights do not change the features; the text table shows them.
    #[arg(long, value_name = "EVALUATOR")]
    pub eval: String,
    /// Rows of the field (4 to 32); the board file must have exactly this many lines.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u8).range(4..=32))]
    pub board_height: u8,
    /// Print `{"evaluator": "...", "features": {"name": number, ...}}` instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// An evaluator named on the command line: `NAME`, `NAME:PRESET` or `NAME:weights.json`.
///
/// The weights rule is the one strategy names use: after `:`, a value ending in `.json` or
/// containing `/` is a weights file, anything else a preset name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvaluatorSpec {
    /// The evaluator's registered name.
    pub name: String,
    /// Which weights it is built with.
    pub weights: WeightsChoice,
}

impl EvaluatorSpec {
    /// Builds the evaluator (loading its weights file, if any).
    pub fn build(&self) -> Result<AnyEvaluator, ArenaError> {
        evaluator_by_name(&self.name, &self.weights)
            .ok_or_else(|| unknown_evaluator(&self.name))?
            .map_err(ArenaError::from)
    }
}

/// The error for an evaluator name that is not registered, listing the valid ones.
fn unknown_evaluator(name: &str) -> ArenaError {
    ArenaError::Usage(format!(
        "unknown evaluator {name:?} (valid: {})",
        evaluator_names().join(" ")
    ))
}

impl FromStr for EvaluatorSpec {
    type Err = ArenaError;

    /// Parses `NAME[:PRESET|:weights.json]`; the name must be a registered evaluator.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let (name, weights) = match text.split_once(':') {
            Some((name, value)) if value.ends_with(".json") || value.contains('/') => {
                (name, WeightsChoice::File(value.to_string()))
            }
            Some((name, value)) => (name, WeightsChoice::Preset(value.to_string())),
            None => (text, WeightsChoice::Default),
        };
        if !evaluator_names().contains(&name) {
            return Err(unknown_evaluator(name));
        }
        Ok(EvaluatorSpec {
            name: name.to_string(),
            weights,
        })
    }
}

impl fmt::Display for EvaluatorSpec {
    /// The canonical form: `name`, `name:preset` or `name:file`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.name)?;
        match &self.weights {
            WeightsChoice::Default => Ok(()),
            WeightsChoice::Preset(value) | WeightsChoice::File(value) => write!(f, ":{value}"),
        }
    }
}

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

/// Feature values in the evaluator's feature order; serializes as a JSON object
/// `{"name": value, ...}` whose keys keep that order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FeatureList(pub Vec<(&'static str, f64)>);

impl Serialize for FeatureList {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (name, value) in &self.0 {
            map.serialize_entry(name, value)?;
        }
        map.end()
    }
}

/// The evaluator's board-only features of `board` (a chain of no placements), in feature
/// order, leaving out the features that belong to placements.
pub fn board_features(evaluator: &AnyEvaluator, board: &Board) -> FeatureList {
    let names = evaluator.feature_names();
    let mut values = [0.0; MAX_FEATURES];
    evaluator.features(
        Chain {
            board,
            records: &[],
        },
        &mut values[..names.len()],
    );
    let placement_names = evaluator.placement_feature_names();
    FeatureList(
        names
            .iter()
            .zip(values)
            .filter(|(name, _)| !placement_names.contains(name))
            .map(|(&name, value)| (name, value))
            .collect(),
    )
}

/// Formats a number for text tables: whole numbers without a fraction, others as Rust's
/// shortest round-tripping form.
pub fn format_number(value: f64) -> String {
    if value == 0.0 {
        // Also −0.0 (a negative weight times a zero feature), which would print as "-0".
        "0".to_string()
    } else if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{value:.0}")
    } else {
        format!("{value}")
    }
}

/// Writes an aligned table of features with each one's weight and weight × value to `out`.
pub fn write_feature_table(out: &mut String, evaluator: &AnyEvaluator, features: &FeatureList) {
    let weights = evaluator.weights();
    let rows: Vec<[String; 4]> = features
        .0
        .iter()
        .map(|&(name, value)| {
            let weight = weights.get(name).unwrap_or(0.0);
            [
                name.to_string(),
                format_number(value),
                format_number(weight),
                format_number(weight * value),
            ]
        })
        .collect();
    let header = [
        "feature".to_string(),
        "value".to_string(),
        "weight".to_string(),
        "weight × value".to_string(),
    ];
    let mut widths = header.clone().map(|title| title.chars().count());
    for row in &rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    for row in std::iter::once(&header).chain(&rows) {
        let _ = writeln!(
            out,
            "  {:<w0$}  {:>w1$}  {:>w2$}  {:>w3$}",
            row[0],
            row[1],
            row[2],
            row[3],
            w0 = widths[0],
            w1 = widths[1],
            w2 = widths[2],
            w3 = widths[3],
        );
    }
}

/// The JSON form of `arena features` (a struct, so the keys keep the contract's order).
#[derive(serde::Serialize)]
struct FeaturesOutput<'a> {
    evaluator: String,
    features: &'a FeatureList,
}

/// Runs `arena features`.
pub fn run(args: Args) -> Result<(), ArenaError> {
    let spec: EvaluatorSpec = args.eval.parse()?;
    let evaluator = spec.build()?;
    let board = read_board(&args.board, args.board_height)?;
    let features = board_features(&evaluator, &board);
    if args.json {
        let output = FeaturesOutput {
            evaluator: spec.to_string(),
            features: &features,
        };
        let mut text = serde_json::to_string_pretty(&output).expect("features serialize");
        text.push('\n');
        return print_output(&text);
    }
    let mut text = format!(
        "evaluator {spec}, board {} (10 × {}), board features only:\n",
        args.board.display(),
        args.board_height
    );
    write_feature_table(&mut text, &evaluator, &features);
    print_output(&text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evaluator_specs_parse_and_print_back() {
        let spec: EvaluatorSpec = "elashi".parse().unwrap();
        assert_eq!(spec.weights, WeightsChoice::Default);
        assert_eq!(spec.to_string(), "elashi");
        let spec: EvaluatorSpec = "dellacherie:original".parse().unwrap();
        assert_eq!(spec.weights, WeightsChoice::Preset("original".into()));
        assert_eq!(spec.to_string(), "dellacherie:original");
        for file in ["elashi:w.json", "elashi:dir/weights"] {
            let spec: EvaluatorSpec = file.parse().unwrap();
            assert!(matches!(spec.weights, WeightsChoice::File(_)), "{file}");
            assert_eq!(spec.to_string(), file);
        }
        assert!("nope".parse::<EvaluatorSpec>().is_err());
        assert!(":published".parse::<EvaluatorSpec>().is_err());
        assert!(
            "dellacherie:nope"
                .parse::<EvaluatorSpec>()
                .unwrap()
                .build()
                .is_err()
        );
    }

    #[test]
    fn numbers_print_without_needless_fractions() {
        assert_eq!(format_number(40.0), "40");
        assert_eq!(format_number(-0.0), "0");
        assert_eq!(format_number(1.5), "1.5");
        assert_eq!(format_number(-3.2178882868487753), "-3.2178882868487753");
    }
}
