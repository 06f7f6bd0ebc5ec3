//! The spatial input planes, position by position. Every expectation here
//! was also checked against KataGo 1.17.2's own `fillRowV7`.

mod features_support;

use features_support::{assert_empty, assert_plane, at, empty, game, inputs, play};
use shoutan_nn::Position;
use shoutan_rules::{Color, Move, Ruleset};

const ON_BOARD: usize = 0;
const OWN: usize = 1;
const OPPONENT: usize = 2;
const ONE_LIBERTY: usize = 3;
const TWO_LIBERTIES: usize = 4;
const THREE_LIBERTIES: usize = 5;
const KO_BAN: usize = 6;
const LAST_MOVE: usize = 9;
const LADDERED: usize = 14;
const LADDERED_ONE_MOVE_AGO: usize = 15;
const LADDERED_TWO_MOVES_AGO: usize = 16;
const LADDER_WORKING_MOVE: usize = 17;
const OWN_AREA: usize = 18;
const OPPONENT_AREA: usize = 19;

const STONES: &str = "
    X O . . .
    . X O . .
    . . . . .
    . O O . .
    . X O . .";

#[test]
fn stones_are_seen_from_the_side_to_move() {
    let black = inputs(&game(STONES, Ruleset::CHINESE, Color::Black));
    assert_plane(
        &black,
        OWN,
        "
        # . . . .
        . # . . .
        . . . . .
        . . . . .
        . # . . .",
    );
    assert_plane(
        &black,
        OPPONENT,
        "
        . # . . .
        . . # . .
        . . . . .
        . # # . .
        . . # . .",
    );
    let white = inputs(&game(STONES, Ruleset::CHINESE, Color::White));
    assert_eq!(
        features_support::plane(&white, OWN),
        features_support::plane(&black, OPPONENT)
    );
    assert_eq!(
        features_support::plane(&white, OPPONENT),
        features_support::plane(&black, OWN)
    );
    assert_plane(
        &black,
        ON_BOARD,
        "
        # # # # #
        # # # # #
        # # # # #
        # # # # #
        # # # # #",
    );
}

#[test]
fn chains_are_marked_by_their_liberties() {
    // A5 and B5 in atari, B4 with A4 and B3, C4 with C5, D4 and C3, the
    // white three below with five.
    let inputs = inputs(&game(STONES, Ruleset::CHINESE, Color::Black));
    assert_plane(
        &inputs,
        ONE_LIBERTY,
        "
        # # . . .
        . . . . .
        . . . . .
        . . . . .
        . # . . .",
    );
    assert_plane(
        &inputs,
        TWO_LIBERTIES,
        "
        . . . . .
        . # . . .
        . . . . .
        . . . . .
        . . . . .",
    );
    assert_plane(
        &inputs,
        THREE_LIBERTIES,
        "
        . . . . .
        . . # . .
        . . . . .
        . . . . .
        . . . . .",
    );
}

const KO: &str = "
    . X O . .
    X O . O .
    . X O . .
    . . . . .
    . . . . .";

#[test]
fn after_a_pass_friendly_passing_hides_the_history() {
    // Under area counting a second pass would end the game, but KataGo
    // plays on (the count settles dead stones): it hides the history and
    // does not say that a pass ends the game.
    for (ruleset, hidden) in [(Ruleset::CHINESE, true), (Ruleset::JAPANESE, false)] {
        let mut g = empty(5, ruleset);
        play(&mut g, "B C3, W pass");
        let now = inputs(&g);
        assert_eq!(now.global[0], if hidden { 0.0 } else { 1.0 }, "{ruleset:?}");
        assert_eq!(
            now.global[14],
            if hidden { 0.0 } else { 1.0 },
            "{ruleset:?}"
        );
        if hidden {
            assert_empty(&now, LAST_MOVE + 1);
        } else {
            assert_plane(
                &now,
                LAST_MOVE + 1,
                "
                . . . . .
                . . . . .
                . . # . .
                . . . . .
                . . . . .",
            );
        }
    }
}

#[test]
fn the_ko_point_is_banned_to_the_side_to_move_only() {
    let mut g = game(KO, Ruleset::CHINESE, Color::Black);
    play(&mut g, "B C4");
    let taken = inputs(&g);
    assert_plane(
        &taken,
        KO_BAN,
        "
        . . . . .
        . # . . .
        . . . . .
        . . . . .
        . . . . .",
    );
    // The same board with black to move: the ban is white's, not black's.
    g.set_to_move(Color::Black).expect("in play");
    assert_empty(&inputs(&g), KO_BAN);
}

