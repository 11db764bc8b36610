//! `arena analyze`: how a strategy judges a position — its best placement(s), each with the
//! value of the best chain through it, that chain's features and the input path.
//!
//! Choices the contract leaves open (also in `--help` and docs/commands.md):
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

use tetris_core::{GameOverRule, InputModel, Timeline};

use tetris_arena_io::input::read_board;
use tetris_arena_io::output::print_output;
use tetris_arena_io::values::{self, BoardHeight, Level, PieceList, TapRate};
use tetris_arena_jobs::analyze::{AnalyzeRequest, FrameOptions};
use tetris_arena_reports::position::{analysis_json, analysis_text};
use tetris_arena_requests::error::ArenaError;

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
    /// Strategy: `SEARCHER+EVALUATOR[:PRESET|:weights.json][,OPTION...][@DEPTH]`, e.g.
    /// `bfs+elashi@2` or `drop+dellacherie,no-suicide` (options such as no-suicide or
    /// expectimax=K; `arena list` names and explains them all).
    pub strategy: String,
    /// Board file: one line per row, top row first, 10 characters each, '#' occupied and '.'
    /// empty (or a JSON array of such row strings), exactly --board-height rows, no full row.
    #[arg(long, value_name = "FILE")]
    pub board: PathBuf,
    /// Known pieces, current piece first, then the preview: letters of T J Z O S L I,
    /// separated by commas (T,J) or not (TJ). At most the strategy's depth; fewer pieces
    /// chain only those given.
    #[arg(long, value_name = "PIECES")]
    pub pieces: PieceList,
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
    #[arg(long, value_name = "H", default_value = "20")]
    pub board_height: BoardHeight,
    /// For a gravity-aware searcher (gamepad): the level whose gravity the search simulates
    /// (frames per row: 19–28 → 2, 29 and up → 1; docs/spec/rules.md). Default: the searcher's own,
    /// level 19.
    #[arg(long, value_name = "L")]
    pub level: Option<Level>,
    /// For a gravity-aware searcher: frames between two presses of one thumb, 2 (30 per
    /// second) to 8 (7.5 per second). Default: the searcher's own, 2.
    #[arg(long, value_name = "T")]
    pub tap_rate: Option<TapRate>,
    /// For a gravity-aware searcher: the player's input-frame timeline in StackRabbit's
    /// notation, `X` for a frame on which an input may start and `.` for one without,
    /// repeating from the piece's first input frame: `X.` is --tap-rate 2, `X...` 4, and mixed
    /// ones such as `X....X...X...` (3 inputs every 13 frames) are taken too (2 to 8 frames
    /// from each X to the next, at most 32 frames). Not with --tap-rate.
    #[arg(long, value_name = "PATTERN", value_parser = values::timeline, conflicts_with = "tap_rate")]
    pub timeline: Option<Timeline>,
    /// For a gravity-aware searcher: the input model, `two-thumb` (a shift and a rotation may
    /// share a frame, soft drop) or `article` (the published bot's: one button on every
    /// tap-rate-th frame, no soft drop). Default: the searcher's own, two-thumb.
    #[arg(long, value_name = "MODEL", value_parser = values::input_model)]
    pub inputs: Option<InputModel>,
    /// For a gravity-aware searcher: the current piece is a game's first, which floats for 96
    /// frames before gravity starts (the preview piece never is).
    #[arg(long)]
    pub entry_delay: bool,
    /// The game-over rule the decision is made under (no-suicide and chains cut short follow
    /// it): `simulation` or `literature`, or for a gravity-aware searcher `console` (as
    /// `arena nes` decides: a piece may still lock in the hidden rows above a stack that
    /// blocks the spawn). Default: the searcher's (`literature` for drop).
    #[arg(long, value_name = "RULE", value_parser = values::game_over_rule)]
    pub game_over: Option<GameOverRule>,
}

/// Runs `arena analyze`.
pub fn run(args: Args) -> Result<(), ArenaError> {
    let board = read_board(&args.board, args.board_height.get())?;
    let checked = AnalyzeRequest {
        strategy: args.strategy.clone(),
        board,
        board_name: format!("board file {}", args.board.display()),
        pieces: args.pieces.0.clone(),
        all: args.all,
        game_over: args.game_over,
        frames: FrameOptions {
            level: args.level,
            timeline: args
                .timeline
                .or_else(|| args.tap_rate.map(TapRate::timeline)),
            inputs: args.inputs,
            entry_delay: args.entry_delay,
        },
    }
    .check()?;
    let evaluator = checked.strategy.evaluator().clone();
    let analysis = checked.analyze();
    if args.json {
        return Ok(print_output(&analysis_json(&analysis))?);
    }
    let board_label = format!("{} (10 × {})", args.board.display(), args.board_height);
    Ok(print_output(&analysis_text(
        &analysis,
        &evaluator,
        &board_label,
        args.all,
    ))?)
}
