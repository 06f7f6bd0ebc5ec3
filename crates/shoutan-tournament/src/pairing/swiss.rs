//! Swiss (积分编排制), Swiss with elimination (积分编排加淘汰) and McMahon
//! rounds: who is paired, who gets the bye, then one matching over the
//! field ([`super::weights`]), then colours and handicaps.

use std::collections::HashMap;

use crate::history::{Entry, History};
use crate::mcmahon;
use crate::pairing::weights::{self, Rules, Seat};
use crate::pairing::{Draft, DraftPair, bye, even_colors, gotha, seed_order};
use crate::standings::{Standings, pairing_order};
use crate::{
    ColorChoice, HandicapBasis, PairingModel, PlayerId, System, Tournament, TournamentError,
};

pub(crate) fn draft(t: &Tournament, number: u32) -> Result<Draft, TournamentError> {
    let planned = t.settings().rounds.unwrap_or(0);
    if number > planned {
        return Err(TournamentError::Finished(format!(
            "all {planned} rounds are paired"
        )));
    }
    let history = t.history(number - 1);
    let order = seed_order(t, number);
    let mut field: Vec<usize> = order.clone();
    if let System::SwissElimination { losses } = t.settings().system {
        field = still_in(t, &history, number, &field, usize::from(losses));
    }
    if field.len() < 2 {
        return Err(TournamentError::FieldSize {
            count: field.len(),
            why: "a round needs at least two entrants",
        });
    }
    if field.len() > crate::MAX_FIELD {
        return Err(TournamentError::FieldSize {
            count: field.len(),
            why: "more than 20,000 entrants in one field",
        });
    }
    let mcmahon = match t.settings().system {
        System::McMahon(m) => Some(m),
        _ => None,
    };
    let before = score_before(t, &history, mcmahon);
    let scores: Vec<i64> = (0..t.entrant_count())
        .map(|i| match mcmahon {
            Some(m) => mcmahon::mms_half(t, &history, m, i, number - 1),
            None => i64::from(history.points(i)),
        })
        .collect();
    let score = |i: usize| scores[i];
    let place: HashMap<usize, u32> = order
        .iter()
        .enumerate()
        .map(|(k, &i)| (i, k as u32))
        .collect();
    let mut draft = Draft::default();
    // OpenGotha's own pairing for individual Swiss and McMahon events that
    // ask for it.
    let gotha = t.settings().pairing_model == PairingModel::OpenGotha
        && !t.entrants_are_teams()
        && matches!(t.settings().system, System::Swiss | System::McMahon(_));
    if field.len() % 2 == 1 {
        let previous: HashMap<usize, u32> = pairing_order(t, number - 1)
            .into_iter()
            .enumerate()
            .map(|(k, i)| (i, k as u32))
            .collect();
        let bye_score = |i: usize| {
            if gotha {
                gotha::mms2(t, &history, i, number - 1)
            } else {
                score(i)
            }
        };
        let out = bye_receiver(
            t,
            &history,
            &field,
            &bye_score,
            &previous,
            mcmahon.is_some() || gotha,
        );
        draft.byes.push(bye(t, out, t.settings().bye_points));
        field.retain(|&i| i != out);
    }
    if gotha {
        // OpenGotha reads the field in the order of the previous standings.
        let previous: HashMap<usize, usize> = pairing_order(t, number - 1)
            .into_iter()
            .enumerate()
            .map(|(k, i)| (i, k))
            .collect();
        field.sort_by_key(|i| previous.get(i));
        draft.pairs =
            gotha::pair(t, &history, number, &field).ok_or(TournamentError::FieldSize {
                count: field.len(),
                why: "no pairing exists",
            })?;
        return Ok(draft);
    }
    let seat_of: HashMap<usize, usize> = field.iter().enumerate().map(|(s, &i)| (i, s)).collect();
    let mut codes: HashMap<String, u32> = HashMap::new();
    let mut code = |s: Option<&String>| -> u32 {
        s.map_or(0, |s| {
            let next = codes.len() as u32 + 1;
            *codes.entry(s.to_lowercase()).or_insert(next)
        })
    };
    let seats: Vec<Seat> = field
        .iter()
        .map(|&i| {
            let mut met: Vec<u32> = history
                .met(i)
                .filter_map(|o| seat_of.get(&o).map(|&s| s as u32))
                .collect();
            met.sort_unstable();
            let (club, country) = if t.entrants_are_teams() {
                (0, 0)
            } else {
                let p = &t.players()[i];
                (code(p.club.as_ref()), code(p.country.as_ref()))
            };
            Seat {
                score: score(i),
                order: place.get(&i).copied().unwrap_or(u32::MAX),
                met,
                balance: history.color_balance(i),
                last: history.last_color(i),
                streak: history.color_streak(i),
                float: last_float(&history, &before, i),
                club,
                country,
                team: if t.entrants_are_teams() {
                    0
                } else {
                    t.players()[i].team.map_or(0, |x| x.0 + 1)
                },
                handicap_key: match mcmahon.map(|m| m.handicap.basis) {
                    Some(HandicapBasis::Rank) => rank_level(t, i),
                    _ => score(i).div_euclid(2) - 30,
                },
            }
        })
        .collect();
    let rules = Rules {
        seeding: t.settings().seeding,
        avoid_club: t.settings().avoid_same_club,
        avoid_country: t.settings().avoid_same_country,
        avoid_team: t.settings().avoid_teammates,
        balance_colors: true,
        no_third_color_in_a_row: t.settings().discipline.rules().no_third_color_in_a_row,
        handicap: mcmahon.map(|m| m.handicap).filter(|h| h.ceiling > 0),
    };
    let pairs = weights::pair(&seats, &rules).ok_or(TournamentError::FieldSize {
        count: seats.len(),
        why: "no pairing exists",
    })?;
    for (k, (a, b)) in pairs.into_iter().enumerate() {
        let table = k as u32 + 1;
        // `a` is the higher placed (pairs come sorted by the better seat).
        let (a, b) = if (seats[a].score, std::cmp::Reverse(seats[a].order))
            >= (seats[b].score, std::cmp::Reverse(seats[b].order))
        {
            (a, b)
        } else {
            (b, a)
        };
        let h = rules.handicap(&seats[a], &seats[b]);
        let (ia, ib) = (field[a], field[b]);
        let pair = if h > 0 {
            // The weaker takes black: lower rank (or score), then lower place.
            let weaker_a = (
                rank_level(t, ia),
                seats[a].score,
                std::cmp::Reverse(seats[a].order),
            ) < (
                rank_level(t, ib),
                seats[b].score,
                std::cmp::Reverse(seats[b].order),
            );
            let (black, white) = if weaker_a { (ia, ib) } else { (ib, ia) };
            DraftPair {
                black: black as u32,
                white: white as u32,
                handicap: h,
                colors: ColorChoice::Handicap,
                preset: None,
            }
        } else {
            let (black, white, colors) = even_colors(t, &history, number, table, ia, ib);
            DraftPair {
                black,
                white,
                handicap: 0,
                colors,
                preset: None,
            }
        };
        draft.pairs.push(pair);
    }
    Ok(draft)
}

