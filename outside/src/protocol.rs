//! The bot protocol's messages, version 1: JSON Lines on the bot's stdin and stdout.
//!
//! One JSON object per line, `"type"` first; docs/writing-a-bot.md gives the flow with a full
//! transcript. The names follow the Tetris Bot Protocol (TBP: `info`, `start`, `suggest`,
//! `suggestion`, `stop`, `quit`) where the meaning is the same. Where it differs, and why:
//!
//! - No `rules`/`ready` exchange: the arena's games are fixed before the bot starts, so
//!   `start` carries them and the bot's `info` says what it can play.
//! - No `play`/`new_piece`: every `suggest` holds the whole position (board, pieces, lines,
//!   score, level), so a bot keeps no state and can never drift out of step with the game.
//! - `suggest` lists the legal placements under the game's searcher, so a bot needs no move
//!   generator; the answer is one of them (by index, or by `x`, `y`, `rotation`), not TBP's
//!   list of moves in preference order: the arena plays exactly one.
//!
//! Unknown fields are ignored in both directions, so later versions can add fields; a change
//! that would break a version-1 bot gets a new version number.

use serde::{Deserialize, Serialize};
use tetris_core::{Board, Piece, Placement};

use crate::decider::Answer;
use crate::inputs::parse_input_sequence;

/// The protocol version this arena speaks.
pub const PROTOCOL_VERSION: u32 = 1;

/// The most preview pieces a bot may ask for (the arena's deepest lookahead less one).
pub const MAX_PREVIEW_PIECES: u8 = crate::MAX_PREVIEW;

/// The bot's first line: who it is and what it needs.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
pub struct Info {
    /// The protocol version the bot speaks (must be [`PROTOCOL_VERSION`]).
    pub protocol: u32,
    /// The bot's name, as reports show it.
    pub name: String,
    /// The bot's version, as reports show it.
    #[serde(default)]
    pub version: String,
    /// How many preview pieces the bot wants to see in each `suggest` (0 = the current piece
    /// only), at most 3.
    #[serde(default)]
    pub preview: u8,
    /// The searcher whose placements the bot expects (`column-drop`, `drop`, `bfs`, …);
    /// absent, the one the strategy name gives.
    #[serde(default)]
    pub searcher: Option<String>,
}

/// A message from the arena to the bot.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ToBot<'a> {
    /// A new game begins.
    Start(&'a Start),
    /// Choose a placement for the current piece.
    Suggest(&'a Suggest),
    /// The game ended.
    Stop(&'a Stop),
    /// No more games: exit.
    Quit,
}

/// A game's facts, sent before its first `suggest`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Start {
    /// The game's number in this bot's run, from 1.
    pub game: u64,
    /// Columns of the field (always 10).
    pub board_width: u8,
    /// Rows of the field.
    pub board_height: u8,
    /// The game-over rule: `simulation` (a piece that cannot spawn ends the game) or
    /// `literature` (a piece landing above the field ends it).
    pub game_over: String,
    /// The piece generator's name (`uniform`, `nes`, `mdptetris`, …).
    pub generator: String,
    /// The generator's seed.
    pub seed: u64,
    /// The piece cap, if any.
    pub max_pieces: Option<u64>,
    /// Preview pieces in each `suggest`.
    pub preview: u8,
    /// The searcher whose placements each `suggest` lists.
    pub searcher: String,
    /// NES games played frame by frame (a gravity-aware searcher): the player's input-frame
    /// timeline in StackRabbit's notation (`X.` = a press every other frame); absent in other
    /// games.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeline: Option<String>,
    /// NES games played frame by frame: what the player may press, `two-thumb` or `article`
    /// (docs/spec/search.md §3, "Input models"); absent in other games.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inputs: Option<String>,
}

/// One decision: the position and its legal placements.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Suggest {
    /// The game's number.
    pub game: u64,
    /// Pieces placed so far in this game.
    pub pieces: u64,
    /// Rows cleared so far.
    pub lines: u64,
    /// The score so far.
    pub score: u32,
    /// The level now.
    pub level: u8,
    /// The board, top row first: `#` filled, `.` empty.
    pub board: Vec<String>,
    /// NES games under the console's rule, once a piece has locked partly above the field:
    /// the two hidden rows above it (row −2 first), whose cells block later pieces; absent
    /// while they are empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hidden: Vec<String>,
    /// The current piece's letter.
    pub current: Piece,
    /// The preview pieces, next first.
    pub preview: Vec<Piece>,
    /// Every legal placement of the current piece, in the searcher's order (in a re-plan,
    /// those still reachable from where the played frames left the piece).
    pub placements: Vec<PlacementMessage>,
    /// NES games with a reaction time, the second question about a piece: the frames already
    /// pressed (the first answer's, given without the preview) and where they left the
    /// piece. An answer's `inputs` then continue from the next frame.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub played: Option<Played>,
}

