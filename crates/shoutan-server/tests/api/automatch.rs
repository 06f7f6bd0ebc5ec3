//! Automatch over the lobby WebSocket: compatible seeks pair into one game
//! at once, never twice under concurrent seeks, incompatible ones wait,
//! and a seek ends when cancelled or when its connection closes.

use serde_json::{Value, json};

use crate::common::{Backend, Client, TestServer, Ws, config};

const QUICK: &str = "1 min + 3×10s byo-yomi";

/// Sends a seek and returns the answer (`seeking`, `paired` or `error`).
async fn seek(lobby: &mut Ws, seek: Value) -> Value {
    let mut message = json!({"type": "seek"});
    if let (Value::Object(m), Value::Object(extra)) = (&mut message, seek) {
        m.extend(extra);
    }
    lobby.send_text(message.to_string()).await;
    loop {
        let frame = lobby.next().await;
        if ["seeking", "paired", "error"].contains(&frame["type"].as_str().unwrap_or("")) {
            return frame;
        }
    }
}

fn quick(size: u32) -> Value {
    json!({"size": size, "time_control": QUICK})
}

/// The last `seekers` count pushed to `lobby` once it reaches `count`.
async fn seekers_reach(lobby: &mut Ws, count: u64) {
    loop {
        let frame = lobby.next_of("seekers").await;
        if frame["seekers"]["count"] == count {
            return;
        }
    }
}

async fn two_compatible_seeks_pair_into_one_game(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let ma = server.player("ma", "2k").await;
    let nie = server.player("nie", "2k").await;
    let (mut watcher, snapshot) = Client::anonymous(&server).lobby().await;
    assert_eq!(snapshot["seekers"]["count"], 0);
    let (mut a, _) = ma.lobby().await;
    let (mut b, _) = nie.lobby().await;
    let waiting = seek(&mut a, quick(9)).await;
    assert_eq!(waiting["type"], "seeking", "{waiting}");
    seekers_reach(&mut watcher, 1).await;
    let pushed = watcher.seen.last().unwrap().clone();
    assert_eq!(pushed["seekers"]["pools"][format!("9 {QUICK}")], 1);

    let paired = seek(&mut b, quick(9)).await;
    assert_eq!(paired["type"], "paired", "{paired}");
    let told = a.next_of("paired").await;
    assert_eq!(told["game"], paired["game"], "both land in the same game");
    seekers_reach(&mut watcher, 0).await;
    let game = ma.game(paired["game"].as_i64().unwrap()).await;
    let mut players = [
        game["black"]["name"].as_str().unwrap(),
        game["white"]["name"].as_str().unwrap(),
    ];
    players.sort_unstable();
    assert_eq!(players, ["ma", "nie"]);
    assert_eq!(game["settings"]["size"], 9);
    assert_eq!(game["settings"]["rated"], true);
    assert_eq!(game["settings"]["colors"]["by"], "nigiri", "{game}");
    assert_eq!(game["settings"]["handicap"], json!("none"));
}

async fn handicap_by_ranks_only_where_both_allow_it(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let weak = server.player("weak", "4k").await;
    let strong = server.player("strong", "1k").await;
    let (mut w, _) = weak.lobby().await;
    let (mut s, _) = strong.lobby().await;
    assert_eq!(seek(&mut w, quick(19)).await["type"], "seeking");
    let paired = seek(&mut s, quick(19)).await;
    let game = weak.game(paired["game"].as_i64().unwrap()).await;
    assert_eq!(game["black"]["name"], "weak", "the weaker takes black");
    assert_eq!(game["settings"]["handicap"], json!({"fixed": 3}), "{game}");

    // One seek refuses a handicap: the same ranks play even, by nigiri.
    let other = server.player("other", "4k").await;
    let (mut o, _) = other.lobby().await;
    let mut even = quick(19);
    even["handicap"] = json!(false);
    assert_eq!(seek(&mut o, even).await["type"], "seeking");
    let paired = seek(&mut s, quick(19)).await;
    let game = other.game(paired["game"].as_i64().unwrap()).await;
    assert_eq!(game["settings"]["handicap"], json!("none"), "{game}");
    assert_eq!(game["settings"]["colors"]["by"], "nigiri");
}

