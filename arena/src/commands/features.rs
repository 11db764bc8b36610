//! `arena features`: an evaluator's board-only features of a board file.
//!
//! The evaluator sees the board on its own, as a chain of no placements: the features that
//! belong to placements (`Evaluator::placement_feature_names`, e.g. `rows_cleared`,
//! `lock_height`, `landing_height`) would be 0 and are left out. The board is taken as given:
//! full rows are not cleared first.

use std::path::PathBuf;

use tetris_registry::EvaluatorSpec;

use tetris_arena_games::analysis::features::{FeatureList, board_features};
use tetris_arena_io::input::read_board;
use tetris_arena_io::output::{MadeBy, pretty_json, print_output};
use tetris_arena_io::values::BoardHeight;
use tetris_arena_reports::features::write_feature_table;
use tetris_arena_requests::error::ArenaError;

/// Options of `arena features`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
The features are the evaluator's BOARD features of the board as given (full rows are not
cleared first); the features that belong to a placement (rows_cleared, lock_height,
landing_height, ...) are left out. Features are in the evaluator's order; each value is as
the evaluator defines it (see evaluators.md). The text table adds each feature's weight and
weight × value; the JSON form is {\"evaluator\": \"...\", \"features\": {\"name\": number, ...},
\"made_by\": {...}} (made_by: the program, its version and this command line).")]
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
    #[arg(long, value_name = "H", default_value = "20")]
    pub board_height: BoardHeight,
    /// Print `{"evaluator": "...", "features": {"name": number, ...}, "made_by": {...}}`
    /// instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// The JSON form of `arena features` (a struct, so the keys keep the contract's order).
#[derive(serde::Serialize)]
struct FeaturesOutput<'a> {
    evaluator: String,
    features: &'a FeatureList,
    made_by: MadeBy,
}

/// Runs `arena features`.
pub fn run(args: Args) -> Result<(), ArenaError> {
    let spec: EvaluatorSpec = args.eval.parse()?;
    let evaluator = spec.build()?;
    let board = read_board(&args.board, args.board_height.get())?;
    let features = board_features(&evaluator, &board);
    if args.json {
        let output = FeaturesOutput {
            evaluator: spec.to_string(),
            features: &features,
            made_by: MadeBy::current(),
        };
        return Ok(print_output(&pretty_json(&output))?);
    }
    let mut text = format!(
        "evaluator {spec}, board {} (10 × {}), board features only:\n",
        args.board.display(),
        args.board_height
    );
    write_feature_table(&mut text, &evaluator, &features);
    Ok(print_output(&text)?)
}
