//! One module per subcommand: its clap `Args` and its `run`, which builds the job's request
//! from the options (parsed by clap into the request layer's typed values), calls the
//! request's check, runs and prints; [`options`] holds the option groups several commands
//! share.

pub mod analyze;
pub mod features;
pub mod list;
pub mod merge;
pub mod nes;
pub mod options;
pub mod play;
pub mod replay;
pub mod sequence;

pub mod serve;
pub mod stats;
pub mod tournament;
pub mod tune;
pub mod tune_task;
pub mod web;
