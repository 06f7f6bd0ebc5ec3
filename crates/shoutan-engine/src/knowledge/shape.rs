//! The shapes around a move, as the learned move knowledge sees them: the
//! 3×3 neighbourhood with the atari status of the four adjacent chains,
//! and larger diamond-shaped neighbourhoods (every point within a
//! Manhattan distance of 2 to 5) as hashes. Contents are read relative to
//! the player to move (own, opponent, empty, off the board), and each
//! shape is reduced to one canonical form under the 8 symmetries of the
//! square, so a shape learned in one corner is known in all.

use std::sync::OnceLock;

use shoutan_rules::{Board, Color, Point, PointIndex};

/// A point's content seen by the player to move.
const EMPTY: u32 = 0;
const OWN: u32 = 1;
const OPPONENT: u32 = 2;
const EDGE: u32 = 3;

/// The 8 neighbours of a 3×3 code, clockwise from the top; the code holds
/// their contents in 2 bits each, then in bits 16..20 whether the chain on
/// each orthogonal neighbour (top, right, bottom, left) is in atari.
const RING: [(i32, i32); 8] = [
    (0, -1),
    (1, -1),
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
];

/// Number of distinct raw 3×3 codes.
pub(crate) const SHAPE3_CODES: usize = 1 << 20;

/// The largest diamond radius.
pub(crate) const MAX_RADIUS: usize = 5;
/// The smallest diamond radius with a hash (radius 1 is part of the 3×3).
pub(crate) const MIN_RADIUS: usize = 2;

/// The distance within which no stone makes an area quiet.
pub(crate) const QUIET_RADIUS: usize = 3;

/// A symmetry of the square on offsets.
fn symmetry(s: usize, (x, y): (i32, i32)) -> (i32, i32) {
    let (x, y) = if s & 4 != 0 { (y, x) } else { (x, y) };
    let x = if s & 1 != 0 { -x } else { x };
    let y = if s & 2 != 0 { -y } else { y };
    (x, y)
}

/// The content of the point `(col, row)` of `board` for `c`.
#[inline]
fn content(board: &Board, col: i32, row: i32, c: Color) -> u32 {
    let n = i32::from(board.size().get());
    if col < 0 || row < 0 || col >= n || row >= n {
        return EDGE;
    }
    match board.get(Point::new(col as u8, row as u8)) {
        None => EMPTY,
        Some(x) if x == c => OWN,
        Some(_) => OPPONENT,
    }
}

/// The raw 3×3 code of the empty point `i` for `c` to move.
#[inline]
#[must_use]
pub(crate) fn shape3(board: &Board, i: PointIndex, c: Color) -> u32 {
    let p = board.point(i);
    let (x, y) = (i32::from(p.col()), i32::from(p.row()));
    let mut code = 0;
    for (k, &(dx, dy)) in RING.iter().enumerate() {
        code |= content(board, x + dx, y + dy, c) << (2 * k);
    }
    // The orthogonal neighbours are ring places 0, 2, 4, 6.
    let [n, w, e, s] = board.neighbors(i);
    for (bit, m) in [n, e, s, w].into_iter().enumerate() {
        if board.stone(m).is_some() && board.in_atari(m) {
            code |= 1 << (16 + bit);
        }
    }
    code
}

/// Where each ring place goes under each symmetry, and each orthogonal
/// atari bit.
struct Shape3Maps {
    ring: [[usize; 8]; 8],
}

fn shape3_maps() -> &'static Shape3Maps {
    static MAPS: OnceLock<Shape3Maps> = OnceLock::new();
    MAPS.get_or_init(|| {
        let mut ring = [[0; 8]; 8];
        for (s, map) in ring.iter_mut().enumerate() {
            for (k, &o) in RING.iter().enumerate() {
                let t = symmetry(s, o);
                map[k] = RING.iter().position(|&r| r == t).unwrap_or(k);
            }
        }
        Shape3Maps { ring }
    })
}

/// The canonical form of a raw 3×3 code: the least of its 8 symmetric codes.
#[must_use]
pub(crate) fn canonical3(code: u32) -> u32 {
    let maps = shape3_maps();
    let mut best = u32::MAX;
    for map in &maps.ring {
        let mut t = 0;
        for (k, &to) in map.iter().enumerate() {
            t |= ((code >> (2 * k)) & 3) << (2 * to);
            if k % 2 == 0 && code & (1 << (16 + k / 2)) != 0 {
                t |= 1 << (16 + to / 2);
            }
        }
        best = best.min(t);
    }
    best
}

/// The diamond's offsets, ring by ring (Manhattan distance 1 to
/// [`MAX_RADIUS`]), with for each symmetry the place of each offset's image
/// and the random keys of each place and content.
struct Diamond {
    offsets: Vec<(i32, i32)>,
    /// End of the offsets within each radius (index: the radius).
    ends: [usize; MAX_RADIUS + 1],
    images: [Vec<usize>; 8],
    keys: Vec<[u64; 4]>,
}

