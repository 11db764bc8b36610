//! The HTML pages: `arena replay --html`, `arena play --html [--features]`, `arena
//! tournament --html` and `arena nes --html` write one self-contained file each; a broken or tampered replay gets an
//! `error:` line and no page; and the pages work in headless Chromium
//! (`the_pages_work_in_headless_chromium` runs `tests/browser/test_pages.py`).

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};

use common::{fail, scratch_folder, succeed};
use serde_json::Value;

fn text(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// The viewer data embedded in a replay page.
fn page_data(page: &str) -> Value {
    let start_tag = "<script type=\"application/json\" id=\"replay-data\">";
    let start = page.find(start_tag).expect("the page embeds its data") + start_tag.len();
    let end = start + page[start..].find("</script>").unwrap();
    serde_json::from_str(&page[start..end]).expect("the embedded data is JSON")
}

/// The states of placement `placement` as (x, y, rotation) triples.
fn states(placement: &Value) -> Vec<(i64, i64, i64)> {
    let flat: Vec<i64> = placement["states"]
        .as_array()
        .unwrap()
        .iter()
        .map(|value| value.as_i64().unwrap())
        .collect();
    assert_eq!(flat.len() % 3, 0);
    flat.chunks(3).map(|s| (s[0], s[1], s[2])).collect()
}

/// A page that can load nothing from anywhere: no URL in it but the SVG namespace, and a
/// policy that forbids every other source.
/// `page` without the line at its foot that names the command which made it.
fn without_made_by_line(page: &str) -> String {
    let start = page
        .find("<p class=\"made-by\">")
        .expect("the page says what made it");
    let end = start + page[start..].find("</p>").unwrap() + "</p>".len();
    format!("{}{}", &page[..start], &page[end..])
}

fn assert_self_contained(page: &str) {
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert!(page.contains("Content-Security-Policy\" content=\"default-src 'none';"));
    let without_namespace = page.replace("xmlns=\"http://www.w3.org/2000/svg\"", "");
    for forbidden in ["http:", "https:", " src=", "<link", "@import", "url("] {
        assert!(
            !without_namespace.contains(forbidden),
            "the page holds {forbidden:?}"
        );
    }
}

#[test]
fn play_and_replay_write_the_same_self_contained_viewer() {
    let folder = scratch_folder("html", "viewer");
    let (replay, played, replayed) = (
        folder.join("game.json"),
        folder.join("played.html"),
        folder.join("replayed.html"),
    );
    succeed(
        "play",
        &[
            "bfs+elashi",
            "--seed",
            "3",
            "--max-pieces",
            "60",
            "--board-height",
            "12",
            "--features",
            "--record",
            text(&replay),
            "--html",
            text(&played),
        ],
    );
    let report = succeed("replay", &[text(&replay), "--html", text(&replayed)]);
    assert!(
        report.contains("checked    60 placements are legal"),
        "{report}"
    );
    let page = fs::read_to_string(&played).unwrap();
    // The same page, but for the command named at its foot.
    assert_eq!(
        without_made_by_line(&page),
        without_made_by_line(&fs::read_to_string(&replayed).unwrap())
    );
    assert_self_contained(&page);
    assert!(page.contains("<title>Replay of bfs+elashi</title>"));

    let recorded: Value = serde_json::from_str(&fs::read_to_string(&replay).unwrap()).unwrap();
    let data = page_data(&page);
    let placements = data["placements"].as_array().unwrap();
    assert_eq!(placements.len(), 60);
    assert_eq!(data["rules"]["board_height"], 12);
    assert_eq!(data["rules"]["frame_timing"], Value::Null);
    for (shown, recorded) in placements
        .iter()
        .zip(recorded["placements"].as_array().unwrap())
    {
        let path: Vec<&str> = recorded["path"].as_str().unwrap().split(' ').collect();
        let states = states(shown);
        // A path of moves starts at the spawn, pivot (5, 0) in rotation 0, and each move
        // adds one state; the last is the recorded lock state.
        assert_eq!(states.len(), path.len() + 1);
        assert_eq!(states[0], (5, 0, 0));
        let lock = (
            recorded["x"].as_i64().unwrap(),
            recorded["y"].as_i64().unwrap(),
            recorded["rotation"].as_i64().unwrap(),
        );
        assert_eq!(*states.last().unwrap(), lock);
        assert_eq!(shown["evaluation"], recorded["evaluation"]);
        assert_eq!(shown["path"], recorded["path"]);
    }
    // El-Ashi's six features, in its order, with the features recorded.
    let features: Vec<&String> = placements[0]["evaluation"]["features"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert_eq!(features.len(), 6);
    let last = placements.last().unwrap();
    assert_eq!(last["lines"], recorded["result"]["lines"]);
    assert_eq!(last["score"], recorded["result"]["score"]);
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn a_gamepad_page_has_one_state_per_frame() {
    let folder = scratch_folder("html", "gamepad");
    let page_file = folder.join("pad.html");
    succeed(
        "play",
        &[
            "gamepad+nes-plateau",
            "--seed",
            "5",
            "--max-pieces",
            "12",
            "--html",
            text(&page_file),
        ],
    );
    let data = page_data(&fs::read_to_string(&page_file).unwrap());
    // The gamepad's default timing: level 19 (2 frames per row), 30 Hz (a press every 2),
    // two thumbs.
    assert_eq!(
        data["rules"]["frame_timing"],
        serde_json::json!({"frames_per_row": 2, "tap_rate": 2, "inputs": "two-thumb"})
    );
    for placement in data["placements"].as_array().unwrap() {
        let frames: Vec<&str> = placement["path"].as_str().unwrap().split(' ').collect();
        assert!(frames.iter().all(|frame| frame.starts_with('F')));
        let states = states(placement);
        assert_eq!(
            states.len(),
            frames.len() + 1,
            "the spawn, then one per frame"
        );
        assert_eq!(states[0], (5, 0, 0));
        // Gravity: no frame moves the piece more than one row.
        assert!(
            states
                .windows(2)
                .all(|w| (0..=1).contains(&(w[1].1 - w[0].1)))
        );
        assert!(placement.get("evaluation").is_none(), "not asked for");
    }
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn a_gamepad_page_shows_the_level_of_its_gravity_and_the_score_from_it() {
    // The gamepad plays at 2 frames per row, the gravity of levels 19 to 28: its page shows
    // level 19 until 140 lines (docs/spec/rules.md), the level its score counts from.
    let folder = scratch_folder("html", "gamepad-level");
    let replay = folder.join("pad.json");
    let page_file = folder.join("pad.html");
    succeed(
        "play",
        &[
            "gamepad+nes-plateau",
            "--seed",
            "5",
            "--max-pieces",
            "30",
            "--record",
            text(&replay),
        ],
    );
    succeed("replay", &[text(&replay), "--html", text(&page_file)]);
    let data = page_data(&fs::read_to_string(&page_file).unwrap());
    assert_eq!(data["rules"]["start_level"], 19);
    assert_eq!(data["rules"]["last_level"], 28);
    let placements = data["placements"].as_array().unwrap();
    assert_eq!(placements.len(), 30);
    assert!(placements.last().unwrap()["lines"].as_u64().unwrap() < 140);
    let mut level_0 = 0;
    for placement in placements {
        assert_eq!(placement["level"], 19);
        // Each clear is worth (19 + 1) times its level-0 points: 40, 100, 300, 1200.
        level_0 += [0, 40, 100, 300, 1200][placement["cleared"].as_u64().unwrap() as usize];
        assert_eq!(placement["score"], 20 * level_0);
    }
    assert!(level_0 > 0, "the game clears rows");
    // A game without gravity starts at level 0, its score's level.
    let page_file = folder.join("bfs.html");
    succeed(
        "play",
        &[
            "bfs+elashi",
            "--seed",
            "5",
            "--max-pieces",
            "30",
            "--html",
            text(&page_file),
        ],
    );
    let data = page_data(&fs::read_to_string(&page_file).unwrap());
    assert_eq!(data["rules"]["start_level"], 0);
    assert_eq!(data["rules"]["last_level"], Value::Null);
    assert_eq!(data["placements"][0]["level"], 0);
    fs::remove_dir_all(&folder).unwrap();
}

/// Records a 40-piece BFS game with features in `folder`; the replay's path and JSON.
fn recorded_game(folder: &Path) -> (PathBuf, Value) {
    let replay = folder.join("game.json");
    succeed(
        "play",
        &[
            "bfs+elashi",
            "--seed",
            "4",
            "--max-pieces",
            "40",
            "--features",
            "--record",
            text(&replay),
        ],
    );
    let json = serde_json::from_str(&fs::read_to_string(&replay).unwrap()).unwrap();
    (replay, json)
}

#[test]
fn a_broken_or_tampered_replay_gives_an_error_and_no_page() {
    let folder = scratch_folder("html", "tampered");
    let (replay, json) = recorded_game(&folder);
    let page = folder.join("page.html");
    let attempt = |name: &str, change: &dyn Fn(&mut Value), extra: &[&str]| -> String {
        let mut changed = json.clone();
        change(&mut changed);
        let file = folder.join(name);
        fs::write(&file, serde_json::to_string(&changed).unwrap()).unwrap();
        let mut args = vec![text(&file), "--html", text(&page)];
        args.extend_from_slice(extra);
        let line = fail("replay", &args);
        assert!(!page.exists(), "{name}: a page was written");
        line
    };
    let line = attempt(
        "moved.json",
        &|replay| replay["placements"][2]["x"] = Value::from(0),
        &[],
    );
    assert!(line.contains("placement 3:"), "{line}");
    let line = attempt(
        "score.json",
        &|replay| replay["result"]["score"] = Value::from(1),
        &[],
    );
    assert!(line.contains("result: score 1 recorded"), "{line}");
    // A changed feature is only caught by re-deciding: the strategy evaluates again.
    let line = attempt(
        "features.json",
        &|replay| replay["placements"][5]["evaluation"]["features"]["holes"] = Value::from(99.0),
        &["--redecide"],
    );
    assert!(
        line.contains("placement 6: strategy bfs+elashi evaluates the placement differently"),
        "{line}"
    );
    fs::write(
        folder.join("broken.json"),
        "{\"format\": \"tetris-arena-replay\", ",
    )
    .unwrap();
    let line = fail(
        "replay",
        &[text(&folder.join("broken.json")), "--html", text(&page)],
    );
    assert!(line.contains("not valid JSON"), "{line}");
    assert!(!page.exists());
    // The untouched replay verifies with --redecide (features included) and gets its page.
    succeed(
        "replay",
        &[text(&replay), "--redecide", "--html", text(&page)],
    );
    assert!(page.exists());
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn html_options_are_checked_before_any_game() {
    let folder = scratch_folder("html", "options");
    let missing = folder.join("no-such-folder/page.html");
    let line = fail("play", &["bfs+elashi", "--max-pieces", "5", "--features"]);
    assert!(
        line.contains("--features needs --record or --html"),
        "{line}"
    );
    // A page in a folder that is not there: I/O (exit code 3), before any game.
    let line = common::fail_with(
        common::IO,
        "play",
        &["bfs+elashi", "--max-pieces", "5", "--html", text(&missing)],
    );
    assert!(line.contains("folder does not exist"), "{line}");
    let (replay, _) = recorded_game(&folder);
    let line = common::fail_with(
        common::IO,
        "replay",
        &[text(&replay), "--html", text(&missing)],
    );
    assert!(line.contains("folder does not exist"), "{line}");
    let line = fail(
        "tournament",
        &[
            "bfs+elashi",
            "--games",
            "2",
            "--seed",
            "1",
            "--shard",
            "0/2",
            "--out",
            text(&folder.join("part.json")),
            "--html",
            text(&folder.join("t.html")),
        ],
    );
    assert!(line.contains("--html needs the whole run"), "{line}");
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn the_tournament_page_holds_its_tables_and_every_plot_inline() {
    let folder = scratch_folder("html", "tournament");
    let page_file = folder.join("report.html");
    let args = [
        "bfs+elashi",
        "column-drop+elashi",
        "--games",
        "6",
        "--seed",
        "1",
        "--board-height",
        "8",
        "--max-pieces",
        "200",
    ];
    let plain = succeed("tournament", &args);
    let mut with_page = args.to_vec();
    with_page.extend(["--html", text(&page_file)]);
    let printed = succeed("tournament", &with_page);
    // The same games: the same settings lines and pairwise matrix (the summary's last
    // column and the wall time are timings).
    let same_parts = |text: &str| -> String {
        let pairwise = &text[text.find("Pairwise:").unwrap()..];
        let settings: Vec<&str> = text.lines().take(5).collect();
        format!("{}\n{pairwise}", settings.join("\n"))
    };
    assert_eq!(same_parts(&printed), same_parts(&plain));
    let page = fs::read_to_string(&page_file).unwrap();
    assert_self_contained(&page);
    assert!(!page.contains("<script"), "the report needs no script");
    // The lines-per-game chart and, per strategy, the four `--plots` plots: the column
    // histograms too, as `stats` draws them.
    assert_eq!(page.matches("<svg").count(), 1 + 4 * 2);
    assert_eq!(
        page.matches("Share of each piece type&#39;s pieces by pivot column")
            .count(),
        2
    );
    assert_eq!(
        page.matches(
            "Share of each piece type&apos;s pieces by the column of the lock state&apos;s pivot"
        )
        .count(),
        2
    );
    assert!(page.contains("<table class=\"data matrix\" id=\"pairwise\">"));
    // The settings as printed, escaped.
    assert!(page.contains("<th>Seeds</th><td>game k (0-based) uses seed 1 + k"));
    // Six sequences: each cell's wins and losses add up to at most 6.
    for cell in page.split("data-wins=\"").skip(1) {
        let wins: u64 = cell[..cell.find('"').unwrap()].parse().unwrap();
        let rest = &cell[cell.find("data-losses=\"").unwrap() + 13..];
        let losses: u64 = rest[..rest.find('"').unwrap()].parse().unwrap();
        assert!(wins + losses <= 6);
    }
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn the_nes_page_holds_the_text_reports_figures() {
    let folder = scratch_folder("html", "nes");
    let page_file = folder.join("nes.html");
    let args = [
        "column-drop+nes-plateau@2",
        "--games",
        "3",
        "--seed",
        "1",
        "--start-level",
        "18",
        "--to-level",
        "20",
    ];
    let plain = succeed("nes", &args);
    let mut with_page = args.to_vec();
    with_page.extend(["--html", text(&page_file)]);
    let printed = succeed("nes", &with_page);
    // The same report but for the wall time.
    let without_wall = |text: &str| text[..text.find("Wall time").unwrap()].to_string();
    assert_eq!(without_wall(&printed), without_wall(&plain));
    let page = fs::read_to_string(&page_file).unwrap();
    assert_self_contained(&page);
    assert!(!page.contains("<script"), "the report needs no script");
    // Every figure of the text's two tables is a row of the page's.
    let figures = &plain[plain.find("\n\n").unwrap()..plain.find("Wall time").unwrap()];
    for line in figures.lines().filter(|line| line.contains("  ")) {
        let mut cells = line
            .split("  ")
            .map(str::trim)
            .filter(|cell| !cell.is_empty());
        let name = cells.next().unwrap();
        if name == "score (capped)" {
            continue;
        }
        for value in cells {
            assert!(
                page.contains(&format!(">{value}</td>")),
                "the page lacks {name}: {value}"
            );
        }
    }
    assert!(page.contains("<th>Seeds</th><td>game k (0-based) uses seed 1 + k"));
    // One row per game in the games table, which follows the figures.
    let games = &page[page.find("<h2>Games</h2>").unwrap()..];
    assert_eq!(games.matches("<tr>").count(), 1 + 3);
    fs::remove_dir_all(&folder).unwrap();
}

/// The end-to-end test in a real browser: `tests/browser/test_pages.py` (see its
/// documentation) opens the viewer of a BFS and of a gamepad replay and a tournament report
/// in headless Chromium and compares what they show with the arena's own boards and results.
///
/// Debian's Chromium and the Playwright driver are set up as [`common::browser`] says: without
/// either the test is skipped with a message, except under `CI=true`, where it fails.
#[test]
fn the_pages_work_in_headless_chromium() {
    let Some(python) = common::browser::python("the_pages_work_in_headless_chromium") else {
        return;
    };
    common::browser::run_script(&python, "test_pages.py", "browser-test", &[]);
}
