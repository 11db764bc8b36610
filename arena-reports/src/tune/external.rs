//! The tuner with an external runner (`arena tune --runner 'COMMAND'`): each iteration's
//! candidates are played by separate `arena tune-task` processes that a user's command starts
//! (GNU parallel, `xargs -P`, `srun`, a Slurm array job, …), possibly on other machines that
//! share the work folder; the tuner waits, verifies and merges their results, then ends the
//! iteration exactly as the in-process tuner does ([`finish_iteration`]), so the weights and the
//! checkpoint are bit-identical to `arena tune` without `--runner`.
//!
//! # Tasks
//!
//! One task is one candidate of one iteration: all of its games (every candidate of an
//! iteration plays the same games, so the candidate is the natural unit: the strategy is built
//! once per process, and with the usual settings one candidate's games take from a fraction of
//! a second to minutes, far above a process start). Iteration i has `--population` tasks,
//! numbered like the candidates from 0.
//!
//! # The work folder
//!
//! For each iteration the tuner writes into the work folder:
//!
//! - `iteration.json`: the [`IterationSpec`] (settings, iteration, first game seed, every
//!   candidate's weights) — everything a task needs, so tasks read no checkpoint;
//! - `ids.txt`: the task numbers still to run, one per line;
//! - `tasks.txt`: for each of them the full shell command, one per line:
//!   `ARENA tune-task DIR --task T`.
//!
//! Task T writes `result-T.json` ([`TaskResult`]: the hash of the `iteration.json` it played,
//! the iteration, the task and its per-game values as integers) atomically. The tuner runs the
//! user's command through `sh -c` with the placeholders `{tasks}`, `{ids}`, `{dir}`,
//! `{arena}`, `{count}` and `{last}` replaced ([`Runner::command_line`]), waits for it, and
//! reads every pending result. A missing or invalid result (wrong hash, iteration, task or
//! number of values; unreadable JSON) is run again: the lists are rewritten with only those
//! tasks and the command runs again, at most `--retries` times; then the run stops with one
//! error naming every task without a valid result (the folder is kept for inspection). The
//! runner's exit status is reported but does not decide anything: the results do. After a
//! successful iteration the folder's files are removed, and the folder itself at the end of
//! the run if the tuner created it.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde::{Deserialize, Serialize};
use tetris_core::GeneratorKind;

use crate::error::ReportError;
use crate::tune::checkpoint::{
    Checkpoint, IterationPlan, IterationRecord, TuneSettings, finish_iteration, play_candidates,
};
use tetris_arena_io::output::{FileName, check_distinct, json_line, pretty_json, write_atomically};

/// The format name of `iteration.json`.
pub const ITERATION_FORMAT: &str = "arena-tune-iteration-1";
/// The format name of a task's `result-T.json`.
pub const RESULT_FORMAT: &str = "arena-tune-result-1";
/// The iteration file in the work folder.
pub const ITERATION_FILE: &str = "iteration.json";
/// The largest runner file read (the iteration file, `ids.txt`, a result file): 64 MiB. The
/// iteration file, the largest, holds one vector of weights per candidate (a few hundred
/// bytes each): a few MiB at most in real use.
pub const RUNNER_FILE_LIMIT: u64 = 64 * tetris_core::files::MIB;
/// The pending task numbers, one per line.
pub const IDS_FILE: &str = "ids.txt";
/// The pending tasks' shell commands, one per line.
pub const TASKS_FILE: &str = "tasks.txt";
/// The placeholders of a runner template.
pub const PLACEHOLDERS: [&str; 6] = ["{tasks}", "{ids}", "{dir}", "{arena}", "{count}", "{last}"];

/// What every task of one iteration plays (`iteration.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IterationSpec {
    /// [`ITERATION_FORMAT`].
    pub format: String,
    /// The run's settings.
    pub settings: TuneSettings,
    /// The iteration, its games' first seed and its candidates.
    pub plan: IterationPlan,
}

