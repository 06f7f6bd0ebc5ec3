//! Every event in memory, each behind its own lock: a change is checked on
//! a copy, written to the log (with the games it starts) and only then
//! made, and the lobby socket says the event changed. At start the events
//! are rebuilt from their logs; in a cluster, an event another instance
//! changed is brought up to date from its log before this instance's
//! clients are told.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::{Arc, Weak};

use futures_util::StreamExt;
use shoutan_store::{
    GameId, GameRow, NewTournament, NewTournamentGame, Store, StoreError, TournamentAction,
    TournamentGame, TournamentId, TournamentRow, UserId,
};
use tokio::sync::{Mutex, RwLock, mpsc};
use tokio::time::{Duration, Instant};

use super::action::{Action, Person, RulingKind};
use super::config::EventConfig;
use super::event::Event;
use super::games;
use super::published::{JsonBody, PublicView, Versioned};
use super::standings::{StandingsJson, StandingsPage, StandingsPart};
use super::views;
use crate::error::ApiError;
use crate::live::event::GameEvent;
use crate::live::registry::Shared;
use crate::lobby::{LiveGameView, Lobby};
use crate::settings::GameSettings;
use crate::time;

/// Games of a round started at once.
const STARTS_AT_ONCE: usize = 32;

/// Where a game sits in an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seat {
    /// The event.
    pub event: TournamentId,
    /// The round.
    pub round: u32,
    /// The table.
    pub table: u32,
}

/// The events.
pub struct Events {
    store: Arc<dyn Store>,
    games: Arc<Shared>,
    lobby: Arc<Lobby>,
    events: RwLock<BTreeMap<TournamentId, Arc<Mutex<Event>>>>,
    by_game: RwLock<HashMap<GameId, Seat>>,
    failed_starts: Mutex<HashSet<(TournamentId, u32)>>,
    /// Where the events changed here go to be told, with their versions
    /// (see [`tell_changes`]).
    changed: mpsc::UnboundedSender<(TournamentId, u64)>,
    /// Each event's standings page as last computed: a crowd watching the
    /// standings costs one computation per change at most, not one per
    /// fetch.
    standings: std::sync::Mutex<HashMap<TournamentId, StandingsPage>>,
    /// The views every viewer sees alike, as last built: one build per
    /// change serves every watcher.
    public: std::sync::Mutex<Versioned<(TournamentId, PublicView), JsonBody>>,
    /// Each event's head as last built, each viewer's part read from it.
    heads: std::sync::Mutex<Versioned<TournamentId, Arc<views::HeadSnapshot>>>,
}

impl Events {
    /// Rebuilds every event from its log.
    pub async fn load(
        store: Arc<dyn Store>,
        games: Arc<Shared>,
        lobby: Arc<Lobby>,
        stale: mpsc::UnboundedReceiver<TournamentId>,
    ) -> Result<Arc<Events>, StoreError> {
        let (changed, to_tell) = mpsc::unbounded_channel();
        tokio::spawn(tell_changes(Arc::clone(&lobby), to_tell));
        let events = Events {
            store,
            games,
            lobby,
            events: RwLock::new(BTreeMap::new()),
            by_game: RwLock::new(HashMap::new()),
            failed_starts: Mutex::new(HashSet::new()),
            standings: std::sync::Mutex::new(HashMap::new()),
            public: std::sync::Mutex::default(),
            heads: std::sync::Mutex::default(),
            changed,
        };
        for row in events.store.tournaments().await? {
            match events.replay(&row).await {
                Ok(event) => {
                    events.seat_games(row.id, &event.games).await;
                    events
                        .events
                        .write()
                        .await
                        .insert(row.id, Arc::new(Mutex::new(event)));
                }
                Err(why) => tracing::error!("event {} does not replay: {why}", row.id),
            }
        }
        let events = Arc::new(events);
        tokio::spawn(refresh_when_told(Arc::downgrade(&events), stale));
        Ok(events)
    }

