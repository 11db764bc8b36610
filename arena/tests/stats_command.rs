//! `arena stats` run as the built binary: the JSON numbers, the plots, determinism, a scripted
//! full clear, and one `error:` line with exit code 2 for every bad input.

use std::fs;
use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

use crate::common;

/// Runs `arena stats ARGS…`.
fn stats(args: &[&str]) -> Output {
    common::run("stats", args)
}

/// Runs a stats command that must succeed and parses its `--json` output.
fn stats_json(args: &[&str]) -> Value {
    common::run_json("stats", args)
}

/// A fresh folder for one test's files.
fn scratch_folder(test: &str) -> PathBuf {
    common::scratch_folder("stats", test)
}

#[test]
fn a_weak_strategy_on_a_short_field_gives_consistent_numbers_and_plots() {
    let folder = scratch_folder("happy");
    let out = folder.join("plots");
    let out_text = out.to_str().unwrap();
    let args = [
        "column-drop+elashi",
        "--pieces",
        "20000",
        "--seed",
        "5",
        "--board-height",
        "8",
        "--out",
        out_text,
    ];
    let first = stats_json(&args);
    assert_eq!(first["strategy"], "column-drop+elashi");
    assert_eq!(first["pieces"], 20000);
    assert_eq!(first["board_height"], 8);
    // A weak strategy tops out on 10 × 8 many times in 20000 pieces; every game but the last
    // ended by a game over, and the last one stopped at the cap.
    let games = first["games"].as_u64().unwrap();
    assert!(games > 2, "{games} games");
    assert_eq!(first["game_overs"].as_u64().unwrap(), games - 1);

    let rows = first["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 8);
    let counted: u64 = rows.iter().map(|row| row["count"].as_u64().unwrap()).sum();
    assert_eq!(counted, 20000);
    let share_sum: f64 = rows.iter().map(|row| row["share"].as_f64().unwrap()).sum();
    assert!((share_sum - 1.0).abs() < 1e-12, "shares sum to {share_sum}");

    // Every piece has 4 cells, on the field or above it.
    let cells = &first["cells"];
    let on_field: u64 = cells["counts"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|row| row.as_array().unwrap())
        .map(|count| count.as_u64().unwrap())
        .sum();
    assert_eq!(
        on_field + cells["cells_above_top"].as_u64().unwrap(),
        4 * 20000
    );

    // The fitted rows obey the rule: 1 ≤ row ≤ H − 5 = 3, at least 20 pieces each.
    let fit_rows: Vec<u64> = first["fit_rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row.as_u64().unwrap())
        .collect();
    assert!(fit_rows.len() >= 2, "{fit_rows:?}");
    for &row in &fit_rows {
        assert!((1..=3).contains(&row), "{fit_rows:?}");
        assert!(rows[row as usize]["count"].as_u64().unwrap() >= 20);
    }
    let fit = &first["fit"];
    let ratio = fit["ratio"].as_f64().unwrap();
    let slope = fit["slope"].as_f64().unwrap();
    assert!((ratio - 10f64.powf(slope)).abs() < 1e-12);
    // Shares grow downwards, towards the stack's usual height.
    assert!(ratio > 1.0, "ratio {ratio}");
    let r_squared = fit["r_squared"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&r_squared));
    let expected_pieces = fit["expected_pieces"].as_f64().unwrap();
    let top_share = fit["top_row_share"].as_f64().unwrap();
    assert!((expected_pieces * top_share - 1.0).abs() < 1e-12);
    assert!((fit["expected_lines"].as_f64().unwrap() - 0.4 * expected_pieces).abs() < 1e-9);

    // Full clears: the histogram adds up to the count, and an interval is a multiple of 5
    // unless a cell was lost above the field during it.
    let clears = &first["full_clears"];
    let histogram = clears["histogram"].as_array().unwrap();
    let mut total = 0;
    let mut irregular = 0;
    for bin in histogram {
        let count = bin["count"].as_u64().unwrap();
        total += count;
        if bin["pieces"].as_u64().unwrap() % 5 != 0 {
            irregular += count;
        }
    }
    assert!(total > 0, "no full clear in 20000 pieces");
    assert_eq!(total, clears["count"].as_u64().unwrap());
    assert!(irregular <= clears["after_cells_above_top"].as_u64().unwrap());

    for name in [
        "row_shares.svg",
        "cell_heat_map.svg",
        "full_clear_intervals.svg",
        "column_shares.svg",
    ] {
        let svg = fs::read_to_string(out.join(name)).unwrap();
        assert!(svg.starts_with("<svg"), "{name}");
        assert!(svg.trim_end().ends_with("</svg>"), "{name}");
    }
    // The seven column histograms, one panel per piece type, each titled with its count.
    let columns_svg = fs::read_to_string(out.join("column_shares.svg")).unwrap();
    for (piece, entry) in first["columns"].as_array().unwrap().iter().enumerate() {
        let title = format!(
            "{} ({} pieces)",
            &"TJZOSLI"[piece..piece + 1],
            entry["pieces"]
        );
        assert!(columns_svg.contains(&title), "{title}");
    }
    assert_eq!(first["row"], "pivot");
    let written: Value =
        serde_json::from_str(&fs::read_to_string(out.join("stats.json")).unwrap()).unwrap();
    assert_eq!(written, first);

    // Same options, same numbers and the same plots.
    let heat_map = fs::read_to_string(out.join("cell_heat_map.svg")).unwrap();
    let second = stats_json(&args);
    assert_eq!(first, second);
    assert_eq!(
        heat_map,
        fs::read_to_string(out.join("cell_heat_map.svg")).unwrap()
    );
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn five_o_pieces_from_a_file_make_one_full_clear_after_five_pieces() {
    // Column drop puts each O as low as possible; five of them fill the bottom two rows of
    // the empty 10-wide field, which clear: one full clear, 5 pieces after the game's start.
    let folder = scratch_folder("five-o");
    let sequence = folder.join("o.txt");
    fs::write(&sequence, "OOOOO\n").unwrap();
    let generator = format!("file:{}", sequence.display());
    let result = stats_json(&[
        "column-drop+elashi",
        "--pieces",
        "100",
        "--seed",
        "0",
        "--generator",
        &generator,
    ]);
    // The file runs out after 5 pieces, which ends the run.
    assert_eq!(result["pieces"], 5);
    assert_eq!(result["lines"], 2);
    assert_eq!(result["full_clears"]["count"], 1);
    assert_eq!(result["full_clears"]["mean_interval"], 5.0);
    assert_eq!(
        result["full_clears"]["histogram"],
        serde_json::json!([{"pieces": 5, "count": 1}])
    );
    // All five pivots (and tops: an O's pivot is in its top row) in row 18 of 20.
    assert_eq!(result["rows"][18]["count"], 5);
    fs::remove_dir_all(&folder).unwrap();
}

/// The smallest dy of each piece's cells in each rotation (docs/spec/rules.md's table, T J Z O S L I):
/// the top cell lies that many rows above (negative) the pivot.
const TOP_DY: [&[i64]; 7] = [
    &[0, -1, -1, -1],
    &[0, -1, -1, -1],
    &[0, -1],
    &[0],
    &[0, -1],
    &[0, -1, -1, -1],
    &[0, -2],
];

#[test]
fn the_row_rule_is_recorded_and_rows_and_columns_match_the_placements() {
    // One game of 400 pieces (this strategy does not top out in them on 10 × 20, so the
    // stats run is `arena play`'s game with the same seed): every count is recomputed from
    // the placements `play` lists.
    let base = ["column-drop+dellacherie", "--seed", "3"];
    let play = common::run_json("play", &[&base[..], &["--max-pieces", "400"]].concat());
    assert_eq!(play["game_over"], false);
    let placements = play["placements"].as_array().unwrap();
    assert_eq!(placements.len(), 400);
    let letters = "TJZOSLI";
    let mut pivot_rows = [0u64; 20];
    let mut top_rows = [0u64; 20];
    let mut columns = [[0u64; 10]; 7];
    for placement in placements {
        let piece = letters.find(placement["piece"].as_str().unwrap()).unwrap();
        let (x, y) = (
            placement["x"].as_i64().unwrap(),
            placement["y"].as_i64().unwrap(),
        );
        let rotation = placement["rotation"].as_u64().unwrap() as usize;
        pivot_rows[y.max(0) as usize] += 1;
        top_rows[(y + TOP_DY[piece][rotation]).max(0) as usize] += 1;
        columns[piece][x as usize] += 1;
    }
    assert_ne!(pivot_rows, top_rows, "the rules must differ on this game");
    let run = |rule: Option<&str>| {
        let mut args = [&base[..], &["--pieces", "400"]].concat();
        if let Some(rule) = rule {
            args.extend(["--row", rule]);
        }
        stats_json(&args)
    };
    let (default, pivot, top) = (run(None), run(Some("pivot")), run(Some("top")));
    assert_eq!(
        common::without_made_by(default),
        common::without_made_by(pivot.clone()),
        "pivot is the default"
    );
    assert_eq!(pivot["row"], "pivot");
    assert_eq!(top["row"], "top");
    assert!(pivot["row_rule"].as_str().unwrap().contains("pivot"));
    assert!(top["row_rule"].as_str().unwrap().contains("highest cell"));
    let counts = |report: &Value| -> Vec<u64> {
        report["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|row| row["count"].as_u64().unwrap())
            .collect()
    };
    assert_eq!(counts(&pivot), pivot_rows);
    assert_eq!(counts(&top), top_rows);
    // Columns: the pivot's, under either row rule; each type's shares sum to 1.
    assert_eq!(pivot["columns"], top["columns"]);
    let reported = pivot["columns"].as_array().unwrap();
    assert_eq!(reported.len(), 7);
    for (piece, entry) in reported.iter().enumerate() {
        assert_eq!(entry["piece"].as_str().unwrap(), &letters[piece..piece + 1]);
        let entry_counts: Vec<u64> = entry["counts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|count| count.as_u64().unwrap())
            .collect();
        assert_eq!(
            entry_counts,
            columns[piece],
            "piece {}",
            &letters[piece..piece + 1]
        );
        let pieces: u64 = columns[piece].iter().sum();
        assert!(pieces > 0);
        assert_eq!(entry["pieces"], pieces);
        let shares: Vec<f64> = entry["shares"]
            .as_array()
            .unwrap()
            .iter()
            .map(|share| share.as_f64().unwrap())
            .collect();
        assert!((shares.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        for (share, count) in shares.iter().zip(&columns[piece]) {
            assert_eq!(*share, *count as f64 / pieces as f64);
        }
    }
    // The text says which rule, and shows the column table.
    let text = String::from_utf8(
        stats(&[&base[..], &["--pieces", "400", "--row", "top"]].concat()).stdout,
    )
    .unwrap();
    assert!(text.contains("rows counted by --row top"), "{text}");
    assert!(
        text.contains("columns (percent of each piece type's pieces"),
        "{text}"
    );
}

#[test]
fn bad_inputs_exit_with_code_2_and_one_error_line() {
    let folder = scratch_folder("bad");
    let plain_file = folder.join("file");
    fs::write(&plain_file, "x").unwrap();
    let under_a_file = plain_file.join("plots");
    let under_a_file = under_a_file.to_str().unwrap();
    // Each case with a word its error line must contain.
    // Each case with its exit code (2 bad input, 3 a folder the system cannot make).
    for (args, named, code) in [
        (
            vec!["column-drop+elashi", "--pieces", "0"],
            "--pieces",
            common::BAD_INPUT,
        ),
        (
            vec!["nope+elashi", "--pieces", "10"],
            "nope",
            common::BAD_INPUT,
        ),
        (
            vec!["column-drop+elashi", "--pieces", "10", "--row", "bottom"],
            "--row",
            common::BAD_INPUT,
        ),
        (
            vec![
                "column-drop+elashi",
                "--pieces",
                "10",
                "--out",
                under_a_file,
            ],
            "plots",
            common::IO,
        ),
        (
            vec![
                "column-drop+elashi",
                "--pieces",
                "10",
                "--board-height",
                "3",
            ],
            "3",
            common::BAD_INPUT,
        ),
        (
            vec![
                "column-drop+elashi",
                "--pieces",
                "10",
                "--generator",
                "nope",
            ],
            "nope",
            common::BAD_INPUT,
        ),
    ] {
        let mut args = args;
        args.extend(["--seed", "1"]);
        let output = stats(&args);
        assert_eq!(output.status.code(), Some(code), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
        assert!(stderr.contains(named), "{args:?}: {stderr}");
        assert!(output.stdout.is_empty(), "{args:?}");
    }
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn a_tournament_draws_the_lines_per_game_chart_and_every_stats_plot() {
    let folder = scratch_folder("tournament");
    let plots = folder.join("plots");
    let output = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args([
            "tournament",
            "column-drop+elashi",
            "column-drop+dellacherie",
            "--games",
            "6",
            "--seed",
            "1",
            "--board-height",
            "8",
            "--json",
            "--plots",
            plots.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let svg = fs::read_to_string(plots.join("lines_per_game.svg")).unwrap();
    assert!(svg.starts_with("<svg"));
    // Each strategy is named in the legend.
    assert!(svg.contains("column-drop+elashi") && svg.contains("column-drop+dellacherie"));
    // Every `arena stats` plot, per strategy, in a folder named after it: the column
    // histograms too.
    for strategy in ["column-drop_elashi", "column-drop_dellacherie"] {
        let mut files: Vec<String> = fs::read_dir(plots.join(strategy))
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        files.sort();
        assert_eq!(
            files,
            [
                "cell_heat_map.svg",
                "column_shares.svg",
                "full_clear_intervals.svg",
                "row_shares.svg"
            ]
        );
        for plot in &files {
            let svg = fs::read_to_string(plots.join(strategy).join(plot)).unwrap();
            assert!(svg.starts_with("<svg"), "{strategy}/{plot}");
        }
    }
    // The same games played with one job give the same plots.
    let one_job = folder.join("one-job");
    let rerun = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args([
            "tournament",
            "column-drop+elashi",
            "column-drop+dellacherie",
            "--games",
            "6",
            "--seed",
            "1",
            "--board-height",
            "8",
            "--jobs",
            "1",
            "--plots",
            one_job.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(rerun.status.success());
    for plot in [
        "row_shares.svg",
        "cell_heat_map.svg",
        "full_clear_intervals.svg",
        "column_shares.svg",
    ] {
        assert_eq!(
            fs::read(plots.join("column-drop_elashi").join(plot)).unwrap(),
            fs::read(one_job.join("column-drop_elashi").join(plot)).unwrap(),
            "{plot}"
        );
    }
    fs::remove_dir_all(&folder).unwrap();
}
