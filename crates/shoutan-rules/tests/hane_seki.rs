//! Hane seki (跳ねセキ, hanezeki): both sides have stones in atari, yet
//! whoever captures loses the capturing race that follows, so both leave
//! them and the position is seki.
//!
//! The idea and its explanation come from Sensei's Library, "Hanezeki":
//! each side has a big eye with the opponent's stones in atari inside it;
//! capturing them makes the capturer's own eye small, the opponent places a
//! stone in it and wins the race.
//!
//! The position below was checked by exhaustive search (alpha-beta over
//! every sequence of moves on the 22 points of the fight and passes; no
//! suicide, no position repeated, two passes end; area score of the whole
//! board with the walls fixed as alive; the capture of either big group
//! ends the search, the capturer taking the corner). With either side to
//! move, passing is best and every local move is strictly worse:
//!
//! | first move                 | result (black − white)  |
//! |----------------------------|-------------------------|
//! | both pass (seki)           | −6                      |
//! | black A2 (takes A1 B1 C1)  | −25: black's group dies |
//! | black E1                   | −25: white A2 takes it  |
//! | white J2 (takes G1 H1 J1)  | +19: white's group dies |
//! | white E1                   | +19: black J2 takes it  |
//!
//! After black A2 only white's placement at B1 kills black's group (white
//! J2 instead gives −5, anything else +19); after white J2 only black's
//! placement at H1 kills white's (black A2 instead gives −7). The lines
//! replayed below are winning lines found by the search.

#![allow(clippy::unwrap_used)] // test code: a failed setup is a failed test

use shoutan_rules::{
    Board, BoardSize, ByColor, Color, CountSettings, Game, Owner, Point, PointSet, Ruleset, Score,
    Suicide, count,
};

/// Black's group A3-B3-B2…E2-D1 has a big eye A2 + A1-B1-C1 with three
/// white stones in atari inside; white's group F2…J3-F1 has a big eye J2 +
/// G1-H1-J1 with three black stones in atari inside. The groups share E1.
/// The walls above are alive: white's with 21 points of territory, black's
/// with 15.
const HANEZEKI: &str = "
    . . . . O X . . .
    . . . . O X . . .
    . . . . O X . . .
    . . . . O X . . .
    . . . . O X . . .
    O O O . O X X X X
    X X O O O X X O O
    . X X X X O O O .
    O O O X . O X X X";

// Points by GTP name (row 0 is the top row, row 9 on the board).
const A2: Point = Point::new(0, 7);
const J2: Point = Point::new(8, 7);
const E1: Point = Point::new(4, 8);
const A1: Point = Point::new(0, 8);
const B1: Point = Point::new(1, 8);
const C1: Point = Point::new(2, 8);
const D1: Point = Point::new(3, 8);
const F1: Point = Point::new(5, 8);
const G1: Point = Point::new(6, 8);
const H1: Point = Point::new(7, 8);
const J1: Point = Point::new(8, 8);
/// A stone of black's big group.
const B2: Point = Point::new(1, 7);
/// A stone of white's big group.
const G2: Point = Point::new(6, 7);

fn board() -> Board {
    HANEZEKI.parse().unwrap()
}

fn game(to_move: Color) -> Game {
    Game::builder(BoardSize::NINE)
        .position(board(), to_move)
        .build()
        .unwrap()
}

fn liberties(board: &Board, p: Point) -> Vec<Point> {
    let mut libs: Vec<Point> = board
        .liberties(board.index(p))
        .into_iter()
        .map(|i| board.point(i))
        .collect();
    libs.sort_by_key(|q| (q.row(), q.col()));
    libs
}

/// Plays `color` at `p` and returns the stones it took, sorted.
fn play(game: &mut Game, color: Color, p: Point) -> Vec<Point> {
    let mut captured = game.play(color, p).unwrap().captured;
    captured.sort_by_key(|q| (q.row(), q.col()));
    captured
}

fn settings(ruleset: Ruleset) -> CountSettings {
    CountSettings {
        ruleset,
        komi: Score::ZERO,
        handicap: 0,
        prisoners: ByColor::new(0, 0),
        warnings: ByColor::new(0, 0),
    }
}

#[test]
fn both_sides_have_three_stones_in_atari_and_may_capture() {
    let b = board();
    let atari_at = |p: Point| {
        let i = b.index(p);
        assert!(b.in_atari(i), "{p:?} in atari");
        b.atari_liberty(i).map(|l| b.point(l))
    };
    for p in [A1, B1, C1] {
        assert_eq!(b.get(p), Some(Color::White));
        assert_eq!(atari_at(p), Some(A2), "white's stones inside black's eye");
    }
    for p in [G1, H1, J1] {
        assert_eq!(b.get(p), Some(Color::Black));
        assert_eq!(atari_at(p), Some(J2), "black's stones inside white's eye");
    }
    // The big groups are not in atari: each has its eye point and E1.
    assert_eq!(liberties(&b, B2), vec![A2, E1]);
    assert_eq!(liberties(&b, G2), vec![J2, E1]);
    // Either side may capture.
    assert!(b.is_legal(b.index(A2), Color::Black, Suicide::Forbidden));
    assert!(b.is_legal(b.index(J2), Color::White, Suicide::Forbidden));
    // Neither may play into the other's eye point: no capture, no liberty.
    assert!(!b.is_legal(b.index(A2), Color::White, Suicide::Forbidden));
    assert!(!b.is_legal(b.index(J2), Color::Black, Suicide::Forbidden));
}

