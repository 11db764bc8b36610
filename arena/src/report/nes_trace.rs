//! The trace of an `arena nes` run (`--trace FILE`): every lock of every game, one JSON object
//! per line, so that a game can be followed piece by piece (how a drought was stacked, where a
//! well was covered, what the reaction time's blind frames aimed at) without a scratch build.
//!
//! # The file (JSON Lines)
//!
//! 1. One `run` line: `{"event":"run","strategy":…,"settings":{…},"made_by":{…}}`, the
//!    settings object of the JSON report (rules, player, seeds) and what wrote the file.
//! 2. Per game, in game order, one `lock` line per piece:
//!    `{"event":"lock","seed":S,"piece":N,"preview":"L","level":18,"lines":12,"points":4200,
//!    "spawn_frame":F,"board":[20 rows, top first],"placement":{"piece":"T","x":…,"y":…,
//!    "rotation":…,"cleared":…,"path":"F0 F2 …"},"plan":{"x":…,"y":…,"rotation":…}}`
//!    - `piece` counts from 1; `level`, `lines` and `points` (uncapped line-clear points) are
//!      the game's before the lock, `board` the field the piece fell onto (`#` occupied);
//!    - `placement` is the replay files' placement record: where the piece locked, the rows
//!      it cleared and `path`, the buttons held on each frame from the spawn to the lock
//!      (`F<n>`, bits left 1, right 2, down 4, A 8, B 16), exactly what the frame model
//!      played. A searcher that ignores gravity has its placement locked directly: no path;
//!    - `plan` (only with a reaction time) is where the plan made without the preview was
//!      heading: its first `reaction_frames` frames are the path's first frames.
//! 3. Then one `end` line for the game: `{"event":"end","seed":S,"end":"top-out",
//!    "pieces":…,"lines":…,"level":…,"score":…,"line_clear_points":…,
//!    "points_before_level_29":…}`, the fields of the report's `games` array.
//!
//! The file depends on the games only: the same for any `--jobs`. It grows by about half a
//! kilobyte a lock, so a run traces at most [`MAX_TRACED_GAMES`] games.

use std::path::Path;

use serde::Serialize;
use tetris_core::{Board, PieceState, Placement};

use crate::error::ArenaError;
use crate::output::{MadeBy, write_atomically};
use crate::report::nes::{NesReport, SettingsJson};
use crate::sim::nes::{NesGameResult, NesTracedLock};
use crate::sim::placement::PlayedPlacement;

/// The most games one run may trace (each game keeps its locks in memory until the run ends:
/// about 100 KB a game to level 29, half a megabyte as text).
pub const MAX_TRACED_GAMES: u64 = 100;

/// The first line.
#[derive(Serialize)]
struct RunLine {
    event: &'static str,
    strategy: String,
    settings: SettingsJson,
    made_by: MadeBy,
}

/// Where a plan was heading.
#[derive(Serialize)]
struct PlanJson {
    x: i8,
    y: i8,
    rotation: u8,
}

/// One lock.
#[derive(Serialize)]
struct LockLine<'a> {
    event: &'static str,
    seed: u64,
    piece: u64,
    preview: tetris_core::Piece,
    level: u8,
    lines: u32,
    points: u64,
    spawn_frame: u64,
    board: &'a Board,
    placement: PlayedPlacement,
    #[serde(skip_serializing_if = "Option::is_none")]
    plan: Option<PlanJson>,
}

/// A game's end.
#[derive(Serialize)]
struct EndLine {
    event: &'static str,
    seed: u64,
    end: &'static str,
    pieces: u64,
    lines: u32,
    level: u8,
    score: u32,
    line_clear_points: u64,
    points_before_level_29: u64,
}

impl NesReport<'_> {
    /// The run's trace (module documentation): the `run` line, then each traced game's locks
    /// and end, in game order. Games played without a trace add nothing.
    pub fn trace(&self) -> String {
        let mut text = String::new();
        push_line(
            &mut text,
            &RunLine {
                event: "run",
                strategy: self.settings.strategy.to_string(),
                settings: self.settings_json(),
                made_by: MadeBy::current(),
            },
        );
        for game in &self.finished.results {
            let Some(locks) = &game.trace else {
                continue;
            };
            for lock in locks {
                push_line(&mut text, &lock_line(game.seed, lock));
            }
            push_line(&mut text, &end_line(game));
        }
        text
    }

    /// Writes [`NesReport::trace`] to `path`, atomically (`arena nes --trace`, Python's
    /// `trace=`); the path was checked with the request.
    pub fn write_trace(&self, path: &Path) -> Result<(), ArenaError> {
        write_atomically(path, self.trace().as_bytes())
    }
}

fn lock_line(seed: u64, lock: &NesTracedLock) -> LockLine<'_> {
    let placement = Placement::new(lock.piece, lock.state);
    let path = (!lock.frames.is_empty()).then(|| {
        lock.frames
            .iter()
            .map(|&buttons| tetris_core::Input::Frame(buttons))
            .collect()
    });
    LockLine {
        event: "lock",
        seed,
        piece: lock.number,
        preview: lock.preview,
        level: lock.level,
        lines: lock.lines,
        points: lock.points,
        spawn_frame: lock.spawn_frame,
        board: &lock.board,
        placement: PlayedPlacement::new(&placement, lock.rows_cleared, path),
        plan: lock
            .plan
            .map(|PieceState { x, y, rotation }| PlanJson { x, y, rotation }),
    }
}

fn end_line(game: &NesGameResult) -> EndLine {
    EndLine {
        event: "end",
        seed: game.seed,
        end: game.end.name(),
        pieces: game.pieces,
        lines: game.lines,
        level: game.level,
        score: game.score,
        line_clear_points: game.line_clear_points,
        points_before_level_29: game.points_before_29(),
    }
}

/// Appends `line` as one line of compact JSON.
fn push_line(text: &mut String, line: &impl Serialize) {
    text.push_str(&serde_json::to_string(line).expect("trace lines serialize"));
    text.push('\n');
}
