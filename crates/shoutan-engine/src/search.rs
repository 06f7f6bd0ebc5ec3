//! The search proper: worker threads running simulations on one shared tree
//! (descend by the selection formula, expand, play out, back up the result
//! and the AMAF statistics), and the reading of the tree into an
//! [`Analysis`].

use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU32, AtomicU64, Ordering::Relaxed};

use shoutan_rules::{Board, Color, Game, Move, PointIndex, Turn};

use crate::analysis::{Analysis, MoveInfo, lower_bound};
use crate::knowledge::Knowledge;
use crate::playout::{self, Policy, Scoring};
use crate::prior::{self, PriorScratch};
use crate::tree::{NewChild, PASS, Selection, Tree};

/// The position a search starts from, in the board's fast terms.
pub(crate) struct Root {
    pub(crate) board: Board,
    pub(crate) color: Color,
    /// The previous two moves, where they were stones (the last first).
    pub(crate) last: [Option<PointIndex>; 2],
    /// Whether the previous turn was a pass (0 or 1).
    pub(crate) passes: u8,
    pub(crate) scoring: Scoring,
    /// Cell number → the point's index (the tree stores cell numbers).
    cells: Vec<Option<PointIndex>>,
    /// Every point's index, row by row from the top left.
    points: Vec<PointIndex>,
}

impl Root {
    /// The position of `game` with `color` to move.
    pub(crate) fn new(game: &Game, color: Color) -> Root {
        let board = game.board().clone();
        let size = board.size();
        let points: Vec<PointIndex> = size.points().map(|p| board.index(p)).collect();
        let top = points.iter().map(|i| i.get()).max().unwrap_or(0);
        let mut cells = vec![None; top + 1];
        for &i in &points {
            cells[i.get()] = Some(i);
        }
        let turns = game.turns();
        let stone = |k: usize| match turns.iter().rev().nth(k) {
            Some(Turn {
                mv: Move::Play(p), ..
            }) => Some(board.index(*p)),
            _ => None,
        };
        let last = [stone(0), stone(1)];
        // The root is never over: after two passes play has resumed (a
        // dispute), and only one pass counts towards the end.
        let passes = u8::from(turns.last().is_some_and(|t| t.mv == Move::Pass));
        let settings = game.count_settings();
        let rules = settings.ruleset;
        let compensation = if settings.handicap >= 2 {
            rules.handicap_compensation.for_stones(settings.handicap)
        } else {
            shoutan_rules::Score::ZERO
        };
        let warnings =
            4 * (i32::from(settings.warnings.black) - i32::from(settings.warnings.white));
        Root {
            board,
            color,
            last,
            passes,
            scoring: Scoring {
                komi_half_points: settings.komi.half_points()
                    + compensation.half_points()
                    + warnings,
                tie: rules.tie,
            },
            cells,
            points,
        }
    }

    /// The index of a cell number the tree stores.
    #[inline]
    pub(crate) fn cell(&self, mv: u16) -> Option<PointIndex> {
        self.cells.get(usize::from(mv)).copied().flatten()
    }

    /// A tree move as a game move.
    pub(crate) fn game_move(&self, mv: u16) -> Move {
        match self.cell(mv) {
            Some(i) if mv != PASS => Move::Play(self.board.point(i)),
            _ => Move::Pass,
        }
    }

    /// The tree's number for a point.
    pub(crate) fn number(&self, mv: Move) -> u16 {
        match mv {
            Move::Play(p) => self.board.index(p).get() as u16,
            Move::Pass => PASS,
        }
    }
}

/// What the workers share while a search runs.
pub(crate) struct Shared<'a> {
    pub(crate) tree: &'a Tree,
    pub(crate) root: &'a Root,
    pub(crate) selection: Selection,
    /// Visits before a leaf gets children.
    pub(crate) expand_at: u32,
    pub(crate) stop: AtomicBool,
    /// Playouts started (the limit is checked on this).
    pub(crate) started: AtomicU64,
    /// Playouts finished.
    pub(crate) done: AtomicU64,
    pub(crate) limit: u64,
    own_black: Vec<AtomicU32>,
    own_white: Vec<AtomicU32>,
    samples: AtomicU32,
    margin_half_points: AtomicI64,
}

