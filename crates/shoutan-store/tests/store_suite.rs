//! One test suite, run against both backends: SQLite in a temporary file,
//! and PostgreSQL (in a fresh schema per test) when `SHOUTAN_TEST_POSTGRES`
//! names a server.

#![allow(clippy::unwrap_used)] // test code: a failed store call is a test failure

use std::sync::Arc;

use shoutan_rules::{Color, Rank};
use shoutan_store::{
    ActionKind, ArchiveQuery, Database, GameEnd, GameId, GameStatus, Joined, NewAction,
    NewChallenge, NewGame, NewProblemTry, NewRecordReview, NewReport, NewReview, NewSeek, NewUser,
    Outcome, RankStanding, Rating, RatingUpdate, Relation, Role, Roles, Seek, SeekOutcome, Session,
    Standing, Store, StoreError, StoredEvent, User, open,
};

/// A store to test, and what to do when the test is over.
struct Backend {
    store: Arc<dyn Store>,
    database: Database,
    _dir: Option<tempfile::TempDir>,
}

impl Backend {
    async fn sqlite() -> Backend {
        let dir = tempfile::tempdir().unwrap();
        let database = Database::sqlite_in(dir.path().join("nested"));
        Backend {
            store: open(&database).await.unwrap(),
            database,
            _dir: Some(dir),
        }
    }

    /// A fresh schema on the server named by `SHOUTAN_TEST_POSTGRES`, or
    /// `None` (the test is skipped) when it is unset outside CI.
    async fn postgres() -> Option<Backend> {
        let url = shoutan_test_env::locate(shoutan_test_env::External::Postgres)?;
        let schema = format!("shoutan_test_{}_{}", std::process::id(), fastrand::u64(..));
        let database = Database::Postgres {
            url,
            schema: Some(schema),
        };
        Some(Backend {
            store: open(&database).await.unwrap(),
            database,
            _dir: None,
        })
    }
}

impl Drop for Backend {
    /// Drops the test's PostgreSQL schema, passed or failed.
    fn drop(&mut self) {
        let Database::Postgres {
            url,
            schema: Some(schema),
        } = self.database.clone()
        else {
            return;
        };
        let dropped = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async {
                let (client, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
                    .await
                    .unwrap();
                let task = tokio::spawn(connection);
                client
                    .batch_execute(&format!("DROP SCHEMA {schema} CASCADE"))
                    .await
                    .unwrap();
                drop(client);
                let _ = task.await;
            });
        })
        .join();
        if dropped.is_err() && !std::thread::panicking() {
            panic!("could not drop the test schema");
        }
    }
}

const NEWCOMER: Rating = Rating {
    rating: 1500.0,
    deviation: 350.0,
    volatility: 0.06,
};

async fn user(store: &Arc<dyn Store>, name: &str) -> User {
    store
        .create_user(NewUser {
            name: name.into(),
            password_hash: format!("$argon2id$hash-of-{name}"),
            declared_rank: Rank::Kyu(5),
            rating: NEWCOMER,
            created_at: 1_000,
        })
        .await
        .unwrap()
}

async fn game(store: &Arc<dyn Store>, black: &User, white: &User, size: u8, at: i64) -> GameId {
    let challenge = store
        .create_challenge(NewChallenge {
            challenger: black.id,
            opponent: None,
            settings: "{}".into(),
            seats: 1,
            created_at: at,
        })
        .await
        .unwrap();
    store
        .accept_challenge(
            challenge.id,
            NewGame {
                black: black.id,
                white: white.id,
                size,
                rated: true,
                settings: format!("{{\"size\":{size}}}"),
                simul: None,
                created_at: at,
            },
        )
        .await
        .unwrap()
        .id
}

fn event(game: GameId, version: u64) -> StoredEvent {
    StoredEvent {
        game,
        version,
        at: 10_000 + version as i64,
        body: format!("{{\"type\":\"move\",\"n\":{version}}}"),
    }
}

async fn end(store: &Arc<dyn Store>, game: GameId, winner: Option<Color>, result: &str, at: i64) {
    assert!(
        store
            .finish_game(GameEnd {
                game,
                status: GameStatus::Finished,
                result: Some(result.into()),
                winner,
                ended_at: at,
                ratings: None,
            })
            .await
            .unwrap()
    );
}

async fn accounts(store: &Arc<dyn Store>) {
    let ke = user(store, "Ke Jie").await;
    assert_eq!(ke.rated_games, 0);
    // Names are unique ignoring case.
    let again = store
        .create_user(NewUser {
            name: "ke jie".into(),
            password_hash: "x".into(),
            declared_rank: Rank::Dan(1),
            rating: NEWCOMER,
            created_at: 2_000,
        })
        .await;
    assert!(matches!(again, Err(StoreError::NameTaken(n)) if n == "ke jie"));
    let found = store.user_by_name("KE JIE").await.unwrap().unwrap();
    assert_eq!(found, ke);
    assert_eq!(store.user(ke.id).await.unwrap().unwrap().name, "Ke Jie");
    assert!(store.user_by_name("nobody").await.unwrap().is_none());
    assert!(store.user(ke.id + 1000).await.unwrap().is_none());

    user(store, "kejie2").await;
    let lee = user(store, "Lee Sedol").await;
    user(store, "柯洁").await;
    let names = |users: Vec<User>| users.into_iter().map(|u| u.name).collect::<Vec<_>>();
    // Several at once, by id: each once, ids of no account left out.
    assert_eq!(
        names(
            store
                .users(&[lee.id, ke.id + 1000, ke.id, lee.id])
                .await
                .unwrap()
        ),
        ["Ke Jie", "Lee Sedol"]
    );
    assert!(store.users(&[]).await.unwrap().is_empty());
    assert_eq!(
        names(store.search_users("ke", 10).await.unwrap()),
        ["Ke Jie", "kejie2"]
    );
    assert_eq!(
        names(store.search_users("KE", 1).await.unwrap()),
        ["Ke Jie"]
    );
    assert_eq!(names(store.search_users("柯", 10).await.unwrap()), ["柯洁"]);
    assert!(store.search_users("x", 10).await.unwrap().is_empty());
    // A confirmed rank certification raises the declared rank.
    assert!(store.set_declared_rank(ke.id, Rank::Dan(2)).await.unwrap());
    let raised = store.user(ke.id).await.unwrap().unwrap();
    assert_eq!(raised.declared_rank, Rank::Dan(2));
    assert_eq!(raised.rating, ke.rating);
    assert!(
        !store
            .set_declared_rank(ke.id + 1000, Rank::Dan(2))
            .await
            .unwrap()
    );
}

