//! The move server's requests (`arena serve`): the server's own settings, and the rules a
//! served job adds to the command line's.
//!
//! A job over HTTP is the command line's job (the same [`crate::analyze`] and
//! [`crate::game`] checks, so the same mistake gives the same message), with three
//! rules more, since the client is another program, maybe on another machine:
//!
//! - the server reads no file a request names: a strategy with a weights file or a pattern
//!   file, and the `file:PATH` generator, are refused (built-in presets only);
//! - a position comes in the request, as rows or as cells ([`BoardText`]);
//! - a game is bounded: `max_pieces` is required and at most [`MAX_SERVED_PIECES`], so that
//!   no request holds a worker or its memory without bound.

use std::net::SocketAddr;
use std::time::Duration;

use thiserror::Error as ThisError;

use tetris_core::{Board, GeneratorKind, Piece, PieceState, Placement};
use tetris_registry::{StrategySpec, WeightsChoice};

use crate::error::JobError;
use tetris_arena_io::input::{board_from_cells, board_from_rows};
use tetris_arena_io::values::{
    BoardHeight, BodyLimit, BodyTimeout, HeaderTimeout, IdleTimeout, MaxConnections, QueueLength,
    ShutdownGrace, TimeLimit, Workers, WriteTimeout,
};

/// The most pieces one served game plays.
pub const MAX_SERVED_PIECES: u64 = 100_000;

/// `arena serve`'s options.
#[derive(Clone, Debug)]
pub struct ServeRequest {
    /// The address to listen on (port 0: any free port, printed at start).
    pub bind: SocketAddr,
    /// Worker threads (`None`: the available cores).
    pub workers: Option<Workers>,
    /// Requests that may wait for a worker (`None`: [`ServeRequest::DEFAULT_QUEUE`]).
    pub max_queue: Option<QueueLength>,
    /// The time limit per request (`None`: [`ServeRequest::DEFAULT_TIMEOUT_MS`]).
    pub timeout: Option<TimeLimit>,
    /// The largest body read (`None`: [`ServeRequest::DEFAULT_MAX_BODY`]).
    pub max_body: Option<BodyLimit>,
    /// The limits every connection lives under.
    pub connections: ConnectionRequest,
    /// The strategy behind StackRabbit's endpoints (`None`:
    /// [`ServeRequest::DEFAULT_STACKRABBIT_STRATEGY`]).
    pub stackrabbit_strategy: Option<String>,
}

/// `arena serve`'s limits on connections; each `None` takes its default
/// ([`ConnectionRequest`]'s constants).
#[derive(Clone, Copy, Debug, Default)]
pub struct ConnectionRequest {
    /// `--header-timeout-ms`.
    pub header_timeout: Option<HeaderTimeout>,
    /// `--idle-timeout-ms`.
    pub idle_timeout: Option<IdleTimeout>,
    /// `--body-timeout-ms`.
    pub body_timeout: Option<BodyTimeout>,
    /// `--write-timeout-ms`.
    pub write_timeout: Option<WriteTimeout>,
    /// `--max-connections`.
    pub max_connections: Option<MaxConnections>,
    /// `--shutdown-grace-ms`.
    pub shutdown_grace: Option<ShutdownGrace>,
}

impl ConnectionRequest {
    /// The default time to send a request's head, in milliseconds.
    pub const DEFAULT_HEADER_TIMEOUT_MS: u64 = 10_000;
    /// The default time a connection may stay silent between requests, in milliseconds.
    pub const DEFAULT_IDLE_TIMEOUT_MS: u64 = 5_000;
    /// The default time to send a request's body, in milliseconds.
    pub const DEFAULT_BODY_TIMEOUT_MS: u64 = 10_000;
    /// The default time a client may take no more of its answer, in milliseconds.
    pub const DEFAULT_WRITE_TIMEOUT_MS: u64 = 10_000;
    /// The default number of open connections.
    pub const DEFAULT_MAX_CONNECTIONS: usize = 1_000;
    /// The default grace period at shutdown, in milliseconds.
    pub const DEFAULT_SHUTDOWN_GRACE_MS: u64 = 10_000;

