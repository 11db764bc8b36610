//! `arena play STRATEGY`: one game, reported as text or as the contract's JSON, optionally
//! watched in the terminal and recorded as a replay.
//!
//! Text output gives the pieces, lines, score, how the game ended, the wall-clock time and
//! pieces per second. `--json` prints the JSON report (one placement per line, the layout of
//! every `--json`: docs/commands.md):
//! `{"strategy","generator","seed","board_height","pieces","lines","score","game_over",
//! "placements":[{"piece","x","y","rotation","cleared"}…]}` (docs/spec/arena.md's contract; `strategy` is
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

use std::path::PathBuf;

use crate::commands::options::{GameRules, PieceCap, SeedOption};
use tetris_arena_games::analysis::estimate::EstimateJson;
use tetris_arena_games::analysis::pieces::PieceStatistics;
use tetris_arena_games::sim::game::{GameEnd, PlayOptions};
use tetris_arena_games::sim::replay::Replay;
use tetris_arena_io::output::{print_output, print_to_stderr, write_output};
use tetris_arena_jobs::game::{CheckedGame, GameRequest, PlayOutputs, UncappedNote};
use tetris_arena_jobs::game_report::{PlayJson, play_text};
use tetris_arena_reports::html::viewer::verified_replay_page;
use tetris_arena_reports::terminal::{DEFAULT_SPEED, Watcher};
use tetris_arena_reports::watch::play_watched;
use tetris_arena_requests::error::ArenaError;
use tetris_arena_runs::games::play_observed_game;
use tetris_arena_runs::{Progress, interrupt};

/// Options of `arena play`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The strategy: `SEARCHER+EVALUATOR[:PRESET|:weights.json][,OPTION...][@DEPTH]`, e.g.
    /// bfs+elashi@2 or drop+dellacherie:el-tetris,no-suicide (`arena list` shows the names and
    /// options).
    pub strategy: String,
    /// The seed.
    #[command(flatten)]
    pub seed: SeedOption,
    /// The game's rules.
    #[command(flatten)]
    pub rules: GameRules,
    /// The piece cap.
    #[command(flatten)]
    pub cap: PieceCap,
    /// Print the result as JSON, one placement per line (no timings, so runs compare byte for
    /// byte).
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

impl Args {
    /// The game these options ask for.
    pub fn request(&self) -> GameRequest {
        GameRequest {
            strategy: self.strategy.clone(),
            generator: self.rules.generator.clone(),
            seed: self.seed.seed,
            max_pieces: self.cap.max_pieces,
            board_height: self.rules.board_height,
            game_over: self.rules.game_over,
        }
    }

    /// What the game shows and writes besides its result.
    pub fn outputs(&self) -> PlayOutputs {
        PlayOutputs {
            json: self.json,
            no_placements: self.no_placements,
            watch: self.watch,
            speed: self.speed,
            record: self.record.clone(),
            html: self.html.clone(),
            features: self.features,
        }
    }
}

/// Runs `arena play`.
pub fn run(args: Args) -> Result<(), ArenaError> {
    // Every check before the game: a bad option fails now rather than after a long game.
    let checked = args.request().check()?;
    args.outputs().check(&checked)?;
    let CheckedGame {
        mut strategy,
        settings,
        ..
    } = checked;
    let mut watcher = match args.watch {
        true => Some(Watcher::new(args.speed.unwrap_or(DEFAULT_SPEED))?),
        false => None,
    };
    let replayed = args.record.is_some() || args.html.is_some();
    if settings.max_pieces.is_none() && !args.json {
        print_to_stderr(&format!("note: {}", UncappedNote(settings.board_height)));
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
            settings.board_height.rows(),
            tetris_arena_runs::tournament::TOURNAMENT_ROW_RULE,
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
        return Err(ArenaError::Interrupted(format!(
            " after {} pieces: the game was not finished, so nothing was \
             printed or written",
            result.pieces
        )));
    }
    if replayed {
        let replay = Replay::record(&strategy, &settings, &result).map_err(ArenaError::Internal)?;
        if let Some(path) = &args.record {
            write_output("replay", path, replay.to_json().as_bytes())?;
        }
        if let Some(path) = &args.html {
            // The game's own replay verifies; a failure is a bug, not bad input.
            let page = verified_replay_page(&replay, None).map_err(ArenaError::Internal)?;
            write_output("replay viewer page", path, page.as_bytes())?;
        }
    }
    let estimate = statistics.map(|statistics| EstimateJson::of(statistics.fit().as_ref()));
    if args.json {
        let report = PlayJson::new(&strategy, &settings, &result, !args.no_placements);
        return Ok(print_output(&report.with_estimate(estimate).to_json())?);
    }
    let mut text = play_text(&strategy, &settings, &result, replayed);
    if let Some(estimate) = estimate {
        text.push_str(&format!("estimate   {}\n", estimate.text()));
    }
    Ok(print_output(&text)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;
    use tetris_core::GeneratorKind;

    #[derive(Parser)]
    struct Command {
        #[command(flatten)]
        args: Args,
    }

    /// The options' check, as `run` makes it: clap's parse, the outputs, the request.
    fn checked(line: &[&str]) -> Result<CheckedGame, String> {
        let args = Command::try_parse_from(std::iter::once("play").chain(line.iter().copied()))
            .map_err(|error| error.to_string())?
            .args;
        let game = args.request().check().map_err(|error| error.to_string())?;
        args.outputs()
            .check(&game)
            .map_err(|error| error.to_string())?;
        Ok(game)
    }

    #[test]
    fn settings_check_their_ranges() {
        let checked = checked(&["bfs+elashi", "--board-height", "4", "--max-pieces", "1"])
            .unwrap()
            .settings;
        assert_eq!(checked.board_height.get(), 4);
        assert_eq!(checked.max_pieces.map(|cap| cap.get()), Some(1));
        assert_eq!(checked.generator, GeneratorKind::Uniform);
        assert!(self::checked(&["bfs+elashi", "--board-height", "32"]).is_ok());
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
            assert!(self::checked(bad).is_err(), "{bad:?}");
        }
    }
}
