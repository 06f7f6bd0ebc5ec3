//! The real server on a random port over a temporary SQLite file (or a
//! fresh PostgreSQL schema), and real HTTP and WebSocket clients.

use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use shoutan_server::accounts::password::PasswordCost;
use shoutan_server::accounts::rate_limit::Limit;
use shoutan_server::{ServerConfig, serve, start};
use shoutan_store::{Database, Store};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::{Bytes, Message};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// How long a test waits for a frame before failing.
const PATIENCE: Duration = Duration::from_secs(10);

/// Which database a test runs over.
#[derive(Clone, Copy, Debug)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// A server under test, in a runtime of its own so that stopping it stops
/// everything it runs, as a crash would.
pub struct TestServer {
    pub base: String,
    pub store: Arc<dyn Store>,
    database: Database,
    runtime: Option<tokio::runtime::Runtime>,
    _dir: Option<tempfile::TempDir>,
}

/// The test configuration: the cheapest password hash, short waits, and
/// registrations unlimited (tests make many players from one address).
pub fn config() -> ServerConfig {
    ServerConfig {
        password_cost: PasswordCost::TESTING,
        abandonment: Duration::from_secs(1),
        register_per_address: Limit::new(1000, Duration::from_millis(1)),
        ..ServerConfig::default()
    }
}

fn postgres_url() -> Option<String> {
    shoutan_test_env::locate(shoutan_test_env::External::Postgres)
}

impl TestServer {
    /// A server over `backend`, or `None` when PostgreSQL is not available
    /// outside CI (the test is then skipped).
    pub async fn new(backend: Backend, config: ServerConfig) -> Option<TestServer> {
        let (database, dir) = match backend {
            Backend::Sqlite => {
                let dir = tempfile::tempdir().unwrap();
                (Database::sqlite_in(dir.path()), Some(dir))
            }
            Backend::Postgres => (
                Database::Postgres {
                    url: postgres_url()?,
                    schema: Some(format!(
                        "shoutan_server_test_{}_{}",
                        std::process::id(),
                        fastrand::u64(..)
                    )),
                },
                None,
            ),
        };
        Some(TestServer::over(database, dir, config).await)
    }

    async fn over(
        database: Database,
        dir: Option<tempfile::TempDir>,
        config: ServerConfig,
    ) -> TestServer {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        let (ready, started) = tokio::sync::oneshot::channel();
        let opened = database.clone();
        runtime.spawn(async move {
            let store = shoutan_store::open(&opened).await.unwrap();
            let app = start(Arc::clone(&store), config).await.unwrap();
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let base = format!("http://{}", listener.local_addr().unwrap());
            ready.send((base, store)).ok().unwrap();
            serve(listener, app, std::future::pending()).await.unwrap();
        });
        let (base, store) = started.await.unwrap();
        TestServer {
            base,
            store,
            database,
            runtime: Some(runtime),
            _dir: dir,
        }
    }

    /// Stops this server as a crash would (every task of it ends where it
    /// is), stays down for `down`, and starts a new one over the same data.
    pub async fn restart(mut self, down: Duration, config: ServerConfig) -> TestServer {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
        tokio::time::sleep(down).await;
        let database = self.database.clone();
        let dir = self._dir.take();
        let schema_kept = TestServer::over(database, dir, config).await;
        // The old value must not drop the PostgreSQL schema still in use.
        self.database = Database::Sqlite(std::path::PathBuf::new());
        schema_kept
    }

    /// Runs `sql` on the server's database behind its back (to break it).
    pub async fn raw_sql(&self, sql: &str) {
        match &self.database {
            Database::Sqlite(path) => {
                let conn = rusqlite::Connection::open(path).unwrap();
                conn.execute_batch(sql).unwrap();
            }
            Database::Postgres { url, schema } => {
                shoutan_test_env::postgres_sql(url, schema.as_deref(), sql)
                    .await
                    .unwrap();
            }
        }
    }

    /// A new account, logged in.
    pub async fn player(&self, name: &str, rank: &str) -> Client {
        let client = Client::anonymous(self);
        let response = client
            .post(
                "/api/accounts",
                json!({"name": name, "password": "correct horse", "rank": rank}),
            )
            .await;
        assert_eq!(response.status, 201, "{}", response.body);
        Client {
            cookie: response.cookie,
            ..client
        }
    }

