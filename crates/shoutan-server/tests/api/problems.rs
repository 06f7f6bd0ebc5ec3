//! Problems to practise (死活题) over HTTP: the sets and a problem's
//! position; a wrong first move refuted and a right line played out to
//! the end, each judged by the solver; only the first try recorded, with
//! the ratings it moves; hints and the solution counted as failures; bad
//! lines refused with their own codes, changing nothing.

use std::time::Duration;

use serde_json::{Value, json};
use shoutan_problems::library;
use shoutan_rules::Move;
use shoutan_server::accounts::rate_limit::Limit;

use crate::common::{Backend, Client, TestServer, config};

/// The problems the test plays: the first set's first three.
fn first_set() -> &'static str {
    library()[0].slug
}

fn answer_of(number: u32) -> String {
    let entry = &library()[0].problems[number as usize - 1];
    let Move::Play(p) = entry.answers[0] else {
        panic!("problem {number}'s answer is a pass");
    };
    p.to_gtp(entry.board.size())
}

/// A legal point of the problem's area that is not a right first move.
fn wrong_of(number: u32) -> String {
    let entry = &library()[0].problems[number as usize - 1];
    let problem = entry.problem();
    let size = entry.board.size();
    problem
        .region()
        .iter()
        .find(|&p| entry.board.get(p).is_none() && !entry.answers.contains(&Move::Play(p)))
        .map(|p| p.to_gtp(size))
        .expect("an empty point that is not the answer")
}

async fn try_line(client: &Client, number: u32, moves: &[String]) -> (u16, Value) {
    let answer = client
        .post(
            &format!("/api/problems/{}/{number}/moves", first_set()),
            json!({ "moves": moves }),
        )
        .await;
    (answer.status, answer.json)
}

/// The right line of problem `number` as the solution tree gives it,
/// followed through the judge's replies.
async fn solve(server: &TestServer, client: &Client, number: u32) -> Value {
    let tree = Client::anonymous(server)
        .post(
            &format!("/api/problems/{}/{number}/solution", first_set()),
            json!({}),
        )
        .await
        .json;
    let mut node = tree["tree"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["correct"] == true)
        .unwrap_or_else(|| panic!("no right first move in {tree}"))
        .clone();
    let mut line = vec![node["move"].as_str().unwrap().to_owned()];
    loop {
        let (status, judged) = try_line(client, number, &line).await;
        assert_eq!(status, 200, "{line:?}: {judged}");
        assert_eq!(judged["correct"], true, "{line:?}: {judged}");
        if judged["solved"] == true {
            return judged;
        }
        let reply = judged["reply"].as_str().unwrap().to_owned();
        let answered = &node["children"][0];
        assert_eq!(answered["move"], reply.as_str(), "the solution's line");
        node = answered["children"][0].clone();
        line.push(reply);
        line.push(node["move"].as_str().unwrap().to_owned());
    }
}

