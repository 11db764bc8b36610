//! Writing output: result files atomically (a temporary file beside the target, then a rename,
//! so an interrupted run never leaves a truncated file), folders of outputs replaced as a
//! whole, the one check of an output path made before any game is played, and standard output
//! and standard error without panicking when the reader goes away or the disk is full. What
//! an output may replace (only a regular file or folder) and which of a command's files it
//! must differ from (compared by device and inode) are [`guard`]'s, re-exported here. What
//! made an output, the `made_by` record every JSON report and page carries, is [`made_by`]'s.
//!
//! The lowest layer, beside [`crate::format`]: no result type, so every layer may write.
//!
//! # Temporary names and what a killed run leaves
//!
//! A file `NAME` is written as `.NAME.PID.tmp` beside it (PID: the writing process) and
//! renamed over `NAME`; a folder `DIR` of outputs is written whole as the folder
//! `.DIR.PID.tmp` beside it, then the old `DIR` is renamed to `.DIR.PID.old`, the new one to
//! `DIR`, and the old one removed. A run killed (SIGKILL, power loss) in one of these windows
//! leaves such a name behind; the next write to the same `NAME` or `DIR` first removes the
//! leftovers of its own naming scheme whose process is no longer running (on Linux, where
//! `/proc` tells; elsewhere they are left alone), and puts back an old folder whose
//! replacement was cut off between the two renames. So a reader of `DIR` sees either every
//! file of the old run or every file of the new one, never a mix.
//!
//! Over 600 lines only with its unit tests (the last third), which probe the private temporary-file
//! and folder-swap steps.

use std::fs;
use std::io::Write;
use std::path::Path;

use crate::error::FileError;
use crate::fields::Field;
use crate::format::printable;

pub mod guard;
mod json;
pub mod made_by;

use guard::is_symlink;
pub use guard::{FileKind, FileName, OutputError, check_distinct, check_replaceable, same_file};
pub use json::{json_line, pretty_json};
pub use made_by::MadeBy;

/// The formats of result files, chosen by the file name's extension (any case).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputFormat {
    /// `.json`: the full JSON report.
    Json,
    /// `.csv`: one row per game.
    Csv,
    /// `.jsonl`: one line of JSON per game (the object the JSON report's `games` list holds).
    JsonLines,
}

impl OutputFormat {
    /// Whether the file lists the games (one row or line each), written as they finish.
    pub fn lists_games(self) -> bool {
        matches!(self, OutputFormat::Csv | OutputFormat::JsonLines)
    }
}

/// Checks, before any game is played, that `path` names a file whose folder exists and can
/// take the temporary file the file is written through (tried by creating and removing it),
/// so a long run does not fail at its end, and that what the name holds now, if anything, is
/// a regular file ([`check_replaceable`]). `option` is the field that named it, for
/// messages.
pub fn check_output_file(option: Field, path: &Path) -> Result<(), FileError> {
    let refused = |problem: &str| FileError::OutputRefused {
        field: option,
        path: path.display().to_string(),
        problem: problem.to_string(),
    };
    if path.file_name().is_none() {
        return Err(refused("not a file name"));
    }
    let folder = match path.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder,
        _ => Path::new("."),
    };
    if !folder.is_dir() {
        return Err(FileError::Io {
            path: path.display().to_string(),
            message: format!("folder does not exist ({})", folder.display()),
            kind: std::io::ErrorKind::NotFound,
        });
    }
    if path.is_dir() && !is_symlink(path) {
        return Err(refused("is a folder, not a file"));
    }
    check_replaceable(Some(option), path, FileKind::Regular)?;
    let probe = temporary_path(path, "tmp");
    let _ = fs::remove_file(&probe);
    create_new_file(&probe).map_err(|error| FileError::CannotWrite {
        field: option,
        path: path.display().to_string(),
        message: format!(
            "cannot write there (creating a file in {} failed: {error})",
            folder.display()
        ),
        kind: error.kind(),
    })?;
    let _ = fs::remove_file(&probe);
    Ok(())
}

/// Creates `path` as a new, empty file: never through a link or over a file already there.
fn create_new_file(path: &Path) -> std::io::Result<fs::File> {
    fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
}

