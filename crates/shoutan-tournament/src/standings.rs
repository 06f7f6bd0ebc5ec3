//! Standings (Art. 27): points, then the event's criteria in the declared
//! order, then shared place, playoff or lots; with the crosstable.

use shoutan_rules::Color;

use crate::history::{Entry, GameEntry, History};
use crate::player::family_and_given;
use crate::{
    Criterion, Discipline, Entrant, McMahon, PlayerId, PlayerResult, System, TieRule, Tournament,
    Value, WithdrawnValuation, mcmahon,
};

/// One column of the standings: a criterion, or one board's points (the
/// `boards` criterion expands to one column per board). In the team
/// standings of a team total-score event a criterion column is the sum of
/// the counted members' values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Column {
    /// A criterion.
    Criterion(Criterion),
    /// Board points on board `n` (from 1); in all-play-all matches, of the
    /// team's `n`-th player.
    Board(u8),
    /// Team total score: the best place of a counted member (fewer is better).
    BestPlace,
}

impl Column {
    /// A short header.
    #[must_use]
    pub fn header(self) -> String {
        match self {
            Column::Criterion(c) => c.name().to_uppercase(),
            Column::Board(n) => format!("B{n}"),
            Column::BestPlace => "BEST".to_owned(),
        }
    }
}

/// One round of an entrant's crosstable line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    /// A game (or match) against an opponent.
    Game {
        /// The opponent.
        opponent: Entrant,
        /// The colour held (board 1's in a team match).
        color: Color,
        /// The handicap.
        handicap: u8,
        /// The result, once known.
        result: Option<PlayerResult>,
    },
    /// A bye or rest with its points.
    Bye(u8),
    /// Not paired.
    Absent,
}

/// One line of the standings.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// Place, from 1 (tied entrants share one unless lots are drawn).
    pub place: u32,
    /// Shares the place with another entrant.
    pub shared: bool,
    /// Tied for a place a playoff (加赛) must decide.
    pub playoff: bool,
    /// Who.
    pub entrant: Entrant,
    /// Name.
    pub name: String,
    /// One value per column (larger is better, except warnings: fewer).
    pub values: Vec<Value>,
    /// Withdrawn from the event.
    pub withdrawn: bool,
    /// Crosstable cells, one per round (none in team total-score standings).
    pub cells: Vec<Cell>,
    /// Team total score: the members whose points count, best placed first.
    pub members: Vec<PlayerId>,
}

/// The standings after a number of rounds.
#[derive(Clone, Debug, PartialEq)]
pub struct Standings {
    /// Rounds counted.
    pub rounds: u32,
    /// Columns in order.
    pub columns: Vec<Column>,
    /// Lines in order of place.
    pub rows: Vec<Row>,
    /// The game, for how points and colours are shown
    /// ([`Standings::shown`]: 1/½/0 in chess).
    pub discipline: Discipline,
}

impl Standings {
    /// The row of an entrant.
    #[must_use]
    pub fn row(&self, entrant: Entrant) -> Option<&Row> {
        self.rows.iter().find(|r| r.entrant == entrant)
    }

    /// A column's value for display (warnings as a count, best place as
    /// a place, points on the game's scale: 1/½/0 in chess).
    #[must_use]
    pub fn shown(&self, row: &Row, column: usize) -> Value {
        let value = row.values[column];
        let scale = 2 / i64::from(self.discipline.rules().win_points);
        match self.columns[column] {
            Column::Criterion(Criterion::Warnings) | Column::BestPlace => -value,
            Column::Criterion(c) if c.in_points() => value.div_int(scale),
            Column::Board(_) => value.div_int(scale),
            _ => value,
        }
    }

