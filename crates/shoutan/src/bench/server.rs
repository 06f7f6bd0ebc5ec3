//! `shoutan bench server`: the game server under load, measured from the
//! outside. The server is a separate process — `shoutan serve` started here
//! on a free port over a fresh SQLite directory (or `--database`), with its
//! default settings, or a running one given with `--url` — and this process
//! is its clients, over real TCP. It registers players, starts the games
//! through the lobby API, and then scripted clients play random legal moves
//! over WebSockets at a steady total rate. It prints the sustained moves
//! per second, the latency from a move's send to its receipt by the
//! opponent (p50/p99), the server's resident memory, and checks through the
//! API that every acknowledged move is in the durable log.
//!
//! The clients spread over many loopback addresses (127.0.x.y), as players
//! on many machines would, so that the per-address limits of a public
//! server apply to them as they would to people. Optionally a flood of
//! wrong-password logins runs during the measurement (`--wrong-logins`),
//! from addresses of its own, against names of no account (each one is a
//! full password check), and one client may hold a crowd of spectator
//! sockets on one game (`--spectators`). The flood and the crowd are
//! another client than the measured players: they run on a scheduler of
//! their own in this process, sharing its machine but not its task queue.

use std::io::{BufRead, BufReader};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, anyhow, bail};
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use shoutan_rules::{BoardSize, ByColor, Color, Game, Point, Ruleset};
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;

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
    /// The database of the server started here: `postgres://…` (use an
    /// empty database) or a SQLite path (default: a fresh SQLite directory
    /// in a temporary directory).
    #[arg(long, conflicts_with = "url")]
    database: Option<String>,
    /// A running server to measure instead of starting one, e.g.
    /// `http://127.0.0.1:8080` (it must take the players' registrations:
    /// five per address and minute, which the clients' many loopback
    /// addresses allow).
    #[arg(long)]
    url: Option<String>,
    /// The process id of the `--url` server, for its memory figures.
    #[arg(long, requires = "url")]
    server_pid: Option<u32>,
    /// Wrong-password logins per second during the measurement.
    #[arg(long, default_value_t = 0)]
    wrong_logins: u32,
    /// Wrong-password logins in flight at most (the flood's concurrency).
    #[arg(long, default_value_t = 64)]
    login_concurrency: usize,
    /// Print the figures as one JSON object (the format the README shows).
    #[arg(long)]
    json: bool,
    /// Server instances started here on one PostgreSQL database
    /// (`--database postgres://…`). Each game is made on one instance,
    /// black plays on it and white on the next, so that half the moves go
    /// through a follower to the game's owner.
    #[arg(long, default_value_t = 1, conflicts_with = "url")]
    instances: usize,
    /// Spectator WebSockets one client opens on the first game while the
    /// moves are measured (from as many addresses as the per-address cap
    /// needs), and holds to the end.
    #[arg(long, default_value_t = 0)]
    spectators: usize,
    /// Games besides the played ones that enter counting (two passes, the
    /// server then estimates their dead stones) during the first 20 s of
    /// the measurement, after 40% of their board was filled.
    #[arg(long, default_value_t = 0)]
    counting: usize,
}

const WARM_UP: Duration = Duration::from_secs(3);
/// Games an account plays at once: the server's cap for one player.
const GAMES_PER_ACCOUNT: usize = 10;

pub(super) type Socket = WebSocketStream<TcpStream>;

/// One server under test: a child process of this one, or one running
/// elsewhere.
pub(super) struct Instance {
    pub(super) base: String,
    pid: Option<u32>,
    child: Option<Child>,
}

impl Instance {
    /// The process id, when started here.
    pub(super) fn pid(&self) -> Option<u32> {
        self.pid
    }

