//! Every claim of every proverb's diagram is the solver's: the verdict for
//! the side moving first, and exactly the first moves that reach it.

use std::collections::BTreeSet;
use std::time::Duration;

use shoutan_problems::{CLAIM_BUDGET, Claim, Diagram, Proverb, proverbs};
use shoutan_rules::Move;
use shoutan_solver::{Answer, Budget, Verdict, solve_for};

fn names(diagram: &Diagram, moves: &[Move]) -> BTreeSet<String> {
    moves
        .iter()
        .map(|m| m.to_gtp(diagram.board.size()))
        .collect()
}

/// The first moves that reach the answer's verdict.
fn reaching(answer: &Answer) -> &[Move] {
    match answer.verdict {
        Verdict::Win => &answer.winning_moves,
        Verdict::Seki => &answer.seki_moves,
        Verdict::Ko => &answer.ko_moves,
        Verdict::Lose | Verdict::Unknown => &[],
    }
}

/// Whether the solver agrees with `claim`, or why not.
fn check(proverb: &Proverb, diagram: &Diagram, claim: &Claim) -> Result<(), String> {
    let answer = solve_for(&diagram.problem(), claim.mover, CLAIM_BUDGET);
    let want: Vec<Move> = claim.moves.iter().map(|&p| Move::Play(p)).collect();
    let (got, want) = (names(diagram, reaching(&answer)), names(diagram, &want));
    if answer.verdict == claim.verdict && got == want {
        return Ok(());
    }
    Err(format!(
        "{} ({}), diagram {} ({}), {:?} first: claimed {:?} by {want:?}, the solver says {:?} by {got:?} ({} nodes, {} ms)",
        proverb.zh,
        proverb.slug,
        diagram.caption_zh,
        diagram.caption_en,
        claim.mover,
        claim.verdict,
        answer.verdict,
        answer.nodes,
        answer.millis,
    ))
}

#[test]
fn every_claim_is_the_solvers() {
    let mut failures = Vec::new();
    let mut claims = 0;
    for proverb in proverbs() {
        for diagram in &proverb.diagrams {
            for claim in &diagram.claims {
                claims += 1;
                if let Err(e) = check(proverb, diagram, claim) {
                    failures.push(e);
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(claims > 20, "{claims} claims");
}

#[test]
fn every_diagram_has_claims_and_lose_claims_no_moves() {
    for proverb in proverbs() {
        assert!(!proverb.diagrams.is_empty(), "{}", proverb.slug);
        for diagram in &proverb.diagrams {
            assert!(
                !diagram.claims.is_empty(),
                "{} {}",
                proverb.slug,
                diagram.caption_en
            );
            for claim in &diagram.claims {
                assert_eq!(
                    claim.verdict == Verdict::Lose,
                    claim.moves.is_empty(),
                    "{} {}: {claim:?}",
                    proverb.slug,
                    diagram.caption_en
                );
            }
        }
    }
}

#[test]
fn slugs_are_unique() {
    let slugs: BTreeSet<&str> = proverbs().iter().map(|p| p.slug).collect();
    assert_eq!(slugs.len(), proverbs().len());
}

/// The diagram `index` of the proverb `slug`.
fn diagram(slug: &str, index: usize) -> &'static Diagram {
    let proverb = proverbs()
        .iter()
        .find(|p| p.slug == slug)
        .unwrap_or_else(|| panic!("no proverb {slug}"));
    &proverb.diagrams[index]
}

/// What `mover` moving first gets on the diagram, with a budget of nodes
/// only so that the result does not depend on the machine.
fn answer(diagram: &Diagram, mover: shoutan_rules::Color) -> Answer {
    let budget = Budget {
        nodes: 3_000_000,
        time: Duration::from_secs(600),
    };
    solve_for(&diagram.problem(), mover, budget)
}

#[test]
fn living_shapes_need_no_move() {
    // Straight four and bent four on the side: the defender may tenuki.
    for index in [0, 1] {
        let d = diagram("zhisi-qusi", index);
        let a = answer(d, shoutan_rules::Color::White);
        assert_eq!(a.verdict, Verdict::Win, "{}: {a:?}", d.caption_en);
        assert!(
            a.winning_moves.contains(&Move::Pass),
            "{}: {a:?}",
            d.caption_en
        );
    }
}

#[test]
fn the_details_the_claims_leave_out() {
    use shoutan_rules::Color::White;
    // Bent four in the corner, white first: tenuki leaves the ko.
    let a = answer(diagram("panjiao-qusi", 0), White);
    assert_eq!(a.ko_moves, vec![Move::Pass], "{a:?}");
    // Bulky five, white first: B6 or A7 leaves the corner's bent four, a ko.
    let d = diagram("banwu-huawu", 0);
    let a = answer(d, White);
    assert_eq!(
        names(d, &a.ko_moves),
        ["A7", "B6"].map(str::to_owned).into_iter().collect(),
        "{a:?}"
    );
    // The net, white first: the stone gets out.
    let a = answer(diagram("jia", 0), White);
    assert_eq!(a.verdict, Verdict::Win, "{a:?}");
}

/// Plays `moves` on the diagram, black first and then in turn; the
/// position after them and how many stones each move took.
fn play_line(d: &Diagram, moves: &[&str]) -> (shoutan_rules::Board, Vec<usize>) {
    let suicide = d.problem().suicide();
    let mut board = d.board.clone();
    let mut color = shoutan_rules::Color::Black;
    let mut taken = Vec::new();
    for m in moves {
        let p = shoutan_rules::Point::from_gtp(m, board.size()).expect("a point");
        let i = board.index(p);
        let n = board
            .play(i, color, suicide)
            .unwrap_or_else(|e| panic!("{} {m}: {e}", d.caption_en));
        taken.push(n);
        color = color.opponent();
    }
    (board, taken)
}

#[test]
fn the_tactics_go_as_explained() {
    use shoutan_rules::Color::White;
    // The throw-in: white takes at E2, black ataris at D2, and white's
    // connection at E1 leaves five stones the one liberty G1.
    // The snapback: white takes at E1, black takes three at D1.
    // Connect and die: white's connection at D1 leaves three stones the one
    // liberty E2.
    for (slug, line, taken) in [
        (
            "pu",
            &["E1", "E2", "D2", "E1", "G1"][..],
            &[0, 1, 0, 0, 5][..],
        ),
        ("daopu", &["D1", "E1", "D1"], &[0, 1, 3]),
        ("jiebugui", &["C2", "D1", "E2"], &[0, 0, 3]),
    ] {
        let d = diagram(slug, 0);
        let (board, got) = play_line(d, line);
        assert_eq!(got, taken, "{slug}");
        assert_eq!(board.get(d.target), None, "{slug}");
    }
    // The plain atari from the other side fails: white connects.
    for (slug, atari, connect) in [
        ("pu", "D2", "E1"),
        ("daopu", "E1", "D1"),
        ("jiebugui", "D1", "C2"),
    ] {
        let d = diagram(slug, 0);
        let (board, _) = play_line(d, &[atari]);
        let next = d.problem().next(board, White).expect("the target stands");
        let a = solve_for(&next, White, CLAIM_BUDGET);
        assert_eq!(a.verdict, Verdict::Win, "{slug}: {a:?}");
        assert_eq!(
            names(d, &a.winning_moves),
            BTreeSet::from([connect.to_owned()]),
            "{slug}: {a:?}"
        );
    }
}
