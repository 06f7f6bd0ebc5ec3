//! Accounts: registration, login with its rate limits, the session cookie,
//! logout, declared ranks and the starting rating, player search.

use std::time::Duration;

use serde_json::json;
use shoutan_server::ServerConfig;
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

async fn login_is_rate_limited(backend: Backend) {
    let limits = ServerConfig {
        login_per_account: Limit::new(3, Duration::from_secs(60)),
        login_per_address: Limit::new(5, Duration::from_secs(60)),
        ..config()
    };
    let Some(server) = TestServer::new(backend, limits).await else {
        return;
    };
    server.player("target", "1d").await;
    let anon = Client::anonymous(&server);
    let attempt = |name: &'static str| {
        let anon = anon.clone();
        async move {
            anon.post(
                "/api/session",
                json!({"name": name, "password": "guessing"}),
            )
            .await
        }
    };
    // Per account: three tries, then 429 with Retry-After.
    for _ in 0..3 {
        assert_eq!(attempt("target").await.status, 401);
    }
    let limited = attempt("target").await;
    assert_eq!(
        (limited.status, limited.json["error"].as_str()),
        (429, Some("rate_limited"))
    );
    assert!(
        limited.headers["retry-after"]
            .to_str()
            .unwrap()
            .parse::<u64>()
            .unwrap()
            >= 1
    );
    // Per address: other names from the same address run out too.
    assert_eq!(attempt("other").await.status, 401);
    assert_eq!(attempt("other").await.status, 429);
}

crate::for_both_backends!(accounts_and_sessions, login_is_rate_limited);
