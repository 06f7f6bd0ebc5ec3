//! Problems to practise (死活题) over HTTP: the sets with a player's
//! progress, a problem's position, a try judged move by move, the
//! solution and a hint; a logged-in player's first try of each problem is
//! recorded with the ratings it moves (see [`crate::problems`]).

use std::collections::HashMap;

use axum::Json;
use axum::extract::{Path, State};
use serde::{Deserialize, Serialize};
use shoutan_problems::{Entry, Grade, Judgement, ProblemSet, Variation, library};
use shoutan_rules::{BoardSize, Color, Point, PointSet};
use shoutan_solver::Goal;
use shoutan_store::{ProblemRating, Rating, User};

use super::accounts::limited;
use super::judgement::point;
use crate::AppState;
use crate::accounts::session::Visitor;
use crate::error::{ApiError, ErrorCode};
use crate::extract::Body;
use crate::net::client::ClientAddress;
use crate::net::connections::AddressKey;
use crate::problems::{problem_start, record_try};
use crate::rating::rank_of;

/// A name in both languages.
#[derive(Serialize)]
pub struct Name {
    zh: &'static str,
    en: &'static str,
}

/// A player's problem rating as shown.
#[derive(Serialize)]
pub struct SolverRating {
    rating: f64,
    rank: String,
    attempts: i64,
}

/// One set in `GET /api/problems`.
#[derive(Serialize)]
pub struct SetSummary {
    id: &'static str,
    name: Name,
    grade: Grade,
    source: &'static str,
    count: usize,
    solved: usize,
    failed: usize,
}

/// `GET /api/problems`.
#[derive(Serialize)]
pub struct SetList {
    sets: Vec<SetSummary>,
    rating: Option<SolverRating>,
}

/// A problem in `GET /api/problems/{set}`.
#[derive(Serialize)]
pub struct ProblemSummary {
    number: u32,
    title: Option<String>,
    rank: String,
    status: Status,
}

/// `GET /api/problems/{set}`.
#[derive(Serialize)]
pub struct SetView {
    id: &'static str,
    name: Name,
    grade: Grade,
    source: &'static str,
    problems: Vec<ProblemSummary>,
}

/// Where a player stands with a problem.
#[derive(Clone, Copy, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Not tried (or not logged in).
    New,
    /// Solved at the first try.
    Solved,
    /// Failed at the first try (a wrong move, a hint or the answer seen).
    Failed,
}

/// The rectangle of the board that matters.
#[derive(Serialize)]
pub struct View {
    from: String,
    to: String,
}

/// `GET /api/problems/{set}/{n}`.
#[derive(Serialize)]
pub struct ProblemView {
    set: &'static str,
    number: u32,
    count: usize,
    title: Option<String>,
    size: u8,
    black: Vec<String>,
    white: Vec<String>,
    to_move: &'static str,
    goal: &'static str,
    target: String,
    view: Option<View>,
    rank: String,
    attempts: i64,
    solved_share: Option<f64>,
    status: Status,
}

/// `POST /api/problems/{set}/{n}/moves` body.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TryIn {
    /// The try's line so far, alternating from the player to move, the
    /// last being the player's newest move (GTP notation).
    moves: Vec<String>,
}

/// A first try recorded.
#[derive(Serialize)]
pub struct Recorded {
    status: Status,
    rating: RatingChange,
}

/// A rating before and after.
#[derive(Serialize)]
pub struct RatingChange {
    before: f64,
    after: f64,
    rank: String,
}

/// `POST /api/problems/{set}/{n}/moves`.
#[derive(Serialize)]
pub struct TryOut {
    correct: bool,
    reply: Option<String>,
    solved: bool,
    recorded: Option<Recorded>,
}

/// `POST /api/problems/{set}/{n}/solution`.
#[derive(Serialize)]
pub struct SolutionOut {
    tree: Vec<Variation>,
}

/// `POST /api/problems/{set}/{n}/hint`.
#[derive(Serialize)]
pub struct HintOut {
    area: Vec<String>,
}

/// `GET /api/problems`: the sets, with the player's progress and problem
/// rating when logged in.
pub async fn sets(
    State(app): State<AppState>,
    Visitor(user): Visitor,
) -> Result<Json<SetList>, ApiError> {
    let tries = tries_of(&app, user.as_ref()).await?;
    let count = |set: &ProblemSet, solved: bool| {
        set.problems
            .iter()
            .filter(|e| tries.get(&e.id()) == Some(&solved))
            .count()
    };
    let sets = library()
        .iter()
        .map(|set| SetSummary {
            id: set.slug,
            name: name(set),
            grade: set.grade,
            source: set.source,
            count: set.problems.len(),
            solved: count(set, true),
            failed: count(set, false),
        })
        .collect();
    let rating = match &user {
        Some(u) => app.store.solver_rating(u.id).await?.map(solver_rating),
        None => None,
    };
    Ok(Json(SetList { sets, rating }))
}

