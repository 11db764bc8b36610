//! `arena serve`'s StackRabbit endpoints over real HTTP, with requests as StackRabbit's clients
//! send them (tetrisfish's `engine-movelist` and `rate-move`, the FCEUX script's `get-move`),
//! checked against the native API's answer for the same position and against StackRabbit's
//! documented conventions (docs/stackrabbit.md): the placement triple `[rotation, x − 5, y]`,
//! the board after the move, the per-frame letters, two-decimal scores of minus our cost.

use crate::common;

use common::server::{Server, cells};
use serde_json::{Value, json};
use tetris_core::frames::FallingPiece;
use tetris_core::{Board, Buttons, Piece, PieceState};

/// The strategy the native answers are compared with, given to the server's StackRabbit
/// endpoints (whose default is the strongest NES bot).
const PLAIN: &str = "gamepad+nes-plateau@2";

/// A mid-game board, top row first, as 20 rows of `#`/`.`.
const ROWS: [&str; 20] = [
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
    "##...#....",
    "###.##...#",
    "####.##.##",
    "#####.####",
    "##.#######",
    "#########.",
];

/// StackRabbit's query for the position.
fn query(board: &str, current: &str, next: Option<&str>, level: u8, timeline: &str) -> String {
    let next = next.map_or(String::new(), |next| format!("&nextPiece={next}"));
    format!(
        "board={board}&currentPiece={current}{next}&level={level}&lines=0&inputFrameTimeline={timeline}"
    )
}

/// The native API's ranking of the same position under the same strategy, level and tap rate.
fn native(
    server: &Server,
    current: &str,
    preview: &[&str],
    level: u8,
    timeline: &str,
    top: u8,
) -> Value {
    let answer = server.post_json(
        "/v1/analyze",
        &json!({"strategy": "gamepad+nes-plateau@2", "board": ROWS, "current": current,
                "preview": preview, "level": level, "timeline": timeline, "top": top}),
    );
    assert_eq!(answer.status, 200, "{}", answer.body);
    answer.json()
}

/// StackRabbit's triple of a native placement: `[rotation, x − 5, y]` (docs/stackrabbit.md).
fn triple(placement: &Value) -> Value {
    json!([
        placement["rotation"],
        placement["x"].as_i64().unwrap() - 5,
        placement["y"]
    ])
}

/// The board after locking a native placement's cells and clearing full rows, as 200 cells.
fn board_after(rows: &[&str], placement: &Value) -> (String, usize) {
    let mut grid: Vec<Vec<bool>> = rows
        .iter()
        .map(|row| row.chars().map(|cell| cell == '#').collect())
        .collect();
    for cell in placement["cells"].as_array().unwrap() {
        let (x, y) = (cell[0].as_i64().unwrap(), cell[1].as_i64().unwrap());
        if y >= 0 {
            grid[y as usize][x as usize] = true;
        }
    }
    let kept: Vec<Vec<bool>> = grid
        .into_iter()
        .filter(|row| !row.iter().all(|&c| c))
        .collect();
    let cleared = 20 - kept.len();
    let mut text = "0".repeat(10 * cleared);
    for row in kept {
        text.extend(row.iter().map(|&full| if full { '1' } else { '0' }));
    }
    (text, cleared)
}

/// The buttons of one of StackRabbit's input letters (docs/stackrabbit.md).
fn buttons(letter: char) -> Buttons {
    match letter {
        '.' => Buttons::NONE,
        'L' => Buttons::LEFT,
        'R' => Buttons::RIGHT,
        'D' => Buttons::DOWN,
        'A' => Buttons::A,
        'B' => Buttons::B,
        'E' => Buttons::LEFT.with(Buttons::A),
        'F' => Buttons::LEFT.with(Buttons::B),
        'I' => Buttons::RIGHT.with(Buttons::A),
        'G' => Buttons::RIGHT.with(Buttons::B),
        other => panic!("no input letter {other:?}"),
    }
}

/// StackRabbit's entry delay after a lock at row shift `y`: min(18, 10 + 2 × ⌊(21 − y) / 4⌋)
/// with the lock height 20 − y (StackRabbit's `calculateEntryDelayFrames`).
fn entry_delay(y: i64) -> usize {
    (10 + 2 * ((20 - y + 1) / 4) as usize).min(18)
}

