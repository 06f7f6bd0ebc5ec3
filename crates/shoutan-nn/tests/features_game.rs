//! Komi, the rules and the game's course as the network sees them, and a
//! position played as a game: legality, passes, the end and its score.
//! The inputs expected here were checked against KataGo 1.17.2's own
//! `fillRowV7`.

mod features_support;

use features_support::{at, empty, game, inputs, play};
use proptest::prelude::*;
use shoutan_nn::{Position, PositionError};
use shoutan_rules::{BoardSize, Color, Game, Handicap, Move, Point, Ruleset, Score};

const SELF_KOMI: usize = 5;
const PASS_ENDS: usize = 14;
const PARITY_WAVE: usize = 18;

#[test]
fn self_komi_is_whites_komi_seen_from_the_side_to_move() {
    let mut g = empty(19, Ruleset::CHINESE);
    assert_eq!(inputs(&g).global[SELF_KOMI], -7.5 / 20.0);
    play(&mut g, "B Q16");
    assert_eq!(inputs(&g).global[SELF_KOMI], 7.5 / 20.0);
}

/// A 19×19 game with `stones` handicap stones, white to move.
fn handicap_game(ruleset: Ruleset, stones: u8) -> Game {
    Game::builder(BoardSize::NINETEEN)
        .ruleset(ruleset)
        .handicap(Handicap::Fixed(stones))
        .build()
        .expect("a handicap game")
}

#[test]
fn handicap_stones_count_for_white_as_the_rules_say() {
    // Chinese: komi 0 and N = 4 points; AGA: komi 0.5 and N − 1 = 3.
    let chinese = handicap_game(Ruleset::CHINESE, 4);
    assert_eq!(chinese.to_move(), Color::White);
    assert_eq!(inputs(&chinese).global[SELF_KOMI], 4.0 / 20.0);
    let aga = handicap_game(Ruleset::AGA, 4);
    assert_eq!(inputs(&aga).global[SELF_KOMI], 3.5 / 20.0);
    // One stone is no handicap.
    let mut one = empty(19, Ruleset::CHINESE);
    play(&mut one, "B Q16");
    assert_eq!(inputs(&one).global[SELF_KOMI], 7.5 / 20.0);
}

#[test]
fn territory_counting_gives_white_a_point_per_extra_black_move() {
    // Stones on the board are moves: handicap stones count, captures too.
    let mut g = empty(9, Ruleset::JAPANESE);
    play(&mut g, "B E5, W C3, B G7");
    assert_eq!(inputs(&g).global[SELF_KOMI], (6.5 + 1.0) / 20.0);
    let handicap = handicap_game(Ruleset::JAPANESE, 4);
    assert_eq!(inputs(&handicap).global[SELF_KOMI], (0.5 + 4.0) / 20.0);
}

#[test]
fn the_rules_of_every_preset() {
    // ko (6, 7), suicide (8), territory (9), tax (10, 11), as KataGo writes
    // them for the rules each preset maps to.
    let expected: [(&str, [f32; 6]); 10] = [
        ("chinese", [1.0, -0.5, 0.0, 0.0, 0.0, 0.0]),
        ("chinese-1988", [1.0, -0.5, 0.0, 0.0, 0.0, 0.0]),
        ("chinese-simple-ko", [0.0, 0.0, 0.0, 0.0, 0.0, 0.0]),
        ("japanese", [0.0, 0.0, 0.0, 1.0, 1.0, 0.0]),
        ("korean", [0.0, 0.0, 0.0, 1.0, 1.0, 0.0]),
        ("aga", [1.0, -0.5, 0.0, 0.0, 0.0, 0.0]),
        ("new-zealand", [1.0, -0.5, 1.0, 0.0, 0.0, 0.0]),
        ("ing", [1.0, -0.5, 1.0, 0.0, 0.0, 0.0]),
        ("tromp-taylor", [1.0, 0.5, 1.0, 0.0, 0.0, 0.0]),
        ("ancient-chinese", [0.0, 0.0, 0.0, 0.0, 1.0, 1.0]),
    ];
    assert_eq!(expected.len(), Ruleset::PRESETS.len());
    for ((name, _, ruleset), (want, globals)) in Ruleset::PRESETS.iter().zip(expected) {
        assert_eq!(*name, want);
        let inputs = inputs(&empty(9, *ruleset));
        assert_eq!(inputs.global[6..12], globals, "{name}");
        // No encore, no pass ending anything yet, no playout doubling, no
        // button.
        for k in [12, 13, PASS_ENDS, 15, 16, 17] {
            assert_eq!(inputs.global[k], 0.0, "{name}: global {k}");
        }
    }
}

