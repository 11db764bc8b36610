//! The page's jobs, JSON in and JSON out, in plain Rust (so `cargo test` runs them natively):
//! the strategies, a position's analysis and rating (the move server's bodies and answers,
//! [`tetris_arena_jobs::api`]), a whole game, and a game stepped a few placements at a time for the
//! live views.
//!
//! A body is the server's, with one difference ([`page_body`]): a number field may hold the
//! text the user typed (a form field, or a value of a shared link), which is read by the
//! option's own parser, so `seed=abc` or `max=-5` gets the command line's message for the same
//! value instead of being dropped or clamped by the page.

use serde::Serialize;
use thiserror::Error as ThisError;

use tetris_arena_games::sim::game::{GameEnd, GameSettings, LiveGame, PlayOptions};
use tetris_arena_games::sim::replay::frames::path_states;
use tetris_arena_io::Words;
use tetris_arena_io::output::MadeBy;
use tetris_arena_io::values::{self, BoardHeight, Level, MaxPieces, TopCount, ValueError};
use tetris_arena_jobs::JobError as ArenaJobError;
use tetris_arena_jobs::api::{self, BodyError, PlayBody, PositionBody};
use tetris_arena_jobs::list::ListJson;
use tetris_core::{FrameTiming, Piece};
use tetris_registry::Strategy;

/// What the page's results say made them: the front end, then the job's body.
pub const FRONT_END: &str = "arena web page:";

