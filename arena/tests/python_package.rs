//! The Python package (`python/`, module `tetris_arena`): installs it into a virtual
//! environment under `target/` with pip, the README's way, and runs its pytest suite
//! (`python/tests/`) against this build's `arena` binary, which the tests compare with (the same
//! pieces, features, analyses, games and error messages; Gymnasium's `check_env`).
//!
//! The virtual environment (`target/python-venv`) gets the pinned `python/tests/requirements.txt`
//! once (pip, about 15 s; again only when the file changes). The package is built by maturin in
//! the test build's own target folder (`target/`, cargo holds its lock only while it builds,
//! not while the tests run) with the test profile's settings. Crates whose features are the
//! same in both builds are compiled once; on a fresh clone that is few of them (the
//! workspace's features, unified over the server and the binary, differ from the package's
//! alone, down to `serde_json`), so the package still compiles most of its dependencies: 44 s
//! measured after a fresh test build. Later runs rebuild only what changed. Without Python 3 with venv and pip, or without access
//! to the package index, the test is skipped with a message, except under `CI=true`, where it
//! fails.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common;

use common::venv::{pip_install, test_venv};

/// What the test cannot do without, and why: skipped with a message, or failed under CI.
fn unavailable(reason: &str) {
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "CI=true, but the Python package's tests cannot run: {reason}"
    );
    eprintln!("SKIPPED the_python_package_passes_its_tests: {reason}");
}

fn run(command: &mut Command) -> Output {
    command.output().expect("the command starts")
}

fn report(output: &Output) -> String {
    format!(
        "{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// The `dev` profile made the workspace's `test` profile (Cargo.toml): `cargo test` builds the
/// dependencies of its tests with that profile, so an extension module built with these
/// settings can reuse those built with the same features. (Building with `--profile test`
/// itself would build a test harness.)
const TEST_PROFILE: [(&str, &str); 3] = [
    ("CARGO_PROFILE_DEV_OPT_LEVEL", "2"),
    ("CARGO_PROFILE_DEV_DEBUG", "line-tables-only"),
    ("CARGO_PROFILE_DEV_LTO", "off"),
];

#[test]
fn the_python_package_passes_its_tests() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    // CARGO_TARGET_TMPDIR is `<target>/tmp`.
    let target: PathBuf = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap()
        .to_path_buf();
    // The pinned test dependencies in `target/python-venv`, installed again only when the list
    // changes.
    let python = match test_venv(
        "python-venv",
        &workspace.join("python/tests/requirements.txt"),
    ) {
        Ok(python) => python,
        Err(reason) => return unavailable(&reason),
    };
    let venv = python.parent().unwrap().parent().unwrap().to_path_buf();
    // `pip install ./python` as README.md and docs/python.md say, with maturin already in the environment.
    let path = format!(
        "{}:{}",
        venv.join("bin").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let installed = run(pip_install(&python)
        .current_dir(workspace)
        .args([
            "--no-build-isolation",
            "--no-deps",
            "--force-reinstall",
            "./python",
        ])
        .env("PATH", path)
        // The test build's own folder and profile: the engines this `cargo test` compiled are
        // reused, not built a third time (cargo releases the folder's lock once its tests
        // run, so this nested build does not wait for it).
        .env("CARGO_TARGET_DIR", &target)
        .env("MATURIN_PEP517_ARGS", "--profile dev")
        .envs(TEST_PROFILE));
    assert!(
        installed.status.success(),
        "pip install ./python failed:\n{}",
        report(&installed)
    );
    let tested = run(Command::new(&python)
        // From the workspace: `python -m` puts the current folder first on the path, and
        // python/ holds the package's sources without its native module.
        .current_dir(workspace)
        .args([
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "python/tests",
        ])
        .env("ARENA", env!("CARGO_BIN_EXE_arena")));
    let text = report(&tested);
    println!("{text}");
    assert!(tested.status.success(), "the pytest suite failed:\n{text}");
    assert!(text.contains(" passed"), "{text}");
    assert!(!text.contains(" skipped"), "no test may skip here:\n{text}");
}
