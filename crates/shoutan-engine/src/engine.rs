//! The computer player's public face: an [`Engine`] takes a position (a
//! [`Game`]) and a [`Budget`], thinks on its own threads, and answers with a
//! [`Decision`] and the [`Analysis`] behind it. It keeps its tree from move
//! to move, can be stopped from another thread through a [`StopHandle`], and
//! is `Send`: a server runs it on a blocking worker, never on its async
//! runtime.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::{Duration, Instant};

use shoutan_clock::TimeControl;
use shoutan_nn::{Network, Position, Scratch};
use shoutan_rules::{Color, Game, Move, Phase, Point, Turn};

use crate::analysis::Analysis;
use crate::endgame;
use crate::evaluator::{Evaluator, builtin_network};
use crate::search::{self, Shared, tree_move};
use crate::time_manager::ClockReading;
use crate::tree::Tree;

/// At a temperature, the least share of the network's favourite's
/// probability a move not searched needs to be drawn at all.
const PLAUSIBLE: f32 = 0.01;

/// The fewest visits a time limit leaves a search (a smaller visit budget
/// still ends it first): a network evaluation of the position and a few
/// of its moves. On a loaded machine a short limit is overrun by them; only
/// a [`StopHandle`] ends a search sooner.
const MIN_VISITS: u64 = 4;

/// How much thinking a move may take: the search stops at the first limit
/// reached (or when stopped). Without any limit it runs until stopped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Most visits (network evaluations and finished games reached).
    pub visits: Option<u64>,
    /// Most time.
    pub time: Option<Duration>,
}

impl Budget {
    /// A number of visits.
    #[must_use]
    pub fn visits(n: u64) -> Budget {
        Budget {
            visits: Some(n),
            time: None,
        }
    }

    /// A thinking time.
    #[must_use]
    pub fn time(t: Duration) -> Budget {
        Budget {
            visits: None,
            time: Some(t),
        }
    }

    /// No limit: think until stopped (analysis).
    #[must_use]
    pub fn until_stopped() -> Budget {
        Budget::default()
    }

    /// The time the clock allows for the next move of `game` (see
    /// [`ClockReading::think_time`]); no limit without a clock.
    #[must_use]
    pub fn from_clock(control: &TimeControl, clock: &ClockReading, game: &Game) -> Budget {
        Budget {
            visits: None,
            time: clock.think_time(control, game.turns().len(), game.size().area()),
        }
    }

    /// Both limits: whichever comes first.
    #[must_use]
    pub fn and(self, other: Budget) -> Budget {
        fn min<T: Ord>(a: Option<T>, b: Option<T>) -> Option<T> {
            match (a, b) {
                (Some(x), Some(y)) => Some(std::cmp::min(x, y)),
                (x, None) => x,
                (None, y) => y,
            }
        }
        Budget {
            visits: min(self.visits, other.visits),
            time: min(self.time, other.time),
        }
    }
}

/// Stops a running search from another thread; the search then answers
/// with what it has.
#[derive(Clone, Debug, Default)]
pub struct StopHandle(Arc<AtomicBool>);

impl StopHandle {
    /// A handle not yet stopped.
    #[must_use]
    pub fn new() -> StopHandle {
        StopHandle::default()
    }

    /// Asks the search to stop.
    pub fn stop(&self) {
        self.0.store(true, Relaxed);
    }

    /// Whether a stop was asked.
    #[must_use]
    pub fn is_stopped(&self) -> bool {
        self.0.load(Relaxed)
    }

    /// Makes the handle usable for the next search.
    pub fn reset(&self) {
        self.0.store(false, Relaxed);
    }
}

/// What the engine does with its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Decision {
    /// A stone on this point.
    Play(Point),
    /// 虚着.
    Pass,
    /// 中盘认输: the position is hopeless.
    Resign,
}

/// A decision with the analysis that led to it.
#[derive(Clone, Debug, PartialEq)]
pub struct Thought {
    /// The move.
    pub decision: Decision,
    /// The search behind it.
    pub analysis: Analysis,
}

/// How to play the end of the game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// Normal play.
    #[default]
    Normal,
    /// Cleanup (KGS `kgs-genmove_cleanup`, or a dispute under Art. 21.4):
    /// capture every dead stone of the opponent before passing.
    Cleanup,
}

