//! A running `arena serve` for the server's tests: the real binary on an ephemeral loopback
//! port, and a small HTTP/1.1 client over a plain socket (one request per connection), so a
//! test can also send what no well-behaved client would (a cut body, a huge one).

use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

/// `arena serve --bind 127.0.0.1:0 ARGS…`, stopped (SIGKILL) when dropped if still running.
pub struct Server {
    /// The process.
    pub child: Child,
    /// The address it listens on (from its first line on stdout).
    pub address: SocketAddr,
    /// The rest of its stdout, held open and never read: a closed pipe would fail the
    /// server's later writes there.
    _stdout: BufReader<ChildStdout>,
    /// Its stderr (the log) so far: a thread keeps reading it, so that a server logging a
    /// line per request never blocks on a full pipe.
    log: Arc<Mutex<String>>,
}

impl Server {
    /// Starts the server with `args` and waits for its address.
    pub fn start(args: &[&str]) -> Server {
        let mut command = Command::new(env!("CARGO_BIN_EXE_arena"));
        command.args(["serve", "--bind", "127.0.0.1:0"]).args(args);
        Server::start_command(command)
    }

    /// Starts the server with at most `files` open files (`ulimit -n`, through `sh`) and
    /// `args`, and waits for its address.
    pub fn start_with_open_files(files: u32, args: &[&str]) -> Server {
        let mut command = Command::new("sh");
        command
            .args([
                "-c",
                &format!("ulimit -n {files} && exec \"$0\" \"$@\""),
                env!("CARGO_BIN_EXE_arena"),
                "serve",
                "--bind",
                "127.0.0.1:0",
            ])
            .args(args);
        Server::start_command(command)
    }

    /// Starts `command` (an `arena serve` that prints its address first) and waits for its
    /// address.
    fn start_command(mut command: Command) -> Server {
        let mut child = command
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("arena serve starts");
        let log = Arc::new(Mutex::new(String::new()));
        let mut stderr = BufReader::new(child.stderr.take().expect("piped stderr"));
        let kept = Arc::clone(&log);
        std::thread::spawn(move || {
            let mut line = String::new();
            while stderr.read_line(&mut line).is_ok_and(|read| read > 0) {
                kept.lock().unwrap().push_str(&line);
                line.clear();
            }
        });
        let mut stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        let mut line = String::new();
        stdout.read_line(&mut line).expect("the address line");
        let address = line
            .trim()
            .strip_prefix("listening on http://")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .parse()
            .expect("an address");
        Server {
            child,
            address,
            _stdout: stdout,
            log,
        }
    }

