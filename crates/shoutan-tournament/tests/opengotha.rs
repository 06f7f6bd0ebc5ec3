//! Hand-made events that show what OpenGotha computes where Shoutan used to
//! differ: SODOSM in handicap games, the bye between equals, the
//! handicap-free top group, participation, club avoidance and the whole
//! parameter set through import and export.

#![allow(clippy::unwrap_used)] // test code: a failed setup is a test failure

mod common;

use std::collections::{BTreeMap, BTreeSet};

use common::*;
use shoutan_tournament::formats::opengotha;
use shoutan_tournament::{
    DuddMode, HandicapBasis, HandicapRule, McMahon, PairingModel, PlayerId, SeedSystem, Settings,
    System,
};

/// A McMahon file in OpenGotha's own form: four kyu players, two rounds of
/// 2-stone games. `extra` goes into the players' attributes of Wu.
fn handicap_event(participating_wu: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<Tournament dataVersion="201" fullVersionNumber="3.51">
<Players>
<Player club="Lyon" country="FR" firstName="Pia" name="Pak" participating="11111111111111111111" rank="20K" rating="300"/>
<Player club="Lyon" country="FR" firstName="Quan" name="Qi" participating="11111111111111111111" rank="18K" rating="500"/>
<Player club="Metz" country="FR" firstName="Ren" name="Ro" participating="11111111111111111111" rank="18K" rating="490"/>
<Player club="Nice" country="DE" firstName="Sol" name="Su" participating="11111111111111111111" rank="22K" rating="100"/>
<Player club="Nice" country="DE" firstName="Wen" name="Wu" participating="{participating_wu}" rank="22K" rating="90"/>
</Players>
<Games>
<Game blackPlayer="PAKPIA" handicap="2" knownColor="true" result="RESULT_BLACKWINS" roundNumber="1" tableNumber="1" whitePlayer="QIQUAN"/>
<Game blackPlayer="SUSOL" handicap="2" knownColor="true" result="RESULT_WHITEWINS" roundNumber="1" tableNumber="2" whitePlayer="ROREN"/>
<Game blackPlayer="PAKPIA" handicap="2" knownColor="true" result="RESULT_BLACKWINS" roundNumber="2" tableNumber="1" whitePlayer="ROREN"/>
<Game blackPlayer="SUSOL" handicap="2" knownColor="true" result="RESULT_WHITEWINS" roundNumber="2" tableNumber="2" whitePlayer="QIQUAN"/>
</Games>
<ByePlayers>
</ByePlayers>
<TournamentParameterSet>
<GeneralParameterSet basicTime="60" beginDate="2026-03-01" director="Ana" endDate="2026-03-01" genMMBar="1D" genMMFloor="30K" genMMS2ValueAbsent="1" genMMS2ValueBye="2" genMMZero="30K" genNBW2ValueAbsent="0" genNBW2ValueBye="2" genRoundDownNBWMMS="true" komi="7.5" location="Lyon" name="Handicap cup" numberOfCategories="1" numberOfRounds="2" shortName="hcup" size="19"/>
<HandicapParameterSet hdBasedOnMMS="true" hdCeiling="9" hdCorrection="0" hdNoHdRankThreshold="1D"/>
<PlacementParameterSet>
<PlacementCriteria>
<PlacementCriterion name="MMS" number="1"/>
<PlacementCriterion name="SOSM" number="2"/>
<PlacementCriterion name="SODOSM" number="3"/>
<PlacementCriterion name="NULL" number="4"/>
</PlacementCriteria>
</PlacementParameterSet>
<PairingParameterSet paiBaAvoidDuplGame="500000000000000" paiBaBalanceWB="1000000" paiBaDeterministic="true" paiBaRandom="0" paiMaAdditionalPlacementCritSystem1="Rating" paiMaAdditionalPlacementCritSystem2="NULL" paiMaAvoidMixingCategories="0" paiMaCompensateDUDD="false" paiMaDUDDLowerMode="TOP" paiMaDUDDUpperMode="BOT" paiMaDUDDWeight="100000000" paiMaLastRoundForSeedSystem1="1" paiMaMaximizeSeeding="5000000" paiMaMinimizeScoreDifference="100000000000" paiMaSeedSystem1="SPLITANDRANDOM" paiMaSeedSystem2="SPLITANDFOLD" paiSeAvoidSameGeo="100000000000" paiSeBarThresholdActive="true" paiSeDefSecCrit="100000000000" paiSeMinimizeHandicap="0" paiSeNbWinsThresholdActive="false" paiSePreferMMSDiffRatherThanSameClub="3" paiSePreferMMSDiffRatherThanSameClubsGroup="2" paiSePreferMMSDiffRatherThanSameCountry="0" paiSeRankThreshold="1D" paiStandardNX1Factor="0.5"/>
<DPParameterSet displayClCol="true" gameFormat="short" playerSortType="rank"/>
<PublishParameterSet exportToLocalFile="false" print="true"/>
</TournamentParameterSet>
<TeamTournamentParameterSet>
<TeamGeneralParameterSet teamSize="3"/>
<TeamPlacementParameterSet>
<PlacementCriteria>
<PlacementCriterion name="TEAMP" number="1"/>
<PlacementCriterion name="BDW" number="2"/>
</PlacementCriteria>
</TeamPlacementParameterSet>
</TeamTournamentParameterSet>
</Tournament>
"#
    )
}

