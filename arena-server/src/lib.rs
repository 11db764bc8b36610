//! `arena serve`: the engines as a move server over HTTP, for programs other than our own
//! command line and Python package (NES analysis tools, trainers, stream overlays).
//!
//! - [`api`]: the native API under `/v1/` (JSON in, JSON out) and its OpenAPI document;
//! - [`compat`]: StackRabbit's GET endpoints, so that tools written for that server work
//!   unchanged when pointed at this one: the HTTP glue over [`stackrabbit`], its contract
//!   (parsing, conventions, formats) as pure code;
//! - [`pool`]: the worker threads that run the searches.
//!
//! The server is a front end like the command line: every body or query becomes the command
//! line's request, checked by the request layer, so a mistake gets the command line's message
//! (in `{"error": "..."}` with status 400, or as plain text on StackRabbit's endpoints). What
//! keeps it up whatever clients send: the body limit (413), the bounded queue (503 at once
//! when full), the time limit per request (503 after it; the job is cancelled), bounded games
//! ([`tetris_arena_jobs::serve`]), and searches on their own threads, never on the async ones.
//! Every connection lives under timeouts and a cap on their number ([`connections`]). One log
//! line per request goes to stderr (a request whose client left says so); SIGINT or SIGTERM
//! stops accepting, lets the requests in flight finish within a grace period, and exits 0.

pub mod api;
pub mod compat;
pub mod connections;
pub mod error;
pub mod memory;
pub mod pool;
pub mod stackrabbit;

use std::net::SocketAddr;
use std::sync::Arc;
use web_time::Instant;

use axum::Router;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use tower_http::cors::{Any, CorsLayer};
use utoipa::OpenApi;

use pool::{Busy, Cancel, JobOutcome, WorkerPool};
use tetris_arena_jobs::serve::ServeSettings;
use tetris_arena_requests::error::ArenaError;

pub use error::ServeError;

/// What every handler shares: the settings and the worker pool.
#[derive(Clone)]
pub struct AppState {
    /// The server's settings.
    pub settings: ServeSettings,
    pool: Arc<WorkerPool>,
}

/// How an error's body is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorForm {
    /// `{"error": "..."}` (the native API).
    Json,
    /// The message as plain text (StackRabbit's endpoints).
    Text,
}

/// An answer that is not a success: its status and one-line message.
#[derive(Clone, Debug)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// The message, one line.
    pub message: String,
    /// How the body is written.
    pub form: ErrorForm,
}

impl ApiError {
    /// A 400 with `message` (the request layer's, for a checked request).
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            // One line, whatever the source said.
            message: message.into().replace(['\n', '\r'], " "),
            form: ErrorForm::Json,
        }
    }

    /// The same error as plain text.
    pub fn text(self) -> ApiError {
        ApiError {
            form: ErrorForm::Text,
            ..self
        }
    }

    /// A body that could not be read: over the limit (413), or cut off (400).
    pub fn body(rejection: BytesRejection, limit: usize) -> ApiError {
        match rejection.status() {
            StatusCode::PAYLOAD_TOO_LARGE => ApiError::too_large(limit),
            _ => ApiError::bad_request(format!("the body could not be read: {rejection}")),
        }
    }

    /// A body over the limit of `limit` bytes: 413.
    fn too_large(limit: usize) -> ApiError {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the body is larger than the server's limit of {limit} bytes (--max-body)"),
        )
    }
}

