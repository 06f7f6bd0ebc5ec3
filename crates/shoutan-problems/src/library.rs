//! The sets shipped with Shoutan: SGF collections embedded in the binary,
//! described by a table here (the SGF holds positions and answers only),
//! and parsed once, on first use.

use std::sync::LazyLock;
use std::time::Duration;

use shoutan_sgf::read;
use shoutan_solver::Budget;

use crate::{Entry, Grade, ProblemSet};

/// The budget each shipped problem is proved within (by the tests and
/// `shoutan bench problems`): a problem the solver cannot settle in it is
/// not shipped.
pub const PROBLEM_BUDGET: Budget = Budget {
    nodes: 2_000_000,
    time: Duration::from_secs(2),
};

/// Where a set comes from: its description and its SGF collection.
struct Source {
    slug: &'static str,
    name_zh: &'static str,
    name_en: &'static str,
    grade: Grade,
    source: &'static str,
    sgf: &'static str,
}

/// Every problem here was composed for Shoutan, on the classic shapes
/// every player learns (which belong to no one): a dozen drawn by hand,
/// the rest found by a program that searched eye spaces, races and edge
/// positions with the solver, then chosen and graded by hand.
const COMPOSED: &str =
    "Composed for Shoutan (2026): found with the solver's help, chosen and graded by hand";

/// The sets, easiest first.
const SOURCES: &[Source] = &[
    Source {
        slug: "rumen-chizi",
        name_zh: "入门·吃子",
        name_en: "Capturing stones",
        grade: Grade::Entry,
        source: COMPOSED,
        sgf: include_str!("../sets/rumen-chizi.sgf"),
    },
    Source {
        slug: "chuji-yanxing",
        name_zh: "初级·基本眼形",
        name_en: "Basic eye shapes",
        grade: Grade::Elementary,
        source: COMPOSED,
        sgf: include_str!("../sets/chuji-yanxing.sgf"),
    },
    Source {
        slug: "zhongji-sihuo",
        name_zh: "中级·死活",
        name_en: "Intermediate life and death",
        grade: Grade::Intermediate,
        source: COMPOSED,
        sgf: include_str!("../sets/zhongji-sihuo.sgf"),
    },
    Source {
        slug: "zhongji-duisha",
        name_zh: "中级·对杀",
        name_en: "Capturing races",
        grade: Grade::Intermediate,
        source: COMPOSED,
        sgf: include_str!("../sets/zhongji-duisha.sgf"),
    },
    Source {
        slug: "gaoji-sihuo",
        name_zh: "高级·死活",
        name_en: "Advanced life and death",
        grade: Grade::Advanced,
        source: COMPOSED,
        sgf: include_str!("../sets/gaoji-sihuo.sgf"),
    },
    Source {
        slug: "gaoduan-sihuo",
        name_zh: "高段·死活",
        name_en: "Dan-level life and death",
        grade: Grade::Dan,
        source: COMPOSED,
        sgf: include_str!("../sets/gaoduan-sihuo.sgf"),
    },
];

static LIBRARY: LazyLock<Vec<ProblemSet>> = LazyLock::new(|| SOURCES.iter().map(load).collect());

/// Parses one set. The data is ours and tested, so a fault is a bug:
/// panic, naming the set and problem.
fn load(source: &Source) -> ProblemSet {
    let file =
        read(source.sgf.as_bytes()).unwrap_or_else(|e| panic!("problem set {}: {e}", source.slug));
    let problems = file
        .collection
        .games
        .iter()
        .enumerate()
        .map(|(i, tree)| {
            let number = u32::try_from(i + 1).expect("fewer than 2³² problems");
            Entry::read(source.slug, number, tree)
                .unwrap_or_else(|e| panic!("problem {}/{number}: {e}", source.slug))
        })
        .collect();
    ProblemSet {
        slug: source.slug,
        name_zh: source.name_zh,
        name_en: source.name_en,
        grade: source.grade,
        source: source.source,
        problems,
    }
}

/// Every set, easiest first, parsed on the first call.
///
/// # Examples
/// ```
/// use shoutan_problems::{Grade, library};
/// let sets = library();
/// assert_eq!(sets[0].grade, Grade::Entry);
/// assert!(sets.windows(2).all(|w| w[0].grade <= w[1].grade));
/// ```
#[must_use]
pub fn library() -> &'static [ProblemSet] {
    &LIBRARY
}

/// Problem `number` (from 1) of the set `slug`.
///
/// # Examples
/// ```
/// let entry = shoutan_problems::find("rumen-chizi", 2).unwrap();
/// assert_eq!(entry.id(), "rumen-chizi/2");
/// assert!(shoutan_problems::find("rumen-chizi", 0).is_none());
/// assert!(shoutan_problems::find("no-such-set", 1).is_none());
/// ```
#[must_use]
pub fn find(slug: &str, number: u32) -> Option<&'static Entry> {
    library().iter().find(|s| s.slug == slug)?.problem(number)
}
