//! Piece statistics: where pieces lock, how often the field is cleared completely, and the
//! expected game length estimated from finite play by a log-linear fit (docs/spec/arena.md, "Games that
//! never end"). Used by `arena stats` and by `arena tournament --plots`.
//!
//! # Rules of a run
//!
//! - Games are played back to back until N pieces in total have been placed. Game k (counted
//!   from 0) starts on an empty 10 × H board with seed `S + k` (wrapping); the last game stops
//!   at the piece cap. A `file:` generator ignores the seed: every game replays the file from
//!   its start, and the run stops early (with fewer than N pieces) when the file runs out.
//! - The row of a piece (docs/spec/arena.md, "Games that never end", offers both, the article's as the
//!   default; [`RowRule`]) is, before any row is cleared, either the row (y from the top, 0 =
//!   top row) of the lock state's pivot ([`RowRule::Pivot`], the source article's count: only
//!   T, J, L and I can lock with the pivot on the bottom row) or the row of the piece's highest
//!   cell ([`RowRule::Top`]). A row above the field (y < 0) counts as row 0. A piece that locks
//!   with a cell above the field is also counted in `pieces_above_top`; its cells above the
//!   field are left out of the heat map and counted in `cells_above_top`.
//! - The column of a piece is its lock state's pivot column x (the command-line contract's
//!   coordinate; the pivot is always one of the piece's cells in docs/spec/rules.md's table, so it is
//!   0 to 9). Per piece type, a column's share is the pieces of that type locked with their
//!   pivot in it ÷ all pieces of that type, so each type's ten shares sum to 1.
//! - A row's share is its count divided by all pieces, so the shares sum to 1.
//! - The heat map counts, for every cell, the pieces that had one of their four cells there
//!   at lock; a cell's share is its count divided by all cells counted on the field.
//! - The fit ([`fit_log_linear`]) is least squares of log10(share) against the row over the
//!   rows chosen by [`fit_rows`]: rows 1 to H − 5 above the most common row, with at least
//!   [`MIN_FIT_SAMPLES`] pieces. Row 0 is left out because the ceiling (spawning, game over)
//!   bends the line there; rows below H − 5 because a piece whose top is there may touch the
//!   floor (a vertical I spans 4 rows), and the most common row and those below it because
//!   the geometric fall only starts above the peak of the row histogram.
//!   Extrapolating to row 0 gives the share of pieces that lock in the top row, taken as the
//!   probability of a game over per piece: expected pieces per game = 1 / that share, and
//!   expected lines = 0.4 × expected pieces (each piece adds 4 cells, each line removes 10).
//! - A full clear is a lock after which the board is empty (an empty board at the start of a
//!   game is not one). Its interval is the number of pieces since the previous full clear of
//!   the same game, or since the game's start. On a 10-wide field it is a multiple of 5
//!   (4 × pieces cells must be a multiple of 10) unless a cell locked above the field (it is
//!   never stored, docs/spec/rules.md) since the previous full clear: those full clears are still
//!   counted, and also counted in `full_clears.after_cells_above_top`.
//!
//!
//! Over 600 lines only with its unit tests (about a third), which build counts by hand and check
//! the private fit.

use serde::{Deserialize, Serialize};
use tetris_core::{Board, Piece};

use crate::analysis::counts::ValueCounts;
use crate::sim::placement::PlayedPlacement;

/// The board's width in cells.
pub const WIDTH: usize = 10;

/// Piece types (docs/spec/rules.md's order T J Z O S L I).
pub const PIECE_TYPES: usize = 7;

/// The fewest pieces a row needs to take part in the fit (fewer: its share is too noisy).
pub const MIN_FIT_SAMPLES: u64 = 20;

/// Lines per piece in the long run: each piece adds 4 cells, each line removes 10.
pub const LINES_PER_PIECE: f64 = 0.4;

/// The rule that picks the fitted rows, as stored with the results.
pub const FIT_RULE: &str = "least squares of log10(share) against row over rows 1 to H - 5 above \
    the most common row with at least 20 pieces (row 0 is bent by the ceiling, lower rows by \
    the floor); \
    ratio = 10^slope = share(row + 1) / share(row); share at row 0 = 10^intercept; expected \
    pieces = 1 / share at row 0; expected lines = 0.4 x expected pieces";

/// The row rule of [`RowRule::Top`], as stored with the results.
pub const ROW_RULE: &str = "row (0 = top) of the piece's highest cell at lock, before clearing; \
    cells above the field count as row 0";

/// The row rule of [`RowRule::Pivot`], as stored with the results.
pub const PIVOT_ROW_RULE: &str = "row (0 = top) of the lock state's pivot (rules.md's y), before \
    clearing, as the source article counts; a pivot above the field counts as row 0";

/// The column rule, as stored with the results.
pub const COLUMN_RULE: &str = "per piece type, the share of its pieces whose lock state's pivot \
    (rules.md's x, 0 = left) is in each column; each type's shares sum to 1";

/// Which row a piece counts in (docs/spec/arena.md: both are offered, the article's is the default).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RowRule {
    /// The row of the lock state's pivot (the source article's count).
    #[default]
    Pivot,
    /// The row of the piece's highest cell.
    Top,
}

/// The row rule of `arena stats --row`: `pivot` or `top` (the one parser, for every front end).
pub fn row_rule(text: &str) -> Result<RowRule, tetris_arena_io::values::ValueError> {
    RowRule::ALL
        .into_iter()
        .find(|rule| rule.name() == text)
        .ok_or_else(|| tetris_arena_io::values::ValueError::UnknownRowRule(text.to_string()))
}

impl RowRule {
    /// Every rule, the default first.
    pub const ALL: [RowRule; 2] = [RowRule::Pivot, RowRule::Top];

