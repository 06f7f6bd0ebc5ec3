//! The engine's playouts: the one playout loop of `shoutan-rules` (on
//! its fast board) with the engine's policy. Answer the last move first —
//! capture the stones that just ran into atari, save one's own stones it
//! put in atari — else, often, a point next to it drawn by the learned
//! strength of its 3×3 shape and its distance, and otherwise a uniform
//! draw that is neither one's own eye nor a self-atari of several stones.
//! Playouts end when both sides pass for want of such moves, and are
//! counted by area (stones plus single-point eyes), the way every playout
//! engine counts, whatever the ruleset of the game (see `Scoring`).

use shoutan_rules::{Board, Color, PlayoutPolicy, PointIndex, Suicide, Tie};

use crate::knowledge::{Knowledge, shape3};
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

/// Probability (in 1/256) of accepting a single-stone self-atari as a random
/// move: such throw-ins destroy eyes, but most of them only waste a move.
const SINGLE_SELF_ATARI: u8 = 96;

/// Plays `board` out from `to_move` (after the stone `last`, if any) with
/// the engine's policy, recording every stone in `record`; returns black's
/// area minus white's.
pub(crate) fn run(
    board: &mut Board,
    to_move: Color,
    last: Option<PointIndex>,
    policy: &mut Policy,
    rng: &mut fastrand::Rng,
) -> i32 {
    policy.last = last;
    let max_moves = 3 * board.size().area();
    shoutan_rules::playout(board, to_move, Suicide::Forbidden, max_moves, policy, rng);
    shoutan_rules::playout_area(board)
}

/// The engine's playout policy, with the stones of the playout it records
/// (for AMAF) and its buffers.
pub(crate) struct Policy {
    knowledge: &'static Knowledge,
    last: Option<PointIndex>,
    /// The stones played, with their colour.
    pub(crate) record: Vec<(PointIndex, Color)>,
    candidates: Vec<PointIndex>,
    weights: Vec<(PointIndex, f32)>,
}

impl Policy {
    /// A policy with `knowledge`'s shapes.
    pub(crate) fn new(knowledge: &'static Knowledge) -> Policy {
        Policy {
            knowledge,
            last: None,
            record: Vec::new(),
            candidates: Vec::new(),
            weights: Vec::new(),
        }
    }

    /// Captures the last move's chain if it is in atari, or saves a chain
    /// of `c` next to it that it put in atari.
    fn answer_atari(
        &mut self,
        board: &Board,
        c: Color,
        last: PointIndex,
        rng: &mut fastrand::Rng,
    ) -> Option<PointIndex> {
        let out = &mut self.candidates;
        out.clear();
        if let Some(take) = board.atari_liberty(last) {
            out.push(take);
        }
        for n in board.neighbors(last) {
            if board.stone(n) == Some(c) && board.in_atari(n) {
                escapes(board, n, c, out);
            }
        }
        (!out.is_empty()).then(|| out[rng.usize(..out.len())])
    }

    /// A point around the last move, drawn by the learned strength of
    /// its shape and distance against the rest of the board (whose points
    /// weigh as much as an empty shape far away): the local answer a strong
    /// player sees, with a tenuki as often as the strengths say.
    fn local_shape(
        &mut self,
        board: &Board,
        c: Color,
        last: PointIndex,
        rng: &mut fastrand::Rng,
    ) -> Option<PointIndex> {
        let k = self.knowledge;
        let weights = &mut self.weights;
        weights.clear();
        let mut total = 0.0;
        let near = board.neighbors(last).map(|n| (n, k.near_gamma(false)));
        let diagonal = board.diagonals(last).map(|n| (n, k.near_gamma(true)));
        for (i, distance) in near.into_iter().chain(diagonal) {
            if board.is_empty(i) {
                let w = k.shape3_gamma(shape3(board, i, c)) * distance;
                total += w;
                weights.push((i, w));
            }
        }
        let elsewhere = board.empty_points().len() as f32 * k.far_gamma();
        let mut x = rng.f32() * (total + elsewhere);
        for &(i, w) in weights.iter() {
            if x < w {
                return (!is_self_atari(board, i, c)).then_some(i);
            }
            x -= w;
        }
        None
    }
}