    /// `kill -9`.
    pub(super) fn kill(&mut self) {
        if let Some(child) = &mut self.child {
            let _ = child.kill();
            let _ = child.wait();
        }
        self.child = None;
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        if let Some(child) = &mut self.child {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// The servers under test (several instances on one PostgreSQL database,
/// or one).
struct Server {
    instances: Vec<Instance>,
    /// The children's data, removed after them.
    _data: Option<tempfile::TempDir>,
}

impl Server {
    /// The address of the `i`-th instance (wrapping).
    fn base(&self, i: usize) -> &str {
        &self.instances[i % self.instances.len()].base
    }

    fn pids(&self) -> Vec<u32> {
        self.instances.iter().filter_map(|i| i.pid).collect()
    }
}

/// Starts the servers: `shoutan serve` (this very executable) on free
/// loopback ports over `database` (or a fresh SQLite directory), returning
/// once each listens; or names the running server of `url`.
fn start_server(args: &Args) -> anyhow::Result<Server> {
    if let Some(url) = &args.url {
        return Ok(Server {
            instances: vec![Instance {
                base: url.trim_end_matches('/').to_owned(),
                pid: args.server_pid,
                child: None,
            }],
            _data: None,
        });
    }
    if args.instances > 1
        && !args
            .database
            .as_deref()
            .is_some_and(|d| d.starts_with("postgres"))
    {
        bail!("--instances above 1 needs --database postgres://… (SQLite serves one process)");
    }
    let data = match &args.database {
        Some(_) => None,
        None => Some(tempfile::tempdir()?),
    };
    let mut instances = Vec::new();
    for i in 0..args.instances.max(1) {
        let mut command = Command::new(std::env::current_exe().context("finding shoutan")?);
        command.args(["serve", "--addr", "127.0.0.1:0"]);
        if let Some(database) = &args.database {
            command.args(["--database", database]);
            command.args(["--instance-id", &format!("bench{}", i + 1)]);
        } else if let Some(dir) = &data {
            command.arg("--data").arg(dir.path());
        }
        instances.push(spawn_instance(command)?);
    }
    Ok(Server {
        instances,
        _data: data,
    })
}

/// Starts one `shoutan serve` and reads the address it listens on.
pub(super) fn spawn_instance(mut command: Command) -> anyhow::Result<Instance> {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .context("starting shoutan serve")?;
    let stdout = child.stdout.take().ok_or_else(|| anyhow!("no stdout"))?;
    let mut lines = BufReader::new(stdout).lines();
    let first = lines
        .next()
        .ok_or_else(|| anyhow!("shoutan serve said nothing"))??;
    let base = first
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .ok_or_else(|| anyhow!("no address in {first:?}"))?
        .to_owned();
    // Keep reading, so that the server never writes into a closed pipe.
    std::thread::spawn(move || for _ in lines {});
    Ok(Instance {
        base,
        pid: Some(child.id()),
        child: Some(child),
    })
}

/// The server's resident memory now and at its peak, in MiB, from
/// `/proc/<pid>/status`.
pub(super) fn memory_of(pid: u32) -> Option<(f64, f64)> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
            .map(|kb| kb / 1024.0)
    };
    Some((field("VmRSS:")?, field("VmHWM:")?))
}

/// Where clients connect from: many loopback addresses of the block
/// 127.0.`block`.x when the server is on loopback (each a "machine"),
/// otherwise wherever the system chooses.
pub(super) struct Addresses {
    loopback: bool,
    block: u8,
}

impl Addresses {
    pub(super) fn new(base: &str, block: u8) -> Addresses {
        let loopback = base
            .trim_start_matches("http://")
            .split('/')
            .next()
            .and_then(|host| host.parse::<SocketAddr>().ok())
            .is_some_and(|a| a.ip().is_loopback());
        Addresses { loopback, block }
    }

    /// The `n`-th address of the block (wrapping).
    pub(super) fn nth(&self, n: usize) -> Option<IpAddr> {
        self.loopback.then(|| {
            let n = n % 65_000;
            let (hi, lo) = (n / 254, n % 254 + 1);
            IpAddr::V4(Ipv4Addr::new(
                127,
                self.block.wrapping_add(u8::try_from(hi).unwrap_or(0)),
                0,
                u8::try_from(lo).unwrap_or(1),
            ))
        })
    }

