//! StackRabbit's answers, written from our computed data.
//!
//! Each formatter takes what our analysis computed (placements, their gamepad paths, values
//! where higher is better) and returns the body text in StackRabbit's shape: `get-move`'s line,
//! `engine-movelist`'s JSON (its JavaScript engine's shape and its C++ engine's), `rate-move`'s
//! JSON, `eval`'s number and `version`'s JSON. It also holds the pieces of StackRabbit's
//! conventions the formatters share: its two-decimal numbers, its 200-character and compressed
//! board texts, its per-frame input sequence letters, its rule for the level after line
//! clears, and the search for the player's placement that `rate-move` needs (which candidate
//! turns the board into `secondBoard`).

use serde::Serialize;
use tetris_core::{BOARD_WIDTH, Board, Input, Piece, PieceState, Placement, SPAWN_Y};
use tetris_registry::inputs::frame_letter;

use super::CompatError;
use super::orientation::{stackrabbit_cpp_placement, stackrabbit_placement};
use super::query::{COMPRESSION_LETTERS, CompatQuery, ROWS};

/// `ping`'s answer.
pub const PONG: &str = "pong";
/// The answer when the piece has no placement (StackRabbit's text).
pub const NO_LEGAL_MOVES: &str = "No legal moves";
/// `rate-move`'s score for a player's move not among the placements found at that timeline.
pub const UNKNOWN_SCORE: &str = "Unknown score";
/// How many moves `engine-movelist` lists, best first: StackRabbit keeps the best 8 for its
/// hypothetical search (its `SEARCH_BREADTH`), which is what it lists.
pub const ENGINE_MOVELIST_LENGTH: usize = 8;

