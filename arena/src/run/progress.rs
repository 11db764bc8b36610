//! The progress bar of a run, on stderr and only when stderr is a terminal (so it never mixes
//! with results or test output).

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::format::thousands;

/// What the bar counts and what its message shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shows {
    /// Finished games, with the pieces per second so far.
    GamesAndSpeed,
    /// Finished games, with the mean score so far.
    GamesAndMeanScore,
    /// Pieces placed, with their rate.
    Pieces,
    /// Pieces placed in one game of unknown length, with their rate (a spinner).
    GamePieces,
    /// Nothing (a run inside another bar, or tests).
    Nothing,
}

/// A run's progress bar and the counters behind its message. Workers report to it from any
/// thread.
pub struct Progress {
    bar: ProgressBar,
    shows: Shows,
    /// Pieces placed so far (reported in chunks by the workers).
    pieces: AtomicU64,
    /// The sum of the finished games' scores.
    score_sum: AtomicU64,
    /// Games whose score was reported.
    scored: AtomicU64,
    /// When the run started.
    start: Instant,
}

impl Progress {
    /// Pieces a worker counts before it reports them (reporting every piece would make the
    /// workers contend for the counter).
    pub const PIECES_PER_REPORT: u64 = 1 << 12;

    fn with(total: u64, shows: Shows, template: &str) -> Progress {
        let bar = match shows {
            Shows::Nothing => ProgressBar::hidden(),
            _ => ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr()),
        };
        bar.set_style(ProgressStyle::with_template(template).expect("the template is valid"));
        Progress {
            bar,
            shows,
            pieces: AtomicU64::new(0),
            score_sum: AtomicU64::new(0),
            scored: AtomicU64::new(0),
            start: Instant::now(),
        }
    }

    /// A bar of `total` games showing the pieces per second.
    pub fn games_and_speed(total: u64) -> Progress {
        Progress::with(
            total,
            Shows::GamesAndSpeed,
            "{bar:30} {pos}/{len} games, {msg}, elapsed {elapsed}, ETA {eta}",
        )
    }

    /// A bar of `total` games showing the mean score of the finished ones.
    pub fn games_and_mean_score(total: u64) -> Progress {
        let progress = Progress::with(
            total,
            Shows::GamesAndMeanScore,
            "{bar:30} {pos}/{len} games, {msg}, elapsed {elapsed}, ETA {eta}",
        );
        progress.bar.set_message("mean score -");
        progress
    }

    /// A bar of `total` pieces.
    pub fn pieces(total: u64) -> Progress {
        Progress::with(
            total,
            Shows::Pieces,
            "{bar:30} {pos}/{len} pieces, {per_sec}, elapsed {elapsed}, ETA {eta}",
        )
    }

    /// A spinner counting the pieces of one game of unknown length (`arena play` without a
    /// cap), with their rate.
    pub fn game_pieces() -> Progress {
        let progress = Progress::with(0, Shows::GamePieces, "{spinner} {msg}, elapsed {elapsed}");
        progress.bar.set_message("0 pieces");
        progress
    }

    /// No bar.
    pub fn hidden() -> Progress {
        Progress::with(0, Shows::Nothing, "{msg}")
    }

    /// Counts a finished task (a game, for the game bars).
    pub fn task_done(&self) {
        if matches!(self.shows, Shows::GamesAndSpeed | Shows::GamesAndMeanScore) {
            self.bar.inc(1);
        }
    }

    /// Adds `pieces` placed pieces.
    pub fn add_pieces(&self, pieces: u64) {
        let total = self.pieces.fetch_add(pieces, Ordering::Relaxed) + pieces;
        if self.bar.is_hidden() {
            return;
        }
        match self.shows {
            Shows::Pieces => self.bar.set_position(total),
            Shows::GamesAndSpeed | Shows::GamePieces => {
                // The pieces of the games still running count too, so that a run of a few
                // very long games (the literature's uncapped 10 x 20 games) shows progress.
                let seconds = self.start.elapsed().as_secs_f64().max(1e-9);
                self.bar.set_message(format!(
                    "{} pieces, {} pieces/s",
                    thousands(total),
                    thousands((total as f64 / seconds) as u64)
                ));
                if self.shows == Shows::GamePieces {
                    self.bar.tick();
                }
            }
            Shows::GamesAndMeanScore | Shows::Nothing => {}
        }
    }

    /// Adds a finished game's score to the running mean.
    pub fn add_score(&self, score: u32) {
        let sum = self
            .score_sum
            .fetch_add(u64::from(score), Ordering::Relaxed)
            + u64::from(score);
        let scored = self.scored.fetch_add(1, Ordering::Relaxed) + 1;
        if self.shows == Shows::GamesAndMeanScore && !self.bar.is_hidden() {
            self.bar.set_message(format!(
                "mean score {}",
                thousands((sum as f64 / scored as f64).round() as u64)
            ));
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
