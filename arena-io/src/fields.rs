//! The fields of a request as each front end spells them: one [`Field`] per value a user can
//! give, with its command-line option, its Python keyword and its JSON field, all in the ONE
//! table below, so that a message names a value in the words of the caller who gave it.
//!
//! Errors carry the [`Field`], never its text: the front end picks the words when it turns an
//! error into its message, with [`Words::message`] — the command line says `--board-height 3
//! is outside 4..=32`, the Python package `board_height 3 is outside 4..=32`, the move server
//! and the browser page (whose bodies are the same JSON) the body's field, `board_height`. No
//! message is written once per front end and no text is rewritten afterwards.
//!
//! Why the words are the formatting thread's, set for one [`Words::message`] call, rather
//! than a parameter: the errors are `thiserror` enums wrapped layer by layer (`ArenaError`
//! holds a `JobError` that holds a `ValueError`), each shown through `Display`; a parameter
//! would mean writing every layer's message a second time by hand. A [`Field`]'s `Display`
//! reads the words of the call in progress; outside one (a plain `to_string()`), it is the
//! command line's, the arena's own vocabulary (so the command line's messages need no call).
//!
//! A front end that has no spelling of its own for a field names it as the command line does
//! (or, for the fields the command line lacks, as the JSON body does): the message still names
//! a documented option the caller can look up. Such a message cannot come from a value the
//! caller gave (a front end only sets the fields it takes); it can only name one in advice.

use std::cell::Cell;
use std::fmt;

/// Whose words a message is written in: which front end's spelling of each [`Field`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Words {
    /// The `arena` command line's options (`--board-height`); also the words of a plain
    /// `to_string()`.
    #[default]
    CommandLine,
    /// The Python package's keyword arguments (`board_height`).
    Python,
    /// The JSON bodies of the move server's `/v1/` API and of the browser page (`board_height`),
    /// as the server's OpenAPI document spells them.
    Json,
}

thread_local! {
    /// The words of the [`Words::message`] call in progress on this thread.
    static CURRENT: Cell<Words> = const { Cell::new(Words::CommandLine) };
}

/// Puts the words of the enclosing call back when a [`Words::message`] call ends (even by a
/// panic inside a `Display`).
struct Restore(Words);

impl Drop for Restore {
    fn drop(&mut self) {
        CURRENT.with(|current| current.set(self.0));
    }
}

impl Words {
    /// `error` (any message: an error of any layer, a note) as text, every [`Field`] in it
    /// spelled in these words.
    pub fn message(self, error: &(impl fmt::Display + ?Sized)) -> String {
        let _restore = Restore(CURRENT.with(|current| current.replace(self)));
        error.to_string()
    }

    /// The words of the [`Words::message`] call in progress (the command line's outside one).
    pub fn current() -> Words {
        CURRENT.with(Cell::get)
    }
}

/// One value of a request, named as each front end names it. The constants below are every
/// field a message names; [`Words::message`] picks the spelling.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Field(&'static Spellings);

/// A field's names, one per front end (`None`: that front end does not take it). Behind a
/// reference, so that an error holding a field stays one pointer larger.
#[derive(Debug, PartialEq, Eq, Hash)]
struct Spellings {
    command_line: Option<&'static str>,
    python: Option<&'static str>,
    json: Option<&'static str>,
}

/// The spelling a front end has for a field (`-`: none).
macro_rules! spelling {
    (-) => {
        None
    };
    ($name:literal) => {
        Some($name)
    };
}

