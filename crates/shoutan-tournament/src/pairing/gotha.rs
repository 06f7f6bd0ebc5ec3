//! OpenGotha-compatible Swiss and McMahon pairing
//! ([`crate::PairingModel::OpenGotha`]): every pair of the field is given
//! OpenGotha's cost from the event's OpenGotha parameters, and the heaviest
//! matching is taken, so a round comes out as OpenGotha would pair it.
//!
//! The criteria, their weights and the arithmetic (integer divisions, the
//! `(1 − x)(1 + kx)` concavity, the deterministic "random" from the names)
//! follow OpenGotha 3.51's documentation ("Pairing evaluation function") and
//! its public source (lucvannier/opengotha, GPL v3, `Tournament.costValue`,
//! `fillPairingInfo`, `gameBetween`): facts learnt from it, written anew.
//! Its fields of more than 600 players are split into groups before
//! matching; this pairer matches the whole field at once.
//!
//! Base criteria: no rematch, the random term, colour balance. Main
//! criteria: categories (one here), score difference, draw-ups and
//! draw-downs, seeding inside the score group. Secondary criteria (with
//! thresholds above which they do not apply): handicap, then club and
//! country.

use std::collections::HashMap;

use shoutan_rules::Color;

use crate::gotha_parameters::{DuddMode, GothaPairing, SeedSystem};
use crate::history::{Entry, History};
use crate::matching::{Cardinality, Edge, max_weight_matching};
use crate::pairing::DraftPair;
use crate::standings::{Standings, pairing_order};
use crate::{
    ColourChoice, Column, Criterion, HandicapBasis, HandicapRule, McMahon, OpenGothaParameters,
    System, Tournament, mcmahon,
};
use shoutan_rules::Rank;

/// What the cost of a pair reads about one player before the round.
#[derive(Clone, Debug)]
struct Scored {
    /// OpenGotha's family and given name.
    name: (String, String),
    rank: i64,
    /// Twice the McMahon score and twice the number of wins.
    mms2: i64,
    nbw2: i64,
    /// The starting McMahon score.
    smms: i64,
    group: i64,
    group_size: i64,
    /// Place inside the score group, from 0.
    inner: i64,
    draw_ups: u32,
    draw_downs: u32,
    /// Whites minus blacks in even games.
    wb: i64,
    club: String,
    country: String,
}

/// The event's McMahon bar and floor: its own, or (Swiss) the ones in its
/// OpenGotha parameters (OpenGotha counts McMahon scores in every event).
fn bar_floor(t: &Tournament, params: &OpenGothaParameters) -> McMahon {
    if let System::McMahon(m) = t.settings().system {
        return m;
    }
    let rank = |k: &str, default: Rank| {
        params
            .general(k)
            .and_then(|v| v.parse::<Rank>().ok())
            .unwrap_or(default)
    };
    McMahon {
        bar: rank("genMMBar", Rank::Dan(9)),
        floor: rank("genMMFloor", Rank::Kyu(30)),
        handicap: HandicapRule::NONE,
    }
}

/// Twice each entrant's McMahon score after `upto` rounds.
pub(crate) fn mms2(t: &Tournament, history: &History, i: usize, upto: u32) -> i64 {
    let m = bar_floor(t, &t.settings().opengotha_parameters());
    mcmahon::mms_half(t, history, m, i, upto)
}

/// OpenGotha's deterministic random number in `0..=max` for two players:
/// from the characters of their names, reversed when given in the other
/// order.
fn det_random(max: i64, a: &(String, String), b: &(String, String)) -> i64 {
    let (na, nb) = (format!("{}{}", a.0, a.1), format!("{}{}", b.0, b.1));
    let na16: Vec<u16> = na.encode_utf16().collect();
    let nb16: Vec<u16> = nb.encode_utf16().collect();
    let inverse = na16 > nb16;
    let joined: Vec<u16> = if inverse {
        [nb16, na16].concat()
    } else {
        [na16, nb16].concat()
    };
    let sum = joined.iter().enumerate().fold(0i64, |s, (k, &c)| {
        s.wrapping_add(i64::from(c) * (k as i64 + 1))
    });
    let r = sum.wrapping_mul(1_234_567) % (max + 1);
    if inverse { max - r } else { r }
}

