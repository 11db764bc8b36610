//! `tetris-web-page`: the live arena page (`arena web PAGE.html`, and `arena serve`'s `/`), one
//! self-contained HTML file that runs the engines in the browser. The WebAssembly module (the
//! `tetris-web` crate, built by this crate's build.rs with a second cargo) and its
//! `wasm-bindgen` glue are inlined, the module as base64; the page starts a Web Worker from
//! them (a `blob:` URL, so it works from `file://`), and the worker plays, analyses and rates
//! while the page draws. docs/web.md says what runs where.
//!
//! This crate exists so that the module is rebuilt only when the crates it is compiled from
//! change (build.rs watches exactly those): the command line, the server and the reports can
//! change without rebuilding it, and only the front ends that serve the page (the `arena`
//! binary and the server) build it at all.
//!
//! The page's own files sit beside this module (`page/page.html`, `page/page.js`,
//! `page/worker.js`, `page/web.css`), embedded with `include_str!` like the replay viewer's,
//! whose board drawing (`board.js`, `board.css`) it shares.
#![deny(missing_docs)]

use base64::Engine;
use thiserror::Error as ThisError;

use tetris_arena_io::ErrorKind;
use tetris_arena_reports::html::{
    BOARD_SCRIPT, BOARD_STYLE, PAGE_STYLE, escape_html, fill_template, footer, script_json,
};

/// The page template.
const TEMPLATE: &str = include_str!("page/page.html");
/// The page's style.
const WEB_STYLE: &str = include_str!("page/web.css");
/// The page's script: the views, the board drawing and the fragment.
const PAGE_SCRIPT: &str = include_str!("page/page.js");
/// The worker's script, run after the glue: the jobs the page sends, answered.
const WORKER_SCRIPT: &str = include_str!("page/worker.js");

/// The WebAssembly module and its glue, when this arena was built with them.
#[cfg(web_module)]
mod module {
    /// The module (`tetris_web_bg.wasm`, from build.rs).
    pub const BYTES: Result<&[u8], &str> = Ok(include_bytes!(concat!(
        env!("OUT_DIR"),
        "/web/tetris_web_bg.wasm"
    )));
    /// `wasm-bindgen`'s glue for it (`--target no-modules`: a script that defines
    /// `wasm_bindgen`).
    pub const GLUE: &str = include_str!(concat!(env!("OUT_DIR"), "/web/tetris_web.js"));
}

/// Without the module: what build.rs found missing.
#[cfg(not(web_module))]
mod module {
    /// Why there is no module.
    pub const BYTES: Result<&[u8], &str> = Err(match option_env!("WEB_MODULE_MISSING") {
        Some(why) => why,
        None => "its build script did not run",
    });
    /// No glue either.
    pub const GLUE: &str = "";
}

/// An arena built without its browser page: why (a tool of the WebAssembly build was
/// missing).
#[derive(Debug, ThisError)]
#[error(
    "this arena was built without its browser page ({0}): run scripts/install-web-deps.sh, \
     then build the arena again"
)]
pub struct PageMissing(&'static str);

impl PageMissing {
    /// What kind of failure this is: the caller asked for a page this build cannot give
    /// (bad input, as for any feature it was built without).
    pub fn kind(&self) -> ErrorKind {
        ErrorKind::BadInput
    }
}

/// Whether this arena carries the page (its module was built).
pub fn available() -> Result<(), PageMissing> {
    module::BYTES.map(|_| ()).map_err(PageMissing)
}

/// The values the page's script takes from the arena rather than writing them again: the tap
/// rates the gamepad search takes ([`tetris_registry::TAP_RATES`]), the board heights (which
/// size the board editor; the engine checks a typed height), and the documents' example
/// position ([`tetris_arena_jobs::analyze::EXAMPLE_BOARD`]), as JSON for a
/// `<script type="application/json">`.
fn constants() -> String {
    use tetris_arena_io::values::BoardHeight;
    script_json(&serde_json::json!({
        "tap_rates": tetris_registry::TAP_RATES.collect::<Vec<u8>>(),
        "board_heights": [BoardHeight::MIN, BoardHeight::MAX],
        "example_board": tetris_arena_jobs::analyze::EXAMPLE_BOARD,
    }))
}

/// The page, or why this arena cannot write it.
pub fn page() -> Result<String, PageMissing> {
    let module = module::BYTES.map_err(PageMissing)?;
    let encoded = base64::engine::general_purpose::STANDARD.encode(module);
    let title = "Tetris Arena — live";
    Ok(fill_template(
        TEMPLATE,
        &[
            ("title", &escape_html(title)),
            ("version", tetris_arena_io::output::made_by::VERSION),
            ("page_style", PAGE_STYLE),
            ("board_style", BOARD_STYLE),
            ("web_style", WEB_STYLE),
            ("footer", &footer()),
            ("module", &encoded),
            // Inside <script> elements: neither text can hold "</script" (checked by a test).
            ("glue", module::GLUE),
            ("worker_script", WORKER_SCRIPT),
            ("constants", &constants()),
            ("board_script", BOARD_SCRIPT),
            ("page_script", PAGE_SCRIPT),
        ],
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_inlined_script_can_close_its_element() {
        for script in [module::GLUE, WORKER_SCRIPT, BOARD_SCRIPT, PAGE_SCRIPT] {
            assert!(!script.to_ascii_lowercase().contains("</script"));
        }
    }

    #[test]
    fn the_page_inlines_the_module_or_says_why_not() {
        match module::BYTES {
            Ok(bytes) => {
                // The module's magic number and version, then the page has it as base64.
                assert_eq!(&bytes[..8], b"\0asm\x01\0\0\0");
                let page = page().unwrap();
                let encoded = base64::engine::general_purpose::STANDARD.encode(bytes);
                assert!(page.contains(&encoded));
                assert!(page.contains("wasm_bindgen"));
            }
            Err(why) => {
                let message = page().unwrap_err().to_string();
                assert!(message.contains(why), "{message}");
                assert!(message.contains("scripts/install-web-deps.sh"));
            }
        }
    }
}