async fn a_first_try_is_judged_and_rated_once(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let set = first_set();
    let anyone = Client::anonymous(&server);
    let sets = anyone.get("/api/problems").await.json;
    assert_eq!(sets["sets"].as_array().unwrap().len(), library().len());
    assert_eq!(sets["rating"], Value::Null);

    let player = server.player("tsumego", "10k").await;
    let shown = player.get(&format!("/api/problems/{set}/1")).await.json;
    let entry = &library()[0].problems[0];
    let stones = |c| {
        entry
            .board
            .size()
            .points()
            .filter(|&p| entry.board.get(p) == Some(c))
            .count()
    };
    assert_eq!(
        shown["black"].as_array().unwrap().len(),
        stones(shoutan_rules::Color::Black)
    );
    assert_eq!(
        shown["white"].as_array().unwrap().len(),
        stones(shoutan_rules::Color::White)
    );
    assert_eq!(shown["to_move"], entry.to_move.name());
    assert_eq!(shown["status"], "new");

    // A wrong first move: refuted, and the first try recorded as failed.
    let (status, wrong) = try_line(&player, 1, &[wrong_of(1)]).await;
    assert_eq!(status, 200, "{wrong}");
    assert_eq!(wrong["correct"], false, "{wrong}");
    assert_eq!(wrong["recorded"]["status"], "failed", "{wrong}");
    let change = &wrong["recorded"]["rating"];
    assert!(
        change["after"].as_f64() < change["before"].as_f64(),
        "{wrong}"
    );
    // Playing on after it is refused; the right move now counts for nothing.
    let mut on = vec![wrong_of(1)];
    if let Some(r) = wrong["reply"].as_str() {
        on.push(r.to_owned());
        on.push(answer_of(1));
        let (status, over) = try_line(&player, 1, &on).await;
        assert_eq!(
            (status, over["error"].as_str()),
            (400, Some("try_over")),
            "{over}"
        );
    }
    let (_, again) = try_line(&player, 1, &[answer_of(1)]).await;
    assert_eq!(again["correct"], true, "{again}");
    assert_eq!(again["recorded"], Value::Null, "only the first try counts");

    // Problem 2 solved to the end: recorded as solved, the rating up.
    let solved = solve(&server, &player, 2).await;
    assert_eq!(solved["recorded"]["status"], "solved", "{solved}");
    let change = &solved["recorded"]["rating"];
    assert!(
        change["after"].as_f64() > change["before"].as_f64(),
        "{solved}"
    );

    // A hint on problem 3 shows the answer's neighbourhood and fails it.
    let hint = player
        .post(&format!("/api/problems/{set}/3/hint"), json!({}))
        .await;
    assert_eq!(hint.status, 200, "{}", hint.body);
    assert!(
        hint.json["area"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p == answer_of(3).as_str()),
        "{}",
        hint.body
    );

    let sets = player.get("/api/problems").await.json;
    let mine = sets["sets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == set)
        .unwrap();
    assert_eq!(
        (mine["solved"].as_u64(), mine["failed"].as_u64()),
        (Some(1), Some(2)),
        "{sets}"
    );
    assert_eq!(sets["rating"]["attempts"], 3, "{sets}");
    let listed = player.get(&format!("/api/problems/{set}")).await.json;
    let statuses: Vec<&str> = listed["problems"].as_array().unwrap()[..3]
        .iter()
        .map(|p| p["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, ["failed", "solved", "failed"]);
    let shown = anyone.get(&format!("/api/problems/{set}/2")).await.json;
    assert_eq!(
        (shown["attempts"].as_i64(), shown["solved_share"].as_f64()),
        (Some(1), Some(1.0))
    );
}

async fn bad_lines_are_refused_with_their_reasons(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let set = first_set();
    let player = server.player("careless", "10k").await;
    let entry = &library()[0].problems[0];
    let size = entry.board.size();
    let occupied = entry.target.to_gtp(size);
    let outside = size
        .points()
        .find(|&p| !entry.problem().region().contains(p))
        .map(|p| p.to_gtp(size))
        .expect("a point outside the area");
    for (moves, code) in [
        (vec![], "bad_line"),
        (vec![answer_of(1), wrong_of(1)], "bad_line"),
        (vec![occupied], "illegal_move"),
        (vec![outside], "outside_problem"),
        (vec!["Z9".to_owned()], "bad_point"),
    ] {
        let (status, refused) = try_line(&player, 1, &moves).await;
        assert_eq!(
            (status, refused["error"].as_str()),
            (400, Some(code)),
            "{moves:?}: {refused}"
        );
    }
    let status = |path: String| {
        let player = player.clone();
        async move { player.get(&path).await.status }
    };
    assert_eq!(status(format!("/api/problems/{set}/0")).await, 404);
    assert_eq!(status(format!("/api/problems/{set}/x")).await, 400);
    assert_eq!(status("/api/problems/no-such-set".to_owned()).await, 404);
    // Nothing was recorded.
    let shown = player.get(&format!("/api/problems/{set}/1")).await.json;
    assert_eq!(shown["status"], "new", "{shown}");
    assert_eq!(
        player.get("/api/problems").await.json["rating"],
        Value::Null
    );
}

/// Each client address has its budget of judged moves: past it the judge
/// is not asked (429 `rate_limited`, with when to come back), and another
/// address is still served.
async fn a_client_past_its_budget_of_moves_waits(backend: Backend) {
    let config = shoutan_server::config::ServerConfig {
        problem_moves_per_address: Limit::new(3, Duration::from_secs(60)),
        ..config()
    };
    let Some(server) = TestServer::new(backend, config).await else {
        return;
    };
    let eager = Client::from_address(&server, "127.0.0.2");
    for _ in 0..3 {
        let (status, judged) = try_line(&eager, 1, &[answer_of(1)]).await;
        assert_eq!(status, 200, "{judged}");
    }
    let refused = eager
        .post(
            &format!("/api/problems/{}/1/moves", first_set()),
            json!({ "moves": [answer_of(1)] }),
        )
        .await;
    assert_eq!(
        (refused.status, refused.json["error"].as_str()),
        (429, Some("rate_limited")),
        "{}",
        refused.body
    );
    assert!(refused.headers.contains_key("retry-after"));
    let other = Client::from_address(&server, "127.0.0.3");
    let (status, judged) = try_line(&other, 1, &[answer_of(1)]).await;
    assert_eq!(status, 200, "{judged}");
}

crate::for_both_backends!(
    a_first_try_is_judged_and_rated_once,
    bad_lines_are_refused_with_their_reasons,
    a_client_past_its_budget_of_moves_waits,
);
