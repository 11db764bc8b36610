//! `arena nes`: the NES plateau benchmark (rules.md, "The NES plateau benchmark"). One strategy
//! plays N frame-accurate NES games from level 19 until it tops out or a line clear reaches
//! level 29, and the score distribution is reported.
//!
//! # Rules of a run
//!
//! - Game k (0-based) uses seed `S + k`, as in `arena tournament`. The seed draws the NES
//!   randomizer's start state ([`tetris_core::generator::NesGenerator::with_frame_counting`]);
//!   from then on the randomizer steps once per simulated frame, as on the console, so from
//!   the third piece on the pieces depend on how many frames the strategy's moves took. Two
//!   strategies see the same first two pieces for a seed, not the same whole sequence.
//! - Each game is a [`NesGame`]: an empty 10 × 20 field, the start level, one preview piece,
//!   NES gravity, delays and level progression, line-clear points only (no soft-drop points),
//!   the displayed score capped at 999,999. It ends at a top-out (the next piece cannot spawn,
//!   or the strategy has no placement for the current piece) or when a line clear takes the
//!   level to the stop level (the clear that does it is scored).
//! - A gravity-aware searcher (one with a frame timing) is told the level's frame timing and
//!   the player's tap rate before every decision, and whether the piece is the game's first
//!   (with the 96-frame entry delay). The chosen placement's path, one button set per frame,
//!   is replayed through the core's literal frame model; it must lock the piece exactly where
//!   the search said, and anything else is an internal error (exit code 2).
//! - A searcher that ignores gravity (`bfs`, `column-drop`) has its chosen placement locked
//!   directly ([`NesGame::place_directly`]), as if gravity alone had brought the piece there.
//!   Many of its placements cannot be reached at 2 frames per row, so its results overrate
//!   it; the report says so.
//! - A strategy sees the current piece and, at depth 2, the preview. The NES shows one
//!   preview piece, so depths above 2 are refused.
//!
//! # Statistics (of the displayed score, capped at 999,999)
//!
//! Mean, median (the mean of the two middle scores for an even count), best, the share of
//! games at 999,999 (the max-out) and at 900,000 or more, and the mean of the best third: the
//! ⌈N/3⌉ highest scores (rounded up, so that one or two games still have a best third). The
//! Tetris share pools all games: rows cleared by Tetrises ÷ all rows cleared.
//!
//! # Determinism and Ctrl-C
//!
//! `--jobs` workers pull game numbers in order, each with its own engines, and every result is
//! stored at its game's place, so everything but the `timing` object (JSON) and the `seconds`
//! column (CSV) is identical whatever `--jobs` is. The first Ctrl-C stops handing out games
//! and stops the running ones after their current piece (dropped: half a game is no result);
//! the finished games are reported and written with `"interrupted": true` and the command
//! exits with an `error:` line (code 2). A second Ctrl-C quits at once without writing.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::{Value, json};
use tetris_core::scoring::MAX_SCORE;
use tetris_core::{
    Buttons, Input, NesGame, NesGameEnd, NesGameSettings, NesLock, NesScore, PieceState, Searcher,
};

use crate::error::ArenaError;
use crate::interrupt;
use crate::output::{print_output, write_atomically};
use crate::stats::{mean, median};
use crate::strategy::{Strategy, StrategySpec};

/// The plateau's start level (2 frames per row).
pub const PLATEAU_START_LEVEL: u8 = 19;
/// The plateau's stop level: the transition to 1 frame per row.
pub const PLATEAU_STOP_LEVEL: u8 = 29;
/// The score of a game that "maxed out": the most the NES displays.
pub const MAX_OUT_SCORE: u32 = MAX_SCORE;
/// The second score threshold the benchmark reports.
pub const NEAR_MAX_OUT_SCORE: u32 = 900_000;
/// The highest start level accepted: 28 is the last level with 2 frames per row.
pub const MAX_START_LEVEL: u8 = 28;
/// The fastest tapping: a button must be released for a frame before it counts as pressed
/// again, so one press every 2 frames (30 per second).
pub const MIN_TAP_RATE: u8 = 2;
/// The slowest tapping accepted, the gamepad search's slowest (`Gamepad::TAP_RATES`: 7.5
/// presses per second; slower players use the delayed auto shift, which the search does not
/// model). It is also well inside the dead frames between two pieces (10 at least), which the
/// search assumes cover the wait between presses of one thumb, so that every piece may press
/// at once on its first frame.
pub const MAX_TAP_RATE: u8 = *tetris_search_bfs::Gamepad::TAP_RATES.end();
/// The most games per run (every game's row is kept in memory).
const MAX_GAMES: u64 = 10_000_000;
/// The deepest lookahead: the current piece and the NES's single preview piece.
const MAX_NES_DEPTH: usize = 2;
/// NTSC frames per second (rules.md, "Timing").
const FRAMES_PER_SECOND: f64 = 60.0988;

/// The score rule, as printed and stored with the results.
const SCORE_RULE: &str = "NES line-clear points 40/100/300/1200 x (level + 1) with the level \
    after the clear's own level-up; no soft-drop points; the displayed score is capped at \
    999,999 (line_clear_points is the uncapped sum)";
