//! How an event is run: the system (Art. 25–26), the order of the standings
//! (Art. 27) and the organiser's choices. Plain data, stored in the file.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use shoutan_rules::Rank;

use crate::gotha_parameters::{OpenGothaParameters, PairingModel, SeedSystem};
use crate::{Certification, Discipline};

/// The pairing system (docs/spec/competition.md, "Kind of event").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum System {
    /// 循环制: everyone meets everyone `cycles` times (1 single, 2 double, …)
    /// on Berger tables, colours swapped in each new cycle.
    RoundRobin {
        /// How many times each pair meets.
        cycles: u8,
    },
    /// 积分编排制: each round pairs equal or close scores.
    Swiss,
    /// 积分编排加淘汰: Swiss rounds, a player with `losses` losses drops out.
    SwissElimination {
        /// Losses that put a player out.
        losses: u8,
    },
    /// McMahon: Swiss on McMahon scores that start from rank, with handicap.
    McMahon(McMahon),
    /// 淘汰制: out after `losses` losses (1 single, 2 double elimination with
    /// a reset of the grand final, more for multi-elimination); seeded, byes
    /// to the top seeds.
    Knockout {
        /// Losses that put a player out.
        losses: u8,
    },
    /// 多局决胜制: a match of two players over `games` games (3 to 7, or 10),
    /// stopped as soon as it is decided.
    BestOf {
        /// Games at most.
        games: u8,
    },
    /// 擂台赛: two teams in a fixed order; the winner stays on, the loser's
    /// next player comes in; the team whose last player loses is out.
    Relay,
}

impl System {
    /// Whether scores decide the pairing (Swiss-like systems).
    #[must_use]
    pub fn is_swiss(self) -> bool {
        matches!(
            self,
            System::Swiss | System::SwissElimination { .. } | System::McMahon(_)
        )
    }
}

/// McMahon parameters, as European tournaments set them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct McMahon {
    /// Players at or above the bar start with the bar's score.
    pub bar: Rank,
    /// Players at or below the floor start with the floor's score.
    pub floor: Rank,
    /// How handicaps are given.
    pub handicap: HandicapRule,
}

/// Handicap from the score or rank difference: `difference − correction`,
/// capped at `ceiling` (0: even games only). 1 means 让先 (black, no komi),
/// 2–9 stones. Players at or above `no_handicap_from` count as that rank,
/// so the top group plays even (OpenGotha's `hdNoHdRankThreshold`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandicapRule {
    /// What difference the handicap follows.
    pub basis: HandicapBasis,
    /// Subtracted from the difference (2 gives 2 stones at 4 ranks apart).
    pub correction: u8,
    /// The most handicap given; 0 for even games.
    pub ceiling: u8,
    /// Players at or above this rank (or McMahon score read as a rank)
    /// give and take no handicap among themselves; none: no such group.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub no_handicap_from: Option<Rank>,
}

/// The difference a handicap follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HandicapBasis {
    /// The McMahon scores at pairing time.
    Mms,
    /// The registered ranks.
    Rank,
}

impl HandicapRule {
    /// Even games only.
    pub const NONE: HandicapRule = HandicapRule {
        basis: HandicapBasis::Mms,
        correction: 0,
        ceiling: 0,
        no_handicap_from: None,
    };

    /// The handicap between two players from their levels on the rank
    /// scale (30k = −30 … 1d = 0; a McMahon score `s` reads as `s − 30`),
    /// after lowering both to at most `no_handicap_from`.
    #[must_use]
    pub fn between(self, a: i64, b: i64) -> u8 {
        let top = self
            .no_handicap_from
            .map_or(i64::MAX, |r| i64::from(r.level()));
        let h = (a.min(top) - b.min(top)).abs() - i64::from(self.correction);
        h.clamp(0, i64::from(self.ceiling.min(9))) as u8
    }
}

/// How a score group is cut for pairing (both split it into halves).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Seeding {
    /// Top half against bottom half in order: 1–(g/2+1), 2–(g/2+2), … (the
    /// Dutch and OpenGotha default).
    #[default]
    Slide,
    /// Top half against bottom half reversed: 1–g, 2–(g−1), ….
    Fold,
}

