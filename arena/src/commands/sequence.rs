//! `arena sequence`: the first N pieces of a generator, as letters on one line.

use tetris_core::GeneratorKind;

use crate::error::ArenaError;
use crate::report::output::print_output;

/// Options of `arena sequence`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Generator: uniform, nes, bag7, sz, java or file:PATH.
    #[arg(long, default_value = "uniform")]
    pub generator: String,
    /// Seed (ignored by file:PATH).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// How many pieces to print (at least 1).
    #[arg(long)]
    pub count: u64,
}

/// Runs `arena sequence`: prints `count` letters (fewer if a file runs out) and a newline.
pub fn run(args: Args) -> Result<(), ArenaError> {
    if args.count == 0 {
        return Err(ArenaError::Usage("--count must be at least 1".into()));
    }
    let kind: GeneratorKind = args.generator.parse()?;
    let letters: String = kind
        .start(args.seed)?
        .take(args.count as usize)
        .map(|piece| piece.letter())
        .collect();
    print_output(&format!("{letters}\n"))
}
