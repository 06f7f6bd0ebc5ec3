//! Depth-first proof-number search (df-pn, Nagai 2002) of the local fight,
//! in the φ/δ form: every node's numbers are from the point of view of its
//! player to move, φ the effort to prove they win and δ to prove they lose.
//! A node's φ is the least δ of its children and its δ the sum of their φ;
//! the search descends into the most promising child with thresholds that
//! send it back up as soon as another child looks better.
//!
//! Two reachability games are searched ([`Game`]). In the capture game the
//! attacker wins by capturing the target in finitely many moves, the
//! attacker passes only to lift a ko ban on himself where the threats are
//! counted (any other pass the defender answers with one and keeps the
//! target), and play that goes round for ever leaves the target on the
//! board, so it counts for the defender. In the life game
//! the defender wins by reaching unconditional life (Benson) or escaping in
//! finitely many moves, both sides may pass, and play that goes round for
//! ever (two passes in a row among it) counts for the attacker: a target
//! the defender keeps in the first game but cannot bring to life in the
//! second lives only in seki.
//!
//! The states are the stones, the player to move and the simple-ko ban,
//! which makes a position's value independent of how it was reached. Only
//! the search's treatment of a repetition on the current path (a loss for
//! the side that must reach its terminal) is path-dependent, so results
//! that used one are never stored as final in the transposition table; they
//! are valid only at the root of the search that found them, which is all
//! they are used for. A side that can force its terminal can always do so
//! without repeating a position, so this is sound.
//!
//! Ko threats are modelled as a choice of who may ignore the simple-ko ban:
//! the side holding the threats may retake at once (the threat and its
//! answer elsewhere are implied), as often as it likes or, when its
//! [`Threats`] are counted, once per threat; the other side has none. Only
//! the difference between the sides' threats decides a ko, so one holder
//! with a count measures any balance of threats.

use std::cell::Cell;
use std::collections::HashMap;
use std::time::{Duration, Instant};

use shoutan_rules::{Board, BoardError, Color, Move, Point, PointIndex, Suicide, is_pass_alive};

use crate::Problem;
use crate::interchangeable::Interchangeable;
use crate::table::{Numbers, Table, key};

/// Larger than any real proof or disproof number: "proved".
const INF: u64 = 1 << 40;

/// Positions whose terminal test is remembered before the memory is
/// emptied and refilled.
const MAX_TERMINALS: usize = 1 << 20;

/// Cells of the largest board's padded array fit in this many flags.
const CELLS: usize = 1024;

/// How much the answer for one side moving first may spend
/// ([`solve`](crate::solve) answers for both, so it may spend twice this);
/// first moves still undecided when either runs out are reported as such,
/// and the verdict is [`Verdict::Unknown`](crate::Verdict::Unknown) unless
/// a decided move already wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Positions searched, over every first move and both ko assumptions;
    /// never exceeded.
    pub nodes: u64,
    /// Wall-clock time.
    pub time: Duration,
}

impl Default for Budget {
    /// Two million positions or ten seconds: the basic corner and side
    /// shapes take from tens to thousands of positions.
    fn default() -> Budget {
        Budget {
            nodes: 2_000_000,
            time: Duration::from_secs(10),
        }
    }
}

/// How many ko threats a search's holder has left: each retake of a banned
/// ko spends one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Threats {
    Unlimited,
    Left(u8),
}

impl Threats {
    /// What is left after one threat, or `None` when none is left.
    fn spend(self) -> Option<Threats> {
        match self {
            Threats::Unlimited => Some(Threats::Unlimited),
            Threats::Left(0) => None,
            Threats::Left(n) => Some(Threats::Left(n - 1)),
        }
    }
}

/// What one search proved for its player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    Wins,
    Loses,
    Unknown,
}

/// The game a search plays: which side must reach its terminal, and so
/// which side an endless repetition favours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Game {
    /// The attacker wins by capturing the target; the attacker passes only
    /// under a ko ban with the threats counted; a repetition keeps the
    /// target, for the defender.
    Capture,
    /// The defender wins by making the target unconditionally alive (or
    /// escaping); both sides may pass; a repetition is the attacker's.
    Life,
}

