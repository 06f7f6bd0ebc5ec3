//! The PostgreSQL backend: a connection pool for reads and ordinary writes,
//! and one writer task that group-commits event appends (many games' events
//! in one multi-row insert and one commit).

use std::sync::Arc;

use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod};
use shoutan_rules::Rank;
use tokio::sync::{mpsc, oneshot};
use tokio_postgres::error::SqlState;
use tokio_postgres::types::ToSql;
use tokio_postgres::{NoTls, Row};

use crate::game::{GAME_COLUMNS, SqlValue, archive_filter, color_word, parse_color};
use crate::migrate::{MIGRATIONS_TABLE, POSTGRES, now_millis};
use crate::moderation::Roles;
use crate::seek::SEEK_COLUMNS;
use crate::{
    ArchiveQuery, Challenge, ChallengeId, GameEnd, GameId, GameRow, GameStatus, Joined, Joiner,
    NewChallenge, NewGame, NewSeek, NewUser, Pairing, PlayerRef, RankStanding, Rating, Seek,
    SeekId, SeekOutcome, Session, Starting, Store, StoreError, StoredEvent, User, UserId, name_key,
    name_skeleton,
};

#[path = "postgres_cluster.rs"]
mod cluster;
#[path = "postgres_moderation.rs"]
mod moderation;
#[path = "postgres_problem.rs"]
mod problem;
#[path = "postgres_review.rs"]
mod review;
#[path = "postgres_tournament.rs"]
mod tournament;

/// Connections in the pool.
const POOL_SIZE: usize = 16;
/// The most appends one transaction carries.
const MAX_BATCH: usize = 4096;
/// The advisory lock that serialises migrations of several instances.
const MIGRATION_LOCK: i64 = 0x0053_484f_5554_414e;

type Append = (Vec<StoredEvent>, oneshot::Sender<Result<(), StoreError>>);

/// The PostgreSQL store.
pub struct PostgresStore {
    pool: Pool,
    appends: mpsc::UnboundedSender<Append>,
    /// Where the bus listens (a connection of its own, outside the pool).
    bus: tokio_postgres::Config,
    /// Set once this process joined the cluster: its appends are fenced.
    fence: cluster::FenceCell,
}

fn pool_error(e: impl std::fmt::Display) -> StoreError {
    StoreError::Pool(e.to_string())
}

fn is_unique_violation(e: &tokio_postgres::Error) -> bool {
    e.code() == Some(&SqlState::UNIQUE_VIOLATION)
}

fn valid_schema(schema: &str) -> bool {
    let mut chars = schema.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_lowercase() || c == '_')
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        && schema.len() <= 63
}

