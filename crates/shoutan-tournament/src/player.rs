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
    /// Rating-list identities and what OpenGotha records beyond pairing.
    #[serde(default, skip_serializing_if = "Registration::is_empty")]
    pub registration: Registration,
}

/// What a player registered with beyond what pairing reads: the rating
/// lists' identities and the fields OpenGotha keeps, so that an event
/// imported from a file goes back out whole.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Registration {
    /// The family name when it is not the first word of the full name
    /// ("Rocío Pérez Cottín" of "Rocío Pérez Cottín Dulce").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub family_name: Option<String>,
    /// Where the rating comes from, as OpenGotha writes it: `EGF : 2153`,
    /// `FFG : -201`, `INI` (from the rank), `MAN` (typed in).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rating_origin: Option<String>,
    /// The grade the player declared, where it is not the rank.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grade: Option<String>,
    /// EGF PIN.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub egf_pin: Option<String>,
    /// FFG licence number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ffg_licence: Option<String>,
    /// FFG licence status (`L` licensed, `e` foreign, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ffg_licence_status: Option<String>,
    /// AGA member number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub aga_id: Option<String>,
    /// AGA membership expiry, as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub aga_expiration_date: Option<String>,
    /// The arbiter's correction to the McMahon start, in whole points
    /// (OpenGotha's `smmsCorrection`).
    #[serde(skip_serializing_if = "is_zero")]
    pub mms_correction: i32,
    /// Registration not yet confirmed (OpenGotha's `PRE`). Kept and
    /// written back; Shoutan pairs every registered player.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub preliminary: bool,
}

fn is_zero(n: &i32) -> bool {
    *n == 0
}

impl Registration {
    /// Nothing recorded.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        *self == Registration::default()
    }
}

impl Player {
    /// The rating OpenGotha files carry: the player's, or one from the rank
    /// on the EGF scale ([`egf`]: 2100 for 1d, 100 a grade).
    #[must_use]
    pub fn gotha_rating(&self) -> i32 {
        self.rating
            .unwrap_or_else(|| egf::rating_of_level(self.rank.map_or(-30, Rank::level)) as i32)
    }

    /// The family and given names as OpenGotha and EGF files hold them:
    /// as they were imported, else the first word of the name and the rest.
    #[must_use]
    pub fn family_and_given(&self) -> (String, String) {
        match &self.registration.family_name {
            Some(family) => {
                let given = self.name.strip_prefix(family.as_str()).unwrap_or("");
                (family.clone(), given.trim().to_owned())
            }
            None => family_and_given(&self.name),
        }
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
    /// Rating-list identities and OpenGotha's fields.
    pub registration: Registration,
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
