//! Tournaments online: a Swiss of six players over three rounds and a
//! knockout of four, run end to end with the players' clients playing the
//! games over WebSockets, so that results enter by themselves; a
//! withdrawal, a forfeit for a no-show, 403 for whoever does not run the
//! event, the standings checked against the tournament crate's for the
//! same results, and the event rebuilt after a restart.

use std::collections::HashMap;
use std::time::Duration;

use serde_json::{Value, json};
use shoutan_tournament::{Entrant, NewPlayer, Outcome, PlayerId, Settings, Tournament};

use shoutan_server::ServerConfig;
use shoutan_server::accounts::rate_limit::Limit;

use crate::common::{Backend, Client, TestServer};

/// The test configuration, with room for a whole field of new accounts.
fn config() -> ServerConfig {
    ServerConfig {
        register_per_address: Limit::new(50, Duration::from_millis(10)),
        ..crate::common::config()
    }
}

/// Waits until the event satisfies `done`, and returns it.
async fn until(client: &Client, id: i64, what: &str, done: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..200 {
        let event = client.get(&format!("/api/events/{id}")).await;
        assert_eq!(event.status, 200, "{}", event.body);
        if done(&event.json) {
            return event.json;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the event never reached: {what}");
}

fn round_complete(round: u64) -> impl Fn(&Value) -> bool {
    move |e: &Value| e["rounds"][round as usize - 1]["complete"] == json!(true)
}

/// Plays one game of a round: a move each, then the player with the higher
/// number resigns (so the lower number wins).
async fn play(players: &HashMap<u64, Client>, game: &Value) {
    let id = game["game"].as_i64().expect("an online game");
    let black = &players[&game["black"]["number"].as_u64().unwrap()];
    let white = &players[&game["white"]["number"].as_u64().unwrap()];
    let mut b = black.ws(id, None).await;
    let mut w = white.ws(id, None).await;
    b.play("E5").await;
    w.play("C3").await;
    let loser = if game["black"]["number"].as_u64() > game["white"]["number"].as_u64() {
        &mut b
    } else {
        &mut w
    };
    loser.ok(json!({"type": "resign"})).await;
    b.close().await;
    w.close().await;
}

/// The organiser creates an event with `settings`; its id.
async fn create_event(organiser: &Client, settings: Value) -> i64 {
    let made = organiser.post("/api/events", settings).await;
    assert_eq!(made.status, 201, "{}", made.body);
    made.json["id"].as_i64().unwrap()
}

async fn register(server: &TestServer, id: i64, names: &[&str]) -> HashMap<u64, Client> {
    let mut players = HashMap::new();
    for (i, name) in names.iter().enumerate() {
        let client = server.player(name, &format!("{}k", 1 + i)).await;
        let joined = client
            .post(&format!("/api/events/{id}/registration"), json!({}))
            .await;
        assert_eq!(joined.status, 201, "{}", joined.body);
        assert_eq!(joined.json["you"]["player"], json!(i + 1));
        players.insert(i as u64 + 1, client);
    }
    players
}

fn standing_rows(standings: &Value) -> Vec<(String, u64, Vec<String>)> {
    standings["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["name"].as_str().unwrap().to_owned(),
                r["place"].as_u64().unwrap(),
                r["values"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_str().unwrap().to_owned())
                    .collect(),
            )
        })
        .collect()
}

/// The same event run directly through the tournament crate, from the
/// settings, players, withdrawals and results the server shows.
fn direct(event: &Value, withdrawals: &[(u32, u64)]) -> Tournament {
    let settings: Settings = serde_json::from_value(event["config"]["settings"].clone()).unwrap();
    let mut t = Tournament::new(event["config"]["name"].as_str().unwrap(), settings).unwrap();
    for p in event["players"].as_array().unwrap() {
        t.add_player(NewPlayer {
            name: p["name"].as_str().unwrap().to_owned(),
            rank: p["rank"].as_str().map(|r| r.parse().unwrap()),
            ..NewPlayer::default()
        })
        .unwrap();
    }
    for round in event["rounds"].as_array().unwrap() {
        let number = round["number"].as_u64().unwrap() as u32;
        for &(before, player) in withdrawals {
            if before == number {
                t.withdraw(Entrant::Player(PlayerId(player as u32 - 1)))
                    .unwrap();
            }
        }
        let paired = t.pair_next_round().unwrap().clone();
        assert_eq!(paired.games.len(), round["games"].as_array().unwrap().len());
        for (ours, theirs) in paired.games.iter().zip(round["games"].as_array().unwrap()) {
            assert_eq!(
                u64::from(ours.black.0 + 1),
                theirs["black"]["number"].as_u64().unwrap()
            );
            assert_eq!(
                u64::from(ours.white.0 + 1),
                theirs["white"]["number"].as_u64().unwrap()
            );
            // A game still being played has no result yet.
            if let Some(result) = theirs["result"].as_str() {
                let outcome: Outcome = result.parse().unwrap();
                t.record(number, ours.table, outcome).unwrap();
            }
        }
    }
    t
}

fn expected_rows(t: &Tournament) -> Vec<(String, u64, Vec<String>)> {
    rows_of(&t.standings())
}

fn rows_of(s: &shoutan_tournament::Standings) -> Vec<(String, u64, Vec<String>)> {
    s.rows
        .iter()
        .map(|r| {
            (
                r.name.clone(),
                u64::from(r.place),
                (0..s.columns.len())
                    .map(|c| s.shown(r, c).to_string())
                    .collect(),
            )
        })
        .collect()
}

