//! The proverbs (围棋口诀) over HTTP: each with its explanation and its
//! diagrams, every claim of which the solver proves (see
//! [`shoutan_problems::proverbs`]).

use axum::Json;
use serde::Serialize;
use shoutan_problems::{Claim, Diagram, Proverb, proverbs};
use shoutan_rules::{Color, Point};
use shoutan_solver::Verdict;

/// A text in both languages.
#[derive(Serialize)]
pub struct Text {
    zh: &'static str,
    en: &'static str,
}

/// A claim: who moves first, what they reach, by which first moves.
#[derive(Serialize)]
pub struct ClaimOut {
    mover: &'static str,
    verdict: Verdict,
    moves: Vec<String>,
}

/// A diagram: its caption, its stones, the group at stake and the claims.
#[derive(Serialize)]
pub struct DiagramOut {
    caption: Text,
    size: u8,
    black: Vec<String>,
    white: Vec<String>,
    target: String,
    claims: Vec<ClaimOut>,
}

/// A proverb.
#[derive(Serialize)]
pub struct ProverbOut {
    slug: &'static str,
    zh: &'static str,
    en: &'static str,
    explain: Text,
    diagrams: Vec<DiagramOut>,
}

/// `GET /api/proverbs`.
#[derive(Serialize)]
pub struct ProverbList {
    proverbs: Vec<ProverbOut>,
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::Black => "black",
        Color::White => "white",
    }
}

fn diagram(d: &Diagram) -> DiagramOut {
    let size = d.board.size();
    let gtp = |p: Point| p.to_gtp(size);
    let stones = |color: Color| {
        size.points()
            .filter(|&p| d.board.get(p) == Some(color))
            .map(gtp)
            .collect()
    };
    DiagramOut {
        caption: Text {
            zh: d.caption_zh,
            en: d.caption_en,
        },
        size: size.get(),
        black: stones(Color::Black),
        white: stones(Color::White),
        target: gtp(d.target),
        claims: d
            .claims
            .iter()
            .map(|c: &Claim| ClaimOut {
                mover: color_name(c.mover),
                verdict: c.verdict,
                moves: c.moves.iter().map(|&p| gtp(p)).collect(),
            })
            .collect(),
    }
}

fn proverb(p: &Proverb) -> ProverbOut {
    ProverbOut {
        slug: p.slug,
        zh: p.zh,
        en: p.en,
        explain: Text {
            zh: p.explain_zh,
            en: p.explain_en,
        },
        diagrams: p.diagrams.iter().map(diagram).collect(),
    }
}

/// `GET /api/proverbs`: every proverb with its diagrams and claims, points
/// in GTP notation.
pub async fn list() -> Json<ProverbList> {
    Json(ProverbList {
        proverbs: proverbs().iter().map(proverb).collect(),
    })
}
