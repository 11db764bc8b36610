//! Integration tests of the inspecting commands — `list`, `sequence`, `features`, `analyze` —
//! run through the built `arena` binary: their happy paths against independently known values
//! (the spec's anchors and hand-worked boards) and every bad input, which must give exactly one
//! `error:` line on stderr and exit code 2.
//!
//! Over 600 lines on purpose: four small commands, each with its happy paths and its bad inputs.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

use crate::common;

/// Runs the built binary with `args`.
fn arena(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .env("RUST_BACKTRACE", "0")
        .output()
        .expect("the arena binary runs")
}

/// A fresh folder for one test's files, removed when the test ends.
struct Folder(PathBuf);

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl std::ops::Deref for Folder {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

/// A fresh folder for one test's files.
fn folder(test: &str) -> Folder {
    let folder = std::env::temp_dir().join(format!("arena-inspect-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).unwrap();
    Folder(folder)
}

/// Writes `contents` to `name` in `folder` and returns the path as a string.
fn write(folder: &Path, name: &str, contents: &str) -> String {
    let path = folder.join(name);
    std::fs::write(&path, contents).unwrap();
    path.display().to_string()
}

/// A 10 × `height` board text: empty rows on top of `bottom` (given top first).
fn board_text(height: usize, bottom: &[&str]) -> String {
    let mut rows = vec![".........."; height - bottom.len()];
    rows.extend_from_slice(bottom);
    rows.join("\n") + "\n"
}

/// Standard output of a run that must succeed.
fn stdout_of(output: &Output) -> String {
    assert!(
        output.status.success(),
        "exit {:?}, stderr: {}",
        output.status.code(),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout.clone()).unwrap()
}

/// The JSON a successful run printed.
fn json_of(output: &Output) -> Value {
    serde_json::from_str(&stdout_of(output)).expect("stdout is JSON")
}

/// Asserts the contract's error form for bad input (`common::fail`: exit code 2, nothing on
/// stdout, exactly one stderr line starting with `error:`); `args` starts with the command.
/// Returns that line.
fn assert_error(args: &[&str]) -> String {
    common::fail(args[0], &args[1..])
}

/// The same for a file the system cannot read: exit code 3.
fn assert_io_error(args: &[&str]) -> String {
    common::fail_with(common::IO, args[0], &args[1..])
}

/// The feature object as (name, number) pairs.
fn features(value: &Value) -> Vec<(String, f64)> {
    value
        .as_object()
        .expect("features is an object")
        .iter()
        .map(|(name, number)| (name.clone(), number.as_f64().expect("a number")))
        .collect()
}

/// The feature `name` of a feature object.
fn feature(value: &Value, name: &str) -> f64 {
    value[name]
        .as_f64()
        .unwrap_or_else(|| panic!("no feature {name}"))
}

/// Replays a path of `L R D CW CCW` from the spawn state (5, 0, 0) of a piece with
/// `orientations` orientations, with no legality check: the final (x, y, rotation).
fn replay_path(path: &Value, orientations: i64) -> (i64, i64, i64) {
    let (mut x, mut y, mut rotation) = (5, 0, 0);
    for input in path.as_array().expect("path is a list") {
        match input.as_str().unwrap() {
            "L" => x -= 1,
            "R" => x += 1,
            "D" => y += 1,
            "CW" => rotation = (rotation + 1) % orientations,
            "CCW" => rotation = (rotation + orientations - 1) % orientations,
            other => panic!("unexpected input {other}"),
        }
    }
    (x, y, rotation)
}

// ----- list and sequence -------------------------------------------------------------------

#[test]
fn list_prints_every_searcher_evaluator_preset_and_generator() {
    let text = stdout_of(&arena(&["list"]));
    for name in [
        "bfs",
        "column-drop",
        "elashi",
        "dellacherie",
        "nes-plateau",
        "published",
        "el-tetris",
        "original",
        "no-ceiling-penalty",
        "uniform",
        "nes",
        "bag7",
        "sz",
        "java",
        "file:PATH",
    ] {
        assert!(text.contains(name), "list lacks {name}:\n{text}");
    }
    // The registry is the source of truth for presets: every one of them is listed.
    for evaluator in tetris_registry::evaluator_names() {
        for preset in tetris_registry::evaluator_presets(evaluator).unwrap() {
            assert!(
                text.contains(preset.name),
                "list lacks preset {}",
                preset.name
            );
        }
    }
    let json = json_of(&arena(&["list", "--json"]));
    let searchers: Vec<&str> = json["searchers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|name| name.as_str().unwrap())
        .collect();
    // Likewise the registry in registration order, the three shipped searchers first, so a
    // newly registered searcher needs no change here.
    assert_eq!(searchers, tetris_registry::searcher_names());
    assert_eq!(searchers[..3], ["bfs", "column-drop", "gamepad"]);
    let evaluators: Vec<&str> = json["evaluators"]
        .as_array()
        .unwrap()
        .iter()
        .map(|entry| entry["name"].as_str().unwrap())
        .collect();
    // The list is the registry in registration order, the three classics first; registering
    // an evaluator is one line in engines.rs and needs no change here.
    assert_eq!(evaluators, tetris_registry::evaluator_names());
    assert_eq!(evaluators[..3], ["elashi", "dellacherie", "nes-plateau"]);
    assert_eq!(
        json["generators"],
        serde_json::json!([
            "uniform",
            "nes",
            "bag7",
            "sz",
            "java",
            "mdptetris",
            "file:PATH"
        ])
    );
}

#[test]
fn sequence_replays_java_random_and_piece_files() {
    // docs/spec/arena.md / the task's anchor: new java.util.Random(1).nextInt(7) in T J Z O S L I order.
    let output = arena(&[
        "sequence",
        "--generator",
        "java",
        "--seed",
        "1",
        "--count",
        "10",
    ]);
    assert_eq!(stdout_of(&output), "SSJTIITJOI\n");
    // A file generator gives its own letters back.
    let folder = folder("sequence");
    let file = write(&folder, "pieces.txt", "TJZ\nOSLI\n");
    let generator = format!("file:{file}");
    let output = arena(&["sequence", "--generator", &generator, "--count", "5"]);
    assert_eq!(stdout_of(&output), "TJZOS\n");
    // The same seed gives the same pieces; the count is respected.
    let first = stdout_of(&arena(&[
        "sequence",
        "--generator",
        "nes",
        "--seed",
        "7",
        "--count",
        "50",
    ]));
    let second = stdout_of(&arena(&[
        "sequence",
        "--generator",
        "nes",
        "--seed",
        "7",
        "--count",
        "50",
    ]));
    assert_eq!(first, second);
    assert_eq!(first.trim_end().len(), 50);
}

#[test]
fn sequence_rejects_bad_counts_and_generators() {
    assert_error(&["sequence", "--generator", "java", "--count", "0"]);
    assert_error(&["sequence", "--generator", "java", "--count", "-1"]);
    assert_error(&["sequence", "--generator", "java", "--count", "ten"]);
    assert_error(&["sequence", "--generator", "java"]);
    assert_error(&[
        "sequence",
        "--generator",
        "java",
        "--seed",
        "-3",
        "--count",
        "2",
    ]);
    let line = assert_error(&["sequence", "--generator", "nope", "--count", "3"]);
    assert!(line.contains("nope") && line.contains("bag7"), "{line}");
    let folder = folder("sequence-errors");
    let missing = folder.join("missing.txt").display().to_string();
    assert_io_error(&[
        "sequence",
        "--generator",
        &format!("file:{missing}"),
        "--count",
        "3",
    ]);
    let bad = write(&folder, "bad.txt", "TJX\n");
    assert_error(&[
        "sequence",
        "--generator",
        &format!("file:{bad}"),
        "--count",
        "3",
    ]);
}

// ----- features ----------------------------------------------------------------------------

#[test]
fn features_of_the_empty_board_match_the_spec_anchors() {
    let folder = folder("features-empty");
    let empty = write(&folder, "empty.txt", &board_text(20, &[]));
    // docs/spec/evaluators.md §1: an empty board has all four El-Ashi board features = 0; the
    // placement features (rows_cleared, lock_height) are left out.
    let json = json_of(&arena(&[
        "features", "--board", &empty, "--eval", "elashi", "--json",
    ]));
    assert_eq!(json["evaluator"], "elashi");
    let mut found = features(&json["features"]);
    found.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        found,
        [
            ("column_transitions".to_string(), 0.0),
            ("holes".to_string(), 0.0),
            ("row_transitions".to_string(), 0.0),
            ("wells".to_string(), 0.0),
        ]
    );
    // docs/spec/evaluators.md §2: every row counts 2 row transitions when empty (20 × 2 = 40) and every
    // empty column 1 column transition (10); no holes, no wells. landing_height, rows_removed
    // and eroded_piece_cells belong to the placement and are left out.
    let json = json_of(&arena(&[
        "features",
        "--board",
        &empty,
        "--eval",
        "dellacherie",
        "--json",
    ]));
    assert_eq!(json["evaluator"], "dellacherie");
    let values = &json["features"];
    assert_eq!(values.as_object().unwrap().len(), 4);
    assert_eq!(feature(values, "row_transitions"), 40.0);
    assert_eq!(feature(values, "column_transitions"), 10.0);
    assert_eq!(feature(values, "holes"), 0.0);
    assert_eq!(feature(values, "well_sums"), 0.0);
    // On a 10 × 12 field: 12 × 2 row transitions.
    let small = write(&folder, "small.txt", &board_text(12, &[]));
    let json = json_of(&arena(&[
        "features",
        "--board",
        &small,
        "--eval",
        "dellacherie",
        "--board-height",
        "12",
        "--json",
    ]));
    assert_eq!(feature(&json["features"], "row_transitions"), 24.0);
    // nes-plateau: its 16 board features (18 less rows_cleared and lock_height).
    let json = json_of(&arena(&[
        "features",
        "--board",
        &empty,
        "--eval",
        "nes-plateau",
        "--json",
    ]));
    let names: Vec<String> = features(&json["features"])
        .into_iter()
        .map(|(name, _)| name)
        .collect();
    assert_eq!(names.len(), 16);
    assert!(!names.contains(&"rows_cleared".to_string()));
    assert!(!names.contains(&"lock_height".to_string()));
}

#[test]
fn features_of_hand_made_boards() {
    let folder = folder("features-boards");
    // docs/spec/evaluators.md §1 anchor: bottom row `#########.` → wells = 9 (columns 0..=7 each have
    // both neighbours occupied at their top row; column 8's right neighbour is empty; the
    // empty column 9, bounded by column 8 and the wall, adds 1 at row 19). Row 19 has two
    // row transitions (into the gap, out to the wall); columns start occupied at their top and
    // stay so: 0 column transitions; no holes.
    let one_row = write(&folder, "one-row.txt", &board_text(20, &["#########."]));
    let json = json_of(&arena(&[
        "features", "--board", &one_row, "--eval", "elashi", "--json",
    ]));
    let values = &json["features"];
    assert_eq!(feature(values, "wells"), 9.0);
    assert_eq!(feature(values, "row_transitions"), 2.0);
    assert_eq!(feature(values, "column_transitions"), 0.0);
    assert_eq!(feature(values, "holes"), 0.0);
    // Four such rows: a 4-deep well in column 9 counts 4 (spec anchor), columns 0..=7 one
    // each at row 16 (8), column 8 none: 12; row transitions 4 × 2 = 8.
    let well = ["#########."; 4];
    let well = write(&folder, "well.txt", &board_text(20, &well));
    let json = json_of(&arena(&[
        "features", "--board", &well, "--eval", "elashi", "--json",
    ]));
    assert_eq!(feature(&json["features"], "wells"), 12.0);
    assert_eq!(feature(&json["features"], "row_transitions"), 8.0);
    // One hole: column 0 covered at row 18 with an empty cell at row 19 below it.
    let hole = write(
        &folder,
        "hole.txt",
        &board_text(20, &["#.........", ".########."]),
    );
    let json = json_of(&arena(&[
        "features", "--board", &hole, "--eval", "elashi", "--json",
    ]));
    assert_eq!(feature(&json["features"], "holes"), 1.0);
    // The same board as a JSON array of rows gives the same features.
    let mut rows = vec![".........."; 18];
    rows.extend(["#.........", ".########."]);
    let as_json = write(&folder, "hole.json", &serde_json::to_string(&rows).unwrap());
    let again = json_of(&arena(&[
        "features", "--board", &as_json, "--eval", "elashi", "--json",
    ]));
    // The same features; the command that made each (its board file) differs.
    assert_ne!(again["made_by"], json["made_by"]);
    assert_eq!(again["features"], json["features"]);
    assert_eq!(again["evaluator"], json["evaluator"]);
    let keys: Vec<&String> = again.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["evaluator", "features", "made_by"]);
    // Weights do not change features; a preset is named back in "evaluator".
    let original = json_of(&arena(&[
        "features",
        "--board",
        &well,
        "--eval",
        "dellacherie:original",
        "--json",
    ]));
    let tuned = json_of(&arena(&[
        "features",
        "--board",
        &well,
        "--eval",
        "dellacherie:el-tetris",
        "--json",
    ]));
    assert_eq!(original["evaluator"], "dellacherie:original");
    assert_eq!(original["features"], tuned["features"]);
    // The text form is a table naming every feature.
    let text = stdout_of(&arena(&[
        "features",
        "--board",
        &well,
        "--eval",
        "dellacherie",
    ]));
    for name in [
        "row_transitions",
        "column_transitions",
        "holes",
        "well_sums",
    ] {
        assert!(text.contains(name), "{text}");
    }
    assert!(!text.contains("landing_height"), "{text}");
}

#[test]
fn features_accept_a_weights_file() {
    let folder = folder("features-weights");
    let empty = write(&folder, "empty.txt", &board_text(20, &[]));
    let weights = write(
        &folder,
        "weights.json",
        r#"{"evaluator": "elashi", "weights": {"rows_cleared": 1, "lock_height": 2,
            "wells": 3, "holes": 4, "column_transitions": 5, "row_transitions": 6}}"#,
    );
    let eval = format!("elashi:{weights}");
    let json = json_of(&arena(&[
        "features", "--board", &empty, "--eval", &eval, "--json",
    ]));
    assert_eq!(json["evaluator"], eval.as_str());
    assert_eq!(features(&json["features"]).len(), 4);
}

