//! Lookahead chains: a searcher and an evaluator chained over the known pieces (docs/spec/search.md §4).
//!
//! The current piece is placed at every placement the searcher finds, its rows clear, the next
//! known piece is searched on the board that leaves, and so on to the chain's depth; the last
//! link hands the final board and one [`PlacementRecord`] per placement to the evaluator. The
//! best chain's FIRST placement is the move to play.
//!
//! # Which chain is best
//!
//! Every chain gets a [`ChainValue`]; [`ChainValue::is_better_than`] orders them by, in turn:
//!
//! 1. **length** — more placements first. A chain is cut short when the game ends before a
//!    later known piece (under the decision's [`GameOverRule`]: that piece cannot spawn, or,
//!    under the literature rule, the placement before it landed with a cell above row 0), or
//!    when that piece has no placement on the board the chain leaves (the filter or no-suicide
//!    rule removed every one). A cut-short chain is evaluated as it stands (its board and
//!    its records so far), and only wins when no full-length chain exists: the current piece
//!    is still played, so the game goes on as long as the current piece has a placement;
//! 2. **unknown pieces lost** (expectimax only, below) — fewer first;
//! 3. **the evaluator's [`ChainRule`]** — `Prefer` before `Neutral` before `Reject`. Rejected
//!    chains are thus never taken while any chain that is not rejected exists; when EVERY chain
//!    is rejected the best rejected chain by cost is played (the result says so through its
//!    rule), so that the game goes on rather than ending with a legal move left;
//! 4. **cost** — lower first.
//!
//! Ties keep the FIRST chain (strict comparison), iterating the current piece's placements in
//! the searcher's order and, inside each, the next piece's in order, and so on: the rule that
//! reproduces the original NES AI program move for move. A NaN cost never wins a comparison.
//!
//! # Options ([`ChainOptions`])
//!
//! - `depth`: how many known pieces to chain (1 = current piece only, 2 = current + preview as
//!   on the NES, more for deeper lookahead). Fewer pieces given than the depth → the chain uses
//!   those given.
//! - `expectimax`: after the last known piece, average over the 7 possible unknown pieces. For
//!   each unknown piece (in T J Z O S L I order) its best chain is found by the rules above
//!   (the evaluator sees the known placements plus the unknown one); the known chain's value
//!   is then: `unknown_pieces_lost` = how many of the 7 have no placement at all (the piece
//!   cannot spawn, or the filter or no-suicide removed every placement: the game would end if
//!   it came); cost = the mean of the surviving pieces' best costs (summed in piece order, then
//!   divided by their count; +∞ when none survives); rule = `Reject` if some surviving piece's
//!   best chain is rejected (whatever comes next, that piece could only make a rejected
//!   chain), else `Prefer` if every surviving piece's best chain is preferred, else `Neutral`.
//!   Losing a piece ranks below any cost, so an unknown piece that cannot spawn is never
//!   averaged away. With no piece lost and no rule, this is exactly "the average of the 7 best
//!   costs".
//! - `prefer_bonus` (B, default 0): in that average, a surviving piece whose best chain is
//!   `Prefer`red counts its cost minus B. Why: the rule `Prefer` outranks every cost inside
//!   one piece's chains, but the average only stays `Prefer` when EVERY piece's best chain is,
//!   so a chain after which one kind of piece (say the I, into a ready well) could make a
//!   preferred chain averages that piece's cost like any other. When the evaluator's cost
//!   dislikes what the preferred chain does (the NES-plateau cost rewards a full board, and a
//!   Tetris empties four rows of it), being ready for it is penalised; B states what the
//!   chance is worth. With B = 0 this is the plain average above. The reaction plan's average
//!   over the 7 previews uses the same bonus.
//! - `playouts` (with finalists only): each finalist's value also weighs short random
//!   continuations after its best chain (see "Playouts" below).
//! - `no_suicide`: skip every placement that ends the game under the decision's
//!   [`GameOverRule`]. Under the simulation rule that is a placement after which the next
//!   piece cannot spawn: the next known piece of the chain, or, after the LAST known piece,
//!   ANY of the 7 (any of them may come; with expectimax the same 7-piece rule applies after
//!   the unknown piece). Under the literature rule it is a placement that lands with a cell
//!   above row 0. Off by default; without it such placements are still candidates, scored like
//!   the others at the last known piece and cut short before a later one.
//! - `filter`: a [`PlacementFilter`] asked about every placement at every depth (with the
//!   board that piece is placed on); rejected placements start or continue no chain.
//!
//! [`LookaheadChain::best`] returns `None` only when no placement of the current piece is left:
//! it cannot spawn, or the filter or no-suicide rule removed all of its placements.
//!
//! # The decision's context ([`DecisionContext`])
//!
//! [`LookaheadChain::best_in`] takes what the decision depends on besides the board and the
//! pieces: the game-over rule (above); the frame timing (the level's frames per row and the
//! player's input timeline), which every search of the chain gets ([`SearchOptions::frame_timing`]:
//! the current piece, the later known pieces and the unknown ones, all falling at the same
//! level); and whether the current piece is the game's first, which only the current piece's
//! search gets ([`SearchOptions::entry_delay`]: the preview piece and any later one never have
//! the delay). Only gravity-aware searchers read the last two. [`LookaheadChain::best`] is
//! the same call with the default context: each searcher's own timing, no entry delay, the
//! simulation rule.
//!
//! [`GameOverRule`]: crate::rules::GameOverRule
//! [`GameOverRule::checks_spawn`]: crate::rules::GameOverRule::checks_spawn
//! [`SearchOptions::frame_timing`]: crate::search::SearchOptions::frame_timing
//! [`SearchOptions::entry_delay`]: crate::search::SearchOptions::entry_delay
//!
//! # Order
//!
//! Only the current piece's placements are searched in the searcher's order
//! ([`Searcher::search`]); the later known pieces and the unknown ones are searched in the
//! searcher's fastest order ([`Searcher::search_unordered`], the same set). That changes no
//! decision: the best chain's first placement is the first placement of the current piece,
//! in its order, whose best chain has the best value, and a placement's best value does not
//! depend on the order its chains are tried in. What the order of later pieces decides is
//! which of several tied chains through that first placement is reported as the best chain
//! ([`LookaheadChain::best_chain`]): so when some chain ties with the best one, the chains
//! through the chosen first placement are walked once more in the searcher's order (unless
//! its unordered search keeps that order, [`Searcher::unordered_search_keeps_order`]), and the
//! best chain is exactly the one the ordered walk gives. Ties need equal costs to the last
//! bit; they are common only when the preview is of the current piece's kind (its two
//! placements swapped leave the same board), and the second walk costs one ordered search of
//! the next piece. [`LookaheadChain::analyze_all_in`], whose report does not depend on which
//! tied chain is the best chain, skips it.
//!
//! # Cost of a search
//!
//! The chain keeps one [`Placements`] buffer per level, a record stack, the best chain and the
//! per-first-placement report, all reused: after the first searches nothing is allocated, and
//! nothing per evaluated leaf. Boards are copied (a board is 44 bytes) rather than undone.
//! Searches inside the chain ask for no paths; ask the searcher again for the chosen
//! placement's path, in the same context ([`DecisionContext::current_piece_options`]).
//!
//! The last known piece's placements, where nearly all of the work is, go to the evaluator in
//! one call ([`Evaluator::last_link_values`], which may update the board's features column by
//! column instead of locking each one) when there is no filter and no expectimax. No-suicide
//! first drops the placements that end the game: under the literature rule by their cells
//! alone, under a rule that tests the next piece's spawn ([`GameOverRule::checks_spawn`]) by
//! locking a copy of the board (far cheaper than evaluating it) and testing the 7 spawns.
//! Otherwise each placement is locked, checked and evaluated in turn; both ways give the same
//! values, ties and report. A report at depth 2 or more needs only each such call's best
//! chain (the best chain through one first placement), so its call goes through
//! [`Evaluator::last_link_values_of_searches`] as one search: a stand-in costs more than
//! another chain of the call that is given exactly and ties with nothing, so the call's first
//! best chain, its value, the best chain so far and the ties are the exact values' (a
//! depth-1 chain's report lists every leaf: exact values). The pieces after the last known
//! one (expectimax's unknown pieces,
//! a playout's pieces) need only their best value: without a filter their placements also go
//! to the evaluator in one call (`Walk::best_link`), after no-suicide drops the same ones,
//! and the evaluator may give a chain that certainly costs more than an earlier one of the
//! same search a lower bound instead ([`Evaluator::last_link_values_of_searches`]): the
//! first best is the same chain with the same value.
//! An evaluator that takes several searches at once
//! ([`Evaluator::values_several_searches_at_once`]) gets the 7 unknown pieces' placements in
//! one call, each piece's after the other's, and each piece's best is the first best of its
//! own placements (`Walk::unknown_pieces_in_one_call`): the same bests, with the board's
//! terms taken once for the 7.
//!
//! # Deciding ([`LookaheadChain::decide_in`])
//!
//! A player needs the choice, not every first placement's best chain. Then the last known
//! piece's values go through [`Evaluator::last_link_values_to_beat`] with the best chain's
//! cost so far (when that chain is complete and not rejected): the evaluator may give a chain
//! that certainly costs more, and whose rule is `Neutral`, a cheaper lower bound above that
//! cost instead of its exact value; or above the exact cost of an earlier `Neutral` chain of
//! the same call, which has the same length and was offered first (so a depth-1 chain, which
//! has no cost to beat before its one call, still gets stand-ins). Such a chain is worse than
//! the best either way and ties with nothing, so the choice, its value, the best chain and the tie walk are the same as
//! [`LookaheadChain::best_in`]'s; only the per-first-placement report, which would need the
//! exact values, is not kept. The lower the cost to beat, the more stand-ins: so the chains
//! through the last decision's second placement (which went on to this piece) are walked
//! first, once, for their best cost, and the walk in order starts with that cost to beat (it
//! offers those chains again, so the best chain costs at most that).
//!
//! # Finalists ([`ChainOptions::expectimax_finalists`])
//!
//! Averaging over the unknown piece multiplies the work by 7 searches and their placements
//! for every chain. With finalists, the chain first ranks the first placements as without
//! expectimax (their best chains' values: the report), then walks only the `K` best of them
//! again (the earlier first among equals, walked in their order) with every chain averaged
//! over the unknown piece, and plays the best of those. `K` at least the number of first
//! placements gives the plain expectimax choice. The report is the first round's (values
//! without the unknown piece); the choice's value is the averaged one.
//!
//! The first round's values are those of a chain with the same options but no expectimax,
//! finalists or playouts: a caller that has them already (a player with a reaction time, whose
//! plan valued every placement with every preview) gives them to
//! [`LookaheadChain::decide_with_first_values_in`], and the first round takes each one given
//! instead of walking its chains. The values, hence the report, the finalists and the choice,
//! are the same; the first round then costs its search of the current piece.
//!
//! # Playouts ([`ChainOptions::playouts`])
//!
//! Expectimax sees one piece past the known ones; a board can suit that piece and still lead
//! nowhere good. With playouts the finalists are walked one at a time, each one's best chain the
//! one a walk in the searcher's order gives (ties included: as in "Order", the later pieces are
//! searched in the fastest order and walked again in order only when a chain ties with the
//! finalist's best, before any playout); a finalist's best chain is played on from the board it
//! leaves with the `count` sequences of [`deal_playout_pieces`] (the same for every finalist: they
//! depend on the decision's board and known pieces only), each piece placed where the evaluator
//! values it best alone (the first in the searcher's unordered order among equals; the filter and
//! the no-suicide rule as for an unknown piece). A playout is worth the evaluator's cost of the
//! board it ends on (no placement records) minus the Tetris bonus per Tetris, or the no-placement
//! cost alone when a piece cannot spawn or has no placement. The finalist's cost gains the weight ×
//! the mean of the `count` values, summed in order; a chain cut short (its game over) gains
//! nothing. The best finalist by these values, the earlier among equals, is the choice. The report
//! stays the first round's.
//!
//! Over 600 lines on purpose: the chain walker, its ranking and its two walks (ordered and
//! unordered, which must agree) are one algorithm; the rest is its unit tests.

use std::fmt;
use std::sync::Arc;

use crate::board::Board;
use crate::evaluate::{Chain, ChainRule, Evaluator, LinkValue, PlacementRecord};
use crate::filter::PlacementFilter;
use crate::piece::Piece;
use crate::placement::Placement;
use crate::playout::{MAX_PLAYOUTS, Playouts, deal_playout_pieces};
use crate::search::{DecisionContext, Placements, Searcher};

/// The chain's settings (see the module documentation for what each one means).
#[derive(Clone)]
pub struct ChainOptions {
    /// Known pieces to chain: 1 = the current piece only, 2 = current + preview, …; at least 1.
    pub depth: usize,
    /// Average over the 7 possible unknown pieces after the last known one.
    pub expectimax: bool,
    /// With `expectimax`: average only for this many first placements, those whose best
    /// chains are best without the unknown piece (see "Finalists" in the module
    /// documentation); `None`: for every first placement. At least 1.
    pub expectimax_finalists: Option<usize>,
    /// Skip placements that end the game under the decision's game-over rule (under the
    /// simulation rule: after which the next piece, any of the 7 after the last known piece,
    /// cannot spawn).
    pub no_suicide: bool,
    /// A filter asked about every placement at every depth.
    pub filter: Option<Arc<dyn PlacementFilter + Send + Sync>>,
    /// In the average over the unknown pieces, what a piece whose best chain is preferred
    /// takes off its cost (see `prefer_bonus` in the module documentation); 0 for the plain
    /// average.
    pub prefer_bonus: f64,
    /// With finalists: play each finalist's best chain on with random pieces and add what
    /// follows to its cost (see "Playouts" in the module documentation); `None`: no playouts.
    pub playouts: Option<Playouts>,
}

impl ChainOptions {
    /// Depth `depth`, no expectimax, no no-suicide rule, no filter.
    pub fn with_depth(depth: usize) -> ChainOptions {
        ChainOptions {
            depth,
            ..ChainOptions::default()
        }
    }
}

impl Default for ChainOptions {
    /// Depth 1 (the current piece only), every option off.
    fn default() -> Self {
        ChainOptions {
            depth: 1,
            expectimax: false,
            expectimax_finalists: None,
            no_suicide: false,
            filter: None,
            prefer_bonus: 0.0,
            playouts: None,
        }
    }
}

