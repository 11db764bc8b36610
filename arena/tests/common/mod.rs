//! Helpers shared by the arena's integration tests: run the built binary, parse its `--json`
//! output, make a scratch folder.

// Each test binary compiles this module and uses only some of it.
#![allow(dead_code)]

use std::fs;
use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

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

/// The JSON without its machine-dependent `timing` object (which must be there).
pub fn without_timing(mut value: Value) -> Value {
    value
        .as_object_mut()
        .unwrap()
        .remove("timing")
        .expect("the timings are kept under `timing`");
    value
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

/// Runs `arena COMMAND ARGS…`, which must fail by the contract: exit code 2, nothing on
/// stdout, exactly one line on stderr, starting with `error: `. Returns that line.
pub fn fail(command: &str, args: &[&str]) -> String {
    let output = run(command, args);
    let stderr = String::from_utf8_lossy(&output.stderr).to_string();
    assert_eq!(
        output.status.code(),
        Some(2),
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
