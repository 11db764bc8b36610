//! Every output of the arena: the stdout printer, atomic files and the output-path check
//! ([`output`]), the typed JSON reports, CSV and text of each command, SVG plots and the
//! terminal view.

pub mod features;
pub mod game;
pub mod html;
pub mod nes;
pub mod output;
pub mod parts;
pub mod plots;
pub mod position;
pub mod stats;
pub mod terminal;
pub mod tournament;
pub mod watch;
