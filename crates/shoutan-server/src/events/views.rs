//! What the API shows of an event: the event with its players and rounds,
//! a round's pairings with their online games, standings with every
//! tie-break column, the crosstable, a knockout bracket and the log.
//! Players and teams are numbered from 1, as the event shows them.

use std::collections::HashMap;

use serde::Serialize;
use shoutan_rules::Rank;
use shoutan_store::{GameId, TournamentId, UserId};
use shoutan_tournament::formats::report::cell_text;
use shoutan_tournament::{Cell, Entrant, PlayerId, PlayerResult, Round, Row, Standings, System};

use super::action::{Action, Person};
use super::config::EventConfig;
use super::event::{Event, may_change};

/// An event in the list.
#[derive(Clone, Debug, Serialize)]
pub struct EventSummary {
    /// Its id.
    pub id: TournamentId,
    /// Its name.
    pub name: String,
    /// The system's kind (`swiss`, `knockout`, …).
    pub system: String,
    /// The game (`weiqi`, `xiangqi`, `chess`, `junqi`).
    pub game: &'static str,
    /// The organiser.
    pub organiser: Person,
    /// Players registered.
    pub players: usize,
    /// Rounds paired.
    pub rounds_paired: usize,
    /// Planned rounds, when known.
    pub rounds: Option<u32>,
    /// When created (ms).
    pub created_at: i64,
}

/// A player of the event.
#[derive(Clone, Debug, Serialize)]
pub struct PlayerView {
    /// The number, from 1.
    pub number: u32,
    /// Name.
    pub name: String,
    /// Rank.
    pub rank: Option<Rank>,
    /// Club.
    pub club: Option<String>,
    /// The account that plays online.
    pub account: Option<Person>,
    /// Withdrawn from this round on.
    pub withdrawn_from: Option<u32>,
}

/// A team.
#[derive(Clone, Debug, Serialize)]
pub struct TeamView {
    /// The number, from 1.
    pub number: u32,
    /// Name.
    pub name: String,
    /// Members by number, board order.
    pub members: Vec<u32>,
    /// Withdrawn from this round on.
    pub withdrawn_from: Option<u32>,
}

/// One side of a paired game.
#[derive(Clone, Debug, Serialize)]
pub struct SideView {
    /// The player's number.
    pub number: u32,
    /// The name.
    pub name: String,
    /// The account's id, when he plays online.
    pub user: Option<UserId>,
}

/// A paired game.
#[derive(Clone, Debug, Serialize)]
pub struct GameView {
    /// The table.
    pub table: u32,
    /// Black.
    pub black: SideView,
    /// White.
    pub white: SideView,
    /// Handicap (1: 让先).
    pub handicap: u8,
    /// The result (`B+`, `W+F`, `Draw`…), once known.
    pub result: Option<String>,
    /// Warnings of black and white.
    pub warnings: [u8; 2],
    /// The online game.
    pub game: Option<GameId>,
    /// In a team event: the match (from 1, as in the round's `matches`).
    #[serde(rename = "match", skip_serializing_if = "Option::is_none")]
    pub team_match: Option<u32>,
    /// In a team event: the board in the match (from 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub board: Option<u8>,
}

/// A team as a match shows it.
#[derive(Clone, Debug, Serialize)]
pub struct TeamSide {
    /// The team's number, from 1.
    pub number: u32,
    /// Its name.
    pub name: String,
}

/// A team match of a round.
#[derive(Clone, Debug, Serialize)]
pub struct MatchView {
    /// Its number in the round, from 1.
    pub number: u32,
    /// The team with black on board 1.
    pub black: TeamSide,
    /// The other team.
    pub white: TeamSide,
}

/// A bye or rest.
#[derive(Clone, Debug, Serialize)]
pub struct ByeView {
    /// Who.
    pub name: String,
    /// Points given.
    pub points: u8,
}

/// A round's pairings.
#[derive(Clone, Debug, Serialize)]
pub struct RoundView {
    /// Its number.
    pub number: u32,
    /// Its games.
    pub games: Vec<GameView>,
    /// Its team matches (team events; their games name them).
    pub matches: Vec<MatchView>,
    /// Its byes.
    pub byes: Vec<ByeView>,
    /// When it was paired (ms).
    pub started_at: Option<i64>,
    /// Whether every result is in.
    pub complete: bool,
}

