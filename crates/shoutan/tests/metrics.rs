//! `/metrics` as Prometheus scrapes it from `shoutan serve`: the moves
//! played and their latency, a refusal by its code, the open WebSockets,
//! the games in memory, the password pool's jobs and the events' standings
//! computed; and nothing for an address the operator did not allow.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed call is a test failure

mod common;

use common::{Player, Server, a_game_played};
use serde_json::json;

async fn scrape(base: &str) -> (u16, String) {
    let response = reqwest::get(format!("{base}/metrics")).await.unwrap();
    let status = response.status().as_u16();
    (status, response.text().await.unwrap())
}

/// The value of the sample `name` (with its labels, as printed).
fn sample(text: &str, name: &str) -> Option<f64> {
    text.lines()
        .find_map(|line| line.strip_prefix(name)?.strip_prefix(' '))
        .map(|value| value.trim().parse().unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_scrape_counts_moves_refusals_sockets_and_pools() {
    let data = tempfile::tempdir().unwrap();
    let server = Server::start(&["--data", data.path().to_str().unwrap()]);
    let (_, _, _, [b, mut w]) = a_game_played(&server.base, &["E5", "C3", "pass"]).await;
    let refused = w
        .command(json!({"type": "move", "point": "E5"}))
        .await
        .unwrap_err();
    assert_eq!(refused["code"], "illegal_move", "{refused}");

    let (status, text) = scrape(&server.base).await;
    assert_eq!(status, 200);
    assert_eq!(sample(&text, "shoutan_moves_total"), Some(3.0), "{text}");
    assert_eq!(
        sample(&text, "shoutan_move_seconds_count"),
        Some(3.0),
        "{text}"
    );
    assert_eq!(
        sample(&text, "shoutan_move_seconds_bucket{le=\"+Inf\"}"),
        Some(3.0),
        "a histogram with buckets: {text}"
    );
    assert!(
        sample(&text, "shoutan_append_seconds_count").is_some_and(|n| n >= 3.0),
        "{text}"
    );
    assert_eq!(
        sample(&text, "shoutan_refusals_total{code=\"illegal_move\"}"),
        Some(1.0),
        "{text}"
    );
    assert_eq!(
        sample(&text, "shoutan_websockets{kind=\"game\"}"),
        Some(2.0),
        "{text}"
    );
    assert_eq!(sample(&text, "shoutan_games_loaded"), Some(1.0), "{text}");
    assert_eq!(sample(&text, "shoutan_games_live"), Some(1.0), "{text}");
    assert_eq!(
        sample(&text, "shoutan_pool_jobs{pool=\"password\"}"),
        Some(0.0),
        "the registrations' hashes came and went: {text}"
    );

    drop(w);
    drop(b);
    let mut closed = None;
    for _ in 0..50 {
        let (_, text) = scrape(&server.base).await;
        closed = sample(&text, "shoutan_websockets{kind=\"game\"}");
        if closed == Some(0.0) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(closed, Some(0.0), "closed sockets are no longer counted");
}

/// An event's standings are computed once per change a fetch asks for,
/// however many fetch them, and each computation is counted.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_standings_computations_are_counted() {
    let data = tempfile::tempdir().unwrap();
    let server = Server::start(&["--data", data.path().to_str().unwrap()]);
    let organiser = Player::register(&server.base, "olga").await;
    let event = organiser
        .post(
            "/api/events",
            json!({"name": "Counted", "system": {"kind": "swiss"}, "rounds": 3}),
        )
        .await;
    let standings = format!("/api/events/{}/standings/current", event["id"]);
    let computed = async || {
        let (_, text) = scrape(&server.base).await;
        sample(&text, "shoutan_event_standings_seconds_count")
    };
    for _ in 0..3 {
        assert_eq!(organiser.send("GET", &standings, None).await.0, 200);
    }
    assert_eq!(computed().await, Some(1.0), "three fetches, one change");
    let players = format!("/api/events/{}/players", event["id"]);
    organiser.post(&players, json!({"name": "ann"})).await;
    for _ in 0..3 {
        assert_eq!(organiser.send("GET", &standings, None).await.0, 200);
    }
    assert_eq!(computed().await, Some(2.0), "one more after a registration");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_address_not_allowed_finds_no_page() {
    let data = tempfile::tempdir().unwrap();
    let server = Server::start(&[
        "--data",
        data.path().to_str().unwrap(),
        "--metrics-from",
        "10.0.0.0/8",
    ]);
    let (status, text) = scrape(&server.base).await;
    assert_eq!(status, 404, "{text}");
    assert!(!text.contains("shoutan_"), "{text}");
}
