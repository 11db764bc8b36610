//! The domain values of requests, each a type with ONE parser and ONE message.
//!
//! Every value a user hands a front end (the command line, the Python package, later the
//! server and the browser) is parsed here: clap parses options straight into these types
//! (`FromStr`, or the parser functions below for the core's enums), and the other front ends
//! build them with the same `TryFrom`/parser calls, so the same mistake gives the same message
//! everywhere. A message names the field it belongs to as a [`Field`], which each front end
//! spells in its own words when it writes the message ([`crate::fields`]): `--board-height 3
//! is outside 4..=32` on the command line, `board_height 3 is outside 4..=32` in Python and in
//! a JSON body.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize};

use thiserror::Error as ThisError;

use crate::fields::Field;
use tetris_core::{
    GameOverRule, GeneratorKind, InputModel, MAX_BOARD_HEIGHT, MIN_BOARD_HEIGHT, Piece, Timeline,
    TimelineError,
};

/// The most `--jobs` (worker threads) a run may ask for ([`Jobs`]): far above
/// any machine the arena runs on at full speed, far below the thread count where starting the
/// threads alone takes longer than the games (`--jobs 100000` used to run for minutes before
/// the first game).
pub const MAX_JOBS: usize = 256;

/// The most games per strategy in one run: every game's result is kept in memory.
pub const MAX_GAMES: u64 = 10_000_000;

/// The highest start level accepted: 29, the first level at 1 frame per row. The field's
/// starts are 18, 19 and 29; the unmodified game offers only 0–19 (nes-facts.md §4), and its
/// level rules hold for 29 as well (first level-up at 200 lines).
pub const MAX_START_LEVEL: u8 = tetris_core::scoring::ONE_FRAME_LEVEL;

/// The longest game a result file may record ([`game_duration`]): a year, in seconds. No
/// game of the arena lasts that long (the slowest, an NES game to level 39 at the deepest
/// search, takes minutes), and the bound keeps every sum of game times far from overflowing.
pub const MAX_GAME_SECONDS: u64 = 365 * 24 * 60 * 60;

/// Reads a game's wall-clock time as results write it (`{"secs": S, "nanos": N}`, serde's
/// form of a `Duration`), accepting only a time a game can take: nanoseconds below one
/// second (serde would carry 2,000,000,000 into the seconds) and at most
/// [`MAX_GAME_SECONDS`] seconds. The message names the field (`elapsed.nanos`).
pub fn game_duration<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<std::time::Duration, D::Error> {
    /// serde's fields of a `Duration`.
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Recorded {
        secs: u64,
        nanos: u32,
    }
    let Recorded { secs, nanos } = Recorded::deserialize(deserializer)?;
    if nanos >= 1_000_000_000 {
        return Err(serde::de::Error::custom(format!(
            "elapsed.nanos is {nanos}, but the nanoseconds of a duration are below 1000000000"
        )));
    }
    if secs > MAX_GAME_SECONDS {
        return Err(serde::de::Error::custom(format!(
            "elapsed.secs is {secs}, but a game lasts at most {MAX_GAME_SECONDS} seconds (a \
             year)"
        )));
    }
    Ok(std::time::Duration::new(secs, nanos))
}

/// The most reaction frames a player may have: the most frames a search can go on after
/// ([`tetris_core::MAX_PLAYED_FRAMES`], one second).
pub const MAX_REACTION_FRAMES: u8 = tetris_core::MAX_PLAYED_FRAMES as u8;

