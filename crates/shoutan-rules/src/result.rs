//! Results of games (Art. 7, 13, 17–24) in the Chinese notation (黑胜3/4子,
//! 白中盘胜, 黑超时负) and the international one (B+1.5, W+R, B+T, Draw,
//! Void), which also parses back.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::{Color, Counting, Score};

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum GameResult {
    /// One player won.
    Win {
        /// The winner.
        winner: Color,
        /// How.
        by: WinBy,
    },
    /// 和棋: an exact tie without a tie rule, an agreed draw, or a ruling.
    Draw,
    /// 无胜负: no result (a repetition cycle, a ruling).
    NoResult,
    /// 重下: the game is to be replayed (a cycle under rules that say so, a ruling).
    Replay,
    /// 双方判负: both players lose (both late beyond the limit, a ruling).
    BothLose,
}

/// How a game was won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum WinBy {
    /// By counting, with the margin and the unit the rules count in. The
    /// margin is zero only when a tie rule gives an exact tie to the winner.
    Score {
        /// The winner's margin.
        margin: Score,
        /// 子 under area and stones-only counting, 目 under territory counting.
        unit: ScoreUnit,
    },
    /// 中盘胜: the opponent resigned.
    Resignation,
    /// 超时: the opponent ran out of time.
    Time,
    /// 不战/弃权: the opponent forfeited (no show, abandonment).
    Forfeit,
    /// 判: by the arbiter's ruling (a second warning, a violation, discipline).
    Ruling,
    /// A win whose reason the record does not say (`B+`).
    Unknown,
}

/// The unit a margin is said in, in Chinese.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ScoreUnit {
    /// 子: area counting.
    Zi,
    /// 目: territory counting.
    Mu,
}

impl ScoreUnit {
    /// The unit a counting method reports in.
    #[must_use]
    pub fn of(counting: Counting) -> ScoreUnit {
        match counting {
            Counting::Area | Counting::StonesOnly => ScoreUnit::Zi,
            Counting::Territory => ScoreUnit::Mu,
        }
    }
}

/// Text that is not an international result.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a result (expected B+1.5, W+R, B+T, B+F, B+J, B+, Draw, 0 or Void)")]
pub struct ResultError(pub String);

impl GameResult {
    /// The winner, if one player won.
    #[must_use]
    pub fn winner(&self) -> Option<Color> {
        match self {
            GameResult::Win { winner, .. } => Some(*winner),
            _ => None,
        }
    }

    /// The result by count for a margin of black over white (positive: black
    /// ahead), with `tie` deciding an exact tie.
    #[must_use]
    pub fn by_count(margin: Score, unit: ScoreUnit, tie: crate::Tie) -> GameResult {
        let win = |winner| GameResult::Win {
            winner,
            by: WinBy::Score {
                margin: margin.abs(),
                unit,
            },
        };
        match margin.half_points() {
            m if m > 0 => win(Color::Black),
            m if m < 0 => win(Color::White),
            _ => match tie {
                crate::Tie::Draw => GameResult::Draw,
                crate::Tie::Black => win(Color::Black),
                crate::Tie::White => win(Color::White),
            },
        }
    }

