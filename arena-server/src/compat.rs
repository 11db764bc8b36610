//! StackRabbit's endpoints over HTTP: the glue between a GET request and the contract of
//! [`crate::stackrabbit`] (parsing and formats, pure code) and our analysis.
//!
//! Every position is analysed by the server's StackRabbit strategy (`arena serve
//! --stackrabbit-strategy`, a gamepad strategy), with the request's level and tap rate (from
//! `inputFrameTimeline`) through the command line's analysis request, so its checks hold here
//! too. Values are ours, turned so that higher is better (minus our cost), as StackRabbit's
//! scores are. How each answer is built:
//!
//! - `get-move`: the strategy's choice for the known pieces (current, and `nextPiece` when
//!   given), what it plays in a game, with the path whose inputs come earliest
//!   ([`Gamepad::earliest_inputs_path`]) in StackRabbit's frame grammar;
//! - `engine-movelist`: the best [`ENGINE_MOVELIST_LENGTH`] first placements; with `nextPiece`
//!   each with the best preview placement after it (`totalValue` the two-piece chain's value,
//!   `evalScore` the first placement's value alone);
//! - `rate-move`: the placements of the current piece that leave `secondBoard` (the best of
//!   them if several), valued with the current piece alone ("NoAdjustment") and, with
//!   `nextPiece`, with the best preview placement after it ("AfterAdjustment"); `Unknown score`
//!   when no placement reached at the request's speed leaves that board;
//! - `eval`: the value of the strategy's choice, as `get-move` plays it.
//!
//! Errors answer 400 in plain text (StackRabbit sends 500; bad input is not a server error).

use axum::Router;
use axum::extract::{RawQuery, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use tetris_core::{Input, InputModel, Piece, Placement};
use tetris_search_bfs::Gamepad;

use crate::error::ServeError;
use crate::stackrabbit::{
    self, AdjustedScores, CompatError, CompatMove, CompatQuery, ENGINE_MOVELIST_LENGTH, MoveValue,
    NO_LEGAL_MOVES, NOT_SUPPORTED_TYPES, PONG, RateMoveScores, RequestType, board_after,
    format_engine_movelist, format_engine_movelist_cpp, format_eval, format_get_move,
    format_rate_move, format_version, is_special_move, parse_query, rate_move_player_placements,
};
use crate::{ApiError, AppState, run_job};
use tetris_arena_games::analysis::ranking::{Ranking, rank_placements};
use tetris_arena_io::values::Level;
use tetris_arena_jobs::analyze::{AnalyzeRequest, CheckedAnalysis, FrameOptions};

/// StackRabbit's parameters as the OpenAPI document describes them (the parser is
/// [`crate::stackrabbit::query`], which also takes the compressed board, `-` for `.`,
/// lower-case pieces and the optional parameters it refuses unless at their defaults:
/// docs/stackrabbit.md). Only the common values are named here, so that a generator of
/// requests (schemathesis) sends mostly positions the server analyses.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(non_snake_case, dead_code)]
pub struct PositionQuery {
    /// The board: 200 characters of 0/1, top row first (or StackRabbit's compressed form).
    #[param(pattern = "^[01]{200}$")]
    board: String,
    /// The piece to place: one of I O L J T S Z.
    #[param(pattern = "^[IOLJTSZ]$")]
    currentPiece: String,
    /// The preview piece, optional.
    #[param(pattern = "^[IOLJTSZ]$")]
    nextPiece: Option<String>,
    /// The level: 18 to 255.
    #[param(schema_with = level_parameter)]
    level: u32,
    /// Lines cleared so far.
    #[param(schema_with = lines_parameter)]
    lines: u64,
    /// When an input may start: `X.` (30 Hz) to `X.......` (7.5 Hz).
    #[param(pattern = "^X\\.{1,7}$")]
    inputFrameTimeline: String,
}

/// `level`: the range the query parser takes ([`stackrabbit::query::MIN_LEVEL`] to
/// [`stackrabbit::query::MAX_LEVEL`]).
fn level_parameter() -> utoipa::openapi::schema::Object {
    tetris_arena_jobs::api::schema::integer(
        stackrabbit::query::MIN_LEVEL as u64,
        stackrabbit::query::MAX_LEVEL as u64,
        false,
        "The level.",
    )
}

/// `lines`: 0 to [`stackrabbit::query::MAX_LINES`], as the query parser takes them.
fn lines_parameter() -> utoipa::openapi::schema::Object {
    tetris_arena_jobs::api::schema::integer(
        0,
        stackrabbit::query::MAX_LINES as u64,
        false,
        "Lines cleared so far.",
    )
}

/// One move of `engine-movelist`'s answer, for the document (the formatter is
/// [`crate::stackrabbit::format`]).
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
pub struct MovelistMove {
    /// `[rotation, xOffset, yOffset]`.
    placement: [i8; 3],
    /// A tuck or a spin.
    is_special_move: bool,
    /// The move's value, two decimals.
    total_value: String,
    /// Always empty.
    hypothetical_lines: Vec<serde_json::Value>,
    /// A short text.
    eval_explanation: String,
    /// The placement's own value, two decimals.
    eval_score: String,
}

/// One element of `engine-movelist`'s answer: a move, or with `nextPiece` the pair `[current,
/// next]` (`next` null when the preview piece has no placement).
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(untagged)]
#[allow(dead_code)]
pub enum MovelistEntry {
    /// Without `nextPiece`.
    Single(MovelistMove),
    /// With `nextPiece`.
    Pair(Vec<Option<MovelistMove>>),
}

