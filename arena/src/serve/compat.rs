//! StackRabbit's endpoints (placeholder until the compatibility module lands).

use axum::Router;

use crate::serve::AppState;

/// StackRabbit's routes.
pub fn routes() -> Router<AppState> {
    Router::new().route("/ping", axum::routing::get(|| async { "pong" }))
}
