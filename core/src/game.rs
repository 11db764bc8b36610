//! The game without frames, one placement at a time: [`PlacementGame`], beside the NES frame
//! model's [`crate::NesGame`].
//!
//! A frame-less game (docs/spec/rules.md) is a board, the NES score with its level (from level 0,
//! or for a gravity-aware searcher from the level of its gravity: [`GameLevels`]) and the counts
//! of pieces, lines and clears; each turn the front end spawns the next piece
//! ([`PlacementGame::spawn`]), chooses one of its lock placements, and places it
//! ([`PlacementGame::place`]): the piece locks, full rows clear, the lines score NES
//! line-clear points ([`NesScore`]; soft-drop points are not counted). The game-over rule
//! decides when the game ends:
//!
//! - [`GameOverRule::Simulation`]: when the next piece cannot spawn (its spawn state is
//!   illegal); a lock with cells above row 0 loses them and the game goes on;
//! - [`GameOverRule::Literature`]: when a placement lands with a cell above row 0, judged
//!   before rows clear: that placement is the game's last, counted as placed, and its cells
//!   are placed without clearing any row (the game ends before the clear, as in El-Tetris, so
//!   it adds no lines);
//! - [`GameOverRule::Console`] needs the NES frame model (a piece that spawns overlapping may
//!   still move out, which only frames can tell): [`PlacementGame::new`] refuses it with
//!   [`Error::FramelessRule`], so a game never holds it.
//!
//! Under every rule the game is also over when the current piece has no placement (a search
//! finds none, or the strategy's filter or no-suicide removes them all): only the front end,
//! which searches, can tell, so it stops without calling [`PlacementGame::place`].
//!
//! The game holds no piece sequence: its front ends draw pieces differently (`arena play`
//! from the generator, as many as the strategy looks ahead; the Python environment as many as
//! its preview shows; the replay verifier from the replay's stored sequence), so the window of
//! upcoming pieces stays with them and each turn names its piece.

use crate::board::{Board, LockOutcome};
use crate::error::Error;
use crate::piece::Piece;
use crate::placement::Placement;
use crate::rules::GameOverRule;
use crate::scoring::{GameLevels, NesScore};

/// The game-over rules a game without frames plays: [`GameOverRule`] without the console
/// rule. [`FramelessRule::of`] is the one place a new [`GameOverRule`] must be sorted in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FramelessRule {
    /// [`GameOverRule::Simulation`].
    Simulation,
    /// [`GameOverRule::Literature`].
    Literature,
}

impl FramelessRule {
    /// The frame-less rule of `rule`, or [`Error::FramelessRule`] for a rule that needs the
    /// frame model. Exhaustive on purpose: a new rule does not compile until it is sorted here.
    fn of(rule: GameOverRule) -> Result<FramelessRule, Error> {
        match rule {
            GameOverRule::Simulation => Ok(FramelessRule::Simulation),
            GameOverRule::Literature => Ok(FramelessRule::Literature),
            GameOverRule::Console => Err(Error::FramelessRule(rule)),
        }
    }

    /// The rule it stands for.
    fn rule(self) -> GameOverRule {
        match self {
            FramelessRule::Simulation => GameOverRule::Simulation,
            FramelessRule::Literature => GameOverRule::Literature,
        }
    }
}

/// What one placement did ([`PlacementGame::place`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placed {
    /// The lock: rows cleared and which. A placement that ends a literature game clears
    /// nothing and reports [`LockOutcome::default`] (no rows, and no count of the cells lost
    /// above row 0: the game is over).
    pub outcome: LockOutcome,
    /// Whether this placement ended the game (only under the literature rule: it landed with
    /// a cell above row 0).
    pub game_over: bool,
}

/// A game without frames, played one placement at a time (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlacementGame {
    board: Board,
    rule: FramelessRule,
    score: NesScore,
    /// Placements made.
    pieces: u64,
    /// Rows cleared.
    lines: u64,
    /// `clears[n]`: placements that cleared `n` rows.
    clears: [u64; 5],
    /// Set by the placement or the spawn that ended the game.
    over: bool,
}

impl PlacementGame {
    /// A game on `board` (usually empty; a console board's hidden rows are dropped: only the
    /// console rule keeps them) under `rule`, at level 0 with nothing placed; an
    /// [`Error::FramelessRule`] for the console rule, which needs the frame model.
    pub fn new(board: Board, rule: GameOverRule) -> Result<PlacementGame, Error> {
        PlacementGame::with_levels(board, rule, GameLevels::FROM_ZERO)
    }

