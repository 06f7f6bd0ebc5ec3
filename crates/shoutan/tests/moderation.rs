//! A public server as its players, moderators and operator use it, on
//! SQLite and on PostgreSQL: reports reach the moderators' queue with
//! their context; a mute silences chat; a suspension from the shell ends
//! the running games as forfeits and keeps the player out until lifted;
//! moderators cannot act on administrators or lift each other's actions;
//! blocks stop challenges; players change their password, end their other
//! sessions, take their data away, reset a forgotten password with the
//! operator's code and delete their account.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed call is a test failure

mod common;

use std::io::Read;
use std::time::{Duration, Instant};

use common::{Player, Site, a_game_played};
use serde_json::{Value, json};

/// The site's two backends, each test run on both.
macro_rules! on_both {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    super::$name(super::Site::sqlite()).await;
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    let Some(site) = super::Site::postgres().await else { return };
                    super::$name(site).await;
                }
            )*
        }
    };
}

on_both!(
    a_reported_chat_line_is_muted_from_the_queue,
    reports_have_a_budget,
    moderators_cannot_act_on_administrators_or_each_other,
    a_suspension_forfeits_games_and_keeps_the_player_out,
    a_rated_game_is_annulled_once,
    a_block_stops_challenges_both_ways,
    players_manage_their_accounts,
);

fn granted(site: &Site, name: &str, role: &str) {
    let (ok, said) = site.admin(&["grant", name, role]);
    assert!(ok && said.contains(&format!("is now {role}")), "{said}");
}

