//! `arena replay` proves the game, not just its legality: one test per class of tampered
//! replay (each must be rejected with one `error:` line and exit code 2), and untampered
//! replays of every registered searcher, which must verify with and without `--redecide`.

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common;

use common::{fail, run_json, succeed};

fn text(path: &Path) -> &str {
    path.to_str().expect("temporary paths are UTF-8")
}

/// Records a 30-piece game of `strategy` (seed 3) in a fresh folder; the replay's path.
fn record(test: &str, strategy: &str) -> PathBuf {
    let folder = common::scratch_folder("replay", test);
    let replay = folder.join("game.json");
    succeed(
        "play",
        &[
            strategy,
            "--max-pieces",
            "30",
            "--seed",
            "3",
            "--record",
            text(&replay),
        ],
    );
    replay
}

fn read(replay: &Path) -> Value {
    serde_json::from_str(&fs::read_to_string(replay).unwrap()).unwrap()
}

/// Applies `change` to the replay file's JSON.
fn tamper(replay: &Path, change: impl FnOnce(&mut Value)) {
    let mut value = read(replay);
    change(&mut value);
    fs::write(replay, value.to_string()).unwrap();
}

fn remove_folder(replay: &Path) {
    fs::remove_dir_all(replay.parent().unwrap()).unwrap();
}

/// Runs `arena replay REPLAY EXTRA…`, which must be rejected by the contract (exit code 2,
/// one `error:` line) with a message containing every one of `expected`.
fn assert_rejected(replay: &Path, extra: &[&str], expected: &[&str]) {
    let mut args = vec![text(replay)];
    args.extend_from_slice(extra);
    let line = fail("replay", &args);
    for part in expected {
        assert!(line.contains(part), "{line:?} lacks {part:?}");
    }
}

/// The placements' recorded paths, as their inputs.
fn path_of(value: &Value, index: usize) -> Vec<String> {
    value["placements"][index]["path"]
        .as_str()
        .unwrap()
        .split(' ')
        .map(str::to_string)
        .collect()
}

#[test]
fn an_untampered_replay_of_every_registered_searcher_verifies() {
    for entry in tetris_registry::searchers() {
        let strategy = format!("{}+elashi@2", entry.name);
        let replay = record(&format!("searcher-{}", entry.name), &strategy);
        let value = read(&replay);
        let gravity_aware = !value["rules"]["frame_timing"].is_null();
        // The gravity-aware searcher's paths are gamepad frames (`F<n>`), the others' moves.
        assert_eq!(
            path_of(&value, 0)[0].starts_with('F'),
            gravity_aware,
            "{strategy}"
        );
        let checked = run_json("replay", &[text(&replay)]);
        assert_eq!(checked["pieces"], 30, "{strategy}");
        assert_eq!(checked["checked"], "legality", "{strategy}");
        let redecided = run_json("replay", &[text(&replay), "--redecide"]);
        assert_eq!(redecided["checked"], "decisions", "{strategy}");
        remove_folder(&replay);
    }
    let names: Vec<&str> = tetris_registry::searchers()
        .iter()
        .map(|entry| entry.name)
        .collect();
    for searcher in ["bfs", "column-drop", "drop", "gamepad"] {
        assert!(names.contains(&searcher), "{searcher} is not registered");
    }
}

#[test]
fn a_strategy_name_that_builds_no_strategy_is_rejected_without_redecide() {
    let replay = record("unknown-strategy", "bfs+elashi");
    tamper(&replay, |value| value["strategy"] = "foo+bar".into());
    assert_rejected(
        &replay,
        &[],
        &[
            "the strategy cannot be rebuilt from its name",
            "unknown searcher \"foo\"",
        ],
    );
    remove_folder(&replay);
}

#[test]
fn a_path_with_extra_legal_moves_fails_redecide() {
    let replay = record("extra-moves", "bfs+elashi@2");
    // Placement 4 spawns on an almost empty board: a left and a right move first are legal
    // and lead to the same lock state, so only the path comparison can tell.
    tamper(&replay, |value| {
        let path = value["placements"][3]["path"].as_str().unwrap().to_string();
        value["placements"][3]["path"] = format!("L R {path}").into();
    });
    let report = succeed("replay", &[text(&replay)]);
    assert!(
        report.contains("not        checked that bfs+elashi@2 chose them: use --redecide"),
        "{report}"
    );
    assert_rejected(
        &replay,
        &["--redecide"],
        &[
            "placement 4: strategy bfs+elashi@2 reaches",
            "the replay's path is \"L R ",
        ],
    );
    remove_folder(&replay);
}

