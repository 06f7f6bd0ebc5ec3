//! Swiss and McMahon pairing as one maximum-weight perfect matching over
//! the whole field, never split into groups.
//!
//! Each candidate pair gets a cost built from the criteria in priority
//! order:
//! 1. a rematch, or two teammates where the organiser asks (team total
//!    score): forbidden while a pairing without one exists;
//! 2. a colour clash that would take a player's colour difference to 3
//!    (forbidden while avoidable);
//! 3. the score difference, squared (so two small floats beat one large);
//! 4. a float in the same direction as last round (floats compensated);
//! 5. same club, same country (when the organiser asks);
//! 6. the handicap the pair would need (McMahon);
//! 7. seeding inside the score group: split, then slide or fold;
//! 8. colour preferences (both due the same colour), as OpenGotha ranks
//!    colour balance below seeding (a colour difference of 3 is criterion 2).
//!
//! Criteria 1 and 2 are strict: the matching is solved with the pairs that
//! break them left out, and only if no perfect matching exists is it solved
//! again with them allowed at a cost above any sum of the lower criteria
//! (so the number of rematches and teammate pairs, then of colour clashes,
//! is the least possible). Criteria 3–8 are weighted so that a higher one outweighs the
//! lower ones for a pair, as OpenGotha's weights do.
//!
//! Solving: a sparse candidate graph (each player's neighbours in the
//! ranking and seeding partners, and every pair between a small score group
//! and the groups beside it) is matched first; then
//! every pair of the field is priced against the dual solution, and pairs
//! that could improve the matching are added and the graph is solved again.
//! When no pair can improve it, the matching is optimal over the complete
//! graph (LP duality), so the sparse graph is a speed-up, never an
//! approximation.

use shoutan_rules::Color;

use crate::matching::{Edge, Matching, max_weight_perfect_matching};
use crate::{HandicapRule, Seeding};

/// One player (or team) to pair.
#[derive(Clone, Debug, Default)]
pub(crate) struct Seat {
    /// Score in half points (points 2/1/0, or twice the McMahon score).
    pub score: i64,
    /// Place in the initial order (0 strongest): rank, rating, registration.
    pub order: u32,
    /// Seats already met, sorted.
    pub met: Vec<u32>,
    /// Blacks minus whites in even games.
    pub balance: i32,
    /// Colour of the last even game.
    pub last: Option<Color>,
    /// The colour of the last two even games, when both were the same.
    pub streak: Option<Color>,
    /// Last round's float: 1 up (met a higher score), −1 down, 0 none.
    pub float: i8,
    /// Club and country codes (0: none).
    pub club: u32,
    /// Country code (0: none).
    pub country: u32,
    /// Team code (0: none), for team total-score events.
    pub team: u32,
    /// What handicaps follow, on the rank scale (1d = 0): the rank level,
    /// or the whole McMahon score less 30.
    pub handicap_key: i64,
}

impl Rules {
    /// The handicap of a pair of seats (0: even game).
    pub fn handicap(&self, a: &Seat, b: &Seat) -> u8 {
        self.handicap
            .map_or(0, |r| r.between(a.handicap_key, b.handicap_key))
    }
}

/// What the costs consider.
#[derive(Clone, Debug)]
pub(crate) struct Rules {
    pub seeding: Seeding,
    pub avoid_club: bool,
    pub avoid_country: bool,
    /// Teammates count as a rematch.
    pub avoid_team: bool,
    /// Colours matter for pairs with no handicap.
    pub balance_colors: bool,
    /// Nobody gets one colour three games running while avoidable (chess,
    /// xiangqi): two players due the same colour by a streak clash.
    pub no_third_color_in_a_row: bool,
    /// Handicaps (McMahon), from the seats' `handicap_key` difference.
    pub handicap: Option<HandicapRule>,
}

