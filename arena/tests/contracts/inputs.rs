//! What the arena reads is bounded and checked: every file has a size limit (even
//! `/dev/zero` stops at it), a checkpoint or part file no run could write is refused with its
//! first inconsistency before anything is sized by it, and a board reads the same from a
//! file, with a byte-order mark, or from standard input.

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::Value;

use crate::common::{self, fail, run, scratch_folder, succeed};

use super::{text, tune_args};

#[test]
fn a_checkpoint_with_a_vector_of_the_wrong_length_is_named_not_a_panic() {
    let folder = scratch_folder("hardening", "checkpoint");
    let out = folder.join("w.json");
    type Tamper = fn(&mut Value);
    let cases: [(&str, Tamper, &str); 6] = [
        (
            "pso",
            |state| {
                state["particles"][0]["velocity"]
                    .as_array_mut()
                    .unwrap()
                    .pop();
            },
            "particle 0's velocity has 5 weights, expected 6",
        ),
        (
            "pso",
            |state| {
                state["particles"][1]["best"]
                    .as_array_mut()
                    .unwrap()
                    .push(0.5.into());
            },
            "particle 1's best has 7 weights, expected 6",
        ),
        (
            "pso",
            |state| {
                state["best"].as_array_mut().unwrap().pop();
            },
            "the swarm's best has 5 weights, expected 6",
        ),
        (
            "cem",
            |state| {
                state["mean"].as_array_mut().unwrap().pop();
            },
            "the mean has 5 weights, expected 6",
        ),
        (
            "cem",
            |state| {
                state["std"].as_array_mut().unwrap().push(1.0.into());
            },
            "the std has 7 weights, expected 6",
        ),
        (
            "ga",
            |state| {
                state["population"][4].as_array_mut().unwrap().pop();
            },
            "candidate 4 has 5 weights, expected 6",
        ),
    ];
    for (index, (method, tamper, expected)) in cases.into_iter().enumerate() {
        let checkpoint = folder.join(format!("checkpoint-{index}.json"));
        let mut args = tune_args(method, text(&checkpoint), text(&out));
        args.extend(["--iterations", "1"]);
        common::succeed("tune", &args);
        let mut saved: Value = serde_json::from_str(&fs::read_to_string(&checkpoint).unwrap())
            .expect("the checkpoint is JSON");
        tamper(&mut saved["state"]);
        fs::write(&checkpoint, saved.to_string()).unwrap();
        args.pop();
        args.extend(["3", "--resume"]);
        let message = fail("tune", &args);
        assert_eq!(
            message,
            format!(
                "error: checkpoint {}: {expected} (one per feature)",
                checkpoint.display()
            ),
            "{method}"
        );
    }
    // The best candidate's weights: a checkpoint error, not a weights error.
    let checkpoint = folder.join("best.json");
    let mut args = tune_args("pso", text(&checkpoint), text(&out));
    args.extend(["--iterations", "1"]);
    common::succeed("tune", &args);
    let mut saved: Value = serde_json::from_str(&fs::read_to_string(&checkpoint).unwrap()).unwrap();
    saved["best"]["weights"].as_array_mut().unwrap().pop();
    fs::write(&checkpoint, saved.to_string()).unwrap();
    args.pop();
    args.extend(["3", "--resume"]);
    assert_eq!(
        fail("tune", &args),
        format!(
            "error: checkpoint {}: its best candidate has 5 weights, expected 6 (one per feature)",
            checkpoint.display()
        )
    );
    fs::remove_dir_all(&folder).unwrap();
}

/// One edit of a checkpoint (a whole saved checkpoint, as JSON) and the message it gives,
/// worked out from the checkpoint's own numbers where it shows them.
type CheckpointEdit = fn(&mut Value) -> String;