    /// The limits, defaults filled in.
    pub fn check(self) -> ConnectionLimits {
        let millis =
            |value: Option<u64>, default: u64| Duration::from_millis(value.unwrap_or(default));
        ConnectionLimits {
            header_timeout: millis(
                self.header_timeout.map(HeaderTimeout::get),
                Self::DEFAULT_HEADER_TIMEOUT_MS,
            ),
            idle_timeout: millis(
                self.idle_timeout.map(IdleTimeout::get),
                Self::DEFAULT_IDLE_TIMEOUT_MS,
            ),
            body_timeout: millis(
                self.body_timeout.map(BodyTimeout::get),
                Self::DEFAULT_BODY_TIMEOUT_MS,
            ),
            write_timeout: millis(
                self.write_timeout.map(WriteTimeout::get),
                Self::DEFAULT_WRITE_TIMEOUT_MS,
            ),
            max_connections: self
                .max_connections
                .map_or(Self::DEFAULT_MAX_CONNECTIONS, MaxConnections::get),
            shutdown_grace: millis(
                self.shutdown_grace.map(ShutdownGrace::get),
                Self::DEFAULT_SHUTDOWN_GRACE_MS,
            ),
        }
    }
}

/// The limits every connection lives under, checked (docs/server.md, "Connections").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConnectionLimits {
    /// A request's head (request line and headers) must arrive within this time, counted from
    /// the moment the server waits for it; otherwise the connection is closed.
    pub header_timeout: Duration,
    /// A connection that serves no request and sends no byte for this long is closed.
    pub idle_timeout: Duration,
    /// A request's body must arrive within this time after its head (408 otherwise).
    pub body_timeout: Duration,
    /// A client that takes no byte of its answer for this long is disconnected.
    pub write_timeout: Duration,
    /// At most this many connections are open; the oldest not serving a request is closed
    /// for a new one, or the new one is refused when every connection is serving one.
    pub max_connections: usize,
    /// After SIGINT or SIGTERM, the requests in flight have this long to finish before every
    /// connection still open is closed.
    pub shutdown_grace: Duration,
}

/// The server's settings, checked.
#[derive(Clone, Debug)]
pub struct ServeSettings {
    /// The address to listen on.
    pub bind: SocketAddr,
    /// Worker threads.
    pub workers: usize,
    /// Requests that may wait for a worker.
    pub max_queue: usize,
    /// The time limit per request.
    pub timeout: Duration,
    /// The largest body read, in bytes.
    pub max_body: usize,
    /// The limits every connection lives under.
    pub connections: ConnectionLimits,
    /// The strategy behind StackRabbit's endpoints: a gravity-aware one that reads no file,
    /// as named (its name is parsed again per request, as every served strategy's is).
    pub stackrabbit_strategy: std::sync::Arc<str>,
}

impl ServeRequest {
    /// The default address: loopback only, port 3000 (StackRabbit's).
    pub const DEFAULT_BIND: &'static str = "127.0.0.1:3000";
    /// The default queue: requests waiting for a worker.
    pub const DEFAULT_QUEUE: usize = 64;
    /// The default time limit, in milliseconds.
    pub const DEFAULT_TIMEOUT_MS: u64 = 10_000;
    /// The default body limit, in bytes.
    pub const DEFAULT_MAX_BODY: usize = 64 << 10;
    /// The default strategy behind StackRabbit's endpoints: our strongest NES bot, whose
    /// answers keep within a decision's time budget (p99 ≤ 100 ms) at every uniform timeline
    /// on a 2-core machine (docs/stackrabbit.md, "The strategy behind the endpoints", has the
    /// measured times).
    pub const DEFAULT_STACKRABBIT_STRATEGY: &'static str =
        "gamepad+nes-plateau,expectimax=3,prefer-bonus=80,playouts=16,extra-deep-wells=5@2";

