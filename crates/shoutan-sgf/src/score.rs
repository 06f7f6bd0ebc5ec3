//! Counting the final position of a record and comparing with its `RE`:
//! what `shoutan score` prints, as a serialisable report whose fields are
//! the documented, stable JSON of `shoutan score --json`.

use std::fmt;
use std::str::FromStr;

use serde::Serialize;
use shoutan_rules::{Counting, Game, GameResult, PointSet, Score, Tally, WinBy, count};

use crate::markup::dead_stones_from_markup;
use crate::points::PointValueError;
use crate::replay::Replay;
use crate::tree::GameTree;

/// Where the dead stones come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DeadStones {
    /// The record's final markup: stones on the other side's `TB`/`TW`,
    /// and stones listed in `DS`.
    Sgf,
    /// The estimator's proposal, as in online counting (the caller's
    /// estimator: `shoutan score` asks the network).
    Auto,
    /// No stone is dead: count the position as it stands.
    None,
}

/// A name that is no [`DeadStones`] mode.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is no dead-stone mode (expected auto, sgf or none)")]
pub struct DeadStonesError(pub String);

impl FromStr for DeadStones {
    type Err = DeadStonesError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "sgf" => Ok(DeadStones::Sgf),
            "auto" => Ok(DeadStones::Auto),
            "none" => Ok(DeadStones::None),
            _ => Err(DeadStonesError(s.to_owned())),
        }
    }
}

impl fmt::Display for DeadStones {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DeadStones::Sgf => "sgf",
            DeadStones::Auto => "auto",
            DeadStones::None => "none",
        })
    }
}

/// Why a record could not be counted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScoreError {
    /// The final markup names points off the board.
    #[error("dead-stone markup: {0}")]
    Markup(#[from] PointValueError),
}

/// How the count compares with the record's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Agreement {
    /// The same result (the same winner when the record gives no margin).
    Agree,
    /// The same winner by another margin.
    MarginDiffers,
    /// Another winner, or a draw against a win.
    Disagree,
    /// The record's game did not end by counting (resignation, time,
    /// forfeit, ruling, no result): a count cannot confirm it.
    NotComparable,
    /// The record gives no result.
    NoRecord,
}

impl fmt::Display for Agreement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Agreement::Agree => "agrees",
            Agreement::MarginDiffers => "same winner, different margin",
            Agreement::Disagree => "DISAGREES",
            Agreement::NotComparable => "not comparable: the game did not end by counting",
            Agreement::NoRecord => "the record gives no result",
        })
    }
}

/// One side of the count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SideReport {
    /// The count before deductions, in points: the area (stones, surrounded
    /// points, half of the shared ones; under area counting a point is a
    /// 子) or the territory plus prisoners (under territory counting).
    pub count: Score,
    /// Living stones on the board.
    pub stones: u32,
    /// Points surrounded by this side alone, dead stones' points included.
    pub territory: u32,
    /// Points shared with the other side (each worth half, area counting).
    pub shared: u32,
    /// Prisoners: captured in play plus dead stones taken off.
    pub prisoners: u32,
    /// 还棋头: group tax deducted.
    pub tax: Score,
    /// Warnings deducted (Art. 24).
    pub penalty: Score,
    /// The count after deductions.
    pub net: Score,
}

impl From<&Tally> for SideReport {
    fn from(t: &Tally) -> SideReport {
        SideReport {
            count: t.count,
            stones: t.stones,
            territory: t.territory,
            shared: t.shared,
            prisoners: t.prisoners,
            tax: t.tax,
            penalty: t.penalty,
            net: t.net(),
        }
    }
}

/// A result in both notations.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ResultText {
    /// International: `B+1.5`, `W+R`, `Draw`.
    pub international: String,
    /// Chinese: 黑胜3/4子, 白中盘胜, 和棋.
    pub chinese: String,
}

impl From<&GameResult> for ResultText {
    fn from(r: &GameResult) -> ResultText {
        ResultText {
            international: r.international(),
            chinese: r.chinese(),
        }
    }
}

