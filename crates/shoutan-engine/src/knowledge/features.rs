//! The features of a candidate move, one value per group, as in Coulom's
//! "Computing Elo Ratings of Move Patterns in the Game of Go" (2007): the
//! shapes around it, what it captures or saves, whether it is a
//! self-atari or an atari (and whether the ladder works), its line and
//! whether the area is empty, and its distance to the last two moves.

use shoutan_rules::{Board, Color, Game, Move, PointIndex, Suicide};

use super::shape::{MAX_RADIUS, MIN_RADIUS, canonical3, diamond_hashes, shape3};
use crate::ladder::{Ladders, count_liberties};
use crate::tactics::liberties_after;

/// Feature groups; a move has exactly one value in each (0: none, in
/// every group but the 3×3 shape, where 0 is a shape not learned).
pub(crate) const GROUPS: usize = 9;
/// The 3×3 shape with the atari status of the adjacent chains.
pub(crate) const SHAPE3: usize = 0;
/// The largest diamond shape that was learned (radius 2 to 5).
pub(crate) const DIAMOND: usize = 1;
/// Captures: of the last move's chain, to save an own chain in atari, a
/// ko, a small one, a big one.
pub(crate) const CAPTURE: usize = 2;
/// Extending an own chain out of atari: to 3 liberties or more, to 2, or
/// into a working ladder (or fewer liberties).
pub(crate) const ESCAPE: usize = 3;
/// Self-atari of one stone, of several.
pub(crate) const SELF_ATARI: usize = 4;
/// Ataris: a working ladder, another atari, any atari while a ko is open.
pub(crate) const ATARI: usize = 5;
/// The line (1 to 4, or 5 for the rest), and whether no stone is within
/// a distance of 3.
pub(crate) const LINE: usize = 6;
/// The distance to the last move (`|dx| + |dy| + max(|dx|, |dy|)`, 2 to
/// 17 or more), 0 when there was none.
pub(crate) const LAST: usize = 7;
/// The same to the move before.
pub(crate) const BEFORE_LAST: usize = 8;

/// Values of each small group (the shape groups' sizes come from the
/// learned dictionaries).
pub(crate) const SMALL_GROUP_SIZES: [usize; GROUPS] = [0, 0, 6, 4, 3, 4, 10, 17, 17];

/// A move's feature values, one per group.
pub(crate) type Features = [u32; GROUPS];

/// What the features read before the shapes are looked up: the canonical
/// 3×3 code, the diamond hashes and the other groups' values.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Raw {
    pub(crate) shape3: u32,
    pub(crate) diamonds: [u64; MAX_RADIUS + 1 - MIN_RADIUS],
    pub(crate) values: Features,
}

/// A position whose moves are judged: the board, the player to move and
/// the last two moves.
#[derive(Clone, Copy)]
pub struct Situation<'a> {
    /// The stones.
    pub board: &'a Board,
    /// The player to move.
    pub to_move: Color,
    /// The last move, if it was a stone.
    pub last: Option<PointIndex>,
    /// The move before it, if it was a stone.
    pub before_last: Option<PointIndex>,
}

impl<'a> Situation<'a> {
    /// The position of `game` with `to_move` to play.
    #[must_use]
    pub fn of_game(game: &'a Game, to_move: Color) -> Situation<'a> {
        let board = game.board();
        let stone = |k: usize| match game.turns().iter().rev().nth(k) {
            Some(t) => match t.mv {
                Move::Play(p) => Some(board.index(p)),
                Move::Pass => None,
            },
            None => None,
        };
        Situation {
            board,
            to_move,
            last: stone(0),
            before_last: stone(1),
        }
    }

    /// Whether `i` is a move the knowledge judges: empty, legal, and not
    /// the mover's own eye.
    #[must_use]
    pub fn is_candidate(&self, i: PointIndex) -> bool {
        self.board.is_empty(i)
            && !self.board.is_eye(i, self.to_move)
            && self.board.is_legal(i, self.to_move, Suicide::Forbidden)
    }
}

/// Reads features, with the boards its ladder reading reuses.
#[derive(Default)]
pub(crate) struct Reader {
    ladders: Ladders,
    scratch: Option<Board>,
}

impl Reader {
    /// The canonical 3×3 code and the diamond hashes of `i` in `s`.
    pub(crate) fn read_shapes(
        &mut self,
        s: &Situation,
        i: PointIndex,
    ) -> (u32, [u64; MAX_RADIUS + 1 - MIN_RADIUS]) {
        let (diamonds, _) = diamond_hashes(s.board, i, s.to_move);
        (canonical3(shape3(s.board, i, s.to_move)), diamonds)
    }

