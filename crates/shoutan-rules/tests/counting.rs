//! Counting (Art. 9, 11, 21.2, 24; spec §5) and its worked examples.

#![allow(clippy::unwrap_used)] // test code: a failed setup is a failed test

use shoutan_rules::{
    Board, BoardSize, ByColor, Color, Count, CountSettings, Counting, GameResult, Owner, Point,
    PointSet, Ruleset, Score, WinBy, count,
};

fn settings(ruleset: Ruleset, komi: Score, handicap: u8) -> CountSettings {
    CountSettings {
        ruleset,
        komi,
        handicap,
        prisoners: ByColor::new(0, 0),
        warnings: ByColor::new(0, 0),
    }
}

fn no_dead(board: &Board) -> PointSet {
    PointSet::new(board.size())
}

/// A 19×19 end position where, row by row, black owns the first `black[r]`
/// points (its wall stone last) and white the rest; where `dame[r]` is set
/// one point between the walls is left open.
fn split_board(black: [u8; 19], dame: [bool; 19]) -> Board {
    let mut board = Board::new(BoardSize::NINETEEN);
    let mut stones = Vec::new();
    for row in 0..19u8 {
        let w = black[row as usize];
        stones.push((Point::new(w - 1, row), Some(Color::Black)));
        let white_at = if dame[row as usize] { w + 1 } else { w };
        stones.push((Point::new(white_at, row), Some(Color::White)));
    }
    board.set_stones(stones).unwrap();
    board
}

/// Rows so that black's area is `area` points, no dame.
fn area_rows(area: u32) -> [u8; 19] {
    let (base, extra) = ((area / 19) as u8, area % 19);
    std::array::from_fn(|r| base + u8::from((r as u32) < extra))
}

fn chinese(board: &Board) -> Count {
    count(
        board,
        &no_dead(board),
        &settings(Ruleset::CHINESE, Ruleset::CHINESE.komi, 0),
    )
}

#[test]
fn worked_example_black_185_wins_by_three_quarters() {
    let board = split_board(area_rows(185), [false; 19]);
    let c = chinese(&board);
    assert_eq!(c.black.count, Score::from_points(185));
    assert_eq!(c.black_zi(), Score::from_points(185));
    assert_eq!(c.result().chinese(), "黑胜3/4子");
    assert_eq!(c.result().international(), "B+1.5");
    // Only one side needs counting: white has 361 − 185 = 176 and needs
    // more than 176¾; the same result (白负3/4子).
    assert_eq!(c.white.count, Score::from_points(176));
    assert_eq!(c.result().chinese_from(Color::White), "白负3/4子");
}

#[test]
fn worked_example_black_184_loses_by_a_quarter() {
    let c = chinese(&split_board(area_rows(184), [false; 19]));
    assert_eq!(c.result().chinese_from(Color::Black), "黑负1/4子");
    assert_eq!(c.result().international(), "W+0.5");
}

#[test]
fn worked_example_black_184_and_a_half_wins_by_a_quarter() {
    let mut dame = [false; 19];
    dame[7] = true;
    let board = split_board(area_rows(184), dame);
    let c = chinese(&board);
    assert_eq!(c.black.shared, 1, "the open point is shared (Art. 21.2)");
    assert_eq!(c.black.count, Score::from_half_points(369), "184½");
    assert_eq!(c.black_zi(), Score::from_half_points(369));
    assert_eq!(c.result().chinese(), "黑胜1/4子");
    assert_eq!(c.owner(Point::new(area_rows(184)[7], 7)), Owner::Shared);
}

#[test]
fn handicap_compensation_chinese_n_over_2_and_aga_n_minus_1() {
    let board = split_board(area_rows(185), [false; 19]);
    // Chinese, 3 stones, no komi: black returns 1½ 子 and needs 182.
    let cn = count(
        &board,
        &no_dead(&board),
        &settings(Ruleset::CHINESE, Score::ZERO, 3),
    );
    assert_eq!(cn.handicap_compensation, Score::from_points(3));
    assert_eq!(cn.result().chinese(), "黑胜3子");
    // AGA, 3 stones, komi 0.5: white gets N − 1 = 2 points.
    let aga = count(
        &board,
        &no_dead(&board),
        &settings(Ruleset::AGA, "0.5".parse().unwrap(), 3),
    );
    assert_eq!(aga.handicap_compensation, Score::from_points(2));
    assert_eq!(aga.result().international(), "B+6.5");
}

