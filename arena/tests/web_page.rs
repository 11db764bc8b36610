//! The live arena page (`arena web PAGE.html`) in headless Chromium: `tests/browser/
//! test_web_page.py` (see its documentation) plays Watch and Duel games and analyses boards in
//! the page's WebAssembly engine, and checks every placement and value against the command
//! line's own (`arena play --json`, `arena analyze --json --all`), the board editor, the shared
//! link, and that the page loads nothing and logs no error.

use crate::common;

use common::{browser, run, scratch_folder};

/// The end-to-end test of the live page. Skipped with a message (failed under `CI=true`)
/// when Chromium or the Playwright driver is missing ([`common::browser`]) or when this arena
/// was built without the page's module (scripts/install-web-deps.sh installs its tools).
#[test]
fn the_live_page_plays_and_analyses_as_the_command_line() {
    const TEST: &str = "the_live_page_plays_and_analyses_as_the_command_line";
    let folder = scratch_folder("web", "module");
    let page = folder.join("page.html");
    let written = run("web", &[page.to_str().unwrap()]);
    if !written.status.success() {
        let message = String::from_utf8_lossy(&written.stderr);
        assert!(
            message.contains("built without its browser page"),
            "arena web failed: {message}"
        );
        browser::unavailable(TEST, message.trim());
        return;
    }
    std::fs::remove_dir_all(&folder).unwrap();
    let Some(python) = browser::python(TEST) else {
        return;
    };
    browser::run_script(&python, "test_web_page.py", "web-page-test", &[]);
}
