//! The [`Cluster`] of the PostgreSQL store: instances, game ownership, the
//! fence on appends, and `LISTEN/NOTIFY`.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use futures_util::StreamExt;
use tokio::sync::mpsc;
use tokio_postgres::{AsyncMessage, NoTls};

use super::PostgresStore;
use crate::cluster::{BusMessage, Claim, Cluster, LEASE_MS};
use crate::{GameId, StoreError};

/// Now by the database's clock, in ms.
const DB_NOW: &str = "(extract(epoch from clock_timestamp()) * 1000)::bigint";

/// This process as a member of the cluster: what its appends are fenced by.
#[derive(Clone, Debug)]
pub(super) struct Fence {
    pub(super) instance: String,
    pub(super) token: String,
}

/// The fence, set once the process has joined.
pub(super) type FenceCell = Arc<OnceLock<Fence>>;

/// A token that tells this process from an earlier one of the same id.
fn new_token() -> String {
    format!("{:032x}", fastrand::u128(..))
}

impl PostgresStore {
    fn fence(&self) -> Result<&Fence, StoreError> {
        self.fence
            .get()
            .ok_or_else(|| StoreError::Corrupt("the instance has not joined the cluster".into()))
    }
}

#[async_trait::async_trait]
impl Cluster for PostgresStore {
    async fn join(&self, instance: &str, started_at: i64) -> Result<Option<i64>, StoreError> {
        let fence = Fence {
            instance: instance.to_owned(),
            token: new_token(),
        };
        let client = self.client().await?;
        let previous: Option<i64> = client
            .query_opt("SELECT seen_at FROM instances WHERE id = $1", &[&instance])
            .await?
            .map(|r| r.try_get(0))
            .transpose()?;
        client
            .execute(
                &format!(
                    "INSERT INTO instances (id, token, started_at, heartbeat_at, seen_at) \
                     VALUES ($1, $2, $3, {DB_NOW}, $3) \
                     ON CONFLICT (id) DO UPDATE SET token = excluded.token, \
                     started_at = excluded.started_at, heartbeat_at = excluded.heartbeat_at, \
                     seen_at = excluded.seen_at"
                ),
                &[&fence.instance, &fence.token, &started_at],
            )
            .await?;
        self.fence
            .set(fence)
            .map_err(|_| StoreError::Corrupt("the instance joined twice".into()))?;
        Ok(previous)
    }

    async fn beat(&self, seen_at: i64) -> Result<(), StoreError> {
        let fence = self.fence()?;
        let updated = self
            .client()
            .await?
            .execute(
                &format!(
                    "UPDATE instances SET heartbeat_at = {DB_NOW}, seen_at = $3 \
                     WHERE id = $1 AND token = $2"
                ),
                &[&fence.instance, &fence.token, &seen_at],
            )
            .await?;
        if updated == 0 {
            return Err(StoreError::Superseded(fence.instance.clone()));
        }
        Ok(())
    }

    async fn claim(&self, game: GameId) -> Result<Claim, StoreError> {
        let fence = self.fence()?.clone();
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        let inserted = tx
            .execute(
                &format!(
                    "INSERT INTO game_owners (game_id, instance, since) VALUES ($1, $2, {DB_NOW}) \
                     ON CONFLICT (game_id) DO NOTHING"
                ),
                &[&game, &fence.instance],
            )
            .await?;
        if inserted == 1 {
            tx.commit().await?;
            return Ok(Claim::Owned { previous: None });
        }
        let row = tx
            .query_one(
                &format!(
                    "SELECT o.instance, i.seen_at, \
                     coalesce(i.heartbeat_at > {DB_NOW} - $2, false) \
                     FROM game_owners o LEFT JOIN instances i ON i.id = o.instance \
                     WHERE o.game_id = $1 FOR UPDATE OF o"
                ),
                &[&game, &LEASE_MS],
            )
            .await?;
        let owner: String = row.try_get(0)?;
        let seen_at: Option<i64> = row.try_get(1)?;
        let alive: bool = row.try_get(2)?;
        if owner != fence.instance && alive {
            return Ok(Claim::Elsewhere(owner));
        }
        if owner != fence.instance {
            tx.execute(
                &format!(
                    "UPDATE game_owners SET instance = $2, since = {DB_NOW} WHERE game_id = $1"
                ),
                &[&game, &fence.instance],
            )
            .await?;
        }
        tx.commit().await?;
        Ok(Claim::Owned {
            previous: seen_at.map(|seen| (owner, seen)),
        })
    }

    async fn owner(&self, game: GameId) -> Result<Option<String>, StoreError> {
        Ok(self
            .client()
            .await?
            .query_opt(
                &format!(
                    "SELECT o.instance FROM game_owners o JOIN instances i ON i.id = o.instance \
                     WHERE o.game_id = $1 AND i.heartbeat_at > {DB_NOW} - $2"
                ),
                &[&game, &LEASE_MS],
            )
            .await?
            .map(|r| r.try_get(0))
            .transpose()?)
    }