/// A number with two decimals as JavaScript's `toFixed(2)` writes it: exact ties round away
/// from zero (0.125 is "0.13"), everything else to the nearest, `NaN`, `Infinity` and
/// `-Infinity` spelt as there.
pub fn two_decimals(value: f64) -> String {
    if value.is_nan() {
        return "NaN".into();
    }
    if value.is_infinite() {
        return if value > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    let magnitude = value.abs();
    // An exact tie at the third decimal needs a multiple of 1/8 (only those are exact halves of
    // a hundredth in binary); Rust's formatting rounds such ties to even, JavaScript up.
    let hundredths = magnitude * 100.0;
    if (magnitude * 8.0).fract() == 0.0 && hundredths.fract() == 0.5 && hundredths < 1e15 {
        let rounded = hundredths.ceil() as u64;
        let sign = if value < 0.0 { "-" } else { "" };
        return format!("{sign}{}.{:02}", rounded / 100, rounded % 100);
    }
    format!("{value:.2}")
}

/// The board as StackRabbit's 200 characters: `0` empty, `1` full, top row first.
pub fn board_text(board: &Board) -> String {
    (0..ROWS)
        .flat_map(|y| (0..BOARD_WIDTH).map(move |x| (x, y)))
        .map(|(x, y)| if board.is_occupied(x, y) { '1' } else { '0' })
        .collect()
}

/// The board in StackRabbit's compressed form (its C++ `formatBoard`): the count of empty rows
/// at the top, the rows between as two letters each (five cells a letter, `a` = 00000 to
/// `F` = 11111), and the count of rows `1111111110` at the bottom, comma-separated.
pub fn compress_board(board: &Board) -> String {
    let row_bits = |y: usize| {
        (0..BOARD_WIDTH).fold(0usize, |bits, x| {
            bits << 1 | usize::from(board.is_occupied(x, y))
        })
    };
    let well_row = 0b11_1111_1110;
    let mut top = 0;
    while top < ROWS && row_bits(top) == 0 {
        top += 1;
    }
    let mut bottom = ROWS;
    while bottom > top && row_bits(bottom - 1) == well_row {
        bottom -= 1;
    }
    let letters: String = (top..bottom)
        .flat_map(|y| [row_bits(y) >> 5, row_bits(y) & 0b1_1111])
        .map(|half| char::from(COMPRESSION_LETTERS[half]))
        .collect();
    format!("{top},{letters},{}", ROWS - bottom)
}

/// The board after locking `placement` (which must be legal on it, as every searcher's is) and
/// clearing full rows, with the count of rows cleared.
pub fn board_after(board: &Board, placement: &Placement) -> (Board, u8) {
    let mut after = *board;
    let outcome = after.lock(placement.piece, placement.state());
    (after, outcome.rows_cleared)
}

/// The level after clearing `cleared` rows at `level` with `lines` cleared before, by
/// StackRabbit's rule (its `getLevelAfterLineClears`, which assumes an 18, 19 or 29 start): at
/// level 18 below 126 lines, 19 below 136 and 29 below 196 the level stays; otherwise it goes
/// up by one whenever the clear crosses a multiple of 10 lines. The console's real rule
/// depends on the start level, which StackRabbit's requests do not carry. Level 255 stays 255:
/// the answer must be a level a request may send again (StackRabbit answers 256, and the
/// console's level byte would wrap to 0; both are refused as a request's level).
pub fn level_after_clears(level: u8, lines: u32, cleared: u8) -> u8 {
    let stays = match level {
        18 => lines < 126,
        19 => lines < 136,
        29 => lines < 196,
        _ => false,
    };
    if !stays && lines % 10 + u32::from(cleared) >= 10 {
        level.saturating_add(1)
    } else {
        level
    }
}

/// A gamepad path (one [`Input::Frame`] per frame from the spawn to the frame that locks the
/// piece) in StackRabbit's input sequence notation, one character a frame
/// ([`tetris_registry::inputs`]: `.` nothing, `A`, `B`, `L` (Left), `R` (Right), `E` Left + A,
/// `F` Left + B, `I` Right + A, `G` Right + B, and `D` for Down alone, the letter
/// StackRabbit's own push-down writes). Every frame is written, the falling ones after the
/// last input included, so the letters count the frames to the lock. A frame with another
/// combination (Down with A or B, say) has no letter: an error.
pub fn input_sequence(path: &[Input]) -> Result<String, CompatError> {
    path.iter()
        .enumerate()
        .map(|(frame, input)| {
            let Input::Frame(buttons) = *input else {
                return Err(CompatError::NotAFramePath);
            };
            frame_letter(buttons).ok_or(CompatError::UnwritableFrame {
                frame,
                buttons: buttons.0,
            })
        })
        .collect()
}

/// The frames of a line clear's animation that StackRabbit writes as `^` after a lock that
/// clears rows (the console may add 0 to 3 more, which its emulator client inserts itself).
pub const LINE_CLEAR_FRAMES: usize = 17;

/// The entry delay's last frames, written as `*` after the line clear's `^`.
const ENTRY_DELAY_TAIL: usize = 5;

/// StackRabbit's entry delay (ARE) after a lock whose placement's row shift is `y_offset` (the
/// third number of its triple): min(18, 10 + 2 × ⌊(h + 1) / 4⌋) frames with h = 20 − y, the
/// lock's height as StackRabbit counts it.
pub fn entry_delay_frames(y_offset: i8) -> usize {
    let lock_height = (20 - i32::from(y_offset)).max(0) as usize;
    (10 + 2 * ((lock_height + 1) / 4)).min(18)
}

/// `get-move`'s input sequence: the path's letters ([`input_sequence`]: inputs from frame 0,
/// the falling frames to the lock), then the frames to the next piece as StackRabbit's
/// emulator client counts them: `*` × (ARE − 5), `^` × [`LINE_CLEAR_FRAMES`] when the lock
/// cleared rows, `*` × 5 ([`entry_delay_frames`] of the placement's row shift).
pub fn get_move_sequence(path: &[Input], y_offset: i8, cleared: u8) -> Result<String, CompatError> {
    let mut letters = input_sequence(path)?;
    let delay = entry_delay_frames(y_offset);
    letters.extend(std::iter::repeat_n('*', delay - ENTRY_DELAY_TAIL));
    if cleared > 0 {
        letters.extend(std::iter::repeat_n('^', LINE_CLEAR_FRAMES));
    }
    letters.extend(std::iter::repeat_n('*', ENTRY_DELAY_TAIL));
    Ok(letters)
}

/// `get-move`'s answer (and `get-move-cpp`'s): `rotation,xOffset,yOffset|inputSequence|board
/// after (200 characters)|level after|lines after`, for the best placement and its gamepad
/// path ([`get_move_sequence`]), or [`NO_LEGAL_MOVES`] when there is none.
pub fn format_get_move(
    query: &CompatQuery,
    best: Option<(&Placement, &[Input])>,
) -> Result<String, CompatError> {
    let Some((placement, path)) = best else {
        return Ok(NO_LEGAL_MOVES.into());
    };
    let [rotation, x, y] = stackrabbit_placement(placement);
    let (after, cleared) = board_after(&query.board, placement);
    Ok(format!(
        "{rotation},{x},{y}|{}|{}|{}|{}",
        get_move_sequence(path, y, cleared)?,
        board_text(&after),
        level_after_clears(query.level, query.lines, cleared),
        u64::from(query.lines) + u64::from(cleared),
    ))
}

/// Whether StackRabbit would call `placement` a special move (a tuck or a spin): the piece, in
/// its final orientation and column, cannot come straight down from the spawn row to where it
/// locks.
pub fn is_special_move(board: &Board, placement: &Placement) -> bool {
    let above = PieceState {
        y: SPAWN_Y,
        ..placement.state()
    };
    !board.fits(placement.piece, above) || board.drop_row(placement.piece, above) != placement.y
}

/// One placement of an `engine-movelist` entry with our values (higher is better).
#[derive(Clone, Debug, PartialEq)]
pub struct MoveValue {
    /// The placement.
    pub placement: Placement,
    /// The value of the whole move (StackRabbit's `totalValue`): the chain's value.
    pub total_value: f64,
    /// The value of the board after this placement alone (StackRabbit's `evalScore`).
    pub eval_score: f64,
    /// Whether it is a tuck or a spin ([`is_special_move`]).
    pub special: bool,
    /// A short explanation of the value (StackRabbit's `evalExplanation`), e.g. the evaluator.
    pub explanation: String,
    /// With `lookaheadDepth=1`, on the last known piece's move: the lines over the pieces that
    /// may come next, best first (StackRabbit's `hypotheticalLines`); otherwise empty.
    pub lines: Vec<LineValue>,
}

/// One `lookaheadDepth=1` line: an imagined piece after a move, and its best answer.
#[derive(Clone, Debug, PartialEq)]
pub struct LineValue {
    /// The imagined piece.
    pub piece: Piece,
    /// Its odds after the last known piece (StackRabbit's table).
    pub probability: f64,
    /// Its best placement after the move (`None`: it has none).
    pub placement: Option<Placement>,
    /// The value of the move followed by that placement (higher is better).
    pub value: f64,
    /// The path to that placement in StackRabbit's letters.
    pub inputs: Option<String>,
}

/// A `hypotheticalLines` entry's JSON, its field names and order.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct LineJson {
    piece_sequence: String,
    probability: f64,
    resulting_value: f64,
    move_sequence: Vec<[i8; 3]>,
    move_sequence_as_inputs: Vec<String>,
}

