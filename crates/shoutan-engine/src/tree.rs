//! The search tree, shared by the search threads without locks: an arena of
//! nodes whose fields are atomics, children in one contiguous block per
//! node, a node expanded by the one thread that wins a compare-and-swap.
//! Between searches the subtree under the new position is moved to the
//! front of the arena (tree reuse) and the rest forgotten.

use std::sync::atomic::{AtomicU8, AtomicU16, AtomicU32, Ordering::*};

/// The move of a pass in a node.
pub(crate) const PASS: u16 = u16::MAX;

const LEAF: u8 = 0;
const EXPANDING: u8 = 1;
const EXPANDED: u8 = 2;
/// A root child the rules forbid (superko): never selected.
const PRUNED: u8 = 3;

/// One position of the tree, reached by `mv` from its parent.
///
/// `wins` and the prior's wins are counted in half wins (a draw is one), from
/// the point of view of the player who made `mv`.
#[derive(Default)]
pub(crate) struct Node {
    mv: AtomicU16,
    state: AtomicU8,
    num_children: AtomicU16,
    first_child: AtomicU32,
    visits: AtomicU32,
    wins: AtomicU32,
    rave_visits: AtomicU32,
    rave_wins: AtomicU32,
    prior_visits: AtomicU16,
    prior_wins: AtomicU16,
    policy: AtomicU16,
}

/// A child to create: its move and prior, as pseudo-visits and half wins,
/// and the probability the move knowledge gives it (in 1/65535).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct NewChild {
    pub(crate) mv: u16,
    pub(crate) prior_visits: u16,
    pub(crate) prior_wins: u16,
    pub(crate) policy: u16,
}

/// A plain copy of a node's fields, for reading and for moving subtrees.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Stats {
    pub(crate) mv: u16,
    pub(crate) visits: u32,
    pub(crate) wins: u32,
    pub(crate) rave_visits: u32,
    pub(crate) rave_wins: u32,
    pub(crate) prior_visits: u16,
    pub(crate) prior_wins: u16,
    pub(crate) policy: u16,
    pub(crate) pruned: bool,
}

impl Stats {
    /// Mean result of the real visits (0.5 when there are none).
    pub(crate) fn winrate(&self) -> f32 {
        if self.visits == 0 {
            0.5
        } else {
            self.wins as f32 / (2.0 * self.visits as f32)
        }
    }
}

impl Node {
    fn stats(&self) -> Stats {
        Stats {
            mv: self.mv.load(Relaxed),
            visits: self.visits.load(Relaxed),
            wins: self.wins.load(Relaxed),
            rave_visits: self.rave_visits.load(Relaxed),
            rave_wins: self.rave_wins.load(Relaxed),
            prior_visits: self.prior_visits.load(Relaxed),
            prior_wins: self.prior_wins.load(Relaxed),
            policy: self.policy.load(Relaxed),
            pruned: self.state.load(Relaxed) == PRUNED,
        }
    }

    fn reset(&self, mv: u16, prior_visits: u16, prior_wins: u16, policy: u16) {
        self.mv.store(mv, Relaxed);
        self.num_children.store(0, Relaxed);
        self.first_child.store(0, Relaxed);
        self.visits.store(0, Relaxed);
        self.wins.store(0, Relaxed);
        self.rave_visits.store(0, Relaxed);
        self.rave_wins.store(0, Relaxed);
        self.prior_visits.store(prior_visits, Relaxed);
        self.prior_wins.store(prior_wins, Relaxed);
        self.policy.store(policy, Relaxed);
        self.state.store(LEAF, Release);
    }
}

/// The arena. Node 0 is the root.
pub(crate) struct Tree {
    nodes: Vec<Node>,
    used: AtomicU32,
}

/// Parameters of the selection formula.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Selection {
    /// RAVE equivalence: the number of real visits at which real results and
    /// AMAF results weigh the same.
    pub(crate) rave_equivalence: f32,
    /// UCT exploration constant (small: the priors and RAVE explore).
    pub(crate) exploration: f32,
    /// Weight of the move knowledge's probability, which draws the search
    /// to a move in proportion to it and the square root of the parent's
    /// visits, and fades with the move's own visits (PUCT).
    pub(crate) policy_weight: f32,
    /// How many of a node's children the search may follow, by the node's
    /// visits (progressive widening).
    pub(crate) widening: Widening,
}

