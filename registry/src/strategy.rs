//! Strategies by name: `SEARCHER+EVALUATOR[:PRESET|:weights.json][,OPTION…][@DEPTH]`.
//!
//! A strategy is a searcher, an evaluator (with its weights), the lookahead chain's options and
//! a lookahead depth (1 = the current piece only, 2 = current + one preview piece, …). After
//! `:` a value ending in `.json` (or containing a path separator) is a weights file, anything
//! else a preset name; [`EvaluatorSpec`] (an evaluator alone, as `arena features --eval` takes
//! it) parses that part with the same rule.
//!
//! # Options
//!
//! Comma-separated after the evaluator part, before the depth ([`StrategyOptions`], the chain
//! options of docs/spec/search.md §4 that `tetris_core::ChainOptions` implements):
//!
//! | option | meaning |
//! |---|---|
//! | `no-suicide` | never play a placement that ends the game under the game's rule while another exists |
//! | `expectimax` | after the known pieces, average over the 7 possible unknown pieces |
//! | `expectimax=K` | the same for the K first placements (1..=255) whose chains are best without it (the "finalists"), the others dropped |
//! | `prefer-bonus=B` | with `expectimax`: in the average, an unknown piece whose best chain the evaluator prefers counts its cost minus B (1..=10000) |
//! | `playouts=N` | with `expectimax=K`: each finalist's cost also weighs N playouts (1..=64) of 6 random pieces after its best chain (`tetris_core::Playouts::new`) |
//! | `extra-deep-wells=W` | with `nes-plateau`: every deep well beyond the first costs W more (1..=1000) |
//! | `overdeep-wells=W` | with `nes-plateau`: every open well cell beyond the 4th of its column costs W more (1..=1000) |
//! | `well` or `well=C` | keep column C (0..9; `well` = 9) open: a placement may put cells there only in rows it completes |
//! | `pattern=FILE` | only placements whose cells all lie on `#` cells of a board file (text form) of the game's height |
//!
//! Each option may be given once. The canonical name lists them in the table's order, so
//! `bfs+elashi,expectimax,no-suicide@2` prints as `bfs+elashi,no-suicide,expectimax@2`; a
//! name without options is unchanged. A weights-file or pattern path therefore cannot
//! contain `,` (nor end in `@` and digits).
//!
//! Over 600 lines only with its unit tests: the name parser, its printer and its checks are one
//! grammar and are tested together.

use std::fmt;
use std::ops::RangeInclusive;
use std::str::FromStr;

use std::sync::Arc;

use tetris_core::evaluate::WeightedEvaluator;
use tetris_core::{
    BOARD_WIDTH, Board, Buttons, ChainChoice, ChainOptions, ChainRule, ChainValue, DecisionContext,
    FrameTiming, GameOverRule, Input, LookaheadChain, MAX_PLAYOUTS, PatternFilter, Piece,
    PieceState, Placement, PlacementFilter, Placements, Playouts, Searcher, WellFilter,
};
use tetris_eval_nes_plateau::NesPlateau;

use crate::engines::{
    AnyEvaluator, AnySearcher, evaluator_by_name, evaluator_names, searcher_by_name,
    searcher_names, searchers,
};
use crate::error::RegistryError;
use crate::reaction_plan::ReactionPlanner;
use crate::weights::WeightsChoice;
use tetris_outside::protocol::{Played, Start, Stop, Suggest};
use tetris_outside::{Answer, Decider, Fault, FaultKind, OutsideSpec};

/// The evaluator an outside engine's strategy carries but never asks.
const OUTSIDE_PLACEHOLDER_EVALUATOR: &str = "dellacherie";

/// An evaluator named on its own: `NAME`, `NAME:PRESET` or `NAME:weights.json`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvaluatorSpec {
    /// The evaluator's registered name.
    pub name: String,
    /// Which weights it is built with.
    pub weights: WeightsChoice,
}

impl EvaluatorSpec {
    /// Builds the evaluator (loading its weights file, if any).
    pub fn build(&self) -> Result<AnyEvaluator, RegistryError> {
        evaluator_by_name(&self.name, &self.weights)
            .ok_or_else(|| unknown_evaluator(&self.name))?
            .map_err(RegistryError::from)
    }
}

/// The error for an evaluator name that is not registered, listing the valid ones.
fn unknown_evaluator(name: &str) -> RegistryError {
    RegistryError::unknown_evaluator(name)
}

impl FromStr for EvaluatorSpec {
    type Err = RegistryError;

    /// Parses `NAME[:PRESET|:weights.json]`; the name must be a registered evaluator.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let (name, weights) = WeightsChoice::split(text);
        if !evaluator_names().contains(&name) {
            return Err(unknown_evaluator(name));
        }
        Ok(EvaluatorSpec {
            name: name.to_string(),
            weights,
        })
    }
}

impl fmt::Display for EvaluatorSpec {
    /// The canonical form: `name`, `name:preset` or `name:file`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.name, self.weights)
    }
}

/// The deepest lookahead the arena accepts (each level multiplies the work by ~30).
pub const MAX_DEPTH: usize = 4;

/// The largest `prefer-bonus=B`: far above any cost difference the evaluators give, so the
/// bonus then decides alone.
pub const MAX_PREFER_BONUS: u16 = 10_000;

/// The largest `extra-deep-wells=W` and `overdeep-wells=W`: above what a hole costs the
/// NES-plateau evaluator, so that larger values could only forbid a second deep well, or a
/// well deeper than a Tetris, outright.
pub const MAX_WELL_COST: u16 = 1_000;

/// The lookahead chain's options a strategy name can carry (see the module documentation).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StrategyOptions {
    /// `no-suicide`: skip placements that end the game while another exists.
    pub no_suicide: bool,
    /// `expectimax`: average over the 7 unknown pieces after the known ones.
    pub expectimax: bool,
    /// `expectimax=K`: average only for the K first placements best without it (with
    /// `expectimax` set; `None`: for all).
    pub expectimax_finalists: Option<u8>,
    /// `prefer-bonus=B`: with `expectimax`, what an unknown piece whose best chain is
    /// preferred takes off its cost in the average (`tetris_core::ChainOptions::prefer_bonus`);
    /// `None`: 0. A whole number, so that names compare and print exactly.
    pub prefer_bonus: Option<u16>,
    /// `playouts=N`: with expectimax's finalists, N playouts per finalist
    /// (`tetris_core::ChainOptions::playouts`, the settings of `tetris_core::Playouts::new`).
    pub playouts: Option<u8>,
    /// `extra-deep-wells=W`: with the nes-plateau evaluator, what each deep well beyond the
    /// first adds to its cost (`NesPlateau::with_extra_deep_well_cost`).
    pub extra_deep_wells: Option<u16>,
    /// `overdeep-wells=W`: with the nes-plateau evaluator, what each open well cell beyond the
    /// 4th of its column adds to its cost (`NesPlateau::with_overdeep_well_cost`).
    pub overdeep_wells: Option<u16>,
    /// `well=C`: the column kept open (0..9).
    pub well_column: Option<u8>,
    /// `pattern=FILE`: the board file whose occupied cells every placement must lie on.
    pub pattern: Option<String>,
}

