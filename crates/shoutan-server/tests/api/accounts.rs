//! Accounts: registration, login with its rate limits, the session cookie,
//! logout, declared ranks and the starting rating, player search.

use std::time::Duration;

use serde_json::json;
use shoutan_server::ServerConfig;
use shoutan_server::accounts::login_throttle::Backoff;
use shoutan_server::accounts::password::{HashBudget, PasswordCost};
use shoutan_server::accounts::rate_limit::Limit;

use crate::common::{Backend, Client, TestServer, config};

async fn accounts_and_sessions(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let anon = Client::anonymous(&server);
    let made = anon
        .post(
            "/api/accounts",
            json!({"name": "柯洁", "password": "secret go 123", "rank": "9p"}),
        )
        .await;
    assert_eq!(made.status, 201, "{}", made.body);
    let cookie = made.headers["set-cookie"].to_str().unwrap();
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"),
        "{cookie}"
    );
    assert!(!cookie.contains("Secure"), "not behind https by default");
    assert_eq!(made.json["declared_rank"], "9p");
    assert_eq!(
        made.json["rating"]["rank"], "9d",
        "a professional rates at the top of the scale"
    );
    assert_eq!(made.json["rating"]["provisional"], true);

    let taken = anon
        .post(
            "/api/accounts",
            json!({"name": "柯洁", "password": "another one", "rank": "1k"}),
        )
        .await;
    assert_eq!(
        (taken.status, taken.json["error"].as_str()),
        (409, Some("name_taken"))
    );
    let weak = anon
        .post(
            "/api/accounts",
            json!({"name": "short", "password": "1234", "rank": "1k"}),
        )
        .await;
    assert_eq!(weak.json["error"], "bad_password");
    let rank = anon
        .post(
            "/api/accounts",
            json!({"name": "amateur", "password": "long enough", "rank": "8d"}),
        )
        .await;
    assert_eq!(rank.json["error"], "bad_rank");

    // Login: wrong password, unknown name, right password.
    let wrong = anon
        .post(
            "/api/session",
            json!({"name": "柯洁", "password": "nope nope"}),
        )
        .await;
    assert_eq!(
        (wrong.status, wrong.json["error"].as_str()),
        (401, Some("bad_credentials"))
    );
    let unknown = anon
        .post(
            "/api/session",
            json!({"name": "nobody", "password": "nope nope"}),
        )
        .await;
    assert_eq!(
        unknown.json, wrong.json,
        "an unknown name looks like a wrong password"
    );
    let login = anon
        .post(
            "/api/session",
            json!({"name": "柯洁", "password": "secret go 123"}),
        )
        .await;
    assert_eq!(login.status, 200);
    let mut me = anon.clone();
    me.cookie = login.cookie;
    assert_eq!(me.get("/api/session").await.json["name"], "柯洁");

    // Logout ends the session on the server: the old cookie opens nothing.
    let out = me.delete("/api/session").await;
    assert_eq!(out.status, 204);
    assert!(
        out.headers["set-cookie"]
            .to_str()
            .unwrap()
            .contains("Max-Age=0")
    );
    assert_eq!(me.get("/api/session").await.status, 401);

    // Search by prefix, ignoring case.
    server.player("Kejie_fan", "12k").await;
    let found = anon.get("/api/players?q=ke").await.json;
    let names: Vec<_> = found
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].clone())
        .collect();
    assert_eq!(names, [json!("Kejie_fan")]);
    assert_eq!(
        anon.get("/api/players?q=%E6%9F%AF").await.json[0]["name"],
        "柯洁"
    );
}

