//! Outputs that must not destroy what they should not (issue 32), against the built binary:
//! an output name holding a symbolic link, a FIFO, a socket or a folder is refused, one
//! `error:` line with exit code 2 before any game, and left as it was; an output that is
//! also an input of the same command (compared by device and inode, not by name), or two
//! outputs in one file, are refused the same way.

#![cfg(unix)]

use std::fs;
use std::os::unix::fs::{FileTypeExt, symlink};
use std::path::{Path, PathBuf};

use super::{names, text, tune_args as checkpoint_run_args};
use crate::common::run;
use crate::common::{fail, scratch_folder, succeed};
use serde_json::Value;

/// A PID that belongs to no process: above the Linux kernel's largest (2^22).
const DEAD_PID: u32 = 4_194_305;

/// A short game of a fast strategy, with `extra` options.
fn play_args<'a>(strategy: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![strategy, "--max-pieces", "5", "--board-height", "6"];
    args.extend_from_slice(extra);
    args
}

/// A two-game tournament of two fast strategies, with `extra` options.
fn tournament_args<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "column-drop+elashi",
        "column-drop+dellacherie",
        "--games",
        "2",
        "--seed",
        "0",
        "--max-pieces",
        "5",
        "--board-height",
        "6",
    ];
    args.extend_from_slice(extra);
    args
}

/// A one-iteration tune of two candidates on a short field, with `extra` options.
fn tune_args<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "elashi",
        "--searcher",
        "column-drop",
        "--games",
        "1",
        "--population",
        "2",
        "--iterations",
        "1",
        "--board-height",
        "6",
        "--max-pieces",
        "5",
    ];
    args.extend_from_slice(extra);
    args
}

/// Creates a FIFO at `path`.
fn mkfifo(path: &Path) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(status.success());
}

/// A weights file for elashi.
const WEIGHTS: &str = r#"{"evaluator": "elashi", "weights": {"rows_cleared": 1, "lock_height": -1,
"wells": -1, "holes": -4, "column_transitions": -1, "row_transitions": -1}}"#;

