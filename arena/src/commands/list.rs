//! `arena list`: every searcher (with its default game-over rule), evaluator (with presets),
//! generator, strategy option and game-over rule.

use std::fmt::Write as _;

use tetris_core::{GameOverRule, GeneratorKind};
use tetris_registry::{STRATEGY_OPTIONS, evaluator_names, evaluator_presets, searchers};

use tetris_arena_io::output::{pretty_json, print_output};
use tetris_arena_jobs::list::ListJson;
use tetris_arena_requests::error::ArenaError;

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
        let list = ListJson::current();
        return Ok(print_output(&pretty_json(&list))?);
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
    text.push_str("outside engines (after SEARCHER+):\n");
    for (name, description) in tetris_registry::OUTSIDE_ENGINES {
        writeln!(text, "  {name:<14} {description}").expect("string write");
    }
    text.push_str("game-over rules (--game-over; default: the searcher's):\n");
    for rule in GameOverRule::ALL {
        writeln!(text, "  {:<14} {}", rule.name(), rule.description()).expect("string write");
    }
    writeln!(
        text,
        "strategy names: {GRAMMAR}, e.g. bfs+elashi@2 or drop+dellacherie:el-tetris,no-suicide; \
         or an outside engine, e.g. \"column-drop+exec:python3 bot.py\""
    )
    .expect("string write");
    Ok(print_output(&text)?)
}
