//! Team total score (队员总分制, Art. 25): players are paired and ranked as
//! individuals, and a team ranks by the sum of its best members' points
//! (its best `boards` members by individual place: all of them when every
//! team has that many). Ties follow the team order of Art. 27 adapted to
//! individual play: the sums of the counted members' tie-breaks in the
//! event's declared order, then the better best member, then shared place,
//! playoff or lots as the event decides.

use crate::standings::placed;
use crate::{Column, Criterion, Entrant, Row, Standings, TeamFormat, Tournament, Value};

/// The team standings from the individual standings of a team total-score
/// event; `None` in any other event.
pub(crate) fn standings(t: &Tournament, individual: &Standings) -> Option<Standings> {
    let counted = t
        .settings()
        .teams
        .filter(|s| s.format == TeamFormat::TotalScore)
        .map(|s| usize::from(s.boards))?;
    // Points first, then each individual criterion that adds up.
    let mut columns = vec![Column::Criterion(Criterion::Points)];
    let mut sources = vec![None];
    for (k, c) in individual.columns.iter().enumerate() {
        if !matches!(
            c,
            Column::Criterion(Criterion::Points | Criterion::Direct | Criterion::Progress)
        ) {
            columns.push(*c);
            sources.push(Some(k));
        }
    }
    let best = columns.len();
    columns.push(Column::BestPlace);
    let history = t.history(individual.rounds);
    let teams = t.teams();
    let mut members = vec![Vec::new(); teams.len()];
    let mut values = vec![vec![Value::ZERO; columns.len()]; teams.len()];
    for row in &individual.rows {
        let Entrant::Player(p) = row.entrant else {
            continue;
        };
        let Some(team) = t.player(p).and_then(|x| x.team) else {
            continue;
        };
        let i = team.index();
        if members[i].len() == counted {
            continue;
        }
        if members[i].is_empty() {
            values[i][best] = Value::int(-i64::from(row.place));
        }
        members[i].push(p);
        for (k, source) in sources.iter().enumerate() {
            values[i][k] += match source {
                Some(s) => row.values[*s],
                None => Value::int(i64::from(history.points(p.index()))),
            };
        }
    }
    let mut order: Vec<usize> = (0..teams.len()).collect();
    order.sort_by(|&a, &b| values[b].cmp(&values[a]));
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for i in order {
        match groups.last_mut() {
            Some(g) if values[g[0]] == values[i] => g.push(i),
            _ => groups.push(vec![i]),
        }
    }
    let rows = placed(
        t.settings().ties,
        t.settings().seed ^ 0x7EA5_0F10_7500,
        teams.len(),
        groups,
        |i| Row {
            place: 0,
            shared: false,
            playoff: false,
            entrant: Entrant::Team(teams[i].id),
            name: teams[i].name.clone(),
            values: values[i].clone(),
            withdrawn: teams[i].withdrawn_from.is_some(),
            cells: Vec::new(),
            members: members[i].clone(),
        },
    );
    Some(Standings {
        rounds: individual.rounds,
        columns,
        rows,
        discipline: individual.discipline,
    })
}
