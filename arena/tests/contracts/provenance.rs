//! Every output says what made it (issue 32): the JSON reports and part files of every command
//! carry a top-level `made_by` object (the program, its version and the exact command line),
//! the HTML pages a line at their foot; the weights file, whose reader refuses unknown keys,
//! does not.

use std::fs;
use std::path::Path;
use std::process::Command;

use serde_json::{Value, json};

use super::text;
use crate::common::{scratch_folder, succeed};

/// The `made_by` object of a command run as `arena ARGS…` (as the test runs it: no shell).
fn made_by(args: &[&str]) -> Value {
    json!({
        "program": "tetris-arena",
        "version": env!("CARGO_PKG_VERSION"),
        "command": format!("arena {}", args.join(" ")),
    })
}

/// Runs `arena ARGS…`, which must succeed; its stdout.
fn arena(args: &[&str]) -> String {
    succeed(args[0], &args[1..])
}

/// `text` parsed as JSON.
fn parsed(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|error| panic!("{error}: {text}"))
}

/// The JSON file at `path`.
fn read_json(path: &Path) -> Value {
    parsed(&fs::read_to_string(path).unwrap())
}

/// A board file of `rows` empty rows but a last row with one hole.
fn board_file(folder: &Path, rows: usize) -> std::path::PathBuf {
    let path = folder.join("board.txt");
    let mut board = "..........\n".repeat(rows - 1);
    board.push_str("#########.\n");
    fs::write(&path, board).unwrap();
    path
}

