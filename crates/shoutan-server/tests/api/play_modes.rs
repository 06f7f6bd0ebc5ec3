//! Rengo (联棋) and simuls (多面打): challenges of several seats; a rengo's
//! fixed order of partners enforced by the game's actor, played to a
//! counted result; a simul's boards, each its own game.

use serde_json::json;

use crate::common::{Backend, TestServer, config};

/// The position of `play.rs`, played by four: black's and white's first
/// players, then their partners, in turn. Black wins by B+1.5.
const MOVES: &[&str] = &[
    "E5", "F5", "E4", "F4", "E6", "F6", "E3", "F3", "E7", "F7", "E2", "F2", "E8", "F8", "E1", "F1",
    "E9", "F9", "B4", "B5", "B6", "pass", "A5", "pass", "C5", "C7", "pass", "pass",
];

async fn rengo_partners_alternate_to_a_counted_result(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let names = ["ann", "bo", "cy", "di"];
    let mut players = Vec::new();
    for name in names {
        players.push(server.player(name, "3k").await);
    }
    // Rated or with a handicap, a rengo is refused.
    let refused = players[0]
        .post("/api/challenges", json!({"size": 9, "rengo": true}))
        .await;
    assert_eq!(refused.json["error"], "bad_rengo", "{}", refused.body);
    let made = players[0]
        .post(
            "/api/challenges",
            json!({"size": 9, "rengo": true, "rated": false, "color": "black"}),
        )
        .await;
    assert_eq!(made.status, 201, "{}", made.body);
    assert_eq!(made.json["mode"], json!({"kind": "rengo"}));
    let accept = format!("/api/challenges/{}/accept", made.json["id"]);
    // bo joins white's team first, cy becomes ann's partner, di bo's.
    let joined = players[1].post(&accept, json!({})).await;
    assert_eq!(joined.status, 200, "{}", joined.body);
    assert_eq!(joined.json["challenge"]["joined"][0]["name"], "bo");
    let twice = players[1].post(&accept, json!({})).await;
    assert_eq!(twice.json["error"], "already_joined");
    assert_eq!(players[2].post(&accept, json!({})).await.status, 200);
    let started = players[3].post(&accept, json!({})).await;
    assert_eq!(started.status, 201, "{}", started.body);
    let game = &started.json["games"][0];
    assert_eq!(game["black"]["name"], "ann");
    assert_eq!(game["white"]["name"], "bo");
    assert_eq!(game["partners"]["black"]["name"], "cy");
    assert_eq!(game["partners"]["white"]["name"], "di");
    let id = game["id"].as_i64().unwrap();
    let mut ws = Vec::new();
    for p in &players {
        ws.push(p.ws(id, None).await);
    }
    assert_eq!(
        ws[2].seen[0]["you"], "black",
        "a partner plays his team's colour"
    );
    assert_eq!(ws[3].seen[0]["you"], "white");
    assert_eq!(
        ws[0].seen[0]["game"]["state"]["player_to_move"],
        players_id(&ws[0], "ann")
    );

    for (i, point) in MOVES.iter().enumerate() {
        let turn = i % 4;
        // The partner of the player to move is refused, with its own code;
        // the other team is refused as out of turn.
        let partner = (turn + 2) % 4;
        let command = if *point == "pass" {
            json!({"type": "pass"})
        } else {
            json!({"type": "move", "point": point})
        };
        if i < 8 {
            let error = ws[partner].refused(command.clone(), "partners_turn").await;
            assert!(
                error["message"].as_str().unwrap().contains(names[turn]),
                "{error}"
            );
            ws[(turn + 1) % 4]
                .refused(command.clone(), "not_your_turn")
                .await;
        }
        ws[turn].ok(command).await;
    }
    let counting = ws[0].event("counting").await;
    assert_eq!(counting["event"]["dead"], json!(["C7"]));
    // Either player of a team accepts for it.
    ws[2].ok(json!({"type": "accept"})).await;
    ws[3].ok(json!({"type": "accept"})).await;
    let end = ws[1].event("accept").await;
    let end = if end["state"]["status"] == "finished" {
        end
    } else {
        ws[1].event("accept").await
    };
    assert_eq!(end["state"]["result"]["international"], "B+1.5");
    // Chat of a player is seen by all, spectators too.
    let spectator = server.player("eve", "3k").await;
    let mut watching = spectator.ws(id, None).await;
    ws[3].ok(json!({"type": "chat", "text": "gg"})).await;
    assert_eq!(watching.event("chat").await["event"]["text"], "gg");
}