/// Every option a strategy name accepts, as `arena list` and `--help` show them.
pub const STRATEGY_OPTIONS: [(&str, &str); 9] = [
    (
        "no-suicide",
        "never play a placement that ends the game (under the game's rule) while another exists",
    ),
    (
        "expectimax",
        "after the known pieces, average the best value over the 7 possible unknown pieces",
    ),
    (
        "expectimax=K",
        "the same, for only the K first placements (1..=255) whose chains are best without it",
    ),
    (
        "prefer-bonus=B",
        "with expectimax: an unknown piece whose best chain the evaluator prefers (a Tetris, for \
         nes-plateau) counts its cost minus B (1..=10000) in the average",
    ),
    (
        "playouts=N",
        "with expectimax=K: play N random 6-piece continuations (1..=64) after each finalist's \
         best chain and add 0.3 × their mean value (final cost − 150 a Tetris; 2000 if the game \
         ends) to its cost",
    ),
    (
        "extra-deep-wells=W",
        "with nes-plateau: every deep well (3 or more open well cells) beyond the first costs W \
         more (1..=1000)",
    ),
    (
        "overdeep-wells=W",
        "with nes-plateau: every open well cell beyond the 4th of its column (deeper than a \
         Tetris needs) costs W more (1..=1000)",
    ),
    (
        "well=C",
        "keep column C (0..9; `well` alone = 9) open: cells there only in rows the placement completes",
    ),
    (
        "pattern=FILE",
        "only placements whose cells lie on `#` cells of FILE, a board file of the game's height",
    ),
];

impl StrategyOptions {
    /// Parses one comma-separated option into `self`; the message says what is wrong.
    fn add(&mut self, option: &str) -> Result<(), String> {
        let (name, value) = match option.split_once('=') {
            Some((name, value)) => (name, Some(value)),
            None => (option, None),
        };
        let repeated = || format!("option {name:?} is given twice");
        let no_value = |name: &str| match value {
            None => Ok(()),
            Some(_) => Err(format!("option {name:?} takes no value")),
        };
        match name {
            "no-suicide" => {
                no_value(name)?;
                if std::mem::replace(&mut self.no_suicide, true) {
                    return Err(repeated());
                }
            }
            "expectimax" => {
                if std::mem::replace(&mut self.expectimax, true) {
                    return Err(repeated());
                }
                if let Some(value) = value {
                    let finalists = value
                        .parse::<u8>()
                        .ok()
                        .filter(|&finalists| finalists >= 1)
                        .ok_or_else(|| {
                            format!("expectimax finalists {value:?} is not a count from 1 to 255")
                        })?;
                    self.expectimax_finalists = Some(finalists);
                }
            }
            "prefer-bonus" => {
                let bonus = whole_number(option, 1..=MAX_PREFER_BONUS, "prefer-bonus=B")?;
                if self.prefer_bonus.replace(bonus).is_some() {
                    return Err(repeated());
                }
            }
            "playouts" => {
                let most = MAX_PLAYOUTS as u8;
                let count = whole_number(option, 1..=most, "playouts=N")?;
                if self.playouts.replace(count).is_some() {
                    return Err(repeated());
                }
            }
            "extra-deep-wells" => {
                let cost = whole_number(option, 1..=MAX_WELL_COST, "extra-deep-wells=W")?;
                if self.extra_deep_wells.replace(cost).is_some() {
                    return Err(repeated());
                }
            }
            "overdeep-wells" => {
                let cost = whole_number(option, 1..=MAX_WELL_COST, "overdeep-wells=W")?;
                if self.overdeep_wells.replace(cost).is_some() {
                    return Err(repeated());
                }
            }
            "well" => {
                let column = match value {
                    None => BOARD_WIDTH as u8 - 1,
                    Some(value) => value
                        .parse::<u8>()
                        .ok()
                        .filter(|&column| usize::from(column) < BOARD_WIDTH)
                        .ok_or_else(|| {
                            format!("well column {value:?} is not a column from 0 to 9")
                        })?,
                };
                if self.well_column.replace(column).is_some() {
                    return Err(repeated());
                }
            }
            "pattern" => {
                let path = value
                    .filter(|path| !path.is_empty())
                    .ok_or("option \"pattern\" needs a board file: pattern=FILE")?;
                if self.pattern.replace(path.to_string()).is_some() {
                    return Err(repeated());
                }
            }
            "" => return Err("an empty option (two commas, or a comma at the end)".into()),
            _ => {
                // The list is STRATEGY_OPTIONS's, so that a new option cannot be left out.
                let valid: Vec<&str> = STRATEGY_OPTIONS.iter().map(|(name, _)| *name).collect();
                return Err(format!(
                    "unknown option {name:?} (valid: {})",
                    valid.join(" ")
                ));
            }
        }
        Ok(())
    }
}

/// The value of `option` (`NAME=VALUE`) as a whole number in `range`; otherwise the message
/// `NAME "VALUE" is not a whole number from A to B: FORM` (`form` shows how the option is
/// written).
fn whole_number<T>(option: &str, range: RangeInclusive<T>, form: &str) -> Result<T, String>
where
    T: FromStr + PartialOrd + fmt::Display,
{
    let (name, value) = option.split_once('=').unwrap_or((option, ""));
    value
        .parse::<T>()
        .ok()
        .filter(|number| range.contains(number))
        .ok_or_else(|| {
            format!(
                "{name} {value:?} is not a whole number from {} to {}: {form}",
                range.start(),
                range.end()
            )
        })
}

impl fmt::Display for StrategyOptions {
    /// `,no-suicide,expectimax[=K],prefer-bonus=B,playouts=N,extra-deep-wells=W,overdeep-wells=W,`
    /// `well=C,pattern=FILE`
    /// for the options set, in that order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.no_suicide {
            f.write_str(",no-suicide")?;
        }
        if self.expectimax {
            f.write_str(",expectimax")?;
            if let Some(finalists) = self.expectimax_finalists {
                write!(f, "={finalists}")?;
            }
        }
        if let Some(bonus) = self.prefer_bonus {
            write!(f, ",prefer-bonus={bonus}")?;
        }
        if let Some(count) = self.playouts {
            write!(f, ",playouts={count}")?;
        }
        if let Some(cost) = self.extra_deep_wells {
            write!(f, ",extra-deep-wells={cost}")?;
        }
        if let Some(cost) = self.overdeep_wells {
            write!(f, ",overdeep-wells={cost}")?;
        }
        if let Some(column) = self.well_column {
            write!(f, ",well={column}")?;
        }
        if let Some(path) = &self.pattern {
            write!(f, ",pattern={path}")?;
        }
        Ok(())
    }
}

/// A parsed strategy name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StrategySpec {
    /// The searcher's name.
    pub searcher: String,
    /// The evaluator's name.
    pub evaluator: String,
    /// Which weights the evaluator uses.
    pub weights: WeightsChoice,
    /// The chain's options.
    pub options: StrategyOptions,
    /// Known pieces per decision: 1 = current only, 2 = current + preview.
    pub depth: usize,
    /// An engine from outside (`SEARCHER+exec:…`): the program that decides, the searcher
    /// listing its legal placements. `evaluator` is then `exec` and the other fields their
    /// defaults (the depth is the bot's: its handshake's preview count + 1, once built).
    pub outside: Option<OutsideSpec>,
}

/// The evaluator field of an outside engine's spec.
pub const OUTSIDE_EVALUATOR: &str = "outside";