#[test]
fn every_json_report_names_the_exact_command_and_the_version() {
    let folder = scratch_folder("hardening", "made-by");
    let board = board_file(&folder, 20);
    let out = folder.join("games.json");
    let stats_out = folder.join("stats");
    let replay = folder.join("replay.json");
    let tournament = [
        "tournament",
        "column-drop+elashi",
        "column-drop+dellacherie",
        "--games",
        "3",
        "--seed",
        "2",
        "--board-height",
        "6",
        "--max-pieces",
        "40",
        "--out",
        text(&out),
        "--json",
    ];
    // What each command prints, and the file it wrote when it wrote one.
    let printed: Vec<(Vec<&str>, Option<std::path::PathBuf>)> = vec![
        (
            vec![
                "play",
                "column-drop+elashi",
                "--max-pieces",
                "20",
                "--no-placements",
                "--record",
                text(&replay),
                "--json",
            ],
            // The replay file records the command that played it.
            Some(replay.clone()),
        ),
        (vec!["replay", text(&replay), "--json"], None),
        (tournament.to_vec(), Some(out.clone())),
        (
            vec![
                "nes",
                "column-drop+nes-plateau",
                "--games",
                "1",
                "--seed",
                "1",
                "--to-level",
                "20",
                "--json",
            ],
            None,
        ),
        (
            vec![
                "stats",
                "column-drop+elashi",
                "--pieces",
                "50",
                "--board-height",
                "8",
                "--out",
                text(&stats_out),
                "--json",
            ],
            Some(stats_out.join("stats.json")),
        ),
        (
            vec![
                "analyze",
                "column-drop+elashi",
                "--board",
                text(&board),
                "--pieces",
                "T",
                "--json",
            ],
            None,
        ),
        (
            vec![
                "features",
                "--board",
                text(&board),
                "--eval",
                "elashi",
                "--json",
            ],
            None,
        ),
        (vec!["list", "--json"], None),
    ];
    for (args, file) in printed {
        let stdout = arena(&args);
        let report = parsed(&stdout);
        assert_eq!(report["made_by"], made_by(&args), "{args:?}");
        if let Some(file) = file {
            assert_eq!(read_json(&file)["made_by"], made_by(&args), "{file:?}");
        }
    }
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn parts_name_their_shard_s_command_and_a_merge_its_own() {
    let folder = scratch_folder("hardening", "made-by-parts");
    let parts: Vec<String> = (0..2)
        .map(|index| text(&folder.join(format!("part {index}.json"))).to_string())
        .collect();
    let mut merge_args = vec!["merge"];
    for (index, part) in parts.iter().enumerate() {
        let shard = format!("{index}/2");
        let args = [
            "tournament",
            "column-drop+elashi",
            "--games",
            "4",
            "--seed",
            "1",
            "--board-height",
            "6",
            "--max-pieces",
            "30",
            "--shard",
            &shard,
            "--out",
            part,
        ];
        arena(&args);
        let recorded = read_json(Path::new(part));
        // The part's name holds a space: the command quotes it as a shell would need.
        let mut expected = made_by(&args);
        expected["command"] = expected["command"]
            .as_str()
            .unwrap()
            .replace(part.as_str(), &format!("'{part}'"))
            .into();
        assert_eq!(recorded["made_by"], expected);
        merge_args.push(part);
    }
    merge_args.push("--json");
    let merged = parsed(&arena(&merge_args));
    let mut expected = made_by(&merge_args);
    let mut command = expected["command"].as_str().unwrap().to_string();
    for part in &parts {
        command = command.replace(part.as_str(), &format!("'{part}'"));
    }
    expected["command"] = command.into();
    assert_eq!(merged["made_by"], expected);
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn a_checkpoint_names_the_run_that_wrote_it_and_the_weights_file_stays_strict() {
    let folder = scratch_folder("hardening", "made-by-tune");
    let (checkpoint, out) = (folder.join("checkpoint.json"), folder.join("weights.json"));
    let first = super::tune_args("cem", text(&checkpoint), text(&out));
    let mut args = vec!["tune"];
    args.extend(&first);
    args.extend(["--iterations", "1"]);
    arena(&args);
    assert_eq!(read_json(&checkpoint)["made_by"], made_by(&args));
    // A resumed run's checkpoint is the resumed run's.
    let mut resumed = vec!["tune"];
    resumed.extend(&first);
    resumed.extend(["--iterations", "2", "--resume"]);
    arena(&resumed);
    assert_eq!(read_json(&checkpoint)["made_by"], made_by(&resumed));
    // The weights file is read by a reader that refuses unknown keys: it stays as it was,
    // and loads.
    let weights = read_json(&out);
    let keys: Vec<&String> = weights.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["evaluator", "weights"]);
    let strategy = format!("column-drop+elashi:{}", text(&out));
    arena(&["play", &strategy, "--max-pieces", "5", "--json"]);
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn pages_say_what_made_them_at_their_foot() {
    let folder = scratch_folder("hardening", "made-by-pages");
    let (page, viewer) = (folder.join("report.html"), folder.join("game.html"));
    let tournament = [
        "tournament",
        "column-drop+elashi",
        "--games",
        "2",
        "--board-height",
        "6",
        "--max-pieces",
        "30",
        "--html",
        text(&page),
    ];
    let play = [
        "play",
        "column-drop+elashi",
        "--max-pieces",
        "10",
        "--html",
        text(&viewer),
    ];
    for (args, file) in [(&tournament[..], &page), (&play[..], &viewer)] {
        arena(args);
        let html = fs::read_to_string(file).unwrap();
        let line = format!(
            "<p class=\"made-by\">made by tetris-arena {}: arena {}</p>",
            env!("CARGO_PKG_VERSION"),
            args.join(" ")
        );
        assert!(html.contains(&line), "{line} not in {file:?}");
        assert!(html.contains("<footer>"));
    }
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn a_command_with_control_characters_is_recorded_escaped_and_in_one_line() {
    let folder = scratch_folder("hardening", "made-by-escapes");
    let out = folder.join("a\nb.json");
    let output = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args([
            "play",
            "column-drop+elashi",
            "--max-pieces",
            "5",
            "--record",
        ])
        .arg(&out)
        .arg("--json")
        .output()
        .unwrap();
    assert!(output.status.success());
    let report = parsed(&String::from_utf8(output.stdout).unwrap());
    let command = report["made_by"]["command"].as_str().unwrap();
    assert_eq!(
        command,
        format!(
            "arena play column-drop+elashi --max-pieces 5 --record $'{}/a\\nb.json' --json",
            text(&folder)
        )
    );
    fs::remove_dir_all(&folder).unwrap();
}
