//! Game-over rules: when a game ends (docs/spec/rules.md, "Legality, locking, clearing, game over").
//!
//! Three rules exist in the field, and a result means little without its rule: the
//! literature's averages for the same strategy differ by a factor of about six between them
//! (docs/spec/search.md §2b). This module names them:
//!
//! - [`GameOverRule::Simulation`], the NES AI program's: the game is over when the next piece's
//!   spawn state is illegal. A piece that locks with cells above row 0 loses those cells and
//!   the game goes on.
//! - [`GameOverRule::Literature`], the one-piece game's (El-Tetris, Fahey, Thiery & Scherrer):
//!   the game is over when a placed piece lands with any cell above row 0, judged on the
//!   landed piece BEFORE any row is cleared (El-Tetris: landing row + piece height > 20), or
//!   when the piece has no placement at all.
//!
//! - [`GameOverRule::Console`], the NES console's (docs/spec/nes-facts.md §1.5 and §6): two hidden rows
//!   above the field keep the cells that lock there ([`Board::with_hidden_rows`]); the spawn
//!   is never checked, so a piece that spawns overlapping may still move out, and the game is
//!   over when a piece locks overlapping an occupied cell. A search never offers such a lock,
//!   so for a player the game is over when the piece has no placement. Only games with the NES
//!   frame model (`arena nes`) play it: a searcher must know that an overlapping spawn may
//!   move out, which only the gamepad search models.
//!
//! The rule travels with every decision ([`crate::DecisionContext::game_over_rule`]) because
//! the lookahead chain needs it twice: a chain that ends the game before its last known piece
//! is cut short there, and the no-suicide option skips exactly the placements that end the
//! game under the rule in force.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::board::Board;
use crate::piece::Piece;
use crate::placement::{PieceState, Placement};

/// When a game without frames is over (see the module documentation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameOverRule {
    /// The NES AI program's: over when the next piece cannot spawn (its spawn state is
    /// illegal). The default of spawn-based searchers.
    #[default]
    Simulation,
    /// The literature's: over when a placed piece lands with a cell above row 0 (judged before
    /// rows clear) or has no placement. The default of the `drop` searcher.
    Literature,
    /// The NES console's: two hidden rows above the field keep what locks there; over when a
    /// piece locks overlapping an occupied cell (a spawn that overlaps may still move out). The
    /// default of `arena nes` with a gravity-aware searcher.
    Console,
}

impl GameOverRule {
    /// Every rule, in the order listings show them.
    pub const ALL: [GameOverRule; 3] = [
        GameOverRule::Simulation,
        GameOverRule::Literature,
        GameOverRule::Console,
    ];