impl fmt::Debug for ChainOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ChainOptions")
            .field("depth", &self.depth)
            .field("expectimax", &self.expectimax)
            .field("expectimax_finalists", &self.expectimax_finalists)
            .field("no_suicide", &self.no_suicide)
            .field("filter", &self.filter.as_ref().map(|_| "…"))
            .field("prefer_bonus", &self.prefer_bonus)
            .field("playouts", &self.playouts)
            .finish()
    }
}

/// How good one chain is; compared with [`ChainValue::is_better_than`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChainValue {
    /// Known placements in the chain: the depth for a full chain, fewer when a later known
    /// piece had no placement.
    pub length: usize,
    /// With expectimax, how many of the 7 unknown pieces had no placement after this chain;
    /// 0 otherwise (and for cut-short chains, which never reach the unknown piece).
    pub unknown_pieces_lost: u8,
    /// The evaluator's rule for the chain (with expectimax, combined over the unknown pieces
    /// as the module documentation says).
    pub rule: ChainRule,
    /// The evaluator's cost, lower is better (with expectimax, the mean over the surviving
    /// unknown pieces of their best costs, a preferred one's minus the prefer bonus; +∞ when
    /// none survives).
    pub cost: f64,
}

impl ChainValue {
    /// Whether this chain beats `other`, strictly: longer first, then fewer unknown pieces
    /// lost, then `Prefer` before `Neutral` before `Reject`, then lower cost. Equal values are
    /// not better, so the first of equal chains stays best.
    #[inline]
    pub fn is_better_than(&self, other: &ChainValue) -> bool {
        if self.length != other.length {
            return self.length > other.length;
        }
        if self.unknown_pieces_lost != other.unknown_pieces_lost {
            return self.unknown_pieces_lost < other.unknown_pieces_lost;
        }
        let (rank, other_rank) = (rule_rank(self.rule), rule_rank(other.rule));
        if rank != other_rank {
            return rank < other_rank;
        }
        self.cost < other.cost
    }

    /// The ranking of [`ChainValue::is_better_than`] as a total order, best first: `Less` when
    /// this chain is better than `other`, `Greater` when it is worse, `Equal` when neither is.
    /// Costs compare by [`f64::total_cmp`], so a sort by it never meets an inconsistent order
    /// (a NaN cost, which no evaluator gives, would rank after every number).
    pub fn ranking(&self, other: &ChainValue) -> std::cmp::Ordering {
        other
            .length
            .cmp(&self.length)
            .then(self.unknown_pieces_lost.cmp(&other.unknown_pieces_lost))
            .then(rule_rank(self.rule).cmp(&rule_rank(other.rule)))
            .then(self.cost.total_cmp(&other.cost))
    }

    /// Whether the evaluator prefers this chain.
    pub fn is_preferred(&self) -> bool {
        self.rule == ChainRule::Prefer
    }

    /// Whether the evaluator rejects this chain (it is only played when every chain is).
    pub fn is_rejected(&self) -> bool {
        self.rule == ChainRule::Reject
    }
}

/// Rank of a chain rule, lower is better.
#[inline]
fn rule_rank(rule: ChainRule) -> u8 {
    // The discriminants are the ranks (see `ChainRule`).
    rule as u8
}

/// The first best of `links` (the values of one call's chains, all of the same length and
/// losing no unknown piece) and whether a later one ties with it: what offering each value
/// in turn to an empty walk leaves (its best chain's index and its tie flag), or `None` for
/// no value.
///
/// Between two such values `ChainValue::is_better_than` compares the rules' ranks, then the
/// costs, so one pass with those two comparisons does it: each replacement clears the tie,
/// and a value neither worse nor better than the best so far sets it. Most values are worse
/// than the best so far, and a worse value is never better (a worse rank is not a better one,
/// a higher cost not a lower one), so the common case costs the one test that finds it worse.
#[inline]
fn first_best_and_tie(links: &[LinkValue]) -> Option<(usize, bool)> {
    let (first, rest) = links.split_first()?;
    let mut best_index = 0;
    let (mut rank, mut cost) = (rule_rank(first.rule), first.cost);
    let mut tie = false;
    for (index, link) in rest.iter().enumerate() {
        let (link_rank, link_cost) = (rule_rank(link.rule), link.cost);
        if rank < link_rank || (rank == link_rank && cost < link_cost) {
            continue;
        }
        if link_rank < rank || (link_rank == rank && link_cost < cost) {
            (best_index, rank, cost, tie) = (index + 1, link_rank, link_cost, false);
        } else {
            tie = true;
        }
    }
    Some((best_index, tie))
}

/// The value of a chain followed by a piece that may be any of the 7, from each piece's best
/// chain: expectimax's average (the module documentation, `expectimax` and `prefer_bonus`).
/// Pieces with no chain are lost; the others' costs (a preferred chain's minus the prefer
/// bonus) are summed in the order they are added and divided by their count; the rule is
/// `Reject` when some survivor's is, `Prefer` when every survivor's is (and one survives),
/// else `Neutral`.
#[derive(Clone, Copy, Debug)]
pub struct MeanOverPieces {
    prefer_bonus: f64,
    lost: u8,
    survivors: u32,
    cost_sum: f64,
    all_preferred: bool,
    any_rejected: bool,
}

impl Default for MeanOverPieces {
    fn default() -> MeanOverPieces {
        MeanOverPieces::new()
    }
}

impl MeanOverPieces {
    /// No piece added yet; no prefer bonus.
    #[inline]
    pub fn new() -> MeanOverPieces {
        MeanOverPieces::with_prefer_bonus(0.0)
    }

    /// No piece added yet; a preferred chain's cost counts minus `prefer_bonus`.
    #[inline]
    pub fn with_prefer_bonus(prefer_bonus: f64) -> MeanOverPieces {
        MeanOverPieces {
            prefer_bonus,
            lost: 0,
            survivors: 0,
            cost_sum: 0.0,
            all_preferred: true,
            any_rejected: false,
        }
    }

    /// Adds one piece's best chain, `None` when the piece has none (it is lost).
    #[inline]
    pub fn add(&mut self, best: Option<ChainValue>) {
        match best {
            None => self.lost += 1,
            Some(best) => {
                let preferred = best.rule == ChainRule::Prefer;
                self.survivors += 1;
                self.cost_sum += if preferred {
                    best.cost - self.prefer_bonus
                } else {
                    best.cost
                };
                self.all_preferred &= preferred;
                self.any_rejected |= best.rule == ChainRule::Reject;
            }
        }
    }

    /// The averaged value of a chain of `length` known placements.
    #[inline]
    pub fn value(&self, length: usize) -> ChainValue {
        let rule = if self.any_rejected {
            ChainRule::Reject
        } else if self.survivors > 0 && self.all_preferred {
            ChainRule::Prefer
        } else {
            ChainRule::Neutral
        };
        ChainValue {
            length,
            unknown_pieces_lost: self.lost,
            rule,
            cost: if self.survivors == 0 {
                f64::INFINITY
            } else {
                self.cost_sum / self.survivors as f64
            },
        }
    }
}

/// The chain's choice: the first placement of the best chain.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChainChoice {
    /// The placement of the current piece to play.
    pub placement: Placement,
    /// Its index in the searcher's order for the current piece on the given board.
    pub index: usize,
    /// The best chain's value (cost, rule, length).
    pub value: ChainValue,
}

impl ChainChoice {
    /// The best chain's cost.
    pub fn cost(&self) -> f64 {
        self.value.cost
    }

    /// Whether the best chain is one the evaluator prefers.
    pub fn is_preferred(&self) -> bool {
        self.value.is_preferred()
    }
}

/// One placement of the current piece and the best chain that starts with it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlacementValue {
    /// The placement, in the searcher's order.
    pub placement: Placement,
    /// The value of the best chain starting with it; `None` when no chain starts with it (the
    /// filter or the no-suicide rule removed it). A chain cut short by a later piece shows as a
    /// value whose `length` is below the depth.
    pub value: Option<ChainValue>,
}

/// A lookahead chain: settings plus the buffers reused from one search to the next.
#[derive(Debug)]
pub struct LookaheadChain {
    options: ChainOptions,
    /// One buffer per known piece, plus one for the unknown piece with expectimax.
    levels: Vec<Placements>,
    /// The records of the chain being explored, current piece first.
    records: Vec<PlacementRecord>,
    /// The known placements of the best chain of the last search.
    best_chain: Vec<Placement>,
    /// Per placement of the current piece, the best chain starting with it (last search).
    report: Vec<PlacementValue>,
    /// Per first placement, its best chain with each of the 7 pieces next
    /// ([`LookaheadChain::analyze_with_every_next_in`]).
    every_next: Vec<EveryNext>,
    /// The evaluator's values of the chains ending at the last known piece's placements.
    link_values: Vec<LinkValue>,
    /// Per placement of the last known piece, whether it ends the game (no-suicide only).
    ends: Vec<bool>,
    /// The last known piece's placements that the no-suicide rule keeps, when it skips some.
    kept: Vec<Placement>,
    /// The 7 unknown pieces' placements, one piece's after the other, when the evaluator
    /// values them in one call ([`Evaluator::values_several_searches_at_once`]).
    unknown_placements: Vec<Placement>,
    /// The finalists' indices (see [`ChainOptions::expectimax_finalists`]).
    finalists: Vec<usize>,
    /// Buffers of the playouts, when there are any (see [`ChainOptions::playouts`]).
    playout_buffers: PlayoutBuffers,
}

/// `all` without the placements that `ends` marks (one mark per placement), copied into
/// `kept`; `all` itself when nothing is marked (`None`: the common case, no copy).
#[inline]
fn kept_placements<'a>(
    all: &'a [Placement],
    ends: Option<&[bool]>,
    kept: &'a mut Vec<Placement>,
) -> &'a [Placement] {
    let Some(ends) = ends else {
        return all;
    };
    kept.clear();
    kept.extend(
        all.iter()
            .zip(ends)
            .filter(|&(_, &ends)| !ends)
            .map(|(&placement, _)| placement),
    );
    kept
}

/// The first best of the chains of `length` placements that end with each of `placements`,
/// whose values the evaluator gave as `links` (same index): the placement and its chain's
/// value, `None` when there is none. No unknown piece is lost at that level.
#[inline]
fn first_best_link(
    length: usize,
    placements: &[Placement],
    links: &[LinkValue],
) -> Option<(Placement, ChainValue)> {
    let mut best: Option<(Placement, ChainValue)> = None;
    for (&placement, link) in placements.iter().zip(links) {
        let value = ChainValue {
            length,
            unknown_pieces_lost: 0,
            rule: link.rule,
            cost: link.cost,
        };
        if best.is_none_or(|(_, best)| value.is_better_than(&best)) {
            best = Some((placement, value));
        }
    }
    best
}

/// One of a decision's playout sequences: the `index`th of `pieces`, which holds them one
/// after the other ([`deal_playout_pieces`]).
#[derive(Clone, Copy)]
struct PlayoutSequence<'a> {
    pieces: &'a [Piece],
    index: usize,
}

impl<'a> PlayoutSequence<'a> {
    /// This sequence's pieces, `length` of them.
    fn pieces(&self, length: usize) -> &'a [Piece] {
        self.earlier(self.index, length)
    }

    /// The pieces of sequence `index`.
    fn earlier(&self, index: usize, length: usize) -> &'a [Piece] {
        &self.pieces[index * length..(index + 1) * length]
    }
}

/// What the playouts reuse from one decision to the next.
#[derive(Debug, Default)]
struct PlayoutBuffers {
    /// The playouts' pieces, one sequence after the other ([`deal_playout_pieces`]).
    pieces: Vec<Piece>,
    /// One playout piece's placements.
    placements: Placements,
    /// The best chain of the best finalist so far, while the others are walked.
    best_chain: Vec<Placement>,
    /// Each finalist's value in the last search, in the order walked
    /// ([`LookaheadChain::finalist_values`]).
    values: Vec<PlacementValue>,
    /// The current finalist's playouts so far, step by step: after each piece, the board and
    /// the Tetrises made, or `None` once the game is over ([`Walk::playout`]).
    steps: Vec<Option<(Board, u32)>>,
}

impl LookaheadChain {
    /// A chain with these settings.
    ///
    /// # Panics
    /// If `options.depth` is 0, the finalists are 0, or playouts are asked for without
    /// expectimax's finalists or with a count outside 1..=[`MAX_PLAYOUTS`] or no piece.
    pub fn new(options: ChainOptions) -> LookaheadChain {
        assert!(
            options.depth >= 1,
            "a lookahead chain needs depth 1 or more"
        );
        assert!(
            options.expectimax_finalists != Some(0),
            "expectimax needs 1 finalist or more"
        );
        if let Some(playouts) = &options.playouts {
            assert!(
                options.expectimax && options.expectimax_finalists.is_some(),
                "playouts rank expectimax's finalists: they need expectimax with finalists"
            );
            assert!(
                (1..=MAX_PLAYOUTS).contains(&playouts.count) && playouts.pieces >= 1,
                "playouts need 1 to {MAX_PLAYOUTS} playouts of 1 piece or more"
            );
        }
        let levels = options.depth + usize::from(options.expectimax);
        LookaheadChain {
            levels: (0..levels).map(|_| Placements::new()).collect(),
            records: Vec::with_capacity(levels),
            best_chain: Vec::with_capacity(options.depth),
            report: Vec::new(),
            every_next: Vec::new(),
            link_values: Vec::new(),
            ends: Vec::new(),
            kept: Vec::new(),
            unknown_placements: Vec::new(),
            finalists: Vec::new(),
            playout_buffers: PlayoutBuffers::default(),
            options,
        }
    }

    /// The settings.
    pub fn options(&self) -> &ChainOptions {
        &self.options
    }

    /// [`LookaheadChain::best_in`] with the default context: each searcher's own timing, no
    /// entry delay (a game that does not simulate frames).
    pub fn best<S, E>(
        &mut self,
        searcher: &mut S,
        evaluator: &E,
        board: &Board,
        pieces: &[Piece],
    ) -> Option<ChainChoice>
    where
        S: Searcher + ?Sized,
        E: Evaluator + ?Sized,
    {
        self.best_in(
            searcher,
            evaluator,
            board,
            pieces,
            DecisionContext::default(),
        )
    }

