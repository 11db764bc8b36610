//! NES levels, gravity and scoring (docs/spec/rules.md "Timing" and "Levels and scoring", docs/spec/nes-facts.md
//! §3.1, §4, §5).
//!
//! The game keeps the level in one byte and the lines and score in BCD; the rules here follow
//! those byte routines literally, so that every start level 0–255 behaves as on the console.
//! Values the console would show as garbage (level 30 and up, lines past 999) are still kept
//! as plain numbers: [`NesScore::lines`] is the true count.
//!
//! Soft-drop ("push-down") points are left out of the benchmarks (docs/spec/rules.md); they are modelled
//! by [`add_push_down_points`] and [`NesScore::add_push_down_points`] for a frame-accurate
//! driver, and [`NesScore::add_cleared_rows`] never adds them.

/// The most the displayed score can show; the game sets the score to this and keeps it there
/// when a sum would pass it.
pub const MAX_SCORE: u32 = 999_999;

/// Line-clear points for 0, 1, 2, 3 and 4 cleared rows before the (level + 1) factor.
pub const LINE_CLEAR_POINTS: [u32; 5] = [0, 40, 100, 300, 1200];

/// The first level that drops the piece one row every frame; every level from it up uses 1.
pub const ONE_FRAME_LEVEL: u8 = 29;

/// `framesPerDropTable` of the NTSC game for levels 0..=28.
const FRAMES_PER_ROW: [u8; ONE_FRAME_LEVEL as usize] = [
    48, 43, 38, 33, 28, 23, 18, 13, 8, 6, 5, 5, 5, 4, 4, 4, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
];

/// Frames per row of gravity at `level` (NTSC): the piece drops one row when its fall timer
/// reaches this many frames.
///
/// 0:48 1:43 2:38 3:33 4:28 5:23 6:18 7:13 8:8 9:6, 10–12:5, 13–15:4, 16–18:3, 19–28:2, and 1
/// for every level from 29 up (the game skips its table there), so 255 gives 1.
pub fn frames_per_row(level: u8) -> u32 {
    match FRAMES_PER_ROW.get(usize::from(level)) {
        Some(&frames) => u32::from(frames),
        None => 1,
    }
}

/// Whether the game raises `level` by one when the line counter has just reached `lines`
/// (counted one line at a time).
///
/// The game (`incrementLines`) checks only when the ones digit of the BCD line counter turns
/// to 0. It then reads the counter's hundreds byte and tens digit as one hex byte,
/// `v = (hundreds × 16 + tens) & 0xFF`, and levels up when `level − v` computed in 8 bits has
/// its sign bit set (a 6502 `cmp` then `bpl`). The hundreds byte is incremented in binary, so
/// `lines / 100` is its value (only its low 4 bits reach `v`).
fn levels_up_at(level: u8, lines: u32) -> bool {
    if lines % 10 != 0 {
        return false;
    }
    let tens = lines / 10 % 10;
    let hundreds = lines / 100;
    let hex_read = ((hundreds << 4) | tens) as u8;
    level.wrapping_sub(hex_read) & 0x80 != 0
}

/// Lines after which a game started at `start_level` makes its first level-up; from then on
/// the level rises every 10 lines.
///
/// 0–9 → 10 × (L + 1); 10–15 → 100; 16–24 → 10 × L − 50; 25–29 → 200 (the stock game offers
/// only 0–19). Start levels above 29 follow the same BCD rule as the game (see nes-facts §4),
/// which is no longer monotone: 30–31 → 200, 32–40 → 10 × L − 110, 41–47 → 300, and so on up
/// to 127 → 800 and 128 → 810, while 129–255 level up at 10 lines, because `level − 1` then
/// already has its sign bit set.
pub fn first_level_up_lines(start_level: u8) -> u32 {
    // Every start level finds a level-up before 2560 lines: the levelling window
    // `v ∈ level + 1 ..= level + 128 (mod 256)` always holds a reachable value of `v`.
    let mut lines = 10;
    while !levels_up_at(start_level, lines) {
        lines += 10;
    }
    lines
}

