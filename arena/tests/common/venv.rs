//! The virtual environments of the tests that run Python (the package's pytest suite, the
//! browser test): each its own folder under `target/`, with its pinned requirements installed
//! once and again only when the list changes, so a test never installs anything outside the
//! clone and `target/`.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// `python -m pip install --quiet`, arguments to follow.
pub fn pip_install(python: &Path) -> Command {
    let mut command = Command::new(python);
    command.args([
        "-m",
        "pip",
        "install",
        "--quiet",
        "--disable-pip-version-check",
    ]);
    command
}

/// The Python of the virtual environment `target/NAME` with the requirements file
/// `requirements` installed; `Err` says why it cannot be had (no Python 3 with venv and pip,
/// or the package index cannot be reached).
pub fn test_venv(name: &str, requirements: &Path) -> Result<PathBuf, String> {
    // CARGO_TARGET_TMPDIR is `<target>/tmp`.
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).parent().unwrap();
    let venv = target.join(name);
    let python = venv.join("bin/python");
    if !python.exists() {
        let made = Command::new("python3")
            .args(["-m", "venv"])
            .arg(&venv)
            .output();
        if !made.as_ref().is_ok_and(|output| output.status.success()) {
            let _ = fs::remove_dir_all(&venv);
            return Err("`python3 -m venv` failed (Python 3 with venv and pip is needed)".into());
        }
    }
    let stamp = venv.join("installed-requirements.txt");
    let wanted = fs::read_to_string(requirements).unwrap();
    if fs::read_to_string(&stamp).ok().as_deref() != Some(wanted.as_str()) {
        let installed = pip_install(&python)
            .arg("-r")
            .arg(requirements)
            .output()
            .expect("the environment's python runs");
        if !installed.status.success() {
            return Err(format!(
                "pip could not install {} into {}:\n{}\n{}",
                requirements.display(),
                venv.display(),
                String::from_utf8_lossy(&installed.stdout),
                String::from_utf8_lossy(&installed.stderr)
            ));
        }
        fs::write(&stamp, &wanted).unwrap();
    }
    Ok(python)
}
