//! Builds the browser page's WebAssembly module (the `tetris-web` crate, web/) for `arena web`
//! and `arena serve`'s page.
//!
//! The module is the same engine crates compiled for `wasm32-unknown-unknown`, so it has to be
//! built by a second cargo, in its own target folder (`web-build` beside `debug` and
//! `release`, so the outer build's lock is never waited on), then given its JavaScript glue by
//! `wasm-bindgen` (the command-line tool, at exactly the crate's version). This crate embeds the
//! results (`cfg(web_module)`, files in `OUT_DIR/web/`).
//!
//! Both tools come from `scripts/install-web-deps.sh`. Without them the arena builds without
//! the page: `arena web` then says what was missing and how to install it (the build says it
//! too, as a warning), and this script runs again on the next build, to find them.

use std::env;
use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The crates the module is built from, relative to the workspace: a change to any of them
/// rebuilds it.
const SOURCES: &[&str] = &[
    "Cargo.toml",
    "Cargo.lock",
    "core",
    "search-bfs",
    "search-column-drop",
    "search-drop",
    "eval-elashi",
    "eval-dellacherie",
    "eval-nes-plateau",
    "eval-ga-agent",
    "eval-bcts",
    "registry",
    "arena-io",
    "arena-games",
    "arena-jobs",
    "web/Cargo.toml",
    "web/src",
];

fn main() {
    println!("cargo::rustc-check-cfg=cfg(web_module)");
    let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let workspace = manifest
        .parent()
        .expect("the page crate is in the workspace")
        .to_path_buf();
    for source in SOURCES {
        println!(
            "cargo::rerun-if-changed={}",
            workspace.join(source).display()
        );
    }
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets it")).join("web");
    match tools(&workspace) {
        Err(missing) => {
            // A path that does not exist makes cargo run this script on every build, so the
            // tools are found as soon as they are installed.
            for path in &missing.watch {
                println!("cargo::rerun-if-changed={}", path.display());
            }
            println!(
                "cargo::warning=the arena is built without its browser page ({}): run \
                 scripts/install-web-deps.sh, then build again",
                missing.what
            );
            println!("cargo::rustc-env=WEB_MODULE_MISSING={}", missing.what);
        }
        Ok(tools) => {
            for path in [&tools.target_library, &tools.wasm_bindgen] {
                println!("cargo::rerun-if-changed={}", path.display());
            }
            build_module(&workspace, &tools, &out);
            println!("cargo::rustc-cfg=web_module");
        }
    }
}

/// What the build needs: the target's standard library and the glue tool.
struct Tools {
    /// The wasm32-unknown-unknown standard library folder.
    target_library: PathBuf,
    /// `wasm-bindgen`, at the crate's version.
    wasm_bindgen: PathBuf,
}

/// A tool that is not there: what, and the paths whose appearance should rerun this script.
struct Missing {
    what: String,
    watch: Vec<PathBuf>,
}

fn tools(workspace: &Path) -> Result<Tools, Missing> {
    let rustc = env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let sysroot = Command::new(&rustc)
        .args(["--print", "sysroot"])
        .output()
        .ok()
        .filter(|output| output.status.success())
        .map(|output| PathBuf::from(String::from_utf8_lossy(&output.stdout).trim()));
    let target_library = sysroot
        .map(|root| root.join("lib/rustlib/wasm32-unknown-unknown/lib"))
        .unwrap_or_default();
    let cargo_home = env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| env::var_os("HOME").map(|home| PathBuf::from(home).join(".cargo")))
        .unwrap_or_default();
    let wasm_bindgen = cargo_home.join("bin/wasm-bindgen");
    let wanted = locked_version(workspace, "wasm-bindgen");
    if !target_library.is_dir() {
        return Err(Missing {
            what: "the Rust target wasm32-unknown-unknown is not installed".to_string(),
            watch: vec![target_library, wasm_bindgen],
        });
    }
    let found = Command::new(&wasm_bindgen)
        .arg("--version")
        .output()
        .ok()
        .map(|output| String::from_utf8_lossy(&output.stdout).trim().to_string());
    let expected = format!("wasm-bindgen {}", wanted.as_deref().unwrap_or("?"));
    if found.as_deref() != Some(expected.as_str()) {
        return Err(Missing {
            what: match found {
                None => format!("{} is not installed", wasm_bindgen.display()),
                Some(found) => format!("{found} is installed; the build needs {expected}"),
            },
            watch: vec![wasm_bindgen.with_file_name("wasm-bindgen-0")],
        });
    }
    Ok(Tools {
        target_library,
        wasm_bindgen,
    })
}