/// What the viewer is in the event.
#[derive(Clone, Debug, Serialize)]
pub struct YouView {
    /// Organiser or arbiter.
    pub can_change: bool,
    /// Your number, if you are registered.
    pub player: Option<u32>,
    /// Your game of the latest round, if you have one.
    pub next_game: Option<GameView>,
    /// The round of that game.
    pub next_round: Option<u32>,
}

/// An event without its players, teams and rounds: what a page shows at
/// its top, small whatever the event's size (each watcher fetches it at
/// every change).
#[derive(Clone, Debug, Serialize)]
pub struct EventHeadView {
    /// Its id.
    pub id: TournamentId,
    /// The organiser.
    pub organiser: Person,
    /// The arbiters.
    pub arbiters: Vec<Person>,
    /// The settings.
    pub config: EventConfig,
    /// The sides of a game as the event's game names them, first mover
    /// first (`["black", "white"]`; chess `["white", "black"]`; xiangqi
    /// `["red", "black"]`): the pairings' `black` is the first mover.
    pub colors: [&'static str; 2],
    /// How many players are registered.
    pub player_count: usize,
    /// How many rounds are paired.
    pub rounds_paired: usize,
    /// The next round to pair.
    pub next_round: u32,
    /// Whether self-registration is open now.
    pub registration_open: bool,
    /// The viewer.
    pub you: YouView,
}

/// An event's players and teams.
#[derive(Clone, Debug, Serialize)]
pub struct EntrantsView {
    /// Every player.
    pub players: Vec<PlayerView>,
    /// Every team.
    pub teams: Vec<TeamView>,
}

/// An event, whole.
#[derive(Clone, Debug, Serialize)]
pub struct EventView {
    /// What the top of its page shows.
    #[serde(flatten)]
    pub head: EventHeadView,
    /// Its players and teams.
    #[serde(flatten)]
    pub entrants: EntrantsView,
    /// Every round paired.
    pub rounds: Vec<RoundView>,
}

fn system_name(system: System) -> &'static str {
    match system {
        System::RoundRobin { .. } => "round_robin",
        System::Swiss => "swiss",
        System::SwissElimination { .. } => "swiss_elimination",
        System::McMahon(_) => "mcmahon",
        System::Knockout { .. } => "knockout",
        System::BestOf { .. } => "best_of",
        System::Relay => "relay",
    }
}

/// The list entry of an event.
#[must_use]
pub fn summary(e: &Event) -> EventSummary {
    EventSummary {
        id: e.id,
        name: e.config.name.clone(),
        system: system_name(e.config.settings.system).into(),
        game: e.config.settings.discipline.rules().name,
        organiser: e.organiser.clone(),
        players: e.tournament.players().len(),
        rounds_paired: e.tournament.rounds().len(),
        rounds: e.config.settings.rounds,
        created_at: e.created_at,
    }
}

fn side(e: &Event, p: PlayerId) -> SideView {
    SideView {
        number: p.0 + 1,
        name: e
            .tournament
            .player(p)
            .map_or_else(|| p.to_string(), |x| x.name.clone()),
        user: e.account(p).map(|a| a.id),
    }
}

fn game(e: &Event, round: u32, g: &shoutan_tournament::Game) -> GameView {
    GameView {
        table: g.table,
        black: side(e, g.black),
        white: side(e, g.white),
        handicap: g.handicap,
        result: g
            .outcome
            .map(|o| e.tournament.settings().discipline.result_text(o)),
        warnings: g.warnings,
        game: e.games.get(&(round, g.table)).copied(),
        team_match: g.board.map(|(m, _)| m + 1),
        board: g.board.map(|(_, b)| b),
    }
}

/// A round's pairings.
#[must_use]
pub fn round(e: &Event, r: &Round) -> RoundView {
    RoundView {
        number: r.number,
        games: r.games.iter().map(|g| game(e, r.number, g)).collect(),
        matches: r
            .matches
            .iter()
            .zip(1..)
            .map(|(m, number)| {
                let team = |t: shoutan_tournament::TeamId| TeamSide {
                    number: t.0 + 1,
                    name: e.tournament.entrant_name(Entrant::Team(t)).to_owned(),
                };
                MatchView {
                    number,
                    black: team(m.black),
                    white: team(m.white),
                }
            })
            .collect(),
        byes: r
            .byes
            .iter()
            .map(|b| ByeView {
                name: e.tournament.entrant_name(b.entrant).to_owned(),
                points: b.points,
            })
            .collect(),
        started_at: e.round_started.get(&r.number).copied(),
        complete: r.pending().next().is_none(),
    }
}