    /// A game between two new players: `black` challenges with black and
    /// `white` accepts. `settings` adds to the challenge.
    pub async fn game(&self, settings: Value) -> (Client, Client, i64) {
        let black = self.player(&format!("b{}", fastrand::u32(..)), "5k").await;
        let white = self.player(&format!("w{}", fastrand::u32(..)), "5k").await;
        let id = black.game_with(&white, settings).await;
        (black, white, id)
    }
}

impl Client {
    /// A game of this player's, with black, against `white`: he challenges
    /// on 9×9 and `white` accepts. `settings` adds to the challenge.
    pub async fn game_with(&self, white: &Client, settings: Value) -> i64 {
        let mut challenge = json!({"size": 9, "color": "black"});
        if let (Value::Object(c), Value::Object(extra)) = (&mut challenge, settings) {
            c.extend(extra);
        }
        let made = self.post("/api/challenges", challenge).await;
        assert_eq!(made.status, 201, "{}", made.body);
        let accepted = white
            .post(
                &format!("/api/challenges/{}/accept", made.json["id"]),
                json!({}),
            )
            .await;
        assert_eq!(accepted.status, 201, "{}", accepted.body);
        accepted.json["id"].as_i64().unwrap()
    }
}

impl TestServer {
    /// Runs SQL statements on the server's database from a connection of
    /// the test's own (to plant a fault, say).
    pub async fn sql(&self, statements: &str) {
        match &self.database {
            Database::Sqlite(path) => {
                let connection = rusqlite::Connection::open(path).unwrap();
                connection.execute_batch(statements).unwrap();
            }
            Database::Postgres { url, schema } => {
                let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
                    .await
                    .unwrap();
                let task = tokio::spawn(connection);
                if let Some(schema) = schema {
                    client
                        .batch_execute(&format!("SET search_path = {schema}"))
                        .await
                        .unwrap();
                }
                client.batch_execute(statements).await.unwrap();
                drop(client);
                let _ = task.await;
            }
        }
    }

    /// Whether the server runs on SQLite.
    pub fn is_sqlite(&self) -> bool {
        matches!(self.database, Database::Sqlite(_))
    }
}

impl Drop for TestServer {
    /// Stops the server and drops a PostgreSQL test schema.
    fn drop(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
        let Database::Postgres {
            url,
            schema: Some(schema),
        } = self.database.clone()
        else {
            return;
        };
        let _ = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async {
                if let Ok((client, connection)) =
                    tokio_postgres::connect(&url, tokio_postgres::NoTls).await
                {
                    let task = tokio::spawn(connection);
                    let _ = client
                        .batch_execute(&format!("DROP SCHEMA IF EXISTS {schema} CASCADE"))
                        .await;
                    drop(client);
                    let _ = task.await;
                }
            });
        })
        .join();
    }
}

/// An HTTP answer.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub body: String,
    pub json: Value,
    pub cookie: Option<String>,
    pub headers: reqwest::header::HeaderMap,
}

/// An HTTP client with its session cookie.
#[derive(Clone, Debug)]
pub struct Client {
    pub base: String,
    pub cookie: Option<String>,
    http: reqwest::Client,
}

impl Client {
    /// A client without a session.
    pub fn anonymous(server: &TestServer) -> Client {
        Client {
            base: server.base.clone(),
            cookie: None,
            http: reqwest::Client::new(),
        }
    }

    /// A client without a session whose connections come from `address`
    /// (any of 127.0.0.0/8: another machine, as far as the server knows).
    pub fn from_address(server: &TestServer, address: &str) -> Client {
        Client {
            base: server.base.clone(),
            cookie: None,
            http: reqwest::Client::builder()
                .local_address(address.parse::<std::net::IpAddr>().unwrap())
                .build()
                .unwrap(),
        }
    }

    /// This client logged in as `name` (or the failed answer).
    pub async fn login(&self, name: &str, password: &str) -> Result<Client, Answer> {
        let answer = self
            .post("/api/session", json!({"name": name, "password": password}))
            .await;
        if answer.status == 200 {
            Ok(Client {
                cookie: answer.cookie,
                ..self.clone()
            })
        } else {
            Err(answer)
        }
    }

    /// Sends a request with the session cookie and the CSRF header.
    pub async fn send(&self, request: reqwest::RequestBuilder) -> Answer {
        let mut request = request.header("x-shoutan-request", "1");
        if let Some(cookie) = &self.cookie {
            request = request.header("cookie", cookie);
        }
        let response = request.send().await.unwrap();
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let cookie = headers
            .get("set-cookie")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').next())
            .map(str::to_owned);
        let body = response.text().await.unwrap();
        let json = serde_json::from_str(&body).unwrap_or(Value::Null);
        Answer {
            status,
            body,
            json,
            cookie,
            headers,
        }
    }