#[test]
fn an_output_that_is_a_link_a_fifo_a_socket_or_a_folder_is_refused_and_left_alone() {
    let folder = scratch_folder("outputs", "special");
    let target = folder.join("target.json");
    fs::write(&target, "keep").unwrap();
    let link = folder.join("link.json");
    symlink(&target, &link).unwrap();
    // A device, through a link the arena must not replace (never /dev/null itself).
    let null_link = folder.join("null.json");
    symlink("/dev/null", &null_link).unwrap();
    let dangling = folder.join("dangling.json");
    symlink(folder.join("nowhere.json"), &dangling).unwrap();
    let pipe = folder.join("pipe.json");
    mkfifo(&pipe);
    let socket = folder.join("socket.json");
    let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
    let sub = folder.join("sub.json");
    fs::create_dir(&sub).unwrap();
    let sub_link = folder.join("sub-link.json");
    symlink(&sub, &sub_link).unwrap();

    let link_kind = "is a symbolic link, not a regular file";
    let cases: [(&PathBuf, &str); 7] = [
        (&link, link_kind),
        (&null_link, link_kind),
        (&dangling, link_kind),
        (&sub_link, link_kind),
        (&pipe, "is a named pipe (FIFO), not a regular file"),
        (&socket, "is a socket, not a regular file"),
        (&sub, "is a folder, not a file"),
    ];
    for (path, kind) in cases {
        let path = text(path);
        let runs: [(&str, Vec<&str>, &str); 5] = [
            (
                "play",
                play_args("column-drop+elashi", &["--record", path]),
                "--record",
            ),
            (
                "play",
                play_args("column-drop+elashi", &["--html", path]),
                "--html",
            ),
            ("tournament", tournament_args(&["--out", path]), "--out"),
            ("tournament", tournament_args(&["--html", path]), "--html"),
            ("tune", tune_args(&["--out", path]), "--out"),
        ];
        for (command, args, option) in runs {
            let message = fail(command, &args);
            assert!(
                message.starts_with(&format!("error: {option} {path}: {kind}")),
                "{command} {args:?}: {message}"
            );
        }
    }
    assert_eq!(
        fail(
            "play",
            &play_args("column-drop+elashi", &["--record", text(&pipe)])
        ),
        format!(
            "error: --record {}: is a named pipe (FIFO), not a regular file: the arena writes \
             an output beside it and renames it into place, which would replace the named \
             pipe (FIFO) itself; give a new name or a regular file",
            pipe.display()
        )
    );
    // Everything is as it was, and no file was left beside.
    assert!(fs::symlink_metadata(&link).unwrap().is_symlink());
    assert_eq!(fs::read_to_string(&target).unwrap(), "keep");
    assert!(fs::symlink_metadata(&null_link).unwrap().is_symlink());
    assert!(
        fs::metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device()
    );
    assert!(fs::symlink_metadata(&dangling).unwrap().is_symlink());
    assert!(fs::symlink_metadata(&pipe).unwrap().file_type().is_fifo());
    assert!(
        fs::symlink_metadata(&socket)
            .unwrap()
            .file_type()
            .is_socket()
    );
    assert!(fs::symlink_metadata(&sub_link).unwrap().is_symlink());
    let mut names: Vec<String> = fs::read_dir(&folder)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "dangling.json",
            "link.json",
            "null.json",
            "pipe.json",
            "socket.json",
            "sub-link.json",
            "sub.json",
            "target.json"
        ]
    );
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn an_output_folder_that_is_a_link_or_a_fifo_is_refused_and_left_alone() {
    let folder = scratch_folder("outputs", "folders");
    let real = folder.join("real");
    fs::create_dir(&real).unwrap();
    let link = folder.join("link");
    symlink(&real, &link).unwrap();
    let pipe = folder.join("pipe");
    mkfifo(&pipe);
    for (path, kind) in [
        (&link, "is a symbolic link, not a folder"),
        (&pipe, "is a named pipe (FIFO), not a folder"),
    ] {
        let path = text(path);
        let message = fail("tournament", &tournament_args(&["--plots", path]));
        assert!(
            message.starts_with(&format!("error: --plots {path}: {kind}")),
            "{message}"
        );
        let message = fail(
            "stats",
            &[
                "column-drop+elashi",
                "--pieces",
                "10",
                "--seed",
                "0",
                "--board-height",
                "6",
                "--out",
                path,
            ],
        );
        assert!(
            message.starts_with(&format!("error: --out {path}: {kind}")),
            "{message}"
        );
    }
    assert!(fs::symlink_metadata(&link).unwrap().is_symlink());
    assert!(fs::symlink_metadata(&pipe).unwrap().file_type().is_fifo());
    assert_eq!(fs::read_dir(&real).unwrap().count(), 0);
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn an_output_that_is_an_input_or_another_output_is_refused_and_the_input_kept() {
    let folder = scratch_folder("outputs", "inputs");
    let path = |name: &str| folder.join(name).display().to_string();
    fs::create_dir(folder.join("sub")).unwrap();

    // replay g.json --html g.json, also by another name, a hard link and a symbolic link.
    let game = path("g.json");
    succeed(
        "play",
        &play_args("column-drop+elashi", &["--record", &game]),
    );
    let recorded = fs::read_to_string(&game).unwrap();
    fs::hard_link(&game, path("hard.json")).unwrap();
    let around = format!("{}/sub/../g.json", folder.display());
    for html in [&game, &around, &path("hard.json")] {
        assert_eq!(
            fail("replay", &[&game, "--html", html]),
            format!(
                "error: --html {html} is the same file as the replay file {game} this command \
                 reads: writing it would destroy the input; give another file"
            )
        );
    }
    symlink(&game, path("soft.json")).unwrap();
    let message = fail("replay", &[&path("soft.json"), "--html", &game]);
    assert!(
        message.contains("is the same file as the replay file"),
        "{message}"
    );

    // Two outputs of one command in one file, existing or not.
    for (name, other) in [("x.json", "x.json"), ("y.json", "sub/../y.json")] {
        let (first, second) = (path(name), path(other));
        assert_eq!(
            fail(
                "play",
                &play_args(
                    "column-drop+elashi",
                    &["--record", &first, "--html", &second]
                )
            ),
            format!(
                "error: --record {first} and --html {second} are the same file: one output \
                 would overwrite the other; give two files"
            )
        );
    }
    let results = path("t.json");
    let message = fail(
        "tournament",
        &tournament_args(&["--out", &results, "--html", &results]),
    );
    assert!(message.contains("are the same file"), "{message}");

    // The files a strategy or a generator reads.
    let weights = path("w.json");
    fs::write(&weights, WEIGHTS).unwrap();
    let with_weights = format!("column-drop+elashi:{weights}");
    let pieces = path("pieces.json");
    fs::write(&pieces, "TJZOSLI\n").unwrap();
    let piece_file = format!("file:{pieces}");
    let pattern = path("pattern.txt");
    fs::write(&pattern, "##########\n".repeat(6)).unwrap();
    let with_pattern = format!("column-drop+elashi,pattern={pattern}");
    let cases: Vec<(&str, Vec<&str>, String)> = vec![
        (
            "play",
            play_args(&with_weights, &["--record", &weights]),
            format!("--record {weights} is the same file as the weights file {weights}"),
        ),
        (
            "play",
            play_args(&with_pattern, &["--html", &pattern]),
            format!("--html {pattern} is the same file as the pattern file {pattern}"),
        ),
        (
            "play",
            play_args(
                "column-drop+elashi",
                &["--generator", &piece_file, "--record", &pieces],
            ),
            format!("--record {pieces} is the same file as the piece file {pieces}"),
        ),
        (
            "tournament",
            tournament_args(&["--generator", &piece_file, "--out", &pieces]),
            format!("--out {pieces} is the same file as the piece file {pieces}"),
        ),
        (
            "nes",
            vec![
                &with_weights,
                "--games",
                "1",
                "--seed",
                "0",
                "--out",
                &weights,
            ],
            format!("--out {weights} is the same file as the weights file {weights}"),
        ),
        (
            "tune",
            tune_args(&["--generator", &piece_file, "--out", &pieces]),
            format!("--out {pieces} is the same file as the piece file {pieces}"),
        ),
    ];
    for (command, args, expected) in &cases {
        let message = fail(command, args);
        assert!(
            message.starts_with(&format!("error: {expected} this command reads")),
            "{command} {args:?}: {message}"
        );
    }

    // An output folder, replaced whole, that holds an input.
    let stats = folder.join("stats");
    fs::create_dir(&stats).unwrap();
    let inner = stats.join("stats.json");
    fs::write(&inner, WEIGHTS).unwrap();
    let inner_strategy = format!("column-drop+elashi:{}", inner.display());
    let message = fail(
        "stats",
        &[
            &inner_strategy,
            "--pieces",
            "10",
            "--seed",
            "0",
            "--board-height",
            "6",
            "--out",
            text(&stats),
        ],
    );
    assert_eq!(
        message,
        format!(
            "error: --out {} holds the weights file {}, and the folder is this command's own \
             (replaced as a whole, or its files written and removed): give a folder that holds \
             none of this command's other files",
            stats.display(),
            inner.display()
        )
    );

    // tune: the checkpoint and the weights in one existing file under two names.
    let checkpoint = path("c.json");
    fs::write(&checkpoint, "{}").unwrap();
    fs::hard_link(&checkpoint, path("c-link.json")).unwrap();
    let message = fail(
        "tune",
        &[
            "elashi",
            "--searcher",
            "column-drop",
            "--checkpoint",
            &checkpoint,
            "--out",
            &path("c-link.json"),
        ],
    );
    assert!(message.contains("are the same file"), "{message}");

    // Nothing read was touched.
    assert_eq!(fs::read_to_string(&game).unwrap(), recorded);
    assert_eq!(fs::read_to_string(&weights).unwrap(), WEIGHTS);
    assert_eq!(fs::read_to_string(&inner).unwrap(), WEIGHTS);
    assert_eq!(fs::read_to_string(&pieces).unwrap(), "TJZOSLI\n");
    assert_eq!(fs::read_to_string(&checkpoint).unwrap(), "{}");
    for name in ["x.json", "y.json", "t.json"] {
        assert!(!folder.join(name).exists(), "{name} was written");
    }
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn a_merge_never_writes_over_its_parts() {
    let folder = scratch_folder("outputs", "merge");
    let path = |name: &str| folder.join(name).display().to_string();
    let (first, second) = (path("a.json"), path("b.json"));
    for (shard, part) in [("0/2", &first), ("1/2", &second)] {
        succeed(
            "tournament",
            &tournament_args(&["--shard", shard, "--out", part]),
        );
    }
    let kept = fs::read_to_string(&first).unwrap();
    assert_eq!(
        fail("merge", &[&first, &second, "--out", &first]),
        format!(
            "error: --out {first} is the same file as the part file {first} this command \
             reads: writing it would destroy the input; give another file"
        )
    );
    assert_eq!(fs::read_to_string(&first).unwrap(), kept);
    // The merge itself works once the output is another file.
    succeed("merge", &[&first, &second, "--out", &path("whole.json")]);
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn the_checkpoint_and_the_weights_must_be_two_files() {
    let folder = scratch_folder("hardening", "same-file");
    fs::create_dir(folder.join("sub")).unwrap();
    let file = folder.join("f.json");
    let around = folder.join("sub/../f.json");
    for other in [&file, &around] {
        let mut args = checkpoint_run_args("cem", text(&file), text(other));
        args.extend(["--iterations", "1"]);
        let message = fail("tune", &args);
        assert!(
            message.contains("are the same file"),
            "{other:?}: {message}"
        );
    }
    assert!(!file.exists(), "nothing was written");
    fs::remove_dir_all(&folder).unwrap();
}

/// `arena stats … --out DIR` of a short run.
fn stats_into(folder: &Path, seed: &str) -> std::process::Output {
    run(
        "stats",
        &[
            "column-drop+elashi",
            "--pieces",
            "200",
            "--seed",
            seed,
            "--board-height",
            "6",
            "--out",
            text(folder),
        ],
    )
}

#[test]
fn a_stats_folder_is_replaced_whole_and_leftovers_of_killed_runs_are_cleaned() {
    let folder = scratch_folder("hardening", "stats-out");
    let out = folder.join("out");
    assert!(stats_into(&out, "1").status.success());
    let files = [
        "cell_heat_map.svg",
        "column_shares.svg",
        "full_clear_intervals.svg",
        "row_shares.svg",
        "stats.json",
    ];
    assert_eq!(names(&out), files);
    // What a SIGKILL in the write windows leaves: a half-written folder and a half-written
    // file of a process that no longer runs.
    let stale_folder = folder.join(format!(".out.{DEAD_PID}.tmp"));
    fs::create_dir(&stale_folder).unwrap();
    fs::write(stale_folder.join("stats.json"), "{").unwrap();
    fs::write(out.join(format!(".stats.json.{DEAD_PID}.tmp")), "{").unwrap();
    assert!(stats_into(&out, "2").status.success());
    assert_eq!(names(&folder), ["out"]);
    assert_eq!(names(&out), files);
    let json: Value = serde_json::from_str(&fs::read_to_string(out.join("stats.json")).unwrap())
        .expect("a whole stats.json");
    assert_eq!(json["seed"], 2);
    // A folder holding anything else is not replaced (it would be lost).
    fs::write(out.join("notes.txt"), "mine").unwrap();
    let output = stats_into(&out, "3");
    assert_eq!(output.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("holds \"notes.txt\""),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(fs::read_to_string(out.join("notes.txt")).unwrap(), "mine");
    fs::remove_dir_all(&folder).unwrap();
}