/// `GET /api/problems/{set}`: the set's problems, each with its rank and
/// the player's status.
pub async fn set(
    State(app): State<AppState>,
    Visitor(user): Visitor,
    Path(slug): Path<String>,
) -> Result<Json<SetView>, ApiError> {
    let set = find_set(&slug)?;
    let tries = tries_of(&app, user.as_ref()).await?;
    let ratings: HashMap<String, ProblemRating> =
        app.store.problem_ratings().await?.into_iter().collect();
    let problems = set
        .problems
        .iter()
        .map(|e| {
            let id = e.id();
            ProblemSummary {
                number: e.number,
                title: e.title.clone(),
                rank: rank_text(
                    ratings
                        .get(&id)
                        .map_or(problem_start(set.grade), |r| r.rating),
                ),
                status: status(tries.get(&id).copied()),
            }
        })
        .collect();
    Ok(Json(SetView {
        id: set.slug,
        name: name(set),
        grade: set.grade,
        source: set.source,
        problems,
    }))
}

/// `GET /api/problems/{set}/{n}`: the problem's position and aim, its
/// rank and how often it is solved, and the player's status.
pub async fn problem(
    State(app): State<AppState>,
    Visitor(user): Visitor,
    Path((slug, number)): Path<(String, String)>,
) -> Result<Json<ProblemView>, ApiError> {
    let (set, entry) = find(&slug, &number)?;
    let size = entry.board.size();
    let stones = |c: Color| {
        size.points()
            .filter(|&p| entry.board.get(p) == Some(c))
            .map(|p| p.to_gtp(size))
            .collect()
    };
    let rating = app.store.problem_rating(&entry.id()).await?;
    let status = match &user {
        Some(u) => status(first_try(&app, u, entry).await?),
        None => Status::New,
    };
    Ok(Json(ProblemView {
        set: set.slug,
        number: entry.number,
        count: set.problems.len(),
        title: entry.title.clone(),
        size: size.get(),
        black: stones(Color::Black),
        white: stones(Color::White),
        to_move: entry.to_move.name(),
        goal: match entry.goal() {
            Goal::Kill => "kill",
            Goal::Live => "live",
        },
        target: entry.target.to_gtp(size),
        view: entry.view.as_ref().map(|v| view(v, size)),
        rank: rank_text(rating.map_or(problem_start(set.grade), |r| r.rating)),
        attempts: rating.map_or(0, |r| r.tries),
        solved_share: rating
            .filter(|r| r.tries > 0)
            .map(|r| r.solved as f64 / r.tries as f64),
        status,
    }))
}

/// `POST /api/problems/{set}/{n}/moves`: judges the player's newest move
/// of a try; a logged-in player's first try is recorded when it ends. Each
/// client address has its budget of moves a minute.
pub async fn play(
    State(app): State<AppState>,
    Visitor(user): Visitor,
    ClientAddress(address): ClientAddress,
    Path((slug, number)): Path<(String, String)>,
    Body(asked): Body<TryIn>,
) -> Result<Json<TryOut>, ApiError> {
    limited(&app.problem_moves_per_address, AddressKey::of(address))?;
    let (set, entry) = find(&slug, &number)?;
    let size = entry.board.size();
    let line = asked
        .moves
        .iter()
        .map(|m| point(m, size))
        .collect::<Result<Vec<Point>, _>>()?;
    let judged = app.problems.judge(entry, line).await?;
    let (correct, reply) = match judged {
        Judgement::Right { reply } => (true, reply),
        Judgement::Wrong { refutation } => (false, refutation),
    };
    let recorded = match (&user, judged.ends()) {
        (Some(u), true) => record(&app, u, set.grade, entry, correct).await?,
        _ => None,
    };
    Ok(Json(TryOut {
        correct,
        reply: reply.map(|p| p.to_gtp(size)),
        solved: correct && reply.is_none(),
        recorded,
    }))
}