    pub async fn get(&self, path: &str) -> Answer {
        self.send(self.http.get(format!("{}{path}", self.base)))
            .await
    }

    pub async fn post(&self, path: &str, body: Value) -> Answer {
        self.send(self.http.post(format!("{}{path}", self.base)).json(&body))
            .await
    }

    pub async fn delete(&self, path: &str) -> Answer {
        self.send(self.http.delete(format!("{}{path}", self.base)))
            .await
    }

    /// The raw request builder, for hostile requests.
    pub fn raw(&self, method: reqwest::Method, path: &str) -> reqwest::RequestBuilder {
        self.http.request(method, format!("{}{path}", self.base))
    }

    /// A game as the API shows it to this client.
    pub async fn game(&self, id: i64) -> Value {
        let answer = self.get(&format!("/api/games/{id}")).await;
        assert_eq!(answer.status, 200, "{}", answer.body);
        answer.json
    }

    /// Opens the game's WebSocket (with `since`, after a reconnect) and
    /// reads the welcome.
    pub async fn ws(&self, game: i64, since: Option<u64>) -> Ws {
        let query = since.map(|s| format!("?since={s}")).unwrap_or_default();
        let mut ws = self.connect(&format!("/api/games/{game}/ws{query}")).await;
        let welcome = ws.next_of("welcome").await;
        ws.next_id = welcome["last_command_id"].as_u64().unwrap_or(0) + 1;
        ws.seen.push(welcome);
        ws
    }

    /// Opens a WebSocket at `path` with this client's session cookie.
    async fn connect(&self, path: &str) -> Ws {
        let url = self.base.replace("http://", "ws://");
        let mut request = format!("{url}{path}").into_client_request().unwrap();
        if let Some(cookie) = &self.cookie {
            request
                .headers_mut()
                .insert("cookie", HeaderValue::from_str(cookie).unwrap());
        }
        let (stream, _) = tokio_tungstenite::connect_async_with_config(
            request,
            Some(
                tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
                    .read_buffer_size(8 * 1024),
            ),
            true,
        )
        .await
        .unwrap();
        Ws {
            stream,
            next_id: 1,
            seen: Vec::new(),
        }
    }

    /// Opens the lobby's WebSocket and reads its snapshot.
    pub async fn lobby(&self) -> (Ws, Value) {
        self.lobby_at("/api/lobby/ws").await
    }

    /// Opens the lobby's WebSocket at `path` (with a query, say) and reads
    /// its snapshot.
    pub async fn lobby_at(&self, path: &str) -> (Ws, Value) {
        let mut ws = self.connect(path).await;
        let snapshot = ws.next_of("lobby").await;
        (ws, snapshot)
    }
}

/// The games in memory, as `/metrics` counts them.
pub async fn games_loaded(client: &Client) -> String {
    let text = client.get("/metrics").await.body;
    text.lines()
        .find_map(|l| l.strip_prefix("shoutan_games_loaded "))
        .unwrap_or("?")
        .to_owned()
}

/// A WebSocket client.
pub struct Ws {
    stream: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// The next command id.
    pub next_id: u64,
    /// Every JSON frame received, in order.
    pub seen: Vec<Value>,
}

impl Ws {
    /// Sends a text frame as it is.
    pub async fn send_text(&mut self, text: impl Into<String>) {
        self.stream
            .send(Message::Text(text.into().into()))
            .await
            .unwrap();
    }

    /// Sends a binary frame.
    pub async fn send_binary(&mut self, bytes: Vec<u8>) {
        self.stream
            .send(Message::Binary(Bytes::from(bytes)))
            .await
            .unwrap();
    }

    /// Sends a text frame of raw bytes, UTF-8 or not.
    pub async fn send_raw_text(&mut self, bytes: Vec<u8>) {
        use tokio_tungstenite::tungstenite::protocol::frame::Frame;
        use tokio_tungstenite::tungstenite::protocol::frame::coding::{Data, OpCode};
        let frame = Frame::message(bytes, OpCode::Data(Data::Text), true);
        self.stream.send(Message::Frame(frame)).await.unwrap();
    }

