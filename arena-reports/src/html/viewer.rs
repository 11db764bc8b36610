//! The replay viewer page: one self-contained HTML file that shows a verified replay — the
//! board, the next pieces, lines, score and level — placement by placement or input by input
//! along each piece's recorded path, with the evaluator's features and cost when the replay
//! has them, and the rules of the game.
//!
//! The page is built from the replay's verification ([`Replay::verify`]): a [`ReplayViewer`]
//! observes every checked placement and keeps what the arena computed for it — the states the
//! piece passed through on its path (after each move, or after each gamepad frame through the
//! NES frame model, so the page needs no model of its own), and the lines, score and level
//! after it. Only a replay that verifies gets a page. The page's script (`viewer.js`) rebuilds
//! the boards by locking the recorded placements and clearing full rows.
//!
//! The level shown is the game's one level, the verifier's (`Replay::levels`): a game
//! without gravity starts at level 0, a gamepad game at the lowest level of its recorded
//! `frame_timing`'s gravity (19 for 2 frames per row, the timing `arena play` records) and
//! rises with the lines by the NES rule up to the last level of that gravity, since a game
//! without frames keeps its timing to the end; the score counts from that same level.

use serde::Serialize;
use tetris_core::{Evaluator, FrameTiming, GameOverRule, Piece};
use tetris_registry::Strategy;

use super::{PAGE_STYLE, escape_html, fill_template, script_json};
use crate::tournament::{SCORE_RULE, game_over_rule_text};
use tetris_arena_games::sim::evaluation::Evaluation;
use tetris_arena_games::sim::placement::format_path;
use tetris_arena_games::sim::replay::frames::flat_states;
use tetris_arena_games::sim::replay::{Replay, ReplayStep};
use tetris_registry::StrategySpec;

/// The page template.
const TEMPLATE: &str = include_str!("viewer.html");
/// The viewer's own style.
const VIEWER_STYLE: &str = include_str!("viewer.css");
/// The viewer's script.
const VIEWER_SCRIPT: &str = include_str!("viewer.js");

/// What the viewer keeps of one verified placement.
#[derive(Clone, Debug, PartialEq)]
struct CheckedPlacement {
    /// The states of the path, flattened as x, y, rotation.
    states: Vec<i8>,
    lines: u64,
    score: u32,
    level: u8,
}

/// Collects, from a replay's verification, what its viewer page shows (pass
/// [`ReplayViewer::observe`] to [`Replay::verify`], then build the page with
/// [`ReplayViewer::page`]).
#[derive(Clone, Debug, Default)]
pub struct ReplayViewer {
    checked: Vec<CheckedPlacement>,
}

/// The page's data: the `<script id="replay-data">` JSON that `viewer.js` reads.
#[derive(Serialize)]
struct ViewerData<'a> {
    strategy: &'a str,
    generator: String,
    seed: u64,
    /// Pieces the strategy sees per decision.
    depth: usize,
    rules: RulesData,
    result: ResultData,
    /// Every stored piece, as letters.
    pieces: String,
    /// The orientation table, `[piece index][rotation][cell] = [dx, dy]` (T J Z O S L I).
    shapes: Vec<Vec<[[i8; 2]; 4]>>,
    /// The evaluator's weights by feature name, when the strategy can be built here.
    weights: Option<serde_json::Map<String, serde_json::Value>>,
    placements: Vec<PlacementData<'a>>,
}

#[derive(Serialize)]
struct RulesData {
    board_height: u8,
    max_pieces: Option<u64>,
    frame_timing: Option<FrameTiming>,
    /// The level the game starts at: 0, or for a gamepad game the lowest level of its
    /// gravity (`Replay::levels`).
    start_level: u8,
    /// The highest level the game can reach: null without a limit (no gravity), else the last
    /// level of its gravity.
    last_level: Option<u8>,
    game_over_rule: GameOverRule,
    /// The rule in words.
    game_over: String,
    score: &'static str,
}

#[derive(Serialize)]
struct ResultData {
    pieces: u64,
    lines: u64,
    score: u32,
    end: &'static str,
    end_text: String,
}

#[derive(Serialize)]
struct PlacementData<'a> {
    piece: Piece,
    x: i8,
    y: i8,
    rotation: u8,
    cleared: u8,
    /// The recorded path in its text form (`L R D CW CCW F<buttons>`).
    path: String,
    /// The states along the path, flattened: x, y, rotation of the start, then after each
    /// input.
    states: &'a [i8],
    lines: u64,
    score: u32,
    /// The level after the placement (the verifier's).
    level: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    evaluation: Option<&'a Evaluation>,
}

impl ReplayViewer {
    /// A viewer that has seen no placement yet.
    pub fn new() -> ReplayViewer {
        ReplayViewer::default()
    }

    /// Keeps what the page needs of one verified placement.
    pub fn observe(&mut self, step: &ReplayStep<'_>) {
        self.checked.push(CheckedPlacement {
            states: flat_states(step.path),
            lines: step.lines,
            score: step.score,
            level: step.level,
        });
    }

