//! The search proper, PUCT as KataGo runs it: each thread walks down the
//! shared tree by the selection formula (the network's prior drawing it to
//! natural moves, the values found so far keeping it on good ones, a
//! first-play value for moves not yet tried), collects a batch of leaves
//! (virtual losses steer the walks of one batch apart), has the network
//! evaluate them in one pass, expands them and backs their values up. The
//! tree is then read into an [`Analysis`].

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

use shoutan_nn::{Evaluation, Position, Scratch};
use shoutan_rules::{BoardSize, Color, Move, Point};

use crate::analysis::{Analysis, MoveInfo, lower_bound};
use crate::evaluator::Evaluator;
use crate::tree::{Claim, EdgeView, NewEdge, PASS, Stats, Tree, Value};
use crate::utility::{UTILITY_RADIUS, Utility};

/// KataGo's exploration constants (its GTP defaults): the exploration
/// weight grows slowly with the parent's visits.
const CPUCT: f64 = 1.0;
const CPUCT_LOG: f64 = 0.45;
const CPUCT_BASE: f64 = 500.0;
/// The exploration also scales with how uncertain the parent's value is,
/// against a prior standard deviation of the utility.
const STDEV_PRIOR: f64 = 0.40;
const STDEV_PRIOR_WEIGHT: f64 = 2.0;
const STDEV_SCALE: f64 = 0.85;
/// First-play urgency: an untried move is assumed this much worse than the
/// parent, in proportion to the square root of the prior already tried.
const FPU_REDUCTION: f64 = 0.2;
const ROOT_FPU_REDUCTION: f64 = 0.1;
/// Weight of one virtual loss, in visits.
const VIRTUAL_LOSS: f64 = 1.0;

/// A move on a board of `size`, as the tree stores it.
pub(crate) fn tree_move(mv: Move, size: BoardSize) -> u16 {
    match mv {
        Move::Play(p) => size.offset(p) as u16,
        Move::Pass => PASS,
    }
}

/// A tree move back as a game move.
pub(crate) fn game_move(mv: u16, size: BoardSize) -> Move {
    let n = usize::from(size.get());
    let i = usize::from(mv);
    if mv == PASS || i >= n * n {
        return Move::Pass;
    }
    Move::Play(Point::new((i % n) as u8, (i / n) as u8))
}

/// What the search threads share.
pub(crate) struct Shared<'a> {
    pub(crate) tree: &'a Tree,
    pub(crate) root: &'a Position,
    pub(crate) evaluator: &'a Evaluator,
    utility: Utility,
    /// Leaves a thread gathers before one network pass.
    batch: usize,
    pub(crate) stop: AtomicBool,
    /// Visits completed by this search (the budget counts these).
    pub(crate) done: AtomicU64,
    /// Visits allowed to start.
    limit: u64,
    started: AtomicU64,
    /// The arena filled up: the search cannot grow further.
    pub(crate) full: AtomicBool,
    /// Sum of the ownership of every position evaluated, and their number.
    ownership: Mutex<(Vec<f64>, u32)>,
}

impl<'a> Shared<'a> {
    pub(crate) fn new(
        tree: &'a Tree,
        root: &'a Position,
        evaluator: &'a Evaluator,
        root_score: f64,
        batch: usize,
        limit: u64,
    ) -> Self {
        let area = root.size().area();
        Shared {
            tree,
            root,
            evaluator,
            utility: Utility::new(area, root_score),
            batch: batch.max(1),
            stop: AtomicBool::new(false),
            done: AtomicU64::new(0),
            limit,
            started: AtomicU64::new(0),
            full: AtomicBool::new(false),
            ownership: Mutex::new((vec![0.0; area], 0)),
        }
    }

    fn size(&self) -> BoardSize {
        self.root.size()
    }
}

/// A leaf waiting for its evaluation: the nodes from the root down to it
/// and its position.
struct Leaf {
    path: Vec<u32>,
    position: Position,
}

