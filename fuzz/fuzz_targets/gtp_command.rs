//! The GTP command parser on arbitrary bytes. The invariants live with the
//! engine crate's tests, where each input found here is kept as a
//! regression test (`tests/gtp-fuzz-inputs/`).

#![no_main]

#[path = "../../crates/shoutan-engine/tests/gtp_invariants/mod.rs"]
mod gtp_invariants;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| gtp_invariants::check(bytes));
