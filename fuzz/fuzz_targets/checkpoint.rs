//! Fuzzes the arena's checkpoint reader: `tetris_arena::fuzzing::checkpoint`.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tetris_arena::fuzzing::checkpoint(data));
