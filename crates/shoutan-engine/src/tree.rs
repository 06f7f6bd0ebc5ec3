//! The search tree, shared by the search threads without locks: nodes and
//! edges live in arenas of chunks allocated as the tree grows, every field
//! an atomic. A node is expanded by the one thread that claims it; its
//! edges (every legal move with the network's prior, most probable first)
//! take one contiguous range of the edge arena, and an edge gets its child
//! node only when the search first goes through it. Values are kept from
//! white's side, as KataGo keeps them. Between searches the subtree of the
//! new position is copied into a fresh tree (tree reuse).

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU8, AtomicU16, AtomicU32, AtomicU64, Ordering::*};

/// The move of a pass on an edge; any other value is the point's offset
/// (row by row from the top left).
pub(crate) const PASS: u16 = u16::MAX;
/// No node: an edge not yet followed.
const NO_NODE: u32 = u32::MAX;

const LEAF: u8 = 0;
const EXPANDING: u8 = 1;
const EXPANDED: u8 = 2;
/// The game ended here (two passes): its value is the count, not the
/// network's.
const TERMINAL: u8 = 3;

/// Entries per chunk of an arena.
const CHUNK_BITS: u32 = 14;
const CHUNK: u32 = 1 << CHUNK_BITS;

/// An `f64` updated by compare-and-swap.
#[derive(Default)]
struct AtomicF64(AtomicU64);

impl AtomicF64 {
    fn load(&self) -> f64 {
        f64::from_bits(self.0.load(Relaxed))
    }

    fn store(&self, x: f64) {
        self.0.store(x.to_bits(), Relaxed);
    }

    fn add(&self, x: f64) {
        let _ = self.0.fetch_update(Relaxed, Relaxed, |b| {
            Some((f64::from_bits(b) + x).to_bits())
        });
    }
}

/// What one visit brings back up the tree, from white's side.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Value {
    /// Win minus loss, −1 to 1.
    pub(crate) winloss: f64,
    /// The expected final score.
    pub(crate) score: f64,
    /// Its expected square.
    pub(crate) score_sq: f64,
    /// The lead in points.
    pub(crate) lead: f64,
    /// The search's utility: win/loss plus a little for the score.
    pub(crate) utility: f64,
}

#[derive(Default)]
struct Node {
    state: AtomicU8,
    first_edge: AtomicU32,
    edge_count: AtomicU16,
    visits: AtomicU32,
    virtual_losses: AtomicU32,
    winloss: AtomicF64,
    score: AtomicF64,
    score_sq: AtomicF64,
    lead: AtomicF64,
    utility: AtomicF64,
    utility_sq: AtomicF64,
    /// The utility of the network's own evaluation of this node.
    own_utility: AtomicF64,
}

struct Edge {
    mv: AtomicU16,
    prior: AtomicU32,
    child: AtomicU32,
}

impl Default for Edge {
    fn default() -> Edge {
        Edge {
            mv: AtomicU16::new(PASS),
            prior: AtomicU32::new(0),
            child: AtomicU32::new(NO_NODE),
        }
    }
}

/// An arena of chunks, each allocated the first time an index in it is
/// used: the tree takes memory as it grows, up to its bound.
struct Arena<T> {
    chunks: Vec<OnceLock<Box<[T]>>>,
    next: AtomicU32,
    limit: u32,
}

impl<T: Default> Arena<T> {
    fn new(limit: u32) -> Arena<T> {
        let chunks = limit.div_ceil(CHUNK) as usize;
        Arena {
            chunks: (0..chunks).map(|_| OnceLock::new()).collect(),
            next: AtomicU32::new(0),
            limit,
        }
    }

    fn get(&self, i: u32) -> &T {
        let chunk = self.chunks[(i >> CHUNK_BITS) as usize]
            .get_or_init(|| (0..CHUNK).map(|_| T::default()).collect());
        &chunk[(i & (CHUNK - 1)) as usize]
    }

    /// `len` consecutive fresh entries within one chunk, or `None` when the
    /// arena is full.
    fn allocate(&self, len: u32) -> Option<u32> {
        debug_assert!(len > 0 && len <= CHUNK);
        let mut start = self.next.load(Relaxed);
        loop {
            let mut first = start;
            if (first & (CHUNK - 1)) + len > CHUNK {
                first = (first | (CHUNK - 1)) + 1;
            }
            let end = first.checked_add(len)?;
            if end > self.limit {
                return None;
            }
            match self
                .next
                .compare_exchange_weak(start, end, Relaxed, Relaxed)
            {
                Ok(_) => return Some(first),
                Err(now) => start = now,
            }
        }
    }
}