/// One task's result (`result-T.json`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TaskResult {
    /// [`RESULT_FORMAT`].
    pub format: String,
    /// [`spec_hash`] of the `iteration.json` bytes the task played.
    pub spec_hash: String,
    /// The iteration (from 0).
    pub iteration: u64,
    /// The task, i.e. the candidate (from 0).
    pub task: u64,
    /// The candidate's per-game values (lines or score), in game order.
    pub values: Vec<u64>,
}

/// The 64-bit FNV-1a hash of `bytes`, as 16 hexadecimal digits: ties a result to the exact
/// iteration file (settings, iteration, candidates) it was computed from.
pub fn spec_hash(bytes: &[u8]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &byte in bytes {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{hash:016x}")
}

/// The result file of `task` in `dir`.
pub fn result_path(dir: &Path, task: u64) -> PathBuf {
    dir.join(format!("result-{task}.json"))
}

/// Checks a result file's text against what the tuner expects and returns its values, or why
/// it is not valid.
pub fn verify_result(
    text: &str,
    hash: &str,
    iteration: u64,
    task: u64,
    games: u64,
) -> Result<Vec<u64>, String> {
    let result: TaskResult = tetris_core::files::parse_json(text)
        .map_err(|error| format!("not a task result: {error}"))?;
    if result.format != RESULT_FORMAT {
        return Err(format!(
            "format {:?}, expected {RESULT_FORMAT:?}",
            result.format
        ));
    }
    if result.spec_hash != hash {
        return Err(format!(
            "made from another iteration file (hash {}, expected {hash})",
            result.spec_hash
        ));
    }
    if (result.iteration, result.task) != (iteration, task) {
        return Err(format!(
            "holds iteration {} task {}, expected iteration {iteration} task {task}",
            result.iteration, result.task
        ));
    }
    if result.values.len() as u64 != games {
        return Err(format!(
            "{} game values, expected {games}",
            result.values.len()
        ));
    }
    Ok(result.values)
}

/// `text` quoted for `sh` when it holds anything but letters, digits and `_./,:=+@%-`.
pub fn shell_quote(text: &str) -> String {
    let plain = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_./,:=+@%-".contains(c));
    if plain {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

/// Which task `arena tune-task` plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TaskChoice {
    /// Task (candidate) T.
    Task(u64),
    /// The task on line K (from 0) of `ids.txt`, e.g. `$SLURM_ARRAY_TASK_ID`.
    Index(u64),
}

/// Plays one task of the iteration in `dir` on `jobs` threads and writes its result file
/// atomically; returns the task's number.
pub fn run_task(dir: &Path, choice: TaskChoice, jobs: usize) -> Result<u64, ReportError> {
    let spec_path = dir.join(ITERATION_FILE);
    let shown = spec_path.display().to_string();
    let bytes = tetris_core::files::read_bytes(&spec_path, RUNNER_FILE_LIMIT, "runner file")
        .map_err(|error| match error {
            tetris_core::Error::Io {
                path,
                message,
                kind,
            } => ReportError::File(tetris_arena_io::FileError::Io {
                path,
                message,
                kind,
            }),
            too_large => ReportError::Core(too_large),
        })?;
    let spec: IterationSpec = tetris_core::files::parse_json_bytes(&bytes).map_err(|error| {
        ReportError::Refused(format!("{shown}: not an iteration file: {error}"))
    })?;
    if spec.format != ITERATION_FORMAT {
        return Err(ReportError::Refused(format!(
            "{shown}: format {:?}, expected {ITERATION_FORMAT:?}",
            spec.format
        )));
    }
    let task = match choice {
        TaskChoice::Task(task) => task,
        TaskChoice::Index(index) => {
            let ids_path = dir.join(IDS_FILE);
            let shown = ids_path.display().to_string();
            let ids =
                tetris_arena_io::input::read_text(&ids_path, RUNNER_FILE_LIMIT, "runner file")?;
            let line = ids.lines().nth(index as usize).ok_or_else(|| {
                ReportError::Refused(format!(
                    "--index {index}: {shown} lists {} tasks",
                    ids.lines().count()
                ))
            })?;
            line.trim()
                .parse()
                .map_err(|_| ReportError::Refused(format!("{shown}: {line:?} is not a task")))?
        }
    };
    let candidates = &spec.plan.candidates;
    let Some(weights) = candidates.get(task as usize) else {
        return Err(ReportError::Refused(format!(
            "--task {task}: iteration {} has tasks 0 to {}",
            spec.plan.iteration,
            candidates.len().saturating_sub(1)
        )));
    };
    // The result is written into the work folder, which holds the task's inputs: it must be
    // none of them (a hard link to the piece file, say).
    let result_file = result_path(dir, task);
    let piece_file = match spec.settings.generator.parse::<GeneratorKind>()? {
        GeneratorKind::File(path) => Some(PathBuf::from(path)),
        _ => None,
    };
    let mut inputs: Vec<(FileName, &Path)> = vec![(FileName::What("iteration file"), &spec_path)];
    inputs.extend(
        piece_file
            .as_deref()
            .map(|path| (FileName::What("piece file"), path)),
    );
    check_distinct(&[(FileName::What("result file"), &result_file)], &inputs)?;
    let values = play_candidates(
        &spec.settings,
        spec.plan.first_game_seed,
        std::slice::from_ref(weights),
        jobs,
    )?
    .remove(0);
    let result = TaskResult {
        format: RESULT_FORMAT.to_string(),
        spec_hash: spec_hash(&bytes),
        iteration: spec.plan.iteration,
        task,
        values,
    };
    write_atomically(&result_file, json_line(&result).as_bytes())?;
    Ok(task)
}

/// The work folder of `arena tune --runner`: `dir` (`--work-dir`) when given, else
/// `BESIDE.tasks` next to `beside`, the checkpoint or else the weights file.
pub fn work_dir(dir: Option<&Path>, beside: &Path) -> PathBuf {
    match dir {
        Some(dir) => dir.to_path_buf(),
        None => {
            let mut name = beside.file_name().unwrap_or_default().to_os_string();
            name.push(".tasks");
            beside.with_file_name(name)
        }
    }
}

/// The external runner of `arena tune --runner`: the command template, the work folder and
/// the retries.
#[derive(Clone, Debug)]
pub struct Runner {
    /// The user's command with placeholders ([`PLACEHOLDERS`]).
    pub template: String,
    /// The work folder (absolute).
    pub dir: PathBuf,
    /// Whether the tuner created the folder (and removes it at the end).
    pub created: bool,
    /// How often missing tasks are run again.
    pub retries: u32,
    /// The `arena` binary the tasks run.
    pub arena: PathBuf,
}

impl Runner {
    /// Checks the template and prepares the work folder `dir` ([`work_dir`]; the request's
    /// check has made sure no other file of the run is it or lies in it): created if
    /// missing; files of an earlier run in it are removed.
    pub fn new(template: &str, dir: &Path, retries: u32) -> Result<Runner, ReportError> {
        if !["{tasks}", "{ids}", "{dir}"]
            .iter()
            .any(|placeholder| template.contains(placeholder))
        {
            return Err(ReportError::Refused(format!(
                "--runner {template:?} names no task list: use {{tasks}} (a file of shell \
                 commands, one per line), {{ids}} (a file of task numbers) or {{dir}}"
            )));
        }
        let shown = dir.display().to_string();
        let created = !dir.exists();
        fs::create_dir_all(dir).map_err(|error| ReportError::io(&shown, &error))?;
        let dir = fs::canonicalize(dir).map_err(|error| ReportError::io(&shown, &error))?;
        let arena = std::env::current_exe().map_err(|error| ReportError::io("arena", &error))?;
        let runner = Runner {
            template: template.to_string(),
            dir,
            created,
            retries,
            arena,
        };
        runner.clean()?;
        Ok(runner)
    }

    /// The shell command of one task.
    pub fn task_line(&self, task: u64) -> String {
        format!(
            "{} tune-task {} --task {task}",
            shell_quote(&self.arena.to_string_lossy()),
            shell_quote(&self.dir.to_string_lossy())
        )
    }

    /// The template with its placeholders replaced for `count` pending tasks: `{tasks}`,
    /// `{ids}` and `{dir}` by the (shell-quoted) paths, `{arena}` by this binary, `{count}` by
    /// the number of tasks and `{last}` by that number minus one (for `--array=0-{last}`).
    pub fn command_line(&self, count: usize) -> String {
        let path = |name: &str| shell_quote(&self.dir.join(name).to_string_lossy());
        self.template
            .replace("{tasks}", &path(TASKS_FILE))
            .replace("{ids}", &path(IDS_FILE))
            .replace("{dir}", &shell_quote(&self.dir.to_string_lossy()))
            .replace("{arena}", &shell_quote(&self.arena.to_string_lossy()))
            .replace("{count}", &count.to_string())
            .replace("{last}", &count.saturating_sub(1).to_string())
    }

    /// Removes the tuner's and the tasks' files from the work folder (not the folder).
    pub fn clean(&self) -> Result<(), ReportError> {
        let shown = self.dir.display().to_string();
        let entries = fs::read_dir(&self.dir).map_err(|error| ReportError::io(&shown, &error))?;
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().to_string();
            if is_ours(&name) && entry.path().is_file() {
                fs::remove_file(entry.path())
                    .map_err(|error| ReportError::io(entry.path().display().to_string(), &error))?;
            }
        }
        Ok(())
    }

    /// Cleans the folder and removes it if the tuner created it (and it is empty).
    pub fn finish(&self) -> Result<(), ReportError> {
        self.clean()?;
        if self.created {
            let _ = fs::remove_dir(&self.dir);
        }
        Ok(())
    }

    /// Runs the command once for `pending` (rewriting `ids.txt` and `tasks.txt`); returns a
    /// note when it did not exit successfully.
    fn run_once(&self, pending: &[u64]) -> Result<Option<String>, ReportError> {
        let ids: String = pending.iter().map(|task| format!("{task}\n")).collect();
        let tasks: String = pending
            .iter()
            .map(|&task| format!("{}\n", self.task_line(task)))
            .collect();
        write_atomically(&self.dir.join(IDS_FILE), ids.as_bytes())?;
        write_atomically(&self.dir.join(TASKS_FILE), tasks.as_bytes())?;
        let line = self.command_line(pending.len());
        // The runner's stdout goes to stderr: stdout carries only the tuner's report.
        let status = Command::new("sh")
            .arg("-c")
            .arg(&line)
            .stdin(Stdio::null())
            .stdout(stderr_for_child())
            .status()
            .map_err(|error| ReportError::io("sh", &error))?;
        Ok((!status.success()).then(|| format!("note: --runner exited with {status}")))
    }
}

/// The tuner's stderr as a child's stdout (inherited stdout elsewhere than Unix).
fn stderr_for_child() -> Stdio {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        if let Ok(fd) = std::io::stderr().as_fd().try_clone_to_owned() {
            return Stdio::from(fd);
        }
    }
    Stdio::inherit()
}

