//! An event in memory: the tournament (the crate's value), who runs it,
//! which account plays for which player, the games of each round, and the
//! log it was built from. [`Event::apply`] is the only way it changes, on
//! the server as in a replay.

use std::collections::BTreeMap;
use std::sync::Arc;

use shoutan_rules::Rank;
use shoutan_store::{GameId, TournamentId, UserId};
use shoutan_tournament::{Entrant, NewPlayer, PlayerId, Tournament, TournamentError};

use super::action::{Action, Person};
use super::config::EventConfig;
use crate::error::{ApiError, ErrorCode};

/// One entry of the log as kept in memory.
#[derive(Clone, Debug, PartialEq)]
pub struct LogEntry {
    /// Its place in the log, from 1.
    pub seq: u64,
    /// When (ms).
    pub at: i64,
    /// Who did it (`None`: the server).
    pub actor: Option<Person>,
    /// What.
    pub action: Action,
}

/// An event.
#[derive(Clone, Debug)]
pub struct Event {
    /// Its id.
    pub id: TournamentId,
    /// Who runs it.
    pub organiser: Person,
    /// When it was created (ms).
    pub created_at: i64,
    /// Its settings.
    pub config: EventConfig,
    /// Appointed arbiters.
    pub arbiters: Vec<Person>,
    /// The tournament.
    pub tournament: Tournament,
    /// The account of each player (by player index), if he plays online;
    /// shared between copies, as the tournament's players are.
    pub accounts: Arc<Vec<Option<Person>>>,
    /// The online game of each (round, table).
    pub games: BTreeMap<(u32, u32), GameId>,
    /// When each round was paired (ms): its games' scheduled start.
    pub round_started: BTreeMap<u32, i64>,
    /// The rank certification confirmed by an arbiter: each player with
    /// the rank granted (empty until confirmed).
    pub certified: Vec<(PlayerId, Rank)>,
    /// The log.
    pub log: Vec<LogEntry>,
}

fn refused(e: &TournamentError) -> ApiError {
    ApiError::conflict(ErrorCode::Refused, e.to_string())
}

impl Event {
    /// A new event from its creation entry.
    pub fn new(
        id: TournamentId,
        organiser: Person,
        created_at: i64,
        config: EventConfig,
    ) -> Result<Event, ApiError> {
        let mut tournament = Tournament::new(&config.name, config.settings.clone())
            .map_err(|e| ApiError::bad_request(ErrorCode::BadSystem, e.to_string()))?;
        tournament.set_details(
            config.place.clone(),
            config.dates.clone(),
            Some(
                config
                    .game
                    .komi
                    .map_or_else(|| config.game.ruleset.komi.to_string(), |k| k.to_string()),
            ),
            Some(config.game.time_control.to_string()),
        );
        let log = vec![LogEntry {
            seq: 1,
            at: created_at,
            actor: Some(organiser.clone()),
            action: Action::Create {
                config: config.clone(),
            },
        }];
        Ok(Event {
            id,
            organiser,
            created_at,
            config,
            arbiters: Vec::new(),
            tournament,
            accounts: Arc::default(),
            games: BTreeMap::new(),
            round_started: BTreeMap::new(),
            certified: Vec::new(),
            log,
        })
    }

    /// Whether `user` may change the event (organiser or arbiter).
    #[must_use]
    pub fn can_change(&self, user: UserId) -> bool {
        may_change(&self.organiser, &self.arbiters, user)
    }

    /// The player `user` plays as, if registered.
    #[must_use]
    pub fn player_of(&self, user: UserId) -> Option<PlayerId> {
        self.accounts
            .iter()
            .position(|a| a.as_ref().is_some_and(|a| a.id == user))
            .and_then(|i| u32::try_from(i).ok())
            .map(PlayerId)
    }

    /// The account of a player.
    #[must_use]
    pub fn account(&self, player: PlayerId) -> Option<&Person> {
        self.accounts.get(player.index()).and_then(Option::as_ref)
    }

    /// The seq the next action takes.
    #[must_use]
    pub fn next_seq(&self) -> u64 {
        self.log.len() as u64 + 1
    }

    /// Applies an action and appends it to the log. A refused action may
    /// leave the event part-changed: where the event must outlive a refusal,
    /// use [`Event::tried`] (the registry does for each action; a log
    /// replayed at start needs no copy).
    pub fn apply(
        &mut self,
        action: Action,
        actor: Option<Person>,
        at: i64,
    ) -> Result<(), ApiError> {
        self.change(&action, at)?;
        self.log.push(LogEntry {
            seq: self.next_seq(),
            at,
            actor,
            action,
        });
        Ok(())
    }

    /// The event as `action` would leave it, or why it is refused; `self`
    /// is unchanged. The copy leaves the log out (an action only appends to
    /// it): copying thousands of entries for each result of a large event
    /// was most of the cost of recording one. [`Event::adopt`] takes it.
    pub fn tried(&self, action: &Action, at: i64) -> Result<Event, ApiError> {
        let mut next = Event {
            id: self.id,
            organiser: self.organiser.clone(),
            created_at: self.created_at,
            config: self.config.clone(),
            arbiters: self.arbiters.clone(),
            tournament: self.tournament.clone(),
            accounts: self.accounts.clone(),
            games: self.games.clone(),
            round_started: self.round_started.clone(),
            certified: self.certified.clone(),
            log: Vec::new(),
        };
        next.change(action, at)?;
        Ok(next)
    }