impl ApiError {
    /// An error of the arena's, with the status its kind decides
    /// ([`tetris_arena_io::ErrorKind::http_status`]): 400 bad input, 503 cancelled or
    /// interrupted, 502 an outside engine's fault, 500 an I/O or internal failure.
    fn of_kind(kind: tetris_arena_io::ErrorKind, message: String) -> ApiError {
        let status =
            StatusCode::from_u16(kind.http_status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        ApiError::new(status, message)
    }
}

impl ApiError {
    /// A job of the native API (`/v1/`) that failed, its message in the JSON body's words (a
    /// field named as the body names it: `board_height 3 is outside 4..=32`).
    pub fn of_body(error: tetris_arena_jobs::JobError) -> ApiError {
        ApiError::of_kind(error.kind(), tetris_arena_io::Words::Json.message(&error))
    }
}

impl From<ArenaError> for ApiError {
    fn from(error: ArenaError) -> ApiError {
        ApiError::of_kind(error.kind(), error.to_string())
    }
}

impl From<tetris_arena_jobs::JobError> for ApiError {
    fn from(error: tetris_arena_jobs::JobError) -> ApiError {
        ApiError::of_kind(error.kind(), error.to_string())
    }
}

impl From<stackrabbit::CompatError> for ApiError {
    fn from(error: stackrabbit::CompatError) -> ApiError {
        ApiError::of_kind(error.kind(), error.to_string())
    }
}

impl From<ServeError> for ApiError {
    fn from(error: ServeError) -> ApiError {
        ApiError::of_kind(error.kind(), error.to_string())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        match self.form {
            ErrorForm::Json => (
                self.status,
                axum::Json(tetris_arena_jobs::api::ErrorAnswer {
                    error: self.message,
                }),
            )
                .into_response(),
            ErrorForm::Text => (
                self.status,
                [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
                self.message,
            )
                .into_response(),
        }
    }
}

/// Runs `job` on a worker and waits for it: 503 at once when the queue is full; a bad
/// request's error as a 400. The request's time limit ([`limit_time`]) drops this future,
/// which cancels the job ([`Cancel`]).
pub async fn run_job<T, E, F>(state: &AppState, job: F) -> Result<T, ApiError>
where
    T: Send + 'static,
    E: Into<ApiError> + Send + 'static,
    F: FnOnce(&Cancel) -> Result<T, E> + Send + 'static,
{
    let cancel = Cancel::new();
    let _cancel_when_dropped = cancel.guard();
    let outcome = state.pool.submit(cancel, job).map_err(|Busy| {
        let settings = &state.settings;
        let running = match settings.workers {
            1 => "1 search running".to_string(),
            workers => format!("{workers} searches running"),
        };
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "the server is busy: {running} and {} waiting (--workers, --max-queue); try again",
                settings.max_queue
            ),
        )
    })?;
    match outcome.await {
        Ok(JobOutcome::Done(result)) => result.map_err(Into::into),
        Ok(JobOutcome::Panicked) => Err(ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal error: the search panicked (a bug: please report the request)",
        )),
        Ok(JobOutcome::Skipped) | Err(_) => Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "the request was cancelled",
        )),
    }
}

/// The OpenAPI document of the native API, generated from its types.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "Tetris Arena move server",
        description = "The arena's strategies as a move advisor: rank a position's placements, rate a player's placement, play a game. Values are costs: lower is better. Errors are {\"error\": \"...\"} with the command line's message, each value named by the body's field."
    ),
    paths(
        api::analyze,
        api::rate,
        api::play,
        api::strategies,
        api::health,
        compat::get_move_document,
        compat::engine_movelist_document,
        compat::rate_move_document,
        compat::eval_document
    )
)]
pub struct ApiDoc;

/// `GET /openapi.json`.
async fn openapi() -> axum::Json<utoipa::openapi::OpenApi> {
    axum::Json(ApiDoc::openapi())
}

/// `GET /`: the live arena page (`arena web`'s), made once; 404 with the reason when this
/// arena was built without it.
async fn web_page() -> Result<Response, ApiError> {
    static PAGE: std::sync::OnceLock<Result<axum::body::Bytes, String>> =
        std::sync::OnceLock::new();
    let page = PAGE.get_or_init(|| {
        tetris_web_page::page()
            .map(axum::body::Bytes::from)
            .map_err(|error| error.to_string())
    });
    match page {
        Ok(page) => Ok((
            [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
            page.clone(),
        )
            .into_response()),
        Err(message) => Err(ApiError::new(StatusCode::NOT_FOUND, message.clone())),
    }
}

/// The server's routes and layers.
pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/v1/analyze", post(api::analyze))
        .route("/v1/rate", post(api::rate))
        .route("/v1/play", post(api::play))
        .route("/v1/strategies", get(api::strategies))
        .route("/v1/health", get(api::health))
        .route("/openapi.json", get(openapi))
        .route("/", get(web_page))
        .merge(compat::routes())
        .fallback(no_such_endpoint)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(state.settings.max_body))
        .layer(middleware::from_fn_with_state(state.clone(), read_body))
        .layer(middleware::from_fn_with_state(state.clone(), limit_time))
        .layer(middleware::from_fn(log_request))
        // Outermost, so that every answer carries them, the server's own refusals (413, 503,
        // 408) included: a browser reads an error only with CORS' header.
        .layer(middleware::from_fn(common_headers))
        .layer(
            CorsLayer::new()
                .allow_origin(Any)
                .allow_methods(Any)
                .allow_headers(Any),
        )
        .with_state(state)
}

