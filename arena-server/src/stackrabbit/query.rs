//! StackRabbit's query string: its grammar, its parameters and its two board encodings.
//!
//! StackRabbit percent-decodes the URL, removes every whitespace character, splits the query
//! on `&` and each pair on `=`, and reads the parameters in the order given, throwing at the
//! first bad one. We do the same (decoding each name and value after the split, so that an
//! encoded `&` inside a value cannot split it), with StackRabbit's own messages where it has
//! them, and then refuse what it would accept but we cannot honour (a piece already in
//! flight, StackRabbit's playout settings …), after every check of its own, so
//! a request StackRabbit refuses is refused here with its text. Unknown parameter names,
//! duplicates and missing required parameters, which StackRabbit ignores or crashes on, are
//! refused with our own texts. Nothing here panics on any input (a property test feeds it
//! arbitrary strings).

use tetris_core::{BOARD_WIDTH, Board, Piece};

use super::{CompatError, RequestType};
use tetris_arena_io::input::{BadCells, board_cells};
use tetris_core::Timeline;

/// Rows of every StackRabbit board.
pub const ROWS: usize = 20;
/// Characters of a plain board: 20 rows of 10, top row first.
pub const BOARD_CHARACTERS: usize = ROWS * BOARD_WIDTH;
/// StackRabbit's lowest level (its text: only 18, 19 and 29 starts).
pub const MIN_LEVEL: i128 = 18;
/// The highest level: a level is a byte, as on the console.
pub const MAX_LEVEL: i128 = u8::MAX as i128;
/// The most lines a query may say: a 32-bit count.
pub const MAX_LINES: i128 = u32::MAX as i128;
/// StackRabbit's most reaction time, in frames.
pub const MAX_REACTION_TIME: i128 = 60;
/// StackRabbit's default playout count (C++ engine).
pub const DEFAULT_PLAYOUT_COUNT: i128 = 49;
/// StackRabbit's default playout length (C++ engine).
pub const DEFAULT_PLAYOUT_LENGTH: i128 = 2;
/// StackRabbit's default pruning breadth (C++ engine).
pub const DEFAULT_PRUNING_BREADTH: i128 = 20;
/// StackRabbit's most playout moves, count × length (4 × 7⁴).
pub const MAX_PLAYOUT_MOVES: i128 = 9604;
/// StackRabbit's longest playout.
pub const MAX_PLAYOUT_LENGTH: i128 = 20;
/// StackRabbit's widest pruning (34 placements × 34).
pub const MAX_PRUNING_BREADTH: i128 = 1156;

/// Every parameter StackRabbit's parser reads, in the order its parser lists them.
pub const PARAMETER_NAMES: [&str; 18] = [
    "board",
    "secondBoard",
    "currentPiece",
    "nextPiece",
    "level",
    "lines",
    "reactionTime",
    "inputFrameTimeline",
    "lookaheadDepth",
    "playoutCount",
    "playoutLength",
    "pruningBreadth",
    "existingXOffset",
    "existingYOffset",
    "existingRotation",
    "existingFramesElapsed",
    "arrWasReset",
    "dasCharge",
];

/// A StackRabbit request's position, checked and typed: everything our analysis needs.
#[derive(Clone, Debug, PartialEq)]
pub struct CompatQuery {
    /// The board before the move: 20 rows, no full row.
    pub board: Board,
    /// `rate-move`'s board after the player's move and its line clears (only rate-move
    /// requests have one, and they must).
    pub second_board: Option<Board>,
    /// The piece to place.
    pub current: Piece,
    /// The preview piece, if given.
    pub next: Option<Piece>,
    /// The level: 18 to 255.
    pub level: u8,
    /// Lines cleared so far.
    pub lines: u32,
    /// The input frame timeline, parsed by the request layer's rule.
    pub timeline: Timeline,
    /// `lookaheadDepth=1` (JavaScript endpoints only): every move is valued over the seven
    /// pieces that may follow the last known one.
    pub lookahead: bool,
    /// `reactionTime`: the frames the player plays before seeing `nextPiece` (0 to 60).
    pub reaction_time: u8,
}

/// What to answer a `parse_query` failure: the error's text, StackRabbit's where it has one.
pub type QueryResult = Result<CompatQuery, CompatError>;