    /// The server's resident memory, in KiB (`VmRSS` of /proc).
    pub fn resident_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .expect("the server's /proc status");
        status
            .lines()
            .find_map(|line| line.strip_prefix("VmRSS:"))
            .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
            .expect("a VmRSS line")
    }

    /// The files the server holds open (its listener, its connections, …), from /proc.
    pub fn open_files(&self) -> usize {
        std::fs::read_dir(format!("/proc/{}/fd", self.child.id()))
            .expect("the server's /proc fd folder")
            .count()
    }

    /// What the server logged on stderr so far.
    pub fn log(&self) -> String {
        self.log.lock().unwrap().clone()
    }

    /// The log once it holds `line` (a request's line is written after its answer is sent,
    /// so a client can read the answer first): waits at most 10 s, then gives the log as it is.
    pub fn log_with(&self, line: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let log = self.log();
            if log.contains(line) || Instant::now() > deadline {
                return log;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Sends SIGTERM (with `kill`: the tests do without a libc binding).
    pub fn terminate(&self) {
        let status = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(status.success(), "kill -TERM failed");
    }

    /// Waits for the process to exit (at most 60 s: a test fails rather than hangs).
    pub fn wait_for_exit(&mut self) -> ExitStatus {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if let Some(status) = self.child.try_wait().expect("the server's status") {
                return status;
            }
            assert!(Instant::now() < deadline, "the server did not exit");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Sends `request` (a long search) and returns its connection, still waiting for the
    /// answer, once the server's only worker is surely running it. The server must run with
    /// `--workers 1 --max-queue 0`: then a quick `probe` (a search request) answers 503 at
    /// once exactly while the worker is busy. A probe that wins the worker before the long
    /// request is answered 200; and if the long request was answered meanwhile (refused while
    /// a probe ran, or done before a probe came), it is sent again. Returns the probe's 503
    /// too.
    pub fn occupy_the_worker(&self, request: &[u8], probe: &[u8]) -> (TcpStream, Answer) {
        let deadline = Instant::now() + Duration::from_secs(60);
        'send: loop {
            let mut long = self.connect();
            long.write_all(request).expect("the long request is sent");
            loop {
                assert!(Instant::now() < deadline, "the worker never got busy");
                let answer = self.send_raw(probe);
                match answer.status {
                    503 => return (long, answer),
                    200 if has_answered(&long) => {
                        let early = read_answer(&mut long);
                        assert!([200, 503].contains(&early.status), "{}", early.body);
                        continue 'send;
                    }
                    200 => continue,
                    _ => panic!("the probe answered {}: {}", answer.status, answer.body),
                }
            }
        }
    }

    /// Sends `request` (the whole HTTP request as bytes) and reads the answer.
    pub fn send_raw(&self, request: &[u8]) -> Answer {
        let mut stream = self.connect();
        stream.write_all(request).expect("the request is sent");
        read_answer(&mut stream)
    }

    /// A connection to the server, with a read timeout of 60 s (a test fails rather than
    /// hangs).
    pub fn connect(&self) -> TcpStream {
        let stream = TcpStream::connect(self.address).expect("the server accepts");
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .expect("a timeout");
        stream
    }

    /// `GET path` (path with its query).
    pub fn get(&self, path: &str) -> Answer {
        self.send_raw(
            format!("GET {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n").as_bytes(),
        )
    }

    /// `POST path` with a JSON body.
    pub fn post(&self, path: &str, body: &str) -> Answer {
        self.send_raw(&post_request(path, body))
    }

    /// `POST path` with `body` as JSON text.
    pub fn post_json(&self, path: &str, body: &Value) -> Answer {
        self.post(path, &body.to_string())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Whether an answer is waiting on `stream` (without blocking).
pub fn has_answered(stream: &TcpStream) -> bool {
    stream.set_nonblocking(true).expect("non-blocking");
    let peeked = stream.peek(&mut [0u8; 1]);
    stream.set_nonblocking(false).expect("blocking");
    match peeked {
        Ok(read) => read > 0,
        Err(error) if error.kind() == ErrorKind::WouldBlock => false,
        Err(error) => panic!("the connection failed: {error}"),
    }
}

/// A board given as rows of `#`/`.` (top first) as the cells of a request: `1` occupied, `0`
/// empty, row by row from the top (StackRabbit's form).
pub fn cells(rows: &[&str]) -> String {
    rows.iter()
        .flat_map(|row| row.chars())
        .map(|cell| if cell == '#' { '1' } else { '0' })
        .collect()
}

/// The bytes of `POST path` with `body`.
pub fn post_request(path: &str, body: &str) -> Vec<u8> {
    format!(
        "POST {path} HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: \
         {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// An HTTP answer.
#[derive(Debug, Clone)]
pub struct Answer {
    /// The status code.
    pub status: u16,
    /// The headers, names in lower case.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: String,
}

impl Answer {
    /// The body as JSON.
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|error| panic!("not JSON ({error}): {}", self.body))
    }

    /// A header's value.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }

    /// The `error` of a JSON error body.
    pub fn error(&self) -> String {
        self.json()["error"]
            .as_str()
            .unwrap_or_else(|| panic!("no error in {}", self.body))
            .to_string()
    }
}

/// Reads one answer (the server closes the connection after it: `Connection: close`).
pub fn read_answer(stream: &mut TcpStream) -> Answer {
    let mut bytes = Vec::new();
    stream.read_to_end(&mut bytes).expect("the answer is read");
    let text = String::from_utf8(bytes).expect("a UTF-8 answer");
    let (head, body) = text
        .split_once("\r\n\r\n")
        .unwrap_or_else(|| panic!("no header end in {text:?}"));
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|line| line.split(' ').nth(1))
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("no status in {head:?}"));
    let headers: Vec<(String, String)> = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(name, value)| (name.trim().to_lowercase(), value.trim().to_string()))
        .collect();
    let chunked = headers
        .iter()
        .any(|(name, value)| name == "transfer-encoding" && value.contains("chunked"));
    let body = match chunked {
        true => dechunk(body),
        false => body.to_string(),
    };
    Answer {
        status,
        headers,
        body,
    }
}

/// The body of a chunked answer.
fn dechunk(mut rest: &str) -> String {
    let mut body = String::new();
    loop {
        let Some((size, after)) = rest.split_once("\r\n") else {
            return body;
        };
        let size = usize::from_str_radix(size.trim(), 16).expect("a chunk size");
        if size == 0 {
            return body;
        }
        body.push_str(&after[..size]);
        rest = &after[size + 2..];
    }
}