#[test]
fn a_checkpoint_no_run_reaches_is_refused_with_its_first_inconsistency() {
    // Each edit breaks one rule that every checkpoint the tuner writes keeps; `--resume`
    // used to continue from all of them.
    let folder = scratch_folder("hardening", "inconsistent-checkpoint");
    let out = folder.join("w.json");
    let cases: [(&str, CheckpointEdit); 19] = [
        // The reproduction: iteration 20 in the first place of the history.
        ("cem", |saved| {
            saved["history"][0]["iteration"] = 20.into();
            "its history's record 0 is of iteration 20, expected 0 (the history holds \
             iterations 0, 1, 2, ... in order)"
                .into()
        }),
        ("cem", |saved| {
            saved["history"].as_array_mut().unwrap().swap(0, 1);
            "its history's record 0 is of iteration 1, expected 0 (the history holds \
             iterations 0, 1, 2, ... in order)"
                .into()
        }),
        ("ga", |saved| {
            let seed = saved["history"][1]["first_game_seed"].as_u64().unwrap();
            saved["history"][1]["first_game_seed"] = (seed ^ 1).into();
            format!(
                "iteration 1's first_game_seed is {}, but the run's --seed gives {seed}",
                seed ^ 1
            )
        }),
        ("ga", |saved| {
            saved["history"][1]["mean"] = (-0.5).into();
            "iteration 1's mean fitness is -0.5, but fitness is never negative".into()
        }),
        ("cem", |saved| {
            saved["best"] = Value::Null;
            "it has no best candidate after 2 iterations (the first iteration sets one)".into()
        }),
        ("cem", |saved| {
            saved["iterations_done"] = 0.into();
            saved["history"] = Value::Array(Vec::new());
            "it has a best candidate after 0 iterations (the first iteration sets one)".into()
        }),
        ("cem", |saved| {
            let best = saved["best"]["fitness"].as_f64().unwrap();
            saved["best"]["fitness"] = (best + 1.0).into();
            format!(
                "its best candidate's fitness is {}, but the best of its history is {best}",
                best + 1.0
            )
        }),
        ("cem", |saved| {
            let iteration = saved["best"]["iteration"].as_u64().unwrap();
            saved["best"]["iteration"] = (1 - iteration).into();
            format!(
                "its best candidate is from iteration {}, but its fitness was first reached \
                 in iteration {iteration}",
                1 - iteration
            )
        }),
        ("ga", |saved| {
            saved["best"]["weights"] = serde_json::json!([3.0, 4.0, 0.0, 0.0, 0.0, 0.0]);
            "its best candidate has length 5, but candidates are normalised to length 1".into()
        }),
        ("cem", |saved| {
            let population = saved["state"]["population"].clone();
            saved["state"] = serde_json::json!({"method": "ga", "population": population});
            "its state is ga's, but its settings say --method cem".into()
        }),
        ("cem", |saved| {
            saved["state"]["std"][1] = (-0.5).into();
            "the std's weight 1 is -0.5, but a standard deviation is never negative".into()
        }),
        ("cem", |saved| {
            saved["state"]["population"][0] = serde_json::json!([0.0, 0.0, 3.0, 4.0, 0.0, 0.0]);
            "candidate 0 has length 5, but candidates are normalised to length 1".into()
        }),
        ("pso", |saved| {
            saved["state"]["particles"][1]["velocity"][0] = 1.5.into();
            "particle 1's velocity has a component 1.5, beyond the clamp ±1".into()
        }),
        ("pso", |saved| {
            saved["state"]["particles"][2]["stagnant"] = 5.into();
            "particle 2 is stagnant for 5 iterations, but a particle restarts after 5".into()
        }),
        ("pso", |saved| {
            saved["state"]["particles"][0]["best"] = Value::Null;
            saved["state"]["particles"][0]["best_fitness"] = 0.5.into();
            "particle 0 has no best, so its best_fitness and stagnant must be 0 (as a new or \
             restarted particle's are)"
                .into()
        }),
        ("pso", |saved| {
            let swarm = saved["state"]["best_fitness"].as_f64().unwrap();
            saved["state"]["particles"][3]["best_fitness"] = (swarm + 1.0).into();
            format!(
                "particle 3's best fitness {} is above the swarm's best {swarm}",
                swarm + 1.0
            )
        }),
        ("pso", |saved| {
            saved["state"]["best"] = Value::Null;
            "particle 0 has a best, but the swarm has none".into()
        }),
        ("pso", |saved| {
            let swarm = saved["state"]["best_fitness"].as_f64().unwrap();
            saved["state"]["best_fitness"] = (swarm + 1.0).into();
            format!(
                "the swarm's best (fitness {}) is not its best candidate (fitness {swarm}): the \
                 swarm remembers the run's best candidate",
                swarm + 1.0
            )
        }),
        ("ga", |saved| {
            saved["iterations_done"] = 0.into();
            saved["history"] = Value::Array(Vec::new());
            saved["best"] = Value::Null;
            "iterations_done is 0, but its state is not the starting state of the run's --seed"
                .into()
        }),
    ];
    // One run of two iterations per method; every case edits a copy of its checkpoint.
    let mut saved = std::collections::BTreeMap::new();
    for method in ["cem", "pso", "ga"] {
        let checkpoint = folder.join(format!("{method}.json"));
        let mut args = tune_args(method, text(&checkpoint), text(&out));
        args.extend(["--iterations", "2"]);
        common::succeed("tune", &args);
        let value: Value = serde_json::from_str(&fs::read_to_string(&checkpoint).unwrap())
            .expect("the checkpoint is JSON");
        assert!(
            value["history"][1]["best"].as_f64().unwrap() > 0.0,
            "{method}: the run scores lines, so the edits below change real numbers"
        );
        saved.insert(method, value);
    }
    for (index, (method, edit)) in cases.into_iter().enumerate() {
        let checkpoint = folder.join(format!("edited-{index}.json"));
        let mut edited = saved[method].clone();
        let expected = edit(&mut edited);
        fs::write(&checkpoint, edited.to_string()).unwrap();
        let mut args = tune_args(method, text(&checkpoint), text(&out));
        args.extend(["--iterations", "3", "--resume"]);
        assert_eq!(
            fail("tune", &args),
            format!("error: checkpoint {}: {expected}", checkpoint.display()),
            "case {index} ({method})"
        );
    }
    fs::remove_dir_all(&folder).unwrap();
}

