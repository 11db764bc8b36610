//! `arena list`: every searcher, evaluator (with presets and features), and generator.

use std::fmt::Write as _;

use serde::Serialize;
use tetris_core::GeneratorKind;
use tetris_registry::{evaluator_names, evaluator_presets, evaluators, searcher_names};

use crate::error::ArenaError;
use crate::report::output::{pretty_json, print_output};

/// One evaluator in `arena list --json`.
#[derive(Serialize)]
struct EvaluatorJson {
    name: &'static str,
    presets: Vec<&'static str>,
    default_preset: Option<&'static str>,
}

/// `arena list --json`.
#[derive(Serialize)]
struct ListJson {
    searchers: Vec<&'static str>,
    evaluators: Vec<EvaluatorJson>,
    generators: &'static [&'static str],
}

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
        };
        return print_output(&pretty_json(&list));
    }
    let mut text = String::from("searchers:\n");
    for name in searcher_names() {
        writeln!(text, "  {name}").expect("string write");
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
    text.push_str(
        "strategy names: SEARCHER+EVALUATOR[:PRESET|:weights.json][@DEPTH], e.g. bfs+elashi@2\n",
    );
    print_output(&text)
}