async fn a_swiss_of_six_over_three_rounds(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let organiser = server.player("organiser", "2d").await;
    let id = create_event(
        &organiser,
        json!({
            "name": "Autumn Swiss",
            "system": {"kind": "swiss"},
            "rounds": 3,
            "tie_breaks": ["points", "sos", "sosos", "sb"],
            "size": 9,
            "rated": false,
            "time_control": "10 min + 3×30s byo-yomi",
        }),
    )
    .await;
    let players = register(&server, id, &["ann", "bob", "cai", "dee", "eli", "fay"]).await;

    // Nobody but the organiser and arbiters changes the event.
    let outsider = server.player("outsider", "3k").await;
    let refused = outsider
        .post(&format!("/api/events/{id}/rounds"), json!({}))
        .await;
    assert_eq!(refused.status, 403, "{}", refused.body);
    assert_eq!(refused.json["error"], "not_arbiter");
    let refused = players[&1]
        .post(
            &format!("/api/events/{id}/players"),
            json!({"name": "Ghost"}),
        )
        .await;
    assert_eq!(refused.status, 403);
    let anonymous = Client::anonymous(&server)
        .post(&format!("/api/events/{id}/rounds"), json!({}))
        .await;
    assert_eq!(anonymous.status, 401);
    // An appointed arbiter may.
    let arbiter = server.player("arbiter", "1d").await;
    let appointed = organiser
        .post(
            &format!("/api/events/{id}/arbiters"),
            json!({"name": "arbiter"}),
        )
        .await;
    assert_eq!(appointed.status, 200, "{}", appointed.body);
    // So may the server's arbiters (a role the operator grants), appointed
    // or not.
    let referee = server.player("referee", "1d").await;
    let before = referee
        .post(
            &format!("/api/events/{id}/players"),
            json!({"name": "Ghost"}),
        )
        .await;
    assert_eq!(before.json["error"], "not_arbiter");
    let account = server.store.user_by_name("referee").await.unwrap().unwrap();
    let roles = shoutan_store::Roles::default().with(shoutan_store::Role::Arbiter, true);
    assert!(server.store.set_roles(account.id, roles).await.unwrap());

    let mut withdrawals = Vec::new();
    for round in 1..=3u64 {
        if round == 3 {
            // Fay withdraws herself before round 3: she is not paired again.
            let gone = players[&6]
                .delete(&format!("/api/events/{id}/registration"))
                .await;
            assert_eq!(gone.status, 200, "{}", gone.body);
            assert_eq!(gone.json["players"][5]["withdrawn_from"], 3);
            withdrawals.push((3, 6));
        }
        let who = match round {
            2 => &arbiter,
            3 => &referee,
            _ => &organiser,
        };
        let started = who
            .post(&format!("/api/events/{id}/rounds"), json!({}))
            .await;
        assert_eq!(started.status, 201, "{}", started.body);
        assert_eq!(started.json["number"], round);
        let games = started.json["games"].as_array().unwrap().clone();
        assert_eq!(games.len(), if round == 3 { 2 } else { 3 });
        if round == 3 {
            assert_eq!(started.json["byes"].as_array().unwrap().len(), 1);
        }
        // Every player sees his own game.
        for g in &games {
            let me = players[&g["black"]["number"].as_u64().unwrap()]
                .get(&format!("/api/events/{id}"))
                .await;
            assert_eq!(me.json["you"]["next_game"]["game"], g["game"]);
            // The game has the event's settings and the pairing's colours.
            let live = players[&1].game(g["game"].as_i64().unwrap()).await;
            assert_eq!(live["settings"]["size"], 9);
            assert_eq!(live["black"]["name"], g["black"]["name"]);
            assert_eq!(live["white"]["name"], g["white"]["name"]);
            assert_eq!(live["settings"]["time_control"], "10 min + 3×30s byo-yomi");
        }
        for g in &games {
            play(&players, g).await;
        }
        let event = until(&organiser, id, "the round's results", round_complete(round)).await;
        for g in event["rounds"][round as usize - 1]["games"]
            .as_array()
            .unwrap()
        {
            let lower_black = g["black"]["number"].as_u64() < g["white"]["number"].as_u64();
            assert_eq!(g["result"], if lower_black { "B+" } else { "W+" }, "{g}");
        }
    }

    let event = organiser.get(&format!("/api/events/{id}")).await.json;
    let standings = organiser.get(&format!("/api/events/{id}/standings")).await;
    assert_eq!(standings.status, 200);
    assert_eq!(
        standings.json["columns"],
        json!(["POINTS", "SOS", "SOSOS", "SB"])
    );
    assert_eq!(standings.json["rounds"], 3);
    let expected = expected_rows(&direct(&event, &withdrawals));
    assert_eq!(standing_rows(&standings.json), expected);
    assert_eq!(expected[0].0, "ann", "ann beat everyone she met");

    // The crosstable: places, wins and totals as in the standings.
    let cross = organiser
        .get(&format!("/api/events/{id}/crosstable"))
        .await
        .json;
    assert_eq!(cross["columns"], standings.json["columns"]);
    let rows = cross["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 6);
    assert_eq!(rows[0]["cells"].as_array().unwrap().len(), 3);
    for (c, s) in rows.iter().zip(standings.json["rows"].as_array().unwrap()) {
        for key in ["name", "place", "shared", "wins", "values"] {
            assert_eq!(c[key], s[key], "{key}: {c} {s}");
        }
    }
    assert_eq!(rows[0]["wins"], 3, "ann won her three games: {cross}");

    // The log says who did what; results came from the games (no actor).
    let log = organiser.get(&format!("/api/events/{id}/log")).await.json;
    let log = log.as_array().unwrap();
    assert_eq!(log[0]["action"]["type"], "create");
    assert_eq!(log[0]["actor"]["name"], "organiser");
    let results: Vec<&Value> = log
        .iter()
        .filter(|l| l["action"]["type"] == "result")
        .collect();
    assert_eq!(results.len(), 8);
    assert!(
        results
            .iter()
            .all(|l| l["actor"].is_null() && l["action"]["game"].is_i64())
    );
    let round2 = log
        .iter()
        .filter(|l| l["action"]["type"] == "start_round")
        .nth(1)
        .unwrap();
    assert_eq!(round2["actor"]["name"], "arbiter");

    // Everything survives a restart.
    let exported = organiser
        .get(&format!("/api/events/{id}/export/trf"))
        .await
        .body;
    let server = server.restart(Duration::from_millis(200), config()).await;
    let mut organiser = organiser;
    organiser.base = server.base.clone();
    let after = organiser.get(&format!("/api/events/{id}")).await;
    assert_eq!(after.status, 200, "{}", after.body);
    assert_eq!(after.json["rounds"], event["rounds"]);
    assert_eq!(after.json["players"], event["players"]);
    assert_eq!(after.json["you"]["can_change"], true);
    let standings_after = organiser.get(&format!("/api/events/{id}/standings")).await;
    assert_eq!(standing_rows(&standings_after.json), expected);
    let log_after = organiser.get(&format!("/api/events/{id}/log")).await.json;
    assert_eq!(log_after.as_array().unwrap().len(), log.len());
    assert_eq!(
        organiser
            .get(&format!("/api/events/{id}/export/trf"))
            .await
            .body,
        exported
    );
    // Bad input changes nothing.
    let bad = organiser
        .post(
            &format!("/api/events/{id}/rounds/1/tables/1/result"),
            json!({"result": "B+many"}),
        )
        .await;
    assert_eq!(bad.status, 400);
    assert_eq!(bad.json["error"], "bad_result");
    let over = organiser
        .post(&format!("/api/events/{id}/rounds"), json!({}))
        .await;
    assert_eq!(over.status, 409, "{}", over.body);
    let same = organiser.get(&format!("/api/events/{id}/log")).await.json;
    assert_eq!(same.as_array().unwrap().len(), log.len());

    // Arbiters' warnings and rulings: the second warning loses the game.
    let table = &event["rounds"][2]["games"][0];
    let black = table["black"]["number"].clone();
    let at = format!("/api/events/{id}/rounds/3/tables/{}", table["table"]);
    let mut outsider = outsider;
    outsider.base = server.base.clone();
    let refused = outsider
        .post(&format!("{at}/warning"), json!({"player": black}))
        .await;
    assert_eq!(refused.status, 403);
    let once = organiser
        .post(&format!("{at}/warning"), json!({"player": black}))
        .await;
    assert_eq!(once.status, 200, "{}", once.body);
    let game = |e: &Value| e["rounds"][2]["games"][0].clone();
    assert_eq!(game(&once.json)["warnings"], json!([1, 0]));
    assert_eq!(game(&once.json)["result"], table["result"]);
    let twice = organiser
        .post(&format!("{at}/warning"), json!({"player": black}))
        .await;
    assert_eq!(game(&twice.json)["warnings"], json!([2, 0]));
    assert_eq!(game(&twice.json)["result"], "W+", "a second warning loses");
    let replay = organiser
        .post(
            &format!("{at}/ruling"),
            json!({"ruling": "replay", "reason": "clock fault"}),
        )
        .await;
    assert_eq!(replay.status, 200, "{}", replay.body);
    assert!(game(&replay.json)["result"].is_null());
    let forfeit = organiser
        .post(
            &format!("{at}/ruling"),
            json!({"ruling": "forfeit", "color": "black", "reason": "left the venue"}),
        )
        .await;
    assert_eq!(game(&forfeit.json)["result"], "W+F");
    let vague = organiser
        .post(&format!("{at}/ruling"), json!({"ruling": "forfeit"}))
        .await;
    assert_eq!(vague.status, 400);
    assert_eq!(vague.json["error"], "bad_ruling");
    let log = organiser.get(&format!("/api/events/{id}/log")).await.json;
    let last = log.as_array().unwrap().last().unwrap();
    assert_eq!(last["actor"]["name"], "organiser");
    assert_eq!(last["action"]["reason"], "left the venue");
}

async fn a_knockout_of_four_with_a_no_show(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let organiser = server.player("organiser", "2d").await;
    let id = create_event(
        &organiser,
        json!({
            "name": "Cup",
            "system": {"kind": "knockout", "losses": 1},
            "size": 9,
            "rated": false,
            "late_arrival_ms": 1500,
        }),
    )
    .await;
    let players = register(&server, id, &["kai", "lin", "max", "ned"]).await;

    let started = organiser
        .post(&format!("/api/events/{id}/rounds"), json!({}))
        .await;
    assert_eq!(started.status, 201, "{}", started.body);
    let games = started.json["games"].as_array().unwrap().clone();
    assert_eq!(games.len(), 2);
    // Table 1 is played; at table 2 white comes and black never appears:
    // the game's clock declares black's forfeit at the limit (Art. 22).
    play(&players, &games[0]).await;
    let absent = &games[1];
    let game_id = absent["game"].as_i64().unwrap();
    let white = &players[&absent["white"]["number"].as_u64().unwrap()];
    let mut w = white.ws(game_id, None).await;
    let forfeit = w.event("absent_forfeit").await;
    assert_eq!(forfeit["event"]["color"], "black");
    assert_eq!(forfeit["state"]["status"], "finished");
    assert_eq!(forfeit["state"]["result"]["international"], "W+F");
    assert_eq!(forfeit["state"]["result"]["chinese"], "白不战胜");
    let late = forfeit["at"].as_u64().unwrap() as i64
        - until(&organiser, id, "round 1", |_| true).await["rounds"][0]["started_at"]
            .as_i64()
            .unwrap();
    assert!(
        late > 1500,
        "forfeited {late} ms after the start, within the limit"
    );
    w.close().await;
    let event = until(&organiser, id, "the no-show's forfeit", round_complete(1)).await;
    assert_eq!(event["rounds"][0]["games"][1]["result"], "W+F");
    let log = organiser.get(&format!("/api/events/{id}/log")).await.json;
    let entry = log
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["action"]["type"] == "result" && l["action"]["game"] == json!(game_id))
        .expect("the forfeit is logged");
    assert!(entry["actor"].is_null());
    assert_eq!(entry["action"]["outcome"], "W+F");

    let final_round = organiser
        .post(&format!("/api/events/{id}/rounds"), json!({}))
        .await;
    assert_eq!(final_round.status, 201, "{}", final_round.body);
    let finals = final_round.json["games"].as_array().unwrap().clone();
    assert_eq!(finals.len(), 1);
    play(&players, &finals[0]).await;
    let event = until(&organiser, id, "the final's result", round_complete(2)).await;

    let bracket = organiser
        .get(&format!("/api/events/{id}/bracket"))
        .await
        .json;
    assert_eq!(bracket.as_array().unwrap().len(), 2);
    let champion = bracket[1]["matches"][0]["winner"]
        .as_str()
        .unwrap()
        .to_owned();
    let standings = organiser
        .get(&format!("/api/events/{id}/standings"))
        .await
        .json;
    assert_eq!(standings["rows"][0]["name"], champion);
    assert_eq!(
        standing_rows(&standings),
        expected_rows(&direct(&event, &[]))
    );

    for (format, needle) in [
        ("opengotha", "<Tournament"),
        ("h9", "kai"),
        ("trf", "kai"),
        ("html", "<html"),
    ] {
        let file = organiser
            .get(&format!("/api/events/{id}/export/{format}"))
            .await;
        assert_eq!(file.status, 200, "{format}");
        assert!(file.body.contains(needle), "{format}: {}", file.body);
        let disposition = file.headers["content-disposition"].to_str().unwrap();
        assert!(disposition.starts_with("attachment"), "{format}");
    }
    let unknown = organiser.get(&format!("/api/events/{id}/export/pdf")).await;
    assert_eq!(unknown.status, 404);
}