/// `weight · (1 − x)(1 + kx)`, truncated as OpenGotha does.
fn concave(weight: i64, x: f64, k: f64) -> i64 {
    (weight as f64 * (1.0 - x) * (1.0 + k * x)) as i64
}

struct Costs<'a> {
    p: &'a GothaPairing,
    seats: Vec<Scored>,
    /// Games already played between two entrants.
    met: HashMap<(usize, usize), u32>,
    groups: i64,
    round: i64,
    rounds: i64,
    mcmahon: bool,
    bar: i64,
    floor: i64,
    hd: Option<HandicapRule>,
}

impl Costs<'_> {
    /// The handicap and who takes white: `Some(true)` when `a` does.
    fn game(&self, a: usize, b: usize) -> (u8, Option<bool>) {
        let (sa, sb) = (&self.seats[a], &self.seats[b]);
        if let Some(rule) = self.hd {
            let key = |s: &Scored| match rule.basis {
                HandicapBasis::Rank => s.rank,
                HandicapBasis::Mms => s.mms2 / 2 - 30,
            };
            let h = rule.between(key(sa), key(sb));
            if h > 0 {
                let top = rule
                    .no_handicap_from
                    .map_or(i64::MAX, |r| i64::from(r.level()));
                return (h, Some(key(sa).min(top) > key(sb).min(top)));
            }
        }
        (0, None)
    }

    fn cost(&self, a: usize, b: usize) -> i64 {
        let p = self.p;
        let (s1, s2) = (&self.seats[a], &self.seats[b]);
        let k = p.nx1_factor;
        let mut cost = 1;
        // Base: no rematch, the random term, colour balance.
        if !self.met.contains_key(&(a.min(b), a.max(b))) {
            cost += p.avoid_duplicate;
        }
        if p.deterministic {
            cost += det_random(p.random, &s1.name, &s2.name);
        }
        if self.game(a, b).0 == 0 {
            let (w1, w2) = (s1.wb, s2.wb);
            if w1 * w2 < 0 {
                cost += p.balance_wb;
            } else if (w1 == 0 && w2.abs() >= 2) || (w2 == 0 && w1.abs() >= 2) {
                cost += p.balance_wb / 2;
            }
        }
        // Main: score difference.
        let gap = (s1.group - s2.group).abs();
        let x = gap as f64 / self.groups as f64;
        cost += concave(p.minimize_score_difference, x, k);
        // Main: draw-ups and draw-downs between neighbouring groups.
        if gap < 4 && gap != 0 {
            let mut scenario = 2;
            for (s, o) in [(s1, s2), (s2, s1)] {
                if s.draw_ups > 0 && s.group > o.group {
                    scenario -= 1;
                }
                if s.draw_downs > 0 && s.group < o.group {
                    scenario -= 1;
                }
            }
            for (s, o) in [(s1, s2), (s2, s1)] {
                if scenario != 0 && s.draw_ups > 0 && s.draw_downs < s.draw_ups && s.group < o.group
                {
                    scenario += 1;
                }
                if scenario != 0
                    && s.draw_downs > 0
                    && s.draw_ups < s.draw_downs
                    && s.group > o.group
                {
                    scenario += 1;
                }
            }
            let w = p.dudd_weight / 5;
            let (upper, lower) = if s1.group < s2.group {
                (s1, s2)
            } else {
                (s2, s1)
            };
            let place = |mode: DuddMode, s: &Scored| match mode {
                DuddMode::Top => w / 2 * (s.group_size - 1 - s.inner) / s.group_size,
                DuddMode::Mid => {
                    w / 2 * (s.group_size - 1 - (2 * s.inner - s.group_size + 1).abs())
                        / s.group_size
                }
                DuddMode::Bot => w / 2 * s.inner / s.group_size,
            };
            let mut dudd = place(p.dudd_upper, upper) + place(p.dudd_lower, lower);
            dudd += match scenario {
                0 => 0,
                1 => w,
                s if s == 2 || !p.compensate_dudd => 2 * w,
                3 => 3 * w,
                _ => 4 * w,
            };
            cost += dudd;
        }
        // Main: seeding inside the score group.
        if gap == 0 {
            let (g, c1, c2) = (s1.group_size, s1.inner, s2.inner);
            let max = p.maximize_seeding;
            let system = if self.round < i64::from(p.last_round_for_seed_system1) {
                p.seed_system1
            } else {
                p.seed_system2
            };
            cost += match system {
                SeedSystem::SplitAndRandom => {
                    if (2 * c1 < g) != (2 * c2 < g) {
                        let range = (max as f64 * 0.2) as i64;
                        max - det_random(range, &s1.name, &s2.name)
                    } else {
                        0
                    }
                }
                SeedSystem::SplitAndFold => {
                    let x = c1 + c2 - (g - 1);
                    max - (max * x / (g - 1) * x / (g - 1))
                }
                SeedSystem::SplitAndSlip => {
                    let x = 2 * (c1 - c2).abs() - g;
                    max - (max * x / g * x / g)
                }
            };
        }
        // Secondary: players above the thresholds count as the top score.
        let wins_threshold = if p.nb_wins_threshold_active {
            self.rounds
        } else {
            2 * self.rounds
        };
        let top = self.bar + 2 + 30 + self.round;
        let pseudo = |s: &Scored| {
            let strong = 2 * s.rank + s.nbw2 >= 2 * i64::from(p.rank_threshold.level());
            let many_wins = s.nbw2 >= wins_threshold;
            let above_bar = s.smms >= self.bar + 30 && p.bar_threshold_active;
            if strong || many_wins || above_bar {
                top
            } else {
                s.mms2 / 2
            }
        };
        let range = if self.mcmahon {
            self.groups
        } else {
            self.bar - self.floor + 3 + self.round
        };
        let x = (pseudo(s1) - pseudo(s2)).abs() as f64 / range as f64;
        cost += concave(p.minimize_handicap, x, k);
        // Secondary: club and country (no clubs groups in Shoutan).
        let scale = self.groups as f64;
        let country = if s1.country == s2.country || p.prefer_mms_diff_country == 0 {
            0.0
        } else {
            (f64::from(p.prefer_mms_diff_country) / scale).min(1.0)
        };
        let club = if s1.club == s2.club || p.prefer_mms_diff_club == 0 {
            0.0
        } else {
            (f64::from(p.prefer_mms_diff_club) * 1.2 / scale).min(1.0)
        };
        let mut geo = country.max(club) + country.min(club) / 2.0;
        if geo > 0.0 {
            geo += 0.5 / scale;
        }
        let geo_cost = p.minimize_score_difference
            - (p.avoid_same_geo as f64 * (1.0 - geo) * (1.0 + k * geo)) as i64;
        cost + geo_cost.min(p.avoid_same_geo)
    }
}

