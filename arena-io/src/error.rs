//! What kind of failure an error is, and the errors of reading and writing files.
//!
//! Every crate of the arena has its own error enum next to its code, and each answers
//! `kind()` with one [`ErrorKind`]. The kind alone decides what a front end does with an
//! error: the command line's exit code ([`ErrorKind::exit_code`]), the move server's HTTP
//! status ([`ErrorKind::http_status`]) and the Python package's exception class. The kinds live
//! here, in the lowest crate of the arena, so that every layer classifies its own errors and
//! no layer has to know the ones above it.

use thiserror::Error as ThisError;

use crate::fields::Field;
use crate::output::OutputError;

/// What kind of failure an error is; see the module's table in `docs/commands.md`
/// ("Exit codes").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The input is wrong: a value out of range, a file's content that does not parse, a
    /// request that breaks a rule of its job, an output path that must not be replaced. The
    /// caller can fix it by changing what it asked.
    BadInput,
    /// The operating system could not read or write a file or stream (a missing file, no
    /// permission, a full disk), with the operating system's own kind of failure.
    Io(std::io::ErrorKind),
    /// The job was stopped before it finished: Ctrl-C, or a served job cancelled (its time
    /// limit passed or the server is shutting down). What finished may have been kept.
    Interrupted,
    /// An engine outside the arena's process failed or broke its protocol.
    Engine,
    /// A bug: a broken promise between the arena's own parts (or a thread that could not
    /// start). Nothing the caller asked can fix it.
    Internal,
}

impl ErrorKind {
    /// Every kind, for the tables that document them.
    pub const ALL: [ErrorKind; 5] = [
        ErrorKind::BadInput,
        ErrorKind::Io(std::io::ErrorKind::Other),
        ErrorKind::Interrupted,
        ErrorKind::Engine,
        ErrorKind::Internal,
    ];

    /// The name of the kind, as the docs' tables and the server's JSON bodies (`"kind"`) say it.
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::BadInput => "bad_input",
            ErrorKind::Io(_) => "io",
            ErrorKind::Interrupted => "interrupted",
            ErrorKind::Engine => "engine",
            ErrorKind::Internal => "internal",
        }
    }

    /// The `arena` command's exit code: 2 for bad input (as clap's own usage errors), 3 for a
    /// file the system could not read or write, 4 for an outside engine's fault, 5 for an
    /// internal error, 130 (128 + SIGINT, the shells' convention) for an interrupted run.
    pub fn exit_code(self) -> u8 {
        match self {
            ErrorKind::BadInput => 2,
            ErrorKind::Io(_) => 3,
            ErrorKind::Engine => 4,
            ErrorKind::Internal => 5,
            ErrorKind::Interrupted => 130,
        }
    }

    /// The move server's HTTP status: 400 for bad input, 503 for a job cancelled or
    /// interrupted (try again later), 502 for an outside engine's fault, 500 for an I/O or
    /// internal failure.
    pub fn http_status(self) -> u16 {
        match self {
            ErrorKind::BadInput => 400,
            ErrorKind::Interrupted => 503,
            ErrorKind::Engine => 502,
            ErrorKind::Io(_) | ErrorKind::Internal => 500,
        }
    }
}

/// The kind of a core error: a file the core could not read (a piece file, a weights file)
/// is I/O; everything else it refuses (a board, a piece, a generator, weights, a file too
/// large for its kind) is bad input.
pub fn core_error_kind(error: &tetris_core::Error) -> ErrorKind {
    match error {
        tetris_core::Error::Io { kind, .. }
        | tetris_core::Error::WeightsFile { io: Some(kind), .. } => ErrorKind::Io(*kind),
        _ => ErrorKind::BadInput,
    }
}

/// The kind of a registry error: a weights or pattern file the core could not read is I/O;
/// a strategy name that does not parse or names unknown engines is bad input; an outside
/// engine that could not start or answer its handshake is the engine's.
pub fn registry_error_kind(error: &tetris_registry::RegistryError) -> ErrorKind {
    match error {
        tetris_registry::RegistryError::Core(error) => core_error_kind(error),
        tetris_registry::RegistryError::Outside { .. } => ErrorKind::Engine,
        _ => ErrorKind::BadInput,
    }
}

