//! `arena play` and `arena replay`, run as the built binary.
//!
//! Over 600 lines on purpose: `play` and `replay` share their files (a replay is a recorded game),
//! so their tests live together.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;
use tetris_core::{Board, Piece, PieceState};

use crate::common;

fn arena(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .output()
        .expect("the arena binary runs")
}

/// Runs a command that must succeed; its stdout.
fn succeed(args: &[&str]) -> String {
    let output = arena(args);
    assert!(
        output.status.success(),
        "{args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("stdout is UTF-8")
}

/// Runs a command that must fail by the contract for bad input (`common::fail`: exit code 2,
/// nothing on stdout, exactly one line on stderr, starting with `error:`); `args` starts with
/// the command. Returns that line.
fn fail(args: &[&str]) -> String {
    common::fail(args[0], &args[1..])
}

/// The same for a file the system cannot read or write: exit code 3.
fn fail_io(args: &[&str]) -> String {
    common::fail_with(common::IO, args[0], &args[1..])
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|error| panic!("{error}: {text}"))
}

/// A fresh folder for one test's files.
fn folder(name: &str) -> PathBuf {
    common::scratch_folder("play", name)
}

fn text(path: &Path) -> &str {
    path.to_str().expect("temporary paths are UTF-8")
}

/// NES score from level 0, worked out from docs/spec/rules.md independently of the arena: starting at
/// level 0 the first level-up comes at 10 lines and then every 10, so after the clear the
/// level is lines / 10; a clear of n rows scores [0, 40, 100, 300, 1200][n] × (level + 1).
fn nes_score(clears: &[u64]) -> u64 {
    let mut lines = 0;
    let mut score = 0;
    for &rows in clears {
        lines += rows;
        score += [0, 40, 100, 300, 1200][rows as usize] * (lines / 10 + 1);
    }
    score.min(999_999)
}

#[test]
fn play_json_is_complete_legal_and_deterministic() {
    let args = [
        "play",
        "column-drop+dellacherie",
        "--max-pieces",
        "150",
        "--seed",
        "3",
        "--json",
    ];
    let first = succeed(&args);
    assert_eq!(first, succeed(&args), "two runs print the same bytes");
    let value = json(&first);
    // One member per line and one placement per line (docs/commands.md, "JSON output"): `{`,
    // eleven members, the placements' opening line, the placements, `]`, the `made_by` object
    // (its opening line, three members, its `}`) and `}`.
    let placements = value["placements"].as_array().unwrap().len();
    assert_eq!(first.lines().count(), 20 + placements);
    // Exactly the contract's fields (docs/spec/arena.md, "Command-line contract"), the game-over
    // rule, which every result records (docs/spec/rules.md), and the game's levels.
    let keys: Vec<&str> = value
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let mut expected = vec![
        "strategy",
        "generator",
        "seed",
        "board_height",
        "game_over_rule",
        "pieces",
        "lines",
        "score",
        "start_level",
        "level",
        "game_over",
        "placements",
        "made_by",
    ];
    expected.sort_unstable();
    assert_eq!(keys, expected);
    let placement_keys: Vec<&str> = value["placements"][0]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(placement_keys, ["cleared", "piece", "rotation", "x", "y"]);
    assert_eq!(value["strategy"], "column-drop+dellacherie");
    assert_eq!(value["generator"], "uniform");
    assert_eq!(value["seed"], 3);
    assert_eq!(value["board_height"], 20);
    assert_eq!(value["pieces"], 150);
    assert_eq!(value["game_over"], false);
    let placements = value["placements"].as_array().unwrap();
    assert_eq!(placements.len(), 150);
    // Every placement, locked in order on an empty board, must be a lock placement of the
    // generator's piece and clear the rows it says; the lines and score must add up.
    let sequence = succeed(&[
        "sequence",
        "--generator",
        "uniform",
        "--seed",
        "3",
        "--count",
        "150",
    ]);
    let mut board = Board::standard();
    let mut clears = Vec::new();
    for (placement, letter) in placements.iter().zip(sequence.trim().chars()) {
        let piece: Piece = placement["piece"].as_str().unwrap().parse().unwrap();
        assert_eq!(piece.letter(), letter);
        let x = placement["x"].as_i64().unwrap() as i8;
        let y = placement["y"].as_i64().unwrap() as i8;
        let rotation = placement["rotation"].as_u64().unwrap() as u8;
        let state = PieceState { x, y, rotation };
        assert!(board.fits(piece, state), "{placement}");
        assert!(!board.fits(piece, state.one_row_down()), "{placement}");
        let cleared = board.lock(piece, state).rows_cleared;
        assert_eq!(u64::from(cleared), placement["cleared"].as_u64().unwrap());
        clears.push(u64::from(cleared));
    }
    assert_eq!(value["lines"], clears.iter().sum::<u64>());
    assert_eq!(value["score"], nes_score(&clears));
    // No gravity: from level 0, one level every 10 lines.
    assert_eq!(value["start_level"], 0);
    assert_eq!(value["level"], clears.iter().sum::<u64>() / 10);
}

