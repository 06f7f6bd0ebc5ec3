//! Moderation: roles, players' reports, moderators' actions (kept as an
//! audit log: an action is added and may be lifted, never changed
//! otherwise or removed), and what players set between themselves (a
//! block, a mute).

use crate::challenge::PlayerRef;
use crate::{GameId, StoreError, UserId};

/// A role a user may hold besides playing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// Runs the server: every moderator's power, and grants roles.
    Administrator,
    /// Handles reports: warns, mutes, suspends, bans, annuls ratings.
    Moderator,
    /// Runs any event and rules in its games, not only those he was
    /// appointed to.
    Arbiter,
}

impl Role {
    /// Every role.
    pub const ALL: [Role; 3] = [Role::Administrator, Role::Moderator, Role::Arbiter];

    /// The word used in the API and on the command line.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Administrator => "administrator",
            Role::Moderator => "moderator",
            Role::Arbiter => "arbiter",
        }
    }

    /// Reads [`Role::as_str`]'s word (and `admin`).
    #[must_use]
    pub fn parse(word: &str) -> Option<Role> {
        match word {
            "administrator" | "admin" => Some(Role::Administrator),
            "moderator" => Some(Role::Moderator),
            "arbiter" => Some(Role::Arbiter),
            _ => None,
        }
    }

    fn bit(self) -> i64 {
        match self {
            Role::Administrator => 1,
            Role::Moderator => 2,
            Role::Arbiter => 4,
        }
    }
}

/// The roles a user holds (stored as a bit set).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Roles(i64);

impl Roles {
    /// Reads the stored bits; bits no role has are dropped.
    #[must_use]
    pub fn from_bits(bits: i64) -> Roles {
        Roles(bits & Role::ALL.iter().map(|r| r.bit()).sum::<i64>())
    }

    /// The stored bits.
    #[must_use]
    pub fn bits(self) -> i64 {
        self.0
    }

    /// Whether `role` is held.
    #[must_use]
    pub fn has(self, role: Role) -> bool {
        self.0 & role.bit() != 0
    }

    /// Whether he may moderate: a moderator or an administrator.
    #[must_use]
    pub fn moderates(self) -> bool {
        self.has(Role::Moderator) || self.has(Role::Administrator)
    }

    /// These roles with `role` added (or taken away).
    #[must_use]
    pub fn with(self, role: Role, held: bool) -> Roles {
        if held {
            Roles(self.0 | role.bit())
        } else {
            Roles(self.0 & !role.bit())
        }
    }

    /// The roles held, in [`Role::ALL`]'s order.
    pub fn iter(self) -> impl Iterator<Item = Role> {
        Role::ALL.into_iter().filter(move |r| self.has(*r))
    }
}

/// What a moderator (or the operator) did to an account.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ActionKind {
    /// A warning, shown to the player.
    Warning,
    /// No chat until the action's end.
    Mute,
    /// No login and no play until the action's end; running games are
    /// forfeited.
    Suspension,
    /// As a suspension, without an end.
    Ban,
    /// A rated game's effect on both ratings taken back.
    Annulment,
}

impl ActionKind {
    /// The stored and shown word.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            ActionKind::Warning => "warning",
            ActionKind::Mute => "mute",
            ActionKind::Suspension => "suspension",
            ActionKind::Ban => "ban",
            ActionKind::Annulment => "annulment",
        }
    }

    /// Reads [`ActionKind::as_str`]'s word.
    #[must_use]
    pub fn parse(word: &str) -> Option<ActionKind> {
        [
            ActionKind::Warning,
            ActionKind::Mute,
            ActionKind::Suspension,
            ActionKind::Ban,
            ActionKind::Annulment,
        ]
        .into_iter()
        .find(|k| k.as_str() == word)
    }

    /// Whether the action keeps the player out (no login, no play).
    #[must_use]
    pub fn excludes(self) -> bool {
        matches!(self, ActionKind::Suspension | ActionKind::Ban)
    }

    pub(crate) fn read(word: &str) -> Result<ActionKind, StoreError> {
        ActionKind::parse(word)
            .ok_or_else(|| StoreError::Corrupt(format!("moderation action {word:?}")))
    }
}

