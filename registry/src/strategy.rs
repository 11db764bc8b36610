//! Strategies by name: `SEARCHER+EVALUATOR[:PRESET|:weights.json][@DEPTH]`.
//!
//! A strategy is a searcher, an evaluator (with its weights) and a lookahead depth (1 = the
//! current piece only, 2 = current + one preview piece, …). After `:` a value ending in
//! `.json` (or containing a path separator) is a weights file, anything else a preset name;
//! [`EvaluatorSpec`] (an evaluator alone, as `arena features --eval` takes it) parses that
//! part with the same rule.

use std::fmt;
use std::str::FromStr;

use tetris_core::{
    Board, ChainChoice, ChainOptions, DecisionContext, FrameTiming, Input, LookaheadChain, Piece,
    Placement, Placements, Searcher,
};

use crate::engines::{
    AnyEvaluator, AnySearcher, evaluator_by_name, evaluator_names, searcher_by_name, searcher_names,
};
use crate::error::RegistryError;
use crate::weights::WeightsChoice;

/// An evaluator named on its own: `NAME`, `NAME:PRESET` or `NAME:weights.json`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvaluatorSpec {
    /// The evaluator's registered name.
    pub name: String,
    /// Which weights it is built with.
    pub weights: WeightsChoice,
}

impl EvaluatorSpec {
    /// Builds the evaluator (loading its weights file, if any).
    pub fn build(&self) -> Result<AnyEvaluator, RegistryError> {
        evaluator_by_name(&self.name, &self.weights)
            .ok_or_else(|| unknown_evaluator(&self.name))?
            .map_err(RegistryError::from)
    }
}

/// The error for an evaluator name that is not registered, listing the valid ones.
fn unknown_evaluator(name: &str) -> RegistryError {
    RegistryError::UnknownEvaluator {
        name: name.to_string(),
        valid: evaluator_names().join(" "),
    }
}

impl FromStr for EvaluatorSpec {
    type Err = RegistryError;

    /// Parses `NAME[:PRESET|:weights.json]`; the name must be a registered evaluator.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let (name, weights) = WeightsChoice::split(text);
        if !evaluator_names().contains(&name) {
            return Err(unknown_evaluator(name));
        }
        Ok(EvaluatorSpec {
            name: name.to_string(),
            weights,
        })
    }
}

impl fmt::Display for EvaluatorSpec {
    /// The canonical form: `name`, `name:preset` or `name:file`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.name, self.weights)
    }
}

/// The deepest lookahead the arena accepts (each level multiplies the work by ~30).
pub const MAX_DEPTH: usize = 4;

/// A parsed strategy name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StrategySpec {
    /// The searcher's name.
    pub searcher: String,
    /// The evaluator's name.
    pub evaluator: String,
    /// Which weights the evaluator uses.
    pub weights: WeightsChoice,
    /// Known pieces per decision: 1 = current only, 2 = current + preview.
    pub depth: usize,
}

impl FromStr for StrategySpec {
    type Err = RegistryError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let fail = |message: String| RegistryError::Strategy {
            strategy: text.to_string(),
            message,
        };
        let (body, depth) = match text.rsplit_once('@') {
            Some((body, depth)) => {
                let depth: usize = depth.parse().map_err(|_| {
                    fail(format!(
                        "depth {depth:?} is not a whole number from 1 to {MAX_DEPTH}"
                    ))
                })?;
                if !(1..=MAX_DEPTH).contains(&depth) {
                    return Err(fail(format!("depth {depth} is outside 1..={MAX_DEPTH}")));
                }
                (body, depth)
            }
            None => (text, 1),
        };
        let (searcher, rest) = body.split_once('+').ok_or_else(|| {
            fail("expected SEARCHER+EVALUATOR[:PRESET|:weights.json][@DEPTH]".to_string())
        })?;
        let (evaluator, weights) = WeightsChoice::split(rest);
        if !searcher_names().contains(&searcher) {
            return Err(fail(format!(
                "unknown searcher {searcher:?} (valid: {})",
                searcher_names().join(" ")
            )));
        }
        if !evaluator_names().contains(&evaluator) {
            return Err(fail(format!(
                "unknown evaluator {evaluator:?} (valid: {})",
                evaluator_names().join(" ")
            )));
        }
        Ok(StrategySpec {
            searcher: searcher.to_string(),
            evaluator: evaluator.to_string(),
            weights,
            depth,
        })
    }
}

impl fmt::Display for StrategySpec {
    /// The canonical name: `searcher+evaluator[:preset|:file][@depth]` (depth 1 omitted).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}+{}{}", self.searcher, self.evaluator, self.weights)?;
        if self.depth != 1 {
            write!(f, "@{}", self.depth)?;
        }
        Ok(())
    }
}

