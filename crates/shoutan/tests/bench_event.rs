#![allow(clippy::unwrap_used, clippy::expect_used)]
//! The small version of `shoutan bench event`: 50 players, 3 rounds, a
//! Swiss and a McMahon event run online end to end against a real server
//! process — its games played to a result over WebSockets by a separate
//! client process, standings watched over lobby sockets, and the server
//! killed (`kill -9`) in round 2 and started again — on SQLite and on
//! PostgreSQL. Every result the players saw acknowledged must be in the
//! final standings once, and every watcher must have seen every result.

use std::process::Command;

use serde_json::Value;

/// Runs the benchmark with `extra` arguments; its JSON figures.
fn bench(extra: &[&str]) -> Value {
    let output = Command::new(env!("CARGO_BIN_EXE_shoutan"))
        .args([
            "bench",
            "event",
            "--players",
            "50",
            "--rounds",
            "3",
            "--watchers",
            "20",
            "--round-seconds",
            "2",
            "--kill-round",
            "2",
            "--json",
        ])
        .args(extra)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_str(stdout.lines().last().unwrap()).unwrap()
}

fn check(figures: &Value) {
    let events = figures["events"].as_array().unwrap();
    assert_eq!(events.len(), 2, "{figures}");
    for (event, system) in events.iter().zip(["swiss", "mcmahon"]) {
        assert_eq!(event["system"], system);
        let rounds = event["rounds"].as_array().unwrap();
        assert_eq!(rounds.len(), 3, "{event}");
        for round in rounds {
            // 50 players: 25 boards a round, every player told.
            assert_eq!(round["games"], 25, "{round}");
            assert!(round["told_ms"].is_u64(), "{round}");
        }
        assert_eq!(event["results"], 75, "{event}");
        assert_eq!(event["lost"], 0, "{event}");
        assert_eq!(event["extra"], 0, "{event}");
        assert_eq!(event["unseen"], 0, "{event}");
        let restart = &event["restart"];
        assert_eq!(restart["round"], 2, "{event}");
        // Killed with half of round 2's results in: round 1's 25 and 12.
        assert_eq!(restart["results_before"], 37, "{event}");
        let latency = &event["result_to_standings_ms"];
        assert!(latency["p50"].as_f64().unwrap() <= latency["p99"].as_f64().unwrap());
    }
    assert!(figures["server_rss_peak_mib"].as_f64().unwrap() > 0.0);
}

#[test]
fn an_online_event_of_50_runs_end_to_end_on_sqlite() {
    check(&bench(&[]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_online_event_of_50_runs_end_to_end_on_postgres() {
    let Some(admin) = shoutan_test_env::locate(shoutan_test_env::External::Postgres) else {
        return;
    };
    let (base, _) = admin.rsplit_once('/').expect("a URL with a database");
    let name = format!("shoutan_event_{}_{}", std::process::id(), fastrand::u32(..));
    shoutan_test_env::postgres_sql(&admin, None, &format!("CREATE DATABASE {name}"))
        .await
        .unwrap();
    let url = format!("{base}/{name}");
    let figures = tokio::task::spawn_blocking(move || bench(&["--database", &url]))
        .await
        .unwrap();
    check(&figures);
    let _ = shoutan_test_env::postgres_sql(
        &admin,
        None,
        &format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"),
    )
    .await;
}
