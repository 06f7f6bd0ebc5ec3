//! `shoutan bench event`: an online event of thousands run end to end on a
//! real server, measured from the outside. The server is a separate
//! process (`shoutan serve` over a fresh SQLite directory, or
//! `--database postgres://…`); this process is everyone else, over real
//! TCP from many loopback addresses:
//!
//! - the organiser, who creates a Swiss (then a McMahon) event and clicks
//!   "start round" when the round before is complete;
//! - the players, each with an account and a declared rank, who register
//!   themselves, hold a lobby socket as the event page does, learn of their
//!   game from it (`game_started` naming them), connect to it (sitting down
//!   starts its clock), play the opening moves and end it: the weaker side
//!   by the players' hidden strengths usually resigns, at a moment spread
//!   over `--round-seconds`;
//! - the watchers, lobby sockets that fetch the standings whenever the event
//!   changes, at most one fetch at a time and 400 ms apart, as the event
//!   page does.
//!
//! It prints each round's start time (the organiser's click to every board
//! live and every player told), the time from a result (the resignation's
//! acknowledgement) to the watchers' standings showing it, p50/p99 over
//! every watcher and result, and the server's memory. In one round the
//! server is killed (`kill -9`) once half its results are in and started
//! again over the same data: the clients reconnect, and at the end every
//! player's wins in the standings must equal the wins this process saw
//! acknowledged — a result lost or counted twice fails the run.

use std::collections::HashMap;
use std::net::IpAddr;
use std::process::{Command, ExitCode};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, anyhow, bail};
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::{Notify, mpsc};
use tokio_tungstenite::tungstenite::Message;

use super::server::{
    Addresses, Instance, Socket, memory_of, open_socket, percentile, register_ranked,
    spawn_instance, wait_until_up,
};

/// Arguments.
#[derive(clap::Args)]
pub struct Args {
    /// Players in the event.
    #[arg(long, default_value_t = 2000)]
    players: usize,
    /// Rounds.
    #[arg(long, default_value_t = 7)]
    rounds: u32,
    /// The events run one after the other, on one server with the same
    /// players: `swiss`, `mcmahon`.
    #[arg(long, value_delimiter = ',', default_value = "swiss,mcmahon")]
    systems: Vec<System>,
    /// Watchers: lobby sockets that fetch the standings at each change.
    #[arg(long, default_value_t = 200)]
    watchers: usize,
    /// Seconds over which a round's results come in after its start.
    #[arg(long, default_value_t = 20)]
    round_seconds: u64,
    /// The round in which the server is killed (`kill -9`) and started
    /// again once half its results are in (default: the middle round; 0:
    /// never).
    #[arg(long)]
    kill_round: Option<u32>,
    /// The database of the server: `postgres://…` (an empty database) or a
    /// SQLite path (default: a fresh SQLite directory in a temporary
    /// directory).
    #[arg(long)]
    database: Option<String>,
    /// Print the figures as one JSON object.
    #[arg(long)]
    json: bool,
}

/// An event's pairing system.
#[derive(Clone, Copy, Debug, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
enum System {
    Swiss,
    Mcmahon,
}

impl System {
    /// The `system` of the event request.
    fn request(self) -> Value {
        match self {
            System::Swiss => json!({"kind": "swiss"}),
            System::Mcmahon => json!({"kind": "mc_mahon", "bar": "3d", "floor": "15k",
                "handicap": {"basis": "mms", "correction": 1, "ceiling": 9}}),
        }
    }
}

/// Where a watcher's fetches are spaced, as the event page spaces them
/// (`web/js/event-feed.js`).
const SPACING: Duration = Duration::from_millis(400);
/// How long a client waits for the server before it gives up.
const PATIENCE: Duration = Duration::from_secs(60);
/// The declared ranks of the players, in turn: 15k to 5d.
const RANKS: [&str; 20] = [
    "15k", "14k", "13k", "12k", "11k", "10k", "9k", "8k", "7k", "6k", "5k", "4k", "3k", "2k", "1k",
    "1d", "2d", "3d", "4d", "5d",
];

/// The server under test, which can be killed and started again over the
/// same data on the same address.
struct Served {
    instance: Instance,
    /// The running process's id (changes at a restart).
    pid: Arc<AtomicU32>,
    database: Option<String>,
    data: Option<tempfile::TempDir>,
}

impl Served {
    fn start(database: Option<String>) -> anyhow::Result<Served> {
        let data = match database {
            Some(_) => None,
            None => Some(tempfile::tempdir()?),
        };
        let instance = Served::spawn(&database, data.as_ref(), "127.0.0.1:0")?;
        Ok(Served {
            pid: Arc::new(AtomicU32::new(instance.pid().unwrap_or(0))),
            instance,
            database,
            data,
        })
    }