/// The end rule, as printed and stored with the results.
const END_RULE: &str = "a game ends at a top-out (the next piece cannot spawn, or the strategy \
    has no placement for the current piece) or when a line clear reaches the stop level (that \
    clear is scored)";
/// The seed rule, as stored with the results.
const PIECE_RULE: &str = "NES randomizer: the seed draws its start state, then it steps once \
    per simulated frame, so from the third piece on the pieces depend on the frames the \
    strategy's moves took; one preview piece";
/// The best third's definition, as stored with the results.
const BEST_THIRD_RULE: &str = "mean of the ceil(N / 3) highest displayed scores";
/// The Tetris share's definition, as stored with the results.
const TETRIS_SHARE_RULE: &str = "rows cleared by Tetrises (4 x Tetrises) / all rows cleared, \
    pooled over all games";

/// Options of `arena nes`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The strategy: SEARCHER+EVALUATOR[:PRESET|:weights.json][@DEPTH], depth 1 or 2 (the NES
    /// shows one preview piece), e.g. gamepad+nes-plateau@2. A searcher that ignores gravity
    /// (bfs, column-drop) has its placements locked as if they were reachable; the report
    /// flags it.
    #[arg(value_name = "STRATEGY")]
    pub strategy: String,
    /// Games to play (1 to 10,000,000).
    #[arg(long, value_name = "N")]
    pub games: u64,
    /// Base seed: game k (counted from 0) uses seed S + k, which draws the NES randomizer's
    /// start state.
    #[arg(long, value_name = "S")]
    pub seed: u64,
    /// The level each game starts at, 0 to 28 (below --to-level).
    #[arg(long, value_name = "L", default_value_t = u32::from(PLATEAU_START_LEVEL))]
    pub start_level: u32,
    /// A game stops when a line clear takes the level to K (the clear is scored); 29 is the
    /// transition to one frame per row, at 230 lines from level 19. At most 255, above
    /// --start-level.
    #[arg(long, value_name = "K", default_value_t = u32::from(PLATEAU_STOP_LEVEL))]
    pub to_level: u32,
    /// Frames from one press of a button to the next press of the same thumb (Left/Right
    /// share one, A/B the other), for gravity-aware searchers: 2 = 30 presses per second (the
    /// published bot), 3 = 20, 4 = 15, 5 = 12, 8 = 7.5. At least 2, since a button must be
    /// released for a frame before it counts as pressed again; at most 8 (slower players use
    /// the delayed auto shift, which the gamepad search does not model). Searchers that ignore
    /// gravity ignore it.
    #[arg(long, value_name = "T", default_value_t = u32::from(MIN_TAP_RATE))]
    pub tap_rate: u32,
    /// Games played at once (at least 1; default: the available cores). Results do not
    /// depend on it, only the timings do.
    #[arg(long, value_name = "J")]
    pub jobs: Option<usize>,
    /// Write the report with every game to FILE, atomically: FILE.json (the --json report
    /// plus a `games` array) or FILE.csv (one row per game).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Print the report as one JSON object on stdout instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Runs `arena nes`.
pub fn run(args: Args) -> Result<(), ArenaError> {
    let rules = Rules::from_args(&args)?;
    let jobs = super::job_count(args.jobs)?;
    let output_format = match &args.out {
        Some(path) => Some(OutputFormat::of(path)?),
        None => None,
    };
    interrupt::install();
    let played = play_all(&rules, jobs)?;
    let report = Report::new(&rules, &played);
    if let (Some(path), Some(format)) = (&args.out, output_format) {
        let contents = match format {
            OutputFormat::Json => pretty(&report.to_json(true)),
            OutputFormat::Csv => report.to_csv(),
        };
        write_atomically(path, contents.as_bytes())?;
    }
    let printed = if args.json {
        pretty(&report.to_json(false))
    } else {
        report.to_text()
    };
    print_output(&printed)?;
    if played.interrupted {
        return Err(ArenaError::Usage(format!(
            "interrupted by Ctrl-C: {} of {} games finished; those were {}",
            played.games.len(),
            rules.games,
            match &args.out {
                Some(path) => format!("printed and written to {}", path.display()),
                None => "printed".to_string(),
            }
        )));
    }
    Ok(())
}

/// A JSON value as indented text with a final line break.
fn pretty(value: &Value) -> String {
    let mut text = serde_json::to_string_pretty(value).expect("results serialize");
    text.push('\n');
    text
}

/// The file formats of `--out`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum OutputFormat {
    /// The full JSON report.
    Json,
    /// One CSV row per game.
    Csv,
}

impl OutputFormat {
    /// The format named by `path`'s extension (any case); checks that its folder exists, so
    /// that a bad path fails before any game is played.
    fn of(path: &Path) -> Result<OutputFormat, ArenaError> {
        let shown = path.display();
        let extension = path
            .extension()
            .and_then(|extension| extension.to_str())
            .map(str::to_ascii_lowercase);
        let format = match extension.as_deref() {
            Some("json") => OutputFormat::Json,
            Some("csv") => OutputFormat::Csv,
            _ => {
                return Err(ArenaError::Usage(format!(
                    "--out {shown}: the file name must end in .json or .csv"
                )));
            }
        };
        let folder = match path.parent() {
            Some(folder) if !folder.as_os_str().is_empty() => folder,
            _ => Path::new("."),
        };
        if !folder.is_dir() {
            return Err(ArenaError::Io {
                path: shown.to_string(),
                message: format!("folder {} does not exist", folder.display()),
            });
        }
        Ok(format)
    }
}

