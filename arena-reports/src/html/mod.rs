//! Self-contained HTML pages: the replay viewer (`arena replay --html`, `arena play --html`),
//! the tournament report (`arena tournament --html`), the NES benchmark's report (`arena nes
//! --html`) and the live arena page (`arena web`).
//!
//! Each page is ONE file that works from `file://` with no network access: its data, script
//! and style are inline, and a Content-Security-Policy forbids loading anything else. The
//! script and style are hand-written files beside this module (`viewer.js`, `viewer.css`,
//! `page.css`, the `viewer.html` template), embedded at build time with `include_str!`, so
//! they can be read, diffed and linted as what they are. The data is JSON in a
//! `<script type="application/json">` element, escaped so that no string in it can end that
//! element.

pub mod nes;
pub mod tournament;
pub mod viewer;

use std::fmt::Write as _;

use tetris_arena_io::output::MadeBy;

/// The style every page shares (panels, tables, colours).
pub const PAGE_STYLE: &str = include_str!("page.css");

/// The style of the boards [`BOARD_SCRIPT`] draws.
pub const BOARD_STYLE: &str = include_str!("board.css");

/// The script the replay viewer and the live page share to draw boards (`ArenaBoard`: cells,
/// locking, the falling piece, the next pieces), included before each page's own script.
pub const BOARD_SCRIPT: &str = include_str!("board.js");

/// Every page's last line: what made it ([`MadeBy::current`], e.g. `made by tetris-arena
/// 0.1.0: arena tournament … --html report.html`) and that it is one self-contained file.
pub fn footer() -> String {
    format!(
        "<footer><p class=\"made-by\">{}</p><p>One self-contained file, no network \
         access.</p></footer>\n",
        escape_html(&MadeBy::current().to_string())
    )
}

/// The report pages' "Settings" panel: one row per (name, value) of the text report's settings
/// lines, then the run's wall time with its jobs.
pub fn settings_panel(lines: &[(&str, String)], wall: std::time::Duration, jobs: usize) -> String {
    let mut panel =
        String::from("<section class=\"panel\"><h2>Settings</h2><table class=\"facts\">\n");
    for (name, value) in lines {
        let _ = writeln!(
            panel,
            "<tr><th>{}</th><td>{}</td></tr>",
            escape_html(name),
            escape_html(value)
        );
    }
    let _ = writeln!(
        panel,
        "<tr><th>Wall time</th><td>{:.2} s with {jobs} jobs</td></tr>\n</table></section>",
        wall.as_secs_f64()
    );
    panel
}

/// A table of text cells (header row first) as HTML; cells that read as numbers are aligned
/// right.
pub fn data_table(rows: &[Vec<String>]) -> String {
    let mut html = String::from("<div class=\"scroll\"><table class=\"data\">\n");
    for (index, row) in rows.iter().enumerate() {
        html.push_str("<tr>");
        for cell in row {
            let tag = if index == 0 { "th" } else { "td" };
            let numeric = index > 0
                && cell
                    .trim_start_matches(['-', '['])
                    .starts_with(|c: char| c.is_ascii_digit());
            let class = if numeric { " class=\"number\"" } else { "" };
            let _ = write!(html, "<{tag}{class}>{}</{tag}>", escape_html(cell));
        }
        html.push_str("</tr>\n");
    }
    html.push_str("</table></div>\n");
    html
}

/// Replaces each `{{name}}` of `template` by its value from `values`, in one pass over the
/// template (so a value that itself contains `{{…}}` is left as it is). A placeholder with no
/// value is a bug in the caller.
pub fn fill_template(template: &str, values: &[(&str, &str)]) -> String {
    let extra: usize = values.iter().map(|(_, value)| value.len()).sum();
    let mut page = String::with_capacity(template.len() + extra);
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        page.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let end = after
            .find("}}")
            .expect("every {{ of a page template is closed");
        let name = &after[..end];
        let value = values
            .iter()
            .find(|(key, _)| *key == name)
            .unwrap_or_else(|| panic!("the page template's {{{{{name}}}}} has a value"))
            .1;
        page.push_str(value);
        rest = &after[end + 2..];
    }
    page.push_str(rest);
    page
}

/// `text` with the characters that HTML gives a meaning escaped, for element content and
/// quoted attribute values.
pub fn escape_html(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for character in text.chars() {
        match character {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&#39;"),
            _ => escaped.push(character),
        }
    }
    escaped
}

/// `value` as JSON to put inside a `<script type="application/json">` element: `<`, `>` and
/// `&` (which can only occur inside JSON strings) are written as `\u003c`, `\u003e` and
/// `\u0026`, so no string can close the element or open a comment; `JSON.parse` reads the
/// same value.
pub fn script_json<T: serde::Serialize + ?Sized>(value: &T) -> String {
    let json = serde_json::to_string(value).expect("page data are plain structs, which serialize");
    let mut escaped = String::with_capacity(json.len());
    for character in json.chars() {
        match character {
            '<' => escaped.push_str("\\u003c"),
            '>' => escaped.push_str("\\u003e"),
            '&' => escaped.push_str("\\u0026"),
            _ => escaped.push(character),
        }
    }
    escaped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_escape_their_cells() {
        let table = data_table(&[
            vec!["strategy".into(), "mean".into()],
            vec!["a<b".into(), "12.5".into()],
        ]);
        assert!(table.contains("<td>a&lt;b</td><td class=\"number\">12.5</td>"));
        assert!(table.contains("<th>strategy</th><th>mean</th>"));
    }

    #[test]
    fn templates_fill_in_one_pass() {
        assert_eq!(
            fill_template("<b>{{a}}</b>{{b}}.", &[("a", "{{b}}"), ("b", "x")]),
            "<b>{{b}}</b>x."
        );
    }

    #[test]
    fn html_and_script_json_cannot_break_out() {
        assert_eq!(
            escape_html(r#"<a href="x">&'"#),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
        let json = script_json(&["</script><!--", "a&b"]);
        assert_eq!(json, r#"["\u003c/script\u003e\u003c!--","a\u0026b"]"#);
        let back: Vec<String> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, ["</script><!--", "a&b"]);
    }

    #[test]
    fn the_footer_says_what_made_the_page_escaped() {
        let page = MadeBy::during("arena tournament 'a<b' --html x.html", footer);
        assert!(
            page.contains(&format!(
                "<p class=\"made-by\">made by tetris-arena {}: arena tournament &#39;a&lt;b&#39; \
                 --html x.html</p>",
                env!("CARGO_PKG_VERSION")
            )),
            "{page}"
        );
    }
}
