//! The crate's one error type. Every message is one line that names the problem, so the arena
//! can print it after `error:` and exit with code 2.

use thiserror::Error as ThisError;

/// Everything that can go wrong in `tetris-core`: bad boards, pieces, generators, weights.
#[derive(Debug, Clone, PartialEq, ThisError)]
pub enum Error {
    /// A board height outside the supported range.
    #[error("board height {0} is outside the supported range 4..=32")]
    BoardHeight(usize),
    /// A board text with the wrong number of rows.
    #[error("board has {found} row{}, expected {expected}", if *found == 1 { "" } else { "s" })]
    BoardRowCount {
        /// Rows the board should have.
        expected: usize,
        /// Rows found.
        found: usize,
    },
    /// A board row that is not 10 characters long (`line` is 1-based).
    #[error("board line {line} has {found} characters, expected 10")]
    BoardRowLength {
        /// 1-based line number.
        line: usize,
        /// Characters found on the line.
        found: usize,
    },
    /// A character other than `#` or `.` in a board (`line`, `column` are 1-based).
    #[error(
        "board line {line}, column {column}: unexpected character {character:?} (use '#' or '.')"
    )]
    BoardCharacter {
        /// 1-based line number.
        line: usize,
        /// 1-based column number.
        column: usize,
        /// The offending character.
        character: char,
    },
    /// A piece letter that is not one of `T J Z O S L I`.
    #[error("unknown piece {0:?} (valid: T J Z O S L I)")]
    UnknownPiece(String),
    /// A generator name that is not known.
    #[error("unknown generator {name:?} (valid: {valid})")]
    UnknownGenerator {
        /// The name given.
        name: String,
        /// The valid names, space separated.
        valid: String,
    },
    /// A preview (pieces seen before the current one is placed) asked of a generator that
    /// deals each piece only after the previous one is placed (`mdptetris`).
    #[error(
        "the {0} generator deals a piece only after the previous one is placed (MDPTetris's \
         search consumes draws), so it cannot show a preview: use a one-piece strategy"
    )]
    NoPreview(String),
    /// A game-over rule name that is not known.
    #[error("unknown game-over rule {0:?} (valid: simulation literature console)")]
    UnknownGameOverRule(String),
    /// An input model name that is not known.
    #[error("unknown input model {0:?} (valid: two-thumb article)")]
    UnknownInputModel(String),
    /// A character in a piece file that is neither a piece letter nor white space.
    #[error(
        "piece file {path}: line {line}, column {column}: {character:?} is not a piece letter (T J Z O S L I)"
    )]
    PieceFileCharacter {
        /// The file.
        path: String,
        /// 1-based line number.
        line: usize,
        /// 1-based column number (in characters).
        column: usize,
        /// The offending character.
        character: char,
    },
    /// A piece file without a piece letter.
    #[error("piece file {0}: holds no pieces (piece letters T J Z O S L I, white space between)")]
    EmptyPieceFile(String),
    /// A file that could not be read or written.
    #[error("{path}: {message}")]
    Io {
        /// The file.
        path: String,
        /// What the operating system said.
        message: String,
        /// What kind of failure it was (a missing file, no permission, not UTF-8, …), so a
        /// front end can say so in its own terms (Python's `FileNotFoundError`).
        kind: std::io::ErrorKind,
    },
    /// A file larger than the limit for its kind ([`crate::files::read_text`]).
    #[error(
        "{what} {path}: larger than {} (the limit for a {what})",
        crate::files::size_text(*limit)
    )]
    FileTooLarge {
        /// The kind of file (`replay`, `weights file`, …).
        what: String,
        /// The file.
        path: String,
        /// The limit in bytes.
        limit: u64,
    },
    /// A weights file that is not valid JSON of the expected shape.
    #[error("weights for {evaluator}: {message}")]
    WeightsFormat {
        /// The evaluator the weights were loaded for.
        evaluator: String,
        /// What is wrong.
        message: String,
    },
    /// A weights file that cannot be read or is wrong: the message of the underlying error,
    /// with the file's name in front (so the user knows which file to fix).
    #[error("weights file {path}: {message}")]
    WeightsFile {
        /// The file.
        path: String,
        /// What is wrong with it.
        message: String,
        /// The operating system's kind of failure when the file could not be read (`None`:
        /// it was read, and its content is wrong).
        io: Option<std::io::ErrorKind>,
    },
    /// A weights file written for another evaluator.
    #[error("weights file is for evaluator {found:?}, not {expected:?}")]
    WeightsEvaluator {
        /// The evaluator loading the file.
        expected: String,
        /// The evaluator the file names.
        found: String,
    },
    /// A weight whose feature name the evaluator does not have.
    #[error("weights for {evaluator}: unknown feature {name:?} (valid: {valid})")]
    UnknownFeature {
        /// The evaluator.
        evaluator: String,
        /// The unknown name.
        name: String,
        /// The evaluator's feature names, space separated.
        valid: String,
    },
    /// A feature of the evaluator that the weights file does not give.
    #[error("weights for {evaluator}: missing weight for feature {name:?}")]
    MissingFeature {
        /// The evaluator.
        evaluator: String,
        /// The feature without a weight.
        name: String,
    },
    /// A weight that is NaN or infinite.
    #[error("weights for {evaluator}: weight of {name:?} is not a finite number ({value})")]
    NonFiniteWeight {
        /// The evaluator.
        evaluator: String,
        /// The feature.
        name: String,
        /// The value as text.
        value: String,
    },
    /// A preset name the evaluator does not ship.
    #[error("evaluator {evaluator} has no preset {name:?} (valid: {valid})")]
    UnknownPreset {
        /// The evaluator.
        evaluator: String,
        /// The name given.
        name: String,
        /// The valid preset names, space separated.
        valid: String,
    },
    /// Per-frame buttons that do not lock the piece on their last frame, or a placement the
    /// frame-driven game cannot take.
    #[error("frame inputs: {0}")]
    FrameInputs(String),
    /// A game-over rule that a game without frames cannot play: the console rule needs the
    /// NES frame model ([`crate::PlacementGame::new`]).
    #[error(
        "the {0} rule needs the NES frame model: it is `arena nes`'s (its default with the \
         gamepad searcher); games without frames play simulation or literature"
    )]
    FramelessRule(crate::rules::GameOverRule),
    /// A placement asked of a frame-less game that is already over
    /// ([`crate::PlacementGame::place`]).
    #[error("the game is over: no placement follows")]
    GameOver,
}

impl Error {
    /// An [`Error::Io`] for `path` from an I/O error.
    pub fn io(path: impl Into<String>, error: &std::io::Error) -> Error {
        Error::Io {
            path: path.into(),
            message: error.to_string(),
            kind: error.kind(),
        }
    }
}