fn rank_level(t: &Tournament, i: usize) -> i64 {
    if t.entrants_are_teams() {
        return 0;
    }
    t.player(PlayerId(i as u32))
        .and_then(|p| p.rank)
        .map_or(0, |r| i64::from(r.level()))
}

/// Score of every entrant before each round: `[entrant][round − 1]`.
fn score_before(
    t: &Tournament,
    history: &History,
    mcmahon: Option<crate::McMahon>,
) -> Vec<Vec<i64>> {
    (0..t.entrant_count())
        .map(|i| {
            (0..history.rounds)
                .map(|r| match mcmahon {
                    Some(m) => mcmahon::mms_half(t, history, m, i, r),
                    None => i64::from(history.points_after(i, r)),
                })
                .collect()
        })
        .collect()
}

/// Whether the entrant floated up (1) or down (−1) in the last round.
fn last_float(history: &History, before: &[Vec<i64>], i: usize) -> i8 {
    let Some(last) = history.rows[i].len().checked_sub(1) else {
        return 0;
    };
    match &history.rows[i][last] {
        Entry::Game(g) => match before[g.opponent][last].cmp(&before[i][last]) {
            std::cmp::Ordering::Greater => 1,
            std::cmp::Ordering::Less => -1,
            std::cmp::Ordering::Equal => 0,
        },
        Entry::Bye(_) => -1,
        Entry::Absent => 0,
    }
}

/// The bye: to the lowest eligible entrant who has had the fewest byes
/// (none while avoidable). McMahon: OpenGotha's order, rank + 2·MMS +
/// 1000·byes. Ties go to the one lowest in the previous standings
/// (`previous`: places from 0), as OpenGotha and docs/spec/formats.md give it.
fn bye_receiver(
    t: &Tournament,
    history: &History,
    field: &[usize],
    score: &dyn Fn(usize) -> i64,
    previous: &HashMap<usize, u32>,
    mcmahon: bool,
) -> usize {
    let key = |i: usize| {
        let byes = history.byes(i) as i64;
        let primary = if mcmahon {
            1000 * byes + rank_level(t, i) + score(i)
        } else {
            1000 * byes + score(i)
        };
        (
            primary,
            std::cmp::Reverse(previous.get(&i).copied().unwrap_or(0)),
        )
    };
    field
        .iter()
        .copied()
        .min_by_key(|&i| key(i))
        .unwrap_or(field[0])
}

/// Swiss with elimination: entrants with fewer than `losses` losses; if
/// that leaves an odd number, the best placed of those just eliminated
/// stays in to keep the field even (spec: 保持人数为偶数).
fn still_in(
    t: &Tournament,
    history: &History,
    number: u32,
    field: &[usize],
    losses: usize,
) -> Vec<usize> {
    let mut inn: Vec<usize> = field
        .iter()
        .copied()
        .filter(|&i| history.losses(i) < losses)
        .collect();
    if inn.len() % 2 == 1 && number > 1 {
        let standings = Standings::compute(t, number - 1);
        let just_out = standings
            .rows
            .iter()
            .map(|r| crate::history::entrant_index(r.entrant))
            .find(|&i| field.contains(&i) && history.losses(i) == losses && !inn.contains(&i));
        if let Some(i) = just_out {
            inn.push(i);
        }
    }
    inn
}
