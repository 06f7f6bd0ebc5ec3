//! OpenGotha tournament files (the reference tool for McMahon events, also
//! read by OGS), so an event moves between Shoutan and OpenGotha.
//!
//! Facts carried over (docs/spec/formats.md): the root must say
//! `dataVersion="201"` or OpenGotha 3.51 adds 2050 to every rating; players
//! are keyed by their upper-cased name and first name without spaces; ranks
//! are written `30K`…`1K`, `1D`…`9D`, `1P`…`9P`; results are
//! `RESULT_BLACKWINS`, `RESULT_WHITEWINS`, `RESULT_EQUAL`,
//! `RESULT_BOTHLOSE`, `RESULT_UNKNOWN`, with `_BYDEF` for results without
//! a game. Names: Shoutan keeps one name; importing joins OpenGotha's
//! family and first names and keeps the family name where it is not the
//! first word; exporting splits them back (at the first word otherwise).
//! Every other field of a player (rating origin, licences, grade,
//! `smmsCorrection`, registration status) is kept in its `Registration`.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;

use quick_xml::XmlVersion;
use quick_xml::escape::escape;
use quick_xml::events::Event;
use shoutan_rules::{Color, Rank};

use super::one_line;
use crate::player::family_and_given;
use crate::{
    Bye, ColorChoice, Criterion, DuddMode, Entrant, Game, GothaPairing, HandicapBasis,
    HandicapRule, KeptElement, McMahon, NewPlayer, OpenGothaParameters, Outcome, PairingModel,
    PlayerId, Registration, Round, SeedSystem, Seeding, Settings, System, Tournament,
    TournamentError,
};

/// Why a file could not be imported.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OpenGothaError {
    /// Not well-formed XML.
    #[error("not an OpenGotha file: {0}")]
    Xml(String),
    /// A value OpenGotha would not write.
    #[error("OpenGotha file: {0}")]
    Value(String),
    /// The event refused what the file says.
    #[error(transparent)]
    Event(#[from] TournamentError),
}

fn rank_text(r: Rank) -> String {
    r.to_string().to_uppercase()
}

fn key(name: &str, first: &str) -> String {
    format!("{name}{first}")
        .to_uppercase()
        .split_whitespace()
        .collect()
}

/// Rounds every participation string covers (OpenGotha's most rounds).
const PARTICIPATION_ROUNDS: u32 = 20;

/// Attributes written in name order, as OpenGotha writes them.
fn attributes(out: &mut String, attrs: &BTreeMap<String, String>) {
    for (k, v) in attrs {
        let _ = write!(out, " {k}=\"{}\"", escape(one_line(v).as_ref()));
    }
}

fn element(out: &mut String, name: &str, attrs: &BTreeMap<String, String>) {
    out.push('<');
    out.push_str(name);
    attributes(out, attrs);
    out.push_str("/>\n");
}

fn owned<const N: usize>(pairs: [(&str, String); N]) -> BTreeMap<String, String> {
    pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()
}

/// The OpenGotha name of a criterion, if OpenGotha has it.
fn criterion_name(c: Criterion, mcmahon: bool) -> Option<&'static str> {
    Some(match (c, mcmahon) {
        (Criterion::Points, _) => "NBW",
        (Criterion::Mms, _) => "MMS",
        (Criterion::Sos, true) => "SOSM",
        (Criterion::Sos, false) => "SOSW",
        (Criterion::SosMinus1, true) => "SOSMM1",
        (Criterion::SosMinus1, false) => "SOSWM1",
        (Criterion::Sosos, true) => "SOSOSM",
        (Criterion::Sosos, false) => "SOSOSW",
        (Criterion::Sodos, true) => "SODOSM",
        (Criterion::Sodos | Criterion::Sb, _) => "SODOSW",
        (Criterion::Cuss, true) => "CUSSM",
        (Criterion::Cuss, false) => "CUSSW",
        (Criterion::Direct, _) => "DC",
        _ => return None,
    })
}

