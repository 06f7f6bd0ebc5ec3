//! Time settings in SGF game records: `TM` (main time, in seconds), `OT`
//! (overtime, free text), and the `TC`/`TT` (number of periods, period in
//! seconds) of YuanYu and Tygem-derived files (docs/spec/formats.md).
//!
//! `OT` forms read: `5x30 byo-yomi` (CGoban, OGS, YuanYu), `25/600 Canadian`
//! (OGS, KGS), `10 moves / 5 min` (GoGui; Canadian), `30 fischer`,
//! `30 seconds Fischer`, `fischer 30` (OGS and others), `30 simple` (OGS),
//! `3次30秒`, and `None`. A bare `N moves / T` is Canadian overtime, as every
//! writer means it; this crate writes the carry-over of 定时限步制 as
//! `(carry over)`. Some YuanYu files write `LC`/`LT` for `TC`/`TT`: pass
//! those instead. SGF cannot tell "no clock" from "not recorded": both read
//! as [`TimeControl::None`].

use crate::time_control::{Absolute, ByoYomi, Fischer, MovesPerPeriod, PerMove};
use crate::time_control_text::seconds_or_duration;
use crate::{Leftover, Millis, TimeControl, TimeControlError};

/// A time control as SGF root properties, for writing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SgfTime {
    /// `TM`: main time in seconds.
    pub tm: Option<String>,
    /// `OT`: the overtime.
    pub ot: Option<String>,
}

/// SGF time properties that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SgfTimeError {
    /// `TM` is not a time.
    #[error("TM[{0}] is not a time in seconds")]
    Tm(String),
    /// `OT` is in no form this reader knows (and no `TC`/`TT` say better).
    #[error(
        "OT[{0}] is not an overtime this reader knows (such as \"5x30 byo-yomi\", \
         \"25/600 Canadian\", \"10 moves / 5 min\", \"30 fischer\" or \"30 simple\")"
    )]
    Ot(String),
    /// `TC` is not a count.
    #[error("TC[{0}] is not a number of byo-yomi periods")]
    Tc(String),
    /// `TT` is not a time.
    #[error("TT[{0}] is not a byo-yomi period in seconds")]
    Tt(String),
    /// One of `TC` and `TT` without the other.
    #[error("TC and TT come together (TC: {tc:?}, TT: {tt:?})")]
    HalfByoYomi {
        /// `TC`, if given.
        tc: Option<String>,
        /// `TT`, if given.
        tt: Option<String>,
    },
    /// Readable, but the settings make no clock.
    #[error("the time settings make no clock: {0}")]
    Invalid(#[from] TimeControlError),
}

/// An overtime as SGF text describes it.
enum OvertimeText {
    None,
    ByoYomi(u32, Millis),
    Moves(u32, Millis, Leftover),
    Fischer(Millis, Option<Millis>),
    Simple(Millis),
}

