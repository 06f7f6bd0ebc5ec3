//! The human-readable description of a time control, which parses back:
//! `1h + 5×60s byo-yomi`, `10 min + 15 moves / 10 min`,
//! `5 min + 10s Fischer (max 10 min)`, `30s per move`, `absolute 1h`,
//! `no clock`; and the Chinese description, which parses back too
//! (`基本用时1小时，读秒5次60秒`).
//!
//! Moves per period: a bare `15 moves / 10 min` is Canadian overtime (time
//! left in a period is lost), as every server and SGF writer means it; the
//! carry-over of 定时限步制 is written `(carry over)`.

use std::fmt;
use std::str::FromStr;

use crate::millis::DurationError;
use crate::time_control::{Absolute, ByoYomi, Fischer, MovesPerPeriod, PerMove};
use crate::{Leftover, Millis, TimeControl, TimeControlError};

/// Text that is not a time control.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TimeControlParseError {
    /// Nothing to read.
    #[error("empty time control")]
    Empty,
    /// Not one of the forms this crate writes.
    #[error(
        "{0:?} is not a time control (expected e.g. \"1h + 5×60s byo-yomi\", \
         \"10 min + 15 moves / 10 min\", \"5 min + 10s Fischer (max 10 min)\", \
         \"30s per move\", \"absolute 1h\" or \"no clock\")"
    )]
    Unrecognised(String),
    /// A duration in it is unreadable.
    #[error(transparent)]
    Duration(#[from] DurationError),
    /// A count of periods or moves is unreadable.
    #[error("{0:?} is not a number of periods or moves")]
    Count(String),
    /// Readable, but the settings make no clock.
    #[error(transparent)]
    Invalid(#[from] TimeControlError),
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let main_plus = |main: Millis| {
            if main.is_zero() {
                String::new()
            } else {
                format!("{main} + ")
            }
        };
        match self {
            TimeControl::None => f.write_str("no clock"),
            TimeControl::Absolute(a) => write!(f, "absolute {}", a.main()),
            TimeControl::ByoYomi(b) => write!(
                f,
                "{}{}×{} byo-yomi",
                main_plus(b.main()),
                b.periods(),
                b.period().secs_text()
            ),
            TimeControl::MovesPerPeriod(m) => {
                let moves = if m.moves() == 1 { "move" } else { "moves" };
                write!(
                    f,
                    "{}{} {moves} / {}",
                    main_plus(m.main()),
                    m.moves(),
                    m.period()
                )?;
                match m.leftover() {
                    Leftover::CarriedOver => f.write_str(" (carry over)"),
                    Leftover::Lost => Ok(()),
                }
            }
            TimeControl::Fischer(x) => {
                write!(f, "{} + {} Fischer", x.main(), x.increment().secs_text())?;
                match x.max() {
                    Some(max) => write!(f, " (max {max})"),
                    None => Ok(()),
                }
            }
            TimeControl::PerMove(p) => write!(f, "{} per move", p.time().secs_text()),
        }
    }
}

impl FromStr for TimeControl {
    type Err = TimeControlParseError;

    /// Reads what `Display` writes, in any case, with `x` or `*` for `×`
    /// and `byoyomi` for `byo-yomi`; a bare duration is absolute time.
    /// Text with Chinese in it is read as [`TimeControl::text_zh`] writes.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let unrecognised = || TimeControlParseError::Unrecognised(text.to_owned());
        let lower = text.trim().to_lowercase();
        if lower.is_empty() {
            return Err(TimeControlParseError::Empty);
        }
        if matches!(lower.as_str(), "no clock" | "none" | "unlimited" | "不计时") {
            return Ok(TimeControl::None);
        }
        if lower.chars().any(is_han) {
            return from_zh(text);
        }
        if let Some(main) = lower.strip_prefix("absolute") {
            return Ok(Absolute::new(main.trim().parse()?)?.into());
        }
        if let Some(time) = lower.strip_suffix("per move") {
            return Ok(PerMove::new(seconds_or_duration(time)?)?.into());
        }
        let (main, overtime) = match lower.split_once('+') {
            Some((main, overtime)) => (main.trim().parse()?, overtime.trim()),
            None => (Millis::ZERO, lower.as_str()),
        };
        if let Some(spec) = ["byo-yomi", "byoyomi", "byo yomi"]
            .iter()
            .find_map(|word| overtime.strip_suffix(word))
        {
            let (periods, period) = spec.split_once(['×', 'x', '*']).ok_or_else(unrecognised)?;
            return Ok(ByoYomi::new(main, count(periods)?, seconds_or_duration(period)?)?.into());
        }
        if let Some((increment, max)) = fischer_parts(overtime) {
            let max = max.map(|m| m.parse()).transpose()?;
            return Ok(Fischer::new(main, seconds_or_duration(increment)?, max)?.into());
        }
        if let Some((moves, period, leftover)) = moves_parts(overtime) {
            let moves = count(moves.trim_end_matches("moves").trim_end_matches("move"))?;
            return Ok(MovesPerPeriod::new(main, moves, period.parse()?, leftover)?.into());
        }
        if !lower.contains('+') {
            return Ok(Absolute::new(lower.parse().map_err(|_| unrecognised())?)?.into());
        }
        Err(unrecognised())
    }
}

