//! Every tie-break on one event worked by hand (the six-player Swiss of
//! tests/swiss.rs), and the 1988 valuation of a withdrawn player.

#![allow(clippy::unwrap_used)] // test code: a failed setup is a test failure

mod common;

use common::*;
use shoutan_tournament::{Criterion as C, System, Tournament, WithdrawnValuation};

const FIELD: [(&str, &str); 6] = [
    ("A", "5d"),
    ("B", "4d"),
    ("C", "3d"),
    ("D", "2d"),
    ("E", "1d"),
    ("F", "1k"),
];

fn played(criteria: Vec<C>) -> Tournament {
    let mut t = event(System::Swiss, Some(3), &FIELD);
    let mut s = t.settings().clone();
    s.criteria = criteria;
    t.set_settings(s).unwrap();
    pair(&mut t);
    results(&mut t, &["B+", "W+", "W+"]); // A>D, B>E, F>C
    pair(&mut t);
    results(&mut t, &["W+", "B+", "draw"]); // A>F, B>C, D=E
    pair(&mut t);
    results(&mut t, &["B+", "B+", "W+"]); // A>B, D>F, C>E
    t
}

/// ```text
///      opponents   points  by round   SOS  SOS-1  SOSOS  SODOS  CUSS
///   A  D F B         6     2 4 6       9    7      29     9      12
///   B  E C A         4     2 4 4       9    8      25     3      10
///   C  F B E         2     0 0 2       7    6      29     1       2
///   D  A E F         3     0 1 3       9    8      29     2.5     4
///   E  B D C         1     0 1 1       9    7      25     1.5     2
///   F  C A D         2     2 2 2      11    9      25     2       6
/// C and F tie on points: F beat C, so direct encounter puts F first.
/// ```
#[test]
fn every_tie_break_by_hand() {
    let t = played(vec![
        C::Points,
        C::Direct,
        C::Sos,
        C::SosMinus1,
        C::Sosos,
        C::Sodos,
        C::Cuss,
    ]);
    let s = t.standings();
    assert_eq!(order(&s), ["A", "B", "D", "F", "C", "E"]);
    assert_eq!(values(&s, "A")[2..], ["9", "7", "29", "9", "12"]);
    assert_eq!(values(&s, "B")[2..], ["9", "8", "25", "3", "10"]);
    assert_eq!(values(&s, "C")[1..], ["0", "7", "6", "29", "1", "2"]);
    assert_eq!(values(&s, "D")[2..], ["9", "8", "29", "2.5", "4"]);
    assert_eq!(values(&s, "E")[2..], ["9", "7", "25", "1.5", "2"]);
    assert_eq!(values(&s, "F")[1..], ["2", "11", "9", "25", "2", "6"]);
}

/// The declared order is followed, whatever it is: by CUSS first, F (6)
/// passes D (4).
#[test]
fn declared_order_is_followed() {
    let t = played(vec![C::Cuss, C::Points]);
    assert_eq!(order(&t.standings()), ["A", "B", "F", "D", "C", "E"]);
}

/// 1988 Art. 29: a withdrawn player's unplayed games count A = points ÷
/// games played (at most 1) each in the opponents' tie-breaks. F has 2
/// points from 2 games and misses round 3: F counts 2 + 1 = 3 for C.
#[test]
fn withdrawn_player_valued_by_the_1988_rule() {
    let sos_of_c = |valuation| {
        let mut t = event(System::Swiss, Some(3), &FIELD);
        let mut s = t.settings().clone();
        s.criteria = vec![C::Points, C::Sos];
        s.withdrawn_valuation = valuation;
        t.set_settings(s).unwrap();
        pair(&mut t);
        results(&mut t, &["B+", "W+", "W+"]);
        pair(&mut t);
        results(&mut t, &["W+", "B+", "draw"]);
        t.withdraw(player(&t, "F")).unwrap();
        pair(&mut t);
        let n = t.rounds()[2].games.len();
        results(&mut t, &vec!["B+"; n]);
        values(&t.standings(), "C")[1].parse::<f64>().unwrap()
    };
    assert_eq!(
        sos_of_c(WithdrawnValuation::Average1988) - sos_of_c(WithdrawnValuation::Actual),
        1.0
    );
}
