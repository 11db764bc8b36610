//! The hand-built parts of the OpenAPI document: request fields whose valid values are a
//! short list, a pattern or a range (pieces, game-over rules, input models, boards, board
//! heights, levels, tap rates, counts). `ToSchema` would call them plain strings or integers;
//! naming the values here lets a client, or a test generator such as schemathesis, send
//! requests the server accepts. The lists and ranges come from the same constants the checks
//! use (`Piece::ALL`, `GameOverRule::ALL`, `InputModel::ALL`, the typed values' `MIN` and
//! `MAX`, [`MAX_SERVED_PIECES`]), so they cannot drift from what the request layer accepts;
//! the server's tests compare every published bound with its check.

use serde_json::Value;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{
    ArrayBuilder, KnownFormat, Object, ObjectBuilder, OneOfBuilder, Schema, SchemaFormat,
    SchemaType, Type,
};

use tetris_arena_io::values::{BoardHeight, Level, TapRate, TopCount};
use tetris_core::{GameOverRule, InputModel, Piece};

use crate::serve::MAX_SERVED_PIECES;

/// The most rows a board has ([`BoardHeight`]'s range).
const MAX_ROWS: usize = BoardHeight::MAX as usize;
/// The fewest rows a board has.
const MIN_ROWS: usize = BoardHeight::MIN as usize;

/// An integer from `minimum` to `maximum`, or null when `nullable` (an optional field).
pub fn integer(minimum: u64, maximum: u64, nullable: bool, description: &str) -> Object {
    let schema_type = match nullable {
        true => SchemaType::from_iter([Type::Integer, Type::Null]),
        false => SchemaType::new(Type::Integer),
    };
    ObjectBuilder::new()
        .schema_type(schema_type)
        .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int64)))
        .minimum(Some(minimum as f64))
        .maximum(Some(maximum as f64))
        .description(Some(description))
        .build()
}

/// `board_height`: [`BoardHeight`]'s range, optional.
pub fn board_height() -> Object {
    integer(
        BoardHeight::MIN.into(),
        BoardHeight::MAX.into(),
        true,
        &format!(
            "Rows of the field, {} to {} (default {}).",
            BoardHeight::MIN,
            BoardHeight::MAX,
            BoardHeight::default()
        ),
    )
}

/// `level`: [`Level`]'s range, optional.
pub fn level() -> Object {
    integer(
        Level::MIN.into(),
        Level::MAX.into(),
        true,
        "Gravity-aware searchers (gamepad): the level whose gravity the search simulates.",
    )
}

/// `tap_rate`: [`TapRate`]'s range, optional.
pub fn tap_rate() -> Object {
    integer(
        TapRate::MIN.into(),
        TapRate::MAX.into(),
        true,
        &format!(
            "Gravity-aware searchers: frames between two presses of one thumb, {} to {}.",
            TapRate::MIN,
            TapRate::MAX
        ),
    )
}

/// `top`: [`TopCount`]'s range, optional.
pub fn top() -> Object {
    integer(
        TopCount::MIN as u64,
        TopCount::MAX as u64,
        true,
        &format!(
            "How many ranked placements to list, {} to {} (default 5).",
            TopCount::MIN,
            TopCount::MAX
        ),
    )
}

/// `max_pieces` of a served game: required, 1 to [`MAX_SERVED_PIECES`].
pub fn max_pieces() -> Object {
    let mut schema = integer(
        1,
        MAX_SERVED_PIECES,
        false,
        &format!("The most pieces the game plays: required, 1 to {MAX_SERVED_PIECES}."),
    );
    schema.example = Some(Value::from(100));
    schema
}

/// A string that is one of `values`, or null when `nullable`.
fn one_of_strings(
    values: impl IntoIterator<Item = String>,
    nullable: bool,
    description: &str,
) -> Object {
    let mut values: Vec<Value> = values.into_iter().map(Value::String).collect();
    let schema_type = match nullable {
        true => {
            values.push(Value::Null);
            SchemaType::from_iter([Type::String, Type::Null])
        }
        false => SchemaType::new(Type::String),
    };
    ObjectBuilder::new()
        .schema_type(schema_type)
        .enum_values(Some(values))
        .description(Some(description))
        .build()
}

/// The pieces' letters.
fn piece_letters() -> impl Iterator<Item = String> {
    Piece::ALL
        .into_iter()
        .map(|piece| piece.letter().to_string())
}

/// One piece: a letter of T J Z O S L I.
pub fn piece() -> Object {
    one_of_strings(
        piece_letters(),
        false,
        "The current piece: one letter of T J Z O S L I.",
    )
}

/// The preview: a list of pieces.
pub fn pieces() -> ArrayBuilder {
    ArrayBuilder::new()
        .items(one_of_strings(piece_letters(), false, "A piece."))
        .description(Some(
            "The preview pieces after the current one (at most the strategy's depth − 1).",
        ))
}

/// A game-over rule that a decision or game without frames takes (not `console`, which only
/// `arena nes` plays), or null.
pub fn frameless_game_over() -> Object {
    one_of_strings(
        GameOverRule::ALL
            .into_iter()
            .filter(|rule| !rule.needs_frame_model())
            .map(|rule| rule.name().to_string()),
        true,
        "The game-over rule (default: the searcher's); not `console`, which needs the NES \
         frame model of `arena nes`.",
    )
}

/// A game-over rule a position's decision takes, or null: `console` only with a
/// gravity-aware searcher, which plays the NES frame model's hidden rows.
pub fn position_game_over() -> Object {
    one_of_strings(
        GameOverRule::ALL
            .into_iter()
            .map(|rule| rule.name().to_string()),
        true,
        "The game-over rule (default: the searcher's); `console` (as `arena nes` decides) only \
         for gravity-aware searchers (gamepad).",
    )
}

/// An input model's name, or null (the default).
pub fn inputs() -> Object {
    one_of_strings(
        InputModel::ALL
            .into_iter()
            .map(|model| model.name().to_string()),
        true,
        "Gravity-aware searchers: what the player may press (default `two-thumb`).",
    )
}

/// A board: rows of 10 `#`/`.` characters, or one string of `0`/`1` cells (10 per row). Its
/// row count must also equal the request's `board_height`, which a schema cannot say.
pub fn board() -> RefOr<Schema> {
    let row = ObjectBuilder::new()
        .schema_type(Type::String)
        .pattern(Some("^[#.]{10}$"));
    let rows = ArrayBuilder::new()
        .items(row)
        .min_items(Some(MIN_ROWS))
        .max_items(Some(MAX_ROWS))
        .description(Some("Rows of 10 `#`/`.` characters, top row first."));
    let cells = ObjectBuilder::new()
        .schema_type(Type::String)
        .pattern(Some(format!(
            "^[01]{{{},{}}}$",
            MIN_ROWS * tetris_core::BOARD_WIDTH,
            MAX_ROWS * tetris_core::BOARD_WIDTH
        )))
        .description(Some(
            "10 × board_height `0`/`1` characters (1 occupied), top row first.",
        ));
    OneOfBuilder::new()
        .item(rows)
        .item(cells)
        .description(Some(
            "The board: `board_height` rows of 10 `#`/`.` characters, top row first, or one \
             string of 10 × `board_height` `0`/`1` cells, top row first. No full row.",
        ))
        .into()
}
