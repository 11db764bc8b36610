//! What every outside engine is to a game: something that is told a game begins, is asked
//! for placements and may fault, and is told how the game ended.

use tetris_core::Placement;

use crate::fault::Fault;
use crate::protocol::{Info, Start, Stop, Suggest};

/// An engine outside the arena that chooses placements: a bot program ([`crate::ExecBot`]),
/// a server ([`crate::HttpEngine`]), or one a front end provides (a Python function).
///
/// The arena never trusts it: [`Decider::suggest`] answers with an index into the legal
/// placements it was offered, and anything else is its [`Fault`], which ends the game.
pub trait Decider: Send + Sync {
    /// Who the engine is (a bot's handshake; a server's name and version).
    fn info(&self) -> &Info;

    /// A game begins.
    fn begin_game(&mut self, start: &Start);

    /// The index among `placements` (the placements `suggest` lists) of the engine's
    /// choice, or its fault. After a fault, the engine starts afresh at the next game.
    fn suggest(&mut self, suggest: &Suggest, placements: &[Placement]) -> Result<usize, Fault>;

    /// The game ended.
    fn end_game(&mut self, stop: &Stop);

    /// The engine for another worker: the same engine, started afresh where it has state (a
    /// bot program starts at its first game).
    fn fresh(&self) -> Box<dyn Decider>;

    /// The operating system's id of the engine's program, if one runs now.
    fn process_id(&self) -> Option<u32> {
        None
    }
}
