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

/// Runs `arena sequence`: prints `count` letters and a newline.
pub fn run(args: Args) -> Result<(), ArenaError> {
    let kind: GeneratorKind = args.generator.parse()?;
    let letters = first_letters(&kind, args.seed, args.count)?;
    print_output(&format!("{letters}\n"))
}

/// The letters of the first `count` pieces (at least 1) of generator `kind` started with
/// `seed`; a piece file holding fewer pieces is an error (printing fewer than asked would
/// pass unnoticed in a script).
pub fn first_letters(kind: &GeneratorKind, seed: u64, count: u64) -> Result<String, ArenaError> {
    if count == 0 {
        return Err(ArenaError::Usage("--count must be at least 1".into()));
    }
    let letters: String = kind
        .start(seed)?
        .take(usize::try_from(count).unwrap_or(usize::MAX))
        .map(|piece| piece.letter())
        .collect();
    if (letters.len() as u64) < count {
        return Err(ArenaError::Usage(format!(
            "--count {count}: {kind} holds only {} pieces",
            letters.len()
        )));
    }
    Ok(letters)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_piece_file_shorter_than_the_count_is_an_error() {
        let folder = std::env::temp_dir().join(format!("arena-sequence-{}", std::process::id()));
        std::fs::create_dir_all(&folder).unwrap();
        let path = folder.join("three.txt");
        std::fs::write(&path, "T J\nZ\n").unwrap();
        let kind = GeneratorKind::File(path.display().to_string());
        assert_eq!(first_letters(&kind, 0, 3).unwrap(), "TJZ");
        assert_eq!(
            first_letters(&kind, 0, 5).unwrap_err().to_string(),
            format!("--count 5: file:{} holds only 3 pieces", path.display())
        );
        assert_eq!(
            first_letters(&GeneratorKind::Java, 1, 10).unwrap(),
            "SSJTIITJOI"
        );
        std::fs::remove_dir_all(&folder).unwrap();
    }
}
