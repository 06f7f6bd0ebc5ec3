//! The game of weiqi (围棋), exactly: the board and its two notations,
//! rulesets as data, the game as a state machine from handicap to result,
//! counting by area, territory or stones, and results in 子 and points.
//! No I/O, no clocks, no async: everything else in Shoutan stands on this.
//!
//! Article numbers (`Art. 21.4`) refer to the Chinese Weiqi Competition
//! Rules of 2002 as digested in the project's `docs/spec/rules.md`.
//!
//! # Play a game and see a capture
//! ```
//! use shoutan_rules::{BoardSize, Color, Game, Point, Ruleset};
//! let size = BoardSize::NINE;
//! let at = |s| Point::from_gtp(s, size).unwrap();
//! let mut game = Game::new(size, Ruleset::CHINESE);
//! for (color, point) in [(Color::Black, "A2"), (Color::White, "A1"), (Color::Black, "B1")] {
//!     game.play(color, at(point)).unwrap();
//! }
//! assert_eq!(game.board().captures(Color::Black), 1);
//! assert_eq!(game.board().get(at("A1")), None);
//! ```
//!
//! # An illegal move is refused and changes nothing
//! ```
//! use shoutan_rules::{BoardSize, Color, Game, GameError, Point, Ruleset};
//! let size = BoardSize::NINE;
//! let at = |s| Point::from_gtp(s, size).unwrap();
//! let mut game = Game::new(size, Ruleset::CHINESE);
//! game.play(Color::Black, at("E5")).unwrap();
//! let before = game.board().clone();
//! assert!(matches!(game.play(Color::White, at("E5")), Err(GameError::Occupied(_))));
//! assert_eq!(game.board(), &before);
//! ```
//!
//! # Count a finished position
//! ```
//! use shoutan_rules::{Board, Color, Game, Phase, Point, Ruleset, count, PointSet};
//! let board: Board = "
//!     . . X O . . O . .
//!     . . X O . . . . .
//!     . . X O . . . . .
//!     . . X O . . . . .
//!     . . X O . . . . .
//!     . . X O . . . . .
//!     . . X O . . . . .
//!     . . X O . . . . .
//!     . . X O . . . . .".parse().unwrap();
//! let mut settings = Game::new(board.size(), Ruleset::CHINESE).count_settings();
//! let mut dead = PointSet::new(board.size());
//! dead.insert(Point::from_gtp("G9", board.size()).unwrap());
//! let c = count(&board, &dead, &settings);
//! assert_eq!(c.black.count.to_string(), "27");
//! assert_eq!(c.white.count.to_string(), "54");
//! assert_eq!(c.result().chinese(), "白胜17又1/4子");
//! assert_eq!(c.result().international(), "W+34.5");
//! ```

mod benson;
mod board;
mod by_color;
mod color;
mod counting;
mod estimate;
mod game;
mod handicap;
mod nigiri;
mod playout;
mod point;
mod point_set;
mod rank;
pub mod rank_scale;
mod result;
mod ruleset;
mod score;
mod vertex;
mod zobrist;

pub use benson::{PassAlive, is_pass_alive, pass_alive};
pub use board::{Board, BoardError, DiagramError, PointIndex, SetupError};
pub use by_color::ByColor;
pub use color::{Color, ColorError};
pub use counting::{Count, CountSettings, Owner, Tally, count};
pub use estimate::{Estimate, estimate};
pub use game::{Game, GameBuilder, GameError, Handicap, Move, Phase, Played, Turn};
pub use handicap::{HandicapError, fixed_handicap, max_fixed_handicap, star_points};
pub use nigiri::{Nigiri, Parity, Seat};
pub use playout::{
    PlayoutEnd, PlayoutPolicy, Uniform, light_playout, playout, playout_area, playout_owner,
    random_move,
};
pub use point::{BoardSize, BoardSizeError, MAX_SIZE, MIN_SIZE, Point, PointError};
pub use point_set::PointSet;
pub use rank::{Rank, RankError};
pub use result::{GameResult, ResultError, ScoreUnit, WinBy};
pub use ruleset::{
    CornerStones, Counting, CycleOutcome, HandicapCompensation, HandicapPlacement, Repetition,
    Ruleset, RulesetError, Suicide, Tie,
};
pub use score::{Score, ScoreError};
pub use vertex::Vertex;
pub use zobrist::situation;