impl From<&LineValue> for LineJson {
    fn from(line: &LineValue) -> LineJson {
        LineJson {
            piece_sequence: line.piece.to_string(),
            probability: line.probability,
            // Two decimals, as a number (StackRabbit's clients read it as one).
            resulting_value: two_decimals(line.value).parse().unwrap_or(line.value),
            move_sequence: line.placement.iter().map(stackrabbit_placement).collect(),
            move_sequence_as_inputs: line.inputs.iter().cloned().collect(),
        }
    }
}

/// One `engine-movelist` entry: the current piece's placement and, when the request gave
/// `nextPiece`, the preview piece's placement after it.
#[derive(Clone, Debug, PartialEq)]
pub struct CompatMove {
    /// The current piece's placement.
    pub first: MoveValue,
    /// The preview piece's placement after it (`None` without a preview, or when it has none).
    pub second: Option<MoveValue>,
    /// When the strategy plays playouts and this move was one of its finalists: the value its
    /// choice was made on (averaged over the piece after the known ones, plus the playouts').
    pub playout_value: Option<f64>,
}

/// One move of `engine-movelist`'s JSON, its field names and order.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct MovelistJson<'a> {
    placement: [i8; 3],
    is_special_move: bool,
    total_value: String,
    /// StackRabbit's lines over the seven possible pieces after the last known one (with
    /// `lookaheadDepth=1`; otherwise empty).
    hypothetical_lines: Vec<LineJson>,
    eval_explanation: &'a str,
    eval_score: String,
}

impl<'a> From<&'a MoveValue> for MovelistJson<'a> {
    fn from(value: &'a MoveValue) -> MovelistJson<'a> {
        MovelistJson {
            placement: stackrabbit_placement(&value.placement),
            is_special_move: value.special,
            total_value: two_decimals(value.total_value),
            hypothetical_lines: value.lines.iter().map(LineJson::from).collect(),
            eval_explanation: &value.explanation,
            eval_score: two_decimals(value.eval_score),
        }
    }
}