/// Everything that decides the games of a run (the settings stored with the results).
struct Rules {
    /// The strategy.
    spec: StrategySpec,
    /// Whether its searcher ignores gravity.
    ignores_gravity: bool,
    /// Games to play.
    games: u64,
    /// Game k uses `seed + k`.
    seed: u64,
    /// The level games start at.
    start_level: u8,
    /// The level whose reaching ends a game.
    stop_level: u8,
    /// The player's tap rate (frames between presses of one thumb).
    tap_rate: u8,
}

impl Rules {
    /// Checks every option before any game starts.
    fn from_args(args: &Args) -> Result<Rules, ArenaError> {
        if !(1..=MAX_GAMES).contains(&args.games) {
            return Err(ArenaError::Usage(format!(
                "--games must be from 1 to {MAX_GAMES}"
            )));
        }
        if args.seed.checked_add(args.games - 1).is_none() {
            return Err(ArenaError::Usage(format!(
                "--seed {} + {} games overflows a 64-bit seed",
                args.seed, args.games
            )));
        }
        if args.start_level > u32::from(MAX_START_LEVEL) {
            return Err(ArenaError::Usage(format!(
                "--start-level {} is outside 0..={MAX_START_LEVEL}",
                args.start_level
            )));
        }
        if args.to_level > 255 || args.to_level <= args.start_level {
            return Err(ArenaError::Usage(format!(
                "--to-level {} must be above --start-level {} and at most 255",
                args.to_level, args.start_level
            )));
        }
        if !(u32::from(MIN_TAP_RATE)..=u32::from(MAX_TAP_RATE)).contains(&args.tap_rate) {
            return Err(ArenaError::Usage(format!(
                "--tap-rate {} is outside {MIN_TAP_RATE}..={MAX_TAP_RATE} (frames between two \
                 presses of the same button)",
                args.tap_rate
            )));
        }
        let spec: StrategySpec = args.strategy.parse()?;
        if spec.depth > MAX_NES_DEPTH {
            return Err(ArenaError::Strategy {
                strategy: spec.to_string(),
                message: format!(
                    "depth {} sees more pieces than the NES shows: use depth 1 or 2 (current \
                     piece and preview)",
                    spec.depth
                ),
            });
        }
        // Builds the engines once to reject unknown presets and bad weights files now.
        let mut strategy = Strategy::new(spec.clone())?;
        let ignores_gravity = strategy.searcher_mut().frame_timing().is_none();
        Ok(Rules {
            spec,
            ignores_gravity,
            games: args.games,
            seed: args.seed,
            start_level: args.start_level as u8,
            stop_level: args.to_level as u8,
            tap_rate: args.tap_rate as u8,
        })
    }

    /// The settings of game `game` (0-based).
    fn game_settings(&self, game: u64) -> NesGameSettings {
        NesGameSettings {
            start_level: self.start_level,
            stop_level: self.stop_level,
            seed: self.seed + game,
        }
    }

    /// How the seeds are derived, in words.
    fn seed_rule(&self) -> String {
        format!(
            "game k (0-based) uses seed {} + k (seeds {}..={})",
            self.seed,
            self.seed,
            self.seed + (self.games - 1)
        )
    }

    /// The line count at which the stop level is reached, one line at a time.
    fn stop_lines(&self) -> Option<u32> {
        stop_level_lines(self.start_level, self.stop_level)
    }

    /// The warning printed and stored for a searcher that ignores gravity.
    fn gravity_note(&self) -> Option<String> {
        self.ignores_gravity.then(|| {
            format!(
                "{} ignores gravity: its placements are not all reachable at this speed; each \
                 is locked as if gravity alone had brought the piece there, which overrates \
                 the strategy",
                self.spec.searcher
            )
        })
    }
}

/// The lines after which a game started at `start_level` reaches `stop_level`, counting lines
/// one at a time with the game's level rule; `None` if it is not reached within a million
/// lines (it always is for the levels the command accepts).
pub fn stop_level_lines(start_level: u8, stop_level: u8) -> Option<u32> {
    let mut score = NesScore::new(start_level);
    while score.level() != stop_level {
        if score.lines() >= 1_000_000 {
            return None;
        }
        score.add_cleared_rows(1);
    }
    Some(score.lines())
}

/// The result of one frame-accurate NES game.
#[derive(Clone, Debug, PartialEq)]
pub struct NesGameResult {
    /// The game's seed.
    pub seed: u64,
    /// The displayed score (capped at 999,999).
    pub score: u32,
    /// All line-clear points, uncapped.
    pub line_clear_points: u64,
    /// Rows cleared.
    pub lines: u32,
    /// The level at the end.
    pub level: u8,
    /// Pieces locked.
    pub pieces: u64,
    /// Frames from the game-start frame (0) to the last piece's lock frame (0 if no piece
    /// locked): the game's length at 60.0988 frames per second.
    pub frames: u64,
    /// `clears[n]`: locks that cleared n rows.
    pub clears: [u64; 5],
    /// Why the game ended.
    pub end: NesGameEnd,
    /// Wall-clock time of the game (timing only).
    pub elapsed: Duration,
}