impl PostgresStore {
    /// Connects to `url`; with `schema`, works in that schema (created if
    /// missing: lower-case letters, digits and `_`) instead of `public`.
    /// Applies pending migrations and starts the append writer.
    pub async fn connect(url: &str, schema: Option<&str>) -> Result<PostgresStore, StoreError> {
        let mut config: tokio_postgres::Config = url.parse()?;
        if let Some(schema) = schema {
            if !valid_schema(schema) {
                return Err(StoreError::Location(format!("{url} (schema {schema:?})")));
            }
            let (client, connection) = config.connect(NoTls).await?;
            let task = tokio::spawn(connection);
            client
                .batch_execute(&format!("CREATE SCHEMA IF NOT EXISTS {schema}"))
                .await?;
            drop(client);
            let _ = task.await;
            config.options(format!("-c search_path={schema}"));
        }
        let bus = config.clone();
        let manager = Manager::from_config(
            config,
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(POOL_SIZE)
            .build()
            .map_err(pool_error)?;
        migrate(&pool).await?;
        fill_name_skeletons(&pool).await?;
        let (appends, rx) = mpsc::unbounded_channel();
        let fence = cluster::FenceCell::default();
        tokio::spawn(run_appender(pool.clone(), rx, Arc::clone(&fence)));
        Ok(PostgresStore {
            pool,
            appends,
            bus,
            fence,
        })
    }

    async fn client(&self) -> Result<deadpool_postgres::Object, StoreError> {
        self.pool.get().await.map_err(pool_error)
    }
}

/// Gives each account made before the skeleton column its skeleton; an
/// account that looks like an older one keeps none (both keep working).
async fn fill_name_skeletons(pool: &Pool) -> Result<(), StoreError> {
    let client = pool.get().await.map_err(pool_error)?;
    let missing = client
        .query(
            "SELECT id, name FROM users WHERE name_skeleton IS NULL ORDER BY id",
            &[],
        )
        .await?;
    for row in missing {
        let (id, name): (i64, String) = (row.try_get(0)?, row.try_get(1)?);
        match client
            .execute(
                "UPDATE users SET name_skeleton = $1 WHERE id = $2",
                &[&name_skeleton(&name), &id],
            )
            .await
        {
            Err(e) if is_unique_violation(&e) => {}
            Err(e) => return Err(e.into()),
            Ok(_) => {}
        }
    }
    Ok(())
}

async fn migrate(pool: &Pool) -> Result<(), StoreError> {
    let mut client = pool.get().await.map_err(pool_error)?;
    let tx = client.transaction().await?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
        .await?;
    tx.batch_execute(MIGRATIONS_TABLE).await?;
    for m in POSTGRES {
        let applied = tx
            .query_opt(
                "SELECT 1 FROM schema_migrations WHERE version = $1",
                &[&m.version],
            )
            .await?
            .is_some();
        if !applied {
            tx.batch_execute(m.sql).await?;
            tx.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
                &[&m.version, &m.name, &now_millis()],
            )
            .await?;
        }
    }
    tx.commit().await?;
    Ok(())
}

/// The append writer: everything waiting goes into one statement (its
/// own transaction); if that fails, each caller's events are retried alone
/// so that one bad append cannot fail the others. Once the process has
/// joined a cluster, each append is fenced (see [`crate::cluster`]) and
/// publishes its events on the bus.
async fn run_appender(
    pool: Pool,
    mut rx: mpsc::UnboundedReceiver<Append>,
    fence: cluster::FenceCell,
) {
    while let Some(first) = rx.recv().await {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(a) => batch.push(a),
                Err(_) => break,
            }
        }
        let client = match pool.get().await {
            Ok(c) => c,
            Err(e) => {
                for (_, reply) in batch {
                    let _ = reply.send(Err(pool_error(&e)));
                }
                continue;
            }
        };
        let fence = fence.get();
        let all: Vec<&StoredEvent> = batch.iter().flat_map(|(events, _)| events).collect();
        if insert_events(&client, &all, fence).await.is_ok() {
            for (_, reply) in batch {
                let _ = reply.send(Ok(()));
            }
            continue;
        }
        for (events, reply) in batch {
            let refs: Vec<&StoredEvent> = events.iter().collect();
            let _ = reply.send(insert_events(&client, &refs, fence).await);
        }
    }
}

/// An event as the bus carries it: the whole stored event, or only its
/// game and version when that would not fit in a notification.
fn notification(e: &StoredEvent) -> String {
    let whole =
        serde_json::json!({"g": e.game, "v": e.version, "at": e.at, "b": e.body}).to_string();
    if whole.len() <= crate::cluster::MAX_PAYLOAD {
        whole
    } else {
        serde_json::json!({"g": e.game, "v": e.version}).to_string()
    }
}