    /// An HTTP client whose connections come from the `n`-th address.
    pub(super) fn http(&self, n: usize) -> anyhow::Result<reqwest::Client> {
        let mut builder = reqwest::Client::builder();
        if let Some(ip) = self.nth(n) {
            builder = builder.local_address(ip);
        }
        Ok(builder.build()?)
    }
}

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

/// What the login flood saw.
#[derive(Default)]
struct Flood {
    sent: AtomicU64,
    refused_password: AtomicU64,
    busy: AtomicU64,
    rate_limited: AtomicU64,
    other: AtomicU64,
    not_sent: AtomicU64,
}

/// Runs the benchmark.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.games == 0 || args.rate == 0 {
        bail!("--games and --rate must be positive");
    }
    let size = BoardSize::new(args.size).map_err(|e| anyhow!("{e}"))?;
    let server = start_server(&args)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    // The flood and the crowd are another client than the measured players:
    // a scheduler of their own, so that the players' moves are not queued
    // behind 2,000 spectator reads in this process (they still share its
    // CPU, as the machine's).
    let hostile = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .thread_name("hostile-client")
        .enable_all()
        .build()?;
    let outcome = runtime.block_on(bench(&args, &server, size, hostile.handle()));
    hostile.shutdown_background();
    outcome
}