/// Plays one frame-accurate NES game of `strategy` under `settings` (see the module
/// documentation for the rules). `tap_rate` is told to gravity-aware searchers. `stop` is
/// asked before every piece; when it says yes the game is abandoned and `Ok(None)` returned.
///
/// Errors: a gravity-aware searcher's path that does not lock the piece where the search said
/// (or no path, or a path that is not one button set per frame) is an internal error naming
/// the game's seed, the piece (counted from 1) and both states.
pub fn play_nes_game(
    strategy: &mut Strategy,
    settings: NesGameSettings,
    tap_rate: u8,
    stop: &dyn Fn() -> bool,
) -> Result<Option<NesGameResult>, ArenaError> {
    let start = Instant::now();
    let mut game = NesGame::new(settings);
    let gravity_aware = strategy.searcher_mut().frame_timing().is_some();
    // One button set per frame; grown once to the longest path of the game.
    let mut frames: Vec<Buttons> = Vec::new();
    let mut last_lock_frame = 0u64;
    let mut end = NesGameEnd::ToppedOut;
    loop {
        if let Some(game_end) = game.end() {
            end = game_end;
            break;
        }
        if stop() {
            return Ok(None);
        }
        let board = *game.board();
        let pieces = [game.current(), game.next()];
        if gravity_aware {
            let (searcher, _, chain) = strategy.parts_mut();
            // The level may change within a game (not from 19 to 28, but from other levels).
            searcher.set_frame_timing(game.frame_timing(tap_rate));
            chain.set_entry_delay(game.is_first_piece());
        }
        let Some(choice) = strategy.choose(&board, &pieces) else {
            // No placement for a piece that spawned: a top-out, as in the frame-less games.
            break;
        };
        let expected = choice.placement.state();
        let (piece_number, letter) = (game.pieces() + 1, game.current().letter());
        let failure = |message: String| {
            ArenaError::Internal(format!(
                "game seed {}, piece {piece_number} ({letter}): {message}",
                settings.seed
            ))
        };
        let spawn_frame = game.spawn_frame();
        let lock: NesLock = if gravity_aware {
            let path = strategy
                .path_inputs(&board, &choice.placement)
                .ok_or_else(|| {
                    failure(format!(
                        "the searcher gives no path to the {} it chose",
                        state_text(expected)
                    ))
                })?;
            frames.clear();
            for input in path {
                match *input {
                    Input::Frame(buttons) => frames.push(buttons),
                    other => {
                        return Err(failure(format!(
                            "the path to {} holds {other:?}, not one button set per frame",
                            state_text(expected)
                        )));
                    }
                }
            }
            let lock = game
                .play_frames(&frames)
                .map_err(|error| failure(format!("to {}: {error}", state_text(expected))))?;
            if lock.state != expected {
                return Err(failure(format!(
                    "the search's path should lock at {}, the frame model locked it at {}",
                    state_text(expected),
                    state_text(lock.state)
                )));
            }
            lock
        } else {
            game.place_directly(expected)
                .map_err(|error| failure(error.to_string()))?
        };
        last_lock_frame = spawn_frame + u64::from(lock.active_frames);
    }
    let score = game.score();
    Ok(Some(NesGameResult {
        seed: settings.seed,
        score: score.score(),
        line_clear_points: score.line_clear_points(),
        lines: score.lines(),
        level: score.level(),
        pieces: game.pieces(),
        frames: last_lock_frame,
        clears: game.clears(),
        end,
        elapsed: start.elapsed(),
    }))
}

/// A piece state in words.
fn state_text(state: PieceState) -> String {
    format!("x {}, y {}, rotation {}", state.x, state.y, state.rotation)
}

/// The score statistics of a run (of displayed scores, capped at 999,999).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScoreStatistics {
    /// Games.
    pub games: usize,
    /// The mean score.
    pub mean: f64,
    /// The median score (the mean of the two middle scores for an even count).
    pub median: f64,
    /// The highest score.
    pub best: u32,
    /// Games that reached 999,999 (the max-out) ÷ games.
    pub max_out_share: f64,
    /// Games with 900,000 or more ÷ games.
    pub near_max_out_share: f64,
    /// How many games the best third holds: ⌈games / 3⌉.
    pub best_third_games: usize,
    /// The mean of the ⌈games / 3⌉ highest scores.
    pub best_third_mean: f64,
}

impl ScoreStatistics {
    /// The statistics of `scores`; `None` when there are none.
    pub fn of(scores: &[u32]) -> Option<ScoreStatistics> {
        let values: Vec<f64> = scores.iter().map(|&score| f64::from(score)).collect();
        let mut descending = values.clone();
        descending.sort_by(|a, b| b.total_cmp(a));
        let best_third_games = scores.len().div_ceil(3);
        let share = |threshold: u32| {
            scores.iter().filter(|&&score| score >= threshold).count() as f64 / scores.len() as f64
        };
        Some(ScoreStatistics {
            games: scores.len(),
            mean: mean(&values)?,
            median: median(&values)?,
            best: scores.iter().copied().max()?,
            max_out_share: share(MAX_OUT_SCORE),
            near_max_out_share: share(NEAR_MAX_OUT_SCORE),
            best_third_games,
            best_third_mean: mean(&descending[..best_third_games])?,
        })
    }
}