/// Colours of even games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ColorRule {
    /// The pairing balances colours: fewer blacks so far takes black, then
    /// alternation, then the higher-placed player takes black on odd tables.
    #[default]
    Balanced,
    /// 猜先 for every even game: a seeded draw recorded with the game
    /// (docs/spec/rules.md §6).
    Nigiri,
}

/// What happens to players still tied after every criterion (Art. 27 C).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TieRule {
    /// They share the place.
    #[default]
    SharedPlace,
    /// The place is marked for a playoff (加赛) fixed by the organiser.
    Playoff,
    /// Lots drawn from the event's recorded seed order them.
    Lots,
}

/// How a withdrawn player's unplayed games are valued in opponents'
/// tie-breaks (Swiss).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WithdrawnValuation {
    /// The points the player actually has (2002 rules; OpenGotha).
    #[default]
    Actual,
    /// 1988 Art. 29: points plus A per unplayed game, A = points ÷ games
    /// played, at most 1 (a draw).
    Average1988,
}

/// One criterion of the standings, in the order declared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Criterion {
    /// Points, 2/1/0 per game (match points in team events).
    Points,
    /// McMahon score.
    Mms,
    /// 胜者小分 (Sonneborn–Berger): points of the opponents beaten plus half
    /// the points of those drawn.
    Sb,
    /// Sum of opponents' scores (McMahon scores in a McMahon event).
    Sos,
    /// SOS without the lowest opponent.
    #[serde(rename = "sos-1")]
    SosMinus1,
    /// Sum of opponents' SOS.
    Sosos,
    /// Sum of defeated opponents' scores (on the event's score: McMahon
    /// scores in a McMahon event, where it differs from 胜者小分, each
    /// adjusted for the handicap as SOS is).
    Sodos,
    /// Cumulative sum of scores after each round.
    Cuss,
    /// Points in games between the players still tied.
    Direct,
    /// Fewer warnings over the event (Art. 27 B).
    Warnings,
    /// The Chinese Swiss total score: points + (opponents' points ÷ (half
    /// the maximum possible points) − rounds) (Art. 27 A).
    Total,
    /// Team events: board points (局分).
    BoardPoints,
    /// Team events: board 1's board points, then board 2's, ….
    Boards,
    /// Knockout and relay: still in, then out later.
    Progress,
    /// Games won, over the board or by forfeit (胜局数).
    Wins,
    /// Games won over the board as the second mover: xiangqi's 后胜局数,
    /// chess's games won with black, weiqi's wins with white.
    SecondMoverWins,
}

impl Criterion {
    /// Every criterion with its name.
    pub const ALL: [(Criterion, &'static str); 16] = [
        (Criterion::Points, "points"),
        (Criterion::Mms, "mms"),
        (Criterion::Sb, "sb"),
        (Criterion::Sos, "sos"),
        (Criterion::SosMinus1, "sos-1"),
        (Criterion::Sosos, "sosos"),
        (Criterion::Sodos, "sodos"),
        (Criterion::Cuss, "cuss"),
        (Criterion::Direct, "direct"),
        (Criterion::Warnings, "warnings"),
        (Criterion::Total, "total"),
        (Criterion::BoardPoints, "board-points"),
        (Criterion::Boards, "boards"),
        (Criterion::Progress, "progress"),
        (Criterion::Wins, "wins"),
        (Criterion::SecondMoverWins, "second-mover-wins"),
    ];

    /// Whether the criterion is counted in game points (so shown on the
    /// game's scale: halved where a win is 1).
    #[must_use]
    pub fn in_points(self) -> bool {
        matches!(
            self,
            Criterion::Points
                | Criterion::Sb
                | Criterion::Sos
                | Criterion::SosMinus1
                | Criterion::Sosos
                | Criterion::Sodos
                | Criterion::Cuss
                | Criterion::BoardPoints
        )
    }

    /// The short name used in files, the command line and table headers.
    #[must_use]
    pub fn name(self) -> &'static str {
        Criterion::ALL
            .iter()
            .find(|(c, _)| *c == self)
            .map_or("?", |(_, n)| n)
    }
}

