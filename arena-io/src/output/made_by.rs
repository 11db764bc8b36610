//! What made an output: the program, its version and the command, recorded as the top-level
//! `"made_by"` object of every JSON report and part file the arena writes or prints, and as a
//! line at the foot of every HTML page, so a file found later says how to make it again.
//!
//! The command reaches the report writers without being passed down to each of them: a front
//! end says once what the command is and every writer asks [`MadeBy::current`]. The `arena`
//! binary records its command line for the whole process at start-up
//! ([`MadeBy::record_command_line`]); the Python package, whose calls differ within one
//! process, names each call for the thread that runs it ([`MadeBy::during`]). A library user
//! who does neither gets [`LIBRARY_COMMAND`].
//!
//! The type reads back as well as it writes (owned strings, `Deserialize`), so files that
//! store it (parts, checkpoints, replays) read it again.

use std::cell::RefCell;
use std::ffi::OsString;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

/// The program every output names: the project's, whatever the front end.
pub const PROGRAM: &str = "tetris-arena";

/// The version every output names: the workspace's (Cargo's) version, which the `arena`
/// binary, its library and the Python package share.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The command of an output made by a library user that recorded none (neither
/// [`MadeBy::record_command_line`] nor [`MadeBy::during`]).
pub const LIBRARY_COMMAND: &str = "(the tetris-arena library; no command recorded)";

/// What made an output:
///
/// ```json
/// "made_by": {"program": "tetris-arena", "version": "0.1.0",
///             "command": "arena tournament bfs+elashi --games 10 --json"}
/// ```
///
/// - `program`: always [`PROGRAM`], `tetris-arena`;
/// - `version`: [`VERSION`], the workspace version of the code that wrote the output;
/// - `command`: how the output was asked for. From the `arena` binary, its command line with
///   the program named `arena` and every argument quoted as a POSIX shell needs it
///   ([`shell_command`]), so it can be pasted back; from the Python package, the call, e.g.
///   `tetris_arena.tournament(strategies=['bfs+elashi'], games=10, …)` with every argument
///   by name (defaults included); from any other library user, [`LIBRARY_COMMAND`].
///
/// It is the one record of provenance: reports, part files, checkpoints and (later) replays
/// all store this type.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "api", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct MadeBy {
    /// The program: [`PROGRAM`].
    pub program: String,
    /// The program's version: [`VERSION`].
    pub version: String,
    /// The command or call that made the output.
    pub command: String,
}

impl std::fmt::Display for MadeBy {
    /// `made by PROGRAM VERSION: COMMAND`, the line at the foot of the HTML pages.
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            formatter,
            "made by {} {}: {}",
            self.program, self.version, self.command
        )
    }
}

/// The `arena` binary's command line, recorded once for the whole process.
static PROCESS_COMMAND: OnceLock<String> = OnceLock::new();

thread_local! {
    /// The command of the call this thread runs ([`MadeBy::during`]), over the process's.
    static THREAD_COMMAND: RefCell<Option<String>> = const { RefCell::new(None) };
}

impl MadeBy {
    /// This program and version with `command`.
    pub fn with_command(command: impl Into<String>) -> MadeBy {
        MadeBy {
            program: PROGRAM.to_string(),
            version: VERSION.to_string(),
            command: command.into(),
        }
    }

    /// What makes the outputs written now: the command of the call this thread runs
    /// ([`MadeBy::during`]), else the process's command line
    /// ([`MadeBy::record_command_line`]), else [`LIBRARY_COMMAND`].
    pub fn current() -> MadeBy {
        let command = THREAD_COMMAND
            .with(|command| command.borrow().clone())
            .or_else(|| PROCESS_COMMAND.get().cloned())
            .unwrap_or_else(|| LIBRARY_COMMAND.to_string());
        MadeBy::with_command(command)
    }

    /// Records the process's command line (`arguments` as `std::env::args_os` gives them,
    /// the program first) as [`shell_command`] writes it. The first call wins: a command line
    /// does not change while the process runs. The `arena` binary calls it at start-up.
    pub fn record_command_line(arguments: impl IntoIterator<Item = OsString>) {
        let _ = PROCESS_COMMAND.set(shell_command(arguments));
    }