/// A snapshot of a node's statistics, averages from white's side.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Stats {
    /// Completed visits.
    pub(crate) visits: u32,
    /// Visits under way (threads that went through and have not come back).
    pub(crate) virtual_losses: u32,
    /// Mean win minus loss.
    pub(crate) winloss: f64,
    /// Mean expected score.
    pub(crate) score: f64,
    /// Mean expected square of the score.
    pub(crate) score_sq: f64,
    /// Mean lead.
    pub(crate) lead: f64,
    /// Mean utility.
    pub(crate) utility: f64,
    /// Mean square of the utility.
    pub(crate) utility_sq: f64,
    /// The network's own utility of the node.
    pub(crate) own_utility: f64,
}

/// One move out of a node.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct EdgeView {
    /// Where the edge is, to follow it.
    pub(crate) index: u32,
    /// The move.
    pub(crate) mv: u16,
    /// The network's probability of it.
    pub(crate) prior: f32,
    /// The node it leads to, once followed.
    pub(crate) child: Option<u32>,
}

/// A move and its prior, for [`Tree::expand`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct NewEdge {
    pub(crate) mv: u16,
    pub(crate) prior: f32,
}

/// How a claim on a leaf went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Claim {
    /// The caller must evaluate it and [`expand`](Tree::expand) it.
    Won,
    /// Another visit is evaluating it.
    Busy,
    /// Already expanded.
    Expanded,
    /// The game is over there.
    Terminal,
}

/// The tree. Node 0 is the root.
pub(crate) struct Tree {
    nodes: Arena<Node>,
    edges: Arena<Edge>,
}

impl Tree {
    /// A tree with only its root, bounded to `max_nodes` nodes and
    /// `max_edges` edges.
    pub(crate) fn new(max_nodes: u32, max_edges: u32) -> Tree {
        let tree = Tree {
            nodes: Arena::new(max_nodes.max(1)),
            edges: Arena::new(max_edges.max(CHUNK)),
        };
        let _root = tree.nodes.allocate(1);
        tree
    }

    /// The node's statistics.
    pub(crate) fn stats(&self, n: u32) -> Stats {
        let node = self.nodes.get(n);
        let visits = node.visits.load(Acquire);
        let per = 1.0 / f64::from(visits.max(1));
        Stats {
            visits,
            virtual_losses: node.virtual_losses.load(Relaxed),
            winloss: node.winloss.load() * per,
            score: node.score.load() * per,
            score_sq: node.score_sq.load() * per,
            lead: node.lead.load() * per,
            utility: node.utility.load() * per,
            utility_sq: node.utility_sq.load() * per,
            own_utility: node.own_utility.load(),
        }
    }

    /// Tries to make the caller the one to evaluate leaf `n`.
    pub(crate) fn claim(&self, n: u32) -> Claim {
        let state = &self.nodes.get(n).state;
        match state.compare_exchange(LEAF, EXPANDING, Acquire, Acquire) {
            Ok(_) => Claim::Won,
            Err(EXPANDING) => Claim::Busy,
            Err(TERMINAL) => Claim::Terminal,
            Err(_) => Claim::Expanded,
        }
    }

    /// Gives up a claim without expanding (the arena was full).
    pub(crate) fn release(&self, n: u32) {
        let _ = self
            .nodes
            .get(n)
            .state
            .compare_exchange(EXPANDING, LEAF, Release, Relaxed);
    }

    /// Marks leaf `n` as a finished game.
    pub(crate) fn set_terminal(&self, n: u32) {
        self.nodes.get(n).state.store(TERMINAL, Release);
    }