    /// The best chain for `pieces` (current piece first, then the preview…; the first `depth`
    /// are used) on `board`, by the rules of the module documentation; `None` when the current
    /// piece has no placement left (or `pieces` is empty). `context` gives every search the
    /// frame timing and the current piece's search the entry delay (see the module
    /// documentation). Also fills [`LookaheadChain::first_placement_values`] and
    /// [`LookaheadChain::best_chain`].
    pub fn best_in<S, E>(
        &mut self,
        searcher: &mut S,
        evaluator: &E,
        board: &Board,
        pieces: &[Piece],
        context: DecisionContext,
    ) -> Option<ChainChoice>
    where
        S: Searcher + ?Sized,
        E: Evaluator + ?Sized,
    {
        self.search(
            searcher,
            evaluator,
            board,
            pieces,
            context,
            Asked::plainly(Purpose::Analyse),
        )
    }

    /// [`LookaheadChain::best_in`] for a player that only needs the choice: the same choice,
    /// value and best chain, but [`LookaheadChain::first_placement_values`] is left empty,
    /// which lets the evaluator skip the exact value of a last-piece chain that cannot beat
    /// the best so far ([`Evaluator::last_link_values_to_beat`]; see "Deciding" in the module
    /// documentation).
    pub fn decide_in<S, E>(
        &mut self,
        searcher: &mut S,
        evaluator: &E,
        board: &Board,
        pieces: &[Piece],
        context: DecisionContext,
    ) -> Option<ChainChoice>
    where
        S: Searcher + ?Sized,
        E: Evaluator + ?Sized,
    {
        self.search(
            searcher,
            evaluator,
            board,
            pieces,
            context,
            Asked::plainly(Purpose::Decide),
        )
    }

    /// [`LookaheadChain::decide_in`] with some of the first round's values known (see
    /// "Finalists" in the module documentation): `first_values(placement)` is either `None`
    /// or `Some(value)`, where `value` must be exactly what a chain with the same options
    /// but without expectimax, finalists and playouts reports for `placement` with the same
    /// board, pieces and context ([`LookaheadChain::analyze_all_in`]; the current piece's
    /// frames played and entry delay aside, which the value of a placement does not depend
    /// on). Those placements' chains are then not walked in the first round, which takes
    /// their values as given: the same report, so the same finalists and the same choice.
    /// Without finalists, `first_values` is not asked. What a player with a reaction time
    /// uses: its plan has valued every placement with each preview
    /// (`tetris_registry::ReactionPlanner`), and the re-plan's first round needs the same
    /// values for the preview that came.
    pub fn decide_with_first_values_in<S, E>(
        &mut self,
        searcher: &mut S,
        evaluator: &E,
        board: &Board,
        pieces: &[Piece],
        context: DecisionContext,
        first_values: &dyn Fn(Placement) -> Option<Option<ChainValue>>,
    ) -> Option<ChainChoice>
    where
        S: Searcher + ?Sized,
        E: Evaluator + ?Sized,
    {
        self.search(
            searcher,
            evaluator,
            board,
            pieces,
            context,
            Asked {
                purpose: Purpose::Decide,
                first_values: Some(first_values),
            },
        )
    }

    /// [`LookaheadChain::best_in`] or [`LookaheadChain::decide_in`], as `asked`.
    fn search<S, E>(
        &mut self,
        searcher: &mut S,
        evaluator: &E,
        board: &Board,
        pieces: &[Piece],
        context: DecisionContext,
        asked: Asked<'_>,
    ) -> Option<ChainChoice>
    where
        S: Searcher + ?Sized,
        E: Evaluator + ?Sized,
    {
        let purpose = asked.purpose;
        self.records.clear();
        // The last search's best chain went on to this piece: when deciding, its placement
        // gives an early cost to beat (see `Walk::find_cost_to_beat`).
        let hint = match (purpose, self.best_chain.get(1)) {
            (Purpose::Decide, Some(&next)) if pieces.first() == Some(&next.piece) => Some(next),
            _ => None,
        };
        self.best_chain.clear();
        self.report.clear();
        self.playout_buffers.values.clear();
        let known = pieces.len().min(self.options.depth);
        if known == 0 {
            return None;
        }
        // With finalists, a first round without the unknown piece ranks the first placements
        // (it needs their exact values: the report), then the finalists are averaged.
        let finalists = self
            .options
            .expectimax_finalists
            .filter(|_| self.options.expectimax);
        let levels = known + usize::from(self.options.expectimax);
        let expectimax = self.options.expectimax;
        let WalkAndBuffers {
            mut walk,
            levels: all_levels,
            finalists: finalist_indices,
            playout_buffers,
            ..
        } = self.walk(searcher, evaluator, &pieces[..known], context);
        walk.purpose = if finalists.is_some() {
            Purpose::Analyse
        } else {
            purpose
        };
        walk.hint = hint.filter(|_| finalists.is_none());
        walk.expectimax = expectimax && finalists.is_none();
        // Only a first round walks the current piece's placements without expectimax.
        walk.first_values = asked.first_values.filter(|_| finalists.is_some());
        let levels = &mut all_levels[..levels];
        walk.known_level(levels, board);
        // Stopped from outside (`crate::stop`): what the walk found is partial, so no choice.
        if crate::stop::requested() {
            return None;
        }
        if let Some(count) = finalists {
            walk.final_round(levels, board, count, finalist_indices, playout_buffers);
            if purpose == Purpose::Decide {
                walk.report.clear();
            }
            if crate::stop::requested() {
                return None;
            }
        }
        let (value, index) = walk.best?;
        if walk.tied
            && known >= 2
            && purpose != Purpose::Report
            && !walk.searcher.unordered_search_keeps_order()
        {
            // Another chain ties with the best: which of them is the first depends on the
            // later pieces' order, so walk the best first placement's chains again in it.
            let placement = levels[0].as_slice()[index];
            walk.first_index = index;
            walk.walk_in_order(&mut levels[1..], board, placement);
            // The same value again (compared as the chain compares, so a NaN cost passes).
            debug_assert!(walk.best.is_some_and(|(again, _)| {
                !again.is_better_than(&value) && !value.is_better_than(&again)
            }));
        }
        Some(ChainChoice {
            placement: walk.best_chain[0],
            index,
            value,
        })
    }

    /// A walk over this chain's buffers, as a report's (no hint, no seed, no expectimax, no
    /// values given), with the buffers it does not hold; a search sets what it asks for.
    fn walk<'w, S, E>(
        &'w mut self,
        searcher: &'w mut S,
        evaluator: &'w E,
        pieces: &'w [Piece],
        context: DecisionContext,
    ) -> WalkAndBuffers<'w, S, E>
    where
        S: Searcher + ?Sized,
        E: Evaluator + ?Sized,
    {
        let LookaheadChain {
            options,
            levels,
            records,
            best_chain,
            report,
            every_next,
            link_values,
            ends,
            kept,
            unknown_placements,
            finalists,
            playout_buffers,
        } = self;
        WalkAndBuffers {
            walk: Walk {
                searcher,
                evaluator,
                options,
                pieces,
                records,
                best: None,
                best_chain,
                report,
                link_values,
                ends,
                kept,
                unknown_placements,
                first_index: 0,
                context,
                canonical: false,
                tied: false,
                purpose: Purpose::Report,
                hint: None,
                seed: f64::INFINITY,
                expectimax: false,
                first_values: None,
            },
            levels,
            finalists,
            playout_buffers,
            every_next,
        }
    }

    /// [`LookaheadChain::analyze_all_in`] with the default context: each searcher's own
    /// timing, no entry delay.
    pub fn analyze_all<S, E>(
        &mut self,
        searcher: &mut S,
        evaluator: &E,
        board: &Board,
        pieces: &[Piece],
    ) -> &[PlacementValue]
    where
        S: Searcher + ?Sized,
        E: Evaluator + ?Sized,
    {
        self.analyze_all_in(
            searcher,
            evaluator,
            board,
            pieces,
            DecisionContext::default(),
        )
    }

    /// For every placement of the current piece in the searcher's order, the best chain that
    /// starts with it: [`LookaheadChain::first_placement_values`] after the search of
    /// [`LookaheadChain::best_in`], without its second walk for ties (see "Order" in the
    /// module documentation), which the values do not depend on. So
    /// [`LookaheadChain::best_chain`] afterwards is a best chain, but when several tie, not
    /// necessarily the first in the searcher's order; call [`LookaheadChain::best_in`] for that.
    pub fn analyze_all_in<S, E>(
        &mut self,
        searcher: &mut S,
        evaluator: &E,
        board: &Board,
        pieces: &[Piece],
        context: DecisionContext,
    ) -> &[PlacementValue]
    where
        S: Searcher + ?Sized,
        E: Evaluator + ?Sized,
    {
        self.search(
            searcher,
            evaluator,
            board,
            pieces,
            context,
            Asked::plainly(Purpose::Report),
        );
        &self.report
    }

    /// For every placement of the current piece in the searcher's order, its best chain with
    /// each of the 7 pieces as the next one (in [`Piece::ALL`] order): entry k is the value
    /// [`LookaheadChain::analyze_all_in`] reports for that placement with the pieces
    /// `[current, Piece::ALL[k]]`, and `None` where it reports none. What a player with a
    /// reaction time needs to plan before it sees the preview (`tetris_registry::ReactionPlanner`).
    ///
    /// One walk instead of 7 when the chain's depth is 2 or more and it has no filter and no
    /// expectimax, and the evaluator takes several searches at once
    /// ([`Evaluator::values_several_searches_at_once`]): each placement is locked once, its
    /// board is searched for the 7 pieces, and their placements go to the evaluator in one
    /// call, which takes the board's terms once for the 7. Each piece's values are then those
    /// a call with its own search alone gives (the evaluator's promise), so each first best,
    /// and every reported value, is the 7 analyses' (see [`Walk::follow`] and
    /// [`Walk::last_level`] for what each of them does per placement). Otherwise the 7
    /// analyses are made.
    pub fn analyze_with_every_next_in<S, E>(
        &mut self,
        searcher: &mut S,
        evaluator: &E,
        board: &Board,
        current: Piece,
        context: DecisionContext,
    ) -> &[EveryNext]
    where
        S: Searcher + ?Sized,
        E: Evaluator + ?Sized,
    {
        self.every_next.clear();
        let in_one_walk = self.options.depth >= 2
            && self.options.filter.is_none()
            && !self.options.expectimax
            && evaluator.values_several_searches_at_once();
        if !in_one_walk {
            for (slot, next) in Piece::ALL.into_iter().enumerate() {
                self.search(
                    searcher,
                    evaluator,
                    board,
                    &[current, next],
                    context,
                    Asked::plainly(Purpose::Report),
                );
                for (position, entry) in self.report.iter().enumerate() {
                    if slot == 0 {
                        self.every_next.push(EveryNext {
                            placement: entry.placement,
                            values: [None; 7],
                        });
                    }
                    // The same search each time: the same placement at the same position.
                    let row = match self.every_next.get_mut(position) {
                        Some(row) if row.placement == entry.placement => Some(row),
                        _ => self
                            .every_next
                            .iter_mut()
                            .find(|row| row.placement == entry.placement),
                    };
                    if let Some(row) = row {
                        row.values[slot] = entry.value;
                    }
                }
            }
            return &self.every_next;
        }
        self.records.clear();
        let pieces = [current];
        let WalkAndBuffers {
            mut walk,
            levels,
            every_next,
            ..
        } = self.walk(searcher, evaluator, &pieces, context);
        let (here, deeper) = levels
            .split_first_mut()
            .expect("one placement buffer per level");
        walk.every_next_level(here, &mut deeper[0], board, every_next);
        &self.every_next
    }

    /// The known placements of the best chain found by the last search, current piece first
    /// (empty when it found none; shorter than the depth when the chain was cut short).
    pub fn best_chain(&self) -> &[Placement] {
        &self.best_chain
    }

    /// For every placement of the current piece in the last search, in the searcher's order,
    /// the best chain starting with it (see [`LookaheadChain::analyze_all`]); empty after
    /// [`LookaheadChain::decide_in`].
    pub fn first_placement_values(&self) -> &[PlacementValue] {
        &self.report
    }

    /// With playouts ([`ChainOptions::playouts`]): each finalist of the last search, in the
    /// searcher's order, with the value its choice was made on (its best chain's, averaged
    /// over the unknown piece, plus the playouts' weighted mean); a finalist with no chain has
    /// none. Empty without playouts, and when the search stopped before its finalists.
    pub fn finalist_values(&self) -> &[PlacementValue] {
        &self.playout_buffers.values
    }
}

/// One search's state: what it searches with, the record stack and the best found so far.
struct Walk<'w, S: ?Sized, E: ?Sized> {
    searcher: &'w mut S,
    evaluator: &'w E,
    options: &'w ChainOptions,
    /// The known pieces in use (their count is the effective depth).
    pieces: &'w [Piece],
    records: &'w mut Vec<PlacementRecord>,
    /// The best known chain so far and the index of its first placement.
    best: Option<(ChainValue, usize)>,
    best_chain: &'w mut Vec<Placement>,
    report: &'w mut Vec<PlacementValue>,
    /// Scratch for [`Evaluator::last_link_values`].
    link_values: &'w mut Vec<LinkValue>,
    /// Scratch for [`Walk::last_level`] under no-suicide: which placements end the game.
    ends: &'w mut Vec<bool>,
    /// Scratch for the placements [`Walk::last_level`] values when no-suicide skips some.
    kept: &'w mut Vec<Placement>,
    /// Scratch for [`Walk::unknown_pieces_in_one_call`]: the 7 pieces' placements.
    unknown_placements: &'w mut Vec<Placement>,
    /// Index of the current piece's placement being explored.
    first_index: usize,
    /// The frame timing for every search, and the entry delay for the current piece's.
    context: DecisionContext,
    /// Whether later pieces are searched in the searcher's order ([`Searcher::search`]) rather
    /// than its fastest ([`Searcher::search_unordered`]); see "Order" in the module docs.
    canonical: bool,
    /// Whether a chain offered since the best was last replaced ties with it.
    tied: bool,
    /// Whether the report is kept, or only the choice is needed.
    purpose: Purpose,
    /// When deciding: a placement of the current piece likely to be good (the last search's
    /// best chain's second placement), whose best chain is found first for its cost.
    hint: Option<Placement>,
    /// When deciding: the value of a chain the walk will offer, so that its cost bounds the
    /// best one's from the start (+∞ when none).
    seed: f64,
    /// Whether chains are averaged over the unknown piece now (with finalists, not in the
    /// first round).
    expectimax: bool,
    /// In a first round, the values of first placements known to the caller
    /// ([`LookaheadChain::decide_with_first_values_in`]).
    first_values: Option<FirstValues<'w>>,
}