    /// The rule's command-line name: `pivot` or `top`.
    pub fn name(self) -> &'static str {
        match self {
            RowRule::Pivot => "pivot",
            RowRule::Top => "top",
        }
    }

    /// The rule in words, as printed and stored with the results.
    pub fn description(self) -> &'static str {
        match self {
            RowRule::Pivot => PIVOT_ROW_RULE,
            RowRule::Top => ROW_RULE,
        }
    }

    /// The rule of records written before the rule was recorded (parts, tournament games):
    /// the top cell, the only rule then.
    pub fn unrecorded() -> RowRule {
        RowRule::Top
    }
}

impl std::fmt::Display for RowRule {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str(self.name())
    }
}

impl std::str::FromStr for RowRule {
    type Err = String;

    fn from_str(name: &str) -> Result<RowRule, String> {
        RowRule::ALL
            .into_iter()
            .find(|rule| rule.name() == name)
            .ok_or_else(|| format!("unknown row rule {name:?}: use pivot or top"))
    }
}

/// What a run counted, piece by piece. It serializes (for the parts of a sharded run) without
/// the counters of the game in progress, which [`PieceStatistics::merge`] does not use.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PieceStatistics {
    /// Board rows.
    pub board_height: usize,
    /// Which row a piece counts in.
    #[serde(default = "RowRule::unrecorded")]
    pub row_rule: RowRule,
    /// Pieces placed.
    pub pieces: u64,
    /// Rows cleared.
    pub lines: u64,
    /// Games started.
    pub games: u64,
    /// Games that ended by a top-out.
    pub game_overs: u64,
    /// `row_counts[row]`: pieces that locked in `row` by the row rule (a row above the field
    /// counts as row 0).
    pub row_counts: Vec<u64>,
    /// `column_counts[piece][x]`: pieces of type `piece` (docs/spec/rules.md's order T J Z O S L I)
    /// that locked with their pivot in column x.
    #[serde(default)]
    pub column_counts: [[u64; WIDTH]; PIECE_TYPES],
    /// Pieces that locked with a cell above the field (also counted in row 0).
    pub pieces_above_top: u64,
    /// `cell_counts[row][x]`: pieces with one of their cells at (x, row) at lock.
    pub cell_counts: Vec<[u64; WIDTH]>,
    /// Cells that locked above the field (not in `cell_counts`).
    pub cells_above_top: u64,
    /// How many full clears came after each interval (in pieces): counts, so that the
    /// statistics of any number of pieces take bounded memory. Read also from the list of
    /// every interval that parts and files written before kept.
    #[serde(deserialize_with = "intervals_as_counts")]
    pub full_clear_intervals: ValueCounts,
    /// Full clears whose interval saw a cell lock above the field (its interval need not be
    /// a multiple of 5).
    pub full_clears_after_lost_cells: u64,
    /// Pieces since the last full clear or the current game's start.
    #[serde(skip)]
    pieces_since_full_clear: u64,
    /// Cells locked above the field (never stored) since then.
    #[serde(skip)]
    cells_lost_since_full_clear: u64,
}

/// Reads the full-clear intervals as counts (`[[interval, count], …]`, what is written now)
/// or as the list of every interval (`[interval, …]`, what was written before).
fn intervals_as_counts<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<ValueCounts, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Intervals {
        List(Vec<u64>),
        Counts(ValueCounts),
    }
    Ok(match Intervals::deserialize(deserializer)? {
        Intervals::List(list) => ValueCounts::of(list),
        Intervals::Counts(counts) => counts,
    })
}

impl PieceStatistics {
    /// Empty counts for a board of `board_height` rows, counting rows by `row_rule`.
    pub fn new(board_height: usize, row_rule: RowRule) -> PieceStatistics {
        PieceStatistics {
            board_height,
            row_rule,
            pieces: 0,
            lines: 0,
            games: 0,
            game_overs: 0,
            row_counts: vec![0; board_height],
            column_counts: [[0; WIDTH]; PIECE_TYPES],
            pieces_above_top: 0,
            cell_counts: vec![[0; WIDTH]; board_height],
            cells_above_top: 0,
            full_clear_intervals: ValueCounts::new(),
            full_clears_after_lost_cells: 0,
            pieces_since_full_clear: 0,
            cells_lost_since_full_clear: 0,
        }
    }

    /// Adds the counts of `other` (another game or run on the same height); its full-clear
    /// intervals follow this one's, so merging games in game order keeps results independent
    /// of the order they were played in.
    pub fn merge(&mut self, other: &PieceStatistics) {
        debug_assert_eq!(self.board_height, other.board_height);
        debug_assert_eq!(self.row_rule, other.row_rule);
        self.pieces += other.pieces;
        self.lines += other.lines;
        self.games += other.games;
        self.game_overs += other.game_overs;
        for (total, count) in self.row_counts.iter_mut().zip(&other.row_counts) {
            *total += count;
        }
        for (total, counts) in self.column_counts.iter_mut().zip(&other.column_counts) {
            for (total, count) in total.iter_mut().zip(counts) {
                *total += count;
            }
        }
        self.pieces_above_top += other.pieces_above_top;
        for (total, counts) in self.cell_counts.iter_mut().zip(&other.cell_counts) {
            for (total, count) in total.iter_mut().zip(counts) {
                *total += count;
            }
        }
        self.cells_above_top += other.cells_above_top;
        self.full_clear_intervals.merge(&other.full_clear_intervals);
        self.full_clears_after_lost_cells += other.full_clears_after_lost_cells;
    }

    /// Starts counting a new game (its start is not a full clear).
    pub fn start_game(&mut self) {
        self.games += 1;
        self.pieces_since_full_clear = 0;
        self.cells_lost_since_full_clear = 0;
    }

