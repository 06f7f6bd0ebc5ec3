//! An event is appended to the log before it is applied: when the append
//! fails, the command is refused with `storage` and the game stays exactly
//! what its log says, ready for the next command.

use serde_json::json;

use crate::common::{Backend, TestServer, config, play_moves};

/// A trigger that makes appending any event that mentions "poison" fail.
fn poison(server: &TestServer) -> &'static str {
    if server.is_sqlite() {
        "CREATE TRIGGER poison BEFORE INSERT ON game_events
         WHEN NEW.body LIKE '%poison%'
         BEGIN SELECT RAISE(ABORT, 'poisoned'); END;"
    } else {
        "CREATE FUNCTION poison() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN RAISE EXCEPTION 'poisoned'; END $$;
         CREATE TRIGGER poison BEFORE INSERT ON game_events
         FOR EACH ROW WHEN (NEW.body LIKE '%poison%') EXECUTE FUNCTION poison();"
    }
}

async fn an_append_failure_leaves_the_state_equal_to_the_log(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let (black, white, id) = server.game(json!({})).await;
    let mut b = black.ws(id, None).await;
    let mut w = white.ws(id, None).await;
    play_moves(&mut b, &mut w, &["E5", "C3"]).await;
    server.sql(poison(&server)).await;
    let before = black.game(id).await;
    let refused = b
        .refused(json!({"type": "chat", "text": "poison"}), "storage")
        .await;
    assert!(
        refused["id"].is_u64(),
        "the error names the command: {refused}"
    );
    let after = black.game(id).await;
    assert_eq!(after["version"], before["version"], "nothing was applied");
    assert_eq!(after["chat"], before["chat"]);
    let logged = server.store.events(id, 0).await.unwrap();
    assert_eq!(Some(logged.len() as u64), after["version"].as_u64());
    // The game goes on from the log's version.
    let v = b.play("G7").await;
    assert_eq!(Some(v), after["version"].as_u64().map(|v| v + 1));
    w.ok(json!({"type": "chat", "text": "still here"})).await;
}

crate::for_both_backends!(an_append_failure_leaves_the_state_equal_to_the_log);
