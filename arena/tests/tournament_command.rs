//! `arena tournament` run as the built binary: the JSON and CSV outputs, independence from
//! `--jobs`, and one `error:` line with exit code 2 for every bad input.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

use crate::common;

/// Runs `arena tournament ARGS…`.
fn tournament(args: &[&str]) -> Output {
    common::run("tournament", args)
}

/// Runs a tournament command that must succeed and parses its `--json` output.
fn tournament_json(args: &[&str]) -> Value {
    common::run_json("tournament", args)
}

/// A fresh folder for one test's files.
fn scratch_folder(test: &str) -> PathBuf {
    common::scratch_folder("tournament", test)
}

/// `P(X ≤ k)` for `X ~ Binomial(n, 1/2)` by exact integers (small n only).
fn binomial_half_cdf(k: u64, n: u64) -> f64 {
    let mut sum = 0u64;
    let mut choose = 1u64;
    for i in 0..=k {
        sum += choose;
        choose = choose * (n - i) / (i + 1);
    }
    sum as f64 / (1u64 << n) as f64
}

const THREE: [&str; 3] = [
    "column-drop+dellacherie",
    "column-drop+elashi",
    "bfs+dellacherie",
];

fn three_strategy_args<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut args: Vec<&str> = THREE.to_vec();
    args.extend([
        "--games",
        "5",
        "--seed",
        "40",
        "--board-height",
        "8",
        "--max-pieces",
        "150",
    ]);
    args.extend(extra);
    args
}

