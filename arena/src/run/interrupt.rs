//! Ctrl-C for the long commands (`tournament`, `nes`): the first press asks them to stop
//! starting games and to drop the running ones after their current piece, so that the finished
//! games can still be reported and written; a second press quits at once without writing.

use std::path::Path;

use std::sync::Once;

use crate::error::ArenaError;
use std::sync::atomic::{AtomicU32, Ordering};

/// Ctrl-C presses since [`install`] was last called.
static INTERRUPTS: AtomicU32 = AtomicU32::new(0);

/// Installs the Ctrl-C handler once per process and clears the press count.
pub fn install() {
    static INSTALLED: Once = Once::new();
    INSTALLED.call_once(|| {
        // Without a handler (e.g. no signal support), Ctrl-C simply ends the process.
        let _ = ctrlc::set_handler(|| {
            if INTERRUPTS.fetch_add(1, Ordering::SeqCst) == 0 {
                eprintln!(
                    "interrupted: no new games start; running games stop after their current \
                     piece and are dropped; the finished games are written (Ctrl-C again to \
                     quit without writing)"
                );
            } else {
                eprintln!("error: interrupted twice: quitting without writing results");
                std::process::exit(2);
            }
        });
    });
    INTERRUPTS.store(0, Ordering::SeqCst);
}

/// Whether Ctrl-C was pressed since [`install`].
pub fn interrupted() -> bool {
    INTERRUPTS.load(Ordering::SeqCst) > 0
}

/// After an interrupted run's results were printed (and written to `out`): the `error:` that
/// ends the command with code 2, saying how many of the `planned` games finished. `Ok` when
/// the run was not interrupted.
pub fn finished_or_error(
    interrupted: bool,
    finished: usize,
    planned: u64,
    out: Option<&Path>,
) -> Result<(), ArenaError> {
    if !interrupted {
        return Ok(());
    }
    Err(ArenaError::Usage(format!(
        "interrupted by Ctrl-C: {finished} of {planned} games finished; those were {}",
        match out {
            Some(path) => format!("printed and written to {}", path.display()),
            None => "printed".to_string(),
        }
    )))
}