#[test]
fn the_komi_parity_wave() {
    // White's komi on boards of odd area (19×19, 9×9), where drawable komis
    // are odd, and of even area (8×8): the wave peaks half a point above a
    // drawable komi, from either side's view.
    let cases = [
        (19, 15, 0.5, -0.5),
        (19, 14, 0.0, 0.0),
        (19, 13, -0.5, 0.5),
        (9, 15, 0.5, -0.5),
        (9, 14, 0.0, 0.0),
        (9, 13, -0.5, 0.5),
        (8, 15, -0.5, 0.5),
        (8, 14, 0.0, 0.0),
        (8, 13, 0.5, -0.5),
    ];
    for (size, half_points, white, black) in cases {
        let komi = Score::from_half_points(half_points);
        let mut g = Game::builder(BoardSize::new(size).expect("a size"))
            .komi(komi)
            .build()
            .expect("a game");
        assert_eq!(
            inputs(&g).global[PARITY_WAVE],
            black,
            "{size}×{size}, {komi}, black"
        );
        play(&mut g, "B A1");
        assert_eq!(
            inputs(&g).global[PARITY_WAVE],
            white,
            "{size}×{size}, {komi}, white"
        );
    }
    // Territory counting: no wave.
    assert_eq!(
        inputs(&empty(19, Ruleset::JAPANESE)).global[PARITY_WAVE],
        0.0
    );
}

const SPLIT: &str = "
    . . X . O
    . . X . O
    . . X . O
    . . X . O
    . . X . O";

#[test]
fn two_passes_end_the_game_and_it_is_counted() {
    let g = game(SPLIT, Ruleset::CHINESE, Color::Black);
    let mut position = Position::from_game(&g);
    assert!(!position.pass_would_end_game());
    position.play(Move::Pass).expect("a pass");
    assert!(position.pass_would_end_game());
    assert!(!position.is_over());
    position.play(Move::Pass).expect("a pass");
    assert!(position.is_over());
    assert!(!position.is_no_result());
    // Black: fifteen (the stones and the region behind them); white: five;
    // D is no one's. White gets 7.5.
    assert_eq!(position.white_score_if_over(), 5.0 - 15.0 + 7.5);
    // The same from the game.
    let mut g = g;
    play(&mut g, "B pass, W pass");
    assert!(Position::from_game(&g).is_over());
    // A move resumes the game.
    position.play(Move::Play(at(&g, "D3"))).expect("legal");
    assert!(!position.is_over());
}

#[test]
fn a_pass_between_moves_does_not_end_anything() {
    let mut g = game(SPLIT, Ruleset::JAPANESE, Color::Black);
    play(&mut g, "B pass, W D1");
    let position = Position::from_game(&g);
    assert!(!position.pass_would_end_game());
    assert_eq!(position.inputs().global[PASS_ENDS], 0.0);
    play(&mut g, "B pass");
    assert!(Position::from_game(&g).pass_would_end_game());
    assert_eq!(inputs(&g).global[PASS_ENDS], 1.0);
}

const KO: &str = "
    . X O . .
    X O . O .
    . X O . .
    . . . . .
    . . . . .";

#[test]
fn an_illegal_move_is_refused_and_changes_nothing() {
    let mut g = game(KO, Ruleset::CHINESE, Color::Black);
    play(&mut g, "B C4");
    let mut position = Position::from_game(&g);
    let before = position.inputs();
    let legal = position.legal_moves();
    for (point, error) in [
        ("B4", PositionError::Ko(at(&g, "B4"))),
        ("C4", PositionError::Occupied(at(&g, "C4"))),
        ("A5", PositionError::Suicide(at(&g, "A5"))),
    ] {
        assert_eq!(position.play(Move::Play(at(&g, point))), Err(error));
    }
    let off = Point::new(7, 7);
    assert_eq!(
        position.play(Move::Play(off)),
        Err(PositionError::OffBoard(off))
    );
    assert_eq!(position.inputs(), before);
    assert_eq!(position.to_move(), Color::White);
    assert_eq!(position.legal_moves(), legal);
    assert!(!legal.contains(&Move::Play(at(&g, "B4"))));
    assert_eq!(legal.last(), Some(&Move::Pass));

    // Superko: black's C3 would repeat the board after move 5.
    let mut g = empty(3, Ruleset::TROMP_TAYLOR);
    play(&mut g, "B B2, W B3, B B1, W A3, B C3, W C2, B pass, W C1");
    let mut position = Position::from_game(&g);
    let c3 = at(&g, "C3");
    assert_eq!(
        position.play(Move::Play(c3)),
        Err(PositionError::Superko(c3))
    );
    assert!(!position.is_legal(Move::Play(c3)));
}

