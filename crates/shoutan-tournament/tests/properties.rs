//! Properties of Swiss and McMahon events generated from a seed: hundreds
//! of players, every round paired and played with random results, a few
//! withdrawals and absences along the way.

#![allow(clippy::unwrap_used)] // test code: a failed setup is a test failure

use std::collections::{HashMap, HashSet};

use proptest::prelude::*;
use shoutan_rules::Color;
use shoutan_tournament::{
    Criterion, Entrant, HandicapBasis, HandicapRule, McMahon, PlayerId, PlayerResult, Seeding,
    Settings, System, TeamFormat, TeamSettings, Tournament, Value, sim,
};

fn system(mcmahon: bool) -> System {
    if mcmahon {
        System::McMahon(McMahon {
            bar: "2d".parse().unwrap(),
            floor: "15k".parse().unwrap(),
            handicap: HandicapRule {
                basis: HandicapBasis::Mms,
                correction: 2,
                ceiling: 9,
                no_handicap_from: None,
            },
        })
    } else {
        System::Swiss
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    #[test]
    fn generated_events_keep_every_pairing_rule(
        n in 150usize..420,
        rounds in 4u32..9,
        seed in any::<u64>(),
        mcmahon in any::<bool>(),
        fold in any::<bool>(),
        avoid_club in any::<bool>(),
    ) {
        let mut settings = Settings::new(system(mcmahon), None);
        settings.rounds = Some(rounds);
        settings.seed = seed;
        settings.seeding = if fold { Seeding::Fold } else { Seeding::Slide };
        settings.avoid_same_club = avoid_club;
        if !mcmahon {
            settings.criteria = vec![Criterion::Points, Criterion::Sos, Criterion::SosMinus1, Criterion::Cuss, Criterion::Warnings];
        }
        let mut t = Tournament::new("Generated", settings).unwrap();
        for p in sim::field(n, seed) {
            t.add_player(p).unwrap();
        }
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut met: HashSet<(u32, u32)> = HashSet::new();
        let mut byes: HashMap<u32, u32> = HashMap::new();
        for r in 1..=rounds {
            if r > 1 && rng.u8(0..3) == 0 {
                let victim = shoutan_tournament::PlayerId(rng.u32(0..n as u32));
                let _ = t.withdraw(Entrant::Player(victim));
            }
            let round = t.pair_next_round().unwrap().clone();
            // Every player who plays this round is paired exactly once.
            let mut seen = HashSet::new();
            for g in &round.games {
                prop_assert!(seen.insert(g.black.0) && seen.insert(g.white.0), "paired twice in round {}", r);
                // No rematch: with hundreds of players one is always avoidable.
                let key = (g.black.0.min(g.white.0), g.black.0.max(g.white.0));
                prop_assert!(met.insert(key), "rematch {:?} in round {}", key, r);
            }
            for b in &round.byes {
                let Entrant::Player(p) = b.entrant else { unreachable!() };
                prop_assert!(seen.insert(p.0));
                let count = byes.entry(p.0).or_default();
                *count += 1;
                // Byes never repeat while someone has had none.
                prop_assert_eq!(*count, 1, "second bye in round {}", r);
            }
            for p in t.players() {
                prop_assert_eq!(seen.contains(&p.id.0), p.plays_in(r), "{} in round {}", p.name, r);
            }
            sim::play_last_round(&mut t, &mut rng).unwrap();
            // Colour differences stay within 2 over even games.
            let mut balance: HashMap<u32, i32> = HashMap::new();
            for (_, g) in t.games() {
                let played = g.outcome.is_some_and(|o| o.for_color(Color::Black).met());
                if g.handicap == 0 && played {
                    *balance.entry(g.black.0).or_default() += 1;
                    *balance.entry(g.white.0).or_default() -= 1;
                }
            }
            prop_assert!(balance.values().all(|b| b.abs() <= 2), "colour difference above 2 after round {}", r);
        }
        // Standings follow the declared order.
        let s = t.standings();
        for w in s.rows.windows(2) {
            prop_assert!(w[0].values >= w[1].values, "{} before {}", w[0].name, w[1].name);
            prop_assert!(w[0].place <= w[1].place);
        }
        // Results add up: total points equal two per decided game plus byes.
        let games_points: u32 = t
            .games()
            .map(|(_, g)| g.outcome.map_or(0, |o| o.for_color(Color::Black).points() + o.for_color(Color::White).points()))
            .sum();
        let bye_points: u32 = t.rounds().iter().flat_map(|r| &r.byes).map(|b| u32::from(b.points)).sum();
        let total: u32 = s.rows.iter().map(|row| {
            row.cells.iter().map(|c| match c {
                shoutan_tournament::Cell::Game { result: Some(r), .. } => PlayerResult::points(*r),
                shoutan_tournament::Cell::Bye(p) => u32::from(*p),
                _ => 0,
            }).sum::<u32>()
        }).sum();
        prop_assert_eq!(total, games_points + bye_points);
    }

    /// The same input gives the same pairing.
    #[test]
    fn pairing_is_deterministic(n in 20usize..200, seed in any::<u64>(), mcmahon in any::<bool>()) {
        let build = || {
            let mut settings = Settings::new(system(mcmahon), None);
            settings.rounds = Some(3);
            settings.seed = seed;
            let mut t = Tournament::new("Twice", settings).unwrap();
            for p in sim::field(n, seed) {
                t.add_player(p).unwrap();
            }
            let mut rng = fastrand::Rng::with_seed(seed);
            for _ in 0..3 {
                t.pair_next_round().unwrap();
                sim::play_last_round(&mut t, &mut rng).unwrap();
            }
            t
        };
        prop_assert_eq!(build(), build());
    }

    /// Team total score over generated fields in teams of 2 to 5: teammates
    /// never meet (with dozens of teams it is always avoidable), and the
    /// team standings add up the counted members' points, best first.
    #[test]
    fn team_total_events_keep_teammates_apart(
        n in 60usize..200,
        rounds in 3u32..7,
        seed in any::<u64>(),
        mcmahon in any::<bool>(),
        counted in 1u8..3,
    ) {
        let mut settings = Settings::new(system(mcmahon), Some(TeamSettings { boards: counted, format: TeamFormat::TotalScore }));
        settings.rounds = Some(rounds);
        settings.seed = seed;
        settings.avoid_teammates = true;
        let mut t = Tournament::new("Generated teams", settings).unwrap();
        let ids: Vec<PlayerId> = sim::field(n, seed).into_iter().map(|p| t.add_player(p).unwrap()).collect();
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut start = 0;
        while start < ids.len() {
            let size = rng.usize(2..=5).min(ids.len() - start).max(1);
            let members = &ids[start..start + size];
            if members.len() >= usize::from(counted) {
                t.add_team(&format!("Team {start}"), members).unwrap();
            }
            start += size;
        }
        for r in 1..=rounds {
            let round = t.pair_next_round().unwrap().clone();
            for g in &round.games {
                let team = |p: PlayerId| t.player(p).unwrap().team;
                prop_assert!(team(g.black).is_none() || team(g.black) != team(g.white), "teammates in round {}", r);
            }
            sim::play_last_round(&mut t, &mut rng).unwrap();
        }
        let s = t.standings();
        let teams = t.team_standings(&s).unwrap();
        prop_assert_eq!(teams.rows.len(), t.teams().len());
        let points = |p: PlayerId| t.games().map(|(_, g)| match g.color_of(p) {
            Some(c) => g.outcome.map_or(0, |o| o.for_color(c).points()),
            None => 0,
        }).sum::<u32>() + t.rounds().iter().flat_map(|r| &r.byes).filter(|b| b.entrant == Entrant::Player(p)).map(|b| u32::from(b.points)).sum::<u32>();
        for w in teams.rows.windows(2) {
            prop_assert!(w[0].values >= w[1].values, "{} before {}", w[0].name, w[1].name);
        }
        for row in &teams.rows {
            prop_assert_eq!(row.members.len(), usize::from(counted));
            let sum: u32 = row.members.iter().map(|&p| points(p)).sum();
            prop_assert_eq!(row.values[0], Value::int(i64::from(sum)));
            // The counted members are the team's best placed.
            let Entrant::Team(id) = row.entrant else { unreachable!() };
            let place = |p: &PlayerId| s.row(Entrant::Player(*p)).unwrap().place;
            let worst_counted = row.members.iter().map(place).max().unwrap();
            for m in &t.teams()[id.index()].members {
                if !row.members.contains(m) {
                    prop_assert!(place(m) >= worst_counted);
                }
            }
        }
    }
}

/// A field of 10,001 (a national grading day, an open online Swiss) paired
/// whole, as one matching, round after round: everyone present is paired
/// once, nobody meets twice, the bye goes to a different player each round
/// and colour differences stay within 2. `bench pairing --players 10000`
/// measures its speed; this proves the pairing.
#[test]
fn ten_thousand_entrants_pair_in_one_field() {
    let n = 10_001;
    let mut settings = Settings::new(system(true), None);
    settings.rounds = Some(4);
    settings.seed = 7;
    let mut t = Tournament::new("Open", settings).unwrap();
    for p in sim::field(n, 7) {
        t.add_player(p).unwrap();
    }
    let mut rng = fastrand::Rng::with_seed(7);
    let mut met: HashSet<(u32, u32)> = HashSet::new();
    let mut bye_takers: HashSet<u32> = HashSet::new();
    let mut balance: HashMap<u32, i32> = HashMap::new();
    for r in 1..=4 {
        let round = t.pair_next_round().unwrap().clone();
        assert_eq!(round.games.len(), n / 2, "round {r}");
        let mut seen = HashSet::new();
        for g in &round.games {
            assert!(seen.insert(g.black.0) && seen.insert(g.white.0));
            let key = (g.black.0.min(g.white.0), g.black.0.max(g.white.0));
            assert!(met.insert(key), "rematch {key:?} in round {r}");
            if g.handicap == 0 {
                *balance.entry(g.black.0).or_default() += 1;
                *balance.entry(g.white.0).or_default() -= 1;
            }
        }
        let [bye] = round.byes.as_slice() else {
            panic!("round {r} has {} byes", round.byes.len());
        };
        let Entrant::Player(p) = bye.entrant else {
            unreachable!()
        };
        assert!(
            seen.insert(p.0) && bye_takers.insert(p.0),
            "bye {p} in round {r}"
        );
        assert_eq!(seen.len(), n);
        assert!(balance.values().all(|b| b.abs() <= 2), "round {r}");
        sim::play_last_round(&mut t, &mut rng).unwrap();
    }
}
