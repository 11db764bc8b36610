//! `arena serve` against its own OpenAPI document. schemathesis (pinned in
//! `tests/server/requirements.txt`, installed in `target/server-venv` by
//! `scripts/install-server-test-deps.sh`) reads `/openapi.json` from a live server and sends a
//! few hundred generated requests, valid and invalid, to every operation; every answer must be
//! documented (status code and content type), conform to its schema, and none may be a 5xx.
//! The direct tests below pin what the document says about the values the server takes, and
//! that the document's own examples are answered, so a regression shows without schemathesis.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::server::Server;
use serde_json::{Value, json};

/// The checks: no 5xx, answers conform to their schema, status codes and content types are
/// the documented ones.
const CHECKS: &str = "not_a_server_error,response_schema_conformance,status_code_conformance,\
                      content_type_conformance";

/// Generated cases per operation and phase (nine operations: a few hundred cases in all).
const MAX_EXAMPLES: &str = "25";

/// The schema test's own virtual environment, `target/server-venv`.
fn server_venv() -> PathBuf {
    // CARGO_TARGET_TMPDIR is `<target>/tmp`.
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap()
        .join("server-venv")
}

/// schemathesis's `st`, if the install script put the pinned version in the environment
/// (its stamp file holds the requirements it installed); otherwise why not.
fn schemathesis() -> Result<PathBuf, String> {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let wanted = std::fs::read_to_string(workspace.join("tests/server/requirements.txt")).unwrap();
    let venv = server_venv();
    let st = venv.join("bin/st");
    let installed = std::fs::read_to_string(venv.join("installed-requirements.txt")).ok();
    match st.exists() && installed.as_deref() == Some(wanted.as_str()) {
        true => Ok(st),
        false => Err(format!(
            "{} lacks the pinned schemathesis of tests/server/requirements.txt \
             (scripts/install-server-test-deps.sh installs it)",
            venv.display()
        )),
    }
}

/// schemathesis against a live server (two workers, a time limit no generated request
/// reaches), seeded, one request at a time; everything it writes (hypothesis's folder, its
/// own) goes to a folder under `target/`. Also checks that the run reached the searches: each
/// POST operation answered 200 to some generated requests, so the answers' schemas were
/// really checked.
#[test]
fn schemathesis_finds_no_server_error_and_no_undocumented_answer() {
    let st = match schemathesis() {
        Ok(st) => st,
        Err(reason) => {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "CI=true, but the schema test cannot run: {reason}"
            );
            eprintln!(
                "SKIPPED schemathesis_finds_no_server_error_and_no_undocumented_answer: {reason}"
            );
            return;
        }
    };
    let server = Server::start(&["--workers", "2", "--timeout-ms", "60000"]);
    let folder = Path::new(env!("CARGO_TARGET_TMPDIR")).join("server-schema");
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).unwrap();
    let output = Command::new(&st)
        .current_dir(&folder)
        .env("HYPOTHESIS_STORAGE_DIRECTORY", folder.join(".hypothesis"))
        .args(["run", &format!("http://{}/openapi.json", server.address)])
        .args(["--checks", CHECKS, "--max-examples", MAX_EXAMPLES])
        .args(["--seed", "1", "--workers", "1", "--request-timeout", "60"])
        .args(["--generation-database", "none", "--no-color"])
        .output()
        .expect("schemathesis runs");
    // The harness keeps the server's log (a line per request).
    let log = server.log();
    drop(server);
    let stdout = String::from_utf8_lossy(&output.stdout);
    println!("{stdout}");
    assert!(
        output.status.success(),
        "schemathesis failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    for operation in [
        "POST /v1/analyze 200",
        "POST /v1/rate 200",
        "POST /v1/play 200",
        "GET /get-move 200",
        "GET /engine-movelist 200",
        "GET /rate-move 200",
        "GET /eval 200",
    ] {
        assert!(
            log.lines().any(|line| line.contains(operation)),
            "no {operation} in the server's log"
        );
    }
    std::fs::remove_dir_all(&folder).unwrap();
}

/// A schema of the document, by name.
fn component<'a>(document: &'a Value, name: &str) -> &'a Value {
    &document["components"]["schemas"][name]
}

