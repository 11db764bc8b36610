//! The levels of a game without frames (`arena play`, tournaments, replays, the page): one
//! level, both the level the score counts from and the level of the gravity the searcher
//! plays at (docs/rules-and-choices.md, "Levels of a game without frames").

use tetris_core::{FrameTiming, GameLevels};

/// The levels of a game whose searcher simulates `timing` (`None`: a searcher that ignores
/// gravity, whose game starts at level 0). A gravity-aware game starts at the lowest level of
/// its timing's gravity and rises by the NES rule up to the last level of that gravity
/// ([`GameLevels::of_gravity`]: 19 to 28 for 2 frames per row). Every timing a game can have is
/// some level's (the searchers' defaults; a replay's is checked by `check_frame_timing` first),
/// so the fallback to level 0 for another is never taken.
pub fn game_levels(timing: Option<FrameTiming>) -> GameLevels {
    timing
        .and_then(|timing| GameLevels::of_gravity(timing.frames_per_row))
        .unwrap_or(GameLevels::FROM_ZERO)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_gamepad_game_starts_at_its_gravitys_first_level() {
        assert_eq!(game_levels(None), GameLevels::FROM_ZERO);
        let published = game_levels(Some(FrameTiming::LEVEL_19_30_HZ));
        assert_eq!((published.start, published.last), (19, Some(28)));
        let level_29 = FrameTiming {
            frames_per_row: 1,
            ..FrameTiming::LEVEL_19_30_HZ
        };
        assert_eq!(game_levels(Some(level_29)).start, 29);
    }
}
