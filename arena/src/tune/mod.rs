//! Weight tuning: the optimisers ([`methods`]) and the tuner's run with its checkpoint
//! ([`checkpoint`]).

pub mod checkpoint;
pub mod methods;
