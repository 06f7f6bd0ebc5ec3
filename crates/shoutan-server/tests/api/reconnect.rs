//! A client that reconnects with its last version receives exactly the
//! events it missed, and learns its last accepted command id.

use serde_json::json;

use crate::common::{Backend, TestServer, config, play_moves};

async fn reconnect_replays_missed_events(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let (black, white, id) = server.game(json!({})).await;
    let mut b = black.ws(id, None).await;
    let mut w = white.ws(id, None).await;
    let last = play_moves(&mut b, &mut w, &["E5", "C3"]).await;
    let b_next_id = b.next_id;
    // Black's connection drops; the game goes on without him.
    b.close().await;
    w.ok(json!({"type": "chat", "text": "gone already?"})).await;
    // (Black's clock would run; here there is no clock.) White cannot move
    // twice, but the chat and a draw offer are events black misses.
    w.ok(json!({"type": "draw"})).await;

    let mut b = black.ws(id, Some(last)).await;
    assert_eq!(
        b.next_id, b_next_id,
        "last_command_id tells the client where it was"
    );
    let welcome = &b.seen[0];
    assert_eq!(welcome["game"]["version"], last + 2);
    assert_eq!(welcome["game"]["state"]["offers"]["draw"], "white");
    let first = b.next_of("event").await;
    let second = b.next_of("event").await;
    assert_eq!(
        (first["v"].as_u64(), second["v"].as_u64()),
        (Some(last + 1), Some(last + 2))
    );
    assert_eq!(first["event"]["type"], "chat");
    assert_eq!(first["event"]["text"], "gone already?");
    assert_eq!(second["event"]["type"], "draw_offer");
    // Nothing more was missed: the next frame is what happens next.
    b.ok(json!({"type": "draw_answer", "accept": false})).await;
    let next = b
        .seen
        .iter()
        .rev()
        .find(|f| f["type"] == "event")
        .unwrap()
        .clone();
    assert_eq!(next["v"].as_u64(), Some(last + 3));

    // A resync request on an open connection works the same way.
    b.send_text(json!({"type": "resync", "since": last}).to_string())
        .await;
    let again = b.next_of("event").await;
    assert_eq!(again["v"].as_u64(), Some(last + 1));
}

crate::for_both_backends!(reconnect_replays_missed_events);