/// Converts a BCD byte (two decimal digits) to its value.
fn from_bcd(byte: u8) -> u32 {
    u32::from(byte >> 4) * 10 + u32::from(byte & 0x0F)
}

/// Converts a value 0..=99 to a BCD byte.
fn to_bcd(value: u32) -> u8 {
    (((value / 10) << 4) | (value % 10)) as u8
}

/// The displayed score after the game's push-down (soft-drop) points routine
/// (`addHoldDownPoints`, nes-facts §5) for `held_rows` soft-drop steps.
///
/// `held_rows` is the game's `holdDownPoints` byte: the soft-drop steps made while Down stayed
/// held, including the final failed step that locked the piece. Nothing is added unless
/// `held_rows − 2` is non-negative as a signed byte (so 2..=129). Otherwise the routine works on
/// the score's low BCD byte `b` (its tens and ones digits) only:
/// 1. `a = (b − 1) + held_rows`, in 8-bit binary (both wrap);
/// 2. if `a`'s low nibble is 10 or more, `a += 6` (8-bit);
/// 3. if `a`'s high nibble is 10 or more, the low nibble is dropped: `b = (a & 0xF0) + 0x60`
///    (8-bit) and the hundreds go up by one; else `b = a`.
///
/// So the result is `score + held_rows − 1` only for small values: 5 with 16 rows gives 14,
/// 99 with 3 rows gives 100. The hundreds carry is a plain byte increment that the line-clear
/// routine running right after it always normalises and caps, so the result is returned as a
/// number capped at [`MAX_SCORE`]. A `score` above [`MAX_SCORE`] is read as [`MAX_SCORE`], the
/// most the game holds. Benchmarks do not use this: docs/spec/rules.md leaves soft-drop points out.
pub fn add_push_down_points(score: u32, held_rows: u8) -> u32 {
    let score = score.min(MAX_SCORE);
    // The game tests `holdDownPoints < 2` with a signed branch (`cmp #2` then `bmi`).
    if held_rows.wrapping_sub(2) & 0x80 != 0 {
        return score;
    }
    let low_digits = score % 100;
    let mut sum = to_bcd(low_digits).wrapping_sub(1).wrapping_add(held_rows);
    if sum & 0x0F >= 0x0A {
        sum = sum.wrapping_add(0x06);
    }
    let new_low_digits = if sum & 0xF0 >= 0xA0 {
        from_bcd((sum & 0xF0).wrapping_add(0x60)) + 100
    } else {
        from_bcd(sum)
    };
    (score - low_digits + new_low_digits).min(MAX_SCORE)
}

/// Level, lines and score of one NES game (A-type), updated lock by lock.
///
/// Lines count one at a time for level purposes (see [`first_level_up_lines`]); the level is
/// the game's byte and wraps from 255 to 0 as the game's `inc` does, unless the score was made
/// for a game that keeps one gravity ([`GameLevels::score`]), whose level stops at the last
/// level of that gravity. Line-clear points are
/// `[0, 40, 100, 300, 1200][rows] × (level + 1)` with the level AFTER this clear's own
/// level-up. [`NesScore::score`] is the displayed score (capped at 999,999);
/// [`NesScore::line_clear_points`] is the uncapped sum of all line-clear points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NesScore {
    start_level: u8,
    level: u8,
    /// The level the counter stops at ([`GameLevels::last`]); `None`: the byte wraps.
    last_level: Option<u8>,
    lines: u32,
    score: u32,
    line_clear_points: u64,
}

/// The levels of a game without frames (`arena play`, tournaments, the page): where its level
/// starts and where it stops rising. The game's one level is both the level its score counts
/// from and, for a gravity-aware searcher, the level of the gravity it plays at.
///
/// - A game without gravity starts at level 0 and rises by the NES rule without end (the
///   console's byte, 255 then 0): [`GameLevels::FROM_ZERO`].
/// - A game whose searcher simulates gravity (the gamepad search: 2 frames per row unless told
///   otherwise) keeps that gravity from its first piece to its last, since a game without frames
///   never changes it. Its level is the level of that gravity: it starts at the lowest level of
///   that gravity (19 for 2 frames per row) and rises by the NES rule from there, up to the last
///   level of the same gravity (28 for 2 frames per row), where it stays; with 1 frame per row
///   (level 29 and up) it rises to 255 and stays ([`GameLevels::of_gravity`]). So the level
///   shown, the level scored and the gravity searched always agree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameLevels {
    /// The level of the first piece.
    pub start: u8,
    /// The highest level the game reaches (`None`: no limit, the level byte wraps past 255).
    pub last: Option<u8>,
}

