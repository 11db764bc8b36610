//! `arena serve` over real HTTP: the binary on an ephemeral loopback port, one server per
//! test (tests run in parallel threads). The answers are compared with the command line's for
//! the same position or game (`arena analyze`, `arena play`, `arena list`), and the server's
//! limits are driven to their ends: bad requests (400 with the command line's message), a
//! body over the limit (413), a full queue and the time limit (503), clients that go away,
//! SIGTERM during a request, and `arena serve`'s own option errors.

use crate::common;

use std::fs;
use std::io::Write;
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::server::{Answer, Server, cells, post_request, read_answer};
use serde_json::{Value, json};

/// The board of the README's examples: an empty 10 × 20 field but for a bottom row with a
/// gap in the right column, as 200 cells.
fn cells_with_bottom_gap() -> String {
    format!("{}{}", "0".repeat(190), "1111111110")
}

/// Three rows filled but for the right column (tests/boards/flat-three-rows-gap-right.txt):
/// an I in the gap clears all three.
const FLAT_GAP_RIGHT: [&str; 20] = [
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
    "#########.",
    "#########.",
    "#########.",
];

/// An uneven stack with a hole and a well: placements of every kind and distinct values.
const BUMPY: [&str; 20] = [
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
    "#.........",
    "##.....#..",
    "##..#.##..",
    "###.####.#",
    "####.###.#",
    "#.######.#",
];

/// A stack up to row 3 (one gap per row, on a diagonal, so no row is full): a piece that
/// spawns in row 0 falls only two rows before it lands.
const LOW_CEILING: [&str; 20] = [
    "..........",
    "..........",
    "..........",
    "###.######",
    "####.#####",
    "#####.####",
    "######.###",
    "#######.##",
    "########.#",
    "#########.",
    ".#########",
    "#.########",
    "##.#######",
    "###.######",
    "####.#####",
    "#####.####",
    "######.###",
    "#######.##",
    "########.#",
    "#########.",
];

/// A fresh folder for one test's files, under the build's target folder (removed by
/// [`Scratch`]'s drop).
struct Scratch(PathBuf);

impl Scratch {
    fn new(test: &str) -> Scratch {
        let folder = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("server-{}-{test}", std::process::id()));
        let _ = fs::remove_dir_all(&folder);
        fs::create_dir_all(&folder).unwrap();
        Scratch(folder)
    }

    /// Writes `rows` as the board file `name` (a line per row, as `arena analyze --board`
    /// reads it).
    fn board(&self, name: &str, rows: &[&str]) -> String {
        let path = self.0.join(name);
        fs::write(&path, format!("{}\n", rows.join("\n"))).unwrap();
        path.to_str().unwrap().to_string()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// The fields of a placement the server and `arena analyze --json` both give.
const PLACEMENT_FIELDS: [&str; 5] = ["piece", "x", "y", "rotation", "cells"];

/// The fields of a valued placement the server and `arena analyze --json` both give.
const VALUED_FIELDS: [&str; 9] = [
    "piece",
    "x",
    "y",
    "rotation",
    "cells",
    "value",
    "chain_length",
    "rule",
    "features",
];

/// `fields` of `entry`, as an object.
fn pick(entry: &Value, fields: &[&str]) -> Value {
    Value::Object(
        fields
            .iter()
            .map(|&field| (field.to_string(), entry[field].clone()))
            .collect(),
    )
}

/// A placement's `(x, y, rotation)`.
fn key(entry: &Value) -> (i64, i64, i64) {
    (
        entry["x"].as_i64().unwrap(),
        entry["y"].as_i64().unwrap(),
        entry["rotation"].as_i64().unwrap(),
    )
}

/// The CLI's entry for the placement `(x, y, rotation)` in an `--all` listing.
fn cli_entry(all: &Value, wanted: (i64, i64, i64)) -> &Value {
    all["placements"]
        .as_array()
        .unwrap()
        .iter()
        .find(|entry| key(entry) == wanted)
        .unwrap_or_else(|| panic!("the CLI lists no placement {wanted:?}"))
}

/// Whether chain `a` ranks strictly before chain `b` (the lookahead chain's order, as
/// docs/commands.md states it: longer first, then the rule prefer < neutral < reject, then
/// the lower cost), for two listed placements that both have a value.
fn better(a: &Value, b: &Value) -> bool {
    let rule = |entry: &Value| match entry["rule"].as_str().unwrap() {
        "prefer" => 0,
        "neutral" => 1,
        "reject" => 2,
        other => panic!("rule {other}"),
    };
    let length = |entry: &Value| entry["chain_length"].as_u64().unwrap();
    if length(a) != length(b) {
        return length(a) > length(b);
    }
    if rule(a) != rule(b) {
        return rule(a) < rule(b);
    }
    a["value"].as_f64().unwrap() < b["value"].as_f64().unwrap()
}

/// The rank of `entry` among the CLI's `--all` placements: 1 + the strictly better ones.
fn rank_among(all: &Value, entry: &Value) -> usize {
    1 + all["placements"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|other| better(other, entry))
        .count()
}

/// One position, asked of the server and of `arena analyze`.
struct Position<'a> {
    strategy: &'a str,
    rows: &'a [&'a str],
    /// Current piece first.
    pieces: &'a [&'a str],
    /// Send the board as cells (else as rows).
    as_cells: bool,
    /// The CLI's options beside the strategy, board and pieces.
    cli: &'a [&'a str],
    /// The request's fields beside the strategy, board and pieces.
    body: Value,
}

impl Position<'_> {
    /// The request body (with `top` 200: every placement detailed).
    fn request(&self) -> Value {
        let mut body = json!({
            "strategy": self.strategy,
            "board": match self.as_cells {
                true => json!(cells(self.rows)),
                false => json!(self.rows),
            },
            "current": self.pieces[0],
            "preview": &self.pieces[1..],
            "top": 200,
        });
        for (field, value) in self.body.as_object().unwrap() {
            body[field] = value.clone();
        }
        body
    }

    /// `arena analyze` on the same position: (`--all`, best chain).
    fn cli(&self, scratch: &Scratch) -> (Value, Value) {
        let board = scratch.board(&format!("{}.txt", self.strategy), self.rows);
        let pieces = self.pieces.join(",");
        let mut args = vec![self.strategy, "--board", &board, "--pieces", &pieces];
        args.extend_from_slice(self.cli);
        let best = common::run_json("analyze", &args);
        args.push("--all");
        (common::run_json("analyze", &args), best)
    }
}

