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
use std::sync::Arc;

use serde::Serialize;
use tetris_core::{
    Board, Chain, ChainOptions, ChainRule, ChainValue, Evaluator, Input, LookaheadChain,
    MAX_FEATURES, Piece, Placement, PlacementRecord, Placements, SearchOptions, Searcher,
};

use crate::commands::features::{FeatureList, format_number, read_board, write_feature_table};
use crate::engines::{AnyEvaluator, AnySearcher};
use crate::error::ArenaError;
use crate::output::print_output;
use crate::strategy::Strategy;

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
    /// For a gravity-aware searcher: the current piece is a game's first, which floats for 96
    /// frames before gravity starts (the preview piece never is).
    #[arg(long)]
    pub entry_delay: bool,
}

/// Applies `--level`, `--tap-rate` and `--entry-delay` to a gravity-aware strategy; an error
/// for a strategy whose searcher ignores gravity.
fn apply_frame_options(args: &Args, strategy: &mut Strategy) -> Result<(), ArenaError> {
    if args.level.is_none() && args.tap_rate.is_none() && !args.entry_delay {
        return Ok(());
    }
    let Some(mut timing) = strategy.frame_timing() else {
        return Err(ArenaError::Usage(format!(
            "--level, --tap-rate and --entry-delay are for gravity-aware searchers (gamepad); \
             {} ignores gravity",
            strategy.spec().searcher
        )));
    };
    if let Some(level) = args.level {
        timing.frames_per_row = tetris_core::scoring::frames_per_row(level) as u8;
    }
    if let Some(tap_rate) = args.tap_rate {
        let rates = tetris_search_bfs::Gamepad::TAP_RATES;
        if !rates.contains(&tap_rate) {
            return Err(ArenaError::Usage(format!(
                "--tap-rate {tap_rate} is outside {}..={} (frames between two presses of one \
                 thumb)",
                rates.start(),
                rates.end()
            )));
        }
        timing.tap_rate = tap_rate;
    }
    let (searcher, _, chain) = strategy.parts_mut();
    searcher.set_frame_timing(timing);
    chain.set_entry_delay(args.entry_delay);
    Ok(())
}

/// One placement as `arena analyze` reports it.
#[derive(Clone, Debug, PartialEq)]
pub struct PlacementAnalysis {
    /// The placement (pivot, rotation, cells).
    pub placement: Placement,
    /// The best chain starting with it (`None`: no chain continues).
    pub value: Option<ChainValue>,
    /// The evaluator's features of that chain, all of them, in feature order.
    pub features: Option<FeatureList>,
    /// The searcher's input path from the spawn, on the board the piece is placed on.
    pub path: Option<Vec<Input>>,
}

/// What `arena analyze` found for a position.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// The strategy's canonical name.
    pub strategy: String,
    /// The known pieces, current first.
    pub pieces: Vec<Piece>,
    /// The best placement of the current piece (`None`: it has no placement: game over).
    pub best: Option<PlacementAnalysis>,
    /// The best chain (current piece first), or with `all` every placement of the current
    /// piece in the searcher's order.
    pub placements: Vec<PlacementAnalysis>,
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

