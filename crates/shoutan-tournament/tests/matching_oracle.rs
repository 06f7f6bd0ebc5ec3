//! The blossom matcher against two independent oracles: an exhaustive
//! search over subsets (small graphs) and the `integer-blossom` crate
//! (a separate implementation of the same algorithm, on complete graphs).

#![allow(clippy::unwrap_used)] // test code: a failed setup is a test failure

use proptest::prelude::*;
use shoutan_tournament::matching::{Cardinality, Edge, Matching, max_weight_matching};

/// Best (pairs, weight) over matchings of the vertices in `mask`, by
/// dynamic programming on the lowest vertex: it stays single or takes one
/// of its edges. `Maximum` compares pairs first; `Any` weight only.
fn exhaustive(n: usize, edges: &[Edge], mode: Cardinality) -> (usize, i64) {
    let mut w = vec![vec![None; n]; n];
    for e in edges {
        let (a, b) = (e.a as usize, e.b as usize);
        let best = w[a][b].map_or(e.weight, |x: i64| x.max(e.weight));
        w[a][b] = Some(best);
        w[b][a] = Some(best);
    }
    let better = |x: (usize, i64), y: (usize, i64)| match mode {
        Cardinality::Maximum => x > y,
        Cardinality::Any => x.1 > y.1,
    };
    let mut memo = vec![(0usize, 0i64); 1 << n];
    for mask in 1usize..(1 << n) {
        let i = mask.trailing_zeros() as usize;
        let rest = mask & !(1 << i);
        let mut best = memo[rest];
        for j in 0..n {
            if rest & (1 << j) != 0
                && let Some(x) = w[i][j]
            {
                let (c, s) = memo[rest & !(1 << j)];
                let cand = (c + 1, s + x);
                if better(cand, best) {
                    best = cand;
                }
            }
        }
        memo[mask] = best;
    }
    memo[(1 << n) - 1]
}

fn total(m: &Matching, edges: &[Edge]) -> (usize, i64) {
    let mut weight = 0;
    for v in 0..m.mates().len() {
        if let Some(u) = m.mate(v)
            && v < u
        {
            weight += edges
                .iter()
                .filter(|e| {
                    (e.a as usize, e.b as usize) == (v, u) || (e.a as usize, e.b as usize) == (u, v)
                })
                .map(|e| e.weight)
                .max()
                .expect("matched along an edge");
        }
    }
    (m.pairs(), weight)
}

fn graph(max_n: usize, max_w: i64) -> impl Strategy<Value = (usize, Vec<Edge>)> {
    (2..=max_n).prop_flat_map(move |n| {
        let pairs: Vec<(u32, u32)> = (0..n as u32)
            .flat_map(|a| (a + 1..n as u32).map(move |b| (a, b)))
            .collect();
        let len = pairs.len();
        (
            Just(n),
            proptest::collection::vec(proptest::option::weighted(0.5, -max_w / 4..max_w), len),
        )
            .prop_map(move |(n, ws)| {
                let edges = pairs
                    .iter()
                    .zip(ws)
                    .filter_map(|(&(a, b), w)| w.map(|weight| Edge { a, b, weight }))
                    .collect();
                (n, edges)
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn heaviest_matching_matches_exhaustive_search((n, edges) in graph(12, 60)) {
        for mode in [Cardinality::Any, Cardinality::Maximum] {
            let m = max_weight_matching(n, &edges, mode);
            let got = total(&m, &edges);
            let want = exhaustive(n, &edges, mode);
            match mode {
                Cardinality::Maximum => prop_assert_eq!(got, want),
                Cardinality::Any => prop_assert_eq!(got.1, want.1),
            }
            // The duals certify the result: no edge has a negative reduced cost.
            for e in &edges {
                prop_assert!(m.reduced_cost(e.a as usize, e.b as usize, e.weight) >= 0, "{e:?}");
            }
        }
    }

    #[test]
    fn perfect_matching_matches_integer_blossom(half in 2usize..30, seed in any::<u64>()) {
        let n = 2 * half;
        let mut rng = fastrand::Rng::with_seed(seed);
        let cost: Vec<i64> = (0..n * n).map(|_| rng.i64(0..1000)).collect();
        let sym = |a: usize, b: usize| cost[a.min(b) * n + a.max(b)];
        let mut edges = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                edges.push(Edge { a: a as u32, b: b as u32, weight: 1000 - sym(a, b) });
            }
        }
        let ours = max_weight_matching(n, &edges, Cardinality::Maximum);
        prop_assert!(ours.is_perfect());
        let ours_cost: i64 = (0..n).filter_map(|a| ours.mate(a).filter(|&b| a < b).map(|b| sym(a, b))).sum();
        let dense: Vec<i64> = (0..n * n).map(|k| sym(k / n, k % n)).collect();
        let theirs = integer_blossom::min_weight_perfect_matching(&dense, n);
        let theirs_cost: i64 = (0..n).filter(|&a| a < theirs[a]).map(|a| sym(a, theirs[a])).sum();
        prop_assert_eq!(ours_cost, theirs_cost);
    }
}