/// Asks `/v1/analyze` and `arena analyze` the same position and checks the server's ranking
/// against the CLI: the same placements with the same value (bit for bit), chain length,
/// rule, features and path; the ranks the values give; rank 1 is the CLI's best, and its
/// chain is the CLI's best chain. Returns the server's answer.
fn compare_analysis(server: &Server, scratch: &Scratch, position: &Position) -> Value {
    let answer = server.post_json("/v1/analyze", &position.request());
    assert_eq!(answer.status, 200, "{}", answer.body);
    let answer = answer.json();
    let (all, best) = position.cli(scratch);
    let name = position.strategy;
    assert_eq!(answer["strategy"], all["strategy"], "{name}");
    assert_eq!(answer["pieces"], all["pieces"], "{name}");
    let listed = answer["placements"].as_array().unwrap();
    let count = all["placements"].as_array().unwrap().len();
    assert!(count > 1, "{name}: a position with a choice");
    assert_eq!(answer["placement_count"], count, "{name}");
    assert_eq!(listed.len(), count, "{name}: top 200 lists them all");
    let mut seen: Vec<_> = listed.iter().map(key).collect();
    seen.sort_unstable();
    seen.dedup();
    assert_eq!(seen.len(), count, "{name}: each placement once");
    let mut previous_rank = 0;
    for entry in listed {
        let cli = cli_entry(&all, key(entry));
        assert!(cli["value"].is_f64(), "{name}: every chain is whole here");
        assert_eq!(
            pick(entry, &VALUED_FIELDS),
            pick(cli, &VALUED_FIELDS),
            "{name}"
        );
        assert_eq!(entry["path"], cli["path"], "{name} {:?}", key(entry));
        let rank = entry["rank"].as_u64().unwrap() as usize;
        assert_eq!(rank, rank_among(&all, cli), "{name} {:?}", key(entry));
        assert!(rank >= previous_rank, "{name}: best first");
        previous_rank = rank;
        assert_eq!(
            pick(&entry["chain"][0], &PLACEMENT_FIELDS),
            pick(entry, &PLACEMENT_FIELDS),
            "{name}: a chain starts with its placement"
        );
        assert_eq!(
            entry["chain"].as_array().unwrap().len(),
            entry["chain_length"]
        );
    }
    let first = &listed[0];
    assert_eq!(first["rank"], 1, "{name}");
    let cli_best = &best["best"];
    assert_eq!(
        pick(first, &VALUED_FIELDS),
        pick(cli_best, &VALUED_FIELDS),
        "{name}"
    );
    assert_eq!(first["path"], cli_best["path"], "{name}");
    let chain: Vec<Value> = first["chain"]
        .as_array()
        .unwrap()
        .iter()
        .map(|placement| pick(placement, &PLACEMENT_FIELDS))
        .collect();
    let cli_chain: Vec<Value> = best["placements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|placement| pick(placement, &PLACEMENT_FIELDS))
        .collect();
    assert_eq!(chain, cli_chain, "{name}: the best chain");
    answer
}

/// The answer without what depends on the run (the time on the worker).
fn without_microseconds(mut answer: Value) -> Value {
    answer.as_object_mut().unwrap().remove("microseconds");
    answer
}

#[test]
fn the_server_answers_health_and_its_openapi_document() {
    let server = Server::start(&["--workers", "1"]);
    let health = server.get("/v1/health");
    assert_eq!(health.status, 200);
    assert_eq!(health.json()["workers"], 1);
    // StackRabbit's endpoints answer with the strongest NES bot unless told otherwise.
    assert_eq!(
        health.json()["stackrabbit_strategy"],
        "gamepad+nes-plateau,expectimax=3,prefer-bonus=80,playouts=16,extra-deep-wells=5@2"
    );
    assert_eq!(health.header("access-control-allow-origin"), Some("*"));
    let document = server.get("/openapi.json").json();
    assert!(document["openapi"].as_str().unwrap().starts_with("3."));
    for path in [
        "/v1/analyze",
        "/v1/rate",
        "/v1/play",
        "/v1/strategies",
        "/v1/health",
    ] {
        assert!(document["paths"][path].is_object(), "{path} documented");
    }
    let analyzed = server.post_json(
        "/v1/analyze",
        &json!({"strategy": "bfs+elashi@2", "board": cells_with_bottom_gap(), "current": "T", "preview": ["I"]}),
    );
    assert_eq!(analyzed.status, 200, "{}", analyzed.body);
}

#[test]
fn unknown_paths_and_wrong_methods_answer_with_a_json_error() {
    let server = Server::start(&["--workers", "1"]);
    let missing = server.get("/v1/nothing");
    assert_eq!(missing.status, 404);
    assert_eq!(
        missing.error(),
        "no endpoint GET /v1/nothing (the native API is listed at /openapi.json)"
    );
    // A known path with a method it does not take: 405, with a JSON body like every other
    // error of the native API (axum's own 405 has none).
    let wrong_method = server.get("/v1/analyze");
    assert_eq!(wrong_method.status, 405);
    assert_eq!(
        wrong_method.error(),
        "GET is not allowed on /v1/analyze (the native API is listed at /openapi.json)"
    );
    let wrong_method = server.post("/v1/health", "{}");
    assert_eq!(wrong_method.status, 405);
    assert!(
        wrong_method
            .error()
            .starts_with("POST is not allowed on /v1/health")
    );
}

#[test]
fn analyze_ranks_the_placements_as_the_command_line_values_them() {
    let server = Server::start(&["--workers", "2"]);
    let scratch = Scratch::new("analyze");
    compare_analysis(
        &server,
        &scratch,
        &Position {
            strategy: "bfs+elashi@2",
            rows: &FLAT_GAP_RIGHT,
            pieces: &["T", "I"],
            as_cells: false,
            cli: &[],
            body: json!({}),
        },
    );
    compare_analysis(
        &server,
        &scratch,
        &Position {
            strategy: "column-drop+dellacherie",
            rows: &BUMPY,
            pieces: &["L"],
            as_cells: true,
            cli: &[],
            body: json!({}),
        },
    );
    compare_analysis(
        &server,
        &scratch,
        &Position {
            strategy: "drop+bcts",
            rows: &BUMPY,
            pieces: &["S"],
            as_cells: false,
            cli: &[],
            body: json!({}),
        },
    );
    let gamepad = |body| Position {
        strategy: "gamepad+nes-plateau@2",
        rows: &BUMPY,
        pieces: &["T", "I"],
        as_cells: true,
        cli: &["--level", "29", "--tap-rate", "4"],
        body,
    };
    let by_rate = compare_analysis(
        &server,
        &scratch,
        &gamepad(json!({"level": 29, "tap_rate": 4})),
    );
    // Gamepad paths are frames (`F<bits>`), checked against the CLI's above.
    assert!(
        by_rate["placements"][0]["path"][0]
            .as_str()
            .unwrap()
            .starts_with('F')
    );
    // A timeline of one input every 4th frame is tap rate 4.
    let by_timeline = server.post_json(
        "/v1/analyze",
        &gamepad(json!({"level": 29, "timeline": "X..."})).request(),
    );
    assert_eq!(by_timeline.status, 200, "{}", by_timeline.body);
    assert_eq!(
        without_microseconds(by_timeline.json()),
        without_microseconds(by_rate)
    );
    // And the speed matters: at 30 presses a second (X.) the answer differs.
    let faster = server.post_json(
        "/v1/analyze",
        &gamepad(json!({"level": 29, "timeline": "X."})).request(),
    );
    assert_ne!(
        faster.json()["placement_count"],
        by_timeline.json()["placement_count"]
    );
    // A mixed timeline answers as `arena analyze --timeline` does.
    compare_analysis(
        &server,
        &scratch,
        &Position {
            cli: &["--level", "29", "--timeline", "X....X...X..."],
            ..gamepad(json!({"level": 29, "timeline": "X....X...X..."}))
        },
    );
}

#[test]
fn rate_values_a_placement_as_the_command_line_lists_it() {
    let server = Server::start(&["--workers", "2"]);
    let scratch = Scratch::new("rate");
    let board = scratch.board("flat.txt", &FLAT_GAP_RIGHT);
    let all = common::run_json(
        "analyze",
        &[
            "bfs+elashi@2",
            "--board",
            &board,
            "--pieces",
            "T,I",
            "--all",
        ],
    );
    let best = &common::run_json(
        "analyze",
        &["bfs+elashi@2", "--board", &board, "--pieces", "T,I"],
    )["best"];
    let rate = |entry: &Value| {
        let answer = server.post_json(
            "/v1/rate",
            &json!({
                "strategy": "bfs+elashi@2", "board": FLAT_GAP_RIGHT, "current": "T",
                "preview": ["I"],
                "placement": {"x": entry["x"], "y": entry["y"], "rotation": entry["rotation"]},
            }),
        );
        assert_eq!(answer.status, 200, "{}", answer.body);
        answer.json()
    };
    // Every placement the CLI lists: its value, the loss against the best, its rank.
    let best_value = best["value"].as_f64().unwrap();
    let mut worst_loss = 0.0_f64;
    for entry in all["placements"].as_array().unwrap() {
        let rated = rate(entry);
        let value = entry["value"].as_f64().unwrap();
        assert_eq!(rated["reachable"], true);
        assert_eq!(rated["value"], entry["value"]);
        assert_eq!(rated["best_value"], best["value"]);
        assert_eq!(rated["loss"].as_f64().unwrap(), value - best_value);
        assert_eq!(rated["rank"], rank_among(&all, entry));
        assert_eq!(
            pick(&rated["placement"], &PLACEMENT_FIELDS),
            pick(entry, &PLACEMENT_FIELDS)
        );
        assert_eq!(
            pick(&rated["best"], &VALUED_FIELDS),
            pick(best, &VALUED_FIELDS)
        );
        assert_eq!(
            rated["placement_count"],
            all["placements"].as_array().unwrap().len()
        );
        worst_loss = worst_loss.max(value - best_value);
    }
    assert!(worst_loss > 0.0, "some placement is worse than the best");
    let rated_best = rate(best);
    assert_eq!(rated_best["loss"], 0.0);
    assert_eq!(rated_best["rank"], 1);

    // Reachability at the player's speed. On LOW_CEILING a piece spawns in row 0 and lands on
    // row 3's stack: at level 29 it falls a row every frame, so it is in the air for frames
    // 0, 1 and 2 (the drop on frame 2 fails and locks it). A shift happens on a frame where
    // Left or Right is newly pressed, before that frame's drop (docs/spec/rules.md). The
    // horizontal I spawns with its pivot in column 5 (cells 3–6); x = 7 (cells 5–8, resting
    // on row 3) is two shifts right. At 30 presses a second (tap rate 2) the thumb presses on
    // frames 0 and 2: two shifts, reachable. At 15 a second (tap rate 4) only on frame 0: one
    // shift, x = 6 at most; x = 7 is out of reach.
    let low = scratch.board("low.txt", &LOW_CEILING);
    let rate_i = |x: i64, tap_rate: u64| {
        let answer = server.post_json(
            "/v1/rate",
            &json!({
                "strategy": "gamepad+nes-plateau", "board": cells(&LOW_CEILING), "current": "I",
                "level": 29, "tap_rate": tap_rate,
                "placement": {"x": x, "y": 2, "rotation": 0},
            }),
        );
        assert_eq!(answer.status, 200, "{}", answer.body);
        answer.json()
    };
    let slow = rate_i(7, 4);
    assert_eq!(slow["reachable"], false);
    for field in ["value", "loss", "rank"] {
        assert!(slow[field].is_null(), "{field}: {slow}");
    }
    assert!(slow["best_value"].is_f64());
    let cli_at = |tap_rate: &str| {
        common::run_json(
            "analyze",
            &[
                "gamepad+nes-plateau",
                "--board",
                &low,
                "--pieces",
                "I",
                "--all",
                "--level",
                "29",
                "--tap-rate",
                tap_rate,
            ],
        )
    };
    let one_shift = rate_i(6, 4);
    assert_eq!(one_shift["reachable"], true);
    assert_eq!(
        one_shift["value"],
        cli_entry(&cli_at("4"), (6, 2, 0))["value"]
    );
    let fast = rate_i(7, 2);
    assert_eq!(fast["reachable"], true);
    let cli_fast = cli_at("2");
    assert_eq!(fast["value"], cli_entry(&cli_fast, (7, 2, 0))["value"]);
    assert_eq!(
        fast["rank"],
        rank_among(&cli_fast, cli_entry(&cli_fast, (7, 2, 0)))
    );
}

#[test]
fn play_and_strategies_answer_as_the_command_line() {
    let server = Server::start(&["--workers", "1"]);
    let games: [(&[&str], Value); 3] = [
        (
            &[
                "bfs+elashi@2",
                "--seed",
                "7",
                "--generator",
                "nes",
                "--max-pieces",
                "300",
            ],
            json!({"strategy": "bfs+elashi@2", "seed": 7, "generator": "nes", "max_pieces": 300}),
        ),
        (
            // A short field: the game ends before its cap.
            &[
                "column-drop+dellacherie",
                "--board-height",
                "6",
                "--max-pieces",
                "1000",
                "--game-over",
                "literature",
            ],
            json!({"strategy": "column-drop+dellacherie", "board_height": 6, "max_pieces": 1000,
                   "game_over": "literature"}),
        ),
        (
            &[
                "drop+bcts",
                "--seed",
                "3",
                "--max-pieces",
                "50",
                "--no-placements",
            ],
            json!({"strategy": "drop+bcts", "seed": 3, "max_pieces": 50, "no_placements": true}),
        ),
    ];
    let mut ended = 0;
    for (args, body) in games {
        let mut cli_args = args.to_vec();
        cli_args.push("--json");
        let cli = common::succeed("play", &cli_args);
        let answer = server.post_json("/v1/play", &body);
        assert_eq!(answer.status, 200, "{}", answer.body);
        assert_eq!(answer.header("content-type"), Some("application/json"));
        // Placements, lines, score, the end: byte for byte, but for who made it.
        assert_eq!(
            common::text_without_made_by(&answer.body),
            common::text_without_made_by(&cli),
            "{body}"
        );
        let made_by = answer.json()["made_by"]["command"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(
            made_by.starts_with("arena serve: POST /v1/play "),
            "{made_by}"
        );
        ended += usize::from(answer.json()["game_over"] == true);
    }
    assert_eq!(ended, 1, "the short field's game ends");

    // `arena list --json`, but for the generator and the outside engines every served request
    // is refused: the list offers what a client may send.
    let strategies = server.get("/v1/strategies");
    assert_eq!(strategies.status, 200);
    let mut listed = common::without_made_by(common::run_json("list", &[]));
    let generators = listed["generators"].as_array_mut().unwrap();
    assert!(generators.contains(&json!("file:PATH")));
    generators.retain(|name| name != "file:PATH");
    // Nor outside engines: the server starts no programs and asks no other server.
    let outside = listed["outside_engines"].as_array_mut().unwrap();
    assert!(!outside.is_empty());
    outside.clear();
    assert_eq!(common::without_made_by(strategies.json()), listed);
    for generator in strategies.json()["generators"].as_array().unwrap() {
        let body = json!({"strategy": "column-drop+dellacherie", "generator": generator,
                          "max_pieces": 5});
        assert_eq!(
            server.post_json("/v1/play", &body).status,
            200,
            "{generator}"
        );
    }
}

/// `arena COMMAND ARGS…`'s one-line error, without `error: `.
fn cli_error(command: &str, args: &[&str]) -> String {
    common::fail(command, args)
        .strip_prefix("error: ")
        .unwrap()
        .to_string()
}

/// `message` with its one `fragment` (the command line's words for the values it names)
/// in the JSON body's words: the same mistake's message, each front end naming the values its
/// own way (`--board-height` on the command line, `board_height` in a body).
fn in_body_words(message: String, fragment: &str, body_words: &str) -> String {
    assert_eq!(
        message.matches(fragment).count(),
        1,
        "{fragment} in {message}"
    );
    message.replace(fragment, body_words)
}

/// Whether `message` names a command-line option (`--` and a letter).
fn names_an_option(message: &str) -> bool {
    message
        .split("--")
        .skip(1)
        .any(|rest| rest.starts_with(|c: char| c.is_ascii_lowercase()))
}

#[test]
fn json_mistakes_name_the_bodys_own_fields() {
    let server = Server::start(&["--workers", "1"]);
    let document = server.get("/openapi.json").json();
    // The fields a body takes, as the server's OpenAPI document spells them.
    let fields_of = |schema: &str| -> Vec<String> {
        document["components"]["schemas"][schema]["properties"]
            .as_object()
            .unwrap_or_else(|| panic!("{schema} in the document"))
            .keys()
            .cloned()
            .collect()
    };
    let empty = "0".repeat(200);
    let position = |strategy: &str, fields: Value| {
        let mut body = json!({"strategy": strategy, "board": empty, "current": "T"});
        for (field, value) in fields.as_object().unwrap() {
            body[field] = value.clone();
        }
        body.to_string()
    };
    let play = |fields: Value| {
        let mut body = json!({"strategy": "bfs+elashi", "max_pieces": 5});
        for (field, value) in fields.as_object().unwrap() {
            body[field] = value.clone();
        }
        body.to_string()
    };
    let gamepad = "gamepad+nes-plateau";
    // (endpoint, the body's schema, the field the message names, the body, the message).
    let cases: Vec<(&str, &str, &str, String, &str)> = vec![
        (
            "/v1/analyze",
            "PositionBody",
            "board_height",
            position("bfs+elashi", json!({"board_height": 3})),
            "board_height 3 is outside 4..=32",
        ),
        (
            "/v1/analyze",
            "PositionBody",
            "level",
            position(gamepad, json!({"level": 300})),
            "level 300 is outside 0..=255",
        ),
        (
            "/v1/analyze",
            "PositionBody",
            "tap_rate",
            position(gamepad, json!({"tap_rate": 9})),
            "tap_rate 9 is outside 2..=8 (frames between two presses of one thumb)",
        ),
        (
            "/v1/analyze",
            "PositionBody",
            "timeline",
            position(gamepad, json!({"tap_rate": 2, "timeline": "X."})),
            "give tap_rate or timeline, not both",
        ),
        (
            "/v1/analyze",
            "PositionBody",
            "inputs",
            position(gamepad, json!({"inputs": "one-thumb"})),
            "inputs: unknown input model \"one-thumb\" (valid: two-thumb article)",
        ),
        (
            "/v1/rate",
            "PositionBody",
            "entry_delay",
            position(
                "bfs+elashi",
                json!({"entry_delay": true, "placement": {"x": 5, "y": 18, "rotation": 0}}),
            ),
            "level, tap_rate, timeline, inputs and entry_delay are for gravity-aware searchers \
             (gamepad); bfs ignores gravity",
        ),
        (
            "/v1/analyze",
            "PositionBody",
            "game_over",
            position("bfs+elashi", json!({"game_over": "console"})),
            "game_over: the console rule needs the NES frame model: it is `arena nes`'s (its \
             default with the gamepad searcher); games without frames play simulation or \
             literature",
        ),
        (
            "/v1/analyze",
            "PositionBody",
            "top",
            position("bfs+elashi", json!({"top": 0})),
            "top 0 is outside 1..=200",
        ),
        (
            "/v1/analyze",
            "PositionBody",
            "current",
            position("bfs+elashi", json!({"current": "Q"})),
            "current \"Q\" is not a piece: one letter of T J Z O S L I, upper case",
        ),
        (
            "/v1/analyze",
            "PositionBody",
            "preview",
            position("bfs+elashi@2", json!({"preview": ["x"]})),
            "preview \"x\" is not a piece: one letter of T J Z O S L I, upper case",
        ),
        (
            "/v1/analyze",
            "PositionBody",
            "board",
            position(
                "bfs+elashi",
                json!({"board": ["..........", "##########"], "board_height": 4}),
            ),
            "board: board has 2 rows, expected 4 (board_height sets the field height)",
        ),
        (
            "/v1/play",
            "PlayBody",
            "generator",
            play(json!({"generator": "bag8"})),
            "generator: unknown generator \"bag8\" (valid: uniform nes bag7 sz java mdptetris \
             file:PATH)",
        ),
        (
            "/v1/play",
            "PlayBody",
            "board_height",
            play(json!({"board_height": 40})),
            "board_height 40 is outside 4..=32",
        ),
        (
            "/v1/play",
            "PlayBody",
            "max_pieces",
            play(json!({"max_pieces": 0})),
            "max_pieces 0: a served game plays 1 to 100000 pieces (max_pieces is required)",
        ),
    ];
    let mut fields: Vec<&str> = cases.iter().map(|(_, _, field, _, _)| *field).collect();
    fields.sort();
    fields.dedup();
    assert!(cases.len() >= 10 && fields.len() >= 10, "{fields:?}");
    for (path, schema, field, body, message) in &cases {
        assert!(
            fields_of(schema).iter().any(|known| known == field),
            "{schema} has no field {field}"
        );
        assert!(message.contains(field), "{message}");
        assert!(!names_an_option(message), "{message}");
        let answer = server.post(path, body);
        assert_eq!(answer.status, 400, "{path} {body}: {}", answer.body);
        assert_eq!(&answer.error(), message, "{path} {body}");
    }
}

#[test]
fn bad_requests_answer_400_with_the_command_lines_message() {
    let server = Server::start(&["--workers", "1"]);
    let scratch = Scratch::new("bad");
    let empty = "0".repeat(200);
    let empty_file = scratch.board("empty.txt", &[".........."; 20]);
    let mut full_rows = vec![".........."; 19];
    full_rows.push("##########");
    let full_file = scratch.board("full.txt", &full_rows);
    let position = |fields: Value| {
        let mut body = json!({"strategy": "bfs+elashi@2", "board": empty, "current": "T"});
        for (field, value) in fields.as_object().unwrap() {
            body[field] = value.clone();
        }
        body.to_string()
    };
    let gamepad = |fields: Value| {
        let mut body = json!({"strategy": "gamepad+nes-plateau", "board": empty, "current": "T"});
        for (field, value) in fields.as_object().unwrap() {
            body[field] = value.clone();
        }
        body.to_string()
    };
    let timeline_help = "(a timeline is X, a frame on which an input may start, and dots or \
                         dashes, frames without one, repeated from a piece's first input frame: \
                         X. is 30 presses a second, X... 15, X....X...X... 3 every 13 frames; at \
                         most 32 frames, starting with X, with 2 to 8 frames from each X to the \
                         next, read cyclically)";
    let adjacent = "two X are adjacent (read cyclically, as the pattern repeats): a button must \
                    be released for a frame before it counts as pressed again";
    let analyze = |args: &[&str]| {
        let mut all = args.to_vec();
        all.extend(["--board", &empty_file]);
        cli_error("analyze", &all)
    };
    // (endpoint, body, the message): the CLI's own where it has the same mistake, its values
    // named as the body names them.
    let gravity = |message| {
        in_body_words(
            message,
            "--level, --tap-rate, --timeline, --inputs and --entry-delay",
            "level, tap_rate, timeline, inputs and entry_delay",
        )
    };
    let cases: Vec<(&str, String, String)> = vec![
        (
            "/v1/analyze",
            position(json!({"strategy": "nosuch+elashi"})),
            analyze(&["nosuch+elashi", "--pieces", "T"]),
        ),
        (
            "/v1/analyze",
            position(json!({"strategy": "bfs+nosuch"})),
            analyze(&["bfs+nosuch", "--pieces", "T"]),
        ),
        (
            "/v1/analyze",
            position(json!({"preview": ["I", "O"]})),
            analyze(&["bfs+elashi@2", "--pieces", "T,I,O"]),
        ),
        (
            "/v1/analyze",
            position(json!({"level": 19})),
            gravity(analyze(&["bfs+elashi@2", "--pieces", "T", "--level", "19"])),
        ),
        (
            "/v1/analyze",
            position(json!({"timeline": "X.."})),
            gravity(analyze(&[
                "bfs+elashi@2",
                "--pieces",
                "T",
                "--tap-rate",
                "3",
            ])),
        ),
        (
            "/v1/analyze",
            position(json!({"entry_delay": true})),
            gravity(analyze(&["bfs+elashi@2", "--pieces", "T", "--entry-delay"])),
        ),
        (
            "/v1/analyze",
            gamepad(json!({"tap_rate": 9})),
            in_body_words(
                analyze(&["gamepad+nes-plateau", "--pieces", "T", "--tap-rate", "9"]),
                "--tap-rate 9",
                "tap_rate 9",
            ),
        ),
        (
            "/v1/analyze",
            gamepad(json!({"tap_rate": 1})),
            in_body_words(
                analyze(&["gamepad+nes-plateau", "--pieces", "T", "--tap-rate", "1"]),
                "--tap-rate 1",
                "tap_rate 1",
            ),
        ),
        (
            "/v1/analyze",
            gamepad(json!({"inputs": "one-thumb"})),
            in_body_words(
                analyze(&[
                    "gamepad+nes-plateau",
                    "--pieces",
                    "T",
                    "--inputs",
                    "one-thumb",
                ]),
                "--inputs:",
                "inputs:",
            ),
        ),
        (
            "/v1/analyze",
            position(json!({"game_over": "sometimes"})),
            in_body_words(
                analyze(&["bfs+elashi", "--pieces", "T", "--game-over", "sometimes"]),
                "--game-over:",
                "game_over:",
            ),
        ),
        (
            "/v1/analyze",
            position(json!({"board_height": 3})),
            in_body_words(
                analyze(&["bfs+elashi", "--pieces", "T", "--board-height", "3"]),
                "--board-height 3",
                "board_height 3",
            ),
        ),
        (
            "/v1/analyze",
            position(json!({"board": cells(&full_rows)})),
            cli_error(
                "analyze",
                &["bfs+elashi", "--pieces", "T", "--board", &full_file],
            )
            .replace(&format!("board file {full_file}"), "board"),
        ),
        (
            "/v1/analyze",
            gamepad(json!({"level": 300})),
            in_body_words(
                analyze(&["gamepad+nes-plateau", "--pieces", "T", "--level", "300"]),
                "--level 300",
                "level 300",
            ),
        ),
        (
            "/v1/analyze",
            gamepad(json!({"tap_rate": 2, "timeline": "X."})),
            "give tap_rate or timeline, not both".into(),
        ),
        (
            "/v1/analyze",
            gamepad(json!({"timeline": "X..X"})),
            format!("timeline \"X..X\": {adjacent} {timeline_help}"),
        ),
        (
            "/v1/analyze",
            gamepad(json!({"timeline": "X........"})),
            format!(
                "timeline \"X........\": two X are more than 8 frames apart (read cyclically) \
                 {timeline_help}"
            ),
        ),
        (
            "/v1/analyze",
            gamepad(json!({"timeline": "X"})),
            format!("timeline \"X\": {adjacent} {timeline_help}"),
        ),
        (
            "/v1/analyze",
            position(json!({"board": ["..........", "##########"], "board_height": 4})),
            "board: board has 2 rows, expected 4 (board_height sets the field height)".into(),
        ),
        (
            "/v1/analyze",
            position(
                json!({"board": ["..........", "..........", "..........", "###x######"], "board_height": 4}),
            ),
            "board: board line 4, column 4: unexpected character 'x' (use '#' or '.')".into(),
        ),
        (
            "/v1/analyze",
            position(json!({"board": "0101"})),
            "board: 4 cells, expected 200 (10 × 20, top row first, 0 empty and 1 occupied)".into(),
        ),
        (
            "/v1/analyze",
            position(json!({"board": format!("2{}", "0".repeat(199))})),
            "board: cell 1 is '2': cells are 0 (empty) or 1 (occupied)".into(),
        ),
        (
            "/v1/analyze",
            position(json!({"strategy": "bfs+elashi:/etc/passwd"})),
            "strategy bfs+elashi:/etc/passwd: the server reads no files, and this strategy \
             reads the weights file /etc/passwd (name a built-in preset; `arena list` shows \
             them)"
                .into(),
        ),
        (
            "/v1/analyze",
            position(json!({"strategy": "bfs+elashi,pattern=p.txt"})),
            "strategy bfs+elashi,pattern=p.txt: the server reads no files, and this strategy \
             reads the pattern file p.txt (name a built-in preset; `arena list` shows them)"
                .into(),
        ),
        (
            "/v1/analyze",
            position(json!({"current": "Q"})),
            "current \"Q\" is not a piece: one letter of T J Z O S L I, upper case".into(),
        ),
        (
            "/v1/analyze",
            position(json!({"preview": ["x"]})),
            "preview \"x\" is not a piece: one letter of T J Z O S L I, upper case".into(),
        ),
        (
            "/v1/analyze",
            position(json!({"top": 0})),
            "top 0 is outside 1..=200".into(),
        ),
        (
            "/v1/analyze",
            position(json!({"top": 201})),
            "top 201 is outside 1..=200".into(),
        ),
        (
            "/v1/analyze",
            position(json!({"placement": {"x": 5, "y": 18, "rotation": 0}})),
            "placement is for /v1/rate: /v1/analyze ranks every placement".into(),
        ),
        (
            "/v1/analyze",
            r#"{"colour": "red"}"#.into(),
            "the body is not the JSON expected: unknown field `colour`, expected one of \
             `strategy`, `board`, `current`, `preview`, `board_height`, `game_over`, `level`, \
             `tap_rate`, `timeline`, `inputs`, `entry_delay`, `top`, `placement`, `states` at \
             line 1 column 9"
                .into(),
        ),
        (
            "/v1/analyze",
            r#"{"strategy": "bfs+elashi@2", "board": "0"}"#.into(),
            "the body is not the JSON expected: missing field `current` at line 1 column 42".into(),
        ),
        (
            "/v1/analyze",
            r#"{"strategy": 2}"#.into(),
            "the body is not the JSON expected: invalid type: integer `2`, expected a string at \
             line 1 column 14"
                .into(),
        ),
        (
            "/v1/analyze",
            r#"{"top": -1}"#.into(),
            "the body is not the JSON expected: invalid value: integer `-1`, expected u64 at \
             line 1 column 10"
                .into(),
        ),
        (
            "/v1/rate",
            r#"{"placement": {"x": 5, "y": 18}}"#.into(),
            "the body is not the JSON expected: missing field `rotation` at line 1 column 31"
                .into(),
        ),
        (
            "/v1/analyze",
            "{".into(),
            "the body is not the JSON expected: EOF while parsing an object at line 1 column 1"
                .into(),
        ),
        (
            "/v1/analyze",
            String::new(),
            "the body is not the JSON expected: EOF while parsing a value at line 1 column 0"
                .into(),
        ),
        (
            "/v1/rate",
            position(json!({})),
            "placement is missing: /v1/rate rates the player's placement {\"x\", \"y\", \
             \"rotation\"}"
                .into(),
        ),
        (
            "/v1/rate",
            position(json!({"placement": {"x": 5, "y": 19, "rotation": 0}})),
            "placement: T at x=5 y=19 rotation=0 does not fit the board (a cell is outside the \
             field or on an occupied cell)"
                .into(),
        ),
        (
            "/v1/rate",
            position(json!({"placement": {"x": 5, "y": 18, "rotation": 4}})),
            "placement: T has rotations 0 to 3, not 4".into(),
        ),
        (
            "/v1/play",
            json!({"strategy": "bfs+elashi@2"}).to_string(),
            "max_pieces missing: a served game plays 1 to 100000 pieces (max_pieces is \
             required)"
                .into(),
        ),
        (
            "/v1/play",
            json!({"strategy": "bfs+elashi@2", "max_pieces": 0}).to_string(),
            "max_pieces 0: a served game plays 1 to 100000 pieces (max_pieces is required)".into(),
        ),
        (
            "/v1/play",
            json!({"strategy": "bfs+elashi@2", "max_pieces": 100001}).to_string(),
            "max_pieces 100001: a served game plays 1 to 100000 pieces (max_pieces is \
             required)"
                .into(),
        ),
        (
            "/v1/play",
            json!({"strategy": "bfs+elashi@2", "max_pieces": 5, "generator": "file:x"}).to_string(),
            "generator file:x: the server reads no files (use a seeded generator)".into(),
        ),
        (
            "/v1/play",
            json!({"strategy": "bfs+elashi@2", "max_pieces": 5, "generator": "nosuch"}).to_string(),
            in_body_words(
                cli_error(
                    "play",
                    &["bfs+elashi", "--max-pieces", "5", "--generator", "nosuch"],
                ),
                "--generator:",
                "generator:",
            ),
        ),
        (
            "/v1/play",
            json!({"strategy": "bfs+elashi@2", "max_pieces": 5, "board_height": 40}).to_string(),
            in_body_words(
                cli_error(
                    "play",
                    &["bfs+elashi", "--max-pieces", "5", "--board-height", "40"],
                ),
                "--board-height 40",
                "board_height 40",
            ),
        ),
        (
            "/v1/play",
            json!({"strategy": "nosuch+elashi", "max_pieces": 5}).to_string(),
            cli_error("play", &["nosuch+elashi", "--max-pieces", "5"]),
        ),
        (
            "/v1/play",
            json!({"strategy": "bfs+elashi:w.json", "max_pieces": 5}).to_string(),
            "strategy bfs+elashi:w.json: the server reads no files, and this strategy reads the \
             weights file w.json (name a built-in preset; `arena list` shows them)"
                .into(),
        ),
    ];
    let mut distinct: Vec<&String> = cases.iter().map(|(_, body, _)| body).collect();
    distinct.sort();
    distinct.dedup();
    assert!(distinct.len() >= 30 && distinct.len() == cases.len());
    for (path, body, message) in &cases {
        let answer = server.post(path, body);
        assert_eq!(answer.status, 400, "{path} {body}: {}", answer.body);
        assert_eq!(answer.header("content-type"), Some("application/json"));
        assert!(!answer.body.contains('\n'), "one line: {}", answer.body);
        assert_eq!(&answer.error(), message, "{path} {body}");
        assert!(!names_an_option(message), "{message}");
    }
    // The server still answers, and logged each request.
    assert_eq!(server.get("/v1/health").status, 200);
    let log = server.log_with("POST /v1/play 400");
    assert!(log.contains("POST /v1/play 400"), "{log}");
}

#[test]
fn a_body_over_the_limit_answers_413() {
    let server = Server::start(&[
        "--workers",
        "1",
        "--max-body",
        "1024",
        "--timeout-ms",
        "600000",
    ]);
    // A position padded with spaces (still the same JSON) to exactly `size` bytes.
    let padded = |size: usize| {
        let body =
            json!({"strategy": "drop+bcts", "board": "0".repeat(200), "current": "T"}).to_string();
        format!("{body}{}", " ".repeat(size - body.len()))
    };
    let at_limit = server.post("/v1/analyze", &padded(1024));
    assert_eq!(at_limit.status, 200, "{}", at_limit.body);
    let message = "the body is larger than the server's limit of 1024 bytes (--max-body)";
    let over = server.post("/v1/analyze", &padded(1025));
    assert_eq!(over.status, 413);
    assert_eq!(over.error(), message);
    // Without a Content-Length (chunked), the limit holds while reading.
    let body = padded(1500);
    let (first, second) = body.split_at(700);
    let chunked = format!(
        "POST /v1/analyze HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n\
         Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n{:x}\r\n{first}\r\n{:x}\r\n\
         {second}\r\n0\r\n\r\n",
        first.len(),
        second.len()
    );
    let over = server.send_raw(chunked.as_bytes());
    assert_eq!(over.status, 413);
    assert_eq!(over.error(), message);
    // A declared length over the limit is refused at once, before the body: here the body
    // never comes, and the answer is 413, not the time limit's 503.
    let declared = server.send_raw(
        b"POST /v1/analyze HTTP/1.1\r\nHost: test\r\nContent-Length: 99999999999\r\n\
          Connection: close\r\n\r\n{",
    );
    assert_eq!(declared.status, 413);
    assert_eq!(declared.error(), message);
    let stackrabbit = server.send_raw(
        b"GET /get-move HTTP/1.1\r\nHost: test\r\nContent-Length: 5000\r\n\
          Connection: close\r\n\r\n",
    );
    assert_eq!(stackrabbit.status, 413);
    assert_eq!(stackrabbit.body, message);
    assert_eq!(server.post("/v1/analyze", &padded(600)).status, 200);
}

/// A game of `max_pieces` pieces of gamepad+nes-plateau@2 on a 32-row field: 700 are about a
/// second of work, 100,000 far longer than any test.
fn gamepad_play(max_pieces: u32) -> Vec<u8> {
    post_request(
        "/v1/play",
        &json!({"strategy": "gamepad+nes-plateau@2", "board_height": 32, "seed": 1,
                "max_pieces": max_pieces, "no_placements": true})
        .to_string(),
    )
}

/// A quick search request.
fn quick_search() -> Vec<u8> {
    post_request(
        "/v1/analyze",
        &json!({"strategy": "drop+bcts", "board": "0".repeat(200), "current": "T", "top": 1})
            .to_string(),
    )
}

/// Sends `request` until it answers 200 (at most 60 s), for a server whose worker is being
/// freed; the other answers must be 503 (busy, or over the time limit).
fn until_answered(server: &Server, request: &[u8]) -> Answer {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let answer = server.send_raw(request);
        if answer.status == 200 {
            return answer;
        }
        assert_eq!(answer.status, 503, "{}", answer.body);
        assert!(Instant::now() < deadline, "the worker was never freed");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_full_queue_answers_503_at_once() {
    // A time limit no machine reaches: the long game must be answered in full.
    let server = Server::start(&[
        "--workers",
        "1",
        "--max-queue",
        "0",
        "--timeout-ms",
        "600000",
    ]);
    let (mut long, busy) = server.occupy_the_worker(&gamepad_play(700), &quick_search());
    assert_eq!(busy.status, 503);
    assert_eq!(
        busy.error(),
        "the server is busy: 1 search running and 0 waiting (--workers, --max-queue); try \
         again"
    );
    // The request that held the worker is answered in full.
    let answer = read_answer(&mut long);
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert_eq!(answer.json()["pieces"], 700);
    // Afterwards the worker is free: a client that asks again as soon as it has its answer
    // is never refused, not even the first time.
    for _ in 0..50 {
        let answer = server.send_raw(&quick_search());
        assert_eq!(answer.status, 200, "{}", answer.body);
    }
    assert_eq!(server.get("/v1/health").status, 200);
}

#[test]
fn a_request_over_the_time_limit_answers_503_and_frees_its_worker() {
    let server = Server::start(&["--workers", "1", "--timeout-ms", "300"]);
    let answer = server.send_raw(&gamepad_play(100_000));
    assert_eq!(answer.status, 503);
    let message = "the request took longer than the server's time limit of 300 ms (--timeout-ms)";
    assert_eq!(answer.error(), message);
    // The game was cancelled: the only worker takes the next search (which would otherwise
    // wait behind 100,000 pieces and time out in turn).
    let next = until_answered(&server, &quick_search());
    assert_eq!(next.json()["placement_count"], 34);
    // A body that never comes in full counts against the limit too.
    let mut slow = server.connect();
    slow.write_all(
        b"POST /v1/analyze HTTP/1.1\r\nHost: test\r\nContent-Length: 1000\r\n\r\n{\"strategy\"",
    )
    .unwrap();
    let answer = read_answer(&mut slow);
    assert_eq!(answer.status, 503);
    assert_eq!(answer.error(), message);
    assert_eq!(server.get("/v1/health").status, 200);
}

#[test]
fn clients_that_go_away_free_their_worker() {
    // No time limit to speak of: only the client's going away can free the worker.
    let server = Server::start(&[
        "--workers",
        "1",
        "--max-queue",
        "0",
        "--timeout-ms",
        "600000",
    ]);
    // Half a body, then the connection closes.
    let mut cut = server.connect();
    cut.write_all(b"POST /v1/analyze HTTP/1.1\r\nHost: test\r\nContent-Length: 1000\r\n\r\n")
        .unwrap();
    cut.write_all(&[b' '; 500]).unwrap();
    drop(cut);
    assert_eq!(server.get("/v1/health").status, 200);
    assert_eq!(server.send_raw(&quick_search()).status, 200);
    // A client that goes away while its game runs: the game is cancelled.
    let (long, busy) = server.occupy_the_worker(&gamepad_play(100_000), &quick_search());
    assert_eq!(busy.status, 503);
    drop(long);
    let next = until_answered(&server, &quick_search());
    assert_eq!(next.json()["placement_count"], 34);
    assert_eq!(server.get("/v1/health").status, 200);
}

#[test]
fn sigterm_lets_the_request_in_flight_finish_and_exits_0() {
    let mut server = Server::start(&[
        "--workers",
        "1",
        "--max-queue",
        "0",
        "--timeout-ms",
        "600000",
    ]);
    let (mut long, _) = server.occupy_the_worker(&gamepad_play(700), &quick_search());
    server.terminate();
    let answer = read_answer(&mut long);
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert_eq!(answer.json()["pieces"], 700);
    let status = server.wait_for_exit();
    assert_eq!(status.code(), Some(0), "{}", server.log());
    let refused = TcpStream::connect(server.address).unwrap_err();
    assert_eq!(refused.kind(), std::io::ErrorKind::ConnectionRefused);
    // The thread that reads the log may not have read its last line when the process exits.
    let log = server.log_with("stopped: every request in flight was answered");
    assert!(
        log.contains("stopped: every request in flight was answered"),
        "{log}"
    );
}

#[test]
fn serve_option_errors_are_one_line_and_exit_2() {
    for (args, message) in [
        (
            &["--workers", "0"][..],
            "error: --workers 0 is outside 1..=256 (searches the server runs at once)",
        ),
        (
            &["--timeout-ms", "0"],
            "error: --timeout-ms 0 is outside 1..=600000",
        ),
        (
            &["--max-body", "10"],
            "error: --max-body 10 is outside 1024..=16777216",
        ),
        (
            &["--max-queue", "100001"],
            "error: --max-queue 100001 is outside 0..=100000",
        ),
        (
            &["--bind", "999.1.1.1:1"],
            "error: invalid value '999.1.1.1:1' for '--bind <ADDRESS>': invalid socket address \
             syntax",
        ),
        (
            &["--stackrabbit-strategy", "bfs+elashi@2"],
            "error: --stackrabbit-strategy bfs+elashi@2: StackRabbit's endpoints answer \
             frame-by-frame inputs, so the strategy's searcher must simulate them (gamepad+...)",
        ),
    ] {
        assert_eq!(common::fail("serve", args), message, "{args:?}");
    }
    // A port in use: the bind fails after the options are checked.
    let taken = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = taken.local_addr().unwrap().to_string();
    let message = common::fail("serve", &["--bind", &address]);
    assert!(
        message.starts_with(&format!("error: --bind {address}: ")),
        "{message}"
    );
}

/// The live page at `/` is `arena web`'s page (but for its footer, which names the command
/// that made it); an arena built without the page answers 404 with `arena web`'s message.
#[test]
fn the_root_serves_the_live_page_that_arena_web_writes() {
    let scratch = Scratch::new("web-page");
    let file = scratch.0.join("page.html");
    let written = common::run("web", &[file.to_str().unwrap()]);
    let server = Server::start(&["--workers", "1"]);
    let answer = server.get("/");
    if written.status.success() {
        assert_eq!(answer.status, 200);
        assert_eq!(
            answer.header("content-type"),
            Some("text/html; charset=utf-8")
        );
        let without_footer = |page: &str| {
            let start = page.find("<p class=\"made-by\">").expect("a footer");
            let end = start + page[start..].find("</p>").unwrap();
            format!("{}{}", &page[..start], &page[end..])
        };
        let page = fs::read_to_string(&file).unwrap();
        assert_eq!(without_footer(&answer.body), without_footer(&page));
    } else {
        assert_eq!(answer.status, 404);
        let message = String::from_utf8_lossy(&written.stderr);
        assert_eq!(
            format!("error: {}\n", answer.error()),
            message,
            "the same reason"
        );
    }
}

/// With `states: true`, each placement comes with the states its piece passes through on its
/// path: the spawn state, one more per input, and the placement itself last; each input moves
/// the piece by one column (L, R), one row (D) or one rotation (CW, CCW).
#[test]
fn analyze_gives_the_states_along_each_path_when_asked() {
    let server = Server::start(&["--workers", "1"]);
    let body = json!({"strategy": "bfs+elashi@2", "board": cells_with_bottom_gap(),
        "current": "L", "preview": ["I"], "top": 6, "states": true});
    let answer = server.post_json("/v1/analyze", &body).json();
    let placements = answer["placements"].as_array().unwrap();
    assert_eq!(placements.len(), 6);
    for placement in placements {
        let path: Vec<&str> = placement["path"]
            .as_array()
            .unwrap()
            .iter()
            .map(|input| input.as_str().unwrap())
            .collect();
        let flat: Vec<i64> = placement["states"]
            .as_array()
            .expect("states asked for")
            .iter()
            .map(|value| value.as_i64().unwrap())
            .collect();
        let states: Vec<&[i64]> = flat.chunks(3).collect();
        assert_eq!(states.len(), path.len() + 1, "{placement}");
        assert_eq!(
            states[0],
            [5, 0, 0],
            "the spawn state: pivot (5, 0), rotation 0"
        );
        let last = states[states.len() - 1];
        assert_eq!(
            last,
            [
                placement["x"].as_i64().unwrap(),
                placement["y"].as_i64().unwrap(),
                placement["rotation"].as_i64().unwrap()
            ]
        );
        for (input, pair) in path.iter().zip(states.windows(2)) {
            let (from, to) = (pair[0], pair[1]);
            let moved = [
                to[0] - from[0],
                to[1] - from[1],
                (to[2] - from[2]).rem_euclid(4),
            ];
            let expected = match *input {
                "L" => [-1, 0, 0],
                "R" => [1, 0, 0],
                "D" => [0, 1, 0],
                "CW" => [0, 0, 1],
                "CCW" => [0, 0, 3],
                other => panic!("a move, not {other}"),
            };
            assert_eq!(moved, expected, "{input} from {from:?}");
        }
    }
    // Without the option, no states (the answer is as before).
    let plain = server
        .post_json(
            "/v1/analyze",
            &json!({"strategy": "bfs+elashi@2",
        "board": cells_with_bottom_gap(), "current": "L"}),
        )
        .json();
    assert!(plain["placements"][0].get("states").is_none());
}
