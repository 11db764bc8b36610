//! The request for a generator's first pieces (`arena sequence`, the Python package's
//! `sequence`).

use std::io::Write;

use tetris_core::GeneratorKind;

use crate::error::JobError;
use tetris_arena_io::values::SequenceLength;

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
#[error("{field} {count}: {generator} holds only {found} pieces", field = tetris_arena_io::Field::COUNT)]
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
    pub fn letters(&self) -> Result<String, JobError> {
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

/// The bytes [`SequenceRequest::write_letters`] writes at a time: memory stays bounded however
/// many pieces are asked for.
pub const SEQUENCE_CHUNK: usize = 64 * 1024;

impl SequenceRequest {
    /// Writes the letters of the pieces and a newline to `out`, [`SEQUENCE_CHUNK`] bytes at a
    /// time, so `--count 2000000000` needs no more memory than `--count 10`. The output is
    /// exactly [`SequenceRequest::letters`] and a newline. A piece file is counted before
    /// anything is written (it is in memory already, within its size limit), so one holding
    /// fewer pieces than asked writes nothing and is the same [`TooFewPieces`] error.
    /// Returns the number of chunks written (for the tests).
    pub fn write_letters(&self, out: &mut impl Write) -> Result<usize, WriteLettersError> {
        let count = self.count.get();
        let wanted = usize::try_from(count).unwrap_or(usize::MAX);
        if matches!(self.generator, GeneratorKind::File(_)) {
            let found = self.generator.start(self.seed)?.take(wanted).count() as u64;
            if found < count {
                return Err(JobError::from(TooFewPieces {
                    count,
                    generator: self.generator.clone(),
                    found,
                })
                .into());
            }
        }
        let mut pieces = self.generator.start(self.seed)?.take(wanted);
        let mut chunk: Vec<u8> = Vec::with_capacity(SEQUENCE_CHUNK);
        let mut chunks = 0;
        loop {
            chunk.clear();
            chunk.extend(
                pieces
                    .by_ref()
                    .take(SEQUENCE_CHUNK)
                    .map(|piece| piece.letter() as u8),
            );
            let last = chunk.len() < SEQUENCE_CHUNK;
            if last {
                chunk.push(b'\n');
            }
            out.write_all(&chunk).map_err(WriteLettersError::Write)?;
            chunks += 1;
            if last {
                break;
            }
        }
        out.flush().map_err(WriteLettersError::Write)?;
        Ok(chunks)
    }
}

/// Why [`SequenceRequest::write_letters`] stopped: a bad request, or the writer failed.
#[derive(Debug)]
pub enum WriteLettersError {
    /// The request's error (an unreadable piece file, too few pieces).
    Request(JobError),
    /// The writer's error (e.g. a closed pipe, a full disk).
    Write(std::io::Error),
}

impl From<JobError> for WriteLettersError {
    fn from(error: JobError) -> Self {
        WriteLettersError::Request(error)
    }
}

impl From<tetris_core::Error> for WriteLettersError {
    fn from(error: tetris_core::Error) -> Self {
        WriteLettersError::Request(error.into())
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
            request(kind.clone(), 5).letters().unwrap_err().to_string(),
            format!("--count 5: file:{} holds only 3 pieces", path.display())
        );
        assert_eq!(
            request(GeneratorKind::Java, 10).letters().unwrap(),
            "SSJTIITJOI"
        );
        let mut written = Vec::new();
        let short = request(kind, 5).write_letters(&mut written).unwrap_err();
        assert!(
            matches!(&short, WriteLettersError::Request(error) if error.to_string()
                == format!("--count 5: file:{} holds only 3 pieces", path.display())),
            "{short:?}"
        );
        assert!(written.is_empty(), "nothing is written before the check");
        std::fs::remove_dir_all(&folder).unwrap();
    }

    #[test]
    fn a_large_count_is_written_in_chunks_and_equals_the_letters() {
        for generator in [
            GeneratorKind::Nes,
            GeneratorKind::Uniform,
            GeneratorKind::Bag7,
        ] {
            for count in [1, SEQUENCE_CHUNK as u64, 1_000_000] {
                let request = request(generator.clone(), count);
                let mut written = Vec::new();
                let chunks = request.write_letters(&mut written).unwrap();
                assert_eq!(chunks, count as usize / SEQUENCE_CHUNK + 1);
                let expected = format!("{}\n", request.letters().unwrap());
                assert_eq!(written.len(), count as usize + 1);
                assert!(written == expected.as_bytes(), "{generator} {count}");
            }
        }
    }

    /// A writer that keeps only the size of its largest write: the chunks stay small.
    struct LargestWrite(usize, u64);

    impl Write for LargestWrite {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0 = self.0.max(bytes.len());
            self.1 += bytes.len() as u64;
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn no_write_is_larger_than_a_chunk() {
        let mut out = LargestWrite(0, 0);
        request(GeneratorKind::Uniform, 3_000_000)
            .write_letters(&mut out)
            .unwrap();
        assert!(out.0 <= SEQUENCE_CHUNK + 1, "largest write {}", out.0);
        assert_eq!(out.1, 3_000_001);
    }
}
