//! Engines from outside the arena: bot programs that speak the arena's protocol.
//!
//! A strategy named `SEARCHER+exec[,limit=MS]:PROGRAM ARGUMENTS…` is a program the arena
//! starts and asks for each placement over JSON Lines ([`protocol`]; docs/writing-a-bot.md).
//! The arena never trusts it: every answer must name one of the legal placements the game's
//! searcher lists, within the time limit, in a well-formed line of bounded length; anything
//! else is a [`Fault`] that ends the game with its reason recorded, and the next game starts
//! the program anew. [`program`] says how a program cannot hang the arena or outlive it.
//!
//! This crate knows no engine of the arena: the registry wraps an [`ExecBot`] as a strategy.

#![deny(missing_docs)]

mod bot;
mod fault;
pub mod program;
pub mod protocol;

pub use bot::{DEFAULT_LIMIT, ExecBot, ExecSpec, HANDSHAKE_LIMIT, MAX_PREVIEW};
pub use fault::{Fault, FaultKind};
