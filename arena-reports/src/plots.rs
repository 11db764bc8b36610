//! Plots of `arena stats` and `arena tournament --plots` (row shares, cell heat map,
//! full-clear intervals, the seven column histograms) as SVG text (plotters' pure-Rust SVG
//! backend: no system fonts, so it builds anywhere; the text is left to the SVG viewer).
//!
//! Each function returns the whole SVG document; callers write it with
//! [`tetris_arena_io::output::write_atomically`].

use std::fmt::Display;
use std::path::Path;
use tetris_arena_games::analysis::counts::ValueCounts;

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::error::ReportError;
use tetris_arena_games::analysis::pieces::{LogLinearFit, PieceStatistics, RowRule, WIDTH};
use tetris_arena_io::output::write_atomically;
use tetris_core::Piece;

/// The size of every plot in pixels (but the lines-per-game chart and the column histograms).
const SIZE: (u32, u32) = (800, 600);

/// The font size, in the SVG's pixels (its `font-size`), of every axis label, axis
/// description and legend text. The HTML report shows a plot at no less than 70% of its size
/// (two plots of 800 side by side at 560 pixels or wider, wide ones across the page), so the
/// smallest axis text on the page is 11 px.
pub const AXIS_FONT: f64 = 16.0;

/// The font size of the plots' captions, in the SVG's pixels.
const CAPTION_FONT: f64 = 18.0;

/// plotters' SVG backend writes a font of size s as `font-size` s / 1.24: the sizes asked of it
/// are the SVG's times this.
const PLOTTERS_FONT_SCALE: f64 = 1.24;

/// The style of axis text: [`AXIS_FONT`] SVG pixels, sans-serif.
fn axis_font() -> TextStyle<'static> {
    TextStyle::from(("sans-serif", AXIS_FONT * PLOTTERS_FONT_SCALE).into_font())
}

/// The style of captions: [`CAPTION_FONT`] SVG pixels, sans-serif.
fn caption_font() -> TextStyle<'static> {
    TextStyle::from(("sans-serif", CAPTION_FONT * PLOTTERS_FONT_SCALE).into_font())
}

/// The heat map's gamma: a cell is coloured by `(share / largest share)^0.25`, so rare cells
/// high in the field still show (as the seed article's heat maps did).
pub const HEAT_MAP_GAMMA: f64 = 0.25;

/// The most bars of the full-clear histogram; longer intervals are grouped in wider bins.
const MAX_HISTOGRAM_BARS: u64 = 60;

/// A drawing error as an arena error.
fn drawing_error(plot: &str, error: impl Display) -> ReportError {
    ReportError::Drawing {
        plot: plot.to_string(),
        message: error.to_string(),
    }
}

