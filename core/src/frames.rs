//! The NES frame model: one falling piece, frame by frame, and a frame-accurate game driver.
//!
//! [`FallingPiece`] is a literal transcription of the game's per-frame piece logic (docs/spec/nes-facts.md
//! §3 and §7: `shift_tetrimino` with its delayed auto shift, `rotate_tetrimino`,
//! `drop_tetrimino` with soft drop and the first piece's entry delay), in the game's own
//! variables. It is deliberately NOT shared with the gamepad search, which works on a compressed
//! state: replaying a searched button sequence through this model, frame by frame, is how the
//! search's model is checked.
//!
//! [`NesGame`] drives whole games with it: spawn, the player's frames, lock, line clear, the
//! entry and line-clear delays, level progression and NES scoring, with the NES randomizer
//! stepped once per simulated frame. The values it uses, from docs/spec/nes-facts.md §3.5 (H is the
//! board height, 20 on the NES; y the pivot row at lock; F the frame whose drop failed):
//!
//! - the playfield redraw takes `k = ceil((H − max(0, y − 2)) / 4)` frames;
//! - without a line clear the next piece spawns on frame `F + 2k + 8` (10 to 18 dead frames);
//! - with a line clear the 5 animation steps run on frames whose frame counter is a multiple of
//!   4, the first no earlier than `F + 2k + 4`; the next piece spawns 5 frames after the 5th
//!   step (17 to 20 more dead frames);
//! - the next piece's first input frame is the frame after its spawn; the randomizer steps once
//!   on every frame and picks the new preview on the spawn frame, after that frame's step.
//!
//! The game plays under one of two game-over rules ([`NesGameSettings::game_over_rule`]):
//!
//! - the console rule (docs/spec/rules.md; docs/spec/nes-facts.md §1.5 and §6), the plateau benchmark's: the
//!   board is a console board ([`Board::with_hidden_rows`]), whose two hidden rows keep the
//!   cells that lock above the field; a spawn is never checked, so a piece that spawns
//!   overlapping may still move out; the game is over when a piece locks overlapping an
//!   occupied cell (that lock changes nothing and counts as no piece);
//! - the simulation rule, the NES AI program's: cells above row 0 are lost at lock, and the
//!   game is over when the next piece cannot spawn.
//!
//! Choices where the console is not modelled (the same as the rest of the arena, docs/spec/rules.md):
//! the frame counter is 0 on the game-start frame (the real one depends on the menus, like
//! the randomizer's seed); buttons are all released during the dead frames between pieces (so
//! every piece starts with nothing held; the delayed-auto-shift counter still carries over, as
//! on the console); push-down points are not scored (the plateau benchmark leaves them out).
//!
//! Over 600 lines on purpose: the per-frame piece and the NES game are one literal transcription of
//! the console's frame loop, kept in the console's order; the rest is its unit tests.

use crate::board::Board;
use crate::error::Error;
use crate::generator::NesGenerator;
use crate::piece::Piece;
use crate::placement::{Buttons, PieceState, Placement};
use crate::rules::GameOverRule;
use crate::scoring::{NesScore, ONE_FRAME_LEVEL, frames_per_row};
use crate::search::{FrameTiming, InputModel};
use crate::timeline::Timeline;

/// Frames without gravity at the start of a game's first piece (the game starts its soft-drop
/// counter at −96).
pub const ENTRY_DELAY_FRAMES: u8 = 96;
/// The delayed-auto-shift counter value at which a held Left or Right shifts again (the
/// game's `DAS_RESET`; a blocked shift also sets the counter to it).
pub const AUTO_SHIFT_TRIGGER: u8 = 16;
/// The value the counter restarts from after an auto shift (the game's `DAS_DELAY`), so that
/// held shifts repeat every 6 frames after the first 16.
pub const AUTO_SHIFT_RESTART: u8 = 10;
/// The level the NES plateau benchmark starts at: the first of the levels at 2 frames per row
/// (19–28), where the published level-19 bot plays.
pub const PLATEAU_START_LEVEL: u8 = 19;
/// The level whose transition ends a plateau game: the first level at 1 frame per row
/// ([`ONE_FRAME_LEVEL`]), where the plateau of 2 frames per row ends.
pub const PLATEAU_STOP_LEVEL: u8 = ONE_FRAME_LEVEL;
/// Lines from the start of a [`PLATEAU_START_LEVEL`] game to the transition to
/// [`PLATEAU_STOP_LEVEL`]: the first level-up at 140 lines, then one every 10 (140 + 9 × 10;
/// docs/spec/rules.md). A test checks it against the level rule of [`NesScore`].
pub const PLATEAU_LINES: u32 = 230;
/// The D-pad buttons (the NES also has Up, which no player here presses).
const DIRECTION_PAD: u8 = Buttons::LEFT.0 | Buttons::RIGHT.0 | Buttons::DOWN.0;
/// Left and Right.
const SIDEWAYS: u8 = Buttons::LEFT.0 | Buttons::RIGHT.0;

/// One piece falling under NES rules, advanced one frame at a time with the buttons held
/// during that frame. The fields are the game's variables for the active piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FallingPiece {
    piece: Piece,
    state: PieceState,
    /// Frames since the spawn or the last drop (`fallTimer`).
    fall_timer: u8,
    /// The delayed-auto-shift counter (`autorepeatX`).
    autorepeat_x: u8,
    /// The soft-drop counter (`autorepeatY`): negative during the entry delay, 0 without a
    /// soft drop, 1 or 2 while Down is held.
    autorepeat_y: i8,
    /// The buttons held on the previous frame (a button is newly pressed when it is held now
    /// and was not then).
    held: Buttons,
    /// Frames played.
    frames: u32,
}