/// `rate-move`'s answer, for the document.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
pub struct RateMoveScoresDocument {
    /// The player's move with the current piece alone, or `Unknown score`.
    player_move_no_adjustment: String,
    /// The best move with the current piece alone.
    best_move_no_adjustment: String,
    /// With `nextPiece`: the player's move through the preview piece.
    player_move_after_adjustment: Option<String>,
    /// With `nextPiece`: the best two-piece move.
    best_move_after_adjustment: Option<String>,
}

/// StackRabbit's `get-move`: `rotation,x,y|inputs|board after|level|lines`.
#[utoipa::path(get, path = "/get-move", tag = "StackRabbit", params(PositionQuery), responses(
    (status = 200, description = "The best move, or `No legal moves`", content_type = "text/plain", body = String),
    (status = 400, description = "A refused request: the message", content_type = "text/plain", body = String),
    (status = 503, description = "The queue is full, or the time limit passed", content_type = "text/plain", body = String),
))]
pub async fn get_move_document() {}

/// StackRabbit's `engine-movelist`: the best moves as JSON.
#[utoipa::path(get, path = "/engine-movelist", tag = "StackRabbit", params(PositionQuery), responses(
    (status = 200, description = "The best moves (pairs with nextPiece), or `No legal moves`", content(
        (Vec<MovelistEntry> = "application/json"),
        (String = "text/plain"),
    )),
    (status = 400, description = "A refused request: the message", content_type = "text/plain", body = String),
    (status = 503, description = "The queue is full, or the time limit passed", content_type = "text/plain", body = String),
))]
pub async fn engine_movelist_document() {}

/// StackRabbit's `rate-move`: the player's move's score and the best.
#[utoipa::path(get, path = "/rate-move", tag = "StackRabbit", params(
    PositionQuery,
    ("secondBoard" = String, Query, description = "The board after the player's move and its line clears.", pattern = "^[01]{200}$"),
), responses(
    (status = 200, description = "The scores, or `No legal moves`", content(
        (RateMoveScoresDocument = "application/json"),
        (String = "text/plain"),
    )),
    (status = 400, description = "A refused request: the message", content_type = "text/plain", body = String),
    (status = 503, description = "The queue is full, or the time limit passed", content_type = "text/plain", body = String),
))]
pub async fn rate_move_document() {}

