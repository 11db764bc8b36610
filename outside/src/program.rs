//! A bot program: a child process whose stdin and stdout carry JSON Lines.
//!
//! Nothing the program does can hang or exhaust the arena:
//!
//! - **Reads are bounded** — stdout is read without blocking, waiting with `poll` at most the
//!   decision's time limit, and a line longer than [`MAX_LINE`] bytes is the program's fault
//!   (at most one line and one read chunk are held).
//! - **Writes are bounded** — stdin is written without blocking too: a program that stops
//!   reading fills its pipe, and the arena's next line waits at most the time limit.
//! - **stderr is drained** — a thread reads it and keeps only its last [`STDERR_TAIL`] bytes
//!   (shown when the program fails).
//! - **No orphans** — the program runs in its own process group, so a Ctrl-C at the terminal
//!   reaches the arena only (which then ends the program after the finished games are
//!   written); dropping a [`Program`] kills its group; and on Linux the program is killed by
//!   the kernel when the thread that started it ends, so a killed arena leaves no bot running.
//!   (A grandchild that leaves the group can only be reached by its own parent.)
//!
//! The game's thread talks to the program directly (no reader or writer thread): a decision
//! costs two wake-ups, the program's and the arena's, which is most of the protocol's cost
//! (docs/performance.md, "Outside engines").

use std::io::{ErrorKind, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crate::fault::{Fault, FaultKind};

/// The longest line the arena reads from a bot: far above any answer (a suggestion is under
/// 100 bytes), far below what could hurt.
pub const MAX_LINE: usize = 64 * 1024;

/// The bytes of stderr kept to show in a fault's reason.
pub const STDERR_TAIL: usize = 1024;

/// How long a program that was told to quit may take before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(200);

/// Bytes read from stdout at a time.
const READ_CHUNK: usize = 16 * 1024;

/// A running bot program (see the module documentation).
pub struct Program {
    child: Child,
    /// The command line as the strategy name gave it, for messages.
    command: String,
    /// Non-blocking; `None` once closed.
    stdin: Option<ChildStdin>,
    /// Non-blocking.
    stdout: ChildStdout,
    /// Bytes read past the last whole line.
    pending: Vec<u8>,
    /// Where each read lands before it joins `pending`.
    chunk: Box<[u8]>,
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
        let mut child = builder
            .spawn()
            .map_err(|error| start_fault(&display, &error))?;
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        let mut program = Program {
            child,
            command: display,
            stdin: None,
            stdout,
            pending: Vec::with_capacity(READ_CHUNK),
            chunk: vec![0; READ_CHUNK].into_boxed_slice(),
            stderr_tail: Arc::new(Mutex::new(Vec::new())),
        };
        // Dropping `program` on an error kills the child.
        io::set_nonblocking(&stdin).map_err(|error| start_fault(&program.command, &error))?;
        io::set_nonblocking(&program.stdout)
            .map_err(|error| start_fault(&program.command, &error))?;
        program.stdin = Some(stdin);
        let tail = Arc::clone(&program.stderr_tail);
        thread::Builder::new()
            .name("bot-stderr".into())
            .spawn(move || drain(stderr, &tail))
            .map_err(|error| start_fault(&program.command, &error))?;
        Ok(program)
    }

    /// The operating system's id of the program (its process group has the same id).
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Writes `line` and its end to the program's stdin, waiting at most `limit` for room in
    /// the pipe.
    pub fn send(&mut self, mut line: String, limit: Duration) -> Result<(), Fault> {
        line.push('\n');
        let deadline = Instant::now() + limit;
        let mut bytes = line.as_bytes();
        while !bytes.is_empty() {
            let Some(stdin) = self.stdin.as_mut() else {
                return Err(self.exited("closed its input"));
            };
            match stdin.write(bytes) {
                Ok(0) => return Err(self.exited("closed its input")),
                Ok(written) => bytes = &bytes[written..],
                Err(error) if error.kind() == ErrorKind::Interrupted => {}
                Err(error) if error.kind() == ErrorKind::WouldBlock => {
                    if !io::wait_until(stdin, io::Ready::Write, deadline) {
                        return Err(Fault {
                            kind: FaultKind::TooLate,
                            message: format!(
                                "the bot read none of its input for {} ms",
                                limit.as_millis()
                            ),
                        });
                    }
                }
                Err(_) => return Err(self.exited("closed its input")),
            }
        }
        Ok(())
    }

    /// The program's next line (without its end), waiting at most `limit`; `waiting_for`
    /// says for what (in the fault's message).
    pub fn receive(&mut self, limit: Duration, waiting_for: &str) -> Result<String, Fault> {
        let deadline = Instant::now() + limit;
        let mut searched = 0;
        loop {
            if let Some(end) = self.pending[searched..]
                .iter()
                .position(|&byte| byte == b'\n')
            {
                let end = searched + end;
                if end > MAX_LINE {
                    return Err(too_long());
                }
                let mut line: Vec<u8> = self.pending.drain(..=end).collect();
                line.pop();
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                return String::from_utf8(line).map_err(|_| Fault {
                    kind: FaultKind::Malformed,
                    message: "the bot wrote a line that is not UTF-8".to_string(),
                });
            }
            searched = self.pending.len();
            if searched > MAX_LINE {
                return Err(too_long());
            }
            // Read into the program's own chunk, zeroed once when it started: a fresh zeroed
            // buffer per read cost more than the rest of a decision's reading.
            match self.stdout.read(&mut self.chunk) {
                Ok(0) => return Err(self.exited("closed its output")),
                Ok(read) => self.pending.extend_from_slice(&self.chunk[..read]),
                Err(error) if error.kind() == ErrorKind::Interrupted => {}
                Err(error) if error.kind() == ErrorKind::WouldBlock => {
                    if !io::wait_until(&self.stdout, io::Ready::Read, deadline) {
                        return Err(Fault {
                            kind: FaultKind::TooLate,
                            message: format!(
                                "no {waiting_for} within {} ms{}",
                                limit.as_millis(),
                                self.stderr_note()
                            ),
                        });
                    }
                }
                Err(_) => return Err(self.exited("closed its output")),
            }
        }
    }

    /// Tells the program to quit (`goodbye`, then its stdin closes), gives it
    /// [`QUIT_GRACE`] to exit, then kills it.
    pub fn quit(mut self, goodbye: Option<String>) {
        if let Some(line) = goodbye {
            let _ = self.send(line, Duration::ZERO);
        }
        self.stdin = None;
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
        self.stdin = None;
        kill_group(&mut self.child);
        let _ = self.child.wait();
    }
}

