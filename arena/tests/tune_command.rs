//! `arena tune` run as the built binary: a resumed run writes the same weights as an
//! uninterrupted one, `--jobs` does not change the result, the result loads as a strategy,
//! and bad inputs give one `error:` line with exit code 2.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

mod common;

/// Runs `arena ARGS…`.
fn arena(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .output()
        .expect("the arena binary runs")
}

/// Runs `arena tune ARGS…`, which must succeed.
fn tune_ok(args: &[&str]) {
    let mut all = vec!["tune"];
    all.extend_from_slice(args);
    let output = arena(&all);
    assert!(
        output.status.success(),
        "{args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// A fresh folder for one test's files.
fn scratch_folder(test: &str) -> PathBuf {
    common::scratch_folder("tune", test)
}

fn text(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// Small settings: 10 × 8 field, column-drop at depth 1, 3 games of at most 200 pieces, a
/// population of 5.
fn small(method: &'static str) -> Vec<&'static str> {
    vec![
        "dellacherie",
        "--method",
        method,
        "--searcher",
        "column-drop",
        "--depth",
        "1",
        "--games",
        "3",
        "--board-height",
        "8",
        "--max-pieces",
        "200",
        "--population",
        "5",
        "--seed",
        "11",
    ]
}

#[test]
fn a_resumed_run_writes_the_same_weights_as_an_uninterrupted_one() {
    let folder = scratch_folder("resume");
    for method in ["cem", "pso", "ga"] {
        let whole = folder.join(format!("{method}-whole.json"));
        let whole_checkpoint = folder.join(format!("{method}-whole-checkpoint.json"));
        let mut args = small(method);
        args.extend([
            "--iterations",
            "7",
            "--out",
            text(&whole),
            "--checkpoint",
            text(&whole_checkpoint),
        ]);
        tune_ok(&args);

        let resumed = folder.join(format!("{method}-resumed.json"));
        let checkpoint = folder.join(format!("{method}-checkpoint.json"));
        let mut first = small(method);
        first.extend([
            "--iterations",
            "3",
            "--out",
            text(&resumed),
            "--checkpoint",
            text(&checkpoint),
        ]);
        tune_ok(&first);
        let saved: Value = serde_json::from_slice(&fs::read(&checkpoint).unwrap()).unwrap();
        assert_eq!(saved["iterations_done"], 3);
        assert_eq!(saved["history"].as_array().unwrap().len(), 3);
        let mut second = small(method);
        second.extend([
            "--iterations",
            "7",
            "--out",
            text(&resumed),
            "--checkpoint",
            text(&checkpoint),
            "--resume",
            "--jobs",
            "2",
        ]);
        tune_ok(&second);
        let whole_bytes = fs::read(&whole).unwrap();
        assert_eq!(
            String::from_utf8_lossy(&whole_bytes),
            String::from_utf8_lossy(&fs::read(&resumed).unwrap()),
            "{method}"
        );
        // The whole state (method, history, best) matches too, not only the best weights.
        assert_eq!(
            fs::read_to_string(&whole_checkpoint).unwrap(),
            fs::read_to_string(&checkpoint).unwrap(),
            "{method}"
        );
        // The output is a weights file for the evaluator: seven unit-length weights.
        let weights: Value = serde_json::from_slice(&whole_bytes).unwrap();
        assert_eq!(weights["evaluator"], "dellacherie");
        let values: Vec<f64> = weights["weights"]
            .as_object()
            .unwrap()
            .values()
            .map(|value| value.as_f64().unwrap())
            .collect();
        assert_eq!(values.len(), 7);
        let length: f64 = values.iter().map(|value| value * value).sum::<f64>().sqrt();
        assert!((length - 1.0).abs() < 1e-12, "{length}");
    }
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn jobs_do_not_change_the_result_and_the_result_loads_as_a_strategy() {
    let folder = scratch_folder("jobs");
    let one = folder.join("one.json");
    let two = folder.join("two.json");
    let mut args = small("cem");
    args.extend(["--iterations", "2", "--jobs", "1", "--out", text(&one)]);
    tune_ok(&args);
    let mut args = small("cem");
    args.extend(["--iterations", "2", "--jobs", "2", "--out", text(&two)]);
    tune_ok(&args);
    assert_eq!(fs::read(&one).unwrap(), fs::read(&two).unwrap());

    let strategy = format!("column-drop+dellacherie:{}", text(&one));
    let output = arena(&[
        "play",
        &strategy,
        "--max-pieces",
        "10",
        "--board-height",
        "8",
        "--json",
        "--no-placements",
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let played: Value = serde_json::from_slice(&output.stdout).unwrap();
    // An empty 10 × 8 field holds 80 cells, more than 10 pieces (40 cells) need, so the cap
    // of 10 pieces is reached whatever the weights.
    assert_eq!(played["pieces"], 10);
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn resuming_with_other_settings_names_the_difference() {
    let folder = scratch_folder("mismatch");
    let out = folder.join("out.json");
    let checkpoint = folder.join("checkpoint.json");
    let mut args = small("ga");
    args.extend([
        "--iterations",
        "1",
        "--out",
        text(&out),
        "--checkpoint",
        text(&checkpoint),
    ]);
    tune_ok(&args);
    let mut other = small("ga");
    let games = other.iter().position(|&arg| arg == "--games").unwrap();
    other[games + 1] = "4";
    let mut args = vec!["tune"];
    args.extend(other);
    args.extend([
        "--iterations",
        "2",
        "--out",
        text(&out),
        "--checkpoint",
        text(&checkpoint),
        "--resume",
    ]);
    let output = arena(&args);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("error:") && stderr.contains("--games is 3 in the checkpoint but 4"),
        "{stderr}"
    );
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn plateau_score_tunes_on_nes_plateau_games() {
    let folder = scratch_folder("plateau");
    let out = folder.join("plateau.json");
    let output = arena(&[
        "tune",
        "nes-plateau",
        "--searcher",
        "column-drop",
        "--fitness",
        "plateau-score",
        "--games",
        "2",
        "--population",
        "3",
        "--iterations",
        "1",
        "--seed",
        "5",
        "--out",
        text(&out),
    ]);
    let report = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        report.contains("NES plateau games (level 19 to 29"),
        "{report}"
    );
    // The weights load: the tuned strategy plays the benchmark.
    let strategy = format!("column-drop+nes-plateau:{}", text(&out));
    let played = common::run_json("nes", &[&strategy, "--games", "1", "--seed", "1"]);
    assert_eq!(played["summary"]["games"], 1);
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn bad_inputs_exit_2_with_one_error_line() {
    let folder = scratch_folder("bad");
    let out = folder.join("out.json");
    let out = text(&out);
    let garbage = folder.join("garbage.json");
    fs::write(&garbage, "{not json").unwrap();
    let missing = folder.join("missing.json");
    let cases: Vec<Vec<&str>> = vec![
        vec!["nope", "--out", out],
        vec!["elashi", "--searcher", "nope", "--out", out],
        vec!["elashi", "--method", "annealing", "--out", out],
        vec!["elashi", "--fitness", "median", "--out", out],
        vec!["elashi", "--games", "0", "--out", out],
        vec!["elashi", "--iterations", "0", "--out", out],
        vec!["elashi", "--population", "0", "--out", out],
        vec!["elashi", "--max-pieces", "0", "--out", out],
        vec!["elashi", "--jobs", "0", "--out", out],
        vec!["elashi", "--depth", "0", "--out", out],
        vec![
            "elashi",
            "--fitness",
            "plateau-score",
            "--depth",
            "3",
            "--out",
            out,
        ],
        vec!["elashi", "--board-height", "3", "--out", out],
        vec!["elashi", "--games", "-1", "--out", out],
        vec![
            "elashi",
            "--out",
            out,
            "--checkpoint",
            text(&garbage),
            "--resume",
        ],
        vec![
            "elashi",
            "--out",
            out,
            "--checkpoint",
            text(&missing),
            "--resume",
        ],
        vec!["elashi", "--out", out, "--resume"],
        vec!["elashi", "--out", "/nonexistent-folder/out.json"],
    ];
    for case in cases {
        let mut args = vec!["tune"];
        args.extend(&case);
        let output = arena(&args);
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(output.status.code(), Some(2), "{case:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{case:?}: {stderr}");
        assert!(stderr.starts_with("error:"), "{case:?}: {stderr}");
    }
    assert!(!Path::new(out).exists());
    fs::remove_dir_all(&folder).unwrap();
}
