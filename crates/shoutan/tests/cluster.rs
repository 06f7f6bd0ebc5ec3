//! Several `shoutan serve` processes on one PostgreSQL database, as a
//! deployment runs them: players on different instances play one game;
//! the lobby is the same on every instance; an instance killed with
//! `kill -9` in the middle of play has its games taken over by the others,
//! with every acknowledged move kept, no version acknowledged twice and
//! the downtime excused on the clocks; and an instance that was frozen past
//! its lease (split brain) cannot write the game another instance took;
//! an event changed on one instance is pushed to every instance's lobby
//! socket, and shown changed by each.
//!
//! Needs `SHOUTAN_TEST_POSTGRES`; each test makes a database of its own.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed call is a test failure

mod common;

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use common::{Player, Server, Ws, new_game};
use serde_json::{Value, json};

/// A database of the test's own on the test server, dropped at the end.
struct Database {
    admin: String,
    name: String,
    url: String,
}

impl Database {
    async fn create(admin: &str) -> Database {
        let name = format!(
            "shoutan_cluster_{}_{}",
            std::process::id(),
            fastrand::u32(..)
        );
        execute(admin, &format!("CREATE DATABASE {name}")).await;
        let (base, _) = admin.rsplit_once('/').expect("a URL with a database");
        Database {
            admin: admin.to_owned(),
            url: format!("{base}/{name}"),
            name,
        }
    }

    fn instance(&self, id: &str) -> Server {
        Server::start(&["--database", &self.url, "--instance-id", id])
    }
}

impl Drop for Database {
    fn drop(&mut self) {
        let (admin, name) = (self.admin.clone(), self.name.clone());
        let _ = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(execute(
                &admin,
                &format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"),
            ));
        })
        .join();
    }
}

async fn execute(url: &str, sql: &str) {
    let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .unwrap();
    let task = tokio::spawn(connection);
    client.batch_execute(sql).await.unwrap();
    drop(client);
    let _ = task.await;
}

/// The instance that owns the game, as the database says.
async fn owner_of(url: &str, id: i64) -> String {
    let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .unwrap();
    let task = tokio::spawn(connection);
    let row = client
        .query_one(
            "SELECT instance FROM game_owners WHERE game_id = $1",
            &[&id],
        )
        .await
        .unwrap();
    drop(client);
    let _ = task.await;
    row.get(0)
}

/// The game's log as the API gives it: version → event.
async fn log_of(player: &Player, id: i64) -> BTreeMap<u64, Value> {
    let events: Value = player
        .http
        .get(format!("{}/api/games/{id}/events", player.base))
        .header("cookie", &player.cookie)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    events
        .as_array()
        .unwrap_or_else(|| panic!("no events: {events}"))
        .iter()
        .map(|e| (e["v"].as_u64().unwrap(), e.clone()))
        .collect()
}

/// Plays `point` (or passes) from `ws`, reconnecting through `player` (to
/// the same instance) while the game moves to a new owner; returns the
/// version of the move and the connection to use from now on. A move whose
/// acknowledgement was lost with its connection is known, as the web
/// client knows it, by the welcome's `last_command_id`.
async fn play_through(
    player: &Player,
    id: i64,
    mut ws: Ws,
    point: &str,
    within: Duration,
) -> (u64, Ws) {
    let command = if point == "pass" {
        json!({"type": "pass"})
    } else {
        json!({"type": "move", "point": point})
    };
    let deadline = Instant::now() + within;
    loop {
        let sent = ws.next_id;
        match ws.command(command.clone()).await {
            Ok(ack) => return (ack["v"].as_u64().unwrap(), ws),
            Err(e) => {
                assert!(
                    Instant::now() < deadline,
                    "{point} not acknowledged in {within:?}: {e}"
                );
                // A refusal on the rules would be a bug, not a failover.
                let code = e["code"].as_str().unwrap_or("closed");
                assert!(
                    ["closed", "game_moved", "storage", "game_closed"].contains(&code),
                    "{point}: {e}"
                );
                tokio::time::sleep(Duration::from_millis(200)).await;
                if let Ok(mut fresh) = player.connect(&format!("/api/games/{id}/ws")).await
                    && let Some(welcome) = fresh.next().await
                    && welcome["type"] == "welcome"
                {
                    let last = welcome["last_command_id"].as_u64().unwrap_or(0);
                    fresh.next_id = last + 1;
                    if last >= sent {
                        return (version_of(player, id, point).await, fresh);
                    }
                    ws = fresh;
                }
            }
        }
    }
}

