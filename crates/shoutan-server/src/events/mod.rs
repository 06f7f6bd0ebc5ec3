//! Tournaments online (issue 9): events run on `shoutan_tournament`, with
//! registration, pairing, the round's games created on the server with the
//! event's rules and clock, results flowing back by themselves, arbiters'
//! results, warnings, forfeits and rulings, and standings, crosstable,
//! bracket and exports.
//!
//! An event is kept as an append-only log of actions ([`action::Action`]):
//! who did what, when. The server rebuilds each event after a restart by
//! replaying its log through the tournament crate ([`event::Event`]), as it
//! rebuilds live games from theirs. A round's games are stored in the same
//! transaction as the action that paired them.

pub mod action;
pub mod config;
mod decisions;
pub mod event;
pub mod exports;
pub mod games;
pub mod published;
pub mod registry;
pub mod results;
pub mod routes;
pub mod standings;
pub mod views;

pub use registry::Events;
