//! Fuzzes the arena's weights reader: `tetris_arena_fuzz::weights`.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tetris_arena_fuzz::weights(data));