/// Parses and checks the query string (the text after `?`, not yet decoded) of a request of
/// type `kind`. See the module documentation for the order of the checks.
pub fn parse_query(kind: &RequestType, raw_query: &str) -> QueryResult {
    let mut values = Values::default();
    let mut seen = [false; PARAMETER_NAMES.len()];
    for pair in raw_query.split('&') {
        let (raw_name, raw_value) = match pair.split_once('=') {
            Some((name, value)) => (name, Some(value)),
            None => (pair, None),
        };
        let name = decode(raw_name)?;
        if name.is_empty() && raw_value.is_none() {
            // An empty pair (`a=1&&b=2`, a trailing `&`): StackRabbit skips it too.
            continue;
        }
        let Some(index) = PARAMETER_NAMES.iter().position(|known| *known == name) else {
            return Err(CompatError::UnknownParameter(name));
        };
        let parameter = PARAMETER_NAMES[index];
        if std::mem::replace(&mut seen[index], true) {
            return Err(CompatError::DuplicateParameter(parameter));
        }
        let value = decode(raw_value.ok_or(CompatError::MissingValue(parameter))?)?;
        values.read(kind, parameter, value)?;
    }
    values.finish(kind)
}

/// The parameters as read, StackRabbit's defaults where absent.
struct Values {
    board: Option<Board>,
    second_board: Option<Board>,
    current: Option<Piece>,
    next: Option<Piece>,
    level: Option<u8>,
    lines: Option<u32>,
    timeline: Option<String>,
    reaction_time: i128,
    lookahead_depth: i128,
    playout_count: i128,
    playout_length: i128,
    pruning_breadth: i128,
    /// `existingXOffset`, `existingYOffset`, `existingRotation`, `existingFramesElapsed`.
    existing: [(&'static str, i128); 4],
    arr_was_reset: bool,
    das_charge: i128,
}

impl Default for Values {
    fn default() -> Values {
        Values {
            board: None,
            second_board: None,
            current: None,
            next: None,
            level: None,
            lines: None,
            timeline: None,
            reaction_time: 0,
            lookahead_depth: 0,
            playout_count: DEFAULT_PLAYOUT_COUNT,
            playout_length: DEFAULT_PLAYOUT_LENGTH,
            pruning_breadth: DEFAULT_PRUNING_BREADTH,
            existing: [
                ("existingXOffset", 0),
                ("existingYOffset", 0),
                ("existingRotation", 0),
                ("existingFramesElapsed", 0),
            ],
            arr_was_reset: false,
            das_charge: -1,
        }
    }
}

/// Why we cannot honour a value StackRabbit accepts (the end of [`CompatError::NotHonoured`]).
mod reasons {
    pub const PLAYOUTS: &str = "it plays no random playouts: its search is exhaustive over the \
        current piece and the preview (leave playoutCount=49, playoutLength=2 and \
        pruningBreadth=20 at StackRabbit's defaults or out)";
    pub const IN_FLIGHT: &str = "it plans pieces from their spawn only, not a piece already \
        moved or fallen (leave the existing* parameters at 0 or out)";
    pub const ARR: &str = "it plans pieces from their spawn only, where the tap schedule starts \
        with the piece (send arrWasReset=false or leave it out)";
    pub const DAS: &str = "its gamepad search taps and does not model a DAS charge (send \
        dasCharge=-1 or leave it out)";
}

impl Values {
    /// Reads one parameter, with StackRabbit's checks and texts.
    fn read(
        &mut self,
        kind: &RequestType,
        parameter: &'static str,
        value: String,
    ) -> Result<(), CompatError> {
        match parameter {
            "board" => self.board = Some(parse_board("board", &value)?),
            "secondBoard" => {
                if !kind.is_rate_move() {
                    return Err(CompatError::SecondBoardNotApplicable);
                }
                self.second_board = Some(parse_board("secondBoard", &value)?);
            }
            "currentPiece" => {
                let upper = value.to_uppercase();
                self.current = Some(piece(&upper).ok_or(CompatError::UnknownCurrentPiece(upper))?);
            }
            "nextPiece" => {
                let upper = value.to_uppercase();
                self.next = Some(piece(&upper).ok_or(CompatError::UnknownNextPiece(upper))?);
            }
            "level" => {
                let level = match integer(&value) {
                    Some(level) if level >= 0 => level,
                    _ => return Err(CompatError::IllegalLevel(value)),
                };
                if level < MIN_LEVEL {
                    return Err(CompatError::LevelBelow18(value));
                }
                if level > MAX_LEVEL {
                    return Err(CompatError::LevelTooHigh(value));
                }
                self.level = Some(level as u8);
            }
            "lines" => {
                let lines = match integer(&value) {
                    Some(lines) if lines >= 0 => lines,
                    _ => return Err(CompatError::IllegalLines(value)),
                };
                if lines > MAX_LINES {
                    return Err(CompatError::LinesTooMany(value));
                }
                self.lines = Some(lines as u32);
            }
            "reactionTime" => {
                let frames = match integer(&value) {
                    Some(frames) if frames >= 0 => frames,
                    _ => return Err(CompatError::IllegalReactionTime(value)),
                };
                if frames > MAX_REACTION_TIME {
                    return Err(CompatError::ReactionTimeTooLong);
                }
                self.reaction_time = frames;
            }
            "inputFrameTimeline" => {
                if !value.chars().all(|c| matches!(c, 'X' | '.' | '-')) {
                    return Err(CompatError::InvalidTimeline(value));
                }
                self.timeline = Some(value.replace('-', "."));
            }
            "lookaheadDepth" => {
                if kind.is_cpp() {
                    return Err(CompatError::LookaheadOnCpp);
                }
                let depth = integer(&value).ok_or(CompatError::InvalidLookaheadDepth(value))?;
                if depth < 0 {
                    return Err(CompatError::InvalidLookaheadDepth(depth.to_string()));
                }
                if depth > 1 {
                    return Err(CompatError::LookaheadTooDeep);
                }
                self.lookahead_depth = depth;
            }
            "playoutCount" => {
                if !kind.is_cpp() {
                    return Err(CompatError::PlayoutCountOnJs);
                }
                let count = integer(&value).ok_or(CompatError::InvalidPlayoutCount(value))?;
                if count < 0 {
                    return Err(CompatError::InvalidPlayoutCount(count.to_string()));
                }
                check_playout_volume(count, self.playout_length)?;
                self.playout_count = count;
            }
            "playoutLength" => {
                if !kind.is_cpp() {
                    return Err(CompatError::PlayoutLengthOnJs);
                }
                let length = integer(&value).ok_or(CompatError::InvalidPlayoutLength(value))?;
                if length < 0 {
                    return Err(CompatError::InvalidPlayoutLength(length.to_string()));
                }
                if length > MAX_PLAYOUT_LENGTH {
                    return Err(CompatError::PlayoutLengthTooLong(length.to_string()));
                }
                check_playout_volume(self.playout_count, length)?;
                self.playout_length = length;
            }
            "pruningBreadth" => {
                if !kind.is_cpp() {
                    return Err(CompatError::PruningBreadthOnJs);
                }
                let breadth = integer(&value).ok_or(CompatError::InvalidPruningBreadth(value))?;
                if breadth < 0 {
                    return Err(CompatError::InvalidPruningBreadth(breadth.to_string()));
                }
                if breadth > MAX_PRUNING_BREADTH {
                    return Err(CompatError::PruningBreadthTooLarge(breadth.to_string()));
                }
                self.pruning_breadth = breadth;
            }
            "arrWasReset" => {
                self.arr_was_reset = match value.as_str() {
                    "true" | "TRUE" | "1" => true,
                    "false" | "FALSE" | "0" => false,
                    _ => return Err(CompatError::IllegalBoolean(value)),
                }
            }
            "dasCharge" => self.das_charge = whole_number(parameter, value)?,
            _ => {
                // The four existing* parameters (PARAMETER_NAMES has no other name left).
                let number = whole_number(parameter, value)?;
                if let Some(slot) = self
                    .existing
                    .iter_mut()
                    .find(|(name, _)| *name == parameter)
                {
                    slot.1 = number;
                }
            }
        }
        Ok(())
    }

    /// The required parameters, then what we cannot honour, then the typed query.
    fn finish(self, kind: &RequestType) -> QueryResult {
        let board = self.board.ok_or(CompatError::MissingParameter("board"))?;
        let current = self
            .current
            .ok_or(CompatError::MissingParameter("currentPiece"))?;
        let level = self.level.ok_or(CompatError::MissingParameter("level"))?;
        let lines = self.lines.ok_or(CompatError::MissingParameter("lines"))?;
        let timeline = self
            .timeline
            .ok_or(CompatError::MissingParameter("inputFrameTimeline"))?;
        let timeline = parse_timeline(&timeline)?;
        let refuse = |parameter, value: i128, reason| CompatError::NotHonoured {
            parameter,
            value: value.to_string(),
            reason,
        };
        for (parameter, value, default) in [
            ("playoutCount", self.playout_count, DEFAULT_PLAYOUT_COUNT),
            ("playoutLength", self.playout_length, DEFAULT_PLAYOUT_LENGTH),
            (
                "pruningBreadth",
                self.pruning_breadth,
                DEFAULT_PRUNING_BREADTH,
            ),
        ] {
            if value != default {
                return Err(refuse(parameter, value, reasons::PLAYOUTS));
            }
        }
        if let Some((parameter, value)) = self.existing.iter().find(|(_, value)| *value != 0) {
            return Err(refuse(parameter, *value, reasons::IN_FLIGHT));
        }
        if self.arr_was_reset {
            return Err(CompatError::NotHonoured {
                parameter: "arrWasReset",
                value: "true".into(),
                reason: reasons::ARR,
            });
        }
        if self.das_charge != -1 {
            return Err(refuse("dasCharge", self.das_charge, reasons::DAS));
        }
        if kind.is_rate_move() && self.second_board.is_none() {
            return Err(CompatError::SecondBoardMissing);
        }
        check_no_full_row("board", &board)?;
        if let Some(second) = &self.second_board {
            check_no_full_row("secondBoard", second)?;
        }
        Ok(CompatQuery {
            board,
            second_board: self.second_board,
            current,
            next: self.next,
            level,
            lines,
            timeline,
            lookahead: self.lookahead_depth == 1,
            reaction_time: self.reaction_time as u8,
        })
    }
}

/// StackRabbit's playout volume check, done when either factor is read (so with the other's
/// value as read so far, as there).
fn check_playout_volume(count: i128, length: i128) -> Result<(), CompatError> {
    let volume = count.saturating_mul(length);
    match volume > MAX_PLAYOUT_MOVES {
        true => Err(CompatError::PlayoutVolume(volume)),
        false => Ok(()),
    }
}

/// The piece of an upper-cased StackRabbit letter (I O L J T S Z: the same letters as ours).
fn piece(upper: &str) -> Option<Piece> {
    let mut chars = upper.chars();
    match (chars.next(), chars.next()) {
        (Some(letter), None) => Piece::from_letter(letter),
        _ => None,
    }
}

/// A whole number, optionally signed: digits only, unlike JavaScript's `parseInt`, which reads
/// `18abc` as 18 (we refuse what we would have to guess). Past 38 digits it saturates, which
/// every range check here then refuses.
fn integer(text: &str) -> Option<i128> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    if digits.is_empty() || !digits.bytes().all(|byte| byte.is_ascii_digit()) {
        return None;
    }
    let magnitude = digits.parse::<i128>().unwrap_or(i128::MAX);
    Some(if negative { -magnitude } else { magnitude })
}

/// A whole number for a parameter StackRabbit reads without a check of its own.
fn whole_number(parameter: &'static str, value: String) -> Result<i128, CompatError> {
    integer(&value).ok_or(CompatError::NotAWholeNumber { parameter, value })
}

/// Percent-decodes `text` and removes every whitespace character, as StackRabbit does to the
/// whole URL (a byte-order mark counts as whitespace there, so here too).
pub(super) fn decode(text: &str) -> Result<String, CompatError> {
    let malformed = || CompatError::MalformedEncoding(text.to_string());
    let bytes = text.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        if bytes[index] == b'%' {
            let digit = |offset: usize| {
                bytes
                    .get(index + offset)
                    .and_then(|byte| (*byte as char).to_digit(16))
            };
            let (Some(high), Some(low)) = (digit(1), digit(2)) else {
                return Err(malformed());
            };
            decoded.push((high * 16 + low) as u8);
            index += 3;
        } else {
            decoded.push(bytes[index]);
            index += 1;
        }
    }
    let decoded = String::from_utf8(decoded).map_err(|_| malformed())?;
    Ok(decoded
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '\u{feff}')
        .collect())
}

