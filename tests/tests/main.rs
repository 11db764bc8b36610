//! The cross-crate integration and snapshot tests, one module per file, all in ONE test binary.
//!
//! Fourteen binaries each linked the registry and every engine again, and cargo runs test
//! binaries one after another, so a long test (the last links' stand-ins, 16 s; the search
//! properties, 12 s) held the machine's other core idle. As one binary they build once and their
//! tests share the test threads (docs/testing.md, "Where CI's time goes"). Run one file's tests
//! with `cargo test -p tetris-tests --test integration FILE::` (e.g. `chain::`).

mod bfs_search;
mod chain;
mod crate_edges;
mod deciding;
mod feature_snapshots;
mod finalists;
mod game_over_rules;
mod last_link_values;
mod lock_properties;
mod nes_randomizer_statistics;
mod planning;
mod playouts;
mod registered_searchers;
mod reports;
mod search_properties;
mod weights_files;
mod wrappers;
