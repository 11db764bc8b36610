//! The attacks of the hardening issue (17), run against the built binary: every bad input is
//! one `error:` line with exit code 2 (never a panic, even with stderr full), `--jobs` is
//! bounded, output folders are replaced whole and leftovers of killed runs cleaned, and
//! Ctrl-C ends `play`, `stats` and `tune` with an error that says what was kept.
//!
//! The second round (issue 32) is in the submodules: [`outputs`] (outputs never replace
//! anything but a regular file, nor an input of the same command) and [`messages`] (what is
//! printed is safe to print, and the rough edges a new user hits), [`formats`] (the
//! numbers and outputs a new user sees: number formats, intervals, the JSON layout, the
//! lines naming written files) and [`provenance`] (every JSON report, part file and page
//! says what made it).
//!
//! Over 600 lines on purpose: one test per attack of the hardening issue, each short, all against
//! the built binary.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

use crate::common;

mod formats;
mod messages;
#[cfg(unix)]
mod outputs;
mod provenance;

use common::{fail, run, scratch_folder};

fn text(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// A PID that belongs to no process: above the Linux kernel's largest (2^22).
const DEAD_PID: u32 = 4_194_305;

/// The small tune run whose checkpoints are tampered with.
fn tune_args<'a>(method: &'a str, checkpoint: &'a str, out: &'a str) -> Vec<&'a str> {
    vec![
        "elashi",
        "--method",
        method,
        "--searcher",
        "column-drop",
        "--games",
        "2",
        "--board-height",
        "6",
        "--population",
        "5",
        "--max-pieces",
        "60",
        "--seed",
        "7",
        "--checkpoint",
        checkpoint,
        "--out",
        out,
    ]
}

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
        // The issue's reproduction: iteration 20 in the first place of the history.
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