/// Progressive widening, as in Coulom's "Computing Elo Ratings of Move
/// Patterns" (2007): children are stored most probable first (see
/// [`crate::prior`]), a node's search follows only the first
/// `first + log(1 + visits / scale) / log(growth)` of them, and the pass
/// (always the last child) is always open. Without it the noise of a few
/// playouts lets moves no strong player would consider (a 5–7 point
/// opening) soak up most of a search.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Widening {
    /// Children open at once.
    pub(crate) first: f32,
    /// Visits of the first step.
    pub(crate) scale: f32,
    /// Factor of visits between one more open child and the next.
    pub(crate) growth: f32,
}

impl Widening {
    /// Every child open.
    pub(crate) const NONE: Widening = Widening {
        first: f32::INFINITY,
        scale: 1.0,
        growth: 2.0,
    };

    /// The number of children open at `visits`.
    #[inline]
    fn open(&self, visits: f32) -> u32 {
        let k = self.first + (1.0 + visits / self.scale).ln() / self.growth.ln();
        // Saturating: the infinite widening opens every child.
        k as u32
    }
}

impl Tree {
    /// An arena for `capacity` nodes with a fresh root.
    pub(crate) fn new(capacity: usize) -> Tree {
        let tree = Tree {
            nodes: (0..capacity.max(1)).map(|_| Node::default()).collect(),
            used: AtomicU32::new(1),
        };
        tree.nodes[0].reset(PASS, 0, 0, 0);
        tree
    }

    /// Number of nodes the arena holds.
    pub(crate) fn capacity(&self) -> usize {
        self.nodes.len()
    }

    /// Number of nodes in use.
    pub(crate) fn len(&self) -> usize {
        (self.used.load(Relaxed) as usize).min(self.nodes.len())
    }

    /// Grows the arena to `capacity` nodes (between searches).
    pub(crate) fn reserve(&mut self, capacity: usize) {
        if capacity > self.nodes.len() {
            self.nodes.resize_with(capacity, Node::default);
        }
    }

    /// Forgets everything: a fresh root.
    pub(crate) fn clear(&mut self) {
        self.nodes[0].reset(PASS, 0, 0, 0);
        self.used.store(1, Relaxed);
    }

    pub(crate) fn stats(&self, n: u32) -> Stats {
        self.nodes[n as usize].stats()
    }

    /// The children of `n` once expanded; empty otherwise.
    pub(crate) fn children(&self, n: u32) -> std::ops::Range<u32> {
        let node = &self.nodes[n as usize];
        if node.state.load(Acquire) != EXPANDED {
            return 0..0;
        }
        let first = node.first_child.load(Relaxed);
        first..first + u32::from(node.num_children.load(Relaxed))
    }

    pub(crate) fn is_expanded(&self, n: u32) -> bool {
        self.nodes[n as usize].state.load(Acquire) == EXPANDED
    }

    /// Marks a visit on the way down (it counts as a loss until the result
    /// arrives, which keeps threads apart: a virtual loss).
    #[inline]
    pub(crate) fn visit(&self, n: u32) -> u32 {
        self.nodes[n as usize].visits.fetch_add(1, Relaxed) + 1
    }

    /// Adds a result in half wins (2 win, 1 draw, 0 loss).
    #[inline]
    pub(crate) fn record(&self, n: u32, half_wins: u32) {
        if half_wins > 0 {
            self.nodes[n as usize].wins.fetch_add(half_wins, Relaxed);
        }
    }

    /// Adds an AMAF result.
    #[inline]
    pub(crate) fn record_rave(&self, n: u32, half_wins: u32) {
        let node = &self.nodes[n as usize];
        node.rave_visits.fetch_add(1, Relaxed);
        if half_wins > 0 {
            node.rave_wins.fetch_add(half_wins, Relaxed);
        }
    }

    /// The move of node `n`.
    #[inline]
    pub(crate) fn mv(&self, n: u32) -> u16 {
        self.nodes[n as usize].mv.load(Relaxed)
    }

    /// Keeps root child `n` out of every search (a move the rules forbid).
    pub(crate) fn prune(&self, n: u32) {
        self.nodes[n as usize].state.store(PRUNED, Release);
    }

    /// Claims the right to expand `n`; false if another thread has it or
    /// it is done.
    pub(crate) fn try_claim(&self, n: u32) -> bool {
        self.nodes[n as usize]
            .state
            .compare_exchange(LEAF, EXPANDING, Acquire, Relaxed)
            .is_ok()
    }

