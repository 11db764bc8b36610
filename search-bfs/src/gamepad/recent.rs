//! The placements of recent unordered searches from the spawn, kept by board and piece.
//!
//! A player with a reaction time searches the same boards again one decision later: the
//! re-plan's chosen finalist searched the 7 unknown pieces on every board its preview's
//! placements leave, and the next plan, whose current piece is that preview, searches the
//! same 7 pieces on the same boards (one per placement of it) to value each with each
//! preview. The unordered search is a function of its board, piece, timing and game-over
//! rule (from the spawn, no frames played, no entry delay, no paths), so its placements can
//! be kept and given again, in the same order: nothing but the time changes.
//!
//! The table is direct-mapped: a search's slot is a hash of its board and piece, and a new
//! search takes the slot over. It is one allocation, made by the first search kept
//! ([`RecentSearches::SLOTS`] slots of at most [`RecentSearches::MOST_PLACEMENTS`] placements,
//! each kept as its state, 3 bytes: about 900 KB), so a warmed-up searcher allocates nothing;
//! a search with more placements is not kept. A lookup or a store is a hash, one key
//! comparison and one copy. Natively only: the browser's page has no room to spare, and
//! decides the same.

use tetris_core::{Board, FrameTiming, Piece, PieceState, Placement, Placements};

/// What an unordered search from the spawn depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct RecentKey {
    /// The board searched.
    pub(super) board: Board,
    /// The piece.
    pub(super) piece: Piece,
    /// The frame timing.
    pub(super) timing: FrameTiming,
    /// Whether the game-over rule lets the spawn overlap the stack.
    pub(super) spawn_may_overlap: bool,
}

impl RecentKey {
    /// The key's slot among `slots` (a power of two): the board's columns and hidden cells,
    /// the piece, the frames per row and the two flags, mixed by multiplication. (A game
    /// keeps one timeline and rule; the flags and the rows' timing tell a test's apart.)
    fn slot(&self, slots: usize) -> usize {
        const MIX: u64 = 0x9E37_79B9_7F4A_7C15;
        let flags =
            u64::from(self.board.keeps_hidden_rows()) << 1 | u64::from(self.spawn_may_overlap);
        let mut hash = (u64::from(self.board.hidden_rows()) << 16)
            ^ (u64::from(self.timing.frames_per_row) << 8)
            ^ (flags << 4)
            ^ self.piece.index() as u64;
        for &column in self.board.columns() {
            hash = (hash ^ u64::from(column)).wrapping_mul(MIX);
        }
        (hash >> 32) as usize & (slots - 1)
    }
}

/// One slot: the key of the search it holds, if any, and that search's placements' states.
#[derive(Clone, Copy, Debug)]
struct Slot {
    key: Option<RecentKey>,
    count: u8,
    states: [PieceState; RecentSearches::MOST_PLACEMENTS],
}

impl Slot {
    /// A slot that holds no search.
    const EMPTY: Slot = Slot {
        key: None,
        count: 0,
        states: [PieceState {
            x: 0,
            y: 0,
            rotation: 0,
        }; RecentSearches::MOST_PLACEMENTS],
    };
}

/// Recent unordered searches' placements (module documentation).
#[derive(Debug, Default)]
pub(super) struct RecentSearches {
    /// [`RecentSearches::SLOTS`] slots once the first search is kept; empty before.
    slots: Vec<Slot>,
}

impl Clone for RecentSearches {
    /// A fresh table: a clone starts with nothing kept, as a fresh searcher does.
    fn clone(&self) -> RecentSearches {
        RecentSearches::default()
    }
}

impl RecentSearches {
    /// The slots: enough to keep a decision's searches and the next plan's with few taken
    /// over (a re-plan of setting (c) makes about 900 unordered searches), and few enough to
    /// stay small (about 700 KB with their placements).
    const SLOTS: usize = 4096;

    /// The most placements of a search kept: in the whole games of settings (b) and (c)
    /// (seed 2) a search gives at most 50, and more than 48 in 13 and 2 of about 400,000
    /// searches, which are searched again each time.
    pub(super) const MOST_PLACEMENTS: usize = 48;

    /// Whether searches are kept at all: natively only (module documentation).
    pub(super) const ENABLED: bool = !cfg!(target_arch = "wasm32");

    /// The slot of `key`, for [`RecentSearches::get`] and [`RecentSearches::put`].
    #[inline]
    pub(super) fn slot_of(key: &RecentKey) -> usize {
        key.slot(Self::SLOTS)
    }

    /// Appends to `out` the placements of the kept search with this key (in slot `slot`),
    /// in the order it gave them; whether it was kept.
    #[inline]
    pub(super) fn give(&self, slot: usize, key: &RecentKey, out: &mut Placements) -> bool {
        let Some(slot) = self
            .slots
            .get(slot)
            .filter(|slot| slot.key.as_ref() == Some(key))
        else {
            return false;
        };
        let states = &slot.states[..usize::from(slot.count)];
        out.extend(states.iter().map(|&state| Placement::new(key.piece, state)));
        true
    }

    /// Keeps the placements of the search with this key (in slot `slot`), in place of that
    /// slot's; not when they are more than [`RecentSearches::MOST_PLACEMENTS`].
    #[inline]
    pub(super) fn put(&mut self, slot: usize, key: RecentKey, placements: &[Placement]) {
        if placements.len() > Self::MOST_PLACEMENTS {
            return;
        }
        if self.slots.is_empty() {
            self.slots = vec![Slot::EMPTY; Self::SLOTS];
        }
        let slot = &mut self.slots[slot];
        slot.key = Some(key);
        slot.count = placements.len() as u8;
        for (state, placement) in slot.states.iter_mut().zip(placements) {
            *state = placement.state();
        }
    }
}
