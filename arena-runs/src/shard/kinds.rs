//! The three kinds of sharded run — what differs between their parts and merges
//! ([`ShardedRun`]): the settings and results stored, the checks of one part's results, and
//! the unsharded run rebuilt from them.
//!
//! The settings are stored as the run has them where its settings type serializes in the
//! part's form ([`TournamentSettings`]; [`StatisticsSettings`] beside the strategy's name).
//! An `arena nes` run's settings are stored through [`NesPartSettings`] (see there why).

use std::collections::BTreeSet;
use std::path::Path;

use serde::{Deserialize, Serialize};
use tetris_core::{GameOverRule, InputModel, Timeline};
use tetris_registry::{RegistryError, StrategySpec};

use crate::RunEnd;
use crate::error::RunError;
use crate::nes::NesRun;
use crate::shard::checks::{BlockContradiction, GameContradiction, GameCounts};
use crate::shard::merge::Merged;
use crate::shard::part::{MergedParts, ShardedRun, part_body_variant};
use crate::statistics::{StatisticsSettings, merge_blocks};
use crate::tournament::TournamentRun;
use crate::tournament::{TOURNAMENT_ROW_RULE, TournamentSettings};
use tetris_arena_games::analysis::nes::NesTally;
use tetris_arena_games::analysis::pieces::PieceStatistics;
use tetris_arena_games::analysis::tournament::{GameRow, TournamentTally};
use tetris_arena_games::sim::game::GameEnd;
use tetris_arena_games::sim::nes::{
    MAX_START_LEVEL, MAX_TAP_RATE, MIN_TAP_RATE, NesEnd, NesGameResult, NesRunSettings,
    POINTS_BEFORE_LEVEL, stop_level_lines,
};
use tetris_arena_games::sim::reaction::MAX_REACTION_FRAMES;
use tetris_arena_io::values::Shard;

/// One line about the part `path`, for the merge.
fn bad(path: &Path, message: String) -> RunError {
    RunError::Refused(format!("merge: {}: {message}", path.display()))
}

/// A strategy name stored in the part `path`, parsed back.
fn strategy_spec(path: &Path, name: &str) -> Result<StrategySpec, RunError> {
    name.parse()
        .map_err(|error: RegistryError| bad(path, error.to_string()))
}

/// Checks that a statistics record is one of a `height`-row board (a tampered part must not
/// panic the report) and does not contradict itself ([`PieceStatistics::check`]); `what`
/// names the game or block in the message.
fn check_statistics(
    path: &Path,
    what: &str,
    statistics: &PieceStatistics,
    height: u8,
) -> Result<(), RunError> {
    let height = usize::from(height);
    if statistics.board_height != height {
        return Err(bad(
            path,
            format!("{what}: piece statistics not of a {height}-row board"),
        ));
    }
    statistics
        .check()
        .map_err(|contradiction| bad(path, format!("{what}: {contradiction}")))
}

/// One game of a tournament: its counts and end against the settings, and its piece
/// statistics (when kept, and checked alone) against the game.
fn check_game_row(settings: &TournamentSettings, row: &GameRow) -> Result<(), GameContradiction> {
    GameCounts {
        pieces: row.pieces,
        lines: row.lines,
        clears: row.clears,
        score: row.score,
        start_level: 0,
    }
    .check(None)?;
    if let Some(cap) = settings.max_pieces.map(|cap| cap.get())
        && row.pieces > cap
    {
        return Err(GameContradiction::AboveCap {
            pieces: row.pieces,
            cap,
        });
    }
    let end = |why: String| {
        Err(GameContradiction::End {
            end: row.end.name(),
            why,
        })
    };
    match row.end {
        GameEnd::GameOver => {}
        GameEnd::PieceCap => match settings.max_pieces.map(|cap| cap.get()) {
            None => return end("but its settings have no max_pieces".into()),
            Some(cap) if row.pieces != cap => {
                return end(format!(
                    "after {} pieces, not the settings' max_pieces {cap}",
                    row.pieces
                ));
            }
            Some(_) => {}
        },
        GameEnd::SequenceEnded if settings.generator.is_seeded() => {
            return end(format!(
                "but its generator {} never ends",
                settings.generator
            ));
        }
        GameEnd::SequenceEnded | GameEnd::Fault => {}
        GameEnd::Stopped => {
            return end("(interrupted), and a part holds finished games only".into());
        }
    }
    // The statistics themselves were checked before ([`check_statistics`]).
    if let Some(statistics) = &row.statistics {
        let game_over = u64::from(row.end == GameEnd::GameOver);
        for (what, counted, game) in [
            ("pieces", statistics.pieces, row.pieces),
            ("lines", statistics.lines, row.lines),
            ("games", statistics.games, 1),
            ("game overs", statistics.game_overs, game_over),
        ] {
            if counted != game {
                return Err(GameContradiction::StatisticsDisagree {
                    what,
                    counted,
                    game,
                });
            }
        }
    }
    Ok(())
}

