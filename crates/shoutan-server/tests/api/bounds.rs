//! What one account can start: clocks within live-game bounds (at
//! challenge, computer game and event creation), and a number of live
//! games at once.

use serde_json::json;
use shoutan_server::ServerConfig;

use crate::common::{Backend, TestServer, config, games_loaded};

async fn clocks_beyond_a_live_game_are_refused_with_their_codes(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let ke = server.player("ke", "1d").await;
    for (clock, code) in [
        ("99999999999999 min", "main_time_too_long"),
        ("1h + 999999999×30s byo-yomi", "too_many_periods"),
        ("1h + 5×7200s byo-yomi", "period_too_long"),
        ("10 min + 2h Fischer", "increment_too_long"),
        ("1h + 500 moves / 10 min", "too_many_moves_per_period"),
    ] {
        let challenge = ke
            .post("/api/challenges", json!({"time_control": clock}))
            .await;
        assert_eq!(
            (challenge.status, challenge.json["error"].as_str()),
            (400, Some(code)),
            "{clock}: {}",
            challenge.body
        );
        let computer = ke
            .post(
                "/api/computer/games",
                json!({"level": 1, "size": 9, "time_control": clock}),
            )
            .await;
        assert_eq!(computer.json["error"], code, "{clock}: {}", computer.body);
        let event = ke
            .post(
                "/api/events",
                json!({"name": "Cup", "system": {"kind": "swiss"}, "rounds": 3,
                       "time_control": clock}),
            )
            .await;
        assert_eq!(event.json["error"], code, "{clock}: {}", event.body);
    }
    // Nothing was made.
    assert_eq!(ke.get("/api/challenges").await.json, json!([]));
    assert_eq!(ke.get("/api/games").await.json, json!([]));
    // At the bounds, accepted.
    let bound = ke
        .post(
            "/api/challenges",
            json!({"time_control": "24h + 30×3600s byo-yomi"}),
        )
        .await;
    assert_eq!(bound.status, 201, "{}", bound.body);
}

async fn live_games_per_player_are_bounded(backend: Backend) {
    let two = ServerConfig {
        max_live_games: 2,
        ..config()
    };
    let Some(server) = TestServer::new(backend, two).await else {
        return;
    };
    let ke = server.player("ke", "1d").await;
    let lee = server.player("lee", "1d").await;
    let zhou = server.player("zhou", "1d").await;
    let wu = server.player("wu", "1d").await;
    let play = |challenger: &crate::common::Client, acceptor: &crate::common::Client| {
        let (challenger, acceptor) = (challenger.clone(), acceptor.clone());
        async move {
            let made = challenger
                .post("/api/challenges", json!({"size": 9, "color": "black"}))
                .await;
            if made.status != 201 {
                return made;
            }
            acceptor
                .post(
                    &format!("/api/challenges/{}/accept", made.json["id"]),
                    json!({}),
                )
                .await
        }
    };
    let first = play(&ke, &lee).await;
    assert_eq!(first.status, 201, "{}", first.body);
    assert_eq!(play(&zhou, &ke).await.status, 201);
    // Ke has two: he can neither challenge, nor accept, nor play the
    // computer; the others can still play each other.
    let refused = play(&ke, &zhou).await;
    assert_eq!(
        (refused.status, refused.json["error"].as_str()),
        (409, Some("too_many_games")),
        "{}",
        refused.body
    );
    let refused = play(&lee, &ke).await;
    assert_eq!(refused.json["error"], "too_many_games", "{}", refused.body);
    let computer = ke
        .post("/api/computer/games", json!({"level": 1, "size": 9}))
        .await;
    assert_eq!(computer.json["error"], "too_many_games");
    assert_eq!(play(&lee, &zhou).await.status, 201);
    // One game over, one more may start.
    let game = first.json["id"].as_i64().unwrap();
    let mut ws = ke.ws(game, None).await;
    ws.ok(json!({"type": "resign"})).await;
    let mut started = false;
    for _ in 0..50 {
        if play(&ke, &wu).await.status == 201 {
            started = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert!(started, "a finished game still counted");
}

/// A finished game nobody is in leaves memory at once, not after the
/// post-game lingering time (ten minutes: a round of an event of 1,000
/// boards would stay behind it), and its log brings it back for the next
/// visitor.
async fn a_finished_game_nobody_is_in_leaves_memory(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let ke = server.player("ke", "1d").await;
    let lee = server.player("lee", "1d").await;
    let game = ke.game_with(&lee, json!({})).await;
    let mut black = ke.ws(game, None).await;
    let white = lee.ws(game, None).await;
    black.ok(json!({"type": "resign"})).await;
    assert_eq!(games_loaded(&ke).await, "1", "someone is still in it");
    drop((black, white));
    let mut loaded = String::new();
    for _ in 0..100 {
        loaded = games_loaded(&ke).await;
        if loaded == "0" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(loaded, "0", "a finished game left empty stays in memory");
    let again = lee.ws(game, None).await;
    assert_eq!(
        again.seen[0]["game"]["state"]["result"]["winner"], "white",
        "{}",
        again.seen[0]
    );
    assert_eq!(games_loaded(&ke).await, "1");
}

crate::for_both_backends!(
    clocks_beyond_a_live_game_are_refused_with_their_codes,
    live_games_per_player_are_bounded,
    a_finished_game_nobody_is_in_leaves_memory,
);