    /// Makes `command` what makes the outputs this thread writes until the returned scope is
    /// dropped (then the command before it comes back, also when a panic unwinds). For front
    /// ends that run several commands in one process, such as the Python package's calls:
    /// the reports must be written on the thread that holds the scope (the runner's workers
    /// write none).
    pub fn scope(command: impl Into<String>) -> CommandScope {
        let previous = THREAD_COMMAND.with(|current| current.replace(Some(command.into())));
        CommandScope {
            previous,
            _thread: std::marker::PhantomData,
        }
    }

    /// Runs `run` within [`MadeBy::scope`]`(command)`.
    pub fn during<T>(command: impl Into<String>, run: impl FnOnce() -> T) -> T {
        let _scope = MadeBy::scope(command);
        run()
    }
}

/// The command of one call on one thread ([`MadeBy::scope`]); dropping it puts the previous
/// command back.
#[must_use = "the command holds only while the scope is kept"]
pub struct CommandScope {
    previous: Option<String>,
    /// Bound to the thread whose command it set.
    _thread: std::marker::PhantomData<*const ()>,
}

impl Drop for CommandScope {
    fn drop(&mut self) {
        let previous = self.previous.take();
        THREAD_COMMAND.with(|command| *command.borrow_mut() = previous);
    }
}

/// A command line as one line of text a POSIX shell reads back as the same arguments: the
/// program (the first argument) is written `arena` whatever path started it; an argument made
/// only of letters, digits and `_ - + = : , . / @ %` is written as it is; any other (empty,
/// with spaces, quotes, `$`, `*`, …) in single quotes (a `'` inside as `'\''`); one holding
/// a control character (a line break, an escape) or bytes that are no UTF-8 in bash's `$'…'`
/// form, where they are escapes (`\n`, `\t`, `\r`, `\xHH`, `\u{…}` as `\uHHHH`), so the line
/// holds no control character.
pub fn shell_command(arguments: impl IntoIterator<Item = OsString>) -> String {
    let mut words = vec!["arena".to_string()];
    words.extend(
        arguments
            .into_iter()
            .skip(1)
            .map(|argument| shell_word(&argument)),
    );
    words.join(" ")
}

/// One argument as [`shell_command`] writes it.
fn shell_word(argument: &std::ffi::OsStr) -> String {
    let pieces = text_pieces(argument);
    let plain = |piece: &TextPiece| match piece {
        TextPiece::Text(text) => !text.chars().any(char::is_control),
        TextPiece::Byte(_) => false,
    };
    if !pieces.iter().all(plain) {
        return ansi_c_quoted(&pieces);
    }
    let text: String = pieces
        .iter()
        .map(|piece| match piece {
            TextPiece::Text(text) => text.as_str(),
            TextPiece::Byte(_) => unreachable!("plain pieces are text"),
        })
        .collect();
    let safe = |c: char| c.is_ascii_alphanumeric() || "_-+=:,./@%".contains(c);
    if !text.is_empty() && text.chars().all(safe) {
        text
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

/// A part of an argument: UTF-8 text, or a byte that is no UTF-8.
enum TextPiece {
    Text(String),
    // Only Unix arguments can hold bytes that are no UTF-8.
    #[cfg_attr(not(unix), allow(dead_code))]
    Byte(u8),
}

/// `argument` as text and stray bytes (on Unix, where an argument is any bytes; elsewhere an
/// argument that is no Unicode is taken lossily).
fn text_pieces(argument: &std::ffi::OsStr) -> Vec<TextPiece> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let mut pieces = Vec::new();
        for chunk in argument.as_bytes().utf8_chunks() {
            pieces.push(TextPiece::Text(chunk.valid().to_string()));
            pieces.extend(chunk.invalid().iter().map(|&byte| TextPiece::Byte(byte)));
        }
        pieces
    }
    #[cfg(not(unix))]
    {
        vec![TextPiece::Text(argument.to_string_lossy().into_owned())]
    }
}

