//! Bad and hostile input: each gets its specific error frame or 4xx JSON
//! error, nothing changes, and the connection survives where it can.

use serde_json::json;

use crate::common::{Backend, Client, TestServer, config, play_moves};

async fn websocket_errors_change_nothing(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let (black, white, id) = server.game(json!({})).await;
    let mut b = black.ws(id, None).await;
    let mut w = white.ws(id, None).await;
    // White to move in:
    //   A B C D
    // 3 . X O .
    // 2 X . X O      B2 takes C2 (a ko); A1 would be suicide.
    // 1 . X O .
    play_moves(&mut b, &mut w, &["B3", "C3", "A2", "D2", "B1", "C1", "C2"]).await;
    let before = black.game(id).await;

    // Malformed, unknown, incomplete.
    b.send_text("{not json").await;
    assert_eq!(b.next_of("error").await["code"], "malformed");
    b.send_text(r#"{"type":"castle","id":50}"#).await;
    assert_eq!(b.next_of("error").await["code"], "unknown_type");
    b.send_text(r#"{"type":"move","point":"D4"}"#).await;
    assert_eq!(b.next_of("error").await["code"], "missing_id");
    b.send_text(r#"{"type":"move","id":50,"point":"D4","color":"white"}"#)
        .await;
    assert_eq!(b.next_of("error").await["code"], "malformed");
    b.send_binary(vec![0, 1, 2]).await;
    assert_eq!(b.next_of("error").await["code"], "malformed");
    // Oversized: an error frame, and the connection stays open.
    b.send_text(format!(
        r#"{{"type":"chat","id":51,"text":"{}"}}"#,
        "x".repeat(5000)
    ))
    .await;
    assert_eq!(b.next_of("error").await["code"], "too_large");

    // The rules' refusals, each with its reason (Art. 3–6).
    b.refused(json!({"type": "move", "point": "D4"}), "not_your_turn")
        .await;
    let occupied = w
        .refused(json!({"type": "move", "point": "B3"}), "illegal_move")
        .await;
    assert_eq!(occupied["reason"], "occupied");
    let suicide = w
        .refused(json!({"type": "move", "point": "A1"}), "illegal_move")
        .await;
    assert_eq!(suicide["reason"], "suicide");
    w.refused(json!({"type": "move", "point": "Z99"}), "bad_point")
        .await;
    // Answers to requests nobody made; counting actions in play.
    w.refused(
        json!({"type": "takeback_answer", "accept": true}),
        "no_request",
    )
    .await;
    w.refused(json!({"type": "accept"}), "wrong_phase").await;
    let mut now = black.game(id).await;
    now["clock"]["at"] = before["clock"]["at"].clone();
    assert_eq!(now, before, "nothing changed but the clock's reading time");

    // White takes the ko; black may not retake at once.
    w.play("B2").await;
    let ko = b
        .refused(json!({"type": "move", "point": "C2"}), "illegal_move")
        .await;
    assert_eq!(ko["reason"], "ko");

    // A version the game has not reached (forged) and one it has left.
    let version = black.game(id).await["version"].as_u64().unwrap();
    b.refused(
        json!({"type": "move", "point": "D4", "version": version + 5}),
        "future_version",
    )
    .await;
    b.refused(
        json!({"type": "move", "point": "D4", "version": version - 1}),
        "stale_version",
    )
    .await;
    // A replayed id: the same command again is recognised, not applied twice.
    let id_now = b.next_id;
    b.ok(json!({"type": "move", "point": "D4", "version": version}))
        .await;
    b.next_id = id_now;
    b.refused(json!({"type": "move", "point": "E5"}), "replayed_id")
        .await;
    b.next_id = id_now + 1;

    // A third user is only a spectator: he cannot play or resign.
    let stranger = server.player("stranger", "3d").await;
    let mut s = stranger.ws(id, None).await;
    assert_eq!(s.seen[0]["you"], "spectator");
    s.refused(json!({"type": "resign"}), "not_a_player").await;
    // An anonymous spectator cannot even chat.
    let mut anon = Client::anonymous(&server).ws(id, None).await;
    anon.refused(json!({"type": "chat", "text": "hi"}), "login_required")
        .await;

    // Through all this only B2 and D4 were played, and the connections
    // still work.
    let after = black.game(id).await;
    assert_eq!(after["version"].as_u64().unwrap(), version + 1);
    let moves: Vec<_> = after["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["point"].clone())
        .collect();
    assert_eq!(moves[moves.len() - 2..], [json!("B2"), json!("D4")]);
    assert_eq!(after["state"]["captures"]["white"], 1);
    w.play("E5").await;
}

async fn http_errors_are_json_and_specific(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let anon = Client::anonymous(&server);
    let ke = server.player("ke", "9p").await;
    let lee = server.player("lee", "9p").await;

    // Not logged in.
    let r = anon.post("/api/challenges", json!({})).await;
    assert_eq!(
        (r.status, r.json["error"].as_str()),
        (401, Some("login_required"))
    );
    // Malformed and oversized bodies.
    let r = ke
        .send(
            ke.raw(reqwest::Method::POST, "/api/challenges")
                .header("content-type", "application/json")
                .body("{\"size\":"),
        )
        .await;
    assert_eq!(
        (r.status, r.json["error"].as_str()),
        (400, Some("malformed"))
    );
    let r = ke
        .send(
            ke.raw(reqwest::Method::POST, "/api/challenges")
                .header("content-type", "application/json")
                .body(format!("{{\"opponent\":\"{}\"}}", "x".repeat(100_000))),
        )
        .await;
    assert_eq!(
        (r.status, r.json["error"].as_str()),
        (413, Some("malformed"))
    );
    let r = ke
        .post("/api/challenges", json!({"size": 9, "komi": "lots"}))
        .await;
    assert_eq!(r.status, 422);
    let r = ke.post("/api/challenges", json!({"size": 30})).await;
    assert_eq!(
        (r.status, r.json["error"].as_str()),
        (400, Some("bad_size"))
    );
    // CSRF: another site's request, and a request without the header.
    let r = ke
        .send(
            ke.raw(reqwest::Method::POST, "/api/challenges")
                .header("origin", "https://evil.example")
                .json(&json!({})),
        )
        .await;
    assert_eq!(
        (r.status, r.json["error"].as_str()),
        (403, Some("cross_origin"))
    );
    let bare = reqwest::Client::new()
        .delete(format!("{}/api/session", server.base))
        .header("cookie", ke.cookie.clone().unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(bare.status(), 403);
    assert_eq!(
        ke.get("/api/session").await.status,
        200,
        "the session survived"
    );

    // Challenges: own, for someone else, gone; unknown ids and paths.
    let mine = ke.post("/api/challenges", json!({"opponent": "lee"})).await;
    assert_eq!(mine.status, 201);
    let cid = mine.json["id"].as_i64().unwrap();
    let r = ke
        .post(&format!("/api/challenges/{cid}/accept"), json!({}))
        .await;
    assert_eq!(r.json["error"], "own_challenge");
    let third = server.player("third", "1k").await;
    let r = third
        .post(&format!("/api/challenges/{cid}/accept"), json!({}))
        .await;
    assert_eq!(
        (r.status, r.json["error"].as_str()),
        (403, Some("not_for_you"))
    );
    let r = third.delete(&format!("/api/challenges/{cid}")).await;
    assert_eq!(
        (r.status, r.json["error"].as_str()),
        (403, Some("not_yours"))
    );
    let r = ke.post("/api/challenges", json!({"opponent": "ke"})).await;
    assert_eq!(r.json["error"], "self_challenge");
    let r = ke
        .post("/api/challenges", json!({"opponent": "nobody"}))
        .await;
    assert_eq!(r.status, 404);
    assert_eq!(
        lee.post(&format!("/api/challenges/{cid}/accept"), json!({}))
            .await
            .status,
        201
    );
    let r = lee
        .post(&format!("/api/challenges/{cid}/accept"), json!({}))
        .await;
    assert_eq!(r.status, 404, "{}", r.body);
    let r = anon.get("/api/games/abc").await;
    assert_eq!((r.status, r.json["error"].as_str()), (400, Some("bad_id")));
    let r = anon.get("/api/games/999999").await;
    assert_eq!(
        (r.status, r.json["error"].as_str()),
        (404, Some("not_found"))
    );
    let r = anon.get("/api/nothing-here").await;
    assert_eq!(
        (r.status, r.json["error"].as_str()),
        (404, Some("not_found"))
    );
    let r = anon.get("/api/players/ke/games?result=maybe").await;
    assert_eq!(r.json["error"], "bad_result");
    let r = anon.get("/api/players/ke/games?from=yesterday").await;
    assert_eq!(r.json["error"], "bad_date");
}

/// Frames the server cannot read end the connection with the close code
/// RFC 6455 gives the reason; messages it can read but will not carry the
/// client's id in their error; ids a browser cannot hold are refused and
/// spoil nothing.
async fn websocket_limits_and_ids(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let (black, _white, id) = server.game(json!({})).await;
    let mut b = black.ws(id, None).await;
    // Over the message limit (4 KiB) but under the frame limit: an error
    // frame with the message's id, and the connection stays.
    b.send_text(format!(
        r#"{{"type":"chat","id":7,"text":"{}"}}"#,
        "x".repeat(5000)
    ))
    .await;
    let too_large = b.next_of("error").await;
    assert_eq!(
        (too_large["code"].as_str(), too_large["id"].as_u64()),
        (Some("too_large"), Some(7))
    );
    // An id beyond 2^53 − 1 is refused, and later ids still work.
    b.send_text(format!(r#"{{"type":"pass","id":{}}}"#, u64::MAX))
        .await;
    assert_eq!(b.next_of("error").await["code"], "bad_id");
    b.send_text(format!(r#"{{"type":"pass","id":{}}}"#, 1u64 << 53))
        .await;
    assert_eq!(b.next_of("error").await["code"], "bad_id");
    b.ok(json!({"type": "move", "point": "E5"})).await;
    // Chat with a control or bidirectional character: refused (the error
    // frame answers the command's id).
    b.refused(
        json!({"type": "chat", "text": "gg\u{202e}"}),
        "bidi_control",
    )
    .await;
    b.refused(
        json!({"type": "chat", "text": "a\u{1b}[2Jb"}),
        "control_character",
    )
    .await;
    b.ok(json!({"type": "chat", "text": "  好棋 "})).await;
    let said = b
        .seen
        .iter()
        .rev()
        .find(|f| f["type"] == "event" && f["event"]["type"] == "chat")
        .unwrap();
    assert_eq!(said["event"]["text"], "好棋");
    b.close().await;

    // A frame over 64 KiB: close 1009, not a reset.
    let mut big = black.ws(id, None).await;
    big.send_text("x".repeat(70 * 1024)).await;
    let (code, reason) = big.close_frame().await.expect("no close frame");
    assert_eq!(code, 1009, "{reason}");
    // A text frame that is not UTF-8: close 1007.
    let mut garbled = black.ws(id, None).await;
    garbled.send_raw_text(vec![b'{', 0xff, 0xfe, b'}']).await;
    let (code, reason) = garbled.close_frame().await.expect("no close frame");
    assert_eq!(code, 1007, "{reason}");
    // The lobby socket too.
    let (mut lobby, _) = black.lobby().await;
    lobby.send_text("x".repeat(70 * 1024)).await;
    assert_eq!(lobby.close_frame().await.map(|c| c.0), Some(1009));
}

crate::for_both_backends!(
    websocket_errors_change_nothing,
    http_errors_are_json_and_specific,
    websocket_limits_and_ids,
);
