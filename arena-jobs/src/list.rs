//! The arena's vocabulary as data: every searcher, evaluator (with presets), generator,
//! strategy option and game-over rule (`arena list --json`, the server's `/v1/strategies`).

use serde::Serialize;
use tetris_core::{GameOverRule, GeneratorKind};
use tetris_registry::{STRATEGY_OPTIONS, evaluators, searcher_names, searchers};

use tetris_arena_io::output::MadeBy;

/// One evaluator in `arena list --json`.
#[derive(Serialize)]
#[cfg_attr(feature = "api", derive(utoipa::ToSchema))]
pub struct EvaluatorJson {
    name: &'static str,
    presets: Vec<&'static str>,
    default_preset: Option<&'static str>,
}

/// A name and what it means, in `arena list --json`.
#[derive(Serialize)]
#[cfg_attr(feature = "api", derive(utoipa::ToSchema))]
pub struct NamedJson {
    name: &'static str,
    description: &'static str,
}

/// One searcher's defaults in `arena list --json`.
#[derive(Serialize)]
#[cfg_attr(feature = "api", derive(utoipa::ToSchema))]
pub struct SearcherJson {
    name: &'static str,
    description: &'static str,
    gravity_aware: bool,
    #[cfg_attr(feature = "api", schema(value_type = String))]
    game_over_rule: GameOverRule,
}

/// `arena list --json`.
#[derive(Serialize)]
#[cfg_attr(feature = "api", derive(utoipa::ToSchema))]
pub struct ListJson {
    searchers: Vec<&'static str>,
    evaluators: Vec<EvaluatorJson>,
    generators: Vec<&'static str>,
    searcher_details: Vec<SearcherJson>,
    strategy_options: Vec<NamedJson>,
    /// Engines from outside the arena (`SEARCHER+exec:…`); empty where they cannot run (the
    /// server starts no programs).
    outside_engines: Vec<NamedJson>,
    game_over_rules: Vec<NamedJson>,
    made_by: MadeBy,
}

impl ListJson {
    /// [`ListJson::current`] as the move server offers it: without the generators a served
    /// request may not name (`file:PATH`: the server reads no files, [`crate::serve`]).
    pub fn served() -> ListJson {
        let mut list = ListJson::current();
        list.generators.retain(|name| {
            tetris_arena_io::values::generator(name)
                .is_ok_and(|generator| crate::serve::check_served_generator(&generator).is_ok())
        });
        list.outside_engines.clear();
        list
    }

    /// The registry's names now, made by the running command.
    pub fn current() -> ListJson {
        ListJson {
            searchers: searcher_names(),
            evaluators: evaluators()
                .into_iter()
                .map(|entry| EvaluatorJson {
                    name: entry.name,
                    presets: entry.presets.iter().map(|preset| preset.name).collect(),
                    default_preset: entry.presets.first().map(|preset| preset.name),
                })
                .collect(),
            generators: GeneratorKind::NAMES.to_vec(),
            searcher_details: searchers()
                .into_iter()
                .map(|entry| SearcherJson {
                    name: entry.name,
                    description: entry.description,
                    gravity_aware: entry.gravity_aware,
                    game_over_rule: entry.game_over_rule,
                })
                .collect(),
            strategy_options: STRATEGY_OPTIONS
                .iter()
                .map(|&(name, description)| NamedJson { name, description })
                .collect(),
            outside_engines: tetris_registry::OUTSIDE_ENGINES
                .iter()
                .map(|&(name, description)| NamedJson { name, description })
                .collect(),
            game_over_rules: GameOverRule::ALL
                .iter()
                .map(|rule| NamedJson {
                    name: rule.name(),
                    description: rule.description(),
                })
                .collect(),
            made_by: MadeBy::current(),
        }
    }
}
