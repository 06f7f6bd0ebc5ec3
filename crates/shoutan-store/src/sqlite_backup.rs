//! Backups of the embedded database: a consistent copy of a SQLite file a
//! server is using, and the way back.
//!
//! Both directions use SQLite's online backup API in a single step: the
//! copy is one read snapshot of the source. In WAL mode the server goes on
//! committing moves meanwhile (a reader never blocks the writer), and every
//! move acknowledged before the backup began is in the copy. Copied in
//! several steps instead, each write of the running server would restart
//! the copy from its first page.
//!
//! ```no_run
//! use std::path::Path;
//! use shoutan_store::sqlite_backup;
//! let copy = sqlite_backup::backup(
//!     Path::new("shoutan-data/shoutan.db"),
//!     Path::new("shoutan-2026-12-05.db"),
//! )?;
//! println!("{} games", copy.games);
//! # Ok::<(), sqlite_backup::BackupError>(())
//! ```

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::backup::{Backup, StepResult};
use rusqlite::{Connection, OpenFlags, OptionalExtension};

use crate::migrate;

/// How long a step may find the source busy before the backup gives up.
const PATIENCE: Duration = Duration::from_secs(10);

/// A backup or restore that did not happen. Nothing was left behind: a
/// partly written copy is removed.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    /// The database to copy is not there.
    #[error("{0} does not exist")]
    Missing(PathBuf),
    /// The file to write exists: a backup never writes over a file, a
    /// restore only when told to.
    #[error("{0} exists already")]
    Exists(PathBuf),
    /// A SQLite file, but not one a Shoutan server wrote.
    #[error("{0} is not a Shoutan database (it has no schema_migrations table)")]
    NotShoutan(PathBuf),
    /// Written by a newer Shoutan, whose tables this one does not know.
    #[error(
        "{path} was written by a newer Shoutan (schema version {found}; this one knows up to {known})"
    )]
    Newer {
        /// The file.
        path: PathBuf,
        /// Its schema version.
        found: i64,
        /// The newest this build knows.
        known: i64,
    },
    /// SQLite's integrity check found damage.
    #[error("{path} is damaged: {report}")]
    Damaged {
        /// The file.
        path: PathBuf,
        /// SQLite's first complaint.
        report: String,
    },
    /// The source stayed locked for longer than the backup waits (10 s).
    #[error("{0} stayed locked for 10 s: try again")]
    Busy(PathBuf),
    /// SQLite said no (for instance "file is not a database").
    #[error("SQLite: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// The file system said no.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// What a copy holds, counted in the copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Accounts.
    pub users: u64,
    /// Games, finished or not.
    pub games: u64,
    /// Events of every game's log.
    pub events: u64,
    /// The schema version (the last migration applied).
    pub schema: i64,
    /// The copy's size in bytes.
    pub bytes: u64,
}

/// Copies the Shoutan database at `from` (in use by a server or not) to a
/// new file `to`, readable by its owner only (it holds password hashes and
/// sessions), and checks the copy.
pub fn backup(from: &Path, to: &Path) -> Result<Summary, BackupError> {
    let source = open_shoutan(from)?;
    let mut file = std::fs::OpenOptions::new();
    file.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut file, 0o600);
    let created = match file.open(to) {
        Ok(created) => created,
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            return Err(BackupError::Exists(to.to_path_buf()));
        }
        Err(e) => return Err(e.into()),
    };
    drop(created);
    let copied = copy(&source, from, to).and_then(|()| check(to));
    if copied.is_err() {
        let _ = std::fs::remove_file(to);
    }
    copied
}

/// Puts the backup `from` in place as the database `to`, which no server
/// may be using (the caller holds the server's lock). An existing `to` is
/// replaced only if `replace`.
pub fn restore(from: &Path, to: &Path, replace: bool) -> Result<Summary, BackupError> {
    let source = open_shoutan(from)?;
    inspect(&source, from)?;
    if to.exists() && !replace {
        return Err(BackupError::Exists(to.to_path_buf()));
    }
    if let Some(dir) = to.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    copy(&source, from, to)?;
    check(to)
}

/// Opens `path` read-only, once it is known to be a Shoutan database this
/// build can read.
fn open_shoutan(path: &Path) -> Result<Connection, BackupError> {
    if !path.is_file() {
        return Err(BackupError::Missing(path.to_path_buf()));
    }
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    conn.busy_timeout(PATIENCE)?;
    let has_migrations = conn
        .query_row(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'",
            [],
            |_| Ok(()),
        )
        .optional()?
        .is_some();
    if !has_migrations {
        return Err(BackupError::NotShoutan(path.to_path_buf()));
    }
    let found = schema_version(&conn)?;
    let known = migrate::SQLITE.last().map_or(0, |m| m.version);
    if found > known {
        return Err(BackupError::Newer {
            path: path.to_path_buf(),
            found,
            known,
        });
    }
    Ok(conn)
}

