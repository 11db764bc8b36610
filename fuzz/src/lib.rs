//! `tetris-arena-fuzz`: the parsers' entry points for fuzzing, one function per kind of file or
//! name a user hands the arena, taking arbitrary bytes. The cargo-fuzz targets beside this
//! file (`fuzz_targets/`) call them, and so does the stable test that runs the committed fuzz
//! corpus (`arena/tests/fuzz_corpus.rs`, which includes this file as a module), so that the
//! two exercise exactly the same code. It lives here, not in a library of the arena, so that
//! no arena crate carries a module only the fuzzers use.
//!
//! Each entry feeds the bytes (as text, when they are UTF-8) to the arena's real reader and
//! ignores whether it accepts them: the only failure is a panic. Readers that take a path get
//! the bytes through a scratch file, so that the code path is the command's own.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use tetris_core::generator::parse_piece_letters;
use tetris_core::{Board, GeneratorKind};
use tetris_registry::{Strategy, StrategySpec, evaluator_from_weights_json, evaluator_names};

use tetris_arena_games::sim::replay::Replay;
use tetris_arena_io::input::read_board;
use tetris_arena_io::output::{OutputFormat, RunReport as _};
use tetris_arena_io::values;
use tetris_arena_reports::nes::NesReport;
use tetris_arena_reports::stats::{stats_json, stats_text};
use tetris_arena_reports::tournament::TournamentReport;
use tetris_arena_reports::tune::checkpoint::{
    Checkpoint, feature_names, finish_iteration, load_checkpoint, report,
};
use tetris_arena_requests::tune::TuneRequest;
use tetris_arena_runs::shard::{Merged, Part, check_part, merge_parts};

/// One entry point: arbitrary bytes in, a panic the only failure.
pub type EntryPoint = fn(&[u8]);

/// The fuzzed parsers, by the name of their fuzz target and corpus folder.
pub const TARGETS: &[(&str, EntryPoint)] = &[
    ("board", board),
    ("weights", weights),
    ("pieces", pieces),
    ("replay", replay),
    ("checkpoint", checkpoint),
    ("strategy", strategy),
    ("part", part),
    ("serve_body", serve_body),
    ("stackrabbit_query", stackrabbit_query),
    ("nes_trace", nes_trace),
];

/// A scratch file holding one input, removed when dropped (a fuzzer writes a million, and
/// the corpus test must leave no file behind).
struct ScratchFile(PathBuf);

impl ScratchFile {
    /// Writes `data` to this process's scratch file of `kind` (a file per process and kind,
    /// so that fuzzers and tests running side by side do not share one).
    fn new(kind: &str, data: &[u8]) -> ScratchFile {
        // In memory where there is such a folder: a disk-backed temporary folder can make
        // writing the file a thousand times slower than the parse.
        let memory = Path::new("/dev/shm");
        let folder = match memory.is_dir() {
            true => memory.to_path_buf(),
            false => std::env::temp_dir(),
        };
        let path = folder.join(format!(
            "tetris-arena-fuzz-{kind}-{}.tmp",
            std::process::id()
        ));
        let mut file = std::fs::File::create(&path).expect("the temporary folder is writable");
        file.write_all(data)
            .expect("the temporary folder has room for one input");
        ScratchFile(path)
    }
}

impl Drop for ScratchFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// A board file: the first byte picks the height asked for (0..=39, so that both legal and
/// illegal heights are tried), the rest is the file (text rows or a JSON array of rows). The
/// text also goes through `Board`'s own parser.
pub fn board(data: &[u8]) {
    let Some((&height, file)) = data.split_first() else {
        return;
    };
    let scratch = ScratchFile::new("board", file);
    if let Ok(board) = read_board(&scratch.0, height % 40) {
        assert_eq!(board.height(), height % 40);
    }
    if let Ok(text) = std::str::from_utf8(file)
        && let Ok(board) = text.parse::<Board>()
    {
        // A parsed board prints back to a text that parses to the same board.
        let printed = board.to_string();
        assert_eq!(printed.parse::<Board>().ok(), Some(board), "{printed:?}");
    }
}

/// A weights file, read for every registered evaluator.
pub fn weights(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for name in evaluator_names() {
        let _ = evaluator_from_weights_json(name, text);
    }
}

/// A piece file (`--generator file:PATH`, read through the generator), and the same text as
/// `--pieces`.
pub fn pieces(data: &[u8]) {
    let scratch = ScratchFile::new("pieces", data);
    let generator = GeneratorKind::File(scratch.0.display().to_string());
    if let Ok(sequence) = generator.start(0) {
        // A file generator deals the file's pieces, then ends.
        let dealt: Vec<_> = sequence.take(100_000).collect();
        if let Ok(text) = std::str::from_utf8(data) {
            assert_eq!(parse_piece_letters(text, "fuzz").ok(), Some(dealt));
        }
    }
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = values::pieces(text);
    }
}

/// A replay file: parsed, and when it parses, verified (without re-deciding, which would
/// search every placement).
pub fn replay(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(replay) = Replay::parse(text) {
        // Long games are verified too, but the fuzzer's inputs are short; this bound keeps a
        // crafted cap from making one input run for long.
        if replay.placements.len() <= 1_000 {
            let _ = replay.verify(None, &mut |_| {});
        }
    }
}

