//! `tetris-registry`: every searcher and evaluator by name, the strategy-name grammar, and the
//! playable [`Strategy`] they make.
//!
//! This is the one place that sees every engine crate. The arena, the cross-crate tests and
//! any other front end iterate [`searchers`] and [`evaluators`] instead of naming engines
//! themselves, so registering an engine (one line in `engines.rs`) is all it takes for every
//! command, snapshot test and weights-file test to cover it.
//!
//! Strategy names are `SEARCHER+EVALUATOR[:PRESET|:weights.json][,OPTION…][@DEPTH]`
//! ([`StrategySpec`], options [`StrategyOptions`]); an evaluator alone is `EVALUATOR[:PRESET|:weights.json]`
//! ([`EvaluatorSpec`]). Both parse the weights part with the same rule.
//!
//! # Quick start
//!
//! These examples continue `tetris-core`'s (a board, a drop and a line clear). Boards are
//! written as rows of `#` (occupied) and `.` (empty), top row first, and row `y` counts from
//! the top, so row 19 is the floor row of the standard 10 × 20 board.
//!
//! ## A search: every placement a piece can reach
//!
//! [`searcher_by_name`] builds a registered searcher ([`searcher_names`] lists them); it
//! implements `tetris_core::Searcher`, which fills a reusable `Placements` buffer with every
//! lock placement of a piece. On the empty board the breadth-first search finds each
//! orientation in every column where it fits: T, J and L have four orientations, 3, 2, 3 and
//! 2 cells wide (8 + 9 + 8 + 9 = 34 placements); Z and S two (8 + 9 = 17); I a flat one 4
//! wide and an upright one (7 + 10 = 17); O one 2 wide (9).
//!
//! ```
//! use tetris_core::{Board, Piece, Placements, SearchOptions, Searcher};
//! use tetris_registry::searcher_by_name;
//!
//! let mut bfs = searcher_by_name("bfs").expect("bfs is registered");
//! let mut placements = Placements::new(); // cleared and refilled by every search
//! let empty = Board::standard();
//! for (piece, count) in [
//!     (Piece::T, 34),
//!     (Piece::J, 34),
//!     (Piece::Z, 17),
//!     (Piece::O, 9),
//!     (Piece::S, 17),
//!     (Piece::L, 34),
//!     (Piece::I, 17),
//! ] {
//!     bfs.search(&empty, piece, SearchOptions::default(), &mut placements);
//!     assert_eq!(placements.len(), count, "{piece}");
//! }
//!
//! // Searchers differ once the stack has an overhang. Three cells on row 18 roof over the
//! // left end of the floor row: `column-drop` (rotate, shift, then drop straight down) lands
//! // a flat I there on the roof only, while the BFS also slides it along the floor row under
//! // the roof: three more placements, pivot columns 2, 3 and 4 on row 19.
//! let overhang = Board::from_bottom_rows(&["###.......", ".........."], 20)?;
//! bfs.search(&overhang, Piece::I, SearchOptions::default(), &mut placements);
//! assert_eq!(placements.len(), 20);
//! let mut column_drop = searcher_by_name("column-drop").expect("column-drop is registered");
//! let mut dropped = Placements::new();
//! column_drop.search(&overhang, Piece::I, SearchOptions::default(), &mut dropped);
//! assert_eq!(dropped.len(), 17);
//! let mut only_bfs: Vec<(u8, i8, i8)> = placements
//!     .iter()
//!     .filter(|placement| !dropped.as_slice().contains(placement))
//!     .map(|placement| (placement.rotation, placement.x, placement.y))
//!     .collect();
//! only_bfs.sort();
//! assert_eq!(only_bfs, [(0, 2, 19), (0, 3, 19), (0, 4, 19)]);
//! # Ok::<(), tetris_registry::RegistryError>(())
//! ```
//!
//! ## A strategy by name
//!
//! A [`Strategy`] is a searcher, an evaluator and a lookahead depth, built from its name by
//! [`Strategy::from_name`]. `bfs+elashi@2` is the BFS with the `elashi` evaluator's default
//! weights, looking at the current piece and the preview (depth 2). Its name prints in the
//! canonical form: depth 1 left out, options in a fixed order.
//!
//! ```
//! use tetris_registry::{Strategy, WeightsChoice};
//!
//! let strategy = Strategy::from_name("bfs+elashi@2")?;
//! assert_eq!(strategy.name(), "bfs+elashi@2");
//! assert_eq!(strategy.depth(), 2);
//! assert_eq!(strategy.spec().searcher, "bfs");
//! assert_eq!(strategy.spec().evaluator, "elashi");
//! assert_eq!(strategy.spec().weights, WeightsChoice::Default);
//!
//! assert_eq!(Strategy::from_name("bfs+elashi@1")?.name(), "bfs+elashi");
//! assert_eq!(
//!     Strategy::from_name("bfs+elashi,expectimax,no-suicide@2")?.name(),
//!     "bfs+elashi,no-suicide,expectimax@2"
//! );
//!
//! // A name that does not parse, or names no registered engine, is an error saying why.
//! let Err(error) = Strategy::from_name("bfs+nope") else {
//!     panic!("there is no evaluator called nope");
//! };
//! assert!(
//!     error
//!         .to_string()
//!         .starts_with(r#"strategy "bfs+nope": unknown evaluator "nope" (valid: "#),
//!     "{error}"
//! );
//! # Ok::<(), tetris_registry::RegistryError>(())
//! ```
//!
//! ## A decision: the placement a strategy plays
//!
//! [`Strategy::choose`] takes the board and the known pieces, current piece first, and
//! returns the first placement of the best chain (for a game without frames; a game with a
//! level's speed or another game-over rule passes a `tetris_core::DecisionContext` to
//! [`Strategy::choose_in`]). Here the three bottom rows are full but for column 9, the
//! current piece is an I and the preview an O: the strategy stands the I upright in the gap,
//! which completes the three rows.
//!
//! ```
//! use tetris_core::{Board, Piece};
//! use tetris_registry::Strategy;
//!
//! let board = Board::from_bottom_rows(&["#########."; 3], 20)?;
//! let mut strategy = Strategy::from_name("bfs+elashi@2")?;
//! let choice = strategy
//!     .choose(&board, &[Piece::I, Piece::O])
//!     .expect("the I can spawn");
//! let placement = choice.placement;
//! assert_eq!((placement.piece, placement.x, placement.rotation), (Piece::I, 9, 1));
//! assert_eq!(placement.cells, [(9, 16), (9, 17), (9, 18), (9, 19)]);
//!
//! // Playing it clears rows 17 to 19; the I's top cell, on row 16, falls to the floor.
//! let mut after = board;
//! let outcome = after.lock(placement.piece, placement.state());
//! assert_eq!(outcome.rows_cleared, 3);
//! assert_eq!(outcome.cleared_rows, 0b111 << 17);
//! assert_eq!(after.to_rows()[19], ".........#");
//! assert_eq!(after.occupied_count(), 1);
//! # Ok::<(), tetris_registry::RegistryError>(())
//! ```
#![deny(missing_docs)]

