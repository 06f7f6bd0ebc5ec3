//! Backups as an operator takes them: `shoutan backup` while a game is being
//! played on the running server, `shoutan restore` into another data
//! directory, and a server started there serves every move acknowledged
//! before the backup began, and plays on. PostgreSQL's recipe (`pg_dump`,
//! `pg_restore`, as the README gives it) restores a database that serves
//! the same games.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed call is a test failure

mod common;

use std::path::Path;
use std::process::{Command, Output};

use common::{Player, Server, a_game_played};
use serde_json::{Value, json};

/// Black along the third line, white along the seventh: 18 moves on 9×9
/// with nothing captured.
const MOVES: [&str; 18] = [
    "A3", "A7", "B3", "B7", "C3", "C7", "D3", "D7", "E3", "E7", "F3", "F7", "G3", "G7", "H3", "H7",
    "J3", "J7",
];

fn shoutan(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shoutan"))
        .args(args)
        .output()
        .unwrap()
}

fn said(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

fn moves(game: &Value) -> Vec<Value> {
    game["moves"].as_array().expect("the game's moves").clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_taken_during_play_restores_every_acknowledged_move() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let data = data.to_str().unwrap();
    let out = dir.path().join("backup.db");
    let server = Server::start(&["--data", data]);
    let (black, white, id, mut sockets) = a_game_played(&server.base, &MOVES[..8]).await;

    // The backup runs as its own process while the players go on.
    let acknowledged_before = 8;
    let backup = {
        let (data, out) = (data.to_owned(), out.to_str().unwrap().to_owned());
        std::thread::spawn(move || shoutan(&["backup", "--data", &data, &out]))
    };
    let mut played = acknowledged_before;
    while played < MOVES.len() && !backup.is_finished() {
        sockets[played % 2].play(MOVES[played]).await;
        played += 1;
    }
    let backup = backup.join().unwrap();
    assert!(backup.status.success(), "{}", said(&backup));
    assert!(
        said(&backup).contains("2 players, 1 games"),
        "{}",
        said(&backup)
    );
    for (i, point) in MOVES.iter().enumerate().skip(played) {
        sockets[i % 2].play(point).await;
    }
    let original = moves(&black.game(id).await);
    assert_eq!(original.len(), MOVES.len());

    // Restored beside the running server, into a directory of its own.
    let elsewhere = dir.path().join("restored");
    let elsewhere = elsewhere.to_str().unwrap();
    let restored = shoutan(&["restore", out.to_str().unwrap(), "--data", elsewhere]);
    assert!(restored.status.success(), "{}", said(&restored));
    let second = Server::start(&["--data", elsewhere]);
    let black_there = black.at(&second.base);
    let game = black_there.game(id).await;
    let kept = moves(&game);
    assert!(
        kept.len() >= acknowledged_before,
        "{} of the {acknowledged_before} moves acknowledged before the backup",
        kept.len()
    );
    assert_eq!(kept[..], original[..kept.len()], "a snapshot of the game");

    // The restored server plays on from where the backup stood.
    let mut next = black_there.ws(id).await;
    let mut next_white = white.at(&second.base).ws(id).await;
    let to_move = if kept.len().is_multiple_of(2) {
        &mut next
    } else {
        &mut next_white
    };
    to_move.play("E5").await;
    assert_eq!(moves(&black_there.game(id).await).len(), kept.len() + 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refusals_say_why_and_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let data = data.to_str().unwrap();
    let out = dir.path().join("backup.db");
    let out = out.to_str().unwrap();

    let nothing = shoutan(&["backup", "--data", data, out]);
    assert!(!nothing.status.success());
    assert!(
        said(&nothing).contains("does not exist"),
        "{}",
        said(&nothing)
    );

    let server = Server::start(&["--data", data]);
    Player::register(&server.base, "hei").await;
    assert!(shoutan(&["backup", "--data", data, out]).status.success());
    let again = shoutan(&["backup", "--data", data, out]);
    assert!(!again.status.success());
    assert!(said(&again).contains("exists already"), "{}", said(&again));

    let running = shoutan(&["restore", out, "--data", data, "--replace"]);
    assert!(!running.status.success());
    assert!(
        said(&running).contains("in use by another shoutan server"),
        "{}",
        said(&running)
    );
    drop(server);

    let over = shoutan(&["restore", out, "--data", data]);
    assert!(!over.status.success());
    assert!(said(&over).contains("--replace"), "{}", said(&over));

    let words = dir.path().join("words.db");
    std::fs::write(&words, "these are words, not a database at all").unwrap();
    let garbage = shoutan(&[
        "restore",
        words.to_str().unwrap(),
        "--data",
        data,
        "--replace",
    ]);
    assert!(!garbage.status.success());
    assert!(
        said(&garbage).contains("not a database"),
        "{}",
        said(&garbage)
    );

    let pg = shoutan(&[
        "backup",
        "--database",
        "postgres://postgres@127.0.0.1/x",
        out,
    ]);
    assert!(!pg.status.success());
    assert!(said(&pg).contains("pg_dump"), "{}", said(&pg));

    // None of that touched the database: the server starts on it and the
    // account is there.
    let server = Server::start(&["--data", data]);
    let login = reqwest::Client::new()
        .post(format!("{}/api/session", server.base))
        .header("x-shoutan-request", "1")
        .json(&json!({"name": "hei", "password": "crash test"}))
        .send()
        .await
        .unwrap();
    assert_eq!(login.status(), 200, "{:?}", login.text().await);
    assert!(Path::new(out).exists());
}

/// PostgreSQL: the README's recipe, `pg_dump --format=custom` of a served
/// database and `pg_restore` into an empty one, serves the same games.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pg_dump_restored_serves_the_same_games() {
    let Some(admin) = shoutan_test_env::locate(shoutan_test_env::External::Postgres) else {
        return;
    };
    let (base, _) = admin.rsplit_once('/').expect("a URL with a database");
    let tag = format!("{}_{}", std::process::id(), fastrand::u32(..));
    let (source, target) = (format!("shoutan_dump_{tag}"), format!("shoutan_load_{tag}"));
    for name in [&source, &target] {
        shoutan_test_env::postgres_sql(&admin, None, &format!("CREATE DATABASE {name}"))
            .await
            .unwrap();
    }
    let (source_url, target_url) = (format!("{base}/{source}"), format!("{base}/{target}"));
    let dump = tempfile::tempdir().unwrap();
    let dump = dump.path().join("shoutan.dump");

    // The restored database is served by the instance it was dumped from
    // (its games are that instance's), as after a restart.
    let server = Server::start(&["--database", &source_url, "--instance-id", "main"]);
    let (black, _, id, mut sockets) = a_game_played(&server.base, &MOVES[..6]).await;
    sockets[0]
        .ok(json!({"type": "chat", "text": "备份之前"}))
        .await;
    let before = black.game(id).await;
    let dumped = Command::new("pg_dump")
        .args([
            "--format=custom",
            "--file",
            dump.to_str().unwrap(),
            &source_url,
        ])
        .output()
        .expect("pg_dump (PostgreSQL's client tools) on PATH");
    assert!(dumped.status.success(), "{}", said(&dumped));
    drop(server);
    let loaded = Command::new("pg_restore")
        .args([
            "--no-owner",
            "--dbname",
            &target_url,
            dump.to_str().unwrap(),
        ])
        .output()
        .expect("pg_restore on PATH");
    assert!(loaded.status.success(), "{}", said(&loaded));

    let server = Server::start(&["--database", &target_url, "--instance-id", "main"]);
    let after = black.at(&server.base).game(id).await;
    for key in ["board", "moves", "chat", "settings", "black", "white"] {
        assert_eq!(after[key], before[key], "{key}");
    }
    black.at(&server.base).ws(id).await.play(MOVES[6]).await;
    drop(server);
    for name in [&source, &target] {
        let _ = shoutan_test_env::postgres_sql(
            &admin,
            None,
            &format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"),
        )
        .await;
    }
}
