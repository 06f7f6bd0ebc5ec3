//! The game as a state machine: setup (handicap), play, counting, finished.
//!
//! Every operation either succeeds or returns a [`GameError`] and leaves the
//! game exactly as it was.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use serde::{Deserialize, Serialize};

use crate::board::BoardError;
use crate::handicap::{HandicapError, fixed_handicap};
use crate::zobrist::situation;
use crate::{
    Board, BoardSize, ByColor, Color, Count, CountSettings, CycleOutcome, GameResult, Point,
    PointIndex, PointSet, Repetition, Ruleset, Score, WinBy, count,
};

/// A turn: a stone on a point, or a pass (虚着).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Move {
    /// A stone on this point.
    Play(Point),
    /// 放弃下子权.
    Pass,
}

impl Move {
    /// GTP's notation on a board of `size`: `D4`, or `pass`.
    ///
    /// ```
    /// use shoutan_rules::{BoardSize, Move, Point};
    /// let size = BoardSize::NINE;
    /// assert_eq!(Move::Play(Point::from_gtp("C7", size).unwrap()).to_gtp(size), "C7");
    /// assert_eq!(Move::Pass.to_gtp(size), "pass");
    /// ```
    #[must_use]
    pub fn to_gtp(self, size: BoardSize) -> String {
        match self {
            Move::Play(p) => p.to_gtp(size),
            Move::Pass => "pass".to_owned(),
        }
    }
}

/// Where the game is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Black is to place a free handicap.
    Setup,
    /// Moves are being played.
    Play,
    /// Both passed: dead stones are being agreed (Art. 8, 21).
    Counting,
    /// The game has a result.
    Finished,
}

/// How the handicap is given (Art. 10, spec §6).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Handicap {
    /// An even game.
    None,
    /// This many stones on the GTP table's star points.
    Fixed(u8),
    /// Black places this many stones where black likes, before white's first move.
    Free(u8),
    /// These points, already chosen (a record's `AB` with `HA`).
    Placed(Vec<Point>),
}

/// A turn played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    /// Who played.
    pub color: Color,
    /// What.
    pub mv: Move,
}

/// What a successful play did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// The number of this turn, from 1.
    pub number: usize,
    /// The stones it captured.
    pub captured: Vec<Point>,
}

/// Why an action was refused. The game is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The point is not on this board.
    #[error("{point:?} is off the {size} board")]
    OffBoard {
        /// The point.
        point: Point,
        /// The board.
        size: BoardSize,
    },
    /// A stone is already there.
    #[error("{0} is occupied")]
    Occupied(String),
    /// 禁着点: the stone would have no liberty and capture nothing.
    #[error("{0} is suicide: the stone would have no liberties and captures nothing")]
    Suicide(String),
    /// Immediate recapture of a ko.
    #[error("{0} retakes the ko immediately; play a ko threat first")]
    Ko(String),
    /// The move recreates an earlier position.
    #[error("{point} repeats the position after move {repeats} (superko)")]
    Superko {
        /// The point, in GTP notation.
        point: String,
        /// The earlier move (0 = the start) whose position it would recreate.
        repeats: usize,
    },
    /// It is the other player's turn.
    #[error("it is {to_move}'s turn")]
    NotYourTurn {
        /// Who is to move.
        to_move: Color,
    },
    /// The action is not possible in this phase.
    #[error("{action} is not possible: {why}")]
    WrongPhase {
        /// What was tried.
        action: &'static str,
        /// Why not, in words.
        why: &'static str,
    },
    /// A marked point has no stone.
    #[error("{0} has no stone to mark")]
    NoStone(String),
    /// A handicap that cannot be given.
    #[error(transparent)]
    Handicap(#[from] HandicapError),
    /// Handicap stones that are not distinct points on the board.
    #[error("handicap: expected {expected} distinct points on the board, got {got:?}")]
    HandicapPoints {
        /// How many were due.
        expected: usize,
        /// What came.
        got: Vec<String>,
    },
    /// No move to take back.
    #[error("there is no move to take back")]
    NothingToUndo,
}

/// First occurrence and number of occurrences of a position.
#[derive(Clone, Copy, Debug)]
struct Seen {
    first: usize,
    times: u32,
}

