//! Maximum-weight matching on a general graph: Edmonds' blossom algorithm in
//! its primal–dual form (Galil's presentation, O(n³) with per-blossom least
//! slack edges), written for Swiss and McMahon pairing.
//!
//! Two things make it fit pairing over large fields:
//! - it takes a sparse edge list, so a round can be solved on a candidate
//!   graph of a few dozen partners per player;
//! - it returns its dual solution, so [`Matching::reduced_cost`] can prove
//!   that a pair left out of the candidate graph could not have improved the
//!   result (linear-programming duality for Edmonds' matching polytope). The
//!   Swiss pairer checks every pair of the field this way and adds the pairs
//!   that fail before solving again, so the answer is optimal over the whole
//!   field.
//!
//! In [`Cardinality::Maximum`] mode the solver starts from a feasible dual
//! solution and a greedy matching of tight edges (each vertex's dual is its
//! heaviest edge, then lowered to the least feasible value), which leaves it
//! only a few augmenting paths to find on typical pairing graphs. Those
//! duals certify the result when it is perfect; when the graph has no
//! perfect matching it is solved again from the classic equal duals.
//!
//! Weights are integers; dual values are kept doubled so that every value
//! stays an integer.

/// An undirected weighted edge between two vertices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Edge {
    /// One end.
    pub a: u32,
    /// The other end (different from `a`).
    pub b: u32,
    /// The weight to maximise. In [`Cardinality::Any`] mode only positive
    /// weights can be chosen.
    pub weight: i64,
}

/// Which matchings compete.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cardinality {
    /// The heaviest matching of any size (an edge is taken only if it adds weight).
    Any,
    /// The heaviest among the matchings with the most edges: a perfect
    /// matching whenever one exists.
    Maximum,
}

/// The result: partners and the dual solution that certifies optimality.
#[derive(Clone, Debug)]
pub struct Matching {
    mate: Vec<Option<u32>>,
    /// Vertex duals (doubled) then blossom duals, indexed like the solver.
    dual: Vec<i64>,
    /// Each vertex's blossoms, outermost first, with cumulative duals
    /// (flattened; vertex `v` owns `chains[chain_start[v]..chain_start[v + 1]]`).
    chains: Vec<(u32, i64)>,
    chain_start: Vec<usize>,
}

const NONE: usize = usize::MAX;

impl Matching {
    /// The partner of vertex `v`.
    #[must_use]
    pub fn mate(&self, v: usize) -> Option<usize> {
        self.mate.get(v).copied().flatten().map(|m| m as usize)
    }

    /// Every vertex's partner.
    #[must_use]
    pub fn mates(&self) -> &[Option<u32>] {
        &self.mate
    }

    /// Number of matched pairs.
    #[must_use]
    pub fn pairs(&self) -> usize {
        self.mate.iter().filter(|m| m.is_some()).count() / 2
    }

    /// Twice vertex `v`'s dual value: the reduced cost of an edge `a–b` is
    /// at least `dual(a) + dual(b) − 2w` (blossom duals only add to it).
    #[must_use]
    pub fn dual(&self, v: usize) -> i64 {
        self.dual[v]
    }

    /// True when every vertex is matched.
    #[must_use]
    pub fn is_perfect(&self) -> bool {
        self.mate.iter().all(Option::is_some)
    }

    /// Twice the reduced cost of a possible edge `a–b` of weight `weight`
    /// under the final dual solution: `2u(a) + 2u(b) − 2w + 2·Σ z(B)` over the
    /// blossoms containing both ends. When the matching is perfect and this is
    /// non-negative for every pair of vertices, no perfect matching of the
    /// complete graph (with those weights) is heavier: LP duality.
    #[must_use]
    pub fn reduced_cost(&self, a: usize, b: usize, weight: i64) -> i64 {
        let cost = self.dual[a] + self.dual[b] - 2 * weight;
        if cost >= 0 {
            // Blossom duals are never negative: nothing can bring it below 0.
            return cost;
        }
        // The blossoms containing both ends are a common prefix of their
        // chains (outermost first); add twice their duals. Chains are paths
        // down one forest, so once they part they never meet again: the
        // prefix is found by bisection (blossoms nest hundreds deep).
        let (ca, cb) = (self.chain(a), self.chain(b));
        let (mut common, mut apart) = (0, ca.len().min(cb.len()));
        while common < apart {
            let mid = usize::midpoint(common, apart);
            if ca[mid].0 == cb[mid].0 {
                common = mid + 1;
            } else {
                apart = mid;
            }
        }
        match common {
            0 => cost,
            k => cost + 2 * ca[k - 1].1,
        }
    }