/// A name that looks like an existing one is refused with its own error;
/// a name merely near one is not.
async fn confusable_names(store: &Arc<dyn Store>) {
    user(store, "Shoutan-AI-1").await;
    for twin in ["\u{405}houtan-AI-1", "Shoutan-Al-1", "Shoutan-AI-l"] {
        let made = store
            .create_user(NewUser {
                name: twin.into(),
                password_hash: "x".into(),
                declared_rank: Rank::Kyu(1),
                rating: NEWCOMER,
                created_at: 2_000,
            })
            .await;
        assert!(
            matches!(&made, Err(StoreError::NameConfusable(n)) if n == twin),
            "{twin}: {made:?}"
        );
    }
    user(store, "Shoutan-AI-2").await;
    assert!(store.user_by_name("Shoutan-Al-1").await.unwrap().is_none());
}

async fn sessions(store: &Arc<dyn Store>) {
    let player = user(store, "player").await;
    let token_hash = [7u8; 32];
    store
        .create_session(Session {
            token_hash,
            user: player.id,
            created_at: 100,
            expires_at: 1_000,
            client: "Firefox".into(),
        })
        .await
        .unwrap();
    assert_eq!(
        store
            .session_user(token_hash, 999)
            .await
            .unwrap()
            .map(|u| u.id),
        Some(player.id)
    );
    // Expired, or some other token: no one.
    assert!(
        store
            .session_user(token_hash, 1_000)
            .await
            .unwrap()
            .is_none()
    );
    assert!(store.session_user([8u8; 32], 500).await.unwrap().is_none());
    // Logout.
    store.delete_session(token_hash).await.unwrap();
    assert!(store.session_user(token_hash, 500).await.unwrap().is_none());
    store.delete_session(token_hash).await.unwrap();
}

async fn challenges(store: &Arc<dyn Store>) {
    let a = user(store, "a").await;
    let b = user(store, "b").await;
    let c = user(store, "c").await;
    let open_one = store
        .create_challenge(NewChallenge {
            challenger: a.id,
            opponent: None,
            settings: "{\"size\":9}".into(),
            seats: 1,
            created_at: 5,
        })
        .await
        .unwrap();
    let to_b = store
        .create_challenge(NewChallenge {
            challenger: c.id,
            opponent: Some(b.id),
            settings: "{\"size\":19}".into(),
            seats: 1,
            created_at: 6,
        })
        .await
        .unwrap();
    assert_eq!(open_one.challenger.name, "a");
    assert_eq!(open_one.opponent, None);
    assert_eq!(to_b.opponent.as_ref().map(|p| p.name.as_str()), Some("b"));
    let listed = store.open_challenges().await.unwrap();
    assert_eq!(listed, vec![open_one.clone(), to_b.clone()]);
    assert_eq!(store.challenge(to_b.id).await.unwrap(), Some(to_b.clone()));

    // Accepting takes the challenge away and creates the game.
    let new_game = NewGame {
        black: b.id,
        white: a.id,
        size: 9,
        rated: false,
        settings: "{\"size\":9}".into(),
        simul: None,
        created_at: 7,
    };
    let game = store
        .accept_challenge(open_one.id, new_game.clone())
        .await
        .unwrap();
    assert_eq!(
        (game.black.name.as_str(), game.white.name.as_str()),
        ("b", "a")
    );
    assert_eq!(game.status, GameStatus::Live);
    assert_eq!((game.size, game.rated, game.created_at), (9, false, 7));
    assert_eq!(store.game(game.id).await.unwrap(), Some(game.clone()));
    // Whoever comes second finds it gone, and no second game is made.
    let second = store.accept_challenge(open_one.id, new_game).await;
    assert!(matches!(second, Err(StoreError::ChallengeGone(id)) if id == open_one.id));
    assert_eq!(store.live_games().await.unwrap(), vec![game]);

    assert!(store.delete_challenge(to_b.id).await.unwrap());
    assert!(!store.delete_challenge(to_b.id).await.unwrap());
    assert!(store.open_challenges().await.unwrap().is_empty());
}

/// A 9×9 seek of `user` at rank level `level` accepting `min..=max`.
fn seek_of(user: &User, level: i32, min: i32, max: i32, at: i64) -> NewSeek {
    NewSeek {
        user: user.id,
        size: 9,
        time_control: "1 min + 3×10s byo-yomi".into(),
        rated: true,
        rank_level: level,
        min_level: min,
        max_level: max,
        settings: format!("{{\"by\":{}}}", user.id),
        at,
        fresh_after: at - 60_000,
    }
}

/// Pairs the two seeks into a game, the older seek's player taking black.
fn pair_with(newcomer: &User) -> shoutan_store::Pairing {
    let newcomer = newcomer.id;
    Box::new(move |partner: &Seek| {
        Ok(NewGame {
            black: partner.user.id,
            white: newcomer,
            size: partner.size,
            rated: partner.rated,
            settings: "{}".into(),
            simul: None,
            created_at: 1,
        })
    })
}

