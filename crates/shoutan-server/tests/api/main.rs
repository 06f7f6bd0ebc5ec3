//! The server over real HTTP and WebSocket connections, on a random port,
//! over a temporary SQLite file and (with `SHOUTAN_TEST_POSTGRES`) over
//! PostgreSQL.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed call is a test failure

mod accounts;
mod automatch;
mod bounds;
mod clocks;
mod commit;
mod common;
mod computer;
mod connections;
mod counting;
mod events;
mod health;
mod hostile;
mod judgement;
mod lobby;
mod openapi;
mod play;
mod play_modes;
mod presence;
mod problems;
mod proverbs;
mod ranks;
mod reconnect;
mod record_reviews;
mod requests;
mod restart;
mod reviews;
mod solve;