    /// Becomes `next`, the event [`Event::tried`] made of `action`, and
    /// logs the action.
    pub fn adopt(&mut self, next: Event, action: Action, actor: Option<Person>, at: i64) {
        let log = std::mem::take(&mut self.log);
        *self = Event { log, ..next };
        self.log.push(LogEntry {
            seq: self.next_seq(),
            at,
            actor,
            action,
        });
    }

    fn change(&mut self, action: &Action, at: i64) -> Result<(), ApiError> {
        let registered = |user| self.player_of(user).is_some();
        if let Action::AddPlayer {
            account: Some(a), ..
        } = action
            && registered(a.id)
        {
            return Err(ApiError::conflict(
                ErrorCode::AlreadyRegistered,
                format!("{} is already registered", a.name),
            ));
        }
        let t = &mut self.tournament;
        match action {
            Action::Create { .. } => {
                return Err(ApiError::conflict(ErrorCode::Refused, "the event exists"));
            }
            Action::AppointArbiter { arbiter } => {
                if self.can_change(arbiter.id) {
                    return Err(ApiError::conflict(
                        ErrorCode::AlreadyArbiter,
                        format!("{} already runs this event", arbiter.name),
                    ));
                }
                self.arbiters.push(arbiter.clone());
            }
            Action::AddPlayer {
                name,
                rank,
                club,
                country,
                account,
            } => {
                let id = t
                    .add_player(NewPlayer {
                        name: name.clone(),
                        rank: *rank,
                        rating: None,
                        club: club.clone(),
                        country: country.clone(),
                        ..NewPlayer::default()
                    })
                    .map_err(|e| refused(&e))?;
                if id.index() != self.accounts.len() {
                    return Err(ApiError::internal("player numbers out of step"));
                }
                Arc::make_mut(&mut self.accounts).push(account.clone());
            }
            Action::Withdraw { player } => {
                t.withdraw(Entrant::Player(*player))
                    .map_err(|e| refused(&e))?;
            }
            Action::WithdrawTeam { team } => {
                t.withdraw(Entrant::Team(*team)).map_err(|e| refused(&e))?;
            }
            Action::AddTeam { name, members } => {
                t.add_team(name, members).map_err(|e| refused(&e))?;
            }
            Action::Lineup {
                round,
                team,
                players,
            } => {
                t.set_lineup(*round, *team, players)
                    .map_err(|e| refused(&e))?;
            }
            Action::StartRound { pairing } => {
                let made = t.pair_next_round().map_err(|e| refused(&e))?;
                if made != pairing {
                    return Err(ApiError::internal(format!(
                        "event {}: round {} pairs differently on replay",
                        self.id, pairing.number
                    )));
                }
                self.round_started.insert(pairing.number, at);
            }
            Action::Result {
                round,
                table,
                outcome,
                ..
            } => {
                t.record(*round, *table, *outcome)
                    .map_err(|e| refused(&e))?;
            }
            Action::Warning {
                round,
                table,
                player,
            } => {
                let count = t.warn(*round, *table, *player).map_err(|e| refused(&e))?;
                if count >= 2 {
                    let color = t
                        .rounds()
                        .get(*round as usize - 1)
                        .and_then(|r| r.game(*table))
                        .and_then(|g| g.color_of(*player))
                        .ok_or_else(|| ApiError::internal("a warned player left the game"))?;
                    t.rule(
                        *round,
                        *table,
                        shoutan_tournament::Ruling::Loss(color),
                        "second warning (Art. 24)",
                    )
                    .map_err(|e| refused(&e))?;
                }
            }
            Action::Ruling {
                round,
                table,
                ruling,
                reason,
            } => {
                t.rule(*round, *table, ruling.ruling(), reason)
                    .map_err(|e| refused(&e))?;
            }
            Action::Certify { ranks } => {
                let qualifiers = t.certification().ok_or_else(|| {
                    ApiError::conflict(
                        ErrorCode::NotCertifiable,
                        "the event has no certification rule or is not finished",
                    )
                })?;
                if !self.certified.is_empty() {
                    return Err(ApiError::conflict(
                        ErrorCode::AlreadyCertified,
                        "the rank certification is already confirmed",
                    ));
                }
                if let Some((p, _)) = ranks
                    .iter()
                    .find(|(p, r)| !qualifiers.iter().any(|q| q.player == *p && q.to == *r))
                {
                    return Err(ApiError::conflict(
                        ErrorCode::NotQualified,
                        format!("player {p} does not qualify for that rank"),
                    ));
                }
                self.certified.clone_from(ranks);
            }
        }
        Ok(())
    }

    /// The pairing the next round would get, without changing the event.
    pub fn next_pairing(&self) -> Result<shoutan_tournament::Round, ApiError> {
        let mut t = self.tournament.clone();
        t.pair_next_round().cloned().map_err(|e| refused(&e))
    }
}

/// Whether `user` is the organiser or one of the arbiters: who may change
/// an event.
#[must_use]
pub fn may_change(organiser: &Person, arbiters: &[Person], user: UserId) -> bool {
    organiser.id == user || arbiters.iter().any(|a| a.id == user)
}