    /// The page of `replay`, which must be the replay this viewer observed being verified,
    /// every placement of it (an error message otherwise).
    pub fn page(&self, replay: &Replay) -> Result<String, String> {
        if self.checked.len() != replay.placements.len() {
            return Err(format!(
                "the viewer saw {} of the replay's {} placements verified",
                self.checked.len(),
                replay.placements.len()
            ));
        }
        let depth = replay
            .strategy
            .parse::<StrategySpec>()
            .map_or(1, |spec| spec.depth);
        let weights = Strategy::from_name(&replay.strategy).ok().map(|strategy| {
            let evaluator = strategy.evaluator();
            let weights = evaluator.weights();
            evaluator
                .feature_names()
                .iter()
                .filter_map(|name| Some((name.to_string(), weights.get(name)?.into())))
                .collect()
        });
        let result = &replay.result;
        let levels = replay.levels(&replay.rules);
        let rule = replay.rules.rule();
        let data = ViewerData {
            strategy: &replay.strategy,
            generator: replay.generator.to_string(),
            seed: replay.seed,
            depth,
            rules: RulesData {
                board_height: replay.rules.board_height,
                max_pieces: replay.rules.max_pieces,
                frame_timing: replay.rules.frame_timing,
                start_level: levels.start,
                last_level: levels.last,
                game_over_rule: rule,
                game_over: game_over_rule_text(rule),
                score: SCORE_RULE,
            },
            result: ResultData {
                pieces: result.pieces,
                lines: result.lines,
                score: result.score,
                end: result.end.name(),
                end_text: result.end.describe(replay.rules.max_pieces, rule),
            },
            pieces: replay.pieces.iter().map(|piece| piece.letter()).collect(),
            shapes: Piece::ALL
                .iter()
                .map(|piece| {
                    (0..4)
                        .map(|rotation| piece.cells(rotation).map(|(dx, dy)| [dx, dy]))
                        .collect()
                })
                .collect(),
            weights,
            placements: replay
                .placements
                .iter()
                .zip(&self.checked)
                .map(|(placement, checked)| PlacementData {
                    piece: placement.piece,
                    x: placement.x,
                    y: placement.y,
                    rotation: placement.rotation,
                    cleared: placement.cleared,
                    path: placement
                        .path
                        .as_deref()
                        .map(format_path)
                        .unwrap_or_default(),
                    states: &checked.states,
                    lines: checked.lines,
                    score: checked.score,
                    level: checked.level,
                    evaluation: placement.evaluation.as_ref(),
                })
                .collect(),
        };
        let title = format!("Replay of {}", replay.strategy);
        let subtitle = format!(
            "{} pieces, {} lines, score {} — generator {} seed {}, board 10 × {}",
            result.pieces,
            result.lines,
            result.score,
            replay.generator,
            replay.seed,
            replay.rules.board_height
        );
        Ok(fill_template(
            TEMPLATE,
            &[
                ("title", &escape_html(&title)),
                ("subtitle", &escape_html(&subtitle)),
                ("page_style", PAGE_STYLE),
                ("board_style", super::BOARD_STYLE),
                ("viewer_style", VIEWER_STYLE),
                ("data", &script_json(&data)),
                ("board_script", super::BOARD_SCRIPT),
                ("viewer_script", VIEWER_SCRIPT),
                ("footer", &super::footer()),
            ],
        ))
    }
}

/// Verifies `replay` (with `redecide`, that strategy must choose every placement) and builds
/// its viewer page; the verifier's message for a replay that does not verify.
pub fn verified_replay_page(
    replay: &Replay,
    redecide: Option<&mut Strategy>,
) -> Result<String, String> {
    let mut viewer = ReplayViewer::new();
    replay
        .verify(redecide, &mut |step| viewer.observe(step))
        .map_err(|error| error.to_string())?;
    viewer.page(replay)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ops::ControlFlow;
    use tetris_arena_games::sim::game::{GameSettings, PlayOptions, play_game};
    use tetris_arena_io::values::{BoardHeight, MaxPieces};
    use tetris_core::GeneratorKind;

    #[test]
    fn a_gamepad_pages_levels_are_its_gravitys_and_its_score_counts_from_them() {
        let mut strategy = Strategy::from_name("gamepad+nes-plateau").unwrap();
        let settings = GameSettings {
            board_height: BoardHeight::default(),
            generator: GeneratorKind::Nes,
            seed: 5,
            max_pieces: Some(MaxPieces::try_from(40).unwrap()),
            game_over_rule: GameOverRule::Simulation,
        };
        let options = PlayOptions {
            keep_placements: true,
            keep_paths: true,
            keep_evaluations: false,
        };
        let result = play_game(&mut strategy, &settings, options, &mut |_| {
            ControlFlow::Continue(())
        })
        .unwrap();
        let replay = Replay::record(&strategy, &settings, &result).unwrap();
        let mut viewer = ReplayViewer::new();
        replay
            .verify(None, &mut |step| viewer.observe(step))
            .unwrap();
        let page = viewer.page(&replay).unwrap();
        // 2 frames per row: levels 19 to 28 (docs/spec/rules.md's gravity table).
        assert!(
            page.contains(r#""start_level":19,"last_level":28"#),
            "{page}"
        );
        assert!(viewer.checked.iter().all(|checked| checked.level == 19));
        // Fewer than 140 lines: every clear scores at level 19, 20 times its level-0 worth.
        let level_0: u32 = replay
            .placements
            .iter()
            .map(|placement| [0, 40, 100, 300, 1200][usize::from(placement.cleared)])
            .sum();
        assert!(level_0 > 0);
        assert_eq!(viewer.checked.last().unwrap().score, 20 * level_0);
    }
}