/// Why a job failed: its one-line message is the command line's for the same mistake, with
/// each field named as the JSON body names it ([`JobError::message`]).
#[derive(Debug, ThisError)]
pub enum JobError {
    /// The body is not the job's JSON.
    #[error(transparent)]
    Body(#[from] BodyError),
    /// The request layer refused the request, or the game failed.
    #[error(transparent)]
    Arena(#[from] ArenaJobError),
}

impl JobError {
    /// The message the page shows: the command line's, each field named as the body names it
    /// (`board_height 3 is outside 4..=32`).
    pub fn message(&self) -> String {
        Words::Json.message(self)
    }
}

impl From<tetris_arena_games::GameError> for JobError {
    /// A game that failed is the job's failure, as the command line says it.
    fn from(error: tetris_arena_games::GameError) -> JobError {
        JobError::Arena(error.into())
    }
}

/// The number fields a page body may give as typed text, each read by its option's parser.
pub const TYPED_FIELDS: [&str; 5] = ["seed", "board_height", "max_pieces", "level", "top"];

/// The number of a field's typed `text` ([`TYPED_FIELDS`]): the value the option's parser
/// reads (`--seed`'s, `--board-height`'s …), with its message for a value it refuses.
fn typed_number(field: &str, text: &str) -> Result<serde_json::Value, ValueError> {
    Ok(match field {
        "seed" => values::seed(text)?.into(),
        "board_height" => text.parse::<BoardHeight>()?.get().into(),
        "max_pieces" => text.parse::<MaxPieces>()?.get().into(),
        "level" => text.parse::<Level>()?.get().into(),
        // `top` is the only other typed field.
        _ => text.parse::<TopCount>()?.get().into(),
    })
}

/// The server's body of a page's `body`: each field of [`TYPED_FIELDS`] that holds text
/// becomes the number its option's parser reads; the rest is left for the body's reader (which
/// also says what is wrong with a body that is no JSON object).
pub fn page_body(body: &str) -> Result<String, JobError> {
    let Ok(serde_json::Value::Object(mut fields)) = serde_json::from_str(body) else {
        return Ok(body.to_string());
    };
    for field in TYPED_FIELDS {
        if let Some(serde_json::Value::String(text)) = fields.get(field) {
            let number = typed_number(field, text).map_err(ArenaJobError::from)?;
            fields.insert(field.to_string(), number);
        }
    }
    Ok(serde_json::Value::Object(fields).to_string())
}

/// Every searcher, evaluator (with presets), generator, option and rule, as `arena list
/// --json`.
pub fn strategies() -> String {
    MadeBy::during(format!("{FRONT_END} strategies"), || {
        serde_json::to_string(&ListJson::current()).expect("the list serializes")
    })
}

/// The orientation table the page draws pieces with: `[piece][rotation][cell] = [dx, dy]`,
/// pieces in the order T J Z O S L I.
pub fn shapes() -> String {
    let shapes: Vec<Vec<[[i8; 2]; 4]>> = Piece::ALL
        .iter()
        .map(|piece| {
            (0..4)
                .map(|rotation| piece.cells(rotation).map(|(dx, dy)| [dx, dy]))
                .collect()
        })
        .collect();
    serde_json::to_string(&shapes).expect("numbers serialize")
}

/// A position's ranked placements: the body and answer of the server's `/v1/analyze`.
pub fn analyze(body: &str) -> Result<String, JobError> {
    let body: PositionBody = api::read_body(page_body(body)?.as_bytes())?;
    let answer = api::analyze(body)?;
    Ok(serde_json::to_string(&answer).expect("answers serialize"))
}

/// A player's placement rated against the best: the body and answer of `/v1/rate`.
pub fn rate(body: &str) -> Result<String, JobError> {
    let body: PositionBody = api::read_body(page_body(body)?.as_bytes())?;
    let answer = api::rate(body)?;
    Ok(serde_json::to_string(&answer).expect("answers serialize"))
}

/// A whole game: the body of `/v1/play`, answered as `arena play --json`.
pub fn play(body: &str) -> Result<String, JobError> {
    let body: PlayBody = api::read_body(page_body(body)?.as_bytes())?;
    Ok(api::play(body, FRONT_END, &mut || true)?)
}

/// A game the page plays a few placements at a time (Watch and Duel): made from the body of
/// `/v1/play`, checked by the same request layer, and the same game as `arena play` plays.
pub struct SteppedGame {
    strategy: Strategy,
    settings: GameSettings,
    game: LiveGame,
    /// The timing its gamepad paths are followed at (`None`: paths of moves).
    timing: Option<FrameTiming>,
    /// The last step's placements, packed ([`PACKED_FIELDS`]).
    packed: Vec<i32>,
}

/// The game's facts, given once when it is made.
#[derive(Serialize)]
struct GameFacts<'a> {
    strategy: String,
    depth: usize,
    settings: &'a GameSettings,
    /// The game's level before the first clear: 0, or a gravity-aware searcher's gravity's
    /// first level (the level its score counts from).
    start_level: u8,
}

/// The numbers of one placement in a step's packed placements ([`SteppedGame::placements`]),
/// in this order: the piece (its index, T J Z O S L I = 0 … 6), pivot x, pivot y, rotation, the
/// rows it cleared, then the game's lines, score and level after it (the game's one level, the
/// level its score counts from and its gravity's: [`LiveGame::level`]), and how many numbers of its path's
/// states follow (x, y, rotation of the path's start and after each input; 0 without a path).
/// Numbers, not JSON: at full speed, writing and reading a step's JSON took a third of the
/// page's time for the fastest strategies.
pub const PACKED_FIELDS: [&str; 9] = [
    "piece", "x", "y", "rotation", "cleared", "lines", "score", "level", "states",
];

/// What a step answers besides its placements.
#[derive(Serialize)]
struct StepAnswer {
    /// How many placements it played.
    count: usize,
    /// The pieces the strategy sees next (the preview).
    next: Vec<Piece>,
    /// Why the game ended (`game_over`, `piece_cap`, `sequence_ended`), or null.
    end: Option<&'static str>,
    /// The end in words.
    end_text: Option<String>,
}

impl SteppedGame {
    /// The game of `body` (the `/v1/play` body), before its first piece; `paths`: find
    /// each placement's input path, to animate it (the game is the same without).
    pub fn new(body: &str, paths: bool) -> Result<SteppedGame, JobError> {
        let body: PlayBody = api::read_body(page_body(body)?.as_bytes())?;
        let checked = body.request()?.check()?;
        let options = PlayOptions {
            keep_placements: false,
            keep_paths: paths,
            keep_evaluations: false,
        };
        let game = LiveGame::new(&checked.strategy, &checked.settings, options)?;
        let timing = checked.strategy.frame_timing();
        Ok(SteppedGame {
            strategy: checked.strategy,
            settings: checked.settings,
            game,
            timing,
            packed: Vec::new(),
        })
    }

