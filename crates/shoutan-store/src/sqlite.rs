//! The embedded backend: one SQLite file in WAL mode, one writer thread
//! that group-commits, and a few reader connections.

use std::path::Path;
use std::sync::{Arc, Mutex};

use rusqlite::{Connection, ErrorCode, OpenFlags, OptionalExtension, Row, params};
use shoutan_rules::Rank;
use tokio::sync::{mpsc, oneshot};

use crate::game::{GAME_COLUMNS, SqlValue, archive_filter, color_word, parse_color};
use crate::migrate::{MIGRATIONS_TABLE, SQLITE, now_millis};
use crate::moderation::Roles;
use crate::seek::SEEK_COLUMNS;
use crate::{
    ArchiveQuery, Challenge, ChallengeId, GameEnd, GameId, GameRow, GameStatus, Joined, Joiner,
    NewChallenge, NewGame, NewSeek, NewUser, Pairing, PlayerRef, RankStanding, Rating, Seek,
    SeekId, SeekOutcome, Session, Starting, Store, StoreError, StoredEvent, User, UserId, name_key,
    name_skeleton,
};

#[path = "sqlite_moderation.rs"]
mod moderation;
#[path = "sqlite_problem.rs"]
mod problem;
#[path = "sqlite_review.rs"]
mod review;
#[path = "sqlite_tournament.rs"]
mod tournament;

/// The most writes one transaction carries.
const MAX_BATCH: usize = 4096;
/// Idle reader connections kept open.
const MAX_IDLE_READERS: usize = 8;

/// Hands a write's outcome to its caller once the transaction is over.
type Deliver = Box<dyn FnOnce(Result<(), String>) + Send>;
/// A write, run inside the batch's transaction (or told why it cannot be).
type Job = Box<dyn FnOnce(Result<&Connection, String>) -> (bool, Deliver) + Send>;

/// The SQLite store. Cheap to share: clone the `Arc` it is used behind.
pub struct SqliteStore {
    writer: mpsc::UnboundedSender<Job>,
    readers: Arc<Readers>,
}

struct Readers {
    path: std::path::PathBuf,
    idle: Mutex<Vec<Connection>>,
}

impl Readers {
    fn take(&self) -> Result<Connection, StoreError> {
        let idle = self.idle.lock().ok().and_then(|mut idle| idle.pop());
        match idle {
            Some(conn) => Ok(conn),
            None => open_reader(&self.path),
        }
    }

    fn give_back(&self, conn: Connection) {
        if let Ok(mut idle) = self.idle.lock()
            && idle.len() < MAX_IDLE_READERS
        {
            idle.push(conn);
        }
    }
}

fn open_reader(path: &Path) -> Result<Connection, StoreError> {
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    Ok(conn)
}