/// Settings of an engine.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EngineConfig {
    /// Search threads (the machine's cores by default).
    pub threads: usize,
    /// Positions each thread sends the network at once (a batch is
    /// evaluated faster than its positions one by one).
    pub batch: usize,
    /// Largest tree, in nodes (about 100 bytes each, and 12 for each legal
    /// move of an expanded node).
    pub max_nodes: u32,
    /// Resign when the best winrate falls below this (0 never resigns).
    pub resign_below: f32,
    /// Randomness of the move choice (see [`crate::Level`]); 0 plays the
    /// best move.
    pub temperature: f32,
    /// Seed of the random numbers (the network's symmetries, the move
    /// choice at a temperature).
    pub seed: u64,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            batch: 1,
            max_nodes: 1_000_000,
            resign_below: 0.05,
            temperature: 0.0,
            seed: 0x5348_4f55_5441_4e00,
        }
    }
}

/// Why the engine cannot think about a position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// The game is over.
    #[error("the game is over")]
    Finished,
    /// Black has not placed the free handicap yet.
    #[error("the handicap stones have not been placed yet")]
    Setup,
}

/// Which position the tree's root is, to reuse it for the next move.
#[derive(Clone, Debug, PartialEq)]
struct RootKey {
    initial_hash: u64,
    rules: shoutan_rules::Ruleset,
    komi: shoutan_rules::Score,
    handicap: u8,
    turns: Vec<Turn>,
    color: Color,
}

impl RootKey {
    fn of(game: &Game, color: Color) -> RootKey {
        RootKey {
            initial_hash: game.initial_board().hash(),
            rules: *game.ruleset(),
            komi: game.komi(),
            handicap: game.handicap(),
            turns: game.turns().to_vec(),
            color,
        }
    }
}

/// Reports progress every `every` during a search, and its result at the end.
pub struct Reporter<'a> {
    /// Interval between reports.
    pub every: Duration,
    /// Called with the analysis so far, on the thread that called the
    /// search.
    pub report: &'a mut dyn FnMut(&Analysis),
}

/// The computer player.
///
/// ```
/// use shoutan_engine::{Budget, Decision, Engine, EngineConfig, Mode, StopHandle};
/// use shoutan_rules::{BoardSize, Color, Game, Ruleset};
/// let game = Game::new(BoardSize::NINE, Ruleset::CHINESE);
/// let mut engine = Engine::new(EngineConfig { threads: 1, ..EngineConfig::default() });
/// let thought = engine
///     .genmove(&game, Color::Black, Budget::visits(50), Mode::Normal, &StopHandle::new())
///     .unwrap();
/// assert!(matches!(thought.decision, Decision::Play(_)));
/// // The search may stop early once the choice cannot change.
/// assert!(thought.analysis.searched > 0 && thought.analysis.searched <= 50);
/// ```
pub struct Engine {
    config: EngineConfig,
    evaluator: Evaluator,
    tree: Tree,
    root: Option<RootKey>,
    rng: fastrand::Rng,
    scratch: Scratch,
}

impl Engine {
    /// An engine with `config` thinking with the network built into the
    /// binary (shared by every engine of the process).
    #[must_use]
    pub fn new(config: EngineConfig) -> Engine {
        Engine::with_network(config, builtin_network())
    }

    /// An engine with `config` thinking with `network`.
    #[must_use]
    pub fn with_network(config: EngineConfig, network: Arc<Network>) -> Engine {
        Engine {
            config,
            evaluator: Evaluator::new(network),
            tree: Engine::fresh_tree(&config),
            root: None,
            rng: fastrand::Rng::with_seed(config.seed),
            scratch: Scratch::default(),
        }
    }

    fn fresh_tree(config: &EngineConfig) -> Tree {
        Tree::new(config.max_nodes, config.max_nodes.saturating_mul(128))
    }

    /// The settings.
    #[must_use]
    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    /// The network it thinks with.
    #[must_use]
    pub fn network(&self) -> &Arc<Network> {
        self.evaluator.network()
    }

    /// Changes the settings; the tree is kept.
    pub fn set_config(&mut self, config: EngineConfig) {
        self.config = config;
    }

