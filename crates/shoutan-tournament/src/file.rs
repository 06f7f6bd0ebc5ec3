//! The tournament file: one JSON document, written atomically (a temporary
//! file in the same directory, flushed to disk, then renamed over the old
//! one), so a crash leaves either the old file or the new one, never half.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::Path;

use crate::{Tournament, TournamentError};

/// Why a tournament file could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// The file system refused.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// What failed.
        source: io::Error,
    },
    /// The content is not a tournament.
    #[error("{path}: {source}")]
    Content {
        /// The file.
        path: String,
        /// What is wrong.
        source: TournamentError,
    },
}

/// Reads a tournament file.
///
/// # Errors
/// The file cannot be read or is not a consistent tournament.
pub fn load(path: &Path) -> Result<Tournament, FileError> {
    let text = fs::read_to_string(path).map_err(|source| FileError::Io {
        path: path.display().to_string(),
        source,
    })?;
    Tournament::from_json(&text).map_err(|source| FileError::Content {
        path: path.display().to_string(),
        source,
    })
}

/// Writes `text` to `path` atomically.
///
/// # Errors
/// The directory is not writable or the disk is full; the old file is then
/// untouched.
pub fn write_atomic(path: &Path, text: &str) -> Result<(), FileError> {
    let io = |source| FileError::Io {
        path: path.display().to_string(),
        source,
    };
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    let name = path
        .file_name()
        .map_or_else(|| "tournament".into(), |n| n.to_string_lossy().into_owned());
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = (|| {
        let mut f = File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        fs::rename(&tmp, path)?;
        // Make the rename itself durable.
        if let Ok(d) = File::open(&dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result.map_err(io)
}

/// Saves a tournament file atomically.
///
/// # Errors
/// The tournament cannot be written as JSON, or see [`write_atomic`]; the
/// old file is untouched either way.
pub fn save(path: &Path, t: &Tournament) -> Result<(), FileError> {
    let text = t.to_json().map_err(|source| FileError::Content {
        path: path.display().to_string(),
        source,
    })?;
    write_atomic(path, &text)
}