/// Which strict criteria are enforced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// No rematch, no colour clash.
    Strict,
    /// No rematch; clashes cost.
    NoRematch,
    /// Everything allowed; rematches and clashes cost.
    Relaxed,
}

impl Stage {
    /// The constant weights are measured from: above every cost of the stage.
    fn top(self) -> i64 {
        match self {
            Stage::Strict => 1 << 43,
            Stage::NoRematch => 1 << 55,
            Stage::Relaxed => 1 << 45,
        }
    }
}

struct Field<'a> {
    seats: &'a [Seat],
    rules: &'a Rules,
    /// For each seat: first index of its score group in `sorted`, the group
    /// size and its place in the group.
    group: Vec<(usize, usize, usize)>,
    /// Seat indices by score (descending) then order.
    sorted: Vec<usize>,
    /// Place of each seat in `sorted`.
    rank: Vec<usize>,
}

#[derive(Default)]
struct Parts {
    rematch: u64,
    clash: bool,
    score: u64,
    float: u64,
    geo: u64,
    handicap: u64,
    color: u64,
    seeding: u64,
}

impl Field<'_> {
    fn parts(&self, i: usize, j: usize) -> Parts {
        let (a, b) = (&self.seats[i], &self.seats[j]);
        let teammates = self.rules.avoid_team && a.team != 0 && a.team == b.team;
        let mut p = Parts {
            rematch: a.met.iter().filter(|&&m| m as usize == j).count() as u64
                + u64::from(teammates),
            ..Parts::default()
        };
        let delta = (a.score - b.score).unsigned_abs();
        p.score = (delta * delta).min(8191);
        let (hi, lo) = if a.score >= b.score { (a, b) } else { (b, a) };
        if delta > 0 {
            p.float = u64::from(hi.float < 0) + u64::from(lo.float > 0);
        }
        if self.rules.avoid_club && a.club != 0 && a.club == b.club {
            p.geo += 2;
        }
        if self.rules.avoid_country && a.country != 0 && a.country == b.country {
            p.geo += 1;
        }
        let h = self.rules.handicap(a, b);
        p.handicap = u64::from(h);
        if self.rules.balance_colors && h == 0 {
            let same = (a.balance > 0 && b.balance > 0) || (a.balance < 0 && b.balance < 0);
            p.clash = (a.balance >= 2 && b.balance >= 2)
                || (a.balance <= -2 && b.balance <= -2)
                || (self.rules.no_third_color_in_a_row
                    && a.streak.is_some()
                    && a.streak == b.streak);
            p.color = if same {
                2
            } else {
                u64::from(a.last.is_some() && a.last == b.last)
            };
        }
        let (gi, gj) = (self.group[i], self.group[j]);
        let dev = if gi.0 == gj.0 {
            let (pi, pj, g) = (gi.2 as i64, gj.2 as i64, gi.1 as i64);
            match self.rules.seeding {
                Seeding::Slide => ((pi - pj).abs() - g / 2).abs(),
                Seeding::Fold => (pi + pj - (g - 1)).abs(),
            }
        } else {
            // A float: best from the bottom of the higher group to the top
            // of the lower one.
            let (h, l) = if self.rank[i] < self.rank[j] {
                (gi, gj)
            } else {
                (gj, gi)
            };
            (h.1 - 1 - h.2 + l.2) as i64
        };
        p.seeding = ((dev * dev) as u64).min((1 << 19) - 1);
        p
    }

    /// The cost of pairing `i` with `j` in a stage, or `None` if forbidden.
    fn cost(&self, stage: Stage, i: usize, j: usize) -> Option<i64> {
        let p = self.parts(i, j);
        let fine = (p.score << 29)
            | (p.float.min(3) << 27)
            | (p.geo.min(3) << 25)
            | (p.handicap.min(15) << 21)
            | (p.seeding << 2)
            | p.color.min(3);
        let cost = match stage {
            Stage::Strict if p.rematch > 0 || p.clash => return None,
            Stage::Strict => fine,
            Stage::NoRematch if p.rematch > 0 => return None,
            Stage::NoRematch => (u64::from(p.clash) << 54) + fine,
            Stage::Relaxed => {
                let coarse =
                    (p.score << 6) | (p.float.min(3) << 4) | (p.geo.min(3) << 2) | p.color.min(3);
                (p.rematch.min(3) << 43) + (u64::from(p.clash) << 31) + coarse
            }
        };
        Some(cost as i64)
    }

    fn edge(&self, stage: Stage, i: usize, j: usize) -> Option<Edge> {
        self.cost(stage, i, j).map(|c| Edge {
            a: i as u32,
            b: j as u32,
            weight: stage.top() - c,
        })
    }
}