    /// Counts one placement; `board` is the board after its lock and clears.
    pub fn record(&mut self, placement: &PlayedPlacement, board: &Board) {
        self.pieces += 1;
        self.lines += u64::from(placement.cleared);
        let mut top = i32::MAX;
        let mut cells_lost = 0;
        for (dx, dy) in placement.piece.cells(placement.rotation) {
            let x = i32::from(placement.x) + i32::from(dx);
            let y = i32::from(placement.y) + i32::from(dy);
            top = top.min(y);
            if y < 0 {
                cells_lost += 1;
                self.cells_above_top += 1;
            } else {
                self.cell_counts[y as usize][x as usize] += 1;
            }
        }
        if cells_lost > 0 {
            self.pieces_above_top += 1;
        }
        let row = match self.row_rule {
            RowRule::Pivot => i32::from(placement.y),
            RowRule::Top => top,
        };
        self.row_counts[row.max(0) as usize] += 1;
        // The pivot is one of the piece's cells (docs/spec/rules.md's table), so on the field.
        self.column_counts[placement.piece.index()][placement.x as usize] += 1;
        self.pieces_since_full_clear += 1;
        self.cells_lost_since_full_clear += cells_lost;
        if board.is_empty() {
            // The cells placed since the last empty board, less those lost above the field,
            // all left in whole rows of 10.
            debug_assert_eq!(
                (4 * self.pieces_since_full_clear - self.cells_lost_since_full_clear) % 10,
                0,
                "an empty board after cells that do not fill whole rows"
            );
            self.full_clear_intervals.add(self.pieces_since_full_clear);
            if self.cells_lost_since_full_clear > 0 {
                self.full_clears_after_lost_cells += 1;
            }
            self.pieces_since_full_clear = 0;
            self.cells_lost_since_full_clear = 0;
        }
    }

    /// Each row's share of all pieces (all zero before the first piece).
    pub fn row_shares(&self) -> Vec<f64> {
        let total = self.pieces.max(1) as f64;
        self.row_counts
            .iter()
            .map(|&count| count as f64 / total)
            .collect()
    }

    /// Per piece type (docs/spec/rules.md's order), each column's share of that type's pieces (all
    /// zero for a type that never came).
    pub fn column_shares(&self) -> [[f64; WIDTH]; PIECE_TYPES] {
        self.column_counts.map(|counts| {
            let total = counts.iter().sum::<u64>().max(1) as f64;
            counts.map(|count| count as f64 / total)
        })
    }

    /// Each cell's share of all cells counted on the field.
    pub fn cell_shares(&self) -> Vec<[f64; WIDTH]> {
        let total: u64 = self.cell_counts.iter().flatten().sum();
        let total = total.max(1) as f64;
        self.cell_counts
            .iter()
            .map(|row| row.map(|count| count as f64 / total))
            .collect()
    }

    /// The full-clear intervals as (interval in pieces, how many), shortest first.
    pub fn full_clear_histogram(&self) -> Vec<(u64, u64)> {
        self.full_clear_intervals.iter().collect()
    }

    /// The fit of the rows [`fit_rows`] picks; `None` when fewer than two rows qualify.
    pub fn fit(&self) -> Option<LogLinearFit> {
        let rows = fit_rows(&self.row_counts, MIN_FIT_SAMPLES);
        let shares = self.row_shares();
        let fitted: Vec<f64> = rows.iter().map(|&row| shares[row]).collect();
        fit_log_linear(&rows, &fitted)
    }
}

/// A way in which a [`PieceStatistics`] record contradicts itself: counts that no run of
/// pieces can produce ([`PieceStatistics::check`], the merge's check of a part's statistics).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StatisticsContradiction {
    /// The rows or the heat map are not of the record's board height.
    #[error("piece statistics not of a {height}-row board")]
    Height {
        /// The board height expected.
        height: usize,
    },
    /// The per-row counts do not add up to the pieces.
    #[error("piece statistics' row counts add up to {sum}, not its {pieces} pieces")]
    RowSum {
        /// The rows' sum.
        sum: u128,
        /// The pieces.
        pieces: u64,
    },
    /// The per-column counts (recorded) do not add up to the pieces.
    #[error("piece statistics' column counts add up to {sum}, not its {pieces} pieces")]
    ColumnSum {
        /// The columns' sum.
        sum: u128,
        /// The pieces.
        pieces: u64,
    },
    /// The cells counted on the field and above it are not four per piece.
    #[error(
        "piece statistics count {cells} cells on the field and {lost} above it, not 4 per \
         piece ({pieces} pieces)"
    )]
    Cells {
        /// Cells in the heat map.
        cells: u128,
        /// Cells above the field.
        lost: u64,
        /// The pieces.
        pieces: u64,
    },
    /// Cells above the field that do not fit the pieces said to have them (1 to 4 each).
    #[error(
        "piece statistics count {cells} cells above the field for {pieces} pieces with a \
         cell there (each has 1 to 4)"
    )]
    CellsAboveTop {
        /// Cells above the field.
        cells: u64,
        /// Pieces with a cell above the field.
        pieces: u64,
    },
    /// More pieces above the field than pieces counted in row 0 (where they count).
    #[error(
        "piece statistics count {above} pieces above the field but only {row_0} in row 0, \
         where they count"
    )]
    AboveTopNotInRow0 {
        /// Pieces with a cell above the field.
        above: u64,
        /// Pieces in row 0.
        row_0: u64,
    },
    /// A row holds fewer cells than the pieces counted in it bring there.
    #[error("piece statistics count {pieces} pieces in row {row} but only {cells} cells there")]
    RowWithoutCells {
        /// The row.
        row: usize,
        /// Pieces counted in it (those above the field left out for row 0).
        pieces: u128,
        /// Cells in the row.
        cells: u128,
    },
    /// More lines than the cells on the field can fill (10 cells a line).
    #[error("piece statistics count {lines} lines, more than {cells} cells on the field fill")]
    Lines {
        /// Lines.
        lines: u64,
        /// Cells on the field.
        cells: u128,
    },
    /// Game counts that no block of games gives.
    #[error("piece statistics count {game_overs} game overs in {games} games of {pieces} pieces")]
    Games {
        /// Games.
        games: u64,
        /// Game overs.
        game_overs: u64,
        /// Pieces.
        pieces: u64,
    },
    /// Full clears that do not fit the pieces, lines or lost cells.
    #[error("piece statistics' full clears contradict its counts: {0}")]
    FullClears(&'static str),
    /// A piece counted with its pivot in a column where no orientation of it fits.
    #[error("piece statistics count a {piece} with its pivot in column {column}, where none fits")]
    Column {
        /// The piece's letter.
        piece: char,
        /// The column.
        column: usize,
    },
    /// More pieces in the bottom rows than pieces of the types that fit there.
    #[error(
        "piece statistics count {pieces} pieces in rows {row} and below, but only {fitting} \
         pieces of the types that fit there"
    )]
    RowsTooLow {
        /// The highest of the rows.
        row: usize,
        /// Pieces counted in it and below.
        pieces: u128,
        /// Pieces of the types that can lock there.
        fitting: u128,
    },
}