    /// The settings, defaults filled in.
    pub fn check(&self) -> Result<ServeSettings, JobError> {
        Ok(ServeSettings {
            bind: self.bind,
            workers: match self.workers {
                Some(workers) => workers.get(),
                None => std::thread::available_parallelism()
                    .map_or(1, |cores| cores.get().min(Workers::MAX)),
            },
            max_queue: self.max_queue.map_or(Self::DEFAULT_QUEUE, QueueLength::get),
            timeout: Duration::from_millis(
                self.timeout
                    .map_or(Self::DEFAULT_TIMEOUT_MS, TimeLimit::get),
            ),
            max_body: self.max_body.map_or(Self::DEFAULT_MAX_BODY, BodyLimit::get),
            connections: self.connections.check(),
            stackrabbit_strategy: check_stackrabbit_strategy(
                self.stackrabbit_strategy
                    .as_deref()
                    .unwrap_or(Self::DEFAULT_STACKRABBIT_STRATEGY),
            )?
            .into(),
        })
    }
}

/// A served request that breaks a rule of the server.
#[derive(Debug, Clone, PartialEq, Eq, ThisError)]
pub enum ServeRequestError {
    /// A strategy that reads a file.
    #[error(
        "strategy {strategy}: the server reads no files, and this strategy reads the {what} \
         {path} (name a built-in preset; `arena list` shows them)"
    )]
    ReadsFile {
        /// The strategy as named.
        strategy: String,
        /// `weights file` or `pattern file`.
        what: &'static str,
        /// The file named.
        path: String,
    },
    /// A strategy for StackRabbit's endpoints whose searcher ignores the frames.
    #[error(
        "--stackrabbit-strategy {0}: StackRabbit's endpoints answer frame-by-frame inputs, so \
         the strategy's searcher must simulate them (gamepad+...)"
    )]
    StackRabbitNeedsFrames(String),
    /// The `file:PATH` generator.
    #[error("generator file:{0}: the server reads no files (use a seeded generator)")]
    PieceFile(String),
    /// A game without a piece cap, or above the server's.
    #[error(
        "max_pieces {0}: a served game plays 1 to {MAX_SERVED_PIECES} pieces (max_pieces is \
         required)"
    )]
    PieceCap(String),
    /// A rating without the player's placement.
    #[error(
        "placement is missing: /v1/rate rates the player's placement {{\"x\", \"y\", \"rotation\"}}"
    )]
    PlacementMissing,
    /// An analysis given a placement to rate.
    #[error("placement is for /v1/rate: /v1/analyze ranks every placement")]
    PlacementNotForAnalyze,
    /// A placement whose rotation the piece does not have.
    #[error("placement: {piece} has rotations 0 to {last}, not {rotation}")]
    Rotation {
        /// The piece.
        piece: Piece,
        /// Its last rotation.
        last: u8,
        /// The rotation given.
        rotation: i64,
    },
    /// A placement with a cell outside the field's columns or below its floor, or on an
    /// occupied cell.
    #[error(
        "placement: {piece} at x={x} y={y} rotation={rotation} does not fit the board (a cell \
         is outside the field or on an occupied cell)"
    )]
    DoesNotFit {
        /// The piece.
        piece: Piece,
        /// Pivot column.
        x: i64,
        /// Pivot row.
        y: i64,
        /// Rotation.
        rotation: i64,
    },
}

/// Checks the strategy behind StackRabbit's endpoints: a served strategy (no file read) whose
/// searcher simulates the frames (its answers are frame-by-frame input sequences); gives its
/// name back.
pub fn check_stackrabbit_strategy(name: &str) -> Result<&str, JobError> {
    check_served_strategy(name)?;
    let strategy = tetris_registry::Strategy::from_name(name)?;
    if strategy.frame_timing().is_none() {
        return Err(ServeRequestError::StackRabbitNeedsFrames(name.to_string()).into());
    }
    Ok(name)
}

