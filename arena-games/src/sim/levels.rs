//! The level a page shows during a game (the replay viewer and the live page): the level of
//! the game's gravity, which for a gamepad game is not the level its score counts from.

use tetris_core::FrameTiming;
use tetris_core::scoring::{NesScore, frames_per_row};

/// The level a page shows during a game whose gravity is `timing`'s (the replay viewer and the
/// live page). Without a timing the game has no gravity and starts at level 0, the level its
/// score is counted from, rising every 10 lines. With one, it starts at the lowest level whose
/// gravity is the timing's frames per row (every timing a replay holds is some level's,
/// `check_frame_timing`) and rises by the NES rule from that start ([`NesScore`]), but not past
/// the last level of that gravity: a game without frames keeps its timing to the end.
#[derive(Clone, Debug)]
pub struct ShownLevels {
    score: NesScore,
    /// The level the game starts at.
    pub start: u8,
    /// The last level shown.
    pub last: u8,
}

impl ShownLevels {
    /// The levels of a game at `timing` (`None`: no gravity), before its first clear.
    pub fn new(timing: Option<FrameTiming>) -> ShownLevels {
        let (start, last) = match timing {
            None => (0, u8::MAX),
            Some(timing) => {
                let same = |level: &u8| frames_per_row(*level) == u32::from(timing.frames_per_row);
                let start = (0..=u8::MAX).find(same).unwrap_or(0);
                let last = (start..=u8::MAX).take_while(same).last().unwrap_or(start);
                (start, last)
            }
        };
        ShownLevels {
            score: NesScore::new(start),
            start,
            last,
        }
    }

    /// Counts a placement's cleared rows (0 to 4).
    pub fn add_cleared_rows(&mut self, rows: u8) {
        self.score.add_cleared_rows(rows);
    }

    /// The level shown now.
    pub fn level(&self) -> u8 {
        self.score.level().min(self.last)
    }
}
