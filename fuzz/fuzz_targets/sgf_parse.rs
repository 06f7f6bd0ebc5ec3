//! The SGF reader on arbitrary bytes. The invariants live with the crate's
//! tests, where each input found here is kept as a regression test.

#![no_main]

#[path = "../../crates/shoutan-sgf/tests/invariants/mod.rs"]
mod invariants;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| invariants::check(bytes));