/// A board in either of StackRabbit's encodings: 200 characters of `0`/`1`, top row first, or
/// the compressed `E,<letters>,R` (any value with a comma, as StackRabbit tells them apart).
pub fn parse_board(parameter: &'static str, text: &str) -> Result<Board, CompatError> {
    if text.contains(',') {
        return parse_compressed_board(parameter, text);
    }
    board_cells(text, ROWS as u8).map_err(|bad| match bad {
        BadCells::Length(_) => CompatError::BoardLength,
        BadCells::Character(position, character) => CompatError::BoardCharacter {
            parameter,
            position,
            character,
        },
    })
}

/// The 32 letters of the compressed form, each five cells (its `BOARD_COMPRESSION_SCHEME`:
/// `a` = 00000, `b` = 00001, … `z` = 11001, `A` = 11010, … `F` = 11111).
pub const COMPRESSION_LETTERS: &[u8; 32] = b"abcdefghijklmnopqrstuvwxyzABCDEF";

/// The five cells of a compression letter, as a 5-bit number whose high bit is the leftmost.
fn letter_bits(letter: char) -> Option<u32> {
    COMPRESSION_LETTERS
        .iter()
        .position(|&known| char::from(known) == letter)
        .map(|index| index as u32)
}

/// The compressed form: E empty rows, then one row per two letters (the left five cells, then
/// the right five), then R rows `1111111110`; 20 rows in all.
fn parse_compressed_board(parameter: &'static str, text: &str) -> Result<Board, CompatError> {
    let problem = |problem: String| CompatError::CompressedBoardFormat { parameter, problem };
    let parts: Vec<&str> = text.split(',').collect();
    let [empty, letters, wells] = parts[..] else {
        return Err(problem(format!(
            "it has {} commas instead of 2",
            parts.len() - 1
        )));
    };
    let count = |what: &str, text: &str| match integer(text) {
        Some(count) if count >= 0 => Ok(u64::try_from(count).unwrap_or(u64::MAX)),
        _ => Err(problem(format!("{what} '{text}' is not a whole number"))),
    };
    let empty_rows = count("the count of empty rows", empty)?;
    let well_rows = count("the count of rows 1111111110", wells)?;
    let letters: Vec<char> = letters.chars().collect();
    if letters.len() % 2 != 0 {
        return Err(problem(format!(
            "it has {} row letters, an odd count (two per row)",
            letters.len()
        )));
    }
    let mut rows = Vec::with_capacity(letters.len() / 2);
    for pair in letters.chunks(2) {
        let bits = |letter: char| {
            letter_bits(letter).ok_or_else(|| problem(format!("'{letter}' is not a row letter")))
        };
        rows.push(bits(pair[0])? << 5 | bits(pair[1])?);
    }
    let total = empty_rows
        .saturating_add(rows.len() as u64)
        .saturating_add(well_rows);
    if total != ROWS as u64 {
        return Err(CompatError::CompressedBoardRows(total));
    }
    let mut board = Board::standard();
    let well_row = 0b11_1111_1110;
    let first = empty_rows as usize;
    for (offset, bits) in rows
        .into_iter()
        .chain(std::iter::repeat_n(well_row, well_rows as usize))
        .enumerate()
    {
        for x in 0..BOARD_WIDTH {
            if bits >> (BOARD_WIDTH - 1 - x) & 1 != 0 {
                board.set(x, first + offset);
            }
        }
    }
    Ok(board)
}

