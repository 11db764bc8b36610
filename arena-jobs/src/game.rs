//! The request for one frame-less game (`arena play`, the Python package's `play`).

use std::path::PathBuf;

use tetris_core::{GameOverRule, GeneratorKind};
use tetris_registry::Strategy;

use crate::error::JobError;
use crate::{JobFiles, Needed, RequestError, frameless_game_over_rule};
use tetris_arena_games::sim::game::GameSettings;
use tetris_arena_io::Field;
use tetris_arena_io::output::check_output_file;
use tetris_arena_io::values::{BoardHeight, MaxPieces, check_pattern_height};

/// One game: a strategy by name and the game's rules.
#[derive(Clone, Debug)]
pub struct GameRequest {
    /// The strategy's name, `SEARCHER+EVALUATOR[:PRESET|:weights.json][,OPTION...][@DEPTH]`.
    pub strategy: String,
    /// The piece generator.
    pub generator: GeneratorKind,
    /// The generator's seed.
    pub seed: u64,
    /// Stop after this many pieces (`None`: play until the game is over).
    pub max_pieces: Option<MaxPieces>,
    /// The field's rows.
    pub board_height: BoardHeight,
    /// The game-over rule (`None`: the searcher's default).
    pub game_over: Option<GameOverRule>,
}

/// A game request, checked: the strategy, built, and the game's settings.
#[derive(Clone)]
// Non-exhaustive: outside this crate a value comes only from its request's check.
#[non_exhaustive]
pub struct CheckedGame {
    /// The strategy, ready to play.
    pub strategy: Strategy,
    /// The game's settings.
    pub settings: GameSettings,
}

impl GameRequest {
    /// Checks the request and builds its strategy: the strategy name (and its presets,
    /// weights and pattern files), the pattern's height against the field's, the generator (a
    /// piece file is read; no preview on a generator that deals after each placement), and the game-over rule (a frame-less game plays `simulation` or
    /// `literature`).
    pub fn check(&self) -> Result<CheckedGame, JobError> {
        let strategy = Strategy::from_name(&self.strategy)?;
        check_pattern_height(&strategy, self.board_height.get(), Field::BOARD_HEIGHT)?;
        self.generator.check_preview(strategy.depth())?;
        // Reads and checks a piece file now, before anything is printed or played.
        self.generator.start(self.seed)?;
        let game_over_rule =
            frameless_game_over_rule(self.game_over, std::slice::from_ref(strategy.spec()))?;
        let settings = GameSettings {
            board_height: self.board_height,
            generator: self.generator.clone(),
            seed: self.seed,
            max_pieces: self.max_pieces,
            game_over_rule,
        };
        Ok(CheckedGame { strategy, settings })
    }
}

/// What `arena play` shows and writes besides the result, each off by default.
#[derive(Clone, Debug, Default)]
pub struct PlayOutputs {
    /// Print one line of JSON.
    pub json: bool,
    /// With `json`: leave out the placements.
    pub no_placements: bool,
    /// Show the board after every placement.
    pub watch: bool,
    /// With `watch`: pieces per second.
    pub speed: Option<f64>,
    /// Write the game's replay here.
    pub record: Option<PathBuf>,
    /// Write the game's viewer page here.
    pub html: Option<PathBuf>,
    /// With `record` or `html`: keep every choice's cost and features.
    pub features: bool,
}

impl PlayOutputs {
    /// Checks, before `game` is played, that the options that need another have it, that the
    /// files can be written, and that they are two files and neither is one the game reads
    /// (the strategy's weights or pattern file, the piece file).
    pub fn check(&self, game: &CheckedGame) -> Result<(), JobError> {
        let needs = |option, needs| Err(RequestError::Needs { option, needs }.into());
        if self.speed.is_some() && !self.watch {
            return needs(Field::SPEED, Needed::Field(Field::WATCH));
        }
        if self.no_placements && !self.json {
            return needs(Field::NO_PLACEMENTS, Needed::Field(Field::JSON));
        }
        if self.features && self.record.is_none() && self.html.is_none() {
            return needs(
                Field::FEATURES,
                Needed::EitherOf(Field::RECORD, Field::HTML, "(it adds to the replay)"),
            );
        }
        if let Some(path) = &self.record {
            check_output_file(Field::RECORD, path)?;
        }
        if let Some(path) = &self.html {
            check_output_file(Field::HTML, path)?;
        }
        JobFiles::default()
            .output(Field::RECORD, self.record.as_deref())
            .output(Field::HTML, self.html.as_deref())
            .strategy(game.strategy.spec())
            .generator(&game.settings.generator)
            .check()?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(strategy: &str) -> GameRequest {
        GameRequest {
            strategy: strategy.to_string(),
            generator: GeneratorKind::Uniform,
            seed: 0,
            max_pieces: None,
            board_height: BoardHeight::default(),
            game_over: None,
        }
    }

    #[test]
    fn a_game_takes_its_searchers_rule_and_refuses_the_consoles() {
        assert_eq!(
            request("drop+elashi")
                .check()
                .unwrap()
                .settings
                .game_over_rule,
            GameOverRule::Literature
        );
        let console = GameRequest {
            game_over: Some(GameOverRule::Console),
            ..request("bfs+elashi")
        };
        let Err(error) = console.check() else {
            panic!("the console rule is refused");
        };
        assert!(error.to_string().contains("needs the NES frame model"));
        assert!(request("nosuch+elashi").check().is_err());
    }

    #[test]
    fn play_options_that_need_another_say_which() {
        let game = request("bfs+elashi").check().unwrap();
        let speed = PlayOutputs {
            speed: Some(5.0),
            ..PlayOutputs::default()
        };
        assert_eq!(
            speed.check(&game).unwrap_err().to_string(),
            "--speed needs --watch"
        );
        let features = PlayOutputs {
            features: true,
            ..PlayOutputs::default()
        };
        assert_eq!(
            features.check(&game).unwrap_err().to_string(),
            "--features needs --record or --html (it adds to the replay)"
        );
        assert!(PlayOutputs::default().check(&game).is_ok());
    }

    #[test]
    fn the_uncapped_note_is_in_the_callers_words() {
        let note = UncappedNote(BoardHeight::try_from(12).unwrap());
        assert_eq!(
            note.to_string(),
            "no --max-pieces: on 10 x 12 strong strategies practically never top out, so a \
             game may never end; --max-pieces N (or a shorter --board-height) bounds it"
        );
        assert_eq!(
            tetris_arena_io::Words::Python.message(&note),
            "no max_pieces: on 10 x 12 strong strategies practically never top out, so a game \
             may never end; max_pieces=N (or a shorter board_height) bounds it"
        );
    }
}

/// The note every front end gives before games without a piece cap (the command line on
/// stderr, Python as a `RuntimeWarning`), in the caller's words ([`tetris_arena_io::Words`]):
/// on a tall field strong strategies practically never top out, and the user should know
/// before waiting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UncappedNote(pub BoardHeight);

impl std::fmt::Display for UncappedNote {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            formatter,
            "no {max_pieces}: on 10 x {height} strong strategies practically never top out, so \
             a game may never end; {capped} (or a shorter {board_height}) bounds it",
            max_pieces = Field::MAX_PIECES,
            height = self.0,
            capped = Field::MAX_PIECES.given_number("N"),
            board_height = Field::BOARD_HEIGHT,
        )
    }
}
