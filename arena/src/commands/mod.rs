//! One module per subcommand: its clap `Args` and its `run`, which parses, validates, calls
//! the library and prints.

pub mod analyze;
pub mod features;
pub mod list;
pub mod merge;
pub mod nes;
pub mod play;
pub mod replay;
pub mod sequence;
pub mod stats;
pub mod tournament;
pub mod tune;
pub mod tune_task;
