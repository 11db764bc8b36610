//! The server's connections: accepting them, the limits each one lives under, and shutdown.
//!
//! `axum::serve` keeps a connection for as long as its client likes: a client that sends half
//! a head, idles on keep-alive or never reads its answer holds a socket and its buffers
//! forever, and shutdown waits for it. So the server runs its own accept loop over hyper's
//! HTTP/1 connection, with every limit of [`ConnectionLimits`]:
//!
//! - **header timeout**: hyper's own, counted from the moment the connection waits for a head
//!   (its start, or the end of the previous answer); the connection is then closed;
//! - **idle timeout**: a connection serving no request that neither sends nor takes a byte for
//!   that long is closed (a watchdog per connection, fed by [`TimedIo`]);
//! - **body timeout**: the body is read with a deadline before the handler runs
//!   ([`crate::read_body`]: 408 and `Connection: close`);
//! - **write timeout**: [`TimedIo`] fails a write that makes no progress for that long, which
//!   closes the connection and frees its answer;
//! - **open connections**: at most `max_connections`; for one more (or when the system refuses
//!   a socket: too many open files), the oldest connection that is not serving a request is
//!   closed, and a new connection is refused (closed at once) only when every open one is
//!   serving a request. A request is served from the moment its body has arrived whole
//!   ([`ServingCount::enter`], called by [`crate::read_body`]) until its answer is made: a
//!   client that sends a head and then waits holds no claim on its socket, or a thousand
//!   of them would shut every new client out until their body timeout;
//! - **shutdown**: on the signal the listener closes, every connection is told to finish its
//!   request in flight and close (an idle one closes at once), and after the grace period the
//!   ones left are dropped.
//!
//! Memory per connection is bounded: a head of at most [`MAX_HEAD_BYTES`] (larger is answered
//! 431), a body of at most `--max-body`, and one answer (the largest is a game of
//! `max_pieces` 100,000 with its placements, about 7 MB), freed by the write timeout when its
//! client does not take it.

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, watch};
use tokio::time::{Instant, Sleep};
use tower::ServiceExt;

use tetris_arena_jobs::serve::ConnectionLimits;

/// The largest request head (request line and headers) read, in bytes: far above any request
/// of the API (a StackRabbit query with a board is about 1 KB), far below hyper's default of
/// about 400 KB, which a thousand stalled clients turned into 400 MB.
pub const MAX_HEAD_BYTES: usize = 16 << 10;

/// How long the accept loop waits before it tries again when the system refuses a socket and
/// no connection can be closed for it.
const ACCEPT_RETRY: Duration = Duration::from_millis(50);

/// Connections the system may hold for the server before it accepts them. `TcpListener::bind`
/// asks for 128: a burst of clients (a thousand opened in a loop) overflowed that queue while
/// the server was accepting, and each client dropped from it waited a whole second to retry.
pub const LISTEN_BACKLOG: u32 = 1024;

/// A listener on `address` with a queue of [`LISTEN_BACKLOG`] connections.
pub fn listen(address: std::net::SocketAddr) -> io::Result<TcpListener> {
    let socket = match address {
        std::net::SocketAddr::V4(_) => tokio::net::TcpSocket::new_v4()?,
        std::net::SocketAddr::V6(_) => tokio::net::TcpSocket::new_v6()?,
    };
    // As `TcpListener::bind`: a restarted server binds its port again at once.
    socket.set_reuseaddr(true)?;
    socket.bind(address)?;
    socket.listen(LISTEN_BACKLOG)
}

/// The open connections, by their order of arrival (oldest first).
#[derive(Default)]
struct Registry {
    next: u64,
    open: BTreeMap<u64, Handle>,
}

/// What the accept loop knows of one open connection.
struct Handle {
    /// Requests of this connection being served (0 or 1 on HTTP/1).
    serving: Arc<AtomicUsize>,
    /// Notified to close the connection at once.
    close: Arc<Notify>,
}

/// Locks `registry`, whatever a panicking holder left (entries are only added and removed).
fn lock(registry: &Mutex<Registry>) -> MutexGuard<'_, Registry> {
    registry
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Registry {
    /// Closes the oldest connection not serving a request; `false` when every one is.
    fn close_oldest_idle(&mut self) -> bool {
        let oldest = self
            .open
            .iter()
            .find(|(_, handle)| handle.serving.load(Ordering::Acquire) == 0)
            .map(|(&id, _)| id);
        match oldest.and_then(|id| self.open.remove(&id)) {
            Some(handle) => {
                handle.close.notify_one();
                true
            }
            None => false,
        }
    }
}