/// The summary of a run's finished games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NesSummary {
    /// The score statistics (`None` when no game finished).
    pub scores: Option<ScoreStatistics>,
    /// The mean of the uncapped line-clear points.
    pub mean_line_clear_points: Option<f64>,
    /// The mean rows cleared per game.
    pub mean_lines: Option<f64>,
    /// Rows cleared over all games.
    pub total_lines: u64,
    /// Tetrises over all games.
    pub tetrises: u64,
    /// Rows cleared by Tetrises ÷ all rows cleared, pooled (`None` when no row was cleared).
    pub tetris_share: Option<f64>,
    /// Games that ended by a top-out.
    pub top_outs: usize,
    /// Games that reached the stop level.
    pub reached_stop_level: usize,
    /// The mean pieces per game.
    pub mean_pieces: Option<f64>,
    /// The mean game length in frames (to the last lock).
    pub mean_frames: Option<f64>,
    /// Pieces over all games.
    pub total_pieces: u64,
}

impl NesSummary {
    /// Summarizes `games` (summed in the order given).
    pub fn of(games: &[NesGameResult]) -> NesSummary {
        let scores: Vec<u32> = games.iter().map(|game| game.score).collect();
        let column = |value: fn(&NesGameResult) -> f64| -> Option<f64> {
            mean(&games.iter().map(value).collect::<Vec<f64>>())
        };
        let total_lines: u64 = games.iter().map(|game| u64::from(game.lines)).sum();
        let tetrises: u64 = games.iter().map(|game| game.clears[4]).sum();
        NesSummary {
            scores: ScoreStatistics::of(&scores),
            mean_line_clear_points: column(|game| game.line_clear_points as f64),
            mean_lines: column(|game| f64::from(game.lines)),
            total_lines,
            tetrises,
            tetris_share: (total_lines > 0).then(|| (4 * tetrises) as f64 / total_lines as f64),
            top_outs: games
                .iter()
                .filter(|game| game.end == NesGameEnd::ToppedOut)
                .count(),
            reached_stop_level: games
                .iter()
                .filter(|game| game.end == NesGameEnd::ReachedStopLevel)
                .count(),
            mean_pieces: column(|game| game.pieces as f64),
            mean_frames: column(|game| game.frames as f64),
            total_pieces: games.iter().map(|game| game.pieces).sum(),
        }
    }
}

/// The finished games of a run.
struct Played {
    /// Finished games in game order.
    games: Vec<NesGameResult>,
    /// Whether Ctrl-C stopped the run early.
    interrupted: bool,
    /// Workers used.
    jobs: usize,
    /// Wall-clock time of the whole run.
    wall: Duration,
}

/// The progress bar and the counters behind its message.
struct Progress {
    /// Games done out of all games; hidden when stderr is not a terminal.
    bar: ProgressBar,
    /// The sum of the finished games' scores.
    score_sum: AtomicU64,
    /// Games finished.
    finished: AtomicU64,
    /// When the run started.
    start: Instant,
}

impl Progress {
    /// A bar for `total` games on stderr.
    fn new(total: u64) -> Progress {
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template(
                "{bar:30} {pos}/{len} games, {msg}, elapsed {elapsed}, ETA {eta}",
            )
            .expect("the progress template is valid"),
        );
        bar.set_message("mean score -");
        Progress {
            bar,
            score_sum: AtomicU64::new(0),
            finished: AtomicU64::new(0),
            start: Instant::now(),
        }
    }

    /// Counts a finished game and refreshes the running mean score.
    fn finish_game(&self, score: u32) {
        let sum = self
            .score_sum
            .fetch_add(u64::from(score), Ordering::Relaxed)
            + u64::from(score);
        let finished = self.finished.fetch_add(1, Ordering::Relaxed) + 1;
        self.bar.inc(1);
        if !self.bar.is_hidden() {
            self.bar.set_message(format!(
                "mean score {}",
                thousands((sum as f64 / finished as f64).round() as u64)
            ));
        }
    }
}

/// Plays every game on `jobs` workers of a local rayon pool.
fn play_all(rules: &Rules, jobs: usize) -> Result<Played, ArenaError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|error| ArenaError::Usage(format!("cannot start {jobs} threads: {error}")))?;
    let progress = Progress::new(rules.games);
    let next_game = AtomicU64::new(0);
    let failed = AtomicBool::new(false);
    let interrupted = || interrupt::interrupted();
    // Each worker pulls the next game number, so games start in order and an interrupted run
    // has finished the first games.
    let worker = || -> Result<Vec<(u64, NesGameResult)>, ArenaError> {
        let mut strategy = Strategy::new(rules.spec.clone())?;
        let mut results = Vec::new();
        loop {
            if interrupted() || failed.load(Ordering::SeqCst) {
                break;
            }
            let game = next_game.fetch_add(1, Ordering::SeqCst);
            if game >= rules.games {
                break;
            }
            let settings = rules.game_settings(game);
            match play_nes_game(&mut strategy, settings, rules.tap_rate, &interrupted) {
                Ok(Some(result)) => {
                    progress.finish_game(result.score);
                    results.push((game, result));
                }
                // Stopped by Ctrl-C half-way: not a result.
                Ok(None) => break,
                Err(error) => {
                    failed.store(true, Ordering::SeqCst);
                    return Err(error);
                }
            }
        }
        Ok(results)
    };
    let worker_results = pool.broadcast(|_| worker());
    progress.bar.finish_and_clear();
    let mut numbered = Vec::new();
    for result in worker_results {
        numbered.extend(result?);
    }
    numbered.sort_by_key(|(game, _)| *game);
    let finished = numbered.len() as u64;
    Ok(Played {
        interrupted: interrupted() && finished < rules.games,
        games: numbered.into_iter().map(|(_, result)| result).collect(),
        jobs,
        wall: progress.start.elapsed(),
    })
}