#[test]
fn features_reject_bad_input() {
    let folder = folder("features-errors");
    let empty = write(&folder, "empty.txt", &board_text(20, &[]));
    let run =
        |board: &str, eval: &str| assert_error(&["features", "--board", board, "--eval", eval]);
    // Unknown evaluator (the message lists the valid ones) and unknown preset.
    let line = run(&empty, "nope");
    assert!(
        line.contains("nope") && line.contains("dellacherie"),
        "{line}"
    );
    let line = run(&empty, "elashi:nope");
    assert!(
        line.contains("nope") && line.contains("published"),
        "{line}"
    );
    // Malformed boards: a bad character (named with its line and column), a short row, too
    // few rows, too many rows, an empty file, a bad JSON board.
    let mut rows = vec![".........."; 20];
    rows[2] = "...x......";
    let bad_character = write(&folder, "character.txt", &(rows.join("\n") + "\n"));
    let line = run(&bad_character, "elashi");
    assert!(
        line.contains("line 3") && line.contains("column 4"),
        "{line}"
    );
    rows[2] = ".........";
    let short_row = write(&folder, "short.txt", &(rows.join("\n") + "\n"));
    let line = run(&short_row, "elashi");
    assert!(line.contains("line 3"), "{line}");
    let nineteen = write(&folder, "nineteen.txt", &board_text(19, &[]));
    let line = run(&nineteen, "elashi");
    assert!(
        line.contains("19 rows") && line.contains("expected 20"),
        "{line}"
    );
    let forty = write(&folder, "forty.txt", &board_text(20, &[]).repeat(2));
    run(&forty, "elashi");
    let nothing = write(&folder, "nothing.txt", "");
    run(&nothing, "elashi");
    let bad_json = write(&folder, "bad.json", r#"["..........", 3]"#);
    run(&bad_json, "elashi");
    // A board whose size is not the --board-height asked for.
    assert_error(&[
        "features",
        "--board",
        &empty,
        "--eval",
        "elashi",
        "--board-height",
        "12",
    ]);
    assert_error(&[
        "features",
        "--board",
        &empty,
        "--eval",
        "elashi",
        "--board-height",
        "3",
    ]);
    assert_error(&[
        "features",
        "--board",
        &empty,
        "--eval",
        "elashi",
        "--board-height",
        "33",
    ]);
    assert_error(&[
        "features",
        "--board",
        &empty,
        "--eval",
        "elashi",
        "--board-height",
        "-20",
    ]);
    // An unreadable board file.
    let missing = folder.join("missing.txt").display().to_string();
    let line = assert_io_error(&["features", "--board", &missing, "--eval", "elashi"]);
    assert!(line.contains("missing.txt"), "{line}");
    // Bad weights files: an unknown feature name, a missing one, not JSON, no such file.
    let unknown = write(
        &folder,
        "unknown.json",
        r#"{"evaluator": "elashi", "weights": {"rows_cleared": 1, "lock_height": 2,
            "wells": 3, "holes": 4, "column_transitions": 5, "row_transitions": 6, "bumps": 7}}"#,
    );
    let line = run(&empty, &format!("elashi:{unknown}"));
    assert!(line.contains("bumps"), "{line}");
    let missing_name = write(
        &folder,
        "missing-name.json",
        r#"{"evaluator": "elashi", "weights": {"rows_cleared": 1, "lock_height": 2,
            "wells": 3, "holes": 4, "column_transitions": 5}}"#,
    );
    let line = run(&empty, &format!("elashi:{missing_name}"));
    assert!(line.contains("row_transitions"), "{line}");
    let not_json = write(&folder, "not.json", "weights");
    run(&empty, &format!("elashi:{not_json}"));
    // A weights file that is not there: I/O.
    assert_io_error(&[
        "features",
        "--board",
        &empty,
        "--eval",
        &format!("elashi:{}", folder.join("none.json").display()),
    ]);
    // Missing options.
    assert_error(&["features", "--eval", "elashi"]);
    assert_error(&["features", "--board", &empty]);
}