/// One game of an `arena nes` run: its counts, level and end against the settings (checked:
/// the stop level is reached at `stop_lines` lines).
fn check_nes_game(
    settings: &NesPartSettings,
    stop_lines: u32,
    game: &NesGameResult,
) -> Result<(), GameContradiction> {
    let counts = GameCounts {
        pieces: game.pieces,
        lines: u64::from(game.lines),
        clears: game.clears,
        score: game.score,
        start_level: settings.start_level,
    };
    counts.check(Some(game.line_clear_points))?;
    // The clear that reaches the stop level ends the game: it is the only clear that takes
    // the lines to the stop level's count, and it clears at most 4 rows. The same for the
    // line cap, which is below the stop level's count.
    let cap = settings.max_lines.unwrap_or(u32::MAX);
    let reached = |at: u32| (at..=at.saturating_add(3)).contains(&game.lines);
    let why = match game.end {
        NesEnd::ToppedOut if game.lines >= cap => Some(format!(
            "after {} lines, when the line cap of {cap} ends the game",
            game.lines
        )),
        NesEnd::ToppedOut if game.lines >= stop_lines => Some(format!(
            "after {} lines, when {stop_lines} lines reach the stop level {} and end the game",
            game.lines, settings.stop_level
        )),
        NesEnd::ReachedStopLevel if !reached(stop_lines) => Some(format!(
            "after {} lines, but the stop level {} is reached at {stop_lines}",
            game.lines, settings.stop_level
        )),
        NesEnd::ReachedLineCap if settings.max_lines.is_none() => {
            Some("but its settings have no line cap".to_string())
        }
        NesEnd::ReachedLineCap if !reached(cap) || game.lines >= stop_lines => Some(format!(
            "after {} lines, but the line cap is {cap} and the stop level is reached at \
             {stop_lines}",
            game.lines
        )),
        _ => None,
    };
    if let Some(why) = why {
        return Err(GameContradiction::End {
            end: game.end.name(),
            why,
        });
    }
    // The points before level 29: all the points while the level stays below 29, none from
    // a start at 29 or above, and never more than all.
    let before_29 = game.points_before_29();
    let expected = if settings.start_level >= POINTS_BEFORE_LEVEL {
        Some(0)
    } else if game.level < POINTS_BEFORE_LEVEL {
        Some(game.line_clear_points)
    } else {
        None
    };
    if expected.is_some_and(|expected| expected != before_29) || before_29 > game.line_clear_points
    {
        return Err(GameContradiction::PointsBefore29 {
            points: before_29,
            level: game.level,
            all: game.line_clear_points,
        });
    }
    counts.check_level(game.level)?;
    if game.pieces == 0 && game.frames != 0 {
        return Err(GameContradiction::FramesWithoutPieces {
            frames: game.frames,
        });
    }
    Ok(())
}

/// A tournament part's summary: the games' [`TournamentTally`] and, for a run that records
/// them, each strategy's piece statistics merged over its games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentSummary {
    /// The games, summarized.
    pub tally: TournamentTally,
    /// One per strategy when the settings record piece statistics; empty otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub statistics: Vec<PieceStatistics>,
}

/// `arena tournament`'s parts: the run's [`TournamentSettings`] (the strategies by name), the
/// shard's [`TournamentSummary`] and, for a shard of at most
/// [`crate::tournament::HELD_GAMES_LIMIT`] games, one [`GameRow`] per game and strategy.
#[derive(Clone, Copy, Debug)]
pub struct ShardedTournament;

impl ShardedRun for ShardedTournament {
    const COMMAND: &'static str = "tournament";
    const UNIT: &'static str = "games";
    const MAX_GAMES: u64 = crate::MAX_GAMES;
    type Settings = TournamentSettings;
    type Result = GameRow;
    type Summary = TournamentSummary;