async fn a_round_starts_by_itself_at_its_time(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let organiser = server.player("organiser", "2d").await;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    let id = create_event(
        &organiser,
        json!({
            "name": "Timed",
            "system": {"kind": "round_robin", "cycles": 1},
            "size": 9,
            "round_times": [now + 1500],
        }),
    )
    .await;
    let players = register(&server, id, &["pat", "quinn"]).await;
    let early = organiser.get(&format!("/api/events/{id}")).await.json;
    assert_eq!(early["rounds"], json!([]), "not before its time");
    let event = until(&organiser, id, "round 1 at its time", |e| {
        e["rounds"].as_array().is_some_and(|r| r.len() == 1)
    })
    .await;
    let started = event["rounds"][0]["started_at"].as_i64().unwrap();
    assert!(
        started >= now + 1500,
        "started {} ms early",
        now + 1500 - started
    );
    let game = &event["rounds"][0]["games"][0];
    assert!(game["game"].is_i64(), "the game was created: {game}");
    let log = organiser.get(&format!("/api/events/{id}/log")).await.json;
    let start = log
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["action"]["type"] == "start_round")
        .unwrap();
    assert!(start["actor"].is_null(), "the server started it");
    // Registration closed with round 1; the round is played as usual.
    let late = server.player("late", "9k").await;
    let refused = late
        .post(&format!("/api/events/{id}/registration"), json!({}))
        .await;
    assert_eq!(refused.status, 409);
    assert_eq!(refused.json["error"], "registration_closed");
    play(&players, game).await;
    until(&organiser, id, "the result", round_complete(1)).await;
}