/// A run's results and how to print them.
struct Report<'a> {
    /// The rules of the run.
    rules: &'a Rules,
    /// The games.
    played: &'a Played,
    /// Their summary.
    summary: NesSummary,
}

impl<'a> Report<'a> {
    /// Summarizes the games.
    fn new(rules: &'a Rules, played: &'a Played) -> Report<'a> {
        Report {
            rules,
            played,
            summary: NesSummary::of(&played.games),
        }
    }

    /// The settings object.
    fn settings_json(&self) -> Value {
        let rules = self.rules;
        json!({
            "games": rules.games,
            "seed": rules.seed,
            "seed_rule": rules.seed_rule(),
            "start_level": rules.start_level,
            "stop_level": rules.stop_level,
            "stop_level_lines": rules.stop_lines(),
            "tap_rate": rules.tap_rate,
            "board_width": 10,
            "board_height": 20,
            "preview_pieces": 1,
            "piece_rule": PIECE_RULE,
            "end_rule": END_RULE,
            "score_rule": SCORE_RULE,
            "best_third_rule": BEST_THIRD_RULE,
            "tetris_share_rule": TETRIS_SHARE_RULE,
        })
    }

    /// The summary object.
    fn summary_json(&self) -> Value {
        let summary = &self.summary;
        let scores = summary.scores;
        json!({
            "games": self.played.games.len(),
            "mean_score": scores.map(|scores| scores.mean),
            "median_score": scores.map(|scores| scores.median),
            "best_score": scores.map(|scores| scores.best),
            "share_at_least_999999": scores.map(|scores| scores.max_out_share),
            "share_at_least_900000": scores.map(|scores| scores.near_max_out_share),
            "best_third_games": scores.map(|scores| scores.best_third_games),
            "best_third_mean_score": scores.map(|scores| scores.best_third_mean),
            "mean_line_clear_points": summary.mean_line_clear_points,
            "mean_lines": summary.mean_lines,
            "total_lines": summary.total_lines,
            "tetrises": summary.tetrises,
            "tetris_share": summary.tetris_share,
            "top_outs": summary.top_outs,
            "reached_stop_level": summary.reached_stop_level,
            "mean_pieces": summary.mean_pieces,
            "mean_frames": summary.mean_frames,
            "total_pieces": summary.total_pieces,
        })
    }

    /// The whole report; `with_games` adds one row per game (for `--out`).
    fn to_json(&self, with_games: bool) -> Value {
        let spec = &self.rules.spec;
        let wall_seconds = self.played.wall.as_secs_f64();
        let mut report = json!({
            "strategy": spec.to_string(),
            "searcher": spec.searcher,
            "evaluator": spec.evaluator,
            "depth": spec.depth,
            "ignores_gravity": self.rules.ignores_gravity,
            "gravity_note": self.rules.gravity_note(),
            "settings": self.settings_json(),
            "interrupted": self.played.interrupted,
            "games_finished": self.played.games.len(),
            "games_planned": self.rules.games,
            "summary": self.summary_json(),
            "timing": {
                "jobs": self.played.jobs,
                "wall_seconds": wall_seconds,
                "pieces_per_second": (wall_seconds > 0.0)
                    .then(|| self.summary.total_pieces as f64 / wall_seconds),
                "game_seconds": self
                    .played
                    .games
                    .iter()
                    .map(|game| game.elapsed.as_secs_f64())
                    .collect::<Vec<f64>>(),
            },
        });
        if with_games {
            let games: Vec<Value> = self
                .played
                .games
                .iter()
                .map(|game| {
                    json!({
                        "game": game.seed - self.rules.seed,
                        "seed": game.seed,
                        "score": game.score,
                        "line_clear_points": game.line_clear_points,
                        "lines": game.lines,
                        "level": game.level,
                        "pieces": game.pieces,
                        "frames": game.frames,
                        "clears": game.clears,
                        "end": game.end.name(),
                    })
                })
                .collect();
            report["games"] = Value::Array(games);
        }
        report
    }

    /// One CSV row per game, with a header; `seconds` is the only timing column.
    fn to_csv(&self) -> String {
        let mut text = String::from(
            "game,seed,score,line_clear_points,lines,level,pieces,frames,no_clears,singles,\
             doubles,triples,tetrises,end,seconds\n",
        );
        for game in &self.played.games {
            let [none, singles, doubles, triples, tetrises] = game.clears;
            text.push_str(&format!(
                "{},{},{},{},{},{},{},{},{none},{singles},{doubles},{triples},{tetrises},{},{:.6}\n",
                game.seed - self.rules.seed,
                game.seed,
                game.score,
                game.line_clear_points,
                game.lines,
                game.level,
                game.pieces,
                game.frames,
                game.end.name(),
                game.elapsed.as_secs_f64(),
            ));
        }
        text
    }

    /// The report as text.
    fn to_text(&self) -> String {
        let rules = self.rules;
        let summary = &self.summary;
        let played = self.played;
        let mut text = format!(
            "NES plateau benchmark: {}, {} games\n",
            rules.spec, rules.games
        );
        if let Some(note) = rules.gravity_note() {
            text.push_str(&format!("note: {note}\n"));
        }
        let stop_lines = match rules.stop_lines() {
            Some(lines) => format!(" ({lines} lines)"),
            None => String::new(),
        };
        let tapping = if rules.ignores_gravity {
            "unused by this searcher".to_string()
        } else {
            format!(
                "one press per {} frames ({:.0} per second)",
                rules.tap_rate,
                FRAMES_PER_SECOND / f64::from(rules.tap_rate)
            )
        };
        text.push_str(&format!(
            "Levels: start {}, stop at the transition to {}{stop_lines}\n",
            rules.start_level, rules.stop_level
        ));
        text.push_str(&format!("Tapping: {tapping}\n"));
        text.push_str(&format!("Seeds: {}\n", rules.seed_rule()));
        text.push_str(&format!("Pieces: {PIECE_RULE}\n"));
        text.push_str(&format!("Score: {SCORE_RULE}\n"));
        if played.interrupted {
            text.push_str(&format!(
                "INTERRUPTED: {} of {} games finished; the statistics cover those\n",
                played.games.len(),
                rules.games
            ));
        }
        text.push('\n');
        let Some(scores) = summary.scores else {
            text.push_str("No game finished.\n");
            return text;
        };
        let games = scores.games;
        let count_share = |share: f64| {
            format!(
                "{:.1}% ({} of {games})",
                100.0 * share,
                (share * games as f64).round() as u64
            )
        };
        let optional = |value: Option<f64>, decimals: usize| match value {
            Some(value) => format!("{value:.decimals$}"),
            None => "-".to_string(),
        };
        let rows: Vec<(String, String)> = vec![
            ("mean score".into(), thousands(scores.mean.round() as u64)),
            (
                "median score".into(),
                thousands(scores.median.round() as u64),
            ),
            ("best score".into(), thousands(u64::from(scores.best))),
            (
                "score 999,999 (max-out)".into(),
                count_share(scores.max_out_share),
            ),
            (
                "score >= 900,000".into(),
                count_share(scores.near_max_out_share),
            ),
            (
                format!(
                    "mean of best third ({} of {games} games)",
                    scores.best_third_games
                ),
                thousands(scores.best_third_mean.round() as u64),
            ),
            (
                "mean line-clear points".into(),
                match summary.mean_line_clear_points {
                    Some(points) => thousands(points.round() as u64),
                    None => "-".to_string(),
                },
            ),
            ("mean lines".into(), optional(summary.mean_lines, 1)),
            (
                "tetris share".into(),
                match summary.tetris_share {
                    Some(share) => format!("{:.1}% of rows cleared", 100.0 * share),
                    None => "-".to_string(),
                },
            ),
            (
                "ended".into(),
                format!(
                    "{} topped out, {} reached level {}",
                    summary.top_outs, summary.reached_stop_level, rules.stop_level
                ),
            ),
            ("mean pieces".into(), optional(summary.mean_pieces, 1)),
            (
                "mean game length".into(),
                match summary.mean_frames {
                    Some(frames) => {
                        format!("{frames:.0} frames ({:.1} s)", frames / FRAMES_PER_SECOND)
                    }
                    None => "-".to_string(),
                },
            ),
        ];
        let width = rows.iter().map(|(name, _)| name.len()).max().unwrap_or(0);
        for (name, value) in rows {
            text.push_str(&format!("{name:<width$}  {value}\n"));
        }
        let wall = played.wall.as_secs_f64();
        text.push_str(&format!(
            "\nWall time {wall:.2} s with {} jobs, {} pieces/s.\n",
            played.jobs,
            if wall > 0.0 {
                thousands((summary.total_pieces as f64 / wall).round() as u64)
            } else {
                "-".to_string()
            }
        ));
        text
    }
}

