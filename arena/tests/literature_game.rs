//! The literature's game from the command line: the `drop` searcher, the game-over rules,
//! strategy options, and their errors, run as the built binary.

use std::fs;
use std::path::PathBuf;

use serde_json::Value;
use tetris_core::{Board, Piece, PieceState};

use crate::common;

/// `arena ARGS…` (the command first), which must succeed; its stdout.
fn succeed(args: &[&str]) -> String {
    common::succeed(args[0], &args[1..])
}

/// `arena ARGS…` (the command first), which must fail with one `error:` line; that line.
fn fail(args: &[&str]) -> String {
    common::fail(args[0], &args[1..])
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|error| panic!("{error}: {text}"))
}

fn folder(name: &str) -> PathBuf {
    common::scratch_folder("literature", name)
}

#[test]
fn bad_options_and_options_that_do_not_apply_are_one_error_line() {
    let folder = folder("bad-options");
    // A pattern of 10 rows for a 20-row game, and a pattern that is not a board.
    let short = folder.join("pattern10.txt");
    fs::write(&short, format!("{}##########\n", "..........\n".repeat(9))).unwrap();
    let garbage = folder.join("garbage.txt");
    fs::write(&garbage, "not a board\n").unwrap();
    let short_name = format!("bfs+elashi,pattern={}", short.display());
    let garbage_name = format!("bfs+elashi,pattern={}", garbage.display());
    for (strategy, expected) in [
        ("bfs+elashi,no-sucide", "unknown option \"no-sucide\""),
        (
            "drop+dellacherie,well=10",
            "well column \"10\" is not a column from 0 to 9",
        ),
        ("drop+dellacherie,well=x", "is not a column from 0 to 9"),
        (
            "bfs+elashi,expectimax,expectimax",
            "option \"expectimax\" is given twice",
        ),
        ("bfs+elashi,no-suicide=yes", "takes no value"),
        (
            short_name.as_str(),
            "the pattern file has 10 rows but the board has 20",
        ),
        (garbage_name.as_str(), "pattern file"),
    ] {
        for command in [
            &["play", strategy, "--max-pieces", "5"][..],
            &[
                "tournament",
                strategy,
                "--games",
                "1",
                "--seed",
                "1",
                "--max-pieces",
                "5",
            ],
        ] {
            let message = fail(command);
            assert!(message.contains(expected), "{command:?}: {message}");
        }
    }
    // The console rule exists, but only games with the NES frame model (`arena nes`) play it.
    let message = fail(&["play", "bfs+elashi", "--game-over", "console"]);
    assert!(message.contains("needs the NES frame model"), "{message}");
    let message = fail(&["play", "bfs+elashi", "--game-over", "arcade"]);
    assert!(
        message.contains("unknown game-over rule \"arcade\""),
        "{message}"
    );
    // The 10-row pattern fits a 10-row game.
    succeed(&[
        "play",
        &short_name,
        "--board-height",
        "10",
        "--max-pieces",
        "5",
    ]);
}

#[test]
fn results_record_the_rule_and_a_tournament_never_mixes_rules_silently() {
    let played = json(&succeed(&[
        "play",
        "drop+dellacherie:el-tetris,no-suicide",
        "--generator",
        "java",
        "--seed",
        "1",
        "--max-pieces",
        "300",
        "--json",
        "--no-placements",
    ]));
    assert_eq!(played["game_over_rule"], "literature");
    assert_eq!(played["strategy"], "drop+dellacherie:el-tetris,no-suicide");
    // Options print in their canonical order.
    let played = json(&succeed(&[
        "play",
        "bfs+elashi,expectimax,no-suicide",
        "--max-pieces",
        "3",
        "--json",
    ]));
    assert_eq!(played["strategy"], "bfs+elashi,no-suicide,expectimax");
    assert_eq!(played["game_over_rule"], "simulation");
    let mixed = ["tournament", "drop+dellacherie", "column-drop+dellacherie"];
    let settings = ["--games", "2", "--seed", "1", "--board-height", "8"];
    let message = fail(&[&mixed[..], &settings[..]].concat());
    assert!(message.contains("--game-over"), "{message}");
    let report = json(&succeed(
        &[
            &mixed[..],
            &settings[..],
            &["--game-over", "literature", "--json"],
        ]
        .concat(),
    ));
    assert_eq!(report["settings"]["game_over"], "literature");
    assert!(
        report["settings"]["game_over_rule"]
            .as_str()
            .unwrap()
            .starts_with("literature:")
    );
}

