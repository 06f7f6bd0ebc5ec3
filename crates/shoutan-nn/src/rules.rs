//! The rules as KataGo's networks know them (`game/rules.h`): a few
//! dimensions, read from Shoutan's [`Ruleset`] and shown to the network as
//! global inputs.

use std::fmt;

use shoutan_rules::{Counting, HandicapCompensation, Repetition, Ruleset, Score, Suicide};

/// Which repetitions are forbidden.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KoRule {
    /// Only the immediate recapture of a ko.
    Simple,
    /// No move may repeat an earlier board.
    Positional,
    /// No move may repeat an earlier board with the same player to move.
    Situational,
    /// Positional, but a pass lifts the bans (and a pass in a position
    /// where the same player passed before ends the game). KataGo's
    /// networks are not trained for it: its engine refuses it
    /// (`ModelDesc::getSupportedRules`); the features still encode it.
    Spight,
}

/// What is counted at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScoringRule {
    /// Stones and surrounded points.
    Area,
    /// Surrounded points and prisoners.
    Territory,
}

/// Which points no one counts, or what living groups cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TaxRule {
    /// Every point is someone's or shared.
    None,
    /// Points in seki are no one's.
    Seki,
    /// Points in seki are no one's and every living group costs two points.
    All,
}

/// What white receives for black's handicap stones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WhiteHandicapBonus {
    /// Nothing.
    Zero,
    /// A point per stone.
    N,
    /// A point per stone but one.
    NMinusOne,
}

/// The rules as KataGo encodes them for its networks.
///
/// ```
/// use shoutan_nn::{KoRule, NnRules};
/// use shoutan_rules::Ruleset;
/// let rules = NnRules::from_ruleset(&Ruleset::CHINESE, Ruleset::CHINESE.komi);
/// assert_eq!(rules.ko, KoRule::Situational);
/// assert_eq!(rules.komi, 7.5);
/// assert_eq!(rules.katago_string(), "koSITUATIONALscoreAREAtaxNONEsui0whbNfpok1");
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NnRules {
    /// Repetition.
    pub ko: KoRule,
    /// Counting.
    pub scoring: ScoringRule,
    /// Points no one counts.
    pub tax: TaxRule,
    /// Whether a move may kill its own chain of two or more stones (a lone
    /// stone's suicide is never legal to KataGo).
    pub multi_stone_suicide: bool,
    /// Whether the first pass earns half a point (KataGo's button).
    pub button: bool,
    /// White's compensation for handicap stones.
    pub white_handicap_bonus: WhiteHandicapBonus,
    /// Whether passing before the opponent's dead stones are captured is
    /// fine (area counting: the count settles them).
    pub friendly_pass_ok: bool,
    /// White's komi, in points.
    pub komi: f32,
}

impl NnRules {
    /// The nearest KataGo rules to `ruleset`, with `komi` for white.
    ///
    /// Territory counting leaves points in seki to no one, as Shoutan's
    /// count does; counting stones only (the Dunhuang rules) has no KataGo
    /// rule and becomes area counting with every group taxed, the nearest
    /// (KataGo's "stone scoring"), as does area counting with a group tax.
    /// Friendly passing is fine under area counting and not under
    /// territory counting, as in KataGo's Chinese and Japanese rules.
    #[must_use]
    pub fn from_ruleset(ruleset: &Ruleset, komi: Score) -> NnRules {
        let ko = match ruleset.repetition {
            Repetition::SimpleKo { .. } => KoRule::Simple,
            Repetition::PositionalSuperko => KoRule::Positional,
            Repetition::SituationalSuperko => KoRule::Situational,
        };
        let (scoring, tax) = match ruleset.counting {
            Counting::Area if ruleset.group_tax == Score::ZERO => {
                (ScoringRule::Area, TaxRule::None)
            }
            Counting::Area | Counting::StonesOnly => (ScoringRule::Area, TaxRule::All),
            Counting::Territory => (ScoringRule::Territory, TaxRule::Seki),
        };
        let white_handicap_bonus = match ruleset.handicap_compensation {
            HandicapCompensation::N => WhiteHandicapBonus::N,
            HandicapCompensation::NMinusOne => WhiteHandicapBonus::NMinusOne,
            HandicapCompensation::None => WhiteHandicapBonus::Zero,
        };
        NnRules {
            ko,
            scoring,
            tax,
            multi_stone_suicide: ruleset.suicide != Suicide::Forbidden,
            button: false,
            white_handicap_bonus,
            friendly_pass_ok: scoring == ScoringRule::Area,
            komi: komi.half_points() as f32 / 2.0,
        }
    }

