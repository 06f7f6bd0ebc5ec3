//! A record to a [`Game`] of `shoutan-rules`: setup and handicap, ruleset,
//! komi, then the main line move by move under the rules, so that an
//! illegal move is found with its number, colour, point and reason.

use std::collections::BTreeMap;

use shoutan_rules::{
    Color, Game, GameError, GameResult, Handicap, Move, Phase, Point, Ruleset, Score, SetupError,
};

use crate::info::{GameInfo, InfoError};
use crate::points::{PointValueError, read_move, read_points};
use crate::tree::{GameTree, Node, NodeId};
use crate::warning::Warning;

/// What to use instead of what the record says.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReplayOptions {
    /// Replay under this ruleset instead of `RU`'s.
    pub ruleset: Option<Ruleset>,
    /// Use this komi instead of `KM`.
    pub komi: Option<Score>,
    /// Stop after this many moves of the main line (to see a position
    /// before the end, or before an illegal move).
    pub until: Option<usize>,
}

/// A replayed record.
#[derive(Clone, Debug)]
pub struct Replay {
    /// The record's game information.
    pub info: GameInfo,
    /// The game after the last move of the main line: in play, or in
    /// counting after two passes. The record's result is in
    /// `info.result`; apply it with [`Game::declare`] if wanted.
    pub game: Game,
    /// The moves of the main line (passes included, as numbered in the record).
    pub moves: usize,
    /// The last node of the main line (where final markup lives).
    pub last_node: NodeId,
    /// What was repaired or assumed.
    pub warnings: Vec<Warning>,
}

/// Why a record could not be replayed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// The game information is unusable.
    #[error(transparent)]
    Info(#[from] InfoError),
    /// A point or move that is not on the board.
    #[error("{}: {error}", place(*.move_number))]
    BadPoint {
        /// The last move before the value (0: in the setup).
        move_number: usize,
        /// The value.
        error: PointValueError,
    },
    /// A node with a black and a white move.
    #[error("move {move_number}: one node holds both a black and a white move")]
    TwoMovesInOneNode {
        /// The number of the first of them.
        move_number: usize,
    },
    /// Setup stones that leave a chain without a liberty (setup never
    /// captures).
    #[error("the set-up position leaves the stones at {point} without a liberty")]
    SetupWithoutLiberty {
        /// A stone of that chain, in GTP notation.
        point: String,
    },
    /// Stones set up after the game began (`AB`/`AW`/`AE` between moves).
    #[error("after move {move_number}: {id} changes the board in the middle of the game")]
    SetupAfterMoves {
        /// The last move before it.
        move_number: usize,
        /// The property.
        id: &'static str,
    },
    /// The handicap could not be given.
    #[error("handicap: {0}")]
    Handicap(GameError),
    /// The rules refused a change of turn the record asks for.
    #[error("move {number}: {reason}")]
    Turn {
        /// The move.
        number: usize,
        /// Why.
        reason: GameError,
    },
    /// A move the rules forbid.
    #[error("move {number} ({color} {point}): {reason}")]
    IllegalMove {
        /// The move's number in the record.
        number: usize,
        /// Who played it.
        color: Color,
        /// Where, in GTP notation (`pass` for a pass).
        point: String,
        /// The rule it breaks.
        reason: GameError,
    },
    /// A move after the rules ended the game (a cycle under simple ko).
    #[error(
        "move {number} ({color} {point}): the game had already ended with {result} under the rules (the same position occurred a third time)"
    )]
    MoveAfterEnd {
        /// The move's number.
        number: usize,
        /// Who played it.
        color: Color,
        /// Where, in GTP notation.
        point: String,
        /// How the rules ended it.
        result: GameResult,
    },
}

fn place(move_number: usize) -> String {
    if move_number == 0 {
        "setup".to_owned()
    } else {
        format!("after move {move_number}")
    }
}

