//! `arena list`: every searcher, evaluator (with presets and features), and generator.

use std::fmt::Write as _;

use tetris_core::GeneratorKind;

use crate::engines::{evaluator_names, evaluator_presets, searcher_names};
use crate::error::ArenaError;
use crate::output::print_output;

/// Options of `arena list`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Runs `arena list`.
pub fn run(args: Args) -> Result<(), ArenaError> {
    let evaluators: Vec<serde_json::Value> = evaluator_names()
        .into_iter()
        .map(|name| {
            let presets = evaluator_presets(name).unwrap_or(&[]);
            serde_json::json!({
                "name": name,
                "presets": presets.iter().map(|preset| preset.name).collect::<Vec<_>>(),
                "default_preset": presets.first().map(|preset| preset.name),
            })
        })
        .collect();
    if args.json {
        let value = serde_json::json!({
            "searchers": searcher_names(),
            "evaluators": evaluators,
            "generators": GeneratorKind::NAMES,
        });
        let json = serde_json::to_string_pretty(&value).expect("list serializes");
        return print_output(&format!("{json}\n"));
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
