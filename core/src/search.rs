//! The `Searcher` trait (which lock placements a piece can reach) and the reusable buffer it
//! fills.
//!
//! A searcher writes into a caller-owned [`Placements`] buffer that is cleared, not
//! reallocated, on every call: once its vectors have grown to the largest result, searching
//! allocates nothing. Paths are stored in one flat vector so that asking for them costs one
//! `extend` per placement, and not asking costs nothing.

use crate::board::Board;
use crate::piece::Piece;
use crate::placement::{Buttons, Input, PieceState, Placement};
use crate::rules::GameOverRule;
use crate::timeline::Timeline;

/// What a search should produce besides the placements, and what it should assume about the
/// piece and the game's speed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchOptions {
    /// Record an input path from the spawn state to each placement.
    pub with_paths: bool,
    /// The piece is a game's first, which has the long entry delay: no gravity for its first
    /// 96 frames (docs/spec/rules.md, "Timing"). Only searchers that model frames read it.
    pub entry_delay: bool,
    /// The game's speed (frames per row at the current level) and the player's input timeline, for
    /// gravity-aware searchers; `None` means the searcher's own default timing
    /// ([`Searcher::frame_timing`]). Searchers that ignore gravity ignore it.
    pub frame_timing: Option<FrameTiming>,
    /// The game's game-over rule. A searcher reads it for one thing: under the console rule
    /// ([`GameOverRule::spawn_may_overlap`]) a piece whose spawn state overlaps may still move
    /// out, so the search must start from that spawn and offer only the legal locks it
    /// reaches; under the other rules such a piece has no placement. Only the gamepad search
    /// models it; the others find nothing from an overlapping spawn under every rule.
    pub game_over_rule: GameOverRule,
    /// The frames the piece has already played from its spawn ([`PlayedFrames`]; none by
    /// default): the search starts where they leave the piece and the player, and its paths go
    /// on from there. Only searchers that model frames read it; a caller must not give frames
    /// to one that does not ([`Searcher::frame_timing`] `None`).
    pub played: PlayedFrames,
}

impl SearchOptions {
    /// Paths on, no entry delay, the searcher's default timing, the simulation rule, from the
    /// spawn.
    pub const WITH_PATHS: SearchOptions = SearchOptions {
        with_paths: true,
        entry_delay: false,
        frame_timing: None,
        game_over_rule: GameOverRule::Simulation,
        played: PlayedFrames::NONE,
    };
}

/// The most frames a piece may have played before a search goes on from where they left it
/// ([`PlayedFrames`]): one second, far above the reaction times players are measured with
/// (BetaTetris's: 18 frames, 300 ms).
pub const MAX_PLAYED_FRAMES: usize = 60;

/// The frames a piece has already played since its spawn, one button set per frame (at most
/// [`MAX_PLAYED_FRAMES`]).
///
/// A player with a reaction time plays the first frames of a plan it made before it saw the
/// preview piece, then plans again from where those frames left the piece: a search given
/// them ([`SearchOptions::played`]) starts there, with the piece's position, rotation, fall
/// timer and soft drop and the player's thumbs as those frames left them, and its paths are
/// the frames that follow. The frames must be ones the searcher could have played (a prefix
/// of one of its own paths that does not lock the piece); from other frames a search finds
/// nothing. Fixed-size, so that options stay `Copy` and a search allocates nothing.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct PlayedFrames {
    frames: [Buttons; MAX_PLAYED_FRAMES],
    len: u8,
}

impl PlayedFrames {
    /// No frame played: the search starts at the spawn.
    pub const NONE: PlayedFrames = PlayedFrames {
        frames: [Buttons::NONE; MAX_PLAYED_FRAMES],
        len: 0,
    };

    /// `frames`, or `None` when they are more than [`MAX_PLAYED_FRAMES`].
    pub fn new(frames: &[Buttons]) -> Option<PlayedFrames> {
        let mut played = PlayedFrames::NONE;
        played
            .frames
            .get_mut(..frames.len())?
            .copy_from_slice(frames);
        played.len = frames.len() as u8;
        Some(played)
    }