/// Zobrist keys are already uniformly random: hash them as they are.
#[derive(Default, Clone, Copy)]
struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

type PositionMap = HashMap<u64, Seen, BuildHasherDefault<KeyHasher>>;

/// Settings of a new game.
#[derive(Clone, Debug)]
pub struct GameBuilder {
    size: BoardSize,
    ruleset: Ruleset,
    komi: Option<Score>,
    handicap: Handicap,
    position: Option<(Board, Color)>,
}

impl GameBuilder {
    /// The ruleset (default: Chinese).
    #[must_use]
    pub fn ruleset(mut self, ruleset: Ruleset) -> Self {
        self.ruleset = ruleset;
        self
    }

    /// The komi (default: the ruleset's, for even or handicap games).
    #[must_use]
    pub fn komi(mut self, komi: Score) -> Self {
        self.komi = Some(komi);
        self
    }

    /// The handicap (default: none).
    #[must_use]
    pub fn handicap(mut self, handicap: Handicap) -> Self {
        self.handicap = handicap;
        self
    }

    /// Starts from a set-up position with `to_move` to play (a record's
    /// `AB`/`AW`/`PL`, a problem, a test), instead of the empty board and
    /// the ruleset's 座子. A handicap, if any, is placed on top of it.
    #[must_use]
    pub fn position(mut self, board: Board, to_move: Color) -> Self {
        self.position = Some((board, to_move));
        self
    }

    /// The game, ready for the first move (or for a free handicap).
    pub fn build(self) -> Result<Game, GameError> {
        let GameBuilder {
            size,
            ruleset,
            komi,
            handicap,
            position,
        } = self;
        let (mut board, first) = match position {
            Some((board, to_move)) if board.size() == size => (board, to_move),
            Some(_) => {
                return Err(GameError::WrongPhase {
                    action: "setting up a position",
                    why: "the position is for another board size",
                });
            }
            None => (starting_position(size, &ruleset), ruleset.first_player),
        };
        let (phase, stones, to_move) = match &handicap {
            Handicap::None => (Phase::Play, 0, first),
            Handicap::Fixed(n) => {
                let points = fixed_handicap(size, u32::from(*n))?;
                place(&mut board, &points)?;
                (Phase::Play, *n, Color::White)
            }
            Handicap::Free(n) => {
                if *n < 2 || usize::from(*n) >= size.area() {
                    return Err(GameError::WrongPhase {
                        action: "a free handicap",
                        why: "it takes at least 2 stones and fewer than the board's points",
                    });
                }
                (Phase::Setup, *n, Color::Black)
            }
            Handicap::Placed(points) => {
                place(&mut board, points)?;
                let n = u8::try_from(points.len()).unwrap_or(u8::MAX);
                let to_move = if n >= 2 {
                    Color::White
                } else {
                    ruleset.first_player
                };
                (Phase::Play, n, to_move)
            }
        };
        let komi = komi.unwrap_or_else(|| ruleset.komi_for(stones));
        Ok(Game::start(ruleset, komi, board, to_move, stones, phase))
    }
}

/// The empty board with the ruleset's 座子 on the corner star points (boards
/// of 7 and more; smaller boards have no corner star points).
fn starting_position(size: BoardSize, ruleset: &Ruleset) -> Board {
    let mut board = Board::new(size);
    for (p, c) in corner_stones(size, ruleset) {
        let i = board.index(p);
        // Four separate stones on an empty board always have liberties.
        board.play_unchecked(i, c);
    }
    board
}

fn corner_stones(size: BoardSize, ruleset: &Ruleset) -> Vec<(Point, Color)> {
    let Ok(corners) = fixed_handicap(size, 4) else {
        return Vec::new();
    };
    // fixed_handicap(4) lists lower left, upper right, upper left, lower right.
    let s = ruleset.initial_stones;
    [s.lower_left, s.upper_right, s.upper_left, s.lower_right]
        .into_iter()
        .zip(corners)
        .filter_map(|(c, p)| c.map(|c| (p, c)))
        .collect()
}