    pub(crate) fn compute(t: &Tournament, rounds: u32) -> Standings {
        let calc = Calc::new(t, rounds);
        let boards = t.settings().teams.map_or(1, |s| s.boards);
        let mut columns = Vec::new();
        for &c in &t.settings().criteria {
            if c == Criterion::Boards {
                columns.extend((1..=boards).map(Column::Board));
            } else {
                columns.push(Column::Criterion(c));
            }
        }
        let count = t.entrant_count();
        let cancelled = t.cancelled_entrants();
        let mut values: Vec<Vec<Value>> = vec![vec![Value::ZERO; columns.len()]; count];
        for (k, col) in columns.iter().enumerate() {
            if *col == Column::Criterion(Criterion::Direct) {
                continue;
            }
            for (i, v) in values.iter_mut().enumerate() {
                v[k] = calc.value(*col, i);
            }
        }
        // Refine groups column by column; direct encounter inside groups.
        let mut order: Vec<usize> = (0..count).collect();
        order.sort_by_key(|i| cancelled.contains(i));
        let mut groups: Vec<Vec<usize>> = vec![
            order
                .iter()
                .copied()
                .filter(|i| !cancelled.contains(i))
                .collect(),
            order
                .iter()
                .copied()
                .filter(|i| cancelled.contains(i))
                .collect(),
        ];
        groups.retain(|g| !g.is_empty());
        for (k, col) in columns.iter().enumerate() {
            let mut next = Vec::new();
            for mut g in groups {
                if *col == Column::Criterion(Criterion::Direct) {
                    for &i in &g {
                        values[i][k] = calc.direct(i, &g);
                    }
                }
                g.sort_by(|&a, &b| values[b][k].cmp(&values[a][k]));
                let mut start = 0;
                for end in 1..=g.len() {
                    if end == g.len() || values[g[end]][k] != values[g[start]][k] {
                        next.push(g[start..end].to_vec());
                        start = end;
                    }
                }
            }
            groups = next;
        }
        let rows = placed(
            t.settings().ties,
            t.settings().seed ^ 0x005E_ED0F_1075,
            count,
            groups,
            |i| {
                let entrant = t.entrant(i);
                Row {
                    place: 0,
                    shared: false,
                    playoff: false,
                    entrant,
                    name: t.entrant_name(entrant).to_owned(),
                    values: values[i].clone(),
                    withdrawn: t.withdrawn_from(i).is_some(),
                    cells: calc.cells(i),
                    members: Vec::new(),
                }
            },
        );
        Standings {
            rounds,
            columns,
            rows,
            discipline: t.settings().discipline,
        }
    }
}

/// Entrant indices in the order of the standings after `rounds` rounds,
/// entrants still tied ordered as OpenGotha orders them (family name, then
/// given name): the "previous standings" that pairing reads.
pub(crate) fn pairing_order(t: &Tournament, rounds: u32) -> Vec<usize> {
    let s = Standings::compute(t, rounds);
    let mut rows: Vec<(u32, (String, String), usize)> = s
        .rows
        .iter()
        .map(|r| {
            let i = crate::history::entrant_index(r.entrant);
            let name = match r.entrant {
                Entrant::Player(p) => t.players()[p.index()].family_and_given(),
                Entrant::Team(_) => family_and_given(&r.name),
            };
            (r.place, name, i)
        })
        .collect();
    rows.sort();
    rows.into_iter().map(|(_, _, i)| i).collect()
}

/// Rows in order of place from the groups of tied entrants, best group
/// first (Art. 27 C): tied entrants share the place, are marked for a
/// playoff, or are ordered by lots drawn from `lots_seed`.
pub(crate) fn placed(
    ties: TieRule,
    lots_seed: u64,
    count: usize,
    groups: Vec<Vec<usize>>,
    mut row: impl FnMut(usize) -> Row,
) -> Vec<Row> {
    let lots = {
        let mut v: Vec<usize> = (0..count).collect();
        fastrand::Rng::with_seed(lots_seed).shuffle(&mut v);
        let mut pos = vec![0; count];
        for (k, i) in v.into_iter().enumerate() {
            pos[i] = k;
        }
        pos
    };
    let separate = ties == TieRule::Lots;
    let mut rows = Vec::with_capacity(count);
    let mut place = 1;
    for mut g in groups {
        let tie = g.len() > 1;
        if tie && separate {
            g.sort_by_key(|&i| lots[i]);
        }
        for (k, &i) in g.iter().enumerate() {
            let mut r = row(i);
            r.place = if separate { place + k as u32 } else { place };
            r.shared = tie && !separate;
            r.playoff = tie && ties == TieRule::Playoff;
            rows.push(r);
        }
        place += g.len() as u32;
    }
    rows
}

/// Shared inputs of the criteria.
struct Calc<'a> {
    t: &'a Tournament,
    h: History,
    mcmahon: Option<McMahon>,
    /// Score each criterion sums: points, or McMahon score.
    basis: Vec<Value>,
    /// Points as opponents count them (1988 withdrawal valuation).
    opp_points: Vec<Value>,
    sos: Vec<Value>,
    /// Relay: players out.
    relay_out: Vec<bool>,
}