/// Replays the main line of a record under its rules (or the options').
///
/// ```
/// use shoutan_rules::{Color, GameError};
/// use shoutan_sgf::{parse, replay, ReplayError, ReplayOptions};
/// let (c, _) = parse("(;SZ[9]KM[7]RU[Chinese];B[ee];W[de];B[dd];W[ce];B[ed];W[ef];B[fe];W[df];B[ff])").unwrap();
/// let r = replay(&c.games[0], ReplayOptions::default()).unwrap();
/// assert_eq!(r.moves, 9);
/// assert_eq!(r.game.komi().to_string(), "7");
///
/// let (c, _) = parse("(;SZ[9];B[ee];W[ee])").unwrap();
/// let err = replay(&c.games[0], ReplayOptions::default()).unwrap_err();
/// assert_eq!(err.to_string(), "move 2 (white E5): E5 is occupied");
/// ```
pub fn replay(tree: &GameTree, options: ReplayOptions) -> Result<Replay, ReplayError> {
    let (info, mut warnings) = GameInfo::read(tree.root())?;
    let ruleset = options.ruleset.unwrap_or(info.ruleset);
    let komi = options.komi.or(info.komi);
    let size = info.size;
    let main: Vec<NodeId> = tree.main_line().collect();
    let record = Record {
        tree,
        main: &main,
        info: &info,
        ruleset,
        komi,
    };

    let mut setup = Setup::default();
    let mut game: Option<Game> = None;
    let mut moves = 0;
    let mut skip_moves = 0;
    for &id in &main {
        let node = tree.node(id);
        for (prop, color) in [
            ("AB", Some(Color::Black)),
            ("AW", Some(Color::White)),
            ("AE", None),
        ] {
            if let Some(p) = node.get(prop) {
                if game.is_some() {
                    return Err(ReplayError::SetupAfterMoves {
                        move_number: moves,
                        id: prop,
                    });
                }
                let points = read_points(p, size).map_err(|error| ReplayError::BadPoint {
                    move_number: moves,
                    error,
                })?;
                setup.apply(&points, color);
            }
        }
        if let Some(pl) = node.simple_text("PL").and_then(|t| t.parse::<Color>().ok()) {
            match &mut game {
                Some(g) if g.phase() == Phase::Play => {
                    // A change of turn the record asks for (not a repair);
                    // in play it cannot be refused.
                    let _ = g.set_to_move(pl);
                }
                Some(_) => {}
                None => setup.to_move = Some(pl),
            }
        }
        let Some((color, value)) = node_move(node, moves)? else {
            continue;
        };
        if options.until.is_some_and(|limit| moves >= limit) {
            break;
        }
        moves += 1;
        let mv =
            read_move(color_id(color), value, size).map_err(|error| ReplayError::BadPoint {
                move_number: moves - 1,
                error,
            })?;
        let game = match &mut game {
            Some(g) => g,
            None => {
                let (g, placed) = start(&record, &setup, Some(color), &mut warnings)?;
                skip_moves = placed;
                game.insert(g)
            }
        };
        if skip_moves > 0 {
            skip_moves -= 1;
            continue;
        }
        play(game, color, mv, moves, &mut warnings)?;
    }
    let game = match game {
        Some(g) => g,
        None => start(&record, &setup, None, &mut warnings)?.0,
    };
    Ok(Replay {
        info,
        game,
        moves,
        last_node: main.last().copied().unwrap_or(GameTree::ROOT),
        warnings,
    })
}

/// The board the setup properties describe, and `PL`.
#[derive(Default)]
struct Setup {
    stones: BTreeMap<Point, Option<Color>>,
    to_move: Option<Color>,
}

impl Setup {
    fn apply(&mut self, points: &[Point], color: Option<Color>) {
        for &p in points {
            self.stones.insert(p, color);
        }
    }
}

fn color_id(color: Color) -> &'static str {
    match color {
        Color::Black => "B",
        Color::White => "W",
    }
}

/// The node's move, if any.
fn node_move(node: &Node, moves: usize) -> Result<Option<(Color, &crate::Value)>, ReplayError> {
    match (node.value("B"), node.value("W")) {
        (Some(_), Some(_)) => Err(ReplayError::TwoMovesInOneNode {
            move_number: moves + 1,
        }),
        (Some(v), None) => Ok(Some((Color::Black, v))),
        (None, Some(v)) => Ok(Some((Color::White, v))),
        (None, None) => Ok(None),
    }
}

/// What a game is built from.
struct Record<'a> {
    tree: &'a GameTree,
    main: &'a [NodeId],
    info: &'a GameInfo,
    ruleset: Ruleset,
    komi: Option<Score>,
}

