//! The plan of a player with a reaction time: which inputs to commit to before the preview
//! piece is seen (docs/spec/search.md §3, "Reaction time").
//!
//! A player who needs R frames to see the preview plays R frames of inputs without it, then
//! re-plans with it from wherever those frames left the piece. The best first R frames are
//! therefore not the start of the path to the placement that is best on average over the
//! previews: they are the ones that leave the best choices open once the preview is known.
//! [`ReactionPlanner::plan`] ranks them that way:
//!
//! 1. **The candidates.** For every placement of the current piece the searcher finds from the
//!    spawn, in its order, the first R frames of its path to it (the whole path when it locks
//!    within R frames: the player commits to that placement). Equal frames are one candidate,
//!    the earliest.
//! 2. **What each preview makes of a placement.** For each of the 7 pieces the preview may be,
//!    the strategy's chain without its expectimax and playouts (its depth, filter and no-suicide rule)
//!    analyses every placement of the current piece with that preview known: V(p, q), the best
//!    chain through placement p when the preview is q. The 7 analyses are made in one walk
//!    ([`LookaheadChain::analyze_with_every_next_in`]): each p's board is valued for the 7
//!    previews at once.
//! 3. **What a candidate leaves open.** The searcher, started after the candidate's frames
//!    ([`tetris_core::DecisionContext::played`]), gives the placements still reachable, a
//!    subset of those from the spawn (as a set: its unordered search); with preview q the
//!    re-plan can at best take the best V(p, q) among them. A candidate's value averages
//!    those bests over the 7 previews as expectimax does ([`MeanOverPieces`]: a preview with no full-length chain is lost; a
//!    preferred chain counts its cost minus the strategy's prefer bonus, if any).
//! 4. **The plan** is the best candidate (the chain's order of values, the earlier first among
//!    equals), reported as the placement whose path it starts.
//!
//! The first R frames of the plan depend on the board and the current piece only. A chain of
//! depth 1 never looks at the preview: every candidate holding the best placement ties, and the
//! earliest is played. The re-plan is the strategy's own decision (with its expectimax and
//! playouts, if any), so for such a strategy the plan estimates it with the plain chain.
//!
//! Cost: 7 analyses of the current piece with a preview (as many evaluations as one
//! expectimax decision over every placement) and one search of the current piece per
//! candidate. The buffers are kept between pieces: nothing is allocated once they have grown.
//!
//! The table of V(p, q) is kept until the next plan: once the preview q is seen, the
//! re-plan's first round (a strategy with finalists ranks the first placements by their
//! chains without expectimax, which are the planner's chain's) needs V(p, q) for the
//! placements still open, and takes them from here
//! ([`ReactionPlanner::values_with_preview`], `Strategy::replan_in`) rather than walking
//! their chains again. The table answers only for the board, current piece and context it
//! was made for.

use tetris_core::{
    Board, ChainChoice, ChainOptions, ChainValue, DecisionContext, Evaluator, Input,
    LookaheadChain, MeanOverPieces, Piece, Placements, PlayedFrames, Searcher,
};

/// The planner's chain and buffers (module documentation).
#[derive(Debug)]
pub struct ReactionPlanner {
    /// The strategy's chain without expectimax: V(p, q) for one preview q at a time.
    chain: LookaheadChain,
    /// The current piece's placements from the spawn, with their paths.
    spawn: Placements,
    /// The placements reachable after one candidate's frames.
    after: Placements,
    /// Per placement from the spawn (same index), V(p, q) for the 7 previews in `Piece::ALL`
    /// order: `Some(None)` when no chain starts with p, `None` when the analysis did not
    /// report p (never seen: its search is the spawn's).
    values: Vec<[Option<Option<ChainValue>>; 7]>,
    /// What the values above were found for: the board, the current piece and the context
    /// (no frames played); `None` before the first plan.
    planned: Option<(Board, Piece, DecisionContext)>,
    /// Per placement from the spawn, whether the current candidate still reaches it.
    reachable: Vec<bool>,
}

impl ReactionPlanner {
    /// A planner for a strategy with these chain options (their expectimax and playouts are
    /// dropped).
    pub fn new(options: &ChainOptions) -> ReactionPlanner {
        ReactionPlanner {
            chain: LookaheadChain::new(ChainOptions {
                expectimax: false,
                expectimax_finalists: None,
                playouts: None,
                ..options.clone()
            }),
            spawn: Placements::new(),
            after: Placements::new(),
            values: Vec::new(),
            planned: None,
            reachable: Vec::new(),
        }
    }

    /// The chain options the planner was built from (without expectimax and playouts).
    pub fn options(&self) -> &ChainOptions {
        self.chain.options()
    }