#[test]
fn a_long_cycle_ends_the_game_without_result_under_simple_ko() {
    // On 3×3, kos taken back and forth until a position (with the same
    // player to move) comes back a third time: KataGo's no-result, after
    // which the network sees only the last move. (Found by random play.)
    let mut g = empty(3, Ruleset::CHINESE_SIMPLE_KO);
    let cycle = "B A3, W C2, B A1, W B3, B C1, W A2, B C3, W B1";
    play(
        &mut g,
        "B A3, W C2, B A1, W B3, B B2, W B1, B C1, W A2, B C3, W B1",
    );
    play(&mut g, cycle);
    let before_end = Position::from_game(&g);
    assert!(!before_end.is_over());
    play(&mut g, "B A3, W C2, B A1, W B3");
    let position = Position::from_game(&g);
    assert!(position.is_over() && position.is_no_result());
    let inputs = position.inputs();
    let n = 9;
    let history: Vec<usize> = (9..14)
        .filter(|k| inputs.spatial[k * n..(k + 1) * n].iter().any(|&v| v != 0.0))
        .collect();
    assert_eq!(history, vec![9]);
    // Under situational superko, a move of the cycle is refused instead.
    let mut superko = empty(3, Ruleset::CHINESE);
    let mut position = Position::from_game(&superko);
    let moves = "A3 C2 A1 B3 B2 B1 C1 A2 C3 B1 A3 C2 A1 B3 C1 A2 C3 B1 A3 C2 A1 B3";
    let refused = moves.split(' ').find_map(|point| {
        let p = at(&superko, point);
        let color = superko.to_move();
        if !superko.is_legal(color, p) {
            return Some(position.check(Move::Play(p)));
        }
        superko.play(color, p).expect("legal");
        position.play(Move::Play(p)).expect("legal");
        None
    });
    assert!(
        matches!(refused, Some(Err(PositionError::Superko(_)))),
        "{refused:?}"
    );
}

/// A tiny deterministic generator (the tests need no dependency for it).
fn fastrand_like(seed: u64) -> impl FnMut() -> u64 {
    let mut state = seed;
    move || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        state >> 33
    }
}

fn rulesets() -> impl Strategy<Value = Ruleset> {
    prop::sample::select(vec![
        Ruleset::CHINESE,
        Ruleset::CHINESE_SIMPLE_KO,
        Ruleset::JAPANESE,
        Ruleset::TROMP_TAYLOR,
        Ruleset::NEW_ZEALAND,
        Ruleset::ING,
    ])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Random games on small boards (captures, kos, superko, suicide where
    /// allowed): the position allows exactly the game's legal moves, and a
    /// position played move by move is the game's position.
    #[test]
    fn legality_is_the_games(size in 3u32..=6, ruleset in rulesets(), seed: u64) {
        let mut g = empty(size, ruleset);
        let mut position = Position::from_game(&g);
        let mut next = fastrand_like(seed);
        for _ in 0..size * size * 4 {
            if g.phase() != shoutan_rules::Phase::Play {
                break;
            }
            let color = g.to_move();
            prop_assert_eq!(position.to_move(), color);
            for p in g.size().points() {
                prop_assert_eq!(
                    position.is_legal(Move::Play(p)),
                    g.is_legal(color, p),
                    "{:?} for {:?} in\n{}", p, color, g.board()
                );
            }
            let legal = g.legal_points();
            let mv = if legal.is_empty() || next().is_multiple_of(16) {
                Move::Pass
            } else {
                Move::Play(legal[(next() % legal.len() as u64) as usize])
            };
            g.apply(color, mv).expect("legal");
            prop_assert_eq!(position.play(mv), Ok(()));
        }
        prop_assert_eq!(position.inputs(), Position::from_game(&g).inputs());
    }
}