async fn incompatible_seeks_wait(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let p = [
        server.player("p1", "5k").await,
        server.player("p2", "5k").await,
        server.player("p3", "3d").await,
        server.player("p4", "5k").await,
    ];
    let mut lobbies = Vec::new();
    for client in &p {
        lobbies.push(client.lobby().await.0);
    }
    // Another board, another clock, casual against rated, a rank outside
    // the range asked (and a seeker outside the other's range).
    let kyus_only = json!({"size": 9, "time_control": QUICK, "max_rank": "1k"});
    assert_eq!(seek(&mut lobbies[0], kyus_only).await["type"], "seeking");
    assert_eq!(seek(&mut lobbies[1], quick(13)).await["type"], "seeking");
    let other_clock = json!({"size": 9, "time_control": "5 min + 3×30s byo-yomi"});
    assert_eq!(seek(&mut lobbies[1], other_clock).await["type"], "seeking");
    let casual = json!({"size": 9, "time_control": QUICK, "rated": false});
    assert_eq!(seek(&mut lobbies[1], casual).await["type"], "seeking");
    let dans_only = json!({"size": 9, "time_control": QUICK, "min_rank": "1d"});
    assert_eq!(seek(&mut lobbies[2], dans_only).await["type"], "seeking");
    let kyus_only = json!({"size": 9, "time_control": QUICK, "max_rank": "1k"});
    let (mut watcher, _) = Client::anonymous(&server).lobby().await;
    assert_eq!(
        seek(&mut lobbies[2], kyus_only).await["type"],
        "seeking",
        "3d is outside their ranges"
    );
    seekers_reach(&mut watcher, 3).await;
    // A bad range and a bad clock are refused with their codes.
    let bad = json!({"size": 9, "time_control": QUICK, "min_rank": "1d", "max_rank": "5k"});
    assert_eq!(seek(&mut lobbies[3], bad).await["code"], "bad_rank_range");
    let bad = json!({"size": 9, "time_control": "forever"});
    assert_eq!(seek(&mut lobbies[3], bad).await["code"], "bad_time_control");
    let (mut anonymous, _) = Client::anonymous(&server).lobby().await;
    assert_eq!(
        seek(&mut anonymous, quick(9)).await["code"],
        "login_required"
    );
    // The compatible one pairs with the first.
    let paired = seek(&mut lobbies[3], quick(9)).await;
    assert_eq!(paired["type"], "paired");
    assert_eq!(lobbies[0].next_of("paired").await["game"], paired["game"]);
    assert_eq!(
        p[1].get("/api/games").await.json.as_array().unwrap().len(),
        1
    );
}

async fn cancelled_and_closed_seeks_pair_no_one(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let a = server.player("ana", "5k").await;
    let b = server.player("bob", "5k").await;
    let c = server.player("cai", "5k").await;
    let (mut watcher, _) = Client::anonymous(&server).lobby().await;
    let (mut la, _) = a.lobby().await;
    assert_eq!(seek(&mut la, quick(9)).await["type"], "seeking");
    seekers_reach(&mut watcher, 1).await;
    la.send_text(json!({"type": "cancel_seek"}).to_string())
        .await;
    assert_eq!(la.next_of("seek_cancelled").await["type"], "seek_cancelled");
    seekers_reach(&mut watcher, 0).await;
    // A seek whose connection closes is withdrawn.
    let (mut lb, _) = b.lobby().await;
    assert_eq!(seek(&mut lb, quick(9)).await["type"], "seeking");
    seekers_reach(&mut watcher, 1).await;
    lb.close().await;
    seekers_reach(&mut watcher, 0).await;
    let (mut lc, _) = c.lobby().await;
    assert_eq!(
        seek(&mut lc, quick(9)).await["type"],
        "seeking",
        "nobody left to pair with"
    );
}

async fn twenty_concurrent_seekers_make_ten_games(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let mut lobbies = Vec::new();
    for i in 0..20 {
        let player = server.player(&format!("s{i}"), "5k").await;
        lobbies.push(player.lobby().await.0);
    }
    let tasks: Vec<_> = lobbies
        .into_iter()
        .map(|mut lobby| {
            tokio::spawn(async move {
                let answer = seek(&mut lobby, quick(9)).await;
                match answer["type"].as_str() {
                    Some("paired") => answer["game"].as_i64().unwrap(),
                    Some("seeking") => lobby.next_of("paired").await["game"].as_i64().unwrap(),
                    _ => panic!("{answer}"),
                }
            })
        })
        .collect();
    let mut games = std::collections::BTreeMap::new();
    for task in tasks {
        *games.entry(task.await.unwrap()).or_insert(0) += 1;
    }
    assert_eq!(games.len(), 10, "{games:?}");
    assert!(
        games.values().all(|&n| n == 2),
        "two players per game: {games:?}"
    );
    let listed = Client::anonymous(&server).get("/api/games").await;
    assert_eq!(listed.headers["x-total-count"], "10", "{}", listed.body);
}

crate::for_both_backends!(
    two_compatible_seeks_pair_into_one_game,
    handicap_by_ranks_only_where_both_allow_it,
    incompatible_seeks_wait,
    cancelled_and_closed_seeks_pair_no_one,
    twenty_concurrent_seekers_make_ten_games,
);
