//! The win-stays team relay (擂台赛): two teams, each in its registered
//! order. The winner of a game stays on; the loser is out and the next
//! player of that team comes in. A draw or a both-lose ruling puts both
//! players out. The team whose last player is out loses.

use crate::pairing::{Draft, DraftPair};
use crate::{ColorChoice, ColorRule, PlayerId, PlayerResult, Tournament, TournamentError};

/// Players out of the relay: they lost, drew or were ruled out (a void or
/// unplayed game puts nobody out).
pub(crate) fn players_out(t: &Tournament) -> Vec<bool> {
    let mut out = vec![false; t.players().len()];
    for (_, g) in t.games() {
        if let Some(o) = g.outcome {
            for c in shoutan_rules::Color::ALL {
                let r = o.for_color(c);
                if !r.is_win() && r != PlayerResult::Unplayed && r != PlayerResult::Void {
                    out[g.player(c).index()] = true;
                }
            }
        }
    }
    for p in t.players() {
        if p.withdrawn_from.is_some() {
            out[p.id.index()] = true;
        }
    }
    out
}

pub(crate) fn draft(t: &Tournament, number: u32) -> Result<Draft, TournamentError> {
    if t.teams().len() != 2 {
        return Err(TournamentError::FieldSize {
            count: t.teams().len(),
            why: "a relay is between exactly two teams",
        });
    }
    let out = players_out(t);
    let current: Vec<Option<PlayerId>> = t
        .teams()
        .iter()
        .map(|team| {
            team.members
                .iter()
                .copied()
                .find(|p| !out[p.index()] && t.players()[p.index()].plays_in(number))
        })
        .collect();
    let (Some(a), Some(b)) = (current[0], current[1]) else {
        let verdict = match (current[0], current[1]) {
            (Some(_), None) => format!("{} won the relay", t.teams()[0].name),
            (None, Some(_)) => format!("{} won the relay", t.teams()[1].name),
            _ => "both teams are out".to_owned(),
        };
        return Err(TournamentError::Finished(verdict));
    };
    let (black, white, colors) = if t.settings().colors == ColorRule::Nigiri {
        let (choice, black, white) = t.nigiri(number, 1, a, b);
        (black, white, choice)
    } else {
        // Fewer blacks so far in the relay takes black; the first team's
        // player on ties in odd rounds.
        let blacks = |p: PlayerId| t.games().filter(|(_, g)| g.black == p).count();
        let whites = |p: PlayerId| t.games().filter(|(_, g)| g.white == p).count();
        let (ba, bb) = (
            blacks(a) as i64 - whites(a) as i64,
            blacks(b) as i64 - whites(b) as i64,
        );
        let a_black = if ba != bb { ba < bb } else { number % 2 == 1 };
        if a_black {
            (a, b, ColorChoice::Pairing)
        } else {
            (b, a, ColorChoice::Pairing)
        }
    };
    Ok(Draft {
        pairs: vec![DraftPair {
            black: black.0,
            white: white.0,
            handicap: 0,
            colors,
            preset: None,
        }],
        byes: Vec::new(),
        draw: None,
    })
}
