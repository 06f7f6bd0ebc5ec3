//! Players and teams (Art. 25): who is registered and what the pairing needs
//! to know about them.

use std::fmt;

use serde::{Deserialize, Serialize};
use shoutan_rules::Rank;
use shoutan_rules::rank_scale::egf;

/// A player's number in the event (0-based; shown 1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PlayerId(pub u32);

/// A team's number in the event (0-based; shown 1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct TeamId(pub u32);

impl PlayerId {
    /// The index into the event's players.
    #[must_use]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl TeamId {
    /// The index into the event's teams.
    #[must_use]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0 + 1)
    }
}

impl fmt::Display for TeamId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "T{}", self.0 + 1)
    }
}

/// What a pairing system pairs: a player, or a team in a team event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Entrant {
    /// A player of an individual event.
    Player(PlayerId),
    /// A team of a team event.
    Team(TeamId),
}

/// A registered player.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Player {
    /// The player's number.
    pub id: PlayerId,
    /// Full name as it is shown ("Family Given" for Western names exported
    /// to OpenGotha and EGF files).
    pub name: String,
    /// Rank (required for McMahon and handicaps; optional for other games).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rank: Option<Rank>,
    /// Rating (EGF, Elo or any national scale), used for seeding.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<i32>,
    /// Club.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub club: Option<String>,
    /// Country (ISO code as EGF files use).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub country: Option<String>,
    /// The team, in a team event.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub team: Option<TeamId>,
    /// Withdrawn: not paired from this round on (Art. 28).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub withdrawn_from: Option<u32>,
    /// Rounds the player asked to miss.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub absent: Vec<u32>,
}

impl Player {
    /// The rating OpenGotha files carry: the player's, or one from the rank
    /// on the EGF scale ([`egf`]: 2100 for 1d, 100 a grade).
    #[must_use]
    pub fn gotha_rating(&self) -> i32 {
        self.rating
            .unwrap_or_else(|| egf::rating_of_level(self.rank.map_or(-30, Rank::level)) as i32)
    }

    /// Whether the player takes part in round `round`.
    #[must_use]
    pub fn plays_in(&self, round: u32) -> bool {
        self.withdrawn_from.is_none_or(|w| round < w) && !self.absent.contains(&round)
    }
}

/// A name as OpenGotha and EGF files hold it: the first word as the family
/// name, the rest as the given name.
pub(crate) fn family_and_given(name: &str) -> (String, String) {
    match name.trim().split_once(' ') {
        Some((family, given)) => (family.to_owned(), given.trim().to_owned()),
        None => (name.trim().to_owned(), String::new()),
    }
}

/// A player to register.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NewPlayer {
    /// Full name.
    pub name: String,
    /// Rank.
    pub rank: Option<Rank>,
    /// Rating.
    pub rating: Option<i32>,
    /// Club.
    pub club: Option<String>,
    /// Country.
    pub country: Option<String>,
}

impl NewPlayer {
    /// A player with a name and a rank.
    #[must_use]
    pub fn ranked(name: &str, rank: Rank) -> NewPlayer {
        NewPlayer {
            name: name.to_owned(),
            rank: Some(rank),
            ..NewPlayer::default()
        }
    }
}

/// A registered team: members in board order, then substitutes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Team {
    /// The team's number.
    pub id: TeamId,
    /// Name.
    pub name: String,
    /// Members in registered (board) order.
    pub members: Vec<PlayerId>,
    /// Withdrawn: not paired from this round on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub withdrawn_from: Option<u32>,
}