/// The Shoutan criterion of an OpenGotha criterion name, if any.
fn criterion_of(name: &str) -> Option<Criterion> {
    Some(match name {
        "NBW" => Criterion::Points,
        "MMS" => Criterion::Mms,
        "SOSM" | "SOSW" => Criterion::Sos,
        "SOSMM1" | "SOSWM1" => Criterion::SosMinus1,
        "SOSOSM" | "SOSOSW" => Criterion::Sosos,
        "SODOSM" | "SODOSW" => Criterion::Sodos,
        "CUSSM" | "CUSSW" => Criterion::Cuss,
        "DC" => Criterion::Direct,
        _ => return None,
    })
}

/// The event as an OpenGotha file (individual events), with its whole
/// OpenGotha parameter set: the one it was imported with, or OpenGotha's
/// defaults for its system.
#[must_use]
pub fn export(t: &Tournament) -> String {
    let mut out = String::new();
    let settings = t.settings();
    let params = settings.opengotha_parameters();
    let rounds = settings
        .rounds
        .unwrap_or(t.rounds().len() as u32)
        .max(t.rounds().len() as u32)
        .max(1);
    let _ = writeln!(
        out,
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>"
    );
    let _ = writeln!(
        out,
        "<Tournament dataVersion=\"201\" fullVersionNumber=\"3.51\">"
    );
    let _ = writeln!(out, "<Players>");
    let keys: Vec<String> = t
        .players()
        .iter()
        .map(|p| {
            let (n, f) = p.family_and_given();
            key(&n, &f)
        })
        .collect();
    for p in t.players() {
        let (name, first) = p.family_and_given();
        let r = &p.registration;
        let text = |v: &Option<String>| v.clone().unwrap_or_default();
        let participating: String = (1..=rounds.max(PARTICIPATION_ROUNDS))
            .map(|r| if p.plays_in(r) { '1' } else { '0' })
            .collect();
        let rank = p.rank.unwrap_or(Rank::Kyu(30));
        let rating = p.gotha_rating();
        let attrs = owned([
            ("agaExpirationDate", text(&r.aga_expiration_date)),
            ("agaId", text(&r.aga_id)),
            ("club", text(&p.club)),
            ("country", text(&p.country)),
            ("egfPin", text(&r.egf_pin)),
            ("ffgLicence", text(&r.ffg_licence)),
            ("ffgLicenceStatus", text(&r.ffg_licence_status)),
            ("firstName", first),
            ("grade", r.grade.clone().unwrap_or_else(|| rank_text(rank))),
            ("name", name),
            ("participating", participating),
            ("rank", rank_text(rank)),
            ("rating", rating.to_string()),
            ("ratingOrigin", text(&r.rating_origin)),
            (
                "registeringStatus",
                if r.preliminary { "PRE" } else { "FIN" }.into(),
            ),
            ("smmsCorrection", r.mms_correction.to_string()),
        ]);
        element(&mut out, "Player", &attrs);
    }
    let _ = writeln!(out, "</Players>\n<Games>");
    for r in t.rounds() {
        for g in &r.games {
            let result = match g.outcome {
                None => "RESULT_UNKNOWN",
                Some(Outcome::Win(Color::Black)) => "RESULT_BLACKWINS",
                Some(Outcome::Win(Color::White)) => "RESULT_WHITEWINS",
                Some(Outcome::Draw) => "RESULT_EQUAL",
                Some(Outcome::Forfeit(Color::Black)) => "RESULT_BLACKWINS_BYDEF",
                Some(Outcome::Forfeit(Color::White)) => "RESULT_WHITEWINS_BYDEF",
                Some(Outcome::BothLose) => "RESULT_BOTHLOSE",
                // No OpenGotha equivalent: the players show as not paired.
                Some(Outcome::Void | Outcome::Unplayed) => continue,
            };
            let attrs = owned([
                ("blackPlayer", keys[g.black.index()].clone()),
                ("handicap", g.handicap.to_string()),
                ("knownColor", "true".into()),
                ("result", result.into()),
                ("roundNumber", r.number.to_string()),
                ("tableNumber", g.table.to_string()),
                ("whitePlayer", keys[g.white.index()].clone()),
            ]);
            element(&mut out, "Game", &attrs);
        }
    }
    let _ = writeln!(out, "</Games>");
    // OpenGotha writes the element only when a round had a bye.
    let mut byes = String::new();
    for r in t.rounds() {
        for b in &r.byes {
            if let Entrant::Player(p) = b.entrant
                && b.points > 0
            {
                let attrs = owned([
                    ("player", keys[p.index()].clone()),
                    ("roundNumber", r.number.to_string()),
                ]);
                element(&mut byes, "ByePlayer", &attrs);
            }
        }
    }
    if !byes.is_empty() {
        let _ = write!(out, "<ByePlayers>\n{byes}</ByePlayers>\n");
    }
    let _ = writeln!(out, "<TournamentParameterSet>");
    let mcmahon = matches!(settings.system, System::McMahon(_));
    let (bar, floor) = match settings.system {
        System::McMahon(m) => (m.bar, m.floor),
        _ => (Rank::Dan(9), Rank::Kyu(30)),
    };
    let (begin, end) = match t.dates() {
        Some(d) => d
            .split_once(',')
            .map_or((d.to_owned(), d.to_owned()), |(a, b)| {
                (a.trim().to_owned(), b.trim().to_owned())
            }),
        None => (String::new(), String::new()),
    };
    let mut general = owned([
        ("genMMBar", rank_text(bar)),
        ("genMMFloor", rank_text(floor)),
        ("genMMS2ValueAbsent", "1".into()),
        ("genMMS2ValueBye", "2".into()),
        ("genMMZero", "30K".into()),
        ("genNBW2ValueAbsent", "0".into()),
        ("genNBW2ValueBye", "2".into()),
        ("genRoundDownNBWMMS", "true".into()),
        ("numberOfCategories", "1".into()),
        ("shortName", t.name().to_owned()),
        ("size", "19".into()),
    ]);
    general.extend(params.general.iter().cloned());
    if mcmahon {
        general.insert("genMMBar".into(), rank_text(bar));
        general.insert("genMMFloor".into(), rank_text(floor));
    }
    general.extend(owned([
        ("beginDate", begin),
        ("endDate", end),
        ("komi", t.komi().unwrap_or("7.5").to_owned()),
        ("location", t.place().unwrap_or("").to_owned()),
        ("name", t.name().to_owned()),
        ("numberOfRounds", rounds.to_string()),
    ]));
    element(&mut out, "GeneralParameterSet", &general);
    let kept = |name: &str| {
        params
            .kept
            .iter()
            .find(|k| k.name == name)
            .map(|k| k.attributes.iter().cloned().collect::<BTreeMap<_, _>>())
    };
    let handicap = match settings.system {
        System::McMahon(m) => {
            let hd = m.handicap;
            owned([
                ("hdBasedOnMMS", (hd.basis == HandicapBasis::Mms).to_string()),
                ("hdCeiling", hd.ceiling.to_string()),
                ("hdCorrection", hd.correction.to_string()),
                (
                    "hdNoHdRankThreshold",
                    rank_text(hd.no_handicap_from.unwrap_or(Rank::Dan(9))),
                ),
            ])
        }
        _ => kept("HandicapParameterSet").unwrap_or_else(|| {
            owned([
                ("hdBasedOnMMS", "false".into()),
                ("hdCeiling", "0".into()),
                ("hdCorrection", "0".into()),
                ("hdNoHdRankThreshold", "30K".into()),
            ])
        }),
    };
    element(&mut out, "HandicapParameterSet", &handicap);
    let _ = writeln!(out, "<PlacementParameterSet>\n<PlacementCriteria>");
    let kept_placement: Vec<Criterion> = params
        .placement
        .iter()
        .filter_map(|n| criterion_of(n))
        .collect();
    let names: Vec<String> = if !params.placement.is_empty() && kept_placement == settings.criteria
    {
        params.placement.clone()
    } else {
        settings
            .criteria
            .iter()
            .filter_map(|&c| criterion_name(c, mcmahon).map(str::to_owned))
            .collect()
    };
    criteria(&mut out, &names);
    let _ = writeln!(out, "</PlacementCriteria>\n</PlacementParameterSet>");
    element(
        &mut out,
        "PairingParameterSet",
        &pairing_attributes(&params.pairing),
    );
    for name in ["DPParameterSet", "PublishParameterSet"] {
        if let Some(attrs) = kept(name) {
            element(&mut out, name, &attrs);
        }
    }
    let _ = writeln!(out, "</TournamentParameterSet>");
    let team = kept("TeamGeneralParameterSet");
    if team.is_some() || !params.team_placement.is_empty() {
        let _ = writeln!(out, "<TeamTournamentParameterSet>");
        if let Some(attrs) = team {
            element(&mut out, "TeamGeneralParameterSet", &attrs);
        }
        let _ = writeln!(out, "<TeamPlacementParameterSet>\n<PlacementCriteria>");
        criteria(&mut out, &params.team_placement);
        let _ = writeln!(
            out,
            "</PlacementCriteria>\n</TeamPlacementParameterSet>\n</TeamTournamentParameterSet>"
        );
    }
    let _ = writeln!(out, "</Tournament>");
    out
}

