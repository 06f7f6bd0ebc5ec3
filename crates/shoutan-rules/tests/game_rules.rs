//! The rules of `docs/spec/rules.md`, game by game: each test sets up a diagram,
//! plays the moves and checks what the rules say must happen.
//!
//! Diagrams: `X` black, `O` white, `.` empty; coordinates are GTP (A1 is the
//! lower left corner, no letter I).

#![allow(clippy::unwrap_used)] // test code: a failed setup is a failed test

use shoutan_rules::{
    Board, BoardSize, ByColor, Color, CycleOutcome, Game, GameError, GameResult, Handicap, Move,
    Phase, Point, Repetition, Ruleset, Score, WinBy,
};

fn setup(diagram: &str, to_move: Color, ruleset: Ruleset) -> Game {
    let board: Board = diagram.parse().unwrap();
    Game::builder(board.size())
        .ruleset(ruleset)
        .position(board, to_move)
        .build()
        .unwrap()
}

fn at(game: &Game, s: &str) -> Point {
    Point::from_gtp(s, game.size()).unwrap()
}

/// Plays `moves` ("B C8", "W pass") in order, each of which must be legal.
fn play(game: &mut Game, moves: &[&str]) {
    for m in moves {
        let (c, p) = m.split_once(' ').unwrap();
        let color: Color = c.parse().unwrap();
        let mv = if p == "pass" {
            Move::Pass
        } else {
            Move::Play(at(game, p))
        };
        game.apply(color, mv).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
}

fn try_move(game: &mut Game, m: &str) -> Result<(), GameError> {
    let (c, p) = m.split_once(' ').unwrap();
    let color: Color = c.parse().unwrap();
    let p = at(game, p);
    game.play(color, p).map(|_| ())
}

fn with_repetition(repetition: Repetition) -> Ruleset {
    Ruleset {
        repetition,
        ..Ruleset::CHINESE
    }
}

const SIMPLE_KO_DRAW: Repetition = Repetition::SimpleKo {
    cycle: CycleOutcome::Draw,
};
const SIMPLE_KO_REPLAY: Repetition = Repetition::SimpleKo {
    cycle: CycleOutcome::Replay,
};

/// Three kos at once: C8 (white holds it), G8 (black holds it), C4 (white
/// holds it). Taking them in turn recreates the position after six moves.
const TRIPLE_KO: &str = "
    . X O . . . X O .
    X O . O . X . X O
    . X O . . . X O .
    . . . . . . . . .
    . X O . . . . . .
    X O . O . . . . .
    . X O . . . . . .
    . . . . . . . . .
    . . . . . . . . .";
const TRIPLE_KO_CYCLE: [&str; 6] = ["B C8", "W G8", "B C4", "W B8", "B H8", "W B4"];

#[test]
fn triple_ko_is_forbidden_by_superko_at_the_sixth_move() {
    for rules in [Ruleset::CHINESE, Ruleset::TROMP_TAYLOR] {
        let mut game = setup(TRIPLE_KO, Color::Black, rules);
        play(&mut game, &TRIPLE_KO_CYCLE[..5]);
        let before = game.board().clone();
        let err = try_move(&mut game, TRIPLE_KO_CYCLE[5]).unwrap_err();
        assert_eq!(
            err,
            GameError::Superko {
                point: "B4".into(),
                repeats: 0
            },
            "{}",
            rules
        );
        assert_eq!(
            err.to_string(),
            "B4 repeats the position after move 0 (superko)"
        );
        assert_eq!(game.board(), &before);
        assert_eq!(game.turns().len(), 5);
        assert_eq!(game.to_move(), Color::White);
    }
}

#[test]
fn triple_ko_under_simple_ko_ends_the_game_as_the_ruleset_says() {
    for (rules, outcome) in [
        (Ruleset::CHINESE_SIMPLE_KO, GameResult::NoResult),
        (Ruleset::JAPANESE, GameResult::NoResult),
        (with_repetition(SIMPLE_KO_DRAW), GameResult::Draw),
        (with_repetition(SIMPLE_KO_REPLAY), GameResult::Replay),
    ] {
        let mut game = setup(TRIPLE_KO, Color::Black, rules);
        play(&mut game, &TRIPLE_KO_CYCLE);
        assert_eq!(
            game.phase(),
            Phase::Play,
            "a repetition alone does not end the game"
        );
        play(&mut game, &TRIPLE_KO_CYCLE);
        assert_eq!(game.phase(), Phase::Finished);
        assert_eq!(game.result(), Some(outcome));
        assert!(matches!(
            try_move(&mut game, "B C8"),
            Err(GameError::WrongPhase { .. })
        ));
    }
    let draw = GameResult::Draw;
    assert_eq!(
        (draw.chinese(), draw.international()),
        ("和棋".into(), "Draw".into())
    );
}

/// Sending two, returning one (双提两子 cycle): black throws in at A3 (two
/// stones in atari), white takes two at A5, black takes one back at A4 and
/// the board is as it was, with white to move.
const SEND_TWO: &str = "
    . X X O X
    X O X . X
    . O . X .
    O O . O X
    . X O X X";

#[test]
fn sending_two_returning_one_under_each_policy() {
    // Positional superko: the board repeats at once.
    let mut game = setup(SEND_TWO, Color::Black, Ruleset::TROMP_TAYLOR);
    play(&mut game, &["B A3", "W A5"]);
    assert_eq!(
        try_move(&mut game, "B A4"),
        Err(GameError::Superko {
            point: "A4".into(),
            repeats: 0
        })
    );

    // Situational superko (Art. 6): the same board with the other player
    // to move is a new position; the repetition is stopped one turn later.
    let mut game = setup(SEND_TWO, Color::Black, Ruleset::CHINESE);
    play(&mut game, &["B A3", "W A5", "B A4", "W pass"]);
    assert_eq!(
        try_move(&mut game, "B A3"),
        Err(GameError::Superko {
            point: "A3".into(),
            repeats: 1
        })
    );

    // Simple ko: allowed, until a position occurs for the third time.
    let mut game = setup(SEND_TWO, Color::Black, Ruleset::CHINESE_SIMPLE_KO);
    for _ in 0..2 {
        play(&mut game, &["B A3", "W A5", "B A4", "W pass"]);
    }
    assert_eq!(game.phase(), Phase::Play);
    play(&mut game, &["B A3"]);
    assert_eq!(game.result(), Some(GameResult::NoResult));
}

/// Eternal life (长生): black gives two stones at A1, white takes them at
/// A3, black takes two back at A2, white throws in at A4: the same position
/// after four moves, for ever.
const ETERNAL_LIFE: &str = "
    X X . X .
    O X O . X
    . X O O .
    X O O O X
    . O O X .";
const ETERNAL_CYCLE: [&str; 4] = ["B A1", "W A3", "B A2", "W A4"];

#[test]
fn eternal_life_under_each_policy() {
    for rules in [Ruleset::CHINESE, Ruleset::TROMP_TAYLOR] {
        let mut game = setup(ETERNAL_LIFE, Color::Black, rules);
        play(&mut game, &ETERNAL_CYCLE[..3]);
        assert_eq!(game.board().captures(Color::Black), 2);
        assert_eq!(
            try_move(&mut game, "W A4"),
            Err(GameError::Superko {
                point: "A4".into(),
                repeats: 0
            })
        );
    }
    let mut game = setup(ETERNAL_LIFE, Color::Black, Ruleset::CHINESE_SIMPLE_KO);
    play(&mut game, &ETERNAL_CYCLE);
    play(&mut game, &ETERNAL_CYCLE);
    assert_eq!(game.result(), Some(GameResult::NoResult));
    assert_eq!(game.result().unwrap().chinese(), "无胜负");
}

#[test]
fn simple_ko_is_refused_with_its_reason() {
    let mut game = setup(
        "
        . X O . .
        X O . O .
        . X O . .
        . . . . .
        . . . . .",
        Color::Black,
        Ruleset::CHINESE,
    );
    play(&mut game, &["B C4"]);
    assert_eq!(game.board().captures(Color::Black), 1);
    let err = try_move(&mut game, "W B4").unwrap_err();
    assert_eq!(err, GameError::Ko("B4".into()));
    assert!(err.to_string().contains("ko threat"));
    play(&mut game, &["W E1", "B D1", "W B4"]);
    assert_eq!(game.board().captures(Color::White), 1);
}

#[test]
fn illegal_moves_are_refused_and_change_nothing() {
    let mut game = setup(
        "
        . X . . .
        X . . . .
        . . . . .
        . . . . .
        . . . . .",
        Color::White,
        Ruleset::CHINESE,
    );
    let before = (
        game.board().clone(),
        game.board().hash(),
        game.to_move(),
        game.turns().len(),
    );
    let unchanged = |g: &Game| {
        (
            g.board().clone(),
            g.board().hash(),
            g.to_move(),
            g.turns().len(),
        )
    };

    assert_eq!(
        try_move(&mut game, "W B5"),
        Err(GameError::Occupied("B5".into()))
    );
    assert_eq!(
        try_move(&mut game, "W A5"),
        Err(GameError::Suicide("A5".into()))
    );
    assert_eq!(
        try_move(&mut game, "B C3"),
        Err(GameError::NotYourTurn {
            to_move: Color::White
        })
    );
    let off = Point::new(7, 7);
    assert_eq!(
        game.play(Color::White, off),
        Err(GameError::OffBoard {
            point: off,
            size: game.size()
        })
    );
    assert_eq!(unchanged(&game), before);

    // Multi-stone suicide where a ruleset allows it.
    let mut nz = setup(
        "
        X O . . .
        . O . . .
        O . . . .
        . . . . .
        . . . . .",
        Color::Black,
        Ruleset::NEW_ZEALAND,
    );
    play(&mut nz, &["B A4"]);
    assert_eq!(
        nz.board().get(at(&nz, "A5")),
        None,
        "black's two stones took themselves off"
    );
    assert_eq!(nz.board().captures(Color::White), 2);

    game.resign(Color::White).unwrap();
    assert_eq!(game.result().unwrap().chinese(), "黑中盘胜");
    assert_eq!(
        try_move(&mut game, "W C3"),
        Err(GameError::WrongPhase {
            action: "a move",
            why: "the game is over"
        })
    );
    assert!(
        game.resign(Color::Black).is_err(),
        "a finished game stays finished"
    );
}

/// Black owns the two left columns, white the three right ones; a white
/// stone at A3 is dead inside black's area.
const SMALL_END: &str = "
    . X O . .
    . X O . .
    O X O . .
    . X O . .
    . X O . .";

fn small_end_game() -> Game {
    let board: Board = SMALL_END.parse().unwrap();
    Game::builder(board.size())
        .ruleset(Ruleset::CHINESE)
        .komi("0.5".parse().unwrap())
        .position(board, Color::Black)
        .build()
        .unwrap()
}

#[test]
fn art_21_two_passes_counting_marking_and_agreement() {
    let mut game = small_end_game();
    play(&mut game, &["B pass"]);
    assert_eq!(
        game.phase(),
        Phase::Play,
        "one pass only proposes the end (Art. 21.1)"
    );
    play(&mut game, &["W pass"]);
    assert_eq!(game.phase(), Phase::Counting);

    let a3 = at(&game, "A3");
    assert_eq!(game.toggle_dead(a3).unwrap(), vec![a3]);
    assert_eq!(game.accept(Color::Black).unwrap(), None);
    assert_eq!(game.accepted(), ByColor::new(true, false));
    // Any change of the marking withdraws the acceptances.
    game.toggle_dead(a3).unwrap();
    assert_eq!(game.accepted(), ByColor::new(false, false));
    game.toggle_dead(a3).unwrap();
    assert!(matches!(
        game.toggle_dead(at(&game, "D3")),
        Err(GameError::NoStone(_))
    ));

    let count = game.count();
    assert_eq!(count.black.count, Score::from_points(10));
    assert_eq!(count.white.count, Score::from_points(15));
    assert_eq!(count.black.prisoners, 1);

    game.accept(Color::Black).unwrap();
    assert_eq!(game.agreed_dead(), None, "not agreed until both accept");
    let result = game.accept(Color::White).unwrap().unwrap();
    assert_eq!(game.phase(), Phase::Finished);
    assert_eq!(
        game.agreed_dead()
            .map(|dead| dead.iter().collect::<Vec<_>>()),
        Some(vec![a3]),
        "the finished game keeps the marking it was counted with"
    );
    assert_eq!(result.international(), "W+5.5");
    assert_eq!(result.chinese(), "白胜2又3/4子");
    assert!(
        game.toggle_dead(a3).is_err(),
        "Art. 21.3: not resumed once confirmed"
    );
}

#[test]
fn a_resignation_while_counting_leaves_no_agreed_marking() {
    let mut game = small_end_game();
    play(&mut game, &["B pass", "W pass"]);
    game.toggle_dead(at(&game, "A3")).unwrap();
    game.accept(Color::Black).unwrap();
    game.resign(Color::White).unwrap();
    assert_eq!(game.phase(), Phase::Finished);
    assert_eq!(game.agreed_dead(), None, "won by resignation, not counted");
}

#[test]
fn art_21_4_a_dispute_resumes_play_with_the_claimant_to_move() {
    let mut game = small_end_game();
    play(&mut game, &["B pass", "W pass"]);
    game.toggle_dead(at(&game, "A3")).unwrap();
    // White says A3 lives; black, who claims it dead, moves first.
    game.dispute(Color::Black).unwrap();
    assert_eq!(game.phase(), Phase::Play);
    assert_eq!(game.to_move(), Color::Black);
    assert!(game.dead_stones().is_empty());
    play(&mut game, &["B A2", "W A4", "B A5"]);
    assert_eq!(game.board().get(at(&game, "A3")), None, "settled by play");
    assert_eq!(game.board().captures(Color::Black), 2);
}

#[test]
fn undo_takes_back_exactly() {
    let mut game = setup(TRIPLE_KO, Color::Black, Ruleset::CHINESE);
    let start = (game.board().clone(), game.board().hash(), game.to_move());
    play(&mut game, &["B C8", "W G8"]);
    let after_one = game.position_after(1);
    assert_eq!(game.undo().unwrap().mv, Move::Play(at(&game, "G8")));
    assert_eq!(game.board(), &after_one);
    assert_eq!(game.board().captures(Color::White), 0);
    assert_eq!(game.to_move(), Color::White);
    // The ko ban of black's capture is back: white may not retake at B8.
    assert_eq!(try_move(&mut game, "W B8"), Err(GameError::Ko("B8".into())));
    game.undo().unwrap();
    assert_eq!(
        (game.board().clone(), game.board().hash(), game.to_move()),
        start
    );
    assert_eq!(game.undo(), Err(GameError::NothingToUndo));

    play(&mut game, &["B pass", "W pass"]);
    assert_eq!(game.phase(), Phase::Counting);
    game.undo().unwrap();
    assert_eq!(game.phase(), Phase::Play);
    assert_eq!(game.to_move(), Color::White);
}

#[test]
fn a_finished_game_can_be_looked_at_after_any_turn() {
    let mut game = setup(TRIPLE_KO, Color::Black, Ruleset::CHINESE);
    play(&mut game, &["B C8", "W G8"]);
    game.resign(Color::White).unwrap();
    let after_one = game.after_turns(1);
    assert_eq!(after_one.phase(), Phase::Play);
    assert_eq!(after_one.board(), &game.position_after(1));
    assert_eq!(after_one.to_move(), Color::White);
    assert_eq!(after_one.result(), None);
    // The ko ban of black's capture holds in the position looked at.
    assert!(!after_one.is_legal(Color::White, at(&game, "B8")));
    assert_eq!(game.after_turns(0).turns().len(), 0);
    assert_eq!(game.after_turns(99).turns(), game.turns());
}

#[test]
fn warnings_cost_a_zi_each_and_a_second_loses() {
    let mut game = small_end_game();
    let before = game.count().margin;
    assert_eq!(game.warn(Color::White).unwrap(), None);
    assert_eq!(game.count().margin - before, Score::from_zi(1));
    assert_eq!(game.count().white.penalty, Score::from_points(2));
    let result = game.warn(Color::White).unwrap().unwrap();
    assert_eq!(
        result,
        GameResult::Win {
            winner: Color::Black,
            by: WinBy::Ruling
        }
    );
    assert_eq!(result.chinese_from(Color::White), "白判负");
}

#[test]
fn time_forfeit_and_rulings() {
    let mut game = Game::new(BoardSize::NINE, Ruleset::CHINESE);
    assert_eq!(
        game.time_out(Color::Black)
            .unwrap()
            .chinese_from(Color::Black),
        "黑超时负"
    );
    assert_eq!(game.result().unwrap().international(), "W+T");
    let mut game = Game::new(BoardSize::NINE, Ruleset::CHINESE);
    assert_eq!(game.forfeit(Color::White).unwrap().international(), "B+F");
    let mut game = Game::new(BoardSize::NINE, Ruleset::CHINESE);
    assert_eq!(
        game.declare(GameResult::BothLose).unwrap().chinese(),
        "双方判负"
    );
}

#[test]
fn handicap_fixed_and_free() {
    let game = Game::builder(BoardSize::NINETEEN)
        .handicap(Handicap::Fixed(4))
        .build()
        .unwrap();
    assert_eq!(
        game.to_move(),
        Color::White,
        "white moves first after a handicap"
    );
    assert_eq!(
        game.komi(),
        Score::ZERO,
        "Chinese handicap games have no komi"
    );
    assert_eq!(game.board().stone_count(Color::Black), 4);

    let mut game = Game::builder(BoardSize::NINETEEN)
        .ruleset(Ruleset::AGA)
        .handicap(Handicap::Free(2))
        .build()
        .unwrap();
    assert_eq!(game.phase(), Phase::Setup);
    assert_eq!(game.komi(), "0.5".parse().unwrap());
    let (a, b) = (at(&game, "C3"), at(&game, "R17"));
    assert!(matches!(
        game.place_handicap(&[a]),
        Err(GameError::HandicapPoints { .. })
    ));
    assert!(matches!(
        game.place_handicap(&[a, a]),
        Err(GameError::HandicapPoints { .. })
    ));
    assert!(
        game.play(Color::Black, a).is_err(),
        "no move before the handicap"
    );
    game.place_handicap(&[a, b]).unwrap();
    assert_eq!(game.phase(), Phase::Play);
    assert_eq!(game.to_move(), Color::White);
    assert_eq!(game.handicap(), 2);

    assert!(
        Game::builder(BoardSize::NINE)
            .handicap(Handicap::Fixed(10))
            .build()
            .is_err()
    );
}

#[test]
fn ancient_rules_start_with_four_stones_and_white_to_move() {
    let game = Game::new(BoardSize::NINETEEN, Ruleset::ANCIENT_CHINESE);
    let stone = |s| game.board().get(at(&game, s));
    assert_eq!(stone("Q16"), Some(Color::Black));
    assert_eq!(stone("D4"), Some(Color::Black));
    assert_eq!(stone("D16"), Some(Color::White));
    assert_eq!(stone("Q4"), Some(Color::White));
    assert_eq!(game.to_move(), Color::White);
    assert_eq!(game.komi(), Score::ZERO);
}

#[test]
fn legal_points_list_every_playable_point() {
    let game = setup(
        "
        . X . . .
        X . . . .
        . . . . .
        . . . . .
        . . . . .",
        Color::White,
        Ruleset::CHINESE,
    );
    let legal = game.legal_points();
    assert_eq!(
        legal.len(),
        25 - 2 - 1,
        "all but the two stones and the suicide at A5"
    );
    assert!(!legal.contains(&at(&game, "A5")));
}
