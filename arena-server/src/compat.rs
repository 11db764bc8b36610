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

use tetris_arena_games::sim::reaction::piece_frames;
use tetris_core::{
    Board, Buttons, DecisionContext, GameOverRule, Input, InputModel, Piece, Placement,
    PlayedFrames,
};
use tetris_registry::Strategy;
use tetris_search_bfs::Gamepad;

use crate::error::ServeError;
use crate::stackrabbit::{
    self, AdjustedScores, CompatError, CompatMove, CompatQuery, ENGINE_MOVELIST_LENGTH, LineValue,
    MoveValue, NO_LEGAL_MOVES, NOT_SUPPORTED_TYPES, PONG, RateMoveScores, RequestType, board_after,
    format_engine_movelist, format_engine_movelist_cpp, format_eval, format_get_move,
    format_rate_move, format_version, input_sequence, is_special_move, next_piece_odds,
    parse_query, rate_move_player_placements,
};
use crate::{ApiError, AppState, run_job};
use tetris_arena_games::analysis::lookahead::hypothetical_lines;
use tetris_arena_games::analysis::ranking::{RankedPlacement, Ranking, rank_placements};
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
    /// With `lookaheadDepth=1`: the lines over the pieces after the last known one; else
    /// empty.
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
        RequestType::GetMove | RequestType::GetMoveCpp => match position.best_move()? {
            None => NO_LEGAL_MOVES.to_string(),
            Some(best) => {
                let path = position.earliest_path(&best)?;
                let placement = best.placement;
                match format_get_move(&query, Some((&placement, &path))) {
                    Err(CompatError::UnwritableFrame { .. }) => {
                        let path = position.one_button_path(&placement)?;
                        format_get_move(&query, Some((&placement, &path)))?
                    }
                    answer => answer?,
                }
            }
        },
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
        RequestType::Eval => match position.best_move()? {
            None => NO_LEGAL_MOVES.to_string(),
            Some(best) => format_eval(best.value),
        },
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

/// The move `get-move` answers ([`Position::best_move`]).
struct Move {
    /// Where the piece locks.
    placement: Placement,
    /// Its value (higher is better).
    value: f64,
    /// With a reaction time: the frames played before the preview is seen (the plan's).
    blind: Vec<Buttons>,
    /// Whether those frames lock the piece (the plan locked within the reaction time).
    blind_locks: bool,
}

/// A StackRabbit request's position and the strategy that analyses it.
struct Position<'a> {
    query: &'a CompatQuery,
    strategy: &'a str,
}

