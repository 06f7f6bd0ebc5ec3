//! Counting under a budget: the dead-stone proposal arrives from the
//! estimate pool after counting opens, a game gets a bounded number of
//! estimates however often it loops through pass, pass, dispute, and a
//! count nobody attends to ends as marked.

use std::time::Duration;

use serde_json::json;
use shoutan_server::ServerConfig;
use shoutan_server::live::estimates::ESTIMATES_PER_GAME;

use crate::common::{Backend, TestServer, config, play_moves};

/// The proposals the log holds for `id`.
async fn proposals(server: &TestServer, id: i64) -> usize {
    server
        .store
        .events(id, 0)
        .await
        .unwrap()
        .iter()
        .filter(|e| e.body.contains(r#""type":"counting""#))
        .count()
}

async fn estimates_per_game_are_bounded(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let (black, white, id) = server.game(json!({})).await;
    let mut b = black.ws(id, None).await;
    let mut w = white.ws(id, None).await;
    play_moves(&mut b, &mut w, &["E5", "C3"]).await;
    // Pass, pass (counting opens), the proposal, a dispute; white, who
    // disputed, moves first: pass, pass again, and so on.
    let loops = ESTIMATES_PER_GAME as usize + 3;
    b.ok(json!({"type": "pass"})).await;
    w.ok(json!({"type": "pass"})).await;
    for i in 1..=loops {
        if i <= ESTIMATES_PER_GAME as usize {
            b.event("counting").await;
        }
        w.ok(json!({"type": "dispute"})).await;
        if i < loops {
            w.ok(json!({"type": "pass"})).await;
            b.ok(json!({"type": "pass"})).await;
        }
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        proposals(&server, id).await,
        ESTIMATES_PER_GAME as usize,
        "{loops} countings, {ESTIMATES_PER_GAME} proposals"
    );
}

async fn a_count_left_alone_ends_as_marked(backend: Backend) {
    let config = ServerConfig {
        counting_limit: Duration::from_secs(2),
        ..config()
    };
    let Some(server) = TestServer::new(backend, config).await else {
        return;
    };
    let (black, white, id) = server.game(json!({"rated": false})).await;
    let mut b = black.ws(id, None).await;
    let mut w = white.ws(id, None).await;
    play_moves(&mut b, &mut w, &["E5", "C3", "pass", "pass"]).await;
    b.ok(json!({"type": "accept"})).await;
    // Both leave; nobody accepts for white.
    b.close().await;
    w.close().await;
    let mut finished = None;
    for _ in 0..50 {
        let game = black.game(id).await;
        if game["state"]["status"] == "finished" {
            finished = Some(game);
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let game = finished.expect("the count closed by itself");
    let last = server.store.events(id, 0).await.unwrap();
    assert!(
        last.last().unwrap().body.contains("counting_expired"),
        "{}",
        last.last().unwrap().body
    );
    // E5 against C3 on 9×9 with komi 7.5: counted as marked.
    assert!(game["state"]["result"]["international"].is_string());
}

crate::for_both_backends!(
    estimates_per_game_are_bounded,
    a_count_left_alone_ends_as_marked
);
