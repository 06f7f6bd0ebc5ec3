//! Crash safety of `shoutan serve`: start the built binary, play two games
//! (one in play with its clock running, one in counting with marks and
//! chat), `kill -9` it, restart it over the same data, and find every game,
//! its clocks, counting marks and chat exactly as acknowledged — with the
//! downtime not charged — then play on.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed call is a test failure

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;

/// The server process and its address.
struct Server {
    child: Child,
    base: String,
}

impl Server {
    /// Starts `shoutan serve` on a free port over `data`.
    fn start(data: &Path) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_shoutan"))
            .args(["serve", "--addr", "127.0.0.1:0", "--data"])
            .arg(data)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let first = lines.next().unwrap().unwrap();
        let base = first
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in {first:?}"))
            .to_owned();
        // Keep reading, so that the server never writes into a closed pipe.
        std::thread::spawn(move || for _ in lines {});
        Server { child, base }
    }

    /// `kill -9`.
    fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

struct Player {
    base: String,
    cookie: String,
    http: reqwest::Client,
}

impl Player {
    async fn register(base: &str, name: &str) -> Player {
        let http = reqwest::Client::new();
        let response = http
            .post(format!("{base}/api/accounts"))
            .header("x-shoutan-request", "1")
            .json(&json!({"name": name, "password": "crash test", "rank": "2d"}))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 201);
        let cookie = response.headers()["set-cookie"]
            .to_str()
            .unwrap()
            .split(';')
            .next()
            .unwrap()
            .to_owned();
        Player {
            base: base.to_owned(),
            cookie,
            http,
        }
    }

    async fn post(&self, path: &str, body: Value) -> Value {
        self.http
            .post(format!("{}{path}", self.base))
            .header("x-shoutan-request", "1")
            .header("cookie", &self.cookie)
            .json(&body)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap()
    }

    async fn game(&self, id: i64) -> Value {
        self.http
            .get(format!("{}/api/games/{id}", self.base))
            .header("cookie", &self.cookie)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap()
    }

    async fn ws(&self, id: i64) -> Ws {
        let url = format!(
            "{}/api/games/{id}/ws",
            self.base.replace("http://", "ws://")
        );
        let mut request = url.into_client_request().unwrap();
        request
            .headers_mut()
            .insert("cookie", HeaderValue::from_str(&self.cookie).unwrap());
        let (socket, _) = tokio_tungstenite::connect_async_with_config(
            request,
            Some(
                tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
                    .read_buffer_size(8 * 1024),
            ),
            true,
        )
        .await
        .unwrap();
        let mut ws = Ws { socket, next_id: 1 };
        let welcome = ws.next_of("welcome").await;
        ws.next_id = welcome["last_command_id"].as_u64().unwrap_or(0) + 1;
        ws
    }
}

struct Ws {
    socket: tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >,
    next_id: u64,
}

impl Ws {
    async fn next_of(&mut self, kind: &str) -> Value {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        loop {
            let message = tokio::time::timeout_at(deadline, self.socket.next())
                .await
                .expect("no frame in time")
                .unwrap()
                .unwrap();
            if let Message::Text(text) = message {
                let frame: Value = serde_json::from_str(&text).unwrap();
                if frame["type"] == kind {
                    return frame;
                }
            }
        }
    }

    /// Sends a command and waits for its acknowledgement.
    async fn ok(&mut self, mut command: Value) {
        let id = self.next_id;
        self.next_id += 1;
        command["id"] = json!(id);
        self.socket
            .send(Message::Text(command.to_string().into()))
            .await
            .unwrap();
        loop {
            let frame = self.next_of_any().await;
            if frame["id"] == json!(id) {
                assert_eq!(frame["type"], "ack", "{command}: {frame}");
                return;
            }
        }
    }

    async fn next_of_any(&mut self) -> Value {
        loop {
            let message = tokio::time::timeout(Duration::from_secs(10), self.socket.next())
                .await
                .expect("no frame in time")
                .unwrap()
                .unwrap();
            if let Message::Text(text) = message {
                return serde_json::from_str(&text).unwrap();
            }
        }
    }

    async fn play(&mut self, point: &str) {
        if point == "pass" {
            self.ok(json!({"type": "pass"})).await;
        } else {
            self.ok(json!({"type": "move", "point": point})).await;
        }
    }
}

