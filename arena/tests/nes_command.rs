//! `arena nes` run as the built binary: the report's statistics against the games it lists,
//! each game's score worked out from its clears, independence from `--jobs`, the JSON and
//! CSV files, the gravity flag, and one `error:` line with exit code 2 for every bad input.
//!
//! Games stop at level 20 (`--to-level 20`: 140 lines from level 19) to stay short.
//!
//! Over 600 lines on purpose: one command's contract, test by test.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

use crate::common;

/// Runs `arena nes ARGS…`.
/// The two part files of a run split in two, in `folder`.
fn part_paths(folder: &Path) -> (String, String) {
    let path = |name: &str| folder.join(name).to_str().unwrap().to_string();
    (path("part-0.json"), path("part-1.json"))
}

/// Writes shard `shard` of the `arena nes` run `args` to the part file `out`; it must succeed.
fn write_part<'a>(mut args: Vec<&'a str>, shard: &'a str, out: &'a str) {
    args.extend(["--shard", shard, "--out", out]);
    nes_ok(&args);
}

fn nes(args: &[&str]) -> Output {
    common::run("nes", args)
}

/// Runs `arena nes ARGS…`, which must succeed.
fn nes_ok(args: &[&str]) -> Output {
    let output = nes(args);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// Runs an `arena nes` command that must succeed and parses its `--json` output.
fn nes_json(args: &[&str]) -> Value {
    common::run_json("nes", args)
}

/// A fresh folder for one test's files.
fn scratch_folder(test: &str) -> PathBuf {
    common::scratch_folder("nes", test)
}

/// Eight short games of a depth-1 column-drop strategy (some top out before 140 lines, some
/// reach level 20), plus `extra` options.
fn short_run<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "column-drop+nes-plateau",
        "--games",
        "8",
        "--seed",
        "1",
        "--start-level",
        "19",
        "--to-level",
        "20",
    ];
    args.extend(extra);
    args
}

/// Line-clear points for 1, 2, 3 and 4 rows before the (level + 1) factor (docs/spec/rules.md).
const BASE_POINTS: [u64; 4] = [40, 100, 300, 1200];

/// Checks one game's score from its clears. From level 19 to the level-20 stop, every clear
/// scores at level 19 (× 20) except the one that reaches 140 lines, which scores at level 20
/// (× 21, docs/spec/rules.md: the level after the clear's own level-up) and ends the game. So a game
/// that topped out scores exactly 20 × Σ base × count, and a game that reached the stop
/// level scores one base more: that of its last clear, which cleared at least
/// `lines − 139` rows.
fn assert_score_from_clears(game: &Value) {
    let clears: Vec<u64> = game["clears"]
        .as_array()
        .unwrap()
        .iter()
        .map(|count| count.as_u64().unwrap())
        .collect();
    assert_eq!(clears.len(), 5);
    let lines = game["lines"].as_u64().unwrap();
    let rows: u64 = (1..5).map(|size| size as u64 * clears[size]).sum();
    assert_eq!(rows, lines, "{game}");
    assert_eq!(clears.iter().sum::<u64>(), game["pieces"].as_u64().unwrap());
    let at_level_19: u64 = (1..5)
        .map(|size| BASE_POINTS[size - 1] * clears[size])
        .sum();
    let points = game["line_clear_points"].as_u64().unwrap();
    // Below the cap the displayed score is the points.
    assert!(points < 999_999);
    assert_eq!(game["score"].as_u64().unwrap(), points);
    match game["end"].as_str().unwrap() {
        "top-out" => {
            assert!(lines < 140, "{game}");
            assert_eq!(game["level"], 19);
            assert_eq!(points, 20 * at_level_19, "{game}");
        }
        "stop-level" => {
            assert!((140..=143).contains(&lines), "{game}");
            assert_eq!(game["level"], 20);
            let last_clear = points - 20 * at_level_19;
            let size = BASE_POINTS.iter().position(|&base| base == last_clear);
            let size = size.unwrap_or_else(|| panic!("{last_clear} is no clear's base: {game}"));
            assert!(size as u64 + 1 >= lines - 139, "{game}");
            assert!(clears[size + 1] >= 1);
        }
        end => panic!("unexpected end {end:?}"),
    }
}

