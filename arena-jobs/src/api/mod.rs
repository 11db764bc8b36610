//! The jobs as JSON: the bodies and answers of the move server's native API (`/v1/`) and of
//! the browser build (web/), and the jobs that turn one into the other. Each body is turned
//! into the command line's request ([`crate::analyze::AnalyzeRequest`],
//! [`crate::game::GameRequest`]) with the request layer's value parsers, checked
//! there (plus the rules of a front end that reads no file, [`crate::serve`]), and
//! run; the answer is built from the analysis or the game. One definition for both front
//! ends, so the server and the page cannot drift apart. The structs below are the API's
//! schema: the server's OpenAPI document is generated from them.

pub mod schema;

use std::ops::ControlFlow;

use web_time::Instant;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use tetris_core::{GeneratorKind, Piece, Placement};

use crate::analyze::{AnalyzeRequest, CheckedAnalysis, EXAMPLE_BOARD, FrameOptions};
use crate::error::JobError;
use crate::game::GameRequest;
use crate::game_report::PlayJson;
use crate::serve::{
    BoardText, ServeRequestError, check_served_generator, check_served_strategy, player_placement,
    served_piece_cap,
};
use tetris_arena_games::analysis::features::FeatureList;
use tetris_arena_games::analysis::position::{path_names, reported_cost, rule_name};
use tetris_arena_games::analysis::ranking::{RankedPlacement, Ranking, rank_placements};
use tetris_arena_games::sim::game::{GameEnd, PlayOptions, play_game};
use tetris_arena_games::sim::replay::frames::path_states;
use tetris_arena_io::Field;
use tetris_arena_io::output::MadeBy;
use tetris_arena_io::values::{self, BoardHeight, Level, MaxPieces, TopCount};

/// A position: the strategy, the board and the pieces, and how the decision is made.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(
    deny_unknown_fields,
    expecting = "a JSON object with strategy, board and current (docs/server.md)"
)]
#[schema(example = analyze_example)]
pub struct PositionBody {
    /// The strategy, as on the command line: `bfs+elashi@2`, `gamepad+nes-plateau@2`, …
    /// (built-in presets only: the server reads no files).
    #[schema(example = "bfs+elashi@2")]
    pub strategy: String,
    /// The board: `board_height` rows of 10 `#`/`.` characters, top row first, or one string of
    /// 10 × `board_height` `0`/`1` cells, top row first. No full row.
    #[schema(schema_with = schema::board)]
    pub board: BoardBody,
    /// The current piece: one letter of T J Z O S L I.
    #[schema(schema_with = schema::piece)]
    pub current: String,
    /// The preview pieces after it (at most the strategy's depth − 1).
    #[serde(default)]
    #[schema(schema_with = schema::pieces)]
    pub preview: Vec<String>,
    /// Rows of the field, 4 to 32 (default 20).
    #[schema(schema_with = schema::board_height)]
    pub board_height: Option<u64>,
    /// `simulation` or `literature` (default: the searcher's); `console` for gravity-aware
    /// searchers (gamepad).
    #[schema(schema_with = schema::position_game_over)]
    pub game_over: Option<String>,
    /// Gravity-aware searchers (gamepad): the level whose gravity the search simulates.
    #[schema(schema_with = schema::level)]
    pub level: Option<u64>,
    /// Gravity-aware searchers: frames between two presses of one thumb, 2 to 8.
    #[schema(schema_with = schema::tap_rate)]
    pub tap_rate: Option<u64>,
    /// Gravity-aware searchers: the player's input-frame timeline in StackRabbit's notation,
    /// `X.` (= tap rate 2) to `X.......` (= 8) or mixed (`X....X...X...`: 2 to 8 frames from
    /// each X to the next, at most 32 frames); not with `tap_rate`.
    pub timeline: Option<String>,
    /// Gravity-aware searchers: `two-thumb` or `article`.
    #[schema(schema_with = schema::inputs)]
    pub inputs: Option<String>,
    /// Gravity-aware searchers: the current piece is a game's first (it floats 96 frames).
    #[serde(default)]
    pub entry_delay: bool,
    /// How many ranked placements to list, 1 to 200 (default 5).
    #[schema(schema_with = schema::top)]
    pub top: Option<u64>,
    /// `/v1/rate` only: the player's placement.
    pub placement: Option<PlacementBody>,
    /// `/v1/analyze`: give each listed placement the `states` its piece passes through on its
    /// path, to animate it (default false).
    #[serde(default)]
    pub states: bool,
}

