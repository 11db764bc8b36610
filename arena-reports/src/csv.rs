//! CSV text of a report's rows, through the `csv` crate (quoting where a field needs it); the
//! one place the reports' CSV is written, so the `csv` dependency stays in this crate.

use serde::Serialize;
use tetris_arena_io::output::StreamedFile;

use crate::error::ReportError;

/// CSV text of `rows` (a header from the first row's field names, then one line per row),
/// quoted where a field needs it.
pub fn csv_text<T: Serialize>(rows: &[T], header: &[&str]) -> String {
    let mut text = CsvRows::new(Vec::new(), Some(header));
    for row in rows {
        text.write(row).expect("writing to memory cannot fail");
    }
    let bytes = text.finish().expect("writing to memory cannot fail");
    String::from_utf8(bytes).expect("the rows are UTF-8")
}

/// Where CSV rows go: memory, or a file streamed as a run plays ([`StreamedFile`]).
pub trait RowSink {
    /// Appends `bytes`.
    fn put(&mut self, bytes: &[u8]) -> Result<(), ReportError>;
}

impl RowSink for Vec<u8> {
    fn put(&mut self, bytes: &[u8]) -> Result<(), ReportError> {
        self.extend_from_slice(bytes);
        Ok(())
    }
}

impl RowSink for StreamedFile {
    fn put(&mut self, bytes: &[u8]) -> Result<(), ReportError> {
        Ok(self.write(bytes)?)
    }
}

/// CSV rows written one at a time (a run's games, as they finish), handed to their sink in
/// chunks.
pub struct CsvRows<F> {
    writer: csv::Writer<Vec<u8>>,
    sink: F,
}

/// A CSV writer to memory, without a header of its own.
fn rows_writer() -> csv::Writer<Vec<u8>> {
    csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(Vec::new())
}

/// Rows are handed to the sink in chunks of about this many bytes.
const CHUNK_BYTES: usize = 1 << 16;

impl<F: RowSink> CsvRows<F> {
    /// Rows to `sink`, after `header` when given.
    pub fn new(sink: F, header: Option<&[&str]>) -> Self {
        let mut writer = rows_writer();
        if let Some(header) = header {
            writer
                .write_record(header)
                .expect("writing to memory cannot fail");
        }
        CsvRows { writer, sink }
    }

    /// Writes one row (a flat struct of numbers and strings).
    pub fn write<T: Serialize>(&mut self, row: &T) -> Result<(), ReportError> {
        self.writer
            .serialize(row)
            .expect("rows are flat structs of numbers and strings");
        self.writer.flush().expect("writing to memory cannot fail");
        if self.writer.get_ref().len() >= CHUNK_BYTES {
            self.hand_over()?;
        }
        Ok(())
    }

    fn hand_over(&mut self) -> Result<(), ReportError> {
        let writer = std::mem::replace(&mut self.writer, rows_writer());
        let buffer = writer.into_inner().expect("writing to memory cannot fail");
        self.sink.put(&buffer)
    }

    /// The sink with every row in it.
    pub fn finish(mut self) -> Result<F, ReportError> {
        self.hand_over()?;
        Ok(self.sink)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
