//! The game WebSocket's message parser on arbitrary bytes. The invariants
//! live with the server crate's tests, where each input found here is kept
//! as a regression test (`tests/ws-fuzz-inputs/`).

#![no_main]

#[path = "../../crates/shoutan-server/tests/ws_invariants/mod.rs"]
mod ws_invariants;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| ws_invariants::check(bytes));