/// A board in a request: rows, or cells (its schema: [`schema::board`]).
#[derive(Clone, Debug, Deserialize)]
// Without `expecting`, serde's message would name the Rust type (`untagged enum BoardBody`).
#[serde(
    untagged,
    expecting = "board: a list of rows of 10 `#`/`.` characters, or one string of `0`/`1` cells"
)]
pub enum BoardBody {
    /// Rows of 10 `#`/`.` characters, top row first.
    Rows(Vec<String>),
    /// 10 × height `0`/`1` characters, top row first.
    Cells(String),
}

/// A placement as `arena analyze` prints it: pivot column `x`, pivot row `y` (0 at the top),
/// rotation (0 = spawn).
#[derive(Clone, Copy, Debug, Deserialize, ToSchema)]
#[serde(
    deny_unknown_fields,
    expecting = "a JSON object with x, y and rotation"
)]
pub struct PlacementBody {
    /// Pivot column.
    pub x: i64,
    /// Pivot row, 0 at the top.
    pub y: i64,
    /// Rotation index, 0 = spawn.
    pub rotation: i64,
}

/// A game to play: as `arena play --json`, with a required piece cap.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(
    deny_unknown_fields,
    expecting = "a JSON object with strategy and max_pieces (docs/server.md)"
)]
#[schema(example = play_example)]
pub struct PlayBody {
    /// The strategy.
    #[schema(example = "column-drop+dellacherie")]
    pub strategy: String,
    /// The generator's seed (default 0).
    #[schema(minimum = 0)]
    pub seed: Option<u64>,
    /// The generator (default `uniform`; `arena list` names them; not `file:`).
    pub generator: Option<String>,
    /// Rows of the field, 4 to 32 (default 20).
    #[schema(schema_with = schema::board_height)]
    pub board_height: Option<u64>,
    /// `simulation` or `literature` (default: the searcher's).
    #[schema(schema_with = schema::frameless_game_over)]
    pub game_over: Option<String>,
    /// The most pieces the game plays: required, 1 to 100,000
    /// ([`crate::serve::MAX_SERVED_PIECES`]).
    // Required in the document: a body without it is refused (the field is an `Option` so that
    // the refusal is the server's own message, not serde's).
    #[schema(schema_with = schema::max_pieces, required = true)]
    pub max_pieces: Option<u64>,
    /// Leave out the list of placements (default false).
    #[serde(default)]
    pub no_placements: bool,
}

/// One placement in an answer.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct PlacementAnswer {
    /// The piece's letter.
    #[schema(value_type = String)]
    pub piece: Piece,
    /// Pivot column.
    pub x: i8,
    /// Pivot row, 0 at the top.
    pub y: i8,
    /// Rotation index, 0 = spawn.
    pub rotation: u8,
    /// The four cells `[x, y]`.
    pub cells: [[i8; 2]; 4],
}

/// One ranked placement of the current piece.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct RankedAnswer {
    /// 1 + the placements with a strictly better chain (ties share a rank); null when no
    /// chain starts here.
    pub rank: Option<usize>,
    /// The placement.
    #[serde(flatten)]
    pub placement: PlacementAnswer,
    /// The cost of the best chain starting here (lower is better), as `arena analyze`'s
    /// `value`: null when no chain continues through every known piece.
    pub value: Option<f64>,
    /// Known placements in that chain.
    pub chain_length: Option<usize>,
    /// The evaluator's rule for that chain: `prefer`, `neutral` or `reject`.
    pub rule: Option<&'static str>,
    /// All of the evaluator's features of that chain, by name.
    #[schema(value_type = Option<Object>)]
    pub features: Option<FeatureList>,
    /// The input path from the spawn (`L R D CW CCW`, or `F<bits>` per gamepad frame: 1 left,
    /// 2 right, 4 down, 8 A, 16 B); null if the searcher gives none.
    pub path: Option<Vec<String>>,
    /// The best chain starting here, this placement first.
    pub chain: Vec<PlacementAnswer>,
    /// With `states` asked for: the piece's states along its path, flattened as x, y,
    /// rotation (the start, then after each input or frame); null when there is no path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub states: Option<Option<Vec<i8>>>,
}

