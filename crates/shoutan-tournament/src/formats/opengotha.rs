//! OpenGotha tournament files (the reference tool for McMahon events, also
//! read by OGS), so an event moves between Shoutan and OpenGotha.
//!
//! Facts carried over (spec/formats.md): the root must say
//! `dataVersion="201"` or OpenGotha 3.51 adds 2050 to every rating; players
//! are keyed by their upper-cased name and first name without spaces; ranks
//! are written `30K`…`1K`, `1D`…`9D`, `1P`…`9P`; results are
//! `RESULT_BLACKWINS`, `RESULT_WHITEWINS`, `RESULT_EQUAL`,
//! `RESULT_BOTHLOOSE`, `RESULT_UNKNOWN`, with `_BYDEF` for results without
//! a game. Names: Shoutan keeps one name; the first word is written as
//! OpenGotha's family name and the rest as the first name, and importing
//! joins them back.

use std::collections::HashMap;
use std::fmt::Write;

use quick_xml::XmlVersion;
use quick_xml::escape::escape;
use quick_xml::events::Event;
use shoutan_rules::{Color, Rank};

use crate::{
    Bye, ColourChoice, Criterion, Entrant, Game, HandicapBasis, HandicapRule, McMahon, NewPlayer,
    Outcome, PlayerId, Round, Settings, System, Tournament, TournamentError,
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

fn split_name(name: &str) -> (String, String) {
    match name.trim().split_once(' ') {
        Some((family, given)) => (family.to_owned(), given.trim().to_owned()),
        None => (name.trim().to_owned(), String::new()),
    }
}

fn key(name: &str, first: &str) -> String {
    format!("{name}{first}")
        .to_uppercase()
        .split_whitespace()
        .collect()
}

/// The event as an OpenGotha file (individual events).
#[must_use]
pub fn export(t: &Tournament) -> String {
    let mut out = String::new();
    let rounds = t
        .settings()
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
            let (n, f) = split_name(&p.name);
            key(&n, &f)
        })
        .collect();
    for p in t.players() {
        let (name, first) = split_name(&p.name);
        let participating: String = (1..=rounds)
            .map(|r| if p.plays_in(r) { '1' } else { '0' })
            .collect();
        let rank = p.rank.unwrap_or(Rank::Kyu(30));
        let rating = p.rating.unwrap_or(2100 + 100 * rank.level());
        let _ = writeln!(
            out,
            "<Player agaExpirationDate=\"\" agaId=\"\" club=\"{}\" country=\"{}\" egfPin=\"\" ffgLicence=\"\" ffgLicenceStatus=\"\" firstName=\"{}\" grade=\"{}\" name=\"{}\" participating=\"{participating}\" rank=\"{}\" rating=\"{rating}\" ratingOrigin=\"\" registeringStatus=\"FIN\" smmsCorrection=\"0\"/>",
            escape(p.club.as_deref().unwrap_or("")),
            escape(p.country.as_deref().unwrap_or("")),
            escape(first.as_str()),
            rank_text(rank),
            escape(name.as_str()),
            rank_text(rank),
        );
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
                Some(Outcome::BothLose) => "RESULT_BOTHLOOSE",
                // No OpenGotha equivalent: the players show as not paired.
                Some(Outcome::Void | Outcome::Unplayed) => continue,
            };
            let _ = writeln!(
                out,
                "<Game blackPlayer=\"{}\" handicap=\"{}\" knownColor=\"true\" result=\"{result}\" roundNumber=\"{}\" tableNumber=\"{}\" whitePlayer=\"{}\"/>",
                escape(keys[g.black.index()].as_str()),
                g.handicap,
                r.number,
                g.table,
                escape(keys[g.white.index()].as_str()),
            );
        }
    }
    let _ = writeln!(out, "</Games>\n<ByePlayers>");
    for r in t.rounds() {
        for b in &r.byes {
            if let Entrant::Player(p) = b.entrant
                && b.points > 0
            {
                let _ = writeln!(
                    out,
                    "<ByePlayer player=\"{}\" roundNumber=\"{}\"/>",
                    escape(keys[p.index()].as_str()),
                    r.number
                );
            }
        }
    }
    let _ = writeln!(out, "</ByePlayers>\n<TournamentParameterSet>");
    let (bar, floor, hd) = match t.settings().system {
        System::McMahon(m) => (m.bar, m.floor, m.handicap),
        _ => (Rank::Dan(9), Rank::Kyu(30), HandicapRule::NONE),
    };
    let (begin, end) = match t.dates() {
        Some(d) => d
            .split_once(',')
            .map_or((d.to_owned(), d.to_owned()), |(a, b)| {
                (a.trim().to_owned(), b.trim().to_owned())
            }),
        None => (String::new(), String::new()),
    };
    let _ = writeln!(
        out,
        "<GeneralParameterSet beginDate=\"{}\" endDate=\"{}\" genMMBar=\"{}\" genMMFloor=\"{}\" genMMZero=\"30K\" genMMS2ValueAbsent=\"1\" genMMS2ValueBye=\"2\" genNBW2ValueAbsent=\"0\" genNBW2ValueBye=\"2\" genRoundDownNBWMMS=\"true\" komi=\"{}\" location=\"{}\" name=\"{}\" numberOfCategories=\"1\" numberOfRounds=\"{rounds}\" shortName=\"{}\" size=\"19\"/>",
        escape(begin.as_str()),
        escape(end.as_str()),
        rank_text(bar),
        rank_text(floor),
        escape(t.komi().unwrap_or("7.5")),
        escape(t.place().unwrap_or("")),
        escape(t.name()),
        escape(t.name()),
    );
    let _ = writeln!(
        out,
        "<HandicapParameterSet hdBasedOnMMS=\"{}\" hdCeiling=\"{}\" hdCorrection=\"{}\" hdNoHdRankThreshold=\"30K\"/>",
        hd.basis == HandicapBasis::Mms,
        hd.ceiling,
        hd.correction
    );
    let _ = writeln!(out, "<PlacementParameterSet>\n<PlacementCriteria>");
    let mut number = 0;
    for c in &t.settings().criteria {
        let mcmahon = matches!(t.settings().system, System::McMahon(_));
        let name = match (c, mcmahon) {
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
            _ => continue,
        };
        number += 1;
        let _ = writeln!(
            out,
            "<PlacementCriterion name=\"{name}\" number=\"{number}\"/>"
        );
    }
    let _ = writeln!(out, "</PlacementCriteria>\n</PlacementParameterSet>");
    let seed = match t.settings().seeding {
        crate::Seeding::Slide => "SPLITANDSLIP",
        crate::Seeding::Fold => "SPLITANDFOLD",
    };
    let _ = writeln!(
        out,
        "<PairingParameterSet paiMaSeedSystem1=\"{seed}\" paiMaSeedSystem2=\"{seed}\"/>"
    );
    let _ = writeln!(out, "</TournamentParameterSet>\n</Tournament>");
    out
}

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
    let criteria: Vec<String> = els
        .iter()
        .filter(|(n, _)| n == "PlacementCriterion")
        .map(|(_, a)| attr(a, "name"))
        .filter(|n| n != "NULL")
        .collect();
    let mcmahon = criteria.first().is_some_and(|c| c == "MMS");
    let system = if mcmahon {
        let hd = get("HandicapParameterSet");
        let num = |k: &str| {
            hd.and_then(|a| a.get(k))
                .and_then(|v| v.parse::<u8>().ok())
                .unwrap_or(0)
        };
        System::McMahon(McMahon {
            bar: rank(&attr(general, "genMMBar"))?,
            floor: rank(&attr(general, "genMMFloor"))?,
            handicap: HandicapRule {
                basis: if hd
                    .and_then(|a| a.get("hdBasedOnMMS"))
                    .is_some_and(|v| v == "false")
                {
                    HandicapBasis::Rank
                } else {
                    HandicapBasis::Mms
                },
                correction: num("hdCorrection"),
                ceiling: num("hdCeiling").min(9),
            },
        })
    } else {
        System::Swiss
    };
    let mut settings = Settings::new(system, None);
    settings.rounds = Some(rounds.max(1));
    let mapped: Vec<Criterion> = criteria
        .iter()
        .filter_map(|c| match c.as_str() {
            "NBW" => Some(Criterion::Points),
            "MMS" => Some(Criterion::Mms),
            "SOSM" | "SOSW" => Some(Criterion::Sos),
            "SOSMM1" | "SOSWM1" => Some(Criterion::SosMinus1),
            "SOSOSM" | "SOSOSW" => Some(Criterion::Sosos),
            "SODOSM" | "SODOSW" => Some(Criterion::Sodos),
            "CUSSM" | "CUSSW" => Some(Criterion::Cuss),
            "DC" => Some(Criterion::Direct),
            _ => None,
        })
        .filter(|c| mcmahon || *c != Criterion::Mms)
        .collect();
    if !mapped.is_empty() {
        settings.criteria = mapped;
    }
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
        let player = NewPlayer {
            name: full,
            rank: Some(rank(&attr(a, "rank"))?),
            rating: a
                .get("rating")
                .and_then(|r| r.parse::<f64>().ok())
                .map(|r| r.round() as i32),
            club: a_opt(a, "club"),
            country: a_opt(a, "country"),
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
            "RESULT_BOTHLOOSE" | "RESULT_BOTHLOOSE_BYDEF" => Some(Outcome::BothLose),
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
            colours: if handicap > 0 {
                ColourChoice::Handicap
            } else {
                ColourChoice::Pairing
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
    let last = rounds_map.keys().next_back().copied().unwrap_or(0);
    for number in 1..=last {
        let mut round = rounds_map.remove(&number).unwrap_or(Round {
            number,
            ..Round::default()
        });
        round.games.sort_by_key(|g| g.table);
        for (k, g) in round.games.iter_mut().enumerate() {
            g.table = k as u32 + 1;
        }
        t.push_imported_round(round)?;
    }
    // Declared absences for rounds still to come.
    for (id, rounds) in absent {
        for r in rounds.into_iter().filter(|&r| r > last) {
            t.set_absent(id, r)?;
        }
    }
    Ok(t)
}

fn a_opt(a: &Attrs, k: &str) -> Option<String> {
    a.get(k)
        .map(|v| v.trim().to_owned())
        .filter(|v| !v.is_empty())
}
