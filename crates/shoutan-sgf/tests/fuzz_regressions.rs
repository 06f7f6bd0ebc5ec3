//! Every input the fuzz target has found a failure with, kept in
//! `tests/fuzz-regressions/` and checked against the same invariants.

mod invariants;

#[test]
fn inputs_found_by_fuzzing_keep_the_invariants() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz-regressions");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        invariants::check(&std::fs::read(&path).unwrap());
        checked += 1;
    }
    assert!(checked > 0, "no regression input in {}", dir.display());
}