fn place(board: &mut Board, points: &[Point]) -> Result<(), GameError> {
    let size = board.size();
    let distinct = points
        .iter()
        .collect::<std::collections::HashSet<_>>()
        .len()
        == points.len();
    let ok = distinct
        && points
            .iter()
            .all(|&p| size.contains(p) && board.get(p).is_none())
        && board
            .set_stones(points.iter().map(|&p| (p, Some(Color::Black))))
            .is_ok();
    if ok {
        Ok(())
    } else {
        Err(GameError::HandicapPoints {
            expected: points.len(),
            got: points.iter().map(|p| format!("{p:?}")).collect(),
        })
    }
}

/// A game of weiqi under a ruleset, from setup to result.
///
/// ```
/// use shoutan_rules::{BoardSize, Color, Game, Move, Phase, Point, Ruleset};
/// let mut game = Game::new(BoardSize::NINE, Ruleset::CHINESE);
/// let at = |s| Point::from_gtp(s, BoardSize::NINE).unwrap();
/// game.play(Color::Black, at("E5")).unwrap();
/// assert!(game.play(Color::Black, at("D5")).is_err()); // not black's turn
/// game.pass(Color::White).unwrap();
/// game.pass(Color::Black).unwrap();
/// assert_eq!(game.phase(), Phase::Counting);
/// ```
#[derive(Clone, Debug)]
pub struct Game {
    ruleset: Ruleset,
    komi: Score,
    handicap: u8,
    initial: Board,
    initial_to_move: Color,
    board: Board,
    to_move: Color,
    phase: Phase,
    turns: Vec<Turn>,
    seen: PositionMap,
    passes: u8,
    warnings: ByColor<u8>,
    result: Option<GameResult>,
    dead: PointSet,
    accepted: ByColor<bool>,
}

impl Game {
    /// An even game under `ruleset` with its komi.
    #[must_use]
    pub fn new(size: BoardSize, ruleset: Ruleset) -> Game {
        let board = starting_position(size, &ruleset);
        Game::start(
            ruleset,
            ruleset.komi,
            board,
            ruleset.first_player,
            0,
            Phase::Play,
        )
    }

    fn start(
        ruleset: Ruleset,
        komi: Score,
        board: Board,
        to_move: Color,
        handicap: u8,
        phase: Phase,
    ) -> Game {
        let size = board.size();
        let mut game = Game {
            ruleset,
            komi,
            handicap,
            initial: board.clone(),
            initial_to_move: to_move,
            board,
            to_move,
            phase,
            turns: Vec::with_capacity(size.area()),
            seen: PositionMap::with_capacity_and_hasher(2 * size.area(), Default::default()),
            passes: 0,
            warnings: ByColor::new(0, 0),
            result: None,
            dead: PointSet::new(size),
            accepted: ByColor::new(false, false),
        };
        if phase == Phase::Play {
            game.record_position();
        }
        game
    }

    /// A game to configure: ruleset, komi, handicap.
    #[must_use]
    pub fn builder(size: BoardSize) -> GameBuilder {
        GameBuilder {
            size,
            ruleset: Ruleset::CHINESE,
            komi: None,
            handicap: Handicap::None,
            position: None,
        }
    }

    /// The ruleset.
    #[must_use]
    pub fn ruleset(&self) -> &Ruleset {
        &self.ruleset
    }

    /// The komi.
    #[must_use]
    pub fn komi(&self) -> Score {
        self.komi
    }

    /// Handicap stones black received.
    #[must_use]
    pub fn handicap(&self) -> u8 {
        self.handicap
    }

    /// The board size.
    #[must_use]
    pub fn size(&self) -> BoardSize {
        self.board.size()
    }

    /// The current position.
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The position before the first turn (handicap and 座子 included).
    #[must_use]
    pub fn initial_board(&self) -> &Board {
        &self.initial
    }

    /// Who was to move first, after the set-up and handicap.
    #[must_use]
    pub fn initial_to_move(&self) -> Color {
        self.initial_to_move
    }

    /// Who is to move.
    #[must_use]
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// Where the game is.
    #[must_use]
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The turns played, in order.
    #[must_use]
    pub fn turns(&self) -> &[Turn] {
        &self.turns
    }