/// The frames of a piece played before a re-plan, and where they left it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Played {
    /// Frames pressed since the piece's first input frame.
    pub frames: u8,
    /// The pivot's column after them.
    pub x: i8,
    /// The pivot's row after them.
    pub y: i8,
    /// The rotation after them.
    pub rotation: u8,
}

/// A placement as the protocol writes it (the same fields as `arena analyze --json`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct PlacementMessage {
    /// The pivot's column.
    pub x: i8,
    /// The pivot's row, 0 at the top.
    pub y: i8,
    /// The rotation, 0 = as it spawns.
    pub rotation: u8,
    /// The four cells `[x, y]` it covers.
    pub cells: [[i8; 2]; 4],
}

impl From<&Placement> for PlacementMessage {
    fn from(placement: &Placement) -> PlacementMessage {
        PlacementMessage {
            x: placement.x,
            y: placement.y,
            rotation: placement.rotation,
            cells: placement.cells.map(|(x, y)| [x, y]),
        }
    }
}

/// How a game ended, sent after its last placement.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Stop {
    /// The game's number.
    pub game: u64,
    /// `game_over`, `piece_cap`, `sequence_ended` or `stopped`.
    pub end: String,
    /// Pieces placed.
    pub pieces: u64,
    /// Rows cleared.
    pub lines: u64,
    /// The final score.
    pub score: u32,
}

/// The bot's answer to `suggest`: `{"type": "suggestion", "index": 3}` or
/// `{"type": "suggestion", "x": 4, "y": 18, "rotation": 1}`; in an NES game with a
/// gravity-aware searcher it may add `"inputs": "..L..L"`, the frames to press.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct Suggestion {
    /// An index into `suggest`'s `placements`.
    #[serde(default)]
    pub index: Option<i64>,
    /// The placement's pivot column (with `y` and `rotation`, instead of `index`).
    #[serde(default)]
    pub x: Option<i64>,
    /// The placement's pivot row.
    #[serde(default)]
    pub y: Option<i64>,
    /// The placement's rotation.
    #[serde(default)]
    pub rotation: Option<i64>,
    /// NES games with a gravity-aware searcher: the frames the bot presses to take the piece
    /// from its first input frame to the placement, one letter a frame in StackRabbit's
    /// notation ([`crate::inputs`]); the arena plays them through its frame model, and the
    /// piece must lock at the placement named. Absent: the arena plays the searcher's path.
    #[serde(default)]
    pub inputs: Option<String>,
}

/// A line from the bot, by its `type`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum FromBot {
    /// The handshake.
    Info(Info),
    /// An answer to `suggest`.
    Suggestion(Suggestion),
}

impl Suggest {
    /// The message for `board` with `pieces` (current first) and its legal `placements`.
    pub fn new(game: u64, board: &Board, pieces: &[Piece], placements: &[Placement]) -> Suggest {
        Suggest {
            game,
            pieces: 0,
            lines: 0,
            score: 0,
            level: 0,
            board: board.to_rows(),
            hidden: hidden_rows(board),
            current: pieces[0],
            preview: pieces[1..].to_vec(),
            placements: placements.iter().map(PlacementMessage::from).collect(),
            played: None,
        }
    }
}

