//! The event: registration, rounds, results, rulings and withdrawals. Every
//! command validates first and changes the event only when it succeeds, so
//! a server or the command line can apply it to the stored event as is.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::history::{Entry, History};
use crate::pairing::{self, Draft};
use crate::standings::Standings;
use crate::{
    ColorChoice, Entrant, Game, NewPlayer, Note, Outcome, Player, PlayerId, Round, Ruling,
    Settings, System, Team, TeamFormat, TeamId, TeamMatch, TournamentError,
};

/// The most entrants a Swiss or McMahon round pairs in one matching: a
/// budget, not a limit of the method. A round of 10,000 takes about half a
/// second on one core, of 20,000 two to four (`bench pairing`); with
/// OpenGotha's weights (`PairingModel::OpenGotha`), whose many near-equal
/// pairs take more passes, about 100 s at 10,000.
pub const MAX_FIELD: usize = 20_000;

/// A tournament: its settings, entrants, rounds and the arbiter's notes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tournament {
    name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    place: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    dates: Option<String>,
    /// Komi and time control as the organiser states them (for exports).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    komi: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    time_control: Option<String>,
    settings: Settings,
    /// Shared between copies: a change of the event (a result) copies the
    /// event, and the players, whose names and clubs are thousands of
    /// allocations in a large field, change only at registration.
    players: Arc<Vec<Player>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    teams: Vec<Team>,
    rounds: Vec<Round>,
    /// The draw fixed at the first pairing of systems that follow one (Berger
    /// numbers, knockout seeds, relay and match order): entrant indices.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    draw: Vec<u32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    notes: Vec<Note>,
}

impl Tournament {
    /// A new event with no players.
    ///
    /// ```
    /// use shoutan_tournament::{NewPlayer, Settings, System, Tournament};
    /// let mut settings = Settings::new(System::RoundRobin { cycles: 1 }, None);
    /// settings.seed = 7;
    /// let mut t = Tournament::new("Club championship", settings).unwrap();
    /// for (name, rank) in [("Li", "3d"), ("Wang", "2d"), ("Zhao", "1d")] {
    ///     t.add_player(NewPlayer::ranked(name, rank.parse().unwrap())).unwrap();
    /// }
    /// let round = t.pair_next_round().unwrap();
    /// assert_eq!(round.games.len(), 1); // three players: one rests
    /// assert_eq!(round.byes.len(), 1);
    /// ```
    ///
    /// # Errors
    /// Settings that contradict themselves.
    pub fn new(name: &str, settings: Settings) -> Result<Tournament, TournamentError> {
        if name.trim().is_empty() {
            return Err(TournamentError::EmptyName);
        }
        check_settings(&settings)?;
        Ok(Tournament {
            name: name.trim().to_owned(),
            place: None,
            dates: None,
            komi: None,
            time_control: None,
            settings,
            players: Arc::default(),
            teams: Vec::new(),
            rounds: Vec::new(),
            draw: Vec::new(),
            notes: Vec::new(),
        })
    }

    /// The event's name.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Where it is held.
    #[must_use]
    pub fn place(&self) -> Option<&str> {
        self.place.as_deref()
    }

    /// When (free text, e.g. `2026-05-01,2026-05-03`).
    #[must_use]
    pub fn dates(&self) -> Option<&str> {
        self.dates.as_deref()
    }

    /// Komi as stated (`7.5`, `3.75 子`).
    #[must_use]
    pub fn komi(&self) -> Option<&str> {
        self.komi.as_deref()
    }

    /// Time control as stated (`90 min + 3×30 s`).
    #[must_use]
    pub fn time_control(&self) -> Option<&str> {
        self.time_control.as_deref()
    }

    /// Sets the event's details shown in exports: place, dates (`2026-05-01`
    /// or `2026-05-01,2026-05-03`), komi and time control.
    pub fn set_details(
        &mut self,
        place: Option<String>,
        dates: Option<String>,
        komi: Option<String>,
        time_control: Option<String>,
    ) {
        let clean = |s: Option<String>| s.map(|x| x.trim().to_owned()).filter(|x| !x.is_empty());
        self.place = clean(place);
        self.dates = clean(dates);
        self.komi = clean(komi);
        self.time_control = clean(time_control);
    }

    /// Appends a round read from another program's file (OpenGotha): the
    /// games and byes as they were played.
    pub(crate) fn push_imported_round(&mut self, round: Round) -> Result<(), TournamentError> {
        let mut seen = std::collections::HashSet::new();
        for g in &round.games {
            for p in [g.black, g.white] {
                if p.index() >= self.players.len() {
                    return Err(TournamentError::UnknownPlayer(p.to_string()));
                }
                if !seen.insert(p) {
                    return Err(TournamentError::Corrupt(format!(
                        "{} plays twice in round {}",
                        self.players[p.index()].name,
                        round.number
                    )));
                }
            }
        }
        self.rounds.push(round);
        Ok(())
    }

    /// The settings.
    #[must_use]
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Changes the settings while no round is paired.
    ///
    /// # Errors
    /// After the first pairing, or settings that contradict themselves.
    pub fn set_settings(&mut self, settings: Settings) -> Result<(), TournamentError> {
        if !self.rounds.is_empty() && settings.system != self.settings.system {
            return Err(TournamentError::Settings(
                "the system cannot change once rounds are paired".into(),
            ));
        }
        check_settings(&settings)?;
        if !self.rounds.is_empty() && settings.teams != self.settings.teams {
            return Err(TournamentError::Settings(
                "the team format cannot change once rounds are paired".into(),
            ));
        }
        if settings.teams.is_some() != self.settings.teams.is_some() && !self.players.is_empty() {
            return Err(TournamentError::Settings(
                "an event cannot switch between individual and team once players are registered"
                    .into(),
            ));
        }
        self.settings = settings;
        Ok(())
    }

