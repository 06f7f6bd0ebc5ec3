//! `shoutan backup` and `shoutan restore`: a consistent copy of the
//! embedded database while the server runs, and the way back while it is
//! stopped. PostgreSQL has its own tools (`pg_dump`, `pg_restore`; see the
//! README).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, bail};
use shoutan_store::Database;
use shoutan_store::sqlite_backup::{self, Summary};

use crate::database::{Location, lock_sqlite};

/// Arguments of `backup`.
#[derive(clap::Args)]
pub struct BackupArgs {
    #[command(flatten)]
    location: Location,
    /// The file to write (never over an existing one).
    out: PathBuf,
}

/// Arguments of `restore`.
#[derive(clap::Args)]
pub struct RestoreArgs {
    /// A file written by `shoutan backup`.
    backup: PathBuf,
    #[command(flatten)]
    location: Location,
    /// Replace the database if there is one (stop the server first).
    #[arg(long)]
    replace: bool,
}

/// Copies the database, running server or not.
pub fn backup(args: BackupArgs) -> anyhow::Result<ExitCode> {
    let path = sqlite_path(&args.location.database()?)?;
    let started = Instant::now();
    let copy = sqlite_backup::backup(&path, &args.out)
        .with_context(|| format!("backing up {}", path.display()))?;
    println!(
        "backed up {} to {}: {} in {:.2} s",
        path.display(),
        args.out.display(),
        described(&copy),
        started.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

/// Puts a backup in place, with no server on the database.
pub fn restore(args: RestoreArgs) -> anyhow::Result<ExitCode> {
    let path = sqlite_path(&args.location.database()?)?;
    let _only_one = lock_sqlite(&path)?;
    let copy = match sqlite_backup::restore(&args.backup, &path, args.replace) {
        Err(sqlite_backup::BackupError::Exists(_)) => bail!(
            "{} holds a database already: restore over it with --replace (take a backup of it first)",
            path.display()
        ),
        restored => restored.with_context(|| format!("restoring {}", args.backup.display()))?,
    };
    println!(
        "restored {} as {}: {}",
        args.backup.display(),
        path.display(),
        described(&copy)
    );
    Ok(ExitCode::SUCCESS)
}

/// The SQLite file of `database`; PostgreSQL is refused with its recipe.
fn sqlite_path(database: &Database) -> anyhow::Result<PathBuf> {
    match database {
        Database::Sqlite(path) => Ok(path.clone()),
        Database::Postgres { .. } => bail!(
            "backup and restore are for the embedded SQLite database: for PostgreSQL use pg_dump --format=custom and pg_restore (README, \"Backups\")"
        ),
    }
}

fn described(copy: &Summary) -> String {
    format!(
        "{} players, {} games, {} game events, schema {}, {}",
        copy.users,
        copy.games,
        copy.events,
        copy.schema,
        size(copy.bytes)
    )
}

fn size(bytes: u64) -> String {
    let mib = bytes as f64 / (1024.0 * 1024.0);
    if mib >= 1.0 {
        format!("{mib:.1} MiB")
    } else {
        format!("{:.0} KiB", bytes as f64 / 1024.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn postgres_is_sent_to_its_own_tools() {
        let pg: Database = "postgres://postgres@127.0.0.1:5432/shoutan"
            .parse()
            .expect("a PostgreSQL URL");
        let refused = sqlite_path(&pg).map(|p| p.display().to_string());
        assert!(
            refused
                .as_ref()
                .is_err_and(|e| e.to_string().contains("pg_dump")),
            "{refused:?}"
        );
        assert_eq!(
            sqlite_path(&Database::sqlite_in("d")).ok().as_deref(),
            Some(Path::new("d/shoutan.db"))
        );
    }
}