/// How one walk down the tree ended.
enum Walk {
    /// At a leaf this walk must evaluate.
    Leaf(Box<Leaf>),
    /// At a finished game, already backed up.
    Finished,
    /// At a leaf another walk is evaluating: nothing to do now.
    Collision,
    /// The tree cannot grow.
    Full,
}

/// Runs walks until the search is stopped or its visits are all started.
pub(crate) fn work(shared: &Shared, seed: u64) {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut scratch = Scratch::default();
    let mut leaves: Vec<Box<Leaf>> = Vec::with_capacity(shared.batch);
    while !shared.stop.load(Relaxed) {
        leaves.clear();
        let mut collided = false;
        while leaves.len() < shared.batch {
            if shared.started.fetch_add(1, Relaxed) >= shared.limit {
                shared.started.fetch_sub(1, Relaxed);
                break;
            }
            match walk(shared) {
                Walk::Leaf(leaf) => leaves.push(leaf),
                Walk::Finished => {}
                Walk::Collision => {
                    shared.started.fetch_sub(1, Relaxed);
                    collided = true;
                    break;
                }
                Walk::Full => {
                    shared.started.fetch_sub(1, Relaxed);
                    shared.full.store(true, Relaxed);
                    shared.stop.store(true, Relaxed);
                    break;
                }
            }
        }
        if leaves.is_empty() {
            if shared.started.load(Relaxed) >= shared.limit && !collided {
                break;
            }
            std::thread::yield_now();
            continue;
        }
        let positions: Vec<&Position> = leaves.iter().map(|l| &l.position).collect();
        let evaluations = shared
            .evaluator
            .evaluate(&positions, &mut rng, &mut scratch);
        for (leaf, evaluation) in leaves.iter().zip(evaluations) {
            let value = shared.utility.of_evaluation(&evaluation);
            let node = leaf.path[leaf.path.len() - 1];
            let edges = edges_of(&evaluation, &leaf.position);
            if !shared.tree.expand(node, &edges, value.utility) {
                shared.full.store(true, Relaxed);
                shared.stop.store(true, Relaxed);
            }
            add_ownership(shared, &evaluation);
            back_up(shared, &leaf.path, &value);
        }
    }
}

/// The legal moves of an evaluated position with their priors, most
/// probable first.
fn edges_of(evaluation: &Evaluation, position: &Position) -> Vec<NewEdge> {
    let size = position.size();
    let mut edges: Vec<NewEdge> = size
        .points()
        .map(|p| (p, evaluation.policy[size.offset(p)]))
        .filter(|&(_, prior)| prior >= 0.0)
        .map(|(p, prior)| NewEdge {
            mv: tree_move(Move::Play(p), size),
            prior,
        })
        .collect();
    if evaluation.policy_pass >= 0.0 {
        edges.push(NewEdge {
            mv: PASS,
            prior: evaluation.policy_pass,
        });
    }
    edges.sort_by(|a, b| b.prior.total_cmp(&a.prior));
    edges
}

fn add_ownership(shared: &Shared, evaluation: &Evaluation) {
    if let Ok(mut own) = shared.ownership.lock() {
        let (sums, count) = &mut *own;
        for (s, &o) in sums.iter_mut().zip(&evaluation.white_ownership) {
            *s += f64::from(o);
        }
        *count += 1;
    }
}

/// Records `value` on every node of `path` and takes back their virtual
/// losses.
fn back_up(shared: &Shared, path: &[u32], value: &Value) {
    for &n in path {
        shared.tree.record(n, value);
        shared.tree.remove_virtual_loss(n);
    }
    shared.done.fetch_add(1, Relaxed);
}

