//! The move server's worker pool: a fixed number of threads that run searches, fed by a
//! bounded queue, so that search work never runs on the async threads (which keep accepting
//! and answering) and a burst beyond the queue is refused at once instead of piling up.
//!
//! The queue's bound is counted in places, not in channel slots: a job holds one of the
//! `workers + queue` places from its admission until its outcome is sent (released just
//! before), so a client that asks again as soon as it has its answer always finds its place
//! free, even when the worker thread has not yet gone back to wait for the next job (a
//! rendezvous channel alone refused such a request whenever no worker was blocked in `recv`
//! at that instant, the first request after the start included).
//!
//! Each job carries a [`Cancel`] flag, set when its request gives up (the time limit passed,
//! or the client went away): a job still queued is then skipped, and a long job (a game)
//! stops after its current piece.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, Mutex};

use tokio::sync::oneshot;

/// One job: runs on a worker.
type Job = Box<dyn FnOnce() + Send + 'static>;

/// The pool's threads and its queue's sending end.
pub struct WorkerPool {
    queue: SyncSender<Job>,
    /// Jobs admitted and not yet answered (running or waiting), at most `places`.
    admitted: Arc<AtomicUsize>,
    /// `workers + queue`.
    places: usize,
}

/// The queue is full: the request is answered 503 at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Busy;

/// How a job ended on its worker.
pub enum JobOutcome<T> {
    /// It ran to its end.
    Done(T),
    /// It was cancelled before it started.
    Skipped,
    /// It panicked (a bug; the worker lives on).
    Panicked,
}

impl WorkerPool {
    /// Starts `workers` threads behind a queue where `queue` jobs may wait.
    pub fn start(workers: usize, queue: usize) -> std::io::Result<WorkerPool> {
        let places = workers + queue;
        // Never full: a job is sent only after taking one of the `places`, and leaves the
        // channel before it gives its place back.
        let (sender, receiver) = sync_channel::<Job>(places);
        let receiver = Arc::new(Mutex::new(receiver));
        for index in 0..workers {
            let receiver = Arc::clone(&receiver);
            std::thread::Builder::new()
                .name(format!("arena-serve-worker-{index}"))
                .spawn(move || work(&receiver))?;
        }
        Ok(WorkerPool {
            queue: sender,
            admitted: Arc::new(AtomicUsize::new(0)),
            places,
        })
    }

    /// Queues `job`, which gets the request's cancel flag; its outcome arrives on the
    /// returned channel. [`Busy`] when the queue is full.
    pub fn submit<T, F>(
        &self,
        cancel: Cancel,
        job: F,
    ) -> Result<oneshot::Receiver<JobOutcome<T>>, Busy>
    where
        T: Send + 'static,
        F: FnOnce(&Cancel) -> T + Send + 'static,
    {
        let place = Place::take(&self.admitted, self.places).ok_or(Busy)?;
        let (sender, receiver) = oneshot::channel();
        let job: Job = Box::new(move || {
            let outcome = if cancel.is_set() {
                JobOutcome::Skipped
            } else {
                match catch_unwind(AssertUnwindSafe(|| job(&cancel))) {
                    Ok(value) => JobOutcome::Done(value),
                    Err(_) => JobOutcome::Panicked,
                }
            };
            // The place is free before the answer is: whoever reads the answer and asks
            // again finds it.
            drop(place);
            // The request may have given up: nobody to tell, and nothing to do.
            let _ = sender.send(outcome);
        });
        match self.queue.try_send(job) {
            Ok(()) => Ok(receiver),
            Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => Err(Busy),
        }
    }
}

/// One of the pool's places, held by a job from its admission to its answer.
struct Place(Arc<AtomicUsize>);

impl Place {
    /// Takes a place if one of the `places` is free.
    fn take(admitted: &Arc<AtomicUsize>, places: usize) -> Option<Place> {
        admitted
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |taken| {
                (taken < places).then_some(taken + 1)
            })
            .ok()
            .map(|_| Place(Arc::clone(admitted)))
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// A worker's loop: takes the next job and runs it, until the pool is dropped.
fn work(receiver: &Mutex<Receiver<Job>>) {
    loop {
        // The lock is held only while waiting for a job, never while running one.
        let job = match receiver.lock() {
            Ok(receiver) => receiver.recv(),
            Err(poisoned) => poisoned.into_inner().recv(),
        };
        match job {
            Ok(job) => job(),
            Err(_) => return,
        }
    }
}

/// A request's cancel flag, shared by the request and its job.
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// A flag not set.
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// Whether the request gave up.
    pub fn is_set(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// A guard that sets the flag when dropped: the request keeps it while it waits, so that
    /// a request dropped for any reason (time limit, client gone) cancels its job.
    pub fn guard(&self) -> CancelOnDrop {
        CancelOnDrop(self.clone())
    }
}

/// Sets its flag when dropped ([`Cancel::guard`]).
pub struct CancelOnDrop(Cancel);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.0.store(true, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::channel;

    #[test]
    fn a_full_queue_refuses_at_once_and_cancelled_jobs_are_skipped() {
        let pool = WorkerPool::start(1, 1).unwrap();
        let (release, wait) = channel::<()>();
        let (started, started_wait) = channel::<()>();
        // The worker takes the first job and waits inside it.
        let first = pool
            .submit(Cancel::new(), move |_| {
                started.send(()).unwrap();
                wait.recv().unwrap();
                1
            })
            .unwrap();
        started_wait.recv().unwrap();
        // One job waits in the queue; the next is refused.
        let cancel = Cancel::new();
        let second = pool.submit(cancel.clone(), |_| 2).unwrap();
        assert!(pool.submit(Cancel::new(), |_| 3).is_err());
        drop(cancel.guard());
        release.send(()).unwrap();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        runtime.block_on(async {
            assert!(matches!(first.await.unwrap(), JobOutcome::Done(1)));
            assert!(matches!(second.await.unwrap(), JobOutcome::Skipped));
        });
        // A panicking job is reported and the worker goes on.
        let panicked = pool
            .submit(Cancel::new(), |_| -> u8 { panic!("a bug") })
            .unwrap();
        runtime.block_on(async {
            assert!(matches!(panicked.await.unwrap(), JobOutcome::Panicked));
        });
        let after = pool.submit(Cancel::new(), |_| 4).unwrap();
        runtime.block_on(async {
            assert!(matches!(after.await.unwrap(), JobOutcome::Done(4)));
        });
    }

    #[test]
    fn a_job_submitted_after_the_last_answer_is_never_refused() {
        // One worker and no queue: a client that waits for each answer before it asks again
        // must never be told the server is busy, however soon it asks. The answer comes only
        // once the job's place is free again, even if the worker thread has not yet gone back
        // to wait for the next job.
        let pool = WorkerPool::start(1, 0).unwrap();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        for round in 0..2000 {
            let outcome = pool
                .submit(Cancel::new(), move |_| round)
                .unwrap_or_else(|Busy| panic!("round {round}: refused"));
            runtime.block_on(async {
                assert!(matches!(outcome.await.unwrap(), JobOutcome::Done(r) if r == round));
            });
        }
    }
}