/// Waits until `check` holds of the game, or fails after 10 s.
async fn game_until(player: &Player, id: i64, what: &str, check: impl Fn(&Value) -> bool) -> Value {
    let started = Instant::now();
    loop {
        let game = player.game(id).await;
        if check(&game) {
            return game;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "{what}: {game}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn a_reported_chat_line_is_muted_from_the_queue(site: Site) {
    let server = site.serve();
    let (hei, bai, id, mut sockets) = a_game_played(&server.base, &["E5", "C3"]).await;
    let insult = sockets[0]
        .ok(json!({"type": "chat", "text": "you play like a fish"}))
        .await;
    let line = insult["v"].as_u64().unwrap();
    sockets[1]
        .ok(json!({"type": "chat", "text": "be polite"}))
        .await;

    // Bad reports change nothing.
    for (body, code) in [
        (json!({"player": "bai", "reason": "abuse"}), "bad_report"),
        (json!({"player": "hei", "reason": "rudeness"}), "bad_report"),
        (
            json!({"player": "hei", "game": id, "chat": line + 1, "reason": "abuse"}),
            "bad_report",
        ),
        (json!({"player": "nobody", "reason": "abuse"}), "not_found"),
    ] {
        let (status, answer) = bai.send("POST", "/api/reports", Some(body)).await;
        assert_eq!(answer["error"], code, "{status} {answer}");
    }
    let (status, report) = bai
        .send(
            "POST",
            "/api/reports",
            Some(json!({"player": "hei", "game": id, "chat": line, "reason": "abuse", "text": "insults"})),
        )
        .await;
    assert_eq!(status, 201, "{report}");

    // Only moderators read the queue.
    let (status, refused) = bai.send("GET", "/api/moderation/reports", None).await;
    assert_eq!(
        (status, refused["error"].as_str()),
        (403, Some("not_moderator"))
    );
    let moderator = Player::register(&server.base, "guan").await;
    granted(&site, "guan", "moderator");
    let (_, queue) = moderator.send("GET", "/api/moderation/reports", None).await;
    let queued = &queue.as_array().unwrap()[0];
    assert_eq!(queued["id"], report["id"]);
    assert_eq!(
        (queued["player"].as_str(), queued["reporter"].as_str()),
        (Some("hei"), Some("bai"))
    );
    assert_eq!(queued["sgf"], format!("/api/games/{id}/sgf"));
    let context: Vec<&str> = queued["context"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["text"].as_str().unwrap())
        .collect();
    assert_eq!(context, ["you play like a fish", "be polite"]);

    // A mute needs its length; then it answers the report and silences him.
    let mute = json!({"player": "hei", "kind": "mute", "reason": "insults in chat", "report": report["id"]});
    let (_, refused) = moderator
        .send("POST", "/api/moderation/actions", Some(mute.clone()))
        .await;
    assert_eq!(refused["error"], "bad_action");
    let mut timed = mute.clone();
    timed["minutes"] = json!(60);
    let (status, action) = moderator
        .send("POST", "/api/moderation/actions", Some(timed))
        .await;
    assert_eq!(status, 201, "{action}");
    assert_eq!(
        (action["by"].as_str(), action["holds"].as_bool()),
        (Some("guan"), Some(true))
    );
    let (_, queue) = moderator.send("GET", "/api/moderation/reports", None).await;
    assert_eq!(queue, json!([]));
    let refused = sockets[0]
        .command(json!({"type": "chat", "text": "still a fish"}))
        .await
        .unwrap_err();
    assert_eq!(refused["code"], "muted");
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("insults in chat"),
        "{refused}"
    );
    // He may still play, and read what he was told.
    sockets[0].play("G7").await;
    let (_, notices) = hei.send("GET", "/api/me/notices", None).await;
    assert_eq!(notices[0]["kind"], "mute");
    assert_eq!(notices[0]["holds"], true);
    assert!(notices[0].get("by").is_none(), "the moderator is not named");
    // The audit log has it, and the chat holds no muted line.
    let (_, log) = moderator
        .send("GET", "/api/moderation/actions?player=hei", None)
        .await;
    assert_eq!(log[0]["id"], action["id"]);
    let chat = hei.game(id).await["chat"].clone();
    assert!(!chat.to_string().contains("still a fish"), "{chat}");

    // Lifted by its moderator, the mute no longer holds.
    let (status, lifted) = moderator
        .send(
            "POST",
            &format!("/api/moderation/actions/{}/lift", action["id"]),
            None,
        )
        .await;
    assert_eq!((status, lifted["holds"].as_bool()), (200, Some(false)));
    sockets[0]
        .ok(json!({"type": "chat", "text": "sorry"}))
        .await;
}

async fn reports_have_a_budget(site: Site) {
    let server = site.serve();
    let reporter = Player::register(&server.base, "zealot").await;
    Player::register(&server.base, "target").await;
    let report = json!({"player": "target", "reason": "other", "text": "again"});
    for n in 0..10 {
        let (status, body) = reporter
            .send("POST", "/api/reports", Some(report.clone()))
            .await;
        assert_eq!(status, 201, "report {n}: {body}");
    }
    let (status, refused) = reporter.send("POST", "/api/reports", Some(report)).await;
    assert_eq!(
        (status, refused["error"].as_str()),
        (429, Some("rate_limited"))
    );
}

async fn moderators_cannot_act_on_administrators_or_each_other(site: Site) {
    let server = site.serve();
    let first = Player::register(&server.base, "first").await;
    let second = Player::register(&server.base, "second").await;
    let boss = Player::register(&server.base, "boss").await;
    let player = Player::register(&server.base, "player").await;
    granted(&site, "first", "moderator");
    granted(&site, "second", "moderator");
    granted(&site, "boss", "admin");
    let (ok, said) = site.admin(&["grant", "player", "emperor"]);
    assert!(!ok && said.contains("no role"), "{said}");
    let (ok, said) = site.admin(&["grant", "ghost", "moderator"]);
    assert!(!ok && said.contains("no player"), "{said}");
    let (ok, said) = site.admin(&["staff"]);
    assert!(
        ok && said.contains("boss\tadministrator") && said.contains("first\tmoderator"),
        "{said}"
    );

    for target in ["boss", "second", "first"] {
        let (status, refused) = first
            .send(
                "POST",
                "/api/moderation/actions",
                Some(json!({"player": target, "kind": "warning", "reason": "test"})),
            )
            .await;
        assert_eq!(
            (status, refused["error"].as_str()),
            (403, Some("protected")),
            "{target}"
        );
    }
    let (_, warning) = first
        .send(
            "POST",
            "/api/moderation/actions",
            Some(json!({"player": "player", "kind": "mute", "minutes": 5, "reason": "spam"})),
        )
        .await;
    let lift = format!("/api/moderation/actions/{}/lift", warning["id"]);
    let (status, refused) = second.send("POST", &lift, None).await;
    assert_eq!(
        (status, refused["error"].as_str()),
        (403, Some("protected"))
    );
    let (_, log) = first.send("GET", "/api/moderation/actions", None).await;
    assert_eq!(log.as_array().unwrap().len(), 1, "{log}");
    let (status, _) = first.send("POST", &lift, None).await;
    assert_eq!(status, 200);
    let (status, again) = first.send("POST", &lift, None).await;
    assert_eq!((status, again["error"].as_str()), (409, Some("not_lifted")));

    // A forgotten password: an administrator gives a code, a moderator not.
    let asked = json!({"player": "player"});
    let (status, refused) = first
        .send("POST", "/api/moderation/reset-codes", Some(asked.clone()))
        .await;
    assert_eq!(
        (status, refused["error"].as_str()),
        (403, Some("not_administrator"))
    );
    let (status, given) = boss
        .send("POST", "/api/moderation/reset-codes", Some(asked))
        .await;
    assert_eq!(status, 201, "{given}");
    let reset = json!({"code": given["code"], "password": "given by the boss"});
    let (status, _) = player
        .send("POST", "/api/password-reset", Some(reset))
        .await;
    assert_eq!(status, 204);
    Player::login(&server.base, "player", "given by the boss")
        .await
        .unwrap();
}

async fn a_suspension_forfeits_games_and_keeps_the_player_out(site: Site) {
    let server = site.serve();
    let (hei, bai, id, _sockets) = a_game_played(&server.base, &["E5", "C3", "G5"]).await;
    let (ok, said) = site.admin(&[
        "suspend",
        "hei",
        "--for",
        "2d",
        "--reason",
        "escaping games",
    ]);
    assert!(ok && said.contains("suspension hei until"), "{said}");
    let (ok, said) = site.admin(&["suspend", "hei", "--for", "2y", "--reason", "x"]);
    assert!(!ok, "{said}");

    // The running server reads it from the log: hei forfeits (不战负).
    let game = game_until(&bai, id, "the forfeit", |g| {
        g["state"]["result"].is_object()
    })
    .await;
    assert_eq!(game["state"]["result"]["international"], "W+F", "{game}");
    let (status, _) = hei.send("GET", "/api/session", None).await;
    assert_eq!(status, 401, "his sessions ended");
    let (status, refused) = Player::login(&server.base, "hei", "crash test")
        .await
        .err()
        .unwrap();
    assert_eq!(
        (status, refused["error"].as_str()),
        (403, Some("suspended"))
    );
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("escaping games"),
        "{refused}"
    );
    // A wrong password learns nothing of it.
    let (status, refused) = Player::login(&server.base, "hei", "wrong one")
        .await
        .err()
        .unwrap();
    assert_eq!(
        (status, refused["error"].as_str()),
        (401, Some("bad_credentials"))
    );

    let (ok, said) = site.admin(&["lift", "hei"]);
    assert!(ok && said.contains("lifted"), "{said}");
    Player::login(&server.base, "hei", "crash test")
        .await
        .unwrap();
    let (ok, said) = site.admin(&["ban", "hei", "--reason", "cheating with an engine"]);
    assert!(ok, "{said}");
    let (status, refused) = Player::login(&server.base, "hei", "crash test")
        .await
        .err()
        .unwrap();
    assert_eq!((status, refused["error"].as_str()), (403, Some("banned")));
    let (ok, log) = site.admin(&["log", "hei"]);
    assert!(
        ok && log.lines().count() == 2 && log.contains("[lifted]"),
        "{log}"
    );
}