/// Whether self-registration is open at `now`: inside the window, and by
/// default until round 1 is paired.
#[must_use]
pub fn registration_open(e: &Event, now: i64) -> bool {
    window_open(&e.config, e.tournament.rounds().is_empty(), now)
}

fn window_open(c: &EventConfig, unpaired: bool, now: i64) -> bool {
    c.registration_opens.is_none_or(|o| now >= o)
        && match c.registration_closes {
            Some(closes) => now < closes,
            None => unpaired,
        }
}

/// The top of an event's page at one version of the event, for every
/// viewer: built once per change, and each viewer's `you` read from it
/// without the event's lock.
#[derive(Clone, Debug)]
pub struct HeadSnapshot {
    /// The head, `you` left empty.
    head: EventHeadView,
    /// Player numbers by account.
    numbers: HashMap<UserId, u32>,
    /// The latest round's games.
    latest: Vec<GameView>,
    /// Where each player number's game is in `latest`.
    seats: HashMap<u32, usize>,
}

impl HeadSnapshot {
    /// The head of `e` as it is.
    #[must_use]
    pub fn of(e: &Event) -> HeadSnapshot {
        let t = &e.tournament;
        let latest: Vec<GameView> = t.rounds().last().map_or_else(Vec::new, |r| {
            r.games.iter().map(|g| game(e, r.number, g)).collect()
        });
        let seats = latest
            .iter()
            .enumerate()
            .flat_map(|(i, g)| [(g.black.number, i), (g.white.number, i)])
            .collect();
        let numbers = t
            .players()
            .iter()
            .filter_map(|p| Some((e.account(p.id)?.id, p.id.0 + 1)))
            .collect();
        HeadSnapshot {
            head: EventHeadView {
                id: e.id,
                organiser: e.organiser.clone(),
                arbiters: e.arbiters.clone(),
                config: e.config.clone(),
                colors: t.settings().discipline.rules().colors,
                player_count: t.players().len(),
                rounds_paired: t.rounds().len(),
                next_round: t.next_round(),
                registration_open: false,
                you: YouView {
                    can_change: false,
                    player: None,
                    next_game: None,
                    next_round: None,
                },
            },
            numbers,
            latest,
            seats,
        }
    }

    /// The head as `viewer` sees it at `now`.
    #[must_use]
    pub fn view(&self, viewer: Option<UserId>, now: i64) -> EventHeadView {
        let h = &self.head;
        let player = viewer.and_then(|v| self.numbers.get(&v).copied());
        let mine = player
            .and_then(|n| self.seats.get(&n))
            .and_then(|&i| self.latest.get(i));
        let latest_round = u32::try_from(h.rounds_paired).ok();
        EventHeadView {
            registration_open: window_open(&h.config, h.rounds_paired == 0, now),
            you: YouView {
                can_change: viewer.is_some_and(|v| may_change(&h.organiser, &h.arbiters, v)),
                player,
                next_round: mine.and(latest_round),
                next_game: mine.cloned(),
            },
            ..h.clone()
        }
    }
}

/// The event's players and teams.
#[must_use]
pub fn entrants(e: &Event) -> EntrantsView {
    let t = &e.tournament;
    EntrantsView {
        players: t
            .players()
            .iter()
            .map(|p| PlayerView {
                number: p.id.0 + 1,
                name: p.name.clone(),
                rank: p.rank,
                club: p.club.clone(),
                account: e.account(p.id).cloned(),
                withdrawn_from: p.withdrawn_from,
            })
            .collect(),
        teams: t
            .teams()
            .iter()
            .map(|x| TeamView {
                number: x.id.0 + 1,
                name: x.name.clone(),
                members: x.members.iter().map(|m| m.0 + 1).collect(),
                withdrawn_from: x.withdrawn_from,
            })
            .collect(),
    }
}

/// The event as `viewer` sees it, whole.
#[must_use]
pub fn event(e: &Event, viewer: Option<UserId>, now: i64) -> EventView {
    EventView {
        head: HeadSnapshot::of(e).view(viewer, now),
        entrants: entrants(e),
        rounds: e.tournament.rounds().iter().map(|r| round(e, r)).collect(),
    }
}

/// One line of the standings.
#[derive(Clone, Debug, Serialize)]
pub struct StandingRow {
    /// Place.
    pub place: u32,
    /// Shared with another (left out when not: most rows of a large
    /// event's page are neither shared, decided by playoff nor withdrawn).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub shared: bool,
    /// A playoff decides it (left out when not).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub playoff: bool,
    /// The entrant's number (player or team).
    pub number: u32,
    /// Name.
    pub name: String,
    /// Games (matches in a team event) won, by forfeit too; byes are not
    /// wins.
    pub wins: u32,
    /// One value per column, as shown.
    pub values: Vec<String>,
    /// Withdrawn (left out when not).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub withdrawn: bool,
}

