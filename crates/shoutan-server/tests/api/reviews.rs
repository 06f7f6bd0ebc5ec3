//! AI reviews of finished games: asked for with one click, made on the
//! review pool, stored once with the game, made after a restart when the
//! server stopped first; live games keep their pace while one is made.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::{Backend, Client, TestServer, Ws, config, play_moves};

/// Stones that capture nothing: black fills rows 2, 4, 6 and 8 of a 19×19
/// board from the left, white rows 18, 16, 14 and 12 (up to 152 moves).
fn quiet_moves(n: usize) -> Vec<String> {
    let columns = "ABCDEFGHJKLMNOPQRST";
    let row_of = |stone: usize, rows: [usize; 4]| {
        let col = &columns[stone % 19..stone % 19 + 1];
        format!("{col}{}", rows[stone / 19])
    };
    (0..n)
        .map(|i| {
            if i % 2 == 0 {
                row_of(i / 2, [2, 4, 6, 8])
            } else {
                row_of(i / 2, [18, 16, 14, 12])
            }
        })
        .collect()
}

/// A finished 19×19 game of `moves` moves (white resigns).
pub(crate) async fn finished_game(server: &TestServer, moves: usize) -> (Client, Client, i64) {
    let (black, white, id) = server.game(json!({"size": 19, "rated": false})).await;
    let mut b = black.ws(id, None).await;
    let mut w = white.ws(id, None).await;
    let points = quiet_moves(moves);
    let points: Vec<&str> = points.iter().map(String::as_str).collect();
    play_moves(&mut b, &mut w, &points).await;
    w.ok(json!({"type": "resign"})).await;
    (black, white, id)
}

