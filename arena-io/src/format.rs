//! Number formats and aligned text tables shared by every text report and the progress bar.

/// Columns padded to their widest cell: the first left-aligned, the others right-aligned, two
/// spaces between columns, no trailing spaces.
pub fn aligned(table: &[Vec<String>]) -> String {
    indented_table(table, "")
}

/// [`aligned`] with `indent` before every line.
pub fn indented_table(table: &[Vec<String>], indent: &str) -> String {
    let columns = table.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|column| {
            table
                .iter()
                .filter_map(|row| row.get(column))
                .map(|cell| cell.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut text = String::new();
    for row in table {
        let mut line = String::from(indent);
        for (column, cell) in row.iter().enumerate() {
            if column == 0 {
                line.push_str(&format!("{cell:<width$}", width = widths[0]));
            } else {
                line.push_str(&format!("  {cell:>width$}", width = widths[column]));
            }
        }
        text.push_str(line.trim_end());
        text.push('\n');
    }
    text
}

/// `value` with a comma between groups of three digits.
pub fn thousands(value: u64) -> String {
    let digits = value.to_string();
    let mut text = String::with_capacity(digits.len() + digits.len() / 3);
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index) % 3 == 0 {
            text.push(',');
        }
        text.push(digit);
    }
    text
}

/// A p-value with three significant digits.
pub fn format_p_value(p_value: f64) -> String {
    if p_value == 0.0 || p_value >= 0.001 {
        format!("{p_value:.3}")
    } else {
        format!("{p_value:.2e}")
    }
}

/// A number for text tables: whole numbers without a fraction, others as Rust's shortest
/// round-tripping form.
pub fn format_number(value: f64) -> String {
    if value == 0.0 {
        // Also −0.0 (a negative weight times a zero feature), which would print as "-0".
        "0".to_string()
    } else if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{value:.0}")
    } else {
        format!("{value}")
    }
}

/// The significant digits [`significant`] keeps.
pub const SIGNIFICANT_DIGITS: usize = 4;

/// Magnitudes below this one (zero aside) print in scientific notation ([`significant`]).
pub const SCIENTIFIC_BELOW: f64 = 1e-3;

/// Magnitudes from this one on print in scientific notation ([`significant`]).
pub const SCIENTIFIC_FROM: f64 = 1e7;

/// A number whose magnitude is not bounded (a share that may be 10⁻¹⁰, an expected game
/// length that may be 10⁹ pieces) with [`SIGNIFICANT_DIGITS`] significant digits: ordinary
/// notation with thousands grouped (`4,406`, `0.1235`) from [`SCIENTIFIC_BELOW`] up to
/// [`SCIENTIFIC_FROM`], scientific notation outside (`5.870e-10`, `1.700e9`). A number of
/// five or more integer digits keeps them all (`12,346`). Zero is `0`; infinities and NaN
/// print as Rust writes them (`inf`). Every text report prints such numbers through this one
/// function, so they read the same everywhere.
pub fn significant(value: f64) -> String {
    if !value.is_finite() {
        return value.to_string();
    }
    if value == 0.0 {
        // Also −0.0.
        return "0".to_string();
    }
    let magnitude = value.abs();
    if !(SCIENTIFIC_BELOW..SCIENTIFIC_FROM).contains(&magnitude) {
        return format!("{value:.precision$e}", precision = SIGNIFICANT_DIGITS - 1);
    }
    // The digits before the decimal point minus one (0 for 1 ≤ magnitude < 10): at most 6 here.
    let exponent = magnitude.log10().floor() as i64;
    let decimals = usize::try_from(SIGNIFICANT_DIGITS as i64 - 1 - exponent).unwrap_or(0);
    let plain = format!("{magnitude:.decimals$}");
    let (integer, fraction) = match plain.split_once('.') {
        Some((integer, fraction)) => (integer, Some(fraction)),
        None => (plain.as_str(), None),
    };
    let sign = if value < 0.0 { "-" } else { "" };
    let grouped = thousands(
        integer
            .parse()
            .expect("a magnitude below 1e7 has integer digits"),
    );
    match fraction {
        Some(fraction) => format!("{sign}{grouped}.{fraction}"),
        None => format!("{sign}{grouped}"),
    }
}

/// A value for people to read in a text table (features, weights, a chain's cost): a whole
/// number as it is (`48`, `-7`), any other with [`SIGNIFICANT_DIGITS`] significant digits
/// ([`significant`]: `12.89`, `1,134`). The JSON keeps every digit.
pub fn readable(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        format_number(value)
    } else {
        significant(value)
    }
}

/// `value` with `decimals` decimals, or `-` when there is none.
pub fn optional(value: Option<f64>, decimals: usize) -> String {
    match value {
        Some(value) => format!("{value:.decimals$}"),
        None => "-".to_string(),
    }
}

