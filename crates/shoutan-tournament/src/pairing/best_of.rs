//! Best-of-N matches (多局决胜制): two players, games until one has more
//! than half the points available (or every game is played); the first
//! game's colours by nigiri or to the higher seed, then alternating.

use crate::pairing::{Draft, DraftPair, seed_order};
use crate::{ColorChoice, ColorRule, PlayerId, Tournament, TournamentError};

pub(crate) fn draft(t: &Tournament, number: u32, games: u8) -> Result<Draft, TournamentError> {
    let mut draft = Draft::default();
    let draw: Vec<u32> = if t.draw().is_empty() {
        let v: Vec<u32> = seed_order(t, 1).into_iter().map(|i| i as u32).collect();
        draft.draw = Some(v.clone());
        v
    } else {
        t.draw().to_vec()
    };
    if draw.len() != 2 {
        return Err(TournamentError::FieldSize {
            count: draw.len(),
            why: "a match is between exactly two players",
        });
    }
    let history = t.history(number - 1);
    let (a, b) = (draw[0] as usize, draw[1] as usize);
    let (pa, pb) = (history.points(a), history.points(b));
    let available = 2 * u32::from(games);
    if 2 * pa > available || 2 * pb > available || number > u32::from(games) {
        let verdict = match pa.cmp(&pb) {
            std::cmp::Ordering::Greater => format!("{} won the match", t.players()[a].name),
            std::cmp::Ordering::Less => format!("{} won the match", t.players()[b].name),
            std::cmp::Ordering::Equal => "the match is tied".to_owned(),
        };
        return Err(TournamentError::Finished(verdict));
    }
    // Game 1: nigiri or the higher seed takes black; then colours alternate.
    let (first_black, colors) = if number == 1 {
        if t.settings().colors == ColorRule::Nigiri {
            let (choice, black, _) = t.nigiri(1, 1, PlayerId(a as u32), PlayerId(b as u32));
            (black.index(), choice)
        } else {
            (a, ColorChoice::Schedule)
        }
    } else {
        let first = t
            .rounds()
            .first()
            .and_then(|r| r.games.first())
            .map_or(a, |g| g.black.index());
        (first, ColorChoice::Schedule)
    };
    let other = if first_black == a { b } else { a };
    let (black, white) = if number % 2 == 1 {
        (first_black, other)
    } else {
        (other, first_black)
    };
    let plays = |i: usize| t.entrant_plays_in(i, number);
    let preset = match (plays(black), plays(white)) {
        (true, true) => None,
        (true, false) => Some(crate::Outcome::Forfeit(shoutan_rules::Color::Black)),
        (false, true) => Some(crate::Outcome::Forfeit(shoutan_rules::Color::White)),
        (false, false) => Some(crate::Outcome::BothLose),
    };
    draft.pairs.push(DraftPair {
        black: black as u32,
        white: white as u32,
        handicap: 0,
        colors,
        preset,
    });
    Ok(draft)
}