/// A child of the node being searched, with what is known of it.
struct Child {
    /// The move's point, `None` for a pass.
    at: Option<PointIndex>,
    threats: Threats,
    key: u64,
    numbers: Numbers,
    /// Whether `numbers`, if final, rests on a repetition of the path.
    path_dependent: bool,
}

/// One df-pn search configuration: a problem and who has the ko threats.
pub(crate) struct Search {
    /// The region's points, where moves may be played.
    cells: Vec<PointIndex>,
    /// The region as flags by cell, for the escape test.
    in_region: Vec<bool>,
    /// Points whose order of filling changes nothing.
    interchangeable: Interchangeable,
    target: PointIndex,
    /// The same point, as Benson's test takes it.
    target_point: Point,
    attacker: Color,
    defender: Color,
    suicide: Suicide,
    /// The side that may ignore the simple-ko ban, as its [`Threats`] allow.
    holder: Color,
    game: Game,
    table: Table,
    /// Benson's verdict on the target, by the stones' hash: df-pn expands
    /// a node many times, and the test is not free.
    terminals: HashMap<u64, Option<bool>>,
    /// Keys of the states from the root to the node being searched.
    path: Vec<u64>,
    /// Whether any position this search has met banned a ko retake: until
    /// one does, its results hold whoever has the ko threats.
    met_ko_ban: Cell<bool>,
    /// Boards of nodes already searched, to be reused: one per level of
    /// the deepest line so far.
    spare: Vec<Board>,
    nodes: u64,
    max_nodes: u64,
    deadline: Instant,
    out_of_budget: bool,
}

/// The numbers of a decided position, for its player to move.
const fn exact(mover_wins: bool) -> Numbers {
    if mover_wins {
        Numbers { phi: 0, delta: INF }
    } else {
        Numbers { phi: INF, delta: 0 }
    }
}

impl Search {
    /// A search of `problem`'s `game` in which `holder` holds the ko
    /// threats (how many is told to each [`Search::prove`]).
    pub(crate) fn new(problem: &Problem, game: Game, holder: Color, deadline: Instant) -> Search {
        let cells = problem.region_cells();
        let mut in_region = vec![false; CELLS];
        for &i in &cells {
            in_region[i.get() % CELLS] = true;
        }
        let board = problem.board();
        let target = board.index(problem.target());
        let interchangeable =
            Interchangeable::find(board, target, &cells, |i| in_region[i.get() % CELLS]);
        Search {
            cells,
            in_region,
            interchangeable,
            target,
            target_point: problem.target(),
            attacker: problem.attacker(),
            defender: problem.defender(),
            suicide: problem.suicide(),
            holder,
            game,
            table: Table::default(),
            terminals: HashMap::new(),
            path: Vec::new(),
            met_ko_ban: Cell::new(false),
            spare: Vec::new(),
            nodes: 0,
            max_nodes: 0,
            deadline,
            out_of_budget: false,
        }
    }

    /// Sets the time after which searches stop.
    pub(crate) fn set_deadline(&mut self, deadline: Instant) {
        self.deadline = deadline;
    }

    /// Whether the time is up.
    pub(crate) fn past_deadline(&self) -> bool {
        Instant::now() >= self.deadline
    }

    /// Positions searched so far.
    pub(crate) fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether every result so far is independent of who holds the ko
    /// threats: no position met banned a retake, so the same searches with
    /// the threats held by the other side, or counted, would have met the
    /// same moves everywhere.
    pub(crate) fn ko_free(&self) -> bool {
        !self.met_ko_ban.get()
    }

    /// The transposition key of a state: positions that differ only in
    /// which interchangeable points hold which stones share it.
    pub(crate) fn key(&self, board: &Board, to_move: Color, threats: Threats) -> u64 {
        key(self.interchangeable.hash(board), board, to_move, threats)
    }

    /// Whether the attacker has won (`Some(true)`), the defender has
    /// (`Some(false)`), or the fight goes on.
    fn terminal(&mut self, board: &Board) -> Option<bool> {
        if board.stone(self.target) != Some(self.defender) {
            return Some(true);
        }
        let libs = board.liberties(self.target);
        // A liberty where no move may be played can never be filled.
        if libs.iter().any(|l| !self.in_region[l.get() % CELLS]) {
            return Some(false);
        }
        if libs.len() < 2 {
            return None;
        }
        if self.terminals.len() >= MAX_TERMINALS {
            self.terminals.clear();
        }
        let target = self.target_point;
        *self
            .terminals
            .entry(board.hash())
            .or_insert_with(|| is_pass_alive(board, target).then_some(false))
    }