async fn bench(
    args: &Args,
    server: &Server,
    size: BoardSize,
    hostile: &tokio::runtime::Handle,
) -> anyhow::Result<ExitCode> {
    let base = server.base(0);
    for instance in &server.instances {
        wait_until_up(&instance.base).await?;
    }
    if !args.json {
        for instance in &server.instances {
            println!(
                "server: {}{}",
                instance.base,
                instance
                    .pid
                    .map(|p| format!(" (pid {p})"))
                    .unwrap_or_default()
            );
        }
        println!(
            "setting up {} games ({} accounts, {} WebSockets) on {}×{} …",
            args.games,
            2 * args.games.div_ceil(GAMES_PER_ACCOUNT),
            2 * args.games,
            size.get(),
            size.get()
        );
    }
    let setup = Instant::now();
    let players = Addresses::new(base, 1);
    let accounts = register_accounts(base, &players, args.games + args.counting).await?;
    let games = open_games(server, &players, &accounts, size, 0..args.games).await?;
    let counting = open_games(
        server,
        &players,
        &accounts,
        size,
        args.games..args.games + args.counting,
    )
    .await?;
    let counting = fill_boards(counting, size).await?;
    if !args.json {
        println!("  ready in {:.1} s", setup.elapsed().as_secs_f64());
    }

    let interval = Duration::from_secs_f64(args.games as f64 / f64::from(args.rate));
    let start = Instant::now() + Duration::from_millis(200);
    let measure_from = start + WARM_UP;
    let end = measure_from + Duration::from_secs(args.seconds);
    let flood = Arc::new(Flood::default());
    if args.wrong_logins > 0 {
        hostile.spawn(login_flood(
            base.to_owned(),
            args.wrong_logins,
            args.login_concurrency,
            measure_from,
            end,
            Arc::clone(&flood),
        ));
    }
    let crowd = match games.first() {
        Some(first) if args.spectators > 0 => Some(hostile.spawn(spectate(
            base.to_owned(),
            first.id,
            args.spectators,
            start,
            end,
        ))),
        _ => None,
    };
    let countings = tokio::spawn(enter_counting(counting, measure_from));
    let memory = tokio::spawn(watch_memory(server.pids(), measure_from, end));
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
    let mut ids = Vec::new();
    for driver in drivers {
        match driver.await? {
            Ok((id, t)) => {
                ids.push(id);
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
    let peak_during = memory.await?;
    let spectators = match crowd {
        Some(crowd) => Some(crowd.await??),
        None => None,
    };
    let counted = countings.await??;
    let durable = durable_moves(base, &ids).await?;
    let mut figures = Figures::of(
        args,
        &mut total,
        failures,
        durable,
        peak_during,
        &server.pids(),
        &flood,
    );
    figures.spectators_held = spectators;
    figures.entered_counting = (args.counting > 0).then_some(counted);
    figures.print(args.json)?;
    if failures > 0 || durable < total.acknowledged {
        eprintln!(
            "{failures} games failed; {} moves missing from the log",
            total.acknowledged.saturating_sub(durable)
        );
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

/// Opens the games numbered `range`: game `i` is made on instance `i` (so
/// it owns it); black connects there and white to the next instance.
async fn open_games(
    server: &Server,
    players: &Addresses,
    accounts: &Accounts,
    size: BoardSize,
    range: std::ops::Range<usize>,
) -> anyhow::Result<Vec<OpenGame>> {
    let mut games = Vec::with_capacity(range.len());
    let mut pending = Vec::new();
    let last = range.end;
    for i in range {
        let bases = [server.base(i).to_owned(), server.base(i + 1).to_owned()];
        let http = players.http(i)?;
        let (black, white) = accounts.pair(i);
        let (black, white) = (black.to_owned(), white.to_owned());
        let socket_from = [players.nth(2 * i), players.nth(2 * i + 1)];
        pending.push(tokio::spawn(async move {
            open_game(&http, &bases, size, &black, &white, socket_from).await
        }));
        if pending.len() == 64 || i + 1 == last {
            for task in pending.drain(..) {
                games.push(task.await??);
            }
        }
    }
    Ok(games)
}

/// Fills 40% of each board with random moves, so that the estimate that
/// counting starts has a real position to judge.
async fn fill_boards(games: Vec<OpenGame>, size: BoardSize) -> anyhow::Result<Vec<OpenGame>> {
    let moves = size.area() * 2 / 5;
    let mut filled = Vec::with_capacity(games.len());
    let mut pending = Vec::new();
    let count = games.len();
    for (i, mut game) in games.into_iter().enumerate() {
        pending.push(tokio::spawn(async move {
            let mut rng = fastrand::Rng::with_seed(i as u64);
            let mut mirror = Game::new(size, Ruleset::CHINESE);
            for _ in 0..moves {
                let point = choose(&mirror, &mut rng);
                play_one(&mut game, &mut mirror, point).await?;
            }
            game.mirror = Some(mirror);
            Ok::<_, anyhow::Error>(game)
        }));
        if pending.len() == 32 || i + 1 == count {
            for task in pending.drain(..) {
                filled.push(task.await??);
            }
        }
    }
    Ok(filled)
}

/// Plays `point` (a pass when `None`) for the player to move of `mirror`
/// and waits for the acknowledgement; the number of the command's id.
pub(super) async fn play_one(
    game: &mut OpenGame,
    mirror: &mut Game,
    point: Option<Point>,
) -> anyhow::Result<u64> {
    let size = mirror.size();
    let color = mirror.to_move();
    let socket = match color {
        Color::Black => &mut game.black,
        Color::White => &mut game.white,
    };
    game.ids[color] += 1;
    let id = game.ids[color];
    let command = match point {
        Some(p) => format!(
            r#"{{"type":"move","id":{id},"point":"{}"}}"#,
            p.to_gtp(size)
        ),
        None => format!(r#"{{"type":"pass","id":{id}}}"#),
    };
    socket.send(Message::Text(command.into())).await?;
    let version = loop {
        let frame = next_frame(socket).await?;
        match frame.kind.as_str() {
            "ack" if frame.id == Some(id) => break frame.v.unwrap_or(0),
            "error" if frame.id == Some(id) => {
                bail!("game {}: refused: {:?}", game.id, frame.code)
            }
            _ => {}
        }
    };
    match point {
        Some(p) => mirror.play(color, p)?,
        None => mirror.pass(color)?,
    };
    Ok(version)
}

/// Two passes in each game, spread over the first 20 s from `from`: each
/// game enters counting. The number that did.
async fn enter_counting(games: Vec<OpenGame>, from: Instant) -> anyhow::Result<usize> {
    let spread = Duration::from_secs(20);
    let count = games.len();
    let mut tasks = Vec::with_capacity(count);
    for (i, mut game) in games.into_iter().enumerate() {
        let at = from + spread.mul_f64(i as f64 / count.max(1) as f64);
        tasks.push(tokio::spawn(async move {
            tokio::time::sleep_until(at.into()).await;
            let size = game.size;
            let mut mirror = game
                .mirror
                .take()
                .unwrap_or_else(|| Game::new(size, Ruleset::CHINESE));
            play_one(&mut game, &mut mirror, None).await?;
            play_one(&mut game, &mut mirror, None).await?;
            // Keep the sockets open to the end of the run.
            Ok::<_, anyhow::Error>(game)
        }));
    }
    let mut entered = 0;
    let mut kept = Vec::new();
    for task in tasks {
        if let Ok(game) = task.await? {
            entered += 1;
            kept.push(game);
        }
    }
    drop(kept);
    Ok(entered)
}

/// `count` anonymous spectators of game `id`, connected from `start` on and
/// held (reading) until `end`; how many were connected at once.
async fn spectate(
    base: String,
    id: i64,
    count: usize,
    start: Instant,
    end: Instant,
) -> anyhow::Result<usize> {
    tokio::time::sleep_until(start.into()).await;
    let addresses = Addresses::new(&base, 150);
    let mut sockets = Vec::with_capacity(count);
    let mut pending = Vec::new();
    for n in 0..count {
        // 200 sockets an address: under the server's per-address cap.
        let from = addresses.nth(n / 200);
        let base = base.clone();
        pending.push(tokio::spawn(
            async move { connect(&base, id, None, from).await },
        ));
        if pending.len() == 64 || n + 1 == count {
            for task in pending.drain(..) {
                sockets.push(task.await??);
            }
        }
    }
    let held = sockets.len();
    let readers: Vec<_> = sockets
        .into_iter()
        .map(|mut socket| {
            tokio::spawn(async move {
                while Instant::now() < end {
                    let left = end.saturating_duration_since(Instant::now());
                    match tokio::time::timeout(left, socket.next()).await {
                        Ok(Some(Ok(_))) => {}
                        _ => break,
                    }
                }
            })
        })
        .collect();
    for reader in readers {
        let _ = reader.await;
    }
    Ok(held)
}

pub(super) async fn wait_until_up(base: &str) -> anyhow::Result<()> {
    let http = reqwest::Client::new();
    for _ in 0..300 {
        if let Ok(r) = http.get(format!("{base}/api/health")).send().await
            && r.status().is_success()
        {
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    bail!("{base} did not answer /api/health within 30 s")
}

/// The accounts: blacks and whites, each in at most [`GAMES_PER_ACCOUNT`]
/// games; their session cookies.
struct Accounts {
    black: Vec<String>,
    white: Vec<String>,
}

impl Accounts {
    /// The cookies of game `i`'s players.
    fn pair(&self, i: usize) -> (&str, &str) {
        (
            &self.black[i % self.black.len()],
            &self.white[i % self.white.len()],
        )
    }
}

/// Registers the players, each from an address of its own (registrations
/// are limited per address).
async fn register_accounts(
    base: &str,
    addresses: &Addresses,
    games: usize,
) -> anyhow::Result<Accounts> {
    let per_color = games.div_ceil(GAMES_PER_ACCOUNT);
    let run = fastrand::u32(..);
    let mut cookies = Vec::new();
    let mut pending = Vec::new();
    for i in 0..2 * per_color {
        let http = addresses.http(50_000 + i)?;
        let (base, name) = (base.to_owned(), format!("bench{run:x}-{i}"));
        pending.push(tokio::spawn(
            async move { register(&http, &base, &name).await },
        ));
        if pending.len() == 16 || i + 1 == 2 * per_color {
            for task in pending.drain(..) {
                cookies.push(task.await??);
            }
        }
    }
    let white = cookies.split_off(per_color);
    Ok(Accounts {
        black: cookies,
        white,
    })
}

pub(super) async fn register(
    http: &reqwest::Client,
    base: &str,
    name: &str,
) -> anyhow::Result<String> {
    register_ranked(http, base, name, "5k").await
}

/// Registers `name` with the declared `rank`; the session cookie.
pub(super) async fn register_ranked(
    http: &reqwest::Client,
    base: &str,
    name: &str,
    rank: &str,
) -> anyhow::Result<String> {
    for _ in 0..50 {
        let response = http
            .post(format!("{base}/api/accounts"))
            .header("x-shoutan-request", "1")
            .json(&serde_json::json!({"name": name, "password": "benchmark", "rank": rank}))
            .send()
            .await?;
        match response.status().as_u16() {
            201 => {
                return response
                    .headers()
                    .get("set-cookie")
                    .and_then(|v| v.to_str().ok())
                    .and_then(|v| v.split(';').next())
                    .map(str::to_owned)
                    .ok_or_else(|| anyhow!("no session cookie"));
            }
            // The password workers are busy: a moment later.
            503 => tokio::time::sleep(Duration::from_millis(200)).await,
            _ => bail!("registering {name}: {}", response.text().await?),
        }
    }
    bail!("registering {name}: the server stayed busy")
}

/// A game ready to play: its id and both players' sockets.
pub(super) struct OpenGame {
    pub(super) id: i64,
    size: BoardSize,
    pub(super) black: Socket,
    pub(super) white: Socket,
    /// The last command id each side sent.
    ids: ByColor<u64>,
    /// The game as played so far, when moves were played in setting up.
    mirror: Option<Game>,
}

/// Makes a game on `bases[0]` (black challenges, white accepts) and
/// connects black there and white to `bases[1]`.
pub(super) async fn open_game(
    http: &reqwest::Client,
    bases: &[String; 2],
    size: BoardSize,
    black: &str,
    white: &str,
    socket_from: [Option<IpAddr>; 2],
) -> anyhow::Result<OpenGame> {
    let base = bases[0].as_str();
    let challenge: serde_json::Value = http
        .post(format!("{base}/api/challenges"))
        .header("x-shoutan-request", "1")
        .header("cookie", black)
        .json(&serde_json::json!({
            "size": size.get(), "color": "black", "rated": false,
            "time_control": "1h + 5×30s byo-yomi",
        }))
        .send()
        .await?
        .json()
        .await?;
    let game: serde_json::Value = http
        .post(format!("{base}/api/challenges/{}/accept", challenge["id"]))
        .header("x-shoutan-request", "1")
        .header("cookie", white)
        .send()
        .await?
        .json()
        .await?;
    let id = game["id"]
        .as_i64()
        .ok_or_else(|| anyhow!("challenge {challenge}, accepting: {game}"))?;
    Ok(OpenGame {
        id,
        size,
        black: connect(base, id, Some(black), socket_from[0]).await?,
        white: connect(&bases[1], id, Some(white), socket_from[1]).await?,
        ids: ByColor::new(0, 0),
        mirror: None,
    })
}

/// A WebSocket on game `game` of the server at `base`, as the player of
/// `cookie` (a spectator without one), from the address `from`; returns
/// after the welcome.
pub(super) async fn connect(
    base: &str,
    game: i64,
    cookie: Option<&str>,
    from: Option<IpAddr>,
) -> anyhow::Result<Socket> {
    let mut socket = open_socket(base, &format!("/api/games/{game}/ws"), cookie, from).await?;
    loop {
        if next_frame(&mut socket).await?.kind == "welcome" {
            return Ok(socket);
        }
    }
}

/// A WebSocket on `path` of the server at `base`, with the session
/// `cookie` if any, from the address `from`.
pub(super) async fn open_socket(
    base: &str,
    path: &str,
    cookie: Option<&str>,
    from: Option<IpAddr>,
) -> anyhow::Result<Socket> {
    let target: SocketAddr = tokio::net::lookup_host(base.trim_start_matches("http://"))
        .await?
        .next()
        .ok_or_else(|| anyhow!("no address for {base}"))?;
    let socket = if target.is_ipv4() {
        TcpSocket::new_v4()?
    } else {
        TcpSocket::new_v6()?
    };
    if let Some(ip) = from {
        socket.bind(SocketAddr::new(ip, 0))?;
    }
    let stream = socket
        .connect(target)
        .await
        .context("connecting (is `ulimit -n` at least 4 × games?)")?;
    stream.set_nodelay(true)?;
    let url = format!("{}{path}", base.replace("http://", "ws://"));
    let mut request = url.into_client_request()?;
    if let Some(cookie) = cookie {
        request
            .headers_mut()
            .insert("cookie", HeaderValue::from_str(cookie)?);
    }
    let (socket, _) = tokio_tungstenite::client_async_with_config(
        request,
        stream,
        Some(
            tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
                .read_buffer_size(8 * 1024),
        ),
    )
    .await
    .context("opening a WebSocket")?;
    Ok(socket)
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
pub(super) fn choose(game: &Game, rng: &mut fastrand::Rng) -> Option<Point> {
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
) -> anyhow::Result<(i64, Tally)> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut mirror = Game::new(size, Ruleset::CHINESE);
    let mut tally = Tally::default();
    let mut next_send = first;
    while Instant::now() < end {
        tokio::time::sleep_until(next_send.into()).await;
        let color = mirror.to_move();
        let point = choose(&mirror, &mut rng);
        let sent = Instant::now();
        let version = play_one(&mut game, &mut mirror, point).await?;
        let opponent = match color {
            Color::Black => &mut game.white,
            Color::White => &mut game.black,
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
        if mirror.phase() != shoutan_rules::Phase::Play {
            tally.ended = true;
            break;
        }
        next_send = (next_send + interval).max(Instant::now());
    }
    Ok((game.id, tally))
}

/// Wrong-password logins at `rate` a second from `measure_from` to `end`,
/// at most `concurrency` at once, each from the next of 1,016 loopback
/// addresses (so that the per-address limit lets them all through to the
/// password check) against a name of no account.
async fn login_flood(
    base: String,
    rate: u32,
    concurrency: usize,
    measure_from: Instant,
    end: Instant,
    flood: Arc<Flood>,
) -> anyhow::Result<()> {
    let addresses = Addresses::new(&base, 200);
    let clients: Vec<reqwest::Client> = (0..1016)
        .map(|n| addresses.http(n))
        .collect::<Result<_, _>>()?;
    let in_flight = Arc::new(tokio::sync::Semaphore::new(concurrency.max(1)));
    let mut tick = tokio::time::interval_at(
        measure_from.into(),
        Duration::from_secs_f64(1.0 / f64::from(rate)),
    );
    let mut n = 0usize;
    while Instant::now() < end {
        tick.tick().await;
        let Ok(permit) = Arc::clone(&in_flight).try_acquire_owned() else {
            flood.not_sent.fetch_add(1, Ordering::Relaxed);
            continue;
        };
        let http = clients[n % clients.len()].clone();
        n += 1;
        let (base, flood) = (base.clone(), Arc::clone(&flood));
        let name = format!("nobody-{:x}", fastrand::u64(..));
        tokio::spawn(async move {
            flood.sent.fetch_add(1, Ordering::Relaxed);
            let answer = http
                .post(format!("{base}/api/session"))
                .header("x-shoutan-request", "1")
                .json(&serde_json::json!({"name": name, "password": "wrong password"}))
                .send()
                .await;
            let counter = match answer.map(|r| r.status().as_u16()) {
                Ok(401) => &flood.refused_password,
                Ok(503) => &flood.busy,
                Ok(429) => &flood.rate_limited,
                _ => &flood.other,
            };
            counter.fetch_add(1, Ordering::Relaxed);
            drop(permit);
        });
    }
    Ok(())
}

/// The servers' highest resident memory seen between `from` and `to`
/// (all instances together, sampled every 250 ms), MiB.
async fn watch_memory(pids: Vec<u32>, from: Instant, to: Instant) -> Option<f64> {
    if pids.is_empty() {
        return None;
    }
    tokio::time::sleep_until(from.into()).await;
    let mut peak: f64 = 0.0;
    while Instant::now() < to {
        let rss: f64 = pids.iter().filter_map(|&p| memory_of(p)).map(|m| m.0).sum();
        peak = peak.max(rss);
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    Some(peak)
}

/// Moves (and passes) in the games' durable logs, read through the API.
async fn durable_moves(base: &str, games: &[i64]) -> anyhow::Result<u64> {
    #[derive(Deserialize)]
    struct Logged {
        event: LoggedKind,
    }
    #[derive(Deserialize)]
    struct LoggedKind {
        #[serde(rename = "type")]
        kind: String,
    }
    let http = reqwest::Client::new();
    let mut stored = 0u64;
    for id in games {
        let events: Vec<Logged> = http
            .get(format!("{base}/api/games/{id}/events"))
            .send()
            .await?
            .json()
            .await?;
        stored += events
            .iter()
            .filter(|e| e.event.kind == "move" || e.event.kind == "pass")
            .count() as u64;
    }
    Ok(stored)
}

/// The `p` quantile of sorted µs, in ms.
pub(super) fn percentile(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((sorted.len() - 1) as f64 * p).round() as usize;
    f64::from(sorted[rank]) / 1000.0
}

/// The figures of a run.
#[derive(serde::Serialize)]
struct Figures {
    games: usize,
    seconds: u64,
    asked_moves_per_sec: u32,
    moves: u64,
    moves_per_sec: f64,
    latency_ms: Latency,
    server_rss_mib: Option<f64>,
    server_rss_peak_mib: Option<f64>,
    server_rss_peak_measured_mib: Option<f64>,
    durable_moves: u64,
    acknowledged_moves: u64,
    failed_games: usize,
    games_ended_early: bool,
    wrong_logins: Option<FloodFigures>,
    instances: usize,
    spectators_held: Option<usize>,
    entered_counting: Option<usize>,
}

#[derive(serde::Serialize)]
struct Latency {
    p50: f64,
    p90: f64,
    p99: f64,
    max: f64,
}

#[derive(serde::Serialize)]
struct FloodFigures {
    per_sec_asked: u32,
    sent: u64,
    refused_401: u64,
    busy_503: u64,
    rate_limited_429: u64,
    other: u64,
    not_sent_concurrency: u64,
}

impl Figures {
    fn of(
        args: &Args,
        total: &mut Tally,
        failures: usize,
        durable: u64,
        peak_during: Option<f64>,
        pids: &[u32],
        flood: &Flood,
    ) -> Figures {
        total.latencies.sort_unstable();
        let l = &total.latencies;
        let memory = (!pids.is_empty()).then(|| {
            pids.iter()
                .filter_map(|&p| memory_of(p))
                .fold((0.0, 0.0), |(a, b), (now, peak)| (a + now, b + peak))
        });
        let count = |c: &AtomicU64| c.load(Ordering::Relaxed);
        Figures {
            games: args.games,
            seconds: args.seconds,
            asked_moves_per_sec: args.rate,
            moves: total.measured,
            moves_per_sec: total.measured as f64 / args.seconds as f64,
            latency_ms: Latency {
                p50: percentile(l, 0.50),
                p90: percentile(l, 0.90),
                p99: percentile(l, 0.99),
                max: percentile(l, 1.0),
            },
            server_rss_mib: memory.map(|m| m.0),
            server_rss_peak_mib: memory.map(|m| m.1),
            server_rss_peak_measured_mib: peak_during,
            durable_moves: durable,
            acknowledged_moves: total.acknowledged,
            failed_games: failures,
            games_ended_early: total.ended,
            wrong_logins: (args.wrong_logins > 0).then(|| FloodFigures {
                per_sec_asked: args.wrong_logins,
                sent: count(&flood.sent),
                refused_401: count(&flood.refused_password),
                busy_503: count(&flood.busy),
                rate_limited_429: count(&flood.rate_limited),
                other: count(&flood.other),
                not_sent_concurrency: count(&flood.not_sent),
            }),
            instances: args.instances.max(1),
            spectators_held: None,
            entered_counting: None,
        }
    }

    fn print(&self, json: bool) -> anyhow::Result<()> {
        if json {
            println!("{}", serde_json::to_string(self)?);
            return Ok(());
        }
        println!(
            "{} games, {} s measured after {} s warm-up, asked {} moves/s",
            self.games,
            self.seconds,
            WARM_UP.as_secs(),
            self.asked_moves_per_sec
        );
        println!(
            "  sustained: {:.0} moves/s ({} moves)",
            self.moves_per_sec, self.moves
        );
        let l = &self.latency_ms;
        println!(
            "  send → opponent receipt: p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            l.p50, l.p90, l.p99, l.max
        );
        if let (Some(now), Some(peak)) = (self.server_rss_mib, self.server_rss_peak_mib) {
            println!(
                "  server memory: {now:.0} MiB resident at the end, {:.0} MiB at most while measured, {peak:.0} MiB peak (VmHWM)",
                self.server_rss_peak_measured_mib.unwrap_or(0.0)
            );
        }
        if let Some(f) = &self.wrong_logins {
            println!(
                "  wrong-password flood: {} asked/s, {} sent: {} refused (401), {} busy (503), {} rate-limited (429), {} other; {} not sent (concurrency full)",
                f.per_sec_asked,
                f.sent,
                f.refused_401,
                f.busy_503,
                f.rate_limited_429,
                f.other,
                f.not_sent_concurrency,
            );
        }
        if self.instances > 1 {
            println!(
                "  over {} instances (memory: all together); white's moves go through a follower",
                self.instances
            );
        }
        if let Some(n) = self.spectators_held {
            println!("  {n} spectator sockets held on one game throughout");
        }
        if let Some(n) = self.entered_counting {
            println!("  {n} other games entered counting during the first 20 s");
        }
        if self.games_ended_early {
            println!("  (some games reached two passes and stopped early)");
        }
        println!(
            "  durable: {} moves in the log for {} acknowledged",
            self.durable_moves, self.acknowledged_moves
        );
        Ok(())
    }
}