    fn games(settings: &TournamentSettings) -> u64 {
        settings.games
    }

    fn summarize(settings: &TournamentSettings, results: &[GameRow]) -> TournamentSummary {
        let strategies = settings.names.len();
        let mut tally = TournamentTally::new(strategies);
        let mut statistics: Vec<PieceStatistics> = (0..strategies)
            .filter(|_| settings.piece_statistics)
            .map(|_| PieceStatistics::new(settings.board_height.rows(), TOURNAMENT_ROW_RULE))
            .collect();
        for sequence in results.chunk_by(|a, b| a.game == b.game) {
            let mut games = vec![None; strategies];
            for row in sequence {
                if let Some(game) = games.get_mut(row.strategy) {
                    *game = Some(row);
                }
                if let (Some(merged), Some(game)) =
                    (statistics.get_mut(row.strategy), &row.statistics)
                {
                    merged.merge(game);
                }
            }
            tally.add_sequence(&games);
        }
        TournamentSummary { tally, statistics }
    }

    fn check_summary(
        path: &Path,
        settings: &TournamentSettings,
        shard: Shard,
        summary: &TournamentSummary,
    ) -> Result<(), RunError> {
        let strategies = settings.names.len();
        let tally = &summary.tally;
        if let Some(contradiction) = tally.contradiction(strategies) {
            return Err(bad(path, format!("its summary: {contradiction}")));
        }
        let games = shard.game_count(settings.games);
        let counted = tally.strategies.iter().map(|strategy| strategy.games());
        let sequences = tally.pairs.iter().map(|pair| pair.sequences);
        if let Some(count) = counted.chain(sequences).find(|&count| count != games) {
            return Err(bad(
                path,
                format!(
                    "its summary counts {count} games of a strategy or pair, its shard has {games}"
                ),
            ));
        }
        let cap = settings.max_pieces.map_or(u64::MAX, |cap| cap.get());
        if tally.strategies.iter().any(|strategy| {
            strategy.pieces.max().is_some_and(|most| most > cap)
                || (strategy.capped > 0 && settings.max_pieces.is_none())
                || strategy
                    .scores
                    .max()
                    .is_some_and(|best| best > u64::from(tetris_core::scoring::MAX_SCORE))
        }) {
            return Err(bad(
                path,
                "its summary has a game past the piece cap, capped without a cap, or a score \
                 above the cap"
                    .into(),
            ));
        }
        let expected = if settings.piece_statistics {
            strategies
        } else {
            0
        };
        if summary.statistics.len() != expected {
            return Err(bad(
                path,
                "its summary's piece statistics do not match its settings".into(),
            ));
        }
        for (index, statistics) in summary.statistics.iter().enumerate() {
            let what = format!("strategy {index}'s piece statistics");
            if statistics.board_height != settings.board_height.rows() {
                return Err(bad(path, format!("{what}: not of its board")));
            }
            statistics
                .check_merged()
                .map_err(|contradiction| bad(path, format!("{what}: {contradiction}")))?;
            let strategy = &tally.strategies[index];
            let agrees = statistics.row_rule == TOURNAMENT_ROW_RULE
                && statistics.games == strategy.games()
                && u128::from(statistics.pieces) == strategy.pieces.sum()
                && u128::from(statistics.lines) == strategy.lines.sum()
                && statistics.game_overs == strategy.game_over_lines.count();
            if !agrees {
                return Err(bad(
                    path,
                    format!("{what} do not count the games its summary counts"),
                ));
            }
        }
        Ok(())
    }

    /// A version 2 part's games carry no piece statistics (its summary holds them merged):
    /// then the games' tally must be the summary's, and the summary's statistics are taken.
    fn reconcile(
        recorded: Option<TournamentSummary>,
        of_results: TournamentSummary,
    ) -> Option<TournamentSummary> {
        match recorded {
            None => Some(of_results),
            Some(recorded) => {
                let statistics_agree = of_results
                    .statistics
                    .iter()
                    .all(|statistics| statistics.games == 0)
                    || of_results.statistics == recorded.statistics;
                (recorded.tally == of_results.tally && statistics_agree).then_some(recorded)
            }
        }
    }

    fn merge_summary(total: &mut TournamentSummary, part: &TournamentSummary) {
        total.tally.merge(&part.tally);
        for (merged, more) in total.statistics.iter_mut().zip(&part.statistics) {
            merged.merge(more);
        }
    }

