//! Stopping a long search from another thread: the move server gives each search a time
//! limit, and a search whose client has gone or whose time is up must give its worker back
//! instead of running on for seconds (a depth-4 expectimax on an empty board takes about 20 s).
//!
//! The stop is a flag another thread sets; the search looks at it between the placements it
//! follows ([`crate::LookaheadChain`]'s walk, its expectimax over the unknown piece, its
//! playouts) and, once it is set, returns without a choice. The flag is installed for the
//! current thread for the duration of a closure ([`watching`]) rather than passed as a
//! parameter: a stop is no part of a decision (a search that is never stopped decides exactly
//! as before), and every searcher, evaluator and front end keeps its signature. Outside
//! [`watching`] (games, tournaments, the command line), [`requested`] is always `false`.
//!
//! Granularity: the walk looks at the flag before each placement it follows at every level
//! but the last (whose placements are valued together), so a stopped search returns within
//! the time of one last-level search and its values; the server measures that bound
//! (`docs/server.md`, "Time limits").

use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

thread_local! {
    /// The flag this thread's searches watch, while [`watching`] runs.
    static WATCHED: RefCell<Option<Arc<AtomicBool>>> = const { RefCell::new(None) };
}

/// Runs `run` with `flag` as this thread's stop flag: a search inside it returns early once
/// `flag` is set. The thread's previous flag (if any) is watched again afterwards, even when
/// `run` panics.
pub fn watching<T>(flag: Arc<AtomicBool>, run: impl FnOnce() -> T) -> T {
    /// Puts the previous flag back when dropped (a panic included).
    struct Restore(Option<Arc<AtomicBool>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let previous = self.0.take();
            WATCHED.with(|watched| *watched.borrow_mut() = previous);
        }
    }
    let previous = WATCHED.with(|watched| watched.borrow_mut().replace(flag));
    let _restore = Restore(previous);
    run()
}

/// Whether this thread's search was asked to stop (always `false` outside [`watching`]).
#[inline]
pub fn requested() -> bool {
    WATCHED.with(|watched| {
        watched
            .borrow()
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flag_is_watched_only_inside_its_closure_and_nests() {
        assert!(!requested());
        let outer = Arc::new(AtomicBool::new(true));
        let inner = Arc::new(AtomicBool::new(false));
        watching(Arc::clone(&outer), || {
            assert!(requested());
            watching(Arc::clone(&inner), || assert!(!requested()));
            assert!(requested());
        });
        assert!(!requested());
        // Restored after a panic too.
        let caught = std::panic::catch_unwind(|| watching(outer, || panic!("a bug")));
        assert!(caught.is_err());
        assert!(!requested());
    }
}