/// A playable strategy: its engines, its chain and the buffers it reuses between moves.
///
/// Build it once (reading any weights file once) and clone it into each worker: a clone
/// copies the engines and starts empty buffers.
pub struct Strategy {
    spec: StrategySpec,
    searcher: AnySearcher,
    evaluator: AnyEvaluator,
    chain: LookaheadChain,
    path_buffer: Placements,
    last_context: DecisionContext,
}

impl Clone for Strategy {
    /// The same engines with fresh chain buffers (a chain keeps no state between moves).
    fn clone(&self) -> Strategy {
        Strategy {
            spec: self.spec.clone(),
            searcher: self.searcher.clone(),
            evaluator: self.evaluator.clone(),
            chain: LookaheadChain::new(self.chain.options().clone()),
            path_buffer: Placements::new(),
            last_context: DecisionContext::default(),
        }
    }
}

impl Strategy {
    /// Builds the engines a spec names (loading its weights file, if any).
    pub fn new(spec: StrategySpec) -> Result<Strategy, RegistryError> {
        let strategy = spec.to_string();
        let fail = |message: String| RegistryError::Strategy {
            strategy: strategy.clone(),
            message,
        };
        if spec.weights == WeightsChoice::Tuned {
            return Err(fail(
                "tuned weights are not part of a name: write them to a weights file".into(),
            ));
        }
        let searcher = searcher_by_name(&spec.searcher)
            .ok_or_else(|| fail(format!("unknown searcher {:?}", spec.searcher)))?;
        let evaluator = evaluator_by_name(&spec.evaluator, &spec.weights)
            .ok_or_else(|| fail(format!("unknown evaluator {:?}", spec.evaluator)))??;
        Ok(Strategy {
            chain: LookaheadChain::new(ChainOptions::with_depth(spec.depth)),
            spec,
            searcher,
            evaluator,
            path_buffer: Placements::new(),
            last_context: DecisionContext::default(),
        })
    }

    /// A strategy of the searcher called `searcher` with an evaluator already built with
    /// candidate weights (while tuning) and lookahead `depth`. Its name says the weights are
    /// tuned ([`WeightsChoice::Tuned`]): they come from no preset or file.
    pub fn with_tuned_evaluator(
        searcher: &str,
        evaluator: AnyEvaluator,
        depth: usize,
    ) -> Result<Strategy, RegistryError> {
        let spec = StrategySpec {
            searcher: searcher.to_string(),
            evaluator: tetris_core::Evaluator::name(&evaluator).to_string(),
            weights: WeightsChoice::Tuned,
            depth,
        };
        let searcher = searcher_by_name(searcher).ok_or_else(|| RegistryError::Strategy {
            strategy: spec.to_string(),
            message: format!("unknown searcher {searcher:?}"),
        })?;
        Ok(Strategy {
            chain: LookaheadChain::new(ChainOptions::with_depth(depth)),
            spec,
            searcher,
            evaluator,
            path_buffer: Placements::new(),
            last_context: DecisionContext::default(),
        })
    }

    /// Parses and builds a strategy from its name.
    pub fn from_name(name: &str) -> Result<Strategy, RegistryError> {
        Strategy::new(name.parse()?)
    }

    /// The parsed name.
    pub fn spec(&self) -> &StrategySpec {
        &self.spec
    }

    /// The canonical name.
    pub fn name(&self) -> String {
        self.spec.to_string()
    }

    /// Known pieces per decision (1 = current only, 2 = current + preview).
    pub fn depth(&self) -> usize {
        self.spec.depth
    }

    /// The frame timing the searcher simulates when a decision gives none, `None` when it
    /// ignores gravity.
    pub fn frame_timing(&self) -> Option<FrameTiming> {
        self.searcher.frame_timing()
    }

    /// The context of the last decision ([`Strategy::choose_in`]): what a game told it.
    pub fn last_context(&self) -> DecisionContext {
        self.last_context
    }

    /// The evaluator.
    pub fn evaluator(&self) -> &AnyEvaluator {
        &self.evaluator
    }

    /// The lookahead chain (its last search's report and best chain).
    pub fn chain(&self) -> &LookaheadChain {
        &self.chain
    }

    /// Both engines and the chain at once, for callers that drive the chain themselves.
    pub fn parts_mut(&mut self) -> (&mut AnySearcher, &AnyEvaluator, &mut LookaheadChain) {
        (&mut self.searcher, &self.evaluator, &mut self.chain)
    }

