//! The request for one position's analysis (`arena analyze`, the Python package's `analyze`):
//! how a strategy judges a board for known pieces.

use tetris_core::{Board, DecisionContext, GameOverRule, InputModel, Piece, Timeline};
use tetris_registry::Strategy;

use crate::error::JobError;
use crate::frameless_game_over_rule;
use tetris_arena_games::analysis::position::{Analysis, analyze_in, check_pieces_fit_depth};
use tetris_arena_io::Field;
use tetris_arena_io::values::{Level, check_pattern_height};

/// A mid-game board (a stack 7 rows high, a well on the right, three holes): the documents'
/// example position (the server's example bodies, the live page's example board).
pub const EXAMPLE_BOARD: [&str; 20] = [
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
    "....#.....",
    "#..###....",
    "##.####.#.",
    "###.#####.",
    "#####.###.",
    "##.######.",
    "#########.",
];

/// A position to analyze.
#[derive(Clone, Debug)]
pub struct AnalyzeRequest {
    /// The strategy's name.
    pub strategy: String,
    /// The board (a board file's, or an array's).
    pub board: Board,
    /// What the board is called in messages: `board file PATH`, or `board`.
    pub board_name: String,
    /// The known pieces, current piece first ([`tetris_arena_io::values::PieceList`]).
    pub pieces: Vec<Piece>,
    /// Every placement of the current piece instead of the best chain only.
    pub all: bool,
    /// The game-over rule the decision is made under (`None`: the searcher's); the console's
    /// only for a gravity-aware searcher.
    pub game_over: Option<GameOverRule>,
    /// The frame options of a gravity-aware searcher.
    pub frames: FrameOptions,
}

/// What a gravity-aware searcher is told about the frames (`--level`, `--tap-rate` or
/// `--timeline`, `--inputs`, `--entry-delay`); each `None` or `false` keeps the searcher's own.
#[derive(Clone, Copy, Debug, Default)]
pub struct FrameOptions {
    /// The level whose gravity the search simulates.
    pub level: Option<Level>,
    /// The player's input-frame timeline (a tap rate T is `X` and T − 1 dots).
    pub timeline: Option<Timeline>,
    /// The input model.
    pub inputs: Option<InputModel>,
    /// The current piece is a game's first, which floats before gravity starts.
    pub entry_delay: bool,
}

impl FrameOptions {
    /// Whether any frame option is given.
    pub fn any(self) -> bool {
        self.level.is_some() || self.timeline.is_some() || self.inputs.is_some() || self.entry_delay
    }
}

/// A rule of an analysis that the request breaks.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AnalyzeRequestError {
    /// Frame options for a searcher that ignores gravity.
    #[error(
        "{level}, {tap_rate}, {timeline}, {inputs} and {entry_delay} are for gravity-aware \
         searchers (gamepad); {0} ignores gravity",
        level = Field::LEVEL,
        tap_rate = Field::TAP_RATE,
        timeline = Field::TIMELINE,
        inputs = Field::INPUTS,
        entry_delay = Field::ENTRY_DELAY
    )]
    FramesNeedGravity(String),
    /// A board that is not at rest.
    #[error("{board}: line {line} is a full row (a board at rest has none)")]
    FullRow {
        /// The board's name in messages.
        board: String,
        /// The first full row's line (1-based, top first).
        line: u32,
    },
}

/// An analysis request, checked: the strategy, the position and the decision's context.
// Non-exhaustive: outside this crate a value comes only from its request's check.
#[non_exhaustive]
pub struct CheckedAnalysis {
    /// The strategy.
    pub strategy: Strategy,
    /// The board.
    pub board: Board,
    /// The known pieces.
    pub pieces: Vec<Piece>,
    /// The decision's context (game-over rule and frame timing).
    pub context: DecisionContext,
    /// Every placement of the current piece.
    pub all: bool,
}

impl AnalyzeRequest {
    /// Checks an analysis: the strategy, that it looks at every piece given, the game-over
    /// rule, that frame options go to a gravity-aware searcher, the pattern's height against
    /// the board's, and that the board is at rest (a full row would count as cleared by the
    /// first placement).
    pub fn check(self) -> Result<CheckedAnalysis, JobError> {
        let spec: tetris_registry::StrategySpec = self.strategy.parse()?;
        spec.check_inside("be analysed")?;
        let strategy = Strategy::new(spec)?;
        check_pieces_fit_depth(&strategy, &self.pieces)?;
        let game_over_rule = match self.game_over {
            // A gravity-aware search plays the console's frames, hidden rows and all, so it
            // can decide as `arena nes` does (the StackRabbit endpoints analyse NES positions
            // under the console's rule).
            Some(GameOverRule::Console) if strategy.frame_timing().is_some() => {
                GameOverRule::Console
            }
            explicit => frameless_game_over_rule(explicit, std::slice::from_ref(strategy.spec()))?,
        };
        let context = DecisionContext {
            game_over_rule,
            ..frame_context(self.frames, &strategy)?
        };
        check_pattern_height(&strategy, self.board.height(), Field::BOARD_HEIGHT)?;
        let full = self.board.full_rows();
        if full != 0 {
            return Err(AnalyzeRequestError::FullRow {
                board: self.board_name,
                line: full.trailing_zeros() + 1,
            }
            .into());
        }
        Ok(CheckedAnalysis {
            strategy,
            board: self.board,
            pieces: self.pieces,
            context,
            all: self.all,
        })
    }
}

impl CheckedAnalysis {
    /// The analysis: the best chain, or with `all` every placement of the current piece with
    /// the best chain starting there.
    pub fn analyze(mut self) -> Analysis {
        analyze_in(
            &mut self.strategy,
            &self.board,
            &self.pieces,
            self.context,
            self.all,
        )
    }
}

/// The decision's context that the frame options give a gravity-aware strategy; an error for
/// a strategy whose searcher ignores gravity.
fn frame_context(
    frames: FrameOptions,
    strategy: &Strategy,
) -> Result<DecisionContext, AnalyzeRequestError> {
    if !frames.any() {
        return Ok(DecisionContext::default());
    }
    let Some(mut timing) = strategy.frame_timing() else {
        return Err(AnalyzeRequestError::FramesNeedGravity(
            strategy.spec().searcher.clone(),
        ));
    };
    if let Some(level) = frames.level {
        timing.frames_per_row = tetris_core::scoring::frames_per_row(level.get()) as u8;
    }
    if let Some(timeline) = frames.timeline {
        timing.timeline = timeline;
    }
    if let Some(inputs) = frames.inputs {
        timing.inputs = inputs;
    }
    Ok(DecisionContext {
        frame_timing: Some(timing),
        entry_delay: frames.entry_delay,
        ..DecisionContext::default()
    })
}