/// Walks from the root to a leaf, playing the moves on a copy of the root
/// position and leaving a virtual loss on every node passed.
fn walk(shared: &Shared) -> Walk {
    let tree = shared.tree;
    let mut position = shared.root.clone();
    let mut path = vec![0u32];
    tree.add_virtual_loss(0);
    let give_back = |path: &[u32]| {
        for &n in path {
            tree.remove_virtual_loss(n);
        }
    };
    loop {
        let node = path[path.len() - 1];
        match tree.claim(node) {
            Claim::Won => return Walk::Leaf(Box::new(Leaf { path, position })),
            Claim::Busy => {
                give_back(&path);
                return Walk::Collision;
            }
            Claim::Terminal => {
                let value = shared
                    .utility
                    .of_final_score(f64::from(position.white_score_if_over()));
                back_up(shared, &path, &value);
                return Walk::Finished;
            }
            Claim::Expanded => {}
        }
        let Some(edge) = select(shared, node, path.len() == 1, position.to_move()) else {
            // No legal move at all (impossible: passing is always legal).
            give_back(&path);
            return Walk::Collision;
        };
        let Some(child) = tree.child(edge.index) else {
            give_back(&path);
            return Walk::Full;
        };
        let mv = game_move(edge.mv, shared.size());
        if position.play(mv).is_err() {
            // The position refuses a move the network called legal: never
            // expected; the walk gives up rather than corrupt the tree.
            give_back(&path);
            return Walk::Collision;
        }
        tree.add_virtual_loss(child);
        path.push(child);
        if position.is_over() && tree.claim(child) == Claim::Won {
            tree.set_terminal(child);
        }
    }
}

/// The edge the formula prefers at `node` for `to_move`.
fn select(shared: &Shared, node: u32, is_root: bool, to_move: Color) -> Option<EdgeView> {
    let tree = shared.tree;
    let parent = tree.stats(node);
    let sign = if to_move == Color::White { 1.0 } else { -1.0 };
    let edges: Vec<(EdgeView, Option<Stats>)> = tree
        .edges(node)
        .map(|e| (e, e.child.map(|c| tree.stats(c))))
        .collect();
    let mut children_weight = 0.0;
    let mut visited_prior = 0.0;
    for (e, stats) in &edges {
        if let Some(s) = stats
            && s.visits > 0
        {
            children_weight += f64::from(s.visits);
            visited_prior += f64::from(e.prior);
        }
    }
    // How uncertain the parent's value is, against the prior deviation.
    let weight = f64::from(parent.visits);
    let stdev = if weight <= 1.0 {
        STDEV_PRIOR
    } else {
        let mean_sq = parent.utility * parent.utility;
        let variance = ((mean_sq + STDEV_PRIOR * STDEV_PRIOR) * STDEV_PRIOR_WEIGHT
            + parent.utility_sq.max(mean_sq) * weight)
            / (STDEV_PRIOR_WEIGHT + weight - 1.0)
            - mean_sq;
        variance.max(0.0).sqrt()
    };
    let stdev_factor = 1.0 + STDEV_SCALE * (stdev / STDEV_PRIOR - 1.0);
    let cpuct = CPUCT + CPUCT_LOG * ((children_weight + CPUCT_BASE) / CPUCT_BASE).ln();
    let scaling = cpuct * (children_weight + 0.01).sqrt() * stdev_factor;
    // First-play urgency: the parent's value, leaning on the network's own
    // judgement while little of the prior has been tried, reduced.
    let parent_utility = if parent.visits > 0 {
        parent.utility
    } else {
        parent.own_utility
    };
    let lean = visited_prior.powi(2).min(1.0);
    let fpu_base = lean * parent_utility + (1.0 - lean) * parent.own_utility;
    let reduction = if is_root {
        ROOT_FPU_REDUCTION
    } else {
        FPU_REDUCTION
    } * visited_prior.sqrt();
    let fpu = fpu_base - sign * reduction;
    let mut best: Option<(f64, EdgeView)> = None;
    let mut tried_unvisited = false;
    for (e, stats) in edges {
        let (mut utility, mut child_weight) = match stats {
            Some(s) if s.visits > 0 => (s.utility, f64::from(s.visits)),
            _ => {
                // Edges come most probable first: among the untried ones
                // not under way (same first-play value) only the first can
                // be best.
                if stats.is_none_or(|s| s.virtual_losses == 0) {
                    if tried_unvisited {
                        continue;
                    }
                    tried_unvisited = true;
                }
                (fpu, 0.0)
            }
        };
        if let Some(s) = stats
            && s.virtual_losses > 0
        {
            let loss = -sign * UTILITY_RADIUS;
            let vl = f64::from(s.virtual_losses) * VIRTUAL_LOSS;
            utility += (loss - utility) * vl / (vl + child_weight.max(0.25));
            child_weight += vl;
        }
        let value = scaling * f64::from(e.prior) / (1.0 + child_weight) + sign * utility;
        if best.is_none_or(|(b, _)| value > b) {
            best = Some((value, e));
        }
    }
    best.map(|(_, e)| e)
}

