//! One entry of an event's log: what an organiser, an arbiter, a player or
//! the server itself did. Replaying the entries in order through the
//! tournament crate rebuilds the event.

use serde::{Deserialize, Serialize};
use shoutan_rules::{Color, Rank};
use shoutan_store::{GameId, User, UserId};
use shoutan_tournament::{Outcome, PlayerId, Round, Ruling, TeamId};

use super::config::EventConfig;

/// An account as the event names it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Person {
    /// The account.
    pub id: UserId,
    /// Its name.
    pub name: String,
}

impl Person {
    /// The account `user`, as the event names it.
    #[must_use]
    pub fn of(user: &User) -> Person {
        Person {
            id: user.id,
            name: user.name.clone(),
        }
    }
}

/// An arbiter's ruling as stored (the tournament crate's [`Ruling`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RulingKind {
    /// A draw.
    Draw,
    /// Replayed: the result is cleared.
    Replay,
    /// Both lose.
    BothLose,
    /// Annulled.
    Void,
    /// This colour forfeits (no show, late, abandonment).
    Forfeit {
        /// Who forfeits.
        color: Color,
    },
    /// This colour loses by ruling (second warning, discipline).
    Loss {
        /// Who loses.
        color: Color,
    },
}

impl RulingKind {
    /// The tournament crate's ruling.
    #[must_use]
    pub fn ruling(self) -> Ruling {
        match self {
            RulingKind::Draw => Ruling::Draw,
            RulingKind::Replay => Ruling::Replay,
            RulingKind::BothLose => Ruling::BothLose,
            RulingKind::Void => Ruling::Void,
            RulingKind::Forfeit { color } => Ruling::Forfeit(color),
            RulingKind::Loss { color } => Ruling::Loss(color),
        }
    }
}

/// What was done.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Action {
    /// The event is created with its settings.
    Create {
        /// The settings.
        config: EventConfig,
    },
    /// An arbiter is appointed.
    AppointArbiter {
        /// The arbiter.
        arbiter: Person,
    },
    /// A player is registered: by himself (with his account) or by the
    /// organiser (with or without an account).
    AddPlayer {
        /// The name in the event.
        name: String,
        /// The rank.
        rank: Option<Rank>,
        /// Club.
        club: Option<String>,
        /// Country.
        country: Option<String>,
        /// The account that plays the games online, if any.
        account: Option<Person>,
    },
    /// A player withdraws from the next unpaired round on (Art. 28).
    Withdraw {
        /// The player.
        player: PlayerId,
    },
    /// A team withdraws.
    WithdrawTeam {
        /// The team.
        team: TeamId,
    },
    /// A team is registered, members in board order.
    AddTeam {
        /// Its name.
        name: String,
        /// Its members.
        members: Vec<PlayerId>,
    },
    /// A team's line-up for a round.
    Lineup {
        /// The round.
        round: u32,
        /// The team.
        team: TeamId,
        /// The players in board order.
        players: Vec<PlayerId>,
    },
    /// The next round is paired (its games are stored with this action).
    StartRound {
        /// The pairing, as made (a replay must make the same).
        pairing: Round,
    },
    /// A game's result: from the live game, or entered by an arbiter.
    Result {
        /// The round.
        round: u32,
        /// The table.
        table: u32,
        /// The result.
        outcome: Outcome,
        /// The online game it came from.
        game: Option<GameId>,
    },
    /// A warning (Art. 24); the second in a game loses it.
    Warning {
        /// The round.
        round: u32,
        /// The table.
        table: u32,
        /// The player warned.
        player: PlayerId,
    },
    /// A ruling on a game.
    Ruling {
        /// The round.
        round: u32,
        /// The table.
        table: u32,
        /// The ruling.
        ruling: RulingKind,
        /// Why.
        reason: String,
    },
    /// An arbiter confirms the rank certification (段级位赛) of a finished
    /// event: these players' declared ranks are raised on the server.
    Certify {
        /// Each certified player with the rank granted.
        ranks: Vec<(PlayerId, Rank)>,
    },
}
