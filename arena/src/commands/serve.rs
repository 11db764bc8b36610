//! `arena serve`: the engines as a move server over HTTP (the server is [`tetris_arena_server`]; its
//! endpoints are in docs/server.md). The options are checked by the request layer
//! ([`tetris_arena_jobs::serve::ServeRequest`]); the first line on stdout is the address the
//! server listens on, so a program that started it with port 0 can read the port.

use std::io::Write;
use std::net::SocketAddr;

use tetris_arena_io::values::{BodyLimit, QueueLength, TimeLimit, Workers};
use tetris_arena_jobs::serve::ServeRequest;

/// What `arena serve --help` says after the options.
const ENDPOINTS: &str = "\
Endpoints (docs/server.md has every field):
  POST /v1/analyze     rank a position's placements  {\"strategy\", \"board\", \"current\", \"preview\", ...}
  POST /v1/rate        rate a player's placement      (the same, plus \"placement\": {\"x\", \"y\", \"rotation\"})
  POST /v1/play        play a game, as `arena play --json`  {\"strategy\", \"seed\", \"max_pieces\", ...}
  GET  /v1/strategies  the names `arena list` shows
  GET  /v1/health      up, version, workers
  GET  /openapi.json   the native API's OpenAPI 3 document
  GET  /ping /version /get-move /engine-movelist /rate-move /eval (and -cpp)  StackRabbit's API
Example: curl -s localhost:3000/v1/analyze -d '{\"strategy\": \"bfs+elashi@2\", \"board\": \"0000...\", \"current\": \"T\", \"preview\": [\"I\"]}'
Bad requests answer 400 with the command line's message; a full queue or the time limit, 503.
SIGINT or SIGTERM: stop accepting, finish the requests in flight, exit 0.";

/// Options of `arena serve`.
#[derive(Debug, clap::Args)]
#[command(after_help = ENDPOINTS)]
pub struct Args {
    /// The address to listen on: loopback by default; 0.0.0.0:PORT for every interface; port 0
    /// for any free port (the first line on stdout says which).
    #[arg(long, value_name = "ADDRESS", default_value = ServeRequest::DEFAULT_BIND)]
    pub bind: SocketAddr,
    /// Searches run at once, 1 to 256 (default: the cores).
    #[arg(long, value_name = "N")]
    pub workers: Option<Workers>,
    /// Requests that may wait for a worker, 0 to 100000 (default 64); one more is answered
    /// 503 at once.
    #[arg(long, value_name = "N")]
    pub max_queue: Option<QueueLength>,
    /// The time limit of a request, in milliseconds, 1 to 600000 (default 10000); a request
    /// that outlasts it is answered 503 and its search cancelled.
    #[arg(long, value_name = "MS")]
    pub timeout_ms: Option<TimeLimit>,
    /// The largest request body read, in bytes, 1024 to 16777216 (default 65536); a larger
    /// one is answered 413.
    #[arg(long, value_name = "BYTES")]
    pub max_body: Option<BodyLimit>,
}

/// Runs `arena serve` until SIGINT or SIGTERM.
pub fn run(args: Args) -> Result<(), tetris_arena_server::ServeError> {
    let settings = ServeRequest {
        bind: args.bind,
        workers: args.workers,
        max_queue: args.max_queue,
        timeout: args.timeout_ms,
        max_body: args.max_body,
    }
    .check()?;
    tetris_arena_server::serve(settings, |address| {
        let mut stdout = std::io::stdout().lock();
        // A closed stdout is no reason not to serve: the address is also in the log.
        let _ = writeln!(stdout, "listening on http://{address}");
        let _ = stdout.flush();
        tracing::info!(
            "listening on http://{address} with {} workers",
            settings.workers
        );
    })
}