/// An action to record.
#[derive(Clone, Debug)]
pub struct NewAction {
    /// Whom it concerns.
    pub user: UserId,
    /// What.
    pub kind: ActionKind,
    /// Why, as the player is told.
    pub reason: String,
    /// When a mute or suspension ends (ms); `None` for the others.
    pub until: Option<i64>,
    /// The game (of an annulment, or the one the action is about).
    pub game: Option<GameId>,
    /// The report it answers, which it closes.
    pub report: Option<ReportId>,
    /// The moderator; `None` for the operator at the shell.
    pub by: Option<UserId>,
    /// When (ms since the Unix epoch).
    pub at: i64,
}

/// An action's id.
pub type ActionId = i64;

/// A recorded action: an entry of the audit log.
#[derive(Clone, Debug, PartialEq)]
pub struct ActionRow {
    /// Its id.
    pub id: ActionId,
    /// Whom it concerns.
    pub user: PlayerRef,
    /// What.
    pub kind: ActionKind,
    /// Why.
    pub reason: String,
    /// When a mute or suspension ends.
    pub until: Option<i64>,
    /// The game concerned.
    pub game: Option<GameId>,
    /// The report it answered.
    pub report: Option<ReportId>,
    /// The moderator; `None`: the operator.
    pub by: Option<PlayerRef>,
    /// When.
    pub at: i64,
    /// When it was lifted, and by whom (`None`: the operator).
    pub lifted: Option<(i64, Option<UserId>)>,
}

impl ActionRow {
    /// Whether it still holds at `now`: not lifted, not run out.
    #[must_use]
    pub fn holds(&self, now: i64) -> bool {
        self.lifted.is_none() && self.until.is_none_or(|until| until > now)
    }
}

/// What holds against an account at an instant.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Standing {
    /// Chat is refused until then.
    pub muted_until: Option<i64>,
    /// Login and play are refused until then.
    pub suspended_until: Option<i64>,
    /// Banned (for good, until lifted).
    pub banned: bool,
}

impl Standing {
    /// What `actions` (one user's) leave in force at `now`.
    #[must_use]
    pub fn of(actions: &[ActionRow], now: i64) -> Standing {
        let latest = |kind: ActionKind| {
            actions
                .iter()
                .filter(|a| a.kind == kind && a.holds(now))
                .filter_map(|a| a.until)
                .max()
        };
        Standing {
            muted_until: latest(ActionKind::Mute),
            suspended_until: latest(ActionKind::Suspension),
            banned: actions
                .iter()
                .any(|a| a.kind == ActionKind::Ban && a.holds(now)),
        }
    }
}

/// A report's id.
pub type ReportId = i64;

/// A report to file.
#[derive(Clone, Debug)]
pub struct NewReport {
    /// Who reports.
    pub reporter: UserId,
    /// Whom.
    pub target: UserId,
    /// The game it is about, if any.
    pub game: Option<GameId>,
    /// The chat line it is about: its version in the game's log.
    pub chat: Option<u64>,
    /// The reason, one of the server's words.
    pub reason: String,
    /// What the reporter says.
    pub text: String,
    /// When (ms).
    pub at: i64,
}

/// A filed report.
#[derive(Clone, Debug, PartialEq)]
pub struct ReportRow {
    /// Its id.
    pub id: ReportId,
    /// Who reported.
    pub reporter: PlayerRef,
    /// Whom.
    pub target: PlayerRef,
    /// The game.
    pub game: Option<GameId>,
    /// The chat line's version in the game's log.
    pub chat: Option<u64>,
    /// The reason.
    pub reason: String,
    /// What the reporter said.
    pub text: String,
    /// When.
    pub at: i64,
    /// When it was closed, by whom (`None`: the operator), and how.
    pub closed: Option<(i64, Option<UserId>, String)>,
}

/// What a player set toward another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Relation {
    /// No challenges, chat or notices from him; never paired by automatch.
    Block,
    /// His chat is hidden.
    Mute,
}