/// OpenGotha's value of a placement column for the pairing order.
fn column_values(s: &Standings) -> HashMap<usize, Vec<crate::Value>> {
    let keep: Vec<usize> = s
        .columns
        .iter()
        .enumerate()
        .filter(|(_, c)| **c != Column::Criterion(Criterion::Direct))
        .map(|(k, _)| k)
        .collect();
    s.rows
        .iter()
        .map(|r| {
            (
                crate::history::entrant_index(r.entrant),
                keep.iter().map(|&k| r.values[k]).collect(),
            )
        })
        .collect()
}

/// OpenGotha's view of the field (entrant indices in the previous
/// standings' order) before round `number`: every seat's scores, groups,
/// floats and colours, ready to price pairs.
fn costs<'a>(
    t: &Tournament,
    params: &'a OpenGothaParameters,
    history: &History,
    number: u32,
    field: &[usize],
) -> Costs<'a> {
    let p = &params.pairing;
    let m = bar_floor(t, params);
    let mcmahon = matches!(t.settings().system, System::McMahon(_));
    let round = i64::from(number) - 1;
    let count = t.players().len();
    let before = number - 1;
    let main2 = |i: usize, upto: u32| {
        if mcmahon {
            mcmahon::mms_half(t, history, m, i, upto)
        } else {
            i64::from(history.points_after(i, upto))
        }
    };
    let (bar, floor) = (i64::from(m.bar.level()), i64::from(m.floor.level()));
    let (min_score, max_score) = if mcmahon {
        (floor - 1 + 30, bar + 2 + round + 30)
    } else {
        (0, round)
    };
    let groups = max_score - min_score + 1;
    // Every registered player is placed in a score group, in the order of
    // the standings' criteria then the additional criterion, then names.
    let values = column_values(&Standings::compute(t, before));
    let additional = if number <= p.last_round_for_seed_system1 {
        &p.additional_criterion1
    } else {
        &p.additional_criterion2
    };
    let extra = |i: usize| {
        let player = &t.players()[i];
        match additional.to_lowercase().as_str() {
            "rating" => i64::from(player.gotha_rating()),
            "rank" => player.rank.map_or(-30, |r| i64::from(r.level())),
            _ => 0,
        }
    };
    let name = |i: usize| t.players()[i].family_and_given();
    let mut by_group: HashMap<i64, Vec<usize>> = HashMap::new();
    for i in 0..count {
        by_group.entry(main2(i, before) / 2).or_default().push(i);
    }
    let mut inner = vec![(0i64, 0i64, 0i64); count];
    for (score, mut members) in by_group {
        members.sort_by(|&a, &b| {
            values[&b]
                .cmp(&values[&a])
                .then(extra(b).cmp(&extra(a)))
                .then(name(a).cmp(&name(b)))
        });
        let size = members.len() as i64;
        for (k, &i) in members.iter().enumerate() {
            inner[i] = (max_score - score, size, k as i64);
        }
    }
    let seats: Vec<Scored> = field
        .iter()
        .map(|&i| {
            let player = &t.players()[i];
            let (mut ups, mut downs) = (0, 0);
            let mut wb = 0;
            for (r, entry) in history.rows[i].iter().enumerate().take(before as usize) {
                if let Entry::Game(g) = entry {
                    let (own, opp) = (main2(i, r as u32) / 2, main2(g.opponent, r as u32) / 2);
                    ups += u32::from(own < opp);
                    downs += u32::from(own > opp);
                    if g.handicap == 0 {
                        wb += if g.colour == Color::White { 1 } else { -1 };
                    }
                }
            }
            let rank = player.rank.map_or(-30, |r| i64::from(r.level()));
            Scored {
                name: name(i),
                rank,
                mms2: mms2(t, history, i, before),
                nbw2: i64::from(history.points_after(i, before)),
                smms: rank.clamp(floor, bar) + 30,
                group: inner[i].0,
                group_size: inner[i].1,
                inner: inner[i].2,
                draw_ups: ups,
                draw_downs: downs,
                wb,
                club: player.club.clone().unwrap_or_default().to_lowercase(),
                country: player.country.clone().unwrap_or_default().to_lowercase(),
            }
        })
        .collect();
    let seat_of: HashMap<usize, usize> = field.iter().enumerate().map(|(s, &i)| (i, s)).collect();
    let mut met = HashMap::new();
    for (s, &i) in field.iter().enumerate() {
        for o in history.games(i).map(|g| g.opponent) {
            if let Some(&so) = seat_of.get(&o) {
                *met.entry((s.min(so), s.max(so))).or_insert(0) += 1;
            }
        }
    }
    Costs {
        p,
        seats,
        met,
        groups,
        round,
        rounds: i64::from(t.settings().rounds.unwrap_or(number)),
        mcmahon,
        bar,
        floor,
        hd: match t.settings().system {
            System::McMahon(m) if m.handicap.ceiling > 0 => Some(m.handicap),
            _ => None,
        },
    }
}

