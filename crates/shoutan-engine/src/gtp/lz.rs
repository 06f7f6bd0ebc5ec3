//! Live analysis in the format Leela Zero introduced and Sabaki reads:
//! one line of `info move D4 visits 120 winrate 5400 prior 1234 lcb 5300
//! order 0 pv D4 Q16 …` entries, winrates and priors in hundredths of a
//! percent.

use std::fmt::Write;

use shoutan_rules::{BoardSize, Move};

use crate::analysis::Analysis;

/// The GTP text of a move.
#[must_use]
pub fn move_text(mv: Move, size: BoardSize) -> String {
    match mv {
        Move::Play(p) => p.to_gtp(size),
        Move::Pass => "pass".to_owned(),
    }
}

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
            move_text(m.mv, analysis.size),
            m.visits,
            per_ten_thousand(m.winrate),
            per_ten_thousand(m.prior),
            per_ten_thousand(m.lcb),
        );
        for mv in &m.pv {
            line.push(' ');
            line.push_str(&move_text(*mv, analysis.size));
        }
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::MoveInfo;
    use shoutan_rules::{Color, Point};
    use std::time::Duration;

    #[test]
    fn sabaki_format() {
        let size = BoardSize::NINETEEN;
        let p = |s| Move::Play(Point::from_gtp(s, size).unwrap());
        let analysis = Analysis {
            size,
            to_move: Color::Black,
            visits: 150,
            playouts: 150,
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
                    pv: vec![p("D4"), p("Q16")],
                },
                MoveInfo {
                    mv: Move::Pass,
                    visits: 30,
                    winrate: 0.4,
                    prior: 0.01,
                    lcb: 0.2,
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
}
