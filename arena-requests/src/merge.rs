//! The request for a merge of a sharded run's parts (`arena merge`): the parts, read and
//! merged ([`tetris_arena_runs::shard`] checks they are every shard of one run), and where the
//! unsharded run's outputs go.

use std::path::PathBuf;

use crate::error::ArenaError;
use crate::nes::NesRequest;
use tetris_arena_games::analysis::pieces::PieceStatistics;
use tetris_arena_games::sim::nes::NesRunSettings;
use tetris_arena_io::Field;
use tetris_arena_io::output::{ResultsDestination, check_output_folder};
use tetris_arena_jobs::JobFiles;
use tetris_arena_jobs::frameless_game_over_rule;
use tetris_arena_reports::stats::is_stats_output;
use tetris_arena_runs::RunError;
use tetris_arena_runs::nes::NesRun;
use tetris_arena_runs::shard::kinds::NesPartSettings;
use tetris_arena_runs::shard::{Merged, Part, merge_part_files};
use tetris_arena_runs::statistics::StatisticsSettings;
use tetris_arena_runs::tournament::{TournamentRun, TournamentSettings};

/// A merge: the part files, and the outputs of the run they make up.
#[derive(Clone, Debug)]
pub struct MergeRequest {
    /// The part files, in any order.
    pub parts: Vec<PathBuf>,
    /// The unsharded run's `--out`: a results file (tournament, nes) or a folder (stats).
    pub out: Option<PathBuf>,
    /// The plots folder (tournament parts run with plots only).
    pub plots: Option<PathBuf>,
    /// Print JSON instead of text.
    pub json: bool,
}

/// A rule of a merge that the request breaks.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MergeRequestError {
    /// Plots asked of parts that are not a tournament's.
    #[error(
        "merge: --plots applies to tournament parts only, these are {command} parts{}",
        if *command == "stats" { " (stats plots go to --out DIR)" } else { "" }
    )]
    PlotsOfOtherParts {
        /// The parts' command.
        command: &'static str,
    },
    /// Plots asked of a tournament's parts that hold no piece statistics.
    #[error(
        "merge: --plots needs parts of a tournament run with --plots (they hold the games' \
         piece statistics)"
    )]
    PlotsWithoutStatistics,
    /// A CSV of games asked of parts that hold only their summaries.
    #[error(
        "merge: --out FILE.csv or FILE.jsonl lists every game, and these parts hold only their \
         games' summaries (a shard of more than 100,000 games keeps no list): write --out \
         FILE.json"
    )]
    GamesOfSummaries,
}

/// Checks the settings of the merged run with the check of the command that writes its
/// parts, so that parts no run could write are refused as the command would refuse the run:
/// an NES run's through [`NesRequest::run_settings`], and they must be what that check
/// derives (whether the searcher ignores gravity); a tournament's game-over rule through
/// [`frameless_game_over_rule`] and its generator's preview through
/// [`tetris_core::GeneratorKind::check_preview`], as `arena tournament` checks them (its other
/// rules build the strategies, which reads their weights files: a merge reads only parts). A
/// statistics run's settings are checked by that command's own check as each part is read.
/// Every part holds the same settings (the merge checked it), so the fault is named in
/// `part`, the first.
fn check_run_settings(part: &std::path::Path, merged: &Merged) -> Result<(), RunError> {
    let refused =
        |message: String| RunError::Refused(format!("merge: {}: {message}", part.display()));
    match merged {
        Merged::Nes { settings, .. } => {
            let checked = NesRequest::of_settings(settings)
                .and_then(|request| request.run_settings())
                .map_err(|error| refused(format!("arena nes refuses its settings: {error}")))?;
            let (written, read) = (
                serde_json::to_value(NesPartSettings::of(&checked)),
                serde_json::to_value(NesPartSettings::of(settings)),
            );
            if let (Ok(serde_json::Value::Object(written)), Ok(read)) = (written, read) {
                if let Some((field, value)) = written
                    .iter()
                    .find(|(field, value)| read.get(field.as_str()) != Some(value))
                {
                    return Err(refused(format!(
                        "settings.{field} is {}, but arena nes records {value} for these settings",
                        read.get(field.as_str())
                            .map_or("missing".into(), |value| value.to_string())
                    )));
                }
            }
        }
        Merged::Tournament { settings, .. } => {
            frameless_game_over_rule(Some(settings.game_over_rule), &settings.specs).map_err(
                |error| {
                    refused(format!(
                        "settings.game_over_rule: arena tournament refuses it: {error}"
                    ))
                },
            )?;
            for spec in &settings.specs {
                settings
                    .generator
                    .check_preview(spec.depth)
                    .map_err(|error| {
                        refused(format!(
                            "settings.generator: arena tournament refuses it for {spec}: {error}"
                        ))
                    })?;
            }
        }
        Merged::Stats { .. } => {}
    }
    Ok(())
}