    /// The blossoms containing `v`, outermost first, each with the sum of
    /// the duals from the outermost down to it.
    fn chain(&self, v: usize) -> &[(u32, i64)] {
        &self.chains[self.chain_start[v]..self.chain_start[v + 1]]
    }
}

/// Computes a maximum-weight matching of the graph with `n` vertices and the
/// given edges. Deterministic: the same input always gives the same matching.
///
/// ```
/// use shoutan_tournament::matching::{max_weight_matching, Cardinality, Edge};
/// // A path 0–1–2–3 whose middle edge is heaviest: alone it is the best
/// // matching, but the perfect one takes both ends.
/// let e = |a, b, weight| Edge { a, b, weight };
/// let edges = [e(0, 1, 3), e(1, 2, 8), e(2, 3, 3)];
/// assert_eq!(max_weight_matching(4, &edges, Cardinality::Any).mate(1), Some(2));
/// let perfect = max_weight_matching(4, &edges, Cardinality::Maximum);
/// assert_eq!((perfect.mate(0), perfect.mate(2)), (Some(1), Some(3)));
/// ```
///
/// # Panics
/// If an edge names a vertex not below `n` or joins a vertex to itself.
#[must_use]
pub fn max_weight_matching(n: usize, edges: &[Edge], cardinality: Cardinality) -> Matching {
    for e in edges {
        assert!(
            (e.a as usize) < n && (e.b as usize) < n && e.a != e.b,
            "edge {}–{} outside 0..{n}",
            e.a,
            e.b
        );
    }
    let mut solver = Solver::new(n, edges, cardinality, cardinality == Cardinality::Maximum);
    solver.solve();
    if solver.warm && solver.mate.contains(&NONE) {
        // The warm start's duals certify only a perfect matching; for a
        // smaller maximum matching solve again from equal duals, where the
        // classic argument applies.
        solver = Solver::new(n, edges, cardinality, false);
        solver.solve();
    }
    solver.into_matching()
}

/// The heaviest perfect matching when the graph has one. When it has none
/// the result is a maximum-cardinality matching (not perfect) with no weight
/// guarantee: check [`Matching::is_perfect`]. Faster than
/// [`max_weight_matching`] in [`Cardinality::Maximum`] mode, which solves
/// again in that case.
#[must_use]
pub fn max_weight_perfect_matching(n: usize, edges: &[Edge]) -> Matching {
    let mut solver = Solver::new(n, edges, Cardinality::Maximum, true);
    solver.solve();
    solver.into_matching()
}

struct Solver {
    n: usize,
    max_cardinality: bool,
    /// Started from per-vertex duals and a greedy matching.
    warm: bool,
    /// `endpoint[2k]`, `endpoint[2k+1]`: the two ends of edge k.
    endpoint: Vec<usize>,
    weight: Vec<i64>,
    /// Adjacency in compressed rows: remote endpoints `p` (edge `p / 2`).
    adj_start: Vec<usize>,
    adj: Vec<usize>,
    /// Remote endpoint of the matched edge, or NONE.
    mate: Vec<usize>,
    /// 0 free, 1 S (outer), 2 T (inner); bit 4 marks a blossom during a scan.
    label: Vec<u8>,
    labelend: Vec<usize>,
    inblossom: Vec<usize>,
    blossomparent: Vec<usize>,
    blossomchilds: Vec<Vec<usize>>,
    blossombase: Vec<usize>,
    blossomendps: Vec<Vec<usize>>,
    bestedge: Vec<usize>,
    blossombestedges: Vec<Option<Vec<usize>>>,
    unusedblossoms: Vec<usize>,
    dualvar: Vec<i64>,
    allowedge: Vec<bool>,
    queue: Vec<usize>,
    bestedgeto: Vec<usize>,
}

