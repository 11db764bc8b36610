//! Fuzzes the move server's JSON bodies: `tetris_arena_fuzz::serve_body`.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tetris_arena_fuzz::serve_body(data));
