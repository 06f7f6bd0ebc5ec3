//! The game an event is for. The competition rules govern events of weiqi,
//! 象棋 (xiangqi), 国际象棋 (chess) and 军棋 (army chess) alike
//! (docs/spec/competition.md): the event manager pairs and ranks any
//! two-player game whose results are a win, a draw or a loss, and what
//! differs between them is data, read from [`DisciplineRules`]. Games other
//! than weiqi are played elsewhere; the event records their results.
//!
//! Internally every result counts 2/1/0 and the first mover holds
//! [`shoutan_rules::Color::Black`] (weiqi's black, xiangqi's red, chess's
//! white); the rules say how players name and count them.

use std::str::FromStr;

use serde::{Deserialize, Serialize};
use shoutan_rules::Color;

use crate::{Criterion, Outcome, OutcomeError, System};

/// The game of an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Discipline {
    /// 围棋.
    #[default]
    Weiqi,
    /// 象棋, Chinese chess.
    Xiangqi,
    /// 国际象棋, chess.
    Chess,
    /// 军棋 (陆战棋), army chess, two players.
    Junqi,
}

/// What the event manager reads of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DisciplineRules {
    /// The name in files and on the command line.
    pub name: &'static str,
    /// The Chinese name.
    pub chinese: &'static str,
    /// A win as shown: 2 (win 2, draw 1, loss 0, as the Chinese rules count
    /// weiqi, xiangqi and army chess) or 1 (1, ½, 0, as chess counts).
    pub win_points: u8,
    /// The first mover's colour and the second's, as players name them.
    pub colors: [&'static str; 2],
    /// Handicap games exist (McMahon handicaps need them).
    pub handicaps: bool,
    /// Shoutan hosts the games online (weiqi); the others' results are
    /// entered by the arbiter.
    pub online: bool,
    /// Nobody gets the same colour three games running while the pairing
    /// can avoid it (chess and xiangqi alternate colours strictly).
    pub no_third_color_in_a_row: bool,
    /// The standings order of a Swiss event (empty: the system's, as the
    /// weiqi competition rules give it in [`crate::Settings::new`]).
    pub swiss_criteria: &'static [Criterion],
    /// The standings order of a round robin (empty: the system's).
    pub round_robin_criteria: &'static [Criterion],
}

/// A name that is not a game of the event manager.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown game {0:?} (expected weiqi, xiangqi, chess or junqi)")]
pub struct DisciplineError(pub String);

impl FromStr for Discipline {
    type Err = DisciplineError;

    /// `weiqi` (or `go`), `xiangqi`, `chess`, `junqi`, or the Chinese name.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let name = s.trim().to_lowercase();
        if name == "go" {
            return Ok(Discipline::Weiqi);
        }
        Discipline::ALL
            .into_iter()
            .find(|d| {
                let r = d.rules();
                r.name == name || r.chinese == name
            })
            .ok_or_else(|| DisciplineError(s.to_owned()))
    }
}

impl DisciplineRules {
    /// Whether the sides are weiqi's black (first) and white.
    #[must_use]
    pub fn weiqi_colors(&self) -> bool {
        self.colors == ["black", "white"]
    }

    /// The colours' first letters, as crosstables write them.
    #[must_use]
    pub fn color_letters(&self) -> [char; 2] {
        self.colors.map(|c| c.chars().next().unwrap_or('?'))
    }
}

impl Discipline {
    /// Every discipline.
    pub const ALL: [Discipline; 4] = [
        Discipline::Weiqi,
        Discipline::Xiangqi,
        Discipline::Chess,
        Discipline::Junqi,
    ];

    /// The game's rules for the event manager.
    ///
    /// Standings orders: weiqi's are the systems' own (Art. 27);
    /// xiangqi ranks a Swiss by points, opponents' points (对手分), wins and
    /// wins as the second mover (后胜局数); chess by points, Buchholz,
    /// Sonneborn–Berger, wins and wins with black, as FIDE's tie-break
    /// regulations list them; army chess by points, opponents' points and
    /// wins.
    #[must_use]
    pub fn rules(self) -> DisciplineRules {
        use Criterion as C;
        match self {
            Discipline::Weiqi => DisciplineRules {
                name: "weiqi",
                chinese: "围棋",
                win_points: 2,
                colors: ["black", "white"],
                handicaps: true,
                online: true,
                no_third_color_in_a_row: false,
                swiss_criteria: &[],
                round_robin_criteria: &[],
            },
            Discipline::Xiangqi => DisciplineRules {
                name: "xiangqi",
                chinese: "象棋",
                win_points: 2,
                colors: ["red", "black"],
                handicaps: false,
                online: false,
                no_third_color_in_a_row: true,
                swiss_criteria: &[C::Points, C::Sos, C::Wins, C::SecondMoverWins],
                round_robin_criteria: &[C::Points, C::Direct, C::Sb, C::Wins],
            },
            Discipline::Chess => DisciplineRules {
                name: "chess",
                chinese: "国际象棋",
                win_points: 1,
                colors: ["white", "black"],
                handicaps: false,
                online: false,
                no_third_color_in_a_row: true,
                swiss_criteria: &[C::Points, C::Sos, C::Sb, C::Wins, C::SecondMoverWins],
                round_robin_criteria: &[C::Points, C::Direct, C::Sb, C::Wins],
            },
            Discipline::Junqi => DisciplineRules {
                name: "junqi",
                chinese: "军棋",
                win_points: 2,
                colors: ["first", "second"],
                handicaps: false,
                online: false,
                no_third_color_in_a_row: false,
                swiss_criteria: &[C::Points, C::Sos, C::Wins],
                round_robin_criteria: &[C::Points, C::Direct, C::Wins],
            },
        }
    }

