//! The solver against an exact oracle written without it: retrograde
//! analysis of every position the fight can reach. Where a problem's
//! region is small enough to list them all, the capture game is solved
//! backwards from the captures — no search order, no transposition table,
//! no Benson, no ko bookkeeping beyond the board's own — and each
//! proverb's claims and each shipped problem's recorded answers must be
//! what the oracle finds.
//!
//! The game, as the solver plays it: moves inside the region or a pass;
//! the attacker wins by capturing the target's chain; the defender wins
//! by keeping it for ever (alive, seki, or a cycle: a repeated position
//! keeps the group). The side holding the ko threats may retake a ko at
//! once — as often as he likes, or once per threat where they are
//! counted; the other side obeys the ko ban, and either side may wait one
//! out by passing. The oracle cannot tell seki from life (both keep the
//! group), so for the defender it checks that the claimed moves keep it.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::{BTreeSet, HashMap};

use shoutan_problems::{CLAIM_BUDGET, Judgement, judge, library, proverbs};
use shoutan_rules::{Board, BoardSize, Color, Move, Point, PointIndex, PointSet};
use shoutan_solver::{Goal, Ko, Problem, Verdict, solve_for};

/// Above this many positions a problem is left to the search (the races:
/// their outside liberties multiply the positions).
const MAX_POSITIONS: usize = 40_000;

/// A position: the stones (their hash), who moves, the point he may not
/// retake (the ko ban he obeys) and the ko threats the holder has left.
type Key = (u64, Color, Option<PointIndex>, u8);

fn key(board: &Board, to_move: Color, left: u8) -> Key {
    (board.hash(), to_move, board.ko().map(|(i, _)| i), left)
}

/// Who holds the ko threats, and how many.
#[derive(Clone, Copy)]
enum Threats {
    /// As many as he likes: he obeys no ko ban.
    Unlimited(Color),
    /// This many: each retake of a banned ko spends one.
    Counted(Color, u8),
}

impl Threats {
    fn holder(self) -> Color {
        match self {
            Threats::Unlimited(c) | Threats::Counted(c, _) => c,
        }
    }
}

/// The positions listed so far.
struct Game {
    index: HashMap<Key, usize>,
    /// Each position's board until its moves are listed (then dropped:
    /// only the frontier is kept).
    boards: Vec<Option<Board>>,
    /// Whether the target is gone in each.
    captured: Vec<bool>,
    /// Who moves in each.
    turns: Vec<Color>,
    /// The counted threats the holder has left in each.
    lefts: Vec<u8>,
}

impl Game {
    /// The position `board` with `to_move` to move and `left` threats,
    /// listed if new; whether the target is gone there is `gone`'s answer.
    fn add(
        &mut self,
        board: Board,
        to_move: Color,
        left: u8,
        gone: impl Fn(&Board) -> bool,
    ) -> usize {
        let next = self.boards.len();
        let id = *self.index.entry(key(&board, to_move, left)).or_insert(next);
        if id == next {
            self.captured.push(gone(&board));
            self.turns.push(to_move);
            self.lefts.push(left);
            self.boards.push(Some(board));
        }
        id
    }
}

/// Every position reachable from one start, and who wins each.
struct Retrograde {
    /// Each position's number.
    index: HashMap<Key, usize>,
    /// Who holds the ko threats.
    threats: Threats,
    /// Whether the attacker captures from each position.
    captures: Vec<bool>,
    /// The start's first moves and the position each leads to.
    first: Vec<(Move, usize)>,
}

impl Retrograde {
    /// Solves the capture game of `problem` with `mover` to move first and
    /// `threats` holding every ko threat; `None` past `most` positions.
    fn solve(problem: &Problem, mover: Color, threats: Color, most: usize) -> Option<Retrograde> {
        let start = problem.board().clone();
        Self::solve_from(problem, start, mover, Threats::Unlimited(threats), most)
    }

