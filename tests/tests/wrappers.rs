//! Evaluator wrappers the test files share: one that gives the most aggressive stand-ins the
//! contracts allow, to check that a chain's choices and reports do not depend on them, and
//! one that gives every value exactly, to compare an evaluator's shortcuts against.

use tetris_core::{
    Board, Chain, ChainRule, Evaluator, LinkValue, Placement, PlacementRecord, Weights,
    link_value_by_locking,
};
use tetris_fixtures::TestEvaluator;

/// [`TestEvaluator`] giving the most aggressive stand-ins the contracts allow: in
/// [`Evaluator::last_link_values_to_beat`], for a neutral chain costing more than the cost to
/// beat (`to_beat`, or the lowest exact neutral cost given earlier in the call), the next
/// `f64` above that cost; in [`Evaluator::last_link_values_of_searches`], for a neutral chain
/// costing more than the lowest neutral cost of its search, the next `f64` above that one.
pub struct AggressiveStandIns(pub TestEvaluator);

impl Evaluator for AggressiveStandIns {
    fn name(&self) -> &str {
        "aggressive"
    }

    fn feature_names(&self) -> &'static [&'static str] {
        self.0.feature_names()
    }

    fn features(&self, chain: Chain<'_>, out: &mut [f64]) {
        self.0.features(chain, out);
    }

    fn weights(&self) -> &Weights {
        self.0.weights()
    }

    fn chain_rule(&self, chain: Chain<'_>) -> ChainRule {
        self.0.chain_rule(chain)
    }

    fn cost(&self, chain: Chain<'_>) -> f64 {
        self.0.cost(chain)
    }

    fn gives_stand_ins(&self) -> bool {
        true
    }

    fn last_link_values_to_beat(
        &self,
        board: &Board,
        records: &mut Vec<PlacementRecord>,
        placements: &[Placement],
        to_beat: f64,
        out: &mut Vec<LinkValue>,
    ) {
        out.clear();
        // The cost to beat: `to_beat`, or the lowest exact neutral cost given so far.
        let mut beat = to_beat;
        for &placement in placements {
            let exact = link_value_by_locking(self, board, records, placement);
            out.push(if exact.rule == ChainRule::Neutral && exact.cost > beat {
                LinkValue {
                    rule: ChainRule::Neutral,
                    cost: beat.next_up(),
                }
            } else {
                if exact.rule == ChainRule::Neutral && exact.cost < beat {
                    beat = exact.cost;
                }
                exact
            });
        }
    }

    fn last_link_values_of_searches(
        &self,
        board: &Board,
        records: &mut Vec<PlacementRecord>,
        placements: &[Placement],
        ends: &[usize],
        out: &mut Vec<LinkValue>,
    ) {
        out.clear();
        let mut start = 0;
        for &end in ends {
            let exact: Vec<LinkValue> = placements[start..end]
                .iter()
                .map(|&placement| link_value_by_locking(self, board, records, placement))
                .collect();
            let lowest = exact
                .iter()
                .filter(|value| value.rule == ChainRule::Neutral)
                .map(|value| value.cost)
                .fold(f64::INFINITY, f64::min);
            out.extend(exact.into_iter().map(|value| {
                if value.rule == ChainRule::Neutral && value.cost > lowest {
                    LinkValue {
                        rule: ChainRule::Neutral,
                        cost: lowest.next_up(),
                    }
                } else {
                    value
                }
            }));
            start = end;
        }
    }
}

/// An evaluator as the inner one values chains, every value exact and none of its promises:
/// its features, weights, rule, cost and last links' values forwarded, the rest (stand-ins,
/// several searches at once, `may_prefer_after_every_piece`) left to the trait's defaults.
pub struct ExactValues<'a, E: ?Sized>(pub &'a E);

impl<E: Evaluator + ?Sized> Evaluator for ExactValues<'_, E> {
    fn name(&self) -> &str {
        self.0.name()
    }

    fn feature_names(&self) -> &'static [&'static str] {
        self.0.feature_names()
    }

    fn placement_feature_names(&self) -> &'static [&'static str] {
        self.0.placement_feature_names()
    }

    fn features(&self, chain: tetris_core::Chain<'_>, out: &mut [f64]) {
        self.0.features(chain, out)
    }

    fn weights(&self) -> &tetris_core::Weights {
        self.0.weights()
    }

    fn chain_rule(&self, chain: tetris_core::Chain<'_>) -> tetris_core::ChainRule {
        self.0.chain_rule(chain)
    }

    fn cost(&self, chain: tetris_core::Chain<'_>) -> f64 {
        self.0.cost(chain)
    }

    fn last_link_values(
        &self,
        board: &Board,
        records: &mut Vec<tetris_core::PlacementRecord>,
        placements: &[tetris_core::Placement],
        out: &mut Vec<tetris_core::LinkValue>,
    ) {
        self.0.last_link_values(board, records, placements, out)
    }
}