/// Checks, before any game is played, that `path` can become a folder of outputs: it is not
/// a file, and when it exists everything in it is an output of the command (`is_output` of
/// the entry's path: the folder is replaced as a whole by [`write_folder`], so anything else
/// in it would be lost). `option` is the field that named it, for messages.
pub fn check_output_folder(
    option: Field,
    path: &Path,
    is_output: fn(&Path) -> bool,
) -> Result<(), FileError> {
    let refused = |problem: String| FileError::OutputRefused {
        field: option,
        path: path.display().to_string(),
        problem,
    };
    match FileKind::of(path) {
        None | Some(FileKind::Folder) => {}
        Some(FileKind::Regular) => {
            return Err(refused(
                "is a file, not a folder (give a new or existing folder)".into(),
            ));
        }
        Some(_) => check_replaceable(Some(option), path, FileKind::Folder)?,
    }
    // A leftover of a killed write inside the folder goes with the old folder.
    if let Some(stranger) = folder_entries(path)?
        .into_iter()
        .find(|name| !is_output(&path.join(name)) && stale_leftover(name).is_none())
    {
        return Err(refused(format!(
            "the folder holds {stranger:?}, which is not one of this command's outputs; the \
             folder is replaced as a whole, so give an empty, new or earlier output folder"
        )));
    }
    Ok(())
}

/// The names in folder `path` (none when it does not exist).
fn folder_entries(path: &Path) -> Result<Vec<String>, FileError> {
    let shown = path.display().to_string();
    let entries = match fs::read_dir(path) {
        Ok(entries) => entries,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(error) => return Err(FileError::io(shown, &error)),
    };
    let mut names = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|error| FileError::io(&shown, &error))?;
        names.push(entry.file_name().to_string_lossy().into_owned());
    }
    names.sort();
    Ok(names)
}

/// Replaces folder `path` as a whole (see the module's top comment): `fill` writes the new
/// outputs into an empty temporary folder beside it, then the temporary folder takes the
/// old one's place. The old folder must hold only outputs (`is_output`, checked again here
/// as [`check_output_folder`] did before the run).
pub fn write_folder<E: From<FileError>>(
    option: Field,
    path: &Path,
    is_output: fn(&Path) -> bool,
    fill: impl FnOnce(&Path) -> Result<(), E>,
) -> Result<(), E> {
    let shown = path.display().to_string();
    if path.file_name().is_none() {
        return Err(FileError::OutputRefused {
            field: option,
            path: shown,
            problem: "not a folder name".into(),
        }
        .into());
    }
    clean_stale_temporaries(path);
    let temporary = temporary_path(path, "tmp");
    let old = temporary_path(path, "old");
    let _ = fs::remove_dir_all(&temporary);
    fs::create_dir(&temporary).map_err(|error| FileError::CannotWrite {
        field: option,
        path: shown.clone(),
        message: format!(
            "cannot write there (creating the folder {} failed: {error})",
            temporary.display()
        ),
        kind: error.kind(),
    })?;
    let written = fill(&temporary).and_then(|()| {
        check_output_folder(option, path, is_output)?;
        if path.exists() {
            fs::rename(path, &old).map_err(|error| FileError::io(&shown, &error))?;
        }
        fs::rename(&temporary, path).map_err(|error| FileError::io(&shown, &error).into())
    });
    if written.is_err() {
        let _ = fs::remove_dir_all(&temporary);
        if old.exists() && !path.exists() {
            let _ = fs::rename(&old, path);
        }
    }
    written?;
    let _ = fs::remove_dir_all(&old);
    Ok(())
}

/// `.NAME.PID.KIND` beside `path`: the temporary name this process writes `path` through
/// (`KIND` is `tmp`, or `old` for a replaced folder).
fn temporary_path(path: &Path, kind: &str) -> std::path::PathBuf {
    let mut name = std::ffi::OsString::from(".");
    name.push(path.file_name().unwrap_or_default());
    name.push(format!(".{}.{kind}", std::process::id()));
    path.with_file_name(name)
}

/// Whether process `pid` may still be running: on Linux, whether `/proc/PID` exists;
/// elsewhere always (nothing is cleaned that might belong to a live writer).
fn process_may_run(pid: u32) -> bool {
    if cfg!(target_os = "linux") && Path::new("/proc/self").exists() {
        Path::new("/proc").join(pid.to_string()).exists()
    } else {
        true
    }
}

