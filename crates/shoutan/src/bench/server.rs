//! `shoutan bench server`: the game server under load. It starts the real
//! server in-process over a fresh SQLite file (or `--database`), registers
//! two players per game over HTTP, starts the games through the lobby API,
//! and then scripted clients play random legal moves over loopback
//! WebSockets at a steady total rate. It prints the sustained moves per
//! second and the latency from a move's send to its receipt by the
//! opponent (p50/p99), and checks that every acknowledged move is in the
//! durable log.
//!
//! Each move is durable before anyone hears of it (SQLite WAL,
//! `synchronous = FULL`, group commit). Password hashing is set to its
//! cheapest for the setup; it is not what is measured.

use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, anyhow, bail};
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use shoutan_rules::{BoardSize, Color, Game, Point, Ruleset};
use shoutan_server::ServerConfig;
use shoutan_server::accounts::password::PasswordCost;
use shoutan_server::accounts::rate_limit::Limit;
use shoutan_store::{Database, Store};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// Arguments.
#[derive(clap::Args)]
pub struct Args {
    /// Concurrent games (two WebSocket clients each).
    #[arg(long, default_value_t = 1000)]
    games: usize,
    /// Total moves per second asked of all games together.
    #[arg(long, default_value_t = 5000)]
    rate: u32,
    /// Seconds of play measured (after a warm-up of 3 s).
    #[arg(long, default_value_t = 20)]
    seconds: u64,
    /// Board size.
    #[arg(long, default_value_t = 19)]
    size: u32,
    /// A database URL (default: a fresh SQLite file in a temporary directory).
    #[arg(long)]
    database: Option<String>,
}

const WARM_UP: Duration = Duration::from_secs(3);

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// What one game's driver measured.
#[derive(Default)]
struct Tally {
    /// Send-to-opponent-receipt latencies of moves in the measured window, µs.
    latencies: Vec<u32>,
    /// Moves acknowledged in the measured window.
    measured: u64,
    /// All moves acknowledged.
    acknowledged: u64,
    /// Whether the game ended (two passes) before the time was up.
    ended: bool,
}

/// Runs the benchmark.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.games == 0 || args.rate == 0 {
        bail!("--games and --rate must be positive");
    }
    let size = BoardSize::new(args.size).map_err(|e| anyhow!("{e}"))?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(bench(args, size))
}

async fn bench(args: Args, size: BoardSize) -> anyhow::Result<ExitCode> {
    let dir = tempfile::tempdir()?;
    let database = match &args.database {
        Some(url) => url.parse().context("--database")?,
        None => Database::sqlite_in(dir.path()),
    };
    let store = shoutan_store::open(&database).await?;
    let unlimited = Limit::new(u32::MAX, Duration::from_millis(1));
    let config = ServerConfig {
        password_cost: PasswordCost::TESTING,
        register_per_address: unlimited,
        login_per_address: unlimited,
        login_per_account: unlimited,
        ..ServerConfig::default()
    };
    let app = shoutan_server::start(Arc::clone(&store), config).await?;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let base = format!("http://{}", listener.local_addr()?);
    tokio::spawn(shoutan_server::serve(listener, app, std::future::pending()));

    println!(
        "setting up {} games ({} accounts, {} WebSockets) on {}×{} …",
        args.games,
        2 * args.games,
        2 * args.games,
        size.get(),
        size.get()
    );
    let setup = Instant::now();
    let http = reqwest::Client::new();
    let mut games = Vec::with_capacity(args.games);
    let mut pending = Vec::new();
    for i in 0..args.games {
        let (http, base) = (http.clone(), base.clone());
        pending.push(tokio::spawn(async move {
            open_game(&http, &base, i, size).await
        }));
        if pending.len() == 64 || i + 1 == args.games {
            for task in pending.drain(..) {
                games.push(task.await??);
            }
        }
    }
    println!("  ready in {:.1} s", setup.elapsed().as_secs_f64());

    let interval = Duration::from_secs_f64(args.games as f64 / f64::from(args.rate));
    let start = Instant::now() + Duration::from_millis(200);
    let measure_from = start + WARM_UP;
    let end = measure_from + Duration::from_secs(args.seconds);
    let mut drivers = Vec::with_capacity(games.len());
    for (i, game) in games.into_iter().enumerate() {
        let offset = interval.mul_f64(i as f64 / args.games as f64);
        drivers.push(tokio::spawn(drive(
            game,
            size,
            start + offset,
            interval,
            measure_from,
            end,
            fastrand::u64(..),
        )));
    }
    let mut total = Tally::default();
    let mut failures = 0;
    for driver in drivers {
        match driver.await? {
            Ok(t) => {
                total.latencies.extend(t.latencies);
                total.measured += t.measured;
                total.acknowledged += t.acknowledged;
                total.ended |= t.ended;
            }
            Err(e) => {
                failures += 1;
                eprintln!("a game failed: {e:#}");
            }
        }
    }
    report(&args, &total, failures, &*store, args.games).await
}