/// A real part of a small run, written as shard 0/1, with its settings' count edited: the
/// merge refuses it with one line before anything is sized by the count (it once panicked
/// with "capacity overflow" or aborted allocating 400 GB).
#[test]
fn a_part_whose_settings_say_too_many_games_is_refused_before_any_allocation() {
    let folder = scratch_folder("hardening", "merge-counts");
    let runs: [(&str, Vec<&str>, &str); 3] = [
        (
            "tournament",
            vec![
                "column-drop+dellacherie",
                "column-drop+elashi",
                "--games",
                "2",
                "--seed",
                "4",
                "--board-height",
                "6",
                "--max-pieces",
                "30",
            ],
            "games",
        ),
        (
            "nes",
            vec![
                "column-drop+nes-plateau",
                "--games",
                "2",
                "--seed",
                "1",
                "--start-level",
                "19",
                "--to-level",
                "20",
            ],
            "games",
        ),
        (
            "stats",
            vec![
                "column-drop+dellacherie",
                "--pieces",
                "200",
                "--seed",
                "3",
                "--board-height",
                "8",
            ],
            "blocks",
        ),
    ];
    for (command, mut args, unit) in runs {
        let part = folder.join(format!("{command}.json"));
        args.extend(["--shard", "0/1", "--out", text(&part)]);
        let output = run(command, &args);
        assert!(
            output.status.success(),
            "{command}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        let original: Value = serde_json::from_str(&fs::read_to_string(&part).unwrap()).unwrap();
        let (max, key) = if unit == "blocks" {
            (1u64 << 32, "blocks")
        } else {
            (10_000_000, "games")
        };
        for count in [i64::MAX as u64, 99_999_999_999, max + 1, 0] {
            let mut edited = original.clone();
            edited["settings"][key] = count.into();
            let tampered = folder.join(format!("{command}-{count}.json"));
            fs::write(&tampered, serde_json::to_string(&edited).unwrap()).unwrap();
            assert_eq!(
                fail("merge", &[text(&tampered), "--json"]),
                format!(
                    "error: merge: {}: its settings say {count} {unit}, a run has 1 to {max} \
                     {unit}",
                    tampered.display()
                ),
                "{command}"
            );
        }
        // Within the bound but above what the part holds: a shard count of 0/1 lacks them.
        let mut edited = original.clone();
        edited["settings"][key] = max.into();
        let tampered = folder.join(format!("{command}-max.json"));
        fs::write(&tampered, serde_json::to_string(&edited).unwrap()).unwrap();
        let error = fail("merge", &[text(&tampered), "--json"]);
        assert!(
            error.contains("(shard 0/1) lacks game "),
            "{command}: {error}"
        );
        // A shard count above the run's games: no shard list is built up to it.
        let mut edited = original.clone();
        edited["shard"]["count"] = (i64::MAX as u64).into();
        let tampered = folder.join(format!("{command}-shards.json"));
        fs::write(&tampered, serde_json::to_string(&edited).unwrap()).unwrap();
        let error = fail("merge", &[text(&tampered), "--json"]);
        assert!(
            error.contains("a run has at most one shard per"),
            "{command}: {error}"
        );
    }
    fs::remove_dir_all(&folder).unwrap();
}

/// Every file the arena reads has a size limit: `/dev/zero` as a replay, a board, weights, a
/// pattern or a piece file stops at its limit with one line naming the file and the limit
/// (the library's tests refuse parts, checkpoints and runner files the same way).
#[test]
fn an_endless_input_file_stops_at_its_limit() {
    let zero = "/dev/zero";
    assert_eq!(
        fail("replay", &[zero]),
        "error: replay /dev/zero: larger than 256 MiB (the limit for a replay)"
    );
    assert_eq!(
        fail("features", &["--board", zero, "--eval", "elashi"]),
        "error: board file /dev/zero: larger than 1 MiB (the limit for a board file)"
    );
    assert_eq!(
        fail(
            "play",
            &["column-drop+elashi:/dev/zero", "--max-pieces", "5"]
        ),
        "error: weights file /dev/zero: larger than 1 MiB (the limit for a weights file)"
    );
    assert!(
        fail(
            "play",
            &["bfs+elashi,pattern=/dev/zero", "--max-pieces", "5"]
        )
        .ends_with("pattern file /dev/zero: larger than 1 MiB (the limit for a pattern file)")
    );
    assert_eq!(
        fail(
            "sequence",
            &["--generator", "file:/dev/zero", "--count", "5"]
        ),
        "error: piece file /dev/zero: larger than 64 MiB (the limit for a piece file)"
    );
    // A part's limit is 1 GiB: the library's test refuses a sparse file one byte over it
    // unread, and a device past a small limit.
}

#[test]
fn a_board_file_with_a_byte_order_mark_reads_as_without() {
    let folder = scratch_folder("hardening", "bom");
    let plain = folder.join("plain.txt");
    let marked = folder.join("marked.txt");
    let rows = "..........\n#.........\n##........\n###.......\n";
    fs::write(&plain, rows).unwrap();
    fs::write(&marked, format!("\u{feff}{rows}")).unwrap();
    let features = |path: &Path| {
        common::succeed(
            "features",
            &[
                "--board",
                text(path),
                "--board-height",
                "4",
                "--eval",
                "elashi",
            ],
        )
        .replace(text(path), "BOARD")
    };
    assert_eq!(features(&marked), features(&plain));
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn a_board_of_minus_is_read_from_standard_input() {
    let board = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/boards/grown-seed3-10pieces.txt"
    );
    let from_file = succeed(
        "features",
        &["--board", board, "--eval", "dellacherie", "--json"],
    );
    let output = with_stdin(
        &[
            "features",
            "--board",
            "-",
            "--eval",
            "dellacherie",
            "--json",
        ],
        &fs::read(board).unwrap(),
    );
    assert!(output.status.success());
    // The same report but for the command that made it (`--board -`).
    assert_eq!(
        crate::common::text_without_made_by(&String::from_utf8(output.stdout).unwrap()),
        crate::common::text_without_made_by(&from_file)
    );
    // A bad board on standard input is named as such.
    let output = with_stdin(
        &["features", "--board", "-", "--eval", "elashi"],
        b"..........\n",
    );
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "error: board file standard input: board has 1 row, expected 20 (--board-height sets \
         the field height)\n"
    );
}