/// A file or stream that could not be read or written, or whose content or name is refused
/// (board files, output paths, atomic writes, standard output).
#[derive(Debug, ThisError)]
pub enum FileError {
    /// A file the core refused (too large for its kind, not UTF-8, unreadable) or whose
    /// content it could not parse.
    #[error(transparent)]
    Core(#[from] tetris_core::Error),
    /// A file's content or an output's name that is not what its option takes (one line that
    /// names the option or the file).
    #[error("{0}")]
    Refused(String),
    /// The operating system's failure on a file.
    #[error("{path}: {message}")]
    Io {
        /// The file as the message shows it.
        path: String,
        /// What the operating system said.
        message: String,
        /// The operating system's kind of failure.
        kind: std::io::ErrorKind,
    },
    /// An output that would replace what it must not (a link, a device, an input).
    #[error(transparent)]
    Output(#[from] OutputError),
    /// An output's name that its field does not take (a folder for a file, a name without
    /// `.json`, a folder holding other files): the field, the path, and what is wrong.
    #[error("{field} {path}: {problem}")]
    OutputRefused {
        /// The field that named the output.
        field: Field,
        /// The path as given.
        path: String,
        /// What is wrong with it.
        problem: String,
    },
    /// An output the operating system would not let the arena write where its field says.
    #[error("{field} {path}: {message}")]
    CannotWrite {
        /// The field that named the output.
        field: Field,
        /// The path as given.
        path: String,
        /// What failed, with the operating system's words.
        message: String,
        /// The operating system's kind of failure.
        kind: std::io::ErrorKind,
    },
    /// A board whose rows are not the field's height.
    #[error(
        "{board}: board has {rows}, expected {height} ({field} sets the field height)",
        field = Field::BOARD_HEIGHT
    )]
    BoardRows {
        /// The board as messages name it (`board file PATH`, or `board`).
        board: String,
        /// Its rows, counted in words (`1 row`, `3 rows`).
        rows: String,
        /// The field's height.
        height: u8,
    },
    /// A broken promise of the arena's own (a bug to report).
    #[error("internal error: {0}")]
    Internal(String),
}

impl FileError {
    /// A [`FileError::Io`] for `path`.
    pub fn io(path: impl Into<String>, error: &std::io::Error) -> FileError {
        FileError::Io {
            path: path.into(),
            message: error.to_string(),
            kind: error.kind(),
        }
    }

    /// What kind of failure this is.
    pub fn kind(&self) -> ErrorKind {
        match self {
            FileError::Core(error) => core_error_kind(error),
            FileError::Refused(_)
            | FileError::Output(_)
            | FileError::OutputRefused { .. }
            | FileError::BoardRows { .. } => ErrorKind::BadInput,
            FileError::Io { kind, .. } | FileError::CannotWrite { kind, .. } => {
                ErrorKind::Io(*kind)
            }
            FileError::Internal(_) => ErrorKind::Internal,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_has_its_own_exit_code_and_name() {
        let codes: Vec<u8> = ErrorKind::ALL.iter().map(|kind| kind.exit_code()).collect();
        assert_eq!(codes, [2, 3, 130, 4, 5]);
        let statuses: Vec<u16> = ErrorKind::ALL
            .iter()
            .map(|kind| kind.http_status())
            .collect();
        assert_eq!(statuses, [400, 500, 503, 502, 500]);
        let names: Vec<&str> = ErrorKind::ALL.iter().map(|kind| kind.name()).collect();
        assert_eq!(
            names,
            ["bad_input", "io", "interrupted", "engine", "internal"]
        );
    }

    #[test]
    fn a_missing_file_is_io_and_a_bad_board_is_bad_input() {
        let missing = tetris_core::files::read_text(
            std::path::Path::new("/nonexistent/board.txt"),
            100,
            "board file",
        )
        .unwrap_err();
        assert_eq!(
            FileError::from(missing).kind(),
            ErrorKind::Io(std::io::ErrorKind::NotFound)
        );
        let bad: Result<tetris_core::Board, _> = "x".parse();
        assert_eq!(
            FileError::from(bad.unwrap_err()).kind(),
            ErrorKind::BadInput
        );
    }
}
