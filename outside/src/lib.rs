//! Engines from outside the arena: bot programs that speak the arena's protocol.
//!
//! A strategy named `SEARCHER+exec[,limit=MS]:PROGRAM ARGUMENTS…` is a program the arena
//! starts and asks for each placement over JSON Lines ([`protocol`]; docs/writing-a-bot.md).
//! The arena never trusts it: every answer must name one of the legal placements the game's
//! searcher lists, within the time limit, in a well-formed line of bounded length; anything
//! else is a [`Fault`] that ends the game with its reason recorded, and the next game starts
//! the program anew. [`program`] says how a program cannot hang the arena or outlive it.
//!
//! A strategy named `SEARCHER+http:URL STRATEGY` asks a server of the arena's own API
//! ([`HttpEngine`]) under the same rules. Both are [`Decider`]s, as is an engine a front end
//! builds (a Python function); [`OutsideSpec`] is the names' grammar.
//!
//! This crate knows no engine of the arena: the registry wraps a [`Decider`] as a strategy.

#![deny(missing_docs)]

mod bot;
mod decider;
mod fault;
mod http;
pub mod inputs;
pub mod program;
pub mod protocol;
mod spec;
pub mod stackrabbit;

pub use bot::{DEFAULT_LIMIT, ExecBot, ExecSpec, HANDSHAKE_LIMIT, MAX_PREVIEW};
pub use decider::{Answer, Decider};
pub use fault::{Fault, FaultKind};
pub use http::{HttpEngine, MAX_ANSWER};
pub use spec::{
    AnswerPlay, GIVEN_PREFIX, HttpSpec, MAX_LIMIT_MS, OUTSIDE_ENGINES, OutsideSpec,
    StackRabbitSpec, register_given,
};
