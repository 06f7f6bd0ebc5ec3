//! Durations in milliseconds, and how people write them: `1h 30 min`,
//! `10 min`, `30s`, `1.5s`, `1小时30分`.

use std::fmt;
use std::ops::{Add, Sub};
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A duration in whole milliseconds, the clock's only unit.
///
/// Arithmetic saturates (`+` stops at the largest value, `-` at zero): a
/// clock fed absurd numbers gives absurd readings, never a panic.
///
/// ```
/// use shoutan_clock::Millis;
/// let main: Millis = "1h 30 min".parse().unwrap();
/// assert_eq!(main, Millis::from_mins(90));
/// assert_eq!(main.to_string(), "1h 30 min");
/// assert_eq!(Millis::from_secs(30) - Millis::from_secs(45), Millis::ZERO);
/// ```
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Millis(u64);

/// Text that is not a duration.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a duration (expected e.g. 1h, 90 min, 1h 30 min, 30s, 1.5s)")]
pub struct DurationError(pub String);

const SECOND: u64 = 1000;
const MINUTE: u64 = 60 * SECOND;
const HOUR: u64 = 60 * MINUTE;

impl Millis {
    /// No time at all.
    pub const ZERO: Millis = Millis(0);
    /// The longest duration (about 584 million years): "never".
    pub const MAX: Millis = Millis(u64::MAX);

    /// `ms` milliseconds.
    #[must_use]
    pub const fn from_millis(ms: u64) -> Millis {
        Millis(ms)
    }

    /// `s` seconds.
    #[must_use]
    pub const fn from_secs(s: u64) -> Millis {
        Millis(s.saturating_mul(SECOND))
    }

    /// `m` minutes.
    #[must_use]
    pub const fn from_mins(m: u64) -> Millis {
        Millis(m.saturating_mul(MINUTE))
    }

    /// `h` hours.
    #[must_use]
    pub const fn from_hours(h: u64) -> Millis {
        Millis(h.saturating_mul(HOUR))
    }

    /// The duration in milliseconds.
    #[must_use]
    pub const fn as_millis(self) -> u64 {
        self.0
    }

    /// Whole seconds, rounded down (a clock face never shows more than is left).
    #[must_use]
    pub const fn whole_secs(self) -> u64 {
        self.0 / SECOND
    }

    /// True for no time at all.
    #[must_use]
    pub const fn is_zero(self) -> bool {
        self.0 == 0
    }

    /// `self × n`, saturating.
    #[must_use]
    pub const fn saturating_mul(self, n: u64) -> Millis {
        Millis(self.0.saturating_mul(n))
    }

    /// `self − other`, or `None` if `other` is longer.
    #[must_use]
    pub const fn checked_sub(self, other: Millis) -> Option<Millis> {
        match self.0.checked_sub(other.0) {
            Some(ms) => Some(Millis(ms)),
            None => None,
        }
    }

    /// How many whole `period`s fit in `self`, and what is left over.
    /// `period` must not be zero (time controls guarantee it).
    pub(crate) fn div_rem(self, period: Millis) -> (u64, Millis) {
        let p = period.0.max(1);
        (self.0 / p, Millis(self.0 % p))
    }

    /// True if the duration is a whole number of seconds.
    #[must_use]
    pub const fn is_whole_secs(self) -> bool {
        self.0.is_multiple_of(SECOND)
    }

    /// Seconds as the settings of byo-yomi, increments and SGF write them:
    /// `60`, `1.5`.
    pub(crate) fn secs_number(self) -> String {
        let (whole, ms) = (self.0 / SECOND, self.0 % SECOND);
        if ms == 0 {
            whole.to_string()
        } else {
            let frac = format!("{ms:03}");
            format!("{whole}.{}", frac.trim_end_matches('0'))
        }
    }

    /// Seconds with the unit: `60s`, `1.5s`.
    pub(crate) fn secs_text(self) -> String {
        format!("{}s", self.secs_number())
    }

