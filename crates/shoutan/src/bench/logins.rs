//! `bench logins`: the start of a club evening. A crowd of players log in
//! at once, each from his own machine, with the server's real password
//! cost, while one address floods it with wrong passwords; how long until
//! every one of them is in, and what became of the flood.

use std::process::{Command, ExitCode};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};

use super::server::{Addresses, spawn_instance};

/// Arguments of `bench logins`.
#[derive(clap::Args)]
pub struct Args {
    /// Right logins at once, each from its own address.
    #[arg(long, default_value_t = 64)]
    crowd: usize,
    /// Wrong-password logins a second from one address meanwhile.
    #[arg(long, default_value_t = 200)]
    flood: u32,
    /// Times the crowd logs in (the figures are their medians).
    #[arg(long, default_value_t = 5)]
    rounds: usize,
}

/// Runs the benchmark.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let data = tempfile::tempdir()?;
    let mut command = Command::new(std::env::current_exe().context("finding shoutan")?);
    command
        .args(["serve", "--addr", "127.0.0.1:0", "--data"])
        .arg(data.path());
    let server = spawn_instance(command)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    runtime.block_on(measure(server.base.clone(), &args))
}

async fn measure(base: String, args: &Args) -> anyhow::Result<ExitCode> {
    // The crowd from 127.0.210.x, the flood from 127.0.220.1.
    let crowd = Addresses::new(&base, 210);
    let clients: Vec<reqwest::Client> = (0..args.crowd)
        .map(|n| crowd.http(n))
        .collect::<Result<_, _>>()?;
    println!(
        "registering {} players (one address each, the real password cost) …",
        args.crowd
    );
    for (n, http) in clients.iter().enumerate() {
        let made = http
            .post(format!("{base}/api/accounts"))
            .header("x-shoutan-request", "1")
            .json(&serde_json::json!({"name": format!("club{n}"), "password": "club evening", "rank": "5k"}))
            .send()
            .await?;
        if made.status() != 201 {
            bail!("registering club{n}: {}", made.text().await?);
        }
    }
    let flooder = Addresses::new(&base, 220).http(0)?;
    let mut alls = Vec::new();
    let mut medians = Vec::new();
    let mut failures = 0;
    let counts = Arc::new(Counts::default());
    for round in 0..args.rounds {
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let flood = tokio::spawn(flood_logins(
            base.clone(),
            flooder.clone(),
            args.flood,
            Arc::clone(&stop),
            Arc::clone(&counts),
        ));
        tokio::time::sleep(Duration::from_millis(500)).await;
        let started = Instant::now();
        let logins: Vec<_> = clients
            .iter()
            .enumerate()
            .map(|(n, http)| {
                let (http, base) = (http.clone(), base.clone());
                tokio::spawn(async move {
                    let answer = http
                        .post(format!("{base}/api/session"))
                        .header("x-shoutan-request", "1")
                        .json(&serde_json::json!({"name": format!("club{n}"), "password": "club evening"}))
                        .send()
                        .await;
                    (
                        answer.map(|r| r.status().as_u16()).unwrap_or(0),
                        started.elapsed(),
                    )
                })
            })
            .collect();
        let mut times = Vec::new();
        for login in logins {
            let (status, took) = login.await?;
            if status == 200 {
                times.push(took);
            } else {
                failures += 1;
                println!("  round {}: a login answered {status}", round + 1);
            }
        }
        stop.store(true, Ordering::Relaxed);
        flood.await??;
        times.sort();
        let all = times.last().copied().unwrap_or_default();
        let median = times.get(times.len() / 2).copied().unwrap_or_default();
        println!(
            "  round {}: {} of {} in; the last after {:.2} s, the median after {:.2} s",
            round + 1,
            times.len(),
            args.crowd,
            all.as_secs_f64(),
            median.as_secs_f64()
        );
        alls.push(all);
        medians.push(median);
        // Sessions are forgotten between rounds: the same players log in again.
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    alls.sort();
    medians.sort();
    println!(
        "{} right logins at once, {} rounds, with {} wrong/s from one address:",
        args.crowd, args.rounds, args.flood
    );
    println!(
        "  all in after (median of rounds): {:.2} s; a login's median wait: {:.2} s; refused: {failures}",
        alls[alls.len() / 2].as_secs_f64(),
        medians[medians.len() / 2].as_secs_f64()
    );
    println!(
        "  the flood: {} sent: {} checked (401), {} busy (503), {} rate-limited (429), {} other",
        counts.sent.load(Ordering::Relaxed),
        counts.checked.load(Ordering::Relaxed),
        counts.busy.load(Ordering::Relaxed),
        counts.limited.load(Ordering::Relaxed),
        counts.other.load(Ordering::Relaxed)
    );
    Ok(if failures == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

#[derive(Default)]
struct Counts {
    sent: AtomicU64,
    checked: AtomicU64,
    busy: AtomicU64,
    limited: AtomicU64,
    other: AtomicU64,
}

/// Wrong logins at `rate` a second from one address until `stop`.
async fn flood_logins(
    base: String,
    http: reqwest::Client,
    rate: u32,
    stop: Arc<std::sync::atomic::AtomicBool>,
    counts: Arc<Counts>,
) -> anyhow::Result<()> {
    let mut tick = tokio::time::interval(Duration::from_secs_f64(1.0 / f64::from(rate.max(1))));
    while !stop.load(Ordering::Relaxed) {
        tick.tick().await;
        let (http, base, counts) = (http.clone(), base.clone(), Arc::clone(&counts));
        tokio::spawn(async move {
            counts.sent.fetch_add(1, Ordering::Relaxed);
            let answer = http
                .post(format!("{base}/api/session"))
                .header("x-shoutan-request", "1")
                .json(&serde_json::json!({"name": format!("club{}", fastrand::u32(..64)), "password": "guess"}))
                .send()
                .await;
            let counter = match answer.map(|r| r.status().as_u16()) {
                Ok(401) => &counts.checked,
                Ok(503) => &counts.busy,
                Ok(429) => &counts.limited,
                _ => &counts.other,
            };
            counter.fetch_add(1, Ordering::Relaxed);
        });
    }
    Ok(())
}