impl fmt::Display for Criterion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Text that is not a criterion.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{0:?} is not a criterion (expected points, mms, sb, sos, sos-1, sosos, sodos, cuss, direct, warnings, total, board-points, boards or progress)"
)]
pub struct CriterionError(pub String);

impl FromStr for Criterion {
    type Err = CriterionError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim().to_lowercase();
        let t = match t.as_str() {
            "胜者小分" | "sonneborn-berger" => "sb",
            "sosm1" | "sos−1" => "sos-1",
            other => other,
        };
        Criterion::ALL
            .iter()
            .find(|(_, n)| *n == t)
            .map(|(c, _)| *c)
            .ok_or_else(|| CriterionError(s.to_owned()))
    }
}

/// Team events (Art. 25): the format and how many players it counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamSettings {
    /// Boards per match; in an all-play-all match the players of each team
    /// (each meets every player of the other team); in a team total-score
    /// event the members whose points make the team's total.
    pub boards: u8,
    /// The team format (files written before the all-play-all and
    /// total-score formats call it `lineup`).
    #[serde(alias = "lineup")]
    pub format: TeamFormat,
}

/// The team formats of Art. 25.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TeamFormat {
    /// 分台定人制: the first members in registered order, fixed for the event.
    #[default]
    FixedBoards,
    /// 定台换人制: registered order fixed, substitutes may stand in.
    Substitutes,
    /// 临场出人制: the captain names the line-up for each match.
    PerMatch,
    /// 全队轮赛制: in a match, each of a team's first `boards` players meets
    /// each of the other team's, over `boards` rounds of the match
    /// (the Scheveningen system of chess).
    AllPlayAll,
    /// 队员总分制: players are paired as individuals; a team ranks by the
    /// sum of the points of its `boards` best-placed members.
    TotalScore,
}

impl TeamFormat {
    /// Every format with its name on the command line.
    pub const ALL: [(TeamFormat, &'static str); 5] = [
        (TeamFormat::FixedBoards, "fixed"),
        (TeamFormat::Substitutes, "substitutes"),
        (TeamFormat::PerMatch, "per-match"),
        (TeamFormat::AllPlayAll, "all-play-all"),
        (TeamFormat::TotalScore, "total-score"),
    ];

    /// Whether teams meet in matches (every format but the team total
    /// score, where players are paired and teams only ranked).
    #[must_use]
    pub fn has_matches(self) -> bool {
        self != TeamFormat::TotalScore
    }

    /// The name used on the command line.
    #[must_use]
    pub fn name(self) -> &'static str {
        TeamFormat::ALL
            .iter()
            .find(|(f, _)| *f == self)
            .map_or("?", |(_, n)| n)
    }
}

impl fmt::Display for TeamFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Text that is not a team format.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{0:?} is not a team format (expected fixed, substitutes, per-match, all-play-all or total-score)"
)]
pub struct TeamFormatError(pub String);

impl FromStr for TeamFormat {
    type Err = TeamFormatError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim().to_lowercase().replace('_', "-");
        let t = match t.as_str() {
            "分台定人制" | "fixed-boards" => "fixed",
            "定台换人制" => "substitutes",
            "临场出人制" => "per-match",
            "全队轮赛制" | "scheveningen" => "all-play-all",
            "队员总分制" => "total-score",
            other => other,
        };
        TeamFormat::ALL
            .iter()
            .find(|(_, n)| *n == t)
            .map(|(f, _)| *f)
            .ok_or_else(|| TeamFormatError(s.to_owned()))
    }
}

