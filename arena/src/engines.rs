//! Static dispatch over the concrete searchers and evaluators, and their registry by name.
//!
//! `enum_dispatch` needs the enum and the trait it dispatches in one crate, and `tetris-core`
//! cannot name the engine crates (they depend on it), so this crate declares its own two
//! dispatch traits, [`SearchEngine`] and [`EvaluationEngine`], and the enums over the engines.
//! The enums implement `tetris_core::Searcher` / `tetris_core::Evaluator` again by forwarding,
//! so the generic lookahead chain runs on them with one `match` per call instead of a virtual
//! call.
//!
//! Registering an engine is one line in the `searchers!` or `evaluators!` invocation at the
//! bottom of this file: the macro adds the enum variant, the dispatch impl and the name, preset
//! and weights-file lookups. A searcher type must offer `NAME` and `new()` besides
//! `tetris_core::Searcher`; an evaluator type implements `tetris_core::WeightedEvaluator`.

use std::path::Path;

use enum_dispatch::enum_dispatch;
use tetris_core::{
    Board, Chain, ChainRule, Error, Evaluator, FrameTiming, Piece, Placements, Preset,
    SearchOptions, Searcher, WeightedEvaluator, Weights,
};

/// The searcher operations the arena dispatches statically (mirrors `tetris_core::Searcher`).
#[enum_dispatch]
pub trait SearchEngine {
    /// The searcher's name.
    fn engine_name(&self) -> &str;
    /// Fills `out` with every lock placement (see `tetris_core::Searcher::search`).
    fn engine_search(
        &mut self,
        board: &Board,
        piece: Piece,
        options: SearchOptions,
        out: &mut Placements,
    );
    /// The simulated frame timing, `None` when the searcher ignores gravity.
    fn engine_frame_timing(&self) -> Option<FrameTiming>;
    /// Sets the simulated frame timing (ignored by searchers that ignore gravity).
    fn engine_set_frame_timing(&mut self, timing: FrameTiming);
}

/// The evaluator operations the arena dispatches statically (mirrors `tetris_core::Evaluator`).
#[enum_dispatch]
pub trait EvaluationEngine {
    /// The evaluator's name.
    fn engine_name(&self) -> &str;
    /// Feature names in weight order.
    fn engine_feature_names(&self) -> &'static [&'static str];
    /// Names of the features that belong to placements.
    fn engine_placement_feature_names(&self) -> &'static [&'static str];
    /// Feature values of a chain.
    fn engine_features(&self, chain: Chain<'_>, out: &mut [f64]);
    /// The weights in use.
    fn engine_weights(&self) -> &Weights;
    /// The chain's cost (lower is better).
    fn engine_cost(&self, chain: Chain<'_>) -> f64;
    /// The chain-level rule.
    fn engine_chain_rule(&self, chain: Chain<'_>) -> ChainRule;
}

/// Declares the searcher enum and its registry from `Variant(path::Type)` lines.
macro_rules! searchers {
    ($($variant:ident($engine:ty)),+ $(,)?) => {
        $(
            impl SearchEngine for $engine {
                fn engine_name(&self) -> &str {
                    Searcher::name(self)
                }
                fn engine_search(
                    &mut self,
                    board: &Board,
                    piece: Piece,
                    options: SearchOptions,
                    out: &mut Placements,
                ) {
                    Searcher::search(self, board, piece, options, out)
                }
                fn engine_frame_timing(&self) -> Option<FrameTiming> {
                    Searcher::frame_timing(self)
                }
                fn engine_set_frame_timing(&mut self, timing: FrameTiming) {
                    Searcher::set_frame_timing(self, timing)
                }
            }
        )+

        /// Every registered searcher.
        // The BFS keeps its ~27 KB of scratch inline; a strategy holds one searcher for its
        // whole life and never moves it in a hot loop, so boxing would only add an indirection.
        #[allow(clippy::large_enum_variant)]
        #[enum_dispatch(SearchEngine)]
        #[derive(Clone)]
        pub enum AnySearcher {
            $(
                #[allow(missing_docs)]
                $variant($engine),
            )+
        }

        /// The registered searchers' names, in registration order.
        pub fn searcher_names() -> Vec<&'static str> {
            vec![$(<$engine>::NAME),+]
        }

        /// A new searcher by name.
        pub fn searcher_by_name(name: &str) -> Option<AnySearcher> {
            $(
                if name == <$engine>::NAME {
                    return Some(AnySearcher::$variant(<$engine>::new()));
                }
            )+
            None
        }
    };
}

/// Declares the evaluator enum and its registry from `Variant(path::Type)` lines.
macro_rules! evaluators {
    ($($variant:ident($engine:ty)),+ $(,)?) => {
        $(
            impl EvaluationEngine for $engine {
                fn engine_name(&self) -> &str {
                    Evaluator::name(self)
                }
                fn engine_feature_names(&self) -> &'static [&'static str] {
                    Evaluator::feature_names(self)
                }
                fn engine_placement_feature_names(&self) -> &'static [&'static str] {
                    Evaluator::placement_feature_names(self)
                }
                fn engine_features(&self, chain: Chain<'_>, out: &mut [f64]) {
                    Evaluator::features(self, chain, out)
                }
                fn engine_weights(&self) -> &Weights {
                    Evaluator::weights(self)
                }
                fn engine_cost(&self, chain: Chain<'_>) -> f64 {
                    Evaluator::cost(self, chain)
                }
                fn engine_chain_rule(&self, chain: Chain<'_>) -> ChainRule {
                    Evaluator::chain_rule(self, chain)
                }
            }
        )+

        /// Every registered evaluator.
        #[enum_dispatch(EvaluationEngine)]
        #[derive(Clone)]
        pub enum AnyEvaluator {
            $(
                #[allow(missing_docs)]
                $variant($engine),
            )+
        }

        /// The registered evaluators' names, in registration order.
        pub fn evaluator_names() -> Vec<&'static str> {
            vec![$(<$engine as WeightedEvaluator>::NAME),+]
        }

        /// The presets of the evaluator called `name` (the first is its default).
        pub fn evaluator_presets(name: &str) -> Option<&'static [Preset]> {
            $(
                if name == <$engine as WeightedEvaluator>::NAME {
                    return Some(<$engine as WeightedEvaluator>::PRESETS);
                }
            )+
            None
        }

        /// An evaluator by name with its default weights, a named preset, or a weights file.
        pub fn evaluator_by_name(
            name: &str,
            weights: &WeightsChoice,
        ) -> Option<Result<AnyEvaluator, Error>> {
            $(
                if name == <$engine as WeightedEvaluator>::NAME {
                    let built = match weights {
                        WeightsChoice::Default => Ok(<$engine as WeightedEvaluator>::with_default_weights()),
                        WeightsChoice::Preset(preset) => <$engine as WeightedEvaluator>::from_preset(preset),
                        WeightsChoice::File(path) => <$engine as WeightedEvaluator>::load_weights(Path::new(path)),
                    };
                    return Some(built.map(AnyEvaluator::$variant));
                }
            )+
            None
        }

        /// An evaluator by name with weights given as values in feature order (for tuning).
        pub fn evaluator_with_values(name: &str, values: &[f64]) -> Option<Result<AnyEvaluator, Error>> {
            $(
                if name == <$engine as WeightedEvaluator>::NAME {
                    let built = Weights::from_values(
                        name,
                        <$engine as WeightedEvaluator>::FEATURE_NAMES,
                        values,
                    )
                    .and_then(<$engine as WeightedEvaluator>::with_weights);
                    return Some(built.map(AnyEvaluator::$variant));
                }
            )+
            None
        }
    };
}