async fn seeks(store: &Arc<dyn Store>) {
    let a = user(store, "a").await;
    let b = user(store, "b").await;
    let c = user(store, "c").await;
    let d = user(store, "d").await;
    // a (level 10) accepts levels 8..=12; b (level 20) is out of a's range.
    let SeekOutcome::Waiting(sa) = store
        .seek(seek_of(&a, 10, 8, 12, 100_000), pair_with(&a))
        .await
        .unwrap()
    else {
        panic!("nobody to pair with yet")
    };
    assert_eq!((sa.user.name.as_str(), sa.rank_level), ("a", 10));
    let SeekOutcome::Waiting(sb) = store
        .seek(seek_of(&b, 20, 0, 30, 100_001), pair_with(&b))
        .await
        .unwrap()
    else {
        panic!("b is out of a's range")
    };
    // Another board or clock does not pair either.
    let mut other_board = seek_of(&c, 10, 0, 30, 100_002);
    other_board.size = 13;
    let SeekOutcome::Waiting(sc) = store.seek(other_board, pair_with(&c)).await.unwrap() else {
        panic!("another board size")
    };
    // c seeks again on 9×9 (replacing his 13×13 seek): a is the oldest compatible.
    let outcome = store
        .seek(seek_of(&c, 11, 0, 30, 100_003), pair_with(&c))
        .await
        .unwrap();
    let SeekOutcome::Paired { partner, game } = outcome else {
        panic!("c pairs with a")
    };
    assert_eq!(partner.id, sa.id);
    assert_eq!(
        (game.black.name.as_str(), game.white.name.as_str()),
        ("a", "c")
    );
    let open: Vec<i64> = store
        .open_seeks(0)
        .await
        .unwrap()
        .iter()
        .map(|s| s.id)
        .collect();
    assert_eq!(
        open,
        vec![sb.id],
        "a's seek is taken, c's 13×13 one replaced: {sc:?}"
    );
    // A pairing that fails stores nothing and pairs nobody.
    let failing: shoutan_store::Pairing = Box::new(|_| Err(StoreError::Corrupt("no".into())));
    assert!(
        store
            .seek(seek_of(&d, 20, 0, 30, 100_004), failing)
            .await
            .is_err()
    );
    assert_eq!(store.open_seeks(0).await.unwrap().len(), 1);
    // A stale seek is never paired; a renewed one is.
    assert!(store.renew_seek(sb.id, 200_000).await.unwrap());
    let stale = store
        .seek(seek_of(&d, 20, 0, 30, 300_000), pair_with(&d))
        .await
        .unwrap();
    assert!(
        matches!(stale, SeekOutcome::Waiting(_)),
        "b's seek went stale"
    );
    assert!(
        !store.renew_seek(sb.id, 300_001).await.unwrap(),
        "removed as stale"
    );
    // Cancelling.
    let SeekOutcome::Waiting(sd) = stale else {
        unreachable!()
    };
    assert!(store.cancel_seek(sd.id).await.unwrap());
    assert!(!store.cancel_seek(sd.id).await.unwrap());
    assert!(store.open_seeks(0).await.unwrap().is_empty());
}

async fn concurrent_seeks_pair_each_player_once(store: &Arc<dyn Store>) {
    let mut players = Vec::new();
    for i in 0..20 {
        players.push(user(store, &format!("s{i}")).await);
    }
    let tasks: Vec<_> = players
        .iter()
        .map(|p| {
            let store = Arc::clone(store);
            let new = seek_of(p, 10, 0, 30, 100_000);
            let pair = pair_with(p);
            tokio::spawn(async move { store.seek(new, pair).await.unwrap() })
        })
        .collect();
    let mut games = Vec::new();
    for task in tasks {
        if let SeekOutcome::Paired { game, .. } = task.await.unwrap() {
            games.push(game);
        }
    }
    assert_eq!(games.len(), 10);
    let mut seated: Vec<i64> = games
        .iter()
        .flat_map(|g| [g.black.id, g.white.id])
        .collect();
    seated.sort_unstable();
    seated.dedup();
    assert_eq!(seated.len(), 20, "each player in exactly one game");
    assert!(store.open_seeks(0).await.unwrap().is_empty());
}

async fn seats(store: &Arc<dyn Store>) {
    let host = user(store, "host").await;
    let p = users(store, &["p1", "p2", "p3"]).await;
    let simul = store
        .create_challenge(NewChallenge {
            challenger: host.id,
            opponent: None,
            settings: "{}".into(),
            seats: 2,
            created_at: 5,
        })
        .await
        .unwrap();
    let boards = |simul: i64, host: i64| -> shoutan_store::Starting {
        Box::new(move |c: &shoutan_store::Challenge| {
            Ok(c.joined
                .iter()
                .map(|j| NewGame {
                    black: j.player.id,
                    white: host,
                    size: 9,
                    rated: false,
                    settings: "{}".into(),
                    simul: Some(simul),
                    created_at: 9,
                })
                .collect())
        })
    };
    let joined = store
        .join_challenge(
            simul.id,
            (p[0].id, "{}".into()),
            6,
            boards(simul.id, host.id),
        )
        .await
        .unwrap();
    let Joined::Waiting(waiting) = joined else {
        panic!("one seat is left")
    };
    assert_eq!(
        waiting
            .joined
            .iter()
            .map(|j| j.player.name.as_str())
            .collect::<Vec<_>>(),
        ["p1"]
    );
    assert_eq!(store.open_challenges().await.unwrap()[0].joined.len(), 1);
    assert!(matches!(
        store
            .join_challenge(
                simul.id,
                (p[0].id, "{}".into()),
                7,
                boards(simul.id, host.id)
            )
            .await,
        Err(StoreError::AlreadyJoined(_))
    ));
    // Leaving frees the seat; a failing start keeps it free.
    assert!(store.leave_challenge(simul.id, p[0].id).await.unwrap());
    assert!(!store.leave_challenge(simul.id, p[0].id).await.unwrap());
    store
        .join_challenge(
            simul.id,
            (p[1].id, "{}".into()),
            8,
            boards(simul.id, host.id),
        )
        .await
        .unwrap();
    let failing: shoutan_store::Starting = Box::new(|_| Err(StoreError::Corrupt("no".into())));
    assert!(
        store
            .join_challenge(simul.id, (p[2].id, "{}".into()), 9, failing)
            .await
            .is_err()
    );
    assert_eq!(
        store
            .challenge(simul.id)
            .await
            .unwrap()
            .unwrap()
            .joined
            .len(),
        1
    );
    let Joined::Started(games) = store
        .join_challenge(
            simul.id,
            (p[2].id, "{}".into()),
            9,
            boards(simul.id, host.id),
        )
        .await
        .unwrap()
    else {
        panic!("the last seat starts the simul")
    };
    assert_eq!(
        games
            .iter()
            .map(|g| g.black.name.as_str())
            .collect::<Vec<_>>(),
        ["p2", "p3"]
    );
    assert_eq!(store.simul_games(simul.id).await.unwrap(), games);
    assert!(store.challenge(simul.id).await.unwrap().is_none());
    assert!(matches!(
        store
            .join_challenge(
                simul.id,
                (p[0].id, "{}".into()),
                10,
                boards(simul.id, host.id)
            )
            .await,
        Err(StoreError::ChallengeGone(_))
    ));
}