fn too_long() -> Fault {
    Fault {
        kind: FaultKind::Malformed,
        message: format!("the bot wrote a line of over {MAX_LINE} bytes"),
    }
}

fn start_fault(command: &str, error: &std::io::Error) -> Fault {
    Fault {
        kind: FaultKind::Start,
        message: format!("could not start the bot `{command}`: {error}"),
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

/// Non-blocking pipes and waiting for them, by the system calls std has no portable form of.
#[cfg(unix)]
mod io {
    use std::os::fd::AsRawFd;
    use std::time::Instant;

    /// What to wait for.
    #[derive(Clone, Copy)]
    pub enum Ready {
        Read,
        Write,
    }

    /// Makes reads and writes of `pipe` return `WouldBlock` instead of waiting.
    pub fn set_nonblocking(pipe: &impl AsRawFd) -> std::io::Result<()> {
        let fd = pipe.as_raw_fd();
        // SAFETY: `fcntl` with F_GETFL/F_SETFL on a descriptor the caller owns (a pipe end of
        // a child this process started) reads and sets its flags; no memory is passed.
        let done = unsafe {
            let flags = libc::fcntl(fd, libc::F_GETFL);
            flags >= 0 && libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) >= 0
        };
        match done {
            true => Ok(()),
            false => Err(std::io::Error::last_os_error()),
        }
    }

    /// Waits until `pipe` is ready for `ready` (or closed, or failed, which the next read or
    /// write then reports), or until `deadline`: whether it is ready.
    pub fn wait_until(pipe: &impl AsRawFd, ready: Ready, deadline: Instant) -> bool {
        let events = match ready {
            Ready::Read => libc::POLLIN,
            Ready::Write => libc::POLLOUT,
        };
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            // Rounded up, so that a wait never ends before the deadline.
            let milliseconds = left.as_micros().div_ceil(1000).min(i32::MAX as u128) as i32;
            let mut watched = libc::pollfd {
                fd: pipe.as_raw_fd(),
                events,
                revents: 0,
            };
            // SAFETY: `watched` is one valid `pollfd` that lives across the call, and the
            // count passed is 1.
            let found = unsafe { libc::poll(&mut watched, 1, milliseconds) };
            match found {
                1.. => return true,
                0 if Instant::now() >= deadline => return false,
                0 => {}
                _ if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted => {}
                // A poll that fails: let the read or write say how.
                _ => return true,
            }
        }
    }
}

