//! The option groups several commands share, each defined once and flattened into the
//! commands' `Args` (`#[command(flatten)]`), parsed straight into the request layer's typed
//! values ([`tetris_arena_io::values`]).

use tetris_core::{GameOverRule, GeneratorKind, InputModel, Timeline};

use tetris_arena_io::values::Shard;
use tetris_arena_io::values::{
    self, BoardHeight, Jobs, MaxPieces, ReactionFrames, StartLevel, TapRate,
};

/// `--generator`'s help: every generator name ([`GeneratorKind::NAMES`], so that a new
/// generator is listed where the option is) and `note`.
pub fn generator_help(note: &str) -> String {
    let names = GeneratorKind::NAMES;
    let (last, others) = names.split_last().expect("generators");
    format!("Piece generator: {} or {last}{note}", others.join(", "))
}

/// The rules of frame-less games: the pieces, the field and when a game is over (`play`,
/// `tournament`, `stats`).
#[derive(Debug, clap::Args)]
pub struct GameRules {
    /// The piece generator (its help lists [`GeneratorKind::NAMES`]: [`generator_help`]).
    #[arg(long, value_name = "G", default_value = "uniform", value_parser = values::generator,
          help = generator_help(" (a file gives every game the same sequence, from its start)"))]
    pub generator: GeneratorKind,
    /// Board rows, 4 to 32 (the width is always 10). A short field ends games sooner.
    #[arg(long, value_name = "H", default_value = "20")]
    pub board_height: BoardHeight,
    /// When a game is over: `simulation` (the next piece cannot spawn) or `literature` (a
    /// piece lands with a cell above row 0). Default: the searchers' (`literature` for drop,
    /// `simulation` for the others); strategies whose defaults differ need it.
    #[arg(long, value_name = "RULE", value_parser = values::game_over_rule)]
    pub game_over: Option<GameOverRule>,
}

/// The seed of a game or a run, defined once for every command that takes one (`play`,
/// `sequence`, `tournament`, `nes`, `stats`, `tune`).
#[derive(Debug, clap::Args)]
pub struct SeedOption {
    /// The seed, a whole number from 0 (default 0). In a run, game k (counted from 0) uses
    /// seed S + k for every strategy (`nes`: it draws the randomizer's start state; `stats
    /// --blocks`: block K's game j uses S + K x 2^32 + j); `tune`: the seed of the whole run
    /// (its starting population, every update and every game); `play` and `sequence`: the
    /// generator's seed. A file:PATH generator ignores it.
    #[arg(long, value_name = "S", default_value_t = 0, value_parser = values::seed, allow_hyphen_values = true)]
    pub seed: u64,
}

/// The worker threads of a run (`tournament`, `nes`, `stats`, `tune`).
#[derive(Debug, clap::Args)]
pub struct JobsOption {
    /// Games played at once, 1 to 256 (default: the available cores); never more threads than
    /// games. Results do not depend on it, only the timings do.
    #[arg(long, value_name = "J")]
    pub jobs: Option<Jobs>,
}

/// The piece cap of a game (`play`, `tournament`).
#[derive(Debug, clap::Args)]
pub struct PieceCap {
    /// Stop each game after this many pieces (at least 1). Without a cap a game runs until it
    /// is over, which strong strategies may never reach on 10 × 20: give a cap (e.g.
    /// --max-pieces 100000) or a shorter --board-height.
    #[arg(long, value_name = "N")]
    pub max_pieces: Option<MaxPieces>,
}

/// How a parallel run is carried out: its threads and its shard (`tournament`, `nes`,
/// `stats`; `tune` takes the threads alone).
#[derive(Debug, clap::Args)]
pub struct Parallel {
    /// The worker threads.
    #[command(flatten)]
    pub threads: JobsOption,
    /// Play only shard K of N (0 <= K < N, counted from 0): the games g with g % N = K (for
    /// `stats`, block K of N), with the seeds of the whole run; needs --out PART.json, where
    /// the shard's partial result is written instead of the report. `arena merge` of the N
    /// parts prints and writes exactly what the unsharded run would.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
}