impl Relation {
    /// The stored word.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Relation::Block => "block",
            Relation::Mute => "mute",
        }
    }

    pub(crate) fn read(word: &str) -> Result<Relation, StoreError> {
        match word {
            "block" => Ok(Relation::Block),
            "mute" => Ok(Relation::Mute),
            other => Err(StoreError::Corrupt(format!("relation {other:?}"))),
        }
    }
}

/// The condition (after `WHERE`/`AND`) that neither of the users in the
/// SQL expressions `a` and `b` blocked the other.
pub(crate) fn unblocked(a: &str, b: &str) -> String {
    format!(
        "NOT EXISTS (SELECT 1 FROM relations r WHERE r.kind = 'block' AND \
         ((r.user_id = {a} AND r.other_id = {b}) OR (r.user_id = {b} AND r.other_id = {a})))"
    )
}

/// Reports, moderators' actions, roles and players' blocks and mutes.
#[async_trait::async_trait]
pub trait ModerationStore: Send + Sync {
    /// Sets a user's roles; false if there is no such user.
    async fn set_roles(&self, user: UserId, roles: Roles) -> Result<bool, StoreError>;
    /// The users holding any role, by name.
    async fn staff(&self) -> Result<Vec<(PlayerRef, Roles)>, StoreError>;

    /// Files a report.
    async fn create_report(&self, report: NewReport) -> Result<ReportRow, StoreError>;
    /// The report with this id.
    async fn report(&self, id: ReportId) -> Result<Option<ReportRow>, StoreError>;
    /// Reports still open (oldest first), or all (newest first), at most
    /// `limit`.
    async fn reports(&self, open_only: bool, limit: u32) -> Result<Vec<ReportRow>, StoreError>;
    /// Closes an open report; false if it was not open.
    async fn close_report(
        &self,
        id: ReportId,
        by: Option<UserId>,
        at: i64,
        resolution: String,
    ) -> Result<bool, StoreError>;

    /// Records an action, in one transaction with what it does in the
    /// store: a suspension or a ban ends the user's sessions and seeks;
    /// an action answering a report closes it.
    async fn record_action(&self, action: NewAction) -> Result<ActionRow, StoreError>;
    /// Lifts an action that holds; the lifted row, or `None` if it did not
    /// hold (lifted already, run out, or no such action).
    async fn lift_action(
        &self,
        id: ActionId,
        by: Option<UserId>,
        at: i64,
    ) -> Result<Option<ActionRow>, StoreError>;
    /// The action with this id.
    async fn action(&self, id: ActionId) -> Result<Option<ActionRow>, StoreError>;
    /// The audit log: actions concerning `user` (or everyone's), newest
    /// first, at most `limit`.
    async fn actions(&self, user: Option<UserId>, limit: u32)
    -> Result<Vec<ActionRow>, StoreError>;
    /// Actions with an id above `after`, oldest first (for a server to
    /// enforce what another process recorded).
    async fn actions_after(&self, after: ActionId) -> Result<Vec<ActionRow>, StoreError>;
    /// Takes back a rated game's effect on the ratings, once: subtracts
    /// each player's change and the game from his count, and stores the
    /// game's rating summary as `summary`. False if the game's summary is
    /// no longer `expected` (annulled already, or not rated).
    async fn annul_rating(
        &self,
        game: GameId,
        expected: String,
        summary: String,
        changes: [(UserId, f64); 2],
    ) -> Result<bool, StoreError>;

    /// Sets (or with `None` clears) what `user` sets toward `other`.
    async fn set_relation(
        &self,
        user: UserId,
        other: UserId,
        relation: Option<Relation>,
        at: i64,
    ) -> Result<(), StoreError>;
    /// What `user` set toward others, by name.
    async fn relations(&self, user: UserId) -> Result<Vec<(PlayerRef, Relation)>, StoreError>;
    /// Whether either of the two blocked the other.
    async fn blocked(&self, a: UserId, b: UserId) -> Result<bool, StoreError>;
}