async fn insert_events(
    client: &deadpool_postgres::Object,
    events: &[&StoredEvent],
    fence: Option<&cluster::Fence>,
) -> Result<(), StoreError> {
    let mut games = Vec::with_capacity(events.len());
    let mut versions = Vec::with_capacity(events.len());
    let mut ats = Vec::with_capacity(events.len());
    let mut bodies = Vec::with_capacity(events.len());
    for e in events {
        games.push(e.game);
        versions.push(
            i64::try_from(e.version)
                .map_err(|_| StoreError::Corrupt(format!("version {}", e.version)))?,
        );
        ats.push(e.at);
        bodies.push(e.body.as_str());
    }
    let payloads: Option<Vec<String>> =
        fence.map(|_| events.iter().map(|e| notification(e)).collect());
    // One statement, its own transaction (see the migration that defines
    // the function); prepared once per connection.
    let append = client
        .prepare_cached("SELECT append_game_events($1, $2, $3, $4, $5, $6, $7, $8)")
        .await?;
    let appended = client
        .query_one(
            &append,
            &[
                &games,
                &versions,
                &ats,
                &bodies,
                &fence.map(|f| f.instance.as_str()),
                &fence.map(|f| f.token.as_str()),
                &crate::cluster::GAME_CHANNEL,
                &payloads,
            ],
        )
        .await;
    match appended {
        Ok(row) => match row.try_get::<_, Option<GameId>>(0)? {
            Some(lost) => Err(StoreError::NotOwner(lost)),
            None => Ok(()),
        },
        Err(e) if is_unique_violation(&e) => Err(taken_version(client, events).await),
        Err(e) => Err(e.into()),
    }
}

/// The first of `events` whose version is already in its log (after a
/// unique violation), for a precise error.
async fn taken_version(client: &deadpool_postgres::Object, events: &[&StoredEvent]) -> StoreError {
    for e in events {
        let version = i64::try_from(e.version).unwrap_or(i64::MAX);
        match client
            .query_opt(
                "SELECT 1 FROM game_events WHERE game_id = $1 AND version = $2",
                &[&e.game, &version],
            )
            .await
        {
            Ok(Some(_)) => {
                return StoreError::VersionTaken {
                    game: e.game,
                    version: e.version,
                };
            }
            Ok(None) => {}
            Err(err) => return err.into(),
        }
    }
    StoreError::Corrupt("a unique violation without a clashing version".into())
}

const USER_COLUMNS: &str = "id, name, password_hash, declared_rank, rating, deviation, volatility, \
     rated_games, created_at, shown_rank, rank_streak, roles FROM users";

fn rank(text: &str) -> Result<Rank, StoreError> {
    text.parse()
        .map_err(|_| StoreError::Corrupt(format!("rank {text:?}")))
}

fn user_row(r: &Row) -> Result<User, StoreError> {
    Ok(User {
        id: r.try_get(0)?,
        name: r.try_get(1)?,
        password_hash: r.try_get(2)?,
        declared_rank: rank(r.try_get(3)?)?,
        rating: Rating {
            rating: r.try_get(4)?,
            deviation: r.try_get(5)?,
            volatility: r.try_get(6)?,
        },
        standing: r
            .try_get::<_, Option<&str>>(9)?
            .map(|shown| -> Result<RankStanding, StoreError> {
                Ok(RankStanding {
                    shown: rank(shown)?,
                    streak: r.try_get(10)?,
                })
            })
            .transpose()?,
        rated_games: r.try_get::<_, i32>(7)?.unsigned_abs(),
        created_at: r.try_get(8)?,
        roles: Roles::from_bits(r.try_get(11)?),
    })
}

fn game_row(r: &Row) -> Result<GameRow, StoreError> {
    let size: i16 = r.try_get(5)?;
    Ok(GameRow {
        id: r.try_get(0)?,
        black: PlayerRef {
            id: r.try_get(1)?,
            name: r.try_get(2)?,
        },
        white: PlayerRef {
            id: r.try_get(3)?,
            name: r.try_get(4)?,
        },
        size: u8::try_from(size).map_err(|_| StoreError::Corrupt(format!("size {size}")))?,
        rated: r.try_get(6)?,
        settings: r.try_get(7)?,
        status: GameStatus::parse(r.try_get(8)?)?,
        result: r.try_get(9)?,
        winner: parse_color(r.try_get(10)?)?,
        ratings: r.try_get(11)?,
        created_at: r.try_get(12)?,
        ended_at: r.try_get(13)?,
    })
}

const CHALLENGE_COLUMNS: &str = "c.id, c.challenger_id, u.name, c.opponent_id, o.name, \
     c.settings, c.created_at, c.seats FROM challenges c JOIN users u ON u.id = c.challenger_id \
     LEFT JOIN users o ON o.id = c.opponent_id";