// ----- analyze -----------------------------------------------------------------------------

/// A 10 × 20 board whose four bottom rows are full but for column 9: a 4-deep well.
fn well_board(folder: &Path) -> String {
    write(folder, "well.txt", &board_text(20, &["#########."; 4]))
}

#[test]
fn analyze_puts_the_i_in_the_well_for_a_tetris() {
    let folder = folder("analyze-well");
    let well = well_board(&folder);
    let json = json_of(&arena(&[
        "analyze",
        "bfs+elashi",
        "--board",
        &well,
        "--pieces",
        "I",
        "--json",
    ]));
    assert_eq!(json["strategy"], "bfs+elashi");
    assert_eq!(json["pieces"], serde_json::json!(["I"]));
    let best = &json["best"];
    // The vertical I (rotation 1: cells 2 above the pivot to 1 below) resting on the floor of
    // column 9: pivot (9, 18), cells rows 16..=19. It completes rows 16..=19: the board left
    // is empty, so the four board features are 0; it rests on the floor, so lock_height is 0;
    // El-Ashi's cost is then rows_cleared × 1.0 = 4.
    assert_eq!(best["piece"], "I");
    assert_eq!(
        (best["x"].as_i64(), best["y"].as_i64()),
        (Some(9), Some(18))
    );
    assert_eq!(best["rotation"], 1);
    assert_eq!(
        best["cells"],
        serde_json::json!([[9, 16], [9, 17], [9, 18], [9, 19]])
    );
    assert_eq!(best["value"], 4.0);
    assert_eq!(best["chain_length"], 1);
    assert_eq!(best["rule"], "neutral");
    let values = &best["features"];
    assert_eq!(feature(values, "rows_cleared"), 4.0);
    assert_eq!(feature(values, "lock_height"), 0.0);
    for name in ["wells", "holes", "column_transitions", "row_transitions"] {
        assert_eq!(feature(values, name), 0.0, "{name}");
    }
    // The path really leads from the spawn to the placement.
    assert_eq!(replay_path(&best["path"], 2), (9, 18, 1));
    // Without --all the placements are the best chain: here just the I.
    assert_eq!(json["placements"], serde_json::json!([best]));
    // The text form names the placement and the path.
    let text = stdout_of(&arena(&[
        "analyze",
        "bfs+elashi",
        "--board",
        &well,
        "--pieces",
        "I",
    ]));
    assert!(text.contains("x=9 y=18 rotation=1"), "{text}");
    assert!(
        text.contains("path:") && text.contains("rows_cleared"),
        "{text}"
    );
}