impl FallingPiece {
    /// A piece at its spawn state with nothing held on the frame before its first input frame.
    /// `entry_delay` gives it the game's first-piece delay; `autorepeat_x` is the
    /// delayed-auto-shift counter carried over from the previous piece.
    pub fn spawn(piece: Piece, entry_delay: bool, autorepeat_x: u8) -> FallingPiece {
        FallingPiece {
            piece,
            state: PieceState::SPAWN,
            fall_timer: 0,
            autorepeat_x,
            autorepeat_y: if entry_delay {
                -(ENTRY_DELAY_FRAMES as i8)
            } else {
                0
            },
            held: Buttons::NONE,
            frames: 0,
        }
    }

    /// The piece.
    pub fn piece(&self) -> Piece {
        self.piece
    }

    /// Where the piece is.
    pub fn state(&self) -> PieceState {
        self.state
    }

    /// Frames played so far.
    pub fn frames(&self) -> u32 {
        self.frames
    }

    /// The delayed-auto-shift counter (carried over to the next piece).
    pub fn autorepeat_x(&self) -> u8 {
        self.autorepeat_x
    }

    /// Plays one frame with `buttons` held at `frames_per_row` gravity: shift, then rotate,
    /// then drop, each tested against `board` in turn. Returns the state the piece locks in
    /// when this frame's drop fails (the piece takes no input after that), `None` while it
    /// falls.
    pub fn frame(
        &mut self,
        board: &Board,
        buttons: Buttons,
        frames_per_row: u8,
    ) -> Option<PieceState> {
        let newly = Buttons(buttons.0 & !self.held.0);
        self.held = buttons;
        self.frames += 1;
        self.fall_timer = self.fall_timer.saturating_add(1);
        self.shift(board, buttons, newly);
        self.rotate(board, newly);
        self.drop(board, buttons, newly, frames_per_row)
    }

    /// `shift_tetrimino`: nothing while Down is held; a newly pressed Left or Right shifts at
    /// once, a held one after 16 frames and then every 6; Right wins over Left; a blocked shift
    /// sets the counter to 16, so that a held button retries on every frame.
    fn shift(&mut self, board: &Board, held: Buttons, newly: Buttons) {
        if held.contains(Buttons::DOWN) {
            return;
        }
        if newly.0 & SIDEWAYS != 0 {
            self.autorepeat_x = 0;
        } else if held.0 & SIDEWAYS == 0 {
            return;
        } else {
            self.autorepeat_x = self.autorepeat_x.saturating_add(1);
            if self.autorepeat_x < AUTO_SHIFT_TRIGGER {
                return;
            }
            self.autorepeat_x = AUTO_SHIFT_RESTART;
        }
        let step = if held.contains(Buttons::RIGHT) { 1 } else { -1 };
        let shifted = PieceState {
            x: self.state.x + step,
            ..self.state
        };
        if board.fits(self.piece, shifted) {
            self.state = shifted;
        } else {
            self.autorepeat_x = AUTO_SHIFT_TRIGGER;
        }
    }

    /// `rotate_tetrimino`: a newly pressed A turns clockwise, else a newly pressed B
    /// counterclockwise, if the turned state is legal (no kicks).
    fn rotate(&mut self, board: &Board, newly: Buttons) {
        let rotation = if newly.contains(Buttons::A) {
            self.piece.clockwise(self.state.rotation)
        } else if newly.contains(Buttons::B) {
            self.piece.counterclockwise(self.state.rotation)
        } else {
            return;
        };
        let turned = PieceState {
            rotation,
            ..self.state
        };
        if board.fits(self.piece, turned) {
            self.state = turned;
        }
    }

    /// `drop_tetrimino`: the entry delay, the soft drop (start on a newly pressed Down with
    /// neither Left nor Right held; a step on every 2nd frame while the D-pad holds exactly
    /// Down; cancelled by anything else), else gravity when the fall timer reaches the level's
    /// frames per row. At most one row per frame; a failed drop locks.
    fn drop(
        &mut self,
        board: &Board,
        held: Buttons,
        newly: Buttons,
        frames_per_row: u8,
    ) -> Option<PieceState> {
        if self.autorepeat_y < 0 {
            if !newly.contains(Buttons::DOWN) {
                self.autorepeat_y += 1;
                return None;
            }
            // Down ends the entry delay at once and goes on as an ordinary frame.
            self.autorepeat_y = 0;
        }
        if self.autorepeat_y == 0 {
            if held.0 & SIDEWAYS == 0 && newly.0 & DIRECTION_PAD == Buttons::DOWN.0 {
                self.autorepeat_y = 1;
            }
        } else if held.0 & DIRECTION_PAD == Buttons::DOWN.0 {
            self.autorepeat_y += 1;
            if self.autorepeat_y >= 3 {
                self.autorepeat_y = 1;
                return self.move_down(board);
            }
        } else {
            self.autorepeat_y = 0;
        }
        if self.fall_timer >= frames_per_row {
            return self.move_down(board);
        }
        None
    }

    /// One row down, or the lock state when that is not legal; restarts the fall timer.
    fn move_down(&mut self, board: &Board) -> Option<PieceState> {
        self.fall_timer = 0;
        let below = self.state.one_row_down();
        if board.fits(self.piece, below) {
            self.state = below;
            None
        } else {
            Some(self.state)
        }
    }
}