    /// A game as [`PlacementGame::new`] makes it, whose level starts and stops where `levels`
    /// says (a gravity-aware searcher's game: [`GameLevels::of_gravity`]).
    pub fn with_levels(
        board: Board,
        rule: GameOverRule,
        levels: GameLevels,
    ) -> Result<PlacementGame, Error> {
        Ok(PlacementGame {
            board: board.without_hidden_rows(),
            rule: FramelessRule::of(rule)?,
            score: levels.score(),
            pieces: 0,
            lines: 0,
            clears: [0; 5],
            over: false,
        })
    }

    /// The board after the last placement and its clears.
    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The game-over rule (never [`GameOverRule::Console`]).
    #[inline]
    pub fn rule(&self) -> GameOverRule {
        self.rule.rule()
    }

    /// Score, lines and level (the game starts at its levels' start: level 0 unless made
    /// [`PlacementGame::with_levels`]).
    #[inline]
    pub fn score(&self) -> &NesScore {
        &self.score
    }

    /// Placements made, the one that ended a literature game included.
    #[inline]
    pub fn pieces(&self) -> u64 {
        self.pieces
    }

    /// Rows cleared.
    #[inline]
    pub fn lines(&self) -> u64 {
        self.lines
    }

    /// Placements that cleared 0, 1, 2, 3 and 4 rows (`clears[n]` for `n` rows).
    #[inline]
    pub fn clears(&self) -> [u64; 5] {
        self.clears
    }

    /// Whether a placement ([`PlacementGame::place`]) or a spawn ([`PlacementGame::spawn`])
    /// ended the game. A piece without a placement also ends it, but the front end tells that
    /// (see the module documentation).
    #[inline]
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// Spawns `piece`, the next to place: true when it may be placed. Under the simulation rule
    /// a piece whose spawn state is illegal cannot spawn: that ends the game (false). The
    /// literature rule never checks the spawn (the search decides what can be placed). False,
    /// too, when the game is already over.
    #[inline]
    pub fn spawn(&mut self, piece: Piece) -> bool {
        if self.over {
            return false;
        }
        let spawns = match self.rule {
            FramelessRule::Simulation => self.board.can_spawn(piece),
            FramelessRule::Literature => true,
        };
        self.over = !spawns;
        spawns
    }