#[test]
fn analyze_all_lists_the_17_placements_of_an_i_on_the_empty_board() {
    let folder = folder("analyze-all");
    let empty = write(&folder, "empty.txt", &board_text(20, &[]));
    let json = json_of(&arena(&[
        "analyze",
        "bfs+elashi",
        "--board",
        &empty,
        "--pieces",
        "I",
        "--all",
        "--json",
    ]));
    let placements = json["placements"].as_array().unwrap();
    // 7 horizontal positions (pivot x 2..=8) + 10 vertical ones (pivot x 0..=9).
    assert_eq!(placements.len(), 17);
    let mut horizontal: Vec<i64> = Vec::new();
    let mut vertical: Vec<i64> = Vec::new();
    for entry in placements {
        let x = entry["x"].as_i64().unwrap();
        let lowest = entry["cells"]
            .as_array()
            .unwrap()
            .iter()
            .map(|cell| cell[1].as_i64().unwrap())
            .max();
        assert_eq!(lowest, Some(19), "every I rests on the floor: {entry}");
        match entry["rotation"].as_i64().unwrap() {
            0 => horizontal.push(x),
            1 => vertical.push(x),
            other => panic!("rotation {other}"),
        }
        assert_eq!(entry["chain_length"], 1);
        assert_eq!(entry["rule"], "neutral");
        assert!(entry["features"]["rows_cleared"].is_number());
        let rotation = entry["rotation"].as_i64().unwrap();
        assert_eq!(
            replay_path(&entry["path"], 2),
            (x, entry["y"].as_i64().unwrap(), rotation)
        );
    }
    horizontal.sort();
    vertical.sort();
    assert_eq!(horizontal, (2..=8).collect::<Vec<_>>());
    assert_eq!(vertical, (0..=9).collect::<Vec<_>>());
    // Every chain is complete and neutral, so the best is the first of the lowest values.
    let values: Vec<f64> = placements
        .iter()
        .map(|p| p["value"].as_f64().unwrap())
        .collect();
    let lowest = values.iter().copied().fold(f64::INFINITY, f64::min);
    let first_lowest = values.iter().position(|&value| value == lowest).unwrap();
    assert_eq!(json["best"], placements[first_lowest]);
    // The best of --all is the best without it.
    let plain = json_of(&arena(&[
        "analyze",
        "bfs+elashi",
        "--board",
        &empty,
        "--pieces",
        "I",
        "--json",
    ]));
    assert_eq!(plain["best"], json["best"]);
    // Column drop finds the same 17 on the empty board.
    let json = json_of(&arena(&[
        "analyze",
        "column-drop+elashi",
        "--board",
        &empty,
        "--pieces",
        "I",
        "--all",
        "--json",
    ]));
    assert_eq!(json["placements"].as_array().unwrap().len(), 17);
}