/// Sums of counts, wide enough that no stored counts overflow them.
fn total<'a>(counts: impl IntoIterator<Item = &'a u64>) -> u128 {
    counts.into_iter().map(|&count| u128::from(count)).sum()
}

impl PieceStatistics {
    /// Checks that the counts are ones that placing `pieces` pieces (in `games` games started
    /// on empty boards, of which all but the last ended by a top-out) can give: every rule
    /// below holds exactly for every record [`PieceStatistics::record`] builds, so a record
    /// that breaks one was not written by a run (a tampered or damaged part).
    ///
    /// - rows and heat map of `board_height` rows; the rows' counts sum to the pieces, and so
    ///   do the columns' when recorded (parts written before they were stored hold zeros);
    /// - cells on the field plus cells above it are 4 per piece; each piece with a cell above
    ///   the field has 1 to 4 there, and counts in row 0 (by the top rule; under both rules
    ///   row 0 holds at least the cells of the pieces counted there that are on the field,
    ///   as every row does: a piece's top cell and its pivot are cells);
    /// - 10 × lines ≤ the cells on the field (a line is 10 of them; cells above the field
    ///   are never stored);
    /// - at least one game; all but the last a game over; every game but the last places a
    ///   piece;
    /// - full clears: each interval at least 1 piece, the intervals together at most the
    ///   pieces, 10 × lines ≥ 4 × their sum − the cells lost above the field (the board is
    ///   empty at each end), an interval that is not a multiple of 5 only after lost cells,
    ///   and each full clear after lost cells has a piece above the field of its own;
    /// - a piece's pivot column and row must be where some orientation of it fits on the
    ///   10 × H field (checked when the columns are recorded).
    pub fn check(&self) -> Result<(), StatisticsContradiction> {
        self.check_with(true)
    }

    /// [`PieceStatistics::check`] of the statistics of games merged from independent games
    /// (a tournament strategy's, whose games may end at the piece cap): every rule but the
    /// block's (all games but the last a game over), in its place at most `games` game overs.
    pub fn check_merged(&self) -> Result<(), StatisticsContradiction> {
        self.check_with(false)
    }

    /// The checks, with or without the rule of a block of games played back to back.
    fn check_with(&self, block: bool) -> Result<(), StatisticsContradiction> {
        use StatisticsContradiction as Contradiction;
        let height = self.board_height;
        if self.row_counts.len() != height || self.cell_counts.len() != height {
            return Err(Contradiction::Height { height });
        }
        let pieces = u128::from(self.pieces);
        let rows = total(&self.row_counts);
        if rows != pieces {
            return Err(Contradiction::RowSum {
                sum: rows,
                pieces: self.pieces,
            });
        }
        let columns = total(self.column_counts.iter().flatten());
        let columns_recorded = columns != 0 || pieces == 0;
        if columns_recorded && columns != pieces {
            return Err(Contradiction::ColumnSum {
                sum: columns,
                pieces: self.pieces,
            });
        }
        let cells = total(self.cell_counts.iter().flatten());
        if cells + u128::from(self.cells_above_top) != 4 * pieces {
            return Err(Contradiction::Cells {
                cells,
                lost: self.cells_above_top,
                pieces: self.pieces,
            });
        }
        let (lost, above) = (
            u128::from(self.cells_above_top),
            u128::from(self.pieces_above_top),
        );
        if !(above..=4 * above).contains(&lost) {
            return Err(Contradiction::CellsAboveTop {
                cells: self.cells_above_top,
                pieces: self.pieces_above_top,
            });
        }
        let row_0 = self.row_counts.first().copied().unwrap_or(0);
        if self.row_rule == RowRule::Top && self.pieces_above_top > row_0 {
            return Err(Contradiction::AboveTopNotInRow0 {
                above: self.pieces_above_top,
                row_0,
            });
        }
        for (row, (&counted, row_cells)) in
            self.row_counts.iter().zip(&self.cell_counts).enumerate()
        {
            // A piece counted in row r ≥ 0 has a cell there (its top cell, or its pivot),
            // unless it counts in row 0 from above the field.
            let mut counted = u128::from(counted);
            if row == 0 {
                counted = counted.saturating_sub(above);
            }
            let row_cells = total(row_cells);
            if counted > row_cells {
                return Err(Contradiction::RowWithoutCells {
                    row,
                    pieces: counted,
                    cells: row_cells,
                });
            }
        }
        if 10 * u128::from(self.lines) > cells {
            return Err(Contradiction::Lines {
                lines: self.lines,
                cells,
            });
        }
        let games_fit = self.games >= 1
            && self.game_overs <= self.games
            && (!block
                || (self.game_overs >= self.games - 1 && u128::from(self.games - 1) <= pieces));
        if !games_fit {
            return Err(Contradiction::Games {
                games: self.games,
                game_overs: self.game_overs,
                pieces: self.pieces,
            });
        }
        self.check_full_clears()?;
        if columns_recorded {
            self.check_geometry()?;
        }
        Ok(())
    }