fn challenge_row(r: &Row) -> Result<Challenge, StoreError> {
    let opponent: Option<i64> = r.try_get(3)?;
    let opponent_name: Option<String> = r.try_get(4)?;
    Ok(Challenge {
        id: r.try_get(0)?,
        challenger: PlayerRef {
            id: r.try_get(1)?,
            name: r.try_get(2)?,
        },
        opponent: opponent
            .zip(opponent_name)
            .map(|(id, name)| PlayerRef { id, name }),
        settings: r.try_get(5)?,
        created_at: r.try_get(6)?,
        seats: u32::try_from(r.try_get::<_, i32>(7)?)
            .map_err(|_| StoreError::Corrupt("a negative count of seats".into()))?,
        joined: Vec::new(),
    })
}

/// Fills in who joined each challenge.
async fn with_joined(
    client: &impl deadpool_postgres::GenericClient,
    mut challenges: Vec<Challenge>,
) -> Result<Vec<Challenge>, StoreError> {
    let ids: Vec<i64> = challenges
        .iter()
        .filter(|c| c.seats > 1)
        .map(|c| c.id)
        .collect();
    if ids.is_empty() {
        return Ok(challenges);
    }
    let rows = client
        .query(
            "SELECT s.challenge_id, s.user_id, u.name, s.seat FROM challenge_seats s \
             JOIN users u ON u.id = s.user_id WHERE s.challenge_id = ANY($1) \
             ORDER BY s.joined_at, s.user_id",
            &[&ids],
        )
        .await?;
    for r in rows {
        let challenge: i64 = r.try_get(0)?;
        if let Some(c) = challenges.iter_mut().find(|c| c.id == challenge) {
            c.joined.push(Joiner {
                player: PlayerRef {
                    id: r.try_get(1)?,
                    name: r.try_get(2)?,
                },
                seat: r.try_get(3)?,
            });
        }
    }
    Ok(challenges)
}

fn seek_row(r: &Row) -> Result<Seek, StoreError> {
    let size: i32 = r.try_get(3)?;
    Ok(Seek {
        id: r.try_get(0)?,
        user: PlayerRef {
            id: r.try_get(1)?,
            name: r.try_get(2)?,
        },
        size: u8::try_from(size).map_err(|_| StoreError::Corrupt(format!("size {size}")))?,
        time_control: r.try_get(4)?,
        rated: r.try_get(5)?,
        rank_level: r.try_get(6)?,
        min_level: r.try_get(7)?,
        max_level: r.try_get(8)?,
        settings: r.try_get(9)?,
        created_at: r.try_get(10)?,
    })
}

/// Inserts a live game and reads it back.
async fn insert_game(
    client: &impl deadpool_postgres::GenericClient,
    g: &NewGame,
) -> Result<GameRow, StoreError> {
    let row = client
        .query_one(
            "INSERT INTO games (black_id, white_id, size, rated, settings, status, created_at, simul_id) \
             VALUES ($1, $2, $3, $4, $5, 'live', $6, $7) RETURNING id",
            &[
                &g.black,
                &g.white,
                &i16::from(g.size),
                &g.rated,
                &g.settings,
                &g.created_at,
                &g.simul,
            ],
        )
        .await?;
    game_by_id(client, row.try_get(0)?)
        .await?
        .ok_or_else(|| StoreError::Corrupt("a game vanished as it was made".into()))
}

async fn game_by_id(
    client: &impl deadpool_postgres::GenericClient,
    id: GameId,
) -> Result<Option<GameRow>, StoreError> {
    let sql = format!("SELECT {GAME_COLUMNS} WHERE g.id = $1");
    client
        .query_opt(&sql, &[&id])
        .await?
        .as_ref()
        .map(game_row)
        .transpose()
}

async fn challenge_by_id(
    client: &impl deadpool_postgres::GenericClient,
    id: ChallengeId,
) -> Result<Option<Challenge>, StoreError> {
    let sql = format!("SELECT {CHALLENGE_COLUMNS} WHERE c.id = $1");
    let found = client
        .query_opt(&sql, &[&id])
        .await?
        .as_ref()
        .map(challenge_row)
        .transpose()?;
    Ok(with_joined(client, found.into_iter().collect())
        .await?
        .pop())
}

