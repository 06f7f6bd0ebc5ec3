//! A restart rebuilds every live game from its log: board, clocks,
//! counting marks, chat, requests, command ids — and excuses the downtime.

use std::time::Duration;

use serde_json::{Value, json};

use crate::common::{Backend, TestServer, config, games_loaded, play_moves};

async fn a_restart_rebuilds_games_from_the_log(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let (black, white, id) = server
        .game(json!({"time_control": "10 min + 3×30s byo-yomi", "rated": false}))
        .await;
    let mut b = black.ws(id, None).await;
    let mut w = white.ws(id, None).await;
    play_moves(&mut b, &mut w, &["E5", "C3", "G7", "pass", "pass"]).await;
    w.ok(json!({"type": "chat", "text": "count please"})).await;
    b.ok(json!({"type": "toggle", "point": "C3"})).await;
    b.ok(json!({"type": "accept"})).await;
    let before = black.game(id).await;
    assert_eq!(before["state"]["phase"], "counting");
    let next_b = b.next_id;

    // Down for two seconds: the counting phase has both clocks stopped.
    let server = server.restart(Duration::from_secs(2), config()).await;
    let mut black = black;
    black.base = server.base.clone();
    let mut white = white;
    white.base = server.base.clone();
    let after = black.game(id).await;
    for key in ["board", "moves", "chat", "settings"] {
        assert_eq!(after[key], before[key], "{key}");
    }
    assert_eq!(after["state"]["counting"], before["state"]["counting"]);
    assert_eq!(after["clock"]["black"], before["clock"]["black"]);
    assert_eq!(after["clock"]["white"], before["clock"]["white"]);
    // The log gained no excuse: no clock ran.
    assert_eq!(after["version"], before["version"]);

    // Play on: black's command ids continue, white disputes, play resumes
    // with white to move and his clock running.
    let mut b = black.ws(id, None).await;
    assert_eq!(b.next_id, next_b);
    let mut w = white.ws(id, None).await;
    w.ok(json!({"type": "dispute"})).await;
    w.play("D4").await;
    let resumed = black.game(id).await;
    assert_eq!(resumed["clock"]["running"], "black");
    b.play("F6").await;

    // Down for three seconds while white's clock runs: the downtime is not
    // charged. The server's last sign of life is its last heartbeat (every
    // second), so white may get back up to a second of thought before the
    // crash, and is charged at most the moments around the restart.
    let before = white.game(id).await;
    let left =
        |g: &Value| i64::try_from(g["clock"]["white"]["total_left"].as_u64().unwrap()).unwrap();
    let server = server.restart(Duration::from_secs(3), config()).await;
    white.base = server.base.clone();
    let after = white.game(id).await;
    let charged = left(&before) - left(&after);
    assert!(
        (-1_300..2_000).contains(&charged),
        "charged {charged} ms for a 3 s downtime"
    );
    assert_eq!(
        after["version"].as_u64(),
        before["version"].as_u64().map(|v| v + 1),
        "a resume event"
    );
    let mut w = white.ws(id, None).await;
    w.play("D6").await;
}

