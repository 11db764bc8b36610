//! `arena list`: every searcher (with its default game-over rule), evaluator (with presets),
//! generator, strategy option and game-over rule.

use std::fmt::Write as _;

use serde::Serialize;
use tetris_core::{GameOverRule, GeneratorKind};
use tetris_registry::{
    STRATEGY_OPTIONS, evaluator_names, evaluator_presets, evaluators, searcher_names, searchers,
};

use crate::error::ArenaError;
use crate::report::output::{MadeBy, pretty_json, print_output};

/// One evaluator in `arena list --json`.
#[derive(Serialize)]
struct EvaluatorJson {
    name: &'static str,
    presets: Vec<&'static str>,
    default_preset: Option<&'static str>,
}

/// A name and what it means, in `arena list --json`.
#[derive(Serialize)]
struct NamedJson {
    name: &'static str,
    description: &'static str,
}

/// One searcher's defaults in `arena list --json`.
#[derive(Serialize)]
struct SearcherJson {
    name: &'static str,
    description: &'static str,
    gravity_aware: bool,
    game_over_rule: GameOverRule,
}

/// `arena list --json`.
#[derive(Serialize)]
struct ListJson {
    searchers: Vec<&'static str>,
    evaluators: Vec<EvaluatorJson>,
    generators: &'static [&'static str],
    searcher_details: Vec<SearcherJson>,
    strategy_options: Vec<NamedJson>,
    game_over_rules: Vec<NamedJson>,
    made_by: MadeBy,
}

/// The strategy-name grammar, as listings show it.
const GRAMMAR: &str = "SEARCHER+EVALUATOR[:PRESET|:weights.json][,OPTION...][@DEPTH]";

/// Options of `arena list`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Runs `arena list`.
pub fn run(args: Args) -> Result<(), ArenaError> {
    if args.json {
        let list = ListJson {
            searchers: searcher_names(),
            evaluators: evaluators()
                .into_iter()
                .map(|entry| EvaluatorJson {
                    name: entry.name,
                    presets: entry.presets.iter().map(|preset| preset.name).collect(),
                    default_preset: entry.presets.first().map(|preset| preset.name),
                })
                .collect(),
            generators: &GeneratorKind::NAMES,
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
            game_over_rules: GameOverRule::ALL
                .iter()
                .map(|rule| NamedJson {
                    name: rule.name(),
                    description: rule.description(),
                })
                .collect(),
            made_by: MadeBy::current(),
        };
        return print_output(&pretty_json(&list));
    }
    let mut text = String::from("searchers (default game-over rule):\n");
    for entry in searchers() {
        writeln!(text, "  {:<14} {}", entry.name, entry.game_over_rule).expect("string write");
    }
    text.push_str("evaluators (presets, default first):\n");
    for name in evaluator_names() {
        let presets = evaluator_presets(name).unwrap_or(&[]);
        let names: Vec<&str> = presets.iter().map(|preset| preset.name).collect();
        writeln!(text, "  {name:<14} {}", names.join(" ")).expect("string write");
    }
    text.push_str("generators:\n");
    for name in GeneratorKind::NAMES {
        writeln!(text, "  {name}").expect("string write");
    }
    text.push_str("strategy options (after the evaluator, comma-separated):\n");
    for (name, description) in STRATEGY_OPTIONS {
        writeln!(text, "  {name:<14} {description}").expect("string write");
    }
    text.push_str("game-over rules (--game-over; default: the searcher's):\n");
    for rule in GameOverRule::ALL {
        writeln!(text, "  {:<14} {}", rule.name(), rule.description()).expect("string write");
    }
    writeln!(
        text,
        "strategy names: {GRAMMAR}, e.g. bfs+elashi@2 or drop+dellacherie:el-tetris,no-suicide"
    )
    .expect("string write");
    print_output(&text)
}
