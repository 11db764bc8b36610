//! The numbers and outputs a new user sees (the hardening issue, 32): numbers of any size read
//! as ordinary numbers (scientific notation only for the truly tiny or huge), the interval of
//! a mean of line counts never goes below 0, every command's `--json` is laid out by one rule,
//! and every file a command writes is announced by one `WHAT written to PATH` line on stderr.

use std::fs;
use std::process::Output;

use serde_json::Value;

use super::text;
use crate::common::succeed;
use crate::common::{run, scratch_folder};

/// Runs `arena COMMAND ARGS…`, which must succeed; its stdout and its stderr lines.
fn succeed_with_stderr(command: &str, args: &[&str]) -> (String, Vec<String>) {
    let Output {
        status,
        stdout,
        stderr,
    } = run(command, args);
    let stderr = String::from_utf8(stderr).unwrap();
    assert!(status.success(), "{command} {args:?}: {stderr}");
    (
        String::from_utf8(stdout).unwrap(),
        stderr.lines().map(String::from).collect(),
    )
}

#[test]
fn expected_game_lengths_and_shares_print_as_ordinary_numbers() {
    // The report: `expected 4.406021e3 pieces`. Seed 0, 20,000 pieces on 10 × 10 is
    // deterministic; its JSON holds the full values the text rounds.
    let args = [
        "column-drop+dellacherie",
        "--pieces",
        "20000",
        "--board-height",
        "10",
    ];
    let (report, _) = succeed_with_stderr("stats", &args);
    let json: Value =
        serde_json::from_str(&succeed_with_stderr("stats", &[&args[..], &["--json"]].concat()).0)
            .unwrap();
    let fit = &json["fit"];
    let share = fit["top_row_share"].as_f64().unwrap();
    let pieces = fit["expected_pieces"].as_f64().unwrap();
    let lines = fit["expected_lines"].as_f64().unwrap();
    // 4 significant digits: 9.573e-4 (below 0.001: scientific), 1,045 and 417.8.
    assert!((share - 9.573e-4).abs() <= 0.000_5e-4, "{share}");
    assert!((pieces - 1045.0).abs() < 0.5, "{pieces}");
    assert!((lines - 417.8).abs() < 0.05, "{lines}");
    assert!(
        report.contains("\nshare at row 0 9.573e-4: expected 1,045 pieces, 417.8 lines per game\n"),
        "{report}"
    );
    // The row table's shares: row 0 holds 41 of the 20,000 pieces, row 8 8,043.
    assert!(
        report.contains("\n   0          41     0.002050  \n"),
        "{report}"
    );
    assert!(
        report.contains("\n   8        8043       0.4022  \n"),
        "{report}"
    );
}