/// `10s fischer (max 10 min)` → (`10s`, Some(`10 min`)).
fn fischer_parts(overtime: &str) -> Option<(&str, Option<&str>)> {
    let (increment, rest) = overtime.split_once("fischer")?;
    let rest = rest
        .trim()
        .trim_start_matches('(')
        .trim_end_matches(')')
        .trim();
    let max = match rest.strip_prefix("max") {
        Some(max) => Some(max.trim()),
        None if rest.is_empty() => None,
        None => return None,
    };
    Some((increment.trim(), max))
}

/// `15 moves / 10 min (carry over)` → (`15 moves`, `10 min`, carried over).
fn moves_parts(overtime: &str) -> Option<(&str, &str, Leftover)> {
    let (moves, rest) = overtime.split_once('/')?;
    let (period, leftover) = match rest.split_once('(') {
        Some((period, marker)) => {
            let marker = marker.trim_end_matches(')').trim();
            if !matches!(marker, "carry over" | "carry-over" | "carried over") {
                return None;
            }
            (period, Leftover::CarriedOver)
        }
        None => (rest.trim().trim_end_matches("canadian"), Leftover::Lost),
    };
    Some((moves.trim(), period.trim(), leftover))
}

/// Whether `c` is a Chinese character (the unified ideographs).
fn is_han(c: char) -> bool {
    ('\u{4e00}'..='\u{9fff}').contains(&c)
}

