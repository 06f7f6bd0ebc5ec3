//! The level points (级别积分) of an online chess room, as the rules pages
//! quote them (docs/spec/competition.md, "Other"): levels 30 to 1 above the
//! unlevelled, 100 points a level, and points passing from the loser to the
//! winner by the difference between them. What the winner gains the loser
//! gives up; in a draw the lower player gains what the higher gives up.
//!
//! | result | difference < 10 | 10–99 | 100–199 | 200 and more |
//! |---|---|---|---|---|
//! | the lower wins | 10 | 10 + d/10 | d/2 | d/2 |
//! | the higher wins | 10 | 10 − d/12.5 | 2 | 0 |
//! | a draw (to the lower) | 0 | (10 + d/10)/2 | d/4 | d/4 |

use shoutan_rules::Color;

use crate::{Outcome, Tournament, Value};

/// The points that pass in one game between players holding `black` and
/// `white` points, from Black's side: what Black gains (negative: gives
/// up). A result without a game passes nothing.
///
/// ```
/// use shoutan_rules::Color;
/// use shoutan_tournament::{Outcome, Value, level_points};
/// // 1,500 beats 1,540: the lower wins by a difference of 40, 10 + 4.
/// let gain = level_points::exchange(Value::int(1500), Value::int(1540), Outcome::Win(Color::Black));
/// assert_eq!(gain, Value::int(14));
/// ```
#[must_use]
pub fn exchange(black: Value, white: Value, outcome: Outcome) -> Value {
    let d = if black > white {
        black - white
    } else {
        white - black
    };
    let black_lower = black < white;
    match outcome {
        Outcome::Win(winner) => {
            let winner_lower = (winner == Color::Black) == black_lower && d != Value::ZERO;
            let gain = if winner_lower {
                lower_wins(d)
            } else {
                higher_wins(d)
            };
            if winner == Color::Black { gain } else { -gain }
        }
        Outcome::Draw => {
            let gain = draw(d);
            if black_lower { gain } else { -gain }
        }
        _ => Value::ZERO,
    }
}

fn lower_wins(d: Value) -> Value {
    if d < Value::int(10) {
        Value::int(10)
    } else if d < Value::int(100) {
        Value::int(10) + d.div_int(10)
    } else {
        d.div_int(2)
    }
}

fn higher_wins(d: Value) -> Value {
    if d < Value::int(10) {
        Value::int(10)
    } else if d < Value::int(100) {
        // 10 − d/12.5 = 10 − 2d/25.
        Value::int(10) - d.mul_int(2).div_int(25)
    } else if d < Value::int(200) {
        Value::int(2)
    } else {
        Value::ZERO
    }
}

fn draw(d: Value) -> Value {
    if d < Value::int(10) {
        Value::ZERO
    } else if d < Value::int(100) {
        (Value::int(10) + d.div_int(10)).div_int(2)
    } else {
        d.div_int(4)
    }
}

/// The level of a player with `points`: 30 (100 points) up to 1 (3,000 and
/// more); `None` below 100, the unlevelled.
#[must_use]
pub fn level(points: Value) -> Option<u8> {
    let hundreds = (points.to_f64() / 100.0).floor();
    (hundreds >= 1.0).then(|| (31.0 - hundreds).max(1.0) as u8)
}

/// Every player's level points after the event's games, round by round,
/// starting from the player's rating (0 without one). A round's games all
/// count from the points held when the round began, as they are played
/// side by side.
#[must_use]
pub fn after_event(t: &Tournament) -> Vec<Value> {
    let mut points: Vec<Value> = t
        .players()
        .iter()
        .map(|p| Value::int(p.rating.map_or(0, i64::from)))
        .collect();
    for round in t.rounds() {
        let before = points.clone();
        for g in &round.games {
            let Some(outcome) = g.outcome else { continue };
            let (b, w) = (g.black.index(), g.white.index());
            let gain = exchange(before[b], before[w], outcome);
            points[b] += gain;
            points[w] = points[w] - gain;
        }
    }
    points
}

#[cfg(test)]
mod tests {
    use super::*;

    fn win(black: i64, white: i64) -> Value {
        exchange(
            Value::int(black),
            Value::int(white),
            Outcome::Win(Color::Black),
        )
    }

    /// Each band of the table, for the winner holding black.
    #[test]
    fn the_table_band_by_band() {
        // The lower wins.
        assert_eq!(win(1000, 1005), Value::int(10));
        assert_eq!(win(1000, 1050), Value::int(15));
        assert_eq!(win(1000, 1300), Value::int(150));
        // The higher wins.
        assert_eq!(win(1005, 1000), Value::int(10));
        assert_eq!(win(1050, 1000), Value::int(6));
        assert_eq!(win(1150, 1000), Value::int(2));
        assert_eq!(win(1300, 1000), Value::ZERO);
        // Equal points: 10 either way.
        assert_eq!(win(1000, 1000), Value::int(10));
        // A draw moves points to the lower only past a difference of 10.
        let draw = |b, w| exchange(Value::int(b), Value::int(w), Outcome::Draw);
        assert_eq!(draw(1000, 1005), Value::ZERO);
        assert_eq!(draw(1000, 1050), Value::ratio(15, 2));
        assert_eq!(draw(1050, 1000), Value::ratio(-15, 2));
        assert_eq!(draw(1000, 1400), Value::int(100));
    }

    /// What one gains the other gives up, whichever colour wins.
    #[test]
    fn the_loser_gives_what_the_winner_gains() {
        for (b, w) in [(1000, 1040), (1200, 1000), (700, 1500)] {
            let (b, w) = (Value::int(b), Value::int(w));
            let black_wins = exchange(b, w, Outcome::Win(Color::Black));
            let white_wins = exchange(w, b, Outcome::Win(Color::White));
            assert_eq!(black_wins, -white_wins);
        }
        assert_eq!(
            exchange(
                Value::int(900),
                Value::int(1000),
                Outcome::Forfeit(Color::Black)
            ),
            Value::ZERO
        );
    }

    #[test]
    fn levels_by_the_hundred() {
        assert_eq!(level(Value::int(99)), None);
        assert_eq!(level(Value::int(100)), Some(30));
        assert_eq!(level(Value::int(1550)), Some(16));
        assert_eq!(level(Value::int(3000)), Some(1));
        assert_eq!(level(Value::int(5000)), Some(1));
    }
}