pub mod engines;
pub mod error;
pub mod reaction_plan;
pub mod strategy;
pub mod weights;

pub use engines::{
    AnyEvaluator, AnySearcher, EvaluatorEntry, SearcherEntry, evaluator_by_name,
    evaluator_from_weights_json, evaluator_names, evaluator_presets, evaluator_with_values,
    evaluator_with_weights, evaluators, searcher_by_name, searcher_names, searchers,
};
pub use error::RegistryError;
pub use reaction_plan::{PlannedValues, ReactionPlanner};

/// The tap rates (frames between two presses of one thumb) the registered gravity-aware
/// searcher simulates: the gamepad search's range (`tetris_search_bfs::Gamepad::TAP_RATES`),
/// so that front ends can check a tap rate without naming an engine crate.
pub const TAP_RATES: std::ops::RangeInclusive<u8> = tetris_search_bfs::Gamepad::TAP_RATES;

/// Checks a tap rate given to a gravity-aware searcher (`--tap-rate`, a replay's
/// `frame_timing`): it must be in [`TAP_RATES`]. The message (`T is outside …`) names the
/// value and the range; the caller puts what the value is in front.
/// The one rule every front end applies, so that nothing a command rejects passes elsewhere.
pub fn check_tap_rate(tap_rate: u64) -> Result<u8, String> {
    u8::try_from(tap_rate)
        .ok()
        .filter(|rate| TAP_RATES.contains(rate))
        .ok_or_else(|| {
            format!(
                "{tap_rate} is outside {}..={} (frames between two presses of one thumb)",
                TAP_RATES.start(),
                TAP_RATES.end()
            )
        })
}

/// Checks a whole frame timing: its frames per row, which must be the gravity of some level
/// (`--level` sets them from a level, so no other value can be asked for: 48 at level 0 down
/// to 1 from level 29). Its timeline needs no check ([`tetris_core::Timeline`] holds only
/// timelines the search models: every gap in [`TAP_RATES`]), nor its input model (both models
/// are defined at every such timeline and gravity, and a name that is no model is rejected
/// when it is parsed).
pub fn check_frame_timing(timing: tetris_core::FrameTiming) -> Result<(), String> {
    let is_a_levels = (0..=u8::MAX).any(|level| {
        tetris_core::scoring::frames_per_row(level) == u32::from(timing.frames_per_row)
    });
    if !is_a_levels {
        return Err(format!(
            "{} frames per row is no level's gravity (48 at level 0 down to 1 from level 29)",
            timing.frames_per_row
        ));
    }
    Ok(())
}
pub use strategy::{
    EvaluatorSpec, GameTally, MAX_DEPTH, OUTSIDE_EVALUATOR, STRATEGY_OPTIONS, Strategy,
    StrategyOptions, StrategySpec,
};
/// The outside engines' protocol and faults, for the game loops that play them.
pub use tetris_outside::{
    Answer, Decider, ExecSpec, Fault, FaultKind, GIVEN_PREFIX, HttpSpec, OUTSIDE_ENGINES,
    OutsideSpec, inputs, protocol, register_given, stackrabbit,
};
pub use weights::{TUNED, WeightsChoice};