/// Positional partners on each side in the first candidate graph.
const NEAR: usize = 4;
/// A score group this small is joined to its neighbour groups whole in the
/// first candidate graph.
const SMALL_GROUP: usize = 32;
/// Seeding deviations beyond this all cost the same (the cost is capped).
const SEEDING_CAP: i64 = 724;
/// Places per block when pricing: each block is skipped whole when a bound
/// proves none of its pairs can improve the matching.
pub(crate) const BLOCK: usize = 16;

/// Pairs an even number of seats: a list of pairs of seat indices.
/// Deterministic. Returns `None` only for an odd field.
pub(crate) fn pair(seats: &[Seat], rules: &Rules) -> Option<Vec<(usize, usize)>> {
    let n = seats.len();
    if n % 2 == 1 {
        return None;
    }
    let field = build_field(seats, rules);
    for stage in [Stage::Strict, Stage::NoRematch, Stage::Relaxed] {
        if let Some(m) = solve(&field, stage) {
            let mut pairs: Vec<(usize, usize)> = (0..n)
                .filter_map(|i| m.mate(i).filter(|&j| i < j).map(|j| (i, j)))
                .collect();
            pairs.sort_by_key(|&(i, j)| field.rank[i].min(field.rank[j]));
            return Some(pairs);
        }
    }
    None
}

/// Ranking order and score groups of the seats.
fn build_field<'a>(seats: &'a [Seat], rules: &'a Rules) -> Field<'a> {
    let n = seats.len();
    let mut sorted: Vec<usize> = (0..n).collect();
    sorted.sort_by_key(|&i| (std::cmp::Reverse(seats[i].score), seats[i].order, i));
    let mut rank = vec![0; n];
    let mut group = vec![(0, 0, 0); n];
    let mut start = 0;
    while start < n {
        let score = seats[sorted[start]].score;
        let end = (start..n)
            .find(|&k| seats[sorted[k]].score != score)
            .unwrap_or(n);
        for k in start..end {
            rank[sorted[k]] = k;
            group[sorted[k]] = (start, end - start, k - start);
        }
        start = end;
    }
    Field {
        seats,
        rules,
        group,
        sorted,
        rank,
    }
}

/// The first candidate graph: each seat's neighbours in the ranking (they
/// always hold a perfect matching) and its seeding partners. `sorted` lists
/// the seats by score group, best first; `group` gives each seat the start
/// of its group in `sorted`, the group's size and the seat's place in it.
pub(crate) fn candidate_pairs(
    sorted: &[usize],
    group: &[(usize, usize, usize)],
    seeding: Seeding,
) -> Vec<(usize, usize)> {
    let n = sorted.len();
    let mut keys: Vec<(usize, usize)> = Vec::with_capacity(n * (4 * NEAR + 2));
    let mut add = |i: usize, j: usize| {
        if i != j {
            keys.push((i.min(j), i.max(j)));
        }
    };
    for s in 0..n {
        let i = sorted[s];
        for &j in &sorted[s.saturating_sub(NEAR)..(s + NEAR + 1).min(n)] {
            add(i, j);
        }
        let (start, g, p) = group[i];
        let ideal = match seeding {
            Seeding::Slide if p < g / 2 => p + g / 2,
            Seeding::Slide => p - g / 2,
            Seeding::Fold => g - 1 - p,
        };
        for q in ideal.saturating_sub(NEAR)..(ideal + NEAR + 1).min(g) {
            add(i, sorted[start + q]);
        }
    }
    // A small score group next to another: its members float, and the
    // matching chooses among every member of the neighbour group which
    // takes them (so every pair between the two is a candidate).
    let mut start = 0;
    while start < n {
        let (_, g, _) = group[sorted[start]];
        let next = start + g;
        if next < n {
            let (_, h, _) = group[sorted[next]];
            if g.min(h) <= SMALL_GROUP {
                for &i in &sorted[start..next] {
                    for &j in &sorted[next..next + h] {
                        add(i, j);
                    }
                }
            }
        }
        start = next;
    }
    keys.sort_unstable();
    keys.dedup();
    keys
}