impl GameLevels {
    /// A game without gravity: from level 0, rising without end.
    pub const FROM_ZERO: GameLevels = GameLevels {
        start: 0,
        last: None,
    };

    /// The levels of a game played at `frames` frames per row all through: from the lowest
    /// level of that gravity to the highest; `None` when no level has that gravity (0, or e.g.
    /// 7 frames per row).
    pub fn of_gravity(frames: u8) -> Option<GameLevels> {
        let same = |level: &u8| frames_per_row(*level) == u32::from(frames);
        let start = (0..=u8::MAX).find(same)?;
        let last = (start..=u8::MAX).take_while(same).last().unwrap_or(start);
        Some(GameLevels {
            start,
            last: Some(last),
        })
    }

    /// A new score of a game with these levels, before its first clear.
    pub fn score(self) -> NesScore {
        NesScore {
            last_level: self.last,
            ..NesScore::new(self.start)
        }
    }
}

impl NesScore {
    /// A new game at `start_level` with no lines and no points.
    pub fn new(start_level: u8) -> NesScore {
        NesScore {
            start_level,
            level: start_level,
            last_level: None,
            lines: 0,
            score: 0,
            line_clear_points: 0,
        }
    }

    /// The level the game started at.
    pub fn start_level(&self) -> u8 {
        self.start_level
    }

    /// The current level (the game's byte: after 255 comes 0).
    pub fn level(&self) -> u8 {
        self.level
    }

    /// Frames per row of gravity at the current level ([`frames_per_row`]).
    pub fn frames_per_row(&self) -> u32 {
        frames_per_row(self.level)
    }

    /// Lines cleared so far (the true count; the console's 3-digit display wraps past 999).
    pub fn lines(&self) -> u32 {
        self.lines
    }

    /// The displayed score: every point added so far, capped at [`MAX_SCORE`] (999,999).
    pub fn score(&self) -> u32 {
        self.score
    }

    /// The sum of all line-clear points without the 999,999 cap (push-down points are not in
    /// it). Equal to [`NesScore::score`] while no cap was hit and no push-down points were
    /// added; strong players pass the cap, and this still tells them apart.
    pub fn line_clear_points(&self) -> u64 {
        self.line_clear_points
    }

    /// Records a lock that cleared `rows` rows (0..=4) and returns the line-clear points it is
    /// worth (before the cap; the displayed score stops at 999,999).
    ///
    /// As in the game, the lines are counted one at a time first, each possibly raising the
    /// level by one, and the points then use the new level: a tetris that takes level 18 to 19
    /// scores 1200 × 20 = 24,000. Push-down points, if any, must be added before this call
    /// ([`NesScore::add_push_down_points`]), as the game adds them between the two steps.
    ///
    /// # Panics
    /// If `rows` is above 4: a piece spans at most four rows.
    pub fn add_cleared_rows(&mut self, rows: u8) -> u32 {
        assert!(rows <= 4, "a lock clears at most 4 rows, not {rows}");
        for _ in 0..rows {
            self.lines += 1;
            let held = self.last_level.is_some_and(|last| self.level >= last);
            if !held && levels_up_at(self.level, self.lines) {
                self.level = self.level.wrapping_add(1);
            }
        }
        // The game adds the points (level + 1) times with an 8-bit loop counter that wraps
        // from 0 to 256 iterations at level 255, the same as this wider product; the BCD sum is
        // exact until it passes 999,999, where the game pins it.
        let points = LINE_CLEAR_POINTS[usize::from(rows)] * (u32::from(self.level) + 1);
        self.score = (self.score + points).min(MAX_SCORE);
        self.line_clear_points += u64::from(points);
        points
    }

