//! Every placement of the current piece, ranked best first, with the best chain through each
//! of the top ones: what the move server answers (`/v1/analyze`, `/v1/rate` and the
//! StackRabbit-compatible endpoints), where `arena analyze --all` lists placements in the
//! searcher's order.
//!
//! One lookahead search gives every first placement's value
//! ([`LookaheadChain::first_placement_values`]); only the `top` best are searched again for
//! their chain and features ([`crate::analysis::position`]'s rerun with a filter), so asking for
//! the best five costs about six searches whatever the number of placements.
//!
//! Ranks are competition ranks: a placement's rank is one more than the number of placements
//! whose chain is strictly better ([`ChainValue::is_better_than`]), so equal values share a
//! rank and the chosen placement (the first best in the searcher's order) has rank 1.
//! Placements with no chain (removed by no-suicide or a filter) come last, unranked.

use tetris_core::{
    Board, ChainChoice, ChainValue, DecisionContext, FrameTiming, Input, Piece, PieceState,
    Placement, PlacementValue, Placements, SearchOptions, Searcher,
};
use tetris_registry::Strategy;

use crate::analysis::features::FeatureList;
use crate::analysis::position::{best_chain_from, chain_features, path_of};

/// One placement of the current piece, ranked.
#[derive(Clone, Debug, PartialEq)]
pub struct RankedPlacement {
    /// 1 + the number of placements whose best chain is strictly better; `None` when no
    /// chain starts with this placement.
    pub rank: Option<usize>,
    /// The placement.
    pub placement: Placement,
    /// The value of the best chain starting with it (`None`: no chain starts with it).
    pub value: Option<ChainValue>,
    /// For the top placements: that chain, this placement first (empty for the others).
    pub chain: Vec<Placement>,
    /// For the top placements: all of the evaluator's features of that chain.
    pub features: Option<FeatureList>,
    /// The searcher's input path from the spawn (`None`: the searcher records none).
    pub path: Option<Vec<Input>>,
}

/// A position's placements, ranked.
#[derive(Clone, Debug, PartialEq)]
pub struct Ranking {
    /// The strategy's canonical name.
    pub strategy: String,
    /// The known pieces used, current first (at most the strategy's depth).
    pub pieces: Vec<Piece>,
    /// Every placement of the current piece, best first; ties keep the searcher's order.
    pub placements: Vec<RankedPlacement>,
    /// How many of them carry their chain, features and path (the `top` asked for, or
    /// fewer when there are fewer placements).
    pub detailed: usize,
    /// Placements the searcher found over every search of the ranking (each one a board
    /// judged or continued from): the work the answer took.
    pub nodes: u64,
    /// The strategy's own choice, what a game plays (`None`: no placement). Usually the first
    /// ranked placement; with expectimax's finalists (and playouts) it is the best finalist by
    /// the averaged value, which the ranking's first-round values do not show.
    pub choice: Option<ChainChoice>,
    /// With playouts: the finalists the choice was made among, each with its value then
    /// (averaged over the unknown piece, plus the playouts'; [`LookaheadChain::finalist_values`]);
    /// empty otherwise.
    ///
    /// [`LookaheadChain::finalist_values`]: tetris_core::LookaheadChain::finalist_values
    pub finalists: Vec<PlacementValue>,
}

impl Ranking {
    /// The ranked entry of `placement`, if the searcher found it.
    pub fn find(&self, placement: &Placement) -> Option<&RankedPlacement> {
        self.placements
            .iter()
            .find(|ranked| ranked.placement == *placement)
    }
}

/// Ranks every placement of `pieces[0]` on `board` by the best chain starting with it
/// (`pieces` current first, at most the strategy's depth are used) in `context`, and gives
/// the `top` best their chain, features and path.
pub fn rank_placements(
    strategy: &mut Strategy,
    board: &Board,
    pieces: &[Piece],
    context: DecisionContext,
    top: usize,
) -> Ranking {
    let name = strategy.name();
    let pieces = &pieces[..pieces.len().min(strategy.depth())];
    let (searcher, evaluator, chain) = strategy.parts_mut();
    let mut counting = CountingSearcher {
        inner: searcher,
        nodes: 0,
    };
    let mut ranking = Ranking {
        strategy: name,
        pieces: pieces.to_vec(),
        placements: Vec::new(),
        detailed: 0,
        nodes: 0,
        choice: None,
        finalists: Vec::new(),
    };
    ranking.choice = chain.best_in(&mut counting, evaluator, board, pieces, context);
    ranking.finalists = chain.finalist_values().to_vec();
    if ranking.choice.is_none() {
        ranking.nodes = counting.nodes;
        return ranking;
    }
    let values = chain.first_placement_values();
    // A stable sort: equal values keep the searcher's order, so the chain's own choice (the
    // first best) comes first.
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| match (values[a].value, values[b].value) {
        (Some(a), Some(b)) => a.ranking(&b),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => std::cmp::Ordering::Equal,
    });
    let mut rank = 0;
    for (position, &index) in order.iter().enumerate() {
        let entry = values[index];
        if let Some(value) = entry.value {
            let ties_previous = position > 0
                && values[order[position - 1]]
                    .value
                    .is_some_and(|previous| !previous.is_better_than(&value));
            if !ties_previous {
                rank = position + 1;
            }
        }
        ranking.placements.push(RankedPlacement {
            rank: entry.value.map(|_| rank),
            placement: entry.placement,
            value: entry.value,
            chain: Vec::new(),
            features: None,
            path: None,
        });
    }
    let mut paths = Placements::new();
    counting.search(
        board,
        pieces[0],
        context.current_piece_options(true),
        &mut paths,
    );
    ranking.detailed = top.min(ranking.placements.len());
    for ranked in &mut ranking.placements {
        ranked.path = path_of(&paths, &ranked.placement);
    }
    for ranked in &mut ranking.placements[..ranking.detailed] {
        if ranked.value.is_none() {
            continue;
        }
        let (best_chain, _) = best_chain_from(
            counting.inner,
            evaluator,
            board,
            pieces,
            ranked.placement,
            context,
        );
        ranked.features = Some(chain_features(evaluator, board, &best_chain));
        ranked.chain = best_chain;
    }
    ranking.nodes = counting.nodes;
    ranking
}

/// A searcher that counts the placements it finds (the ranking's `nodes`), searching with
/// the strategy's own.
struct CountingSearcher<'a, S: ?Sized> {
    inner: &'a mut S,
    nodes: u64,
}

impl<S: Searcher + ?Sized> Searcher for CountingSearcher<'_, S> {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn search(
        &mut self,
        board: &Board,
        piece: Piece,
        options: SearchOptions,
        out: &mut Placements,
    ) {
        self.inner.search(board, piece, options, out);
        self.nodes += out.len() as u64;
    }

    fn search_unordered(
        &mut self,
        board: &Board,
        piece: Piece,
        options: SearchOptions,
        out: &mut Placements,
    ) {
        self.inner.search_unordered(board, piece, options, out);
        self.nodes += out.len() as u64;
    }

    fn unordered_search_keeps_order(&self) -> bool {
        self.inner.unordered_search_keeps_order()
    }

    fn frame_timing(&self) -> Option<FrameTiming> {
        self.inner.frame_timing()
    }

    fn path_start(&self) -> PieceState {
        self.inner.path_start()
    }
}