/// Reads the Chinese forms of [`TimeControl::text_zh`], with any of
/// `，,；;、` between the parts, spaces anywhere, half- or full-width brackets:
/// `包干1小时`, `基本用时1小时，读秒5次60秒`, `基本时限2小时，保留5分钟读秒`
/// (the basic time includes the reserved minutes), `读秒3次30秒`,
/// `基本用时10分钟，之后每10分钟15手（节余时间累计）`,
/// `基本用时5分钟，每步加10秒（最多10分钟）`, `每步30秒`.
fn from_zh(text: &str) -> Result<TimeControl, TimeControlParseError> {
    let unrecognised = || TimeControlParseError::Unrecognised(text.to_owned());
    let clean: String = text
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| match c {
            '，' | '；' | '、' | ';' => ',',
            '（' => '(',
            '）' => ')',
            c => c,
        })
        .collect();
    let mut parts = clean.split(',').filter(|p| !p.is_empty());
    let first = parts.next().ok_or_else(unrecognised)?;
    let (main, reserving, overtime) = if let Some(main) = first.strip_prefix("基本用时") {
        (main.parse()?, false, parts.next())
    } else if let Some(main) = first.strip_prefix("基本时限") {
        (main.parse()?, true, parts.next())
    } else if let Some(main) = first.strip_prefix("包干") {
        return Ok(Absolute::new(main.parse()?)?.into());
    } else {
        (Millis::ZERO, false, Some(first))
    };
    if parts.next().is_some() {
        return Err(unrecognised());
    }
    let Some(overtime) = overtime else {
        return Ok(Absolute::new(main)?.into());
    };
    let overtime = overtime.strip_prefix("之后").unwrap_or(overtime);
    if let Some(minutes) = overtime
        .strip_prefix("保留")
        .and_then(|o| o.strip_suffix("分钟读秒"))
    {
        // 基本时限 counts the reserved minutes in: the main time is the rest.
        let periods = count(minutes)?;
        let reserved = Millis::from_mins(u64::from(periods));
        if !reserving || main <= reserved {
            return Err(unrecognised());
        }
        return Ok(ByoYomi::new(main - reserved, periods, Millis::from_secs(60))?.into());
    }
    if let Some(spec) = overtime
        .strip_prefix("读秒")
        .or_else(|| overtime.strip_suffix("读秒"))
    {
        let (periods, period) = spec.split_once('次').ok_or_else(unrecognised)?;
        return Ok(ByoYomi::new(main, count(periods)?, seconds_or_duration(period)?)?.into());
    }
    if let Some(rest) = overtime.strip_prefix("每步加") {
        let (increment, max) = match rest.split_once("(最多") {
            Some((increment, max)) => {
                let max = max.strip_suffix(')').ok_or_else(unrecognised)?;
                (increment, Some(max.parse()?))
            }
            None => (rest, None),
        };
        return Ok(Fischer::new(main, seconds_or_duration(increment)?, max)?.into());
    }
    if let Some(time) = overtime.strip_prefix("每步") {
        if !main.is_zero() {
            return Err(unrecognised());
        }
        return Ok(PerMove::new(seconds_or_duration(time)?)?.into());
    }
    if let Some(rest) = overtime.strip_prefix('每') {
        let (spec, leftover) = match rest.split_once('(') {
            Some((spec, "节余时间累计)")) => (spec, Leftover::CarriedOver),
            Some((spec, "节余时间不累计)")) => (spec, Leftover::Lost),
            Some(_) => return Err(unrecognised()),
            None => (rest, Leftover::Lost),
        };
        let spec = spec.strip_suffix('手').ok_or_else(unrecognised)?;
        let digits = spec.len() - spec.trim_end_matches(|c: char| c.is_ascii_digit()).len();
        let (period, moves) = spec.split_at(spec.len() - digits);
        return Ok(MovesPerPeriod::new(main, count(moves)?, period.parse()?, leftover)?.into());
    }
    Err(unrecognised())
}

fn count(text: &str) -> Result<u32, TimeControlParseError> {
    let text = text.trim();
    text.parse()
        .map_err(|_| TimeControlParseError::Count(text.to_owned()))
}

/// `30` (seconds) or any duration (`30s`, `1 min`).
pub(crate) fn seconds_or_duration(text: &str) -> Result<Millis, DurationError> {
    let text = text.trim();
    match crate::millis::parse_decimal(text, 1000) {
        Some(ms) => Ok(Millis::from_millis(ms)),
        None => text.parse(),
    }
}

