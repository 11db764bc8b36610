//! `arena sequence`: the first N pieces of a generator, as letters on one line.

use crate::commands::options::{SeedOption, generator_help};
use tetris_core::GeneratorKind;

use tetris_arena_io::values::{self, SequenceLength};
use tetris_arena_jobs::sequence::{SequenceRequest, WriteLettersError};
use tetris_arena_requests::error::ArenaError;

/// Options of `arena sequence`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The piece generator ([`generator_help`]).
    #[arg(long, default_value = "uniform", value_parser = values::generator,
          help = generator_help(""))]
    pub generator: GeneratorKind,
    /// The seed.
    #[command(flatten)]
    pub seed: SeedOption,
    /// How many pieces to print (at least 1).
    #[arg(long)]
    pub count: SequenceLength,
}

/// Runs `arena sequence`: prints `count` letters and a newline, streamed in chunks (memory
/// stays bounded for any count). A reader that stops early (`| head -c 10`) ends the command
/// quietly, as every command's output does; any other write error is an error.
pub fn run(args: Args) -> Result<(), ArenaError> {
    let request = SequenceRequest {
        generator: args.generator,
        seed: args.seed.seed,
        count: args.count,
    };
    let mut stdout = std::io::stdout().lock();
    match request.write_letters(&mut stdout) {
        Ok(_) => Ok(()),
        Err(WriteLettersError::Request(error)) => Err(error.into()),
        Err(WriteLettersError::Write(error)) if error.kind() == std::io::ErrorKind::BrokenPipe => {
            Ok(())
        }
        Err(WriteLettersError::Write(error)) => Err(ArenaError::io("standard output", &error)),
    }
}
