//! The Python package (`python/`, module `tetris_arena`): installs it into a virtual
//! environment under `target/` with pip, the README's way, and runs its pytest suite
//! (`python/tests/`) against this build's `arena` binary, which the tests compare with (the same
//! pieces, features, analyses, games and error messages; Gymnasium's `check_env`).
//!
//! The virtual environment (`target/python-venv`) gets the pinned `python/tests/requirements.txt`
//! once (pip, about 15 s; again only when the file changes). The package is built by maturin in
//! its own target folder (`target/python-build`, the dev profile: a test needs no optimised
//! engines, and a nested cargo must not wait for the lock of the cargo running this test);
//! later runs rebuild only what changed. Without Python 3 with venv and pip, or without access
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
        .env("CARGO_TARGET_DIR", target.join("python-build"))
        .env("MATURIN_PEP517_ARGS", "--profile dev")
        // Line tables only, as the test profile has (docs/testing.md, "CI"): the full debug
        // info of the dev profile only slows this build.
        .env("CARGO_PROFILE_DEV_DEBUG", "line-tables-only"));
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