/// The settings of a frame-driven NES game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NesGameSettings {
    /// The level the game starts at ([`PLATEAU_START_LEVEL`] for the plateau benchmark).
    pub start_level: u8,
    /// The game ends when a line clear takes the level to this one ([`PLATEAU_STOP_LEVEL`] for
    /// the plateau benchmark: the transition to one frame per row, [`PLATEAU_LINES`] lines
    /// after the start).
    pub stop_level: u8,
    /// The seed of the randomizer's start state ([`NesGenerator::with_frame_counting`]).
    pub seed: u64,
    /// When the game is over: [`GameOverRule::Console`] (the console's hidden rows and its
    /// lock-time check; the plateau benchmark's) or [`GameOverRule::Simulation`] (the NES AI
    /// program's); see the module documentation. The literature rule, a one-piece game's, is
    /// played as the simulation rule.
    pub game_over_rule: GameOverRule,
}

impl NesGameSettings {
    /// The plateau benchmark's settings (docs/spec/rules.md): start at [`PLATEAU_START_LEVEL`] (19), stop
    /// at the transition to [`PLATEAU_STOP_LEVEL`] (29), under the console rule.
    pub fn plateau(seed: u64) -> NesGameSettings {
        NesGameSettings {
            start_level: PLATEAU_START_LEVEL,
            stop_level: PLATEAU_STOP_LEVEL,
            seed,
            game_over_rule: GameOverRule::Console,
        }
    }

    /// The same settings under `rule`.
    pub fn with_game_over_rule(self, rule: GameOverRule) -> NesGameSettings {
        NesGameSettings {
            game_over_rule: rule,
            ..self
        }
    }

    /// Whether the game plays under the console rule.
    fn console(&self) -> bool {
        self.game_over_rule == GameOverRule::Console
    }
}

/// How a frame-driven game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum NesGameEnd {
    /// The game topped out: under the console rule a piece locked overlapping an occupied
    /// cell (for a strategy: the piece had no legal lock within reach); under the simulation
    /// rule the next piece could not spawn (or had no placement).
    #[serde(rename = "top-out")]
    ToppedOut,
    /// A line clear reached the stop level.
    #[serde(rename = "stop-level")]
    ReachedStopLevel,
}

impl NesGameEnd {
    /// The name used in JSON and CSV output: `top-out` or `stop-level`.
    pub fn name(self) -> &'static str {
        match self {
            NesGameEnd::ToppedOut => "top-out",
            NesGameEnd::ReachedStopLevel => "stop-level",
        }
    }
}

/// What one piece did, from its first input frame to the next piece's spawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NesLock {
    /// The state it locked in.
    pub state: PieceState,
    /// Rows it cleared.
    pub rows_cleared: u8,
    /// Frames from its first input frame to the lock frame, both counted.
    pub active_frames: u32,
    /// Frames after the lock frame up to and including the next spawn frame (entry delay,
    /// plus the line-clear animation when rows were cleared).
    pub dead_frames: u32,
}

/// A whole NES game, simulated frame by frame (see the module documentation for the delays).
#[derive(Clone, Debug)]
pub struct NesGame {
    board: Board,
    generator: NesGenerator,
    score: NesScore,
    settings: NesGameSettings,
    current: Piece,
    next: Piece,
    /// The frame on which the current piece spawned (0 = the game-start frame); its first
    /// input frame is the one after.
    spawn_frame: u64,
    first_piece: bool,
    autorepeat_x: u8,
    pieces: u64,
    clears: [u64; 5],
    end: Option<NesGameEnd>,
}

impl NesGame {
    /// A game on an empty 20-row field.
    pub fn new(settings: NesGameSettings) -> NesGame {
        NesGame::with_board(Board::standard(), settings)
    }

    /// A game that starts on `board`'s field (any height; the redraw time uses its height).
    /// Under the console rule the game's board is `board` as a console board (with its
    /// hidden rows, if it has any); under the others, as a plain board.
    pub fn with_board(board: Board, settings: NesGameSettings) -> NesGame {
        let mut generator = NesGenerator::with_frame_counting(settings.seed);
        let current = generator.next().expect("the NES generator never ends");
        let next = generator.next().expect("the NES generator never ends");
        let board = if settings.console() {
            board.with_hidden_rows()
        } else {
            board.without_hidden_rows()
        };
        NesGame {
            end: (!settings.console() && !board.can_spawn(current))
                .then_some(NesGameEnd::ToppedOut),
            board,
            generator,
            score: NesScore::new(settings.start_level),
            settings,
            current,
            next,
            spawn_frame: 0,
            first_piece: true,
            autorepeat_x: 0,
            pieces: 0,
            clears: [0; 5],
        }
    }

    /// The field.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The piece to play.
    pub fn current(&self) -> Piece {
        self.current
    }

    /// The preview piece.
    pub fn next(&self) -> Piece {
        self.next
    }

    /// Score, lines and level.
    pub fn score(&self) -> &NesScore {
        &self.score
    }

    /// The settings.
    pub fn settings(&self) -> &NesGameSettings {
        &self.settings
    }

    /// Frames per row of gravity at the current level.
    pub fn frames_per_row(&self) -> u8 {
        frames_per_row(self.score.level()) as u8
    }

    /// The timing a gravity-aware searcher must simulate for the current piece, with the
    /// player's input `timeline` and input model.
    pub fn frame_timing(&self, timeline: Timeline, inputs: InputModel) -> FrameTiming {
        FrameTiming {
            frames_per_row: self.frames_per_row(),
            timeline,
            inputs,
        }
    }