    /// A result as an arbiter enters it for this game. A game whose colours
    /// are weiqi's takes every notation [`Outcome`] reads; the others take
    /// only the colour-free ones (`1-0`, `0-1`, `draw`, `+:-`, …: the first
    /// mover's side first), since their black or white is not weiqi's.
    ///
    /// # Errors
    /// Text that is not a result, or names a colour in another game.
    pub fn parse_result(self, text: &str) -> Result<Outcome, OutcomeError> {
        let t = text.trim().to_lowercase();
        let names_color =
            t.starts_with("b+") || t.starts_with("w+") || t == "black" || t == "white";
        let rules = self.rules();
        if names_color && !rules.weiqi_colors() {
            return Err(OutcomeError::NotThisGamesColors {
                text: text.to_owned(),
                game: rules.name,
                first: rules.colors[0],
            });
        }
        text.parse()
    }

    /// A result as this game writes it: weiqi's `B+`, `W+F`, `Draw`…; the
    /// others' `1-0`, `0-1`, `½-½` (the first mover's score first),
    /// `+:-`/`-:+` for a forfeit.
    #[must_use]
    pub fn result_text(self, outcome: Outcome) -> String {
        if self.rules().weiqi_colors() {
            return outcome.to_string();
        }
        match outcome {
            Outcome::Win(Color::Black) => "1-0".into(),
            Outcome::Win(Color::White) => "0-1".into(),
            Outcome::Forfeit(Color::Black) => "+:-".into(),
            Outcome::Forfeit(Color::White) => "-:+".into(),
            Outcome::Draw => "½-½".into(),
            other => other.to_string(),
        }
    }

    /// The standings order of an individual event of this game under a
    /// system, where the game has its own; `None`: the system's default.
    #[must_use]
    pub fn criteria(self, system: System) -> Option<Vec<Criterion>> {
        let r = self.rules();
        let own = match system {
            System::Swiss | System::SwissElimination { .. } => r.swiss_criteria,
            System::RoundRobin { .. } => r.round_robin_criteria,
            _ => &[],
        };
        (!own.is_empty()).then(|| own.to_vec())
    }

    /// Whether this is weiqi, the default (files leave it out).
    #[must_use]
    pub fn is_weiqi(&self) -> bool {
        *self == Discipline::Weiqi
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_come_back() {
        for d in Discipline::ALL {
            assert_eq!(d.rules().name.parse(), Ok(d));
            assert_eq!(d.rules().chinese.parse(), Ok(d));
        }
        assert_eq!("Go".parse(), Ok(Discipline::Weiqi));
        assert_eq!(
            "bridge".parse::<Discipline>().unwrap_err().to_string(),
            "unknown game \"bridge\" (expected weiqi, xiangqi, chess or junqi)"
        );
    }

    /// Chess's white moves first: "white" or "W+" in a chess event would
    /// name the wrong side, so only colour-free results are taken there.
    #[test]
    fn other_games_take_color_free_results() {
        assert_eq!(
            Discipline::Chess.parse_result("1-0"),
            Ok(Outcome::Win(Color::Black))
        );
        assert_eq!(Discipline::Chess.parse_result("draw"), Ok(Outcome::Draw));
        assert_eq!(
            Discipline::Chess.parse_result("both-lose"),
            Ok(Outcome::BothLose)
        );
        for text in ["white", "W+", "B+R", "black"] {
            assert!(Discipline::Xiangqi.parse_result(text).is_err(), "{text}");
        }
        assert_eq!(
            Discipline::Chess
                .parse_result("white")
                .unwrap_err()
                .to_string(),
            "\"white\" names weiqi's colours: in chess enter 1-0, 0-1 or draw, white's score first"
        );
        assert_eq!(
            Discipline::Chess.result_text(Outcome::Win(Color::White)),
            "0-1"
        );
        assert_eq!(Discipline::Chess.result_text(Outcome::Draw), "½-½");
        assert_eq!(
            Discipline::Weiqi.result_text(Outcome::Win(Color::White)),
            "W+"
        );
        assert_eq!(
            Discipline::Weiqi.parse_result("W+R"),
            Ok(Outcome::Win(Color::White))
        );
    }
}
