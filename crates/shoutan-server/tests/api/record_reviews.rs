//! AI reviews of uploaded records: reviewed once per game and level
//! whoever uploads it, refused with a specific code (and nothing stored)
//! when they cannot be reviewed, within the budget games use, and made
//! after a restart when the server stopped first.

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use shoutan_server::review::record::{MAX_SGF_BYTES, Record};
use shoutan_store::NewRecordReview;

use crate::common::{Backend, Client, TestServer, config};
use crate::reviews::finished_game;

/// A short 9×9 game.
const SHORT: &str =
    "(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese]PB[Ke]PW[Shin];B[ee];W[cc];B[gg];W[cg];B[gc])";

/// The same game as another site writes it: other names, comments, a
/// variation, the properties in another order.
const SHORT_AGAIN: &str = "(;FF[4]GM[1]SZ[9]RU[Chinese]KM[7]PB[Someone]PW[Else]C[uploaded again]\n\
     ;B[ee]C[a fine move];W[cc]\n;B[gg];W[cg](;B[gc])(;B[dd];W[ff]))";

/// A 19×19 record of `moves` stones that capture nothing (black on rows
/// 2, 4, 6 and 8 from the bottom, white on 18, 16, 14 and 12), with `komi`.
fn quiet_record(moves: usize, komi: &str) -> String {
    let columns = "abcdefghijklmnopqrs";
    let at = |stone: usize, rows: &str| {
        let col = &columns[stone % 19..stone % 19 + 1];
        let row = &rows[stone / 19..stone / 19 + 1];
        format!("{col}{row}")
    };
    let body: String = (0..moves)
        .map(|i| {
            if i % 2 == 0 {
                format!(";B[{}]", at(i / 2, "rpnl"))
            } else {
                format!(";W[{}]", at(i / 2, "bdfh"))
            }
        })
        .collect();
    format!("(;GM[1]FF[4]SZ[19]KM[{komi}]RU[Chinese]{body})")
}

/// Asks for a review of `sgf` at `level`.
async fn upload(client: &Client, sgf: &str, level: &str) -> crate::common::Answer {
    client
        .post("/api/reviews", json!({"sgf": sgf, "level": level}))
        .await
}

