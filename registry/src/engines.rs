//! Static dispatch over the concrete searchers and evaluators, and their registry by name.
//!
//! The enums over the engines, [`AnySearcher`] and [`AnyEvaluator`], implement
//! `tetris_core::Searcher` / `tetris_core::Evaluator` with one `match` per call, written by
//! the `searchers!` / `evaluators!` macros below, so the generic lookahead chain runs on them
//! without a virtual call. (The crate used `enum_dispatch` before, which can only dispatch a
//! trait declared in the enum's own crate, and so needed a mirror of both core traits here
//! with a second forwarding impl: the macros write the one forwarding directly.)
//!
//! Registering an engine is one line in the `searchers!` or `evaluators!` invocation at the
//! bottom of this file: the macro adds the enum variant, its arm of every dispatching `match`, the name, preset
//! and weights-file lookups and the entry that [`searchers`] / [`evaluators`] iterate. A
//! searcher type implements `tetris_core::Searcher` and `tetris_core::NamedSearcher`; an
//! evaluator type implements `tetris_core::WeightedEvaluator`.

use std::path::Path;

use tetris_core::{
    Board, Chain, ChainRule, Error, Evaluator, FrameTiming, GameOverRule, LinkValue, NamedSearcher,
    Piece, PieceState, Placement, PlacementRecord, Placements, Preset, SearchOptions, Searcher,
    WeightedEvaluator, Weights,
};

use crate::weights::{TUNED, WeightsChoice};

/// A registered searcher, as listed by [`searchers`].
#[derive(Clone, Copy, Debug)]
pub struct SearcherEntry {
    /// Its name in strategy names.
    pub name: &'static str,
    /// One line saying what it does.
    pub description: &'static str,
    /// Whether it simulates gravity (NES frames), so that its placements are reachable at a
    /// level's speed.
    pub gravity_aware: bool,
    /// The game-over rule its games use unless told otherwise
    /// (`tetris_core::NamedSearcher::GAME_OVER_RULE`).
    pub game_over_rule: GameOverRule,
}

/// A registered evaluator, as listed by [`evaluators`].
#[derive(Clone, Copy, Debug)]
pub struct EvaluatorEntry {
    /// Its name in strategy names and weights files.
    pub name: &'static str,
    /// Its feature names, in weight order.
    pub feature_names: &'static [&'static str],
    /// The presets it ships; the first is its default.
    pub presets: &'static [Preset],
}

/// Declares the searcher enum and its registry from `Variant(path::Type)` lines.
macro_rules! searchers {
    ($($variant:ident($engine:ty)),+ $(,)?) => {
        /// Every registered searcher.
        // The BFS keeps its ~27 KB of scratch inline; a strategy holds one searcher for its
        // whole life and never moves it in a hot loop, so boxing would only add an indirection.
        #[allow(clippy::large_enum_variant)]
        #[derive(Clone)]
        pub enum AnySearcher {
            $(
                #[allow(missing_docs)]
                $variant($engine),
            )+
        }

        // One `match` per call; `#[inline]` on the calls the lookahead chain makes per
        // search, as the chain is generic over the searcher.
        impl Searcher for AnySearcher {
            fn name(&self) -> &str {
                match self {
                    $(AnySearcher::$variant(engine) => Searcher::name(engine),)+
                }
            }

            #[inline]
            fn search(
                &mut self,
                board: &Board,
                piece: Piece,
                options: SearchOptions,
                out: &mut Placements,
            ) {
                match self {
                    $(AnySearcher::$variant(engine) => {
                        Searcher::search(engine, board, piece, options, out)
                    })+
                }
            }

            #[inline]
            fn search_unordered(
                &mut self,
                board: &Board,
                piece: Piece,
                options: SearchOptions,
                out: &mut Placements,
            ) {
                match self {
                    $(AnySearcher::$variant(engine) => {
                        Searcher::search_unordered(engine, board, piece, options, out)
                    })+
                }
            }

            fn unordered_search_keeps_order(&self) -> bool {
                match self {
                    $(AnySearcher::$variant(engine) => {
                        Searcher::unordered_search_keeps_order(engine)
                    })+
                }
            }

            fn frame_timing(&self) -> Option<FrameTiming> {
                match self {
                    $(AnySearcher::$variant(engine) => Searcher::frame_timing(engine),)+
                }
            }

            fn path_start(&self) -> PieceState {
                match self {
                    $(AnySearcher::$variant(engine) => Searcher::path_start(engine),)+
                }
            }
        }

        /// Every registered searcher, in registration order.
        pub fn searchers() -> Vec<SearcherEntry> {
            vec![$(SearcherEntry {
                name: <$engine as NamedSearcher>::NAME,
                description: <$engine as NamedSearcher>::DESCRIPTION,
                gravity_aware: Searcher::frame_timing(
                    &<$engine as NamedSearcher>::with_default_settings(),
                )
                .is_some(),
                game_over_rule: <$engine as NamedSearcher>::GAME_OVER_RULE,
            }),+]
        }

        /// A new searcher by name, with its default settings.
        pub fn searcher_by_name(name: &str) -> Option<AnySearcher> {
            $(
                if name == <$engine as NamedSearcher>::NAME {
                    return Some(AnySearcher::$variant(
                        <$engine as NamedSearcher>::with_default_settings(),
                    ));
                }
            )+
            None
        }
    };
}

