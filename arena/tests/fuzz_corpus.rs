//! The committed fuzz corpus (`fuzz/corpus/TARGET/`: the minimized inputs of the cargo-fuzz
//! runs and every input that once crashed a parser) through the same entry points the fuzz
//! targets call (`fuzz/src/lib.rs`, included here as a module), on stable Rust: no input may panic. The fuzzers
//! themselves need nightly Rust and run by hand (docs/testing.md, "Fuzzing").

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;

use fuzzing::TARGETS;

/// The fuzz targets' entry points, compiled into this test from the fuzz crate's source.
#[path = "../../fuzz/src/lib.rs"]
#[allow(dead_code)]
mod fuzzing;

#[test]
fn every_committed_fuzz_input_is_handled_without_a_panic() {
    let corpus = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fuzz/corpus");
    let mut panicked = Vec::new();
    for (target, parse) in TARGETS {
        let folder = corpus.join(target);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&folder)
            .unwrap_or_else(|error| panic!("{}: {error}", folder.display()))
            .map(|entry| entry.unwrap().path())
            .collect();
        files.sort();
        // A target without inputs would make this test pass without testing anything.
        assert!(files.len() >= 5, "{target}: only {} inputs", files.len());
        for file in files {
            let data = std::fs::read(&file).unwrap();
            if catch_unwind(AssertUnwindSafe(|| parse(&data))).is_err() {
                panicked.push(file.display().to_string());
            }
        }
    }
    assert!(panicked.is_empty(), "inputs that panic: {panicked:#?}");
}