    /// Rounded up to the whole second. A byo-yomi period that is not the
    /// last counts 30 … 1 this way: its last second is not shown as 0, since
    /// the next period follows and no flag falls.
    #[must_use]
    pub fn ceil_second(self) -> Millis {
        Millis(self.0.div_ceil(SECOND).saturating_mul(SECOND))
    }

    /// What a clock face shows, rounded down to the second: `1:02:03`, `4:05`.
    #[must_use]
    pub fn clock_face(self) -> String {
        let s = self.whole_secs();
        let (h, m, s) = (s / 3600, s / 60 % 60, s % 60);
        if h > 0 {
            format!("{h}:{m:02}:{s:02}")
        } else {
            format!("{m}:{s:02}")
        }
    }

    /// Chinese, rounded down to the second: `1小时02分03秒`, `12分05秒`,
    /// `25秒`, `10分钟`, `2小时`.
    #[must_use]
    pub fn text_zh(self) -> String {
        let s = self.whole_secs();
        let (h, m, s) = (s / 3600, s / 60 % 60, s % 60);
        match (h, m, s) {
            (0, 0, s) => format!("{s}秒"),
            (0, m, 0) => format!("{m}分钟"),
            (0, m, s) => format!("{m}分{s:02}秒"),
            (h, 0, 0) => format!("{h}小时"),
            (h, m, 0) => format!("{h}小时{m:02}分"),
            (h, m, s) => format!("{h}小时{m:02}分{s:02}秒"),
        }
    }
}

impl Add for Millis {
    type Output = Millis;
    fn add(self, other: Millis) -> Millis {
        Millis(self.0.saturating_add(other.0))
    }
}

impl Sub for Millis {
    type Output = Millis;
    fn sub(self, other: Millis) -> Millis {
        Millis(self.0.saturating_sub(other.0))
    }
}

impl fmt::Display for Millis {
    /// Hours, minutes and seconds, each only if not zero: `1h 30 min`,
    /// `10 min`, `5 min 30s`, `1.5s`, `0s`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (h, rest) = (self.0 / HOUR, self.0 % HOUR);
        let (m, rest) = (rest / MINUTE, rest % MINUTE);
        let mut parts = Vec::new();
        if h > 0 {
            parts.push(format!("{h}h"));
        }
        if m > 0 {
            parts.push(format!("{m} min"));
        }
        if rest > 0 || parts.is_empty() {
            parts.push(Millis(rest).secs_text());
        }
        f.write_str(&parts.join(" "))
    }
}

impl FromStr for Millis {
    type Err = DurationError;

    /// One or more `<number><unit>` parts, spaces optional: `1h 30 min`,
    /// `90min`, `1.5 s`, `10 minutes`, `500ms`, `1小时30分`. Units: h, hr,
    /// hour(s), 小时; m, min(s), minute(s), 分, 分钟; s, sec(s), second(s), 秒;
    /// ms. Decimals must come to whole milliseconds.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let err = || DurationError(text.to_owned());
        let mut rest = text.trim();
        if rest.is_empty() {
            return Err(err());
        }
        let mut total = Millis::ZERO;
        while !rest.is_empty() {
            let number_len = rest
                .find(|c: char| !(c.is_ascii_digit() || c == '.'))
                .unwrap_or(rest.len());
            let (number, after) = rest.split_at(number_len);
            let after = after.trim_start();
            let unit_len = after
                .find(|c: char| c.is_ascii_digit() || c.is_whitespace() || c == '.')
                .unwrap_or(after.len());
            let (unit, after) = after.split_at(unit_len);
            let unit_ms = unit_millis(unit).ok_or_else(err)?;
            let amount = parse_decimal(number, unit_ms).ok_or_else(err)?;
            total = Millis(total.0.checked_add(amount).ok_or_else(err)?);
            rest = after.trim_start();
        }
        Ok(total)
    }
}

