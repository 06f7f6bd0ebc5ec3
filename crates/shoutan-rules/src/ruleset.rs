//! Rulesets as data (spec §3–§6): one value of orthogonal dimensions, and
//! the named rulesets players know as presets of it. Code reads the
//! dimensions; nothing branches on a preset's name.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::{Color, Score};

/// How whole-board repetition is handled (Art. 6, Art. 20).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Repetition {
    /// Only the immediate recapture of a single-stone ko is forbidden; a
    /// longer cycle (triple ko, eternal life, sending two returning one) is
    /// allowed, and when a whole-board situation occurs for the third time
    /// the game ends with `cycle` (the Japanese and Korean way, and how
    /// Chinese events and Fox run it).
    SimpleKo {
        /// What a cycle means for the result.
        cycle: CycleOutcome,
    },
    /// No move may recreate an earlier board, whoever is to move.
    PositionalSuperko,
    /// No move may leave the opponent facing an earlier position with the
    /// same player to move: Art. 6 of the Chinese rules.
    SituationalSuperko,
}

/// The result of a game that ends in a repetition cycle (Art. 20).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CycleOutcome {
    /// 无胜负: no result.
    NoResult,
    /// 和棋: a draw.
    Draw,
    /// 重下: the game is replayed.
    Replay,
}

/// Whether a move that leaves the player's own stones without liberties
/// (and captures nothing) may be played; such stones are then removed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Suicide {
    /// 禁着点: forbidden (Art. 5).
    Forbidden,
    /// Allowed when it removes two or more stones; a lone stone may not.
    MultiStoneOnly,
    /// Allowed, a lone stone included.
    Allowed,
}

/// What is counted at the end (Art. 9, spec §5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Counting {
    /// 数子法: living stones plus the empty points they surround; dame and
    /// seki points shared half each (Art. 9, 21.2).
    Area,
    /// 数目法: surrounded empty points plus prisoners; points in seki are
    /// nobody's.
    Territory,
    /// Living stones only (the Dunhuang rules).
    StonesOnly,
}

/// What white receives for black's handicap stones at counting.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HandicapCompensation {
    /// N points: black returns N/2 子 (Chinese rules, spec §6).
    N,
    /// N − 1 points (AGA).
    NMinusOne,
    /// Nothing (territory counting, Tromp–Taylor).
    None,
}

impl HandicapCompensation {
    /// The compensation for `stones` handicap stones.
    #[must_use]
    pub fn for_stones(self, stones: u8) -> Score {
        let n = i32::from(stones);
        match self {
            _ if stones < 2 => Score::ZERO,
            HandicapCompensation::N => Score::from_points(n),
            HandicapCompensation::NMinusOne => Score::from_points(n - 1),
            HandicapCompensation::None => Score::ZERO,
        }
    }
}

/// Where handicap stones go by default.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HandicapPlacement {
    /// On the star points of the GTP `fixed_handicap` table.
    Fixed,
    /// Anywhere black chooses.
    Free,
}

/// Who wins when the count is exactly equal after komi.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Tie {
    /// 和棋: a draw.
    Draw,
    /// Black wins (Ing rules).
    Black,
    /// White wins.
    White,
}

/// Stones on the four corner star points before play (座子, spec §5).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CornerStones {
    /// Upper left star point (D16 on 19×19).
    pub upper_left: Option<Color>,
    /// Upper right star point (Q16).
    pub upper_right: Option<Color>,
    /// Lower left star point (D4).
    pub lower_left: Option<Color>,
    /// Lower right star point (Q4).
    pub lower_right: Option<Color>,
}

impl CornerStones {
    /// No stones: the modern empty board.
    pub const NONE: CornerStones = CornerStones {
        upper_left: None,
        upper_right: None,
        lower_left: None,
        lower_right: None,
    };

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        *self == CornerStones::NONE
    }
}