/// Runs `arena ARGS…` with `input` on its standard input; its output.
fn with_stdin(args: &[&str], input: &[u8]) -> std::process::Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

/// `text` with the first key of the object that follows `anchor` (the first `{` of the text
/// when `anchor` is `{`) written once more in front, with the same value: the key and the
/// edited text. The value is the one already there, so a reader that kept the last value
/// would read the same file.
fn with_a_repeated_key(text: &str, anchor: &str) -> (String, String) {
    let at = text.find(anchor).unwrap() + anchor.len();
    let mut values = serde_json::Deserializer::from_str(&text[at - 1..]).into_iter::<Value>();
    let object = values.next().unwrap().unwrap();
    let (key, value) = object.as_object().unwrap().iter().next().unwrap();
    let repeated = format!("{}:{value},", Value::from(key.as_str()));
    (
        key.clone(),
        format!("{}{repeated}{}", &text[..at], &text[at..]),
    )
}

#[test]
fn a_key_repeated_in_any_json_file_the_arena_reads_is_refused() {
    // serde keeps the last of two values of one key without a word; every JSON file the
    // arena reads refuses the file instead, naming the key: replays, traces, checkpoints and
    // weights here (part files in shard_merge.rs; board files are arrays, without keys).
    // Before, serde's derived readers refused a field given twice in a plain object (replays,
    // checkpoints, weights: they keep serde's refusal or reach the first pass first; weights
    // files keep their own words) but read the last of two in a `serde_json::Value`, such as
    // a trace's settings, which a repeated key now refuses too.
    let folder = scratch_folder("hardening", "repeated-keys");
    let path = |name: &str| folder.join(name).to_str().unwrap().to_string();
    let (replay, trace, checkpoint, weights) = (
        path("replay.json"),
        path("trace.jsonl"),
        path("checkpoint.json"),
        path("weights.json"),
    );
    succeed(
        "play",
        &[
            "column-drop+elashi",
            "--max-pieces",
            "5",
            "--record",
            &replay,
        ],
    );
    succeed(
        "nes",
        &[
            "column-drop+nes-plateau",
            "--games",
            "1",
            "--max-lines",
            "1",
            "--trace",
            &trace,
        ],
    );
    let mut args = tune_args("cem", &checkpoint, &weights);
    args.extend(["--iterations", "1"]);
    succeed("tune", &args);
    let strategy = format!("column-drop+elashi:{}", path("repeated-weights.json"));
    let cases: [(&str, &str, Vec<&str>); 4] = [
        // First the one the old readers accepted.
        (&trace, "\"settings\":{", vec!["replay", "REPEATED"]),
        (&replay, "{", vec!["replay", "REPEATED"]),
        (
            &checkpoint,
            "{",
            [vec!["tune"], tune_args("cem", "REPEATED", &weights)].concat(),
        ),
        (&weights, "{", vec!["play", &strategy, "--max-pieces", "5"]),
    ];
    for (file, anchor, command) in cases {
        let text = fs::read_to_string(file).unwrap();
        let (key, edited) = with_a_repeated_key(&text, anchor);
        let repeated = match file == weights {
            true => path("repeated-weights.json"),
            false => format!("{file}.repeated"),
        };
        fs::write(&repeated, &edited).unwrap();
        let mut args: Vec<&str> = command
            .iter()
            .map(|arg| {
                if *arg == "REPEATED" {
                    repeated.as_str()
                } else {
                    arg
                }
            })
            .collect();
        if file == checkpoint {
            args.extend(["--iterations", "2", "--resume"]);
        }
        // The file as written is accepted (with the key once).
        fs::write(&repeated, &text).unwrap();
        let output = run(args[0], &args[1..]);
        assert!(
            output.status.success(),
            "{file}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        fs::write(&repeated, &edited).unwrap();
        let message = fail(args[0], &args[1..]);
        let expected = match file == weights {
            true => format!("duplicate field `{key}`"),
            false => format!("duplicate key {key:?} at line "),
        };
        assert!(message.contains(&expected), "{file}: {message}");
    }
    fs::remove_dir_all(&folder).unwrap();
}