/// The standings.
#[derive(Clone, Debug, Serialize)]
pub struct StandingsView {
    /// Rounds counted.
    pub rounds: u32,
    /// Column headers (`POINTS`, `SOS`, `SB`…).
    pub columns: Vec<String>,
    /// Lines in order of place.
    pub rows: Vec<StandingRow>,
}

/// The standings page: the official standings after the last complete
/// round, and while a round is being played, the standings with its
/// results so far (its games still going count as not yet played).
#[derive(Clone, Debug, Serialize)]
pub struct EventStandingsView {
    /// After the last complete round.
    #[serde(flatten)]
    pub official: StandingsView,
    /// With the results in so far of the round in progress; `None` when no
    /// round is in progress.
    pub live: Option<StandingsView>,
}

/// The standings a page shows now: while a round is being played, with its
/// results so far; otherwise the official ones. A watcher of a large event
/// fetches this at each change, not the whole [`EventStandingsView`]: the
/// official half does not change during a round.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct CurrentStandingsView<'a> {
    /// With the results so far of a round in progress.
    pub live: bool,
    /// The standings.
    #[serde(flatten)]
    pub standings: &'a StandingsView,
}

/// One player who qualifies in a rank-certification event.
#[derive(Clone, Debug, Serialize)]
pub struct QualifierView {
    /// The player's number, from 1.
    pub player: u32,
    /// The name.
    pub name: String,
    /// The account, if the player plays online.
    pub account: Option<Person>,
    /// Games that counted.
    pub games: u32,
    /// Wins among them (a jigo is half), as text (`3.5`).
    pub wins: String,
    /// The rank held.
    pub from: Rank,
    /// The rank qualified for.
    pub to: Rank,
}

/// A rank-certification event's result (段级位赛).
#[derive(Clone, Debug, Serialize)]
pub struct CertificationView {
    /// The rule.
    pub rule: Option<shoutan_tournament::Certification>,
    /// Whether the event is finished (qualifiers are known only then).
    pub finished: bool,
    /// Who qualifies.
    pub qualifiers: Vec<QualifierView>,
    /// Whether an arbiter has confirmed it: the declared ranks are raised.
    pub confirmed: bool,
}

/// The certification page of an event.
#[must_use]
pub fn certification(e: &Event) -> CertificationView {
    let t = &e.tournament;
    CertificationView {
        rule: t.settings().certification,
        finished: t.finished(),
        qualifiers: t
            .certification()
            .unwrap_or_default()
            .into_iter()
            .map(|q| QualifierView {
                player: q.player.0 + 1,
                name: t
                    .player(q.player)
                    .map_or_else(String::new, |p| p.name.clone()),
                account: e.account(q.player).cloned(),
                games: q.games,
                wins: q.wins.to_string(),
                from: q.from,
                to: q.to,
            })
            .collect(),
        confirmed: !e.certified.is_empty(),
    }
}

/// The standings page of `t`.
#[must_use]
pub fn event_standings(t: &shoutan_tournament::Tournament) -> EventStandingsView {
    let official = t.standings();
    let paired = u32::try_from(t.rounds().len()).unwrap_or(u32::MAX);
    EventStandingsView {
        live: (paired > official.rounds).then(|| standings(&t.standings_after(paired))),
        official: standings(&official),
    }
}

impl EventStandingsView {
    /// The standings a page shows now.
    #[must_use]
    pub fn current(&self) -> CurrentStandingsView<'_> {
        CurrentStandingsView {
            live: self.live.is_some(),
            standings: self.live.as_ref().unwrap_or(&self.official),
        }
    }
}

fn number(entrant: Entrant) -> u32 {
    match entrant {
        Entrant::Player(p) => p.0 + 1,
        Entrant::Team(t) => t.0 + 1,
    }
}

/// The games a row won (forfeit wins included).
fn wins(r: &Row) -> u32 {
    let won = |c: &&Cell| {
        matches!(
            c,
            Cell::Game {
                result: Some(PlayerResult::Win | PlayerResult::ForfeitWin),
                ..
            }
        )
    };
    u32::try_from(r.cells.iter().filter(won).count()).unwrap_or(u32::MAX)
}

