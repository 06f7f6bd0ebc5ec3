//! The design lives in the repository and stays true to it: every document
//! the code cites under `docs/` exists, and `docs/ARCHITECTURE.md` names
//! every crate of the workspace and every module of the server, so that a
//! crate or module added without a word there fails here.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed call is a test failure

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// The workspace's root (this crate is `crates/shoutan`).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The text files under `dir` with one of `extensions`, outside
/// `node_modules`.
fn sources(dir: &Path, extensions: &[&str], found: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n != "node_modules") {
                sources(&path, extensions, found);
            }
        } else if path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| extensions.contains(&e))
        {
            found.push(path);
        }
    }
}

/// The paths `text` cites under `docs/`: `docs/` followed by a path that
/// ends in a file name with an extension.
fn cited(text: &str) -> Vec<String> {
    let mut paths = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("docs/") {
        let before = rest[..at].chars().next_back();
        let tail = &rest[at..];
        let len = tail
            .find(|c: char| !(c.is_ascii_alphanumeric() || "/._-".contains(c)))
            .unwrap_or(tail.len());
        let path = tail[..len].trim_end_matches('.');
        // A URL's path (`…/docs/…`) or a word ending in "docs" is not ours.
        let ours = !before.is_some_and(|c| c.is_ascii_alphanumeric() || "/._-".contains(c));
        if ours
            && path
                .rsplit('/')
                .next()
                .is_some_and(|file| file.contains('.'))
        {
            paths.push(path.to_owned());
        }
        rest = &tail[len.max(5)..];
    }
    paths
}

#[test]
fn every_document_the_code_cites_is_in_the_repository() {
    let root = root();
    let mut files = vec![root.join("README.md")];
    sources(&root.join("crates"), &["rs", "md", "toml"], &mut files);
    sources(&root.join("web"), &["js", "mjs", "html"], &mut files);
    sources(&root.join("docs"), &["md", "yaml", "cfg"], &mut files);
    sources(&root.join("scripts"), &["sh"], &mut files);
    let mut citations = 0;
    let mut missing = BTreeSet::new();
    for file in &files {
        let text = fs::read_to_string(file).unwrap();
        for path in cited(&text) {
            citations += 1;
            if !root.join(&path).exists() {
                missing.insert(format!("{path} (cited in {})", file.display()));
            }
        }
    }
    assert!(
        citations > 30,
        "the spec is cited from the code: {citations}"
    );
    assert!(missing.is_empty(), "cited but not in docs/: {missing:#?}");
}

#[test]
fn the_citation_scan_reads_paths_as_written() {
    assert_eq!(
        cited("as docs/spec/time.md lists them, and (docs/api/errors.md)."),
        ["docs/spec/time.md", "docs/api/errors.md"]
    );
    assert!(cited("https://example.org/docs/x.html and mydocs/y.md").is_empty());
    assert!(cited("see docs/ for more").is_empty());
}

/// The names written in backticks in `text`.
fn named(text: &str) -> BTreeSet<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

#[test]
fn the_architecture_names_every_crate_and_every_server_module() {
    let root = root();
    let page = fs::read_to_string(root.join("docs/ARCHITECTURE.md")).unwrap();
    let names = named(&page);
    let mut unnamed = Vec::new();
    for entry in fs::read_dir(root.join("crates")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_owned();
        if path.join("Cargo.toml").exists() && !names.contains(name.as_str()) {
            unnamed.push(format!("crate {name}"));
        }
    }
    for entry in fs::read_dir(root.join("crates/shoutan-server/src")).unwrap() {
        let path = entry.unwrap().path();
        let module = if path.is_dir() {
            path.file_name().unwrap().to_str().unwrap().to_owned()
        } else {
            path.file_stem().unwrap().to_str().unwrap().to_owned()
        };
        if module != "lib" && !names.contains(module.as_str()) {
            unnamed.push(format!("server module {module}"));
        }
    }
    assert!(
        unnamed.is_empty(),
        "docs/ARCHITECTURE.md says nothing of {unnamed:?}"
    );
}