/// Criteria OpenGotha writes: always six, `NULL` for an unused place.
const CRITERIA: usize = 6;

/// `PlacementCriterion` elements, padded with `NULL` as OpenGotha writes
/// them.
fn criteria(out: &mut String, names: &[String]) {
    let nulls = CRITERIA.saturating_sub(names.len());
    for (k, name) in names
        .iter()
        .map(String::as_str)
        .chain(std::iter::repeat_n("NULL", nulls))
        .enumerate()
    {
        let _ = writeln!(
            out,
            "<PlacementCriterion name=\"{}\" number=\"{}\"/>",
            escape(name),
            k + 1
        );
    }
}

/// `PairingParameterSet`'s attributes.
fn pairing_attributes(p: &GothaPairing) -> BTreeMap<String, String> {
    owned([
        ("paiBaAvoidDuplGame", p.avoid_duplicate.to_string()),
        ("paiBaBalanceWB", p.balance_wb.to_string()),
        ("paiBaDeterministic", p.deterministic.to_string()),
        ("paiBaRandom", p.random.to_string()),
        (
            "paiMaAdditionalPlacementCritSystem1",
            p.additional_criterion1.clone(),
        ),
        (
            "paiMaAdditionalPlacementCritSystem2",
            p.additional_criterion2.clone(),
        ),
        (
            "paiMaAvoidMixingCategories",
            p.avoid_mixing_categories.to_string(),
        ),
        ("paiMaCompensateDUDD", p.compensate_dudd.to_string()),
        ("paiMaDUDDLowerMode", p.dudd_lower.name().into()),
        ("paiMaDUDDUpperMode", p.dudd_upper.name().into()),
        ("paiMaDUDDWeight", p.dudd_weight.to_string()),
        (
            "paiMaLastRoundForSeedSystem1",
            p.last_round_for_seed_system1.to_string(),
        ),
        ("paiMaMaximizeSeeding", p.maximize_seeding.to_string()),
        (
            "paiMaMinimizeScoreDifference",
            p.minimize_score_difference.to_string(),
        ),
        ("paiMaSeedSystem1", p.seed_system1.name().into()),
        ("paiMaSeedSystem2", p.seed_system2.name().into()),
        ("paiSeAvoidSameGeo", p.avoid_same_geo.to_string()),
        (
            "paiSeBarThresholdActive",
            p.bar_threshold_active.to_string(),
        ),
        ("paiSeDefSecCrit", p.default_secondary.to_string()),
        ("paiSeMinimizeHandicap", p.minimize_handicap.to_string()),
        (
            "paiSeNbWinsThresholdActive",
            p.nb_wins_threshold_active.to_string(),
        ),
        (
            "paiSePreferMMSDiffRatherThanSameClub",
            p.prefer_mms_diff_club.to_string(),
        ),
        (
            "paiSePreferMMSDiffRatherThanSameClubsGroup",
            p.prefer_mms_diff_clubs_group.to_string(),
        ),
        (
            "paiSePreferMMSDiffRatherThanSameCountry",
            p.prefer_mms_diff_country.to_string(),
        ),
        ("paiSeRankThreshold", rank_text(p.rank_threshold)),
        ("paiStandardNX1Factor", format!("{:?}", p.nx1_factor)),
    ])
}