impl PlayoutPolicy for Policy {
    const VETOES: bool = true;

    #[inline]
    fn suggest(&mut self, board: &Board, c: Color, rng: &mut fastrand::Rng) -> Option<PointIndex> {
        let last = self.last?;
        if board.stone(last) != Some(c.opponent()) {
            return None;
        }
        self.answer_atari(board, c, last, rng)
            .or_else(|| self.local_shape(board, c, last, rng))
    }

    #[inline]
    fn accept(&mut self, board: &Board, i: PointIndex, c: Color, rng: &mut fastrand::Rng) -> bool {
        if !is_self_atari(board, i, c) {
            return true;
        }
        let joins = board
            .neighbors(i)
            .into_iter()
            .any(|m| board.stone(m) == Some(c));
        !joins && rng.u8(..) < SINGLE_SELF_ATARI
    }

    #[inline]
    fn played(&mut self, _: &Board, i: PointIndex, c: Color) {
        self.last = Some(i);
        self.record.push((i, c));
    }

    #[inline]
    fn passed(&mut self, _: Color) {
        self.last = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shoutan_rules::{BoardSize, Point};

    fn at(board: &Board, s: &str) -> PointIndex {
        board.index(Point::from_gtp(s, board.size()).unwrap())
    }

    fn policy() -> Policy {
        Policy::new(Knowledge::shipped())
    }

    /// The policy's suggestion for `c` after `last`, for 20 seeds.
    fn suggestions(board: &Board, c: Color, last: &str) -> Vec<Option<PointIndex>> {
        (0..20)
            .map(|seed| {
                let mut p = policy();
                p.last = Some(at(board, last));
                p.suggest(board, c, &mut fastrand::Rng::with_seed(seed))
            })
            .collect()
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
        for mv in suggestions(&board, Color::Black, "C2") {
            assert_eq!(mv, Some(at(&board, "C1")));
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
        for mv in suggestions(&board, Color::Black, "B3") {
            assert_eq!(mv, Some(at(&board, "B1")));
        }
    }

    #[test]
    fn without_a_last_move_the_draw_is_uniform() {
        // One stone from the empty 5×5 board, 10 000 times: every point
        // about as often (within a fifth of the mean: ten deviations).
        let empty = Board::new(BoardSize::new(5).unwrap());
        let mut rng = fastrand::Rng::with_seed(5);
        let mut seen = std::collections::HashMap::new();
        let mut board = empty.clone();
        let mut p = policy();
        for _ in 0..10_000 {
            board.clone_from(&empty);
            p.record.clear();
            p.last = None;
            shoutan_rules::playout(
                &mut board,
                Color::Black,
                Suicide::Forbidden,
                1,
                &mut p,
                &mut rng,
            );
            *seen.entry(p.record[0].0).or_insert(0u32) += 1;
        }
        assert_eq!(seen.len(), 25);
        for (i, n) in seen {
            assert!(n.abs_diff(400) < 80, "{:?}: {n}", empty.point(i));
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
        let mut p = policy();
        let area = run(&mut board, Color::Black, None, &mut p, &mut rng);
        assert!(p.record.is_empty(), "black filled an eye: {:?}", p.record);
        assert_eq!(area, 25);
    }

    #[test]
    fn playouts_finish_the_board() {
        let mut rng = fastrand::Rng::with_seed(3);
        for size in [BoardSize::NINE, BoardSize::NINETEEN] {
            let mut board = Board::new(size);
            let mut p = policy();
            let area = run(&mut board, Color::Black, None, &mut p, &mut rng);
            assert!(p.record.len() > size.area() / 2);
            assert!(area.unsigned_abs() as usize <= size.area());
            for &i in board.empty_points() {
                for c in Color::ALL {
                    assert!(
                        board.is_eye(i, c)
                            || !board.is_legal(i, c, Suicide::Forbidden)
                            || is_self_atari(&board, i, c),
                        "{c:?} could still play {:?}:\n{board}",
                        board.point(i)
                    );
                }
            }
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