/// `/v1/analyze`'s answer.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct AnalyzeAnswer {
    /// The strategy's canonical name.
    pub strategy: String,
    /// The known pieces used, current first.
    #[schema(value_type = Vec<String>)]
    pub pieces: Vec<Piece>,
    /// How many placements the current piece has.
    pub placement_count: usize,
    /// The `top` best placements, best first (empty: no placement, the game is over).
    pub placements: Vec<RankedAnswer>,
    /// Placements the searcher found over every search of the answer.
    pub nodes: u64,
    /// Time on the worker, in microseconds.
    pub microseconds: u64,
}

/// `/v1/rate`'s answer.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct RateAnswer {
    /// The strategy's canonical name.
    pub strategy: String,
    /// The known pieces used, current first.
    #[schema(value_type = Vec<String>)]
    pub pieces: Vec<Piece>,
    /// The player's placement.
    pub placement: PlacementAnswer,
    /// Whether the searcher reaches it (for gravity-aware searchers: at the given speed and
    /// level).
    pub reachable: bool,
    /// Its value (cost of the best chain starting there); null when unreachable or when no
    /// chain continues.
    pub value: Option<f64>,
    /// The best placement's value.
    pub best_value: Option<f64>,
    /// `value − best_value` (≥ 0).
    pub loss: Option<f64>,
    /// Its rank among all placements (1 = as good as the best).
    pub rank: Option<usize>,
    /// How many placements the current piece has.
    pub placement_count: usize,
    /// The best placement.
    pub best: Option<RankedAnswer>,
    /// Placements the searcher found over every search of the answer.
    pub nodes: u64,
    /// Time on the worker, in microseconds.
    pub microseconds: u64,
}

/// An error: one line, the command line's message for the same mistake.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ErrorAnswer {
    /// The message.
    pub error: String,
}

/// The position's analysis request, checked, and how many placements to detail.
// Non-exhaustive: outside this crate a value comes only from its request's check.
#[non_exhaustive]
pub struct CheckedPosition {
    analysis: CheckedAnalysis,
    top: usize,
    placement: Option<PlacementBody>,
    states: bool,
}

/// A position's ranking and, when asked for, the path states of its detailed placements.
pub struct RankedPosition {
    /// The ranking.
    pub ranking: Ranking,
    /// Per detailed placement, its path's states ([`path_states`]); empty when not asked.
    pub states: Vec<Option<Vec<i8>>>,
}

impl PlayBody {
    /// The command line's game request for this body (the server's rules checked: no file
    /// read, a bounded piece cap); its own check is the caller's.
    pub fn request(self) -> Result<GameRequest, JobError> {
        check_served_strategy(&self.strategy)?;
        let generator: GeneratorKind = match self.generator.as_deref() {
            Some(name) => values::generator(name)?,
            None => GeneratorKind::Uniform,
        };
        check_served_generator(&generator)?;
        let cap = served_piece_cap(self.max_pieces)?;
        Ok(GameRequest {
            strategy: self.strategy,
            generator,
            seed: self.seed.unwrap_or(0),
            max_pieces: Some(MaxPieces::try_from(cap)?),
            board_height: match self.board_height {
                Some(rows) => BoardHeight::try_from(rows)?,
                None => BoardHeight::default(),
            },
            game_over: self
                .game_over
                .as_deref()
                .map(values::game_over_rule)
                .transpose()?,
        })
    }
}