    /// Forgets the tree and the kept evaluations (a new game).
    pub fn clear(&mut self) {
        self.tree = Engine::fresh_tree(&self.config);
        self.root = None;
        self.evaluator.clear();
    }

    /// The network's own evaluation of `game`'s position with `color` to
    /// move: policy, value, score and ownership without search (GTP
    /// `kata-raw-nn`), under `symmetry`.
    pub fn raw_evaluation(
        &mut self,
        game: &Game,
        color: Color,
        symmetry: shoutan_nn::Symmetry,
    ) -> Result<shoutan_nn::Evaluation, EngineError> {
        let game = playable(game, color)?;
        let position = Position::from_game(&game);
        let answer = self
            .network()
            .clone()
            .evaluate(&[(&position, symmetry)], &mut self.scratch);
        answer.into_iter().next().ok_or(EngineError::Finished)
    }

    /// Thinks about `color`'s move in `game` and decides.
    pub fn genmove(
        &mut self,
        game: &Game,
        color: Color,
        budget: Budget,
        mode: Mode,
        stop: &StopHandle,
    ) -> Result<Thought, EngineError> {
        self.genmove_reporting(game, color, budget, mode, stop, None)
    }

    /// [`genmove`](Self::genmove) with progress reports (GTP
    /// `lz-genmove_analyze`).
    pub fn genmove_reporting(
        &mut self,
        game: &Game,
        color: Color,
        budget: Budget,
        mode: Mode,
        stop: &StopHandle,
        reporter: Option<Reporter<'_>>,
    ) -> Result<Thought, EngineError> {
        let game = playable(game, color)?;
        let analysis = self.think(&game, color, budget, stop, reporter, true);
        let decision = self.decide(&game, color, &analysis, mode);
        Ok(Thought { decision, analysis })
    }

    /// Analyses `game` for `color` until the budget is spent or `stop` is
    /// called, reporting as it goes.
    pub fn analyze(
        &mut self,
        game: &Game,
        color: Color,
        budget: Budget,
        stop: &StopHandle,
        reporter: Option<Reporter<'_>>,
    ) -> Result<Analysis, EngineError> {
        let game = playable(game, color)?;
        Ok(self.think(&game, color, budget, stop, reporter, false))
    }

    /// Dead and seki stones of the position, as the network judges them
    /// (GTP `final_status_list`, the dead-stone proposal at the end).
    pub fn final_status(&mut self, game: &Game) -> crate::Judgement {
        crate::judge(self.network(), game)
    }

    fn think(
        &mut self,
        game: &Game,
        color: Color,
        budget: Budget,
        stop: &StopHandle,
        mut reporter: Option<Reporter<'_>>,
        may_stop_early: bool,
    ) -> Analysis {
        let start = Instant::now();
        let position = Position::from_game(game);
        match self.reusable_node(game, color) {
            Some(0) => {}
            Some(n) => self.tree = self.tree.subtree(n),
            None => self.tree = Engine::fresh_tree(&self.config),
        }
        // The root's own evaluation first: the centre of the score utility.
        let root_score = self
            .evaluator
            .evaluate(&[&position], &mut self.rng, &mut self.scratch)
            .first()
            .map_or(0.0, |e| f64::from(e.white_score));
        let shared = Shared::new(
            &self.tree,
            &position,
            &self.evaluator,
            root_score,
            self.config.batch,
            budget.visits.unwrap_or(u64::MAX),
        );
        let threads = self.config.threads.max(1);
        let seed = self.rng.u64(..);
        let mut next_report = reporter.as_ref().map(|r| start + r.every);
        std::thread::scope(|s| {
            for t in 0..threads {
                let shared = &shared;
                s.spawn(move || search::work(shared, seed.wrapping_add(t as u64)));
            }
            loop {
                std::thread::sleep(Duration::from_millis(2));
                let elapsed = start.elapsed();
                let done = shared.done.load(Relaxed);
                let finished = stop.is_stopped()
                    || shared.stop.load(Relaxed)
                    || budget.visits.is_some_and(|v| done >= v)
                    || (done >= MIN_VISITS
                        && (budget.time.is_some_and(|t| elapsed >= t)
                            || (may_stop_early && decided(&shared, budget, elapsed))));
                if finished {
                    shared.stop.store(true, Relaxed);
                    break;
                }
                if let (Some(r), Some(at)) = (reporter.as_mut(), next_report)
                    && Instant::now() >= at
                {
                    (r.report)(&search::analysis(&shared, elapsed));
                    next_report = Some(Instant::now() + r.every);
                }
            }
        });
        let analysis = search::analysis(&shared, start.elapsed());
        // The last report is the search's result, however short the search
        // was beside the interval.
        if let Some(r) = reporter.as_mut() {
            (r.report)(&analysis);
        }
        self.root = Some(RootKey::of(game, color));
        analysis
    }