    part_body_variant!(Tournament);

    fn check_settings(path: &Path, settings: &TournamentSettings) -> Result<(), RunError> {
        if settings.names.is_empty() {
            return Err(bad(path, "its settings name no strategy".into()));
        }
        for name in &settings.names {
            strategy_spec(path, name)?;
        }
        crate::check_games_and_seeds(settings.games, settings.seed)
            .map_err(|error| bad(path, error.to_string()))?;
        if settings.estimate && !settings.piece_statistics {
            return Err(bad(
                path,
                "its settings estimate without piece statistics, which the estimate needs".into(),
            ));
        }
        Ok(())
    }

    fn tasks(
        path: &Path,
        settings: &TournamentSettings,
        games: &[u64],
        results: &[GameRow],
    ) -> Result<Vec<(u64, u64)>, RunError> {
        let strategies = settings.names.len();
        let mut expected: BTreeSet<(u64, usize)> = games
            .iter()
            .flat_map(|&game| (0..strategies).map(move |strategy| (game, strategy)))
            .collect();
        let mut tasks = Vec::with_capacity(results.len());
        for result in results {
            if !expected.remove(&(result.game, result.strategy)) {
                return Err(bad(
                    path,
                    format!(
                        "a result for game {} of strategy {} that it does not hold or holds \
                         twice",
                        result.game, result.strategy
                    ),
                ));
            }
            if result.seed != settings.seed.wrapping_add(result.game) {
                return Err(bad(path, format!("game {} has a wrong seed", result.game)));
            }
            // A version 2 part keeps its games' piece statistics merged in its summary, not
            // per game.
            if result.statistics.is_some() && !settings.piece_statistics {
                return Err(bad(
                    path,
                    format!(
                        "game {}'s piece statistics do not match its settings",
                        result.game
                    ),
                ));
            }
            let what = format!("game {} of strategy {}", result.game, result.strategy);
            if let Some(statistics) = &result.statistics {
                check_statistics(path, &what, statistics, settings.board_height.get())?;
                if statistics.row_rule != TOURNAMENT_ROW_RULE {
                    return Err(bad(
                        path,
                        format!(
                            "{what}: piece statistics counted by the {} row, a tournament's \
                             by the {} row",
                            statistics.row_rule, TOURNAMENT_ROW_RULE
                        ),
                    ));
                }
            }
            check_game_row(settings, result)
                .map_err(|contradiction| bad(path, format!("{what}: {contradiction}")))?;
            tasks.push((result.game, result.strategy as u64));
        }
        if let Some((game, strategy)) = expected.into_iter().next() {
            return Err(bad(
                path,
                format!("no result for game {game} of strategy {strategy}"),
            ));
        }
        Ok(tasks)
    }

    fn merged(
        path: &Path,
        mut settings: TournamentSettings,
        summary: TournamentSummary,
        merged: MergedParts<GameRow>,
    ) -> Result<Merged, RunError> {
        // A part stores the names only (`specs` is not serialized): parsed back here (each
        // was checked to parse).
        settings.specs = settings
            .names
            .iter()
            .map(|name| strategy_spec(path, name))
            .collect::<Result<_, _>>()?;
        let games = merged.results.map(|mut games| {
            for row in &mut games {
                row.statistics = None;
            }
            games.sort_by_key(|row| (row.strategy, row.game));
            games
        });
        let run = TournamentRun {
            end: RunEnd {
                finished: summary.tally.games(),
                interrupted: false,
                jobs: merged.jobs,
                wall: merged.wall,
            },
            tally: summary.tally,
            statistics: summary.statistics,
            games,
            games_streamed: false,
        };
        Ok(Merged::Tournament { settings, run })
    }
}