    /// The strategy's canonical name, its depth and the game's settings, as JSON.
    pub fn facts(&self) -> String {
        serde_json::to_string(&GameFacts {
            strategy: self.strategy.name(),
            depth: self.strategy.depth(),
            settings: &self.settings,
            start_level: self.game.start_level(),
        })
        .expect("settings serialize")
    }

    /// Plays up to `count` placements (fewer if the game ends); as JSON, how many, the
    /// preview and the end if any. The placements themselves, with their path's states and
    /// the counts after each, are [`SteppedGame::placements`].
    pub fn step(&mut self, count: u32) -> Result<String, JobError> {
        let start = self.strategy.path_start();
        let timing = self.timing;
        self.packed.clear();
        let mut played = 0;
        for _ in 0..count {
            if self.game.end().is_some() {
                break;
            }
            let mut shown = None;
            let before = *self.game.board();
            self.game.step(&mut self.strategy, &mut |step| {
                shown = Some((step.placement.clone(), step.lines, step.score, step.level));
                std::ops::ControlFlow::Continue(())
            })?;
            if let Some((placement, lines, score, level)) = shown {
                let states = placement
                    .path
                    .as_deref()
                    .and_then(|path| path_states(&before, placement.piece, path, start, timing));
                let states = states.unwrap_or_default();
                self.packed.extend([
                    placement.piece.index() as i32,
                    i32::from(placement.x),
                    i32::from(placement.y),
                    i32::from(placement.rotation),
                    i32::from(placement.cleared),
                    // At most 4 rows a piece: a game's lines fit an i32 (at most 100,000 pieces).
                    lines as i32,
                    score as i32,
                    i32::from(level),
                    states.len() as i32,
                ]);
                self.packed
                    .extend(states.iter().map(|&number| i32::from(number)));
                played += 1;
            }
        }
        let end = self.game.end();
        let answer = StepAnswer {
            count: played,
            next: self.game.upcoming().to_vec(),
            end: end.map(GameEnd::name),
            end_text: end.map(|end| {
                end.describe(
                    self.settings.max_pieces.map(|cap| cap.get()),
                    self.settings.game_over_rule,
                )
            }),
        };
        Ok(serde_json::to_string(&answer).expect("steps serialize"))
    }