async fn users(store: &Arc<dyn Store>, names: &[&str]) -> Vec<User> {
    let mut users = Vec::new();
    for name in names {
        users.push(user(store, name).await);
    }
    users
}

async fn event_logs(store: &Arc<dyn Store>) {
    let a = user(store, "a").await;
    let b = user(store, "b").await;
    let g1 = game(store, &a, &b, 19, 1).await;
    let g2 = game(store, &b, &a, 9, 2).await;
    store
        .append_events(vec![event(g1, 1), event(g1, 2)])
        .await
        .unwrap();
    store.append_events(vec![event(g2, 1)]).await.unwrap();
    assert_eq!(
        store.events(g1, 0).await.unwrap(),
        vec![event(g1, 1), event(g1, 2)]
    );
    assert_eq!(store.events(g1, 1).await.unwrap(), vec![event(g1, 2)]);
    assert!(store.events(g1, 2).await.unwrap().is_empty());

    // A version already written is refused, and writes nothing of its batch.
    let clash = store.append_events(vec![event(g1, 3), event(g1, 2)]).await;
    assert!(matches!(
        clash,
        Err(StoreError::VersionTaken { game, version: 2 }) if game == g1
    ));
    assert_eq!(store.events(g1, 0).await.unwrap().len(), 2);

    // Many games appending at once: group commit keeps every event, each
    // game's in order, and a failing append does not fail the others that
    // share its commit.
    let mut games = vec![g1, g2];
    for i in 0..10 {
        games.push(game(store, &a, &b, 13, 10 + i).await);
    }
    let mut tasks = Vec::new();
    for &g in &games {
        let store = Arc::clone(store);
        let first = store.events(g, 0).await.unwrap().len() as u64 + 1;
        tasks.push(tokio::spawn(async move {
            for version in first..first + 30 {
                store.append_events(vec![event(g, version)]).await?;
            }
            Ok::<_, StoreError>(())
        }));
    }
    let dup = {
        let store = Arc::clone(store);
        tokio::spawn(async move { store.append_events(vec![event(g2, 1)]).await })
    };
    for t in tasks {
        t.await.unwrap().unwrap();
    }
    assert!(matches!(
        dup.await.unwrap(),
        Err(StoreError::VersionTaken { version: 1, .. })
    ));
    let versions = |events: Vec<StoredEvent>| events.iter().map(|e| e.version).collect::<Vec<_>>();
    assert_eq!(
        versions(store.events(g1, 0).await.unwrap()),
        (1..=32).collect::<Vec<_>>()
    );
    assert_eq!(
        versions(store.events(g2, 0).await.unwrap()),
        (1..=31).collect::<Vec<_>>()
    );
    for &g in &games[2..] {
        assert_eq!(
            versions(store.events(g, 0).await.unwrap()),
            (1..=30).collect::<Vec<_>>()
        );
    }
}

async fn endings_and_ratings(store: &Arc<dyn Store>) {
    let a = user(store, "a").await;
    let b = user(store, "b").await;
    let g = game(store, &a, &b, 19, 1).await;
    let after = |rating| Rating {
        rating,
        deviation: 290.0,
        volatility: 0.059_999,
    };
    let finish = |status, ratings| GameEnd {
        game: g,
        status,
        result: Some("B+R".into()),
        winner: Some(Color::Black),
        ended_at: 50,
        ratings,
    };
    let settled = RankStanding {
        shown: "3k".parse().unwrap(),
        streak: -2,
    };
    assert_eq!(a.standing, None, "a newcomer's rank is provisional");
    let update = RatingUpdate {
        black: after(1662.3),
        white: after(1337.7),
        black_standing: Some(settled),
        white_standing: None,
        summary: "{\"black\":162.3}".into(),
    };
    assert!(
        store
            .finish_game(finish(GameStatus::Finished, Some(update.clone())))
            .await
            .unwrap()
    );
    let row = store.game(g).await.unwrap().unwrap();
    assert_eq!(row.status, GameStatus::Finished);
    assert_eq!(row.result.as_deref(), Some("B+R"));
    assert_eq!(row.winner, Some(Color::Black));
    assert_eq!(row.ended_at, Some(50));
    assert_eq!(row.ratings.as_deref(), Some("{\"black\":162.3}"));
    let a_now = store.user(a.id).await.unwrap().unwrap();
    assert_eq!((a_now.rating, a_now.rated_games), (after(1662.3), 1));
    assert_eq!(a_now.standing, Some(settled), "the shown rank and its run");
    assert_eq!(store.user(b.id).await.unwrap().unwrap().standing, None);
    assert_eq!(
        store.user(b.id).await.unwrap().unwrap().rating,
        after(1337.7)
    );

    // A game ends once: a second end changes nothing, ratings included.
    let mut again = update;
    again.black = after(1800.0);
    assert!(
        !store
            .finish_game(finish(GameStatus::Cancelled, Some(again)))
            .await
            .unwrap()
    );
    let a_after = store.user(a.id).await.unwrap().unwrap();
    assert_eq!((a_after.rating, a_after.rated_games), (after(1662.3), 1));
    assert_eq!(a_after.standing, Some(settled));
    assert_eq!(
        store.game(g).await.unwrap().unwrap().status,
        GameStatus::Finished
    );
    assert!(store.live_games().await.unwrap().is_empty());
}