    /// `shoutan serve` (this very executable) on `addr` over the data.
    fn spawn(
        database: &Option<String>,
        data: Option<&tempfile::TempDir>,
        addr: &str,
    ) -> anyhow::Result<Instance> {
        let mut command = Command::new(std::env::current_exe().context("finding shoutan")?);
        // Accounts are the setting, not what is measured: the cheapest
        // password hash, and no registration limit an address.
        command.args(["serve", "--addr", addr, "--benchmark-accounts"]);
        if let Some(database) = database {
            command.args(["--database", database, "--instance-id", "bench"]);
        } else if let Some(dir) = data {
            command.arg("--data").arg(dir.path());
        }
        spawn_instance(command)
    }

    fn base(&self) -> String {
        self.instance.base.clone()
    }

    /// `kill -9`, then `shoutan serve` again on the same address and data;
    /// returns once it answers.
    async fn kill_and_restart(&mut self) -> anyhow::Result<Duration> {
        let base = self.base();
        let killed = Instant::now();
        self.instance.kill();
        let addr = base.trim_start_matches("http://");
        self.instance = Served::spawn(&self.database, self.data.as_ref(), addr)?;
        self.pid
            .store(self.instance.pid().unwrap_or(0), Ordering::Relaxed);
        wait_until_up(&base).await?;
        Ok(killed.elapsed())
    }
}

/// A player: his account's name and session, and where he connects from.
struct Player {
    name: String,
    cookie: String,
    from: Option<IpAddr>,
    /// His hidden strength (the rank's index): the stronger usually wins.
    strength: usize,
}

/// A result the players saw acknowledged: the winner's number in the event,
/// which of his wins it is, and when.
#[derive(Clone, Copy)]
struct Won {
    round: u32,
    winner: u32,
    nth: u32,
    at: Instant,
}

/// What the watchers share with the organiser: the results so far, in the
/// order they were acknowledged.
#[derive(Default)]
struct Ledger {
    results: Mutex<Vec<Won>>,
}

impl Ledger {
    fn push(&self, won: Won) {
        if let Ok(mut results) = self.results.lock() {
            results.push(won);
        }
    }

    fn len(&self) -> usize {
        self.results.lock().map_or(0, |r| r.len())
    }

    /// The results from the `from`-th on.
    fn since(&self, from: usize) -> Vec<Won> {
        self.results
            .lock()
            .map(|r| r.get(from..).map(<[Won]>::to_vec).unwrap_or_default())
            .unwrap_or_default()
    }
}

/// A player told of his game by the lobby.
struct Told {
    player: usize,
    game: i64,
    at: Instant,
}

/// Runs the benchmark.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.players < 2 || args.rounds == 0 {
        bail!("--players must be at least 2 and --rounds positive");
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(bench(args))
}

async fn bench(args: Args) -> anyhow::Result<ExitCode> {
    let mut served = Served::start(args.database.clone())?;
    let base = served.base();
    wait_until_up(&base).await?;
    let say = |line: String| {
        if !args.json {
            println!("{line}");
        }
    };
    say(format!("server: {base}"));
    let setup = Instant::now();
    let addresses = Addresses::new(&base, 1);
    let run = fastrand::u32(..);
    let organiser = register_ranked(
        &addresses.http(60_000)?,
        &base,
        &format!("org{run:x}"),
        "1d",
    )
    .await?;
    let players = Arc::new(register_players(&base, &addresses, args.players, run).await?);
    say(format!(
        "  {} accounts registered in {:.1} s",
        args.players + 1,
        setup.elapsed().as_secs_f64()
    ));

    let (told_tx, mut told) = mpsc::unbounded_channel();
    let stop = Arc::new(AtomicBool::new(false));
    for (i, p) in players.iter().enumerate() {
        tokio::spawn(follow_lobby(
            base.clone(),
            i,
            p.name.clone(),
            p.cookie.clone(),
            p.from,
            told_tx.clone(),
            Arc::clone(&stop),
        ));
    }
    let memory = tokio::spawn(watch_memory(Arc::clone(&served.pid), Arc::clone(&stop)));

    let mut events = Vec::new();
    let kill_round = args.kill_round.unwrap_or(args.rounds.div_ceil(2));
    for &system in &args.systems {
        let figures = run_event(
            &args,
            system,
            kill_round,
            &mut served,
            &organiser,
            &players,
            &mut told,
        )
        .await
        .with_context(|| format!("the {system:?} event"))?;
        figures.say(&say);
        events.push(figures);
    }
    stop.store(true, Ordering::Relaxed);
    let peak = memory.await?;
    let figures = Figures {
        players: args.players,
        rounds: args.rounds,
        watchers: args.watchers,
        round_seconds: args.round_seconds,
        server_rss_peak_mib: peak,
        events,
    };
    if args.json {
        println!("{}", serde_json::to_string(&figures)?);
    } else if let Some(peak) = peak {
        println!("server memory: {peak:.0} MiB resident at most");
    }
    let lost: usize = figures.events.iter().map(|e| e.lost + e.extra).sum();
    Ok(if lost == 0 {
        ExitCode::SUCCESS
    } else {
        eprintln!("{lost} results lost or counted twice");
        ExitCode::FAILURE
    })
}