    async fn orphans(&self, limit: i64) -> Result<Vec<GameId>, StoreError> {
        let rows = self
            .client()
            .await?
            .query(
                &format!(
                    "SELECT o.game_id FROM game_owners o JOIN games g ON g.id = o.game_id \
                     LEFT JOIN instances i ON i.id = o.instance \
                     WHERE g.status = 'live' \
                     AND coalesce(i.heartbeat_at <= {DB_NOW} - $1, true) \
                     ORDER BY o.game_id LIMIT $2"
                ),
                &[&LEASE_MS, &limit],
            )
            .await?;
        rows.iter().map(|r| Ok(r.try_get(0)?)).collect()
    }

    async fn owned(&self) -> Result<Vec<GameId>, StoreError> {
        let fence = self.fence()?;
        let rows = self
            .client()
            .await?
            .query(
                "SELECT o.game_id FROM game_owners o JOIN games g ON g.id = o.game_id \
                 WHERE o.instance = $1 AND g.status = 'live' ORDER BY o.game_id",
                &[&fence.instance],
            )
            .await?;
        rows.iter().map(|r| Ok(r.try_get(0)?)).collect()
    }

    async fn instances(&self) -> Result<Vec<String>, StoreError> {
        let rows = self
            .client()
            .await?
            .query(
                &format!("SELECT id FROM instances WHERE heartbeat_at > {DB_NOW} - $1 ORDER BY id"),
                &[&LEASE_MS],
            )
            .await?;
        rows.iter().map(|r| Ok(r.try_get(0)?)).collect()
    }

    async fn publish(&self, channel: &str, payload: &str) -> Result<(), StoreError> {
        self.client()
            .await?
            .execute("SELECT pg_notify($1, $2)", &[&channel, &payload])
            .await?;
        Ok(())
    }

    async fn listen(
        &self,
        channels: Vec<String>,
    ) -> Result<mpsc::UnboundedReceiver<BusMessage>, StoreError> {
        if let Some(bad) = channels.iter().find(|c| !valid_channel(c)) {
            return Err(StoreError::Corrupt(format!("channel name {bad:?}")));
        }
        let (tx, rx) = mpsc::unbounded_channel();
        // The first connection is made here, so that a bad URL fails now.
        let first = listening(&self.bus, &channels).await?;
        tokio::spawn(keep_listening(self.bus.clone(), channels, first, tx));
        Ok(rx)
    }
}

/// Channel names are identifiers: lower-case letters, digits and `_`.
fn valid_channel(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 63
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

type Listening = (
    tokio_postgres::Client,
    mpsc::UnboundedReceiver<Result<AsyncMessage, tokio_postgres::Error>>,
);

/// A connection of its own that listens on `channels`.
async fn listening(
    config: &tokio_postgres::Config,
    channels: &[String],
) -> Result<Listening, StoreError> {
    let (client, mut connection) = config.connect(NoTls).await?;
    let (tx, rx) = mpsc::unbounded_channel();
    let mut messages = futures_util::stream::poll_fn(move |cx| connection.poll_message(cx));
    tokio::spawn(async move {
        while let Some(message) = messages.next().await {
            let failed = message.is_err();
            if tx.send(message).is_err() || failed {
                break;
            }
        }
    });
    let listen: String = channels.iter().map(|c| format!("LISTEN {c};")).collect();
    client.batch_execute(&listen).await?;
    Ok((client, rx))
}

/// Passes notifications on; when the connection is lost, makes it again
/// (once a second) and says so.
async fn keep_listening(
    config: tokio_postgres::Config,
    channels: Vec<String>,
    first: Listening,
    tx: mpsc::UnboundedSender<BusMessage>,
) {
    let mut current = Some(first);
    loop {
        let (client, mut messages) = match current.take() {
            Some(listening) => listening,
            None => match listening(&config, &channels).await {
                Ok(listening) => {
                    if tx.send(BusMessage::Reconnected).is_err() {
                        return;
                    }
                    listening
                }
                Err(e) => {
                    tracing::warn!("the bus connection cannot be made again: {e}");
                    tokio::time::sleep(Duration::from_secs(1)).await;
                    continue;
                }
            },
        };
        while let Some(message) = messages.recv().await {
            match message {
                Ok(AsyncMessage::Notification(n)) => {
                    let message = BusMessage::Message {
                        channel: n.channel().to_owned(),
                        payload: n.payload().to_owned(),
                    };
                    if tx.send(message).is_err() {
                        return;
                    }
                }
                Ok(_) => {}
                Err(e) => {
                    tracing::warn!("the bus connection was lost: {e}");
                    break;
                }
            }
        }
        drop(client);
        if tx.is_closed() {
            return;
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}
