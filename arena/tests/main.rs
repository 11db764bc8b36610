//! The arena's integration tests, one module per file, all in ONE test binary.
//!
//! Each test binary links the whole arena (the server's async stack included), so twenty
//! binaries spent most of their build linking the same code twenty times; and cargo runs test
//! binaries one after another, so a long test (the Python package's, the browser's) held the
//! machine's other core idle. As one binary they build once and their tests share the test
//! threads (docs/testing.md, "Where CI's time goes"). Run one file's tests with
//! `cargo test -p tetris-arena --test integration FILE::` (e.g. `nes_command::`).
//!
//! Every module runs the built `arena` binary or the library against values known
//! independently of it; the helpers they share are in [`common`].

mod common;

mod callers_words;
mod console_rule;
mod contracts;
mod fuzz_corpus;
mod html_pages;
mod inspect_commands;
mod literature_game;
mod nes_command;
mod outside_engines;
mod play_commands;
mod python_package;
mod reaction_time;
mod replay_verification;
mod server;
mod server_limits;
mod server_readme;
mod server_schema;
mod server_stackrabbit;
mod shard_merge;
mod stats_command;
mod tournament_command;
mod tune_command;
mod web_page;
