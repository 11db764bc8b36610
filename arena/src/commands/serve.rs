//! `arena serve`: the engines as a move server over HTTP (the server is [`tetris_arena_server`]; its
//! endpoints are in docs/server.md). The options are checked by the request layer
//! ([`tetris_arena_jobs::serve::ServeRequest`]); the first line on stdout is the address the
//! server listens on, so a program that started it with port 0 can read the port.

use std::io::Write;
use std::net::SocketAddr;

use tetris_arena_io::values::{
    BodyLimit, BodyTimeout, HeaderTimeout, IdleTimeout, MaxConnections, QueueLength, ShutdownGrace,
    TimeLimit, Workers, WriteTimeout,
};
use tetris_arena_jobs::serve::{ConnectionRequest, ServeRequest};

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
Bad requests answer 400 with the command line's message, each value named by the body's field;
a full queue or the time limit, 503.
Connections: a head must arrive within --header-timeout-ms, a body within --body-timeout-ms (408
otherwise); a silent connection is closed after --idle-timeout-ms, a client that takes none of
its answer after --write-timeout-ms; beyond --max-connections the oldest idle one is closed.
SIGINT or SIGTERM: stop accepting, let the requests in flight finish for up to
--shutdown-grace-ms, close what is left, exit 0.";

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
    /// How long a client may take to send a request's head (request line and headers), in
    /// milliseconds, 1 to 600000 (default 10000), counted from the connection's start or the
    /// end of the previous answer; the connection is then closed.
    #[arg(long, value_name = "MS")]
    pub header_timeout_ms: Option<HeaderTimeout>,
    /// How long a connection that sends nothing and waits for no answer stays open, in
    /// milliseconds, 1 to 600000 (default 5000).
    #[arg(long, value_name = "MS")]
    pub idle_timeout_ms: Option<IdleTimeout>,
    /// How long a client may take to send a request's body after its head, in milliseconds,
    /// 1 to 600000 (default 10000); then the answer is 408 and the connection closed.
    #[arg(long, value_name = "MS")]
    pub body_timeout_ms: Option<BodyTimeout>,
    /// How long a client may take none of its answer, in milliseconds, 1 to 600000 (default
    /// 10000); then the connection is closed and the answer dropped.
    #[arg(long, value_name = "MS")]
    pub write_timeout_ms: Option<WriteTimeout>,
    /// The most connections open at once, 1 to 100000 (default 1000); for one more, the
    /// oldest connection not serving a request is closed (the new one is refused when all
    /// are). Keep it below the open-file limit (`ulimit -n`).
    #[arg(long, value_name = "N")]
    pub max_connections: Option<MaxConnections>,
    /// After SIGINT or SIGTERM, how long the requests in flight may take to finish, in
    /// milliseconds, 1 to 600000 (default 10000); connections still open then are closed.
    #[arg(long, value_name = "MS")]
    pub shutdown_grace_ms: Option<ShutdownGrace>,
    /// The strategy StackRabbit's endpoints (get-move, engine-movelist, rate-move, eval)
    /// answer with: a gamepad strategy that reads no file (default: the strongest NES bot
    /// that answers within a decision's time; docs/server.md has the measured times).
    #[arg(long, value_name = "STRATEGY", default_value = ServeRequest::DEFAULT_STACKRABBIT_STRATEGY)]
    pub stackrabbit_strategy: String,
}

/// Runs `arena serve` until SIGINT or SIGTERM.
pub fn run(args: Args) -> Result<(), tetris_arena_server::ServeError> {
    let settings = ServeRequest {
        bind: args.bind,
        workers: args.workers,
        max_queue: args.max_queue,
        timeout: args.timeout_ms,
        max_body: args.max_body,
        connections: ConnectionRequest {
            header_timeout: args.header_timeout_ms,
            idle_timeout: args.idle_timeout_ms,
            body_timeout: args.body_timeout_ms,
            write_timeout: args.write_timeout_ms,
            max_connections: args.max_connections,
            shutdown_grace: args.shutdown_grace_ms,
        },
        stackrabbit_strategy: Some(args.stackrabbit_strategy),
    }
    .check()?;
    let workers = settings.workers;
    tetris_arena_server::serve(settings, move |address| {
        let mut stdout = std::io::stdout().lock();
        // A closed stdout is no reason not to serve: the address is also in the log.
        let _ = writeln!(stdout, "listening on http://{address}");
        let _ = stdout.flush();
        tracing::info!("listening on http://{address} with {workers} workers");
    })
}
