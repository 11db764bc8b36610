//! A run's file of games (`--out FILE.csv` or `FILE.jsonl`), written as the games finish so
//! that no run holds its games for it: the rows of each group (a tournament's strategies; one
//! group for an NES run) go to a file of their own beside FILE — the games come game-major,
//! the file is group-major — joined in group order when the run ends and put in place
//! atomically ([`StreamedFile`]: a killed run leaves FILE as it was). Memory stays at a buffer
//! per group however many games.
//!
//! CSV rows are the report's CSV columns; a JSON Lines file holds, one per line, the object
//! the JSON report's `games` list holds.

use std::path::Path;

use serde::Serialize;
use tetris_arena_io::output::{OutputFormat, StreamedFile};

use crate::csv::{CsvRows, csv_text};
use crate::error::ReportError;

/// Lines are handed to the file in chunks of about this many bytes.
const CHUNK_BYTES: usize = 1 << 16;

/// One group's rows, in the file's format.
enum GroupRows {
    /// Boxed: the CSV writer's buffers make it the larger variant by far.
    Csv(Box<CsvRows<StreamedFile>>),
    JsonLines {
        file: StreamedFile,
        buffer: Vec<u8>,
    },
}

impl GroupRows {
    /// The file with every row in it.
    fn finish(self) -> Result<StreamedFile, ReportError> {
        match self {
            GroupRows::Csv(rows) => rows.finish(),
            GroupRows::JsonLines { mut file, buffer } => {
                file.write(&buffer)?;
                Ok(file)
            }
        }
    }
}

/// A file of games being written (see the module documentation).
pub struct GamesFile {
    /// Group 0's rows go to FILE's own temporary file; the others to spills.
    groups: Vec<GroupRows>,
}

impl GamesFile {
    /// Starts the file `path` in `format` (CSV with `csv_header`, or JSON Lines) with
    /// `groups` groups (at least 1).
    pub fn create(
        path: &Path,
        format: OutputFormat,
        csv_header: &[&str],
        groups: usize,
    ) -> Result<GamesFile, ReportError> {
        let mut rows = Vec::with_capacity(groups);
        for group in 0..groups.max(1) {
            let file = match group {
                0 => StreamedFile::create(path)?,
                _ => StreamedFile::create_beside(path, &format!("group{group}"))?,
            };
            rows.push(match format {
                OutputFormat::Csv => GroupRows::Csv(Box::new(CsvRows::new(
                    file,
                    (group == 0).then_some(csv_header),
                ))),
                _ => GroupRows::JsonLines {
                    file,
                    buffer: Vec::new(),
                },
            });
        }
        Ok(GamesFile { groups: rows })
    }

    /// Writes one game of group `group`: its CSV row (`csv`) or its JSON object (`json`),
    /// whichever the file holds.
    pub fn write<C: Serialize, J: Serialize>(
        &mut self,
        group: usize,
        csv: impl FnOnce() -> C,
        json: impl FnOnce() -> J,
    ) -> Result<(), ReportError> {
        match &mut self.groups[group] {
            GroupRows::Csv(rows) => rows.write(&csv()),
            GroupRows::JsonLines { file, buffer } => {
                push_json_line(buffer, &json());
                if buffer.len() >= CHUNK_BYTES {
                    file.write(buffer)?;
                    buffer.clear();
                }
                Ok(())
            }
        }
    }

    /// Joins the groups' rows and puts the file in place.
    pub fn commit(self) -> Result<(), ReportError> {
        let mut files = self.groups.into_iter().map(GroupRows::finish);
        let mut first = files.next().expect("a games file has a group")?;
        for file in files {
            first.append(file?)?;
        }
        Ok(first.commit()?)
    }
}

/// Appends `row` as one line of compact JSON.
fn push_json_line<T: Serialize>(buffer: &mut Vec<u8>, row: &T) {
    serde_json::to_writer(&mut *buffer, row).expect("game rows serialize");
    buffer.push(b'\n');
}

/// The text of a file of games held in memory (a merge's), in `format`: CSV rows of
/// `csv_rows` under `csv_header`, or JSON Lines of `json_rows`.
pub fn games_text<C: Serialize, J: Serialize>(
    format: OutputFormat,
    csv_header: &[&str],
    csv_rows: impl FnOnce() -> Vec<C>,
    json_rows: impl FnOnce() -> Vec<J>,
) -> String {
    match format {
        OutputFormat::Csv => csv_text(&csv_rows(), csv_header),
        _ => {
            let mut buffer = Vec::new();
            for row in json_rows() {
                push_json_line(&mut buffer, &row);
            }
            String::from_utf8(buffer).expect("JSON is UTF-8")
        }
    }
}