/// `engine-movelist`'s answer: the first [`ENGINE_MOVELIST_LENGTH`] of `moves` (best first) as
/// a JSON array; with `nextPiece` each element is the pair `[current, next]` (`next` is `null`
/// when the preview piece has no placement), without it each is the single move.
pub fn format_engine_movelist(query: &CompatQuery, moves: &[CompatMove]) -> String {
    let moves = moves.iter().take(ENGINE_MOVELIST_LENGTH);
    // Serializing these types cannot fail: every field is a string, a number or an array.
    let json = match query.next {
        Some(_) => serde_json::to_string(
            &moves
                .map(|pair| {
                    (
                        MovelistJson::from(&pair.first),
                        pair.second.as_ref().map(MovelistJson::from),
                    )
                })
                .collect::<Vec<_>>(),
        ),
        None => serde_json::to_string(
            &moves
                .map(|single| MovelistJson::from(&single.first))
                .collect::<Vec<_>>(),
        ),
    };
    json.expect("movelist JSON of strings, numbers and arrays")
}

/// A number as StackRabbit's C++ engine prints one into its JSON (`%.2f`), or `null` for a
/// number JSON cannot hold.
fn cpp_number(value: f64) -> String {
    match value.is_finite() {
        true => format!("{value:.2}"),
        false => "null".into(),
    }
}

/// `engine-movelist-cpp`'s answer, in StackRabbit's C++ engine's shape: a JSON array of the
/// first [`ENGINE_MOVELIST_LENGTH`] moves, each `{"firstPlacement": [r, x, row],
/// "secondPlacement": [...] (with a preview), "playoutScore": the value after the playouts
/// (a finalist of a strategy with playouts) or the total value, "shallowEvalScore": the first
/// placement's value, "resultingBoard": the compressed board after the move's placements}`.
/// The moves with playouts come first, best first (the first is the strategy's choice), then
/// the others in `moves`' order; StackRabbit's per-playout fields are left out.
pub fn format_engine_movelist_cpp(query: &CompatQuery, moves: &[CompatMove]) -> String {
    let mut moves: Vec<&CompatMove> = moves.iter().collect();
    // Stable: moves without playouts keep their order, after those with them.
    moves.sort_by(
        |one, other| match (one.playout_value, other.playout_value) {
            (Some(one), Some(other)) => other.total_cmp(&one),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (None, None) => std::cmp::Ordering::Equal,
        },
    );
    let entries: Vec<String> = moves
        .into_iter()
        .take(ENGINE_MOVELIST_LENGTH)
        .map(|entry| {
            let triple = |placement: &Placement| {
                let [rotation, x, y] = stackrabbit_cpp_placement(placement);
                format!("[{rotation},{x},{y}]")
            };
            let mut text = format!("{{\"firstPlacement\":{}", triple(&entry.first.placement));
            let (mut board, _) = board_after(&query.board, &entry.first.placement);
            if let Some(second) = &entry.second {
                text += &format!(", \"secondPlacement\":{}", triple(&second.placement));
                board = board_after(&board, &second.placement).0;
            }
            text += &format!(
                ", \"playoutScore\":{}, \"shallowEvalScore\":{}, \"resultingBoard\":\"{}\"}}",
                cpp_number(entry.playout_value.unwrap_or(entry.first.total_value)),
                cpp_number(entry.first.eval_score),
                compress_board(&board)
            );
            text
        })
        .collect();
    format!("[{}]", entries.join(","))
}

/// `rate-move`'s scores, ours (higher is better).
#[derive(Clone, Debug, PartialEq)]
pub struct RateMoveScores {
    /// The player's move valued with the current piece alone (`None`: not among the
    /// placements found at the request's timeline).
    pub player_no_adjustment: Option<f64>,
    /// The best move's value with the current piece alone.
    pub best_no_adjustment: f64,
    /// With a preview piece: the values of the two-piece moves.
    pub after_adjustment: Option<AdjustedScores>,
}

/// `rate-move`'s scores that take the preview piece into account.
#[derive(Clone, Debug, PartialEq)]
pub struct AdjustedScores {
    /// The player's move followed by the best preview placement (`None`: not found).
    pub player: Option<f64>,
    /// The best two-piece move.
    pub best: f64,
}