/// Adds to `edges` every allowed pair whose reduced cost under the duals of
/// `m` is negative: the pairs that could improve the matching. Pairs are
/// skipped only when a lower bound of their cost (the score difference and
/// the seeding deviation) already proves them non-negative, so the check
/// covers the whole field.
fn price(f: &Field, stage: Stage, m: &Matching, edges: &mut Vec<Edge>) {
    let n = f.seats.len();
    let top = stage.top();
    let check = |i: usize, j: usize, edges: &mut Vec<Edge>| {
        if let Some(e) = f.edge(stage, i, j)
            && m.reduced_cost(i, j, e.weight) < 0
        {
            edges.push(e);
        }
    };
    if stage == Stage::Relaxed {
        for i in 0..n {
            for j in i + 1..n {
                check(i, j, edges);
            }
        }
        return;
    }
    let (groups, overall) = blocks(&f.sorted, &f.group, m);
    let score = |start: usize| f.seats[f.sorted[start]].score;
    let cap = SEEDING_CAP * SEEDING_CAP;
    for (gi, &(start_i, g_i, _)) in groups.iter().enumerate() {
        for p in 0..g_i {
            let i = f.sorted[start_i + p];
            let di = m.dual(i);
            for (gj, (start_j, g_j, least)) in groups.iter().enumerate().skip(gi) {
                let (start_j, g_j) = (*start_j, *g_j);
                let delta = (score(start_i) - score(start_j)).unsigned_abs();
                let floor = ((delta * delta).min(8191) << 29) as i64;
                if di + overall - 2 * top + 2 * floor >= 0 {
                    break; // every later group is further away in score
                }
                let same = gj == gi;
                // Where the seeding deviation is least: it grows away from
                // the ideal partner inside a group, and from the top of a
                // lower group.
                let (p64, g64) = (p as i64, g_i as i64);
                let centre = match (same, f.rules.seeding) {
                    (true, Seeding::Slide) => p64 + g64 / 2,
                    (true, Seeding::Fold) => g64 - 1 - p64,
                    (false, _) => -(g64 - 1 - p64),
                };
                for (b, &least) in least.iter().enumerate() {
                    let lo = (b * BLOCK) as i64;
                    let hi = (lo + BLOCK as i64 - 1).min(g_j as i64 - 1);
                    let lo = if same { lo.max(p64 + 1) } else { lo };
                    if lo > hi {
                        continue;
                    }
                    let dev = if centre < lo {
                        lo - centre
                    } else if centre > hi {
                        centre - hi
                    } else {
                        0
                    };
                    // Reduced cost ≥ d(i) + d(j) − 2·top + 2·(score + 4·dev²).
                    if di + least - 2 * top + 2 * floor + 8 * (dev * dev).min(cap) >= 0 {
                        continue;
                    }
                    for q in lo..=hi {
                        let j = f.sorted[start_j + q as usize];
                        let dev = (q - centre).abs();
                        // The same bound with the blossoms' duals, which
                        // keep most pairs inside one score group priced out.
                        let least_cost = floor + 4 * (dev * dev).min(cap);
                        if m.reduced_cost(i, j, top - least_cost) < 0 {
                            check(i, j, edges);
                        }
                    }
                }
            }
        }
    }
}