/// `PairingParameterSet` read with OpenGotha's defaults for missing
/// attributes.
fn pairing_of(a: Option<&Attrs>) -> Result<GothaPairing, OpenGothaError> {
    let get = |k: &str, default: &str| {
        a.and_then(|a| a.get(k))
            .map_or_else(|| default.to_owned(), |v| v.trim().to_owned())
    };
    let int = |k: &str, default: &str| {
        get(k, default)
            .parse::<i64>()
            .map_err(|_| OpenGothaError::Value(format!("{k} is not a whole number")))
    };
    let small = |k: &str, default: &str| {
        get(k, default)
            .parse::<i32>()
            .map_err(|_| OpenGothaError::Value(format!("{k} is not a whole number")))
    };
    let flag = |k: &str, default: &str| get(k, default) == "true";
    Ok(GothaPairing {
        avoid_duplicate: int("paiBaAvoidDuplGame", "500000000000000")?,
        random: int("paiBaRandom", "0")?,
        deterministic: flag("paiBaDeterministic", "true"),
        balance_wb: int("paiBaBalanceWB", "1000")?,
        avoid_mixing_categories: int("paiMaAvoidMixingCategories", "20000000000000")?,
        minimize_score_difference: int("paiMaMinimizeScoreDifference", "100000000000")?,
        dudd_weight: int("paiMaDUDDWeight", "100000000")?,
        compensate_dudd: flag("paiMaCompensateDUDD", "true"),
        dudd_upper: DuddMode::from_name(&get("paiMaDUDDUpperMode", "MID")),
        dudd_lower: DuddMode::from_name(&get("paiMaDUDDLowerMode", "MID")),
        maximize_seeding: int("paiMaMaximizeSeeding", "5000000")?,
        last_round_for_seed_system1: u32::try_from(small("paiMaLastRoundForSeedSystem1", "2")?)
            .map_err(|_| {
                OpenGothaError::Value("paiMaLastRoundForSeedSystem1 is negative".into())
            })?,
        seed_system1: SeedSystem::from_name(&get("paiMaSeedSystem1", "SPLITANDRANDOM")),
        seed_system2: SeedSystem::from_name(&get("paiMaSeedSystem2", "SPLITANDFOLD")),
        additional_criterion1: get("paiMaAdditionalPlacementCritSystem1", "Rating"),
        additional_criterion2: get("paiMaAdditionalPlacementCritSystem2", "NULL"),
        bar_threshold_active: flag("paiSeBarThresholdActive", "true"),
        rank_threshold: get("paiSeRankThreshold", "4D")
            .parse::<Rank>()
            .map_err(|e| OpenGothaError::Value(e.to_string()))?,
        nb_wins_threshold_active: flag("paiSeNbWinsThresholdActive", "true"),
        default_secondary: int("paiSeDefSecCrit", "100000000000")?,
        minimize_handicap: int("paiSeMinimizeHandicap", "0")?,
        avoid_same_geo: int("paiSeAvoidSameGeo", "100000000000")?,
        prefer_mms_diff_country: small("paiSePreferMMSDiffRatherThanSameCountry", "1")?,
        prefer_mms_diff_clubs_group: small("paiSePreferMMSDiffRatherThanSameClubsGroup", "2")?,
        prefer_mms_diff_club: small("paiSePreferMMSDiffRatherThanSameClub", "3")?,
        nx1_factor: get("paiStandardNX1Factor", "0.5")
            .parse::<f64>()
            .ok()
            .filter(|f| f.is_finite())
            .ok_or_else(|| OpenGothaError::Value("paiStandardNX1Factor is not a number".into()))?,
    })
}

