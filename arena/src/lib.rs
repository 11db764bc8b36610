//! `tetris-arena`: the `arena` binary's library — strategies by name, games, and the commands.
//!
//! The binary (`src/main.rs`) only parses the command line and maps errors to one `error:`
//! line and exit code 2; everything it runs lives here so that integration tests and later
//! commands (stats, tune, nes) reuse it.

pub mod cli;
pub mod commands;
pub mod engines;
pub mod error;
pub mod game;
pub mod interrupt;
pub mod output;
pub mod plots;
pub mod render;
pub mod stats;
pub mod strategy;
pub mod tune;

pub use error::ArenaError;
pub use game::{GameEnd, GameResult, GameSettings, PlayOptions, PlayedPlacement, play_game};
pub use strategy::{Strategy, StrategySpec};