/// The score groups of `sorted` (as in [`candidate_pairs`]) in order, each
/// with its start, its size and the least dual of each block of [`BLOCK`]
/// consecutive places; and the least dual of all.
pub(crate) fn blocks(
    sorted: &[usize],
    group: &[(usize, usize, usize)],
    m: &Matching,
) -> (Vec<(usize, usize, Vec<i64>)>, i64) {
    let mut groups = Vec::new();
    let mut s = 0;
    while s < sorted.len() {
        let (start, g, _) = group[sorted[s]];
        let least: Vec<i64> = sorted[start..start + g]
            .chunks(BLOCK)
            .map(|c| c.iter().map(|&i| m.dual(i)).min().unwrap_or(0))
            .collect();
        groups.push((start, g, least));
        s = start + g;
    }
    let overall = groups
        .iter()
        .flat_map(|g| g.2.iter().copied())
        .min()
        .unwrap_or(0);
    (groups, overall)
}

/// The optimal perfect matching of a stage over the complete graph, if one
/// exists.
fn solve(f: &Field, stage: Stage) -> Option<Matching> {
    let first = candidate_pairs(&f.sorted, &f.group, f.rules.seeding)
        .into_iter()
        .filter_map(|(a, b)| f.edge(stage, a, b))
        .collect();
    solve_sparse(
        f.seats.len(),
        first,
        |i, j| f.edge(stage, i, j),
        |m, edges| price(f, stage, m, edges),
    )
}