impl TimeControl {
    /// The time control of an SGF record, from the raw text of its `TM`,
    /// `OT`, `TC` and `TT` properties (absent or empty: `None`). `OT` is
    /// preferred; `TC`/`TT` stand in when it is missing, `None` or
    /// unreadable.
    ///
    /// ```
    /// use shoutan_clock::{ByoYomi, Millis, TimeControl};
    /// let yuanyu = TimeControl::from_sgf(Some("3600"), None, Some("10"), Some("60")).unwrap();
    /// assert_eq!(yuanyu.to_string(), "1h + 10×60s byo-yomi");
    /// let cgoban = TimeControl::from_sgf(Some("7200"), Some("3x60 byo-yomi"), None, None).unwrap();
    /// assert_eq!(cgoban, ByoYomi::new(Millis::from_hours(2), 3, Millis::from_secs(60)).unwrap().into());
    /// assert!(TimeControl::from_sgf(Some("1 hour-ish"), None, None, None).is_err());
    /// ```
    pub fn from_sgf(
        tm: Option<&str>,
        ot: Option<&str>,
        tc: Option<&str>,
        tt: Option<&str>,
    ) -> Result<TimeControl, SgfTimeError> {
        let main = match given(tm) {
            Some(text) => {
                seconds_or_duration(text).map_err(|_| SgfTimeError::Tm(text.to_owned()))?
            }
            None => Millis::ZERO,
        };
        let yuanyu = || yuanyu_overtime(given(tc), given(tt));
        let overtime = match given(ot).map(|text| (text, read_ot(text))) {
            Some((_, Some(OvertimeText::None))) | None => yuanyu()?.unwrap_or(OvertimeText::None),
            Some((_, Some(overtime))) => overtime,
            Some((text, None)) => yuanyu()?.ok_or_else(|| SgfTimeError::Ot(text.to_owned()))?,
        };
        Ok(match overtime {
            OvertimeText::None if main.is_zero() => TimeControl::None,
            OvertimeText::None => Absolute::new(main)?.into(),
            OvertimeText::ByoYomi(periods, period) => ByoYomi::new(main, periods, period)?.into(),
            OvertimeText::Moves(moves, period, leftover) => {
                MovesPerPeriod::new(main, moves, period, leftover)?.into()
            }
            OvertimeText::Fischer(increment, max) => Fischer::new(main, increment, max)?.into(),
            OvertimeText::Simple(time) if main.is_zero() => PerMove::new(time)?.into(),
            // Main time, then the same time for every move: one period of byo-yomi.
            OvertimeText::Simple(time) => ByoYomi::new(main, 1, time)?.into(),
        })
    }

    /// The `TM` and `OT` properties that describe this time control, in the
    /// forms other programs read (`5x30 byo-yomi`, `25/600 Canadian`,
    /// `10 fischer`, `30 simple`).
    ///
    /// ```
    /// use shoutan_clock::TimeControl;
    /// let control: TimeControl = "1h + 5×60s byo-yomi".parse().unwrap();
    /// let sgf = control.to_sgf();
    /// assert_eq!((sgf.tm.as_deref(), sgf.ot.as_deref()), (Some("3600"), Some("5x60 byo-yomi")));
    /// ```
    #[must_use]
    pub fn to_sgf(&self) -> SgfTime {
        let tm = |main: Millis| Some(main.secs_number());
        let (tm, ot) = match self {
            TimeControl::None => (None, None),
            TimeControl::Absolute(a) => (tm(a.main()), None),
            TimeControl::ByoYomi(b) => (
                tm(b.main()),
                Some(format!(
                    "{}x{} byo-yomi",
                    b.periods(),
                    b.period().secs_number()
                )),
            ),
            TimeControl::MovesPerPeriod(m) => {
                let carry = match m.leftover() {
                    Leftover::CarriedOver => " (carry over)",
                    Leftover::Lost => "",
                };
                (
                    tm(m.main()),
                    Some(format!(
                        "{}/{} Canadian{carry}",
                        m.moves(),
                        m.period().secs_number()
                    )),
                )
            }
            TimeControl::Fischer(f) => {
                let max = f
                    .max()
                    .map(|max| format!(" (max {})", max.secs_number()))
                    .unwrap_or_default();
                (
                    tm(f.main()),
                    Some(format!("{} fischer{max}", f.increment().secs_number())),
                )
            }
            TimeControl::PerMove(p) => (None, Some(format!("{} simple", p.time().secs_number()))),
        };
        SgfTime { tm, ot }
    }
}

/// A property's text, if it says anything.
fn given(value: Option<&str>) -> Option<&str> {
    value.map(str::trim).filter(|v| !v.is_empty())
}