impl Suggest {
    /// The message as one line of JSON (no line end), exactly as `serde_json` writes
    /// `ToBot::Suggest(self)`, but written by hand: the arena sends one every decision, and
    /// serde's field-by-field path cost more than everything else the arena does for a
    /// decision of a trivial bot. The test `the_hand_written_suggest_line_is_serde_json_s`
    /// holds the two to the same bytes.
    pub fn to_line(&self) -> String {
        let mut line: Vec<u8> =
            Vec::with_capacity(128 + 12 * self.board.len() + 64 * self.placements.len());
        line.extend_from_slice(b"{\"type\":\"suggest\",\"game\":");
        push_number(&mut line, i64::try_from(self.game).unwrap_or(i64::MAX));
        let count = |count: u64| i64::try_from(count).unwrap_or(i64::MAX);
        push_field(&mut line, "pieces", count(self.pieces));
        push_field(&mut line, "lines", count(self.lines));
        push_field(&mut line, "score", i64::from(self.score));
        push_field(&mut line, "level", i64::from(self.level));
        line.extend_from_slice(b",\"board\":");
        push_rows(&mut line, &self.board);
        if !self.hidden.is_empty() {
            line.extend_from_slice(b",\"hidden\":");
            push_rows(&mut line, &self.hidden);
        }
        line.extend_from_slice(b",\"current\":\"");
        line.push(self.current.letter() as u8);
        line.extend_from_slice(b"\",\"preview\":[");
        for (index, piece) in self.preview.iter().enumerate() {
            if index > 0 {
                line.push(b',');
            }
            line.push(b'"');
            line.push(piece.letter() as u8);
            line.push(b'"');
        }
        line.extend_from_slice(b"],\"placements\":[");
        for (index, placement) in self.placements.iter().enumerate() {
            if index > 0 {
                line.push(b',');
            }
            line.extend_from_slice(b"{\"x\":");
            push_number(&mut line, i64::from(placement.x));
            push_field(&mut line, "y", i64::from(placement.y));
            push_field(&mut line, "rotation", i64::from(placement.rotation));
            line.extend_from_slice(b",\"cells\":[");
            for (cell, [x, y]) in placement.cells.iter().enumerate() {
                line.extend_from_slice(if cell == 0 { b"[" } else { b",[" });
                push_number(&mut line, i64::from(*x));
                line.push(b',');
                push_number(&mut line, i64::from(*y));
                line.push(b']');
            }
            line.extend_from_slice(b"]}");
        }
        line.push(b']');
        if let Some(played) = &self.played {
            line.extend_from_slice(b",\"played\":{\"frames\":");
            push_number(&mut line, i64::from(played.frames));
            push_field(&mut line, "x", i64::from(played.x));
            push_field(&mut line, "y", i64::from(played.y));
            push_field(&mut line, "rotation", i64::from(played.rotation));
            line.push(b'}');
        }
        line.push(b'}');
        String::from_utf8(line).expect("the line is ASCII")
    }
}

/// Appends `,"name":value` (a field after the first of an object).
fn push_field(line: &mut Vec<u8>, name: &str, value: i64) {
    line.extend_from_slice(b",\"");
    line.extend_from_slice(name.as_bytes());
    line.extend_from_slice(b"\":");
    push_number(line, value);
}

/// Appends `number` in decimal (one and two digits, the coordinates, without a loop).
fn push_number(line: &mut Vec<u8>, number: i64) {
    if number < 0 {
        line.push(b'-');
    }
    let mut rest = number.unsigned_abs();
    if rest < 10 {
        line.push(b'0' + rest as u8);
        return;
    }
    if rest < 100 {
        line.extend_from_slice(&[b'0' + (rest / 10) as u8, b'0' + (rest % 10) as u8]);
        return;
    }
    let mut digits = [0u8; 20];
    let mut start = digits.len();
    while rest > 0 {
        start -= 1;
        digits[start] = b'0' + (rest % 10) as u8;
        rest /= 10;
    }
    line.extend_from_slice(&digits[start..]);
}

/// Appends rows of `#` and `.` (nothing to escape) as a JSON array of strings.
fn push_rows(line: &mut Vec<u8>, rows: &[String]) {
    line.push(b'[');
    for (index, row) in rows.iter().enumerate() {
        if index > 0 {
            line.push(b',');
        }
        line.push(b'"');
        debug_assert!(row.bytes().all(|cell| cell == b'#' || cell == b'.'));
        line.extend_from_slice(row.as_bytes());
        line.push(b'"');
    }
    line.push(b']');
}

