//! KataGo's own test of the inputs (version 7) on a real 19×19 game: every
//! plane and every global as KataGo gives them (see the data file).

use shoutan_nn::{GLOBAL_FEATURES, NnRules, Position, SPATIAL_FEATURES};
use shoutan_rules::{BoardSize, Color, Game, Point, Ruleset, Score};

const BASIC_V7: &str = include_str!("data/features-katago-basic-v7.txt");

/// The moves of an SGF main line without variations: `;B[pd];W[pq]…`.
fn sgf_moves(sgf: &str) -> Vec<(Color, Point)> {
    sgf.split(';')
        .filter_map(|node| {
            let color = match node.get(..2)? {
                "B[" => Color::Black,
                "W[" => Color::White,
                _ => return None,
            };
            let coords = node.get(2..4)?.as_bytes();
            Some((color, Point::new(coords[0] - b'a', coords[1] - b'a')))
        })
        .collect()
}

#[test]
fn katagos_basic_test_gets_katagos_inputs() {
    let mut lines = BASIC_V7.lines().filter(|l| !l.starts_with('#'));
    let sgf = lines
        .next()
        .and_then(|l| l.strip_prefix("sgf "))
        .expect("the game");
    assert_eq!(lines.next(), Some("board"));
    let board: Vec<&str> = lines.by_ref().take(19).collect();

    let mut game = Game::builder(BoardSize::NINETEEN)
        .ruleset(Ruleset::TROMP_TAYLOR)
        .komi(Score::from_half_points(15))
        .build()
        .expect("a game");
    for (color, p) in sgf_moves(sgf) {
        game.play(color, p).expect("a legal move");
    }
    // KataGo's Tromp-Taylor rules, friendly passing not fine.
    let rules = NnRules {
        friendly_pass_ok: false,
        ..NnRules::from_ruleset(game.ruleset(), game.komi())
    };
    assert_eq!(rules.katago_string(), "koPOSITIONALscoreAREAtaxNONEsui1");
    let position = Position::with_rules(&game, rules);
    assert_eq!(position.to_move(), Color::White);

    // The same stones as KataGo's board (its move numbers left out).
    for (row, text) in board.iter().enumerate() {
        let stones: Vec<char> = text
            .chars()
            .filter(|c| matches!(c, '.' | 'X' | 'O'))
            .collect();
        for (col, &c) in stones.iter().enumerate() {
            let expected = match c {
                'X' => Some(Color::Black),
                'O' => Some(Color::White),
                _ => None,
            };
            assert_eq!(position.get(Point::new(col as u8, row as u8)), expected);
        }
    }

    let inputs = position.inputs();
    for k in 0..SPATIAL_FEATURES {
        assert_eq!(lines.next(), Some(format!("plane {k}").as_str()));
        let expected: Vec<&str> = lines.by_ref().take(19).collect();
        let ours: Vec<String> = inputs.spatial[k * 361..(k + 1) * 361]
            .chunks(19)
            .map(|row| {
                row.iter()
                    .map(|&v| if v == 1.0 { '1' } else { '0' })
                    .collect()
            })
            .collect();
        assert_eq!(ours, expected, "plane {k}");
    }
    let globals: Vec<f32> = lines
        .next()
        .and_then(|l| l.strip_prefix("globals "))
        .expect("the globals")
        .split(' ')
        .map(|v| v.parse().expect("a number"))
        .collect();
    assert_eq!(globals.len(), GLOBAL_FEATURES);
    assert_eq!(inputs.global, globals);
}
