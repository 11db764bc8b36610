//! The tournament report page (`arena tournament --html`): the settings, the summary table,
//! the pairwise sign-test matrix as a coloured table, the lines-per-game chart and each
//! strategy's plots (the four SVGs of `--plots`, inline), in one self-contained file, with
//! what made it at its foot.
//!
//! The plots are shown large enough to read: two to a row on a wide screen, never narrower
//! than 560 pixels (70% of their 800, so their 16-pixel axis text stays 11 pixels or more),
//! the wide ones (lines per game, column histograms) across the page.
//!
//! The page has no script: its style is `page.css` and `tournament.css`. A matrix cell is
//! green when the row strategy outlasted the column strategy on more sequences, red when on
//! fewer, and the colour is the stronger the smaller the sign test's p-value (from
//! p = 0.05, pale, to p ≤ 1e-10, full); cells with p ≥ 0.05 stay grey.

use std::fmt::Write as _;

use super::{PAGE_STYLE, data_table, escape_html, settings_panel};
use crate::error::ReportError;
use crate::plots;
use crate::tournament::{INTERVAL_RULE, OUTLAST_RULE, TETRIS_SHARE_RULE, TournamentReport};
use tetris_arena_io::format::format_p_value;

/// The report's own style.
const TOURNAMENT_STYLE: &str = include_str!("tournament.css");

/// The p-value from which a matrix cell is coloured.
pub const SIGNIFICANT: f64 = 0.05;

/// The p-value at and below which a cell has its full colour.
const FULL_COLOUR: f64 = 1e-10;

/// How strongly a cell with sign-test p-value `p_value` is coloured: 0 from
/// [`SIGNIFICANT`] up, 1 at [`FULL_COLOUR`] and below, linear in log10 p between.
pub fn colour_strength(p_value: f64) -> f64 {
    if p_value.is_nan() || p_value >= SIGNIFICANT {
        return 0.0;
    }
    let span = SIGNIFICANT.log10() - FULL_COLOUR.log10();
    ((SIGNIFICANT.log10() - p_value.max(FULL_COLOUR).log10()) / span).clamp(0.0, 1.0) * 0.8 + 0.2
}

/// The background of a cell: green for a win, red for a loss, `strength` 0..=1.
fn cell_colour(win: bool, strength: f64) -> String {
    // From a pale tint (strength 0.2) to a saturated colour (1.0).
    let (full, pale) = if win {
        ((46.0, 160.0, 67.0), (220.0, 242.0, 224.0))
    } else {
        ((207.0, 34.0, 46.0), (250.0, 221.0, 223.0))
    };
    let mix = |a: f64, b: f64| (b + (a - b) * (strength - 0.2) / 0.8).round() as u8;
    format!(
        "rgb({}, {}, {})",
        mix(full.0, pale.0),
        mix(full.1, pale.1),
        mix(full.2, pale.2)
    )
}

/// One inline plot with its caption.
fn plot(caption: &str, svg: &str, wide: bool) -> String {
    format!(
        "<figure class=\"plot panel{}\"><h3>{}</h3>{}</figure>\n",
        if wide { " wide" } else { "" },
        escape_html(caption),
        svg.trim()
    )
}