/// `pieces` in bash's `$'…'` quoting, every control character and stray byte escaped.
fn ansi_c_quoted(pieces: &[TextPiece]) -> String {
    let mut quoted = String::from("$'");
    for piece in pieces {
        match piece {
            TextPiece::Byte(byte) => quoted.push_str(&format!("\\x{byte:02X}")),
            TextPiece::Text(text) => {
                for character in text.chars() {
                    match character {
                        '\\' => quoted.push_str(r"\\"),
                        '\'' => quoted.push_str(r"\'"),
                        '\n' => quoted.push_str(r"\n"),
                        '\t' => quoted.push_str(r"\t"),
                        '\r' => quoted.push_str(r"\r"),
                        c if c.is_control() && (c as u32) < 0x80 => {
                            quoted.push_str(&format!("\\x{:02X}", c as u32));
                        }
                        c if c.is_control() => quoted.push_str(&format!("\\u{:04X}", c as u32)),
                        c => quoted.push(c),
                    }
                }
            }
        }
    }
    quoted.push('\'');
    quoted
}

#[cfg(test)]
mod tests {
    use super::*;

    fn command(arguments: &[&str]) -> String {
        shell_command(arguments.iter().map(OsString::from))
    }

    #[test]
    fn plain_arguments_are_written_as_they_are_and_the_program_is_arena() {
        assert_eq!(
            command(&[
                "/x/target/debug/arena",
                "tournament",
                "bfs+elashi@2",
                "drop+dellacherie:el-tetris,no-suicide",
                "--out",
                "runs/a.json",
                "--seed=5",
            ]),
            "arena tournament bfs+elashi@2 drop+dellacherie:el-tetris,no-suicide --out \
             runs/a.json --seed=5"
        );
        assert_eq!(command(&["arena"]), "arena");
    }

    #[test]
    fn other_arguments_are_single_quoted() {
        assert_eq!(
            command(&["arena", "play", "", "a b", "it's", "$HOME", "*.json", "ü"]),
            r#"arena play '' 'a b' 'it'\''s' '$HOME' '*.json' 'ü'"#
        );
    }

    #[test]
    fn control_characters_and_stray_bytes_are_escaped() {
        assert_eq!(
            command(&[
                "arena",
                "a\nb",
                "tab\there",
                "esc\u{1b}[2J",
                "c1\u{9b}",
                "q'\\\n",
                "no control: q'\\",
            ]),
            r#"arena $'a\nb' $'tab\there' $'esc\x1B[2J' $'c1\u009B' $'q\'\\\n' 'no control: q'\''\'"#
        );
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStringExt;
            let arguments = [
                OsString::from("arena"),
                OsString::from_vec(b"file-\xff.json".to_vec()),
            ];
            assert_eq!(shell_command(arguments), r"arena $'file-\xFF.json'");
        }
    }

    #[test]
    fn a_call_names_its_thread_s_outputs_and_the_default_comes_back() {
        // The tests of this library never record a process command line.
        assert_eq!(MadeBy::current().command, LIBRARY_COMMAND);
        let inner = MadeBy::during("tetris_arena.play(strategy='bfs+elashi')", || {
            let nested = MadeBy::during("inner", MadeBy::current);
            assert_eq!(nested.command, "inner");
            MadeBy::current()
        });
        assert_eq!(
            inner,
            MadeBy {
                program: "tetris-arena".into(),
                version: env!("CARGO_PKG_VERSION").into(),
                command: "tetris_arena.play(strategy='bfs+elashi')".into(),
            }
        );
        assert_eq!(MadeBy::current().command, LIBRARY_COMMAND);
        let panicked = std::panic::catch_unwind(|| MadeBy::during("boom", || panic!("boom")));
        assert!(panicked.is_err());
        assert_eq!(MadeBy::current().command, LIBRARY_COMMAND);
    }

    #[test]
    fn it_reads_back_what_it_writes() {
        let made_by = MadeBy::with_command("arena list");
        let text = serde_json::to_string(&made_by).unwrap();
        assert_eq!(
            text,
            format!(
                r#"{{"program":"tetris-arena","version":"{}","command":"arena list"}}"#,
                env!("CARGO_PKG_VERSION")
            )
        );
        assert_eq!(serde_json::from_str::<MadeBy>(&text).unwrap(), made_by);
    }
}