/// Declares the evaluator enum and its registry from `Variant(path::Type)` lines.
macro_rules! evaluators {
    ($($variant:ident($engine:ty)),+ $(,)?) => {
        /// Every registered evaluator.
        #[derive(Clone)]
        pub enum AnyEvaluator {
            $(
                #[allow(missing_docs)]
                $variant($engine),
            )+
        }

        // One `match` per call; `#[inline]` on the calls the lookahead chain makes per leaf.
        impl Evaluator for AnyEvaluator {
            fn name(&self) -> &str {
                match self {
                    $(AnyEvaluator::$variant(engine) => Evaluator::name(engine),)+
                }
            }

            fn feature_names(&self) -> &'static [&'static str] {
                match self {
                    $(AnyEvaluator::$variant(engine) => Evaluator::feature_names(engine),)+
                }
            }

            fn placement_feature_names(&self) -> &'static [&'static str] {
                match self {
                    $(AnyEvaluator::$variant(engine) => {
                        Evaluator::placement_feature_names(engine)
                    })+
                }
            }

            #[inline]
            fn features(&self, chain: Chain<'_>, out: &mut [f64]) {
                match self {
                    $(AnyEvaluator::$variant(engine) => Evaluator::features(engine, chain, out),)+
                }
            }

            fn weights(&self) -> &Weights {
                match self {
                    $(AnyEvaluator::$variant(engine) => Evaluator::weights(engine),)+
                }
            }

            #[inline]
            fn cost(&self, chain: Chain<'_>) -> f64 {
                match self {
                    $(AnyEvaluator::$variant(engine) => Evaluator::cost(engine, chain),)+
                }
            }

            #[inline]
            fn chain_rule(&self, chain: Chain<'_>) -> ChainRule {
                match self {
                    $(AnyEvaluator::$variant(engine) => Evaluator::chain_rule(engine, chain),)+
                }
            }

            #[inline]
            fn last_link_values(
                &self,
                board: &Board,
                records: &mut Vec<PlacementRecord>,
                placements: &[Placement],
                out: &mut Vec<LinkValue>,
            ) {
                match self {
                    $(AnyEvaluator::$variant(engine) => {
                        Evaluator::last_link_values(engine, board, records, placements, out)
                    })+
                }
            }

            fn gives_stand_ins(&self) -> bool {
                match self {
                    $(AnyEvaluator::$variant(engine) => Evaluator::gives_stand_ins(engine),)+
                }
            }

            fn may_prefer_after_every_piece(&self, chain: Chain<'_>) -> bool {
                match self {
                    $(AnyEvaluator::$variant(engine) => {
                        Evaluator::may_prefer_after_every_piece(engine, chain)
                    })+
                }
            }

            fn values_several_searches_at_once(&self) -> bool {
                match self {
                    $(AnyEvaluator::$variant(engine) => {
                        Evaluator::values_several_searches_at_once(engine)
                    })+
                }
            }

            #[inline]
            fn last_link_values_of_searches(
                &self,
                board: &Board,
                records: &mut Vec<PlacementRecord>,
                placements: &[Placement],
                ends: &[usize],
                out: &mut Vec<LinkValue>,
            ) {
                match self {
                    $(AnyEvaluator::$variant(engine) => Evaluator::last_link_values_of_searches(
                        engine, board, records, placements, ends, out,
                    ),)+
                }
            }

            #[inline]
            fn last_link_values_to_beat(
                &self,
                board: &Board,
                records: &mut Vec<PlacementRecord>,
                placements: &[Placement],
                to_beat: f64,
                out: &mut Vec<LinkValue>,
            ) {
                match self {
                    $(AnyEvaluator::$variant(engine) => Evaluator::last_link_values_to_beat(
                        engine, board, records, placements, to_beat, out,
                    ),)+
                }
            }
        }

        /// Every registered evaluator, in registration order.
        pub fn evaluators() -> Vec<EvaluatorEntry> {
            vec![$(EvaluatorEntry {
                name: <$engine as WeightedEvaluator>::NAME,
                feature_names: <$engine as WeightedEvaluator>::FEATURE_NAMES,
                presets: <$engine as WeightedEvaluator>::PRESETS,
            }),+]
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
                        // Tuned values are not in the name: looked up, they are a preset
                        // nobody ships (Strategy::new refuses them first).
                        WeightsChoice::Tuned => <$engine as WeightedEvaluator>::from_preset(TUNED),
                    };
                    return Some(built.map(AnyEvaluator::$variant));
                }
            )+
            None
        }

        /// An evaluator by name with weights from the text of a JSON weights file
        /// (`{"evaluator": NAME, "weights": {feature: number, ...}}`), checked as a weights
        /// file is (`WeightedEvaluator::from_weights_json`: the file must name this evaluator
        /// and give one finite number for each of its features). `None` when no evaluator has
        /// that name.
        pub fn evaluator_from_weights_json(
            name: &str,
            text: &str,
        ) -> Option<Result<AnyEvaluator, Error>> {
            $(
                if name == <$engine as WeightedEvaluator>::NAME {
                    let built = <$engine as WeightedEvaluator>::from_weights_json(text);
                    return Some(built.map(AnyEvaluator::$variant));
                }
            )+
            None
        }

        /// An evaluator by name with already checked [`Weights`], which must be made for this
        /// evaluator and exactly its feature list in order (`WeightedEvaluator::with_weights`).
        /// `None` when no evaluator has that name.
        pub fn evaluator_with_weights(
            name: &str,
            weights: Weights,
        ) -> Option<Result<AnyEvaluator, Error>> {
            $(
                if name == <$engine as WeightedEvaluator>::NAME {
                    let built = <$engine as WeightedEvaluator>::with_weights(weights);
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

/// The registered searchers' names, in registration order.
pub fn searcher_names() -> Vec<&'static str> {
    searchers().into_iter().map(|entry| entry.name).collect()
}

/// The registered evaluators' names, in registration order.
pub fn evaluator_names() -> Vec<&'static str> {
    evaluators().into_iter().map(|entry| entry.name).collect()
}

/// The presets of the evaluator called `name` (the first is its default).
pub fn evaluator_presets(name: &str) -> Option<&'static [Preset]> {
    evaluators()
        .into_iter()
        .find(|entry| entry.name == name)
        .map(|entry| entry.presets)
}

