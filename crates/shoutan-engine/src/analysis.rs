//! What a search found: the candidate moves with their visits, winrates and
//! principal variations, the winrate and score of the position, and who
//! owns each point — what GTP analysis, a review screen and the dead-stone
//! estimator read.

use std::time::Duration;

use shoutan_rules::{BoardSize, Color, Move, Point};

/// One candidate move at the root.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveInfo {
    /// The move.
    pub mv: Move,
    /// Searches through it.
    pub visits: u32,
    /// Its winrate for the player to move, 0 to 1.
    pub winrate: f32,
    /// How natural it looked before searching: the network's policy, 0 to 1.
    pub prior: f32,
    /// A lower confidence bound of the winrate (about 95 %).
    pub lcb: f32,
    /// The player's lead in points after it.
    pub score_lead: f32,
    /// The player's expected score in self-play after it, and its
    /// standard deviation.
    pub score_mean: f32,
    /// How far the final score may stray from `score_mean`.
    pub score_stdev: f32,
    /// The search's utility of it for the player: win/loss plus a little
    /// for the score (KataGo's).
    pub utility: f32,
    /// A lower confidence bound of the utility (five standard errors).
    pub utility_lcb: f32,
    /// The expected continuation, this move first.
    pub pv: Vec<Move>,
}

/// A search's view of a position.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// The board size.
    pub size: BoardSize,
    /// The player the search was for.
    pub to_move: Color,
    /// Searches through the root, those kept from earlier moves included.
    pub visits: u32,
    /// Visits made by this search (those kept from earlier moves not
    /// counted): network evaluations and finished games reached.
    pub searched: u64,
    /// How long it ran.
    pub elapsed: Duration,
    /// The winrate of the best move for `to_move`.
    pub winrate: f32,
    /// The lead of `to_move` in points (komi included) after the best
    /// move: the score estimate.
    pub score_lead: f32,
    /// Candidates, most searched first.
    pub moves: Vec<MoveInfo>,
    /// Ownership of each point row by row from the top left: +1 black's,
    /// −1 white's, near 0 shared or undecided (the network's, averaged
    /// over every position the search evaluated).
    pub ownership: Vec<f32>,
}

impl Analysis {
    /// Visits per second of this search.
    #[must_use]
    pub fn visits_per_second(&self) -> f64 {
        let secs = self.elapsed.as_secs_f64();
        if secs > 0.0 {
            self.searched as f64 / secs
        } else {
            0.0
        }
    }

    /// The ownership of `p`: +1 black's, −1 white's.
    #[must_use]
    pub fn ownership_at(&self, p: Point) -> f32 {
        self.ownership
            .get(self.size.offset(p))
            .copied()
            .unwrap_or(0.0)
    }

    /// The score estimate from black's side, in points.
    #[must_use]
    pub fn black_lead(&self) -> f32 {
        match self.to_move {
            Color::Black => self.score_lead,
            Color::White => -self.score_lead,
        }
    }
}

/// A lower confidence bound of a winrate `w` over `n` visits.
#[must_use]
pub(crate) fn lower_bound(w: f32, n: u32) -> f32 {
    if n == 0 {
        return 0.0;
    }
    let n = n as f32;
    (w - 1.96 * (w * (1.0 - w) / n).sqrt()).max(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bound_tightens_with_visits() {
        let few = lower_bound(0.6, 10);
        let many = lower_bound(0.6, 1000);
        assert!(few < many && many < 0.6, "{few} {many}");
        assert_eq!(lower_bound(0.6, 0), 0.0);
    }
}
