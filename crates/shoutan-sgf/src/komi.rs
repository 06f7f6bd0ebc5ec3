//! `KM`: the komi in points, as written by most programs, and the forms
//! some servers use instead.

use shoutan_rules::Score;

/// How a komi text was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum KomiForm {
    /// Points, as `FF[4]` says (`KM[6.5]`, `KM[7.500000]`).
    Points,
    /// Fox's hundredths: `KM[750]` = 7.5 points, `KM[375]` = 3.75 子.
    FoxHundredths,
    /// 子 written where points belong: `KM[3.75]` = 7.5 points.
    Zi,
}

/// Reads a komi; `None` if it is no komi in any known form.
///
/// An integer of 100 or more in steps of 25 is Fox's hundredths: of a
/// point when that makes whole half points (750 → 7.5), else of a 子
/// (375 → 3.75 子 → 7.5 points). A number in quarters is 子 (3.75 → 7.5).
pub(crate) fn read_komi(text: &str) -> Option<(Score, KomiForm)> {
    let t = text.trim();
    if let Ok(n) = t.parse::<i32>()
        && n.abs() >= 100
        && n % 25 == 0
    {
        let komi = if n % 50 == 0 {
            Score::from_half_points(n / 50)
        } else {
            Score::from_half_points(n / 25)
        };
        return Some((komi, KomiForm::FoxHundredths));
    }
    if let Ok(komi) = t.parse::<Score>() {
        return Some((komi, KomiForm::Points));
    }
    let value: f64 = t.parse().ok()?;
    let quarters = value * 4.0;
    if quarters.is_finite() && quarters.fract() == 0.0 && quarters.abs() < 1e6 {
        return Some((Score::from_half_points(quarters as i32), KomiForm::Zi));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn points(text: &str) -> Option<(String, KomiForm)> {
        read_komi(text).map(|(k, f)| (k.to_string(), f))
    }

    #[test]
    fn komi_forms() {
        use KomiForm::*;
        let cases = [
            ("6.5", "6.5", Points),
            ("7.500000", "7.5", Points),
            ("0", "0", Points),
            ("-3", "-3", Points),
            (" 5.5 ", "5.5", Points),
            ("750", "7.5", FoxHundredths),
            ("650", "6.5", FoxHundredths),
            ("375", "7.5", FoxHundredths),
            ("275", "5.5", FoxHundredths),
            ("3.75", "7.5", Zi),
            ("2.75", "5.5", Zi),
        ];
        for (text, komi, form) in cases {
            assert_eq!(points(text), Some((komi.to_owned(), form)), "{text}");
        }
        for bad in ["", "six", "6.3", "nan", "7,5"] {
            assert_eq!(points(bad), None, "{bad}");
        }
    }
}