/// Analyzes `board` for `pieces` (current first, at most the strategy's depth): the best
/// chain, or with `all` every placement of the current piece with the best chain from it.
pub fn analyze(strategy: &mut Strategy, board: &Board, pieces: &[Piece], all: bool) -> Analysis {
    let name = strategy.name();
    // The chain would look at the first `depth` pieces only; so does everything below.
    let pieces = &pieces[..pieces.len().min(strategy.depth())];
    let (searcher, evaluator, chain) = strategy.parts_mut();
    let choice = chain.best(searcher, evaluator, board, pieces);
    let best_chain: Vec<Placement> = chain.best_chain().to_vec();
    // Paths of the current piece start with the entry delay when the chain searched it so.
    let first_piece_paths = SearchOptions {
        with_paths: true,
        entry_delay: chain.entry_delay(),
    };
    let report = chain.first_placement_values().to_vec();
    let mut analysis = Analysis {
        strategy: name,
        pieces: pieces.to_vec(),
        best: None,
        placements: Vec::new(),
    };
    let Some(choice) = choice else {
        return analysis;
    };
    let best_features = chain_features(evaluator, board, &best_chain);
    let mut paths = Placements::new();
    if all {
        searcher.search(board, pieces[0], first_piece_paths, &mut paths);
        let delay = first_piece_paths.entry_delay;
        for entry in &report {
            let features = entry.value.map(|_| {
                let (chain, value) =
                    best_chain_from(searcher, evaluator, board, pieces, entry.placement, delay);
                debug_assert_eq!(value, entry.value, "the rerun finds the same best chain");
                chain_features(evaluator, board, &chain)
            });
            analysis.placements.push(PlacementAnalysis {
                placement: entry.placement,
                value: entry.value,
                features,
                path: path_of(&paths, &entry.placement),
            });
        }
        analysis.best = analysis.placements.get(choice.index).cloned();
    } else {
        let mut on = *board;
        for (index, &placement) in best_chain.iter().enumerate() {
            let options = if index == 0 {
                first_piece_paths
            } else {
                SearchOptions::WITH_PATHS
            };
            searcher.search(&on, placement.piece, options, &mut paths);
            analysis.placements.push(PlacementAnalysis {
                placement,
                value: Some(choice.value),
                features: Some(best_features.clone()),
                path: path_of(&paths, &placement),
            });
            PlacementRecord::lock(&mut on, placement);
        }
        analysis.best = analysis.placements.first().cloned();
    }
    debug_assert_eq!(
        analysis.best.as_ref().map(|best| best.placement),
        Some(choice.placement)
    );
    debug_assert_eq!(
        analysis
            .best
            .as_ref()
            .and_then(|best| best.features.as_ref()),
        Some(&best_features)
    );
    analysis
}

/// The best chain whose first placement is `first`, ranked as the lookahead chain ranks
/// chains, and its value (`entry_delay`: the current piece is a game's first, for
/// gravity-aware searchers).
///
/// The chain is run again with a filter that keeps only `first` among the current piece's
/// placements, so that later pieces are judged with `first`'s record in the chain, exactly as
/// in the full search. The filter recognises the current piece's level by its board: every
/// later board differs from the original, since a placement stores 1 to 4 cells (its pivot
/// cell is always on the field) and a clear removes a multiple of 10.
fn best_chain_from(
    searcher: &mut AnySearcher,
    evaluator: &AnyEvaluator,
    board: &Board,
    pieces: &[Piece],
    first: Placement,
    entry_delay: bool,
) -> (Vec<Placement>, Option<ChainValue>) {
    let original = *board;
    let only_first =
        move |on: &Board, candidate: &Placement| *on != original || *candidate == first;
    let mut chain = LookaheadChain::new(ChainOptions {
        filter: Some(Arc::new(only_first)),
        ..ChainOptions::with_depth(pieces.len())
    });
    chain.set_entry_delay(entry_delay);
    let value = chain
        .best(searcher, evaluator, board, pieces)
        .map(|choice| choice.value);
    (chain.best_chain().to_vec(), value)
}

/// All of the evaluator's features of the chain `placements` played from `board`.
fn chain_features(
    evaluator: &AnyEvaluator,
    board: &Board,
    placements: &[Placement],
) -> FeatureList {
    let mut on = *board;
    let records: Vec<PlacementRecord> = placements
        .iter()
        .map(|&placement| PlacementRecord::lock(&mut on, placement))
        .collect();
    let names = evaluator.feature_names();
    let mut values = [0.0; MAX_FEATURES];
    evaluator.features(
        Chain {
            board: &on,
            records: &records,
        },
        &mut values[..names.len()],
    );
    FeatureList(names.iter().copied().zip(values).collect())
}

/// The path the searcher recorded for `placement` in `paths`.
fn path_of(paths: &Placements, placement: &Placement) -> Option<Vec<Input>> {
    let index = paths.iter().position(|candidate| candidate == placement)?;
    paths.path(index).map(<[Input]>::to_vec)
}

/// The rule's name in output.
fn rule_name(rule: ChainRule) -> &'static str {
    match rule {
        ChainRule::Prefer => "prefer",
        ChainRule::Neutral => "neutral",
        ChainRule::Reject => "reject",
    }
}

