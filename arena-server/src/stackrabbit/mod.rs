//! StackRabbit's HTTP contract, so that the NES community's tools work unchanged against us.
//!
//! StackRabbit (GregoryCannon/StackRabbit) is the move server that NES analysis tools call:
//! `GET /<request type>?<name>=<value>&…`, answered in plain text or JSON text. This module is
//! that contract as pure code, with no HTTP and no search in it, so the server's handler is
//! three calls: [`RequestType::from_path`] and [`parse_query`] turn the request into a typed
//! [`CompatQuery`] (or a [`CompatError`] whose text is the body to answer), our own analysis
//! runs, and a formatter of [`format`](mod@format) writes the body. docs/stackrabbit.md describes every
//! parameter, field and convention, and what we answer differently.
//!
//! The parts:
//!
//! - [`query`]: the query grammar, the parameters with StackRabbit's own error texts, its two
//!   board encodings, and the input frame timeline (uniform or mixed, the request layer's parse);
//! - [`orientation`]: our placements as StackRabbit's `[rotation, xOffset, yOffset]` triples
//!   and back;
//! - [`format`](mod@format): the answers (`get-move`'s line, `engine-movelist`'s JSON in both engines'
//!   shapes, `rate-move`, `eval`, `version`), the per-frame input sequence notation, the level
//!   after line clears, and the search for the player's placement in `rate-move`.
//!
//! Where StackRabbit has an error text, [`CompatError`] has the same text; where it has none
//! (it would crash or silently guess), the text is ours. StackRabbit answers errors with HTTP
//! 500; the server answers them with 400 (bad input is never a server error).

use thiserror::Error as ThisError;

pub mod format;
pub mod odds;
pub mod orientation;
pub mod query;

pub use format::{
    AdjustedScores, CompatMove, ENGINE_MOVELIST_LENGTH, LineValue, MoveValue, NO_LEGAL_MOVES, PONG,
    RateMoveScores, UNKNOWN_SCORE, board_after, board_text, compress_board, entry_delay_frames,
    format_engine_movelist, format_engine_movelist_cpp, format_eval, format_get_move,
    format_rate_move, format_version, get_move_sequence, input_sequence, is_special_move,
    level_after_clears, rate_move_player_placements, two_decimals,
};
pub use odds::next_piece_odds;
pub use orientation::{
    placement_from_stackrabbit, stackrabbit_cpp_placement, stackrabbit_placement,
};
pub use query::{CompatQuery, parse_query};

/// The request types StackRabbit answers that this server does not (background work, its
/// precomputation for live play, its surface rank table and its hybrid C++ movelist).
pub const NOT_SUPPORTED_TYPES: [&str; 8] = [
    "async-result",
    "engine",
    "engine-movelist-cpp-hybrid",
    "get-move-async",
    "get-move-async-cpp",
    "precompute",
    "precompute-sync",
    "rank-lookup",
];

/// What a StackRabbit request asks for: the first segment of the URL path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RequestType {
    /// `ping`: answered `pong`.
    Ping,
    /// `version`: the versions as JSON.
    Version,
    /// `get-move`: the best placement as one line.
    GetMove,
    /// `get-move-cpp`: the same line (StackRabbit's C++ engine chooses, its JavaScript formats).
    GetMoveCpp,
    /// `engine-movelist`: the top moves as JSON.
    EngineMovelist,
    /// `engine-movelist-cpp`: the top moves in the C++ engine's JSON shape.
    EngineMovelistCpp,
    /// `rate-move`: the player's move and the best move, scored.
    RateMove,
    /// `rate-move-cpp`: the same (see docs/stackrabbit.md for why the shape is the same).
    RateMoveCpp,
    /// `eval`: the value of the position.
    Eval,
    /// A type StackRabbit answers that this server does not ([`NOT_SUPPORTED_TYPES`]).
    NotSupported(String),
    /// Anything else: StackRabbit answers 200 with a hint naming the types.
    Unknown(String),
}

impl RequestType {
    /// Every type this server answers; their names are [`RequestType::name`]'s, the one list
    /// of them (the server's routes are made from it).
    pub const ANSWERED: [RequestType; 9] = [
        RequestType::Version,
        RequestType::GetMove,
        RequestType::GetMoveCpp,
        RequestType::EngineMovelist,
        RequestType::EngineMovelistCpp,
        RequestType::RateMove,
        RequestType::RateMoveCpp,
        RequestType::Eval,
        RequestType::Ping,
    ];

    /// The type a request's name names (`get-move`, …), exactly as StackRabbit matches it.
    pub fn from_name(name: &str) -> RequestType {
        match RequestType::ANSWERED
            .iter()
            .find(|kind| kind.name() == name)
        {
            Some(kind) => kind.clone(),
            None if NOT_SUPPORTED_TYPES.contains(&name) => RequestType::NotSupported(name.into()),
            None => RequestType::Unknown(name.into()),
        }
    }