/// ```text
/// start (zero 30k, floor 30k): Pak 20k 10, Qi 18k 12, Ro 18k 12, Su 22k 8, Wu 22k 8
/// R1 Pak (B, 2 stones) beats Qi; Ro (W, 2 stones) beats Su; Wu absent (½, rounded down)
/// R2 Pak (B, 2 stones) beats Ro; Qi (W, 2 stones) beats Su; Wu absent (½ + ½ = 1)
/// final MMS: Pak 12, Qi 13, Ro 13, Su 8, Wu 9
/// Pak's SODOSM: both wins as Black in 2-stone games, each opponent's MMS
/// less the handicap, as in SOSM: (13 − 2) + (13 − 2) = 22, not 26.
/// ```
#[test]
fn sodosm_takes_the_handicap_off_as_sosm_does() {
    let t = opengotha::import(&handicap_event("00111111111111111111")).unwrap();
    let s = t.standings();
    assert_eq!(values(&s, "Pak Pia"), ["12", "22", "22"]);
    // Qi beat Su (MMS 8) as White giving 2 stones: 8 + 2.
    assert_eq!(values(&s, "Qi Quan"), ["13", "24", "10"]);
    assert_eq!(values(&s, "Wu Wen")[0], "9");
}

/// The arbiter's correction to a start (`smmsCorrection`) moves the McMahon
/// score, and its opponents' SOSM with it: Wu starts 2 higher (22k's 8 + 2),
/// so Wu ends on 9 + 2 = 11, and the file says so again on the way out.
#[test]
fn a_corrected_start_counts_and_goes_back_out() {
    let xml = handicap_event("00111111111111111111")
        .replace(r#"name="Wu""#, r#"name="Wu" smmsCorrection="2""#);
    let t = opengotha::import(&xml).unwrap();
    assert_eq!(values(&t.standings(), "Wu Wen")[0], "11");
    assert!(opengotha::export(&t).contains(r#"smmsCorrection="2""#));
    let bad = xml.replace(r#"smmsCorrection="2""#, r#"smmsCorrection="two""#);
    assert_eq!(
        opengotha::import(&bad).unwrap_err().to_string(),
        "OpenGotha file: smmsCorrection is not a whole number"
    );
}

/// Equal for the bye by OpenGotha's measure (rank + 2·MMS, no byes yet):
/// the one placed lower in the previous standings takes it, whatever the
/// order of registration.
///
/// ```text
/// registered: Bo 5k, Dai 5k, Cy 4k, Al 5k, Ed 5k (bar 1d, floor 30k)
/// R1: Cy beats Dai; Al beats Bo; Ed bye
/// after R1: Cy 27, Al 26, Ed 26, Dai 25 (SOSM 27), Bo 25 (SOSM 26)
/// Dai and Bo are equal for the bye; Bo is placed lower and takes it.
/// ```
#[test]
fn bye_between_equals_goes_to_the_lower_placed() {
    let xml = r#"<Tournament dataVersion="201">
<Players>
<Player firstName="Li" name="Bo" participating="11111111111111111111" rank="5K" rating="1600"/>
<Player firstName="Li" name="Dai" participating="11111111111111111111" rank="5K" rating="1600"/>
<Player firstName="Li" name="Cy" participating="11111111111111111111" rank="4K" rating="1700"/>
<Player firstName="Li" name="Al" participating="11111111111111111111" rank="5K" rating="1600"/>
<Player firstName="Li" name="Ed" participating="11111111111111111111" rank="5K" rating="1600"/>
</Players>
<Games>
<Game blackPlayer="CYLI" handicap="0" result="RESULT_BLACKWINS" roundNumber="1" tableNumber="1" whitePlayer="DAILI"/>
<Game blackPlayer="ALLI" handicap="0" result="RESULT_BLACKWINS" roundNumber="1" tableNumber="2" whitePlayer="BOLI"/>
</Games>
<ByePlayers><ByePlayer player="EDLI" roundNumber="1"/></ByePlayers>
<TournamentParameterSet>
<GeneralParameterSet genMMBar="1D" genMMFloor="30K" genMMS2ValueBye="2" name="Bye cup" numberOfRounds="3"/>
<HandicapParameterSet hdBasedOnMMS="true" hdCeiling="0" hdCorrection="1" hdNoHdRankThreshold="1D"/>
<PlacementParameterSet><PlacementCriteria>
<PlacementCriterion name="MMS" number="1"/><PlacementCriterion name="SOSM" number="2"/>
</PlacementCriteria></PlacementParameterSet>
<PairingParameterSet paiMaSeedSystem1="SPLITANDSLIP"/>
</TournamentParameterSet>
</Tournament>"#;
    let imported = opengotha::import(xml).unwrap();
    let s = imported.standings();
    assert_eq!(values(&s, "Dai Li")[..2], ["25", "27"]);
    assert_eq!(values(&s, "Bo Li")[..2], ["25", "26"]);
    for model in [PairingModel::Shoutan, PairingModel::OpenGotha] {
        let mut t = imported.clone();
        let mut settings = t.settings().clone();
        settings.pairing_model = model;
        t.set_settings(settings).unwrap();
        pair(&mut t);
        assert_eq!(byes(&t, 2), ["Bo Li"], "{model:?}");
    }
}

fn top_group_event(threshold: Option<&str>) -> shoutan_tournament::Tournament {
    let system = System::McMahon(McMahon {
        bar: "9d".parse().unwrap(),
        floor: "30k".parse().unwrap(),
        handicap: HandicapRule {
            basis: HandicapBasis::Rank,
            correction: 0,
            ceiling: 9,
            no_handicap_from: threshold.map(|r| r.parse().unwrap()),
        },
    });
    event(system, Some(1), &[("Hu", "3d"), ("Li", "1d")])
}

/// With the threshold at 1d a 3d and a 1d play even; without it, 2 stones.
/// The threshold goes out as `hdNoHdRankThreshold` and comes back.
#[test]
fn no_handicap_in_the_top_group() {
    let mut plain = top_group_event(None);
    assert_eq!(pair(&mut plain)[0].2, 2);
    let mut top = top_group_event(Some("1d"));
    assert_eq!(pair(&mut top)[0].2, 0);
    let xml = opengotha::export(&top);
    assert!(xml.contains("hdNoHdRankThreshold=\"1D\""), "{xml}");
    assert_eq!(
        opengotha::import(&xml).unwrap().settings().system,
        top.settings().system
    );
    let xml = opengotha::export(&plain);
    assert_eq!(
        opengotha::import(&xml).unwrap().settings().system,
        plain.settings().system
    );
}

/// Wu missed rounds 1 and 2 (`00111…`): she comes back absent in both and
/// goes out with the same participation; club avoidance (club factor 3)
/// comes in, country avoidance (factor 0) does not.
#[test]
fn participation_and_club_avoidance_come_in_and_go_out() {
    let t = opengotha::import(&handicap_event("00111111111111111111")).unwrap();
    let wu = t.find_player("Wu Wen").unwrap();
    assert_eq!(t.players()[wu.index()].absent, [1, 2]);
    assert!(t.settings().avoid_same_club);
    assert!(!t.settings().avoid_same_country);
    let xml = opengotha::export(&t);
    assert!(
        xml.contains("name=\"Wu\" participating=\"00111111111111111111\""),
        "{xml}"
    );
    // Withdrawn after round 1: 1 then 0s.
    let t = opengotha::import(&handicap_event("10000000000000000000")).unwrap();
    let wu = t.find_player("Wu Wen").unwrap();
    assert!(!t.players()[wu.index()].plays_in(3));
    assert!(opengotha::export(&t).contains("participating=\"10000000000000000000\""));
}

/// Every parameter comes in typed or kept, and import → export → import
/// gives the same event.
#[test]
fn the_whole_parameter_set_round_trips() {
    let t = opengotha::import(&handicap_event("00111111111111111111")).unwrap();
    let s = t.settings();
    assert_eq!(s.pairing_model, PairingModel::OpenGotha);
    let p = s.opengotha.as_ref().unwrap();
    assert!(!p.pairing.compensate_dudd);
    assert_eq!(p.pairing.dudd_upper, DuddMode::Bot);
    assert_eq!(p.pairing.dudd_lower, DuddMode::Top);
    assert_eq!(p.pairing.last_round_for_seed_system1, 1);
    assert_eq!(p.pairing.seed_system2, SeedSystem::SplitAndFold);
    assert_eq!(p.placement, ["MMS", "SOSM", "SODOSM"]);
    assert_eq!(p.team_placement, ["TEAMP", "BDW"]);
    assert_eq!(p.general("director"), Some("Ana"));
    assert_eq!(p.general("shortName"), Some("hcup"));
    let xml = opengotha::export(&t);
    for attr in [
        "paiMaDUDDUpperMode=\"BOT\"",
        "paiMaLastRoundForSeedSystem1=\"1\"",
        "paiSePreferMMSDiffRatherThanSameCountry=\"0\"",
        "director=\"Ana\"",
        "playerSortType=\"rank\"",
        "exportToLocalFile=\"false\"",
        "teamSize=\"3\"",
        "<PlacementCriterion name=\"BDW\" number=\"2\"/>",
        "<PlacementCriterion name=\"SODOSM\" number=\"3\"/>",
    ] {
        assert!(xml.contains(attr), "{attr} missing from\n{xml}");
    }
    let back = opengotha::import(&xml).unwrap();
    assert_eq!(back, t);
    assert_eq!(opengotha::export(&back), xml);
}

/// An event made in Shoutan goes out with OpenGotha's defaults for its
/// system and its own seeding and avoidance, and keeps Shoutan's pairing.
#[test]
fn a_shoutan_event_exports_opengotha_defaults() {
    let mut settings = Settings::new(System::Swiss, None);
    settings.rounds = Some(4);
    settings.avoid_same_club = true;
    let t = with_settings(settings, &[("Ma Lin", "2d"), ("Ni Bo", "1k")]);
    assert_eq!(t.settings().pairing_model, PairingModel::Shoutan);
    let xml = opengotha::export(&t);
    assert!(
        xml.contains("paiSePreferMMSDiffRatherThanSameClub=\"3\""),
        "{xml}"
    );
    assert!(xml.contains("paiMaSeedSystem2=\"SPLITANDSLIP\""), "{xml}");
    let back = opengotha::import(&xml).unwrap();
    assert!(back.settings().avoid_same_club);
    assert_eq!(back.player(PlayerId(0)).unwrap().name, "Ma Lin");
}

/// Every element of an OpenGotha file with its path and attributes (in
/// name order). The root's save stamp (`saveDT`, the saving program's
/// version and address) is left out: it says who wrote the file and when,
/// not what the event is.
fn elements(xml: &str) -> Vec<(String, Vec<(String, String)>)> {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut path: Vec<String> = Vec::new();
    let mut out = Vec::new();
    loop {
        let (e, empty) = match reader.read_event().unwrap() {
            Event::Start(e) => (e, false),
            Event::Empty(e) => (e, true),
            Event::End(_) => {
                path.pop();
                continue;
            }
            Event::Eof => break,
            _ => continue,
        };
        let local = e.local_name();
        let name = AsRef::<str>::as_ref(&local).to_owned();
        let mut attrs: Vec<(String, String)> = e
            .attributes()
            .map(|a| {
                let a = a.unwrap();
                let key = AsRef::<str>::as_ref(&a.key).to_owned();
                let value = a.normalized_value(quick_xml::XmlVersion::Implicit1_0);
                (key, value.unwrap().into_owned())
            })
            .filter(|(k, _)| {
                name != "Tournament"
                    || !matches!(
                        k.as_str(),
                        "saveDT"
                            | "externalIPAddress"
                            | "runningMode"
                            | "fullVersionNumber"
                            | "gothaVersion"
                            | "gothaMinorVersion"
                    )
            })
            .collect();
        attrs.sort();
        path.push(name);
        out.push((path.join("/"), attrs));
        if empty {
            path.pop();
        }
    }
    out
}

/// The elements as lines (`path attr="value" …`), counted, with only the
/// attributes `known` holds for their path: an export may add an
/// attribute the file never had (OpenGotha's default for it), but must
/// give back every one it had.
fn shape(
    elements: &[(String, Vec<(String, String)>)],
    known: &BTreeSet<(String, String)>,
) -> BTreeMap<String, usize> {
    let mut lines = BTreeMap::new();
    for (path, attrs) in elements {
        let mut line = path.clone();
        for (k, v) in attrs {
            if known.contains(&(path.clone(), k.clone())) {
                line.push_str(&format!(" {k}={v:?}"));
            }
        }
        *lines.entry(line).or_insert(0) += 1;
    }
    lines
}

/// Four real events, as OpenGotha saved them (tests/data/opengotha): a
/// French open with FFG licences and ratings, a 167-player McMahon with
/// late entrants and withdrawals, a Polish online cup on EGF ratings, a
/// Swiss with byes. Import → export gives back every element and every
/// attribute: players' rating origins, licences and PINs, grades, the
/// names as split into family and given, participation, games with their
/// tables, byes, and the whole parameter set.
#[test]
fn four_real_events_come_back_whole() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/opengotha");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "xml"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 4, "{files:?}");
    for file in files {
        let xml = std::fs::read_to_string(&file).unwrap();
        let t = opengotha::import(&xml).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let out = opengotha::export(&t);
        let (file_elements, out_elements) = (elements(&xml), elements(&out));
        let known: BTreeSet<(String, String)> = file_elements
            .iter()
            .flat_map(|(path, attrs)| attrs.iter().map(|(k, _)| (path.clone(), k.clone())))
            .collect();
        let (want, got) = (shape(&file_elements, &known), shape(&out_elements, &known));
        let lost: Vec<&String> = want
            .keys()
            .filter(|k| want.get(*k) != got.get(*k))
            .collect();
        let added: Vec<&String> = got.keys().filter(|k| !want.contains_key(*k)).collect();
        assert!(
            lost.is_empty() && added.is_empty(),
            "{}: lost {lost:#?}\nadded {added:#?}",
            file.display()
        );
        assert_eq!(opengotha::import(&out).unwrap(), t, "{}", file.display());
    }
}

/// What the files say of a player beyond pairing is the player's own
/// record, typed: where the rating comes from, the licence, the name as
/// the file splits it.
#[test]
fn a_players_registration_is_typed() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/opengotha");
    let read = |f: &str| opengotha::import(&std::fs::read_to_string(dir.join(f)).unwrap()).unwrap();
    let french = read("CdFO2020.xml");
    let martin = &french.players()[french.find_player("Martin Eric").unwrap().index()];
    assert_eq!(martin.rating, Some(1849));
    let r = &martin.registration;
    assert_eq!(r.rating_origin.as_deref(), Some("FFG : -201"));
    assert_eq!(r.ffg_licence.as_deref(), Some("9127003"));
    assert_eq!(r.ffg_licence_status.as_deref(), Some("L"));
    assert_eq!(r.family_name, None, "Martin is the first word");
    let ibero = read("20201004182316_congreso2020.xml");
    let id = ibero.find_player("Rocío Pérez Cottín Dulce").unwrap();
    let p = &ibero.players()[id.index()];
    assert_eq!(
        p.registration.family_name.as_deref(),
        Some("Rocío Pérez Cottín")
    );
    assert_eq!(
        p.family_and_given(),
        ("Rocío Pérez Cottín".to_owned(), "Dulce".to_owned())
    );
    assert_eq!(p.registration.rating_origin.as_deref(), Some("INI"));
}

/// OpenGotha's pairing takes fields larger than OpenGotha's own groups and
/// than its former budget of 4,096: two rounds of 4,097 entrants, each
/// with everyone paired once, one bye, and no rematch in the second.
#[test]
fn opengotha_pairing_takes_a_field_above_4096() {
    let mut settings = Settings::new(System::Swiss, None);
    settings.rounds = Some(2);
    settings.pairing_model = PairingModel::OpenGotha;
    let mut t = shoutan_tournament::Tournament::new("Open", settings).unwrap();
    for p in shoutan_tournament::sim::field(4097, 3) {
        t.add_player(p).unwrap();
    }
    let mut rng = fastrand::Rng::with_seed(5);
    let mut met = BTreeSet::new();
    for number in 1..=2 {
        let round = t.pair_next_round().unwrap();
        assert_eq!((round.games.len(), round.byes.len()), (2048, 1));
        let mut seen = BTreeSet::new();
        for g in &round.games {
            assert!(
                seen.insert(g.black) && seen.insert(g.white),
                "round {number}"
            );
            let pair = (g.black.min(g.white), g.black.max(g.white));
            assert!(met.insert(pair), "rematch {pair:?} in round {number}");
        }
        assert_eq!(seen.len(), 4096);
        shoutan_tournament::sim::play_last_round(&mut t, &mut rng).unwrap();
    }
}