/// A value that is not one its option takes.
#[derive(Debug, Clone, PartialEq, ThisError)]
pub enum ValueError {
    /// A `--shard` that is not `K/N` with 0 ≤ K < N.
    #[error("{shard} {text:?}: {why}", shard = Field::SHARD)]
    Shard {
        /// The value as given.
        text: String,
        /// What is wrong with it.
        why: String,
    },
    /// More shards than a run has games (or blocks) to give them.
    #[error(
        "{field} {shard}: {count} shards for {games} {what} would leave shard {games}/{count} \
         empty (use at most {games} shards)",
        field = Field::SHARD
    )]
    ShardWithoutGames {
        /// The shard, `K/N`.
        shard: String,
        /// N.
        count: u64,
        /// The run's games (or blocks).
        games: u64,
        /// What they are (`games`, `blocks`).
        what: String,
    },
    /// A number outside its option's range.
    #[error("{option} {value} is outside {range}{note}")]
    OutOfRange {
        /// The field, e.g. `--board-height`.
        option: Field,
        /// The value as given.
        value: String,
        /// The range, e.g. `4..=32`.
        range: String,
        /// What the value means, in parentheses with a leading space, or empty.
        note: &'static str,
    },
    /// A count below its option's smallest value (which is the only bound).
    #[error("{option} must be at least {minimum}")]
    TooSmall {
        /// The field, e.g. `--max-pieces`.
        option: Field,
        /// The smallest value taken.
        minimum: u64,
    },
    /// Text where a whole number was expected.
    #[error("{option} {text:?} is not a whole number")]
    NotANumber {
        /// The field.
        option: Field,
        /// The text as given.
        text: String,
    },
    /// A name that names nothing (a generator, a game-over rule, an input model …): the
    /// core's message lists the valid names.
    #[error("{option}: {source}")]
    Unknown {
        /// The field.
        option: Field,
        /// What the core said.
        source: tetris_core::Error,
    },
    /// A `--seed` that is not a whole number from 0 to 2^64 - 1 (a negative one included).
    #[error(
        "{seed} {0:?} is not a seed: seeds are whole numbers from 0 to 18446744073709551615",
        seed = Field::SEED
    )]
    NotASeed(String),
    /// A `--pieces` list that is empty.
    #[error(
        "{pieces} is empty: give the current piece first, e.g. {example}",
        pieces = Field::PIECES,
        example = Field::PIECES.given("T,J")
    )]
    NoPieces,
    /// A `--pieces` list with something other than piece letters and single commas.
    #[error(
        "{pieces} {text:?}, column {column}: {problem} (piece letters T J Z O S L I, upper \
         case, e.g. {commas} or {together})",
        pieces = Field::PIECES,
        commas = Field::PIECES.given("T,J"),
        together = Field::PIECES.given("TJ")
    )]
    BadPieces {
        /// The list as given.
        text: String,
        /// The 1-based column (in characters) of the first mistake.
        column: usize,
        /// What is wrong there.
        problem: String,
    },
    /// An input-frame timeline that the gamepad search cannot follow (the one message of
    /// [`tetris_core::Timeline::parse`]).
    #[error(transparent)]
    Timeline(#[from] TimelineError),
    /// Both ways of giving the player's speed (the move server's body, the Python functions;
    /// the command line's options conflict in clap).
    #[error("give {tap_rate} or {timeline}, not both", tap_rate = Field::TAP_RATE, timeline = Field::TIMELINE)]
    TapRateAndTimeline,
    /// A field that takes one piece letter and got something else.
    #[error("{field} {text:?} is not a piece: one letter of T J Z O S L I, upper case")]
    NotAPiece {
        /// The field, e.g. `current`.
        field: Field,
        /// The text as given.
        text: String,
    },
    /// A `--row` rule name that names nothing.
    #[error("{row}: unknown row rule {0:?}: use pivot or top", row = Field::ROW)]
    UnknownRowRule(String),
    /// A strategy whose `pattern=FILE` picture is not as tall as the board it plays on.
    #[error(
        "strategy {strategy:?}: the pattern file has {rows} rows but the board has {height} \
         ({field})"
    )]
    PatternHeight {
        /// The strategy's name.
        strategy: String,
        /// The picture's rows.
        rows: u8,
        /// The board's rows.
        height: u8,
        /// The field that gave the board's rows.
        field: Field,
    },
}

impl ValueError {
    /// The same error about `field`: for a value the front end takes under a name of its own
    /// (Python's `empty_board(height)` is a [`BoardHeight`] named `height`).
    pub fn of_field(self, field: Field) -> ValueError {
        match self {
            ValueError::OutOfRange {
                value, range, note, ..
            } => ValueError::OutOfRange {
                option: field,
                value,
                range,
                note,
            },
            ValueError::TooSmall { minimum, .. } => ValueError::TooSmall {
                option: field,
                minimum,
            },
            ValueError::NotANumber { text, .. } => ValueError::NotANumber {
                option: field,
                text,
            },
            ValueError::Unknown { source, .. } => ValueError::Unknown {
                option: field,
                source,
            },
            ValueError::NotAPiece { text, .. } => ValueError::NotAPiece { field, text },
            ValueError::PatternHeight {
                strategy,
                rows,
                height,
                ..
            } => ValueError::PatternHeight {
                strategy,
                rows,
                height,
                field,
            },
            other => other,
        }
    }
}

/// Checks that `strategy` can play on a board `height` rows tall (given as `field`): a
/// `pattern=FILE` picture must have exactly that many rows.
pub fn check_pattern_height(
    strategy: &tetris_registry::Strategy,
    height: u8,
    field: Field,
) -> Result<(), ValueError> {
    match strategy.pattern_height() {
        Some(rows) if rows != height => Err(ValueError::PatternHeight {
            strategy: strategy.name(),
            rows,
            height,
            field,
        }),
        _ => Ok(()),
    }
}

/// Parses `text` as a whole number for `option`: digits only (a number too large for the
/// type is out of range, not "not a number").
fn whole_number(option: Field, text: &str) -> Result<u64, ValueError> {
    let digits = !text.is_empty() && text.bytes().all(|byte| byte.is_ascii_digit());
    if !digits {
        return Err(ValueError::NotANumber {
            option,
            text: text.to_string(),
        });
    }
    // Past 64 bits it is out of any range here: u64::MAX stands for it.
    Ok(text.parse::<u64>().unwrap_or(u64::MAX))
}

/// Serde for a typed value: written as the number itself, read as a number through the same
/// check as the option (a file's value out of range gets the option's message).
macro_rules! serde_through_check {
    ($name:ident) => {
        impl Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                self.0.serialize(serializer)
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<$name, D::Error> {
                $name::try_from(u64::deserialize(deserializer)?).map_err(serde::de::Error::custom)
            }
        }
    };
}