/// Registers the players, each from an address of his own (the server
/// takes five registrations an address a minute), with ranks from 15k to
/// 5d in turn.
async fn register_players(
    base: &str,
    addresses: &Addresses,
    count: usize,
    run: u32,
) -> anyhow::Result<Vec<Player>> {
    let mut players = Vec::with_capacity(count);
    let mut pending = Vec::new();
    for i in 0..count {
        let http = addresses.http(i)?;
        let name = format!("p{run:x}-{i}");
        let strength = i % RANKS.len();
        let base = base.to_owned();
        let from = addresses.nth(i);
        pending.push(tokio::spawn(async move {
            let cookie = register_ranked(&http, &base, &name, RANKS[strength]).await?;
            Ok::<_, anyhow::Error>(Player {
                name,
                cookie,
                from,
                strength,
            })
        }));
        if pending.len() == 16 || i + 1 == count {
            for task in pending.drain(..) {
                players.push(task.await??);
            }
        }
    }
    Ok(players)
}

/// One player's lobby socket, reconnected whenever it drops: tells the
/// organiser when a game naming him starts.
async fn follow_lobby(
    base: String,
    player: usize,
    name: String,
    cookie: String,
    from: Option<IpAddr>,
    told: mpsc::UnboundedSender<Told>,
    stop: Arc<AtomicBool>,
) {
    let me = format!(r#""name":"{name}""#);
    read_lobby(&base, Some(&cookie), from, &stop, |text| {
        // His game starting, or (after a reconnection, or a `resync` when
        // the socket fell behind) among his games in the snapshot.
        let started = text.starts_with(r#"{"type":"game_started""#);
        let snapshot = text.starts_with(r#"{"type":"lobby""#);
        if !(started || snapshot) || !text.contains(&me) {
            return;
        }
        let games = if started {
            serde_json::from_str::<Started>(text).map(|s| vec![s.game])
        } else {
            serde_json::from_str::<Snapshot>(text).map(|s| s.games)
        };
        let at = Instant::now();
        for game in games.unwrap_or_default() {
            if game.black.name == name || game.white.name == name {
                let _ = told.send(Told {
                    player,
                    game: game.id,
                    at,
                });
            }
        }
    })
    .await;
}

/// Reads a lobby socket's text frames into `frame` until `stop` (looked at
/// every second), connecting again whenever the socket drops. Its view is
/// the event page's: the events' changes and the player's own games.
async fn read_lobby(
    base: &str,
    cookie: Option<&str>,
    from: Option<IpAddr>,
    stop: &AtomicBool,
    mut frame: impl FnMut(&str),
) {
    while !stop.load(Ordering::Relaxed) {
        let Ok(mut socket) = open_socket(base, "/api/lobby/ws?view=events", cookie, from).await
        else {
            tokio::time::sleep(Duration::from_millis(200)).await;
            continue;
        };
        loop {
            match tokio::time::timeout(Duration::from_secs(1), socket.next()).await {
                Err(_) if stop.load(Ordering::Relaxed) => return,
                Ok(Some(Ok(Message::Text(text)))) => frame(text.as_str()),
                Err(_) | Ok(Some(Ok(_))) => {}
                Ok(_) => break,
            }
        }
    }
}

/// A lobby's `game_started` frame, as a player reads it.
#[derive(Deserialize)]
struct Started {
    game: LiveGame,
}

/// A lobby's snapshot, as a player reads it.
#[derive(Deserialize)]
struct Snapshot {
    games: Vec<LiveGame>,
}

#[derive(Deserialize)]
struct LiveGame {
    id: i64,
    black: Named,
    white: Named,
}

#[derive(Deserialize)]
struct Named {
    name: String,
}

/// Every player registers himself for event `id`, from his own address;
/// how long it took.
async fn register_all(base: &str, id: i64, players: &[Player]) -> anyhow::Result<Duration> {
    let registered = Instant::now();
    let addresses = Addresses::new(base, 1);
    let mut pending = Vec::new();
    for (i, p) in players.iter().enumerate() {
        let http = addresses.http(i)?;
        let (url, cookie) = (
            format!("{base}/api/events/{id}/registration"),
            p.cookie.clone(),
        );
        pending.push(tokio::spawn(async move {
            let response = http
                .post(url)
                .header("x-shoutan-request", "1")
                .header("cookie", cookie)
                .send()
                .await?;
            if response.status().as_u16() != 201 {
                bail!("registering: {}", response.text().await?);
            }
            Ok(())
        }));
        if pending.len() == 16 || i + 1 == players.len() {
            for task in pending.drain(..) {
                task.await??;
            }
        }
    }
    Ok(registered.elapsed())
}

/// The parts of a round the organiser reads.
#[derive(Deserialize)]
struct RoundPage {
    games: Vec<Table>,
}

#[derive(Deserialize)]
struct Table {
    black: Side,
    white: Side,
    handicap: u8,
    game: Option<i64>,
}

#[derive(Deserialize)]
struct Side {
    number: u32,
    name: String,
}

/// One event run.
async fn run_event(
    args: &Args,
    system: System,
    kill_round: u32,
    served: &mut Served,
    organiser: &str,
    players: &Arc<Vec<Player>>,
    told: &mut mpsc::UnboundedReceiver<Told>,
) -> anyhow::Result<EventFigures> {
    let base = served.base();
    let http = reqwest::Client::new();
    let created: Value = post(
        &http,
        &format!("{base}/api/events"),
        organiser,
        &json!({
            "name": format!("Bench {system:?} {}", fastrand::u32(..)),
            "system": system.request(),
            "rounds": args.rounds,
            "time_control": "60 min + 3×30s byo-yomi",
            "late_arrival_ms": 3_600_000,
        }),
    )
    .await?;
    let id = created["id"]
        .as_i64()
        .ok_or_else(|| anyhow!("creating the event: {created}"))?;
    let registration = register_all(&base, id, players).await?;
    let by_name: HashMap<&str, usize> = players
        .iter()
        .enumerate()
        .map(|(i, p)| (p.name.as_str(), i))
        .collect();

    let ledger = Arc::new(Ledger::default());
    let stop = Arc::new(AtomicBool::new(false));
    let watcher_addresses = Addresses::new(&base, 150);
    let mut watchers = Vec::with_capacity(args.watchers);
    for w in 0..args.watchers {
        let watcher = Arc::new(Watcher::default());
        watchers.push(Arc::clone(&watcher));
        tokio::spawn(watch_standings(
            base.clone(),
            id,
            // A lobby socket and a connection for fetches each: 50 to an
            // address stays well under its cap of 256 connections, through
            // reconnections too.
            watcher_addresses.nth(w / 50),
            watcher_addresses.http(w / 50)?,
            watcher,
            Arc::clone(&ledger),
            Arc::clone(&stop),
        ));
    }

    let mut wins = vec![0u32; players.len()];
    let mut numbers = vec![0u32; players.len()];
    let mut rounds = Vec::new();
    let mut restart = None;
    for round in 1..=args.rounds {
        // The organiser's click: the round paired, its games created and
        // started; then every player told by his lobby socket.
        let clicked = Instant::now();
        let page: Value = post(
            &http,
            &format!("{base}/api/events/{id}/rounds"),
            organiser,
            &Value::Null,
        )
        .await?;
        let live = clicked.elapsed();
        let page: RoundPage = serde_json::from_value(page)?;
        let mut expected = std::collections::HashSet::new();
        let mut tables = Vec::new();
        for table in page.games {
            let game = table
                .game
                .ok_or_else(|| anyhow!("a table without a game"))?;
            let black = *by_name
                .get(table.black.name.as_str())
                .ok_or_else(|| anyhow!("no player {}", table.black.name))?;
            let white = *by_name
                .get(table.white.name.as_str())
                .ok_or_else(|| anyhow!("no player {}", table.white.name))?;
            numbers[black] = table.black.number;
            numbers[white] = table.white.number;
            expected.insert((game, black));
            expected.insert((game, white));
            tables.push((game, black, white, table.handicap));
        }
        let mut last_told = clicked;
        while !expected.is_empty() {
            let t = tokio::time::timeout(PATIENCE, told.recv())
                .await
                .context("players not told of their games within 60 s")?
                .ok_or_else(|| anyhow!("the lobby sockets ended"))?;
            if expected.remove(&(t.game, t.player)) {
                last_told = last_told.max(t.at);
            }
        }
        let all_told = last_told - clicked;

        // Every game played to a result, the results spread over the
        // round's seconds; in the kill round, the server killed once half
        // are in.
        let (done_tx, mut done) = mpsc::unbounded_channel();
        for &(game, black, white, handicap) in &tables {
            let at = clicked
                + Duration::from_secs(args.round_seconds)
                    .mul_f64(fastrand::f64())
                    .max(all_told);
            let black_wins =
                fastrand::f64() < chance(players[black].strength, players[white].strength);
            let done = done_tx.clone();
            let players = Arc::clone(players);
            let base = base.clone();
            tokio::spawn(async move {
                let outcome = play_game(
                    &base,
                    game,
                    &players[black],
                    &players[white],
                    handicap,
                    black_wins,
                    at,
                )
                .await;
                let _ = done.send((outcome, if black_wins { black } else { white }));
            });
        }
        drop(done_tx);
        let half = tables.len() / 2;
        let mut finished = 0;
        while let Some((outcome, winner)) = done.recv().await {
            let at = outcome.with_context(|| format!("round {round}: a game"))?;
            wins[winner] += 1;
            ledger.push(Won {
                round,
                winner: numbers[winner],
                nth: wins[winner],
                at,
            });
            finished += 1;
            if round == kill_round && finished == half && restart.is_none() {
                let acknowledged = ledger.len();
                let down = served.kill_and_restart().await?;
                restart = Some(Restart {
                    round,
                    results_before: acknowledged,
                    down_ms: millis(down),
                });
            }
        }
        // The round is over when every watcher has seen all its results.
        let total = ledger.len();
        let waited = Instant::now();
        while watchers
            .iter()
            .any(|w| w.seen.load(Ordering::Relaxed) < total)
            && waited.elapsed() < PATIENCE
        {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        rounds.push(RoundFigures {
            round,
            games: tables.len(),
            live_ms: millis(live),
            told_ms: millis(all_told),
            result_to_standings_ms: Latency::default(),
            server_rss_mib: memory_of(served.pid.load(Ordering::Relaxed)).map(|m| m.0),
        });
    }
    stop.store(true, Ordering::Relaxed);

    // Every result acknowledged is in the final standings, once.
    let standings: Standings = http
        .get(format!("{base}/api/events/{id}/standings"))
        .send()
        .await?
        .json()
        .await?;
    let shown: HashMap<u32, u32> = standings.rows.iter().map(|r| (r.number, r.wins)).collect();
    let (mut lost, mut extra) = (0, 0);
    for (i, &w) in wins.iter().enumerate() {
        let s = shown.get(&numbers[i]).copied().unwrap_or(0);
        lost += w.saturating_sub(s) as usize;
        extra += s.saturating_sub(w) as usize;
    }
    let mut latencies: Vec<(u32, u32)> = Vec::new();
    let mut unseen = 0;
    let mut failed_fetches = 0;
    for w in &watchers {
        failed_fetches += w.failed_fetches.load(Ordering::Relaxed);
        if let Ok(l) = w.latencies.lock() {
            latencies.extend(l.iter());
        }
        unseen += ledger.len() - w.seen.load(Ordering::Relaxed).min(ledger.len());
    }
    for r in &mut rounds {
        r.result_to_standings_ms = Latency::of(
            latencies
                .iter()
                .filter(|(round, _)| *round == r.round)
                .map(|&(_, l)| l)
                .collect(),
        );
    }
    Ok(EventFigures {
        system,
        event: id,
        registration_ms: millis(registration),
        rounds,
        results: ledger.len(),
        result_to_standings_ms: Latency::of(latencies.into_iter().map(|(_, l)| l).collect()),
        unseen,
        failed_fetches,
        lost,
        extra,
        restart,
    })
}

/// The chance that a player of strength `a` beats one of strength `b`
/// (ranks apart), as a logistic curve: a rank apart, about 62%.
fn chance(a: usize, b: usize) -> f64 {
    let d = a as f64 - b as f64;
    1.0 / (1.0 + (-d / 2.0).exp())
}

/// Plays a game to its result: both players connect (and so sit down),
/// play the opening moves (even games), and at `at` the loser resigns.
/// Returns when the resignation is acknowledged. A connection lost (the
/// server killed) is opened again, and the loser resigns again unless the
/// game already ended.
async fn play_game(
    base: &str,
    game: i64,
    black: &Player,
    white: &Player,
    handicap: u8,
    black_wins: bool,
    at: Instant,
) -> anyhow::Result<Instant> {
    let give_up = at + PATIENCE;
    let mut opening = handicap < 2;
    loop {
        match try_play(base, game, black, white, opening, black_wins, at).await {
            Ok(Some(acknowledged)) => return Ok(acknowledged),
            // Already over: its result was made durable before the answer
            // was lost.
            Ok(None) => return Ok(Instant::now()),
            Err(e) if Instant::now() < give_up => {
                tracing::debug!(game, "reconnecting: {e:#}");
                opening = false;
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            Err(e) => return Err(e.context(format!("game {game}"))),
        }
    }
}

/// One attempt of [`play_game`]: `Some(acknowledged)`, or `None` when the
/// game had already ended at connection.
async fn try_play(
    base: &str,
    game: i64,
    black: &Player,
    white: &Player,
    opening: bool,
    black_wins: bool,
    at: Instant,
) -> anyhow::Result<Option<Instant>> {
    let path = format!("/api/games/{game}/ws");
    let mut sockets = Vec::with_capacity(2);
    let mut next_ids = Vec::with_capacity(2);
    for p in [black, white] {
        let mut socket = open_socket(base, &path, Some(&p.cookie), p.from).await?;
        let welcome = frame_where(&mut socket, |f| f["type"] == "welcome").await?;
        if welcome["game"]["state"]["result"].is_object() {
            return Ok(None);
        }
        next_ids.push(welcome["last_command_id"].as_u64().unwrap_or(0) + 1);
        sockets.push(socket);
    }
    if opening {
        for (i, point) in ["Q16", "D4", "Q4", "D16"].into_iter().enumerate() {
            let side = i % 2;
            let id = next_ids[side];
            next_ids[side] += 1;
            command(
                &mut sockets[side],
                &json!({"type": "move", "id": id, "point": point}),
                id,
            )
            .await?;
        }
    }
    tokio::time::sleep_until(at.into()).await;
    let loser = usize::from(black_wins);
    let id = next_ids[loser];
    command(
        &mut sockets[loser],
        &json!({"type": "resign", "id": id}),
        id,
    )
    .await?;
    Ok(Some(Instant::now()))
}

/// Sends a command and waits for its acknowledgement; a move sent before
/// both players sat down (`not_started`) is sent again when the opponent
/// sits down.
async fn command(socket: &mut Socket, body: &Value, id: u64) -> anyhow::Result<()> {
    loop {
        socket.send(Message::Text(body.to_string().into())).await?;
        let answer = frame_where(socket, |f| f["id"] == id).await?;
        match (answer["type"].as_str(), answer["code"].as_str()) {
            (Some("ack"), _) => return Ok(()),
            (Some("error"), Some("not_started")) => {
                frame_where(socket, |f| f["event"]["type"] == "sit_down").await?;
            }
            _ => bail!("refused: {answer}"),
        }
    }
}

/// The next frame that `wanted` accepts.
async fn frame_where(
    socket: &mut Socket,
    wanted: impl Fn(&Value) -> bool,
) -> anyhow::Result<Value> {
    loop {
        let message = tokio::time::timeout(PATIENCE, socket.next())
            .await
            .context("no frame for 60 s")?
            .ok_or_else(|| anyhow!("connection closed"))??;
        if let Message::Text(text) = message {
            let frame: Value = serde_json::from_str(&text)?;
            if wanted(&frame) {
                return Ok(frame);
            }
        }
    }
}

/// What one watcher saw.
#[derive(Default)]
struct Watcher {
    /// Results seen in the standings (a prefix of the ledger's count).
    seen: AtomicUsize,
    /// Result-to-standings latencies (the result's round, µs).
    latencies: Mutex<Vec<(u32, u32)>>,
    /// Fetches of the standings that failed.
    failed_fetches: AtomicUsize,
}

/// The standings (the whole page after the event, or what a page shows
/// now while it runs), as far as this process reads them.
#[derive(Deserialize)]
struct Standings {
    rows: Vec<Row>,
}

#[derive(Deserialize)]
struct Row {
    number: u32,
    wins: u32,
}

/// One watcher: a lobby socket, reconnected when it drops; at each change
/// of the event (and at each connection) the standings are fetched, one
/// fetch at a time, starting [`SPACING`] apart when changes come during one.
async fn watch_standings(
    base: String,
    event: i64,
    from: Option<IpAddr>,
    http: reqwest::Client,
    watcher: Arc<Watcher>,
    ledger: Arc<Ledger>,
    stop: Arc<AtomicBool>,
) {
    let changed = Arc::new(Notify::new());
    let again = Arc::new(AtomicBool::new(false));
    // The event's version the last notice gave; 0 after a (re)connection,
    // whose snapshot asks for the standings as they are now.
    let last_version = Arc::new(AtomicU64::new(0));
    let fetcher = {
        let (changed, again, stop) = (Arc::clone(&changed), Arc::clone(&again), Arc::clone(&stop));
        let last_version = Arc::clone(&last_version);
        let base = base.clone();
        tokio::spawn(async move {
            let mut pending: Vec<Won> = Vec::new();
            let mut known = 0;
            let mut seen = 0;
            // The standings this watcher holds, and since when: a result
            // the organiser hears of after they were fetched may already be
            // in them (its acknowledgement and its entry in the event race).
            let mut held: (Instant, HashMap<u32, u32>) = (Instant::now(), HashMap::new());
            while !stop.load(Ordering::Relaxed) {
                // Between notices, the results heard of meanwhile are looked
                // for in the standings held (no fetch).
                let told = tokio::time::timeout(SPACING, changed.notified())
                    .await
                    .is_ok();
                let fetching = Instant::now();
                if told {
                    again.store(false, Ordering::Relaxed);
                    let version = last_version.load(Ordering::Relaxed);
                    let Ok(page) = fetch_standings(&http, &base, event, version).await else {
                        // Tried again (the server restarting, say).
                        watcher.failed_fetches.fetch_add(1, Ordering::Relaxed);
                        tokio::time::sleep(SPACING).await;
                        changed.notify_one();
                        continue;
                    };
                    held = (
                        Instant::now(),
                        page.rows.iter().map(|r| (r.number, r.wins)).collect(),
                    );
                }
                let fresh = ledger.since(known);
                known += fresh.len();
                pending.extend(fresh);
                let (fetched, shown) = &held;
                let mut latencies = Vec::new();
                pending.retain(|won| {
                    let in_standings = shown.get(&won.winner).is_some_and(|&w| w >= won.nth);
                    if in_standings {
                        latencies
                            .push((won.round, micros(fetched.saturating_duration_since(won.at))));
                    }
                    !in_standings
                });
                seen += latencies.len();
                if let Ok(mut l) = watcher.latencies.lock() {
                    l.extend(latencies);
                }
                watcher.seen.store(seen, Ordering::Relaxed);
                if told && again.load(Ordering::Relaxed) {
                    tokio::time::sleep_until((fetching + SPACING).into()).await;
                }
            }
        })
    };
    read_lobby(&base, None, from, &stop, |text| {
        match serde_json::from_str::<Notice>(text) {
            Ok(Notice::EventChanged { id, version }) if id == event => {
                last_version.fetch_max(version, Ordering::Relaxed);
            }
            Ok(Notice::Lobby) => last_version.store(0, Ordering::Relaxed),
            _ => return,
        }
        again.store(true, Ordering::Relaxed);
        changed.notify_one();
    })
    .await;
    changed.notify_one();
    let _ = fetcher.await;
}

/// A lobby frame that makes a watcher fetch: its snapshot (at each
/// connection) or a change of an event.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Notice {
    Lobby,
    EventChanged { id: i64, version: u64 },
}

/// What the event page on its standings tab fetches at each change: the
/// event's head and, beside it, the live standings while a round is
/// played, at least at the `version` last told (0: as they are now),
/// compressed as a browser takes them.
async fn fetch_standings(
    http: &reqwest::Client,
    base: &str,
    event: i64,
    version: u64,
) -> anyhow::Result<Standings> {
    let at = if version == 0 {
        String::new()
    } else {
        format!("?version={version}")
    };
    let get = |path: String| {
        http.get(format!("{base}/api/events/{event}{path}"))
            .header(reqwest::header::ACCEPT_ENCODING, "gzip")
            .send()
    };
    let (head, response) = tokio::join!(
        get(format!("/head{at}")),
        get(format!("/standings/current{at}"))
    );
    head?.error_for_status()?.bytes().await?;
    let response = response?.error_for_status()?;
    let gzip = response
        .headers()
        .get(reqwest::header::CONTENT_ENCODING)
        .is_some_and(|v| v == "gzip");
    let body = response.bytes().await?;
    if !gzip {
        return Ok(serde_json::from_slice(&body)?);
    }
    let mut plain = Vec::with_capacity(body.len() * 6);
    std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&body[..]), &mut plain)?;
    Ok(serde_json::from_slice(&plain)?)
}

/// A state-changing request as the organiser: its JSON answer, or the
/// server's refusal as an error.
async fn post(
    http: &reqwest::Client,
    url: &str,
    cookie: &str,
    body: &Value,
) -> anyhow::Result<Value> {
    let response = http
        .post(url)
        .header("x-shoutan-request", "1")
        .header("cookie", cookie)
        .json(body)
        .send()
        .await?;
    let status = response.status();
    let answer: Value = response.json().await?;
    if !status.is_success() {
        bail!("{url}: {status}: {answer}");
    }
    Ok(answer)
}

/// The server's highest resident memory (sampled every 250 ms, across its
/// restarts) until `stop`, MiB.
async fn watch_memory(pid: Arc<AtomicU32>, stop: Arc<AtomicBool>) -> Option<f64> {
    let mut peak: Option<f64> = None;
    while !stop.load(Ordering::Relaxed) {
        if let Some((rss, _)) = memory_of(pid.load(Ordering::Relaxed)) {
            peak = Some(peak.map_or(rss, |p| p.max(rss)));
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    peak
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

fn micros(d: Duration) -> u32 {
    u32::try_from(d.as_micros()).unwrap_or(u32::MAX)
}

/// The figures of a run.
#[derive(serde::Serialize)]
struct Figures {
    players: usize,
    rounds: u32,
    watchers: usize,
    round_seconds: u64,
    server_rss_peak_mib: Option<f64>,
    events: Vec<EventFigures>,
}

/// One event's figures.
#[derive(serde::Serialize)]
struct EventFigures {
    system: System,
    event: i64,
    registration_ms: u64,
    rounds: Vec<RoundFigures>,
    /// Results acknowledged to the players.
    results: usize,
    result_to_standings_ms: Latency,
    /// Watcher × result pairs never seen in a watcher's standings.
    unseen: usize,
    /// The watchers' fetches of the standings that failed (and were tried
    /// again).
    failed_fetches: usize,
    /// Wins acknowledged but missing from the final standings.
    lost: usize,
    /// Wins in the final standings that no player saw acknowledged.
    extra: usize,
    restart: Option<Restart>,
}

#[derive(serde::Serialize)]
struct RoundFigures {
    round: u32,
    games: usize,
    /// The click to the answer: paired, games created and started.
    live_ms: u64,
    /// The click to the last player told by his lobby socket.
    told_ms: u64,
    /// Of this round's results.
    result_to_standings_ms: Latency,
    /// The server's resident memory once every watcher saw the round's
    /// results.
    server_rss_mib: Option<f64>,
}

/// Result-to-standings latencies, ms.
#[derive(Default, serde::Serialize)]
struct Latency {
    p50: f64,
    p99: f64,
    max: f64,
}

impl Latency {
    /// The quantiles of latencies in µs.
    fn of(mut micros: Vec<u32>) -> Latency {
        micros.sort_unstable();
        Latency {
            p50: percentile(&micros, 0.50),
            p99: percentile(&micros, 0.99),
            max: percentile(&micros, 1.0),
        }
    }
}

/// The `kill -9` of a round.
#[derive(serde::Serialize)]
struct Restart {
    round: u32,
    /// Results acknowledged before the kill.
    results_before: usize,
    /// From the kill to the new process answering.
    down_ms: u64,
}

impl EventFigures {
    fn say(&self, say: &impl Fn(String)) {
        say(format!(
            "{:?}: event {}, registration of every player {:.1} s",
            self.system,
            self.event,
            self.registration_ms as f64 / 1000.0
        ));
        for r in &self.rounds {
            say(format!(
                "  round {}: {} games live in {:.2} s, every player told in {:.2} s; result → standings p50 {:.0} ms, p99 {:.0} ms; server {:.0} MiB",
                r.round,
                r.games,
                r.live_ms as f64 / 1000.0,
                r.told_ms as f64 / 1000.0,
                r.result_to_standings_ms.p50,
                r.result_to_standings_ms.p99,
                r.server_rss_mib.unwrap_or(0.0),
            ));
        }
        let l = &self.result_to_standings_ms;
        say(format!(
            "  result → watchers' standings: p50 {:.0} ms, p99 {:.0} ms, max {:.0} ms ({} results, {} never seen, {} fetches failed)",
            l.p50, l.p99, l.max, self.results, self.unseen, self.failed_fetches
        ));
        if let Some(r) = &self.restart {
            say(format!(
                "  kill -9 in round {} after {} results; down {:.1} s",
                r.round,
                r.results_before,
                r.down_ms as f64 / 1000.0
            ));
        }
        say(format!(
            "  final standings: {} wins lost, {} counted twice",
            self.lost, self.extra
        ));
    }
}