impl PositionBody {
    /// The command line's analysis request for this body, checked (with the server's rules:
    /// no file read); `Ok` says nothing was searched yet.
    pub fn check(self) -> Result<CheckedPosition, JobError> {
        check_served_strategy(&self.strategy)?;
        let height = match self.board_height {
            Some(rows) => BoardHeight::try_from(rows)?,
            None => BoardHeight::default(),
        };
        let board = match self.board {
            BoardBody::Rows(rows) => BoardText::Rows(rows),
            BoardBody::Cells(cells) => BoardText::Cells(cells),
        }
        .board(height)?;
        let mut pieces = vec![values::one_piece(Field::CURRENT, &self.current)?];
        for piece in &self.preview {
            pieces.push(values::one_piece(Field::PREVIEW, piece)?);
        }
        let timeline = values::tap_rate_or_timeline(self.tap_rate, self.timeline.as_deref())?;
        let level = self.level.map(Level::try_from).transpose()?;
        let top = match self.top {
            Some(top) => TopCount::try_from(top)?.get(),
            None => DEFAULT_TOP,
        };
        let analysis = AnalyzeRequest {
            strategy: self.strategy,
            board,
            board_name: "board".to_string(),
            pieces,
            all: false,
            game_over: self
                .game_over
                .as_deref()
                .map(values::game_over_rule)
                .transpose()?,
            frames: FrameOptions {
                level,
                timeline,
                inputs: self
                    .inputs
                    .as_deref()
                    .map(values::input_model)
                    .transpose()?,
                entry_delay: self.entry_delay,
            },
        }
        .check()?;
        Ok(CheckedPosition {
            analysis,
            top,
            placement: self.placement,
            states: self.states,
        })
    }
}

/// `/v1/analyze`'s example body.
fn analyze_example() -> serde_json::Value {
    serde_json::json!({
        "strategy": "bfs+elashi@2",
        "board": EXAMPLE_BOARD,
        "current": "T",
        "preview": ["L"],
    })
}

/// `/v1/rate`'s example body: the example position and a placement of its T (the third
/// best for `bfs+elashi@2`).
pub fn rate_example() -> serde_json::Value {
    let mut body = analyze_example();
    body["placement"] = serde_json::json!({"x": 2, "y": 14, "rotation": 1});
    body
}

/// `/v1/play`'s example body.
fn play_example() -> serde_json::Value {
    serde_json::json!({
        "strategy": "column-drop+dellacherie",
        "seed": 1,
        "max_pieces": 100,
    })
}

/// Placements listed when the request gives no `top`.
pub const DEFAULT_TOP: usize = 5;

impl CheckedPosition {
    /// The ranking of the position's placements.
    pub fn rank(self) -> RankedPosition {
        let CheckedAnalysis {
            mut strategy,
            board,
            pieces,
            context,
            ..
        } = self.analysis;
        let ranking = rank_placements(&mut strategy, &board, &pieces, context, self.top);
        let states = match self.states {
            false => Vec::new(),
            true => {
                let start = strategy.path_start();
                let timing = context.frame_timing.or(strategy.frame_timing());
                ranking.placements[..ranking.detailed]
                    .iter()
                    .map(|ranked| {
                        let path = ranked.path.as_deref()?;
                        path_states(&board, ranked.placement.piece, path, start, timing)
                    })
                    .collect()
            }
        };
        RankedPosition { ranking, states }
    }
}

impl PlacementAnswer {
    /// The answer for `placement`.
    pub fn of(placement: &Placement) -> PlacementAnswer {
        PlacementAnswer {
            piece: placement.piece,
            x: placement.x,
            y: placement.y,
            rotation: placement.rotation,
            cells: placement.cells.map(|(x, y)| [x, y]),
        }
    }
}

impl RankedAnswer {
    /// The answer for `ranked`, a placement of a decision over `known` pieces.
    pub fn of(ranked: &RankedPlacement, known: usize) -> RankedAnswer {
        RankedAnswer {
            rank: ranked.rank,
            placement: PlacementAnswer::of(&ranked.placement),
            value: reported_cost(ranked.value, known),
            chain_length: ranked.value.map(|value| value.length),
            rule: ranked.value.map(|value| rule_name(value.rule)),
            features: ranked.features.clone(),
            path: path_names(ranked.path.as_deref()),
            chain: ranked.chain.iter().map(PlacementAnswer::of).collect(),
            states: None,
        }
    }
}