fn diamond() -> &'static Diamond {
    static DIAMOND: OnceLock<Diamond> = OnceLock::new();
    DIAMOND.get_or_init(|| {
        let mut offsets = Vec::new();
        let mut ends = [0; MAX_RADIUS + 1];
        for r in 1..=MAX_RADIUS as i32 {
            for dy in -r..=r {
                for dx in -r..=r {
                    if dx.abs() + dy.abs() == r {
                        offsets.push((dx, dy));
                    }
                }
            }
            ends[r as usize] = offsets.len();
        }
        let images = std::array::from_fn(|s| {
            offsets
                .iter()
                .map(|&o| {
                    let t = symmetry(s, o);
                    offsets.iter().position(|&q| q == t).unwrap_or(0)
                })
                .collect()
        });
        // Fixed keys (a splitmix64 sequence): the hashes are part of the
        // shipped tables and must never change.
        let mut state = 0x5348_4f55_5441_4e31u64;
        let mut next = || {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        let keys = offsets
            .iter()
            .map(|_| std::array::from_fn(|_| next()))
            .collect();
        Diamond {
            offsets,
            ends,
            images,
            keys,
        }
    })
}

/// The canonical hashes of the diamonds of radius [`MIN_RADIUS`] to
/// [`MAX_RADIUS`] around `i` for `c` to move, smallest first (each hash
/// also says its radius, so diamonds of different sizes never collide),
/// and whether no stone stands within a distance of [`QUIET_RADIUS`].
#[must_use]
pub(crate) fn diamond_hashes(
    board: &Board,
    i: PointIndex,
    c: Color,
) -> ([u64; MAX_RADIUS + 1 - MIN_RADIUS], bool) {
    let d = diamond();
    let p = board.point(i);
    let (x, y) = (i32::from(p.col()), i32::from(p.row()));
    let mut contents = [0u32; 64];
    for (k, &(dx, dy)) in d.offsets.iter().enumerate() {
        contents[k] = content(board, x + dx, y + dy, c);
    }
    let quiet = contents[..d.ends[QUIET_RADIUS]]
        .iter()
        .all(|&x| x == EMPTY || x == EDGE);
    let mut hashes = [0u64; 8];
    let mut out = [0; MAX_RADIUS + 1 - MIN_RADIUS];
    let mut start = 0;
    for r in 1..=MAX_RADIUS {
        let end = d.ends[r];
        for (s, h) in hashes.iter_mut().enumerate() {
            let image = &d.images[s];
            for k in start..end {
                *h ^= d.keys[k][contents[image[k]] as usize];
            }
        }
        if r >= MIN_RADIUS {
            let least = hashes.iter().copied().min().unwrap_or(0);
            out[r - MIN_RADIUS] = least ^ (r as u64);
        }
        start = end;
    }
    (out, quiet)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(board: &Board, s: &str) -> PointIndex {
        board.index(Point::from_gtp(s, board.size()).unwrap())
    }

    #[test]
    fn a_shape_and_its_rotation_and_mirror_are_one() {
        // The hane C2 under White's C3 between Black's B3 and D3, and the
        // same shape turned a quarter with the colours swapped (White to
        // play D3 beside Black's C3 between White's C4 and C2).
        let upright: Board = "
            . . . . .
            . . . . .
            . X O X .
            . . . . .
            . . . . ."
            .parse()
            .unwrap();
        let turned: Board = "
            . . . . .
            . . O . .
            . . X . .
            . . O . .
            . . . . ."
            .parse()
            .unwrap();
        let a = shape3(&upright, at(&upright, "C2"), Color::Black);
        let b = shape3(&turned, at(&turned, "D3"), Color::White);
        assert_ne!(a, b);
        assert_eq!(canonical3(a), canonical3(b));
        let (ha, quiet) = diamond_hashes(&upright, at(&upright, "C2"), Color::Black);
        let hb = diamond_hashes(&turned, at(&turned, "D3"), Color::White).0;
        assert_eq!(ha, hb);
        assert!(!quiet);
        // Another point differs (C4 does not: it is C2 mirrored).
        let mirrored = shape3(&upright, at(&upright, "C4"), Color::Black);
        assert_eq!(canonical3(mirrored), canonical3(a));
        let other = shape3(&upright, at(&upright, "B2"), Color::Black);
        assert_ne!(canonical3(other), canonical3(a));
    }

    #[test]
    fn atari_bits_mark_the_adjacent_chains_in_atari() {
        // White's C2 has one liberty, C1: from C1, its chain is above.
        let board: Board = "
            . . . . .
            . . . . .
            . . X . .
            . X O X .
            . . . . ."
            .parse()
            .unwrap();
        let code = shape3(&board, at(&board, "C1"), Color::Black);
        assert_eq!(code >> 16, 0b0001, "top neighbour in atari");
        assert_eq!(code & 3, OPPONENT);
        assert_eq!((code >> 8) & 3, EDGE, "below is the edge");
    }

    #[test]
    fn the_edge_enters_the_larger_diamonds() {
        let board = Board::new(shoutan_rules::BoardSize::NINETEEN);
        let third = diamond_hashes(&board, at(&board, "C10"), Color::Black).0;
        let fourth = diamond_hashes(&board, at(&board, "D10"), Color::Black).0;
        let (centre, quiet) = diamond_hashes(&board, at(&board, "K10"), Color::Black);
        assert!(quiet);
        // Radius 2 sees no edge from either; radius 3 sees it from C10 only.
        assert_eq!(third[0], centre[0]);
        assert_ne!(third[1], centre[1]);
        assert_eq!(fourth[1], centre[1]);
        assert_ne!(fourth[2], centre[2]);
    }
}