    /// The type of a URL path (without its query): StackRabbit drops the leading `/`,
    /// percent-decodes and removes every whitespace character, and the rest is the name
    /// (`/get-move/` is therefore unknown, as there). A path that does not decode is unknown.
    pub fn from_path(path: &str) -> RequestType {
        let name = path.strip_prefix('/').unwrap_or(path);
        match query::decode(name) {
            Ok(name) => RequestType::from_name(&name),
            Err(_) => RequestType::Unknown(name.into()),
        }
    }

    /// The request type's name as StackRabbit spells it.
    pub fn name(&self) -> &str {
        match self {
            RequestType::Ping => "ping",
            RequestType::Version => "version",
            RequestType::GetMove => "get-move",
            RequestType::GetMoveCpp => "get-move-cpp",
            RequestType::EngineMovelist => "engine-movelist",
            RequestType::EngineMovelistCpp => "engine-movelist-cpp",
            RequestType::RateMove => "rate-move",
            RequestType::RateMoveCpp => "rate-move-cpp",
            RequestType::Eval => "eval",
            RequestType::NotSupported(name) | RequestType::Unknown(name) => name,
        }
    }

    /// Whether StackRabbit sends this type to its C++ engine (its parser tests whether the
    /// name contains `cpp`): such requests take `playoutCount`, `playoutLength` and
    /// `pruningBreadth` and refuse `lookaheadDepth`.
    pub fn is_cpp(&self) -> bool {
        self.name().contains("cpp")
    }

    /// Whether this type reads `secondBoard` (StackRabbit's parser: the name contains
    /// `rate-move`).
    pub fn is_rate_move(&self) -> bool {
        self.name().contains("rate-move")
    }

    /// The answer for a type this server does not compute: StackRabbit's hint for an unknown
    /// type (which StackRabbit sends with status 200), or our refusal of a StackRabbit type we
    /// do not implement. `None` for the types we answer.
    pub fn refusal(&self) -> Option<CompatError> {
        match self {
            RequestType::NotSupported(name) => Some(CompatError::NotSupported(name.clone())),
            RequestType::Unknown(name) => Some(CompatError::UnknownRequestType(name.clone())),
            _ => None,
        }
    }
}