    /// Solves the capture game of `problem` from `start` with `mover` to
    /// move; `None` past `most` positions.
    fn solve_from(
        problem: &Problem,
        mut start: Board,
        mover: Color,
        threats: Threats,
        most: usize,
    ) -> Option<Retrograde> {
        let region: Vec<PointIndex> = problem
            .region()
            .iter()
            .map(|p| problem.board().index(p))
            .collect();
        let target = problem.board().index(problem.target());
        let chain: Vec<PointIndex> = problem.board().chain(target).collect();
        let captured = |b: &Board| chain.iter().any(|&i| b.stone(i).is_none());
        let attacker = problem.attacker();
        let suicide = problem.suicide();

        let unlimited = |to_move: Color| matches!(threats, Threats::Unlimited(h) if h == to_move);
        if unlimited(mover) {
            start.clear_ko();
        }
        let left = match threats {
            Threats::Unlimited(_) => 0,
            Threats::Counted(_, n) => n,
        };
        let mut game = Game {
            index: HashMap::new(),
            boards: Vec::new(),
            captured: Vec::new(),
            turns: Vec::new(),
            lefts: Vec::new(),
        };
        game.add(start, mover, left, captured);
        let mut children: Vec<Vec<(Move, usize)>> = Vec::new();
        while children.len() < game.boards.len() {
            let p = children.len();
            let board = game.boards[p].take().expect("listed once");
            let (color, to_move) = (game.turns[p], game.turns[p].opponent());
            let left = game.lefts[p];
            let mut next = Vec::new();
            if !game.captured[p] {
                for &i in &region {
                    // A counted threat lets its holder retake a banned ko.
                    let (from, left) = if board.is_legal(i, color, suicide) {
                        (None, left)
                    } else if threats.holder() == color
                        && left > 0
                        && board.ko().is_some_and(|(k, _)| k == i)
                    {
                        let mut free = board.clone();
                        free.clear_ko();
                        (Some(free), left - 1)
                    } else {
                        continue;
                    };
                    let from = from.as_ref().unwrap_or(&board);
                    let m = Move::Play(board.point(i));
                    let takes = from.neighbors(i).iter().any(|&n| {
                        from.stone(n) == Some(to_move) && from.atari_liberty(n) == Some(i)
                    });
                    // A move that takes nothing bans no ko: its position
                    // is known by its hash, and a board is made only for a
                    // new one.
                    let known = (!takes)
                        .then(|| {
                            let after = from.hash_after(i, color);
                            game.index.get(&(after, to_move, None, left))
                        })
                        .flatten();
                    let id = match known {
                        Some(&id) => id,
                        None => {
                            let mut b = from.clone();
                            b.play(i, color, suicide).expect("legal");
                            if unlimited(to_move) {
                                b.clear_ko();
                            }
                            game.add(b, to_move, left, captured)
                        }
                    };
                    next.push((m, id));
                }
                let id = match game.index.get(&(board.hash(), to_move, None, left)) {
                    Some(&id) => id,
                    None => {
                        let mut pass = board.clone();
                        pass.clear_ko();
                        game.add(pass, to_move, left, captured)
                    }
                };
                next.push((Move::Pass, id));
            }
            children.push(next);
            if game.boards.len() > most {
                return None;
            }
        }
        let Game {
            index,
            captured: mut captures,
            turns,
            ..
        } = game;

        // Backwards from the captures: the attacker's position is won when
        // one move wins, the defender's when every move (a pass too) loses.
        let mut parents = vec![Vec::new(); turns.len()];
        let mut undecided = vec![0usize; turns.len()];
        for (p, next) in children.iter().enumerate() {
            let distinct: BTreeSet<usize> = next.iter().map(|&(_, c)| c).collect();
            undecided[p] = distinct.len();
            for c in distinct {
                parents[c].push(p);
            }
        }
        let mut queue: Vec<usize> = (0..turns.len()).filter(|&p| captures[p]).collect();
        while let Some(c) = queue.pop() {
            for &p in &parents[c] {
                if captures[p] {
                    continue;
                }
                undecided[p] -= 1;
                if turns[p] == attacker || undecided[p] == 0 {
                    captures[p] = true;
                    queue.push(p);
                }
            }
        }
        Some(Retrograde {
            index,
            threats,
            captures,
            first: children.swap_remove(0),
        })
    }

