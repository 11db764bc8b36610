//! Reading the files users hand over, with a size limit.
//!
//! Every file the arena reads (board, replay, part, checkpoint, runner, weights, piece and
//! pattern files) is read through [`read_text`] with a limit generous for real use: a file
//! larger than it is refused with one line naming the file and the limit
//! ([`Error::FileTooLarge`]), e.g. `replay g.json: larger than 64 MiB (the limit for a
//! replay)`. A regular file is refused by its size before any byte is read; anything else
//! (a device such as `/dev/zero` or `/dev/urandom`, a pipe) is read up to one byte past the
//! limit and then refused, so no reader grows without bound.
//!
//! Every JSON those files hold (boards, replays, traces, parts, checkpoints, the runner's
//! files) is parsed by [`parse_json`], which refuses a key repeated in any object:
//! serde keeps the last of two values silently (and the derived structs refuse a repeated
//! field only outside `serde_json::Value`, maps and flattened fields), so `"lines":198,
//! "lines":197` would read as 197 with no word. A first pass walks the whole document and
//! names the first repeated key, with its line and column; then the normal parse runs.
//! Weights files need no first pass: they are a plain object (whose derived fields refuse a
//! repetition) holding a map of weights that their reader checks feature by feature
//! ([`crate::evaluate`]: `feature "holes" is given twice`).

use std::fs::File;
use std::io::Read;
use std::path::Path;

use crate::error::Error;

/// One kibibyte.
pub const KIB: u64 = 1 << 10;
/// One mebibyte.
pub const MIB: u64 = 1 << 20;
/// One gibibyte.
pub const GIB: u64 = 1 << 30;

/// The limit of a board file (a board or a pattern): at most 32 rows of 10 cells, a few
/// hundred bytes even as pretty-printed JSON.
pub const BOARD_FILE_LIMIT: u64 = MIB;
/// The limit of a weights file: a few hundred bytes in real use.
pub const WEIGHTS_FILE_LIMIT: u64 = MIB;
/// The limit of a piece file: 64 Mi pieces (one byte each, white space between).
pub const PIECE_FILE_LIMIT: u64 = 64 * MIB;

/// Parses `text` as JSON into `T`, refusing a key repeated in any object of the document
/// (module documentation) with serde_json's own error (`duplicate key "lines" at line 1
/// column 30`), so every reader reports it as it reports any other fault of its JSON.
pub fn parse_json<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, serde_json::Error> {
    serde_json::from_str::<NoRepeatedKeys>(text)?;
    serde_json::from_str(text)
}

/// [`parse_json`] of bytes (which must be UTF-8, as JSON is).
pub fn parse_json_bytes<T: serde::de::DeserializeOwned>(
    bytes: &[u8],
) -> Result<T, serde_json::Error> {
    serde_json::from_slice::<NoRepeatedKeys>(bytes)?;
    serde_json::from_slice(bytes)
}

/// Any JSON value, read only to find a key repeated in one of its objects (serde_json's
/// recursion limit bounds the depth).
struct NoRepeatedKeys;

impl<'de> serde::Deserialize<'de> for NoRepeatedKeys {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(NoRepeatedKeys)
    }
}

impl<'de> serde::de::Visitor<'de> for NoRepeatedKeys {
    type Value = NoRepeatedKeys;

    fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<Self, E> {
        Ok(self)
    }

    fn visit_i64<E>(self, _: i64) -> Result<Self, E> {
        Ok(self)
    }

    fn visit_u64<E>(self, _: u64) -> Result<Self, E> {
        Ok(self)
    }

    fn visit_f64<E>(self, _: f64) -> Result<Self, E> {
        Ok(self)
    }

    fn visit_str<E>(self, _: &str) -> Result<Self, E> {
        Ok(self)
    }

    fn visit_unit<E>(self) -> Result<Self, E> {
        Ok(self)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self, A::Error> {
        while seq.next_element::<NoRepeatedKeys>()?.is_some() {}
        Ok(self)
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Self, A::Error> {
        let mut seen = std::collections::HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if seen.contains(&key) {
                return Err(serde::de::Error::custom(format!("duplicate key {key:?}")));
            }
            map.next_value::<NoRepeatedKeys>()?;
            seen.insert(key);
        }
        Ok(self)
    }
}

/// A byte count as the messages say it: `64 MiB`, `512 KiB`, `1 GiB`, `100 bytes`.
pub fn size_text(bytes: u64) -> String {
    match bytes {
        0 => "0 bytes".into(),
        _ if bytes % GIB == 0 => format!("{} GiB", bytes / GIB),
        _ if bytes % MIB == 0 => format!("{} MiB", bytes / MIB),
        _ if bytes % KIB == 0 => format!("{} KiB", bytes / KIB),
        1 => "1 byte".into(),
        _ => format!("{bytes} bytes"),
    }
}

/// The bytes of the file `path`, at most `limit` of them: a larger file is
/// [`Error::FileTooLarge`] (`what` names the kind of file in the message, e.g. `replay`),
/// a file that cannot be opened or read is [`Error::Io`].
pub fn read_bytes(path: &Path, limit: u64, what: &str) -> Result<Vec<u8>, Error> {
    let shown = path.display().to_string();
    let file = File::open(path).map_err(|error| Error::io(&shown, &error))?;
    let regular_size = file
        .metadata()
        .ok()
        .filter(|metadata| metadata.is_file())
        .map(|metadata| metadata.len());
    read_limited(file, regular_size, &shown, limit, what)
}

/// What `reader` (called `shown` in messages) holds, at most `limit` bytes, as
/// [`read_bytes`] reads a file: `known_size`, when given (a regular file's), is refused
/// before anything is read; anything else is read to one byte past the limit.
pub fn read_limited(
    reader: impl Read,
    known_size: Option<u64>,
    shown: &str,
    limit: u64,
    what: &str,
) -> Result<Vec<u8>, Error> {
    let too_large = || Error::FileTooLarge {
        what: what.to_string(),
        path: shown.to_string(),
        limit,
    };
    if known_size.is_some_and(|size| size > limit) {
        return Err(too_large());
    }
    let mut bytes = Vec::new();
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|error| Error::io(shown, &error))?;
    if bytes.len() as u64 > limit {
        return Err(too_large());
    }
    Ok(bytes)
}