/// A complete ruleset: every dimension in which the rules players use
/// differ. The presets are values of it; a custom ruleset is any other value
/// (read one from JSON with serde).
///
/// ```
/// use shoutan_rules::{Counting, Ruleset, Score};
/// let rules: Ruleset = "cn".parse().unwrap();
/// assert_eq!(rules, Ruleset::CHINESE);
/// assert_eq!(rules.counting, Counting::Area);
/// assert_eq!(rules.komi, Score::from_half_points(15)); // 7.5 = 3¾ 子
/// assert!("go".parse::<Ruleset>().unwrap_err().to_string().contains("chinese"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Ruleset {
    /// Repetition policy.
    pub repetition: Repetition,
    /// Suicide.
    pub suicide: Suicide,
    /// Counting method.
    pub counting: Counting,
    /// 还棋头: what each separate living group costs its owner at counting.
    pub group_tax: Score,
    /// Komi for even games (贴子/贴目), given by black to white.
    pub komi: Score,
    /// Komi for handicap games.
    pub handicap_komi: Score,
    /// White's compensation for the handicap stones.
    pub handicap_compensation: HandicapCompensation,
    /// Default placement of handicap stones.
    pub handicap_placement: HandicapPlacement,
    /// Who wins an exact tie.
    pub tie: Tie,
    /// Who moves first in an even game.
    pub first_player: Color,
    /// Stones on the board before play.
    pub initial_stones: CornerStones,
}

impl Ruleset {
    /// The Chinese Weiqi Competition Rules (2002): situational superko,
    /// area counting, komi 3¾ 子 = 7.5, handicap refund N/2 子. The default.
    pub const CHINESE: Ruleset = Ruleset {
        repetition: Repetition::SituationalSuperko,
        suicide: Suicide::Forbidden,
        counting: Counting::Area,
        group_tax: Score::ZERO,
        komi: Score::from_half_points(15),
        handicap_komi: Score::ZERO,
        handicap_compensation: HandicapCompensation::N,
        handicap_placement: HandicapPlacement::Fixed,
        tie: Tie::Draw,
        first_player: Color::Black,
        initial_stones: CornerStones::NONE,
    };

    /// The Chinese rules of 1988: komi 2¾ 子 = 5.5.
    pub const CHINESE_1988: Ruleset = Ruleset {
        komi: Score::from_half_points(11),
        ..Ruleset::CHINESE
    };

    /// Chinese rules with simple ko: a cycle such as triple ko ends the game
    /// with no result, as Chinese events and Fox run it.
    pub const CHINESE_SIMPLE_KO: Ruleset = Ruleset {
        repetition: Repetition::SimpleKo {
            cycle: CycleOutcome::NoResult,
        },
        ..Ruleset::CHINESE
    };

    /// Japanese rules (2003 komi): simple ko, territory counting, 6.5.
    pub const JAPANESE: Ruleset = Ruleset {
        repetition: Repetition::SimpleKo {
            cycle: CycleOutcome::NoResult,
        },
        suicide: Suicide::Forbidden,
        counting: Counting::Territory,
        group_tax: Score::ZERO,
        komi: Score::from_half_points(13),
        handicap_komi: Score::from_half_points(1),
        handicap_compensation: HandicapCompensation::None,
        handicap_placement: HandicapPlacement::Fixed,
        tie: Tie::Draw,
        first_player: Color::Black,
        initial_stones: CornerStones::NONE,
    };

    /// Korean rules: as Japanese, komi 6.5.
    pub const KOREAN: Ruleset = Ruleset::JAPANESE;

    /// AGA rules: area counting (equivalent to territory with pass stones),
    /// situational superko, komi 7.5, handicap compensation N − 1, free placement.
    pub const AGA: Ruleset = Ruleset {
        repetition: Repetition::SituationalSuperko,
        handicap_komi: Score::from_half_points(1),
        handicap_compensation: HandicapCompensation::NMinusOne,
        handicap_placement: HandicapPlacement::Free,
        ..Ruleset::CHINESE
    };