    /// The plan for `current` on `board` of a player who sees the preview after
    /// `reaction_frames` frames (module documentation): the placement whose path's first
    /// `reaction_frames` frames to play (its index in the searcher's order from the spawn),
    /// and the value of those frames averaged over the previews. `None` when the current
    /// piece has no placement the chain allows. `context` has no frames played; the searcher
    /// must be gravity-aware (its paths are one button set per frame).
    pub fn plan<S, E>(
        &mut self,
        searcher: &mut S,
        evaluator: &E,
        board: &Board,
        current: Piece,
        context: DecisionContext,
        reaction_frames: u8,
    ) -> Option<ChainChoice>
    where
        S: Searcher + ?Sized,
        E: Evaluator + ?Sized,
    {
        searcher.search(
            board,
            current,
            context.current_piece_options(true),
            &mut self.spawn,
        );
        self.planned = Some((*board, current, context));
        self.values.clear();
        self.values.resize(self.spawn.len(), [None; 7]);
        let rows = self
            .chain
            .analyze_with_every_next_in(searcher, evaluator, board, current, context);
        for (position, row) in rows.iter().enumerate() {
            // The same search as `spawn`'s (without paths), so the same order: the
            // placement is at its own position; it is looked for only if it is not.
            let index = if self.spawn.get(position) == Some(&row.placement) {
                Some(position)
            } else {
                index_of(&self.spawn, row.placement)
            };
            if let Some(index) = index {
                self.values[index] = row.values.map(Some);
            }
        }
        let full_length = self.chain.options().depth.min(2);
        let reaction = usize::from(reaction_frames);
        let mut best: Option<ChainChoice> = None;
        for index in 0..self.spawn.len() {
            let path = self.spawn.path(index).unwrap_or(&[]);
            let (frames, commits) = if path.len() <= reaction {
                (path, true)
            } else {
                (&path[..reaction], false)
            };
            // Equal frames leave the same placements open: the earliest candidate stands.
            if !commits && self.earlier_candidate_has(index, frames, reaction) {
                continue;
            }
            self.reachable.clear();
            self.reachable.resize(self.spawn.len(), false);
            if commits {
                self.reachable[index] = true;
            } else {
                let Some(played) = played_frames(frames) else {
                    continue;
                };
                let options = DecisionContext { played, ..context }.current_piece_options(false);
                // Only which placements are open counts, not their order.
                searcher.search_unordered(board, current, options, &mut self.after);
                for &placement in self.after.iter() {
                    if let Some(open) = index_of(&self.spawn, placement) {
                        self.reachable[open] = true;
                    }
                }
            }
            let Some(value) = self.value_left_open(full_length) else {
                continue;
            };
            if best.is_none_or(|best| value.is_better_than(&best.value)) {
                best = Some(ChainChoice {
                    placement: self.spawn.as_slice()[index],
                    index,
                    value,
                });
            }
        }
        best
    }

    /// The values V(p, q) of the last plan for `preview` q, when that plan was made for
    /// `current` on `board` in `context` (its frames played aside): each is what the
    /// planner's chain, the strategy's without expectimax and playouts, reports for p with
    /// the pieces `[current, preview]` ([`LookaheadChain::analyze_all_in`]). A re-plan with
    /// that preview needs the same values in its first round
    /// ([`LookaheadChain::decide_with_first_values_in`]). `None` when the last plan was for
    /// another board, piece or context, or there was none.
    pub fn values_with_preview(
        &self,
        board: &Board,
        current: Piece,
        preview: Piece,
        context: DecisionContext,
    ) -> Option<PlannedValues<'_>> {
        let unplayed = DecisionContext {
            played: PlayedFrames::NONE,
            ..context
        };
        if self.planned != Some((*board, current, unplayed)) {
            return None;
        }
        Some(PlannedValues {
            spawn: &self.spawn,
            values: &self.values,
            slot: Piece::ALL.iter().position(|&piece| piece == preview)?,
        })
    }

    /// Whether a placement before `index` in the spawn's order has a path longer than
    /// `reaction` frames that starts with `frames`.
    fn earlier_candidate_has(&self, index: usize, frames: &[Input], reaction: usize) -> bool {
        (0..index).any(|earlier| {
            self.spawn
                .path(earlier)
                .is_some_and(|path| path.len() > reaction && &path[..reaction] == frames)
        })
    }

    /// The value of the placements marked in `reachable`, averaged over the previews: per
    /// preview the best chain through one of them (lost when none has `full_length`
    /// placements), `None` when no chain starts with any of them.
    fn value_left_open(&self, full_length: usize) -> Option<ChainValue> {
        let mut mean = MeanOverPieces::with_prefer_bonus(self.chain.options().prefer_bonus);
        let mut any = false;
        for slot in 0..Piece::ALL.len() {
            let mut best: Option<ChainValue> = None;
            for (values, _) in self
                .values
                .iter()
                .zip(&self.reachable)
                .filter(|(_, open)| **open)
            {
                if let Some(Some(value)) = values[slot] {
                    any = true;
                    if best.is_none_or(|best| value.is_better_than(&best)) {
                        best = Some(value);
                    }
                }
            }
            mean.add(best.filter(|best| best.length >= full_length));
        }
        any.then(|| mean.value(1))
    }
}

/// The last plan's values V(p, q) for one preview q ([`ReactionPlanner::values_with_preview`]).
#[derive(Clone, Copy, Debug)]
pub struct PlannedValues<'p> {
    spawn: &'p Placements,
    values: &'p [[Option<Option<ChainValue>>; 7]],
    slot: usize,
}

impl PlannedValues<'_> {
    /// V(p, q) of `placement` p: `Some(None)` when no chain starts with it, `None` when the
    /// plan did not value it.
    pub fn value_of(&self, placement: tetris_core::Placement) -> Option<Option<ChainValue>> {
        self.values[index_of(self.spawn, placement)?][self.slot]
    }
}

/// The index of `placement` among `placements`.
fn index_of(placements: &Placements, placement: tetris_core::Placement) -> Option<usize> {
    placements
        .iter()
        .position(|candidate| *candidate == placement)
}

/// A path's first frames as frames played, `None` if a step is not one button set per frame.
fn played_frames(path: &[Input]) -> Option<PlayedFrames> {
    if path.len() > tetris_core::MAX_PLAYED_FRAMES {
        return None;
    }
    let mut frames = [tetris_core::Buttons::NONE; tetris_core::MAX_PLAYED_FRAMES];
    for (slot, input) in frames.iter_mut().zip(path) {
        *slot = input.frame()?;
    }
    PlayedFrames::new(&frames[..path.len()])
}