/// The count of a record's final position: the JSON object of
/// `shoutan score --json`. Scores are numbers of points (`7.5`); points
/// on the board are in GTP notation (`Q16`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ScoreReport {
    /// The ruleset counted under (a preset name, or `custom`).
    pub ruleset: String,
    /// `area`, `territory` or `stones_only`.
    pub counting: Counting,
    /// Komi in points.
    pub komi: Score,
    /// Handicap stones.
    pub handicap: u8,
    /// White's compensation for the handicap, in points.
    pub handicap_compensation: Score,
    /// Moves in the record's main line.
    pub moves: usize,
    /// Where the dead stones came from.
    pub dead_source: DeadStones,
    /// With `dead_source` `sgf`: whether the record marks dead stones at all.
    pub dead_marked: bool,
    /// The dead stones, in GTP notation.
    pub dead: Vec<String>,
    /// Black's side.
    pub black: SideReport,
    /// White's side.
    pub white: SideReport,
    /// Under area counting, black's count in 子 as the arbiter announces it
    /// (黑185子): half the board plus half black's lead before komi.
    pub black_zi: Option<Score>,
    /// Black's lead after komi and compensation, in points (negative: white ahead).
    pub margin: Score,
    /// The counted result.
    pub result: ResultText,
    /// `RE` as written, if any.
    pub record_written: Option<String>,
    /// `RE` read, if it could be.
    pub record: Option<ResultText>,
    /// How the count compares with `RE`.
    pub agreement: Agreement,
}

/// Counts the final position of a replayed record; with
/// [`DeadStones::Auto`], `estimator` proposes the dead stones of the final
/// position.
pub fn score(
    replay: &Replay,
    tree: &GameTree,
    dead: DeadStones,
    estimator: &dyn Fn(&Game) -> PointSet,
) -> Result<ScoreReport, ScoreError> {
    let game = &replay.game;
    let board = game.board();
    let size = game.size();
    let (marked, dead_marked) = match dead {
        DeadStones::None => (PointSet::new(size), false),
        DeadStones::Auto => (estimator(game), false),
        DeadStones::Sgf => match dead_stones_from_markup(tree.node(replay.last_node), board)? {
            Some(set) => (set, true),
            None => (PointSet::new(size), false),
        },
    };
    let counted = count(board, &marked, &game.count_settings());
    let result = counted.result();
    let record = replay.info.result;
    Ok(ScoreReport {
        ruleset: game.ruleset().to_string(),
        counting: counted.counting,
        komi: counted.komi,
        handicap: game.handicap(),
        handicap_compensation: counted.handicap_compensation,
        moves: replay.moves,
        dead_source: dead,
        dead_marked,
        dead: marked.iter().map(|p| p.to_gtp(size)).collect(),
        black: SideReport::from(&counted.black),
        white: SideReport::from(&counted.white),
        black_zi: (counted.counting == Counting::Area).then(|| counted.black_zi()),
        margin: counted.margin,
        result: ResultText::from(&result),
        record_written: replay.info.result_written.clone(),
        record: record.as_ref().map(ResultText::from),
        agreement: compare(record, result),
    })
}