    /// The server's close frame (code and reason), skipping other frames;
    /// `None` if the connection ended without one.
    pub async fn close_frame(&mut self) -> Option<(u16, String)> {
        let deadline = tokio::time::Instant::now() + PATIENCE;
        loop {
            let message = tokio::time::timeout_at(deadline, self.stream.next())
                .await
                .expect("no close in time");
            match message {
                Some(Ok(Message::Close(Some(frame)))) => {
                    return Some((frame.code.into(), frame.reason.to_string()));
                }
                Some(Ok(Message::Close(None)) | Err(_)) | None => return None,
                Some(Ok(_)) => {}
            }
        }
    }

    /// The next JSON frame if one comes within `wait`.
    pub async fn next_within(&mut self, wait: Duration) -> Option<Value> {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            let message = tokio::time::timeout_at(deadline, self.stream.next())
                .await
                .ok()?
                .expect("the connection closed")
                .unwrap();
            if let Message::Text(text) = message {
                let value: Value = serde_json::from_str(&text).unwrap();
                self.seen.push(value.clone());
                return Some(value);
            }
        }
    }

    /// The next JSON frame.
    pub async fn next(&mut self) -> Value {
        let deadline = tokio::time::Instant::now() + PATIENCE;
        loop {
            let message = tokio::time::timeout_at(deadline, self.stream.next())
                .await
                .expect("no frame in time")
                .expect("the connection closed")
                .unwrap();
            if let Message::Text(text) = message {
                let value: Value = serde_json::from_str(&text).unwrap();
                self.seen.push(value.clone());
                return value;
            }
        }
    }

    /// The next frame of type `kind`, skipping others.
    pub async fn next_of(&mut self, kind: &str) -> Value {
        loop {
            let frame = self.next().await;
            if frame["type"] == kind {
                return frame;
            }
        }
    }

    /// The next event whose `event.type` is `kind`.
    pub async fn event(&mut self, kind: &str) -> Value {
        loop {
            let frame = self.next_of("event").await;
            if frame["event"]["type"] == kind {
                return frame;
            }
        }
    }

    /// The next move event at `point`.
    pub async fn move_event(&mut self, point: &str) -> Value {
        loop {
            let frame = self.event("move").await;
            if frame["event"]["point"] == point {
                return frame;
            }
        }
    }

    /// Sends a command with the next id and waits for its ack (`Ok(version)`)
    /// or error frame (`Err(frame)`).
    pub async fn command(&mut self, mut command: Value) -> Result<u64, Value> {
        let id = self.next_id;
        self.next_id += 1;
        command["id"] = json!(id);
        self.send_text(command.to_string()).await;
        loop {
            let frame = self.next().await;
            if frame["id"] == json!(id) {
                return match frame["type"].as_str() {
                    Some("ack") => Ok(frame["v"].as_u64().unwrap()),
                    _ => Err(frame),
                };
            }
        }
    }

    /// A command that must succeed.
    pub async fn ok(&mut self, command: Value) -> u64 {
        self.command(command.clone())
            .await
            .unwrap_or_else(|e| panic!("{command} refused: {e}"))
    }

    /// A command that must fail with `code`; returns the error frame.
    pub async fn refused(&mut self, command: Value, code: &str) -> Value {
        let error = self
            .command(command.clone())
            .await
            .expect_err(&format!("{command} was accepted"));
        assert_eq!(error["code"], code, "{command}: {error}");
        error
    }

    /// Plays `point` (or passes for `"pass"`).
    pub async fn play(&mut self, point: &str) -> u64 {
        if point == "pass" {
            self.ok(json!({"type": "pass"})).await
        } else {
            self.ok(json!({"type": "move", "point": point})).await
        }
    }

    /// Closes the connection.
    pub async fn close(mut self) {
        let _ = self.stream.close(None).await;
    }
}

/// Plays `moves` alternately from black's and white's connections,
/// starting with `first` (0 = black).
pub async fn play_moves(black: &mut Ws, white: &mut Ws, moves: &[&str]) -> u64 {
    let mut v = 0;
    for (i, point) in moves.iter().enumerate() {
        v = if i % 2 == 0 {
            black.play(point).await
        } else {
            white.play(point).await
        };
    }
    v
}

/// Generates one test per backend for each test function.
#[macro_export]
macro_rules! for_both_backends {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    super::$name($crate::common::Backend::Sqlite).await;
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    super::$name($crate::common::Backend::Postgres).await;
                }
            )*
        }
    };
}