/// `TC`/`TT`: periods and period seconds; zero of either means none.
fn yuanyu_overtime(
    tc: Option<&str>,
    tt: Option<&str>,
) -> Result<Option<OvertimeText>, SgfTimeError> {
    match (tc, tt) {
        (None, None) => Ok(None),
        (Some(tc), Some(tt)) => {
            let periods: u32 = tc.parse().map_err(|_| SgfTimeError::Tc(tc.to_owned()))?;
            let period = seconds_or_duration(tt).map_err(|_| SgfTimeError::Tt(tt.to_owned()))?;
            Ok(Some(if periods == 0 || period.is_zero() {
                OvertimeText::None
            } else {
                OvertimeText::ByoYomi(periods, period)
            }))
        }
        (tc, tt) => Err(SgfTimeError::HalfByoYomi {
            tc: tc.map(str::to_owned),
            tt: tt.map(str::to_owned),
        }),
    }
}

/// Reads an `OT` text; `None` if it is in no known form.
fn read_ot(text: &str) -> Option<OvertimeText> {
    let t = text.trim().to_lowercase();
    if matches!(t.as_str(), "none" | "no" | "-" | "无") {
        return Some(OvertimeText::None);
    }
    let count = |s: &str| s.trim().parse::<u32>().ok();
    let time = |s: &str| {
        seconds_or_duration(
            s.trim()
                .trim_matches(|c| matches!(c, ':' | '(' | ')' | ',')),
        )
        .ok()
    };
    let byo_yomi = |spec: &str| {
        let (periods, period) = spec
            .trim()
            .trim_start_matches(':')
            .split_once(['x', '×', '*'])?;
        Some(OvertimeText::ByoYomi(count(periods)?, time(period)?))
    };
    if let Some((before, after)) = ["byo-yomi", "byoyomi", "byo yomi"]
        .iter()
        .find_map(|word| t.split_once(word))
    {
        return byo_yomi(&format!("{before} {after}"));
    }
    if let Some((before, after)) = t.split_once("fischer") {
        let increment = format!("{before} {after}");
        return Some(match increment.split_once("max") {
            Some((increment, max)) => OvertimeText::Fischer(time(increment)?, Some(time(max)?)),
            None => OvertimeText::Fischer(time(&increment)?, None),
        });
    }
    if let Some((per_move, _)) = t.split_once("simple") {
        return Some(OvertimeText::Simple(time(per_move)?));
    }
    if let Some((periods, period)) = t.split_once('次') {
        return Some(OvertimeText::ByoYomi(
            count(periods.trim_start_matches("读秒"))?,
            time(period)?,
        ));
    }
    if let Some((moves, period)) = t.split_once('/') {
        let leftover = if t.contains("carry") {
            Leftover::CarriedOver
        } else {
            Leftover::Lost
        };
        let period = period
            .split('(')
            .next()
            .unwrap_or(period)
            .replace("canadian", "");
        let moves = ["moves", "move", "stones"]
            .iter()
            .fold(moves.trim(), |m, word| m.trim_end_matches(word).trim());
        return Some(OvertimeText::Moves(count(moves)?, time(&period)?, leftover));
    }
    byo_yomi(&t)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(tm: Option<&str>, ot: Option<&str>, tc: Option<&str>, tt: Option<&str>) -> String {
        match TimeControl::from_sgf(tm, ot, tc, tt) {
            Ok(control) => control.to_string(),
            Err(err) => format!("error: {err}"),
        }
    }

    #[test]
    fn overtime_texts_seen_in_the_wild() {
        let cases = [
            // (TM, OT, TC, TT) → description
            (
                (Some("7200"), Some("3x60 byo-yomi"), None, None),
                "2h + 3×60s byo-yomi",
            ),
            (
                (Some("1800"), Some("5x30 byo-yomi"), None, None),
                "30 min + 5×30s byo-yomi",
            ),
            (
                (Some("0"), Some("3x30 byo-yomi"), None, None),
                "3×30s byo-yomi",
            ),
            (
                (Some("60.0"), Some("1x5 byo-yomi"), None, None),
                "1 min + 1×5s byo-yomi",
            ),
            (
                (Some("600"), Some("25/600 Canadian"), None, None),
                "10 min + 25 moves / 10 min",
            ),
            (
                (Some("600"), Some("10 moves / 5 min"), None, None),
                "10 min + 10 moves / 5 min",
            ),
            (
                (Some("300"), Some("30 seconds Fischer"), None, None),
                "5 min + 30s Fischer",
            ),
            (
                (Some("300"), Some("fischer 30"), None, None),
                "5 min + 30s Fischer",
            ),
            (
                (Some("300"), Some("10 fischer (max 600)"), None, None),
                "5 min + 10s Fischer (max 10 min)",
            ),
            ((None, Some("30 simple"), None, None), "30s per move"),
            (
                (Some("600"), Some("30 simple"), None, None),
                "10 min + 1×30s byo-yomi",
            ),
            (
                (Some("1200"), Some("读秒3次30秒"), None, None),
                "20 min + 3×30s byo-yomi",
            ),
            ((Some("0"), Some("None"), None, None), "no clock"),
            ((Some("1800"), None, None, None), "absolute 30 min"),
            ((None, None, None, None), "no clock"),
            // YuanYu / Tygem (docs/spec/formats.md), as in the AlphaGo Master records.
            (
                (Some("3600"), None, Some("10"), Some("60")),
                "1h + 10×60s byo-yomi",
            ),
            (
                (Some("60"), None, Some("3"), Some("30")),
                "1 min + 3×30s byo-yomi",
            ),
            ((Some("60"), None, Some(""), None), "absolute 1 min"),
            (
                (Some("60"), Some("None"), Some("3"), Some("20")),
                "1 min + 3×20s byo-yomi",
            ),
            (
                (Some("60"), Some("gibberish"), Some("3"), Some("20")),
                "1 min + 3×20s byo-yomi",
            ),
        ];
        for ((tm, ot, tc, tt), expected) in cases {
            assert_eq!(
                read(tm, ot, tc, tt),
                expected,
                "TM {tm:?} OT {ot:?} TC {tc:?} TT {tt:?}"
            );
        }
    }

    #[test]
    fn unreadable_properties_are_typed_errors() {
        use SgfTimeError as E;
        let err = |tm, ot, tc, tt| TimeControl::from_sgf(tm, ot, tc, tt).unwrap_err();
        assert_eq!(
            err(Some("an hour"), None, None, None),
            E::Tm("an hour".into())
        );
        assert_eq!(err(Some("-60"), None, None, None), E::Tm("-60".into()));
        assert_eq!(
            err(Some("60"), Some("sudden death-ish"), None, None),
            E::Ot("sudden death-ish".into())
        );
        assert_eq!(
            err(Some("60"), None, Some("three"), Some("30")),
            E::Tc("three".into())
        );
        assert_eq!(
            err(Some("60"), None, Some("3"), Some("half a minute")),
            E::Tt("half a minute".into())
        );
        assert_eq!(
            err(Some("60"), None, Some("3"), None),
            E::HalfByoYomi {
                tc: Some("3".into()),
                tt: None
            }
        );
        assert_eq!(
            err(Some("0"), Some("30 fischer"), None, None),
            E::Invalid(TimeControlError::NoMainTime)
        );
    }

    #[test]
    fn every_system_survives_a_round_trip_through_sgf() {
        for text in [
            "no clock",
            "absolute 1h",
            "1h + 5×60s byo-yomi",
            "3×30s byo-yomi",
            "10 min + 15 moves / 10 min (carry over)",
            "10 min + 25 moves / 10 min",
            "5 min + 10s Fischer (max 10 min)",
            "5 min + 2.5s Fischer",
            "30s per move",
            "1 min 0.5s + 1×10s byo-yomi",
        ] {
            let control: TimeControl = text.parse().unwrap();
            let sgf = control.to_sgf();
            let back = TimeControl::from_sgf(sgf.tm.as_deref(), sgf.ot.as_deref(), None, None);
            assert_eq!(back, Ok(control), "{text} → {sgf:?}");
        }
    }
}
