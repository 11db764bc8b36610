//! Fuzzes the move server's JSON bodies: `tetris_arena::fuzzing::serve_body`.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tetris_arena::fuzzing::serve_body(data));