/// Removes the leftovers of writes of `path` by processes that were killed: `.NAME.PID.tmp`
/// files or folders, and `.NAME.PID.old` folders (put back as `path` when `path` is missing:
/// the run was killed between taking the old folder away and putting the new one in place).
/// Failures are ignored: a leftover that cannot be removed does no harm.
pub fn clean_stale_temporaries(path: &Path) {
    let Some(name) = path.file_name().and_then(|name| name.to_str()) else {
        return;
    };
    let folder = match path.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder,
        _ => Path::new("."),
    };
    let Ok(entries) = fs::read_dir(folder) else {
        return;
    };
    for entry in entries.flatten() {
        let entry_name = entry.file_name();
        let Some((target, kind)) = entry_name.to_str().and_then(stale_leftover) else {
            continue;
        };
        if target != name {
            continue;
        }
        let leftover = entry.path();
        match kind {
            "tmp" => {
                let _ = fs::remove_file(&leftover).or_else(|_| fs::remove_dir_all(&leftover));
            }
            "old" if !path.exists() => {
                let _ = fs::rename(&leftover, path);
            }
            _ => {
                let _ = fs::remove_dir_all(&leftover);
            }
        }
    }
}

/// The target's name and the kind (`tmp` or `old`) of `name` when it is a leftover of this
/// module's naming scheme (`.NAME.PID.KIND`, the PID in plain decimal) whose process no
/// longer runs; `None` for every other name.
fn stale_leftover(name: &str) -> Option<(&str, &str)> {
    let (rest, kind) = name.strip_prefix('.')?.rsplit_once('.')?;
    let (target, pid_text) = rest.rsplit_once('.')?;
    let pid: u32 = pid_text.parse().ok()?;
    let ours = !target.is_empty() && pid.to_string() == pid_text && ["tmp", "old"].contains(&kind);
    (ours && !process_may_run(pid)).then_some((target, kind))
}

/// [`check_output_file`] for a results file, which must end in `.json` or `.csv`; its format.
pub fn check_results_file(option: Field, path: &Path) -> Result<OutputFormat, FileError> {
    let extension = path
        .extension()
        .and_then(|extension| extension.to_str())
        .map(str::to_ascii_lowercase);
    let format = match extension.as_deref() {
        Some("json") => OutputFormat::Json,
        Some("csv") => OutputFormat::Csv,
        Some("jsonl") => OutputFormat::JsonLines,
        _ => {
            return Err(FileError::OutputRefused {
                field: option,
                path: path.display().to_string(),
                problem: "the file name must end in .json, .csv or .jsonl".into(),
            });
        }
    };
    check_output_file(option, path)?;
    Ok(format)
}

/// A run's report in every form it can be delivered in.
pub trait RunReport {
    /// The JSON report; `with_games` adds every game (the `--out` file's form).
    fn json(&self, with_games: bool) -> String;
    /// The file listing the games in `format` (CSV, JSON Lines); `None` when the run
    /// streamed its games to the file as they finished ([`ResultsDestination::games_file`]).
    fn games_file(&self, format: OutputFormat) -> Option<String>;
    /// The text tables.
    fn text(&self) -> String;
}

/// Where a run's results go: the `--out` file (checked before any game is played) and
/// standard output, as JSON (`--json`) or text.
#[derive(Clone, Debug)]
pub struct ResultsDestination {
    file: Option<(std::path::PathBuf, OutputFormat)>,
    json: bool,
}

impl ResultsDestination {
    /// Checks `--out` (a `.json` or `.csv` file in an existing folder) before any game.
    pub fn check(out: Option<&Path>, json: bool) -> Result<ResultsDestination, FileError> {
        let file = match out {
            Some(path) => Some((path.to_path_buf(), check_results_file(Field::OUT, path)?)),
            None => None,
        };
        Ok(ResultsDestination { file, json })
    }

    /// Writes the file (atomically) and says so on standard error, then prints.
    pub fn deliver(&self, report: &impl RunReport) -> Result<(), FileError> {
        self.write_file(report)?;
        if let Some((path, _)) = &self.file {
            announce_written("results", path);
        }
        print_output(&if self.json {
            report.json(false)
        } else {
            report.text()
        })
    }
}

impl ResultsDestination {
    /// The `--out` file when it lists the games (CSV, JSON Lines), with its format: the run
    /// streams each game to it as it finishes, in order (a [`StreamedFile`]), rather than
    /// holding them for the report.
    pub fn games_file(&self) -> Option<(&Path, OutputFormat)> {
        match &self.file {
            Some((path, format)) if format.lists_games() => Some((path, *format)),
            _ => None,
        }
    }