    /// Whether the attacker captures from `board` with `to_move` to move,
    /// in a game of unlimited threats; `None` for a position the game
    /// never reaches.
    fn captures_from(&self, board: &Board, to_move: Color) -> Option<bool> {
        let ko = if to_move == self.threats.holder() {
            None
        } else {
            board.ko().map(|(i, _)| i)
        };
        let id = self.index.get(&(board.hash(), to_move, ko, 0))?;
        Some(self.captures[*id])
    }

    /// The first moves after which the attacker captures (`true`) or
    /// cannot (`false`).
    fn first_moves(&self, capturing: bool, size: BoardSize) -> BTreeSet<String> {
        self.first
            .iter()
            .filter(|&&(_, c)| self.captures[c] == capturing)
            .map(|(m, _)| m.to_gtp(size))
            .collect()
    }
}

/// What the oracle says of `mover` moving first: the verdict and the
/// first moves reaching it, in the solver's terms; `None` when too big.
/// For the defender `Win` stands for "keeps the group" (life or seki).
fn oracle(problem: &Problem, mover: Color) -> Option<(Verdict, BTreeSet<String>)> {
    let size = problem.board().size();
    let attacking = mover == problem.attacker();
    let with_threats = Retrograde::solve(problem, mover, mover, MAX_POSITIONS)?;
    let without = Retrograde::solve(problem, mover, mover.opponent(), MAX_POSITIONS)?;
    // Moves that reach the aim with the opponent holding every threat win
    // outright; those that need the mover's own threats reach a ko.
    let first = |game: &Retrograde| {
        let mut moves = game.first_moves(attacking, size);
        // The solver never lists the attacker's pass (its tries are plays).
        if attacking {
            moves.remove("pass");
        }
        moves
    };
    let outright = first(&without);
    let by_ko = &first(&with_threats) - &outright;
    Some(if !outright.is_empty() {
        (Verdict::Win, outright)
    } else if !by_ko.is_empty() {
        (Verdict::Ko, by_ko)
    } else {
        (Verdict::Lose, BTreeSet::new())
    })
}

/// What the ko `mover` reaches by `first` asks of the sides, counted as
/// the solver counts it: the side that loses it when neither has a threat
/// must find them, and needs this many more than the other (each retake
/// of a banned ko spends one); `None` when too big to list.
fn exact_ko(problem: &Problem, mover: Color, first: Move) -> Option<Ko> {
    let mut after = problem.board().clone();
    match first {
        Move::Play(p) => {
            after.play(after.index(p), mover, problem.suicide()).ok()?;
        }
        Move::Pass => after.clear_ko(),
    }
    let opponent = mover.opponent();
    let attacking = mover == problem.attacker();
    // The definition of the count is the solver's; what wins is listed
    // here, independently of its search.
    Ko::counted(mover, |holder, n| {
        let threats = Threats::Counted(holder, n);
        let game =
            Retrograde::solve_from(problem, after.clone(), opponent, threats, MAX_POSITIONS)?;
        Some(game.captures[0] == attacking)
    })
}

/// The ko the solver reports for `mover`'s ko moves: of them all, the one
/// that asks the fewest threats of the mover (the most of the opponent).
fn exact_kos(problem: &Problem, mover: Color, moves: &[Move]) -> Option<Ko> {
    let kos: Option<Vec<Ko>> = moves.iter().map(|&m| exact_ko(problem, mover, m)).collect();
    kos?.into_iter().min_by_key(|ko| ko.asked_of(mover))
}

fn names(moves: &[Move], size: BoardSize) -> BTreeSet<String> {
    moves.iter().map(|m| m.to_gtp(size)).collect()
}

/// Whether the solver's claim (verdict and exactly its first moves) is
/// the oracle's; for the defender a seki is the oracle's keeping, and the
/// oracle's keeping moves may include sekis the claim leaves out.
fn agrees(
    attacking: bool,
    claim: (Verdict, &BTreeSet<String>),
    oracle: (Verdict, &BTreeSet<String>),
) -> bool {
    match (attacking, claim.0) {
        (true, _) | (false, Verdict::Ko | Verdict::Lose) => claim == oracle,
        (false, Verdict::Win | Verdict::Seki) => {
            oracle.0 == Verdict::Win && claim.1.is_subset(oracle.1)
        }
        (false, Verdict::Unknown) => false,
    }
}

