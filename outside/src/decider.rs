//! What every outside engine is to a game: something that is told a game begins, is asked
//! for placements and may fault, and is told how the game ended.

use tetris_core::{Buttons, Placement};

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

    /// The engine's choice among `placements` (the placements `suggest` lists), or its
    /// fault. After a fault, the engine starts afresh at the next game.
    fn suggest(&mut self, suggest: &Suggest, placements: &[Placement]) -> Result<Answer, Fault>;

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

/// An engine's answer to one `suggest`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The index of the chosen placement among those offered.
    pub index: usize,
    /// In an NES game, the frames the engine presses, one button set a frame from the piece's
    /// first input frame: the arena plays them through its frame model (checked against the
    /// player's input model and timeline), and they must lock the piece at the chosen
    /// placement. `None`: the arena plays the searcher's path to it.
    pub inputs: Option<Vec<Buttons>>,
}

impl Answer {
    /// The placement at `index`, reached by the searcher's path.
    pub fn placement(index: usize) -> Answer {
        Answer {
            index,
            inputs: None,
        }
    }
}