/// Any other path: for a GET outside `/v1/`, the StackRabbit request type its path names once
/// percent-decoded and stripped of whitespace, as StackRabbit reads it (`/get%2Dmove` is
/// `get-move`), or StackRabbit's hint for an unknown type (plain text, as a StackRabbit client
/// reads it); otherwise `{"error"}` naming the endpoint. Both refusals with status 404.
async fn no_such_endpoint(State(state): State<AppState>, request: Request) -> Response {
    let path = request.uri().path();
    if request.method() == axum::http::Method::GET && !path.starts_with("/v1/") {
        let kind = stackrabbit::RequestType::from_path(path);
        match kind.refusal() {
            Some(hint) => {
                return ApiError::new(StatusCode::NOT_FOUND, hint.to_string())
                    .text()
                    .into_response();
            }
            None => {
                let query = axum::extract::RawQuery(request.uri().query().map(str::to_string));
                return compat::answer(kind, State(state), query).await;
            }
        }
    }
    ApiError::new(
        StatusCode::NOT_FOUND,
        format!(
            "no endpoint {} {} (the native API is listed at /openapi.json)",
            request.method(),
            path
        ),
    )
    .into_response()
}

/// A known path with a method it does not take: 405 with `{"error"}` naming the method and
/// the path (axum's own 405 has no body).
async fn method_not_allowed(request: Request) -> ApiError {
    let error = ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        format!(
            "{} is not allowed on {} (the native API is listed at /openapi.json)",
            request.method(),
            request.uri().path()
        ),
    );
    match request.uri().path().starts_with("/v1/") || request.uri().path() == "/openapi.json" {
        true => error,
        false => error.text(),
    }
}

/// Reads a request's whole body before the handler runs, within the body limit (413) and the
/// body timeout (408); either refusal closes the connection (`Connection: close`: the rest of
/// the body may still come). A body declared over the limit (`Content-Length`) is refused at
/// once, before any of it is read; one without a length (chunked) is cut by the limit as it
/// is read. A client that stops sending holds no worker and no connection. The handler then
/// reads the body from memory; from then on the request counts as served, so a connection
/// still waiting for its body is one the server may close for a new client.
async fn read_body(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let limit = state.settings.max_body;
    let timeout = state.settings.connections.body_timeout;
    let text = !request.uri().path().starts_with("/v1/");
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|length| length.to_str().ok())
        .and_then(|length| length.parse::<u64>().ok());
    let (parts, body) = request.into_parts();
    let read = async {
        match declared.is_some_and(|length| length > limit as u64) {
            true => None,
            false => Some(tokio::time::timeout(timeout, axum::body::to_bytes(body, limit)).await),
        }
    };
    let error = match read.await {
        None => ApiError::too_large(limit),
        Some(Ok(Ok(bytes))) => {
            let request = Request::from_parts(parts, axum::body::Body::from(bytes));
            let _serving = connections::ServingCount::enter(&request);
            return next.run(request).await;
        }
        Some(Ok(Err(error))) if is_over_limit(&error) => ApiError::too_large(limit),
        Some(Ok(Err(error))) => {
            ApiError::bad_request(format!("the body could not be read: {error}"))
        }
        Some(Err(_)) => ApiError::new(
            StatusCode::REQUEST_TIMEOUT,
            format!(
                "the body did not arrive within the server's body timeout of {} ms \
                 (--body-timeout-ms)",
                timeout.as_millis()
            ),
        ),
    };
    let mut response = match text {
        true => error.text().into_response(),
        false => error.into_response(),
    };
    response.headers_mut().insert(
        header::CONNECTION,
        header::HeaderValue::from_static("close"),
    );
    response
}

/// Whether reading a body failed on the body limit (not on a client that broke off).
fn is_over_limit(error: &axum::Error) -> bool {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(error);
    while let Some(error) = source {
        if error.is::<http_body_util::LengthLimitError>() {
            return true;
        }
        source = error.source();
    }
    false
}

/// Headers every answer carries: `X-Content-Type-Options: nosniff`, so that a browser never
/// reads a plain-text error (which echoes what the client sent) as HTML or script.
async fn common_headers(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    response.headers_mut().insert(
        header::X_CONTENT_TYPE_OPTIONS,
        header::HeaderValue::from_static("nosniff"),
    );
    response
}

