//! What a round holds: games with colours, handicap, result and warnings;
//! team matches; byes; and the arbiter's notes (Art. 17, 23, 24).

use serde::{Deserialize, Serialize};
use shoutan_rules::Color;

use crate::{Entrant, Outcome, PlayerId, TeamId};

/// One game on one table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Game {
    /// Table number, from 1.
    pub table: u32,
    /// The player with black (the side that moves first).
    pub black: PlayerId,
    /// The player with white.
    pub white: PlayerId,
    /// 0 even game, 1 让先 (black without komi), 2–9 handicap stones.
    #[serde(default)]
    pub handicap: u8,
    /// How the colours were decided (`colors`; files written before the
    /// one spelling say `colours`).
    #[serde(alias = "colours")]
    pub colors: ColorChoice,
    /// The result, once known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
    /// Warnings given in this game (Art. 24), per colour: black, white.
    #[serde(default, skip_serializing_if = "is_zero_pair")]
    pub warnings: [u8; 2],
    /// In a team event: the index of the match in the round and the board (from 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<(u32, u8)>,
    /// In an all-play-all team match (全队轮赛制): the round of the match
    /// (from 1) the game belongs to; the games of one round of the match are
    /// played at the same time, one per board.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub match_round: Option<u8>,
}

fn is_zero_pair(w: &[u8; 2]) -> bool {
    *w == [0, 0]
}

impl Game {
    /// The player holding `color`.
    #[must_use]
    pub fn player(&self, color: Color) -> PlayerId {
        match color {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }

    /// The colour `player` holds in this game, if they play it.
    #[must_use]
    pub fn color_of(&self, player: PlayerId) -> Option<Color> {
        if player == self.black {
            Some(Color::Black)
        } else if player == self.white {
            Some(Color::White)
        } else {
            None
        }
    }
}

/// How a game's colours were decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum ColorChoice {
    /// Balanced by the pairing.
    Pairing,
    /// Fixed by the schedule (Berger table, match order, board order).
    Schedule,
    /// A handicap game: the weaker player takes black.
    Handicap,
    /// 猜先: the recorded draw.
    Nigiri(Nigiri),
}

/// A recorded nigiri (docs/spec/rules.md §6): the holder (the higher-ranked player)
/// grabs `stones` white stones; the other player shows one black stone for
/// "odd" or two for "even", and takes black when right.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Nigiri {
    /// Who grabbed the white stones.
    pub holder: PlayerId,
    /// How many.
    pub stones: u8,
    /// The other player's guess: odd.
    pub guess_odd: bool,
}

impl Nigiri {
    /// Whether the guess was right (the guesser takes black).
    #[must_use]
    pub fn guessed(self) -> bool {
        (self.stones % 2 == 1) == self.guess_odd
    }
}

/// A team match: boards alternate colours, `black` holds black on board 1
/// (in an all-play-all match, colours follow its schedule and `black` is
/// the team listed first).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TeamMatch {
    /// Match number in the round, from 1.
    pub table: u32,
    /// Black on the odd boards.
    pub black: TeamId,
    /// White on the odd boards.
    pub white: TeamId,
}

/// An entrant not paired this round who still scores (Swiss bye) or rests
/// (round robin with an odd field, knockout byes to top seeds).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bye {
    /// Who.
    pub entrant: Entrant,
    /// Points given (2/1/0 scale).
    pub points: u8,
}

/// One round.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Round {
    /// Round number, from 1.
    pub number: u32,
    /// Games in table order.
    pub games: Vec<Game>,
    /// Team matches (team events only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub matches: Vec<TeamMatch>,
    /// Byes and rests.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub byes: Vec<Bye>,
}

impl Round {
    /// The game on table `table`.
    #[must_use]
    pub fn game(&self, table: u32) -> Option<&Game> {
        self.games.iter().find(|g| g.table == table)
    }

    /// Games still without a result.
    pub fn pending(&self) -> impl Iterator<Item = &Game> {
        self.games.iter().filter(|g| g.outcome.is_none())
    }
}

/// An arbiter's note (a ruling, a late arrival, a complaint).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Note {
    /// The round it concerns, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<u32>,
    /// The table it concerns, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table: Option<u32>,
    /// The text.
    pub text: String,
}

/// An arbiter's ruling on a game (Art. 17–19, 23, 24).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ruling {
    /// The game is a draw.
    Draw,
    /// The game is replayed: its result is cleared.
    Replay,
    /// Both players lose (both late beyond the limit, disturbed position).
    BothLose,
    /// The result is annulled.
    Void,
    /// This colour forfeits (no show, late, abandonment): the other wins.
    Forfeit(Color),
    /// This colour loses by ruling (second warning, discipline, deliberate
    /// disturbance): the other wins.
    Loss(Color),
}

impl Ruling {
    /// The result the ruling sets (`None` for a replay).
    #[must_use]
    pub fn outcome(self) -> Option<Outcome> {
        match self {
            Ruling::Draw => Some(Outcome::Draw),
            Ruling::Replay => None,
            Ruling::BothLose => Some(Outcome::BothLose),
            Ruling::Void => Some(Outcome::Void),
            Ruling::Forfeit(c) => Some(Outcome::Forfeit(c.opponent())),
            Ruling::Loss(c) => Some(Outcome::Win(c.opponent())),
        }
    }
}