impl Solver {
    fn new(n: usize, edges: &[Edge], cardinality: Cardinality, warm: bool) -> Solver {
        let m = edges.len();
        let mut endpoint = Vec::with_capacity(2 * m);
        let mut weight = Vec::with_capacity(m);
        let mut degree = vec![0usize; n + 1];
        for e in edges {
            endpoint.push(e.a as usize);
            endpoint.push(e.b as usize);
            weight.push(e.weight);
            degree[e.a as usize] += 1;
            degree[e.b as usize] += 1;
        }
        let mut adj_start = vec![0usize; n + 1];
        for v in 0..n {
            adj_start[v + 1] = adj_start[v] + degree[v];
        }
        let mut fill = adj_start.clone();
        let mut adj = vec![0usize; 2 * m];
        for (k, e) in edges.iter().enumerate() {
            adj[fill[e.a as usize]] = 2 * k + 1;
            fill[e.a as usize] += 1;
            adj[fill[e.b as usize]] = 2 * k;
            fill[e.b as usize] += 1;
        }
        let max_cardinality = cardinality == Cardinality::Maximum;
        let mut dualvar = vec![0i64; 2 * n];
        if warm {
            // Each vertex starts at its heaviest edge, rounded up to even so
            // that every dual stays even and S–S slacks can be halved.
            for v in 0..n {
                let best = adj[adj_start[v]..adj_start[v + 1]]
                    .iter()
                    .map(|&p| weight[p / 2])
                    .max()
                    .unwrap_or(0);
                dualvar[v] = best + (best & 1);
            }
        } else {
            let top = weight.iter().copied().max().unwrap_or(0).max(0);
            for d in dualvar.iter_mut().take(n) {
                *d = top;
            }
        }
        Solver {
            n,
            max_cardinality,
            warm,
            endpoint,
            weight,
            adj_start,
            adj,
            mate: vec![NONE; n],
            label: vec![0; 2 * n],
            labelend: vec![NONE; 2 * n],
            inblossom: (0..n).collect(),
            blossomparent: vec![NONE; 2 * n],
            blossomchilds: vec![Vec::new(); 2 * n],
            blossombase: (0..n).chain(std::iter::repeat_n(NONE, n)).collect(),
            blossomendps: vec![Vec::new(); 2 * n],
            bestedge: vec![NONE; 2 * n],
            blossombestedges: vec![None; 2 * n],
            unusedblossoms: (n..2 * n).rev().collect(),
            dualvar,
            allowedge: vec![false; m],
            queue: Vec::new(),
            bestedgeto: vec![NONE; 2 * n],
        }
    }

    fn into_matching(self) -> Matching {
        let mate = self
            .mate
            .iter()
            .map(|&p| (p != NONE).then(|| self.endpoint[p] as u32))
            .collect();
        let mut chains = Vec::new();
        let mut chain_start = Vec::with_capacity(self.n + 1);
        let mut up = Vec::new();
        for v in 0..self.n {
            chain_start.push(chains.len());
            up.clear();
            let mut b = v;
            while self.blossomparent[b] != NONE {
                b = self.blossomparent[b];
                up.push(b);
            }
            let mut sum = 0;
            for &b in up.iter().rev() {
                sum += self.dualvar[b];
                chains.push((b as u32, sum));
            }
        }
        chain_start.push(chains.len());
        Matching {
            mate,
            dual: self.dualvar,
            chains,
            chain_start,
        }
    }

    fn slack(&self, k: usize) -> i64 {
        self.dualvar[self.endpoint[2 * k]] + self.dualvar[self.endpoint[2 * k + 1]]
            - 2 * self.weight[k]
    }

    fn neighbours(&self, v: usize) -> std::ops::Range<usize> {
        self.adj_start[v]..self.adj_start[v + 1]
    }