/// The text of the file `path`, at most `limit` bytes of UTF-8: as [`read_bytes`], and text
/// that is not UTF-8 is [`Error::Io`] with the message `std::fs::read_to_string` gives.
pub fn read_text(path: &Path, limit: u64, what: &str) -> Result<String, Error> {
    let bytes = read_bytes(path, limit, what)?;
    text_of(bytes, &path.display().to_string())
}

/// `bytes` as UTF-8 text, or the [`Error::Io`] `std::fs::read_to_string` gives.
pub fn text_of(bytes: Vec<u8>, shown: &str) -> Result<String, Error> {
    String::from_utf8(bytes).map_err(|_| Error::Io {
        path: shown.to_string(),
        message: "stream did not contain valid UTF-8".into(),
        kind: std::io::ErrorKind::InvalidData,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_repeated_in_any_object_is_refused_with_its_place() {
        // At the top, inside a value of any type (as serde_json::Value and maps read them),
        // and inside an array (the place is the end of the repeated key);
        // the same key in two objects is no repetition.
        let refused = [
            (r#"{"lines":198,"lines":197}"#, "lines", 1, 20),
            ("{\"a\":{\"b\":1,\n\"b\":2}}", "b", 2, 3),
            (r#"[{"x":[],"y":0},{"z":{},"z":{}}]"#, "z", 1, 27),
        ];
        for (text, key, line, column) in refused {
            let error = parse_json::<serde_json::Value>(text).unwrap_err();
            assert_eq!(
                error.to_string(),
                format!("duplicate key {key:?} at line {line} column {column}"),
                "{text}"
            );
            assert!(parse_json_bytes::<serde_json::Value>(text.as_bytes()).is_err());
        }
        let read: serde_json::Value = parse_json(r#"[{"x":1},{"x":2,"y":{"x":3}}]"#).unwrap();
        assert_eq!(read[1]["y"]["x"], 3);
        // A fault of the JSON itself reads as serde_json says it.
        assert_eq!(
            parse_json::<serde_json::Value>("{\"a\":")
                .unwrap_err()
                .to_string(),
            "EOF while parsing a value at line 1 column 5"
        );
    }

    #[test]
    fn sizes_are_said_in_the_largest_whole_unit() {
        assert_eq!(size_text(64 * MIB), "64 MiB");
        assert_eq!(size_text(GIB), "1 GiB");
        assert_eq!(size_text(512 * KIB), "512 KiB");
        assert_eq!(size_text(100), "100 bytes");
        assert_eq!(size_text(1), "1 byte");
    }

    #[test]
    fn a_file_one_byte_over_the_limit_is_refused_with_its_name_and_the_limit() {
        let folder = std::env::temp_dir().join(format!("core-files-{}", std::process::id()));
        std::fs::create_dir_all(&folder).unwrap();
        let path = folder.join("p.txt");
        std::fs::write(&path, "TJZOSLI").unwrap();
        assert_eq!(read_text(&path, 7, "piece file").unwrap(), "TJZOSLI");
        let error = read_text(&path, 6, "piece file").unwrap_err();
        assert_eq!(
            error.to_string(),
            format!(
                "piece file {}: larger than 6 bytes (the limit for a piece file)",
                path.display()
            )
        );
        std::fs::write(&path, [0xff, 0xfe]).unwrap();
        assert_eq!(
            read_text(&path, 7, "piece file").unwrap_err().to_string(),
            format!("{}: stream did not contain valid UTF-8", path.display())
        );
        let missing = folder.join("missing.txt");
        assert!(matches!(
            read_text(&missing, 7, "piece file"),
            Err(Error::Io { .. })
        ));
        std::fs::remove_dir_all(&folder).unwrap();
    }

    #[test]
    fn devices_stop_at_the_limit() {
        for device in ["/dev/zero", "/dev/urandom"] {
            let error = read_bytes(Path::new(device), MIB, "replay").unwrap_err();
            assert_eq!(
                error.to_string(),
                format!("replay {device}: larger than 1 MiB (the limit for a replay)")
            );
        }
    }
}
