//! `arena sequence`: the first N pieces of a generator, as letters on one line.

use tetris_core::GeneratorKind;

use crate::error::ArenaError;
use crate::report::output::print_output;
use crate::request::sequence::SequenceRequest;
use crate::request::values::{self, SequenceLength};

/// Options of `arena sequence`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Generator: uniform, nes, bag7, sz, java or file:PATH.
    #[arg(long, default_value = "uniform", value_parser = values::generator)]
    pub generator: GeneratorKind,
    /// Seed (ignored by file:PATH).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// How many pieces to print (at least 1).
    #[arg(long)]
    pub count: SequenceLength,
}

/// Runs `arena sequence`: prints `count` letters and a newline.
pub fn run(args: Args) -> Result<(), ArenaError> {
    let letters = SequenceRequest {
        generator: args.generator,
        seed: args.seed,
        count: args.count,
    }
    .letters()?;
    print_output(&format!("{letters}\n"))
}
