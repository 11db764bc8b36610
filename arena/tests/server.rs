//! `arena serve` over real HTTP: the binary on an ephemeral loopback port.

mod common;

use common::server::Server;
use serde_json::json;

/// The board of the README's examples: an empty 10 × 20 field but for a bottom row with a
/// gap in the right column, as 200 cells.
fn cells_with_bottom_gap() -> String {
    format!("{}{}", "0".repeat(190), "1111111110")
}

#[test]
fn the_server_answers_health_and_its_openapi_document() {
    let server = Server::start(&["--workers", "1"]);
    let health = server.get("/v1/health");
    assert_eq!(health.status, 200);
    assert_eq!(health.json()["workers"], 1);
    assert_eq!(health.header("access-control-allow-origin"), Some("*"));
    let document = server.get("/openapi.json").json();
    assert!(document["openapi"].as_str().unwrap().starts_with("3."));
    for path in [
        "/v1/analyze",
        "/v1/rate",
        "/v1/play",
        "/v1/strategies",
        "/v1/health",
    ] {
        assert!(document["paths"][path].is_object(), "{path} documented");
    }
    let analyzed = server.post_json(
        "/v1/analyze",
        &json!({"strategy": "bfs+elashi@2", "board": cells_with_bottom_gap(), "current": "T", "preview": ["I"]}),
    );
    assert_eq!(analyzed.status, 200, "{}", analyzed.body);
}
