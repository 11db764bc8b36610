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
//! or the client went away). A job still waiting gives its place back at once: the next
//! admission drops the cancelled jobs from the queue before it counts the places, and a worker
//! never starts one. A running job's search watches the flag ([`tetris_core::stop`]) and
//! returns within one last-level search of it; a game stops after its current piece.

use std::collections::VecDeque;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

use tokio::sync::oneshot;

/// One job: runs on a worker, which hands it the place it holds while it runs.
type Job = Box<dyn FnOnce(Place) + Send + 'static>;

/// The pool's queue and the workers' count of running jobs, shared with the workers.
struct Shared {
    state: Mutex<Queue>,
    /// Signalled when a job joins the queue or the pool closes.
    ready: Condvar,
}

/// Jobs waiting and jobs running.
struct Queue {
    /// Admitted jobs no worker has taken yet, oldest first, each with its request's flag.
    waiting: VecDeque<(Cancel, Job)>,
    /// Jobs a worker is running and whose outcome is not yet sent.
    running: usize,
    /// The pool was dropped: the workers end.
    closed: bool,
}

impl Queue {
    /// Drops the waiting jobs whose request gave up: their places are free again.
    fn forget_cancelled(&mut self) {
        self.waiting.retain(|(cancel, _)| !cancel.is_set());
    }
}

/// The pool's threads and its queue.
pub struct WorkerPool {
    shared: Arc<Shared>,
    /// `workers + queue`: jobs admitted and not yet answered (running or waiting), at most.
    places: usize,
}

/// The queue is full: the request is answered 503 at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Busy;

/// How a job ended on its worker.
pub enum JobOutcome<T> {
    /// It ran to its end.
    Done(T),
    /// It was cancelled: before it started, or while it ran (its result, cut short, is
    /// dropped).
    Skipped,
    /// It panicked (a bug; the worker lives on).
    Panicked,
}

/// Locks `state`, whatever a panicking holder left (the queue stays consistent: no job runs
/// under the lock).
fn lock(state: &Mutex<Queue>) -> MutexGuard<'_, Queue> {
    state
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl WorkerPool {
    /// Starts `workers` threads behind a queue where `queue` jobs may wait.
    pub fn start(workers: usize, queue: usize) -> std::io::Result<WorkerPool> {
        let shared = Arc::new(Shared {
            state: Mutex::new(Queue {
                waiting: VecDeque::new(),
                running: 0,
                closed: false,
            }),
            ready: Condvar::new(),
        });
        for index in 0..workers {
            let shared = Arc::clone(&shared);
            std::thread::Builder::new()
                .name(format!("arena-serve-worker-{index}"))
                .spawn(move || work(&shared))?;
        }
        Ok(WorkerPool {
            shared,
            places: workers + queue,
        })
    }

    /// Queues `job`, which gets the request's cancel flag (its searches watch it); its
    /// outcome arrives on the returned channel. [`Busy`] when every place is taken by a job
    /// whose request still waits.
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
        let flag = cancel.clone();
        let job: Job = Box::new(move |place: Place| {
            let outcome = if flag.is_set() {
                JobOutcome::Skipped
            } else {
                let watched = Arc::clone(&flag.0);
                match catch_unwind(AssertUnwindSafe(|| {
                    tetris_core::stop::watching(watched, || job(&flag))
                })) {
                    // Stopped on the way: whatever it returned is cut short.
                    Ok(_) if flag.is_set() => JobOutcome::Skipped,
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
        let mut state = lock(&self.shared.state);
        state.forget_cancelled();
        if state.running + state.waiting.len() >= self.places {
            return Err(Busy);
        }
        state.waiting.push_back((cancel, job));
        drop(state);
        self.shared.ready.notify_one();
        Ok(receiver)
    }

    /// Jobs running and jobs waiting whose requests still wait (for tests and the log).
    pub fn load(&self) -> (usize, usize) {
        let mut state = lock(&self.shared.state);
        state.forget_cancelled();
        (state.running, state.waiting.len())
    }
}

impl Drop for WorkerPool {
    fn drop(&mut self) {
        lock(&self.shared.state).closed = true;
        self.shared.ready.notify_all();
    }
}

/// A running job's place: counted in [`Queue::running`] until dropped.
struct Place(Arc<Shared>);

impl Drop for Place {
    fn drop(&mut self) {
        lock(&self.0.state).running -= 1;
    }
}

/// A worker's loop: takes the oldest job whose request still waits and runs it, until the
/// pool is dropped.
fn work(shared: &Arc<Shared>) {
    loop {
        let job = {
            let mut state = lock(&shared.state);
            loop {
                state.forget_cancelled();
                if let Some((_, job)) = state.waiting.pop_front() {
                    state.running += 1;
                    break job;
                }
                if state.closed {
                    return;
                }
                state = shared
                    .ready
                    .wait(state)
                    .unwrap_or_else(|poisoned| poisoned.into_inner());
            }
        };
        // The lock is held only while taking a job, never while running one.
        job(Place(Arc::clone(shared)));
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
        assert_eq!(pool.load(), (1, 1));
        // Its request gives up: its place is free at once, while the worker is still busy,
        // and the cancelled job never runs (nobody is told: its channel is closed).
        drop(cancel.guard());
        assert_eq!(pool.load(), (1, 0));
        let third = pool.submit(Cancel::new(), |_| 3).unwrap();
        assert!(pool.submit(Cancel::new(), |_| 4).is_err());
        release.send(()).unwrap();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        runtime.block_on(async {
            assert!(matches!(first.await.unwrap(), JobOutcome::Done(1)));
            assert!(second.await.is_err());
            assert!(matches!(third.await.unwrap(), JobOutcome::Done(3)));
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
    fn a_running_job_sees_its_request_give_up_through_the_stop_signal() {
        // The job stands for a search: it loops until `tetris_core::stop::requested()`, which
        // only the pool's watching of its request's flag can make true.
        let pool = WorkerPool::start(1, 0).unwrap();
        let (started, started_wait) = std::sync::mpsc::channel::<()>();
        let cancel = Cancel::new();
        let outcome = pool
            .submit(cancel.clone(), move |_| {
                started.send(()).unwrap();
                let mut spins = 0u64;
                while !tetris_core::stop::requested() {
                    spins += 1;
                    std::thread::yield_now();
                }
                spins
            })
            .unwrap();
        started_wait.recv().unwrap();
        drop(cancel.guard());
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        runtime.block_on(async {
            // Cut short: its result is not handed on as done.
            assert!(matches!(outcome.await.unwrap(), JobOutcome::Skipped));
        });
        // The worker is free again, and its next job watches its own flag, not set.
        let next = pool
            .submit(Cancel::new(), |_| tetris_core::stop::requested())
            .unwrap();
        runtime.block_on(async {
            assert!(matches!(next.await.unwrap(), JobOutcome::Done(false)));
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