/// The sum of OpenGotha's costs of `pairs` (entrant indices) in round
/// `number`: the quantity OpenGotha's pairing maximises.
pub(crate) fn total_cost(t: &Tournament, number: u32, pairs: &[(usize, usize)]) -> i64 {
    let history = t.history(number - 1);
    let previous = pairing_order(t, number - 1);
    let mut field: Vec<usize> = pairs.iter().flat_map(|&(a, b)| [a, b]).collect();
    field.sort_by_key(|i| previous.iter().position(|p| p == i));
    let params = t.settings().opengotha_parameters();
    let costs = costs(t, &params, &history, number, &field);
    let seat = |i: usize| field.iter().position(|&f| f == i).unwrap_or(0);
    pairs
        .iter()
        .map(|&(a, b)| costs.cost(seat(a), seat(b)))
        .sum()
}

/// Pairs `field` (entrant indices in the previous standings' order, the
/// bye already taken out) for round `number` as OpenGotha would, in table
/// order: the pair with the best score first.
pub(crate) fn pair(
    t: &Tournament,
    history: &History,
    number: u32,
    field: &[usize],
) -> Option<Vec<DraftPair>> {
    let params = t.settings().opengotha_parameters();
    let costs = costs(t, &params, history, number, field);
    let n = field.len();
    let edges: Vec<Edge> = (0..n)
        .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
        .map(|(a, b)| Edge {
            a: a as u32,
            b: b as u32,
            weight: costs.cost(a, b),
        })
        .collect();
    let mut matching = max_weight_matching(n, &edges, Cardinality::Any);
    if !matching.is_perfect() {
        matching = max_weight_matching(n, &edges, Cardinality::Maximum);
    }
    if !matching.is_perfect() {
        return None;
    }
    let mut pairs: Vec<(usize, usize)> = (0..n)
        .filter_map(|a| matching.mate(a).filter(|&b| a < b).map(|b| (a, b)))
        .collect();
    let best = |a: usize| {
        let s = &costs.seats[a];
        (s.mms2.max(s.nbw2), t.players()[field[a]].gotha_rating())
    };
    pairs.sort_by_key(|&(a, b)| std::cmp::Reverse(best(a).max(best(b))));
    Some(
        pairs
            .into_iter()
            .map(|(a, b)| {
                let (s1, s2) = (&costs.seats[a], &costs.seats[b]);
                let (handicap, a_white) = match costs.game(a, b) {
                    (h, Some(w)) => (h, w),
                    (_, None) if s1.wb != s2.wb => (0, s1.wb < s2.wb),
                    _ => (0, det_random(1, &s1.name, &s2.name) == 0),
                };
                let (white, black) = if a_white {
                    (field[a], field[b])
                } else {
                    (field[b], field[a])
                };
                DraftPair {
                    black: black as u32,
                    white: white as u32,
                    handicap,
                    colours: if handicap > 0 {
                        ColourChoice::Handicap
                    } else {
                        ColourChoice::Pairing
                    },
                    preset: None,
                }
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The deterministic random term is symmetric in the way OpenGotha's
    /// is: swapping the players gives the complement.
    #[test]
    fn det_random_complements_when_swapped() {
        let a = ("Kim".to_owned(), "Lucas".to_owned());
        let b = ("Abe".to_owned(), "Yuki".to_owned());
        for max in [1, 7, 1_000_000] {
            let (x, y) = (det_random(max, &a, &b), det_random(max, &b, &a));
            assert!((0..=max).contains(&x));
            assert_eq!(x + y, max);
        }
        assert_eq!(det_random(0, &a, &b), 0);
    }
}