/// The version of the last move at `point` (or the last pass) in the log.
async fn version_of(player: &Player, id: i64, point: &str) -> u64 {
    let log = log_of(player, id).await;
    let (v, _) = log
        .iter()
        .rev()
        .find(|(_, e)| match point {
            "pass" => e["event"]["type"] == "pass",
            _ => e["event"]["type"] == "move" && e["event"]["point"] == point,
        })
        .unwrap_or_else(|| panic!("{point} counted as accepted but not in the log: {log:?}"));
    *v
}

fn postgres() -> Option<String> {
    shoutan_test_env::locate(shoutan_test_env::External::Postgres)
}

async fn get(player: &Player, path: &str) -> Value {
    player
        .http
        .get(format!("{}{path}", player.base))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

/// An event run on instance A: B's lobby socket says each change, and B
/// answers with the changed event when its client fetches it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_event_changed_on_one_instance_is_pushed_by_every_instance() {
    let Some(admin) = postgres() else { return };
    let db = Database::create(&admin).await;
    let a = db.instance("a");
    let b = db.instance("b");
    let organiser = Player::register(&a.base, "olga").await;
    let watcher = Player {
        cookie: String::new(),
        ..organiser.at(&b.base)
    };
    let mut lobby = watcher.connect("/api/lobby/ws").await.unwrap();
    lobby.next_of("lobby").await;
    let event = organiser
        .post(
            "/api/events",
            json!({"name": "Cluster cup", "system": {"kind": "round_robin", "cycles": 1}}),
        )
        .await;
    let id = event["id"].as_i64().unwrap();
    assert_eq!(lobby.next_of("event_changed").await["id"], id);
    let shown = get(&watcher, &format!("/api/events/{id}")).await;
    assert_eq!(shown["config"]["name"], "Cluster cup", "{shown}");
    for name in ["ann", "bob"] {
        organiser
            .post(&format!("/api/events/{id}/players"), json!({"name": name}))
            .await;
        assert_eq!(lobby.next_of("event_changed").await["id"], id);
    }
    organiser
        .post(&format!("/api/events/{id}/rounds"), json!({}))
        .await;
    assert_eq!(lobby.next_of("event_changed").await["id"], id);
    organiser
        .post(
            &format!("/api/events/{id}/rounds/1/tables/1/result"),
            json!({"result": "B+"}),
        )
        .await;
    let told = lobby.next_of("event_changed").await;
    assert_eq!(told["id"], id);
    let shown = get(&watcher, &format!("/api/events/{id}")).await;
    assert_eq!(shown["players"].as_array().unwrap().len(), 2, "{shown}");
    assert_eq!(shown["rounds"][0]["games"][0]["result"], "B+", "{shown}");
    // The version A told, as B tells it: B's copy has the result.
    let version = told["version"].as_u64().unwrap();
    let standings = get(
        &watcher,
        &format!("/api/events/{id}/standings?version={version}"),
    )
    .await;
    assert_eq!(standings["rounds"], 1, "{standings}");
    assert_eq!(standings["rows"][0]["values"][0], "2", "{standings}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_instances_play_and_survive_a_kill() {
    let Some(admin) = postgres() else { return };
    let db = Database::create(&admin).await;
    let a = db.instance("a");
    let b = db.instance("b");
    let c = db.instance("c");
    let black = Player::register(&a.base, "hei").await;
    let white = Player::register(&b.base, "bai").await;
    // Every instance's lobby, watched anonymously.
    let mut lobbies = Vec::new();
    for server in [&a, &b, &c] {
        let watcher = Player {
            cookie: String::new(),
            ..black.at(&server.base)
        };
        let mut lobby = watcher.connect("/api/lobby/ws").await.unwrap();
        lobby.next_of("lobby").await;
        lobbies.push(lobby);
    }

    // Challenged on A, accepted on B: B owns the game. Black plays on A,
    // white on C: both through followers.
    let id = new_game(&black, &white).await;
    for lobby in &mut lobbies {
        let started = lobby.next_of("game_started").await;
        assert_eq!(started["game"]["id"], id, "every lobby sees the game start");
    }
    let black_c = black.at(&a.base);
    let white_c = white.at(&c.base);
    let mut bw = black_c.ws(id).await;
    let mut ww = white_c.ws(id).await;
    let mut acked: Vec<(u64, &str)> = Vec::new();
    for (i, point) in ["E5", "C3", "G7", "C7"].iter().enumerate() {
        let ack = if i % 2 == 0 {
            bw.play(point).await
        } else {
            ww.play(point).await
        };
        acked.push((ack["v"].as_u64().unwrap(), point));
    }
    // Each side sees the other's moves as events, in order.
    let seen_by_white: Vec<&str> = ww
        .seen
        .iter()
        .filter(|f| f["type"] == "event" && f["event"]["type"] == "move")
        .map(|f| f["event"]["point"].as_str().unwrap())
        .collect();
    assert_eq!(seen_by_white, ["E5", "C3", "G7", "C7"]);

    // B, the owner, dies.
    let before = black_c.game(id).await;
    b.kill();
    let killed = Instant::now();
    let (v, bw) = play_through(&black_c, id, bw, "G3", Duration::from_secs(30)).await;
    let failover = killed.elapsed();
    acked.push((v, "G3"));
    let (v, ww) = play_through(&white_c, id, ww, "C5", Duration::from_secs(30)).await;
    acked.push((v, "C5"));
    let (mut bw, mut ww) = (bw, ww);
    for (i, point) in ["pass", "pass"].iter().enumerate() {
        let ack = if i % 2 == 0 {
            bw.play(point).await
        } else {
            ww.play(point).await
        };
        acked.push((ack["v"].as_u64().unwrap(), point));
    }
    bw.ok(json!({"type": "accept"})).await;
    ww.ok(json!({"type": "accept"})).await;
    let end = white_c.game(id).await;
    assert_eq!(end["state"]["status"], "finished", "{end}");
    assert!(end["state"]["result"]["international"].is_string());
    // B's lobby went with B.
    lobbies.remove(1);
    for lobby in &mut lobbies {
        let ended = lobby.next_of("game_ended").await;
        assert_eq!(
            ended["id"], id,
            "the lobbies of the instances alive see it end"
        );
    }

    // The log: every acknowledged move where it was acknowledged, no
    // version acknowledged twice, and the downtime excused.
    let log = log_of(&white_c, id).await;
    let mut versions: Vec<u64> = acked.iter().map(|(v, _)| *v).collect();
    versions.sort_unstable();
    versions.dedup();
    assert_eq!(
        versions.len(),
        acked.len(),
        "a version acknowledged twice: {acked:?}"
    );
    for (v, point) in &acked {
        let event = &log[v]["event"];
        match *point {
            "pass" => assert_eq!(event["type"], "pass", "v{v}"),
            point => assert_eq!(event["point"], point, "v{v}: {event}"),
        }
    }
    let resume = log
        .values()
        .find(|e| e["event"]["type"] == "resume")
        .expect("the new owner excused the downtime");
    let excused = resume["event"]["excused_ms"].as_u64().unwrap();
    assert!(
        excused + 1_500 >= failover.as_millis() as u64,
        "excused {excused} ms of a {failover:?} takeover"
    );
    // Black's clock (waiting during the takeover) was not charged it.
    let left = |g: &Value| g["clock"]["white"]["total_left"].as_u64().unwrap();
    assert!(left(&before) >= left(&end), "white's clock only ran down");
    println!("failover: {failover:?}, excused {excused} ms");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_frozen_owner_cannot_write_the_game_taken_from_it() {
    let Some(admin) = postgres() else { return };
    let db = Database::create(&admin).await;
    let a = db.instance("a");
    let b = db.instance("b");
    let black = Player::register(&a.base, "hei").await;
    let white = Player::register(&a.base, "bai").await;
    // Made on A: A owns it. Black plays on A, white on B (a follower,
    // which forwards her commands to A).
    let id = new_game(&black, &white).await;
    let white_b = white.at(&b.base);
    let mut bw = black.ws(id).await;
    let mut ww = white_b.ws(id).await;
    bw.play("E5").await;
    let forwarded = ww.play("C3").await;
    assert_eq!(
        forwarded["v"].as_u64(),
        Some(3),
        "acknowledged by the owner"
    );
    bw.play("G7").await;

    // Freeze A past its lease: B takes the game over when white plays on.
    a.freeze();
    let (v, _ww) = play_through(&white_b, id, ww, "C7", Duration::from_secs(30)).await;
    a.thaw();
    // A's actor still thinks it owns the game and has not seen C7: until
    // it tries to write (its append is fenced off) it may refuse G3 on its
    // stale position ("it is white's turn"), never acknowledge it.
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let refused = bw.command(json!({"type": "move", "point": "G3"})).await;
        let code = match &refused {
            Ok(ack) => panic!("the deposed owner acknowledged a move: {ack}"),
            Err(e) => e["code"].as_str().unwrap_or("closed").to_owned(),
        };
        if code != "not_your_turn" {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "A went on refusing on its stale position: {refused:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // Black, reconnected to A, plays on through A's follower.
    let black_a = black.at(&a.base);
    let (v2, _bw) = play_through(&black_a, id, bw, "G3", Duration::from_secs(30)).await;
    assert!(v2 > v);
    let log = log_of(&white_b, id).await;
    let moves: Vec<String> = log
        .values()
        .filter(|e| e["event"]["type"] == "move")
        .map(|e| e["event"]["point"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(moves, ["E5", "C3", "G7", "C7", "G3"], "one log, no fork");
    assert_eq!(
        log.keys().copied().collect::<Vec<_>>(),
        (1..=v2).collect::<Vec<_>>()
    );
}

/// HAProxy with `docs/deploy/haproxy.cfg`, its addresses replaced by the
/// test's: a free port in front, the instances behind.
struct Balancer {
    child: std::process::Child,
    base: String,
    _config: tempfile::TempDir,
}

impl Balancer {
    fn start(haproxy: &str, instances: &[&Server]) -> Balancer {
        let documented = include_str!("../../../docs/deploy/haproxy.cfg");
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let mut config =
            documented.replace("bind 127.0.0.1:8080", &format!("bind 127.0.0.1:{port}"));
        for (i, server) in instances.iter().enumerate() {
            let documented_backend = format!("127.0.0.1:{}", 8081 + i);
            assert!(
                config.contains(&documented_backend),
                "the documented config has three servers"
            );
            config = config.replace(
                &documented_backend,
                server.base.trim_start_matches("http://"),
            );
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("haproxy.cfg");
        std::fs::write(&path, config).unwrap();
        let check = std::process::Command::new(haproxy)
            .args(["-c", "-q", "-f"])
            .arg(&path)
            .status()
            .unwrap();
        assert!(
            check.success(),
            "haproxy accepts the documented configuration"
        );
        let child = std::process::Command::new(haproxy)
            .arg("-f")
            .arg(&path)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        Balancer {
            child,
            base: format!("http://127.0.0.1:{port}"),
            _config: dir,
        }
    }

    /// Waits until the balancer answers with a live instance behind it.
    async fn ready(&self) {
        for _ in 0..100 {
            if let Ok(r) = reqwest::get(format!("{}/api/health", self.base)).await
                && r.status() == 200
            {
                return;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("HAProxy did not come up");
    }
}

impl Drop for Balancer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn behind_haproxy_a_game_outlives_its_instance() {
    let Some(admin) = postgres() else { return };
    let Some(haproxy) = shoutan_test_env::locate(shoutan_test_env::External::Haproxy) else {
        return;
    };
    let db = Database::create(&admin).await;
    let instances = [
        db.instance("web1"),
        db.instance("web2"),
        db.instance("web3"),
    ];
    let balancer = Balancer::start(&haproxy, &instances.iter().collect::<Vec<_>>());
    balancer.ready().await;
    // Everyone goes through the balancer, as browsers do.
    let black = Player::register(&balancer.base, "hei").await;
    let white = Player::register(&balancer.base, "bai").await;
    let id = new_game(&black, &white).await;
    let mut bw = black.ws(id).await;
    let mut ww = white.ws(id).await;
    bw.play("E5").await;
    ww.play("C3").await;
    // Kill the instance that owns the game.
    let owner = owner_of(&db.url, id).await;
    let [web1, web2, web3] = instances;
    let victim = match owner.as_str() {
        "web1" => web1,
        "web2" => web2,
        "web3" => web3,
        other => panic!("owned by {other:?}"),
    };
    victim.kill();
    let (_, bw) = play_through(&black, id, bw, "G7", Duration::from_secs(30)).await;
    let (_, ww) = play_through(&white, id, ww, "C7", Duration::from_secs(30)).await;
    let (mut bw, mut ww) = (bw, ww);
    bw.play("pass").await;
    ww.play("pass").await;
    bw.ok(json!({"type": "accept"})).await;
    ww.ok(json!({"type": "accept"})).await;
    let end = white.game(id).await;
    assert_eq!(end["state"]["status"], "finished", "{end}");
    let log = log_of(&white, id).await;
    let moves: Vec<&str> = log
        .values()
        .filter(|e| e["event"]["type"] == "move")
        .map(|e| e["event"]["point"].as_str().unwrap())
        .collect();
    assert_eq!(moves, ["E5", "C3", "G7", "C7"]);
}