async fn archive(store: &Arc<dyn Store>) {
    let me = user(store, "me").await;
    let x = user(store, "x").await;
    let y = user(store, "y").await;
    // id order = time order; (black, white, size, winner, result, ended_at)
    let g1 = game(store, &me, &x, 19, 1).await;
    end(store, g1, Some(Color::Black), "B+R", 1_000).await;
    let g2 = game(store, &x, &me, 9, 2).await;
    end(store, g2, Some(Color::Black), "B+3.5", 2_000).await;
    let g3 = game(store, &y, &me, 19, 3).await;
    end(store, g3, None, "Draw", 3_000).await;
    let g4 = game(store, &me, &y, 13, 4).await;
    end(store, g4, Some(Color::Black), "B+T", 4_000).await;
    let _live = game(store, &me, &x, 19, 5).await;
    // A game of two others is in nobody's archive but theirs.
    let others = game(store, &x, &y, 19, 6).await;
    end(store, others, Some(Color::White), "W+R", 6_000).await;

    let ids = |q: ArchiveQuery| {
        let store = Arc::clone(store);
        async move {
            store
                .games_of(me.id, &q)
                .await
                .unwrap()
                .into_iter()
                .map(|g| g.id)
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(ids(ArchiveQuery::default()).await, [g4, g3, g2, g1]);
    let q = |f: fn(&mut ArchiveQuery)| {
        let mut q = ArchiveQuery::default();
        f(&mut q);
        q
    };
    assert_eq!(ids(q(|q| q.outcome = Some(Outcome::Won))).await, [g4, g1]);
    assert_eq!(ids(q(|q| q.outcome = Some(Outcome::Lost))).await, [g2]);
    assert_eq!(ids(q(|q| q.outcome = Some(Outcome::Draw))).await, [g3]);
    assert_eq!(ids(q(|q| q.size = Some(19))).await, [g3, g1]);
    assert_eq!(ids(q(|q| q.from = Some(2_000))).await, [g4, g3, g2]);
    assert_eq!(ids(q(|q| q.until = Some(2_000))).await, [g1]);
    assert_eq!(ids(q(|q| q.limit = 2)).await, [g4, g3]);
    let mut next_page = ArchiveQuery {
        limit: 2,
        ..ArchiveQuery::default()
    };
    next_page.before = Some(g3);
    assert_eq!(ids(next_page).await, [g2, g1]);
    let mut against_x = ArchiveQuery {
        opponent: Some(x.id),
        ..ArchiveQuery::default()
    };
    assert_eq!(ids(against_x.clone()).await, [g2, g1]);
    against_x.outcome = Some(Outcome::Won);
    assert_eq!(ids(against_x).await, [g1]);
}

async fn heartbeats(store: &Arc<dyn Store>) {
    assert_eq!(store.last_heartbeat().await.unwrap(), None);
    store.heartbeat(1_000).await.unwrap();
    store.heartbeat(2_000).await.unwrap();
    assert_eq!(store.last_heartbeat().await.unwrap(), Some(2_000));
}

/// A review is requested once per game and level, stays pending until it
/// is stored, and is stored once.
async fn reviews(store: &Arc<dyn Store>) {
    let (a, b) = (user(store, "Ke").await, user(store, "Shin").await);
    let g = game(store, &a, &b, 19, 1_000).await;
    let ask = |level: &str, who: &User, at| NewReview {
        game: g,
        level: level.into(),
        requested_by: who.id,
        requested_at: at,
    };
    let (quick, made) = store.request_review(ask("quick", &a, 2_000)).await.unwrap();
    assert!(made);
    assert_eq!((quick.finished_at, quick.body.as_deref()), (None, None));
    // Asked again, by the other player: the same request, not a new one.
    let (again, made) = store.request_review(ask("quick", &b, 3_000)).await.unwrap();
    assert!(!made);
    assert_eq!(again, quick);
    store.request_review(ask("deep", &b, 2_500)).await.unwrap();
    let pending = store.pending_reviews().await.unwrap();
    assert_eq!(
        pending.iter().map(|r| r.level.as_str()).collect::<Vec<_>>(),
        ["quick", "deep"],
        "oldest request first"
    );
    assert!(
        store
            .finish_review(g, "quick", "{\"v\":1}".into(), 4_000)
            .await
            .unwrap()
    );
    assert!(
        !store
            .finish_review(g, "quick", "{\"v\":2}".into(), 5_000)
            .await
            .unwrap(),
        "stored once"
    );
    assert!(
        !store
            .finish_review(g, "never", "{}".into(), 5_000)
            .await
            .unwrap()
    );
    let stored = store.reviews(g).await.unwrap();
    assert_eq!(stored.len(), 2);
    let quick = stored.iter().find(|r| r.level == "quick").unwrap();
    assert_eq!(
        (quick.finished_at, quick.body.as_deref()),
        (Some(4_000), Some("{\"v\":1}"))
    );
    assert_eq!(quick.requested_by, a.id);
    let pending = store.pending_reviews().await.unwrap();
    assert_eq!(pending.len(), 1);
    assert_eq!(pending[0].level, "deep");
}

/// A review of an uploaded record is requested once per record and level
/// (the first upload's text and asker kept), stays pending until it is
/// stored, and is stored once.
async fn record_reviews(store: &Arc<dyn Store>) {
    let (a, b) = (user(store, "Ke").await, user(store, "Shin").await);
    let ask = |record: &str, level: &str, sgf: &str, who: &User, at| NewRecordReview {
        record: record.into(),
        level: level.into(),
        sgf: sgf.into(),
        requested_by: who.id,
        requested_at: at,
    };
    assert_eq!(store.record_review("r1", "quick").await.unwrap(), None);
    let (quick, made) = store
        .request_record_review(ask("r1", "quick", "(;SZ[9];B[ee])", &a, 2_000))
        .await
        .unwrap();
    assert!(made);
    assert_eq!(
        (quick.sgf.as_str(), quick.requested_by, quick.requested_at),
        ("(;SZ[9];B[ee])", a.id, 2_000)
    );
    assert_eq!((quick.finished_at, quick.body.as_deref()), (None, None));
    // Uploaded again, by the other player and with other names: the same
    // request, not a new one.
    let (again, made) = store
        .request_record_review(ask("r1", "quick", "(;SZ[9]PB[x];B[ee])", &b, 3_000))
        .await
        .unwrap();
    assert!(!made);
    assert_eq!(again, quick);
    store
        .request_record_review(ask("r1", "deep", "(;SZ[9];B[ee])", &b, 2_500))
        .await
        .unwrap();
    store
        .request_record_review(ask("r2", "quick", "(;SZ[9];B[cc])", &b, 1_500))
        .await
        .unwrap();
    let pending = store.pending_record_reviews().await.unwrap();
    assert_eq!(
        pending
            .iter()
            .map(|r| (r.record.as_str(), r.level.as_str()))
            .collect::<Vec<_>>(),
        [("r2", "quick"), ("r1", "quick"), ("r1", "deep")],
        "oldest request first"
    );
    assert!(
        store
            .finish_record_review("r1", "quick", "{\"v\":1}".into(), 4_000)
            .await
            .unwrap()
    );
    assert!(
        !store
            .finish_record_review("r1", "quick", "{\"v\":2}".into(), 5_000)
            .await
            .unwrap(),
        "stored once"
    );
    assert!(
        !store
            .finish_record_review("r3", "quick", "{}".into(), 5_000)
            .await
            .unwrap(),
        "never requested"
    );
    let stored = store.record_review("r1", "quick").await.unwrap().unwrap();
    assert_eq!(
        (stored.finished_at, stored.body.as_deref()),
        (Some(4_000), Some("{\"v\":1}"))
    );
    assert_eq!(stored.requested_by, a.id);
    let pending = store.pending_record_reviews().await.unwrap();
    assert_eq!(
        pending
            .iter()
            .map(|r| (r.record.as_str(), r.level.as_str()))
            .collect::<Vec<_>>(),
        [("r2", "quick"), ("r1", "deep")]
    );
    assert!(
        store.pending_reviews().await.unwrap().is_empty(),
        "records are not games"
    );
}

fn session_of(user: &User, token: u8, client: &str) -> Session {
    Session {
        token_hash: [token; 32],
        user: user.id,
        created_at: 100 + i64::from(token),
        expires_at: 1_000_000,
        client: client.into(),
    }
}

fn action(user: &User, kind: ActionKind, until: Option<i64>, by: Option<&User>) -> NewAction {
    NewAction {
        user: user.id,
        kind,
        reason: format!("{} for testing", kind.as_str()),
        until,
        game: None,
        report: None,
        by: by.map(|m| m.id),
        at: 10_000,
    }
}

async fn moderation(store: &Arc<dyn Store>) {
    let (troll, victim, moderator) = (
        user(store, "troll").await,
        user(store, "victim").await,
        user(store, "moderator").await,
    );
    // Roles are kept with the account and read back with it.
    let roles = Roles::default().with(Role::Moderator, true);
    assert!(store.set_roles(moderator.id, roles).await.unwrap());
    assert!(!store.set_roles(9_999, roles).await.unwrap());
    let read = store.user(moderator.id).await.unwrap().unwrap().roles;
    assert!(read.has(Role::Moderator) && read.moderates() && !read.has(Role::Administrator));
    let staff = store.staff().await.unwrap();
    assert_eq!(staff.len(), 1);
    assert_eq!((staff[0].0.name.as_str(), staff[0].1), ("moderator", roles));

    // A report of a chat line waits in the queue.
    let game = game(store, &troll, &victim, 9, 5_000).await;
    let report = store
        .create_report(NewReport {
            reporter: victim.id,
            target: troll.id,
            game: Some(game),
            chat: Some(7),
            reason: "abuse".into(),
            text: "insults in chat".into(),
            at: 9_000,
        })
        .await
        .unwrap();
    assert_eq!(
        (report.reporter.name.as_str(), report.target.name.as_str()),
        ("victim", "troll")
    );
    assert_eq!(
        (report.game, report.chat, report.closed.clone()),
        (Some(game), Some(7), None)
    );
    assert_eq!(
        store.reports(true, 10).await.unwrap(),
        std::slice::from_ref(&report)
    );

    // A mute answering it closes it; the audit log has it, with its author.
    let mute = store
        .record_action(NewAction {
            report: Some(report.id),
            ..action(&troll, ActionKind::Mute, Some(20_000), Some(&moderator))
        })
        .await
        .unwrap();
    assert_eq!(mute.by.as_ref().map(|m| m.name.as_str()), Some("moderator"));
    assert!(store.reports(true, 10).await.unwrap().is_empty());
    let closed = store.report(report.id).await.unwrap().unwrap().closed;
    assert_eq!(closed, Some((10_000, Some(moderator.id), "mute".into())));
    assert!(
        !store
            .close_report(report.id, None, 11_000, "again".into())
            .await
            .unwrap()
    );

    // A suspension ends the troll's sessions at once.
    store
        .create_session(session_of(&troll, 1, "x"))
        .await
        .unwrap();
    let suspension = store
        .record_action(action(&troll, ActionKind::Suspension, Some(50_000), None))
        .await
        .unwrap();
    assert!(store.session_user([1; 32], 200).await.unwrap().is_none());
    let log = store.actions(Some(troll.id), 10).await.unwrap();
    assert_eq!(
        log.iter().map(|a| a.id).collect::<Vec<_>>(),
        [suspension.id, mute.id]
    );
    assert_eq!(
        Standing::of(&log, 15_000),
        Standing {
            muted_until: Some(20_000),
            suspended_until: Some(50_000),
            banned: false
        }
    );
    // The mute runs out; the suspension is lifted (once).
    assert_eq!(Standing::of(&log, 30_000).muted_until, None);
    let lifted = store
        .lift_action(suspension.id, Some(moderator.id), 30_000)
        .await
        .unwrap();
    assert_eq!(lifted.unwrap().lifted, Some((30_000, Some(moderator.id))));
    assert!(
        store
            .lift_action(suspension.id, None, 31_000)
            .await
            .unwrap()
            .is_none()
    );
    assert!(
        store
            .lift_action(mute.id, None, 31_000)
            .await
            .unwrap()
            .is_none(),
        "run out"
    );
    let log = store.actions(Some(troll.id), 10).await.unwrap();
    assert_eq!(Standing::of(&log, 31_000), Standing::default());
    // A warning cannot be lifted: it was said.
    let warning = store
        .record_action(action(&troll, ActionKind::Warning, None, Some(&moderator)))
        .await
        .unwrap();
    assert!(
        store
            .lift_action(warning.id, None, 31_000)
            .await
            .unwrap()
            .is_none()
    );
    // Others see what came after a point, in order.
    let after = store.actions_after(mute.id).await.unwrap();
    assert_eq!(
        after.iter().map(|a| a.id).collect::<Vec<_>>(),
        [suspension.id, warning.id]
    );
    assert_eq!(store.actions(None, 2).await.unwrap()[0].id, warning.id);

    // An annulment takes a rated game's changes back, once.
    let summary = r#"{"black":{"change":12.5},"white":{"change":-12.5}}"#;
    assert!(
        store
            .finish_game(GameEnd {
                game,
                status: GameStatus::Finished,
                result: Some("B+R".into()),
                winner: Some(Color::Black),
                ended_at: 6_000,
                ratings: Some(RatingUpdate {
                    black: Rating {
                        rating: 1512.5,
                        ..NEWCOMER
                    },
                    white: Rating {
                        rating: 1487.5,
                        ..NEWCOMER
                    },
                    black_standing: None,
                    white_standing: None,
                    summary: summary.into(),
                }),
            })
            .await
            .unwrap()
    );
    let changes = [(troll.id, 12.5), (victim.id, -12.5)];
    let annulled = r#"{"annulled":true}"#.to_owned();
    assert!(
        store
            .annul_rating(game, summary.into(), annulled.clone(), changes)
            .await
            .unwrap()
    );
    assert!(
        !store
            .annul_rating(game, summary.into(), annulled.clone(), changes)
            .await
            .unwrap()
    );
    for player in [&troll, &victim] {
        let after = store.user(player.id).await.unwrap().unwrap();
        assert!(
            (after.rating.rating - 1500.0).abs() < 1e-9,
            "{}",
            after.rating.rating
        );
        assert_eq!(after.rated_games, 0);
    }
    assert_eq!(
        store.game(game).await.unwrap().unwrap().ratings,
        Some(annulled)
    );
}

async fn blocks_keep_players_apart(store: &Arc<dyn Store>) {
    let (a, b, c) = (
        user(store, "a").await,
        user(store, "b").await,
        user(store, "c").await,
    );
    store
        .set_relation(a.id, b.id, Some(Relation::Block), 1)
        .await
        .unwrap();
    store
        .set_relation(a.id, c.id, Some(Relation::Mute), 1)
        .await
        .unwrap();
    assert!(store.blocked(a.id, b.id).await.unwrap());
    assert!(store.blocked(b.id, a.id).await.unwrap(), "either way");
    assert!(
        !store.blocked(a.id, c.id).await.unwrap(),
        "a mute is no block"
    );
    let names = |r: Vec<(shoutan_store::PlayerRef, Relation)>| {
        r.into_iter().map(|(p, k)| (p.name, k)).collect::<Vec<_>>()
    };
    assert_eq!(
        names(store.relations(a.id).await.unwrap()),
        [("b".into(), Relation::Block), ("c".into(), Relation::Mute)]
    );
    // Automatch never pairs a and b; c still meets b.
    let waiting = store
        .seek(seek_of(&a, 10, 0, 40, 1_000), pair_with(&a))
        .await
        .unwrap();
    assert!(matches!(waiting, SeekOutcome::Waiting(_)));
    let b_seek = store
        .seek(seek_of(&b, 10, 0, 40, 1_001), pair_with(&b))
        .await
        .unwrap();
    assert!(matches!(b_seek, SeekOutcome::Waiting(_)), "{b_seek:?}");
    let c_seek = store
        .seek(seek_of(&c, 10, 0, 40, 1_002), pair_with(&c))
        .await
        .unwrap();
    let SeekOutcome::Paired { partner, .. } = c_seek else {
        panic!("{c_seek:?}")
    };
    assert_eq!(partner.user.name, "a");
    // Unblocked, they meet.
    store.set_relation(a.id, b.id, None, 2).await.unwrap();
    assert!(!store.blocked(a.id, b.id).await.unwrap());
    let a_again = store
        .seek(seek_of(&a, 10, 0, 40, 1_003), pair_with(&a))
        .await
        .unwrap();
    assert!(matches!(a_again, SeekOutcome::Paired { ref partner, .. } if partner.user.name == "b"));
}

async fn account_self_service(store: &Arc<dyn Store>) {
    let player = user(store, "Player").await;
    for (token, client) in [(1, "Firefox"), (2, "Chromium"), (3, "phone")] {
        store
            .create_session(session_of(&player, token, client))
            .await
            .unwrap();
    }
    let listed = store.sessions(player.id, 500).await.unwrap();
    assert_eq!(
        listed.iter().map(|s| s.client.as_str()).collect::<Vec<_>>(),
        ["phone", "Chromium", "Firefox"]
    );
    // A new password keeps the session it was set from, only.
    assert!(
        store
            .set_password(player.id, "new hash".into(), Some([2; 32]))
            .await
            .unwrap()
    );
    assert_eq!(
        store.user(player.id).await.unwrap().unwrap().password_hash,
        "new hash"
    );
    assert!(store.session_user([1; 32], 500).await.unwrap().is_none());
    assert!(store.session_user([2; 32], 500).await.unwrap().is_some());
    store
        .create_session(session_of(&player, 4, "tablet"))
        .await
        .unwrap();
    assert_eq!(
        store.end_sessions(player.id, Some([4; 32])).await.unwrap(),
        1
    );
    assert_eq!(store.sessions(player.id, 500).await.unwrap().len(), 1);

    // A reset code: once, before it expires; a second code replaces the first.
    store
        .create_reset_code(player.id, [9; 32], 2_000)
        .await
        .unwrap();
    store
        .create_reset_code(player.id, [10; 32], 2_000)
        .await
        .unwrap();
    assert_eq!(
        store
            .use_reset_code([9; 32], 1_000, "x".into())
            .await
            .unwrap(),
        None
    );
    assert_eq!(
        store
            .use_reset_code([10; 32], 2_000, "x".into())
            .await
            .unwrap(),
        None,
        "expired"
    );
    store
        .create_reset_code(player.id, [11; 32], 2_000)
        .await
        .unwrap();
    assert_eq!(
        store
            .use_reset_code([11; 32], 1_999, "reset hash".into())
            .await
            .unwrap(),
        Some(player.id)
    );
    assert_eq!(
        store
            .use_reset_code([11; 32], 1_999, "y".into())
            .await
            .unwrap(),
        None
    );
    assert_eq!(
        store.user(player.id).await.unwrap().unwrap().password_hash,
        "reset hash"
    );
    assert!(
        store.sessions(player.id, 500).await.unwrap().is_empty(),
        "all ended"
    );

    // Deletion: the games stay, under an anonymous name; the name is free;
    // the player's problem rating goes, his first tries still count for
    // the problems.
    let other = user(store, "other").await;
    let tried = store
        .record_problem_try(NewProblemTry {
            user: player.id,
            problem: "rumen-chizi/1".into(),
            solved: true,
            at: 3_500,
            player_start: NEWCOMER,
            problem_start: NEWCOMER,
            rate: Box::new(|p, q| (p, q)),
        })
        .await
        .unwrap();
    assert!(tried.is_some());
    let first_try = |user, problem: &'static str| store.problem_try(user, problem);
    assert_eq!(
        first_try(player.id, "rumen-chizi/1").await.unwrap(),
        Some(true)
    );
    assert_eq!(first_try(player.id, "rumen-chizi/2").await.unwrap(), None);
    assert_eq!(first_try(other.id, "rumen-chizi/1").await.unwrap(), None);
    assert!(store.solver_rating(player.id).await.unwrap().is_some());
    let game = game(store, &player, &other, 19, 3_000).await;
    store
        .set_relation(other.id, player.id, Some(Relation::Block), 1)
        .await
        .unwrap();
    store
        .create_session(session_of(&player, 5, "x"))
        .await
        .unwrap();
    assert!(store.delete_account(player.id, 4_000).await.unwrap());
    assert!(!store.delete_account(player.id, 4_001).await.unwrap());
    let gone = store.user(player.id).await.unwrap().unwrap();
    assert_eq!(gone.name, format!("deleted-{}", player.id));
    assert_eq!(gone.password_hash, "");
    assert_eq!(
        store.game(game).await.unwrap().unwrap().black.name,
        gone.name
    );
    assert!(store.session_user([5; 32], 500).await.unwrap().is_none());
    assert!(store.relations(other.id).await.unwrap().is_empty());
    assert!(store.search_users("deleted", 10).await.unwrap().is_empty());
    assert!(store.user_by_name("Player").await.unwrap().is_none());
    assert_eq!(store.solver_rating(player.id).await.unwrap(), None);
    let problem = store
        .problem_rating("rumen-chizi/1")
        .await
        .unwrap()
        .unwrap();
    assert_eq!((problem.tries, problem.solved), (1, 1));
    user(store, "Player").await;
    assert!(
        !store
            .set_password(player.id, "z".into(), None)
            .await
            .unwrap()
    );
}

async fn reopening_keeps_data_and_migrates_once(backend: &Backend) {
    let someone = user(&backend.store, "kept").await;
    let reopened = open(&backend.database).await.unwrap();
    assert_eq!(reopened.user_by_name("kept").await.unwrap(), Some(someone));
}

/// Accounts from before the skeleton column get theirs on the next open;
/// of two older look-alikes, the first keeps the skeleton.
async fn older_accounts_get_skeletons(backend: &Backend) {
    user(&backend.store, "kept").await;
    user(&backend.store, "Lee").await;
    // As the accounts of a database from before migration 5 were: no
    // skeleton, and a look-alike pair (a Cyrillic е) that was let in.
    raw_sql(
        &backend.database,
        "UPDATE users SET name_skeleton = NULL; \
         INSERT INTO users (name, name_key, password_hash, declared_rank, rating, deviation, \
         volatility, created_at) VALUES ('L\u{435}e', 'l\u{435}e', 'x', '5k', 1500, 350, 0.06, 3000)",
    )
    .await;
    let reopened = open(&backend.database).await.unwrap();
    assert!(reopened.user_by_name("L\u{435}e").await.unwrap().is_some());
    for twin in ["k\u{435}pt", "L\u{435}\u{435}"] {
        let made = reopened
            .create_user(NewUser {
                name: twin.into(),
                password_hash: "x".into(),
                declared_rank: Rank::Kyu(1),
                rating: NEWCOMER,
                created_at: 4_000,
            })
            .await;
        assert!(
            matches!(made, Err(StoreError::NameConfusable(_))),
            "{twin}: {made:?}"
        );
    }
}

/// Runs `sql` on the database behind the store's back.
async fn raw_sql(database: &Database, sql: &str) {
    match database {
        Database::Sqlite(path) => {
            let conn = rusqlite::Connection::open(path).unwrap();
            conn.execute_batch(sql).unwrap();
        }
        Database::Postgres { url, schema } => {
            shoutan_test_env::postgres_sql(url, schema.as_deref(), sql)
                .await
                .unwrap();
        }
    }
}

macro_rules! suite {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    let backend = super::Backend::sqlite().await;
                    super::$name(&backend.store).await;
                }
            )*

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn reopening_keeps_data_and_migrates_once() {
                let backend = super::Backend::sqlite().await;
                super::reopening_keeps_data_and_migrates_once(&backend).await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn older_accounts_get_skeletons() {
                let backend = super::Backend::sqlite().await;
                super::older_accounts_get_skeletons(&backend).await;
            }
        }

        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    let Some(backend) = super::Backend::postgres().await else { return };
                    super::$name(&backend.store).await;
                }
            )*

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn reopening_keeps_data_and_migrates_once() {
                let Some(backend) = super::Backend::postgres().await else { return };
                super::reopening_keeps_data_and_migrates_once(&backend).await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn older_accounts_get_skeletons() {
                let Some(backend) = super::Backend::postgres().await else { return };
                super::older_accounts_get_skeletons(&backend).await;
            }
        }
    };
}

suite!(
    accounts,
    confusable_names,
    sessions,
    challenges,
    seeks,
    concurrent_seeks_pair_each_player_once,
    seats,
    event_logs,
    endings_and_ratings,
    archive,
    heartbeats,
    reviews,
    record_reviews,
    moderation,
    blocks_keep_players_apart,
    account_self_service,
);
