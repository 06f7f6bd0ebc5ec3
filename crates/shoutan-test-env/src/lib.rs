//! What the test suites need from outside the repository, found in one way.
//!
//! A test that needs an outside program or service asks [`locate`] for it.
//! The answer comes from an environment variable that `.ci/run` sets. When
//! the variable is missing:
//! - under CI (`CI` set) the test fails, so CI never passes by skipping;
//! - elsewhere the test is skipped: it says so on its output and appends one
//!   line to the file named by `SHOUTAN_SKIP_REPORT`, from which
//!   `./scripts/test` prints its closing summary of what was not covered.
//!
//! ```
//! use shoutan_test_env::{External, locate};
//! let gnugo = locate(External::GnuGo);
//! match gnugo {
//!     Some(path) => assert!(!path.is_empty()),
//!     None => println!("no GNU Go here: the cross-check is skipped"),
//! }
//! ```

use std::io::Write;

mod gtp;

pub use gtp::Gtp;

/// An outside program or service some tests need.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum External {
    /// A PostgreSQL server: a connection URL.
    Postgres,
    /// GNU Go 3.8: the path of `gnugo`.
    GnuGo,
    /// OpenGotha as a command-line oracle: the path of its jar (a Java
    /// runtime must be on `PATH`).
    OpenGotha,
    /// HAProxy, the load balancer in front of several server instances:
    /// the path of `haproxy`.
    Haproxy,
}

impl External {
    /// The environment variable that names it.
    pub fn variable(self) -> &'static str {
        match self {
            External::Postgres => "SHOUTAN_TEST_POSTGRES",
            External::GnuGo => "SHOUTAN_TEST_GNUGO",
            External::OpenGotha => "SHOUTAN_TEST_OPENGOTHA",
            External::Haproxy => "SHOUTAN_TEST_HAPROXY",
        }
    }

    /// What it is, for messages.
    pub fn description(self) -> &'static str {
        match self {
            External::Postgres => "a PostgreSQL server URL",
            External::GnuGo => "the path of gnugo",
            External::OpenGotha => "the path of OpenGotha's oracle jar",
            External::Haproxy => "the path of haproxy",
        }
    }
}

/// The value of `external`'s variable, or `None` when the calling test must
/// skip (never under CI: there a missing variable fails the test).
pub fn locate(external: External) -> Option<String> {
    let variable = external.variable();
    match std::env::var(variable) {
        Ok(value) if !value.trim().is_empty() => Some(value),
        _ => {
            assert!(
                std::env::var_os("CI").is_none(),
                "CI is set but {variable} ({}) is not: this test cannot run",
                external.description()
            );
            eprintln!(
                "SKIPPED: set {variable} ({}) to run this test",
                external.description()
            );
            record_skip(variable);
            None
        }
    }
}

/// Appends one line naming `variable` to the skip report, when there is one.
/// One short `O_APPEND` write per line keeps lines from concurrent test
/// processes whole.
fn record_skip(variable: &str) {
    let Some(report) = std::env::var_os("SHOUTAN_SKIP_REPORT") else {
        return;
    };
    let written = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&report)
        .and_then(|mut file| file.write_all(format!("{variable}\n").as_bytes()));
    if let Err(e) = written {
        eprintln!(
            "cannot record the skip in {}: {e}",
            report.to_string_lossy()
        );
    }
}

/// Runs `sql` on the PostgreSQL server at `url`, in `schema` if one is
/// given: for a test that changes a database behind a store's back.
pub async fn postgres_sql(
    url: &str,
    schema: Option<&str>,
    sql: &str,
) -> Result<(), tokio_postgres::Error> {
    let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls).await?;
    let task = tokio::spawn(connection);
    let search_path = schema.map_or_else(String::new, |s| format!("SET search_path = {s}; "));
    let done = client.batch_execute(&format!("{search_path}{sql}")).await;
    drop(client);
    let _ = task.await;
    done
}
