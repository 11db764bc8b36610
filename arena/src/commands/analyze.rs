//! `arena analyze`: how a strategy judges a position — its best placement(s), each with the
//! value of the best chain through it, that chain's features and the input path.
//!
//! Choices the contract leaves open (also in `--help` and the README):
//!
//! - Known pieces: `--pieces` gives the current piece first, then the preview. Fewer pieces
//!   than the strategy's depth chain only those given (as the lookahead chain does when a
//!   sequence ends); more pieces than the depth are an error, since the strategy would not
//!   look at them.
//! - `value` is the cost (lower is better) of the best chain starting with the placement.
//!   Chains are ranked as the lookahead chain ranks them (core `chain.rs`): longer first, then
//!   the evaluator's rule (`prefer`, `neutral`, `reject`), then cost. Beside the contract's
//!   fields every PLACEMENT carries `chain_length` (known placements in that chain: fewer than
//!   the pieces given when a later piece had no placement, i.e. the chain was cut short) and
//!   `rule`; both are `null` with `value`.
//! - Without `--all`, `placements` is the best chain itself, current piece first: every entry
//!   carries the WHOLE chain's value and features (the evaluator only judges whole chains),
//!   and its path is the searcher's path on the board the earlier placements leave.
//! - With `--all`, `placements` is every placement of the current piece in the searcher's
//!   order; each one's `features` are those of the best chain starting with it.
//! - `path` is a list of inputs from the spawn: `"L"`, `"R"`, `"D"` (one column or row),
//!   `"CW"`, `"CCW"` (one turn), or `"F<bits>"` for one gamepad frame (bits: 1 left, 2 right,
//!   4 down, 8 A, 16 B); `null` if the searcher gives none.
//! - The board must be at rest: a full row is an error (it would count as cleared by the
//!   first placement).

use std::path::PathBuf;

use tetris_core::{DecisionContext, InputModel};
use tetris_registry::Strategy;

use crate::analysis::position::{analyze_in, check_pieces_fit_depth};
use crate::error::ArenaError;
use crate::input::{game_over_rule, parse_pieces, read_board};
use crate::report::output::print_output;
use crate::report::position::{analysis_json, analysis_text};

/// What `arena analyze --help` says after the options: how to read its output.
const READING_THE_OUTPUT: &str = "\
Values are costs: lower is better. `value` is the cost of the best chain starting with the
placement. Chains rank longer first (a chain is cut short when a later piece has no placement:
`chain_length` is then below the number of pieces given), then by the evaluator's `rule`
(prefer, neutral, reject: a rejected chain is only chosen when every chain is), then by cost;
`value`, `chain_length` and `rule` are null when no chain continues.
Without --all, `placements` is the best chain, current piece first; every entry carries the
whole chain's value and features (all of the evaluator's features, placement ones included),
and its path starts on the board the earlier placements leave.
With --all, `placements` is every placement of the current piece in the searcher's order, each
with the best chain starting there and that chain's features.
Paths are inputs from the spawn: L R D (one column or row), CW CCW (one turn), or F<bits> (one
gamepad frame: 1 left, 2 right, 4 down, 8 A, 16 B).";