#[test]
fn the_interval_of_mean_lines_stays_between_zero_and_the_caps_most_lines() {
    // Two games of 11 and 5 lines: mean 8, standard deviation sqrt(18), standard error 3;
    // t(0.975, 1) = tan(0.475 π) = 12.706204736174698, so Student's interval is
    // 8 ± 38.1186..., whose low end (−30.1) no mean of line counts can be: it starts at 0.
    let args = [
        "column-drop+elashi",
        "--games",
        "2",
        "--max-pieces",
        "100",
        "--board-height",
        "8",
    ];
    let json: Value = serde_json::from_str(
        &succeed_with_stderr("tournament", &[&args[..], &["--json"]].concat()).0,
    )
    .unwrap();
    let lines: Vec<u64> = json["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|game| game["lines"].as_u64().unwrap())
        .collect();
    assert_eq!(lines, [11, 5]);
    let summary = &json["summary"][0]["lines"];
    assert!((summary["standard_error"].as_f64().unwrap() - 3.0).abs() < 1e-12);
    let interval = summary["interval_95"].as_array().unwrap();
    assert_eq!(interval[0].as_f64().unwrap(), 0.0);
    // Student's high end, 8 + 12.706... × 3 = 46.1, is past the 40 lines that 100 pieces can
    // clear at most (400 cells): the interval stops there.
    assert_eq!(interval[1].as_f64().unwrap(), 40.0);
    let (report, _) = succeed_with_stderr("tournament", &args);
    assert!(report.contains("  [0.0, 40.0]  "), "{report}");
    assert!(
        json["settings"]["interval_rule"]
            .as_str()
            .unwrap()
            .contains("cut at 0 below"),
        "{json}"
    );
}

/// Checks the layout rule of every `--json` (docs/commands.md, "JSON output") on `output`,
/// which must be one JSON document: objects open a line per member, indented two spaces a
/// level, and no line runs longer than `longest` characters. Returns the parsed value.
fn laid_out(command: &str, output: &str, longest: usize) -> Value {
    let value: Value = serde_json::from_str(output)
        .unwrap_or_else(|error| panic!("{command} --json is one JSON document: {error}\n{output}"));
    let lines: Vec<&str> = output.lines().collect();
    assert!(lines.len() > 2, "{command}: {output}");
    assert_eq!(lines[0], "{", "{command}");
    assert_eq!(*lines.last().unwrap(), "}", "{command}");
    assert!(output.ends_with("}\n"), "{command}");
    for line in &lines[1..lines.len() - 1] {
        let indent = line.len() - line.trim_start().len();
        assert!(indent >= 2 && indent % 2 == 0, "{command}: {line:?}");
        assert!(
            line.len() <= longest,
            "{command}: a line of {} characters",
            line.len()
        );
    }
    value
}

/// The lines of `output` that are elements of the array `key` (one level below its opening
/// line), each trimmed.
fn elements<'a>(output: &'a str, key: &str) -> Vec<&'a str> {
    let opening = format!("\"{key}\": [");
    let mut lines = output
        .lines()
        .skip_while(|line| !line.trim_start().starts_with(&opening));
    let first = lines.next().expect("the array is there");
    let indent = first.len() - first.trim_start().len() + 2;
    lines
        .take_while(|line| line.len() - line.trim_start().len() >= indent)
        .filter(|line| line.len() - line.trim_start().len() == indent)
        .map(str::trim)
        .collect()
}

