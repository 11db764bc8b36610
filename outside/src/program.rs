//! A bot program: a child process whose stdin and stdout carry JSON Lines.
//!
//! Nothing the program does can hang or exhaust the arena:
//!
//! - **Reads are bounded** — a thread reads stdout a line at a time, at most [`MAX_LINE`]
//!   bytes, and hands lines over a channel of [`QUEUED_LINES`]; the game waits for a line
//!   with a time limit ([`Program::receive`]).
//! - **Writes never block the game** — a thread writes the arena's lines; a program that
//!   stops reading only fills that thread's queue until its answer is late.
//! - **stderr is drained** — a thread reads it and keeps only its last [`STDERR_TAIL`] bytes
//!   (shown when the program fails).
//! - **No orphans** — the program runs in its own process group, so a Ctrl-C at the terminal
//!   reaches the arena only (which then ends the program after the finished games are
//!   written); dropping a [`Program`] kills its group; and on Linux the program is killed by
//!   the kernel when the thread that started it ends, so a killed arena leaves no bot running.
//!   (A grandchild that leaves the group can only be reached by its own parent.)

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crate::fault::{Fault, FaultKind};

/// The longest line the arena reads from a bot: far above any answer (a suggestion is under
/// 100 bytes), far below what could hurt.
pub const MAX_LINE: usize = 64 * 1024;

/// Lines read ahead of the game at most.
pub const QUEUED_LINES: usize = 16;

/// The bytes of stderr kept to show in a fault's reason.
pub const STDERR_TAIL: usize = 1024;

/// How long a program that was told to quit may take before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(200);

/// What the stdout thread hands over.
enum Line {
    /// A whole line, without its end.
    Text(String),
    /// The program closed its stdout.
    Closed,
    /// A line longer than [`MAX_LINE`].
    TooLong,
    /// Bytes that are not UTF-8.
    NotUtf8,
}

/// A running bot program (see the module documentation).
pub struct Program {
    child: Child,
    /// The command line as the strategy name gave it, for messages.
    command: String,
    to_program: Option<SyncSender<String>>,
    /// Behind a mutex only so that a strategy holding the program can be shared between
    /// threads (a receiver is not `Sync`); one thread at a time asks a program.
    lines: Mutex<Receiver<Line>>,
    stderr_tail: Arc<Mutex<Vec<u8>>>,
}

impl Program {
    /// Starts `command` (program and arguments) with piped stdin, stdout and stderr.
    pub fn start(command: &[String]) -> Result<Program, Fault> {
        let display = command.join(" ");
        let (program, arguments) = command.split_first().ok_or_else(|| Fault {
            kind: FaultKind::Start,
            message: "the bot's command is empty".to_string(),
        })?;
        let mut builder = Command::new(program);
        builder
            .args(arguments)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        isolate(&mut builder);
        let mut child = builder.spawn().map_err(|error| Fault {
            kind: FaultKind::Start,
            message: format!("could not start the bot `{display}`: {error}"),
        })?;
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        let (to_program, outgoing) = sync_channel::<String>(QUEUED_LINES);
        let (incoming, lines) = sync_channel::<Line>(QUEUED_LINES);
        let stderr_tail = Arc::new(Mutex::new(Vec::new()));
        thread::Builder::new()
            .name("bot-stdin".into())
            .spawn(move || write_lines(stdin, outgoing))
            .map_err(|error| start_fault(&display, &error))?;
        thread::Builder::new()
            .name("bot-stdout".into())
            .spawn(move || read_lines(stdout, incoming))
            .map_err(|error| start_fault(&display, &error))?;
        let tail = Arc::clone(&stderr_tail);
        thread::Builder::new()
            .name("bot-stderr".into())
            .spawn(move || drain(stderr, &tail))
            .map_err(|error| start_fault(&display, &error))?;
        Ok(Program {
            child,
            command: display,
            to_program: Some(to_program),
            lines: Mutex::new(lines),
            stderr_tail,
        })
    }

    /// The operating system's id of the program (its process group has the same id).
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Queues `line` (without its end) for the program's stdin.
    pub fn send(&mut self, line: String) -> Result<(), Fault> {
        let sent = self
            .to_program
            .as_ref()
            .is_some_and(|sender| sender.send(line).is_ok());
        if sent {
            Ok(())
        } else {
            Err(self.exited("stopped reading its input"))
        }
    }