    async fn replay(&self, row: &TournamentRow) -> Result<Event, String> {
        let actions = self
            .store
            .tournament_actions(row.id)
            .await
            .map_err(|e| e.to_string())?;
        let mut entries = actions.into_iter();
        let first = entries.next().ok_or("an empty log")?;
        let Action::Create { config } =
            serde_json::from_str::<Action>(&first.body).map_err(|e| e.to_string())?
        else {
            return Err("the log does not begin with the creation".into());
        };
        let organiser = self.person(row.organiser).await?;
        let mut event =
            Event::new(row.id, organiser, row.created_at, config).map_err(|e| e.message)?;
        self.catch_up_log(&mut event, entries.collect()).await?;
        Ok(event)
    }

    /// Applies the logged actions `event` does not have yet, and seats the
    /// online games stored with them.
    async fn catch_up_log(
        &self,
        event: &mut Event,
        actions: Vec<TournamentAction>,
    ) -> Result<(), String> {
        // Caught up on a copy: an action that does not apply leaves the
        // event as it was.
        let mut next = event.clone();
        let have = next.next_seq();
        let actions: Vec<_> = actions.into_iter().filter(|a| a.seq >= have).collect();
        // Every actor read at once: a log of 2,000 registrations names
        // 2,000 players, and a query each is a round trip each.
        let ids: Vec<_> = actions.iter().filter_map(|a| a.actor).collect();
        let actors: HashMap<_, _> = self
            .store
            .users(&ids)
            .await
            .map_err(|e| e.to_string())?
            .iter()
            .map(|u| (u.id, Person::of(u)))
            .collect();
        for stored in actions {
            if stored.seq != next.next_seq() {
                return Err(format!("action {} out of order", stored.seq));
            }
            let action: Action = serde_json::from_str(&stored.body)
                .map_err(|e| format!("action {}: {e}", stored.seq))?;
            let actor = match stored.actor {
                Some(id) => Some(
                    actors
                        .get(&id)
                        .cloned()
                        .ok_or_else(|| format!("no account {id}"))?,
                ),
                None => None,
            };
            next.apply(action, actor, stored.at)
                .map_err(|e| format!("action {}: {}", stored.seq, e.message))?;
        }
        *event = next;
        for g in self
            .store
            .tournament_games(event.id)
            .await
            .map_err(|e| e.to_string())?
        {
            event.games.insert((g.round, g.table), g.game);
        }
        Ok(())
    }

    /// Brings this instance's copy of an event another instance changed
    /// (or created) up to date from its log; returns its version.
    async fn refresh(&self, id: TournamentId) -> Result<u64, String> {
        let known = self.events.read().await.get(&id).cloned();
        let (version, games) = match known {
            Some(event) => {
                let actions = self
                    .store
                    .tournament_actions(id)
                    .await
                    .map_err(|e| e.to_string())?;
                let mut e = event.lock().await;
                self.catch_up_log(&mut e, actions).await?;
                (e.next_seq(), e.games.clone())
            }
            None => {
                let rows = self.store.tournaments().await.map_err(|e| e.to_string())?;
                let row = rows
                    .iter()
                    .find(|r| r.id == id)
                    .ok_or_else(|| format!("no event {id} in the store"))?;
                let event = self.replay(row).await?;
                let seen = (event.next_seq(), event.games.clone());
                self.events
                    .write()
                    .await
                    .entry(id)
                    .or_insert_with(|| Arc::new(Mutex::new(event)));
                seen
            }
        };
        self.seat_games(id, &games).await;
        Ok(version)
    }

    /// Records where each of an event's online games sits.
    async fn seat_games(&self, event: TournamentId, games: &BTreeMap<(u32, u32), GameId>) {
        let mut by_game = self.by_game.write().await;
        for (&(round, table), &game) in games {
            by_game.insert(
                game,
                Seat {
                    event,
                    round,
                    table,
                },
            );
        }
    }

