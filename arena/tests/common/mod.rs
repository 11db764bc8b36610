//! Helpers shared by the arena's integration tests: run the built binary, parse its `--json`
//! output, make a scratch folder.

use std::fs;
use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

pub mod browser;
pub mod server;
pub mod venv;

/// Runs `arena COMMAND ARGS…`.
pub fn run(command: &str, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arena"))
        .arg(command)
        .args(args)
        .output()
        .expect("the arena binary runs")
}

/// Runs `arena COMMAND ARGS… --json`, which must succeed with nothing on stderr but the
/// lines naming the files it wrote (not a terminal: no progress bar), and parses its stdout.
pub fn run_json(command: &str, args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.push("--json");
    let output = run(command, &all);
    assert!(
        output.status.success(),
        "{command} {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_only_written_lines(&output.stderr);
    serde_json::from_slice(&output.stdout).expect("stdout is JSON")
}

/// Checks that `stderr` holds nothing but lines naming written files (`WHAT written to PATH`).
pub fn assert_only_written_lines(stderr: &[u8]) {
    let stderr = String::from_utf8_lossy(stderr);
    assert!(
        stderr.lines().all(|line| line.contains(" written to ")),
        "{stderr}"
    );
}

/// A fresh, empty folder for one test's files.
pub fn scratch_folder(command: &str, test: &str) -> PathBuf {
    let folder =
        std::env::temp_dir().join(format!("arena-{command}-{}-{test}", std::process::id()));
    let _ = fs::remove_dir_all(&folder);
    fs::create_dir_all(&folder).unwrap();
    folder
}

/// The JSON without what depends on the run rather than on its games: the machine-dependent
/// `timing` object and the `made_by` object, which names the command (both must be there).
pub fn without_timing(value: Value) -> Value {
    let mut value = without_made_by(value);
    value
        .as_object_mut()
        .unwrap()
        .remove("timing")
        .expect("the timings are kept under `timing`");
    value
}

/// The JSON without its `made_by` object (which must be there): the command that made it,
/// which differs between two commands that give the same results.
pub fn without_made_by(mut value: Value) -> Value {
    value
        .as_object_mut()
        .unwrap()
        .remove("made_by")
        .expect("every JSON report says what made it under `made_by`");
    value
}

/// JSON text without its `made_by` objects (one per document; at least one must be there),
/// every other byte kept: the key goes with the comma before it, so two reports of the same
/// results made by different commands compare equal byte for byte.
pub fn text_without_made_by(text: &str) -> String {
    const KEY: &str = "\"made_by\":";
    assert!(text.contains(KEY), "no made_by in {text}");
    let mut kept = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(KEY) {
        let before = rest[..at].trim_end();
        kept.push_str(
            before
                .strip_suffix(',')
                .expect("made_by follows another key"),
        );
        let value = &rest[at + KEY.len()..];
        let mut values = serde_json::Deserializer::from_str(value).into_iter::<Value>();
        values.next().expect("a value").expect("JSON");
        rest = &value[values.byte_offset()..];
    }
    kept.push_str(rest);
    kept
}

/// Runs `arena COMMAND ARGS…`, which must succeed; its stdout.
pub fn succeed(command: &str, args: &[&str]) -> String {
    let output = run(command, args);
    assert!(
        output.status.success(),
        "{command} {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("stdout is UTF-8")
}

/// The exit code of bad input (docs/commands.md, "Exit codes").
pub const BAD_INPUT: i32 = 2;
/// The exit code of a file or stream the system could not read or write.
pub const IO: i32 = 3;
/// The exit code of an outside engine's or runner's fault.
pub const ENGINE: i32 = 4;
/// The exit code of a run stopped by Ctrl-C (128 + SIGINT).
pub const INTERRUPTED: i32 = 130;

/// Runs `arena COMMAND ARGS…`, which must fail by the contract for bad input: exit code 2,
/// nothing on stdout, exactly one line on stderr, starting with `error: `. Returns that line.
pub fn fail(command: &str, args: &[&str]) -> String {
    fail_with(BAD_INPUT, command, args)
}

/// Runs `arena COMMAND ARGS…`, which must fail with exit code `code` (docs/commands.md, "Exit
/// codes": 2 bad input, 3 I/O, 4 an outside engine, 5 internal, 130 interrupted), nothing on
/// stdout, exactly one line on stderr, starting with `error: `. Returns that line.
pub fn fail_with(code: i32, command: &str, args: &[&str]) -> String {
    let output = run(command, args);
    let stderr = String::from_utf8_lossy(&output.stderr).to_string();
    assert_eq!(
        output.status.code(),
        Some(code),
        "{command} {args:?}: {stderr}"
    );
    assert!(
        output.stdout.is_empty(),
        "{command} {args:?} printed on stdout"
    );
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{command} {args:?}: {stderr:?}");
    assert!(
        lines[0].starts_with("error: "),
        "{command} {args:?}: {stderr:?}"
    );
    lines[0].to_string()
}