/// The search's view of the root: its moves by visits, each with its
/// values for the player to move and its principal variation, and the
/// ownership averaged over every evaluated position.
pub(crate) fn analysis(shared: &Shared, elapsed: std::time::Duration) -> Analysis {
    let tree = shared.tree;
    let size = shared.size();
    let to_move = shared.root.to_move();
    let sign = if to_move == Color::White { 1.0 } else { -1.0 };
    let root = tree.stats(0);
    let mut moves: Vec<MoveInfo> = tree
        .edges(0)
        .filter_map(|e| {
            let child = e.child?;
            let s = tree.stats(child);
            (s.visits > 0).then(|| {
                let winrate = (0.5 + 0.5 * sign * s.winloss).clamp(0.0, 1.0) as f32;
                MoveInfo {
                    mv: game_move(e.mv, size),
                    visits: s.visits,
                    winrate,
                    prior: e.prior,
                    lcb: lower_bound(winrate, s.visits),
                    score_lead: (sign * s.lead) as f32,
                    score_mean: (sign * s.score) as f32,
                    score_stdev: (s.score_sq - s.score * s.score).max(0.0).sqrt() as f32,
                    utility: (sign * s.utility) as f32,
                    utility_lcb: (sign * s.utility - utility_radius(&s)) as f32,
                    pv: principal_variation(tree, child, e.mv, size),
                }
            })
        })
        .collect();
    moves.sort_by(|a, b| b.visits.cmp(&a.visits).then(b.prior.total_cmp(&a.prior)));
    let ownership = match shared.ownership.lock() {
        Ok(own) if own.1 > 0 => own
            .0
            .iter()
            .map(|s| -(s / f64::from(own.1)) as f32)
            .collect(),
        _ => vec![0.0; size.area()],
    };
    let best = moves.first();
    Analysis {
        size,
        to_move,
        visits: root.visits,
        searched: shared.done.load(Relaxed),
        elapsed,
        winrate: best.map_or((0.5 + 0.5 * sign * root.winloss) as f32, |m| m.winrate),
        score_lead: best.map_or((sign * root.lead) as f32, |m| m.score_lead),
        moves,
        ownership,
    }
}

/// How far below its mean a child's utility may lie: five standard errors,
/// KataGo's bound for choosing by lower confidence.
fn utility_radius(s: &Stats) -> f64 {
    let n = f64::from(s.visits.max(1));
    let variance = (s.utility_sq - s.utility * s.utility).max(0.0);
    // A prior variance keeps a move of few visits from looking certain.
    let prior = STDEV_PRIOR * STDEV_PRIOR;
    let variance = (variance * n + prior * STDEV_PRIOR_WEIGHT) / (n + STDEV_PRIOR_WEIGHT);
    5.0 * (variance / n).sqrt()
}

/// The most visited line from `child` on, `first` the move into it.
fn principal_variation(tree: &Tree, child: u32, first: u16, size: BoardSize) -> Vec<Move> {
    let mut pv = vec![game_move(first, size)];
    let mut node = child;
    while pv.len() < 30 {
        let next = tree
            .edges(node)
            .filter_map(|e| Some((e.mv, e.child?)))
            .map(|(mv, c)| (mv, c, tree.stats(c).visits))
            .filter(|&(_, _, v)| v > 0)
            .max_by_key(|&(_, _, v)| v);
        let Some((mv, c, _)) = next else { break };
        pv.push(game_move(mv, size));
        node = c;
    }
    pv
}
