//! Work and memory are bounded up front: `--jobs` and a tuning population are refused past
//! their bounds before anything starts, more jobs than games play the same games, and a long
//! piece sequence is streamed, never held.

use std::fs;

use crate::common::{self, fail, run, scratch_folder};

use super::text;

#[test]
fn jobs_are_bounded_and_more_jobs_than_games_play_the_same_games() {
    for (command, args) in [
        (
            "tournament",
            &[
                "column-drop+elashi",
                "--board-height",
                "8",
                "--games",
                "2",
                "--seed",
                "0",
            ][..],
        ),
        (
            "nes",
            &["column-drop+nes-plateau", "--games", "1", "--seed", "0"],
        ),
        (
            "stats",
            &["column-drop+elashi", "--pieces", "10", "--seed", "0"],
        ),
        ("tune", &["elashi", "--out", "/tmp/never-written.json"]),
    ] {
        let mut all = args.to_vec();
        all.extend(["--jobs", "100000"]);
        assert!(
            fail(command, &all).starts_with("error: --jobs 100000 is outside 1..=256"),
            "{command}"
        );
    }
    let play = |jobs: &str| {
        common::without_timing(common::run_json(
            "tournament",
            &[
                "column-drop+elashi",
                "--board-height",
                "8",
                "--games",
                "2",
                "--seed",
                "0",
                "--max-pieces",
                "30",
                "--jobs",
                jobs,
            ],
        ))
    };
    assert_eq!(play("256"), play("1"));
}

/// `arena sequence` streams its letters: a million of them are the generator's first million
/// (the library test checks that no write is larger than a chunk), and a piece file holding
/// fewer pieces than asked prints nothing and one error line.
#[test]
fn a_large_sequence_is_streamed_and_equals_the_generator() {
    let output = run(
        "sequence",
        &["--generator", "bag7", "--seed", "5", "--count", "1000000"],
    );
    assert!(output.status.success());
    assert_eq!(output.stdout.len(), 1_000_001);
    assert_eq!(output.stdout.last(), Some(&b'\n'));
    let short = run(
        "sequence",
        &["--generator", "bag7", "--seed", "5", "--count", "70000"],
    );
    assert_eq!(&output.stdout[..70_000], &short.stdout[..70_000]);
    // Every window of 7 aligned pieces of a 7-bag holds each piece once.
    for bag in output.stdout[..1_000_000 - 1_000_000 % 7].chunks(7) {
        let mut sorted = bag.to_vec();
        sorted.sort_unstable();
        assert_eq!(sorted, b"IJLOSTZ");
    }
    let folder = scratch_folder("hardening", "sequence");
    let pieces = folder.join("three.txt");
    fs::write(&pieces, "T J Z").unwrap();
    let generator = format!("file:{}", pieces.display());
    assert_eq!(
        fail("sequence", &["--generator", &generator, "--count", "4"]),
        format!("error: --count 4: {generator} holds only 3 pieces")
    );
    fs::remove_dir_all(&folder).unwrap();
}

/// `tune --population 100000` once took 2.7 GB with one game: the population and the games
/// per iteration are bounded up front.
#[test]
fn a_tuning_population_is_bounded_up_front() {
    let folder = scratch_folder("hardening", "population");
    let out = folder.join("w.json");
    assert_eq!(
        fail(
            "tune",
            &["elashi", "--population", "100000", "--out", text(&out)]
        ),
        "error: --population must be from 2 to 20000"
    );
    assert_eq!(
        fail(
            "tune",
            &[
                "elashi",
                "--population",
                "20000",
                "--games",
                "501",
                "--out",
                text(&out)
            ]
        ),
        "error: --population 20000 × --games 501 is 10020000 games per iteration, at most \
         10000000 (every game's value is kept in memory)"
    );
    assert!(!out.exists());
    fs::remove_dir_all(&folder).unwrap();
}