/// The bar chart of the share of pieces per row (row 0 = top) on a log scale, with the fitted
/// line `10^(intercept + slope × row)` from row 0 to the last fitted row when there is a fit.
/// Rows without pieces have no bar. `row_rule` names the row in the caption and axis.
pub fn row_share_chart(
    shares: &[f64],
    fit: Option<&LogLinearFit>,
    row_rule: RowRule,
) -> Result<String, ReportError> {
    let fail = |error: &dyn Display| drawing_error("row share chart", error);
    let height = shares.len();
    let positive = shares.iter().copied().filter(|&share| share > 0.0);
    let mut low = positive.clone().fold(1.0f64, f64::min);
    let mut high = positive.fold(f64::MIN_POSITIVE, f64::max);
    // The line runs from row 0 (the extrapolation) to the last fitted row.
    let line_end = fit.map_or(0, |fit| fit.rows.iter().copied().max().unwrap_or(0));
    if let Some(fit) = fit {
        low = low.min(fit.share_at(0.0));
        high = high.max(fit.share_at(line_end as f64));
    }
    // Whole decades around the data, so the bars have a visible base.
    let low = 10f64.powf(low.log10().floor() - 0.5).max(1e-300);
    let high = 10f64.powf(high.log10().ceil()).min(10.0).max(low * 10.0);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(|error| fail(&error))?;
        let row_name = match row_rule {
            RowRule::Pivot => "pivot row",
            RowRule::Top => "top row",
        };
        let caption = match fit {
            Some(fit) => format!(
                "Pieces by {row_name}: ratio {:.4}/row, R² {:.4}, expected {} pieces",
                fit.ratio(),
                fit.r_squared,
                tetris_arena_io::format::significant(fit.expected_pieces())
            ),
            None => format!("Pieces by {row_name} (no fit)"),
        };
        let axis = match row_rule {
            RowRule::Pivot => "row of the lock state's pivot (0 = top)",
            RowRule::Top => "row of the piece's top cell (0 = top)",
        };
        let mut chart = ChartBuilder::on(&root)
            .caption(caption, caption_font())
            .margin(15)
            .x_label_area_size(55)
            .y_label_area_size(80)
            .build_cartesian_2d(-0.5f64..height as f64 - 0.5, (low..high).log_scale())
            .map_err(|error| fail(&error))?;
        chart
            .configure_mesh()
            .label_style(axis_font())
            .axis_desc_style(axis_font())
            .disable_x_mesh()
            .x_labels(height.min(20))
            .x_label_formatter(&|row| format!("{row:.0}"))
            .y_label_formatter(&|share| format!("{share:.0e}"))
            .x_desc(axis)
            .y_desc("share of pieces")
            .draw()
            .map_err(|error| fail(&error))?;
        chart
            .draw_series(
                shares
                    .iter()
                    .enumerate()
                    .filter(|(_, share)| **share > 0.0)
                    .map(|(row, &share)| {
                        let row = row as f64;
                        let colour = match fit {
                            Some(fit) if fit.rows.contains(&(row as usize)) => BLUE.mix(0.7),
                            _ => BLUE.mix(0.3),
                        };
                        Rectangle::new([(row - 0.4, low), (row + 0.4, share)], colour.filled())
                    }),
            )
            .map_err(|error| fail(&error))?
            .label("rows (dark: fitted)")
            .legend(|(x, y)| Rectangle::new([(x, y - 5), (x + 15, y + 5)], BLUE.mix(0.7).filled()));
        if let Some(fit) = fit {
            chart
                .draw_series(LineSeries::new(
                    (0..=line_end).map(|row| (row as f64, fit.share_at(row as f64))),
                    RED.stroke_width(2),
                ))
                .map_err(|error| fail(&error))?
                .label(format!(
                    "fit: log10 share = {:.4} + {:.4} row",
                    fit.intercept, fit.slope
                ))
                .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 15, y)], RED.stroke_width(2)));
        }
        chart
            .configure_series_labels()
            .label_font(axis_font())
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(|error| fail(&error))?;
        root.present().map_err(|error| fail(&error))?;
    }
    Ok(svg)
}

/// The colour of `level` (0 to 1, already gamma-corrected) on a black–red–yellow–white scale.
fn heat_colour(level: f64) -> RGBColor {
    const STOPS: [(f64, f64, f64); 4] = [
        (0.0, 0.0, 0.0),
        (200.0, 0.0, 0.0),
        (255.0, 210.0, 0.0),
        (255.0, 255.0, 255.0),
    ];
    let scaled = level.clamp(0.0, 1.0) * (STOPS.len() - 1) as f64;
    let index = (scaled.floor() as usize).min(STOPS.len() - 2);
    let t = scaled - index as f64;
    let (from, to) = (STOPS[index], STOPS[index + 1]);
    let mix = |a: f64, b: f64| (a + (b - a) * t).round() as u8;
    RGBColor(mix(from.0, to.0), mix(from.1, to.1), mix(from.2, to.2))
}