/// Declares an integer domain value with an inclusive range: the type, its `FromStr`, its
/// `TryFrom<u64>` (what the other front ends call) and its `Display`.
macro_rules! ranged_value {
    (
        $(#[$doc:meta])*
        $name:ident($inner:ty), field $field:ident, range $min:expr, $max:expr, note $note:literal
    ) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name($inner);

        impl $name {
            /// The field this value belongs to.
            pub const FIELD: Field = Field::$field;
            /// The smallest value.
            pub const MIN: $inner = $min;
            /// The largest value.
            pub const MAX: $inner = $max;

            /// The value.
            pub const fn get(self) -> $inner {
                self.0
            }

            /// The value shown as given (`text`), or the number itself.
            fn out_of_range(value: String) -> ValueError {
                ValueError::OutOfRange {
                    option: Self::FIELD,
                    value,
                    range: format!("{}..={}", Self::MIN, Self::MAX),
                    note: $note,
                }
            }
        }

        impl TryFrom<u64> for $name {
            type Error = ValueError;

            fn try_from(value: u64) -> Result<$name, ValueError> {
                <$inner>::try_from(value)
                    .ok()
                    .filter(|value| (Self::MIN..=Self::MAX).contains(value))
                    .map($name)
                    .ok_or_else(|| Self::out_of_range(value.to_string()))
            }
        }

        impl FromStr for $name {
            type Err = ValueError;

            fn from_str(text: &str) -> Result<$name, ValueError> {
                let number = whole_number(Self::FIELD, text)?;
                $name::try_from(number).map_err(|_| Self::out_of_range(text.to_string()))
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(formatter)
            }
        }

        serde_through_check!($name);
    };
}

/// Declares a count whose only bound is its smallest value, as [`ranged_value!`] does.
macro_rules! count_value {
    ($(#[$doc:meta])* $name:ident, field $field:ident, minimum $min:expr) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(u64);

        impl $name {
            /// The field this value belongs to.
            pub const FIELD: Field = Field::$field;
            /// The smallest value.
            pub const MIN: u64 = $min;

            /// The value.
            pub const fn get(self) -> u64 {
                self.0
            }
        }

        impl TryFrom<u64> for $name {
            type Error = ValueError;

            fn try_from(value: u64) -> Result<$name, ValueError> {
                match value >= Self::MIN {
                    true => Ok($name(value)),
                    false => Err(ValueError::TooSmall {
                        option: Self::FIELD,
                        minimum: Self::MIN,
                    }),
                }
            }
        }

        impl FromStr for $name {
            type Err = ValueError;

            fn from_str(text: &str) -> Result<$name, ValueError> {
                $name::try_from(whole_number(Self::FIELD, text)?)
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(formatter)
            }
        }

        serde_through_check!($name);
    };
}

/// Shard `index` of `count` (`--shard K/N`, 0-based: `0 ≤ index < count`). Also the `shard`
/// object of a part file (`{"index": K, "count": N}`), read through the same check, so no
/// shard that does not exist can be made. The games of a shard and the rest of sharding are
/// the runner's (`tetris_arena_runs::shard`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Shard {
    index: u64,
    count: u64,
}

impl Shard {
    /// The whole run, as one shard (`0/1`).
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Shard `index` of `count`, when it exists (`index < count`).
    pub fn new(index: u64, count: u64) -> Result<Shard, ValueError> {
        let fail = |why: String| ValueError::Shard {
            text: format!("{index}/{count}"),
            why,
        };
        if count == 0 {
            return Err(fail("N must be at least 1".into()));
        }
        if index >= count {
            return Err(fail(format!(
                "K must be below N: shards are numbered 0 to {} (K/N, e.g. 0/3)",
                count - 1
            )));
        }
        Ok(Shard { index, count })
    }

    /// K: which shard, from 0.
    pub const fn index(self) -> u64 {
        self.index
    }

    /// N: how many shards.
    pub const fn count(self) -> u64 {
        self.count
    }

    /// Whether this is the whole run.
    pub fn is_whole(self) -> bool {
        self.count == 1
    }

    /// The shard that game `game` belongs to, in a run of `count` shards.
    pub fn of_game(game: u64, count: u64) -> u64 {
        game % count
    }

    /// How many of a run's `games` games this shard holds.
    pub fn game_count(self, games: u64) -> u64 {
        if self.index >= games {
            0
        } else {
            (games - self.index).div_ceil(self.count)
        }
    }

    /// The `local`-th game (0-based) of this shard: `index + local × count`.
    pub fn game(self, local: u64) -> u64 {
        self.index + local * self.count
    }

    /// This shard's games of a run of `games` games, in increasing order.
    pub fn games(self, games: u64) -> impl Iterator<Item = u64> {
        (0..self.game_count(games)).map(move |local| self.game(local))
    }