/// A StackRabbit request we do not answer with a result. The text (`Display`) is the body to
/// answer: StackRabbit's own text where it has one, ours where it has none. One line each.
#[derive(Clone, Debug, PartialEq, Eq, ThisError)]
pub enum CompatError {
    /// An unknown request type (StackRabbit's text; it answers it with status 200).
    #[error("Please specify the request type, e.g. 'get-move' or 'rate-move'. Received: {0}")]
    UnknownRequestType(String),
    /// A StackRabbit request type this server does not implement.
    #[error(
        "Request type '{0}' is StackRabbit's but is not supported by this server, which answers \
         ping, version, get-move, engine-movelist, rate-move and eval, and get-move-cpp, \
         engine-movelist-cpp and rate-move-cpp"
    )]
    NotSupported(String),
    /// A `%` not followed by two hexadecimal digits, or bytes that are not UTF-8, in the URL.
    #[error(
        "Malformed URL encoding in {0:?}: a % must be followed by two hexadecimal digits and the text must be UTF-8"
    )]
    MalformedEncoding(String),
    /// A parameter name StackRabbit does not have (StackRabbit ignores it; we refuse it, so a
    /// misspelt parameter is never silently left at its default).
    #[error("Unknown parameter '{0}'; the parameters are {known}", known = query::PARAMETER_NAMES.join(", "))]
    UnknownParameter(String),
    /// A parameter given twice.
    #[error("Parameter '{0}' is given twice")]
    DuplicateParameter(&'static str),
    /// A parameter without `=value`.
    #[error("Parameter '{0}' has no value (write {0}=VALUE)")]
    MissingValue(&'static str),
    /// A required parameter that is absent.
    #[error("Missing required parameter '{0}'")]
    MissingParameter(&'static str),
    /// StackRabbit's text for a current piece that is not one of IOLJTSZ (upper-cased first).
    #[error("Unknown current piece:{0}")]
    UnknownCurrentPiece(String),
    /// StackRabbit's text for a next piece that is not one of IOLJTSZ (upper-cased first).
    #[error("Unknown next piece:{0}")]
    UnknownNextPiece(String),
    /// StackRabbit's text for a level that is not a whole number ≥ 0.
    #[error("Illegal level: {0}")]
    IllegalLevel(String),
    /// StackRabbit's text for a level below 18.
    #[error("Currently only 18, 19, and 29 starts are supported by StackRabbit. Requested: {0}")]
    LevelBelow18(String),
    /// A level above 255 (StackRabbit has no upper bound).
    #[error("Illegal level: {0} (this server takes levels 18 to 255)")]
    LevelTooHigh(String),
    /// StackRabbit's text for a line count that is not a whole number ≥ 0.
    #[error("Illegal line count: {0}")]
    IllegalLines(String),
    /// A line count above 4294967295 (StackRabbit has no upper bound).
    #[error("Illegal line count: {0} (this server takes 0 to 4294967295)")]
    LinesTooMany(String),
    /// StackRabbit's text for a reaction time that is not a whole number ≥ 0.
    #[error("Illegal reaction time: {0}")]
    IllegalReactionTime(String),
    /// StackRabbit's text for a reaction time above 60 frames (its spelling kept).
    #[error(
        "Reaction time exceeds the maximum possible of 60 frames. Did you accidentally send it in millseconds?"
    )]
    ReactionTimeTooLong,
    /// StackRabbit's text for a timeline with a character other than `X`, `.` and `-`.
    #[error("Invalid input frame timeline: {0}")]
    InvalidTimeline(String),
    /// A timeline our gamepad search cannot follow: the request layer's message
    /// ([`tetris_arena_io::values::timeline`]), the one every front end gives.
    #[error("{0}")]
    Timeline(String),
    /// StackRabbit's text for `lookaheadDepth` on a C++ request.
    #[error(
        "Parameter 'lookaheadDepth' does not apply to C++ queries, please provide values for playoutCount and playoutLength instead."
    )]
    LookaheadOnCpp,
    /// StackRabbit's text for a negative (or, ours, non-numeric) lookahead depth.
    #[error("Invalid lookahead depth: {0}")]
    InvalidLookaheadDepth(String),
    /// StackRabbit's text for a lookahead depth above 1.
    #[error("Maximum supported lookahead depth is currently 1.")]
    LookaheadTooDeep,
    /// StackRabbit's text for `playoutCount` on a JavaScript request (its spelling kept).
    #[error(
        "Parameter 'playoutCount' does not apply to JS queries. Please use lookeaheadDepth instead."
    )]
    PlayoutCountOnJs,
    /// StackRabbit's text for `playoutLength` on a JavaScript request (its spelling kept).
    #[error(
        "Parameter 'playoutLength' does not apply to JS queries. Please use lookeaheadDepth instead."
    )]
    PlayoutLengthOnJs,
    /// `pruningBreadth` on a JavaScript request (it belongs to the C++ engine).
    #[error("Parameter 'pruningBreadth' does not apply to JS queries.")]
    PruningBreadthOnJs,
    /// StackRabbit's text for a negative (or, ours, non-numeric) playout count.
    #[error("Invalid playout count: {0}")]
    InvalidPlayoutCount(String),
    /// StackRabbit's text for a negative (or, ours, non-numeric) playout length.
    #[error("Invalid playout length: {0}")]
    InvalidPlayoutLength(String),
    /// StackRabbit's text for a playout length above 20.
    #[error("Invalid playout length (max is 20): {0}")]
    PlayoutLengthTooLong(String),
    /// StackRabbit's text for count × length above 9,604 (its stray quote kept).
    #[error(
        "Playout volume exceeds the current limit of 9604 moves. Current volume (count * length): {0}\""
    )]
    PlayoutVolume(i128),
    /// StackRabbit's text for a negative (or, ours, non-numeric) pruning breadth.
    #[error("Invalid pruning breadth: {0}")]
    InvalidPruningBreadth(String),
    /// StackRabbit's text for a pruning breadth above 1,156.
    #[error("Invalid pruning breadth (max is 1156): {0}")]
    PruningBreadthTooLarge(String),
    /// A whole-number parameter StackRabbit reads without checking, given something else.
    #[error("Parameter '{parameter}' must be a whole number, not '{value}'")]
    NotAWholeNumber {
        /// The parameter.
        parameter: &'static str,
        /// The value as given.
        value: String,
    },
    /// An `arrWasReset` that is none of `true`, `TRUE`, `1`, `false`, `FALSE`, `0`.
    #[error("Parameter 'arrWasReset' must be true, TRUE, 1, false, FALSE or 0, not '{0}'")]
    IllegalBoolean(String),
    /// A value StackRabbit accepts but this server cannot honour: refused, never ignored.
    #[error("Parameter {parameter}={value} is not supported by this server: {reason}")]
    NotHonoured {
        /// The parameter.
        parameter: &'static str,
        /// The value as given (normalised: the number read).
        value: String,
        /// Why we cannot honour it.
        reason: &'static str,
    },
    /// `secondBoard` on a request type that does not rate a move.
    #[error("Parameter 'secondBoard' applies only to rate-move and rate-move-cpp requests")]
    SecondBoardNotApplicable,
    /// A `rate-move` without `secondBoard`.
    #[error(
        "Missing required parameter 'secondBoard': rate-move needs the board after the player's move (after its line clears)"
    )]
    SecondBoardMissing,
    /// StackRabbit's text for a plain board that is not 200 characters long.
    #[error(
        "Invalid board, must be 200 characters in length (20 rows of 10, listed top to bottom). e.g. 00000000001000000001..."
    )]
    BoardLength,
    /// A plain board with a character other than `0` and `1`.
    #[error(
        "Invalid {parameter}: character {position} is '{character}', but a board is written with 0 (empty) and 1 (full)"
    )]
    BoardCharacter {
        /// `board` or `secondBoard`.
        parameter: &'static str,
        /// The 1-based position of the character.
        position: usize,
        /// The character.
        character: char,
    },
    /// A compressed board that is not `E,<letters>,R` as StackRabbit writes it.
    #[error(
        "Invalid compressed {parameter}: {problem} (the form is E,<letters>,R: E empty rows, two \
         letters a-z A-F per row, then R rows 1111111110, e.g. 15,CaEa,3)"
    )]
    CompressedBoardFormat {
        /// `board` or `secondBoard`.
        parameter: &'static str,
        /// What is wrong.
        problem: String,
    },
    /// StackRabbit's text for a compressed board of other than 20 rows.
    #[error("Invalid compressed board. Must contain 20 rows, but found: {0}")]
    CompressedBoardRows(u64),
    /// A board with a full row: no position at rest has one.
    #[error(
        "Invalid {parameter}: row {row} (counted from the top, 1 to 20) is full, but a board is \
         given after its line clears and has no full row"
    )]
    FullRow {
        /// `board` or `secondBoard`.
        parameter: &'static str,
        /// The 1-based row, from the top.
        row: u32,
    },
    /// A frame of a gamepad path that StackRabbit's input sequence notation has no letter for.
    #[error(
        "Frame {frame} of the move's input holds buttons {buttons}, which StackRabbit's input \
         sequence notation cannot write (it writes one of nothing, A, B, Left, Right, Left or \
         Right with A or B, and Down alone)"
    )]
    UnwritableFrame {
        /// The 0-based frame from the spawn.
        frame: usize,
        /// The buttons' bits (1 Left, 2 Right, 4 Down, 8 A, 16 B).
        buttons: u8,
    },
    /// A path of single moves (the frame-less searches'), which has no frames to write.
    #[error(
        "The move's path is not per-frame gamepad input, so it has no StackRabbit input sequence"
    )]
    NotAFramePath,
    /// A best move whose path needs a frame StackRabbit's notation cannot write, and that no
    /// one-button-per-tap path reaches.
    #[error(
        "The best move needs Down held with a turn or a shift in one frame, which StackRabbit's \
         input sequence cannot write, and no path of one button per tap frame reaches it; \
         POST /v1/analyze gives its frame-by-frame path"
    )]
    NoWritablePath,
}

