//! A literal, slow transcription of the canonical BFS of docs/spec/search.md, kept only as a test
//! oracle for [`crate::Bfs`].
//!
//! It shares no code with the fast searcher: legality is `Board::fits`, the queue is a
//! `VecDeque`, visited states and parents live in a `HashMap`, and every call allocates. Tests
//! compare the fast searcher against it placement by placement and path by path, so it is
//! written to be obviously the spec rather than fast. Do not use it to play.

use std::collections::{HashMap, VecDeque};

use tetris_core::{Board, Input, Piece, PieceState, Placement};

/// One lock placement of the reference search with its BFS-tree input path from the spawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReferencePlacement {
    /// The lock placement.
    pub placement: Placement,
    /// The inputs from the spawn state along the first-discovering parents.
    pub path: Vec<Input>,
}

/// The successors in the canonical order: counterclockwise, clockwise (only for pieces with
/// more than 2 orientations), left, right, down. O never rotates.
fn canonical_moves(piece: Piece) -> Vec<Input> {
    let mut moves = Vec::new();
    if piece.orientation_count() > 1 {
        moves.push(Input::RotateCounterclockwise);
    }
    if piece.orientation_count() > 2 {
        moves.push(Input::RotateClockwise);
    }
    moves.extend([Input::Left, Input::Right, Input::Down]);
    moves
}

/// Every lock placement of `piece` on `board` in canonical BFS dequeue order, each with its
/// BFS-tree path; empty when the spawn state is illegal.
pub fn search(board: &Board, piece: Piece) -> Vec<ReferencePlacement> {
    let legal = |state: PieceState| board.fits(piece, state);
    let mut found = Vec::new();
    if !legal(PieceState::SPAWN) {
        return found;
    }
    let moves = canonical_moves(piece);
    // Each discovered state maps to its first-discovering parent and the move from it.
    let mut parent: HashMap<PieceState, Option<(PieceState, Input)>> = HashMap::new();
    parent.insert(PieceState::SPAWN, None);
    let mut queue = VecDeque::from([PieceState::SPAWN]);
    while let Some(state) = queue.pop_front() {
        for &input in &moves {
            let next = state.after(piece, input).expect("a single move");
            if legal(next) && !parent.contains_key(&next) {
                parent.insert(next, Some((state, input)));
                queue.push_back(next);
            }
        }
        let below = state.after(piece, Input::Down).expect("a single move");
        if !legal(below) {
            let mut path = Vec::new();
            let mut at = state;
            while let Some((from, input)) = parent[&at] {
                path.push(input);
                at = from;
            }
            path.reverse();
            found.push(ReferencePlacement {
                placement: Placement::new(piece, state),
                path,
            });
        }
    }
    found
}
