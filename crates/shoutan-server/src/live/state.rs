//! A game's whole state — the rules' [`Game`], the [`Clock`], open requests,
//! chat — and the one function that changes it, [`LiveState::apply`], used
//! alike for live events and for replaying the log. An event either applies
//! completely or is refused and changes nothing.

use std::collections::HashMap;

use shoutan_clock::{
    Arrival, Clock, ClockError, ClockOptions, Flag, Instant, LateArrival, Millis, Status,
};
use shoutan_rules::{
    ByColor, Color, Game, GameError, GameResult, Move, Phase, Point, PointSet, Vertex,
};
use shoutan_store::UserId;

use super::event::{ChatChannel, CommandRef, GameEvent};
use crate::settings::{GameSettings, Seat};

/// Requests waiting for the opponent's answer: who asked, for each kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Offers {
    /// A takeback (悔棋).
    pub takeback: Option<Color>,
    /// A draw.
    pub draw: Option<Color>,
    /// A count (申请数子).
    pub count: Option<Color>,
}

/// A chat line kept with the game.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ChatLine {
    /// The event's version.
    pub v: u64,
    /// When (ms since the Unix epoch).
    pub at: u64,
    /// The writer.
    pub user: UserId,
    /// The writer's name.
    pub name: String,
    /// Who sees it.
    pub channel: ChatChannel,
    /// The text.
    pub text: String,
}