    fn leaves(&self, b: usize, out: &mut Vec<usize>) {
        out.clear();
        let mut stack = vec![b];
        while let Some(t) = stack.pop() {
            if t < self.n {
                out.push(t);
            } else {
                stack.extend(self.blossomchilds[t].iter().rev());
            }
        }
    }

    /// The warm start of maximum-cardinality mode: lower each free vertex's
    /// dual to the least feasible value and match it along a tight edge to a
    /// free neighbour. Matched edges are tight and no slack becomes negative.
    fn greedy_start(&mut self) {
        for v in 0..self.n {
            if self.mate[v] != NONE || self.adj_start[v] == self.adj_start[v + 1] {
                continue;
            }
            let mut least = i64::MIN;
            for i in self.neighbours(v) {
                let p = self.adj[i];
                let need = 2 * self.weight[p / 2] - self.dualvar[self.endpoint[p]];
                least = least.max(need);
            }
            self.dualvar[v] = least;
            for i in self.neighbours(v) {
                let p = self.adj[i];
                let w = self.endpoint[p];
                if self.mate[w] == NONE && self.slack(p / 2) == 0 {
                    self.mate[v] = p;
                    self.mate[w] = p ^ 1;
                    break;
                }
            }
        }
    }

    fn assign_label(&mut self, w: usize, t: u8, p: usize) {
        let b = self.inblossom[w];
        self.label[w] = t;
        self.label[b] = t;
        self.labelend[w] = p;
        self.labelend[b] = p;
        self.bestedge[w] = NONE;
        self.bestedge[b] = NONE;
        if t == 1 {
            let mut leaves = Vec::new();
            self.leaves(b, &mut leaves);
            self.queue.extend(leaves);
        } else {
            let base = self.blossombase[b];
            let m = self.mate[base];
            self.assign_label(self.endpoint[m], 1, m ^ 1);
        }
    }