    /// Gives claimed node `n` its edges (most probable first) and the
    /// network's utility of it. `false` when the arena is full: the claim
    /// is released and the node stays a leaf.
    pub(crate) fn expand(&self, n: u32, edges: &[NewEdge], own_utility: f64) -> bool {
        let node = self.nodes.get(n);
        let count = u32::try_from(edges.len()).unwrap_or(u32::MAX).min(CHUNK);
        let first = if count == 0 {
            Some(0)
        } else {
            self.edges.allocate(count)
        };
        let Some(first) = first else {
            self.release(n);
            return false;
        };
        for (k, e) in edges.iter().take(count as usize).enumerate() {
            let edge = self.edges.get(first + k as u32);
            edge.mv.store(e.mv, Relaxed);
            edge.prior.store(e.prior.to_bits(), Relaxed);
        }
        node.first_edge.store(first, Relaxed);
        node.edge_count.store(count as u16, Relaxed);
        node.own_utility.store(own_utility);
        node.state.store(EXPANDED, Release);
        true
    }

    /// The edges of expanded node `n`, most probable first.
    pub(crate) fn edges(&self, n: u32) -> impl Iterator<Item = EdgeView> + '_ {
        let node = self.nodes.get(n);
        let (first, count) = if node.state.load(Acquire) == EXPANDED {
            (
                node.first_edge.load(Relaxed),
                u32::from(node.edge_count.load(Relaxed)),
            )
        } else {
            (0, 0)
        };
        (first..first + count).map(move |i| {
            let edge = self.edges.get(i);
            let child = edge.child.load(Acquire);
            EdgeView {
                index: i,
                mv: edge.mv.load(Relaxed),
                prior: f32::from_bits(edge.prior.load(Relaxed)),
                child: (child != NO_NODE).then_some(child),
            }
        })
    }

    /// The child through edge `e`, created if the edge was not followed
    /// yet; `None` when the arena is full.
    pub(crate) fn child(&self, e: u32) -> Option<u32> {
        let edge = self.edges.get(e);
        let child = edge.child.load(Acquire);
        if child != NO_NODE {
            return Some(child);
        }
        let fresh = self.nodes.allocate(1)?;
        match edge.child.compare_exchange(NO_NODE, fresh, AcqRel, Acquire) {
            Ok(_) => Some(fresh),
            // Another thread made it first: ours stays unused.
            Err(theirs) => Some(theirs),
        }
    }

    /// One more visit under way through `n`.
    pub(crate) fn add_virtual_loss(&self, n: u32) {
        self.nodes.get(n).virtual_losses.fetch_add(1, Relaxed);
    }

    /// Takes back a visit under way that will not complete.
    pub(crate) fn remove_virtual_loss(&self, n: u32) {
        let _ = self
            .nodes
            .get(n)
            .virtual_losses
            .fetch_update(Relaxed, Relaxed, |v| Some(v.saturating_sub(1)));
    }

    /// Completes a visit of `n` with `value`.
    pub(crate) fn record(&self, n: u32, value: &Value) {
        let node = self.nodes.get(n);
        node.winloss.add(value.winloss);
        node.score.add(value.score);
        node.score_sq.add(value.score_sq);
        node.lead.add(value.lead);
        node.utility.add(value.utility);
        node.utility_sq.add(value.utility * value.utility);
        node.visits.fetch_add(1, Release);
    }

    /// A tree whose root is a copy of `n` and everything under it, with
    /// the same bounds.
    pub(crate) fn subtree(&self, n: u32) -> Tree {
        let tree = Tree {
            nodes: Arena::new(self.nodes.limit),
            edges: Arena::new(self.edges.limit),
        };
        let _root = tree.nodes.allocate(1);
        let mut stack = vec![(n, 0u32)];
        while let Some((from, to)) = stack.pop() {
            let (src, dst) = (self.nodes.get(from), tree.nodes.get(to));
            let state = src.state.load(Acquire);
            // A node caught mid-expansion (none between searches) stays a leaf.
            dst.state
                .store(if state == EXPANDING { LEAF } else { state }, Relaxed);
            dst.visits.store(src.visits.load(Relaxed), Relaxed);
            for (d, s) in [
                (&dst.winloss, &src.winloss),
                (&dst.score, &src.score),
                (&dst.score_sq, &src.score_sq),
                (&dst.lead, &src.lead),
                (&dst.utility, &src.utility),
                (&dst.utility_sq, &src.utility_sq),
                (&dst.own_utility, &src.own_utility),
            ] {
                d.store(s.load());
            }
            if state != EXPANDED {
                continue;
            }
            let edges: Vec<EdgeView> = self.edges(from).collect();
            let new_edges: Vec<NewEdge> = edges
                .iter()
                .map(|e| NewEdge {
                    mv: e.mv,
                    prior: e.prior,
                })
                .collect();
            let Some(first) = tree.edges.allocate(edges.len().max(1) as u32) else {
                dst.state.store(LEAF, Relaxed);
                continue;
            };
            for (k, (e, new)) in edges.iter().zip(&new_edges).enumerate() {
                let edge = tree.edges.get(first + k as u32);
                edge.mv.store(new.mv, Relaxed);
                edge.prior.store(new.prior.to_bits(), Relaxed);
                if let Some(child) = e.child
                    && let Some(copy) = tree.nodes.allocate(1)
                {
                    edge.child.store(copy, Relaxed);
                    stack.push((child, copy));
                }
            }
            dst.first_edge.store(first, Relaxed);
            dst.edge_count.store(edges.len() as u16, Relaxed);
        }
        tree
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(winloss: f64) -> Value {
        Value {
            winloss,
            score: 2.0 * winloss,
            score_sq: 4.0,
            lead: winloss,
            utility: winloss,
        }
    }

    #[test]
    fn a_leaf_is_claimed_once_and_expanded_with_its_edges_in_order() {
        let tree = Tree::new(100, 1000);
        assert_eq!(tree.claim(0), Claim::Won);
        assert_eq!(tree.claim(0), Claim::Busy);
        let edges = [
            NewEdge { mv: 40, prior: 0.6 },
            NewEdge { mv: 30, prior: 0.3 },
            NewEdge {
                mv: PASS,
                prior: 0.1,
            },
        ];
        assert!(tree.expand(0, &edges, 0.25));
        assert_eq!(tree.claim(0), Claim::Expanded);
        let seen: Vec<(u16, f32)> = tree.edges(0).map(|e| (e.mv, e.prior)).collect();
        assert_eq!(seen, [(40, 0.6), (30, 0.3), (PASS, 0.1)]);
        assert!(tree.edges(0).all(|e| e.child.is_none()));
        assert_eq!(tree.stats(0).own_utility, 0.25);
    }

    #[test]
    fn values_average_and_a_child_is_made_once() {
        let tree = Tree::new(100, 1000);
        tree.claim(0);
        tree.expand(0, &[NewEdge { mv: 1, prior: 1.0 }], 0.0);
        let e = tree.edges(0).next().unwrap().index;
        let c = tree.child(e).unwrap();
        assert_eq!(tree.child(e), Some(c));
        tree.record(c, &value(1.0));
        tree.record(c, &value(0.0));
        let s = tree.stats(c);
        assert_eq!(s.visits, 2);
        assert!((s.winloss - 0.5).abs() < 1e-12 && (s.score - 1.0).abs() < 1e-12);
        assert!((s.utility_sq - 0.5).abs() < 1e-12);
    }

    #[test]
    fn a_full_arena_refuses_and_the_leaf_stays_a_leaf() {
        let tree = Tree::new(2, CHUNK);
        tree.claim(0);
        let many: Vec<NewEdge> = (0..10).map(|mv| NewEdge { mv, prior: 0.1 }).collect();
        assert!(tree.expand(0, &many, 0.0));
        let edges: Vec<u32> = tree.edges(0).map(|e| e.index).collect();
        assert!(tree.child(edges[0]).is_some());
        assert_eq!(tree.child(edges[1]), None, "two nodes at most");
    }

    #[test]
    fn a_subtree_keeps_its_statistics_and_shape() {
        let tree = Tree::new(100, 1000);
        tree.claim(0);
        tree.expand(
            0,
            &[NewEdge { mv: 5, prior: 0.7 }, NewEdge { mv: 6, prior: 0.3 }],
            0.0,
        );
        let e = tree.edges(0).next().unwrap().index;
        let c = tree.child(e).unwrap();
        tree.claim(c);
        tree.expand(c, &[NewEdge { mv: 7, prior: 1.0 }], -0.5);
        tree.record(c, &value(-1.0));
        let sub = tree.subtree(c);
        assert_eq!(sub.stats(0).visits, 1);
        assert_eq!(sub.stats(0).own_utility, -0.5);
        assert_eq!(sub.edges(0).map(|e| e.mv).collect::<Vec<_>>(), [7]);
    }
}