    /// The moves of `to_move` when the holder has `threats` left, the
    /// positions after them and the threats left then. In the capture game
    /// the attacker passes only under a ko ban with the threats counted, to
    /// lift it (a tenuki, the ko his to retake later); any other pass the
    /// defender would answer with a pass and keep the target.
    pub(crate) fn moves(
        &self,
        board: &Board,
        to_move: Color,
        threats: Threats,
    ) -> Vec<(Move, Board, Threats)> {
        self.legal(board, to_move, threats, false)
            .into_iter()
            .map(|(at, left)| {
                let mut next = board.clone();
                play(&mut next, at, to_move);
                let mv = at.map_or(Move::Pass, |i| Move::Play(board.point(i)));
                (mv, next, left)
            })
            .collect()
    }

    /// [`Search::moves`] without the positions: each move's point (`None`
    /// for a pass) and the threats left after it; with `one_of_each`, one
    /// move for each set of interchangeable ones.
    fn legal(
        &self,
        board: &Board,
        to_move: Color,
        threats: Threats,
        one_of_each: bool,
    ) -> Vec<(Option<PointIndex>, Threats)> {
        let mut out = Vec::new();
        for &i in &self.cells {
            if !board.is_empty(i)
                || (one_of_each && self.interchangeable.stands_for_another(board, i))
            {
                continue;
            }
            let left = match board.check(i, to_move, self.suicide) {
                Ok(()) => threats,
                Err(BoardError::Ko) => {
                    self.met_ko_ban.set(true);
                    match threats.spend() {
                        Some(left) if to_move == self.holder => left,
                        _ => continue,
                    }
                }
                Err(_) => continue,
            };
            out.push((Some(i), left));
        }
        // Waiting out a ko ban matters only where threats are counted: with
        // unlimited ones the holder retakes at once, or never needs to.
        let waits =
            matches!(threats, Threats::Left(_)) && board.ko().is_some_and(|(_, c)| c == to_move);
        if to_move == self.defender || self.game == Game::Life || waits {
            out.push((None, threats));
        }
        out
    }

    /// Searches the position `board` with `to_move` to play and the holder
    /// holding `threats`, reached from the states `history` (keys, oldest
    /// first), spending at most `max_nodes` more positions.
    pub(crate) fn prove(
        &mut self,
        board: &Board,
        to_move: Color,
        threats: Threats,
        history: &[u64],
        max_nodes: u64,
    ) -> Outcome {
        if let Some(attacker_wins) = self.terminal(board) {
            return if attacker_wins == (to_move == self.attacker) {
                Outcome::Wins
            } else {
                Outcome::Loses
            };
        }
        self.max_nodes = self.nodes.saturating_add(max_nodes);
        self.out_of_budget = max_nodes == 0 || Instant::now() >= self.deadline;
        self.path.clear();
        self.path.extend_from_slice(history);
        let k = self.key(board, to_move, threats);
        let (numbers, _) = self.mid(board, to_move, threats, k, INF, INF);
        if numbers.phi == 0 {
            Outcome::Wins
        } else if numbers.delta == 0 {
            Outcome::Loses
        } else {
            Outcome::Unknown
        }
    }

    /// Counts a node and notes when the budget is spent.
    fn tick(&mut self) {
        self.nodes += 1;
        if self.nodes >= self.max_nodes
            || (self.nodes.is_multiple_of(1024) && Instant::now() >= self.deadline)
        {
            self.out_of_budget = true;
        }
    }