/// An `arena nes` run's settings in a part.
///
/// The run's [`NesRunSettings`] hold the parsed strategy, which a part stores by name and the
/// merge parses back, so that a bad name is the merge's one-line error about the part rather
/// than a failure to read the file; hence this stored form, field for field the run's.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NesPartSettings {
    /// The strategy's canonical name.
    pub strategy: String,
    /// Whether its searcher ignores gravity.
    pub ignores_gravity: bool,
    /// Games.
    pub games: u64,
    /// Game k uses `seed + k`.
    pub seed: u64,
    /// Start level.
    pub start_level: u8,
    /// Stop level.
    pub stop_level: u8,
    /// The line cap (absent in parts written before it existed: none).
    #[serde(default)]
    pub max_lines: Option<u32>,
    /// Tap rate, for a uniform timeline (as every part before timelines wrote it) …
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tap_rate: Option<u8>,
    /// … or a mixed timeline's pattern (exactly one of the two).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeline: Option<String>,
    /// The game-over rule (parts written before the console rule existed played the
    /// simulation rule, the default).
    #[serde(default)]
    pub game_over_rule: GameOverRule,
    /// The input model (absent in parts written before it was recorded: two-thumb).
    #[serde(default)]
    pub inputs: InputModel,
    /// The player's reaction frames (absent when 0, as in every part written before they
    /// existed).
    #[serde(
        default,
        skip_serializing_if = "tetris_arena_games::sim::reaction::sees_preview_at_once"
    )]
    pub reaction_frames: u8,
    /// The outside engine deciding, as it named itself (absent for the arena's own).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
}

impl NesPartSettings {
    /// The stored form of a run's settings.
    pub fn of(settings: &NesRunSettings) -> NesPartSettings {
        let (tap_rate, timeline) = settings.recorded_timeline();
        NesPartSettings {
            strategy: settings.strategy.to_string(),
            ignores_gravity: settings.ignores_gravity,
            games: settings.games,
            seed: settings.seed,
            start_level: settings.start_level,
            stop_level: settings.stop_level,
            max_lines: settings.max_lines,
            tap_rate,
            timeline: timeline.map(|timeline| timeline.to_string()),
            game_over_rule: settings.game_over_rule,
            inputs: settings.inputs,
            reaction_frames: settings.reaction_frames,
            engine: settings.engine.clone(),
        }
    }

    /// The stored timeline, once [`ShardedNes::check_settings`] has accepted it.
    fn timeline(&self) -> Option<Timeline> {
        match (self.tap_rate, self.timeline.as_deref()) {
            (Some(rate), None) if (MIN_TAP_RATE..=MAX_TAP_RATE).contains(&rate) => {
                Some(Timeline::uniform(rate))
            }
            (None, Some(text)) => text.parse().ok(),
            _ => None,
        }
    }

    /// The run's settings, with the stored strategy parsed into `strategy`.
    fn into_run(self, strategy: StrategySpec) -> NesRunSettings {
        NesRunSettings {
            strategy,
            ignores_gravity: self.ignores_gravity,
            games: self.games,
            seed: self.seed,
            start_level: self.start_level,
            stop_level: self.stop_level,
            max_lines: self.max_lines,
            timeline: self
                .timeline()
                .expect("a part's timeline is checked when it is read"),
            game_over_rule: self.game_over_rule,
            inputs: self.inputs,
            reaction_frames: self.reaction_frames,
            engine: self.engine,
        }
    }
}

/// `arena nes`'s parts: [`NesPartSettings`] and one [`NesGameResult`] per game.
#[derive(Clone, Copy, Debug)]
pub struct ShardedNes;

impl ShardedRun for ShardedNes {
    const COMMAND: &'static str = "nes";
    const UNIT: &'static str = "games";
    const MAX_GAMES: u64 = crate::MAX_GAMES;
    type Settings = NesPartSettings;
    type Result = NesGameResult;
    type Summary = NesTally;

    fn games(settings: &NesPartSettings) -> u64 {
        settings.games
    }

    fn summarize(_settings: &NesPartSettings, results: &[NesGameResult]) -> NesTally {
        NesTally::of(results)
    }

    fn check_summary(
        path: &Path,
        settings: &NesPartSettings,
        shard: Shard,
        summary: &NesTally,
    ) -> Result<(), RunError> {
        if let Some(contradiction) = summary.contradiction() {
            return Err(bad(path, format!("its summary: {contradiction}")));
        }
        let (start, stop) = (
            u64::from(settings.start_level),
            u64::from(settings.stop_level),
        );
        let levels = (summary.levels.min(), summary.levels.max());
        if let (Some(lowest), Some(highest)) = levels {
            if lowest < start || highest > stop {
                return Err(bad(
                    path,
                    format!(
                        "its summary has games ending on levels {lowest} to {highest}, outside \
                         its settings' {start} to {stop}"
                    ),
                ));
            }
        }
        let games = shard.game_count(settings.games);
        if summary.games() != games {
            return Err(bad(
                path,
                format!(
                    "its summary counts {} games, its shard has {games}",
                    summary.games()
                ),
            ));
        }
        Ok(())
    }