impl StrategySpec {
    /// The spec of an outside engine whose placements `searcher` lists.
    pub fn outside(searcher: &str, outside: OutsideSpec) -> StrategySpec {
        StrategySpec {
            searcher: searcher.to_string(),
            evaluator: OUTSIDE_EVALUATOR.to_string(),
            weights: WeightsChoice::Default,
            options: StrategyOptions::default(),
            depth: 1,
            outside: Some(outside),
        }
    }

    /// Refuses an outside engine where only the arena's own engines can serve: `job` says
    /// what the caller would do with it ("be analysed", "play NES games", …). Outside
    /// engines play games of placements (`play`, `tournament`, `stats`); they have no
    /// evaluator or chain to analyse with.
    pub fn check_inside(&self, job: &str) -> Result<(), RegistryError> {
        match self.outside {
            None => Ok(()),
            Some(_) => Err(RegistryError::Strategy {
                strategy: self.to_string(),
                message: format!(
                    "an outside engine cannot {job}: it plays games of placements (play, tournament, stats, nes)"
                ),
            }),
        }
    }

    /// Refuses an outside engine that cannot play with a reaction time: a server (`http:`,
    /// `stackrabbit:`) answers about a piece from its spawn and cannot be asked again about
    /// a piece already falling (bot programs and front ends' functions can).
    pub fn check_replans(&self) -> Result<(), RegistryError> {
        match &self.outside {
            Some(OutsideSpec::Http(_) | OutsideSpec::StackRabbit(_)) => {
                Err(RegistryError::Strategy {
                    strategy: self.to_string(),
                    message: "a server cannot play with a reaction time: it answers about a \
                              piece from its spawn, not again once frames are played (a bot \
                              program can: docs/writing-a-bot.md)"
                        .to_string(),
                })
            }
            _ => Ok(()),
        }
    }

    /// The game-over rule a game of this strategy uses unless told otherwise: its searcher's
    /// (`tetris_core::NamedSearcher::GAME_OVER_RULE`).
    pub fn default_game_over_rule(&self) -> GameOverRule {
        searchers()
            .into_iter()
            .find(|entry| entry.name == self.searcher)
            .map_or(GameOverRule::Simulation, |entry| entry.game_over_rule)
    }
}

impl FromStr for StrategySpec {
    type Err = RegistryError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let fail = |message: String| RegistryError::Strategy {
            strategy: text.to_string(),
            message,
        };
        if let Some(spec) = parse_outside(text).map_err(fail)? {
            return Ok(spec);
        }
        let (body, depth) = match text.rsplit_once('@') {
            Some((_, depth)) if depth.contains(',') => {
                return Err(fail(format!(
                    "options go before the depth: {}",
                    "SEARCHER+EVALUATOR[:PRESET|:weights.json][,OPTION...][@DEPTH], e.g. \
                     bfs+elashi,no-suicide@2"
                )));
            }
            Some((body, depth)) => {
                // Digits only: `usize::from_str` also takes a sign (`@+2`).
                let digits = !depth.is_empty() && depth.bytes().all(|byte| byte.is_ascii_digit());
                let depth: usize =
                    digits
                        .then(|| depth.parse().ok())
                        .flatten()
                        .ok_or_else(|| {
                            fail(format!(
                                "depth {depth:?} is not a whole number from 1 to {MAX_DEPTH}"
                            ))
                        })?;
                if !(1..=MAX_DEPTH).contains(&depth) {
                    return Err(fail(format!("depth {depth} is outside 1..={MAX_DEPTH}")));
                }
                (body, depth)
            }
            None => (text, 1),
        };
        // A second `@` would be read as part of a preset or file name, which the canonical
        // name (depth 1 omitted) then prints as a depth: `bfs+elashi:a@b@1` → `bfs+elashi:a@b`.
        if body.contains('@') {
            return Err(fail(
                "'@' may appear once, before the depth: SEARCHER+EVALUATOR[:PRESET|:weights.json][,OPTION...][@DEPTH]"
                    .to_string(),
            ));
        }
        let (searcher, rest) = body.split_once('+').ok_or_else(|| {
            fail(
                "expected SEARCHER+EVALUATOR[:PRESET|:weights.json][,OPTION...][@DEPTH]"
                    .to_string(),
            )
        })?;
        let mut parts = rest.split(',');
        let evaluator_part = parts.next().unwrap_or_default();
        let mut options = StrategyOptions::default();
        for option in parts {
            options.add(option).map_err(fail)?;
        }
        if options.prefer_bonus.is_some() && !options.expectimax {
            return Err(fail(
                "option \"prefer-bonus\" changes expectimax's average: give `expectimax` too"
                    .to_string(),
            ));
        }
        if options.playouts.is_some() && options.expectimax_finalists.is_none() {
            return Err(fail(
                "option \"playouts\" ranks expectimax's finalists: give `expectimax=K` too"
                    .to_string(),
            ));
        }
        let (evaluator, weights) = WeightsChoice::split(evaluator_part);
        let well_option = [
            ("extra-deep-wells", options.extra_deep_wells),
            ("overdeep-wells", options.overdeep_wells),
        ]
        .into_iter()
        .find_map(|(name, cost)| cost.map(|_| name));
        if let Some(name) = well_option.filter(|_| evaluator != NesPlateau::NAME) {
            return Err(fail(format!(
                "option {name:?} prices the {} evaluator's wells: it needs that evaluator",
                NesPlateau::NAME
            )));
        }
        if !searcher_names().contains(&searcher) {
            return Err(fail(format!(
                "unknown searcher {searcher:?} (valid: {})",
                searcher_names().join(" ")
            )));
        }
        if !evaluator_names().contains(&evaluator) {
            return Err(fail(format!(
                "unknown evaluator {evaluator:?} (valid: {})",
                evaluator_names().join(" ")
            )));
        }
        Ok(StrategySpec {
            searcher: searcher.to_string(),
            evaluator: evaluator.to_string(),
            weights,
            options,
            depth,
            outside: None,
        })
    }
}

/// `SEARCHER+KIND…` as a spec when KIND names an outside engine (`tetris_outside`'s
/// grammar: `exec:PROGRAM ARGS…`, `http:URL STRATEGY`), `None` for any other name. The part
/// after the kind's `:` may hold `@`, `,` and `+`.
fn parse_outside(text: &str) -> Result<Option<StrategySpec>, String> {
    let Some((searcher, rest)) = text.split_once('+') else {
        return Ok(None);
    };
    let Some(outside) = OutsideSpec::parse(rest) else {
        return Ok(None);
    };
    let outside = outside?;
    if !searcher_names().contains(&searcher) {
        return Err(format!(
            "unknown searcher {searcher:?} (valid: {})",
            searcher_names().join(" ")
        ));
    }
    Ok(Some(StrategySpec::outside(searcher, outside)))
}

impl fmt::Display for StrategySpec {
    /// The canonical name: `searcher+evaluator[:preset|:file][,options][@depth]` (depth 1
    /// omitted, options in their fixed order), or `searcher+exec[,limit=MS]:command` (the
    /// limit when it is not the default, the command's words joined by one space).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(outside) = &self.outside {
            return write!(f, "{}+{outside}", self.searcher);
        }
        write!(
            f,
            "{}+{}{}{}",
            self.searcher, self.evaluator, self.weights, self.options
        )?;
        if self.depth != 1 {
            write!(f, "@{}", self.depth)?;
        }
        Ok(())
    }
}