    /// Gives `n` its children after a successful [`try_claim`]. When the
    /// arena is full the node stays a leaf for good (playouts go on from it).
    pub(crate) fn expand(&self, n: u32, children: &[NewChild]) -> bool {
        let k = children.len() as u32;
        let first = self.used.fetch_add(k, Relaxed);
        if first as usize + k as usize > self.nodes.len() {
            // Leave it claimed: nobody tries again on this full arena.
            return false;
        }
        for (j, c) in children.iter().enumerate() {
            self.nodes[first as usize + j].reset(c.mv, c.prior_visits, c.prior_wins, c.policy);
        }
        let node = &self.nodes[n as usize];
        node.first_child.store(first, Relaxed);
        node.num_children.store(k as u16, Relaxed);
        node.state.store(EXPANDED, Release);
        true
    }

    /// The child of `n` the search should follow among the open ones (see
    /// [`Widening`]): the best mix of real results, AMAF results and prior,
    /// plus a little exploration.
    pub(crate) fn select(&self, n: u32, sel: &Selection) -> Option<u32> {
        let parent_visits = self.nodes[n as usize].visits.load(Relaxed).max(1) as f32;
        let log_parent = parent_visits.ln();
        let sqrt_parent = parent_visits.sqrt();
        let children = self.children(n);
        let open = sel.widening.open(parent_visits);
        let widened = children.start..children.end.min(children.start.saturating_add(open));
        let last = children.end.checked_sub(1).filter(|&l| l >= widened.end);
        let mut best = None;
        let mut best_value = f32::NEG_INFINITY;
        for c in widened.chain(last) {
            let s = self.stats(c);
            if s.pruned {
                continue;
            }
            let v = value(&s, sel, log_parent, sqrt_parent);
            if v > best_value {
                best_value = v;
                best = Some(c);
            }
        }
        best
    }

    /// Moves the subtree under `new_root` to the front of the arena so that
    /// it becomes the tree; everything else is dropped.
    pub(crate) fn promote(&mut self, new_root: u32) {
        if new_root == 0 {
            return;
        }
        let mut copy: Vec<(Stats, u32, u16, u8)> = Vec::new();
        // Breadth first: each node's children stay one contiguous block.
        let mut next_free = 1u32;
        let mut order = vec![new_root];
        let mut head = 0;
        while head < order.len() {
            let old = order[head];
            head += 1;
            let s = self.stats(old);
            let children = self.children(old);
            let (first, count, state) = if children.is_empty() {
                let state = if self.nodes[old as usize].state.load(Relaxed) == PRUNED {
                    PRUNED
                } else {
                    LEAF
                };
                (0, 0, state)
            } else {
                let first = next_free;
                next_free += children.len() as u32;
                order.extend(children.clone());
                (first, children.len() as u16, EXPANDED)
            };
            copy.push((s, first, count, state));
        }
        for (k, (s, first, count, state)) in copy.into_iter().enumerate() {
            let node = &self.nodes[k];
            node.reset(s.mv, s.prior_visits, s.prior_wins, s.policy);
            node.visits.store(s.visits, Relaxed);
            node.wins.store(s.wins, Relaxed);
            node.rave_visits.store(s.rave_visits, Relaxed);
            node.rave_wins.store(s.rave_wins, Relaxed);
            node.first_child.store(first, Relaxed);
            node.num_children.store(count, Relaxed);
            node.state.store(state, Release);
        }
        self.used.store(next_free, Relaxed);
    }
}