/// Black captures A1 B1 C1: black's eye is now the straight three A1-B1-C1
/// with its own stone at A2, and white's placement at B1 wins the race.
#[test]
fn black_capturing_first_loses_the_race() {
    let mut g = game(Color::Black);
    assert_eq!(play(&mut g, Color::Black, A2), vec![A1, B1, C1]);
    assert!(play(&mut g, Color::White, B1).is_empty(), "the placement");
    // Black fills the shared liberty: white's group is in atari at J2 …
    assert!(play(&mut g, Color::Black, E1).is_empty());
    assert_eq!(liberties(g.board(), G2), vec![J2]);
    // … and has to capture, which gives white a small eye too.
    assert_eq!(play(&mut g, Color::White, J2), vec![G1, H1, J1]);
    assert!(
        play(&mut g, Color::Black, H1).is_empty(),
        "black's placement"
    );
    assert!(play(&mut g, Color::White, A1).is_empty());
    assert_eq!(liberties(g.board(), B2), vec![C1], "black in atari");
    assert!(play(&mut g, Color::Black, G1).is_empty());
    assert_eq!(liberties(g.board(), G2), vec![J1], "white keeps J1");
    // Both are down to one liberty and white, to move, takes black's group.
    let taken = play(&mut g, Color::White, C1);
    assert_eq!(taken.len(), 9, "A2 A3 B3 B2 C2 D2 E2 D1 E1: {taken:?}");
    for p in [A2, B2, D1, E1] {
        assert_eq!(g.board().get(p), None);
    }
    assert_eq!(g.board().get(G2), Some(Color::White));
}

/// The same the other way round: white captures G1 H1 J1 and black's
/// placement at H1 wins.
#[test]
fn white_capturing_first_loses_the_race() {
    let mut g = game(Color::White);
    assert_eq!(play(&mut g, Color::White, J2), vec![G1, H1, J1]);
    assert!(play(&mut g, Color::Black, H1).is_empty(), "the placement");
    assert!(play(&mut g, Color::White, E1).is_empty());
    assert_eq!(liberties(g.board(), B2), vec![A2]);
    assert_eq!(play(&mut g, Color::Black, A2), vec![A1, B1, C1]);
    assert!(
        play(&mut g, Color::White, B1).is_empty(),
        "white's placement"
    );
    assert!(play(&mut g, Color::Black, J1).is_empty());
    assert_eq!(liberties(g.board(), G2), vec![G1], "white in atari");
    assert!(play(&mut g, Color::White, A1).is_empty());
    assert_eq!(liberties(g.board(), B2), vec![C1], "black in atari too");
    let taken = play(&mut g, Color::Black, G1);
    assert_eq!(taken.len(), 8, "F2 G2 H2 H3 J3 F1 E1 J2: {taken:?}");
    for p in [J2, G2, F1, E1] {
        assert_eq!(g.board().get(p), None);
    }
    assert_eq!(g.board().get(B2), Some(Color::Black));
}

/// Area counting with nothing dead: every stone counts, and A2, J2 and E1,
/// each touching both colours, are shared half and half.
#[test]
fn area_counting_shares_the_hane_seki_points() {
    let b = board();
    let c = count(&b, &PointSet::new(b.size()), &settings(Ruleset::CHINESE));
    for p in [A2, J2, E1] {
        assert_eq!(c.owner(p), Owner::Shared, "{p:?}");
    }
    assert_eq!(c.owner(A1), Owner::White, "white's stones in atari live");
    assert_eq!(c.owner(J1), Owner::Black, "black's stones in atari live");
    assert_eq!((c.black.stones, c.white.stones), (21, 21));
    assert_eq!((c.black.territory, c.white.territory), (15, 21));
    assert_eq!((c.black.shared, c.white.shared), (3, 3));
    assert_eq!(c.black.count, Score::from_half_points(75), "21 + 15 + 3/2");
    assert_eq!(c.white.count, Score::from_half_points(87), "21 + 21 + 3/2");
    assert_eq!(c.margin, Score::from_points(-6));
}

/// Territory counting: the shared liberty E1 and the big eyes' points A2
/// and J2 are seki and count for nobody, though playing at A2 or J2
/// captures; the walls' territory counts.
#[test]
fn territory_counting_gives_the_hane_seki_to_nobody() {
    let b = board();
    let c = count(&b, &PointSet::new(b.size()), &settings(Ruleset::JAPANESE));
    for p in [A2, J2, E1] {
        assert!(c.seki.contains(p), "{p:?} is seki");
        assert_eq!(c.owner(p), Owner::Neutral, "{p:?}");
    }
    assert_eq!(c.seki.iter().count(), 3);
    assert_eq!(c.owner(Point::new(0, 0)), Owner::White, "white's territory");
    assert_eq!(c.owner(Point::new(8, 0)), Owner::Black, "black's territory");
    assert_eq!((c.black.territory, c.white.territory), (15, 21));
    assert_eq!(c.black.count, Score::from_points(15));
    assert_eq!(c.white.count, Score::from_points(21));
    assert_eq!(c.margin, Score::from_points(-6));
}