/// An event of two players with "10 min + 3×30s byo-yomi" and a
/// late-arrival limit of `limit_ms`, its round 1 started: the server, the
/// organiser, the event's id, the players and the round's game.
async fn duel(
    backend: Backend,
    limit_ms: u64,
) -> Option<(TestServer, Client, i64, HashMap<u64, Client>, Value)> {
    let server = TestServer::new(backend, config()).await?;
    let organiser = server.player("organiser", "2d").await;
    let id = create_event(
        &organiser,
        json!({
            "name": "Duel",
            "system": {"kind": "round_robin", "cycles": 1},
            "size": 9,
            "rated": false,
            "time_control": "10 min + 3×30s byo-yomi",
            "late_arrival_ms": limit_ms,
        }),
    )
    .await;
    let players = register(&server, id, &["pat", "quinn"]).await;
    let started = organiser
        .post(&format!("/api/events/{id}/rounds"), json!({}))
        .await;
    assert_eq!(started.status, 201, "{}", started.body);
    let game = started.json["games"][0].clone();
    Some((server, organiser, id, players, game))
}

fn seat<'a>(players: &'a HashMap<u64, Client>, game: &Value, color: &str) -> &'a Client {
    &players[&game[color]["number"].as_u64().unwrap()]
}

async fn a_late_player_is_charged_twice_the_time_late(backend: Backend) {
    let Some((server, organiser, id, players, game)) = duel(backend, 60_000).await else {
        return;
    };
    let game_id = game["game"].as_i64().unwrap();
    let started = organiser.get(&format!("/api/events/{id}")).await.json["rounds"][0]["started_at"]
        .as_i64()
        .unwrap();
    let mut w = seat(&players, &game, "white").ws(game_id, None).await;
    assert_eq!(w.event("sit_down").await["event"]["color"], "white");
    // Black comes about 1.5 s late and plays at once.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let mut b = seat(&players, &game, "black").ws(game_id, None).await;
    let arrived = w.event("sit_down").await;
    assert_eq!(arrived["event"]["color"], "black");
    let late = arrived["at"].as_i64().unwrap() - started;
    assert!(late >= 1500, "black was only {late} ms late");
    let left = arrived["clock"]["black"]["main_left"].as_i64().unwrap();
    assert!(
        (left - (600_000 - 2 * late)).abs() <= 2,
        "{late} ms late left {left} ms"
    );
    let white_left = arrived["clock"]["white"]["main_left"].as_i64().unwrap();
    assert!(
        600_000 - white_left < 1000,
        "white came at once: {white_left}"
    );
    b.play("E5").await;
    let moved = w.move_event("E5").await;
    let after_move = moved["clock"]["black"]["main_left"].as_i64().unwrap();
    assert!(after_move <= left);
    b.close().await;
    w.close().await;

    // After a restart the replayed log gives the same charge.
    let server = server.restart(Duration::from_millis(200), config()).await;
    let mut organiser = organiser;
    organiser.base = server.base.clone();
    let view = organiser.game(game_id).await;
    assert_eq!(
        view["clock"]["black"]["main_left"],
        json!(after_move),
        "{view}"
    );
}

/// An event's game waits for both players (Art. 22): the state says who
/// has sat down, and Black's move before White has is refused with
/// `not_started` and changes nothing, as is a claim that White abandoned
/// it (he loses at the late-arrival limit instead); once White sits down
/// the move is taken.
async fn no_move_is_taken_before_both_players_sit_down(backend: Backend) {
    let Some((_server, _organiser, _id, players, game)) = duel(backend, 60_000).await else {
        return;
    };
    let game_id = game["game"].as_i64().unwrap();
    let mut b = seat(&players, &game, "black").ws(game_id, None).await;
    let sat = b.event("sit_down").await;
    assert_eq!(
        sat["state"]["seated"],
        json!({"black": true, "white": false}),
        "{sat}"
    );
    let refused = b
        .refused(json!({"type": "move", "point": "E5"}), "not_started")
        .await;
    assert!(
        refused["message"].as_str().unwrap().contains("sat down"),
        "{refused}"
    );
    // Past the test server's 1 s abandonment wait, which does not apply.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    b.refused(json!({"type": "claim_win"}), "not_started").await;
    let view = seat(&players, &game, "black").game(game_id).await;
    assert_eq!(view["moves"], json!([]), "{view}");
    assert_eq!(view["state"]["status"], "live");
    assert_eq!(
        view["state"]["seated"],
        json!({"black": true, "white": false})
    );

    let mut w = seat(&players, &game, "white").ws(game_id, None).await;
    let both = b.event("sit_down").await;
    assert_eq!(both["event"]["color"], "white");
    assert!(both["state"].get("seated").is_none(), "{both}");
    b.play("E5").await;
    assert_eq!(w.move_event("E5").await["state"]["moves"], 1);
}

/// Posts an arbiter's decision (`kind`: `ruling` or `result`, with `body`)
/// on a duel's table while its game is being played, and checks that it
/// ends the game on both players' sockets (`international`, `chinese`),
/// refuses further moves, decides the table (`table_result`) and is stored.
async fn decide_live_table(
    backend: Backend,
    kind: &str,
    body: Value,
    [international, chinese, table_result]: [&str; 3],
) {
    let Some((_server, organiser, id, players, game)) = duel(backend, 60_000).await else {
        return;
    };
    let game_id = game["game"].as_i64().unwrap();
    let mut b = seat(&players, &game, "black").ws(game_id, None).await;
    let mut w = seat(&players, &game, "white").ws(game_id, None).await;
    b.play("E5").await;
    w.play("C3").await;
    let at = format!("/api/events/{id}/rounds/1/tables/{}", game["table"]);
    let decided = organiser.post(&format!("{at}/{kind}"), body).await;
    assert_eq!(decided.status, 200, "{}", decided.body);
    for ws in [&mut b, &mut w] {
        let frame = ws.event("ruling").await;
        assert_eq!(frame["state"]["status"], "finished");
        assert_eq!(frame["state"]["result"]["international"], international);
        assert_eq!(frame["state"]["result"]["chinese"], chinese);
    }
    b.refused(json!({"type": "move", "point": "D4"}), "game_over")
        .await;
    let event = until(&organiser, id, "the decision", round_complete(1)).await;
    assert_eq!(event["rounds"][0]["games"][0]["result"], table_result);
    let stored = organiser.game(game_id).await;
    assert_eq!(
        stored["state"]["result"]["international"], international,
        "{stored}"
    );
}

async fn a_ruling_ends_the_live_game(backend: Backend) {
    decide_live_table(
        backend,
        "ruling",
        json!({"ruling": "forfeit", "color": "black", "reason": "left the venue"}),
        ["W+F", "白不战胜", "W+F"],
    )
    .await;
}

