//! Playing the computer: its levels, a game started at once, moves answered
//! over the WebSocket, counting agreed with it, a result; the computer's
//! seat after a restart; and the requests it refuses.

use std::time::Duration;

use serde_json::{Value, json};

use crate::common::{Backend, Client, TestServer, Ws, config};

/// Points the player tries, in order, while he still plays stones.
const TRIES: &[&str] = &[
    "E5", "C3", "G7", "C7", "G3", "D5", "F5", "E3", "E7", "D4", "F6",
];

/// Starts a 9×9 game against the computer at `level`, the player black.
async fn computer_game(player: &Client, level: u8) -> (i64, Value) {
    let made = player
        .post(
            "/api/computer/games",
            json!({"level": level, "size": 9, "color": "black", "rated": true,
                   "time_control": "10 min + 3×30s byo-yomi"}),
        )
        .await;
    assert_eq!(made.status, 201, "{}", made.body);
    (made.json["id"].as_i64().unwrap(), made.json)
}

/// The player's turn: a stone from `TRIES` while he has stones to play,
/// then passes.
async fn human_turn(ws: &mut Ws, game: &Value, stones: &mut usize) {
    let board: Vec<&str> = game["board"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap())
        .collect();
    let empty = |point: &str| {
        let col = "ABCDEFGHJ".find(&point[..1]).unwrap();
        let row = 9 - point[1..].parse::<usize>().unwrap();
        board[row].as_bytes()[col] == b'.'
    };
    while *stones < 6 {
        let Some(point) = TRIES.iter().find(|p| empty(p)) else {
            break;
        };
        *stones += 1;
        if ws
            .command(json!({"type": "move", "point": point}))
            .await
            .is_ok()
        {
            return;
        }
    }
    ws.ok(json!({"type": "pass"})).await;
}

/// Waits until the game shows the computer (white) connected: it joins
/// its seat as the game starts, or as the server restarts.
async fn computer_at_the_board(ws: &mut Ws) {
    let mut presence = ws.seen[0]["presence"].clone();
    while presence["online"]["white"] != true {
        presence = ws.next_of("presence").await;
    }
}

/// Plays the game to its end as black: answers for its own turn, accepts
/// the count whenever it has not; returns the finished game.
async fn play_to_the_end(player: &Client, ws: &mut Ws, id: i64) -> Value {
    let mut stones = 0;
    for _ in 0..500 {
        let game = player.game(id).await;
        let state = &game["state"];
        if state["status"] != "live" {
            return game;
        }
        match state["phase"].as_str().unwrap() {
            "play" if state["to_move"] == "black" => human_turn(ws, &game, &mut stones).await,
            "counting" if state["counting"]["accepted"]["black"] == false => {
                // The computer may change the marks meanwhile: then again.
                let _ = ws.command(json!({"type": "accept"})).await;
            }
            _ => {
                ws.next_of("event").await;
            }
        }
    }
    panic!("the game against the computer did not end");
}