/// `evaluator` with the options of a name that price its features: `extra-deep-wells` and
/// `overdeep-wells`, which the name's check lets through with nes-plateau only (absent, each
/// is 0, the evaluator without it).
fn with_evaluator_options(evaluator: AnyEvaluator, options: &StrategyOptions) -> AnyEvaluator {
    match evaluator {
        AnyEvaluator::NesPlateau(nes_plateau) => {
            let cost = |option: Option<u16>| f64::from(option.unwrap_or(0));
            AnyEvaluator::NesPlateau(
                nes_plateau
                    .with_extra_deep_well_cost(cost(options.extra_deep_wells))
                    .with_overdeep_well_cost(cost(options.overdeep_wells)),
            )
        }
        evaluator => evaluator,
    }
}

/// Builds the chain options a spec names: its depth and options, the pattern file read (at
/// most [`tetris_core::files::BOARD_FILE_LIMIT`], 1 MiB: a pattern is one board).
fn chain_options(spec: &StrategySpec) -> Result<(ChainOptions, Option<Board>), String> {
    let pattern = match &spec.options.pattern {
        None => None,
        Some(path) => {
            // Within the board files' limit (1 MiB): a pattern is one board.
            let text = tetris_core::files::read_text(
                std::path::Path::new(path),
                tetris_core::files::BOARD_FILE_LIMIT,
                "pattern file",
            )
            .map_err(|error| match error {
                tetris_core::Error::Io { message, .. } => format!("pattern file {path}: {message}"),
                too_large => too_large.to_string(),
            })?;
            let board: Board = text
                .parse()
                .map_err(|error| format!("pattern file {path}: {error}"))?;
            Some(board)
        }
    };
    let well = spec
        .options
        .well_column
        .map(|column| WellFilter::new(column.into()));
    let filter: Option<Arc<dyn PlacementFilter + Send + Sync>> = match (well, pattern) {
        (None, None) => None,
        (Some(well), None) => Some(Arc::new(well)),
        (None, Some(picture)) => Some(Arc::new(PatternFilter::new(picture))),
        (Some(well), Some(picture)) => {
            let pattern = PatternFilter::new(picture);
            Some(Arc::new(move |board: &Board, placement: &Placement| {
                well.accepts(board, placement) && pattern.accepts(board, placement)
            }))
        }
    };
    let options = ChainOptions {
        depth: spec.depth,
        expectimax: spec.options.expectimax,
        expectimax_finalists: spec.options.expectimax_finalists.map(usize::from),
        no_suicide: spec.options.no_suicide,
        filter,
        prefer_bonus: spec.options.prefer_bonus.map_or(0.0, f64::from),
        playouts: spec
            .options
            .playouts
            .map(|count| Playouts::new(count.into())),
    };
    Ok((options, pattern))
}

/// A playable strategy: its engines, its chain and the buffers it reuses between moves.
///
/// Build it once (reading any weights file once) and clone it into each worker: a clone
/// copies the engines and starts empty buffers.
pub struct Strategy {
    spec: StrategySpec,
    searcher: AnySearcher,
    evaluator: AnyEvaluator,
    chain: LookaheadChain,
    /// The plan of a player who has not seen the preview yet ([`Strategy::plan_for_reaction_in`]).
    reaction: ReactionPlanner,
    path_buffer: Placements,
    last_context: DecisionContext,
    /// The rows of the `pattern=FILE` picture, which must be the game's board height.
    pattern_height: Option<u8>,
    /// An outside engine that decides in place of the chain (`SEARCHER+exec:…`); the
    /// searcher then only lists the legal placements, and the evaluator and chain are unused.
    outside: Option<Box<dyn Decider>>,
    /// Games begun (an outside engine's `start` numbers them from 1).
    games: u64,
    /// The legal placements the outside engine was last offered.
    offered: Vec<Placement>,
    /// The frames of the outside engine's last answer, when it gave them (an NES game plays
    /// them instead of the searcher's path: [`Strategy::take_answered_inputs`]).
    answered_inputs: Option<Vec<Buttons>>,
}

/// How far a game has come, for an outside engine's `suggest`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameTally {
    /// Pieces placed.
    pub pieces: u64,
    /// Rows cleared.
    pub lines: u64,
    /// The score.
    pub score: u32,
    /// The level now.
    pub level: u8,
}

/// A re-plan's played frames for an outside engine: how many, and where they left `piece`
/// (stepped through the console's frame model from its spawn); `None` before any frame.
fn played_message(board: &Board, piece: Piece, context: &DecisionContext) -> Option<Played> {
    let frames = context.played.as_slice();
    let timing = context.frame_timing.filter(|_| !frames.is_empty())?;
    let mut falling = tetris_core::frames::FallingPiece::spawn(piece, context.entry_delay, 0);
    for &buttons in frames {
        falling.frame(board, buttons, timing.frames_per_row);
    }
    let state = falling.state();
    Some(Played {
        frames: frames.len() as u8,
        x: state.x,
        y: state.y,
        rotation: state.rotation,
    })
}

impl Clone for Strategy {
    /// The same engines with fresh chain buffers (a chain keeps no state between moves).
    fn clone(&self) -> Strategy {
        Strategy {
            reaction: ReactionPlanner::new(self.reaction.options()),
            pattern_height: self.pattern_height,
            outside: self.outside.as_ref().map(|decider| decider.fresh()),
            ..Strategy::from_parts(
                self.spec.clone(),
                self.searcher.clone(),
                self.evaluator.clone(),
                self.chain.options().clone(),
            )
        }
    }
}

impl Strategy {
    /// Builds the engines a spec names (loading its weights file, if any).
    pub fn new(spec: StrategySpec) -> Result<Strategy, RegistryError> {
        if let Some(outside) = spec.outside.clone() {
            let decider = outside.start().map_err(|fault| RegistryError::Outside {
                strategy: spec.to_string(),
                fault,
            })?;
            return Strategy::with_decider(spec, decider);
        }
        let strategy = spec.to_string();
        let fail = |message: String| RegistryError::Strategy {
            strategy: strategy.clone(),
            message,
        };
        if spec.weights == WeightsChoice::Tuned {
            return Err(fail(
                "tuned weights are not part of a name: write them to a weights file".into(),
            ));
        }
        let searcher = searcher_by_name(&spec.searcher)
            .ok_or_else(|| fail(format!("unknown searcher {:?}", spec.searcher)))?;
        let evaluator = evaluator_by_name(&spec.evaluator, &spec.weights)
            .ok_or_else(|| fail(format!("unknown evaluator {:?}", spec.evaluator)))??;
        let evaluator = with_evaluator_options(evaluator, &spec.options);
        let (options, pattern) = chain_options(&spec).map_err(fail)?;
        Ok(Strategy {
            pattern_height: pattern.map(|picture| picture.height()),
            ..Strategy::from_parts(spec, searcher, evaluator, options)
        })
    }

