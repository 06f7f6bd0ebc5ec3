//! The proverbs (`GET /api/proverbs`): the list is the library's, every
//! diagram's stones, target and claims in GTP notation.

use serde_json::{Value, json};
use shoutan_problems::proverbs;
use shoutan_rules::{Color, Point};
use shoutan_solver::Verdict;

use crate::common::{Backend, Client, TestServer, config};

fn verdict_name(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Win => "win",
        Verdict::Ko => "ko",
        Verdict::Seki => "seki",
        Verdict::Lose => "lose",
        Verdict::Unknown => "unknown",
    }
}

/// The JSON the library's proverbs should be served as.
fn expected() -> Value {
    let list: Vec<Value> = proverbs()
        .iter()
        .map(|p| {
            let diagrams: Vec<Value> = p
                .diagrams
                .iter()
                .map(|d| {
                    let size = d.board.size();
                    let gtp = |p: Point| p.to_gtp(size);
                    let stones = |color: Color| -> Vec<String> {
                        size.points()
                            .filter(|&p| d.board.get(p) == Some(color))
                            .map(gtp)
                            .collect()
                    };
                    let claims: Vec<Value> = d
                        .claims
                        .iter()
                        .map(|c| {
                            json!({
                                "mover": if c.mover == Color::Black { "black" } else { "white" },
                                "verdict": verdict_name(c.verdict),
                                "moves": c.moves.iter().map(|&p| gtp(p)).collect::<Vec<_>>(),
                            })
                        })
                        .collect();
                    json!({
                        "caption": {"zh": d.caption_zh, "en": d.caption_en},
                        "size": size.get(),
                        "black": stones(Color::Black),
                        "white": stones(Color::White),
                        "target": gtp(d.target),
                        "claims": claims,
                    })
                })
                .collect();
            json!({
                "slug": p.slug,
                "zh": p.zh,
                "en": p.en,
                "explain": {"zh": p.explain_zh, "en": p.explain_en},
                "diagrams": diagrams,
            })
        })
        .collect();
    json!({ "proverbs": list })
}

async fn the_proverbs_are_the_librarys(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let answer = Client::anonymous(&server).get("/api/proverbs").await;
    assert_eq!(answer.status, 200, "{}", answer.json);
    assert_eq!(answer.json, expected());
    // A spot check of the shape, independent of the code above.
    let first = &answer.json["proverbs"][0];
    assert_eq!(first["slug"], "zhisan-qusan");
    let straight_three = &first["diagrams"][0];
    assert_eq!(straight_three["size"], 7);
    assert_eq!(straight_three["target"], "D7");
    assert_eq!(
        straight_three["claims"][0],
        json!({"mover": "black", "verdict": "win", "moves": ["B7"]})
    );
    let slugs: Vec<&str> = answer.json["proverbs"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p["slug"].as_str())
        .collect();
    for slug in [
        "panjiao-qusi",
        "qisi-bahuo",
        "youyan-sha-wuyan",
        "zheng",
        "jia",
    ] {
        assert!(slugs.contains(&slug), "{slug} in {slugs:?}");
    }
}

crate::for_both_backends!(the_proverbs_are_the_librarys);