    /// Registered players by number.
    #[must_use]
    pub fn players(&self) -> &[Player] {
        &self.players
    }

    /// The players to change (copied first if another copy of the event
    /// shares them).
    fn players_mut(&mut self) -> &mut Vec<Player> {
        Arc::make_mut(&mut self.players)
    }

    /// Registered teams by number.
    #[must_use]
    pub fn teams(&self) -> &[Team] {
        &self.teams
    }

    /// Paired rounds.
    #[must_use]
    pub fn rounds(&self) -> &[Round] {
        &self.rounds
    }

    /// The arbiter's notes.
    #[must_use]
    pub fn notes(&self) -> &[Note] {
        &self.notes
    }

    /// A player.
    #[must_use]
    pub fn player(&self, id: PlayerId) -> Option<&Player> {
        self.players.get(id.index())
    }

    /// Whether entrants are teams: team matches and the relay. In a team
    /// total-score event players are the entrants and teams are only ranked
    /// (see [`Tournament::team_standings`]).
    #[must_use]
    pub fn entrants_are_teams(&self) -> bool {
        self.settings.teams.is_some_and(|t| t.format.has_matches())
    }

    /// The team format, in a team event.
    #[must_use]
    pub fn team_format(&self) -> Option<TeamFormat> {
        self.settings.teams.map(|t| t.format)
    }

    /// How many entrants (players, or teams in a team event).
    #[must_use]
    pub fn entrant_count(&self) -> usize {
        if self.entrants_are_teams() {
            self.teams.len()
        } else {
            self.players.len()
        }
    }

    /// The entrant with index `i`.
    #[must_use]
    pub fn entrant(&self, i: usize) -> Entrant {
        if self.entrants_are_teams() {
            Entrant::Team(TeamId(i as u32))
        } else {
            Entrant::Player(PlayerId(i as u32))
        }
    }

    /// An entrant's name.
    #[must_use]
    pub fn entrant_name(&self, e: Entrant) -> &str {
        match e {
            Entrant::Player(p) => self.players.get(p.index()).map_or("?", |x| &x.name),
            Entrant::Team(t) => self.teams.get(t.index()).map_or("?", |x| &x.name),
        }
    }

    /// The round an entrant withdrew from, if any.
    #[must_use]
    pub fn withdrawn_from(&self, i: usize) -> Option<u32> {
        if self.entrants_are_teams() {
            self.teams.get(i).and_then(|t| t.withdrawn_from)
        } else {
            self.players.get(i).and_then(|p| p.withdrawn_from)
        }
    }

    /// Whether entrant `i` takes part in round `round`.
    #[must_use]
    pub fn entrant_plays_in(&self, i: usize, round: u32) -> bool {
        if self.entrants_are_teams() {
            self.teams
                .get(i)
                .is_some_and(|t| t.withdrawn_from.is_none_or(|w| round < w))
        } else {
            self.players.get(i).is_some_and(|p| p.plays_in(round))
        }
    }

    /// The fixed draw (entrant indices in Berger or seed order), once made.
    #[must_use]
    pub fn draw(&self) -> &[u32] {
        &self.draw
    }

    /// Looks a player up by number (1-based) or exact name (any case).
    ///
    /// # Errors
    /// No such player.
    pub fn find_player(&self, key: &str) -> Result<PlayerId, TournamentError> {
        let key = key.trim();
        if let Ok(n) = key.parse::<usize>()
            && (1..=self.players.len()).contains(&n)
        {
            return Ok(PlayerId(n as u32 - 1));
        }
        self.players
            .iter()
            .find(|p| same_name(&p.name, key))
            .map(|p| p.id)
            .ok_or_else(|| TournamentError::UnknownPlayer(key.to_owned()))
    }

    /// Looks a team up by number (1-based, optionally `T3`) or exact name.
    ///
    /// # Errors
    /// No such team.
    pub fn find_team(&self, key: &str) -> Result<TeamId, TournamentError> {
        let key = key.trim();
        let digits = key.strip_prefix(['T', 't']).unwrap_or(key);
        if let Ok(n) = digits.parse::<usize>()
            && (1..=self.teams.len()).contains(&n)
        {
            return Ok(TeamId(n as u32 - 1));
        }
        self.teams
            .iter()
            .find(|t| same_name(&t.name, key))
            .map(|t| t.id)
            .ok_or_else(|| TournamentError::UnknownTeam(key.to_owned()))
    }

    /// Registers a player.
    ///
    /// # Errors
    /// An empty or duplicate name, a McMahon event without a rank, or an
    /// event whose system fixes its field at the first pairing.
    pub fn add_player(&mut self, new: NewPlayer) -> Result<PlayerId, TournamentError> {
        let name = new.name.trim();
        if name.is_empty() {
            return Err(TournamentError::EmptyName);
        }
        if self.players.iter().any(|p| same_name(&p.name, name)) {
            return Err(TournamentError::Duplicate(name.to_owned()));
        }
        if matches!(self.settings.system, System::McMahon(_)) && new.rank.is_none() {
            return Err(TournamentError::RankRequired(name.to_owned()));
        }
        if !self.rounds.is_empty() && !self.settings.system.is_swiss() && !self.entrants_are_teams()
        {
            return Err(TournamentError::RegistrationClosed(
                "this system fixes its field at the first pairing",
            ));
        }
        if matches!(self.settings.system, System::BestOf { .. }) && self.players.len() >= 2 {
            return Err(TournamentError::RegistrationClosed(
                "a match has two players",
            ));
        }
        let id = PlayerId(self.players.len() as u32);
        let absent = (1..=self.rounds.len() as u32).collect();
        self.players_mut().push(Player {
            id,
            name: name.to_owned(),
            rank: new.rank,
            rating: new.rating,
            club: new.club.filter(|c| !c.trim().is_empty()),
            country: new.country.filter(|c| !c.trim().is_empty()),
            team: None,
            withdrawn_from: None,
            absent,
            registration: new.registration,
        });
        Ok(id)
    }