/// The NES player: the level its games start at, its input timeline and model, and its
/// reaction time (`nes`, and `tune` with `--fitness plateau-score`).
#[derive(Debug, clap::Args)]
pub struct NesPlayerOptions {
    /// The level each game starts at, 0 to 29, below the stop level (`nes --to-level`; 29 for
    /// `tune`), with the console's level rules: from 18 the first level-up comes at 130
    /// lines, from 19 at 140, from 29 at 200, then one every 10 lines.
    #[arg(long, value_name = "L", default_value_t = StartLevel::PLATEAU)]
    pub start_level: StartLevel,
    /// Frames from one press of a button to the next press of the same thumb (Left/Right
    /// share one, A/B the other), for gravity-aware searchers: 2 = 30 presses per second (the
    /// published bot), 3 = 20, 4 = 15, 5 = 12, 8 = 7.5. At least 2, since a button must be
    /// released for a frame before it counts as pressed again; at most 8 (slower players use
    /// the delayed auto shift, which the gamepad search does not model). Searchers that ignore
    /// gravity ignore it.
    #[arg(long, value_name = "T", default_value_t = TapRate::PUBLISHED)]
    pub tap_rate: TapRate,
    /// The player's input-frame timeline in StackRabbit's notation, in place of --tap-rate:
    /// `X` for a frame on which an input may start, `.` for one without, repeating from each
    /// piece's first input frame. `X.` is --tap-rate 2, `X...` 4; mixed ones such as
    /// `X....X...X...` (3 inputs every 13 frames) are taken too (2 to 8 frames from each X to
    /// the next, at most 32 frames). Under `two-thumb` each thumb's presses follow the
    /// timeline's gaps from its first press; under `article` the press frames are its X
    /// frames. Recorded in every result. Not with --tap-rate.
    #[arg(long, value_name = "PATTERN", value_parser = values::timeline, conflicts_with = "tap_rate")]
    pub timeline: Option<Timeline>,
    /// The input model of gravity-aware searchers: `two-thumb` (a shift and a rotation may
    /// share a frame, each thumb pressing at most every T frames, with soft drop) or `article`
    /// (the published bot's: one of Left, Right, A, B or nothing on every T-th frame from the
    /// first, nothing between, no soft drop). Recorded in every result. Searchers that ignore
    /// gravity ignore it.
    #[arg(long, value_name = "MODEL", default_value = "two-thumb", value_parser = values::input_model)]
    pub inputs: InputModel,
    /// The player's reaction time, for gravity-aware searchers: the frames from a piece's
    /// spawn before the player sees the preview piece, 0 (at once, the default) to 60 (one
    /// second). For those frames it plays the first frames of the path whose re-plans are
    /// best averaged over the 7 possible previews, then plans again with the preview from
    /// where the piece and its thumbs are (docs/spec/search.md §3). BetaTetris's players take
    /// 18 frames (300 ms). Recorded in every result.
    #[arg(long, value_name = "R", default_value_t = ReactionFrames::NONE)]
    pub reaction_frames: ReactionFrames,
}

impl NesPlayerOptions {
    /// The player's timeline: `--timeline`, or `--tap-rate`'s (`X` and T − 1 dots).
    pub fn timeline(&self) -> Timeline {
        self.timeline.unwrap_or(self.tap_rate.timeline())
    }
}

/// A parser of one of the library's named kinds (a tuning method, a fitness): its names are
/// clap's possible values, each with its description (as `--help` lists them), and a name
/// parses to its kind. The kinds themselves know no clap: only this binary does.
pub fn named_kind<T: Copy + Send + Sync + 'static>(
    all: &'static [T],
    name: fn(T) -> &'static str,
    description: fn(T) -> &'static str,
) -> impl clap::builder::TypedValueParser<Value = T> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    PossibleValuesParser::new(
        all.iter()
            .map(|&kind| PossibleValue::new(name(kind)).help(description(kind))),
    )
    .map(move |text: String| {
        *all.iter()
            .find(|&&kind| name(kind) == text)
            .expect("clap accepts only the kinds' names")
    })
}