impl CompatError {
    /// What kind of failure this is: a query the server refuses, bad input.
    pub fn kind(&self) -> tetris_arena_io::ErrorKind {
        tetris_arena_io::ErrorKind::BadInput
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_types_are_matched_as_stackrabbit_matches_them() {
        assert_eq!(RequestType::from_path("/ping"), RequestType::Ping);
        assert_eq!(RequestType::from_path("/get-move"), RequestType::GetMove);
        assert_eq!(
            RequestType::from_path("/engine-movelist-cpp"),
            RequestType::EngineMovelistCpp
        );
        // Decoded and stripped of whitespace first, as StackRabbit does.
        assert_eq!(
            RequestType::from_path("/rate%2Dmove"),
            RequestType::RateMove
        );
        assert_eq!(
            RequestType::from_path("/rate-%20move"),
            RequestType::RateMove
        );
        assert_eq!(
            RequestType::from_path("/get-move/"),
            RequestType::Unknown("get-move/".into())
        );
        assert_eq!(
            RequestType::from_path("/precompute"),
            RequestType::NotSupported("precompute".into())
        );
        assert!(RequestType::RateMoveCpp.is_cpp() && RequestType::RateMoveCpp.is_rate_move());
        assert!(!RequestType::Eval.is_cpp() && !RequestType::GetMove.is_rate_move());
        assert_eq!(RequestType::GetMove.refusal(), None);
        assert_eq!(
            RequestType::from_path("/hello")
                .refusal()
                .unwrap()
                .to_string(),
            "Please specify the request type, e.g. 'get-move' or 'rate-move'. Received: hello"
        );
        assert!(
            RequestType::from_path("/engine-movelist-cpp-hybrid")
                .refusal()
                .unwrap()
                .to_string()
                .starts_with("Request type 'engine-movelist-cpp-hybrid' is StackRabbit's but is not supported")
        );
    }
}
