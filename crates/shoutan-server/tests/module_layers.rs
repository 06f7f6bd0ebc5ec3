#![allow(clippy::unwrap_used, clippy::expect_used)]
//! The server's modules in layers: a module uses only modules of lower
//! layers (`crate::…` paths, outside comments and unit tests). A new
//! module must be given its layer here, and an arrow upward or inside a
//! layer (so any cycle) fails this test.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// The layers, lowest first.
const LAYERS: &[&[&str]] = &[
    &[
        "error_code",
        "metrics",
        "priority",
        "rating",
        "result_view",
        "time",
    ],
    &["blocking", "health", "rank_rule"],
    &["error"],
    &[
        "extract",
        "judgement",
        "net",
        "problems",
        "review",
        "settings",
        "solving",
        "text",
    ],
    &["accounts"],
    &["config", "moderation"],
    &["lobby"],
    &["automatch", "cluster"],
    &["live", "lobby_socket"],
    &["computer", "enforcement", "events", "results"],
    &["routes"],
    &["listener"],
];

/// The top-level modules `text` names with `crate::…` paths.
fn used_modules(text: &str, modules: &BTreeSet<String>) -> BTreeSet<String> {
    let code = text.split("#[cfg(test)]\nmod tests").next().unwrap_or("");
    let mut used = BTreeSet::new();
    for line in code.lines().filter(|l| !l.trim_start().starts_with("//")) {
        let mut rest = line;
        while let Some(at) = rest.find("crate::") {
            rest = &rest[at + "crate::".len()..];
            let names: Vec<&str> = match rest.strip_prefix('{') {
                // `crate::{a::b, c}`: the first segment of each path.
                Some(group) => group
                    .split('}')
                    .next()
                    .unwrap_or("")
                    .split(',')
                    .map(|path| path.trim().split("::").next().unwrap_or(""))
                    .collect(),
                None => vec![
                    rest.split(|c: char| !c.is_alphanumeric() && c != '_')
                        .next()
                        .unwrap_or(""),
                ],
            };
            used.extend(
                names
                    .into_iter()
                    .filter(|n| modules.contains(*n))
                    .map(str::to_owned),
            );
        }
    }
    used
}

fn rust_files(path: &Path, out: &mut Vec<std::path::PathBuf>) {
    if path.is_dir() {
        for entry in fs::read_dir(path).unwrap() {
            rust_files(&entry.unwrap().path(), out);
        }
    } else if path.extension().is_some_and(|e| e == "rs") {
        out.push(path.to_owned());
    }
}

/// Each top-level module of `src` and the modules it uses.
fn arrows(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let modules: BTreeSet<String> = fs::read_dir(src)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir() || p.extension().is_some_and(|e| e == "rs"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .filter(|m| m != "lib")
        .collect();
    modules
        .iter()
        .map(|m| {
            let mut files = Vec::new();
            let dir = src.join(m);
            let root = if dir.is_dir() {
                dir
            } else {
                src.join(format!("{m}.rs"))
            };
            rust_files(&root, &mut files);
            let mut used = BTreeSet::new();
            for file in files {
                used.extend(used_modules(&fs::read_to_string(file).unwrap(), &modules));
            }
            used.remove(m);
            (m.clone(), used)
        })
        .collect()
}

#[test]
fn modules_use_only_lower_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let arrows = arrows(&src);
    let layer_of: BTreeMap<&str, usize> = LAYERS
        .iter()
        .enumerate()
        .flat_map(|(i, layer)| layer.iter().map(move |m| (*m, i)))
        .collect();
    let listed: BTreeSet<&str> = layer_of.keys().copied().collect();
    let found: BTreeSet<&str> = arrows.keys().map(String::as_str).collect();
    assert_eq!(found, listed, "every module, and only those, has a layer");
    let wrong: Vec<String> = arrows
        .iter()
        .flat_map(|(m, used)| used.iter().map(move |u| (m.as_str(), u.as_str())))
        .filter(|(from, to)| layer_of[to] >= layer_of[from])
        .map(|(from, to)| {
            format!(
                "{from} (layer {}) uses {to} (layer {})",
                layer_of[from], layer_of[to]
            )
        })
        .collect();
    assert!(
        wrong.is_empty(),
        "arrows upward or inside a layer:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn paths_of_every_form_are_read() {
    let modules: BTreeSet<String> = ["a", "b", "c", "d"].map(String::from).into();
    let text = "use crate::a::X;\nuse crate::{b::Y, c};\n// crate::d in a comment\nfn f() { crate::a::g() }\n#[cfg(test)]\nmod tests {\n    use crate::d;\n}\n";
    let used: Vec<String> = used_modules(text, &modules).into_iter().collect();
    assert_eq!(used, ["a", "b", "c"]);
}
