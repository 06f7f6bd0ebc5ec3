//! The GTP command parser's invariants on the fuzz target's seeds and every
//! input it has found a failure with, kept in `tests/gtp-fuzz-inputs/`.

mod gtp_invariants;

#[test]
fn kept_inputs_keep_the_invariants() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/gtp-fuzz-inputs");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).expect("the inputs") {
        let path = entry.expect("an entry").path();
        gtp_invariants::check(&std::fs::read(&path).expect("an input"));
        checked += 1;
    }
    assert!(checked > 0, "no input in {}", dir.display());
}