#[test]
fn ing_black_wins_an_exact_tie() {
    let mut dame = [false; 19];
    dame[0] = true;
    let board = split_board(area_rows(184), dame);
    let c = count(
        &board,
        &no_dead(&board),
        &settings(Ruleset::ING, Ruleset::ING.komi, 0),
    );
    assert_eq!(c.margin, Score::ZERO);
    assert_eq!(c.result().winner(), Some(Color::Black));
    let chinese = count(
        &board,
        &no_dead(&board),
        &settings(Ruleset::CHINESE, Ruleset::ING.komi, 0),
    );
    assert_eq!(chinese.result(), GameResult::Draw);
}

/// Seed 002's "fill only one side": with 181 stones a side, filling white's
/// area leaves p white stones over; white's area is 181 − p and black's
/// 180 + p, and with 8 points of komi black wins exactly when p ≥ 5.
#[test]
fn ing_fill_one_side_black_wins_iff_five_stones_are_left() {
    for p in 0..10 {
        let board = split_board(area_rows(180 + p), [false; 19]);
        let c = count(
            &board,
            &no_dead(&board),
            &settings(Ruleset::ING, Ruleset::ING.komi, 0),
        );
        assert_eq!(c.white.count, Score::from_points(181 - p as i32));
        assert_eq!(
            c.black.count - c.white.count,
            Score::from_points(2 * p as i32 - 1)
        );
        assert_eq!(c.result().winner() == Some(Color::Black), p >= 5, "p = {p}");
    }
}

/// Black's B9-C9-C8 and white's A8…D9 share A9 and B8 in seki.
const SEKI: &str = "
    . X X O X . . . .
    O . X O X . . . .
    O O O O X . . . .
    X X X X X . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .";

#[test]
fn seki_with_dame_area_shares_territory_gives_nobody() {
    let board: Board = SEKI.parse().unwrap();
    let area = count(
        &board,
        &no_dead(&board),
        &settings(Ruleset::CHINESE, Score::ZERO, 0),
    );
    assert_eq!(area.black.count, Score::from_points(73));
    assert_eq!(area.white.count, Score::from_points(8));
    assert_eq!(area.black.shared, 2);
    assert_eq!(area.owner(Point::new(0, 0)), Owner::Shared);

    let terr = count(
        &board,
        &no_dead(&board),
        &settings(Ruleset::JAPANESE, Score::ZERO, 0),
    );
    assert_eq!(terr.counting, Counting::Territory);
    assert!(terr.seki.contains(Point::new(0, 0)) && terr.seki.contains(Point::new(1, 1)));
    assert_eq!(terr.black.count, Score::from_points(61));
    assert_eq!(terr.white.count, Score::ZERO);
    assert_eq!(terr.owner(Point::new(0, 0)), Owner::Neutral);
    assert_eq!(terr.result().chinese(), "黑胜61目");
}