#[test]
fn the_proverbs_claims_are_the_exact_games() {
    let (mut compared, mut skipped, mut failures) = (0, 0, Vec::new());
    for proverb in proverbs() {
        for diagram in &proverb.diagrams {
            let problem = diagram.problem();
            let size = problem.board().size();
            for claim in &diagram.claims {
                let Some((verdict, moves)) = oracle(&problem, claim.mover) else {
                    skipped += 1;
                    continue;
                };
                compared += 1;
                let claimed: BTreeSet<String> = claim
                    .moves
                    .iter()
                    .map(|&p| Move::Play(p).to_gtp(size))
                    .collect();
                let attacking = claim.mover == problem.attacker();
                if !agrees(attacking, (claim.verdict, &claimed), (verdict, &moves)) {
                    failures.push(format!(
                        "{} {} ({:?} first): claimed {:?} {claimed:?}, exact {verdict:?} {moves:?}",
                        proverb.slug, diagram.caption_en, claim.mover, claim.verdict
                    ));
                }
            }
        }
    }
    println!("{compared} claims compared with the exact game, {skipped} too big to list");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(compared >= 30, "only {compared} claims compared");
}

#[test]
fn the_problems_answers_are_the_exact_games() {
    let (mut compared, mut skipped, mut failures) = (0, 0, Vec::new());
    for entry in library().iter().flat_map(|s| &s.problems) {
        let problem = entry.problem();
        let Some((verdict, moves)) = oracle(&problem, entry.to_move) else {
            skipped += 1;
            continue;
        };
        compared += 1;
        let recorded = names(&entry.answers, problem.board().size());
        let agrees = match entry.goal() {
            Goal::Kill => verdict == Verdict::Win && moves == recorded,
            Goal::Live => verdict == Verdict::Win && recorded.is_subset(&moves),
        };
        if !agrees {
            failures.push(format!(
                "{} ({:?}): recorded {recorded:?}, exact {verdict:?} {moves:?}",
                entry.id(),
                entry.goal()
            ));
        }
    }
    println!("{compared} problems compared with the exact game, {skipped} too big to list");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(compared >= 150, "only {compared} problems compared");
}