    /// Registers a team of registered players, in board order.
    ///
    /// # Errors
    /// Not a team event, an empty or duplicate name, unknown players or
    /// players already in a team, or fewer members than boards.
    pub fn add_team(
        &mut self,
        name: &str,
        members: &[PlayerId],
    ) -> Result<TeamId, TournamentError> {
        let Some(ts) = self.settings.teams else {
            return Err(TournamentError::Settings("not a team event".into()));
        };
        let name = name.trim();
        if name.is_empty() {
            return Err(TournamentError::EmptyName);
        }
        if self.teams.iter().any(|t| same_name(&t.name, name)) {
            return Err(TournamentError::Duplicate(name.to_owned()));
        }
        if !self.rounds.is_empty() && !self.settings.system.is_swiss() {
            return Err(TournamentError::RegistrationClosed(
                "this system fixes its field at the first pairing",
            ));
        }
        let boards = if self.settings.system == System::Relay {
            1
        } else {
            usize::from(ts.boards)
        };
        if members.len() < boards {
            let what = match ts.format {
                TeamFormat::TotalScore => "counted for the team total",
                TeamFormat::AllPlayAll => "players a side",
                _ => "boards",
            };
            return Err(TournamentError::Lineup(format!(
                "{name} has {} members for {boards} {what}",
                members.len()
            )));
        }
        for (i, m) in members.iter().enumerate() {
            let p = self
                .player(*m)
                .ok_or_else(|| TournamentError::UnknownPlayer(m.to_string()))?;
            if let Some(t) = p.team {
                return Err(TournamentError::Lineup(format!(
                    "{} already plays for {}",
                    p.name,
                    self.teams[t.index()].name
                )));
            }
            if members[..i].contains(m) {
                return Err(TournamentError::Lineup(format!(
                    "{} is listed twice",
                    p.name
                )));
            }
        }
        let id = TeamId(self.teams.len() as u32);
        for m in members {
            self.players_mut()[m.index()].team = Some(id);
        }
        self.teams.push(Team {
            id,
            name: name.to_owned(),
            members: members.to_vec(),
            withdrawn_from: None,
        });
        Ok(id)
    }

    /// The number of the next round to pair.
    #[must_use]
    pub fn next_round(&self) -> u32 {
        self.rounds.len() as u32 + 1
    }

    /// Withdraws an entrant from the next unpaired round on (Art. 28): a
    /// Swiss player is not paired again; round robin and match games become
    /// forfeits, or are all cancelled when fewer than half were played
    /// (round robin); knockout opponents win by forfeit. A team in a team
    /// match keeps its results and forfeits the rest, including the games of
    /// its current match still without a result (an all-play-all match spans
    /// several rounds of play). In a team total-score event every member
    /// withdraws as a player under the system's rule.
    ///
    /// # Errors
    /// Already withdrawn.
    pub fn withdraw(&mut self, entrant: Entrant) -> Result<(), TournamentError> {
        let from = self.next_round();
        let name = self.entrant_name(entrant).to_owned();
        let slot = match entrant {
            Entrant::Player(p) => self
                .players_mut()
                .get_mut(p.index())
                .map(|x| &mut x.withdrawn_from),
            Entrant::Team(t) => self.teams.get_mut(t.index()).map(|x| &mut x.withdrawn_from),
        };
        let Some(slot) = slot else {
            return Err(TournamentError::UnknownPlayer(name));
        };
        if slot.is_some() {
            return Err(TournamentError::Withdrawn(name));
        }
        *slot = Some(from);
        if let Entrant::Team(team) = entrant {
            if self.entrants_are_teams() {
                self.forfeit_pending(team);
            } else {
                let members = self.teams[team.index()].members.clone();
                for m in members {
                    let p = &mut self.players_mut()[m.index()];
                    p.withdrawn_from = p.withdrawn_from.or(Some(from));
                }
            }
        }
        Ok(())
    }

    /// The games of `team`'s matches in the last paired round that have no
    /// result become forfeits against it.
    fn forfeit_pending(&mut self, team: TeamId) {
        let players = &self.players;
        let Some(round) = self.rounds.last_mut() else {
            return;
        };
        let in_match: Vec<u32> = (0..round.matches.len() as u32)
            .filter(|&m| {
                let tm = &round.matches[m as usize];
                tm.black == team || tm.white == team
            })
            .collect();
        for g in &mut round.games {
            if g.outcome.is_none() && g.board.is_some_and(|(m, _)| in_match.contains(&m)) {
                let black_leaves = players[g.black.index()].team == Some(team);
                g.outcome = Some(Outcome::Forfeit(if black_leaves {
                    shoutan_rules::Color::White
                } else {
                    shoutan_rules::Color::Black
                }));
            }
        }
    }