#[test]
fn every_json_report_follows_one_layout() {
    let folder = scratch_folder("formats", "json");
    // play: one placement per line (it used to be one line of everything).
    let play = succeed_with_stderr(
        "play",
        &[
            "column-drop+elashi",
            "--max-pieces",
            "30",
            "--board-height",
            "8",
            "--json",
        ],
    )
    .0;
    let json = laid_out("play", &play, 200);
    let placements = elements(&play, "placements");
    assert_eq!(placements.len(), json["pieces"].as_u64().unwrap() as usize);
    for (line, placement) in placements
        .iter()
        .zip(json["placements"].as_array().unwrap())
    {
        let line = line.trim_end_matches(',');
        assert_eq!(serde_json::from_str::<Value>(line).unwrap(), *placement);
    }
    // tournament: one game per line; the summaries, which hold objects, laid out in full.
    let tournament = succeed_with_stderr(
        "tournament",
        &[
            "column-drop+elashi",
            "column-drop+dellacherie",
            "--games",
            "3",
            "--max-pieces",
            "20",
            "--board-height",
            "8",
            "--json",
        ],
    )
    .0;
    let json = laid_out("tournament", &tournament, 400);
    assert_eq!(elements(&tournament, "games").len(), 6);
    assert!(
        elements(&tournament, "games")[0]
            .starts_with("{\"strategy\":\"column-drop+elashi\",\"game\":0,")
    );
    assert_eq!(elements(&tournament, "summary")[0], "{");
    assert_eq!(json["summary"].as_array().unwrap().len(), 2);
    // stats: one row per line, one row of the cell counts per line.
    let stats = succeed_with_stderr(
        "stats",
        &[
            "column-drop+elashi",
            "--pieces",
            "500",
            "--board-height",
            "6",
            "--json",
        ],
    )
    .0;
    laid_out("stats", &stats, 400);
    assert_eq!(elements(&stats, "rows").len(), 6);
    assert!(elements(&stats, "rows")[0].starts_with("{\"row\":0,\"count\":"));
    assert_eq!(elements(&stats, "counts").len(), 6);
    // Arrays of numbers or strings stay on one line.
    assert!(
        stats
            .lines()
            .any(|line| line.starts_with("  \"fit_rows\": [") && line.ends_with("],"))
    );
    // The other commands' reports follow the same rule.
    let board = folder.join("empty.txt");
    fs::write(&board, "..........\n".repeat(6)).unwrap();
    let analyze = succeed_with_stderr(
        "analyze",
        &[
            "column-drop+elashi@2",
            "--board",
            text(&board),
            "--board-height",
            "6",
            "--pieces",
            "I,T",
            "--json",
        ],
    )
    .0;
    laid_out("analyze", &analyze, 400);
    assert!(
        analyze.contains("\n  \"pieces\": [\"I\",\"T\"],\n"),
        "{analyze}"
    );
    let features = succeed_with_stderr(
        "features",
        &[
            "--board",
            text(&board),
            "--board-height",
            "6",
            "--eval",
            "elashi",
            "--json",
        ],
    )
    .0;
    laid_out("features", &features, 200);
    laid_out("list", &succeed_with_stderr("list", &["--json"]).0, 400);
    let nes = succeed_with_stderr("nes", &["column-drop+elashi", "--games", "2", "--json"]).0;
    laid_out("nes", &nes, 600);
    let replay = folder.join("game.json");
    succeed_with_stderr(
        "play",
        &[
            "column-drop+elashi",
            "--max-pieces",
            "5",
            "--board-height",
            "6",
            "--record",
            text(&replay),
        ],
    );
    laid_out(
        "replay",
        &succeed_with_stderr("replay", &[text(&replay), "--json"]).0,
        200,
    );
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn every_written_file_is_announced_on_stderr_with_its_name() {
    let folder = scratch_folder("formats", "written");
    let file = |name: &str| folder.join(name).to_str().unwrap().to_string();
    let play = [
        "column-drop+elashi",
        "--max-pieces",
        "5",
        "--board-height",
        "6",
    ];
    // play --record and --html, with --json: stdout stays the JSON alone.
    let (record, html) = (file("game.json"), file("game.html"));
    let (stdout, stderr) = succeed_with_stderr(
        "play",
        &[&play[..], &["--record", &record, "--html", &html, "--json"]].concat(),
    );
    serde_json::from_str::<Value>(&stdout).unwrap();
    assert_eq!(
        stderr,
        [
            format!("replay written to {record}"),
            format!("replay viewer page written to {html}"),
        ]
    );
    // A name with an escape code is printed escaped.
    let odd = folder.join("odd\u{1b}[2J.json");
    let (_, stderr) = succeed_with_stderr("play", &[&play[..], &["--record", text(&odd)]].concat());
    assert_eq!(
        stderr,
        [format!(
            "replay written to {}/odd\\u{{1b}}[2J.json",
            folder.display()
        )]
    );
    let replay_html = file("replay.html");
    let (_, stderr) = succeed_with_stderr("replay", &[&record, "--html", &replay_html]);
    assert_eq!(
        stderr,
        [format!("replay viewer page written to {replay_html}")]
    );
    // tournament --plots, --html and --out.
    let (plots, page, results) = (file("plots"), file("t.html"), file("t.csv"));
    let (_, stderr) = succeed_with_stderr(
        "tournament",
        &[
            "column-drop+elashi",
            "--games",
            "2",
            "--max-pieces",
            "5",
            "--board-height",
            "6",
            "--plots",
            &plots,
            "--html",
            &page,
            "--out",
            &results,
        ],
    );
    assert_eq!(
        stderr,
        [
            format!("plots written to {plots}"),
            format!("tournament page written to {page}"),
            format!("results written to {results}"),
        ]
    );
    // nes --out.
    let nes_out = file("nes.json");
    let (stdout, stderr) = succeed_with_stderr(
        "nes",
        &[
            "column-drop+elashi",
            "--games",
            "1",
            "--out",
            &nes_out,
            "--json",
        ],
    );
    serde_json::from_str::<Value>(&stdout).unwrap();
    assert_eq!(stderr, [format!("results written to {nes_out}")]);
    // stats --out DIR, and its shard's part (which says so on stdout, its only output), and
    // the merge of that one part into a folder.
    let stats = [
        "column-drop+elashi",
        "--pieces",
        "200",
        "--board-height",
        "6",
    ];
    let stats_dir = file("stats");
    let (_, stderr) = succeed_with_stderr("stats", &[&stats[..], &["--out", &stats_dir]].concat());
    assert_eq!(
        stderr,
        [format!(
            "statistics (stats.json and the plots) written to {stats_dir}"
        )]
    );
    let part = file("part.json");
    let (stdout, stderr) = succeed_with_stderr(
        "stats",
        &[&stats[..], &["--shard", "0/1", "--out", &part]].concat(),
    );
    assert_eq!(
        stdout,
        format!(
            "stats shard 0/1: 1 of 1 blocks written to {part} (merge every shard with `arena merge`)\n"
        )
    );
    assert!(stderr.is_empty(), "{stderr:?}");
    let merged = file("merged");
    let (_, stderr) = succeed_with_stderr("merge", &[&part, "--out", &merged]);
    assert_eq!(
        stderr,
        [format!(
            "statistics (stats.json and the plots) written to {merged}"
        )]
    );
    // tune --out and --checkpoint: written after every iteration, announced once.
    let (weights, checkpoint) = (file("tuned.json"), file("tune.ck"));
    let (_, stderr) = succeed_with_stderr(
        "tune",
        &[
            "elashi",
            "--searcher",
            "column-drop",
            "--games",
            "1",
            "--population",
            "2",
            "--iterations",
            "2",
            "--board-height",
            "6",
            "--max-pieces",
            "5",
            "--out",
            &weights,
            "--checkpoint",
            &checkpoint,
        ],
    );
    let written: Vec<&String> = stderr
        .iter()
        .filter(|line| line.contains(" written to "))
        .collect();
    assert_eq!(
        written,
        [
            &format!("checkpoint written to {checkpoint}"),
            &format!("tuned weights written to {weights}"),
        ]
    );
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn tabs_and_line_breaks_of_a_report_are_kept() {
    // The escaping leaves ordinary text alone: a report's lines are still lines.
    let listed = succeed("list", &[]);
    assert!(listed.lines().count() > 10, "{listed}");
}

#[test]
fn every_command_takes_seed_0_by_default() {
    // `play` always did; `tournament`, `nes` and `stats` required `--seed`.
    let explicit = succeed(
        "stats",
        &[
            "column-drop+dellacherie",
            "--pieces",
            "200",
            "--board-height",
            "8",
            "--seed",
            "0",
            "--json",
        ],
    );
    let default = succeed(
        "stats",
        &[
            "column-drop+dellacherie",
            "--pieces",
            "200",
            "--board-height",
            "8",
            "--json",
        ],
    );
    // The same report but for the command that made it.
    assert_eq!(
        crate::common::text_without_made_by(&default),
        crate::common::text_without_made_by(&explicit)
    );
    let tournament = succeed(
        "tournament",
        &[
            "column-drop+dellacherie",
            "--games",
            "2",
            "--board-height",
            "6",
            "--json",
        ],
    );
    assert!(tournament.contains("\"seed\": 0"), "{tournament}");
}

#[test]
fn games_without_a_piece_cap_are_announced_off_the_terminal_too() {
    // Small fields end the games; the note comes all the same (stderr is not a terminal here).
    for command in [
        &["play", "column-drop+dellacherie", "--board-height", "6"][..],
        &[
            "tournament",
            "column-drop+dellacherie",
            "--games",
            "2",
            "--board-height",
            "6",
        ],
    ] {
        let output = crate::common::run(command[0], &command[1..]);
        assert!(output.status.success());
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(
            stderr,
            "note: no --max-pieces: on 10 x 6 strong strategies practically never top out, so a \
             game may never end; --max-pieces N (or a shorter --board-height) bounds it\n",
            "{command:?}"
        );
    }
    // With a cap, or with --json (a script reading stdout), there is nothing to say.
    let capped = crate::common::run(
        "play",
        &[
            "column-drop+dellacherie",
            "--board-height",
            "6",
            "--max-pieces",
            "50",
        ],
    );
    assert!(capped.stderr.is_empty());
}