    /// Writes the `--out` file, if any, atomically (what [`ResultsDestination::deliver`] does
    /// before it prints; a front end that returns the report instead of printing it calls
    /// this alone).
    pub fn write_file(&self, report: &impl RunReport) -> Result<(), FileError> {
        if let Some((path, format)) = &self.file {
            let contents = match format {
                OutputFormat::Json => Some(report.json(true)),
                games => report.games_file(*games),
            };
            if let Some(contents) = contents {
                write_atomically(path, contents.as_bytes())?;
            }
        }
        Ok(())
    }
}

/// Writes `contents` to `path` atomically (temp file in the same folder + rename).
pub fn write_atomically(path: &Path, contents: &[u8]) -> Result<(), FileError> {
    let mut file = StreamedFile::create(path)?;
    file.write(contents)?;
    file.commit()
}

/// A file written piece by piece and put in place atomically: the pieces go to a temporary
/// file beside `path` (through a buffer), which [`StreamedFile::commit`] syncs and renames
/// over `path`; dropped without a commit (an error, Ctrl-C), the temporary file is removed
/// and `path` is left as it was. What a run streams its games to (`--out FILE.csv`), and what
/// [`write_atomically`] writes a whole file with.
pub struct StreamedFile {
    path: std::path::PathBuf,
    temporary: std::path::PathBuf,
    file: Option<std::io::BufWriter<fs::File>>,
}

impl StreamedFile {
    /// Starts the file `path` (refused when `path` is no file name or not a regular file
    /// that may be replaced).
    pub fn create(path: &Path) -> Result<StreamedFile, FileError> {
        StreamedFile::create_beside(path, "tmp")
    }

    /// [`StreamedFile::create`] with a temporary file of its own `kind` (a second file
    /// streamed beside the same `path`, e.g. a spill that [`StreamedFile::append`] joins in).
    pub fn create_beside(path: &Path, kind: &str) -> Result<StreamedFile, FileError> {
        let shown = path.display().to_string();
        if path.file_name().is_none() {
            return Err(FileError::Refused(format!("{shown}: not a file name")));
        }
        check_replaceable(None, path, FileKind::Regular)?;
        clean_stale_temporaries(path);
        let temporary = temporary_path(path, kind);
        // A leftover of this process's own name (a PID reused after a killed run) goes first;
        // a new file is never opened through a link planted under the temporary name.
        let _ = fs::remove_file(&temporary);
        let file = create_new_file(&temporary).map_err(|error| FileError::Io {
            path: shown,
            message: format!(
                "cannot write there (creating the temporary file {} failed: {error})",
                temporary.display()
            ),
            kind: error.kind(),
        })?;
        Ok(StreamedFile {
            path: path.to_path_buf(),
            temporary,
            file: Some(std::io::BufWriter::new(file)),
        })
    }

    fn io(&self, error: &std::io::Error) -> FileError {
        FileError::io(self.path.display().to_string(), error)
    }

    /// Appends `bytes`.
    pub fn write(&mut self, bytes: &[u8]) -> Result<(), FileError> {
        let file = self
            .file
            .as_mut()
            .expect("a streamed file is written until committed");
        file.write_all(bytes)
            .map_err(|error| FileError::io(self.path.display().to_string(), &error))
    }

    /// Appends everything written to `other` (a second streamed file), which is removed.
    pub fn append(&mut self, mut other: StreamedFile) -> Result<(), FileError> {
        let mut spill = other.file.take().expect("a spill is appended once");
        spill.flush().map_err(|error| other.io(&error))?;
        drop(spill);
        let mut source = fs::File::open(&other.temporary).map_err(|error| other.io(&error))?;
        let target = self
            .file
            .as_mut()
            .expect("a streamed file is written until committed");
        std::io::copy(&mut source, target).map_err(|error| other.io(&error))?;
        drop(source);
        fs::remove_file(&other.temporary).map_err(|error| other.io(&error))
    }

    /// Syncs the file and puts it in place of `path` (checked again at the last moment: the
    /// path may have changed during the run).
    pub fn commit(mut self) -> Result<(), FileError> {
        let file = self.file.take().expect("a streamed file is committed once");
        let result = (|| {
            let file = file.into_inner().map_err(|error| self.io(error.error()))?;
            file.sync_all().map_err(|error| self.io(&error))?;
            check_replaceable(None, &self.path, FileKind::Regular)?;
            fs::rename(&self.temporary, &self.path).map_err(|error| self.io(&error))
        })();
        if result.is_err() {
            let _ = fs::remove_file(&self.temporary);
        }
        result
    }
}