#[test]
fn turning_the_other_way_on_an_s_z_or_i_fails_redecide() {
    // S, Z and I have two orientations, so CW and CCW from the spawn reach the same one.
    for strategy in ["bfs+elashi@2", "column-drop+dellacherie"] {
        let replay = record(
            &format!("rotation-{}", strategy.replace(['+', '@'], "-")),
            strategy,
        );
        let value = read(&replay);
        let turned = (0..30)
            .find(|&index| {
                let piece = value["placements"][index]["piece"].as_str().unwrap();
                let path = path_of(&value, index);
                "SZI".contains(piece) && path.iter().any(|input| input == "CW" || input == "CCW")
            })
            .expect("the game turns an S, Z or I");
        tamper(&replay, |value| {
            let path: Vec<String> = path_of(value, turned)
                .into_iter()
                .map(|input| match input.as_str() {
                    "CW" => "CCW".to_string(),
                    "CCW" => "CW".to_string(),
                    _ => input,
                })
                .collect();
            value["placements"][turned]["path"] = path.join(" ").into();
        });
        succeed("replay", &[text(&replay)]);
        assert_rejected(
            &replay,
            &["--redecide"],
            &[&format!(
                "placement {}: strategy {strategy} reaches",
                turned + 1
            )],
        );
        remove_folder(&replay);
    }
}

#[test]
fn a_seeded_game_relabelled_as_a_file_sequence_is_rejected() {
    let replay = record("relabelled-file", "bfs+elashi");
    tamper(&replay, |value| {
        value["generator"] = "file:/nonexistent".into();
    });
    assert_rejected(
        &replay,
        &[],
        &["generator file:/nonexistent has no seed, but seed 3 is recorded"],
    );
    remove_folder(&replay);
}