/// `POST /api/problems/{set}/{n}/solution`: the solution tree. Seeing it
/// before a first try has ended makes that try a failure.
pub async fn show_solution(
    State(app): State<AppState>,
    Visitor(user): Visitor,
    Path((slug, number)): Path<(String, String)>,
) -> Result<Json<SolutionOut>, ApiError> {
    let (set, entry) = find(&slug, &number)?;
    let tree = app.problems.solution(entry).await?;
    if let Some(u) = &user {
        record(&app, u, set.grade, entry, false).await?;
    }
    Ok(Json(SolutionOut {
        tree: tree.as_ref().clone(),
    }))
}

/// `POST /api/problems/{set}/{n}/hint`: the points around a right first
/// move. Taking it makes a first try not yet ended a failure.
pub async fn hint(
    State(app): State<AppState>,
    Visitor(user): Visitor,
    Path((slug, number)): Path<(String, String)>,
) -> Result<Json<HintOut>, ApiError> {
    let (set, entry) = find(&slug, &number)?;
    let size = entry.board.size();
    let problem = entry.problem();
    let Some(&first) = entry.answer_points().first() else {
        return Err(ApiError::internal(format!(
            "problem {} has no answer",
            entry.id()
        )));
    };
    let area = std::iter::once(first)
        .chain(first.neighbors(size))
        .filter(|&p| problem.region().contains(p) && entry.board.get(p).is_none())
        .map(|p| p.to_gtp(size))
        .collect();
    if let Some(u) = &user {
        record(&app, u, set.grade, entry, false).await?;
    }
    Ok(Json(HintOut { area }))
}

/// Records `user`'s first try of `entry` if it is his first.
async fn record(
    app: &AppState,
    user: &User,
    grade: Grade,
    entry: &Entry,
    solved: bool,
) -> Result<Option<Recorded>, ApiError> {
    let at = crate::time::now_millis();
    let changed = record_try(&*app.store, user.id, grade, entry, solved, at).await?;
    Ok(changed.map(|(before, after)| Recorded {
        status: if solved {
            Status::Solved
        } else {
            Status::Failed
        },
        rating: RatingChange {
            before: before.rating,
            after: after.rating,
            rank: rank_text(after),
        },
    }))
}

/// The player's first tries, by problem id (solved or not).
async fn tries_of(app: &AppState, user: Option<&User>) -> Result<HashMap<String, bool>, ApiError> {
    Ok(match user {
        Some(u) => app.store.problem_tries(u.id).await?.into_iter().collect(),
        None => HashMap::new(),
    })
}

/// Whether `user` has tried `entry`, and solved it.
async fn first_try(app: &AppState, user: &User, entry: &Entry) -> Result<Option<bool>, ApiError> {
    Ok(app.store.problem_try(user.id, &entry.id()).await?)
}

fn status(first_try: Option<bool>) -> Status {
    match first_try {
        None => Status::New,
        Some(true) => Status::Solved,
        Some(false) => Status::Failed,
    }
}

fn solver_rating(r: ProblemRating) -> SolverRating {
    SolverRating {
        rating: r.rating.rating,
        rank: rank_text(r.rating),
        attempts: r.tries,
    }
}

fn rank_text(r: Rating) -> String {
    rank_of(r.rating).to_string()
}

fn name(set: &ProblemSet) -> Name {
    Name {
        zh: set.name_zh,
        en: set.name_en,
    }
}

fn find_set(slug: &str) -> Result<&'static ProblemSet, ApiError> {
    library()
        .iter()
        .find(|s| s.slug == slug)
        .ok_or_else(|| ApiError::not_found(format!("no problem set {slug:?}")))
}

fn find(slug: &str, number: &str) -> Result<(&'static ProblemSet, &'static Entry), ApiError> {
    let set = find_set(slug)?;
    let n: u32 = number.parse().map_err(|_| {
        ApiError::bad_request(
            ErrorCode::BadId,
            format!("{number:?} is not a problem number"),
        )
    })?;
    let entry = set
        .problems
        .iter()
        .find(|e| e.number == n)
        .ok_or_else(|| ApiError::not_found(format!("set {slug:?} has no problem {n}")))?;
    Ok((set, entry))
}

/// The bounding rectangle of `region`, top-left to bottom-right.
fn view(region: &PointSet, size: BoardSize) -> View {
    let (mut c0, mut c1, mut r0, mut r1) = (u8::MAX, 0, u8::MAX, 0);
    for p in region.iter() {
        c0 = c0.min(p.col());
        c1 = c1.max(p.col());
        r0 = r0.min(p.row());
        r1 = r1.max(p.row());
    }
    let corner = |c, r| size.point(c, r).map(|p| p.to_gtp(size)).unwrap_or_default();
    View {
        from: corner(c0, r0),
        to: corner(c1, r1),
    }
}
