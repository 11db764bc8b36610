//! The native API's HTTP side, versioned under `/v1/`: each handler reads its JSON body, runs
//! the job of [`tetris_arena_jobs::api`] (where the bodies, answers and checks live, shared with the
//! browser build) on a worker, and answers; a job's error names each field as the body does
//! ([`ApiError::of_body`]). The `utoipa::path` attributes describe the routes for the OpenAPI
//! document.

use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::extract::rejection::BytesRejection;
use serde::Serialize;
use utoipa::ToSchema;

use crate::{ApiError, AppState, run_job};
use tetris_arena_io::output::MadeBy;
use tetris_arena_jobs::api::{
    self, AnalyzeAnswer, ErrorAnswer, PlayBody, PositionBody, RateAnswer,
};
use tetris_arena_jobs::game_report::PlayJson;
use tetris_arena_jobs::list::ListJson;

/// `/v1/health`'s answer.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct HealthAnswer {
    /// `ok`.
    pub status: &'static str,
    /// The arena's version.
    pub version: &'static str,
    /// Worker threads.
    pub workers: usize,
    /// The strategy StackRabbit's endpoints answer with (`--stackrabbit-strategy`).
    pub stackrabbit_strategy: String,
}

/// The body as JSON of type `T`, or the one-line error (an over-long body is 413).
fn parse_body<T: serde::de::DeserializeOwned>(
    body: Result<Bytes, BytesRejection>,
    state: &AppState,
) -> Result<T, ApiError> {
    let bytes = body.map_err(|rejection| ApiError::body(rejection, state.settings.max_body))?;
    api::read_body(&bytes).map_err(|error| ApiError::bad_request(error.to_string()))
}

/// Ranks a position's placements: the top ones with their chain, features and path.
#[utoipa::path(post, path = "/v1/analyze", request_body = PositionBody, responses(
    (status = 200, description = "The ranked placements", body = AnalyzeAnswer),
    (status = 400, description = "A bad request: the command line's message", body = ErrorAnswer),
    (status = 413, description = "A body over the server's limit", body = ErrorAnswer),
    (status = 503, description = "The queue is full, or the time limit passed", body = ErrorAnswer),
))]
pub async fn analyze(
    State(state): State<AppState>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<AnalyzeAnswer>, ApiError> {
    let body: PositionBody = parse_body(body, &state)?;
    let answer = run_job(&state, move |_| {
        api::analyze(body).map_err(ApiError::of_body)
    })
    .await?;
    Ok(Json(answer))
}

/// Rates a player's placement against the strategy's best.
#[utoipa::path(post, path = "/v1/rate",
    request_body(content = PositionBody, example = api::rate_example),
    responses(
    (status = 200, description = "The placement's value, the best value, the loss and its rank", body = RateAnswer),
    (status = 400, description = "A bad request: the command line's message", body = ErrorAnswer),
    (status = 413, description = "A body over the server's limit", body = ErrorAnswer),
    (status = 503, description = "The queue is full, or the time limit passed", body = ErrorAnswer),
))]
pub async fn rate(
    State(state): State<AppState>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<RateAnswer>, ApiError> {
    let body: PositionBody = parse_body(body, &state)?;
    let answer = run_job(&state, move |_| api::rate(body).map_err(ApiError::of_body)).await?;
    Ok(Json(answer))
}

/// Plays one game, answered as `arena play --json` answers it.
#[utoipa::path(post, path = "/v1/play", request_body = PlayBody, responses(
    (status = 200, description = "The game, as `arena play --json`", body = PlayJson),
    (status = 400, description = "A bad request: the command line's message", body = ErrorAnswer),
    (status = 413, description = "A body over the server's limit", body = ErrorAnswer),
    (status = 503, description = "The queue is full, or the time limit passed", body = ErrorAnswer),
))]
pub async fn play(
    State(state): State<AppState>,
    body: Result<Bytes, BytesRejection>,
) -> Result<axum::response::Response, ApiError> {
    let body: PlayBody = parse_body(body, &state)?;
    let json = run_job(&state, move |cancel| {
        api::play(body, "arena serve: POST /v1/play", &mut || !cancel.is_set())
            .map_err(ApiError::of_body)
    })
    .await?;
    Ok(axum::response::Response::builder()
        .header(axum::http::header::CONTENT_TYPE, "application/json")
        .body(axum::body::Body::from(json))
        .expect("a static header"))
}

/// The strategies: every searcher, evaluator (with presets), generator a request may name, option
/// and rule.
#[utoipa::path(get, path = "/v1/strategies", responses(
    (status = 200, description = "As `arena list --json`, without the file:PATH generator the server refuses", body = ListJson),
))]
pub async fn strategies() -> Json<ListJson> {
    Json(MadeBy::during(
        "arena serve: GET /v1/strategies",
        ListJson::served,
    ))
}

/// Whether the server is up, its version and workers.
#[utoipa::path(get, path = "/v1/health", responses(
    (status = 200, description = "The server is up", body = HealthAnswer),
))]
pub async fn health(State(state): State<AppState>) -> Json<HealthAnswer> {
    Json(HealthAnswer {
        status: "ok",
        version: tetris_arena_io::output::made_by::VERSION,
        workers: state.settings.workers,
        stackrabbit_strategy: state.settings.stackrabbit_strategy.to_string(),
    })
}
