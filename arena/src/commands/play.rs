//! `arena play STRATEGY`: one game, reported as text or as the contract's JSON, optionally
//! watched in the terminal and recorded as a replay.
//!
//! Text output gives the pieces, lines, score, how the game ended, the wall-clock time and
//! pieces per second. `--json` prints one line:
//! `{"strategy","generator","seed","board_height","pieces","lines","score","game_over",
//! "placements":[{"piece","x","y","rotation","cleared"}…]}` (arena.md's contract; `strategy` is
//! the canonical name, `piece` a letter, `--no-placements` drops the list). It holds nothing
//! that depends on timing, so two runs print the same bytes.
//!
//! `--record FILE` writes the game's replay and `--html OUT.html` its self-contained viewer
//! page (what `arena replay FILE --html OUT.html` writes); `--features` adds each choice's
//! cost and features to both.
//!
//! Without `--max-pieces` the game runs until it is over by its game-over rule (`--game-over`,
//! by default the searcher's: the next piece cannot spawn, or, for `drop`, a piece lands above
//! the field): strong strategies may never get there on 10 × 20, so give a cap or a shorter
//! `--board-height`.

use std::io::IsTerminal;
use std::path::PathBuf;

use tetris_core::{GeneratorKind, MAX_BOARD_HEIGHT, MIN_BOARD_HEIGHT};
use tetris_registry::Strategy;

use crate::analysis::pieces::PieceStatistics;
use crate::error::ArenaError;
use crate::input::game_over_rule;
use crate::report::game::{PlayJson, play_text};
use crate::report::html::viewer::verified_replay_page;
use crate::report::output::{check_output_file, print_output, print_to_stderr, write_atomically};
use crate::report::stats::EstimateJson;
use crate::report::terminal::{DEFAULT_SPEED, Watcher};
use crate::report::watch::play_watched;
use crate::run::games::play_observed_game;
use crate::run::{Progress, interrupt};
use crate::sim::game::{GameEnd, GameSettings, PlayOptions};
use crate::sim::replay::Replay;

/// Options of `arena play`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The strategy: `SEARCHER+EVALUATOR[:PRESET|:weights.json][,OPTION...][@DEPTH]`, e.g.
    /// bfs+elashi@2 or drop+dellacherie:el-tetris,no-suicide (`arena list` shows the names and
    /// options).
    pub strategy: String,
    /// Piece generator: uniform, nes, bag7, sz, java or file:PATH.
    #[arg(long, default_value = "uniform")]
    pub generator: String,
    /// The generator's seed (ignored by file:PATH).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Stop after this many pieces (at least 1). Without a cap the game runs until a piece
    /// cannot spawn, which strong strategies may never reach on 10 x 20: give a cap (e.g.
    /// --max-pieces 100000) or a shorter --board-height.
    #[arg(long, value_name = "N")]
    pub max_pieces: Option<u64>,
    /// Board rows, 4 to 32 (the board is always 10 columns wide).
    #[arg(long, default_value_t = 20, value_name = "H")]
    pub board_height: u64,
    /// When the game is over: `simulation` (the next piece cannot spawn) or `literature` (a
    /// piece lands with a cell above row 0). Default: the searcher's (`literature` for drop,
    /// `simulation` for the others).
    #[arg(long, value_name = "RULE")]
    pub game_over: Option<String>,
    /// Print the result as one line of JSON (no timings, so runs compare byte for byte).
    #[arg(long)]
    pub json: bool,
    /// With --json: leave out the list of placements.
    #[arg(long)]
    pub no_placements: bool,
    /// Render the board in the terminal after each placement, the placed piece highlighted.
    /// When stdout is not a terminal the frames are printed one after another, without
    /// escape codes.
    #[arg(long, conflicts_with = "json")]
    pub watch: bool,
    /// With --watch: pieces per second to show (default 10; `inf` for no pause).
    #[arg(long, value_name = "PIECES_PER_SECOND")]
    pub speed: Option<f64>,
    /// Write a replay of the game (rules, pieces, placements with input paths, result) to
    /// FILE as JSON, for `arena replay FILE`.
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Also estimate the expected game length from where this game's pieces locked (the
    /// `arena stats` fit): for games too long to play to the end or to play many of.
    #[arg(long, conflicts_with = "watch")]
    pub estimate: bool,
    /// Write the game to OUT.html as one self-contained replay viewer page (what `arena
    /// replay FILE --html OUT.html` writes for the recorded game).
    #[arg(long, value_name = "OUT.html")]
    pub html: Option<PathBuf>,
    /// With --record or --html: also keep the evaluator's cost and features of every chosen
    /// placement (the best chain's), for the viewer to show.
    #[arg(long)]
    pub features: bool,
}

