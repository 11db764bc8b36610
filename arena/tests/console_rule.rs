//! The game-over rule of `arena nes` (issue 16, docs/spec/rules.md): the console rule by default with the
//! gravity-aware gamepad searcher, the simulation rule for searchers that ignore gravity (which
//! cannot play the console rule), recorded in every report and part; and the frame-less
//! commands refuse the console rule.

use serde_json::Value;

use crate::common;

use common::{fail, run_json, scratch_folder, succeed};

/// A short NES run: level 19 to 20 (140 lines at most), so a game takes well under a second.
fn short_nes<'a>(strategy: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![strategy, "--games", "2", "--seed", "3", "--to-level", "20"];
    args.extend_from_slice(extra);
    args
}

fn rule_of(report: &Value) -> &str {
    report["settings"]["game_over_rule"].as_str().unwrap()
}

#[test]
fn the_gamepad_plays_the_console_rule_by_default_and_the_report_says_so() {
    let report = run_json("nes", &short_nes("gamepad+nes-plateau", &[]));
    assert_eq!(rule_of(&report), "console");
    let end_rule = report["settings"]["end_rule"].as_str().unwrap();
    assert!(
        end_rule.starts_with("console rule: two hidden rows"),
        "{end_rule}"
    );
    let simulation = run_json(
        "nes",
        &short_nes("gamepad+nes-plateau", &["--game-over", "simulation"]),
    );
    assert_eq!(rule_of(&simulation), "simulation");
    let text = succeed("nes", &short_nes("gamepad+nes-plateau", &[]));
    assert!(text.contains("\nGame over: console rule: "), "{text}");
}

#[test]
fn a_searcher_that_ignores_gravity_plays_the_simulation_rule_and_cannot_play_the_console_one() {
    let report = run_json("nes", &short_nes("column-drop+nes-plateau", &[]));
    assert_eq!(rule_of(&report), "simulation");
    let message = fail(
        "nes",
        &short_nes("column-drop+nes-plateau", &["--game-over", "console"]),
    );
    assert!(message.contains("ignores gravity"), "{message}");
    let message = fail(
        "nes",
        &short_nes("gamepad+nes-plateau", &["--game-over", "literature"]),
    );
    assert!(message.contains("one-piece game"), "{message}");
    let message = fail(
        "nes",
        &short_nes("gamepad+nes-plateau", &["--game-over", "arcade"]),
    );
    assert!(message.contains("unknown game-over rule"), "{message}");
}

#[test]
fn games_without_frames_refuse_the_console_rule() {
    for (command, args) in [
        ("play", vec!["bfs+elashi", "--max-pieces", "10"]),
        (
            "tournament",
            vec![
                "bfs+elashi",
                "column-drop+dellacherie",
                "--games",
                "1",
                "--seed",
                "1",
            ],
        ),
        ("stats", vec!["bfs+elashi", "--pieces", "10", "--seed", "1"]),
    ] {
        let mut args = args;
        args.extend(["--game-over", "console"]);
        let message = fail(command, &args);
        assert!(
            message.contains("needs the NES frame model"),
            "{command}: {message}"
        );
    }
}

#[test]
fn merge_refuses_parts_played_under_different_rules() {
    let folder = scratch_folder("nes", "console-merge");
    let part = |index: usize, rule: &str| {
        let path = folder.join(format!("part{index}.json"));
        let shard = format!("{index}/2");
        let path_text = path.to_str().unwrap().to_string();
        succeed(
            "nes",
            &short_nes(
                "gamepad+nes-plateau",
                &["--game-over", rule, "--shard", &shard, "--out", &path_text],
            ),
        );
        path_text
    };
    let console = part(0, "console");
    let simulation = part(1, "simulation");
    let message = fail("merge", &[&console, &simulation]);
    assert!(message.contains("game_over_rule"), "{message}");
}