/// Answers 503 when a request outlasts the time limit (reading its body included); the
/// handler is dropped, which cancels its job.
async fn limit_time(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let limit = state.settings.timeout;
    let text = request.uri().path().starts_with("/v1/") || request.uri().path() == "/openapi.json";
    match tokio::time::timeout(limit, next.run(request)).await {
        Ok(response) => response,
        Err(_) => {
            let error = ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "the request took longer than the server's time limit of {} ms (--timeout-ms)",
                    limit.as_millis()
                ),
            );
            match text {
                true => error.into_response(),
                false => error.text().into_response(),
            }
        }
    }
}

/// One line per request on stderr: method, path, status, microseconds; or, for a request
/// whose client went away before its answer (its job is cancelled), `client gone` instead of
/// the status.
async fn log_request(request: Request, next: Next) -> Response {
    /// Logs the request when dropped: with its status once answered, else as abandoned.
    struct LogLine {
        start: Instant,
        method: axum::http::Method,
        path: String,
        status: Option<u16>,
    }
    impl Drop for LogLine {
        fn drop(&mut self) {
            let (method, path, micros) =
                (&self.method, &self.path, self.start.elapsed().as_micros());
            match self.status {
                Some(status) => tracing::info!("{method} {path} {status} {micros}us"),
                None => tracing::info!(
                    "{method} {path} client gone {micros}us (the request was cancelled)"
                ),
            }
        }
    }
    let mut line = LogLine {
        start: Instant::now(),
        method: request.method().clone(),
        path: request.uri().path().to_string(),
        status: None,
    };
    let response = next.run(request).await;
    line.status = Some(response.status().as_u16());
    response
}