    /// The result, once finished.
    #[must_use]
    pub fn result(&self) -> Option<GameResult> {
        self.result
    }

    /// Warnings received.
    #[must_use]
    pub fn warnings(&self) -> ByColor<u8> {
        self.warnings
    }

    /// Stones marked dead in counting.
    #[must_use]
    pub fn dead_stones(&self) -> &PointSet {
        &self.dead
    }

    /// The dead stones both players agreed on, once the game has ended by
    /// that count (Art. 21.3); `None` while it goes on or when it ended
    /// otherwise. Kept so that a finished game can show how it was counted.
    #[must_use]
    pub fn agreed_dead(&self) -> Option<&PointSet> {
        (self.phase == Phase::Finished && self.accepted.all(|&a| a)).then_some(&self.dead)
    }

    /// Who has accepted the current marking.
    #[must_use]
    pub fn accepted(&self) -> ByColor<bool> {
        self.accepted
    }

    fn require(&self, phases: &[Phase], action: &'static str) -> Result<(), GameError> {
        if phases.contains(&self.phase) {
            return Ok(());
        }
        let why = match self.phase {
            Phase::Setup => "black has not placed the handicap yet",
            Phase::Play => "the game is still being played",
            Phase::Counting => "the game is being counted",
            Phase::Finished => "the game is over",
        };
        Err(GameError::WrongPhase { action, why })
    }

    fn key(&self, board_hash: u64, to_move: Color) -> u64 {
        match self.ruleset.repetition {
            Repetition::PositionalSuperko => board_hash,
            _ => situation(board_hash, to_move),
        }
    }

    /// Records the current position; returns how often it has now occurred.
    fn record_position(&mut self) -> u32 {
        let key = self.key(self.board.hash(), self.to_move);
        let number = self.turns.len();
        let seen = self.seen.entry(key).or_insert(Seen {
            first: number,
            times: 0,
        });
        seen.times += 1;
        seen.times
    }

    fn gtp(&self, p: Point) -> String {
        p.to_gtp(self.size())
    }

    /// Whether `color` may play at `p` now, and if not, why.
    pub fn check(&self, color: Color, p: Point) -> Result<(), GameError> {
        self.require(&[Phase::Play], "a move")?;
        if color != self.to_move {
            return Err(GameError::NotYourTurn {
                to_move: self.to_move,
            });
        }
        self.check_point(color, p)
    }

    fn check_point(&self, color: Color, p: Point) -> Result<(), GameError> {
        let size = self.size();
        if !size.contains(p) {
            return Err(GameError::OffBoard { point: p, size });
        }
        let i = self.board.index(p);
        self.board
            .check(i, color, self.ruleset.suicide)
            .map_err(|e| match e {
                BoardError::Occupied => GameError::Occupied(self.gtp(p)),
                BoardError::Suicide => GameError::Suicide(self.gtp(p)),
                BoardError::Ko => GameError::Ko(self.gtp(p)),
            })?;
        if let Repetition::SimpleKo { .. } = self.ruleset.repetition {
            return Ok(());
        }
        let key = self.key(self.board.hash_after(i, color), color.opponent());
        match self.seen.get(&key) {
            Some(seen) => Err(GameError::Superko {
                point: self.gtp(p),
                repeats: seen.first,
            }),
            None => Ok(()),
        }
    }

    /// Whether `color` may play at `p` now.
    #[must_use]
    pub fn is_legal(&self, color: Color, p: Point) -> bool {
        self.check(color, p).is_ok()
    }

    /// Every point where the player to move may play.
    #[must_use]
    pub fn legal_points(&self) -> Vec<Point> {
        if self.phase != Phase::Play {
            return Vec::new();
        }
        let c = self.to_move;
        self.size()
            .points()
            .filter(|&p| self.check_point(c, p).is_ok())
            .collect()
    }

    /// `color` places a stone at `p`.
    pub fn play(&mut self, color: Color, p: Point) -> Result<Played, GameError> {
        self.check(color, p)?;
        let i = self.board.index(p);
        self.board.play_unchecked(i, color);
        let captured = self
            .board
            .last_captured()
            .iter()
            .map(|&c| self.board.point(c))
            .collect();
        self.finish_turn(Turn {
            color,
            mv: Move::Play(p),
        });
        Ok(Played {
            number: self.turns.len(),
            captured,
        })
    }

