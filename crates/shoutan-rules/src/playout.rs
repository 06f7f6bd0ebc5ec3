//! Playouts: the one loop that plays a position out to its end, generic
//! over a [`PlayoutPolicy`] that may suggest moves and veto uniform draws.
//! With the [`Uniform`] policy (light playouts, the board's speed
//! benchmark) every move is a uniformly random legal point that is not the
//! mover's own single-point eye; the engine's playouts and the dead-stone
//! estimator run their own policies through the same loop, on the same
//! fast move choice, with the board's stride a constant on 9×9, 13×13 and
//! 19×19. A finished playout is counted by [`playout_area`] and
//! [`playout_owner`].

use crate::board::{AnyStride, FixedStride, Stride};
use crate::{Board, Color, PointIndex, Suicide};

/// How a playout ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayoutEnd {
    /// Stones played.
    pub moves: usize,
    /// The player who would move next.
    pub to_move: Color,
}

/// The weiqi knowledge of a playout: moves it suggests, uniform draws it
/// turns down, and what it learns of every move played.
///
/// A suggested move is played only if it is legal and not the mover's own
/// eye (the loop checks); otherwise, and when nothing is suggested, the
/// move is drawn uniformly from the legal points that are not the mover's
/// eyes, and offered to [`accept`](Self::accept).
pub trait PlayoutPolicy {
    /// Whether [`accept`](Self::accept) can turn a draw down; when false
    /// the loop never asks (the uniform policy costs nothing).
    const VETOES: bool = false;

    /// A move for `c` chosen by knowledge, or `None` for a uniform draw.
    #[inline(always)]
    fn suggest(&mut self, board: &Board, c: Color, rng: &mut fastrand::Rng) -> Option<PointIndex> {
        let _ = (board, c, rng);
        None
    }

    /// Whether `c` may play the uniformly drawn `i` (for example: not a
    /// self-atari). A turn down is drawn again, a few times, then every
    /// candidate is tried, and `c` passes if none is accepted.
    #[inline(always)]
    fn accept(&mut self, board: &Board, i: PointIndex, c: Color, rng: &mut fastrand::Rng) -> bool {
        let _ = (board, i, c, rng);
        true
    }

    /// Told of every stone after it is played.
    #[inline(always)]
    fn played(&mut self, board: &Board, i: PointIndex, c: Color) {
        let _ = (board, i, c);
    }

    /// Told of every pass.
    #[inline(always)]
    fn passed(&mut self, c: Color) {
        let _ = c;
    }
}

/// The policy of light playouts: every move a uniform draw.
#[derive(Clone, Copy, Debug, Default)]
pub struct Uniform;

impl PlayoutPolicy for Uniform {}

/// Uniform draws a vetoing policy turns down before every candidate is tried.
const REDRAWS: usize = 6;

/// Plays a light playout on `board` from `to_move`, at most `max_moves`
/// stones: [`playout`] with the [`Uniform`] policy.
pub fn light_playout(
    board: &mut Board,
    to_move: Color,
    suicide: Suicide,
    max_moves: usize,
    rng: &mut fastrand::Rng,
) -> PlayoutEnd {
    playout(board, to_move, suicide, max_moves, &mut Uniform, rng)
}

/// Plays `board` out from `to_move` with `policy` until both pass or
/// `max_moves` stones are played. Ko is simple ko (a playout needs no
/// superko: a cycle ends at the move limit).
///
/// The loop plays Black then White, each turn with a constant colour: every
/// colour-dependent code, shift and table offset of the candidate test and
/// of `play` then folds into the instructions instead of being recomputed
/// every move.
pub fn playout<P: PlayoutPolicy>(
    board: &mut Board,
    to_move: Color,
    suicide: Suicide,
    max_moves: usize,
    policy: &mut P,
    rng: &mut fastrand::Rng,
) -> PlayoutEnd {
    // One copy of the loop per usual board size, each with the stride a
    // constant, and per suicide rule, each with the rule a constant.
    match board.size().get() {
        9 => by_rule(
            board,
            to_move,
            suicide,
            max_moves,
            policy,
            rng,
            FixedStride::<10>,
        ),
        13 => by_rule(
            board,
            to_move,
            suicide,
            max_moves,
            policy,
            rng,
            FixedStride::<14>,
        ),
        19 => by_rule(
            board,
            to_move,
            suicide,
            max_moves,
            policy,
            rng,
            FixedStride::<20>,
        ),
        _ => by_rule(board, to_move, suicide, max_moves, policy, rng, AnyStride),
    }
}

/// [`playout`] on a board of stride `st`, one copy per suicide rule.
#[inline(always)]
fn by_rule<P: PlayoutPolicy>(
    board: &mut Board,
    to_move: Color,
    suicide: Suicide,
    max_moves: usize,
    policy: &mut P,
    rng: &mut fastrand::Rng,
    st: impl Stride,
) -> PlayoutEnd {
    let run = Run {
        passes: 0,
        moves: 0,
        max_moves,
    };
    match suicide {
        Suicide::Forbidden => run.play(board, to_move, Suicide::Forbidden, policy, rng, st),
        Suicide::MultiStoneOnly => {
            run.play(board, to_move, Suicide::MultiStoneOnly, policy, rng, st)
        }
        Suicide::Allowed => run.play(board, to_move, Suicide::Allowed, policy, rng, st),
    }
}

