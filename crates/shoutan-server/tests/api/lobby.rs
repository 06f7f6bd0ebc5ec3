//! The lobby: challenges open or to a named player, with every setting;
//! accepted (the game starts) or withdrawn; pushed live over the lobby
//! WebSocket.

use serde_json::json;

use crate::common::{Backend, Client, TestServer, config};

async fn challenges_are_listed_and_pushed(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let ke = server.player("ke", "3d").await;
    let lee = server.player("lee", "1d").await;
    let zhou = server.player("zhou", "2d").await;
    let (mut watcher, snapshot) = Client::anonymous(&server).lobby().await;
    assert_eq!(snapshot["challenges"], json!([]));
    assert_eq!(snapshot["games"], json!([]));
    let (mut lee_lobby, _) = lee.lobby().await;

    // An open challenge with a custom ruleset, komi and time control.
    let open = ke
        .post(
            "/api/challenges",
            json!({"size": 13, "ruleset": "japanese", "komi": 5.5, "color": "white",
                   "time_control": "10 min + 5×30s byo-yomi", "rated": false}),
        )
        .await;
    assert_eq!(open.status, 201, "{}", open.body);
    let pushed = watcher.next_of("challenge_opened").await;
    assert_eq!(pushed["challenge"]["id"], open.json["id"]);
    assert_eq!(pushed["challenge"]["ruleset"], "japanese");
    assert_eq!(pushed["challenge"]["komi"], 5.5);
    assert_eq!(
        pushed["challenge"]["time_control"],
        "10 min + 5×30s byo-yomi"
    );
    assert_eq!(
        pushed["challenge"]["time_control_zh"],
        "基本用时10分钟，读秒5次30秒"
    );
    assert_eq!(pushed["challenge"]["challenger_rank"], "3d");

    // A challenge to lee: lee sees it, the anonymous watcher and zhou do not.
    let private = ke.post("/api/challenges", json!({"opponent": "lee"})).await;
    assert_eq!(private.status, 201);
    let to_lee = lee_lobby.next_of("challenge_opened").await;
    let to_lee = if to_lee["challenge"]["id"] == private.json["id"] {
        to_lee
    } else {
        lee_lobby.next_of("challenge_opened").await
    };
    assert_eq!(to_lee["challenge"]["opponent"], "lee");
    let listed = |c: &Client| {
        let c = c.clone();
        async move {
            c.get("/api/challenges")
                .await
                .json
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c["id"].as_i64().unwrap())
                .collect::<Vec<_>>()
        }
    };
    let (open_id, private_id) = (
        open.json["id"].as_i64().unwrap(),
        private.json["id"].as_i64().unwrap(),
    );
    assert_eq!(listed(&zhou).await, [open_id]);
    assert_eq!(listed(&lee).await, [open_id, private_id]);

    // Zhou accepts the open challenge: it closes and the game starts, with
    // the settings asked for.
    let game = zhou
        .post(&format!("/api/challenges/{open_id}/accept"), json!({}))
        .await;
    assert_eq!(game.status, 201, "{}", game.body);
    assert_eq!(watcher.next_of("challenge_closed").await["id"], open_id);
    let started = watcher.next_of("game_started").await;
    assert_eq!(started["game"]["white"]["name"], "ke");
    assert_eq!(started["game"]["black"]["name"], "zhou");
    assert_eq!(
        started["game"]["time_control_zh"],
        "基本用时10分钟，读秒5次30秒"
    );
    let id = game.json["id"].as_i64().unwrap();
    let view = zhou.game(id).await;
    assert_eq!(view["settings"]["size"], 13);
    assert_eq!(view["settings"]["komi"], 5.5);
    assert_eq!(view["settings"]["ruleset_name"], "japanese");
    assert_eq!(
        view["clock"]["white"]["main_left"], 600_000,
        "white's clock has not run"
    );
    assert_eq!(view["clock"]["running"], "black");
    assert_eq!(server.store.live_games().await.unwrap().len(), 1);
    let live = Client::anonymous(&server).get("/api/games").await.json;
    assert_eq!(live[0]["id"], id);

    // Ke withdraws the challenge to lee.
    assert_eq!(
        ke.delete(&format!("/api/challenges/{private_id}"))
            .await
            .status,
        204
    );
    loop {
        let closed = lee_lobby.next_of("challenge_closed").await;
        if closed["id"] == private_id {
            break;
        }
    }
    assert_eq!(listed(&lee).await, Vec::<i64>::new());

    // The game ends: the lobby hears of it.
    let mut z = zhou.ws(id, None).await;
    z.ok(json!({"type": "resign"})).await;
    let ended = watcher.next_of("game_ended").await;
    assert_eq!(ended["id"], id);
    assert_eq!(ended["result"]["international"], "W+R");
}

