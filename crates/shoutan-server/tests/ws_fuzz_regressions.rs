//! The WebSocket message parser's invariants on the fuzz target's seeds
//! and every input it has found a failure with, kept in
//! `tests/ws-fuzz-inputs/`.

mod ws_invariants;

#[test]
fn kept_inputs_keep_the_invariants() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ws-fuzz-inputs");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).expect("the inputs") {
        let path = entry.expect("an entry").path();
        ws_invariants::check(&std::fs::read(&path).expect("an input"));
        checked += 1;
    }
    assert!(checked > 0, "no input in {}", dir.display());
}