    /// KataGo's short form of the rules without komi (`Rules::toStringNoKomi`),
    /// which `kata-set-rules` accepts.
    #[must_use]
    pub fn katago_string(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for NnRules {
    /// [`NnRules::katago_string`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ko = match self.ko {
            KoRule::Simple => "SIMPLE",
            KoRule::Positional => "POSITIONAL",
            KoRule::Situational => "SITUATIONAL",
            KoRule::Spight => "SPIGHT",
        };
        let scoring = match self.scoring {
            ScoringRule::Area => "AREA",
            ScoringRule::Territory => "TERRITORY",
        };
        let tax = match self.tax {
            TaxRule::None => "NONE",
            TaxRule::Seki => "SEKI",
            TaxRule::All => "ALL",
        };
        write!(
            f,
            "ko{ko}score{scoring}tax{tax}sui{}",
            u8::from(self.multi_stone_suicide)
        )?;
        if self.button {
            write!(f, "button1")?;
        }
        match self.white_handicap_bonus {
            WhiteHandicapBonus::Zero => {}
            WhiteHandicapBonus::N => write!(f, "whbN")?,
            WhiteHandicapBonus::NMinusOne => write!(f, "whbN-1")?,
        }
        if self.friendly_pass_ok {
            write!(f, "fpok1")?;
        }
        Ok(())
    }
}

/// Text that is no KataGo rules.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{0:?} is not a KataGo ruleset: give a name (chinese, japanese, korean, tromp-taylor, aga, \
     new-zealand, chinese-ogs, stone-scoring, …) or KataGo's short form (koSIMPLEscoreAREA…)"
)]
pub struct KataRulesError(pub String);

impl NnRules {
    /// Reads rules as KataGo's `kata-set-rules` takes them: a ruleset name
    /// KataGo knows (its meanings, which are not always Shoutan's: KataGo's
    /// `chinese` has simple ko) or its short form (`koSIMPLEscoreAREA…`,
    /// [`NnRules::katago_string`]). The komi stays `komi`.
    pub fn parse_katago(text: &str, komi: f32) -> Result<NnRules, KataRulesError> {
        let error = || KataRulesError(text.to_owned());
        let lower = text.trim().to_ascii_lowercase();
        let named =
            |ko, scoring, tax, multi_stone_suicide, white_handicap_bonus, friendly_pass_ok| {
                NnRules {
                    ko,
                    scoring,
                    tax,
                    multi_stone_suicide,
                    button: false,
                    white_handicap_bonus,
                    friendly_pass_ok,
                    komi,
                }
            };
        use KoRule::*;
        use ScoringRule::*;
        use WhiteHandicapBonus as Whb;
        let canonical: String = lower
            .chars()
            .filter(|c| !matches!(c, '-' | '_' | ' '))
            .collect();
        let rules = match canonical.as_str() {
            "japanese" | "korean" => {
                named(Simple, Territory, TaxRule::Seki, false, Whb::Zero, false)
            }
            "chinese" => named(Simple, Area, TaxRule::None, false, Whb::N, true),
            "chineseogs" | "chinesekgs" => {
                named(Positional, Area, TaxRule::None, false, Whb::N, true)
            }
            "ancientarea" | "stonescoring" => {
                named(Simple, Area, TaxRule::All, false, Whb::Zero, true)
            }
            "ancientterritory" => named(Simple, Territory, TaxRule::All, false, Whb::Zero, false),
            "aga" | "bga" | "french" => named(
                Situational,
                Area,
                TaxRule::None,
                false,
                Whb::NMinusOne,
                true,
            ),
            "nz" | "newzealand" => named(Situational, Area, TaxRule::None, true, Whb::Zero, true),
            "tromptaylor" => named(Positional, Area, TaxRule::None, true, Whb::Zero, false),
            "goe" | "ing" => named(Positional, Area, TaxRule::None, true, Whb::Zero, true),
            _ => return NnRules::parse_short(text.trim(), komi).ok_or_else(error),
        };
        Ok(rules)
    }