#[test]
fn analyze_with_a_preview_reports_the_whole_chain() {
    let folder = folder("analyze-preview");
    let well = well_board(&folder);
    let args = [
        "analyze",
        "bfs+dellacherie@2",
        "--board",
        &well,
        "--pieces",
        "T,I",
        "--json",
    ];
    let json = json_of(&arena(&args));
    assert_eq!(json["pieces"], serde_json::json!(["T", "I"]));
    let chain = json["placements"].as_array().unwrap();
    assert_eq!(chain.len(), 2);
    assert_eq!(chain[0]["piece"], "T");
    assert_eq!(chain[1]["piece"], "I");
    assert_eq!(json["best"], chain[0]);
    // Every entry carries the whole chain's value and features.
    assert_eq!(chain[0]["value"], chain[1]["value"]);
    assert_eq!(chain[0]["features"], chain[1]["features"]);
    assert_eq!(chain[0]["chain_length"], 2);
    // --all: every T placement with the best chain through it; the best entry matches.
    let mut all_args = args.to_vec();
    all_args.push("--all");
    let all = json_of(&arena(&all_args));
    assert_eq!(all["best"], json["best"]);
    let entries = all["placements"].as_array().unwrap();
    assert!(entries.iter().all(|entry| entry["piece"] == "T"));
    // Every chain is complete and neutral (Dellacherie has no chain rule), so the best value
    // is the lowest one, reached first at the best entry.
    let values: Vec<f64> = entries
        .iter()
        .map(|e| e["value"].as_f64().unwrap())
        .collect();
    let lowest = values.iter().copied().fold(f64::INFINITY, f64::min);
    assert_eq!(all["best"]["value"].as_f64(), Some(lowest));
    let first_lowest = values.iter().position(|&value| value == lowest).unwrap();
    assert_eq!(entries[first_lowest], all["best"]);
}

