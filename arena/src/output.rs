//! Writing output: result files atomically (a temporary file beside the target, then a rename,
//! so an interrupted run never leaves a truncated file), and standard output without panicking
//! when the reader goes away.

use std::fs;
use std::io::Write;
use std::path::Path;

use crate::error::ArenaError;

/// Writes `contents` to `path` atomically (temp file in the same folder + rename).
pub fn write_atomically(path: &Path, contents: &[u8]) -> Result<(), ArenaError> {
    let shown = path.display().to_string();
    let file_name = path
        .file_name()
        .ok_or_else(|| ArenaError::Usage(format!("{shown}: not a file name")))?;
    let mut temporary_name = std::ffi::OsString::from(".");
    temporary_name.push(file_name);
    temporary_name.push(format!(".{}.tmp", std::process::id()));
    let temporary = path.with_file_name(temporary_name);
    let write = || -> std::io::Result<()> {
        let mut file = fs::File::create(&temporary)?;
        file.write_all(contents)?;
        file.sync_all()?;
        fs::rename(&temporary, path)
    };
    write().map_err(|error| {
        let _ = fs::remove_file(&temporary);
        ArenaError::io(shown, &error)
    })
}

/// Writes a command's whole output to stdout. A reader that stops early (`| head`) ends the
/// command quietly instead of making `println!` panic; any other write error is an error.
pub fn print_output(text: &str) -> Result<(), ArenaError> {
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Err(error) if error.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(ArenaError::io("standard output", &error))
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_replace_the_file_and_leave_no_temporary() {
        let folder = std::env::temp_dir().join(format!("arena-output-{}", std::process::id()));
        fs::create_dir_all(&folder).unwrap();
        let target = folder.join("result.json");
        write_atomically(&target, b"first").unwrap();
        write_atomically(&target, b"second").unwrap();
        assert_eq!(fs::read_to_string(&target).unwrap(), "second");
        assert_eq!(fs::read_dir(&folder).unwrap().count(), 1);
        assert!(write_atomically(&folder.join("missing/x.json"), b"x").is_err());
        fs::remove_dir_all(&folder).unwrap();
    }
}
