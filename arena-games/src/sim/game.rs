//! One game: a strategy plays the pieces of a generator until it cannot spawn, the sequence
//! ends, or the piece cap is reached.
//!
//! Rules of a game (printed and stored with every result):
//! - the board is 10 × `board_height`, empty at the start;
//! - the strategy sees `depth` pieces per decision (current + `depth − 1` previews), taken
//!   from the generator in order, so every strategy with the same generator and seed sees the
//!   same pieces whatever its depth; after every placement the generator is told of it
//!   ([`PieceGenerator::after_placement`]), which only `mdptetris` uses (it skips the draws
//!   of MDPTetris's trial placements, so it deals a piece only after the previous one is
//!   placed, and the request layer refuses it with a preview);
//! - game over by the game's [`GameOverRule`] (docs/spec/rules.md): under the simulation rule the current
//!   piece's spawn state is illegal (or it has no placement left), and the game ends before
//!   placing it; under the literature rule the chosen placement lands with a cell above row 0
//!   (or the piece has no placement): that placement is the game's last, counted as placed
//!   and listed, but its rows do not clear (the game ends before any row clears, as in
//!   El-Tetris, so they add no lines);
//! - score: NES line-clear points with NES level progression (soft-drop points are not
//!   counted), displayed score capped at 999,999; the game's one level starts at 0, or for a
//!   gravity-aware searcher at the first level of the gravity it plays at and stops at the last
//!   level of that gravity ([`crate::sim::levels::game_levels`]), so the level shown, the
//!   level scored and the gravity searched agree.
//!
//! The step itself (spawn check, each rule's game over, clears, scoring, counts) is the core's
//! [`PlacementGame`]; this module draws the pieces, asks the strategy, and records.

use std::ops::ControlFlow;
use std::time::Duration;

use web_time::Instant;

use serde::{Deserialize, Serialize};
use tetris_core::{
    Board, DecisionContext, GameOverRule, GeneratorKind, Piece, PieceGenerator, PlacementGame,
};
use tetris_registry::protocol::{Start, Stop};
use tetris_registry::{FaultKind, GameTally, Strategy};

use crate::error::GameError;
use crate::sim::evaluation::Evaluation;
use crate::sim::levels::game_levels;
use crate::sim::placement::PlayedPlacement;
use tetris_arena_io::values::{BoardHeight, MaxPieces};

/// The settings of one game, each a checked value (read back through the same checks).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSettings {
    /// Board rows.
    pub board_height: BoardHeight,
    /// The piece generator.
    pub generator: GeneratorKind,
    /// The generator's seed.
    pub seed: u64,
    /// Stop after this many pieces (`None`: play to the end).
    pub max_pieces: Option<MaxPieces>,
    /// When the game is over (part files written before the rule was recorded were all
    /// played under the simulation rule).
    #[serde(default)]
    pub game_over_rule: GameOverRule,
}

/// Why a game stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameEnd {
    /// Game over by the game's rule: the current piece could not spawn or had no placement
    /// (simulation), or the last placement landed above row 0 or there was none (literature).
    GameOver,
    /// The piece cap was reached.
    PieceCap,
    /// The piece sequence ended (file generator).
    SequenceEnded,
    /// The observer stopped the game before it ended (a tournament interrupted by Ctrl-C):
    /// not a finished game.
    Stopped,
    /// An outside engine broke the protocol (an illegal or malformed answer, none in time, an
    /// exit): the game ends with its pieces, lines and score so far, and its result holds the
    /// reason ([`GameResult::fault`]).
    Fault,
}

