//! Why an outside engine's game ended early: its fault, recorded with the game.

use thiserror::Error as ThisError;

/// What kind of fault: the report counts games by it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FaultKind {
    /// The program could not be started.
    Start,
    /// The handshake was missing, malformed or of another protocol version.
    Handshake,
    /// A line that is not a message of the protocol (bad JSON, a wrong `type`, too long, not
    /// UTF-8).
    Malformed,
    /// An answer that names no legal placement.
    Illegal,
    /// No answer within the time limit.
    TooLate,
    /// The program exited or closed its output; the server closed the connection or could
    /// not be reached.
    Exited,
    /// The server answered with an error status.
    Server,
    /// The engine says the piece has no legal move (StackRabbit's `No legal moves`) where the
    /// searcher lists some: it resigns, and the game ends as a top-out, not as a fault.
    Resigned,
    /// A front end's engine (a Python function) raised an error: not a fault of the game but
    /// of the caller's code, so the run stops and the front end raises it.
    Raised,
}

impl FaultKind {
    /// The kind's name in JSON and CSV: `start`, `handshake`, `malformed`, `illegal`,
    /// `too_late`, `exited`, `server`, `resigned`, `raised`.
    pub fn name(self) -> &'static str {
        match self {
            FaultKind::Start => "start",
            FaultKind::Handshake => "handshake",
            FaultKind::Malformed => "malformed",
            FaultKind::Illegal => "illegal",
            FaultKind::TooLate => "too_late",
            FaultKind::Exited => "exited",
            FaultKind::Server => "server",
            FaultKind::Resigned => "resigned",
            FaultKind::Raised => "raised",
        }
    }
}

/// An outside engine's fault: its kind and a one-line reason.
#[derive(Clone, Debug, PartialEq, Eq, ThisError)]
#[error("{message}")]
pub struct Fault {
    /// What kind of fault.
    pub kind: FaultKind,
    /// The reason, one line, as the game's result records it.
    pub message: String,
}
