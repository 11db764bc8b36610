//! Outside engines (`SEARCHER+exec:PROGRAM …`): the protocol carries whole games (the Python
//! Dellacherie example plays the built-in's games placement for placement), every kind of
//! misbehaviour ends only its own game with its reason recorded, no bot program outlives the
//! arena, and a bot's traces and recorded games are checked and re-decided as the built-ins'
//! are (docs/writing-a-bot.md).

use std::fs;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use tetris_arena_games::sim::game::{GameEnd, GameResult, GameSettings, PlayOptions, play_game};
use tetris_arena_io::values::BoardHeight;
use tetris_core::{GameOverRule, GeneratorKind};
use tetris_registry::{Strategy, StrategySpec};

use crate::common::server::Server;
use crate::common::{self, ENGINE, run_json, scratch_folder, succeed};

/// The folder of the workspace (the example bots are under `examples/bots/`).
fn workspace() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()
}

/// `python3 PATH` as a strategy's command: the example bots need Python 3 only.
fn bot(searcher: &str, options: &str, script: &Path, args: &[&str]) -> String {
    let mut name = format!("{searcher}+exec{options}:python3 {}", script.display());
    for arg in args {
        name.push(' ');
        name.push_str(arg);
    }
    name
}

fn example(name: &str) -> PathBuf {
    workspace().join("examples/bots").join(name)
}

fn misbehaving() -> PathBuf {
    workspace().join("arena/tests/bots/misbehaving.py")
}

/// The test bot `misbehaving.py MODE SEED PIDS` as a `column-drop` strategy with `options`.
fn misbehaving_bot(options: &str, mode: &str, seed: &str, pids: &Path) -> String {
    bot(
        "column-drop",
        options,
        &misbehaving(),
        &[mode, seed, pids.to_str().unwrap()],
    )
}

