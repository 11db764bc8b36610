//! `arena tune` run as the built binary: a resumed run writes the same weights as an
//! uninterrupted one, `--jobs` does not change the result, the result loads as a strategy,
//! and bad inputs give one `error:` line with exit code 2.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

use crate::common;

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
        // The whole state (method, history, best) matches too, not only the best weights;
        // only the command that wrote it differs.
        assert_eq!(
            common::text_without_made_by(&fs::read_to_string(&whole_checkpoint).unwrap()),
            common::text_without_made_by(&fs::read_to_string(&checkpoint).unwrap()),
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

/// `arena tune`'s arguments for nes-plateau with the gamepad searcher on plateau games from
/// level 18 with 18 reaction frames.
const PLATEAU_FROM_18: [&str; 9] = [
    "nes-plateau",
    "--searcher",
    "gamepad",
    "--fitness",
    "plateau-score",
    "--start-level",
    "18",
    "--reaction-frames",
    "18",
];

/// The points before level 29 of `arena nes STRATEGY`'s one game of `seed` from level 18
/// with 18 reaction frames.
fn points_from_18(strategy: &str, seed: &str) -> f64 {
    let played = common::run_json(
        "nes",
        &[
            strategy,
            "--games",
            "1",
            "--seed",
            seed,
            "--start-level",
            "18",
            "--reaction-frames",
            "18",
        ],
    );
    played["summary"]["mean_points_before_level_29"]
        .as_f64()
        .unwrap()
}

#[test]
fn plateau_score_plays_the_given_player_from_the_given_weights() {
    let folder = scratch_folder("plateau-player");
    let out = folder.join("player.json");
    let checkpoint = folder.join("player.ckpt");
    // Two candidates a billionth of each weight away from the low-stack preset: they play
    // as the preset does, so each one's fitness is the points before level 29 that `arena
    // nes` measures for the preset on the iteration's game.
    let mut args = PLATEAU_FROM_18.to_vec();
    args.extend([
        "--start",
        "low-stack",
        "--start-spread",
        "1e-9",
        "--games",
        "1",
        "--population",
        "2",
        "--iterations",
        "1",
        "--seed",
        "3",
        "--out",
        text(&out),
        "--checkpoint",
        text(&checkpoint),
    ]);
    tune_ok(&args);
    let saved: Value = serde_json::from_str(&fs::read_to_string(&checkpoint).unwrap()).unwrap();
    assert_eq!(saved["settings"]["start_level"], 18);
    assert_eq!(saved["settings"]["reaction_frames"], 18);
    let record = &saved["history"][0];
    let seed = record["first_game_seed"].as_u64().unwrap().to_string();
    let points = points_from_18("gamepad+nes-plateau:low-stack@1", &seed);
    assert!(points > 0.0, "{points}");
    assert_eq!(record["best"].as_f64().unwrap(), points, "{record}");
    assert_eq!(record["mean"].as_f64().unwrap(), points, "{record}");
    // CEM started at the preset: its starting deviations are 1e-9 of each (normalised)
    // weight, which the first update scales its noise to.
    let start_std = saved["state"]["start_std"].as_array().unwrap();
    assert_eq!(start_std.len(), 18);
    assert!(start_std.iter().all(|std| std.as_f64().unwrap() < 1e-9));
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn strategy_options_play_every_candidate_at_the_length_of_its_start() {
    let folder = scratch_folder("options");
    let out = folder.join("options.json");
    let checkpoint = folder.join("options.ckpt");
    // The options given out of their order; the candidates a billionth of each weight away
    // from low-stack, which is 20.87 long: played at that length, the options' costs weigh
    // what they weigh beside the preset, so each candidate's fitness is the preset's with the
    // options, which differs from the preset's alone on this game.
    let options = "overdeep-wells=3,extra-deep-wells=5";
    let run = |iterations: &str, options: &str| {
        let mut args = vec!["tune"];
        args.extend(PLATEAU_FROM_18);
        args.extend([
            "--games",
            "1",
            "--population",
            "2",
            "--iterations",
            iterations,
            "--seed",
            "3",
            "--options",
            options,
            "--out",
            text(&out),
            "--checkpoint",
            text(&checkpoint),
        ]);
        match iterations {
            "1" => args.extend(["--start", "low-stack", "--start-spread", "1e-9"]),
            _ => args.push("--resume"),
        }
        arena(&args)
    };
    let first = run("1", options);
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let saved: Value = serde_json::from_str(&fs::read_to_string(&checkpoint).unwrap()).unwrap();
    let settings = &saved["settings"];
    assert_eq!(settings["options"], "extra-deep-wells=5,overdeep-wells=3");
    let scale = settings["weight_scale"].as_f64().unwrap();
    assert!((20.8..20.9).contains(&scale), "{settings}");
    let record = &saved["history"][0];
    let seed = record["first_game_seed"].as_u64().unwrap().to_string();
    let points = |strategy: &str| points_from_18(strategy, &seed);
    let with_options = points("gamepad+nes-plateau:low-stack,extra-deep-wells=5,overdeep-wells=3");
    assert_eq!(record["best"].as_f64().unwrap(), with_options, "{record}");
    assert_eq!(record["mean"].as_f64().unwrap(), with_options, "{record}");
    assert_ne!(points("gamepad+nes-plateau:low-stack"), with_options);
    // The weights file holds the best candidate at that length: with the options it plays
    // the same game.
    let file = format!("gamepad+nes-plateau:{},{options}", text(&out));
    assert_eq!(points(&file), with_options);
    // A resumed run takes the length from its checkpoint; other options are refused.
    let resumed = run("2", options);
    assert!(
        resumed.status.success(),
        "{}",
        String::from_utf8_lossy(&resumed.stderr)
    );
    let other = run("3", "overdeep-wells=3");
    let stderr = String::from_utf8(other.stderr).unwrap();
    assert_eq!(other.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(
            r#"--options is "extra-deep-wells=5,overdeep-wells=3" in the checkpoint but "overdeep-wells=3" now"#
        ),
        "{stderr}"
    );
    // A length that is no length (edited by hand) is refused, named.
    let mut edited: Value =
        serde_json::from_str(&fs::read_to_string(&checkpoint).unwrap()).unwrap();
    edited["settings"]["weight_scale"] = serde_json::json!(-1.0);
    fs::write(&checkpoint, edited.to_string()).unwrap();
    let refused = run("3", options);
    let stderr = String::from_utf8(refused.stderr).unwrap();
    assert_eq!(refused.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("weight_scale is -1"), "{stderr}");
}

#[test]
fn bad_inputs_exit_2_with_one_error_line() {
    let folder = scratch_folder("bad");
    let out = folder.join("out.json");
    let out = text(&out);
    let garbage = folder.join("garbage.json");
    fs::write(&garbage, "{not json").unwrap();
    let missing = folder.join("missing.json");
    let zeros = folder.join("zeros.json");
    fs::write(
        &zeros,
        r#"{"evaluator": "elashi", "weights": {"rows_cleared": 0, "lock_height": 0,
            "wells": 0, "holes": 0, "column_transitions": 0, "row_transitions": 0}}"#,
    )
    .unwrap();
    let plateau = ["nes-plateau", "--fitness", "plateau-score"];
    let mut cases: Vec<Vec<&str>> = vec![
        // The NES player belongs to the plateau fitness; its games stop at 29; a searcher
        // that ignores gravity has no reaction time.
        vec!["elashi", "--start-level", "18", "--out", out],
        vec!["elashi", "--reaction-frames", "18", "--out", out],
        vec!["elashi", "--timeline", "X...", "--out", out],
        [&plateau[..], &["--start-level", "29", "--out", out]].concat(),
        [&plateau[..], &["--reaction-frames", "18", "--out", out]].concat(),
        [&plateau[..], &["--timeline", "X", "--out", out]].concat(),
        // --start: CEM only, known weights, not all 0, not an output, a spread in (0, 10]
        // (below).
        vec![
            "elashi",
            "--method",
            "pso",
            "--start",
            "published",
            "--out",
            out,
        ],
        vec!["elashi", "--start", "nope", "--out", out],
        vec!["elashi", "--start", text(&zeros), "--out", out],
        vec!["elashi", "--start", out, "--out", out],
        vec!["elashi", "--start-spread", "0.5", "--out", out],
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
        vec!["elashi", "--out", out, "--resume"],
        // --options: a strategy's rules, and no pattern file.
        vec!["elashi", "--options", "bogus", "--out", out],
        vec!["elashi", "--options", "extra-deep-wells=5", "--out", out],
        vec!["elashi", "--options", "playouts=16", "--out", out],
        vec!["elashi", "--options", "pattern=x.txt", "--out", out],
    ];
    for spread in ["0", "11", "NaN"] {
        let case = ["elashi", "--start", "published", "--start-spread", spread];
        cases.push([&case[..], &["--out", out]].concat());
    }
    for case in cases {
        let mut args = vec!["tune"];
        args.extend(&case);
        let output = arena(&args);
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(output.status.code(), Some(2), "{case:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{case:?}: {stderr}");
        assert!(stderr.starts_with("error:"), "{case:?}: {stderr}");
    }
    // Files the system cannot read or write there (a start weights file that is not there,
    // an output in a folder that is not there): I/O, exit code 3.
    let line = crate::common::fail_with(
        crate::common::IO,
        "tune",
        &["elashi", "--start", text(&missing), "--out", out],
    );
    assert!(line.contains("missing.json: No such file"), "{line}");
    let line = crate::common::fail_with(
        crate::common::IO,
        "tune",
        &[
            "elashi",
            "--out",
            out,
            "--checkpoint",
            text(&missing),
            "--resume",
        ],
    );
    assert!(line.contains("missing.json: No such file"), "{line}");
    let line = crate::common::fail_with(
        crate::common::IO,
        "tune",
        &["elashi", "--out", "/nonexistent-folder/out.json"],
    );
    assert!(line.contains("folder does not exist"), "{line}");
    assert!(!Path::new(out).exists());
    fs::remove_dir_all(&folder).unwrap();
}