/// Polls the game's reviews until the one at `level` is done.
async fn wait_for_review(client: &Client, id: i64, level: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(300);
    loop {
        let listed = client.get(&format!("/api/games/{id}/reviews")).await;
        assert_eq!(listed.status, 200, "{}", listed.body);
        if let Some(review) = listed.json["reviews"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["level"] == level && r["status"] == "done")
        {
            return review.clone();
        }
        assert!(Instant::now() < deadline, "no review: {}", listed.body);
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

async fn a_review_is_asked_once_and_stored_once(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let (black, white, id) = server.game(json!({"size": 9, "rated": false})).await;
    let path = format!("/api/games/{id}/reviews");
    let refused = black.post(&path, json!({"level": "quick"})).await;
    assert_eq!(
        (refused.status, refused.json["error"].as_str()),
        (409, Some("game_live"))
    );
    let mut b = black.ws(id, None).await;
    let mut w = white.ws(id, None).await;
    play_moves(&mut b, &mut w, &["E5", "C3", "G7", "C7", "G3"]).await;
    w.ok(json!({"type": "resign"})).await;

    let bad = black.post(&path, json!({"level": "thorough"})).await;
    assert_eq!(
        (bad.status, bad.json["error"].as_str()),
        (400, Some("bad_level"))
    );
    let anonymous = Client::anonymous(&server);
    let unknown = anonymous.post(&path, json!({"level": "quick"})).await;
    assert_eq!(unknown.status, 401, "{}", unknown.body);
    let levels = anonymous.get(&path).await;
    assert_eq!(levels.json["levels"][1]["level"], "deep");
    assert!(
        levels.json["levels"][1]["cost"]
            .as_str()
            .unwrap()
            .contains("8×")
    );

    let asked = black.post(&path, json!({"level": "quick"})).await;
    assert_eq!(asked.status, 202, "{}", asked.body);
    assert_eq!(asked.json["status"], "queued");
    let again = white.post(&path, json!({"level": "quick"})).await;
    assert!(matches!(again.status, 200 | 202), "{}", again.body);

    let review = wait_for_review(&anonymous, id, "quick").await;
    let body = &review["review"];
    assert_eq!(body["positions"].as_array().unwrap().len(), 6);
    assert_eq!(body["moves"].as_array().unwrap().len(), 5);
    assert_eq!(body["moves"][0]["mv"], "E5");
    assert_eq!(body["visits"], 64);
    for p in body["positions"].as_array().unwrap() {
        let w = p["black_winrate"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&w), "{p}");
        assert!(p["best"].is_string(), "{p}");
    }
    // Asked once more after it is made: the stored review, at once.
    let stored = white.post(&path, json!({"level": "quick"})).await;
    assert_eq!(stored.status, 200, "{}", stored.body);
    assert_eq!(stored.json["review"], review["review"]);
    let listed = anonymous.get(&path).await;
    assert_eq!(listed.json["reviews"].as_array().unwrap().len(), 1);
    let rows = server.store.reviews(id).await.unwrap();
    assert_eq!(rows.len(), 1, "stored once");
    assert_eq!(
        rows[0].requested_by,
        black.game(id).await["black"]["id"].as_i64().unwrap()
    );
}

async fn each_account_has_a_budget_of_reviews(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let (black, _white, first) = finished_game(&server, 40).await;
    let (_, _, second) = finished_game(&server, 40).await;
    let (_, _, third) = finished_game(&server, 40).await;
    for id in [first, second] {
        let asked = black
            .post(
                &format!("/api/games/{id}/reviews"),
                json!({"level": "deep"}),
            )
            .await;
        assert_eq!(asked.status, 202, "{}", asked.body);
    }
    let refused = black
        .post(
            &format!("/api/games/{third}/reviews"),
            json!({"level": "deep"}),
        )
        .await;
    assert_eq!(
        (refused.status, refused.json["error"].as_str()),
        (429, Some("review_budget")),
        "{}",
        refused.body
    );
    assert!(
        server.store.reviews(third).await.unwrap().is_empty(),
        "nothing stored"
    );
}

async fn a_review_is_made_after_a_restart(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let (black, _white, id) = finished_game(&server, 20).await;
    let path = format!("/api/games/{id}/reviews");
    let asked = black.post(&path, json!({"level": "quick"})).await;
    assert_eq!(asked.status, 202, "{}", asked.body);
    let before = black.get(&path).await;
    assert_eq!(
        before.json["reviews"][0]["status"], "queued",
        "{}",
        before.body
    );

    let server = server.restart(Duration::from_millis(100), config()).await;
    let mut black = black;
    black.base = server.base.clone();
    let review = wait_for_review(&black, id, "quick").await;
    assert_eq!(review["review"]["positions"].as_array().unwrap().len(), 21);
    assert_eq!(review["review"]["visits"], 64);
}

/// Round trips of `n` moves in a live game, in milliseconds, sorted.
async fn move_latencies(b: &mut Ws, w: &mut Ws, moves: &[String]) -> Vec<f64> {
    let mut times = Vec::with_capacity(moves.len());
    for (i, point) in moves.iter().enumerate() {
        let start = Instant::now();
        if i % 2 == 0 {
            b.play(point).await;
        } else {
            w.play(point).await;
        }
        times.push(start.elapsed().as_secs_f64() * 1000.0);
    }
    times.sort_by(f64::total_cmp);
    times
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let at = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[at.min(sorted.len() - 1)]
}

/// Not a timing assertion: the figures are printed for the report. The
/// test checks that a review is running for the whole measurement.
async fn live_moves_keep_their_pace_during_a_review(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let (black, _white, reviewed) = finished_game(&server, 80).await;
    let moves = quiet_moves(120);
    let (b1, w1, quiet) = server.game(json!({"size": 19, "rated": false})).await;
    let (mut b, mut w) = (b1.ws(quiet, None).await, w1.ws(quiet, None).await);
    let before = move_latencies(&mut b, &mut w, &moves[..60]).await;

    let path = format!("/api/games/{reviewed}/reviews");
    let asked = black.post(&path, json!({"level": "deep"})).await;
    assert_eq!(asked.status, 202, "{}", asked.body);
    let during = move_latencies(&mut b, &mut w, &moves[60..]).await;
    let still = black.get(&path).await;
    assert_eq!(
        still.json["reviews"][0]["status"], "queued",
        "the review ran during the whole measurement"
    );
    eprintln!(
        "move round trip ({backend:?}): without a review p50 {:.1} ms p99 {:.1} ms; \
         during a deep review p50 {:.1} ms p99 {:.1} ms ({} moves each)",
        percentile(&before, 0.5),
        percentile(&before, 0.99),
        percentile(&during, 0.5),
        percentile(&during, 0.99),
        during.len()
    );
}

crate::for_both_backends!(
    a_review_is_asked_once_and_stored_once,
    each_account_has_a_budget_of_reviews,
    a_review_is_made_after_a_restart,
    live_moves_keep_their_pace_during_a_review,
);