#[test]
fn a_file_game_records_seed_0_and_verifies_on_its_own_pieces() {
    let folder = common::scratch_folder("replay", "file-seed");
    let pieces = folder.join("pieces.txt");
    fs::write(&pieces, "TJZOSLIIOOTT\n").unwrap();
    let replay = folder.join("game.json");
    let generator = format!("file:{}", text(&pieces));
    succeed(
        "play",
        &[
            "bfs+elashi@2",
            "--generator",
            &generator,
            "--seed",
            "9",
            "--max-pieces",
            "5",
            "--record",
            text(&replay),
        ],
    );
    let value = read(&replay);
    // The seed plays no part in a file's sequence; 5 placements + depth 2 = 7 pieces.
    assert_eq!(value["seed"], 0);
    assert_eq!(value["pieces"], "TJZOSLI");
    let report = succeed("replay", &[text(&replay), "--redecide"]);
    assert!(
        report.contains("pieces     the replay's own: a file sequence cannot be re-derived"),
        "{report}"
    );
    // A piece more than the strategy saw is not part of the game.
    tamper(&replay, |value| value["pieces"] = "TJZOSLII".into());
    assert_rejected(&replay, &[], &["the replay stores 8 pieces, more than"]);
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn a_frame_timing_the_command_line_rejects_is_rejected() {
    let replay = record("frame-timing", "gamepad+nes-plateau");
    // `arena nes --tap-rate` and `arena analyze --tap-rate` reject 0 and 9 (2..=8) (a frame
    // timing holds only timelines the search follows, so the replay's reader refuses them),
    // and no level has 0 or 7 frames per row.
    for (field, value, expected) in [
        (
            "tap_rate",
            0,
            "malformed replay: frame timing: tap rate 0 is outside 2..=8",
        ),
        (
            "tap_rate",
            9,
            "malformed replay: frame timing: tap rate 9 is outside 2..=8",
        ),
        (
            "frames_per_row",
            0,
            "rules: frame_timing: 0 frames per row is no level's gravity",
        ),
        (
            "frames_per_row",
            7,
            "rules: frame_timing: 7 frames per row is no level's gravity",
        ),
    ] {
        let original = fs::read_to_string(&replay).unwrap();
        tamper(&replay, |json| {
            json["rules"]["frame_timing"][field] = value.into();
        });
        assert_rejected(&replay, &[], &[expected]);
        assert_rejected(&replay, &["--redecide"], &[expected]);
        fs::write(&replay, original).unwrap();
    }
    // A timeline that `--timeline` refuses, in place of the tap rate, with its message.
    let original = fs::read_to_string(&replay).unwrap();
    tamper(&replay, |json| {
        let timing = json["rules"]["frame_timing"].as_object_mut().unwrap();
        timing.remove("tap_rate");
        timing.insert("timeline".into(), "X.X".into());
    });
    assert_rejected(
        &replay,
        &[],
        &["malformed replay: timeline \"X.X\": two X are adjacent"],
    );
    fs::write(&replay, original).unwrap();
    let line = fail(
        "nes",
        &[
            "gamepad+nes-plateau",
            "--games",
            "1",
            "--seed",
            "0",
            "--tap-rate",
            "9",
        ],
    );
    assert!(line.contains("--tap-rate 9 is outside 2..=8"), "{line}");
    remove_folder(&replay);
}

#[test]
fn a_gamepad_replay_relabelled_to_a_spawn_searcher_is_rejected() {
    let replay = record("relabelled-gamepad", "gamepad+nes-plateau");
    tamper(&replay, |value| {
        value["strategy"] = "bfs+nes-plateau".into()
    });
    let relabelled = "rules: a frame_timing is recorded, but searcher bfs ignores gravity";
    assert_rejected(&replay, &[], &[relabelled]);
    assert_rejected(&replay, &["--redecide"], &[relabelled]);
    // Without the timing, the frames are still no path of moves.
    tamper(&replay, |value| {
        value["rules"]
            .as_object_mut()
            .unwrap()
            .remove("frame_timing");
    });
    assert_rejected(&replay, &["--redecide"], &["placement 1:"]);
    remove_folder(&replay);
}

#[test]
fn deleting_the_last_only_previewed_piece_is_rejected() {
    let replay = record("previewed-piece", "bfs+elashi@2");
    tamper(&replay, |value| {
        let pieces = value["pieces"].as_str().unwrap();
        // 30 placements and depth 2: 32 pieces; the last was only ever previewed.
        assert_eq!(pieces.len(), 32);
        value["pieces"] = pieces[..31].into();
    });
    assert_rejected(
        &replay,
        &[],
        &["the replay stores 31 pieces, but its 30 placements and the strategy's 2"],
    );
    remove_folder(&replay);
}

#[test]
fn swapped_placements_are_rejected_without_redecide() {
    let replay = record("swapped", "bfs+elashi@2");
    let value = read(&replay);
    // Seed 3's uniform sequence starts with two different pieces.
    let first = value["placements"][0]["piece"].clone();
    let second = value["placements"][1]["piece"].clone();
    assert_ne!(first, second);
    let original = fs::read_to_string(&replay).unwrap();
    tamper(&replay, |value| {
        let placements = value["placements"].as_array_mut().unwrap();
        placements.swap(0, 1);
    });
    assert_rejected(&replay, &[], &["placement 1: the piece is"]);
    // Swapping the stored pieces too makes them differ from the generator's.
    fs::write(&replay, original).unwrap();
    tamper(&replay, |value| {
        value["placements"].as_array_mut().unwrap().swap(0, 1);
        let pieces = value["pieces"].as_str().unwrap().to_string();
        let swapped = format!("{}{}{}", &pieces[1..2], &pieces[0..1], &pieces[2..]);
        value["pieces"] = swapped.into();
    });
    assert_rejected(
        &replay,
        &[],
        &[
            "piece 1 of the recorded sequence is",
            "generator uniform with seed 3 gives",
        ],
    );
    remove_folder(&replay);
}

/// Records a game of `strategy` with the `play` options `options` in a fresh folder; the
/// replay's path.
fn record_with(test: &str, strategy: &str, options: &[&str]) -> PathBuf {
    let folder = common::scratch_folder("replay", test);
    let replay = folder.join("game.json");
    let mut args = vec![strategy];
    args.extend_from_slice(options);
    args.extend_from_slice(&["--record", text(&replay)]);
    succeed("play", &args);
    replay
}

/// The `unproven` lines of `arena replay`'s report.
fn unproven_lines(report: &str) -> Vec<&str> {
    report
        .lines()
        .filter(|line| line.starts_with("unproven   "))
        .collect()
}

#[test]
fn a_gamepad_game_relabelled_to_a_slower_tap_rate_is_refused_without_redecide() {
    // `arena play` records the gamepad's default timing: 2 frames per row (level 19) and a
    // press every 2 frames per thumb (30 Hz), two thumbs.
    let replay = record("slower-tap-rate", "gamepad+nes-plateau");
    let value = read(&replay);
    assert_eq!(
        value["rules"]["frame_timing"],
        serde_json::json!({"frames_per_row": 2, "tap_rate": 2, "inputs": "two-thumb"})
    );
    let report = succeed("replay", &[text(&replay)]);
    // Some thumb presses twice within 2 frames, so no slower tap rate keeps the paths, and
    // 2 is the fastest: the tap rate is proven by the game.
    assert!(!report.contains("frame_timing.tap_rate"), "{report}");
    let original = fs::read_to_string(&replay).unwrap();
    for tap_rate in 3..=8 {
        tamper(&replay, |value| {
            value["rules"]["frame_timing"]["tap_rate"] = tap_rate.into();
        });
        assert_rejected(
            &replay,
            &[],
            &[
                "placement ",
                "of the path presses ",
                &format!(
                    "but tap rate {tap_rate} lets a thumb press at most every {tap_rate} frames \
                     (two-thumb input model)"
                ),
            ],
        );
        fs::write(&replay, &original).unwrap();
    }
    succeed("replay", &[text(&replay), "--redecide"]);
    remove_folder(&replay);
}

#[test]
fn a_flipped_game_over_rule_is_refused_when_the_game_tells_the_rules_apart() {
    // On 5 rows, seed 1, bfs+elashi lands a piece with a cell above row 0 before its game
    // over: the simulation rule plays on, the literature rule would have ended the game.
    let replay = record_with(
        "flipped-rule-told-apart",
        "bfs+elashi",
        &["--board-height", "5", "--seed", "1", "--max-pieces", "300"],
    );
    let report = succeed("replay", &[text(&replay)]);
    assert!(!report.contains("game_over_rule"), "{report}");
    tamper(&replay, |value| {
        value["rules"]["game_over_rule"] = "literature".into()
    });
    assert_rejected(
        &replay,
        &[],
        &["the game was over: the placement before landed above the field"],
    );
    remove_folder(&replay);
}

#[test]
fn a_game_over_rule_the_game_does_not_prove_is_reported_and_redecide_proves_it() {
    // On 5 rows, seed 2, the literature's one-piece game with no-suicide tops out after 15
    // pieces without a placement above the field, and its end is a game over under both
    // rules: the game is legal under either.
    let strategy = "drop+dellacherie,no-suicide";
    let replay = record_with(
        "flipped-rule-not-told-apart",
        strategy,
        &["--board-height", "5", "--seed", "2", "--max-pieces", "300"],
    );
    let value = read(&replay);
    assert_eq!(value["rules"]["game_over_rule"], "literature");
    assert_eq!(value["result"]["end"], "game_over");
    let report = succeed("replay", &[text(&replay)]);
    assert!(
        unproven_lines(&report).contains(
            &"unproven   game_over_rule: the game is also legal under the simulation rule \
              (not re-decided: use --redecide)"
        ),
        "{report}"
    );
    // No-suicide skips what ends the game under the rule in force, so re-deciding under the
    // simulation rule chooses otherwise: the recorded rule is proven.
    let redecided = succeed("replay", &[text(&replay), "--redecide"]);
    assert!(!redecided.contains("game_over_rule"), "{redecided}");
    let json = run_json("replay", &[text(&replay), "--redecide"]);
    let fields: Vec<&str> = json["unproven"]
        .as_array()
        .unwrap()
        .iter()
        .map(|fact| fact["field"].as_str().unwrap())
        .collect();
    assert_eq!(fields, ["max_pieces"]);
    // Flipped, the game is still legal: accepted with the line, refused by --redecide.
    tamper(&replay, |value| {
        value["rules"]["game_over_rule"] = "simulation".into()
    });
    let report = succeed("replay", &[text(&replay)]);
    assert!(
        unproven_lines(&report).contains(
            &"unproven   game_over_rule: the game is also legal under the literature rule \
              (not re-decided: use --redecide)"
        ),
        "{report}"
    );
    let json = run_json("replay", &[text(&replay)]);
    assert_eq!(json["unproven"][1]["field"], "game_over_rule");
    assert_eq!(json["unproven"][1]["redecided"], false);
    assert_rejected(
        &replay,
        &["--redecide"],
        &[&format!("placement 3: strategy {strategy} chooses")],
    );
    remove_folder(&replay);
}

#[test]
fn a_replay_without_its_game_over_rule_is_refused_unless_version_1() {
    let replay = record_with(
        "missing-rule",
        "drop+dellacherie,no-suicide",
        &["--board-height", "5", "--seed", "2", "--max-pieces", "300"],
    );
    assert_eq!(read(&replay)["version"], 3);
    tamper(&replay, |value| {
        value["rules"]
            .as_object_mut()
            .unwrap()
            .remove("game_over_rule");
    });
    let missing = "rules: game_over_rule is missing, but a version-3 replay records it";
    assert_rejected(&replay, &[], &[missing]);
    assert_rejected(&replay, &["--redecide"], &[missing]);
    // Version 1 let the rule out, meaning simulation: read so, and said so.
    tamper(&replay, |value| value["version"] = 1.into());
    let report = succeed("replay", &[text(&replay)]);
    assert!(
        report.contains(
            "assumed    game_over_rule simulation: this version-1 replay does not record its rule"
        ),
        "{report}"
    );
    let json = run_json("replay", &[text(&replay)]);
    assert_eq!(json["game_over_rule"], "simulation");
    assert_eq!(json["game_over_rule_assumed"], true);
    // The literature game, re-decided under the assumed simulation rule, is not its strategy's.
    assert_rejected(&replay, &["--redecide"], &["placement 3: strategy "]);
    remove_folder(&replay);
}

#[test]
fn a_piece_cap_is_proven_only_by_a_game_that_ends_at_it() {
    // On 5 rows, seed 2, bfs+elashi tops out after 12 pieces: every cap above 12, or none,
    // gives the same game.
    let replay = record_with(
        "cap-after-game-over",
        "bfs+elashi",
        &["--board-height", "5", "--seed", "2", "--max-pieces", "300"],
    );
    let value = read(&replay);
    assert_eq!(value["result"]["pieces"], 12);
    assert_eq!(value["result"]["end"], "game_over");
    let line = "unproven   max_pieces: any cap above 12, or none, gives this game (it did not end \
                at its cap)";
    for cap in [Value::from(300), Value::from(13), Value::Null] {
        tamper(&replay, |value| value["rules"]["max_pieces"] = cap.clone());
        let report = succeed("replay", &[text(&replay)]);
        assert!(unproven_lines(&report).contains(&line), "{cap}: {report}");
    }
    tamper(&replay, |value| value["rules"]["max_pieces"] = 12.into());
    assert_rejected(&replay, &[], &["the piece cap 12 was reached"]);
    remove_folder(&replay);
    // A game that ended at its cap of 30 proves it: no other cap gives it.
    let replay = record("capped", "bfs+elashi@2");
    let report = succeed("replay", &[text(&replay)]);
    assert!(!report.contains("max_pieces"), "{report}");
    for (cap, expected) in [
        (
            Value::from(40),
            "piece cap recorded, but 30 pieces were placed and the cap is 40",
        ),
        (
            Value::Null,
            "piece cap recorded, but 30 pieces were placed and the cap is none",
        ),
        (
            Value::from(29),
            "30 placements recorded, more than the piece cap 29",
        ),
    ] {
        tamper(&replay, |value| value["rules"]["max_pieces"] = cap.clone());
        assert_rejected(&replay, &[], &[expected]);
    }
    remove_folder(&replay);
}

#[test]
fn a_spawn_game_over_relabelled_literature_is_refused_when_the_next_piece_has_a_placement() {
    // On 6 rows, seed 3, drop+elashi under the simulation rule ends when the next piece (an O)
    // cannot spawn. The literature rule never checks the spawn, and the drop searcher, which
    // drops pieces from above the field, still finds a placement for it: under that rule the
    // game would have gone on.
    let replay = record_with(
        "spawn-end-relabelled",
        "drop+elashi",
        &[
            "--game-over",
            "simulation",
            "--board-height",
            "6",
            "--seed",
            "3",
            "--max-pieces",
            "500",
        ],
    );
    assert_eq!(read(&replay)["result"]["end"], "game_over");
    let report = succeed("replay", &[text(&replay)]);
    assert!(!report.contains("game_over_rule"), "{report}");
    tamper(&replay, |value| {
        value["rules"]["game_over_rule"] = "literature".into()
    });
    assert_rejected(
        &replay,
        &[],
        &[
            "result: game over recorded, but the strategy finds a placement for the next piece \
             (O) (the literature rule does not check the spawn)",
        ],
    );
    remove_folder(&replay);
}