/// Runs the server until SIGINT or SIGTERM: binds `settings.bind`, calls `listening` with the
/// address bound (port 0 picks a free one), answers requests, and on the signal lets the
/// requests in flight finish within the grace period ([`connections::serve`]).
pub fn serve(
    settings: ServeSettings,
    listening: impl FnOnce(SocketAddr),
) -> Result<(), ServeError> {
    crate::memory::large_blocks_on_their_own_pages();
    let pool = WorkerPool::start(settings.workers, settings.max_queue)
        .map_err(|error| ServeError::Internal(format!("cannot start the workers: {error}")))?;
    let (bind, limits) = (settings.bind, settings.connections);
    let state = AppState {
        settings,
        pool: Arc::new(pool),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("arena-serve-io")
        .enable_all()
        .build()
        .map_err(|error| ServeError::Internal(format!("cannot start the server: {error}")))?;
    runtime.block_on(async move {
        let listener = connections::listen(bind).map_err(|error| ServeError::Bind {
            address: bind.to_string(),
            message: error.to_string(),
        })?;
        let address = listener.local_addr().map_err(|error| ServeError::Bind {
            address: bind.to_string(),
            message: error.to_string(),
        })?;
        let _ = tracing_subscriber::fmt()
            .with_writer(std::io::stderr)
            .with_target(false)
            .with_ansi(false)
            .try_init();
        listening(address);
        match connections::serve(listener, router(state), limits, shutdown_signal()).await {
            0 => tracing::info!("stopped: every request in flight was answered"),
            dropped => tracing::info!(
                "stopped: closed {dropped} connections still open after the grace period \
                 (--shutdown-grace-ms)"
            ),
        }
        Ok(())
    })
}

/// Resolves at SIGINT (Ctrl-C) or SIGTERM.
async fn shutdown_signal() {
    let interrupt = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => {},
        () = terminate => {},
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The status and JSON body an error of the arena's answers with.
    fn answer(error: impl Into<ApiError>) -> (u16, serde_json::Value) {
        let response = error.into().into_response();
        let status = response.status().as_u16();
        let body = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(axum::body::to_bytes(response.into_body(), usize::MAX))
            .unwrap();
        (status, serde_json::from_slice(&body).unwrap())
    }

    /// The smallest and largest value `accepts` takes among `candidates` around `range`'s
    /// ends, which must be exactly `range`'s ends: the check's own bounds, found by asking it.
    fn check_bounds(range: (u64, u64), accepts: impl Fn(u64) -> bool) -> (u64, u64) {
        let (low, high) = range;
        assert!(
            low == 0 || !accepts(low - 1),
            "the check takes {} below {low}",
            low - 1
        );
        assert!(
            high == u64::MAX || !accepts(high + 1),
            "the check takes {}",
            high + 1
        );
        assert!(
            accepts(low) && accepts(high),
            "the check refuses {low} or {high}"
        );
        (low, high)
    }

    #[test]
    fn every_published_bound_is_the_checks_bound() {
        use tetris_arena_io::values::{BoardHeight, Level, TapRate, TopCount};
        use tetris_arena_jobs::serve::{MAX_SERVED_PIECES, served_piece_cap};
        let document = serde_json::to_value(ApiDoc::openapi()).unwrap();
        let bounds = |schema: &serde_json::Value| -> Option<(u64, u64)> {
            let minimum = schema.get("minimum")?.as_f64()? as u64;
            let maximum = schema.get("maximum").and_then(|value| value.as_f64());
            Some((minimum, maximum.map_or(u64::MAX, |maximum| maximum as u64)))
        };
        // Every bound the document publishes on what a client sends, by where it stands.
        let mut published = Vec::new();
        for name in ["PositionBody", "PlayBody", "PlacementBody"] {
            let properties = document["components"]["schemas"][name]["properties"]
                .as_object()
                .unwrap();
            for (field, schema) in properties {
                if let Some(range) = bounds(schema) {
                    published.push((format!("{name}.{field}"), range));
                }
            }
        }
        for (path, operations) in document["paths"].as_object().unwrap() {
            for operation in operations.as_object().unwrap().values() {
                for parameter in operation["parameters"].as_array().into_iter().flatten() {
                    if let Some(range) = bounds(&parameter["schema"]) {
                        let name = parameter["name"].as_str().unwrap();
                        published.push((format!("{path}?{name}"), range));
                    }
                }
            }
        }
        // Each one against the check that takes the value: asked for its bounds, not told.
        let accepts_level = |level: u64| {
            let query = format!(
                "board={}&currentPiece=T&level={level}&lines=0&inputFrameTimeline=X.",
                "0".repeat(200)
            );
            stackrabbit::parse_query(&stackrabbit::RequestType::GetMove, &query).is_ok()
        };
        let accepts_lines = |lines: u64| {
            let query = format!(
                "board={}&currentPiece=T&level=18&lines={lines}&inputFrameTimeline=X.",
                "0".repeat(200)
            );
            stackrabbit::parse_query(&stackrabbit::RequestType::GetMove, &query).is_ok()
        };
        assert!(!published.is_empty());
        for (place, range) in &published {
            let field = place.rsplit(['.', '?']).next().unwrap();
            let checked = match field {
                "board_height" => check_bounds(range.to_owned(), |value| {
                    BoardHeight::try_from(value).is_ok()
                }),
                "level" if place.contains('.') => {
                    check_bounds(*range, |value| Level::try_from(value).is_ok())
                }
                "tap_rate" => check_bounds(*range, |value| TapRate::try_from(value).is_ok()),
                "top" => check_bounds(*range, |value| TopCount::try_from(value).is_ok()),
                "max_pieces" => check_bounds(*range, |value| served_piece_cap(Some(value)).is_ok()),
                "seed" => check_bounds(*range, |_| true),
                "level" => check_bounds(*range, accepts_level),
                "lines" => check_bounds(*range, accepts_lines),
                other => panic!("{place}: a published bound with no check in this test ({other})"),
            };
            assert_eq!(*range, checked, "{place}");
        }
        // The piece cap in particular: the number the document publishes is the server's.
        let play = &document["components"]["schemas"]["PlayBody"]["properties"]["max_pieces"];
        assert_eq!(play["maximum"].as_f64(), Some(MAX_SERVED_PIECES as f64));
    }

    #[test]
    fn the_status_of_an_error_is_the_one_its_kind_decides() {
        // An internal error (a bug) is no bad request: 500, with the JSON body.
        let (status, body) = answer(ArenaError::Internal("a path did not lock".into()));
        assert_eq!(status, 500);
        assert_eq!(body["error"], "internal error: a path did not lock");
        let (status, _) = answer(ArenaError::Usage("--depth 9 is outside 1..=4".into()));
        assert_eq!(status, 400);
        let (status, body) = answer(tetris_arena_jobs::JobError::Cancelled);
        assert_eq!(status, 503);
        assert!(body["error"].as_str().unwrap().starts_with("cancelled"));
        let missing = std::io::Error::from(std::io::ErrorKind::NotFound);
        let (status, _) = answer(ArenaError::io("weights.json", &missing));
        assert_eq!(status, 500);
    }
}