/// Plays `get-move`'s input sequence through the NES frame model (`FallingPiece`) on `rows`
/// at `level`, checking the grammar: a letter per frame up to and including the lock, then
/// `*` × (ARE − 5), `^` × 17 when the lock clears rows, `*` × 5. Gives the lock state.
fn play_sequence(
    rows: &[&str],
    piece: Piece,
    level: u8,
    sequence: &str,
    y: i64,
    clears: bool,
) -> PieceState {
    let board = Board::from_rows(rows).unwrap();
    let frames_per_row = tetris_core::scoring::frames_per_row(level) as u8;
    let mut falling = FallingPiece::spawn(piece, false, 0);
    let moves: String = sequence.chars().take_while(|&c| c != '*').collect();
    let mut lock = None;
    for (frame, letter) in moves.chars().enumerate() {
        assert_eq!(
            lock, None,
            "{sequence}: letters after the lock, frame {frame}"
        );
        lock = falling.frame(&board, buttons(letter), frames_per_row);
    }
    let lock = lock.unwrap_or_else(|| panic!("{sequence}: the piece has not locked"));
    let delay = entry_delay(y);
    let after = format!(
        "{}{}{}",
        "*".repeat(delay - 5),
        if clears {
            "^".repeat(17)
        } else {
            String::new()
        },
        "*".repeat(5)
    );
    assert_eq!(&sequence[moves.len()..], after, "{sequence}");
    lock
}

/// JavaScript's toFixed(2) of minus a native cost (the costs here are far from ties).
fn score(value: &Value) -> String {
    format!("{:.2}", -value.as_f64().unwrap())
}

#[test]
fn get_move_answers_the_native_best_move_in_stackrabbits_line() {
    let server = Server::start(&["--workers", "2", "--stackrabbit-strategy", PLAIN]);
    let board = cells(&ROWS);
    // The native request names the same timeline in its shortest spelling (the tap rate's
    // `X` and dots), or the mixed one as it is.
    for (current, next, level, timeline, native_timeline) in [
        ("T", Some("I"), 19, "X.", "X."),
        ("L", Some("O"), 18, "X...", "X..."),
        ("I", None, 29, "X..", "X.."),
        ("S", Some("Z"), 19, "X.X.", "X."),
        ("J", Some("T"), 19, "X....X...X...", "X....X...X..."),
    ] {
        let preview: Vec<&str> = next.into_iter().collect();
        let best =
            native(&server, current, &preview, level, native_timeline, 1)["placements"][0].clone();
        let answer = server.get(&format!(
            "/get-move?{}",
            query(&board, current, next, level, timeline)
        ));
        assert_eq!(answer.status, 200, "{}", answer.body);
        assert_eq!(answer.header("access-control-allow-origin"), Some("*"));
        let parts: Vec<&str> = answer.body.split('|').collect();
        assert_eq!(parts.len(), 5, "{}", answer.body);
        let placement: Vec<i64> = parts[0].split(',').map(|n| n.parse().unwrap()).collect();
        assert_eq!(json!(placement), triple(&best), "{current} {timeline}");
        let (after, cleared) = board_after(&ROWS, &best);
        assert_eq!(parts[2], after);
        assert_eq!(parts[4], cleared.to_string());
        // The level stays below StackRabbit's first transition (lines 0 + at most 4).
        assert_eq!(parts[3], level.to_string());
        // The sequence, played through the frame model, locks the piece where the native
        // best move is, and ends with the frames to the next piece.
        let piece: Piece = current.parse().unwrap();
        let lock = play_sequence(&ROWS, piece, level, parts[1], placement[2], cleared > 0);
        assert_eq!(
            (
                i64::from(lock.x),
                i64::from(lock.y),
                i64::from(lock.rotation)
            ),
            (
                best["x"].as_i64().unwrap(),
                best["y"].as_i64().unwrap(),
                best["rotation"].as_i64().unwrap()
            ),
            "{current} {timeline}: {}",
            parts[1]
        );
    }
}

#[test]
fn get_move_at_level_18_acts_from_frame_0_and_counts_every_frame_to_the_next_piece() {
    let server = Server::start(&["--workers", "1", "--stackrabbit-strategy", PLAIN]);
    let empty = [".........."; 20];
    let mut tetris_rows = empty;
    for row in &mut tetris_rows[16..] {
        *row = "#########.";
    }
    for (rows, piece, clears) in [
        (empty, "T", false),
        (empty, "L", false),
        (tetris_rows, "I", true),
    ] {
        let answer = server.get(&format!(
            "/get-move?{}",
            query(&cells(&rows), piece, None, 18, "X.")
        ));
        assert_eq!(answer.status, 200, "{}", answer.body);
        let parts: Vec<&str> = answer.body.split('|').collect();
        let placement: Vec<i64> = parts[0].split(',').map(|n| n.parse().unwrap()).collect();
        let sequence = parts[1];
        // The best move on an empty board is away from the spawn, so it starts at once.
        assert_ne!(&sequence[..1], ".", "{piece}: {sequence}");
        play_sequence(
            &rows,
            piece.parse().unwrap(),
            18,
            sequence,
            placement[2],
            clears,
        );
        if clears {
            assert_eq!(parts[4], "4", "the I clears the four rows: {}", answer.body);
        }
    }
}