    /// `color` passes (Art. 21.1: a pass proposes the end). Two consecutive
    /// passes end play and open counting.
    pub fn pass(&mut self, color: Color) -> Result<Played, GameError> {
        self.require(&[Phase::Play], "a pass")?;
        if color != self.to_move {
            return Err(GameError::NotYourTurn {
                to_move: self.to_move,
            });
        }
        self.board.clear_ko();
        self.finish_turn(Turn {
            color,
            mv: Move::Pass,
        });
        Ok(Played {
            number: self.turns.len(),
            captured: Vec::new(),
        })
    }

    /// Plays a [`Move`].
    pub fn apply(&mut self, color: Color, mv: Move) -> Result<Played, GameError> {
        match mv {
            Move::Play(p) => self.play(color, p),
            Move::Pass => self.pass(color),
        }
    }

    fn finish_turn(&mut self, turn: Turn) {
        self.passes = if turn.mv == Move::Pass {
            self.passes + 1
        } else {
            0
        };
        self.turns.push(turn);
        self.to_move = turn.color.opponent();
        let times = self.record_position();
        if let Repetition::SimpleKo { cycle } = self.ruleset.repetition
            && times >= 3
            && turn.mv != Move::Pass
        {
            self.finish(match cycle {
                CycleOutcome::NoResult => GameResult::NoResult,
                CycleOutcome::Draw => GameResult::Draw,
                CycleOutcome::Replay => GameResult::Replay,
            });
            return;
        }
        if self.passes >= 2 {
            self.enter_counting_phase();
        }
    }

    fn enter_counting_phase(&mut self) {
        self.phase = Phase::Counting;
        self.dead = PointSet::new(self.size());
        self.accepted = ByColor::new(false, false);
    }

    /// Sets who is to move without a turn (a record's `PL`, or replaying a
    /// record with two moves of one colour in a row).
    pub fn set_to_move(&mut self, color: Color) -> Result<(), GameError> {
        self.require(&[Phase::Play], "changing the player to move")?;
        if color != self.to_move {
            self.to_move = color;
            self.board.clear_ko();
            self.record_position();
        }
        Ok(())
    }

    /// Black places a free handicap: exactly the agreed number of distinct
    /// empty points. White moves next.
    pub fn place_handicap(&mut self, points: &[Point]) -> Result<(), GameError> {
        self.require(&[Phase::Setup], "placing handicap stones")?;
        if points.len() != usize::from(self.handicap) {
            return Err(GameError::HandicapPoints {
                expected: usize::from(self.handicap),
                got: points.iter().map(|&p| self.gtp_or_debug(p)).collect(),
            });
        }
        let mut board = self.board.clone();
        place(&mut board, points).map_err(|_| GameError::HandicapPoints {
            expected: usize::from(self.handicap),
            got: points.iter().map(|&p| self.gtp_or_debug(p)).collect(),
        })?;
        self.board = board;
        self.initial = self.board.clone();
        self.to_move = Color::White;
        self.initial_to_move = Color::White;
        self.phase = Phase::Play;
        self.record_position();
        Ok(())
    }

    fn gtp_or_debug(&self, p: Point) -> String {
        if self.size().contains(p) {
            self.gtp(p)
        } else {
            format!("{p:?}")
        }
    }

    /// Takes back the last turn (a granted takeback, 悔棋). From counting it
    /// takes back the second pass and play resumes.
    pub fn undo(&mut self) -> Result<Turn, GameError> {
        self.require(&[Phase::Play, Phase::Counting], "a takeback")?;
        let mut turns = std::mem::take(&mut self.turns);
        let Some(last) = turns.pop() else {
            self.turns = turns;
            return Err(GameError::NothingToUndo);
        };
        self.replay(turns);
        Ok(last)
    }