/// Wrong passwords slow down the address that sends them, for that
/// account: the owner, elsewhere, logs in at once however long the
/// guessing goes on; other accounts from the guesser's address are only
/// limited by the per-address rate.
async fn guessing_never_locks_the_owner_out(backend: Backend) {
    let throttled = ServerConfig {
        login_backoff: Backoff {
            free: 3,
            first: Duration::from_secs(60),
            ..Backoff::default()
        },
        login_per_address: Limit::new(7, Duration::from_secs(60)),
        ..config()
    };
    let Some(server) = TestServer::new(backend, throttled).await else {
        return;
    };
    server.player("target", "1d").await;
    server.player("bystander", "1d").await;
    let guesser = Client::from_address(&server, "127.0.0.2");
    // Three free guesses, a fourth (the first beyond), then a wait.
    for _ in 0..4 {
        let wrong = guesser.login("target", "guessing").await.unwrap_err();
        assert_eq!(wrong.json["error"], "bad_credentials", "{}", wrong.body);
    }
    let held = guesser.login("target", "guessing").await.unwrap_err();
    assert_eq!(
        (held.status, held.json["error"].as_str()),
        (429, Some("rate_limited"))
    );
    let retry: u64 = held.headers["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((50..=61).contains(&retry), "{retry}");
    // The right password from the guesser's address waits too: the
    // address cannot tell a lucky guess from the owner.
    let right = guesser.login("target", "correct horse").await.unwrap_err();
    assert_eq!(right.status, 429);
    // The owner, from another address, is never refused.
    let owner = Client::from_address(&server, "127.0.0.3");
    for _ in 0..3 {
        let me = owner.login("target", "correct horse").await.unwrap();
        assert_eq!(me.get("/api/session").await.json["name"], "target");
    }
    // The guesser may still try another account (once: the per-address
    // limit of seven attempts is spent after that).
    assert_eq!(
        guesser
            .login("bystander", "guessing")
            .await
            .unwrap_err()
            .status,
        401
    );
    let sprayed = guesser.login("bystander", "guessing").await.unwrap_err();
    assert_eq!(sprayed.status, 429);
}

/// Behind a trusted proxy the client is the rightmost forwarded address
/// that is not a proxy: a forged first entry changes nothing.
async fn forwarded_for_is_read_right_to_left(backend: Backend) {
    let behind_proxy = ServerConfig {
        trusted_proxies: ["127.0.0.1".parse().unwrap()].into_iter().collect(),
        register_per_address: Limit::new(1, Duration::from_secs(3600)),
        ..config()
    };
    let Some(server) = TestServer::new(backend, behind_proxy).await else {
        return;
    };
    let proxy = Client::anonymous(&server);
    let register = |name: &'static str, forwarded: &'static str| {
        let proxy = proxy.clone();
        async move {
            proxy
                .send(
                    proxy
                        .raw(reqwest::Method::POST, "/api/accounts")
                        .header("x-forwarded-for", forwarded)
                        .json(&json!({"name": name, "password": "correct horse", "rank": "1k"})),
                )
                .await
                .status
        }
    };
    assert_eq!(register("first", "1.1.1.1, 203.0.113.7").await, 201);
    // The same client, another forged entry: still the same client.
    assert_eq!(register("second", "2.2.2.2, 203.0.113.7").await, 429);
    assert_eq!(register("second", "203.0.113.7").await, 429);
    // Another client behind the same proxy has its own limit.
    assert_eq!(register("second", "1.1.1.1, 203.0.113.8").await, 201);
    // A client not behind a trusted proxy cannot forward at all: its own
    // address counts, whatever it writes.
    let direct = Client::from_address(&server, "127.0.0.2");
    let made = direct
        .send(
            direct
                .raw(reqwest::Method::POST, "/api/accounts")
                .header("x-forwarded-for", "203.0.113.9")
                .json(&json!({"name": "third", "password": "correct horse", "rank": "1k"})),
        )
        .await;
    assert_eq!(made.status, 201);
    let again = direct
        .send(
            direct
                .raw(reqwest::Method::POST, "/api/accounts")
                .header("x-forwarded-for", "203.0.113.10")
                .json(&json!({"name": "fourth", "password": "correct horse", "rank": "1k"})),
        )
        .await;
    assert_eq!(again.status, 429);
}

/// Password checks beyond the hashing workers and their queue are refused
/// at once with 503 `busy`, rather than queued without end.
async fn password_hashing_has_a_budget(backend: Backend) {
    // A hash slow enough (about half a second) that all eight logins are
    // in before the first is checked, on a loaded machine too.
    let budgeted = ServerConfig {
        password_cost: PasswordCost {
            memory_kib: 32 * 1024,
            iterations: 16,
        },
        hash_budget: HashBudget {
            workers: 1,
            queue: 1,
            per_address: 1,
            wait: Duration::from_secs(30),
        },
        ..config()
    };
    let Some(server) = TestServer::new(backend, budgeted).await else {
        return;
    };
    server.player("target", "1d").await;
    // Eight logins at once, from eight addresses (no rate limit applies).
    let logins: Vec<_> = (0..8)
        .map(|i| {
            let client = Client::from_address(&server, &format!("127.0.1.{}", i + 1));
            tokio::spawn(async move {
                let started = std::time::Instant::now();
                let answer = client.login("target", "wrong password").await.unwrap_err();
                (
                    answer.status,
                    answer.json["error"].clone(),
                    started.elapsed(),
                )
            })
        })
        .collect();
    let mut checked = Vec::new();
    let mut busy = Vec::new();
    for login in logins {
        let (status, code, took) = login.await.unwrap();
        match status {
            401 => checked.push(took),
            503 => {
                assert_eq!(code, "busy");
                busy.push(took);
            }
            other => panic!("{other} {code}"),
        }
    }
    // One hashing, one waiting: the other six are told at once.
    assert_eq!((checked.len(), busy.len()), (2, 6), "{checked:?} {busy:?}");
    let quickest_check = checked.iter().min().unwrap();
    assert!(
        busy.iter().all(|t| t < quickest_check),
        "{busy:?} {checked:?}"
    );
}

/// A crowd of right logins from many addresses waits its turn and gets
/// in, every one; a flood of wrong ones from one address at the same time
/// fills only that address's line, and the rest of it is refused at once.
async fn a_crowd_of_logins_waits_its_turn(backend: Backend) {
    let budget = HashBudget {
        workers: 1,
        queue: 4096,
        per_address: 4,
        wait: Duration::from_secs(120),
    };
    let crowded = ServerConfig {
        password_cost: PasswordCost {
            memory_kib: 2048,
            iterations: 2,
        },
        hash_budget: budget,
        login_per_address: Limit::new(1000, Duration::from_millis(1)),
        ..config()
    };
    let Some(server) = TestServer::new(backend, crowded).await else {
        return;
    };
    const CROWD: usize = 40;
    const FLOOD: usize = 60;
    for n in 0..CROWD {
        server.player(&format!("player{n}"), "3k").await;
    }
    let crowd: Vec<_> = (0..CROWD)
        .map(|n| {
            let client = Client::from_address(&server, &format!("127.0.2.{}", n + 1));
            tokio::spawn(async move {
                client
                    .login(&format!("player{n}"), "correct horse")
                    .await
                    .map(|_| ())
                    .map_err(|a| a.body)
            })
        })
        .collect();
    let flood: Vec<_> = (0..FLOOD)
        .map(|n| {
            let client = Client::from_address(&server, "127.0.3.1");
            tokio::spawn(async move {
                let refused = client
                    .login(&format!("nobody{n}"), "wrong")
                    .await
                    .unwrap_err();
                refused.status
            })
        })
        .collect();
    for login in crowd {
        assert_eq!(login.await.unwrap(), Ok(()), "every right login gets in");
    }
    let mut statuses = Vec::new();
    for login in flood {
        statuses.push(login.await.unwrap());
    }
    let checked = statuses.iter().filter(|&&s| s == 401).count();
    let busy = statuses.iter().filter(|&&s| s == 503).count();
    // Its line holds four: most of the flood is refused at once. (As its
    // requests arrive over time, a few more join the line as it moves;
    // without the lines, every one of the sixty would wait and be checked.)
    assert!(checked <= FLOOD / 4, "{statuses:?}");
    assert_eq!(checked + busy, FLOOD, "{statuses:?}");
}

/// Names are NFC; names with control or bidirectional characters, and
/// names that look like another account's, are refused with their codes.
async fn look_alike_and_hidden_characters_in_names(backend: Backend) {
    let unlimited = ServerConfig {
        register_per_address: Limit::new(100, Duration::from_secs(1)),
        ..config()
    };
    let Some(server) = TestServer::new(backend, unlimited).await else {
        return;
    };
    let anon = Client::anonymous(&server);
    let register = |name: &str| {
        let anon = anon.clone();
        let body = json!({"name": name, "password": "correct horse", "rank": "1k"});
        async move { anon.post("/api/accounts", body).await }
    };
    // The computer's accounts exist from the start.
    for (name, code) in [
        ("\u{405}houtan-AI-1", "reserved_name"),
        ("Shoutan-Al-1", "reserved_name"),
        ("ab\u{202e}cd", "bidi_control"),
        ("ab\u{2066}cd", "bidi_control"),
        ("ab\u{7}cd", "control_character"),
        ("ab\ncd", "control_character"),
    ] {
        let refused = register(name).await;
        assert_eq!(refused.json["error"], code, "{name:?}: {}", refused.body);
        assert_eq!(refused.status, 400);
    }
    assert_eq!(register("Lee").await.status, 201);
    // A Cyrillic е (U+0435) in place of a Latin e.
    let twin = register("L\u{435}e").await;
    assert_eq!(
        (twin.status, twin.json["error"].as_str()),
        (409, Some("confusable_name")),
        "{}",
        twin.body
    );
    // Decomposed: stored composed, and found either way.
    let made = register("Re\u{301}mi").await;
    assert_eq!(made.json["name"], "R\u{e9}mi");
    assert!(anon.login("Re\u{301}mi", "correct horse").await.is_ok());
    assert!(anon.login("R\u{e9}mi", "correct horse").await.is_ok());
}

crate::for_both_backends!(
    accounts_and_sessions,
    guessing_never_locks_the_owner_out,
    forwarded_for_is_read_right_to_left,
    password_hashing_has_a_budget,
    a_crowd_of_logins_waits_its_turn,
    look_alike_and_hidden_characters_in_names,
);
