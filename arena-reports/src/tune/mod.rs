//! Weight tuning: the optimisers ([`methods`]), the tuner's run with its checkpoint
//! ([`checkpoint`]) and the same run with each iteration's tasks handed to an external runner
//! command ([`external`]).

pub mod checkpoint;
pub mod external;
pub mod methods;