/// The progress of a playout: consecutive passes and stones played.
struct Run {
    passes: u32,
    moves: usize,
    max_moves: usize,
}

impl Run {
    /// The loop under one suicide rule and stride, inlined into each arm.
    #[inline(always)]
    fn play<P: PlayoutPolicy>(
        mut self,
        board: &mut Board,
        to_move: Color,
        suicide: Suicide,
        policy: &mut P,
        outer: &mut fastrand::Rng,
        st: impl Stride,
    ) -> PlayoutEnd {
        // The generator's state in a local, not behind `outer`, so it need
        // not be stored and loaded again every draw.
        let mut local = outer.clone();
        let rng = &mut local;
        if to_move == Color::White && self.goes_on() {
            self.turn(board, Color::White, suicide, policy, rng, st);
        }
        let end = loop {
            if !self.goes_on() {
                break self.end(Color::Black);
            }
            self.turn(board, Color::Black, suicide, policy, rng, st);
            if !self.goes_on() {
                break self.end(Color::White);
            }
            self.turn(board, Color::White, suicide, policy, rng, st);
        };
        *outer = local;
        end
    }

    /// Whether the playout continues: not two passes in a row, stones left.
    #[inline(always)]
    fn goes_on(&self) -> bool {
        self.passes < 2 && self.moves < self.max_moves
    }

    /// One turn of `c`: the policy's move, a uniform draw it accepts, or a
    /// pass (which lifts the ko ban).
    #[inline(always)]
    fn turn<P: PlayoutPolicy>(
        &mut self,
        board: &mut Board,
        c: Color,
        suicide: Suicide,
        policy: &mut P,
        rng: &mut fastrand::Rng,
        st: impl Stride,
    ) {
        let choice = match policy.suggest(board, c, rng) {
            Some(i) if board.is_playable_non_eye_as(i, c, suicide, st) => Some(i),
            _ => draw(board, c, suicide, policy, rng, st),
        };
        match choice {
            Some(i) => {
                board.play_as(i, c, suicide, st);
                policy.played(board, i, c);
                self.passes = 0;
                self.moves += 1;
            }
            None => {
                board.clear_ko();
                policy.passed(c);
                self.passes += 1;
            }
        }
    }

    fn end(&self, to_move: Color) -> PlayoutEnd {
        PlayoutEnd {
            moves: self.moves,
            to_move,
        }
    }
}

/// A uniform draw for `c` that the policy accepts, or `None` to pass.
#[inline(always)]
fn draw<P: PlayoutPolicy>(
    board: &mut Board,
    c: Color,
    suicide: Suicide,
    policy: &mut P,
    rng: &mut fastrand::Rng,
    st: impl Stride,
) -> Option<PointIndex> {
    let first = board.choose(c, suicide, rng, st);
    if !P::VETOES {
        return first;
    }
    redraw(board, c, suicide, policy, rng, st, first)
}

/// The rest of [`draw`] for a policy that vetoes: draws again while it
/// turns them down, then scans every candidate.
#[inline(never)]
fn redraw<P: PlayoutPolicy>(
    board: &mut Board,
    c: Color,
    suicide: Suicide,
    policy: &mut P,
    rng: &mut fastrand::Rng,
    st: impl Stride,
    first: Option<PointIndex>,
) -> Option<PointIndex> {
    let mut drawn = first;
    for _ in 0..REDRAWS {
        let i = drawn?;
        if policy.accept(board, i, c, rng) {
            return Some(i);
        }
        drawn = board.choose(c, suicide, rng, st);
    }
    let mut fork = rng.fork();
    board.choose_by_scan_where(c, suicide, &mut fork, |b, i| policy.accept(b, i, c, rng))
}

/// A uniformly random legal point for `c` (simple ko included, superko
/// not) that is not `c`'s own eye, or `None` when there is none.
#[inline]
pub fn random_move(
    board: &Board,
    c: Color,
    suicide: Suicide,
    rng: &mut fastrand::Rng,
) -> Option<PointIndex> {
    board.choose_by_scan(c, suicide, rng)
}

/// Who a point of a finished playout belongs to: the stone's colour, or the
/// one colour around an empty point (after a playout every empty point is
/// a single-point eye or dame).
#[inline]
#[must_use]
pub fn playout_owner(board: &Board, i: PointIndex) -> Option<Color> {
    if let Some(c) = board.stone(i) {
        return Some(c);
    }
    let mut seen = [false, false];
    for n in board.neighbors(i) {
        if let Some(c) = board.stone(n) {
            seen[c.index()] = true;
        }
    }
    match seen {
        [true, false] => Some(Color::Black),
        [false, true] => Some(Color::White),
        _ => None,
    }
}