    /// The raw features of the candidate `i` in `s`.
    pub(crate) fn read(&mut self, s: &Situation, i: PointIndex) -> Raw {
        let board = s.board;
        let c = s.to_move;
        let (diamonds, quiet) = diamond_hashes(board, i, c);
        let mut values = [0; GROUPS];
        values[CAPTURE] = self.capture(s, i);
        values[ESCAPE] = self.escape(board, i, c);
        values[SELF_ATARI] = if values[CAPTURE] == 0 {
            self_atari(board, i, c)
        } else {
            0
        };
        values[ATARI] = self.atari(board, i, c);
        let p = board.point(i);
        let n = u32::from(board.size().get());
        let (x, y) = (u32::from(p.col()), u32::from(p.row()));
        let line = 1 + x.min(y).min(n - 1 - x).min(n - 1 - y);
        values[LINE] = (line.min(5) - 1) + 5 * u32::from(quiet);
        values[LAST] = distance(board, i, s.last);
        values[BEFORE_LAST] = distance(board, i, s.before_last);
        Raw {
            shape3: canonical3(shape3(board, i, c)),
            diamonds,
            values,
        }
    }

    fn capture(&mut self, s: &Situation, i: PointIndex) -> u32 {
        let board = s.board;
        let c = s.to_move;
        let opp = c.opponent();
        let mut size = 0;
        let mut seen = [None; 4];
        let (mut takes_last, mut saves) = (false, false);
        for (k, n) in board.neighbors(i).into_iter().enumerate() {
            if board.stone(n) != Some(opp) || !board.in_atari(n) {
                continue;
            }
            let id = board.chain_id(n);
            if seen.contains(&Some(id)) {
                continue;
            }
            seen[k] = Some(id);
            size += board.chain_len(n);
            takes_last |= s
                .last
                .is_some_and(|l| board.stone(l) == Some(opp) && board.chain_id(l) == id);
            saves |= board.chain(n).any(|m| {
                board
                    .neighbors(m)
                    .into_iter()
                    .any(|o| board.stone(o) == Some(c) && board.in_atari(o))
            });
        }
        if size == 0 {
            return 0;
        }
        let ko = size == 1
            && board
                .neighbors(i)
                .into_iter()
                .all(|n| !board.is_empty(n) && board.stone(n) != Some(c));
        match () {
            () if takes_last => 1,
            () if saves => 2,
            () if ko => 3,
            () if size <= 2 => 4,
            () => 5,
        }
    }

    fn escape(&mut self, board: &Board, i: PointIndex, c: Color) -> u32 {
        let rescues = board
            .neighbors(i)
            .into_iter()
            .any(|n| board.stone(n) == Some(c) && board.in_atari(n));
        if !rescues {
            return 0;
        }
        let after = play_on(&mut self.scratch, board, i, c);
        match count_liberties(after, i) {
            0 | 1 => 3,
            2 if self.ladders.caught_after_atari(after, i) => 3,
            2 => 2,
            _ => 1,
        }
    }

    fn atari(&mut self, board: &Board, i: PointIndex, c: Color) -> u32 {
        let opp = c.opponent();
        let mut targets = [None; 4];
        for (k, n) in board.neighbors(i).into_iter().enumerate() {
            if board.stone(n) == Some(opp) && !board.in_atari(n) && count_liberties(board, n) == 2 {
                targets[k] = Some(n);
            }
        }
        if targets.iter().all(Option::is_none) {
            return 0;
        }
        if board.ko().is_some() {
            return 3;
        }
        let after = play_on(&mut self.scratch, board, i, c);
        let ladder = targets
            .into_iter()
            .flatten()
            .any(|t| after.in_atari(t) && self.ladders.caught(after, t));
        if ladder { 1 } else { 2 }
    }
}

/// `board` after `c` plays `i`, on the reused board in `scratch`.
fn play_on<'a>(
    scratch: &'a mut Option<Board>,
    board: &Board,
    i: PointIndex,
    c: Color,
) -> &'a Board {
    let after = match scratch {
        Some(b) => {
            b.clone_from(board);
            b
        }
        None => scratch.insert(board.clone()),
    };
    after.play_unchecked(i, c);
    after
}

/// Self-atari: 1 for a lone stone, 2 for a chain of several.
fn self_atari(board: &Board, i: PointIndex, c: Color) -> u32 {
    if liberties_after(board, i, c) > 1 {
        return 0;
    }
    let joins = board
        .neighbors(i)
        .into_iter()
        .any(|n| board.stone(n) == Some(c));
    if joins { 2 } else { 1 }
}

/// The distance value of `i` to `other` (see [`LAST`]).
fn distance(board: &Board, i: PointIndex, other: Option<PointIndex>) -> u32 {
    let Some(o) = other else { return 0 };
    let (a, b) = (board.point(i), board.point(o));
    let dx = u32::from(a.col().abs_diff(b.col()));
    let dy = u32::from(a.row().abs_diff(b.row()));
    // The same point again (the stone was taken): as near as can be.
    (dx + dy + dx.max(dy)).clamp(2, 17) - 1
}
