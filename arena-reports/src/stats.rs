//! The `arena stats` report: text tables, the JSON report (typed: these structs are its
//! schema), and the files of `--out DIR`.

use std::fmt::Write as _;
use std::path::Path;

use serde::Serialize;
use tetris_core::GameOverRule;

use crate::error::ReportError;
use crate::plots::{STATISTICS_PLOT_FILES, write_statistics_plots};
use tetris_arena_games::analysis::pieces::{
    COLUMN_RULE, FIT_RULE, MIN_FIT_SAMPLES, PieceStatistics, RowRule, WIDTH, fit_rows,
};
use tetris_arena_games::analysis::stats::Summary;
use tetris_arena_io::format::significant;
use tetris_arena_io::output::{
    MadeBy, announce_written, pretty_json, print_output, write_atomically, write_folder,
};
use tetris_arena_runs::statistics::StatisticsSettings;
use tetris_core::Piece;

#[derive(Serialize)]
struct RowJson {
    row: usize,
    count: u64,
    share: f64,
}

#[derive(Serialize)]
struct CellsJson<'a> {
    counts: &'a [[u64; WIDTH]],
    shares: Vec<[f64; WIDTH]>,
    cells_above_top: u64,
}

/// One piece type's column histogram.
#[derive(Serialize)]
struct ColumnsJson {
    piece: char,
    pieces: u64,
    counts: [u64; WIDTH],
    shares: [f64; WIDTH],
}

#[derive(Serialize)]
struct FitJson {
    slope: f64,
    intercept: f64,
    ratio: f64,
    r_squared: f64,
    top_row_share: f64,
    expected_pieces: f64,
    expected_lines: f64,
}

#[derive(Serialize)]
struct HistogramBarJson {
    pieces: u64,
    count: u64,
}

#[derive(Serialize)]
struct FullClearsJson {
    count: usize,
    after_cells_above_top: u64,
    mean_interval: Option<f64>,
    median_interval: Option<f64>,
    min_interval: Option<f64>,
    max_interval: Option<f64>,
    histogram: Vec<HistogramBarJson>,
}

/// Every number of a run, with the rules that define them.
#[derive(Serialize)]
struct StatsJson<'a> {
    strategy: &'a str,
    generator: String,
    seed: u64,
    /// Present only for a run of several blocks (`--blocks`, or merged shards).
    #[serde(skip_serializing_if = "Option::is_none")]
    blocks: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    block_rule: Option<&'static str>,
    board_height: usize,
    game_over_rule: GameOverRule,
    pieces: u64,
    lines: u64,
    games: u64,
    game_overs: u64,
    row: RowRule,
    row_rule: &'static str,
    rows: Vec<RowJson>,
    column_rule: &'static str,
    columns: Vec<ColumnsJson>,
    pieces_above_top: u64,
    cells: CellsJson<'a>,
    fit_rule: &'static str,
    fit_min_samples: u64,
    fit_rows: Vec<usize>,
    fit: Option<FitJson>,
    full_clears: FullClearsJson,
    made_by: MadeBy,
}

/// How a run of several blocks is played, as printed and stored with its results.
pub const BLOCK_RULE: &str = "block K (0-based) of N places pieces / N pieces (one more for the \
    first pieces % N blocks) in games back to back; its game j uses seed S + K x 2^32 + j; the \
    blocks are merged in block order";