    /// The node of the stored tree that is `game`'s position, if the game
    /// went on from the stored root by moves the tree knows.
    fn reusable_node(&self, game: &Game, color: Color) -> Option<u32> {
        let stored = self.root.as_ref()?;
        let now = RootKey::of(game, color);
        if stored.initial_hash != now.initial_hash
            || stored.rules != now.rules
            || stored.komi != now.komi
            || stored.handicap != now.handicap
            || !now.turns.starts_with(&stored.turns)
        {
            return None;
        }
        let size = game.size();
        let mut node = 0;
        let mut expected = stored.color;
        for turn in &now.turns[stored.turns.len()..] {
            if turn.color != expected {
                return None;
            }
            let mv = tree_move(turn.mv, size);
            node = self
                .tree
                .edges(node)
                .find(|e| e.mv == mv)
                .and_then(|e| e.child)?;
            expected = expected.opponent();
        }
        (expected == color).then_some(node)
    }

    /// Turns the analysis into a move: resign when hopeless, pass only when
    /// it is safe under the ruleset, fill dame under area counting, capture
    /// dead stones in cleanup.
    fn decide(&mut self, game: &Game, color: Color, analysis: &Analysis, mode: Mode) -> Decision {
        let area = game.size().area();
        // Cleanup settles the dead stones of a game already played out:
        // no resigning there.
        if mode == Mode::Normal
            && self.config.resign_below > 0.0
            && analysis.winrate < self.config.resign_below
            && analysis.visits >= 100
            && game.turns().len() >= area / 4
        {
            return Decision::Resign;
        }
        let status = endgame::final_status(game.board(), &analysis.ownership);
        let assessment = endgame::assess(game, color, &status, &analysis.ownership);
        let most_visited = |points: &[Point]| {
            analysis
                .moves
                .iter()
                .find(|m| matches!(m.mv, Move::Play(p) if points.contains(&p)))
                .map(|m| m.mv)
                .or_else(|| {
                    points
                        .iter()
                        .find(|&&p| game.is_legal(color, p))
                        .map(|&p| Move::Play(p))
                })
        };
        if mode == Mode::Cleanup
            && let Some(mv) = most_visited(&assessment.dead_liberties)
        {
            return to_decision(mv);
        }
        let opponent_passed = game
            .turns()
            .last()
            .is_some_and(|t| t.mv == Move::Pass && t.color != color);
        // Once the opponent has passed, a pass ends the game: every level
        // plays its best there, or a weak level's draw would go on filling
        // its own eyes in a finished game instead of ending it.
        let temperature = if opponent_passed {
            0.0
        } else {
            self.config.temperature
        };
        let chosen = self.choose(analysis, temperature);
        let nothing_to_fill = assessment.dame.is_empty();
        if chosen != Move::Pass {
            // The opponent passed and the count is ours: end the game.
            if opponent_passed && nothing_to_fill && assessment.wins_by_count {
                return Decision::Pass;
            }
            return to_decision(chosen);
        }
        // The search would pass. Under area counting every open point is
        // half a point: fill them first (Art. 21.2).
        if let Some(fill) = most_visited(&assessment.dame) {
            return to_decision(fill);
        }
        // A pass ends the game after the opponent's, and is safe where
        // everything is decided; otherwise, under area counting, passing
        // hands the opponent a free move: play the best real move instead.
        let territory = game.ruleset().counting == shoutan_rules::Counting::Territory;
        if opponent_passed || territory || assessment.settled {
            return Decision::Pass;
        }
        analysis
            .moves
            .iter()
            .find(|m| m.mv != Move::Pass)
            .map_or(Decision::Pass, |m| to_decision(m.mv))
    }