    /// The strategy of an outside engine already started (a front end's, or one a name
    /// gives): `spec` names its searcher (a front end's engine has [`OutsideSpec::Given`]);
    /// the engine's handshake must agree with it and gives the depth.
    pub fn with_decider(
        mut spec: StrategySpec,
        bot: Box<dyn Decider>,
    ) -> Result<Strategy, RegistryError> {
        let strategy = spec.to_string();
        if let Some(declared) = bot.info().searcher.as_deref()
            && declared != spec.searcher
        {
            let rest = strategy.split_once('+').map_or("", |(_, rest)| rest);
            let message =
                format!("the bot plays {declared}'s placements: name it {declared}+{rest}");
            return Err(RegistryError::Strategy { strategy, message });
        }
        let searcher = searcher_by_name(&spec.searcher).ok_or_else(|| RegistryError::Strategy {
            strategy: strategy.clone(),
            message: format!("unknown searcher {:?}", spec.searcher),
        })?;
        spec.depth = usize::from(bot.info().preview) + 1;
        // The evaluator and chain are never asked (the bot decides); any evaluator does.
        let evaluator = evaluator_by_name(OUTSIDE_PLACEHOLDER_EVALUATOR, &WeightsChoice::Default)
            .expect("the placeholder evaluator is registered")?;
        let options = ChainOptions::with_depth(spec.depth);
        Ok(Strategy {
            outside: Some(bot),
            ..Strategy::from_parts(spec, searcher, evaluator, options)
        })
    }

    /// The strategy of these engines and chain options, with empty buffers, no pattern and
    /// no outside engine.
    fn from_parts(
        spec: StrategySpec,
        searcher: AnySearcher,
        evaluator: AnyEvaluator,
        options: ChainOptions,
    ) -> Strategy {
        Strategy {
            reaction: ReactionPlanner::new(&options),
            chain: LookaheadChain::new(options),
            spec,
            searcher,
            evaluator,
            path_buffer: Placements::new(),
            last_context: DecisionContext::default(),
            pattern_height: None,
            outside: None,
            games: 0,
            offered: Vec::new(),
            answered_inputs: None,
        }
    }

    /// Whether an outside engine decides (`SEARCHER+exec:…`): such a strategy plays games
    /// ([`Strategy::decide_in`]) but has no evaluator or chain to analyse with.
    pub fn is_outside(&self) -> bool {
        self.outside.is_some()
    }

    /// The outside engine's name and version as its handshake gives them, if one decides.
    pub fn outside_engine(&self) -> Option<(&str, &str)> {
        self.outside
            .as_ref()
            .map(|bot| (bot.info().name.as_str(), bot.info().version.as_str()))
    }

    /// The id of the outside engine's running program, if one runs (for tests that check no
    /// program outlives its game).
    pub fn outside_process_id(&self) -> Option<u32> {
        self.outside
            .as_ref()
            .and_then(|decider| decider.process_id())
    }

    /// Tells an outside engine a game begins (nothing for the arena's own engines).
    #[inline]
    pub fn begin_game(&mut self, start: &Start) {
        if let Some(bot) = self.outside.as_mut() {
            self.games += 1;
            bot.begin_game(&Start {
                game: self.games,
                searcher: self.spec.searcher.clone(),
                preview: u8::try_from(self.spec.depth - 1).unwrap_or(u8::MAX),
                ..start.clone()
            });
        }
    }

    /// Tells an outside engine how its game ended (nothing for the arena's own engines).
    #[inline]
    pub fn end_game(&mut self, stop: &Stop) {
        if let Some(bot) = self.outside.as_mut() {
            bot.end_game(&Stop {
                game: self.games,
                ..stop.clone()
            });
        }
    }

    /// [`Strategy::choose_in`] for a game that knows how far it has come (`tally`), which an
    /// outside engine is told: its answer checked against the searcher's legal placements,
    /// or its fault. The arena's own engines never fault.
    #[inline]
    pub fn decide_in(
        &mut self,
        board: &Board,
        pieces: &[Piece],
        context: DecisionContext,
        tally: GameTally,
    ) -> Result<Option<ChainChoice>, Fault> {
        let Some(bot) = self.outside.as_mut() else {
            return Ok(self.choose_in(board, pieces, context));
        };
        // The engine sees the pieces it asked for (a game may know more: the NES preview).
        let pieces = &pieces[..pieces.len().min(self.spec.depth)];
        self.last_context = context;
        self.searcher.search(
            board,
            pieces[0],
            context.current_piece_options(false),
            &mut self.path_buffer,
        );
        if self.path_buffer.is_empty() {
            return Ok(None);
        }
        self.offered.clear();
        self.offered.extend_from_slice(self.path_buffer.as_slice());
        let suggest = Suggest {
            pieces: tally.pieces,
            lines: tally.lines,
            score: tally.score,
            level: tally.level,
            played: played_message(board, pieces[0], &context),
            ..Suggest::new(self.games, board, pieces, &self.offered)
        };
        let Answer { index, inputs } = bot.suggest(&suggest, &self.offered)?;
        if inputs.is_some() && context.frame_timing.is_none() {
            return Err(Fault {
                kind: FaultKind::Illegal,
                message: "the answer's inputs: only NES games with a gravity-aware searcher \
                          (gamepad) play input sequences; this game places pieces directly"
                    .to_string(),
            });
        }
        self.answered_inputs = inputs;
        Ok(Some(ChainChoice {
            placement: self.offered[index],
            index,
            value: ChainValue {
                length: 1,
                unknown_pieces_lost: 0,
                rule: ChainRule::Neutral,
                cost: 0.0,
            },
        }))
    }

    /// The frames the outside engine pressed in its answer to the last
    /// [`Strategy::decide_in`], if it gave them (only in games with frame timing): the game
    /// plays them, checked, instead of the searcher's path. Taken once.
    pub fn take_answered_inputs(&mut self) -> Option<Vec<Buttons>> {
        self.answered_inputs.take()
    }

    /// The rows of the strategy's `pattern=FILE` picture, if it has one: it plays only on a
    /// board of that height (the request layer's check, `tetris_arena_io::values`, names the
    /// field that gave the board's height).
    pub fn pattern_height(&self) -> Option<u8> {
        self.pattern_height
    }

    /// The game-over rule a game of this strategy uses unless told otherwise: its searcher's.
    pub fn default_game_over_rule(&self) -> GameOverRule {
        self.spec.default_game_over_rule()
    }

    /// Whether `other` is this strategy under another name: the same searcher, the same
    /// evaluator with the same weight values (`bfs+elashi` and `bfs+elashi:published`, one
    /// weights file under two paths), the same options (a pattern file compared by its
    /// resolved path) and the same depth. Such two play every game alike.
    pub fn plays_like(&self, other: &Strategy) -> bool {
        let resolved = |path: &Option<String>| {
            path.as_ref()
                .map(|path| std::fs::canonicalize(path).unwrap_or_else(|_| path.into()))
        };
        let (mine, theirs) = (&self.spec, &other.spec);
        let same_options = StrategyOptions {
            pattern: None,
            ..mine.options.clone()
        } == StrategyOptions {
            pattern: None,
            ..theirs.options.clone()
        } && resolved(&mine.options.pattern)
            == resolved(&theirs.options.pattern);
        mine.searcher == theirs.searcher
            && mine.outside == theirs.outside
            && mine.evaluator == theirs.evaluator
            && mine.depth == theirs.depth
            && same_options
            && tetris_core::Evaluator::weights(&self.evaluator).values()
                == tetris_core::Evaluator::weights(&other.evaluator).values()
    }