    fn merge_summary(total: &mut NesTally, part: &NesTally) {
        total.merge(part);
    }

    part_body_variant!(Nes);

    fn check_settings(path: &Path, settings: &NesPartSettings) -> Result<(), RunError> {
        strategy_spec(path, &settings.strategy)?;
        crate::check_games_and_seeds(settings.games, settings.seed)
            .map_err(|error| bad(path, error.to_string()))?;
        let (start, stop) = (settings.start_level, settings.stop_level);
        let why = if start > MAX_START_LEVEL {
            Some(format!("start level {start}, above {MAX_START_LEVEL}"))
        } else if stop <= start {
            Some(format!(
                "stop level {stop}, not above the start level {start}"
            ))
        } else if let Some(cap) = settings
            .max_lines
            .filter(|&cap| cap == 0 || stop_level_lines(start, stop).is_none_or(|at| cap >= at))
        {
            Some(format!(
                "line cap {cap}, not from 1 to below the stop level's lines"
            ))
        } else if settings.timeline().is_none() {
            Some(match (settings.tap_rate, &settings.timeline) {
                (Some(rate), None) => {
                    format!("tap rate {rate}, not {MIN_TAP_RATE} to {MAX_TAP_RATE}")
                }
                (None, Some(text)) => format!("timeline {text:?}, not an input-frame timeline"),
                _ => "not exactly one of a tap rate and a timeline".to_string(),
            })
        } else if settings.reaction_frames > MAX_REACTION_FRAMES {
            Some(format!(
                "{} reaction frames, above {MAX_REACTION_FRAMES}",
                settings.reaction_frames
            ))
        } else if settings.reaction_frames > 0 && settings.ignores_gravity {
            Some("a reaction time for a searcher that ignores gravity".into())
        } else if settings.game_over_rule == GameOverRule::Literature {
            Some("the literature's game-over rule, which NES runs do not play".into())
        } else if settings.game_over_rule == GameOverRule::Console && settings.ignores_gravity {
            Some("the console rule for a searcher that ignores gravity".into())
        } else {
            None
        };
        match why {
            Some(why) => Err(bad(path, format!("its settings say {why}"))),
            None => Ok(()),
        }
    }

    fn tasks(
        path: &Path,
        settings: &NesPartSettings,
        games: &[u64],
        results: &[NesGameResult],
    ) -> Result<Vec<(u64, u64)>, RunError> {
        // A game's result carries its seed, `seed + game`.
        let held: Vec<u64> = results
            .iter()
            .map(|result| result.seed.wrapping_sub(settings.seed))
            .collect();
        if held != games {
            return Err(bad(
                path,
                "its results are not one per game it holds".into(),
            ));
        }
        let stop_lines = stop_level_lines(settings.start_level, settings.stop_level)
            .ok_or_else(|| bad(path, "its settings' stop level is never reached".into()))?;
        let recorded_before_29 = results
            .iter()
            .all(|result| result.points_before_level_29.is_some());
        if !recorded_before_29 && settings.stop_level > POINTS_BEFORE_LEVEL {
            // Its games' points before level 29 are unknown (older parts recorded them only
            // implicitly, as all the points of games that stop at 29 or below).
            return Err(bad(
                path,
                "its games do not record their points before level 29, which a run past \
                 level 29 needs: play it again"
                    .into(),
            ));
        }
        for (game, result) in held.iter().zip(results) {
            check_nes_game(settings, stop_lines, result)
                .map_err(|contradiction| bad(path, format!("game {game}: {contradiction}")))?;
        }
        Ok(held.into_iter().map(|game| (game, 0)).collect())
    }

    fn merged(
        path: &Path,
        settings: NesPartSettings,
        summary: NesTally,
        merged: MergedParts<NesGameResult>,
    ) -> Result<Merged, RunError> {
        let strategy = strategy_spec(path, &settings.strategy)?;
        let run = NesRun {
            end: RunEnd {
                finished: summary.games(),
                interrupted: false,
                jobs: merged.jobs,
                wall: merged.wall,
            },
            tally: summary,
            games: merged.results,
            games_streamed: false,
        };
        Ok(Merged::Nes {
            settings: settings.into_run(strategy),
            run: Box::new(run),
        })
    }
}