/// The hidden rows of a console board (row −2 first) when a cell there is occupied, else
/// none.
fn hidden_rows(board: &Board) -> Vec<String> {
    if !board.keeps_hidden_rows() {
        return Vec::new();
    }
    let rows: Vec<String> = [-2, -1]
        .iter()
        .map(|&y| {
            (0..tetris_core::BOARD_WIDTH as i32)
                .map(|x| if board.is_blocked(x, y) { '#' } else { '.' })
                .collect()
        })
        .collect();
    match rows.iter().any(|row| row.contains('#')) {
        true => rows,
        false => Vec::new(),
    }
}

impl Suggestion {
    /// The answer: the placement's index among `placements` ([`Suggestion::resolve`]) and
    /// the frames of its `inputs`, or what is wrong with either.
    pub fn answer(&self, placements: &[Placement]) -> Result<Answer, String> {
        let index = self.resolve(placements)?;
        let inputs = match &self.inputs {
            None => None,
            Some(letters) => Some(parse_input_sequence(letters)?),
        };
        Ok(Answer { index, inputs })
    }

    /// The index of the answered placement among `placements`, or what is wrong with it.
    pub fn resolve(&self, placements: &[Placement]) -> Result<usize, String> {
        match (self.index, self.x, self.y, self.rotation) {
            (Some(index), None, None, None) => usize::try_from(index)
                .ok()
                .filter(|&index| index < placements.len())
                .ok_or_else(|| {
                    format!(
                        "index {index} is not a legal placement (0..{})",
                        placements.len()
                    )
                }),
            (None, Some(x), Some(y), Some(rotation)) => placements
                .iter()
                .position(|placement| {
                    i64::from(placement.x) == x
                        && i64::from(placement.y) == y
                        && i64::from(placement.rotation) == rotation
                })
                .ok_or_else(|| {
                    format!(
                        "x {x}, y {y}, rotation {rotation} is not a legal placement of {}",
                        placements
                            .first()
                            .map_or('?', |placement| placement.piece.letter())
                    )
                }),
            _ => Err("a suggestion gives either index, or x, y and rotation".to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tetris_core::PieceState;

    /// Every legal placement of `piece` on `board`, from a plain search (the cells and
    /// coordinates of real placements: negative rows included on a short board).
    fn placements(board: &Board, piece: Piece) -> Vec<Placement> {
        let mut found = Vec::new();
        for rotation in 0..piece.orientation_count() {
            for x in -2..12 {
                for y in -2..(board.height() as i8 + 2) {
                    let placement = Placement::new(piece, PieceState { x, y, rotation });
                    if placement.is_lock_placement_on(board) {
                        found.push(placement);
                    }
                }
            }
        }
        found
    }

    #[test]
    fn the_hand_written_suggest_line_is_serde_json_s() {
        let mut board = Board::new(6).unwrap();
        for (step, piece) in Piece::ALL.into_iter().cycle().take(12).enumerate() {
            let offered = placements(&board, piece);
            let mut suggest = Suggest::new(step as u64, &board, &[piece], &offered);
            let serde =
                |suggest: &Suggest| serde_json::to_string(&ToBot::Suggest(suggest)).unwrap();
            assert_eq!(suggest.to_line(), serde(&suggest), "step {step}");
            // Every field at its extremes, and the optional ones present.
            suggest.game = u64::MAX >> 1;
            suggest.pieces = 1 << 40;
            suggest.lines = 999;
            suggest.score = u32::MAX;
            suggest.level = 255;
            suggest.preview = Piece::ALL[..step % 4].to_vec();
            suggest.hidden = vec!["#........#".to_string(), "..........".to_string()];
            suggest.played = Some(Played {
                frames: 60,
                x: -1,
                y: -2,
                rotation: 3,
            });
            assert_eq!(
                suggest.to_line(),
                serde(&suggest),
                "step {step}, every field"
            );
            suggest.placements.clear();
            assert_eq!(
                suggest.to_line(),
                serde(&suggest),
                "step {step}, no placement"
            );
            if let Some(placement) = offered.first() {
                board.lock(placement.piece, placement.state());
            }
        }
    }
}
