//! Ctrl-C ends `play`, `stats` and `tune` with one `error:` line that says what was kept, exit
//! code 130, and nothing half-written.

use std::fs;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use crate::common::{self, scratch_folder};

use super::{names, text};

/// Starts `arena ARGS…`, waits until it catches SIGINT (its Ctrl-C handler is installed,
/// read from /proc: no timing involved), sends SIGINT and returns its exit code and stderr.
#[cfg(target_os = "linux")]
fn interrupt(args: &[&str]) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let status = PathBuf::from(format!("/proc/{}/status", child.id()));
    // Not a timing of the command: a guard so that a command that never installs its handler
    // (or ends first) fails this test instead of hanging CI.
    let give_up = std::time::Instant::now() + std::time::Duration::from_secs(120);
    loop {
        if let Some(exit) = child.try_wait().unwrap() {
            panic!("{args:?} ended ({exit}) before it caught Ctrl-C");
        }
        if std::time::Instant::now() > give_up {
            child.kill().unwrap();
            panic!("{args:?} did not install a Ctrl-C handler within 120 s");
        }
        let caught = fs::read_to_string(&status)
            .ok()
            .and_then(|text| {
                let line = text
                    .lines()
                    .find(|line| line.starts_with("SigCgt:"))?
                    .to_string();
                u64::from_str_radix(line.trim_start_matches("SigCgt:").trim(), 16).ok()
            })
            .unwrap_or(0);
        // Bit 1 is signal 2, SIGINT.
        if caught & 2 != 0 {
            break;
        }
        std::thread::yield_now();
    }
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let output = child.wait_with_output().unwrap();
    assert!(
        output.stdout.is_empty(),
        "{args:?}: nothing is printed: {}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (
        output.status.code(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

#[cfg(target_os = "linux")]
#[test]
fn ctrl_c_ends_play_stats_and_tune_with_an_error_that_says_what_was_kept() {
    let folder = scratch_folder("hardening", "ctrl-c");
    let record = folder.join("game.json");
    let checkpoint = folder.join("checkpoint.json");
    let weights = folder.join("w.json");
    let stats_out = folder.join("stats");
    let runs: [(Vec<&str>, &str); 3] = [
        // Strong strategies practically never top out on 10 × 20: the games outlast the test.
        (
            vec!["play", "bfs+elashi@2", "--record", text(&record)],
            "error: interrupted by Ctrl-C after ",
        ),
        (
            vec![
                "stats",
                "bfs+elashi",
                "--pieces",
                "1000000000",
                "--seed",
                "0",
                "--out",
                text(&stats_out),
            ],
            "error: interrupted by Ctrl-C: 0 of 1 blocks finished; nothing was written",
        ),
        (
            vec![
                "tune",
                "elashi",
                "--games",
                "1000",
                "--population",
                "2",
                "--max-pieces",
                "1000000",
                "--checkpoint",
                text(&checkpoint),
                "--out",
                text(&weights),
            ],
            "error: interrupted by Ctrl-C: iteration 0 was dropped; 0 of 10 iterations \
             finished; nothing was written",
        ),
    ];
    for (args, expected) in runs {
        let (code, stderr) = interrupt(&args);
        assert_eq!(code, Some(common::INTERRUPTED), "{args:?}: {stderr}");
        let mut lines: Vec<&str> = stderr.lines().collect();
        // A game without a piece cap is announced first, on a terminal or not.
        if args[0] == "play" {
            assert!(
                lines[0].starts_with("note: no --max-pieces: on 10 x 20 strong strategies"),
                "{stderr}"
            );
            lines.remove(0);
        }
        assert_eq!(lines.len(), 2, "the note, then the error: {stderr}");
        assert!(lines[0].starts_with("interrupted: "), "{stderr}");
        assert!(
            !lines[0].contains("finished games are written"),
            "the note is the command's own: {stderr}"
        );
        assert!(lines[1].starts_with(expected), "{args:?}: {stderr}");
    }
    assert_eq!(names(&folder), Vec::<String>::new(), "nothing was written");
    fs::remove_dir_all(&folder).unwrap();
}