    /// A strategy of the searcher called `searcher` with an evaluator already built with
    /// candidate weights (while tuning), the strategy `options` (as a name's, checked by its
    /// parse) and lookahead `depth`. Its name says the weights are tuned
    /// ([`WeightsChoice::Tuned`]): they come from no preset or file.
    pub fn with_tuned_evaluator(
        searcher: &str,
        evaluator: AnyEvaluator,
        options: StrategyOptions,
        depth: usize,
    ) -> Result<Strategy, RegistryError> {
        let spec = StrategySpec {
            searcher: searcher.to_string(),
            evaluator: tetris_core::Evaluator::name(&evaluator).to_string(),
            weights: WeightsChoice::Tuned,
            options,
            depth,
            outside: None,
        };
        let fail = |message: String| RegistryError::Strategy {
            strategy: spec.to_string(),
            message,
        };
        let searcher = searcher_by_name(searcher)
            .ok_or_else(|| fail(format!("unknown searcher {searcher:?}")))?;
        let evaluator = with_evaluator_options(evaluator, &spec.options);
        let (options, pattern) = chain_options(&spec).map_err(fail)?;
        Ok(Strategy {
            pattern_height: pattern.map(|picture| picture.height()),
            ..Strategy::from_parts(spec, searcher, evaluator, options)
        })
    }

    /// Parses and builds a strategy from its name.
    pub fn from_name(name: &str) -> Result<Strategy, RegistryError> {
        Strategy::new(name.parse()?)
    }

    /// The parsed name.
    pub fn spec(&self) -> &StrategySpec {
        &self.spec
    }

    /// The canonical name.
    pub fn name(&self) -> String {
        self.spec.to_string()
    }

    /// Known pieces per decision (1 = current only, 2 = current + preview).
    pub fn depth(&self) -> usize {
        self.spec.depth
    }

    /// The frame timing the searcher simulates when a decision gives none, `None` when it
    /// ignores gravity.
    pub fn frame_timing(&self) -> Option<FrameTiming> {
        self.searcher.frame_timing()
    }

    /// The state every input path of the searcher starts from (the spawn state, or above the
    /// field for `drop`): where a path is followed from to replay or animate it.
    pub fn path_start(&self) -> PieceState {
        self.searcher.path_start()
    }

    /// The context of the last decision ([`Strategy::choose_in`]): what a game told it.
    pub fn last_context(&self) -> DecisionContext {
        self.last_context
    }

    /// The evaluator.
    pub fn evaluator(&self) -> &AnyEvaluator {
        &self.evaluator
    }

    /// The lookahead chain (its last search's report and best chain).
    pub fn chain(&self) -> &LookaheadChain {
        &self.chain
    }

    /// Both engines and the chain at once, for callers that drive the chain themselves.
    pub fn parts_mut(&mut self) -> (&mut AnySearcher, &AnyEvaluator, &mut LookaheadChain) {
        (&mut self.searcher, &self.evaluator, &mut self.chain)
    }

    /// The best chain's first placement for `pieces` (current piece first) on `board` in a
    /// game without frames (the default [`DecisionContext`]), or `None` when the current
    /// piece has no placement (it cannot spawn).
    #[inline]
    pub fn choose(&mut self, board: &Board, pieces: &[Piece]) -> Option<ChainChoice> {
        self.choose_in(board, pieces, DecisionContext::default())
    }

    /// [`Strategy::choose`] in `context`: the level's timing and the player's tap rate for
    /// gravity-aware searchers, and whether the current piece has the entry delay.
    #[inline]
    ///
    /// An outside engine is asked as by [`Strategy::decide_in`] with nothing played; its
    /// fault reads as no placement.
    pub fn choose_in(
        &mut self,
        board: &Board,
        pieces: &[Piece],
        context: DecisionContext,
    ) -> Option<ChainChoice> {
        if self.outside.is_some() {
            return self
                .decide_in(board, pieces, context, GameTally::default())
                .ok()
                .flatten();
        }
        self.last_context = context;
        self.chain
            .decide_in(&mut self.searcher, &self.evaluator, board, pieces, context)
    }

    /// The re-plan of a player with a reaction time, once the preview is seen after the
    /// plan's frames ([`Strategy::plan_for_reaction_in`]; `context` has those frames
    /// played): the same choice as [`Strategy::choose_in`], cheaper. When the last plan was
    /// for this board, current piece and context, the chain's first round takes the values it
    /// needs from that plan (the planner's chain is this chain without expectimax and
    /// playouts, on the same evaluator, both built once from the same options:
    /// [`ReactionPlanner::values_with_preview`]) rather than walking their chains again.
    pub fn replan_in(
        &mut self,
        board: &Board,
        pieces: &[Piece],
        context: DecisionContext,
    ) -> Option<ChainChoice> {
        let planned = match pieces {
            [current, preview, ..] if self.outside.is_none() => self
                .reaction
                .values_with_preview(board, *current, *preview, context),
            _ => None,
        };
        let Some(planned) = planned else {
            return self.choose_in(board, pieces, context);
        };
        self.last_context = context;
        self.chain.decide_with_first_values_in(
            &mut self.searcher,
            &self.evaluator,
            board,
            pieces,
            context,
            &|placement| planned.value_of(placement),
        )
    }

    /// The plan of a player who sees `current` now and the preview piece only after
    /// `reaction_frames` frames: the placement whose path's first `reaction_frames` frames
    /// leave the best choices open once the preview is known, averaged over the 7 pieces it
    /// may be ([`ReactionPlanner`] has the exact definition). `None` when the current piece has
    /// no placement the chain allows. The searcher must be gravity-aware.
    pub fn plan_for_reaction_in(
        &mut self,
        board: &Board,
        current: Piece,
        context: DecisionContext,
        reaction_frames: u8,
    ) -> Option<ChainChoice> {
        self.last_context = context;
        self.reaction.plan(
            &mut self.searcher,
            &self.evaluator,
            board,
            current,
            context,
            reaction_frames,
        )
    }

    /// The searcher's input path from the spawn to `placement` (which must be one of its
    /// placements of that piece on `board` in `context`, the context it was chosen in).
    pub fn path_to(
        &mut self,
        board: &Board,
        placement: &Placement,
        context: DecisionContext,
    ) -> Option<Vec<Input>> {
        self.path_inputs(board, placement, context)
            .map(<[Input]>::to_vec)
    }

