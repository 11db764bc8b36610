//! The JSON text the arena writes: [`pretty_json`] for every report and file a user reads,
//! laid out by one rule (below), and [`json_line`] for the files only the arena reads back.
//!
//! The layout is one pass over serde_json's compact text, so numbers and strings keep
//! serde_json's exact spelling and members their order (serde_json's `Value` would sort
//! them), and a report of millions of games needs no memory beyond its text.

use serde::Serialize;

/// A value as the arena's JSON text, ending in a line break: the form of every `--json`
/// report and of every JSON file a user asks for (`--out`, `--checkpoint`, `stats.json`).
///
/// The layout rule (docs/commands.md, "JSON output"): an object has one member per line,
/// indented two spaces a level; an array of numbers, strings, booleans and nulls stays on one
/// line; any other array has one element per line, and an element that is a *record* (an
/// object or array holding only such values and arrays of them: a game, a placement, a row of
/// counts) is written whole, compact, on its line, as the replay file writes its placements.
/// So a 500-placement game is 500 short lines, not one line of 500 KB nor 4,000 lines of one
/// number each. The values and the order of members are serde_json's, untouched.
pub fn pretty_json<T: Serialize + ?Sized>(value: &T) -> String {
    let compact = serde_json::to_string(value).expect("results are plain structs, which serialize");
    let mut text = String::with_capacity(compact.len() + compact.len() / 4);
    write(&compact, 0, 0, &mut text);
    text.push('\n');
    text
}

/// A value as one line of compact JSON: only for files written for the arena to read back
/// (a shard's part, a runner task's result), never for a report a user reads.
pub fn json_line<T: Serialize + ?Sized>(value: &T) -> String {
    let mut line =
        serde_json::to_string(value).expect("results are plain structs, which serialize");
    line.push('\n');
    line
}

/// `compact[start..]`'s value laid out by the rule, its first line already indented to
/// `level`; the end of that value in `compact`.
///
/// `compact` is serde_json's compact text (valid JSON without whitespace), so every value
/// ends where its bracket closes or at the next `,`, `]` or `}`, and a record or an array of
/// scalars is copied as it stands.
fn write(compact: &str, start: usize, level: usize, text: &mut String) -> usize {
    let bytes = compact.as_bytes();
    match bytes[start] {
        b'{' if bytes[start + 1] == b'}' => {
            text.push_str("{}");
            start + 2
        }
        b'{' => {
            text.push('{');
            let mut index = start + 1;
            loop {
                new_line(level + 1, text);
                let key_end = string_end(bytes, index);
                text.push_str(&compact[index..key_end]);
                text.push_str(": ");
                // After the key, its `:`.
                index = write(compact, key_end + 1, level + 1, text);
                if bytes[index] == b'}' {
                    new_line(level, text);
                    text.push('}');
                    return index + 1;
                }
                text.push(',');
                index += 1;
            }
        }
        b'[' => {
            if let Some(end) = scalar_array_end(bytes, start) {
                text.push_str(&compact[start..end]);
                return end;
            }
            text.push('[');
            let mut index = start + 1;
            loop {
                new_line(level + 1, text);
                let end = value_end(bytes, index);
                match is_record(bytes, index, end) {
                    true => text.push_str(&compact[index..end]),
                    false => {
                        write(compact, index, level + 1, text);
                    }
                }
                if bytes[end] == b']' {
                    new_line(level, text);
                    text.push(']');
                    return end + 1;
                }
                text.push(',');
                index = end + 1;
            }
        }
        _ => {
            let end = value_end(bytes, start);
            text.push_str(&compact[start..end]);
            end
        }
    }
}

/// A line break and the indentation of `level`.
fn new_line(level: usize, text: &mut String) {
    text.push('\n');
    text.extend(std::iter::repeat_n("  ", level));
}

/// The end of the string literal starting at `start` (just past its closing quote).
fn string_end(bytes: &[u8], start: usize) -> usize {
    let mut index = start + 1;
    while bytes[index] != b'"' {
        // A backslash escapes the next byte (`\"`, `\\`; `\u` needs no care).
        index += if bytes[index] == b'\\' { 2 } else { 1 };
    }
    index + 1
}