/// Every process id in `pids` (one per line, as the test bot writes them) is gone: no bot
/// program outlived its arena. A process that exited but was never reaped would still show
/// in /proc; the arena reaps what it kills.
#[cfg(target_os = "linux")]
fn assert_no_bot_left(pids: &Path) {
    let text = fs::read_to_string(pids).unwrap_or_default();
    assert!(!text.is_empty(), "the bot never started");
    // A killed program's group is gone once the arena has reaped it; give the kernel a moment
    // to finish tearing down a process killed as the arena exited (not a timing of the arena).
    let give_up = Instant::now() + Duration::from_secs(10);
    for pid in text.lines() {
        let proc = PathBuf::from(format!("/proc/{pid}"));
        while proc.exists() && Instant::now() < give_up {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(!proc.exists(), "bot process {pid} outlived the arena");
    }
}

/// The rows of a tournament's games file in JSON Lines.
fn game_lines(path: &Path) -> Vec<Value> {
    fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// A game row without what depends on the strategy's name or the machine.
fn game_facts(row: &Value) -> Value {
    let mut row = row.clone();
    let object = row.as_object_mut().unwrap();
    object.remove("strategy");
    object.remove("seconds");
    row
}

/// The games of seeds `seeds` on a 10 × 8 field, uncapped, under the simulation rule (the
/// settings of `arena tournament STRATEGY --seed 1 --board-height 8`), played in this process
/// through the arena's library with every placement kept, in seed order. The strategy is built
/// once and cloned into two threads, as the runner's workers clone it: an outside engine's
/// clone starts its own program, so two programs share the games.
fn library_games(strategy: &str, seeds: std::ops::RangeInclusive<u64>) -> Vec<GameResult> {
    let strategy = Strategy::new(strategy.parse::<StrategySpec>().unwrap()).unwrap();
    let seeds: Vec<u64> = seeds.collect();
    let threads = 2;
    let mut games: Vec<Option<GameResult>> = vec![None; seeds.len()];
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|worker| {
                let mut strategy = strategy.clone();
                let seeds = &seeds;
                scope.spawn(move || {
                    let options = PlayOptions {
                        keep_placements: true,
                        ..PlayOptions::default()
                    };
                    (worker..seeds.len())
                        .step_by(threads)
                        .map(|index| {
                            let settings = GameSettings {
                                board_height: BoardHeight::try_from(8).unwrap(),
                                generator: GeneratorKind::Uniform,
                                seed: seeds[index],
                                max_pieces: None,
                                game_over_rule: GameOverRule::Simulation,
                            };
                            let played = play_game(&mut strategy, &settings, options, &mut |_| {
                                ControlFlow::Continue(())
                            });
                            (index, played.unwrap())
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for worker in workers {
            for (index, game) in worker.join().unwrap() {
                games[index] = Some(game);
            }
        }
    });
    games.into_iter().map(Option::unwrap).collect()
}

#[test]
fn the_dellacherie_example_plays_the_built_in_dellacherie_placement_for_placement() {
    let name = bot("column-drop", "", &example("dellacherie.py"), &[]);
    // Every placement of three long games on the standard field, through `arena play`.
    for seed in ["1", "2", "3"] {
        let args = ["--seed", seed, "--max-pieces", "400"];
        let outside = run_json("play", &[&[name.as_str()][..], &args].concat());
        let inside = run_json("play", &[&["column-drop+dellacherie"][..], &args].concat());
        assert_eq!(outside["placements"], inside["placements"], "seed {seed}");
        assert_eq!(outside["lines"], inside["lines"]);
        assert_eq!(outside["score"], inside["score"]);
    }
    // Every placement of 200 whole games on a short field (seeds 1..=200, uncapped: they end
    // by topping out), played in this process: the games' records alone would let two
    // different games with the same counts pass.
    let outside = library_games(&name, 1..=200);
    let inside = library_games("column-drop+dellacherie", 1..=200);
    for (seed, (a, b)) in (1..).zip(outside.iter().zip(&inside)) {
        assert_eq!(a.end, GameEnd::GameOver, "seed {seed}: {:?}", a.fault);
        assert_eq!(a.placements.len() as u64, a.pieces, "seed {seed}");
        assert_eq!(a.placements, b.placements, "seed {seed}");
        let facts = |game: &GameResult| (game.pieces, game.lines, game.score, game.clears);
        assert_eq!(facts(a), facts(b), "seed {seed}");
    }
    let pieces: u64 = inside.iter().map(|game| game.pieces).sum();
    assert!(
        pieces > 20_000,
        "the games are long enough to mean something: {pieces}"
    );
    // The tournament's path (a program per worker, its games file): the first 10 of those
    // games, side by side, give the same rows but the strategy's name.
    let folder = scratch_folder("outside", "dellacherie");
    let games = folder.join("games.jsonl");
    succeed(
        "tournament",
        &[
            &name,
            "column-drop+dellacherie",
            "--games",
            "10",
            "--seed",
            "1",
            "--board-height",
            "8",
            "--jobs",
            "2",
            "--out",
            games.to_str().unwrap(),
        ],
    );
    let rows = game_lines(&games);
    assert_eq!(rows.len(), 20);
    let (outside_rows, inside_rows) = rows.split_at(10);
    for ((a, b), game) in outside_rows.iter().zip(inside_rows).zip(&inside) {
        assert_eq!(a["strategy"], name.as_str());
        assert_eq!(game_facts(a), game_facts(b));
        assert_eq!(b["pieces"], game.pieces);
    }
}

/// Checks that of a run's 3 games `rows`, game `faulted` alone ended as a fault after 3
/// placements, with a reason starting with `reason`, and the others are `expected`'s; gives
/// the recorded reason.
fn assert_only_game_faulted<'a>(
    rows: &'a [Value],
    faulted: usize,
    reason: &str,
    expected: &[Value],
) -> &'a str {
    assert_eq!(rows.len(), 3, "{reason}");
    assert_eq!(rows[faulted]["end"], "fault", "{reason}");
    assert_eq!(rows[faulted]["pieces"], 3, "{reason}");
    let recorded = rows[faulted]["fault"].as_str().unwrap();
    assert!(recorded.starts_with(reason), "{reason}: {recorded}");
    for game in (0..3).filter(|&game| game != faulted) {
        assert_eq!(
            game_facts(&rows[game]),
            game_facts(&expected[game]),
            "{reason}"
        );
    }
    recorded
}

/// A fault's table row: the bot's mode, and the start of the reason the game records.
const FAULTS: [(&str, &str); 7] = [
    (
        "illegal",
        "the bot's suggestion: index 999 is not a legal placement (0..",
    ),
    (
        "unknown-placement",
        "the bot's suggestion: x -7, y 0, rotation 0 is not a legal placement of",
    ),
    (
        "malformed",
        "the bot wrote \"this is not JSON\", not a message",
    ),
    ("huge-line", "the bot wrote a line of over 65536 bytes"),
    ("sleep", "no suggestion within 300 ms"),
    ("exit", "the bot closed its output (exit status: 3)"),
    (
        "stderr-flood",
        "no suggestion within 300 ms; its stderr ended: \"",
    ),
];

#[cfg(target_os = "linux")]
#[test]
fn each_fault_ends_only_its_own_game_with_its_reason_and_leaves_no_bot_running() {
    let folder = scratch_folder("outside", "faults");
    // The games a well-behaved first-legal bot plays: the games 0 and 2 of every faulty run.
    let well_pids = folder.join("well.pids");
    let well_games = folder.join("well.jsonl");
    let settings = [
        "--games",
        "3",
        "--seed",
        "1",
        "--board-height",
        "8",
        "--max-pieces",
        "20",
    ];
    let well = misbehaving_bot(",limit=300", "well", "2", &well_pids);
    succeed(
        "tournament",
        &[
            &[well.as_str()][..],
            &settings,
            &["--out", well_games.to_str().unwrap()],
        ]
        .concat(),
    );
    let expected = game_lines(&well_games);
    assert_no_bot_left(&well_pids);
    for (mode, reason) in FAULTS {
        let pids = folder.join(format!("{mode}.pids"));
        let games = folder.join(format!("{mode}.jsonl"));
        let name = misbehaving_bot(",limit=300", mode, "2", &pids);
        let report = run_json(
            "tournament",
            &[
                &[name.as_str()][..],
                &settings,
                &["--out", games.to_str().unwrap()],
            ]
            .concat(),
        );
        let rows = game_lines(&games);
        // Seed 2 is game 1: it ends after the bot's 3 good placements, with the reason; the
        // other games are those of the well-behaved bot.
        let recorded = assert_only_game_faulted(&rows, 1, reason, &expected);
        let summary = &report["summary"][0];
        assert_eq!(summary["fault_games"], 1, "{mode}");
        assert_eq!(summary["first_fault"]["game"], 1, "{mode}");
        assert_eq!(summary["first_fault"]["reason"], recorded, "{mode}");
        assert_no_bot_left(&pids);
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_bot_that_never_says_hello_is_an_engine_error_and_is_not_left_running() {
    let folder = scratch_folder("outside", "no-handshake");
    let pids = folder.join("bot.pids");
    let name = misbehaving_bot("", "no-handshake", "0", &pids);
    let line = common::fail_with(
        ENGINE,
        "tournament",
        &[&name, "--games", "2", "--max-pieces", "5"],
    );
    assert!(
        line.ends_with("no handshake (`info`) within 3000 ms"),
        "{line}"
    );
    assert_no_bot_left(&pids);
}

#[test]
fn outside_engines_are_refused_where_only_the_arena_s_own_can_serve() {
    let name = bot("column-drop", "", &example("first_legal.py"), &[]);
    let folder = scratch_folder("outside", "refused");
    let board = folder.join("board.txt");
    fs::write(&board, "..........\n".repeat(20)).unwrap();
    let line = common::fail(
        "analyze",
        &[&name, "--board", board.to_str().unwrap(), "--pieces", "T"],
    );
    assert!(
        line.contains("an outside engine cannot be analysed"),
        "{line}"
    );
    // Names that are not a bot's command are refused before anything starts.
    for (name, message) in [
        ("column-drop+exec:", "the bot's command is empty"),
        (
            "column-drop+exec,limit=0:bot",
            "limit=0 is not a whole number of milliseconds",
        ),
        (
            "column-drop+exec,speed=3:bot",
            "unknown exec option \"speed=3\"",
        ),
        ("nothing+exec:bot", "unknown searcher \"nothing\""),
    ] {
        let line = common::fail("play", &[name, "--max-pieces", "1"]);
        assert!(line.contains(message), "{name}: {line}");
    }
    // A program that cannot start is the engine's error, not bad input.
    let line = common::fail_with(
        ENGINE,
        "play",
        &["column-drop+exec:/no/such/bot", "--max-pieces", "1"],
    );
    assert!(
        line.contains("could not start the bot `/no/such/bot`"),
        "{line}"
    );
}

/// Starts `arena ARGS…` in the background.
#[cfg(target_os = "linux")]
fn start_arena(args: &[&str]) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits until `pids` names `count` started bots (a guard, not a timing: gives up after 60 s).
#[cfg(target_os = "linux")]
fn wait_for_bots(pids: &Path, count: usize) {
    let give_up = Instant::now() + Duration::from_secs(60);
    while fs::read_to_string(pids).map_or(0, |text| text.lines().count()) < count {
        assert!(Instant::now() < give_up, "the bots did not start");
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[cfg(target_os = "linux")]
#[test]
fn ctrl_c_during_a_tournament_of_bots_keeps_the_finished_games_and_leaves_no_bot() {
    let folder = scratch_folder("outside", "ctrl-c");
    let pids = folder.join("bots.pids");
    let games = folder.join("games.csv");
    // Long games (no cap, a tall field, a strong bot's pace is not needed: first-legal games
    // are short, so many finish before the signal).
    let name = misbehaving_bot("", "well", "-1", &pids);
    let child = start_arena(&[
        "tournament",
        &name,
        "column-drop+dellacherie",
        "--games",
        "10000000",
        "--jobs",
        "2",
        "--out",
        games.to_str().unwrap(),
    ]);
    // The strategy's own bot and one per worker.
    wait_for_bots(&pids, 3);
    std::thread::sleep(Duration::from_millis(300));
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(common::INTERRUPTED), "{stderr}");
    let written = fs::read_to_string(&games).unwrap();
    assert!(
        written.lines().count() > 2,
        "finished games are kept: {stderr}"
    );
    assert_no_bot_left(&pids);
}

#[cfg(target_os = "linux")]
#[test]
fn a_killed_arena_leaves_no_bot_running() {
    let folder = scratch_folder("outside", "killed");
    let pids = folder.join("bots.pids");
    let name = misbehaving_bot("", "well", "-1", &pids);
    let mut child = start_arena(&["tournament", &name, "--games", "10000000", "--jobs", "2"]);
    wait_for_bots(&pids, 3);
    child.kill().unwrap();
    child.wait().unwrap();
    assert_no_bot_left(&pids);
}

/// A tournament's games, one JSON Lines row each, with `--jobs 1` (so a server's requests
/// come in game order).
fn tournament_games(folder: &Path, file: &str, names: &[&str], settings: &[&str]) -> Vec<Value> {
    let games = folder.join(file);
    let out = ["--jobs", "1", "--out", games.to_str().unwrap()];
    succeed("tournament", &[names, settings, &out[..]].concat());
    game_lines(&games)
}

#[test]
fn an_http_engine_plays_the_games_of_the_strategy_its_server_analyses_with() {
    let server = Server::start(&[]);
    let name = format!("bfs+http:http://{} bfs+elashi@2", server.address);
    for seed in ["1", "2"] {
        let args = ["--seed", seed, "--max-pieces", "120"];
        let outside = run_json("play", &[&[name.as_str()][..], &args].concat());
        let inside = run_json("play", &[&["bfs+elashi@2"][..], &args].concat());
        assert_eq!(outside["placements"], inside["placements"], "seed {seed}");
        assert_eq!(outside["score"], inside["score"]);
    }
    let folder = scratch_folder("outside", "http");
    let settings = [
        "--games",
        "20",
        "--seed",
        "1",
        "--board-height",
        "10",
        "--max-pieces",
        "60",
    ];
    let rows = tournament_games(&folder, "games.jsonl", &[&name, "bfs+elashi@2"], &settings);
    let (outside, inside) = rows.split_at(20);
    for (a, b) in outside.iter().zip(inside) {
        assert_eq!(game_facts(a), game_facts(b));
    }
}

/// What the misbehaving server does with the one request it spoils.
#[derive(Clone, Copy)]
enum Spoil {
    /// Answers 500 with an error body.
    Status500,
    /// Closes the connection without an answer.
    Close,
    /// Holds the connection and never answers (until the test process ends).
    Never,
}

/// A server of the arena's API that forwards every request to `real`, but spoils the
/// `spoiled`-th `/v1/analyze` request (counted from 1) as `spoil` says. It answers one request
/// per connection (`Connection: close`) and runs until the test process ends.
fn misbehaving_server(
    real: std::net::SocketAddr,
    spoiled: usize,
    spoil: Spoil,
) -> std::net::SocketAddr {
    use std::io::{BufRead, BufReader, Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        let mut analyses = 0;
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { return };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut request_line = String::new();
            reader.read_line(&mut request_line).unwrap();
            let mut length = 0;
            loop {
                let mut header = String::new();
                reader.read_line(&mut header).unwrap();
                if header.trim().is_empty() {
                    break;
                }
                if let Some((name, value)) = header.split_once(':')
                    && name.eq_ignore_ascii_case("content-length")
                {
                    length = value.trim().parse().unwrap();
                }
            }
            let mut body = vec![0; length];
            reader.read_exact(&mut body).unwrap();
            let path = request_line
                .split_whitespace()
                .nth(1)
                .unwrap_or("")
                .to_string();
            let (status, text) = if path == "/v1/analyze" {
                analyses += 1;
                match (analyses == spoiled).then_some(spoil) {
                    Some(Spoil::Status500) => (500, r#"{"error":"broken"}"#.to_string()),
                    Some(Spoil::Close) => continue,
                    Some(Spoil::Never) => {
                        // Held open by a thread of its own: the next requests are answered.
                        std::thread::spawn(move || {
                            let _held = stream;
                            std::thread::sleep(Duration::from_secs(3600));
                        });
                        continue;
                    }
                    None => forward(real, &request_line, &body),
                }
            } else {
                forward(real, &request_line, &body)
            };
            let _ = write!(
                stream,
                "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{text}",
                text.len()
            );
        }
    });
    address
}

/// The real server's status and body for the same request.
fn forward(real: std::net::SocketAddr, request_line: &str, body: &[u8]) -> (u16, String) {
    use std::io::{Read, Write};
    let mut parts = request_line.split_whitespace();
    let (method, path) = (parts.next().unwrap(), parts.next().unwrap());
    let mut stream = std::net::TcpStream::connect(real).unwrap();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .unwrap();
    stream.write_all(body).unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let (head, text) = answer.split_once("\r\n\r\n").unwrap();
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    (status, text.to_string())
}

#[test]
fn a_server_s_failure_ends_only_its_own_game_with_its_reason() {
    let server = Server::start(&[]);
    let folder = scratch_folder("outside", "http-faults");
    let settings = [
        "--games",
        "3",
        "--seed",
        "1",
        "--board-height",
        "10",
        "--max-pieces",
        "30",
    ];
    let expected = tournament_games(&folder, "built-in.jsonl", &["bfs+elashi@2"], &settings);
    for (spoil, file, reason) in [
        (
            Spoil::Status500,
            "500.jsonl",
            "the server answered 500: broken",
        ),
        (Spoil::Close, "close.jsonl", "the server's analysis: "),
        (
            Spoil::Never,
            "never.jsonl",
            "no analysis from the server in time",
        ),
    ] {
        // The 4th analysis is game 0's 4th piece (one job: the requests come in game order).
        let address = misbehaving_server(server.address, 4, spoil);
        let name = format!("bfs+http,limit=2000:http://{address} bfs+elashi@2");
        let rows = tournament_games(&folder, file, &[&name], &settings);
        assert_only_game_faulted(&rows, 0, reason, &expected);
    }
}

/// The protocol page's transcript: the lines between the page's ```` ```text ```` fence after
/// `<!-- transcript -->` and the fence's end.
fn documented_transcript() -> String {
    let page = fs::read_to_string(workspace().join("docs/writing-a-bot.md")).unwrap();
    let (_, after) = page
        .split_once("<!-- transcript -->\n```text\n")
        .expect("docs/writing-a-bot.md has its transcript");
    let (transcript, _) = after.split_once("```").unwrap();
    transcript.to_string()
}

#[test]
fn the_protocol_page_s_transcript_is_a_real_game() {
    let folder = scratch_folder("outside", "transcript");
    fs::write(folder.join("pieces.txt"), "O\nI\n").unwrap();
    let recording = workspace().join("arena/tests/bots/recording.py");
    let name = format!(
        "column-drop+exec:python3 {} transcript.txt",
        recording.display()
    );
    let output = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args([
            "play",
            &name,
            "--generator",
            "file:pieces.txt",
            "--board-height",
            "4",
        ])
        .current_dir(&folder)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let recorded = fs::read_to_string(folder.join("transcript.txt")).unwrap();
    assert_eq!(documented_transcript(), recorded);
}

#[test]
fn shards_of_a_bot_s_run_merge_into_the_unsharded_report_which_names_the_bot() {
    let folder = scratch_folder("outside", "shards");
    let name = bot("column-drop", "", &example("dellacherie.py"), &[]);
    let settings = [
        "--games",
        "6",
        "--seed",
        "3",
        "--board-height",
        "8",
        "--max-pieces",
        "60",
    ];
    let whole = run_json("tournament", &[&[name.as_str()][..], &settings].concat());
    assert_eq!(
        whole["settings"]["strategies"][0]["engine"],
        "dellacherie.py 1"
    );
    assert_eq!(whole["settings"]["strategies"][0]["depth"], 1);
    let parts: Vec<PathBuf> = (0..2)
        .map(|k| folder.join(format!("part-{k}.json")))
        .collect();
    for (k, part) in parts.iter().enumerate() {
        let shard = format!("{k}/2");
        let args = ["--shard", shard.as_str(), "--out", part.to_str().unwrap()];
        common::run(
            "tournament",
            &[&[name.as_str()][..], &settings, &args].concat(),
        );
    }
    let merged = run_json(
        "merge",
        &[parts[0].to_str().unwrap(), parts[1].to_str().unwrap()],
    );
    assert_eq!(
        common::without_timing(merged.clone())["summary"],
        common::without_timing(whole.clone())["summary"]
    );
    assert_eq!(merged["games"], whole["games"]);
    let text = succeed("tournament", &[&[name.as_str()][..], &settings].concat());
    assert!(
        text.contains(&format!(
            "Outside engines: {name} is dellacherie.py 1 (as each names itself); their results \
             are only as repeatable as they are"
        )),
        "{text}"
    );
}

/// Three NES games at level 29 (a row a frame) with a tap every 8 frames: the second piece of
/// a game cannot reach the left wall's bottom (4 taps take 25 frames, the fall 18), though
/// the cells there are free; the searcher offers only what the player reaches.
const OUT_OF_REACH: [&str; 10] = [
    "--games",
    "3",
    "--seed",
    "1",
    "--start-level",
    "29",
    "--to-level",
    "30",
    "--timeline",
    "X.......",
];

#[cfg(target_os = "linux")]
#[test]
fn in_nes_games_a_placement_out_of_the_player_s_reach_is_a_fault() {
    let folder = scratch_folder("outside", "nes");
    let settings = OUT_OF_REACH;
    let games_of = |mode: &str| {
        let pids = folder.join(format!("{mode}.pids"));
        let games = folder.join(format!("{mode}.jsonl"));
        let name = misbehaving_bot(",limit=2000", mode, "2", &pids);
        let out = ["--out", games.to_str().unwrap()];
        succeed("nes", &[&[name.as_str()][..], &settings, &out].concat());
        assert_no_bot_left(&pids);
        game_lines(&games)
    };
    let well = games_of("well");
    let rows = games_of("far-left");
    assert_eq!(rows[1]["end"], "fault");
    assert_eq!(rows[1]["pieces"], 1);
    let reason = rows[1]["fault"].as_str().unwrap();
    assert!(
        reason.starts_with("the bot's suggestion: x 1, y 18, rotation 0 is not a legal placement")
            || reason.starts_with(
                "the bot's suggestion: x 2, y 19, rotation 0 is not a legal placement"
            ),
        "{reason}"
    );
    for game in [0, 2] {
        assert_eq!(rows[game], well[game]);
    }
}

#[test]
fn with_a_reaction_time_a_bot_plans_without_the_preview_and_is_asked_again() {
    let folder = scratch_folder("outside", "reaction");
    let transcript = folder.join("transcript.txt");
    let trace = folder.join("trace.jsonl");
    let name = bot(
        "gamepad",
        "",
        &workspace().join("arena/tests/bots/recording.py"),
        &[transcript.to_str().unwrap()],
    );
    let settings = [
        "--games",
        "1",
        "--seed",
        "1",
        "--timeline",
        "X.",
        "--reaction-frames",
        "12",
    ];
    let files = ["--trace", trace.to_str().unwrap()];
    let text = succeed("nes", &[&[name.as_str()][..], &settings, &files].concat());
    // The report names the engine as it names itself, and says what that means.
    assert!(
        text.contains(&format!(
            "Outside engine: {name} is first-legal 1 (as it names itself); its results are only \
             as repeatable as it is"
        )),
        "{text}"
    );
    let suggests: Vec<Value> = fs::read_to_string(&transcript)
        .unwrap()
        .lines()
        .filter_map(|line| line.strip_prefix("arena> "))
        .map(|line| serde_json::from_str::<Value>(line).unwrap())
        .filter(|message| message["type"] == "suggest")
        .collect();
    // Each piece is asked about once, blind; a piece still falling after the 12 frames of
    // that first answer's path is asked again, told the 12 frames played, and its traced
    // path is those 12 frames and the second answer's.
    let locks = trace_locks(&trace);
    let mut asked = suggests.iter().peekable();
    for lock in &locks {
        let first = asked.next().unwrap();
        assert_eq!(
            first["pieces"].as_u64().unwrap() + 1,
            lock["piece"].as_u64().unwrap()
        );
        assert!(first.get("played").is_none());
        let frames = lock["placement"]["path"]
            .as_str()
            .unwrap()
            .split(' ')
            .count();
        let again = asked.next_if(|next| next["pieces"] == first["pieces"]);
        assert_eq!(again.is_some(), frames > 12, "{lock}");
        if let Some(again) = again {
            assert_eq!(again["played"]["frames"], 12);
            assert_eq!(again["board"], first["board"]);
        }
    }
    assert!(asked.next().is_none());
    let report = run_json("nes", &[&[name.as_str()][..], &settings[..4]].concat());
    assert_eq!(report["engine"], "first-legal 1");
    assert!(locks.iter().filter(|lock| lock["plan"].is_object()).count() >= 4);
    // The trace replays and the bot re-decides every lock the same.
    let replayed = run_json("replay", &[trace.to_str().unwrap(), "--redecide"]);
    assert_eq!(
        (&replayed["verified"], &replayed["redecided"]),
        (&true.into(), &true.into())
    );
}

/// `arena replay FILE ARGS… --json`.
fn replay_json(file: &Path, args: &[&str]) -> Value {
    run_json("replay", &[&[file.to_str().unwrap()][..], args].concat())
}

/// The line `arena replay --redecide` prints for an outside engine `engine` playing as
/// `name`.
fn repeatable_line(name: &str, engine: &str) -> String {
    format!(
        "outside    {name} is {engine} (as it names itself): its re-decision is only as \
         repeatable as it is"
    )
}

#[test]
fn an_exec_bot_s_nes_trace_checks_from_its_frames_and_re_decides() {
    let folder = scratch_folder("outside", "nes-trace");
    let trace = folder.join("first-legal.jsonl");
    let name = bot("gamepad", "", &example("first_legal.py"), &[]);
    succeed(
        "nes",
        &[&name, "--games", "2", "--trace", trace.to_str().unwrap()],
    );
    // The frames alone: the bot is not asked.
    let checked = replay_json(&trace, &[]);
    assert_eq!(checked["verified"], true);
    assert_eq!(checked["redecided"], false);
    assert_eq!(checked["games"], 2);
    assert!(checked["locks"].as_u64().unwrap() > 2, "{checked}");
    assert!(checked.get("engine").is_none(), "{checked}");
    // Asked again, the bot plays every lock the same; the report names it, as it names
    // itself, and says that this is only as repeatable as the bot.
    let redecided = replay_json(&trace, &["--redecide"]);
    assert_eq!(redecided["redecided"], true);
    assert_eq!(redecided["engine"], "first-legal 1");
    assert_eq!(redecided["locks"], checked["locks"]);
    assert_eq!(redecided["unproven_top_outs"], 0);
    let text = succeed("replay", &[trace.to_str().unwrap(), "--redecide"]);
    assert!(
        text.contains(&repeatable_line(&name, "first-legal 1")),
        "{text}"
    );

    // A game the bot's fault ended (its placement out of the player's reach, as in
    // `in_nes_games_a_placement_out_of_the_player_s_reach_is_a_fault`): no frame shows a
    // fault, so its end is taken as recorded until the bot, asked again, faults again there.
    let trace = folder.join("far-left.jsonl");
    let pids = folder.join("far-left.pids");
    let name = bot(
        "gamepad",
        ",limit=2000",
        &misbehaving(),
        &["far-left", "2", pids.to_str().unwrap()],
    );
    succeed(
        "nes",
        &[
            &[name.as_str()][..],
            &OUT_OF_REACH,
            &["--trace", trace.to_str().unwrap()],
        ]
        .concat(),
    );
    let ends: Vec<Value> = game_lines(&trace)
        .into_iter()
        .filter(|line| line["event"] == "end")
        .map(|line| line["end"].clone())
        .collect();
    assert_eq!(ends[1], "fault", "{ends:?}");
    let checked = replay_json(&trace, &[]);
    assert_eq!(checked["unproven_faults"], 1);
    let redecided = replay_json(&trace, &["--redecide"]);
    assert_eq!(redecided["redecided"], true);
    assert_eq!(redecided["unproven_faults"], 0);
    assert_eq!(redecided["engine"], "misbehaving far-left");
}

/// A copy of the bot `script` as `bot.py` in `folder`, replacing the one there: the same
/// command then runs another bot.
fn install_bot(folder: &Path, script: &Path) -> PathBuf {
    let installed = folder.join("bot.py");
    fs::copy(script, &installed).unwrap();
    installed
}

#[test]
fn a_bot_that_now_decides_otherwise_fails_redecide_naming_the_first_difference() {
    let folder = scratch_folder("outside", "redecide-otherwise");
    // The first-legal bot writes a trace and a replay; then other bots, under the same
    // command, choose other placements.
    let installed = install_bot(&folder, &example("first_legal.py"));
    let nes_name = bot("gamepad", "", &installed, &[]);
    let trace = folder.join("trace.jsonl");
    succeed(
        "nes",
        &[
            &nes_name,
            "--games",
            "2",
            "--trace",
            trace.to_str().unwrap(),
        ],
    );
    let play_name = bot("column-drop", "", &installed, &[]);
    let replay = folder.join("game.json");
    let settings = ["--seed", "3", "--board-height", "8", "--max-pieces", "30"];
    let record = ["--record", replay.to_str().unwrap()];
    succeed(
        "play",
        &[&[play_name.as_str()][..], &settings, &record].concat(),
    );
    let note = |engine: &str| {
        format!(
            "(the outside engine {engine} decides otherwise now: a re-decision is only as \
             repeatable as the engine)"
        )
    };
    // The lowest-action bot: among the placements the player reaches, another from the
    // first piece on.
    install_bot(
        &folder,
        &workspace().join("arena/tests/bots/lowest_action.py"),
    );
    // The frames alone still check: the bot is not asked.
    assert_eq!(replay_json(&trace, &[])["verified"], true);
    let line = common::fail("replay", &[trace.to_str().unwrap(), "--redecide"]);
    assert!(
        line.contains("game seed 0, piece 1: lock is recorded as")
            && line.ends_with(&note("lowest-action 1")),
        "{line}"
    );
    // Dellacherie's choice (column-drop's placements), where first-legal takes the first.
    install_bot(&folder, &example("dellacherie.py"));
    assert_eq!(replay_json(&replay, &[])["checked"], "legality");
    let line = common::fail("replay", &[replay.to_str().unwrap(), "--redecide"]);
    assert!(
        line.contains(&format!("strategy {play_name} chooses"))
            && line.ends_with(&note("dellacherie.py 1")),
        "{line}"
    );
}

#[test]
fn a_recorded_game_re_decided_tells_the_bot_the_game_as_it_was_played() {
    let folder = scratch_folder("outside", "redecide-record");
    let played = folder.join("played.txt");
    let redecided = folder.join("redecided.txt");
    let recording = workspace().join("arena/tests/bots/recording.py");
    let replay = folder.join("game.json");
    let name = |transcript: &Path| {
        bot(
            "column-drop",
            "",
            &recording,
            &[transcript.to_str().unwrap()],
        )
    };
    let settings = ["--seed", "3", "--board-height", "6", "--max-pieces", "40"];
    let record = ["--record", replay.to_str().unwrap()];
    succeed(
        "play",
        &[&[name(&played).as_str()][..], &settings, &record].concat(),
    );
    // The replay names the transcript the game was played with: replay a copy that names
    // another, so the two conversations can be compared.
    let text = fs::read_to_string(&replay).unwrap();
    let copy = folder.join("copy.json");
    fs::write(
        &copy,
        text.replace(played.to_str().unwrap(), redecided.to_str().unwrap()),
    )
    .unwrap();
    let report = replay_json(&copy, &["--redecide"]);
    assert_eq!(report["checked"], "decisions");
    assert_eq!(report["engine"], "first-legal 1");
    // The game as the bot heard it, `start` (rules, seed, cap) to `stop`, with each
    // position's counts: re-deciding, it hears the same (then the game again under the other
    // rule, which the replay also tries, and `quit`).
    let played = fs::read_to_string(&played).unwrap();
    let (game, quit) = played.rsplit_once("arena> {\"type\":\"quit\"}").unwrap();
    assert_eq!(quit, "\n");
    let heard = fs::read_to_string(&redecided).unwrap();
    assert!(heard.starts_with(game), "{heard}");
}

/// The locks of an NES trace (`--trace FILE`), in order.
fn trace_locks(path: &Path) -> Vec<Value> {
    game_lines(path)
        .into_iter()
        .filter(|line| line["event"] == "lock")
        .collect()
}

#[cfg(target_os = "linux")]
#[test]
fn in_nes_games_an_answer_s_inputs_are_played_frame_by_frame_and_checked() {
    let folder = scratch_folder("outside", "nes-inputs");
    // Level 19 (a row every 2 frames), a tap every other frame.
    let settings = ["--games", "3", "--seed", "1", "--timeline", "X."];
    let run = |mode: &str| {
        let pids = folder.join(format!("{mode}.pids"));
        let games = folder.join(format!("{mode}.jsonl"));
        let trace = folder.join(format!("{mode}.trace.jsonl"));
        let pids_text = pids.to_str().unwrap();
        let name = bot(
            "gamepad",
            ",limit=2000",
            &misbehaving(),
            &[mode, "2", pids_text],
        );
        let files = [
            "--out",
            games.to_str().unwrap(),
            "--trace",
            trace.to_str().unwrap(),
        ];
        succeed("nes", &[&[name.as_str()][..], &settings, &files].concat());
        assert_no_bot_left(&pids);
        (game_lines(&games), trace_locks(&trace))
    };
    // The bot drops every piece straight down with no button pressed: the game plays exactly
    // that (the searcher's own paths soft-drop from the first frame), so those recorded paths
    // hold nothing but empty frames, and their pieces lock as they spawned, in the spawn
    // column. (Once the stack reaches the spawn, the last pieces go by the searcher's path.)
    let (straight, locks) = run("straight-drop");
    assert!(
        straight.iter().all(|game| game["end"] == "top-out"),
        "{straight:?}"
    );
    let dropped: Vec<&Value> = locks
        .iter()
        .filter(|lock| {
            let path = lock["placement"]["path"].as_str().unwrap();
            path.split(' ').all(|frame| frame == "F0")
        })
        .collect();
    assert!(dropped.len() + 6 >= locks.len() && dropped.len() > 25);
    for lock in dropped {
        let placement = &lock["placement"];
        assert_eq!(
            (&placement["x"], &placement["rotation"]),
            (&5.into(), &0.into())
        );
        // Level 19 drops a row every 2 frames: a piece falls 2 frames a row to its lock row
        // and a frame more to fail the next drop (the first piece floats 96 frames first).
        let rows = placement["y"].as_u64().unwrap() as usize;
        let delay = if lock["piece"] == 1 { 97 } else { 0 };
        let frames = placement["path"].as_str().unwrap().split(' ').count();
        assert!(
            frames >= delay + 2 * rows && frames <= delay + 2 * rows + 2,
            "{lock}"
        );
    }
    for (mode, reason) in [
        (
            "taps-too-soon",
            "the answer's inputs: frame 2 of the path presses Left 1 frames after the Left/Right \
             thumb's press on frame 1",
        ),
        ("wrong-lock", "the answer's inputs: they lock the "),
        ("press-after-lock", "the answer's inputs: the "),
    ] {
        let (games, _) = run(mode);
        assert_eq!(games[1]["end"], "fault", "{mode}");
        assert_eq!(games[1]["pieces"], 3, "{mode}");
        let recorded = games[1]["fault"].as_str().unwrap();
        assert!(recorded.starts_with(reason), "{mode}: {recorded}");
        for game in [0, 2] {
            assert_eq!(games[game], straight[game], "{mode}");
        }
    }
    // Games without frames have no inputs to play: the answer is the bot's fault, in NES
    // games of a searcher that places pieces directly as in the literature's games.
    let pids = folder.join("direct.pids");
    let name = misbehaving_bot("", "straight-drop", "2", &pids);
    let games = folder.join("direct.jsonl");
    let out = ["--out", games.to_str().unwrap()];
    succeed("nes", &[&[name.as_str()][..], &settings, &out].concat());
    let only_nes = "the answer's inputs: only NES games with a gravity-aware searcher (gamepad) \
                    play input sequences; this game places pieces directly";
    for game in game_lines(&games) {
        assert_eq!(
            (&game["end"], &game["pieces"]),
            (&"fault".into(), &0.into())
        );
        assert_eq!(game["fault"], only_nes);
    }
    let report = run_json("tournament", &[&name, "--games", "1", "--max-pieces", "5"]);
    assert_eq!(report["games"][0]["fault"], only_nes);
    assert_no_bot_left(&pids);
}

#[test]
fn a_stackrabbit_engine_plays_the_nes_games_of_the_strategy_behind_the_server() {
    let server = Server::start(&["--stackrabbit-strategy", "gamepad+nes-plateau@2"]);
    let folder = scratch_folder("outside", "stackrabbit");
    // With play=placement the arena plays each answer's placement by the searcher's path,
    // the benchmark player's: the same games as the benchmark, lock for lock (board, piece,
    // placement, path, frame). X. seed 1 and X... seed 4 end with a lock partly in the
    // console's hidden rows, which the server's analysis (the console's rule) finds too.
    let name = format!(
        "gamepad+stackrabbit,play=placement:http://{}",
        server.address
    );
    for (timeline, seed) in [("X.", "1"), ("X...", "4")] {
        let run = |name: &str, file: &str| {
            let games = folder.join(format!("{file}{seed}.jsonl"));
            let trace = folder.join(format!("{file}{seed}.trace.jsonl"));
            let files = [
                "--out",
                games.to_str().unwrap(),
                "--trace",
                trace.to_str().unwrap(),
            ];
            let settings = ["--games", "2", "--seed", seed, "--timeline", timeline];
            succeed("nes", &[&[name][..], &settings, &files].concat());
            (game_lines(&games), trace_locks(&trace))
        };
        let (inside, inside_locks) = run("gamepad+nes-plateau@2", "native");
        // The same server's native API, asked with each position's level, timeline, input
        // model and entry delay, under the console's rule: the same games too.
        let http = format!(
            "gamepad+http:http://{} gamepad+nes-plateau@2",
            server.address
        );
        for (name, file) in [(name.as_str(), "sr"), (http.as_str(), "http")] {
            let (outside, outside_locks) = run(name, file);
            for (a, b) in outside.iter().zip(&inside) {
                assert_eq!(game_facts(a), game_facts(b), "{name} {timeline}");
            }
            assert_eq!(outside_locks, inside_locks, "{name} {timeline}");
            assert!(outside_locks.len() > 200, "{name} {timeline}");
        }
    }
    // A server answers about a piece from its spawn: no re-plan, so no reaction time.
    let line = common::fail("nes", &[&name, "--games", "1", "--reaction-frames", "12"]);
    assert!(
        line.contains("a server cannot play with a reaction time"),
        "{line}"
    );
    // By default the arena plays each answer's input sequence: every traced lock's frames are
    // the letters the server answers get-move for that position (a later piece's exactly; the
    // game's first piece floats through its entry delay, so its letters are followed by
    // empty frames to the lock). The server's paths press as early as they can, lock on
    // other frames than the searcher's, and so the randomizer, which runs every frame, deals
    // other pieces than the benchmark's.
    let name = format!("gamepad+stackrabbit:http://{}", server.address);
    let trace = folder.join("inputs.trace.jsonl");
    let settings = ["--games", "1", "--seed", "1", "--timeline", "X."];
    let files = ["--trace", trace.to_str().unwrap()];
    succeed("nes", &[&[name.as_str()][..], &settings, &files].concat());
    let locks = trace_locks(&trace);
    for lock in locks.iter().take(40) {
        let rows: Vec<&str> = lock["board"]
            .as_array()
            .unwrap()
            .iter()
            .map(|row| row.as_str().unwrap())
            .collect();
        let query = format!(
            "/get-move?board={}&currentPiece={}&nextPiece={}&level={}&lines={}&inputFrameTimeline=X.",
            common::server::cells(&rows),
            lock["placement"]["piece"].as_str().unwrap(),
            lock["preview"].as_str().unwrap(),
            lock["level"],
            lock["lines"],
        );
        let answer = server.get(&query).body;
        let letters = answer
            .split('|')
            .nth(1)
            .unwrap()
            .trim_end_matches(['*', '^']);
        let played: String = lock["placement"]["path"]
            .as_str()
            .unwrap()
            .split(' ')
            .map(|frame| match frame {
                "F0" => '.',
                "F1" => 'L',
                "F2" => 'R',
                "F4" => 'D',
                "F8" => 'A',
                "F16" => 'B',
                "F9" => 'E',
                "F17" => 'F',
                "F10" => 'I',
                "F18" => 'G',
                other => panic!("{other} has no letter"),
            })
            .collect();
        if lock["piece"] == 1 {
            assert!(played.starts_with(letters), "{played} {letters}");
            assert!(played[letters.len()..].chars().all(|frame| frame == '.'));
        } else {
            assert_eq!(played, letters, "piece {}", lock["piece"]);
        }
    }
}
