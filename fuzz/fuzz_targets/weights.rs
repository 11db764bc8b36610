//! Fuzzes the arena's weights reader: `tetris_arena::fuzzing::weights`.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tetris_arena::fuzzing::weights(data));