/// The JSON report of a run of `strategy` under `settings`.
pub fn stats_json(
    strategy: &str,
    settings: &StatisticsSettings,
    statistics: &PieceStatistics,
) -> String {
    let blocks = settings.blocks;
    let summary = Summary::of_counts(&statistics.full_clear_intervals);
    let report = StatsJson {
        strategy,
        generator: settings.generator.to_string(),
        seed: settings.seed,
        blocks: (blocks > 1).then_some(blocks),
        block_rule: (blocks > 1).then_some(BLOCK_RULE),
        board_height: statistics.board_height,
        game_over_rule: settings.game_over_rule,
        pieces: statistics.pieces,
        lines: statistics.lines,
        games: statistics.games,
        game_overs: statistics.game_overs,
        row: statistics.row_rule,
        row_rule: statistics.row_rule.description(),
        rows: statistics
            .row_counts
            .iter()
            .zip(statistics.row_shares())
            .enumerate()
            .map(|(row, (&count, share))| RowJson { row, count, share })
            .collect(),
        column_rule: COLUMN_RULE,
        columns: Piece::ALL
            .iter()
            .zip(
                statistics
                    .column_counts
                    .iter()
                    .zip(statistics.column_shares()),
            )
            .map(|(piece, (&counts, shares))| ColumnsJson {
                piece: piece.letter(),
                pieces: counts.iter().sum(),
                counts,
                shares,
            })
            .collect(),
        pieces_above_top: statistics.pieces_above_top,
        cells: CellsJson {
            counts: &statistics.cell_counts,
            shares: statistics.cell_shares(),
            cells_above_top: statistics.cells_above_top,
        },
        fit_rule: FIT_RULE,
        fit_min_samples: MIN_FIT_SAMPLES,
        fit_rows: fit_rows(&statistics.row_counts, MIN_FIT_SAMPLES),
        fit: statistics.fit().map(|fit| FitJson {
            slope: fit.slope,
            intercept: fit.intercept,
            ratio: fit.ratio(),
            r_squared: fit.r_squared,
            top_row_share: fit.top_row_share(),
            expected_pieces: fit.expected_pieces(),
            expected_lines: fit.expected_lines(),
        }),
        full_clears: FullClearsJson {
            count: statistics.full_clear_intervals.count() as usize,
            after_cells_above_top: statistics.full_clears_after_lost_cells,
            mean_interval: summary.map(|summary| summary.mean),
            median_interval: summary.map(|summary| summary.median),
            min_interval: summary.map(|summary| summary.min),
            max_interval: summary.map(|summary| summary.max),
            histogram: statistics
                .full_clear_histogram()
                .into_iter()
                .map(|(pieces, count)| HistogramBarJson { pieces, count })
                .collect(),
        },
        made_by: MadeBy::current(),
    };
    pretty_json(&report)
}

/// Whether `entry` is one of the files of a stats output folder: `stats.json` and the
/// statistics plots.
pub fn is_stats_output(entry: &Path) -> bool {
    entry.is_file()
        && entry.file_name().is_some_and(|name| {
            name == "stats.json" || STATISTICS_PLOT_FILES.iter().any(|plot| name == *plot)
        })
}

/// Writes `stats.json` (the JSON report `json`) and the four plots into `folder`.
pub fn write_stats_files(
    folder: &Path,
    statistics: &PieceStatistics,
    json: &str,
) -> Result<(), ReportError> {
    write_atomically(&folder.join("stats.json"), json.as_bytes())?;
    write_statistics_plots(folder, statistics)
}

/// Delivers a finished run's results: `stats.json` and the plots into `folder` (replaced as
/// a whole, see [`write_folder`]), then the text (or the JSON with `json`) on standard output. The one output of
/// `arena stats` and of `arena merge` of stats parts.
pub fn deliver_stats(
    strategy: &str,
    settings: &StatisticsSettings,
    statistics: &PieceStatistics,
    folder: Option<&Path>,
    json: bool,
) -> Result<(), ReportError> {
    let report = write_stats_folder(strategy, settings, statistics, folder)?;
    if let Some(folder) = folder {
        announce_written("statistics (stats.json and the plots)", folder);
    }
    Ok(print_output(&if json {
        report
    } else {
        stats_text(strategy, settings, statistics)
    })?)
}

/// Writes the statistics' folder (`--out DIR`: stats.json and the plots), if any, replaced as
/// a whole; the JSON report, written or not.
pub fn write_stats_folder(
    strategy: &str,
    settings: &StatisticsSettings,
    statistics: &PieceStatistics,
    folder: Option<&Path>,
) -> Result<String, ReportError> {
    let report = stats_json(strategy, settings, statistics);
    if let Some(folder) = folder {
        // Replaced as a whole: never the new stats.json beside the old plots.
        write_folder(
            tetris_arena_io::Field::OUT,
            folder,
            is_stats_output,
            |new_folder| write_stats_files(new_folder, statistics, &report),
        )?;
    }
    Ok(report)
}