/// A team match played online (分台定人制, two boards): each board's game
/// has one member of each team, the colours alternate from board to board,
/// both games are played on the server and the match counts both boards.
async fn a_team_match_on_two_boards(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let organiser = server.player("organiser", "2d").await;
    let id = create_event(
        &organiser,
        json!({
            "name": "Club match",
            "system": {"kind": "round_robin", "cycles": 1},
            "teams": {"boards": 2, "format": "fixed_boards"},
            "size": 9,
            "rated": false,
            "time_control": "10 min + 3×30s byo-yomi",
        }),
    )
    .await;
    let players = register(&server, id, &["ann", "bob", "cai", "dee"]).await;
    for (name, members) in [("Dragons", [1, 2]), ("Tigers", [3, 4])] {
        let team = organiser
            .post(
                &format!("/api/events/{id}/teams"),
                json!({"name": name, "members": members}),
            )
            .await;
        assert_eq!(team.status, 201, "{}", team.body);
    }
    let twice = organiser
        .post(
            &format!("/api/events/{id}/teams"),
            json!({"name": "Ghosts", "members": [3, 9]}),
        )
        .await;
    assert_eq!(twice.status, 409, "{}", twice.body);
    assert!(
        twice.json["message"]
            .as_str()
            .is_some_and(|m| m.contains("cai already plays for Tigers")),
        "{}",
        twice.body
    );

    let started = organiser
        .post(&format!("/api/events/{id}/rounds"), json!({}))
        .await;
    assert_eq!(started.status, 201, "{}", started.body);
    let games = started.json["games"].as_array().unwrap().clone();
    assert_eq!(games.len(), 2, "one game per board: {}", started.body);
    let dragon = |g: &Value, color: &str| g[color]["number"].as_u64().unwrap() <= 2;
    for g in &games {
        assert_ne!(dragon(g, "black"), dragon(g, "white"), "{g}");
        assert!(g["game"].is_i64(), "both boards are played online: {g}");
    }
    assert_ne!(
        dragon(&games[0], "black"),
        dragon(&games[1], "black"),
        "colours alternate by board"
    );
    for g in &games {
        play(&players, g).await;
    }
    let event = until(&organiser, id, "the match", round_complete(1)).await;
    for g in event["rounds"][0]["games"].as_array().unwrap() {
        let winner = if g["result"] == "B+" {
            "black"
        } else {
            "white"
        };
        assert!(dragon(g, winner), "the lower numbers win: {g}");
    }
    let standings = organiser
        .get(&format!("/api/events/{id}/standings"))
        .await
        .json;
    assert_eq!(
        standings["columns"],
        json!(["POINTS", "BOARD-POINTS", "B1", "B2"])
    );
    let rows = &standings["rows"];
    assert_eq!(rows[0]["name"], "Dragons", "{standings}");
    assert_eq!(
        rows[0]["values"],
        json!(["2", "4", "2", "2"]),
        "match and both boards won"
    );
    assert_eq!(rows[1]["name"], "Tigers", "{standings}");
    assert_eq!(rows[1]["values"], json!(["0", "0", "0", "0"]));
}