/// The end of the value starting at `start`.
fn value_end(bytes: &[u8], start: usize) -> usize {
    match bytes[start] {
        b'"' => string_end(bytes, start),
        b'[' | b'{' => {
            let mut depth = 0usize;
            let mut index = start;
            loop {
                match bytes[index] {
                    b'"' => {
                        index = string_end(bytes, index);
                        continue;
                    }
                    b'[' | b'{' => depth += 1,
                    b']' | b'}' => {
                        depth -= 1;
                        if depth == 0 {
                            return index + 1;
                        }
                    }
                    _ => {}
                }
                index += 1;
            }
        }
        _ => bytes[start..]
            .iter()
            .position(|byte| matches!(byte, b',' | b']' | b'}'))
            .map_or(bytes.len(), |offset| start + offset),
    }
}

/// The end of the array starting at `start` when it holds only numbers, strings, booleans
/// and nulls (or nothing); `None` at its first object or array.
fn scalar_array_end(bytes: &[u8], start: usize) -> Option<usize> {
    let mut index = start + 1;
    loop {
        match bytes[index] {
            b'"' => {
                index = string_end(bytes, index);
                continue;
            }
            b'[' | b'{' => return None,
            b']' => return Some(index + 1),
            _ => {}
        }
        index += 1;
    }
}

/// Whether `bytes[start..end]` is a record, written whole on one line as an array's element:
/// a scalar, or an object or array of scalars and arrays of scalars (no object inside, no
/// array inside an inner array).
fn is_record(bytes: &[u8], start: usize, end: usize) -> bool {
    if !matches!(bytes[start], b'[' | b'{') {
        return true;
    }
    let mut depth = 1usize;
    let mut index = start + 1;
    while index < end {
        match bytes[index] {
            b'"' => {
                index = string_end(bytes, index);
                continue;
            }
            b'{' => return false,
            b'[' if depth == 2 => return false,
            b'[' => depth += 1,
            b']' => depth -= 1,
            _ => {}
        }
        index += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_is_laid_out_by_one_rule() {
        #[derive(Serialize)]
        struct Game {
            piece: char,
            x: i8,
            clears: [u8; 2],
        }
        #[derive(Serialize)]
        struct Report {
            name: &'static str,
            rows: Vec<u32>,
            empty: Vec<u32>,
            games: Vec<Game>,
            grid: Vec<[u8; 3]>,
            nested: Vec<serde_json::Value>,
            settings: std::collections::BTreeMap<&'static str, f64>,
        }
        let report = Report {
            name: "a \"quoted\" [name], {with} \\ brackets",
            rows: vec![1, 2, 3],
            empty: vec![],
            games: vec![
                Game {
                    piece: 'T',
                    x: -1,
                    clears: [0, 4],
                },
                Game {
                    piece: 'I',
                    x: 5,
                    clears: [1, 0],
                },
            ],
            grid: vec![[0, 1, 2], [3, 4, 5]],
            nested: vec![serde_json::json!({"inner": {"deep": [1.5, null, true]}})],
            settings: [("ratio", 0.1), ("big", 1e300)].into_iter().collect(),
        };
        let text = pretty_json(&report);
        assert_eq!(
            text,
            r#"{
  "name": "a \"quoted\" [name], {with} \\ brackets",
  "rows": [1,2,3],
  "empty": [],
  "games": [
    {"piece":"T","x":-1,"clears":[0,4]},
    {"piece":"I","x":5,"clears":[1,0]}
  ],
  "grid": [
    [0,1,2],
    [3,4,5]
  ],
  "nested": [
    {
      "inner": {
        "deep": [1.5,null,true]
      }
    }
  ],
  "settings": {
    "big": 1e+300,
    "ratio": 0.1
  }
}
"#
        );
        // The same values as serde_json's own pretty form.
        let parsed: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(parsed, serde_json::to_value(&report).unwrap());
        // Arrays three deep are no records; a key and strings with brackets, quotes and a
        // final backslash do not confuse the layout.
        let odd = serde_json::json!({"k\"}]": [[[[1]]], [[2], 3]], "s": ["]\\", "{"]});
        let text = pretty_json(&odd);
        assert_eq!(
            text,
            "{\n  \"k\\\"}]\": [\n    [\n      [[1]]\n    ],\n    [[2],3]\n  ],\n  \"s\": [\"]\\\\\",\"{\"]\n}\n"
        );
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&text).unwrap(),
            odd
        );
        assert_eq!(pretty_json(&Vec::<u8>::new()), "[]\n");
        assert_eq!(pretty_json(&serde_json::json!({})), "{}\n");
        assert_eq!(pretty_json("x"), "\"x\"\n");
    }
}