/// An `arena stats` run's settings in a part: the strategy's name, then the run's settings'
/// fields. It is read through a map ([`StatsPartSettings::try_from`]): serde refuses no
/// unknown key beside a flattened field, and [`StatisticsSettings`] refuses every one.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(try_from = "serde_json::Map<String, serde_json::Value>")]
pub struct StatsPartSettings {
    /// The strategy's canonical name.
    pub strategy: String,
    /// The run's settings.
    #[serde(flatten)]
    pub run: StatisticsSettings,
}

impl TryFrom<serde_json::Map<String, serde_json::Value>> for StatsPartSettings {
    type Error = serde_json::Error;

    /// The strategy's name, and every other key as [`StatisticsSettings`].
    fn try_from(
        mut map: serde_json::Map<String, serde_json::Value>,
    ) -> Result<StatsPartSettings, serde_json::Error> {
        use serde::de::Error as _;
        let strategy = match map.remove("strategy") {
            Some(value) => serde_json::from_value(value)?,
            None => return Err(serde_json::Error::missing_field("strategy")),
        };
        let run = serde_json::from_value(serde_json::Value::Object(map))?;
        Ok(StatsPartSettings { strategy, run })
    }
}

/// `arena stats`'s parts: [`StatsPartSettings`] and the [`PieceStatistics`] of each block
/// held (one: shard K of N plays block K of N).
#[derive(Clone, Copy, Debug)]
pub struct ShardedStats;

impl ShardedRun for ShardedStats {
    const COMMAND: &'static str = "stats";
    const UNIT: &'static str = "blocks";
    const MAX_GAMES: u64 = crate::statistics::MAX_BLOCKS;
    type Settings = StatsPartSettings;
    type Result = PieceStatistics;
    type Summary = PieceStatistics;

    fn games(settings: &StatsPartSettings) -> u64 {
        settings.run.blocks
    }

    fn summarize(settings: &StatsPartSettings, results: &[PieceStatistics]) -> PieceStatistics {
        merge_blocks(
            settings.run.board_height.get(),
            settings.run.row_rule,
            results,
        )
    }

    fn check_summary(
        path: &Path,
        settings: &StatsPartSettings,
        _shard: Shard,
        summary: &PieceStatistics,
    ) -> Result<(), RunError> {
        if summary.row_rule != settings.run.row_rule {
            return Err(bad(
                path,
                "its summary's row rule is not its settings'".into(),
            ));
        }
        check_statistics(
            path,
            "its summary",
            summary,
            settings.run.board_height.get(),
        )
    }

    fn merge_summary(total: &mut PieceStatistics, part: &PieceStatistics) {
        total.merge(part);
    }

    part_body_variant!(Stats);

    fn check_settings(path: &Path, settings: &StatsPartSettings) -> Result<(), RunError> {
        strategy_spec(path, &settings.strategy)?;
        let run = &settings.run;
        run.check().map_err(|error| bad(path, error.to_string()))
    }

    fn tasks(
        path: &Path,
        settings: &StatsPartSettings,
        blocks: &[u64],
        results: &[PieceStatistics],
    ) -> Result<Vec<(u64, u64)>, RunError> {
        if results.len() != blocks.len() {
            return Err(bad(
                path,
                "its results are not one per block it holds".into(),
            ));
        }
        let settings = &settings.run;
        for (&block, statistics) in blocks.iter().zip(results) {
            let what = format!("block {block}");
            if statistics.row_rule != settings.row_rule {
                return Err(bad(
                    path,
                    format!(
                        "{what}: piece statistics counted by the {} row, not the {} row of its \
                         settings",
                        statistics.row_rule, settings.row_rule
                    ),
                ));
            }
            check_statistics(path, &what, statistics, settings.board_height.get())?;
            BlockContradiction::check(settings, block, statistics)
                .map_err(|contradiction| bad(path, format!("{what}: {contradiction}")))?;
        }
        Ok(blocks.iter().map(|&block| (block, 0)).collect())
    }

    fn merged(
        _path: &Path,
        settings: StatsPartSettings,
        summary: PieceStatistics,
        _merged: MergedParts<PieceStatistics>,
    ) -> Result<Merged, RunError> {
        let StatsPartSettings { strategy, run } = settings;
        Ok(Merged::Stats {
            strategy,
            statistics: Box::new(summary),
            settings: run,
        })
    }
}
