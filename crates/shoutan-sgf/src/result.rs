//! `RE`: the standard forms go to `GameResult::parse_international`; the
//! forms servers and tournaments write besides are read here, each with a
//! warning saying which form it was.

use shoutan_rules::{Color, GameResult, Ruleset, Score, ScoreUnit, Tie, WinBy};

use crate::warning::{ResultQuirk, Warning};

/// Reads a result under `ruleset` (its counting gives the unit of a
/// margin). `?` and an empty value mean no result is known: `None`, no
/// warning.
///
/// ```
/// use shoutan_rules::{Color, GameResult, Ruleset, WinBy};
/// use shoutan_sgf::read_result;
/// let (result, warning) = read_result("B+J", &Ruleset::JAPANESE);
/// assert_eq!(result, Some(GameResult::Win { winner: Color::Black, by: WinBy::Ruling }));
/// assert!(warning.is_some());
/// assert_eq!(read_result("W+R", &Ruleset::JAPANESE).1, None);
/// assert_eq!(read_result("?", &Ruleset::JAPANESE), (None, None));
/// ```
#[must_use]
pub fn read_result(text: &str, ruleset: &Ruleset) -> (Option<GameResult>, Option<Warning>) {
    let t = text.trim();
    if t.is_empty() || t == "?" || t.eq_ignore_ascii_case("unknown") {
        return (None, None);
    }
    let quirk = |result: GameResult, quirk: ResultQuirk| {
        // The Chinese notation has a word for each reason (判胜 for a ruling,
        // which the international one can only call F).
        let read = match quirk {
            ResultQuirk::Chinese => result.international(),
            _ => result.chinese(),
        };
        let warning = Warning::NonstandardResult {
            written: text.to_owned(),
            read,
            quirk,
        };
        (Some(result), Some(warning))
    };
    let win = |winner: Color, by: WinBy| GameResult::Win { winner, by };
    if let Some((who, how)) = t.split_once('+') {
        let winner = who.parse::<Color>().ok();
        match (winner, how.to_ascii_uppercase().as_str()) {
            (Some(w), "J") => return quirk(win(w, WinBy::Ruling), ResultQuirk::Judgment),
            (Some(w), "V") => return quirk(win(w, WinBy::Ruling), ResultQuirk::Violation),
            (Some(w), "AW") => return quirk(win(w, WinBy::Unknown), ResultQuirk::AgreedWinner),
            (None, "J") if who.eq_ignore_ascii_case("d") => {
                return quirk(GameResult::Draw, ResultQuirk::DrawByJudgment);
            }
            _ => {}
        }
    }
    match GameResult::parse_international(t, ruleset.counting) {
        Ok(GameResult::Win {
            winner,
            by: WinBy::Score { margin, .. },
        }) if margin == Score::ZERO && !tie_goes_to(ruleset.tie, winner) => {
            quirk(win(winner, WinBy::Unknown), ResultQuirk::FoxZeroMargin)
        }
        Ok(result) => (Some(result), None),
        Err(_) => match chinese_result(t) {
            Some(result) => quirk(result, ResultQuirk::Chinese),
            None => (
                None,
                Some(Warning::UnreadableResult {
                    written: text.to_owned(),
                }),
            ),
        },
    }
}

fn tie_goes_to(tie: Tie, winner: Color) -> bool {
    matches!(
        (tie, winner),
        (Tie::Black, Color::Black) | (Tie::White, Color::White)
    )
}

/// The Chinese notation: 黑中盘胜, 白超时胜, 黑胜3/4子, 白胜1又1/4子,
/// 黑胜6目半, 黑负半目, 和棋, 无胜负 (simplified or traditional).
fn chinese_result(text: &str) -> Option<GameResult> {
    let t: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    match t.as_str() {
        "和棋" | "和" | "平局" | "持棋" => return Some(GameResult::Draw),
        "无胜负" | "無勝負" => return Some(GameResult::NoResult),
        _ => {}
    }
    let mut chars = t.chars();
    let color = match chars.next()? {
        '黑' => Color::Black,
        '白' => Color::White,
        _ => return None,
    };
    let rest: String = chars
        .map(|c| match c {
            '勝' => '胜',
            '負' => '负',
            '盤' => '盘',
            '時' => '时',
            c => c,
        })
        .collect();
    let rest = rest.as_str();
    let (won, how) = if let Some(how) = rest.strip_suffix('胜') {
        (true, how)
    } else if let Some(how) = rest.strip_suffix('负') {
        (false, how)
    } else if let Some(how) = rest.strip_prefix('胜') {
        (true, how)
    } else if let Some(how) = rest.strip_prefix('负') {
        (false, how)
    } else {
        return None;
    };
    let by = match how {
        "中盘" | "中" => WinBy::Resignation,
        "超时" | "超" => WinBy::Time,
        "" => WinBy::Unknown,
        margin => chinese_margin(margin)?,
    };
    let winner = if won { color } else { color.opponent() };
    Some(GameResult::Win { winner, by })
}

