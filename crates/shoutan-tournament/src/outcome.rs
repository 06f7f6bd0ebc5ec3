//! What a tournament records for a game (Art. 27: win 2, draw 1, loss 0),
//! including what arbiters rule (Art. 17, 23, 24): forfeits, both lose, void.
//! Game-agnostic: a xiangqi, chess or bridge result entered by hand is one
//! of these too.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use shoutan_rules::{Color, GameResult, WinBy};

/// The result of one game between the player with black and the player with
/// white. (In a game where another side moves first, black is that side:
/// white in chess, red in xiangqi.)
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Played to a result: this colour won.
    Win(Color),
    /// 和棋: drawn (jigo).
    Draw,
    /// 不战胜: the other player forfeited (no show, late beyond the limit,
    /// abandonment, disciplinary loss); this colour wins without a game.
    Forfeit(Color),
    /// 双方判负: both players lose (a ruling, both absent).
    BothLose,
    /// 无胜负: the result is annulled by a ruling; neither scores.
    Void,
    /// Scheduled but not played and not to be played (results cancelled
    /// after a withdrawal); neither scores and they have not met.
    Unplayed,
}

/// The same result seen from one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlayerResult {
    /// Won over the board.
    Win,
    /// Lost over the board.
    Loss,
    /// Drew.
    Draw,
    /// Won because the opponent forfeited.
    ForfeitWin,
    /// Lost by forfeit.
    ForfeitLoss,
    /// Lost by a ruling that both lose.
    BothLose,
    /// Annulled.
    Void,
    /// Not played.
    Unplayed,
}

impl PlayerResult {
    /// Points under Art. 27: win 2, draw 1, loss 0 (a forfeit win is a win).
    #[must_use]
    pub fn points(self) -> u32 {
        match self {
            PlayerResult::Win | PlayerResult::ForfeitWin => 2,
            PlayerResult::Draw => 1,
            _ => 0,
        }
    }

    /// Whether the game counts as played between the two (so they are not
    /// paired again while avoidable, and the opponent counts in SOS).
    /// Forfeited and unplayed games do not: the players never sat down.
    #[must_use]
    pub fn met(self) -> bool {
        matches!(
            self,
            PlayerResult::Win
                | PlayerResult::Loss
                | PlayerResult::Draw
                | PlayerResult::BothLose
                | PlayerResult::Void
        )
    }

    /// A loss of any kind (for elimination systems).
    #[must_use]
    pub fn is_loss(self) -> bool {
        matches!(
            self,
            PlayerResult::Loss | PlayerResult::ForfeitLoss | PlayerResult::BothLose
        )
    }

    /// A win of any kind.
    #[must_use]
    pub fn is_win(self) -> bool {
        matches!(self, PlayerResult::Win | PlayerResult::ForfeitWin)
    }

    /// The result the opponent had.
    #[must_use]
    pub fn reversed(self) -> PlayerResult {
        match self {
            PlayerResult::Win => PlayerResult::Loss,
            PlayerResult::Loss => PlayerResult::Win,
            PlayerResult::ForfeitWin => PlayerResult::ForfeitLoss,
            PlayerResult::ForfeitLoss => PlayerResult::ForfeitWin,
            other => other,
        }
    }
}

impl Outcome {
    /// The result for the player holding `color`.
    #[must_use]
    pub fn for_color(self, color: Color) -> PlayerResult {
        match self {
            Outcome::Win(w) if w == color => PlayerResult::Win,
            Outcome::Win(_) => PlayerResult::Loss,
            Outcome::Forfeit(w) if w == color => PlayerResult::ForfeitWin,
            Outcome::Forfeit(_) => PlayerResult::ForfeitLoss,
            Outcome::Draw => PlayerResult::Draw,
            Outcome::BothLose => PlayerResult::BothLose,
            Outcome::Void => PlayerResult::Void,
            Outcome::Unplayed => PlayerResult::Unplayed,
        }
    }

    /// The winner, if one side won (over the board or by forfeit).
    #[must_use]
    pub fn winner(self) -> Option<Color> {
        match self {
            Outcome::Win(c) | Outcome::Forfeit(c) => Some(c),
            _ => None,
        }
    }

    /// The tournament result of a finished weiqi game; `None` for a game to
    /// be replayed (重下), which has no result yet.
    ///
    /// ```
    /// use shoutan_rules::GameResult;
    /// use shoutan_tournament::Outcome;
    /// let r: GameResult = "W+R".parse().unwrap();
    /// assert_eq!(Outcome::from_game(&r), Some("W+".parse().unwrap()));
    /// assert_eq!(Outcome::from_game(&"B+F".parse().unwrap()), Some("B+F".parse().unwrap()));
    /// ```
    #[must_use]
    pub fn from_game(result: &GameResult) -> Option<Outcome> {
        Some(match *result {
            GameResult::Win {
                winner,
                by: WinBy::Forfeit,
            } => Outcome::Forfeit(winner),
            GameResult::Win { winner, .. } => Outcome::Win(winner),
            GameResult::Draw => Outcome::Draw,
            GameResult::NoResult => Outcome::Void,
            GameResult::BothLose => Outcome::BothLose,
            GameResult::Replay => return None,
        })
    }
}