/// StackRabbit's `eval`: the position's value.
#[utoipa::path(get, path = "/eval", tag = "StackRabbit", params(PositionQuery), responses(
    (status = 200, description = "The value, two decimals, or `No legal moves`", content_type = "text/plain", body = String),
    (status = 400, description = "A refused request: the message", content_type = "text/plain", body = String),
    (status = 503, description = "The queue is full, or the time limit passed", content_type = "text/plain", body = String),
))]
pub async fn eval_document() {}

/// StackRabbit's routes: the types answered, and StackRabbit's other types refused by name.
pub fn routes() -> Router<AppState> {
    let mut router = Router::new();
    let answered = RequestType::ANSWERED.iter().map(RequestType::name);
    for name in answered.chain(NOT_SUPPORTED_TYPES.iter().copied()) {
        let kind = RequestType::from_name(name);
        router = router.route(
            &format!("/{name}"),
            get(move |state: State<AppState>, query: RawQuery| answer(kind.clone(), state, query)),
        );
    }
    router
}

/// Answers one StackRabbit request: plain text (JSON text for the JSON answers), errors as 400
/// with the message as the body. Also the answer to a path that names a type only once
/// percent-decoded (`/get%2Dmove`), which the fallback hands here.
pub(crate) async fn answer(
    kind: RequestType,
    State(state): State<AppState>,
    RawQuery(query): RawQuery,
) -> Response {
    if let Some(refusal) = kind.refusal() {
        return ApiError::bad_request(refusal.to_string())
            .text()
            .into_response();
    }
    match kind {
        RequestType::Ping => return text(PONG.to_string(), false),
        RequestType::Version => return text(format_version(), true),
        _ => {}
    }
    let raw = query.unwrap_or_default();
    let json = matches!(
        kind,
        RequestType::EngineMovelist
            | RequestType::EngineMovelistCpp
            | RequestType::RateMove
            | RequestType::RateMoveCpp
    );
    let strategy = state.settings.stackrabbit_strategy.clone();
    match run_job(&state, move |_| compute(&kind, &raw, &strategy)).await {
        // "No legal moves" is text, whatever the request type.
        Ok(body) => {
            let json = json && body != NO_LEGAL_MOVES;
            text(body, json)
        }
        Err(error) => error.text().into_response(),
    }
}

/// A 200 answer with `body`, JSON or plain text.
fn text(body: String, json: bool) -> Response {
    let content_type = match json {
        true => "application/json",
        false => "text/plain; charset=utf-8",
    };
    (StatusCode::OK, [(header::CONTENT_TYPE, content_type)], body).into_response()
}

/// The body of a request of `kind` with query `raw` (on a worker), analysed by `strategy`.
fn compute(kind: &RequestType, raw: &str, strategy: &str) -> Result<String, ServeError> {
    let query = parse_query(kind, raw)?;
    let position = Position {
        query: &query,
        strategy,
    };
    let body = match kind {
        RequestType::GetMove | RequestType::GetMoveCpp => {
            let ranking = position.rank(&known_pieces(&query), 0)?;
            match ranking.choice {
                None => NO_LEGAL_MOVES.to_string(),
                Some(choice) => {
                    let path = position.earliest_path(&choice.placement)?;
                    match format_get_move(&query, Some((&choice.placement, &path))) {
                        Err(CompatError::UnwritableFrame { .. }) => {
                            let path = position.one_button_path(&choice.placement)?;
                            format_get_move(&query, Some((&choice.placement, &path)))?
                        }
                        answer => answer?,
                    }
                }
            }
        }
        RequestType::EngineMovelist | RequestType::EngineMovelistCpp => {
            let moves = position.movelist()?;
            if moves.is_empty() {
                NO_LEGAL_MOVES.to_string()
            } else if *kind == RequestType::EngineMovelistCpp {
                format_engine_movelist_cpp(&query, &moves)
            } else {
                format_engine_movelist(&query, &moves)
            }
        }
        RequestType::RateMove | RequestType::RateMoveCpp => match position.rate_move()? {
            None => NO_LEGAL_MOVES.to_string(),
            Some(scores) => format_rate_move(&scores),
        },
        RequestType::Eval => {
            let ranking = position.rank(&known_pieces(&query), 0)?;
            match ranking.choice.and_then(|choice| score(Some(choice.value))) {
                None => NO_LEGAL_MOVES.to_string(),
                Some(value) => format_eval(value),
            }
        }
        // Refused or answered before a worker was asked.
        RequestType::Ping
        | RequestType::Version
        | RequestType::NotSupported(_)
        | RequestType::Unknown(_) => {
            return Err(ServeError::Internal(format!(
                "request type {} reached the analysis",
                kind.name()
            )));
        }
    };
    Ok(body)
}