    /// Checks that a run of `games` games (or stats blocks: `what`) gives this shard at least
    /// one.
    pub fn check_for(self, games: u64, what: &str) -> Result<(), ValueError> {
        if self.count > games {
            return Err(ValueError::ShardWithoutGames {
                shard: self.to_string(),
                count: self.count,
                games,
                what: what.to_string(),
            });
        }
        Ok(())
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(formatter, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = ValueError;

    /// `K/N` with 0 ≤ K < N (decimal integers).
    fn from_str(text: &str) -> Result<Shard, ValueError> {
        let fail = |why: String| ValueError::Shard {
            text: text.to_string(),
            why,
        };
        let (index, count) = text
            .split_once('/')
            .ok_or_else(|| fail("expected K/N, e.g. 0/3 (shards are numbered from 0)".into()))?;
        let number = |part: &str, name: &str| {
            if part.is_empty() || !part.bytes().all(|byte| byte.is_ascii_digit()) {
                return Err(fail(format!(
                    "{name} must be a whole number (K/N, e.g. 0/3)"
                )));
            }
            part.parse::<u64>()
                .map_err(|_| fail(format!("{name} is too large")))
        };
        let (index, count) = (number(index, "K")?, number(count, "N")?);
        Shard::new(index, count).map_err(|error| match error {
            ValueError::Shard { why, .. } => fail(why),
            other => other,
        })
    }
}

impl<'de> Deserialize<'de> for Shard {
    /// A part file's `{"index": K, "count": N}`, checked as `--shard K/N` is.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Shard, D::Error> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Fields {
            index: u64,
            count: u64,
        }
        let Fields { index, count } = Fields::deserialize(deserializer)?;
        Shard::new(index, count).map_err(|_| {
            serde::de::Error::custom(format!(
                "shard {index}/{count} does not exist (shards are 0/N to N-1/N)"
            ))
        })
    }
}

ranged_value! {
    /// The field's rows (`--board-height`): 4 to 32; the width is always 10.
    BoardHeight(u8), field BOARD_HEIGHT, range MIN_BOARD_HEIGHT, MAX_BOARD_HEIGHT, note ""
}

impl Default for BoardHeight {
    /// The standard field: 20 rows.
    fn default() -> BoardHeight {
        BoardHeight(tetris_core::DEFAULT_BOARD_HEIGHT)
    }
}

impl BoardHeight {
    /// The rows as a `usize`, for boards and tables.
    pub fn rows(self) -> usize {
        usize::from(self.0)
    }
}

ranged_value! {
    /// Frames between two presses of one thumb (`--tap-rate`): the gamepad search's range,
    /// [`tetris_registry::TAP_RATES`]; 2 is the published bot's 30 Hz.
    TapRate(u8), field TAP_RATE, range *tetris_registry::TAP_RATES.start(),
    *tetris_registry::TAP_RATES.end(), note " (frames between two presses of one thumb)"
}

ranged_value! {
    /// The games of a run, per strategy (`--games`): 1 to 10,000,000, since every game's
    /// result is kept in memory.
    GameCount(u64), field GAMES, range 1, MAX_GAMES, note ""
}

ranged_value! {
    /// Worker threads (`--jobs`): 1 to 256, far above any machine the arena runs on at full
    /// speed and far below the count where starting the threads alone outlasts the games.
    Jobs(usize), field JOBS, range 1, MAX_JOBS,
    note " (threads playing games at once; more than the cores only slows the run)"
}

impl Jobs {
    /// The job count of `jobs`, or by default the available cores (at most [`Jobs::MAX`]).
    pub fn count_or_cores(jobs: Option<Jobs>) -> usize {
        match jobs {
            Some(jobs) => jobs.get(),
            None => {
                std::thread::available_parallelism().map_or(1, |cores| cores.get().min(Jobs::MAX))
            }
        }
    }
}

ranged_value! {
    /// The level an NES game starts at (`--start-level`): 0 to 29 (arena's NES run; 18, 19
    /// and 29 are the field's starts), each with the console's first level-up.
    StartLevel(u8), field START_LEVEL, range 0, MAX_START_LEVEL, note ""
}

ranged_value! {
    /// Lookahead depth (`arena tune --depth`): pieces a decision looks at, 1 (the current
    /// piece) to the registry's most, as a strategy name's `@DEPTH`.
    Depth(usize), field DEPTH, range 1, tetris_registry::MAX_DEPTH, note ""
}

ranged_value! {
    /// Frames from a piece's spawn before the player sees the preview piece
    /// (`--reaction-frames`): 0 (at once) to 60, one second, the most frames a search goes on
    /// after ([`tetris_arena_games::sim::reaction`]). BetaTetris's players take 18 (300 ms).
    ReactionFrames(u8), field REACTION_FRAMES, range 0, MAX_REACTION_FRAMES,
    note " (frames from a piece's spawn before the player sees the preview piece)"
}

impl ReactionFrames {
    /// No reaction time: the player sees the preview piece at once.
    pub const NONE: ReactionFrames = ReactionFrames(0);
}

impl StartLevel {
    /// The plateau benchmark's start: level 19.
    pub const PLATEAU: StartLevel = StartLevel(tetris_core::PLATEAU_START_LEVEL);
}

impl TapRate {
    /// The published bot's: a press every 2 frames, 30 per second.
    pub const PUBLISHED: TapRate = TapRate(2);

    /// Its uniform timeline: `X` and T − 1 dots.
    pub fn timeline(self) -> Timeline {
        Timeline::uniform(self.0)
    }
}

ranged_value! {
    /// The level whose gravity a gravity-aware search simulates (`arena analyze --level`, the
    /// server's `level`): any level the console's byte holds, 0 to 255 (frames per row by
    /// docs/spec/rules.md).
    Level(u8), field LEVEL, range 0, 255, note ""
}

