//! Sharded runs (`--shard K/N`) and `arena merge`, run as the built binary: a tournament, an
//! `nes` run and a `stats` run, each as 3 shards merged, print and write byte for byte what
//! the unsharded run does (after removing the timings: the JSON `timing` object, the CSV
//! `seconds` column, the wall-time lines and the tournament's pieces/s column), and merge
//! rejects a missing shard, a duplicated shard and parts of different settings with one
//! `error:` line and exit code 2.

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common;

/// Runs `arena COMMAND ARGS…`, which must succeed with nothing on stderr but the lines
/// naming the files it wrote; its stdout.
fn ok(command: &str, args: &[&str]) -> String {
    let output = common::run(command, args);
    assert!(
        output.status.success(),
        "{command} {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    common::assert_only_written_lines(&output.stderr);
    String::from_utf8(output.stdout).unwrap()
}

fn path(folder: &Path, name: &str) -> String {
    folder.join(name).to_str().unwrap().to_string()
}

/// With `args`, runs `command` unsharded and as shards 0/3, 1/3, 2/3 (each with `--out
/// partK.json`, the last one with 2 jobs), and returns the three part paths.
fn run_shards(command: &str, args: &[&str], folder: &Path) -> Vec<String> {
    (0..3)
        .map(|index| {
            let part = path(folder, &format!("part{index}.json"));
            let shard = format!("{index}/3");
            let mut all = args.to_vec();
            all.extend(["--shard", &shard, "--out", &part]);
            if index == 2 {
                all.extend(["--jobs", "2"]);
            }
            let stdout = ok(command, &all);
            assert!(
                stdout.starts_with(&format!("{command} shard {index}/3: ")),
                "{stdout}"
            );
            let json: Value = serde_json::from_str(&fs::read_to_string(&part).unwrap()).unwrap();
            assert_eq!(json["format"], "tetris-arena-part");
            assert_eq!(json["version"], 2);
            assert_eq!(json["command"], command);
            assert_eq!(json["shard"]["index"], index);
            assert_eq!(json["shard"]["count"], 3);
            part
        })
        .collect()
}

/// Runs `arena merge PARTS… EXTRA…`; its stdout.
fn merge(parts: &[String], extra: &[&str]) -> String {
    let mut args: Vec<&str> = parts.iter().map(String::as_str).collect();
    args.extend(extra);
    ok("merge", &args)
}

/// JSON text without its `timing` object.
fn json_without_timing(text: &str) -> Value {
    common::without_timing(serde_json::from_str(text).unwrap())
}

/// CSV text without its last column, `seconds` (no field of these runs holds a comma).
fn csv_without_seconds(text: &str) -> String {
    let mut lines = text.lines();
    assert!(lines.next().unwrap().ends_with(",seconds"));
    text.lines()
        .map(|line| line.rsplit_once(',').unwrap().0.to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Text output without the timings: the `Wall time` line, and the last column (pieces/s) of
/// the tournament's summary table, which runs from its `strategy` header to the `Lines:` line.
fn text_without_timing(text: &str) -> String {
    let mut in_table = false;
    let mut kept = Vec::new();
    for line in text.lines() {
        if line.starts_with("strategy ") {
            in_table = true;
        } else if line.starts_with("Lines:") {
            in_table = false;
        }
        if line.starts_with("Wall time") {
            continue;
        }
        if in_table {
            let cut = line.trim_end().rsplit_once(' ').unwrap().0.trim_end();
            kept.push(cut.to_string());
        } else {
            kept.push(line.to_string());
        }
    }
    assert!(!kept.is_empty());
    kept.join("\n")
}

fn files_in(folder: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in fs::read_dir(folder).unwrap() {
        let entry = entry.unwrap().path();
        if entry.is_dir() {
            files.extend(files_in(&entry));
        } else {
            files.push(entry);
        }
    }
    files.sort();
    files
}

/// Every file under `a` is byte for byte the same file under `b`, and no other.
fn assert_same_files(a: &Path, b: &Path) {
    let (files_a, files_b) = (files_in(a), files_in(b));
    let relative = |files: &[PathBuf], root: &Path| -> Vec<PathBuf> {
        files
            .iter()
            .map(|file| file.strip_prefix(root).unwrap().to_path_buf())
            .collect()
    };
    assert_eq!(relative(&files_a, a), relative(&files_b, b));
    assert!(!files_a.is_empty());
    for (file_a, file_b) in files_a.iter().zip(&files_b) {
        let (mut bytes_a, mut bytes_b) = (fs::read(file_a).unwrap(), fs::read(file_b).unwrap());
        // A JSON report names the command that made it; the rest is equal byte for byte.
        if file_a
            .extension()
            .is_some_and(|extension| extension == "json")
        {
            let strip = |bytes: &[u8]| {
                common::text_without_made_by(std::str::from_utf8(bytes).unwrap()).into_bytes()
            };
            (bytes_a, bytes_b) = (strip(&bytes_a), strip(&bytes_b));
        }
        assert_eq!(bytes_a, bytes_b, "{}", file_a.display());
    }
}

const TOURNAMENT: [&str; 11] = [
    "column-drop+dellacherie",
    "column-drop+elashi",
    "bfs+dellacherie",
    "--games",
    "10",
    "--seed",
    "40",
    "--board-height",
    "8",
    "--max-pieces",
    "150",
];

#[test]
fn a_tournament_in_three_shards_merges_into_the_unsharded_text_json_csv_and_plots() {
    let folder = common::scratch_folder("merge", "tournament");
    let (whole_plots, merged_plots) = (path(&folder, "whole-plots"), path(&folder, "merged-plots"));
    let (whole_json, merged_json) = (path(&folder, "whole.json"), path(&folder, "merged.json"));
    let (whole_csv, merged_csv) = (path(&folder, "whole.csv"), path(&folder, "merged.csv"));
    let run_whole = |extra: &[&str]| ok("tournament", &[&TOURNAMENT[..], extra].concat());
    let whole_text = run_whole(&["--plots", &whole_plots, "--out", &whole_json]);
    run_whole(&["--out", &whole_csv]);
    let whole_stdout_json = run_whole(&["--json"]);
    // The shards record the piece statistics the plots need (nothing is written to DIR).
    let unused = path(&folder, "unused-plots");
    let mut shard_args = TOURNAMENT.to_vec();
    shard_args.extend(["--plots", &unused]);
    let parts = run_shards("tournament", &shard_args, &folder);
    assert!(!Path::new(&unused).exists());
    let part: Value = serde_json::from_str(&fs::read_to_string(&parts[1]).unwrap()).unwrap();
    assert_eq!(part["games"], serde_json::json!([1, 4, 7]));
    assert_eq!(part["results"].as_array().unwrap().len(), 9);

    // Any order of the parts.
    let reordered = [parts[2].clone(), parts[0].clone(), parts[1].clone()];
    let merged_text = merge(
        &reordered,
        &["--plots", &merged_plots, "--out", &merged_json],
    );
    merge(&parts, &["--out", &merged_csv]);
    let merged_stdout_json = merge(&parts, &["--json"]);

    assert!(whole_text.contains("Pairwise"));
    assert_eq!(
        text_without_timing(&merged_text),
        text_without_timing(&whole_text)
    );
    assert_eq!(
        json_without_timing(&merged_stdout_json),
        json_without_timing(&whole_stdout_json)
    );
    let whole_file = fs::read_to_string(&whole_json).unwrap();
    let merged_file = fs::read_to_string(&merged_json).unwrap();
    assert_eq!(
        json_without_timing(&merged_file),
        json_without_timing(&whole_file)
    );
    assert_eq!(
        json_without_timing(&merged_file)["games"]
            .as_array()
            .unwrap()
            .len(),
        30
    );
    assert_eq!(
        csv_without_seconds(&fs::read_to_string(&merged_csv).unwrap()),
        csv_without_seconds(&fs::read_to_string(&whole_csv).unwrap())
    );
    assert_same_files(Path::new(&whole_plots), Path::new(&merged_plots));
    // lines_per_game.svg and four plots per strategy (three strategies).
    assert_eq!(files_in(Path::new(&merged_plots)).len(), 1 + 3 * 4);
    fs::remove_dir_all(&folder).unwrap();
}

const NES: [&str; 9] = [
    "column-drop+nes-plateau",
    "--games",
    "9",
    "--seed",
    "1",
    "--start-level",
    "19",
    "--to-level",
    "20",
];

#[test]
fn an_nes_run_in_three_shards_merges_into_the_unsharded_text_json_and_csv() {
    let folder = common::scratch_folder("merge", "nes");
    let (whole_json, merged_json) = (path(&folder, "whole.json"), path(&folder, "merged.json"));
    let (whole_csv, merged_csv) = (path(&folder, "whole.csv"), path(&folder, "merged.csv"));
    let run_whole = |extra: &[&str]| ok("nes", &[&NES[..], extra].concat());
    let whole_text = run_whole(&["--out", &whole_json]);
    run_whole(&["--out", &whole_csv]);
    let whole_stdout_json = run_whole(&["--json"]);
    let parts = run_shards("nes", &NES, &folder);
    let merged_text = merge(&parts, &["--out", &merged_json]);
    merge(&parts, &["--out", &merged_csv]);
    let merged_stdout_json = merge(&parts, &["--json"]);

    assert!(whole_text.contains("line-clear points (uncapped)"));
    assert_eq!(
        text_without_timing(&merged_text),
        text_without_timing(&whole_text)
    );
    assert_eq!(
        json_without_timing(&merged_stdout_json),
        json_without_timing(&whole_stdout_json)
    );
    let merged_file = json_without_timing(&fs::read_to_string(&merged_json).unwrap());
    assert_eq!(
        merged_file,
        json_without_timing(&fs::read_to_string(&whole_json).unwrap())
    );
    assert_eq!(merged_file["games"].as_array().unwrap().len(), 9);
    assert_eq!(
        csv_without_seconds(&fs::read_to_string(&merged_csv).unwrap()),
        csv_without_seconds(&fs::read_to_string(&whole_csv).unwrap())
    );
    // JSON Lines, streamed by the run and made by the merge: the report's games, line by line.
    let (whole_lines, merged_lines) = (path(&folder, "whole.jsonl"), path(&folder, "merged.jsonl"));
    run_whole(&["--out", &whole_lines]);
    merge(&parts, &["--out", &merged_lines]);
    let whole_lines = fs::read_to_string(&whole_lines).unwrap();
    assert_eq!(fs::read_to_string(&merged_lines).unwrap(), whole_lines);
    let games: Vec<Value> = whole_lines
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(&Value::Array(games), &merged_file["games"]);
    fs::remove_dir_all(&folder).unwrap();
}

const STATS: [&str; 7] = [
    "column-drop+dellacherie",
    "--pieces",
    "4000",
    "--seed",
    "3",
    "--board-height",
    "8",
];

#[test]
fn a_stats_run_in_three_shards_merges_into_the_run_of_three_blocks_byte_for_byte() {
    let folder = common::scratch_folder("merge", "stats");
    let (whole_out, merged_out) = (path(&folder, "whole"), path(&folder, "merged"));
    let run_blocks = |extra: &[&str]| {
        let mut args = STATS.to_vec();
        args.extend(["--blocks", "3"]);
        args.extend(extra);
        ok("stats", &args)
    };
    let whole_text = run_blocks(&["--out", &whole_out, "--jobs", "2"]);
    let whole_json = run_blocks(&["--json", "--jobs", "1"]);
    let parts = run_shards("stats", &STATS, &folder);
    let merged_text = merge(&parts, &["--out", &merged_out]);
    let merged_json = merge(&parts, &["--json"]);

    // Nothing in a stats report depends on timing: the bytes are equal as they are, but for
    // the command that made them.
    assert_eq!(merged_text, whole_text);
    assert_eq!(
        common::text_without_made_by(&merged_json),
        common::text_without_made_by(&whole_json)
    );
    assert_same_files(Path::new(&whole_out), Path::new(&merged_out));
    let json: Value = serde_json::from_str(&merged_json).unwrap();
    assert_eq!(json["pieces"], 4000);
    assert_eq!(json["blocks"], 3);
    // Three blocks are not the classic run: its first game's seed is the same, but the second
    // and third blocks start from other seeds.
    let classic: Value =
        serde_json::from_str(&ok("stats", &[&STATS[..], &["--json"]].concat())).unwrap();
    assert_eq!(classic["pieces"], 4000);
    assert!(classic.get("blocks").is_none());
    assert_ne!(classic["rows"], json["rows"]);
    // --blocks 1 is the classic run, byte for byte.
    assert_eq!(
        ok("stats", &[&STATS[..], &["--blocks", "1"]].concat()),
        ok("stats", &STATS)
    );
    fs::remove_dir_all(&folder).unwrap();
}

/// Three tournament parts of a small run, plus one of other settings (another seed) and one
/// of another sharding.
fn small_parts(folder: &Path) -> (Vec<String>, String, String) {
    let args = [
        "column-drop+dellacherie",
        "column-drop+elashi",
        "--games",
        "5",
        "--seed",
        "7",
        "--board-height",
        "8",
        "--max-pieces",
        "60",
    ];
    let parts = run_shards("tournament", &args, folder);
    let other_seed = path(folder, "other-seed.json");
    let mut other = args.to_vec();
    other[5] = "8";
    other.extend(["--shard", "2/3", "--out", &other_seed]);
    ok("tournament", &other);
    let halves = path(folder, "half.json");
    let mut half = args.to_vec();
    half.extend(["--shard", "1/2", "--out", &halves]);
    ok("tournament", &half);
    (parts, other_seed, halves)
}

fn merge_error(parts: &[&str]) -> String {
    common::fail("merge", parts)
}

#[test]
fn merge_rejects_a_missing_shard_a_duplicated_shard_and_different_settings() {
    let folder = common::scratch_folder("merge", "rejects");
    let (parts, other_seed, halves) = small_parts(&folder);
    let [p0, p1, p2] = [&parts[0], &parts[1], &parts[2]].map(String::as_str);
    assert_eq!(merge_error(&[p0, p2]), "error: merge: shard 1/3 is missing");
    assert_eq!(
        merge_error(&[p2]),
        "error: merge: shards 0/3, 1/3 are missing"
    );
    assert_eq!(
        merge_error(&[p0, p1, p1, p2]),
        format!("error: merge: shard 1/3 is given twice ({p1} and {p1})")
    );
    let copy = path(&folder, "copy-of-part0.json");
    fs::copy(p0, &copy).unwrap();
    assert_eq!(
        merge_error(&[p0, p1, p2, &copy]),
        format!("error: merge: shard 0/3 is given twice ({p0} and {copy})")
    );
    assert_eq!(
        merge_error(&[p0, p1, &other_seed]),
        format!("error: merge: {other_seed} has different settings from {p0}: seed 8 vs 7")
    );
    assert_eq!(
        merge_error(&[p0, p1, &halves]),
        format!(
            "error: merge: {halves} is shard 1/2 but {p0} is shard 0/3: parts of different \
             shardings"
        )
    );
    // Parts of another command.
    let nes_part = path(&folder, "nes.json");
    ok(
        "nes",
        &[&NES[..], &["--shard", "0/3", "--out", &nes_part]].concat(),
    );
    assert_eq!(
        merge_error(&[p0, &nes_part]),
        format!("error: merge: {nes_part} is a nes part but {p0} is a tournament part")
    );
    // The three together still merge.
    merge(&parts, &[]);
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn merge_names_the_file_that_is_not_a_part_or_holds_the_wrong_games() {
    let folder = common::scratch_folder("merge", "bad-files");
    let (parts, _, _) = small_parts(&folder);
    let missing = path(&folder, "missing.json");
    assert!(merge_error(&[&missing]).starts_with(&format!("error: merge: {missing}: cannot read")));
    let not_json = path(&folder, "not.json");
    fs::write(&not_json, "not json").unwrap();
    assert!(merge_error(&[&not_json]).starts_with(&format!("error: merge: {not_json}: not JSON")));
    let other = path(&folder, "other.json");
    fs::write(&other, r#"{"format": "tetris-arena-replay", "version": 1}"#).unwrap();
    assert!(merge_error(&[&other]).contains("not a part of a sharded run"));
    // A part that claims other games than its shard's.
    let mut part: Value = serde_json::from_str(&fs::read_to_string(&parts[1]).unwrap()).unwrap();
    part["games"] = serde_json::json!([1]);
    let tampered = path(&folder, "tampered.json");
    fs::write(&tampered, part.to_string()).unwrap();
    assert_eq!(
        merge_error(&[&parts[0], &tampered, &parts[2]]),
        format!("error: merge: {tampered} (shard 1/3) lacks game 4")
    );
    // A part of a newer version.
    let mut part: Value = serde_json::from_str(&fs::read_to_string(&parts[1]).unwrap()).unwrap();
    part["version"] = serde_json::json!(3);
    fs::write(&tampered, part.to_string()).unwrap();
    assert!(
        merge_error(&[&tampered]).contains("part version 3, this arena reads versions 1 and 2")
    );
    // A part whose results lack a game it claims.
    let mut part: Value = serde_json::from_str(&fs::read_to_string(&parts[1]).unwrap()).unwrap();
    part["results"].as_array_mut().unwrap().pop();
    fs::write(&tampered, part.to_string()).unwrap();
    assert_eq!(
        merge_error(&[&parts[0], &tampered, &parts[2]]),
        format!("error: merge: {tampered}: no result for game 4 of strategy 1")
    );
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn sharded_runs_check_their_options_before_any_game() {
    let folder = common::scratch_folder("merge", "options");
    let part = path(&folder, "part.json");
    let base = ["column-drop+elashi", "--games", "3", "--seed", "1"];
    let fail = |extra: &[&str]| common::fail("tournament", &[&base[..], extra].concat());
    assert!(fail(&["--shard", "3/3", "--out", &part]).contains("K must be below N"));
    assert!(fail(&["--shard", "1/0", "--out", &part]).contains("N must be at least 1"));
    assert!(fail(&["--shard", "one/3", "--out", &part]).contains("--shard"));
    assert!(fail(&["--shard", "0/4", "--out", &part]).contains("4 shards for 3 games"));
    assert!(fail(&["--shard", "0/3"]).contains("--out PART.json"));
    assert!(fail(&["--shard", "0/3", "--out", &path(&folder, "p.csv")]).contains(".json"));
    assert!(fail(&["--shard", "0/3", "--out", &part, "--json"]).contains("--json"));
    assert!(!Path::new(&part).exists());
    let stats = |extra: &[&str]| {
        common::fail(
            "stats",
            &[
                &["column-drop+elashi", "--pieces", "10", "--seed", "1"][..],
                extra,
            ]
            .concat(),
        )
    };
    assert!(stats(&["--blocks", "2", "--shard", "0/3", "--out", &part]).contains("disagree"));
    assert!(stats(&["--blocks", "11"]).contains("without pieces"));
    assert!(stats(&["--blocks", "0"]).contains("--blocks"));
    fs::remove_dir_all(&folder).unwrap();
}

/// Writes `part` edited by `edit` to `name` in `folder`; its path.
fn tampered(folder: &Path, part: &Value, name: &str, edit: impl FnOnce(&mut Value)) -> String {
    let mut part = part.clone();
    edit(&mut part);
    let path = path(folder, name);
    fs::write(&path, part.to_string()).unwrap();
    path
}

/// Every object in `value` (itself included), as the JSON pointer of each.
fn object_pointers(value: &Value, at: String, pointers: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            pointers.push(at.clone());
            for (key, inner) in map {
                object_pointers(inner, format!("{at}/{key}"), pointers);
            }
        }
        Value::Array(items) => {
            for (index, inner) in items.iter().enumerate() {
                object_pointers(inner, format!("{at}/{index}"), pointers);
            }
        }
        _ => {}
    }
}

/// Real parts of the whole run (shard 0/1) of each command, edited so that they contradict
/// their own settings or themselves: the merge refuses each with one line naming the part and
/// what is wrong (it once merged them into a report of games that cannot have been played).
#[test]
fn merge_refuses_parts_that_contradict_their_own_settings() {
    let folder = common::scratch_folder("merge", "contradictions");
    let write = |command: &str, args: &[&str]| {
        let part = path(&folder, &format!("{command}.json"));
        ok(
            command,
            &[args, &["--shard", "0/1", "--out", &part]].concat(),
        );
        // The part as written merges.
        merge(std::slice::from_ref(&part), &["--json"]);
        let text = fs::read_to_string(&part).unwrap();
        serde_json::from_str::<Value>(&text).unwrap()
    };
    // Four games of 10 pieces (the cap), each with 2 singles (8 + 2 locks), 80 points from
    // level 0 (2 × 40), no game over.
    let tournament = write(
        "tournament",
        &[
            "column-drop+dellacherie",
            "column-drop+elashi",
            "--games",
            "2",
            "--seed",
            "7",
            "--board-height",
            "6",
            "--max-pieces",
            "10",
            "--estimate",
        ],
    );
    let game = &tournament["results"][0];
    assert_eq!(
        (
            &game["pieces"],
            &game["lines"],
            &game["score"],
            &game["end"]
        ),
        (&10.into(), &2.into(), &80.into(), &"piece_cap".into())
    );
    assert_eq!(game["clears"], serde_json::json!([8, 2, 0, 0, 0]));
    let refused = |part: &Value, name: &str, edit: &dyn Fn(&mut Value), why: &str| {
        let path = tampered(&folder, part, name, edit);
        assert_eq!(
            merge_error(&[&path]),
            format!("error: merge: {path}: {why}"),
            "{name}"
        );
    };
    let first = "game 0 of strategy 0";
    type Edit = Box<dyn Fn(&mut Value)>;
    let cases: Vec<(Edit, String)> = vec![
        (
            Box::new(|part| {
                part["results"][0]["pieces"] = 11.into();
                part["results"][0]["clears"][0] = 9.into();
            }),
            format!("{first}: 11 pieces, more than the settings' max_pieces 10"),
        ),
        (
            Box::new(|part| {
                part["results"][0]["pieces"] = 9.into();
                part["results"][0]["clears"][0] = 7.into();
            }),
            format!(
                "{first}: it ended by piece_cap after 9 pieces, not the settings' max_pieces 10"
            ),
        ),
        (
            Box::new(|part| part["results"][0]["score"] = 1_000_000_000.into()),
            format!("{first}: a score of 1000000000, above the NES's 999,999"),
        ),
        (
            Box::new(|part| part["results"][0]["score"] = 100.into()),
            format!(
                "{first}: a score of 100, which its clears cannot make (from 80 to 80 at its \
                 levels, a multiple of 20)"
            ),
        ),
        (
            Box::new(|part| part["results"][0]["lines"] = 3.into()),
            format!("{first}: its clears make 2 lines, not its 3"),
        ),
        (
            // Two tetrises from 10 pieces: 80 cells cleared of 40 placed.
            Box::new(|part| {
                part["results"][0]["clears"] = serde_json::json!([8, 0, 0, 0, 2]);
                part["results"][0]["lines"] = 8.into();
            }),
            format!("{first}: 8 lines from 10 pieces (a line takes 10 cells, a piece brings 4)"),
        ),
        (
            Box::new(|part| part["results"][0]["end"] = "stopped".into()),
            format!(
                "{first}: it ended by stopped (interrupted), and a part holds finished games only"
            ),
        ),
        (
            Box::new(|part| part["results"][0]["end"] = "sequence_ended".into()),
            format!("{first}: it ended by sequence_ended but its generator uniform never ends"),
        ),
        (
            // The games' piece statistics are kept merged per strategy, in the summary.
            Box::new(|part| part["summary"]["statistics"][0]["game_overs"] = 1.into()),
            "strategy 0's piece statistics do not count the games its summary counts".into(),
        ),
        (
            Box::new(|part| part["timing"]["wall_seconds"] = (-1.5).into()),
            "its timing says wall_seconds -1.5, not a duration in seconds".into(),
        ),
        (
            Box::new(|part| part["timing"]["jobs"] = 0.into()),
            "its timing says 0 jobs, a run has 1 to 256".into(),
        ),
    ];
    for (index, (edit, why)) in cases.iter().enumerate() {
        refused(&tournament, &format!("tournament-{index}.json"), edit, why);
    }

    // Game 0 reaches the stop level 20 at 140 lines (docs/spec/rules.md); game 1 tops out at
    // 38 lines, on level 19, with 118,800 points.
    let nes = write(
        "nes",
        &[
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
    );
    let games = &nes["results"];
    assert_eq!(
        (&games[0]["lines"], &games[0]["end"]),
        (&140.into(), &"stop-level".into())
    );
    assert_eq!(
        (
            &games[1]["lines"],
            &games[1]["level"],
            &games[1]["score"],
            &games[1]["end"]
        ),
        (&38.into(), &19.into(), &118_800.into(), &"top-out".into())
    );
    let cases: Vec<(Edit, String)> = vec![
        (
            Box::new(|part| part["results"][1]["end"] = "stop-level".into()),
            "game 1: it ended by stop-level after 38 lines, but the stop level 20 is reached \
             at 140"
                .into(),
        ),
        (
            Box::new(|part| part["results"][0]["end"] = "top-out".into()),
            "game 0: it ended by top-out after 140 lines, when 140 lines reach the stop level \
             20 and end the game"
                .into(),
        ),
        (
            Box::new(|part| part["results"][1]["level"] = 25.into()),
            "game 1: level 25, but 38 lines from level 19 lead to level 19".into(),
        ),
        (
            Box::new(|part| part["results"][1]["score"] = 1_000_000_000.into()),
            "game 1: a score of 1000000000, above the NES's 999,999".into(),
        ),
        (
            Box::new(|part| part["results"][1]["score"] = 118_780.into()),
            "game 1: a score of 118780, not its 118800 line-clear points capped at 999,999".into(),
        ),
        (
            Box::new(|part| part["settings"]["start_level"] = 30.into()),
            "its settings say start level 30, above 29".into(),
        ),
        (
            Box::new(|part| part["settings"]["max_lines"] = 140.into()),
            "its settings say line cap 140, not from 1 to below the stop level's lines".into(),
        ),
        (
            Box::new(|part| part["results"][1]["end"] = "line-cap".into()),
            "game 1: it ended by line-cap but its settings have no line cap".into(),
        ),
        (
            Box::new(|part| part["results"][1]["points_before_level_29"] = 20.into()),
            "game 1: 20 points before level 29, which its level 19 and its 118800 line-clear \
             points contradict"
                .into(),
        ),
    ];
    for (index, (edit, why)) in cases.iter().enumerate() {
        refused(&nes, &format!("nes-{index}.json"), edit, why);
    }

    // One block of 400 pieces on 10 × 6.
    let stats = write(
        "stats",
        &[
            "column-drop+dellacherie",
            "--pieces",
            "400",
            "--seed",
            "1",
            "--board-height",
            "6",
        ],
    );
    let block = &stats["results"][0];
    assert_eq!(block["pieces"], 400);
    let lost = block["cells_above_top"].as_u64().unwrap();
    let game_overs = block["game_overs"].as_u64().unwrap();
    let cases: Vec<(Edit, String)> = vec![
        (
            Box::new(|part| {
                let row = &mut part["results"][0]["row_counts"][5];
                *row = (row.as_u64().unwrap() + 1).into();
            }),
            "block 0: piece statistics' row counts add up to 401, not its 400 pieces".into(),
        ),
        (
            Box::new(move |part| part["results"][0]["cells_above_top"] = (lost + 1).into()),
            format!(
                "block 0: piece statistics count {} cells on the field and {} above it, not 4 \
                 per piece (400 pieces)",
                1600 - lost,
                lost + 1
            ),
        ),
        (
            Box::new(|part| part["results"][0]["games"] = 0.into()),
            format!(
                "block 0: piece statistics count {game_overs} game overs in 0 games of 400 pieces"
            ),
        ),
        (
            // The intervals are counted: [interval, how many], in increasing order.
            Box::new(|part| {
                part["results"][0]["full_clear_intervals"]
                    .as_array_mut()
                    .unwrap()
                    .insert(0, serde_json::json!([0, 1]));
            }),
            "block 0: piece statistics' full clears contradict its counts: an interval of 0 \
             pieces"
                .into(),
        ),
        (
            Box::new(|part| part["results"][0]["row_rule"] = "top".into()),
            "block 0: piece statistics counted by the top row, not the pivot row of its settings"
                .into(),
        ),
    ];
    for (index, (edit, why)) in cases.iter().enumerate() {
        refused(&stats, &format!("stats-{index}.json"), edit, why);
    }

    // A key no part holds, in any object of any part (the top level, the shard, the timing,
    // the settings, each result, a game's piece statistics and time).
    for (command, part) in [
        ("tournament", &tournament),
        ("nes", &nes),
        ("stats", &stats),
    ] {
        let mut pointers = Vec::new();
        object_pointers(part, String::new(), &mut pointers);
        for pointer in ["", "/shard", "/timing", "/settings", "/results/0"] {
            assert!(
                pointers.iter().any(|at| at == pointer),
                "{command} {pointer}"
            );
        }
        for (index, pointer) in pointers.iter().enumerate() {
            let path = tampered(
                &folder,
                part,
                &format!("{command}-key-{index}.json"),
                |part| {
                    part.pointer_mut(pointer)
                        .unwrap()
                        .as_object_mut()
                        .unwrap()
                        .insert("extra".into(), 0.into());
                },
            );
            let error = merge_error(&[&path]);
            assert!(
                error.starts_with(&format!(
                    "error: merge: {path}: bad part: unknown field `extra`"
                )),
                "{command} {pointer:?}: {error}"
            );
        }
    }
    fs::remove_dir_all(&folder).unwrap();
}

/// The parts `parts` with their games taken out, as a shard of more than 100,000 games
/// writes them (`summaryK.json` beside them, named by `prefix`).
fn summary_only_copies(parts: &[String], folder: &Path, prefix: &str) -> Vec<String> {
    parts
        .iter()
        .enumerate()
        .map(|(index, part)| {
            let part: Value = serde_json::from_str(&fs::read_to_string(part).unwrap()).unwrap();
            assert!(part["summary"].is_object());
            tampered(
                folder,
                &part,
                &format!("{prefix}-summary{index}.json"),
                |part| {
                    let object = part.as_object_mut().unwrap();
                    object.remove("results");
                    object.remove("games");
                },
            )
        })
        .collect()
}

/// A part of a shard of more games than a report lists holds only its games' summary; the
/// merge adds the summaries and prints exactly what merging the games prints. Here the same
/// three small parts of a tournament and of an NES run are merged as written (with their
/// games) and with their games taken out: the text is the same, and the JSON the same but
/// for the list of games, which the summary-only merge leaves out and says so. A summary
/// edited to contradict itself or its shard is refused.
#[test]
fn parts_holding_only_their_summaries_merge_into_the_same_report() {
    let folder = common::scratch_folder("merge", "summaries");
    for (command, args, games) in [("tournament", &TOURNAMENT[..], 30), ("nes", &NES[..], 9)] {
        let parts = run_shards(command, args, &folder);
        let summary_only = summary_only_copies(&parts, &folder, command);
        assert_eq!(
            text_without_timing(&merge(&summary_only, &[])),
            text_without_timing(&merge(&parts, &[])),
            "{command}"
        );
        let with_games_file = path(&folder, "with-games.json");
        merge(&parts, &["--out", &with_games_file]);
        let mut with_games = json_without_timing(&fs::read_to_string(&with_games_file).unwrap());
        let without_games_file = path(&folder, "without-games.json");
        merge(&summary_only, &["--out", &without_games_file]);
        let without_games = json_without_timing(&fs::read_to_string(&without_games_file).unwrap());
        assert_eq!(with_games["games"].as_array().unwrap().len(), games);
        assert_eq!(without_games["games_left_out"]["games"], games);
        let object = with_games.as_object_mut().unwrap();
        object.remove("games");
        object.insert(
            "games_left_out".into(),
            without_games["games_left_out"].clone(),
        );
        assert_eq!(without_games, with_games, "{command}");
        // A CSV lists every game: summaries alone cannot make one.
        let csv = path(&folder, "games.csv");
        let mut args: Vec<&str> = summary_only.iter().map(String::as_str).collect();
        args.extend(["--out", &csv]);
        assert!(
            common::fail("merge", &args).contains("--out FILE.csv or FILE.jsonl lists every game")
        );
    }

    let summary_only = summary_only_copies(
        &run_shards("tournament", &TOURNAMENT, &folder),
        &folder,
        "edited",
    );
    let part: Value = serde_json::from_str(&fs::read_to_string(&summary_only[0]).unwrap()).unwrap();
    for (name, edit, expected) in [
        (
            "one game more",
            "/summary/tally/strategies/0/lines",
            "games of lines but",
        ),
        ("a pair's count", "/summary/tally/pairs/0/ties", "pair 0-1"),
    ] {
        let edited = tampered(&folder, &part, "edited.json", |part| {
            let value = part.pointer_mut(edit).unwrap();
            match value {
                Value::Array(counts) => counts.push(serde_json::json!([100000, 1])),
                Value::Number(number) => *value = (number.as_u64().unwrap() + 1).into(),
                _ => unreachable!(),
            }
        });
        let mut others = summary_only.clone();
        others[0] = edited;
        let error = merge_error(&others.iter().map(String::as_str).collect::<Vec<_>>());
        assert!(error.contains(expected), "{name}: {error}");
    }
    fs::remove_dir_all(&folder).unwrap();
}

/// Two shards of a tournament and of an NES run, edited as issue 64 found them merging: the
/// settings the command refuses (the console rule for a tournament, a searcher that ignores
/// gravity under it for an NES run), a key repeated (the last one used to win), and a game's
/// time that no game takes. Each is refused with one line naming the part and the fault.
#[test]
fn merge_refuses_parts_no_run_writes() {
    let folder = common::scratch_folder("merge", "no-run-writes");
    let shards = |command: &str, args: &[&str]| -> Vec<(String, Value)> {
        (0..2)
            .map(|index| {
                let part = path(&folder, &format!("{command}-{index}.json"));
                let shard = format!("{index}/2");
                ok(
                    command,
                    &[args, &["--shard", &shard, "--out", &part]].concat(),
                );
                let value = serde_json::from_str(&fs::read_to_string(&part).unwrap()).unwrap();
                (part, value)
            })
            .collect()
    };
    let tournament = shards(
        "tournament",
        &[
            "column-drop+dellacherie",
            "column-drop+elashi",
            "--games",
            "4",
            "--seed",
            "7",
            "--board-height",
            "8",
            "--max-pieces",
            "40",
        ],
    );
    let nes = shards(
        "nes",
        &[
            "gamepad+nes-plateau@1",
            "--games",
            "2",
            "--seed",
            "1",
            "--max-lines",
            "2",
        ],
    );
    for parts in [&tournament, &nes] {
        let paths: Vec<String> = parts.iter().map(|(path, _)| path.clone()).collect();
        merge(&paths, &["--json"]);
    }
    // Both parts edited alike, so that they still agree with each other.
    let both = |parts: &[(String, Value)], name: &str, edit: &dyn Fn(&mut Value)| {
        let edited: Vec<String> = parts
            .iter()
            .enumerate()
            .map(|(index, (_, part))| {
                tampered(&folder, part, &format!("{name}-{index}.json"), |part| {
                    edit(part)
                })
            })
            .collect();
        let message = merge_error(&[&edited[0], &edited[1]]);
        (edited[0].clone(), message)
    };
    let (first, message) = both(&tournament, "console", &|part| {
        part["settings"]["game_over_rule"] = "console".into()
    });
    assert!(
        message.starts_with(&format!(
            "error: merge: {first}: settings.game_over_rule: arena tournament refuses it: \
             --game-over: the console rule needs the NES frame model"
        )),
        "{message}"
    );
    assert_eq!(nes[0].1["settings"]["game_over_rule"], "console");
    let (first, message) = both(&nes, "bfs", &|part| {
        part["settings"]["strategy"] = "bfs+nes-plateau".into()
    });
    assert!(
        message.starts_with(&format!(
            "error: merge: {first}: arena nes refuses its settings: --game-over: searcher bfs \
             ignores gravity and cannot play the console rule"
        )),
        "{message}"
    );
    // Under the simulation rule bfs is a strategy arena nes plays, but the parts say that it
    // does not ignore gravity, which arena nes derives from the searcher.
    let (first, message) = both(&nes, "gravity", &|part| {
        part["settings"]["strategy"] = "bfs+nes-plateau".into();
        part["settings"]["game_over_rule"] = "simulation".into();
    });
    assert_eq!(
        message,
        format!(
            "error: merge: {first}: settings.ignores_gravity is false, but arena nes records \
             true for these settings"
        )
    );
    // A key twice: the first game's lines, 198 then 197 in the issue, the last the right one
    // (the merge used to read it and say nothing).
    let (part, value) = &tournament[0];
    let lines = value["results"][0]["lines"].as_u64().unwrap();
    let text = fs::read_to_string(part).unwrap();
    let once = format!("\"lines\":{lines},");
    assert!(text.contains(&once));
    let twice = text.replacen(
        &once,
        &format!("\"lines\":{},\"lines\":{lines},", lines + 1),
        1,
    );
    let repeated = path(&folder, "repeated.json");
    fs::write(&repeated, twice).unwrap();
    let message = merge_error(&[&repeated, &tournament[1].0]);
    assert!(
        message.starts_with(&format!(
            "error: merge: {repeated}: not JSON: duplicate key \"lines\" at line 1 column "
        )),
        "{message}"
    );
    // A shard's wall time beyond a year: no shard runs that long.
    let edited = tampered(&folder, &tournament[0].1, "wall.json", |part| {
        part["timing"]["wall_seconds"] = Value::from(1e12);
    });
    let message = merge_error(&[&edited, &tournament[1].0]);
    assert_eq!(
        message,
        format!(
            "error: merge: {edited}: its timing says wall_seconds 1000000000000, but a shard \
             runs at most 31536000 seconds (a year)"
        )
    );
    // Game times no game takes: beyond a year, or nanoseconds of 2 s (read as 2 more seconds).
    for (parts, command) in [(&tournament, "tournament"), (&nes, "nes")] {
        for (field, value, expected) in [
            (
                "secs",
                Value::from(u64::MAX),
                "elapsed.secs is 18446744073709551615, but a game lasts at most 31536000 \
                 seconds (a year)",
            ),
            (
                "nanos",
                Value::from(2_000_000_000u64),
                "elapsed.nanos is 2000000000, but the nanoseconds of a duration are below \
                 1000000000",
            ),
        ] {
            let edited = tampered(
                &folder,
                &parts[0].1,
                &format!("{command}-{field}.json"),
                |part| {
                    part["results"][0]["elapsed"][field] = value;
                    // Without its summary (the merge sums the games up, as for a version 1
                    // part), whose total time would otherwise contradict the edit.
                    part.as_object_mut().unwrap().remove("summary");
                },
            );
            let message = merge_error(&[&edited, &parts[1].0]);
            assert_eq!(
                message,
                format!("error: merge: {edited}: bad part: {expected}"),
                "{command}"
            );
        }
    }
    fs::remove_dir_all(&folder).unwrap();
}