/// `3/4子`, `1又1/4子`, `2子`, `半子`, `6目半`, `半目`, `3目`, `7.5目`.
fn chinese_margin(text: &str) -> Option<WinBy> {
    if let Some(zi) = text.strip_suffix('子') {
        let quarters = match zi {
            "半" => 2,
            _ => {
                let (whole, fraction) = match zi.split_once('又') {
                    Some((w, f)) => (w.parse::<i32>().ok()?, f),
                    None if zi.contains('/') => (0, zi),
                    None => return decimal(zi, 4).map(|q| zi_score(q, ScoreUnit::Zi)),
                };
                let (num, den) = fraction.split_once('/')?;
                let (num, den) = (num.parse::<i32>().ok()?, den.parse::<i32>().ok()?);
                if den <= 0 || 4 % den != 0 {
                    return None;
                }
                whole * 4 + num * (4 / den)
            }
        };
        return Some(zi_score(quarters, ScoreUnit::Zi));
    }
    let halves = if let Some(mu) = text.strip_suffix("目半") {
        mu.parse::<i32>().ok()? * 2 + 1
    } else if text == "半目" {
        1
    } else {
        decimal(text.strip_suffix('目')?, 2)?
    };
    Some(zi_score(halves, ScoreUnit::Mu))
}

/// A margin of `n` half points (= quarter 子).
fn zi_score(n: i32, unit: ScoreUnit) -> WinBy {
    WinBy::Score {
        margin: Score::from_half_points(n),
        unit,
    }
}

/// `text` times `per`, if that is a whole number.
fn decimal(text: &str, per: i32) -> Option<i32> {
    let value: f64 = text.parse().ok()?;
    let scaled = value * f64::from(per);
    (scaled.fract() == 0.0 && (0.0..1e6).contains(&scaled)).then_some(scaled as i32)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> (Option<String>, Option<ResultQuirk>) {
        let (result, warning) = read_result(text, &Ruleset::CHINESE);
        let quirk = match warning {
            Some(Warning::NonstandardResult { quirk, .. }) => Some(quirk),
            None => None,
            Some(other) => panic!("{other}"),
        };
        (result.map(|r| r.chinese()), quirk)
    }

    #[test]
    fn standard_results_need_no_warning() {
        for (text, chinese) in [
            ("B+R", "黑中盘胜"),
            ("W+Resign", "白中盘胜"),
            ("B+T", "黑超时胜"),
            ("W+F", "白不战胜"),
            ("B+1.5", "黑胜3/4子"),
            ("W+0.50", "白胜1/4子"),
            ("B+2.50", "黑胜1又1/4子"),
            ("B+3.0", "黑胜1又1/2子"),
            ("Draw", "和棋"),
            ("0", "和棋"),
            ("Void", "无胜负"),
            ("B+", "黑胜"),
        ] {
            assert_eq!(read(text), (Some(chinese.to_owned()), None), "{text}");
        }
    }

    #[test]
    fn forms_seen_in_real_records() {
        use ResultQuirk::*;
        for (text, chinese, quirk) in [
            ("W+0.0", "白胜", FoxZeroMargin),
            ("B+0.0", "黑胜", FoxZeroMargin),
            ("B+J", "黑判胜", Judgment),
            ("W+J", "白判胜", Judgment),
            ("B+V", "黑判胜", Violation),
            ("B+AW", "黑胜", AgreedWinner),
            ("W+AW", "白胜", AgreedWinner),
            ("D+J", "和棋", DrawByJudgment),
        ] {
            assert_eq!(
                read(text),
                (Some(chinese.to_owned()), Some(quirk)),
                "{text}"
            );
        }
    }

    #[test]
    fn an_ing_tie_is_a_win_by_zero() {
        let (result, warning) = read_result("B+0", &Ruleset::ING);
        assert_eq!(result.unwrap().international(), "B+0");
        assert!(warning.is_none());
    }

    #[test]
    fn chinese_notation() {
        for (text, international) in [
            ("黑中盘胜", "B+R"),
            ("白中盤勝", "W+R"),
            ("黑超时负", "W+T"),
            ("黑胜3/4子", "B+1.5"),
            ("白胜1又1/4子", "W+2.5"),
            ("黑负1/4子", "W+0.5"),
            ("白胜2子", "W+4"),
            ("黑胜半子", "B+1"),
            ("黑胜6目半", "B+6.5"),
            ("白胜半目", "W+0.5"),
            ("黑胜7.5目", "B+7.5"),
            ("和棋", "Draw"),
            ("无胜负", "Void"),
        ] {
            let (result, warning) = read_result(text, &Ruleset::CHINESE);
            assert_eq!(
                result.map(|r| r.international()).as_deref(),
                Some(international),
                "{text}"
            );
            assert!(matches!(
                warning,
                Some(Warning::NonstandardResult {
                    quirk: ResultQuirk::Chinese,
                    ..
                })
            ));
        }
    }

    #[test]
    fn unknown_and_unreadable() {
        assert_eq!(read_result("", &Ruleset::CHINESE), (None, None));
        assert_eq!(read_result(" ? ", &Ruleset::CHINESE), (None, None));
        for bad in ["B+Q", "X+R", "黑胜3/5子", "Black wins", "B+1.25"] {
            let (result, warning) = read_result(bad, &Ruleset::CHINESE);
            assert_eq!(result, None, "{bad}");
            assert!(
                matches!(warning, Some(Warning::UnreadableResult { .. })),
                "{bad}"
            );
        }
    }
}