/// The heat map of the cells' shares (`shares[row][x]`, row 0 drawn at the top), coloured by
/// `(share / largest share)^`[`HEAT_MAP_GAMMA`], with a colour bar labelled in shares.
pub fn cell_heat_map(shares: &[[f64; 10]]) -> Result<String, ReportError> {
    let fail = |error: &dyn Display| drawing_error("cell heat map", error);
    let height = shares.len();
    let largest = shares
        .iter()
        .flatten()
        .copied()
        .fold(0.0f64, f64::max)
        .max(f64::MIN_POSITIVE);
    let level = |share: f64| (share / largest).powf(HEAT_MAP_GAMMA);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(|error| fail(&error))?;
        let root = root
            .titled(
                &format!("Share of locked cells (colour = (share / max)^{HEAT_MAP_GAMMA})"),
                caption_font(),
            )
            .map_err(|error| fail(&error))?;
        let (field_area, scale_area) = root.split_horizontally(560);
        let flip = |row: usize| (height - 1 - row) as f64;
        let mut field = ChartBuilder::on(&field_area)
            .margin(10)
            .x_label_area_size(55)
            .y_label_area_size(60)
            .build_cartesian_2d(-0.5f64..9.5, -0.5f64..height as f64 - 0.5)
            .map_err(|error| fail(&error))?;
        field
            .configure_mesh()
            .label_style(axis_font())
            .axis_desc_style(axis_font())
            .disable_mesh()
            .x_labels(10)
            .y_labels(height.min(20))
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| format!("{:.0}", (height - 1) as f64 - y))
            .x_desc("column")
            .y_desc("row (0 = top)")
            .draw()
            .map_err(|error| fail(&error))?;
        field
            .draw_series(shares.iter().enumerate().flat_map(|(row, cells)| {
                cells.iter().enumerate().map(move |(x, &share)| {
                    let (x, y) = (x as f64, flip(row));
                    Rectangle::new(
                        [(x - 0.5, y - 0.5), (x + 0.5, y + 0.5)],
                        heat_colour(level(share)).filled(),
                    )
                })
            }))
            .map_err(|error| fail(&error))?;
        let mut scale = ChartBuilder::on(&scale_area)
            .margin(10)
            .margin_left(30)
            .x_label_area_size(40)
            .y_label_area_size(100)
            .build_cartesian_2d(0f64..1.0, 0f64..1.0)
            .map_err(|error| fail(&error))?;
        scale
            .configure_mesh()
            .label_style(axis_font())
            .axis_desc_style(axis_font())
            .disable_mesh()
            .disable_x_axis()
            .y_labels(6)
            // The bar is drawn in gamma-corrected levels; its labels are the shares.
            .y_label_formatter(&|level| {
                format!("{:.2e}", largest * level.powf(1.0 / HEAT_MAP_GAMMA))
            })
            .y_desc("share of cells")
            .draw()
            .map_err(|error| fail(&error))?;
        const STEPS: usize = 100;
        scale
            .draw_series((0..STEPS).map(|step| {
                let from = step as f64 / STEPS as f64;
                let to = (step + 1) as f64 / STEPS as f64;
                Rectangle::new([(0.0, from), (1.0, to)], heat_colour(from).filled())
            }))
            .map_err(|error| fail(&error))?;
        root.present().map_err(|error| fail(&error))?;
    }
    Ok(svg)
}

/// The histogram of the pieces between full clears: bins of width 5 pieces (wider, a multiple
/// of 5, when that would make more than 60 bins), bin k holding the intervals from k × width
/// to (k + 1) × width − 1, its bar centred on the multiples of 5 among them.
pub fn full_clear_histogram(intervals: &ValueCounts) -> Result<String, ReportError> {
    let fail = |error: &dyn Display| drawing_error("full-clear histogram", error);
    let longest = intervals.max().unwrap_or(0);
    let bin_width = 5 * (longest / 5 / MAX_HISTOGRAM_BARS + 1);
    let bins = (longest / bin_width + 1) as usize;
    let mut counts = vec![0u64; bins];
    for (interval, times) in intervals.iter() {
        counts[(interval / bin_width) as usize] += times;
    }
    let tallest = counts.iter().copied().max().unwrap_or(0).max(1);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(|error| fail(&error))?;
        let caption = if intervals.is_empty() {
            "Pieces between full clears: no full clear".to_string()
        } else {
            let mean = intervals.mean().unwrap_or(0.0);
            format!(
                "Pieces between full clears: {} clears, mean {mean:.2} (bins of {bin_width})",
                intervals.count()
            )
        };
        // Intervals are multiples of 5: a bar is centred on its bin's values.
        let half_step = 2.5;
        let right = (bins as u64 * bin_width) as f64 - half_step;
        let mut chart = ChartBuilder::on(&root)
            .caption(caption, caption_font())
            .margin(15)
            .x_label_area_size(55)
            .y_label_area_size(80)
            .build_cartesian_2d(-half_step..right, 0u64..tallest + tallest / 20 + 1)
            .map_err(|error| fail(&error))?;
        chart
            .configure_mesh()
            .label_style(axis_font())
            .axis_desc_style(axis_font())
            .disable_x_mesh()
            // About one label per 5 pieces, at most 12: the labels are whole numbers of
            // pieces (with no full clear the axis spans 5 pieces, one label).
            .x_labels((bins * bin_width as usize / 5).clamp(1, 12))
            .x_label_formatter(&|pieces| format!("{pieces:.0}"))
            .x_desc("pieces since the previous full clear (or the game's start)")
            .y_desc("full clears")
            .draw()
            .map_err(|error| fail(&error))?;
        chart
            .draw_series(
                counts
                    .iter()
                    .enumerate()
                    .filter(|(_, count)| **count > 0)
                    .map(|(bin, &count)| {
                        let start = (bin as u64 * bin_width) as f64 - half_step;
                        let end = start + bin_width as f64;
                        let gap = 0.1 * bin_width as f64;
                        Rectangle::new(
                            [(start + gap, 0), (end - gap, count)],
                            GREEN.mix(0.8).filled(),
                        )
                    }),
            )
            .map_err(|error| fail(&error))?;
        root.present().map_err(|error| fail(&error))?;
    }
    Ok(svg)
}

