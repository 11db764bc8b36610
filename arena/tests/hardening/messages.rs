//! Messages and the rough edges a new user hits (the hardening issue, 32).
//!
//! What the arena prints is safe to print: a string a
//! user or a file supplied — a file name, a piece file's path recorded in a game — is printed
//! with its control characters escaped, so it can neither split the one `error:` line nor send
//! escape codes to the terminal; and help and the version count as output, so a stdout that
//! cannot take them is an error.

use std::fs;
use std::process::{Command, Stdio};

use crate::common::{fail, fail_with, scratch_folder, succeed};

#[test]
fn the_exit_code_follows_the_kind_of_the_error() {
    // Bad input: 2, as clap's own usage errors.
    let line = fail(
        "analyze",
        &[
            "bfs+elashi",
            "--board-height",
            "3",
            "--board",
            "x",
            "--pieces",
            "T",
        ],
    );
    assert_eq!(line, "error: --board-height 3 is outside 4..=32");
    fail("list", &["--no-such-flag"]);
    // A file the system cannot read: 3 (I/O), with the system's message.
    let line = fail_with(
        crate::common::IO,
        "features",
        &["--eval", "elashi", "--board", "/nonexistent/board.txt"],
    );
    assert_eq!(
        line,
        "error: /nonexistent/board.txt: No such file or directory (os error 2)"
    );
    // A weights file that is there but does not parse is bad input again.
    let folder = scratch_folder("hardening", "exit_code_kinds");
    let board = folder.join("board.txt");
    fs::write(&board, "..........\n".repeat(4)).unwrap();
    let weights = folder.join("weights.json");
    fs::write(&weights, "{not json").unwrap();
    let line = fail(
        "analyze",
        &[
            &format!("bfs+elashi:{}", weights.display()),
            "--board",
            board.to_str().unwrap(),
            "--board-height",
            "4",
            "--pieces",
            "T",
        ],
    );
    assert!(line.contains("weights.json"), "{line}");
}

#[test]
fn a_file_name_with_a_line_break_stays_on_the_one_error_line() {
    let line = fail_with(
        crate::common::IO,
        "play",
        &["bfs+elashi", "--generator", "file:/no/such\nfile"],
    );
    assert_eq!(
        line,
        "error: /no/such\\nfile: No such file or directory (os error 2)"
    );
}

#[test]
fn escape_codes_in_a_file_name_are_printed_escaped_in_errors_and_reports() {
    let line = fail_with(
        crate::common::IO,
        "tournament",
        &[
            "bfs+elashi",
            "--games",
            "2",
            "--seed",
            "1",
            "--out",
            "/no\u{1b}[2J/t.json",
        ],
    );
    assert!(!line.contains('\u{1b}'), "{line:?}");
    assert!(line.contains("/no\\u{1b}[2J/t.json"), "{line}");
    // A game played from a piece file whose name holds an escape code: the report names the
    // generator, escaped, and a recorded replay of it prints the same way.
    let folder = scratch_folder("messages", "escapes");
    let pieces = folder.join("p\u{1b}[2J.txt");
    fs::write(&pieces, "TJZOSLI".repeat(4)).unwrap();
    let generator = format!("file:{}", pieces.display());
    let replay = folder.join("game.json");
    let played = succeed(
        "play",
        &[
            "bfs+elashi",
            "--generator",
            &generator,
            "--max-pieces",
            "10",
            "--record",
            replay.to_str().unwrap(),
        ],
    );
    assert!(!played.contains('\u{1b}'), "{played:?}");
    assert!(played.contains("p\\u{1b}[2J.txt"), "{played}");
    let replayed = succeed("replay", &[replay.to_str().unwrap()]);
    assert!(!replayed.contains('\u{1b}'), "{replayed:?}");
    assert!(replayed.contains("p\\u{1b}[2J.txt"), "{replayed}");
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn help_and_version_into_a_full_stdout_are_an_error() {
    let Ok(full) = fs::OpenOptions::new().write(true).open("/dev/full") else {
        eprintln!("SKIPPED: no /dev/full on this machine");
        return;
    };
    for argument in ["--help", "-V", "--version"] {
        let output = Command::new(env!("CARGO_BIN_EXE_arena"))
            .arg(argument)
            .stdout(Stdio::from(full.try_clone().unwrap()))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{argument}: {stderr}");
        assert!(
            stderr.starts_with("error: standard output: ") && stderr.lines().count() == 1,
            "{argument}: {stderr}"
        );
    }
}

#[test]
fn tabs_and_line_breaks_of_a_report_are_kept() {
    // The escaping leaves ordinary text alone: a report's lines are still lines.
    let listed = succeed("list", &[]);
    assert!(listed.lines().count() > 10, "{listed}");
}

#[test]
fn a_negative_seed_is_named_as_a_bad_seed_not_an_unknown_option() {
    for command in [
        &["play", "bfs+elashi", "--seed", "-1"][..],
        &["tournament", "bfs+elashi", "--games", "2", "--seed", "-1"],
        &["stats", "bfs+elashi", "--pieces", "5", "--seed", "-1"],
    ] {
        assert_eq!(
            fail(command[0], &command[1..]),
            "error: --seed \"-1\" is not a seed: seeds are whole numbers from 0 to \
             18446744073709551615"
        );
    }
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