ranged_value! {
    /// The move server's worker threads (`arena serve --workers`): the searches that run at
    /// once.
    Workers(usize), field WORKERS, range 1, MAX_JOBS,
    note " (searches the server runs at once)"
}

ranged_value! {
    /// Requests the move server lets wait for a worker (`arena serve --max-queue`); one more
    /// is answered 503 at once.
    QueueLength(usize), field MAX_QUEUE, range 0, 100_000, note ""
}

/// The longest any of the move server's time limits may be set (`--timeout-ms` and the
/// connection timeouts): 10 minutes, in milliseconds.
pub const MAX_WAIT_MS: u64 = 600_000;

ranged_value! {
    /// The move server's time limit per request, in milliseconds (`arena serve --timeout-ms`):
    /// 1 ms to 10 minutes.
    TimeLimit(u64), field TIMEOUT_MS, range 1, MAX_WAIT_MS, note ""
}

ranged_value! {
    /// How long the move server waits for a request's head (its request line and headers),
    /// in milliseconds (`arena serve --header-timeout-ms`): 1 ms to 10 minutes.
    HeaderTimeout(u64), field HEADER_TIMEOUT_MS, range 1, MAX_WAIT_MS, note ""
}

ranged_value! {
    /// How long the move server keeps a connection that sends nothing and waits for no
    /// answer, in milliseconds (`arena serve --idle-timeout-ms`): 1 ms to 10 minutes.
    IdleTimeout(u64), field IDLE_TIMEOUT_MS, range 1, MAX_WAIT_MS, note ""
}

ranged_value! {
    /// How long the move server waits for a request's whole body, in milliseconds
    /// (`arena serve --body-timeout-ms`): 1 ms to 10 minutes.
    BodyTimeout(u64), field BODY_TIMEOUT_MS, range 1, MAX_WAIT_MS, note ""
}

ranged_value! {
    /// How long the move server waits for a client to take more of its answer, in
    /// milliseconds (`arena serve --write-timeout-ms`): 1 ms to 10 minutes.
    WriteTimeout(u64), field WRITE_TIMEOUT_MS, range 1, MAX_WAIT_MS, note ""
}

ranged_value! {
    /// How long the move server lets the requests in flight finish after SIGINT or SIGTERM,
    /// in milliseconds (`arena serve --shutdown-grace-ms`): 1 ms to 10 minutes.
    ShutdownGrace(u64), field SHUTDOWN_GRACE_MS, range 1, MAX_WAIT_MS, note ""
}

ranged_value! {
    /// The most connections the move server keeps open (`arena serve --max-connections`): 1
    /// to 100,000 (each holds a socket: the process's open-file limit must allow them).
    MaxConnections(usize), field MAX_CONNECTIONS, range 1, 100_000, note ""
}

ranged_value! {
    /// The largest request body the move server reads, in bytes (`arena serve --max-body`):
    /// 1 KiB to 16 MiB (a position is a few hundred bytes).
    BodyLimit(usize), field MAX_BODY, range 1024, 16 << 20, note ""
}

ranged_value! {
    /// How many ranked placements an analysis lists (the server's `top`): 1 to 200, more
    /// than any piece has placements on a 10-wide field.
    TopCount(usize), field TOP, range 1, 200, note ""
}

/// One piece, by its letter (`T J Z O S L I`, upper case), for `field`.
pub fn one_piece(field: Field, text: &str) -> Result<Piece, ValueError> {
    let mut letters = text.chars();
    match (letters.next().and_then(Piece::from_letter), letters.next()) {
        (Some(piece), None) => Ok(piece),
        _ => Err(ValueError::NotAPiece {
            field,
            text: text.to_string(),
        }),
    }
}

/// An input-frame timeline (`--timeline`, the move server's `inputFrameTimeline` and `/v1`'s
/// `timeline`), in StackRabbit's notation: `X` marks a frame on which an input may start, `.`
/// (or `-`) a frame without, and the pattern repeats from a piece's first input frame (`X.` =
/// 30 Hz, `X...` = 15 Hz, `X....X...X...` = 3 inputs every 13 frames). Parsed once by
/// [`Timeline::parse`], whose message every front end gives.
pub fn timeline(text: &str) -> Result<Timeline, ValueError> {
    Ok(Timeline::parse(text)?)
}

/// The player's timeline where a front end takes the speed under two names, a tap rate T
/// (`X` and T − 1 dots) or a timeline, at most one of them: `None` when neither is given.
pub fn tap_rate_or_timeline(
    tap_rate: Option<u64>,
    timeline: Option<&str>,
) -> Result<Option<Timeline>, ValueError> {
    match (tap_rate, timeline) {
        (Some(_), Some(_)) => Err(ValueError::TapRateAndTimeline),
        (Some(rate), None) => Ok(Some(TapRate::try_from(rate)?.timeline())),
        (None, Some(text)) => Ok(Some(self::timeline(text)?)),
        (None, None) => Ok(None),
    }
}

count_value! {
    /// The most pieces a game plays (`--max-pieces`): at least 1.
    MaxPieces, field MAX_PIECES, minimum 1
}

