//! Fuzzes the check of an NES run's trace (`arena replay TRACE`):
//! `tetris_arena_fuzz::nes_trace`.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tetris_arena_fuzz::nes_trace(data));