/// The trace of an NES run, checked as `arena replay TRACE` checks it: read (the run line
/// parsed and proven as a run's settings, then one game at a time), every game replayed
/// through the console's frame model, and what the games leave unproven worked out; not
/// re-decided, which would search every lock.
pub fn nes_trace(data: &[u8]) {
    use tetris_arena_io::values::Jobs;
    use tetris_arena_requests::nes_trace::TraceReplayRequest;
    let scratch = ScratchFile::new("nes-trace", data);
    let request = TraceReplayRequest {
        file: scratch.0.clone(),
        jobs: Jobs::try_from(1).ok(),
    };
    let _ = request.check(&mut |_| {});
}

/// A tuner checkpoint, resumed as `arena tune --resume` resumes it: the command line that
/// would resume it (its own settings as the options) goes through the request's check of the
/// values, and the file through [`load_checkpoint`] with the evaluator's features, so that
/// every check of the checkpoint is reached. A checkpoint these accept must then run: the
/// next iteration is finished with made-up game values (no game is played), as the tuner
/// finishes one, and the report is printed to a string.
pub fn checkpoint(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(parsed) = serde_json::from_str::<Checkpoint>(text) else {
        return;
    };
    let scratch = ScratchFile::new("checkpoint", data);
    let out = scratch.0.with_extension("weights.json");
    let Ok(settings) =
        TuneRequest::resuming(&parsed.settings, u64::MAX, out.clone(), scratch.0.clone())
            .and_then(|request| request.settings())
    else {
        return;
    };
    let Ok(features) = feature_names(&settings.evaluator) else {
        return;
    };
    let features: Vec<String> = features.iter().map(|name| name.to_string()).collect();
    if let Ok(mut checkpoint) = load_checkpoint(&scratch.0, &settings, &features) {
        let candidates = checkpoint.state.candidates().len();
        // Every candidate's games score its number: a ranking with ties and a clear best.
        let values: Vec<Vec<u64>> = (0..candidates as u64)
            .map(|value| vec![value % 7])
            .collect();
        finish_iteration(&mut checkpoint, &values);
        let _ = report(&checkpoint, &out);
    }
}

/// A strategy name: parsed, printed back (the canonical name must parse to the same spec),
/// and built.
pub fn strategy(data: &[u8]) {
    let Ok(name) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(spec) = name.parse::<StrategySpec>() {
        let canonical = spec.to_string();
        assert_eq!(
            canonical.parse::<StrategySpec>().ok().as_ref(),
            Some(&spec),
            "{name:?} prints as {canonical:?}"
        );
        let _ = Strategy::new(spec);
    }
}

/// A part file of a sharded run, read as `arena merge` reads it, then checked alone as the
/// merge checks each part (every check that needs no other part: the timing, the shard, the
/// settings, the results against them); a part of the whole run (shard 0/1) is also merged,
/// and the merged run's report made, as text and JSON (what `arena merge` prints), so that a
/// part the checks let through cannot panic the report either.
pub fn part(data: &[u8]) {
    let scratch = ScratchFile::new("part", data);
    let Ok(part) = Part::read(&scratch.0) else {
        return;
    };
    let whole = part.shard.is_whole();
    if check_part(&scratch.0, part.clone()).is_err() || !whole {
        return;
    }
    match merge_parts(vec![(scratch.0.clone(), part)]) {
        Ok(Merged::Tournament { settings, run }) => {
            let report = TournamentReport::new(&settings, run);
            let _ = (
                report.text(),
                report.json(true),
                report.games_file(OutputFormat::Csv),
                report.games_file(OutputFormat::JsonLines),
            );
        }
        Ok(Merged::Nes { settings, run }) => {
            let report = NesReport::new(&settings, &run);
            let _ = (
                report.text(),
                report.json(true),
                report.games_file(OutputFormat::Csv),
                report.games_file(OutputFormat::JsonLines),
            );
        }
        Ok(Merged::Stats {
            strategy,
            settings,
            statistics,
        }) => {
            let _ = (
                stats_text(&strategy, &settings, &statistics),
                stats_json(&strategy, &settings, &statistics),
            );
        }
        Err(_) => {}
    }
}

/// The move server's JSON bodies, read and checked as `arena serve` does (nothing is searched
/// or played): as a `/v1/analyze` or `/v1/rate` body, then as a `/v1/play` body.
pub fn serve_body(data: &[u8]) {
    use tetris_arena_jobs::api::{PlayBody, PositionBody};
    if let Ok(body) = serde_json::from_slice::<PositionBody>(data) {
        let _ = body.check();
    }
    if let Ok(body) = serde_json::from_slice::<PlayBody>(data) {
        if let Ok(request) = body.request() {
            let _ = request.check();
        }
    }
}

/// StackRabbit's requests as `arena serve` reads them: the first line is the path (the request
/// type), the rest the query string.
pub fn stackrabbit_query(data: &[u8]) {
    use tetris_arena_server::stackrabbit::{RequestType, parse_query};
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (path, query) = text.split_once('\n').unwrap_or((text, ""));
    let kind = RequestType::from_path(path);
    if kind.refusal().is_none() {
        let _ = parse_query(&kind, query);
    }
}
