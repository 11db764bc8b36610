//! The move server's worker pool: a fixed number of threads that run searches, fed by a
//! bounded queue, so that search work never runs on the async threads (which keep accepting
//! and answering) and a burst beyond the queue is refused at once instead of piling up.
//!
//! Each job carries a [`Cancel`] flag, set when its request gives up (the time limit passed,
//! or the client went away): a job still queued is then skipped, and a long job (a game)
//! stops after its current piece.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, Mutex};

use tokio::sync::oneshot;

/// One job: runs on a worker.
type Job = Box<dyn FnOnce() + Send + 'static>;

/// The pool's threads and its queue's sending end.
pub struct WorkerPool {
    queue: SyncSender<Job>,
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
        let (sender, receiver) = sync_channel::<Job>(queue);
        let receiver = Arc::new(Mutex::new(receiver));
        for index in 0..workers {
            let receiver = Arc::clone(&receiver);
            std::thread::Builder::new()
                .name(format!("arena-serve-worker-{index}"))
                .spawn(move || work(&receiver))?;
        }
        Ok(WorkerPool { queue: sender })
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
            // The request may have given up: nobody to tell, and nothing to do.
            let _ = sender.send(outcome);
        });
        match self.queue.try_send(job) {
            Ok(()) => Ok(receiver),
            Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => Err(Busy),
        }
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
}