/// Outside Unix, bot programs cannot be started (`Program::start` fails before these run).
#[cfg(not(unix))]
mod io {
    use std::time::Instant;

    #[derive(Clone, Copy)]
    pub enum Ready {
        Read,
        Write,
    }

    pub fn set_nonblocking<T>(_pipe: &T) -> std::io::Result<()> {
        Err(std::io::Error::other("bot programs need a Unix system"))
    }

    pub fn wait_until<T>(_pipe: &T, _ready: Ready, _deadline: Instant) -> bool {
        false
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn shell(script: &str) -> Program {
        Program::start(&["sh".to_string(), "-c".to_string(), script.to_string()]).unwrap()
    }

    const SECOND: Duration = Duration::from_secs(5);

    #[test]
    fn lines_are_read_whole_across_reads_and_the_last_unfinished_one_is_not() {
        let mut program = shell("printf 'ab\\r\\ncd'; sleep 0.05; printf 'ef\\n\\nunfinished'");
        assert_eq!(program.receive(SECOND, "line").unwrap(), "ab");
        assert_eq!(program.receive(SECOND, "line").unwrap(), "cdef");
        assert_eq!(program.receive(SECOND, "line").unwrap(), "");
        let fault = program.receive(SECOND, "line").unwrap_err();
        assert_eq!(fault.kind, FaultKind::Exited, "{fault}");
        assert!(
            fault
                .message
                .starts_with("the bot closed its output (exit status: 0)")
        );
    }

    #[test]
    fn a_line_of_exactly_the_limit_is_read_and_one_byte_more_is_a_fault() {
        let script = format!(
            "head -c {MAX_LINE} /dev/zero | tr '\\0' x; echo; head -c {} /dev/zero | tr '\\0' y; echo",
            MAX_LINE + 1
        );
        let mut program = shell(&script);
        assert_eq!(program.receive(SECOND, "line").unwrap().len(), MAX_LINE);
        let fault = program.receive(SECOND, "line").unwrap_err();
        assert_eq!(fault, too_long());
    }

    #[test]
    fn silence_past_the_limit_is_too_late_and_names_the_end_of_stderr() {
        let mut program = shell("echo first >&2; echo 'last words' >&2; exec sleep 30");
        std::thread::sleep(Duration::from_millis(100));
        let started = Instant::now();
        let fault = program
            .receive(Duration::from_millis(50), "answer")
            .unwrap_err();
        assert!(started.elapsed() >= Duration::from_millis(50));
        assert_eq!(fault.kind, FaultKind::TooLate);
        assert_eq!(
            fault.message,
            "no answer within 50 ms; its stderr ended: \"last words\""
        );
    }

    #[test]
    fn a_program_that_reads_nothing_blocks_the_arena_no_longer_than_the_limit() {
        let mut program = shell("exec sleep 30");
        let line = "z".repeat(4096);
        let fault = (0..1000)
            .find_map(|_| program.send(line.clone(), Duration::from_millis(50)).err())
            .expect("the pipe fills");
        assert_eq!(fault.kind, FaultKind::TooLate);
    }
}