    /// The frames, in the order played.
    pub fn as_slice(&self) -> &[Buttons] {
        &self.frames[..usize::from(self.len)]
    }

    /// Whether no frame was played (the search starts at the spawn).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl Default for PlayedFrames {
    fn default() -> PlayedFrames {
        PlayedFrames::NONE
    }
}

impl std::fmt::Debug for PlayedFrames {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.debug_list().entries(self.as_slice()).finish()
    }
}

/// What a decision depends on besides the board and the pieces: the game's game-over rule
/// (which placements end the game, for the chain's cut-short and no-suicide rules), and, for
/// gravity-aware searchers, the level's frames per row and the player's input timeline and whether
/// the current piece is the game's first, with its long entry delay.
///
/// A game driver builds one per decision and hands it to the chain
/// ([`crate::LookaheadChain::best_in`]), which passes the timing to every search of the chain
/// and the entry delay to the current piece's search only. It travels with the call rather
/// than being set on the searcher beforehand, so a searcher or chain shared between games
/// cannot carry one game's speed into another's decision. The default is no timing (each
/// searcher's own), no entry delay and the simulation game-over rule: what a game without
/// frames of a spawn-based searcher needs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DecisionContext {
    /// The timing of the current level and player; `None` means each searcher's default.
    pub frame_timing: Option<FrameTiming>,
    /// Whether the current piece is the game's first, with the 96-frame entry delay.
    pub entry_delay: bool,
    /// The game's game-over rule: which placements end the game.
    pub game_over_rule: GameOverRule,
    /// The frames the current piece has already played ([`SearchOptions::played`]; none by
    /// default): its search goes on from there. Later pieces start at their spawn.
    pub played: PlayedFrames,
}

impl DecisionContext {
    /// The default context (no timing, no entry delay) under `rule`.
    pub fn with_game_over_rule(rule: GameOverRule) -> DecisionContext {
        DecisionContext {
            game_over_rule: rule,
            ..DecisionContext::default()
        }
    }
}

impl DecisionContext {
    /// The options for the current piece's search in this context: its timing and entry
    /// delay, with or without paths (what a driver uses to ask again for the chosen
    /// placement's path). Later pieces of a chain are searched with the timing only.
    pub fn current_piece_options(self, with_paths: bool) -> SearchOptions {
        SearchOptions {
            with_paths,
            entry_delay: self.entry_delay,
            frame_timing: self.frame_timing,
            game_over_rule: self.game_over_rule,
            played: self.played,
        }
    }

    /// The options for the search of a piece after the current one (the preview, a deeper
    /// known piece or an unknown one): the timing, never the entry delay, no paths.
    pub fn later_piece_options(self) -> SearchOptions {
        SearchOptions {
            with_paths: false,
            entry_delay: false,
            frame_timing: self.frame_timing,
            game_over_rule: self.game_over_rule,
            played: PlayedFrames::NONE,
        }
    }
}

/// The frame timing a gravity-aware searcher simulates (docs/spec/search.md §3).
///
/// In results and replays it is written as `{"frames_per_row", "tap_rate", "inputs"}` when its
/// timeline is uniform (as every file was before timelines existed, so old files read the
/// same and new ones at a tap rate are written the same), and with `"timeline"` (the pattern's
/// text) in place of `"tap_rate"` when it is mixed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "FrameTimingRecord", into = "FrameTimingRecord")]
pub struct FrameTiming {
    /// Frames per row of gravity, from the level ([`crate::scoring::frames_per_row`]): 2 at
    /// levels 19–28, 1 from level 29. At least 1.
    pub frames_per_row: u8,
    /// The player's input-frame timeline ([`Timeline`]; `X.` = 30 Hz, the published bot's):
    /// under [`InputModel::TwoThumb`] its gaps are each thumb's fewest frames from one press
    /// to the next, under [`InputModel::Article`] its `X` frames are the fixed press frames.
    pub timeline: Timeline,
    /// Which buttons the player may press on which frames (docs/spec/search.md §3, "Input models").
    /// Absent in results recorded before the models existed, which were all two-thumb.
    pub inputs: InputModel,
}