impl Position<'_> {
    /// The move `get-move` plays and `eval` values (`None` when the current piece has no
    /// placement):
    ///
    /// - with `lookaheadDepth=1`, the best move of `engine-movelist` (its averaged value);
    /// - with `reactionTime` R and `nextPiece`, the move of a player who plays R frames of a
    ///   plan without the preview and then re-plans with it (the NES game's rule for a
    ///   reaction time, [`piece_frames`]), valued as the ranking with both pieces values it;
    /// - otherwise the strategy's choice for the known pieces, what it plays in a game.
    fn best_move(&self) -> Result<Option<Move>, ServeError> {
        let query = self.query;
        if query.lookahead {
            let moves = self.movelist()?;
            return Ok(moves.first().map(|best| Move {
                placement: best.first.placement,
                value: best.first.total_value,
                blind: Vec::new(),
                blind_locks: false,
            }));
        }
        let known = known_pieces(query);
        if let (Some(next), 1..) = (query.next, query.reaction_time) {
            let CheckedAnalysis {
                mut strategy,
                board,
                context,
                ..
            } = self.analysis(&known, None)?;
            let mut frames = Vec::new();
            let play = piece_frames(
                &mut strategy,
                &board,
                [query.current, next],
                context,
                query.reaction_time,
                &mut frames,
                tetris_registry::GameTally::default(),
            )
            .map_err(|fault| ServeError::Internal(fault.to_string()))?;
            let Some(play) = play else {
                return Ok(None);
            };
            let ranking = self.rank(&known, 0)?;
            let value = ranking
                .find(&play.placement)
                .and_then(|ranked| score(ranked.value));
            let blind_locks = frames.len() <= usize::from(query.reaction_time);
            frames.truncate(usize::from(query.reaction_time));
            return Ok(value.map(|value| Move {
                placement: play.placement,
                value,
                blind: frames,
                blind_locks,
            }));
        }
        let ranking = self.rank(&known, 0)?;
        Ok(ranking.choice.and_then(|choice| {
            Some(Move {
                placement: choice.placement,
                value: score(Some(choice.value))?,
                blind: Vec::new(),
                blind_locks: false,
            })
        }))
    }

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

    /// The path to `best`'s placement whose inputs come earliest after its blind frames (the
    /// gamepad search's [`Gamepad::earliest_inputs_path`], under the request's timing): what a
    /// player reading `get-move` presses from the piece's first frame.
    fn earliest_path(&self, best: &Move) -> Result<Vec<Input>, ServeError> {
        let blind: Vec<Input> = best.blind.iter().copied().map(Input::Frame).collect();
        if best.blind_locks {
            return Ok(blind);
        }
        let mut analysis = self.analysis(&[self.query.current], None)?;
        analysis.context.played = PlayedFrames::new(&best.blind)
            .ok_or_else(|| ServeError::Internal("a reaction time is at most 60 frames".into()))?;
        let rest = self.earliest_path_on(
            &mut analysis.strategy,
            &analysis.board,
            &best.placement,
            &analysis.context,
        )?;
        Ok(blind.into_iter().chain(rest).collect())
    }

    /// [`Position::earliest_path`] on `board` in `context` (a later piece's: no entry delay);
    /// the strategy's own path when no earliest path is found (one with more input frames
    /// than [`Gamepad::earliest_inputs_path`] considers).
    fn earliest_path_on(
        &self,
        strategy: &mut Strategy,
        board: &Board,
        placement: &Placement,
        context: &DecisionContext,
    ) -> Result<Vec<Input>, ServeError> {
        let options = context.current_piece_options(true);
        let timing = options
            .frame_timing
            .ok_or_else(|| ServeError::Internal("a frame strategy has a timing".into()))?;
        match Gamepad::with_timing(timing).earliest_inputs_path(board, placement, options) {
            Some(path) => Ok(path.into_iter().map(Input::Frame).collect()),
            None => strategy.path_to(board, placement, *context).ok_or_else(|| {
                ServeError::Internal("the search's own placement has a path".into())
            }),
        }
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
            // StackRabbit's positions are NES positions: decided as `arena nes` decides, under
            // the console's rule (a piece may still lock in the hidden rows, above a stack
            // that blocks the spawn). The API's board has no hidden rows: they are empty here.
            game_over: Some(GameOverRule::Console),
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
        // The chains of the best first placements: the preview's placement, and with the
        // lookahead the chain its lines follow.
        let detailed = match query.next.is_some() || query.lookahead {
            true => ENGINE_MOVELIST_LENGTH,
            false => 0,
        };
        let ranking = self.rank(&known, detailed)?;
        let explanation = format!("{}: minus its cost", ranking.strategy);
        // With the preview, only the detailed placements carry their chain (the preview piece's
        // placement); chains cut short rank after every full one, so these are the best.
        let candidates = match detailed {
            0 => &ranking.placements[..],
            _ => &ranking.placements[..ranking.detailed],
        };
        let mut moves = Vec::new();
        for ranked in candidates {
            if moves.len() == ENGINE_MOVELIST_LENGTH {
                break;
            }
            let Some(chain_value) = score(ranked.value).filter(|_| {
                ranked
                    .value
                    .is_some_and(|value| value.length == known.len())
            }) else {
                continue;
            };
            let lines = match query.lookahead {
                true => {
                    let mut lines = self.lines_after(&known, &ranked.chain)?;
                    self.add_line_inputs(&ranked.chain, &mut lines)?;
                    lines
                }
                false => Vec::new(),
            };
            let total = match query.lookahead {
                true => expected_value(&lines),
                false => chain_value,
            };
            let eval_score = alone
                .find(&ranked.placement)
                .and_then(|single| score(single.value))
                .unwrap_or(chain_value);
            let mut first = MoveValue {
                placement: ranked.placement,
                total_value: total,
                eval_score,
                special: is_special_move(&query.board, &ranked.placement),
                explanation: explanation.clone(),
                lines: Vec::new(),
            };
            let mut second = ranked.chain.get(1).map(|&second| {
                let after = board_after(&query.board, &ranked.placement).0;
                MoveValue {
                    placement: second,
                    total_value: total,
                    eval_score: chain_value,
                    special: is_special_move(&after, &second),
                    explanation: explanation.clone(),
                    lines: Vec::new(),
                }
            });
            // The lines follow the last known piece: on its move.
            match second.as_mut() {
                Some(second) => second.lines = lines,
                None => first.lines = lines,
            }
            let playout_value = ranking
                .finalists
                .iter()
                .find(|finalist| finalist.placement == ranked.placement)
                .and_then(|finalist| score(finalist.value));
            moves.push(CompatMove {
                first,
                second,
                playout_value,
            });
        }
        // With the lookahead, best first by the averaged value (the ranking's order among
        // equals); otherwise the ranking's order is the answer's.
        if query.lookahead {
            moves.sort_by(|one, other| other.first.total_value.total_cmp(&one.first.total_value));
        }
        Ok(moves)
    }

    /// `lookaheadDepth=1`'s lines after `chain` (the placements of `pieces` from the request's
    /// board): for each piece that may follow the last of `pieces`, its odds in StackRabbit's
    /// table, its best placement at the end of the chain and the whole chain's value then
    /// ([`NO_PLACEMENT_VALUE`] when it has none), with the earliest path to it; best first.
    fn lines_after(
        &self,
        pieces: &[Piece],
        chain: &[Placement],
    ) -> Result<Vec<LineValue>, ServeError> {
        let CheckedAnalysis {
            mut strategy,
            board,
            context,
            ..
        } = self.analysis(pieces, None)?;
        let last = *pieces.last().expect("a request knows its current piece");
        let mut lines: Vec<LineValue> =
            hypothetical_lines(&mut strategy, &board, pieces, chain, context)
                .into_iter()
                .map(|line| LineValue {
                    piece: line.piece,
                    probability: next_piece_odds(last, line.piece),
                    placement: line.placement,
                    value: score(line.value).unwrap_or(NO_PLACEMENT_VALUE),
                    inputs: None,
                })
                .collect();
        lines.sort_by(|one, other| other.value.total_cmp(&one.value));
        Ok(lines)
    }

    /// Writes each line's path ([`LineValue::inputs`]): the earliest inputs to its placement
    /// on the board `chain` (from the request's board) leaves, in StackRabbit's letters.
    fn add_line_inputs(
        &self,
        chain: &[Placement],
        lines: &mut [LineValue],
    ) -> Result<(), ServeError> {
        let mut analysis = self.analysis(&[self.query.current], None)?;
        let mut end = analysis.board;
        for placement in chain {
            end = board_after(&end, placement).0;
        }
        for line in lines {
            if let Some(placement) = &line.placement {
                let path = self.earliest_path_on(
                    &mut analysis.strategy,
                    &end,
                    placement,
                    &analysis.context,
                )?;
                line.inputs = Some(input_sequence(&path)?);
            }
        }
        Ok(())
    }

    /// `rate-move`'s scores, or `None` when the current piece has no placement.
    fn rate_move(&self) -> Result<Option<RateMoveScores>, ServeError> {
        let query = self.query;
        let second_board = query
            .second_board
            .ok_or(stackrabbit::CompatError::MissingParameter("secondBoard"))?;
        // With the lookahead every placement's chain is needed (the player's may be any).
        let top = match query.lookahead {
            true => usize::MAX,
            false => 0,
        };
        let alone = self.rank(&[query.current], top)?;
        let Some(best_alone) = self.best_value(&alone)? else {
            return Ok(None);
        };
        let candidates: Vec<_> = alone
            .placements
            .iter()
            .map(|ranked| ranked.placement)
            .collect();
        let players = rate_move_player_placements(&query.board, &second_board, &candidates);
        // Several placements can leave the same board: the player's move is the best of them.
        let best_of_players = |ranking: &Ranking| -> Result<Option<f64>, ServeError> {
            let mut best: Option<f64> = None;
            for placement in &players {
                if let Some(ranked) = ranking.find(placement) {
                    let value = self.value_of(ranking, ranked)?;
                    best = match (best, value) {
                        (Some(one), Some(other)) => Some(one.max(other)),
                        (one, other) => one.or(other),
                    };
                }
            }
            Ok(best)
        };
        let after_adjustment = match query.next {
            None => None,
            Some(_) => {
                let both = self.rank(&known_pieces(query), top)?;
                match self.best_value(&both)? {
                    Some(best) => Some(AdjustedScores {
                        player: best_of_players(&both)?,
                        best,
                    }),
                    None => None,
                }
            }
        };
        Ok(Some(RateMoveScores {
            player_no_adjustment: best_of_players(&alone)?,
            best_no_adjustment: best_alone,
            after_adjustment,
        }))
    }

    /// A ranked placement's value as StackRabbit gives it (`None`: no chain starts there): its
    /// chain's, or with the lookahead its lines' average (a chain cut short has no lines: its
    /// own value). With the lookahead, `ranking` must detail the placement (its chain).
    fn value_of(
        &self,
        ranking: &Ranking,
        ranked: &RankedPlacement,
    ) -> Result<Option<f64>, ServeError> {
        let full = ranked
            .value
            .is_some_and(|value| value.length == ranking.pieces.len());
        if !self.query.lookahead || !full {
            return Ok(score(ranked.value));
        }
        let lines = self.lines_after(&ranking.pieces, &ranked.chain)?;
        Ok(Some(expected_value(&lines)))
    }

    /// The best value among the ranking's placements: the first's, or with the lookahead the
    /// best of the first [`ENGINE_MOVELIST_LENGTH`] averaged (StackRabbit averages its best
    /// moves only); `None` when no placement has a chain.
    fn best_value(&self, ranking: &Ranking) -> Result<Option<f64>, ServeError> {
        let count = match self.query.lookahead {
            true => ENGINE_MOVELIST_LENGTH,
            false => 1,
        };
        let mut best: Option<f64> = None;
        for ranked in ranking.placements.iter().take(count) {
            if let Some(value) = self.value_of(ranking, ranked)? {
                best = Some(best.map_or(value, |best| best.max(value)));
            }
        }
        Ok(best)
    }
}

/// Our value of a chain, StackRabbit's way round: higher is better (minus the cost); `None`
/// when no chain continues.
fn score(value: Option<tetris_core::ChainValue>) -> Option<f64> {
    value.map(|value| -value.cost)
}

/// StackRabbit's value of a lookahead line whose piece has no placement (the role of its
/// death coefficient): far below any chain's value here, so a move after which some piece
/// could end the game ranks below every move after which none could.
pub const NO_PLACEMENT_VALUE: f64 = -1_000_000.0;

/// The value of a move with the lookahead: its lines' values weighted by their odds.
fn expected_value(lines: &[LineValue]) -> f64 {
    lines.iter().map(|line| line.probability * line.value).sum()
}

/// The pieces StackRabbit's request makes known: the current piece, then `nextPiece`.
fn known_pieces(query: &CompatQuery) -> Vec<Piece> {
    std::iter::once(query.current).chain(query.next).collect()
}
