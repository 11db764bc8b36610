//! `tetris-arena-jobs`: the jobs of one position or one game — their typed requests and ONE
//! check each, the rules every request shares, and the same jobs as JSON (`api`).
//!
//! A front end (the `arena` command line, the Python package, the move server, the browser
//! page) builds a request from its own input, calls the request's `check`, runs what the
//! check returns, and prints or converts the result. The check holds every rule of the job,
//! so no front end carries a copy of a rule and the same mistake gives the same message
//! everywhere.
//!
//! - [`game`]: one frame-less game (`arena play`, Python `play`, the page's games);
//! - [`analyze`]: one position (`arena analyze`, Python `analyze`, `/v1/analyze`);
//! - [`sequence`]: a generator's pieces (`arena sequence`, Python `sequence`);
//! - [`serve`]: the rules of jobs served over HTTP (no files read, boards as rows or cells);
//! - [`api`] (feature `api`): the jobs as JSON bodies and answers, shared by the move server
//!   and the browser page;
//! - [`game_report`] and [`list`]: the JSON and text of one game and of the engine list.
//!
//! This crate stands on the games (`tetris-arena-games`) and the values and files
//! (`tetris-arena-io`); it runs no tournament and writes no report of many games, so the
//! browser page builds on it without the runner's threads or the reports' plots. The runs of
//! many games and their requests are `tetris-arena-requests`', above the runner and reports.
#![deny(missing_docs)]

pub mod analyze;
#[cfg(feature = "api")]
pub mod api;
pub mod error;
pub mod game;
pub mod game_report;
pub mod list;
pub mod sequence;
pub mod serve;

use std::path::{Path, PathBuf};

use thiserror::Error as ThisError;

use tetris_core::{GameOverRule, GeneratorKind};
use tetris_registry::{Strategy, StrategySpec, WeightsChoice};

use tetris_arena_io::Field;
use tetris_arena_io::output::{FileName, OutputError, check_distinct};

pub use error::JobError;

/// The files one job reads and writes, named as its messages name them, for the one rule
/// they share: the outputs are distinct files and none is an input
/// ([`tetris_arena_io::output::check_distinct`], by device and inode). Each request's check lists its
/// own and calls [`JobFiles::check`].
#[derive(Clone, Debug, Default)]
pub struct JobFiles {
    outputs: Vec<(Field, PathBuf)>,
    inputs: Vec<(&'static str, PathBuf)>,
}

impl JobFiles {
    /// Adds the output of `option`, when given.
    pub fn output(mut self, option: Field, path: Option<&Path>) -> JobFiles {
        if let Some(path) = path {
            self.outputs.push((option, path.to_path_buf()));
        }
        self
    }

    /// Adds an input (`name` as messages say it: `replay file`, `part file`, …).
    pub fn input(mut self, name: &'static str, path: &Path) -> JobFiles {
        self.inputs.push((name, path.to_path_buf()));
        self
    }

    /// Adds the files a strategy reads: its weights file and its `pattern=FILE`.
    pub fn strategy(mut self, spec: &StrategySpec) -> JobFiles {
        if let WeightsChoice::File(path) = &spec.weights {
            self.inputs.push(("weights file", PathBuf::from(path)));
        }
        if let Some(path) = &spec.options.pattern {
            self.inputs.push(("pattern file", PathBuf::from(path)));
        }
        self
    }

    /// Adds the piece file of a `file:PATH` generator.
    pub fn generator(mut self, generator: &GeneratorKind) -> JobFiles {
        if let GeneratorKind::File(path) = generator {
            self.inputs.push(("piece file", PathBuf::from(path)));
        }
        self
    }