    /// The last step's placements, packed ([`PACKED_FIELDS`] for each, then its states).
    pub fn placements(&self) -> &[i32] {
        &self.packed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn parse(text: &str) -> Value {
        serde_json::from_str(text).unwrap()
    }

    /// A step's packed placements as JSON objects, as the page's worker unpacks them.
    fn unpack(packed: &[i32]) -> Vec<Value> {
        let mut placements = Vec::new();
        let mut rest = packed;
        while !rest.is_empty() {
            let (numbers, after) = rest.split_at(PACKED_FIELDS.len());
            let mut placement = serde_json::Map::new();
            for (name, &number) in PACKED_FIELDS.iter().zip(numbers) {
                placement.insert(name.to_string(), json!(number));
            }
            placement["piece"] = json!(Piece::ALL[numbers[0] as usize]);
            let (states, after) = after.split_at(numbers[8] as usize);
            placement["states"] = match states.is_empty() {
                true => Value::Null,
                false => json!(states),
            };
            placements.push(Value::Object(placement));
            rest = after;
        }
        placements
    }

    /// Steps `game` `chunk` placements at a time to its end; every placement stepped, and the
    /// last step's answer.
    fn step_to_end(game: &mut SteppedGame, chunk: u32) -> (Vec<Value>, Value) {
        let mut placements = Vec::new();
        loop {
            let step = parse(&game.step(chunk).unwrap());
            let unpacked = unpack(game.placements());
            assert_eq!(unpacked.len() as u64, step["count"].as_u64().unwrap());
            placements.extend(unpacked);
            if !step["end"].is_null() {
                return (placements, step);
            }
        }
    }

    #[test]
    fn a_stepped_game_is_the_whole_games_placements_in_any_chunks() {
        let body = json!({"strategy": "bfs+elashi@2", "generator": "java", "seed": 1,
            "max_pieces": 60})
        .to_string();
        let whole = parse(&play(&body).unwrap());
        for chunk in [1, 7, 60, 1000] {
            let mut game = SteppedGame::new(&body, chunk % 2 == 1).unwrap();
            let (placements, last) = step_to_end(&mut game, chunk);
            assert_eq!(placements.len(), 60);
            for (stepped, played) in placements
                .iter()
                .zip(whole["placements"].as_array().unwrap())
            {
                for field in ["piece", "x", "y", "rotation", "cleared"] {
                    assert_eq!(stepped[field], played[field], "chunk {chunk}");
                }
            }
            assert_eq!(last["end"], "piece_cap");
            assert_eq!(last["end_text"], "piece cap reached (60)");
            assert_eq!(placements[59]["lines"], whole["lines"]);
            assert_eq!(placements[59]["score"], whole["score"]);
        }
        // The first pieces of java seed 1 (the core's JVM-checked vector).
        let letters: String = whole["placements"].as_array().unwrap()[..10]
            .iter()
            .map(|placement| placement["piece"].as_str().unwrap())
            .collect();
        assert_eq!(letters, "SSJTIITJOI");
        assert!(
            whole["made_by"]["command"]
                .as_str()
                .unwrap()
                .starts_with(FRONT_END)
        );
    }

    #[test]
    fn stepped_placements_carry_the_states_of_their_path() {
        for strategy in ["bfs+elashi@2", "gamepad+nes-plateau@2"] {
            let body = json!({"strategy": strategy, "seed": 3, "max_pieces": 12}).to_string();
            let mut game = SteppedGame::new(&body, true).unwrap();
            let (placements, _) = step_to_end(&mut game, 5);
            for placement in &placements {
                let states: Vec<i64> = placement["states"]
                    .as_array()
                    .unwrap_or_else(|| panic!("{strategy}: {placement}"))
                    .iter()
                    .map(|value| value.as_i64().unwrap())
                    .collect();
                // The spawn state first (pivot (5, 0), rotation 0), the placement last.
                assert_eq!(states[..3], [5, 0, 0]);
                let end = [&placement["x"], &placement["y"], &placement["rotation"]]
                    .map(|value| value.as_i64().unwrap());
                assert_eq!(states[states.len() - 3..], end, "{strategy}");
            }
        }
        let body = json!({"strategy": "bfs+elashi", "max_pieces": 3}).to_string();
        let mut game = SteppedGame::new(&body, false).unwrap();
        game.step(3).unwrap();
        assert!(unpack(game.placements())[0]["states"].is_null());
    }

    #[test]
    fn the_level_shown_is_the_games_one_level_and_its_score_counts_from_it() {
        // Without gravity, level 0 and one more every 10 lines (NES from level 0).
        let body = json!({"strategy": "bfs+elashi", "seed": 1, "max_pieces": 120}).to_string();
        let mut game = SteppedGame::new(&body, false).unwrap();
        assert_eq!(parse(&game.facts())["start_level"], 0);
        let (placements, _) = step_to_end(&mut game, 50);
        assert!(placements.last().unwrap()["lines"].as_u64().unwrap() >= 10);
        for placement in &placements {
            let lines = placement["lines"].as_u64().unwrap();
            assert_eq!(placement["level"].as_u64().unwrap(), lines / 10);
        }
        // The gamepad falls at level 19's gravity (2 frames per row): level 19 until the NES
        // rule's first level-up from 19, at 140 lines.
        let body = json!({"strategy": "gamepad+nes-plateau@2", "max_pieces": 20}).to_string();
        let mut game = SteppedGame::new(&body, false).unwrap();
        assert_eq!(parse(&game.facts())["start_level"], 19);
        let (placements, _) = step_to_end(&mut game, 20);
        assert!(placements.iter().all(|placement| placement["level"] == 19));
        // ... and its score counts from that level: each clear is worth (19 + 1) times its
        // level-0 points (docs/spec/rules.md), as `arena play` scores it.
        let body = json!({"strategy": "gamepad+nes-plateau@2", "seed": 1, "max_pieces": 60});
        let mut game = SteppedGame::new(&body.to_string(), false).unwrap();
        let (placements, _) = step_to_end(&mut game, 60);
        let mut level_0 = 0;
        for placement in &placements {
            level_0 += [0, 40, 100, 300, 1200][placement["cleared"].as_u64().unwrap() as usize];
            assert_eq!(placement["score"], 20 * level_0);
        }
        assert!(level_0 > 0, "the game clears rows");
        assert_eq!(
            parse(&play(&body.to_string()).unwrap())["score"],
            placements.last().unwrap()["score"]
        );
    }

    #[test]
    fn bad_bodies_get_the_request_layers_messages() {
        let error = |result: Result<SteppedGame, JobError>| match result {
            Err(error) => error.to_string(),
            Ok(_) => panic!("refused"),
        };
        assert!(
            error(SteppedGame::new(
                r#"{"strategy": "nope+elashi", "max_pieces": 5}"#,
                false
            ))
            .contains("unknown searcher")
        );
        assert!(
            error(SteppedGame::new("[1]", false)).starts_with("the body is not the JSON expected")
        );
        let unbounded = json!({"strategy": "bfs+elashi"}).to_string();
        assert!(error(SteppedGame::new(&unbounded, false)).contains("max_pieces"));
        let analysis = analyze(r#"{"strategy": "bfs+elashi", "board": [], "current": "T"}"#);
        assert!(analysis.is_err());
    }

    #[test]
    fn typed_fields_are_read_by_their_options_parsers_and_refused_with_their_messages() {
        let error = |body: Value| match SteppedGame::new(&body.to_string(), false) {
            Err(error) => error.to_string(),
            Ok(_) => panic!("{body} is refused"),
        };
        // The link `#seed=abc&height=99&max=-5`, field by field: each value gets the message
        // of the request layer's parser for it, naming the value, not a clamped game.
        let game = |seed: &str, height: &str, max: &str| {
            json!({"strategy": "bfs+elashi", "seed": seed, "board_height": height,
                "max_pieces": max})
        };
        let seed = error(game("abc", "20", "5"));
        assert_eq!(seed, values::seed("abc").unwrap_err().to_string());
        assert!(seed.contains("\"abc\""), "{seed}");
        let height = error(game("1", "99", "5"));
        assert_eq!(height, "99".parse::<BoardHeight>().unwrap_err().to_string());
        assert!(
            height.contains("99") && height.contains("4..=32"),
            "{height}"
        );
        let cap = error(game("1", "20", "-5"));
        assert_eq!(cap, "-5".parse::<MaxPieces>().unwrap_err().to_string());
        assert!(cap.contains("\"-5\""), "{cap}");
        // A cap the parser takes but the page's (the server's) request refuses.
        assert!(error(game("1", "20", "100001")).contains("100000"));
        // Typed numbers play the game of the same numbers, the largest seed exactly.
        let typed = game("18446744073709551615", "12", "30");
        let numbers = json!({"strategy": "bfs+elashi", "seed": u64::MAX, "board_height": 12,
            "max_pieces": 30});
        let mut first = SteppedGame::new(&typed.to_string(), false).unwrap();
        let mut second = SteppedGame::new(&numbers.to_string(), false).unwrap();
        assert_eq!(first.facts(), second.facts());
        assert_eq!(step_to_end(&mut first, 30), step_to_end(&mut second, 30));
        // Analyse's typed level and top, too.
        let position = |level: &str, top: &str| {
            json!({"strategy": "gamepad+nes-plateau", "board": vec![".........."; 20],
                "current": "T", "level": level, "top": top})
            .to_string()
        };
        let answer = parse(&analyze(&position("19", "3")).unwrap());
        assert_eq!(answer["placements"].as_array().map(Vec::len), Some(3));
        let level = analyze(&position("300", "3")).unwrap_err().to_string();
        assert_eq!(level, "300".parse::<Level>().unwrap_err().to_string());
        let top = analyze(&position("19", "0")).unwrap_err().to_string();
        assert_eq!(top, "0".parse::<TopCount>().unwrap_err().to_string());
    }

    #[test]
    fn bad_bodies_name_the_bodys_own_fields() {
        let game = |fields: Value| {
            let mut body = json!({"strategy": "bfs+elashi", "max_pieces": 5});
            for (field, value) in fields.as_object().unwrap() {
                body[field] = value.clone();
            }
            match SteppedGame::new(&body.to_string(), false) {
                Err(error) => error.message(),
                Ok(_) => panic!("refused: {body}"),
            }
        };
        let position = |strategy: &str, fields: Value| {
            let mut body = json!({"strategy": strategy, "board": "0".repeat(200), "current": "T"});
            for (field, value) in fields.as_object().unwrap() {
                body[field] = value.clone();
            }
            match analyze(&body.to_string()) {
                Err(error) => error.message(),
                Ok(_) => panic!("refused: {body}"),
            }
        };
        let gamepad = "gamepad+nes-plateau";
        let cases = [
            (
                game(json!({"board_height": 3})),
                "board_height 3 is outside 4..=32",
            ),
            (
                game(json!({"max_pieces": 0})),
                "max_pieces 0: a served game plays 1 to 100000 pieces (max_pieces is required)",
            ),
            (
                game(json!({"game_over": "nes"})),
                "game_over: unknown game-over rule \"nes\" (valid: simulation literature console)",
            ),
            (
                game(json!({"generator": "bag8"})),
                "generator: unknown generator \"bag8\" (valid: uniform nes bag7 sz java mdptetris file:PATH)",
            ),
            (
                position(gamepad, json!({"level": 256})),
                "level 256 is outside 0..=255",
            ),
            (
                position(gamepad, json!({"tap_rate": 1})),
                "tap_rate 1 is outside 2..=8 (frames between two presses of one thumb)",
            ),
            (
                position(gamepad, json!({"tap_rate": 2, "timeline": "X."})),
                "give tap_rate or timeline, not both",
            ),
            (
                position(gamepad, json!({"inputs": "x"})),
                "inputs: unknown input model \"x\" (valid: two-thumb article)",
            ),
            (
                position("bfs+elashi", json!({"level": 18})),
                "level, tap_rate, timeline, inputs and entry_delay are for gravity-aware searchers (gamepad); bfs ignores gravity",
            ),
            (
                position("bfs+elashi", json!({"top": 201})),
                "top 201 is outside 1..=200",
            ),
            (
                position("bfs+elashi", json!({"current": "t"})),
                "current \"t\" is not a piece: one letter of T J Z O S L I, upper case",
            ),
        ];
        for (message, expected) in cases {
            assert_eq!(message, expected);
        }
    }

    #[test]
    fn the_shapes_are_the_cores_orientation_table() {
        let shapes = parse(&shapes());
        // The O piece's cells are the same in every rotation; the I's spawn row is flat.
        let o = &shapes[3];
        assert!((1..4).all(|rotation| o[rotation] == o[0]));
        let i_spawn = shapes[6][0].as_array().unwrap();
        assert!(i_spawn.iter().all(|cell| cell[1] == i_spawn[0][1]));
        assert_eq!(
            parse(&strategies())["searchers"]
                .as_array()
                .map(Vec::is_empty),
            Some(false)
        );
    }
}