/// A line-up named for a match already paired (临场出人制): each board
/// whose players change gets a new online game, the old one ends as
/// replaced and does not count, and the match is decided by the new games.
async fn a_lineup_reseats_the_boards_it_changes(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let organiser = server.player("organiser", "2d").await;
    let id = create_event(
        &organiser,
        json!({
            "name": "Captains' cup",
            "system": {"kind": "round_robin", "cycles": 1},
            "teams": {"boards": 2, "format": "per_match"},
            "size": 9,
            "rated": false,
        }),
    )
    .await;
    let players = register(&server, id, &["ann", "bob", "cai", "dee", "eve", "fay"]).await;
    for (name, members) in [("Dragons", [1, 2, 3]), ("Tigers", [4, 5, 6])] {
        let team = organiser
            .post(
                &format!("/api/events/{id}/teams"),
                json!({"name": name, "members": members}),
            )
            .await;
        assert_eq!(team.status, 201, "{}", team.body);
    }
    let started = organiser
        .post(&format!("/api/events/{id}/rounds"), json!({}))
        .await;
    assert_eq!(started.status, 201, "{}", started.body);
    assert_eq!(started.json["matches"][0]["number"], 1, "{}", started.body);
    let before = started.json["games"].as_array().unwrap().clone();
    assert_eq!(
        before
            .iter()
            .map(|g| g["board"].clone())
            .collect::<Vec<_>>(),
        [json!(1), json!(2)]
    );
    let tigers = |g: &Value| -> Vec<u64> {
        ["black", "white"]
            .iter()
            .map(|c| g[*c]["number"].as_u64().unwrap())
            .filter(|&n| n > 3)
            .collect()
    };
    assert_eq!(
        before.iter().flat_map(tigers).collect::<Vec<_>>(),
        [4, 5],
        "the registered order"
    );
    let changed = organiser
        .post(
            &format!("/api/events/{id}/lineups"),
            json!({"round": 1, "team": 2, "players": [6, 4]}),
        )
        .await;
    assert_eq!(changed.status, 200, "{}", changed.body);
    let after = changed.json["rounds"][0]["games"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(after.iter().flat_map(tigers).collect::<Vec<_>>(), [6, 4]);
    for (old, new) in before.iter().zip(&after) {
        assert_ne!(old["game"], new["game"], "a new game: {new}");
        let ended = organiser.game(old["game"].as_i64().unwrap()).await;
        assert_eq!(ended["state"]["result"]["chinese"], "重下", "{ended}");
    }
    for g in &after {
        play(&players, g).await;
    }
    let event = until(&organiser, id, "the match", round_complete(1)).await;
    let results: Vec<_> = event["rounds"][0]["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["result"].clone())
        .collect();
    assert!(results.iter().all(Value::is_string), "{event}");
    let standings = organiser
        .get(&format!("/api/events/{id}/standings"))
        .await
        .json;
    assert_eq!(standings["rows"][0]["name"], "Dragons", "{standings}");
    assert_eq!(
        standings["rows"][0]["wins"], 1,
        "the match won: {standings}"
    );
}

/// A replay ruling (重下) ends the game on the board and seats the same
/// pairing at a new game, whose result then decides the table; the new
/// game is still the table's after a restart.
async fn a_replay_ruling_starts_a_new_game(backend: Backend) {
    let Some((server, organiser, id, players, game)) = duel(backend, 60_000).await else {
        return;
    };
    let first = game["game"].as_i64().unwrap();
    let mut b = seat(&players, &game, "black").ws(first, None).await;
    let mut w = seat(&players, &game, "white").ws(first, None).await;
    b.play("E5").await;
    let at = format!("/api/events/{id}/rounds/1/tables/{}", game["table"]);
    let ruled = organiser
        .post(
            &format!("{at}/ruling"),
            json!({"ruling": "replay", "reason": "the clock failed"}),
        )
        .await;
    assert_eq!(ruled.status, 200, "{}", ruled.body);
    for ws in [&mut b, &mut w] {
        let ended = ws.event("ruling").await;
        assert_eq!(ended["state"]["result"]["chinese"], "重下");
    }
    b.close().await;
    w.close().await;

    let table = &ruled.json["rounds"][0]["games"][0];
    assert!(table["result"].is_null(), "{table}");
    let second = table["game"].as_i64().unwrap();
    assert_ne!(second, first, "a new game for the replay");
    assert_eq!(table["black"], game["black"], "the same colours");
    let view = organiser.game(second).await;
    assert_eq!(view["state"]["status"], "live", "{view}");
    assert_eq!(view["moves"], json!([]), "{view}");

    let server = server.restart(Duration::from_millis(100), config()).await;
    let mut organiser = organiser;
    organiser.base = server.base.clone();
    let mut players = players;
    for p in players.values_mut() {
        p.base = server.base.clone();
    }
    let again = organiser.get(&format!("/api/events/{id}")).await.json;
    assert_eq!(again["rounds"][0]["games"][0]["game"], json!(second));
    play(&players, &again["rounds"][0]["games"][0]).await;
    let event = until(&organiser, id, "the replayed game", round_complete(1)).await;
    assert!(
        event["rounds"][0]["games"][0]["result"].is_string(),
        "{event}"
    );
}

/// A result the arbiter enters by hand for a table still being played
/// online ends the game there too: the players cannot play on a decided game.
async fn an_arbiters_result_ends_the_live_game(backend: Backend) {
    decide_live_table(
        backend,
        "result",
        json!({"result": "B+"}),
        ["B+J", "黑判胜", "B+"],
    )
    .await;
}

async fn warnings_reach_the_live_game(backend: Backend) {
    let Some((_server, organiser, id, players, game)) = duel(backend, 60_000).await else {
        return;
    };
    let game_id = game["game"].as_i64().unwrap();
    let mut b = seat(&players, &game, "black").ws(game_id, None).await;
    let mut w = seat(&players, &game, "white").ws(game_id, None).await;
    b.play("E5").await;
    let at = format!("/api/events/{id}/rounds/1/tables/{}", game["table"]);
    let black = game["black"]["number"].clone();
    let warned = organiser
        .post(&format!("{at}/warning"), json!({"player": black}))
        .await;
    assert_eq!(warned.status, 200, "{}", warned.body);
    let frame = b.event("warning").await;
    assert_eq!(frame["event"]["color"], "black");
    assert_eq!(frame["state"]["warnings"], json!({"black": 1, "white": 0}));
    assert_eq!(
        frame["state"]["status"], "live",
        "one warning does not end it"
    );
    // Play goes on; the second warning loses the game.
    w.play("C3").await;
    let again = organiser
        .post(&format!("{at}/warning"), json!({"player": black}))
        .await;
    assert_eq!(again.status, 200, "{}", again.body);
    for ws in [&mut b, &mut w] {
        let frame = ws.event("warning").await;
        if frame["state"]["warnings"]["black"] == json!(1) {
            continue;
        }
        assert_eq!(frame["state"]["warnings"]["black"], 2);
        assert_eq!(frame["state"]["status"], "finished");
        assert_eq!(frame["state"]["result"]["international"], "W+J");
        assert_eq!(frame["state"]["result"]["chinese"], "白判胜");
    }
    let seen: Vec<_> = w
        .seen
        .iter()
        .filter(|f| f["event"]["type"] == "warning")
        .collect();
    assert_eq!(seen.len(), 2, "white saw both warnings");
    assert_eq!(seen[1]["state"]["result"]["international"], "W+J");
    let event = until(&organiser, id, "the second warning", round_complete(1)).await;
    assert_eq!(event["rounds"][0]["games"][0]["result"], "W+");
}

async fn a_player_who_never_comes_forfeits_at_the_limit(backend: Backend) {
    let Some((_server, organiser, id, players, game)) = duel(backend, 1_000).await else {
        return;
    };
    let game_id = game["game"].as_i64().unwrap();
    let mut b = seat(&players, &game, "black").ws(game_id, None).await;
    let frame = b.event("absent_forfeit").await;
    assert_eq!(frame["event"]["color"], "white");
    assert_eq!(frame["state"]["result"]["international"], "B+F");
    assert_eq!(frame["state"]["result"]["chinese"], "黑不战胜");
    let event = until(&organiser, id, "the forfeit", round_complete(1)).await;
    assert_eq!(event["rounds"][0]["games"][0]["result"], "B+F");
    let late = frame["at"].as_i64().unwrap() - event["rounds"][0]["started_at"].as_i64().unwrap();
    assert!(late > 1_000, "forfeited after {late} ms, within the limit");
}

async fn standings_show_the_round_in_progress(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let organiser = server.player("organiser", "2d").await;
    let id = create_event(
        &organiser,
        json!({
            "name": "League",
            "system": {"kind": "round_robin", "cycles": 1},
            "size": 9,
            "rated": false,
        }),
    )
    .await;
    let players = register(&server, id, &["ann", "bob", "cat", "dan"]).await;
    let started = organiser
        .post(&format!("/api/events/{id}/rounds"), json!({}))
        .await;
    assert_eq!(started.status, 201, "{}", started.body);
    let games = started.json["games"].as_array().unwrap().clone();
    assert_eq!(games.len(), 2);
    let before = organiser
        .get(&format!("/api/events/{id}/standings"))
        .await
        .json;
    assert_eq!(before["live"]["rounds"], 1, "{before}");
    // One game of round 1 ends; the other is still being played.
    play(&players, &games[0]).await;
    let event = until(&organiser, id, "the first result", |e| {
        e["rounds"][0]["games"][0]["result"].is_string()
    })
    .await;
    assert!(event["rounds"][0]["games"][1]["result"].is_null());
    let standings = organiser
        .get(&format!("/api/events/{id}/standings"))
        .await
        .json;
    assert_eq!(standings["rounds"], 0, "no round is complete");
    assert!(
        standing_rows(&standings)
            .iter()
            .all(|(_, place, _)| *place == 1),
        "officially all are level: {standings}"
    );
    let t = direct(&event, &[]);
    assert_eq!(
        standing_rows(&standings["live"]),
        rows_of(&t.standings_after(1))
    );
    // The lower number won (2 points a win), alone in first place.
    let numbers = [&games[0]["black"]["number"], &games[0]["white"]["number"]];
    let winner = numbers.iter().map(|n| n.as_u64().unwrap()).min().unwrap();
    let first = &standings["live"]["rows"][0];
    assert_eq!(first["number"], winner, "{standings}");
    assert_eq!(first["place"], 1);
    assert!(
        first.get("shared").is_none(),
        "a place not shared is left out: {standings}"
    );
    assert!(standings["rows"][0]["shared"].as_bool().unwrap());
    assert_eq!(first["values"][0], "2", "the winner's points: {standings}");
    // What a page shows now: the live standings alone.
    let current = organiser
        .get(&format!("/api/events/{id}/standings/current"))
        .await
        .json;
    assert_eq!(current["live"], true, "{current}");
    let mut live = standings["live"].clone();
    live["live"] = json!(true);
    assert_eq!(current, live);
    // Compressed for a client that takes gzip, as browsers do.
    let gzipped = organiser
        .raw(
            reqwest::Method::GET,
            &format!("/api/events/{id}/standings/current"),
        )
        .header("accept-encoding", "gzip, deflate, br")
        .send()
        .await
        .unwrap();
    assert_eq!(gzipped.headers()["content-encoding"], "gzip");
    let bytes = gzipped.bytes().await.unwrap();
    let mut text = String::new();
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&bytes[..]), &mut text)
        .unwrap();
    assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), current);

    // Once the round is complete there is nothing in progress.
    play(&players, &games[1]).await;
    until(&organiser, id, "round 1", round_complete(1)).await;
    let done = organiser
        .get(&format!("/api/events/{id}/standings"))
        .await
        .json;
    assert_eq!(done["rounds"], 1);
    assert!(done["live"].is_null(), "{done}");
    let current = organiser
        .get(&format!("/api/events/{id}/standings/current"))
        .await
        .json;
    let mut official = done.clone();
    official["live"] = json!(false);
    assert_eq!(current, official, "the official standings once complete");
}