    /// International notation: `B+1.5`, `W+R`, `B+T`, `B+F`, `B+`, `Draw`, `Void`.
    /// SGF has no form for a win by the arbiter's ruling; it is written
    /// `B+J` (judgment), as the NNGS-based UEC Cup records write it.
    ///
    /// ```
    /// use shoutan_rules::{Color, GameResult, Score, ScoreUnit, WinBy};
    /// let r = GameResult::Win {
    ///     winner: Color::Black,
    ///     by: WinBy::Score { margin: Score::from_half_points(3), unit: ScoreUnit::Zi },
    /// };
    /// assert_eq!(r.international(), "B+1.5");
    /// assert_eq!(r.chinese(), "黑胜3/4子");
    /// assert_eq!(r.chinese_from(Color::White), "白负3/4子");
    /// assert_eq!("B+1.5".parse::<GameResult>().unwrap(), r);
    /// ```
    #[must_use]
    pub fn international(&self) -> String {
        match self {
            GameResult::Win { winner, by } => {
                let how = match by {
                    WinBy::Score { margin, .. } => margin.to_string(),
                    WinBy::Resignation => "R".into(),
                    WinBy::Time => "T".into(),
                    WinBy::Forfeit => "F".into(),
                    WinBy::Ruling => "J".into(),
                    WinBy::Unknown => String::new(),
                };
                format!("{}+{how}", winner.letter())
            }
            GameResult::Draw => "Draw".into(),
            GameResult::NoResult | GameResult::Replay => "Void".into(),
            GameResult::BothLose => "Both lose".into(),
        }
    }

    /// Chinese notation from the winner's side: 黑胜3/4子, 白胜6目半, 黑中盘胜,
    /// 白超时胜, 黑不战胜, 白判胜, 和棋, 无胜负, 重下, 双方判负.
    #[must_use]
    pub fn chinese(&self) -> String {
        match self {
            GameResult::Win { winner, by } => format!("{}{}", winner.chinese(), winning(by)),
            other => neutral(other).to_owned(),
        }
    }

    /// Chinese notation from `color`'s side: the loser reads 黑负1/4子,
    /// 白中盘负, 黑超时负, 黑弃权负, 黑判负.
    #[must_use]
    pub fn chinese_from(&self, color: Color) -> String {
        match self {
            GameResult::Win { winner, .. } if *winner == color => self.chinese(),
            GameResult::Win { by, .. } => {
                let how = match by {
                    WinBy::Score { margin, unit } => format!("负{}", margin_text(*margin, *unit)),
                    WinBy::Resignation => "中盘负".into(),
                    WinBy::Time => "超时负".into(),
                    WinBy::Forfeit => "弃权负".into(),
                    WinBy::Ruling => "判负".into(),
                    WinBy::Unknown => "负".into(),
                };
                format!("{}{how}", color.chinese())
            }
            other => neutral(other).to_owned(),
        }
    }

    /// Reads the international notation, with margins said in the unit of
    /// `counting` when shown in Chinese. Accepts the long forms (`W+Resign`,
    /// `B+Time`, `B+Forfeit`), `0` and `Jigo` for a draw, any case.
    pub fn parse_international(text: &str, counting: Counting) -> Result<GameResult, ResultError> {
        let err = || ResultError(text.to_owned());
        let t = text.trim();
        match t.to_ascii_lowercase().as_str() {
            "0" | "draw" | "jigo" => return Ok(GameResult::Draw),
            "void" => return Ok(GameResult::NoResult),
            "both lose" => return Ok(GameResult::BothLose),
            _ => {}
        }
        let (who, how) = t.split_once('+').ok_or_else(err)?;
        let winner: Color = who.parse().map_err(|_| err())?;
        let by = match how.to_ascii_lowercase().as_str() {
            "" => WinBy::Unknown,
            "r" | "resign" => WinBy::Resignation,
            "t" | "time" => WinBy::Time,
            "f" | "forfeit" => WinBy::Forfeit,
            "j" | "judgment" | "judgement" => WinBy::Ruling,
            number => {
                let margin: Score = number.parse().map_err(|_| err())?;
                if margin < Score::ZERO {
                    return Err(err());
                }
                WinBy::Score {
                    margin,
                    unit: ScoreUnit::of(counting),
                }
            }
        };
        Ok(GameResult::Win { winner, by })
    }
}

fn margin_text(margin: Score, unit: ScoreUnit) -> String {
    match unit {
        ScoreUnit::Zi => format!(
            "{}子",
            Score::from_half_points(margin.half_points()).zi_text()
        ),
        ScoreUnit::Mu => margin.mu_text(),
    }
}