/// A row's value in every column, as shown.
fn values(s: &Standings, r: &Row) -> Vec<String> {
    (0..s.columns.len())
        .map(|c| s.shown(r, c).to_string())
        .collect()
}

/// Standings as shown.
#[must_use]
pub fn standings(s: &Standings) -> StandingsView {
    StandingsView {
        rounds: s.rounds,
        columns: s.columns.iter().map(|c| c.header()).collect(),
        rows: s
            .rows
            .iter()
            .map(|r| StandingRow {
                place: r.place,
                shared: r.shared,
                playoff: r.playoff,
                number: number(r.entrant),
                name: r.name.clone(),
                wins: wins(r),
                values: values(s, r),
                withdrawn: r.withdrawn,
            })
            .collect(),
    }
}

/// One line of the crosstable.
#[derive(Clone, Debug, Serialize)]
pub struct CrossRow {
    /// Place.
    pub place: u32,
    /// Shared with another (left out when not, as in the standings).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub shared: bool,
    /// Name.
    pub name: String,
    /// One cell per round in EGF notation (`3+/b`, `5-/w2`, `0=`…).
    pub cells: Vec<String>,
    /// Games won.
    pub wins: u32,
    /// The totals: one value per column of the standings (`columns`).
    pub values: Vec<String>,
}

/// The crosstable: places and totals as in the standings after the same
/// rounds.
#[derive(Clone, Debug, Serialize)]
pub struct CrosstableView {
    /// Rounds counted.
    pub rounds: u32,
    /// The totals' headers (`POINTS`, `SOS`…).
    pub columns: Vec<String>,
    /// Lines in order of place.
    pub rows: Vec<CrossRow>,
}

/// The crosstable.
#[must_use]
pub fn crosstable(s: &Standings) -> CrosstableView {
    let place_of = |e: Entrant| s.row(e).map_or(0, |r| r.place);
    let letters = s.discipline.rules().color_letters();
    CrosstableView {
        rounds: s.rounds,
        columns: s.columns.iter().map(|c| c.header()).collect(),
        rows: s
            .rows
            .iter()
            .map(|r| CrossRow {
                place: r.place,
                shared: r.shared,
                name: r.name.clone(),
                cells: r
                    .cells
                    .iter()
                    .map(|c| cell_text(c, &place_of, letters))
                    .collect(),
                wins: wins(r),
                values: values(s, r),
            })
            .collect(),
    }
}

/// A knockout bracket: each round's matches, with the winner once known.
#[derive(Clone, Debug, Serialize)]
pub struct BracketRound {
    /// The round.
    pub number: u32,
    /// Its games.
    pub matches: Vec<BracketMatch>,
    /// Byes (seeds through to the next round).
    pub byes: Vec<String>,
}

/// One match of the bracket.
#[derive(Clone, Debug, Serialize)]
pub struct BracketMatch {
    /// The table.
    pub table: u32,
    /// Black's name.
    pub black: String,
    /// White's name.
    pub white: String,
    /// The winner's name, once known.
    pub winner: Option<String>,
    /// The result.
    pub result: Option<String>,
    /// The online game.
    pub game: Option<GameId>,
}

/// The bracket of the event (every round, as paired).
#[must_use]
pub fn bracket(e: &Event) -> Vec<BracketRound> {
    e.tournament
        .rounds()
        .iter()
        .map(|r| {
            let view = round(e, r);
            BracketRound {
                number: r.number,
                matches: r
                    .games
                    .iter()
                    .zip(view.games)
                    .map(|(g, v)| BracketMatch {
                        table: g.table,
                        winner: g
                            .outcome
                            .and_then(|o| o.winner())
                            .map(|c| side(e, g.player(c)).name),
                        black: v.black.name,
                        white: v.white.name,
                        result: v.result,
                        game: v.game,
                    })
                    .collect(),
                byes: view.byes.into_iter().map(|b| b.name).collect(),
            }
        })
        .collect()
}

/// One entry of the change log.
#[derive(Clone, Debug, Serialize)]
pub struct LogView {
    /// Its place, from 1.
    pub seq: u64,
    /// When (ms).
    pub at: i64,
    /// Who (absent: the server).
    pub actor: Option<Person>,
    /// What, as stored.
    pub action: Action,
}

/// The change log.
#[must_use]
pub fn log(e: &Event) -> Vec<LogView> {
    e.log
        .iter()
        .map(|l| LogView {
            seq: l.seq,
            at: l.at,
            actor: l.actor.clone(),
            action: l.action.clone(),
        })
        .collect()
}