impl FrameTiming {
    /// The NES plateau's timing: level 19 (2 frames per row) with 30 Hz two-thumb tapping.
    pub const LEVEL_19_30_HZ: FrameTiming = FrameTiming {
        frames_per_row: 2,
        timeline: Timeline::THIRTY_HZ,
        inputs: InputModel::TwoThumb,
    };

    /// The tap rate T of a uniform timeline (one input frame every T frames), `None` for a
    /// mixed one.
    pub const fn tap_rate(self) -> Option<u8> {
        self.timeline.tap_rate()
    }
}

/// [`FrameTiming`] as results and replays write it: `tap_rate` for a uniform timeline,
/// `timeline` for a mixed one (exactly one of the two).
#[derive(serde::Serialize, serde::Deserialize)]
struct FrameTimingRecord {
    frames_per_row: u8,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    tap_rate: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    timeline: Option<Timeline>,
    #[serde(default)]
    inputs: InputModel,
}

impl From<FrameTiming> for FrameTimingRecord {
    fn from(timing: FrameTiming) -> FrameTimingRecord {
        let tap_rate = timing.tap_rate();
        FrameTimingRecord {
            frames_per_row: timing.frames_per_row,
            tap_rate,
            timeline: tap_rate.is_none().then_some(timing.timeline),
            inputs: timing.inputs,
        }
    }
}

impl TryFrom<FrameTimingRecord> for FrameTiming {
    type Error = String;

    /// Refuses a record with both a tap rate and a timeline, or neither, or a tap rate out of
    /// range (a uniform timeline written as a timeline reads as its tap rate).
    fn try_from(record: FrameTimingRecord) -> Result<FrameTiming, String> {
        let timeline = match (record.tap_rate, record.timeline) {
            (Some(rate), None) if Timeline::GAPS.contains(&rate) => Timeline::uniform(rate),
            (Some(rate), None) => {
                return Err(format!("frame timing: tap rate {rate} is outside 2..=8"));
            }
            (None, Some(timeline)) => timeline,
            _ => {
                return Err(
                    "frame timing: give exactly one of tap_rate (uniform) and timeline (mixed)"
                        .to_string(),
                );
            }
        };
        Ok(FrameTiming {
            frames_per_row: record.frames_per_row,
            timeline,
            inputs: record.inputs,
        })
    }
}

/// The player's input model: which buttons may be pressed on which frames of a falling piece
/// (docs/spec/search.md §3, "Input models" and "Input timelines"). With the timeline
/// ([`FrameTiming::timeline`]) and the piece's input frames counted from 1 (its first frame
/// with input, the frame after the spawn); for a uniform timeline of tap rate T:
///
/// - [`InputModel::TwoThumb`]: Left/Right on one thumb and A/B on the other. Each thumb
///   presses at most once every T frames (a press is held for its frame only), so one frame
///   can carry a shift AND a rotation; Down may be held for soft drop (never together with a
///   shift, which the game would ignore). Under a mixed timeline with gaps g₁, g₂, …, gₙ
///   (frames from each `X` to the next) a thumb's second press comes at least g₁ frames after
///   its first, its third at least g₂ after its second, and so on round the gaps.
/// - [`InputModel::Article`]: the seed article's published level-19 bot. The press frames are
///   input frames 1, 1 + T, 1 + 2T, … (in general: input frame 1 + i for every `X` at
///   position i of the repeating timeline); on a press frame exactly one of Left, Right, A, B
///   or nothing is pressed, on every other frame nothing, and Down never (the bot pressed
///   Down only at the very end, for push-down points, which changes no placement). At T = 2
///   that is "every other frame", the published bot. The schedule is fixed by the count of
///   frames since the piece's first input frame, not by the last press: a press frame on
///   which nothing is pressed does not move the next press frame earlier (the literal reading
///   of docs/spec/search.md). A first piece's entry-delay frames are input frames like any other
///   and follow the same schedule. Its placements are a subset of the two-thumb model's at
///   the same timing.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum InputModel {
    /// Two thumbs, each tapping at most every T frames, plus soft drop: `two-thumb`.
    #[default]
    TwoThumb,
    /// The published bot's: one button (or none) on every T-th frame, never Down: `article`.
    Article,
}