/// Refuses a strategy that would make the server read a file (before anything reads it).
pub fn check_served_strategy(name: &str) -> Result<(), JobError> {
    let spec: StrategySpec = name.parse()?;
    spec.check_inside("be served (the server starts no programs)")?;
    let refuse = |what, path: &str| {
        Err(ServeRequestError::ReadsFile {
            strategy: name.to_string(),
            what,
            path: path.to_string(),
        }
        .into())
    };
    if let WeightsChoice::File(path) = &spec.weights {
        return refuse("weights file", path);
    }
    if let Some(path) = &spec.options.pattern {
        return refuse("pattern file", path);
    }
    Ok(())
}

/// Refuses the generator that reads a file.
pub fn check_served_generator(generator: &GeneratorKind) -> Result<(), ServeRequestError> {
    match generator {
        GeneratorKind::File(path) => Err(ServeRequestError::PieceFile(path.to_string())),
        _ => Ok(()),
    }
}

/// The piece cap of a served game: required, 1 to [`MAX_SERVED_PIECES`].
pub fn served_piece_cap(max_pieces: Option<u64>) -> Result<u64, ServeRequestError> {
    match max_pieces {
        Some(cap) if (1..=MAX_SERVED_PIECES).contains(&cap) => Ok(cap),
        Some(cap) => Err(ServeRequestError::PieceCap(cap.to_string())),
        None => Err(ServeRequestError::PieceCap("missing".to_string())),
    }
}

/// A board in a request: its rows (top first, 10 `#`/`.` characters each, as a board file's
/// lines), or its cells (`0`/`1`, row by row from the top, as StackRabbit sends them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardText {
    /// Rows of `#` and `.`.
    Rows(Vec<String>),
    /// Cells of `0` and `1`.
    Cells(String),
}

impl BoardText {
    /// The board, exactly `height` rows (messages start with `board`).
    pub fn board(&self, height: BoardHeight) -> Result<Board, JobError> {
        Ok(match self {
            BoardText::Rows(rows) => board_from_rows(rows, height.get(), "board"),
            BoardText::Cells(cells) => board_from_cells(cells, height.get(), "board"),
        }?)
    }
}