fn winning(by: &WinBy) -> String {
    match by {
        WinBy::Score { margin, unit } => format!("胜{}", margin_text(*margin, *unit)),
        WinBy::Resignation => "中盘胜".into(),
        WinBy::Time => "超时胜".into(),
        WinBy::Forfeit => "不战胜".into(),
        WinBy::Ruling => "判胜".into(),
        WinBy::Unknown => "胜".into(),
    }
}

fn neutral(r: &GameResult) -> &'static str {
    match r {
        GameResult::Draw => "和棋",
        GameResult::NoResult => "无胜负",
        GameResult::Replay => "重下",
        GameResult::BothLose => "双方判负",
        GameResult::Win { .. } => "",
    }
}

impl std::str::FromStr for GameResult {
    type Err = ResultError;
    /// International notation, margins taken as area counting's.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        GameResult::parse_international(s, Counting::Area)
    }
}

impl fmt::Display for GameResult {
    /// The international notation.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.international())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn win(winner: Color, by: WinBy) -> GameResult {
        GameResult::Win { winner, by }
    }

    #[test]
    fn both_notations() {
        let cases = [
            (win(Color::Black, WinBy::Resignation), "B+R", "黑中盘胜"),
            (win(Color::White, WinBy::Time), "W+T", "白超时胜"),
            (win(Color::Black, WinBy::Forfeit), "B+F", "黑不战胜"),
            (
                win(
                    Color::White,
                    WinBy::Score {
                        margin: Score::from_half_points(5),
                        unit: ScoreUnit::Zi,
                    },
                ),
                "W+2.5",
                "白胜1又1/4子",
            ),
            (
                win(
                    Color::Black,
                    WinBy::Score {
                        margin: Score::from_half_points(13),
                        unit: ScoreUnit::Mu,
                    },
                ),
                "B+6.5",
                "黑胜6目半",
            ),
            (GameResult::Draw, "Draw", "和棋"),
            (GameResult::NoResult, "Void", "无胜负"),
            (GameResult::BothLose, "Both lose", "双方判负"),
        ];
        for (result, intl, cn) in cases {
            assert_eq!(result.international(), intl);
            assert_eq!(result.chinese(), cn);
        }
        assert_eq!(
            win(Color::White, WinBy::Time).chinese_from(Color::Black),
            "黑超时负"
        );
        assert_eq!(
            win(Color::White, WinBy::Resignation).chinese_from(Color::Black),
            "黑中盘负"
        );
        let ing_tie = GameResult::by_count(Score::ZERO, ScoreUnit::Zi, crate::Tie::Black);
        assert_eq!(ing_tie.international(), "B+0");
        assert_eq!(
            GameResult::by_count(Score::ZERO, ScoreUnit::Zi, crate::Tie::Draw),
            GameResult::Draw
        );
    }

    #[test]
    fn international_parses_back() {
        for text in [
            "B+1.5",
            "W+R",
            "B+T",
            "W+F",
            "B+",
            "Draw",
            "Void",
            "W+0.5",
            "Both lose",
        ] {
            let r: GameResult = text.parse().unwrap();
            assert_eq!(r.international(), text);
        }
        assert_eq!(
            "w+resign".parse(),
            Ok(win(Color::White, WinBy::Resignation))
        );
        assert_eq!("B+Time".parse(), Ok(win(Color::Black, WinBy::Time)));
        assert_eq!("0".parse(), Ok(GameResult::Draw));
        let r = GameResult::parse_international("B+2.50", Counting::Territory).unwrap();
        assert_eq!(r.chinese(), "黑胜2目半");
    }

    #[test]
    fn malformed_results_are_refused() {
        for bad in ["", "B", "X+R", "B+Q", "B+1.25", "B+-3", "?"] {
            let err = bad.parse::<GameResult>().unwrap_err();
            assert!(err.to_string().contains(&format!("{bad:?}")));
        }
    }
}