/// Builds the game from the setup. Black stones added to the empty board
/// (or the ruleset's 座子) are a handicap; any other setup (white stones,
/// removals) is a position played as it stands, without handicap, with
/// `PL` or the first mover to play. Returns the game and how many of the
/// record's first moves were the handicap placement.
fn start(
    record: &Record<'_>,
    setup: &Setup,
    first_mover: Option<Color>,
    warnings: &mut Vec<Warning>,
) -> Result<(Game, usize), ReplayError> {
    let size = record.info.size;
    let bare = Game::builder(size)
        .ruleset(record.ruleset)
        .build()
        .map_err(ReplayError::Handicap)?;
    let starting = bare.initial_board();
    let mut position = starting.clone();
    position
        .set_stones(setup.stones.iter().map(|(&p, &stone)| (p, stone)))
        .map_err(|e| match e {
            SetupError::NoLiberty(p) | SetupError::OffBoard(p) => {
                ReplayError::SetupWithoutLiberty {
                    point: p.to_gtp(size),
                }
            }
        })?;
    let changed: Vec<Point> = size
        .points()
        .filter(|&p| position.get(p) != starting.get(p))
        .collect();
    let handicap_only = changed
        .iter()
        .all(|&p| starting.get(p).is_none() && position.get(p) == Some(Color::Black));
    let mut builder = Game::builder(size).ruleset(record.ruleset);
    if let Some(k) = record.komi {
        builder = builder.komi(k);
    }
    let mut placed_by_moves = Vec::new();
    let mut game = if handicap_only {
        let handicap = handicap(record, changed, &mut placed_by_moves, warnings);
        builder.handicap(handicap).build()
    } else {
        let to_move = setup
            .to_move
            .or(first_mover)
            .unwrap_or(record.ruleset.first_player);
        builder.position(position, to_move).build()
    }
    .map_err(ReplayError::Handicap)?;
    if !placed_by_moves.is_empty() {
        game.place_handicap(&placed_by_moves)
            .map_err(ReplayError::Handicap)?;
    }
    if let Some(pl) = setup.to_move
        && game.phase() == Phase::Play
    {
        game.set_to_move(pl).map_err(ReplayError::Handicap)?;
    }
    Ok((game, placed_by_moves.len()))
}

/// The handicap of a record whose setup adds only black stones (`black`):
/// those stones, or with `HA` and no stones, the fixed points or black's
/// first moves (then put in `placed_by_moves`).
fn handicap(
    record: &Record<'_>,
    black: Vec<Point>,
    placed_by_moves: &mut Vec<Point>,
    warnings: &mut Vec<Warning>,
) -> Handicap {
    let declared = record.info.handicap;
    if !black.is_empty() {
        if usize::from(declared) != black.len() {
            warnings.push(Warning::HandicapMismatch {
                declared,
                stones: black.len(),
            });
        }
        return Handicap::Placed(black);
    }
    if declared < 2 {
        return Handicap::None;
    }
    match leading_black_moves(record, usize::from(declared)) {
        FirstMoves::White => {
            warnings.push(Warning::FixedHandicapAssumed { stones: declared });
            Handicap::Fixed(declared)
        }
        FirstMoves::Black(points) if points.len() == usize::from(declared) => {
            warnings.push(Warning::HandicapAsMoves { stones: declared });
            *placed_by_moves = points;
            Handicap::Free(declared)
        }
        FirstMoves::Black(_) => {
            warnings.push(Warning::HandicapMismatch {
                declared,
                stones: 0,
            });
            Handicap::None
        }
    }
}

enum FirstMoves {
    /// White moves first (or there are no moves).
    White,
    /// Black's first moves, up to `n`, before any white move or pass.
    Black(Vec<Point>),
}

fn leading_black_moves(record: &Record<'_>, n: usize) -> FirstMoves {
    let mut points = Vec::new();
    for &id in record.main {
        match node_move(record.tree.node(id), 0) {
            Ok(Some((Color::Black, v))) => match read_move("B", v, record.info.size) {
                Ok(Move::Play(p)) if points.len() < n => points.push(p),
                _ => break,
            },
            Ok(Some((Color::White, _))) | Err(_) => break,
            Ok(None) => {}
        }
    }
    if points.is_empty() {
        FirstMoves::White
    } else {
        FirstMoves::Black(points)
    }
}