impl GameEnd {
    /// The name used in JSON and CSV output: `game_over`, `piece_cap`, `sequence_ended`,
    /// `stopped`.
    pub fn name(self) -> &'static str {
        match self {
            GameEnd::GameOver => "game_over",
            GameEnd::PieceCap => "piece_cap",
            GameEnd::SequenceEnded => "sequence_ended",
            GameEnd::Stopped => "stopped",
            GameEnd::Fault => "fault",
        }
    }

    /// How a game ended, in words (`max_pieces`: the game's piece cap; `rule`: its game-over
    /// rule).
    pub fn describe(self, max_pieces: Option<u64>, rule: GameOverRule) -> String {
        match (self, max_pieces) {
            (GameEnd::GameOver, _) => match rule {
                GameOverRule::Simulation => {
                    "game over (the next piece could not spawn, or had no placement left)"
                        .to_string()
                }
                GameOverRule::Literature => {
                    "game over (a piece landed above the field, or had no placement)".to_string()
                }
                // Frame-less games refuse it (`GameOverRule::check_frameless`); said all the same.
                GameOverRule::Console => {
                    "game over (a piece had no legal lock within reach)".to_string()
                }
            },
            (GameEnd::PieceCap, Some(cap)) => format!("piece cap reached ({cap})"),
            (GameEnd::PieceCap, None) => "piece cap reached".to_string(),
            (GameEnd::SequenceEnded, _) => "the piece sequence ended".to_string(),
            (GameEnd::Stopped, _) => "stopped before the end".to_string(),
            (GameEnd::Fault, _) => "the outside engine's fault".to_string(),
        }
    }
}

/// What one game produced.
#[derive(Clone, Debug, PartialEq)]
pub struct GameResult {
    /// Pieces placed.
    pub pieces: u64,
    /// Rows cleared.
    pub lines: u64,
    /// NES score (displayed, capped at 999,999), counted from the game's levels.
    pub score: u32,
    /// The level the game started at (0, or a gravity-aware searcher's gravity's first level).
    pub start_level: u8,
    /// The level at the end: the one the last clear scored at.
    pub level: u8,
    /// Clears by size: `clears[n]` = placements that cleared n rows (index 0 unused).
    pub clears: [u64; 5],
    /// Why the game stopped.
    pub end: GameEnd,
    /// With [`GameEnd::Fault`], what the outside engine did (one line).
    pub fault: Option<String>,
    /// The placements, when asked for.
    pub placements: Vec<PlayedPlacement>,
    /// Wall-clock time of the game (not part of any comparison).
    pub elapsed: Duration,
}

impl GameResult {
    /// Whether the game ended by a top-out.
    pub fn game_over(&self) -> bool {
        self.end == GameEnd::GameOver
    }

    /// Placements that cleared four rows.
    pub fn tetrises(&self) -> u64 {
        self.clears[4]
    }
}

/// What a game reports to an observer after each placement (for `--watch`).
pub struct Step<'a> {
    /// The board after the placement and its clears.
    pub board: &'a Board,
    /// The placement.
    pub placement: &'a PlayedPlacement,
    /// Pieces placed so far.
    pub pieces: u64,
    /// Lines so far.
    pub lines: u64,
    /// The score so far (displayed, capped at 999,999).
    pub score: u32,
    /// The level now ([`LiveGame::level`]).
    pub level: u8,
    /// The upcoming pieces the strategy will see next (current first).
    pub upcoming: &'a [Piece],
}

/// Options of [`play_game`] beyond the settings.
#[derive(Clone, Copy, Debug, Default)]
pub struct PlayOptions {
    /// Keep the list of placements.
    pub keep_placements: bool,
    /// Keep input paths with the placements (implies `keep_placements`).
    pub keep_paths: bool,
    /// Keep the evaluator's cost and features of every choice with the placements (implies
    /// `keep_placements`).
    pub keep_evaluations: bool,
}