    /// New Zealand rules: area, situational superko, suicide allowed, komi 7.
    pub const NEW_ZEALAND: Ruleset = Ruleset {
        suicide: Suicide::Allowed,
        komi: Score::from_points(7),
        handicap_compensation: HandicapCompensation::None,
        handicap_placement: HandicapPlacement::Free,
        ..Ruleset::CHINESE
    };

    /// Ing rules (应氏): area counting, komi 8 points, black wins a tie,
    /// multi-stone suicide allowed, free handicap.
    pub const ING: Ruleset = Ruleset {
        suicide: Suicide::MultiStoneOnly,
        komi: Score::from_points(8),
        tie: Tie::Black,
        handicap_placement: HandicapPlacement::Free,
        ..Ruleset::CHINESE
    };

    /// Tromp–Taylor: positional superko, suicide allowed, area, komi 7.5.
    pub const TROMP_TAYLOR: Ruleset = Ruleset {
        repetition: Repetition::PositionalSuperko,
        suicide: Suicide::Allowed,
        handicap_compensation: HandicapCompensation::None,
        handicap_placement: HandicapPlacement::Free,
        ..Ruleset::CHINESE
    };

    /// Ancient Chinese rules (seed 004): 座子 (black on the upper right and
    /// lower left star points, white on the other two), white moves first,
    /// no komi, 还棋头 of 1 子 per living group; black needs 181 子.
    pub const ANCIENT_CHINESE: Ruleset = Ruleset {
        repetition: Repetition::SimpleKo {
            cycle: CycleOutcome::NoResult,
        },
        suicide: Suicide::Forbidden,
        counting: Counting::Area,
        group_tax: Score::from_zi(1),
        komi: Score::ZERO,
        handicap_komi: Score::ZERO,
        handicap_compensation: HandicapCompensation::None,
        handicap_placement: HandicapPlacement::Fixed,
        tie: Tie::Draw,
        first_player: Color::White,
        initial_stones: CornerStones {
            upper_left: Some(Color::White),
            upper_right: Some(Color::Black),
            lower_left: Some(Color::Black),
            lower_right: Some(Color::White),
        },
    };

    /// The named presets, canonical name first, with their aliases.
    pub const PRESETS: &'static [(&'static str, &'static [&'static str], Ruleset)] = &[
        (
            "chinese",
            &["cn", "chinese-2002", "china"],
            Ruleset::CHINESE,
        ),
        ("chinese-1988", &["cn-1988"], Ruleset::CHINESE_1988),
        (
            "chinese-simple-ko",
            &["cn-simple-ko", "fox"],
            Ruleset::CHINESE_SIMPLE_KO,
        ),
        ("japanese", &["jp", "japan"], Ruleset::JAPANESE),
        ("korean", &["kr", "korea"], Ruleset::KOREAN),
        ("aga", &["american"], Ruleset::AGA),
        ("new-zealand", &["nz"], Ruleset::NEW_ZEALAND),
        ("ing", &["goe", "ing-goe"], Ruleset::ING),
        ("tromp-taylor", &["tt"], Ruleset::TROMP_TAYLOR),
        ("ancient-chinese", &["ancient"], Ruleset::ANCIENT_CHINESE),
    ];

    /// The preset called `name` (or one of its aliases), ignoring case,
    /// spaces and underscores.
    pub fn preset(name: &str) -> Result<Ruleset, RulesetError> {
        let wanted: String = name
            .trim()
            .chars()
            .map(|c| {
                if c == '_' || c == ' ' {
                    '-'
                } else {
                    c.to_ascii_lowercase()
                }
            })
            .collect();
        Ruleset::PRESETS
            .iter()
            .find(|(canon, aliases, _)| *canon == wanted || aliases.contains(&wanted.as_str()))
            .map(|(_, _, r)| *r)
            .ok_or_else(|| RulesetError(name.to_owned()))
    }

    /// The canonical name of the first preset equal to this ruleset, if any
    /// (`japanese` for the Japanese and Korean rules, which are the same value).
    #[must_use]
    pub fn preset_name(&self) -> Option<&'static str> {
        Ruleset::PRESETS
            .iter()
            .find(|(_, _, r)| r == self)
            .map(|(n, _, _)| *n)
    }

    /// The komi of a game with `handicap` stones.
    #[must_use]
    pub fn komi_for(&self, handicap: u8) -> Score {
        if handicap >= 2 {
            self.handicap_komi
        } else {
            self.komi
        }
    }
}

