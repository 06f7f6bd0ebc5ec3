//! The network's outputs against KataGo's own for the same network: the
//! answers KataGo 1.17.2 (Eigen backend) gave to `kata-raw-nn 0` for a
//! fixed set of positions — real records at every stage under several
//! rulesets and komi, the autoscore final positions, small boards and
//! handicap games — are kept in `tests/data/katago/raw-nn.jsonl.gz`
//! (written by `shoutan bench nn-agreement --katago … --write`), and every
//! one must agree with ours within the targets: win rate within 0.005,
//! lead within 0.2 points, policy within 0.005 point by point with the
//! same best move and the same legal moves, ownership within 0.01 on
//! average.

#![allow(clippy::unwrap_used)] // test code: a failed setup is a failed test

use std::io::BufRead;
use std::path::PathBuf;

use shoutan_nn::oracle::{Agreement, Case};
use shoutan_nn::{Network, Position, RawNnAnswer, Scratch, Symmetry};

fn goldens() -> Vec<(Case, String)> {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/katago/raw-nn.jsonl.gz");
    let file = std::fs::File::open(&path).unwrap();
    std::io::BufReader::new(flate2::read::GzDecoder::new(file))
        .lines()
        .map(|line| {
            let value: serde_json::Value = serde_json::from_str(&line.unwrap()).unwrap();
            let case = Case::from_json(&value["case"]).unwrap();
            (case, value["katago"].as_str().unwrap().to_owned())
        })
        .collect()
}

#[test]
fn every_kept_position_agrees_with_katago() {
    let network = Network::builtin();
    let mut scratch = Scratch::default();
    let goldens = goldens();
    assert!(goldens.len() >= 300, "{} positions kept", goldens.len());
    let mut agreement = Agreement::default();
    let mut worst = Vec::new();
    for (case, katago) in &goldens {
        let theirs = RawNnAnswer::parse(katago, case.size).unwrap();
        let game = case.game().unwrap();
        let position = Position::from_game(&game);
        let ours = network.evaluate(&[(&position, Symmetry::IDENTITY)], &mut scratch);
        let ours = RawNnAnswer::parse(&ours[0].kata_raw_nn(Symmetry::IDENTITY), case.size).unwrap();
        let mut one = Agreement::default();
        one.add(&ours, &theirs);
        if !one.within_targets() {
            worst.push(format!("{}: {one}", case.to_json()));
        }
        agreement.add(&ours, &theirs);
    }
    println!("{agreement}");
    assert!(
        worst.is_empty() && agreement.within_targets(),
        "{agreement}\n{} positions outside the targets, the first:\n{}",
        worst.len(),
        worst.iter().take(5).cloned().collect::<Vec<_>>().join("\n")
    );
}

#[test]
fn the_kept_positions_cover_rules_sizes_and_stages() {
    let goldens = goldens();
    let rules: std::collections::HashSet<String> = goldens
        .iter()
        .map(|(c, _)| c.ruleset.preset_name().unwrap_or("custom").to_owned())
        .collect();
    for wanted in ["chinese", "japanese", "tromp-taylor", "aga", "new-zealand"] {
        assert!(rules.contains(wanted), "no {wanted} position");
    }
    let sizes: std::collections::HashSet<u8> = goldens.iter().map(|(c, _)| c.size.get()).collect();
    assert!(
        sizes.contains(&9) && sizes.contains(&13) && sizes.contains(&19),
        "{sizes:?}"
    );
    let moves: Vec<usize> = goldens.iter().map(|(c, _)| c.moves.len()).collect();
    assert!(moves.iter().any(|&m| m < 40) && moves.iter().any(|&m| m > 200));
    assert!(
        goldens.iter().any(|(c, _)| !c.white.is_empty()),
        "setup positions"
    );
    assert!(
        goldens
            .iter()
            .any(|(c, _)| c.first == shoutan_rules::Color::White && !c.black.is_empty()),
        "handicap games"
    );
}
