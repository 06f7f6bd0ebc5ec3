//! Live games. Each is an actor: one task owns the game and its clock,
//! takes commands from a channel, checks them with the rules and the clock,
//! appends each accepted event to the durable log **before** acknowledging
//! or broadcasting it, and broadcasts versioned events to players and
//! spectators. It sleeps until the clock's next deadline or byo-yomi call.
//!
//! State is the replay of the log ([`state::LiveState::apply`] serves both),
//! so after a restart every live game is rebuilt exactly; the server's
//! downtime is then excused on the clocks (see [`registry`]).
//!
//! A computer player plugs in as one more client of a game's
//! [`handle::GameHandle`]: it joins its seat, reads the events and sends
//! `move`/`pass` commands, exactly as a WebSocket connection does.

pub mod actor;
pub mod bus;
pub mod estimates;
pub mod event;
pub mod follower;
pub mod frame;
pub mod handle;
pub mod presence;
pub mod protocol;
pub mod registry;
pub mod replica;
pub mod spectators;
pub mod state;
pub mod view;
pub mod ws;