    /// The rule's name on the command line and in results: `simulation`, `literature`,
    /// `console`.
    pub const fn name(self) -> &'static str {
        match self {
            GameOverRule::Simulation => "simulation",
            GameOverRule::Literature => "literature",
            GameOverRule::Console => "console",
        }
    }

    /// Whether games under this rule need the NES frame model (only the console rule): the
    /// frame-less games (`play`, `tournament`, `stats`, `tune`) refuse it.
    pub const fn needs_frame_model(self) -> bool {
        matches!(self, GameOverRule::Console)
    }

    /// `self` if a game without frames can play it: the console rule needs the NES frame
    /// model (a piece that spawns overlapping may move out frame by frame), so it is refused.
    pub fn check_frameless(self) -> Result<GameOverRule, crate::Error> {
        match self {
            GameOverRule::Simulation | GameOverRule::Literature => Ok(self),
            GameOverRule::Console => Err(crate::Error::FramelessRule(self)),
        }
    }

    /// Whether a piece whose spawn state overlaps an occupied cell may still move out (only
    /// under the console rule): a search must then start from the overlapping spawn and
    /// offer only the legal locks it reaches.
    pub const fn spawn_may_overlap(self) -> bool {
        matches!(self, GameOverRule::Console)
    }

    /// One line saying when the game ends under this rule.
    pub const fn description(self) -> &'static str {
        match self {
            GameOverRule::Simulation => "the game ends when the next piece cannot spawn",
            GameOverRule::Literature => {
                "the game ends when a piece lands with a cell above row 0 (before rows clear)"
            }
            GameOverRule::Console => {
                "the NES console's: two hidden rows keep what locks above the field; the game \
                 ends when a piece locks overlapping a cell (arena nes only)"
            }
        }
    }

    /// Whether locking `placement` ends the game by itself, before any row clears: under the
    /// literature rule, when one of its cells lies above row 0; never under the simulation
    /// rule (there the NEXT piece decides, [`GameOverRule::blocks_next_piece`]) nor the
    /// console rule (a placement a search offers is a legal lock, which never ends the game).
    #[inline]
    pub fn placement_ends_game(self, placement: &Placement) -> bool {
        match self {
            GameOverRule::Simulation | GameOverRule::Console => false,
            // One cell's row is negative exactly when the OR of the four rows is (the sign
            // bit): no branch per cell (a lookahead chain asks this of every leaf).
            GameOverRule::Literature => {
                placement.cells.iter().fold(0, |rows, &(_, y)| rows | y) < 0
            }
        }
    }

    /// Whether [`GameOverRule::placement_ends_game`] holds for any of `placements`: under the
    /// literature rule, the OR of every cell's row is negative, one pass without a branch per
    /// placement (a lookahead chain asks this of every search under no-suicide).
    #[inline]
    pub fn any_placement_ends_game(self, placements: &[Placement]) -> bool {
        match self {
            GameOverRule::Simulation | GameOverRule::Console => false,
            GameOverRule::Literature => {
                // Each placement's cells as the eight bytes x, y, x, y, …: the OR over all
                // placements has a row's sign bit set exactly when some row is negative.
                const ROW_SIGNS: u64 = 0x8000_8000_8000_8000;
                let cells = |placement: &Placement| {
                    let pairs = placement.cells.map(|(x, y)| [x as u8, y as u8]);
                    u64::from_le_bytes(pairs.as_flattened().try_into().expect("8 bytes"))
                };
                placements
                    .iter()
                    .fold(0, |all, placement| all | cells(placement))
                    & ROW_SIGNS
                    != 0
            }
        }
    }

    /// Whether `board` (after a placement and its clears) ends the game before the next piece
    /// is placed: under the simulation rule, when the known `next` piece cannot spawn, or,
    /// when the next piece is unknown (`None`), when any of the 7 could not; never under the
    /// literature rule, nor the console rule (which never checks a spawn: the next piece ends
    /// the game only if its search finds no legal lock).
    #[inline]
    pub fn blocks_next_piece(self, board: &Board, next: Option<Piece>) -> bool {
        match self {
            GameOverRule::Literature | GameOverRule::Console => false,
            GameOverRule::Simulation => match next {
                Some(piece) => !board.can_spawn(piece),
                // Some piece cannot spawn exactly when one of its spawn cells is blocked, so
                // when one of all the spawn cells is: each tested once, not once per piece
                // (the no-suicide chain asks this of every leaf).
                None => SPAWN_CELLS
                    .iter()
                    .any(|&(x, y)| board.is_blocked(x as i32, y as i32)),
            },
        }
    }

    /// Whether [`GameOverRule::blocks_next_piece`] can ever say yes: only under the simulation
    /// rule. Under the others whether a placement ends the game is
    /// [`GameOverRule::placement_ends_game`] alone, known without locking it (what lets the
    /// lookahead chain value a no-suicide chain's last placements in one batch).
    #[inline]
    pub const fn checks_spawn(self) -> bool {
        matches!(self, GameOverRule::Simulation)
    }
}

/// The cells of the 7 pieces' spawn states ([`PieceState::SPAWN`]), each once, in piece
/// order.
const SPAWN_CELLS: &[(i8, i8)] = {
    const ALL: ([(i8, i8); 28], usize) = spawn_cells();
    ALL.0.split_at(ALL.1).0
};

/// [`SPAWN_CELLS`] in a 28-cell array (7 pieces × 4 cells), and how many of them are distinct.
const fn spawn_cells() -> ([(i8, i8); 28], usize) {
    let mut cells = [(0, 0); 28];
    let mut count = 0;
    let mut piece = 0;
    while piece < Piece::ALL.len() {
        let offsets = Piece::ALL[piece].cells(PieceState::SPAWN.rotation);
        let mut cell = 0;
        while cell < offsets.len() {
            let at = (
                PieceState::SPAWN.x + offsets[cell].0,
                PieceState::SPAWN.y + offsets[cell].1,
            );
            let mut seen = false;
            let mut earlier = 0;
            while earlier < count {
                seen |= cells[earlier].0 == at.0 && cells[earlier].1 == at.1;
                earlier += 1;
            }
            if !seen {
                cells[count] = at;
                count += 1;
            }
            cell += 1;
        }
        piece += 1;
    }
    (cells, count)
}

impl fmt::Display for GameOverRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for GameOverRule {
    type Err = crate::Error;