    async fn person(&self, id: shoutan_store::UserId) -> Result<Person, String> {
        let user = self
            .store
            .user(id)
            .await
            .map_err(|e| e.to_string())?
            .ok_or_else(|| format!("no account {id}"))?;
        Ok(Person::of(&user))
    }

    /// Creates an event.
    pub async fn create(
        &self,
        organiser: Person,
        config: EventConfig,
    ) -> Result<Arc<Mutex<Event>>, ApiError> {
        let created_at = time::now_millis();
        let body = serde_json::to_string(&Action::Create {
            config: config.clone(),
        })
        .map_err(ApiError::internal)?;
        let row = self
            .store
            .create_tournament(NewTournament {
                name: config.name.clone(),
                organiser: organiser.id,
                created_at,
                first_action: body,
            })
            .await?;
        let event = Event::new(row.id, organiser, created_at, config)?;
        let version = event.next_seq();
        let event = Arc::new(Mutex::new(event));
        self.events.write().await.insert(row.id, Arc::clone(&event));
        self.tell(row.id, version);
        Ok(event)
    }

    /// Tells the lobby's sockets (and the other instances) that an event
    /// changed, and is now at `version`.
    fn tell(&self, id: TournamentId, version: u64) {
        // The receiver lives as long as the lobby.
        let _ = self.changed.send((id, version));
    }

    /// The event with this id.
    pub async fn get(&self, id: TournamentId) -> Result<Arc<Mutex<Event>>, ApiError> {
        self.events
            .read()
            .await
            .get(&id)
            .cloned()
            .ok_or_else(|| ApiError::not_found(format!("no event {id}")))
    }

    /// Every event.
    pub async fn all(&self) -> Vec<Arc<Mutex<Event>>> {
        self.events.read().await.values().cloned().collect()
    }

    /// The standings (`GET /api/events/{id}/standings`, or `…/current`)
    /// as JSON, with every change made before the call, or, given a
    /// `version` (an `event_changed` notice's), with every change up to
    /// it: the fetches a notice sets off are served by one computation
    /// even as results keep coming in, and without waiting on the event's
    /// lock. Computed outside that lock, one computation at a time per
    /// event, each serving every fetch that waited for it.
    pub async fn standings_json(
        &self,
        id: TournamentId,
        part: StandingsPart,
        version: Option<u64>,
    ) -> Result<JsonBody, ApiError> {
        let event = self.get(id).await?;
        if let Some(body) = version.and_then(|v| self.cached_standings(id, v, part)) {
            return Ok(body);
        }
        // A version not reached yet is the one now: no fetch waits for
        // changes to come.
        let now = event.lock().await.next_seq();
        let wanted = version.map_or(now, |v| v.min(now));
        let gate = {
            let mut standings = self
                .standings
                .lock()
                .map_err(|_| ApiError::internal("the standings cache is poisoned"))?;
            let page = standings.entry(id).or_default();
            if let Some(body) = page.at_least(wanted, part) {
                return Ok(body);
            }
            Arc::clone(&page.gate)
        };
        let _turn = gate.lock().await;
        if let Some(body) = self.cached_standings(id, wanted, part) {
            return Ok(body);
        }
        let (version, tournament) = {
            let e = event.lock().await;
            (e.next_seq(), e.tournament.clone())
        };
        let computing = std::time::Instant::now();
        let json = tokio::task::spawn_blocking(move || StandingsJson::of(&tournament))
            .await
            .map_err(ApiError::internal)??;
        metrics::histogram!("shoutan_event_standings_seconds").record(computing.elapsed());
        let body = json.part(part);
        if let Ok(mut standings) = self.standings.lock() {
            standings.entry(id).or_default().body = Some((version, json));
        }
        Ok(body)
    }

    /// The cached standings of event `id`, if they have every change
    /// before `wanted`.
    fn cached_standings(
        &self,
        id: TournamentId,
        wanted: u64,
        part: StandingsPart,
    ) -> Option<JsonBody> {
        self.standings.lock().ok()?.get(&id)?.at_least(wanted, part)
    }