#[test]
fn engine_movelist_answers_tetrisfish_s_request_with_the_native_ranking() {
    let server = Server::start(&["--workers", "2", "--stackrabbit-strategy", PLAIN]);
    let board = cells(&ROWS);
    // tetrisfish's request: engine-movelist with the preview piece, level 19, 30 Hz.
    let answer = server.get(&format!(
        "/engine-movelist?{}",
        query(&board, "T", Some("I"), 19, "X.")
    ));
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert_eq!(answer.header("content-type"), Some("application/json"));
    let pairs = answer.json();
    let pairs = pairs.as_array().unwrap();
    let ranked = native(&server, "T", &["I"], 19, "X.", 8)["placements"].clone();
    assert_eq!(pairs.len(), 8);
    for (pair, ranked) in pairs.iter().zip(ranked.as_array().unwrap()) {
        // What tetrisfish reads: pair[0]["placement"], float(pair[0]["totalValue"]),
        // pair[1]["placement"], pair[1]["hypotheticalLines"].
        assert_eq!(pair[0]["placement"], triple(ranked));
        assert_eq!(pair[0]["totalValue"], score(&ranked["value"]));
        assert!(
            pair[0]["totalValue"]
                .as_str()
                .unwrap()
                .parse::<f64>()
                .is_ok()
        );
        assert_eq!(pair[1]["placement"], triple(&ranked["chain"][1]));
        assert_eq!(pair[1]["hypotheticalLines"], json!([]));
        for key in ["isSpecialMove", "evalExplanation", "evalScore"] {
            assert!(!pair[0][key].is_null(), "{key}");
        }
    }
    // Without the preview: single moves, valued with the current piece alone.
    let singles = server
        .get(&format!(
            "/engine-movelist?{}",
            query(&board, "T", None, 19, "X.")
        ))
        .json();
    let alone = native(&server, "T", &[], 19, "X.", 8)["placements"].clone();
    for (single, ranked) in singles
        .as_array()
        .unwrap()
        .iter()
        .zip(alone.as_array().unwrap())
    {
        assert_eq!(single["placement"], triple(ranked));
        assert_eq!(single["totalValue"], score(&ranked["value"]));
        assert_eq!(single["evalScore"], single["totalValue"]);
    }
    // The C++ shape: the corner's absolute row (y − 1 for T) and numbers.
    let cpp = server
        .get(&format!(
            "/engine-movelist-cpp?{}",
            query(&board, "T", Some("I"), 19, "X.")
        ))
        .json();
    let first = &cpp[0];
    let best = &ranked[0];
    assert_eq!(
        first["firstPlacement"],
        json!([
            best["rotation"],
            best["x"].as_i64().unwrap() - 5,
            best["y"].as_i64().unwrap() - 1
        ])
    );
    assert_eq!(
        format!("{:.2}", first["playoutScore"].as_f64().unwrap()),
        score(&best["value"])
    );
}

#[test]
fn rate_move_scores_the_move_that_leaves_the_second_board() {
    let server = Server::start(&["--workers", "2", "--stackrabbit-strategy", PLAIN]);
    let board = cells(&ROWS);
    let ranked = native(&server, "T", &["I"], 19, "X.", 2)["placements"].clone();
    let alone = native(&server, "T", &[], 19, "X.", 200)["placements"].clone();
    let value_alone = |placement: &Value| {
        alone
            .as_array()
            .unwrap()
            .iter()
            .find(|other| other["cells"] == placement["cells"])
            .map(|other| score(&other["value"]))
            .unwrap()
    };
    // The player plays the second-best two-piece move.
    let played = &ranked[1];
    let (second_board, _) = board_after(&ROWS, played);
    let answer = server.get(&format!(
        "/rate-move?{}&secondBoard={second_board}",
        query(&board, "T", Some("I"), 19, "X.")
    ));
    assert_eq!(answer.status, 200, "{}", answer.body);
    let scores = answer.json();
    assert_eq!(scores["playerMoveAfterAdjustment"], score(&played["value"]));
    assert_eq!(
        scores["bestMoveAfterAdjustment"],
        score(&ranked[0]["value"])
    );
    assert_eq!(scores["playerMoveNoAdjustment"], value_alone(played));
    assert_eq!(scores["bestMoveNoAdjustment"], score(&alone[0]["value"]));
    // A second board no placement leaves: the player's score is unknown.
    let unknown = server
        .get(&format!(
            "/rate-move?{}&secondBoard={board}",
            query(&board, "T", None, 19, "X.")
        ))
        .json();
    assert_eq!(
        unknown,
        json!({"playerMoveNoAdjustment": "Unknown score", "bestMoveNoAdjustment": score(&alone[0]["value"])})
    );
}

