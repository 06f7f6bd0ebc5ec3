//! `GET /metrics`: the server's figures in Prometheus' text format, for an
//! operator's Prometheus to scrape, answered only to the addresses the
//! operator allows (`ServerConfig::metrics_from`, loopback by default).
//!
//! Counters and histograms are recorded where things happen — a move, an
//! append to a game's log, a refusal, a job admitted to or refused by a
//! pool — through the `metrics` crate's process-wide recorder; what is open
//! now (games in memory, WebSockets) is read when scraped.
//!
//! | metric | kind | what |
//! |---|---|---|
//! | `shoutan_moves_total` | counter | moves and passes played |
//! | `shoutan_move_seconds` | histogram | a move command, received to acknowledged |
//! | `shoutan_append_seconds` | histogram | an event's append to its game's log |
//! | `shoutan_event_standings_seconds` | histogram | an event's standings computed (both views, serialised and compressed): once per change a fetch asks for, however many fetch |
//! | `shoutan_refusals_total{code}` | counter | answers with an error code (HTTP and WebSocket) |
//! | `shoutan_unwritable_frames_total{socket}` | counter | frames that could not be written as JSON (`game`, `lobby`), logged and never sent; should stay 0 |
//! | `shoutan_pool_jobs{pool}` | gauge | jobs running or waiting in a pool (`password`, `estimate`, `judgement`, `review`, and `computer`: the computer players' searches on the network) |
//! | `shoutan_pool_refused_total{pool}` | counter | jobs refused by a full pool |
//! | `shoutan_pool_waiting{pool}` | gauge | password checks waiting for their turn |
//! | `shoutan_games_loaded` | gauge | games in memory |
//! | `shoutan_games_live` | gauge | games being played (on every instance) |
//! | `shoutan_websockets{kind}` | gauge | open WebSockets of games and of the lobby |

use std::sync::OnceLock;

use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

/// Upper bounds of the latency histograms' buckets, in seconds: the 50 ms
/// a move aims at sits between two of them.
const BUCKETS: [f64; 12] = [
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0,
];

/// The process's recorder, installed by the first server started (`None`
/// if something else installed a recorder first).
pub fn recorder() -> Option<&'static PrometheusHandle> {
    static HANDLE: OnceLock<Option<PrometheusHandle>> = OnceLock::new();
    HANDLE
        .get_or_init(|| {
            PrometheusBuilder::new()
                .set_buckets_for_metric(Matcher::Suffix("_seconds".into()), &BUCKETS)
                .and_then(PrometheusBuilder::install_recorder)
                .map_err(|e| tracing::warn!("no metrics: {e}"))
                .ok()
        })
        .as_ref()
}

/// The text of a scrape: the recorded figures, with the gauges of what is
/// open now set first.
pub fn render(games_loaded: usize, games_live: usize) -> String {
    let Some(handle) = recorder() else {
        return String::new();
    };
    metrics::gauge!("shoutan_games_loaded").set(games_loaded as f64);
    metrics::gauge!("shoutan_games_live").set(games_live as f64);
    handle.run_upkeep();
    handle.render()
}

/// A job of a pool that is not a [`crate::blocking::BlockingPool`] (the
/// computer players' searches), counted while it waits and runs.
pub struct PoolJob(&'static str);

impl PoolJob {
    /// Counts a job of pool `name`.
    pub fn start(name: &'static str) -> PoolJob {
        metrics::gauge!("shoutan_pool_jobs", "pool" => name).increment(1.0);
        PoolJob(name)
    }
}

impl Drop for PoolJob {
    fn drop(&mut self) {
        metrics::gauge!("shoutan_pool_jobs", "pool" => self.0).decrement(1.0);
    }
}

/// An open WebSocket, counted from its upgrade until it is dropped.
pub struct OpenSocket(&'static str);

impl OpenSocket {
    /// Counts a socket of `kind` (`game`, `lobby`).
    pub fn open(kind: &'static str) -> OpenSocket {
        metrics::gauge!("shoutan_websockets", "kind" => kind).increment(1.0);
        OpenSocket(kind)
    }
}

impl Drop for OpenSocket {
    fn drop(&mut self) {
        metrics::gauge!("shoutan_websockets", "kind" => self.0).decrement(1.0);
    }
}
