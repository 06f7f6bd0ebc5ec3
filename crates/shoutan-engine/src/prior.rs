//! Prior knowledge for new tree nodes: the learned move knowledge's
//! probability that a strong player picks each move (see
//! [`crate::knowledge`]), which steers the search towards the moves worth
//! reading before any playout has told them apart. Every child also starts
//! with a few even pseudo-results, and the pass with poor ones. Moves into
//! one's own eye are left out of the tree. The children come most probable
//! first, the pass last: the search widens along that order (see
//! [`crate::tree::Selection::widening`]).

use shoutan_rules::{Board, Color, PointIndex};

use crate::knowledge::{Knowledge, Reader, Situation};
use crate::tree::{NewChild, PASS};

/// Pseudo-visits of every child, half of them won.
const EVEN_VISITS: u16 = 10;

/// The probability given to the pass before any playout.
const PASS_POLICY: f32 = 0.001;

/// Reused buffers.
#[derive(Default)]
pub(crate) struct PriorScratch {
    reader: Reader,
    strengths: Vec<(PointIndex, f32)>,
}

/// The children of a position with `c` to move and their priors, written to
/// `out`: every empty point that is legal, allowed by `allowed` (the root
/// checks superko there) and not `c`'s own eye, most probable first, then
/// the pass.
pub(crate) fn children(
    board: &Board,
    c: Color,
    last: [Option<PointIndex>; 2],
    allowed: &dyn Fn(PointIndex) -> bool,
    scratch: &mut PriorScratch,
    out: &mut Vec<NewChild>,
) {
    out.clear();
    let s = Situation {
        board,
        to_move: c,
        last: last[0],
        before_last: last[1],
    };
    let strengths = &mut scratch.strengths;
    Knowledge::shipped().strengths(&s, &mut scratch.reader, allowed, strengths);
    let total: f32 = strengths
        .iter()
        .map(|&(_, w)| w)
        .sum::<f32>()
        .max(f32::MIN_POSITIVE);
    for &(i, w) in strengths.iter() {
        out.push(NewChild {
            mv: i.get() as u16,
            prior_visits: EVEN_VISITS,
            prior_wins: EVEN_VISITS,
            policy: policy_units((1.0 - PASS_POLICY) * w / total),
        });
    }
    // Stable: equal policies keep the board's order, so searches stay
    // reproducible.
    out.sort_by_key(|child| std::cmp::Reverse(child.policy));
    out.push(NewChild {
        mv: PASS,
        prior_visits: 20,
        prior_wins: 4,
        policy: policy_units(PASS_POLICY),
    });
}

/// A probability in the tree's units (1/65535).
fn policy_units(p: f32) -> u16 {
    (p * 65535.0).round().clamp(0.0, 65535.0) as u16
}

#[cfg(test)]
mod tests {
    use super::*;
    use shoutan_rules::Point;

    /// The policy of the move `s` among the children for `c`, in [0, 1].
    fn policy_of(board: &Board, c: Color, s: &str) -> f32 {
        let at = |s: &str| board.index(Point::from_gtp(s, board.size()).unwrap());
        let mut out = Vec::new();
        children(
            board,
            c,
            [None, None],
            &|_| true,
            &mut PriorScratch::default(),
            &mut out,
        );
        let mv = at(s).get() as u16;
        let child = out
            .iter()
            .find(|k| k.mv == mv)
            .expect("the move is a child");
        f32::from(child.policy) / 65535.0
    }

    #[test]
    fn capture_beats_self_atari() {
        // Black to play: C1 takes the white stone at C2; A5 would leave a
        // black stone with the single liberty A4.
        let board: Board = "
            . O . . .
            . . . . .
            . . X . .
            . X O X .
            . . . . ."
            .parse()
            .unwrap();
        let capture = policy_of(&board, Color::Black, "C1");
        let self_atari = policy_of(&board, Color::Black, "A5");
        assert!(capture > 50.0 * self_atari, "{capture} {self_atari}");
        // And far above an even share of the 21 moves.
        assert!(capture > 2.0 / 21.0, "{capture}");
    }

    #[test]
    fn own_eyes_are_not_children_and_pass_always_is() {
        let board: Board = "
            . X . . .
            X X . . .
            . . . . .
            . . . . .
            . . . . ."
            .parse()
            .unwrap();
        let mut out = Vec::new();
        children(
            &board,
            Color::Black,
            [None, None],
            &|_| true,
            &mut PriorScratch::default(),
            &mut out,
        );
        let eye = board
            .index(Point::from_gtp("A5", board.size()).unwrap())
            .get() as u16;
        assert!(!out.iter().any(|k| k.mv == eye));
        assert_eq!(out.last().map(|k| k.mv), Some(PASS));
        // 25 points, 3 stones, 1 eye: 21 moves and the pass.
        assert_eq!(out.len(), 22);
        let total: u32 = out.iter().map(|k| u32::from(k.policy)).sum();
        assert!(
            total.abs_diff(65535) < 40,
            "the policy sums to one: {total}"
        );
    }

    #[test]
    fn the_first_lines_of_an_empty_board_are_slow() {
        let board = Board::new(shoutan_rules::BoardSize::NINETEEN);
        let edge = policy_of(&board, Color::Black, "A10");
        let second = policy_of(&board, Color::Black, "B14");
        let third = policy_of(&board, Color::Black, "C16");
        let fourth = policy_of(&board, Color::Black, "D16");
        // The 4-4 and 3-4 points open; the first two lines almost never.
        assert!(
            edge < 0.001 && second < 0.001 && third > 0.02 && fourth > 0.05,
            "{edge} {second} {third} {fourth}"
        );
    }
}
