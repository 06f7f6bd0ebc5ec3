//! Playouts with cheap weiqi knowledge: answer the last move (capture the
//! stone that just ran into atari, save one's own stones it put in atari,
//! play a good 3×3 shape next to it), otherwise a random move that neither
//! fills one's own eye nor puts a chain of several stones into atari.
//! Playouts end when both sides pass for want of such moves, and are counted
//! by area (stones plus single-point eyes), the way every playout engine
//! counts, whatever the ruleset of the game (see `Scoring`).

use shoutan_rules::{Board, Color, PointIndex, Suicide, Tie};

use crate::pattern::is_good_shape;
use crate::tactics::{escapes, is_self_atari};

/// How a finished playout is turned into a winner.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Scoring {
    /// What black gives white, in half points: komi plus the handicap
    /// compensation the rules give white.
    pub(crate) komi_half_points: i32,
    /// Who wins an exact tie.
    pub(crate) tie: Tie,
}

impl Scoring {
    /// The winner of a position whose black area minus white area is `area`
    /// points; `None` for a draw.
    #[inline]
    pub(crate) fn winner(&self, area: i32) -> Option<Color> {
        let margin = 2 * area - self.komi_half_points;
        match margin {
            m if m > 0 => Some(Color::Black),
            m if m < 0 => Some(Color::White),
            _ => match self.tie {
                Tie::Draw => None,
                Tie::Black => Some(Color::Black),
                Tie::White => Some(Color::White),
            },
        }
    }
}

/// What a playout leaves behind besides the board.
pub(crate) struct Outcome {
    /// Black's area minus white's.
    pub(crate) area: i32,
}

/// Reused buffers of one thread.
#[derive(Default)]
pub(crate) struct Scratch {
    candidates: Vec<PointIndex>,
}

/// Probability (in 1/256) of accepting a single-stone self-atari as a random
/// move: such throw-ins destroy eyes, but most of them only waste a move.
const SINGLE_SELF_ATARI: u8 = 96;

/// Plays from `board` with `to_move` until two passes or `max_moves`,
/// recording the moves into `record`; `last` is the previous move, the one
/// the first player answers.
pub(crate) fn run(
    board: &mut Board,
    mut to_move: Color,
    mut last: Option<PointIndex>,
    max_moves: usize,
    rng: &mut fastrand::Rng,
    scratch: &mut Scratch,
    record: &mut Vec<(PointIndex, Color)>,
) -> Outcome {
    let mercy = board.size().area() as u32 / 3;
    let mut passes = 0;
    let mut moves = 0;
    while passes < 2 && moves < max_moves {
        match choose(board, to_move, last, rng, scratch) {
            Some(i) => {
                board.play_unchecked(i, to_move);
                record.push((i, to_move));
                last = Some(i);
                passes = 0;
                moves += 1;
            }
            None => {
                board.clear_ko();
                last = None;
                passes += 1;
            }
        }
        to_move = to_move.opponent();
        let (b, w) = (board.captures(Color::Black), board.captures(Color::White));
        if b.abs_diff(w) > mercy {
            // One side has lost so much that the rest is noise.
            let area = board.size().area() as i32;
            return Outcome {
                area: if b > w { area } else { -area },
            };
        }
    }
    Outcome {
        area: area_score(board),
    }
}

/// The move the policy picks for `c`, or `None` to pass.
pub(crate) fn choose(
    board: &Board,
    c: Color,
    last: Option<PointIndex>,
    rng: &mut fastrand::Rng,
    scratch: &mut Scratch,
) -> Option<PointIndex> {
    if let Some(last) = last
        && board.stone(last) == Some(c.opponent())
    {
        if let Some(i) = answer_atari(board, c, last, rng, scratch) {
            return Some(i);
        }
        if let Some(i) = good_shape_near(board, c, last, rng, scratch) {
            return Some(i);
        }
    }
    random_move(board, c, rng)
}

/// Captures the last move's chain if it is in atari, or saves a chain of
/// `c` next to it that it put in atari.
fn answer_atari(
    board: &Board,
    c: Color,
    last: PointIndex,
    rng: &mut fastrand::Rng,
    scratch: &mut Scratch,
) -> Option<PointIndex> {
    let out = &mut scratch.candidates;
    out.clear();
    if let Some(take) = board.atari_liberty(last) {
        out.push(take);
    }
    for n in board.neighbors(last) {
        if board.stone(n) == Some(c) && board.in_atari(n) {
            escapes(board, n, c, out);
        }
    }
    out.retain(|&i| board.is_legal(i, c, Suicide::Forbidden));
    pick(out, rng)
}

/// A good 3×3 shape on one of the 8 points around the last move.
fn good_shape_near(
    board: &Board,
    c: Color,
    last: PointIndex,
    rng: &mut fastrand::Rng,
    scratch: &mut Scratch,
) -> Option<PointIndex> {
    let out = &mut scratch.candidates;
    out.clear();
    for i in board
        .neighbors(last)
        .into_iter()
        .chain(board.diagonals(last))
    {
        if board.is_empty(i)
            && is_good_shape(board, i)
            && !board.is_eye(i, c)
            && board.is_legal(i, c, Suicide::Forbidden)
            && !is_self_atari(board, i, c)
        {
            out.push(i);
        }
    }
    pick(out, rng)
}