    /// Marks a player absent (not paired) in a future round.
    ///
    /// # Errors
    /// The round is already paired.
    pub fn set_absent(&mut self, player: PlayerId, round: u32) -> Result<(), TournamentError> {
        if round < self.next_round() {
            return Err(TournamentError::AlreadyPaired(round));
        }
        let p = self
            .players_mut()
            .get_mut(player.index())
            .ok_or_else(|| TournamentError::UnknownPlayer(player.to_string()))?;
        if !p.absent.contains(&round) {
            p.absent.push(round);
            p.absent.sort_unstable();
        }
        Ok(())
    }

    /// Entrants whose results are all cancelled: round robin players who
    /// withdrew having played fewer than half their games (Art. 28).
    pub(crate) fn cancelled_entrants(&self) -> Vec<usize> {
        let System::RoundRobin { cycles } = self.settings.system else {
            return Vec::new();
        };
        let field = self.draw.len();
        if field < 2 {
            return Vec::new();
        }
        let scheduled = (field - 1) * usize::from(cycles);
        (0..self.entrant_count())
            .filter(|&i| {
                self.withdrawn_from(i).is_some_and(|from| {
                    let played = self.games_played_before(i, from);
                    2 * played < scheduled
                })
            })
            .collect()
    }

    /// Games entrant `i` played over the board before round `from`.
    fn games_played_before(&self, i: usize, from: u32) -> usize {
        let history = History::build_with(self, (from - 1).min(self.rounds.len() as u32), &[]);
        history
            .games(i)
            .filter(|g| {
                g.result
                    .is_some_and(|r| r.met() && r != crate::PlayerResult::Void)
            })
            .count()
    }

    /// Pairs the next round.
    ///
    /// # Errors
    /// Results missing in the last round, the event finished, or a field the
    /// system cannot pair.
    pub fn pair_next_round(&mut self) -> Result<&Round, TournamentError> {
        self.pair_round(self.next_round())
    }

    /// Pairs round `number`, which must be the next one.
    ///
    /// # Errors
    /// See [`Tournament::pair_next_round`]; also a round already paired or
    /// out of order.
    pub fn pair_round(&mut self, number: u32) -> Result<&Round, TournamentError> {
        let next = self.next_round();
        if number < next {
            return Err(TournamentError::AlreadyPaired(number));
        }
        if number > next {
            return Err(TournamentError::OutOfOrder {
                requested: number,
                next,
            });
        }
        if let Some(last) = self.rounds.last()
            && let Some(g) = last.pending().next()
        {
            return Err(TournamentError::ResultsMissing {
                round: last.number,
                missing: last.pending().count(),
                table: g.table,
            });
        }
        let draft = pairing::draft(self, number)?;
        let round = self.materialise(number, draft)?;
        self.rounds.push(round);
        Ok(self.rounds.last().expect("just pushed"))
    }

    /// Turns a draft into games (line-ups for team matches).
    fn materialise(&mut self, number: u32, draft: Draft) -> Result<Round, TournamentError> {
        let mut round = Round {
            number,
            ..Round::default()
        };
        if let Some(draw) = draft.draw {
            self.draw = draw;
        }
        round.byes = draft.byes;
        if !self.entrants_are_teams() || self.settings.system == System::Relay {
            for pair in &draft.pairs {
                round.games.push(Game {
                    table: round.games.len() as u32 + 1,
                    black: PlayerId(pair.black),
                    white: PlayerId(pair.white),
                    handicap: pair.handicap,
                    colors: pair.colors,
                    outcome: pair.preset,
                    warnings: [0, 0],
                    board: None,
                    match_round: None,
                });
            }
            return Ok(round);
        }
        let mut lineups = Vec::with_capacity(draft.pairs.len());
        for (m, pair) in draft.pairs.iter().enumerate() {
            let (b, w) = (TeamId(pair.black), TeamId(pair.white));
            round.matches.push(TeamMatch {
                table: m as u32 + 1,
                black: b,
                white: w,
            });
            lineups.push((
                self.default_lineup(b, number)?,
                self.default_lineup(w, number)?,
            ));
        }
        // A game of match `m`: the first team's player, the second's, whether
        // the first has black, the board and the round of the match.
        let mut slots: Vec<(usize, PlayerId, PlayerId, bool, u8, Option<u8>)> = Vec::new();
        if self.team_format() == Some(TeamFormat::AllPlayAll) {
            let n = lineups.first().map_or(0, |(a, _)| a.len());
            for slot in pairing::all_play_all::schedule(n) {
                for (m, (a, b)) in lineups.iter().enumerate() {
                    slots.push((
                        m,
                        a[slot.board],
                        b[slot.second],
                        slot.first_black,
                        slot.board as u8 + 1,
                        Some(slot.round as u8 + 1),
                    ));
                }
            }
        } else {
            // Boards alternate colours: the first team has black on odd boards.
            for (m, (a, b)) in lineups.iter().enumerate() {
                for (i, (pa, pb)) in a.iter().zip(b).enumerate() {
                    slots.push((m, *pa, *pb, i % 2 == 0, i as u8 + 1, None));
                }
            }
        }
        for (m, a, b, first_black, board, match_round) in slots {
            let (black, white) = if first_black { (a, b) } else { (b, a) };
            // A forfeit in the draft names the winning team by its colour on
            // board 1: give each game to that team's player.
            let outcome = draft.pairs[m].preset.map(|o| match o {
                Outcome::Forfeit(c) if !first_black => Outcome::Forfeit(c.opponent()),
                other => other,
            });
            round.games.push(Game {
                table: round.games.len() as u32 + 1,
                black,
                white,
                handicap: 0,
                colors: ColorChoice::Schedule,
                outcome,
                warnings: [0, 0],
                board: Some((m as u32, board)),
                match_round,
            });
        }
        Ok(round)
    }