/// Serves `router` on `listener` under `limits` until `shutdown` resolves, then lets the
/// requests in flight finish for the grace period and drops the connections left; returns how
/// many it dropped (0 when every request in flight was answered).
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: ConnectionLimits,
    shutdown: impl Future<Output = ()>,
) -> usize {
    let registry = Arc::new(Mutex::new(Registry::default()));
    let (stopping, stop_watch) = watch::channel(false);
    let mut tasks = tokio::task::JoinSet::new();
    let mut shutdown = std::pin::pin!(shutdown);
    let mut trim = tokio::time::interval(crate::memory::TRIM_PERIOD);
    trim.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut closed_since_trim = 0usize;
    loop {
        // Finished connections leave the set as they end, so it holds only open ones.
        while tasks.try_join_next().is_some() {
            closed_since_trim += 1;
        }
        let accepted = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => accepted,
            Some(_) = tasks.join_next(), if !tasks.is_empty() => {
                closed_since_trim += 1;
                continue;
            }
            _ = trim.tick() => {
                if closed_since_trim > 0 {
                    closed_since_trim = 0;
                    crate::memory::give_back_free_memory();
                }
                continue;
            }
        };
        let stream = match accepted {
            Ok((stream, _)) => stream,
            Err(error) => {
                // Too many open files (or another passing refusal): free a socket if some
                // connection is idle, else wait a little; the loop never ends on it.
                let freed = lock(&registry).close_oldest_idle();
                tracing::warn!(
                    "accept error: {error}; {}",
                    match freed {
                        true => "closed the oldest idle connection",
                        false => "every connection is serving a request",
                    }
                );
                if !freed {
                    tokio::time::sleep(ACCEPT_RETRY).await;
                }
                continue;
            }
        };
        let handle = Handle {
            serving: Arc::new(AtomicUsize::new(0)),
            close: Arc::new(Notify::new()),
        };
        let (serving, close) = (Arc::clone(&handle.serving), Arc::clone(&handle.close));
        let id = {
            let mut registry = lock(&registry);
            if registry.open.len() >= limits.max_connections && !registry.close_oldest_idle() {
                drop(registry);
                tracing::warn!(
                    "refused a connection: {} open, each serving a request (--max-connections)",
                    limits.max_connections
                );
                drop(stream);
                continue;
            }
            let id = registry.next;
            registry.next += 1;
            registry.open.insert(id, handle);
            id
        };
        let connection = Connection {
            stream,
            router: router.clone(),
            limits,
            serving,
            close,
            stopping: stop_watch.clone(),
        };
        let registry = Arc::clone(&registry);
        tasks.spawn(async move {
            connection.run().await;
            lock(&registry).open.remove(&id);
        });
    }
    drop(listener);
    let _ = stopping.send(true);
    let open = tasks.len();
    tracing::info!(
        "shutting down: no new connections; {open} open, the requests in flight have {} ms",
        limits.shutdown_grace.as_millis()
    );
    let drained = tokio::time::timeout(limits.shutdown_grace, async {
        while tasks.join_next().await.is_some() {}
    })
    .await;
    if drained.is_ok() {
        return 0;
    }
    let dropped = tasks.len();
    tasks.shutdown().await;
    dropped
}

/// One accepted connection and what it needs to run.
struct Connection {
    stream: TcpStream,
    router: Router,
    limits: ConnectionLimits,
    /// Requests whose handler runs, shared with the accept loop.
    serving: Arc<AtomicUsize>,
    /// Notified by the accept loop to close this connection.
    close: Arc<Notify>,
    /// Becomes `true` at shutdown.
    stopping: watch::Receiver<bool>,
}

