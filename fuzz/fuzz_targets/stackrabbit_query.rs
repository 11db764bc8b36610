//! Fuzzes the move server's StackRabbit requests: `tetris_arena::fuzzing::stackrabbit_query`.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tetris_arena::fuzzing::stackrabbit_query(data));