/// A game finished by the count keeps the marking both players accepted:
/// after a restart its view still says which stones were dead, with the
/// result they gave; a game won otherwise has none.
async fn a_counted_game_keeps_its_agreed_marking(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let (black, white, id) = server.game(json!({"rated": false})).await;
    let mut b = black.ws(id, None).await;
    let mut w = white.ws(id, None).await;
    play_moves(&mut b, &mut w, &["E5", "C3", "G7", "pass", "pass"]).await;
    b.ok(json!({"type": "toggle", "point": "C3"})).await;
    b.ok(json!({"type": "accept"})).await;
    assert!(black.game(id).await["state"].get("agreed_dead").is_none());
    w.ok(json!({"type": "accept"})).await;
    let before = black.game(id).await;
    assert_eq!(before["state"]["agreed_dead"], json!(["C3"]));
    // Counted and marked, then resigned: no agreed marking.
    let (rb, rw, resigned) = server.game(json!({"rated": false})).await;
    let mut b = rb.ws(resigned, None).await;
    let mut w = rw.ws(resigned, None).await;
    play_moves(&mut b, &mut w, &["E5", "C3", "pass", "pass"]).await;
    b.ok(json!({"type": "toggle", "point": "C3"})).await;
    b.ok(json!({"type": "accept"})).await;
    w.ok(json!({"type": "resign"})).await;

    let server = server.restart(Duration::from_secs(0), config()).await;
    let mut black = black;
    black.base = server.base.clone();
    let after = black.game(id).await;
    assert_eq!(after["state"]["status"], "finished");
    assert_eq!(after["state"]["agreed_dead"], json!(["C3"]));
    assert_eq!(after["state"]["result"], before["state"]["result"]);
    assert_eq!(
        after["board"], before["board"],
        "the dead stone stays on the board, marked"
    );
    let other = black.game(resigned).await;
    assert_eq!(other["state"]["status"], "finished");
    assert!(other["state"].get("agreed_dead").is_none());
}

/// The excuse of a restart runs from the server's last sign of life to the
/// instant the game is live again (the resume event's own instant): the
/// time spent rebuilding the games is excused too, for the last game
/// rebuilt as for the first.
async fn the_excuse_runs_to_the_resume(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let mut games = Vec::new();
    for _ in 0..40 {
        let (black, _white, id) = server.game(json!({"rated": false})).await;
        let mut b = black.ws(id, None).await;
        b.play("E5").await;
        games.push(id);
    }
    let server = server.restart(Duration::from_secs(1), config()).await;
    // For each game: where its excuse begins, and its last event before.
    let mut excuses = Vec::new();
    for &id in &games {
        let events = server.store.events(id, 0).await.unwrap();
        let resume = events.last().unwrap();
        let body: Value = serde_json::from_str(&resume.body).unwrap();
        assert_eq!(body["type"], "resume", "game {id}");
        let excused = i64::try_from(body["excused_ms"].as_u64().unwrap()).unwrap();
        excuses.push((id, resume.at - excused, events[events.len() - 2].at));
    }
    // The last heartbeat before the crash: the earliest beginning.
    let heartbeat = excuses.iter().map(|&(_, from, _)| from).min().unwrap();
    for (id, from, previous) in excuses {
        assert_eq!(
            from,
            heartbeat.max(previous),
            "game {id}: excused from the last sign of life to its own resume"
        );
    }
}

/// A restart rebuilds the live games alone: a finished one stays in the
/// store until someone opens it, and opening it again reports no new end
/// (the lobby hears of each game's end once).
async fn a_restart_leaves_finished_games_in_the_store(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let (black, white, over) = server.game(json!({"rated": true})).await;
    let mut b = black.ws(over, None).await;
    b.ok(json!({"type": "resign"})).await;
    drop(b);
    let (resigner, _, live) = server.game(json!({"rated": false})).await;

    let server = server.restart(Duration::from_millis(100), config()).await;
    let [mut black, mut white, mut resigner] = [black, white, resigner];
    for client in [&mut black, &mut white, &mut resigner] {
        client.base = server.base.clone();
    }
    assert_eq!(games_loaded(&black).await, "1", "the live game alone");

    let (mut lobby, _) = black.lobby().await;
    let opened = white.ws(over, None).await;
    assert_eq!(opened.seen[0]["game"]["state"]["result"]["winner"], "white");
    assert_eq!(games_loaded(&black).await, "2");
    // Endings reach the lobby in order: the live game's end comes after
    // any report of the finished game's, which must not come.
    let mut r = resigner.ws(live, None).await;
    r.ok(json!({"type": "resign"})).await;
    let ended = lobby.next_of("game_ended").await;
    assert_eq!(ended["id"], live, "{:?}", lobby.seen);
}

crate::for_both_backends!(
    a_restart_leaves_finished_games_in_the_store,
    a_restart_rebuilds_games_from_the_log,
    a_counted_game_keeps_its_agreed_marking,
    the_excuse_runs_to_the_resume
);