    /// The line-up a team fields by default: its first members in registered
    /// order (skipping unavailable ones with substitutes or per-match
    /// line-ups; fixed boards and all-play-all field the registered players).
    fn default_lineup(&self, team: TeamId, round: u32) -> Result<Vec<PlayerId>, TournamentError> {
        let ts = self
            .settings
            .teams
            .ok_or_else(|| TournamentError::Settings("not a team event".into()))?;
        let t = &self.teams[team.index()];
        let boards = usize::from(ts.boards);
        let lineup: Vec<PlayerId> = match ts.format {
            TeamFormat::FixedBoards | TeamFormat::AllPlayAll | TeamFormat::TotalScore => {
                t.members.iter().take(boards).copied().collect()
            }
            TeamFormat::Substitutes | TeamFormat::PerMatch => t
                .members
                .iter()
                .filter(|p| self.players[p.index()].plays_in(round))
                .take(boards)
                .copied()
                .collect(),
        };
        if lineup.len() < boards {
            return Err(TournamentError::Lineup(format!(
                "{} has only {} players available for {boards} boards in round {round}",
                t.name,
                lineup.len()
            )));
        }
        Ok(lineup)
    }

    /// Replaces a team's line-up in a match whose games have no result yet.
    /// Fixed boards allow no change; with substitutes the registered order
    /// must be kept; per-match line-ups may be in any order. All-play-all
    /// matches field the registered players and take no line-up.
    ///
    /// # Errors
    /// Unknown round, match or team, results already recorded, or a line-up
    /// that breaks the team rule.
    pub fn set_lineup(
        &mut self,
        round: u32,
        team: TeamId,
        lineup: &[PlayerId],
    ) -> Result<(), TournamentError> {
        let ts = self
            .settings
            .teams
            .filter(|t| t.format.has_matches() && self.settings.system != System::Relay)
            .ok_or_else(|| TournamentError::Settings("not a team match event".into()))?;
        if ts.format == TeamFormat::AllPlayAll {
            return Err(TournamentError::Lineup(format!(
                "in an all-play-all match each team's first {} registered players meet all the others",
                ts.boards
            )));
        }
        let r = round
            .checked_sub(1)
            .and_then(|i| self.rounds.get(i as usize))
            .ok_or(TournamentError::NoSuchRound(round))?;
        let (m, tm) = r
            .matches
            .iter()
            .enumerate()
            .find(|(_, tm)| tm.black == team || tm.white == team)
            .ok_or_else(|| {
                TournamentError::Lineup(format!(
                    "{} has no match in round {round}",
                    self.teams[team.index()].name
                ))
            })?;
        let boards = usize::from(ts.boards);
        let members = &self.teams[team.index()].members;
        if lineup.len() != boards {
            return Err(TournamentError::Lineup(format!(
                "{} players for {boards} boards",
                lineup.len()
            )));
        }
        for (i, p) in lineup.iter().enumerate() {
            let Some(pos) = members.iter().position(|x| x == p) else {
                return Err(TournamentError::Lineup(format!(
                    "player {p} is not in the team"
                )));
            };
            if lineup[..i].contains(p) {
                return Err(TournamentError::Lineup(format!(
                    "player {p} is named twice"
                )));
            }
            if !self.players[p.index()].plays_in(round) {
                return Err(TournamentError::Lineup(format!(
                    "{} does not play in round {round}",
                    self.players[p.index()].name
                )));
            }
            match ts.format {
                TeamFormat::FixedBoards if pos != i => {
                    return Err(TournamentError::Lineup(
                        "boards are fixed: the line-up is the registered order".into(),
                    ));
                }
                TeamFormat::Substitutes if i > 0 => {
                    let prev = members
                        .iter()
                        .position(|x| *x == lineup[i - 1])
                        .unwrap_or(0);
                    if pos < prev {
                        return Err(TournamentError::Lineup(
                            "substitutes keep the registered board order".into(),
                        ));
                    }
                }
                _ => {}
            }
        }
        let team_is_black = tm.black == team;
        let m = m as u32;
        let games: Vec<usize> = r
            .games
            .iter()
            .enumerate()
            .filter(|(_, g)| g.board.is_some_and(|(mi, _)| mi == m))
            .map(|(i, _)| i)
            .collect();
        if games.iter().any(|&i| r.games[i].outcome.is_some()) {
            return Err(TournamentError::HasResults(round));
        }
        let r = &mut self.rounds[round as usize - 1];
        for (slot, &gi) in games.iter().enumerate() {
            let g = &mut r.games[gi];
            let board = g.board.map_or(1, |(_, b)| b);
            let black_side = (board % 2 == 1) == team_is_black;
            if black_side {
                g.black = lineup[slot];
            } else {
                g.white = lineup[slot];
            }
        }
        Ok(())
    }

    /// Removes the last round while it has no result (to pair it again
    /// after a late withdrawal or a correction).
    ///
    /// # Errors
    /// No round, or results already recorded.
    pub fn unpair_last_round(&mut self) -> Result<u32, TournamentError> {
        let last = self.rounds.last().ok_or(TournamentError::NoSuchRound(1))?;
        if last
            .games
            .iter()
            .any(|g| g.outcome.is_some() && !self.preset_outcome(g))
        {
            return Err(TournamentError::HasResults(last.number));
        }
        let n = last.number;
        self.rounds.pop();
        if self.rounds.is_empty() {
            self.draw.clear();
        }
        Ok(n)
    }