impl Drop for StreamedFile {
    fn drop(&mut self) {
        if self.file.take().is_some() {
            let _ = fs::remove_file(&self.temporary);
        }
    }
}

/// The line saying that `what` was written to `path`: `WHAT written to PATH`, the path
/// escaped ([`printable`]). Every line that names a written output has this form: the
/// [`announce_written`] line of each output a command writes, and a shard's line.
pub fn written_line(what: &str, path: &Path) -> String {
    format!(
        "{what} written to {}",
        printable(&path.display().to_string(), false)
    )
}

/// Says on standard error, in [`written_line`]'s form, that `what` was written to `path`:
/// one line per output a user named (a file, or a folder of outputs), printed once the output
/// is in place, so standard output stays the report (or the JSON) alone. Front ends that
/// return their results instead of printing them (the Python package) write without it.
pub fn announce_written(what: &str, path: &Path) {
    print_to_stderr(&written_line(what, path));
}

/// Writes an output a user named, `path`, atomically ([`write_atomically`]) and says so
/// ([`announce_written`]): what the command line's `--record`, `--html`, `--out` and
/// `--checkpoint` files go through.
pub fn write_output(what: &str, path: &Path, contents: &[u8]) -> Result<(), FileError> {
    write_atomically(path, contents)?;
    announce_written(what, path);
    Ok(())
}

/// Writes `text` and a line break to standard error, ignoring a failure (stderr closed or
/// full): the messages and the `error:` line must never make the arena panic, and there is
/// nowhere left to report that they could not be written.
pub fn print_to_stderr(text: &str) {
    // One line, whatever a file name or a field of a file holds ([`printable`]).
    let _ = writeln!(std::io::stderr().lock(), "{}", printable(text, false));
}