/// Whether a file in the work folder is the tuner's or a task's: `iteration.json`, `ids.txt`,
/// `tasks.txt`, `result-N.json`, or the temporary file of an atomic write of one of them.
fn is_ours(name: &str) -> bool {
    let name = match name.strip_prefix('.') {
        // `.NAME.PID.tmp`, left by an interrupted atomic write.
        Some(hidden) => match hidden
            .strip_suffix(".tmp")
            .and_then(|rest| rest.rsplit_once('.'))
        {
            Some((name, pid)) if pid.bytes().all(|b| b.is_ascii_digit()) => name,
            _ => return false,
        },
        None => name,
    };
    if [ITERATION_FILE, IDS_FILE, TASKS_FILE].contains(&name) {
        return true;
    }
    name.strip_prefix("result-")
        .and_then(|rest| rest.strip_suffix(".json"))
        .is_some_and(|task| !task.is_empty() && task.bytes().all(|b| b.is_ascii_digit()))
}

/// `tasks` as `task 3` or `tasks 1, 3`.
fn named(tasks: &[u64]) -> String {
    let list: Vec<String> = tasks.iter().map(u64::to_string).collect();
    let noun = if tasks.len() == 1 { "task" } else { "tasks" };
    format!("{noun} {}", list.join(", "))
}

