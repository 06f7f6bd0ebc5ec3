//! OpenGotha itself as the oracle (found only through
//! `SHOUTAN_TEST_OPENGOTHA`): events generated from a seed — McMahon and
//! Swiss, handicaps, byes, withdrawals, absences, clubs — are paired round by
//! round in the OpenGotha-compatible mode, each round compared with the
//! pairing OpenGotha makes from the exported file, and the final standings
//! compared value by value with OpenGotha's.
//!
//! With `SHOUTAN_OPENGOTHA_EVENTS` naming a folder of OpenGotha files, the
//! measurement test re-pairs every round of each file from the state before
//! it and prints how many pairs agree with OpenGotha's.

#![allow(clippy::unwrap_used)] // test code: a failed setup is a test failure

use std::collections::BTreeSet;
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use shoutan_rules::Color;
use shoutan_rules::rank_scale::egf;
use shoutan_test_env::{External, locate};
use shoutan_tournament::formats::opengotha;
use shoutan_tournament::{
    HandicapBasis, HandicapRule, McMahon, NewPlayer, Outcome, PairingModel, Settings, System,
    Tournament,
};

/// Runs one of the oracle's entry points on `xml`; its standard output.
fn oracle(jar: &str, class: &str, xml: &str, round: Option<u32>) -> String {
    let dir = std::env::temp_dir().join(format!("shoutan-gotha-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{}.xml", fastrand::u64(..)));
    std::fs::File::create(&file)
        .unwrap()
        .write_all(xml.as_bytes())
        .unwrap();
    let mut cmd = Command::new("java");
    cmd.arg("-Djava.awt.headless=true")
        .arg("-cp")
        .arg(jar)
        .arg(format!("info.vannier.gotha.{class}"))
        .arg(&file);
    if let Some(r) = round {
        cmd.arg(r.to_string());
    }
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("java runs (a Java runtime 17+ is needed)");
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(60) {
            child.kill().unwrap();
            panic!("OpenGotha did not answer within a minute on {xml}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    std::fs::remove_file(&file).unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A round as unordered pairs of OpenGotha keys plus the bye.
type Pairing = (BTreeSet<(String, String)>, Option<String>);

fn pair_key(a: String, b: String) -> (String, String) {
    if a <= b { (a, b) } else { (b, a) }
}

fn key(name: &str, first: &str) -> String {
    format!("{name}{first}")
        .to_uppercase()
        .split_whitespace()
        .collect()
}

/// OpenGotha's pairing of round `round` of `xml`.
fn gotha_pairing(jar: &str, xml: &str, round: u32) -> Pairing {
    let mut pairs = BTreeSet::new();
    let mut bye = None;
    for line in oracle(jar, "GothaPair", xml, Some(round)).lines() {
        let f: Vec<&str> = line.split('\t').collect();
        match f.as_slice() {
            ["BYE", n, g] => bye = Some(key(n, g)),
            ["0", wn, wg, bn, bg, _] => {
                pairs.insert(pair_key(key(wn, wg), key(bn, bg)));
            }
            _ => {}
        }
    }
    (pairs, bye)
}

/// The OpenGotha key of a Shoutan player (first word family name).
fn shoutan_key(t: &Tournament, i: usize) -> String {
    let name = &t.players()[i].name;
    let (n, g) = name.split_once(' ').unwrap_or((name, ""));
    key(n, g)
}

/// Shoutan's pairing of the next round of `t` in its own model.
fn shoutan_pairing(t: &mut Tournament) -> Pairing {
    let round = t.pair_next_round().unwrap().clone();
    let pairs = round
        .games
        .iter()
        .map(|g| {
            pair_key(
                shoutan_key(t, g.black.index()),
                shoutan_key(t, g.white.index()),
            )
        })
        .collect();
    let bye = round.byes.first().map(|b| match b.entrant {
        shoutan_tournament::Entrant::Player(p) => shoutan_key(t, p.index()),
        shoutan_tournament::Entrant::Team(_) => unreachable!("individual events"),
    });
    (pairs, bye)
}

/// `xml` without the games and byes of rounds `from` and later.
fn before_round(xml: &str, from: u32) -> String {
    xml.lines()
        .filter(|l| {
            let l = l.trim_start();
            if !(l.starts_with("<Game ") || l.starts_with("<ByePlayer ")) {
                return true;
            }
            let round = l
                .split("roundNumber=\"")
                .nth(1)
                .and_then(|r| r.split('"').next())
                .and_then(|r| r.parse::<u32>().ok())
                .unwrap_or(0);
            round < from
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// For each round of an OpenGotha file, the pairs Shoutan's compatible mode
/// makes from the rounds before it that OpenGotha makes too: (same, all).
fn agreement(jar: &str, xml: &str) -> (usize, usize) {
    let rounds = opengotha::import(xml).unwrap().rounds().len() as u32;
    let (mut same, mut all) = (0, 0);
    for k in 1..=rounds {
        let before = before_round(xml, k);
        let theirs = gotha_pairing(jar, &before, k);
        let mut t = opengotha::import(&before).unwrap();
        assert_eq!(t.settings().pairing_model, PairingModel::OpenGotha);
        let ours = shoutan_pairing(&mut t);
        same += ours.0.intersection(&theirs.0).count();
        all += theirs.0.len();
        if ours.0 != theirs.0 {
            let (a, b) = (cost(&t, k, &ours.0), cost(&t, k, &theirs.0));
            eprintln!(
                "round {k}: {} by OpenGotha's measure",
                if a == b { "a tie" } else { "different costs" }
            );
        }
    }
    (same, all)
}

/// OpenGotha's standings: key → the values as printed (`74/2`).
fn gotha_standings(jar: &str, xml: &str) -> Vec<(String, Vec<String>)> {
    oracle(jar, "GothaStandings", xml, None)
        .lines()
        .skip_while(|l| !l.starts_with("name,firstname,rank"))
        .skip(1)
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            assert!(f.len() > 3, "not a standings line: {l:?}");
            (
                key(f[0], f[1]),
                f[3..].iter().map(|v| (*v).to_owned()).collect(),
            )
        })
        .collect()
}

/// Shoutan's standings value as OpenGotha prints it (`value/coefficient`):
/// McMahon scores count 1 a win in both, Swiss points 2 a win in Shoutan
/// and 1 in OpenGotha.
fn as_gotha(v: shoutan_tournament::Value, coefficient: i64, mcmahon: bool) -> String {
    let per_win = if mcmahon { 1.0 } else { 0.5 };
    let scaled = v.to_f64() * per_win * coefficient as f64;
    format!("{}/{coefficient}", scaled.round() as i64)
}

/// A generated event: `n` players over `rounds` rounds with handicaps,
/// clubs and countries, a withdrawal and absences, paired round by round
/// in the OpenGotha-compatible mode and checked against the oracle.
fn generated_event(jar: &str, seed: u64, mcmahon: bool, n: usize, rounds: u32) -> (usize, usize) {
    let mut rng = fastrand::Rng::with_seed(seed);
    let system = if mcmahon {
        System::McMahon(McMahon {
            bar: "2d".parse().unwrap(),
            floor: "20k".parse().unwrap(),
            handicap: HandicapRule {
                basis: if rng.bool() {
                    HandicapBasis::Mms
                } else {
                    HandicapBasis::Rank
                },
                correction: rng.u8(0..3),
                ceiling: [0, 9][rng.usize(0..2)],
                no_handicap_from: [None, Some("1d".parse().unwrap())][rng.usize(0..2)],
            },
        })
    } else {
        System::Swiss
    };
    let mut settings = Settings::new(system, None);
    use shoutan_tournament::Criterion as C;
    settings.criteria = if mcmahon {
        vec![C::Mms, C::Sos, C::Sosos, C::Sodos]
    } else {
        vec![C::Points, C::Sos, C::Sosos, C::Sodos]
    };
    settings.rounds = Some(rounds);
    settings.avoid_same_club = rng.bool();
    settings.avoid_same_country = rng.bool();
    settings.pairing_model = PairingModel::OpenGotha;
    let mut t = Tournament::new("Oracle cup", settings).unwrap();
    let families = [
        "Kim", "Lee", "Park", "Wang", "Sato", "Berg", "Novak", "Rossi",
    ];
    let clubs = ["Lyon", "Oslo", "Kyoto", "Seoul"];
    for k in 0..n {
        let level = rng.i32(-25..4);
        t.add_player(NewPlayer {
            name: format!("{} P{k:02}", families[rng.usize(..families.len())]),
            rank: Some(shoutan_rules::Rank::from_level(level)),
            rating: Some(egf::rating_of_level(level) as i32 + rng.i32(-40..40)),
            club: Some(clubs[rng.usize(..clubs.len())].to_owned()),
            country: Some(["FR", "CN"][rng.usize(..2)].to_owned()),
            ..NewPlayer::default()
        })
        .unwrap();
    }
    // One player misses a later round; one withdraws half way.
    let absent = rng.usize(..n);
    t.set_absent(shoutan_tournament::PlayerId(absent as u32), rounds)
        .unwrap();
    let quitter = (absent + 1) % n;
    let (mut same, mut all, mut ties) = (0, 0, 0);
    for round in 1..=rounds {
        if round == rounds / 2 + 1 {
            t.withdraw(shoutan_tournament::Entrant::Player(
                shoutan_tournament::PlayerId(quitter as u32),
            ))
            .unwrap();
        }
        let before = opengotha::export(&t);
        let theirs = gotha_pairing(jar, &before, round);
        let ours = shoutan_pairing(&mut t);
        if ours != theirs {
            if let Some(dir) = std::env::var_os("SHOUTAN_GOTHA_DUMP") {
                let file = std::path::Path::new(&dir).join(format!("seed{seed}-r{round}.xml"));
                std::fs::write(file, &before).unwrap();
            }
            // Only a tie may part them: OpenGotha's pairing must cost, by
            // OpenGotha's measure, exactly what ours does.
            assert_eq!(
                cost(&t, round, &theirs.0),
                cost(&t, round, &ours.0),
                "seed {seed} round {round}: ours {ours:?}, OpenGotha's {theirs:?}"
            );
            ties += 1;
        }
        assert_eq!(ours.1, theirs.1, "seed {seed} round {round}: the bye");
        same += ours.0.intersection(&theirs.0).count();
        all += theirs.0.len();
        let games = t.rounds()[round as usize - 1].games.clone();
        for g in games {
            let outcome = match rng.u8(0..20) {
                0 => Outcome::Draw,
                1 => Outcome::Forfeit(Color::White),
                k if k % 2 == 0 => Outcome::Win(Color::Black),
                _ => Outcome::Win(Color::White),
            };
            t.record(round, g.table, outcome).unwrap();
        }
    }
    // Every standings value, as OpenGotha prints it.
    let xml = opengotha::export(&t);
    let standings = t.standings();
    let coefficients: Vec<i64> = standings
        .columns
        .iter()
        .map(|c| match c {
            shoutan_tournament::Column::Criterion(C::Sodos) => 4,
            _ => 2,
        })
        .collect();
    for (k, values) in gotha_standings(jar, &xml) {
        let row = standings
            .rows
            .iter()
            .find(|r| match r.entrant {
                shoutan_tournament::Entrant::Player(p) => shoutan_key(&t, p.index()) == k,
                shoutan_tournament::Entrant::Team(_) => false,
            })
            .unwrap();
        let ours: Vec<String> = row
            .values
            .iter()
            .zip(&coefficients)
            .map(|(v, &c)| as_gotha(*v, c, mcmahon))
            .collect();
        assert_eq!(ours, values, "seed {seed}: standings of {k}");
    }
    eprintln!(
        "seed {seed} mcmahon {mcmahon}: {same} of {all} pairs as OpenGotha's, {ties} rounds tied"
    );
    (same, all)
}

/// OpenGotha's total cost of a pairing given by keys.
fn cost(t: &Tournament, round: u32, pairs: &BTreeSet<(String, String)>) -> i64 {
    let id = |k: &str| {
        shoutan_tournament::PlayerId(
            (0..t.players().len())
                .find(|&i| shoutan_key(t, i) == k)
                .unwrap() as u32,
        )
    };
    let pairs: Vec<_> = pairs.iter().map(|(a, b)| (id(a), id(b))).collect();
    t.opengotha_cost(round, &pairs).unwrap()
}

#[test]
fn generated_events_pair_and_rank_as_opengotha() {
    let Some(jar) = locate(External::OpenGotha) else {
        return;
    };
    let (mut same, mut all) = (0, 0);
    for (seed, mcmahon, n, rounds) in [
        (1, true, 15, 4),
        (2, false, 14, 4),
        (3, true, 21, 5),
        (4, false, 17, 4),
        (5, true, 12, 3),
        (6, false, 11, 3),
    ] {
        let (s, a) = generated_event(&jar, seed, mcmahon, n, rounds);
        same += s;
        all += a;
    }
    eprintln!("generated events: {same} of {all} pairs as OpenGotha's");
    assert!(20 * same >= 19 * all, "fewer than 95% of the pairs agree");
}

/// The measurement on OpenGotha's own files (not part of the repository).
#[test]
fn pairs_agree_on_opengotha_files() {
    let Some(dir) = std::env::var_os("SHOUTAN_OPENGOTHA_EVENTS") else {
        eprintln!("SHOUTAN_OPENGOTHA_EVENTS not set: no OpenGotha files to measure");
        return;
    };
    let Some(jar) = locate(External::OpenGotha) else {
        return;
    };
    let (mut same, mut all) = (0, 0);
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "xml"))
        .collect();
    files.sort();
    for file in files {
        let xml = std::fs::read_to_string(&file).unwrap();
        if let Err(e) = opengotha::import(&xml) {
            eprintln!("{}: not measured: {e}", file.display());
            continue;
        }
        let (s, a) = agreement(&jar, &xml);
        eprintln!("{}: {s} of {a} pairs as OpenGotha's", file.display());
        same += s;
        all += a;
    }
    eprintln!("all files: {same} of {all} pairs as OpenGotha's");
}