/// Runs `arena play`.
pub fn run(args: Args) -> Result<(), ArenaError> {
    let mut strategy = Strategy::from_name(&args.strategy)?;
    let settings = settings(&args, &strategy)?;
    let mut watcher = match args.watch {
        true => Some(Watcher::new(args.speed.unwrap_or(DEFAULT_SPEED))?),
        false => None,
    };
    // Fail now rather than after a long game.
    if let Some(path) = &args.record {
        check_output_file("--record", path)?;
    }
    if let Some(path) = &args.html {
        check_output_file("--html", path)?;
    }
    let replayed = args.record.is_some() || args.html.is_some();
    if settings.max_pieces.is_none() && !args.json && std::io::stderr().is_terminal() {
        print_to_stderr(&format!(
            "note: no --max-pieces: strong strategies may play for a very long time on 10 x {}",
            settings.board_height
        ));
    }
    interrupt::install_with_note(
        "interrupted: the game stops after its current piece; an unfinished game is not \
         reported or recorded",
    );
    let options = PlayOptions {
        keep_placements: args.json && !args.no_placements,
        keep_paths: replayed,
        keep_evaluations: args.features,
    };
    let mut statistics = args.estimate.then(|| {
        let mut statistics = PieceStatistics::new(
            usize::from(settings.board_height),
            crate::run::tournament::TOURNAMENT_ROW_RULE,
        );
        statistics.start_game();
        statistics
    });
    let result = match watcher.as_mut() {
        Some(watcher) => play_watched(&mut strategy, &settings, options, watcher)?,
        None => {
            // A spinner of the pieces so far (on a terminal only): uncapped games of strong
            // strategies can last millions of pieces.
            let progress = Progress::game_pieces();
            let result = play_observed_game(
                &mut strategy,
                &settings,
                options,
                &progress,
                statistics.as_mut(),
            )?;
            progress.finish();
            result
        }
    };
    if let Some(watcher) = watcher {
        watcher.finish()?;
    }
    if result.end == GameEnd::Stopped {
        return Err(ArenaError::Usage(format!(
            "interrupted by Ctrl-C after {} pieces: the game was not finished, so nothing was \
             printed or written",
            result.pieces
        )));
    }
    if replayed {
        let replay = Replay::record(&strategy, &settings, &result).map_err(ArenaError::Internal)?;
        if let Some(path) = &args.record {
            write_atomically(path, replay.to_json().as_bytes())?;
        }
        if let Some(path) = &args.html {
            // The game's own replay verifies; a failure is a bug, not bad input.
            let page = verified_replay_page(&replay, None).map_err(ArenaError::Internal)?;
            write_atomically(path, page.as_bytes())?;
        }
    }
    let estimate = statistics.map(|statistics| EstimateJson::of(statistics.fit().as_ref()));
    if args.json {
        let report = PlayJson::new(&strategy, &settings, &result, !args.no_placements);
        return print_output(&report.with_estimate(estimate).to_line());
    }
    let mut text = play_text(&strategy, &settings, &result, replayed);
    if let Some(estimate) = estimate {
        text.push_str(&format!("estimate   {}\n", estimate.text()));
    }
    print_output(&text)
}

/// The game settings the options name, checked (with the options that need another one).
fn settings(args: &Args, strategy: &Strategy) -> Result<GameSettings, ArenaError> {
    // Checked here rather than with clap's `requires`, whose one-line error would not name
    // the missing option.
    if args.speed.is_some() && !args.watch {
        return Err(ArenaError::Usage("--speed needs --watch".into()));
    }
    if args.no_placements && !args.json {
        return Err(ArenaError::Usage("--no-placements needs --json".into()));
    }
    if args.features && args.record.is_none() && args.html.is_none() {
        return Err(ArenaError::Usage(
            "--features needs --record or --html (it adds to the replay)".into(),
        ));
    }
    let generator: GeneratorKind = args.generator.parse()?;
    let heights = u64::from(MIN_BOARD_HEIGHT)..=u64::from(MAX_BOARD_HEIGHT);
    if !heights.contains(&args.board_height) {
        return Err(ArenaError::Usage(format!(
            "--board-height {} is outside {MIN_BOARD_HEIGHT}..={MAX_BOARD_HEIGHT}",
            args.board_height
        )));
    }
    if args.max_pieces == Some(0) {
        return Err(ArenaError::Usage("--max-pieces must be at least 1".into()));
    }
    strategy.check_board_height(args.board_height as u8)?;
    Ok(GameSettings {
        board_height: args.board_height as u8,
        generator,
        seed: args.seed,
        max_pieces: args.max_pieces,
        game_over_rule: game_over_rule(args.game_over.as_deref(), &[strategy.spec().clone()])?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Command {
        #[command(flatten)]
        args: Args,
    }

    fn parse(line: &[&str]) -> Args {
        Command::try_parse_from(std::iter::once("play").chain(line.iter().copied()))
            .unwrap()
            .args
    }

    fn settings_of(args: &Args) -> Result<GameSettings, ArenaError> {
        settings(args, &Strategy::from_name(&args.strategy).unwrap())
    }

    #[test]
    fn settings_check_their_ranges() {
        let args = parse(&["bfs+elashi", "--board-height", "4", "--max-pieces", "1"]);
        let checked = settings_of(&args).unwrap();
        assert_eq!(checked.board_height, 4);
        assert_eq!(checked.max_pieces, Some(1));
        assert_eq!(checked.generator, GeneratorKind::Uniform);
        assert!(settings_of(&parse(&["bfs+elashi", "--board-height", "32"])).is_ok());
        for bad in [
            &["bfs+elashi", "--board-height", "3"][..],
            &["bfs+elashi", "--board-height", "33"],
            &["bfs+elashi", "--max-pieces", "0"],
            &["bfs+elashi", "--generator", "nope"],
            &["bfs+elashi", "--speed", "5"],
            &["bfs+elashi", "--no-placements"],
            &["bfs+elashi", "--game-over", "console"],
            &["bfs+elashi", "--features"],
        ] {
            assert!(settings_of(&parse(bad)).is_err(), "{bad:?}");
        }
    }
}