/// A player's placement of `piece` on `board` as a request gives it (pivot column `x`, pivot
/// row `y` from the top, `rotation` as in `arena analyze`'s output): every cell must be inside
/// the field's columns, above its floor and on an empty cell (cells above the top row are
/// allowed, as for any placement).
pub fn player_placement(
    board: &Board,
    piece: Piece,
    x: i64,
    y: i64,
    rotation: i64,
) -> Result<Placement, ServeRequestError> {
    let last = piece.orientation_count() - 1;
    let Some(rotation_index) = u8::try_from(rotation).ok().filter(|&r| r <= last) else {
        return Err(ServeRequestError::Rotation {
            piece,
            last,
            rotation,
        });
    };
    let does_not_fit = ServeRequestError::DoesNotFit {
        piece,
        x,
        y,
        rotation,
    };
    // Any pivot beyond ±64 puts a cell outside the field (10 columns, at most 32 rows).
    let (Some(pivot_x), Some(pivot_y)) = (
        i8::try_from(x).ok().filter(|x| x.abs() <= 64),
        i8::try_from(y).ok().filter(|y| y.abs() <= 64),
    ) else {
        return Err(does_not_fit);
    };
    let state = PieceState {
        x: pivot_x,
        y: pivot_y,
        rotation: rotation_index,
    };
    match board.fits(piece, state) {
        true => Ok(Placement::new(piece, state)),
        false => Err(does_not_fit),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strategies_and_generators_that_read_files_are_refused() {
        assert!(check_served_strategy("bfs+elashi@2").is_ok());
        assert!(check_served_strategy("gamepad+nes-plateau@2").is_ok());
        assert_eq!(
            check_served_strategy("bfs+elashi:/etc/passwd")
                .unwrap_err()
                .to_string(),
            "strategy bfs+elashi:/etc/passwd: the server reads no files, and this strategy \
             reads the weights file /etc/passwd (name a built-in preset; `arena list` shows \
             them)"
        );
        let pattern = check_served_strategy("bfs+elashi,pattern=p.txt")
            .unwrap_err()
            .to_string();
        assert!(
            pattern.contains("reads the pattern file p.txt"),
            "{pattern}"
        );
        assert!(check_served_strategy("nosuch+elashi").is_err());
        assert_eq!(
            check_served_generator(&"file:pieces.txt".parse().unwrap())
                .unwrap_err()
                .to_string(),
            "generator file:pieces.txt: the server reads no files (use a seeded generator)"
        );
        assert!(check_served_generator(&GeneratorKind::Uniform).is_ok());
    }

    #[test]
    fn a_served_game_has_a_bounded_piece_cap() {
        assert_eq!(served_piece_cap(Some(1)), Ok(1));
        assert_eq!(
            served_piece_cap(Some(MAX_SERVED_PIECES)),
            Ok(MAX_SERVED_PIECES)
        );
        for bad in [None, Some(0), Some(MAX_SERVED_PIECES + 1)] {
            assert!(served_piece_cap(bad).is_err(), "{bad:?}");
        }
        assert_eq!(
            served_piece_cap(None).unwrap_err().to_string(),
            "max_pieces missing: a served game plays 1 to 100000 pieces (max_pieces is required)"
        );
    }

    #[test]
    fn boards_come_as_rows_or_cells() {
        let height = BoardHeight::try_from(4).unwrap();
        let rows = BoardText::Rows(
            ["..........", "..........", "#.........", "##.######."]
                .map(String::from)
                .to_vec(),
        );
        let cells = BoardText::Cells("0000000000000000000010000000001101111110".to_string());
        assert_eq!(rows.board(height).unwrap(), cells.board(height).unwrap());
        assert_eq!(
            BoardText::Cells("01".into())
                .board(height)
                .unwrap_err()
                .to_string(),
            "board: 2 cells, expected 40 (10 × 4, top row first, 0 empty and 1 occupied)"
        );
        let bad = format!("{}2{}", "0".repeat(12), "0".repeat(27));
        assert_eq!(
            BoardText::Cells(bad).board(height).unwrap_err().to_string(),
            "board: cell 13 is '2': cells are 0 (empty) or 1 (occupied)"
        );
        assert_eq!(
            BoardText::Rows(vec!["..........".into()])
                .board(height)
                .unwrap_err()
                .to_string(),
            "board: board has 1 row, expected 4 (--board-height sets the field height)"
        );
    }

    #[test]
    fn a_players_placement_must_fit_the_board() {
        let board = Board::from_bottom_rows(&["#........."], 20).unwrap();
        // The vertical I (rotation 1) in the right column, resting on the floor.
        let placement = player_placement(&board, Piece::I, 9, 18, 1).unwrap();
        assert!(placement.cells.iter().all(|&(x, _)| x == 9));
        assert_eq!(
            player_placement(&board, Piece::O, 4, 18, 1)
                .unwrap_err()
                .to_string(),
            "placement: O has rotations 0 to 0, not 1"
        );
        for (x, y) in [
            (0, 19),
            (-1, 10),
            (10, 10),
            (5, 20),
            (i64::MAX, 0),
            (0, i64::MIN),
        ] {
            assert!(
                matches!(
                    player_placement(&board, Piece::T, x, y, 0),
                    Err(ServeRequestError::DoesNotFit { .. })
                ),
                "{x},{y}"
            );
        }
    }
}