/// Refuses a board with a full row (our analysis takes positions at rest).
fn check_no_full_row(parameter: &'static str, board: &Board) -> Result<(), CompatError> {
    match board.full_rows() {
        0 => Ok(()),
        full => Err(CompatError::FullRow {
            parameter,
            row: full.trailing_zeros() + 1,
        }),
    }
}

/// A timeline (dashes already read as dots), by the request layer's rule
/// ([`tetris_arena_io::values::timeline`]): uniform ones (one `X` and n dots, repeated any
/// number of times: tap rate n + 1) and mixed ones with 2 to 8 frames from each `X` to the
/// next; anything else is refused with that rule's message.
pub fn parse_timeline(timeline: &str) -> Result<Timeline, CompatError> {
    tetris_arena_io::values::timeline(timeline)
        .map_err(|error| CompatError::Timeline(error.to_string()))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    const EMPTY: &str = "00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000";

    /// A board of 20 rows, 19 empty and the bottom one `bottom` (10 characters of 0/1).
    fn with_bottom(bottom: &str) -> String {
        format!("{}{bottom}", &EMPTY[..190])
    }

    /// Parameters as (name, value) pairs.
    type Pairs<'a> = &'a [(&'a str, &'a str)];

    /// A request with the required parameters (an empty board, T, level 18, 0 lines, 30 Hz),
    /// where `pairs` replace the parameter of the same name or are added at the end.
    fn with(kind: &RequestType, pairs: &[(&str, &str)]) -> QueryResult {
        let mut all: Vec<(&str, &str)> = vec![
            ("board", EMPTY),
            ("currentPiece", "T"),
            ("level", "18"),
            ("lines", "0"),
            ("inputFrameTimeline", "X."),
        ];
        for &(name, value) in pairs {
            match all.iter_mut().find(|(known, _)| *known == name) {
                Some(slot) => slot.1 = value,
                None => all.push((name, value)),
            }
        }
        let text: Vec<String> = all
            .iter()
            .map(|(name, value)| format!("{name}={value}"))
            .collect();
        parse_query(kind, &text.join("&"))
    }

    fn error(kind: &RequestType, pairs: &[(&str, &str)]) -> String {
        with(kind, pairs).unwrap_err().to_string()
    }

    #[test]
    fn a_plain_request_is_read_into_typed_values() {
        let bottom = with_bottom("1111111100");
        let parsed = with(
            &RequestType::EngineMovelist,
            &[
                ("board", &bottom),
                ("currentPiece", "t"),
                ("nextPiece", "I"),
                ("level", "19"),
            ],
        )
        .unwrap();
        assert_eq!(parsed.current, Piece::T);
        assert_eq!(parsed.next, Some(Piece::I));
        assert_eq!(
            (
                parsed.level,
                parsed.lines,
                parsed.timeline.tap_rate().unwrap()
            ),
            (19, 0, 2)
        );
        assert_eq!(parsed.board.row_text(19), "########..");
        assert_eq!(parsed.board.occupied_count(), 8);
        assert_eq!(parsed.second_board, None);
    }

    #[test]
    fn the_url_is_decoded_and_whitespace_removed_as_stackrabbit_does() {
        let parsed = parse_query(
            &RequestType::GetMove,
            &format!(
                "board={EMPTY}&current%50iece=%20S&level=1%208&lines=%2B7&inputFrameTimeline=X%2D%2D&"
            ),
        )
        .unwrap();
        assert_eq!(
            (parsed.current, parsed.level, parsed.lines),
            (Piece::S, 18, 7)
        );
        assert_eq!(parsed.timeline.tap_rate(), Some(3));
        assert_eq!(
            parse_query(&RequestType::GetMove, "board=%G1").unwrap_err(),
            CompatError::MalformedEncoding("%G1".into())
        );
        assert_eq!(
            parse_query(&RequestType::GetMove, "board=%FF").unwrap_err(),
            CompatError::MalformedEncoding("%FF".into())
        );
        assert_eq!(
            parse_query(&RequestType::GetMove, "board=%4").unwrap_err(),
            CompatError::MalformedEncoding("%4".into())
        );
    }

    #[test]
    fn stackrabbit_error_texts() {
        let js = RequestType::GetMove;
        let cpp = RequestType::GetMoveCpp;
        let cases: [(&RequestType, Pairs, &str); 20] = [
            (&js, &[("currentPiece", "X")], "Unknown current piece:X"),
            (&js, &[("nextPiece", "q")], "Unknown next piece:Q"),
            (&js, &[("level", "abc")], "Illegal level: abc"),
            (&js, &[("level", "-3")], "Illegal level: -3"),
            (
                &js,
                &[("level", "17")],
                "Currently only 18, 19, and 29 starts are supported by StackRabbit. Requested: 17",
            ),
            (&js, &[("lines", "-1")], "Illegal line count: -1"),
            (&js, &[("reactionTime", "x")], "Illegal reaction time: x"),
            (
                &js,
                &[("reactionTime", "61")],
                "Reaction time exceeds the maximum possible of 60 frames. Did you accidentally send it in millseconds?",
            ),
            (
                &js,
                &[("inputFrameTimeline", "X.o")],
                "Invalid input frame timeline: X.o",
            ),
            (
                &cpp,
                &[("lookaheadDepth", "0")],
                "Parameter 'lookaheadDepth' does not apply to C++ queries, please provide values for playoutCount and playoutLength instead.",
            ),
            (
                &js,
                &[("lookaheadDepth", "-2")],
                "Invalid lookahead depth: -2",
            ),
            (
                &js,
                &[("lookaheadDepth", "2")],
                "Maximum supported lookahead depth is currently 1.",
            ),
            (
                &js,
                &[("playoutCount", "49")],
                "Parameter 'playoutCount' does not apply to JS queries. Please use lookeaheadDepth instead.",
            ),
            (
                &js,
                &[("playoutLength", "2")],
                "Parameter 'playoutLength' does not apply to JS queries. Please use lookeaheadDepth instead.",
            ),
            (&cpp, &[("playoutCount", "-1")], "Invalid playout count: -1"),
            (
                &cpp,
                &[("playoutLength", "-1")],
                "Invalid playout length: -1",
            ),
            (
                &cpp,
                &[("playoutLength", "21")],
                "Invalid playout length (max is 20): 21",
            ),
            (
                &cpp,
                &[("playoutLength", "3"), ("playoutCount", "3202")],
                "Playout volume exceeds the current limit of 9604 moves. Current volume (count * length): 9606\"",
            ),
            (
                &cpp,
                &[("pruningBreadth", "-5")],
                "Invalid pruning breadth: -5",
            ),
            (
                &cpp,
                &[("pruningBreadth", "1157")],
                "Invalid pruning breadth (max is 1156): 1157",
            ),
        ];
        for (kind, pairs, expected) in cases {
            assert_eq!(error(kind, pairs), expected, "{pairs:?}");
        }
        let short = with(&js, &[("board", "0101")]).unwrap_err();
        assert_eq!(
            short.to_string(),
            "Invalid board, must be 200 characters in length (20 rows of 10, listed top to bottom). e.g. 00000000001000000001..."
        );
        let rows = with(&js, &[("board", "14,CaEa,3")]).unwrap_err();
        assert_eq!(
            rows.to_string(),
            "Invalid compressed board. Must contain 20 rows, but found: 19"
        );
    }

    #[test]
    fn the_playout_volume_is_checked_with_the_other_factor_as_read_so_far() {
        // Count first: 4803 × the default length 2 = 9606; length first: 3 × 3202 = 9606.
        let cpp = RequestType::EngineMovelistCpp;
        let count_first = error(&cpp, &[("playoutCount", "4803")]);
        assert!(
            count_first.ends_with("(count * length): 9606\""),
            "{count_first}"
        );
        let length_first = error(&cpp, &[("playoutLength", "3"), ("playoutCount", "3202")]);
        assert!(
            length_first.ends_with("(count * length): 9606\""),
            "{length_first}"
        );
        // 4802 × 2 = 9604 is within the limit (then refused: we play no playouts).
        assert!(
            error(&cpp, &[("playoutCount", "4802")])
                .starts_with("Parameter playoutCount=4802 is not supported")
        );
    }

    #[test]
    fn our_own_texts_where_stackrabbit_has_none() {
        let js = RequestType::GetMove;
        assert_eq!(
            parse_query(&js, "").unwrap_err(),
            CompatError::MissingParameter("board")
        );
        assert_eq!(
            parse_query(&js, &format!("board={EMPTY}&level=18")).unwrap_err(),
            CompatError::MissingParameter("currentPiece")
        );
        assert_eq!(
            parse_query(
                &js,
                &format!("board={EMPTY}&currentPiece=T&level=18&lines=0")
            )
            .unwrap_err(),
            CompatError::MissingParameter("inputFrameTimeline")
        );
        assert_eq!(
            parse_query(&js, &format!("board={EMPTY}&board={EMPTY}"))
                .unwrap_err()
                .to_string(),
            "Parameter 'board' is given twice"
        );
        assert_eq!(
            parse_query(&js, "lines").unwrap_err().to_string(),
            "Parameter 'lines' has no value (write lines=VALUE)"
        );
        assert!(error(&js, &[("speed", "30")]).starts_with(
            "Unknown parameter 'speed'; the parameters are board, secondBoard, currentPiece"
        ));
        assert_eq!(
            error(&js, &[("secondBoard", EMPTY)]),
            "Parameter 'secondBoard' applies only to rate-move and rate-move-cpp requests"
        );
        assert_eq!(
            with(&RequestType::RateMove, &[]).unwrap_err(),
            CompatError::SecondBoardMissing
        );
        assert_eq!(
            error(&js, &[("existingXOffset", "left")]),
            "Parameter 'existingXOffset' must be a whole number, not 'left'"
        );
        assert_eq!(
            error(&js, &[("arrWasReset", "yes")]),
            "Parameter 'arrWasReset' must be true, TRUE, 1, false, FALSE or 0, not 'yes'"
        );
        assert_eq!(
            error(&js, &[("level", "256")]),
            "Illegal level: 256 (this server takes levels 18 to 255)"
        );
        assert_eq!(
            with(&js, &[("lines", "4294967296")]).unwrap_err(),
            CompatError::LinesTooMany("4294967296".into())
        );
        // JavaScript's parseInt would read 18.5 as 18; we refuse what we would have to guess.
        assert_eq!(
            with(&js, &[("level", "18.5")]).unwrap_err(),
            CompatError::IllegalLevel("18.5".into())
        );
        let two = format!("{}2", &EMPTY[..199]);
        assert_eq!(
            error(&js, &[("board", &two)]),
            "Invalid board: character 200 is '2', but a board is written with 0 (empty) and 1 (full)"
        );
        assert!(
            error(&js, &[("board", "15,CaEa")])
                .starts_with("Invalid compressed board: it has 1 commas instead of 2")
        );
    }

    #[test]
    fn values_we_cannot_honour_are_refused_after_stackrabbit_checks() {
        let js = RequestType::GetMove;
        let cpp = RequestType::EngineMovelistCpp;
        for (kind, pair, shown) in [
            (&cpp, ("playoutCount", "10"), "playoutCount=10"),
            (&cpp, ("playoutLength", "1"), "playoutLength=1"),
            (&cpp, ("pruningBreadth", "30"), "pruningBreadth=30"),
            (&js, ("existingYOffset", "3"), "existingYOffset=3"),
            (&js, ("arrWasReset", "TRUE"), "arrWasReset=true"),
            (&js, ("dasCharge", "10"), "dasCharge=10"),
        ] {
            let message = error(kind, &[pair]);
            assert!(
                message.starts_with(&format!(
                    "Parameter {shown} is not supported by this server: "
                )),
                "{message}"
            );
        }
        // StackRabbit's defaults are accepted, given or not.
        let defaults = [
            ("reactionTime", "0"),
            ("existingXOffset", "0"),
            ("existingFramesElapsed", "0"),
            ("arrWasReset", "false"),
            ("dasCharge", "-1"),
        ];
        let mut js_defaults = defaults.to_vec();
        js_defaults.push(("lookaheadDepth", "0"));
        assert!(with(&js, &js_defaults).is_ok());
        let mut cpp_defaults = defaults.to_vec();
        cpp_defaults.extend([
            ("playoutCount", "49"),
            ("playoutLength", "2"),
            ("pruningBreadth", "20"),
        ]);
        assert!(with(&cpp, &cpp_defaults).is_ok());
        // A reaction time and the lookahead are honoured.
        let honoured = with(&js, &[("reactionTime", "18"), ("lookaheadDepth", "1")]).unwrap();
        assert_eq!((honoured.reaction_time, honoured.lookahead), (18, true));
        // A StackRabbit error later in the query wins over our refusal earlier in it.
        assert_eq!(
            error(&js, &[("reactionTime", "5"), ("nextPiece", "W")]),
            "Unknown next piece:W"
        );
    }

    #[test]
    fn the_compressed_board_of_stackrabbits_own_example() {
        // 15,CaEa,3 worked by hand from the letter table: 15 empty rows; C = 11100 and
        // a = 00000 give 1110000000; E = 11110 gives 1111000000; then 3 rows 1111111110.
        let board = parse_board("board", "15,CaEa,3").unwrap();
        let mut expected = vec![".........."; 15];
        expected.extend([
            "###.......",
            "####......",
            "#########.",
            "#########.",
            "#########.",
        ]);
        assert_eq!(board, Board::from_rows(&expected).unwrap());
        // The same board as 200 characters.
        let plain = format!(
            "{}11100000001111000000111111111011111111101111111110",
            &EMPTY[..150]
        );
        assert_eq!(parse_board("board", &plain).unwrap(), board);
        // The empty board: 20 empty rows, no letters, no well rows.
        assert_eq!(parse_board("board", "20,,0").unwrap(), Board::standard());
        // F is 11111: Fa is 1111100000.
        assert_eq!(
            parse_board("board", "19,Fa,0").unwrap().row_text(19),
            "#####....."
        );
        for bad in [
            "15,CaE,3",
            "15,Ca,Ea,3",
            "x,CaEa,3",
            "15,CaGa,3",
            "15,CaEa,-3",
        ] {
            assert!(
                matches!(
                    parse_board("board", bad),
                    Err(CompatError::CompressedBoardFormat { .. })
                ),
                "{bad}"
            );
        }
    }

    #[test]
    fn full_rows_are_refused() {
        let full = with_bottom("1111111111");
        assert_eq!(
            with(&RequestType::GetMove, &[("board", &full)]).unwrap_err(),
            CompatError::FullRow {
                parameter: "board",
                row: 20
            }
        );
        assert_eq!(
            with(&RequestType::RateMove, &[("secondBoard", "18,FFFF,0")]).unwrap_err(),
            CompatError::FullRow {
                parameter: "secondBoard",
                row: 19
            }
        );
    }

    #[test]
    fn timelines_map_to_tap_rates_or_are_taken_mixed() {
        for (timeline, rate) in [
            ("X.", 2),
            ("X..", 3),
            ("X...", 4),
            ("X.X.", 2),
            ("X...X...X...", 4),
            ("X.......", 8),
        ] {
            assert_eq!(
                parse_timeline(timeline).unwrap().tap_rate(),
                Some(rate),
                "{timeline}"
            );
        }
        // StackRabbit's mixed timelines are taken as they are.
        for mixed in ["X....X...X...", "X.X..", "X...X....X.."] {
            let timeline = parse_timeline(mixed).unwrap();
            assert_eq!(
                (timeline.tap_rate(), timeline.to_string()),
                (None, mixed.to_string())
            );
        }
        // Dashes are dots (StackRabbit replaces them while reading the parameter).
        let dashes = with(&RequestType::GetMove, &[("inputFrameTimeline", "X-")]);
        assert_eq!(dashes.unwrap().timeline.tap_rate(), Some(2));
        // Refusals carry the request layer's message, the native API's for the same timeline.
        for refused in ["X", "XX", "X..X", ".X", "X........", "X.X", "", "..."] {
            assert_eq!(
                parse_timeline(refused).unwrap_err().to_string(),
                tetris_arena_io::values::timeline(refused)
                    .unwrap_err()
                    .to_string(),
                "{refused}"
            );
        }
        assert!(
            parse_timeline("X..X")
                .unwrap_err()
                .to_string()
                .contains("two X are adjacent")
        );
    }

    proptest! {
        #[test]
        fn arbitrary_queries_never_panic(raw in ".{0,300}") {
            for kind in [RequestType::GetMove, RequestType::RateMoveCpp, RequestType::EngineMovelistCpp] {
                let _ = parse_query(&kind, &raw);
            }
        }

        #[test]
        fn arbitrary_parameter_values_never_panic(
            name in prop::sample::select(PARAMETER_NAMES.to_vec()),
            value in "[-+0-9a-zA-Z.,%X]{0,40}",
        ) {
            let _ = with(&RequestType::RateMoveCpp, &[(name, &value)]);
            let _ = with(&RequestType::GetMove, &[(name, &value)]);
            let _ = parse_board("board", &value);
        }

        #[test]
        fn arbitrary_lists_of_known_parameters_never_panic(
            pairs in prop::collection::vec(
                (prop::sample::select(PARAMETER_NAMES.to_vec()), "[-+0-9a-fA-FX.,%&=]{0,30}"),
                0..10,
            ),
        ) {
            let text: Vec<String> =
                pairs.iter().map(|(name, value)| format!("{name}={value}")).collect();
            for kind in [RequestType::RateMove, RequestType::EngineMovelistCpp] {
                let _ = parse_query(&kind, &text.join("&"));
            }
        }
    }
}