impl TimeControl {
    /// The description in Chinese, as a Chinese event's regulations write
    /// it: `包干1小时`, `基本时限2小时，保留5分钟读秒`,
    /// `基本用时1小时，读秒3次30秒`, `基本用时10分钟，之后每10分钟15手（节余时间累计）`,
    /// `基本用时5分钟，每步加10秒（最多10分钟）`, `每步30秒`, `不计时`.
    #[must_use]
    pub fn text_zh(&self) -> String {
        let then = |main: Millis, rest: String| {
            if main.is_zero() {
                rest
            } else {
                format!("基本用时{}，{rest}", main.text_zh())
            }
        };
        match self {
            TimeControl::None => "不计时".to_owned(),
            TimeControl::Absolute(a) => format!("包干{}", a.main().text_zh()),
            TimeControl::ByoYomi(b)
                if b.period() == Millis::from_secs(60) && !b.main().is_zero() =>
            {
                format!(
                    "基本时限{}，保留{}分钟读秒",
                    b.basic().text_zh(),
                    b.periods()
                )
            }
            TimeControl::ByoYomi(b) => then(
                b.main(),
                format!("读秒{}次{}秒", b.periods(), b.period().secs_number()),
            ),
            TimeControl::MovesPerPeriod(m) => {
                let leftover = match m.leftover() {
                    Leftover::CarriedOver => "节余时间累计",
                    Leftover::Lost => "节余时间不累计",
                };
                let per = format!("每{}{}手（{leftover}）", m.period().text_zh(), m.moves());
                if m.main().is_zero() {
                    per
                } else {
                    format!("基本用时{}，之后{per}", m.main().text_zh())
                }
            }
            TimeControl::Fischer(f) => {
                let max = f
                    .max()
                    .map(|max| format!("（最多{}）", max.text_zh()))
                    .unwrap_or_default();
                then(
                    f.main(),
                    format!("每步加{}秒{max}", f.increment().secs_number()),
                )
            }
            TimeControl::PerMove(p) => format!("每步{}秒", p.time().secs_number()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(n: u64) -> Millis {
        Millis::from_secs(n)
    }

    fn every_system() -> Vec<(TimeControl, &'static str, &'static str)> {
        vec![
            (TimeControl::None, "no clock", "不计时"),
            (
                Absolute::new(Millis::from_hours(1)).unwrap().into(),
                "absolute 1h",
                "包干1小时",
            ),
            (
                ByoYomi::new(Millis::from_hours(1), 5, s(60))
                    .unwrap()
                    .into(),
                "1h + 5×60s byo-yomi",
                "基本时限1小时05分，保留5分钟读秒",
            ),
            (
                ByoYomi::new(Millis::ZERO, 3, s(30)).unwrap().into(),
                "3×30s byo-yomi",
                "读秒3次30秒",
            ),
            (
                ByoYomi::new(Millis::from_mins(20), 3, s(30))
                    .unwrap()
                    .into(),
                "20 min + 3×30s byo-yomi",
                "基本用时20分钟，读秒3次30秒",
            ),
            (
                MovesPerPeriod::new(
                    Millis::from_mins(10),
                    15,
                    Millis::from_mins(10),
                    Leftover::CarriedOver,
                )
                .unwrap()
                .into(),
                "10 min + 15 moves / 10 min (carry over)",
                "基本用时10分钟，之后每10分钟15手（节余时间累计）",
            ),
            (
                MovesPerPeriod::new(
                    Millis::from_mins(10),
                    15,
                    Millis::from_mins(10),
                    Leftover::Lost,
                )
                .unwrap()
                .into(),
                "10 min + 15 moves / 10 min",
                "基本用时10分钟，之后每10分钟15手（节余时间不累计）",
            ),
            (
                MovesPerPeriod::new(Millis::ZERO, 1, s(90), Leftover::Lost)
                    .unwrap()
                    .into(),
                "1 move / 1 min 30s",
                "每1分30秒1手（节余时间不累计）",
            ),
            (
                Fischer::new(Millis::from_mins(5), s(10), Some(Millis::from_mins(10)))
                    .unwrap()
                    .into(),
                "5 min + 10s Fischer (max 10 min)",
                "基本用时5分钟，每步加10秒（最多10分钟）",
            ),
            (
                Fischer::new(Millis::from_mins(5), Millis::from_millis(2500), None)
                    .unwrap()
                    .into(),
                "5 min + 2.5s Fischer",
                "基本用时5分钟，每步加2.5秒",
            ),
            (
                PerMove::new(s(30)).unwrap().into(),
                "30s per move",
                "每步30秒",
            ),
        ]
    }

    #[test]
    fn every_system_prints_and_parses_back() {
        for (control, english, chinese) in every_system() {
            assert_eq!(control.to_string(), english);
            assert_eq!(english.parse::<TimeControl>(), Ok(control), "{english}");
            assert_eq!(control.text_zh(), chinese);
            assert_eq!(chinese.parse::<TimeControl>(), Ok(control), "{chinese}");
        }
    }

    #[test]
    fn reads_chinese_as_players_write_it() {
        let byo = |main, periods, period| {
            TimeControl::from(ByoYomi::new(main, periods, s(period)).unwrap())
        };
        let hour_5x60 = byo(Millis::from_hours(1), 5, 60);
        for text in [
            "基本用时1小时，读秒5次60秒",
            "基本用时1小时,读秒5次60秒",
            " 基本用时 1 小时；读秒 5 次 60 秒 ",
            "基本用时60分钟、5次1分钟读秒",
            "基本时限1小时05分，保留5分钟读秒",
        ] {
            assert_eq!(text.parse::<TimeControl>(), Ok(hour_5x60), "{text}");
        }
        assert_eq!(
            "读秒3次30秒钟".parse::<TimeControl>(),
            Ok(byo(Millis::ZERO, 3, 30))
        );
        assert_eq!(
            "基本用时1个小时".parse::<TimeControl>(),
            Ok(Absolute::new(Millis::from_hours(1)).unwrap().into())
        );
        assert_eq!(
            "基本用时5分钟，每步加10秒(最多10分钟)".parse::<TimeControl>(),
            Ok(
                Fischer::new(Millis::from_mins(5), s(10), Some(Millis::from_mins(10)))
                    .unwrap()
                    .into()
            )
        );
        assert_eq!(
            "每5分钟25手".parse::<TimeControl>(),
            Ok(
                MovesPerPeriod::new(Millis::ZERO, 25, Millis::from_mins(5), Leftover::Lost)
                    .unwrap()
                    .into()
            )
        );
    }

    #[test]
    fn unreadable_chinese_says_what_is_wrong() {
        use TimeControlParseError as E;
        for text in [
            "快棋",
            "基本用时1小时，读秒",
            "基本用时1小时，读秒5次60秒，另加",
            "基本用时1小时，保留5分钟读秒",
            "基本时限5分钟，保留5分钟读秒",
            "每10分钟15手（有时）",
        ] {
            assert_eq!(
                text.parse::<TimeControl>(),
                Err(E::Unrecognised(text.into())),
                "{text}"
            );
        }
        assert_eq!(
            "基本用时1小时，读秒五次60秒".parse::<TimeControl>(),
            Err(E::Count("五".into()))
        );
        assert_eq!(
            "基本用时1刻，读秒5次60秒".parse::<TimeControl>(),
            Err(E::Duration(DurationError("1刻".into())))
        );
        assert_eq!(
            "读秒0次60秒".parse::<TimeControl>(),
            Err(E::Invalid(TimeControlError::NoPeriods))
        );
    }

    #[test]
    fn reads_loose_spellings() {
        let byo = TimeControl::from(ByoYomi::new(Millis::from_hours(1), 5, s(60)).unwrap());
        for text in [
            "1h + 5x60 byoyomi",
            "1 hour + 5*60s byo yomi",
            "  1H + 5×1 min BYO-YOMI ",
        ] {
            assert_eq!(text.parse::<TimeControl>(), Ok(byo), "{text}");
        }
        let canadian: TimeControl =
            MovesPerPeriod::new(Millis::ZERO, 25, Millis::from_mins(10), Leftover::Lost)
                .unwrap()
                .into();
        assert_eq!(
            "25 moves / 10 min canadian".parse::<TimeControl>(),
            Ok(canadian)
        );
        assert_eq!(
            "1h".parse::<TimeControl>(),
            Ok(Absolute::new(Millis::from_hours(1)).unwrap().into())
        );
    }

    #[test]
    fn unreadable_descriptions_say_what_is_wrong() {
        use TimeControlParseError as E;
        assert_eq!("".parse::<TimeControl>(), Err(E::Empty));
        assert_eq!(
            "blitz".parse::<TimeControl>(),
            Err(E::Unrecognised("blitz".into()))
        );
        assert_eq!(
            "1h + 5 byo-yomi".parse::<TimeControl>(),
            Err(E::Unrecognised("1h + 5 byo-yomi".into()))
        );
        assert_eq!(
            "1h + fivex60s byo-yomi".parse::<TimeControl>(),
            Err(E::Count("five".into()))
        );
        assert_eq!(
            "1x + 5×60s byo-yomi".parse::<TimeControl>(),
            Err(E::Duration(DurationError("1x".into())))
        );
        assert_eq!(
            "1h + 0×60s byo-yomi".parse::<TimeControl>(),
            Err(E::Invalid(TimeControlError::NoPeriods))
        );
        assert_eq!(
            "10 min + 15 moves / 10 min (sometimes)".parse::<TimeControl>(),
            Err(E::Unrecognised(
                "10 min + 15 moves / 10 min (sometimes)".into()
            ))
        );
        assert_eq!(
            "absolute 0s".parse::<TimeControl>(),
            Err(E::Invalid(TimeControlError::NoMainTime))
        );
    }
}