impl InputModel {
    /// Every model, in the order listings show them.
    pub const ALL: [InputModel; 2] = [InputModel::TwoThumb, InputModel::Article];

    /// The model's name on the command line and in results: `two-thumb`, `article`.
    pub const fn name(self) -> &'static str {
        match self {
            InputModel::TwoThumb => "two-thumb",
            InputModel::Article => "article",
        }
    }

    /// One line saying what the player may press.
    pub const fn description(self) -> &'static str {
        match self {
            InputModel::TwoThumb => {
                "a shift and a rotation may share a frame, each thumb tapping at most every \
                 tap-rate frames, with soft drop"
            }
            InputModel::Article => {
                "the published bot's: at most one of Left, Right, A, B on every tap-rate-th \
                 frame from the first, nothing between, no soft drop"
            }
        }
    }
}

impl std::fmt::Display for InputModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for InputModel {
    type Err = crate::Error;

    /// Parses a model name; the error lists the valid ones.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        InputModel::ALL
            .into_iter()
            .find(|model| model.name() == text)
            .ok_or_else(|| crate::Error::UnknownInputModel(text.to_string()))
    }
}

/// The placements found by one search, in the searcher's documented order, with their input
/// paths when they were asked for.
#[derive(Clone, Debug, Default)]
pub struct Placements {
    placements: Vec<Placement>,
    path_inputs: Vec<Input>,
    /// `path_ends[i]` is where placement `i`'s path ends in `path_inputs`; it starts where
    /// placement `i − 1`'s ends.
    path_ends: Vec<u32>,
    with_paths: bool,
}

impl Placements {
    /// An empty buffer.
    pub fn new() -> Placements {
        Placements::default()
    }

    /// Empties the buffer for a new search, keeping its capacity; `with_paths` says whether
    /// the placements that follow come with paths.
    #[inline]
    pub fn clear(&mut self, with_paths: bool) {
        self.placements.clear();
        self.path_inputs.clear();
        self.path_ends.clear();
        self.with_paths = with_paths;
    }

    /// Appends a placement without a path (the buffer must have been cleared without paths).
    #[inline]
    pub fn push(&mut self, placement: Placement) {
        debug_assert!(!self.with_paths, "this search records paths");
        self.placements.push(placement);
    }

    /// Appends placements without paths (the buffer must have been cleared without paths),
    /// in order: one capacity check for them all when the iterator knows its exact length
    /// (a range zipped with a slice and mapped does), instead of one per [`Placements::push`].
    #[inline]
    pub fn extend(&mut self, placements: impl IntoIterator<Item = Placement>) {
        debug_assert!(!self.with_paths, "this search records paths");
        self.placements.extend(placements);
    }

    /// Appends a placement with its input path (the buffer must have been cleared with paths).
    #[inline]
    pub fn push_with_path(&mut self, placement: Placement, path: impl IntoIterator<Item = Input>) {
        debug_assert!(self.with_paths, "this search does not record paths");
        self.placements.push(placement);
        self.path_inputs.extend(path);
        self.path_ends.push(self.path_inputs.len() as u32);
    }

    /// Whether paths were recorded.
    #[inline]
    pub fn has_paths(&self) -> bool {
        self.with_paths
    }

    /// Number of placements.
    #[inline]
    pub fn len(&self) -> usize {
        self.placements.len()
    }