/// A body that is not the JSON its job reads.
#[derive(Debug, thiserror::Error)]
#[error("the body is not the JSON expected: {0}")]
pub struct BodyError(#[from] serde_json::Error);

/// A job's body, read as JSON of type `T`.
pub fn read_body<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, BodyError> {
    Ok(serde_json::from_slice(bytes)?)
}

/// Ranks a position's placements: the top ones with their chain, features and path (the
/// server's `/v1/analyze`, the page's Analyse view).
pub fn analyze(body: PositionBody) -> Result<AnalyzeAnswer, JobError> {
    let start = Instant::now();
    let position = body.check()?;
    if position.placement.is_some() {
        return Err(ServeRequestError::PlacementNotForAnalyze.into());
    }
    let asked_states = position.states;
    let RankedPosition { ranking, states } = position.rank();
    let known = ranking.pieces.len();
    let mut states = states.into_iter();
    Ok(AnalyzeAnswer {
        strategy: ranking.strategy.clone(),
        pieces: ranking.pieces.clone(),
        placement_count: ranking.placements.len(),
        placements: ranking.placements[..ranking.detailed]
            .iter()
            .map(|ranked| RankedAnswer {
                states: asked_states.then(|| states.next().flatten()),
                ..RankedAnswer::of(ranked, known)
            })
            .collect(),
        nodes: ranking.nodes,
        microseconds: start.elapsed().as_micros() as u64,
    })
}

/// Rates a player's placement against the strategy's best (the server's `/v1/rate`).
pub fn rate(body: PositionBody) -> Result<RateAnswer, JobError> {
    let start = Instant::now();
    let position = body.check()?;
    let Some(asked) = position.placement else {
        return Err(ServeRequestError::PlacementMissing.into());
    };
    let analysis = &position.analysis;
    let player = player_placement(
        &analysis.board,
        analysis.pieces[0],
        asked.x,
        asked.y,
        asked.rotation,
    )?;
    let ranking = CheckedPosition { top: 1, ..position }.rank().ranking;
    let known = ranking.pieces.len();
    let best = ranking.placements.first();
    let rated = ranking.find(&player);
    let value = rated.and_then(|ranked| reported_cost(ranked.value, known));
    let best_value = best.and_then(|ranked| reported_cost(ranked.value, known));
    Ok(RateAnswer {
        strategy: ranking.strategy.clone(),
        pieces: ranking.pieces.clone(),
        placement: PlacementAnswer::of(&player),
        reachable: rated.is_some(),
        value,
        best_value,
        loss: value.zip(best_value).map(|(value, best)| value - best),
        rank: rated.and_then(|ranked| ranked.rank),
        placement_count: ranking.placements.len(),
        best: best.map(|ranked| RankedAnswer::of(ranked, known)),
        nodes: ranking.nodes,
        microseconds: start.elapsed().as_micros() as u64,
    })
}

/// Plays one game, answered as `arena play --json` answers it; its `made_by` is
/// `front_end` followed by the body. `keep_going` is asked after every placement: `false`
/// stops the game, and the job ends with [`JobError::Interrupted`] (nobody waits for it).
pub fn play(
    body: PlayBody,
    front_end: &str,
    keep_going: &mut dyn FnMut() -> bool,
) -> Result<String, JobError> {
    let command = format!(
        "{front_end} {}",
        serde_json::to_string(&PlayBodyEcho(&body)).unwrap_or_default()
    );
    let no_placements = body.no_placements;
    let mut checked = body.request()?.check()?;
    let options = PlayOptions {
        keep_placements: !no_placements,
        ..PlayOptions::default()
    };
    let mut observer = |_: &tetris_arena_games::sim::game::Step<'_>| match keep_going() {
        true => ControlFlow::Continue(()),
        false => ControlFlow::Break(()),
    };
    let result = play_game(
        &mut checked.strategy,
        &checked.settings,
        options,
        &mut observer,
    )?;
    if result.end == GameEnd::Stopped {
        return Err(JobError::Cancelled);
    }
    Ok(MadeBy::during(command, || {
        PlayJson::new(
            &checked.strategy,
            &checked.settings,
            &result,
            !no_placements,
        )
        .to_json()
    }))
}

/// The play body as the game's `made_by` records it.
#[derive(Serialize)]
struct PlayBodyEcho<'a>(#[serde(with = "PlayBodyFields")] &'a PlayBody);

/// [`PlayBody`]'s fields, serialized.
#[derive(Serialize)]
#[serde(remote = "PlayBody")]
struct PlayBodyFields {
    strategy: String,
    seed: Option<u64>,
    generator: Option<String>,
    board_height: Option<u64>,
    game_over: Option<String>,
    max_pieces: Option<u64>,
    no_placements: bool,
}
