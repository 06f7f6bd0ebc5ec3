//! 3×3 shape knowledge: a hand-written set of the local shapes strong
//! players answer without thinking (hane, cuts, blocks on the edge), in the
//! spirit of the patterns that made MoGo strong. Each pattern is matched in
//! its 8 rotations and reflections and for either colour to move, and the
//! whole set is folded into one table indexed by the 8 neighbours of a point,
//! so a playout asks "is this a good shape?" with eight reads and one lookup.

use std::sync::OnceLock;

use shoutan_rules::{Board, Color, PointIndex};

/// The patterns, the move in the centre. `X` a stone of the player to move,
/// `O` an opponent stone, `.` empty, `x` not `X`, `o` not `O`, `#` off the
/// board, `?` anything.
const PATTERNS: &[[&str; 3]] = &[
    // Hane that encloses the opponent stone.
    ["XOX", "...", "???"],
    // Hane that leaves no cut.
    ["XO.", "...", "?.?"],
    // Hane at the head (magari).
    ["XO?", "X..", "x.?"],
    // Thin hane.
    ["XOO", "...", "?.?"],
    // Diagonal attachment.
    [".O.", "X..", "..."],
    // Cut with nothing to protect it.
    ["XO?", "O.o", "?o?"],
    // Cut after a peep.
    ["XO?", "O.X", "???"],
    // Push through (de).
    ["?X?", "O.O", "ooo"],
    // Cut the knight's move.
    ["OX?", "o.O", "???"],
    // Edge: chase along the first line.
    ["X.?", "O.?", "###"],
    // Edge: block the cut.
    ["OX?", "X.O", "###"],
    // Edge: block the connection.
    ["?X?", "x.O", "###"],
    // Edge: descend (sagari).
    ["?XO", "x.x", "###"],
    // Edge: cut.
    ["?OX", "X.O", "###"],
];

/// Content codes of a cell, two bits each.
const EMPTY: u8 = 0;
const BLACK: u8 = 1;
const WHITE: u8 = 2;
const EDGE: u8 = 3;

/// The eight neighbours in the order their codes are packed: offsets (column,
/// row) around the centre, clockwise from the top.
const RING: [(i8, i8); 8] = [
    (0, -1),
    (1, -1),
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
];

/// The shape around `i`: the contents of its 8 neighbours, two bits each, in
/// [`RING`] order.
#[inline]
#[must_use]
pub fn shape(board: &Board, i: PointIndex) -> u16 {
    let [n, w, e, s] = board.neighbors(i);
    let [nw, ne, sw, se] = board.diagonals(i);
    let mut code = 0u16;
    for (k, cell) in [n, ne, e, se, s, sw, w, nw].into_iter().enumerate() {
        let v = match board.stone(cell) {
            Some(Color::Black) => BLACK,
            Some(Color::White) => WHITE,
            None if board.is_on_board(cell) => EMPTY,
            None => EDGE,
        };
        code |= u16::from(v) << (2 * k);
    }
    code
}

/// Whether a move at `i` makes one of the good shapes (for either colour).
#[inline]
#[must_use]
pub fn is_good_shape(board: &Board, i: PointIndex) -> bool {
    let table = table();
    let code = shape(board, i);
    table[usize::from(code) / 8] & (1 << (code % 8)) != 0
}

/// One bit per shape code: whether some pattern matches it.
fn table() -> &'static [u8; 8192] {
    static TABLE: OnceLock<Box<[u8; 8192]>> = OnceLock::new();
    TABLE.get_or_init(build)
}

/// The set of codes a pattern character allows, as a bit mask over the four
/// cell codes, with `me` the code of the player to move.
fn allowed(ch: u8, me: u8) -> u8 {
    let opp = if me == BLACK { WHITE } else { BLACK };
    let bit = |v: u8| 1u8 << v;
    match ch {
        b'X' => bit(me),
        b'O' => bit(opp),
        b'.' => bit(EMPTY),
        b'x' => bit(opp) | bit(EMPTY),
        b'o' => bit(me) | bit(EMPTY),
        b'#' => bit(EDGE),
        _ => 0b1111,
    }
}

/// A map of (column, row) offsets from the centre.
type Transform = fn((i8, i8)) -> (i8, i8);

/// The 8 symmetries of the square.
fn symmetries() -> [Transform; 8] {
    [
        |(x, y)| (x, y),
        |(x, y)| (-x, y),
        |(x, y)| (x, -y),
        |(x, y)| (-x, -y),
        |(x, y)| (y, x),
        |(x, y)| (-y, x),
        |(x, y)| (y, -x),
        |(x, y)| (-y, -x),
    ]
}

fn build() -> Box<[u8; 8192]> {
    // Every variant as 8 allowed-masks in ring order.
    let mut variants: Vec<[u8; 8]> = Vec::new();
    for pattern in PATTERNS {
        for me in [BLACK, WHITE] {
            for sym in symmetries() {
                let mut masks = [0u8; 8];
                for (k, &(dx, dy)) in RING.iter().enumerate() {
                    // The pattern cell that lands on ring position k.
                    let (px, py) = sym((dx, dy));
                    let row = pattern[(py + 1) as usize].as_bytes();
                    masks[k] = allowed(row[(px + 1) as usize], me);
                }
                if !variants.contains(&masks) {
                    variants.push(masks);
                }
            }
        }
    }
    let mut table = Box::new([0u8; 8192]);
    for code in 0..=u16::MAX {
        let matches = variants.iter().any(|masks| {
            masks
                .iter()
                .enumerate()
                .all(|(k, &m)| m & (1 << ((code >> (2 * k)) & 3)) != 0)
        });
        if matches {
            table[usize::from(code) / 8] |= 1 << (code % 8);
        }
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;
    use shoutan_rules::Point;

    fn at(board: &Board, s: &str) -> PointIndex {
        board.index(Point::from_gtp(s, board.size()).unwrap())
    }

    #[test]
    fn hane_is_good_shape_in_every_orientation_and_colour() {
        // The enclosing hane: C2 under the white C3 between black B3 and D3.
        let upright: Board = "
            . . . . .
            . . . . .
            . X O X .
            . . . . .
            . . . . ."
            .parse()
            .unwrap();
        assert!(is_good_shape(&upright, at(&upright, "C2")));
        // Turned a quarter and with the colours swapped: D3 beside the black
        // C3 between white C4 and C2.
        let turned: Board = "
            . . . . .
            . . O . .
            . . X . .
            . . O . .
            . . . . ."
            .parse()
            .unwrap();
        assert!(is_good_shape(&turned, at(&turned, "D3")));
        assert!(
            !is_good_shape(&turned, at(&turned, "E5")),
            "far from the stones"
        );
    }

    #[test]
    fn edge_block_is_recognised() {
        // Block the cut on the first line: O X ? / X * O / edge.
        let edge: Board = "
            . . . . .
            . . . . .
            . . . . .
            O X . . .
            X . O . ."
            .parse()
            .unwrap();
        assert!(is_good_shape(&edge, at(&edge, "B1")));
        assert!(
            !is_good_shape(&edge, at(&edge, "E1")),
            "an empty edge is no shape"
        );
    }

    #[test]
    fn empty_surroundings_match_nothing() {
        let board = Board::new(shoutan_rules::BoardSize::NINE);
        for &i in board.empty_points() {
            assert!(!is_good_shape(&board, i));
        }
    }
}