async fn new_game(black: &Player, white: &Player) -> i64 {
    let challenge = black
        .post(
            "/api/challenges",
            json!({"size": 9, "colour": "black", "time_control": "10 min + 3×30s byo-yomi"}),
        )
        .await;
    let game = white
        .post(
            &format!("/api/challenges/{}/accept", challenge["id"]),
            json!({}),
        )
        .await;
    game["id"].as_i64().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_then_restart_and_play_on() {
    let data = tempfile::tempdir().unwrap();
    let server = Server::start(data.path());
    assert!(
        data.path().join("shoutan.db").exists(),
        "created on first start"
    );
    let black = Player::register(&server.base, "hei").await;
    let white = Player::register(&server.base, "bai").await;

    // Game A: in play, white to move, white's clock running, some chat.
    let a = new_game(&black, &white).await;
    let mut ab = black.ws(a).await;
    let mut aw = white.ws(a).await;
    for (i, point) in ["E5", "C3", "G7", "C7", "G3"].iter().enumerate() {
        if i % 2 == 0 {
            ab.play(point).await
        } else {
            aw.play(point).await
        }
    }
    ab.ok(json!({"type": "chat", "text": "请多指教"})).await;
    aw.ok(json!({"type": "takeback"})).await;

    // Game B: counting, with a toggled group and black's acceptance.
    let b = new_game(&black, &white).await;
    let mut bb = black.ws(b).await;
    let mut bw = white.ws(b).await;
    for (i, point) in ["E5", "D5", "E4", "D4", "pass", "pass"].iter().enumerate() {
        if i % 2 == 0 {
            bb.play(point).await
        } else {
            bw.play(point).await
        }
    }
    bw.ok(json!({"type": "toggle", "point": "D5"})).await;
    bb.ok(json!({"type": "accept"})).await;
    bw.ok(json!({"type": "chat", "text": "D5 is dead?"})).await;

    let a_before = black.game(a).await;
    let b_before = black.game(b).await;
    let last_ack = Instant::now();
    server.kill();
    let killed = Instant::now();
    tokio::time::sleep(Duration::from_secs(2)).await;

    let server = Server::start(data.path());
    let black = Player {
        base: server.base.clone(),
        ..black
    };
    let white = Player {
        base: server.base.clone(),
        ..white
    };
    let a_after = black.game(a).await;
    let read = Instant::now();
    let b_after = black.game(b).await;

    // Everything acknowledged is there, exactly. Game A's log gained the
    // restart's `resume` event (its clock was running); B's was counting.
    for key in ["board", "moves", "chat", "settings", "black", "white"] {
        assert_eq!(a_after[key], a_before[key], "game A: {key}");
        assert_eq!(b_after[key], b_before[key], "game B: {key}");
    }
    assert_eq!(
        a_after["version"].as_u64(),
        a_before["version"].as_u64().map(|v| v + 1)
    );
    assert_eq!(b_after["version"], b_before["version"]);
    assert_eq!(a_after["state"]["offers"]["takeback"], "white");
    assert_eq!(b_after["state"]["counting"], b_before["state"]["counting"]);
    assert_eq!(
        b_after["state"]["counting"]["accepted"],
        json!({"black": true, "white": false})
    );
    // Clocks: black's (stopped) is exact; white's (running) was not charged
    // the downtime. The server's last sign of life is its last heartbeat
    // (every 1 s), so white may get back up to a second thought before the
    // kill, and is charged at most the time since the restart on top.
    assert_eq!(a_after["clock"]["black"], a_before["clock"]["black"]);
    assert_eq!(b_after["clock"]["black"], b_before["clock"]["black"]);
    assert_eq!(b_after["clock"]["white"], b_before["clock"]["white"]);
    let left = |g: &Value| i128::from(g["clock"]["white"]["total_left"].as_u64().unwrap());
    let charged_ms = left(&a_before) - left(&a_after);
    let down = read - killed;
    let allowed_ms = ((read - killed) + (killed - last_ack)).as_millis() as i128 - 2_000 + 300;
    assert!(down >= Duration::from_secs(2));
    assert!(
        (-1_300..allowed_ms).contains(&charged_ms),
        "charged {charged_ms} ms of a {down:?} downtime (allowed -1300..{allowed_ms} ms)"
    );

    // Play on: the takeback is answered, moves are played, game B ends.
    let mut ab = black.ws(a).await;
    let mut aw = white.ws(a).await;
    ab.ok(json!({"type": "takeback_answer", "accept": false}))
        .await;
    aw.play("C5").await;
    ab.play("G5").await;
    let mut bw = white.ws(b).await;
    bw.ok(json!({"type": "accept"})).await;
    let b_end = black.game(b).await;
    assert_eq!(b_end["state"]["status"], "finished");
    assert!(
        b_end["state"]["result"]["international"]
            .as_str()
            .unwrap()
            .starts_with('B')
    );
    let a_end = black.game(a).await;
    assert_eq!(
        a_end["version"].as_u64(),
        a_after["version"].as_u64().map(|v| v + 3)
    );
    drop(server);
}