fn play(
    game: &mut Game,
    color: Color,
    mv: Move,
    number: usize,
    warnings: &mut Vec<Warning>,
) -> Result<(), ReplayError> {
    let point = match mv {
        Move::Play(p) => p.to_gtp(game.size()),
        Move::Pass => "pass".to_owned(),
    };
    match game.phase() {
        Phase::Finished => {
            return Err(ReplayError::MoveAfterEnd {
                number,
                color,
                point,
                result: game.result().unwrap_or(GameResult::NoResult),
            });
        }
        Phase::Counting => {
            game.dispute(color)
                .map_err(|reason| ReplayError::Turn { number, reason })?;
            warnings.push(Warning::ResumedAfterPasses { number });
        }
        Phase::Setup | Phase::Play => {}
    }
    if color != game.to_move() {
        game.set_to_move(color)
            .map_err(|reason| ReplayError::Turn { number, reason })?;
        warnings.push(Warning::OutOfTurn { number, color });
    }
    game.apply(color, mv)
        .map(|_| ())
        .map_err(|reason| ReplayError::IllegalMove {
            number,
            color,
            point,
            reason,
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse;
    use shoutan_rules::Board;

    fn replay_text(text: &str) -> Result<Replay, ReplayError> {
        let (c, _) = parse(text).unwrap();
        replay(&c.games[0], ReplayOptions::default())
    }

    fn board(text: &str) -> Board {
        text.parse().unwrap()
    }

    #[test]
    fn a_capture_in_the_corner() {
        let r = replay_text("(;GM[1]SZ[5];B[ba];W[aa];B[ab])").unwrap();
        assert_eq!(
            r.game.board(),
            &board(
                ". X . . .
                 X . . . .
                 . . . . .
                 . . . . .
                 . . . . ."
            )
        );
        assert_eq!(r.game.board().captures(Color::Black), 1);
        assert!(r.warnings.is_empty());
    }

    #[test]
    fn illegal_moves_name_number_color_point_and_rule() {
        // Art. 5: suicide is forbidden.
        let err = replay_text("(;SZ[5];B[ba];W[cc];B[ab];W[aa])").unwrap_err();
        assert_eq!(
            err.to_string(),
            "move 4 (white A5): A5 is suicide: the stone would have no liberties and captures nothing"
        );
        // Art. 20: immediate ko recapture. After B C4 takes the white
        // stone at B4, white may not take back at once:
        //   . X O . .
        //   X . X O .
        //   . X O . .
        let err =
            replay_text("(;SZ[5];B[ba];W[ca];B[ab];W[bb];B[bc];W[db];B[ee];W[cc];B[cb];W[bb])")
                .unwrap_err();
        assert!(
            matches!(&err, ReplayError::IllegalMove { number: 10, color: Color::White, point, reason: GameError::Ko(_) } if point == "B4"),
            "{err}"
        );
    }

    #[test]
    fn two_moves_of_one_color_give_the_turn_with_a_warning() {
        let r = replay_text("(;SZ[9];B[ee];B[dd];W[cc])").unwrap();
        assert_eq!(
            r.warnings,
            vec![Warning::OutOfTurn {
                number: 2,
                color: Color::Black
            }]
        );
        assert_eq!(r.game.to_move(), Color::Black);
    }

    #[test]
    fn handicap_from_ab_in_the_node_after_the_root() {
        // Fox writes the handicap stones in a node of their own.
        let r = replay_text("(;SZ[19]HA[4]KM[0];AB[pd][dp][dd][pp];W[jq];B[hq])").unwrap();
        assert!(r.warnings.is_empty(), "{:?}", r.warnings);
        assert_eq!(r.game.handicap(), 4);
        assert_eq!(r.game.initial_board().stone_count(Color::Black), 4);
        assert_eq!(r.moves, 2);
    }

    #[test]
    fn handicap_without_stones() {
        let r = replay_text("(;SZ[19]HA[2];W[jj])").unwrap();
        assert_eq!(
            r.warnings,
            vec![Warning::FixedHandicapAssumed { stones: 2 }]
        );
        assert_eq!(r.game.initial_board().stone_count(Color::Black), 2);
        let r = replay_text("(;SZ[19]HA[2];B[cc];B[gg];W[jj])").unwrap();
        assert_eq!(r.warnings, vec![Warning::HandicapAsMoves { stones: 2 }]);
        assert_eq!(r.game.turns().len(), 1);
        assert_eq!(r.moves, 3);
        let r = replay_text("(;SZ[19]HA[3]AB[dd][pp];W[jj])").unwrap();
        assert_eq!(
            r.warnings,
            vec![Warning::HandicapMismatch {
                declared: 3,
                stones: 2
            }]
        );
    }

    #[test]
    fn a_set_up_position_is_played_as_it_stands() {
        // A problem: white to live. AE takes back a stone set up before.
        //   X X X . .
        //   O O X . .
        //   . O X . .
        let r =
            replay_text("(;SZ[5]AB[aa][ba][ca][cb][cc][dd]AW[ab][bb][bc];AE[dd];W[ac])").unwrap();
        assert!(r.warnings.is_empty(), "{:?}", r.warnings);
        assert_eq!(r.game.handicap(), 0);
        assert_eq!(
            r.game.board(),
            &board(
                "X X X . .
                 O O X . .
                 O O X . .
                 . . . . .
                 . . . . ."
            )
        );
        // PL says who is to play in the position.
        let r = replay_text("(;SZ[5]AB[aa]AW[ee]PL[W])").unwrap();
        assert_eq!(r.game.to_move(), Color::White);
        // Setup never captures: a chain without liberty is refused.
        let err = replay_text("(;SZ[5]AB[aa]AW[ba][ab];B[cc])").unwrap_err();
        assert_eq!(
            err.to_string(),
            "the set-up position leaves the stones at A5 without a liberty"
        );
        let err = replay_text("(;SZ[9];B[cc];AB[dd];W[ee])").unwrap_err();
        assert_eq!(
            err,
            ReplayError::SetupAfterMoves {
                move_number: 1,
                id: "AB"
            }
        );
        // AE of a stone set up in the same record undoes it: nothing left.
        let r = replay_text("(;SZ[9]AB[aa];AE[aa];B[cc])").unwrap();
        assert_eq!(r.game.handicap(), 0);
    }

    #[test]
    fn ancient_corner_stones_in_the_record_are_the_rules_own() {
        // seed 004: 座子, black on Q16 and D4, white on D16 and Q4; white first.
        let r = replay_text("(;SZ[19]RU[ancient-chinese]AB[pd][dp]AW[dd][pp]PL[W];W[jj];B[kk])")
            .unwrap();
        assert!(r.warnings.is_empty(), "{:?}", r.warnings);
        assert_eq!(r.game.board().stone_count(Color::White), 3);
    }

    #[test]
    fn passes_tt_and_play_after_two_passes() {
        let r = replay_text("(;SZ[19];B[pd];W[tt];B[];W[dd])").unwrap();
        assert_eq!(r.warnings, vec![Warning::ResumedAfterPasses { number: 4 }]);
        assert_eq!(r.game.phase(), Phase::Play);
        let r = replay_text("(;SZ[9];B[ee];W[];B[])").unwrap();
        assert_eq!(r.game.phase(), Phase::Counting);
    }

    #[test]
    fn bad_points_and_nodes() {
        let err = replay_text("(;SZ[9];B[ee];W[zz])").unwrap_err();
        assert_eq!(
            err.to_string(),
            "after move 1: W[zz]: \"zz\" is off the 9×9 board"
        );
        let err = replay_text("(;SZ[9];B[ee]W[dd])").unwrap_err();
        assert_eq!(err, ReplayError::TwoMovesInOneNode { move_number: 1 });
    }

    #[test]
    fn options_override_rules_and_komi() {
        let (c, _) = parse("(;SZ[9]RU[Japanese]KM[6.5];B[ee])").unwrap();
        let options = ReplayOptions {
            ruleset: Some(Ruleset::TROMP_TAYLOR),
            komi: Some(Score::from_points(7)),
            until: None,
        };
        let r = replay(&c.games[0], options).unwrap();
        assert_eq!(r.game.ruleset(), &Ruleset::TROMP_TAYLOR);
        assert_eq!(r.game.komi(), Score::from_points(7));
        assert_eq!(r.info.ruleset, Ruleset::JAPANESE);
    }

    /// A cycle on 3×3 (found by random play): under simple ko the position
    /// after move 14 occurs for the third time and the game ends with no
    /// result (Art. 20); situational superko forbids it earlier (Art. 6).
    const CYCLE: &str =
        ";B[ca];W[bc];B[ba];W[aa];B[cb];W[bb];B[ac];W[];B[ab];W[aa];B[ac];W[];B[ab];W[aa]";

    #[test]
    fn a_cycle_ends_the_game_under_simple_ko() {
        let r = replay_text(&format!("(;SZ[3]RU[Japanese]{CYCLE})")).unwrap();
        assert_eq!(r.game.phase(), Phase::Finished);
        assert_eq!(r.game.result(), Some(GameResult::NoResult));
        let err = replay_text(&format!("(;SZ[3]RU[Japanese]{CYCLE};B[ac])")).unwrap_err();
        assert_eq!(
            err,
            ReplayError::MoveAfterEnd {
                number: 15,
                color: Color::Black,
                point: "A1".into(),
                result: GameResult::NoResult
            }
        );
        let err = replay_text(&format!("(;SZ[3]RU[Chinese]{CYCLE})")).unwrap_err();
        assert!(
            matches!(
                err,
                ReplayError::IllegalMove {
                    reason: GameError::Superko { .. },
                    ..
                }
            ),
            "{err}"
        );
    }

    #[test]
    fn until_stops_before_the_rest() {
        let (c, _) = parse("(;SZ[9];B[ee];W[ee])").unwrap();
        let options = ReplayOptions {
            until: Some(1),
            ..ReplayOptions::default()
        };
        let r = replay(&c.games[0], options).unwrap();
        assert_eq!(r.moves, 1);
        assert_eq!(r.game.turns().len(), 1);
    }
}
