//! `shoutan sgf normalize`: a messy record rewritten in clean `FF[4]` that
//! any program reads the way Shoutan does — standard komi, rules and result,
//! `[]` passes, `OT` for the servers' own time properties, UTF-8.

use shoutan_rules::BoardSize;

use crate::info::{GameInfo, komi_text};
use crate::rules::ru_value;
use crate::time::write_time;
use crate::tree::{Collection, GameTree, NodeId};
use crate::warning::{ResultQuirk, Warning};

/// Rewrites each game of `collection` in standard form and returns what
/// was repaired: the game-information repairs of [`GameInfo::read`] (komi,
/// rules, result, time), results in another spelling, `[tt]` passes. The
/// moves, variations, comments and unknown properties are left as they are.
///
/// ```
/// use shoutan_sgf::{normalize, read};
/// let mut file = read(b"(;KM[750]RU[Japanese]RE[W+Resign];B[pd];W[tt])").unwrap();
/// let repairs = normalize(&mut file.collection);
/// assert_eq!(repairs.len(), 4);
/// assert_eq!(
///     file.collection.to_sgf(),
///     "(;GM[1]FF[4]CA[UTF-8]KM[7.5]RU[chinese-simple-ko]\nRE[W+R]\n;B[pd];W[])\n"
/// );
/// ```
pub fn normalize(collection: &mut Collection) -> Vec<Warning> {
    let mut warnings = Vec::new();
    for game in &mut collection.games {
        let size = match GameInfo::read(game.root()) {
            Ok((info, info_warnings)) => {
                repair_info(game, &info, &info_warnings, &mut warnings);
                warnings.extend(info_warnings);
                info.size
            }
            Err(_) => continue,
        };
        let root = game.root_mut();
        if !root.has("GM") {
            root.set_text("GM", "1");
        }
        root.set_text("FF", "4");
        root.set_text("CA", "UTF-8");
        root.move_to_front(&["GM", "FF", "CA", "AP"]);
        let passes = rewrite_tt_passes(game, size);
        if passes > 0 {
            warnings.push(Warning::TtPasses { count: passes });
        }
    }
    warnings
}

fn repair_info(game: &mut GameTree, info: &GameInfo, found: &[Warning], out: &mut Vec<Warning>) {
    let root = game.root_mut();
    for warning in found {
        match warning {
            Warning::FoxKomi { komi, .. }
            | Warning::KomiInZi { komi, .. }
            | Warning::ZeroKomi { komi, .. } => root.set_text("KM", &komi_text(*komi)),
            Warning::KomiFromKo { komi, .. } => {
                root.remove("KO");
                root.set_text("KM", &komi_text(*komi));
            }
            Warning::FoxChineseRules { .. } => root.set_text("RU", &ru_value(&info.ruleset)),
            Warning::NonstandardResult { quirk, .. } if has_standard_form(*quirk) => {
                if let Some(result) = info.result {
                    root.set_text("RE", &result.international());
                }
            }
            Warning::TimeProperties { .. } => {
                if let Some(control) = &info.time {
                    write_time(control, root);
                }
            }
            _ => {}
        }
    }
    if let (Some(result), Some(written)) = (info.result, &info.result_written)
        && !found
            .iter()
            .any(|w| matches!(w, Warning::NonstandardResult { .. }))
        && *written != result.international()
    {
        root.set_text("RE", &result.international());
        out.push(Warning::NonstandardResult {
            written: written.clone(),
            read: result.international(),
            quirk: ResultQuirk::Spelling,
        });
    }
}

/// Judgments and violations have no standard SGF form: they stay as written.
fn has_standard_form(quirk: ResultQuirk) -> bool {
    !matches!(quirk, ResultQuirk::Judgment | ResultQuirk::Violation)
}

/// `B[tt]`/`W[tt]` → `B[]`/`W[]` on boards up to 19×19, in every node.
fn rewrite_tt_passes(game: &mut GameTree, size: BoardSize) -> usize {
    if size.get() > 19 {
        return 0;
    }
    let mut count = 0;
    for i in 0..game.len() {
        let node = game.node_mut(NodeId::from_index(i));
        for id in ["B", "W"] {
            if node.value(id).is_some_and(|v| v.simple_text() == "tt") {
                node.set_values(id, vec![crate::Value::empty()]);
                count += 1;
            }
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{parse, read};

    fn normalized(text: &str) -> (String, Vec<Warning>) {
        let mut file = read(text.as_bytes()).unwrap();
        let warnings = normalize(&mut file.collection);
        (file.collection.to_sgf(), warnings)
    }

    #[test]
    fn a_clean_file_changes_only_by_the_standard_header() {
        let (text, warnings) =
            normalized("(;GM[1]FF[4]CA[UTF-8]SZ[9]KM[7]RU[Chinese]RE[B+R];B[ee];W[])");
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(
            text,
            "(;GM[1]FF[4]CA[UTF-8]SZ[9]KM[7]RU[Chinese]\nRE[B+R]\n;B[ee];W[])\n"
        );
    }

    #[test]
    fn fox_komi_rules_and_zero_result() {
        let (text, warnings) = normalized("(;SZ[19]KM[750]RU[Japanese]RE[W+0.0];B[pd])");
        assert!(text.contains("KM[7.5]"));
        assert!(text.contains("RU[chinese-simple-ko]"));
        assert!(text.contains("RE[W+]"));
        assert_eq!(warnings.len(), 3);
    }

    #[test]
    fn judgments_keep_their_form() {
        let (text, warnings) = normalized("(;RE[B+J];B[pd])");
        assert!(text.contains("RE[B+J]"));
        assert_eq!(warnings.len(), 1);
    }

    #[test]
    fn spellings_and_passes() {
        let (text, warnings) = normalized("(;RE[B+2.50];B[tt];W[tt](;B[tt]))");
        assert!(text.contains("RE[B+2.5]"));
        assert!(!text.contains("tt"));
        assert_eq!(
            warnings,
            vec![
                Warning::NonstandardResult {
                    written: "B+2.50".into(),
                    read: "B+2.5".into(),
                    quirk: ResultQuirk::Spelling
                },
                Warning::TtPasses { count: 3 }
            ]
        );
    }

    #[test]
    fn komi_from_ko_moves_to_km() {
        let (text, _) = normalized("(;KO[7.5]RU[Chinese];B[pd])");
        assert!(text.contains("KM[7.5]") && !text.contains("KO["));
    }

    #[test]
    fn normalizing_twice_changes_nothing_more() {
        let (once, _) = normalized("(;KM[375]RU[Japanese]RE[黑中盘胜];B[pd];W[tt])");
        let (twice, warnings) = normalized(&once);
        assert_eq!(once, twice);
        assert!(warnings.is_empty(), "{warnings:?}");
        let (c, _) = parse(&once).unwrap();
        assert_eq!(c.games[0].root().simple_text("RE").as_deref(), Some("B+R"));
    }
}