/// The selection value of a child from the point of view of the player who
/// would make its move.
#[inline]
fn value(s: &Stats, sel: &Selection, log_parent: f32, sqrt_parent: f32) -> f32 {
    let n = s.visits as f32 + f32::from(s.prior_visits);
    let w = (s.wins as f32 + f32::from(s.prior_wins)) / 2.0;
    let q = if n > 0.0 { w / n } else { 0.5 };
    let mixed = if s.rave_visits > 0 {
        let rn = s.rave_visits as f32;
        let rq = s.rave_wins as f32 / (2.0 * rn);
        let beta = rn / (rn + n + rn * n / sel.rave_equivalence);
        (1.0 - beta) * q + beta * rq
    } else {
        q
    };
    let policy = f32::from(s.policy) / 65535.0;
    mixed
        + sel.exploration * (log_parent / (n + 1.0)).sqrt()
        + sel.policy_weight * policy * sqrt_parent / (1.0 + s.visits as f32)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn child(mv: u16, prior_visits: u16, prior_wins: u16) -> NewChild {
        NewChild {
            mv,
            prior_visits,
            prior_wins,
            policy: 0,
        }
    }

    const SEL: Selection = Selection {
        rave_equivalence: 1000.0,
        exploration: 0.0,
        policy_weight: 0.0,
        widening: Widening::NONE,
    };

    #[test]
    fn only_one_thread_expands_a_node() {
        let tree = Tree::new(16);
        assert!(tree.try_claim(0));
        assert!(!tree.try_claim(0), "the second claim must fail");
        assert!(tree.expand(0, &[child(1, 10, 10), child(2, 10, 10)]));
        assert_eq!(tree.children(0), 1..3);
        assert!(!tree.try_claim(0));
    }

    #[test]
    fn a_full_arena_keeps_the_node_a_leaf() {
        let tree = Tree::new(2);
        assert!(tree.try_claim(0));
        assert!(!tree.expand(0, &[child(1, 1, 1), child(2, 1, 1)]));
        assert!(tree.children(0).is_empty());
    }

    #[test]
    fn selection_prefers_results_then_follows_the_prior() {
        let tree = Tree::new(8);
        tree.try_claim(0);
        tree.expand(0, &[child(1, 10, 10), child(2, 10, 10), child(3, 10, 4)]);
        // Child 2 has won its visits: it is preferred.
        for _ in 0..5 {
            tree.visit(2);
            tree.record(2, 2);
        }
        assert_eq!(tree.select(0, &SEL), Some(2));
        // Pruned, it is never chosen; then the prior decides between 1 and 3.
        tree.prune(2);
        assert_eq!(tree.select(0, &SEL), Some(1));
    }

    #[test]
    fn widening_opens_children_in_order_as_visits_grow_and_the_pass_always() {
        let sel = Selection {
            widening: Widening {
                first: 2.0,
                scale: 10.0,
                growth: 2.0,
            },
            ..SEL
        };
        let tree = Tree::new(8);
        tree.try_claim(0);
        // Stored most probable first, the pass last; the third and fourth
        // children have the best pseudo-results.
        tree.expand(
            0,
            &[
                child(1, 10, 10),
                child(2, 10, 10),
                child(3, 10, 18),
                child(4, 10, 20),
                child(PASS, 10, 12),
            ],
        );
        // One visit: two children and the pass open; the pass looks best.
        tree.visit(0);
        assert_eq!(tree.mv(tree.select(0, &sel).unwrap()), PASS);
        // 10 visits: 2 + log2(2) = 3 open, so the third child is reached.
        for _ in 0..9 {
            tree.visit(0);
        }
        assert_eq!(tree.mv(tree.select(0, &sel).unwrap()), 3);
        // 30 visits: 2 + log2(4) = 4 open, the fourth child is best.
        for _ in 0..20 {
            tree.visit(0);
        }
        assert_eq!(tree.mv(tree.select(0, &sel).unwrap()), 4);
    }

    #[test]
    fn amaf_results_steer_unvisited_children() {
        let tree = Tree::new(8);
        tree.try_claim(0);
        tree.expand(0, &[child(1, 10, 10), child(2, 10, 10)]);
        for _ in 0..20 {
            tree.record_rave(1, 0);
            tree.record_rave(2, 2);
        }
        assert_eq!(tree.select(0, &SEL), Some(2));
    }

    #[test]
    fn promote_keeps_the_subtree_and_its_statistics() {
        let mut tree = Tree::new(32);
        tree.try_claim(0);
        tree.expand(0, &[child(10, 1, 1), child(11, 1, 1)]);
        // Node 2 (move 11) gets children and statistics.
        tree.try_claim(2);
        tree.expand(2, &[child(20, 3, 1), child(21, 3, 1), child(22, 3, 1)]);
        for _ in 0..7 {
            tree.visit(2);
            tree.record(2, 2);
        }
        tree.visit(4);
        tree.record(4, 1);
        tree.promote(2);
        assert_eq!(tree.mv(0), 11);
        assert_eq!(tree.stats(0).visits, 7);
        assert_eq!(tree.stats(0).wins, 14);
        let kids: Vec<u16> = tree.children(0).map(|c| tree.mv(c)).collect();
        assert_eq!(kids, [20, 21, 22]);
        let second = tree.children(0).nth(1).unwrap();
        assert_eq!(tree.stats(second).visits, 1);
        assert_eq!(tree.stats(second).wins, 1);
        assert_eq!(tree.len(), 4);
    }
}
