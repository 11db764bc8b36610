//! `arena serve`, the HTTP move server of issue 27: the engines as a live move advisor.
//!
//! [`stackrabbit`] holds the contract of the StackRabbit-compatible endpoints as pure code
//! (parsing its query strings, mapping our placements to its conventions, formatting its
//! answers), so that the HTTP handlers stay thin and the contract is tested without a server.

pub mod stackrabbit;
