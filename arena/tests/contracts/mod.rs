//! The arena's contracts with its users, each checked against the built binary, one module
//! per contract (not per the issue that found a gap):
//!
//! - [`errors`]: every mistake is one `error:` line whose exit code is its kind's (2 bad
//!   input, 3 I/O, 4 an outside engine, 5 internal, 130 interrupted), never a panic, and what
//!   it prints is safe to print (control characters escaped, nothing split);
//! - [`inputs`]: what the arena reads is bounded and checked (size limits, tampered
//!   checkpoints and parts refused before anything is sized by them, boards from any source);
//! - [`resources`]: work and memory are bounded up front (threads, populations, streamed
//!   sequences);
//! - [`outputs`]: outputs never replace what they must not (links, devices, inputs, each
//!   other), folders are replaced whole and leftovers of killed runs cleaned;
//! - [`interrupts`]: Ctrl-C ends a run with an error that says what was kept;
//! - [`formats`]: the numbers, layouts and announcements a user reads follow one rule;
//! - [`provenance`]: every output says what made it.

use std::fs;
use std::path::Path;

mod errors;
mod formats;
mod inputs;
mod interrupts;
#[cfg(unix)]
mod outputs;
mod provenance;
mod resources;

fn text(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// The small tune run whose checkpoints are tampered with.
fn tune_args<'a>(method: &'a str, checkpoint: &'a str, out: &'a str) -> Vec<&'a str> {
    vec![
        "elashi",
        "--method",
        method,
        "--searcher",
        "column-drop",
        "--games",
        "2",
        "--board-height",
        "6",
        "--population",
        "5",
        "--max-pieces",
        "60",
        "--seed",
        "7",
        "--checkpoint",
        checkpoint,
        "--out",
        out,
    ]
}

fn names(folder: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(folder)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}