/// Every change of an event is said on the lobby socket (issue 20) — the
/// creation, a registration, a pairing, a result — with the event's
/// version, so that the event's pages fetch it again when it changes
/// instead of polling; the standings fetched at a told version come from
/// the server's cache, computed once for every watcher of that notice.
async fn the_lobby_socket_says_when_an_event_changes(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let organiser = server.player("organiser", "2d").await;
    let (mut watcher, _) = Client::anonymous(&server).lobby().await;
    let id = create_event(
        &organiser,
        json!({"name": "Over the board", "system": {"kind": "round_robin", "cycles": 1}}),
    )
    .await;
    let mut versions = Vec::new();
    let mut told = async |what: &str| {
        let frame = watcher.next_of("event_changed").await;
        assert_eq!(frame["id"], id, "{what}: {frame}");
        let version = frame["version"].as_u64().expect("a version");
        assert!(
            versions.last() < Some(&version),
            "{what}: {frame} after {versions:?}"
        );
        versions.push(version);
        version
    };
    told("created").await;
    // The head, the page's top, is served at a told version from a
    // snapshot, as the standings are: one build for every watcher woken.
    let count = async |query: String| {
        let head = organiser
            .get(&format!("/api/events/{id}/head{query}"))
            .await;
        assert_eq!(head.status, 200, "{query}: {}", head.body);
        head.json["player_count"].as_u64().unwrap()
    };
    let mut last = None;
    for (n, name) in (1..).zip(["ann", "bob"]) {
        let added = organiser
            .post(&format!("/api/events/{id}/players"), json!({"name": name}))
            .await;
        assert_eq!(added.status, 201, "{}", added.body);
        let version = told(name).await;
        if let Some(before) = last {
            assert_eq!(
                count(format!("?version={before}")).await,
                n - 1,
                "the last notice's head, from the cache"
            );
        }
        assert_eq!(count(format!("?version={version}")).await, n, "{name}");
        last = Some(version);
    }
    assert_eq!(count(String::new()).await, 2);
    let started = organiser
        .post(&format!("/api/events/{id}/rounds"), json!({}))
        .await;
    assert_eq!(started.status, 201, "{}", started.body);
    let paired = told("round 1 paired").await;
    let wins = async |query: &str| {
        let answer = organiser
            .get(&format!("/api/events/{id}/standings/current{query}"))
            .await;
        assert_eq!(answer.status, 200, "{query}: {}", answer.body);
        answer.json["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["wins"].as_u64().unwrap())
            .sum::<u64>()
    };
    assert_eq!(wins(&format!("?version={paired}")).await, 0);
    let result = async |query: &str| {
        let answer = organiser
            .get(&format!("/api/events/{id}/rounds/1{query}"))
            .await;
        assert_eq!(answer.status, 200, "{query}: {}", answer.body);
        answer.json["games"][0]["result"].clone()
    };
    assert_eq!(result(&format!("?version={paired}")).await, json!(null));
    let entered = organiser
        .post(
            &format!("/api/events/{id}/rounds/1/tables/1/result"),
            json!({"result": "W+"}),
        )
        .await;
    assert_eq!(entered.status, 200, "{}", entered.body);
    let decided = told("the result").await;
    // What the pairing's notice asked for is served as computed for it:
    // no computation per fetch while results come in.
    assert_eq!(
        wins(&format!("?version={paired}")).await,
        0,
        "from the cache"
    );
    assert_eq!(
        wins(&format!("?version={decided}")).await,
        1,
        "at the result"
    );
    assert_eq!(wins("").await, 1, "now");
    assert_eq!(
        wins("?version=999999").await,
        1,
        "a version to come is now's"
    );
    // The round's pairings are served the same way.
    assert_eq!(result(&format!("?version={paired}")).await, json!(null));
    assert_eq!(result(&format!("?version={decided}")).await, "W+");
    assert_eq!(result("").await, "W+", "now");
    let missing = organiser.get(&format!("/api/events/{id}/rounds/2")).await;
    assert_eq!(missing.status, 404, "{}", missing.body);
    let players = organiser
        .get(&format!("/api/events/{id}/players?version={paired}"))
        .await;
    assert_eq!(players.status, 200, "{}", players.body);
    let names: Vec<&str> = players.json["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["ann", "bob"], "{}", players.body);
    // The head is what the page's top shows, without the lists.
    let head = organiser.get(&format!("/api/events/{id}/head")).await;
    assert_eq!(head.status, 200, "{}", head.body);
    assert_eq!(head.json["player_count"], 2, "{}", head.body);
    assert_eq!(head.json["rounds_paired"], 1, "{}", head.body);
    assert_eq!(head.json["you"]["can_change"], true, "{}", head.body);
    for list in ["players", "teams", "rounds"] {
        assert!(head.json.get(list).is_none(), "{list}: {}", head.body);
    }
    let whole = organiser.get(&format!("/api/events/{id}")).await.json;
    assert_eq!(whole["player_count"], 2, "{whole}");
    assert_eq!(whole["rounds"][0]["games"][0]["result"], "W+", "{whole}");
    let bad = organiser
        .get(&format!("/api/events/{id}/standings?version=latest"))
        .await;
    assert_eq!(bad.status, 400, "{}", bad.body);
    assert_eq!(bad.json["error"], "malformed", "{}", bad.body);
    let standings = organiser
        .get(&format!("/api/events/{id}/standings"))
        .await
        .json;
    assert_eq!(standings["rounds"], 1, "{standings}");
}

/// Twenty players added in a burst are told a few times, not twenty
/// (a notice at once, then at most one each 250 ms), and the last notice
/// comes after the last change: the page that fetches at it sees all
/// twenty.
async fn a_burst_of_changes_is_told_a_few_times_and_the_last_always(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let organiser = server.player("organiser", "2d").await;
    let id = create_event(
        &organiser,
        json!({"name": "Crowded", "system": {"kind": "swiss"}, "rounds": 3}),
    )
    .await;
    let (mut watcher, _) = Client::anonymous(&server).lobby().await;
    let started = std::time::Instant::now();
    for n in 0..20 {
        let added = organiser
            .post(
                &format!("/api/events/{id}/players"),
                json!({"name": format!("p{n}")}),
            )
            .await;
        assert_eq!(added.status, 201, "{}", added.body);
    }
    let burst = started.elapsed();
    let (mut notices, mut fetched) = (0, 0);
    while let Some(frame) = watcher.next_within(Duration::from_secs(1)).await {
        if frame["type"] == "event_changed" && frame["id"] == id {
            notices += 1;
            fetched = organiser.get(&format!("/api/events/{id}")).await.json["players"]
                .as_array()
                .map_or(0, Vec::len);
        }
    }
    let most = 2 + burst.as_millis() / 250;
    assert!(
        (1..20).contains(&notices) && notices as u128 <= most,
        "{notices} notices for 20 changes in {burst:?}"
    );
    assert_eq!(fetched, 20, "the page fetched at the last notice");
}

/// A rank-certification event (段级位赛) of two: pat (1k) beats quinn
/// (2k) in the only game, so pat qualifies for 1d; nobody but the
/// organiser or an arbiter confirms it, and once confirmed pat's declared
/// rank is 1d and it cannot be confirmed again.
async fn a_rank_certification_raises_the_declared_rank(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let organiser = server.player("organiser", "2d").await;
    let bad = organiser
        .post(
            "/api/events",
            json!({"name": "Grading", "system": {"kind": "round_robin", "cycles": 1},
                   "certification": {"min_games": 1, "min_win_percent": 101, "grades": 1,
                                     "highest": "7d"}}),
        )
        .await;
    assert_eq!(bad.status, 400, "{}", bad.body);
    assert_eq!(bad.json["error"], "bad_certification", "{}", bad.body);
    let id = create_event(
        &organiser,
        json!({
            "name": "Grading",
            "system": {"kind": "round_robin", "cycles": 1},
            "size": 9,
            "rated": false,
            "certification": {"min_games": 1, "min_win_percent": 100, "grades": 1,
                              "opponents_from": "5k", "highest": "7d"},
        }),
    )
    .await;
    let players = register(&server, id, &["pat", "quinn"]).await;
    let at = format!("/api/events/{id}/certification");
    let early = organiser.post(&at, json!({})).await;
    assert_eq!(early.status, 409, "{}", early.body);
    assert_eq!(early.json["error"], "not_certifiable");
    let started = organiser
        .post(&format!("/api/events/{id}/rounds"), json!({}))
        .await;
    assert_eq!(started.status, 201, "{}", started.body);
    play(&players, &started.json["games"][0]).await;
    until(&organiser, id, "the result", round_complete(1)).await;
    let view = organiser.get(&at).await;
    assert_eq!(view.status, 200, "{}", view.body);
    assert_eq!(view.json["finished"], true, "{}", view.body);
    assert_eq!(view.json["confirmed"], false);
    let qualifiers = view.json["qualifiers"].as_array().unwrap();
    assert_eq!(qualifiers.len(), 1, "{}", view.body);
    assert_eq!(qualifiers[0]["name"], "pat");
    assert_eq!(
        (&qualifiers[0]["from"], &qualifiers[0]["to"]),
        (&json!("1k"), &json!("1d"))
    );
    let refused = players[&2].post(&at, json!({})).await;
    assert_eq!(refused.status, 403, "{}", refused.body);
    let confirmed = organiser.post(&at, json!({})).await;
    assert_eq!(confirmed.status, 200, "{}", confirmed.body);
    assert_eq!(confirmed.json["confirmed"], true);
    let pat = organiser.get("/api/players/pat").await;
    assert_eq!(pat.json["player"]["declared_rank"], "1d", "{}", pat.body);
    let quinn = organiser.get("/api/players/quinn").await;
    assert_eq!(
        quinn.json["player"]["declared_rank"], "2k",
        "{}",
        quinn.body
    );
    let again = organiser.post(&at, json!({})).await;
    assert_eq!(again.status, 409, "{}", again.body);
    assert_eq!(again.json["error"], "already_certified");
    let log = organiser.get(&format!("/api/events/{id}/log")).await;
    assert!(log.body.contains("\"certify\""), "{}", log.body);
}

/// A chess event: played elsewhere, so its round creates no online game;
/// the arbiter enters the result, and the standings count 1/½/0 in
/// chess's own order. An unknown game is refused.
async fn a_chess_event_records_results_entered_by_the_arbiter(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let organiser = server.player("organiser", "2d").await;
    let unknown = organiser
        .post(
            "/api/events",
            json!({"name": "Bridge", "system": {"kind": "swiss"}, "rounds": 2, "game": "bridge"}),
        )
        .await;
    assert_eq!(unknown.status, 400, "{}", unknown.body);
    assert_eq!(unknown.json["error"], "bad_system", "{}", unknown.body);
    let id = create_event(
        &organiser,
        json!({"name": "Club chess", "system": {"kind": "swiss"}, "rounds": 2, "game": "chess"}),
    )
    .await;
    register(&server, id, &["anna", "boris", "carl", "dora"]).await;
    let started = organiser
        .post(&format!("/api/events/{id}/rounds"), json!({}))
        .await;
    assert_eq!(started.status, 201, "{}", started.body);
    for g in started.json["games"].as_array().unwrap() {
        assert!(g["game"].is_null(), "an online game for chess: {g}");
    }
    // Chess's first mover is white: "W+" would name the wrong side.
    let color = organiser
        .post(
            &format!("/api/events/{id}/rounds/1/tables/1/result"),
            json!({"result": "W+"}),
        )
        .await;
    assert_eq!(color.status, 400, "{}", color.body);
    assert_eq!(color.json["error"], "bad_result");
    for (table, result) in [(1, "1-0"), (2, "draw")] {
        let done = organiser
            .post(
                &format!("/api/events/{id}/rounds/1/tables/{table}/result"),
                json!({ "result": result }),
            )
            .await;
        assert_eq!(done.status, 200, "{}", done.body);
    }
    let standings = organiser.get(&format!("/api/events/{id}/standings")).await;
    assert_eq!(
        standings.json["columns"],
        json!(["POINTS", "SOS", "SB", "WINS", "SECOND-MOVER-WINS"]),
        "{}",
        standings.body
    );
    let points: Vec<String> = standing_rows(&standings.json)
        .into_iter()
        .map(|(_, _, values)| values[0].clone())
        .collect();
    assert_eq!(points, ["1", "0.5", "0.5", "0"], "{}", standings.body);
}

crate::for_both_backends!(
    a_chess_event_records_results_entered_by_the_arbiter,
    the_lobby_socket_says_when_an_event_changes,
    a_burst_of_changes_is_told_a_few_times_and_the_last_always,
    standings_show_the_round_in_progress,
    a_rank_certification_raises_the_declared_rank,
    a_swiss_of_six_over_three_rounds,
    a_knockout_of_four_with_a_no_show,
    a_round_starts_by_itself_at_its_time,
    a_late_player_is_charged_twice_the_time_late,
    no_move_is_taken_before_both_players_sit_down,
    a_ruling_ends_the_live_game,
    an_arbiters_result_ends_the_live_game,
    a_replay_ruling_starts_a_new_game,
    a_team_match_on_two_boards,
    a_lineup_reseats_the_boards_it_changes,
    warnings_reach_the_live_game,
    a_player_who_never_comes_forfeits_at_the_limit
);