/// A walk over a chain's buffers and the buffers it does not hold ([`LookaheadChain::walk`]).
struct WalkAndBuffers<'w, S: ?Sized, E: ?Sized> {
    /// The walk.
    walk: Walk<'w, S, E>,
    /// One placement buffer per level.
    levels: &'w mut [Placements],
    /// The finalists' indices ([`Walk::final_round`]).
    finalists: &'w mut Vec<usize>,
    /// The playouts' buffers.
    playout_buffers: &'w mut PlayoutBuffers,
    /// The walk of the 7 pieces next ([`LookaheadChain::analyze_with_every_next_in`]).
    every_next: &'w mut Vec<EveryNext>,
}

/// A first placement's best chains with each of the 7 pieces next
/// ([`LookaheadChain::analyze_with_every_next_in`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EveryNext {
    /// The current piece's placement.
    pub placement: Placement,
    /// Its best chain's value with each piece next, in [`Piece::ALL`] order; `None` when no
    /// chain starts with it with that piece next.
    pub values: [Option<ChainValue>; 7],
}

/// How a first placement's chain goes on with one next piece
/// ([`Walk::every_next_level`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum NextPiece {
    /// The no-suicide rule removes the first placement (the game would end).
    Removed,
    /// The game ends before the next piece: the chain is cut short.
    CutShort,
    /// The next piece's placements were searched and valued.
    Searched,
}

/// What a search is asked for: its purpose, and the first round's values the caller knows
/// ([`LookaheadChain::decide_with_first_values_in`]).
struct Asked<'v> {
    /// What the search is for.
    purpose: Purpose,
    /// The first round's values the caller knows, if any.
    first_values: Option<FirstValues<'v>>,
}

impl Asked<'_> {
    /// A search for `purpose` that is given no values.
    fn plainly(purpose: Purpose) -> Asked<'static> {
        Asked {
            purpose,
            first_values: None,
        }
    }
}

/// The caller's known values of first placements in a first round
/// ([`LookaheadChain::decide_with_first_values_in`]).
type FirstValues<'v> = &'v dyn Fn(Placement) -> Option<Option<ChainValue>>;

/// What a search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Purpose {
    /// The choice and every first placement's best chain ([`LookaheadChain::best_in`]).
    Analyse,
    /// Every first placement's best chain, as [`Purpose::Analyse`], but without the second
    /// walk that settles which of several tied chains is the best chain
    /// ([`LookaheadChain::analyze_all_in`]).
    Report,
    /// The choice only ([`LookaheadChain::decide_in`]).
    Decide,
}