#[test]
fn json_holds_the_settings_every_game_and_a_summary_consistent_with_them() {
    let json = tournament_json(&three_strategy_args(&["--jobs", "2"]));
    let settings = &json["settings"];
    assert_eq!(settings["games"], 5);
    assert_eq!(settings["seed"], 40);
    assert_eq!(settings["generator"], "uniform");
    assert_eq!(settings["board_height"], 8);
    assert_eq!(settings["board_width"], 10);
    assert_eq!(settings["max_pieces"], 150);
    assert!(
        settings["game_over_rule"]
            .as_str()
            .unwrap()
            .contains("spawn")
    );
    let strategies = settings["strategies"].as_array().unwrap();
    let names: Vec<&str> = strategies
        .iter()
        .map(|strategy| strategy["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, THREE);
    assert!(strategies.iter().all(|strategy| strategy["depth"] == 1));
    assert_eq!(json["interrupted"], false);
    assert_eq!(json["games_finished"], 15);

    let games = json["games"].as_array().unwrap();
    assert_eq!(games.len(), 15, "5 games × 3 strategies");
    for (index, game) in games.iter().enumerate() {
        // Rows come sorted by strategy, then game; game k uses seed 40 + k.
        assert_eq!(game["strategy"], THREE[index / 5]);
        assert_eq!(game["game"], (index % 5) as u64);
        assert_eq!(game["seed"], 40 + (index % 5) as u64);
        let pieces = game["pieces"].as_u64().unwrap();
        let lines = game["lines"].as_u64().unwrap();
        assert!(pieces <= 150);
        // Every piece adds 4 cells and every cleared row removes 10 of them.
        assert!(10 * lines <= 4 * pieces);
        let by_size: u64 = (1..=4)
            .map(|size| {
                let key = ["singles", "doubles", "triples", "tetrises"][size - 1];
                size as u64 * game[key].as_u64().unwrap()
            })
            .sum();
        assert_eq!(by_size, lines);
        // The cap is checked before the spawn, so a game at the cap ended by the cap.
        let end = game["end"].as_str().unwrap();
        assert_eq!(end == "piece_cap", pieces == 150, "{game}");
        assert_eq!(game["game_over"], end == "game_over");
    }

    let summary = json["summary"].as_array().unwrap();
    assert_eq!(summary.len(), 3);
    for (strategy, row) in summary.iter().enumerate() {
        let mine = &games[strategy * 5..strategy * 5 + 5];
        let mut lines: Vec<f64> = mine
            .iter()
            .map(|game| game["lines"].as_f64().unwrap())
            .collect();
        lines.sort_by(f64::total_cmp);
        let mean = lines.iter().sum::<f64>() / 5.0;
        assert_eq!(row["strategy"], THREE[strategy]);
        assert_eq!(row["games"], 5);
        assert!((row["lines"]["mean"].as_f64().unwrap() - mean).abs() < 1e-9);
        assert_eq!(row["lines"]["median"].as_f64().unwrap(), lines[2]);
        assert_eq!(row["lines"]["min"].as_f64().unwrap(), lines[0]);
        assert_eq!(row["lines"]["max"].as_f64().unwrap(), lines[4]);
        let variance = lines.iter().map(|l| (l - mean) * (l - mean)).sum::<f64>() / 4.0;
        let standard_error = (variance / 5.0).sqrt();
        assert!((row["lines"]["standard_error"].as_f64().unwrap() - standard_error).abs() < 1e-9);
        // Student t with 4 degrees of freedom: t(0.975, 4) = 2.7764451051977987, cut at 0
        // (no mean of line counts is negative) and at 60, the most lines 150 pieces can clear
        // (600 cells).
        let interval = row["lines"]["interval_95"].as_array().unwrap();
        let half_width = 2.776_445_105_197_799 * standard_error;
        assert!((interval[0].as_f64().unwrap() - (mean - half_width).max(0.0)).abs() < 1e-6);
        assert!((interval[1].as_f64().unwrap() - (mean + half_width).min(60.0)).abs() < 1e-6);
        let capped = mine
            .iter()
            .filter(|game| game["end"] == "piece_cap")
            .count();
        assert_eq!(row["capped_games"], capped);
        let total_lines: u64 = mine
            .iter()
            .map(|game| game["lines"].as_u64().unwrap())
            .sum();
        let tetrises: u64 = mine
            .iter()
            .map(|game| game["tetrises"].as_u64().unwrap())
            .sum();
        if total_lines > 0 {
            let share = row["tetris_share"].as_f64().unwrap();
            assert!((share - (4 * tetrises) as f64 / total_lines as f64).abs() < 1e-12);
        }
    }

    let pairwise = json["pairwise"].as_array().unwrap();
    assert_eq!(pairwise.len(), 3, "pairs (0,1) (0,2) (1,2)");
    for pair in pairwise {
        let a = THREE.iter().position(|name| pair["a"] == *name).unwrap();
        let b = THREE.iter().position(|name| pair["b"] == *name).unwrap();
        assert!(a < b);
        let (mut a_wins, mut b_wins, mut ties) = (0, 0, 0);
        for game in 0..5 {
            let outcome = |strategy: usize| {
                let row = &games[strategy * 5 + game];
                (
                    row["lines"].as_u64().unwrap(),
                    row["pieces"].as_u64().unwrap(),
                )
            };
            match outcome(a).cmp(&outcome(b)) {
                std::cmp::Ordering::Greater => a_wins += 1,
                std::cmp::Ordering::Less => b_wins += 1,
                std::cmp::Ordering::Equal => ties += 1,
            }
        }
        assert_eq!(pair["sequences"], 5);
        assert_eq!(pair["a_outlasted"], a_wins);
        assert_eq!(pair["b_outlasted"], b_wins);
        assert_eq!(pair["ties"], ties);
        let n = a_wins + b_wins;
        let expected = if n == 0 {
            1.0
        } else {
            (2.0 * binomial_half_cdf(a_wins.min(b_wins), n)).min(1.0)
        };
        assert!((pair["p_value"].as_f64().unwrap() - expected).abs() < 1e-12);
    }
    assert_eq!(json["timing"]["jobs"], 2);
}

#[test]
fn a_capped_runs_interval_stops_at_the_most_lines_the_cap_allows() {
    // Two games of at most 20 pieces: 20 pieces bring 80 cells, so no game clears more than 8
    // lines. Seeds 1 and 2 clear 6 and 4: mean 5, standard error 1, and Student's interval
    // 5 ± t(0.975, 1) = 5 ± 12.706... reaches 17.7, a mean no such game can have.
    let args = [
        "column-drop+dellacherie",
        "--games",
        "2",
        "--max-pieces",
        "20",
        "--seed",
        "1",
    ];
    let json = tournament_json(&args);
    let lines: Vec<u64> = json["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|game| game["lines"].as_u64().unwrap())
        .collect();
    assert_eq!(lines, [6, 4]);
    let summary = &json["summary"][0]["lines"];
    assert_eq!(summary["standard_error"].as_f64(), Some(1.0));
    assert_eq!(summary["interval_95"], serde_json::json!([0.0, 8.0]));
    let text = String::from_utf8(tournament(&args).stdout).unwrap();
    assert!(text.contains("[0.0, 8.0]"), "{text}");
    assert!(
        text.contains("cut at 0 and at 8 (the most lines 20 pieces can clear)"),
        "{text}"
    );
}

#[test]
fn results_do_not_depend_on_the_number_of_jobs() {
    let one = tournament_json(&three_strategy_args(&["--jobs", "1"]));
    let two = tournament_json(&three_strategy_args(&["--jobs", "2"]));
    let three = tournament_json(&three_strategy_args(&["--jobs", "3"]));
    assert_eq!(one["timing"]["jobs"], 1);
    assert_eq!(two["timing"]["jobs"], 2);
    let one = common::without_timing(one);
    assert_eq!(one, common::without_timing(two));
    assert_eq!(one, common::without_timing(three));
}

#[test]
fn a_piece_file_gives_every_game_the_same_worked_out_result() {
    // Five O pieces on an empty 10-wide board: the only way to keep the stack low is to lay
    // them side by side on the floor, and the fifth completes two rows at once: 5 pieces,
    // 2 lines, one double worth 100 points at level 0, then the sequence ends.
    let folder = scratch_folder("piece-file");
    let pieces = folder.join("five-o.txt");
    fs::write(&pieces, "OOOOO\n").unwrap();
    let generator = format!("file:{}", pieces.display());
    let json = tournament_json(&[
        "column-drop+dellacherie",
        "bfs+elashi",
        "--games",
        "3",
        "--seed",
        "9",
        "--generator",
        &generator,
    ]);
    let games = json["games"].as_array().unwrap();
    assert_eq!(games.len(), 6);
    for game in games {
        assert_eq!(game["pieces"], 5);
        assert_eq!(game["lines"], 2);
        assert_eq!(game["doubles"], 1);
        assert_eq!(game["score"], 100);
        assert_eq!(game["end"], "sequence_ended");
    }
    for row in json["summary"].as_array().unwrap() {
        // Every game equal: mean = median = 2, no spread, so the interval is [2, 2].
        assert_eq!(row["lines"]["mean"], 2.0);
        assert_eq!(row["lines"]["standard_error"], 0.0);
        assert_eq!(row["lines"]["interval_95"], serde_json::json!([2.0, 2.0]));
        assert_eq!(row["tetris_share"], 0.0);
        assert_eq!(row["sequence_ended_games"], 3);
    }
    let pair = &json["pairwise"][0];
    assert_eq!(pair["ties"], 3);
    assert_eq!(pair["a_outlasted"], 0);
    assert_eq!(pair["p_value"], 1.0);
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn out_writes_json_and_csv_files() {
    let folder = scratch_folder("out");
    let json_path = folder.join("results.json");
    let csv_path = folder.join("results.csv");
    let json_text = json_path.to_str().unwrap();
    let stdout_json = tournament_json(&three_strategy_args(&["--out", json_text]));
    let file_json: Value = serde_json::from_str(&fs::read_to_string(&json_path).unwrap()).unwrap();
    assert_eq!(
        file_json, stdout_json,
        "--out and --json write the same result"
    );

    let output = tournament(&three_strategy_args(&[
        "--out",
        csv_path.to_str().unwrap(),
        "--jobs",
        "1",
    ]));
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("mean lines") && text.contains("outlasted"));
    let csv = fs::read_to_string(&csv_path).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "strategy,game,seed,pieces,lines,score,singles,doubles,triples,tetrises,end,seconds"
    );
    assert_eq!(
        lines.len(),
        1 + 5 * 3,
        "a header and one row per game per strategy"
    );
    let games = stdout_json["games"].as_array().unwrap();
    for (line, game) in lines[1..].iter().zip(games) {
        let fields: Vec<&str> = line.split(',').collect();
        assert_eq!(fields.len(), 12);
        assert_eq!(fields[0], game["strategy"].as_str().unwrap());
        for (column, key) in [
            (1, "game"),
            (2, "seed"),
            (3, "pieces"),
            (4, "lines"),
            (5, "score"),
            (9, "tetrises"),
        ] {
            assert_eq!(
                fields[column].parse::<u64>().unwrap(),
                game[key].as_u64().unwrap()
            );
        }
        assert_eq!(fields[10], game["end"].as_str().unwrap());
        assert!(fields[11].parse::<f64>().unwrap() >= 0.0);
    }
    // JSON Lines: one line per game, each the object of the report's `games` list, in its
    // order (written as the games finish, with 2 jobs).
    let lines_path = folder.join("games.jsonl");
    let output = tournament(&three_strategy_args(&[
        "--out",
        lines_path.to_str().unwrap(),
        "--jobs",
        "2",
    ]));
    assert!(output.status.success());
    let lines: Vec<Value> = fs::read_to_string(&lines_path)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(&lines, games);
    // Only the three results: no temporary file left beside them.
    assert_eq!(fs::read_dir(&folder).unwrap().count(), 3);
    fs::remove_dir_all(&folder).unwrap();
}

/// Asserts a failed run: exit code 2, nothing on stdout, one `error:` line on stderr.
fn assert_one_error_line(args: &[&str]) {
    common::fail("tournament", args);
}

#[test]
fn bad_inputs_exit_2_with_one_error_line() {
    let folder = scratch_folder("bad");
    let bad_weights = folder.join("bad-weights.json");
    fs::write(&bad_weights, "{ not json").unwrap();
    let bad_strategy = format!("bfs+elashi:{}", bad_weights.display());
    let bad_pieces = folder.join("pieces.txt");
    fs::write(&bad_pieces, "TJZX").unwrap();
    let bad_piece_file = format!("file:{}", bad_pieces.display());
    let missing_folder = folder.join("missing/results.json");
    let base = ["--games", "2", "--seed", "1", "--max-pieces", "10"];
    let cases: Vec<Vec<&str>> = vec![
        vec!["nope+elashi"],
        vec!["bfs+nope"],
        vec!["bfs+dellacherie:nope"],
        vec!["bfs+elashi@0"],
        vec![bad_strategy.as_str()],
        vec!["bfs+elashi", "bfs+elashi@1"],
        vec!["bfs+elashi", "--generator", "nope"],
        vec!["bfs+elashi", "--generator", bad_piece_file.as_str()],
        vec!["bfs+elashi", "--board-height", "3"],
        vec!["bfs+elashi", "--board-height", "33"],
        vec!["bfs+elashi", "--jobs", "0"],
    ];
    for case in &cases {
        let mut args = case.clone();
        args.extend(base);
        assert_one_error_line(&args);
    }
    // Files that are not there (a weights file, a piece file, the output's folder): I/O,
    // exit code 3.
    let io_cases: Vec<Vec<&str>> = vec![
        vec!["bfs+elashi:/nonexistent/weights.json"],
        vec!["bfs+elashi", "--generator", "file:/nonexistent/pieces.txt"],
        vec!["bfs+elashi", "--out", missing_folder.to_str().unwrap()],
    ];
    for case in &io_cases {
        let mut args = case.clone();
        args.extend(base);
        let line = common::fail_with(common::IO, "tournament", &args);
        assert!(
            line.contains("/nonexistent/") || line.contains("folder does not exist"),
            "{line}"
        );
    }
    for args in [
        &["--games", "1", "--seed", "1"][..],
        &["bfs+elashi", "--games", "0", "--seed", "1"],
        &["bfs+elashi", "--games", "10000001", "--seed", "1"],
        &["bfs+elashi", "--games", "-3", "--seed", "1"],
        &["bfs+elashi", "--games", "1", "--seed", "-1"],
        &[
            "bfs+elashi",
            "--games",
            "1",
            "--seed",
            "1",
            "--max-pieces",
            "0",
        ],
        &["bfs+elashi", "--games", "1", "--seed", "1", "--jobs", "-2"],
        &["bfs+elashi", "--seed", "1"],
        &[
            "bfs+elashi",
            "--games",
            "2",
            "--seed",
            "18446744073709551615",
        ],
    ] {
        assert_one_error_line(args);
    }
    assert!(!Path::new(&missing_folder).exists());
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn help_explains_every_option() {
    let output = tournament(&["--help"]);
    assert!(output.status.success());
    let help = String::from_utf8(output.stdout).unwrap();
    for option in [
        "--games",
        "--seed",
        "--generator",
        "--max-pieces",
        "--board-height",
        "--jobs",
        "--out",
        "--json",
        "STRATEGY",
    ] {
        assert!(help.contains(option), "--help lacks {option}");
    }
    assert!(help.contains("seed S + k"));
}
