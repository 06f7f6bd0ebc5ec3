//! The computer player of Shoutan: a tree search guided by a KataGo
//! neural network (`shoutan-nn`), and the GTP front end that lets
//! interfaces (Sabaki, Lizzie, GoGui) and other engines (GNU Go, KataGo)
//! talk to it.
//!
//! - The search: PUCT as KataGo runs it — the network's policy as priors,
//!   its value and score as the utility, first-play urgency, batched leaf
//!   evaluation with virtual losses, one tree shared by lock-free threads
//!   and reused from move to move.
//! - Time management under the clock crate's `TimeControl`
//!   ([`ClockReading`]), resignation when hopeless, correct endgames under
//!   area and territory counting, ownership and a score estimate
//!   ([`Analysis`]).
//! - Levels for human opponents ([`Level`]): few visits and a temperature.
//! - [`gtp`]: the protocol, its pure command parser and a session.
//!
//! The rules engine is the authority on legality: the search's positions
//! ([`shoutan_nn::Position`]) follow the game's ruleset, superko included.
//!
//! # Ask for a move
//! ```
//! use shoutan_engine::{Budget, Decision, Engine, EngineConfig, Mode, StopHandle};
//! use shoutan_rules::{BoardSize, Color, Game, Point, Ruleset};
//! let mut game = Game::new(BoardSize::NINE, Ruleset::CHINESE);
//! game.play(Color::Black, Point::from_gtp("E5", BoardSize::NINE).unwrap()).unwrap();
//! let mut engine = Engine::new(EngineConfig { threads: 1, ..EngineConfig::default() });
//! let thought = engine
//!     .genmove(&game, Color::White, Budget::visits(30), Mode::Normal, &StopHandle::new())
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
//! // However loaded the machine, the stop is heeded; how many visits
//! // came before it is the machine's business.
//! println!("{} visits before the stop", analysis.searched);
//! ```

mod analysis;
mod endgame;
mod engine;
mod evaluator;
pub mod gtp;
mod judge;
mod level;
mod review;
mod search;
mod tactics;
mod time_manager;
mod tree;
mod utility;

pub use analysis::{Analysis, MoveInfo};
pub use endgame::{FinalStatus, final_status};
pub use engine::{
    Budget, Decision, Engine, EngineConfig, EngineError, Mode, Reporter, StopHandle, Thought,
};
pub use evaluator::builtin_network;
pub use judge::{Judgement, judge};
pub use level::{Level, LevelError, MeasuredRank};
pub use review::{
    MISTAKE_POINTS, MISTAKES_PER_PLAYER, MoveEval, PositionEval, Review, positions, review,
};
pub use time_manager::{ClockReading, TimeOut};