impl<'a> Shared<'a> {
    pub(crate) fn new(tree: &'a Tree, root: &'a Root, selection: Selection, limit: u64) -> Self {
        let area = root.points.len();
        let expand_at = if area <= 13 * 13 { 2 } else { 3 };
        Shared {
            tree,
            root,
            selection,
            expand_at,
            stop: AtomicBool::new(false),
            started: AtomicU64::new(0),
            done: AtomicU64::new(0),
            limit,
            own_black: (0..area).map(|_| AtomicU32::new(0)).collect(),
            own_white: (0..area).map(|_| AtomicU32::new(0)).collect(),
            samples: AtomicU32::new(0),
            margin_half_points: AtomicI64::new(0),
        }
    }
}

/// Stone colours as AMAF marks.
const fn mark(c: Color) -> u8 {
    match c {
        Color::Black => 1,
        Color::White => 2,
    }
}

/// Result of a simulation for the player `c`, in half wins.
#[inline]
fn half_wins(winner: Option<Color>, c: Color) -> u32 {
    match winner {
        Some(w) if w == c => 2,
        Some(_) => 0,
        None => 1,
    }
}

/// One search thread's buffers.
struct Worker {
    board: Board,
    rng: fastrand::Rng,
    policy: Policy,
    prior_scratch: PriorScratch,
    children: Vec<NewChild>,
    path: Vec<u32>,
    /// Tree moves with their player.
    moves: Vec<(u16, Color)>,
    first: Vec<u8>,
    own_black: Vec<u32>,
    own_white: Vec<u32>,
    samples: u32,
    margin: i64,
}

/// Runs simulations until the search is stopped or the limit is reached.
pub(crate) fn work(shared: &Shared, seed: u64) {
    let root = shared.root;
    let area = root.points.len();
    let mut w = Worker {
        board: root.board.clone(),
        rng: fastrand::Rng::with_seed(seed),
        policy: Policy::new(Knowledge::shipped()),
        prior_scratch: PriorScratch::default(),
        children: Vec::new(),
        path: Vec::new(),
        moves: Vec::new(),
        first: vec![0; root.cells.len()],
        own_black: vec![0; area],
        own_white: vec![0; area],
        samples: 0,
        margin: 0,
    };
    while !shared.stop.load(Relaxed) {
        if shared.started.fetch_add(1, Relaxed) >= shared.limit {
            break;
        }
        w.simulate(shared);
        shared.done.fetch_add(1, Relaxed);
        if w.samples >= 32 {
            w.flush(shared);
        }
    }
    w.flush(shared);
}

impl Worker {
    fn simulate(&mut self, sh: &Shared) {
        let root = sh.root;
        let tree = sh.tree;
        self.board.clone_from(&root.board);
        self.path.clear();
        self.moves.clear();
        self.policy.record.clear();
        let mut node = 0;
        let mut c = root.color;
        let mut last = root.last;
        let mut passes = root.passes;
        tree.visit(0);
        self.path.push(0);
        while passes < 2 {
            if !tree.is_expanded(node) {
                if tree.stats(node).visits < sh.expand_at || !tree.try_claim(node) {
                    break;
                }
                prior::children(
                    &self.board,
                    c,
                    last,
                    &|_| true,
                    &mut self.prior_scratch,
                    &mut self.children,
                );
                if !tree.expand(node, &self.children) {
                    break;
                }
            }
            let Some(child) = tree.select(node, &sh.selection) else {
                break;
            };
            tree.visit(child);
            self.path.push(child);
            let mv = tree.mv(child);
            match root.cell(mv).filter(|_| mv != PASS) {
                Some(i) => {
                    self.board.play_unchecked(i, c);
                    last = [Some(i), last[0]];
                    passes = 0;
                }
                None => {
                    self.board.clear_ko();
                    last = [None, last[0]];
                    passes += 1;
                }
            }
            self.moves.push((mv, c));
            c = c.opponent();
            node = child;
        }
        let area = playout::run(&mut self.board, c, last[0], &mut self.policy, &mut self.rng);
        let winner = root.scoring.winner(area);
        // The result, for the player who made each node's move.
        tree.record(0, half_wins(winner, root.color.opponent()));
        for (k, &n) in self.path.iter().enumerate().skip(1) {
            tree.record(n, half_wins(winner, self.moves[k - 1].1));
        }
        self.update_amaf(tree, winner);
        self.tally(root, area);
    }