#[test]
fn analyze_shows_chains_cut_short_and_game_over() {
    let folder = folder("analyze-cut-short");
    // Row 1 is full but for column 5 and the rows below hold a covered column-9 hole. The O
    // (cells (4,0) (5,0) (4,1) (5,1) at the spawn) cannot spawn since (4,1) is occupied; the
    // T can (its stem goes into (5,1), or it lies flat on row 0).
    let mut bottom = vec!["#####.####"];
    bottom.extend(["#########."; 18]);
    let tight = write(&folder, "tight.txt", &board_text(20, &bottom));
    let json = json_of(&arena(&[
        "analyze",
        "bfs+elashi@2",
        "--board",
        &tight,
        "--pieces",
        "T,O",
        "--all",
        "--json",
    ]));
    let entries = json["placements"].as_array().unwrap();
    assert!(!entries.is_empty());
    // No chain reaches the O: every one is cut short after the T, so no chain continues and
    // the value is null (docs/spec/arena.md); the cut-short chain's length and rule are still shown.
    for entry in entries {
        assert_eq!(entry["chain_length"], 1, "{entry}");
        assert!(entry["value"].is_null(), "{entry}");
        assert!(entry["rule"].is_string(), "{entry}");
    }
    assert_eq!(json["best"]["chain_length"], 1);
    assert!(json["best"]["value"].is_null());
    // The O as the current piece: no placement at all (game over), still exit 0.
    let json = json_of(&arena(&[
        "analyze",
        "bfs+elashi",
        "--board",
        &tight,
        "--pieces",
        "O",
        "--json",
    ]));
    assert_eq!(json["best"], Value::Null);
    assert_eq!(json["placements"], serde_json::json!([]));
    let text = stdout_of(&arena(&[
        "analyze",
        "bfs+elashi",
        "--board",
        &tight,
        "--pieces",
        "O",
    ]));
    assert!(text.contains("no placement"), "{text}");
}