    /// The program's next line, waiting at most `limit`; `waiting_for` says for what (in the
    /// fault's message).
    pub fn receive(&mut self, limit: Duration, waiting_for: &str) -> Result<String, Fault> {
        let received = match self.lines.get_mut() {
            Ok(lines) => lines.recv_timeout(limit),
            Err(_) => Err(RecvTimeoutError::Disconnected),
        };
        match received {
            Ok(Line::Text(text)) => Ok(text),
            Ok(Line::TooLong) => Err(Fault {
                kind: FaultKind::Malformed,
                message: format!("the bot wrote a line of over {MAX_LINE} bytes"),
            }),
            Ok(Line::NotUtf8) => Err(Fault {
                kind: FaultKind::Malformed,
                message: "the bot wrote a line that is not UTF-8".to_string(),
            }),
            Ok(Line::Closed) | Err(RecvTimeoutError::Disconnected) => {
                Err(self.exited("closed its output"))
            }
            Err(RecvTimeoutError::Timeout) => Err(Fault {
                kind: FaultKind::TooLate,
                message: format!(
                    "no {waiting_for} within {} ms{}",
                    limit.as_millis(),
                    self.stderr_note()
                ),
            }),
        }
    }

    /// Tells the program to quit (its stdin closes), gives it [`QUIT_GRACE`] to exit, then
    /// kills it.
    pub fn quit(mut self, goodbye: Option<String>) {
        if let (Some(line), Some(sender)) = (goodbye, self.to_program.as_ref()) {
            let _ = sender.try_send(line);
        }
        self.to_program = None;
        let deadline = Instant::now() + QUIT_GRACE;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(5));
        }
        // Dropped here: killed.
    }

    /// The fault of a program that stopped talking: its exit status once it has one (waiting
    /// a moment for it), and the end of its stderr.
    fn exited(&mut self, what: &str) -> Fault {
        let deadline = Instant::now() + Duration::from_millis(100);
        let mut status = None;
        while status.is_none() && Instant::now() < deadline {
            status = self.child.try_wait().ok().flatten();
            if status.is_none() {
                thread::sleep(Duration::from_millis(2));
            }
        }
        let status =
            status.map_or_else(|| "still running".to_string(), |status| status.to_string());
        Fault {
            kind: FaultKind::Exited,
            message: format!("the bot {what} ({status}){}", self.stderr_note()),
        }
    }

    /// `; its stderr ended: "…"` with the last non-empty line of stderr (at most 200
    /// characters), or nothing.
    fn stderr_note(&self) -> String {
        let tail = self
            .stderr_tail
            .lock()
            .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
            .unwrap_or_default();
        match tail
            .lines()
            .rev()
            .map(str::trim)
            .find(|line| !line.is_empty())
        {
            Some(line) => {
                let line: String = line.chars().take(200).collect();
                format!("; its stderr ended: {line:?}")
            }
            None => String::new(),
        }
    }

    /// The command line, as given.
    pub fn command(&self) -> &str {
        &self.command
    }
}

impl Drop for Program {
    /// Kills the program's process group and reaps the program.
    fn drop(&mut self) {
        self.to_program = None;
        kill_group(&mut self.child);
        let _ = self.child.wait();
    }
}

fn start_fault(command: &str, error: &std::io::Error) -> Fault {
    Fault {
        kind: FaultKind::Start,
        message: format!("could not start the bot `{command}`: {error}"),
    }
}

/// Writes each queued line and its end, until the queue closes or the pipe breaks.
fn write_lines(mut stdin: ChildStdin, outgoing: Receiver<String>) {
    for line in outgoing {
        let written = stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.write_all(b"\n"))
            .and_then(|()| stdin.flush());
        if written.is_err() {
            return;
        }
    }
}

/// Reads lines of at most [`MAX_LINE`] bytes until the program closes stdout, a line is too
/// long or the game stops listening.
fn read_lines(stdout: impl Read, incoming: SyncSender<Line>) {
    let mut reader = BufReader::with_capacity(MAX_LINE, stdout);
    let mut line = Vec::with_capacity(256);
    loop {
        line.clear();
        let read = read_bounded_line(&mut reader, &mut line);
        let message = match read {
            Ok(true) => match String::from_utf8(std::mem::take(&mut line)) {
                Ok(mut text) => {
                    if text.ends_with('\r') {
                        text.pop();
                    }
                    Line::Text(text)
                }
                Err(_) => Line::NotUtf8,
            },
            Ok(false) | Err(BoundedReadError::Io) => Line::Closed,
            Err(BoundedReadError::TooLong) => Line::TooLong,
        };
        let last = !matches!(message, Line::Text(_));
        if incoming.send(message).is_err() || last {
            return;
        }
    }
}