/// Plays iteration `checkpoint.iterations_done` through `runner` and finishes it as
/// [`crate::tune::checkpoint::run_iteration`] does. `note` receives one line per retry or
/// failed runner exit.
pub fn run_iteration_external(
    checkpoint: &mut Checkpoint,
    runner: &Runner,
    note: &mut dyn FnMut(&str),
) -> Result<IterationRecord, ReportError> {
    let plan = IterationPlan::of(checkpoint);
    let spec = IterationSpec {
        format: ITERATION_FORMAT.to_string(),
        settings: checkpoint.settings.clone(),
        plan,
    };
    let bytes = pretty_json(&spec);
    let hash = spec_hash(bytes.as_bytes());
    runner.clean()?;
    write_atomically(&runner.dir.join(ITERATION_FILE), bytes.as_bytes())?;
    let (iteration, games) = (spec.plan.iteration, spec.settings.games);
    let mut values: Vec<Option<Vec<u64>>> = vec![None; spec.plan.candidates.len()];
    let mut pending: Vec<u64> = (0..values.len() as u64).collect();
    let mut problems = BTreeMap::new();
    for run in 0..=runner.retries {
        if run > 0 {
            note(&format!(
                "note: iteration {iteration}: no valid result for {} ({}); running them again \
                 (retry {run} of {})",
                named(&pending),
                problems
                    .values()
                    .cloned()
                    .collect::<Vec<String>>()
                    .join("; "),
                runner.retries
            ));
        }
        if let Some(exit) = runner.run_once(&pending)? {
            note(&exit);
        }
        problems.clear();
        for &task in &pending {
            let path = result_path(&runner.dir, task);
            let checked = if !path.exists() {
                Err("missing".to_string())
            } else {
                match tetris_core::files::read_text(&path, RUNNER_FILE_LIMIT, "runner file") {
                    Ok(text) => verify_result(&text, &hash, iteration, task, games),
                    Err(tetris_core::Error::Io { message, .. }) => Err(message),
                    Err(tetris_core::Error::FileTooLarge { limit, .. }) => Err(format!(
                        "larger than {} (the limit for a runner file)",
                        tetris_core::files::size_text(limit)
                    )),
                    Err(other) => Err(other.to_string()),
                }
            };
            match checked {
                Ok(found) => values[task as usize] = Some(found),
                Err(problem) => {
                    problems.insert(task, format!("result-{task}.json: {problem}"));
                }
            }
        }
        pending = problems.keys().copied().collect();
        if pending.is_empty() {
            break;
        }
    }
    if !pending.is_empty() {
        return Err(ReportError::Runner(format!(
            "--runner: iteration {iteration}: no valid result for {} after {} runs of the \
             command ({}); the task files are in {}",
            named(&pending),
            runner.retries + 1,
            problems
                .values()
                .cloned()
                .collect::<Vec<String>>()
                .join("; "),
            runner.dir.display()
        )));
    }
    let values: Vec<Vec<u64>> = values.into_iter().flatten().collect();
    let record = finish_iteration(checkpoint, &values);
    runner.clean()?;
    Ok(record)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result_text(hash: &str, iteration: u64, task: u64, values: &[u64]) -> String {
        json_line(&TaskResult {
            format: RESULT_FORMAT.into(),
            spec_hash: hash.into(),
            iteration,
            task,
            values: values.to_vec(),
        })
    }

    #[test]
    fn runner_files_larger_than_their_limit_are_refused() {
        let folder =
            std::env::temp_dir().join(format!("arena-runner-limit-{}", std::process::id()));
        std::fs::create_dir_all(&folder).unwrap();
        // A sparse iteration file one byte over the limit: refused by its size.
        let spec = folder.join(ITERATION_FILE);
        std::fs::File::create(&spec)
            .unwrap()
            .set_len(RUNNER_FILE_LIMIT + 1)
            .unwrap();
        assert_eq!(
            run_task(&folder, TaskChoice::Task(0), 1)
                .unwrap_err()
                .to_string(),
            format!(
                "runner file {}: larger than 64 MiB (the limit for a runner file)",
                spec.display()
            )
        );
        std::fs::remove_dir_all(&folder).unwrap();
    }

    #[test]
    fn a_result_is_verified_against_hash_iteration_task_and_count() {
        let good = result_text("00ff", 2, 3, &[4, 5, 6]);
        assert_eq!(verify_result(&good, "00ff", 2, 3, 3), Ok(vec![4, 5, 6]));
        let wrong_hash = verify_result(&good, "00fe", 2, 3, 3).unwrap_err();
        assert!(
            wrong_hash.contains("another iteration file"),
            "{wrong_hash}"
        );
        let wrong_task = verify_result(&good, "00ff", 2, 4, 3).unwrap_err();
        assert!(
            wrong_task.contains("expected iteration 2 task 4"),
            "{wrong_task}"
        );
        let wrong_iteration = verify_result(&good, "00ff", 1, 3, 3).unwrap_err();
        assert!(
            wrong_iteration.contains("holds iteration 2"),
            "{wrong_iteration}"
        );
        let wrong_count = verify_result(&good, "00ff", 2, 3, 4).unwrap_err();
        assert_eq!(wrong_count, "3 game values, expected 4");
        let truncated = verify_result(&good[..good.len() / 2], "00ff", 2, 3, 3).unwrap_err();
        assert!(truncated.starts_with("not a task result"), "{truncated}");
        let fraction = good.replace("[4,5,6]", "[4,5.5,6]");
        assert!(verify_result(&fraction, "00ff", 2, 3, 3).is_err());
        let other_format = good.replace(RESULT_FORMAT, "arena-tune-result-0");
        assert!(
            verify_result(&other_format, "00ff", 2, 3, 3)
                .unwrap_err()
                .starts_with("format")
        );
    }

    #[test]
    fn the_spec_hash_is_fnv1a() {
        // FNV-1a 64 test vectors.
        assert_eq!(spec_hash(b""), "cbf29ce484222325");
        assert_eq!(spec_hash(b"a"), "af63dc4c8601ec8c");
        assert_ne!(spec_hash(b"{\"a\":1}"), spec_hash(b"{\"a\":2}"));
    }

    #[test]
    fn placeholders_are_replaced_and_paths_quoted() {
        let runner = Runner {
            template: "parallel -j 4 < {tasks}; echo {ids} {dir} {count} {last} {arena} {}".into(),
            dir: PathBuf::from("/w/my run"),
            created: false,
            retries: 2,
            arena: PathBuf::from("/bin/arena"),
        };
        assert_eq!(
            runner.command_line(5),
            "parallel -j 4 < '/w/my run/tasks.txt'; echo '/w/my run/ids.txt' '/w/my run' 5 4 \
             /bin/arena {}"
        );
        assert_eq!(
            runner.task_line(7),
            "/bin/arena tune-task '/w/my run' --task 7"
        );
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
        assert_eq!(shell_quote(""), "''");
        assert_eq!(named(&[3]), "task 3");
        assert_eq!(named(&[1, 3]), "tasks 1, 3");
    }

    #[test]
    fn only_the_tuners_files_are_cleaned() {
        for name in [
            "iteration.json",
            "ids.txt",
            "tasks.txt",
            "result-0.json",
            "result-12.json",
            ".result-3.json.4711.tmp",
            ".iteration.json.9.tmp",
        ] {
            assert!(is_ours(name), "{name}");
        }
        for name in [
            "result-.json",
            "result-best.json",
            "results.json",
            "notes.txt",
            ".result-3.json.tmp",
            "tasks.txt.bak",
        ] {
            assert!(!is_ours(name), "{name}");
        }
    }

    #[test]
    fn a_template_without_a_task_list_is_refused() {
        let error = Runner::new("parallel -j 4", Path::new("/tmp/x.json.tasks"), 2).unwrap_err();
        assert!(error.to_string().contains("names no task list"), "{error}");
    }
}
