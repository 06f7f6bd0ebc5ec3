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
//! matching; this pairer matches the whole field at once: up to 600 over
//! the complete graph, as OpenGotha does (so ties fall the same way),
//! beyond on a sparse candidate graph priced against the matching's duals
//! (see the weights module), which reaches the same optimum in far less
//! time and memory.
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
use crate::matching::{Cardinality, Edge, Matching, max_weight_matching};
use crate::pairing::DraftPair;
use crate::pairing::weights::{BLOCK, blocks, candidate_pairs, solve_sparse};
use crate::standings::{Standings, pairing_order};
use crate::{
    ColorChoice, Column, Criterion, HandicapBasis, HandicapRule, McMahon, OpenGothaParameters,
    Seeding, System, Tournament, mcmahon,
};
use shoutan_rules::Rank;

/// What the cost of a pair reads about one player before the round.
#[derive(Clone, Debug)]
struct Scored {
    /// OpenGotha's family then given name, in UTF-16 as Java reads it.
    name: Vec<u16>,
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
fn det_random(max: i64, a: &[u16], b: &[u16]) -> i64 {
    let inverse = a > b;
    let (first, second) = if inverse { (b, a) } else { (a, b) };
    let sum = first
        .iter()
        .chain(second)
        .enumerate()
        .fold(0i64, |s, (k, &c)| {
            s.wrapping_add(i64::from(c) * (k as i64 + 1))
        });
    let r = sum.wrapping_mul(1_234_567) % (max + 1);
    if inverse { max - r } else { r }
}

/// `weight · (1 − x)(1 + kx)`, truncated as OpenGotha does.
fn concave(weight: i64, x: f64, k: f64) -> i64 {
    (weight as f64 * (1.0 - x) * (1.0 + k * x)) as i64
}

/// Fields up to this size are matched over the complete graph, as
/// OpenGotha matches its groups of at most 600 (so ties fall as in
/// OpenGotha); larger ones, which OpenGotha would split, on a sparse graph
/// with pricing, which finds a matching of the same total cost.
const DENSE_UP_TO: usize = 600;

/// A bound that prices nothing out: for parameter sets the bounds do not
/// cover, and small enough that twice it plus a dual cannot overflow.
const UNBOUNDED: i64 = i64::MAX / 8;

/// Upper bounds of [`Costs::cost`] from its cheap parts, by the gap between
/// the pair's score groups, so that pricing computes few costs.
struct Bounds {
    /// Every term but colours, draw-ups and draw-downs, and seeding (cheap
    /// to compute for a pair) at its largest.
    gap: Vec<i64>,
    /// Those three terms too at their largest, seeding left out.
    block: Vec<i64>,
    /// The largest bound, seeding included, over this gap and every larger
    /// one (the score term need not fall with the gap when `nx1_factor` > 1).
    reach: Vec<i64>,
}

/// Pairs that price in kept per seat and pass, the most improving: the
/// first duals can price in millions of near-equal pairs, which would make
/// the next solve slow; a few per seat lead to the optimum in a few passes.
const PRICED_PER_SEAT: usize = 8;

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
        cost += self.balance(a, b);
        // Main: score difference.
        let gap = (s1.group - s2.group).abs();
        let x = gap as f64 / self.groups as f64;
        cost += concave(p.minimize_score_difference, x, k);
        cost += self.dudd(s1, s2);
        // Main: seeding inside the score group.
        if gap == 0 {
            let (g, c1, c2) = (s1.group_size, s1.inner, s2.inner);
            cost += self.seeding(c1, c2, g);
            if self.seed_system() == SeedSystem::SplitAndRandom && (2 * c1 < g) != (2 * c2 < g) {
                let range = (p.maximize_seeding as f64 * 0.2) as i64;
                cost -= det_random(range, &s1.name, &s2.name);
            }
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
        cost + self.geo(s1.country == s2.country, s1.club == s2.club)
    }