impl Default for Ruleset {
    fn default() -> Ruleset {
        Ruleset::CHINESE
    }
}

/// A name that is no preset.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown ruleset {0:?}; known rulesets: {known}", known = known_names())]
pub struct RulesetError(pub String);

fn known_names() -> String {
    Ruleset::PRESETS
        .iter()
        .map(|(name, aliases, _)| {
            if aliases.is_empty() {
                (*name).to_owned()
            } else {
                format!("{name} ({})", aliases.join(", "))
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

impl FromStr for Ruleset {
    type Err = RulesetError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ruleset::preset(s)
    }
}

impl fmt::Display for Ruleset {
    /// The preset's name, or `custom`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.preset_name().unwrap_or("custom"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_and_aliases_parse() {
        for (name, aliases, rules) in Ruleset::PRESETS {
            assert_eq!(name.parse::<Ruleset>().as_ref(), Ok(rules));
            for alias in *aliases {
                assert_eq!(alias.parse::<Ruleset>().as_ref(), Ok(rules));
            }
        }
        assert_eq!("Tromp_Taylor".parse::<Ruleset>(), Ok(Ruleset::TROMP_TAYLOR));
        assert_eq!("NZ".parse::<Ruleset>(), Ok(Ruleset::NEW_ZEALAND));
    }

    #[test]
    fn unknown_name_lists_the_known_ones() {
        let err = "lasker".parse::<Ruleset>().unwrap_err().to_string();
        assert!(err.contains("\"lasker\""));
        for (name, _, _) in Ruleset::PRESETS {
            assert!(err.contains(name), "{err}");
        }
    }

    #[test]
    fn the_presets_of_the_spec() {
        assert_eq!(Ruleset::default(), Ruleset::CHINESE);
        assert_eq!(Ruleset::CHINESE.komi.zi_text(), "3又3/4");
        assert_eq!(Ruleset::CHINESE_1988.komi.zi_text(), "2又3/4");
        assert_eq!(Ruleset::ING.komi, Score::from_points(8));
        assert_eq!(Ruleset::ING.tie, Tie::Black);
        assert_eq!(Ruleset::ANCIENT_CHINESE.first_player, Color::White);
        assert_eq!(Ruleset::ANCIENT_CHINESE.group_tax, Score::from_zi(1));
        assert_eq!(Ruleset::JAPANESE.komi.to_string(), "6.5");
        assert_eq!(HandicapCompensation::N.for_stones(3), Score::from_points(3));
        assert_eq!(
            HandicapCompensation::NMinusOne.for_stones(3),
            Score::from_points(2)
        );
        assert_eq!(HandicapCompensation::N.for_stones(0), Score::ZERO);
    }

    #[test]
    fn custom_ruleset_from_json() {
        let json = r#"{
            "repetition": {"simple_ko": {"cycle": "draw"}},
            "suicide": "multi_stone_only",
            "counting": "area",
            "group_tax": 0,
            "komi": 6.5,
            "handicap_komi": 0.5,
            "handicap_compensation": "n_minus_one",
            "handicap_placement": "free",
            "tie": "white",
            "first_player": "black",
            "initial_stones": {"upper_left": null, "upper_right": null, "lower_left": null, "lower_right": null}
        }"#;
        let rules: Ruleset = serde_json::from_str(json).unwrap();
        assert_eq!(
            rules.repetition,
            Repetition::SimpleKo {
                cycle: CycleOutcome::Draw
            }
        );
        assert_eq!(rules.komi, Score::from_half_points(13));
        assert_eq!(rules.to_string(), "custom");
        let back: Ruleset = serde_json::from_str(&serde_json::to_string(&rules).unwrap()).unwrap();
        assert_eq!(back, rules);
    }
}