fn pick(v: &[PointIndex], rng: &mut fastrand::Rng) -> Option<PointIndex> {
    (!v.is_empty()).then(|| v[rng.usize(..v.len())])
}

/// A random legal move that does not fill `c`'s own eye and is not a
/// self-atari of several stones.
fn random_move(board: &Board, c: Color, rng: &mut fastrand::Rng) -> Option<PointIndex> {
    let empties = board.empty_points();
    let n = empties.len();
    if n == 0 {
        return None;
    }
    let start = rng.usize(..n);
    for k in 0..n {
        let i = empties[(start + k) % n];
        if board.is_eye(i, c) || !board.is_legal(i, c, Suicide::Forbidden) {
            continue;
        }
        if is_self_atari(board, i, c) {
            let joins = board
                .neighbors(i)
                .into_iter()
                .any(|m| board.stone(m) == Some(c));
            if joins || rng.u8(..) >= SINGLE_SELF_ATARI {
                continue;
            }
        }
        return Some(i);
    }
    None
}

/// Area of a finished playout, black minus white: stones plus empty points
/// whose neighbours are all of one colour.
pub(crate) fn area_score(board: &Board) -> i32 {
    let mut score = 0;
    for p in board.size().points() {
        score += match owner(board, board.index(p)) {
            Some(Color::Black) => 1,
            Some(Color::White) => -1,
            None => 0,
        };
    }
    score
}

/// Who a point of a finished playout belongs to: the stone's colour, or the
/// colour surrounding an empty point alone.
#[inline]
pub(crate) fn owner(board: &Board, i: PointIndex) -> Option<Color> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use shoutan_rules::{BoardSize, Point};

    fn at(board: &Board, s: &str) -> PointIndex {
        board.index(Point::from_gtp(s, board.size()).unwrap())
    }

    #[test]
    fn the_stone_that_ran_into_atari_is_captured() {
        // White just played C2 into atari (its only liberty is C1): black
        // takes it whatever the random seed.
        let board: Board = "
            . . . . .
            . . . . .
            . . X . .
            . X O X .
            . . . . ."
            .parse()
            .unwrap();
        let last = at(&board, "C2");
        for seed in 0..20 {
            let mut rng = fastrand::Rng::with_seed(seed);
            let mut scratch = Scratch::default();
            let mv = choose(&board, Color::Black, Some(last), &mut rng, &mut scratch);
            assert_eq!(mv, Some(at(&board, "C1")), "seed {seed}");
        }
    }

    #[test]
    fn a_chain_put_in_atari_runs_away() {
        // White's B3 put the black stone at B2 in atari; black extends to B1
        // (two liberties there) rather than playing at random.
        let board: Board = "
            . . . . .
            . . . . .
            . O . . .
            O X O . .
            . . . . ."
            .parse()
            .unwrap();
        let last = at(&board, "B3");
        for seed in 0..20 {
            let mut rng = fastrand::Rng::with_seed(seed);
            let mut scratch = Scratch::default();
            let mv = choose(&board, Color::Black, Some(last), &mut rng, &mut scratch);
            assert_eq!(mv, Some(at(&board, "B1")), "seed {seed}");
        }
    }

    #[test]
    fn playouts_never_fill_their_own_eyes() {
        // Black has two eyes (A1 and C1); white has no move but inside them,
        // which is suicide: the playout must end with both eyes empty.
        let mut board: Board = "
            X X X X .
            X X X X X
            X X X X X
            X X X X X
            . X . X X"
            .parse()
            .unwrap();
        let mut rng = fastrand::Rng::with_seed(1);
        let mut record = Vec::new();
        let out = run(
            &mut board,
            Color::Black,
            None,
            100,
            &mut rng,
            &mut Scratch::default(),
            &mut record,
        );
        assert!(record.is_empty(), "black filled an eye: {record:?}");
        assert_eq!(out.area, 25);
    }

    #[test]
    fn playouts_finish_the_board() {
        let mut rng = fastrand::Rng::with_seed(3);
        for size in [BoardSize::NINE, BoardSize::NINETEEN] {
            let mut board = Board::new(size);
            let mut record = Vec::new();
            let out = run(
                &mut board,
                Color::Black,
                None,
                3 * size.area(),
                &mut rng,
                &mut Scratch::default(),
                &mut record,
            );
            assert!(record.len() > size.area() / 2);
            assert!(out.area.unsigned_abs() as usize <= size.area());
        }
    }

    #[test]
    fn scoring_applies_komi_and_the_tie_rule() {
        let chinese = Scoring {
            komi_half_points: 15,
            tie: Tie::Draw,
        };
        assert_eq!(chinese.winner(8), Some(Color::Black));
        assert_eq!(chinese.winner(7), Some(Color::White));
        let ing = Scoring {
            komi_half_points: 16,
            tie: Tie::Black,
        };
        assert_eq!(ing.winner(8), Some(Color::Black), "Ing: black wins a tie");
        let even = Scoring {
            komi_half_points: 0,
            tie: Tie::Draw,
        };
        assert_eq!(even.winner(0), None);
    }
}