/// The JSON form of one placement (a struct, so the keys keep the contract's order).
#[derive(Serialize)]
struct PlacementOutput<'a> {
    piece: Piece,
    x: i8,
    y: i8,
    rotation: u8,
    cells: [[i8; 2]; 4],
    value: Option<f64>,
    chain_length: Option<usize>,
    rule: Option<&'static str>,
    features: Option<&'a FeatureList>,
    path: Option<Vec<String>>,
}

impl<'a> PlacementOutput<'a> {
    fn new(analysis: &'a PlacementAnalysis) -> PlacementOutput<'a> {
        let placement = &analysis.placement;
        PlacementOutput {
            piece: placement.piece,
            x: placement.x,
            y: placement.y,
            rotation: placement.rotation,
            cells: placement.cells.map(|(x, y)| [x, y]),
            value: analysis.value.map(|value| value.cost),
            chain_length: analysis.value.map(|value| value.length),
            rule: analysis.value.map(|value| rule_name(value.rule)),
            features: analysis.features.as_ref(),
            path: analysis
                .path
                .as_ref()
                .map(|path| path.iter().map(|input| input.short_name()).collect()),
        }
    }
}

/// The JSON form of an analysis.
#[derive(Serialize)]
struct AnalysisOutput<'a> {
    strategy: &'a str,
    pieces: &'a [Piece],
    best: Option<PlacementOutput<'a>>,
    placements: Vec<PlacementOutput<'a>>,
}

/// Runs `arena analyze`.
pub fn run(args: Args) -> Result<(), ArenaError> {
    let mut strategy = Strategy::from_name(&args.strategy)?;
    let pieces = parse_pieces(&args.pieces)?;
    if pieces.len() > strategy.depth() {
        let spec = strategy.spec();
        return Err(ArenaError::Usage(format!(
            "{} pieces given but strategy {} looks at {} per decision: give at most {} or \
             raise the depth (e.g. {}+{}@{})",
            pieces.len(),
            strategy.name(),
            strategy.depth(),
            strategy.depth(),
            spec.searcher,
            spec.evaluator,
            pieces.len()
        )));
    }
    apply_frame_options(&args, &mut strategy)?;
    let board = read_board(&args.board, args.board_height)?;
    let full = board.full_rows();
    if full != 0 {
        return Err(ArenaError::Usage(format!(
            "board file {}: line {} is a full row (a board at rest has none)",
            args.board.display(),
            full.trailing_zeros() + 1
        )));
    }
    let analysis = analyze(&mut strategy, &board, &pieces, args.all);
    if args.json {
        let output = AnalysisOutput {
            strategy: &analysis.strategy,
            pieces: &analysis.pieces,
            best: analysis.best.as_ref().map(PlacementOutput::new),
            placements: analysis
                .placements
                .iter()
                .map(PlacementOutput::new)
                .collect(),
        };
        let mut text = serde_json::to_string_pretty(&output).expect("analysis serializes");
        text.push('\n');
        return print_output(&text);
    }
    print_output(&render_text(&analysis, strategy.evaluator(), &args))
}

/// `x=… y=… rotation=… cells (x,y) …` for text output.
fn describe(placement: &Placement) -> String {
    let cells: Vec<String> = placement
        .cells
        .iter()
        .map(|(x, y)| format!("({x},{y})"))
        .collect();
    format!(
        "{} x={} y={} rotation={} cells {}",
        placement.piece,
        placement.x,
        placement.y,
        placement.rotation,
        cells.join(" ")
    )
}

/// A path in short form, runs of one input written once with a count (`D*16`).
fn describe_path(path: Option<&[Input]>) -> String {
    let Some(path) = path else {
        return "(none given by the searcher)".into();
    };
    if path.is_empty() {
        return "(none: the piece locks where it spawns)".into();
    }
    let mut parts: Vec<String> = Vec::new();
    let mut index = 0;
    while index < path.len() {
        let run = path[index..]
            .iter()
            .take_while(|&&input| input == path[index])
            .count();
        let name = path[index].short_name();
        parts.push(if run > 1 {
            format!("{name}*{run}")
        } else {
            name
        });
        index += run;
    }
    parts.join(" ")
}