    /// All-moves-as-first: every child of a node on the path whose move its
    /// player made later in the simulation (first on its point) shares the
    /// result.
    fn update_amaf(&mut self, tree: &Tree, winner: Option<Color>) {
        self.first.fill(0);
        for &(i, c) in self.policy.record.iter().rev() {
            self.first[i.get()] = mark(c);
        }
        for d in (0..self.moves.len()).rev() {
            let (mv, c) = self.moves[d];
            if mv != PASS {
                self.first[usize::from(mv)] = mark(c);
            }
            let half = half_wins(winner, c);
            for child in tree.children(self.path[d]) {
                let m = tree.mv(child);
                if m != PASS && self.first[usize::from(m)] == mark(c) {
                    tree.record_rave(child, half);
                }
            }
        }
    }

    fn tally(&mut self, root: &Root, area: i32) {
        for (k, &i) in root.points.iter().enumerate() {
            match shoutan_rules::playout_owner(&self.board, i) {
                Some(Color::Black) => self.own_black[k] += 1,
                Some(Color::White) => self.own_white[k] += 1,
                None => {}
            }
        }
        self.samples += 1;
        self.margin += i64::from(2 * area - root.scoring.komi_half_points);
    }

    fn flush(&mut self, sh: &Shared) {
        if self.samples == 0 {
            return;
        }
        for (k, v) in self.own_black.iter_mut().enumerate() {
            if *v > 0 {
                sh.own_black[k].fetch_add(*v, Relaxed);
                *v = 0;
            }
        }
        for (k, v) in self.own_white.iter_mut().enumerate() {
            if *v > 0 {
                sh.own_white[k].fetch_add(*v, Relaxed);
                *v = 0;
            }
        }
        sh.samples.fetch_add(self.samples, Relaxed);
        sh.margin_half_points.fetch_add(self.margin, Relaxed);
        self.samples = 0;
        self.margin = 0;
    }
}

/// The most visited child of `n` (ties: the better winrate).
pub(crate) fn best_child(tree: &Tree, n: u32) -> Option<u32> {
    tree.children(n)
        .filter(|&c| !tree.stats(c).pruned)
        .max_by(|&a, &b| {
            let (sa, sb) = (tree.stats(a), tree.stats(b));
            sa.visits
                .cmp(&sb.visits)
                .then(sa.winrate().total_cmp(&sb.winrate()))
        })
}

/// Reads the tree and the playouts' statistics.
pub(crate) fn analysis(sh: &Shared, elapsed: std::time::Duration) -> Analysis {
    let tree = sh.tree;
    let root = sh.root;
    let children: Vec<u32> = tree
        .children(0)
        .filter(|&c| !tree.stats(c).pruned)
        .collect();
    let policy = |c: u32| f32::from(tree.stats(c).policy);
    let policy_total: f32 = children
        .iter()
        .map(|&c| policy(c))
        .sum::<f32>()
        .max(f32::EPSILON);
    let mut moves: Vec<MoveInfo> = children
        .iter()
        .filter(|&&c| tree.stats(c).visits > 0)
        .map(|&c| {
            let s = tree.stats(c);
            let winrate = s.winrate();
            MoveInfo {
                mv: root.game_move(s.mv),
                visits: s.visits,
                winrate,
                prior: policy(c) / policy_total,
                lcb: lower_bound(winrate, s.visits),
                pv: principal_variation(tree, root, c),
            }
        })
        .collect();
    moves.sort_by(|a, b| {
        b.visits
            .cmp(&a.visits)
            .then(b.winrate.total_cmp(&a.winrate))
    });
    let samples = sh.samples.load(Relaxed).max(1) as f32;
    let ownership = (0..root.points.len())
        .map(|k| {
            (sh.own_black[k].load(Relaxed) as f32 - sh.own_white[k].load(Relaxed) as f32) / samples
        })
        .collect();
    let black_lead = sh.margin_half_points.load(Relaxed) as f32 / (2.0 * samples);
    let score_lead = match root.color {
        Color::Black => black_lead,
        Color::White => -black_lead,
    };
    Analysis {
        size: root.board.size(),
        to_move: root.color,
        visits: tree.stats(0).visits,
        playouts: sh.done.load(Relaxed),
        elapsed,
        winrate: moves.first().map_or(0.5, |m| m.winrate),
        score_lead,
        moves,
        ownership,
    }
}

/// The line of most visited moves from `start`.
fn principal_variation(tree: &Tree, root: &Root, start: u32) -> Vec<Move> {
    let mut pv = vec![root.game_move(tree.mv(start))];
    let mut n = start;
    while pv.len() < 16 {
        match best_child(tree, n) {
            Some(c) if tree.stats(c).visits >= 2 => {
                pv.push(root.game_move(tree.mv(c)));
                n = c;
            }
            _ => break,
        }
    }
    pv
}
