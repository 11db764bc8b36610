//! Reading the files users hand over, with a size limit.
//!
//! Every file the arena reads (board, replay, part, checkpoint, runner, weights, piece and
//! pattern files) is read through [`read_text`] with a limit generous for real use: a file
//! larger than it is refused with one line naming the file and the limit
//! ([`Error::FileTooLarge`]), e.g. `replay g.json: larger than 64 MiB (the limit for a
//! replay)`. A regular file is refused by its size before any byte is read; anything else
//! (a device such as `/dev/zero` or `/dev/urandom`, a pipe) is read up to one byte past the
//! limit and then refused, so no reader grows without bound.

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
