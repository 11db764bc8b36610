//! StackRabbit's API: its placements' coordinates, and a server of that API as an outside
//! engine of NES games ([`StackRabbitEngine`]).
//!
//! # Coordinates: `[rotation, xOffset, yOffset]`
//!
//! StackRabbit draws each orientation in a grid of 3 or 4 rows of 4 cells (its
//! `docs/tetrominoes.js`, `PIECE_LOOKUP`), lists a piece's orientations spawn first with each
//! next one a clockwise turn (the A button), and places a piece by its grid's top-left corner:
//! the spawn corner is column 3, row −1 (row −2 for I), and a placement is the rotation index
//! with the corner's shift from there, rows counted from the top. Our orientation table (core's
//! `piece.rs`) lists the same orientations in the same order, and every grid holds our pivot at
//! its column 2, row 1 (row 2 for I), so the triple is simply `[rotation, x − 5, y]` from our
//! pivot `(x, y)`: the spawn pivot (5, 0) is `[0, 0, 0]`. The tests check this against the grids
//! themselves, cell by cell, for every piece, orientation and position on the board.
//!
//! StackRabbit's C++ engine prints the same rotation and x but the corner's absolute row
//! (`engine-movelist-cpp`'s `firstPlacement`: `y + initialY`), which
//! [`stackrabbit_cpp_placement`] gives.

use std::time::Duration;

use tetris_core::{Piece, PieceState, Placement, SPAWN_X, SPAWN_Y};

use crate::decider::{Answer, Decider};
use crate::fault::{Fault, FaultKind};
use crate::http::{agent, read_json, read_text};
use crate::protocol::{Info, PROTOCOL_VERSION, Start, Stop, Suggest, Suggestion};
use crate::spec::{AnswerPlay, StackRabbitSpec};

/// The row of StackRabbit's spawn corner: −2 for I, −1 for the others (its `initialY`).
pub fn initial_y(piece: Piece) -> i8 {
    match piece {
        Piece::I => -2,
        _ => -1,
    }
}

/// `placement` as StackRabbit's `[rotation, xOffset, yOffset]` (`get-move`, `engine-movelist`).
pub fn stackrabbit_placement(placement: &Placement) -> [i8; 3] {
    [
        placement.rotation as i8,
        placement.x - SPAWN_X,
        placement.y - SPAWN_Y,
    ]
}

/// `placement` as StackRabbit's C++ engine prints it: `[rotation, xOffset, row of the grid's
/// top-left corner]` (`engine-movelist-cpp`).
pub fn stackrabbit_cpp_placement(placement: &Placement) -> [i8; 3] {
    let [rotation, x, y] = stackrabbit_placement(placement);
    [rotation, x, y + initial_y(placement.piece)]
}

/// The placement of `piece` at StackRabbit's `[rotation, xOffset, yOffset]`, or `None` for a
/// rotation the piece does not have or a position out of our coordinates' range (legality on
/// a board is not checked).
pub fn placement_from_stackrabbit(piece: Piece, [rotation, x, y]: [i8; 3]) -> Option<Placement> {
    let rotation = u8::try_from(rotation)
        .ok()
        .filter(|&rotation| rotation < piece.orientation_count())?;
    let state = PieceState {
        x: x.checked_add(SPAWN_X)?,
        y: y.checked_add(SPAWN_Y)?,
        rotation,
    };
    Some(Placement::new(piece, state))
}

/// The time a server has to answer `version` when the engine starts.
const VERSION_LIMIT: Duration = Duration::from_secs(5);

/// A server of StackRabbit's API asked for each piece of an NES game: `GET URL/get-move` with
/// the board (200 cells), the current and next piece, the level, the lines and the player's
/// input timeline. Its answer's placement (`rot,x,y|inputs|…`) must be one the player reaches
/// (the gamepad searcher's placements under the game's timeline), and its inputs are played
/// frame by frame through the arena's frame model and must lock the piece there; `No legal
/// moves` resigns the game (a top-out), and a status other than 200, a malformed answer or
/// none in time is the engine's fault.
pub struct StackRabbitEngine {
    spec: StackRabbitSpec,
    info: Info,
    agent: ureq::Agent,
    /// The game's timeline (its `start`); `None` outside NES games.
    timeline: Option<String>,
}

/// `version`'s answer.
#[derive(serde::Deserialize)]
struct Version {
    #[serde(rename = "jsVersion", default)]
    js_version: Option<serde_json::Value>,
}

impl StackRabbitEngine {
    /// Checks that the server answers `GET URL/version` and names it by its version.
    pub fn start(spec: StackRabbitSpec) -> Result<StackRabbitEngine, Fault> {
        let version: Version = read_json(
            agent(spec.limit.max(VERSION_LIMIT))
                .get(format!("{}/version", spec.url))
                .call(),
            "version",
        )
        .map_err(|fault| Fault {
            kind: FaultKind::Handshake,
            message: format!("the StackRabbit server at {}: {}", spec.url, fault.message),
        })?;
        let version = match version.js_version {
            Some(serde_json::Value::String(text)) => text,
            Some(other) => other.to_string(),
            None => String::new(),
        };
        Ok(StackRabbitEngine {
            info: Info {
                protocol: PROTOCOL_VERSION,
                name: format!("StackRabbit API at {}", spec.url),
                version,
                preview: 1,
                searcher: Some("gamepad".to_string()),
            },
            agent: agent(spec.limit),
            spec,
            timeline: None,
        })
    }
}

