//! The option groups several commands share, each defined once and flattened into the
//! commands' `Args` (`#[command(flatten)]`), parsed straight into the request layer's typed
//! values ([`crate::request::values`]).

use tetris_core::{GameOverRule, GeneratorKind};

use crate::request::values::{self, BoardHeight, Jobs, MaxPieces};
use crate::run::shard::Shard;

/// The rules of frame-less games: the pieces, the field and when a game is over (`play`,
/// `tournament`, `stats`).
#[derive(Debug, clap::Args)]
pub struct GameRules {
    /// Piece generator: uniform, nes, bag7, sz, java or file:PATH (a file gives every game the
    /// same sequence, from its start).
    #[arg(long, value_name = "G", default_value = "uniform", value_parser = values::generator)]
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
/// `stats`).
#[derive(Debug, clap::Args)]
pub struct Parallel {
    /// Games played at once, 1 to 256 (default: the available cores); never more threads than
    /// games. Results do not depend on it, only the timings do.
    #[arg(long, value_name = "J")]
    pub jobs: Option<Jobs>,
    /// Play only shard K of N (0 <= K < N, counted from 0): the games g with g % N = K (for
    /// `stats`, block K of N), with the seeds of the whole run; needs --out PART.json, where
    /// the shard's partial result is written instead of the report. `arena merge` of the N
    /// parts prints and writes exactly what the unsharded run would.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
}