    /// Parses a rule name; the error lists the valid ones.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        GameOverRule::ALL
            .into_iter()
            .find(|rule| rule.name() == text)
            .ok_or_else(|| crate::Error::UnknownGameOverRule(text.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::placement::PieceState;

    #[test]
    fn names_parse_and_print_back() {
        for rule in GameOverRule::ALL {
            assert_eq!(rule.name().parse::<GameOverRule>(), Ok(rule));
            assert_eq!(rule.to_string(), rule.name());
            let json = serde_json::to_string(&rule).unwrap();
            assert_eq!(json, format!("\"{}\"", rule.name()));
        }
        assert_eq!("console".parse::<GameOverRule>(), Ok(GameOverRule::Console));
        assert!("nes".parse::<GameOverRule>().is_err());
        assert_eq!(GameOverRule::default(), GameOverRule::Simulation);
    }

    #[test]
    fn the_literature_rule_ends_on_a_cell_above_row_0_only() {
        // A vertical I (cells (x, y−2)..(x, y+1)) with its pivot on row 1 has a cell on row −1.
        let high = Placement::new(
            Piece::I,
            PieceState {
                x: 4,
                y: 1,
                rotation: 1,
            },
        );
        let low = Placement::new(
            Piece::I,
            PieceState {
                x: 4,
                y: 2,
                rotation: 1,
            },
        );
        assert!(GameOverRule::Literature.placement_ends_game(&high));
        assert!(!GameOverRule::Literature.placement_ends_game(&low));
        assert!(!GameOverRule::Simulation.placement_ends_game(&high));
        // Any of several, as one at a time says.
        for rule in [GameOverRule::Literature, GameOverRule::Simulation] {
            for placements in [
                &[][..],
                &[low],
                &[high],
                &[low, high],
                &[high, low],
                &[low, low],
            ] {
                assert_eq!(
                    rule.any_placement_ends_game(placements),
                    placements.iter().any(|p| rule.placement_ends_game(p)),
                    "{rule:?} {placements:?}"
                );
            }
        }
    }

    #[test]
    fn any_piece_is_blocked_exactly_when_one_of_the_spawn_cells_is() {
        use rand::{Rng, SeedableRng};
        // Plain and console boards of every height, their top rows (hidden rows included)
        // filled at random: the shared spawn cells answer as the 7 spawn tests do.
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(0x5BA3);
        let mut blocked = 0;
        for round in 0..20_000 {
            let height = 4 + round % 29;
            let mut board = Board::new(height).unwrap();
            if round % 2 == 1 {
                board = board.with_hidden_rows();
                for x in 0..10 {
                    for y in [-2, -1] {
                        if rng.next_u32().is_multiple_of(8) {
                            board.set_hidden(x, y);
                        }
                    }
                }
            }
            let density = 2 + rng.next_u32() % 40;
            for x in 0..10 {
                for y in 0..3.min(height) {
                    if rng.next_u32().is_multiple_of(density) {
                        board.set(x, y);
                    }
                }
            }
            let any_blocked = Piece::ALL.iter().any(|&piece| !board.can_spawn(piece));
            let rule = GameOverRule::Simulation;
            assert_eq!(rule.blocks_next_piece(&board, None), any_blocked, "{board}");
            blocked += usize::from(any_blocked);
        }
        assert!((2_000..18_000).contains(&blocked), "{blocked}");
        // Every piece's spawn cells are among them; the I's and the T's alone make 6.
        assert!((6..=28).contains(&SPAWN_CELLS.len()));
        for piece in Piece::ALL {
            for (dx, dy) in piece.cells(0) {
                assert!(SPAWN_CELLS.contains(&(5 + dx, dy)), "{piece:?}");
            }
        }
    }

    #[test]
    fn only_the_simulation_rule_checks_the_spawn() {
        // A full board blocks every spawn: only a rule that checks the spawn says so.
        let mut full = Board::standard();
        for x in 0..10 {
            for y in 0..20 {
                full.set(x, y);
            }
        }
        for rule in GameOverRule::ALL {
            let blocks = rule.blocks_next_piece(&full, None)
                || Piece::ALL
                    .iter()
                    .any(|&piece| rule.blocks_next_piece(&full, Some(piece)));
            assert_eq!(rule.checks_spawn(), blocks, "{rule}");
        }
        assert!(GameOverRule::Simulation.checks_spawn());
        assert!(!GameOverRule::Literature.checks_spawn());
        assert!(!GameOverRule::Console.checks_spawn());
    }

    #[test]
    fn the_simulation_rule_ends_when_the_next_piece_cannot_spawn() {
        let mut board = Board::standard();
        board.set(6, 0);
        // (6, 0) is covered by T (4..6, 0), J, L, I (3..6) and S (5,0) (6,0); not by Z
        // ((4,0) (5,0) (5,1) (6,1)) nor O ((4,0) (5,0) (4,1) (5,1)).
        assert!(GameOverRule::Simulation.blocks_next_piece(&board, Some(Piece::T)));
        assert!(!GameOverRule::Simulation.blocks_next_piece(&board, Some(Piece::Z)));
        assert!(!GameOverRule::Simulation.blocks_next_piece(&board, Some(Piece::O)));
        assert!(GameOverRule::Simulation.blocks_next_piece(&board, None));
        assert!(!GameOverRule::Literature.blocks_next_piece(&board, Some(Piece::T)));
        assert!(!GameOverRule::Simulation.blocks_next_piece(&Board::standard(), None));
        // The console never checks a spawn (docs/spec/nes-facts.md §6).
        assert!(!GameOverRule::Console.blocks_next_piece(&board, Some(Piece::T)));
        assert!(!GameOverRule::Console.blocks_next_piece(&board, None));
        assert!(GameOverRule::Console.spawn_may_overlap());
        assert!(!GameOverRule::Simulation.spawn_may_overlap());
    }
}