    /// [`Strategy::path_to`] borrowed from the strategy's own buffer, for game loops that
    /// replay a path every piece and must not allocate for it.
    pub fn path_inputs(
        &mut self,
        board: &Board,
        placement: &Placement,
        context: DecisionContext,
    ) -> Option<&[Input]> {
        self.searcher.search(
            board,
            placement.piece,
            context.current_piece_options(true),
            &mut self.path_buffer,
        );
        let index = self
            .path_buffer
            .iter()
            .position(|candidate| candidate == placement)?;
        self.path_buffer.path(index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strategy_names_parse_and_print_back() {
        let spec: StrategySpec = "bfs+elashi@2".parse().unwrap();
        assert_eq!(spec.searcher, "bfs");
        assert_eq!(spec.evaluator, "elashi");
        assert_eq!(spec.depth, 2);
        assert_eq!(spec.weights, WeightsChoice::Default);
        assert_eq!(spec.to_string(), "bfs+elashi@2");
        let spec: StrategySpec = "bfs+dellacherie:original@1".parse().unwrap();
        assert_eq!(spec.weights, WeightsChoice::Preset("original".into()));
        assert_eq!(spec.to_string(), "bfs+dellacherie:original");
        let spec: StrategySpec = "column-drop+elashi:my/weights.json".parse().unwrap();
        assert_eq!(spec.weights, WeightsChoice::File("my/weights.json".into()));
        for bad in [
            "bfs",
            "bfs+nope",
            "nope+elashi",
            // Found by the strategy-name fuzzer: printed without its depth 1, the name would
            // read as depth "b".
            "bfs+elashi:a@b@1",
            "bfs+elashi@0",
            "bfs+elashi@x",
            "bfs+elashi@9",
        ] {
            assert!(bad.parse::<StrategySpec>().is_err(), "{bad}");
        }
        assert!(Strategy::from_name("bfs+dellacherie:nope").is_err());
        assert!(Strategy::from_name("bfs+dellacherie:original").is_ok());
    }

    #[test]
    fn options_parse_into_the_chain_and_print_in_canonical_order() {
        let spec: StrategySpec = "column-drop+dellacherie:el-tetris,expectimax,no-suicide@2"
            .parse()
            .unwrap();
        assert_eq!(spec.weights, WeightsChoice::Preset("el-tetris".into()));
        assert!(spec.options.no_suicide && spec.options.expectimax);
        assert_eq!(spec.depth, 2);
        assert_eq!(
            spec.to_string(),
            "column-drop+dellacherie:el-tetris,no-suicide,expectimax@2"
        );
        let strategy = Strategy::new(spec).unwrap();
        let options = strategy.chain().options();
        assert!(options.no_suicide && options.expectimax && options.filter.is_none());
        assert_eq!(options.depth, 2);
        // `well` alone is column 9; the name says so.
        let spec: StrategySpec = "bfs+elashi,well".parse().unwrap();
        assert_eq!(spec.options.well_column, Some(9));
        assert_eq!(spec.to_string(), "bfs+elashi,well=9");
        let spec: StrategySpec = "bfs+elashi:my/w.json,well=0@3".parse().unwrap();
        assert_eq!(spec.weights, WeightsChoice::File("my/w.json".into()));
        assert_eq!(spec.options.well_column, Some(0));
        assert!(
            Strategy::new("bfs+elashi,well=4".parse().unwrap())
                .unwrap()
                .chain()
                .options()
                .filter
                .is_some()
        );
        // `expectimax=K` keeps its count, after the other options.
        let spec: StrategySpec = "gamepad+nes-plateau,expectimax=3,no-suicide@2"
            .parse()
            .unwrap();
        assert_eq!(spec.options.expectimax_finalists, Some(3));
        assert_eq!(
            spec.to_string(),
            "gamepad+nes-plateau,no-suicide,expectimax=3@2"
        );
        let options = Strategy::new(spec).unwrap().chain().options().clone();
        assert!(options.expectimax && options.expectimax_finalists == Some(3));
        assert_eq!(options.prefer_bonus, 0.0);
        // `prefer-bonus=B` goes into the chain, printed after expectimax.
        let spec: StrategySpec = "gamepad+nes-plateau,prefer-bonus=80,expectimax=3@2"
            .parse()
            .unwrap();
        assert_eq!(spec.options.prefer_bonus, Some(80));
        assert_eq!(
            spec.to_string(),
            "gamepad+nes-plateau,expectimax=3,prefer-bonus=80@2"
        );
        let strategy = Strategy::new(spec).unwrap();
        assert_eq!(strategy.chain().options().prefer_bonus, 80.0);
        assert!(
            !strategy
                .plays_like(&Strategy::from_name("gamepad+nes-plateau,expectimax=3@2").unwrap())
        );
        // `playouts=N` and `extra-deep-wells=W`, printed after the prefer bonus, reach the
        // chain (the settings of `Playouts::new`) and the evaluator.
        let spec: StrategySpec = "gamepad+nes-plateau:low-stack,extra-deep-wells=5,playouts=16,\
                                  prefer-bonus=80,expectimax=3@2"
            .parse()
            .unwrap();
        assert_eq!(
            spec.to_string(),
            "gamepad+nes-plateau:low-stack,expectimax=3,prefer-bonus=80,playouts=16,\
             extra-deep-wells=5@2"
        );
        let strategy = Strategy::new(spec).unwrap();
        assert_eq!(strategy.chain().options().playouts, Some(Playouts::new(16)));
        let AnyEvaluator::NesPlateau(evaluator) = &strategy.evaluator else {
            panic!("nes-plateau expected");
        };
        assert_eq!(evaluator.extra_deep_well_cost(), 5.0);
        let without = Strategy::from_name(
            "gamepad+nes-plateau:low-stack,expectimax=3,prefer-bonus=80,playouts=16@2",
        )
        .unwrap();
        assert!(!strategy.plays_like(&without));
        let AnyEvaluator::NesPlateau(evaluator) = &without.evaluator else {
            panic!("nes-plateau expected");
        };
        assert_eq!(evaluator.extra_deep_well_cost(), 0.0);
        assert_eq!(evaluator.overdeep_well_cost(), 0.0);
        // `overdeep-wells=W` prints after `extra-deep-wells=W` and reaches the evaluator.
        let spec: StrategySpec = "gamepad+nes-plateau:low-stack,overdeep-wells=3,expectimax=3,\
                                  extra-deep-wells=5@2"
            .parse()
            .unwrap();
        assert_eq!(spec.options.overdeep_wells, Some(3));
        assert_eq!(
            spec.to_string(),
            "gamepad+nes-plateau:low-stack,expectimax=3,extra-deep-wells=5,overdeep-wells=3@2"
        );
        let overdeep = Strategy::new(spec).unwrap();
        let AnyEvaluator::NesPlateau(evaluator) = &overdeep.evaluator else {
            panic!("nes-plateau expected");
        };
        assert_eq!(evaluator.overdeep_well_cost(), 3.0);
        assert_eq!(evaluator.extra_deep_well_cost(), 5.0);
        assert!(
            !overdeep.plays_like(
                &Strategy::from_name(
                    "gamepad+nes-plateau:low-stack,expectimax=3,extra-deep-wells=5@2"
                )
                .unwrap()
            )
        );
        // Names without options are unchanged.
        let plain: StrategySpec = "bfs+elashi@2".parse().unwrap();
        assert_eq!(plain.options, StrategyOptions::default());
    }

    #[test]
    fn one_strategy_under_two_names_plays_alike() {
        let strategy = |name: &str| Strategy::from_name(name).unwrap();
        let default = strategy("bfs+elashi");
        assert!(default.plays_like(&strategy("bfs+elashi:published")));
        assert!(default.plays_like(&strategy("bfs+elashi@1")));
        assert!(!default.plays_like(&strategy("bfs+elashi@2")));
        assert!(!default.plays_like(&strategy("column-drop+elashi")));
        assert!(!default.plays_like(&strategy("bfs+elashi,no-suicide")));
        assert!(!strategy("bfs+dellacherie").plays_like(&strategy("bfs+dellacherie:original")));
        let folder = std::env::temp_dir().join(format!("registry-alike-{}", std::process::id()));
        std::fs::create_dir_all(folder.join("sub")).unwrap();
        let file = folder.join("w.json");
        std::fs::write(
            &file,
            r#"{"evaluator": "elashi", "weights": {"rows_cleared": 1, "lock_height": 1,
                "wells": 1, "holes": 1, "column_transitions": 1, "row_transitions": 1}}"#,
        )
        .unwrap();
        let direct = strategy(&format!("bfs+elashi:{}", file.display()));
        let around = strategy(&format!("bfs+elashi:{}/sub/../w.json", folder.display()));
        assert!(direct.plays_like(&around));
        assert!(!direct.plays_like(&default));
        std::fs::remove_dir_all(&folder).unwrap();
    }