/// Writes a command's whole output to stdout. A reader that stops early (`| head`) ends the
/// command quietly instead of making `println!` panic; any other write error is an error.
pub fn print_output(text: &str) -> Result<(), FileError> {
    // Reports are text and JSON, never terminal control: a control character in them came
    // from a file or an argument and is printed escaped ([`printable`]).
    let text = printable(text, true);
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Err(error) if error.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(FileError::io("standard output", &error))
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

    /// A fresh folder for one test.
    fn scratch(test: &str) -> std::path::PathBuf {
        let folder =
            std::env::temp_dir().join(format!("arena-output-{}-{test}", std::process::id()));
        let _ = fs::remove_dir_all(&folder);
        fs::create_dir_all(&folder).unwrap();
        folder
    }

    /// A PID that belongs to no process: above the kernel's largest (2^22 on Linux).
    const DEAD_PID: u32 = 4_194_305;

    #[test]
    fn leftovers_of_killed_writers_are_cleaned_by_the_next_write() {
        let folder = scratch("stale");
        let target = folder.join("result.json");
        let stale = folder.join(format!(".result.json.{DEAD_PID}.tmp"));
        let other = folder.join(format!(".other.json.{DEAD_PID}.tmp"));
        let not_ours = folder.join(".result.json.12x.tmp");
        for path in [&stale, &other, &not_ours] {
            fs::write(path, "half").unwrap();
        }
        write_atomically(&target, b"whole").unwrap();
        assert_eq!(fs::read_to_string(&target).unwrap(), "whole");
        assert!(
            !stale.exists(),
            "the dead writer's temporary file is removed"
        );
        assert!(
            other.exists(),
            "another file's temporary is not this write's business"
        );
        assert!(not_ours.exists(), "a name outside the scheme is left alone");
        fs::remove_dir_all(&folder).unwrap();
    }

    #[test]
    fn a_folder_is_replaced_whole_and_an_interrupted_swap_is_undone() {
        let folder = scratch("swap");
        let out = folder.join("out");
        let names = |path: &Path| folder_entries(path).unwrap();
        let is_output: fn(&Path) -> bool = |entry| entry.extension().is_some();
        write_folder(Field::OUT, &out, is_output, |new| {
            fs::write(new.join("a.svg"), "old a").unwrap();
            fs::write(new.join("b.json"), "old b").unwrap();
            Ok::<(), FileError>(())
        })
        .unwrap();
        assert_eq!(names(&out), ["a.svg", "b.json"]);
        // A failing writer leaves the old folder exactly as it was, and no temporary folder.
        let failed = write_folder(Field::OUT, &out, is_output, |new| {
            fs::write(new.join("b.json"), "new b").unwrap();
            Err(FileError::Internal("killed half-way".into()))
        });
        assert!(failed.is_err());
        assert_eq!(fs::read_to_string(out.join("b.json")).unwrap(), "old b");
        assert_eq!(names(&folder), ["out"]);
        // A run killed between its two renames: the old folder sits under the .old name and
        // the new one under .tmp; the next run puts the old one back, then replaces it.
        fs::rename(&out, folder.join(format!(".out.{DEAD_PID}.old"))).unwrap();
        fs::create_dir(folder.join(format!(".out.{DEAD_PID}.tmp"))).unwrap();
        clean_stale_temporaries(&out);
        assert_eq!(names(&folder), ["out"]);
        assert_eq!(fs::read_to_string(out.join("a.svg")).unwrap(), "old a");
        write_folder(Field::OUT, &out, is_output, |new| {
            fs::write(new.join("b.json"), "new b").unwrap();
            Ok::<(), FileError>(())
        })
        .unwrap();
        assert_eq!(names(&out), ["b.json"]);
        assert_eq!(names(&folder), ["out"]);
        // A folder holding something else is not replaced: it would be lost.
        fs::write(out.join("notes"), "mine").unwrap();
        assert!(write_folder(Field::OUT, &out, is_output, |_| Ok::<(), FileError>(())).is_err());
        assert_eq!(names(&out), ["b.json", "notes"]);
        assert_eq!(names(&folder), ["out"]);
        fs::remove_dir_all(&folder).unwrap();
    }

    #[test]
    fn an_output_folder_is_a_folder_holding_only_outputs() {
        let folder = scratch("check-folder");
        let outputs: fn(&Path) -> bool =
            |entry| entry.ends_with("stats.json") || entry.ends_with("a.svg");
        let out = folder.join("out");
        assert!(check_output_folder(Field::OUT, &out, outputs).is_ok());
        fs::create_dir(&out).unwrap();
        fs::write(out.join("stats.json"), "").unwrap();
        assert!(check_output_folder(Field::OUT, &out, outputs).is_ok());
        fs::write(out.join("notes.txt"), "mine").unwrap();
        let message = check_output_folder(Field::OUT, &out, outputs)
            .unwrap_err()
            .to_string();
        assert!(message.contains("holds \"notes.txt\""), "{message}");
        let file = folder.join("file");
        fs::write(&file, "").unwrap();
        assert_eq!(
            check_output_folder(Field::PLOTS, &file, outputs)
                .unwrap_err()
                .to_string(),
            format!(
                "--plots {}: is a file, not a folder (give a new or existing folder)",
                file.display()
            )
        );
        fs::remove_dir_all(&folder).unwrap();
    }

    #[test]
    fn the_same_file_is_recognised_through_different_paths() {
        let folder = scratch("same");
        fs::create_dir(folder.join("sub")).unwrap();
        let file = folder.join("f.json");
        assert!(same_file(&file, &folder.join("sub/../f.json")));
        assert!(same_file(&file, &folder.join("./f.json")));
        assert!(!same_file(&file, &folder.join("g.json")));
        fs::write(&file, "").unwrap();
        assert!(same_file(&file, &folder.join("sub/../f.json")));
        fs::remove_dir_all(&folder).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn only_a_regular_file_or_nothing_is_replaced() {
        // /dev/null is looked at, never written: a device is refused before any write.
        if Path::new("/dev/null").exists() {
            assert_eq!(
                FileKind::of(Path::new("/dev/null")),
                Some(FileKind::CharDevice)
            );
            assert_eq!(
                check_output_file(Field::RECORD, Path::new("/dev/null"))
                    .unwrap_err()
                    .to_string(),
                "--record /dev/null: is a character device, not a regular file: the arena \
                 writes an output beside it and renames it into place, which would replace the \
                 character device itself; give a new name or a regular file"
            );
            assert!(write_atomically(Path::new("/dev/null"), b"x").is_err());
        }
        let folder = scratch("replaceable");
        let file = folder.join("f.json");
        assert!(check_replaceable(Some(Field::OUT), &file, FileKind::Regular).is_ok());
        fs::write(&file, "kept").unwrap();
        assert!(check_replaceable(Some(Field::OUT), &file, FileKind::Regular).is_ok());
        let link = folder.join("link.json");
        std::os::unix::fs::symlink(&file, &link).unwrap();
        assert_eq!(FileKind::of(&link), Some(FileKind::Symlink));
        // Refused at write time too, in case the path became a link during the run.
        assert!(write_atomically(&link, b"new").is_err());
        assert_eq!(fs::read_to_string(&file).unwrap(), "kept");
        assert!(fs::symlink_metadata(&link).unwrap().is_symlink());
        let message = check_output_folder(Field::PLOTS, &link, |_| true)
            .unwrap_err()
            .to_string();
        assert!(
            message.contains("is a symbolic link, not a folder"),
            "{message}"
        );
        assert_eq!(names_in(&folder), 2, "no temporary file is left");
        fs::remove_dir_all(&folder).unwrap();
    }

    #[test]
    fn outputs_differ_from_each_other_and_from_the_inputs_by_inode() {
        let folder = scratch("distinct");
        let input = folder.join("in.json");
        fs::write(&input, "read").unwrap();
        let hard = folder.join("hard.json");
        fs::hard_link(&input, &hard).unwrap();
        assert!(same_file(&input, &hard), "a hard link is the same file");
        let out = folder.join("out.json");
        let other = folder.join("other.json");
        assert!(
            check_distinct(
                &[
                    (FileName::Field(Field::OUT), &out),
                    (FileName::Field(Field::HTML), &other)
                ],
                &[(FileName::What("replay file"), &input)]
            )
            .is_ok()
        );
        assert_eq!(
            check_distinct(
                &[(FileName::Field(Field::OUT), &hard)],
                &[(FileName::What("replay file"), &input)]
            )
            .unwrap_err(),
            OutputError::OutputIsInput {
                output: FileName::Field(Field::OUT),
                output_path: hard.display().to_string(),
                input: FileName::What("replay file"),
                input_path: input.display().to_string(),
            }
        );
        assert!(matches!(
            check_distinct(
                &[
                    (FileName::Field(Field::OUT), &out),
                    (FileName::Field(Field::HTML), &folder.join("./out.json"))
                ],
                &[]
            ),
            Err(OutputError::SameOutput { .. })
        ));
        let sub = folder.join("plots");
        fs::create_dir(&sub).unwrap();
        let inside = sub.join("w.json");
        fs::write(&inside, "read").unwrap();
        assert!(matches!(
            check_distinct(
                &[(FileName::Field(Field::PLOTS), &sub)],
                &[(FileName::What("weights file"), &inside)]
            ),
            Err(OutputError::FolderHoldsFile { .. })
        ));
        assert!(
            check_distinct(
                &[(FileName::Field(Field::PLOTS), &sub)],
                &[(FileName::What("weights file"), &input)]
            )
            .is_ok()
        );
        fs::remove_dir_all(&folder).unwrap();
    }

    #[test]
    fn an_output_file_in_a_folder_that_takes_no_file_is_refused_early() {
        // /proc exists but takes no new file: the reason is said, not a bare "No such file".
        if Path::new("/proc/version").exists() {
            let message = check_output_file(Field::RECORD, Path::new("/proc/version"))
                .unwrap_err()
                .to_string();
            assert!(
                message.starts_with("--record /proc/version: cannot write there"),
                "{message}"
            );
        }
        let folder = scratch("check-file");
        assert!(check_output_file(Field::OUT, &folder.join("r.json")).is_ok());
        assert_eq!(names_in(&folder), 0, "the probe file is removed");
        assert!(check_output_file(Field::OUT, &folder).is_err());
        fs::remove_dir_all(&folder).unwrap();
    }

    fn names_in(folder: &Path) -> usize {
        fs::read_dir(folder).unwrap().count()
    }

    #[test]
    fn results_files_are_json_csv_or_json_lines_in_an_existing_folder() {
        let format = |name: &str| check_results_file(Field::OUT, Path::new(name));
        assert_eq!(format("results.csv").unwrap(), OutputFormat::Csv);
        assert_eq!(format("results.JSON").unwrap(), OutputFormat::Json);
        assert_eq!(format("games.jsonl").unwrap(), OutputFormat::JsonLines);
        assert!(format("results.txt").is_err());
        assert!(format("csv").is_err());
        assert!(format("/nonexistent-folder/results.json").is_err());
        assert!(check_output_file(Field::OUT, Path::new("/")).is_err());
    }
}