#[async_trait::async_trait]
impl Store for PostgresStore {
    async fn create_user(&self, user: NewUser) -> Result<User, StoreError> {
        let client = self.client().await?;
        let inserted = client
            .query_one(
                "INSERT INTO users (name, name_key, name_skeleton, password_hash, declared_rank, \
                 rating, deviation, volatility, created_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id",
                &[
                    &user.name,
                    &name_key(&user.name),
                    &name_skeleton(&user.name),
                    &user.password_hash,
                    &user.declared_rank.to_string(),
                    &user.rating.rating,
                    &user.rating.deviation,
                    &user.rating.volatility,
                    &user.created_at,
                ],
            )
            .await;
        match inserted {
            // Either the name or its look (both, for a case variant).
            Err(e) if is_unique_violation(&e) => {
                let taken = client
                    .query_opt(
                        "SELECT 1 FROM users WHERE name_key = $1",
                        &[&name_key(&user.name)],
                    )
                    .await?
                    .is_some();
                Err(if taken {
                    StoreError::NameTaken(user.name)
                } else {
                    StoreError::NameConfusable(user.name)
                })
            }
            Err(e) => Err(e.into()),
            Ok(row) => Ok(User {
                id: row.try_get(0)?,
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
    }

    async fn user(&self, id: UserId) -> Result<Option<User>, StoreError> {
        let sql = format!("SELECT {USER_COLUMNS} WHERE id = $1");
        self.client()
            .await?
            .query_opt(&sql, &[&id])
            .await?
            .as_ref()
            .map(user_row)
            .transpose()
    }

    async fn users(&self, ids: &[UserId]) -> Result<Vec<User>, StoreError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let sql = format!("SELECT {USER_COLUMNS} WHERE id = ANY($1) ORDER BY id");
        self.client()
            .await?
            .query(&sql, &[&ids])
            .await?
            .iter()
            .map(user_row)
            .collect()
    }

    async fn user_by_name(&self, name: &str) -> Result<Option<User>, StoreError> {
        let sql = format!("SELECT {USER_COLUMNS} WHERE name_key = $1");
        self.client()
            .await?
            .query_opt(&sql, &[&name_key(name)])
            .await?
            .as_ref()
            .map(user_row)
            .transpose()
    }

    async fn set_declared_rank(&self, id: UserId, rank: Rank) -> Result<bool, StoreError> {
        Ok(self
            .client()
            .await?
            .execute(
                "UPDATE users SET declared_rank = $2 WHERE id = $1",
                &[&id, &rank.to_string()],
            )
            .await?
            == 1)
    }

    async fn search_users(&self, prefix: &str, limit: u32) -> Result<Vec<User>, StoreError> {
        let sql = format!(
            "SELECT {USER_COLUMNS} WHERE left(name_key, char_length($1)) = $1 AND deleted_at IS NULL \
             ORDER BY name_key LIMIT $2"
        );
        let limit = i64::from(limit.min(100));
        self.client()
            .await?
            .query(&sql, &[&name_key(prefix), &limit])
            .await?
            .iter()
            .map(user_row)
            .collect()
    }

    async fn create_session(&self, s: Session) -> Result<(), StoreError> {
        self.client()
            .await?
            .execute(
                "INSERT INTO sessions (token_hash, user_id, created_at, expires_at, client) \
                 VALUES ($1, $2, $3, $4, $5)",
                &[
                    &&s.token_hash[..],
                    &s.user,
                    &s.created_at,
                    &s.expires_at,
                    &s.client,
                ],
            )
            .await?;
        Ok(())
    }

    async fn session_user(
        &self,
        token_hash: [u8; 32],
        now: i64,
    ) -> Result<Option<User>, StoreError> {
        let sql = format!(
            "SELECT {USER_COLUMNS} WHERE id = (SELECT user_id FROM sessions \
             WHERE token_hash = $1 AND expires_at > $2)"
        );
        self.client()
            .await?
            .query_opt(&sql, &[&&token_hash[..], &now])
            .await?
            .as_ref()
            .map(user_row)
            .transpose()
    }

    async fn delete_session(&self, token_hash: [u8; 32]) -> Result<(), StoreError> {
        self.client()
            .await?
            .execute(
                "DELETE FROM sessions WHERE token_hash = $1",
                &[&&token_hash[..]],
            )
            .await?;
        Ok(())
    }

    async fn create_challenge(&self, c: NewChallenge) -> Result<Challenge, StoreError> {
        let client = self.client().await?;
        let row = client
            .query_one(
                "INSERT INTO challenges (challenger_id, opponent_id, settings, created_at, seats) \
                 VALUES ($1, $2, $3, $4, $5) RETURNING id",
                &[
                    &c.challenger,
                    &c.opponent,
                    &c.settings,
                    &c.created_at,
                    &i32::try_from(c.seats).unwrap_or(i32::MAX),
                ],
            )
            .await?;
        challenge_by_id(&client, row.try_get(0)?)
            .await?
            .ok_or_else(|| StoreError::Corrupt("a challenge vanished as it was made".into()))
    }

    async fn challenge(&self, id: ChallengeId) -> Result<Option<Challenge>, StoreError> {
        challenge_by_id(&self.client().await?, id).await
    }

    async fn open_challenges(&self) -> Result<Vec<Challenge>, StoreError> {
        let sql = format!("SELECT {CHALLENGE_COLUMNS} ORDER BY c.id");
        let client = self.client().await?;
        let challenges = client
            .query(&sql, &[])
            .await?
            .iter()
            .map(challenge_row)
            .collect::<Result<_, _>>()?;
        with_joined(&client, challenges).await
    }

    async fn delete_challenge(&self, id: ChallengeId) -> Result<bool, StoreError> {
        Ok(self
            .client()
            .await?
            .execute("DELETE FROM challenges WHERE id = $1", &[&id])
            .await?
            == 1)
    }

    async fn accept_challenge(&self, id: ChallengeId, g: NewGame) -> Result<GameRow, StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        if tx
            .execute("DELETE FROM challenges WHERE id = $1", &[&id])
            .await?
            != 1
        {
            return Err(StoreError::ChallengeGone(id));
        }
        let game = insert_game(&tx, &g).await?;
        tx.commit().await?;
        Ok(game)
    }

    async fn join_challenge(
        &self,
        id: ChallengeId,
        (user, seat): (UserId, String),
        at: i64,
        start: Starting,
    ) -> Result<Joined, StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        // The challenge's row lock serialises its joins, across processes.
        if tx
            .query_opt("SELECT id FROM challenges WHERE id = $1 FOR UPDATE", &[&id])
            .await?
            .is_none()
        {
            return Err(StoreError::ChallengeGone(id));
        }
        let inserted = tx
            .execute(
                "INSERT INTO challenge_seats (challenge_id, user_id, seat, joined_at) \
                 VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
                &[&id, &user, &seat, &at],
            )
            .await?;
        if inserted != 1 {
            return Err(StoreError::AlreadyJoined(id));
        }
        let challenge = challenge_by_id(&tx, id)
            .await?
            .ok_or(StoreError::ChallengeGone(id))?;
        if challenge.joined.len() < usize::try_from(challenge.seats).unwrap_or(usize::MAX) {
            tx.commit().await?;
            return Ok(Joined::Waiting(challenge));
        }
        let games = start(&challenge)?;
        tx.execute("DELETE FROM challenges WHERE id = $1", &[&id])
            .await?;
        let mut rows = Vec::with_capacity(games.len());
        for g in &games {
            rows.push(insert_game(&tx, g).await?);
        }
        tx.commit().await?;
        Ok(Joined::Started(rows))
    }

