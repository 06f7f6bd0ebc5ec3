//! Clocks on the server: byo-yomi calls as events, a time-out that loses,
//! and Art. 22.5's time-out that counts as a pass.

use serde_json::json;

use crate::common::{Backend, TestServer, config};

/// One period of 2 s: black lets it run out. The last period is counted
/// ("1" … "10" over its last ten seconds, here all of it), then the flag
/// falls once the lag allowance is spent: 白超时胜, W+T.
async fn a_byo_yomi_time_out_loses(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let (black, white, id) = server
        .game(json!({"time_control": "1×2s byo-yomi", "rated": false}))
        .await;
    let mut b = black.ws(id, None).await;
    let _w = white.ws(id, None).await;
    let clock = &b.seen[0]["game"]["clock"];
    assert_eq!(clock["running"], "black");
    assert_eq!(clock["black"]["overtime"]["periods_left"], 1);
    let call = b.next_of("call").await;
    assert_eq!(call["player"], "black");
    assert_eq!(call["call"]["call"], "count");
    let flag = b.event("time_out").await;
    assert_eq!(flag["event"]["color"], "black");
    assert_eq!(flag["state"]["result"]["international"], "W+T");
    assert_eq!(flag["state"]["result"]["chinese"], "白超时胜");
    let calls: Vec<_> = b.seen.iter().filter(|f| f["type"] == "call").collect();
    assert!(calls.len() >= 2, "{calls:?}");
    b.refused(json!({"type": "move", "point": "E5"}), "game_over")
        .await;
}

/// Art. 22.5: the same time-out counts as a pass, and play goes on with
/// white to move under the same byo-yomi.
async fn under_art_22_5_a_time_out_is_a_pass(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let (black, white, id) = server
        .game(json!({"time_control": "1×2s byo-yomi", "time_out": "pass", "rated": false}))
        .await;
    let mut b = black.ws(id, None).await;
    let mut w = white.ws(id, None).await;
    let pass = b.event("time_out_pass").await;
    assert_eq!(pass["event"]["color"], "black");
    assert_eq!(pass["state"]["phase"], "play");
    assert_eq!(pass["state"]["to_move"], "white");
    assert_eq!(pass["clock"]["running"], "white");
    w.play("E5").await;
    let game = black.game(id).await;
    assert_eq!(game["moves"][0], json!({"color": "black", "point": null}));
    assert_eq!(game["moves"][1], json!({"color": "white", "point": "E5"}));
    // Black's next move resets his period (a move within it costs nothing).
    b.play("C3").await;
    let game = black.game(id).await;
    assert_eq!(game["clock"]["black"]["overtime"]["periods_left"], 1);
    assert_eq!(game["state"]["result"], serde_json::Value::Null);
}

crate::for_both_backends!(
    a_byo_yomi_time_out_loses,
    under_art_22_5_a_time_out_is_a_pass
);
