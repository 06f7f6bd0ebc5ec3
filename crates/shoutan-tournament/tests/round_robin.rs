//! Round robin (循环制) on Berger tables, tie-breaks of Art. 27 (胜者小分,
//! warnings, shared place / playoff / lots) and the withdrawal half-rule of
//! Art. 28.

#![allow(clippy::unwrap_used)] // test code: a failed setup is a test failure

mod common;

use common::*;
use shoutan_tournament::{
    Entrant, Outcome, PlayerId, System, TieRule, Tournament, TournamentError,
};

const FOUR: [(&str, &str); 4] = [("P", "3d"), ("Q", "3d"), ("R", "3d"), ("S", "3d")];
const SIX: [(&str, &str); 6] = [
    ("U", "1d"),
    ("V", "1d"),
    ("W", "1d"),
    ("X", "1d"),
    ("Y", "1d"),
    ("Z", "1d"),
];

/// The player holding Berger number `n` (from 1) in the draw.
fn no(t: &Tournament, n: usize) -> String {
    name(t, t.draw()[n - 1])
}

/// Records a result for the game between Berger numbers `a` (black) and `b`.
fn play(t: &mut Tournament, a: usize, b: usize, result: &str) {
    let round = t.rounds().len() as u32;
    let (pa, pb) = (PlayerId(t.draw()[a - 1]), PlayerId(t.draw()[b - 1]));
    let g = t.rounds()[round as usize - 1]
        .games
        .iter()
        .find(|g| g.black == pa && g.white == pb)
        .unwrap_or_else(|| panic!("no game {a}-{b} in round {round}"))
        .table;
    t.record(round, g, result.parse().unwrap()).unwrap();
}

/// Berger table for four (FIDE): 1–4 2–3 / 4–3 1–2 / 2–4 3–1, the first
/// named taking black; numbers drawn by lot from the event's seed.
#[test]
fn four_players_follow_the_berger_table() {
    let mut t = event(System::RoundRobin { cycles: 2 }, None, &FOUR);
    let expected = [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]];
    for cycle in 0..2 {
        for round in &expected {
            let got = pair(&mut t);
            for &(a, b) in round {
                // The second cycle swaps colours.
                let (a, b) = if cycle == 1 { (b, a) } else { (a, b) };
                assert!(
                    got.iter()
                        .any(|(x, y, _)| *x == no(&t, a) && *y == no(&t, b)),
                    "{a}-{b} missing in {got:?}"
                );
            }
            let n = t.rounds().len() as u32;
            for table in 1..=2 {
                t.record(n, table, Outcome::Draw).unwrap();
            }
        }
    }
    assert!(matches!(
        t.pair_next_round(),
        Err(TournamentError::Finished(_))
    ));
    // The draw is a permutation fixed by the seed.
    let mut d = t.draw().to_vec();
    d.sort_unstable();
    assert_eq!(d, [0, 1, 2, 3]);
}

/// Odd field: each round one player rests (no points).
#[test]
fn odd_field_rests() {
    let mut t = event(System::RoundRobin { cycles: 1 }, None, &SIX[..5]);
    let mut rested = Vec::new();
    for _ in 0..5 {
        let g = pair(&mut t);
        assert_eq!(g.len(), 2);
        let r = t.rounds().len() as u32;
        rested.extend(byes(&t, r));
        assert_eq!(t.rounds()[r as usize - 1].byes[0].points, 0);
        results(&mut t, &["B+", "B+"]);
    }
    rested.sort();
    assert_eq!(rested, ["U", "V", "W", "X", "Y"]);
}

/// ```text
///        1    2    3    4   points  胜者小分
///   1    ·    0    2    2     4
///   2    2    ·    1    0     3     4 + 3/2 = 5.5
///   3    0    1    ·    2     3     2 + 3/2 = 3.5
///   4    0    2    0    ·     2
/// ```
#[test]
fn sonneborn_berger_breaks_the_tie() {
    let mut t = event(System::RoundRobin { cycles: 1 }, None, &FOUR);
    pair(&mut t);
    play(&mut t, 1, 4, "B+");
    play(&mut t, 2, 3, "draw");
    pair(&mut t);
    play(&mut t, 4, 3, "W+");
    play(&mut t, 1, 2, "W+");
    pair(&mut t);
    play(&mut t, 2, 4, "W+");
    play(&mut t, 3, 1, "W+");
    let s = t.standings();
    assert_eq!(order(&s), [no(&t, 1), no(&t, 2), no(&t, 3), no(&t, 4)]);
    assert_eq!(values(&s, &no(&t, 2)), ["3", "5.5", "0"]);
    assert_eq!(values(&s, &no(&t, 3)), ["3", "3.5", "0"]);
}

