//! Life-and-death questions from the analysis board ("Is this group
//! alive?", 死活): `shoutan_solver` on a pool of its own — one question at a
//! time, [`QUEUED`] waiting, a quarter of a core while they keep coming —
//! and each held to [`BUDGET`], so that no question takes the cores live
//! games need. A question the budget does not settle is answered
//! `unknown`, never guessed.

use std::time::Duration;

use serde::Serialize;
use shoutan_solver::{Budget, Ko, Problem, Summary, solve};

use crate::blocking::BlockingPool;
use crate::error::ApiError;

/// Questions answered at once.
const WORKERS: usize = 1;
/// Questions that may wait.
pub const QUEUED: usize = 8;
/// The share of a core questions take at most while they keep coming.
const SHARE: f64 = 0.25;
/// What one question may cost, for each side moving first: the proverbs'
/// shapes take tens to thousands of positions, a net tens of thousands.
pub const BUDGET: Budget = Budget {
    nodes: 200_000,
    time: Duration::from_secs(2),
};

/// What a question is answered: the summary `shoutan solve --json` prints,
/// and what the kos in it ask of the sides.
#[derive(Debug, Serialize)]
pub struct Answer {
    /// The verdicts and first moves.
    #[serde(flatten)]
    pub summary: Summary,
    /// When the attacker kills only by a ko: who must find threats, and
    /// how many more than the other side.
    pub kill_ko: Option<Ko>,
    /// When the owner saves the group only by a ko, or keeps it in seki
    /// and could try a ko for life: the same.
    pub live_ko: Option<Ko>,
    /// Whether it is a ten-thousand-year ko (万年劫).
    pub ten_thousand_year_ko: bool,
}

/// The solver's pool.
#[derive(Debug)]
pub struct Solver {
    pool: BlockingPool,
}

impl Default for Solver {
    fn default() -> Solver {
        Solver::new()
    }
}

impl Solver {
    /// No question asked yet.
    #[must_use]
    pub fn new() -> Solver {
        Solver {
            pool: BlockingPool::with_share("solver", WORKERS, QUEUED, SHARE),
        }
    }

    /// Solves `problem` within [`BUDGET`]; `busy` when [`QUEUED`]
    /// questions already wait.
    pub async fn solve(&self, problem: Problem) -> Result<Answer, ApiError> {
        Ok(self
            .pool
            .run(move || {
                let solution = solve(&problem, BUDGET);
                Answer {
                    summary: solution.summary(&problem),
                    kill_ko: solution.of(problem.attacker()).ko,
                    live_ko: solution.of(problem.defender()).ko,
                    ten_thousand_year_ko: solution.is_ten_thousand_year_ko(),
                }
            })
            .await?)
    }
}
