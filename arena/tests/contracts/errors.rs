//! Every mistake is one `error:` line on stderr, nothing on stdout, with the exit code of its
//! kind (docs/commands.md, "Exit codes"), never a panic, even with stdout or stderr full or
//! closed; and what it prints is safe to print: a file name or a value a user supplied is
//! printed with its control characters escaped, so it can neither split the one line nor
//! send escape codes to the terminal.

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};

use crate::common::{self, fail, fail_with, scratch_folder, succeed};

#[test]
fn a_mistyped_option_or_command_keeps_claps_suggestion_on_the_one_line() {
    assert_eq!(
        fail("tournament", &["bfs+elashi", "--game", "3"]),
        "error: unexpected argument '--game' found; tip: a similar argument exists: '--games'"
    );
    assert_eq!(
        fail("play", &["bfs+elashi", "--max-piece", "3"]),
        "error: unexpected argument '--max-piece' found; tip: a similar argument exists: \
         '--max-pieces'"
    );
    // No suggestion where clap has none.
    assert_eq!(
        fail("list", &["--no-such-flag"]),
        "error: unexpected argument '--no-such-flag' found"
    );
}

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
