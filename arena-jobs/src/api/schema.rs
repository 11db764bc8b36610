//! The hand-built parts of the OpenAPI document: request fields whose valid values are a
//! short list or a pattern (pieces, game-over rules, input models, boards). `ToSchema` would
//! call them plain strings; naming the values here lets a client, or a test generator such as
//! schemathesis, send requests the server accepts. The lists come from the core's own
//! constants (`Piece::ALL`, `GameOverRule::ALL`, `InputModel::ALL`), so they cannot drift from
//! what the request layer parses.

use serde_json::Value;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{
    ArrayBuilder, Object, ObjectBuilder, OneOfBuilder, Schema, SchemaType, Type,
};

use tetris_core::{GameOverRule, InputModel, Piece};

/// The most rows a board has ([`tetris_arena_io::values::BoardHeight`]'s range).
const MAX_ROWS: usize = 32;
/// The fewest rows a board has.
const MIN_ROWS: usize = 4;

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