    /// Whether a game's result was set by the pairing (a forfeit against a
    /// withdrawn entrant) rather than by the arbiter.
    fn preset_outcome(&self, g: &Game) -> bool {
        let out = |p: PlayerId| {
            let i = if self.entrants_are_teams() {
                self.players[p.index()]
                    .team
                    .map_or(p.index(), TeamId::index)
            } else {
                p.index()
            };
            self.withdrawn_from(i).is_some()
        };
        matches!(g.outcome, Some(Outcome::Forfeit(_) | Outcome::Unplayed))
            && (out(g.black) || out(g.white))
    }

    fn game_mut(&mut self, round: u32, table: u32) -> Result<&mut Game, TournamentError> {
        let paired = self.rounds.len() as u32;
        let system = self.settings.system;
        if round == 0 || round > paired {
            return Err(TournamentError::NoSuchRound(round));
        }
        let locks = matches!(
            system,
            System::Knockout { .. } | System::BestOf { .. } | System::Relay
        );
        if locks && round < paired {
            return Err(TournamentError::Locked(round, paired));
        }
        self.rounds[round as usize - 1]
            .games
            .iter_mut()
            .find(|g| g.table == table)
            .ok_or(TournamentError::NoSuchGame { round, table })
    }

    /// Records (or corrects) the result of a game.
    ///
    /// # Errors
    /// No such round or table; in knockout, relay and match play, a round
    /// whose next round is already paired from it.
    pub fn record(
        &mut self,
        round: u32,
        table: u32,
        outcome: Outcome,
    ) -> Result<(), TournamentError> {
        self.game_mut(round, table)?.outcome = Some(outcome);
        Ok(())
    }

    /// Gives a player a warning in a game (Art. 24) and returns how many
    /// that player now has in the game. The arbiter decides what follows
    /// (under the Chinese rules the second loses the game: record it with
    /// [`Tournament::rule`]).
    ///
    /// # Errors
    /// No such game, or the player is not in it.
    pub fn warn(
        &mut self,
        round: u32,
        table: u32,
        player: PlayerId,
    ) -> Result<u8, TournamentError> {
        let name = self
            .player(player)
            .map_or_else(|| player.to_string(), |p| p.name.clone());
        let g = self.game_mut(round, table)?;
        let c = g
            .color_of(player)
            .ok_or(TournamentError::UnknownPlayer(format!(
                "{name} (not at table {table})"
            )))?;
        g.warnings[c.index()] = g.warnings[c.index()].saturating_add(1);
        Ok(g.warnings[c.index()])
    }

    /// Applies a ruling to a game and records it in the notes.
    ///
    /// # Errors
    /// No such game.
    pub fn rule(
        &mut self,
        round: u32,
        table: u32,
        ruling: Ruling,
        reason: &str,
    ) -> Result<(), TournamentError> {
        let g = self.game_mut(round, table)?;
        g.outcome = ruling.outcome();
        let what = match ruling {
            Ruling::Replay => "replay ordered".to_owned(),
            Ruling::Forfeit(c) => format!("{c} forfeits"),
            Ruling::Loss(c) => format!("{c} loses by ruling"),
            other => format!(
                "ruled {}",
                other.outcome().map_or_else(String::new, |o| o.to_string())
            ),
        };
        let text = if reason.trim().is_empty() {
            what
        } else {
            format!("{what}: {}", reason.trim())
        };
        self.notes.push(Note {
            round: Some(round),
            table: Some(table),
            text,
        });
        Ok(())
    }

    /// Adds an arbiter's note.
    pub fn note(&mut self, round: Option<u32>, table: Option<u32>, text: &str) {
        self.notes.push(Note {
            round,
            table,
            text: text.trim().to_owned(),
        });
    }

    /// The standings after the last round whose results are all in.
    #[must_use]
    pub fn standings(&self) -> Standings {
        Standings::compute(self, self.complete_rounds())
    }

    /// The team standings of a team total-score event (队员总分制), from its
    /// individual standings; `None` in any other event.
    ///
    /// ```
    /// use shoutan_tournament::{
    ///     NewPlayer, Outcome, Settings, System, TeamFormat, TeamSettings, Tournament,
    /// };
    /// let teams = TeamSettings { boards: 2, format: TeamFormat::TotalScore };
    /// let mut s = Settings::new(System::RoundRobin { cycles: 1 }, Some(teams));
    /// s.seed = 1;
    /// let mut t = Tournament::new("Schools cup", s).unwrap();
    /// let mut ids = Vec::new();
    /// for name in ["a1", "a2", "b1", "b2"] {
    ///     ids.push(t.add_player(NewPlayer::ranked(name, "1d".parse().unwrap())).unwrap());
    /// }
    /// t.add_team("A", &ids[..2]).unwrap();
    /// t.add_team("B", &ids[2..]).unwrap();
    /// for round in 1..=3 {
    ///     let tables: Vec<u32> = t.pair_next_round().unwrap().games.iter().map(|g| g.table).collect();
    ///     for table in tables {
    ///         t.record(round, table, Outcome::Draw).unwrap();
    ///     }
    /// }
    /// let individual = t.standings();
    /// let teams = t.team_standings(&individual).unwrap();
    /// assert_eq!(teams.rows.len(), 2);
    /// assert_eq!(teams.rows[0].values[0].to_string(), "6"); // two members, three draws each
    /// ```
    #[must_use]
    pub fn team_standings(&self, individual: &Standings) -> Option<Standings> {
        crate::team_total::standings(self, individual)
    }

