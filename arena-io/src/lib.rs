//! `tetris-arena-io`: the arena's values and files — the lowest layer of the arena.
//!
//! - [`values`]: the domain values of every request (board height, tap rate, game count, …),
//!   each a type with one parser and one message that names its field;
//! - [`fields`]: every field of a request as each front end spells it (`--board-height`,
//!   `board_height`), and the words a message is written in;
//! - [`input`]: the files users hand over (boards) and the one size-limited read;
//! - [`output`]: standard output and error, files written atomically, output folders swapped
//!   in whole, the output-path checks, the JSON layout and the `made_by` record;
//! - [`format`](mod@format): number formats and aligned text tables;
//! - [`error`]: [`ErrorKind`], the kinds every layer's errors fall into (which decide exit
//!   codes, HTTP statuses and Python exceptions), and [`FileError`], this crate's errors.
//!
//! It knows no game and no result type, so every layer above may use it.
#![deny(missing_docs)]

pub mod error;
pub mod fields;
pub mod format;
pub mod input;
pub mod output;
pub mod values;

pub use error::{ErrorKind, FileError};
pub use fields::{Field, Words};