    /// A view every viewer sees alike (`GET /api/events/{id}/players`, or
    /// `…/rounds/{n}`), as the standings are served
    /// ([`Events::standings_json`]).
    pub async fn public_json(
        &self,
        id: TournamentId,
        view: PublicView,
        version: Option<u64>,
    ) -> Result<JsonBody, ApiError> {
        self.at_version(id, version, &self.public, (id, view), |e| match view {
            PublicView::Entrants => JsonBody::of(&views::entrants(e)),
            PublicView::Round(n) => {
                let round = e
                    .tournament
                    .rounds()
                    .iter()
                    .find(|r| r.number == n)
                    .ok_or_else(|| ApiError::not_found(format!("no round {n}")))?;
                JsonBody::of(&views::round(e, round))
            }
        })
        .await
    }

    /// The top of the event's page as `viewer` sees it
    /// (`GET /api/events/{id}/head`): `viewer`'s part read from a snapshot
    /// of the event that serves every viewer.
    pub async fn head(
        &self,
        id: TournamentId,
        viewer: Option<UserId>,
        version: Option<u64>,
    ) -> Result<views::EventHeadView, ApiError> {
        let head = self
            .at_version(id, version, &self.heads, id, |e| {
                Ok(Arc::new(views::HeadSnapshot::of(e)))
            })
            .await?;
        Ok(head.view(viewer, time::now_millis()))
    }

    /// The value of `key` in `cache` with every change of event `id` up to
    /// `version` (a version not reached yet is now's; without one, every
    /// change so far), served without the event's lock when the cache has
    /// it; else built by `build` under that lock, once per change: the
    /// fetches queued behind the one that builds it find it built.
    async fn at_version<K: Eq + std::hash::Hash, T: Clone>(
        &self,
        id: TournamentId,
        version: Option<u64>,
        cache: &std::sync::Mutex<Versioned<K, T>>,
        key: K,
        build: impl FnOnce(&Event) -> Result<T, ApiError>,
    ) -> Result<T, ApiError> {
        let event = self.get(id).await?;
        let cached = |wanted| cache.lock().ok()?.at_least(&key, wanted);
        if let Some(value) = version.and_then(cached) {
            return Ok(value);
        }
        let e = event.lock().await;
        let now = e.next_seq();
        if let Some(value) = cached(version.map_or(now, |v| v.min(now))) {
            return Ok(value);
        }
        let value = build(&e)?;
        if let Ok(mut kept) = cache.lock() {
            kept.keep(key, now, value.clone());
        }
        Ok(value)
    }

    /// Where a game sits, if it belongs to an event.
    pub async fn seat_of(&self, game: GameId) -> Option<Seat> {
        self.by_game.read().await.get(&game).copied()
    }

    /// Applies `action` to the locked event and logs it durably, with the
    /// online games it starts: a round's games, or the new game of a table
    /// an arbiter ordered replayed (重下), whose old game ends first.
    pub async fn change(
        &self,
        event: &mut Event,
        action: Action,
        actor: Option<Person>,
    ) -> Result<(), ApiError> {
        let at = time::now_millis();
        let next = event.tried(&action, at)?;
        let reseated = reseated_tables(event, &next, &action);
        let planned = self.games_started_by(&next, &action, &reseated).await?;
        let (rows, settings): (Vec<_>, Vec<_>) = planned.into_iter().unzip();
        let made = self
            .store
            .append_tournament_action(
                TournamentAction {
                    tournament: event.id,
                    seq: event.next_seq(),
                    at,
                    actor: actor.as_ref().map(|a| a.id),
                    body: serde_json::to_string(&action).map_err(ApiError::internal)?,
                },
                rows,
            )
            .await?;
        event.adopt(next, action.clone(), actor, at);
        self.to_live_game(event, &action).await;
        self.end_reseated(event, &reseated).await;
        self.open(event, made, settings, at).await;
        self.tell(event.id, event.next_seq());
        Ok(())
    }

