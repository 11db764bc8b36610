//! `arena analyze`'s output: the JSON form (typed: these structs are its schema) and the text.

use serde::Serialize;
use tetris_core::{ChainRule, ChainValue, Input, Piece, Placement};
use tetris_registry::AnyEvaluator;

use crate::features::write_feature_table;
use tetris_arena_games::analysis::features::FeatureList;
use tetris_arena_games::analysis::position::{
    Analysis, PlacementAnalysis, path_names, reported_cost, rule_name,
};
use tetris_arena_io::format::readable;
use tetris_arena_io::output::{MadeBy, pretty_json};

/// The JSON form of one placement (a struct, so the keys keep the contract's order).
///
/// `value` is `null` when no chain continues from the placement: none starts with it (the
/// filter or no-suicide removed it), or the best one is cut short before the last known piece
/// (the game ends, or that piece has no placement; docs/spec/arena.md). `chain_length` and `rule` still
/// describe the cut-short chain.
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
    /// The output of `analysis`, a placement of a decision over `known` pieces.
    fn new(analysis: &'a PlacementAnalysis, known: usize) -> PlacementOutput<'a> {
        let placement = &analysis.placement;
        PlacementOutput {
            piece: placement.piece,
            x: placement.x,
            y: placement.y,
            rotation: placement.rotation,
            cells: placement.cells.map(|(x, y)| [x, y]),
            value: reported_cost(analysis.value, known),
            chain_length: analysis.value.map(|value| value.length),
            rule: analysis.value.map(|value| rule_name(value.rule)),
            features: analysis.features.as_ref(),
            path: path_names(analysis.path.as_deref()),
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
    made_by: MadeBy,
}

/// The analysis as indented JSON.
pub fn analysis_json(analysis: &Analysis) -> String {
    let known = analysis.pieces.len();
    let output = |placement| PlacementOutput::new(placement, known);
    pretty_json(&AnalysisOutput {
        strategy: &analysis.strategy,
        pieces: &analysis.pieces,
        best: analysis.best.as_ref().map(output),
        placements: analysis.placements.iter().map(output).collect(),
        made_by: MadeBy::current(),
    })
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
    format!("{} ({})", readable(value.cost), notes.join("; "))
}

/// The analysis as text: summary, best chain, features table and with --all a table.
/// `board` names the board file and its size in the first line.
pub fn analysis_text(
    analysis: &Analysis,
    evaluator: &AnyEvaluator,
    board: &str,
    all: bool,
) -> String {
    let letters: Vec<String> = analysis.pieces.iter().map(Piece::to_string).collect();
    let known = analysis.pieces.len();
    let mut lines = vec![format!(
        "strategy {}, pieces {} (current first), board {board}",
        analysis.strategy,
        letters.join(","),
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
    if !all && analysis.placements.len() > 1 {
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
    if all {
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
                    value.map_or("-".into(), |value| readable(value.cost)),
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
    fn short_paths_write_runs_once() {
        use Input::{Down, Left, RotateClockwise};
        let path = [RotateClockwise, Left, Left, Left, Down, Down];
        assert_eq!(describe_path(Some(&path)), "CW L*3 D*2");
        assert_eq!(
            describe_path(Some(&[])),
            "(none: the piece locks where it spawns)"
        );
    }
}
