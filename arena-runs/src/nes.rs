//! An `arena nes` run's finished games as the run keeps them: their exact summary
//! ([`NesTally`]) and, for a run of at most [`HELD_GAMES_LIMIT`] games, the games themselves
//! (for the report's list, its CSV and page, and a trace), so that the run's memory does not
//! grow with its games.

use tetris_arena_games::analysis::decision_time::DecisionTimes;
use tetris_arena_games::analysis::nes::NesTally;
use tetris_arena_games::sim::nes::NesGameResult;

use crate::RunEnd;
use crate::tournament::HELD_GAMES_LIMIT;

/// An NES run's (or one shard's) finished games.
pub struct NesRun {
    /// Every finished game, summarized (with every decision's time).
    pub tally: NesTally,
    /// Every finished game in game order, its decision times counted in the tally only: when
    /// the run plays at most [`HELD_GAMES_LIMIT`] games.
    pub games: Option<Vec<NesGameResult>>,
    /// How the run ended.
    pub end: RunEnd,
    /// Whether its games were written to a CSV file as they finished.
    pub games_streamed: bool,
}

/// Gathers an NES run's games as they are handed over in game order: each is counted in the
/// tally and, while the run holds its games, kept.
pub struct NesGames {
    tally: NesTally,
    games: Option<Vec<NesGameResult>>,
}

impl NesGames {
    /// Gathering for a run of `planned` games.
    pub fn new(planned: u64) -> NesGames {
        NesGames {
            tally: NesTally::default(),
            games: (planned <= HELD_GAMES_LIMIT).then(Vec::new),
        }
    }

    /// Counts (and keeps, when the run holds its games) one finished game.
    pub fn add(&mut self, mut game: NesGameResult) {
        self.tally.add(&game);
        if let Some(games) = self.games.as_mut() {
            // Counted in the tally: a kept game needs no histogram of its own.
            game.decision_times = DecisionTimes::default();
            games.push(game);
        }
    }

    /// The run, ended as `end` says.
    pub fn finish(self, end: RunEnd) -> NesRun {
        NesRun {
            tally: self.tally,
            games: self.games,
            end,
            games_streamed: false,
        }
    }
}