/// Everything the organiser decides.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// The pairing system.
    pub system: System,
    /// Planned rounds (Swiss-like systems; the others know their own length).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounds: Option<u32>,
    /// Present for team events.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub teams: Option<TeamSettings>,
    /// The standings order, first criterion first.
    pub criteria: Vec<Criterion>,
    /// Ties after every criterion.
    #[serde(default)]
    pub ties: TieRule,
    /// Colours of even games (`colors`; files written before the one
    /// spelling say `colours`).
    #[serde(default, alias = "colours")]
    pub colors: ColorRule,
    /// Score group cutting.
    #[serde(default)]
    pub seeding: Seeding,
    /// Avoid pairing players of one club.
    #[serde(default)]
    pub avoid_same_club: bool,
    /// Avoid pairing players of one country.
    #[serde(default)]
    pub avoid_same_country: bool,
    /// Team total-score events: teammates are not paired together while
    /// avoidable (Swiss and McMahon), and meet first in a round robin.
    #[serde(default)]
    pub avoid_teammates: bool,
    /// Points for a pairing bye (2 = a win, as OpenGotha and most Swiss
    /// events give it). Round robin rests score nothing.
    pub bye_points: u8,
    /// Withdrawn players in opponents' tie-breaks.
    #[serde(default)]
    pub withdrawn_valuation: WithdrawnValuation,
    /// The recorded seed of every random draw (nigiri, lots, numbers).
    pub seed: u64,
    /// Which cost model pairs Swiss and McMahon rounds.
    #[serde(default)]
    pub pairing_model: PairingModel,
    /// A rank-certification event (段级位赛): the rule players are promoted
    /// by after the last round.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub certification: Option<Certification>,
    /// The game (weiqi unless the event says otherwise).
    #[serde(default, skip_serializing_if = "Discipline::is_weiqi")]
    pub discipline: Discipline,
    /// OpenGotha's parameter set, when the event came from OpenGotha or
    /// pairs as OpenGotha does (none: OpenGotha's defaults for the system).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opengotha: Option<Box<OpenGothaParameters>>,
}

impl Settings {
    /// The defaults of docs/spec/competition.md for a system: standings order,
    /// byes, rounds.
    #[must_use]
    pub fn new(system: System, teams: Option<TeamSettings>) -> Settings {
        use Criterion as C;
        let team = teams.is_some_and(|t| t.format.has_matches());
        let criteria = match system {
            System::RoundRobin { .. } if team => vec![C::Points, C::BoardPoints, C::Boards],
            System::RoundRobin { .. } => vec![C::Points, C::Sb, C::Warnings],
            System::Swiss | System::SwissElimination { .. } if team => {
                vec![C::Total, C::Points, C::BoardPoints, C::Boards]
            }
            System::Swiss | System::SwissElimination { .. } => vec![C::Total, C::Warnings],
            System::McMahon(_) => vec![C::Mms, C::Sos, C::Sosos],
            System::Knockout { .. } | System::Relay => vec![C::Progress, C::Points],
            System::BestOf { .. } => vec![C::Points],
        };
        let bye_points = match system {
            System::RoundRobin { .. } => 0,
            _ => 2,
        };
        Settings {
            system,
            rounds: None,
            teams,
            criteria,
            ties: TieRule::default(),
            colors: ColorRule::default(),
            seeding: Seeding::default(),
            avoid_same_club: false,
            avoid_same_country: false,
            avoid_teammates: false,
            bye_points,
            withdrawn_valuation: WithdrawnValuation::default(),
            seed: 0,
            pairing_model: PairingModel::default(),
            certification: None,
            discipline: Discipline::Weiqi,
            opengotha: None,
        }
    }

    /// [`Settings::new`] for an event of another game: its standings order
    /// for an individual Swiss or round robin.
    #[must_use]
    pub fn for_discipline(
        discipline: Discipline,
        system: System,
        teams: Option<TeamSettings>,
    ) -> Settings {
        let mut s = Settings::new(system, teams);
        s.discipline = discipline;
        if teams.is_none()
            && let Some(criteria) = discipline.criteria(system)
        {
            s.criteria = criteria;
        }
        s
    }

    /// Whether a handicap rule is in use (a McMahon ceiling above 0).
    pub(crate) fn uses_handicaps(&self) -> bool {
        matches!(self.system, System::McMahon(m) if m.handicap.ceiling > 0)
    }