count_value! {
    /// The pieces a statistics run places (`arena stats --pieces`): at least 1.
    PieceCount, field PIECES, minimum 1
}

count_value! {
    /// How many pieces `arena sequence` prints (`--count`): at least 1.
    SequenceLength, field COUNT, minimum 1
}

/// A `--seed`: a whole number from 0 to 2^64 - 1. clap hands it `-1` too (the seed options
/// allow a leading hyphen), so a negative seed is refused here, in words, rather than taken
/// for an unknown option.
pub fn seed(text: &str) -> Result<u64, ValueError> {
    let digits = !text.is_empty() && text.bytes().all(|byte| byte.is_ascii_digit());
    text.parse::<u64>()
        .ok()
        .filter(|_| digits)
        .ok_or_else(|| ValueError::NotASeed(text.to_string()))
}

/// The piece generator of `--generator`: `uniform`, `nes`, `bag7`, `sz`, `java` or
/// `file:PATH` (the core's names).
pub fn generator(text: &str) -> Result<GeneratorKind, ValueError> {
    text.parse().map_err(|source| ValueError::Unknown {
        option: Field::GENERATOR,
        source,
    })
}

/// The game-over rule of `--game-over`: `simulation`, `literature` or `console`.
pub fn game_over_rule(text: &str) -> Result<GameOverRule, ValueError> {
    text.parse().map_err(|source| ValueError::Unknown {
        option: Field::GAME_OVER,
        source,
    })
}

/// The input model of `--inputs`: `two-thumb` or `article`.
pub fn input_model(text: &str) -> Result<InputModel, ValueError> {
    text.parse().map_err(|source| ValueError::Unknown {
        option: Field::INPUTS,
        source,
    })
}

/// The known pieces of `--pieces`: piece letters as a piece file writes them (upper case
/// `T J Z O S L I`, the one letter rule of `Piece::from_letter`), either run together (`TJI`)
/// or with one comma between two pieces (`T,J,I`). Anything else — lower case, a comma at
/// either end or two in a row, spaces — is an error naming the character and its column.
pub fn pieces(text: &str) -> Result<Vec<Piece>, ValueError> {
    let bad = |column: usize, problem: String| ValueError::BadPieces {
        text: text.to_string(),
        column,
        problem,
    };
    if text.is_empty() {
        return Err(ValueError::NoPieces);
    }
    let mut pieces = Vec::new();
    let mut after_comma = false;
    for (index, character) in text.chars().enumerate() {
        let column = index + 1;
        if character == ',' {
            if pieces.is_empty() || after_comma {
                return Err(bad(column, "a comma must stand between two pieces".into()));
            }
            after_comma = true;
            continue;
        }
        let piece = Piece::from_letter(character)
            .ok_or_else(|| bad(column, format!("{character:?} is not a piece letter")))?;
        pieces.push(piece);
        after_comma = false;
    }
    if after_comma {
        return Err(bad(
            text.chars().count(),
            "a comma must stand between two pieces".into(),
        ));
    }
    Ok(pieces)
}

/// The known pieces of `--pieces`, current piece first ([`pieces`] parses them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceList(pub Vec<Piece>);

impl FromStr for PieceList {
    type Err = ValueError;