    async fn leave_challenge(&self, id: ChallengeId, user: UserId) -> Result<bool, StoreError> {
        Ok(self
            .client()
            .await?
            .execute(
                "DELETE FROM challenge_seats WHERE challenge_id = $1 AND user_id = $2",
                &[&id, &user],
            )
            .await?
            == 1)
    }

    async fn seek(&self, seek: NewSeek, pair: Pairing) -> Result<SeekOutcome, StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        // This mode conflicts with itself: seeks pair one at a time, across
        // every process on the database (reads of the lobby go on).
        tx.batch_execute("LOCK TABLE seeks IN SHARE ROW EXCLUSIVE MODE")
            .await?;
        tx.execute(
            "DELETE FROM seeks WHERE seen_at < $1 OR user_id = $2",
            &[&seek.fresh_after, &seek.user],
        )
        .await?;
        let size = i32::from(seek.size);
        let sql = format!(
            "SELECT {SEEK_COLUMNS} WHERE {} ORDER BY s.id LIMIT 1",
            crate::seek::compatible(|n| format!("${n}"))
        );
        let partner = tx
            .query_opt(
                &sql,
                &[
                    &seek.user,
                    &size,
                    &seek.time_control,
                    &seek.rated,
                    &seek.rank_level,
                    &seek.min_level,
                    &seek.max_level,
                    &seek.fresh_after,
                ],
            )
            .await?
            .as_ref()
            .map(seek_row)
            .transpose()?;
        if let Some(partner) = partner {
            let game = pair(&partner)?;
            tx.execute("DELETE FROM seeks WHERE id = $1", &[&partner.id])
                .await?;
            let game = insert_game(&tx, &game).await?;
            tx.commit().await?;
            return Ok(SeekOutcome::Paired { partner, game });
        }
        let row = tx
            .query_one(
                "INSERT INTO seeks (user_id, size, time_control, rated, rank_level, min_level, \
                 max_level, settings, created_at, seen_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9) RETURNING id",
                &[
                    &seek.user,
                    &size,
                    &seek.time_control,
                    &seek.rated,
                    &seek.rank_level,
                    &seek.min_level,
                    &seek.max_level,
                    &seek.settings,
                    &seek.at,
                ],
            )
            .await?;
        let id: i64 = row.try_get(0)?;
        let sql = format!("SELECT {SEEK_COLUMNS} WHERE s.id = $1");
        let stored = seek_row(&tx.query_one(&sql, &[&id]).await?)?;
        tx.commit().await?;
        Ok(SeekOutcome::Waiting(stored))
    }

    async fn cancel_seek(&self, id: SeekId) -> Result<bool, StoreError> {
        Ok(self
            .client()
            .await?
            .execute("DELETE FROM seeks WHERE id = $1", &[&id])
            .await?
            == 1)
    }

    async fn renew_seek(&self, id: SeekId, at: i64) -> Result<bool, StoreError> {
        Ok(self
            .client()
            .await?
            .execute("UPDATE seeks SET seen_at = $1 WHERE id = $2", &[&at, &id])
            .await?
            == 1)
    }

    async fn open_seeks(&self, fresh_after: i64) -> Result<Vec<Seek>, StoreError> {
        let sql = format!("SELECT {SEEK_COLUMNS} WHERE s.seen_at >= $1 ORDER BY s.id");
        self.client()
            .await?
            .query(&sql, &[&fresh_after])
            .await?
            .iter()
            .map(seek_row)
            .collect()
    }

    async fn simul_games(&self, simul: ChallengeId) -> Result<Vec<GameRow>, StoreError> {
        let sql = format!("SELECT {GAME_COLUMNS} WHERE g.simul_id = $1 ORDER BY g.id");
        self.client()
            .await?
            .query(&sql, &[&simul])
            .await?
            .iter()
            .map(game_row)
            .collect()
    }

    async fn append_events(&self, events: Vec<StoredEvent>) -> Result<(), StoreError> {
        let (tx, rx) = oneshot::channel();
        self.appends
            .send((events, tx))
            .map_err(|_| StoreError::Closed)?;
        rx.await.map_err(|_| StoreError::Closed)?
    }

    async fn events(&self, game: GameId, after: u64) -> Result<Vec<StoredEvent>, StoreError> {
        let after = i64::try_from(after).unwrap_or(i64::MAX);
        self.client()
            .await?
            .query(
                "SELECT version, at, body FROM game_events WHERE game_id = $1 AND version > $2 \
                 ORDER BY version",
                &[&game, &after],
            )
            .await?
            .iter()
            .map(|r| {
                Ok(StoredEvent {
                    game,
                    version: r.try_get::<_, i64>(0)?.unsigned_abs(),
                    at: r.try_get(1)?,
                    body: r.try_get(2)?,
                })
            })
            .collect()
    }

    async fn game(&self, id: GameId) -> Result<Option<GameRow>, StoreError> {
        game_by_id(&self.client().await?, id).await
    }

    async fn live_games(&self) -> Result<Vec<GameRow>, StoreError> {
        let sql = format!("SELECT {GAME_COLUMNS} WHERE g.status = 'live' ORDER BY g.id");
        self.client()
            .await?
            .query(&sql, &[])
            .await?
            .iter()
            .map(game_row)
            .collect()
    }

    async fn finish_game(&self, end: GameEnd) -> Result<bool, StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        let players = tx
            .query_opt(
                "UPDATE games SET status = $2, result = $3, winner = $4, ended_at = $5, \
                 ratings = $6 WHERE id = $1 AND status = 'live' RETURNING black_id, white_id",
                &[
                    &end.game,
                    &end.status.as_str(),
                    &end.result,
                    &color_word(end.winner),
                    &end.ended_at,
                    &end.ratings.as_ref().map(|r| r.summary.as_str()),
                ],
            )
            .await?;
        let Some(players) = players else {
            return Ok(false);
        };
        if let Some(update) = &end.ratings {
            let black: i64 = players.try_get(0)?;
            let white: i64 = players.try_get(1)?;
            for (user, r, standing) in [
                (black, update.black, update.black_standing),
                (white, update.white, update.white_standing),
            ] {
                tx.execute(
                    "UPDATE users SET rating = $2, deviation = $3, volatility = $4, \
                     rated_games = rated_games + 1, shown_rank = $5, rank_streak = $6 \
                     WHERE id = $1",
                    &[
                        &user,
                        &r.rating,
                        &r.deviation,
                        &r.volatility,
                        &standing.map(|s| s.shown.to_string()),
                        &standing.map_or(0, |s| s.streak),
                    ],
                )
                .await?;
            }
        }
        tx.commit().await?;
        Ok(true)
    }

    async fn games_of(
        &self,
        user: UserId,
        query: &ArchiveQuery,
    ) -> Result<Vec<GameRow>, StoreError> {
        let (condition, values) = archive_filter(user, query, |n| format!("${n}"));
        let sql = format!(
            "SELECT {GAME_COLUMNS} WHERE {condition} ORDER BY g.id DESC LIMIT {}",
            query.page_size()
        );
        let values: Vec<Box<dyn ToSql + Sync + Send>> = values
            .into_iter()
            .map(|v| -> Box<dyn ToSql + Sync + Send> {
                match v {
                    SqlValue::Int(i) => Box::new(i),
                    SqlValue::Text(t) => Box::new(t),
                }
            })
            .collect();
        let refs: Vec<&(dyn ToSql + Sync)> =
            values.iter().map(|v| &**v as &(dyn ToSql + Sync)).collect();
        self.client()
            .await?
            .query(&sql, &refs)
            .await?
            .iter()
            .map(game_row)
            .collect()
    }

    async fn heartbeat(&self, at: i64) -> Result<(), StoreError> {
        self.client()
            .await?
            .execute(
                "INSERT INTO heartbeat (id, at) VALUES (1, $1) \
                 ON CONFLICT (id) DO UPDATE SET at = excluded.at",
                &[&at],
            )
            .await?;
        Ok(())
    }

    async fn last_heartbeat(&self) -> Result<Option<i64>, StoreError> {
        Ok(self
            .client()
            .await?
            .query_opt("SELECT at FROM heartbeat WHERE id = 1", &[])
            .await?
            .map(|r| r.try_get(0))
            .transpose()?)
    }

    fn cluster(&self) -> Option<&dyn crate::cluster::Cluster> {
        Some(self)
    }
}
