//! `tetris-arena`: the `arena` binary's library — games, runs, statistics and reports.
//!
//! The layers, each using only those above it:
//!
//! - [`format`](mod@format): number formats and aligned text tables (no dependencies), and
//!   [`output`]: the stdout and stderr printers, atomic files and folders, the output-path
//!   checks (no arena dependency but the error type);
//! - [`sim`]: the games — the frame-less game, the NES frame-accurate game, the placement
//!   record every result uses, and replays with their verifier;
//! - [`analysis`]: what results mean — summaries, the sign test and intervals, per-piece
//!   statistics and the log-linear fit, the NES score distribution, position analysis;
//! - [`run`]: the one parallel, deterministic, interruptible runner, the games of each kind of
//!   run as its tasks (tournament, statistics), and sharding in one place ([`run::shard`]:
//!   `--shard K/N`, a shard's games, its part file and the checked, exact merge of the parts),
//!   plus [`tune`]'s tuner;
//! - [`report`]: every report — typed JSON reports, CSV, SVG plots, the terminal view and the
//!   self-contained HTML pages;
//! - [`request`]: one typed request per job and ONE check per request, holding every rule of
//!   the job, with the typed values of the options; every front end (these commands, the
//!   Python package) builds a request, calls its check, runs and converts;
//! - [`commands`]: one module per subcommand that parses its options into a request, calls its
//!   check, runs and prints. No library module imports a command.
//!
//! Strategies and engines by name come from the `tetris-registry` crate. The binary
//! (`src/main.rs`) only parses the command line and maps errors to one `error:` line and exit
//! code 2.
#![deny(missing_docs)]

pub mod analysis;
#[cfg(feature = "api")]
pub mod api;
pub mod cli;
pub mod commands;
pub mod error;
pub mod format;
pub mod fuzzing;
pub mod input;
pub mod output;
pub mod report;
pub mod request;
pub mod run;
#[cfg(feature = "serve")]
pub mod serve;
pub mod sim;
pub mod tune;

pub use error::ArenaError;
pub use sim::game::{GameEnd, GameResult, GameSettings, PlayOptions, play_game};
pub use sim::placement::PlayedPlacement;
pub use tetris_registry::{Strategy, StrategySpec};