/// `arena tune` with `small("cem")` (or `method`), 2 iterations, `--out` and `--checkpoint` in
/// `folder` under `name`, and `extra` options; returns the output.
fn tune_two_iterations(folder: &Path, name: &str, method: &'static str, extra: &[&str]) -> Output {
    let out = folder.join(format!("{name}.json"));
    let checkpoint = folder.join(format!("{name}-checkpoint.json"));
    let mut args = vec!["tune"];
    args.extend(small(method));
    args.extend([
        "--iterations",
        "2",
        "--out",
        text(&out),
        "--checkpoint",
        text(&checkpoint),
    ]);
    args.extend(extra);
    arena(&args)
}

/// The weights and checkpoint files of run `name` in `folder` equal those of run `reference`
/// (but for the command that wrote the checkpoint).
fn assert_same_files(folder: &Path, name: &str, reference: &str) {
    for suffix in [".json", "-checkpoint.json"] {
        let read = |run: &str| {
            let text = fs::read_to_string(folder.join(format!("{run}{suffix}"))).unwrap();
            match suffix {
                ".json" => text,
                _ => common::text_without_made_by(&text),
            }
        };
        assert_eq!(read(reference), read(name), "{name}{suffix}");
    }
}

/// The names of the files and folders in `folder`, sorted.
fn listing(folder: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(folder)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    names.sort();
    names
}