    /// Traces back from `v` and `w` to a common base (a new blossom) or to
    /// two roots (an augmenting path, NONE).
    fn scan_blossom(&mut self, mut v: usize, mut w: usize) -> usize {
        let mut path = Vec::new();
        let mut base = NONE;
        while v != NONE || w != NONE {
            let mut b = self.inblossom[v];
            if self.label[b] & 4 != 0 {
                base = self.blossombase[b];
                break;
            }
            path.push(b);
            self.label[b] = 5;
            if self.labelend[b] == NONE {
                v = NONE;
            } else {
                v = self.endpoint[self.labelend[b]];
                b = self.inblossom[v];
                v = self.endpoint[self.labelend[b]];
            }
            if w != NONE {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.label[b] = 1;
        }
        base
    }

    fn add_blossom(&mut self, base: usize, k: usize) {
        let (mut v, mut w) = (self.endpoint[2 * k], self.endpoint[2 * k + 1]);
        let bb = self.inblossom[base];
        let mut bv = self.inblossom[v];
        let mut bw = self.inblossom[w];
        let b = self
            .unusedblossoms
            .pop()
            .expect("at most n/2 blossoms exist at once");
        self.blossombase[b] = base;
        self.blossomparent[b] = NONE;
        self.blossomparent[bb] = b;
        let mut path = Vec::new();
        let mut endps = Vec::new();
        while bv != bb {
            self.blossomparent[bv] = b;
            path.push(bv);
            endps.push(self.labelend[bv]);
            v = self.endpoint[self.labelend[bv]];
            bv = self.inblossom[v];
        }
        path.push(bb);
        path.reverse();
        endps.reverse();
        endps.push(2 * k);
        while bw != bb {
            self.blossomparent[bw] = b;
            path.push(bw);
            endps.push(self.labelend[bw] ^ 1);
            w = self.endpoint[self.labelend[bw]];
            bw = self.inblossom[w];
        }
        self.blossomchilds[b] = path.clone();
        self.blossomendps[b] = endps;
        self.label[b] = 1;
        self.labelend[b] = self.labelend[bb];
        self.dualvar[b] = 0;
        let mut leaves = Vec::new();
        self.leaves(b, &mut leaves);
        for &v in &leaves {
            if self.label[self.inblossom[v]] == 2 {
                self.queue.push(v);
            }
            self.inblossom[v] = b;
        }
        // Least-slack edges from the new blossom to each other S-blossom.
        let mut touched = Vec::new();
        for &sub in &path {
            let lists: Vec<usize> = match self.blossombestedges[sub].take() {
                Some(list) => list,
                None => {
                    self.leaves(sub, &mut leaves);
                    leaves
                        .iter()
                        .flat_map(|&v| self.neighbours(v).map(|i| self.adj[i] / 2))
                        .collect()
                }
            };
            for k in lists {
                let (mut i, mut j) = (self.endpoint[2 * k], self.endpoint[2 * k + 1]);
                if self.inblossom[j] == b {
                    std::mem::swap(&mut i, &mut j);
                }
                let _ = i;
                let bj = self.inblossom[j];
                if bj != b
                    && self.label[bj] == 1
                    && (self.bestedgeto[bj] == NONE
                        || self.slack(k) < self.slack(self.bestedgeto[bj]))
                {
                    if self.bestedgeto[bj] == NONE {
                        touched.push(bj);
                    }
                    self.bestedgeto[bj] = k;
                }
            }
            self.bestedge[sub] = NONE;
        }
        let mut best_list = Vec::with_capacity(touched.len());
        for bj in touched {
            best_list.push(self.bestedgeto[bj]);
            self.bestedgeto[bj] = NONE;
        }
        let mut best = NONE;
        for &k in &best_list {
            if best == NONE || self.slack(k) < self.slack(best) {
                best = k;
            }
        }
        self.blossombestedges[b] = Some(best_list);
        self.bestedge[b] = best;
    }

    fn expand_blossom(&mut self, b: usize, endstage: bool) {
        let childs = std::mem::take(&mut self.blossomchilds[b]);
        let mut leaves = Vec::new();
        for &s in &childs {
            self.blossomparent[s] = NONE;
            if s < self.n {
                self.inblossom[s] = s;
            } else if endstage && self.dualvar[s] == 0 {
                self.expand_blossom(s, endstage);
            } else {
                self.leaves(s, &mut leaves);
                for &v in &leaves {
                    self.inblossom[v] = s;
                }
            }
        }
        if !endstage && self.label[b] == 2 {
            let endps = self.blossomendps[b].clone();
            let len = childs.len() as isize;
            let at = |j: isize| (((j % len) + len) % len) as usize;
            let entrychild = self.inblossom[self.endpoint[self.labelend[b] ^ 1]];
            let mut j = childs.iter().position(|&c| c == entrychild).unwrap_or(0) as isize;
            let (jstep, endptrick): (isize, usize) = if j & 1 != 0 {
                j -= len;
                (1, 0)
            } else {
                (-1, 1)
            };
            let mut p = self.labelend[b];
            while j != 0 {
                self.label[self.endpoint[p ^ 1]] = 0;
                let q = endps[at(j - endptrick as isize)];
                self.label[self.endpoint[q ^ endptrick ^ 1]] = 0;
                self.assign_label(self.endpoint[p ^ 1], 2, p);
                self.allowedge[q / 2] = true;
                j += jstep;
                p = endps[at(j - endptrick as isize)] ^ endptrick;
                self.allowedge[p / 2] = true;
                j += jstep;
            }
            let bv = childs[at(j)];
            let ep = self.endpoint[p ^ 1];
            self.label[ep] = 2;
            self.label[bv] = 2;
            self.labelend[ep] = p;
            self.labelend[bv] = p;
            self.bestedge[bv] = NONE;
            j += jstep;
            while childs[at(j)] != entrychild {
                let bv = childs[at(j)];
                if self.label[bv] == 1 {
                    j += jstep;
                    continue;
                }
                self.leaves(bv, &mut leaves);
                if let Some(&v) = leaves.iter().find(|&&v| self.label[v] != 0) {
                    self.label[v] = 0;
                    let mate_of_base = self.mate[self.blossombase[bv]];
                    self.label[self.endpoint[mate_of_base]] = 0;
                    self.assign_label(v, 2, self.labelend[v]);
                }
                j += jstep;
            }
        }
        self.label[b] = 0;
        self.labelend[b] = NONE;
        self.blossomendps[b].clear();
        self.blossombase[b] = NONE;
        self.blossombestedges[b] = None;
        self.bestedge[b] = NONE;
        self.unusedblossoms.push(b);
    }

    /// Swaps matched and unmatched edges inside blossom `b` so that `v`
    /// becomes its base.
    fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut t = v;
        while self.blossomparent[t] != b {
            t = self.blossomparent[t];
        }
        if t >= self.n {
            self.augment_blossom(t, v);
        }
        let childs = self.blossomchilds[b].clone();
        let endps = self.blossomendps[b].clone();
        let len = childs.len() as isize;
        let at = |j: isize| (((j % len) + len) % len) as usize;
        let i = childs.iter().position(|&c| c == t).unwrap_or(0);
        let mut j = i as isize;
        let (jstep, endptrick): (isize, usize) = if j & 1 != 0 {
            j -= len;
            (1, 0)
        } else {
            (-1, 1)
        };
        while j != 0 {
            j += jstep;
            let t = childs[at(j)];
            let p = endps[at(j - endptrick as isize)] ^ endptrick;
            if t >= self.n {
                self.augment_blossom(t, self.endpoint[p]);
            }
            j += jstep;
            let t = childs[at(j)];
            if t >= self.n {
                self.augment_blossom(t, self.endpoint[p ^ 1]);
            }
            self.mate[self.endpoint[p]] = p ^ 1;
            self.mate[self.endpoint[p ^ 1]] = p;
        }
        self.blossomchilds[b] = childs[i..].iter().chain(&childs[..i]).copied().collect();
        self.blossomendps[b] = endps[i..].iter().chain(&endps[..i]).copied().collect();
        self.blossombase[b] = self.blossombase[self.blossomchilds[b][0]];
    }