/// `GeneralParameterSet` attributes Shoutan holds in its own settings (the
/// last two only in a McMahon event); the others are kept as written.
const MODELLED_GENERAL: [&str; 8] = [
    "name",
    "location",
    "beginDate",
    "endDate",
    "komi",
    "numberOfRounds",
    "genMMBar",
    "genMMFloor",
];

/// Attributes of one element.
type Attrs = HashMap<String, String>;

fn elements(xml: &str) -> Result<Vec<(String, Attrs)>, OpenGothaError> {
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut out = Vec::new();
    let mut root_seen = false;
    loop {
        match reader.read_event() {
            Ok(Event::Start(e) | Event::Empty(e)) => {
                let local = e.local_name();
                let name = AsRef::<str>::as_ref(&local).to_owned();
                let mut attrs = Attrs::new();
                for a in e.attributes() {
                    let a = a.map_err(|err| OpenGothaError::Xml(err.to_string()))?;
                    let k = AsRef::<str>::as_ref(&a.key).to_owned();
                    let v = a
                        .normalized_value(XmlVersion::Implicit1_0)
                        .map_err(|err| OpenGothaError::Xml(err.to_string()))?;
                    attrs.insert(k, v.into_owned());
                }
                if !root_seen {
                    if name != "Tournament" {
                        return Err(OpenGothaError::Xml(format!(
                            "the root element is <{name}>, not <Tournament>"
                        )));
                    }
                    root_seen = true;
                }
                out.push((name, attrs));
            }
            Ok(Event::Eof) => break,
            Ok(_) => {}
            Err(e) => {
                return Err(OpenGothaError::Xml(format!(
                    "at byte {}: {e}",
                    reader.error_position()
                )));
            }
        }
    }
    if !root_seen {
        return Err(OpenGothaError::Xml("no <Tournament> element".into()));
    }
    Ok(out)
}