impl<'a> Calc<'a> {
    fn new(t: &'a Tournament, rounds: u32) -> Calc<'a> {
        let h = t.history(rounds);
        let mcmahon = match t.settings().system {
            System::McMahon(m) => Some(m),
            _ => None,
        };
        let count = t.entrant_count();
        let basis: Vec<Value> = (0..count)
            .map(|i| match mcmahon {
                Some(m) => Value::ratio(mcmahon::mms_half(t, &h, m, i, rounds), 2),
                None => Value::int(i64::from(h.points(i))),
            })
            .collect();
        let opp_points = (0..count)
            .map(|i| {
                let points = Value::int(i64::from(h.points(i)));
                match (t.settings().withdrawn_valuation, t.withdrawn_from(i)) {
                    (WithdrawnValuation::Average1988, Some(from)) => {
                        let played = h
                            .games(i)
                            .filter(|g| g.result.is_some_and(PlayerResult::met))
                            .count() as i64;
                        let unplayed = i64::from((rounds + 1).saturating_sub(from));
                        if played == 0 {
                            points
                        } else {
                            let a = Value::ratio(i64::from(h.points(i)), played).min(Value::int(1));
                            points + a.mul_int(unplayed)
                        }
                    }
                    _ => points,
                }
            })
            .collect();
        let relay_out = if t.settings().system == System::Relay {
            crate::pairing::relay::players_out(t)
        } else {
            Vec::new()
        };
        let mut calc = Calc {
            t,
            h,
            mcmahon,
            basis,
            opp_points,
            sos: Vec::new(),
            relay_out,
        };
        calc.sos = (0..count).map(|i| calc.sos_of(i).0).collect();
        calc
    }

    /// The score of an opponent as SOS-like criteria count it.
    fn opp(&self, o: usize) -> Value {
        if self.mcmahon.is_some() {
            self.basis[o]
        } else {
            self.opp_points[o]
        }
    }

    /// The opponent's score as SOS and SODOS count it for one game: in a
    /// McMahon event plus the handicap when the player had White, minus it
    /// when Black (OpenGotha), so a handicap game counts as an even one.
    fn opp_in(&self, g: &GameEntry) -> Value {
        let v = self.opp(g.opponent);
        if self.mcmahon.is_none() {
            return v;
        }
        let hcp = Value::int(i64::from(g.handicap));
        if g.color == Color::White {
            v + hcp
        } else {
            v - hcp
        }
    }

    /// Whether a result counts for the opponent-based criteria.
    fn counts(r: Option<PlayerResult>) -> bool {
        r.is_some_and(|r| !matches!(r, PlayerResult::Void | PlayerResult::Unplayed))
    }

    /// SOS and its per-round contributions.
    fn sos_of(&self, i: usize) -> (Value, Vec<Value>) {
        let own_start = self
            .mcmahon
            .map(|m| Value::ratio(mcmahon::start_half(self.t, m, i), 2));
        let parts: Vec<Value> = self.h.rows[i]
            .iter()
            .map(|e| match e {
                Entry::Game(g) if Self::counts(g.result) => self.opp_in(g),
                _ => own_start.unwrap_or(Value::ZERO),
            })
            .collect();
        (parts.iter().copied().sum(), parts)
    }

    fn value(&self, col: Column, i: usize) -> Value {
        let h = &self.h;
        let games = || h.games(i).filter(|g| Self::counts(g.result));
        match col {
            Column::Board(n) => Value::int(
                h.games(i)
                    .flat_map(|g| &g.boards)
                    .filter(|(position, _)| *position == n)
                    .filter_map(|(_, r)| *r)
                    .map(|r| i64::from(r.points()))
                    .sum(),
            ),
            Column::BestPlace => Value::ZERO,
            Column::Criterion(c) => match c {
                Criterion::Points if self.t.settings().system == System::Relay => {
                    Value::int(self.relay_points(i))
                }
                Criterion::Points => Value::int(i64::from(h.points(i))),
                Criterion::Mms => self.basis[i],
                Criterion::Sb => games()
                    .map(|g| match g.result {
                        Some(r) if r.is_win() => self.opp_points[g.opponent],
                        Some(PlayerResult::Draw) => self.opp_points[g.opponent].div_int(2),
                        _ => Value::ZERO,
                    })
                    .sum(),
                Criterion::Sos => self.sos[i],
                Criterion::SosMinus1 => {
                    let (sos, parts) = self.sos_of(i);
                    parts.iter().min().map_or(sos, |&low| sos - low)
                }
                Criterion::Sosos => {
                    let rest = self.mcmahon.map(|m| {
                        Value::ratio(mcmahon::start_half(self.t, m, i), 2)
                            .mul_int(i64::from(h.rounds))
                    });
                    h.rows[i]
                        .iter()
                        .map(|e| match e {
                            Entry::Game(g) if Self::counts(g.result) => self.sos[g.opponent],
                            _ => rest.unwrap_or(Value::ZERO),
                        })
                        .sum()
                }
                Criterion::Sodos => games()
                    .map(|g| match g.result {
                        Some(r) if r.is_win() => self.opp_in(g),
                        Some(PlayerResult::Draw) => self.opp_in(g).div_int(2),
                        _ => Value::ZERO,
                    })
                    .sum(),
                Criterion::Cuss => (1..=h.rounds)
                    .map(|r| match self.mcmahon {
                        Some(m) => Value::ratio(mcmahon::mms_half(self.t, h, m, i, r), 2),
                        None => Value::int(i64::from(h.points_after(i, r))),
                    })
                    .sum(),
                Criterion::Direct => Value::ZERO,
                Criterion::Warnings => Value::int(-i64::from(h.warnings(i))),
                Criterion::Total => {
                    let points = Value::int(i64::from(h.points(i)));
                    if h.rounds == 0 {
                        return points;
                    }
                    let sos: Value = games().map(|g| self.opp_points[g.opponent]).sum();
                    // Half the maximum possible points is the number of rounds.
                    let r = i64::from(h.rounds);
                    points + sos.div_int(r) - Value::int(r)
                }
                Criterion::BoardPoints => {
                    Value::int(h.games(i).map(|g| i64::from(g.board_points())).sum())
                }
                Criterion::Boards => Value::ZERO,
                Criterion::Progress => self.progress(i),
                Criterion::Wins => Value::int(
                    h.games(i)
                        .filter(|g| g.result.is_some_and(PlayerResult::is_win))
                        .count() as i64,
                ),
                Criterion::SecondMoverWins => Value::int(
                    games()
                        .filter(|g| g.color == Color::White && g.result == Some(PlayerResult::Win))
                        .count() as i64,
                ),
            },
        }
    }

    /// Still in beats out; out later beats out earlier.
    fn progress(&self, i: usize) -> Value {
        let t = self.t;
        if t.settings().system == System::Relay {
            let alive = t.teams()[i]
                .members
                .iter()
                .any(|p| !self.relay_out[p.index()]);
            return Value::int(i64::from(alive));
        }
        let alive = t.alive(&self.h);
        if alive[i] {
            Value::int(i64::from(self.h.rounds) + 1)
        } else {
            Value::int(i64::from(Tournament::last_played(&self.h, i)))
        }
    }

    /// Relay: 2 per game won by the team's players.
    fn relay_points(&self, team: usize) -> i64 {
        self.t
            .games()
            .filter_map(|(_, g)| {
                g.outcome
                    .and_then(crate::Outcome::winner)
                    .map(|c| g.player(c))
            })
            .filter(|p| {
                self.t.players()[p.index()]
                    .team
                    .is_some_and(|x| x.index() == team)
            })
            .count() as i64
            * 2
    }

    /// Points scored against the others of `group`.
    fn direct(&self, i: usize, group: &[usize]) -> Value {
        Value::int(
            self.h
                .games(i)
                .filter(|g| group.contains(&g.opponent) && Self::counts(g.result))
                .map(|g| i64::from(g.result.map_or(0, PlayerResult::points)))
                .sum(),
        )
    }

    fn cells(&self, i: usize) -> Vec<Cell> {
        self.h.rows[i]
            .iter()
            .map(|e| match e {
                Entry::Game(g) => Cell::Game {
                    opponent: self.t.entrant(g.opponent),
                    color: g.color,
                    handicap: g.handicap,
                    result: g.result,
                },
                Entry::Bye(p) => Cell::Bye(*p as u8),
                Entry::Absent => Cell::Absent,
            })
            .collect()
    }
}
