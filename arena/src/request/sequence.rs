//! The request for a generator's first pieces (`arena sequence`, the Python package's
//! `sequence`).

use tetris_core::GeneratorKind;

use crate::error::ArenaError;
use crate::request::values::SequenceLength;

/// The first `count` pieces of a generator started with a seed.
#[derive(Clone, Debug)]
pub struct SequenceRequest {
    /// The generator.
    pub generator: GeneratorKind,
    /// Its seed (ignored by `file:PATH`).
    pub seed: u64,
    /// How many pieces.
    pub count: SequenceLength,
}

/// A piece file that holds fewer pieces than asked for.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("--count {count}: {generator} holds only {found} pieces")]
pub struct TooFewPieces {
    /// The count asked for.
    pub count: u64,
    /// The generator.
    pub generator: GeneratorKind,
    /// The pieces it holds.
    pub found: u64,
}

impl SequenceRequest {
    /// The letters of the pieces; a piece file holding fewer pieces is an error (printing
    /// fewer than asked would pass unnoticed in a script).
    pub fn letters(&self) -> Result<String, ArenaError> {
        let count = self.count.get();
        let letters: String = self
            .generator
            .start(self.seed)?
            .take(usize::try_from(count).unwrap_or(usize::MAX))
            .map(|piece| piece.letter())
            .collect();
        if (letters.len() as u64) < count {
            return Err(TooFewPieces {
                count,
                generator: self.generator.clone(),
                found: letters.len() as u64,
            }
            .into());
        }
        Ok(letters)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(generator: GeneratorKind, count: u64) -> SequenceRequest {
        SequenceRequest {
            generator,
            seed: 1,
            count: SequenceLength::try_from(count).unwrap(),
        }
    }

    #[test]
    fn a_piece_file_shorter_than_the_count_is_an_error() {
        let folder = std::env::temp_dir().join(format!("arena-sequence-{}", std::process::id()));
        std::fs::create_dir_all(&folder).unwrap();
        let path = folder.join("three.txt");
        std::fs::write(&path, "T J\nZ\n").unwrap();
        let kind = GeneratorKind::File(path.display().to_string());
        assert_eq!(request(kind.clone(), 3).letters().unwrap(), "TJZ");
        assert_eq!(
            request(kind, 5).letters().unwrap_err().to_string(),
            format!("--count 5: file:{} holds only 3 pieces", path.display())
        );
        assert_eq!(
            request(GeneratorKind::Java, 10).letters().unwrap(),
            "SSJTIITJOI"
        );
        std::fs::remove_dir_all(&folder).unwrap();
    }
}