async fn a_rated_game_is_annulled_once(site: Site) {
    let server = site.serve();
    let (hei, bai, id, mut sockets) = a_game_played(&server.base, &["E5", "C3"]).await;
    sockets[1].ok(json!({"type": "resign"})).await;
    game_until(&hei, id, "the end", |g| g["state"]["result"].is_object()).await;
    let started = Instant::now();
    let before = loop {
        let (_, me) = hei.send("GET", "/api/session", None).await;
        if me["rated_games"] == 1 {
            break me;
        }
        assert!(started.elapsed() < Duration::from_secs(10), "{me}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(
        before["rating"]["rating"].as_f64().unwrap() > 1500.0,
        "{before}"
    );
    let moderator = Player::register(&server.base, "guan").await;
    granted(&site, "guan", "moderator");
    let annul = json!({"player": "bai", "kind": "annulment", "game": id, "reason": "sandbagging"});
    let (status, action) = moderator
        .send("POST", "/api/moderation/actions", Some(annul.clone()))
        .await;
    assert_eq!(status, 201, "{action}");
    for player in [&hei, &bai] {
        let (_, me) = player.send("GET", "/api/session", None).await;
        assert_eq!(me["rated_games"], 0, "{me}");
    }
    let (_, after) = hei.send("GET", "/api/session", None).await;
    assert!(
        after["rating"]["rating"].as_f64() < before["rating"]["rating"].as_f64(),
        "{after}"
    );
    let (status, again) = moderator
        .send("POST", "/api/moderation/actions", Some(annul))
        .await;
    assert_eq!(
        (status, again["error"].as_str()),
        (409, Some("not_annullable"))
    );
    let (_, unknown) = moderator
        .send(
            "POST",
            "/api/moderation/actions",
            Some(json!({"player": "bai", "kind": "annulment", "reason": "x"})),
        )
        .await;
    assert_eq!(unknown["error"], "bad_action");
    let (_, notices) = bai.send("GET", "/api/me/notices", None).await;
    assert_eq!(
        (notices[0]["kind"].as_str(), notices[0]["game"].as_i64()),
        (Some("annulment"), Some(id))
    );
}

async fn a_block_stops_challenges_both_ways(site: Site) {
    let server = site.serve();
    let a = Player::register(&server.base, "aa").await;
    let b = Player::register(&server.base, "bb").await;
    let (status, _) = a
        .send(
            "PUT",
            "/api/me/relations/bb",
            Some(json!({"kind": "block"})),
        )
        .await;
    assert_eq!(status, 204);
    let (_, bad) = a
        .send(
            "PUT",
            "/api/me/relations/aa",
            Some(json!({"kind": "block"})),
        )
        .await;
    assert_eq!(bad["error"], "bad_relation");
    let (_, bad) = a
        .send(
            "PUT",
            "/api/me/relations/bb",
            Some(json!({"kind": "ignore"})),
        )
        .await;
    assert_eq!(bad["error"], "bad_relation");
    let (_, relations) = a.send("GET", "/api/me/relations", None).await;
    assert_eq!(relations, json!([{"player": "bb", "kind": "block"}]));

    let challenge = json!({"size": 9, "time_control": "10 min + 3×30s byo-yomi"});
    let mut direct = challenge.clone();
    direct["opponent"] = json!("aa");
    let (status, refused) = b.send("POST", "/api/challenges", Some(direct)).await;
    assert_eq!((status, refused["error"].as_str()), (403, Some("blocked")));
    let (_, open) = a.send("POST", "/api/challenges", Some(challenge)).await;
    let accept = format!("/api/challenges/{}/accept", open["id"]);
    let (status, refused) = b.send("POST", &accept, Some(json!({}))).await;
    assert_eq!((status, refused["error"].as_str()), (403, Some("blocked")));

    // Unblocked, they play.
    let (status, _) = a.send("DELETE", "/api/me/relations/bb", None).await;
    assert_eq!(status, 204);
    let (status, game) = b.send("POST", &accept, Some(json!({}))).await;
    assert_eq!(status, 201, "{game}");
}

async fn players_manage_their_accounts(site: Site) {
    let server = site.serve();
    let (hei, bai, id, mut sockets) = a_game_played(&server.base, &["E5", "C3"]).await;
    sockets[0].ok(json!({"type": "chat", "text": "好棋"})).await;
    let phone = Player::login(&server.base, "hei", "crash test")
        .await
        .unwrap();
    let (_, sessions) = hei.send("GET", "/api/me/sessions", None).await;
    let sessions = sessions.as_array().unwrap().clone();
    assert_eq!(sessions.len(), 2);
    assert_eq!(sessions[0]["client"], "test browser of hei");
    assert_eq!(sessions.iter().filter(|s| s["current"] == true).count(), 1);

    // The old password is required; a change ends the other sessions.
    let (status, refused) = hei
        .send(
            "POST",
            "/api/me/password",
            Some(json!({"old": "wrong one", "new": "a new secret"})),
        )
        .await;
    assert_eq!(
        (status, refused["error"].as_str()),
        (401, Some("bad_credentials"))
    );
    let (_, short) = hei
        .send(
            "POST",
            "/api/me/password",
            Some(json!({"old": "crash test", "new": "short"})),
        )
        .await;
    assert_eq!(short["error"], "bad_password");
    let (status, _) = hei
        .send(
            "POST",
            "/api/me/password",
            Some(json!({"old": "crash test", "new": "a new secret"})),
        )
        .await;
    assert_eq!(status, 204);
    assert_eq!(phone.send("GET", "/api/session", None).await.0, 401);
    assert_eq!(hei.send("GET", "/api/session", None).await.0, 200);
    let tablet = Player::login(&server.base, "hei", "a new secret")
        .await
        .unwrap();
    let (_, ended) = tablet.send("DELETE", "/api/me/sessions", None).await;
    assert_eq!(ended["ended"], 1);
    assert_eq!(hei.send("GET", "/api/session", None).await.0, 401);

    // A forgotten password: the operator's code, once.
    let (ok, code) = site.admin(&["reset-password", "hei"]);
    assert!(ok, "{code}");
    let code = code
        .lines()
        .next()
        .unwrap()
        .to_lowercase()
        .replace('-', " ");
    let reset = json!({"code": code, "password": "from the code"});
    let (status, _) = bai
        .send("POST", "/api/password-reset", Some(reset.clone()))
        .await;
    assert_eq!(status, 204);
    let (status, used) = bai.send("POST", "/api/password-reset", Some(reset)).await;
    assert_eq!((status, used["error"].as_str()), (400, Some("bad_code")));
    assert_eq!(tablet.send("GET", "/api/session", None).await.0, 401);
    let hei = Player::login(&server.base, "hei", "from the code")
        .await
        .unwrap();

    // Deletion waits for the game to end.
    let (status, refused) = hei
        .send(
            "DELETE",
            "/api/me",
            Some(json!({"password": "from the code"})),
        )
        .await;
    assert_eq!(
        (status, refused["error"].as_str()),
        (409, Some("games_in_play"))
    );
    sockets[1].ok(json!({"type": "resign"})).await;
    let started = Instant::now();
    while !hei
        .send("GET", "/api/players/hei/games", None)
        .await
        .1
        .to_string()
        .contains("B+R")
    {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the result is never stored"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    // The data to take away: profile, games as SGF, own chat, problems.
    let problem = format!("{}/1", shoutan_problems::library()[0].slug);
    let (status, _) = hei
        .send(
            "POST",
            &format!("/api/problems/{problem}/hint"),
            Some(json!({})),
        )
        .await;
    assert_eq!(status, 200);
    let response = hei
        .http
        .get(format!("{}/api/me/export", server.base))
        .header("cookie", &hei.cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(response.headers()["content-type"], "application/zip");
    let bytes = response.bytes().await.unwrap();
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes.to_vec())).unwrap();
    let read = |zip: &mut zip::ZipArchive<_>, name: &str| {
        let mut text = String::new();
        zip.by_name(name)
            .unwrap()
            .read_to_string(&mut text)
            .unwrap();
        text
    };
    assert!(read(&mut zip, "profile.json").contains("\"name\": \"hei\""));
    let sgf = read(&mut zip, &format!("games/{id}.sgf"));
    assert!(sgf.contains("PB[hei]") && sgf.contains(";B[ee]"), "{sgf}");
    let chat: Value = serde_json::from_str(&read(&mut zip, "chat.json")).unwrap();
    assert_eq!(chat[0]["text"], "好棋");
    let problems: Value = serde_json::from_str(&read(&mut zip, "problems.json")).unwrap();
    assert_eq!(
        problems["first_tries"],
        json!([{"problem": problem, "solved": false}]),
        "the hint counts as a first try not solved: {problems}"
    );
    assert!(problems["rating"].as_f64().is_some(), "{problems}");

    let (status, _) = hei
        .send("DELETE", "/api/me", Some(json!({"password": "wrong one"})))
        .await;
    assert_eq!(status, 401);
    let (status, _) = hei
        .send(
            "DELETE",
            "/api/me",
            Some(json!({"password": "from the code"})),
        )
        .await;
    assert_eq!(status, 204);
    let (status, _) = Player::login(&server.base, "hei", "from the code")
        .await
        .err()
        .unwrap();
    assert_eq!(status, 401);
    let game = bai.game(id).await;
    let black = game["settings"]["black"]["name"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let (_, found) = bai.send("GET", "/api/players?q=hei", None).await;
    assert_eq!(found, json!([]), "the name is free and unlisted ({black})");
    let (_, archive) = bai.send("GET", "/api/players/bai/games", None).await;
    assert!(archive.to_string().contains("deleted-"), "{archive}");
    Player::register(&server.base, "hei").await;
}