#[test]
fn drop_games_replay_and_redecide_under_both_rules() {
    let folder = folder("replay");
    // (With no-suicide under the simulation rule, `drop` never lets the spawn be blocked on
    // these pieces: that game would not end, so it plays without the option.)
    for (rule, strategy) in [
        ("literature", "drop+dellacherie,no-suicide"),
        ("simulation", "drop+dellacherie"),
    ] {
        let path = folder.join(format!("{rule}.json"));
        let path = path.to_str().unwrap();
        succeed(&[
            "play",
            strategy,
            "--max-pieces",
            "100000",
            "--board-height",
            "8",
            "--seed",
            "3",
            "--game-over",
            rule,
            "--record",
            path,
        ]);
        let replay = json(&fs::read_to_string(path).unwrap());
        assert_eq!(replay["rules"]["game_over_rule"], rule);
        assert_eq!(replay["result"]["end"], "game_over");
        let verified = json(&succeed(&["replay", path, "--redecide", "--json"]));
        assert_eq!(verified["verified"], true);
        assert_eq!(verified["game_over_rule"], rule);
    }
    // Relabelled to the other rule, the literature game no longer verifies: its last
    // placement landed above the field, which the simulation rule does not end the game on.
    let literature = folder.join("literature.json");
    let text = fs::read_to_string(&literature).unwrap();
    let relabelled = folder.join("relabelled.json");
    fs::write(
        &relabelled,
        text.replace(
            "\"game_over_rule\":\"literature\"",
            "\"game_over_rule\":\"simulation\"",
        ),
    )
    .unwrap();
    assert_ne!(fs::read_to_string(&relabelled).unwrap(), text);
    fail(&["replay", relabelled.to_str().unwrap()]);
}

#[test]
fn the_estimate_beside_the_measured_mean_is_the_stats_fit_of_the_same_pieces() {
    // One uncapped game on 10 x 12 under the literature rule, three ways: `play --estimate`,
    // `tournament --estimate` (game 0 uses seed 2), and `arena stats` over exactly that
    // game's pieces (its game 0 is the same game, stopped by the piece count where the game
    // ended, counting rows by the top cell as `--estimate` does). All three fit the same row
    // counts, so they must agree to the last digit.
    let strategy = "drop+dellacherie:original";
    let played = json(&succeed(&[
        "play",
        strategy,
        "--seed",
        "2",
        "--board-height",
        "12",
        "--estimate",
        "--json",
        "--no-placements",
    ]));
    assert_eq!(played["game_over"], true);
    let pieces = played["pieces"].as_u64().unwrap().to_string();
    let estimate = &played["estimate"];
    let expected_pieces = estimate["expected_pieces"].as_f64().unwrap();
    let expected_lines = estimate["expected_lines"].as_f64().unwrap();
    assert!((expected_lines - 0.4 * expected_pieces).abs() < 1e-6 * expected_lines);
    let tournament = json(&succeed(&[
        "tournament",
        strategy,
        "--games",
        "1",
        "--seed",
        "2",
        "--board-height",
        "12",
        "--estimate",
        "--json",
    ]));
    assert_eq!(&tournament["summary"][0]["estimate"], estimate);
    assert_eq!(tournament["games"][0]["lines"], played["lines"]);
    let stats = json(&succeed(&[
        "stats",
        strategy,
        "--pieces",
        &pieces,
        "--seed",
        "2",
        "--board-height",
        "12",
        // `--estimate` counts the piece's top cell (its rule says so); `arena stats`
        // defaults to the pivot row, the article's.
        "--row",
        "top",
        "--json",
    ]));
    assert_eq!(stats["games"], 1);
    assert_eq!(stats["row"], "top");
    assert_eq!(stats["fit"]["expected_pieces"], estimate["expected_pieces"]);
    assert_eq!(stats["fit"]["r_squared"], estimate["r_squared"]);
}

