//! Crash safety of `shoutan serve`: start the built binary, play two games
//! (one in play with its clock running, one in counting with marks and
//! chat), `kill -9` it, restart it over the same data, and find every game,
//! its clocks, counting marks and chat exactly as acknowledged — with the
//! downtime not charged — then play on.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed call is a test failure

use std::time::{Duration, Instant};

use serde_json::{Value, json};

mod common;

use common::{Player, Server, new_game};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_then_restart_and_play_on() {
    let data = tempfile::tempdir().unwrap();
    let data_dir = data.path().to_str().unwrap();
    let server = Server::start(&["--data", data_dir]);
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
            ab.play(point).await;
        } else {
            aw.play(point).await;
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
            bb.play(point).await;
        } else {
            bw.play(point).await;
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

    let server = Server::start(&["--data", data_dir]);
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

/// One process per SQLite database: a second `shoutan serve` on the same
/// data directory is refused with a message that says why, and the first
/// serves on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_server_on_one_sqlite_database_is_refused() {
    let data = tempfile::tempdir().unwrap();
    let data_dir = data.path().to_str().unwrap();
    let first = Server::start(&["--data", data_dir]);
    let second = std::process::Command::new(env!("CARGO_BIN_EXE_shoutan"))
        .args(["serve", "--addr", "127.0.0.1:0", "--data", data_dir])
        .output()
        .unwrap();
    assert!(!second.status.success());
    let said = String::from_utf8_lossy(&second.stderr);
    assert!(
        said.contains("in use by another shoutan server") && said.contains("PostgreSQL"),
        "{said}"
    );
    let black = Player::register(&first.base, "hei").await;
    assert!(!black.cookie.is_empty(), "the first server serves on");
}
