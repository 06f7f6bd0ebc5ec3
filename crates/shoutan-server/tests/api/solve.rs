//! "Is this group alive?" (`POST /api/solve`): the solver's answer on a
//! position of the analysis board, bad questions refused, and a question
//! too hard for the budget answered `unknown` within it.

use serde_json::{Value, json};
use shoutan_server::solving::BUDGET;

use crate::common::{Backend, Client, TestServer, config};

/// Asks about the group at `group` of the 9×9 position with these set-up
/// stones, black to play.
async fn ask(client: &Client, black: &[&str], white: &[&str], group: &str) -> (u16, Value) {
    let answer = client
        .post(
            "/api/solve",
            json!({
                "position": {"size": 9, "komi": 7.5, "black": black, "white": white},
                "group": group,
            }),
        )
        .await;
    (answer.status, answer.json)
}

/// Straight three (直三) in the corner:
///
/// ```text
///   A B C D E
/// 9 . . . O X
/// 8 O O O O X
/// 7 X X X X X
/// ```
///
/// Black kills at the middle, B9; white lives by taking it.
async fn the_straight_three_dies_at_its_middle_point(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let anyone = Client::anonymous(&server);
    let black = ["E9", "E8", "A7", "B7", "C7", "D7", "E7"];
    let white = ["D9", "A8", "B8", "C8", "D8"];
    let (status, answer) = ask(&anyone, &black, &white, "D9").await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["group"], "D9");
    assert_eq!(answer["to_kill"], "win", "{answer}");
    assert_eq!(answer["kill"], json!(["B9"]));
    assert_eq!(answer["to_live"], "win", "{answer}");
    assert_eq!(answer["live"], json!(["B9"]));

    let (status, answer) = ask(&anyone, &black, &white, "J1").await;
    assert_eq!((status, answer["error"].as_str()), (400, Some("no_group")));
    let (status, answer) = ask(&anyone, &black, &white, "Z1").await;
    assert_eq!((status, answer["error"].as_str()), (400, Some("bad_point")));
}

/// White's wide corner (A1–D4 empty inside its wall, black's wall round
/// it): no proof either way within the budget, so `unknown`, and the
/// answer comes within the budget's time for each side.
async fn a_question_too_hard_for_the_budget_is_unknown(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let anyone = Client::anonymous(&server);
    let white = ["A5", "B5", "C5", "D5", "E5", "E4", "E3", "E2", "E1"];
    let black = [
        "A6", "B6", "C6", "D6", "E6", "F6", "F5", "F4", "F3", "F2", "F1",
    ];
    let (status, answer) = ask(&anyone, &black, &white, "E5").await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["to_kill"], "unknown", "{answer}");
    assert_eq!(answer["kill"], json!([]));
    // Each side's time is checked every 1,024 positions: a second's slack.
    let most = 2 * (BUDGET.time.as_millis() as u64 + 1_000);
    let ms = answer["ms"].as_u64().unwrap();
    assert!(ms <= most, "{ms} ms, the budget allows {most}: {answer}");
    let nodes = answer["nodes"].as_u64().unwrap();
    assert!(
        nodes <= 2 * BUDGET.nodes,
        "{nodes} positions, the budget allows {}: {answer}",
        2 * BUDGET.nodes
    );
}

/// Bent four in the corner (盘角曲四):
///
/// ```text
///   A B C D E
/// 9 . . O X .
/// 8 . O O X .
/// 7 . O X X .
/// 6 O O X . .
/// 5 X X X . .
/// ```
///
/// Black kills only by a ko: A8, white A9, and black's capture at B9
/// starts it, so white must find the first threat. White lives outright.
async fn a_ko_says_who_must_find_threats(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let anyone = Client::anonymous(&server);
    let black = ["D9", "D8", "C7", "D7", "C6", "A5", "B5", "C5"];
    let white = ["C9", "B8", "C8", "B7", "A6", "B6"];
    let (status, answer) = ask(&anyone, &black, &white, "C9").await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["to_kill"], "ko", "{answer}");
    assert_eq!(answer["kill"], json!(["A8"]));
    assert_eq!(answer["kill_ko"], json!({"finder": "white", "threats": 1}));
    assert_eq!(answer["to_live"], "win", "{answer}");
    assert_eq!(answer["live_ko"], Value::Null);
    assert_eq!(answer["ten_thousand_year_ko"], false);
}

/// The ten-thousand-year ko (万年劫) in the corner:
///
/// ```text
///   A B C D E F
/// 4 X X X X X X
/// 3 O O O O O X
/// 2 . O X . O X
/// 1 . X X O O X
/// ```
async fn a_ten_thousand_year_ko_is_named(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let anyone = Client::anonymous(&server);
    let black = [
        "A4", "B4", "C4", "D4", "E4", "F4", "F3", "C2", "F2", "B1", "C1", "F1",
    ];
    let white = ["A3", "B3", "C3", "D3", "E3", "B2", "E2", "D1", "E1"];
    let (status, answer) = ask(&anyone, &black, &white, "D1").await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["to_kill"], "ko", "{answer}");
    assert_eq!(answer["kill_ko"], json!({"finder": "black", "threats": 1}));
    assert_eq!(answer["to_live"], "seki", "{answer}");
    assert_eq!(answer["live_ko"], json!({"finder": "white", "threats": 1}));
    assert_eq!(answer["ten_thousand_year_ko"], true);
}

crate::for_both_backends!(
    the_straight_three_dies_at_its_middle_point,
    a_ko_says_who_must_find_threats,
    a_ten_thousand_year_ko_is_named,
    a_question_too_hard_for_the_budget_is_unknown,
);
