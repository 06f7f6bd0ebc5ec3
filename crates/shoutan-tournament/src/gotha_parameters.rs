//! OpenGotha's parameter set, carried whole so an event goes OpenGotha →
//! Shoutan → OpenGotha with nothing lost, and read by the OpenGotha-compatible
//! pairing ([`PairingModel::OpenGotha`]).
//!
//! The pairing weights and thresholds are typed (their names, meanings and
//! defaults are OpenGotha 3.51's, from its documentation and its public
//! source, lucvannier/opengotha, GPL v3: credited, not copied). Settings
//! Shoutan already models (system, McMahon bar and floor, handicap, rounds,
//! criteria) live in [`crate::Settings`]; what OpenGotha has and Shoutan
//! does not use (display, publishing, team parameters, time system, …) is
//! kept as the file wrote it.

use serde::{Deserialize, Serialize};
use shoutan_rules::Rank;

/// Which cost model pairs Swiss and McMahon rounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PairingModel {
    /// Shoutan's own (one strict matching over the field, see the pairing
    /// module): the default.
    #[default]
    Shoutan,
    /// OpenGotha's weights and procedure with the event's OpenGotha
    /// parameters, so a round comes out as OpenGotha would pair it.
    OpenGotha,
}

/// How a score group is seeded in OpenGotha.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeedSystem {
    /// Top half against bottom half at random (deterministic in names).
    SplitAndRandom,
    /// 1–g, 2–(g−1), ….
    SplitAndFold,
    /// 1–(g/2+1), 2–(g/2+2), ….
    SplitAndSlip,
}

impl SeedSystem {
    /// The name in OpenGotha files.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            SeedSystem::SplitAndRandom => "SPLITANDRANDOM",
            SeedSystem::SplitAndFold => "SPLITANDFOLD",
            SeedSystem::SplitAndSlip => "SPLITANDSLIP",
        }
    }

    /// From the name in OpenGotha files (OpenGotha reads anything else as
    /// split and random).
    #[must_use]
    pub fn from_name(s: &str) -> SeedSystem {
        match s {
            "SPLITANDFOLD" => SeedSystem::SplitAndFold,
            "SPLITANDSLIP" => SeedSystem::SplitAndSlip,
            _ => SeedSystem::SplitAndRandom,
        }
    }
}

/// Where in its score group a player floating up or down is preferably
/// taken from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DuddMode {
    /// The top of the group.
    Top,
    /// The middle.
    Mid,
    /// The bottom.
    Bot,
}

impl DuddMode {
    /// The name in OpenGotha files.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            DuddMode::Top => "TOP",
            DuddMode::Mid => "MID",
            DuddMode::Bot => "BOT",
        }
    }

    /// From the name in OpenGotha files (anything else is the middle).
    #[must_use]
    pub fn from_name(s: &str) -> DuddMode {
        match s {
            "TOP" => DuddMode::Top,
            "BOT" => DuddMode::Bot,
            _ => DuddMode::Mid,
        }
    }
}

/// OpenGotha's pairing parameters (`PairingParameterSet`), each with its
/// name in the file. Weights are OpenGotha's integers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GothaPairing {
    /// `paiBaAvoidDuplGame`: the bonus of a pair that has not met.
    pub avoid_duplicate: i64,
    /// `paiBaRandom`: the range of the random term (0: none).
    pub random: i64,
    /// `paiBaDeterministic`: the random term follows the names.
    pub deterministic: bool,
    /// `paiBaBalanceWB`: the bonus of a pair whose colours balance.
    pub balance_wb: i64,
    /// `paiMaAvoidMixingCategories`.
    pub avoid_mixing_categories: i64,
    /// `paiMaMinimizeScoreDifference`.
    pub minimize_score_difference: i64,
    /// `paiMaDUDDWeight`: draw-ups and draw-downs.
    pub dudd_weight: i64,
    /// `paiMaCompensateDUDD`: prefer floats that compensate earlier ones.
    pub compensate_dudd: bool,
    /// `paiMaDUDDUpperMode`: where a floater leaves the upper group.
    pub dudd_upper: DuddMode,
    /// `paiMaDUDDLowerMode`: where a floater meets the lower group.
    pub dudd_lower: DuddMode,
    /// `paiMaMaximizeSeeding`.
    pub maximize_seeding: i64,
    /// `paiMaLastRoundForSeedSystem1` (a round number from 1).
    pub last_round_for_seed_system1: u32,
    /// `paiMaSeedSystem1`.
    pub seed_system1: SeedSystem,
    /// `paiMaSeedSystem2`.
    pub seed_system2: SeedSystem,
    /// `paiMaAdditionalPlacementCritSystem1` (`Rating`, `Rank`, `NULL`, …).
    pub additional_criterion1: String,
    /// `paiMaAdditionalPlacementCritSystem2`.
    pub additional_criterion2: String,
    /// `paiSeBarThresholdActive`: no secondary criteria above the bar.
    pub bar_threshold_active: bool,
    /// `paiSeRankThreshold`: no secondary criteria at or above this rank.
    pub rank_threshold: Rank,
    /// `paiSeNbWinsThresholdActive`: none for players with many wins.
    pub nb_wins_threshold_active: bool,
    /// `paiSeDefSecCrit`.
    pub default_secondary: i64,
    /// `paiSeMinimizeHandicap`.
    pub minimize_handicap: i64,
    /// `paiSeAvoidSameGeo`: club and country avoidance.
    pub avoid_same_geo: i64,
    /// `paiSePreferMMSDiffRatherThanSameCountry`.
    pub prefer_mms_diff_country: i32,
    /// `paiSePreferMMSDiffRatherThanSameClubsGroup`.
    pub prefer_mms_diff_clubs_group: i32,
    /// `paiSePreferMMSDiffRatherThanSameClub`.
    pub prefer_mms_diff_club: i32,
    /// `paiStandardNX1Factor`: the concavity of the score-difference cost.
    pub nx1_factor: f64,
}