impl SqliteStore {
    /// Opens (creating if needed, with its directory) the database file at
    /// `path`, applies pending migrations, and starts the writer.
    pub async fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        let path = path.to_path_buf();
        let (conn, path) = tokio::task::spawn_blocking(move || {
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir)?;
            }
            let conn = Connection::open(&path)?;
            conn.busy_timeout(std::time::Duration::from_secs(5))?;
            conn.pragma_update(None, "journal_mode", "WAL")?;
            conn.pragma_update(None, "synchronous", "FULL")?;
            conn.pragma_update(None, "foreign_keys", "ON")?;
            migrate(&conn)?;
            fill_name_skeletons(&conn)?;
            Ok::<_, StoreError>((conn, path))
        })
        .await
        .map_err(|_| StoreError::Closed)??;
        let (writer, jobs) = mpsc::unbounded_channel();
        std::thread::Builder::new()
            .name("shoutan-sqlite-writer".into())
            .spawn(move || run_writer(&conn, jobs))?;
        Ok(SqliteStore {
            writer,
            readers: Arc::new(Readers {
                path,
                idle: Mutex::new(Vec::new()),
            }),
        })
    }

    /// Queues a write for the next group commit and waits until it is
    /// durable (or has failed, leaving nothing behind).
    async fn write<T, F>(&self, f: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    {
        let (tx, rx) = oneshot::channel();
        let job: Job = Box::new(move |conn| {
            let outcome = match conn {
                Ok(conn) => f(conn),
                Err(why) => Err(StoreError::Commit(why)),
            };
            let ok = outcome.is_ok();
            let deliver: Deliver = Box::new(move |commit| {
                let result = match (outcome, commit) {
                    (Err(e), _) => Err(e),
                    (Ok(value), Ok(())) => Ok(value),
                    (Ok(_), Err(why)) => Err(StoreError::Commit(why)),
                };
                // The caller may have gone away; the write stands regardless.
                let _ = tx.send(result);
            });
            (ok, deliver)
        });
        self.writer.send(job).map_err(|_| StoreError::Closed)?;
        rx.await.map_err(|_| StoreError::Closed)?
    }

    /// Runs a read on a reader connection (WAL readers never wait for the
    /// writer).
    async fn read<T, F>(&self, f: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    {
        let readers = Arc::clone(&self.readers);
        tokio::task::spawn_blocking(move || {
            let conn = readers.take()?;
            let result = f(&conn);
            readers.give_back(conn);
            result
        })
        .await
        .map_err(|_| StoreError::Closed)?
    }
}

/// Applies each migration not yet recorded, each in its own transaction.
fn migrate(conn: &Connection) -> Result<(), StoreError> {
    conn.execute_batch(MIGRATIONS_TABLE)?;
    for m in SQLITE {
        let applied: bool = conn.query_row(
            "SELECT EXISTS (SELECT 1 FROM schema_migrations WHERE version = ?1)",
            [m.version],
            |r| r.get(0),
        )?;
        if applied {
            continue;
        }
        conn.execute_batch("BEGIN IMMEDIATE")?;
        let done = conn.execute_batch(m.sql).and_then(|()| {
            conn.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?1, ?2, ?3)",
                params![m.version, m.name, now_millis()],
            )
        });
        match done {
            Ok(_) => conn.execute_batch("COMMIT")?,
            Err(e) => {
                conn.execute_batch("ROLLBACK")?;
                return Err(e.into());
            }
        }
    }
    Ok(())
}

/// Gives each account made before the skeleton column its skeleton; an
/// account that looks like an older one keeps none (both keep working).
fn fill_name_skeletons(conn: &Connection) -> Result<(), StoreError> {
    let missing: Vec<(i64, String)> = conn
        .prepare("SELECT id, name FROM users WHERE name_skeleton IS NULL ORDER BY id")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    for (id, name) in missing {
        match conn.execute(
            "UPDATE users SET name_skeleton = ?1 WHERE id = ?2",
            params![name_skeleton(&name), id],
        ) {
            Err(e) if is_constraint(&e) => {}
            Err(e) => return Err(e.into()),
            Ok(_) => {}
        }
    }
    Ok(())
}

/// The writer: takes every job waiting, runs each in a savepoint of one
/// transaction (a failing job is rolled back alone), commits once, then
/// tells each caller.
fn run_writer(conn: &Connection, mut jobs: mpsc::UnboundedReceiver<Job>) {
    while let Some(first) = jobs.blocking_recv() {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match jobs.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        if let Err(e) = conn.execute_batch("BEGIN IMMEDIATE") {
            for job in batch {
                let (_, deliver) = job(Err(e.to_string()));
                deliver(Err(e.to_string()));
            }
            continue;
        }
        let mut delivers = Vec::with_capacity(batch.len());
        for job in batch {
            let (ok, deliver) = match conn.execute_batch("SAVEPOINT job") {
                Ok(()) => job(Ok(conn)),
                Err(e) => job(Err(e.to_string())),
            };
            let end = if ok {
                "RELEASE job"
            } else {
                "ROLLBACK TO job; RELEASE job"
            };
            // A savepoint that cannot be closed fails the whole transaction
            // at COMMIT, which every caller then hears about.
            let _ = conn.execute_batch(end);
            delivers.push(deliver);
        }
        let committed = conn.execute_batch("COMMIT").map_err(|e| e.to_string());
        if committed.is_err() {
            let _ = conn.execute_batch("ROLLBACK");
        }
        for deliver in delivers {
            deliver(committed.clone());
        }
    }
}

