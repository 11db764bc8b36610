//! How a strategy judges a position: its best chain, or every placement of the current piece
//! with the best chain starting there, each with the chain's value, features and input path
//! (`arena analyze`; the choices are listed in that command's documentation).

use std::sync::Arc;

use tetris_core::{
    Board, ChainOptions, ChainRule, ChainValue, DecisionContext, Input, LookaheadChain, Piece,
    Placement, PlacementRecord, Placements, SearchOptions, Searcher,
};
use tetris_registry::{AnyEvaluator, AnySearcher, Strategy};

use crate::analysis::features::FeatureList;
use crate::error::GameError;
use crate::sim::evaluation::chain_feature_values;

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

/// Analyzes `board` for `pieces` (current first, at most the strategy's depth) in a game
/// without frames: [`analyze_in`] with the default context.
pub fn analyze(strategy: &mut Strategy, board: &Board, pieces: &[Piece], all: bool) -> Analysis {
    analyze_in(strategy, board, pieces, DecisionContext::default(), all)
}

/// The pieces an analysis is given must fit the strategy's depth (it looks at `depth` pieces
/// per decision): an error that says how to fix it otherwise. `arena analyze` and the Python
/// package's `analyze` check with this.
pub fn check_pieces_fit_depth(strategy: &Strategy, pieces: &[Piece]) -> Result<(), GameError> {
    if pieces.len() <= strategy.depth() {
        return Ok(());
    }
    let spec = strategy.spec();
    // The depth to suggest: the one that looks at every piece given, when there is one.
    let remedy = match pieces.len() <= tetris_registry::MAX_DEPTH {
        true => format!(
            "give at most {} or raise the depth (e.g. {}+{}@{})",
            strategy.depth(),
            spec.searcher,
            spec.evaluator,
            pieces.len()
        ),
        false => format!(
            "give at most {} (no strategy looks at more than {} pieces: @{} is the deepest)",
            strategy.depth(),
            tetris_registry::MAX_DEPTH,
            tetris_registry::MAX_DEPTH
        ),
    };
    Err(GameError::Refused(format!(
        "{} pieces given ({}) but strategy {} looks at {} per decision ({}): {remedy}",
        pieces.len(),
        current_and_preview(pieces.len()),
        strategy.name(),
        strategy.depth(),
        current_and_preview(strategy.depth()),
    )))
}

/// What `count` pieces of a decision are, in words: the current piece and the preview, so
/// that a count is never read as preview pieces alone.
fn current_and_preview(count: usize) -> String {
    match count {
        0 | 1 => "the current piece alone".to_string(),
        2 => "the current piece and 1 preview piece".to_string(),
        count => format!("the current piece and {} preview pieces", count - 1),
    }
}

/// Analyzes `board` for `pieces` (current first, at most the strategy's depth) in `context`
/// (a gravity-aware searcher's timing and entry delay): the best chain, or with `all` every
/// placement of the current piece with the best chain from it.
pub fn analyze_in(
    strategy: &mut Strategy,
    board: &Board,
    pieces: &[Piece],
    context: DecisionContext,
    all: bool,
) -> Analysis {
    let name = strategy.name();
    // The chain would look at the first `depth` pieces only; so does everything below.
    let pieces = &pieces[..pieces.len().min(strategy.depth())];
    let (searcher, evaluator, chain) = strategy.parts_mut();
    let choice = chain.best_in(searcher, evaluator, board, pieces, context);
    let best_chain: Vec<Placement> = chain.best_chain().to_vec();
    // Paths of the current piece start with the entry delay when the chain searched it so;
    // later pieces are searched at the same timing without it.
    let first_piece_paths = context.current_piece_options(true);
    let later_piece_paths = SearchOptions {
        with_paths: true,
        ..context.later_piece_options()
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
        for entry in &report {
            let features = entry.value.map(|_| {
                let (chain, value) =
                    best_chain_from(searcher, evaluator, board, pieces, entry.placement, context);
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
                later_piece_paths
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
/// chains, and its value, in the decision's `context`.
///
/// The chain is run again with a filter that keeps only `first` among the current piece's
/// placements, so that later pieces are judged with `first`'s record in the chain, exactly as
/// in the full search. The filter recognises the current piece's level by its board: every
/// later board differs from the original, since a placement stores 1 to 4 cells (its pivot
/// cell is always on the field) and a clear removes a multiple of 10.
pub(crate) fn best_chain_from(
    searcher: &mut AnySearcher,
    evaluator: &AnyEvaluator,
    board: &Board,
    pieces: &[Piece],
    first: Placement,
    context: DecisionContext,
) -> (Vec<Placement>, Option<ChainValue>) {
    let original = *board;
    let only_first =
        move |on: &Board, candidate: &Placement| *on != original || *candidate == first;
    let mut chain = LookaheadChain::new(ChainOptions {
        filter: Some(Arc::new(only_first)),
        ..ChainOptions::with_depth(pieces.len())
    });
    let value = chain
        .best_in(searcher, evaluator, board, pieces, context)
        .map(|choice| choice.value);
    (chain.best_chain().to_vec(), value)
}

/// All of the evaluator's features of the chain `placements` played from `board`.
pub(crate) fn chain_features(
    evaluator: &AnyEvaluator,
    board: &Board,
    placements: &[Placement],
) -> FeatureList {
    FeatureList(chain_feature_values(evaluator, board, placements))
}

/// The path the searcher recorded for `placement` in `paths`.
pub(crate) fn path_of(paths: &Placements, placement: &Placement) -> Option<Vec<Input>> {
    let index = paths.iter().position(|candidate| candidate == placement)?;
    paths.path(index).map(<[Input]>::to_vec)
}

/// A chain's value as the reports give it: its cost when the chain reaches every one of the
/// `known` pieces; `None` when no chain continues, or when it was cut short.
pub fn reported_cost(value: Option<ChainValue>, known: usize) -> Option<f64> {
    value
        .filter(|value| value.length >= known)
        .map(|value| value.cost)
}

/// A path as the reports write it: each input's short name ([`Input::short_name`]).
pub fn path_names(path: Option<&[Input]>) -> Option<Vec<String>> {
    path.map(|path| path.iter().map(|input| input.short_name()).collect())
}

/// The rule's name in output.
pub fn rule_name(rule: ChainRule) -> &'static str {
    match rule {
        ChainRule::Prefer => "prefer",
        ChainRule::Neutral => "neutral",
        ChainRule::Reject => "reject",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