    /// The OpenGotha parameters the event pairs and exports with: its own,
    /// or OpenGotha's defaults for its system with Shoutan's seeding and
    /// club and country avoidance.
    #[must_use]
    pub fn opengotha_parameters(&self) -> OpenGothaParameters {
        if let Some(p) = &self.opengotha {
            return (**p).clone();
        }
        let mcmahon = matches!(self.system, System::McMahon(_));
        let mut p = OpenGothaParameters::defaults(mcmahon);
        let seed = match self.seeding {
            Seeding::Slide => SeedSystem::SplitAndSlip,
            Seeding::Fold => SeedSystem::SplitAndFold,
        };
        p.pairing.seed_system1 = seed;
        p.pairing.seed_system2 = seed;
        let pairing = &mut p.pairing;
        pairing.prefer_mms_diff_club = if self.avoid_same_club { 3 } else { 0 };
        pairing.prefer_mms_diff_country = if self.avoid_same_country { 1 } else { 0 };
        pairing.avoid_same_geo = if self.avoid_same_club || self.avoid_same_country {
            pairing.minimize_score_difference
        } else {
            0
        };
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn criteria_names_round_trip() {
        for (c, name) in Criterion::ALL {
            assert_eq!(name.parse::<Criterion>(), Ok(c));
            assert_eq!(c.to_string(), name);
        }
        assert_eq!("胜者小分".parse::<Criterion>(), Ok(Criterion::Sb));
        assert!("sos2".parse::<Criterion>().is_err());
    }

    #[test]
    fn team_format_names_round_trip() {
        for (f, name) in TeamFormat::ALL {
            assert_eq!(name.parse::<TeamFormat>(), Ok(f));
            assert_eq!(f.to_string(), name);
        }
        assert_eq!("全队轮赛制".parse(), Ok(TeamFormat::AllPlayAll));
        assert_eq!("队员总分制".parse(), Ok(TeamFormat::TotalScore));
        assert!("relay".parse::<TeamFormat>().is_err());
    }

    /// Files written before the format had its own name say `lineup`.
    #[test]
    fn old_team_settings_still_read() {
        let old: TeamSettings = serde_json::from_str(r#"{"boards":3,"lineup":"per_match"}"#)
            .expect("an old file's team settings");
        assert_eq!(old.format, TeamFormat::PerMatch);
        let new = serde_json::to_string(&old).expect("serialises");
        assert_eq!(new, r#"{"boards":3,"format":"per_match"}"#);
    }

    /// Files written before the one spelling say `colours`.
    #[test]
    fn the_old_spelling_of_the_color_rule_still_reads() {
        let mut settings = Settings::new(System::Swiss, None);
        settings.colors = ColorRule::Nigiri;
        let new = serde_json::to_string(&settings).expect("serialises");
        assert!(new.contains(r#""colors":"nigiri""#), "{new}");
        let old = new.replace(r#""colors":"#, r#""colours":"#);
        let read: Settings = serde_json::from_str(&old).expect("an old file's settings");
        assert_eq!(read, settings);
    }

    #[test]
    fn handicap_follows_difference_correction_and_ceiling() {
        let rule = HandicapRule {
            basis: HandicapBasis::Rank,
            correction: 1,
            ceiling: 9,
            no_handicap_from: None,
        };
        assert_eq!(rule.between(0, 0), 0);
        assert_eq!(rule.between(-5, -4), 0);
        assert_eq!(rule.between(-5, -2), 2);
        assert_eq!(rule.between(-20, -5), 9);
        assert_eq!(HandicapRule::NONE.between(0, -5), 0);
    }

    /// OpenGotha's handicap-free top group: with the threshold at 1d, a 3d
    /// and a 1d play even, and a 3d gives a 3k what a 1d would (3 − 1 = 2).
    #[test]
    fn no_handicap_at_or_above_the_threshold() {
        let rule = HandicapRule {
            basis: HandicapBasis::Rank,
            correction: 1,
            ceiling: 9,
            no_handicap_from: Some(Rank::Dan(1)),
        };
        let level = |r: &str| i64::from(r.parse::<Rank>().expect("rank").level());
        assert_eq!(rule.between(level("3d"), level("1d")), 0);
        assert_eq!(rule.between(level("3d"), level("3k")), 2);
        assert_eq!(rule.between(level("1k"), level("4k")), 2);
    }
}