/// Declares the table of fields: `NAME: command-line option, Python keyword, JSON field;`.
macro_rules! fields {
    ($($(#[$doc:meta])* $name:ident: $command_line:tt, $python:tt, $json:tt;)*) => {
        impl Field {
            $(
                $(#[$doc])*
                pub const $name: Field = Field(&Spellings {
                    command_line: spelling!($command_line),
                    python: spelling!($python),
                    json: spelling!($json),
                });
            )*

            /// Every field of the table, in its order.
            pub const ALL: &'static [Field] = &[$(Field::$name),*];
        }
    };
}

fields! {
    // The game's rules and the player.
    /// The field's rows (`BoardHeight`).
    BOARD_HEIGHT: "--board-height", "board_height", "board_height";
    /// The rows of a board made on its own (Python's `empty_board(height)`; `BoardHeight`).
    HEIGHT: "--board-height", "height", "board_height";
    /// The piece generator.
    GENERATOR: "--generator", "generator", "generator";
    /// The generator's seed (the first game's, in a run).
    SEED: "--seed", "seed", "seed";
    /// The game-over rule.
    GAME_OVER: "--game-over", "game_over", "game_over";
    /// The most pieces a game plays (`MaxPieces`).
    MAX_PIECES: "--max-pieces", "max_pieces", "max_pieces";
    /// The known pieces of an analysis, current first (`PieceList`; the JSON body gives them
    /// as `current` and `preview`), or the pieces a statistics run places (`PieceCount`).
    PIECES: "--pieces", "pieces", -;
    /// The current piece of a position (the JSON body's).
    CURRENT: -, -, "current";
    /// The preview pieces of a position (the JSON body's).
    PREVIEW: -, -, "preview";
    /// The level whose gravity a gravity-aware search simulates (`Level`).
    LEVEL: "--level", -, "level";
    /// Frames between two presses of one thumb (`TapRate`).
    TAP_RATE: "--tap-rate", "tap_rate", "tap_rate";
    /// The player's input-frame timeline.
    TIMELINE: "--timeline", "timeline", "timeline";
    /// The input model.
    INPUTS: "--inputs", "inputs", "inputs";
    /// The current piece is a game's first (it floats before gravity starts).
    ENTRY_DELAY: "--entry-delay", -, "entry_delay";
    /// Frames before the player sees the preview piece (`ReactionFrames`).
    REACTION_FRAMES: "--reaction-frames", "reaction_frames", -;
    /// How many ranked placements an analysis lists (`TopCount`).
    TOP: -, -, "top";
    // Runs of many games.
    /// The games of a run, per strategy (`GameCount`).
    GAMES: "--games", "games", -;
    /// Worker threads (`Jobs`).
    JOBS: "--jobs", "jobs", -;
    /// One shard of a run (`Shard`).
    SHARD: "--shard", "shard", -;
    /// A run's results file, a shard's part file, a statistics run's folder, or the weights
    /// file of a tuning run.
    OUT: "--out", "out", -;
    /// Print JSON instead of text.
    JSON: "--json", -, -;
    /// The level an NES game starts at (`StartLevel`).
    START_LEVEL: "--start-level", "start_level", -;
    /// The level whose transition ends an NES game.
    TO_LEVEL: "--to-level", "to_level", -;
    /// The lines at which an NES game stops.
    MAX_LINES: "--max-lines", "max_lines", -;
    /// The file of every lock of an NES run's games.
    TRACE: "--trace", "trace", -;
    /// A run's HTML report, or a game's viewer page.
    HTML: "--html", -, -;
    /// The blocks of a statistics run.
    BLOCKS: "--blocks", "blocks", -;
    /// Which row a piece counts in, in a statistics run.
    ROW: "--row", "row", -;
    /// How many pieces `sequence` gives (`SequenceLength`).
    COUNT: "--count", "count", -;
    // The command line's own.
    /// A tournament's folder of plots.
    PLOTS: "--plots", -, -;
    /// A game's replay file.
    RECORD: "--record", -, -;
    /// Show the board after every placement.
    WATCH: "--watch", -, -;
    /// Pieces per second while watching.
    SPEED: "--speed", -, -;
    /// Leave out the placements of a game's JSON.
    NO_PLACEMENTS: "--no-placements", -, "no_placements";
    /// Keep every choice's cost and features in a replay.
    FEATURES: "--features", -, -;
    /// The live page `arena web` writes (a positional argument).
    PAGE: "PAGE.html", -, -;
    // Tuning.
    /// Lookahead depth of a tuning run (`Depth`).
    DEPTH: "--depth", -, -;
    /// A tuning run's checkpoint file.
    CHECKPOINT: "--checkpoint", -, -;
    /// A tuning run's work folder.
    WORK_DIR: "--work-dir", -, -;
    // The move server's own settings.
    /// The move server's worker threads (`Workers`).
    WORKERS: "--workers", -, -;
    /// Requests waiting for a worker (`QueueLength`).
    MAX_QUEUE: "--max-queue", -, -;
    /// The time limit per request (`TimeLimit`).
    TIMEOUT_MS: "--timeout-ms", -, -;
    /// The time to send a request's head (`HeaderTimeout`).
    HEADER_TIMEOUT_MS: "--header-timeout-ms", -, -;
    /// The time a connection may stay silent (`IdleTimeout`).
    IDLE_TIMEOUT_MS: "--idle-timeout-ms", -, -;
    /// The time to send a request's body (`BodyTimeout`).
    BODY_TIMEOUT_MS: "--body-timeout-ms", -, -;
    /// The time a client may take none of its answer (`WriteTimeout`).
    WRITE_TIMEOUT_MS: "--write-timeout-ms", -, -;
    /// The grace period at shutdown (`ShutdownGrace`).
    SHUTDOWN_GRACE_MS: "--shutdown-grace-ms", -, -;
    /// The most open connections (`MaxConnections`).
    MAX_CONNECTIONS: "--max-connections", -, -;
    /// The largest body read (`BodyLimit`).
    MAX_BODY: "--max-body", -, -;
}

impl Field {
    /// The field's name in `words`, and the words it is actually spelled in: the front end's
    /// own, else the command line's, else the JSON body's (every field has one of these).
    fn spelled(self, words: Words) -> (&'static str, Words) {
        let Spellings {
            command_line,
            python,
            json,
        } = self.0;
        let own = match words {
            Words::CommandLine => *command_line,
            Words::Python => *python,
            Words::Json => *json,
        };
        match (own, *command_line, *json) {
            (Some(name), _, _) => (name, words),
            (None, Some(name), _) => (name, Words::CommandLine),
            (None, None, Some(name)) => (name, Words::Json),
            // The table gives every field a command-line option or a JSON field.
            (None, None, None) => ("", Words::CommandLine),
        }
    }

    /// The field's name in `words` ([`Field`]'s `Display` uses the current words).
    pub fn name(self, words: Words) -> &'static str {
        self.spelled(words).0
    }

    /// Whether `words` has a spelling of its own for the field (else [`Field::name`] falls
    /// back to another front end's).
    pub fn spelled_in(self, words: Words) -> bool {
        self.spelled(words).1 == words
    }

    /// The field given a text value, as the caller would write it: `--pieces T,J`,
    /// `pieces="T,J"`, `"pieces": "T,J"`. Alternatives separated by `|` are quoted one by
    /// one (`game_over="simulation"|"literature"`).
    pub const fn given(self, value: &'static str) -> Given {
        Given {
            field: self,
            value,
            text: true,
        }
    }

    /// The field given a number (or a placeholder for one, `N`): `--max-pieces N`,
    /// `max_pieces=N`, `"max_pieces": N`.
    pub const fn given_number(self, value: &'static str) -> Given {
        Given {
            field: self,
            value,
            text: false,
        }
    }
}

impl fmt::Display for Field {
    /// The field's name in the words of the [`Words::message`] call in progress.
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(self.name(Words::current()))
    }
}

/// A field with a value, as a message suggests it ([`Field::given`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Given {
    field: Field,
    value: &'static str,
    text: bool,
}