/// Why an event cannot be applied. Nothing was changed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// The rules refuse it (an illegal move, the wrong phase, not your turn).
    #[error(transparent)]
    Game(#[from] GameError),
    /// The clock refuses it (a flag fell first, the clock is stopped).
    #[error(transparent)]
    Clock(#[from] ClockError),
    /// A point that is no point of this board.
    #[error("{0} is not a point of this board")]
    BadPoint(Vertex),
    /// An answer to a request nobody made (or one's own).
    #[error("there is no {0} request from your opponent to answer")]
    NoRequest(&'static str),
    /// The same request is already waiting.
    #[error("your {0} request is already waiting for an answer")]
    AlreadyAsked(&'static str),
    /// The opponent asked the same: answer him instead.
    #[error("your opponent's {0} request is waiting: answer it")]
    AnswerFirst(&'static str),
    /// Nothing of the requester's to take back.
    #[error("you have no move to take back")]
    NothingToTakeBack,
    /// A flag that the clock does not show (a corrupt log).
    #[error("the log records a time-out the clock does not show")]
    NoSuchFlag,
}

/// What an applied event did, for the frames sent to clients.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Effects {
    /// Stones captured by a move.
    pub captured: Vec<Point>,
    /// Stones whose life-and-death mark changed.
    pub toggled: Vec<Point>,
    /// Counting has just opened: the server proposes dead stones next.
    pub counting_opened: bool,
}

/// A game, its clock and everything around them.
#[derive(Clone, Debug)]
pub struct LiveState {
    /// The settings fixed at the start.
    pub settings: GameSettings,
    /// The game under the rules.
    pub game: Game,
    /// The clock.
    pub clock: Clock,
    /// The version of the last event applied (0 before the first).
    pub version: u64,
    /// The instant of the last event.
    pub last_at: Instant,
    /// Requests waiting for an answer.
    pub offers: Offers,
    /// The chat so far.
    pub chat: Vec<ChatLine>,
    /// The last command id accepted from each user.
    pub last_command: HashMap<UserId, u64>,
    /// Cancelled (abandoned before both players moved): no result.
    pub cancelled: bool,
    /// What sitting down cost each player of an event's game who came late
    /// (Art. 22: the time late, deducted twice).
    pub late: ByColor<Option<Arrival>>,
}

impl LiveState {
    /// A game as it stands before its first event.
    #[must_use]
    pub fn new(settings: GameSettings, game: Game, clock: Clock) -> LiveState {
        LiveState {
            settings,
            game,
            clock,
            version: 0,
            last_at: Instant::ORIGIN,
            offers: Offers::default(),
            chat: Vec::new(),
            last_command: HashMap::new(),
            cancelled: false,
            late: ByColor::new(None, None),
        }
    }

    /// True once the game has a result (or was cancelled).
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.game.phase() == Phase::Finished
    }

    /// The player whose clock runs, if one does.
    #[must_use]
    pub fn running(&self) -> Option<Color> {
        match self.clock.status() {
            Status::Running { player, .. } => Some(*player),
            _ => None,
        }
    }

    /// Whether both players have played a turn (a game abandoned before is
    /// cancelled, not lost).
    #[must_use]
    pub fn both_moved(&self) -> bool {
        let turns = self.game.turns();
        Color::ALL
            .iter()
            .all(|&c| turns.iter().any(|t| t.color == c))
    }

    /// The point `vertex` names on this board.
    pub fn point(&self, vertex: Vertex) -> Result<Point, Refusal> {
        vertex
            .on(self.game.size())
            .map_err(|_| Refusal::BadPoint(vertex))
    }

    /// How many turns a takeback by `color` would take back: his last turn
    /// and, if the opponent has answered it, that answer too.
    pub fn takeback_depth(&self, color: Color) -> Result<usize, Refusal> {
        let turns = self.game.turns();
        let mine = turns.iter().rposition(|t| t.color == color);
        match mine {
            Some(i) if turns.len() - i <= 2 => Ok(turns.len() - i),
            _ => Err(Refusal::NothingToTakeBack),
        }
    }

    /// Applies one event at `at`, with the command that caused it.
    pub fn apply(
        &mut self,
        at: Instant,
        event: &GameEvent,
        cmd: Option<CommandRef>,
    ) -> Result<Effects, Refusal> {
        let effects = self.apply_event(at, event)?;
        self.version += 1;
        self.last_at = at;
        if let Some(cmd) = cmd {
            self.last_command.insert(cmd.user, cmd.id);
        }
        if let GameEvent::Chat {
            user,
            name,
            channel,
            text,
        } = event
        {
            self.chat.push(ChatLine {
                v: self.version,
                at: at.as_millis(),
                user: *user,
                name: name.clone(),
                channel: *channel,
                text: text.clone(),
            });
        }
        Ok(effects)
    }

    fn apply_event(&mut self, at: Instant, event: &GameEvent) -> Result<Effects, Refusal> {
        let mut effects = Effects::default();
        match event {
            GameEvent::Start => {
                self.clock.start(self.game.to_move(), at)?;
            }
            GameEvent::Move {
                color,
                point,
                lag_ms,
            } => {
                let p = self.point(*point)?;
                self.game.check(*color, p)?;
                self.clock
                    .play_with_lag(*color, at, Millis::from_millis(*lag_ms))?;
                effects.captured = self.game.play(*color, p)?.captured;
                self.offers = Offers::default();
            }
            GameEvent::Pass { color, lag_ms } => {
                self.check_turn(*color, "a pass")?;
                self.clock
                    .play_with_lag(*color, at, Millis::from_millis(*lag_ms))?;
                self.game.pass(*color)?;
                self.offers = Offers::default();
                effects.counting_opened = self.pause_if_counting(at)?;
            }
            GameEvent::PlaceHandicap { points, lag_ms } => {
                let points = points
                    .iter()
                    .map(|&p| self.point(p))
                    .collect::<Result<Vec<_>, _>>()?;
                let mut game = self.game.clone();
                game.place_handicap(&points)?;
                self.clock
                    .play_with_lag(Color::Black, at, Millis::from_millis(*lag_ms))?;
                self.game = game;
            }
            GameEvent::TimeOut { color } => {
                let mut clock = self.clock.clone();
                match clock.record_flag(at)? {
                    Flag::TimeOut { player, .. } if player == *color => {}
                    _ => return Err(Refusal::NoSuchFlag),
                }
                self.game.time_out(*color)?;
                self.clock = clock;
            }
            GameEvent::TimeOutPass { color } => {
                self.check_turn(*color, "a pass")?;
                let mut clock = self.clock.clone();
                match clock.record_flag(at)? {
                    // The opponent learns of the pass only now (the server
                    // waits out the lag allowance before declaring a flag):
                    // his clock runs from now, not from the flag's instant.
                    Flag::TimeOutPass { player, at: fell } if player == *color => {
                        clock.excuse_downtime(at - fell);
                    }
                    _ => return Err(Refusal::NoSuchFlag),
                }
                self.clock = clock;
                self.game.pass(*color)?;
                self.offers = Offers::default();
                effects.counting_opened = self.pause_if_counting(at)?;
            }
            GameEvent::Resign { color } => {
                self.game.resign(*color)?;
            }
            GameEvent::Takeback { color } => {
                self.check_phase(Phase::Play, "a takeback")?;
                self.takeback_depth(*color)?;
                ask(&mut self.offers.takeback, *color, "takeback")?;
            }
            GameEvent::TakebackAnswer { color, accept } => {
                check_answer(self.offers.takeback, *color, "takeback")?;
                if *accept {
                    let depth = self.takeback_depth(color.opponent())?;
                    let mut next = self.clone();
                    for _ in 0..depth {
                        next.game.undo()?;
                    }
                    next.hand_clock_to_mover(at)?;
                    *self = next;
                }
                self.offers.takeback = None;
            }
            GameEvent::DrawOffer { color } => {
                self.check_phase(Phase::Play, "a draw offer")?;
                ask(&mut self.offers.draw, *color, "draw")?;
            }
            GameEvent::DrawAnswer { color, accept } => {
                check_answer(self.offers.draw, *color, "draw")?;
                if *accept {
                    self.game.declare(GameResult::Draw)?;
                }
                self.offers.draw = None;
            }
            GameEvent::CountRequest { color } => {
                self.check_phase(Phase::Play, "a request to count")?;
                ask(&mut self.offers.count, *color, "count")?;
            }
            GameEvent::CountAnswer { color, accept } => {
                check_answer(self.offers.count, *color, "count")?;
                if *accept {
                    let mut clock = self.clock.clone();
                    clock.pause(at)?;
                    self.game.start_counting()?;
                    self.clock = clock;
                    self.offers = Offers::default();
                    effects.counting_opened = true;
                }
                self.offers.count = None;
            }
            GameEvent::Counting { dead } => {
                let mut set = PointSet::new(self.game.size());
                for p in dead {
                    set.insert(self.point(*p)?);
                }
                self.game.set_dead(set)?;
            }
            GameEvent::Toggle { point, .. } => {
                let p = self.point(*point)?;
                effects.toggled = self.game.toggle_dead(p)?;
            }
            GameEvent::Accept { color } => {
                self.game.accept(*color)?;
            }
            GameEvent::CountingExpired => {
                self.check_phase(Phase::Counting, "closing the count")?;
                for color in Color::ALL {
                    self.game.accept(color)?;
                }
            }
            GameEvent::Dispute { color } => {
                let mut next = self.clone();
                next.game.dispute(*color)?;
                next.clock.resume(at)?;
                next.hand_clock_to_mover(at)?;
                *self = next;
            }
            GameEvent::Chat { .. } => {}
            GameEvent::Abandon { color } => {
                self.game.forfeit(color.opponent())?;
            }
            GameEvent::Cancel { .. } => {
                self.game.declare(GameResult::NoResult)?;
                self.cancelled = true;
            }
            GameEvent::Resume { excused_ms } => {
                self.clock.excuse_downtime(Millis::from_millis(*excused_ms));
            }
            GameEvent::Schedule {
                scheduled,
                late_limit_ms,
            } => {
                if *self.clock.status() != Status::NotStarted {
                    return Err(ClockError::AlreadyStarted.into());
                }
                let options = ClockOptions {
                    late_arrival: LateArrival::DeductTwice {
                        limit: Millis::from_millis(*late_limit_ms),
                    },
                    ..*self.clock.options()
                };
                let mut clock = Clock::new(*self.clock.control(), options)?;
                clock.schedule(self.game.to_move(), Instant::from_millis(*scheduled))?;
                self.clock = clock;
            }
            GameEvent::SitDown { color } => {
                let arrival = self.clock.sit_down(*color, at)?;
                if matches!(arrival, Arrival::Late { .. }) {
                    self.late[*color] = Some(arrival);
                }
            }
            GameEvent::AbsentForfeit { color } => {
                let mut clock = self.clock.clone();
                match clock.record_flag(at)? {
                    Flag::Forfeit { player, .. } if player == *color => {}
                    _ => return Err(Refusal::NoSuchFlag),
                }
                self.game.forfeit(*color)?;
                self.clock = clock;
            }
            GameEvent::BothAbsent => {
                let mut clock = self.clock.clone();
                if !matches!(clock.record_flag(at)?, Flag::BothForfeit { .. }) {
                    return Err(Refusal::NoSuchFlag);
                }
                self.game.declare(GameResult::BothLose)?;
                self.clock = clock;
            }
            GameEvent::Ruling { result } => {
                self.game.declare(*result)?;
            }
            GameEvent::Warning { color } => {
                self.game.warn(*color)?;
            }
        }
        if self.is_over() {
            self.stop_clock(at);
        }
        Ok(effects)
    }

    fn check_phase(&self, phase: Phase, action: &'static str) -> Result<(), Refusal> {
        if self.game.phase() == phase {
            Ok(())
        } else {
            Err(GameError::WrongPhase {
                action,
                why: match self.game.phase() {
                    Phase::Setup => "black has not placed the handicap yet",
                    Phase::Play => "the game is being played",
                    Phase::Counting => "the game is being counted",
                    Phase::Finished => "the game is over",
                },
            }
            .into())
        }
    }

    /// A turn by `color` is possible: the game is in play and it is his turn.
    pub fn check_turn(&self, color: Color, action: &'static str) -> Result<(), Refusal> {
        self.check_phase(Phase::Play, action)?;
        if self.game.to_move() == color {
            Ok(())
        } else {
            Err(GameError::NotYourTurn {
                to_move: self.game.to_move(),
            }
            .into())
        }
    }

    /// Counting opened: both clocks stop while the marks are agreed.
    fn pause_if_counting(&mut self, at: Instant) -> Result<bool, Refusal> {
        if self.game.phase() == Phase::Counting {
            self.clock.pause(at)?;
            return Ok(true);
        }
        Ok(false)
    }

    /// After a takeback or a dispute the player to move may not be the one
    /// whose clock runs (the clock has no "set the player"): the other
    /// player's turn is then closed on the clock at this instant, as a
    /// turn of his that used the time it did.
    fn hand_clock_to_mover(&mut self, at: Instant) -> Result<(), Refusal> {
        if self.game.phase() == Phase::Play
            && let Some(running) = self.running()
            && running != self.game.to_move()
        {
            self.clock.play(running, at)?;
        }
        Ok(())
    }

    /// The game is over: the clock stops. A flag that fell unnoticed just
    /// before cannot change a result already reached; the clock then
    /// simply stays as it was and is no longer consulted.
    fn stop_clock(&mut self, at: Instant) {
        if !matches!(
            self.clock.status(),
            Status::Stopped { .. } | Status::Flagged { .. }
        ) && self.clock.stop(at).is_err()
        {
            tracing::debug!("clock left as it was at the end of the game");
        }
    }

    /// In rengo, the partner whose turn it is (in setup and play); `None`
    /// in a game of two, where the colour to move says it all.
    #[must_use]
    pub fn partner_to_move(&self) -> Option<&Seat> {
        self.settings.partners.as_ref()?;
        if !matches!(self.game.phase(), Phase::Setup | Phase::Play) {
            return None;
        }
        let color = self.game.to_move();
        let turns = self
            .game
            .turns()
            .iter()
            .filter(|t| t.color == color)
            .count();
        Some(self.settings.turn_of(color, turns))
    }

    /// The moves as played, with passes.
    #[must_use]
    pub fn moves(&self) -> Vec<(Color, Option<String>)> {
        let size = self.game.size();
        self.game
            .turns()
            .iter()
            .map(|t| {
                (
                    t.color,
                    match t.mv {
                        Move::Play(p) => Some(p.to_gtp(size)),
                        Move::Pass => None,
                    },
                )
            })
            .collect()
    }
}

fn ask(slot: &mut Option<Color>, color: Color, what: &'static str) -> Result<(), Refusal> {
    match *slot {
        Some(c) if c == color => Err(Refusal::AlreadyAsked(what)),
        Some(_) => Err(Refusal::AnswerFirst(what)),
        None => {
            *slot = Some(color);
            Ok(())
        }
    }
}

fn check_answer(slot: Option<Color>, color: Color, what: &'static str) -> Result<(), Refusal> {
    if slot == Some(color.opponent()) {
        Ok(())
    } else {
        Err(Refusal::NoRequest(what))
    }
}