/// All draws: everyone has 3 points and 胜者小分 4.5; one warning puts a
/// player last (Art. 27 B); the rest share first place, or are marked for
/// a playoff, or are ordered by lots (Art. 27 C).
#[test]
fn warnings_then_shared_place_playoff_or_lots() {
    for rule in [TieRule::SharedPlace, TieRule::Playoff, TieRule::Lots] {
        let mut t = event(System::RoundRobin { cycles: 1 }, None, &FOUR);
        let mut s = t.settings().clone();
        s.ties = rule;
        t.set_settings(s).unwrap();
        for r in 1..=3 {
            pair(&mut t);
            results(&mut t, &["draw", "draw"]);
            if r == 2 {
                let q = t.find_player("Q").unwrap();
                let table = t.rounds()[1]
                    .games
                    .iter()
                    .find(|g| g.color_of(q).is_some())
                    .unwrap()
                    .table;
                assert_eq!(t.warn(2, table, q).unwrap(), 1);
            }
        }
        let st = t.standings();
        let last = st.rows.last().unwrap();
        assert_eq!((last.name.as_str(), last.place), ("Q", 4));
        assert_eq!(values(&st, "Q"), ["3", "4.5", "1"]);
        let places: Vec<u32> = st.rows[..3].iter().map(|r| r.place).collect();
        match rule {
            TieRule::SharedPlace => {
                assert_eq!(places, [1, 1, 1]);
                assert!(st.rows[..3].iter().all(|r| r.shared && !r.playoff));
            }
            TieRule::Playoff => assert!(st.rows[..3].iter().all(|r| r.playoff && r.place == 1)),
            TieRule::Lots => assert_eq!(places, [1, 2, 3]),
        }
    }
}

fn six_players_two_rounds_played(loser_no1: bool) -> Tournament {
    let mut t = event(System::RoundRobin { cycles: 1 }, None, &SIX);
    // Berger 6: R1 1–6 2–5 3–4; R2 6–4 5–3 1–2; R3 2–6 3–1 4–5;
    //           R4 6–5 1–4 2–3; R5 3–6 4–2 5–1.
    pair(&mut t);
    play(&mut t, 1, 6, if loser_no1 { "W+" } else { "B+" });
    play(&mut t, 2, 5, "B+");
    play(&mut t, 3, 4, "B+");
    pair(&mut t);
    play(&mut t, 6, 4, "B+");
    play(&mut t, 5, 3, "B+");
    play(&mut t, 1, 2, if loser_no1 { "W+" } else { "B+" });
    t
}

/// Art. 28: withdrawing having played fewer than half the games (2 of 5)
/// cancels all the player's results: number 6 and number 2 lose the 2
/// points they won against number 1, and number 1's later games are not
/// played.
#[test]
fn withdrawal_before_half_cancels_all_results() {
    let mut t = six_players_two_rounds_played(true);
    let one = Entrant::Player(PlayerId(t.draw()[0]));
    let before = t.standings();
    // Beat 1 and 4, who have no points: 胜者小分 0.
    assert_eq!(values(&before, &no(&t, 6)), ["4", "0", "0"]);
    t.withdraw(one).unwrap();
    assert_eq!(values(&before, &no(&t, 2))[0], "4"); // beat 5 and 1
    let after = t.standings();
    assert_eq!(values(&after, &no(&t, 6))[0], "2");
    assert_eq!(values(&after, &no(&t, 2))[0], "2");
    assert!(after.rows.last().unwrap().withdrawn);
    pair(&mut t);
    let r3 = &t.rounds()[2];
    let g = r3
        .games
        .iter()
        .find(|g| g.white == PlayerId(t.draw()[0]))
        .unwrap();
    assert_eq!(g.outcome, Some(Outcome::Unplayed));
}

/// Art. 28: having played at least half (3 of 5), results stand and the
/// remaining games are forfeits won by the opponents.
#[test]
fn withdrawal_after_half_keeps_results_and_forfeits_the_rest() {
    let mut t = six_players_two_rounds_played(false);
    pair(&mut t);
    play(&mut t, 2, 6, "B+");
    play(&mut t, 3, 1, "W+");
    play(&mut t, 4, 5, "B+");
    let one = PlayerId(t.draw()[0]);
    t.withdraw(Entrant::Player(one)).unwrap();
    assert_eq!(values(&t.standings(), &no(&t, 1))[0], "6");
    pair(&mut t);
    let g = t.rounds()[3].games.iter().find(|g| g.black == one).unwrap();
    assert_eq!(
        g.outcome,
        Some(Outcome::Forfeit(shoutan_rules::Color::White))
    );
    assert_eq!(name(&t, g.white.0), no(&t, 4));
    // The forfeit is preset: round 4 waits only for the other two games.
    assert_eq!(t.rounds()[3].pending().count(), 2);
}

/// Registration closes at the first pairing of a round robin.
#[test]
fn no_late_entries() {
    let mut t = event(System::RoundRobin { cycles: 1 }, None, &FOUR);
    pair(&mut t);
    let err = t.add_player(shoutan_tournament::NewPlayer::ranked(
        "Late",
        "1k".parse().unwrap(),
    ));
    assert!(matches!(err, Err(TournamentError::RegistrationClosed(_))));
}
