//! What the tests of `shoutan serve` as a process share: the built binary
//! started on a free port, and players who talk to it over HTTP and
//! WebSocket as the web client does.

#![allow(dead_code)] // each test binary uses its part

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;

/// How long a test waits for a frame.
const PATIENCE: Duration = Duration::from_secs(10);

/// A `shoutan serve` process and its address.
pub struct Server {
    child: Child,
    pub base: String,
}

impl Server {
    /// Starts `shoutan serve --addr 127.0.0.1:0` with `args`.
    pub fn start(args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_shoutan"))
            .args(["serve", "--addr", "127.0.0.1:0"])
            .args(args)
            .stdout(Stdio::piped())
            // SHOUTAN_TEST_SERVER_LOG=1 shows the servers' logs.
            .stderr(if std::env::var_os("SHOUTAN_TEST_SERVER_LOG").is_some() {
                Stdio::inherit()
            } else {
                Stdio::null()
            })
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

    /// Stops the process where it is (`SIGSTOP`), as a machine that
    /// hangs: no heartbeat, no answer, its connections open.
    pub fn freeze(&self) {
        self.signal("-STOP");
    }

    /// Lets a frozen process run on (`SIGCONT`).
    pub fn thaw(&self) {
        self.signal("-CONT");
    }

    fn signal(&self, signal: &str) {
        let status = Command::new("kill")
            .arg(signal)
            .arg(self.child.id().to_string())
            .status()
            .unwrap();
        assert!(status.success(), "kill {signal}");
    }

    /// `kill -9`.
    pub fn kill(mut self) {
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

/// A player with a session.
#[derive(Clone)]
pub struct Player {
    pub base: String,
    pub cookie: String,
    pub http: reqwest::Client,
}

impl Player {
    /// A new account on the server at `base`, logged in.
    pub async fn register(base: &str, name: &str) -> Player {
        let http = reqwest::Client::new();
        let response = http
            .post(format!("{base}/api/accounts"))
            .header("x-shoutan-request", "1")
            .json(&json!({"name": name, "password": "crash test", "rank": "2d"}))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 201);
        Player::with_session(base, http, &response)
    }

    /// Logs `name` in with `password`, from a browser called "test
    /// browser of NAME": the player, or the status and body of the refusal.
    pub async fn login(base: &str, name: &str, password: &str) -> Result<Player, (u16, Value)> {
        let http = reqwest::Client::new();
        let response = http
            .post(format!("{base}/api/session"))
            .header("x-shoutan-request", "1")
            .header("user-agent", format!("test browser of {name}"))
            .json(&json!({"name": name, "password": password}))
            .send()
            .await
            .unwrap();
        let status = response.status().as_u16();
        if status != 200 {
            return Err((status, response.json().await.unwrap_or(Value::Null)));
        }
        Ok(Player::with_session(base, http, &response))
    }

    /// The player whose session `response` opened.
    fn with_session(base: &str, http: reqwest::Client, response: &reqwest::Response) -> Player {
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

    /// The same player on another server (instance).
    pub fn at(&self, base: &str) -> Player {
        Player {
            base: base.to_owned(),
            ..self.clone()
        }
    }

    pub async fn post(&self, path: &str, body: Value) -> Value {
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

    /// A request with any method: the status and the body (JSON, or
    /// `null` when there is none).
    pub async fn send(&self, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
        let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
        let mut request = self
            .http
            .request(method, format!("{}{path}", self.base))
            .header("x-shoutan-request", "1")
            .header("cookie", &self.cookie);
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().await.unwrap();
        let status = response.status().as_u16();
        let text = response.text().await.unwrap();
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    pub async fn game(&self, id: i64) -> Value {
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

    /// Opens a WebSocket at `path` (`/api/games/7/ws`, `/api/lobby/ws`).
    pub async fn connect(&self, path: &str) -> Result<Ws, String> {
        let url = format!("{}{path}", self.base.replace("http://", "ws://"));
        let mut request = url.into_client_request().map_err(|e| e.to_string())?;
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
        .map_err(|e| e.to_string())?;
        Ok(Ws {
            socket,
            next_id: 1,
            seen: Vec::new(),
        })
    }

    /// Opens the game's WebSocket and reads the welcome.
    pub async fn ws(&self, id: i64) -> Ws {
        let mut ws = self.connect(&format!("/api/games/{id}/ws")).await.unwrap();
        let welcome = ws.next_of("welcome").await;
        ws.next_id = welcome["last_command_id"].as_u64().unwrap_or(0) + 1;
        ws
    }
}

/// A WebSocket client.
pub struct Ws {
    socket: tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >,
    pub next_id: u64,
    /// Every frame read, in order.
    pub seen: Vec<Value>,
}

impl Ws {
    /// The next JSON frame; `None` when the connection closed.
    pub async fn next(&mut self) -> Option<Value> {
        loop {
            let message = tokio::time::timeout(PATIENCE, self.socket.next())
                .await
                .expect("no frame in time")?;
            match message {
                Ok(Message::Text(text)) => {
                    let frame: Value = serde_json::from_str(&text).unwrap();
                    self.seen.push(frame.clone());
                    return Some(frame);
                }
                Ok(Message::Close(_)) | Err(_) => return None,
                Ok(_) => {}
            }
        }
    }

    /// The next frame of type `kind`.
    pub async fn next_of(&mut self, kind: &str) -> Value {
        loop {
            let frame = self.next().await.expect("the connection closed");
            if frame["type"] == kind {
                return frame;
            }
        }
    }

    /// Sends a command: its acknowledgement, or the error frame (or `null`
    /// when the connection closed first).
    pub async fn command(&mut self, mut command: Value) -> Result<Value, Value> {
        let id = self.next_id;
        self.next_id += 1;
        command["id"] = json!(id);
        if self
            .socket
            .send(Message::Text(command.to_string().into()))
            .await
            .is_err()
        {
            return Err(Value::Null);
        }
        loop {
            let Some(frame) = self.next().await else {
                return Err(Value::Null);
            };
            if frame["id"] == json!(id) {
                return if frame["type"] == "ack" {
                    Ok(frame)
                } else {
                    Err(frame)
                };
            }
        }
    }

    /// Sends a command that must be acknowledged.
    pub async fn ok(&mut self, command: Value) -> Value {
        let shown = command.to_string();
        self.command(command)
            .await
            .unwrap_or_else(|e| panic!("{shown}: {e}"))
    }

    /// Plays a move (or `pass`).
    pub async fn play(&mut self, point: &str) -> Value {
        if point == "pass" {
            self.ok(json!({"type": "pass"})).await
        } else {
            self.ok(json!({"type": "move", "point": point})).await
        }
    }
}

/// Where a test's server keeps its data: a SQLite directory, or a fresh
/// PostgreSQL database (dropped at the end) on the server that
/// `SHOUTAN_TEST_POSTGRES` names.
pub struct Site {
    /// `--data DIR` or `--database URL`, as `serve` and `admin` take them.
    pub args: Vec<String>,
    _dir: Option<tempfile::TempDir>,
    dropped: Option<(String, String)>,
}

impl Site {
    /// A fresh SQLite directory.
    pub fn sqlite() -> Site {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data").to_str().unwrap().to_owned();
        Site {
            args: vec!["--data".into(), data],
            _dir: Some(dir),
            dropped: None,
        }
    }

    /// A fresh PostgreSQL database, or `None` (skipped) where there is no
    /// server outside CI.
    pub async fn postgres() -> Option<Site> {
        let admin = shoutan_test_env::locate(shoutan_test_env::External::Postgres)?;
        let (base, _) = admin.rsplit_once('/').expect("a URL with a database");
        let name = format!("shoutan_site_{}_{}", std::process::id(), fastrand::u32(..));
        shoutan_test_env::postgres_sql(&admin, None, &format!("CREATE DATABASE {name}"))
            .await
            .unwrap();
        Some(Site {
            args: vec!["--database".into(), format!("{base}/{name}")],
            _dir: None,
            dropped: Some((admin, name)),
        })
    }

    /// A server on this site.
    pub fn serve(&self) -> Server {
        let args: Vec<&str> = self.args.iter().map(String::as_str).collect();
        Server::start(&args)
    }

    /// `shoutan admin` on this site: its output, and whether it succeeded.
    pub fn admin(&self, command: &[&str]) -> (bool, String) {
        let output = Command::new(env!("CARGO_BIN_EXE_shoutan"))
            .arg("admin")
            .args(&self.args)
            .args(command)
            .output()
            .unwrap();
        let said = format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        (output.status.success(), said)
    }
}

impl Drop for Site {
    fn drop(&mut self) {
        if let Some((admin, name)) = self.dropped.take() {
            let sql = format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)");
            let _ = std::thread::spawn(move || {
                tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .unwrap()
                    .block_on(shoutan_test_env::postgres_sql(&admin, None, &sql))
            })
            .join();
        }
    }
}

/// A 9×9 byo-yomi game: `black` challenges, `white` accepts.
pub async fn new_game(black: &Player, white: &Player) -> i64 {
    let challenge = black
        .post(
            "/api/challenges",
            json!({"size": 9, "color": "black", "time_control": "10 min + 3×30s byo-yomi"}),
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

/// `hei` (black) and `bai` (white), registered at `base`, in a new game
/// (see [`new_game`]) with their sockets open, after `moves` played in turn.
pub async fn a_game_played(base: &str, moves: &[&str]) -> (Player, Player, i64, [Ws; 2]) {
    let black = Player::register(base, "hei").await;
    let white = Player::register(base, "bai").await;
    let id = new_game(&black, &white).await;
    let mut sockets = [black.ws(id).await, white.ws(id).await];
    for (i, point) in moves.iter().enumerate() {
        sockets[i % 2].play(point).await;
    }
    (black, white, id, sockets)
}