#[test]
fn the_compressed_board_and_the_small_requests_answer_as_stackrabbit_does() {
    let server = Server::start(&["--workers", "1", "--stackrabbit-strategy", PLAIN]);
    // StackRabbit's own example: 15 empty rows, 1110000000, 1111000000, three rows 1111111110.
    let expanded = format!(
        "{}{}{}{}",
        "0".repeat(150),
        "1110000000",
        "1111000000",
        "1111111110".repeat(3)
    );
    let compressed = server.get(&format!(
        "/get-move?{}",
        query("15,CaEa,3", "I", None, 18, "X.")
    ));
    let plain = server.get(&format!(
        "/get-move?{}",
        query(&expanded, "I", None, 18, "X.")
    ));
    assert_eq!(compressed.status, 200, "{}", compressed.body);
    assert_eq!(compressed.body, plain.body);
    assert_eq!(server.get("/ping").body, "pong");
    assert_eq!(
        server.get("/version").json(),
        json!({"jsVersion": env!("CARGO_PKG_VERSION"), "cppVersion": env!("CARGO_PKG_VERSION")})
    );
    let eval = server.get(&format!("/eval?{}", query(&expanded, "I", None, 18, "X.")));
    let best = server.post_json(
        "/v1/analyze",
        &json!({"strategy": "gamepad+nes-plateau@2", "board": expanded, "current": "I",
                "level": 18, "tap_rate": 2, "top": 1}),
    );
    assert_eq!(eval.body, score(&best.json()["placements"][0]["value"]));
}

#[test]
fn bad_stackrabbit_requests_answer_400_in_plain_text_with_stackrabbits_messages() {
    let server = Server::start(&["--workers", "1", "--stackrabbit-strategy", PLAIN]);
    let board = cells(&ROWS);
    let base = query(&board, "T", None, 19, "X.");
    for (request, status, message) in [
        (format!("/get-move?{}", base.replace("currentPiece=T", "currentPiece=Q")), 400, "Unknown current piece:Q".to_string()),
        (format!("/get-move?{}", base.replace("level=19", "level=17")), 400, "Currently only 18, 19, and 29 starts are supported by StackRabbit. Requested: 17".to_string()),
        (format!("/get-move?{}&reactionTime=61", base), 400, "Reaction time exceeds the maximum possible of 60 frames. Did you accidentally send it in millseconds?".to_string()),
        (format!("/get-move-cpp?{}&lookaheadDepth=0", base), 400, "Parameter 'lookaheadDepth' does not apply to C++ queries, please provide values for playoutCount and playoutLength instead.".to_string()),
        (format!("/get-move?{}", base.replace("X.", "X*")), 400, "Invalid input frame timeline: X*".to_string()),
        (
            format!("/get-move?{}", base.replace("X.", "X..X")),
            400,
            tetris_arena_io::values::timeline("X..X").unwrap_err().to_string(),
        ),
        ("/get-movee?board=0".to_string(), 404, "Please specify the request type, e.g. 'get-move' or 'rate-move'. Received: get-movee".to_string()),
    ] {
        let answer = server.get(&request);
        assert_eq!(answer.status, status, "{request}: {}", answer.body);
        assert_eq!(answer.body, message, "{request}");
        assert!(answer.header("content-type").unwrap().starts_with("text/plain"));
    }
    let refused = server.get(&format!("/get-move?{}&existingXOffset=2", base));
    assert_eq!(refused.status, 400);
    assert!(
        refused
            .body
            .starts_with("Parameter existingXOffset=2 is not supported by this server"),
        "{}",
        refused.body
    );
}

/// A score as an analyser reads it: a number, or `None` for "Unknown score".
fn read_score(value: &Value) -> Option<f64> {
    let text = value.as_str().expect("scores are strings");
    (text != "Unknown score").then(|| text.parse().expect("a score reads as a number"))
}

