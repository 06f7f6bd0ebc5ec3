//! Problems (死活题): each player's first try of each problem and the
//! ratings first tries move. Only the first try counts, as on Fox and
//! 101weiqi: tries after it (or after the answer was seen) are practice.

use crate::{Rating, StoreError, UserId};

/// A rating and how many first tries moved it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProblemRating {
    /// The Glicko-2 rating.
    pub rating: Rating,
    /// First tries counted.
    pub tries: i64,
    /// Of them, solved (for a problem; for a player, the ones he solved).
    pub solved: i64,
}

/// How a first try moves both ratings: given the player's and the
/// problem's ratings before (or the starting ones, for a first try of
/// either), their ratings after. The store calls it inside the write, so
/// that two tries at once each see the other's result.
pub type Rate = Box<dyn FnOnce(Rating, Rating) -> (Rating, Rating) + Send>;

/// A first try to record.
pub struct NewProblemTry {
    /// Who tried.
    pub user: UserId,
    /// The problem's id ("set/number").
    pub problem: String,
    /// Whether it was solved.
    pub solved: bool,
    /// When (ms since the Unix epoch).
    pub at: i64,
    /// The player's rating if he has none yet.
    pub player_start: Rating,
    /// The problem's rating if it has none yet.
    pub problem_start: Rating,
    /// The ratings after the try.
    pub rate: Rate,
}

/// What the server keeps of problems. Each method does all it says or
/// returns an error and writes nothing.
#[async_trait::async_trait]
pub trait ProblemStore: Send + Sync {
    /// The player's first tries: each problem's id and whether he solved it.
    async fn problem_tries(&self, user: UserId) -> Result<Vec<(String, bool)>, StoreError>;
    /// The player's first try of `problem`, if he tried it: whether he
    /// solved it.
    async fn problem_try(&self, user: UserId, problem: &str) -> Result<Option<bool>, StoreError>;
    /// The player's problem rating, once he has one.
    async fn solver_rating(&self, user: UserId) -> Result<Option<ProblemRating>, StoreError>;
    /// Every problem's rating, by id, for the problems someone has tried.
    async fn problem_ratings(&self) -> Result<Vec<(String, ProblemRating)>, StoreError>;
    /// A problem's rating, once someone has tried it.
    async fn problem_rating(&self, problem: &str) -> Result<Option<ProblemRating>, StoreError>;
    /// Records a first try and moves both ratings: the player's rating
    /// before and after it, or `None` (and nothing written) if he has
    /// tried the problem before.
    async fn record_problem_try(
        &self,
        t: NewProblemTry,
    ) -> Result<Option<(Rating, Rating)>, StoreError>;
}