impl TournamentReport<'_> {
    /// The report as one self-contained HTML page.
    pub fn html(&self) -> Result<String, ReportError> {
        let settings = self.settings;
        let names = &settings.names;
        let title = format!(
            "Tournament: {} strategies × {} games",
            names.len(),
            settings.games
        );
        let mut body = String::new();
        let _ = writeln!(
            body,
            "<header><h1>{}</h1><p class=\"subtitle\">{}</p></header>",
            escape_html(&title),
            escape_html(&names.join(" · "))
        );

        body.push_str(&settings_panel(
            &self.settings_lines(),
            self.run.end.wall,
            self.run.end.jobs,
        ));

        let _ = writeln!(
            body,
            "<section class=\"panel\"><h2>Summary</h2>\n{}<p class=\"subtitle\">{}; {}; \
             pieces/s per thread of game time.</p></section>",
            data_table(&self.summary_rows()),
            escape_html(INTERVAL_RULE),
            escape_html(TETRIS_SHARE_RULE)
        );

        if settings.estimate {
            let _ = writeln!(
                body,
                "<section class=\"panel\"><h2>Expected game length from where pieces lock</h2>\n{}</section>",
                data_table(&self.estimate_rows())
            );
        }

        if names.len() > 1 {
            body.push_str(&self.pairwise_html());
        }

        body.push_str("<section><h2>Lines per game</h2>\n");
        body.push_str(&plot(
            "Each strategy's distribution of lines per game; the games cut short by the piece \
             cap (or a file sequence's end) apart, on the right",
            &plots::lines_per_game_chart(names, &self.game_lines())?,
            true,
        ));
        body.push_str("</section>\n");

        if settings.piece_statistics {
            for (index, name) in names.iter().enumerate() {
                let statistics = self.merged_statistics(index);
                let fit = statistics.fit();
                let _ = writeln!(
                    body,
                    "<section><h2>{}: where its pieces lock (all its games)</h2>\n<div class=\"plots\">",
                    escape_html(name)
                );
                body.push_str(&plot(
                    "Share of pieces by top row",
                    &plots::row_share_chart(
                        &statistics.row_shares(),
                        fit.as_ref(),
                        statistics.row_rule,
                    )?,
                    false,
                ));
                body.push_str(&plot(
                    "Cell heat map",
                    &plots::cell_heat_map(&statistics.cell_shares())?,
                    false,
                ));
                body.push_str(&plot(
                    "Pieces between full clears",
                    &plots::full_clear_histogram(&statistics.full_clear_intervals)?,
                    false,
                ));
                body.push_str(&plot(
                    "Share of each piece type's pieces by pivot column",
                    &plots::column_share_histograms(&statistics)?,
                    true,
                ));
                body.push_str("</div></section>\n");
            }
        }

        Ok(format!(
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; \
             style-src 'unsafe-inline'; img-src data:\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <meta name=\"generator\" content=\"tetris-arena\">\n<title>{}</title>\n\
             <style>\n{PAGE_STYLE}\n{TOURNAMENT_STYLE}\n</style>\n</head>\n<body>\n{body}\
             {}</body>\n</html>\n",
            escape_html(&title),
            super::footer()
        ))
    }

    /// The pairwise matrix as a coloured table with its legend.
    fn pairwise_html(&self) -> String {
        let names = &self.settings.names;
        let mut html = String::from(
            "<section class=\"panel\"><h2>Pairwise: who outlasted whom</h2>\n\
             <table class=\"data matrix\" id=\"pairwise\">\n<tr><th>row outlasted column</th>",
        );
        for name in names {
            let _ = write!(html, "<th>{}</th>", escape_html(name));
        }
        html.push_str("</tr>\n");
        for (row, name) in names.iter().enumerate() {
            let _ = write!(html, "<tr><th>{}</th>", escape_html(name));
            for column in 0..names.len() {
                match self.pairwise_cell(row, column) {
                    None => html.push_str("<td class=\"diagonal\">–</td>"),
                    Some((wins, losses, p_value)) => {
                        let strength = colour_strength(p_value);
                        let (class, style) = if strength == 0.0 || wins == losses {
                            ("even", String::new())
                        } else {
                            let win = wins > losses;
                            let colour = cell_colour(win, strength);
                            let text = if strength > 0.6 { "#ffffff" } else { "inherit" };
                            (
                                if win { "win" } else { "loss" },
                                format!(" style=\"background: {colour}; color: {text}\""),
                            )
                        };
                        let _ = write!(
                            html,
                            "<td class=\"{class}\"{style} data-wins=\"{wins}\" \
                             data-losses=\"{losses}\" data-p=\"{p_value:e}\">{wins}–{losses}\
                             <small>p = {}</small></td>",
                            format_p_value(p_value)
                        );
                    }
                }
            }
            html.push_str("</tr>\n");
        }
        let _ = write!(
            html,
            "</table>\n<p class=\"legend\"><span style=\"background: {}; color: #fff\">row \
             outlasted column</span><span style=\"background: {}; color: #fff\">column \
             outlasted row</span>W–L = sequences won and lost by the row strategy; p = \
             two-sided exact sign test; coloured when p &lt; {SIGNIFICANT}, the stronger the \
             smaller p. {}.</p></section>\n",
            cell_colour(true, 1.0),
            cell_colour(false, 1.0),
            escape_html(OUTLAST_RULE)
        );
        html
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_coloured_from_p_0_05_down_to_1e_10() {
        assert_eq!(colour_strength(0.5), 0.0);
        assert_eq!(colour_strength(0.05), 0.0);
        assert_eq!(colour_strength(f64::NAN), 0.0);
        assert!((colour_strength(0.049) - 0.2).abs() < 0.01);
        assert_eq!(colour_strength(1e-10), 1.0);
        assert_eq!(colour_strength(1e-300), 1.0);
        // Halfway in log10 between -1.3 and -10: p = 10^-5.65.
        assert!((colour_strength(10f64.powf(-5.650_514_997_831_99)) - 0.6).abs() < 1e-9);
        assert_eq!(cell_colour(true, 1.0), "rgb(46, 160, 67)");
        assert_eq!(cell_colour(false, 0.2), "rgb(250, 221, 223)");
    }
}