fn unit_millis(unit: &str) -> Option<u64> {
    match unit.to_lowercase().as_str() {
        "h" | "hr" | "hrs" | "hour" | "hours" | "小时" | "个小时" => Some(HOUR),
        "m" | "min" | "mins" | "minute" | "minutes" | "分" | "分钟" => Some(MINUTE),
        "s" | "sec" | "secs" | "second" | "seconds" | "秒" | "秒钟" => Some(SECOND),
        "ms" => Some(1),
        _ => None,
    }
}

/// `number` (digits, optionally with a decimal point) times `unit`
/// milliseconds, if that is a whole number of milliseconds that fits.
pub(crate) fn parse_decimal(number: &str, unit: u64) -> Option<u64> {
    let (whole, frac) = number.split_once('.').unwrap_or((number, ""));
    let digits_ok = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() && frac.is_empty() || !digits_ok(whole) || !digits_ok(frac) {
        return None;
    }
    let frac = frac.trim_end_matches('0');
    if frac.len() > 18 {
        return None;
    }
    let whole: u128 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    let scale = 10u128.pow(frac.len() as u32);
    let frac: u128 = if frac.is_empty() {
        0
    } else {
        frac.parse().ok()?
    };
    let frac_ms = frac * u128::from(unit);
    if !frac_ms.is_multiple_of(scale) {
        return None;
    }
    let total = whole.checked_mul(u128::from(unit))? + frac_ms / scale;
    u64::try_from(total).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_the_largest_units_that_fit() {
        let cases = [
            (Millis::from_hours(1), "1h"),
            (Millis::from_mins(90), "1h 30 min"),
            (Millis::from_mins(10), "10 min"),
            (Millis::from_secs(330), "5 min 30s"),
            (Millis::from_secs(30), "30s"),
            (Millis::from_millis(1500), "1.5s"),
            (Millis::from_millis(3_600_250), "1h 0.25s"),
            (Millis::ZERO, "0s"),
        ];
        for (millis, text) in cases {
            assert_eq!(millis.to_string(), text);
            assert_eq!(text.parse::<Millis>(), Ok(millis), "{text}");
        }
    }

    #[test]
    fn reads_the_ways_people_write_durations() {
        let cases = [
            ("90min", Millis::from_mins(90)),
            ("1 hour", Millis::from_hours(1)),
            ("2 hours 5 minutes", Millis::from_mins(125)),
            ("0.5h", Millis::from_mins(30)),
            ("10 sec", Millis::from_secs(10)),
            ("250ms", Millis::from_millis(250)),
            ("1小时30分", Millis::from_mins(90)),
            ("10分钟", Millis::from_mins(10)),
            ("30秒", Millis::from_secs(30)),
            ("1.250s", Millis::from_millis(1250)),
        ];
        for (text, millis) in cases {
            assert_eq!(text.parse::<Millis>(), Ok(millis), "{text}");
        }
    }

    #[test]
    fn refuses_what_is_not_a_duration() {
        for text in [
            "",
            "30",
            "1x",
            "s",
            "1.2.3s",
            "0.0001s",
            "-5s",
            "5 fortnights",
        ] {
            assert_eq!(
                text.parse::<Millis>(),
                Err(DurationError(text.to_owned())),
                "{text:?}"
            );
        }
        let huge = "99999999999999999999h";
        assert!(huge.parse::<Millis>().is_err());
    }

    #[test]
    fn clock_faces_round_down() {
        assert_eq!(Millis::from_millis(59_999).clock_face(), "0:59");
        assert_eq!(Millis::from_secs(3723).clock_face(), "1:02:03");
        assert_eq!(Millis::from_secs(245).clock_face(), "4:05");
        assert_eq!(Millis::from_secs(3723).text_zh(), "1小时02分03秒");
        assert_eq!(Millis::from_secs(725).text_zh(), "12分05秒");
        assert_eq!(Millis::from_mins(10).text_zh(), "10分钟");
        assert_eq!(Millis::from_mins(90).text_zh(), "1小时30分");
        assert_eq!(Millis::from_millis(25_900).text_zh(), "25秒");
    }
}
