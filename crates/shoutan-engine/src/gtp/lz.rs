//! Live analysis in the format Leela Zero introduced and Sabaki reads:
//! one line of `info move D4 visits 120 winrate 5400 prior 1234 lcb 5300
//! order 0 pv D4 Q16 …` entries, winrates and priors in hundredths of a
//! percent.

use std::fmt::Write;

use crate::analysis::Analysis;

/// One `info` line for the analysis, at most `max_moves` moves (all when
/// `None`). Empty when nothing has been searched yet.
#[must_use]
pub fn info_line(analysis: &Analysis, max_moves: Option<u32>) -> String {
    let limit = max_moves.map_or(usize::MAX, |m| m as usize);
    let per_ten_thousand = |x: f32| (x.clamp(0.0, 1.0) * 10_000.0).round() as u32;
    let mut line = String::new();
    for (order, m) in analysis.moves.iter().take(limit).enumerate() {
        if !line.is_empty() {
            line.push(' ');
        }
        let _ = write!(
            line,
            "info move {} visits {} winrate {} prior {} lcb {} order {order} pv",
            m.mv.to_gtp(analysis.size),
            m.visits,
            per_ten_thousand(m.winrate),
            per_ten_thousand(m.prior),
            per_ten_thousand(m.lcb),
        );
        for mv in &m.pv {
            line.push(' ');
            line.push_str(&mv.to_gtp(analysis.size));
        }
    }
    line
}

/// One `kata-analyze` report as KataGo writes it: an `info` entry per
/// move (values from the side to move, win rate and prior from 0 to 1),
/// then with `ownership` the ownership of every point row by row from the
/// top, +1 the side to move's. Empty when nothing has been searched yet.
#[must_use]
pub fn kata_info_line(analysis: &Analysis, max_moves: Option<u32>, ownership: bool) -> String {
    let limit = max_moves.map_or(usize::MAX, |m| m as usize);
    let mut line = String::new();
    for (order, m) in analysis.moves.iter().take(limit).enumerate() {
        if !line.is_empty() {
            line.push(' ');
        }
        let _ = write!(
            line,
            "info move {} visits {v} edgeVisits {v} utility {:.6} winrate {:.6} scoreMean {lead:.6} \
             scoreStdev {:.6} scoreLead {lead:.6} scoreSelfplay {:.6} prior {:.6} lcb {:.6} \
             utilityLcb {:.6} weight {v} order {order} pv",
            m.mv.to_gtp(analysis.size),
            m.utility,
            m.winrate,
            m.score_stdev,
            m.score_mean,
            m.prior,
            m.lcb,
            m.utility_lcb,
            v = m.visits,
            lead = m.score_lead,
        );
        for mv in &m.pv {
            line.push(' ');
            line.push_str(&mv.to_gtp(analysis.size));
        }
    }
    if line.is_empty() {
        return line;
    }
    if ownership {
        let sign = match analysis.to_move {
            shoutan_rules::Color::Black => 1.0,
            shoutan_rules::Color::White => -1.0,
        };
        line.push_str(" ownership");
        for o in &analysis.ownership {
            let _ = write!(line, " {:.6}", sign * o);
        }
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::MoveInfo;
    use shoutan_rules::{BoardSize, Color, Move, Point};
    use std::time::Duration;

    #[test]
    fn sabaki_format() {
        let size = BoardSize::NINETEEN;
        let p = |s| Move::Play(Point::from_gtp(s, size).unwrap());
        let analysis = Analysis {
            size,
            to_move: Color::Black,
            visits: 150,
            searched: 150,
            elapsed: Duration::from_millis(100),
            winrate: 0.54,
            score_lead: 1.5,
            moves: vec![
                MoveInfo {
                    mv: p("D4"),
                    visits: 120,
                    winrate: 0.54,
                    prior: 0.1234,
                    lcb: 0.53,
                    score_lead: 1.5,
                    score_mean: 2.0,
                    score_stdev: 10.0,
                    utility: 0.1,
                    utility_lcb: 0.05,
                    pv: vec![p("D4"), p("Q16")],
                },
                MoveInfo {
                    mv: Move::Pass,
                    visits: 30,
                    winrate: 0.4,
                    prior: 0.01,
                    lcb: 0.2,
                    score_lead: -3.0,
                    score_mean: -3.5,
                    score_stdev: 12.0,
                    utility: -0.2,
                    utility_lcb: -0.4,
                    pv: vec![Move::Pass],
                },
            ],
            ownership: vec![0.0; size.area()],
        };
        assert_eq!(
            info_line(&analysis, None),
            "info move D4 visits 120 winrate 5400 prior 1234 lcb 5300 order 0 pv D4 Q16 \
             info move pass visits 30 winrate 4000 prior 100 lcb 2000 order 1 pv pass"
        );
        assert_eq!(info_line(&analysis, Some(1)).matches("info").count(), 1);
    }

    #[test]
    fn katago_format_with_ownership_from_the_side_to_move() {
        let size = BoardSize::new(2).unwrap();
        let analysis = Analysis {
            size,
            to_move: Color::White,
            visits: 3,
            searched: 3,
            elapsed: Duration::from_millis(10),
            winrate: 0.25,
            score_lead: -2.0,
            moves: vec![MoveInfo {
                mv: Move::Play(Point::from_gtp("A1", size).unwrap()),
                visits: 3,
                winrate: 0.25,
                prior: 0.5,
                lcb: 0.1,
                score_lead: -2.0,
                score_mean: -2.5,
                score_stdev: 4.0,
                utility: -0.6,
                utility_lcb: -0.9,
                pv: vec![Move::Play(Point::from_gtp("A1", size).unwrap()), Move::Pass],
            }],
            // Black owns the top row, white the bottom.
            ownership: vec![1.0, 1.0, -1.0, -0.5],
        };
        assert_eq!(
            kata_info_line(&analysis, None, true),
            "info move A1 visits 3 edgeVisits 3 utility -0.600000 winrate 0.250000 \
             scoreMean -2.000000 scoreStdev 4.000000 scoreLead -2.000000 scoreSelfplay -2.500000 \
             prior 0.500000 lcb 0.100000 utilityLcb -0.900000 weight 3 order 0 pv A1 pass \
             ownership -1.000000 -1.000000 1.000000 0.500000"
        );
        assert!(!kata_info_line(&analysis, None, false).contains("ownership"));
    }
}