impl fmt::Display for Given {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (name, words) = self.field.spelled(Words::current());
        let quoted = |formatter: &mut fmt::Formatter<'_>| match self.text {
            true => {
                let alternatives: Vec<String> = self
                    .value
                    .split('|')
                    .map(|value| format!("\"{value}\""))
                    .collect();
                formatter.write_str(&alternatives.join("|"))
            }
            false => formatter.write_str(self.value),
        };
        match words {
            Words::CommandLine => write!(formatter, "{name} {}", self.value),
            Words::Python => {
                write!(formatter, "{name}=")?;
                quoted(formatter)
            }
            Words::Json => {
                write!(formatter, "\"{name}\": ")?;
                quoted(formatter)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_field_is_named_in_the_words_of_the_message_being_written() {
        let field = Field::BOARD_HEIGHT;
        assert_eq!(field.to_string(), "--board-height");
        assert_eq!(Words::CommandLine.message(&field), "--board-height");
        assert_eq!(Words::Python.message(&field), "board_height");
        assert_eq!(Words::Json.message(&field), "board_height");
        assert_eq!(Words::Python.message(&Field::HEIGHT), "height");
        // The words hold only during the call.
        assert_eq!(Words::current(), Words::CommandLine);
        assert_eq!(Field::TAP_RATE.to_string(), "--tap-rate");
    }

    #[test]
    fn a_missing_spelling_falls_back_to_the_command_lines_then_the_bodys() {
        // Python's `analyze` takes no level: the command line's option.
        assert!(!Field::LEVEL.spelled_in(Words::Python));
        assert_eq!(Words::Python.message(&Field::LEVEL), "--level");
        // The command line has no `top`: the JSON body's.
        assert_eq!(Field::TOP.to_string(), "top");
        assert_eq!(Words::Python.message(&Field::TOP), "top");
        assert_eq!(Words::Json.message(&Field::GAMES), "--games");
    }

    #[test]
    fn a_given_value_is_written_as_the_caller_writes_it() {
        let pieces = Field::PIECES.given("T,J");
        assert_eq!(pieces.to_string(), "--pieces T,J");
        assert_eq!(Words::Python.message(&pieces), "pieces=\"T,J\"");
        let rules = Field::GAME_OVER.given("simulation|literature");
        assert_eq!(rules.to_string(), "--game-over simulation|literature");
        assert_eq!(
            Words::Python.message(&rules),
            "game_over=\"simulation\"|\"literature\""
        );
        assert_eq!(
            Words::Json.message(&rules),
            "\"game_over\": \"simulation\"|\"literature\""
        );
        let cap = Field::MAX_PIECES.given_number("N");
        assert_eq!(cap.to_string(), "--max-pieces N");
        assert_eq!(Words::Python.message(&cap), "max_pieces=N");
        assert_eq!(Words::Json.message(&cap), "\"max_pieces\": N");
        // Without a spelling of its own, the whole suggestion is the command line's.
        assert_eq!(
            Words::Python.message(&Field::HTML.given("report.html")),
            "--html report.html"
        );
    }

    #[test]
    fn every_field_has_a_name_and_no_two_share_all_three_spellings() {
        for (index, field) in Field::ALL.iter().enumerate() {
            assert!(!field.name(Words::CommandLine).is_empty(), "{field:?}");
            for words in [Words::CommandLine, Words::Python, Words::Json] {
                let name = field.name(words);
                // A command-line option starts with `--` (or is a positional argument in
                // capitals); a keyword or a JSON field is snake_case.
                match field.spelled(words).1 {
                    Words::CommandLine => {
                        assert!(name.starts_with("--") || name == "PAGE.html", "{name}")
                    }
                    _ => assert!(
                        name.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'),
                        "{name}"
                    ),
                }
            }
            assert!(
                !Field::ALL[index + 1..].contains(field),
                "{field:?} is in the table twice"
            );
        }
    }
}
