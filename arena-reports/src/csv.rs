//! CSV text of a report's rows, through the `csv` crate (quoting where a field needs it); the
//! one place the reports' CSV is written, so the `csv` dependency stays in this crate.

use serde::Serialize;

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
