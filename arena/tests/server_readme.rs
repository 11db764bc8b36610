//! The README's Python client for `arena serve`, run as written against a live server: its
//! answers must be what `arena analyze` says about the same position.

use crate::common;

use std::process::Command;

use common::server::Server;

/// The README's Python client: the first ```python block after `## The move server`.
fn readme_client() -> String {
    let readme = include_str!("../../README.md");
    let section = &readme[readme
        .find("## The move server")
        .expect("the README has the move server's section")..];
    let start = section.find("```python\n").expect("a Python block") + "```python\n".len();
    let end = start + section[start..].find("```").expect("the block ends");
    section[start..end].to_string()
}

#[test]
fn the_readme_python_client_prints_what_arena_analyze_says() {
    let folder = common::scratch_folder("serve", "readme-client");
    let board = folder.join("board.txt");
    let mut rows = vec![".........."; 19];
    rows.push("#########.");
    std::fs::write(&board, rows.join("\n")).unwrap();
    let board = board.to_str().unwrap();
    let best = common::run_json(
        "analyze",
        &["bfs+elashi@2", "--board", board, "--pieces", "T,I"],
    );
    let all = common::run_json(
        "analyze",
        &["bfs+elashi@2", "--board", board, "--pieces", "T,I", "--all"],
    );
    let best = &best["best"];
    let placements = all["placements"].as_array().unwrap();
    // The client rates the T at x 1, y 17, rotation 0.
    let rated = placements
        .iter()
        .find(|p| p["x"] == 1 && p["y"] == 17 && p["rotation"] == 0)
        .expect("the README's placement is one bfs reaches");
    let value = |p: &serde_json::Value| p["value"].as_f64().unwrap();
    let better = placements
        .iter()
        .filter(|p| p["value"].as_f64().is_some_and(|v| v < value(rated)))
        .count();

    let server = Server::start(&["--workers", "1"]);
    let output = Command::new("python3")
        .arg("-c")
        .arg(readme_client())
        .env("ARENA_SERVER", format!("http://{}", server.address))
        .output()
        .expect("python3 runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let printed = String::from_utf8(output.stdout).unwrap();
    // Python prints floats with repr, the shortest text that round-trips, as serde_json does.
    let expected = format!(
        "best: {} x {} y {} rotation {} cost {}\nyour T costs {} more: rank {} of {}\n",
        best["piece"].as_str().unwrap(),
        best["x"],
        best["y"],
        best["rotation"],
        best["value"],
        serde_json::Value::from(value(rated) - value(best)),
        better + 1,
        placements.len()
    );
    assert_eq!(printed, expected);
    std::fs::remove_dir_all(&folder).unwrap();
}

/// The README's curl lines: the first ```sh block after `## The move server` that calls curl.
fn readme_curl_lines() -> String {
    let readme = include_str!("../../README.md");
    let section = &readme[readme.find("## The move server").unwrap()..];
    let mut rest = section;
    loop {
        let start = rest.find("```sh\n").expect("a curl block") + "```sh\n".len();
        let end = start + rest[start..].find("```").expect("the block ends");
        if rest[start..end].contains("curl ") {
            return rest[start..end].to_string();
        }
        rest = &rest[end + 3..];
    }
}

#[test]
fn every_readme_curl_line_is_answered_200() {
    // curl is not among the project's requirements: without it this check has nothing to run.
    if std::process::Command::new("curl")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("skipped: no curl on this machine");
        return;
    }
    let server = Server::start(&["--workers", "1"]);
    let lines = readme_curl_lines().replace("localhost:3000", &server.address.to_string());
    let calls = lines.matches("curl ").count();
    let output = Command::new("bash")
        .args(["-e", "-c", &lines])
        .output()
        .expect("bash runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // One log line per request: every call of the block answered 200.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let answered = loop {
        let log = server.log();
        let answered: Vec<String> = log
            .lines()
            .filter(|line| line.contains(" GET /") || line.contains(" POST /"))
            .map(str::to_string)
            .collect();
        if answered.len() >= calls || std::time::Instant::now() > deadline {
            break answered;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert_eq!(answered.len(), calls, "{answered:#?}");
    for line in &answered {
        assert!(line.contains(" 200 "), "{line}");
    }
    let endpoints: std::collections::BTreeSet<&str> = answered
        .iter()
        .filter_map(|line| line.split_whitespace().find(|word| word.starts_with('/')))
        .collect();
    for endpoint in [
        "/v1/analyze",
        "/v1/rate",
        "/v1/play",
        "/v1/strategies",
        "/v1/health",
        "/openapi.json",
        "/get-move",
        "/engine-movelist",
        "/engine-movelist-cpp",
        "/rate-move",
        "/eval",
        "/ping",
        "/version",
    ] {
        assert!(endpoints.contains(endpoint), "the README calls {endpoint}");
    }
}
