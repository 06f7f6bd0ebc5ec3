//! Requests between the players: takeback (悔棋), draw, count (申请数子),
//! and the dispute that resumes play with the claimant to move (Art. 21.4).

use serde_json::json;

use crate::common::{Backend, TestServer, config, play_moves};

async fn takeback_draw_and_count(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let (black, white, id) = server.game(json!({})).await;
    let mut b = black.ws(id, None).await;
    let mut w = white.ws(id, None).await;
    play_moves(&mut b, &mut w, &["E5", "C3", "G7"]).await;

    // Black asks to take back G7; white refuses, then black asks again and
    // white grants: G7 is gone and black is to move again.
    b.ok(json!({"type": "takeback"})).await;
    b.refused(json!({"type": "takeback"}), "already_asked")
        .await;
    w.ok(json!({"type": "takeback_answer", "accept": false}))
        .await;
    assert_eq!(black.game(id).await["moves"].as_array().unwrap().len(), 3);
    b.ok(json!({"type": "takeback"})).await;
    w.ok(json!({"type": "takeback_answer", "accept": true}))
        .await;
    let game = black.game(id).await;
    assert_eq!(game["moves"].as_array().unwrap().len(), 2);
    assert_eq!(game["state"]["to_move"], "black");
    assert_eq!(game["board"][2], ".........", "G7 was taken back");

    // After white answered, a takeback by white takes back his C3 and
    // black's reply: white is to move again.
    b.play("G7").await;
    w.ok(json!({"type": "takeback"})).await;
    b.ok(json!({"type": "takeback_answer", "accept": true}))
        .await;
    let game = black.game(id).await;
    assert_eq!(game["moves"].as_array().unwrap().len(), 1);
    assert_eq!(game["state"]["to_move"], "white");

    // A move cancels a pending request.
    w.ok(json!({"type": "count"})).await;
    w.play("C3").await;
    b.refused(
        json!({"type": "count_answer", "accept": true}),
        "no_request",
    )
    .await;

    // 申请数子: granted, counting opens at once without two passes.
    b.ok(json!({"type": "count"})).await;
    w.ok(json!({"type": "count_answer", "accept": true})).await;
    let counting = b.event("counting").await;
    assert_eq!(counting["state"]["phase"], "counting");
    assert_eq!(
        counting["clock"]["running"],
        serde_json::Value::Null,
        "clocks stop"
    );
}

async fn an_agreed_draw(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let (black, white, id) = server.game(json!({})).await;
    let mut b = black.ws(id, None).await;
    let mut w = white.ws(id, None).await;
    play_moves(&mut b, &mut w, &["E5", "C3"]).await;
    b.ok(json!({"type": "draw"})).await;
    w.refused(json!({"type": "draw"}), "answer_first").await;
    w.ok(json!({"type": "draw_answer", "accept": true})).await;
    let game = black.game(id).await;
    assert_eq!(game["state"]["result"]["international"], "Draw");
    assert_eq!(game["state"]["result"]["chinese"], "和棋");
    b.refused(json!({"type": "move", "point": "D4"}), "game_over")
        .await;
}

/// Art. 21.4: white disputes the marking; play resumes and white, the
/// claimant, moves first even though black would have been to move.
async fn a_dispute_resumes_play_with_the_claimant_to_move(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let (black, white, id) = server.game(json!({})).await;
    let mut b = black.ws(id, None).await;
    let mut w = white.ws(id, None).await;
    play_moves(&mut b, &mut w, &["E5", "C3", "pass", "pass"]).await;
    assert_eq!(black.game(id).await["state"]["phase"], "counting");
    b.ok(json!({"type": "accept"})).await;
    w.ok(json!({"type": "dispute"})).await;
    let game = black.game(id).await;
    assert_eq!(game["state"]["phase"], "play");
    assert_eq!(game["state"]["to_move"], "white");
    b.refused(json!({"type": "move", "point": "D4"}), "not_your_turn")
        .await;
    w.play("D4").await;
    b.play("pass").await;
    w.play("pass").await;
    assert_eq!(black.game(id).await["state"]["phase"], "counting");
}

crate::for_both_backends!(
    takeback_draw_and_count,
    an_agreed_draw,
    a_dispute_resumes_play_with_the_claimant_to_move,
);
