//! Fuzzes the arena's strategy reader: `tetris_arena_fuzz::strategy`.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tetris_arena_fuzz::strategy(data));