    /// Whether the current piece is the game's first (with the long entry delay).
    pub fn is_first_piece(&self) -> bool {
        self.first_piece
    }

    /// The frame on which the current piece spawned (the game-start frame is 0): the number of
    /// frames the game has run, and of per-frame randomizer steps.
    pub fn spawn_frame(&self) -> u64 {
        self.spawn_frame
    }

    /// Pieces locked so far.
    pub fn pieces(&self) -> u64 {
        self.pieces
    }

    /// Locks so far that cleared 0, 1, 2, 3 and 4 rows.
    pub fn clears(&self) -> [u64; 5] {
        self.clears
    }

    /// How the game ended, or `None` while it goes on.
    pub fn end(&self) -> Option<NesGameEnd> {
        self.end
    }

    /// The current piece as it spawns, ready to be played frame by frame.
    pub fn falling_piece(&self) -> FallingPiece {
        FallingPiece::spawn(self.current, self.first_piece, self.autorepeat_x)
    }

    /// Plays the current piece with one button set per frame, from its first input frame; the
    /// piece must lock on the last frame (an error names where it did not). Then runs the
    /// delays, spawns the next piece and picks a new preview.
    pub fn play_frames(&mut self, frames: &[Buttons]) -> Result<NesLock, Error> {
        self.check_running()?;
        let mut falling = self.falling_piece();
        let frames_per_row = self.frames_per_row();
        for (index, &buttons) in frames.iter().enumerate() {
            if let Some(state) = falling.frame(&self.board, buttons, frames_per_row) {
                if index + 1 != frames.len() {
                    return Err(Error::FrameInputs(format!(
                        "the {} locked on frame {} of {}",
                        self.current.letter(),
                        index + 1,
                        frames.len()
                    )));
                }
                return Ok(self.lock(state, falling.frames(), falling.autorepeat_x()));
            }
        }
        Err(Error::FrameInputs(format!(
            "the {} was still falling after all {} frames",
            self.current.letter(),
            frames.len()
        )))
    }

    /// Locks the current piece in `state` without simulating its frames, for strategies that
    /// ignore gravity: `state` must be a lock placement, and the piece counts as falling for
    /// as many frames as gravity alone takes to bring it from row 0 to `state` and fail the
    /// next drop: `(y + 1) × frames per row`; for a game's first piece `97 + y × frames per
    /// row` (96 frames of entry delay, then a drop at once).
    pub fn place_directly(&mut self, state: PieceState) -> Result<NesLock, Error> {
        self.check_running()?;
        // A state read from a file (a trace) may hold numbers no state of the piece has: a
        // rotation it lacks, a pivot far off the field. Refused before its cells are
        // computed, which would index past the piece's orientations or overflow.
        let rows = i16::from(self.board.height());
        let possible = state.rotation < self.current.orientation_count()
            && (-2..=11).contains(&state.x)
            && (-2..=rows + 2).contains(&i16::from(state.y));
        if !possible || !Placement::new(self.current, state).is_lock_placement_on(&self.board) {
            return Err(Error::FrameInputs(format!(
                "the {} cannot lock at x {}, y {}, rotation {}",
                self.current.letter(),
                state.x,
                state.y,
                state.rotation
            )));
        }
        let frames_per_row = u32::from(self.frames_per_row());
        let rows = state.y as u32;
        let frames = if self.first_piece {
            // The entry delay's 96 frames, then a drop at once (the fall timer is past any
            // frames per row), then one row per frames-per-row; the drop from row y fails.
            u32::from(ENTRY_DELAY_FRAMES) + 1 + rows * frames_per_row
        } else {
            (rows + 1) * frames_per_row
        };
        Ok(self.lock(state, frames, self.autorepeat_x))
    }

    fn check_running(&self) -> Result<(), Error> {
        match self.end {
            None => Ok(()),
            Some(end) => Err(Error::FrameInputs(format!(
                "the game is over ({})",
                end.name()
            ))),
        }
    }

    /// Locks the current piece after `active_frames` frames, then runs the delays and spawns
    /// the next piece (or ends the game). Under the console rule a lock that overlaps an
    /// occupied cell ends the game instead: the console checks at lock time (docs/spec/nes-facts.md
    /// §6), and the curtain falls with the board, score and piece count unchanged.
    fn lock(&mut self, state: PieceState, active_frames: u32, autorepeat_x: u8) -> NesLock {
        let lock_frame = self.spawn_frame + u64::from(active_frames);
        if !self.board.fits(self.current, state) {
            // Only a console game gets here: elsewhere an overlapping piece never spawned.
            self.end = Some(NesGameEnd::ToppedOut);
            return NesLock {
                state,
                rows_cleared: 0,
                active_frames,
                dead_frames: 0,
            };
        }
        let outcome = self.board.lock(self.current, state);
        let redraw = redraw_frames(state.y, self.board.height());
        let next_spawn = if outcome.rows_cleared == 0 {
            lock_frame + 2 * redraw + 8
        } else {
            let first_step = (lock_frame + 2 * redraw + 4).next_multiple_of(4);
            let fifth_step = first_step + 16;
            fifth_step + 5
        };
        self.score.add_cleared_rows(outcome.rows_cleared);
        self.clears[usize::from(outcome.rows_cleared)] += 1;
        self.pieces += 1;
        self.first_piece = false;
        self.autorepeat_x = autorepeat_x;
        let report = NesLock {
            state,
            rows_cleared: outcome.rows_cleared,
            active_frames,
            dead_frames: (next_spawn - lock_frame) as u32,
        };
        if outcome.rows_cleared > 0 && self.score.level() >= self.settings.stop_level {
            self.end = Some(NesGameEnd::ReachedStopLevel);
            return report;
        }
        self.generator
            .advance_frames((next_spawn - self.spawn_frame) as u32);
        self.spawn_frame = next_spawn;
        self.current = self.next;
        self.next = self.generator.next().expect("the NES generator never ends");
        if !self.settings.console() && !self.board.can_spawn(self.current) {
            self.end = Some(NesGameEnd::ToppedOut);
        }
        report
    }
}