    /// The move to play. At temperature 0 the best by KataGo's rule: among
    /// the moves searched at least 15 % as much as the most searched, the
    /// one whose utility's lower confidence bound is highest. At a
    /// temperature, a draw weighted by `(visits + prior)^(1/temperature)`
    /// among the moves searched and those the network gives at least
    /// [`PLAUSIBLE`] of its favourite's probability: with a visit or two
    /// that is the network's policy flattened, with many the search's
    /// choice — and never a move no player would consider (filling one's
    /// own eye, a first-line move in the opening).
    fn choose(&mut self, analysis: &Analysis, t: f32) -> Move {
        if t <= 0.0 {
            let most = analysis.moves.first().map_or(0, |m| m.visits);
            return analysis
                .moves
                .iter()
                .filter(|m| f64::from(m.visits) >= 0.15 * f64::from(most))
                .max_by(|a, b| a.utility_lcb.total_cmp(&b.utility_lcb))
                .map_or_else(|| self.most_probable(analysis), |m| m.mv);
        }
        let size = analysis.size;
        let favourite = self.tree.edges(0).map(|e| e.prior).fold(0.0, f32::max);
        let weights: Vec<(Move, f64)> = self
            .tree
            .edges(0)
            .filter_map(|e| {
                let visits = e.child.map_or(0, |c| self.tree.stats(c).visits);
                let mv = search::game_move(e.mv, size);
                let plausible = visits > 0 || e.prior >= PLAUSIBLE * favourite;
                let passing_early =
                    mv == Move::Pass && analysis.moves.first().is_none_or(|m| m.mv != mv);
                (plausible && !passing_early).then(|| {
                    let w = (f64::from(visits) + f64::from(e.prior)).powf(1.0 / f64::from(t));
                    (mv, w)
                })
            })
            .collect();
        let total: f64 = weights.iter().map(|w| w.1).sum();
        let mut x = self.rng.f64() * total;
        for (mv, w) in &weights {
            if x < *w {
                return *mv;
            }
            x -= w;
        }
        self.most_probable(analysis)
    }

    /// The network's favourite at the root, when nothing was searched.
    fn most_probable(&self, analysis: &Analysis) -> Move {
        self.tree
            .edges(0)
            .next()
            .map_or(Move::Pass, |e| search::game_move(e.mv, analysis.size))
    }
}

fn to_decision(mv: Move) -> Decision {
    match mv {
        Move::Play(p) => Decision::Play(p),
        Move::Pass => Decision::Pass,
    }
}

/// Whether the most visited root move can no longer be overtaken in the
/// time or visits left.
fn decided(shared: &Shared, budget: Budget, elapsed: Duration) -> bool {
    let done = shared.done.load(Relaxed);
    if done < 50 {
        return false;
    }
    let left = match (budget.visits, budget.time) {
        (Some(v), _) => v.saturating_sub(done) as f64,
        (None, Some(t)) => {
            let rate = done as f64 / elapsed.as_secs_f64().max(1e-3);
            rate * t.saturating_sub(elapsed).as_secs_f64()
        }
        (None, None) => return false,
    };
    let tree = shared.tree;
    let mut top = [0u32; 2];
    for e in tree.edges(0) {
        let v = e.child.map_or(0, |c| tree.stats(c).visits);
        if v > top[0] {
            top = [v, top[0]];
        } else if v > top[1] {
            top[1] = v;
        }
    }
    f64::from(top[0] - top[1]) > left
}

/// `game` ready for `color` to move: out-of-turn moves (GTP allows them)
/// and play after both passed (a dispute, Art. 21.4) are arranged on a copy.
fn playable(game: &Game, color: Color) -> Result<Game, EngineError> {
    let mut game = game.clone();
    match game.phase() {
        Phase::Finished => return Err(EngineError::Finished),
        Phase::Setup => return Err(EngineError::Setup),
        Phase::Counting => {
            game.dispute(color).map_err(|_| EngineError::Finished)?;
        }
        Phase::Play => {}
    }
    if game.to_move() != color {
        game.set_to_move(color).map_err(|_| EngineError::Finished)?;
    }
    Ok(game)
}
