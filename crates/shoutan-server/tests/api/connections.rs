//! Connections: a deadline for request headers, a cap per client address
//! (WebSockets counted), and the security headers on every answer.

use std::time::{Duration, Instant};

use serde_json::json;
use shoutan_server::ServerConfig;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

use crate::common::{Backend, Client, TestServer, config};

/// A TCP connection to the server from `address` (in 127.0.0.0/8).
async fn connect_from(server: &TestServer, address: &str) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket
        .bind(format!("{address}:0").parse().unwrap())
        .unwrap();
    let target = server.base.trim_start_matches("http://").parse().unwrap();
    socket.connect(target).await.unwrap()
}

/// What the server sends before it closes, or `None` if it keeps the
/// connection open past `patience`.
async fn read_to_close(stream: &mut TcpStream, patience: Duration) -> Option<String> {
    let mut seen = Vec::new();
    let mut buf = [0u8; 1024];
    let deadline = tokio::time::Instant::now() + patience;
    loop {
        match tokio::time::timeout_at(deadline, stream.read(&mut buf)).await {
            Err(_) => return None,
            Ok(Ok(0) | Err(_)) => return Some(String::from_utf8_lossy(&seen).into_owned()),
            Ok(Ok(n)) => seen.extend_from_slice(&buf[..n]),
        }
    }
}

async fn idle_half_requests_are_closed_after_the_header_deadline(backend: Backend) {
    let quick = ServerConfig {
        header_timeout: Duration::from_secs(1),
        ..config()
    };
    let Some(server) = TestServer::new(backend, quick).await else {
        return;
    };
    let started = Instant::now();
    // Half a request, then nothing (slowloris).
    let mut half = connect_from(&server, "127.0.0.2").await;
    half.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        .await
        .unwrap();
    // And a connection that never says anything.
    let mut silent = connect_from(&server, "127.0.0.2").await;
    for stream in [&mut half, &mut silent] {
        let closed = read_to_close(stream, Duration::from_secs(8)).await;
        assert!(closed.is_some(), "still open after 8 s");
    }
    let took = started.elapsed();
    assert!(
        took >= Duration::from_millis(900),
        "closed before the deadline: {took:?}"
    );
    // A complete request in time is served.
    let answer = health_from(&server, "127.0.0.2").await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
}

/// `GET /api/health` on a new connection from `address`: the whole answer.
async fn health_from(server: &TestServer, address: &str) -> String {
    let mut stream = connect_from(server, address).await;
    stream
        .write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    read_to_close(&mut stream, Duration::from_secs(5))
        .await
        .unwrap_or_default()
}

async fn connections_are_capped_per_address(backend: Backend) {
    let capped = ServerConfig {
        max_connections_per_address: 4,
        ..config()
    };
    let Some(server) = TestServer::new(backend, capped).await else {
        return;
    };
    // Three idle connections and a lobby WebSocket from one address.
    let mut idle = Vec::new();
    for _ in 0..3 {
        idle.push(connect_from(&server, "127.0.0.2").await);
    }
    let ws_stream = connect_from(&server, "127.0.0.2").await;
    let url = format!("{}/api/lobby/ws", server.base.replace("http://", "ws://"));
    let (mut lobby, _) =
        tokio_tungstenite::client_async(url.into_client_request().unwrap(), ws_stream)
            .await
            .unwrap();
    use futures_util::StreamExt;
    let snapshot = lobby.next().await.unwrap().unwrap();
    assert!(snapshot.to_text().unwrap().contains("\"lobby\""));
    // The fifth is refused at once, with 429 when it can be said.
    let mut fifth = connect_from(&server, "127.0.0.2").await;
    let refused = read_to_close(&mut fifth, Duration::from_secs(5))
        .await
        .expect("the fifth connection was kept open");
    assert!(
        refused.is_empty() || refused.starts_with("HTTP/1.1 429"),
        "{refused}"
    );
    assert!(refused.is_empty() || refused.contains("too_many_connections"));
    // Another address is served meanwhile.
    let other = Client::from_address(&server, "127.0.0.3");
    assert_eq!(other.get("/api/health").await.status, 200);
    // The WebSocket holds its place until it closes; then one more may come.
    lobby.close(None).await.unwrap();
    drop(lobby);
    let mut admitted = false;
    for _ in 0..50 {
        if health_from(&server, "127.0.0.2")
            .await
            .starts_with("HTTP/1.1 200")
        {
            admitted = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(admitted, "the WebSocket's place was not given back");
    drop(idle);
}

async fn every_answer_has_the_security_headers(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let anon = Client::anonymous(&server);
    let bare = reqwest::Client::new();
    let mut answers = Vec::new();
    for path in [
        "/",
        "/js/main.js",
        "/css/app.css",
        "/api/health",
        "/api/nothing",
        "/games/12",
    ] {
        answers.push((path, anon.get(path).await.headers));
    }
    let forged = bare
        .post(format!("{}/api/challenges", server.base))
        .header("origin", "http://evil.example")
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(forged.status(), 403);
    answers.push(("forged POST", forged.headers().clone()));
    for (what, headers) in answers {
        let csp = headers["content-security-policy"].to_str().unwrap();
        assert!(
            csp.contains("script-src 'self'") && csp.contains("frame-ancestors 'none'"),
            "{what}: {csp}"
        );
        // The WebSockets of this server's own origin are allowed.
        let own = server.base.replace("http://", "ws://");
        assert!(csp.contains(&own), "{what}: {csp}");
        assert_eq!(headers["x-frame-options"], "DENY", "{what}");
        assert_eq!(headers["x-content-type-options"], "nosniff", "{what}");
        assert_eq!(headers["referrer-policy"], "same-origin", "{what}");
    }
}

/// The origin of pages is the configured one, not the `Host` a request
/// names: a page elsewhere cannot pass by sending its own host.
async fn own_origin_is_configured_not_taken_from_host(backend: Backend) {
    let public = ServerConfig {
        origins: vec!["https://play.example.org".into()],
        ..config()
    };
    let Some(server) = TestServer::new(backend, public).await else {
        return;
    };
    let ke = server.player("ke", "1d").await;
    let post = |origin: &'static str, host: &'static str| {
        let ke = ke.clone();
        async move {
            ke.send(
                ke.raw(reqwest::Method::POST, "/api/challenges")
                    .header("origin", origin)
                    .header("host", host)
                    .json(&json!({"size": 9})),
            )
            .await
        }
    };
    let rebound = post("http://evil.example:8080", "evil.example:8080").await;
    assert_eq!(rebound.json["error"], "cross_origin", "{}", rebound.body);
    assert_eq!(
        post("https://play.example.org", "127.0.0.1").await.status,
        201
    );
}

crate::for_both_backends!(
    idle_half_requests_are_closed_after_the_header_deadline,
    connections_are_capped_per_address,
    every_answer_has_the_security_headers,
    own_origin_is_configured_not_taken_from_host,
);