impl Decider for StackRabbitEngine {
    fn info(&self) -> &Info {
        &self.info
    }

    fn begin_game(&mut self, start: &Start) {
        self.timeline = start.timeline.clone();
    }

    fn suggest(&mut self, suggest: &Suggest, placements: &[Placement]) -> Result<Answer, Fault> {
        let timeline = self.timeline.as_deref().ok_or_else(|| Fault {
            kind: FaultKind::Illegal,
            message: "a StackRabbit server plays NES games only (arena nes)".to_string(),
        })?;
        let board: String = suggest
            .board
            .iter()
            .flat_map(|row| row.chars().map(|cell| if cell == '#' { '1' } else { '0' }))
            .collect();
        let mut request = self
            .agent
            .get(format!("{}/get-move", self.spec.url))
            .query("board", &board)
            .query("currentPiece", suggest.current.letter().to_string())
            .query("level", suggest.level.to_string())
            .query("lines", suggest.lines.to_string())
            .query("inputFrameTimeline", timeline);
        if let Some(next) = suggest.preview.first() {
            request = request.query("nextPiece", next.letter().to_string());
        }
        let answer = read_text(request.call(), "get-move answer")?;
        if answer.trim() == "No legal moves" {
            return Err(Fault {
                kind: FaultKind::Resigned,
                message: "the server found no legal move".to_string(),
            });
        }
        let (triple, letters) = parse_get_move(&answer).ok_or_else(|| Fault {
            kind: FaultKind::Malformed,
            message: format!(
                "the server's get-move answer {:?} is not `rot,x,y|inputs|board|level|lines`",
                answer.chars().take(80).collect::<String>()
            ),
        })?;
        // StackRabbit's board is the 20 rows of the field: cells locked in the hidden rows
        // above it are not sent, so its answer may collide with them.
        let unseen = match suggest.hidden.is_empty() {
            true => "",
            false => " (the field's hidden rows hold cells, which StackRabbit's board cannot show)",
        };
        let illegal = |message: String| Fault {
            kind: FaultKind::Illegal,
            message: format!("the server's placement {triple:?}: {message}{unseen}"),
        };
        let placement = placement_from_stackrabbit(suggest.current, triple)
            .ok_or_else(|| illegal(format!("no placement of {}", suggest.current.letter())))?;
        // The inputs are played, frame by frame, and must lock the piece at the placement;
        // or the placement alone is played, by the searcher's path.
        let inputs = match self.spec.play {
            AnswerPlay::Inputs => Some(letters.to_string()),
            AnswerPlay::Placement => None,
        };
        Suggestion {
            index: None,
            x: Some(i64::from(placement.x)),
            y: Some(i64::from(placement.y)),
            rotation: Some(i64::from(placement.rotation)),
            inputs,
        }
        .answer(placements)
        .map_err(illegal)
    }

    fn end_game(&mut self, _stop: &Stop) {}

    fn fresh(&self) -> Box<dyn Decider> {
        Box::new(StackRabbitEngine {
            spec: self.spec.clone(),
            info: self.info.clone(),
            agent: agent(self.spec.limit),
            timeline: None,
        })
    }
}