    /// Checks that the outputs are distinct files and none is an input.
    pub fn check(&self) -> Result<(), OutputError> {
        let outputs: Vec<(FileName, &Path)> = self
            .outputs
            .iter()
            .map(|(field, path)| (FileName::Field(*field), path.as_path()))
            .collect();
        let inputs: Vec<(FileName, &Path)> = self
            .inputs
            .iter()
            .map(|(what, path)| (FileName::What(what), path.as_path()))
            .collect();
        check_distinct(&outputs, &inputs)
    }
}

/// A request whose values are each fine but that breaks a rule of its job.
#[derive(Debug, Clone, PartialEq, ThisError)]
pub enum RequestError {
    /// A frame-less game asked for a rule that needs the NES frame model.
    #[error("{field}: {0}", field = Field::GAME_OVER)]
    NeedsFrameModel(tetris_core::Error),
    /// Strategies whose searchers default to different game-over rules, with none chosen.
    #[error(
        "{first} plays under the {first_rule} game-over rule by default and {other} under the \
         {other_rule} rule: choose one for all with {choice}",
        choice = Field::GAME_OVER.given("simulation|literature")
    )]
    MixedGameOverRules {
        /// The first strategy's name.
        first: String,
        /// Its default rule.
        first_rule: GameOverRule,
        /// The first strategy whose default differs.
        other: String,
        /// That strategy's default rule.
        other_rule: GameOverRule,
    },
    /// The same strategy listed twice in a comparison.
    #[error("strategy {0} is listed twice: a strategy compared with itself tells nothing")]
    ListedTwice(String),
    /// Two strategies, named differently, that play alike.
    #[error(
        "strategies {earlier} and {later} are the same strategy (same searcher, weights, \
         options and depth): a strategy compared with itself tells nothing"
    )]
    PlaysAlike {
        /// The one listed first.
        earlier: String,
        /// The one listed later.
        later: String,
    },
    /// A comparison of no strategy.
    #[error("a tournament needs at least one strategy")]
    NoStrategy,
    /// An option given without the one it works with.
    #[error("{option} needs {needs}")]
    Needs {
        /// The option given.
        option: Field,
        /// What it needs.
        needs: Needed,
    },
}

/// What an option needs ([`RequestError::Needs`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Needed {
    /// Another field.
    Field(Field),
    /// Either of two fields, and why.
    EitherOf(Field, Field, &'static str),
    /// Something said in words.
    Words(&'static str),
}

impl std::fmt::Display for Needed {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Needed::Field(field) => field.fmt(formatter),
            Needed::EitherOf(first, second, why) => write!(formatter, "{first} or {second} {why}"),
            Needed::Words(words) => formatter.write_str(words),
        }
    }
}

/// The game-over rule of frame-less games of `specs` (one strategy, or a tournament's):
/// `explicit` (`--game-over`) when given, else the rule their searchers default to
/// (`simulation` for the searchers that start at the spawn, `literature` for `drop`).
/// Strategies whose defaults differ must be given one rule explicitly, so that a comparison
/// never mixes rules without saying so. These games have no frames, so a rule that needs the
/// NES frame model (the console's) is refused.
pub fn frameless_game_over_rule(
    explicit: Option<GameOverRule>,
    specs: &[StrategySpec],
) -> Result<GameOverRule, RequestError> {
    if let Some(rule) = explicit {
        return rule
            .check_frameless()
            .map_err(RequestError::NeedsFrameModel);
    }
    let mut defaults = specs
        .iter()
        .map(|spec| (spec, spec.default_game_over_rule()));
    let Some((first, first_rule)) = defaults.next() else {
        return Ok(GameOverRule::default());
    };
    match defaults.find(|&(_, other)| other != first_rule) {
        None => Ok(first_rule),
        Some((other, other_rule)) => Err(RequestError::MixedGameOverRules {
            first: first.to_string(),
            first_rule,
            other: other.to_string(),
            other_rule,
        }),
    }
}

/// The strategies of a comparison, in the order given.
pub struct DistinctStrategies {
    /// Their specs.
    pub specs: Vec<StrategySpec>,
    /// Their canonical names.
    pub names: Vec<String>,
    /// The strategies, built.
    pub strategies: Vec<Strategy>,
}