impl<S, E> Walk<'_, S, E>
where
    S: Searcher + ?Sized,
    E: Evaluator + ?Sized,
{
    /// Explores every chain from the known piece at level `records.len()` on `board`; returns
    /// the best value among them, `None` when the piece has no placement left.
    fn known_level(&mut self, levels: &mut [Placements], board: &Board) -> Option<ChainValue> {
        let level = self.records.len();
        let (here, deeper) = levels
            .split_first_mut()
            .expect("one placement buffer per level");
        let piece = self.pieces[level];
        if level == 0 {
            let options = self.context.current_piece_options(false);
            self.searcher.search(board, piece, options, here);
        } else if self.canonical {
            let options = self.context.later_piece_options();
            self.searcher.search(board, piece, options, here);
        } else {
            let options = self.context.later_piece_options();
            self.searcher.search_unordered(board, piece, options, here);
        }
        if level + 1 == self.pieces.len() && self.batches_last_level() {
            return self.last_level(here, board);
        }
        if level == 0 {
            self.find_cost_to_beat(here, deeper, board);
        }
        if level > 0
            && level + 1 == self.pieces.len()
            && self.skips_unpreferred_chains()
            && !self.canonical
            && !self.searcher.unordered_search_keeps_order()
        {
            return self.last_known_level_preferred_first(here, deeper, board);
        }
        let mut best: Option<ChainValue> = None;
        for (index, &placement) in here.iter().enumerate() {
            if crate::stop::requested() {
                break;
            }
            if level == 0 {
                self.first_index = index;
            }
            // A first round's value the caller knows: the value `follow` gives, not walked.
            let known = match self.first_values {
                Some(first_values) if level == 0 => first_values(placement),
                _ => None,
            };
            let value = match known {
                Some(value) => value,
                None => self.follow(deeper, board, placement),
            };
            if let Some(value) = value {
                if best.is_none_or(|best| value.is_better_than(&best)) {
                    best = Some(value);
                }
            }
            if level == 0 && self.purpose != Purpose::Decide {
                self.report.push(PlacementValue { placement, value });
            }
        }
        best
    }

    /// [`LookaheadChain::analyze_with_every_next_in`]'s walk in one: the current piece's
    /// placements `here` on `board` in the searcher's order, each with the 7 pieces next.
    /// Per placement and next piece it does what [`Walk::follow`] at the first level and
    /// then [`Walk::last_level`] at the second do with that piece next (the same rules for
    /// the game's end, no-suicide and a chain cut short; the next piece's placements that end
    /// the game marked the same way), but the placement is locked once and the 7 pieces'
    /// placements are valued in one call of the evaluator, each piece's search ending at its
    /// own end: each piece's first best is then the one its own call gives.
    fn every_next_level(
        &mut self,
        here: &mut Placements,
        next_placements: &mut Placements,
        board: &Board,
        out: &mut Vec<EveryNext>,
    ) {
        let current = self.pieces[0];
        let options = self.context.current_piece_options(false);
        self.searcher.search(board, current, options, here);
        let rule = self.context.game_over_rule;
        let no_suicide = self.options.no_suicide;
        for &placement in here.iter() {
            if crate::stop::requested() {
                break;
            }
            let mut values = [None; 7];
            let ends_on_landing = rule.placement_ends_game(&placement);
            if no_suicide && ends_on_landing {
                out.push(EveryNext { placement, values });
                continue;
            }
            let mut next = *board;
            let record = PlacementRecord::lock(&mut next, placement);
            let mut how = [NextPiece::Searched; 7];
            let mut ends = [0; 7];
            self.unknown_placements.clear();
            for (slot, piece) in Piece::ALL.into_iter().enumerate() {
                if ends_on_landing || rule.blocks_next_piece(&next, Some(piece)) {
                    how[slot] = if no_suicide {
                        NextPiece::Removed
                    } else {
                        NextPiece::CutShort
                    };
                } else {
                    let options = self.context.later_piece_options();
                    self.searcher
                        .search_unordered(&next, piece, options, next_placements);
                    let all = next_placements.as_slice();
                    let skips = no_suicide && self.mark_game_enders(all, &next);
                    let valued = kept_placements(all, skips.then_some(&self.ends[..]), self.kept);
                    self.unknown_placements.extend_from_slice(valued);
                }
                ends[slot] = self.unknown_placements.len();
            }
            self.records.push(record);
            self.evaluator.last_link_values_of_searches(
                &next,
                self.records,
                self.unknown_placements,
                &ends,
                self.link_values,
            );
            // A chain cut short is valued as it stands, the same for every piece.
            let mut cut_short = None;
            let mut start = 0;
            for (slot, value) in values.iter_mut().enumerate() {
                let range = start..ends[slot];
                start = ends[slot];
                let searched = match how[slot] {
                    NextPiece::Removed => continue,
                    NextPiece::CutShort => None,
                    NextPiece::Searched => first_best_link(
                        2,
                        &self.unknown_placements[range.clone()],
                        &self.link_values[range],
                    ),
                };
                *value = Some(match searched {
                    Some((_, best)) => best,
                    None => *cut_short.get_or_insert_with(|| self.evaluate(&next)),
                });
            }
            self.records.pop();
            out.push(EveryNext { placement, values });
        }
    }

    /// [`Walk::known_level`] for the last known piece without filter or expectimax: the
    /// evaluator values every placement the no-suicide rule (if on) keeps in one call
    /// ([`Evaluator::last_link_values`]; below the current piece, for a report,
    /// [`Evaluator::last_link_values_of_searches`], see "Cost of a search"; when deciding,
    /// [`Evaluator::last_link_values_to_beat`], see "Deciding" in the module documentation),
    /// and the best chain's record is rebuilt only when one of them beats the best so far.
    /// The same values, best chain, ties and report as [`Walk::follow`] offering each
    /// placement in turn (a skipped placement gets no value, as there).
    fn last_level(&mut self, here: &Placements, board: &Board) -> Option<ChainValue> {
        let level = self.records.len();
        let all = here.as_slice();
        let skips = self.options.no_suicide && self.mark_game_enders(all, board);
        let ends: &[bool] = self.ends;
        // A placement that ends the game is rare (the pile reaches the top): only then are
        // the kept ones copied out, and the slower loops below taken.
        let skipped = |index: usize| skips && ends[index];
        let to_beat = self.cost_to_beat();
        let valued = kept_placements(all, skips.then_some(ends), self.kept);
        match self.purpose {
            // A depth-1 chain's report is every leaf: exact values.
            Purpose::Analyse | Purpose::Report if level == 0 => {
                self.evaluator
                    .last_link_values(board, self.records, valued, self.link_values)
            }
            // A later piece's report needs only this call's best chain, which is exact among
            // stand-ins (see "Cost of a search" in the module documentation).
            Purpose::Analyse | Purpose::Report => self.evaluator.last_link_values_of_searches(
                board,
                self.records,
                valued,
                &[valued.len()],
                self.link_values,
            ),
            Purpose::Decide => self.evaluator.last_link_values_to_beat(
                board,
                self.records,
                valued,
                to_beat,
                self.link_values,
            ),
        }
        let value_of = |link: &LinkValue| ChainValue {
            length: level + 1,
            unknown_pieces_lost: 0,
            rule: link.rule,
            cost: link.cost,
        };
        let unskipped = all.iter().zip(self.link_values.iter());
        if level == 0 && self.purpose != Purpose::Decide {
            // One pass of exact size (a depth-1 chain's report is every leaf).
            if skips {
                let mut links = self.link_values.iter();
                self.report
                    .extend(
                        all.iter()
                            .enumerate()
                            .map(|(index, &placement)| PlacementValue {
                                placement,
                                value: (!skipped(index)).then(|| {
                                    value_of(links.next().expect("a value per kept placement"))
                                }),
                            }),
                    );
            } else {
                self.report
                    .extend(unskipped.clone().map(|(&placement, link)| PlacementValue {
                        placement,
                        value: Some(value_of(link)),
                    }));
            }
        }
        if level == 0 {
            if let Some(last) = all.len().checked_sub(1) {
                self.first_index = last;
            }
        }
        let first_index = self.first_index;
        let (overall, tied) = (&mut self.best, &mut self.tied);
        let none_before = overall.is_none();
        let mut best: Option<ChainValue> = None;
        let mut new_best = None;
        // What `Walk::offer` does for the chain ending at placement `index`, whose record
        // is only built below for the one chain that ends up best.
        let mut offer = |index: usize, placement: Placement, value: ChainValue| {
            match *overall {
                Some((overall, _)) if !value.is_better_than(&overall) => {
                    *tied |= !overall.is_better_than(&value);
                }
                _ => {
                    let first_index = if level == 0 { index } else { first_index };
                    *overall = Some((value, first_index));
                    *tied = false;
                    new_best = Some(placement);
                }
            }
            if best.is_none_or(|best| value.is_better_than(&best)) {
                best = Some(value);
            }
        };
        if skips {
            let mut links = self.link_values.iter();
            for (index, &placement) in all.iter().enumerate() {
                if !skipped(index) {
                    let link = links.next().expect("a value per kept placement");
                    offer(index, placement, value_of(link));
                }
            }
        } else if none_before {
            // No chain was offered before this call (always so at level 0, a depth-1 chain's
            // one call): then the overall best follows this call's values alone, by the same
            // rule as this call's best, so the two are one value, found in one pass
            // (`first_best_and_tie`) and its `ChainValue` built once.
            if let Some((best_index, tie)) = first_best_and_tie(self.link_values) {
                *tied = tie;
                let value = value_of(&self.link_values[best_index]);
                let first_index = if level == 0 { best_index } else { first_index };
                *overall = Some((value, first_index));
                new_best = Some(all[best_index]);
                best = Some(value);
            }
        } else {
            for (index, (&placement, link)) in unskipped.enumerate() {
                offer(index, placement, value_of(link));
            }
        }
        if let Some(placement) = new_best {
            self.best_chain.clear();
            self.best_chain
                .extend(self.records.iter().map(|record| record.placement));
            self.best_chain.push(placement);
        }
        best
    }

    /// The second round with finalists (see "Finalists" in the module documentation): the
    /// `count` first placements whose best chains the first round (`report`) ranks first,
    /// the earlier first among equals, are walked again in their order with the chains
    /// averaged over the unknown piece, and the best of those becomes the best chain. With
    /// playouts, each finalist's value is its best chain's plus the playouts' (see
    /// [`Walk::play_out_finalists`]).
    fn final_round(
        &mut self,
        levels: &mut [Placements],
        board: &Board,
        count: usize,
        finalists: &mut Vec<usize>,
        playout_buffers: &mut PlayoutBuffers,
    ) {
        let report: &[PlacementValue] = self.report;
        finalists.clear();
        finalists.extend((0..report.len()).filter(|&index| report[index].value.is_some()));
        // Equal chains in the order of their first placements (an unstable sort with the
        // index as the last key: no buffer to allocate).
        finalists.sort_unstable_by(|&one, &other| {
            let value = |index: usize| report[index].value.expect("kept: it has a value");
            value(one).ranking(&value(other)).then(one.cmp(&other))
        });
        finalists.truncate(count);
        finalists.sort_unstable();
        self.expectimax = true;
        self.best = None;
        self.tied = false;
        self.best_chain.clear();
        let (here, deeper) = levels
            .split_first_mut()
            .expect("one placement buffer per level");
        if let Some(playouts) = self.options.playouts {
            let finalists = finalists
                .iter()
                .map(|&index| (index, here.as_slice()[index]));
            self.play_out_finalists(deeper, board, finalists, &playouts, playout_buffers);
            return;
        }
        for &index in finalists.iter() {
            self.first_index = index;
            self.follow(deeper, board, here.as_slice()[index]);
        }
    }

    /// The finalists' walk with playouts (see "Playouts" in the module documentation): each
    /// finalist's chains are walked on their own ([`Walk::walk_finalist`]); its best chain's
    /// value gains the playouts' weight × their mean value, played from the board that chain
    /// leaves (a chain cut short, whose game is over, gains nothing); the best of these values
    /// (the earlier finalist among equals) and its chain become the best.
    fn play_out_finalists(
        &mut self,
        deeper: &mut [Placements],
        board: &Board,
        finalists: impl Iterator<Item = (usize, Placement)>,
        playouts: &Playouts,
        buffers: &mut PlayoutBuffers,
    ) {
        deal_playout_pieces(
            board,
            self.pieces,
            playouts.count,
            playouts.pieces,
            &mut buffers.pieces,
        );
        let mut overall: Option<(ChainValue, usize)> = None;
        for (index, placement) in finalists {
            if crate::stop::requested() {
                break;
            }
            self.first_index = index;
            self.walk_finalist(deeper, board, placement);
            let Some((mut value, first)) = self.best else {
                buffers.values.push(PlacementValue {
                    placement,
                    value: None,
                });
                continue;
            };
            if value.length == self.pieces.len() {
                let mut end = *board;
                for placement in self.best_chain.iter() {
                    end.lock(placement.piece, placement.state());
                }
                buffers.steps.clear();
                let total: f64 = (0..playouts.count)
                    .map(|index| {
                        self.playout(
                            &mut buffers.placements,
                            end,
                            PlayoutSequence {
                                pieces: &buffers.pieces,
                                index,
                            },
                            playouts,
                            &mut buffers.steps,
                        )
                    })
                    .sum();
                value.cost += playouts.weight * (total / playouts.count as f64);
            }
            buffers.values.push(PlacementValue {
                placement,
                value: Some(value),
            });
            if overall.is_none_or(|(best, _)| value.is_better_than(&best)) {
                overall = Some((value, first));
                buffers.best_chain.clone_from(self.best_chain);
            }
        }
        self.best = overall;
        self.best_chain.clone_from(&buffers.best_chain);
        self.tied = false;
    }

    /// The chains through one finalist's first `placement`, walked on their own: `best`
    /// and `best_chain` become its best chain, the one a walk in the searcher's order gives.
    /// The later pieces are searched in the fastest order first; only when some chain ties
    /// with the best one are they walked again in order (see "Order" in the module
    /// documentation: the same argument, for one first placement).
    fn walk_finalist(&mut self, deeper: &mut [Placements], board: &Board, placement: Placement) {
        self.forget_best();
        self.follow(deeper, board, placement);
        if self.tied && !self.searcher.unordered_search_keeps_order() {
            self.walk_in_order(deeper, board, placement);
        }
        self.tied = false;
    }

    /// The chains through the first `placement` walked again from no best chain, the later
    /// pieces in the searcher's order: the best chain among ties becomes the one the ordered
    /// walk gives (see "Order" in the module documentation).
    fn walk_in_order(&mut self, deeper: &mut [Placements], board: &Board, placement: Placement) {
        self.forget_best();
        self.canonical = true;
        self.follow(deeper, board, placement);
        self.canonical = false;
    }

    /// Starts over with no best chain and no tie.
    fn forget_best(&mut self) {
        self.best = None;
        self.best_chain.clear();
        self.tied = false;
    }

    /// One playout's value from `board` (module documentation, "Playouts"): each piece of
    /// the sequence in turn goes where the evaluator values it best at depth 1 (the first in
    /// the searcher's unordered order among equals); the evaluator's cost of the final board
    /// (no placement records) minus the Tetris bonus per Tetris, or the no-placement cost
    /// when a piece cannot spawn or has no placement.
    ///
    /// The finalist's earlier playouts started from the same board, and a step's outcome
    /// depends only on the board and the piece: so the steps of the longest prefix this
    /// sequence shares with an earlier one are that one's (`steps`, which holds every earlier
    /// sequence's steps and gains this one's), and only the rest is played. With 16
    /// sequences the first piece repeats for most of them: about an eighth of the playouts'
    /// searches and leaves are not done again, and no value changes.
    fn playout(
        &mut self,
        placements: &mut Placements,
        board: Board,
        sequence: PlayoutSequence<'_>,
        playouts: &Playouts,
        steps: &mut Vec<Option<(Board, u32)>>,
    ) -> f64 {
        let length = playouts.pieces;
        let pieces = sequence.pieces(length);
        let (mut shared, mut from) = (0, 0);
        for earlier in 0..sequence.index {
            let common = pieces
                .iter()
                .zip(sequence.earlier(earlier, length))
                .take_while(|(piece, earlier)| piece == earlier)
                .count();
            if common > shared {
                (shared, from) = (common, earlier);
            }
        }
        debug_assert_eq!(steps.len(), sequence.index * length);
        let mut state = Some((board, 0u32));
        for step in 0..shared {
            state = steps[from * length + step];
            steps.push(state);
        }
        for &piece in &pieces[shared..] {
            state = state.and_then(|(board, tetrises)| {
                self.playout_step(placements, board, piece)
                    .map(|(next, rows_cleared)| (next, tetrises + u32::from(rows_cleared == 4)))
            });
            steps.push(state);
        }
        match state {
            Some((board, tetrises)) => {
                self.evaluate(&board).cost - playouts.tetris_bonus * f64::from(tetrises)
            }
            None => playouts.no_placement_cost,
        }
    }

    /// One step of a playout: `piece` placed where the evaluator values it best at depth 1 on
    /// `board`; the board it leaves and the rows it cleared, or `None` when it cannot spawn or
    /// has no placement.
    fn playout_step(
        &mut self,
        placements: &mut Placements,
        board: Board,
        piece: Piece,
    ) -> Option<(Board, u8)> {
        if self
            .context
            .game_over_rule
            .blocks_next_piece(&board, Some(piece))
        {
            return None;
        }
        self.searcher.search_unordered(
            &board,
            piece,
            self.context.later_piece_options(),
            placements,
        );
        self.best_link(placements.as_slice(), &board)
            .map(|(placement, _)| {
                let mut next = board;
                let record = PlacementRecord::lock(&mut next, placement);
                (next, record.rows_cleared())
            })
    }

    /// Whether the last known piece's values come from one call of the evaluator
    /// ([`Walk::last_level`]): without filter and expectimax.
    #[inline]
    fn batches_last_level(&self) -> bool {
        !self.expectimax && self.options.filter.is_none()
    }

    /// The cost a last-piece chain must stay at or below to matter when deciding: the best
    /// chain's so far, or the seed's when lower (see [`Walk::find_cost_to_beat`]). Only a
    /// complete chain that is not rejected counts: a chain whose rule is `Neutral` and cost
    /// is above its cost is then worse than it, and ties with nothing.
    #[inline]
    fn cost_to_beat(&self) -> f64 {
        match self.best {
            Some((best, _)) if self.counts_as_cost_to_beat(&best) => best.cost.min(self.seed),
            _ => self.seed,
        }
    }

    /// Whether a chain of `value` bounds the best chain's cost (see [`Walk::cost_to_beat`]).
    #[inline]
    fn counts_as_cost_to_beat(&self, value: &ChainValue) -> bool {
        value.length == self.pieces.len()
            && value.unknown_pieces_lost == 0
            && value.rule != ChainRule::Reject
    }

    /// When deciding with an evaluator that gives stand-ins (`hint` is only set then) and
    /// the last level is batched (where the stand-ins come from): walks the chains through the
    /// hinted placement of the current piece, if it is among `here`, before the others, and
    /// keeps their best cost as the seed of [`Walk::cost_to_beat`]; then forgets that walk.
    /// The walk in order offers those chains again, so the seed is the cost of a chain it
    /// offers and the best chain costs at most that: from the first placement on, chains
    /// that cost more can be given stand-ins. What the walk in order decides is unchanged.
    /// The hint is usually the best or nearly (the last decision saw the same board with
    /// this piece as its preview), so this costs one placement's chains and saves most
    /// exact values of the others.
    fn find_cost_to_beat(&mut self, here: &Placements, deeper: &mut [Placements], board: &Board) {
        let Some(hint) = self.hint else {
            return;
        };
        if !self.batches_last_level() || !self.evaluator.gives_stand_ins() {
            return;
        }
        let Some(index) = here.iter().position(|&placement| placement == hint) else {
            return;
        };
        self.first_index = index;
        self.follow(deeper, board, hint);
        if let Some((best, _)) = self.best {
            if self.counts_as_cost_to_beat(&best) {
                self.seed = best.cost;
            }
        }
        self.best = None;
        self.tied = false;
        self.best_chain.clear();
    }

    /// Fills `ends` with whether each of `all`, the last known piece's placements on `board`,
    /// ends the game under the decision's rule, as [`Walk::follow`] decides it for no-suicide
    /// (under a rule that checks the spawn, by locking a copy of the board and testing the
    /// 7 pieces' spawns); returns whether any does (when none does, `ends` may be left as it
    /// was: nothing reads it then).
    fn mark_game_enders(&mut self, all: &[Placement], board: &Board) -> bool {
        let rule = self.context.game_over_rule;
        // Without a spawn test, the common case (no placement reaches above the field) needs
        // no marks at all.
        if !rule.checks_spawn() && !rule.any_placement_ends_game(all) {
            return false;
        }
        self.ends.clear();
        self.ends.extend(all.iter().map(|placement| {
            rule.placement_ends_game(placement)
                || (rule.checks_spawn() && {
                    let mut next = *board;
                    next.lock(placement.piece, placement.state());
                    rule.blocks_next_piece(&next, None)
                })
        }));
        self.ends.contains(&true)
    }

    /// The best chain through `placement` of the piece at level `records.len()`, placed on
    /// `board`; `None` when the filter or the no-suicide rule removes it.
    fn follow(
        &mut self,
        deeper: &mut [Placements],
        board: &Board,
        placement: Placement,
    ) -> Option<ChainValue> {
        if !self.accepts(board, &placement) {
            return None;
        }
        let rule = self.context.game_over_rule;
        let ends_on_landing = rule.placement_ends_game(&placement);
        if self.options.no_suicide && ends_on_landing {
            return None;
        }
        let level = self.records.len();
        let mut next = *board;
        let record = PlacementRecord::lock(&mut next, placement);
        let last_known = level + 1 == self.pieces.len();
        let next_piece = if last_known {
            None
        } else {
            Some(self.pieces[level + 1])
        };
        // Whether the game is over after this placement. After the last known piece it only
        // matters to no-suicide, so a plain chain does not pay for the 7 spawn tests per leaf.
        let game_over = ends_on_landing
            || ((self.options.no_suicide || !last_known)
                && rule.blocks_next_piece(&next, next_piece));
        if self.options.no_suicide && game_over {
            return None;
        }
        self.records.push(record);
        let value = if last_known {
            let value = if self.expectimax {
                if self.loses_to_a_preferred_best(&next) {
                    self.records.pop();
                    return Some(ChainValue {
                        length: self.pieces.len(),
                        unknown_pieces_lost: 0,
                        rule: ChainRule::Neutral,
                        cost: f64::INFINITY,
                    });
                }
                self.unknown_level(&mut deeper[0], &next)
            } else {
                self.evaluate(&next)
            };
            self.offer(value);
            value
        } else {
            match (!game_over)
                .then(|| self.known_level(deeper, &next))
                .flatten()
            {
                Some(value) => value,
                // Cut short: the game ends here, or the next known piece has no placement.
                None => {
                    let value = self.evaluate(&next);
                    self.offer(value);
                    value
                }
            }
        };
        self.records.pop();
        Some(value)
    }

    /// Whether chains averaged over the unknown piece whose value is not reported may be
    /// skipped ([`Walk::loses_to_a_preferred_best`]): with expectimax, when deciding, and in
    /// the finalists' round (whose report is the first round's).
    #[inline]
    fn skips_unpreferred_chains(&self) -> bool {
        self.expectimax
            && (self.purpose == Purpose::Decide || self.options.expectimax_finalists.is_some())
    }

    /// [`Walk::known_level`]'s walk of the last known piece's placements `here` on `board` when
    /// chains may be skipped ([`Walk::skips_unpreferred_chains`]), not at the first level:
    /// first the placements after which the known chain may be preferred whatever unknown
    /// piece comes ([`Evaluator::may_prefer_after_every_piece`]), then the others, each once.
    /// Why: when one of the first is best and preferred, each of the others is skipped as
    /// soon as it is reached. The same best value: it is the best of the same values in
    /// another order. Which of several tied chains is offered first may change, as with the
    /// unordered search's order, and as there a tie is noted and settled by the walk in
    /// order ([`Walk::walk_in_order`]), which never takes this walk; nor does a searcher
    /// whose unordered search keeps its order (no walk in order follows a tie then). Out of
    /// line: the walks that never take it (every one without expectimax) keep their code.
    #[inline(never)]
    fn last_known_level_preferred_first(
        &mut self,
        here: &Placements,
        deeper: &mut [Placements],
        board: &Board,
    ) -> Option<ChainValue> {
        let mut best: Option<ChainValue> = None;
        for preferred_pass in [true, false] {
            for &placement in here.iter() {
                if crate::stop::requested() {
                    break;
                }
                if self.may_prefer_after(board, placement) != preferred_pass {
                    continue;
                }
                if let Some(value) = self.follow(deeper, board, placement) {
                    if best.is_none_or(|best| value.is_better_than(&best)) {
                        best = Some(value);
                    }
                }
            }
        }
        best
    }

    /// Whether the known chain in `records` and `placement`, locked on `board`, may be
    /// preferred whatever unknown piece comes ([`Evaluator::may_prefer_after_every_piece`]).
    fn may_prefer_after(&mut self, board: &Board, placement: Placement) -> bool {
        let mut next = *board;
        let record = PlacementRecord::lock(&mut next, placement);
        self.records.push(record);
        let may = self.evaluator.may_prefer_after_every_piece(Chain {
            board: &next,
            records: &self.records[..],
        });
        self.records.pop();
        may
    }

    /// Whether the known chain in `records`, whose final board is `board`, is certainly worse
    /// than the best chain so far whatever its unknown pieces give, while no report is made of
    /// its value ([`Walk::skips_unpreferred_chains`]): the best is complete, loses no unknown
    /// piece and is preferred, and the evaluator promises that some unknown piece cannot make
    /// this chain preferred ([`Evaluator::may_prefer_after_every_piece`]). Its expectimax
    /// value is then not preferred (that needs every piece's best chain preferred): it loses
    /// a piece, or is rejected or neutral, each of which ranks below the best. So it is not
    /// averaged: [`Walk::follow`] gives it a neutral stand-in of infinite cost, which no one
    /// reads but the ranking (where it is also worse than the best), and offers nothing, as
    /// the exact value would change nothing (it neither beats nor ties the best).
    #[inline]
    fn loses_to_a_preferred_best(&self, board: &Board) -> bool {
        self.skips_unpreferred_chains()
            && self.best.is_some_and(|(best, _)| {
                best.length == self.pieces.len()
                    && best.unknown_pieces_lost == 0
                    && best.rule == ChainRule::Prefer
            })
            && !self.evaluator.may_prefer_after_every_piece(Chain {
                board,
                records: &self.records[..],
            })
    }

    /// The expectimax value of the known chain in `records`, whose final board is `board`.
    fn unknown_level(&mut self, here: &mut Placements, board: &Board) -> ChainValue {
        let mut mean = MeanOverPieces::with_prefer_bonus(self.options.prefer_bonus);
        if self.options.filter.is_none() && self.evaluator.values_several_searches_at_once() {
            self.unknown_pieces_in_one_call(here, board, &mut mean);
            return mean.value(self.records.len());
        }
        for piece in Piece::ALL {
            // Only the best value of each unknown piece counts: any order will do.
            self.searcher
                .search_unordered(board, piece, self.context.later_piece_options(), here);
            let best = self
                .best_link(here.as_slice(), board)
                .map(|(_, value)| value);
            mean.add(best);
        }
        mean.value(self.records.len())
    }

    /// [`Walk::unknown_level`]'s bests, the 7 pieces valued in one call of an evaluator that
    /// takes several searches at once ([`Evaluator::values_several_searches_at_once`]):
    /// each piece's placements are those [`Walk::best_link`] values without a filter (the
    /// search's, less those no-suicide drops), each gets the value that call would give it,
    /// and each piece's best is the first best of its own placements in the same order. So
    /// every piece's best, and the mean, are [`Walk::best_link`]'s; only the board's terms
    /// are taken once rather than once per piece.
    fn unknown_pieces_in_one_call(
        &mut self,
        here: &mut Placements,
        board: &Board,
        mean: &mut MeanOverPieces,
    ) {
        let mut ends = [0; Piece::ALL.len()];
        self.unknown_placements.clear();
        for (end, piece) in ends.iter_mut().zip(Piece::ALL) {
            self.searcher
                .search_unordered(board, piece, self.context.later_piece_options(), here);
            let all = here.as_slice();
            let skips = self.options.no_suicide && self.mark_game_enders(all, board);
            let valued = kept_placements(all, skips.then_some(&self.ends[..]), self.kept);
            self.unknown_placements.extend_from_slice(valued);
            *end = self.unknown_placements.len();
        }
        self.evaluator.last_link_values_of_searches(
            board,
            self.records,
            self.unknown_placements,
            &ends,
            self.link_values,
        );
        let length = self.records.len() + 1;
        let mut start = 0;
        for end in ends {
            let range = start..end;
            let best = first_best_link(
                length,
                &self.unknown_placements[range.clone()],
                &self.link_values[range],
            );
            mean.add(best.map(|(_, value)| value));
            start = end;
        }
    }

    /// The best chain that `records` + one of `all` makes, for a piece after the last known
    /// one on `board` (an unknown piece, or a playout's): the placement and the chain's value,
    /// `None` when the filter or the no-suicide rule removes every one; the first of equals,
    /// in the order of `all`.
    ///
    /// With a filter, each placement that [`Walk::lock_if_kept`] keeps is locked and evaluated
    /// in turn. Without one, the same placements go to the evaluator in one call
    /// ([`Evaluator::last_link_values_of_searches`], which lets it take the board's terms once
    /// for all of them): no-suicide drops the ones [`Walk::mark_game_enders`] marks, which
    /// tests what `lock_if_kept` tests, and the evaluator gives each kept one the value
    /// [`Walk::evaluate`] gives its locked board, or a stand-in where that value certainly
    /// loses to an earlier one; every value has the same length, so the first best is the
    /// same one, with the same value.
    fn best_link(&mut self, all: &[Placement], board: &Board) -> Option<(Placement, ChainValue)> {
        let length = self.records.len() + 1;
        if self.options.filter.is_some() {
            let mut best: Option<(Placement, ChainValue)> = None;
            let mut offer = |placement: Placement, value: ChainValue| {
                if best.is_none_or(|(_, best)| value.is_better_than(&best)) {
                    best = Some((placement, value));
                }
            };
            for &placement in all {
                let Some((next, record)) = self.lock_if_kept(board, placement) else {
                    continue;
                };
                self.records.push(record);
                let value = self.evaluate(&next);
                self.records.pop();
                offer(placement, value);
            }
            return best;
        }
        let skips = self.options.no_suicide && self.mark_game_enders(all, board);
        let valued = kept_placements(all, skips.then_some(&self.ends[..]), self.kept);
        self.evaluator.last_link_values_of_searches(
            board,
            self.records,
            valued,
            &[valued.len()],
            self.link_values,
        );
        first_best_link(length, valued, self.link_values)
    }

    /// A piece after the last known one at `placement` on `board` (an unknown piece, or a
    /// playout's): the board it leaves and its record, or `None` when the filter or the
    /// no-suicide rule removes it (under no-suicide, a placement after which some piece of the
    /// 7 cannot spawn: any may come next).
    #[inline]
    fn lock_if_kept(
        &self,
        board: &Board,
        placement: Placement,
    ) -> Option<(Board, PlacementRecord)> {
        if !self.accepts(board, &placement) {
            return None;
        }
        let rule = self.context.game_over_rule;
        if self.options.no_suicide && rule.placement_ends_game(&placement) {
            return None;
        }
        let mut next = *board;
        let record = PlacementRecord::lock(&mut next, placement);
        if self.options.no_suicide && rule.blocks_next_piece(&next, None) {
            return None;
        }
        Some((next, record))
    }

    /// Whether the filter, if any, accepts `placement` on `board`.
    #[inline]
    fn accepts(&self, board: &Board, placement: &Placement) -> bool {
        self.options
            .filter
            .as_ref()
            .is_none_or(|filter| filter.accepts(board, placement))
    }

    /// The evaluator's value of the chain in `records` ending on `board`.
    #[inline]
    fn evaluate(&self, board: &Board) -> ChainValue {
        let chain = Chain {
            board,
            records: &self.records[..],
        };
        ChainValue {
            length: self.records.len(),
            unknown_pieces_lost: 0,
            rule: self.evaluator.chain_rule(chain),
            cost: self.evaluator.cost(chain),
        }
    }

    /// Makes the known chain in `records` the best one if its `value` beats the best so far,
    /// and notes a tie (neither better than the other) with the best.
    #[inline]
    fn offer(&mut self, value: ChainValue) {
        match self.best {
            Some((best, _)) if !value.is_better_than(&best) => {
                self.tied |= !best.is_better_than(&value);
            }
            _ => {
                self.best = Some((value, self.first_index));
                self.tied = false;
                self.best_chain.clear();
                self.best_chain
                    .extend(self.records.iter().map(|record| record.placement));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evaluate::Weights;
    use crate::placement::PieceState;
    use crate::search::{FrameTiming, SearchOptions};

    /// Every rotation at every column dropped straight down from above the field, rotation
    /// first, then x: enough of a searcher to drive the chain (column drop without its
    /// spawn-row rule).
    struct DropFromAbove;

    impl Searcher for DropFromAbove {
        fn name(&self) -> &str {
            "drop-from-above"
        }

        fn search(
            &mut self,
            board: &Board,
            piece: Piece,
            options: SearchOptions,
            out: &mut Placements,
        ) {
            out.clear(options.with_paths);
            if board.can_spawn(piece) {
                drops(board, piece, out);
            }
        }
    }

    /// Every rotation at every column of `piece` dropped straight down from above the field,
    /// rotation first, then x.
    fn drops(board: &Board, piece: Piece, out: &mut Placements) {
        for rotation in 0..piece.orientation_count() {
            for x in 0..10 {
                // Every orientation lies within 2 rows above its pivot.
                let above = PieceState { x, y: -2, rotation };
                if board.fits(piece, above) {
                    let y = board.drop_row(piece, above);
                    out.push(Placement::new(piece, PieceState { y, ..above }));
                }
            }
        }
    }

    /// [`DropFromAbove`] that records the piece and options of every search it is asked for.
    #[derive(Default)]
    struct Recording {
        searches: Vec<(Piece, SearchOptions)>,
    }

    impl Searcher for Recording {
        fn name(&self) -> &str {
            "recording"
        }

        fn search(
            &mut self,
            board: &Board,
            piece: Piece,
            options: SearchOptions,
            out: &mut Placements,
        ) {
            self.searches.push((piece, options));
            DropFromAbove.search(board, piece, options, out);
        }
    }

    const NAMES: &[&str] = &["pile_height"];

    /// Cost = pile height of the final board; the chain rule is given as a function, and so is
    /// [`Evaluator::may_prefer_after_every_piece`] (always `true`, no promise, unless set).
    struct PileHeight {
        weights: Weights,
        rule: fn(Chain<'_>) -> ChainRule,
        may_prefer: fn(Chain<'_>) -> bool,
    }

    impl PileHeight {
        fn new(rule: fn(Chain<'_>) -> ChainRule) -> PileHeight {
            PileHeight {
                weights: Weights::from_values("pile-height", NAMES, &[1.0]).unwrap(),
                rule,
                may_prefer: |_| true,
            }
        }
    }

    impl Evaluator for PileHeight {
        fn name(&self) -> &str {
            "pile-height"
        }

        fn feature_names(&self) -> &'static [&'static str] {
            NAMES
        }

        fn features(&self, chain: Chain<'_>, out: &mut [f64]) {
            out[0] = chain.board.column_heights().into_iter().max().unwrap_or(0) as f64;
        }

        fn weights(&self) -> &Weights {
            &self.weights
        }

        fn chain_rule(&self, chain: Chain<'_>) -> ChainRule {
            (self.rule)(chain)
        }

        fn may_prefer_after_every_piece(&self, chain: Chain<'_>) -> bool {
            (self.may_prefer)(chain)
        }
    }

    fn neutral(_: Chain<'_>) -> ChainRule {
        ChainRule::Neutral
    }

    fn value(length: usize, lost: u8, rule: ChainRule, cost: f64) -> ChainValue {
        ChainValue {
            length,
            unknown_pieces_lost: lost,
            rule,
            cost,
        }
    }

    #[test]
    fn values_order_by_length_then_lost_pieces_then_rule_then_cost() {
        use ChainRule::{Neutral, Prefer, Reject};
        let plain = value(2, 0, Neutral, 5.0);
        assert!(!plain.is_better_than(&plain), "equal is not better");
        assert!(value(2, 0, Neutral, 4.0).is_better_than(&plain));
        assert!(!value(2, 0, Neutral, 6.0).is_better_than(&plain));
        // A preferred chain beats a cheaper neutral one; a rejected one loses to a dearer one.
        assert!(value(2, 0, Prefer, 100.0).is_better_than(&plain));
        assert!(!value(2, 0, Reject, -100.0).is_better_than(&plain));
        assert!(plain.is_better_than(&value(2, 0, Reject, -100.0)));
        assert!(value(2, 0, Prefer, 100.0).is_better_than(&value(2, 0, Reject, -100.0)));
        assert!(!value(2, 0, Reject, -100.0).is_better_than(&value(2, 0, Prefer, 100.0)));
        // Losing an unknown piece outweighs the rule, a shorter chain outweighs everything.
        assert!(!value(2, 1, Prefer, -100.0).is_better_than(&plain));
        assert!(!value(1, 0, Prefer, -100.0).is_better_than(&value(2, 7, Reject, 100.0)));
        // NaN never wins.
        assert!(!value(2, 0, Neutral, f64::NAN).is_better_than(&plain));
        assert!(!value(2, 0, Neutral, f64::NAN).is_rejected());
        assert!(value(2, 0, Prefer, 1.0).is_preferred() && !plain.is_preferred());
    }

    #[test]
    fn equal_chains_keep_the_first_and_the_report_lists_every_first_placement() {
        // An O on the empty board: 9 placements (x = 1..=9), each leaving a pile of 2.
        let mut chain = LookaheadChain::new(ChainOptions::default());
        let evaluator = PileHeight::new(neutral);
        let choice = chain
            .best(
                &mut DropFromAbove,
                &evaluator,
                &Board::standard(),
                &[Piece::O, Piece::I],
            )
            .unwrap();
        assert_eq!(
            (choice.index, choice.placement.x, choice.placement.y),
            (0, 1, 18)
        );
        assert_eq!(choice.value, value(1, 0, ChainRule::Neutral, 2.0));
        assert_eq!(chain.best_chain(), &[choice.placement]);
        let report = chain.first_placement_values();
        assert_eq!(report.len(), 9);
        for (index, entry) in report.iter().enumerate() {
            assert_eq!(entry.placement.x, index as i8 + 1);
            assert_eq!(entry.value, Some(value(1, 0, ChainRule::Neutral, 2.0)));
        }
    }

    #[test]
    fn depth_two_chains_the_preview_and_records_the_whole_chain() {
        // O then O on the empty board: the first pair with a pile of 2 is O at x = 1, then the
        // second O beside it at x = 3 (x = 1 stacks to 4, x = 2 overlaps column 1 and sits on
        // it: pile 4).
        let mut chain = LookaheadChain::new(ChainOptions::with_depth(2));
        let choice = chain
            .best(
                &mut DropFromAbove,
                &PileHeight::new(neutral),
                &Board::standard(),
                &[Piece::O, Piece::O],
            )
            .unwrap();
        assert_eq!(choice.index, 0);
        assert_eq!(choice.value, value(2, 0, ChainRule::Neutral, 2.0));
        let xs: Vec<i8> = chain.best_chain().iter().map(|p| p.x).collect();
        assert_eq!(xs, vec![1, 3]);
        // Only one piece given: the chain uses depth 1.
        let choice = chain
            .best(
                &mut DropFromAbove,
                &PileHeight::new(neutral),
                &Board::standard(),
                &[Piece::O],
            )
            .unwrap();
        assert_eq!(choice.value.length, 1);
        assert!(
            chain
                .best(
                    &mut DropFromAbove,
                    &PileHeight::new(neutral),
                    &Board::standard(),
                    &[]
                )
                .is_none()
        );
    }

    #[test]
    fn a_chain_cut_short_wins_only_when_no_chain_is_complete() {
        // The filter removes every I placement, so after any O the preview I has none: every
        // chain is cut short at length 1, and the first O (pile 2) is still played.
        let options = ChainOptions {
            filter: Some(Arc::new(|_: &Board, placement: &Placement| {
                placement.piece != Piece::I
            })),
            ..ChainOptions::with_depth(2)
        };
        let mut chain = LookaheadChain::new(options);
        let choice = chain
            .best(
                &mut DropFromAbove,
                &PileHeight::new(neutral),
                &Board::standard(),
                &[Piece::O, Piece::I],
            )
            .unwrap();
        assert_eq!(choice.index, 0);
        assert_eq!(choice.value, value(1, 0, ChainRule::Neutral, 2.0));
        assert_eq!(chain.best_chain().len(), 1);
        // With the current piece filtered out entirely there is no choice at all.
        assert!(
            chain
                .best(
                    &mut DropFromAbove,
                    &PileHeight::new(neutral),
                    &Board::standard(),
                    &[Piece::I, Piece::O]
                )
                .is_none()
        );
        assert!(
            chain
                .first_placement_values()
                .iter()
                .all(|entry| entry.value.is_none())
        );
        assert_eq!(chain.first_placement_values().len(), 17);
    }

    #[test]
    fn ranking_orders_as_is_better_than() {
        let value = |length, lost, rule, cost| ChainValue {
            length,
            unknown_pieces_lost: lost,
            rule,
            cost,
        };
        let values = [
            value(2, 0, ChainRule::Neutral, 3.0),
            value(1, 0, ChainRule::Prefer, -9.0),
            value(2, 1, ChainRule::Prefer, 0.0),
            value(2, 0, ChainRule::Prefer, 5.0),
            value(2, 0, ChainRule::Reject, -1.0),
            value(2, 0, ChainRule::Neutral, -0.5),
            value(2, 0, ChainRule::Neutral, 3.0),
        ];
        for a in &values {
            for b in &values {
                let expected = if a.is_better_than(b) {
                    std::cmp::Ordering::Less
                } else if b.is_better_than(a) {
                    std::cmp::Ordering::Greater
                } else {
                    std::cmp::Ordering::Equal
                };
                assert_eq!(a.ranking(b), expected, "{a:?} vs {b:?}");
            }
        }
        // Prefer beats Neutral, which beats Reject, whatever the costs; a longer chain first.
        let mut sorted = values.to_vec();
        sorted.sort_by(ChainValue::ranking);
        let costs: Vec<f64> = sorted.iter().map(|value| value.cost).collect();
        assert_eq!(costs, [5.0, -0.5, 3.0, 3.0, -1.0, 0.0, -9.0]);
    }

    #[test]
    fn expectimax_averages_the_surviving_unknown_pieces_and_counts_the_lost_ones() {
        // An O on the empty board, then each of the 7 pieces: every piece can lie flat on the
        // floor beside the O (no piece is more than 2 rows tall lying flat), so each one's best
        // pile is the O's 2. The filter removes every S placement: S is lost.
        let options = ChainOptions {
            expectimax: true,
            filter: Some(Arc::new(|_: &Board, placement: &Placement| {
                placement.piece != Piece::S
            })),
            ..ChainOptions::default()
        };
        let mut chain = LookaheadChain::new(options);
        let choice = chain
            .best(
                &mut DropFromAbove,
                &PileHeight::new(neutral),
                &Board::standard(),
                &[Piece::O],
            )
            .unwrap();
        assert_eq!(choice.value, value(1, 1, ChainRule::Neutral, 2.0));
        assert_eq!(
            chain.best_chain().len(),
            1,
            "the unknown piece is not part of the chain"
        );
    }

    #[test]
    fn expectimax_combines_the_rules_of_the_unknown_pieces() {
        // Prefer every chain whose last piece is an I, reject every chain whose last piece is
        // an O: the O's best chain is rejected, so the known chain is rejected (played only
        // because every chain is).
        fn by_last_piece(chain: Chain<'_>) -> ChainRule {
            match chain.last().map(|record| record.placement.piece) {
                Some(Piece::I) => ChainRule::Prefer,
                Some(Piece::O) if chain.records.len() == 2 => ChainRule::Reject,
                _ => ChainRule::Neutral,
            }
        }
        let options = ChainOptions {
            expectimax: true,
            ..ChainOptions::default()
        };
        let mut chain = LookaheadChain::new(options);
        let choice = chain
            .best(
                &mut DropFromAbove,
                &PileHeight::new(by_last_piece),
                &Board::standard(),
                &[Piece::T],
            )
            .unwrap();
        assert!(choice.value.is_rejected());
        // Preferring every chain of 2 makes the combination preferred.
        fn all_preferred(chain: Chain<'_>) -> ChainRule {
            if chain.records.len() == 2 {
                ChainRule::Prefer
            } else {
                ChainRule::Neutral
            }
        }
        let choice = chain
            .best(
                &mut DropFromAbove,
                &PileHeight::new(all_preferred),
                &Board::standard(),
                &[Piece::T],
            )
            .unwrap();
        assert!(choice.is_preferred());
        // T flat (2 rows) and the best of each unknown piece lying beside it: pile 2.
        assert_eq!(choice.cost(), 2.0);
    }

    #[test]
    fn the_prefer_bonus_comes_off_each_preferred_piece_in_the_average() {
        // Preferred 5 and neutral 3 with a bonus of 10: (5 - 10 + 3) / 2 = -1, and not every
        // survivor is preferred, so the average is neutral; a lost piece changes no cost.
        let mut mean = MeanOverPieces::with_prefer_bonus(10.0);
        mean.add(Some(value(2, 0, ChainRule::Prefer, 5.0)));
        mean.add(None);
        mean.add(Some(value(2, 0, ChainRule::Neutral, 3.0)));
        assert_eq!(mean.value(2), value(2, 1, ChainRule::Neutral, -1.0));
        // Without the bonus: (5 + 3) / 2.
        let mut plain = MeanOverPieces::new();
        plain.add(Some(value(2, 0, ChainRule::Prefer, 5.0)));
        plain.add(Some(value(2, 0, ChainRule::Neutral, 3.0)));
        assert_eq!(plain.value(2), value(2, 0, ChainRule::Neutral, 4.0));
        // The preferred piece keeps its bonus beside a rejected one: (5 - 10 + 3) / 2, rejected.
        let mut rejected = MeanOverPieces::with_prefer_bonus(10.0);
        rejected.add(Some(value(2, 0, ChainRule::Prefer, 5.0)));
        rejected.add(Some(value(2, 0, ChainRule::Reject, 3.0)));
        assert_eq!(rejected.value(2), value(2, 0, ChainRule::Reject, -1.0));
    }

    #[test]
    fn expectimax_takes_the_prefer_bonus_off_the_unknown_pieces_preferred_chains() {
        // An O on the empty board, then each of the 7 pieces, every one best lying flat beside
        // the O (pile 2, as above). Every chain whose last piece is an I is preferred: of the 7
        // unknown pieces only the I's best chain is, so with a bonus of 14 the average is
        // (2 - 14 + 6 x 2) / 7 = 0, and it stays neutral.
        fn last_is_i(chain: Chain<'_>) -> ChainRule {
            match chain.last().map(|record| record.placement.piece) {
                Some(Piece::I) => ChainRule::Prefer,
                _ => ChainRule::Neutral,
            }
        }
        for (bonus, cost) in [(0.0, 2.0), (14.0, 0.0)] {
            let mut chain = LookaheadChain::new(ChainOptions {
                expectimax: true,
                prefer_bonus: bonus,
                ..ChainOptions::default()
            });
            let choice = chain
                .best(
                    &mut DropFromAbove,
                    &PileHeight::new(last_is_i),
                    &Board::standard(),
                    &[Piece::O],
                )
                .unwrap();
            assert_eq!(
                choice.value,
                value(1, 0, ChainRule::Neutral, cost),
                "bonus {bonus}"
            );
        }
    }

    #[test]
    fn the_context_gives_every_search_the_timing_and_only_the_current_piece_the_entry_delay() {
        // Depth 2 with expectimax: the current O, the preview I after each O placement, and
        // the 7 unknown pieces after each chain of two.
        let options = ChainOptions {
            expectimax: true,
            ..ChainOptions::with_depth(2)
        };
        let mut chain = LookaheadChain::new(options);
        let timing = FrameTiming {
            frames_per_row: 1,
            timeline: crate::Timeline::uniform(3),
            inputs: crate::InputModel::TwoThumb,
        };
        let context = DecisionContext {
            frame_timing: Some(timing),
            entry_delay: true,
            ..DecisionContext::default()
        };
        let mut searcher = Recording::default();
        let evaluator = PileHeight::new(neutral);
        let pieces = [Piece::O, Piece::I];
        let in_context = chain
            .best_in(
                &mut searcher,
                &evaluator,
                &Board::standard(),
                &pieces,
                context,
            )
            .unwrap();
        let (first, later) = searcher.searches.split_first().unwrap();
        assert_eq!(
            *first,
            (
                Piece::O,
                SearchOptions {
                    with_paths: false,
                    entry_delay: true,
                    frame_timing: Some(timing),
                    ..SearchOptions::default()
                }
            )
        );
        let later_options = SearchOptions {
            with_paths: false,
            entry_delay: false,
            frame_timing: Some(timing),
            ..SearchOptions::default()
        };
        assert!(later.iter().all(|&(_, options)| options == later_options));
        // 9 O placements, then 17 I placements after each, then the 7 unknown pieces.
        assert_eq!(later.len(), 9 + 9 * 17 * 7);
        // The default context passes nothing, and this searcher ignores gravity: same choice.
        searcher.searches.clear();
        let plain = chain
            .best(&mut searcher, &evaluator, &Board::standard(), &pieces)
            .unwrap();
        assert_eq!(plain, in_context);
        assert!(
            searcher
                .searches
                .iter()
                .all(|&(_, options)| options == SearchOptions::default())
        );
        // analyze_all_in passes the context the same way.
        searcher.searches.clear();
        let report = chain.analyze_all_in(
            &mut searcher,
            &evaluator,
            &Board::standard(),
            &pieces,
            context,
        );
        assert_eq!(report.len(), 9);
        assert_eq!(searcher.searches[0].1, context.current_piece_options(false));
        assert!(
            searcher.searches[1..]
                .iter()
                .all(|&(_, options)| options == context.later_piece_options())
        );
    }

    /// [`PileHeight`] (neutral) that notes how many placements each
    /// [`Evaluator::last_link_values`] call is given.
    struct Batches {
        inner: PileHeight,
        sizes: std::cell::RefCell<Vec<usize>>,
    }

    impl Evaluator for Batches {
        fn name(&self) -> &str {
            "batches"
        }

        fn feature_names(&self) -> &'static [&'static str] {
            self.inner.feature_names()
        }

        fn features(&self, chain: Chain<'_>, out: &mut [f64]) {
            self.inner.features(chain, out);
        }

        fn weights(&self) -> &Weights {
            self.inner.weights()
        }

        fn last_link_values(
            &self,
            board: &Board,
            records: &mut Vec<PlacementRecord>,
            placements: &[Placement],
            out: &mut Vec<LinkValue>,
        ) {
            self.sizes.borrow_mut().push(placements.len());
            out.clear();
            for &placement in placements {
                out.push(crate::evaluate::link_value_by_locking(
                    self, board, records, placement,
                ));
            }
        }
    }

    #[test]
    fn no_suicide_values_the_last_piece_in_one_call_without_the_game_ending_placements() {
        use crate::rules::GameOverRule;
        // Column 0 full to the top: of the O's 9 placements (x = 1..=9, columns x − 1 and x),
        // x = 1 lands above row 0 and ends the game under the literature rule; the other 8 go
        // to the evaluator in one call, and the skipped one has no value in the report.
        let mut board = Board::standard();
        for y in 0..20 {
            board.set(0, y);
        }
        let options = ChainOptions {
            no_suicide: true,
            ..ChainOptions::default()
        };
        let evaluator = Batches {
            inner: PileHeight::new(neutral),
            sizes: Default::default(),
        };
        let literature = DecisionContext::with_game_over_rule(GameOverRule::Literature);
        let mut chain = LookaheadChain::new(options.clone());
        let choice = chain
            .best_in(
                &mut DropFromAbove,
                &evaluator,
                &board,
                &[Piece::O],
                literature,
            )
            .unwrap();
        assert_eq!(evaluator.sizes.borrow().as_slice(), &[8]);
        assert_eq!((choice.index, choice.placement.x), (1, 2));
        // The pile is column 0's 20 rows whatever the O does.
        assert_eq!(choice.value, value(1, 0, ChainRule::Neutral, 20.0));
        let report = chain.first_placement_values();
        assert_eq!(report.len(), 9);
        assert_eq!(report[0].placement.x, 1);
        assert_eq!(report[0].value, None);
        assert!(report[1..].iter().all(|entry| entry.value.is_some()));
        // At depth 2 the preview I's placements are batched the same way, per O placement.
        evaluator.sizes.borrow_mut().clear();
        let mut chain = LookaheadChain::new(ChainOptions {
            depth: 2,
            ..options.clone()
        });
        chain.best_in(
            &mut DropFromAbove,
            &evaluator,
            &board,
            &[Piece::O, Piece::I],
            literature,
        );
        assert_eq!(evaluator.sizes.borrow().len(), 8);
        // Under the simulation rule (the default context) the spawn test after each lock
        // decides: columns 4 and 5 filled from row 2 down, an O over column 4 or 5 (x = 4, 5,
        // 6) rests on rows 0 and 1, where the next O would spawn; the other 6 go in one call.
        let mut towers = Board::standard();
        for y in 2..20 {
            towers.set(4, y);
            towers.set(5, y);
        }
        evaluator.sizes.borrow_mut().clear();
        let mut chain = LookaheadChain::new(options);
        chain.best(&mut DropFromAbove, &evaluator, &towers, &[Piece::O]);
        assert_eq!(evaluator.sizes.borrow().as_slice(), &[6]);
        let skipped: Vec<i8> = chain
            .first_placement_values()
            .iter()
            .filter(|entry| entry.value.is_none())
            .map(|entry| entry.placement.x)
            .collect();
        assert_eq!(skipped, [4, 5, 6]);
    }

    /// [`DropFromAbove`] without its spawn test: it offers placements even when the piece
    /// cannot spawn, so that every placement of a piece can end the game.
    struct Anywhere;

    impl Searcher for Anywhere {
        fn name(&self) -> &str {
            "anywhere"
        }

        fn search(
            &mut self,
            board: &Board,
            piece: Piece,
            options: SearchOptions,
            out: &mut Placements,
        ) {
            out.clear(options.with_paths);
            drops(board, piece, out);
        }
    }

    const SHAPE_NAMES: &[&str] = &["pile_height", "cells", "lowest_rows", "cleared"];

    /// Varied costs (with some exact ties) and all three rules, from the board and the
    /// chain's records.
    struct Shape {
        weights: Weights,
    }

    impl Evaluator for Shape {
        fn name(&self) -> &str {
            "shape"
        }

        fn feature_names(&self) -> &'static [&'static str] {
            SHAPE_NAMES
        }

        fn features(&self, chain: Chain<'_>, out: &mut [f64]) {
            out[0] = chain.board.column_heights().into_iter().max().unwrap_or(0) as f64;
            out[1] = chain.board.occupied_count() as f64;
            out[2] = chain
                .records
                .iter()
                .map(|record| record.lowest_cell_row as f64)
                .sum();
            out[3] = chain
                .records
                .iter()
                .map(|record| record.lock.rows_cleared as f64)
                .sum();
        }

        fn weights(&self) -> &Weights {
            &self.weights
        }

        fn chain_rule(&self, chain: Chain<'_>) -> ChainRule {
            match chain.records.last().map(|record| record.placement.x) {
                Some(2) => ChainRule::Reject,
                Some(7) => ChainRule::Prefer,
                _ => ChainRule::Neutral,
            }
        }
    }

    /// A seeded board, 4 to 20 rows, most of its columns near or at the top, with holes and
    /// now and then a full row.
    fn high_board(rng: &mut rand_pcg::Pcg64Mcg) -> Board {
        use rand::Rng;
        let height = 4 + (rng.next_u32() % 17) as usize;
        let mut board = Board::new(height).unwrap();
        for x in 0..10 {
            let top = match rng.next_u32() % 4 {
                0 => rng.next_u32() as usize % (height + 1),
                _ => rng.next_u32() as usize % 4,
            };
            for y in top..height {
                if !rng.next_u32().is_multiple_of(6) {
                    board.set(x, y);
                }
            }
        }
        if rng.next_u32().is_multiple_of(3) {
            let y = height - 1 - rng.next_u32() as usize % height.min(3);
            for x in 0..10 {
                board.set(x, y);
            }
            board.clear_cell(rng.next_u32() as usize % 10, y);
        }
        board
    }

    #[test]
    fn one_pass_finds_the_best_and_the_tie_that_offering_each_in_turn_finds() {
        use rand::{Rng, SeedableRng};
        // The literal reference: offer each value in turn as `Walk::offer` does to a walk
        // with no best yet. Values from few ranks and few costs, so that equal values, equal
        // costs of other ranks and replacements are common; NaN costs too (neither better
        // nor worse than anything), which the one pass must treat as offering does.
        let reference = |links: &[LinkValue]| -> Option<(usize, bool)> {
            let mut best: Option<(ChainValue, usize)> = None;
            let mut tied = false;
            for (index, link) in links.iter().enumerate() {
                let value = ChainValue {
                    length: 1,
                    unknown_pieces_lost: 0,
                    rule: link.rule,
                    cost: link.cost,
                };
                match best {
                    Some((best, _)) if !value.is_better_than(&best) => {
                        tied |= !best.is_better_than(&value);
                    }
                    _ => {
                        best = Some((value, index));
                        tied = false;
                    }
                }
            }
            best.map(|(_, index)| (index, tied))
        };
        let rules = [ChainRule::Prefer, ChainRule::Neutral, ChainRule::Reject];
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(0x71E5);
        let (mut ties, mut untied, mut replaced) = (0, 0, 0);
        for round in 0..20_000 {
            let length = rng.next_u32() as usize % 12;
            let links: Vec<LinkValue> = (0..length)
                .map(|_| LinkValue {
                    rule: rules[rng.next_u32() as usize % if round % 2 == 0 { 1 } else { 3 }],
                    cost: match rng.next_u32() % 16 {
                        0 if round % 5 == 0 => f64::NAN,
                        draw => f64::from(draw % 4),
                    },
                })
                .collect();
            let expected = reference(&links);
            assert_eq!(first_best_and_tie(&links), expected, "{links:?}");
            match expected {
                Some((_, true)) => ties += 1,
                Some((_, false)) => untied += 1,
                None => {}
            }
            replaced += usize::from(expected.is_some_and(|(index, _)| index > 0));
        }
        // Both answers and later bests were met many times.
        assert!(
            ties > 5_000 && untied > 2_000 && replaced > 5_000,
            "{ties} {untied} {replaced}"
        );
    }

    #[test]
    fn the_batched_last_piece_decides_exactly_as_placing_each_in_turn() {
        use crate::rules::GameOverRule;
        use rand::{Rng, SeedableRng};
        // An always-true filter sends every placement through `Walk::follow` one by one: the
        // batched last level must give the same choice, best chain and report to the bit,
        // whatever the board, pieces, depth and rule.
        let evaluator = Shape {
            weights: Weights::from_values("shape", SHAPE_NAMES, &[1.0, 0.25, -0.5, -3.0]).unwrap(),
        };
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(0x29_C4A1_5EED);
        let (mut skipping, mut none, mut cut_short) = (0, 0, 0);
        let mut skipping_by_spawn = 0;
        for round in 0..3000 {
            let board = high_board(&mut rng);
            let pieces: Vec<Piece> = (0..3)
                .map(|_| Piece::ALL[rng.next_u32() as usize % 7])
                .collect();
            let depth = 1 + round % 2;
            let rule = GameOverRule::ALL[round / 2 % GameOverRule::ALL.len()];
            let context = DecisionContext::with_game_over_rule(rule);
            for no_suicide in [true, false] {
                let options = ChainOptions {
                    no_suicide,
                    ..ChainOptions::with_depth(depth)
                };
                let one_by_one = ChainOptions {
                    filter: Some(Arc::new(|_: &Board, _: &Placement| true)),
                    ..options.clone()
                };
                let (mut batched, mut reference) = (
                    LookaheadChain::new(options),
                    LookaheadChain::new(one_by_one),
                );
                let choice = batched.best_in(&mut Anywhere, &evaluator, &board, &pieces, context);
                let expected =
                    reference.best_in(&mut Anywhere, &evaluator, &board, &pieces, context);
                let what = format!("round {round}: {pieces:?} depth {depth} {rule} {no_suicide}");
                assert_eq!(choice, expected, "{what}");
                assert_eq!(
                    choice.map(|choice| choice.value.cost.to_bits()),
                    expected.map(|choice| choice.value.cost.to_bits()),
                    "{what}"
                );
                assert_eq!(batched.best_chain(), reference.best_chain(), "{what}");
                assert_eq!(
                    batched.first_placement_values(),
                    reference.first_placement_values(),
                    "{what}"
                );
                let report = batched.first_placement_values();
                if no_suicide && rule == GameOverRule::Simulation {
                    skipping_by_spawn +=
                        usize::from(report.iter().any(|entry| entry.value.is_none()));
                }
                if no_suicide && rule == GameOverRule::Literature {
                    let report = batched.first_placement_values();
                    skipping += usize::from(report.iter().any(|entry| entry.value.is_none()));
                    none += usize::from(!report.is_empty() && choice.is_none());
                    cut_short += usize::from(choice.is_some_and(|c| c.value.length < depth));
                }
            }
        }
        // The game-ending placements, a piece with no placement left and chains cut short by
        // it all came up.
        assert!(
            skipping > 100 && none > 10 && cut_short > 10 && skipping_by_spawn > 100,
            "{skipping} {none} {cut_short} {skipping_by_spawn}"
        );
    }

    /// [`DropFromAbove`] that sets a stop flag at its `stop_at`-th search, and counts them.
    struct StopsAt {
        flag: std::sync::Arc<std::sync::atomic::AtomicBool>,
        stop_at: usize,
        searches: usize,
    }

    impl Searcher for StopsAt {
        fn name(&self) -> &str {
            "stops-at"
        }

        fn search(
            &mut self,
            board: &Board,
            piece: Piece,
            options: SearchOptions,
            out: &mut Placements,
        ) {
            self.searches += 1;
            if self.searches == self.stop_at {
                self.flag.store(true, std::sync::atomic::Ordering::Relaxed);
            }
            DropFromAbove.search(board, piece, options, out);
        }
    }

    #[test]
    fn a_stop_ends_the_search_without_a_choice_and_changes_nothing_unstopped() {
        let pieces = [Piece::T, Piece::I, Piece::O];
        let options = || ChainOptions {
            expectimax: true,
            ..ChainOptions::with_depth(3)
        };
        let evaluator = PileHeight::new(neutral);
        let board = Board::standard();
        let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let mut never = StopsAt {
            flag: std::sync::Arc::clone(&flag),
            stop_at: usize::MAX,
            searches: 0,
        };
        // Watched but never stopped: the same choice as unwatched, after the same searches.
        let watched = crate::stop::watching(std::sync::Arc::clone(&flag), || {
            LookaheadChain::new(options()).best(&mut never, &evaluator, &board, &pieces)
        });
        let all = never.searches;
        never.searches = 0;
        let unwatched =
            LookaheadChain::new(options()).best(&mut never, &evaluator, &board, &pieces);
        assert_eq!(never.searches, all);
        let index = |choice: Option<ChainChoice>| choice.map(|choice| (choice.index, choice.value));
        assert_eq!(index(watched), index(unwatched));
        assert!(index(watched).is_some());
        // Stopped at the 50th search (of some 50,000): no choice, and the walk ends soon after.
        let mut stopped = StopsAt {
            flag: std::sync::Arc::clone(&flag),
            stop_at: 50,
            searches: 0,
        };
        let choice = crate::stop::watching(std::sync::Arc::clone(&flag), || {
            LookaheadChain::new(options()).best(&mut stopped, &evaluator, &board, &pieces)
        });
        assert!(choice.is_none());
        assert!(all > 1_000, "{all} searches");
        // The search in progress and the unknown piece's seven finish; nothing after.
        assert!(stopped.searches <= 50 + 7, "{} searches", stopped.searches);
        // A set flag stops nothing outside `watching`.
        let mut after = StopsAt {
            flag,
            stop_at: usize::MAX,
            searches: 0,
        };
        let choice = LookaheadChain::new(options()).best(&mut after, &evaluator, &board, &pieces);
        assert_eq!(index(choice), index(unwatched));
    }

    /// [`DropFromAbove`] whose unordered search gives the placements in reverse, and says so.
    struct Reversed;

    impl Searcher for Reversed {
        fn name(&self) -> &str {
            "reversed"
        }

        fn search(
            &mut self,
            board: &Board,
            piece: Piece,
            options: SearchOptions,
            out: &mut Placements,
        ) {
            DropFromAbove.search(board, piece, options, out);
        }

        fn search_unordered(
            &mut self,
            board: &Board,
            piece: Piece,
            options: SearchOptions,
            out: &mut Placements,
        ) {
            let mut ordered = Placements::new();
            DropFromAbove.search(board, piece, options, &mut ordered);
            out.clear(false);
            for &placement in ordered.iter().rev() {
                out.push(placement);
            }
        }

        fn unordered_search_keeps_order(&self) -> bool {
            false
        }
    }

    /// Preferred when the chain holds an I in column 0 (which no O can add).
    fn i_in_column_zero(chain: Chain<'_>) -> bool {
        chain
            .records
            .iter()
            .any(|record| record.placement.piece == Piece::I && record.placement.x == 0)
    }

    #[test]
    fn skipping_chains_after_a_preferred_best_decides_as_averaging_them() {
        // Pile height ties everywhere, and a preferred chain (an I in column 0) is best where
        // it exists: the walk that takes the promised preferred placements first and skips
        // the others once one is best must choose the same placement and best chain as the
        // walk that averages every chain, deciding and analysing, with and without
        // finalists, over a searcher whose unordered order differs from its order (so that
        // ties are walked again in order).
        use rand::{Rng, SeedableRng};
        fn rule(chain: Chain<'_>) -> ChainRule {
            match i_in_column_zero(chain) {
                true => ChainRule::Prefer,
                false => ChainRule::Neutral,
            }
        }
        let promising = PileHeight {
            may_prefer: i_in_column_zero,
            ..PileHeight::new(rule)
        };
        let plain = PileHeight::new(rule);
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(0x1EF7);
        let mut preferred = 0;
        for round in 0..300 {
            let board = high_board(&mut rng);
            let pieces: Vec<Piece> = (0..2)
                .map(|_| match rng.next_u32() % 3 {
                    0 => Piece::I,
                    _ => Piece::ALL[rng.next_u32() as usize % 7],
                })
                .collect();
            let options = ChainOptions {
                depth: 2,
                expectimax: true,
                expectimax_finalists: [None, Some(2), Some(40)][round % 3],
                ..ChainOptions::default()
            };
            for decide in [false, true] {
                let choose = |evaluator: &PileHeight| {
                    let mut chain = LookaheadChain::new(options.clone());
                    let context = DecisionContext::default();
                    let choice = match decide {
                        true => chain.decide_in(&mut Reversed, evaluator, &board, &pieces, context),
                        false => chain.best_in(&mut Reversed, evaluator, &board, &pieces, context),
                    };
                    (choice, chain.best_chain().to_vec())
                };
                let (skipping, averaging) = (choose(&promising), choose(&plain));
                assert_eq!(skipping, averaging, "{options:?} {pieces:?} on\n{board}");
                preferred +=
                    usize::from(skipping.0.is_some_and(|choice| choice.value.is_preferred()));
            }
        }
        assert!(preferred >= 50, "{preferred} preferred choices");
    }

    #[test]
    #[should_panic(expected = "depth 1 or more")]
    fn depth_zero_is_a_bug() {
        LookaheadChain::new(ChainOptions::with_depth(0));
    }
}
