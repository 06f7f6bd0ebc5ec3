//! Knockout (淘汰制). Single elimination is a fixed seeded bracket with byes
//! to the top seeds. Double and multi-elimination pair entrants with the
//! same number of losses (no rematch while avoidable); the last two left
//! meet in the final, and when the finalist from the losers' side wins it,
//! both have one loss left and the final is played again (the bracket
//! reset). An entrant with no partner in its group rests, top seed first.

use crate::history::History;
use crate::pairing::{Draft, bye, decided, pair_or_forfeit, seed_order};
use crate::{Tournament, TournamentError};

/// Bracket positions of seeds (0-based) for a bracket of `size` (a power of
/// two): 1–8, 4–5, 2–7, 3–6 for eight, so the top seeds meet last.
pub(crate) fn bracket_order(size: usize) -> Vec<usize> {
    let mut order = vec![0];
    while order.len() < size {
        let next = order.len() * 2;
        order = order.iter().flat_map(|&s| [s, next - 1 - s]).collect();
    }
    order
}

fn fixed_draw(t: &Tournament, number: u32, draft: &mut Draft) -> Vec<u32> {
    if t.draw().is_empty() {
        let v: Vec<u32> = seed_order(t, number)
            .into_iter()
            .map(|i| i as u32)
            .collect();
        draft.draw = Some(v.clone());
        v
    } else {
        t.draw().to_vec()
    }
}

pub(crate) fn draft_bracket(t: &Tournament, number: u32) -> Result<Draft, TournamentError> {
    let mut draft = Draft::default();
    let draw = fixed_draw(t, number, &mut draft);
    if draw.len() < 2 {
        return Err(TournamentError::FieldSize {
            count: draw.len(),
            why: "a knockout needs at least two entrants",
        });
    }
    let history = t.history(number - 1);
    let size = draw.len().next_power_of_two();
    let mut slots: Vec<Option<usize>> = bracket_order(size)
        .into_iter()
        .map(|s| draw.get(s).map(|&i| i as usize))
        .collect();
    // Play the bracket forward through the rounds already paired.
    for round in 1..number {
        slots = slots
            .chunks(2)
            .map(|pair| advance(t, &history, round, pair[0], pair[1]))
            .collect::<Result<_, _>>()?;
    }
    if slots.len() == 1 {
        let champion = slots[0].map_or_else(
            || "no winner".to_owned(),
            |i| t.entrant_name(t.entrant(i)).to_owned(),
        );
        return Err(TournamentError::Finished(format!(
            "{champion} won the knockout"
        )));
    }
    for pair in slots.chunks(2) {
        match (pair[0], pair[1]) {
            (Some(a), Some(b)) => {
                let table = draft.pairs.len() as u32 + 1;
                draft
                    .pairs
                    .push(pair_or_forfeit(t, &history, number, table, a, b));
            }
            (Some(a), None) | (None, Some(a)) => draft.byes.push(bye(t, a, 0)),
            (None, None) => {}
        }
    }
    Ok(draft)
}

/// Who comes out of a bracket slot pair after `round`.
fn advance(
    t: &Tournament,
    history: &History,
    round: u32,
    a: Option<usize>,
    b: Option<usize>,
) -> Result<Option<usize>, TournamentError> {
    Ok(match (a, b) {
        (Some(a), Some(b)) => match decided(t, history, a, round)? {
            Some(true) => Some(a),
            Some(false) => match decided(t, history, b, round)? {
                Some(true) => Some(b),
                _ => None,
            },
            None => None,
        },
        (Some(x), None) | (None, Some(x)) => Some(x),
        (None, None) => None,
    })
}

pub(crate) fn draft_multi(
    t: &Tournament,
    number: u32,
    losses: u8,
) -> Result<Draft, TournamentError> {
    let mut draft = Draft::default();
    let draw = fixed_draw(t, number, &mut draft);
    let history = t.history(number - 1);
    if number > 1 {
        for &i in &draw {
            // Every game of the last round must have a winner.
            decided(t, &history, i as usize, number - 1)?;
        }
    }
    let alive: Vec<usize> = draw
        .iter()
        .map(|&i| i as usize)
        .filter(|&i| history.losses(i) < usize::from(losses))
        .collect();
    if alive.len() < 2 {
        let champion = alive.first().map_or_else(
            || "no winner".to_owned(),
            |&i| t.entrant_name(t.entrant(i)).to_owned(),
        );
        if number == 1 {
            return Err(TournamentError::FieldSize {
                count: alive.len(),
                why: "a knockout needs at least two entrants",
            });
        }
        return Err(TournamentError::Finished(format!(
            "{champion} won the knockout"
        )));
    }
    // Groups by losses, fewest first; seed order inside.
    let mut groups: Vec<Vec<usize>> = Vec::new();
    if alive.len() == 2 {
        groups.push(alive);
    } else {
        for l in 0..usize::from(losses) {
            let g: Vec<usize> = alive
                .iter()
                .copied()
                .filter(|&i| history.losses(i) == l)
                .collect();
            if !g.is_empty() {
                groups.push(g);
            }
        }
    }
    for mut group in groups {
        if group.len() % 2 == 1 {
            // Rest: fewest rests so far, then top seed.
            let rest = *group
                .iter()
                .min_by_key(|&&i| (history.byes(i), draw.iter().position(|&d| d as usize == i)))
                .unwrap_or(&group[0]);
            draft.byes.push(bye(t, rest, 0));
            group.retain(|&i| i != rest);
        }
        // Fold: top seed against the lowest it has not met.
        while let Some(a) = group.first().copied() {
            group.remove(0);
            let pick = group
                .iter()
                .rposition(|&b| !history.met(a).any(|m| m == b))
                .unwrap_or(group.len() - 1);
            let b = group.remove(pick);
            let table = draft.pairs.len() as u32 + 1;
            draft
                .pairs
                .push(pair_or_forfeit(t, &history, number, table, a, b));
        }
    }
    Ok(draft)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bracket_keeps_top_seeds_apart() {
        assert_eq!(bracket_order(2), vec![0, 1]);
        assert_eq!(bracket_order(4), vec![0, 3, 1, 2]);
        assert_eq!(bracket_order(8), vec![0, 7, 3, 4, 1, 6, 2, 5]);
    }
}