    /// df-pn's multiple iterative deepening at one node: search below it
    /// until its φ reaches `th_phi` or its δ reaches `th_delta`.
    fn mid(
        &mut self,
        board: &Board,
        to_move: Color,
        threats: Threats,
        node_key: u64,
        th_phi: u64,
        th_delta: u64,
    ) -> (Numbers, bool) {
        let known = self.table.get(node_key);
        // A spent budget is never overdrawn: the node is not counted.
        if self.out_of_budget {
            return (known.unwrap_or(Numbers { phi: 1, delta: 1 }), false);
        }
        self.tick();
        if let Some(n) = known
            && (n.phi >= th_phi || n.delta >= th_delta || self.out_of_budget)
        {
            return (n, false);
        }
        if self.out_of_budget {
            return (Numbers { phi: 1, delta: 1 }, false);
        }
        let next = to_move.opponent();
        self.path.push(node_key);
        // One board for every child in turn, kept for the next node when
        // this one is done: copying into a board is cheap, allocating one
        // is not.
        let mut after = self.spare.pop().unwrap_or_else(|| board.clone());
        let mut children: Vec<Child> = Vec::new();
        for (at, left) in self.legal(board, to_move, threats, true) {
            after.clone_from(board);
            play(&mut after, at, to_move);
            let k = self.key(&after, next, left);
            let (numbers, path_dependent) = match self.terminal(&after) {
                Some(attacker_wins) => (exact(attacker_wins == (next == self.attacker)), false),
                // Round and round: the target is never captured, nor
                // brought to life.
                _ if self.path.contains(&k) => {
                    let defender_wins = self.game == Game::Capture;
                    (exact((next == self.defender) == defender_wins), true)
                }
                None => {
                    let n = self.table.get(k).unwrap_or(Numbers { phi: 1, delta: 1 });
                    (n, false)
                }
            };
            children.push(Child {
                at,
                threats: left,
                key: k,
                numbers,
                path_dependent,
            });
        }
        let (numbers, path_dependent) = loop {
            let (numbers, path_dependent) = summarize(&children);
            if numbers.phi >= th_phi || numbers.delta >= th_delta || self.out_of_budget {
                break (numbers, path_dependent);
            }
            let (best, second) = best_two(&children);
            let c = &children[best];
            let child_th_phi = (th_delta - numbers.delta + c.numbers.phi).min(INF);
            let child_th_delta = th_phi.min(second.saturating_add(1));
            let (child_threats, child_key) = (c.threats, c.key);
            after.clone_from(board);
            play(&mut after, c.at, to_move);
            let (n, pd) = self.mid(
                &after,
                next,
                child_threats,
                child_key,
                child_th_phi,
                child_th_delta,
            );
            children[best].numbers = n;
            children[best].path_dependent = pd;
        };
        self.spare.push(after);
        self.path.pop();
        let settled = numbers.phi == 0 || numbers.delta == 0;
        if !(settled && path_dependent) {
            self.table.put(node_key, numbers);
        }
        (numbers, path_dependent)
    }
}

/// Plays `at` (`None`: a pass, which lifts the ko ban) for `color` on
/// `board`, where it is legal.
fn play(board: &mut Board, at: Option<PointIndex>, color: Color) {
    match at {
        Some(i) => {
            board.play_unchecked(i, color);
        }
        None => board.clear_ko(),
    }
}

/// A node's numbers from its children's, and whether a final result rests
/// on a repetition of the path.
fn summarize(children: &[Child]) -> (Numbers, bool) {
    let phi = children
        .iter()
        .map(|c| c.numbers.delta)
        .min()
        .unwrap_or(INF);
    let delta = children
        .iter()
        .map(|c| c.numbers.phi)
        .fold(0, |a: u64, b| a.saturating_add(b))
        .min(INF);
    let path_dependent = if phi == 0 {
        // Won: by any child that is lost for the opponent without repetition.
        !children
            .iter()
            .any(|c| c.numbers.delta == 0 && !c.path_dependent)
    } else if delta == 0 {
        children.iter().any(|c| c.path_dependent)
    } else {
        false
    };
    (Numbers { phi, delta }, path_dependent)
}

/// The child with the least δ (the most promising for the player to move)
/// and the second least δ.
fn best_two(children: &[Child]) -> (usize, u64) {
    let mut best = 0;
    let mut first = INF;
    let mut second = INF;
    for (k, c) in children.iter().enumerate() {
        if c.numbers.delta < first {
            second = first;
            first = c.numbers.delta;
            best = k;
        } else if c.numbers.delta < second {
            second = c.numbers.delta;
        }
    }
    (best, second)
}