fn is_constraint(e: &rusqlite::Error) -> bool {
    matches!(e, rusqlite::Error::SqliteFailure(f, _) if f.code == ErrorCode::ConstraintViolation)
}

fn rank(text: String) -> Result<Rank, StoreError> {
    text.parse()
        .map_err(|_| StoreError::Corrupt(format!("rank {text:?}")))
}

const USER_COLUMNS: &str = "id, name, password_hash, declared_rank, rating, deviation, volatility, \
     rated_games, created_at, shown_rank, rank_streak, roles FROM users";

type UserFields = (
    i64,
    String,
    String,
    String,
    f64,
    f64,
    f64,
    u32,
    i64,
    Option<String>,
    i32,
    i64,
);

fn user_fields(r: &Row<'_>) -> rusqlite::Result<UserFields> {
    Ok((
        r.get(0)?,
        r.get(1)?,
        r.get(2)?,
        r.get(3)?,
        r.get(4)?,
        r.get(5)?,
        r.get(6)?,
        r.get(7)?,
        r.get(8)?,
        r.get(9)?,
        r.get(10)?,
        r.get(11)?,
    ))
}

fn user_from(f: UserFields) -> Result<User, StoreError> {
    Ok(User {
        id: f.0,
        name: f.1,
        password_hash: f.2,
        declared_rank: rank(f.3)?,
        rating: Rating {
            rating: f.4,
            deviation: f.5,
            volatility: f.6,
        },
        standing: f
            .9
            .map(|shown| -> Result<RankStanding, StoreError> {
                Ok(RankStanding {
                    shown: rank(shown)?,
                    streak: f.10,
                })
            })
            .transpose()?,
        rated_games: f.7,
        created_at: f.8,
        roles: Roles::from_bits(f.11),
    })
}

fn one_user(
    conn: &Connection,
    condition: &str,
    value: impl rusqlite::ToSql,
) -> Result<Option<User>, StoreError> {
    let sql = format!("SELECT {USER_COLUMNS} WHERE {condition}");
    conn.prepare_cached(&sql)?
        .query_row([value], user_fields)
        .optional()?
        .map(user_from)
        .transpose()
}

type GameFields = (
    i64,
    i64,
    String,
    i64,
    String,
    u8,
    bool,
    String,
    String,
    Option<String>,
    Option<String>,
    Option<String>,
    i64,
    Option<i64>,
);

fn game_fields(r: &Row<'_>) -> rusqlite::Result<GameFields> {
    Ok((
        r.get(0)?,
        r.get(1)?,
        r.get(2)?,
        r.get(3)?,
        r.get(4)?,
        r.get(5)?,
        r.get(6)?,
        r.get(7)?,
        r.get(8)?,
        r.get(9)?,
        r.get(10)?,
        r.get(11)?,
        r.get(12)?,
        r.get(13)?,
    ))
}

fn game_from(f: GameFields) -> Result<GameRow, StoreError> {
    Ok(GameRow {
        id: f.0,
        black: PlayerRef { id: f.1, name: f.2 },
        white: PlayerRef { id: f.3, name: f.4 },
        size: f.5,
        rated: f.6,
        settings: f.7,
        status: GameStatus::parse(&f.8)?,
        result: f.9,
        winner: parse_color(f.10)?,
        ratings: f.11,
        created_at: f.12,
        ended_at: f.13,
    })
}

fn games_where(
    conn: &Connection,
    condition: &str,
    tail: &str,
    values: &[&dyn rusqlite::ToSql],
) -> Result<Vec<GameRow>, StoreError> {
    let sql = format!("SELECT {GAME_COLUMNS} WHERE {condition} {tail}");
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map(values, game_fields)?;
    rows.map(|r| game_from(r?)).collect()
}

