//! Two players play a 9×9 game through: a capture, passes, counting with
//! the server's proposal, a toggled group, agreement, the result in both
//! notations, the ratings, the archive, and the SGF record.

use serde_json::json;
use shoutan_sgf::{ReplayOptions, read, replay};

use crate::common::{Backend, TestServer, config, play_moves};

/// The game:
/// ```text
///    A B C D E F G H J
///  9 . . . . X O . . .
///  8 . . . . X O . . .
///  7 . . O . X O . . .     C7: a white stone left dead in black's area
///  6 . X . . X O . . .
///  5 X . X . X O . . .     B5: a white stone captured by C5
///  4 . X . . X O . . .
///  3 . . . . X O . . .
///  2 . . . . X O . . .
///  1 . . . . X O . . .
/// ```
/// Black's area is columns A–E, 45 points; white's F–J, 36. Under the
/// Chinese rules (komi 3¾ 子 = 7.5) black has 45 − 40½ = 4½ 子 over half the
/// board against 3¾ of komi: 黑胜3/4子, B+1.5.
const MOVES: &[&str] = &[
    "E5", "F5", "E4", "F4", "E6", "F6", "E3", "F3", "E7", "F7", "E2", "F2", "E8", "F8", "E1", "F1",
    "E9", "F9", "B4", "B5", "B6", "pass", "A5", "pass", "C5",
];

async fn a_9x9_game_to_the_count(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let (black, white, id) = server.game(json!({"rated": true})).await;
    let mut b = black.ws(id, None).await;
    let mut w = white.ws(id, None).await;
    assert_eq!(b.seen[0]["you"], "black");
    assert_eq!(w.seen[0]["you"], "white");
    assert_eq!(b.seen[0]["game"]["version"], 1, "the Start event");

    play_moves(&mut b, &mut w, MOVES).await;
    // The capture: C5 took B5, and white sees it.
    let capture = w.move_event("C5").await;
    assert_eq!(capture["captured"], json!(["B5"]));
    assert_eq!(capture["state"]["captures"]["black"], 1);

    // A white stone in black's area, then two passes: counting opens with
    // the server's proposal, which has C7 dead.
    w.play("C7").await;
    b.play("pass").await;
    w.play("pass").await;
    let counting = b.event("counting").await;
    assert_eq!(counting["state"]["phase"], "counting");
    assert_eq!(counting["event"]["dead"], json!(["C7"]));
    assert_eq!(
        counting["state"]["counting"]["result"]["international"],
        "B+1.5"
    );

    // White marks C7 alive again, and the count changes; black marks it
    // dead once more; a change withdraws acceptances.
    b.ok(json!({"type": "accept"})).await;
    w.ok(json!({"type": "toggle", "point": "C7"})).await;
    let toggled = b.event("toggle").await;
    assert_eq!(toggled["toggled"], json!(["C7"]));
    assert_eq!(toggled["state"]["counting"]["dead"], json!([]));
    assert_eq!(
        toggled["state"]["counting"]["accepted"],
        json!({"black": false, "white": false})
    );
    b.ok(json!({"type": "toggle", "point": "C7"})).await;
    b.ok(json!({"type": "accept"})).await;
    w.ok(json!({"type": "accept"})).await;
    let end = b.event("accept").await;
    assert_eq!(end["state"]["status"], "finished");
    assert_eq!(end["state"]["result"]["international"], "B+1.5");
    assert_eq!(end["state"]["result"]["chinese"], "黑胜3/4子");

    // The game as the API shows it, and the record.
    let game = black.game(id).await;
    assert_eq!(game["state"]["result"]["international"], "B+1.5");
    assert_eq!(game["board"][4], "X.X.XO...");
    let sgf = black.get(&format!("/api/games/{id}/sgf")).await;
    assert_eq!(sgf.status, 200);
    assert!(
        sgf.headers["content-type"]
            .to_str()
            .unwrap()
            .starts_with("application/x-go-sgf")
    );
    let file = read(sgf.body.as_bytes()).unwrap();
    let replayed = replay(&file.collection.games[0], ReplayOptions::default()).unwrap();
    assert_eq!(replayed.info.result.unwrap().international(), "B+1.5");
    assert_eq!(replayed.moves, MOVES.len() + 3);
    assert!(
        sgf.body.contains("RU[Chinese]") && sgf.body.contains("KM[7.5]"),
        "{}",
        sgf.body
    );
    let black_name = game["black"]["name"].as_str().unwrap();
    assert!(sgf.body.contains(&format!("PB[{black_name}]")) && sgf.body.contains("BR[5k]"));
    // Full game info, read back by the SGF crate.
    let info = &replayed.info;
    assert_eq!(info.white.name.as_deref(), game["white"]["name"].as_str());
    assert_eq!(info.white.rank.as_deref(), Some("5k"));
    assert_eq!(info.ruleset, shoutan_rules::Ruleset::CHINESE);
    assert_eq!(info.komi.map(shoutan_rules::Score::points), Some(7.5));
    assert!(
        info.date
            .as_deref()
            .is_some_and(|d| d.len() == 10 && d.starts_with("20")),
        "{:?}",
        info.date
    );
    assert!(sgf.body.contains("RE[B+1.5]"), "{}", sgf.body);
    // The replayed position is the server's, and counted with the agreed
    // dead stone it gives the same result.
    let size = replayed.game.size();
    let rows: Vec<String> = (0..9u8)
        .map(|row| {
            (0..9u8)
                .map(|col| {
                    match size
                        .point(col, row)
                        .and_then(|p| replayed.game.board().get(p))
                    {
                        Some(shoutan_rules::Color::Black) => 'X',
                        Some(shoutan_rules::Color::White) => 'O',
                        None => '.',
                    }
                })
                .collect()
        })
        .collect();
    assert_eq!(json!(rows), game["board"]);
    let mut counted = replayed.game.clone();
    if counted.phase() == shoutan_rules::Phase::Play {
        counted.start_counting().unwrap();
    }
    counted
        .toggle_dead(shoutan_rules::Point::from_gtp("C7", size).unwrap())
        .unwrap();
    assert_eq!(counted.count().result().international(), "B+1.5");

    // The result is recorded with new ratings, and the archive finds it.
    let mut archive = serde_json::Value::Null;
    for _ in 0..50 {
        archive = black
            .get(&format!(
                "/api/players/{black_name}/games?result=won&size=9"
            ))
            .await
            .json;
        if archive.as_array().is_some_and(|a| !a.is_empty()) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(archive[0]["id"], id);
    assert_eq!(archive[0]["result"], "B+1.5");
    assert!(archive[0]["ratings"]["black"]["change"].as_f64().unwrap() > 0.0);
    let lost = black
        .get(&format!("/api/players/{black_name}/games?result=lost"))
        .await;
    assert_eq!(lost.json, json!([]));
    let profile = black.get(&format!("/api/players/{black_name}")).await.json;
    assert_eq!(profile["player"]["rated_games"], 1);
    assert!(profile["player"]["rating"]["rating"].as_f64().unwrap() > 1546.0);
    assert_eq!(profile["recent_games"][0]["id"], id);
}

crate::for_both_backends!(a_9x9_game_to_the_count);