/// NES score and level of a game played at 2 frames per row all through, worked out from
/// docs/spec/rules.md independently of the arena: it starts at 19 (the first level of that
/// gravity), the first level-up comes at 140 lines and then one every 10, up to 28 (the last
/// level falling 2 frames per row); a clear of n rows scores [0, 40, 100, 300, 1200][n] ×
/// (level + 1), the level after the clear's own level-up.
fn nes_score_at_2_frames_per_row(clears: &[u64]) -> (u64, u64) {
    let (mut lines, mut level, mut score) = (0, 19, 0);
    for &rows in clears {
        for _ in 0..rows {
            lines += 1;
            if lines >= 140 && lines % 10 == 0 && level < 28 {
                level += 1;
            }
        }
        score += [0, 40, 100, 300, 1200][rows as usize] * (level + 1);
    }
    (score.min(999_999), level)
}

#[test]
fn a_gamepad_game_is_scored_at_its_gravitys_level_in_every_view() {
    let folder = folder("gamepad-levels");
    let replay = folder.join("game.json");
    let page = folder.join("game.html");
    // NES pieces, seed 2: the bot clears 191 lines in 500 pieces, past the first level-up.
    let args = [
        "play",
        "gamepad+nes-plateau@2",
        "--generator",
        "nes",
        "--seed",
        "2",
        "--max-pieces",
        "500",
    ];
    let value = json(&succeed(&[&args[..], &["--json"]].concat()));
    let clears: Vec<u64> = value["placements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|placement| placement["cleared"].as_u64().unwrap())
        .collect();
    let lines: u64 = clears.iter().sum();
    assert!(lines > 150, "{lines} lines: the game passes level 20");
    let (score, level) = nes_score_at_2_frames_per_row(&clears);
    assert_eq!(value["lines"], lines);
    assert_eq!(value["score"], score);
    assert_eq!(value["start_level"], 19);
    assert_eq!(value["level"], level);
    assert_eq!(level, 19 + 1 + (lines - 140) / 10);
    // The text says the same level and score.
    let shown = succeed(&args);
    assert!(shown.contains(&format!("score      {score}\n")), "{shown}");
    assert!(
        shown.contains(&format!("level      {level} (from 19, the first level")),
        "{shown}"
    );
    // The replay records them, `arena replay` checks them, and its page shows them.
    succeed(&[&args[..], &["--record", text(&replay)]].concat());
    let file = json(&fs::read_to_string(&replay).unwrap());
    assert_eq!(file["version"], 3);
    assert_eq!(file["result"]["score"], score);
    assert_eq!(file["result"]["level"], level);
    let verified = json(&succeed(&["replay", text(&replay), "--json"]));
    assert_eq!(verified["score"], score);
    assert_eq!(verified["level"], level);
    succeed(&["replay", text(&replay), "--html", text(&page)]);
    let html = fs::read_to_string(&page).unwrap();
    assert!(html.contains(r#""start_level":19,"last_level":28"#));
    assert!(html.contains(&format!(r#""score":{score},"level":{level}"#)));
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn no_placements_drops_the_list_and_sz_ends_every_game() {
    let value = json(&succeed(&[
        "play",
        "column-drop+elashi",
        "--generator",
        "sz",
        "--seed",
        "1",
        "--max-pieces",
        "100000",
        "--json",
        "--no-placements",
    ]));
    assert_eq!(value["game_over"], true);
    assert!(value["pieces"].as_u64().unwrap() < 100_000);
    assert!(value.get("placements").is_none());
    assert_eq!(value["generator"], "sz");
}

#[test]
fn a_game_over_replays_and_its_end_is_checked() {
    let folder = folder("game-over");
    let replay = folder.join("game.json");
    let played = json(&succeed(&[
        "play",
        "column-drop+elashi",
        "--generator",
        "sz",
        "--board-height",
        "10",
        "--json",
        "--no-placements",
        "--record",
        text(&replay),
    ]));
    assert_eq!(played["game_over"], true);
    let verified = json(&succeed(&["replay", text(&replay), "--redecide", "--json"]));
    assert_eq!(verified["end"], "game_over");
    assert_eq!(verified["pieces"], played["pieces"]);
    // Claiming the game stopped at a cap instead must fail: there was no cap.
    let mut value = json(&fs::read_to_string(&replay).unwrap());
    value["result"]["end"] = "piece_cap".into();
    value["result"]["game_over"] = false.into();
    fs::write(&replay, value.to_string()).unwrap();
    let line = fail(&["replay", text(&replay)]);
    assert!(line.contains("result: piece cap recorded"), "{line}");
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn text_output_names_the_result_and_the_speed() {
    let output = succeed(&[
        "play",
        "bfs+dellacherie",
        "--max-pieces",
        "20",
        "--board-height",
        "12",
    ]);
    for expected in [
        "strategy   bfs+dellacherie\n",
        "board      10 x 12\n",
        "pieces     20\n",
        "end        piece cap reached (20)\n",
        "pieces/s",
    ] {
        assert!(
            output.contains(expected),
            "{expected:?} missing from {output}"
        );
    }
}

#[test]
fn record_then_replay_verifies_and_redecides() {
    let folder = folder("record");
    let replay = folder.join("game.json");
    let played = json(&succeed(&[
        "play",
        "bfs+elashi@2",
        "--max-pieces",
        "80",
        "--seed",
        "5",
        "--json",
        "--no-placements",
        "--record",
        text(&replay),
    ]));
    let file = json(&fs::read_to_string(&replay).unwrap());
    assert_eq!(file["format"], "tetris-arena-replay");
    assert_eq!(file["version"], 3);
    assert_eq!(file["rules"]["game_over_rule"], "simulation");
    assert_eq!(file["strategy"], "bfs+elashi@2");
    assert_eq!(file["rules"]["max_pieces"], 80);
    assert_eq!(file["placements"].as_array().unwrap().len(), 80);
    // 80 placements plus the depth-2 lookahead: 82 pieces of the sequence.
    assert_eq!(file["pieces"].as_str().unwrap().len(), 82);
    let verified = json(&succeed(&["replay", text(&replay), "--json"]));
    for field in ["strategy", "pieces", "lines", "score", "game_over"] {
        assert_eq!(verified[field], played[field], "{field}");
    }
    assert_eq!(verified["verified"], true);
    let redecided = json(&succeed(&["replay", text(&replay), "--redecide", "--json"]));
    assert_eq!(redecided["redecided"], true);
    assert_eq!(redecided["checked"], "decisions");
    assert_eq!(verified["checked"], "legality");
    // Without --redecide the report says that only legality and the result were checked.
    let report = succeed(&["replay", text(&replay)]);
    assert!(
        report.contains("checked    80 placements are legal")
            && report.contains("not        checked that bfs+elashi@2 chose them: use --redecide"),
        "{report}"
    );
    let report = succeed(&["replay", text(&replay), "--redecide"]);
    assert!(report.contains("verified   80 placements"), "{report}");
    fs::remove_dir_all(&folder).unwrap();
}

/// Records a game, applies `change` to its JSON, and returns the replay's error line.
fn tampered(name: &str, change: impl Fn(&mut Value), extra: &[&str]) -> String {
    let folder = folder(name);
    let replay = folder.join("game.json");
    succeed(&[
        "play",
        "column-drop+dellacherie",
        "--max-pieces",
        "40",
        "--record",
        text(&replay),
    ]);
    let mut value = json(&fs::read_to_string(&replay).unwrap());
    change(&mut value);
    fs::write(&replay, value.to_string()).unwrap();
    let mut args = vec!["replay", text(&replay)];
    args.extend_from_slice(extra);
    let line = fail(&args);
    fs::remove_dir_all(&folder).unwrap();
    line
}

#[test]
fn a_moved_placement_is_caught() {
    let line = tampered(
        "moved",
        |value| {
            let x = &mut value["placements"][10]["x"];
            *x = (x.as_i64().unwrap() + if x.as_i64().unwrap() < 5 { 1 } else { -1 }).into();
        },
        &[],
    );
    assert!(line.contains("placement 11:"), "{line}");
}

#[test]
fn a_changed_path_input_is_caught() {
    // Dropping the last input of a path (every input changes the state) leaves the path
    // ending one move short of the recorded lock state.
    let line = tampered(
        "path",
        |value| {
            let path = value["placements"][6]["path"].as_str().unwrap().to_string();
            let shorter = path
                .rsplit_once(' ')
                .map_or("", |(rest, _)| rest)
                .to_string();
            value["placements"][6]["path"] = shorter.into();
        },
        &[],
    );
    assert!(line.contains("placement 7: the path ends at"), "{line}");
}

#[test]
fn a_changed_result_is_caught() {
    let line = tampered(
        "result",
        |value| {
            let lines = value["result"]["lines"].as_u64().unwrap();
            value["result"]["lines"] = (lines + 1).into();
        },
        &[],
    );
    assert!(line.contains("result:"), "{line}");
}

#[test]
fn redecide_catches_a_strategy_that_would_play_differently() {
    // The placements are legal, so only re-deciding them finds that El-Ashi's weights would
    // not have played Dellacherie's game.
    let line = tampered(
        "redecide",
        |value| value["strategy"] = "column-drop+elashi".into(),
        &["--redecide"],
    );
    assert!(
        line.contains("strategy column-drop+elashi chooses"),
        "{line}"
    );
}

#[test]
fn a_file_sequence_replays_without_its_file() {
    let folder = folder("file");
    let pieces = folder.join("pieces.txt");
    fs::write(&pieces, "TJZOSLI\nIIOOTT\n").unwrap();
    let replay = folder.join("game.json");
    let generator = format!("file:{}", text(&pieces));
    let played = json(&succeed(&[
        "play",
        "bfs+dellacherie",
        "--generator",
        &generator,
        "--json",
        "--record",
        text(&replay),
    ]));
    assert_eq!(played["pieces"], 13);
    assert_eq!(played["game_over"], false);
    fs::remove_file(&pieces).unwrap();
    let verified = json(&succeed(&["replay", text(&replay), "--json"]));
    assert_eq!(verified["end"], "sequence_ended");
    assert_eq!(verified["pieces"], 13);
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn watch_prints_one_frame_per_placement_when_piped() {
    let output = succeed(&[
        "play",
        "column-drop+dellacherie",
        "--max-pieces",
        "4",
        "--board-height",
        "8",
        "--watch",
        "--speed",
        "inf",
    ]);
    assert!(!output.contains('\x1b'), "no escape codes when piped");
    // The empty board, then one frame per placement; each frame draws 8 rows and a bottom
    // border, and shows the cells of the piece just placed: none before the first, all 4
    // when the placement cleared no row.
    assert_eq!(output.matches("+----------+").count(), 5);
    assert_eq!(output.matches("\n|").count(), 5 * 8);
    let frames: Vec<&str> = output.split("\n\n").collect();
    assert_eq!(frames[0].matches('@').count(), 0);
    for frame in &frames[1..5] {
        if frame.contains(", cleared 0\n") {
            assert_eq!(frame.matches('@').count(), 4, "{frame}");
        }
    }
    assert!(output.contains("pieces 4 |"));
    assert!(output.contains("end        piece cap reached (4)"));
}

#[test]
fn replay_can_be_watched() {
    let folder = folder("watch");
    let replay = folder.join("game.json");
    succeed(&[
        "play",
        "bfs+elashi",
        "--max-pieces",
        "3",
        "--record",
        text(&replay),
    ]);
    let output = succeed(&["replay", text(&replay), "--watch", "--speed", "inf"]);
    assert_eq!(output.matches("+----------+").count(), 4);
    assert!(
        output.contains("checked    3 placements are legal"),
        "{output}"
    );
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn the_el_ashi_java_reproduction_runs_and_replays() {
    let folder = folder("java");
    let replay = folder.join("java.json");
    let value = json(&succeed(&[
        "play",
        "bfs+elashi@2",
        "--generator",
        "java",
        "--seed",
        "1",
        "--max-pieces",
        "2000",
        "--json",
        "--record",
        text(&replay),
    ]));
    let pieces = value["pieces"].as_u64().unwrap();
    assert_eq!(value["placements"].as_array().unwrap().len() as u64, pieces);
    assert!(pieces == 2000 || value["game_over"] == true);
    // The first pieces of java seed 1 are S S J T I I T J O I (the core's JVM-checked vector).
    let letters: String = value["placements"].as_array().unwrap()[..10]
        .iter()
        .map(|placement| placement["piece"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(letters, "SSJTIITJOI");
    succeed(&["replay", text(&replay), "--redecide"]);
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn bad_play_inputs_exit_2_with_one_error_line() {
    let missing_folder = std::env::temp_dir().join("arena-play-no-such-folder/game.json");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["play", "nope+elashi"], "unknown searcher"),
        (vec!["play", "bfs+nope"], "unknown evaluator"),
        (vec!["play", "bfs+dellacherie:nope"], "preset"),
        (vec!["play", "bfs+elashi@0"], "depth"),
        (
            vec!["play", "bfs+elashi", "--max-pieces", "0"],
            "--max-pieces",
        ),
        (vec!["play", "bfs+elashi", "--max-pieces", "-1"], "-1"),
        (
            vec!["play", "bfs+elashi", "--board-height", "3"],
            "--board-height 3",
        ),
        (
            vec!["play", "bfs+elashi", "--board-height", "33"],
            "--board-height 33",
        ),
        (
            vec!["play", "bfs+elashi", "--generator", "nope"],
            "unknown generator",
        ),
        (vec!["play", "bfs+elashi", "--seed", "-1"], "-1"),
        (
            vec!["play", "bfs+elashi", "--watch", "--speed", "0"],
            "--speed",
        ),
        (
            vec!["play", "bfs+elashi", "--speed", "5"],
            "--speed needs --watch",
        ),
        (vec!["play", "bfs+elashi", "--watch", "--json"], "--json"),
        (
            vec!["play", "bfs+elashi", "--no-placements"],
            "--no-placements needs --json",
        ),
        // clap's message names the missing argument on its next line, which the one-line
        // contract drops.
        (vec!["play"], "required arguments were not provided"),
    ];
    for (args, expected) in cases {
        let line = fail(&args);
        assert!(
            line.contains(expected),
            "{args:?}: {line:?} lacks {expected:?}"
        );
    }
    // Files the system cannot read or write there: I/O, exit code 3.
    let io_cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec![
                "play",
                "bfs+elashi",
                "--generator",
                "file:/no/such/pieces.txt",
            ],
            "/no/such/pieces.txt: No such file or directory",
        ),
        (
            vec!["play", "bfs+elashi", "--record", text(&missing_folder)],
            "folder does not exist",
        ),
    ];
    for (args, expected) in io_cases {
        let line = fail_io(&args);
        assert!(
            line.contains(expected),
            "{args:?}: {line:?} lacks {expected:?}"
        );
    }
}

#[test]
fn bad_replay_files_exit_2_with_one_error_line() {
    let folder = folder("bad-replays");
    let write = |name: &str, contents: &str| {
        let path = folder.join(name);
        fs::write(&path, contents).unwrap();
        path
    };
    let valid = |change: &dyn Fn(&mut Value)| {
        let mut value = serde_json::json!({
            "format": "tetris-arena-replay",
            "version": 1,
            "strategy": "bfs+elashi",
            "generator": "uniform",
            "seed": 0,
            "rules": {"board_height": 20, "max_pieces": null},
            "pieces": "",
            "placements": [],
            "result": {"pieces": 0, "lines": 0, "score": 0, "game_over": false,
                       "end": "sequence_ended"},
        });
        change(&mut value);
        value.to_string()
    };
    let cases = [
        (write("malformed.json", "{not json"), "not valid JSON"),
        (
            write("other.json", r#"{"format": "something else"}"#),
            "not a replay",
        ),
        (
            write("version.json", &valid(&|v| v["version"] = 4.into())),
            "version 4 is not supported",
        ),
        (
            write("letter.json", &valid(&|v| v["pieces"] = "TJX".into())),
            "not a piece letter",
        ),
        (
            write("field.json", &valid(&|v| v["extra"] = 1.into())),
            "unknown field",
        ),
        (
            write(
                "height.json",
                &valid(&|v| v["rules"]["board_height"] = 3.into()),
            ),
            "board height 3",
        ),
        (
            write(
                "generator.json",
                &valid(&|v| v["generator"] = "nope".into()),
            ),
            "unknown generator",
        ),
        (
            // An endless generator cannot run out of pieces (uniform seed 0 starts with an I,
            // the one piece a depth-1 strategy saw before its first placement).
            write("endless.json", &valid(&|v| v["pieces"] = "I".into())),
            "the sequence cannot end",
        ),
    ];
    for (path, expected) in &cases {
        let line = fail(&["replay", text(path)]);
        assert!(
            line.contains(expected),
            "{path:?}: {line:?} lacks {expected:?}"
        );
    }
    // A replay file that is not there: I/O, exit code 3.
    let line = fail_io(&["replay", text(&folder.join("missing.json"))]);
    assert!(line.contains("missing.json: No such file"), "{line}");
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn help_explains_every_option() {
    let play = succeed(&["play", "--help"]);
    for option in [
        "--generator",
        "--seed",
        "--max-pieces",
        "--board-height",
        "--json",
        "--no-placements",
        "--watch",
        "--speed",
        "--record",
    ] {
        assert!(play.contains(option), "play --help lacks {option}");
    }
    let replay = succeed(&["replay", "--help"]);
    for option in ["--watch", "--speed", "--redecide", "--json"] {
        assert!(replay.contains(option), "replay --help lacks {option}");
    }
}

#[test]
fn a_gamepad_game_replays_its_frames_through_the_nes_frame_model() {
    let folder = folder("gamepad");
    let replay = folder.join("game.json");
    succeed(&[
        "play",
        "gamepad+nes-plateau@2",
        "--max-pieces",
        "40",
        "--seed",
        "2",
        "--record",
        text(&replay),
    ]);
    let mut file = json(&fs::read_to_string(&replay).unwrap());
    // The gamepad's default timing: level 19 (2 frames per row), 30 Hz.
    assert_eq!(file["rules"]["frame_timing"]["frames_per_row"], 2);
    assert_eq!(file["rules"]["frame_timing"]["tap_rate"], 2);
    let path = file["placements"][0]["path"].as_str().unwrap().to_string();
    assert!(path.starts_with('F'), "{path}");
    let verified = json(&succeed(&["replay", text(&replay), "--redecide", "--json"]));
    assert_eq!(verified["verified"], true);
    // One frame short, the piece has not locked yet.
    let short = path.rsplit_once(' ').unwrap().0.to_string();
    file["placements"][0]["path"] = short.into();
    fs::write(&replay, file.to_string()).unwrap();
    let line = fail(&["replay", text(&replay)]);
    assert!(
        line.contains("placement 1:") && line.contains("still falling"),
        "{line}"
    );
    fs::remove_dir_all(&folder).unwrap();
}
