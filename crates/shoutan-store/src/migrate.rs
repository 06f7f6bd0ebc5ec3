//! Migrations: numbered SQL scripts, one list per database, applied in
//! order once each and recorded in `schema_migrations`.

/// One migration.
#[derive(Clone, Copy, Debug)]
pub struct Migration {
    /// Its number: applied in increasing order.
    pub version: i64,
    /// What it does.
    pub name: &'static str,
    /// The script.
    pub sql: &'static str,
}

/// SQLite's migrations.
pub const SQLITE: &[Migration] = &[
    Migration {
        version: 1,
        name: "initial",
        sql: include_str!("../migrations/sqlite/0001_initial.sql"),
    },
    Migration {
        version: 2,
        name: "tournaments",
        sql: include_str!("../migrations/sqlite/0002_tournaments.sql"),
    },
    Migration {
        version: 3,
        name: "replayed games",
        sql: include_str!("../migrations/sqlite/0003_replayed_games.sql"),
    },
    Migration {
        version: 5,
        name: "name skeletons",
        sql: include_str!("../migrations/sqlite/0005_name_skeletons.sql"),
    },
    Migration {
        version: 7,
        name: "rank standing",
        sql: include_str!("../migrations/sqlite/0007_rank_standing.sql"),
    },
    Migration {
        version: 8,
        name: "reviews",
        sql: include_str!("../migrations/sqlite/0008_reviews.sql"),
    },
    Migration {
        version: 9,
        name: "play modes",
        sql: include_str!("../migrations/sqlite/0009_play_modes.sql"),
    },
    Migration {
        version: 10,
        name: "moderation",
        sql: include_str!("../migrations/sqlite/0010_moderation.sql"),
    },
    Migration {
        version: 11,
        name: "record reviews",
        sql: include_str!("../migrations/sqlite/0011_record_reviews.sql"),
    },
    Migration {
        version: 12,
        name: "problems",
        sql: include_str!("../migrations/sqlite/0012_problems.sql"),
    },
];

/// PostgreSQL's migrations: the same schema in its dialect, and the tables
/// of several instances on one database (6, PostgreSQL only: SQLite serves
/// one process), and the append of a batch of events in one statement (10,
/// PostgreSQL only: SQLite has no round trips to save).
pub const POSTGRES: &[Migration] = &[
    Migration {
        version: 1,
        name: "initial",
        sql: include_str!("../migrations/postgres/0001_initial.sql"),
    },
    Migration {
        version: 2,
        name: "tournaments",
        sql: include_str!("../migrations/postgres/0002_tournaments.sql"),
    },
    Migration {
        version: 3,
        name: "replayed games",
        sql: include_str!("../migrations/postgres/0003_replayed_games.sql"),
    },
    Migration {
        version: 5,
        name: "name skeletons",
        sql: include_str!("../migrations/postgres/0005_name_skeletons.sql"),
    },
    Migration {
        version: 6,
        name: "instances",
        sql: include_str!("../migrations/postgres/0006_instances.sql"),
    },
    Migration {
        version: 7,
        name: "rank standing",
        sql: include_str!("../migrations/postgres/0007_rank_standing.sql"),
    },
    Migration {
        version: 8,
        name: "reviews",
        sql: include_str!("../migrations/postgres/0008_reviews.sql"),
    },
    Migration {
        version: 9,
        name: "play modes",
        sql: include_str!("../migrations/postgres/0009_play_modes.sql"),
    },
    Migration {
        version: 10,
        name: "append function",
        sql: include_str!("../migrations/postgres/0010_append_function.sql"),
    },
    Migration {
        version: 11,
        name: "moderation",
        sql: include_str!("../migrations/postgres/0011_moderation.sql"),
    },
    Migration {
        version: 12,
        name: "record reviews",
        sql: include_str!("../migrations/postgres/0012_record_reviews.sql"),
    },
    Migration {
        version: 13,
        name: "problems",
        sql: include_str!("../migrations/postgres/0013_problems.sql"),
    },
];

/// The table that records what was applied, in both dialects.
pub(crate) const MIGRATIONS_TABLE: &str = "CREATE TABLE IF NOT EXISTS schema_migrations (
    version    BIGINT PRIMARY KEY,
    name       TEXT   NOT NULL,
    applied_at BIGINT NOT NULL
)";

pub(crate) fn now_millis() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}
