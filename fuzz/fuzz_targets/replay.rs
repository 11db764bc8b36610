//! Fuzzes the arena's replay reader: `tetris_arena_fuzz::replay`.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tetris_arena_fuzz::replay(data));