    /// Whether the search found nothing (for example because the piece cannot spawn).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.placements.is_empty()
    }

    /// The placements in the searcher's order.
    #[inline]
    pub fn as_slice(&self) -> &[Placement] {
        &self.placements
    }

    /// Placement `index`.
    #[inline]
    pub fn get(&self, index: usize) -> Option<&Placement> {
        self.placements.get(index)
    }

    /// The input path of placement `index`, if paths were recorded.
    pub fn path(&self, index: usize) -> Option<&[Input]> {
        if !self.with_paths || index >= self.path_ends.len() {
            return None;
        }
        let start = if index == 0 {
            0
        } else {
            self.path_ends[index - 1] as usize
        };
        Some(&self.path_inputs[start..self.path_ends[index] as usize])
    }

    /// Iterates over the placements in order.
    pub fn iter(&self) -> std::slice::Iter<'_, Placement> {
        self.placements.iter()
    }
}

impl<'a> IntoIterator for &'a Placements {
    type Item = &'a Placement;
    type IntoIter = std::slice::Iter<'a, Placement>;

    fn into_iter(self) -> Self::IntoIter {
        self.placements.iter()
    }
}

/// A searcher that can be built by name: what a registry needs besides [`Searcher`].
///
/// The evaluator side's counterpart is [`crate::WeightedEvaluator`]. A searcher crate
/// implements both traits; registering it is then one line in the registry.
pub trait NamedSearcher: Searcher + Sized {
    /// The searcher's name in strategy names (`bfs` in `bfs+elashi@2`).
    const NAME: &'static str;
    /// A one-line description for listings.
    const DESCRIPTION: &'static str;

    /// The game-over rule a game of this searcher uses unless told otherwise: the simulation
    /// rule for searchers that start from the spawn, the literature rule for the `drop`
    /// searcher, whose pieces come from above the field (docs/spec/rules.md).
    const GAME_OVER_RULE: GameOverRule = GameOverRule::Simulation;

    /// The searcher with its default settings (and empty scratch).
    fn with_default_settings() -> Self;
}

/// Enumerates every lock placement a piece can reach from its spawn state.
///
/// Contract for implementations:
/// - placements come out in the searcher's documented order, each once, and the order is a
///   pure function of the board, piece and options (it decides ties);
/// - a gravity-aware searcher simulates `options.frame_timing`, or its default timing when
///   that is `None`; the timing comes with every call, so nothing a caller set earlier
///   changes a search;
/// - a piece whose spawn state is illegal has no placement (an empty result, not an error),
///   for a searcher that moves the piece from its spawn ([`Searcher::path_start`] is the spawn
///   state); the `drop` searcher's pieces come from above the field and have no spawn to check;
/// - `out` is cleared first and reused: no allocation per call once it has grown;
/// - paths are recorded only when `options.with_paths` is set, and recording them must not
///   slow down a search that does not.
pub trait Searcher {
    /// The searcher's name as used in strategy names (`bfs`, `column-drop`, …).
    fn name(&self) -> &str;

    /// Fills `out` with every lock placement of `piece` on `board`.
    fn search(&mut self, board: &Board, piece: Piece, options: SearchOptions, out: &mut Placements);

    /// Fills `out` with the same placements as [`Searcher::search`] (the same set, each
    /// once, with paths when asked for) in whatever order the searcher finds fastest; the
    /// order is still a pure function of the board, piece and options.
    ///
    /// For callers whose result does not depend on the order: the lookahead chain's searches
    /// of the pieces after the current one, whose placements compete only by value (the
    /// chain breaks ties between equal values through the current piece's order, and
    /// rebuilds a tied best chain with [`Searcher::search`]). The default is
    /// [`Searcher::search`].
    fn search_unordered(
        &mut self,
        board: &Board,
        piece: Piece,
        options: SearchOptions,
        out: &mut Placements,
    ) {
        self.search(board, piece, options, out)
    }

    /// Whether [`Searcher::search_unordered`] gives the placements in the searcher's order
    /// anyway (true unless it is overridden): the lookahead chain then never needs to walk a
    /// tied best chain again in that order.
    fn unordered_search_keeps_order(&self) -> bool {
        true
    }

