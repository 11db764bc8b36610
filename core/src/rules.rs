//! Game-over rules: when a game ends (rules.md, "Legality, locking, clearing, game over").
//!
//! Three rules exist in the field, and a result means little without its rule: the
//! literature's averages for the same strategy differ by a factor of about six between them
//! (search.md §2b). This module names the two that a game without frames can play:
//!
//! - [`GameOverRule::Simulation`], the NES AI program's: the game is over when the next piece's
//!   spawn state is illegal. A piece that locks with cells above row 0 loses those cells and
//!   the game goes on.
//! - [`GameOverRule::Literature`], the one-piece game's (El-Tetris, Fahey, Thiery & Scherrer):
//!   the game is over when a placed piece lands with any cell above row 0, judged on the
//!   landed piece BEFORE any row is cleared (El-Tetris: landing row + piece height > 20), or
//!   when the piece has no placement at all.
//!
//! The console rule (hidden rows above the field, game over at a lock that overlaps) belongs to
//! the NES frame model.
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
use crate::placement::Placement;

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
}

impl GameOverRule {
    /// Every rule, in the order listings show them.
    pub const ALL: [GameOverRule; 2] = [GameOverRule::Simulation, GameOverRule::Literature];

    /// The rule's name on the command line and in results: `simulation`, `literature`.
    pub const fn name(self) -> &'static str {
        match self {
            GameOverRule::Simulation => "simulation",
            GameOverRule::Literature => "literature",
        }
    }

    /// One line saying when the game ends under this rule.
    pub const fn description(self) -> &'static str {
        match self {
            GameOverRule::Simulation => "the game ends when the next piece cannot spawn",
            GameOverRule::Literature => {
                "the game ends when a piece lands with a cell above row 0 (before rows clear)"
            }
        }
    }

    /// Whether locking `placement` ends the game by itself, before any row clears: under the
    /// literature rule, when one of its cells lies above row 0; never under the simulation
    /// rule (there the NEXT piece decides, [`GameOverRule::blocks_next_piece`]).
    #[inline]
    pub fn placement_ends_game(self, placement: &Placement) -> bool {
        match self {
            GameOverRule::Simulation => false,
            GameOverRule::Literature => placement.cells.iter().any(|&(_, y)| y < 0),
        }
    }

    /// Whether `board` (after a placement and its clears) ends the game before the next piece
    /// is placed: under the simulation rule, when the known `next` piece cannot spawn, or,
    /// when the next piece is unknown (`None`), when any of the 7 could not; never under the
    /// literature rule.
    #[inline]
    pub fn blocks_next_piece(self, board: &Board, next: Option<Piece>) -> bool {
        match self {
            GameOverRule::Literature => false,
            GameOverRule::Simulation => match next {
                Some(piece) => !board.can_spawn(piece),
                None => Piece::ALL.iter().any(|&piece| !board.can_spawn(piece)),
            },
        }
    }
}

impl fmt::Display for GameOverRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for GameOverRule {
    type Err = String;

    /// Parses a rule name; the error lists the valid ones.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        GameOverRule::ALL
            .into_iter()
            .find(|rule| rule.name() == text)
            .ok_or_else(|| {
                format!("unknown game-over rule {text:?} (valid: simulation literature)")
            })
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
        assert!("console".parse::<GameOverRule>().is_err());
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
    }
}