/// `rate-move`'s JSON, field order as StackRabbit's.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RateMoveJson {
    player_move_no_adjustment: String,
    best_move_no_adjustment: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    player_move_after_adjustment: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    best_move_after_adjustment: Option<String>,
}

/// `rate-move`'s answer (and `rate-move-cpp`'s): `{"playerMoveNoAdjustment": "…",
/// "bestMoveNoAdjustment": "…"}`, plus `"playerMoveAfterAdjustment"` and
/// `"bestMoveAfterAdjustment"` when the request gave a preview piece; two-decimal strings, and
/// [`UNKNOWN_SCORE`] for a player's move that was not found.
pub fn format_rate_move(scores: &RateMoveScores) -> String {
    let score = |value: Option<f64>| value.map_or_else(|| UNKNOWN_SCORE.into(), two_decimals);
    let json = RateMoveJson {
        player_move_no_adjustment: score(scores.player_no_adjustment),
        best_move_no_adjustment: two_decimals(scores.best_no_adjustment),
        player_move_after_adjustment: scores.after_adjustment.as_ref().map(|a| score(a.player)),
        best_move_after_adjustment: scores
            .after_adjustment
            .as_ref()
            .map(|adjusted| two_decimals(adjusted.best)),
    };
    serde_json::to_string(&json).expect("rate-move JSON of four strings")
}

/// `eval`'s answer: the position's value with two decimals.
pub fn format_eval(value: f64) -> String {
    two_decimals(value)
}

/// `version`'s answer, StackRabbit's shape with this server's version in both fields.
pub fn format_version() -> String {
    let version = env!("CARGO_PKG_VERSION");
    format!("{{\"jsVersion\":\"{version}\",\"cppVersion\":\"{version}\"}}")
}