searchers! {
    Bfs(tetris_search_bfs::Bfs),
    ColumnDrop(tetris_search_column_drop::ColumnDrop),
    Gamepad(tetris_search_bfs::Gamepad),
    DropFromAbove(tetris_search_drop::DropFromAbove),
}

evaluators! {
    ElAshi(tetris_eval_elashi::ElAshi),
    Dellacherie(tetris_eval_dellacherie::Dellacherie),
    NesPlateau(tetris_eval_nes_plateau::NesPlateau),
    GaAgent(tetris_eval_ga_agent::GaAgent),
    Bcts(tetris_eval_bcts::Bcts),
}

#[cfg(test)]
mod tests {
    use super::*;

    /// El-Ashi's features in weight order, as its crate defines them.
    const ELASHI_FEATURES: [&str; 6] = [
        "rows_cleared",
        "lock_height",
        "wells",
        "holes",
        "column_transitions",
        "row_transitions",
    ];

    #[test]
    fn an_evaluator_builds_from_weights_json_text() {
        assert_eq!(
            evaluators()
                .into_iter()
                .find(|entry| entry.name == "elashi")
                .unwrap()
                .feature_names,
            ELASHI_FEATURES
        );
        // The weights are given out of feature order; they load in feature order, exactly.
        let text = r#"{"evaluator": "elashi", "weights": {"row_transitions": 6, "wells": 3,
            "holes": 4.5, "rows_cleared": 1, "column_transitions": 5, "lock_height": 2}}"#;
        let evaluator = evaluator_from_weights_json("elashi", text)
            .expect("elashi is registered")
            .unwrap();
        assert_eq!(Evaluator::name(&evaluator), "elashi");
        assert_eq!(evaluator.weights().values(), [1.0, 2.0, 3.0, 4.5, 5.0, 6.0]);
        // The same checks as a weights file: another evaluator's file is refused by name.
        assert!(matches!(
            evaluator_from_weights_json("dellacherie", text),
            Some(Err(Error::WeightsEvaluator { expected, found }))
                if expected == "dellacherie" && found == "elashi"
        ));
        assert!(matches!(
            evaluator_from_weights_json("elashi", "not json"),
            Some(Err(Error::WeightsFormat { .. }))
        ));
        assert!(evaluator_from_weights_json("no-such-evaluator", text).is_none());
    }

    #[test]
    fn an_evaluator_builds_from_checked_weights_made_for_it() {
        let values = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
        let weights = Weights::from_values("elashi", &ELASHI_FEATURES, &values).unwrap();
        let evaluator = evaluator_with_weights("elashi", weights.clone())
            .expect("elashi is registered")
            .unwrap();
        assert_eq!(evaluator.weights(), &weights);
        assert!(matches!(
            evaluator_with_weights("ga-agent", weights.clone()),
            Some(Err(Error::WeightsEvaluator { expected, found }))
                if expected == "ga-agent" && found == "elashi"
        ));
        let fewer = Weights::from_values("elashi", &["holes"], &[1.0]).unwrap();
        assert!(matches!(
            evaluator_with_weights("elashi", fewer),
            Some(Err(Error::WeightsFormat { .. }))
        ));
        assert!(evaluator_with_weights("no-such-evaluator", weights).is_none());
    }
}
