//! A game's result as every view shows it: in both notations, and as data.

use serde::Serialize;
use shoutan_rules::{Color, GameResult};

/// A result in both notations.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct ResultView {
    /// `B+1.5`, `W+R`, `Draw`, `Void`.
    pub international: String,
    /// 黑胜3/4子, 白中盘胜, 和棋.
    pub chinese: String,
    /// The winner, if one player won.
    pub winner: Option<Color>,
    /// The result as data.
    pub detail: GameResult,
}

impl From<GameResult> for ResultView {
    fn from(r: GameResult) -> ResultView {
        ResultView {
            international: r.international(),
            chinese: r.chinese(),
            winner: r.winner(),
            detail: r,
        }
    }
}