/// Plays one game of `strategy` under `settings`, calling `observer` after every placement;
/// the observer returns `ControlFlow::Break` to stop the game early (it then ends as
/// [`GameEnd::Stopped`]).
pub fn play_game(
    strategy: &mut Strategy,
    settings: &GameSettings,
    options: PlayOptions,
    observer: &mut dyn FnMut(&Step<'_>) -> ControlFlow<()>,
) -> Result<GameResult, GameError> {
    let start = Instant::now();
    let mut game = LiveGame::new(strategy, settings, options)?;
    while game.end().is_none() {
        game.step(strategy, observer)?;
    }
    Ok(GameResult {
        elapsed: start.elapsed(),
        ..game.finish()
    })
}

/// A game played one placement at a time, for a front end that shows it as it goes (the
/// browser page steps its games a few placements per frame). [`play_game`] is this game
/// stepped to its end: the same pieces, decisions and result.
pub struct LiveGame {
    game: PlacementGame,
    generator: PieceGenerator,
    max_pieces: Option<u64>,
    options: PlayOptions,
    context: DecisionContext,
    /// The pieces drawn and not yet placed, current first (as many as the strategy sees):
    /// what the strategy is shown. A few pieces, so taking the first out is a short move.
    upcoming: Vec<Piece>,
    placements: Vec<PlayedPlacement>,
    end: Option<GameEnd>,
    /// The outside engine's fault that ended the game.
    fault: Option<String>,
    /// The game's facts for an outside engine, told before the first decision (`None` once
    /// told).
    start: Option<Start>,
}

impl LiveGame {
    /// A game of `strategy` under `settings` before its first piece (the settings' board
    /// height and generator are checked here).
    pub fn new(
        strategy: &Strategy,
        settings: &GameSettings,
        options: PlayOptions,
    ) -> Result<LiveGame, GameError> {
        let board = Board::new(settings.board_height.rows())?;
        let rule = settings.game_over_rule;
        let depth = strategy.depth();
        let levels = game_levels(strategy.frame_timing());
        Ok(LiveGame {
            game: PlacementGame::with_levels(board, rule, levels)?,
            generator: settings.generator.start(settings.seed)?,
            max_pieces: settings.max_pieces.map(MaxPieces::get),
            options,
            context: DecisionContext::with_game_over_rule(rule),
            // The strategy sees `depth` pieces per decision, drawn in order from the
            // generator (see the module documentation); the game itself holds no sequence.
            upcoming: Vec::with_capacity(depth),
            placements: Vec::new(),
            end: None,
            fault: None,
            start: Some(Start {
                game: 0,
                board_width: tetris_core::BOARD_WIDTH as u8,
                board_height: settings.board_height.rows() as u8,
                game_over: rule.to_string(),
                generator: settings.generator.to_string(),
                seed: settings.seed,
                max_pieces: settings.max_pieces.map(MaxPieces::get),
                preview: 0,
                searcher: String::new(),
                timeline: None,
                inputs: None,
            }),
        })
    }

    /// Why the game ended, or `None` while it goes on.
    pub fn end(&self) -> Option<GameEnd> {
        self.end
    }

    /// The board now.
    pub fn board(&self) -> &Board {
        self.game.board()
    }

    /// Pieces placed so far.
    pub fn pieces(&self) -> u64 {
        self.game.pieces()
    }

    /// Rows cleared so far.
    pub fn lines(&self) -> u64 {
        self.game.lines()
    }

    /// The NES score so far (displayed, capped at 999,999).
    pub fn score(&self) -> u32 {
        self.game.score().score()
    }

    /// The level the game started at ([`game_levels`]).
    pub fn start_level(&self) -> u8 {
        self.game.score().start_level()
    }

    /// The level now: the level the next clear scores at, and for a gravity-aware searcher
    /// the level of its gravity.
    pub fn level(&self) -> u8 {
        self.game.score().level()
    }

    /// The pieces the strategy will see for its next decision, current first (empty before
    /// the first step, which draws them).
    pub fn upcoming(&self) -> &[Piece] {
        &self.upcoming
    }

    /// Plays the next placement of `strategy` (which must be the strategy the game was made
    /// for) and shows it to `observer`, or ends the game: at the piece cap, when the sequence
    /// ends, on a game over, or when the observer breaks. Does nothing once the game has
    /// ended; the end, if this step ended it.
    pub fn step(
        &mut self,
        strategy: &mut Strategy,
        observer: &mut dyn FnMut(&Step<'_>) -> ControlFlow<()>,
    ) -> Result<Option<GameEnd>, GameError> {
        if self.end.is_some() {
            return Ok(None);
        }
        if let Some(start) = self.start.take() {
            strategy.begin_game(&start);
        }
        self.end = self.play_one(strategy, observer)?;
        if let Some(end) = self.end {
            strategy.end_game(&Stop {
                game: 0,
                end: end.name().to_string(),
                pieces: self.game.pieces(),
                lines: self.game.lines(),
                score: self.game.score().score(),
            });
        }
        Ok(self.end)
    }

    /// One placement; the end of the game if it ended.
    fn play_one(
        &mut self,
        strategy: &mut Strategy,
        observer: &mut dyn FnMut(&Step<'_>) -> ControlFlow<()>,
    ) -> Result<Option<GameEnd>, GameError> {
        let game = &mut self.game;
        if self.max_pieces.is_some_and(|cap| game.pieces() >= cap) {
            return Ok(Some(GameEnd::PieceCap));
        }
        while self.upcoming.len() < strategy.depth() {
            match self.generator.next() {
                Some(piece) => self.upcoming.push(piece),
                None => break,
            }
        }
        let Some(&current) = self.upcoming.first() else {
            return Ok(Some(GameEnd::SequenceEnded));
        };
        if !game.spawn(current) {
            return Ok(Some(GameEnd::GameOver));
        }
        let tally = GameTally {
            pieces: game.pieces(),
            lines: game.lines(),
            score: game.score().score(),
            level: game.score().level(),
        };
        let choice = match strategy.decide_in(game.board(), &self.upcoming, self.context, tally) {
            Ok(Some(choice)) => choice,
            Ok(None) => return Ok(Some(GameEnd::GameOver)),
            Err(fault) if fault.kind == FaultKind::Raised => {
                return Err(GameError::EngineRaised(fault.message));
            }
            // The engine found no move: the game is over, as when the searcher finds none.
            Err(fault) if fault.kind == FaultKind::Resigned => {
                return Ok(Some(GameEnd::GameOver));
            }
            Err(fault) => {
                self.fault = Some(fault.message);
                return Ok(Some(GameEnd::Fault));
            }
        };
        let placement = choice.placement;
        let evaluation = self
            .options
            .keep_evaluations
            .then(|| Evaluation::of_choice(strategy, game.board(), &choice));
        let path = if self.options.keep_paths {
            strategy.path_to(game.board(), &placement, self.context)
        } else {
            None
        };
        let before = *game.board();
        let placed = game.place(&placement)?;
        // The placed piece leaves the front: the rest move up one (a loop over a few pieces;
        // `Vec::remove` is a call and a `memmove`).
        for index in 1..self.upcoming.len() {
            self.upcoming[index - 1] = self.upcoming[index];
        }
        self.upcoming.pop();
        // The generator hears of every placement before it deals again (`mdptetris` skips
        // MDPTetris's trial draws; the others ignore it).
        self.generator.after_placement(&before, placement.piece);
        let played = PlayedPlacement {
            evaluation,
            ..PlayedPlacement::new(&placement, placed.outcome.rows_cleared, path)
        };
        let flow = observer(&Step {
            board: game.board(),
            placement: &played,
            pieces: game.pieces(),
            lines: game.lines(),
            score: game.score().score(),
            level: game.score().level(),
            upcoming: &self.upcoming,
        });
        let options = self.options;
        if options.keep_placements || options.keep_paths || options.keep_evaluations {
            self.placements.push(played);
        } else {
            // Not kept, and holding nothing to free: without `keep_paths` and
            // `keep_evaluations` its path and evaluation are `None`. Forgetting it skips the
            // out-of-line drop a piece would otherwise cost (1.8 M instructions in a
            // 100,000-piece game of MDPTetris's).
            debug_assert!(played.path.is_none() && played.evaluation.is_none());
            std::mem::forget(played);
        }
        // A placement that ends the game (the literature's landing above the field) is still
        // listed and shown above.
        if placed.game_over {
            return Ok(Some(GameEnd::GameOver));
        }
        if flow.is_break() {
            return Ok(Some(GameEnd::Stopped));
        }
        Ok(None)
    }

    /// The game's result: a game that has not ended counts as [`GameEnd::Stopped`]. Its
    /// `elapsed` is zero: a stepped game's time is its front end's to measure.
    pub fn finish(self) -> GameResult {
        GameResult {
            pieces: self.game.pieces(),
            lines: self.game.lines(),
            score: self.game.score().score(),
            start_level: self.game.score().start_level(),
            level: self.game.score().level(),
            clears: self.game.clears(),
            end: self.end.unwrap_or(GameEnd::Stopped),
            fault: self.fault,
            placements: self.placements,
            elapsed: Duration::ZERO,
        }
    }
}

/// The first `wanted` pieces the generator of `settings` deals in a game whose placements were
/// `placed`, in order, from an empty board: for most generators simply its first `wanted`
/// pieces; for `mdptetris` the generator is told of each placement
/// ([`PieceGenerator::after_placement`]) as [`play_game`] tells it, on the boards the
/// placements give (each placement locked and its full rows cleared), so the pieces are the
/// game's. The placements must be legal on those boards (the game's own, or checked).
pub fn dealt_pieces(
    settings: &GameSettings,
    placed: &[PlayedPlacement],
    wanted: usize,
) -> Result<Vec<Piece>, GameError> {
    let mut generator = settings.generator.start(settings.seed)?;
    if !settings.generator.deals_after_placement() {
        return Ok(generator.take(wanted).collect());
    }
    let mut board = Board::new(settings.board_height.rows())?;
    let mut pieces = Vec::with_capacity(wanted);
    for index in 0..wanted {
        let Some(piece) = generator.next() else {
            break;
        };
        pieces.push(piece);
        if let Some(placement) = placed.get(index) {
            let before = board;
            board.lock(placement.piece, placement.state());
            generator.after_placement(&before, placement.piece);
        }
    }
    Ok(pieces)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tetris_core::{Evaluator, Placement};

    fn settings(generator: &str, seed: u64, max_pieces: Option<u64>) -> GameSettings {
        GameSettings {
            board_height: BoardHeight::default(),
            generator: generator.parse().unwrap(),
            seed,
            max_pieces: max_pieces.map(|cap| MaxPieces::try_from(cap).unwrap()),
            game_over_rule: GameOverRule::Simulation,
        }
    }

    #[test]
    fn a_capped_game_stops_at_the_cap_and_is_deterministic() {
        let mut strategy = Strategy::from_name("column-drop+dellacherie").unwrap();
        let rules = settings("uniform", 7, Some(200));
        let options = PlayOptions {
            keep_placements: true,
            keep_paths: false,
            keep_evaluations: false,
        };
        let first = play_game(&mut strategy, &rules, options, &mut |_| {
            ControlFlow::Continue(())
        })
        .unwrap();
        assert_eq!(first.pieces, 200);
        assert_eq!(first.end, GameEnd::PieceCap);
        assert_eq!(first.placements.len(), 200);
        // 200 pieces × 4 cells = 800 cells; every cleared row removed 10 of them.
        let mut replayed = Board::standard();
        for played in &first.placements {
            replayed.lock(played.piece, played.state());
        }
        assert_eq!(replayed.occupied_count() as u64, 800 - 10 * first.lines);
        let second = play_game(&mut strategy, &rules, options, &mut |_| {
            ControlFlow::Continue(())
        })
        .unwrap();
        assert_eq!(first.placements, second.placements);
    }

    #[test]
    fn kept_evaluations_are_the_weighted_sums_of_their_features() {
        let mut strategy = Strategy::from_name("bfs+elashi").unwrap();
        let options = PlayOptions {
            keep_evaluations: true,
            ..PlayOptions::default()
        };
        let result = play_game(
            &mut strategy,
            &settings("uniform", 2, Some(30)),
            options,
            &mut |_| ControlFlow::Continue(()),
        )
        .unwrap();
        assert_eq!(result.placements.len(), 30);
        let weights = strategy.evaluator().weights();
        for played in &result.placements {
            let evaluation = played.evaluation.as_ref().expect("kept");
            assert_eq!(evaluation.features.len(), 6, "El-Ashi's six features");
            let sum: f64 = evaluation
                .features
                .iter()
                .map(|(name, value)| weights.get(name).unwrap() * value)
                .sum();
            assert!(
                (sum - evaluation.cost.unwrap()).abs() < 1e-9,
                "{evaluation:?}"
            );
            assert!(played.path.is_none(), "paths were not asked for");
        }
    }

    #[test]
    fn an_observer_can_stop_a_game() {
        let mut strategy = Strategy::from_name("column-drop+elashi").unwrap();
        let result = play_game(
            &mut strategy,
            &settings("uniform", 3, None),
            PlayOptions::default(),
            &mut |step| {
                if step.pieces == 17 {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            },
        )
        .unwrap();
        assert_eq!(result.end, GameEnd::Stopped);
        assert_eq!(result.pieces, 17);
    }

    /// Plays `strategy` on the S/Z torture sequence (every strategy dies) on 10 × 6 under
    /// `rule`, keeping the placements.
    fn torture_game(strategy: &str, rule: GameOverRule) -> GameResult {
        let mut strategy = Strategy::from_name(strategy).unwrap();
        let rules = GameSettings {
            board_height: BoardHeight::try_from(6).unwrap(),
            game_over_rule: rule,
            ..settings("sz", 5, Some(100_000))
        };
        let options = PlayOptions {
            keep_placements: true,
            keep_paths: false,
            keep_evaluations: false,
        };
        play_game(&mut strategy, &rules, options, &mut |_| {
            ControlFlow::Continue(())
        })
        .unwrap()
    }

    fn lands_above_the_field(played: &PlayedPlacement) -> bool {
        Placement::new(played.piece, played.state())
            .cells
            .iter()
            .any(|&(_, y)| y < 0)
    }

    #[test]
    fn a_literature_game_ends_exactly_at_the_first_landing_above_the_field() {
        let literature = torture_game("drop+dellacherie", GameOverRule::Literature);
        assert!(literature.game_over());
        let (last, before) = literature.placements.split_last().unwrap();
        assert!(lands_above_the_field(last), "{last:?}");
        assert_eq!(last.cleared, 0, "the game ends before rows clear");
        assert!(!before.iter().any(lands_above_the_field));
        assert_eq!(literature.pieces, literature.placements.len() as u64);
        // The same strategy under the simulation rule makes the same decisions (one piece: no
        // chain to cut) until one of the two games ends; there the landing above the field
        // only loses the cells above row 0.
        let simulation = torture_game("drop+dellacherie", GameOverRule::Simulation);
        let common = simulation
            .placements
            .len()
            .min(literature.placements.len() - 1);
        assert_eq!(
            simulation.placements[..common],
            literature.placements[..common]
        );
    }

    #[test]
    fn no_suicide_lands_above_the_field_only_when_every_placement_would() {
        let result = torture_game("drop+dellacherie,no-suicide", GameOverRule::Literature);
        assert!(result.game_over());
        let mut board = Board::new(6).unwrap();
        let mut searcher = tetris_registry::searcher_by_name("drop").unwrap();
        let mut candidates = tetris_core::Placements::new();
        for (index, played) in result.placements.iter().enumerate() {
            tetris_core::Searcher::search(
                &mut searcher,
                &board,
                played.piece,
                tetris_core::SearchOptions::default(),
                &mut candidates,
            );
            let every_one_ends = candidates
                .iter()
                .all(|candidate| GameOverRule::Literature.placement_ends_game(candidate));
            // A placement above the field is played only when no other is left, and then
            // the game ends with it.
            assert_eq!(
                lands_above_the_field(played),
                every_one_ends,
                "placement {index}"
            );
            if every_one_ends {
                assert_eq!(index + 1, result.placements.len());
            }
            board.lock(played.piece, played.state());
        }
        // The torture sequence kills it too, later than the plain strategy on the same pieces.
        let plain = torture_game("drop+dellacherie", GameOverRule::Literature);
        assert!(result.pieces >= plain.pieces);
    }

    #[test]
    fn the_sz_torture_sequence_ends_every_game() {
        let mut strategy = Strategy::from_name("column-drop+elashi").unwrap();
        let result = play_game(
            &mut strategy,
            &settings("sz", 1, Some(100_000)),
            PlayOptions::default(),
            &mut |_| ControlFlow::Continue(()),
        )
        .unwrap();
        assert!(result.game_over());
        assert!(result.pieces < 100_000);
    }
}