#[test]
fn an_analysers_calls_answer_200_with_the_fields_it_reads() {
    // The calls tetrisfish makes (engine-movelist with and without the next piece, rate-move
    // at lookahead depths 0 and 1), at 30 Hz and a mixed timeline, with and without a
    // reaction time, read as it reads them.
    let server = Server::start(&["--workers", "2"]);
    let board = cells(&ROWS);
    for (timeline, reaction) in [("X.", 0), ("X....X...X...", 0), ("X.", 18)] {
        let extra = format!("&reactionTime={reaction}");
        for depth in [0, 1] {
            // engine-movelist with the next piece: pairs, the first five read.
            let request = format!(
                "/engine-movelist?{}&lookaheadDepth={depth}{extra}",
                query(&board, "T", Some("I"), 19, timeline)
            );
            let answer = server.get(&request);
            assert_eq!(answer.status, 200, "{request}: {}", answer.body);
            let pairs = answer.json();
            let pairs = pairs.as_array().unwrap();
            assert!(pairs.len() >= 5, "{request}");
            let mut previous = f64::INFINITY;
            for pair in &pairs[..5] {
                assert_eq!(pair[0]["placement"].as_array().unwrap().len(), 3);
                assert_eq!(pair[1]["placement"].as_array().unwrap().len(), 3);
                let total: f64 = pair[0]["totalValue"].as_str().unwrap().parse().unwrap();
                assert!(total <= previous, "best first: {request}");
                previous = total;
                let lines = pair[1]["hypotheticalLines"].as_array().unwrap();
                if depth == 0 {
                    assert!(lines.is_empty());
                    continue;
                }
                // Seven lines after the I, with StackRabbit's odds (after an I: the S 12/64,
                // the I 2/64, the rest 10/64), and the move's value is their average.
                assert_eq!(lines.len(), 7);
                let mut average = 0.0;
                let mut odds = 0.0;
                for line in lines {
                    let piece = line["pieceSequence"].as_str().unwrap();
                    let probability = line["probability"].as_f64().unwrap();
                    let expected = match piece {
                        "S" => 12.0,
                        "I" => 2.0,
                        _ => 10.0,
                    } / 64.0;
                    assert_eq!(probability, expected, "{piece}");
                    assert_eq!(line["moveSequence"].as_array().unwrap().len(), 1);
                    assert_eq!(line["moveSequenceAsInputs"].as_array().unwrap().len(), 1);
                    average += probability * line["resultingValue"].as_f64().unwrap();
                    odds += probability;
                }
                assert_eq!(odds, 1.0);
                // Each line's value is rounded to two decimals: the average to within 0.01.
                assert!((average - total).abs() <= 0.01, "{average} against {total}");
            }
            // Without the next piece: single moves.
            let request = format!(
                "/engine-movelist?{}&lookaheadDepth={depth}{extra}",
                query(&board, "T", None, 19, timeline)
            );
            let answer = server.get(&request);
            assert_eq!(answer.status, 200, "{request}: {}", answer.body);
            let single = answer.json();
            assert!(single[0]["placement"].is_array(), "{request}");
            assert!(
                single[0]["totalValue"]
                    .as_str()
                    .unwrap()
                    .parse::<f64>()
                    .is_ok()
            );
            // rate-move of the third-best native move: the player's value is never above the
            // best, with the current piece alone and after the next piece.
            let player = native(&server, "T", &["I"], 19, timeline, 3)["placements"][2].clone();
            let (second_board, _) = board_after(&ROWS, &player);
            let request = format!(
                "/rate-move?{}&secondBoard={second_board}&lookaheadDepth={depth}{extra}",
                query(&board, "T", Some("I"), 19, timeline)
            );
            let answer = server.get(&request);
            assert_eq!(answer.status, 200, "{request}: {}", answer.body);
            let scores = answer.json();
            for (player, best) in [
                ("playerMoveNoAdjustment", "bestMoveNoAdjustment"),
                ("playerMoveAfterAdjustment", "bestMoveAfterAdjustment"),
            ] {
                let best = read_score(&scores[best]).expect("the best move has a score");
                let player = read_score(&scores[player]).expect("the player's move is found");
                assert!(player <= best, "{request}: {scores}");
            }
        }
        // get-move with the reaction time: the sequence plays to the placement it names.
        let request = format!(
            "/get-move?{}{extra}",
            query(&board, "L", Some("I"), 19, timeline)
        );
        let answer = server.get(&request);
        assert_eq!(answer.status, 200, "{request}: {}", answer.body);
        let parts: Vec<&str> = answer.body.split('|').collect();
        let placement: Vec<i64> = parts[0].split(',').map(|n| n.parse().unwrap()).collect();
        let cleared: usize = parts[4].parse().unwrap();
        play_sequence(&ROWS, Piece::L, 19, parts[1], placement[2], cleared > 0);
    }
}