#[test]
fn the_report_summarizes_the_games_it_lists() {
    let folder = scratch_folder("report");
    let path = folder.join("games.json");
    let stdout = nes_json(&short_run(&[
        "--jobs",
        "2",
        "--out",
        path.to_str().unwrap(),
    ]));
    let file: Value = serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
    // The file is the printed report plus the games.
    let mut file_without_games = file.clone();
    let games = file_without_games
        .as_object_mut()
        .unwrap()
        .remove("games")
        .expect("the file lists the games");
    assert!(stdout.get("games").is_none(), "--json prints no games");
    assert_eq!(file_without_games, stdout);

    assert_eq!(stdout["strategy"], "column-drop+nes-plateau");
    assert_eq!(stdout["depth"], 1);
    assert_eq!(stdout["ignores_gravity"], true);
    assert_eq!(stdout["interrupted"], false);
    assert_eq!(stdout["games_finished"], 8);
    assert_eq!(stdout["games_planned"], 8);
    let settings = &stdout["settings"];
    assert_eq!(settings["games"], 8);
    assert_eq!(settings["seed"], 1);
    assert_eq!(settings["start_level"], 19);
    assert_eq!(settings["stop_level"], 20);
    // docs/spec/rules.md: from level 19 the first level-up comes at 140 lines.
    assert_eq!(settings["stop_level_lines"], 140);
    assert_eq!(settings["tap_rate"], 2);
    assert_eq!(stdout["timing"]["jobs"], 2);
    // Decision times: positive, and no decision longer than all the games together.
    let timing = &stdout["timing"];
    let all_games_ms: f64 = timing["game_seconds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|seconds| seconds.as_f64().unwrap() * 1000.0)
        .sum();
    for figure in ["decision_mean_ms", "decision_p99_ms"] {
        let ms = timing[figure]
            .as_f64()
            .unwrap_or_else(|| panic!("{figure}"));
        assert!(ms > 0.0 && ms <= all_games_ms * 1.0625, "{figure} {ms}");
    }

    let games = games.as_array().unwrap();
    assert_eq!(games.len(), 8);
    for (index, game) in games.iter().enumerate() {
        assert_eq!(game["game"], index as u64);
        assert_eq!(game["seed"], 1 + index as u64);
        assert_score_from_clears(game);
        // To its last lock, a game of P pieces lasts at least the first piece's 96-frame entry
        // delay, 2 frames per row for each piece's fall from row 0 (so 2 at least) and 10
        // dead frames between two pieces: 96 + 2P + 10(P - 1).
        let pieces = game["pieces"].as_u64().unwrap();
        assert!(
            game["frames"].as_u64().unwrap() >= 96 + 12 * pieces - 10,
            "{game}"
        );
    }
    let ends: Vec<&str> = games.iter().map(|g| g["end"].as_str().unwrap()).collect();
    assert!(
        ends.contains(&"top-out") && ends.contains(&"stop-level"),
        "{ends:?}"
    );

    // The summary, recomputed from the games.
    let summary = &stdout["summary"];
    let mut scores: Vec<u64> = games.iter().map(|g| g["score"].as_u64().unwrap()).collect();
    scores.sort_unstable_by(|a, b| b.cmp(a));
    let mean = scores.iter().sum::<u64>() as f64 / 8.0;
    assert!((summary["mean_score"].as_f64().unwrap() - mean).abs() < 1e-6);
    assert_eq!(
        summary["median_score"].as_f64().unwrap(),
        (scores[3] + scores[4]) as f64 / 2.0
    );
    assert_eq!(summary["best_score"].as_u64().unwrap(), scores[0]);
    // ⌈8 / 3⌉ = 3 games in the best third.
    assert_eq!(summary["best_third_games"], 3);
    let best_third = (scores[0] + scores[1] + scores[2]) as f64 / 3.0;
    assert!((summary["best_third_mean_score"].as_f64().unwrap() - best_third).abs() < 1e-6);
    let share = |threshold: u64| scores.iter().filter(|&&s| s >= threshold).count() as f64 / 8.0;
    assert_eq!(
        summary["share_at_least_999999"].as_f64().unwrap(),
        share(999_999)
    );
    assert_eq!(
        summary["share_at_least_900000"].as_f64().unwrap(),
        share(900_000)
    );
    assert!(summary["share_at_least_999999"].as_f64() <= summary["share_at_least_900000"].as_f64());
    assert!(summary["best_score"].as_f64().unwrap() >= summary["median_score"].as_f64().unwrap());
    // ⌈3 × 8 / 4⌉ = 6 games in the best 75 %.
    assert_eq!(summary["best_three_quarters_games"], 6);
    let best_three_quarters = scores[..6].iter().sum::<u64>() as f64 / 6.0;
    assert!(
        (summary["best_three_quarters_mean_score"].as_f64().unwrap() - best_three_quarters).abs()
            < 1e-6
    );
    let total_lines: u64 = games.iter().map(|g| g["lines"].as_u64().unwrap()).sum();
    let tetrises: u64 = games.iter().map(|g| g["clears"][4].as_u64().unwrap()).sum();
    assert_eq!(summary["total_lines"], total_lines);
    assert_eq!(summary["tetrises"], tetrises);
    let tetris_share = summary["tetris_share"].as_f64().unwrap();
    assert!((tetris_share - (4 * tetrises) as f64 / total_lines as f64).abs() < 1e-12);
    assert!((0.0..=1.0).contains(&tetris_share));
    assert!((summary["mean_lines"].as_f64().unwrap() - total_lines as f64 / 8.0).abs() < 1e-9);
    let count = |end: &str| ends.iter().filter(|&&e| e == end).count();
    assert_eq!(summary["top_outs"], count("top-out"));
    assert_eq!(summary["reached_stop_level"], count("stop-level"));
    let pieces: u64 = games.iter().map(|g| g["pieces"].as_u64().unwrap()).sum();
    assert!((summary["mean_pieces"].as_f64().unwrap() - pieces as f64 / 8.0).abs() < 1e-9);
    assert_eq!(summary["total_pieces"], pieces);
    assert_uncapped_summary(summary, games);
    fs::remove_dir_all(&folder).unwrap();
}

/// The uncapped statistics, recomputed from the `line_clear_points` of the games listed in
/// `games`, against the summary's `*_line_clear_points` fields.
fn assert_uncapped_summary(summary: &Value, games: &[Value]) {
    let mut points: Vec<u64> = games
        .iter()
        .map(|game| game["line_clear_points"].as_u64().unwrap())
        .collect();
    points.sort_unstable_by(|a, b| b.cmp(a));
    let count = points.len();
    let mean_of = |values: &[u64]| values.iter().sum::<u64>() as f64 / values.len() as f64;
    let close = |key: &str, expected: f64| {
        let value = summary[key].as_f64().unwrap();
        assert!(
            (value - expected).abs() < 1e-6,
            "{key}: {value} != {expected}"
        );
    };
    close("mean_line_clear_points", mean_of(&points));
    let median = if count % 2 == 1 {
        points[count / 2] as f64
    } else {
        (points[count / 2 - 1] + points[count / 2]) as f64 / 2.0
    };
    close("median_line_clear_points", median);
    assert_eq!(summary["best_line_clear_points"], points[0]);
    let share = |threshold: u64| points.iter().filter(|&&p| p >= threshold).count() as f64;
    close(
        "share_line_clear_points_at_least_999999",
        share(999_999) / count as f64,
    );
    close(
        "share_line_clear_points_at_least_900000",
        share(900_000) / count as f64,
    );
    close(
        "best_third_mean_line_clear_points",
        mean_of(&points[..count.div_ceil(3)]),
    );
    close(
        "best_three_quarters_mean_line_clear_points",
        mean_of(&points[..(3 * count).div_ceil(4)]),
    );
}

#[test]
fn the_uncapped_points_are_reported_beside_the_capped_score() {
    // Three games of a depth-2 column-drop strategy to the level-29 transition: each clears
    // 230 lines and passes the 999,999 cap (docs/nes-benchmark.md: this strategy's games mostly max out),
    // so the two distributions differ.
    let folder = scratch_folder("uncapped");
    let (json_path, csv_path) = (folder.join("games.json"), folder.join("games.csv"));
    let args = ["column-drop+nes-plateau@2", "--games", "3", "--seed", "1"];
    for path in [&json_path, &csv_path] {
        let with_out = [&args[..], &["--out", path.to_str().unwrap()]].concat();
        assert!(nes(&with_out).status.success());
    }
    let file: Value = serde_json::from_str(&fs::read_to_string(&json_path).unwrap()).unwrap();
    let games = file["games"].as_array().unwrap();
    let summary = &file["summary"];
    assert_uncapped_summary(summary, games);
    // Every game is capped at 999,999 on the display and has more uncapped points.
    for game in games {
        assert_eq!(game["score"], 999_999, "{game}");
        assert!(
            game["line_clear_points"].as_u64().unwrap() > 999_999,
            "{game}"
        );
    }
    assert_eq!(summary["best_score"], 999_999);
    assert_eq!(summary["best_three_quarters_mean_score"], 999_999.0);
    assert_eq!(summary["share_line_clear_points_at_least_999999"], 1.0);
    assert!(summary["best_line_clear_points"].as_u64().unwrap() > 999_999);
    assert!(
        file["settings"]["line_clear_points_rule"]
            .as_str()
            .unwrap()
            .contains("ceil(3N / 4)")
    );
    // The CSV carries each game's uncapped points, as the JSON does.
    let csv = fs::read_to_string(&csv_path).unwrap();
    let rows: Vec<Vec<&str>> = csv.lines().map(|line| line.split(',').collect()).collect();
    assert_eq!(rows[0][2..4], ["score", "line_clear_points"]);
    for (row, game) in rows[1..].iter().zip(games) {
        assert_eq!(row[3].parse::<u64>().unwrap(), game["line_clear_points"]);
    }
    assert_eq!(rows.len(), 1 + 3);
    // The text shows both columns.
    let text = String::from_utf8(nes(&args).stdout).unwrap();
    let header = text
        .lines()
        .find(|line| line.contains("score (capped)"))
        .unwrap_or_else(|| panic!("no distribution header: {text}"));
    assert!(header.ends_with("line-clear points (uncapped)"), "{text}");
    assert!(text.contains("mean of best 75% (3 of 3 games)"), "{text}");
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn results_do_not_depend_on_the_number_of_jobs() {
    let folder = scratch_folder("jobs");
    let one_path = folder.join("one.json");
    let two_path = folder.join("two.json");
    let one_csv = folder.join("one.csv");
    let two_csv = folder.join("two.csv");
    let args = |jobs, path: &PathBuf| -> Vec<String> {
        short_run(&["--jobs", jobs, "--out", path.to_str().unwrap()])
            .iter()
            .map(|arg| arg.to_string())
            .collect()
    };
    for (jobs, path) in [
        ("1", &one_path),
        ("2", &two_path),
        ("1", &one_csv),
        ("2", &two_csv),
    ] {
        let args = args(jobs, path);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let output = nes(&args);
        assert!(output.status.success());
    }
    let read = |path: &PathBuf| -> Value {
        serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap()
    };
    let (one, two) = (read(&one_path), read(&two_path));
    assert_eq!(one["timing"]["jobs"], 1);
    assert_eq!(two["timing"]["jobs"], 2);
    assert_eq!(common::without_timing(one), common::without_timing(two));
    // The CSV files differ only in the seconds column (the last).
    let without_seconds = |path: &PathBuf| -> Vec<String> {
        fs::read_to_string(path)
            .unwrap()
            .lines()
            .map(|line| line.rsplit_once(',').unwrap().0.to_string())
            .collect()
    };
    assert_eq!(without_seconds(&one_csv), without_seconds(&two_csv));
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn the_csv_file_has_one_row_per_game() {
    let folder = scratch_folder("csv");
    let csv_path = folder.join("games.csv");
    let json_path = folder.join("games.json");
    let output = nes(&short_run(&["--out", csv_path.to_str().unwrap()]));
    assert!(output.status.success());
    nes(&short_run(&["--out", json_path.to_str().unwrap()]));
    let json: Value = serde_json::from_str(&fs::read_to_string(&json_path).unwrap()).unwrap();
    let csv = fs::read_to_string(&csv_path).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "game,seed,score,line_clear_points,lines,level,pieces,frames,no_clears,singles,\
         doubles,triples,tetrises,end,points_before_level_29,seconds"
    );
    assert_eq!(lines.len(), 1 + 8);
    for (line, game) in lines[1..].iter().zip(json["games"].as_array().unwrap()) {
        let fields: Vec<&str> = line.split(',').collect();
        assert_eq!(fields.len(), 16);
        for (column, key) in [
            (0, "game"),
            (1, "seed"),
            (2, "score"),
            (3, "line_clear_points"),
            (4, "lines"),
            (5, "level"),
            (6, "pieces"),
            (7, "frames"),
        ] {
            assert_eq!(fields[column].parse::<u64>().unwrap(), game[key], "{key}");
        }
        for size in 0..5 {
            assert_eq!(
                fields[8 + size].parse::<u64>().unwrap(),
                game["clears"][size]
            );
        }
        assert_eq!(fields[13], game["end"].as_str().unwrap());
        // Games that stop at level 20 never reach 29: all their points are before it.
        assert_eq!(
            fields[14].parse::<u64>().unwrap(),
            game["points_before_level_29"]
        );
        assert_eq!(game["points_before_level_29"], game["line_clear_points"]);
        assert!(fields[15].parse::<f64>().unwrap() >= 0.0);
    }
    // Only the two results: no temporary file left beside them.
    assert_eq!(fs::read_dir(&folder).unwrap().count(), 2);
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn the_text_report_flags_a_searcher_that_ignores_gravity() {
    let args = [
        "bfs+nes-plateau@2",
        "--games",
        "2",
        "--seed",
        "5",
        "--to-level",
        "20",
    ];
    let output = nes(&args);
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("note: bfs ignores gravity"), "{text}");
    for row in [
        "score (capped)",
        "line-clear points (uncapped)",
        "mean ",
        "median ",
        "best ",
        "999,999 or more (max-out)",
        "900,000 or more",
        "mean of best third (1 of 2 games)",
        "mean of best 75% (2 of 2 games)",
        "mean lines",
        "tetris share",
        "ended",
        "mean pieces",
        "Wall time",
    ] {
        assert!(text.contains(row), "the text lacks {row:?}: {text}");
    }
    let mut json_args = args.to_vec();
    json_args.push("--jobs");
    json_args.push("1");
    let json = nes_json(&json_args);
    assert_eq!(json["ignores_gravity"], true);
    assert!(
        json["gravity_note"]
            .as_str()
            .unwrap()
            .contains("ignores gravity")
    );
    assert_eq!(json["depth"], 2);
    assert_eq!(json["summary"]["games"], 2);
}

/// Asserts a failed run: exit code 2, nothing on stdout, one `error:` line on stderr.
fn assert_one_error_line(args: &[&str]) {
    common::fail("nes", args);
}

#[test]
fn bad_inputs_exit_2_with_one_error_line() {
    let folder = scratch_folder("bad");
    let bad_extension = folder.join("games.txt");
    let missing_folder = folder.join("missing/games.json");
    let html_in_folder = folder.join("games.html");
    let json_in_folder = folder.join("games.json");
    let missing_folder_html = folder.join("missing/games.html");
    let trace_in_folder = folder.join("trace.jsonl");
    let missing_folder_trace = folder.join("missing/trace.jsonl");
    let base = ["--games", "1", "--seed", "1", "--to-level", "20"];
    let mut cases: Vec<Vec<&str>> = vec![
        vec!["nope+nes-plateau"],
        vec!["bfs+nope"],
        vec!["column-drop+nes-plateau@3"],
        // The literature's searcher places pieces no NES piece can reach (above the field).
        vec!["drop+nes-plateau"],
        vec!["column-drop+nes-plateau", "--tap-rate", "1"],
        vec!["column-drop+nes-plateau", "--tap-rate", "9"],
        vec!["column-drop+nes-plateau", "--start-level", "20"],
        vec!["column-drop+nes-plateau", "--start-level", "29"],
        vec!["column-drop+nes-plateau", "--start-level", "30"],
        // A cap of no lines; a cap at or past the stop level's 140 lines from 19.
        vec!["column-drop+nes-plateau", "--max-lines", "0"],
        vec!["column-drop+nes-plateau", "--max-lines", "140"],
        vec!["column-drop+nes-plateau", "--max-lines", "-3"],
        vec!["column-drop+nes-plateau", "--max-lines", "ten"],
        vec!["column-drop+nes-plateau", "--start-level", "-1"],
        vec!["column-drop+nes-plateau", "--jobs", "0"],
        vec![
            "column-drop+nes-plateau",
            "--out",
            bad_extension.to_str().unwrap(),
        ],
    ];
    // Outputs in a folder that is not there: I/O, exit code 3.
    let mut io_cases: Vec<Vec<&str>> = vec![vec![
        "column-drop+nes-plateau",
        "--out",
        missing_folder.to_str().unwrap(),
    ]];
    // The page and the trace alike: of a shard, in a missing folder, over the results file.
    let json = json_in_folder.to_str().unwrap();
    for (option, in_folder, missing) in [
        ("--html", &html_in_folder, &missing_folder_html),
        ("--trace", &trace_in_folder, &missing_folder_trace),
    ] {
        let (in_folder, missing) = (in_folder.to_str().unwrap(), missing.to_str().unwrap());
        cases.push(vec![
            "column-drop+nes-plateau",
            "--shard",
            "0/2",
            option,
            in_folder,
        ]);
        io_cases.push(vec!["column-drop+nes-plateau", option, missing]);
        cases.push(vec!["column-drop+nes-plateau", "--out", json, option, json]);
    }
    for case in &cases {
        let mut args = case.clone();
        args.extend(base);
        assert_one_error_line(&args);
    }
    for case in &io_cases {
        let mut args = case.clone();
        args.extend(base);
        let line = common::fail_with(common::IO, "nes", &args);
        assert!(line.contains("folder does not exist"), "{line}");
    }
    for args in [
        &["column-drop+nes-plateau", "--games", "0", "--seed", "1"][..],
        &["column-drop+nes-plateau", "--seed", "1"],
        &[
            "column-drop+nes-plateau",
            "--games",
            "1",
            "--seed",
            "1",
            "--to-level",
            "19",
        ],
        &[
            "column-drop+nes-plateau",
            "--games",
            "1",
            "--seed",
            "1",
            "--to-level",
            "256",
        ],
        &[
            "column-drop+nes-plateau",
            "--games",
            "2",
            "--seed",
            "18446744073709551615",
        ],
    ] {
        assert_one_error_line(args);
    }
    // A trace keeps every lock of every game: at most 100 games.
    let too_many = common::fail(
        "nes",
        &[
            "column-drop+nes-plateau",
            "--games",
            "101",
            "--trace",
            trace_in_folder.to_str().unwrap(),
        ],
    );
    assert!(too_many.contains("at most 100 games"), "{too_many}");
    assert!(!trace_in_folder.exists());
    assert!(!bad_extension.exists() && !missing_folder.exists() && !html_in_folder.exists());
    assert!(!json_in_folder.exists());
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn help_explains_every_option() {
    let output = nes(&["--help"]);
    assert!(output.status.success());
    let help = String::from_utf8(output.stdout).unwrap();
    for option in [
        "STRATEGY",
        "--games",
        "--seed",
        "--start-level",
        "--to-level",
        "--max-lines",
        "--tap-rate",
        "--timeline",
        "--inputs",
        "--reaction-frames",
        "--jobs",
        "--out",
        "--json",
        "--html",
    ] {
        assert!(help.contains(option), "--help lacks {option}");
    }
    assert!(help.contains("seed S + k"));
    assert!(help.contains("2 = 30 presses per second"));
}

#[test]
fn gamepad_paths_replay_through_the_frame_model_across_speed_changes() {
    // From level 0 the levels change at 10 lines (48 → 43 frames per row) and the game stops
    // at 20 lines (level 2). The command fails (exit 2, internal error) if any searched path,
    // replayed frame by frame from the first piece's 96-frame entry delay on, does not lock
    // the piece where the search said, so success is the check.
    let folder = scratch_folder("gamepad");
    let path = folder.join("games.json");
    let output = nes_ok(&[
        "gamepad+nes-plateau",
        "--games",
        "1",
        "--seed",
        "1",
        "--start-level",
        "0",
        "--to-level",
        "2",
        "--out",
        path.to_str().unwrap(),
    ]);
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(!text.contains("ignores gravity"), "{text}");
    assert!(
        text.contains("Tapping: one press per 2 frames (30 per second)"),
        "{text}"
    );
    let json: Value = serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(json["ignores_gravity"], false);
    assert_eq!(json["gravity_note"], Value::Null);
    // docs/spec/rules.md: from level 0 the first level-up is at 10 × (0 + 1) lines, then every 10.
    assert_eq!(json["settings"]["stop_level_lines"], 20);
    let game = &json["games"][0];
    if game["end"] == "stop-level" {
        assert_eq!(game["level"], 2);
        assert!(
            (20..=23).contains(&game["lines"].as_u64().unwrap()),
            "{game}"
        );
    } else {
        assert!(game["lines"].as_u64().unwrap() < 20, "{game}");
    }
    fs::remove_dir_all(&folder).unwrap();
}

/// Plays one short gamepad game at `tap_rate` (to level 20) and checks its score from its
/// clears; the command fails if a searched path does not replay through the frame model.
fn assert_gamepad_game_at_tap_rate(strategy: &str, tap_rate: &str) {
    let folder = scratch_folder(&format!("gamepad-tap-{tap_rate}"));
    let path = folder.join("games.json");
    let json = nes_json(&[
        strategy,
        "--games",
        "1",
        "--seed",
        "1",
        "--to-level",
        "20",
        "--tap-rate",
        tap_rate,
        "--out",
        path.to_str().unwrap(),
    ]);
    assert_eq!(
        json["settings"]["tap_rate"],
        tap_rate.parse::<u64>().unwrap()
    );
    assert_eq!(json["ignores_gravity"], false);
    let file: Value = serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
    assert_score_from_clears(&file["games"][0]);
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn gamepad_games_score_their_clears() {
    // Depth 2 at 30 presses per second, then depth 1 with one press per 8 frames.
    assert_gamepad_game_at_tap_rate("gamepad+nes-plateau@2", "2");
    assert_gamepad_game_at_tap_rate("gamepad+nes-plateau", "8");
}

#[test]
fn gamepad_plays_at_the_slowest_tap_rate() {
    assert_gamepad_game_at_tap_rate("gamepad+nes-plateau", "8");
}

/// The arguments of a short gamepad run, 2 games from seed 3 to level 20, then `extra`.
fn short_gamepad_run<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let base = [
        "gamepad+nes-plateau",
        "--games",
        "2",
        "--seed",
        "3",
        "--to-level",
        "20",
    ];
    [&base[..], extra].concat()
}

#[test]
fn the_input_model_is_chosen_by_name_and_recorded_in_every_result() {
    let folder = scratch_folder("inputs");
    // The default is two-thumb; `--inputs article` plays (the command fails if a path does
    // not replay through the frame model) and says so in the text and the JSON.
    let default = nes_json(&short_gamepad_run(&[]));
    assert_eq!(default["settings"]["inputs"], "two-thumb");
    let article = nes_json(&short_gamepad_run(&["--inputs", "article"]));
    assert_eq!(article["settings"]["inputs"], "article");
    let output = nes(&short_gamepad_run(&["--inputs", "article"]));
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(
        text.contains("Inputs: article: the published bot's: at most one of Left, Right, A, B"),
        "{text}"
    );
    let file = folder.join("games.json");
    let file = file.to_str().unwrap();
    nes_json(&short_gamepad_run(&["--inputs", "article", "--out", file]));
    let written: Value = serde_json::from_str(&fs::read_to_string(file).unwrap()).unwrap();
    assert_eq!(written["settings"]["inputs"], "article");
    // A name that is no model.
    let line = common::fail("nes", &short_gamepad_run(&["--inputs", "thumbs"]));
    assert_eq!(
        line,
        "error: --inputs: unknown input model \"thumbs\" (valid: two-thumb article)"
    );
    // Parts record the model, and merge refuses parts of different models.
    let (part_0, part_1) = part_paths(&folder);
    let (part_0, part_1) = (part_0.as_str(), part_1.as_str());
    let shard = |number: &str, out: &str, inputs: &str| {
        write_part(short_gamepad_run(&["--inputs", inputs]), number, out);
    };
    shard("0/2", part_0, "article");
    shard("1/2", part_1, "two-thumb");
    let written: Value = serde_json::from_str(&fs::read_to_string(part_0).unwrap()).unwrap();
    assert_eq!(written["settings"]["inputs"], "article", "{written}");
    assert_eq!(
        common::fail("merge", &[part_0, part_1]),
        format!(
            "error: merge: {part_1} has different settings from {part_0}: inputs \
             \"two-thumb\" vs \"article\""
        )
    );
    shard("1/2", part_1, "article");
    let merged = common::run_json("merge", &[part_0, part_1]);
    assert_eq!(merged["settings"]["inputs"], "article");
    assert_eq!(merged["summary"], article["summary"]);
    fs::remove_dir_all(&folder).unwrap();
}

/// The `p`th percentile of `values` by linear interpolation between the closest ranks
/// (docs/nes-benchmark.md: h = (N − 1) p / 100 on the values sorted ascending).
fn percentile(values: &[u64], p: f64) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    let h = (sorted.len() - 1) as f64 * p / 100.0;
    let (low, high) = (h.floor() as usize, h.ceil() as usize);
    sorted[low] as f64 + (h - h.floor()) * (sorted[high] as f64 - sorted[low] as f64)
}

#[test]
fn start_18_runs_report_betatetris_figures_in_json_csv_and_html() {
    // Four depth-2 column-drop games from level 18 to the transition to 31 (250 lines),
    // capped at 235 lines: level 19 comes at 130 lines and 29 at 230 (docs/spec/nes-facts.md §4).
    let folder = scratch_folder("betatetris");
    let (json_path, csv_path, html_path) = (
        folder.join("games.json"),
        folder.join("games.csv"),
        folder.join("games.html"),
    );
    let args = [
        "column-drop+nes-plateau@2",
        "--games",
        "4",
        "--seed",
        "1",
        "--start-level",
        "18",
        "--to-level",
        "31",
        "--max-lines",
        "235",
    ];
    fn with<'a>(args: &[&'a str], extra: &[&'a str]) -> Vec<&'a str> {
        [args, extra].concat()
    }
    let json = nes_json(&with(&args, &["--out", json_path.to_str().unwrap()]));
    let csv_output = nes(&with(
        &args,
        &[
            "--out",
            csv_path.to_str().unwrap(),
            "--html",
            html_path.to_str().unwrap(),
        ],
    ));
    assert!(csv_output.status.success());
    let file: Value = serde_json::from_str(&fs::read_to_string(&json_path).unwrap()).unwrap();
    let games = file["games"].as_array().unwrap();
    let settings = &json["settings"];
    assert_eq!(settings["start_level"], 18);
    assert_eq!(settings["max_lines"], 235);
    assert_eq!(settings["stop_level_lines"], 250);
    assert!(
        settings["end_rule"]
            .as_str()
            .unwrap()
            .contains("235 to 238 lines")
    );

    // Each game against the same seed stopped at the transition to 29: a game that got there
    // has, before 29, exactly that game's points; every game ends by a top-out, the cap
    // (235 to 238 lines) or never the stop level (250 lines are past the cap).
    let to_29 = nes_json(&[
        "column-drop+nes-plateau@2",
        "--games",
        "4",
        "--seed",
        "1",
        "--start-level",
        "18",
        "--out",
        folder.join("to-29.json").to_str().unwrap(),
    ]);
    assert_eq!(to_29["settings"]["stop_level_lines"], 230);
    let to_29: Value =
        serde_json::from_str(&fs::read_to_string(folder.join("to-29.json")).unwrap()).unwrap();
    for (game, short) in games.iter().zip(to_29["games"].as_array().unwrap()) {
        let lines = game["lines"].as_u64().unwrap();
        let level = game["level"].as_u64().unwrap();
        // The console's levels from 18: 18 below 130 lines, then one more every 10.
        let expected_level = if lines < 130 {
            18
        } else {
            19 + (lines - 130) / 10
        };
        assert_eq!(level, expected_level, "{game}");
        match game["end"].as_str().unwrap() {
            "line-cap" => assert!((235..=238).contains(&lines), "{game}"),
            "top-out" => assert!(lines < 235, "{game}"),
            end => panic!("end {end}: {game}"),
        }
        if level >= 29 {
            assert_eq!(short["end"], "stop-level");
            assert_eq!(game["points_before_level_29"], short["line_clear_points"]);
            assert!(game["line_clear_points"].as_u64() >= short["line_clear_points"].as_u64());
        } else {
            assert_eq!(game["points_before_level_29"], game["line_clear_points"]);
        }
    }

    // The summary's new figures, recomputed from the games listed.
    let summary = &json["summary"];
    let count = games.len() as f64;
    let share = |level: u64| {
        games
            .iter()
            .filter(|game| game["level"].as_u64().unwrap() >= level)
            .count() as f64
            / count
    };
    assert_eq!(summary["share_reaching_level_19"], share(19));
    assert_eq!(summary["share_reaching_level_29"], share(29));
    // Level 39 is past the stop level: not measured.
    assert_eq!(summary["share_reaching_level_39"], Value::Null);
    let column = |key: &str| -> Vec<u64> {
        games
            .iter()
            .map(|game| game[key].as_u64().unwrap())
            .collect()
    };
    let before_29 = column("points_before_level_29");
    let mean = before_29.iter().sum::<u64>() as f64 / count;
    assert!((summary["mean_points_before_level_29"].as_f64().unwrap() - mean).abs() < 1e-6);
    for (key, values) in [
        ("points_before_level_29_percentiles", &before_29),
        (
            "line_clear_points_percentiles",
            &column("line_clear_points"),
        ),
        ("score_percentiles", &column("score")),
    ] {
        for p in [1, 5, 25, 50] {
            let value = summary[key][format!("p{p}")].as_f64().unwrap();
            let expected = percentile(values, f64::from(p));
            assert!(
                (value - expected).abs() < 1e-6,
                "{key} p{p}: {value} != {expected}"
            );
        }
    }
    let capped = games
        .iter()
        .filter(|game| game["end"] == "line-cap")
        .count();
    assert_eq!(summary["reached_line_cap"], capped);
    let lines = column("lines").iter().sum::<u64>() as f64 / count;
    assert!((summary["mean_lines"].as_f64().unwrap() - lines).abs() < 1e-9);

    // The CSV's points before 29 are the JSON's.
    let csv = fs::read_to_string(&csv_path).unwrap();
    let rows: Vec<Vec<&str>> = csv.lines().map(|line| line.split(',').collect()).collect();
    assert_eq!(rows[0][14], "points_before_level_29");
    for (row, game) in rows[1..].iter().zip(games) {
        assert_eq!(
            row[14].parse::<u64>().unwrap(),
            game["points_before_level_29"]
        );
        assert_eq!(row[13], game["end"].as_str().unwrap());
    }

    // The text and the page show the same figures.
    let text = String::from_utf8(nes(&args).stdout).unwrap();
    let reached_29 = format!(
        "{:.1}% ({} of 4)",
        100.0 * share(29),
        (share(29) * 4.0).round()
    );
    assert!(text.contains("reached level 29"), "{text}");
    assert!(text.contains(&reached_29), "{text}");
    assert!(text.contains("or at 235 lines (line cap)"), "{text}");
    let page = fs::read_to_string(&html_path).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert!(page.contains("default-src 'none'"));
    assert!(page.contains(&reached_29), "{page}");
    assert!(page.contains("points before level 29"));
    // Every game is a row of the page's games table: game, seed, score, line-clear points
    // and points before 29 (with thousands separators), lines, level.
    for game in games {
        let grouped = |key: &str| {
            let digits = game[key].as_u64().unwrap().to_string();
            let mut grouped = String::new();
            for (index, digit) in digits.chars().enumerate() {
                if index > 0 && (digits.len() - index) % 3 == 0 {
                    grouped.push(',');
                }
                grouped.push(digit);
            }
            grouped
        };
        let row = format!(
            "<tr><td class=\"number\">{}</td><td class=\"number\">{}</td><td \
             class=\"number\">{}</td><td class=\"number\">{}</td><td class=\"number\">{}</td><td \
             class=\"number\">{}</td><td class=\"number\">{}</td>",
            game["game"],
            game["seed"],
            grouped("score"),
            grouped("line_clear_points"),
            grouped("points_before_level_29"),
            game["lines"],
            game["level"]
        );
        assert!(page.contains(&row), "{row} not in {page}");
    }
    assert!(!page.contains("http://") && !page.contains("https://"));
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn shards_merge_the_new_figures_and_refuse_different_end_rules() {
    let folder = scratch_folder("merge-ends");
    let path = |name: &str| folder.join(name).to_str().unwrap().to_string();
    let base = [
        "column-drop+nes-plateau",
        "--games",
        "4",
        "--seed",
        "2",
        "--start-level",
        "18",
        "--to-level",
        "20",
    ];
    let shard = |number: &str, out: &str, cap: Option<&str>| {
        let mut args = base.to_vec();
        args.extend(["--shard", number, "--out", out]);
        if let Some(cap) = cap {
            args.extend(["--max-lines", cap]);
        }
        let output = nes(&args);
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
    };
    let (part_0, part_1) = (path("part-0.json"), path("part-1.json"));
    shard("0/2", &part_0, Some("100"));
    shard("1/2", &part_1, None);
    assert_eq!(
        common::fail("merge", &[&part_0, &part_1]),
        format!(
            "error: merge: {part_1} has different settings from {part_0}: max_lines null vs \
             100"
        )
    );
    shard("1/2", &part_1, Some("100"));
    let merged = common::run_json("merge", &[&part_0, &part_1]);
    let mut whole_args = base.to_vec();
    whole_args.extend(["--max-lines", "100"]);
    let whole = nes_json(&whole_args);
    assert_eq!(merged["summary"], whole["summary"]);
    assert_eq!(merged["settings"]["max_lines"], 100);
    assert!(merged["summary"]["points_before_level_29_percentiles"]["p50"].is_number());

    // Parts written before the points before level 29 were recorded: a run that stops by
    // level 29 merges (all its points are before 29), one past 29 is refused.
    let forget_points_before_29 = |part: &str| {
        let mut value: Value = serde_json::from_str(&fs::read_to_string(part).unwrap()).unwrap();
        for result in value["results"].as_array_mut().unwrap() {
            result
                .as_object_mut()
                .unwrap()
                .remove("points_before_level_29");
        }
        fs::write(part, value.to_string()).unwrap();
    };
    forget_points_before_29(&part_0);
    forget_points_before_29(&part_1);
    let older = common::run_json("merge", &[&part_0, &part_1]);
    assert_eq!(older["summary"], whole["summary"]);
    let past_29 = path("past-29.json");
    let output = nes(&[
        "column-drop+nes-plateau",
        "--games",
        "1",
        "--seed",
        "2",
        "--to-level",
        "30",
        "--shard",
        "0/1",
        "--out",
        &past_29,
    ]);
    assert!(output.status.success());
    forget_points_before_29(&past_29);
    assert_eq!(
        common::fail("merge", &[&past_29]),
        format!(
            "error: merge: {past_29}: its games do not record their points before level 29, \
             which a run past level 29 needs: play it again"
        )
    );
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn the_timeline_is_chosen_by_pattern_and_recorded_in_every_result() {
    let folder = scratch_folder("timeline");
    // A uniform timeline is its tap rate: the same report as --tap-rate, which it records
    // as the tap rate (as every result before timelines did).
    for (timeline, tap_rate) in [("X.", "2"), ("X...X...", "4")] {
        let by_timeline = nes_json(&short_gamepad_run(&["--timeline", timeline]));
        let by_rate = nes_json(&short_gamepad_run(&["--tap-rate", tap_rate]));
        assert_eq!(by_timeline["settings"], by_rate["settings"], "{timeline}");
        assert_eq!(by_timeline["summary"], by_rate["summary"], "{timeline}");
        assert_eq!(
            by_timeline["settings"]["tap_rate"],
            tap_rate.parse::<u64>().unwrap()
        );
        assert_eq!(by_timeline["settings"].get("timeline"), None);
    }
    // A mixed one plays (the command fails if a path does not replay through the frame model)
    // and is recorded as its pattern, in place of the tap rate, in the text, the JSON and
    // the part files.
    let mixed = nes_json(&short_gamepad_run(&["--timeline", "X----X---X---"]));
    assert_eq!(mixed["settings"]["timeline"], "X....X...X...");
    assert_eq!(mixed["settings"].get("tap_rate"), None);
    let output = nes(&short_gamepad_run(&["--timeline", "X....X...X..."]));
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(
        text.contains(
            "Tapping: timeline X....X...X... (3 inputs every 13 frames, 13.9 per second)"
        ),
        "{text}"
    );
    let (part_0, part_1) = part_paths(&folder);
    let (part_0, part_1) = (part_0.as_str(), part_1.as_str());
    let shard = |number: &str, out: &str, timeline: &str| {
        write_part(short_gamepad_run(&["--timeline", timeline]), number, out);
    };
    shard("0/2", part_0, "X....X...X...");
    shard("1/2", part_1, "X...");
    let written: Value = serde_json::from_str(&fs::read_to_string(part_0).unwrap()).unwrap();
    assert_eq!(
        written["settings"]["timeline"], "X....X...X...",
        "{written}"
    );
    assert!(common::fail("merge", &[part_0, part_1]).contains("has different settings"));
    shard("1/2", part_1, "X....X...X...");
    let merged = common::run_json("merge", &[part_0, part_1]);
    assert_eq!(merged["settings"]["timeline"], "X....X...X...");
    assert_eq!(merged["summary"], mixed["summary"]);
    // Refused: a timeline beside a tap rate, and a timeline the search cannot follow, with the
    // parse's one message.
    common::fail(
        "nes",
        &short_gamepad_run(&["--tap-rate", "3", "--timeline", "X.."]),
    );
    let line = common::fail("nes", &short_gamepad_run(&["--timeline", "X.X"]));
    assert!(
        line.starts_with("error: timeline \"X.X\": two X are adjacent"),
        "{line}"
    );
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn the_reaction_time_is_recorded_in_every_result_and_merged_parts_must_agree() {
    let folder = scratch_folder("reaction");
    fn with<'a>(extra: &[&'a str]) -> Vec<&'a str> {
        let mut args = vec![
            "gamepad+nes-plateau@2",
            "--games",
            "4",
            "--seed",
            "2",
            "--start-level",
            "18",
            "--max-lines",
            "20",
            "--jobs",
            "1",
        ];
        args.extend(extra);
        args
    }
    let late = nes_json(&with(&["--reaction-frames", "18"]));
    assert_eq!(late["settings"]["reaction_frames"], 18);
    // 0 is the player of every earlier result: the field is left out, the games are others.
    let at_once = nes_json(&with(&["--reaction-frames", "0"]));
    assert_eq!(at_once["settings"].get("reaction_frames"), None);
    let default = nes_json(&with(&[]));
    assert_eq!(at_once["settings"], default["settings"]);
    assert_eq!(at_once["summary"], default["summary"]);
    assert_ne!(late["summary"], at_once["summary"]);
    let text = String::from_utf8(nes(&with(&["--reaction-frames", "18"])).stdout).unwrap();
    assert!(
        text.contains("Reaction: 18 frames (300 ms) before the player sees the preview piece"),
        "{text}"
    );
    // Parts record it and the merge refuses parts of different reaction times.
    let (part_0, part_1) = part_paths(&folder);
    let (part_0, part_1) = (part_0.as_str(), part_1.as_str());
    write_part(with(&["--reaction-frames", "18"]), "0/2", part_0);
    write_part(with(&["--reaction-frames", "12"]), "1/2", part_1);
    let written: Value = serde_json::from_str(&fs::read_to_string(part_0).unwrap()).unwrap();
    assert_eq!(written["settings"]["reaction_frames"], 18, "{written}");
    assert!(common::fail("merge", &[part_0, part_1]).contains("has different settings"));
    write_part(with(&["--reaction-frames", "18"]), "1/2", part_1);
    let merged = common::run_json("merge", &[part_0, part_1]);
    assert_eq!(merged["settings"]["reaction_frames"], 18);
    assert_eq!(merged["summary"], late["summary"]);
    // Refused with one line: past a second, and for a searcher without frames.
    let line = common::fail("nes", &with(&["--reaction-frames", "61"]));
    assert!(
        line.contains("--reaction-frames 61 is outside 0..=60"),
        "{line}"
    );
    let line = common::fail(
        "nes",
        &[
            "column-drop+nes-plateau",
            "--games",
            "1",
            "--reaction-frames",
            "1",
        ],
    );
    assert!(
        line.contains("ignores gravity and plays no frames"),
        "{line}"
    );
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn the_trace_follows_every_lock_through_the_frame_model_for_any_jobs() {
    // Two games from level 18 with 18 reaction frames, traced with 1 and with 2 jobs. Each
    // game is replayed here through the core's frame model from the trace alone: every lock
    // line must be what the replay sees (board, pieces, score, spawn frame) and its path must
    // lock the piece where the line says, clearing what it says; each end line must be the
    // game of the --out file.
    let folder = scratch_folder("trace");
    let out = folder.join("games.json");
    let traces = [folder.join("one.jsonl"), folder.join("two.jsonl")];
    for (jobs, trace) in ["1", "2"].into_iter().zip(&traces) {
        nes_ok(&[
            "gamepad+nes-plateau@2",
            "--games",
            "2",
            "--seed",
            "3",
            "--start-level",
            "18",
            "--to-level",
            "19",
            "--max-lines",
            "20",
            "--reaction-frames",
            "18",
            "--jobs",
            jobs,
            "--out",
            out.to_str().unwrap(),
            "--trace",
            trace.to_str().unwrap(),
        ]);
    }
    let lines = |path: &PathBuf| -> Vec<Value> {
        fs::read_to_string(path)
            .unwrap()
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect()
    };
    let (one, two) = (lines(&traces[0]), lines(&traces[1]));
    // Only the command that made it (its --jobs) differs.
    assert_eq!(one[1..], two[1..]);
    assert_eq!(one[0]["event"], "run");
    assert_eq!(one[0]["strategy"], "gamepad+nes-plateau@2");
    assert_eq!(one[0]["settings"]["reaction_frames"], 18);
    assert_eq!(one[0]["made_by"]["program"], "tetris-arena");

    let report: Value = serde_json::from_str(&fs::read_to_string(&out).unwrap()).unwrap();
    let games = report["games"].as_array().unwrap();
    let mut rest = one[1..].iter();
    for listed in games {
        let seed = listed["seed"].as_u64().unwrap();
        let mut game = tetris_core::NesGame::new(tetris_core::NesGameSettings {
            start_level: 18,
            stop_level: 19,
            seed,
            game_over_rule: tetris_core::GameOverRule::Console,
        });
        let mut locks = 0;
        let end = loop {
            let line = rest.next().expect("every game ends with an end line");
            assert_eq!(line["seed"], seed);
            if line["event"] == "end" {
                break line;
            }
            assert_eq!(line["event"], "lock");
            locks += 1;
            assert_eq!(line["piece"], locks);
            let placement = &line["placement"];
            let letter = |piece: tetris_core::Piece| piece.letter().to_string();
            assert_eq!(placement["piece"], letter(game.current()));
            assert_eq!(line["preview"], letter(game.next()));
            assert_eq!(line["board"], serde_json::json!(game.board().to_rows()));
            let score = game.score();
            assert_eq!(line["level"], score.level());
            assert_eq!(line["lines"], score.lines());
            assert_eq!(line["points"], score.line_clear_points());
            assert_eq!(line["spawn_frame"], game.spawn_frame());
            assert!(
                line["plan"].is_object(),
                "a plan without the preview: {line}"
            );
            let path =
                tetris_arena_games::sim::placement::parse_path(placement["path"].as_str().unwrap())
                    .unwrap();
            let frames: Vec<tetris_core::Buttons> =
                path.iter().map(|input| input.frame().unwrap()).collect();
            let lock = game.play_frames(&frames).unwrap();
            assert_eq!(placement["x"], lock.state.x);
            assert_eq!(placement["y"], lock.state.y);
            assert_eq!(placement["rotation"], lock.state.rotation);
            assert_eq!(placement["cleared"], lock.rows_cleared);
        };
        assert_eq!(locks, listed["pieces"].as_u64().unwrap());
        for field in [
            "end",
            "lines",
            "level",
            "score",
            "line_clear_points",
            "pieces",
        ] {
            assert_eq!(end[field], listed[field], "{field}");
        }
        assert_eq!(end["line_clear_points"], game.score().line_clear_points());
    }
    assert!(rest.next().is_none());

    // `arena replay` checks the trace the same way, and --redecide plays both games again.
    for extra in [&[][..], &["--redecide", "--jobs", "2"]] {
        let mut args = vec![traces[0].to_str().unwrap()];
        args.extend(extra);
        let checked = common::run_json("replay", &args);
        assert_eq!(checked["games"], 2);
        assert_eq!(
            checked["locks"],
            games
                .iter()
                .map(|game| game["pieces"].as_u64().unwrap())
                .sum::<u64>()
        );
        assert_eq!(checked["redecided"], !extra.is_empty());
        assert_eq!(checked["strategy"], "gamepad+nes-plateau@2");
    }
    fs::remove_dir_all(&folder).unwrap();
}

/// Writes `lines` as a trace file at `path`.
fn write_trace(path: &Path, lines: &[Value]) {
    let text: String = lines.iter().map(|line| format!("{line}\n")).collect();
    fs::write(path, text).unwrap();
}

#[test]
fn arena_replay_refuses_a_trace_the_game_or_the_strategy_does_not_reproduce() {
    // Two games of the article's bot from level 19 (2 frames per row), capped at 12 lines,
    // traced; then copies with one thing changed, each refused with one error line that names
    // the game and the piece (or the line) at fault.
    let folder = scratch_folder("trace-tampered");
    let trace = folder.join("trace.jsonl");
    nes_ok(&[
        "gamepad+nes-plateau@2",
        "--games",
        "2",
        "--seed",
        "9",
        "--max-lines",
        "12",
        "--trace",
        trace.to_str().unwrap(),
    ]);
    let lines: Vec<Value> = fs::read_to_string(&trace)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let checked = common::run_json("replay", &[trace.to_str().unwrap(), "--redecide"]);
    assert_eq!(checked["games"], 2);
    let refused = |name: &str, change: &dyn Fn(&mut Vec<Value>), redecide: bool| -> String {
        let mut changed = lines.clone();
        change(&mut changed);
        let path = folder.join(name);
        write_trace(&path, &changed);
        let mut args = vec![path.to_str().unwrap()];
        if redecide {
            args.push("--redecide");
        }
        common::fail("replay", &args)
    };
    // The fifth piece of the first game one frame short of its lock.
    let message = refused(
        "path.jsonl",
        &|lines| {
            let path = lines[5]["placement"]["path"].as_str().unwrap().to_string();
            let shorter = path.rsplit_once(' ').unwrap().0.to_string();
            lines[5]["placement"]["path"] = Value::from(shorter);
        },
        false,
    );
    assert!(message.contains("game seed 9, piece 5: path"), "{message}");
    assert!(message.contains("still falling"), "{message}");
    // Points the game had not scored.
    let message = refused(
        "points.jsonl",
        &|lines| {
            let last = lines
                .iter()
                .rposition(|line| line["event"] == "lock" && line["seed"] == 9)
                .unwrap();
            lines[last]["points"] = Value::from(lines[last]["points"].as_u64().unwrap() + 40);
        },
        false,
    );
    assert!(
        message.contains("game seed 9") && message.contains("points"),
        "{message}"
    );
    // Another strategy's name: every frame still replays, but it decides otherwise.
    let mut other = lines.clone();
    other[0]["strategy"] = Value::from("gamepad+nes-plateau:low-stack@2");
    let renamed = folder.join("renamed.jsonl");
    write_trace(&renamed, &other);
    assert_eq!(
        common::run_json("replay", &[renamed.to_str().unwrap()])["redecided"],
        false
    );
    let message = common::fail("replay", &[renamed.to_str().unwrap(), "--redecide"]);
    assert!(message.contains("the strategy decides"), "{message}");
    // A game cut short, a line that is not a trace line, a second game before the first.
    let message = refused("cut.jsonl", &|lines| lines.truncate(4), false);
    assert!(message.contains("no end line"), "{message}");
    let message = refused(
        "garbled.jsonl",
        &|lines| lines[3] = Value::from("F0 F4"),
        false,
    );
    assert!(message.contains("line 4"), "{message}");
    let message = refused(
        "order.jsonl",
        &|lines| {
            let first_end = lines
                .iter()
                .position(|line| line["event"] == "end")
                .unwrap();
            let second: Vec<Value> = lines.split_off(first_end + 1);
            lines.splice(1..1, second);
        },
        false,
    );
    assert!(message.contains("seed is recorded as 10"), "{message}");
    // Relabelled to 15 Hz: the paths press faster than that.
    let message = refused(
        "slower.jsonl",
        &|lines| lines[0]["settings"]["tap_rate"] = Value::from(4),
        false,
    );
    assert!(message.contains("pressed under timeline X..."), "{message}");
    // The page shows replays of arena play, not traces.
    let page = folder.join("page.html");
    let message = common::fail(
        "replay",
        &[trace.to_str().unwrap(), "--html", page.to_str().unwrap()],
    );
    assert!(
        message.contains("watch the trace with --watch"),
        "{message}"
    );
    assert!(!page.exists());
    // Watched: one frame per lock (piped: without escape codes), each game under its seed.
    let output = common::run(
        "replay",
        &[trace.to_str().unwrap(), "--watch", "--speed", "inf"],
    );
    assert!(output.status.success());
    let shown = String::from_utf8(output.stdout).unwrap();
    let locks = lines.iter().filter(|line| line["event"] == "lock").count();
    assert_eq!(shown.matches("+----------+").count(), locks);
    for (seed, pieces) in lines
        .iter()
        .filter(|line| line["event"] == "end")
        .map(|end| (&end["seed"], &end["pieces"]))
    {
        assert!(
            shown.contains(&format!("seed {seed} | pieces {pieces} |")),
            "{seed}"
        );
    }
    assert!(shown.contains("verified   every lock"));
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn a_searcher_that_ignores_gravity_leaves_a_trace_without_paths_that_replays() {
    // column-drop's placements are locked directly (no frames): the trace has no paths, and
    // the replay locks each recorded state directly too.
    let folder = scratch_folder("trace-column-drop");
    let trace = folder.join("trace.jsonl");
    let out = folder.join("games.json");
    nes_ok(&short_run(&[
        "--trace",
        trace.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]));
    let report: Value = serde_json::from_str(&fs::read_to_string(&out).unwrap()).unwrap();
    let lines = fs::read_to_string(&trace).unwrap();
    assert!(!lines.contains("\"path\""));
    let checked = common::run_json("replay", &[trace.to_str().unwrap(), "--redecide"]);
    assert_eq!(checked["games"], 8);
    let pieces: u64 = report["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|game| game["pieces"].as_u64().unwrap())
        .sum();
    assert_eq!(checked["locks"], pieces);
    fs::remove_dir_all(&folder).unwrap();
}

/// The `unproven` fields of `arena replay --json`'s report of a trace, with whether each was
/// re-decided.
fn unproven_fields(checked: &Value) -> Vec<(String, bool)> {
    checked["unproven"]
        .as_array()
        .unwrap()
        .iter()
        .map(|fact| {
            (
                fact["field"].as_str().unwrap().to_string(),
                fact["redecided"].as_bool().unwrap(),
            )
        })
        .collect()
}

#[test]
fn a_traces_run_line_is_proven_as_the_settings_of_a_run() {
    // The trace of issue 64: two games from level 19 capped at 12 lines, both ending at the
    // cap (no top-out, no stop level). Edits no run writes are refused naming the field; edits
    // a run could write but the games do not show are said `unproven`.
    let folder = scratch_folder("trace-run-line");
    let trace = folder.join("trace.jsonl");
    let run = |extra: &[&str], path: &Path| {
        let mut args = vec![
            "gamepad+nes-plateau@2",
            "--games",
            "2",
            "--seed",
            "9",
            "--max-lines",
            "12",
            "--trace",
            path.to_str().unwrap(),
        ];
        args.extend(extra);
        nes_ok(&args);
        fs::read_to_string(path)
            .unwrap()
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect::<Vec<Value>>()
    };
    let lines = run(&[], &trace);
    let ends: Vec<&Value> = lines.iter().filter(|line| line["event"] == "end").collect();
    assert!(
        ends.iter()
            .all(|end| end["end"] == "line-cap" && end["level"] == 19)
    );
    let changed = |name: &str, change: &dyn Fn(&mut Value)| -> PathBuf {
        let mut edited = lines.clone();
        change(&mut edited[0]["settings"]);
        let path = folder.join(name);
        write_trace(&path, &edited);
        path
    };
    let refusals: [(&str, &str, Value, &str); 8] = [
        (
            "height.jsonl",
            "board_height",
            Value::from(21),
            "settings.board_height",
        ),
        (
            "width.jsonl",
            "board_width",
            Value::from(11),
            "settings.board_width",
        ),
        (
            "none.jsonl",
            "preview_pieces",
            Value::from(0),
            "settings.preview_pieces",
        ),
        (
            "two.jsonl",
            "preview_pieces",
            Value::from(2),
            "settings.preview_pieces",
        ),
        (
            "lines.jsonl",
            "stop_level_lines",
            Value::from(0),
            "settings.stop_level_lines",
        ),
        // Alone, a stop level or a rule leaves what the run derives from it behind.
        (
            "stop.jsonl",
            "stop_level",
            Value::from(30),
            "settings.stop_level_lines",
        ),
        (
            "rule.jsonl",
            "game_over_rule",
            Value::from("simulation"),
            "settings.end_rule",
        ),
        (
            "key.jsonl",
            "extra",
            Value::from(1),
            "unknown field `extra`",
        ),
    ];
    for (name, field, value, named) in refusals {
        let path = changed(name, &|settings| settings[field] = value.clone());
        for redecide in [false, true] {
            let mut args = vec![path.to_str().unwrap()];
            if redecide {
                args.push("--redecide");
            }
            let message = common::fail("replay", &args);
            assert!(message.contains(named), "{field}: {message}");
            // Every refusal names the file and the line, as the trace's other errors do.
            let place = format!("error: replay {}: line 1: settings", path.display());
            assert!(message.starts_with(&place), "{field}: {message}");
        }
    }
    // As written: no game reached level 29 or topped out, so neither the stop level nor the
    // console rule shows; the cap does (both games ended at 12 lines from 8 or more).
    let checked = common::run_json("replay", &[trace.to_str().unwrap()]);
    assert_eq!(
        unproven_fields(&checked),
        [
            ("settings.stop_level".to_string(), false),
            ("settings.game_over_rule".to_string(), false)
        ]
    );
    // A reaction time: every lock of such a run records its plan, and these record none.
    let path = changed("reaction.jsonl", &|settings| {
        settings["reaction_frames"] = Value::from(5)
    });
    let message = common::fail("replay", &[path.to_str().unwrap()]);
    assert!(message.contains("game seed 9, piece 1: plan"), "{message}");
    // The run line of the simulation rule, and of stop level 30, each as a run writes it: the
    // games are the same (none tops out or reaches level 29), so the edit passes, and says
    // that the games do not prove it, re-decided or not.
    let simulation = run(
        &["--game-over", "simulation"],
        &folder.join("simulation.jsonl"),
    );
    let thirty = run(&["--to-level", "30"], &folder.join("thirty.jsonl"));
    for (name, source, field, value) in [
        (
            "as-simulation.jsonl",
            &simulation,
            "game_over_rule",
            "simulation",
        ),
        ("as-thirty.jsonl", &thirty, "stop_level", "30"),
    ] {
        let path = changed(name, &|settings| *settings = source[0]["settings"].clone());
        for redecide in [false, true] {
            let mut args = vec![path.to_str().unwrap()];
            if redecide {
                args.push("--redecide");
            }
            let checked = common::run_json("replay", &args);
            assert_eq!(checked["verified"], true);
            assert_eq!(
                checked["settings"][field].to_string().trim_matches('"'),
                value
            );
            let fields = unproven_fields(&checked);
            let named = format!("settings.{field}");
            let fact = fields.iter().find(|(field, _)| *field == named);
            // The stop level only ends games: re-deciding cannot tell its values apart.
            let redecided = redecide && field == "game_over_rule";
            assert_eq!(fact, Some(&(named.clone(), redecided)), "{fields:?}");
            let text = common::run("replay", &args);
            let text = String::from_utf8(text.stdout).unwrap();
            assert!(
                text.lines()
                    .any(|line| line.starts_with(&format!("unproven   {named}: "))),
                "{text}"
            );
        }
    }
    fs::remove_dir_all(&folder).unwrap();
}