    /// The draw-up and draw-down term, between neighbouring groups.
    fn dudd(&self, s1: &Scored, s2: &Scored) -> i64 {
        let p = self.p;
        let gap = (s1.group - s2.group).abs();
        if gap >= 4 || gap == 0 {
            return 0;
        }
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
            if scenario != 0 && s.draw_ups > 0 && s.draw_downs < s.draw_ups && s.group < o.group {
                scenario += 1;
            }
            if scenario != 0 && s.draw_downs > 0 && s.draw_ups < s.draw_downs && s.group > o.group {
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
                w / 2 * (s.group_size - 1 - (2 * s.inner - s.group_size + 1).abs()) / s.group_size
            }
            DuddMode::Bot => w / 2 * s.inner / s.group_size,
        };
        let scenario = match scenario {
            0 => 0,
            1 => w,
            s if s == 2 || !p.compensate_dudd => 2 * w,
            3 => 3 * w,
            _ => 4 * w,
        };
        place(p.dudd_upper, upper) + place(p.dudd_lower, lower) + scenario
    }

    /// The colour term: an even game whose colours balance the players'.
    fn balance(&self, a: usize, b: usize) -> i64 {
        let (w1, w2) = (self.seats[a].wb, self.seats[b].wb);
        if self.game(a, b).0 != 0 {
            0
        } else if w1 * w2 < 0 {
            self.p.balance_wb
        } else if (w1 == 0 && w2.abs() >= 2) || (w2 == 0 && w1.abs() >= 2) {
            self.p.balance_wb / 2
        } else {
            0
        }
    }

    fn seed_system(&self) -> SeedSystem {
        if self.round < i64::from(self.p.last_round_for_seed_system1) {
            self.p.seed_system1
        } else {
            self.p.seed_system2
        }
    }

    /// The seeding term of places `c1` and `c2` in a score group of `g`;
    /// in split and random, its largest value (`cost` takes off the random
    /// part). With a non-negative weight it only grows as `c2` nears the
    /// ideal partner of `c1`.
    fn seeding(&self, c1: i64, c2: i64, g: i64) -> i64 {
        let max = self.p.maximize_seeding;
        match self.seed_system() {
            SeedSystem::SplitAndRandom if (2 * c1 < g) != (2 * c2 < g) => max,
            SeedSystem::SplitAndRandom => 0,
            SeedSystem::SplitAndFold => {
                let x = c1 + c2 - (g - 1);
                max - (max * x / (g - 1) * x / (g - 1))
            }
            SeedSystem::SplitAndSlip => {
                let x = 2 * (c1 - c2).abs() - g;
                max - (max * x / g * x / g)
            }
        }
    }

    /// The largest seeding term between place `c` and a place in `lo..=hi`
    /// of a group of `g`: at an end of the range or at the place nearest an
    /// ideal partner (the term falls away from it, see `seeding`).
    fn seeding_within(&self, c: i64, lo: i64, hi: i64, g: i64) -> i64 {
        let ideal = [
            g - 1 - c,
            c + g / 2,
            c - g / 2,
            c + (g + 1) / 2,
            c - (g + 1) / 2,
        ];
        [lo, hi]
            .into_iter()
            .chain(ideal.map(|q| q.clamp(lo, hi)))
            .map(|q| self.seeding(c, q, g))
            .max()
            .unwrap_or(0)
    }

    /// The club and country term (no clubs groups in Shoutan).
    fn geo(&self, same_country: bool, same_club: bool) -> i64 {
        let (p, k) = (self.p, self.p.nx1_factor);
        let scale = self.groups as f64;
        let country = if same_country || p.prefer_mms_diff_country == 0 {
            0.0
        } else {
            (f64::from(p.prefer_mms_diff_country) / scale).min(1.0)
        };
        let club = if same_club || p.prefer_mms_diff_club == 0 {
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
        geo_cost.min(p.avoid_same_geo)
    }

    /// The bounds for gaps up to `span`. Each term of `cost` at its largest,
    /// for non-negative weights and `nx1_factor` (OpenGotha's): the
    /// duplicate, random and colour bonuses at their weights; the handicap
    /// term at most `weight·(1 + k)`, as `(1 − x)(1 + kx) ≤ 1 + k` for every
    /// `x ≥ 0` (by at least `weight·x` when `x > 0`, far above rounding);
    /// club and country at the largest of their four cases; the score term
    /// exact for the gap; draw-ups and draw-downs at most `w/2` per place
    /// and `4w` for the scenario; seeding at its weight (see `seeding`).
    fn bounds(&self, span: usize) -> Bounds {
        let p = self.p;
        let k = p.nx1_factor;
        let weights = [
            p.avoid_duplicate,
            p.random,
            p.balance_wb,
            p.dudd_weight,
            p.maximize_seeding,
            p.minimize_handicap,
        ];
        let covered = weights.iter().all(|&w| w >= 0) && k >= 0.0;
        let geo = [(false, false), (false, true), (true, false), (true, true)]
            .map(|(country, club)| self.geo(country, club));
        let gap: Vec<i64> = (0..=span)
            .map(|d| {
                let x = d as f64 / self.groups as f64;
                let terms = [
                    1,
                    p.avoid_duplicate,
                    if p.deterministic { p.random } else { 0 },
                    (p.minimize_handicap as f64 * (1.0 + k)) as i64,
                    geo.into_iter().max().unwrap_or(0),
                    concave(p.minimize_score_difference, x, k),
                ];
                if covered {
                    terms
                        .into_iter()
                        .fold(0, i64::saturating_add)
                        .min(UNBOUNDED)
                } else {
                    UNBOUNDED
                }
            })
            .collect();
        let w = p.dudd_weight / 5;
        let block: Vec<i64> = (0..=span)
            .map(|d| {
                gap[d]
                    + p.balance_wb
                    + if (1..4).contains(&d) {
                        2 * (w / 2) + 4 * w
                    } else {
                        0
                    }
            })
            .collect();
        let mut reach = block.clone();
        reach[0] += p.maximize_seeding;
        for d in (0..span).rev() {
            reach[d] = reach[d].max(reach[d + 1]);
        }
        Bounds { gap, block, reach }
    }

    fn edge(&self, a: usize, b: usize) -> Edge {
        Edge {
            a: a as u32,
            b: b as u32,
            weight: self.cost(a, b),
        }
    }

    /// The heaviest perfect matching of the field (`None` if it is odd):
    /// over the complete graph up to `dense_up_to` seats, beyond on a
    /// sparse graph with pricing.
    fn matching(&self, dense_up_to: usize) -> Option<Matching> {
        let n = self.seats.len();
        if n % 2 == 1 {
            return None;
        }
        if n <= dense_up_to {
            let edges: Vec<Edge> = (0..n)
                .flat_map(|a| (a + 1..n).map(move |b| self.edge(a, b)))
                .collect();
            let mut matching = max_weight_matching(n, &edges, Cardinality::Any);
            if !matching.is_perfect() {
                matching = max_weight_matching(n, &edges, Cardinality::Maximum);
            }
            return matching.is_perfect().then_some(matching);
        }
        // The field by score group, then place in the group.
        let mut sorted: Vec<usize> = (0..n).collect();
        sorted.sort_by_key(|&a| (self.seats[a].group, self.seats[a].inner));
        let mut group = vec![(0, 0, 0); n];
        let mut start = 0;
        for run in sorted.chunk_by(|&a, &b| self.seats[a].group == self.seats[b].group) {
            for (place, &a) in run.iter().enumerate() {
                group[a] = (start, run.len(), place);
            }
            start += run.len();
        }
        let seeding = if self.seed_system() == SeedSystem::SplitAndFold {
            Seeding::Fold
        } else {
            Seeding::Slide
        };
        let first = candidate_pairs(&sorted, &group, seeding)
            .into_iter()
            .map(|(a, b)| self.edge(a, b))
            .collect();
        let span = sorted.last().map_or(0, |&a| self.seats[a].group)
            - sorted.first().map_or(0, |&a| self.seats[a].group);
        let bounds = self.bounds(span as usize);
        solve_sparse(
            n,
            first,
            |a, b| Some(self.edge(a, b)),
            |m, edges| self.price(&sorted, &group, &bounds, m, edges),
        )
    }

    /// Adds to `edges` the pairs whose reduced cost under the duals of `m`
    /// is negative (pairs that could improve the matching), the
    /// [`PRICED_PER_SEAT`] most negative of each seat's. A pair's cost is
    /// computed only when neither the bound of its block of partners nor
    /// its own (with its cheap terms exact) prices it out, so the whole
    /// field is checked.
    fn price(
        &self,
        sorted: &[usize],
        group: &[(usize, usize, usize)],
        bounds: &Bounds,
        m: &Matching,
        edges: &mut Vec<Edge>,
    ) {
        let (groups, overall) = blocks(sorted, group, m);
        let mut found: Vec<(i64, Edge)> = Vec::new();
        for (gi, &(start_i, g_i, _)) in groups.iter().enumerate() {
            for (p, &i) in sorted[start_i..start_i + g_i].iter().enumerate() {
                let (si, di) = (&self.seats[i], m.dual(i));
                found.clear();
                for &(start_j, g_j, ref least) in &groups[gi..] {
                    let members = &sorted[start_j..start_j + g_j];
                    let gap = (self.seats[members[0]].group - si.group) as usize;
                    if di + overall - 2 * bounds.reach[gap] >= 0 {
                        break; // no later group reaches a higher bound
                    }
                    // Seeding counts inside the group, for the partners
                    // after `i` only.
                    let same = gap == 0;
                    let seeding = |lo: usize, hi: usize| {
                        let (place, g) = (|j: usize| self.seats[j].inner, si.group_size);
                        if same {
                            self.seeding_within(si.inner, place(lo), place(hi), g)
                        } else {
                            0
                        }
                    };
                    for (b, &least) in least.iter().enumerate() {
                        let end = ((b + 1) * BLOCK).min(g_j);
                        let lo = if same {
                            (b * BLOCK).max(p + 1)
                        } else {
                            b * BLOCK
                        };
                        let block = &members[lo.min(end)..end];
                        let (Some(&first), Some(&last)) = (block.first(), block.last()) else {
                            continue;
                        };
                        // Reduced cost ≥ d(i) + d(j) − 2·bound.
                        if di + least - 2 * (bounds.block[gap] + seeding(first, last)) >= 0 {
                            continue;
                        }
                        for &j in block {
                            // With the blossoms' duals.
                            let sj = &self.seats[j];
                            let cheap = self.balance(i, j) + self.dudd(si, sj) + seeding(j, j);
                            if m.reduced_cost(i, j, bounds.gap[gap] + cheap) < 0 {
                                let e = self.edge(i, j);
                                let reduced = m.reduced_cost(i, j, e.weight);
                                if reduced < 0 {
                                    found.push((reduced, e));
                                }
                            }
                        }
                    }
                }
                if found.len() > PRICED_PER_SEAT {
                    found.select_nth_unstable_by_key(PRICED_PER_SEAT, |f| f.0);
                    found.truncate(PRICED_PER_SEAT);
                }
                edges.extend(found.iter().map(|f| f.1));
            }
        }
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
    let name16 = |i: usize| {
        let (family, given) = name(i);
        family.encode_utf16().chain(given.encode_utf16()).collect()
    };
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
                        wb += if g.color == Color::White { 1 } else { -1 };
                    }
                }
            }
            let rank = player.rank.map_or(-30, |r| i64::from(r.level()));
            Scored {
                name: name16(i),
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
    let matching = costs.matching(DENSE_UP_TO)?;
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
                    colors: if handicap > 0 {
                        ColorChoice::Handicap
                    } else {
                        ColorChoice::Pairing
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
        let a: Vec<u16> = "KimLucas".encode_utf16().collect();
        let b: Vec<u16> = "AbeYuki".encode_utf16().collect();
        for max in [1, 7, 1_000_000] {
            let (x, y) = (det_random(max, &a, &b), det_random(max, &b, &a));
            assert!((0..=max).contains(&x));
            assert_eq!(x + y, max);
        }
        assert_eq!(det_random(0, &a, &b), 0);
    }

    /// The sparse graph with pricing reaches the complete graph's optimum:
    /// the same total cost, Swiss and McMahon, on fields large enough for
    /// score groups above the first candidate graph's reach, every seeding
    /// system, from round 1 to rounds after random results.
    #[test]
    fn sparse_pricing_matches_the_complete_graph() {
        let mcmahon = System::McMahon(McMahon {
            bar: Rank::Dan(3),
            floor: Rank::Kyu(15),
            handicap: HandicapRule {
                basis: HandicapBasis::Mms,
                correction: 2,
                ceiling: 9,
                no_handicap_from: None,
            },
        });
        for (n, system, rounds, fold) in [
            (200, System::Swiss, 4, false),
            (300, mcmahon, 4, false),
            (400, mcmahon, 3, true),
            (700, System::Swiss, 3, true),
            (900, mcmahon, 3, false),
        ] {
            let mut settings = crate::Settings::new(system, None);
            settings.rounds = Some(rounds);
            settings.pairing_model = crate::PairingModel::OpenGotha;
            if fold {
                let mut params = settings.opengotha_parameters();
                params.pairing.seed_system2 = SeedSystem::SplitAndFold;
                settings.opengotha = Some(Box::new(params));
            }
            let mut t = Tournament::new("Priced", settings).expect("settings");
            for p in crate::sim::field(n, n as u64) {
                t.add_player(p).expect("player");
            }
            let mut rng = fastrand::Rng::with_seed(7);
            for number in 1..=rounds {
                let history = t.history(number - 1);
                let field = pairing_order(&t, number - 1);
                let params = t.settings().opengotha_parameters();
                let costs = costs(&t, &params, &history, number, &field);
                let total = |m: Matching| {
                    (0..n)
                        .filter_map(|a| m.mate(a).filter(|&b| a < b).map(|b| costs.cost(a, b)))
                        .sum::<i64>()
                };
                let dense = costs.matching(usize::MAX).expect("even field");
                let sparse = costs.matching(0).expect("even field");
                assert_eq!(total(sparse), total(dense), "{n} players, round {number}");
                t.pair_next_round().expect("a pairing");
                crate::sim::play_last_round(&mut t, &mut rng).expect("results");
            }
        }
    }
}
