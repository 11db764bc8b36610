//! Writing output: result files atomically (a temporary file beside the target, then a rename,
//! so an interrupted run never leaves a truncated file), the one check of an output path made
//! before any game is played, and standard output without panicking when the reader goes away.

use std::fs;
use std::io::Write;
use std::path::Path;

use serde::Serialize;

use crate::error::ArenaError;

/// The formats of result files, chosen by the file name's extension (any case).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputFormat {
    /// `.json`: the full JSON report.
    Json,
    /// `.csv`: one row per game.
    Csv,
}

/// Checks, before any game is played, that `path` names a file whose folder exists, so a long
/// run does not fail at its end. `option` names the command-line option in messages.
pub fn check_output_file(option: &str, path: &Path) -> Result<(), ArenaError> {
    if path.file_name().is_none() {
        return Err(ArenaError::Usage(format!(
            "{option} {}: not a file name",
            path.display()
        )));
    }
    let folder = match path.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder,
        _ => Path::new("."),
    };
    if !folder.is_dir() {
        return Err(ArenaError::Io {
            path: path.display().to_string(),
            message: format!("folder does not exist ({})", folder.display()),
        });
    }
    Ok(())
}

/// [`check_output_file`] for a results file, which must end in `.json` or `.csv`; its format.
pub fn check_results_file(option: &str, path: &Path) -> Result<OutputFormat, ArenaError> {
    let extension = path
        .extension()
        .and_then(|extension| extension.to_str())
        .map(str::to_ascii_lowercase);
    let format = match extension.as_deref() {
        Some("json") => OutputFormat::Json,
        Some("csv") => OutputFormat::Csv,
        _ => {
            return Err(ArenaError::Usage(format!(
                "{option} {}: the file name must end in .json or .csv",
                path.display()
            )));
        }
    };
    check_output_file(option, path)?;
    Ok(format)
}

/// A run's report in every form it can be delivered in.
pub trait RunReport {
    /// The JSON report; `with_games` adds every game (the `--out` file's form).
    fn json(&self, with_games: bool) -> String;
    /// One CSV row per game, with a header.
    fn csv(&self) -> String;
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
    pub fn check(out: Option<&Path>, json: bool) -> Result<ResultsDestination, ArenaError> {
        let file = match out {
            Some(path) => Some((path.to_path_buf(), check_results_file("--out", path)?)),
            None => None,
        };
        Ok(ResultsDestination { file, json })
    }

    /// Writes the file (atomically), then prints.
    pub fn deliver(&self, report: &impl RunReport) -> Result<(), ArenaError> {
        if let Some((path, format)) = &self.file {
            let contents = match format {
                OutputFormat::Json => report.json(true),
                OutputFormat::Csv => report.csv(),
            };
            write_atomically(path, contents.as_bytes())?;
        }
        print_output(&if self.json {
            report.json(false)
        } else {
            report.text()
        })
    }
}

/// A value as indented JSON text with a final line break (the form of every JSON file and
/// `--json` report the arena writes).
pub fn pretty_json<T: Serialize + ?Sized>(value: &T) -> String {
    let mut text =
        serde_json::to_string_pretty(value).expect("results are plain structs, which serialize");
    text.push('\n');
    text
}

/// A value as one line of compact JSON (the form of `play --json` and `replay --json`).
pub fn json_line<T: Serialize + ?Sized>(value: &T) -> String {
    let mut line =
        serde_json::to_string(value).expect("results are plain structs, which serialize");
    line.push('\n');
    line
}

/// CSV text of `rows` (a header from the first row's field names, then one line per row),
/// quoted where a field needs it.
pub fn csv_text<T: Serialize>(rows: &[T], header: &[&str]) -> String {
    let mut writer = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(Vec::new());
    writer
        .write_record(header)
        .expect("writing to memory cannot fail");
    for row in rows {
        writer
            .serialize(row)
            .expect("rows are flat structs of numbers and strings");
    }
    let bytes = writer.into_inner().expect("writing to memory cannot fail");
    String::from_utf8(bytes).expect("the rows are UTF-8")
}

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

    #[test]
    fn results_files_are_json_or_csv_in_an_existing_folder() {
        let format = |name: &str| check_results_file("--out", Path::new(name));
        assert_eq!(format("results.csv").unwrap(), OutputFormat::Csv);
        assert_eq!(format("results.JSON").unwrap(), OutputFormat::Json);
        assert!(format("results.txt").is_err());
        assert!(format("csv").is_err());
        assert!(format("/nonexistent-folder/results.json").is_err());
        assert!(check_output_file("--out", Path::new("/")).is_err());
    }

    #[test]
    fn csv_fields_are_quoted_only_when_needed() {
        #[derive(Serialize)]
        struct Row<'a> {
            name: &'a str,
            value: u32,
        }
        let rows = [
            Row {
                name: "bfs+elashi@2",
                value: 1,
            },
            Row {
                name: "bfs+elashi:a,b.json",
                value: 2,
            },
            Row {
                name: "x\"y",
                value: 3,
            },
        ];
        assert_eq!(
            csv_text(&rows, &["name", "value"]),
            "name,value\nbfs+elashi@2,1\n\"bfs+elashi:a,b.json\",2\n\"x\"\"y\",3\n"
        );
    }
}