    /// The full-clear rules of [`PieceStatistics::check`].
    fn check_full_clears(&self) -> Result<(), StatisticsContradiction> {
        let fail = |why| Err(StatisticsContradiction::FullClears(why));
        let intervals = &self.full_clear_intervals;
        if intervals.times(0) > 0 {
            return fail("an interval of 0 pieces");
        }
        let sum = intervals.sum();
        if sum > u128::from(self.pieces) {
            return fail("the intervals hold more pieces than were placed");
        }
        if 4 * sum > 10 * u128::from(self.lines) + u128::from(self.cells_above_top) {
            return fail("too few lines to empty the board so often");
        }
        let after_lost = u128::from(self.full_clears_after_lost_cells);
        if after_lost > u128::from(intervals.count())
            || after_lost > u128::from(self.pieces_above_top)
        {
            return fail("more full clears after lost cells than full clears or lost pieces");
        }
        let not_whole_rows: u128 = intervals
            .iter()
            .filter(|&(interval, _)| interval % 5 != 0)
            .map(|(_, times)| u128::from(times))
            .sum();
        if not_whole_rows > after_lost {
            return fail("an interval that is not a multiple of 5 without a lost cell");
        }
        Ok(())
    }

    /// The geometry rules of [`PieceStatistics::check`]: pivot columns and rows where the
    /// piece fits.
    fn check_geometry(&self) -> Result<(), StatisticsContradiction> {
        let height = self.board_height as i64;
        // Per piece type and orientation: the cells' offsets from the pivot.
        let offsets = |piece: Piece| {
            (0..piece.orientation_count()).map(move |rotation| piece.cells(rotation))
        };
        for piece in Piece::ALL {
            for (column, &count) in self.column_counts[piece.index()].iter().enumerate() {
                let fits = offsets(piece).any(|cells| {
                    cells.iter().all(|&(dx, _)| {
                        (0..WIDTH as i64).contains(&(column as i64 + i64::from(dx)))
                    })
                });
                if count > 0 && !fits {
                    return Err(StatisticsContradiction::Column {
                        piece: piece.letter(),
                        column,
                    });
                }
            }
        }
        // A piece counted in row r ≥ 1 has its pivot (or its top cell) in row r, so some
        // orientation must reach no lower than the floor from there; the lower the row, the
        // fewer types fit, so rows r and below hold at most the pieces of the types fitting
        // in row r.
        let fits_at = |piece: Piece, row: i64| {
            offsets(piece).any(|cells| {
                let low = cells
                    .iter()
                    .map(|&(_, dy)| i64::from(dy))
                    .max()
                    .unwrap_or(0);
                let high = cells
                    .iter()
                    .map(|&(_, dy)| i64::from(dy))
                    .min()
                    .unwrap_or(0);
                let reach = match self.row_rule {
                    RowRule::Pivot => low,
                    RowRule::Top => low - high,
                };
                row + reach < height
            })
        };
        let mut below = 0u128;
        for row in (1..self.row_counts.len()).rev() {
            below += u128::from(self.row_counts[row]);
            let fitting: u128 = Piece::ALL
                .into_iter()
                .filter(|&piece| fits_at(piece, row as i64))
                .map(|piece| total(&self.column_counts[piece.index()]))
                .sum();
            if below > fitting {
                return Err(StatisticsContradiction::RowsTooLow {
                    row,
                    pieces: below,
                    fitting,
                });
            }
        }
        Ok(())
    }
}

/// The rows the fit uses, top first: rows r with 1 ≤ r ≤ H − 5 (H = `row_counts.len()`),
/// r above the most common row (the first one, if tied), and at least `min_samples` pieces.
pub fn fit_rows(row_counts: &[u64], min_samples: u64) -> Vec<usize> {
    let mut most_common = 0;
    for (row, &count) in row_counts.iter().enumerate() {
        if count > row_counts[most_common] {
            most_common = row;
        }
    }
    let last = row_counts
        .len()
        .saturating_sub(5)
        .min(most_common.saturating_sub(1));
    (1..=last)
        .filter(|&row| row_counts[row] >= min_samples.max(1))
        .collect()
}

/// A straight line through log10(share) against row, and what it predicts.
#[derive(Clone, Debug, PartialEq)]
pub struct LogLinearFit {
    /// The rows fitted, top first.
    pub rows: Vec<usize>,
    /// The line's slope: log10(share) gained per row downwards.
    pub slope: f64,
    /// The line's value at row 0: log10 of the extrapolated top-row share.
    pub intercept: f64,
    /// The coefficient of determination, `1 − Σ residual² / Σ (log10 share − mean)²` (1 when
    /// every point lies on the line).
    pub r_squared: f64,
}

impl LogLinearFit {
    /// The per-row ratio `10^slope = share(row + 1) / share(row)`.
    pub fn ratio(&self) -> f64 {
        10f64.powf(self.slope)
    }

    /// The fitted share of `row`: `10^(intercept + slope × row)`.
    pub fn share_at(&self, row: f64) -> f64 {
        10f64.powf(self.intercept + self.slope * row)
    }

    /// The extrapolated share of pieces locking in row 0: `10^intercept`.
    pub fn top_row_share(&self) -> f64 {
        self.share_at(0.0)
    }

    /// Expected pieces until game over: `1 / top_row_share`.
    pub fn expected_pieces(&self) -> f64 {
        1.0 / self.top_row_share()
    }

    /// Expected lines until game over: `0.4 × expected_pieces`.
    pub fn expected_lines(&self) -> f64 {
        LINES_PER_PIECE * self.expected_pieces()
    }
}