/// The version of `package` in the workspace's Cargo.lock.
fn locked_version(workspace: &Path, package: &str) -> Option<String> {
    let lock = fs::read_to_string(workspace.join("Cargo.lock")).ok()?;
    let mut lines = lock.lines();
    lines.find(|line| *line == format!("name = \"{package}\""))?;
    let version = lines.next()?.strip_prefix("version = \"")?;
    Some(version.trim_end_matches('"').to_string())
}

/// The cargo target folder this build runs in: the nearest folder above `OUT_DIR` that cargo
/// marked as its own (`CACHEDIR.TAG`).
fn target_folder() -> PathBuf {
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets it"));
    out.ancestors()
        .find(|folder| folder.join("CACHEDIR.TAG").is_file())
        .unwrap_or_else(|| {
            out.ancestors()
                .nth(3)
                .expect("OUT_DIR is deep in the target")
        })
        .to_path_buf()
}

/// Builds the module and its glue into `out`; a failure here is a real one (the tools are
/// there), so it stops the build with what the tools said.
fn build_module(workspace: &Path, tools: &Tools, out: &Path) {
    let target = target_folder().join("web-build");
    let cargo = env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut build = Command::new(cargo);
    build
        .args(["build", "--locked", "--package", "tetris-web"])
        .args(["--target", "wasm32-unknown-unknown", "--profile", "web"])
        .arg("--manifest-path")
        .arg(workspace.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(&target);
    // The outer build's settings are its own: this cargo must not inherit its package and
    // feature variables, its target, or clippy's wrapper.
    for (name, _) in env::vars_os() {
        if inherited_by_mistake(&name) {
            build.env_remove(&name);
        }
    }
    run(&mut build, "cargo build of the WebAssembly module (web/)");
    let module = target.join("wasm32-unknown-unknown/web/tetris_web.wasm");
    fs::create_dir_all(out).expect("OUT_DIR is writable");
    let mut glue = Command::new(&tools.wasm_bindgen);
    glue.args(["--target", "no-modules", "--no-typescript", "--out-dir"])
        .arg(out)
        .arg(&module);
    run(&mut glue, "wasm-bindgen");
}

/// Whether the environment variable `name`, set for this build script, would change what the
/// inner cargo builds.
fn inherited_by_mistake(name: &OsString) -> bool {
    let Some(name) = name.to_str() else {
        return false;
    };
    const PREFIXES: &[&str] = &[
        "CARGO_FEATURE_",
        "CARGO_CFG_",
        "CARGO_PKG_",
        "CARGO_MANIFEST_",
        "CARGO_BUILD_",
        "CARGO_TARGET_",
        "CARGO_PROFILE_",
        "DEP_",
    ];
    const NAMES: &[&str] = &[
        "CARGO_ENCODED_RUSTFLAGS",
        "CARGO_PRIMARY_PACKAGE",
        "CARGO_CRATE_NAME",
        "CARGO_MAKEFLAGS",
        "RUSTFLAGS",
        "RUSTC_WRAPPER",
        "RUSTC_WORKSPACE_WRAPPER",
        "CLIPPY_ARGS",
        "OUT_DIR",
        "TARGET",
        "HOST",
        "PROFILE",
        "OPT_LEVEL",
        "DEBUG",
        "NUM_JOBS",
        "RUSTC_LINKER",
    ];
    PREFIXES.iter().any(|prefix| name.starts_with(prefix)) || NAMES.contains(&name)
}

/// Runs `command`; on failure, stops the build with its output.
fn run(command: &mut Command, what: &str) {
    let output = command
        .output()
        .unwrap_or_else(|error| panic!("{what} could not start: {error}"));
    if !output.status.success() {
        panic!(
            "{what} failed ({}):\n{}{}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }
}
