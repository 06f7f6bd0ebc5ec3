//! Whether the server can do its work: `GET /api/health` answers 503 when
//! the store does not take writes (a full disk, a lost database), which a
//! load balancer or monitor acts on. The check is a real write — the
//! server's "alive at" record — made at most once a second however often
//! the health is asked, and shared by the askers meanwhile.

use std::time::{Duration, Instant};

use shoutan_store::Store;
use tokio::sync::Mutex;

/// How long a check's answer stands.
const FRESH: Duration = Duration::from_secs(1);
/// How long a check waits for the store.
const PATIENCE: Duration = Duration::from_secs(5);

/// The last write check and its answer.
#[derive(Default)]
pub struct StorageProbe {
    last: Mutex<Option<(Instant, Result<(), String>)>>,
}

impl StorageProbe {
    /// `Ok` if the store took a write within the last second (writing one
    /// now if none was tried), else what failed.
    pub async fn check(&self, store: &dyn Store) -> Result<(), String> {
        let mut last = self.last.lock().await;
        if let Some((at, outcome)) = &*last
            && at.elapsed() < FRESH
        {
            return outcome.clone();
        }
        let outcome = match tokio::time::timeout(
            PATIENCE,
            store.heartbeat(crate::time::now_millis()),
        )
        .await
        {
            Ok(written) => written.map_err(|e| with_causes(&e)),
            Err(_) => Err(format!(
                "no answer to a write within {} s",
                PATIENCE.as_secs()
            )),
        };
        *last = Some((Instant::now(), outcome.clone()));
        outcome
    }
}

/// An error and what caused it, on one line (a PostgreSQL error says
/// "db error" and keeps the server's message in its cause).
fn with_causes(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        text.push_str(": ");
        text.push_str(&c.to_string());
        cause = c.source();
    }
    text
}