    fn augment_matching(&mut self, k: usize) {
        let (v, w) = (self.endpoint[2 * k], self.endpoint[2 * k + 1]);
        for (mut s, mut p) in [(v, 2 * k + 1), (w, 2 * k)] {
            loop {
                let bs = self.inblossom[s];
                if bs >= self.n {
                    self.augment_blossom(bs, s);
                }
                self.mate[s] = p;
                if self.labelend[bs] == NONE {
                    break;
                }
                let t = self.endpoint[self.labelend[bs]];
                let bt = self.inblossom[t];
                s = self.endpoint[self.labelend[bt]];
                let j = self.endpoint[self.labelend[bt] ^ 1];
                if bt >= self.n {
                    self.augment_blossom(bt, j);
                }
                self.mate[j] = self.labelend[bt];
                p = self.labelend[bt] ^ 1;
            }
        }
    }

    fn solve(&mut self) {
        let n = self.n;
        if self.warm {
            self.greedy_start();
        }
        for _stage in 0..n {
            self.label.fill(0);
            self.bestedge.fill(NONE);
            for b in n..2 * n {
                self.blossombestedges[b] = None;
            }
            self.allowedge.fill(false);
            self.queue.clear();
            for v in 0..n {
                if self.mate[v] == NONE && self.label[self.inblossom[v]] == 0 {
                    self.assign_label(v, 1, NONE);
                }
            }
            let mut augmented = false;
            loop {
                while let Some(v) = self.queue.pop() {
                    for i in self.neighbours(v) {
                        let p = self.adj[i];
                        let k = p / 2;
                        let w = self.endpoint[p];
                        if self.inblossom[v] == self.inblossom[w] {
                            continue;
                        }
                        let mut kslack = 0;
                        if !self.allowedge[k] {
                            kslack = self.slack(k);
                            if kslack <= 0 {
                                self.allowedge[k] = true;
                            }
                        }
                        if self.allowedge[k] {
                            if self.label[self.inblossom[w]] == 0 {
                                self.assign_label(w, 2, p ^ 1);
                            } else if self.label[self.inblossom[w]] == 1 {
                                let base = self.scan_blossom(v, w);
                                if base != NONE {
                                    self.add_blossom(base, k);
                                } else {
                                    self.augment_matching(k);
                                    augmented = true;
                                    break;
                                }
                            } else if self.label[w] == 0 {
                                self.label[w] = 2;
                                self.labelend[w] = p ^ 1;
                            }
                        } else if self.label[self.inblossom[w]] == 1 {
                            let b = self.inblossom[v];
                            if self.bestedge[b] == NONE || kslack < self.slack(self.bestedge[b]) {
                                self.bestedge[b] = k;
                            }
                        } else if self.label[w] == 0
                            && (self.bestedge[w] == NONE || kslack < self.slack(self.bestedge[w]))
                        {
                            self.bestedge[w] = k;
                        }
                    }
                    if augmented {
                        break;
                    }
                }
                if augmented {
                    break;
                }
                // No augmenting path yet: change the duals.
                let mut delta: Option<(i64, u8, usize)> = None;
                let better =
                    |d: i64, kind: u8, what: usize, delta: &mut Option<(i64, u8, usize)>| {
                        if delta.is_none_or(|(best, _, _)| d < best) {
                            *delta = Some((d, kind, what));
                        }
                    };
                if !self.max_cardinality {
                    let d = self.dualvar[..n].iter().copied().min().unwrap_or(0);
                    better(d, 1, NONE, &mut delta);
                }
                for v in 0..n {
                    if self.label[self.inblossom[v]] == 0 && self.bestedge[v] != NONE {
                        better(
                            self.slack(self.bestedge[v]),
                            2,
                            self.bestedge[v],
                            &mut delta,
                        );
                    }
                }
                for b in 0..2 * n {
                    if self.blossomparent[b] == NONE
                        && self.label[b] == 1
                        && self.bestedge[b] != NONE
                    {
                        better(
                            self.slack(self.bestedge[b]) / 2,
                            3,
                            self.bestedge[b],
                            &mut delta,
                        );
                    }
                }
                for b in n..2 * n {
                    if self.blossombase[b] != NONE
                        && self.blossomparent[b] == NONE
                        && self.label[b] == 2
                    {
                        better(self.dualvar[b], 4, b, &mut delta);
                    }
                }
                let Some((delta, kind, what)) = delta else {
                    // Maximum cardinality reached: no dual change can help.
                    break;
                };
                for v in 0..n {
                    match self.label[self.inblossom[v]] {
                        1 => self.dualvar[v] -= delta,
                        2 => self.dualvar[v] += delta,
                        _ => {}
                    }
                }
                for b in n..2 * n {
                    if self.blossombase[b] != NONE && self.blossomparent[b] == NONE {
                        match self.label[b] {
                            1 => self.dualvar[b] += delta,
                            2 => self.dualvar[b] -= delta,
                            _ => {}
                        }
                    }
                }
                match kind {
                    1 => break,
                    2 => {
                        self.allowedge[what] = true;
                        let (mut i, j) = (self.endpoint[2 * what], self.endpoint[2 * what + 1]);
                        if self.label[self.inblossom[i]] == 0 {
                            i = j;
                        }
                        self.queue.push(i);
                    }
                    3 => {
                        self.allowedge[what] = true;
                        self.queue.push(self.endpoint[2 * what]);
                    }
                    _ => self.expand_blossom(what, false),
                }
            }
            if !augmented {
                break;
            }
            for b in n..2 * n {
                if self.blossomparent[b] == NONE
                    && self.blossombase[b] != NONE
                    && self.label[b] == 1
                    && self.dualvar[b] == 0
                {
                    self.expand_blossom(b, true);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(a: u32, b: u32, weight: i64) -> Edge {
        Edge { a, b, weight }
    }

    fn total(m: &Matching, edges: &[Edge]) -> i64 {
        edges
            .iter()
            .filter(|x| m.mate(x.a as usize) == Some(x.b as usize))
            .map(|x| x.weight)
            .sum()
    }

    #[test]
    fn a_single_edge_and_an_empty_graph() {
        assert_eq!(
            max_weight_matching(2, &[e(0, 1, 1)], Cardinality::Any).mate(0),
            Some(1)
        );
        assert_eq!(max_weight_matching(3, &[], Cardinality::Maximum).pairs(), 0);
    }

    #[test]
    fn negative_edges_only_when_cardinality_demands_them() {
        let edges = [e(0, 1, -2)];
        assert_eq!(max_weight_matching(2, &edges, Cardinality::Any).pairs(), 0);
        assert_eq!(
            max_weight_matching(2, &edges, Cardinality::Maximum).pairs(),
            1
        );
    }

    /// A blossom: the triangle 1–2–3 with a tail at each side. The heaviest
    /// perfect matching must go through the odd cycle.
    ///
    /// ```text
    ///   0 —8— 1
    ///        / \
    ///      9    9
    ///      /     \
    ///     2 —10— 3 —7— 4 —6— 5
    /// ```
    #[test]
    fn odd_cycle_forms_a_blossom() {
        let edges = [
            e(0, 1, 8),
            e(1, 2, 9),
            e(1, 3, 9),
            e(2, 3, 10),
            e(3, 4, 7),
            e(4, 5, 6),
        ];
        let m = max_weight_matching(6, &edges, Cardinality::Maximum);
        assert!(m.is_perfect());
        assert_eq!(total(&m, &edges), 8 + 10 + 6);
    }

    /// Known cases for nested blossoms and blossom expansion (S-blossom
    /// relabelled as T, expanded, augmented through), as in the classic
    /// test set for this algorithm.
    #[test]
    fn nested_and_expanded_blossoms() {
        let cases: [&[Edge]; 4] = [
            &[
                e(1, 2, 9),
                e(1, 3, 9),
                e(2, 3, 10),
                e(2, 4, 8),
                e(3, 5, 8),
                e(4, 5, 10),
                e(5, 6, 6),
            ],
            &[
                e(1, 2, 10),
                e(1, 7, 10),
                e(2, 3, 12),
                e(3, 4, 20),
                e(3, 5, 20),
                e(4, 5, 25),
                e(5, 6, 10),
                e(6, 7, 10),
                e(7, 8, 8),
            ],
            &[
                e(1, 2, 8),
                e(1, 3, 8),
                e(2, 3, 10),
                e(2, 4, 12),
                e(3, 5, 12),
                e(4, 5, 14),
                e(4, 6, 12),
                e(5, 7, 12),
                e(6, 7, 14),
                e(7, 8, 12),
            ],
            &[
                e(1, 2, 23),
                e(1, 5, 22),
                e(1, 6, 15),
                e(2, 3, 25),
                e(3, 4, 22),
                e(4, 5, 25),
                e(4, 8, 14),
                e(5, 7, 13),
            ],
        ];
        for edges in cases {
            let n = edges
                .iter()
                .map(|x| x.b.max(x.a) as usize + 1)
                .max()
                .unwrap_or(0);
            for mode in [Cardinality::Any, Cardinality::Maximum] {
                let m = max_weight_matching(n, edges, mode);
                let best = brute(n, edges, mode);
                assert_eq!(total(&m, edges), best, "{edges:?} {mode:?}");
            }
        }
    }

    /// Exhaustive search: (most pairs if asked, then) heaviest total.
    fn brute(n: usize, edges: &[Edge], mode: Cardinality) -> i64 {
        fn go(i: usize, used: &mut Vec<bool>, edges: &[Edge], mode: Cardinality) -> (usize, i64) {
            if i == edges.len() {
                return (0, 0);
            }
            let skip = go(i + 1, used, edges, mode);
            let (a, b) = (edges[i].a as usize, edges[i].b as usize);
            if used[a] || used[b] {
                return skip;
            }
            used[a] = true;
            used[b] = true;
            let (c, w) = go(i + 1, used, edges, mode);
            used[a] = false;
            used[b] = false;
            let take = (c + 1, w + edges[i].weight);
            match mode {
                Cardinality::Any => {
                    if take.1 > skip.1 {
                        take
                    } else {
                        skip
                    }
                }
                Cardinality::Maximum => skip.max(take),
            }
        }
        go(0, &mut vec![false; n], edges, mode).1
    }
}
