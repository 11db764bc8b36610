//! Fuzzes the arena's board reader: `tetris_arena_fuzz::board`.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tetris_arena_fuzz::board(data));
