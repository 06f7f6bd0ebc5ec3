//! Tournaments (docs/spec/competition.md, Art. 25–28): individual and team
//! events under every system the Chinese competition rules name — knockout,
//! round robin on Berger tables, Swiss (积分编排制), Swiss with elimination,
//! McMahon, best-of-N matches and the win-stays relay (擂台赛) — and every
//! team format (fixed boards, substitutes, line-up per match, all-play-all
//! between teams, team total score), with results, arbiters' rulings and
//! warnings, withdrawals, standings with configurable tie-breaks, and the
//! exchange formats organisers use (OpenGotha XML, EGF `.h9`, FIDE TRF-16,
//! CSV, HTML and Markdown).
//!
//! The core is a value, [`Tournament`], changed only through commands that
//! validate first and change nothing on error; files are a thin layer
//! ([`mod@file`], [`formats`]). Nothing here is specific to weiqi except ranks
//! and handicaps: a xiangqi, chess or bridge event runs the same way with
//! results entered by hand.
//!
//! # Run a Swiss event
//! ```
//! use shoutan_tournament::{NewPlayer, Outcome, Settings, System, Tournament};
//! let mut settings = Settings::new(System::Swiss, None);
//! settings.rounds = Some(3);
//! let mut t = Tournament::new("Spring open", settings).unwrap();
//! for (name, rank) in [("Ke", "5d"), ("Mi", "4d"), ("Shin", "3d"), ("Park", "2d")] {
//!     t.add_player(NewPlayer::ranked(name, rank.parse().unwrap())).unwrap();
//! }
//! let round = t.pair_next_round().unwrap().clone();
//! for game in &round.games {
//!     t.record(1, game.table, Outcome::Win(shoutan_rules::Color::Black)).unwrap();
//! }
//! let standings = t.standings();
//! assert_eq!(standings.rows.len(), 4);
//! assert_eq!(standings.rows[0].values[0].to_string(), "1"); // 2 + (0 ÷ 1 − 1)
//! ```
//!
//! # A bad command changes nothing
//! ```
//! use shoutan_tournament::{Settings, System, Tournament, TournamentError};
//! let mut t = Tournament::new("Cup", Settings::new(System::Knockout { losses: 1 }, None)).unwrap();
//! let before = t.clone();
//! assert!(matches!(t.pair_round(2), Err(TournamentError::OutOfOrder { requested: 2, next: 1 })));
//! assert!(matches!(t.pair_next_round(), Err(TournamentError::FieldSize { .. })));
//! assert_eq!(t, before);
//! ```

mod certification;
mod discipline;
mod error;
pub mod file;
pub mod formats;
mod gotha_parameters;
mod history;
pub mod level_points;
pub mod matching;
mod mcmahon;
mod outcome;
mod pairing;
mod player;
mod round;
mod settings;
pub mod sim;
mod standings;
mod team_total;
mod tournament;
mod value;

pub use certification::{Certification, Qualifier};
pub use discipline::{Discipline, DisciplineError, DisciplineRules};
pub use error::TournamentError;
pub use gotha_parameters::{
    DuddMode, GothaPairing, KeptElement, OpenGothaParameters, PairingModel, SeedSystem,
};
pub use mcmahon::start_mms;
pub use outcome::{Outcome, OutcomeError, PlayerResult};
pub use player::{Entrant, NewPlayer, Player, PlayerId, Registration, Team, TeamId};
pub use round::{Bye, ColorChoice, Game, Nigiri, Note, Round, Ruling, TeamMatch};
pub use settings::{
    ColorRule, Criterion, CriterionError, HandicapBasis, HandicapRule, McMahon, Seeding, Settings,
    System, TeamFormat, TeamFormatError, TeamSettings, TieRule, WithdrawnValuation,
};
pub use standings::{Cell, Column, Row, Standings};
pub use tournament::{MAX_FIELD, Tournament};
pub use value::Value;