fn game_by_id(conn: &Connection, id: GameId) -> Result<Option<GameRow>, StoreError> {
    Ok(games_where(conn, "g.id = ?1", "", &[&id])?.pop())
}

const CHALLENGE_COLUMNS: &str = "c.id, c.challenger_id, u.name, c.opponent_id, o.name, \
     c.settings, c.created_at, c.seats FROM challenges c JOIN users u ON u.id = c.challenger_id \
     LEFT JOIN users o ON o.id = c.opponent_id";

fn challenge_row(r: &Row<'_>) -> rusqlite::Result<Challenge> {
    let opponent: Option<i64> = r.get(3)?;
    let opponent_name: Option<String> = r.get(4)?;
    Ok(Challenge {
        id: r.get(0)?,
        challenger: PlayerRef {
            id: r.get(1)?,
            name: r.get(2)?,
        },
        opponent: opponent
            .zip(opponent_name)
            .map(|(id, name)| PlayerRef { id, name }),
        settings: r.get(5)?,
        created_at: r.get(6)?,
        seats: r.get(7)?,
        joined: Vec::new(),
    })
}

/// Fills in who joined each challenge.
fn with_joined(
    conn: &Connection,
    mut challenges: Vec<Challenge>,
) -> Result<Vec<Challenge>, StoreError> {
    if challenges.iter().all(|c| c.seats <= 1) {
        return Ok(challenges);
    }
    let mut stmt = conn.prepare_cached(
        "SELECT s.challenge_id, s.user_id, u.name, s.seat FROM challenge_seats s \
         JOIN users u ON u.id = s.user_id ORDER BY s.joined_at, s.user_id",
    )?;
    let rows = stmt.query_map([], |r| {
        Ok((
            r.get::<_, i64>(0)?,
            Joiner {
                player: PlayerRef {
                    id: r.get(1)?,
                    name: r.get(2)?,
                },
                seat: r.get(3)?,
            },
        ))
    })?;
    for row in rows {
        let (challenge, player) = row?;
        if let Some(c) = challenges.iter_mut().find(|c| c.id == challenge) {
            c.joined.push(player);
        }
    }
    Ok(challenges)
}

fn challenge_by_id(conn: &Connection, id: ChallengeId) -> Result<Option<Challenge>, StoreError> {
    let sql = format!("SELECT {CHALLENGE_COLUMNS} WHERE c.id = ?1");
    let found = conn
        .prepare_cached(&sql)?
        .query_row([id], challenge_row)
        .optional()?;
    Ok(with_joined(conn, found.into_iter().collect())?.pop())
}

fn seek_row(r: &Row<'_>) -> rusqlite::Result<Seek> {
    Ok(Seek {
        id: r.get(0)?,
        user: PlayerRef {
            id: r.get(1)?,
            name: r.get(2)?,
        },
        size: r.get(3)?,
        time_control: r.get(4)?,
        rated: r.get(5)?,
        rank_level: r.get(6)?,
        min_level: r.get(7)?,
        max_level: r.get(8)?,
        settings: r.get(9)?,
        created_at: r.get(10)?,
    })
}

/// Inserts a live game and reads it back.
fn insert_game(conn: &Connection, g: &NewGame) -> Result<GameRow, StoreError> {
    conn.prepare_cached(
        "INSERT INTO games (black_id, white_id, size, rated, settings, status, created_at, simul_id) \
         VALUES (?1, ?2, ?3, ?4, ?5, 'live', ?6, ?7)",
    )?
    .execute(params![
        g.black,
        g.white,
        g.size,
        g.rated,
        g.settings,
        g.created_at,
        g.simul
    ])?;
    game_by_id(conn, conn.last_insert_rowid())?
        .ok_or_else(|| StoreError::Corrupt("a game vanished as it was made".into()))
}

