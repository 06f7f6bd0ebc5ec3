//! The computer player of Shoutan: a Monte-Carlo tree search over fast
//! playouts on the board of `shoutan-rules`, and the GTP front end that lets
//! interfaces (Sabaki, GoGui) and other engines (GNU Go, KataGo) talk to it.
//!
//! - The search: priors from move knowledge learned from strong players'
//!   games ([`knowledge`]), ladder reading, RAVE/AMAF, playouts on the
//!   one playout loop of `shoutan-rules` that capture, escape atari, avoid
//!   self-atari and answer with learned 3×3 shapes, one tree shared by
//!   lock-free threads, reused from move to move.
//! - Time management from the clock ([`TimeControl`], [`ClockReading`]),
//!   resignation when hopeless, correct endgames under area and territory
//!   counting, ownership and a score estimate ([`Analysis`]).
//! - Levels for human opponents ([`Level`]).
//! - [`gtp`]: the protocol, its pure command parser and a session.
//!
//! The rules engine is the authority on legality: the root's moves are
//! checked with [`shoutan_rules::Game::check`] (superko included); below
//! the root the tree works on the fast [`shoutan_rules::Board`].
//!
//! # Ask for a move
//! ```
//! use shoutan_engine::{Budget, Decision, Engine, EngineConfig, Mode, StopHandle};
//! use shoutan_rules::{BoardSize, Color, Game, Point, Ruleset};
//! let mut game = Game::new(BoardSize::NINE, Ruleset::CHINESE);
//! game.play(Color::Black, Point::from_gtp("E5", BoardSize::NINE).unwrap()).unwrap();
//! let mut engine = Engine::new(EngineConfig { threads: 1, ..EngineConfig::default() });
//! let thought = engine
//!     .genmove(&game, Color::White, Budget::playouts(300), Mode::Normal, &StopHandle::new())
//!     .unwrap();
//! let Decision::Play(p) = thought.decision else { panic!("white plays on an open board") };
//! assert!(game.is_legal(Color::White, p));
//! ```
//!
//! # Stop a search from another thread
//! ```
//! use std::time::Duration;
//! use shoutan_engine::{Budget, Engine, EngineConfig, StopHandle};
//! use shoutan_rules::{BoardSize, Color, Game, Ruleset};
//! let game = Game::new(BoardSize::NINE, Ruleset::CHINESE);
//! let mut engine = Engine::new(EngineConfig { threads: 1, ..EngineConfig::default() });
//! let stop = StopHandle::new();
//! let remote = stop.clone();
//! std::thread::spawn(move || {
//!     std::thread::sleep(Duration::from_millis(50));
//!     remote.stop();
//! });
//! // Without the stop this search would never return.
//! let analysis = engine.analyze(&game, Color::Black, Budget::until_stopped(), &stop, None).unwrap();
//! // However loaded the machine, the stop is heeded; how many playouts
//! // came before it is the machine's business.
//! println!("{} playouts before the stop", analysis.playouts);
//! ```

mod analysis;
mod clock;
mod endgame;
mod engine;
pub mod gtp;
pub mod knowledge;
mod ladder;
mod level;
mod playout;
mod prior;
mod review;
mod search;
mod tactics;
mod tree;

pub use analysis::{Analysis, MoveInfo};
pub use clock::{ClockReading, TimeControl, TimeOut};
pub use endgame::{FinalStatus, final_status};
pub use engine::{
    Budget, Decision, Engine, EngineConfig, EngineError, Mode, Reporter, StopHandle, Thought,
};
pub use level::{Level, LevelError, MeasuredRank};
pub use review::{MISTAKES_PER_PLAYER, MoveEval, PositionEval, Review, positions, review};
