//! Fuzzes the arena's pieces reader: `tetris_arena::fuzzing::pieces`.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tetris_arena::fuzzing::pieces(data));