/// The most bins of the lines-per-game distribution.
const MAX_LINE_BINS: u64 = 40;

/// The size of the lines-per-game chart: the distribution of the games that ended, the panel
/// of the games cut short beside it (when there are any), the legend below both.
const LINES_PLOT_SIZE: (u32, u32) = (1000, 600);

/// One strategy's games of a tournament as the lines-per-game chart takes them.
#[derive(Clone, Copy, Debug)]
pub struct StrategyLines<'a> {
    /// The lines of its games that ended by the game-over rule.
    pub game_over_lines: &'a ValueCounts,
    /// Its games cut short (the piece cap, or a file sequence's end) rather than ended by
    /// the game-over rule.
    pub cut_short: u64,
}

/// The distribution of lines per game of every strategy of a tournament.
///
/// The games that ended by the game-over rule are binned (bins of equal width, a whole number
/// of lines, at most 40 of them, shared by every strategy; the width and the vertical scale
/// come from these games only), one step line per strategy: the share of ALL its games in
/// each bin. The games cut short, which all sit at the cap and would dwarf the rest, are drawn
/// apart: a panel on the right gives each strategy's share of games cut short (left out when
/// no game was). The legend is below the plot areas, so it hides no line, and names each
/// strategy with its count of games cut short.
pub fn lines_per_game_chart(
    names: &[String],
    games: &[StrategyLines<'_>],
) -> Result<String, ReportError> {
    let fail = |error: &dyn Display| drawing_error("lines-per-game chart", error);
    let most_lines = games
        .iter()
        .filter_map(|strategy| strategy.game_over_lines.max())
        .max()
        .unwrap_or(0);
    let bin_width = most_lines / MAX_LINE_BINS + 1;
    let bins = (most_lines / bin_width + 1) as usize;
    let mut counts = vec![vec![0u64; bins]; names.len()];
    let mut totals = vec![0u64; names.len()];
    let mut cut_short = vec![0u64; names.len()];
    for (index, strategy) in games.iter().enumerate() {
        cut_short[index] = strategy.cut_short;
        totals[index] = strategy.cut_short + strategy.game_over_lines.count();
        for (lines, times) in strategy.game_over_lines.iter() {
            counts[index][(lines / bin_width) as usize] += times;
        }
    }
    let share = |count: u64, total: u64| count as f64 / total.max(1) as f64;
    let shares: Vec<Vec<f64>> = counts
        .iter()
        .zip(&totals)
        .map(|(bins, &total)| bins.iter().map(|&count| share(count, total)).collect())
        .collect();
    let tallest = shares.iter().flatten().copied().fold(0.0f64, f64::max);
    let any_cut_short = cut_short.iter().any(|&count| count > 0);
    let colour = |index: usize| STRATEGY_COLOURS[index % STRATEGY_COLOURS.len()];
    let labels: Vec<String> = names
        .iter()
        .zip(cut_short.iter().zip(&totals))
        .map(|(name, (&cut, &total))| match any_cut_short {
            true => format!("{name} ({cut} of {total} cut short)"),
            false => name.clone(),
        })
        .collect();
    // Two legend columns unless a label would not fit in half the width.
    let longest = labels.iter().map(|label| label.chars().count()).max();
    let columns = if longest.unwrap_or(0) <= 48 { 2 } else { 1 };
    let legend_rows = names.len().div_ceil(columns) as u32;
    let legend_height = 20 + LEGEND_ROW * legend_rows;
    let mut svg = String::new();
    {
        let (width, height) = LINES_PLOT_SIZE;
        let root =
            SVGBackend::with_string(&mut svg, (width, height + legend_height)).into_drawing_area();
        root.fill(&WHITE).map_err(|error| fail(&error))?;
        let (plot_area, legend_area) = root.split_vertically(height);
        let (left, right) = if any_cut_short {
            let (left, right) = plot_area.split_horizontally(width * 3 / 4);
            (left, Some(right))
        } else {
            (plot_area, None)
        };
        let caption = if most_lines == 0 && tallest == 0.0 {
            "Lines per game: no game ended by the game-over rule".to_string()
        } else {
            format!(
                "Lines per game of the games that ended (bins of {bin_width} {})",
                if bin_width == 1 { "line" } else { "lines" }
            )
        };
        let mut chart = ChartBuilder::on(&left)
            .caption(caption, caption_font())
            .margin(15)
            .x_label_area_size(55)
            .y_label_area_size(80)
            // One empty bin of room on the right, so the last bin's step is off the border.
            .build_cartesian_2d(
                0f64..((bins as u64 + 1) * bin_width) as f64,
                0f64..(tallest * 1.1).max(0.01),
            )
            .map_err(|error| fail(&error))?;
        chart
            .configure_mesh()
            .label_style(axis_font())
            .axis_desc_style(axis_font())
            .x_label_formatter(&|lines| format!("{lines:.0}"))
            .y_label_formatter(&|share| format!("{:.0}%", 100.0 * share))
            .x_desc("lines cleared in the game")
            .y_desc("share of the strategy's games")
            .draw()
            .map_err(|error| fail(&error))?;
        for (index, shares) in shares.iter().enumerate() {
            let colour = colour(index);
            // A step line: each bin's share held flat across the bin.
            let steps = shares.iter().enumerate().flat_map(|(bin, &share)| {
                let start = (bin as u64 * bin_width) as f64;
                [(start, share), (start + bin_width as f64, share)]
            });
            chart
                .draw_series(LineSeries::new(steps, colour.stroke_width(2)))
                .map_err(|error| fail(&error))?;
        }
        if let Some(right) = right {
            let strategies = names.len() as f64;
            let mut panel = ChartBuilder::on(&right)
                .caption("Cut short", caption_font())
                .margin(15)
                .margin_left(5)
                .x_label_area_size(55)
                .y_label_area_size(60)
                .build_cartesian_2d(0f64..strategies, 0f64..1.05)
                .map_err(|error| fail(&error))?;
            panel
                .configure_mesh()
                .disable_x_mesh()
                .x_labels(0)
                .y_labels(6)
                .label_style(axis_font())
                .axis_desc_style(axis_font())
                .y_label_formatter(&|share| format!("{:.0}%", 100.0 * share))
                .x_desc("share of games")
                .draw()
                .map_err(|error| fail(&error))?;
            panel
                .draw_series(cut_short.iter().zip(&totals).enumerate().map(
                    |(index, (&cut, &total))| {
                        let x = index as f64;
                        Rectangle::new(
                            [(x + 0.15, 0.0), (x + 0.85, share(cut, total))],
                            colour(index).filled(),
                        )
                    },
                ))
                .map_err(|error| fail(&error))?;
        }
        let column_width = (width - 40) as i32 / columns as i32;
        for (index, label) in labels.iter().enumerate() {
            let x = 20 + column_width * (index % columns) as i32;
            let y = 10 + (LEGEND_ROW * (index / columns) as u32) as i32 + LEGEND_ROW as i32 / 2;
            legend_area
                .draw(&PathElement::new(
                    vec![(x, y), (x + 28, y)],
                    colour(index).stroke_width(4),
                ))
                .map_err(|error| fail(&error))?;
            legend_area
                .draw(&Text::new(
                    label.as_str(),
                    (x + 38, y),
                    axis_font().pos(Pos::new(HPos::Left, VPos::Center)),
                ))
                .map_err(|error| fail(&error))?;
        }
        root.present().map_err(|error| fail(&error))?;
    }
    Ok(svg)
}

/// The strategies' colours in the lines-per-game chart (matplotlib's `tab10`: ten colours that
/// stay apart and dark enough on white), repeated after the tenth.
const STRATEGY_COLOURS: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

/// The height of one row of the lines-per-game chart's legend.
const LEGEND_ROW: u32 = 28;

/// Writes the plots of a tournament into `folder` (created if missing), atomically:
/// `lines_per_game.svg` (see [`lines_per_game_chart`]).
pub fn write_tournament_plots(
    folder: &Path,
    names: &[String],
    games: &[StrategyLines<'_>],
) -> Result<(), ReportError> {
    std::fs::create_dir_all(folder)
        .map_err(|error| ReportError::io(folder.display().to_string(), &error))?;
    let chart = lines_per_game_chart(names, games)?;
    Ok(write_atomically(
        &folder.join("lines_per_game.svg"),
        chart.as_bytes(),
    )?)
}

/// The size of the column histograms' plot: seven panels in two rows of four.
const COLUMN_PLOT_SIZE: (u32, u32) = (1200, 640);

/// Seven histograms, one per piece type (docs/spec/rules.md's order T J Z O S L I): the share of that
/// type's pieces locking with their pivot in each column (0 = left), as the source article
/// shows them ([`PieceStatistics::column_shares`]); all panels share one share axis so their
/// bars compare. A type without pieces has an empty panel.
pub fn column_share_histograms(statistics: &PieceStatistics) -> Result<String, ReportError> {
    let fail = |error: &dyn Display| drawing_error("column histograms", error);
    let counts = &statistics.column_counts;
    let shares = statistics.column_shares();
    let tallest = shares.iter().flatten().copied().fold(0.0f64, f64::max);
    let top = (tallest * 1.1).max(0.05);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, COLUMN_PLOT_SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(|error| fail(&error))?;
        let root = root
            .titled(
                "Share of each piece type's pieces by the column of the lock state's pivot",
                caption_font(),
            )
            .map_err(|error| fail(&error))?;
        let panels = root.split_evenly((2, 4));
        for ((piece, panel), (counts, shares)) in Piece::ALL
            .iter()
            .zip(&panels)
            .zip(counts.iter().zip(&shares))
        {
            let pieces: u64 = counts.iter().sum();
            let mut chart = ChartBuilder::on(panel)
                .caption(format!("{} ({pieces} pieces)", piece.letter()), axis_font())
                .margin(8)
                .x_label_area_size(50)
                .y_label_area_size(60)
                .build_cartesian_2d(-0.5f64..WIDTH as f64 - 0.5, 0f64..top)
                .map_err(|error| fail(&error))?;
            chart
                .configure_mesh()
                .label_style(axis_font())
                .axis_desc_style(axis_font())
                .disable_x_mesh()
                .x_labels(WIDTH)
                .x_label_formatter(&|column| format!("{column:.0}"))
                .y_label_formatter(&|share| format!("{share:.2}"))
                .x_desc("pivot column")
                .draw()
                .map_err(|error| fail(&error))?;
            chart
                .draw_series(
                    shares
                        .iter()
                        .enumerate()
                        .filter(|(_, share)| **share > 0.0)
                        .map(|(column, &share)| {
                            let column = column as f64;
                            Rectangle::new(
                                [(column - 0.4, 0.0), (column + 0.4, share)],
                                BLUE.mix(0.6).filled(),
                            )
                        }),
                )
                .map_err(|error| fail(&error))?;
        }
        root.present().map_err(|error| fail(&error))?;
    }
    Ok(svg)
}

/// The files [`write_statistics_plots`] writes.
pub const STATISTICS_PLOT_FILES: [&str; 4] = [
    "row_shares.svg",
    "cell_heat_map.svg",
    "full_clear_intervals.svg",
    "column_shares.svg",
];

/// Writes the four plots of `statistics` into `folder` (which must exist): row_shares.svg,
/// cell_heat_map.svg, full_clear_intervals.svg and column_shares.svg (the seven column
/// histograms, [`column_share_histograms`]).
pub fn write_statistics_plots(
    folder: &Path,
    statistics: &PieceStatistics,
) -> Result<(), ReportError> {
    let fit = statistics.fit();
    let row_chart = row_share_chart(&statistics.row_shares(), fit.as_ref(), statistics.row_rule)?;
    write_atomically(&folder.join("row_shares.svg"), row_chart.as_bytes())?;
    let heat_map = cell_heat_map(&statistics.cell_shares())?;
    write_atomically(&folder.join("cell_heat_map.svg"), heat_map.as_bytes())?;
    let histogram = full_clear_histogram(&statistics.full_clear_intervals)?;
    write_atomically(
        &folder.join("full_clear_intervals.svg"),
        histogram.as_bytes(),
    )?;
    let columns = column_share_histograms(statistics)?;
    write_atomically(&folder.join("column_shares.svg"), columns.as_bytes())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_colour_scale_runs_from_black_through_red_and_yellow_to_white() {
        assert_eq!(heat_colour(0.0), RGBColor(0, 0, 0));
        assert_eq!(heat_colour(1.0 / 3.0), RGBColor(200, 0, 0));
        assert_eq!(heat_colour(1.0), RGBColor(255, 255, 255));
        // Halfway between red (200, 0, 0) and yellow (255, 210, 0).
        assert_eq!(heat_colour(0.5), RGBColor(228, 105, 0));
    }

    #[test]
    fn plots_are_svg_documents_even_without_data() {
        for svg in [
            row_share_chart(&[0.0; 8], None, RowRule::Pivot).unwrap(),
            row_share_chart(&[0.5, 0.5], None, RowRule::Top).unwrap(),
            column_share_histograms(&PieceStatistics::new(8, RowRule::Pivot)).unwrap(),
            cell_heat_map(&[[0.0; 10]; 8]).unwrap(),
            full_clear_histogram(&ValueCounts::new()).unwrap(),
            full_clear_histogram(&ValueCounts::of([5, 10, 10, 4000])).unwrap(),
            chart(&["a", "b"], &[(0, 3, false), (1, 900, true)]).unwrap(),
            chart(&["a"], &[]).unwrap(),
            chart(&["a"], &[(0, 9, true)]).unwrap(),
        ] {
            assert!(svg.starts_with("<svg"), "{}", &svg[..svg.len().min(80)]);
            assert!(svg.trim_end().ends_with("</svg>"));
        }
    }

    /// The lines-per-game chart of the strategies `names` and their games, each
    /// (strategy, lines, cut short).
    fn chart(names: &[&str], games: &[(usize, u64, bool)]) -> Result<String, ReportError> {
        let mut game_over_lines = vec![ValueCounts::new(); names.len()];
        let mut cut_short = vec![0; names.len()];
        for &(strategy, lines, cut) in games {
            match cut {
                true => cut_short[strategy] += 1,
                false => game_over_lines[strategy].add(lines),
            }
        }
        let strategies: Vec<StrategyLines<'_>> = game_over_lines
            .iter()
            .zip(cut_short)
            .map(|(game_over_lines, cut_short)| StrategyLines {
                game_over_lines,
                cut_short,
            })
            .collect();
        let names: Vec<String> = names.iter().map(|name| name.to_string()).collect();
        lines_per_game_chart(&names, &strategies)
    }

    /// Every `<text …>` element of `svg`: its attributes and its text.
    fn texts(svg: &str) -> Vec<(&str, &str)> {
        svg.split("<text ")
            .skip(1)
            .map(|element| {
                let (attributes, rest) = element.split_once('>').unwrap();
                (attributes, rest.split_once("</text>").unwrap().0.trim())
            })
            .collect()
    }

    /// The number in attribute `name="…"` of `attributes`.
    fn attribute(attributes: &str, name: &str) -> f64 {
        let start = attributes.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
        let value = &attributes[start..];
        value[..value.find('"').unwrap()].parse().unwrap()
    }

    #[test]
    fn every_text_of_every_plot_is_at_least_the_axis_font_size() {
        let mut statistics = PieceStatistics::new(8, RowRule::Pivot);
        statistics.row_counts = vec![0, 0, 1, 2, 4, 8, 16, 32];
        statistics.column_counts[0][3] = 5;
        let fit = LogLinearFit {
            slope: 0.3,
            intercept: -2.0,
            r_squared: 0.99,
            rows: vec![2, 3, 4, 5],
        };
        for (plot, svg) in [
            (
                "row shares",
                row_share_chart(&statistics.row_shares(), Some(&fit), RowRule::Top),
            ),
            ("heat map", cell_heat_map(&[[0.01; 10]; 20])),
            (
                "full clears",
                full_clear_histogram(&ValueCounts::of([5, 10, 10, 40])),
            ),
            ("columns", column_share_histograms(&statistics)),
            (
                "lines",
                chart(&["a", "b"], &[(0, 3, false), (1, 9, false), (1, 500, true)]),
            ),
        ] {
            let svg = svg.unwrap();
            let texts = texts(&svg);
            // Axis labels (numbers) and descriptions, captions, legends: all of them.
            assert!(texts.len() > 10, "{plot}: {} texts", texts.len());
            for (attributes, text) in texts {
                let size = attribute(attributes, "font-size");
                assert!(size >= AXIS_FONT, "{plot}: {text:?} at {size}");
            }
        }
        assert_eq!(AXIS_FONT, 16.0);
    }

    #[test]
    fn the_lines_chart_bins_the_ended_games_and_draws_the_cut_short_apart_under_its_legend() {
        // Two short games ended and ten reached a cap at 900 lines: the bins are of the short
        // games (1 line wide up to 5, not 23 wide up to 900).
        let mut played = vec![(0, 3, false), (0, 5, false)];
        played.extend([(0, 900, true); 10]);
        let svg = chart(&["bfs+elashi"], &played).unwrap();
        let texts = texts(&svg);
        let caption = texts
            .iter()
            .find(|(_, text)| text.starts_with("Lines per game"));
        assert_eq!(
            caption.unwrap().1,
            "Lines per game of the games that ended (bins of 1 line)"
        );
        // The x axis ends one bin after the longest ended game: no label reaches 900.
        let numbers: Vec<f64> = texts
            .iter()
            .filter_map(|(_, text)| text.parse().ok())
            .collect();
        assert!(numbers.iter().all(|&number| number <= 7.0), "{numbers:?}");
        assert!(texts.iter().any(|(_, text)| *text == "Cut short"));
        // The legend names the games cut short and sits below the plot areas (600 high).
        let (attributes, _) = texts
            .iter()
            .find(|(_, text)| *text == "bfs+elashi (10 of 12 cut short)")
            .unwrap();
        assert!(attribute(attributes, "y") > 600.0, "{attributes}");
        // Without games cut short there is no panel for them, and the legend is the names.
        let svg = chart(&["a"], &[(0, 3, false)]).unwrap();
        assert!(!svg.contains("Cut short"));
        assert!(texts_of(&svg).contains(&"a"));
    }

    #[test]
    fn the_full_clear_axis_is_labelled_in_whole_pieces_even_without_a_clear() {
        // Without a clear the axis spans -2.5..2.5 pieces: one label, 0, not -2, -1, -0, ….
        let svg = full_clear_histogram(&ValueCounts::new()).unwrap();
        let labels: Vec<&str> = texts_of(&svg)
            .into_iter()
            .filter(|text| text.parse::<f64>().is_ok())
            .collect();
        assert!(
            labels.iter().all(|label| !label.starts_with('-')),
            "{labels:?}"
        );
        assert_eq!(
            labels.iter().filter(|label| **label == "0").count(),
            2,
            "{labels:?}"
        );
    }

    fn texts_of(svg: &str) -> Vec<&str> {
        texts(svg).into_iter().map(|(_, text)| text).collect()
    }
}
