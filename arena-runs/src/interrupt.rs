//! Ctrl-C for the long commands (`tournament`, `nes`, `stats`, `tune`, `play`): the first
//! press asks them to stop starting games and to drop the running ones after their current
//! piece, so that what is finished can still be reported and written (finished games for
//! `tournament` and `nes`; finished iterations, already written, for `tune`; nothing for
//! `stats` and `play`, whose one result needs every piece), and the command ends with an
//! `error:` that says what was kept, exit code 130; a second press quits at once without
//! writing. A front end with signals of its own (the Python package, whose interpreter takes
//! Ctrl-C) asks for the same stop with [`request_stop`].

use std::path::Path;

use std::sync::{Mutex, Once};

use crate::error::RunError;
use std::sync::atomic::{AtomicU32, Ordering};

/// Ctrl-C presses since [`install`] was last called.
static INTERRUPTS: AtomicU32 = AtomicU32::new(0);

/// What the first Ctrl-C says will happen (set by [`install`] and [`install_with_note`]).
static NOTE: Mutex<&'static str> = Mutex::new(GAMES_NOTE);

/// The first Ctrl-C's note of the runs of many games (`tournament`, `nes`).
const GAMES_NOTE: &str = "interrupted: no new games start; running games stop after their \
     current piece and are dropped; the finished games are written (Ctrl-C again to quit \
     without writing)";

/// Installs the Ctrl-C handler once per process and clears the press count; the first press
/// says that the finished games are kept (`tournament`, `nes`).
pub fn install() {
    install_with_note(GAMES_NOTE);
}

/// [`install`] for a command whose first Ctrl-C does something else (`play`, `stats`,
/// `tune`): `note` says what, on standard error, when the key is pressed.
pub fn install_with_note(note: &'static str) {
    static INSTALLED: Once = Once::new();
    *NOTE.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = note;
    // Cleared before the handler is installed: a press right after would be lost otherwise.
    INTERRUPTS.store(0, Ordering::SeqCst);
    INSTALLED.call_once(|| {
        // Without a handler (e.g. no signal support), Ctrl-C simply ends the process. The
        // browser build has no signals: nothing to install there.
        #[cfg(not(target_arch = "wasm32"))]
        let _ = ctrlc::set_handler(|| {
            if INTERRUPTS.fetch_add(1, Ordering::SeqCst) == 0 {
                tetris_arena_io::output::print_to_stderr(
                    *NOTE.lock().unwrap_or_else(|poisoned| poisoned.into_inner()),
                );
            } else {
                tetris_arena_io::output::print_to_stderr(
                    "error: interrupted twice: quitting without writing results",
                );
                std::process::exit(2);
            }
        });
    });
}

/// Whether Ctrl-C was pressed since [`install`] (or a stop requested since [`clear`]).
pub fn interrupted() -> bool {
    INTERRUPTS.load(Ordering::SeqCst) > 0
}

/// Asks the running run to stop as the first Ctrl-C does, without a handler: for a front end
/// that receives the signal itself (the Python package).
pub fn request_stop() {
    INTERRUPTS.fetch_add(1, Ordering::SeqCst);
}

/// Forgets a requested stop, so that the next run starts uninterrupted.
pub fn clear() {
    INTERRUPTS.store(0, Ordering::SeqCst);
}

/// After an interrupted run's results were printed (and written to `out`): the `error:` that
/// ends the command with code 130, saying how many of the `planned` games finished. `Ok` when
/// the run was not interrupted.
pub fn finished_or_error(
    interrupted: bool,
    finished: usize,
    planned: u64,
    out: Option<&Path>,
) -> Result<(), RunError> {
    if !interrupted {
        return Ok(());
    }
    Err(RunError::Interrupted(format!(
        ": {finished} of {planned} games finished; those were {}",
        match out {
            Some(path) => format!("printed and written to {}", path.display()),
            None => "printed".to_string(),
        }
    )))
}