/// Which weights an evaluator is built with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WeightsChoice {
    /// The evaluator's default preset.
    Default,
    /// A named preset.
    Preset(String),
    /// A JSON weights file.
    File(String),
}

impl Searcher for AnySearcher {
    fn name(&self) -> &str {
        self.engine_name()
    }

    #[inline]
    fn search(
        &mut self,
        board: &Board,
        piece: Piece,
        options: SearchOptions,
        out: &mut Placements,
    ) {
        self.engine_search(board, piece, options, out)
    }

    fn frame_timing(&self) -> Option<FrameTiming> {
        self.engine_frame_timing()
    }

    fn set_frame_timing(&mut self, timing: FrameTiming) {
        self.engine_set_frame_timing(timing)
    }
}

impl Evaluator for AnyEvaluator {
    fn name(&self) -> &str {
        self.engine_name()
    }

    fn feature_names(&self) -> &'static [&'static str] {
        self.engine_feature_names()
    }

    fn placement_feature_names(&self) -> &'static [&'static str] {
        self.engine_placement_feature_names()
    }

    #[inline]
    fn features(&self, chain: Chain<'_>, out: &mut [f64]) {
        self.engine_features(chain, out)
    }

    fn weights(&self) -> &Weights {
        self.engine_weights()
    }

    #[inline]
    fn cost(&self, chain: Chain<'_>) -> f64 {
        self.engine_cost(chain)
    }

    #[inline]
    fn chain_rule(&self, chain: Chain<'_>) -> ChainRule {
        self.engine_chain_rule(chain)
    }
}

searchers! {
    Bfs(tetris_search_bfs::Bfs),
    ColumnDrop(tetris_search_column_drop::ColumnDrop),
    Gamepad(tetris_search_bfs::Gamepad),
}

evaluators! {
    ElAshi(tetris_eval_elashi::ElAshi),
    Dellacherie(tetris_eval_dellacherie::Dellacherie),
    NesPlateau(tetris_eval_nes_plateau::NesPlateau),
    GaAgent(tetris_eval_ga_agent::GaAgent),
}