#[test]
fn the_checkpoint_and_the_weights_must_be_two_files() {
    let folder = scratch_folder("hardening", "same-file");
    fs::create_dir(folder.join("sub")).unwrap();
    let file = folder.join("f.json");
    let around = folder.join("sub/../f.json");
    for other in [&file, &around] {
        let mut args = tune_args("cem", text(&file), text(other));
        args.extend(["--iterations", "1"]);
        let message = fail("tune", &args);
        assert!(
            message.contains("are the same file"),
            "{other:?}: {message}"
        );
    }
    assert!(!file.exists(), "nothing was written");
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn bad_inputs_of_every_kind_are_one_error_line() {
    let folder = scratch_folder("hardening", "bad-inputs");
    let path = |name: &str| folder.join(name).display().to_string();
    let weights = |extra: &str| {
        format!(
            r#"{{"evaluator": "elashi", "weights": {{"rows_cleared": 1, "lock_height": 1,
            "wells": 1, "holes": 1, "column_transitions": 1, "row_transitions": 1{extra}}}}}"#
        )
    };
    fs::write(path("twice.json"), weights(r#", "holes": 2"#)).unwrap();
    fs::write(path("ok.json"), weights("")).unwrap();
    fs::create_dir(folder.join("sub")).unwrap();
    fs::write(path("short.txt"), "TJZ\n").unwrap();
    fs::write(path("empty.txt"), "\n").unwrap();
    fs::write(path("one-row.txt"), "..........\n").unwrap();
    fs::write(path("board.txt"), "..........\n".repeat(4)).unwrap();
    fs::write(path("plots"), "a file").unwrap();
    let twice_strategy = format!("bfs+elashi:{}", path("twice.json"));
    let ok_strategy = format!("bfs+elashi:{}", path("ok.json"));
    let ok_around = format!("bfs+elashi:{}/sub/../ok.json", folder.display());
    let short = format!("file:{}", path("short.txt"));
    let empty = format!("file:{}", path("empty.txt"));
    let one_row = path("one-row.txt");
    let board = path("board.txt");
    let plots = path("plots");
    let small_tournament = ["--games", "1", "--seed", "0", "--max-pieces", "3"];
    let with = |head: &[&str], tail: &[&str]| -> Vec<String> {
        head.iter().chain(tail).map(|arg| arg.to_string()).collect()
    };
    let cases: Vec<(&str, Vec<String>, String)> = vec![
        (
            "play",
            with(&[&twice_strategy, "--max-pieces", "3"], &[]),
            format!(
                "weights file {}: weights for elashi: feature \"holes\" is given twice",
                path("twice.json")
            ),
        ),
        (
            "sequence",
            with(&["--generator", &short, "--count", "5"], &[]),
            format!("--count 5: {short} holds only 3 pieces"),
        ),
        (
            "play",
            with(&["bfs+elashi", "--generator", &empty], &[]),
            format!("piece file {}: holds no pieces", path("empty.txt")),
        ),
        (
            "play",
            with(&["bfs+elashi@+2", "--max-pieces", "3"], &[]),
            "strategy \"bfs+elashi@+2\": depth \"+2\" is not a whole number".into(),
        ),
        (
            "tournament",
            with(&["bfs+elashi", "bfs+elashi:published"], &small_tournament),
            "strategies bfs+elashi and bfs+elashi:published are the same strategy".into(),
        ),
        (
            "tournament",
            with(&[&ok_strategy, &ok_around], &small_tournament),
            format!("strategies {ok_strategy} and {ok_around} are the same strategy"),
        ),
        (
            "stats",
            with(
                &["column-drop+elashi", "--pieces", "10"],
                &["--seed", "18446744073709551615", "--board-height", "6"],
            ),
            "--seed 18446744073709551615 + up to 10 games overflows a 64-bit seed".into(),
        ),
        (
            "tournament",
            with(
                &["bfs+elashi", "column-drop+elashi", "--plots", &plots],
                &small_tournament,
            ),
            format!("--plots {plots}: is a file, not a folder"),
        ),
        (
            "features",
            with(
                &[
                    "--board",
                    &one_row,
                    "--board-height",
                    "4",
                    "--eval",
                    "elashi",
                ],
                &[],
            ),
            format!("board file {one_row}: board has 1 row, expected 4"),
        ),
        (
            "play",
            with(&["bfs+elashi", "--watch", "--speed", "1e-300"], &[]),
            "--speed 1e-300 must be at least 0.001 pieces per second".into(),
        ),
    ];
    let mut all = cases;
    for pieces in ["t", "T,", ",T", "T,,J", "T J"] {
        all.push((
            "analyze",
            with(
                &["bfs+elashi@2", "--board", &board, "--board-height", "4"],
                &["--pieces", pieces],
            ),
            format!("--pieces {pieces:?}, column "),
        ));
    }
    for (command, args, expected) in &all {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let message = fail(command, &args);
        assert!(
            message.starts_with(&format!("error: {expected}")),
            "{command} {args:?}: {message}"
        );
    }
    // What the system refuses: a weights file that is not there, an output where no file can
    // be made. I/O, exit code 3, one line all the same.
    for (args, expected) in [
        (
            &["bfs+elashi:/nonexistent/w.json", "--max-pieces", "3"][..],
            "weights file /nonexistent/w.json: No such file",
        ),
        (
            &[
                "bfs+elashi",
                "--max-pieces",
                "3",
                "--record",
                "/proc/version",
            ],
            "--record /proc/version: cannot write there",
        ),
    ] {
        let message = common::fail_with(common::IO, "play", args);
        assert!(
            message.starts_with(&format!("error: {expected}")),
            "{args:?}: {message}"
        );
    }
    if Path::new("/proc/version").exists() {
        assert!(!Path::new("/proc/.version.tmp").exists());
    }
    fs::remove_dir_all(&folder).unwrap();
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
fn arena_alone_is_one_error_line_with_the_usage_and_the_hint() {
    let output = Command::new(env!("CARGO_BIN_EXE_arena")).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("error: 'arena' requires a subcommand"),
        "{stderr}"
    );
    assert!(
        stderr.contains("usage: arena <COMMAND>; for more information, try '--help'"),
        "{stderr}"
    );
}

#[test]
fn a_full_stderr_or_stdout_is_no_panic() {
    let full = Path::new("/dev/full");
    if !full.exists() {
        return;
    }
    let status = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["play", "foo+bar"])
        .stderr(fs::File::create(full).unwrap())
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(2), "an error with stderr full");
    let discarded = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["play", "foo+bar"])
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert_eq!(discarded.code(), Some(2));
    // Standard error closed altogether (`2>&-`): writing fails with EBADF, still no panic.
    let closed = Command::new("sh")
        .args([
            "-c",
            "\"$0\" play foo+bar 2>&-",
            env!("CARGO_BIN_EXE_arena"),
        ])
        .status()
        .unwrap();
    assert_eq!(closed.code(), Some(2));
    // Normal output into a full disk: the write error (I/O, exit code 3), not a panic.
    let output = Command::new(env!("CARGO_BIN_EXE_arena"))
        .arg("list")
        .stdout(fs::File::create(full).unwrap())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(common::IO));
    assert_eq!(
        String::from_utf8(output.stderr).unwrap(),
        "error: standard output: No space left on device (os error 28)\n"
    );
}

