//! The reports of the arena: the typed JSON reports, CSV and text of each command, SVG plots,
//! the terminal view and the self-contained HTML pages.
//!
//! What they are written with (the stdout printer, atomic files, the output-path checks) is
//! [`crate::output`], a lower layer (the runner writes part files and reports Ctrl-C with it);
//! `report::output` names it still, for the code written against that path. The parts of
//! sharded runs and their merge are [`crate::run::shard`]'s; [`parts`] keeps their old path.

pub mod features;
pub mod game;
pub mod html;
pub mod list;
pub mod nes;
pub mod nes_trace;
pub mod parts;
pub mod plots;
pub mod position;
pub mod stats;
pub mod terminal;
pub mod tournament;
pub mod watch;

pub use crate::output;