/// The value with its chain length and rule, for text output.
fn describe_value(value: Option<ChainValue>, known: usize) -> String {
    let Some(value) = value else {
        return "none (no chain continues)".into();
    };
    let mut notes = vec!["cost of the best chain, lower is better".to_string()];
    if value.length < known {
        notes.push(format!(
            "cut short: {} of {known} pieces placed",
            value.length
        ));
    }
    match value.rule {
        ChainRule::Neutral => {}
        ChainRule::Prefer => notes.push("preferred by the evaluator".into()),
        ChainRule::Reject => notes.push("rejected by the evaluator".into()),
    }
    format!("{} ({})", format_number(value.cost), notes.join("; "))
}

/// The analysis as text: summary, best chain, features table and with --all a table.
fn render_text(analysis: &Analysis, evaluator: &AnyEvaluator, args: &Args) -> String {
    let letters: Vec<String> = analysis.pieces.iter().map(Piece::to_string).collect();
    let known = analysis.pieces.len();
    let mut lines = vec![format!(
        "strategy {}, pieces {} (current first), board {} (10 × {})",
        analysis.strategy,
        letters.join(","),
        args.board.display(),
        args.board_height
    )];
    let Some(best) = &analysis.best else {
        lines.push(format!(
            "no placement: the {} has none on this board (it cannot spawn): game over",
            analysis.pieces[0]
        ));
        return lines.join("\n") + "\n";
    };
    lines.push(format!("best:  {}", describe(&best.placement)));
    lines.push(format!("path:  {}", describe_path(best.path.as_deref())));
    lines.push(format!("value: {}", describe_value(best.value, known)));
    if !args.all && analysis.placements.len() > 1 {
        lines.push("best chain:".into());
        for (number, entry) in analysis.placements.iter().enumerate() {
            lines.push(format!(
                "  {}. {}  path {}",
                number + 1,
                describe(&entry.placement),
                describe_path(entry.path.as_deref())
            ));
        }
    }
    let mut out = lines.join("\n") + "\n";
    if let Some(features) = &best.features {
        out.push_str("features of the best chain:\n");
        write_feature_table(&mut out, evaluator, features);
    }
    if args.all {
        out.push_str(&format!(
            "every placement of the {} in the searcher's order ({}), * = best:\n",
            analysis.pieces[0],
            analysis.placements.len()
        ));
        let rows: Vec<[String; 7]> = analysis
            .placements
            .iter()
            .enumerate()
            .map(|(index, entry)| {
                let value = entry.value;
                [
                    index.to_string(),
                    entry.placement.x.to_string(),
                    entry.placement.y.to_string(),
                    entry.placement.rotation.to_string(),
                    value.map_or("-".into(), |value| format_number(value.cost)),
                    value.map_or("-".into(), |value| format!("{}/{known}", value.length)),
                    value.map_or("-".into(), |value| rule_name(value.rule).to_string()),
                ]
            })
            .collect();
        let header = ["#", "x", "y", "rotation", "value", "chain", "rule"].map(String::from);
        let mut widths = header.clone().map(|title| title.len());
        for row in &rows {
            for (width, cell) in widths.iter_mut().zip(row) {
                *width = (*width).max(cell.len());
            }
        }
        for (index, row) in std::iter::once(&header).chain(&rows).enumerate() {
            let is_best = index > 0 && analysis.placements[index - 1].placement == best.placement;
            let cells: Vec<String> = row
                .iter()
                .zip(widths)
                .map(|(cell, width)| format!("{cell:>width$}"))
                .collect();
            out.push_str(if is_best { "* " } else { "  " });
            out.push_str(&cells.join("  "));
            out.push('\n');
        }
    }
    out
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

    #[test]
    fn short_paths_write_runs_once() {
        use Input::{Down, Left, RotateClockwise};
        let path = [RotateClockwise, Left, Left, Left, Down, Down];
        assert_eq!(describe_path(Some(&path)), "CW L*3 D*2");
        assert_eq!(
            describe_path(Some(&[])),
            "(none: the piece locks where it spawns)"
        );
    }

    #[test]
    fn more_pieces_than_the_depth_use_the_first_ones() {
        // The library function clamps to the depth like the chain does; the command refuses.
        let mut strategy = Strategy::from_name("column-drop+elashi").unwrap();
        let board = Board::standard();
        let one = analyze(&mut strategy, &board, &[Piece::O], false);
        let two = analyze(&mut strategy, &board, &[Piece::O, Piece::I], false);
        assert_eq!(two.pieces, vec![Piece::O]);
        assert_eq!(one, two);
        assert_eq!(one.placements.len(), 1);
    }
}