#[test]
fn jobs_are_bounded_and_more_jobs_than_games_play_the_same_games() {
    for (command, args) in [
        (
            "tournament",
            &[
                "column-drop+elashi",
                "--board-height",
                "8",
                "--games",
                "2",
                "--seed",
                "0",
            ][..],
        ),
        (
            "nes",
            &["column-drop+nes-plateau", "--games", "1", "--seed", "0"],
        ),
        (
            "stats",
            &["column-drop+elashi", "--pieces", "10", "--seed", "0"],
        ),
        ("tune", &["elashi", "--out", "/tmp/never-written.json"]),
    ] {
        let mut all = args.to_vec();
        all.extend(["--jobs", "100000"]);
        assert!(
            fail(command, &all).starts_with("error: --jobs 100000 is outside 1..=256"),
            "{command}"
        );
    }
    let play = |jobs: &str| {
        common::without_timing(common::run_json(
            "tournament",
            &[
                "column-drop+elashi",
                "--board-height",
                "8",
                "--games",
                "2",
                "--seed",
                "0",
                "--max-pieces",
                "30",
                "--jobs",
                jobs,
            ],
        ))
    };
    assert_eq!(play("256"), play("1"));
}

/// `arena stats … --out DIR` of a short run.
fn stats_into(folder: &Path, seed: &str) -> std::process::Output {
    run(
        "stats",
        &[
            "column-drop+elashi",
            "--pieces",
            "200",
            "--seed",
            seed,
            "--board-height",
            "6",
            "--out",
            text(folder),
        ],
    )
}