#[async_trait::async_trait]
impl Store for SqliteStore {
    async fn create_user(&self, user: NewUser) -> Result<User, StoreError> {
        self.write(move |conn| {
            let inserted = conn
                .prepare_cached(
                    "INSERT INTO users (name, name_key, name_skeleton, password_hash, \
                     declared_rank, rating, deviation, volatility, created_at) \
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                )?
                .execute(params![
                    user.name,
                    name_key(&user.name),
                    name_skeleton(&user.name),
                    user.password_hash,
                    user.declared_rank.to_string(),
                    user.rating.rating,
                    user.rating.deviation,
                    user.rating.volatility,
                    user.created_at
                ]);
            match inserted {
                // Either the name or its look (both, for a case variant).
                Err(e) if is_constraint(&e) => {
                    let taken: bool = conn
                        .prepare_cached("SELECT EXISTS (SELECT 1 FROM users WHERE name_key = ?1)")?
                        .query_row([name_key(&user.name)], |r| r.get(0))?;
                    Err(if taken {
                        StoreError::NameTaken(user.name)
                    } else {
                        StoreError::NameConfusable(user.name)
                    })
                }
                Err(e) => Err(e.into()),
                Ok(_) => Ok(User {
                    id: conn.last_insert_rowid(),
                    name: user.name,
                    password_hash: user.password_hash,
                    declared_rank: user.declared_rank,
                    rating: user.rating,
                    standing: None,
                    rated_games: 0,
                    created_at: user.created_at,
                    roles: Roles::default(),
                }),
            }
        })
        .await
    }

    async fn user(&self, id: UserId) -> Result<Option<User>, StoreError> {
        self.read(move |conn| one_user(conn, "id = ?1", id)).await
    }

    async fn users(&self, ids: &[UserId]) -> Result<Vec<User>, StoreError> {
        let mut ids = ids.to_vec();
        ids.sort_unstable();
        ids.dedup();
        // In this process: a lookup each costs no round trip.
        self.read(move |conn| {
            ids.into_iter()
                .filter_map(|id| one_user(conn, "id = ?1", id).transpose())
                .collect()
        })
        .await
    }

    async fn user_by_name(&self, name: &str) -> Result<Option<User>, StoreError> {
        let key = name_key(name);
        self.read(move |conn| one_user(conn, "name_key = ?1", key))
            .await
    }

    async fn set_declared_rank(&self, id: UserId, rank: Rank) -> Result<bool, StoreError> {
        self.write(move |conn| {
            Ok(conn
                .prepare_cached("UPDATE users SET declared_rank = ?2 WHERE id = ?1")?
                .execute(params![id, rank.to_string()])?
                == 1)
        })
        .await
    }

    async fn search_users(&self, prefix: &str, limit: u32) -> Result<Vec<User>, StoreError> {
        let key = name_key(prefix);
        self.read(move |conn| {
            let sql = format!(
                "SELECT {USER_COLUMNS} WHERE substr(name_key, 1, length(?1)) = ?1 AND deleted_at IS NULL \
                 ORDER BY name_key LIMIT ?2"
            );
            let mut stmt = conn.prepare_cached(&sql)?;
            let rows = stmt.query_map(params![key, limit.min(100)], user_fields)?;
            rows.map(|r| user_from(r?)).collect()
        })
        .await
    }

    async fn create_session(&self, session: Session) -> Result<(), StoreError> {
        self.write(move |conn| {
            conn.prepare_cached(
                "INSERT INTO sessions (token_hash, user_id, created_at, expires_at, client) \
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )?
            .execute(params![
                session.token_hash,
                session.user,
                session.created_at,
                session.expires_at,
                session.client
            ])?;
            Ok(())
        })
        .await
    }

    async fn session_user(
        &self,
        token_hash: [u8; 32],
        now: i64,
    ) -> Result<Option<User>, StoreError> {
        self.read(move |conn| {
            let sql = format!(
                "SELECT {USER_COLUMNS} WHERE id = (SELECT user_id FROM sessions \
                 WHERE token_hash = ?1 AND expires_at > ?2)"
            );
            conn.prepare_cached(&sql)?
                .query_row(params![token_hash, now], user_fields)
                .optional()?
                .map(user_from)
                .transpose()
        })
        .await
    }

    async fn delete_session(&self, token_hash: [u8; 32]) -> Result<(), StoreError> {
        self.write(move |conn| {
            conn.prepare_cached("DELETE FROM sessions WHERE token_hash = ?1")?
                .execute([token_hash])?;
            Ok(())
        })
        .await
    }

    async fn create_challenge(&self, c: NewChallenge) -> Result<Challenge, StoreError> {
        self.write(move |conn| {
            conn.prepare_cached(
                "INSERT INTO challenges (challenger_id, opponent_id, settings, created_at, seats) \
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )?
            .execute(params![
                c.challenger,
                c.opponent,
                c.settings,
                c.created_at,
                c.seats
            ])?;
            challenge_by_id(conn, conn.last_insert_rowid())?
                .ok_or_else(|| StoreError::Corrupt("a challenge vanished as it was made".into()))
        })
        .await
    }

    async fn challenge(&self, id: ChallengeId) -> Result<Option<Challenge>, StoreError> {
        self.read(move |conn| challenge_by_id(conn, id)).await
    }

    async fn open_challenges(&self) -> Result<Vec<Challenge>, StoreError> {
        self.read(|conn| {
            let sql = format!("SELECT {CHALLENGE_COLUMNS} ORDER BY c.id");
            let mut stmt = conn.prepare_cached(&sql)?;
            let rows = stmt.query_map([], challenge_row)?;
            with_joined(conn, rows.collect::<Result<_, _>>()?)
        })
        .await
    }

    async fn delete_challenge(&self, id: ChallengeId) -> Result<bool, StoreError> {
        self.write(move |conn| {
            Ok(conn
                .prepare_cached("DELETE FROM challenges WHERE id = ?1")?
                .execute([id])?
                == 1)
        })
        .await
    }

    async fn accept_challenge(&self, id: ChallengeId, g: NewGame) -> Result<GameRow, StoreError> {
        self.write(move |conn| {
            let taken = conn
                .prepare_cached("DELETE FROM challenges WHERE id = ?1")?
                .execute([id])?;
            if taken != 1 {
                return Err(StoreError::ChallengeGone(id));
            }
            insert_game(conn, &g)
        })
        .await
    }

    async fn join_challenge(
        &self,
        id: ChallengeId,
        (user, seat): (UserId, String),
        at: i64,
        start: Starting,
    ) -> Result<Joined, StoreError> {
        self.write(move |conn| {
            let challenge = challenge_by_id(conn, id)?.ok_or(StoreError::ChallengeGone(id))?;
            if challenge.joined.iter().any(|j| j.player.id == user) {
                return Err(StoreError::AlreadyJoined(id));
            }
            conn.prepare_cached(
                "INSERT INTO challenge_seats (challenge_id, user_id, seat, joined_at) \
                 VALUES (?1, ?2, ?3, ?4)",
            )?
            .execute(params![id, user, seat, at])?;
            let challenge = challenge_by_id(conn, id)?.ok_or(StoreError::ChallengeGone(id))?;
            if challenge.joined.len() < usize::try_from(challenge.seats).unwrap_or(usize::MAX) {
                return Ok(Joined::Waiting(challenge));
            }
            let games = start(&challenge)?;
            conn.prepare_cached("DELETE FROM challenges WHERE id = ?1")?
                .execute([id])?;
            let rows = games
                .iter()
                .map(|g| insert_game(conn, g))
                .collect::<Result<_, _>>()?;
            Ok(Joined::Started(rows))
        })
        .await
    }

    async fn leave_challenge(&self, id: ChallengeId, user: UserId) -> Result<bool, StoreError> {
        self.write(move |conn| {
            Ok(conn
                .prepare_cached(
                    "DELETE FROM challenge_seats WHERE challenge_id = ?1 AND user_id = ?2",
                )?
                .execute([id, user])?
                == 1)
        })
        .await
    }

    async fn seek(&self, seek: NewSeek, pair: Pairing) -> Result<SeekOutcome, StoreError> {
        // The writer runs one transaction at a time: pairing is serialised.
        self.write(move |conn| {
            conn.prepare_cached("DELETE FROM seeks WHERE seen_at < ?1 OR user_id = ?2")?
                .execute(params![seek.fresh_after, seek.user])?;
            let sql = format!(
                "SELECT {SEEK_COLUMNS} WHERE {} ORDER BY s.id LIMIT 1",
                crate::seek::compatible(|n| format!("?{n}"))
            );
            let partner = conn
                .prepare_cached(&sql)?
                .query_row(
                    params![
                        seek.user,
                        seek.size,
                        seek.time_control,
                        seek.rated,
                        seek.rank_level,
                        seek.min_level,
                        seek.max_level,
                        seek.fresh_after
                    ],
                    seek_row,
                )
                .optional()?;
            if let Some(partner) = partner {
                let game = pair(&partner)?;
                conn.prepare_cached("DELETE FROM seeks WHERE id = ?1")?
                    .execute([partner.id])?;
                let game = insert_game(conn, &game)?;
                return Ok(SeekOutcome::Paired { partner, game });
            }
            conn.prepare_cached(
                "INSERT INTO seeks (user_id, size, time_control, rated, rank_level, min_level, \
                 max_level, settings, created_at, seen_at) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?9)",
            )?
            .execute(params![
                seek.user,
                seek.size,
                seek.time_control,
                seek.rated,
                seek.rank_level,
                seek.min_level,
                seek.max_level,
                seek.settings,
                seek.at
            ])?;
            let sql = format!("SELECT {SEEK_COLUMNS} WHERE s.id = ?1");
            let stored = conn
                .prepare_cached(&sql)?
                .query_row([conn.last_insert_rowid()], seek_row)?;
            Ok(SeekOutcome::Waiting(stored))
        })
        .await
    }

    async fn cancel_seek(&self, id: SeekId) -> Result<bool, StoreError> {
        self.write(move |conn| {
            Ok(conn
                .prepare_cached("DELETE FROM seeks WHERE id = ?1")?
                .execute([id])?
                == 1)
        })
        .await
    }

    async fn renew_seek(&self, id: SeekId, at: i64) -> Result<bool, StoreError> {
        self.write(move |conn| {
            Ok(conn
                .prepare_cached("UPDATE seeks SET seen_at = ?1 WHERE id = ?2")?
                .execute([at, id])?
                == 1)
        })
        .await
    }

    async fn open_seeks(&self, fresh_after: i64) -> Result<Vec<Seek>, StoreError> {
        self.read(move |conn| {
            let sql = format!("SELECT {SEEK_COLUMNS} WHERE s.seen_at >= ?1 ORDER BY s.id");
            let mut stmt = conn.prepare_cached(&sql)?;
            let rows = stmt.query_map([fresh_after], seek_row)?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
        .await
    }

    async fn simul_games(&self, simul: ChallengeId) -> Result<Vec<GameRow>, StoreError> {
        self.read(move |conn| games_where(conn, "g.simul_id = ?1", "ORDER BY g.id", &[&simul]))
            .await
    }

    async fn append_events(&self, events: Vec<StoredEvent>) -> Result<(), StoreError> {
        self.write(move |conn| {
            let mut stmt = conn.prepare_cached(
                "INSERT INTO game_events (game_id, version, at, body) VALUES (?1, ?2, ?3, ?4)",
            )?;
            for e in &events {
                let version = i64::try_from(e.version)
                    .map_err(|_| StoreError::Corrupt(format!("version {}", e.version)))?;
                match stmt.execute(params![e.game, version, e.at, e.body]) {
                    Ok(_) => {}
                    Err(err) if is_constraint(&err) => {
                        return Err(StoreError::VersionTaken {
                            game: e.game,
                            version: e.version,
                        });
                    }
                    Err(err) => return Err(err.into()),
                }
            }
            Ok(())
        })
        .await
    }

    async fn events(&self, game: GameId, after: u64) -> Result<Vec<StoredEvent>, StoreError> {
        let after = i64::try_from(after).unwrap_or(i64::MAX);
        self.read(move |conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT version, at, body FROM game_events WHERE game_id = ?1 AND version > ?2 \
                 ORDER BY version",
            )?;
            let rows = stmt.query_map(params![game, after], |r| {
                Ok(StoredEvent {
                    game,
                    version: r.get::<_, i64>(0)?.unsigned_abs(),
                    at: r.get(1)?,
                    body: r.get(2)?,
                })
            })?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
        .await
    }

    async fn game(&self, id: GameId) -> Result<Option<GameRow>, StoreError> {
        self.read(move |conn| game_by_id(conn, id)).await
    }

    async fn live_games(&self) -> Result<Vec<GameRow>, StoreError> {
        self.read(|conn| games_where(conn, "g.status = 'live'", "ORDER BY g.id", &[]))
            .await
    }

    async fn finish_game(&self, end: GameEnd) -> Result<bool, StoreError> {
        self.write(move |conn| {
            let updated = conn
                .prepare_cached(
                    "UPDATE games SET status = ?2, result = ?3, winner = ?4, ended_at = ?5, \
                     ratings = ?6 WHERE id = ?1 AND status = 'live'",
                )?
                .execute(params![
                    end.game,
                    end.status.as_str(),
                    end.result,
                    color_word(end.winner),
                    end.ended_at,
                    end.ratings.as_ref().map(|r| r.summary.as_str()),
                ])?;
            if updated != 1 {
                return Ok(false);
            }
            if let Some(update) = &end.ratings {
                let (black, white): (i64, i64) = conn
                    .prepare_cached("SELECT black_id, white_id FROM games WHERE id = ?1")?
                    .query_row([end.game], |r| Ok((r.get(0)?, r.get(1)?)))?;
                let mut stmt = conn.prepare_cached(
                    "UPDATE users SET rating = ?2, deviation = ?3, volatility = ?4, \
                     rated_games = rated_games + 1, shown_rank = ?5, rank_streak = ?6 \
                     WHERE id = ?1",
                )?;
                for (user, r, standing) in [
                    (black, update.black, update.black_standing),
                    (white, update.white, update.white_standing),
                ] {
                    stmt.execute(params![
                        user,
                        r.rating,
                        r.deviation,
                        r.volatility,
                        standing.map(|s| s.shown.to_string()),
                        standing.map_or(0, |s| s.streak),
                    ])?;
                }
            }
            Ok(true)
        })
        .await
    }

    async fn games_of(
        &self,
        user: UserId,
        query: &ArchiveQuery,
    ) -> Result<Vec<GameRow>, StoreError> {
        let (condition, values) = archive_filter(user, query, |n| format!("?{n}"));
        let limit = query.page_size();
        self.read(move |conn| {
            let values: Vec<rusqlite::types::Value> = values
                .into_iter()
                .map(|v| match v {
                    SqlValue::Int(i) => rusqlite::types::Value::Integer(i),
                    SqlValue::Text(t) => rusqlite::types::Value::Text(t.to_owned()),
                })
                .collect();
            let refs: Vec<&dyn rusqlite::ToSql> =
                values.iter().map(|v| v as &dyn rusqlite::ToSql).collect();
            games_where(
                conn,
                &condition,
                &format!("ORDER BY g.id DESC LIMIT {limit}"),
                &refs,
            )
        })
        .await
    }

    async fn heartbeat(&self, at: i64) -> Result<(), StoreError> {
        self.write(move |conn| {
            conn.prepare_cached(
                "INSERT INTO heartbeat (id, at) VALUES (1, ?1) \
                 ON CONFLICT (id) DO UPDATE SET at = excluded.at",
            )?
            .execute([at])?;
            Ok(())
        })
        .await
    }

    async fn last_heartbeat(&self) -> Result<Option<i64>, StoreError> {
        self.read(|conn| {
            Ok(conn
                .prepare_cached("SELECT at FROM heartbeat WHERE id = 1")?
                .query_row([], |r| r.get(0))
                .optional()?)
        })
        .await
    }
}