impl Connection {
    /// Serves the connection's requests until it ends, is closed or times out.
    async fn run(self) {
        let Connection {
            stream,
            router,
            limits,
            serving,
            close,
            mut stopping,
        } = self;
        let activity = Arc::new(Activity::default());
        let io = TimedIo {
            stream,
            write_timeout: limits.write_timeout,
            stalled: None,
            activity: Arc::clone(&activity),
        };
        let counted = ServingCount(Arc::clone(&serving));
        let service = hyper::service::service_fn(move |request: hyper::Request<Incoming>| {
            let router = router.clone();
            let mut request = request.map(Body::new);
            request.extensions_mut().insert(counted.clone());
            async move {
                let response = router.oneshot(request).await;
                Ok::<_, Infallible>(response.unwrap_or_else(|never| match never {}))
            }
        });
        let mut builder = hyper::server::conn::http1::Builder::new();
        builder
            .timer(TokioTimer::new())
            .header_read_timeout(limits.header_timeout)
            .max_buf_size(MAX_HEAD_BYTES)
            .keep_alive(true);
        let connection = builder.serve_connection(TokioIo::new(io), service);
        let mut connection = std::pin::pin!(connection);
        let mut shutting_down = *stopping.borrow();
        if shutting_down {
            connection.as_mut().graceful_shutdown();
        }
        let idle = tokio::time::sleep(limits.idle_timeout);
        let mut idle = std::pin::pin!(idle);
        loop {
            tokio::select! {
                _ = connection.as_mut() => return,
                () = close.notified() => return,
                changed = stopping.changed(), if !shutting_down => {
                    shutting_down = true;
                    if changed.is_ok() {
                        connection.as_mut().graceful_shutdown();
                    }
                }
                () = &mut idle => {
                    let since = activity.since_last();
                    if serving.load(Ordering::Acquire) == 0 && since >= limits.idle_timeout {
                        return;
                    }
                    // Busy, or active since: look again when the idle time would be up.
                    let left = limits.idle_timeout.saturating_sub(since);
                    idle.as_mut().reset(Instant::now() + left.max(Duration::from_millis(1)));
                }
            }
        }
    }
}

/// A connection's count of requests being served, carried by each of its requests (an
/// extension) so that the body reader can count the request in once its body has arrived.
#[derive(Clone)]
pub(crate) struct ServingCount(Arc<AtomicUsize>);

impl ServingCount {
    /// Counts `request` as served until the guard drops; `None` for a request that came
    /// through no connection of [`serve`] (a router called directly, in tests).
    pub(crate) fn enter<B>(request: &axum::http::Request<B>) -> Option<ServingGuard> {
        let count = request.extensions().get::<ServingCount>()?;
        count.0.fetch_add(1, Ordering::AcqRel);
        Some(ServingGuard(Arc::clone(&count.0)))
    }
}

/// Counts a request in its connection's `serving` while it is served.
pub(crate) struct ServingGuard(Arc<AtomicUsize>);

impl Drop for ServingGuard {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// When a connection last moved a byte either way, for the idle watchdog.
struct Activity {
    /// The connection's start.
    start: Instant,
    /// Milliseconds from `start` to the last byte read or written.
    last: AtomicU64,
}

impl Default for Activity {
    fn default() -> Activity {
        Activity {
            start: Instant::now(),
            last: AtomicU64::new(0),
        }
    }
}

impl Activity {
    fn record(&self) {
        let now = self.start.elapsed().as_millis() as u64;
        self.last.fetch_max(now, Ordering::Relaxed);
    }

    /// The time since the last byte moved (or since the start).
    fn since_last(&self) -> Duration {
        let last = Duration::from_millis(self.last.load(Ordering::Relaxed));
        self.start.elapsed().saturating_sub(last)
    }
}

/// The connection's socket, with a write timeout: a write (or flush) that makes no progress for
/// `write_timeout` fails with [`io::ErrorKind::TimedOut`], which ends the connection. Every byte
/// moved is recorded for the idle watchdog.
struct TimedIo {
    stream: TcpStream,
    write_timeout: Duration,
    /// Armed when a write first waits, disarmed when one makes progress.
    stalled: Option<Pin<Box<Sleep>>>,
    activity: Arc<Activity>,
}

impl TimedIo {
    /// `Pending` while the write may still wait; the timeout's error once it may not.
    fn wait_or_time_out<T>(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<T>> {
        let timeout = self.write_timeout;
        let stalled = self
            .stalled
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(timeout)));
        match stalled.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client took none of its answer within the write timeout",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }

    /// A write's poll result, with the stall timer armed or disarmed.
    fn written<T>(
        &mut self,
        cx: &mut Context<'_>,
        result: Poll<io::Result<T>>,
    ) -> Poll<io::Result<T>> {
        match result {
            Poll::Pending => self.wait_or_time_out(cx),
            ready => {
                self.stalled = None;
                self.activity.record();
                ready
            }
        }
    }
}

impl AsyncRead for TimedIo {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let result = Pin::new(&mut self.stream).poll_read(cx, buf);
        if matches!(result, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.activity.record();
        }
        result
    }
}

impl AsyncWrite for TimedIo {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let result = Pin::new(&mut self.stream).poll_write(cx, buf);
        self.written(cx, result)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let result = Pin::new(&mut self.stream).poll_write_vectored(cx, bufs);
        self.written(cx, result)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let result = Pin::new(&mut self.stream).poll_flush(cx);
        self.written(cx, result)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let result = Pin::new(&mut self.stream).poll_shutdown(cx);
        self.written(cx, result)
    }
}