/// A 3×3 game in which black, to move, would retake two stones at C3 and
/// so recreate the board after move 5, white to move again.
fn superko_game(ruleset: Ruleset) -> shoutan_rules::Game {
    let mut g = empty(3, ruleset);
    play(&mut g, "B B2, W B3, B B1, W A3, B C3, W C2, B pass, W C1");
    g
}

#[test]
fn superko_bans_the_repeating_move_where_the_rules_say() {
    for ruleset in [Ruleset::TROMP_TAYLOR, Ruleset::CHINESE] {
        let g = superko_game(ruleset);
        assert!(!g.is_legal(Color::Black, at(&g, "C3")));
        assert_plane(
            &inputs(&g),
            KO_BAN,
            "
            . . #
            . . .
            . . .",
        );
    }
    // Under simple ko the capture of two stones is legal, and no ban.
    let g = superko_game(Ruleset::CHINESE_SIMPLE_KO);
    assert!(g.is_legal(Color::Black, at(&g, "C3")));
    assert_empty(&inputs(&g), KO_BAN);
}

#[test]
fn the_last_moves_and_passes_alternating_back_from_the_opponent() {
    // Territory counting: a pass now would not end the game for KataGo, so
    // nothing hides the history.
    let mut g = empty(5, Ruleset::JAPANESE);
    play(&mut g, "B C3, W D4, B pass, W B2, B D2, W pass");
    let now = inputs(&g);
    // Black to move: white passed last, black played D2 before, then
    // white B2, black passed, white D4.
    assert_eq!(now.global[..5], [1.0, 0.0, 0.0, 1.0, 0.0]);
    assert_empty(&now, LAST_MOVE);
    assert_plane(
        &now,
        LAST_MOVE + 1,
        "
        . . . . .
        . . . . .
        . . . . .
        . . . # .
        . . . . .",
    );
    assert_plane(
        &now,
        LAST_MOVE + 2,
        "
        . . . . .
        . . . . .
        . . . . .
        . # . . .
        . . . . .",
    );
    assert_plane(
        &now,
        LAST_MOVE + 4,
        "
        . . . . .
        . . . # .
        . . . . .
        . . . . .
        . . . . .",
    );

    // A move out of turn: KataGo forgets the history before it.
    let mut g = empty(5, Ruleset::CHINESE);
    play(&mut g, "B C3, W D4, W B2");
    let now = inputs(&g);
    assert_plane(
        &now,
        LAST_MOVE,
        "
        . . . . .
        . . . . .
        . . . . .
        . # . . .
        . . . . .",
    );
    for k in 1..5 {
        assert_empty(&now, LAST_MOVE + k);
    }
    // And the player to move changed: no history at all.
    g.set_to_move(Color::White).expect("in play");
    let now = inputs(&g);
    for k in 0..5 {
        assert_empty(&now, LAST_MOVE + k);
    }
}

const LADDER: &str = "
    . . . . . . . . .
    . . X X . . . . .
    . X O . . . . . .
    . . X . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .";

const C7: &str = "
    . . . . . . . . .
    . . . . . . . . .
    . . # . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .";

#[test]
fn a_stone_in_atari_caught_in_a_ladder() {
    // White's C7 runs along D7, D6, E6… to the lower right edge: caught.
    let inputs = inputs(&game(LADDER, Ruleset::CHINESE, Color::Black));
    assert_plane(&inputs, LADDERED, C7);
    // Without history the past planes repeat the present.
    assert_plane(&inputs, LADDERED_ONE_MOVE_AGO, C7);
    assert_plane(&inputs, LADDERED_TWO_MOVES_AGO, C7);
    assert_empty(&inputs, LADDER_WORKING_MOVE);
}

#[test]
fn a_ladder_breaker_frees_the_stone() {
    let mut broken: Vec<&str> = LADDER.lines().collect();
    broken[7] = "    . . . . . . O . .";
    let inputs = inputs(&game(&broken.join("\n"), Ruleset::CHINESE, Color::Black));
    assert_empty(&inputs, LADDERED);
}

