//! The crate graph as documented: every dependency edge between the workspace's crates that
//! `cargo metadata` reports must be a row of the edges table in docs/architecture.md ("The
//! crate graph"), and every edge the table lists must exist. A dependency that runs up a
//! layer (a game crate naming the runner, the web module naming the reports) fails here
//! until the table — and so the design — says otherwise.
//!
//! The table's rows read `| \`FOLDER\` (\`PACKAGE\`) | DEPENDENCIES | DEV-DEPENDENCIES |`,
//! each list the crates' folders separated by commas (`none` for an empty list); words in
//! parentheses explain and are not read. A row of a package outside the workspace (`fuzz`, its
//! own workspace) is not checked.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

/// An edge: (package, dependency package, dev-only).
type Edge = (String, String, bool);

/// The edges the table in docs/architecture.md documents, by package name.
fn documented_edges(workspace: &Path) -> BTreeSet<Edge> {
    let page = std::fs::read_to_string(workspace.join("docs/architecture.md")).unwrap();
    let start = page
        .find("| crate (package) | depends on | dev-dependencies |")
        .expect("docs/architecture.md holds the edges table");
    let mut folders_to_packages = Vec::new();
    let mut rows = Vec::new();
    for line in page[start..].lines().skip(2) {
        if !line.starts_with('|') {
            break;
        }
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        assert_eq!(cells.len(), 3, "a row of three cells: {line}");
        let names: Vec<&str> = cells[0].split('`').collect();
        assert!(names.len() >= 4, "`FOLDER` (`PACKAGE`): {line}");
        folders_to_packages.push((names[1].to_string(), names[3].to_string()));
        rows.push((names[3].to_string(), cells[1], cells[2]));
    }
    let package_of = |folder: &str| -> String {
        folders_to_packages
            .iter()
            .find(|(known, _)| known == folder)
            .map(|(_, package)| package.clone())
            .unwrap_or_else(|| panic!("{folder:?} is no folder of the table"))
    };
    let list = |cell: &str| -> Vec<String> {
        let mut names = String::new();
        let mut depth = 0;
        for character in cell.chars() {
            match character {
                '(' => depth += 1,
                ')' => depth -= 1,
                _ if depth == 0 => names.push(character),
                _ => {}
            }
        }
        match names.trim() {
            "none" => Vec::new(),
            names => names
                .split(',')
                .map(|folder| package_of(folder.trim()))
                .collect(),
        }
    };
    let mut edges = BTreeSet::new();
    for (package, normal, dev) in rows {
        for dependency in list(normal) {
            edges.insert((package.clone(), dependency, false));
        }
        for dependency in list(dev) {
            edges.insert((package.clone(), dependency, true));
        }
    }
    edges
}

/// The edges between the workspace's members as `cargo metadata` reads the manifests (build
/// dependencies count as normal ones).
fn declared_edges(workspace: &Path) -> BTreeSet<Edge> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let output = Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(workspace)
        .output()
        .expect("cargo metadata runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let metadata: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let packages = metadata["packages"].as_array().unwrap();
    let members: BTreeSet<&str> = packages
        .iter()
        .map(|package| package["name"].as_str().unwrap())
        .collect();
    let mut edges = BTreeSet::new();
    for package in packages {
        let name = package["name"].as_str().unwrap();
        for dependency in package["dependencies"].as_array().unwrap() {
            let dependency_name = dependency["name"].as_str().unwrap();
            if !members.contains(dependency_name) {
                continue;
            }
            let dev = dependency["kind"].as_str() == Some("dev");
            edges.insert((name.to_string(), dependency_name.to_string(), dev));
        }
    }
    edges
}

#[test]
fn every_dependency_between_the_crates_is_in_the_documented_table() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let declared = declared_edges(workspace);
    let members: BTreeSet<&String> = declared.iter().map(|(package, _, _)| package).collect();
    let documented: BTreeSet<Edge> = documented_edges(workspace)
        .into_iter()
        .filter(|(package, _, _)| members.contains(package))
        .collect();
    let undocumented: Vec<&Edge> = declared.difference(&documented).collect();
    let missing: Vec<&Edge> = documented.difference(&declared).collect();
    assert!(
        undocumented.is_empty() && missing.is_empty(),
        "edges (package, dependency, dev-only) in the manifests but not in \
         docs/architecture.md's table: {undocumented:?}; in the table but not in the \
         manifests: {missing:?}"
    );
}

#[test]
fn the_layers_of_the_arena_point_down_only() {
    // The arena's crates in layer order: a crate may depend only on crates before it.
    const LAYERS: &[&str] = &[
        "tetris-arena-io",
        "tetris-arena-games",
        "tetris-arena-jobs",
        "tetris-arena-runs",
        "tetris-arena-reports",
        "tetris-arena-requests",
        "tetris-web-page",
        "tetris-arena-server",
        "tetris-arena",
    ];
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    for (package, dependency, dev) in declared_edges(workspace) {
        let (Some(at), Some(below)) = (
            LAYERS.iter().position(|layer| *layer == package),
            LAYERS.iter().position(|layer| *layer == dependency),
        ) else {
            continue;
        };
        assert!(
            dev || below < at,
            "{package} depends on {dependency}, which is not below it"
        );
    }
}