/// Tromp–Taylor area of a finished playout, black minus white: the points
/// [`playout_owner`] gives each colour.
#[must_use]
pub fn playout_area(board: &Board) -> i32 {
    board
        .size()
        .points()
        .map(|p| match playout_owner(board, board.index(p)) {
            Some(Color::Black) => 1,
            Some(Color::White) => -1,
            None => 0,
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BoardSize, Point};

    fn at(board: &Board, s: &str) -> PointIndex {
        board.index(Point::from_gtp(s, board.size()).unwrap())
    }

    /// Asserts that no point is left that either colour could play
    /// without filling its own eye.
    fn assert_finished(board: &Board) {
        for &i in board.empty_points() {
            let legal_non_eye = Color::ALL
                .into_iter()
                .any(|c| !board.is_eye(i, c) && board.is_legal(i, c, Suicide::Forbidden));
            assert!(
                !legal_non_eye,
                "a playout stopped with a playable point left:\n{board}"
            );
        }
    }

    #[test]
    fn playouts_end_with_only_eyes_and_dame_left() {
        let mut rng = fastrand::Rng::with_seed(7);
        for size in [
            BoardSize::NINE,
            BoardSize::new(11).unwrap(),
            BoardSize::NINETEEN,
        ] {
            let mut board = Board::new(size);
            let end = light_playout(&mut board, Color::Black, Suicide::Forbidden, 1000, &mut rng);
            assert!(end.moves > size.area() / 2);
            assert_finished(&board);
            let area = playout_area(&board);
            assert!(area.unsigned_abs() as usize <= size.area());
        }
    }

    /// A policy that suggests one fixed point and vetoes every draw on
    /// the first line, counting what it is told.
    struct Fixed {
        point: PointIndex,
        played: Vec<(PointIndex, Color)>,
        passes: usize,
    }

    impl PlayoutPolicy for Fixed {
        const VETOES: bool = true;

        fn suggest(&mut self, _: &Board, _: Color, _: &mut fastrand::Rng) -> Option<PointIndex> {
            Some(self.point)
        }

        fn accept(
            &mut self,
            board: &Board,
            i: PointIndex,
            _: Color,
            _: &mut fastrand::Rng,
        ) -> bool {
            let p = board.point(i);
            let last = board.size().get() - 1;
            !(p.col() == 0 || p.row() == 0 || p.col() == last || p.row() == last)
        }

        fn played(&mut self, _: &Board, i: PointIndex, c: Color) {
            self.played.push((i, c));
        }

        fn passed(&mut self, _: Color) {
            self.passes += 1;
        }
    }

    #[test]
    fn a_suggestion_is_played_when_legal_and_a_veto_is_respected() {
        // Black's eye at A1 is suggested every turn: never played (it is
        // Black's own eye, and suicide for White). The draws skip the edge.
        let board: Board = "
            . . . . .
            . . . . .
            . . . . .
            X X . . .
            . X . . ."
            .parse()
            .unwrap();
        let mut policy = Fixed {
            point: at(&board, "A1"),
            played: Vec::new(),
            passes: 0,
        };
        let mut b = board.clone();
        let mut rng = fastrand::Rng::with_seed(3);
        let end = playout(
            &mut b,
            Color::Black,
            Suicide::Forbidden,
            100,
            &mut policy,
            &mut rng,
        );
        assert_eq!(end.moves, policy.played.len());
        assert!(policy.passes >= 2);
        assert!(b.is_empty(at(&b, "A1")), "an own eye was filled:\n{b}");
        for (i, _) in &policy.played {
            let p = b.point(*i);
            assert!(p.col() != 0 && p.row() != 0 && p.col() != 4 && p.row() != 4);
        }
        // The suggestion where it is playable: C3 in the centre, first.
        let mut policy = Fixed {
            point: at(&board, "C3"),
            played: Vec::new(),
            passes: 0,
        };
        let mut b = board.clone();
        playout(
            &mut b,
            Color::White,
            Suicide::Forbidden,
            1,
            &mut policy,
            &mut rng,
        );
        assert_eq!(policy.played, vec![(at(&board, "C3"), Color::White)]);
    }

    #[test]
    fn the_area_counts_stones_and_one_color_surrounded_points() {
        let board: Board = "
            . X O .
            X X O O
            O O O .
            . O X X"
            .parse()
            .unwrap();
        // Black: 5 stones and A4; White: 7 stones, D4 and A1; D2 touches
        // both colours (dame).
        assert_eq!(playout_owner(&board, at(&board, "A4")), Some(Color::Black));
        assert_eq!(playout_owner(&board, at(&board, "A1")), Some(Color::White));
        assert_eq!(playout_owner(&board, at(&board, "D2")), None);
        assert_eq!(playout_area(&board), (5 + 1) - (7 + 2));
    }
}
