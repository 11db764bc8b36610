//! The browser tests' shared setup (the replay viewer's and tournament report's,
//! `html_pages.rs`, and the live page's, `web_page.rs`): Debian's Chromium and the pinned
//! Playwright driver in the tests' own virtual environment, and one Python script of
//! `tests/browser/` run against the built arena. Without the browser or the driver a test is
//! skipped with a message, except under `CI=true`, where it fails.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Debian's Chromium, installed by `scripts/install-browser-test-deps.sh` (apt-get, as root;
/// `.ci/run` runs it); the tests never install it.
pub const CHROMIUM: &str = "/usr/bin/chromium";

/// What browser test `test` cannot do without, and why: skipped with a message, or failed
/// under `CI=true`.
pub fn unavailable(test: &str, reason: &str) {
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "CI=true, but the browser test cannot run: {reason}"
    );
    eprintln!("SKIPPED {test}: {reason}");
}

/// The workspace folder (the arena's parent).
pub fn workspace() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()
}

/// The Python of the browser tests' own virtual environment, `target/browser-venv`, with the
/// pinned Playwright driver of `tests/browser/requirements.txt` ([`super::venv::test_venv`]):
/// the test never installs anything outside `target/`. `None` (and the reason said, as
/// [`unavailable`]) when Chromium is missing or Python 3 with venv and pip or the package index
/// cannot be had.
pub fn python(test: &str) -> Option<PathBuf> {
    if !Path::new(CHROMIUM).exists() {
        unavailable(
            test,
            &format!("{CHROMIUM} is missing (scripts/install-browser-test-deps.sh installs it)"),
        );
        return None;
    }
    super::venv::test_venv(
        "browser-venv",
        &workspace().join("tests/browser/requirements.txt"),
    )
    .map_err(|reason| unavailable(test, &reason))
    .ok()
}

/// Runs `tests/browser/SCRIPT --arena ARENA --out OUT ARGS…` with `python`, writing its
/// screenshots to `target/tmp/OUT`; it must succeed and print `N passed, 0 failed`. Its
/// output is printed (`cargo test -- --nocapture` shows each check).
pub fn run_script(python: &Path, script: &str, out: &str, args: &[&str]) {
    let screenshots = Path::new(env!("CARGO_TARGET_TMPDIR")).join(out);
    let output = Command::new(python)
        .arg(workspace().join("tests/browser").join(script))
        .args(["--arena", env!("CARGO_BIN_EXE_arena"), "--out"])
        .arg(&screenshots)
        .args(args)
        .output()
        .expect("the environment's python runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    println!("{stdout}");
    assert!(
        output.status.success(),
        "the browser test failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains(" passed, 0 failed"), "{stdout}");
}