    #[test]
    fn bad_options_are_refused_with_a_reason() {
        for (bad, reason) in [
            ("bfs+elashi,nope", "unknown option \"nope\""),
            (
                "bfs+elashi,well=10",
                "well column \"10\" is not a column from 0 to 9",
            ),
            ("bfs+elashi,well=-1", "is not a column"),
            ("bfs+elashi,no-suicide,no-suicide", "given twice"),
            ("bfs+elashi,well=1,well=2", "given twice"),
            ("bfs+elashi,no-suicide=1", "takes no value"),
            (
                "bfs+elashi,expectimax=0",
                "expectimax finalists \"0\" is not a count from 1 to 255",
            ),
            ("bfs+elashi,expectimax=256", "is not a count from 1 to 255"),
            ("bfs+elashi,expectimax,expectimax=3", "given twice"),
            (
                "bfs+elashi,expectimax,prefer-bonus=0",
                "prefer-bonus \"0\" is not a whole number from 1 to 10000",
            ),
            (
                "bfs+elashi,expectimax,prefer-bonus=10001",
                "from 1 to 10000",
            ),
            ("bfs+elashi,expectimax,prefer-bonus=2.5", "from 1 to 10000"),
            ("bfs+elashi,expectimax,prefer-bonus", "prefer-bonus=B"),
            (
                "bfs+elashi,expectimax,prefer-bonus=1,prefer-bonus=2",
                "given twice",
            ),
            ("bfs+elashi,prefer-bonus=80", "give `expectimax` too"),
            (
                "bfs+elashi,expectimax=3,playouts=0",
                "playouts \"0\" is not a whole number from 1 to 64",
            ),
            ("bfs+elashi,expectimax=3,playouts=65", "from 1 to 64"),
            ("bfs+elashi,expectimax=3,playouts", "playouts=N"),
            (
                "bfs+elashi,expectimax=3,playouts=1,playouts=1",
                "given twice",
            ),
            ("bfs+elashi,playouts=8", "give `expectimax=K` too"),
            (
                "bfs+elashi,expectimax,playouts=8",
                "give `expectimax=K` too",
            ),
            (
                "bfs+nes-plateau,extra-deep-wells=0",
                "extra-deep-wells \"0\" is not a whole number from 1 to 1000",
            ),
            ("bfs+nes-plateau,extra-deep-wells=1001", "from 1 to 1000"),
            ("bfs+nes-plateau,extra-deep-wells=-5", "from 1 to 1000"),
            (
                "bfs+nes-plateau,extra-deep-wells=5,extra-deep-wells=5",
                "given twice",
            ),
            ("bfs+elashi,extra-deep-wells=5", "it needs that evaluator"),
            (
                "bfs+nes-plateau,overdeep-wells=0",
                "overdeep-wells \"0\" is not a whole number from 1 to 1000",
            ),
            ("bfs+nes-plateau,overdeep-wells=1001", "from 1 to 1000"),
            ("bfs+nes-plateau,overdeep-wells", "overdeep-wells=W"),
            (
                "bfs+nes-plateau,overdeep-wells=3,overdeep-wells=3",
                "given twice",
            ),
            (
                "bfs+dellacherie,overdeep-wells=3",
                "option \"overdeep-wells\" prices the nes-plateau evaluator's wells",
            ),
            ("bfs+elashi,", "empty option"),
            ("bfs+elashi,pattern=", "needs a board file"),
            ("bfs+elashi@2,no-suicide", "options go before the depth"),
            ("bfs+elashi@+2", "depth \"+2\" is not a whole number"),
            ("bfs+elashi@", "depth \"\" is not a whole number"),
        ] {
            let message = bad.parse::<StrategySpec>().unwrap_err().to_string();
            assert!(message.contains(reason), "{bad}: {message}");
        }
        let missing = Strategy::from_name("bfs+elashi,pattern=/no/such/pattern.txt")
            .err()
            .unwrap()
            .to_string();
        assert!(
            missing.contains("pattern file /no/such/pattern.txt"),
            "{missing}"
        );
        let endless = Strategy::from_name("bfs+elashi,pattern=/dev/zero")
            .err()
            .unwrap()
            .to_string();
        assert!(
            endless.ends_with(
                "pattern file /dev/zero: larger than 1 MiB (the limit for a pattern file)"
            ),
            "{endless}"
        );
    }

    #[test]
    fn a_pattern_file_gives_its_height() {
        let path = std::env::temp_dir().join(format!("pattern-{}.txt", std::process::id()));
        let rows = [".........."; 9].join("\n") + "\n##########\n";
        std::fs::write(&path, rows).unwrap();
        let name = format!("bfs+elashi,pattern={}", path.display());
        let strategy = Strategy::from_name(&name).unwrap();
        assert!(strategy.chain().options().filter.is_some());
        assert_eq!(strategy.pattern_height(), Some(10));
        assert_eq!(
            Strategy::from_name("bfs+elashi").unwrap().pattern_height(),
            None
        );
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn a_tuned_strategy_says_so_and_cannot_be_rebuilt_from_its_name() {
        let evaluator = crate::evaluator_with_values("elashi", &[1.0; 6])
            .unwrap()
            .unwrap();
        let strategy =
            Strategy::with_tuned_evaluator("bfs", evaluator, StrategyOptions::default(), 2)
                .unwrap();
        assert_eq!(strategy.name(), "bfs+elashi:<tuned>@2");
        assert!(Strategy::new(strategy.spec().clone()).is_err());
        let clone = strategy.clone();
        assert_eq!(clone.name(), strategy.name());
    }

    #[test]
    fn evaluator_specs_parse_and_print_back() {
        let spec: EvaluatorSpec = "elashi".parse().unwrap();
        assert_eq!(spec.weights, WeightsChoice::Default);
        assert_eq!(spec.to_string(), "elashi");
        let spec: EvaluatorSpec = "dellacherie:original".parse().unwrap();
        assert_eq!(spec.weights, WeightsChoice::Preset("original".into()));
        assert_eq!(spec.to_string(), "dellacherie:original");
        for file in ["elashi:w.json", "elashi:dir/weights"] {
            let spec: EvaluatorSpec = file.parse().unwrap();
            assert!(matches!(spec.weights, WeightsChoice::File(_)), "{file}");
            assert_eq!(spec.to_string(), file);
        }
        assert!("nope".parse::<EvaluatorSpec>().is_err());
        assert!(":published".parse::<EvaluatorSpec>().is_err());
        assert!(
            "dellacherie:nope"
                .parse::<EvaluatorSpec>()
                .unwrap()
                .build()
                .is_err()
        );
    }
}
