//! `shoutan bench failover`: how long the games of a server instance that
//! dies are unplayable. Several `shoutan serve` instances run here on one
//! PostgreSQL database; games are made on each; then, again and again, one
//! instance is killed with `kill -9`, the players of its games reconnect to
//! the others and play on, and the time from the kill to each game's first
//! acknowledged move is recorded. The killed instance is started again
//! (under its id) before the next kill.

use std::process::{Command, ExitCode};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use shoutan_rules::{BoardSize, Game, Ruleset};
use shoutan_store::Database;

use super::server::{
    Addresses, Instance, OpenGame, choose, connect, open_game, play_one, register, spawn_instance,
    wait_until_up,
};

/// Arguments.
#[derive(clap::Args)]
pub struct Args {
    /// The PostgreSQL database of the instances (use an empty one).
    #[arg(long)]
    database: String,
    /// Instances.
    #[arg(long, default_value_t = 3)]
    instances: usize,
    /// Kills (each of a different instance in turn).
    #[arg(long, default_value_t = 5)]
    kills: usize,
    /// Games made on each instance.
    #[arg(long, default_value_t = 10)]
    games_per_instance: usize,
    /// Print the figures as one JSON object.
    #[arg(long)]
    json: bool,
}

/// The instances, and how to start each again.
struct Cluster {
    database: String,
    instances: Vec<Instance>,
}

impl Cluster {
    fn start_instance(database: &str, n: usize) -> anyhow::Result<Instance> {
        let mut command = Command::new(std::env::current_exe().context("finding shoutan")?);
        command.args(["serve", "--addr", "127.0.0.1:0", "--database", database]);
        command.args(["--instance-id", &format!("failover{}", n + 1)]);
        spawn_instance(command)
    }
}

/// A game and what is needed to play it on: its position and players.
struct Played {
    game: OpenGame,
    mirror: Game,
    cookies: [String; 2],
}

/// Runs the benchmark.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.instances < 2 {
        bail!("--instances must be at least 2: the games move to another one");
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(bench(&args))
}