/// The row table, the heat map in per mille, the fit and the full clears as aligned text (a
/// line on the blocks when there are several).
pub fn stats_text(
    strategy: &str,
    settings: &StatisticsSettings,
    statistics: &PieceStatistics,
) -> String {
    let blocks = settings.blocks;
    let mut text = String::new();
    let _ = writeln!(
        text,
        "{strategy}: {} pieces, {} lines, {} games ({} game overs, {} rule), 10 x {} field",
        statistics.pieces,
        statistics.lines,
        statistics.games,
        statistics.game_overs,
        settings.game_over_rule,
        statistics.board_height
    );
    if blocks > 1 {
        let _ = writeln!(text, "{blocks} blocks: {BLOCK_RULE}");
    }
    let rule = statistics.row_rule;
    let _ = writeln!(text, "rows counted by --row {rule}: {}", rule.description());
    let fit = statistics.fit();
    let _ = writeln!(text, "\n row      pieces        share  fitted");
    for (row, (count, share)) in statistics
        .row_counts
        .iter()
        .zip(statistics.row_shares())
        .enumerate()
    {
        let used = fit.as_ref().is_some_and(|fit| fit.rows.contains(&row));
        let _ = writeln!(
            text,
            "{row:>4} {count:>11} {:>12}  {}",
            significant(share),
            if used { "yes" } else { "" }
        );
    }
    if statistics.pieces_above_top > 0 {
        let _ = writeln!(
            text,
            "({} pieces locked with a cell above the field, counted in row 0)",
            statistics.pieces_above_top
        );
    }
    let _ = writeln!(
        text,
        "\ncolumns (percent of each piece type's pieces, by the lock state's pivot column):"
    );
    let _ = write!(text, "piece    pieces");
    for column in 0..WIDTH {
        let _ = write!(text, "{column:>7}");
    }
    text.push('\n');
    for (piece, (counts, shares)) in Piece::ALL.iter().zip(
        statistics
            .column_counts
            .iter()
            .zip(statistics.column_shares()),
    ) {
        let _ = write!(
            text,
            "{:>5} {:>9}",
            piece.letter(),
            counts.iter().sum::<u64>()
        );
        for share in shares {
            let _ = write!(text, "{:>7.2}", share * 100.0);
        }
        text.push('\n');
    }
    let _ = writeln!(text, "\ncells (per mille of all cells), row 0 at the top:");
    for (row, shares) in statistics.cell_shares().iter().enumerate() {
        let _ = write!(text, "{row:>4} ");
        for share in shares {
            let _ = write!(text, "{:>7.2}", share * 1000.0);
        }
        text.push('\n');
    }
    match &fit {
        Some(fit) => {
            let _ = writeln!(
                text,
                "\nfit over rows {:?}: slope {:.6}, ratio {:.6} per row, intercept {:.6}, \
                 R² {:.6}\nshare at row 0 {}: expected {} pieces, {} lines per game",
                fit.rows,
                fit.slope,
                fit.ratio(),
                fit.intercept,
                fit.r_squared,
                significant(fit.top_row_share()),
                significant(fit.expected_pieces()),
                significant(fit.expected_lines())
            );
        }
        None => {
            let _ = writeln!(
                text,
                "\nno fit: fewer than two of rows 1 to H - 5 above the most common row have \
                 {MIN_FIT_SAMPLES} pieces"
            );
        }
    }
    match Summary::of_counts(&statistics.full_clear_intervals) {
        Some(summary) => {
            let _ = writeln!(
                text,
                "full clears: {}, pieces between them: mean {:.2}, median {}, min {}, max {}",
                summary.count, summary.mean, summary.median, summary.min, summary.max
            );
        }
        None => {
            let _ = writeln!(text, "full clears: none");
        }
    }
    text
}
