//! Where a command finds the database (`--data DIR` or `--database URL`),
//! and the lock that makes one process the only user of a SQLite file.

use std::path::PathBuf;

use anyhow::Context;
use shoutan_store::Database;

/// The database's location, as `serve`, `backup` and `restore` take it.
#[derive(clap::Args)]
pub struct Location {
    /// Directory of the embedded SQLite database (created if missing).
    #[arg(long, default_value = "./shoutan-data")]
    data: PathBuf,
    /// A database URL instead: `postgres://user@host:5432/db` (or
    /// `sqlite://PATH`). Overrides `--data`.
    #[arg(long)]
    database: Option<String>,
}

impl Location {
    /// The database named.
    pub fn database(&self) -> anyhow::Result<Database> {
        match &self.database {
            Some(url) => url.parse().context("--database"),
            None => Ok(Database::sqlite_in(&self.data)),
        }
    }
}

/// Takes the lock that makes this process the only server of the SQLite
/// database at `path` (a file beside it, created with its directory). The
/// lock goes with the returned file, however the process ends.
pub fn lock_sqlite(path: &std::path::Path) -> anyhow::Result<std::fs::File> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let lock_path = path.with_extension("db.lock");
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .with_context(|| format!("opening {}", lock_path.display()))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => Err(anyhow::anyhow!(
            "{} is in use by another shoutan server: one process per SQLite database (to run several instances, use PostgreSQL: --database postgres://…)",
            path.display()
        )),
        Err(std::fs::TryLockError::Error(e)) => {
            Err(e).with_context(|| format!("locking {}", lock_path.display()))
        }
    }
}