#[test]
fn analyze_takes_fewer_pieces_than_the_depth() {
    // Depth 2 with one piece chains only the piece given: the same best as depth 1.
    let folder = folder("analyze-fewer");
    let well = well_board(&folder);
    let deep = json_of(&arena(&[
        "analyze",
        "bfs+elashi@2",
        "--board",
        &well,
        "--pieces",
        "I",
        "--json",
    ]));
    let shallow = json_of(&arena(&[
        "analyze",
        "bfs+elashi",
        "--board",
        &well,
        "--pieces",
        "I",
        "--json",
    ]));
    assert_eq!(deep["best"], shallow["best"]);
    assert_eq!(deep["strategy"], "bfs+elashi@2");
}

#[test]
fn analyze_rejects_bad_input() {
    let folder = folder("analyze-errors");
    let empty = write(&folder, "empty.txt", &board_text(20, &[]));
    let run = |strategy: &str, board: &str, pieces: &str| {
        assert_error(&["analyze", strategy, "--board", board, "--pieces", pieces])
    };
    // Unknown strategy, searcher, evaluator, preset; a bad depth.
    let line = run("nope+elashi", &empty, "T");
    assert!(
        line.contains("nope") && line.contains("column-drop"),
        "{line}"
    );
    run("bfs", &empty, "T");
    let line = run("bfs+nope", &empty, "T");
    assert!(line.contains("nes-plateau"), "{line}");
    let line = run("bfs+dellacherie:nope", &empty, "T");
    assert!(line.contains("el-tetris"), "{line}");
    run("bfs+elashi@0", &empty, "T");
    run("bfs+elashi@x", &empty, "T");
    // Pieces: a letter that is not a piece, none at all, more than the depth.
    let line = run("bfs+elashi", &empty, "X");
    assert!(line.contains('X'), "{line}");
    run("bfs+elashi@2", &empty, "T,X");
    run("bfs+elashi", &empty, "");
    run("bfs+elashi", &empty, ",");
    let line = run("bfs+elashi", &empty, "T,J");
    assert!(line.contains("@2"), "{line}");
    // Malformed and unreadable boards, a board of the wrong size, a board with a full row.
    let mut rows = vec![".........."; 20];
    rows[19] = "#####?####";
    let bad_character = write(&folder, "character.txt", &(rows.join("\n") + "\n"));
    let line = run("bfs+elashi", &bad_character, "T");
    assert!(
        line.contains("line 20") && line.contains("column 6"),
        "{line}"
    );
    rows[19] = "###########";
    let long_row = write(&folder, "long.txt", &(rows.join("\n") + "\n"));
    run("bfs+elashi", &long_row, "T");
    let short = write(&folder, "short.txt", &board_text(10, &[]));
    run("bfs+elashi", &short, "T");
    assert_io_error(&[
        "analyze",
        "bfs+elashi",
        "--board",
        &folder.join("missing.txt").display().to_string(),
        "--pieces",
        "T",
    ]);
    let full = write(&folder, "full.txt", &board_text(20, &["##########"]));
    let line = run("bfs+elashi", &full, "T");
    assert!(line.contains("full"), "{line}");
    assert_error(&[
        "analyze",
        "bfs+elashi",
        "--board",
        &empty,
        "--pieces",
        "T",
        "--board-height",
        "12",
    ]);
    // Bad weights files.
    let unknown = write(
        &folder,
        "unknown.json",
        r#"{"evaluator": "elashi", "weights": {"rows_cleared": 1, "lock_height": 2,
            "wells": 3, "holes": 4, "column_transitions": 5, "row_transitions": 6, "bumps": 7}}"#,
    );
    let line = run(&format!("bfs+elashi:{unknown}"), &empty, "T");
    assert!(line.contains("bumps"), "{line}");
    let missing_name = write(
        &folder,
        "missing-name.json",
        r#"{"evaluator": "elashi", "weights": {"rows_cleared": 1}}"#,
    );
    run(&format!("bfs+elashi:{missing_name}"), &empty, "T");
    // Missing arguments.
    assert_error(&["analyze", "bfs+elashi", "--board", &empty]);
    assert_error(&["analyze", "bfs+elashi", "--pieces", "T"]);
    assert_error(&["analyze", "--board", &empty, "--pieces", "T"]);
}

