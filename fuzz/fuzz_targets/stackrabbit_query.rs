//! Fuzzes the move server's StackRabbit requests: `tetris_arena_fuzz::stackrabbit_query`.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tetris_arena_fuzz::stackrabbit_query(data));