/// The candidates (placements of the current piece) that turn `board` into `second_board`
/// once locked and cleared, in the candidates' order: the player's move of `rate-move`.
/// Several can give the same board (StackRabbit then scores the best of them).
pub fn rate_move_player_placements(
    board: &Board,
    second_board: &Board,
    candidates: &[Placement],
) -> Vec<Placement> {
    let target = second_board.without_hidden_rows();
    candidates
        .iter()
        .filter(|candidate| board_after(board, candidate).0.without_hidden_rows() == target)
        .copied()
        .collect()
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use tetris_core::{Buttons, Piece};

    use super::*;
    use crate::stackrabbit::query::parse_board;

    fn query(
        board: Board,
        current: Piece,
        next: Option<Piece>,
        level: u8,
        lines: u32,
    ) -> CompatQuery {
        CompatQuery {
            board,
            second_board: None,
            current,
            next,
            level,
            lines,
            timeline: tetris_core::Timeline::THIRTY_HZ,
            lookahead: false,
            reaction_time: 0,
        }
    }

    fn frames(letters: &str) -> Vec<Input> {
        letters
            .chars()
            .map(|letter| {
                Input::Frame(match letter {
                    '.' => Buttons::NONE,
                    'L' => Buttons::LEFT,
                    'R' => Buttons::RIGHT,
                    'A' => Buttons::A,
                    'E' => Buttons::LEFT.with(Buttons::A),
                    'I' => Buttons::RIGHT.with(Buttons::A),
                    _ => unreachable!("test letter {letter}"),
                })
            })
            .collect()
    }

    #[test]
    fn two_decimals_as_javascript_writes_them() {
        for (value, text) in [
            (0.125, "0.13"),
            (-0.125, "-0.13"),
            (0.375, "0.38"),
            (1.005, "1.00"),
            (2.675, "2.67"),
            (12.345, "12.35"),
            (-3.5, "-3.50"),
            (-0.001, "-0.00"),
            (7.0, "7.00"),
            (f64::INFINITY, "Infinity"),
            (f64::NEG_INFINITY, "-Infinity"),
            (f64::NAN, "NaN"),
        ] {
            assert_eq!(two_decimals(value), text, "{value}");
        }
    }

    #[test]
    fn input_sequences_in_stackrabbits_letters() {
        // generateInputSequence(1, -5, "X."): Left + A on frame 0, then Left every 2nd frame.
        let path = frames("E.L.L.L.L..........");
        assert_eq!(input_sequence(&path).unwrap(), "E.L.L.L.L..........");
        assert_eq!(input_sequence(&frames("......")).unwrap(), "......");
        assert_eq!(input_sequence(&[]).unwrap(), "");
        let every = [
            (Buttons::B, 'B'),
            (Buttons::LEFT.with(Buttons::B), 'F'),
            (Buttons::RIGHT.with(Buttons::B), 'G'),
            (Buttons::DOWN, 'D'),
        ];
        for (buttons, letter) in every {
            assert_eq!(
                input_sequence(&[Input::Frame(buttons)]).unwrap(),
                letter.to_string()
            );
        }
        let down_a = [
            Input::Frame(Buttons::NONE),
            Input::Frame(Buttons::DOWN.with(Buttons::A)),
        ];
        assert_eq!(
            input_sequence(&down_a).unwrap_err(),
            CompatError::UnwritableFrame {
                frame: 1,
                buttons: 12
            }
        );
        let both = [Input::Frame(Buttons::LEFT.with(Buttons::RIGHT))];
        assert!(input_sequence(&both).is_err());
        let a_and_b = [Input::Frame(Buttons::A.with(Buttons::B))];
        assert!(input_sequence(&a_and_b).is_err());
        assert_eq!(
            input_sequence(&[Input::Left]).unwrap_err(),
            CompatError::NotAFramePath
        );
    }

    #[test]
    fn get_move_for_a_vertical_i_in_the_left_column() {
        // Empty board, I at level 18 with 0 lines, 30 Hz: the vertical I in column 0 rests on
        // the floor in rows 16 to 19; StackRabbit writes it [1, -5, 18] (see orientation.rs).
        let placement = Placement::new(
            Piece::I,
            PieceState {
                x: 0,
                y: 18,
                rotation: 1,
            },
        );
        let path = frames("E.L.L.L.L....................");
        let line = format_get_move(
            &query(Board::standard(), Piece::I, None, 18, 0),
            Some((&placement, &path)),
        )
        .unwrap();
        let board = format!("{}{}", "0".repeat(160), "1000000000".repeat(4));
        // Locked at row shift 18: h = 2, ARE = 10 + 2 × ⌊3 / 4⌋ = 10, so 5 `*` and 5 `*`.
        let dots = ".".repeat(20);
        assert_eq!(
            line,
            format!("1,-5,18|E.L.L.L.L{dots}**********|{board}|18|0")
        );
    }

    #[test]
    fn get_move_with_a_tetris_into_the_transition() {
        // Four rows 1111111110 at level 18 with 129 lines: the vertical I in column 9 clears
        // them all (133 lines), crossing 130, so the level is 19; the board is then empty.
        let board = parse_board("board", "16,,4").unwrap();
        let placement = Placement::new(
            Piece::I,
            PieceState {
                x: 9,
                y: 18,
                rotation: 1,
            },
        );
        let path = frames("I.R.R.R");
        let line = format_get_move(
            &query(board, Piece::I, None, 18, 129),
            Some((&placement, &path)),
        )
        .unwrap();
        // A clear: ARE 10 as above, written 5 `*`, 17 `^`, 5 `*`.
        let frames_after = format!("*****{}*****", "^".repeat(17));
        assert_eq!(
            line,
            format!("1,4,18|I.R.R.R{frames_after}|{}|19|133", "0".repeat(200))
        );
        assert_eq!(
            format_get_move(&query(board, Piece::I, None, 18, 129), None).unwrap(),
            "No legal moves"
        );
    }

    #[test]
    fn levels_after_clears_by_stackrabbits_rule() {
        for (level, lines, cleared, after) in [
            (18, 125, 4, 18),
            (18, 126, 4, 19),
            (18, 127, 2, 18),
            (19, 135, 4, 19),
            (19, 136, 4, 20),
            (29, 195, 4, 29),
            (29, 196, 4, 30),
            (25, 200, 1, 25),
            (25, 209, 1, 26),
            // Not StackRabbit's 256: an answer a request may send again.
            (255, 9, 1, 255),
        ] {
            assert_eq!(
                level_after_clears(level, lines, cleared),
                after,
                "level {level}, {lines} lines, {cleared} cleared"
            );
        }
    }

    fn value(placement: Placement, total: f64, eval: f64, special: bool) -> MoveValue {
        MoveValue {
            placement,
            total_value: total,
            eval_score: eval,
            special,
            explanation: "elashi".into(),
            lines: Vec::new(),
        }
    }

    #[test]
    fn engine_movelist_json_with_and_without_the_next_piece() {
        let spawn_t = Placement::new(
            Piece::T,
            PieceState {
                x: 5,
                y: 18,
                rotation: 0,
            },
        );
        let flat_i = Placement::new(
            Piece::I,
            PieceState {
                x: 8,
                y: 19,
                rotation: 0,
            },
        );
        let pair = CompatMove {
            first: value(spawn_t, -3.5, 0.125, false),
            second: Some(value(flat_i, -3.5, 12.0, true)),
            playout_value: None,
        };
        let with_next = format_engine_movelist(
            &query(Board::standard(), Piece::T, Some(Piece::I), 18, 0),
            std::slice::from_ref(&pair),
        );
        assert_eq!(
            with_next,
            "[[{\"placement\":[0,0,18],\"isSpecialMove\":false,\"totalValue\":\"-3.50\",\
             \"hypotheticalLines\":[],\"evalExplanation\":\"elashi\",\"evalScore\":\"0.13\"},\
             {\"placement\":[0,3,19],\"isSpecialMove\":true,\"totalValue\":\"-3.50\",\
             \"hypotheticalLines\":[],\"evalExplanation\":\"elashi\",\"evalScore\":\"12.00\"}]]"
        );
        let without_next = format_engine_movelist(
            &query(Board::standard(), Piece::T, None, 18, 0),
            &vec![pair; 10],
        );
        let parsed: serde_json::Value = serde_json::from_str(&without_next).unwrap();
        let moves = parsed.as_array().unwrap();
        assert_eq!(moves.len(), ENGINE_MOVELIST_LENGTH);
        assert_eq!(moves[0]["placement"], serde_json::json!([0, 0, 18]));
        assert_eq!(moves[0]["totalValue"], "-3.50");
        let missing = CompatMove {
            first: value(spawn_t, 1.0, 1.0, false),
            second: None,
            playout_value: None,
        };
        let topped = format_engine_movelist(
            &query(Board::standard(), Piece::T, Some(Piece::I), 18, 0),
            &[missing],
        );
        assert!(topped.ends_with(",null]]"), "{topped}");
        assert_eq!(
            format_engine_movelist(&query(Board::standard(), Piece::T, None, 18, 0), &[]),
            "[]"
        );
    }

    #[test]
    fn engine_movelist_cpp_json() {
        let spawn_t = Placement::new(
            Piece::T,
            PieceState {
                x: 5,
                y: 18,
                rotation: 0,
            },
        );
        let flat_i = Placement::new(
            Piece::I,
            PieceState {
                x: 8,
                y: 19,
                rotation: 0,
            },
        );
        let moves = [CompatMove {
            first: value(spawn_t, 31.587, 28.44, false),
            second: Some(value(flat_i, 31.587, 1.0, false)),
            playout_value: None,
        }];
        let text = format_engine_movelist_cpp(
            &query(Board::standard(), Piece::T, Some(Piece::I), 18, 0),
            &moves,
        );
        // T cells (4..=6, 18) and (5, 19); I cells (6..=9, 19): row 18 is 0000111000 (00001 =
        // b, 11000 = y) and row 19 0000011111 (a, F). Corner rows: T 18 − 1, I 19 − 2.
        assert_eq!(
            text,
            "[{\"firstPlacement\":[0,0,17], \"secondPlacement\":[0,3,17], \"playoutScore\":31.59, \
             \"shallowEvalScore\":28.44, \"resultingBoard\":\"18,byaF,0\"}]"
        );
        let parsed: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(parsed[0]["playoutScore"], 31.59);
        // Finalists with playouts come first, best first, their playout value as the score;
        // the other moves follow in their order.
        let single = |x: i8, total: f64, playout_value: Option<f64>| CompatMove {
            first: value(
                Placement::new(
                    Piece::T,
                    PieceState {
                        x,
                        y: 18,
                        rotation: 0,
                    },
                ),
                total,
                total,
                false,
            ),
            second: None,
            playout_value,
        };
        let moves = [
            single(1, 9.0, None),
            single(2, 8.0, Some(-40.0)),
            single(3, 7.0, Some(-20.0)),
            single(4, 6.0, None),
        ];
        let text =
            format_engine_movelist_cpp(&query(Board::standard(), Piece::T, None, 18, 0), &moves);
        let parsed: serde_json::Value = serde_json::from_str(&text).unwrap();
        let order: Vec<(i64, f64)> = parsed
            .as_array()
            .unwrap()
            .iter()
            .map(|entry| {
                (
                    entry["firstPlacement"][1].as_i64().unwrap(),
                    entry["playoutScore"].as_f64().unwrap(),
                )
            })
            .collect();
        assert_eq!(order, [(-2, -20.0), (-3, -40.0), (-4, 9.0), (-1, 6.0)]);
    }

    #[test]
    fn rate_move_json_with_and_without_the_next_piece() {
        let without = RateMoveScores {
            player_no_adjustment: Some(-12.5),
            best_no_adjustment: 3.0,
            after_adjustment: None,
        };
        assert_eq!(
            format_rate_move(&without),
            "{\"playerMoveNoAdjustment\":\"-12.50\",\"bestMoveNoAdjustment\":\"3.00\"}"
        );
        let with = RateMoveScores {
            player_no_adjustment: None,
            best_no_adjustment: 3.0,
            after_adjustment: Some(AdjustedScores {
                player: None,
                best: 0.125,
            }),
        };
        assert_eq!(
            format_rate_move(&with),
            "{\"playerMoveNoAdjustment\":\"Unknown score\",\"bestMoveNoAdjustment\":\"3.00\",\
             \"playerMoveAfterAdjustment\":\"Unknown score\",\"bestMoveAfterAdjustment\":\"0.13\"}"
        );
    }

    #[test]
    fn eval_and_version() {
        assert_eq!(format_eval(-7.0), "-7.00");
        let version: serde_json::Value = serde_json::from_str(&format_version()).unwrap();
        assert_eq!(version["jsVersion"], env!("CARGO_PKG_VERSION"));
        assert_eq!(version["cppVersion"], env!("CARGO_PKG_VERSION"));
    }

    #[test]
    fn compressed_boards_of_known_boards() {
        let example = parse_board("board", "15,CaEa,3").unwrap();
        assert_eq!(compress_board(&example), "15,CaEa,3");
        assert_eq!(compress_board(&Board::standard()), "20,,0");
        let wells = parse_board("board", "16,,4").unwrap();
        assert_eq!(compress_board(&wells), "16,,4");
    }

    #[test]
    fn the_players_placement_is_found_by_its_board() {
        // Bottom row 1111111110: the vertical I in column 9 clears it; the flat I on top does not.
        let board = parse_board("board", "19,,1").unwrap();
        let vertical = Placement::new(
            Piece::I,
            PieceState {
                x: 9,
                y: 18,
                rotation: 1,
            },
        );
        let flat = Placement::new(
            Piece::I,
            PieceState {
                x: 2,
                y: 18,
                rotation: 0,
            },
        );
        let after_vertical = parse_board("board", "17,ababab,0").unwrap();
        assert_eq!(after_vertical.column_height(9), 3);
        assert_eq!(after_vertical.occupied_count(), 3);
        assert_eq!(
            rate_move_player_placements(&board, &after_vertical, &[flat, vertical]),
            vec![vertical]
        );
        assert_eq!(
            rate_move_player_placements(&board, &Board::standard(), &[flat, vertical]),
            Vec::<Placement>::new()
        );
    }

    #[test]
    fn special_moves_are_those_a_straight_drop_cannot_reach() {
        let overhang =
            Board::from_bottom_rows(&["####......", "..........", ".........."], 20).unwrap();
        let under = Placement::new(
            Piece::I,
            PieceState {
                x: 2,
                y: 19,
                rotation: 0,
            },
        );
        let on_top = Placement::new(
            Piece::I,
            PieceState {
                x: 2,
                y: 16,
                rotation: 0,
            },
        );
        let open = Placement::new(
            Piece::I,
            PieceState {
                x: 7,
                y: 19,
                rotation: 0,
            },
        );
        assert!(is_special_move(&overhang, &under));
        assert!(!is_special_move(&overhang, &on_top));
        assert!(!is_special_move(&overhang, &open));
    }

    proptest! {
        #[test]
        fn compressed_boards_read_back(rows in prop::collection::vec(0u32..1023, 20)) {
            // Rows without a full one (1023 excluded), as every board at rest.
            let mut board = Board::standard();
            for (y, bits) in rows.iter().enumerate() {
                for x in 0..BOARD_WIDTH {
                    if bits >> (BOARD_WIDTH - 1 - x) & 1 != 0 {
                        board.set(x, y);
                    }
                }
            }
            prop_assert_eq!(parse_board("board", &compress_board(&board)).unwrap(), board);
            prop_assert_eq!(parse_board("board", &board_text(&board)).unwrap(), board);
        }
    }
}