/// Copies every page of `source` into the database file `to` in one step.
fn copy(source: &Connection, from: &Path, to: &Path) -> Result<(), BackupError> {
    let mut target = Connection::open(to)?;
    target.busy_timeout(PATIENCE)?;
    let backup = Backup::new(source, &mut target)?;
    let started = std::time::Instant::now();
    loop {
        match backup.step(-1)? {
            StepResult::Done => break,
            _ if started.elapsed() > PATIENCE => {
                return Err(BackupError::Busy(from.to_path_buf()));
            }
            _ => std::thread::sleep(Duration::from_millis(50)),
        }
    }
    drop(backup);
    // Closing the last connection folds a write-ahead log into the file.
    target.close().map_err(|(_, e)| e)?;
    Ok(())
}

/// The last migration applied to the database of `conn`.
fn schema_version(conn: &Connection) -> Result<i64, BackupError> {
    Ok(conn.query_row(
        "SELECT COALESCE(MAX(version), 0) FROM schema_migrations",
        [],
        |row| row.get(0),
    )?)
}

/// Runs SQLite's integrity check on the database at `path` and counts what
/// it holds.
fn check(path: &Path) -> Result<Summary, BackupError> {
    inspect(&open_shoutan(path)?, path)
}

/// [`check`] on a database already open.
fn inspect(conn: &Connection, path: &Path) -> Result<Summary, BackupError> {
    let report: String = conn.query_row("PRAGMA integrity_check(1)", [], |row| row.get(0))?;
    if report != "ok" {
        return Err(BackupError::Damaged {
            path: path.to_path_buf(),
            report,
        });
    }
    let count = |table: &str| -> Result<u64, BackupError> {
        let n: i64 = conn.query_row(&format!("SELECT COUNT(*) FROM {table}"), [], |row| {
            row.get(0)
        })?;
        Ok(u64::try_from(n).unwrap_or(0))
    };
    Ok(Summary {
        users: count("users")?,
        games: count("games")?,
        events: count("game_events")?,
        schema: schema_version(conn)?,
        bytes: std::fs::metadata(path)?.len(),
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed call is a test failure

    use super::*;
    use crate::{Database, NewUser, Rating, open};
    use shoutan_rules::Rank;

    async fn a_database(dir: &Path) -> PathBuf {
        let Database::Sqlite(path) = Database::sqlite_in(dir) else {
            unreachable!("sqlite_in names a SQLite file")
        };
        let store = open(&Database::Sqlite(path.clone())).await.unwrap();
        store
            .create_user(NewUser {
                name: "hei".into(),
                password_hash: "$argon2id$x".into(),
                declared_rank: Rank::Kyu(5),
                rating: Rating {
                    rating: 1500.0,
                    deviation: 350.0,
                    volatility: 0.06,
                },
                created_at: 1_000,
            })
            .await
            .unwrap();
        path
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_copy_holds_what_the_database_held_and_is_never_written_over() {
        let dir = tempfile::tempdir().unwrap();
        let db = a_database(&dir.path().join("data")).await;
        let out = dir.path().join("backup.db");
        let copy = backup(&db, &out).unwrap();
        assert_eq!((copy.users, copy.games), (1, 0));
        assert_eq!(copy.schema, migrate::SQLITE.last().unwrap().version);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&out).unwrap().permissions().mode();
            assert_eq!(mode & 0o077, 0, "readable by its owner only: {mode:o}");
        }
        let again = backup(&db, &out);
        assert!(matches!(again, Err(BackupError::Exists(_))), "{again:?}");
        assert_eq!(check(&out).unwrap().users, 1, "the first copy is intact");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_restore_replaces_only_when_told_and_refuses_what_is_no_backup() {
        let dir = tempfile::tempdir().unwrap();
        let db = a_database(&dir.path().join("data")).await;
        let out = dir.path().join("backup.db");
        backup(&db, &out).unwrap();
        let refused = restore(&out, &db, false);
        assert!(
            matches!(refused, Err(BackupError::Exists(_))),
            "{refused:?}"
        );
        assert_eq!(restore(&out, &db, true).unwrap().users, 1);
        let fresh = dir.path().join("elsewhere/shoutan.db");
        assert_eq!(restore(&out, &fresh, false).unwrap().users, 1);

        let text = dir.path().join("notes.txt");
        std::fs::write(&text, "not a database at all, just some words").unwrap();
        let refused = restore(&text, &fresh, true);
        assert!(
            matches!(refused, Err(BackupError::Sqlite(_))),
            "{refused:?}"
        );
        let other = dir.path().join("other.db");
        Connection::open(&other)
            .unwrap()
            .execute_batch("CREATE TABLE t (x INTEGER)")
            .unwrap();
        let refused = restore(&other, &fresh, true);
        assert!(
            matches!(refused, Err(BackupError::NotShoutan(_))),
            "{refused:?}"
        );
        let missing = restore(&dir.path().join("nowhere.db"), &fresh, true);
        assert!(
            matches!(missing, Err(BackupError::Missing(_))),
            "{missing:?}"
        );
        assert_eq!(check(&fresh).unwrap().users, 1, "refusals change nothing");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_database_of_a_newer_shoutan_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let db = a_database(&dir.path().join("data")).await;
        Connection::open(&db)
            .unwrap()
            .execute_batch(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES (9999, 'future', 0)",
            )
            .unwrap();
        let refused = backup(&db, &dir.path().join("backup.db"));
        assert!(
            matches!(refused, Err(BackupError::Newer { found: 9999, .. })),
            "{refused:?}"
        );
        assert!(
            !dir.path().join("backup.db").exists(),
            "nothing left behind"
        );
    }
}