/// A game ready to play: its id and both players' sockets.
struct OpenGame {
    id: i64,
    black: Socket,
    white: Socket,
}

async fn register(http: &reqwest::Client, base: &str, name: &str) -> anyhow::Result<String> {
    let response = http
        .post(format!("{base}/api/accounts"))
        .header("x-shoutan-request", "1")
        .json(&serde_json::json!({"name": name, "password": "benchmark", "rank": "5k"}))
        .send()
        .await?;
    if response.status() != 201 {
        bail!("registering {name}: {}", response.text().await?);
    }
    response
        .headers()
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .map(str::to_owned)
        .ok_or_else(|| anyhow!("no session cookie"))
}

async fn open_game(
    http: &reqwest::Client,
    base: &str,
    i: usize,
    size: BoardSize,
) -> anyhow::Result<OpenGame> {
    let black = register(http, base, &format!("bench-b{i}")).await?;
    let white = register(http, base, &format!("bench-w{i}")).await?;
    let challenge: serde_json::Value = http
        .post(format!("{base}/api/challenges"))
        .header("x-shoutan-request", "1")
        .header("cookie", &black)
        .json(&serde_json::json!({
            "size": size.get(), "colour": "black", "rated": false,
            "time_control": "1h + 5×30s byo-yomi",
        }))
        .send()
        .await?
        .json()
        .await?;
    let game: serde_json::Value = http
        .post(format!("{base}/api/challenges/{}/accept", challenge["id"]))
        .header("x-shoutan-request", "1")
        .header("cookie", &white)
        .send()
        .await?
        .json()
        .await?;
    let id = game["id"]
        .as_i64()
        .ok_or_else(|| anyhow!("accepting: {game}"))?;
    Ok(OpenGame {
        id,
        black: connect(base, id, &black).await?,
        white: connect(base, id, &white).await?,
    })
}

async fn connect(base: &str, game: i64, cookie: &str) -> anyhow::Result<Socket> {
    let url = format!("{}/api/games/{game}/ws", base.replace("http://", "ws://"));
    let mut request = url.into_client_request()?;
    request
        .headers_mut()
        .insert("cookie", HeaderValue::from_str(cookie)?);
    let (mut socket, _) = tokio_tungstenite::connect_async_with_config(
        request,
        Some(
            tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
                .read_buffer_size(8 * 1024),
        ),
        true,
    )
    .await
    .context("opening a WebSocket (is `ulimit -n` at least 4 × games?)")?;
    loop {
        if next_frame(&mut socket).await?.kind == "welcome" {
            return Ok(socket);
        }
    }
}

/// The fields of a frame the driver looks at.
#[derive(Deserialize)]
struct Frame {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    id: Option<u64>,
    #[serde(default)]
    v: Option<u64>,
    #[serde(default)]
    code: Option<String>,
}

async fn next_frame(socket: &mut Socket) -> anyhow::Result<Frame> {
    loop {
        let message = tokio::time::timeout(Duration::from_secs(30), socket.next())
            .await
            .context("no frame for 30 s")?
            .ok_or_else(|| anyhow!("connection closed"))??;
        if let Message::Text(text) = message {
            return Ok(serde_json::from_str(&text)?);
        }
    }
}

/// A random legal move for the player to move (no filling of his own
/// eyes), or a pass.
fn choose(game: &Game, rng: &mut fastrand::Rng) -> Option<Point> {
    let color = game.to_move();
    let board = game.board();
    let i = shoutan_rules::random_move(board, color, game.ruleset().suicide, rng)?;
    let p = board.point(i);
    if game.is_legal(color, p) {
        return Some(p);
    }
    // Rarely, a superko point: draw among all the legal ones.
    let mut points = game.legal_points();
    points.retain(|&q| !board.is_eye(board.index(q), color));
    (!points.is_empty()).then(|| points[rng.usize(..points.len())])
}