    /// The best chain's first placement for `pieces` (current piece first) on `board` in a
    /// game without frames (the default [`DecisionContext`]), or `None` when the current
    /// piece has no placement (it cannot spawn).
    #[inline]
    pub fn choose(&mut self, board: &Board, pieces: &[Piece]) -> Option<ChainChoice> {
        self.choose_in(board, pieces, DecisionContext::default())
    }

    /// [`Strategy::choose`] in `context`: the level's timing and the player's tap rate for
    /// gravity-aware searchers, and whether the current piece has the entry delay.
    #[inline]
    pub fn choose_in(
        &mut self,
        board: &Board,
        pieces: &[Piece],
        context: DecisionContext,
    ) -> Option<ChainChoice> {
        self.last_context = context;
        self.chain
            .best_in(&mut self.searcher, &self.evaluator, board, pieces, context)
    }

    /// The searcher's input path from the spawn to `placement` (which must be one of its
    /// placements of that piece on `board` in `context`, the context it was chosen in).
    pub fn path_to(
        &mut self,
        board: &Board,
        placement: &Placement,
        context: DecisionContext,
    ) -> Option<Vec<Input>> {
        self.path_inputs(board, placement, context)
            .map(<[Input]>::to_vec)
    }

    /// [`Strategy::path_to`] borrowed from the strategy's own buffer, for game loops that
    /// replay a path every piece and must not allocate for it.
    pub fn path_inputs(
        &mut self,
        board: &Board,
        placement: &Placement,
        context: DecisionContext,
    ) -> Option<&[Input]> {
        self.searcher.search(
            board,
            placement.piece,
            context.current_piece_options(true),
            &mut self.path_buffer,
        );
        let index = self
            .path_buffer
            .iter()
            .position(|candidate| candidate == placement)?;
        self.path_buffer.path(index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strategy_names_parse_and_print_back() {
        let spec: StrategySpec = "bfs+elashi@2".parse().unwrap();
        assert_eq!(spec.searcher, "bfs");
        assert_eq!(spec.evaluator, "elashi");
        assert_eq!(spec.depth, 2);
        assert_eq!(spec.weights, WeightsChoice::Default);
        assert_eq!(spec.to_string(), "bfs+elashi@2");
        let spec: StrategySpec = "bfs+dellacherie:original@1".parse().unwrap();
        assert_eq!(spec.weights, WeightsChoice::Preset("original".into()));
        assert_eq!(spec.to_string(), "bfs+dellacherie:original");
        let spec: StrategySpec = "column-drop+elashi:my/weights.json".parse().unwrap();
        assert_eq!(spec.weights, WeightsChoice::File("my/weights.json".into()));
        for bad in [
            "bfs",
            "bfs+nope",
            "nope+elashi",
            "bfs+elashi@0",
            "bfs+elashi@x",
            "bfs+elashi@9",
        ] {
            assert!(bad.parse::<StrategySpec>().is_err(), "{bad}");
        }
        assert!(Strategy::from_name("bfs+dellacherie:nope").is_err());
        assert!(Strategy::from_name("bfs+dellacherie:original").is_ok());
    }

    #[test]
    fn a_tuned_strategy_says_so_and_cannot_be_rebuilt_from_its_name() {
        let evaluator = crate::evaluator_with_values("elashi", &[1.0; 6])
            .unwrap()
            .unwrap();
        let strategy = Strategy::with_tuned_evaluator("bfs", evaluator, 2).unwrap();
        assert_eq!(strategy.name(), "bfs+elashi:<tuned>@2");
        assert!(Strategy::new(strategy.spec().clone()).is_err());
        let clone = strategy.clone();
        assert_eq!(clone.name(), strategy.name());
    }

    #[test]
    fn evaluator_specs_parse_and_print_back() {
        let spec: EvaluatorSpec = "elashi".parse().unwrap();
        assert_eq!(spec.weights, WeightsChoice::Default);
        assert_eq!(spec.to_string(), "elashi");
        let spec: EvaluatorSpec = "dellacherie:original".parse().unwrap();
        assert_eq!(spec.weights, WeightsChoice::Preset("original".into()));
        assert_eq!(spec.to_string(), "dellacherie:original");
        for file in ["elashi:w.json", "elashi:dir/weights"] {
            let spec: EvaluatorSpec = file.parse().unwrap();
            assert!(matches!(spec.weights, WeightsChoice::File(_)), "{file}");
            assert_eq!(spec.to_string(), file);
        }
        assert!("nope".parse::<EvaluatorSpec>().is_err());
        assert!(":published".parse::<EvaluatorSpec>().is_err());
        assert!(
            "dellacherie:nope"
                .parse::<EvaluatorSpec>()
                .unwrap()
                .build()
                .is_err()
        );
    }
}