/// Frames the playfield redraw takes after a lock with pivot row `y` on a field `height` rows
/// tall: 4 rows per frame from row `max(0, y − 2)` down (`k` of docs/spec/nes-facts.md §3.5).
pub fn redraw_frames(y: i8, height: u8) -> u64 {
    let first_row = (y - 2).max(0) as u64;
    (height as u64).saturating_sub(first_row).div_ceil(4).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays `frames` on `board` and returns the piece's x after each frame.
    fn columns_after_frames(
        falling: &mut FallingPiece,
        board: &Board,
        frames: &[Buttons],
        speed: u8,
    ) -> Vec<i8> {
        frames
            .iter()
            .map(|&buttons| {
                assert_eq!(falling.frame(board, buttons, speed), None);
                falling.state().x
            })
            .collect()
    }

    #[test]
    fn a_held_right_shifts_at_once_then_after_16_frames_then_every_6() {
        // docs/spec/nes-facts.md §8 vector 9, at level 0 (48 frames per row) so nothing falls meanwhile.
        let board = Board::standard();
        let mut falling = FallingPiece::spawn(Piece::T, false, 0);
        let xs = columns_after_frames(&mut falling, &board, &[Buttons::RIGHT; 30], 48);
        // Frame 0 of the vector is our first frame (index 0): moves at indexes 0, 16, 22; the
        // T then touches the right wall (x 8, cells 7..9) and the move of index 28 is blocked.
        let moves: Vec<usize> = (0..xs.len())
            .filter(|&i| xs[i] != if i == 0 { 5 } else { xs[i - 1] })
            .collect();
        assert_eq!(moves, [0, 16, 22]);
        assert_eq!(xs[29], 8);
        // Blocked: the counter is set to 16, so the shift is retried on every frame.
        assert_eq!(falling.autorepeat_x(), AUTO_SHIFT_TRIGGER);
        assert_eq!(falling.state().y, 0);
    }

    #[test]
    fn holding_down_blocks_shifts_and_soft_drops_on_every_second_frame() {
        let board = Board::standard();
        let mut falling = FallingPiece::spawn(Piece::T, false, 0);
        let mut rows = Vec::new();
        for _ in 0..7 {
            assert_eq!(falling.frame(&board, Buttons::DOWN, 48), None);
            rows.push(falling.state().y);
        }
        // Pressed on frame 1: moves on frames 3, 5, 7 (docs/spec/nes-facts.md §8 vector 10).
        assert_eq!(rows, [0, 0, 1, 1, 2, 2, 3]);
        falling.frame(&board, Buttons::DOWN.with(Buttons::LEFT), 48);
        assert_eq!(falling.state().x, 5, "no shift while Down is held");
        // Left with Down cancelled the soft drop: pressing Down again restarts it.
        let before = falling.state().y;
        falling.frame(&board, Buttons::DOWN, 48);
        falling.frame(&board, Buttons::DOWN, 48);
        assert_eq!(falling.state().y, before, "Down was not newly pressed");
    }

    #[test]
    fn gravity_locks_a_t_on_the_floor_on_frame_38_at_level_19_and_19_at_level_29() {
        let board = Board::standard();
        for (speed, lock_frame) in [(2u8, 38u32), (1, 19)] {
            let mut falling = FallingPiece::spawn(Piece::T, false, 0);
            let mut locked = None;
            while locked.is_none() {
                locked = falling.frame(&board, Buttons::NONE, speed);
            }
            // The T's lowest pivot row is 18; at `speed` frames per row it gets there on frame
            // 18 × speed and the next drop, `speed` frames later, fails.
            assert_eq!(falling.frames(), lock_frame);
            assert_eq!(locked.unwrap().y, 18);
        }
    }

    #[test]
    fn the_first_piece_floats_for_96_frames_unless_down_is_pressed() {
        let board = Board::standard();
        let mut falling = FallingPiece::spawn(Piece::T, true, 0);
        for _ in 0..96 {
            falling.frame(&board, Buttons::NONE, 2);
        }
        assert_eq!(falling.state().y, 0);
        falling.frame(&board, Buttons::NONE, 2);
        assert_eq!(
            falling.state().y,
            1,
            "the fall timer is past 96: drop on frame 97"
        );
        falling.frame(&board, Buttons::NONE, 2);
        assert_eq!(falling.state().y, 1);
        falling.frame(&board, Buttons::NONE, 2);
        assert_eq!(falling.state().y, 2);

        let mut falling = FallingPiece::spawn(Piece::T, true, 0);
        for _ in 0..9 {
            falling.frame(&board, Buttons::NONE, 2);
        }
        // Down on frame 10 ends the delay; the fall timer (10) is past 2, so it drops at once,
        // then the soft drop moves it on frame 12.
        falling.frame(&board, Buttons::DOWN, 2);
        assert_eq!(falling.state().y, 1);
        falling.frame(&board, Buttons::DOWN, 2);
        assert_eq!(falling.state().y, 1);
        falling.frame(&board, Buttons::DOWN, 2);
        assert_eq!(falling.state().y, 2);
    }

    #[test]
    fn a_and_b_turn_only_when_newly_pressed() {
        let board = Board::standard();
        let mut falling = FallingPiece::spawn(Piece::T, false, 0);
        falling.frame(&board, Buttons::A, 48);
        assert_eq!(falling.state().rotation, Piece::T.clockwise(0));
        falling.frame(&board, Buttons::A, 48);
        assert_eq!(
            falling.state().rotation,
            Piece::T.clockwise(0),
            "held, not pressed"
        );
        falling.frame(&board, Buttons::NONE, 48);
        falling.frame(&board, Buttons::B, 48);
        assert_eq!(falling.state().rotation, 0);
        falling.frame(&board, Buttons::A.with(Buttons::B), 48);
        falling.frame(&board, Buttons::NONE, 48);
        falling.frame(&board, Buttons::A.with(Buttons::B), 48);
        assert_eq!(falling.state().rotation, 2, "A wins over B");
    }

    #[test]
    fn the_plateau_spans_230_lines_at_2_frames_per_row() {
        // Counted one line at a time by the game's level rule: the level reaches the stop level
        // on exactly the PLATEAU_LINES-th line, and every level before it drops a row every 2
        // frames while the stop level drops one every frame.
        let mut score = NesScore::new(PLATEAU_START_LEVEL);
        while score.level() < PLATEAU_STOP_LEVEL {
            assert_eq!(score.frames_per_row(), 2, "level {}", score.level());
            score.add_cleared_rows(1);
        }
        assert_eq!(score.lines(), PLATEAU_LINES);
        assert_eq!(score.level(), PLATEAU_STOP_LEVEL);
        assert_eq!(score.frames_per_row(), 1);
        assert_eq!((PLATEAU_START_LEVEL, PLATEAU_STOP_LEVEL), (19, 29));
        let settings = NesGameSettings::plateau(5);
        assert_eq!(
            (settings.start_level, settings.stop_level),
            (PLATEAU_START_LEVEL, PLATEAU_STOP_LEVEL)
        );
    }

    #[test]
    fn redraw_takes_one_frame_per_4_rows_from_2_above_the_pivot() {
        // docs/spec/nes-facts.md §3.5: k = 1 for y 18–19, 2 for 14–17, 3 for 10–13, 4 for 6–9, 5 for ≤ 5.
        let expected = [5, 5, 5, 5, 5, 5, 4, 4, 4, 4, 3, 3, 3, 3, 2, 2, 2, 2, 1, 1];
        for (y, k) in expected.into_iter().enumerate() {
            assert_eq!(redraw_frames(y as i8, 20), k, "y {y}");
        }
    }

    /// Frames that fall straight down with nothing pressed until the piece locks.
    fn fall(game: &NesGame) -> Vec<Buttons> {
        let mut falling = game.falling_piece();
        let mut frames = Vec::new();
        loop {
            frames.push(Buttons::NONE);
            if falling
                .frame(game.board(), Buttons::NONE, game.frames_per_row())
                .is_some()
            {
                return frames;
            }
        }
    }

    #[test]
    fn a_lock_without_a_clear_waits_2k_plus_8_frames_and_steps_the_randomizer_each_frame() {
        let mut game = NesGame::new(NesGameSettings::plateau(7));
        let first_piece = game.current();
        let preview = game.next();
        // The first piece floats for 96 frames, drops on frame 97 and then every 2nd frame:
        // row r on frame 95 + 2r, so the drop from its lowest row L fails on frame 97 + 2L.
        let frames = fall(&game);
        let lowest = first_piece.lowest_pivot_row(0, 20);
        assert_eq!(frames.len(), 97 + 2 * lowest as usize);
        let lock = game.play_frames(&frames).unwrap();
        assert_eq!(lock.state.y, lowest);
        assert_eq!(lock.active_frames as usize, frames.len());
        // Without a clear: 2k + 8 dead frames, k = 1 on the floor (10 frames).
        assert_eq!(lock.dead_frames, 10);
        let spawn = game.spawn_frame();
        assert_eq!(spawn, frames.len() as u64 + 10);
        assert_eq!(game.current(), preview);
        // The randomizer stepped once per frame: the same picks, done by hand.
        let mut generator = NesGenerator::with_frame_counting(7);
        assert_eq!(generator.next(), Some(first_piece));
        assert_eq!(generator.next(), Some(preview));
        generator.advance_frames(spawn as u32);
        assert_eq!(game.next(), generator.next().unwrap());
        // A second piece, which has no entry delay: row r on frame 2r; it lands on the first.
        let frames = fall(&game);
        let landing = game.board().drop_row(preview, PieceState::SPAWN);
        assert_eq!(frames.len(), 2 + 2 * landing as usize);
        let lock = game.play_frames(&frames).unwrap();
        let k = redraw_frames(lock.state.y, 20) as u32;
        assert_eq!(lock.dead_frames, 2 * k + 8);
        assert_eq!(
            game.spawn_frame(),
            spawn + u64::from(lock.active_frames + lock.dead_frames)
        );
        generator.advance_frames((game.spawn_frame() - spawn) as u32);
        assert_eq!(game.next(), generator.next().unwrap());
        assert_eq!(game.pieces(), 2);
    }

    #[test]
    fn a_direct_placement_counts_the_frames_gravity_alone_takes() {
        // The literal model's straight fall and a direct placement at the same lock state take
        // the same frames, for the first piece (entry delay) and the next one.
        let mut falling_game = NesGame::new(NesGameSettings::plateau(11));
        let mut direct_game = falling_game.clone();
        for _ in 0..2 {
            let frames = fall(&falling_game);
            let falling = falling_game.play_frames(&frames).unwrap();
            let direct = direct_game.place_directly(falling.state).unwrap();
            assert_eq!(direct, falling);
            assert_eq!(direct_game.spawn_frame(), falling_game.spawn_frame());
        }
    }

    #[test]
    fn a_tetris_adds_the_line_clear_animation_and_scores_24000_at_level_19() {
        // Four rows with column 9 open: a vertical I dropped there clears all four.
        let rows = ["#########."; 4];
        let board = Board::from_bottom_rows(&rows, 20).unwrap();
        let mut game = NesGame::with_board(board, NesGameSettings::plateau(1));
        // Find a seed whose first piece is an I, so the test plays the real first piece.
        let mut seed = 1;
        while game.current() != Piece::I {
            seed += 1;
            game = NesGame::with_board(board, NesGameSettings::plateau(seed));
        }
        // Frame 1: Right (to x 6) then A (vertical); Right on frames 3, 5, 7 to x 9; Down on
        // frame 9 ends the entry delay (fall timer 9 ≥ 2: drop to row 1 at once), then the
        // soft drop moves on frames 11, 13, …: row r on frame 7 + 2r, the pivot's lowest row
        // 18 on frame 43, and the drop of frame 45 fails.
        let mut frames = vec![
            Buttons::RIGHT.with(Buttons::A),
            Buttons::NONE,
            Buttons::RIGHT,
            Buttons::NONE,
            Buttons::RIGHT,
            Buttons::NONE,
            Buttons::RIGHT,
            Buttons::NONE,
        ];
        frames.extend([Buttons::DOWN; 37]);
        let lock = game.play_frames(&frames).unwrap();
        assert_eq!(
            lock.state,
            PieceState {
                x: 9,
                y: 18,
                rotation: 1
            }
        );
        assert_eq!(lock.rows_cleared, 4);
        assert_eq!(lock.active_frames, 45);
        // F = 45, k = 1: the first animation step no earlier than frame 51, on a multiple of 4:
        // 52; the 5th step on 68; spawn on 73: 28 dead frames (2k + 26, inside 2k + 25 … 28).
        assert_eq!(lock.dead_frames, 28);
        assert_eq!(game.spawn_frame(), 73);
        assert_eq!(game.score().score(), 24_000);
        assert_eq!(game.score().lines(), 4);
        assert!(game.board().is_empty());
        assert_eq!(game.clears(), [0, 0, 0, 0, 1]);
    }

    #[test]
    fn frames_that_lock_early_or_never_are_errors() {
        let mut game = NesGame::new(NesGameSettings::plateau(3));
        let frames = fall(&game);
        let mut too_many = frames.clone();
        too_many.push(Buttons::NONE);
        assert!(matches!(
            game.clone().play_frames(&too_many),
            Err(Error::FrameInputs(_))
        ));
        assert!(matches!(
            game.clone().play_frames(&frames[..frames.len() - 1]),
            Err(Error::FrameInputs(_))
        ));
        assert!(game.play_frames(&frames).is_ok());
    }

    #[test]
    fn the_game_stops_at_the_stop_level_and_at_top_out() {
        let settings = NesGameSettings {
            start_level: PLATEAU_START_LEVEL,
            stop_level: PLATEAU_START_LEVEL + 1,
            seed: 1,
            game_over_rule: GameOverRule::Simulation,
        };
        let mut game = NesGame::new(settings);
        // Every piece, in its spawn orientation at its lowest row, fills the gaps of a bottom
        // row that is full elsewhere, so each lock clears exactly one row; from level 19 the
        // first level-up comes at 140 lines.
        let mut locks = 0;
        while game.end().is_none() {
            let piece = game.current();
            let state = PieceState {
                x: 5,
                y: piece.lowest_pivot_row(0, 20),
                rotation: 0,
            };
            let mut board = Board::standard();
            for x in 0..10 {
                board.set(x, 19);
            }
            for (x, y) in Placement::new(piece, state).cells {
                if y == 19 {
                    board.clear_cell(x as usize, 19);
                }
            }
            game.board = board;
            let lock = game.place_directly(state).unwrap();
            assert_eq!(lock.rows_cleared, 1);
            locks += 1;
        }
        assert_eq!(game.end(), Some(NesGameEnd::ReachedStopLevel));
        assert_eq!(locks, 140);
        assert_eq!(game.score().level(), 20);
        assert!(game.play_frames(&[]).is_err());

        // Top-out under the simulation rule: a field whose spawn rows are full cannot take the
        // first piece.
        let blocked = Board::from_bottom_rows(&["#########."; 20], 20).unwrap();
        let game = NesGame::with_board(blocked, settings);
        assert_eq!(game.end(), Some(NesGameEnd::ToppedOut));
    }

    /// A 20-row field whose column 6 is full from the floor to row 0: every piece but the O
    /// spawns overlapping it (T, J, L, I and S cover (6, 0), Z covers (6, 1)).
    fn full_column_6() -> Board {
        let mut board = Board::standard();
        for y in 0..20 {
            board.set(6, y);
        }
        board
    }

    /// The settings of the first seed from 1 whose first piece is `piece`, under `rule`.
    fn first_piece_is(piece: Piece, rule: GameOverRule) -> NesGameSettings {
        let mut seed = 1;
        loop {
            let settings = NesGameSettings::plateau(seed).with_game_over_rule(rule);
            if NesGame::new(settings).current() == piece {
                return settings;
            }
            seed += 1;
        }
    }

    #[test]
    fn a_t_that_spawns_overlapping_ends_a_simulation_game_but_moves_out_on_the_console() {
        let board = full_column_6();
        let t = PieceState::SPAWN;
        assert!(!board.fits(Piece::T, t), "the T's spawn covers (6, 0)");
        // Simulation rule: the T cannot spawn, so the game is over before its first frame.
        let simulation = first_piece_is(Piece::T, GameOverRule::Simulation);
        let game = NesGame::with_board(board, simulation);
        assert_eq!(game.end(), Some(NesGameEnd::ToppedOut));
        assert!(!game.board().keeps_hidden_rows());
        // Console rule, the same seed: the spawn is not checked (docs/spec/nes-facts.md §6). Left on
        // the first frame tests only the target, x 4 (cells (3..5, 0) and (4, 1)), which is
        // free: the T has moved out. Then it floats through the entry delay and falls to the
        // floor: rows 0..18 for its pivot, the drop from 18 failing.
        let console = simulation.with_game_over_rule(GameOverRule::Console);
        let mut game = NesGame::with_board(board, console);
        assert_eq!(game.end(), None);
        assert!(game.board().keeps_hidden_rows());
        let mut frames = vec![Buttons::LEFT];
        let mut falling = game.falling_piece();
        assert_eq!(falling.frame(game.board(), Buttons::LEFT, 2), None);
        assert_eq!(falling.state().x, 4);
        while falling.frame(game.board(), Buttons::NONE, 2).is_none() {
            frames.push(Buttons::NONE);
        }
        frames.push(Buttons::NONE);
        let lock = game.play_frames(&frames).unwrap();
        assert_eq!(
            lock.state,
            PieceState {
                x: 4,
                y: 18,
                rotation: 0
            }
        );
        assert_eq!(game.end(), None);
        assert_eq!(game.pieces(), 1);
        assert!(game.board().is_occupied(4, 18) && game.board().is_occupied(4, 19));
    }

    #[test]
    fn on_the_console_a_piece_that_locks_overlapping_ends_the_game_and_changes_nothing() {
        // The same T, left alone: it floats at the spawn for the 96 frames of entry delay, the
        // drop of frame 97 to row 1 is blocked by (6, 1), so it locks where it spawned,
        // overlapping (6, 0): the console's top-out, checked at lock time.
        let board = full_column_6();
        let mut game = NesGame::with_board(board, first_piece_is(Piece::T, GameOverRule::Console));
        let frames = vec![Buttons::NONE; 97];
        let lock = game.play_frames(&frames).unwrap();
        assert_eq!(lock.state, PieceState::SPAWN);
        assert_eq!(game.end(), Some(NesGameEnd::ToppedOut));
        assert_eq!(game.pieces(), 0);
        assert_eq!(game.board().to_string(), board.to_string());
        assert!(game.play_frames(&[Buttons::NONE]).is_err());
    }

    #[test]
    fn a_console_game_keeps_the_cells_of_a_lock_above_the_field_and_later_pieces_hit_them() {
        // Rows 0..2 full but for column 0, rows 3..19 full but for column 9: a vertical I
        // (cells (x, y−2)..(x, y+1)) in column 0 with its pivot on row 1 rests on (0, 3), has
        // one cell on row −1 and completes rows 0..2. (The spawn rows are full, so only the
        // console rule, which never checks a spawn, lets this game start.)
        let mut rows = vec![".#########"; 3];
        rows.extend(vec!["#########."; 17]);
        let board = Board::from_rows(&rows).unwrap();
        let mut game = NesGame::with_board(board, NesGameSettings::plateau(1));
        let high_i = PieceState {
            x: 0,
            y: 1,
            rotation: 1,
        };
        let mut game_piece = game.current();
        while game_piece != Piece::I {
            // Any seed whose first piece is an I.
            let seed = game.settings().seed + 1;
            game = NesGame::with_board(board, NesGameSettings::plateau(seed));
            game_piece = game.current();
        }
        // A state no piece has (as a trace may hold) is refused, not a panic: a rotation past
        // the piece's orientations, a pivot far off the field.
        for impossible in [
            PieceState {
                rotation: 4,
                ..high_i
            },
            PieceState { x: 127, ..high_i },
            PieceState { y: -128, ..high_i },
        ] {
            let error = game.place_directly(impossible).unwrap_err().to_string();
            assert!(error.contains("the I cannot lock at"), "{error}");
        }
        let lock = game.place_directly(high_i).unwrap();
        assert_eq!(lock.rows_cleared, 3);
        // The same lock on a plain board, as under the simulation rule: the field is the
        // same (rows 0..2 cleared, so empty again), but the cell on row −1 is lost there.
        let mut plain = board;
        assert_eq!(plain.lock(Piece::I, high_i).cells_above_top, 1);
        assert_eq!(game.board().to_string(), plain.to_string());
        assert_eq!(game.board().hidden_column(0), 0b10);
        assert_eq!(plain.hidden_rows(), 0);
        // A later vertical I in column 0 with its pivot on row 1 (cells rows −1..2, all
        // empty in the field) now hits the kept cell on the console only. (That is how a kept
        // cell acts: it blocks shifts and turns near the top. No piece can come to rest ON a
        // hidden cell, since only a vertical I reaches row −2 and its cells are contiguous,
        // so a cell above a hidden one is always the piece's own.)
        assert!(plain.fits(Piece::I, high_i));
        assert!(!game.board().fits(Piece::I, high_i));
        assert_eq!(game.end(), None);
    }
}