/// The judge of a try (the Problems page's "right" or "wrong" and the
/// opponent's answer) against the exact game, on every first move the
/// player could try: a right move must win, a wrong one must fail, and a
/// refutation must leave the player unable to win.
#[test]
fn the_judge_says_right_and_wrong_as_the_exact_games_do() {
    let (mut tries, mut skipped, mut failures) = (0, 0, Vec::new());
    for entry in library().iter().flat_map(|s| &s.problems) {
        let problem = entry.problem();
        let (player, opponent) = (entry.to_move, entry.to_move.opponent());
        let attacking = entry.goal() == Goal::Kill;
        let Some(exact) = Retrograde::solve(&problem, player, opponent, MAX_POSITIONS) else {
            skipped += 1;
            continue;
        };
        let size = problem.board().size();
        for &(m, id) in &exact.first {
            let Move::Play(p) = m else { continue };
            tries += 1;
            let right = exact.captures[id] == attacking;
            let fault = match judge(&problem, &[p]) {
                Ok(Judgement::Right { .. }) if right => None,
                Ok(Judgement::Wrong { refutation }) if !right => refutation.and_then(|r| {
                    let mut board = problem.board().clone();
                    board
                        .play(board.index(p), player, problem.suicide())
                        .unwrap();
                    board.clear_ko();
                    board
                        .play(board.index(r), opponent, problem.suicide())
                        .unwrap();
                    let wins = exact.captures_from(&board, player).map(|c| c == attacking);
                    (wins != Some(false))
                        .then(|| format!("refutation {} leaves {wins:?}", r.to_gtp(size)))
                }),
                other => Some(format!(
                    "exact {}, judged {other:?}",
                    if right { "right" } else { "wrong" }
                )),
            };
            if let Some(fault) = fault {
                failures.push(format!("{} {}: {fault}", entry.id(), p.to_gtp(size)));
            }
        }
    }
    println!(
        "{tries} first moves judged as the exact game does, {skipped} problems too big to list"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(tries >= 1_000, "only {tries} first moves judged");
}

/// The kos of the proverbs' claims ask of each side what the exact game,
/// counting threats, says they ask: which side must find them and how
/// many more than the other. A count the solver could not finish within
/// its budget says nothing, which is allowed; a wrong one is not.
#[test]
fn the_proverbs_kos_ask_the_threats_the_exact_game_counts() {
    let (mut compared, mut uncounted, mut failures) = (0, 0, Vec::new());
    for proverb in proverbs() {
        for diagram in &proverb.diagrams {
            let problem = diagram.problem();
            for claim in diagram.claims.iter().filter(|c| c.verdict == Verdict::Ko) {
                let answer = solve_for(&problem, claim.mover, CLAIM_BUDGET);
                let Some(exact) = exact_kos(&problem, claim.mover, &answer.ko_moves) else {
                    continue;
                };
                let Some(ko) = answer.ko else {
                    uncounted += 1;
                    continue;
                };
                compared += 1;
                if ko != exact {
                    failures.push(format!(
                        "{} {} ({:?} first): solver {ko:?}, exact {exact:?}",
                        proverb.slug, diagram.caption_en, claim.mover
                    ));
                }
            }
        }
    }
    println!("{compared} kos counted as the exact game counts them, {uncounted} left uncounted");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(compared >= 2, "only {compared} kos compared");
}

/// The J group as it stands in real games labelled 大猪嘴 (the position
/// of `j_group_live2` in bood/go-test's engine regressions, MIT, and of a
/// Fox game in the same suite, turned to this corner): three stones on the
/// third line, two on the second and a hanging connection on the first.
/// The books say 大猪嘴扳点死; with the wall tight against it the exact game
/// says otherwise — a ko for the attacker, life for the defender moving
/// first — which is why it is not among the proverbs' diagrams.
///
/// ```text
///   A B C D E F G
/// 4 X X X X X . .
/// 3 . O O O X X X
/// 2 . . . . O O X
/// 1 . . . O . X X
/// ```
#[test]
fn the_j_group_of_real_games_is_a_ko_with_the_wall_tight() {
    let board: Board = "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        X X X X X . . . .
        . O O O X X X . .
        . . . . O O X . .
        . . . O . X X . ."
        .parse()
        .unwrap();
    let size = board.size();
    let at = |s: &str| Point::from_gtp(s, size).unwrap();
    let mut region = PointSet::new(size);
    for p in [
        "A1", "B1", "C1", "D1", "E1", "A2", "B2", "C2", "D2", "E2", "F2", "A3", "B3", "C3", "D3",
    ] {
        region.insert(at(p));
    }
    let problem = Problem::builder(board, Color::Black, at("D3"), Goal::Kill)
        .region(region)
        .build()
        .unwrap();
    let all = usize::MAX;
    let (black, white) = (Color::Black, Color::White);
    // Black first, white holding the threats: no capture at all.
    let kill = Retrograde::solve(&problem, black, white, all).unwrap();
    assert!(kill.first_moves(true, size).is_empty());
    // Black holding them: the hane at A3 (among others) captures — a ko.
    let ko = Retrograde::solve(&problem, black, black, all).unwrap();
    assert!(ko.first_moves(true, size).contains("A3"));
    // White first, black holding the threats: only B1 keeps the group.
    let live = Retrograde::solve(&problem, white, black, all).unwrap();
    let keep = live.first_moves(false, size);
    assert_eq!(keep, BTreeSet::from(["B1".to_owned()]));
    // The books' kill — hane, placement, descent — with white holding the
    // threats: after the hane at A3, white's C2 and the placement at B1,
    // white's B2 lets black descend at A2 and capture outright; white's
    // block at A2 instead leaves black no capture without the ko.
    let line = |moves: &[&str]| {
        let mut board = problem.board().clone();
        for (n, m) in moves.iter().enumerate() {
            let mover = if n % 2 == 0 { black } else { white };
            board
                .play(board.index(at(m)), mover, problem.suicide())
                .unwrap();
        }
        board
    };
    let descended = line(&["A3", "C2", "B1", "B2", "A2"]);
    assert_eq!(kill.captures_from(&descended, white), Some(true));
    let blocked = line(&["A3", "C2", "B1", "A2"]);
    assert_eq!(kill.captures_from(&blocked, black), Some(false));
    assert_eq!(ko.captures_from(&blocked, black), Some(true));
}
