//! `tetris-tests`: cross-crate integration tests (in `tests/`) and the helpers they share.
//!
//! The tests live here rather than in each crate because they check properties that span
//! crates (every column-drop placement is a BFS placement, paths replay on the board).