    /// The online games `action`, just applied to `next`, starts;
    /// `reseated`: the tables of a round whose players a line-up changed.
    async fn games_started_by(
        &self,
        next: &Event,
        action: &Action,
        reseated: &[(u32, u32)],
    ) -> Result<Vec<(NewTournamentGame, GameSettings)>, ApiError> {
        match *action {
            Action::Lineup { round, .. } => {
                let mut made = Vec::new();
                let paired = next
                    .tournament
                    .rounds()
                    .get((round as usize).wrapping_sub(1));
                for g in reseated.iter().filter_map(|&(_, t)| paired?.game(t)) {
                    made.extend(games::for_pairing(&*self.store, next, round, g).await?);
                }
                Ok(made)
            }
            Action::StartRound { ref pairing } => {
                games::for_round(&*self.store, next, pairing).await
            }
            Action::Ruling {
                round,
                table,
                ruling: RulingKind::Replay,
                ..
            } if next.games.contains_key(&(round, table)) => {
                let pairing = next
                    .tournament
                    .rounds()
                    .get((round as usize).wrapping_sub(1))
                    .and_then(|r| r.game(table))
                    .ok_or_else(|| ApiError::internal("a replayed table without a game"))?;
                let game = games::for_pairing(&*self.store, next, round, pairing).await?;
                Ok(game.into_iter().collect())
            }
            _ => Ok(Vec::new()),
        }
    }

    /// Pairs the next round of the locked event, creates its online games
    /// and starts their clocks. Returns the round's number. `actor`: who
    /// started it (`None`: the server, at the round's set time).
    pub async fn start_round(
        &self,
        event: &mut Event,
        actor: Option<Person>,
    ) -> Result<u32, ApiError> {
        let pairing = event.next_pairing()?;
        let number = pairing.number;
        self.change(event, Action::StartRound { pairing }, actor)
            .await?;
        Ok(number)
    }

    /// Ends the online games of the tables a line-up gave other players
    /// (as replaced: 重下, whose result does not count) and unseats them;
    /// the new pairings get their games from [`Events::open`].
    async fn end_reseated(&self, event: &mut Event, reseated: &[(u32, u32)]) {
        for table in reseated {
            let Some(game) = event.games.remove(table) else {
                continue;
            };
            self.by_game.write().await.remove(&game);
            let Some(handle) = self.games.running(game).await else {
                continue;
            };
            let replaced = GameEvent::Ruling {
                result: shoutan_rules::GameResult::Replay,
            };
            if let Ok(Err(why)) = handle.arbiter(replaced).await {
                tracing::info!(game, "event {}: not replaced: {why}", event.id);
            }
        }
    }

    /// Seats the games just created for `event` at their tables and starts
    /// them; they wait for their players from `at` (Art. 22).
    async fn open(
        &self,
        event: &mut Event,
        made: Vec<(TournamentGame, GameRow)>,
        settings: Vec<GameSettings>,
        at: i64,
    ) {
        {
            let mut by_game = self.by_game.write().await;
            for (tg, _) in &made {
                event.games.insert((tg.round, tg.table), tg.game);
                by_game.insert(
                    tg.game,
                    Seat {
                        event: event.id,
                        round: tg.round,
                        table: tg.table,
                    },
                );
            }
        }
        let schedule = GameEvent::Schedule {
            scheduled: u64::try_from(at).unwrap_or(0),
            late_limit_ms: event.config.late_arrival_ms,
        };
        // Started several at once, so that their first events share
        // commits: a round of a thousand boards is live in moments.
        let starts = made.into_iter().zip(settings).map(|((tg, row), s)| {
            let (games, schedule) = (Arc::clone(&self.games), schedule.clone());
            async move {
                let view = LiveGameView::of(row.id, row.created_at, &s);
                (tg, view, games.start_with(row, schedule).await)
            }
        });
        let mut started = futures_util::stream::iter(starts).buffer_unordered(STARTS_AT_ONCE);
        while let Some((tg, view, outcome)) = started.next().await {
            match outcome {
                Ok(_) => self.lobby.game_started(view),
                Err(e) => tracing::error!(
                    "event {}: the game of round {} table {} did not start: {e}",
                    event.id,
                    tg.round,
                    tg.table
                ),
            }
        }
    }