    fn from_str(text: &str) -> Result<PieceList, ValueError> {
        pieces(text).map(PieceList)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_time_is_one_a_game_can_take() {
        #[derive(Debug, Deserialize)]
        struct Timed {
            #[serde(deserialize_with = "game_duration")]
            elapsed: std::time::Duration,
        }
        let read = |text: &str| serde_json::from_str::<Timed>(text).map(|timed| timed.elapsed);
        let year = r#"{"elapsed":{"secs":31536000,"nanos":999999999}}"#;
        assert_eq!(
            read(year).unwrap(),
            std::time::Duration::new(31_536_000, 999_999_999)
        );
        let refused = [
            (
                r#"{"elapsed":{"secs":31536001,"nanos":0}}"#,
                "elapsed.secs is 31536001, but a game lasts at most 31536000 seconds (a year)",
            ),
            (
                r#"{"elapsed":{"secs":0,"nanos":1000000000}}"#,
                "elapsed.nanos is 1000000000, but the nanoseconds of a duration are below \
                 1000000000",
            ),
        ];
        for (text, message) in refused {
            let error = read(text).unwrap_err().to_string();
            assert!(error.starts_with(message), "{error}");
        }
    }

    #[test]
    fn shards_parse_from_k_slash_n_counted_from_zero() {
        assert_eq!("0/3".parse::<Shard>().unwrap(), Shard::new(0, 3).unwrap());
        assert_eq!("2/3".parse::<Shard>().unwrap(), Shard::new(2, 3).unwrap());
        assert_eq!("0/1".parse::<Shard>().unwrap(), Shard::WHOLE);
        assert_eq!(Shard::new(2, 3).unwrap().to_string(), "2/3");
        for bad in [
            "3/3", "1/0", "0/0", "-1/3", "1", "a/3", "1/b", "1/3/4", "", "/3", "1/", " 1/3",
        ] {
            let error = bad.parse::<Shard>().unwrap_err().to_string();
            assert!(error.starts_with("--shard"), "{bad}: {error}");
            assert!(!error.contains('\n'), "{bad}: {error}");
        }
        assert!(
            "99999999999999999999/3"
                .parse::<Shard>()
                .unwrap_err()
                .to_string()
                .contains("too large")
        );
    }

    #[test]
    fn a_shard_read_from_a_file_is_checked_as_a_shard_given_as_an_option() {
        let read = |text: &str| serde_json::from_str::<Shard>(text).map_err(|e| e.to_string());
        assert_eq!(
            read(r#"{"index": 1, "count": 2}"#),
            Ok(Shard::new(1, 2).unwrap())
        );
        for (text, shown) in [
            (r#"{"index": 0, "count": 0}"#, "0/0"),
            (r#"{"index": 2, "count": 2}"#, "2/2"),
        ] {
            let error = read(text).unwrap_err();
            assert!(
                error.starts_with(&format!("shard {shown} does not exist")),
                "{text}: {error}"
            );
        }
        assert!(read(r#"{"index": 0, "count": 1, "x": 1}"#).is_err());
        assert_eq!(
            serde_json::to_string(&Shard::new(1, 2).unwrap()).unwrap(),
            r#"{"index":1,"count":2}"#
        );
    }

    #[test]
    fn one_piece_is_one_upper_case_letter() {
        assert_eq!(one_piece(Field::CURRENT, "T"), Ok(Piece::T));
        for bad in ["", "t", "TI", "X", "T "] {
            assert_eq!(
                one_piece(Field::CURRENT, bad).unwrap_err().to_string(),
                format!("current {bad:?} is not a piece: one letter of T J Z O S L I, upper case")
            );
        }
    }

    #[test]
    fn timelines_parse_once_with_the_cores_message() {
        // Uniform ones are the tap rates' timelines; a mixed one is taken as it is.
        for (text, rate) in [
            ("X.", 2),
            ("X-", 2),
            ("X.X.", 2),
            ("X...", 4),
            ("X.......", 8),
        ] {
            assert_eq!(
                timeline(text),
                Ok(TapRate::try_from(rate).unwrap().timeline()),
                "{text}"
            );
        }
        let mixed = timeline("X....X...X...").unwrap();
        assert_eq!(mixed.tap_rate(), None);
        assert_eq!(mixed.to_string(), "X....X...X...");
        for text in ["", "X.a", ".X", "X", "XX", "X.X", "X........"] {
            assert_eq!(
                timeline(text),
                Err(ValueError::Timeline(Timeline::parse(text).unwrap_err())),
                "{text}"
            );
        }
        assert!(
            timeline("X.X")
                .unwrap_err()
                .to_string()
                .starts_with("timeline \"X.X\": two X are adjacent")
        );
    }

    #[test]
    fn ranges_are_inclusive_and_messages_name_the_option() {
        assert_eq!("4".parse::<BoardHeight>().unwrap().get(), 4);
        assert_eq!("32".parse::<BoardHeight>().unwrap().get(), 32);
        assert_eq!(BoardHeight::default().get(), 20);
        for (text, message) in [
            ("3", "--board-height 3 is outside 4..=32"),
            ("33", "--board-height 33 is outside 4..=32"),
            ("300", "--board-height 300 is outside 4..=32"),
            (
                "99999999999999999999",
                "--board-height 99999999999999999999 is outside 4..=32",
            ),
            ("x", "--board-height \"x\" is not a whole number"),
            ("-1", "--board-height \"-1\" is not a whole number"),
            ("", "--board-height \"\" is not a whole number"),
        ] {
            assert_eq!(
                text.parse::<BoardHeight>().unwrap_err().to_string(),
                message
            );
        }
        assert_eq!(
            TapRate::try_from(300).unwrap_err().to_string(),
            "--tap-rate 300 is outside 2..=8 (frames between two presses of one thumb)"
        );
        assert_eq!(TapRate::try_from(2).unwrap().get(), 2);
        assert_eq!(
            GameCount::try_from(0).unwrap_err().to_string(),
            "--games 0 is outside 1..=10000000"
        );
        assert_eq!(
            "0".parse::<MaxPieces>().unwrap_err().to_string(),
            "--max-pieces must be at least 1"
        );
        assert_eq!(Jobs::count_or_cores(Some(Jobs::try_from(3).unwrap())), 3);
        assert_eq!(Jobs::try_from(256).unwrap().get(), 256);
        for bad in [0, 257, 100_000] {
            let message = Jobs::try_from(bad).unwrap_err().to_string();
            assert!(
                message.starts_with(&format!("--jobs {bad} is outside 1..=256")),
                "{message}"
            );
        }
        assert!((1..=256).contains(&Jobs::count_or_cores(None)));
    }

    #[test]
    fn messages_name_the_field_in_the_callers_words() {
        use crate::fields::Words;
        let height = BoardHeight::try_from(3).unwrap_err();
        assert_eq!(height.to_string(), "--board-height 3 is outside 4..=32");
        assert_eq!(
            Words::Python.message(&height),
            "board_height 3 is outside 4..=32"
        );
        assert_eq!(
            Words::Json.message(&height),
            "board_height 3 is outside 4..=32"
        );
        // Python's `empty_board(height)` names it `height`.
        assert_eq!(
            Words::Python.message(&height.of_field(Field::HEIGHT)),
            "height 3 is outside 4..=32"
        );
        assert_eq!(
            Words::Python.message(&"0".parse::<MaxPieces>().unwrap_err()),
            "max_pieces must be at least 1"
        );
        assert_eq!(
            Words::Json.message(&Level::try_from(300).unwrap_err()),
            "level 300 is outside 0..=255"
        );
        assert_eq!(
            Words::Python.message(&"x".parse::<Shard>().unwrap_err()),
            "shard \"x\": expected K/N, e.g. 0/3 (shards are numbered from 0)"
        );
        assert_eq!(
            Words::Python.message(&pieces("").unwrap_err()),
            "pieces is empty: give the current piece first, e.g. pieces=\"T,J\""
        );
        assert_eq!(
            pieces("").unwrap_err().to_string(),
            "--pieces is empty: give the current piece first, e.g. --pieces T,J"
        );
        let both = tap_rate_or_timeline(Some(2), Some("X.")).unwrap_err();
        assert_eq!(
            Words::Json.message(&both),
            "give tap_rate or timeline, not both"
        );
        assert_eq!(both.to_string(), "give --tap-rate or --timeline, not both");
        assert_eq!(
            Words::Json.message(&one_piece(Field::PREVIEW, "x").unwrap_err()),
            "preview \"x\" is not a piece: one letter of T J Z O S L I, upper case"
        );
        assert_eq!(
            Words::Python.message(&game_over_rule("nes").unwrap_err()),
            "game_over: unknown game-over rule \"nes\" (valid: simulation literature console)"
        );
    }

    #[test]
    fn a_pattern_must_be_as_tall_as_the_board_named_by_its_field() {
        use crate::fields::Words;
        let path = std::env::temp_dir().join(format!("values-pattern-{}.txt", std::process::id()));
        let rows = [".........."; 9].join("\n") + "\n##########\n";
        std::fs::write(&path, rows).unwrap();
        let name = format!("bfs+elashi,pattern={}", path.display());
        let strategy = tetris_registry::Strategy::from_name(&name).unwrap();
        assert_eq!(
            check_pattern_height(&strategy, 10, Field::BOARD_HEIGHT),
            Ok(())
        );
        let error = check_pattern_height(&strategy, 20, Field::BOARD_HEIGHT).unwrap_err();
        std::fs::remove_file(&path).unwrap();
        let shown = format!("{:?}", strategy.name());
        assert_eq!(
            error.to_string(),
            format!(
                "strategy {shown}: the pattern file has 10 rows but the board has 20 \
                 (--board-height)"
            )
        );
        assert_eq!(
            Words::Python.message(&error),
            format!(
                "strategy {shown}: the pattern file has 10 rows but the board has 20 \
                 (board_height)"
            )
        );
        let plain = tetris_registry::Strategy::from_name("bfs+elashi").unwrap();
        assert_eq!(check_pattern_height(&plain, 7, Field::BOARD_HEIGHT), Ok(()));
    }

    #[test]
    fn seeds_are_whole_numbers_of_64_bits() {
        assert_eq!(seed("0"), Ok(0));
        assert_eq!(seed("18446744073709551615"), Ok(u64::MAX));
        for bad in ["-1", "18446744073709551616", "+3", "1e3", ""] {
            assert_eq!(
                seed(bad).unwrap_err().to_string(),
                format!(
                    "--seed {bad:?} is not a seed: seeds are whole numbers from 0 to \
                     18446744073709551615"
                )
            );
        }
    }

    #[test]
    fn names_name_the_option_and_list_the_valid_ones() {
        assert_eq!(
            generator("bag8").unwrap_err().to_string(),
            "--generator: unknown generator \"bag8\" (valid: uniform nes bag7 sz java mdptetris file:PATH)"
        );
        assert_eq!(
            game_over_rule("nes").unwrap_err().to_string(),
            "--game-over: unknown game-over rule \"nes\" (valid: simulation literature console)"
        );
        assert_eq!(
            input_model("x").unwrap_err().to_string(),
            "--inputs: unknown input model \"x\" (valid: two-thumb article)"
        );
    }

    #[test]
    fn pieces_parse_with_or_without_commas() {
        let expected = vec![Piece::T, Piece::J, Piece::I];
        assert_eq!(pieces("T,J,I").unwrap(), expected);
        assert_eq!(pieces("TJI").unwrap(), expected);
        assert_eq!(pieces("T,JI").unwrap(), expected);
        assert!(pieces("T,X").is_err());
        assert!(pieces("").is_err());
        assert!(pieces(" , ").is_err());
    }

    #[test]
    fn pieces_reject_what_a_piece_file_rejects_and_stray_separators() {
        for (text, column) in [
            ("t", 1),
            ("T,", 2),
            (",T", 1),
            ("T,,J", 3),
            ("T J", 2),
            ("t, j ,i", 1),
        ] {
            let message = pieces(text).unwrap_err().to_string();
            assert!(
                message.starts_with(&format!("--pieces {text:?}, column {column}: ")),
                "{text}: {message}"
            );
        }
        assert!(
            pieces("t")
                .unwrap_err()
                .to_string()
                .contains("'t' is not a piece letter")
        );
    }
}
