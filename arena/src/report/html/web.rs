//! The live arena page (`arena web PAGE.html`, and `arena serve`'s `/`): one self-contained
//! HTML file that runs the engines in the browser. The WebAssembly module (the `tetris-web`
//! crate, built by build.rs) and its `wasm-bindgen` glue are inlined, the module as base64;
//! the page starts a Web Worker from them (a `blob:` URL, so it works from `file://`), and the
//! worker plays, analyses and rates while the page draws. docs/web.md says what runs where.
//!
//! The page's own files sit beside this module (`web/page.html`, `web/page.js`,
//! `web/worker.js`, `web/web.css`), embedded with `include_str!` like the replay viewer's,
//! whose board drawing (`board.js`, `board.css`) it shares.

use base64::Engine;

use super::{BOARD_SCRIPT, BOARD_STYLE, PAGE_STYLE, escape_html, fill_template, footer};
use crate::error::ArenaError;

/// The page template.
const TEMPLATE: &str = include_str!("web/page.html");
/// The page's style.
const WEB_STYLE: &str = include_str!("web/web.css");
/// The page's script: the views, the board drawing and the fragment.
const PAGE_SCRIPT: &str = include_str!("web/page.js");
/// The worker's script, run after the glue: the jobs the page sends, answered.
const WORKER_SCRIPT: &str = include_str!("web/worker.js");

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
        None => "the web-page feature was off",
    });
    /// No glue either.
    pub const GLUE: &str = "";
}

/// Whether this arena carries the page (its module was built).
pub fn available() -> Result<(), ArenaError> {
    module::BYTES.map(|_| ()).map_err(missing)
}

fn missing(why: &str) -> ArenaError {
    ArenaError::Usage(format!(
        "this arena was built without its browser page ({why}): run \
         scripts/install-web-deps.sh, then build the arena again"
    ))
}

/// The page, or why this arena cannot write it.
pub fn page() -> Result<String, ArenaError> {
    let module = module::BYTES.map_err(missing)?;
    let encoded = base64::engine::general_purpose::STANDARD.encode(module);
    let title = "Tetris Arena — live";
    Ok(fill_template(
        TEMPLATE,
        &[
            ("title", &escape_html(title)),
            ("version", crate::output::made_by::VERSION),
            ("page_style", PAGE_STYLE),
            ("board_style", BOARD_STYLE),
            ("web_style", WEB_STYLE),
            ("footer", &footer()),
            ("module", &encoded),
            // Inside <script> elements: neither text can hold "</script" (checked by a test).
            ("glue", module::GLUE),
            ("worker_script", WORKER_SCRIPT),
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
