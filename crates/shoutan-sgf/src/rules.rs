//! `RU`: the names servers and editors write for rulesets, and the names
//! this crate writes (those other programs understand where there is one).

use shoutan_rules::Ruleset;

/// The ruleset an `RU` value names: the presets of `shoutan-rules` and
/// their aliases (`cn`, `jp`, `nz`, `goe`, `tt`…), the SGF names (`AGA`,
/// `GOE`, `NZ`, `Japanese`, `Chinese`), a trailing "rules", the Chinese
/// names (中国规则, 日本规则, 韩国规则, 应氏规则), and a custom ruleset
/// written as JSON (what [`ru_value`] writes for one).
///
/// ```
/// use shoutan_rules::Ruleset;
/// use shoutan_sgf::ruleset_from_ru;
/// assert_eq!(ruleset_from_ru("Chinese"), Some(Ruleset::CHINESE));
/// assert_eq!(ruleset_from_ru("GOE"), Some(Ruleset::ING));
/// assert_eq!(ruleset_from_ru("AGA rules"), Some(Ruleset::AGA));
/// assert_eq!(ruleset_from_ru("日本规则"), Some(Ruleset::JAPANESE));
/// assert_eq!(ruleset_from_ru("Lasker"), None);
/// ```
#[must_use]
pub fn ruleset_from_ru(text: &str) -> Option<Ruleset> {
    let t = text.trim();
    if t.starts_with('{') {
        return serde_json::from_str(t).ok();
    }
    let lower = t.to_lowercase();
    let name = lower
        .strip_suffix("rules")
        .or_else(|| lower.strip_suffix("规则"))
        .or_else(|| lower.strip_suffix("規則"))
        .unwrap_or(&lower)
        .trim()
        .trim_end_matches(['\'', '’'])
        .trim_end_matches("'s");
    let chinese_name = match name {
        "中国" | "中國" | "中" => Some(Ruleset::CHINESE),
        "日本" | "日" => Some(Ruleset::JAPANESE),
        "韩国" | "韓國" | "韩" | "韓" => Some(Ruleset::KOREAN),
        "应氏" | "應氏" => Some(Ruleset::ING),
        _ => None,
    };
    chinese_name.or_else(|| Ruleset::preset(name).ok())
}

/// The `RU` value written for a ruleset: the SGF name where one exists
/// (`Chinese`, `Japanese`, `AGA`, `NZ`, `GOE`), the preset's name for the
/// other presets, and the ruleset as JSON for a custom one, so that
/// reading it back gives the same ruleset.
///
/// ```
/// use shoutan_rules::{Ruleset, Score};
/// use shoutan_sgf::{ru_value, ruleset_from_ru};
/// assert_eq!(ru_value(&Ruleset::ING), "GOE");
/// assert_eq!(ru_value(&Ruleset::CHINESE_1988), "chinese-1988");
/// let custom = Ruleset { komi: Score::from_points(6), ..Ruleset::CHINESE };
/// assert_eq!(ruleset_from_ru(&ru_value(&custom)), Some(custom));
/// ```
#[must_use]
pub fn ru_value(ruleset: &Ruleset) -> String {
    let sgf_name = [
        (Ruleset::CHINESE, "Chinese"),
        (Ruleset::JAPANESE, "Japanese"),
        (Ruleset::AGA, "AGA"),
        (Ruleset::NEW_ZEALAND, "NZ"),
        (Ruleset::ING, "GOE"),
        (Ruleset::TROMP_TAYLOR, "Tromp-Taylor"),
    ]
    .into_iter()
    .find(|(r, _)| r == ruleset);
    match (sgf_name, ruleset.preset_name()) {
        (Some((_, name)), _) | (None, Some(name)) => name.to_owned(),
        (None, None) => serde_json::to_string(ruleset).unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_servers_write() {
        let cases = [
            ("Japanese", Ruleset::JAPANESE),
            ("japanese", Ruleset::JAPANESE),
            ("jp", Ruleset::JAPANESE),
            ("Korean", Ruleset::KOREAN),
            ("Chinese", Ruleset::CHINESE),
            ("cn", Ruleset::CHINESE),
            ("中国规则", Ruleset::CHINESE),
            ("AGA", Ruleset::AGA),
            ("NZ", Ruleset::NEW_ZEALAND),
            ("New Zealand", Ruleset::NEW_ZEALAND),
            ("GOE", Ruleset::ING),
            ("Ing's", Ruleset::ING),
            ("应氏规则", Ruleset::ING),
            ("Tromp-Taylor", Ruleset::TROMP_TAYLOR),
            ("tromp taylor", Ruleset::TROMP_TAYLOR),
            ("Chinese rules", Ruleset::CHINESE),
        ];
        for (text, rules) in cases {
            assert_eq!(ruleset_from_ru(text), Some(rules), "{text}");
        }
        for text in ["", "?", "house rules", "{not json"] {
            assert_eq!(ruleset_from_ru(text), None, "{text}");
        }
    }

    #[test]
    fn every_preset_reads_back() {
        for (_, _, rules) in Ruleset::PRESETS {
            assert_eq!(ruleset_from_ru(&ru_value(rules)), Some(*rules));
        }
    }
}