/// Automatic handicap: 2d against 1k gives black (the 1k) 2 stones on the
/// star points, no komi, and white to move first (Art. 10).
async fn automatic_and_free_handicaps(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let strong = server.player("strong", "2d").await;
    let weak = server.player("weak", "1k").await;
    let made = strong
        .post(
            "/api/challenges",
            json!({"size": 19, "handicap": {"kind": "auto"}}),
        )
        .await;
    let game = weak
        .post(
            &format!("/api/challenges/{}/accept", made.json["id"]),
            json!({}),
        )
        .await;
    let id = game.json["id"].as_i64().unwrap();
    let view = weak.game(id).await;
    assert_eq!(view["black"]["name"], "weak");
    assert_eq!(view["settings"]["handicap"], json!({"fixed": 2}));
    assert_eq!(view["settings"]["komi"], 0.0);
    assert_eq!(view["state"]["to_move"], "white");
    // The GTP table's two stones: D4 and Q16.
    assert_eq!(
        view["board"][15].as_str().unwrap().chars().nth(3),
        Some('X'),
        "D4"
    );
    assert_eq!(
        view["board"][3].as_str().unwrap().chars().nth(15),
        Some('X'),
        "Q16"
    );

    // A free handicap: black places the stones, then white moves.
    let made = strong
        .post(
            "/api/challenges",
            json!({"size": 9, "handicap": {"kind": "free", "stones": 2}, "color": "white", "rated": false}),
        )
        .await;
    assert_eq!(made.status, 201, "{}", made.body);
    let game = weak
        .post(
            &format!("/api/challenges/{}/accept", made.json["id"]),
            json!({}),
        )
        .await;
    let id = game.json["id"].as_i64().unwrap();
    let mut b = weak.ws(id, None).await;
    let mut w = strong.ws(id, None).await;
    assert_eq!(b.seen[0]["game"]["state"]["phase"], "setup");
    w.refused(
        json!({"type": "place_handicap", "points": ["C3", "G7"]}),
        "not_your_turn",
    )
    .await;
    b.refused(
        json!({"type": "place_handicap", "points": ["C3"]}),
        "bad_handicap",
    )
    .await;
    b.ok(json!({"type": "place_handicap", "points": ["C3", "G7"]}))
        .await;
    let view = weak.game(id).await;
    assert_eq!(view["state"]["phase"], "play");
    assert_eq!(view["state"]["to_move"], "white");
    w.play("E5").await;
}

/// A lobby of many games costs a visitor its newest few and his own, not
/// the whole list; the rest are paged.
async fn the_lobby_snapshot_is_bounded(backend: Backend) {
    let config = shoutan_server::ServerConfig {
        lobby_games: 3,
        ..config()
    };
    let Some(server) = TestServer::new(backend, config).await else {
        return;
    };
    let mut ids = Vec::new();
    let mut first_player = None;
    for _ in 0..5 {
        let (black, _white, id) = server.game(json!({})).await;
        first_player.get_or_insert(black);
        ids.push(id);
    }
    let listed = |snapshot: &serde_json::Value| {
        snapshot["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["id"].as_i64().unwrap())
            .collect::<Vec<_>>()
    };
    let (_lobby, snapshot) = Client::anonymous(&server).lobby().await;
    assert_eq!(
        listed(&snapshot),
        vec![ids[4], ids[3], ids[2]],
        "the newest three"
    );
    assert_eq!(snapshot["games_total"], 5);
    let (_lobby, own) = first_player.unwrap().lobby().await;
    assert_eq!(
        listed(&own),
        vec![ids[4], ids[3], ids[2], ids[0]],
        "and his own"
    );
    let page = Client::anonymous(&server)
        .get("/api/games?offset=1&limit=2")
        .await;
    assert_eq!(page.headers["x-total-count"], "5");
    let paged: Vec<i64> = page
        .json
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_i64().unwrap())
        .collect();
    assert_eq!(paged, vec![ids[3], ids[2]]);
    let refused = Client::anonymous(&server)
        .get("/api/games?limit=100000")
        .await;
    assert_eq!(
        (refused.status, refused.json["error"].as_str()),
        (400, Some("bad_page"))
    );
}

/// An event page's socket (`?view=events`) hears which events changed and
/// the viewer's own games starting, none of the server's other challenges
/// and games: a large event's players would otherwise be sent every board
/// of every round.
async fn an_event_page_hears_its_events_and_own_games(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let ke = server.player("ke", "1d").await;
    let lee = server.player("lee", "1d").await;
    let zhou = server.player("zhou", "1d").await;
    let (mut feed, snapshot) = zhou.lobby_at("/api/lobby/ws?view=events").await;
    assert_eq!(snapshot["challenges"], json!([]));

    // Ke and Lee's game starts and ends, unseen by Zhou's feed.
    let theirs = ke.game_with(&lee, json!({})).await;
    let mut b = ke.ws(theirs, None).await;
    b.ok(json!({"type": "resign"})).await;

    // Zhou's own game: the next frame his feed hears.
    let his = zhou.game_with(&ke, json!({})).await;
    let told = feed.next().await;
    assert_eq!(
        (&told["type"], &told["game"]["id"]),
        (&json!("game_started"), &json!(his))
    );

    // An event changing: the next frame again.
    let event = lee
        .post(
            "/api/events",
            json!({"name": "Club night", "system": {"kind": "round_robin", "cycles": 1}}),
        )
        .await;
    assert_eq!(event.status, 201, "{}", event.body);
    let told = feed.next().await;
    assert_eq!(
        (&told["type"], &told["id"]),
        (&json!("event_changed"), &event.json["id"])
    );

    // A new feed lists his own live game, and counts every live one.
    let (_, snapshot) = zhou.lobby_at("/api/lobby/ws?view=events").await;
    assert_eq!(snapshot["games"].as_array().map(Vec::len), Some(1));
    assert_eq!(snapshot["games"][0]["id"], his);
    assert_eq!(snapshot["games_total"], 1);

    let refused = zhou.get("/api/lobby/ws?view=everything").await;
    assert_eq!(
        (refused.status, refused.json["error"].as_str()),
        (400, Some("malformed")),
        "{}",
        refused.body
    );
}

crate::for_both_backends!(
    an_event_page_hears_its_events_and_own_games,
    the_lobby_snapshot_is_bounded,
    challenges_are_listed_and_pushed,
    automatic_and_free_handicaps
);
