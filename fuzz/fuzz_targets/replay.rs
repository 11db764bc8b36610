//! Fuzzes the arena's replay reader: `tetris_arena::fuzzing::replay`.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tetris_arena::fuzzing::replay(data));