/// The user id of `name` in the welcome `ws` read.
fn players_id(ws: &crate::common::Ws, name: &str) -> serde_json::Value {
    let game = &ws.seen[0]["game"];
    [
        &game["black"],
        &game["white"],
        &game["partners"]["black"],
        &game["partners"]["white"],
    ]
    .into_iter()
    .find(|s| s["name"] == name)
    .map(|s| s["id"].clone())
    .unwrap()
}

async fn a_simul_starts_a_board_per_joiner(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let host = server.player("host", "5d").await;
    let refused = host
        .post("/api/challenges", json!({"size": 9, "simul": 1}))
        .await;
    assert_eq!(refused.json["error"], "bad_simul");
    let made = host
        .post(
            "/api/challenges",
            json!({"size": 9, "simul": 3, "color": "white", "rated": false}),
        )
        .await;
    assert_eq!(made.status, 201, "{}", made.body);
    let id = made.json["id"].as_i64().unwrap();
    let accept = format!("/api/challenges/{id}/accept");
    let mut guests = Vec::new();
    for name in ["g1", "g2", "g3", "g4"] {
        guests.push(server.player(name, "5k").await);
    }
    assert_eq!(guests[0].post(&accept, json!({})).await.status, 200);
    assert_eq!(guests[3].post(&accept, json!({})).await.status, 200);
    // g4 leaves his seat; g2 and g3 fill the simul.
    assert_eq!(
        guests[3]
            .delete(&format!("/api/challenges/{id}/seat"))
            .await
            .status,
        204
    );
    assert_eq!(
        guests[3]
            .delete(&format!("/api/challenges/{id}/seat"))
            .await
            .json["error"],
        "no_seat"
    );
    assert_eq!(guests[1].post(&accept, json!({})).await.status, 200);
    assert_eq!(
        host.get(&format!("/api/simuls/{id}")).await.status,
        404,
        "not started yet"
    );
    let started = guests[2].post(&accept, json!({})).await;
    assert_eq!(started.status, 201, "{}", started.body);
    assert_eq!(started.json["games"].as_array().unwrap().len(), 3);
    let simul = host.get(&format!("/api/simuls/{id}")).await;
    assert_eq!(simul.status, 200, "{}", simul.body);
    assert_eq!(simul.json["host"]["name"], "host");
    let boards = simul.json["boards"].as_array().unwrap();
    let opponents: Vec<&str> = boards
        .iter()
        .map(|b| b["black"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(opponents, ["g1", "g2", "g3"]);
    assert!(boards.iter().all(|b| b["white"]["name"] == "host"));
    assert!(
        boards
            .iter()
            .all(|b| b["status"] == "live" && b["to_move"] == "black")
    );
    // Each board is a game of its own: a move on one leaves the others.
    let first = boards[0]["id"].as_i64().unwrap();
    let mut g1 = guests[0].ws(first, None).await;
    g1.play("E5").await;
    let simul = host.get(&format!("/api/simuls/{id}")).await;
    let moves: Vec<i64> = simul.json["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["moves"].as_i64().unwrap())
        .collect();
    assert_eq!(moves, [1, 0, 0]);
    assert_eq!(guests[0].game(first).await["simul"], id);
}

crate::for_both_backends!(
    rengo_partners_alternate_to_a_counted_result,
    a_simul_starts_a_board_per_joiner,
);
