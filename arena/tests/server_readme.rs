//! The README's Python client for `arena serve`, run as written against a live server: its
//! answers must be what `arena analyze` says about the same position.

mod common;

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
