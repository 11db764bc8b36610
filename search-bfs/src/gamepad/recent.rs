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
//! search takes the slot over. Its memory is bounded ([`RecentSearches::SLOTS`] slots, each
//! with one search's placements), and a lookup or a store is a hash, one key comparison and
//! one copy. Natively only: the browser's page has no room to spare, and decides the same.

use tetris_core::{Board, FrameTiming, Piece, Placement};

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

/// One slot: the key of the search it holds, if any, and that search's placements.
#[derive(Debug, Default)]
struct Slot {
    key: Option<RecentKey>,
    placements: Vec<Placement>,
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

    /// Whether searches are kept at all: natively only (module documentation).
    pub(super) const ENABLED: bool = !cfg!(target_arch = "wasm32");

    /// The slot of `key`, for [`RecentSearches::get`] and [`RecentSearches::put`].
    #[inline]
    pub(super) fn slot_of(key: &RecentKey) -> usize {
        key.slot(Self::SLOTS)
    }

    /// The placements of the kept search with this key (in slot `slot`), in the order it
    /// gave them.
    #[inline]
    pub(super) fn get(&self, slot: usize, key: &RecentKey) -> Option<&[Placement]> {
        let slot = self.slots.get(slot)?;
        (slot.key.as_ref() == Some(key)).then_some(&slot.placements[..])
    }

    /// Keeps the placements of the search with this key (in slot `slot`), in place of that
    /// slot's.
    #[inline]
    pub(super) fn put(&mut self, slot: usize, key: RecentKey, placements: &[Placement]) {
        if self.slots.is_empty() {
            self.slots.resize_with(Self::SLOTS, Slot::default);
        }
        let slot = &mut self.slots[slot];
        slot.key = Some(key);
        slot.placements.clear();
        slot.placements.extend_from_slice(placements);
    }
}