    /// Places `placement` (a lock placement of the spawned piece, legal on the board: the
    /// caller's search or check gives it; it is not checked again), clears full rows, scores
    /// them and counts the placement. Under the literature rule a placement with a cell above
    /// row 0 is placed without clearing and ends the game. An [`Error::GameOver`] when the
    /// game is already over.
    #[inline]
    pub fn place(&mut self, placement: &Placement) -> Result<Placed, Error> {
        if self.over {
            return Err(Error::GameOver);
        }
        let game_over = match self.rule {
            FramelessRule::Simulation => false,
            FramelessRule::Literature => GameOverRule::Literature.placement_ends_game(placement),
        };
        let outcome = if game_over {
            // The literature's game over: the piece has landed, so it is placed, but the game
            // ends before its rows clear.
            self.board.place(placement.piece, placement.state());
            LockOutcome::default()
        } else {
            self.board.lock(placement.piece, placement.state())
        };
        self.pieces += 1;
        self.lines += u64::from(outcome.rows_cleared);
        self.clears[usize::from(outcome.rows_cleared)] += 1;
        if outcome.rows_cleared > 0 {
            self.score.add_cleared_rows(outcome.rows_cleared);
        }
        self.over = game_over;
        Ok(Placed { outcome, game_over })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::placement::PieceState;

    /// A vertical I (rotation 1 covers `(x, y − 2)..=(x, y + 1)`) with its pivot at `(x, y)`.
    fn vertical_i(x: i8, y: i8) -> Placement {
        Placement::new(Piece::I, PieceState { x, y, rotation: 1 })
    }

    /// A board of `height` rows whose rows `rows` are full but for column 9, and whose other
    /// rows are empty but for `extra` cells.
    fn well_board(height: usize, rows: std::ops::Range<usize>, extra: &[(usize, usize)]) -> Board {
        let mut board = Board::new(height).unwrap();
        for y in rows {
            for x in 0..9 {
                board.set(x, y);
            }
        }
        for &(x, y) in extra {
            board.set(x, y);
        }
        board
    }

    #[test]
    fn a_tetris_scores_1200_at_level_0_under_both_rules() {
        for rule in [GameOverRule::Simulation, GameOverRule::Literature] {
            // Rows 2..=5 of 6: the spawn rows 0 and 1 are free.
            let mut game = PlacementGame::new(well_board(6, 2..6, &[]), rule).unwrap();
            assert!(game.spawn(Piece::I));
            // Pivot row 4: cells on rows 2..=5 of column 9.
            let placed = game.place(&vertical_i(9, 4)).unwrap();
            assert_eq!(placed.outcome.rows_cleared, 4);
            assert_eq!(placed.outcome.cleared_rows, 0b11_1100);
            assert!(!placed.game_over);
            assert_eq!(game.score().score(), 1200, "1200 × (level 0 + 1)");
            assert_eq!((game.pieces(), game.lines()), (1, 4));
            assert_eq!(game.clears(), [0, 0, 0, 0, 1]);
            assert!(game.board().is_empty());
            assert!(!game.is_over());
        }
    }

    #[test]
    fn a_landing_above_the_field_ends_a_literature_game_before_its_rows_clear() {
        // Rows 0..=2 are full but for column 9; (9, 3) holds the I up, so it rests with its
        // pivot on row 1 and its top cell on row −1.
        let board = well_board(4, 0..3, &[(9, 3)]);
        let landing = vertical_i(9, 1);
        let mut literature = PlacementGame::new(board, GameOverRule::Literature).unwrap();
        assert!(literature.spawn(Piece::I));
        let placed = literature.place(&landing).unwrap();
        assert_eq!(placed.outcome, LockOutcome::default());
        assert!(placed.game_over && literature.is_over());
        assert_eq!((literature.pieces(), literature.lines()), (1, 0));
        assert_eq!(literature.clears(), [1, 0, 0, 0, 0]);
        // Placed without clearing: 27 + 1 cells before, 3 of the I's 4 on the field.
        assert_eq!(literature.board().occupied_count(), 31);
        assert_eq!(literature.place(&landing), Err(Error::GameOver));
        assert!(!literature.spawn(Piece::I));
        // Under the simulation rule the same lock loses its top cell and clears the three
        // rows: a triple, 300 points at level 0, and the game goes on.
        let mut simulation = PlacementGame::new(board, GameOverRule::Simulation).unwrap();
        let placed = simulation.place(&landing).unwrap();
        assert_eq!(placed.outcome.rows_cleared, 3);
        assert_eq!(placed.outcome.cells_above_top, 1);
        assert!(!placed.game_over);
        assert_eq!((simulation.score().score(), simulation.lines()), (300, 3));
        assert_eq!(
            simulation.board().occupied_count(),
            1,
            "only (9, 3) is left"
        );
    }

    #[test]
    fn a_piece_that_cannot_spawn_ends_a_simulation_game_only() {
        // (6, 0) is covered by the T's spawn state (cells (4..=6, 0) and (5, 1)), not by the
        // O's ((4, 0) (5, 0) (4, 1) (5, 1)).
        let mut board = Board::new(4).unwrap();
        board.set(6, 0);
        let mut literature = PlacementGame::new(board, GameOverRule::Literature).unwrap();
        assert!(literature.spawn(Piece::T));
        assert!(!literature.is_over());
        let mut simulation = PlacementGame::new(board, GameOverRule::Simulation).unwrap();
        assert!(simulation.spawn(Piece::O));
        assert!(!simulation.spawn(Piece::T));
        assert!(simulation.is_over());
        assert_eq!(simulation.pieces(), 0);
        let flat_o = Placement::new(
            Piece::O,
            PieceState {
                x: 1,
                y: 2,
                rotation: 0,
            },
        );
        assert_eq!(simulation.place(&flat_o), Err(Error::GameOver));
    }

    #[test]
    fn the_console_rule_is_refused() {
        assert_eq!(
            PlacementGame::new(Board::standard(), GameOverRule::Console),
            Err(Error::FramelessRule(GameOverRule::Console))
        );
        for rule in [GameOverRule::Simulation, GameOverRule::Literature] {
            let game = PlacementGame::new(Board::standard().with_hidden_rows(), rule).unwrap();
            assert_eq!(game.rule(), rule);
            assert!(!game.board().keeps_hidden_rows());
        }
    }
}