/// A merge request, checked: the whole run, merged, with where its report goes.
pub enum CheckedMerge {
    /// A tournament.
    Tournament {
        /// Its settings.
        settings: TournamentSettings,
        /// Its games' summaries, and the games when every part held them.
        run: TournamentRun,
        /// The results file and the form printed.
        destination: ResultsDestination,
    },
    /// An NES run.
    Nes {
        /// Its settings.
        settings: NesRunSettings,
        /// Its games' summary, and the games when every part held them.
        run: Box<NesRun>,
        /// The results file and the form printed.
        destination: ResultsDestination,
    },
    /// A statistics run (its `--out` is a folder: [`MergeRequest::out`]).
    Stats {
        /// The strategy's name.
        strategy: String,
        /// Its settings.
        settings: StatisticsSettings,
        /// The blocks' statistics, merged (boxed: the other results are small).
        statistics: Box<PieceStatistics>,
    },
}

impl MergeRequest {
    /// Checks that no output is a part (or holds one), reads and merges the parts, then checks
    /// that the outputs suit what they are: plots only of a tournament run with plots, a
    /// results file for tournament and NES runs, an output folder for statistics runs.
    pub fn check(&self) -> Result<CheckedMerge, ArenaError> {
        self.parts
            .iter()
            .fold(JobFiles::default(), |files, part| {
                files.input("part file", part)
            })
            .output(Field::OUT, self.out.as_deref())
            .output(Field::PLOTS, self.plots.as_deref())
            .check()?;
        // Read one at a time: the merge keeps each part's summary, not the part.
        let parts = self
            .parts
            .iter()
            .map(|path| Ok((path.clone(), Part::read(path)?)));
        let plots_of = |command| match self.plots {
            Some(_) => Err(MergeRequestError::PlotsOfOtherParts { command }),
            None => Ok(()),
        };
        // The results file of a run whose games the parts hold (`holds_games`) or not: a CSV
        // lists every game.
        let destination = |holds_games: bool| -> Result<ResultsDestination, ArenaError> {
            let destination = ResultsDestination::check(self.out.as_deref(), self.json)?;
            if destination.games_file().is_some() && !holds_games {
                return Err(MergeRequestError::GamesOfSummaries.into());
            }
            Ok(destination)
        };
        let merged = merge_part_files(parts)?;
        if let Some(first) = self.parts.first() {
            check_run_settings(first, &merged)?;
        }
        Ok(match merged {
            Merged::Tournament { settings, run } => {
                if self.plots.is_some() && !settings.piece_statistics {
                    return Err(MergeRequestError::PlotsWithoutStatistics.into());
                }
                let destination = destination(run.games.is_some())?;
                CheckedMerge::Tournament {
                    settings,
                    run,
                    destination,
                }
            }
            Merged::Nes { settings, run } => {
                plots_of("nes")?;
                let destination = destination(run.games.is_some())?;
                CheckedMerge::Nes {
                    settings,
                    run,
                    destination,
                }
            }
            Merged::Stats {
                strategy,
                settings,
                statistics,
            } => {
                plots_of("stats")?;
                if let Some(folder) = &self.out {
                    check_output_folder(Field::OUT, folder, is_stats_output)?;
                }
                CheckedMerge::Stats {
                    strategy,
                    settings,
                    statistics,
                }
            }
        })
    }
}