    /// KataGo's short form: `ko…score…tax…sui0|1`, then optionally
    /// `button0|1`, `whb0|N|N-1`, `fpok0|1`, in that order.
    fn parse_short(text: &str, komi: f32) -> Option<NnRules> {
        let mut rest = text;
        let mut take = |key: &str, values: &[&'static str]| -> Option<&'static str> {
            let after = rest.strip_prefix(key)?;
            let value = values.iter().find(|v| after.starts_with(*v))?;
            rest = &after[value.len()..];
            Some(value)
        };
        let ko = match take("ko", &["SIMPLE", "POSITIONAL", "SITUATIONAL", "SPIGHT"])? {
            "SIMPLE" => KoRule::Simple,
            "POSITIONAL" => KoRule::Positional,
            "SITUATIONAL" => KoRule::Situational,
            _ => KoRule::Spight,
        };
        let scoring = match take("score", &["AREA", "TERRITORY"])? {
            "AREA" => ScoringRule::Area,
            _ => ScoringRule::Territory,
        };
        let tax = match take("tax", &["NONE", "SEKI", "ALL"])? {
            "NONE" => TaxRule::None,
            "SEKI" => TaxRule::Seki,
            _ => TaxRule::All,
        };
        let yes = |v: &str| v == "1" || v == "true";
        let multi_stone_suicide = yes(take("sui", &["0", "1", "false", "true"])?);
        let button = take("button", &["0", "1", "false", "true"]).is_some_and(yes);
        let white_handicap_bonus = match take("whb", &["N-1", "N", "0"]) {
            Some("N-1") => WhiteHandicapBonus::NMinusOne,
            Some("N") => WhiteHandicapBonus::N,
            _ => WhiteHandicapBonus::Zero,
        };
        let friendly_pass_ok = take("fpok", &["0", "1", "false", "true"]).is_some_and(yes);
        rest.is_empty().then_some(NnRules {
            ko,
            scoring,
            tax,
            multi_stone_suicide,
            button,
            white_handicap_bonus,
            friendly_pass_ok,
            komi,
        })
    }

    /// The Shoutan ruleset these rules make of `base`: the repetition,
    /// suicide, counting, group tax and handicap compensation KataGo's
    /// rules name, the rest (komi, handicap placement, ties, who moves
    /// first) `base`'s. KataGo's spight ko, which Shoutan has not, becomes
    /// situational superko.
    #[must_use]
    pub fn to_ruleset(&self, base: &Ruleset) -> Ruleset {
        let repetition = match self.ko {
            KoRule::Simple => match base.repetition {
                Repetition::SimpleKo { cycle } => Repetition::SimpleKo { cycle },
                _ => Repetition::SimpleKo {
                    cycle: shoutan_rules::CycleOutcome::NoResult,
                },
            },
            KoRule::Positional => Repetition::PositionalSuperko,
            KoRule::Situational | KoRule::Spight => Repetition::SituationalSuperko,
        };
        let counting = match self.scoring {
            ScoringRule::Area => Counting::Area,
            ScoringRule::Territory => Counting::Territory,
        };
        Ruleset {
            repetition,
            suicide: if self.multi_stone_suicide {
                Suicide::MultiStoneOnly
            } else {
                Suicide::Forbidden
            },
            counting,
            group_tax: if self.tax == TaxRule::All {
                Score::from_zi(1)
            } else {
                Score::ZERO
            },
            handicap_compensation: match self.white_handicap_bonus {
                WhiteHandicapBonus::Zero => HandicapCompensation::None,
                WhiteHandicapBonus::N => HandicapCompensation::N,
                WhiteHandicapBonus::NMinusOne => HandicapCompensation::NMinusOne,
            },
            ..*base
        }
    }

    /// The rules as KataGo's `kata-get-rules` prints them (JSON, no komi).
    #[must_use]
    pub fn katago_json(&self) -> String {
        let ko = match self.ko {
            KoRule::Simple => "SIMPLE",
            KoRule::Positional => "POSITIONAL",
            KoRule::Situational => "SITUATIONAL",
            KoRule::Spight => "SPIGHT",
        };
        let scoring = match self.scoring {
            ScoringRule::Area => "AREA",
            ScoringRule::Territory => "TERRITORY",
        };
        let tax = match self.tax {
            TaxRule::None => "NONE",
            TaxRule::Seki => "SEKI",
            TaxRule::All => "ALL",
        };
        let whb = match self.white_handicap_bonus {
            WhiteHandicapBonus::Zero => "0",
            WhiteHandicapBonus::N => "N",
            WhiteHandicapBonus::NMinusOne => "N-1",
        };
        format!(
            "{{\"friendlyPassOk\":{},\"hasButton\":{},\"ko\":\"{ko}\",\"scoring\":\"{scoring}\",\
             \"suicide\":{},\"tax\":\"{tax}\",\"whiteHandicapBonus\":\"{whb}\"}}",
            self.friendly_pass_ok, self.button, self.multi_stone_suicide
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every preset, mapped and written as KataGo writes its rules. Each
    /// string was given to KataGo 1.17.2 with the g170 network
    /// (`kata-set-rules`, then `kata-get-rules`), which accepted it and
    /// read back these rules.
    #[test]
    fn every_preset_maps_to_katago_rules() {
        let expected = [
            ("chinese", "koSITUATIONALscoreAREAtaxNONEsui0whbNfpok1", 7.5),
            (
                "chinese-1988",
                "koSITUATIONALscoreAREAtaxNONEsui0whbNfpok1",
                5.5,
            ),
            (
                "chinese-simple-ko",
                "koSIMPLEscoreAREAtaxNONEsui0whbNfpok1",
                7.5,
            ),
            ("japanese", "koSIMPLEscoreTERRITORYtaxSEKIsui0", 6.5),
            ("korean", "koSIMPLEscoreTERRITORYtaxSEKIsui0", 6.5),
            ("aga", "koSITUATIONALscoreAREAtaxNONEsui0whbN-1fpok1", 7.5),
            ("new-zealand", "koSITUATIONALscoreAREAtaxNONEsui1fpok1", 7.0),
            ("ing", "koSITUATIONALscoreAREAtaxNONEsui1whbNfpok1", 8.0),
            ("tromp-taylor", "koPOSITIONALscoreAREAtaxNONEsui1fpok1", 7.5),
            ("ancient-chinese", "koSIMPLEscoreAREAtaxALLsui0fpok1", 0.0),
        ];
        assert_eq!(expected.len(), Ruleset::PRESETS.len());
        for ((name, _, ruleset), (want_name, text, komi)) in Ruleset::PRESETS.iter().zip(expected) {
            assert_eq!(*name, want_name);
            let rules = NnRules::from_ruleset(ruleset, ruleset.komi);
            assert_eq!(rules.katago_string(), text, "{name}");
            assert_eq!(rules.komi, komi, "{name}");
            assert!(!rules.button);
        }
    }

    #[test]
    fn stones_only_counts_as_taxed_area() {
        let ruleset = Ruleset {
            counting: Counting::StonesOnly,
            ..Ruleset::CHINESE
        };
        let rules = NnRules::from_ruleset(&ruleset, Score::from_half_points(-7));
        assert_eq!(
            (rules.scoring, rules.tax),
            (ScoringRule::Area, TaxRule::All)
        );
        assert_eq!(rules.komi, -3.5);
    }

    /// KataGo 1.17.2 reads this string as these rules, and then refuses
    /// them for its networks (spight ko is not supported).
    #[test]
    fn the_button_and_spight_are_written_too() {
        let rules = NnRules {
            ko: KoRule::Spight,
            button: true,
            friendly_pass_ok: false,
            ..NnRules::from_ruleset(&Ruleset::AGA, Ruleset::AGA.komi)
        };
        assert_eq!(
            rules.katago_string(),
            "koSPIGHTscoreAREAtaxNONEsui0button1whbN-1"
        );
    }
}