/// Options of `arena analyze` (its `--help` ends with how to read the output).
#[derive(Debug, clap::Args)]
#[command(after_help = READING_THE_OUTPUT)]
pub struct Args {
    /// Strategy: `SEARCHER+EVALUATOR[:PRESET|:weights.json][@DEPTH]`, e.g. `bfs+elashi@2`.
    pub strategy: String,
    /// Board file: one line per row, top row first, 10 characters each, '#' occupied and '.'
    /// empty (or a JSON array of such row strings), exactly --board-height rows, no full row.
    #[arg(long, value_name = "FILE")]
    pub board: PathBuf,
    /// Known pieces, current piece first, then the preview: letters of T J Z O S L I,
    /// separated by commas (T,J) or not (TJ). At most the strategy's depth; fewer pieces
    /// chain only those given.
    #[arg(long, value_name = "PIECES")]
    pub pieces: String,
    /// List every placement of the current piece (searcher's order) with the best chain
    /// starting there, instead of only the best chain.
    #[arg(long)]
    pub all: bool,
    /// Print `{"strategy", "pieces", "best": PLACEMENT|null, "placements": [PLACEMENT...]}`,
    /// PLACEMENT = {"piece", "x", "y", "rotation", "cells", "value", "chain_length", "rule",
    /// "features", "path"}; x = column from the left, y = row from the top (pivot).
    #[arg(long)]
    pub json: bool,
    /// Rows of the field (4 to 32); the board file must have exactly this many lines.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u8).range(4..=32))]
    pub board_height: u8,
    /// For a gravity-aware searcher (gamepad): the level whose gravity the search simulates
    /// (frames per row: 19–28 → 2, 29 and up → 1; rules.md). Default: the searcher's own,
    /// level 19.
    #[arg(long, value_name = "L")]
    pub level: Option<u8>,
    /// For a gravity-aware searcher: frames between two presses of one thumb, 2 (30 per
    /// second) to 8 (7.5 per second). Default: the searcher's own, 2.
    #[arg(long, value_name = "T")]
    pub tap_rate: Option<u8>,
    /// For a gravity-aware searcher: the input model, `two-thumb` (a shift and a rotation may
    /// share a frame, soft drop) or `article` (the published bot's: one button on every
    /// tap-rate-th frame, no soft drop). Default: the searcher's own, two-thumb.
    #[arg(long, value_name = "MODEL")]
    pub inputs: Option<String>,
    /// For a gravity-aware searcher: the current piece is a game's first, which floats for 96
    /// frames before gravity starts (the preview piece never is).
    #[arg(long)]
    pub entry_delay: bool,
    /// The game-over rule the decision is made under (no-suicide and chains cut short follow
    /// it): `simulation` or `literature`. Default: the searcher's (`literature` for drop).
    #[arg(long, value_name = "RULE")]
    pub game_over: Option<String>,
}

/// The decision's context that `--level`, `--tap-rate`, `--inputs` and `--entry-delay` give
/// a gravity-aware strategy; an error for a strategy whose searcher ignores gravity.
fn frame_context(args: &Args, strategy: &Strategy) -> Result<DecisionContext, ArenaError> {
    let inputs = args
        .inputs
        .as_deref()
        .map(str::parse::<InputModel>)
        .transpose()
        .map_err(|message| ArenaError::Usage(format!("--inputs: {message}")))?;
    if args.level.is_none() && args.tap_rate.is_none() && inputs.is_none() && !args.entry_delay {
        return Ok(DecisionContext::default());
    }
    let Some(mut timing) = strategy.frame_timing() else {
        return Err(ArenaError::Usage(format!(
            "--level, --tap-rate, --inputs and --entry-delay are for gravity-aware searchers \
             (gamepad); {} ignores gravity",
            strategy.spec().searcher
        )));
    };
    if let Some(level) = args.level {
        timing.frames_per_row = tetris_core::scoring::frames_per_row(level) as u8;
    }
    if let Some(tap_rate) = args.tap_rate {
        timing.tap_rate = tetris_registry::check_tap_rate(u64::from(tap_rate))
            .map_err(|message| ArenaError::Usage(format!("--tap-rate {message}")))?;
    }
    if let Some(inputs) = inputs {
        timing.inputs = inputs;
    }
    Ok(DecisionContext {
        frame_timing: Some(timing),
        entry_delay: args.entry_delay,
        ..DecisionContext::default()
    })
}

/// Runs `arena analyze`.
pub fn run(args: Args) -> Result<(), ArenaError> {
    let mut strategy = Strategy::from_name(&args.strategy)?;
    let pieces = parse_pieces(&args.pieces)?;
    check_pieces_fit_depth(&strategy, &pieces)?;
    let context = DecisionContext {
        game_over_rule: game_over_rule(args.game_over.as_deref(), &[strategy.spec().clone()])?,
        ..frame_context(&args, &strategy)?
    };
    strategy.check_board_height(args.board_height)?;
    let board = read_board(&args.board, args.board_height)?;
    let full = board.full_rows();
    if full != 0 {
        return Err(ArenaError::Usage(format!(
            "board file {}: line {} is a full row (a board at rest has none)",
            args.board.display(),
            full.trailing_zeros() + 1
        )));
    }
    let analysis = analyze_in(&mut strategy, &board, &pieces, context, args.all);
    if args.json {
        return print_output(&analysis_json(&analysis));
    }
    let board_label = format!("{} (10 × {})", args.board.display(), args.board_height);
    print_output(&analysis_text(
        &analysis,
        strategy.evaluator(),
        &board_label,
        args.all,
    ))
}