    /// Rounds whose every game has a result.
    #[must_use]
    pub fn complete_rounds(&self) -> u32 {
        self.rounds
            .iter()
            .take_while(|r| r.pending().next().is_none())
            .count() as u32
    }

    /// The standings after round `round` (clamped to the paired rounds).
    #[must_use]
    pub fn standings_after(&self, round: u32) -> Standings {
        Standings::compute(self, round.min(self.rounds.len() as u32))
    }

    /// OpenGotha's total cost of pairing round `number` as `pairs` from the
    /// rounds before it (the sum OpenGotha's pairing maximises), to compare
    /// two pairings of the same round by OpenGotha's measure.
    ///
    /// # Errors
    /// A round not yet reachable, or a player unknown or paired twice.
    pub fn opengotha_cost(
        &self,
        number: u32,
        pairs: &[(PlayerId, PlayerId)],
    ) -> Result<i64, TournamentError> {
        if number == 0 || number > self.rounds.len() as u32 + 1 {
            return Err(TournamentError::NoSuchRound(number));
        }
        let mut seen = std::collections::HashSet::new();
        for &(a, b) in pairs {
            for p in [a, b] {
                let player = self
                    .player(p)
                    .ok_or_else(|| TournamentError::UnknownPlayer(p.to_string()))?;
                if !seen.insert(p) {
                    return Err(TournamentError::Corrupt(format!(
                        "{} is paired twice",
                        player.name
                    )));
                }
            }
        }
        let pairs: Vec<(usize, usize)> =
            pairs.iter().map(|&(a, b)| (a.index(), b.index())).collect();
        Ok(pairing::opengotha_cost(self, number, &pairs))
    }

    /// The record used by pairing and standings.
    pub(crate) fn history(&self, rounds: u32) -> History {
        History::build(self, rounds)
    }

    /// A colour for a game of two entrants in a round, from the pairing rule.
    pub(crate) fn nigiri(
        &self,
        round: u32,
        table: u32,
        holder: PlayerId,
        guesser: PlayerId,
    ) -> (ColorChoice, PlayerId, PlayerId) {
        let mut rng = fastrand::Rng::with_seed(
            self.settings.seed
                ^ (u64::from(round) << 32)
                ^ u64::from(table).wrapping_mul(0x9E37_79B9_7F4A_7C15),
        );
        let nigiri = crate::Nigiri {
            holder,
            stones: rng.u8(1..=30),
            guess_odd: rng.bool(),
        };
        let (black, white) = if nigiri.guessed() {
            (guesser, holder)
        } else {
            (holder, guesser)
        };
        (ColorChoice::Nigiri(nigiri), black, white)
    }

    /// Reads a tournament file's JSON and checks that it hangs together.
    ///
    /// # Errors
    /// Not JSON of a tournament, or inconsistent data.
    pub fn from_json(text: &str) -> Result<Tournament, TournamentError> {
        let t: Tournament =
            serde_json::from_str(text).map_err(|e| TournamentError::Corrupt(e.to_string()))?;
        t.check()?;
        Ok(t)
    }

    /// The tournament as pretty JSON (the tournament file).
    ///
    /// # Errors
    /// [`TournamentError::Unencodable`] when serde cannot write it: never an
    /// empty file in its place.
    pub fn to_json(&self) -> Result<String, TournamentError> {
        serde_json::to_string_pretty(self).map_err(|e| TournamentError::Unencodable(e.to_string()))
    }

    fn check(&self) -> Result<(), TournamentError> {
        check_settings(&self.settings)?;
        let bad = |s: String| Err(TournamentError::Corrupt(s));
        for (i, p) in self.players.iter().enumerate() {
            if p.id.index() != i {
                return bad(format!("player {} is numbered {}", i + 1, p.id));
            }
            if p.team.is_some_and(|t| t.index() >= self.teams.len()) {
                return bad(format!("player {} names a missing team", p.id));
            }
        }
        for (i, t) in self.teams.iter().enumerate() {
            if t.id.index() != i || t.members.iter().any(|m| m.index() >= self.players.len()) {
                return bad(format!("team {} is inconsistent", i + 1));
            }
        }
        for (i, r) in self.rounds.iter().enumerate() {
            if r.number as usize != i + 1 {
                return bad(format!("round {} is numbered {}", i + 1, r.number));
            }
            let mut seen = std::collections::HashSet::new();
            for g in &r.games {
                if g.black.index() >= self.players.len() || g.white.index() >= self.players.len() {
                    return bad(format!(
                        "round {} table {} names a missing player",
                        r.number, g.table
                    ));
                }
                if !seen.insert(g.table) {
                    return bad(format!(
                        "round {} has two games on table {}",
                        r.number, g.table
                    ));
                }
                if g.board.is_some_and(|(m, _)| m as usize >= r.matches.len()) {
                    return bad(format!(
                        "round {} table {} names a missing match",
                        r.number, g.table
                    ));
                }
                let size = self.settings.teams.map_or(0, |t| t.boards);
                let outside = |x: u8| x == 0 || x > size;
                if g.board.is_some_and(|(_, b)| outside(b)) || g.match_round.is_some_and(outside) {
                    return bad(format!(
                        "round {} table {} names a board or match round outside 1–{size}",
                        r.number, g.table
                    ));
                }
            }
            for b in &r.byes {
                if crate::history::entrant_index(b.entrant) >= self.entrant_count() {
                    return bad(format!(
                        "round {} gives a bye to a missing entrant",
                        r.number
                    ));
                }
            }
        }
        if self
            .draw
            .iter()
            .any(|&d| d as usize >= self.entrant_count())
        {
            return bad("the draw names a missing entrant".into());
        }
        Ok(())
    }

