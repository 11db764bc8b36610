//! Fuzzes the arena's pieces reader: `tetris_arena_fuzz::pieces`.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tetris_arena_fuzz::pieces(data));