    /// The frame timing the searcher simulates by default (when a search's options give none,
    /// [`SearchOptions::frame_timing`]), or `None` for a searcher that ignores gravity (its
    /// placements may not all be reachable at speed, and its paths are moves, not frames).
    /// A game driver asks it to know whether the searcher needs the level's timing at all.
    fn frame_timing(&self) -> Option<FrameTiming> {
        None
    }

    /// The state every input path of this searcher starts from: the spawn state for
    /// searchers that move the piece from its spawn (the default); a searcher whose pieces
    /// come from elsewhere (the `drop` searcher's, from above the field) says where, so that
    /// a replay can follow its paths.
    fn path_start(&self) -> PieceState {
        PieceState::SPAWN
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::placement::PieceState;

    #[test]
    fn input_models_parse_print_and_serialize_by_name() {
        for model in InputModel::ALL {
            assert_eq!(model.name().parse::<InputModel>(), Ok(model));
            assert_eq!(model.to_string(), model.name());
        }
        assert_eq!(InputModel::default(), InputModel::TwoThumb);
        assert_eq!(
            "thumbs"
                .parse::<InputModel>()
                .map_err(|error| error.to_string()),
            Err("unknown input model \"thumbs\" (valid: two-thumb article)".to_string())
        );
        let article = FrameTiming {
            inputs: InputModel::Article,
            ..FrameTiming::LEVEL_19_30_HZ
        };
        let json = serde_json::to_string(&article).unwrap();
        assert_eq!(
            json,
            r#"{"frames_per_row":2,"tap_rate":2,"inputs":"article"}"#
        );
        assert_eq!(serde_json::from_str::<FrameTiming>(&json).unwrap(), article);
        // A timing recorded before the input models existed is two-thumb.
        assert_eq!(
            serde_json::from_str::<FrameTiming>(r#"{"frames_per_row":2,"tap_rate":2}"#).unwrap(),
            FrameTiming::LEVEL_19_30_HZ
        );
        // A mixed timeline is written as its text in place of the tap rate; a uniform one
        // written as a timeline reads as its tap rate; both, neither or a bad one are refused.
        let mixed = FrameTiming {
            timeline: "X....X...X...".parse().unwrap(),
            ..FrameTiming::LEVEL_19_30_HZ
        };
        let json = serde_json::to_string(&mixed).unwrap();
        assert_eq!(
            json,
            r#"{"frames_per_row":2,"timeline":"X....X...X...","inputs":"two-thumb"}"#
        );
        assert_eq!(serde_json::from_str::<FrameTiming>(&json).unwrap(), mixed);
        assert_eq!(
            serde_json::from_str::<FrameTiming>(r#"{"frames_per_row":2,"timeline":"X.X."}"#)
                .unwrap(),
            FrameTiming::LEVEL_19_30_HZ
        );
        for refused in [
            r#"{"frames_per_row":2,"tap_rate":2,"timeline":"X."}"#,
            r#"{"frames_per_row":2}"#,
            r#"{"frames_per_row":2,"tap_rate":9}"#,
            r#"{"frames_per_row":2,"timeline":"XX"}"#,
        ] {
            assert!(
                serde_json::from_str::<FrameTiming>(refused).is_err(),
                "{refused}"
            );
        }
    }

    #[test]
    fn paths_are_kept_per_placement_and_buffers_are_reused() {
        let mut out = Placements::new();
        out.clear(true);
        let a = Placement::new(Piece::T, PieceState::SPAWN);
        out.push_with_path(a, [Input::Left, Input::Down]);
        out.push_with_path(a, []);
        out.push_with_path(a, [Input::RotateClockwise]);
        assert_eq!(out.len(), 3);
        assert_eq!(out.path(0), Some(&[Input::Left, Input::Down][..]));
        assert_eq!(out.path(1), Some(&[][..]));
        assert_eq!(out.path(2), Some(&[Input::RotateClockwise][..]));
        assert_eq!(out.path(3), None);
        out.clear(false);
        assert!(out.is_empty());
        out.push(a);
        assert_eq!(out.path(0), None);
        assert!(!out.has_paths());
    }
}