/// A seki where each side has an eye of its own: black's B9-B8-A8 (eye
/// at A9) and white's D9…F9 (eye at E9) share the liberty C9 only. Under
/// territory counting the eyes in seki count for nobody.
#[test]
fn eyes_in_seki_are_nobodys_under_territory_counting() {
    let board: Board = "
        . X . O . O X . .
        X X O O O O X . .
        O O X X X X X . .
        . O X . . . . . .
        . O X . . . . . .
        . O X . . . . . .
        . O X . . . . . .
        . O X . . . . . .
        . O X . . . . . ."
        .parse()
        .unwrap();
    let terr = count(
        &board,
        &no_dead(&board),
        &settings(Ruleset::JAPANESE, Score::ZERO, 0),
    );
    let (a9, c9, e9) = (Point::new(0, 0), Point::new(2, 0), Point::new(4, 0));
    assert!(terr.seki.contains(c9), "the shared liberty");
    assert_eq!(terr.owner(a9), Owner::Neutral, "black's eye in seki");
    assert_eq!(terr.owner(e9), Owner::Neutral, "white's eye in seki");
    assert_eq!(
        terr.owner(Point::new(8, 8)),
        Owner::Black,
        "black's outside territory counts"
    );
    let area = count(
        &board,
        &no_dead(&board),
        &settings(Ruleset::CHINESE, Score::ZERO, 0),
    );
    assert_eq!(
        area.owner(a9),
        Owner::Black,
        "area counting: an eye is its owner's"
    );
    assert_eq!(area.owner(e9), Owner::White);
    assert_eq!(area.owner(c9), Owner::Shared);
}

#[test]
fn territory_counting_counts_prisoners_and_dead_stones() {
    let board: Board = "
        . X O . .
        . X O . .
        O X O . .
        . X O . .
        . X O . ."
        .parse()
        .unwrap();
    let mut dead = PointSet::new(board.size());
    dead.insert(Point::new(0, 2));
    let s = CountSettings {
        prisoners: ByColor::new(2, 3),
        ..settings(Ruleset::JAPANESE, Score::ZERO, 0)
    };
    let c = count(&board, &dead, &s);
    assert_eq!(
        c.black.territory, 5,
        "four empty points and the dead stone's"
    );
    assert_eq!(c.black.prisoners, 3, "two captured plus one dead");
    assert_eq!(c.white.territory, 10);
    assert_eq!(c.white.prisoners, 3);
    assert_eq!(c.margin, Score::from_points(8 - 13));
}

#[test]
fn stones_only_counts_living_stones() {
    let board: Board = "
        . X O . .
        . X O . .
        . X O . .
        . X O O .
        . X O . ."
        .parse()
        .unwrap();
    let rules = Ruleset {
        counting: Counting::StonesOnly,
        ..Ruleset::CHINESE
    };
    let c = count(&board, &no_dead(&board), &settings(rules, Score::ZERO, 0));
    assert_eq!(
        (c.black.count, c.white.count),
        (Score::from_points(5), Score::from_points(6))
    );
    assert_eq!(c.owner(Point::new(0, 0)), Owner::Neutral);
}

/// 还棋头: black's area is split into two living groups by white's wall,
/// white has one; under the ancient rules each group costs one 子.
#[test]
fn group_tax_of_the_ancient_rules() {
    let board: Board = "
        . . X O . . . . .
        . . X O . . . . .
        X X X O . . . . .
        O O O O . . . . .
        X X X O . . . . .
        . . X O . . . . .
        . . X O . . . . .
        . . X O . . . . .
        . . X O . . . . ."
        .parse()
        .unwrap();
    let taxed = count(
        &board,
        &no_dead(&board),
        &settings(Ruleset::ANCIENT_CHINESE, Score::ZERO, 0),
    );
    assert_eq!((taxed.black.groups, taxed.white.groups), (2, 1));
    assert_eq!(taxed.black.tax, Score::from_zi(2));
    let untaxed = count(
        &board,
        &no_dead(&board),
        &settings(Ruleset::CHINESE, Score::ZERO, 0),
    );
    assert_eq!(
        untaxed.margin - taxed.margin,
        Score::from_zi(1),
        "one group more costs one 子"
    );
    assert_eq!(
        taxed.black.count + taxed.white.count,
        Score::from_points(81)
    );
}

#[test]
fn area_counts_always_sum_to_the_board() {
    for area in [150, 180, 200] {
        let c = chinese(&split_board(area_rows(area), [false; 19]));
        assert_eq!(c.black.count + c.white.count, Score::from_points(361));
    }
    let r = GameResult::Win {
        winner: Color::White,
        by: WinBy::Resignation,
    };
    assert_eq!(r.international(), "W+R");
}
