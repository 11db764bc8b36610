//! Fuzzes the arena's checkpoint reader: `tetris_arena_fuzz::checkpoint`.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tetris_arena_fuzz::checkpoint(data));