/// Polls the record's review at `level` until it is done.
async fn wait_for_record(client: &Client, id: &str, level: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(300);
    loop {
        let got = client
            .get(&format!("/api/reviews/{id}?level={level}"))
            .await;
        assert_eq!(got.status, 200, "{}", got.body);
        if got.json["status"] == "done" {
            return got.json;
        }
        assert_eq!(got.json["status"], "queued", "{}", got.body);
        assert!(Instant::now() < deadline, "no review: {}", got.body);
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

async fn a_record_is_reviewed_once_whoever_uploads_it(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let anonymous = Client::anonymous(&server);
    let refused = upload(&anonymous, SHORT, "quick").await;
    assert_eq!(refused.status, 401, "{}", refused.body);
    let ke = server.player("ke", "5k").await;
    let shin = server.player("shin", "5k").await;
    let bad = upload(&ke, SHORT, "thorough").await;
    assert_eq!(
        (bad.status, bad.json["error"].as_str()),
        (400, Some("bad_level"))
    );

    let asked = upload(&ke, SHORT, "quick").await;
    assert_eq!(asked.status, 202, "{}", asked.body);
    assert_eq!(asked.json["status"], "queued");
    assert_eq!(asked.json["level"], "quick");
    let id = asked.json["id"].as_str().unwrap().to_owned();
    assert_eq!(id.len(), 64);
    assert!(id.chars().all(|c| c.is_ascii_hexdigit()), "{id}");

    let again = upload(&shin, SHORT_AGAIN, "quick").await;
    assert!(matches!(again.status, 200 | 202), "{}", again.body);
    assert_eq!(again.json["id"], id.as_str(), "the same game, the same id");
    let row = server
        .store
        .record_review(&id, "quick")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(row.sgf, SHORT, "the first upload is kept");
    let ke_id = ke.get("/api/session").await.json["id"].as_i64().unwrap();
    assert_eq!(row.requested_by, ke_id);

    let review = wait_for_record(&anonymous, &id, "quick").await;
    assert_eq!(review["id"], id.as_str());
    assert_eq!(review["progress"], Value::Null);
    let body = &review["review"];
    assert_eq!(body["positions"].as_array().unwrap().len(), 6);
    assert_eq!(body["moves"].as_array().unwrap().len(), 5);
    assert_eq!(body["moves"][0]["mv"], "E5");
    assert_eq!(body["visits"], 64);
    for p in body["positions"].as_array().unwrap() {
        let w = p["black_winrate"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&w), "{p}");
    }
    // Uploaded once more after it is made: the stored review, at once.
    let stored = upload(&shin, SHORT_AGAIN, "quick").await;
    assert_eq!(stored.status, 200, "{}", stored.body);
    assert_eq!(stored.json["review"], review["review"]);
    assert!(
        server
            .store
            .pending_record_reviews()
            .await
            .unwrap()
            .is_empty()
    );

    for (path, what) in [
        (format!("/api/reviews/{id}?level=deep"), "another level"),
        (
            format!("/api/reviews/{}?level=quick", "0".repeat(64)),
            "unknown",
        ),
        ("/api/reviews/nonsense?level=quick".to_owned(), "not an id"),
    ] {
        let missing = anonymous.get(&path).await;
        assert_eq!(
            (missing.status, missing.json["error"].as_str()),
            (404, Some("not_found")),
            "{what}: {}",
            missing.body
        );
    }
    let no_level = anonymous.get(&format!("/api/reviews/{id}")).await;
    assert_eq!(no_level.status, 400, "{}", no_level.body);
}

async fn records_that_cannot_be_reviewed_are_refused(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let ke = server.player("ke", "5k").await;
    let too_long = format!(
        "(;SZ[9]C[{}];B[ee])",
        "x".repeat(MAX_SGF_BYTES - "(;SZ[9]C[];B[ee])".len() + 1)
    );
    for (sgf, code) in [
        (too_long.as_str(), "too_large"),
        ("not a record", "bad_sgf"),
        ("(;GM[1]SZ[9];B[ee])(;GM[1]SZ[9];B[cc])", "several_games"),
        ("(;SZ[21];B[kk])", "bad_size"),
        ("(;SZ[9]PB[Ke]PW[Shin])", "no_moves"),
        ("(;SZ[9];B[ee];W[cc];B[cc])", "illegal_move"),
    ] {
        let refused = upload(&ke, sgf, "quick").await;
        assert_eq!(
            (refused.status, refused.json["error"].as_str()),
            (400, Some(code)),
            "{}",
            refused.body
        );
        assert!(
            !refused.json["message"].as_str().unwrap().is_empty(),
            "{}",
            refused.body
        );
    }
    assert!(
        server
            .store
            .pending_record_reviews()
            .await
            .unwrap()
            .is_empty(),
        "nothing stored"
    );

    // A record just within the limit is taken, though its JSON is more
    // than the 64 KiB other bodies may be (a newline is two bytes).
    let roomy = format!(
        "(;SZ[9]C[{}];B[ee])",
        "\n".repeat(MAX_SGF_BYTES - "(;SZ[9]C[];B[ee])".len())
    );
    assert_eq!(roomy.len(), MAX_SGF_BYTES);
    let taken = upload(&ke, &roomy, "quick").await;
    assert_eq!(taken.status, 202, "{}", taken.body);
    // The body itself has a bound: 6 bytes a byte of the largest record.
    let huge = json!({"sgf": "x".repeat(6 * MAX_SGF_BYTES + 2048), "level": "quick"});
    let refused = ke.post("/api/reviews", huge).await;
    assert_eq!(
        (refused.status, refused.json["error"].as_str()),
        (413, Some("malformed")),
        "{}",
        refused.body
    );
}

async fn records_and_games_share_the_review_budget(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let (black, _white, game) = finished_game(&server, 40).await;
    let (_, _, other_game) = finished_game(&server, 40).await;
    let asked = black
        .post(
            &format!("/api/games/{game}/reviews"),
            json!({"level": "deep"}),
        )
        .await;
    assert_eq!(asked.status, 202, "{}", asked.body);
    let first = quiet_record(40, "7.5");
    let asked = upload(&black, &first, "deep").await;
    assert_eq!(asked.status, 202, "{}", asked.body);
    let id = asked.json["id"].clone();

    let second = upload(&black, &quiet_record(40, "6.5"), "deep").await;
    assert_eq!(
        (second.status, second.json["error"].as_str()),
        (429, Some("review_budget")),
        "a game and a record are two reviews: {}",
        second.body
    );
    let refused = black
        .post(
            &format!("/api/games/{other_game}/reviews"),
            json!({"level": "deep"}),
        )
        .await;
    assert_eq!(
        (refused.status, refused.json["error"].as_str()),
        (429, Some("review_budget")),
        "a record counts against games: {}",
        refused.body
    );
    // The same record again joins its review: no second job, so no
    // budget is needed.
    let renamed = first.replacen("RU[Chinese]", "RU[Chinese]PB[Ke]", 1);
    let joined = upload(&black, &renamed, "deep").await;
    assert_eq!(joined.status, 202, "{}", joined.body);
    assert_eq!(joined.json["id"], id);

    let pending = server.store.pending_record_reviews().await.unwrap();
    assert_eq!(pending.len(), 1, "nothing stored of the refused record");
    assert_eq!(Some(pending[0].record.as_str()), id.as_str());
    assert!(server.store.reviews(other_game).await.unwrap().is_empty());
}

async fn a_record_review_is_made_after_a_restart(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let ke = server.player("ke", "5k").await;
    let asked = upload(&ke, SHORT, "quick").await;
    assert_eq!(asked.status, 202, "{}", asked.body);
    let uploaded = asked.json["id"].as_str().unwrap().to_owned();
    // A request stored as the server stopped, before its job began: only
    // the restart makes it.
    let planted_sgf = "(;GM[1]FF[4]SZ[9]KM[6.5]RU[Japanese];B[ee];W[cg];B[gc])";
    let planted = Record::read(planted_sgf).unwrap().id.to_string();
    let ke_id = ke.get("/api/session").await.json["id"].as_i64().unwrap();
    server
        .store
        .request_record_review(NewRecordReview {
            record: planted.clone(),
            level: "quick".into(),
            sgf: planted_sgf.into(),
            requested_by: ke_id,
            requested_at: 1,
        })
        .await
        .unwrap();
    let before = ke.get(&format!("/api/reviews/{planted}?level=quick")).await;
    assert_eq!(
        (before.json["status"].as_str(), &before.json["progress"]),
        (Some("queued"), &Value::Null),
        "{}",
        before.body
    );

    let server = server.restart(Duration::from_millis(100), config()).await;
    let mut ke = ke;
    ke.base = server.base.clone();
    let review = wait_for_record(&ke, &planted, "quick").await;
    assert_eq!(review["review"]["positions"].as_array().unwrap().len(), 4);
    assert_eq!(review["review"]["moves"][1]["mv"], "C3");
    let review = wait_for_record(&ke, &uploaded, "quick").await;
    assert_eq!(review["review"]["positions"].as_array().unwrap().len(), 6);
}

/// A request stored with no job behind it (the full pool refused its job,
/// or the server could not resume it) is made when anyone asks again,
/// instead of waiting for a restart and holding the asker's budget.
async fn a_stored_request_with_no_job_is_made_when_asked_again(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let ke = server.player("ke", "5k").await;
    let record = Record::read(SHORT).unwrap().id.to_string();
    let ke_id = ke.get("/api/session").await.json["id"].as_i64().unwrap();
    server
        .store
        .request_record_review(NewRecordReview {
            record: record.clone(),
            level: "quick".into(),
            sgf: SHORT.into(),
            requested_by: ke_id,
            requested_at: 1,
        })
        .await
        .unwrap();
    let stranded = ke.get(&format!("/api/reviews/{record}?level=quick")).await;
    assert_eq!(
        stranded.json["progress"],
        Value::Null,
        "no job: {}",
        stranded.body
    );
    let asked = upload(&ke, SHORT_AGAIN, "quick").await;
    assert_eq!(asked.json["id"], record.as_str(), "{}", asked.body);
    let review = wait_for_record(&ke, &record, "quick").await;
    assert_eq!(review["review"]["positions"].as_array().unwrap().len(), 6);
    // Done, it holds no budget: two more reviews may be asked for.
    for sgf in [quiet_record(4, "7"), quiet_record(6, "7")] {
        let more = upload(&ke, &sgf, "quick").await;
        assert_eq!(more.status, 202, "{}", more.body);
    }
}

crate::for_both_backends!(
    a_record_is_reviewed_once_whoever_uploads_it,
    records_that_cannot_be_reviewed_are_refused,
    records_and_games_share_the_review_budget,
    a_record_review_is_made_after_a_restart,
    a_stored_request_with_no_job_is_made_when_asked_again,
);