#[test]
fn a_tune_through_a_runner_command_equals_the_in_process_tune() {
    let folder = scratch_folder("runner");
    for method in ["cem", "pso"] {
        let reference = format!("{method}-in-process");
        let output = tune_two_iterations(&folder, &reference, method, &[]);
        assert!(output.status.success());
        let in_process_stdout = output.stdout;
        // What the in-process run says on stderr (nothing, or the warning that the fitness
        // never moved): a runner adds nothing to it.
        let in_process_stderr = output.stderr;
        let runners = [
            // xargs -P 2 over the task numbers.
            (
                "xargs",
                "xargs -P 2 -I % {arena} tune-task {dir} --task % < {ids}",
            ),
            // Each line of the tasks file through sh, one after the other.
            (
                "lines",
                r#"while IFS= read -r line; do sh -c "$line"; done < {tasks}"#,
            ),
            // Like an array job: {count} processes at once, each picking its task by index.
            (
                "array",
                "n=0; while [ $n -lt {count} ]; do {arena} tune-task {dir} --index $n & \
                 n=$((n+1)); done; wait",
            ),
        ];
        for (runner_name, runner) in runners {
            let name = format!("{method}-{runner_name}");
            let output = tune_two_iterations(&folder, &name, method, &["--runner", runner]);
            assert!(
                output.status.success(),
                "{name}: {}",
                String::from_utf8_lossy(&output.stderr)
            );
            // Each names its own files.
            assert_eq!(
                String::from_utf8_lossy(&output.stderr).replace(&name, &reference),
                String::from_utf8_lossy(&in_process_stderr),
                "{name}"
            );
            assert_same_files(&folder, &name, &reference);
            // The report on stdout is the same too (it names the output file).
            assert_eq!(
                String::from_utf8_lossy(&output.stdout).replace(&name, &reference),
                String::from_utf8_lossy(&in_process_stdout),
                "{name}"
            );
        }
    }
    // No work folder (CHECKPOINT.tasks) or stray file is left.
    let mut expected = Vec::new();
    for method in ["cem", "pso"] {
        for name in ["in-process", "xargs", "lines", "array"] {
            expected.push(format!("{method}-{name}-checkpoint.json"));
            expected.push(format!("{method}-{name}.json"));
        }
    }
    expected.sort();
    assert_eq!(listing(&folder), expected);
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn tasks_that_were_skipped_or_broken_are_run_again_with_the_same_result() {
    let folder = scratch_folder("retry");
    assert!(
        tune_two_iterations(&folder, "in-process", "cem", &[])
            .status
            .success()
    );
    // On its first call the runner truncates task 1's result (as a task killed while writing
    // without an atomic rename would leave it) and exits before running task 3, so tasks 3
    // and 4 have no result. Every call logs the task numbers it was given.
    let script = folder.join("runner.sh");
    fs::write(
        &script,
        r#"tasks=$1; ids=$2; dir=$3; log=$4
echo "call: $(tr '\n' ' ' < "$ids")" >> "$log"
first=no
if [ ! -e "$log.mark" ]; then first=yes; : > "$log.mark"; fi
n=0
while IFS= read -r line; do
  if [ $first = yes ] && [ $n = 3 ]; then exit 1; fi
  sh -c "$line"
  if [ $first = yes ] && [ $n = 1 ]; then
    head -c 20 "$dir/result-1.json" > "$dir/cut" && mv "$dir/cut" "$dir/result-1.json"
  fi
  n=$((n+1))
done < "$tasks"
"#,
    )
    .unwrap();
    let log = folder.join("calls.log");
    let runner = format!(
        "sh {} {{tasks}} {{ids}} {{dir}} {}",
        text(&script),
        text(&log)
    );
    let work = folder.join("work");
    let output = tune_two_iterations(
        &folder,
        "retried",
        "cem",
        &["--runner", &runner, "--work-dir", text(&work)],
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert_same_files(&folder, "retried", "in-process");
    assert_eq!(
        fs::read_to_string(&log).unwrap(),
        "call: 0 1 2 3 4 \ncall: 1 3 4 \ncall: 0 1 2 3 4 \n"
    );
    let notes: Vec<&str> = stderr.lines().collect();
    assert_eq!(notes.len(), 4, "{stderr}");
    assert_eq!(
        notes[2..],
        [
            format!(
                "checkpoint written to {}",
                folder.join("retried-checkpoint.json").display()
            ),
            format!(
                "tuned weights written to {}",
                folder.join("retried.json").display()
            ),
        ]
    );
    assert_eq!(notes[0], "note: --runner exited with exit status: 1");
    assert!(
        notes[1].starts_with(
            "note: iteration 0: no valid result for tasks 1, 3, 4 (result-1.json: not a task \
             result"
        ) && notes[1].contains("result-3.json: missing; result-4.json: missing")
            && notes[1].ends_with("running them again (retry 1 of 2)"),
        "{stderr}"
    );
    // The work folder was created by the tuner and is gone.
    assert!(!work.exists());
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn a_task_that_never_gives_a_result_is_named_in_one_error_line() {
    let folder = scratch_folder("never");
    let work = folder.join("work");
    fs::create_dir(&work).unwrap();
    fs::write(work.join("notes.txt"), "mine").unwrap();
    let runner = r#"while IFS= read -r id; do [ "$id" = 2 ] || {arena} tune-task {dir} --task "$id"; done < {ids}"#;
    let output = tune_two_iterations(
        &folder,
        "never",
        "cem",
        &[
            "--runner",
            runner,
            "--retries",
            "1",
            "--work-dir",
            text(&work),
        ],
    );
    // The outside runner gave no result: an engine's fault, exit code 4.
    assert_eq!(output.status.code(), Some(crate::common::ENGINE));
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8(output.stderr).unwrap();
    let lines: Vec<&str> = stderr.lines().collect();
    // One note for the retry, then the error.
    assert_eq!(lines.len(), 2, "{stderr}");
    assert!(lines[0].starts_with("note: iteration 0: no valid result for task 2 "));
    assert!(
        lines[1].starts_with(
            "error: --runner: iteration 0: no valid result for task 2 after 2 runs of the \
             command (result-2.json: missing); the task files are in"
        ),
        "{stderr}"
    );
    assert!(!folder.join("never.json").exists());
    // The user's file in the work folder is untouched; the task files are kept to inspect.
    assert_eq!(fs::read_to_string(work.join("notes.txt")).unwrap(), "mine");
    assert!(work.join("iteration.json").exists());

    // A template that names no task list, --retries without --runner, and a task the work
    // folder does not hold are usage errors; tune-task in a folder without an iteration file
    // cannot read it (I/O, exit code 3).
    let out = folder.join("out.json");
    let line = crate::common::fail_with(
        crate::common::IO,
        "tune-task",
        &[text(&folder), "--task", "0"],
    );
    assert!(line.contains("iteration.json: No such file"), "{line}");
    for args in [
        vec!["tune", "elashi", "--out", text(&out), "--runner", "true"],
        vec!["tune", "elashi", "--out", text(&out), "--retries", "1"],
        vec!["tune-task", text(&work), "--task", "5"],
        vec!["tune-task", text(&work)],
    ] {
        let output = arena(&args);
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("error:"), "{args:?}: {stderr}");
    }
    fs::remove_dir_all(&folder).unwrap();
}

/// Runs `arena tune` with `small("cem")`, one iteration, `extra` options and a runner that
/// plays nothing (no retry), which must fail; its one `error:` line.
fn refused(extra: &[&str]) -> String {
    let mut args = vec!["tune"];
    args.extend(small("cem"));
    args.extend([
        "--iterations",
        "1",
        "--runner",
        "true {tasks}",
        "--retries",
        "0",
    ]);
    args.extend(extra);
    let output = arena(&args);
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(2), "{extra:?}: {stderr}");
    assert!(output.stdout.is_empty(), "{extra:?}");
    assert_eq!(stderr.lines().count(), 1, "{extra:?}: {stderr}");
    stderr.trim_end().to_string()
}

#[test]
fn the_work_folder_is_none_of_the_runs_other_files_and_holds_none() {
    let folder = scratch_folder("work-folder");
    let path = |name: &str| folder.join(name).display().to_string();
    let work = path("work");
    fs::create_dir(&work).unwrap();
    // A checkpoint named like the tuner's iteration file, in the work folder: resuming
    // through the runner used to overwrite it with the iteration file, then remove it.
    let checkpoint = path("work/iteration.json");
    let first = tune_two_iterations(&folder, "first", "cem", &[]);
    assert!(first.status.success());
    fs::copy(path("first-checkpoint.json"), &checkpoint).unwrap();
    let saved = fs::read(&checkpoint).unwrap();
    let out = path("w.json");
    assert_eq!(
        refused(&[
            "--checkpoint",
            &checkpoint,
            "--resume",
            "--out",
            &out,
            "--work-dir",
            &work
        ]),
        format!(
            "error: --work-dir {work} holds the --checkpoint {checkpoint}, and the folder is \
             this command's own (replaced as a whole, or its files written and removed): give \
             a folder that holds none of this command's other files"
        )
    );
    assert_eq!(
        fs::read(&checkpoint).unwrap(),
        saved,
        "the checkpoint is untouched"
    );
    // An output named like a task's result file: the tuner used to remove it.
    let result = path("work/result-0.json");
    fs::write(&result, "{}").unwrap();
    assert!(
        refused(&["--out", &result, "--work-dir", &work]).starts_with(&format!(
            "error: --work-dir {work} holds the --out {result}, and the folder is this \
             command's own"
        ))
    );
    assert_eq!(fs::read_to_string(&result).unwrap(), "{}");
    // The run's piece file in the work folder, or as the work folder.
    let pieces = path("work/pieces.txt");
    fs::write(&pieces, "TJZOSLI\n").unwrap();
    let generator = format!("file:{pieces}");
    assert!(
        refused(&[
            "--generator",
            &generator,
            "--out",
            &out,
            "--work-dir",
            &work
        ])
        .starts_with(&format!(
            "error: --work-dir {work} holds the piece file {pieces}, and the folder"
        ))
    );
    assert_eq!(
        refused(&[
            "--generator",
            &generator,
            "--out",
            &out,
            "--work-dir",
            &pieces
        ]),
        format!(
            "error: --work-dir {pieces} is the same file as the piece file {pieces} this \
             command reads: writing it would destroy the input; give another file"
        )
    );
    // The work folder as the weights or the checkpoint file.
    let weights = path("first.json");
    let same = |first: &str, second: &str| {
        format!(
            "error: {first} and {second} are the same file: one output would overwrite the \
             other; give two files"
        )
    };
    assert_eq!(
        refused(&["--out", &weights, "--work-dir", &weights]),
        same(
            &format!("--out {weights}"),
            &format!("--work-dir {weights}")
        )
    );
    let first_checkpoint = path("first-checkpoint.json");
    assert_eq!(
        refused(&[
            "--checkpoint",
            &first_checkpoint,
            "--resume",
            "--out",
            &out,
            "--work-dir",
            &first_checkpoint
        ]),
        same(
            &format!("--checkpoint {first_checkpoint}"),
            &format!("--work-dir {first_checkpoint}")
        )
    );
    // The default work folder, CHECKPOINT.tasks, as the weights file.
    let tasks = format!("{first_checkpoint}.tasks");
    fs::write(&tasks, "weights").unwrap();
    assert_eq!(
        refused(&[
            "--checkpoint",
            &first_checkpoint,
            "--resume",
            "--out",
            &tasks
        ]),
        same(&format!("--out {tasks}"), &format!("--work-dir {tasks}"))
    );
    assert_eq!(fs::read_to_string(&tasks).unwrap(), "weights");
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn a_task_result_is_never_the_tasks_piece_file() {
    let folder = scratch_folder("task-result");
    let path = |name: &str| folder.join(name).display().to_string();
    let pieces = path("pieces.txt");
    fs::write(&pieces, "TJZOSLI".repeat(20)).unwrap();
    // A runner that keeps a copy of the iteration file and plays nothing.
    let copy = path("copy");
    fs::create_dir(&copy).unwrap();
    let runner = format!("cp {{dir}}/iteration.json {copy}/");
    let generator = format!("file:{pieces}");
    let output = tune_two_iterations(
        &folder,
        "kept",
        "cem",
        &[
            "--generator",
            &generator,
            "--runner",
            &runner,
            "--retries",
            "0",
        ],
    );
    // The outside runner gave no result: an engine's fault, exit code 4.
    assert_eq!(output.status.code(), Some(crate::common::ENGINE));
    // The task's result file, a hard link to the piece file the task reads.
    let result = path("copy/result-0.json");
    fs::hard_link(&pieces, &result).unwrap();
    let output = arena(&["tune-task", &copy, "--task", "0"]);
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        format!(
            "error: result file {result} is the same file as the piece file {pieces} this \
             command reads: writing it would destroy the input; give another file\n"
        )
    );
    assert_eq!(output.status.code(), Some(2));
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn the_report_shows_the_weights_aligned_with_six_decimals_and_the_file_keeps_every_digit() {
    let folder = scratch_folder("report");
    let output = tune_two_iterations(&folder, "shown", "cem", &[]);
    assert!(output.status.success());
    let stdout = String::from_utf8(output.stdout).unwrap();
    let file: Value =
        serde_json::from_slice(&fs::read(folder.join("shown.json")).unwrap()).unwrap();
    let weights = file["weights"].as_object().unwrap();
    // The weights file holds the checkpoint's best weights exactly (JSON numbers that read
    // back to the same f64).
    let checkpoint: Value =
        serde_json::from_slice(&fs::read(folder.join("shown-checkpoint.json")).unwrap()).unwrap();
    let best: Vec<f64> = checkpoint["best"]["weights"]
        .as_array()
        .unwrap()
        .iter()
        .map(|value| value.as_f64().unwrap())
        .collect();
    let features = checkpoint["features"].as_array().unwrap();
    assert_eq!(features.len(), 7);
    for (name, value) in features.iter().zip(&best) {
        let name = name.as_str().unwrap();
        assert_eq!(weights[name].as_f64().unwrap().to_bits(), value.to_bits());
    }
    // The report: after its header, one line per feature, `  NAME = VALUE`, the names padded
    // to the longest (dellacherie's `eroded_piece_cells`, 18 characters) and the values
    // right-aligned with six decimals.
    let lines: Vec<&str> = stdout.lines().collect();
    let header = lines
        .iter()
        .position(|line| line.starts_with("Best fitness"))
        .unwrap();
    let shown = &lines[header + 1..];
    assert_eq!(shown.len(), 7, "{stdout}");
    let width = best
        .iter()
        .map(|value| format!("{value:.6}").len())
        .max()
        .unwrap();
    for ((line, name), value) in shown.iter().zip(features).zip(&best) {
        let name = name.as_str().unwrap();
        assert_eq!(
            *line,
            format!("  {name:<18}  =  {:>width$}", format!("{value:.6}")),
            "{stdout}"
        );
        // Six decimals: the value to within half a millionth.
        let printed: f64 = line.rsplit(' ').next().unwrap().parse().unwrap();
        assert!((printed - value).abs() <= 5e-7, "{line}");
    }
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn a_checkpoint_whose_history_figures_disagree_is_refused_naming_the_field() {
    // Two iterations of the small run (mean lines of 3 games of at most 200 pieces, 5
    // candidates): each figure of a history record follows from the others and the
    // settings, so an edit that breaks that is refused on resume, naming the field, and the
    // checkpoint is left as it was.
    let folder = scratch_folder("history-figures");
    let checkpoint = folder.join("checkpoint.json");
    let out = folder.join("weights.json");
    let mut args = small("cem");
    args.extend([
        "--iterations",
        "2",
        "--out",
        text(&out),
        "--checkpoint",
        text(&checkpoint),
    ]);
    tune_ok(&args);
    let saved: Value = serde_json::from_slice(&fs::read(&checkpoint).unwrap()).unwrap();
    let best = saved["history"][1]["best"].as_f64().unwrap();
    assert!(best > 0.0, "the run scores lines: {saved}");
    // Each case: history[1]'s best and mean; a best above the run's best moves the best
    // candidate's fitness (and iteration) with it, so that every rule of before still holds.
    let cases: [(f64, f64, String); 5] = [
        // The issue's reproduction: a mean 2 above the iteration's best (3 there).
        (
            best,
            best + 2.0,
            format!(
                "history[1].mean: {} is above the iteration's best, {best}",
                best + 2.0
            ),
        ),
        // The other 4 candidates score 0 or more: the mean is at least a fifth of the best.
        (
            best,
            0.0,
            "history[1].mean: 0 is below the iteration's best shared by its 5".into(),
        ),
        // 3 games of whole lines: a fitness is a multiple of 1/3.
        (
            80.5,
            80.5,
            "history[1].best: 80.5 is no candidate's fitness".into(),
        ),
        // 15 games in all: the mean is a multiple of 1/15 (0.6 × best is one).
        (
            best,
            0.6 * best + 1.0 / 45.0,
            format!(
                "history[1].mean: {} is no mean of 5 candidates' fitness",
                0.6 * best + 1.0 / 45.0
            ),
        ),
        // 200 pieces fill 800 cells, 80 rows of 10.
        (
            81.0,
            81.0,
            "history[1].best: 81 is more than a game of these settings gives (80".into(),
        ),
    ];
    for (index, (best, mean, expected)) in cases.into_iter().enumerate() {
        let mut edited = saved.clone();
        edited["history"][1]["best"] = best.into();
        edited["history"][1]["mean"] = mean.into();
        if best > saved["best"]["fitness"].as_f64().unwrap() {
            edited["best"]["fitness"] = best.into();
            edited["best"]["iteration"] = 1.into();
        }
        let path = folder.join(format!("edited-{index}.json"));
        let text_before = edited.to_string();
        fs::write(&path, &text_before).unwrap();
        let mut resume = small("cem");
        resume.extend([
            "--iterations",
            "3",
            "--out",
            text(&out),
            "--checkpoint",
            text(&path),
            "--resume",
        ]);
        let message = common::fail("tune", &resume);
        assert!(
            message.starts_with(&format!("error: checkpoint {}: {expected}", path.display())),
            "{message}"
        );
        assert_eq!(fs::read_to_string(&path).unwrap(), text_before);
    }
    fs::remove_dir_all(&folder).unwrap();
}
