//! Messages in the caller's words, the command line's part: ten mistakes, each refused with a
//! message that names the option the caller typed (`--board-height 3 is outside 4..=32`),
//! an option the command's `--help` lists. The Python package's part is
//! `python/tests/test_bad_requests.py` (`CALLERS_WORDS`: keyword arguments), the move
//! server's `server::json_mistakes_name_the_bodys_own_fields` (the JSON bodies' fields);
//! docs/architecture.md, "Errors and their kinds", says how one message is written in each
//! front end's words.

use crate::common;

#[test]
fn command_line_mistakes_name_the_option_typed() {
    let board = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/boards/empty.txt");
    // (the command, its arguments, the option the message names, the message).
    let cases: [(&str, &[&str], &str, &str); 12] = [
        (
            "play",
            &["bfs+elashi", "--board-height", "3"],
            "--board-height",
            "--board-height 3 is outside 4..=32",
        ),
        (
            "play",
            &["bfs+elashi", "--max-pieces", "0"],
            "--max-pieces",
            "--max-pieces must be at least 1",
        ),
        (
            "play",
            &["bfs+elashi", "--game-over", "sometimes"],
            "--game-over",
            "--game-over: unknown game-over rule \"sometimes\" (valid: simulation literature \
             console)",
        ),
        (
            "tournament",
            &["bfs+elashi", "--games", "0"],
            "--games",
            "--games 0 is outside 1..=10000000",
        ),
        (
            "tournament",
            &["bfs+elashi", "--games", "2", "--shard", "0/2"],
            "--out",
            "--shard writes a part file: give --out PART.json (then `arena merge` the parts)",
        ),
        (
            "nes",
            &["gamepad+nes-plateau", "--games", "2", "--tap-rate", "9"],
            "--tap-rate",
            "--tap-rate 9 is outside 2..=8 (frames between two presses of one thumb)",
        ),
        (
            "nes",
            &["gamepad+nes-plateau", "--games", "2", "--to-level", "18"],
            "--to-level",
            "--to-level 18 must be above --start-level 19 and at most 255",
        ),
        (
            "nes",
            &["gamepad+nes-plateau", "--games", "2", "--max-lines", "0"],
            "--max-lines",
            "--max-lines must be at least 1",
        ),
        (
            "stats",
            &["bfs+elashi", "--pieces", "10", "--row", "middle"],
            "--row",
            "--row: unknown row rule \"middle\": use pivot or top",
        ),
        (
            "analyze",
            &["bfs+elashi", "--board", board, "--pieces", ""],
            "--pieces",
            "--pieces is empty: give the current piece first, e.g. --pieces T,J",
        ),
        (
            "analyze",
            &[
                "bfs+elashi",
                "--board",
                board,
                "--pieces",
                "T",
                "--level",
                "18",
            ],
            "--level",
            "--level, --tap-rate, --timeline, --inputs and --entry-delay are for gravity-aware \
             searchers (gamepad); bfs ignores gravity",
        ),
        (
            "sequence",
            &["--count", "0"],
            "--count",
            "--count must be at least 1",
        ),
    ];
    let mut options: Vec<&str> = cases.iter().map(|(_, _, option, _)| *option).collect();
    options.sort();
    options.dedup();
    assert!(options.len() >= 10, "{options:?}");
    for (command, args, option, message) in cases {
        let help = common::run(command, &["--help"]);
        let help = String::from_utf8_lossy(&help.stdout);
        assert!(
            help.contains(&format!("{option} ")),
            "arena {command} --help lists no {option}"
        );
        assert!(message.contains(option), "{message}");
        assert_eq!(
            common::fail(command, args),
            format!("error: {message}"),
            "arena {command} {args:?}"
        );
    }
}
