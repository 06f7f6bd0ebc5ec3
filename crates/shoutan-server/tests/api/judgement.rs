//! Position judgement (形势判断): of any position, always; during a live
//! game three times per player in a casual game and never in a rated one;
//! of a finished game, always.

use serde_json::json;

use crate::common::{Backend, Client, TestServer, config, play_moves};

/// Black walls off columns A–D of a 9×9 board, white F–J.
fn walls() -> Vec<String> {
    (1..=9)
        .flat_map(|row| [format!("D{row}"), format!("F{row}")])
        .collect()
}

async fn any_position_is_judged(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let anyone = Client::anonymous(&server);
    let moves: Vec<_> = walls()
        .iter()
        .enumerate()
        .map(|(i, p)| json!({"color": if i % 2 == 0 { "black" } else { "white" }, "point": p}))
        .collect();
    let judged = anyone
        .post(
            "/api/estimate",
            json!({"size": 9, "komi": 7.5, "moves": moves}),
        )
        .await;
    assert_eq!(judged.status, 200, "{}", judged.body);
    let own = judged.json["ownership"].as_array().unwrap();
    assert_eq!(own.len(), 81);
    // A1 (bottom left) is black's, J9 (top right) white's.
    assert!(own[72].as_f64().unwrap() > 0.5, "{}", judged.body);
    assert!(own[8].as_f64().unwrap() < -0.5, "{}", judged.body);
    // Black 36 子 + half of column E, white the same: white leads by komi.
    let lead = judged.json["black_lead"].as_f64().unwrap();
    assert!((-12.0..-3.0).contains(&lead), "{}", judged.body);
    assert!((judged.json["black_lead_zi"].as_f64().unwrap() * 2.0 - lead).abs() < 1e-3);

    let bad = anyone
        .post(
            "/api/estimate",
            json!({"size": 9, "komi": 7.5, "black": ["Z9"]}),
        )
        .await;
    assert_eq!(
        (bad.status, bad.json["error"].as_str()),
        (400, Some("bad_point"))
    );
    let twice = anyone
        .post(
            "/api/estimate",
            json!({"size": 9, "komi": 7.5, "moves": [
                {"color": "black", "point": "E5"}, {"color": "white", "point": "E5"}]}),
        )
        .await;
    assert_eq!(
        (twice.status, twice.json["error"].as_str()),
        (400, Some("illegal_move")),
        "{}",
        twice.body
    );
}

async fn live_games_allow_it_as_their_settings_say(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let (black, _white, rated) = server.game(json!({"rated": true})).await;
    let refused = black
        .post(&format!("/api/games/{rated}/estimate"), json!({}))
        .await;
    assert_eq!(
        (refused.status, refused.json["error"].as_str()),
        (403, Some("estimate_not_allowed")),
        "{}",
        refused.body
    );

    let (black, white, casual) = server.game(json!({"rated": false})).await;
    let path = format!("/api/games/{casual}/estimate");
    let anonymous = Client::anonymous(&server).post(&path, json!({})).await;
    assert_eq!(anonymous.status, 401);
    for left in [2, 1, 0] {
        let judged = black.post(&path, json!({})).await;
        assert_eq!(judged.status, 200, "{}", judged.body);
        assert_eq!(judged.json["uses_left"], left);
    }
    let spent = black.post(&path, json!({})).await;
    assert_eq!(
        (spent.status, spent.json["error"].as_str()),
        (429, Some("estimate_limit"))
    );
    // The opponent has uses of his own.
    assert_eq!(white.post(&path, json!({})).await.status, 200);

    // Once the game is over: always, for anyone.
    let mut b = black.ws(casual, None).await;
    let mut w = white.ws(casual, None).await;
    play_moves(&mut b, &mut w, &["E5", "C3"]).await;
    w.ok(json!({"type": "resign"})).await;
    for _ in 0..5 {
        let judged = Client::anonymous(&server).post(&path, json!({})).await;
        assert_eq!(judged.status, 200, "{}", judged.body);
        assert!(judged.json["uses_left"].is_null());
    }
}

crate::for_both_backends!(
    any_position_is_judged,
    live_games_allow_it_as_their_settings_say,
);