    /// Rebuilds board and history from the initial position.
    fn replay(&mut self, turns: Vec<Turn>) {
        self.board = self.initial.clone();
        self.to_move = self.initial_to_move;
        self.phase = Phase::Play;
        self.passes = 0;
        self.seen.clear();
        self.turns.clear();
        self.record_position();
        for turn in turns {
            if turn.color != self.to_move {
                self.to_move = turn.color;
                self.board.clear_ko();
                self.record_position();
            }
            match turn.mv {
                Move::Play(p) => {
                    let i = self.board.index(p);
                    self.board.play_unchecked(i, turn.color);
                }
                Move::Pass => self.board.clear_ko(),
            }
            self.passes = if turn.mv == Move::Pass {
                self.passes + 1
            } else {
                0
            };
            self.turns.push(turn);
            self.to_move = turn.color.opponent();
            self.record_position();
        }
        if self.passes >= 2 {
            self.enter_counting_phase();
        }
        self.dead = PointSet::new(self.size());
        self.accepted = ByColor::new(false, false);
    }

    /// The game as it stood after its first `turns` turns (0: the start),
    /// still in play: what a review analyses, one position after another.
    /// Warnings given and the result are left out.
    #[must_use]
    pub fn after_turns(&self, turns: usize) -> Game {
        let mut game = Game::start(
            self.ruleset,
            self.komi,
            self.initial.clone(),
            self.initial_to_move,
            self.handicap,
            Phase::Play,
        );
        game.replay(self.turns[..turns.min(self.turns.len())].to_vec());
        game
    }

    /// The position after `turns` turns (0 = the start).
    #[must_use]
    pub fn position_after(&self, turns: usize) -> Board {
        let mut board = self.initial.clone();
        for turn in self.turns.iter().take(turns) {
            match turn.mv {
                Move::Play(p) => {
                    let i = board.index(p);
                    board.play_unchecked(i, turn.color);
                }
                Move::Pass => board.clear_ko(),
            }
        }
        board
    }

    /// Opens counting without two passes: a request to count (申请数子)
    /// that the opponent granted.
    pub fn start_counting(&mut self) -> Result<(), GameError> {
        self.require(&[Phase::Play], "counting")?;
        self.enter_counting_phase();
        Ok(())
    }

    /// The stones that a click on `p` marks together: the chain at `p` and
    /// every stone of its colour reachable from it through empty points and
    /// stones of that colour, never through the opponent's stones.
    #[must_use]
    pub fn marking_group(&self, p: Point) -> Vec<Point> {
        let size = self.size();
        let Some(c) = size.contains(p).then(|| self.board.get(p)).flatten() else {
            return Vec::new();
        };
        let mut seen = PointSet::new(size);
        let mut stack = vec![p];
        let mut group = Vec::new();
        seen.insert(p);
        while let Some(q) = stack.pop() {
            if self.board.get(q) == Some(c) {
                group.push(q);
            }
            for n in q.neighbors(size) {
                if self.board.get(n) != Some(c.opponent()) && seen.insert(n) {
                    stack.push(n);
                }
            }
        }
        group.sort();
        group
    }

    /// Marks the group at `p` dead, or alive again if it was dead (Art. 8).
    /// Either player may toggle; every change withdraws both acceptances.
    /// Returns the stones whose status changed.
    pub fn toggle_dead(&mut self, p: Point) -> Result<Vec<Point>, GameError> {
        self.require(&[Phase::Counting], "marking dead stones")?;
        let size = self.size();
        if !size.contains(p) {
            return Err(GameError::OffBoard { point: p, size });
        }
        if self.board.get(p).is_none() {
            return Err(GameError::NoStone(self.gtp(p)));
        }
        let group = self.marking_group(p);
        let now_dead = !self.dead.contains(p);
        for &q in &group {
            if now_dead {
                self.dead.insert(q);
            } else {
                self.dead.remove(q);
            }
        }
        self.accepted = ByColor::new(false, false);
        Ok(group)
    }

    /// Replaces the marking (the estimator's proposal, or a restored one).
    pub fn set_dead(&mut self, dead: PointSet) -> Result<(), GameError> {
        self.require(&[Phase::Counting], "marking dead stones")?;
        if dead.size() != self.size() {
            return Err(GameError::WrongPhase {
                action: "marking",
                why: "the marking is for another board size",
            });
        }
        if let Some(p) = dead.iter().find(|&p| self.board.get(p).is_none()) {
            return Err(GameError::NoStone(self.gtp(p)));
        }
        self.dead = dead;
        self.accepted = ByColor::new(false, false);
        Ok(())
    }