/// The strategies of a comparison, built once each (which rejects unknown presets and bad
/// weights files before any game) and checked pairwise: no strategy twice, and no two that
/// play alike under different names (`bfs+elashi` and `bfs+elashi:published`). Their specs,
/// canonical names and built strategies, in the order given.
pub fn distinct_strategies(names: &[String]) -> Result<DistinctStrategies, JobError> {
    if names.is_empty() {
        return Err(RequestError::NoStrategy.into());
    }
    let mut specs: Vec<StrategySpec> = Vec::with_capacity(names.len());
    let mut canonical: Vec<String> = Vec::with_capacity(names.len());
    let mut strategies: Vec<Strategy> = Vec::with_capacity(names.len());
    for text in names {
        let spec: StrategySpec = text.parse()?;
        let strategy = Strategy::new(spec.clone())?;
        let name = spec.to_string();
        if let Some(earlier) = strategies
            .iter()
            .position(|earlier| earlier.plays_like(&strategy))
        {
            let earlier = canonical[earlier].clone();
            return Err(match earlier == name {
                true => RequestError::ListedTwice(name),
                false => RequestError::PlaysAlike {
                    earlier,
                    later: name,
                },
            }
            .into());
        }
        strategies.push(strategy);
        canonical.push(name);
        specs.push(spec);
    }
    Ok(DistinctStrategies {
        specs,
        names: canonical,
        strategies,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The message of an error that must be one.
    fn error_of<T>(result: Result<T, JobError>) -> String {
        match result {
            Ok(_) => panic!("expected an error"),
            Err(error) => error.to_string(),
        }
    }

    fn specs(names: &[&str]) -> Vec<StrategySpec> {
        names.iter().map(|name| name.parse().unwrap()).collect()
    }

    #[test]
    fn the_game_over_rule_is_explicit_or_the_searchers_common_default() {
        let spawn_based = specs(&["bfs+elashi", "column-drop+dellacherie"]);
        assert_eq!(
            frameless_game_over_rule(None, &spawn_based).unwrap(),
            GameOverRule::Simulation
        );
        assert_eq!(
            frameless_game_over_rule(Some(GameOverRule::Literature), &spawn_based).unwrap(),
            GameOverRule::Literature
        );
        let message = frameless_game_over_rule(Some(GameOverRule::Console), &spawn_based)
            .unwrap_err()
            .to_string();
        assert!(message.contains("needs the NES frame model"), "{message}");
        let mixed = specs(&["bfs+elashi", "drop+elashi"]);
        assert_eq!(
            frameless_game_over_rule(None, &mixed)
                .unwrap_err()
                .to_string(),
            "bfs+elashi plays under the simulation game-over rule by default and drop+elashi \
             under the literature rule: choose one for all with --game-over \
             simulation|literature"
        );
    }

    #[test]
    fn strategies_that_play_alike_are_refused_whatever_their_names() {
        let names = |list: &[&str]| -> Vec<String> { list.iter().map(|s| s.to_string()).collect() };
        let Ok(distinct) = distinct_strategies(&names(&["bfs+elashi", "bfs+dellacherie"])) else {
            panic!("two different strategies are distinct");
        };
        assert_eq!(distinct.names, ["bfs+elashi", "bfs+dellacherie"]);
        assert_eq!(
            error_of(distinct_strategies(&names(&[
                "bfs+elashi",
                "bfs+elashi:published"
            ]))),
            "strategies bfs+elashi and bfs+elashi:published are the same strategy (same \
             searcher, weights, options and depth): a strategy compared with itself tells \
             nothing"
        );
        assert_eq!(
            error_of(distinct_strategies(&names(&["bfs+elashi", "bfs+elashi"]))),
            "strategy bfs+elashi is listed twice: a strategy compared with itself tells nothing"
        );
        assert_eq!(
            error_of(distinct_strategies(&[])),
            "a tournament needs at least one strategy"
        );
    }
}