/// `text` with every control character (C0, DEL and C1, as `char::is_control` says) written
/// as a Rust escape (`\n`, `\u{1b}`), except tabs and, when `keep_newlines`, line breaks:
/// the form in which a string the user or a file supplied (a file name, a replay's generator)
/// is printed, so it can neither split an `error:` line nor send escape codes to the terminal.
pub fn printable(text: &str, keep_newlines: bool) -> std::borrow::Cow<'_, str> {
    let kept = |character: char| character == '\t' || (keep_newlines && character == '\n');
    if !text
        .chars()
        .any(|character| character.is_control() && !kept(character))
    {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut escaped = String::with_capacity(text.len() + 8);
    for character in text.chars() {
        match character.is_control() && !kept(character) {
            true => escaped.extend(character.escape_default()),
            false => escaped.push(character),
        }
    }
    std::borrow::Cow::Owned(escaped)
}

#[cfg(test)]
mod tests {

    #[test]
    fn printable_escapes_control_characters_only() {
        assert_eq!(printable("plain\ttext", false), "plain\ttext");
        assert_eq!(printable("a\nb", false), "a\\nb");
        assert_eq!(printable("a\nb", true), "a\nb");
        assert_eq!(printable("x\u{1b}[2Jy", true), "x\\u{1b}[2Jy");
        assert_eq!(
            printable("del\u{7f} c1\u{9b}", true),
            "del\\u{7f} c1\\u{9b}"
        );
        assert_eq!(printable("10 × 20 — é", false), "10 × 20 — é");
        assert!(matches!(
            printable("no escapes", false),
            std::borrow::Cow::Borrowed(_)
        ));
    }
    use super::*;

    #[test]
    fn p_values_print_with_three_significant_digits() {
        assert_eq!(format_p_value(1.0), "1.000");
        assert_eq!(format_p_value(0.041_389_465_332_031_25), "0.041");
        assert_eq!(format_p_value(0.001_953_125), "0.002");
        assert_eq!(format_p_value(0.000_123_4), "1.23e-4");
        assert_eq!(format_p_value(0.0), "0.000");
    }

    #[test]
    fn unbounded_numbers_print_four_significant_digits_and_scientific_only_at_the_extremes() {
        // The case: 4406.021... pieces printed as 4.406021e3.
        assert_eq!(significant(4_406.021_3), "4,406");
        assert_eq!(significant(1_762.408_5), "1,762");
        assert_eq!(significant(440.602_13), "440.6");
        assert_eq!(significant(1.0), "1.000");
        assert_eq!(significant(0.123_456), "0.1235");
        assert_eq!(significant(0.001), "0.001000");
        assert_eq!(significant(12_345.6), "12,346");
        assert_eq!(significant(9_999_999.4), "9,999,999");
        assert_eq!(significant(-2_500.0), "-2,500");
        // Outside [1e-3, 1e7): scientific, four significant digits.
        assert_eq!(significant(5.87e-10), "5.870e-10");
        assert_eq!(significant(0.000_999_9), "9.999e-4");
        assert_eq!(significant(1.7e9), "1.700e9");
        assert_eq!(significant(1e7), "1.000e7");
        assert_eq!(significant(0.0), "0");
        assert_eq!(significant(-0.0), "0");
        assert_eq!(significant(f64::INFINITY), "inf");
    }

    #[test]
    fn thousands_are_grouped() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(999_999), "999,999");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }

    #[test]
    fn numbers_print_without_needless_fractions() {
        assert_eq!(format_number(40.0), "40");
        assert_eq!(format_number(-0.0), "0");
        assert_eq!(format_number(1.5), "1.5");
        assert_eq!(format_number(-3.2178882868487753), "-3.2178882868487753");
        // For people: whole numbers as they are, the rest to four significant digits.
        assert_eq!(readable(48.0), "48");
        assert_eq!(readable(-0.0), "0");
        assert_eq!(readable(-3.2178882868487753), "-3.218");
        assert_eq!(readable(1134.3774140468224), "1,134");
        assert_eq!(readable(12.885008263218383), "12.89");
        assert_eq!(readable(0.000_123_4), "1.234e-4");
    }

    #[test]
    fn tables_align_their_columns() {
        let table = vec![
            vec!["name".to_string(), "value".to_string()],
            vec!["a".to_string(), "12345".to_string()],
            vec!["longer".to_string(), "1".to_string()],
        ];
        assert_eq!(
            aligned(&table),
            "name    value\na       12345\nlonger      1\n"
        );
        assert_eq!(indented_table(&table[1..2], "  "), "  a  12345\n");
    }
}