    /// Every game of the event with its round number.
    pub fn games(&self) -> impl Iterator<Item = (u32, &Game)> {
        self.rounds
            .iter()
            .flat_map(|r| r.games.iter().map(move |g| (r.number, g)))
    }

    /// Who is still in (knockout, elimination Swiss), by entrant index.
    pub(crate) fn alive(&self, history: &History) -> Vec<bool> {
        let losses = match self.settings.system {
            System::Knockout { losses } | System::SwissElimination { losses } => {
                usize::from(losses)
            }
            _ => usize::MAX,
        };
        (0..self.entrant_count())
            .map(|i| history.losses(i) < losses && self.withdrawn_from(i).is_none())
            .collect()
    }

    /// Last round an entrant played (for knockout progress).
    pub(crate) fn last_played(history: &History, i: usize) -> u32 {
        history.rows[i]
            .iter()
            .rposition(|e| matches!(e, Entry::Game(_)))
            .map_or(0, |r| r as u32 + 1)
    }
}

/// Whether two names are one ignoring case, as `to_lowercase` compares
/// them; without allocating for the usual ASCII names, since a
/// registration compares its name with every other.
fn same_name(a: &str, b: &str) -> bool {
    if a.is_ascii() && b.is_ascii() {
        a.eq_ignore_ascii_case(b)
    } else {
        a.to_lowercase() == b.to_lowercase()
    }
}

fn check_settings(s: &Settings) -> Result<(), TournamentError> {
    let bad = |m: &str| Err(TournamentError::Settings(m.to_owned()));
    if let Some(c) = &s.certification {
        c.check()?;
    }
    match s.system {
        System::RoundRobin { cycles: 0 } => return bad("a round robin needs at least one cycle"),
        System::Knockout { losses: 0 } | System::SwissElimination { losses: 0 } => {
            return bad("elimination needs at least one loss");
        }
        System::BestOf { games } if !(3..=7).contains(&games) && games != 10 => {
            return bad("a match is best of 3 to 7 games, or of 10");
        }
        System::McMahon(m) if m.bar < m.floor => return bad("the McMahon bar is below the floor"),
        System::Relay if s.teams.is_none() => return bad("a relay (擂台赛) is between two teams"),
        _ => {}
    }
    if s.uses_handicaps() && !s.discipline.rules().handicaps {
        return bad("handicaps are a weiqi rule: set the McMahon handicap ceiling to 0");
    }
    let format = s.teams.map(|t| t.format);
    if s.system == System::Relay
        && matches!(
            format,
            Some(TeamFormat::AllPlayAll | TeamFormat::TotalScore)
        )
    {
        return bad("a relay (擂台赛) has its own order of play: use fixed boards");
    }
    if format == Some(TeamFormat::TotalScore)
        && matches!(s.system, System::Knockout { .. } | System::BestOf { .. })
    {
        return bad(
            "a team total score (队员总分制) adds up points of a round robin, Swiss or McMahon",
        );
    }
    if s.avoid_teammates && format != Some(TeamFormat::TotalScore) {
        return bad("avoiding teammates is for team total-score events, where players are paired");
    }
    if s.system.is_swiss() && s.rounds.is_none_or(|r| r == 0) {
        return bad("Swiss and McMahon events need a number of rounds");
    }
    if s.teams.is_some_and(|t| t.boards == 0) {
        return bad("a team match needs at least one board");
    }
    if format.is_some_and(TeamFormat::has_matches)
        && matches!(s.system, System::McMahon(_) | System::BestOf { .. })
    {
        return bad("McMahon and best-of-N matches are individual systems");
    }
    if s.bye_points > 2 {
        return bad("a bye is worth 0, 1 or 2 points");
    }
    if s.criteria.is_empty() {
        return bad("the standings need at least one criterion");
    }
    let team_only = [crate::Criterion::BoardPoints, crate::Criterion::Boards];
    if !format.is_some_and(TeamFormat::has_matches)
        && s.criteria.iter().any(|c| team_only.contains(c))
    {
        return bad("board points are for team matches");
    }
    if !matches!(s.system, System::McMahon(_)) && s.criteria.contains(&crate::Criterion::Mms) {
        return bad("MMS is for McMahon events");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use shoutan_rules::Rank;

    #[test]
    fn a_name_is_taken_whatever_its_case() {
        let mut settings = Settings::new(System::Swiss, None);
        settings.rounds = Some(3);
        let mut t = Tournament::new("Names", settings).unwrap();
        for name in ["Ke Jie", "ΟΔΥΣΣΕΥΣ", "Ärger"] {
            t.add_player(NewPlayer::ranked(name, Rank::Dan(1))).unwrap();
        }
        // ASCII, Greek with its final sigma, and Latin with an umlaut.
        for taken in ["ke jie", " KE JIE ", "οδυσσευς", "ärger"] {
            let again = t.add_player(NewPlayer::ranked(taken, Rank::Dan(1)));
            assert!(
                matches!(again, Err(TournamentError::Duplicate(_))),
                "{taken}: {again:?}"
            );
        }
        assert!(
            t.add_player(NewPlayer::ranked("Ke Jia", Rank::Dan(1)))
                .is_ok()
        );
        assert_eq!(t.find_player("KE JIE").unwrap(), PlayerId(0));
        assert_eq!(t.find_player("ärger").unwrap(), PlayerId(2));
    }
}
