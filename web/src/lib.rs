//! The engines in the browser: the arena's jobs ([`jobs`]) exported to JavaScript with
//! `wasm-bindgen`. The page `arena web` writes runs this module in a Web Worker; every job
//! goes through the same request layer as the command line and the move server, so the page
//! plays the command line's games. Each export takes and gives JSON text (the server's bodies
//! and answers); an error is thrown as a JavaScript `Error` with the command line's one-line
//! message in the body's words (a field named as the JSON body names it, `board_height`).

#![deny(missing_docs)]

pub mod jobs;

use wasm_bindgen::prelude::*;

use jobs::{JobError, SteppedGame};

/// A job's error as a JavaScript `Error`, its fields named as the JSON body names them.
fn thrown(error: JobError) -> JsError {
    JsError::new(&error.message())
}

/// Every strategy part, generator and rule, as `arena list --json`.
#[wasm_bindgen]
pub fn strategies() -> String {
    jobs::strategies()
}

/// The pieces' cells by rotation, `[piece][rotation][cell] = [dx, dy]` in the order T J Z O S
/// L I.
#[wasm_bindgen]
pub fn shapes() -> String {
    jobs::shapes()
}

/// A position's ranked placements (the body and answer of the server's `/v1/analyze`).
#[wasm_bindgen]
pub fn analyze(body: &str) -> Result<String, JsError> {
    jobs::analyze(body).map_err(thrown)
}

/// A placement rated against the best (the body and answer of `/v1/rate`).
#[wasm_bindgen]
pub fn rate(body: &str) -> Result<String, JsError> {
    jobs::rate(body).map_err(thrown)
}

/// A whole game (the body of `/v1/play`), answered as `arena play --json`.
#[wasm_bindgen]
pub fn play(body: &str) -> Result<String, JsError> {
    jobs::play(body).map_err(thrown)
}

/// A game played a few placements at a time.
#[wasm_bindgen]
pub struct Game(SteppedGame);

#[wasm_bindgen]
impl Game {
    /// The game of a `/v1/play` body; `paths`: find each placement's path, to animate it.
    #[wasm_bindgen(constructor)]
    pub fn new(body: &str, paths: bool) -> Result<Game, JsError> {
        SteppedGame::new(body, paths).map(Game).map_err(thrown)
    }

    /// The strategy's canonical name, its depth and the game's settings.
    pub fn facts(&self) -> String {
        self.0.facts()
    }

    /// Plays up to `count` more placements: how many, the preview and the end if the game
    /// ended, as JSON; the placements are [`Game::placements`].
    pub fn step(&mut self, count: u32) -> Result<String, JsError> {
        self.0.step(count).map_err(thrown)
    }

    /// The last step's placements, packed: [`jobs::PACKED_FIELDS`] for each (piece index,
    /// x, y, rotation, cleared, lines, score, level, the count of state numbers), then its
    /// path's states.
    pub fn placements(&self) -> Vec<i32> {
        self.0.placements().to_vec()
    }
}