impl GothaPairing {
    /// OpenGotha's defaults for a new McMahon event.
    #[must_use]
    pub fn mcmahon() -> GothaPairing {
        GothaPairing {
            avoid_duplicate: 500_000_000_000_000,
            random: 0,
            deterministic: true,
            balance_wb: 1_000_000,
            avoid_mixing_categories: 0,
            minimize_score_difference: 100_000_000_000,
            dudd_weight: 100_000_000,
            compensate_dudd: true,
            dudd_upper: DuddMode::Mid,
            dudd_lower: DuddMode::Mid,
            maximize_seeding: 5_000_000,
            last_round_for_seed_system1: 2,
            seed_system1: SeedSystem::SplitAndRandom,
            seed_system2: SeedSystem::SplitAndSlip,
            additional_criterion1: "Rating".into(),
            additional_criterion2: "NULL".into(),
            bar_threshold_active: true,
            rank_threshold: Rank::Dan(1),
            nb_wins_threshold_active: false,
            default_secondary: 100_000_000_000,
            minimize_handicap: 0,
            avoid_same_geo: 100_000_000_000,
            prefer_mms_diff_country: 1,
            prefer_mms_diff_clubs_group: 2,
            prefer_mms_diff_club: 3,
            nx1_factor: 0.5,
        }
    }

    /// OpenGotha's defaults for a new Swiss event.
    #[must_use]
    pub fn swiss() -> GothaPairing {
        GothaPairing {
            seed_system1: SeedSystem::SplitAndSlip,
            seed_system2: SeedSystem::SplitAndSlip,
            additional_criterion2: "Rating".into(),
            rank_threshold: Rank::Kyu(30),
            nb_wins_threshold_active: true,
            default_secondary: 20_000_000_000_000,
            avoid_same_geo: 0,
            prefer_mms_diff_country: 0,
            prefer_mms_diff_club: 0,
            ..GothaPairing::mcmahon()
        }
    }
}

/// One parameter element Shoutan keeps without using: its name and
/// attributes in the file's order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeptElement {
    /// The element (`DPParameterSet`, `PublishParameterSet`, `Category`, …).
    pub name: String,
    /// Its attributes.
    pub attributes: Vec<(String, String)>,
}

/// The whole OpenGotha parameter set of an event.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OpenGothaParameters {
    /// The pairing parameters.
    pub pairing: GothaPairing,
    /// `PlacementCriterion` names in order, as written (`NULL` left out).
    pub placement: Vec<String>,
    /// Attributes of `GeneralParameterSet` that Shoutan keeps elsewhere
    /// or not at all (time system, director, values of byes and absences,
    /// …), in the file's order.
    pub general: Vec<(String, String)>,
    /// Other parameter elements: categories, display, publishing, team
    /// size.
    pub kept: Vec<KeptElement>,
    /// `TeamPlacementParameterSet` criteria, as written.
    pub team_placement: Vec<String>,
}

impl OpenGothaParameters {
    /// OpenGotha's defaults for a new event of this kind.
    #[must_use]
    pub fn defaults(mcmahon: bool) -> OpenGothaParameters {
        OpenGothaParameters {
            pairing: if mcmahon {
                GothaPairing::mcmahon()
            } else {
                GothaPairing::swiss()
            },
            placement: Vec::new(),
            general: Vec::new(),
            kept: Vec::new(),
            team_placement: Vec::new(),
        }
    }

    /// A kept attribute of `GeneralParameterSet`.
    #[must_use]
    pub fn general(&self, name: &str) -> Option<&str> {
        self.general
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}