/// Plays one game at its pace: every `interval` the player to move sends a
/// move and the driver waits for the opponent to receive it and the mover
/// to get his acknowledgement.
async fn drive(
    mut game: OpenGame,
    size: BoardSize,
    first: Instant,
    interval: Duration,
    measure_from: Instant,
    end: Instant,
    seed: u64,
) -> anyhow::Result<Tally> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut mirror = Game::new(size, Ruleset::CHINESE);
    let mut tally = Tally::default();
    let mut next_send = first;
    let mut ids = [0u64; 2];
    while Instant::now() < end {
        tokio::time::sleep_until(next_send.into()).await;
        let color = mirror.to_move();
        let point = choose(&mirror, &mut rng);
        let (mover, opponent) = match color {
            Color::Black => (&mut game.black, &mut game.white),
            Color::White => (&mut game.white, &mut game.black),
        };
        ids[color.index()] += 1;
        let id = ids[color.index()];
        let command = match point {
            Some(p) => format!(
                r#"{{"type":"move","id":{id},"point":"{}"}}"#,
                p.to_gtp(size)
            ),
            None => format!(r#"{{"type":"pass","id":{id}}}"#),
        };
        let sent = Instant::now();
        mover.send(Message::Text(command.into())).await?;
        let version = loop {
            let frame = next_frame(mover).await?;
            match frame.kind.as_str() {
                "ack" if frame.id == Some(id) => break frame.v.unwrap_or(0),
                "error" if frame.id == Some(id) => {
                    bail!("game {}: move refused: {:?}", game.id, frame.code)
                }
                _ => {}
            }
        };
        loop {
            let frame = next_frame(opponent).await?;
            if frame.kind == "event" && frame.v >= Some(version) {
                break;
            }
        }
        let latency = sent.elapsed();
        tally.acknowledged += 1;
        if sent >= measure_from && sent < end {
            tally.measured += 1;
            tally
                .latencies
                .push(u32::try_from(latency.as_micros()).unwrap_or(u32::MAX));
        }
        match point {
            Some(p) => mirror.play(color, p)?,
            None => mirror.pass(color)?,
        };
        if mirror.phase() != shoutan_rules::Phase::Play {
            tally.ended = true;
            break;
        }
        next_send = (next_send + interval).max(Instant::now());
    }
    Ok(tally)
}

fn percentile(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((sorted.len() - 1) as f64 * p).round() as usize;
    f64::from(sorted[rank]) / 1000.0
}

async fn report(
    args: &Args,
    total: &Tally,
    failures: usize,
    store: &dyn Store,
    games: usize,
) -> anyhow::Result<ExitCode> {
    let mut latencies = total.latencies.clone();
    latencies.sort_unstable();
    let rate = total.measured as f64 / args.seconds as f64;
    println!(
        "{} games, {} s measured after {} s warm-up, asked {} moves/s",
        games,
        args.seconds,
        WARM_UP.as_secs(),
        args.rate
    );
    println!("  sustained: {rate:.0} moves/s ({} moves)", total.measured);
    println!(
        "  send → opponent receipt: p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        percentile(&latencies, 0.50),
        percentile(&latencies, 0.90),
        percentile(&latencies, 0.99),
        percentile(&latencies, 1.0)
    );
    if total.ended {
        println!("  (some games reached two passes and stopped early)");
    }
    // Every acknowledged move must be in the log: count what is stored.
    let mut stored = 0u64;
    for row in store.live_games().await? {
        let events = store.events(row.id, 0).await?;
        stored += events
            .iter()
            .filter(|e| e.body.contains(r#""type":"move""#) || e.body.contains(r#""type":"pass""#))
            .count() as u64;
    }
    println!(
        "  durable: {stored} moves in the log for {} acknowledged",
        total.acknowledged
    );
    if failures > 0 || stored < total.acknowledged {
        eprintln!(
            "{failures} games failed; {} moves missing from the log",
            total.acknowledged.saturating_sub(stored)
        );
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}