#[test]
fn help_explains_every_option() {
    let text = stdout_of(&arena(&["features", "--help"]));
    for option in ["--board", "--eval", "--board-height", "--json"] {
        assert!(text.contains(option), "features --help lacks {option}");
    }
    let text = stdout_of(&arena(&["analyze", "--help"]));
    for option in [
        "--board",
        "--pieces",
        "--all",
        "--json",
        "--board-height",
        "STRATEGY",
    ] {
        assert!(text.contains(option), "analyze --help lacks {option}");
    }
    for word in ["chain_length", "rule", "cut short"] {
        assert!(
            text.contains(word),
            "analyze --help does not explain {word}"
        );
    }
    let text = stdout_of(&arena(&["sequence", "--help"]));
    for option in ["--generator", "--seed", "--count"] {
        assert!(text.contains(option), "sequence --help lacks {option}");
    }
}

#[test]
fn analyze_shows_what_the_gamepad_reaches_at_a_given_level_and_tap_rate() {
    // On an empty 12-row field at level 29 (a row every frame) the flat I's drop from row 11
    // fails on frame 12; at 10 presses per second (--tap-rate 6) the Left/Right thumb presses
    // on frames 1 and 7 only, so the flat I reaches pivots 3 to 7 (cells 1..8), not the
    // walls (pivots 2 and 8, three shifts from the spawn pivot 5). As a game's first piece
    // it floats 96 frames first and reaches both walls.
    let folder = folder("gamepad-timing");
    let board = write(&folder, "empty.txt", &board_text(12, &[]));
    let analyze = |strategy: &'static str, extra: &[&'static str]| -> Vec<String> {
        let mut args = vec!["analyze", strategy, "--board", &board];
        args.extend(["--board-height", "12", "--pieces", "I"]);
        args.extend_from_slice(extra);
        args.iter().map(|arg| arg.to_string()).collect()
    };
    let flat_columns = |extra: &[&'static str]| -> Vec<i64> {
        let mut timing = vec!["--all", "--json", "--level", "29", "--tap-rate", "6"];
        timing.extend_from_slice(extra);
        let args = analyze("gamepad+nes-plateau", &timing);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let json = json_of(&arena(&args));
        let mut columns: Vec<i64> = json["placements"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|placement| placement["rotation"] == 0)
            .map(|placement| placement["x"].as_i64().unwrap())
            .collect();
        columns.sort_unstable();
        columns
    };
    assert_eq!(flat_columns(&[]), [3, 4, 5, 6, 7]);
    assert_eq!(flat_columns(&["--entry-delay"]), [2, 3, 4, 5, 6, 7, 8]);
    for (strategy, bad) in [
        ("gamepad+nes-plateau", ["--tap-rate", "1"]),
        ("gamepad+nes-plateau", ["--tap-rate", "9"]),
        ("bfs+elashi", ["--level", "29"]),
    ] {
        let args = analyze(strategy, &bad);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let line = assert_error(&args);
        assert!(
            strategy != "bfs+elashi" || line.contains("bfs ignores gravity"),
            "{line}"
        );
    }
}

#[test]
fn analyze_reaches_the_deep_left_well_at_level_19_with_two_thumbs_only() {
    // Column 0 open to the floor, columns 1–9 filled from row 6 down: the upright I must
    // turn once and shift five times before its pivot passes row 4 over column 1, i.e. by
    // frame 9 at a row every 2 frames. Two thumbs turn and shift together on frame 1 and
    // shift on frames 3, 5, 7 and 9; the article's player needs six press frames, the last
    // on frame 11 (search-bfs's test
    // `at_level_19_only_two_thumbs_get_the_i_into_a_deep_left_well`).
    let folder = folder("inputs");
    let board = write(&folder, "well.txt", &board_text(20, &[".#########"; 14]));
    let in_the_well = |extra: &[&str]| -> bool {
        let mut args = vec!["analyze", "gamepad+nes-plateau", "--board", &board];
        args.extend(["--pieces", "I", "--all", "--json", "--level", "19"]);
        args.extend_from_slice(extra);
        json_of(&arena(&args))["placements"]
            .as_array()
            .unwrap()
            .iter()
            .any(|placement| placement["x"] == 0 && placement["y"] == 18)
    };
    assert!(in_the_well(&[]));
    assert!(in_the_well(&["--inputs", "two-thumb"]));
    assert!(!in_the_well(&["--inputs", "article"]));
    let line = assert_error(&[
        "analyze",
        "gamepad+nes-plateau",
        "--board",
        &board,
        "--pieces",
        "I",
        "--inputs",
        "thumbs",
    ]);
    assert_eq!(
        line,
        "error: --inputs: unknown input model \"thumbs\" (valid: two-thumb article)"
    );
}