async fn a_9x9_game_against_the_computer(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let levels = Client::anonymous(&server).get("/api/computer").await;
    assert_eq!(levels.status, 200);
    let levels = levels.json.as_array().unwrap().clone();
    assert_eq!(levels.len(), 10);
    assert_eq!(levels[0]["level"], 1);
    assert_eq!(levels[0]["player"]["name"], "Shoutan-AI-1");
    assert_eq!(levels[0]["visits"], 1);
    assert_eq!(levels[9]["visits"], Value::Null);
    for level in &levels {
        let ranks = level["ranks"].as_array().unwrap();
        assert_eq!(
            ranks[0]["size"], 9,
            "every level was measured on 9×9: {level}"
        );
        assert_eq!(
            level["player"]["declared_rank"], ranks[0]["rank"],
            "an account declares the rank measured on 9×9: {level}"
        );
    }
    assert_eq!(levels[9]["ranks"][1]["size"], 19);

    let player = server.player("learner", "20k").await;
    let (id, listed) = computer_game(&player, 1).await;
    assert_eq!(listed["black"]["name"], "learner");
    assert_eq!(listed["white"]["name"], "Shoutan-AI-1");
    let mut ws = player.ws(id, None).await;
    assert_eq!(ws.seen[0]["you"], "black");
    computer_at_the_board(&mut ws).await;

    let end = play_to_the_end(&player, &mut ws, id).await;
    assert_eq!(end["state"]["status"], "finished");
    let result = &end["state"]["result"];
    assert!(
        result["international"]
            .as_str()
            .is_some_and(|r| r.starts_with('B') || r.starts_with('W')),
        "{result}"
    );
    // The player passed on once his stones were down: the computer, far
    // ahead, played on, passed, and agreed a count.
    assert_eq!(result["detail"]["by"]["reason"], "score", "{result}");
    let moves = end["moves"].as_array().unwrap();
    let answered = moves.iter().filter(|m| m["color"] == "white").count();
    assert!(
        answered >= 3,
        "the computer answered {answered} turns: {moves:?}"
    );
    assert!(
        moves
            .iter()
            .any(|m| m["color"] == "white" && m["point"].is_string()),
        "the computer played stones"
    );
    // The result is recorded, rated, in both archives.
    let mut archive = Value::Null;
    for _ in 0..50 {
        archive = player.get("/api/players/Shoutan-AI-1/games").await.json;
        if archive.as_array().is_some_and(|a| !a.is_empty()) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(archive[0]["id"], id);
    assert_eq!(archive[0]["result"], result["international"]);
    assert!(archive[0]["ratings"]["white"]["change"].is_number());
}

async fn the_computer_takes_its_seat_again_after_a_restart(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let mut player = server.player("returner", "15k").await;
    let (id, _) = computer_game(&player, 2).await;
    let mut ws = player.ws(id, None).await;
    ws.ok(json!({"type": "move", "point": "E5"})).await;
    let answer = ws.next_of("event").await;
    assert_eq!(answer["event"]["color"], "white", "{answer}");
    ws.close().await;

    let server = server.restart(Duration::from_millis(300), config()).await;
    player.base = server.base.clone();
    let mut ws = player.ws(id, None).await;
    computer_at_the_board(&mut ws).await;
    let version = ws.seen[0]["game"]["version"].as_u64().unwrap();
    let board: Vec<Value> = ws.seen[0]["game"]["board"].as_array().unwrap().clone();
    let point = ["C3", "G7", "C7", "G3"]
        .into_iter()
        .find(|p| {
            let col = "ABCDEFGHJ".find(&p[..1]).unwrap();
            let row = 9 - p[1..].parse::<usize>().unwrap();
            board[row].as_str().unwrap().as_bytes()[col] == b'.'
        })
        .unwrap();
    ws.ok(json!({"type": "move", "point": point, "version": version}))
        .await;
    loop {
        let event = ws.next_of("event").await;
        if event["event"]["color"] == "white" {
            break;
        }
    }
    drop(server);
}

/// An account made before a new measurement declares the new rank after
/// the next start.
async fn the_computer_declares_its_measured_rank_after_a_restart(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let level = |levels: &Value, n: usize| levels.as_array().unwrap()[n - 1].clone();
    let before = Client::anonymous(&server).get("/api/computer").await.json;
    let measured = level(&before, 3)["ranks"][0]["rank"].clone();
    assert_eq!(level(&before, 3)["player"]["declared_rank"], measured);
    let user = server
        .store
        .user_by_name("Shoutan-AI-3")
        .await
        .unwrap()
        .unwrap();
    assert!(
        server
            .store
            .set_declared_rank(user.id, shoutan_rules::Rank::Pro(9))
            .await
            .unwrap()
    );
    let stale = Client::anonymous(&server).get("/api/computer").await.json;
    assert_eq!(level(&stale, 3)["player"]["declared_rank"], "9p");

    let server = server.restart(Duration::from_millis(50), config()).await;
    let after = Client::anonymous(&server).get("/api/computer").await.json;
    assert_eq!(level(&after, 3)["player"]["declared_rank"], measured);
    assert_eq!(level(&after, 3)["player"]["name"], "Shoutan-AI-3");
}

async fn computer_requests_are_checked(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let player = server.player("checker", "5k").await;
    let code = |answer: crate::common::Answer| {
        (
            answer.status,
            answer.json["error"].as_str().map(str::to_owned),
        )
    };
    let r = player.post("/api/computer/games", json!({"size": 9})).await;
    assert_eq!(code(r), (400, Some("bad_level".into())));
    let r = player
        .post("/api/computer/games", json!({"level": 11}))
        .await;
    assert_eq!(code(r), (400, Some("bad_level".into())));
    let r = player
        .post("/api/computer/games", json!({"level": "one"}))
        .await;
    assert_eq!(code(r), (400, Some("bad_level".into())));
    let r = player
        .post(
            "/api/computer/games",
            json!({"level": 1, "opponent": "checker"}),
        )
        .await;
    assert_eq!(code(r), (400, Some("bad_opponent".into())));
    let r = player
        .post("/api/computer/games", json!({"level": 1, "size": 30}))
        .await;
    assert_eq!(code(r), (400, Some("bad_size".into())));
    let r = player
        .post("/api/computer/games", json!({"level": 1, "sise": 9}))
        .await;
    assert_eq!(code(r), (422, Some("malformed".into())));
    let r = Client::anonymous(&server)
        .post("/api/computer/games", json!({"level": 1}))
        .await;
    assert_eq!(r.status, 401);
    // A challenge to the computer's account goes through its own route.
    let r = player
        .post("/api/challenges", json!({"opponent": "Shoutan-AI-4"}))
        .await;
    assert_eq!(code(r), (400, Some("computer_opponent".into())));
    // Nobody can take, or log in as, the computer's names.
    let r = Client::anonymous(&server)
        .post(
            "/api/accounts",
            json!({"name": "shoutan-ai-11", "password": "correct horse", "rank": "1d"}),
        )
        .await;
    assert_eq!(code(r), (400, Some("reserved_name".into())));
    let r = Client::anonymous(&server)
        .post(
            "/api/session",
            json!({"name": "Shoutan-AI-1", "password": "!computer"}),
        )
        .await;
    assert_eq!(code(r), (401, Some("bad_credentials".into())));
    // Nothing of this made a game; three games at once are the most. A
    // game against the computer is casual unless the player asks for rated.
    assert_eq!(player.get("/api/games").await.json, json!([]));
    let casual = player
        .post("/api/computer/games", json!({"level": 1, "size": 9}))
        .await;
    assert_eq!(casual.status, 201, "{}", casual.body);
    assert_eq!(casual.json["rated"], false, "{}", casual.body);
    for _ in 0..2 {
        let (_, rated) = computer_game(&player, 1).await;
        assert_eq!(rated["rated"], true, "{rated}");
    }
    let r = player
        .post("/api/computer/games", json!({"level": 1, "size": 9}))
        .await;
    assert_eq!(code(r), (409, Some("too_many_computer_games".into())));
}

crate::for_both_backends!(
    a_9x9_game_against_the_computer,
    the_computer_takes_its_seat_again_after_a_restart,
    the_computer_declares_its_measured_rank_after_a_restart,
    computer_requests_are_checked
);