/// A StackRabbit request's position and the strategy that analyses it.
struct Position<'a> {
    query: &'a CompatQuery,
    strategy: &'a str,
}

impl Position<'_> {
    /// A path to `placement` that StackRabbit's notation can write, for a best move whose
    /// earliest path cannot be written (it would need Down with a turn, which has no letter).
    /// The same placement searched under the article's input model (one of Left, Right, A, B
    /// on every tap frame, no soft drop: always writable) gives a real path at the same speed
    /// when that model reaches it; when it does not, the request is refused with the
    /// unwritable frame's message.
    fn one_button_path(&self, placement: &Placement) -> Result<Vec<Input>, ServeError> {
        let ranking = self.rank_with(&[self.query.current], 0, Some(InputModel::Article))?;
        let path = ranking
            .find(placement)
            .and_then(|ranked| ranked.path.clone());
        match path {
            Some(path) => Ok(path),
            None => Err(CompatError::NoWritablePath.into()),
        }
    }

    /// The path to `placement` whose inputs come earliest (the gamepad search's
    /// [`Gamepad::earliest_inputs_path`], under the request's timing): what a player reading
    /// `get-move` presses from the piece's first frame.
    fn earliest_path(&self, placement: &Placement) -> Result<Vec<Input>, ServeError> {
        let analysis = self.analysis(&[self.query.current], None)?;
        let options = analysis.context.current_piece_options(true);
        let timing = options
            .frame_timing
            .ok_or_else(|| ServeError::Internal("a frame strategy has a timing".into()))?;
        let path = Gamepad::with_timing(timing)
            .earliest_inputs_path(&analysis.board, placement, options)
            .ok_or_else(|| ServeError::Internal("the search's own placement has a path".into()))?;
        Ok(path.into_iter().map(Input::Frame).collect())
    }

    /// The request's position for `pieces` at its level and tap rate under the input model
    /// `inputs` (`None`: the strategy's), checked by the command line's analysis request.
    fn analysis(
        &self,
        pieces: &[Piece],
        inputs: Option<InputModel>,
    ) -> Result<CheckedAnalysis, ServeError> {
        Ok(AnalyzeRequest {
            strategy: self.strategy.to_string(),
            board: self.query.board,
            board_name: "board".to_string(),
            pieces: pieces.to_vec(),
            all: false,
            game_over: None,
            frames: FrameOptions {
                level: Some(Level::try_from(u64::from(self.query.level))?),
                timeline: Some(self.query.timeline),
                inputs,
                entry_delay: false,
            },
        }
        .check()?)
    }

    /// Our ranking of the position for `pieces`; the `top` best with their chains.
    fn rank(&self, pieces: &[Piece], top: usize) -> Result<Ranking, ServeError> {
        self.rank_with(pieces, top, None)
    }

    /// [`Position::rank`] under the input model `inputs` (`None`: the strategy's).
    fn rank_with(
        &self,
        pieces: &[Piece],
        top: usize,
        inputs: Option<InputModel>,
    ) -> Result<Ranking, ServeError> {
        let CheckedAnalysis {
            mut strategy,
            board,
            pieces,
            context,
            ..
        } = self.analysis(pieces, inputs)?;
        Ok(rank_placements(
            &mut strategy,
            &board,
            &pieces,
            context,
            top,
        ))
    }

    /// `engine-movelist`'s moves, best first: the first placements that start a chain through every
    /// known piece.
    fn movelist(&self) -> Result<Vec<CompatMove>, ServeError> {
        let query = self.query;
        let alone = self.rank(&[query.current], 0)?;
        let known = known_pieces(query);
        let ranking = match query.next {
            Some(_) => self.rank(&known, ENGINE_MOVELIST_LENGTH)?,
            None => self.rank(&known, 0)?,
        };
        let explanation = format!("{}: minus its cost", ranking.strategy);
        // With the preview, only the detailed placements carry their chain (the preview piece's
        // placement); chains cut short rank after every full one, so these are the best.
        let candidates = match query.next {
            Some(_) => &ranking.placements[..ranking.detailed],
            None => &ranking.placements[..],
        };
        let mut moves = Vec::new();
        for ranked in candidates {
            if moves.len() == ENGINE_MOVELIST_LENGTH {
                break;
            }
            let Some(total) = score(ranked.value).filter(|_| {
                ranked
                    .value
                    .is_some_and(|value| value.length == known.len())
            }) else {
                continue;
            };
            let eval_score = alone
                .find(&ranked.placement)
                .and_then(|single| score(single.value))
                .unwrap_or(total);
            let first = MoveValue {
                placement: ranked.placement,
                total_value: total,
                eval_score,
                special: is_special_move(&query.board, &ranked.placement),
                explanation: explanation.clone(),
            };
            let second = ranked.chain.get(1).map(|&second| {
                let after = board_after(&query.board, &ranked.placement).0;
                MoveValue {
                    placement: second,
                    total_value: total,
                    eval_score: total,
                    special: is_special_move(&after, &second),
                    explanation: explanation.clone(),
                }
            });
            moves.push(CompatMove { first, second });
        }
        Ok(moves)
    }

    /// `rate-move`'s scores, or `None` when the current piece has no placement.
    fn rate_move(&self) -> Result<Option<RateMoveScores>, ServeError> {
        let query = self.query;
        let second_board = query
            .second_board
            .ok_or(stackrabbit::CompatError::MissingParameter("secondBoard"))?;
        let alone = self.rank(&[query.current], 0)?;
        let Some(best_alone) = alone.placements.first().and_then(|best| score(best.value)) else {
            return Ok(None);
        };
        let candidates: Vec<_> = alone
            .placements
            .iter()
            .map(|ranked| ranked.placement)
            .collect();
        let players = rate_move_player_placements(&query.board, &second_board, &candidates);
        // Several placements can leave the same board: the player's move is the best of them.
        let best_of_players = |ranking: &Ranking| {
            players
                .iter()
                .filter_map(|placement| {
                    ranking
                        .find(placement)
                        .and_then(|ranked| score(ranked.value))
                })
                .reduce(f64::max)
        };
        let after_adjustment = match query.next {
            None => None,
            Some(_) => {
                let both = self.rank(&known_pieces(query), 0)?;
                let best = both.placements.first().and_then(|best| score(best.value));
                best.map(|best| AdjustedScores {
                    player: best_of_players(&both),
                    best,
                })
            }
        };
        Ok(Some(RateMoveScores {
            player_no_adjustment: best_of_players(&alone),
            best_no_adjustment: best_alone,
            after_adjustment,
        }))
    }
}

/// Our value of a chain, StackRabbit's way round: higher is better (minus the cost); `None`
/// when no chain continues.
fn score(value: Option<tetris_core::ChainValue>) -> Option<f64> {
    value.map(|value| -value.cost)
}

/// The pieces StackRabbit's request makes known: the current piece, then `nextPiece`.
fn known_pieces(query: &CompatQuery) -> Vec<Piece> {
    std::iter::once(query.current).chain(query.next).collect()
}