impl fmt::Display for Outcome {
    /// `B+`, `W+`, `Draw`, `B+F`, `W+F`, `Both lose`, `Void`, `Unplayed`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win(c) => write!(f, "{}+", c.letter()),
            Outcome::Forfeit(c) => write!(f, "{}+F", c.letter()),
            Outcome::Draw => f.write_str("Draw"),
            Outcome::BothLose => f.write_str("Both lose"),
            Outcome::Void => f.write_str("Void"),
            Outcome::Unplayed => f.write_str("Unplayed"),
        }
    }
}

/// Text that is not a result.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OutcomeError {
    /// No notation reads it.
    #[error(
        "{0:?} is not a result (expected B+, W+, B+2.5, W+R, 1-0, 0-1, draw, B+F, W+F, both-lose, void or unplayed)"
    )]
    Unknown(String),
    /// It names weiqi's black or white in a game whose sides are others.
    #[error(
        "{text:?} names weiqi's colours: in {game} enter 1-0, 0-1 or draw, {first}'s score first"
    )]
    NotThisGamesColors {
        /// The text.
        text: String,
        /// The game.
        game: &'static str,
        /// Its first mover's colour.
        first: &'static str,
    },
}

impl FromStr for Outcome {
    type Err = OutcomeError;

    /// Accepts the tournament notation (`B+`, `W+F`, `draw`, `jigo`, `=`,
    /// `both-lose`, `0-0`, `void`, `unplayed`), chess style `1-0`/`0-1`/`½-½`
    /// (the first side is black, the side that moves first), `+:-`/`-:+`
    /// (forfeits, as in TRF), and any international weiqi result (`B+3.5`,
    /// `W+R`, `B+T`).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim().to_lowercase().replace(['_', ' '], "-");
        let outcome = match t.as_str() {
            "b+" | "1-0" | "black" => Outcome::Win(Color::Black),
            "w+" | "0-1" | "white" => Outcome::Win(Color::White),
            "b+f" | "+:-" | "+-" => Outcome::Forfeit(Color::Black),
            "w+f" | "-:+" | "-+" => Outcome::Forfeit(Color::White),
            "draw" | "jigo" | "=" | "½-½" | "1/2-1/2" | "0.5-0.5" => Outcome::Draw,
            "both-lose" | "bothlose" | "0-0" | "-:-" => Outcome::BothLose,
            "void" | "no-result" => Outcome::Void,
            "unplayed" => Outcome::Unplayed,
            _ => {
                let unknown = || OutcomeError::Unknown(s.to_owned());
                let game: GameResult = s.trim().parse().map_err(|_| unknown())?;
                Outcome::from_game(&game).ok_or_else(unknown)?
            }
        };
        Ok(outcome)
    }
}

impl Serialize for Outcome {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Outcome {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_notation_parses_and_prints_back() {
        for o in [
            Outcome::Win(Color::Black),
            Outcome::Win(Color::White),
            Outcome::Draw,
            Outcome::Forfeit(Color::Black),
            Outcome::Forfeit(Color::White),
            Outcome::BothLose,
            Outcome::Void,
            Outcome::Unplayed,
        ] {
            assert_eq!(o.to_string().parse::<Outcome>(), Ok(o));
        }
        assert_eq!("1-0".parse(), Ok(Outcome::Win(Color::Black)));
        assert_eq!("W+7.5".parse(), Ok(Outcome::Win(Color::White)));
        assert_eq!("jigo".parse(), Ok(Outcome::Draw));
        assert!("B++".parse::<Outcome>().is_err());
        assert!("".parse::<Outcome>().is_err());
    }

    #[test]
    fn points_per_art_27() {
        let o = Outcome::Win(Color::White);
        assert_eq!(o.for_color(Color::White).points(), 2);
        assert_eq!(o.for_color(Color::Black).points(), 0);
        assert_eq!(Outcome::Draw.for_color(Color::Black).points(), 1);
        assert_eq!(
            Outcome::Forfeit(Color::Black)
                .for_color(Color::Black)
                .points(),
            2
        );
        assert!(!Outcome::Forfeit(Color::Black).for_color(Color::Black).met());
        assert_eq!(Outcome::BothLose.for_color(Color::White).points(), 0);
        assert!(Outcome::BothLose.for_color(Color::White).is_loss());
    }
}