#[test]
fn a_chain_with_two_liberties_and_the_atari_that_ladders_it() {
    // Without black's C6, white's C7 has two liberties: black at C6 starts
    // the ladder, black at D7 lets it out.
    let mut two: Vec<&str> = LADDER.lines().collect();
    two[4] = "    . . . . . . . . .";
    let diagram = two.join("\n");
    let black = inputs(&game(&diagram, Ruleset::CHINESE, Color::Black));
    assert_plane(&black, LADDERED, C7);
    assert_plane(
        &black,
        LADDER_WORKING_MOVE,
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . # . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .",
    );
    // With white to move the chain is white's own: no working move shown.
    let white = inputs(&game(&diagram, Ruleset::CHINESE, Color::White));
    assert_plane(&white, LADDERED, C7);
    assert_empty(&white, LADDER_WORKING_MOVE);
}

#[test]
fn the_ladder_planes_of_the_boards_before() {
    // White extends to D7, black ataris from the wrong side at D6: the
    // chain now escapes by E7, but one move ago (two liberties, black to
    // play E7) and two moves ago (C7 in atari) it was caught.
    let mut g = game(LADDER, Ruleset::CHINESE, Color::White);
    play(&mut g, "W D7, B D6");
    let inputs = inputs(&g);
    assert_empty(&inputs, LADDERED);
    assert_plane(
        &inputs,
        LADDERED_ONE_MOVE_AGO,
        "
        . . . . . . . . .
        . . . . . . . . .
        . . # # . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .",
    );
    assert_plane(&inputs, LADDERED_TWO_MOVES_AGO, C7);
}

const ALIVE: &str = "
    . O . . X . X O .
    X X X X X X X O .
    O O O O O O O O .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .";

#[test]
fn area_of_a_pass_alive_group_and_a_big_empty_region() {
    // Black's chain has two vital regions, F9 and the eye with white's B9
    // in it: pass-alive, and its eyes (the dead stone too) are black's. The
    // big region below touches only white stones: white's, though white's
    // wall is not pass-alive.
    let inputs = inputs(&game(ALIVE, Ruleset::CHINESE, Color::Black));
    assert_plane(
        &inputs,
        OWN_AREA,
        "
        # # # # # # # . .
        # # # # # # # . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .",
    );
    assert_plane(
        &inputs,
        OPPONENT_AREA,
        "
        . . . . . . . # #
        . . . . . . . # #
        # # # # # # # # #
        # # # # # # # # #
        # # # # # # # # #
        # # # # # # # # #
        # # # # # # # # #
        # # # # # # # # #
        # # # # # # # # #",
    );
}

#[test]
fn a_region_with_a_stone_of_the_other_color_is_no_ones() {
    let mut with_stone: Vec<&str> = ALIVE.lines().collect();
    with_stone[7] = "    . . . . X . . . .";
    let inputs = inputs(&game(
        &with_stone.join("\n"),
        Ruleset::CHINESE,
        Color::Black,
    ));
    assert_plane(
        &inputs,
        OWN_AREA,
        "
        # # # # # # # . .
        # # # # # # # . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . # . . . .
        . . . . . . . . .
        . . . . . . . . .",
    );
    assert_plane(
        &inputs,
        OPPONENT_AREA,
        "
        . . . . . . . # .
        . . . . . . . # .
        # # # # # # # # .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .",
    );
}

#[test]
fn territory_counting_shows_no_area_and_no_encore() {
    let inputs = inputs(&game(ALIVE, Ruleset::JAPANESE, Color::Black));
    for k in [7, 8, OWN_AREA, OPPONENT_AREA, 20, 21] {
        assert_empty(&inputs, k);
    }
}

#[test]
fn played_and_rebuilt_positions_have_the_same_inputs() {
    let mut g = game(LADDER, Ruleset::CHINESE, Color::Black);
    let mut position = Position::from_game(&g);
    for (color, point) in [
        (Color::Black, "J1"),
        (Color::White, "D7"),
        (Color::Black, "D6"),
        (Color::White, "E7"),
    ] {
        let mv = Move::Play(at(&g, point));
        g.apply(color, mv).expect("legal");
        position.play(mv).expect("legal");
        assert_eq!(
            position.inputs(),
            Position::from_game(&g).inputs(),
            "{point}"
        );
    }
}