/// The heaviest perfect matching of the complete graph on `n` vertices
/// whose pairs `edge` weighs (`None`: forbidden), if one exists. The `first`
/// candidate edges are matched, then `price` adds every pair that could
/// improve the matching (negative reduced cost under its duals) and the
/// graph is solved again, until no pair prices in: the matching is then
/// optimal over the complete graph (LP duality).
pub(crate) fn solve_sparse(
    n: usize,
    mut edges: Vec<Edge>,
    edge: impl Fn(usize, usize) -> Option<Edge>,
    price: impl Fn(&Matching, &mut Vec<Edge>),
) -> Option<Matching> {
    let mut widened = 0;
    loop {
        let m = max_weight_perfect_matching(n, &edges);
        if !m.is_perfect() {
            // The candidate graph has no perfect matching: give the
            // unmatched seats every allowed partner; if that is not enough,
            // the complete graph decides whether one exists.
            widened += 1;
            match widened {
                1 => {
                    for i in (0..n).filter(|&i| m.mate(i).is_none()) {
                        edges.extend((0..n).filter(|&j| j != i).filter_map(|j| edge(i, j)));
                    }
                }
                2 => {
                    edges = (0..n)
                        .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
                        .filter_map(|(i, j)| edge(i, j))
                        .collect();
                }
                _ => return None,
            }
            continue;
        }
        let before = edges.len();
        price(&m, &mut edges);
        if edges.len() == before {
            return Some(m);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules() -> Rules {
        Rules {
            seeding: Seeding::Slide,
            avoid_club: false,
            avoid_country: false,
            avoid_team: false,
            balance_colors: true,
            no_third_color_in_a_row: false,
            handicap: None,
        }
    }

    fn seat(score: i64, order: u32) -> Seat {
        Seat {
            score,
            order,
            ..Seat::default()
        }
    }

    /// Round 1 of eight players in one group: split and slide gives 1–5,
    /// 2–6, 3–7, 4–8; fold gives 1–8, 2–7, 3–6, 4–5.
    #[test]
    fn one_group_split_slide_and_fold() {
        let seats: Vec<Seat> = (0..8).map(|i| seat(0, i)).collect();
        let slide = pair(&seats, &rules()).unwrap();
        assert_eq!(slide, vec![(0, 4), (1, 5), (2, 6), (3, 7)]);
        let fold = pair(
            &seats,
            &Rules {
                seeding: Seeding::Fold,
                ..rules()
            },
        )
        .unwrap();
        assert_eq!(fold, vec![(0, 7), (1, 6), (2, 5), (3, 4)]);
    }

    /// Two score groups of three: one player must float; the float goes
    /// from the bottom of the top group to the top of the next one.
    ///
    /// ```text
    ///   score 2: A B C        A–B? no: A–C? The group of 3 pairs one pair
    ///   score 0: D E F        and floats its lowest, C, down to D.
    /// ```
    #[test]
    fn odd_groups_float_bottom_to_top() {
        let seats = vec![
            seat(2, 0),
            seat(2, 1),
            seat(2, 2),
            seat(0, 3),
            seat(0, 4),
            seat(0, 5),
        ];
        let pairs = pair(&seats, &rules()).unwrap();
        assert!(pairs.contains(&(2, 3)), "{pairs:?}");
        assert!(pairs.contains(&(0, 1)), "{pairs:?}");
        assert!(pairs.contains(&(4, 5)), "{pairs:?}");
    }

    #[test]
    fn rematch_avoided_even_against_score() {
        // A and B met; the only rematch-free pairing crosses the groups.
        let mut seats = vec![seat(2, 0), seat(2, 1), seat(0, 2), seat(0, 3)];
        seats[0].met = vec![1];
        seats[1].met = vec![0];
        let pairs = pair(&seats, &rules()).unwrap();
        assert!(!pairs.contains(&(0, 1)));
    }

    #[test]
    fn rematch_allowed_only_when_unavoidable() {
        let mut seats = vec![seat(2, 0), seat(0, 1)];
        seats[0].met = vec![1];
        seats[1].met = vec![0];
        assert_eq!(pair(&seats, &rules()), Some(vec![(0, 1)]));
    }

    fn random_field(n: usize, seed: u64) -> Vec<Seat> {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut seats: Vec<Seat> = (0..n)
            .map(|i| Seat {
                score: 2 * rng.i64(0..4) + i64::from(rng.u8(0..10) == 0),
                order: i as u32,
                balance: rng.i32(-2..=2),
                last: [None, Some(Color::Black), Some(Color::White)][rng.usize(0..3)],
                streak: [None, Some(Color::Black), Some(Color::White)][rng.usize(0..3)],
                float: rng.i8(-1..=1),
                club: rng.u32(0..6),
                country: rng.u32(0..3),
                team: rng.u32(0..8),
                handicap_key: rng.i64(0..12),
                met: Vec::new(),
            })
            .collect();
        for _ in 0..n {
            let (a, b) = (rng.usize(0..n), rng.usize(0..n));
            if a != b {
                seats[a].met.push(b as u32);
                seats[b].met.push(a as u32);
            }
        }
        for s in &mut seats {
            s.met.sort_unstable();
        }
        seats
    }

    fn total(f: &Field, stage: Stage, pairs: &[(usize, usize)]) -> i64 {
        pairs
            .iter()
            .map(|&(a, b)| f.cost(stage, a, b).expect("allowed pair"))
            .sum()
    }

    /// The sparse graph plus pricing finds a pairing exactly as good as
    /// matching the complete graph, checked against our dense solve and
    /// against `integer-blossom` (an independent implementation).
    #[test]
    fn sparse_pricing_equals_the_complete_graph() {
        for (seed, seeding) in (0..64).map(|s| {
            (
                s,
                if s % 2 == 0 {
                    Seeding::Slide
                } else {
                    Seeding::Fold
                },
            )
        }) {
            // The last few: score groups above `SMALL_GROUP`, so that the
            // pricing, not the first candidate graph, finds the floats.
            let n = if seed < 60 {
                20 + 2 * (seed as usize % 30)
            } else {
                320
            };
            let seats = random_field(n, seed);
            let rules = Rules {
                seeding,
                avoid_club: seed % 3 == 0,
                avoid_country: seed % 5 == 0,
                avoid_team: seed % 7 == 0,
                balance_colors: true,
                no_third_color_in_a_row: seed % 6 == 0,
                handicap: (seed % 4 == 0).then_some(HandicapRule {
                    basis: crate::HandicapBasis::Mms,
                    correction: 1,
                    ceiling: 9,
                    no_handicap_from: None,
                }),
            };
            let pairs = pair(&seats, &rules).expect("even field");
            let field = build_field(&seats, &rules);
            let stage = [Stage::Strict, Stage::NoRematch, Stage::Relaxed]
                .into_iter()
                .find(|&st| pairs.iter().all(|&(a, b)| field.cost(st, a, b).is_some()))
                .expect("a stage allows the pairing");
            let f = &field;
            let dense: Vec<Edge> = (0..n)
                .flat_map(|i| (i + 1..n).filter_map(move |j| f.edge(stage, i, j)))
                .collect();
            let m = max_weight_perfect_matching(n, &dense);
            assert!(m.is_perfect());
            let best: Vec<(usize, usize)> = (0..n)
                .filter_map(|i| m.mate(i).filter(|&j| i < j).map(|j| (i, j)))
                .collect();
            assert_eq!(
                total(&field, stage, &pairs),
                total(&field, stage, &best),
                "seed {seed} stage {stage:?}"
            );
            if stage == Stage::Strict {
                // Forbidden pairs priced far above any allowed pairing.
                let cost: Vec<i64> = (0..n * n)
                    .map(|k| field.cost(stage, k / n, k % n).unwrap_or(1 << 50))
                    .collect();
                let theirs = integer_blossom::min_weight_perfect_matching(&cost, n);
                let theirs: Vec<(usize, usize)> = (0..n)
                    .filter(|&a| a < theirs[a])
                    .map(|a| (a, theirs[a]))
                    .collect();
                assert_eq!(
                    total(&field, stage, &pairs),
                    total(&field, stage, &theirs),
                    "seed {seed}"
                );
            }
        }
    }

    /// Team total score: two teammates lead, but a pairing without them
    /// together exists, so it is taken even across the score groups.
    /// ```text
    ///   score 4: A (team 1)  B (team 1)
    ///   score 2: C (team 2)  D (team 2)     A–C, B–D, not A–B, C–D
    /// ```
    #[test]
    fn teammates_kept_apart_while_avoidable() {
        let mut seats = vec![seat(4, 0), seat(4, 1), seat(2, 2), seat(2, 3)];
        for (s, team) in seats.iter_mut().zip([1, 1, 2, 2]) {
            s.team = team;
        }
        let apart = Rules {
            avoid_team: true,
            ..rules()
        };
        let pairs = pair(&seats, &apart).unwrap();
        assert!(
            !pairs.contains(&(0, 1)) && !pairs.contains(&(2, 3)),
            "{pairs:?}"
        );
        assert_eq!(pair(&seats, &rules()), Some(vec![(0, 1), (2, 3)]));
        // One team only: they must meet.
        for s in &mut seats {
            s.team = 1;
        }
        assert_eq!(pair(&seats, &apart).map(|p| p.len()), Some(2));
    }

    #[test]
    fn color_clash_avoided() {
        // A and B both have two more blacks: pairing them gives one a third.
        let mut seats = vec![seat(2, 0), seat(2, 1), seat(2, 2), seat(2, 3)];
        seats[0].balance = 2;
        seats[1].balance = 2;
        let pairs = pair(&seats, &rules()).unwrap();
        assert!(!pairs.contains(&(0, 1)), "{pairs:?}");
    }
}