fn names(folder: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(folder)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_stats_folder_is_replaced_whole_and_leftovers_of_killed_runs_are_cleaned() {
    let folder = scratch_folder("hardening", "stats-out");
    let out = folder.join("out");
    assert!(stats_into(&out, "1").status.success());
    let files = [
        "cell_heat_map.svg",
        "column_shares.svg",
        "full_clear_intervals.svg",
        "row_shares.svg",
        "stats.json",
    ];
    assert_eq!(names(&out), files);
    // What a SIGKILL in the write windows leaves: a half-written folder and a half-written
    // file of a process that no longer runs.
    let stale_folder = folder.join(format!(".out.{DEAD_PID}.tmp"));
    fs::create_dir(&stale_folder).unwrap();
    fs::write(stale_folder.join("stats.json"), "{").unwrap();
    fs::write(out.join(format!(".stats.json.{DEAD_PID}.tmp")), "{").unwrap();
    assert!(stats_into(&out, "2").status.success());
    assert_eq!(names(&folder), ["out"]);
    assert_eq!(names(&out), files);
    let json: Value = serde_json::from_str(&fs::read_to_string(out.join("stats.json")).unwrap())
        .expect("a whole stats.json");
    assert_eq!(json["seed"], 2);
    // A folder holding anything else is not replaced (it would be lost).
    fs::write(out.join("notes.txt"), "mine").unwrap();
    let output = stats_into(&out, "3");
    assert_eq!(output.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("holds \"notes.txt\""),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(fs::read_to_string(out.join("notes.txt")).unwrap(), "mine");
    fs::remove_dir_all(&folder).unwrap();
}

/// Starts `arena ARGS…`, waits until it catches SIGINT (its Ctrl-C handler is installed,
/// read from /proc: no timing involved), sends SIGINT and returns its exit code and stderr.
#[cfg(target_os = "linux")]
fn interrupt(args: &[&str]) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let status = PathBuf::from(format!("/proc/{}/status", child.id()));
    // Not a timing of the command: a guard so that a command that never installs its handler
    // (or ends first) fails this test instead of hanging CI.
    let give_up = std::time::Instant::now() + std::time::Duration::from_secs(120);
    loop {
        if let Some(exit) = child.try_wait().unwrap() {
            panic!("{args:?} ended ({exit}) before it caught Ctrl-C");
        }
        if std::time::Instant::now() > give_up {
            child.kill().unwrap();
            panic!("{args:?} did not install a Ctrl-C handler within 120 s");
        }
        let caught = fs::read_to_string(&status)
            .ok()
            .and_then(|text| {
                let line = text
                    .lines()
                    .find(|line| line.starts_with("SigCgt:"))?
                    .to_string();
                u64::from_str_radix(line.trim_start_matches("SigCgt:").trim(), 16).ok()
            })
            .unwrap_or(0);
        // Bit 1 is signal 2, SIGINT.
        if caught & 2 != 0 {
            break;
        }
        std::thread::yield_now();
    }
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let output = child.wait_with_output().unwrap();
    assert!(
        output.stdout.is_empty(),
        "{args:?}: nothing is printed: {}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (
        output.status.code(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

#[cfg(target_os = "linux")]
#[test]
fn ctrl_c_ends_play_stats_and_tune_with_an_error_that_says_what_was_kept() {
    let folder = scratch_folder("hardening", "ctrl-c");
    let record = folder.join("game.json");
    let checkpoint = folder.join("checkpoint.json");
    let weights = folder.join("w.json");
    let stats_out = folder.join("stats");
    let runs: [(Vec<&str>, &str); 3] = [
        // Strong strategies practically never top out on 10 × 20: the games outlast the test.
        (
            vec!["play", "bfs+elashi@2", "--record", text(&record)],
            "error: interrupted by Ctrl-C after ",
        ),
        (
            vec![
                "stats",
                "bfs+elashi",
                "--pieces",
                "1000000000",
                "--seed",
                "0",
                "--out",
                text(&stats_out),
            ],
            "error: interrupted by Ctrl-C: 0 of 1 blocks finished; nothing was written",
        ),
        (
            vec![
                "tune",
                "elashi",
                "--games",
                "1000",
                "--population",
                "2",
                "--max-pieces",
                "1000000",
                "--checkpoint",
                text(&checkpoint),
                "--out",
                text(&weights),
            ],
            "error: interrupted by Ctrl-C: iteration 0 was dropped; 0 of 10 iterations \
             finished; nothing was written",
        ),
    ];
    for (args, expected) in runs {
        let (code, stderr) = interrupt(&args);
        assert_eq!(code, Some(common::INTERRUPTED), "{args:?}: {stderr}");
        let mut lines: Vec<&str> = stderr.lines().collect();
        // A game without a piece cap is announced first, on a terminal or not.
        if args[0] == "play" {
            assert!(
                lines[0].starts_with("note: no --max-pieces: on 10 x 20 strong strategies"),
                "{stderr}"
            );
            lines.remove(0);
        }
        assert_eq!(lines.len(), 2, "the note, then the error: {stderr}");
        assert!(lines[0].starts_with("interrupted: "), "{stderr}");
        assert!(
            !lines[0].contains("finished games are written"),
            "the note is the command's own: {stderr}"
        );
        assert!(lines[1].starts_with(expected), "{args:?}: {stderr}");
    }
    assert_eq!(names(&folder), Vec::<String>::new(), "nothing was written");
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

/// `arena sequence` streams its letters: a million of them are the generator's first million
/// (the library test checks that no write is larger than a chunk), and a piece file holding
/// fewer pieces than asked prints nothing and one error line.
#[test]
fn a_large_sequence_is_streamed_and_equals_the_generator() {
    let output = run(
        "sequence",
        &["--generator", "bag7", "--seed", "5", "--count", "1000000"],
    );
    assert!(output.status.success());
    assert_eq!(output.stdout.len(), 1_000_001);
    assert_eq!(output.stdout.last(), Some(&b'\n'));
    let short = run(
        "sequence",
        &["--generator", "bag7", "--seed", "5", "--count", "70000"],
    );
    assert_eq!(&output.stdout[..70_000], &short.stdout[..70_000]);
    // Every window of 7 aligned pieces of a 7-bag holds each piece once.
    for bag in output.stdout[..1_000_000 - 1_000_000 % 7].chunks(7) {
        let mut sorted = bag.to_vec();
        sorted.sort_unstable();
        assert_eq!(sorted, b"IJLOSTZ");
    }
    let folder = scratch_folder("hardening", "sequence");
    let pieces = folder.join("three.txt");
    fs::write(&pieces, "T J Z").unwrap();
    let generator = format!("file:{}", pieces.display());
    assert_eq!(
        fail("sequence", &["--generator", &generator, "--count", "4"]),
        format!("error: --count 4: {generator} holds only 3 pieces")
    );
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

/// `tune --population 100000` once took 2.7 GB with one game: the population and the games
/// per iteration are bounded up front.
#[test]
fn a_tuning_population_is_bounded_up_front() {
    let folder = scratch_folder("hardening", "population");
    let out = folder.join("w.json");
    assert_eq!(
        fail(
            "tune",
            &["elashi", "--population", "100000", "--out", text(&out)]
        ),
        "error: --population must be from 2 to 20000"
    );
    assert_eq!(
        fail(
            "tune",
            &[
                "elashi",
                "--population",
                "20000",
                "--games",
                "501",
                "--out",
                text(&out)
            ]
        ),
        "error: --population 20000 × --games 501 is 10020000 games per iteration, at most \
         10000000 (every game's value is kept in memory)"
    );
    assert!(!out.exists());
    fs::remove_dir_all(&folder).unwrap();
}
