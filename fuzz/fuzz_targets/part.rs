//! Fuzzes the arena's part reader and the merge's checks: `tetris_arena_fuzz::part`.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tetris_arena_fuzz::part(data));
