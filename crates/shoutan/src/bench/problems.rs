//! `shoutan bench problems`: the problem library (`shoutan_problems`)
//! solved from the shipped positions on one core — each problem's answer
//! proved by the solver within the library's budget (2 s), the first move
//! judged as a player's try is, and the solution tree worked out as the
//! server shows it — with each set's median and slowest time and node
//! count; then every claim of the proverbs' diagrams, as their test proves
//! it, with the slowest named.

use std::process::ExitCode;
use std::time::Instant;

use shoutan_problems::{CLAIM_BUDGET, PROBLEM_BUDGET, judge, library, proverbs, solution};
use shoutan_solver::{Verdict, solve_for};

/// Arguments.
#[derive(clap::Args)]
pub struct Args {
    /// Only the set with this id (e.g. `rumen-chizi`).
    #[arg(long)]
    set: Option<String>,
}

/// Prints, per set and over all: problems, solve time and nodes (median,
/// slowest), the judge's time for a right first move, the solution tree's.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut all = Figures::default();
    let mut unsolved = 0;
    for set in library()
        .iter()
        .filter(|s| args.set.as_deref().is_none_or(|id| id == s.slug))
    {
        let mut figures = Figures::default();
        for entry in &set.problems {
            let problem = entry.problem();
            let start = Instant::now();
            let answer = solve_for(&problem, entry.to_move, PROBLEM_BUDGET);
            figures.solve_ms.push(start.elapsed().as_secs_f64() * 1e3);
            figures.nodes.push(answer.nodes as f64);
            if answer.verdict != Verdict::Win {
                unsolved += 1;
                println!("{}: {:?} within the budget", entry.id(), answer.verdict);
            }
            let answers = entry.answer_points();
            let start = Instant::now();
            let judged = judge(&problem, &answers[..answers.len().min(1)]);
            figures.judge_ms.push(start.elapsed().as_secs_f64() * 1e3);
            if let Err(e) = judged {
                println!("{}: the judge refused the answer: {e}", entry.id());
            }
            let start = Instant::now();
            let _tree = solution(&problem, &answers);
            figures.tree_ms.push(start.elapsed().as_secs_f64() * 1e3);
        }
        figures.print(set.slug);
        all.extend(figures);
    }
    anyhow::ensure!(!all.nodes.is_empty(), "no such set");
    all.print("all");
    if args.set.is_none() {
        unsolved += proverb_claims();
    }
    Ok(if unsolved == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Solves every claim of the proverbs' diagrams, prints the spread and the
/// slowest claim, and returns how many the solver did not confirm.
fn proverb_claims() -> usize {
    let mut ms = Vec::new();
    let mut nodes = Vec::new();
    let mut slowest = (0.0, String::new());
    let mut wrong = 0;
    for proverb in proverbs() {
        for diagram in &proverb.diagrams {
            for claim in &diagram.claims {
                let start = Instant::now();
                let answer = solve_for(&diagram.problem(), claim.mover, CLAIM_BUDGET);
                let took = start.elapsed().as_secs_f64() * 1e3;
                if answer.verdict != claim.verdict {
                    wrong += 1;
                    println!(
                        "{} ({}), {:?} first: claimed {:?}, solved {:?}",
                        proverb.slug,
                        diagram.caption_en,
                        claim.mover,
                        claim.verdict,
                        answer.verdict
                    );
                }
                if took > slowest.0 {
                    slowest = (took, format!("{}: {}", proverb.slug, diagram.caption_en));
                }
                ms.push(took);
                nodes.push(answer.nodes as f64);
            }
        }
    }
    println!(
        "proverbs: {} claims; solve {} ms, {} nodes (median / slowest); slowest: {}",
        ms.len(),
        spread(&ms, 1),
        spread(&nodes, 0),
        slowest.1,
    );
    wrong
}

/// One set's measurements.
#[derive(Default)]
struct Figures {
    solve_ms: Vec<f64>,
    nodes: Vec<f64>,
    judge_ms: Vec<f64>,
    tree_ms: Vec<f64>,
}

impl Figures {
    fn extend(&mut self, other: Figures) {
        self.solve_ms.extend(other.solve_ms);
        self.nodes.extend(other.nodes);
        self.judge_ms.extend(other.judge_ms);
        self.tree_ms.extend(other.tree_ms);
    }

    fn print(&self, what: &str) {
        println!(
            "{what}: {} problems; solve {} ms, {} nodes; judge a right first move {} ms; solution tree {} ms (median / slowest)",
            self.nodes.len(),
            spread(&self.solve_ms, 1),
            spread(&self.nodes, 0),
            spread(&self.judge_ms, 1),
            spread(&self.tree_ms, 1),
        );
    }
}

/// "median / slowest".
fn spread(values: &[f64], decimals: usize) -> String {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    match (sorted.get(sorted.len() / 2), sorted.last()) {
        (Some(median), Some(max)) => format!("{median:.decimals$} / {max:.decimals$}"),
        _ => "-".to_owned(),
    }
}
