//! Time settings of a record, read and written by `shoutan-clock`: `TM`
//! (main time) and `OT` (overtime), and the properties servers write
//! instead of `OT` — YuanYu/Tygem's `TC` (byo-yomi periods) and `TT`
//! (seconds per period), Tom/Sina's `LC`/`LT` (docs/spec/formats.md).

use shoutan_clock::TimeControl;

use crate::tree::Node;
use crate::warning::Warning;

/// The servers' own properties: periods, then seconds per period.
const SERVER_PROPERTIES: [(&str, &str); 2] = [("TC", "TT"), ("LC", "LT")];

/// The time control of a root node: `None` when it has no time property
/// (or ones that cannot be read, with a warning).
pub(crate) fn read_time(root: &Node) -> (Option<TimeControl>, Vec<Warning>) {
    let text = |id: &str| root.simple_text(id);
    let (tm, ot) = (text("TM"), text("OT"));
    let (tc, tt) = SERVER_PROPERTIES
        .iter()
        .map(|(c, t)| (text(c), text(t)))
        .find(|(c, t)| c.is_some() || t.is_some())
        .unwrap_or((None, None));
    if tm.is_none() && ot.is_none() && tc.is_none() && tt.is_none() {
        return (None, Vec::new());
    }
    let written: String = ["TM", "OT", "TC", "TT", "LC", "LT"]
        .iter()
        .filter_map(|id| root.value(id).map(|v| format!("{id}[{}]", v.raw())))
        .collect();
    match TimeControl::from_sgf(tm.as_deref(), ot.as_deref(), tc.as_deref(), tt.as_deref()) {
        Ok(control) => {
            let server_only = tc.is_some() || tt.is_some();
            let mut warnings = Vec::new();
            if server_only
                && TimeControl::from_sgf(tm.as_deref(), ot.as_deref(), None, None) != Ok(control)
            {
                warnings.push(Warning::TimeProperties {
                    written,
                    read: control.to_string(),
                });
            }
            (Some(control), warnings)
        }
        Err(error) => (
            None,
            vec![Warning::UnreadableTime {
                written,
                reason: error.to_string(),
            }],
        ),
    }
}

/// Writes `TM` and `OT` for `control` and removes the servers' own
/// properties, which `OT` replaces.
pub(crate) fn write_time(control: &TimeControl, root: &mut Node) {
    for (periods, period) in SERVER_PROPERTIES {
        root.remove(periods);
        root.remove(period);
    }
    let sgf = control.to_sgf();
    for (id, value) in [("TM", sgf.tm), ("OT", sgf.ot)] {
        match value {
            Some(text) => root.set_text(id, &text),
            None => {
                root.remove(id);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse;

    fn time(root: &str) -> (Option<String>, Vec<Warning>) {
        let (c, _) = parse(&format!("(;{root})")).unwrap();
        let (control, warnings) = read_time(c.games[0].root());
        (control.map(|c| c.to_string()), warnings)
    }

    #[test]
    fn standard_properties_need_no_warning() {
        assert_eq!(
            time("TM[7200]OT[3x60 byo-yomi]"),
            (Some("2h + 3×60s byo-yomi".into()), vec![])
        );
        assert_eq!(time("TM[1800]"), (Some("absolute 30 min".into()), vec![]));
        assert_eq!(time("GM[1]"), (None, vec![]));
    }

    #[test]
    fn yuanyu_tygem_and_tom_properties() {
        // docs/spec/formats.md: TM[3600]TC[10]TT[60] is 10 periods of 60 s after an hour.
        let (control, warnings) = time("TM[3600]TC[10]TT[60]");
        assert_eq!(control.as_deref(), Some("1h + 10×60s byo-yomi"));
        assert_eq!(
            warnings,
            vec![Warning::TimeProperties {
                written: "TM[3600]TC[10]TT[60]".into(),
                read: "1h + 10×60s byo-yomi".into()
            }]
        );
        let (control, warnings) = time("TM[60]LT[30]LC[3]");
        assert_eq!(control.as_deref(), Some("1 min + 3×30s byo-yomi"));
        assert_eq!(warnings.len(), 1);
    }

    #[test]
    fn unreadable_time_is_a_warning_not_an_error() {
        let (control, warnings) = time("TM[an hour]");
        assert_eq!(control, None);
        assert!(
            matches!(&warnings[..], [Warning::UnreadableTime { written, .. }] if written == "TM[an hour]")
        );
    }

    #[test]
    fn writing_replaces_the_server_properties() {
        let (c, _) = parse("(;TM[60]TC[3]TT[30]GN[x])").unwrap();
        let mut root = c.games[0].root().clone();
        let (control, _) = read_time(&root);
        write_time(&control.unwrap(), &mut root);
        assert_eq!(format!("{root:?}"), ";TM[60]GN[x]OT[3x30 byo-yomi]");
    }
}