#[test]
fn mdptetris_games_deal_after_each_placement_replay_and_refuse_a_preview() {
    // MDPTetris's seed 1 (docs/spec/mdptetris.md): the raw pieces begin O L Z I …, raw 36 is
    // S. The game's creation throws raw 0 away, so piece 1 is L; L's 34 drops on the empty
    // board all stay inside the field, so 34 trial draws are skipped and piece 2 is raw 36, S.
    let played = json(&succeed(&[
        "play",
        "drop+dellacherie,no-suicide",
        "--generator",
        "mdptetris",
        "--seed",
        "1",
        "--max-pieces",
        "2",
        "--json",
    ]));
    assert_eq!(played["generator"], "mdptetris");
    let pieces: Vec<&str> = played["placements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|placement| placement["piece"].as_str().unwrap())
        .collect();
    assert_eq!(pieces, ["L", "S"]);
    // A whole game on a 10-row board records and re-decides: the replay re-deals the
    // pieces placement by placement. So do MDPTetris's controllers, BCTS and its Dellacherie,
    // under both of its rules for game-ending placements (never chosen, scored like others).
    let folder = folder("mdptetris");
    for strategy in [
        "drop+bcts,no-suicide",
        "drop+bcts",
        "drop+bcts:dellacherie,no-suicide",
        "drop+bcts:dellacherie",
        "drop+dellacherie,no-suicide",
    ] {
        let path = folder.join("game.json");
        let path = path.to_str().unwrap();
        let printed = succeed(&[
            "play",
            strategy,
            "--generator",
            "mdptetris",
            "--board-height",
            "10",
            "--seed",
            "1",
            "--record",
            path,
        ]);
        assert!(printed.contains("\nlines "), "{printed}");
        let replay = json(&fs::read_to_string(path).unwrap());
        assert_eq!(replay["generator"], "mdptetris", "{strategy}");
        assert_eq!(
            replay["rules"]["game_over_rule"], "literature",
            "{strategy}"
        );
        assert_eq!(replay["strategy"], strategy);
        assert_eq!(replay["result"]["end"], "game_over", "{strategy}");
        let verified = json(&succeed(&["replay", path, "--redecide", "--json"]));
        assert_eq!(verified["verified"], true, "{strategy}");
    }
    let path = folder.join("game.json");
    let path = path.to_str().unwrap();
    // The same pieces relabelled as another seed's are not that seed's game.
    let text = fs::read_to_string(path).unwrap();
    let reseeded = folder.join("reseeded.json");
    fs::write(&reseeded, text.replace("\"seed\": 1,", "\"seed\": 2,")).unwrap();
    assert!(
        fs::read_to_string(&reseeded).unwrap() != text,
        "the seed is relabelled"
    );
    let message = fail(&["replay", reseeded.to_str().unwrap()]);
    assert!(message.contains("mdptetris"), "{message}");
    // A preview is refused, with one message, by every command that plays.
    let refused = "the mdptetris generator deals a piece only after the previous one is \
                   placed (MDPTetris's search consumes draws), so it cannot show a preview: \
                   use a one-piece strategy";
    for command in [
        &["play", "drop+dellacherie@2", "--generator", "mdptetris"][..],
        &[
            "tournament",
            "drop+dellacherie",
            "drop+dellacherie@2",
            "--generator",
            "mdptetris",
            "--games",
            "1",
        ],
        &[
            "stats",
            "drop+dellacherie@2",
            "--generator",
            "mdptetris",
            "--pieces",
            "100",
        ],
    ] {
        assert_eq!(fail(command), format!("error: {refused}"), "{command:?}");
    }
}

#[test]
fn a_tournament_on_mdptetris_pieces_says_its_sequences_part_near_the_top() {
    // The mdptetris generator skips one draw per straight drop that stays inside the field,
    // on each strategy's own board: two strategies share a game's seed, not its whole
    // sequence, and the report must not claim identical sequences.
    let args = [
        "tournament",
        "drop+dellacherie",
        "drop+bcts",
        "--generator",
        "mdptetris",
        "--board-height",
        "6",
        "--games",
        "2",
    ];
    let text = succeed(&args);
    assert!(
        text.starts_with(
            "Tournament: 2 strategies x 2 games on the same seeds, generator mdptetris"
        ),
        "{text}"
    );
    assert!(
        !text.contains("every strategy draws the same pieces"),
        "{text}"
    );
    let mut with_json = args.to_vec();
    with_json.push("--json");
    let report = json(&succeed(&with_json));
    let rule = report["settings"]["preview_rule"].as_str().unwrap();
    assert!(
        rule.contains("skips the draws of MDPTetris's search"),
        "{rule}"
    );
    // Any other generator keeps the identical-sequence rule.
    let uniform = succeed(&[
        "tournament",
        "drop+dellacherie",
        "drop+bcts",
        "--board-height",
        "6",
        "--games",
        "2",
    ]);
    assert!(
        uniform.contains("games on identical sequences"),
        "{uniform}"
    );
}

#[test]
fn mdptetris_s_dellacherie_parts_from_the_original_only_when_a_column_reaches_the_ceiling() {
    // MDPTetris's Dellacherie (`bcts:dellacherie`) counts a column transition at the top of a
    // column filled to the ceiling, which `dellacherie:original` (El-Tetris's definitions)
    // does not; with no-suicide nothing else differs (docs/spec/evaluators.md). So on the
    // MDPTetris game the two play alike until a board has a cell on row 0: on 10 × 10 with
    // seed 2 they part, and where they part one of the two choices fills a cell of row 0.
    let placements = |strategy: &str| -> Vec<Value> {
        let args = [
            "play",
            strategy,
            "--generator",
            "mdptetris",
            "--board-height",
            "10",
            "--seed",
            "2",
            "--json",
        ];
        json(&succeed(&args))["placements"]
            .as_array()
            .unwrap()
            .clone()
    };
    let mdptetris = placements("drop+bcts:dellacherie,no-suicide");
    let original = placements("drop+dellacherie:original,no-suicide");
    let parted = mdptetris
        .iter()
        .zip(&original)
        .position(|(a, b)| a != b)
        .expect("the two part on 10 x 10, seed 2");
    let mut board = Board::new(10).unwrap();
    let state = |placement: &Value| {
        let number = |key: &str| placement[key].as_i64().unwrap();
        PieceState {
            x: number("x") as i8,
            y: number("y") as i8,
            rotation: number("rotation") as u8,
        }
    };
    let piece =
        |placement: &Value| -> Piece { placement["piece"].as_str().unwrap().parse().unwrap() };
    for placement in &mdptetris[..parted] {
        board.lock(piece(placement), state(placement));
    }
    let fills_the_top_row = |placement: &Value| {
        let mut after = board;
        after.lock(piece(placement), state(placement));
        (0..10).any(|x| after.is_occupied(x, 0)) || (0..10).any(|x| board.is_occupied(x, 0))
    };
    assert!(
        fills_the_top_row(&mdptetris[parted]) || fills_the_top_row(&original[parted]),
        "placement {parted}: {} vs {}",
        mdptetris[parted],
        original[parted]
    );
}
