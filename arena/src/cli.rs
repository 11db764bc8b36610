//! The command line: one subcommand per user job (docs/spec/arena.md, "Commands").

use clap::{Parser, Subcommand};

use crate::commands;
use tetris_arena_requests::error::ArenaError;

/// Play Tetris strategies (searcher × evaluator × lookahead depth) against each other on
/// identical pieces, and inspect how they judge a position.
///
/// Strategies are named `SEARCHER+EVALUATOR[:PRESET|:weights.json][,OPTION...][@DEPTH]`, e.g.
/// bfs+elashi@2, column-drop+dellacherie:original or drop+dellacherie:el-tetris,no-suicide
/// (options such as no-suicide or expectimax=K; `arena list` names and explains them all).
/// Coordinates: x = column from the left, y = row from the top, rotation = index into the NES
/// orientation table (0 = spawn). Values are costs: lower is better. Errors print one `error:`
/// line and exit with the code of their kind: 2 bad input, 3 a file the system could not read
/// or write, 4 an outside engine's fault, 5 an internal error, 130 interrupted.
#[derive(Debug, Parser)]
// `arena` alone is a missing command (one `error:` line with the usage and the hint, exit 2),
// not 20 lines of help.
#[command(name = "arena", version, arg_required_else_help = false)]
pub struct Cli {
    /// The job to run.
    #[command(subcommand)]
    pub command: Command,
}

/// The arena's jobs.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// List every searcher, evaluator, preset and generator.
    List(commands::list::Args),
    /// Print the first N pieces of a generator.
    Sequence(commands::sequence::Args),
    /// Print an evaluator's board features for a board file.
    Features(commands::features::Args),
    /// Show the best placement(s) of a strategy for a position.
    Analyze(commands::analyze::Args),
    /// Play one game.
    Play(commands::play::Args),
    /// Re-play a recorded game and check it.
    Replay(commands::replay::Args),
    /// Play every strategy on the same N piece sequences and compare them.
    Tournament(commands::tournament::Args),
    /// Tune an evaluator's weights by CEM, PSO or a genetic algorithm.
    Tune(commands::tune::Args),
    /// Play one task of `arena tune --runner` (one candidate's games) and write its result
    /// file; the tuner writes these command lines.
    TuneTask(commands::tune_task::Args),
    /// Count where a strategy's pieces lock and estimate its expected game length.
    Stats(commands::stats::Args),
    /// The NES plateau benchmark: frame-accurate NES games from a start level (19 by default)
    /// to a stop level (the level-29 transition by default) or a line cap; the score
    /// distribution.
    Nes(commands::nes::Args),
    /// Merge the parts of a sharded run (`tournament`, `nes` or `stats` with --shard K/N)
    /// into exactly the unsharded run's output.
    Merge(commands::merge::Args),
    /// Serve the engines over HTTP: a move server with a JSON API and StackRabbit's endpoints.
    Serve(commands::serve::Args),
    /// Write the live arena page: the engines in the browser (watch, duel, analyse), one
    /// self-contained HTML file.
    Web(commands::web::Args),
}

/// What stops a command: the arena's error, the server's, or a page this build lacks. Each
/// has one kind, which alone decides the exit code.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// An error of the arena's jobs and runs.
    #[error(transparent)]
    Arena(#[from] ArenaError),
    /// `arena serve`'s error.
    #[error(transparent)]
    Serve(#[from] tetris_arena_server::ServeError),
    /// `arena web` in an arena built without its page.
    #[error(transparent)]
    PageMissing(#[from] tetris_web_page::PageMissing),
}

impl CliError {
    /// What kind of failure this is.
    pub fn kind(&self) -> tetris_arena_io::ErrorKind {
        match self {
            CliError::Arena(error) => error.kind(),
            CliError::Serve(error) => error.kind(),
            CliError::PageMissing(error) => error.kind(),
        }
    }
}

impl From<tetris_arena_io::FileError> for CliError {
    fn from(error: tetris_arena_io::FileError) -> CliError {
        CliError::Arena(error.into())
    }
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> Result<(), CliError> {
    match cli.command {
        Command::List(args) => commands::list::run(args)?,
        Command::Sequence(args) => commands::sequence::run(args)?,
        Command::Features(args) => commands::features::run(args)?,
        Command::Analyze(args) => commands::analyze::run(args)?,
        Command::Play(args) => commands::play::run(args)?,
        Command::Replay(args) => commands::replay::run(args)?,
        Command::Tournament(args) => commands::tournament::run(args)?,
        Command::Tune(args) => commands::tune::run(args)?,
        Command::TuneTask(args) => commands::tune_task::run(args)?,
        Command::Stats(args) => commands::stats::run(args)?,
        Command::Nes(args) => commands::nes::run(args)?,
        Command::Merge(args) => commands::merge::run(args)?,
        Command::Serve(args) => commands::serve::run(args)?,
        Command::Web(args) => commands::web::run(args)?,
    }
    Ok(())
}
