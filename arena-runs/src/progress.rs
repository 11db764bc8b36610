//! The progress bar of a run, on stderr and only when stderr is a terminal (so it never mixes
//! with results or test output). When stderr is not a terminal (a log file, a batch job) a
//! long run still shows a sign of life: one `progress:` line on stderr every
//! [`Progress::LIFE_SIGN_SECONDS`] seconds, the first after that long, so short runs print
//! nothing.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicU64, Ordering};
use web_time::Instant;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use tetris_arena_io::format::thousands;

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
    /// Whether to print the off-terminal `progress:` lines (a visible bar's kind, with stderr
    /// not a terminal).
    life_signs: bool,
    /// Seconds after the start when the last `progress:` line was printed.
    last_life_sign: AtomicU64,
}

impl Progress {
    /// Pieces a worker counts before it reports them (reporting every piece would make the
    /// workers contend for the counter).
    pub const PIECES_PER_REPORT: u64 = 1 << 12;

    /// Seconds between two `progress:` lines when stderr is not a terminal.
    pub const LIFE_SIGN_SECONDS: u64 = 60;

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
            life_signs: shows != Shows::Nothing && !std::io::stderr().is_terminal(),
            last_life_sign: AtomicU64::new(0),
        }
    }

    /// A bar of `total` games showing the pieces per second; with `capped` false (games
    /// without a piece cap, which may never end) it shows no ETA, which would be a guess.
    pub fn games_and_speed(total: u64, capped: bool) -> Progress {
        let template = match capped {
            true => "{bar:30} {pos}/{len} games, {msg}, elapsed {elapsed}, ETA {eta}",
            false => "{bar:30} {pos}/{len} games, {msg}, elapsed {elapsed} (no piece cap)",
        };
        Progress::with(total, Shows::GamesAndSpeed, template)
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
        self.life_sign();
    }

    /// Prints a `progress:` line on stderr when it is not a terminal and
    /// [`Progress::LIFE_SIGN_SECONDS`] have passed since the last one (or the start).
    fn life_sign(&self) {
        if !self.life_signs {
            return;
        }
        if let Some(line) = self.life_sign_at(self.start.elapsed().as_secs()) {
            tetris_arena_io::output::print_to_stderr(&line);
        }
    }

    /// The `progress:` line due `now` seconds after the start, if one is: the first
    /// [`Progress::LIFE_SIGN_SECONDS`] after the start, then one per that many seconds. One
    /// thread wins the line; the others see the new time and get nothing.
    fn life_sign_at(&self, now: u64) -> Option<String> {
        let last = self.last_life_sign.load(Ordering::Relaxed);
        if now < last + Progress::LIFE_SIGN_SECONDS {
            return None;
        }
        self.last_life_sign
            .compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed)
            .ok()?;
        let pieces = thousands(self.pieces.load(Ordering::Relaxed));
        let done = match (self.shows, self.bar.length()) {
            (Shows::GamesAndSpeed | Shows::GamesAndMeanScore, Some(total)) => {
                format!("{}/{} games, {pieces} pieces", self.bar.position(), total)
            }
            (Shows::Pieces, Some(total)) => format!("{pieces} of {} pieces", thousands(total)),
            _ => format!("{pieces} pieces"),
        };
        Some(format!("progress: {done}, {now} s elapsed"))
    }

    /// Adds `pieces` placed pieces.
    pub fn add_pieces(&self, pieces: u64) {
        let total = self.pieces.fetch_add(pieces, Ordering::Relaxed) + pieces;
        self.life_sign();
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn off_the_terminal_a_long_run_prints_a_line_a_minute_and_a_short_one_none() {
        let progress = Progress::games_and_speed(10, true);
        progress.pieces.store(12_345, Ordering::Relaxed);
        progress.bar.set_position(3);
        assert_eq!(progress.life_sign_at(0), None);
        assert_eq!(progress.life_sign_at(59), None);
        assert_eq!(
            progress.life_sign_at(60).as_deref(),
            Some("progress: 3/10 games, 12,345 pieces, 60 s elapsed")
        );
        assert_eq!(progress.life_sign_at(61), None);
        assert_eq!(progress.life_sign_at(119), None);
        assert!(progress.life_sign_at(125).is_some());
        let pieces = Progress::pieces(1_000_000);
        pieces.pieces.store(4_096, Ordering::Relaxed);
        assert_eq!(
            pieces.life_sign_at(60).as_deref(),
            Some("progress: 4,096 of 1,000,000 pieces, 60 s elapsed")
        );
        // A hidden bar (a run inside another, or the Python package) never prints.
        assert!(!Progress::hidden().life_signs);
    }
}
