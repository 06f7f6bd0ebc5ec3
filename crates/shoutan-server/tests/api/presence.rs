//! Who is there: spectators (counted, read-only, with their own chat),
//! players' chat, and abandonment — a win claimed after the opponent has
//! been gone long enough, or a cancellation before both have moved.

use std::time::Duration;

use serde_json::json;

use shoutan_server::ServerConfig;

use crate::common::{Backend, Client, TestServer, config, play_moves};

async fn spectators_and_chat(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let (black, white, id) = server.game(json!({})).await;
    let mut b = black.ws(id, None).await;
    let mut w = white.ws(id, None).await;
    let fan = server.player("fan", "10k").await;
    let mut s = fan.ws(id, None).await;
    let mut anon = Client::anonymous(&server).ws(id, None).await;
    assert_eq!(anon.seen[0]["you"], "spectator");
    // The players see two spectators.
    loop {
        let presence = b.next_of("presence").await;
        if presence["spectators"] == 2 {
            assert_eq!(presence["online"], json!({"black": true, "white": true}));
            break;
        }
    }
    // Players' chat reaches everyone.
    w.ok(json!({"type": "chat", "text": "good luck 祝好运"}))
        .await;
    let line = anon.event("chat").await;
    assert_eq!(line["event"]["text"], "good luck 祝好运");
    assert_eq!(line["event"]["channel"], "players");
    // Spectators' chat is hidden from the players during the game.
    s.ok(json!({"type": "chat", "text": "black is winning"}))
        .await;
    let seen_by_spectator = anon.event("chat").await;
    assert_eq!(seen_by_spectator["event"]["text"], "black is winning");
    let seen_by_player = b.next_of("event").await;
    let seen_by_player = if seen_by_player["event"]["type"] == "chat" {
        b.next_of("event").await
    } else {
        seen_by_player
    };
    assert_eq!(seen_by_player["event"], json!({"type": "hidden"}));
    assert_eq!(
        seen_by_player["v"], seen_by_spectator["v"],
        "no gap in versions"
    );
    let as_player = black.game(id).await;
    assert_eq!(as_player["chat"].as_array().unwrap().len(), 1);
    let as_spectator = fan.game(id).await;
    assert_eq!(as_spectator["chat"].as_array().unwrap().len(), 2);
    // Bad chat.
    s.refused(json!({"type": "chat", "text": "   "}), "bad_chat")
        .await;
    for i in 0..4 {
        s.ok(json!({"type": "chat", "text": format!("line {i}")}))
            .await;
    }
    s.refused(json!({"type": "chat", "text": "one more"}), "rate_limited")
        .await;
    // Spectators leave: the count goes down.
    anon.close().await;
    loop {
        let presence = b.next_of("presence").await;
        if presence["spectators"] == 1 {
            break;
        }
    }
    // The chat is kept with the game: after the game, all of it is shown.
    b.ok(json!({"type": "resign"})).await;
    let after = black.game(id).await;
    assert_eq!(after["chat"].as_array().unwrap().len(), 6);
    assert_eq!(after["state"]["result"]["international"], "W+R");
    assert_eq!(after["state"]["result"]["chinese"], "白中盘胜");
}

async fn abandonment(backend: Backend) {
    // Presence is told at most once a second: the wait for a claim is
    // longer than that.
    let wait = Duration::from_secs(3);
    let config = ServerConfig {
        abandonment: wait,
        ..config()
    };
    let Some(server) = TestServer::new(backend, config).await else {
        return;
    };
    // Before both have moved, an abandoned game is cancelled.
    let (black, white, id) = server.game(json!({})).await;
    let mut b = black.ws(id, None).await;
    let w = white.ws(id, None).await;
    b.play("E5").await;
    w.close().await;
    let presence = loop {
        let p = b.next_of("presence").await;
        if p["online"]["white"] == false {
            break p;
        }
    };
    assert!(presence["claimable_at"]["white"].as_u64().is_some());
    b.refused(json!({"type": "claim_win"}), "not_yet").await;
    tokio::time::sleep(wait).await;
    b.ok(json!({"type": "claim_win"})).await;
    let game = black.game(id).await;
    assert_eq!(game["state"]["status"], "cancelled");
    assert_eq!(game["state"]["result"], serde_json::Value::Null);

    // After both have moved, the present player wins (不战胜, B+F).
    let (black, white, id) = server.game(json!({})).await;
    let mut b = black.ws(id, None).await;
    let mut w = white.ws(id, None).await;
    play_moves(&mut b, &mut w, &["E5", "C3"]).await;
    b.refused(json!({"type": "claim_win"}), "opponent_present")
        .await;
    w.close().await;
    tokio::time::sleep(wait + Duration::from_millis(100)).await;
    b.ok(json!({"type": "claim_win"})).await;
    let game = black.game(id).await;
    assert_eq!(game["state"]["status"], "finished");
    assert_eq!(game["state"]["result"]["international"], "B+F");
    // The archive keeps the finished game, not the cancelled one.
    let name = game["black"]["name"].as_str().unwrap().to_owned();
    for _ in 0..50 {
        let archive = black.get(&format!("/api/players/{name}/games")).await.json;
        if archive.as_array().is_some_and(|a| a.len() == 1) {
            assert_eq!(archive[0]["id"], id);
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the forfeit never reached the archive");
}

/// One client opening many sockets on one game costs the players a few
/// presence frames, not one per join (which made N joins cost N²/2 frames
/// over all the connections).
async fn presence_frames_per_join_are_bounded(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let (black, _white, id) = server.game(json!({})).await;
    let mut b = black.ws(id, None).await;
    let started = std::time::Instant::now();
    let crowd = 60;
    let mut sockets = Vec::new();
    for _ in 0..crowd {
        sockets.push(Client::anonymous(&server).ws(id, None).await);
    }
    // Wait until the player has been told of the whole crowd.
    let mut frames = 0;
    loop {
        let presence = b.next_of("presence").await;
        frames += 1;
        if presence["spectators"] == crowd {
            break;
        }
    }
    let seconds = started.elapsed().as_secs() + 1;
    assert!(
        frames <= seconds + 1,
        "{frames} presence frames for {crowd} joins in about {seconds} s"
    );
}

crate::for_both_backends!(
    presence_frames_per_join_are_bounded,
    spectators_and_chat,
    abandonment
);