/// The placement and the piece's input letters of a `get-move` answer,
/// `rot,x,y|inputs|board|level|lines`; `None` for `No legal moves` or anything else. The
/// inputs end where the piece locks: StackRabbit follows them with the frames until the next
/// piece (`*` for the entry delay, `^` for a line clear's animation), which are not the
/// piece's and are dropped here.
fn parse_get_move(answer: &str) -> Option<([i8; 3], &str)> {
    let mut parts = answer.trim().split('|');
    let placement = parts.next()?;
    let inputs = parts.next()?;
    if parts.count() != 3 {
        return None;
    }
    let mut numbers = placement
        .split(',')
        .map(|number| number.trim().parse::<i8>());
    let triple = [
        numbers.next()?.ok()?,
        numbers.next()?.ok()?,
        numbers.next()?.ok()?,
    ];
    let letters = inputs.trim_end_matches(['*', '^']);
    numbers.next().is_none().then_some((triple, letters))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn get_move_answers_give_their_placement() {
        let board = "0".repeat(200);
        assert_eq!(
            parse_get_move(&format!("0,-4,18|L.L.L.L...**^^*|{board}|19|4")),
            Some(([0, -4, 18], "L.L.L.L..."))
        );
        assert_eq!(
            parse_get_move(&format!("1,0,17|none|{board}|19|0\n")),
            Some(([1, 0, 17], "none"))
        );
        assert_eq!(parse_get_move("No legal moves"), None);
        assert_eq!(parse_get_move("0,1|x|y|z|w"), None);
        assert_eq!(parse_get_move("0,1,2,3|x|y|z|w"), None);
        assert_eq!(parse_get_move("0,1,2|x|y"), None);
    }

    /// StackRabbit's grids, copied from its `docs/tetrominoes.js` (each listed top row first;
    /// 1 is a cell of the piece), in its rotation order: the independent truth.
    fn grids(piece: Piece) -> Vec<Vec<&'static str>> {
        let grids: &[&[&str]] = match piece {
            Piece::I => &[
                &["0000", "0000", "1111", "0000"],
                &["0010", "0010", "0010", "0010"],
            ],
            Piece::J => &[
                &["0000", "0111", "0001"],
                &["0010", "0010", "0110"],
                &["0100", "0111", "0000"],
                &["0011", "0010", "0010"],
            ],
            Piece::L => &[
                &["0000", "0111", "0100"],
                &["0110", "0010", "0010"],
                &["0001", "0111", "0000"],
                &["0010", "0010", "0011"],
            ],
            Piece::O => &[&["0000", "0110", "0110", "0000"]],
            Piece::S => &[&["0000", "0011", "0110"], &["0010", "0011", "0001"]],
            Piece::T => &[
                &["0000", "0111", "0010"],
                &["0010", "0110", "0010"],
                &["0010", "0111", "0000"],
                &["0010", "0011", "0010"],
            ],
            Piece::Z => &[&["0000", "0110", "0011"], &["0001", "0011", "0010"]],
        };
        grids.iter().map(|grid| grid.to_vec()).collect()
    }

    /// The board cells of StackRabbit's grid `rotation` placed at `[rotation, x, y]`: the
    /// corner is at column 3 + x, row initialY + y.
    fn stackrabbit_cells(piece: Piece, [rotation, x, y]: [i8; 3]) -> Vec<(i8, i8)> {
        let grid = &grids(piece)[rotation as usize];
        let mut cells = Vec::new();
        for (row, line) in grid.iter().enumerate() {
            for (column, cell) in line.chars().enumerate() {
                if cell == '1' {
                    cells.push((3 + x + column as i8, initial_y(piece) + y + row as i8));
                }
            }
        }
        cells.sort_unstable();
        cells
    }

    #[test]
    fn every_orientation_matches_stackrabbits_grid_cell_by_cell() {
        for piece in Piece::ALL {
            assert_eq!(
                grids(piece).len(),
                usize::from(piece.orientation_count()),
                "{piece}: StackRabbit lists as many orientations as we do"
            );
            for rotation in 0..piece.orientation_count() {
                for x in -2..12 {
                    for y in -2..22 {
                        let placement = Placement::new(piece, PieceState { x, y, rotation });
                        let triple = stackrabbit_placement(&placement);
                        assert_eq!(
                            placement.sorted_cells().to_vec(),
                            stackrabbit_cells(piece, triple),
                            "{piece} rotation {rotation} at ({x}, {y}) as {triple:?}"
                        );
                        assert_eq!(placement_from_stackrabbit(piece, triple), Some(placement));
                    }
                }
            }
        }
    }

    #[test]
    fn named_cases_worked_by_hand() {
        // The flat T at its spawn: StackRabbit's spawn corner, [0, 0, 0].
        let spawn = Placement::new(Piece::T, PieceState::SPAWN);
        assert_eq!(stackrabbit_placement(&spawn), [0, 0, 0]);
        assert_eq!(stackrabbit_cpp_placement(&spawn), [0, 0, -1]);
        // A vertical I in the left column of an empty board: cells (0, 16) to (0, 19). Its
        // grid's filled column is column 2, so the corner is at column −2 (xOffset −5), and
        // its top row 16 (the corner's row; yOffset 16 − (−2) = 18).
        let vertical = Placement::new(
            Piece::I,
            PieceState {
                x: 0,
                y: 18,
                rotation: 1,
            },
        );
        assert_eq!(
            vertical.sorted_cells(),
            [(0, 16), (0, 17), (0, 18), (0, 19)]
        );
        assert_eq!(stackrabbit_placement(&vertical), [1, -5, 18]);
        assert_eq!(stackrabbit_cpp_placement(&vertical), [1, -5, 16]);
        // A flat I on the floor at the right wall: cells (6..=9, 19); the grid's row 2 holds
        // the cells, so the corner is at (6, 17): xOffset 3, yOffset 17 − (−2) = 19.
        let flat = Placement::new(
            Piece::I,
            PieceState {
                x: 8,
                y: 19,
                rotation: 0,
            },
        );
        assert_eq!(stackrabbit_placement(&flat), [0, 3, 19]);
    }

    #[test]
    fn triples_without_a_placement() {
        assert_eq!(placement_from_stackrabbit(Piece::O, [1, 0, 0]), None);
        assert_eq!(placement_from_stackrabbit(Piece::S, [2, 0, 0]), None);
        assert_eq!(placement_from_stackrabbit(Piece::T, [-1, 0, 0]), None);
        assert_eq!(placement_from_stackrabbit(Piece::T, [0, 127, 0]), None);
    }
}