    /// Adds the push-down (soft-drop) points of a lock with `held_rows` soft-drop steps to the
    /// displayed score ([`add_push_down_points`]; not to [`NesScore::line_clear_points`]).
    /// Call it before [`NesScore::add_cleared_rows`] for the same lock: the quirky rule reads
    /// the score's last two digits, so the order changes the result. Benchmarks never call it.
    pub fn add_push_down_points(&mut self, held_rows: u8) {
        self.score = add_push_down_points(self.score, held_rows);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game state in the middle of play, for the vectors that start from one.
    fn game_at(start_level: u8, level: u8, lines: u32, score: u32) -> NesScore {
        NesScore {
            start_level,
            level,
            last_level: None,
            lines,
            score,
            line_clear_points: u64::from(score),
        }
    }

    /// Clears single rows until the game has `lines` lines.
    fn clear_singles_until(game: &mut NesScore, lines: u32) {
        while game.lines() < lines {
            game.add_cleared_rows(1);
        }
    }

    #[test]
    fn a_gravitys_levels_are_the_levels_of_the_frames_per_row_table() {
        // docs/spec/rules.md "Timing": 19–28 fall 2 frames per row, 29 and up 1, 10–12 5,
        // level 0 alone 48; no level falls 7 or 0 frames per row.
        let levels = |start, last| {
            Some(GameLevels {
                start,
                last: Some(last),
            })
        };
        assert_eq!(GameLevels::of_gravity(2), levels(19, 28));
        assert_eq!(GameLevels::of_gravity(1), levels(29, 255));
        assert_eq!(GameLevels::of_gravity(5), levels(10, 12));
        assert_eq!(GameLevels::of_gravity(48), levels(0, 0));
        assert_eq!(GameLevels::of_gravity(7), None);
        assert_eq!(GameLevels::of_gravity(0), None);
    }

    #[test]
    fn a_game_at_one_gravity_levels_up_by_the_nes_rule_and_stops_at_its_last_level() {
        let mut game = GameLevels::of_gravity(2).unwrap().score();
        assert_eq!(game.level(), 19);
        // From 19 the first level-up comes at 140 lines (rules.md), then every 10 lines.
        clear_singles_until(&mut game, 139);
        assert_eq!(game.level(), 19);
        game.add_cleared_rows(1);
        assert_eq!(game.level(), 20);
        // The console reaches 29 at 230 lines; 2 frames per row stop at 28.
        clear_singles_until(&mut game, 229);
        assert_eq!(game.level(), 28);
        let before = game.score();
        assert_eq!(game.add_cleared_rows(4), 1200 * 29, "a tetris at level 28");
        assert_eq!(game.level(), 28);
        assert_eq!(game.score(), (before + 34_800).min(MAX_SCORE));
        // Without gravity: from 0, a level every ten lines, past 28 and 29.
        let mut free = GameLevels::FROM_ZERO.score();
        assert_eq!(free, NesScore::new(0));
        clear_singles_until(&mut free, 1000);
        assert_eq!(free.level(), 100);
        // 1 frame per row: from 29, whose first level-up comes at 200 lines (rules.md).
        let mut fast = GameLevels::of_gravity(1).unwrap().score();
        clear_singles_until(&mut fast, 199);
        assert_eq!(fast.level(), 29);
        fast.add_cleared_rows(1);
        assert_eq!(fast.level(), 30);
    }

    #[test]
    fn frames_per_row_vectors() {
        // nes-facts §8 item 7.
        for (level, frames) in [
            (0, 48),
            (9, 6),
            (18, 3),
            (19, 2),
            (28, 2),
            (29, 1),
            (30, 1),
            (255, 1),
        ] {
            assert_eq!(frames_per_row(level), frames, "level {level}");
        }
    }

    #[test]
    fn frames_per_row_whole_table() {
        // docs/spec/rules.md "Timing": 0:48 1:43 ... 9:6, 10–12:5, 13–15:4, 16–18:3, 19–28:2, 29+:1.
        let expected = [
            48, 43, 38, 33, 28, 23, 18, 13, 8, 6, // 0..=9
            5, 5, 5, 4, 4, 4, 3, 3, 3, // 10..=18
            2, 2, 2, 2, 2, 2, 2, 2, 2, 2, // 19..=28
            1, // 29
        ];
        for (level, &frames) in expected.iter().enumerate() {
            assert_eq!(frames_per_row(level as u8), frames, "level {level}");
        }
        for level in 29..=255 {
            assert_eq!(frames_per_row(level), 1, "level {level}");
        }
    }

    #[test]
    fn first_level_up_vectors() {
        // nes-facts §8 item 6.
        for (start, lines) in [
            (0, 10),
            (9, 100),
            (12, 100),
            (15, 100),
            (16, 110),
            (18, 130),
            (19, 140),
            (24, 190),
            (25, 200),
            (29, 200),
        ] {
            assert_eq!(first_level_up_lines(start), lines, "start level {start}");
        }
    }

    #[test]
    fn first_level_up_formula_for_the_documented_start_levels() {
        // docs/spec/rules.md: 0–9 → 10(L+1); 10–15 → 100; 16–24 → 10L − 50; 25–29 → 200.
        for start in 0..=29u8 {
            let level = u32::from(start);
            let expected = match start {
                0..=9 => 10 * (level + 1),
                10..=15 => 100,
                16..=24 => 10 * level - 50,
                _ => 200,
            };
            assert_eq!(first_level_up_lines(start), expected, "start level {start}");
        }
    }

    #[test]
    fn first_level_up_above_29_follows_the_bcd_rule() {
        // Worked by hand from v = (hundreds × 16 + tens) and "level − v has its sign bit set",
        // i.e. v in level + 1 ..= level + 128 (mod 256):
        // 30 = 0x1E needs v ≥ 0x1F; tens stop at 9, so v = 0x20 at 200 lines.
        // 32 = 0x20 needs v ≥ 0x21: 210 lines. 40 = 0x28: v = 0x29 at 290 lines.
        // 41 = 0x29 needs v ≥ 0x2A: v = 0x30 at 300 lines.
        // 127 = 0x7F needs v ≥ 0x80: 800 lines. 128 = 0x80 needs v in 0x81..=0x100: 810 lines.
        // 129 = 0x81: the window 0x82..=0x101 wraps to include v = 1, so 10 lines; also 255.
        for (start, lines) in [
            (30, 200),
            (31, 200),
            (32, 210),
            (40, 290),
            (41, 300),
            (127, 800),
            (128, 810),
            (129, 10),
            (200, 10),
            (255, 10),
        ] {
            assert_eq!(first_level_up_lines(start), lines, "start level {start}");
        }
    }

    #[test]
    fn every_start_level_finds_a_level_up() {
        for start in 0..=255u8 {
            let lines = first_level_up_lines(start);
            assert!(
                lines % 10 == 0 && (10..2560).contains(&lines),
                "start {start}: {lines}"
            );
        }
    }

    #[test]
    fn start_19_reaches_level_29_at_230_lines() {
        // docs/spec/rules.md: first level-up at 140 lines, then every 10; level 29 at 140 + 9 × 10 = 230.
        let mut game = NesScore::new(19);
        for (lines, level) in [
            (139, 19),
            (140, 20),
            (149, 20),
            (150, 21),
            (229, 28),
            (230, 29),
        ] {
            clear_singles_until(&mut game, lines);
            assert_eq!(game.level(), level, "after {lines} lines");
        }
        assert_eq!(game.frames_per_row(), 1);
        assert_eq!(game.start_level(), 19);
    }

    #[test]
    fn level_rises_every_ten_lines_after_the_first_level_up() {
        // docs/spec/rules.md: after the first level-up, one level every 10 lines.
        for start in 0..=29u8 {
            let first = first_level_up_lines(start);
            let mut game = NesScore::new(start);
            clear_singles_until(&mut game, first - 1);
            assert_eq!(
                game.level(),
                start,
                "start {start} just before {first} lines"
            );
            for step in 0..60u32 {
                let lines = first + 10 * step;
                clear_singles_until(&mut game, lines);
                let level = u32::from(start) + step + 1;
                assert_eq!(
                    u32::from(game.level()),
                    level,
                    "start {start} at {lines} lines"
                );
                clear_singles_until(&mut game, lines + 9);
                assert_eq!(
                    u32::from(game.level()),
                    level,
                    "start {start} at {} lines",
                    lines + 9
                );
            }
        }
    }

    #[test]
    fn level_byte_wraps_from_255_to_0() {
        // Start 255 levels up at 10 lines (255 − 1 = 0xFE, sign bit set) to 255 + 1 = 0 (byte),
        // then level 0 against v = 2 at 20 lines levels up to 1.
        let mut game = NesScore::new(255);
        assert_eq!(game.add_cleared_rows(4), 1200 * 256);
        clear_singles_until(&mut game, 10);
        assert_eq!(game.level(), 0);
        assert_eq!(game.frames_per_row(), 48);
        clear_singles_until(&mut game, 20);
        assert_eq!(game.level(), 1);
    }

    #[test]
    fn line_clear_points_without_level_up() {
        // nes-facts §8 item 8: 1200 × 1, 40 × 10, 1200 × 19, 1200 × 20; and level 29: 1200 × 30.
        for (level, rows, points) in [
            (0, 4, 1200),
            (9, 1, 400),
            (18, 4, 22_800),
            (19, 4, 24_000),
            (29, 4, 36_000),
            (0, 2, 100),
            (0, 3, 300),
            (5, 0, 0),
        ] {
            let mut game = NesScore::new(level);
            assert_eq!(
                game.add_cleared_rows(rows),
                points,
                "{rows} rows at level {level}"
            );
            assert_eq!(game.score(), points);
            assert_eq!(game.line_clear_points(), u64::from(points));
            assert_eq!(game.lines(), u32::from(rows));
            assert_eq!(game.level(), level);
        }
    }

    #[test]
    fn tetris_scores_at_the_level_after_its_own_level_up() {
        // nes-facts §8 item 8: start 18, 126 lines, then a tetris: lines 130, level 19, 24,000.
        let mut game = NesScore::new(18);
        for _ in 0..31 {
            game.add_cleared_rows(4);
        }
        game.add_cleared_rows(2);
        assert_eq!((game.lines(), game.level()), (126, 18));
        let before = game.score();
        assert_eq!(game.add_cleared_rows(4), 24_000);
        assert_eq!(game.score() - before, 24_000);
        assert_eq!((game.lines(), game.level()), (130, 19));
        // 31 tetrises and a double at level 18, then the tetris at 19.
        assert_eq!(game.score(), 31 * 22_800 + 100 * 19 + 24_000);
    }

    #[test]
    fn start_0_tetris_across_the_first_level_up() {
        // Start 0, 8 lines, tetris: lines 9, 10 (level 1), 11, 12; points 1200 × 2.
        let mut game = NesScore::new(0);
        game.add_cleared_rows(4);
        game.add_cleared_rows(4);
        assert_eq!(game.score(), 2400);
        assert_eq!(game.add_cleared_rows(4), 2400);
        assert_eq!((game.lines(), game.level(), game.score()), (12, 1, 4800));
    }

    #[test]
    fn displayed_score_stops_at_999_999() {
        // nes-facts §8 item 8: 999,000 + a tetris at level 18 (22,800) → 999,999.
        let mut game = game_at(18, 18, 0, 999_000);
        assert_eq!(game.add_cleared_rows(4), 22_800);
        assert_eq!(game.score(), 999_999);
        assert_eq!(game.line_clear_points(), 999_000 + 22_800);
        // Once pinned it stays there.
        game.add_cleared_rows(1);
        assert_eq!(game.score(), 999_999);
        assert_eq!(game.line_clear_points(), 1_021_800 + 760);
    }

    #[test]
    fn a_score_can_reach_exactly_999_999_without_the_cap() {
        // 998,799 + 1,200 = 999,999: a plain sum.
        let mut game = game_at(0, 0, 0, 998_799);
        game.add_cleared_rows(4);
        assert_eq!(game.score(), 999_999);
        assert_eq!(game.line_clear_points(), 999_999);
    }

    #[test]
    #[should_panic(expected = "at most 4 rows")]
    fn more_than_four_rows_is_a_bug() {
        NesScore::new(0).add_cleared_rows(5);
    }

    #[test]
    fn push_down_vectors() {
        // nes-facts §8 item 8.
        for (score, held_rows, result) in [
            (0, 2, 1),
            (0, 10, 9),
            (5, 16, 14),
            (99, 3, 100),
            (95, 10, 100),
            (1200, 5, 1204),
        ] {
            assert_eq!(
                add_push_down_points(score, held_rows),
                result,
                "{score} + {held_rows} rows"
            );
        }
    }

    #[test]
    fn push_down_edge_cases_worked_by_hand() {
        for (score, held_rows, result) in [
            // Fewer than 2 rows add nothing.
            (57, 0, 57),
            (57, 1, 57),
            // 130 − 2 = 0x80 is negative for the game's signed test; 129 is not:
            // 0x00 − 1 + 0x81 = 0x80 (8-bit) → 80.
            (0, 130, 0),
            (0, 255, 0),
            (0, 129, 80),
            // 40 with 20 rows: 0x3F + 0x14 = 0x53 → 53 (not 59).
            (40, 20, 53),
            // 12,340 with 2 rows: 0x3F + 2 = 0x41 → 12,341, the hundreds untouched.
            (12_340, 2, 12_341),
            // 1,299 with 12 rows: 0x98 + 0x0C = 0xA4 → (0xA0 + 0x60) & 0xFF = 0x00, +100 → 1,300.
            (1_299, 12, 1_300),
            // 999,999 with 3 rows overflows to 1,000,000 and the line routine pins 999,999.
            (999_999, 3, 999_999),
            // 99 with 98 rows: 0x98 + 0x62 = 0xFA → +6 wraps to 0x00, no carry → 0 (the byte
            // loses its carry; unreachable in play, where at most ~33 rows are held).
            (99, 98, 0),
        ] {
            assert_eq!(
                add_push_down_points(score, held_rows),
                result,
                "{score} + {held_rows} rows"
            );
        }
    }

    /// TetrisGYM's push-down reference (`tests/src/pushdown.rs`, "tested against the original
    /// game"), restated: it works on the ones digit alone rather than on the whole BCD byte.
    /// Returns the points added.
    fn second_source_push_down_points(held_rows: u32, score: u32) -> u32 {
        let ones = score % 10;
        let last_two_digits = score % 100;
        let mut sum = ones + held_rows - 1;
        if sum & 0xF > 9 {
            sum += 6;
        }
        let new_ones = sum & 0xF;
        let new_tens = (sum & 0xF0) / 16 * 10;
        let without_ones = new_tens + (last_two_digits - ones);
        let with_ones = without_ones + new_ones;
        let new_last_two = if with_ones <= 100 {
            with_ones
        } else {
            without_ones
        };
        new_last_two - last_two_digits
    }

    #[test]
    fn push_down_agrees_with_the_second_source() {
        // nes-facts §5: the two models agree for 2..=14 rows; checked here on every score below
        // 20,000 and near the top (where the cap would not yet bite).
        for held_rows in 2..=14u8 {
            for score in (0..20_000).chain(990_000..999_800) {
                let expected = score + second_source_push_down_points(u32::from(held_rows), score);
                assert_eq!(
                    add_push_down_points(score, held_rows),
                    expected,
                    "{score} + {held_rows} rows"
                );
            }
        }
    }

    #[test]
    fn push_down_points_come_before_line_points() {
        // Game order at a lock: push-down, then line points. 95 + 10 rows → 100, then a single
        // at level 0 → 140. The other order would give 135 → 0x34 + 0x0A = 0x3E → 0x44 → 144.
        let mut game = game_at(0, 0, 0, 95);
        game.add_push_down_points(10);
        assert_eq!(game.score(), 100);
        game.add_cleared_rows(1);
        assert_eq!(game.score(), 140);
        assert_eq!(add_push_down_points(135, 10), 144);
        // Push-down points stay out of the line-clear sum.
        assert_eq!(game.line_clear_points(), 95 + 40);
    }
}
