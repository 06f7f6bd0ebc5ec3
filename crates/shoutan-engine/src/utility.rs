//! What the search maximises, as KataGo defines it: winning first, then
//! a little for the score — a static part (more points are better, with
//! diminishing returns) and a dynamic part centred on the score expected
//! at the start of the search, so the engine keeps playing for points when
//! the game is decided either way. From white's side, like the tree.

use shoutan_nn::Evaluation;

use crate::tree::Value;

/// KataGo's default weights of the parts.
const WIN_LOSS_WEIGHT: f64 = 1.0;
const STATIC_SCORE_WEIGHT: f64 = 0.1;
const DYNAMIC_SCORE_WEIGHT: f64 = 0.3;
/// Scales of the score parts, in units of the board's side.
const STATIC_SCORE_SCALE: f64 = 2.0;
const DYNAMIC_SCORE_SCALE: f64 = 0.75;
/// How much of the dynamic centre is pulled towards zero.
const DYNAMIC_CENTRE_ZERO_WEIGHT: f64 = 0.2;

/// The largest utility either way: a certain win with every point.
pub(crate) const UTILITY_RADIUS: f64 = WIN_LOSS_WEIGHT + STATIC_SCORE_WEIGHT + DYNAMIC_SCORE_WEIGHT;

/// The utility of values for one search: the board's scale and the centre
/// of the dynamic score part.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Utility {
    side: f64,
    centre: f64,
}

impl Utility {
    /// For a board of `area` points whose expected white score at the
    /// root is `root_score`.
    pub(crate) fn new(area: usize, root_score: f64) -> Utility {
        let side = (area as f64).sqrt();
        // Pulled a little towards zero, and never further from the expected
        // score than the dynamic scale.
        let cap = side * DYNAMIC_SCORE_SCALE;
        let centre = (root_score * (1.0 - DYNAMIC_CENTRE_ZERO_WEIGHT))
            .clamp(root_score - cap, root_score + cap);
        Utility { side, centre }
    }

    /// The expected score value `2/π·atan((s − centre)/(scale·side))` for a
    /// score of `mean` and standard deviation `stdev`, by three-point
    /// Gauss–Hermite quadrature over a normal distribution.
    fn score_value(&self, mean: f64, stdev: f64, centre: f64, scale: f64) -> f64 {
        let f = |s: f64| (2.0 / std::f64::consts::PI) * ((s - centre) / (scale * self.side)).atan();
        let spread = 3f64.sqrt() * stdev;
        (2.0 * f(mean) + 0.5 * (f(mean - spread) + f(mean + spread))) / 3.0
    }

    /// The score part of the utility.
    pub(crate) fn of_score(&self, mean: f64, mean_sq: f64) -> f64 {
        let stdev = (mean_sq - mean * mean).max(0.0).sqrt();
        STATIC_SCORE_WEIGHT * self.score_value(mean, stdev, 0.0, STATIC_SCORE_SCALE)
            + DYNAMIC_SCORE_WEIGHT * self.score_value(mean, stdev, self.centre, DYNAMIC_SCORE_SCALE)
    }

    /// The value of a network evaluation.
    pub(crate) fn of_evaluation(&self, e: &Evaluation) -> Value {
        let winloss = f64::from(e.white_win - e.white_loss);
        let score = f64::from(e.white_score);
        let score_sq = f64::from(e.white_score_sq);
        Value {
            winloss,
            score,
            score_sq,
            lead: f64::from(e.white_lead),
            utility: WIN_LOSS_WEIGHT * winloss + self.of_score(score, score_sq),
        }
    }

    /// The value of a finished game that white wins by `score` points.
    pub(crate) fn of_final_score(&self, score: f64) -> Value {
        let winloss = if score > 0.0 {
            1.0
        } else if score < 0.0 {
            -1.0
        } else {
            0.0
        };
        Value {
            winloss,
            score,
            score_sq: score * score,
            lead: score,
            utility: WIN_LOSS_WEIGHT * winloss + self.of_score(score, score * score),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn winning_outweighs_any_score_and_more_points_are_better() {
        let u = Utility::new(361, 0.0);
        let narrow_win = u.of_final_score(0.5).utility;
        let big_loss = u.of_final_score(-80.0).utility;
        let big_win = u.of_final_score(80.0).utility;
        assert!(narrow_win > 0.0 && big_loss < 0.0);
        assert!(big_win > narrow_win);
        assert!(big_win < UTILITY_RADIUS && big_loss > -UTILITY_RADIUS);
        assert!(u.of_final_score(-0.5).utility > big_loss);
    }

    #[test]
    fn uncertainty_flattens_the_score_value() {
        let u = Utility::new(361, 0.0);
        let sure = u.of_score(30.0, 900.0);
        let unsure = u.of_score(30.0, 900.0 + 40.0 * 40.0);
        assert!(unsure < sure, "{unsure} {sure}");
    }
}