    /// Whether this is the first time the round could not start on time
    /// (so that it is reported once, not at every tick).
    pub async fn first_failure(&self, event: TournamentId, round: u32) -> bool {
        self.failed_starts.lock().await.insert((event, round))
    }

    /// The live games (for the no-show watch).
    #[must_use]
    pub fn games(&self) -> &Arc<Shared> {
        &self.games
    }

    /// The store.
    #[must_use]
    pub fn store(&self) -> &Arc<dyn Store> {
        &self.store
    }
}

/// The (round, table)s whose players `action` changed from `before` to
/// `after`: a team's line-up given after its match was paired.
fn reseated_tables(before: &Event, after: &Event, action: &Action) -> Vec<(u32, u32)> {
    let Action::Lineup { round, .. } = *action else {
        return Vec::new();
    };
    let index = (round as usize).wrapping_sub(1);
    let (Some(was), Some(is)) = (
        before.tournament.rounds().get(index),
        after.tournament.rounds().get(index),
    ) else {
        return Vec::new();
    };
    is.games
        .iter()
        .filter(|g| {
            was.game(g.table)
                .is_none_or(|w| (w.black, w.white) != (g.black, g.white))
        })
        .map(|g| (round, g.table))
        .collect()
}

/// The least time between two notices that one event changed: a burst of
/// results (a thousand boards finishing) is told a few times a second,
/// the last change always. The event pages fetch again at each notice.
const TELL_SPACING: Duration = Duration::from_millis(250);

/// Tells the lobby each event changed, with its latest version, at once
/// when the event's last notice is [`TELL_SPACING`] old, otherwise once
/// when it is. Ends when the events do.
async fn tell_changes(
    lobby: Arc<Lobby>,
    mut changed: mpsc::UnboundedReceiver<(TournamentId, u64)>,
) {
    let mut told: HashMap<TournamentId, Instant> = HashMap::new();
    let mut due: BTreeMap<TournamentId, (Instant, u64)> = BTreeMap::new();
    loop {
        let next = due.values().map(|&(at, _)| at).min();
        tokio::select! {
            change = changed.recv() => {
                let Some((id, version)) = change else { return };
                let now = Instant::now();
                match told.get(&id) {
                    Some(&last) if now < last + TELL_SPACING => {
                        let (_, latest) = due.entry(id).or_insert((last + TELL_SPACING, version));
                        *latest = version.max(*latest);
                    }
                    _ => {
                        lobby.event_changed(id, version);
                        told.insert(id, now);
                    }
                }
            }
            () = tokio::time::sleep_until(next.unwrap_or_else(Instant::now)), if next.is_some() => {
                let now = Instant::now();
                due.retain(|&id, &mut (at, version)| {
                    if at > now {
                        return true;
                    }
                    lobby.event_changed(id, version);
                    told.insert(id, now);
                    false
                });
                told.retain(|_, &mut last| now < last + TELL_SPACING);
            }
        }
    }
}

/// Reads again each event another instance changed, then tells this
/// instance's clients; ids told again while one is read are read once.
/// Ends with the events.
async fn refresh_when_told(
    events: Weak<Events>,
    mut changed: mpsc::UnboundedReceiver<TournamentId>,
) {
    while let Some(first) = changed.recv().await {
        let mut ids = std::collections::BTreeSet::from([first]);
        while let Ok(id) = changed.try_recv() {
            ids.insert(id);
        }
        let Some(events) = events.upgrade() else {
            return;
        };
        for id in ids {
            // Told anyway: the pages fetch what this instance has.
            let version = events.refresh(id).await.unwrap_or_else(|why| {
                tracing::error!("event {id} changed elsewhere and was not read again: {why}");
                0
            });
            events.lobby.event_refreshed(id, version);
        }
    }
}
