//! Pairing: each system turns the event's history into a draft of the next
//! round (pairs with colours and handicap, byes, results already decided by
//! withdrawals), which the tournament then turns into games.

pub(crate) mod all_play_all;
mod berger;
mod best_of;
mod gotha;
mod knockout;
pub(crate) mod relay;
mod swiss;
mod weights;

use shoutan_rules::Color;

use crate::history::History;
use crate::{
    Bye, ColorChoice, ColorRule, Entrant, Outcome, PlayerId, System, Tournament, TournamentError,
};

/// A round before it becomes games.
#[derive(Clone, Debug, Default)]
pub(crate) struct Draft {
    /// Pairs, in table order.
    pub pairs: Vec<DraftPair>,
    /// Byes and rests.
    pub byes: Vec<Bye>,
    /// The draw to store, made at the first pairing.
    pub draw: Option<Vec<u32>>,
}

/// Two entrants (indices) with colours: `black` holds black (on board 1).
#[derive(Clone, Copy, Debug)]
pub(crate) struct DraftPair {
    pub black: u32,
    pub white: u32,
    pub handicap: u8,
    pub colors: ColorChoice,
    /// A result known at pairing time (a forfeit against a withdrawn entrant).
    pub preset: Option<Outcome>,
}

/// Drafts round `number` of `t` by its system.
pub(crate) fn draft(t: &Tournament, number: u32) -> Result<Draft, TournamentError> {
    match t.settings().system {
        System::RoundRobin { cycles } => berger::draft(t, number, cycles),
        System::Swiss | System::SwissElimination { .. } | System::McMahon(_) => {
            swiss::draft(t, number)
        }
        System::Knockout { losses: 1 } => knockout::draft_bracket(t, number),
        System::Knockout { losses } => knockout::draft_multi(t, number, losses),
        System::BestOf { games } => best_of::draft(t, number, games),
        System::Relay => relay::draft(t, number),
    }
}

pub(crate) use gotha::total_cost as opengotha_cost;

/// Entrants that play in `round`, strongest first: rank, then rating, then
/// registration (teams: registration order).
pub(crate) fn seed_order(t: &Tournament, round: u32) -> Vec<usize> {
    let mut v: Vec<usize> = (0..t.entrant_count())
        .filter(|&i| t.entrant_plays_in(i, round))
        .collect();
    if !t.entrants_are_teams() {
        v.sort_by_key(|&i| {
            let p = &t.players()[i];
            (
                std::cmp::Reverse(p.rank.map_or(i32::MIN, shoutan_rules::Rank::level)),
                std::cmp::Reverse(p.rating.unwrap_or(i32::MIN)),
                i,
            )
        });
    }
    v
}

/// Colours of an even game between entrants `a` (placed higher) and `b`:
/// nigiri when the organiser asks (individual events), otherwise, where the
/// game forbids a colour three times running, the one who had a colour
/// twice takes the other; then fewer blacks so far takes black, then the
/// one who had white last, then `a` takes black on odd tables and white on
/// even ones.
pub(crate) fn even_colors(
    t: &Tournament,
    history: &History,
    round: u32,
    table: u32,
    a: usize,
    b: usize,
) -> (u32, u32, ColorChoice) {
    if t.settings().colors == ColorRule::Nigiri && !t.entrants_are_teams() {
        let (choice, black, white) = t.nigiri(round, table, PlayerId(a as u32), PlayerId(b as u32));
        return (black.0, white.0, choice);
    }
    let (ba, bb) = (history.color_balance(a), history.color_balance(b));
    let streaks = if t.settings().discipline.rules().no_third_color_in_a_row {
        (history.color_streak(a), history.color_streak(b))
    } else {
        (None, None)
    };
    let a_black = if let (Some(c), _) | (None, Some(c)) = streaks
        && streaks.0 != streaks.1
    {
        // The one on a streak of `c` takes the other colour.
        (streaks.0 == Some(c)) == (c == Color::White)
    } else if ba != bb {
        ba < bb
    } else {
        match (history.last_color(a), history.last_color(b)) {
            (Some(Color::Black), Some(Color::White) | None) | (None, Some(Color::White)) => false,
            (Some(Color::White), Some(Color::Black) | None) | (None, Some(Color::Black)) => true,
            _ => table % 2 == 1,
        }
    };
    let (black, white) = if a_black { (a, b) } else { (b, a) };
    (black as u32, white as u32, ColorChoice::Pairing)
}

/// A draft pair for an even game, or a forfeit when one side cannot play.
pub(crate) fn pair_or_forfeit(
    t: &Tournament,
    history: &History,
    round: u32,
    table: u32,
    a: usize,
    b: usize,
) -> DraftPair {
    let (black, white, colors) = even_colors(t, history, round, table, a, b);
    let plays = |i: u32| t.entrant_plays_in(i as usize, round);
    let preset = match (plays(black), plays(white)) {
        (true, true) => None,
        (true, false) => Some(Outcome::Forfeit(Color::Black)),
        (false, true) => Some(Outcome::Forfeit(Color::White)),
        (false, false) => Some(Outcome::BothLose),
    };
    DraftPair {
        black,
        white,
        handicap: 0,
        colors,
        preset,
    }
}

/// A bye or rest for entrant `i`.
pub(crate) fn bye(t: &Tournament, i: usize, points: u8) -> Bye {
    Bye {
        entrant: t.entrant(i),
        points,
    }
}

/// The winner of a decided game entry (for knockout and relay), from the
/// point of view of entrant `i` in round `round`: `Ok(Some(true))` if `i`
/// won, `Ok(Some(false))` if `i` lost (both-lose included), `Ok(None)` if
/// not paired that round.
pub(crate) fn decided(
    t: &Tournament,
    history: &History,
    i: usize,
    round: u32,
) -> Result<Option<bool>, TournamentError> {
    use crate::history::Entry;
    match history.rows[i].get(round as usize - 1) {
        Some(Entry::Game(g)) => match g.result {
            Some(r) if r.is_win() => Ok(Some(true)),
            Some(r) if r.is_loss() => Ok(Some(false)),
            other => {
                let table = t.rounds()[round as usize - 1]
                    .games
                    .iter()
                    .find(|x| {
                        let e = |p: PlayerId| match t.entrant(i) {
                            Entrant::Player(_) => p.index() == i,
                            Entrant::Team(_) => t.players()[p.index()]
                                .team
                                .is_some_and(|tm| tm.index() == i),
                        };
                        e(x.black) || e(x.white)
                    })
                    .map_or(0, |x| x.table);
                Err(TournamentError::Undecided {
                    round,
                    table,
                    outcome: other.map_or_else(
                        || "no result".to_owned(),
                        |r| format!("{r:?}").to_lowercase(),
                    ),
                })
            }
        },
        _ => Ok(None),
    }
}
