//! Game records for training and measuring the move knowledge: `.sgf`
//! files, directories searched for them, and `.tar.gz` archives of them
//! (as the KGS collections come), each replayed into a [`Game`].

use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::Context;
use shoutan_rules::{BoardSize, Game};
use shoutan_sgf::{ReplayOptions, read, replay};

/// Games read, and how many records were left out.
pub struct Records {
    /// The games of the wanted size, in file order.
    pub games: Vec<Game>,
    /// Records unreadable, with an illegal move, or of another size.
    pub skipped: usize,
}

/// Every game of size `size` in `paths`: files (`.sgf`, `.tar.gz`) as
/// given, directories searched for them; sorted, so the order never
/// depends on the file system.
pub fn load(paths: &[PathBuf], size: BoardSize) -> anyhow::Result<Records> {
    let mut records = Records {
        games: Vec::new(),
        skipped: 0,
    };
    for file in files(paths)? {
        if is_archive(&file) {
            let reader = std::fs::File::open(&file)
                .with_context(|| format!("cannot open {}", file.display()))?;
            let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(reader));
            let mut entries: Vec<(String, Vec<u8>)> = Vec::new();
            for entry in archive
                .entries()
                .with_context(|| format!("cannot read {}", file.display()))?
            {
                let mut entry = entry.with_context(|| format!("in {}", file.display()))?;
                let name = entry.path()?.to_string_lossy().into_owned();
                if name.to_ascii_lowercase().ends_with(".sgf") {
                    let mut bytes = Vec::new();
                    entry.read_to_end(&mut bytes)?;
                    entries.push((name, bytes));
                }
            }
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            for (_, bytes) in entries {
                add(&mut records, &bytes, size);
            }
        } else {
            let bytes =
                std::fs::read(&file).with_context(|| format!("cannot read {}", file.display()))?;
            add(&mut records, &bytes, size);
        }
    }
    Ok(records)
}

/// Adds the games of one SGF file.
fn add(records: &mut Records, bytes: &[u8], size: BoardSize) {
    let Ok(file) = read(bytes) else {
        records.skipped += 1;
        return;
    };
    for tree in &file.collection.games {
        match replay(tree, ReplayOptions::default()) {
            Ok(r) if r.game.size() == size => records.games.push(r.game),
            _ => records.skipped += 1,
        }
    }
}

fn is_archive(path: &Path) -> bool {
    path.to_string_lossy()
        .to_ascii_lowercase()
        .ends_with(".tar.gz")
}

fn is_record(path: &Path) -> bool {
    is_archive(path)
        || path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("sgf"))
}

/// Files as given, and the records under directories, sorted.
pub fn files(paths: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for path in paths {
        if !path.is_dir() {
            anyhow::ensure!(path.exists(), "{}: no such file", path.display());
            files.push(path.clone());
            continue;
        }
        let mut found = Vec::new();
        let mut dirs = vec![path.clone()];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).with_context(|| format!("{}", dir.display()))? {
                let p = entry?.path();
                if p.is_dir() {
                    dirs.push(p);
                } else if is_record(&p) {
                    found.push(p);
                }
            }
        }
        found.sort();
        files.extend(found);
    }
    anyhow::ensure!(!files.is_empty(), "no .sgf or .tar.gz file found");
    Ok(files)
}