/// Why [`read_bounded_line`] gave up.
enum BoundedReadError {
    Io,
    TooLong,
}

/// Appends one line (without `\n`) to `line`: `Ok(true)` for a line, `Ok(false)` at the end of
/// input (a last line without its end counts as unfinished and is dropped).
fn read_bounded_line(
    reader: &mut impl BufRead,
    line: &mut Vec<u8>,
) -> Result<bool, BoundedReadError> {
    loop {
        let buffer = reader.fill_buf().map_err(|_| BoundedReadError::Io)?;
        if buffer.is_empty() {
            return Ok(false);
        }
        let (taken, done) = match buffer.iter().position(|&byte| byte == b'\n') {
            Some(end) => (end, true),
            None => (buffer.len(), false),
        };
        if line.len() + taken > MAX_LINE {
            return Err(BoundedReadError::TooLong);
        }
        line.extend_from_slice(&buffer[..taken]);
        reader.consume(taken + usize::from(done));
        if done {
            return Ok(true);
        }
    }
}

/// Reads stderr to its end, keeping its last [`STDERR_TAIL`] bytes.
fn drain(mut stderr: impl Read, tail: &Mutex<Vec<u8>>) {
    let mut chunk = [0u8; 4096];
    while let Ok(read) = stderr.read(&mut chunk) {
        if read == 0 {
            return;
        }
        let Ok(mut kept) = tail.lock() else { return };
        kept.extend_from_slice(&chunk[..read]);
        let excess = kept.len().saturating_sub(STDERR_TAIL);
        kept.drain(..excess);
    }
}

/// Puts the program in its own process group and, on Linux, has the kernel kill it when the
/// starting thread ends.
#[cfg(unix)]
fn isolate(builder: &mut Command) {
    use std::os::unix::process::CommandExt;
    builder.process_group(0);
    #[cfg(target_os = "linux")]
    {
        // SAFETY: the closure runs in the forked child before `exec`, where only
        // async-signal-safe calls are allowed: `prctl` and `getppid` are plain system calls
        // and the closure allocates nothing. `parent` is read before the fork.
        let parent = std::process::id() as libc::pid_t;
        unsafe {
            builder.pre_exec(move || {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                // The arena died between the fork and the prctl: the signal will never come.
                if libc::getppid() != parent {
                    return Err(std::io::Error::other("the arena exited"));
                }
                Ok(())
            });
        }
    }
}

#[cfg(not(unix))]
fn isolate(_builder: &mut Command) {}

/// Kills the program's process group (the program and what it started in the group).
fn kill_group(child: &mut Child) {
    #[cfg(unix)]
    {
        if let Ok(group) = libc_pid(child.id()) {
            // SAFETY: `killpg` is a plain system call on a process group id this program
            // created (`process_group(0)` makes the child its group's leader); it touches no
            // memory of ours. A group that is already gone gives ESRCH, which is fine.
            unsafe {
                libc::killpg(group, libc::SIGKILL);
            }
        }
    }
    let _ = child.kill();
}

#[cfg(unix)]
fn libc_pid(id: u32) -> Result<libc::pid_t, std::num::TryFromIntError> {
    libc::pid_t::try_from(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(input: &[u8]) -> Vec<Result<Vec<u8>, &'static str>> {
        let mut reader = BufReader::with_capacity(7, input);
        let mut out = Vec::new();
        loop {
            let mut line = Vec::new();
            match read_bounded_line(&mut reader, &mut line) {
                Ok(true) => out.push(Ok(line)),
                Ok(false) => return out,
                Err(BoundedReadError::TooLong) => {
                    out.push(Err("too long"));
                    return out;
                }
                Err(BoundedReadError::Io) => unreachable!(),
            }
        }
    }

    #[test]
    fn lines_are_read_across_buffer_refills_and_cut_at_the_limit() {
        assert_eq!(
            read_all(b"ab\ncdefghijkl\n\nunfinished"),
            vec![
                Ok(b"ab".to_vec()),
                Ok(b"cdefghijkl".to_vec()),
                Ok(Vec::new())
            ]
        );
        let mut long = vec![b'x'; MAX_LINE];
        long.push(b'\n');
        assert_eq!(read_all(&long), vec![Ok(vec![b'x'; MAX_LINE])]);
        let mut too_long = vec![b'x'; MAX_LINE + 1];
        too_long.push(b'\n');
        assert_eq!(read_all(&too_long), vec![Err("too long")]);
    }
}
