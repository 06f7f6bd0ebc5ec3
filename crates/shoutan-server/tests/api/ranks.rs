//! The rank rule (README, "Ranks"): a settled player's shown rank moves one
//! step only after three rated games in a row after each of which the
//! rating points past it; a game that lands back on the shown rank breaks
//! the run. Played through the API, the ratings stored and read back.

use std::time::Duration;

use serde_json::{Value, json};
use shoutan_rules::rank_scale::ogs;

use crate::common::{Backend, Client, TestServer, config, play_moves};

/// A rated 9×9 game in which `winner` (black) beats `loser`, who resigns;
/// its id.
async fn rated_win(winner: &Client, loser: &Client, loser_name: &str) -> i64 {
    let made = winner
        .post(
            "/api/challenges",
            json!({"size": 9, "color": "black", "rated": true, "opponent": loser_name}),
        )
        .await;
    assert_eq!(made.status, 201, "{}", made.body);
    let accepted = loser
        .post(
            &format!("/api/challenges/{}/accept", made.json["id"]),
            json!({}),
        )
        .await;
    assert_eq!(accepted.status, 201, "{}", accepted.body);
    let id = accepted.json["id"].as_i64().unwrap();
    let mut b = winner.ws(id, None).await;
    let mut w = loser.ws(id, None).await;
    play_moves(&mut b, &mut w, &["E5", "C3"]).await;
    w.ok(json!({"type": "resign"})).await;
    id
}

/// The player's view once `games` rated games of his are recorded (the
/// results are written by a task of their own).
async fn after_games(client: &Client, name: &str, games: u64) -> Value {
    for _ in 0..200 {
        let view = client.get(&format!("/api/players/{name}")).await.json;
        if view["player"]["rated_games"].as_u64() == Some(games) {
            return view["player"].clone();
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("{name}'s rated game {games} was not recorded");
}

async fn the_shown_rank_moves_only_after_a_run(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let alice = server.player("alice", "1d").await;
    let bob = server.player("bob", "3d").await;
    let carol = server.player("carol", "1d").await;
    // Alice has settled at 1 dan, her rating already at the foot of 2 dan;
    // bob is a settled 3 dan (at its foot); carol is new.
    server
        .sql(&format!(
            "UPDATE users SET rating = {}, deviation = 60, shown_rank = '1d', rank_streak = 0 \
             WHERE name = 'alice'; \
             UPDATE users SET rating = {}, deviation = 60, shown_rank = '3d' WHERE name = 'bob';",
            ogs::rating(1),
            ogs::rating(2),
        ))
        .await;
    let start = after_games(&alice, "alice", 0).await;
    assert_eq!(start["rating"]["rank"], "1d");
    assert_eq!(start["rating"]["rating_rank"], "2d");
    assert_eq!(start["rating"]["provisional"], false);

    // Two wins: the rating stays past 1 dan, the rank waits.
    for (game, streak) in [(1, 1), (2, 2)] {
        rated_win(&alice, &bob, "bob").await;
        let view = after_games(&alice, "alice", game).await;
        assert_eq!(view["rating"]["rank"], "1d", "after game {game}");
        assert_eq!(view["rating"]["streak"], streak, "after game {game}");
        assert_eq!(view["rating"]["run"], 3);
    }
    // The third in a row promotes her one step; a new challenge carries it.
    rated_win(&alice, &bob, "bob").await;
    let promoted = after_games(&alice, "alice", 3).await;
    assert_eq!(promoted["rating"]["rank"], "2d");
    assert_eq!(promoted["rating"]["streak"], 0);
    let seat = alice
        .post("/api/challenges", json!({"size": 9, "rated": true}))
        .await;
    assert_eq!(seat.json["challenger_rank"], "2d", "{}", seat.body);

    // Bob, settled at the foot of 3 dan, lost three in a row: demoted one
    // step, his rating having fallen at most a quarter rank a game.
    let bob_view = after_games(&bob, "bob", 3).await;
    assert_eq!(bob_view["rating"]["rank"], "2d");
    assert!(bob_view["rating"]["rating"].as_f64().unwrap() > ogs::rating(1));

    // A newcomer's rank is provisional, and says so.
    rated_win(&carol, &bob, "bob").await;
    let newcomer = after_games(&carol, "carol", 1).await;
    assert_eq!(newcomer["rating"]["provisional"], true);
    assert_eq!(
        newcomer["rating"]["rank"],
        newcomer["rating"]["rating_rank"]
    );
}

/// The game players complained of: two newcomers (3 kyu and 2 kyu), one
/// rated 9×9 game, and both moved over two ranks. A declared rank is
/// evidence and a small board counts for less: a quarter rank at most now
/// (a 9×9 game is about a fifth of a 19×19 one, whose step is a rank), the
/// ranks shown stay, and the game's page shows each change.
async fn a_first_small_board_game_moves_newcomers_a_quarter_rank_at_most(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let three_kyu = server.player("dora", "3k").await;
    let two_kyu = server.player("eve", "2k").await;
    let rating = |view: &Value| view["rating"]["rating"].as_f64().unwrap();
    let before = (
        rating(&after_games(&three_kyu, "dora", 0).await),
        rating(&after_games(&two_kyu, "eve", 0).await),
    );
    let id = rated_win(&three_kyu, &two_kyu, "eve").await;
    let winner = after_games(&three_kyu, "dora", 1).await;
    let loser = after_games(&two_kyu, "eve", 1).await;
    let won = ogs::strength(rating(&winner)) - ogs::strength(before.0);
    let lost = ogs::strength(before.1) - ogs::strength(rating(&loser));
    assert!(won > 0.0 && won <= 0.25, "won {won} ranks: {winner}");
    assert!(lost > 0.0 && lost <= 0.25, "lost {lost} ranks: {loser}");
    assert_eq!(winner["rating"]["rank"], "3k");
    assert_eq!(loser["rating"]["rank"], "2k");

    let game = three_kyu.get(&format!("/api/games/{id}")).await;
    assert_eq!(game.status, 200, "{}", game.body);
    let ratings = &game.json["ratings"];
    let change = |c: &str| ratings[c]["change"].as_f64().unwrap();
    assert!(
        (change("black") - (rating(&winner) - before.0)).abs() < 0.1,
        "{ratings}"
    );
    assert!(
        (change("white") - (rating(&loser) - before.1)).abs() < 0.1,
        "{ratings}"
    );
    assert_eq!(ratings["black"]["rank"], "3k");
}

crate::for_both_backends!(
    the_shown_rank_moves_only_after_a_run,
    a_first_small_board_game_moves_newcomers_a_quarter_rank_at_most
);
