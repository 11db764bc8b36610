//! `tetris-arena-reports`: the reports of the arena — the typed JSON reports, CSV and text of
//! each command, SVG plots, the terminal view and the self-contained HTML pages — and the
//! tuner ([`tune`]: the optimisers, the checkpointed run, an outside runner).
//!
//! What they are written with (the stdout printer, atomic files, the output-path checks) is
//! `tetris_arena_io::output`, a lower layer; the parts of sharded runs and their merge are
//! `tetris_arena_runs::shard`'s. Every JSON written here is a serde-derived struct, so the
//! schema is the Rust types. This crate holds the reports' heavy dependencies (`plotters`,
//! `csv`), which nothing below it needs.
#![deny(missing_docs)]

pub mod csv;
pub mod error;
pub mod features;
pub mod games_file;
pub mod html;
pub mod nes;
pub mod nes_trace;
pub mod plots;
pub mod position;
pub mod stats;
pub mod terminal;
pub mod tournament;
pub mod tune;
pub mod watch;

pub use error::ReportError;