/// Least squares of `log10(shares[i])` against `rows[i]`. `None` with fewer than two points,
/// a share that is not positive, or all points in one row.
pub fn fit_log_linear(rows: &[usize], shares: &[f64]) -> Option<LogLinearFit> {
    if rows.len() != shares.len() || rows.len() < 2 || shares.iter().any(|&share| share <= 0.0) {
        return None;
    }
    let count = rows.len() as f64;
    let mean_row = rows.iter().map(|&row| row as f64).sum::<f64>() / count;
    let mean_log = shares.iter().map(|share| share.log10()).sum::<f64>() / count;
    let mut row_spread = 0.0;
    let mut covariance = 0.0;
    for (&row, &share) in rows.iter().zip(shares) {
        let row_offset = row as f64 - mean_row;
        row_spread += row_offset * row_offset;
        covariance += row_offset * (share.log10() - mean_log);
    }
    if row_spread == 0.0 {
        return None;
    }
    let slope = covariance / row_spread;
    let intercept = mean_log - slope * mean_row;
    let mut residual_sum = 0.0;
    let mut total_sum = 0.0;
    for (&row, &share) in rows.iter().zip(shares) {
        let log = share.log10();
        let residual = log - (intercept + slope * row as f64);
        residual_sum += residual * residual;
        total_sum += (log - mean_log) * (log - mean_log);
    }
    let r_squared = if total_sum == 0.0 {
        1.0
    } else {
        1.0 - residual_sum / total_sum
    };
    Some(LogLinearFit {
        rows: rows.to_vec(),
        slope,
        intercept,
        r_squared,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::assert_close;
    use tetris_core::Piece;
    use tetris_core::PieceState;

    #[test]
    fn the_fit_recovers_a_geometric_law() {
        // share(row) = a · r^(H − 1 − row) with a = 0.3, r = 0.25, H = 20: log10 share =
        // log10 a + (19 − row) log10 r, so slope = −log10 r (ratio 1/r = 4) and intercept =
        // log10 a + 19 log10 r; the top-row share is a · r^19.
        let (a, r) = (0.3f64, 0.25f64);
        let rows: Vec<usize> = (3..=15).collect();
        let shares: Vec<f64> = rows
            .iter()
            .map(|&row| a * r.powi(19 - row as i32))
            .collect();
        let fit = fit_log_linear(&rows, &shares).unwrap();
        assert_close(fit.ratio(), 4.0, 0.01);
        assert_close(fit.intercept, a.log10() + 19.0 * r.log10(), 0.01);
        assert_close(fit.top_row_share(), a * r.powi(19), 0.01);
        assert_close(fit.expected_pieces(), 1.0 / (a * r.powi(19)), 0.01);
        assert_close(fit.expected_lines(), 0.4 / (a * r.powi(19)), 0.01);
        assert_close(fit.r_squared, 1.0, 1e-12);
        assert_eq!(fit.rows, rows);
    }

    #[test]
    fn the_fit_of_three_points_worked_by_hand() {
        // Rows 1, 2, 3 with log10 shares 1, 2, 2 (shares 10, 100, 100): mean row 2, mean log
        // 5/3; slope = Σ(dx·dy)/Σdx² = (−1·−2/3 + 1·1/3)/2 = 1/2; intercept = 5/3 − 1 = 2/3.
        // Fitted 7/6, 5/3, 13/6: residuals −1/6, 1/3, −1/6, Σ² = 1/6; Σ(y − mean)² = 2/3;
        // R² = 1 − (1/6)/(2/3) = 3/4.
        let fit = fit_log_linear(&[1, 2, 3], &[10.0, 100.0, 100.0]).unwrap();
        assert_close(fit.slope, 0.5, 1e-12);
        assert_close(fit.intercept, 2.0 / 3.0, 1e-12);
        assert_close(fit.r_squared, 0.75, 1e-12);
        assert_close(fit.ratio(), 10f64.sqrt(), 1e-12);
        assert!(fit_log_linear(&[1], &[0.5]).is_none());
        assert!(fit_log_linear(&[1, 2], &[0.5, 0.0]).is_none());
        assert!(fit_log_linear(&[4, 4], &[0.5, 0.25]).is_none());
    }

    #[test]
    fn fit_rows_drop_the_ceiling_the_floor_and_thin_rows() {
        // H = 10: rows 1 to H − 5 = 5 are candidates, the most common row is 8; row 2 has
        // 19 < 20 pieces.
        let counts = [100, 50, 19, 20, 300, 400, 500, 900, 1000, 800];
        assert_eq!(fit_rows(&counts, 20), vec![1, 3, 4, 5]);
        // The most common row 4 (first of the tie with row 6) leaves rows 1 to 3.
        let counts = [100, 50, 60, 70, 400, 300, 400, 20, 20, 20];
        assert_eq!(fit_rows(&counts, 20), vec![1, 2, 3]);
        assert_eq!(fit_rows(&[0; 4], 20), Vec::<usize>::new());
    }

    #[test]
    fn five_o_pieces_on_the_floor_make_one_full_clear() {
        // O pivots at x = 0, 2, 4, 6, 8 with cells (x, y) … (x + 1, y + 1): pivot row H − 2
        // puts each on the bottom two rows; together they fill both, which then clear.
        let mut statistics = PieceStatistics::new(20, RowRule::Top);
        statistics.start_game();
        let mut board = Board::new(20).unwrap();
        let rotation = 0;
        let cells = Piece::O.cells(rotation);
        let min_dx = cells.iter().map(|cell| cell.0).min().unwrap();
        let max_dy = cells.iter().map(|cell| cell.1).max().unwrap();
        for (index, left) in [0i8, 2, 4, 6, 8].into_iter().enumerate() {
            let x = left - min_dx;
            let y = 19 - max_dy;
            let outcome = board.lock(Piece::O, PieceState { x, y, rotation });
            statistics.record(
                &PlayedPlacement {
                    piece: Piece::O,
                    x,
                    y,
                    rotation,
                    cleared: outcome.rows_cleared,
                    path: None,
                    evaluation: None,
                },
                &board,
            );
            let expected: &[u64] = if index == 4 { &[5] } else { &[] };
            assert_eq!(
                statistics.full_clear_intervals,
                ValueCounts::of(expected.iter().copied())
            );
        }
        assert_eq!(statistics.lines, 2);
        // Every O's top cell is in row 18; the bottom two rows got 10 cells each.
        assert_eq!(statistics.row_counts[18], 5);
        assert_eq!(statistics.cell_counts[18], [1; 10]);
        assert_eq!(statistics.cell_counts[19], [1; 10]);
        assert_eq!(statistics.full_clear_histogram(), vec![(5, 1)]);
    }
    /// Locks `piece` at (x, y, rotation) on `board` and records it in both `statistics`.
    fn lock_and_record(
        board: &mut Board,
        statistics: &mut [PieceStatistics],
        (piece, x, y, rotation): (Piece, i8, i8, u8),
    ) {
        let outcome = board.lock(piece, PieceState { x, y, rotation });
        for statistics in statistics.iter_mut() {
            statistics.record(
                &PlayedPlacement {
                    piece,
                    x,
                    y,
                    rotation,
                    cleared: outcome.rows_cleared,
                    path: None,
                    evaluation: None,
                },
                board,
            );
        }
    }

    #[test]
    fn the_pivot_row_and_the_top_row_of_a_hand_worked_game() {
        // On an empty 10 × 20 field (docs/spec/rules.md's cells, +y down):
        // 1. a vertical I (rotation 1: dy −2 … 1) with its pivot at (0, 18) covers rows 16–19
        //    of column 0: pivot row 18, top row 16 (two rows apart);
        // 2. a T pointing up (rotation 2: dy −1, 0) with its pivot at (2, 19) covers row 19,
        //    columns 1–3, and (2, 18): pivot row 19, top row 18 (one apart);
        // 3. an O (dy 0, 1) with its pivot at (5, 18) covers rows 18–19 of columns 4–5:
        //    pivot row 18 = top row;
        // 4. a second vertical I with its pivot at (9, 18), rows 16–19 of column 9: pivot row
        //    18, top row 16.
        // No row is full, so nothing clears.
        let mut statistics = [
            PieceStatistics::new(20, RowRule::Pivot),
            PieceStatistics::new(20, RowRule::Top),
        ];
        lock_the_hand_worked_pieces(&mut statistics);
        let [pivot, top] = statistics;
        assert_eq!(pivot.lines, 0);
        let mut expected_pivot = vec![0u64; 20];
        expected_pivot[18] = 3; // both I and the O
        expected_pivot[19] = 1; // the T
        assert_eq!(pivot.row_counts, expected_pivot);
        let mut expected_top = vec![0u64; 20];
        expected_top[16] = 2; // both I
        expected_top[18] = 2; // the T and the O
        assert_eq!(top.row_counts, expected_top);
        // Summed over the pieces, the pivot rows lie 2 + 1 + 0 + 2 = 5 rows below the tops.
        let row_sum = |counts: &[u64]| -> u64 {
            counts
                .iter()
                .enumerate()
                .map(|(row, &n)| row as u64 * n)
                .sum()
        };
        assert_eq!(row_sum(&pivot.row_counts) - row_sum(&top.row_counts), 5);
        // Columns are the pivot's whatever the row rule: I in 0 and 9, T in 2, O in 5.
        assert_eq!(pivot.column_counts, top.column_counts);
        let mut expected_columns = [[0u64; WIDTH]; PIECE_TYPES];
        expected_columns[Piece::I.index()][0] = 1;
        expected_columns[Piece::I.index()][9] = 1;
        expected_columns[Piece::T.index()][2] = 1;
        expected_columns[Piece::O.index()][5] = 1;
        assert_eq!(pivot.column_counts, expected_columns);
        let shares = pivot.column_shares();
        assert_eq!(shares[Piece::I.index()][0], 0.5);
        assert_eq!(shares[Piece::I.index()][9], 0.5);
        assert_eq!(shares[Piece::T.index()][2], 1.0);
        // Each piece type that came has shares summing to 1; the others are all 0.
        for (piece, shares) in shares.iter().enumerate() {
            let sum: f64 = shares.iter().sum();
            let came = [Piece::I, Piece::T, Piece::O]
                .iter()
                .any(|p| p.index() == piece);
            assert_eq!(sum, if came { 1.0 } else { 0.0 }, "piece {piece}");
        }
        // Merging keeps the rule and adds the columns.
        let mut merged = PieceStatistics::new(20, RowRule::Pivot);
        merged.merge(&pivot);
        merged.merge(&pivot);
        assert_eq!(merged.column_counts[Piece::I.index()][9], 2);
        assert_eq!(merged.row_counts[18], 6);
    }

    /// Locks the hand-worked game's pieces (I, T, O, I on an empty 10 × 20 board, nothing
    /// cleared) and records them in `statistics`.
    fn lock_the_hand_worked_pieces(statistics: &mut [PieceStatistics; 2]) {
        let mut board = Board::new(20).unwrap();
        for placement in [
            (Piece::I, 0, 18, 1),
            (Piece::T, 2, 19, 2),
            (Piece::O, 5, 18, 0),
            (Piece::I, 9, 18, 1),
        ] {
            lock_and_record(&mut board, statistics, placement);
        }
    }

    #[test]
    fn recorded_statistics_pass_their_check_and_edited_ones_do_not() {
        // The hand-worked game above (I, T, O, I on 10 × 20, nothing cleared), one game.
        let mut statistics = [
            PieceStatistics::new(20, RowRule::Pivot),
            PieceStatistics::new(20, RowRule::Top),
        ];
        statistics.iter_mut().for_each(PieceStatistics::start_game);
        lock_the_hand_worked_pieces(&mut statistics);
        let [pivot, top] = statistics;
        assert_eq!(pivot.check(), Ok(()));
        assert_eq!(top.check(), Ok(()));
        // An O's cells are its pivot column and the one left of it: never column 0.
        let mut edited = pivot.clone();
        edited.column_counts[Piece::O.index()][5] = 0;
        edited.column_counts[Piece::O.index()][0] = 1;
        assert_eq!(
            edited.check(),
            Err(StatisticsContradiction::Column {
                piece: 'O',
                column: 0
            })
        );
        // With the pivot on the bottom row only T, J, L and I fit (each has an orientation with
        // no cell below its pivot); this game has one T and two I, so four pieces there
        // (the O moved down with the I) cannot be.
        let mut edited = pivot.clone();
        edited.row_counts[18] = 0;
        edited.row_counts[19] = 4;
        assert_eq!(
            edited.check(),
            Err(StatisticsContradiction::RowsTooLow {
                row: 19,
                pieces: 4,
                fitting: 3
            })
        );
        // Sixteen cells: 15 on the field and one more above it is 17.
        let mut edited = top.clone();
        edited.cells_above_top = 1;
        edited.pieces_above_top = 1;
        assert_eq!(
            edited.check(),
            Err(StatisticsContradiction::Cells {
                cells: 16,
                lost: 1,
                pieces: 4
            })
        );
        // One line takes 10 of the 16 cells; two take 20.
        let mut edited = top.clone();
        edited.lines = 2;
        assert_eq!(
            edited.check(),
            Err(StatisticsContradiction::Lines {
                lines: 2,
                cells: 16
            })
        );
        // A full clear after 4 pieces of 4 cells each, none lost: 16 cells are not whole rows.
        let mut edited = top;
        edited.lines = 1;
        edited.full_clear_intervals = ValueCounts::of([4]);
        assert_eq!(
            edited.check(),
            Err(StatisticsContradiction::FullClears(
                "too few lines to empty the board so often"
            ))
        );
        // A full clear one piece after the last, one line since: 4 cells are no whole row.
        edited.full_clear_intervals = ValueCounts::of([1]);
        assert_eq!(
            edited.check(),
            Err(StatisticsContradiction::FullClears(
                "an interval that is not a multiple of 5 without a lost cell"
            ))
        );
    }

    #[test]
    fn row_rules_parse_by_name_and_default_to_the_pivot() {
        assert_eq!(RowRule::default(), RowRule::Pivot);
        assert_eq!("pivot".parse::<RowRule>(), Ok(RowRule::Pivot));
        assert_eq!("top".parse::<RowRule>(), Ok(RowRule::Top));
        assert!(
            "bottom"
                .parse::<RowRule>()
                .unwrap_err()
                .contains("pivot or top")
        );
        assert_eq!(RowRule::Top.to_string(), "top");
    }

    #[test]
    fn a_piece_sticking_out_above_the_field_counts_in_row_0() {
        // A vertical I (rotation 1) spans 4 rows; placed with its top cell in row −1 it
        // covers rows −1 to 2 of one column: one cell lost above the field, three on it.
        let mut statistics = PieceStatistics::new(6, RowRule::Top);
        statistics.start_game();
        let mut board = Board::new(6).unwrap();
        let rotation = 1;
        let cells = Piece::I.cells(rotation);
        assert!(cells.iter().all(|cell| cell.0 == cells[0].0), "vertical");
        let top = cells.iter().map(|cell| cell.1).min().unwrap();
        let (x, y) = (4 - cells[0].0, -1 - top);
        let outcome = board.lock(Piece::I, PieceState { x, y, rotation });
        statistics.record(
            &PlayedPlacement {
                piece: Piece::I,
                x,
                y,
                rotation,
                cleared: outcome.rows_cleared,
                path: None,
                evaluation: None,
            },
            &board,
        );
        assert_eq!(statistics.row_counts, [1, 0, 0, 0, 0, 0]);
        assert_eq!(statistics.pieces_above_top, 1);
        assert_eq!(statistics.cells_above_top, 1);
        for row in 0..6 {
            let expected = if row < 3 { 1 } else { 0 };
            assert_eq!(statistics.cell_counts[row][4], expected, "row {row}");
        }
        assert_eq!(statistics.row_shares()[0], 1.0);
        // Three cells counted on the field: each has a third of them.
        assert_eq!(statistics.cell_shares()[1][4], 1.0 / 3.0);
    }

    #[test]
    fn the_row_rule_parses_its_two_names() {
        assert_eq!(row_rule("top").unwrap(), RowRule::Top);
        assert_eq!(row_rule("pivot").unwrap(), RowRule::Pivot);
        assert_eq!(
            row_rule("x").unwrap_err().to_string(),
            "--row: unknown row rule \"x\": use pivot or top"
        );
    }

    #[test]
    fn full_clear_intervals_are_read_as_counts_or_as_the_list_files_held_before() {
        let mut statistics = PieceStatistics::new(4, RowRule::Pivot);
        statistics.full_clear_intervals = ValueCounts::of([10, 5, 10]);
        let mut json = serde_json::to_value(&statistics).unwrap();
        assert_eq!(
            json["full_clear_intervals"],
            serde_json::json!([[5, 1], [10, 2]])
        );
        let read: PieceStatistics = serde_json::from_value(json.clone()).unwrap();
        assert_eq!(read.full_clear_intervals, statistics.full_clear_intervals);
        // The list of every interval, as parts written before kept it.
        json["full_clear_intervals"] = serde_json::json!([10, 5, 10]);
        let read: PieceStatistics = serde_json::from_value(json).unwrap();
        assert_eq!(read.full_clear_intervals, statistics.full_clear_intervals);
    }
}
