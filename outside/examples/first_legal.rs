//! The smallest bot in Rust: plays the first legal placement it is offered
//! (docs/writing-a-bot.md). It measures the protocol's own cost per decision (the pipe, the
//! arena's message and its checks) with as little bot work as there can be:
//!
//! ```sh
//! cargo build --release -p tetris-outside --example first_legal
//! arena tournament "column-drop+exec:target/release/examples/first_legal" --games 400 --board-height 32 --jobs 1
//! ```

use std::io::{BufRead, Write};

fn main() -> std::io::Result<()> {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        r#"{{"type":"info","protocol":1,"name":"first-legal.rs","version":"1"}}"#
    )?;
    out.flush()?;
    for line in stdin.lock().lines() {
        let message: serde_json::Value = serde_json::from_str(&line?)?;
        match message["type"].as_str() {
            Some("suggest") => {
                writeln!(out, r#"{{"type":"suggestion","index":0}}"#)?;
                out.flush()?;
            }
            Some("quit") => break,
            _ => {}
        }
    }
    Ok(())
}