fn compare(record: Option<GameResult>, counted: GameResult) -> Agreement {
    let Some(record) = record else {
        return Agreement::NoRecord;
    };
    match (record, counted) {
        (GameResult::Draw, GameResult::Draw) => Agreement::Agree,
        (GameResult::Draw, GameResult::Win { .. }) => Agreement::Disagree,
        (GameResult::Win { winner, by }, counted) => match by {
            WinBy::Score { margin, .. } => match counted {
                GameResult::Win {
                    winner: w,
                    by: WinBy::Score { margin: m, .. },
                } if w == winner => {
                    if m == margin {
                        Agreement::Agree
                    } else {
                        Agreement::MarginDiffers
                    }
                }
                _ => Agreement::Disagree,
            },
            WinBy::Unknown if counted.winner() == Some(winner) => Agreement::Agree,
            WinBy::Unknown => Agreement::Disagree,
            _ => Agreement::NotComparable,
        },
        _ => Agreement::NotComparable,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ReplayOptions, parse, replay};

    /// A 9×9 game ended by two passes; black owns the left four columns,
    /// white the right four, the fifth column is the border:
    ///
    /// ```text
    ///   A B C D E F G H J
    /// 9 . . . X O . . . .
    /// …     (the same on every row)
    /// 1 . . . X O . . . .
    /// ```
    fn finished(extra_root: &str, last: &str) -> (crate::Collection, String) {
        let mut text = format!("(;GM[1]SZ[9]{extra_root}");
        for row in 'a'..='i' {
            text.push_str(&format!(";B[d{row}];W[e{row}]"));
        }
        text.push_str(&format!(";B[];W[]{last})"));
        let (c, _) = parse(&text).unwrap();
        (c, text)
    }

    /// The rules crate's estimator, from its playouts.
    fn playouts(game: &Game) -> PointSet {
        shoutan_rules::estimate(game.board(), game.to_move(), game.ruleset()).dead
    }

    fn report(extra_root: &str, last: &str, dead: DeadStones) -> ScoreReport {
        let (c, _) = finished(extra_root, last);
        let r = replay(&c.games[0], ReplayOptions::default()).unwrap();
        score(&r, &c.games[0], dead, &playouts).unwrap()
    }

    #[test]
    fn area_counting_of_a_finished_game() {
        // Black 36 子, white 45 子; komi 7.5 → white by 16.5 points (8¼ 子).
        let r = report("RU[Chinese]KM[7.5]RE[W+16.5]", "", DeadStones::None);
        assert_eq!(r.black.count, Score::from_points(36));
        assert_eq!(r.white.count, Score::from_points(45));
        assert_eq!(r.result.international, "W+16.5");
        assert_eq!(r.result.chinese, "白胜8又1/4子");
        assert_eq!(r.agreement, Agreement::Agree);
        assert_eq!(r.black_zi, Some(Score::from_half_points(72)));
    }

    #[test]
    fn comparison_with_the_record() {
        let cases = [
            ("RE[W+16.5]", Agreement::Agree),
            ("RE[W+2.5]", Agreement::MarginDiffers),
            ("RE[B+0.5]", Agreement::Disagree),
            ("RE[W+]", Agreement::Agree),
            ("RE[W+R]", Agreement::NotComparable),
            ("RE[?]", Agreement::NoRecord),
            ("", Agreement::NoRecord),
            ("RE[Draw]", Agreement::Disagree),
        ];
        for (re, agreement) in cases {
            let r = report(&format!("RU[Chinese]KM[7.5]{re}"), "", DeadStones::None);
            assert_eq!(r.agreement, agreement, "{re}");
        }
    }

    #[test]
    fn dead_stones_from_territory_markup() {
        // A white stone at B8 in black's area, marked as black territory:
        // dead. Black has 36 子 with it.
        let (_, text) = finished("RU[Chinese]KM[7.5]", "");
        let with_invader = text.replace(";B[];W[]", ";B[];W[bb];B[];W[]TB[bb]");
        let (c, _) = parse(&with_invader).unwrap();
        let r = replay(&c.games[0], ReplayOptions::default()).unwrap();
        let marked = score(&r, &c.games[0], DeadStones::Sgf, &playouts).unwrap();
        assert!(marked.dead_marked);
        assert_eq!(marked.dead, ["B8"]);
        assert_eq!(marked.black.count, Score::from_points(36));
        assert_eq!(marked.black.prisoners, 1);
        // Alive, the invader makes black's 26 empty points shared: 9 + 13.
        let unmarked = score(&r, &c.games[0], DeadStones::None, &playouts).unwrap();
        assert_eq!(unmarked.black.count, Score::from_points(22));
        let estimated = score(&r, &c.games[0], DeadStones::Auto, &playouts).unwrap();
        assert_eq!(estimated.dead, ["B8"]);
    }

    #[test]
    fn territory_counting() {
        // Japanese: black 27 points of territory, white 36; komi 6.5.
        let r = report("RU[Japanese]KM[6.5]RE[W+15.5]", "", DeadStones::None);
        assert_eq!(r.counting, Counting::Territory);
        assert_eq!(r.black.count, Score::from_points(27));
        assert_eq!(r.white.count, Score::from_points(36));
        assert_eq!(r.result.international, "W+15.5");
        assert_eq!(r.result.chinese, "白胜15目半");
        assert_eq!(r.agreement, Agreement::Agree);
        assert_eq!(r.black_zi, None);
    }

    #[test]
    fn modes_parse() {
        assert_eq!("AUTO".parse(), Ok(DeadStones::Auto));
        assert!("maybe".parse::<DeadStones>().is_err());
    }
}