async fn bench(args: &Args) -> anyhow::Result<ExitCode> {
    let mut cluster = Cluster {
        database: args.database.clone(),
        instances: (0..args.instances)
            .map(|n| Cluster::start_instance(&args.database, n))
            .collect::<Result<_, _>>()?,
    };
    for instance in &cluster.instances {
        wait_until_up(&instance.base).await?;
    }
    let store = shoutan_store::open(&args.database.parse::<Database>()?).await?;
    let size = BoardSize::new(9).map_err(|e| anyhow::anyhow!("{e}"))?;
    let http = reqwest::Client::new();
    let addresses = Addresses::new(&cluster.instances[0].base, 1);
    let run = fastrand::u32(..);
    let mut games = Vec::new();
    for n in 0..args.instances {
        for g in 0..args.games_per_instance {
            let base = cluster.instances[n].base.clone();
            let next = cluster.instances[(n + 1) % args.instances].base.clone();
            // Each player registers from an address of its own, as people
            // on their own machines do (the server takes five a minute from one).
            let players = 2 * (n * args.games_per_instance + g);
            let black = register(
                &addresses.http(players)?,
                &base,
                &format!("fo{run:x}-{n}-{g}-b"),
            )
            .await?;
            let white = register(
                &addresses.http(players + 1)?,
                &base,
                &format!("fo{run:x}-{n}-{g}-w"),
            )
            .await?;
            let mut game =
                open_game(&http, &[base, next], size, &black, &white, [None, None]).await?;
            let mut mirror = Game::new(size, Ruleset::CHINESE);
            let mut rng = fastrand::Rng::with_seed(games.len() as u64);
            for _ in 0..2 {
                let point = choose(&mirror, &mut rng);
                play_one(&mut game, &mut mirror, point).await?;
            }
            games.push(Some(Played {
                game,
                mirror,
                cookies: [black, white],
            }));
        }
    }
    let cluster_store = store
        .cluster()
        .ok_or_else(|| anyhow::anyhow!("the database is no PostgreSQL"))?;
    let mut rounds = Vec::new();
    for k in 0..args.kills {
        let victim = k % args.instances;
        let victim_id = format!("failover{}", victim + 1);
        let mut owned = Vec::new();
        for (i, played) in games.iter().enumerate() {
            if let Some(played) = played
                && cluster_store.owner(played.game.id).await?.as_deref() == Some(victim_id.as_str())
            {
                owned.push(i);
            }
        }
        cluster.instances[victim].kill();
        let killed = Instant::now();
        let survivors: Vec<String> = (1..args.instances)
            .map(|d| {
                cluster.instances[(victim + d) % args.instances]
                    .base
                    .clone()
            })
            .collect();
        let survivors = Arc::new(survivors);
        let mut tasks = Vec::new();
        for &i in &owned {
            let Some(mut played) = games[i].take() else {
                continue;
            };
            let survivors = Arc::clone(&survivors);
            tasks.push(tokio::spawn(async move {
                let after = play_on(&mut played, &survivors, killed).await;
                (i, played, after)
            }));
        }
        let mut times = Vec::new();
        for task in tasks {
            let (i, played, after) = task.await?;
            times.push(after?);
            games[i] = Some(played);
        }
        times.sort();
        cluster.instances[victim] = Cluster::start_instance(&cluster.database, victim)?;
        wait_until_up(&cluster.instances[victim].base).await?;
        let round = Round {
            killed: victim_id,
            games: times.len(),
            median_s: times
                .get(times.len() / 2)
                .map_or(0.0, Duration::as_secs_f64),
            max_s: times.last().map_or(0.0, Duration::as_secs_f64),
        };
        if !args.json {
            println!(
                "kill {}: {} (owner of {} games): playable again after {:.2} s median, {:.2} s at most",
                k + 1,
                round.killed,
                round.games,
                round.median_s,
                round.max_s
            );
        }
        rounds.push(round);
    }
    let mut worst: Vec<f64> = rounds.iter().map(|r| r.max_s).collect();
    worst.sort_by(f64::total_cmp);
    let median_worst = worst.get(worst.len() / 2).copied().unwrap_or(0.0);
    if args.json {
        println!(
            "{}",
            serde_json::json!({"instances": args.instances, "kills": rounds, "median_of_max_s": median_worst})
        );
    } else {
        println!(
            "{} kills of {} instances: the last game of a killed instance was playable again after {:.2} s (median over kills)",
            rounds.len(),
            args.instances,
            median_worst
        );
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(serde::Serialize)]
struct Round {
    killed: String,
    games: usize,
    median_s: f64,
    max_s: f64,
}

/// Reconnects the players of a game whose instance died to the survivors
/// and plays the next move, retrying until it is acknowledged; the time
/// from the kill.
async fn play_on(
    played: &mut Played,
    survivors: &[String],
    killed: Instant,
) -> anyhow::Result<Duration> {
    let id = played.game.id;
    let deadline = killed + Duration::from_secs(60);
    loop {
        if Instant::now() > deadline {
            bail!("game {id}: not playable a minute after the kill");
        }
        let black = connect(&survivors[0], id, Some(&played.cookies[0]), None).await;
        let white = connect(
            &survivors[survivors.len() - 1],
            id,
            Some(&played.cookies[1]),
            None,
        )
        .await;
        if let (Ok(black), Ok(white)) = (black, white) {
            played.game.black = black;
            played.game.white = white;
            let mut rng = fastrand::Rng::new();
            let point = choose(&played.mirror, &mut rng);
            let mut mirror = played.mirror.clone();
            if play_one(&mut played.game, &mut mirror, point).await.is_ok() {
                played.mirror = mirror;
                return Ok(killed.elapsed());
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}
