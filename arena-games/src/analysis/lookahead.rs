//! One imagined piece after a chain: for each of the 7 pieces that may come after the known
//! ones, the best placement of it at the end of a given chain (StackRabbit's
//! `lookaheadDepth=1` and its `hypotheticalLines`, docs/stackrabbit.md).
//!
//! A line's value is the strategy's value of the whole chain (the given placements, then the
//! imagined piece's best placement): the evaluator sees every placement's record, as it does
//! at the end of any chain. The given placements are fixed by a filter on a chain one piece
//! deeper (the filter admits only the given placement on each board the chain passes, and
//! anything on the board it ends on), so the imagined piece is searched and valued by the same
//! chain walk as every other analysis, with the strategy's searcher, evaluator and context.
//! Like [`crate::analysis::position`]'s reruns for one first placement, that chain has the
//! strategy's depth (one more) and no expectimax, playouts or no-suicide rule.

use std::sync::Arc;

use tetris_core::{
    Board, ChainOptions, ChainValue, DecisionContext, LookaheadChain, Piece, Placement,
    PlacementRecord,
};
use tetris_registry::Strategy;

/// The imagined piece after a chain, and its best placement there.
#[derive(Clone, Debug, PartialEq)]
pub struct HypotheticalLine {
    /// The imagined piece.
    pub piece: Piece,
    /// Its best placement at the end of the chain (`None`: it has none, the game would end).
    pub placement: Option<Placement>,
    /// The value of the whole chain with that placement (`None` with no placement).
    pub value: Option<ChainValue>,
}

/// For each piece in [`Piece::ALL`]'s order, its best placement after `chain` (the placements
/// of `pieces`, in order, on `board`) and the whole chain's value, by `strategy`'s searcher and
/// evaluator in `context`.
///
/// # Panics
/// If `chain` is not one placement per piece of `pieces`.
pub fn hypothetical_lines(
    strategy: &mut Strategy,
    board: &Board,
    pieces: &[Piece],
    chain: &[Placement],
    context: DecisionContext,
) -> Vec<HypotheticalLine> {
    assert_eq!(chain.len(), pieces.len(), "one placement per known piece");
    // The boards each given placement is played on, then the board the chain leaves.
    let mut boards = vec![*board];
    for &placement in chain {
        let mut next = *boards.last().expect("starts with the board");
        PlacementRecord::lock(&mut next, placement);
        boards.push(next);
    }
    let end = *boards.last().expect("one board per placement and the end");
    let played: Vec<(Board, Placement)> =
        boards.iter().copied().zip(chain.iter().copied()).collect();
    let only_the_chain = move |on: &Board, candidate: &Placement| {
        *on == end
            || played
                .iter()
                .any(|(before, placement)| before == on && placement == candidate)
    };
    let mut lookahead = LookaheadChain::new(ChainOptions {
        filter: Some(Arc::new(only_the_chain)),
        ..ChainOptions::with_depth(pieces.len() + 1)
    });
    let (searcher, evaluator, _) = strategy.parts_mut();
    let mut known = pieces.to_vec();
    known.push(Piece::T);
    Piece::ALL
        .iter()
        .map(|&piece| {
            *known.last_mut().expect("the imagined piece") = piece;
            let choice = lookahead.best_in(searcher, evaluator, board, &known, context);
            // A chain cut short ends before the imagined piece: it has no placement there.
            let full = choice.filter(|choice| choice.value.length == known.len());
            let placement = full.and_then(|_| lookahead.best_chain().last().copied());
            HypotheticalLine {
                piece,
                placement,
                value: full.map(|choice| choice.value),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use tetris_core::{Evaluator, SearchOptions, Searcher};

    #[test]
    fn each_line_is_the_chain_then_the_best_placement_of_the_imagined_piece() {
        // bfs+dellacherie on the fixtures' mid-game board: the given chain (T then its best L), then for
        // each imagined piece every placement on the board the chain leaves is valued as the
        // three-placement chain by the evaluator directly; the line must be the best of them.
        let mut strategy = Strategy::from_name("bfs+dellacherie@2").unwrap();
        let board: Board = tetris_fixtures::MID_GAME.parse().unwrap();
        let pieces = [Piece::T, Piece::L];
        let context = DecisionContext::default();
        let choice = strategy.choose_in(&board, &pieces, context).unwrap();
        let chain = strategy.chain().best_chain().to_vec();
        assert_eq!(chain[0], choice.placement);
        let lines = hypothetical_lines(&mut strategy, &board, &pieces, &chain, context);
        assert_eq!(lines.len(), 7);
        let mut end = board;
        let mut records = Vec::new();
        for &placement in &chain {
            records.push(PlacementRecord::lock(&mut end, placement));
        }
        let (searcher, evaluator, _) = strategy.parts_mut();
        for line in &lines {
            let mut found = tetris_core::Placements::new();
            searcher.search(&end, line.piece, SearchOptions::default(), &mut found);
            let best = found
                .iter()
                .map(|&placement| {
                    let mut after = end;
                    let mut all = records.clone();
                    all.push(PlacementRecord::lock(&mut after, placement));
                    evaluator.cost(tetris_core::Chain {
                        board: &after,
                        records: &all,
                    })
                })
                .fold(f64::INFINITY, f64::min);
            let value = line.value.expect("every piece fits on this board");
            assert_eq!(value.cost, best, "{}", line.piece);
            assert_eq!(line.placement.unwrap().piece, line.piece);
        }
    }
}