/// `value` with a comma between groups of three digits.
fn thousands(value: u64) -> String {
    let digits = value.to_string();
    let mut text = String::with_capacity(digits.len() + digits.len() / 3);
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index) % 3 == 0 {
            text.push(',');
        }
        text.push(digit);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use tetris_core::FrameTiming;

    #[test]
    fn score_statistics_of_seven_hand_made_scores() {
        let scores = [500_000, 999_999, 0, 900_000, 120_000, 950_000, 300_000];
        let statistics = ScoreStatistics::of(&scores).unwrap();
        // Descending: 999,999 950,000 900,000 500,000 300,000 120,000 0.
        // Sum 3,769,999, so the mean is 3,769,999 / 7.
        assert_eq!(statistics.games, 7);
        assert!((statistics.mean - 3_769_999.0 / 7.0).abs() < 1e-6);
        assert_eq!(statistics.median, 500_000.0);
        assert_eq!(statistics.best, 999_999);
        // One game at the max-out; three at 900,000 or more (900,000 itself counts).
        assert_eq!(statistics.max_out_share, 1.0 / 7.0);
        assert_eq!(statistics.near_max_out_share, 3.0 / 7.0);
        // ⌈7 / 3⌉ = 3: (999,999 + 950,000 + 900,000) / 3 = 2,849,999 / 3.
        assert_eq!(statistics.best_third_games, 3);
        assert!((statistics.best_third_mean - 2_849_999.0 / 3.0).abs() < 1e-6);
    }

    #[test]
    fn score_statistics_of_even_and_tiny_counts() {
        let statistics = ScoreStatistics::of(&[10, 40, 20, 30]).unwrap();
        // Median of 10 20 30 40: (20 + 30) / 2; best third ⌈4 / 3⌉ = 2 games: (40 + 30) / 2.
        assert_eq!(statistics.median, 25.0);
        assert_eq!(statistics.best_third_games, 2);
        assert_eq!(statistics.best_third_mean, 35.0);
        assert_eq!(statistics.max_out_share, 0.0);
        let one = ScoreStatistics::of(&[999_999]).unwrap();
        assert_eq!(one.best_third_games, 1);
        assert_eq!(one.best_third_mean, 999_999.0);
        assert_eq!(one.max_out_share, 1.0);
        assert_eq!(one.near_max_out_share, 1.0);
        assert_eq!(ScoreStatistics::of(&[]), None);
    }

    fn result(score: u32, lines: u32, clears: [u64; 5], end: NesGameEnd) -> NesGameResult {
        NesGameResult {
            seed: 0,
            score,
            line_clear_points: u64::from(score),
            lines,
            level: 19,
            pieces: clears.iter().sum(),
            frames: 0,
            clears,
            end,
            elapsed: Duration::ZERO,
        }
    }

    #[test]
    fn the_tetris_share_pools_the_games() {
        // Game 1: 2 Tetrises + 2 singles = 10 rows; game 2: 1 double = 2 rows. Tetris rows
        // 8 of 12.
        let games = [
            result(1, 10, [5, 2, 0, 0, 2], NesGameEnd::ToppedOut),
            result(2, 2, [3, 0, 1, 0, 0], NesGameEnd::ReachedStopLevel),
        ];
        let summary = NesSummary::of(&games);
        assert_eq!(summary.tetris_share, Some(8.0 / 12.0));
        assert_eq!(summary.total_lines, 12);
        assert_eq!(summary.top_outs, 1);
        assert_eq!(summary.reached_stop_level, 1);
        assert_eq!(summary.mean_pieces, Some((9.0 + 4.0) / 2.0));
        assert_eq!(NesSummary::of(&[]).tetris_share, None);
    }

    #[test]
    fn the_stop_level_is_reached_at_the_lines_of_rules_md() {
        // rules.md: from 19 the first level-up is at 140 lines, then one every 10 lines, so
        // level 29 comes at 230; from 18 the first is at 130; from 0 at 10.
        assert_eq!(stop_level_lines(19, 29), Some(230));
        assert_eq!(stop_level_lines(19, 20), Some(140));
        assert_eq!(stop_level_lines(18, 19), Some(130));
        assert_eq!(stop_level_lines(0, 1), Some(10));
    }

    #[test]
    fn a_gravity_aware_searcher_is_told_the_level_speed_and_the_tap_rate() {
        let mut strategy = Strategy::from_name("gamepad+nes-plateau").unwrap();
        let settings = NesGameSettings {
            start_level: 19,
            stop_level: 20,
            seed: 1,
        };
        play_nes_game(&mut strategy, settings, 8, &|| false)
            .unwrap()
            .unwrap();
        // Level 19 (2 frames per row, rules.md) for every decision, since the game stops as
        // soon as the level turns 20; the tap rate as given.
        assert_eq!(
            strategy.searcher_mut().frame_timing(),
            Some(FrameTiming {
                frames_per_row: 2,
                tap_rate: 8
            })
        );
    }

    #[test]
    fn thousands_are_grouped() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(999_999), "999,999");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }

    #[test]
    fn a_column_drop_game_scores_its_clears_at_nes_values() {
        let mut strategy = Strategy::from_name("column-drop+nes-plateau").unwrap();
        let settings = NesGameSettings {
            start_level: 19,
            stop_level: 20,
            seed: 3,
        };
        let played = play_nes_game(&mut strategy, settings, 2, &|| false)
            .unwrap()
            .unwrap();
        assert_eq!(played.pieces, played.clears.iter().sum::<u64>());
        let rows: u64 = (1..5).map(|rows| rows as u64 * played.clears[rows]).sum();
        assert_eq!(rows, u64::from(played.lines));
        // Below 140 lines the level stays 19, so every clear is worth its base times 20.
        if played.lines < 140 {
            let expected: u64 = [40, 100, 300, 1200]
                .iter()
                .zip(&played.clears[1..])
                .map(|(base, count)| base * 20 * count)
                .sum();
            assert_eq!(played.line_clear_points, expected);
            assert_eq!(played.end, NesGameEnd::ToppedOut);
        } else {
            assert_eq!(played.end, NesGameEnd::ReachedStopLevel);
            assert_eq!(played.level, 20);
        }
        // Stopping before the first piece abandons the game.
        assert_eq!(
            play_nes_game(&mut strategy, settings, 2, &|| true).unwrap(),
            None
        );
    }
}