    /// `color` accepts the current marking; when both have, the game ends
    /// with the count's result (Art. 21.3: it is not resumed afterwards).
    pub fn accept(&mut self, color: Color) -> Result<Option<GameResult>, GameError> {
        self.require(&[Phase::Counting], "accepting the count")?;
        self.accepted[color] = true;
        if self.accepted.all(|&a| a) {
            let result = self.count().result();
            self.finish(result);
            return Ok(Some(result));
        }
        Ok(None)
    }

    /// A dispute over life and death (Art. 21.4): play resumes and the
    /// player who claims the group dead (`claimant`) moves first.
    pub fn dispute(&mut self, claimant: Color) -> Result<(), GameError> {
        self.require(&[Phase::Counting], "a dispute")?;
        self.phase = Phase::Play;
        self.passes = 0;
        self.dead = PointSet::new(self.size());
        self.accepted = ByColor::new(false, false);
        if claimant != self.to_move {
            self.to_move = claimant;
            self.board.clear_ko();
            self.record_position();
        }
        Ok(())
    }

    /// The count of the current position with the current marking.
    #[must_use]
    pub fn count(&self) -> Count {
        count(&self.board, &self.dead, &self.count_settings())
    }

    /// What a count of this game needs besides the board.
    #[must_use]
    pub fn count_settings(&self) -> CountSettings {
        CountSettings {
            ruleset: self.ruleset,
            komi: self.komi,
            handicap: self.handicap,
            prisoners: ByColor::of(|c| self.board.captures(c)),
            warnings: self.warnings,
        }
    }

    fn finish(&mut self, result: GameResult) {
        self.phase = Phase::Finished;
        self.result = Some(result);
    }

    fn not_over(&self, action: &'static str) -> Result<(), GameError> {
        self.require(&[Phase::Setup, Phase::Play, Phase::Counting], action)
    }

    /// `color` resigns (中盘认输); the opponent wins 中盘胜.
    pub fn resign(&mut self, color: Color) -> Result<GameResult, GameError> {
        self.end(
            GameResult::Win {
                winner: color.opponent(),
                by: WinBy::Resignation,
            },
            "resigning",
        )
    }

    /// `color` ran out of time (超时判负).
    pub fn time_out(&mut self, color: Color) -> Result<GameResult, GameError> {
        self.end(
            GameResult::Win {
                winner: color.opponent(),
                by: WinBy::Time,
            },
            "a time-out",
        )
    }

    /// `color` forfeits (late beyond the limit, abandonment).
    pub fn forfeit(&mut self, color: Color) -> Result<GameResult, GameError> {
        self.end(
            GameResult::Win {
                winner: color.opponent(),
                by: WinBy::Forfeit,
            },
            "a forfeit",
        )
    }

    /// Ends the game with a ruling or an agreement (draw, no result, replay,
    /// both lose, a win by ruling).
    pub fn declare(&mut self, result: GameResult) -> Result<GameResult, GameError> {
        self.end(result, "a ruling")
    }

    fn end(&mut self, result: GameResult, action: &'static str) -> Result<GameResult, GameError> {
        self.not_over(action)?;
        self.finish(result);
        Ok(result)
    }

    /// A warning to `color` (Art. 24): each costs 1 子 at counting; the
    /// second in a game loses it. Returns the result if it ended the game.
    pub fn warn(&mut self, color: Color) -> Result<Option<GameResult>, GameError> {
        self.not_over("a warning")?;
        self.warnings[color] += 1;
        if self.warnings[color] >= 2 {
            let result = GameResult::Win {
                winner: color.opponent(),
                by: WinBy::Ruling,
            };
            self.finish(result);
            return Ok(Some(result));
        }
        Ok(None)
    }

    /// Board cells for the engine's fast access: see [`Board::index`].
    #[must_use]
    pub fn index(&self, p: Point) -> PointIndex {
        self.board.index(p)
    }
}
