//! The NES benchmark's report page (`arena nes --html`): the settings, the score distribution
//! (the capped score beside the uncapped line-clear points), the figures BetaTetris publishes
//! (levels reached, points before level 29, lines per game, percentiles) with their
//! definitions, and every game in a table, in one self-contained file with what made it at
//! its foot.
//!
//! The page has no script: its style is `page.css` and `nes.css`. Its figures are the text
//! report's, from the same functions ([`NesReport`]), so the two cannot disagree.

use std::fmt::Write as _;

use super::{PAGE_STYLE, data_table, escape_html, settings_panel};
use crate::nes::{NesReport, PERCENTILE_RULE, POINTS_BEFORE_LEVEL_29_RULE, REACHED_LEVEL_RULE};
use tetris_arena_io::format::thousands;
use tetris_arena_runs::tournament::HELD_GAMES_LIMIT;

/// The page's own style.
const NES_STYLE: &str = include_str!("nes.css");

/// A table of figures: a header row (printed when any of its cells is not empty), then one
/// row per figure, its name a row header and its values aligned right (numbers and shares
/// alike, so their digits line up).
fn figures_table(rows: &[Vec<String>]) -> String {
    let mut html = String::from("<div class=\"scroll\"><table class=\"data\">\n");
    for (index, row) in rows.iter().enumerate() {
        if index == 0 && row.iter().all(String::is_empty) {
            continue;
        }
        html.push_str("<tr>");
        for (column, cell) in row.iter().enumerate() {
            let _ = match (index, column) {
                (0, _) => write!(html, "<th class=\"number\">{}</th>", escape_html(cell)),
                (_, 0) => write!(html, "<th>{}</th>", escape_html(cell)),
                _ => write!(html, "<td class=\"number\">{}</td>", escape_html(cell)),
            };
        }
        html.push_str("</tr>\n");
    }
    html.push_str("</table></div>\n");
    html
}

impl NesReport<'_> {
    /// The report as one self-contained HTML page.
    pub fn html(&self) -> String {
        let settings = self.settings;
        let played = &self.run.end;
        let title = format!(
            "NES benchmark: {}, {} games",
            settings.strategy, settings.games
        );
        let mut body = String::new();
        let _ = writeln!(
            body,
            "<header><h1>{}</h1><p class=\"subtitle\">levels {} to {}{}, frame by frame</p>\
             </header>",
            escape_html(&title),
            settings.start_level,
            settings.stop_level,
            match settings.max_lines {
                Some(cap) => format!(" or {cap} lines"),
                None => String::new(),
            }
        );
        if let Some(note) = settings.gravity_note() {
            let _ = writeln!(body, "<p class=\"warning\">{}</p>", escape_html(&note));
        }
        if played.interrupted {
            let _ = writeln!(
                body,
                "<p class=\"warning\">Interrupted: {} of {} games finished; the figures \
                 cover those.</p>",
                played.finished, settings.games
            );
        }
        body.push_str(&settings_panel(
            &self.settings_lines(),
            played.wall,
            played.jobs,
        ));
        match (self.distribution_rows(), self.betatetris_rows()) {
            (Some(distribution), Some(betatetris)) => {
                let mut rows: Vec<Vec<String>> = distribution.into_iter().map(Vec::from).collect();
                rows[0][0] = "statistic".into();
                let mut games = vec![vec![String::new(), String::new()]];
                games.extend(
                    self.game_rows()
                        .into_iter()
                        .map(|(name, value)| vec![name, value]),
                );
                let _ = writeln!(
                    body,
                    "<section class=\"panel\"><h2>Score distribution</h2>\n{}{}</section>",
                    figures_table(&rows),
                    figures_table(&games)
                );
                let mut rows = vec![vec![String::new(), String::new()]];
                rows.extend(
                    betatetris
                        .into_iter()
                        .map(|(name, value)| vec![name.trim().to_string(), value]),
                );
                let _ = writeln!(
                    body,
                    "<section class=\"panel\"><h2>As BetaTetris reports</h2>\n{}\
                     <div class=\"definitions\"><p>Points before level 29: {}.</p>\
                     <p>Levels reached: {}.</p><p>Percentiles: {}.</p></div></section>",
                    figures_table(&rows),
                    escape_html(POINTS_BEFORE_LEVEL_29_RULE),
                    escape_html(REACHED_LEVEL_RULE),
                    escape_html(PERCENTILE_RULE)
                );
                body.push_str(&self.games_html());
            }
            _ => body.push_str("<section class=\"panel\"><p>No game finished.</p></section>\n"),
        }
        format!(
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; \
             style-src 'unsafe-inline'\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <meta name=\"generator\" content=\"tetris-arena\">\n<title>{}</title>\n\
             <style>\n{PAGE_STYLE}\n{NES_STYLE}\n</style>\n</head>\n<body>\n{body}\
             {}</body>\n</html>\n",
            escape_html(&title),
            super::footer()
        )
    }

    /// Every game in one table, in game order (a run of more games than it holds says so).
    fn games_html(&self) -> String {
        let Some(games) = &self.run.games else {
            return format!(
                "<section class=\"panel\"><h2>Games</h2>\n<p>{} games: a run of more than \
                 {HELD_GAMES_LIMIT} keeps only their summary; <code>--out FILE.csv</code> \
                 writes every game.</p></section>\n",
                self.games_finished()
            );
        };
        let base_seed = self.settings.seed;
        let mut rows = vec![
            [
                "game",
                "seed",
                "score",
                "line-clear points",
                "points before level 29",
                "lines",
                "level reached",
                "pieces",
                "end",
            ]
            .map(String::from)
            .to_vec(),
        ];
        for game in games {
            rows.push(vec![
                (game.seed - base_seed).to_string(),
                game.seed.to_string(),
                thousands(u64::from(game.score)),
                thousands(game.line_clear_points),
                thousands(game.points_before_29()),
                game.lines.to_string(),
                game.level.to_string(),
                game.pieces.to_string(),
                game.end.name().to_string(),
            ]);
        }
        format!(
            "<section class=\"panel\"><h2>Games</h2>\n<div class=\"games\">{}</div></section>\n",
            data_table(&rows)
        )
    }
}