#[test]
fn the_document_names_the_values_the_server_takes() {
    let server = Server::start(&["--workers", "1"]);
    let document = server.get("/openapi.json").json();
    let position = &component(&document, "PositionBody")["properties"];
    let pieces = json!(["T", "J", "Z", "O", "S", "L", "I"]);
    assert_eq!(position["current"]["enum"], pieces);
    assert_eq!(position["preview"]["items"]["enum"], pieces);
    // A position's decision may be the console's (gravity-aware searchers only); a game of
    // /v1/play has no frames, so not there.
    assert_eq!(
        position["game_over"]["enum"],
        json!(["simulation", "literature", "console", null])
    );
    let frameless = json!(["simulation", "literature", null]);
    assert_eq!(
        position["inputs"]["enum"],
        json!(["two-thumb", "article", null])
    );
    for (field, minimum, maximum) in [
        ("board_height", 4, 32),
        ("tap_rate", 2, 8),
        ("top", 1, 200),
        ("level", 0, 255),
    ] {
        assert_eq!(position[field]["minimum"], minimum, "{field}");
        assert_eq!(position[field]["maximum"], maximum, "{field}");
    }
    let boards = position["board"]["oneOf"].as_array().unwrap();
    assert_eq!(boards[0]["items"]["pattern"], "^[#.]{10}$");
    assert_eq!(boards[1]["pattern"], "^[01]{40,320}$");

    let play = component(&document, "PlayBody");
    assert_eq!(play["properties"]["game_over"]["enum"], frameless);
    for (strategy, status) in [("bfs+elashi@2", 400), ("gamepad+nes-plateau@2", 200)] {
        let console = server.post_json(
            "/v1/analyze",
            &json!({"strategy": strategy, "board": "0".repeat(200), "current": "T", "game_over": "console"}),
        );
        assert_eq!(console.status, status, "{}", console.body);
    }
    let console = server.post_json(
        "/v1/play",
        &json!({"strategy": "column-drop+dellacherie", "max_pieces": 10, "game_over": "console"}),
    );
    assert_eq!(console.status, 400, "{}", console.body);
    // max_pieces is required: a body without it is refused.
    assert!(
        play["required"]
            .as_array()
            .unwrap()
            .contains(&json!("max_pieces")),
        "{play}"
    );
    let uncapped = server.post_json("/v1/play", &json!({"strategy": "column-drop+dellacherie"}));
    assert_eq!(uncapped.status, 400, "{}", uncapped.body);
    assert_eq!(play["properties"]["max_pieces"]["type"], "integer");
}

/// The document's examples are answered, as `arena analyze` answers the same position.
#[test]
fn the_documents_examples_are_answered() {
    let server = Server::start(&["--workers", "1"]);
    let document = server.get("/openapi.json").json();
    let analyze = component(&document, "PositionBody")["example"].clone();
    let rate = document["paths"]["/v1/rate"]["post"]["requestBody"]["content"]["application/json"]
        ["example"]
        .clone();
    let play = component(&document, "PlayBody")["example"].clone();

    // The command line's ranking of the same position.
    let folder = common::scratch_folder("serve", "schema-examples");
    let board = folder.join("board.txt");
    let rows: Vec<&str> = analyze["board"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row.as_str().unwrap())
        .collect();
    std::fs::write(&board, rows.join("\n")).unwrap();
    let all = common::run_json(
        "analyze",
        &[
            "bfs+elashi@2",
            "--board",
            board.to_str().unwrap(),
            "--pieces",
            "T,L",
            "--all",
        ],
    );
    std::fs::remove_dir_all(&folder).unwrap();
    let placements = all["placements"].as_array().unwrap();
    // `--all` lists every placement with its value (lower is better), in no ranked order.
    let mut by_value: Vec<&Value> = placements.iter().collect();
    by_value.sort_by(|a, b| {
        a["value"]
            .as_f64()
            .unwrap()
            .total_cmp(&b["value"].as_f64().unwrap())
    });
    assert!(
        by_value[1]["value"] != by_value[2]["value"]
            && by_value[2]["value"] != by_value[3]["value"]
    );
    let (best, third) = (by_value[0], by_value[2]);
    let at = |p: &Value| (p["x"].clone(), p["y"].clone(), p["rotation"].clone());

    let answer = server.post_json("/v1/analyze", &analyze);
    assert_eq!(answer.status, 200, "{}", answer.body);
    let answer = answer.json();
    assert_eq!(answer["placement_count"], placements.len());
    assert_eq!(at(&answer["placements"][0]), at(best));
    assert_eq!(answer["placements"][0]["value"], best["value"]);

    // The rated placement is the third best.
    assert_eq!(at(&rate["placement"]), at(third));
    let answer = server.post_json("/v1/rate", &rate);
    assert_eq!(answer.status, 200, "{}", answer.body);
    let answer = answer.json();
    assert_eq!(answer["reachable"], true);
    assert_eq!(answer["rank"], 3);
    assert_eq!(answer["value"], third["value"]);
    assert_eq!(answer["best_value"], best["value"]);

    let answer = server.post_json("/v1/play", &play);
    assert_eq!(answer.status, 200, "{}", answer.body);
    let played = common::run_json(
        "play",
        &[
            "column-drop+dellacherie",
            "--seed",
            "1",
            "--max-pieces",
            "100",
        ],
    );
    let answer = answer.json();
    for key in ["pieces", "lines", "score", "placements"] {
        assert_eq!(answer[key], played[key], "{key}");
    }
}

/// A board that is neither rows nor cells is refused with a message that says what a board
/// is, not the name of the server's Rust type.
#[test]
fn a_board_of_neither_form_is_refused_with_what_a_board_is() {
    let server = Server::start(&["--workers", "1"]);
    for board in [json!(5), json!(null), json!(["..........", 3])] {
        let answer = server.post_json(
            "/v1/analyze",
            &json!({"strategy": "bfs+elashi@2", "board": board, "current": "T"}),
        );
        assert_eq!(answer.status, 400, "{}", answer.body);
        let error = answer.error();
        assert!(
            error.starts_with(
                "the body is not the JSON expected: board: a list of rows of 10 `#`/`.` \
                 characters, or one string of `0`/`1` cells at line 1 column "
            ),
            "{error}"
        );
    }
}