/// Reads an OpenGotha file into a new event: players, parameters, every
/// game and bye with its result.
///
/// # Errors
/// Malformed XML, unknown ranks or results, games naming unknown players.
pub fn import(xml: &str) -> Result<Tournament, OpenGothaError> {
    let els = elements(xml)?;
    let get = |name: &str| els.iter().find(|(n, _)| n == name).map(|(_, a)| a);
    let value = |m: &str| OpenGothaError::Value(m.to_owned());
    let general = get("GeneralParameterSet").ok_or_else(|| value("no GeneralParameterSet"))?;
    let attr = |a: &Attrs, k: &str| a.get(k).cloned().unwrap_or_default();
    let rank = |s: &str| {
        s.parse::<Rank>()
            .map_err(|e| OpenGothaError::Value(e.to_string()))
    };
    let rounds: u32 = attr(general, "numberOfRounds")
        .parse()
        .map_err(|_| value("numberOfRounds is not a number"))?;
    // Placement criteria: the event's, then the team placement's.
    let mut criteria: Vec<String> = Vec::new();
    let mut team_placement: Vec<String> = Vec::new();
    let mut in_team = false;
    for (n, a) in &els {
        match n.as_str() {
            "TeamPlacementParameterSet" => in_team = true,
            "PlacementParameterSet" => in_team = false,
            "PlacementCriterion" if attr(a, "name") != "NULL" => {
                if in_team {
                    team_placement.push(attr(a, "name"));
                } else {
                    criteria.push(attr(a, "name"));
                }
            }
            _ => {}
        }
    }
    let mcmahon = criteria.first().is_some_and(|c| c == "MMS");
    let hd = get("HandicapParameterSet");
    let system = if mcmahon {
        let num = |k: &str, default: u8| {
            hd.and_then(|a| a.get(k))
                .map_or(Ok(default), |v| v.trim().parse::<u8>())
                .map_err(|_| OpenGothaError::Value(format!("{k} is not a small whole number")))
        };
        let text = |k: &str, default: &str| {
            hd.and_then(|a| a.get(k))
                .map_or_else(|| default.to_owned(), |v| v.trim().to_owned())
        };
        System::McMahon(McMahon {
            bar: rank(&attr(general, "genMMBar"))?,
            floor: rank(&attr(general, "genMMFloor"))?,
            handicap: HandicapRule {
                basis: if text("hdBasedOnMMS", "true") == "false" {
                    HandicapBasis::Rank
                } else {
                    HandicapBasis::Mms
                },
                correction: num("hdCorrection", 1)?,
                ceiling: num("hdCeiling", 9)?.min(9),
                // 9d, the top of OpenGotha's scale, is no threshold.
                no_handicap_from: Some(rank(&text("hdNoHdRankThreshold", "1D"))?)
                    .filter(|r| *r != Rank::Dan(9)),
            },
        })
    } else {
        System::Swiss
    };
    let mut settings = Settings::new(system, None);
    settings.rounds = Some(rounds.max(1));
    let mapped: Vec<Criterion> = criteria
        .iter()
        .filter_map(|c| criterion_of(c))
        .filter(|c| mcmahon || *c != Criterion::Mms)
        .collect();
    if !mapped.is_empty() {
        settings.criteria = mapped;
    }
    let pairing = pairing_of(get("PairingParameterSet"))?;
    settings.seeding = match pairing.seed_system2 {
        SeedSystem::SplitAndFold => Seeding::Fold,
        _ => Seeding::Slide,
    };
    let geo = pairing.avoid_same_geo > 0;
    settings.avoid_same_club = geo && pairing.prefer_mms_diff_club > 0;
    settings.avoid_same_country = geo && pairing.prefer_mms_diff_country > 0;
    let modelled: &[&str] = if mcmahon {
        &MODELLED_GENERAL
    } else {
        &MODELLED_GENERAL[..MODELLED_GENERAL.len() - 2]
    };
    let mut kept_general: Vec<(String, String)> = general
        .iter()
        .filter(|(k, _)| !modelled.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    kept_general.sort();
    let mut kept: Vec<KeptElement> = Vec::new();
    let mut keep = |name: &str| {
        if let Some(a) = get(name) {
            let mut attributes: Vec<(String, String)> =
                a.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
            attributes.sort();
            kept.push(KeptElement {
                name: name.to_owned(),
                attributes,
            });
        }
    };
    if !mcmahon {
        keep("HandicapParameterSet");
    }
    for name in [
        "DPParameterSet",
        "PublishParameterSet",
        "TeamGeneralParameterSet",
    ] {
        keep(name);
    }
    settings.opengotha = Some(Box::new(OpenGothaParameters {
        pairing,
        placement: criteria,
        general: kept_general,
        kept,
        team_placement,
    }));
    settings.pairing_model = PairingModel::OpenGotha;
    let name = attr(general, "name");
    let mut t = Tournament::new(
        if name.trim().is_empty() {
            "OpenGotha event"
        } else {
            &name
        },
        settings,
    )?;
    let (begin, end) = (attr(general, "beginDate"), attr(general, "endDate"));
    let dates = match (begin.is_empty(), begin == end) {
        (true, _) => None,
        (false, true) => Some(begin),
        (false, false) => Some(format!("{begin},{end}")),
    };
    t.set_details(
        a_opt(general, "location"),
        dates,
        a_opt(general, "komi"),
        None,
    );
    let mut ids: HashMap<String, PlayerId> = HashMap::new();
    let mut absent: Vec<(PlayerId, Vec<u32>)> = Vec::new();
    for (_, a) in els.iter().filter(|(n, _)| n == "Player") {
        let (family, first) = (attr(a, "name"), attr(a, "firstName"));
        let full = if first.trim().is_empty() {
            family.clone()
        } else {
            format!("{} {}", family.trim(), first.trim())
        };
        let player_rank = rank(&attr(a, "rank"))?;
        let some = |k: &str| a.get(k).filter(|v| !v.is_empty()).cloned();
        let registration = Registration {
            family_name: Some(family.trim().to_owned()).filter(|f| family_and_given(&full).0 != *f),
            rating_origin: some("ratingOrigin"),
            grade: some("grade").filter(|g| *g != rank_text(player_rank)),
            egf_pin: some("egfPin"),
            ffg_licence: some("ffgLicence"),
            ffg_licence_status: some("ffgLicenceStatus"),
            aga_id: some("agaId"),
            aga_expiration_date: some("agaExpirationDate"),
            mms_correction: match attr(a, "smmsCorrection").trim() {
                "" => 0,
                n => n
                    .parse()
                    .map_err(|_| value("smmsCorrection is not a whole number"))?,
            },
            preliminary: attr(a, "registeringStatus") == "PRE",
        };
        let player = NewPlayer {
            name: full,
            rank: Some(player_rank),
            rating: a
                .get("rating")
                .and_then(|r| r.parse::<f64>().ok())
                .map(|r| r.round() as i32),
            club: a_opt(a, "club"),
            country: a_opt(a, "country"),
            registration,
        };
        let id = t.add_player(player)?;
        ids.insert(key(&family, &first), id);
        let skipped: Vec<u32> = attr(a, "participating")
            .chars()
            .enumerate()
            .filter(|(_, c)| *c == '0')
            .map(|(i, _)| i as u32 + 1)
            .collect();
        absent.push((id, skipped));
    }
    let player = |k: &str| {
        ids.get(&k.to_uppercase())
            .copied()
            .ok_or_else(|| OpenGothaError::Value(format!("a game names unknown player {k:?}")))
    };
    let mut rounds_map: std::collections::BTreeMap<u32, Round> = std::collections::BTreeMap::new();
    for (_, a) in els.iter().filter(|(n, _)| n == "Game") {
        let number: u32 = attr(a, "roundNumber")
            .parse()
            .map_err(|_| value("a game has no round number"))?;
        let outcome = match attr(a, "result").as_str() {
            "RESULT_UNKNOWN" | "" => None,
            "RESULT_BLACKWINS" => Some(Outcome::Win(Color::Black)),
            "RESULT_WHITEWINS" => Some(Outcome::Win(Color::White)),
            "RESULT_EQUAL" | "RESULT_EQUAL_BYDEF" => Some(Outcome::Draw),
            "RESULT_BLACKWINS_BYDEF" => Some(Outcome::Forfeit(Color::Black)),
            "RESULT_WHITEWINS_BYDEF" => Some(Outcome::Forfeit(Color::White)),
            // `BOTHLOOSE`: what Shoutan wrote before it wrote OpenGotha's
            // own spelling.
            "RESULT_BOTHLOSE"
            | "RESULT_BOTHLOSE_BYDEF"
            | "RESULT_BOTHLOOSE"
            | "RESULT_BOTHLOOSE_BYDEF" => Some(Outcome::BothLose),
            other => {
                return Err(OpenGothaError::Value(format!(
                    "result {other} has no Shoutan equivalent"
                )));
            }
        };
        let round = rounds_map.entry(number).or_insert_with(|| Round {
            number,
            ..Round::default()
        });
        let table = attr(a, "tableNumber")
            .parse()
            .unwrap_or(round.games.len() as u32 + 1);
        let handicap: u8 = attr(a, "handicap").parse().unwrap_or(0);
        round.games.push(Game {
            table,
            black: player(&attr(a, "blackPlayer"))?,
            white: player(&attr(a, "whitePlayer"))?,
            handicap: handicap.min(9),
            colors: if handicap > 0 {
                ColorChoice::Handicap
            } else {
                ColorChoice::Pairing
            },
            outcome,
            warnings: [0, 0],
            board: None,
            match_round: None,
        });
    }
    for (_, a) in els.iter().filter(|(n, _)| n == "ByePlayer") {
        let number: u32 = attr(a, "roundNumber")
            .parse()
            .map_err(|_| value("a bye has no round number"))?;
        let p = player(&attr(a, "player"))?;
        rounds_map
            .entry(number)
            .or_insert_with(|| Round {
                number,
                ..Round::default()
            })
            .byes
            .push(Bye {
                entrant: Entrant::Player(p),
                points: t.settings().bye_points,
            });
    }
    // Participation, round by round (a withdrawn player's `110000`), before
    // the rounds so that every declared absence is recorded.
    for (id, rounds) in absent {
        for r in rounds {
            t.set_absent(id, r)?;
        }
    }
    let last = rounds_map.keys().next_back().copied().unwrap_or(0);
    for number in 1..=last {
        let mut round = rounds_map.remove(&number).unwrap_or(Round {
            number,
            ..Round::default()
        });
        round.games.sort_by_key(|g| g.table);
        // The file's table numbers, unless two games share one.
        if round.games.windows(2).any(|w| w[0].table == w[1].table) {
            for (k, g) in round.games.iter_mut().enumerate() {
                g.table = k as u32 + 1;
            }
        }
        t.push_imported_round(round)?;
    }

    Ok(t)
}

fn a_opt(a: &Attrs, k: &str) -> Option<String> {
    a.get(k)
        .map(|v| v.trim().to_owned())
        .filter(|v| !v.is_empty())
}
